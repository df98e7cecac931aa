//! A webhook receiver with one handler, `hub` (served at `POST /webhooks/hub`), that prints one
//! line to stdout per accepted delivery:
//!
//! ```text
//! delivery scope=<event.scope> action=<event.action> repo=<repo.type>/<repo.name>
//! ```
//!
//! A field the payload leaves out prints as `-`. Logs go to stderr, so stdout carries only
//! those lines. Run it with the secret configured on the hub's webhook:
//!
//! ```text
//! WEBHOOK_SECRET='...' cargo run --example webhook_receiver -- --addr 127.0.0.1:8787
//! ```
//!
//! Ctrl-C (or SIGTERM) stops it gracefully: deliveries in flight are still handled and answered.

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

use hub_api::types::WebhookPayload;
use hub_api::webhooks::{Receiver, handler};

const DEFAULT_ADDRESS: &str = "127.0.0.1:8787";
const USAGE: &str = "usage: webhook_receiver [--addr <ip:port>] (default 127.0.0.1:8787; secret from WEBHOOK_SECRET)";

/// Prints the delivery. A failed write is returned, so the delivery is answered 500 and the
/// hub retries it rather than counting a line nobody saw as delivered.
async fn hub(payload: WebhookPayload) -> std::io::Result<()> {
    let line = format!(
        "delivery scope={} action={} repo={}/{}",
        payload.event.scope.as_deref().unwrap_or("-"),
        payload.event.action,
        payload.repo.type_,
        payload.repo.name.as_deref().unwrap_or("-"),
    );
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{line}")?;
    stdout.flush()
}

fn parse_address(mut arguments: impl Iterator<Item = String>) -> Result<SocketAddr, String> {
    let mut address = DEFAULT_ADDRESS.to_owned();
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--addr" => address = arguments.next().ok_or("--addr needs a value")?,
            "-h" | "--help" => return Err(String::new()),
            other => match other.strip_prefix("--addr=") {
                Some(value) => address = value.to_owned(),
                None => return Err(format!("unexpected argument {other:?}")),
            },
        }
    }
    address
        .parse()
        .map_err(|error| format!("--addr {address:?}: {error}"))
}

/// Resolves on Ctrl-C, or on SIGTERM where there is one (containers stop with it).
async fn stop_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::INFO)
        .init();

    let address = match parse_address(std::env::args().skip(1)) {
        Ok(address) => address,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("{problem}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let receiver = match Receiver::builder().register(handler!(hub)).build() {
        Ok(receiver) => receiver,
        Err(error) => {
            eprintln!("cannot start the receiver: {error}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(address).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("cannot listen on {address}: {error}");
            return ExitCode::FAILURE;
        }
    };
    match receiver.serve(listener, stop_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("the receiver stopped: {error}");
            ExitCode::FAILURE
        }
    }
}
