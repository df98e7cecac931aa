//! Local HTTP servers for the benchmarks: bound to 127.0.0.1 on a free port, each served by its
//! own thread with a single-threaded runtime (so the server side of every figure is one thread,
//! whatever is measured), and stopped gracefully when dropped.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result};
use tokio::sync::watch;

/// The future a server is handed to learn that it must stop.
pub type Shutdown = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// How long a server may take to stop after being asked before the benchmark gives up on it.
const STOP_DEADLINE: Duration = Duration::from_secs(10);

pub struct LocalServer {
    pub address: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<std::io::Result<()>>>,
}

impl LocalServer {
    /// Binds 127.0.0.1:0 and runs `serve(listener, shutdown)` on a thread of its own.
    pub fn start<F, Fut>(name: &str, serve: F) -> Result<Self>
    where
        F: FnOnce(tokio::net::TcpListener, Shutdown) -> Fut + Send + 'static,
        Fut: Future<Output = std::io::Result<()>>,
    {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").context("binding 127.0.0.1:0")?;
        let address = listener.local_addr()?;
        // tokio adopts only non-blocking sockets.
        listener.set_nonblocking(true)?;
        let (stop, mut stopped) = watch::channel(false);
        let mut deadline = stop.subscribe();
        let thread = std::thread::Builder::new()
            .name(format!("bench-server-{name}"))
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()?;
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    let shutdown: Shutdown = Box::pin(async move {
                        let _ = stopped.wait_for(|stop| *stop).await;
                    });
                    // A server that does not stop within the deadline is abandoned with an
                    // error rather than hanging the benchmark.
                    tokio::select! {
                        outcome = serve(listener, shutdown) => outcome,
                        () = async {
                            let _ = deadline.wait_for(|stop| *stop).await;
                            tokio::time::sleep(STOP_DEADLINE).await;
                        } => Err(std::io::Error::other("did not stop within 10 s")),
                    }
                })
            })
            .context("starting a server thread")?;
        Ok(Self {
            address,
            stop,
            thread: Some(thread),
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Stops the server and waits for its thread.
    pub fn stop(mut self) -> Result<()> {
        self.stop_now()
    }

    fn stop_now(&mut self) -> Result<()> {
        let _ = self.stop.send(true);
        match self.thread.take() {
            Some(thread) => thread
                .join()
                .map_err(|_| anyhow::anyhow!("the server thread panicked"))?
                .context("the server failed"),
            None => Ok(()),
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Err(error) = self.stop_now() {
            eprintln!("warning: server on {}: {error:#}", self.address);
        }
    }
}

/// A runtime for the client side of a figure: one thread, like the server.
pub fn client_runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}
