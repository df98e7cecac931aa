//! A stub hub for the client tests: an axum server on 127.0.0.1 (port chosen by the OS) that
//! records every request exactly as it arrived (method, raw path, raw query, headers, body) and
//! answers with whatever the test's responder says. [`raw`] has a hub on raw sockets for what
//! axum would not do (stall, trickle, lie about lengths), [`files`] the token file and the
//! environment, [`bodies`] the hub's answers several tests send. Below the stub: the runtime,
//! retries and clock several tests share.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod bodies;
pub mod files;
pub mod raw;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use hub_api::storage::Clock;
use hub_api::{Client, DEFAULT_USER_AGENT, RetryPolicy};
use serde_json::Value;

/// The hub token the tests configure.
pub const HUB_TOKEN: &str = "hub_test_0123456789abcdefSECRET";

/// One request as the stub hub received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// The path as sent, percent-encoding kept.
    pub path: String,
    /// The query as sent, or `None` when there was no `?`.
    pub query: Option<String>,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("request body is JSON")
    }

    /// The value of one query parameter, decoded.
    pub fn query_param(&self, name: &str) -> Option<String> {
        let url = reqwest::Url::parse(&format!("http://stub/?{}", self.query.as_deref()?)).ok()?;
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    }

    /// Asserts the headers every authenticated call carries.
    pub fn assert_authenticated(&self) {
        assert_eq!(
            self.header("authorization"),
            Some(format!("Bearer {HUB_TOKEN}").as_str()),
            "{} {}",
            self.method,
            self.path
        );
        self.assert_common_headers();
    }

    /// Asserts the headers of a call that must not authenticate.
    pub fn assert_anonymous(&self) {
        assert_eq!(
            self.header("authorization"),
            None,
            "{} {}",
            self.method,
            self.path
        );
        self.assert_common_headers();
    }

    fn assert_common_headers(&self) {
        assert_eq!(self.header("user-agent"), Some(DEFAULT_USER_AGENT));
        // progenitor's `api-version: <info.version>` is left out: no operation declares it.
        assert_eq!(self.header("api-version"), None);
        if !self.body.is_empty() {
            assert_eq!(self.header("content-type"), Some("application/json"));
        }
    }
}

/// What the stub hub answers.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub delay: Duration,
    pub headers: Vec<(&'static str, String)>,
}

impl Reply {
    pub fn json(status: u16, body: Value) -> Self {
        Self {
            status,
            body: body.to_string(),
            delay: Duration::ZERO,
            headers: Vec::new(),
        }
    }

    pub fn text(status: u16, body: &str) -> Self {
        Self {
            status,
            body: body.to_owned(),
            delay: Duration::ZERO,
            headers: Vec::new(),
        }
    }

    pub fn empty(status: u16) -> Self {
        Self::text(status, "")
    }

    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: impl Into<String>) -> Self {
        Self::empty(status).header("location", location)
    }
}

type Responder = dyn Fn(&Recorded) -> Reply + Send + Sync;

#[derive(Clone)]
struct StubState {
    requests: Arc<Mutex<Vec<Recorded>>>,
    responder: Arc<Responder>,
}

/// A running stub hub; it stops with the test's runtime.
pub struct StubHub {
    pub base_url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl StubHub {
    /// Starts a stub hub that answers every request with `responder`.
    pub async fn start(responder: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Self {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let state = StubState {
            requests: Arc::clone(&requests),
            responder: Arc::new(responder),
        };
        let app = Router::new().fallback(handle).with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let address = listener.local_addr().expect("local address");
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("stub hub serves");
        });
        Self {
            base_url: format!("http://{address}"),
            requests,
        }
    }

    /// Starts a stub hub that answers every request the same way.
    pub async fn always(reply: Reply) -> Self {
        Self::start(move |_| reply.clone()).await
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("requests lock").clone()
    }

    /// The path of every request received so far, in order.
    pub fn paths(&self) -> Vec<String> {
        self.requests()
            .into_iter()
            .map(|request| request.path)
            .collect()
    }

    /// The single request received; fails if there were none or several.
    pub fn only_request(&self) -> Recorded {
        let requests = self.requests();
        assert_eq!(
            requests.len(),
            1,
            "expected exactly one request: {requests:#?}"
        );
        requests.into_iter().next().expect("one request")
    }

    /// A client of this hub with [`HUB_TOKEN`].
    pub fn client(&self) -> Client {
        Client::builder(&self.base_url)
            .token(HUB_TOKEN)
            .build()
            .expect("client builds")
    }

    /// A client of this hub with [`HUB_TOKEN`] that never retries, for tests that count
    /// requests on failures.
    pub fn client_without_retries(&self) -> Client {
        Client::builder(&self.base_url)
            .token(HUB_TOKEN)
            .retry(RetryPolicy::none())
            .build()
            .expect("client builds")
    }
}

async fn handle(State(state): State<StubState>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("request body")
        .to_vec();
    let recorded = Recorded {
        method: parts.method.to_string(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().map(str::to_owned),
        headers: parts.headers,
        body,
    };
    state
        .requests
        .lock()
        .expect("requests lock")
        .push(recorded.clone());
    let reply = (state.responder)(&recorded);
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = Response::builder()
        .status(StatusCode::from_u16(reply.status).expect("valid status"))
        .header(header::CONTENT_TYPE, "application/json");
    for (name, value) in &reply.headers {
        response = response.header(*name, value.as_str());
    }
    response.body(Body::from(reply.body)).expect("response")
}

/// Counts calls; handy in responders that answer differently over time.
#[derive(Default)]
pub struct Counter(AtomicUsize);

impl Counter {
    /// Returns the number of earlier calls.
    pub fn next(&self) -> usize {
        self.0.fetch_add(1, Ordering::SeqCst)
    }
}

/// Log output written by a `tracing` subscriber (`with_writer(move || capture.clone())`), for
/// tests that check what reaches the logs.
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

impl Capture {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("capture lock")).into_owned()
    }
}

impl std::io::Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("capture lock")
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `test` on a current-thread runtime: for the binaries that change the process
/// environment, which is only sound while no other thread can read it.
pub fn on_one_thread<F: std::future::Future>(test: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(test)
}

/// Retries fast enough for a test: 20 ms doubling to 40 ms.
pub fn quick_retries() -> RetryPolicy {
    RetryPolicy::default()
        .initial_backoff(Duration::from_millis(20))
        .max_backoff(Duration::from_millis(40))
}

/// Where a [`FakeClock`] starts: 2026-11-22T00:00:00Z, in Unix seconds.
pub const CLOCK_START: u64 = 1_795_305_600;

/// A clock for the storage-token provider that the test moves by hand.
pub struct FakeClock(Mutex<SystemTime>);

impl FakeClock {
    /// A clock at [`CLOCK_START`].
    pub fn new() -> Arc<Self> {
        Arc::new(Self(Mutex::new(
            UNIX_EPOCH + Duration::from_secs(CLOCK_START),
        )))
    }

    pub fn set(&self, time: SystemTime) {
        *self.0.lock().expect("clock lock") = time;
    }
}

impl Clock for FakeClock {
    fn now(&self) -> SystemTime {
        *self.0.lock().expect("clock lock")
    }
}
