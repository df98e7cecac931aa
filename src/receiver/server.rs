//! The receiver's own HTTP/1 server, built on hyper's connection driver rather than
//! `axum::serve`, which bounds neither how long a request head may take nor how many connections
//! are open. Here every connection has a watchdog, and the accept loop keeps a cap:
//!
//! - A new connection must deliver a complete request head within the header timeout of being
//!   accepted; a kept-alive connection may wait the idle timeout for the first byte of its next
//!   request, and then has the header timeout for the rest of the head. A connection past its
//!   limit is closed; no request is in progress on it, so nothing is lost. A sender dribbling a
//!   head byte by byte (slowloris) is therefore cut off after the header timeout.
//! - At most `max_connections` are open. When one more arrives, the connection that has waited
//!   longest without a request in progress (idle, or still sending its head) is closed to make
//!   room, so idle or slow connections cannot crowd out deliveries. Only when every connection
//!   is answering a request does the newcomer wait for a slot. Running out of file descriptors
//!   (`accept` failing) sheds an idle connection the same way.
//!
//! A request in progress is bounded by the receiver's body and handler timeouts instead, and is
//! never cut off: stopping such a connection (for room, or for shutdown) lets it answer first.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Instant;
use tower_service::Service as _;

use super::in_flight::InFlight;
use super::log_limit::LogLimiter;

/// What bounds connections; see the module documentation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConnectionLimits {
    pub(crate) header_timeout: Duration,
    pub(crate) idle_timeout: Duration,
    pub(crate) max_connections: usize,
}

/// How long the accept loop pauses after `accept` fails for want of resources: after shedding
/// a connection, long enough for its task to close it; with nothing to shed, long enough not
/// to spin while the shortage lasts.
const ACCEPT_RETRY_AFTER_SHEDDING: Duration = Duration::from_millis(5);
const ACCEPT_RETRY_WITHOUT_SHEDDING: Duration = Duration::from_millis(100);

/// How often a failing `accept` is logged at most; a descriptor shortage fails every accept.
const ACCEPT_WARNING_INTERVAL: Duration = Duration::from_secs(60);

/// Serves `router` on `listener` until `shutdown` resolves, then stops accepting, closes the
/// connections that have no request in progress, lets the others answer, and returns once
/// every connection is closed.
pub(crate) async fn serve<F>(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: F,
) where
    F: Future<Output = ()> + Send + 'static,
{
    let registry = Arc::new(Registry::default());
    let accept_warnings = LogLimiter::new(ACCEPT_WARNING_INTERVAL);
    let mut shutdown = pin!(shutdown);
    'accepting: loop {
        let stream = tokio::select! {
            biased;
            () = shutdown.as_mut() => break 'accepting,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => stream,
                Err(error) if is_connection_error(&error) => continue,
                Err(error) => {
                    // Most likely out of file descriptors: shedding an idle connection frees one.
                    let shed = registry.shed_oldest_waiting();
                    if let Some(suppressed) = accept_warnings.admit() {
                        tracing::warn!(
                            %error,
                            suppressed,
                            shed,
                            "accepting a connection failed; shedding an idle connection and retrying"
                        );
                    }
                    let pause = if shed { ACCEPT_RETRY_AFTER_SHEDDING } else { ACCEPT_RETRY_WITHOUT_SHEDDING };
                    tokio::select! {
                        biased;
                        () = shutdown.as_mut() => break 'accepting,
                        () = tokio::time::sleep(pause) => continue,
                    }
                }
            },
        };
        // The newcomer may only be served within the cap: make room, or wait for it.
        while !registry.has_room(limits.max_connections) {
            let changed = registry.changed.notified();
            let mut changed = pin!(changed);
            changed.as_mut().enable();
            registry.acceptor_waiting.store(true, Ordering::SeqCst);
            if registry.shed_oldest_waiting() || registry.has_room(limits.max_connections) {
                registry.acceptor_waiting.store(false, Ordering::SeqCst);
                break;
            }
            tokio::select! {
                biased;
                () = shutdown.as_mut() => {
                    registry.acceptor_waiting.store(false, Ordering::SeqCst);
                    break 'accepting;
                }
                () = changed => {}
            }
            registry.acceptor_waiting.store(false, Ordering::SeqCst);
        }
        let _ = stream.set_nodelay(true);
        let connection = registry.register();
        let running = registry.open.start();
        let router = router.clone();
        let registry = Arc::clone(&registry);
        tokio::spawn(async move {
            let _running = running;
            let id = connection.id;
            serve_connection(stream, router, Arc::clone(&connection), limits).await;
            registry.remove(id);
        });
    }
    // Closing the listener first refuses new connections while the open ones finish.
    drop(listener);
    registry.stop_all();
    registry.open.idle().await;
}

