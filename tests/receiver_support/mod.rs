//! Shared by the receiver tests: a receiver served on 127.0.0.1 (port 0) until the test stops
//! it, an HTTP client, delivery payloads, handlers that record what they were called with, and
//! a log capture for checking what the receiver logs.

#![allow(dead_code)] // Each test binary uses a different part of this module.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use hub_api::receiver::Receiver;
use hub_api::types::WebhookPayload;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The secret the tests configure; long enough that no accidental match is plausible.
pub const SECRET: &str = "t3st-s3cret with spaces inside";

/// Every scope the API description documents.
pub const SCOPES: [&str; 5] = [
    "repo",
    "repo.content",
    "repo.config",
    "discussion",
    "discussion.comment",
];

/// Every repository type.
pub const REPO_TYPES: [&str; 6] = ["dataset", "model", "space", "bucket", "kernel", "container"];

/// A receiver running in the test's runtime.
pub struct Running {
    pub address: SocketAddr,
    shutdown: oneshot::Sender<()>,
    server: JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Binds 127.0.0.1:0 and serves `receiver` until [`stop`](Self::stop).
    pub async fn start(receiver: Receiver) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let address = listener.local_addr().expect("bound address");
        let (shutdown, signal) = oneshot::channel::<()>();
        let server = tokio::spawn(receiver.serve(listener, async move {
            // A dropped sender also stops the server, so a failed test does not leave it up.
            let _ = signal.await;
        }));
        Self {
            address,
            shutdown,
            server,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Asks for a graceful shutdown and returns the server's task, still running until every
    /// delivery in flight has finished.
    pub fn begin_shutdown(self) -> JoinHandle<std::io::Result<()>> {
        let _ = self.shutdown.send(());
        self.server
    }

    /// Shuts down and waits (at most 10 s) for the server to finish cleanly.
    pub async fn stop(self) {
        let server = self.begin_shutdown();
        tokio::time::timeout(Duration::from_secs(10), server)
            .await
            .expect("the server stops within 10 s")
            .expect("the server task does not panic")
            .expect("the server ends without an I/O error");
    }
}

/// A client that never goes through a proxy from the environment.
pub fn client() -> reqwest::Client {
    // reqwest is built without a default rustls provider (the crate's `rustls` feature picks
    // `ring`); these tests speak plain HTTP, but building a client still needs one installed.
    #[cfg(feature = "rustls")]
    let _already_installed = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("an HTTP client")
}

/// A plausible delivery for `scope` on a repo of `repo_type`, with the fields the scope brings
/// and unknown fields at every open level, which must be kept.
pub fn payload(scope: &str, action: &str, repo_type: &str, repo_name: &str) -> Value {
    let mut payload = json!({
        "event": { "action": action, "scope": scope, "eventTraceId": "trace-1" },
        "repo": {
            "type": repo_type,
            "name": repo_name,
            "id": "6729a1f0c3d4e5f6a7b8c90e",
            "private": false,
            "headSha": "4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a",
            "url": { "web": "https://hub.example.com/acme/x", "api": "https://hub.example.com/api/x" },
            "owner": { "id": "5f1e2d3c4b5a69788796a5b5" },
            "tags": ["unknown-to-the-spec"]
        },
        "webhook": { "id": "6729a1f0c3d4e5f6a7b8c90a", "version": 3 },
        "deliveredBy": "an unknown top-level field"
    });
    match scope {
        "repo.content" => {
            payload["updatedRefs"] = json!([{
                "ref": "refs/heads/main",
                "oldSha": "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
                "newSha": null
            }]);
        }
        "repo.config" => {
            payload["updatedConfig"] = json!({ "private": true });
        }
        "discussion" | "discussion.comment" => {
            payload["discussion"] = json!({
                "id": "6729a1f0c3d4e5f6a7b8c904", "num": 12, "title": "Add weights",
                "status": "open", "isPullRequest": true, "author": { "id": "5f1e2d3c4b5a69788796a5b5" },
                "changes": { "title": "unknown-to-the-spec" }
            });
            if scope == "discussion.comment" {
                payload["comment"] = json!({
                    "id": "6729a1f0c3d4e5f6a7b8c90f", "content": "Looks good to me.",
                    "hidden": false, "reactions": 3
                });
            }
        }
        _ => {}
    }
    payload
}

/// A handler that records every payload it is called with.
#[derive(Clone, Default)]
pub struct Recorder(Arc<Mutex<Vec<WebhookPayload>>>);

impl Recorder {
    pub fn handler(
        &self,
    ) -> impl Fn(WebhookPayload) -> std::future::Ready<Result<(), std::convert::Infallible>>
    + Send
    + Sync
    + 'static {
        let calls = Arc::clone(&self.0);
        move |payload| {
            calls.lock().expect("recorder lock").push(payload);
            std::future::ready(Ok(()))
        }
    }

    pub fn calls(&self) -> Vec<WebhookPayload> {
        self.0.lock().expect("recorder lock").clone()
    }

    pub fn count(&self) -> usize {
        self.0.lock().expect("recorder lock").len()
    }
}

/// Log lines emitted on this thread while the guard from [`install`](Self::install) is alive.
/// The tests that use it run the server in a current-thread runtime, so the server's tasks log
/// on the test's thread too.
///
/// One global subscriber routes each line to the capturing thread's buffer. Per-test scoped
/// subscribers (`set_default`) would be simpler, but tracing caches per call site whether
/// anyone listens, and tests registering subscribers in parallel can leave that cache stale.
#[derive(Clone, Default)]
pub struct LogCapture(Arc<Mutex<Vec<u8>>>);

thread_local! {
    static CAPTURING: RefCell<Option<Arc<Mutex<Vec<u8>>>>> = const { RefCell::new(None) };
}

/// Writes to the buffer of the thread's capture, if any.
struct ThreadCaptureWriter;

impl Write for ThreadCaptureWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURING.with(|capturing| {
            if let Some(buffer) = capturing.borrow().as_ref() {
                buffer.lock().expect("log lock").extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Ends a capture when dropped.
pub struct CaptureGuard;

impl Drop for CaptureGuard {
    fn drop(&mut self) {
        CAPTURING.with(|capturing| capturing.borrow_mut().take());
    }
}

impl LogCapture {
    pub fn install(&self) -> CaptureGuard {
        static GLOBAL_SUBSCRIBER: OnceLock<()> = OnceLock::new();
        GLOBAL_SUBSCRIBER.get_or_init(|| {
            let subscriber = tracing_subscriber::fmt()
                .with_max_level(tracing::Level::DEBUG)
                .with_writer(|| ThreadCaptureWriter)
                .finish();
            tracing::subscriber::set_global_default(subscriber)
                .expect("no other global subscriber");
        });
        CAPTURING.with(|capturing| *capturing.borrow_mut() = Some(Arc::clone(&self.0)));
        CaptureGuard
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("log lock")).into_owned()
    }
}

/// Sends raw bytes (for requests no well-behaved client would send) and returns the status
/// code of the answer. Blocking, so call it from `spawn_blocking`.
pub fn raw_request(address: SocketAddr, request: &[u8]) -> u16 {
    let mut stream = std::net::TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("set a read timeout");
    // The server may answer and stop reading before the whole request is written.
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    let status_line = answer.lines().next().unwrap_or_default();
    status_line
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP status line in {answer:?}"))
}
