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
//!
//! Printing never blocks the server. Handlers run on the async runtime's few worker threads, and
//! a blocking write to a stdout nobody reads (a full pipe) would stop them all: nothing would be
//! answered any more, not even a wrong secret. So the handler hands its line to one writer task
//! through a bounded queue, and answers 200 only once the line is written. When stdout stalls,
//! deliveries wait for their line at most 5 s, and once a write has been stuck that long they
//! are answered 500 at once (the hub retries them later) instead of being counted as delivered
//! with a line nobody saw.
//!
//! (`tests/receiver_example.rs` compiles this file as a module: what it uses is `pub(crate)`.)

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hub_api::receiver::{Receiver, ReceiverBuilder, ReceiverError};
use hub_api::types::WebhookPayload;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

const DEFAULT_ADDRESS: &str = "127.0.0.1:8787";
const USAGE: &str = "\
usage: webhook_receiver [--addr <ip:port>]

Receives the hub's webhook deliveries at POST /webhooks/hub and prints one line per delivery
to stdout. The secret is read from WEBHOOK_SECRET.

options:
  --addr <ip:port>  where to listen (default 127.0.0.1:8787)
  -h, --help        print this help";

/// Lines waiting for stdout at most; one more is refused rather than waited for.
const QUEUE_LINES: usize = 256;
/// How long a handler waits for its line to be written before answering 500.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the process waits, after the server has stopped, for stdout to take what is queued.
const EXIT_FLUSH_TIMEOUT: Duration = Duration::from_secs(2);

/// The delivery's line, in the format the module documentation gives.
fn delivery_line(payload: &WebhookPayload) -> String {
    format!(
        "delivery scope={} action={} repo={}/{}",
        payload.event.scope.as_deref().unwrap_or("-"),
        payload.event.action,
        payload.repo.type_,
        payload.repo.name.as_deref().unwrap_or("-"),
    )
}

/// Why a line was not written; the receiver logs it and answers 500, so the hub retries.
#[derive(Debug, thiserror::Error)]
enum PrintError {
    #[error("stdout is not keeping up: {QUEUE_LINES} lines are already waiting")]
    Backlog,
    #[error("stdout did not take the line within {WRITE_TIMEOUT:?}")]
    Stalled,
    #[error("stdout has not taken a write for over {WRITE_TIMEOUT:?}")]
    StillStalled,
    #[error("writing to stdout failed: {0}")]
    Write(std::io::ErrorKind),
    #[error("the stdout writer has stopped")]
    WriterGone,
}

/// A line on its way out, and whom to tell once it is written.
struct Line {
    text: String,
    written: oneshot::Sender<std::io::Result<()>>,
}

/// The handlers' side of the writer task.
#[derive(Clone)]
pub(crate) struct Printer {
    lines: mpsc::Sender<Line>,
    /// When the write in progress started, if one is: a write older than the timeout means
    /// stdout is stalled, and deliveries are refused at once rather than after the timeout.
    writing_since: Arc<Mutex<Option<Instant>>>,
}

impl Printer {
    /// Starts the writer task on `output`; it ends once every `Printer` is dropped and the
    /// queue is written.
    pub(crate) fn start<W>(output: W) -> (Self, tokio::task::JoinHandle<()>)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (lines, queue) = mpsc::channel(QUEUE_LINES);
        let writing_since = Arc::new(Mutex::new(None));
        let writer = tokio::spawn(write_lines(output, queue, Arc::clone(&writing_since)));
        (
            Self {
                lines,
                writing_since,
            },
            writer,
        )
    }

    fn stalled(&self) -> bool {
        let writing_since = *self
            .writing_since
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        writing_since.is_some_and(|since| since.elapsed() > WRITE_TIMEOUT)
    }

    /// Prints `text` as one line, and returns once it is written and flushed.
    async fn print(&self, text: String) -> Result<(), PrintError> {
        if self.stalled() {
            return Err(PrintError::StillStalled);
        }
        let (written, done) = oneshot::channel();
        self.lines
            .try_send(Line { text, written })
            .map_err(|error| match error {
                mpsc::error::TrySendError::Full(_) => PrintError::Backlog,
                mpsc::error::TrySendError::Closed(_) => PrintError::WriterGone,
            })?;
        match tokio::time::timeout(WRITE_TIMEOUT, done).await {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(error))) => Err(PrintError::Write(error.kind())),
            Ok(Err(_)) => Err(PrintError::WriterGone),
            Err(_) => Err(PrintError::Stalled),
        }
    }
}

/// Writes queued lines in batches, one flush per batch, and reports each line's outcome. A line
/// whose handler stopped waiting (and answered 500) is skipped: the hub will send it again.
async fn write_lines<W>(
    mut output: W,
    mut queue: mpsc::Receiver<Line>,
    writing_since: Arc<Mutex<Option<Instant>>>,
) where
    W: AsyncWrite + Unpin,
{
    let mut batch = Vec::new();
    let mut bytes = Vec::new();
    while queue.recv_many(&mut batch, QUEUE_LINES).await > 0 {
        batch.retain(|line| !line.written.is_closed());
        bytes.clear();
        for line in &batch {
            bytes.extend_from_slice(line.text.as_bytes());
            bytes.push(b'\n');
        }
        let set_writing_since = |since| {
            *writing_since
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = since;
        };
        set_writing_since(Some(Instant::now()));
        let outcome = async {
            output.write_all(&bytes).await?;
            output.flush().await
        }
        .await;
        set_writing_since(None);
        for line in batch.drain(..) {
            let report = match &outcome {
                Ok(()) => Ok(()),
                Err(error) => Err(std::io::Error::from(error.kind())),
            };
            let _ = line.written.send(report);
        }
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Serve(SocketAddr),
    Help,
}

pub(crate) fn parse_arguments(
    mut arguments: impl Iterator<Item = String>,
) -> Result<Command, String> {
    let mut address = DEFAULT_ADDRESS.to_owned();
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--addr" => address = arguments.next().ok_or("--addr needs a value")?,
            "-h" | "--help" => return Ok(Command::Help),
            other => match other.strip_prefix("--addr=") {
                Some(value) => address = value.to_owned(),
                None => return Err(format!("unexpected argument {other:?}")),
            },
        }
    }
    address
        .parse()
        .map(Command::Serve)
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

/// Builds the receiver with its one handler, printing through `printer`.
pub(crate) fn receiver(
    builder: ReceiverBuilder,
    printer: Printer,
) -> Result<Receiver, ReceiverError> {
    builder
        .handler("hub", move |payload: WebhookPayload| {
            let printer = printer.clone();
            async move { printer.print(delivery_line(&payload)).await }
        })
        .build()
}

async fn run(address: SocketAddr) -> ExitCode {
    // tokio's stdout writes on a blocking-pool thread, never on a worker.
    let (printer, writer) = Printer::start(tokio::io::stdout());
    let receiver = match receiver(Receiver::builder(), printer) {
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
    let served = receiver.serve(listener, stop_signal()).await;
    // The receiver, and so the last `Printer`, is gone: the writer ends once the queue is out.
    if tokio::time::timeout(EXIT_FLUSH_TIMEOUT, writer)
        .await
        .is_err()
    {
        eprintln!("stdout did not take the last lines; their deliveries were answered 500");
    }
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("the receiver stopped: {error}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let address = match parse_arguments(std::env::args().skip(1)) {
        Ok(Command::Serve(address)) => address,
        Ok(Command::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("{problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::INFO)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(run(address));
    // A write stuck on a stalled stdout holds a blocking-pool thread; do not wait for it.
    runtime.shutdown_timeout(Duration::from_millis(100));
    code
}