/// Errors that concern one connection only, after which accepting can go straight on.
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// The open connections, so that the accept loop can find one to shed and shutdown can stop
/// them all.
#[derive(Default)]
struct Registry {
    /// Connections that count against the cap; a shed one leaves at once, even though its task
    /// may still be finishing an answer.
    live: Mutex<HashMap<u64, Arc<Connection>>>,
    next_id: AtomicU64,
    /// Connection tasks still running, shed ones included: shutdown waits for all of them.
    open: Arc<InFlight>,
    /// Whether the accept loop waits for a connection to end or to fall idle.
    acceptor_waiting: AtomicBool,
    changed: Notify,
}

impl Registry {
    fn live(&self) -> MutexGuard<'_, HashMap<u64, Arc<Connection>>> {
        // A panic elsewhere while this was held leaves a map that is still consistent.
        self.live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn has_room(&self, max_connections: usize) -> bool {
        self.live().len() < max_connections
    }

    fn register(self: &Arc<Self>) -> Arc<Connection> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new(Connection {
            id,
            activity: Mutex::new(Activity::Fresh {
                since: Instant::now(),
            }),
            stop: Notify::new(),
            registry: Arc::downgrade(self),
        });
        self.live().insert(id, Arc::clone(&connection));
        connection
    }

    fn remove(&self, id: u64) {
        self.live().remove(&id);
        self.wake_acceptor();
    }

    fn wake_acceptor(&self) {
        if self.acceptor_waiting.load(Ordering::SeqCst) {
            self.changed.notify_waiters();
        }
    }

    /// Stops the connection that has waited longest without a request in progress; false if
    /// every connection is answering one.
    fn shed_oldest_waiting(&self) -> bool {
        let mut live = self.live();
        let oldest = live
            .values()
            .filter_map(|connection| {
                connection
                    .activity()
                    .waiting_since()
                    .map(|since| (since, connection.id))
            })
            .min();
        let Some((_, id)) = oldest else {
            return false;
        };
        if let Some(connection) = live.remove(&id) {
            connection.stop.notify_one();
        }
        true
    }

    fn stop_all(&self) {
        for connection in self.live().values() {
            connection.stop.notify_one();
        }
    }
}

/// What a connection is doing, as its watchdog and the shedding need to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Activity {
    /// Accepted, and its request head is not complete yet: `since` it was accepted.
    Fresh { since: Instant },
    /// Kept alive after an answer, and no byte of the next request yet.
    Idle { since: Instant },
    /// Part of a kept-alive connection's next request head has arrived, the first byte `since`.
    ReadingHead { since: Instant },
    /// A request is being answered.
    Busy,
}

impl Activity {
    /// Since when the connection has been without a request in progress, if it is.
    fn waiting_since(self) -> Option<Instant> {
        match self {
            Self::Fresh { since } | Self::Idle { since } | Self::ReadingHead { since } => {
                Some(since)
            }
            Self::Busy => None,
        }
    }

    /// When the watchdog should look next, or `None` if the connection is past its limit.
    /// The watchdog is not woken when the activity changes (that would cost every request a
    /// wake-up), so a look also comes no later than the shortest limit a change could start:
    /// whatever the connection does meanwhile, the next look finds it within its limit or
    /// learns the exact time it ends.
    fn next_look(self, now: Instant, limits: &ConnectionLimits) -> Option<Instant> {
        let soonest_new_limit = now + limits.header_timeout.min(limits.idle_timeout);
        let deadline = match self {
            Self::Fresh { since } | Self::ReadingHead { since } => since + limits.header_timeout,
            Self::Idle { since } => since + limits.idle_timeout,
            Self::Busy => return Some(soonest_new_limit),
        };
        (now < deadline).then(|| deadline.min(soonest_new_limit))
    }
}

/// One connection's state, shared by its watchdog, its I/O and its service.
struct Connection {
    id: u64,
    activity: Mutex<Activity>,
    /// Asks the connection to close: at once if no request is in progress, else after it.
    stop: Notify,
    registry: std::sync::Weak<Registry>,
}

impl Connection {
    fn activity(&self) -> Activity {
        *self
            .activity
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn update(&self, change: impl FnOnce(Activity) -> Activity) {
        let mut activity = self
            .activity
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *activity = change(*activity);
    }

    /// Bytes arrived: a kept-alive connection has started its next request head.
    fn bytes_arrived(&self) {
        self.update(|activity| match activity {
            Activity::Idle { .. } => Activity::ReadingHead {
                since: Instant::now(),
            },
            other => other,
        });
    }

    fn request_started(&self) {
        self.update(|_| Activity::Busy);
    }

    fn request_answered(&self) {
        self.update(|_| Activity::Idle {
            since: Instant::now(),
        });
        // A connection that falls idle can make room for one the accept loop holds back.
        if let Some(registry) = self.registry.upgrade() {
            registry.wake_acceptor();
        }
    }
}

/// Drives one connection until it closes, its watchdog finds it past a limit, or it is stopped.
async fn serve_connection(
    stream: TcpStream,
    router: Router,
    connection: Arc<Connection>,
    limits: ConnectionLimits,
) {
    let io = TokioIo::new(Watched {
        stream,
        connection: Arc::clone(&connection),
    });
    let service = ConnectionService {
        router,
        connection: Arc::clone(&connection),
    };
    let mut http = hyper::server::conn::http1::Builder::new();
    // The watchdog below bounds the head; hyper's own timer would also need one to be set.
    http.header_read_timeout(None);
    let mut driver = pin!(http.serve_connection(io, service));
    let first_look = connection
        .activity()
        .next_look(Instant::now(), &limits)
        .unwrap_or_else(Instant::now);
    let mut watchdog = pin!(tokio::time::sleep_until(first_look));
    let mut stopped = false;
    loop {
        tokio::select! {
            biased;
            outcome = driver.as_mut() => {
                if let Err(error) = outcome {
                    tracing::debug!(%error, "webhook receiver connection ended with an error");
                }
                return;
            }
            () = watchdog.as_mut() => {
                let activity = connection.activity();
                match activity.next_look(Instant::now(), &limits) {
                    Some(next) => watchdog.as_mut().reset(next),
                    None => {
                        tracing::debug!(?activity, "closing a webhook receiver connection past its time limit");
                        return;
                    }
                }
            }
            () = connection.stop.notified(), if !stopped => {
                if connection.activity() != Activity::Busy {
                    return;
                }
                // Answer the request in progress, then close.
                driver.as_mut().graceful_shutdown();
                stopped = true;
            }
        }
    }
}

/// The router as hyper calls it, marking the connection busy while a request is answered.
struct ConnectionService {
    router: Router,
    connection: Arc<Connection>,
}

impl hyper::service::Service<hyper::Request<Incoming>> for ConnectionService {
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        self.connection.request_started();
        let connection = Arc::clone(&self.connection);
        // `Router::call` needs `&mut self`; a clone is a reference count.
        let answer = self.router.clone().call(request.map(axum::body::Body::new));
        Box::pin(async move {
            let response = answer.await;
            connection.request_answered();
            response
        })
    }
}

/// The connection's socket, telling the connection when bytes arrive.
struct Watched {
    stream: TcpStream,
    connection: Arc<Connection>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.connection.bytes_arrived();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: ConnectionLimits = ConnectionLimits {
        header_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(60),
        max_connections: 4,
    };

    #[test]
    fn a_head_must_be_complete_within_the_header_timeout() {
        let start = Instant::now();
        let fresh = Activity::Fresh { since: start };
        assert_eq!(
            fresh.next_look(start, &LIMITS),
            Some(start + LIMITS.header_timeout)
        );
        assert_eq!(
            fresh.next_look(start + LIMITS.header_timeout, &LIMITS),
            None
        );
        let reading = Activity::ReadingHead {
            since: start + Duration::from_secs(30),
        };
        assert_eq!(
            reading.next_look(start + Duration::from_secs(35), &LIMITS),
            Some(start + Duration::from_secs(40))
        );
        assert_eq!(
            reading.next_look(start + Duration::from_secs(40), &LIMITS),
            None
        );
    }

    #[test]
    fn looks_come_no_later_than_the_shortest_limit_a_change_could_start() {
        let start = Instant::now();
        let short_idle = ConnectionLimits {
            idle_timeout: Duration::from_secs(2),
            ..LIMITS
        };
        // A fresh connection may be answered and fall idle at once: its idle limit could end
        // long before its header limit.
        let fresh = Activity::Fresh { since: start };
        assert_eq!(
            fresh.next_look(start, &short_idle),
            Some(start + Duration::from_secs(2))
        );
        let idle = Activity::Idle { since: start };
        // A head may start at any moment, so the next look is no later than a header timeout.
        assert_eq!(
            idle.next_look(start, &LIMITS),
            Some(start + LIMITS.header_timeout)
        );
        assert_eq!(
            idle.next_look(start + Duration::from_secs(55), &LIMITS),
            Some(start + LIMITS.idle_timeout)
        );
        assert_eq!(idle.next_look(start + LIMITS.idle_timeout, &LIMITS), None);
        let busy = Activity::Busy;
        assert_eq!(
            busy.next_look(start + Duration::from_secs(600), &LIMITS),
            Some(start + Duration::from_secs(610)),
            "a busy connection is never past a limit here"
        );
        assert_eq!(busy.waiting_since(), None);
        assert_eq!(idle.waiting_since(), Some(start));
    }
}
