//! A local mock hub for your own tests (feature `test-util`): an HTTP server on `127.0.0.1`
//! that answers what the test told it to and records every request, so code built on
//! [`Client`] can be tested without a network, a real token or slow retries.
//!
//! - [`MockHub::start`] binds a free port and serves until the mock is dropped (or
//!   [`MockHub::shutdown`]); [`MockHub::client`] is a [`Client`] of it, with a dummy token
//!   ([`MockHub::TOKEN`]) and retries that wait milliseconds, not seconds.
//! - [`MockHub::on`] adds a route, a method and a path (`{name}` stands for any text within a
//!   segment, so the spec's paths can be pasted as they are), answered with one canned
//!   response ([`RouteBuilder::respond`], [`RouteBuilder::reply`]), a sequence
//!   ([`RouteBuilder::respond_seq`]: a 503 and then a 200, to test retries) or a closure
//!   ([`RouteBuilder::respond_with`]).
//! - [`MockHub::requests`] is everything received, in order, as [`MockRequest`]s (method, path,
//!   query, headers, body) to assert on; a request no route matched is answered 404 with a JSON
//!   body naming its method and path, and is listed in [`MockHub::unmatched`] as well.
//!
//! The mock is not a fake hub: it knows nothing of the hub's rules and answers only what the
//! test scripted. [`MockResponse::hub_error`], [`notification_page`], [`notification`],
//! [`webhook`] and [`webhook_envelope`] write the bodies tests need most in the hub's shape
//! (valid under the spec, ids from [`object_id`]: 24 hexadecimal digits); any other body is the
//! test's JSON, which the client decodes exactly as it decodes the hub's.
//!
//! # Recipe
//!
//! In `Cargo.toml`:
//!
//! ```toml
//! [dev-dependencies]
//! hub-api = { version = "0.1", features = ["test-util"] }
//! serde_json = "1"
//! tokio = { version = "1", features = ["macros", "rt"] }
//! ```
//!
//! A test (here run by hand; in your crate put `#[tokio::test]` on it) that has the hub answer
//! 503 once, checks that the client retried and got the page, and looks at what was sent:
//!
//! ```
//! use hub_api::mock::{Method, MockHub, MockResponse, notification_page};
//! use hub_api::notifications::NotificationFilter;
//! use serde_json::json;
//!
//! async fn lists_notifications_after_a_busy_hub() {
//!     let mock = MockHub::start().await;
//!     let notification = json!({
//!         "type": "repo",
//!         "updatedAt": "2026-11-01T18:42:07Z",
//!         "read": false,
//!         "repo": { "name": "acme/bert-tiny", "type": "model" },
//!         "discussion": {
//!             "num": 12, "title": "Add safetensors weights", "status": "open",
//!             "id": "6729a1f0c3d4e5f6a7b8c904", "isPullRequest": true, "participating": []
//!         }
//!     });
//!     mock.on(Method::GET, "/api/notifications").respond_seq([
//!         MockResponse::hub_error(503, "maintenance").request_id("req-1"),
//!         MockResponse::json(200, notification_page([notification])),
//!     ]);
//!
//!     // The code under test would take this client (or `mock.url()`).
//!     let client = mock.client();
//!     let page = client
//!         .list_notifications(&NotificationFilter::unread(), 0)
//!         .await
//!         .expect("the retry succeeds");
//!     assert_eq!(page.notifications.len(), 1);
//!
//!     // Two requests: the 503 and its retry, each authenticated and asking for page 0.
//!     let requests = mock.requests();
//!     assert_eq!(requests.len(), 2);
//!     for request in &requests {
//!         assert_eq!(request.path(), "/api/notifications");
//!         assert_eq!(request.query_param("p").as_deref(), Some("0"));
//!         assert_eq!(request.query_param("readStatus").as_deref(), Some("unread"));
//!         assert!(request.has_bearer_token(MockHub::TOKEN));
//!     }
//!     // Nothing else was called.
//!     assert!(mock.unmatched().is_empty(), "{:?}", mock.unmatched());
//! }
//! # tokio::runtime::Builder::new_current_thread()
//! #     .enable_all()
//! #     .build()
//! #     .unwrap()
//! #     .block_on(lists_notifications_after_a_busy_hub());
//! ```
//!
//! Token revocation is anonymous and a `POST`, so it is never retried; its request carries the
//! tokens in the body:
//!
//! ```
//! # use hub_api::mock::{Method, MockHub, MockResponse};
//! # async fn revokes() {
//! let mock = MockHub::start().await;
//! mock.on(Method::POST, "/api/credentials/revoke").reply(MockResponse::empty(202));
//! mock.client().revoke_credentials(["hub_leaked_0123456789"]).await.expect("accepted");
//! let request = &mock.requests()[0];
//! assert_eq!(request.header("authorization"), None);
//! assert_eq!(request.json().unwrap()["credentials"][0], "hub_leaked_0123456789");
//! # }
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(revokes());
//! ```
//!
//! Creating a webhook: the hub answers with the webhook inside `{"webhook": ...}`, which
//! [`webhook_envelope`] writes around a valid [`webhook`] (its id from [`object_id`]: the spec
//! wants 24 hexadecimal digits):
//!
//! ```
//! # use hub_api::mock::{Method, MockHub, object_id, webhook, webhook_envelope};
//! # use hub_api::prelude::*;
//! # use hub_api::webhooks::WebhookSpec;
//! # async fn creates() {
//! let mock = MockHub::start().await;
//! let id = object_id(1);
//! mock.on(Method::POST, "/api/settings/webhooks")
//!     .respond(200, webhook_envelope(webhook(&id)));
//! let spec = WebhookSpec::url("https://ci.acme.example/hooks/hub")
//!     .watch(WatchedType::Model, "acme/bert-tiny")
//!     .domain(WebhookDomain::Repo);
//! let created = mock.client().create_webhook(&spec).await.expect("created");
//! assert_eq!(created.id, id.as_str());
//! # }
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(creates());
//! ```
//!
//! # Secrets
//!
//! A [`MockRequest`] keeps what the client sent, the `Authorization` header included, so a
//! test can check it ([`MockRequest::has_bearer_token`], [`MockRequest::bearer_token`], which is
//! a [`Secret`]). Its `Debug` output, which a failing assertion prints, shows neither that
//! header (nor `Cookie`, `Proxy-Authorization`) nor the body, which can carry the tokens being
//! revoked or a webhook's secret: only the body's length.
//!
//! # Runtime
//!
//! The server runs as a task of the Tokio runtime that called [`MockHub::start`]: on
//! `#[tokio::test]`'s single thread it serves whenever the test awaits, which is whenever the
//! client does. Dropping the mock stops that task; the port is closed the next time the runtime
//! runs it. [`MockHub::shutdown`] waits for that.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::fmt;
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE, COOKIE, PROXY_AUTHORIZATION, RETRY_AFTER};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::{JoinHandle, JoinSet};

/// Re-exported from [`http`] (the types reqwest uses), so that a test needs no `http`
/// dependency of its own to name a method or read a header.
pub use http::{HeaderMap, HeaderValue, Method, StatusCode};

use crate::{Client, ClientBuilder, RetryPolicy, Secret};

/// Why a mock hub could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MockError {
    /// No port could be bound on `127.0.0.1` (or its address read back).
    #[error("the mock hub cannot listen on 127.0.0.1: {0}")]
    Bind(#[source] std::io::Error),
}

/// A running mock hub; see the [module documentation](self). Dropping it stops the server.
pub struct MockHub {
    address: SocketAddr,
    url: String,
    state: Arc<State>,
    /// The accept loop; `None` once [`MockHub::shutdown`] has stopped it.
    server: Option<JoinHandle<()>>,
}

/// What the server task and the test share.
#[derive(Default)]
struct State {
    /// Newest last; matched newest first.
    routes: Mutex<Vec<Arc<Route>>>,
    requests: Mutex<Vec<MockRequest>>,
    unmatched: Mutex<Vec<MockRequest>>,
}

/// Locks `mutex` even if a panicking responder poisoned it: the data is a list that a panic
/// cannot leave half-written, and a test's recording must stay readable after a panic.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl fmt::Debug for MockHub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MockHub")
            .field("url", &self.url)
            .field("routes", &lock(&self.state.routes).len())
            .field("requests", &lock(&self.state.requests).len())
            .field("unmatched", &lock(&self.state.unmatched).len())
            .field("running", &self.server.is_some())
            .finish()
    }
}

impl MockHub {
    /// The hub token of [`MockHub::client`]: a dummy, so no real token ever goes into a test.
    pub const TOKEN: &'static str = "hub_mock_token_0123456789abcdef";

    /// Starts a mock hub on `127.0.0.1` at a port the system chooses, with no routes.
    ///
    /// # Panics
    ///
    /// If no port can be bound (see [`MockHub::try_start`]), or outside a Tokio runtime: a test
    /// cannot go on without its hub, and the panic says why.
    pub async fn start() -> Self {
        match Self::try_start().await {
            Ok(mock) => mock,
            Err(error) => panic!("{error}"),
        }
    }

    /// Like [`MockHub::start`], returning the error instead of panicking.
    pub async fn try_start() -> Result<Self, MockError> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(MockError::Bind)?;
        let address = listener.local_addr().map_err(MockError::Bind)?;
        let state = Arc::new(State::default());
        let server = tokio::spawn(serve(listener, Arc::clone(&state)));
        Ok(Self {
            address,
            url: format!("http://{address}"),
            state,
            server: Some(server),
        })
    }

    /// The base URL, `http://127.0.0.1:<port>`, for [`Client::builder`] or the code under test.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The address the mock listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// A client of this mock, configured by [`MockHub::client_builder`].
    ///
    /// # Panics
    ///
    /// If the client cannot be built (the HTTP stack failed to start), as a test cannot go on.
    pub fn client(&self) -> Client {
        match self.client_builder().build() {
            Ok(client) => client,
            Err(error) => panic!("cannot build a client of the mock hub: {error}"),
        }
    }

    /// A client builder for this mock, to change what [`MockHub::client`] sets: the token
    /// [`MockHub::TOKEN`], retries by [`MockHub::retry_policy`] and a 10 s timeout (a mock
    /// answers at once, so a test that waits longer is stuck and should fail rather than hang
    /// for the default minute).
    pub fn client_builder(&self) -> ClientBuilder {
        Client::builder(&self.url)
            .token(Self::TOKEN)
            .retry(Self::retry_policy())
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(1))
    }

    /// The retry policy of [`MockHub::client`]: the default's 3 attempts, so retries are
    /// tested as they happen in production, but a backoff of 1 to 10 ms instead of 250 ms to
    /// 4 s, and at most 1 s in all, so that a `Retry-After` of a second or more ends the
    /// retries at once (the error's [`retry_after`](crate::Error::retry_after) still says what
    /// the mock asked) instead of making the test sleep.
    pub fn retry_policy() -> RetryPolicy {
        RetryPolicy::default()
            .initial_backoff(Duration::from_millis(1))
            .max_backoff(Duration::from_millis(10))
            .max_elapsed(Duration::from_secs(1))
    }

    /// Starts a route for `method` and `path`; it answers once a `respond*` method of the
    /// returned builder is called.
    ///
    /// `path` is the request's path without the query, compared segment by segment with the
    /// path as sent (percent-encoding kept). A `{name}` stands for any non-empty text within
    /// one segment, so `/api/settings/webhooks/{webhookId}` and the spec's
    /// `/api/{repo_type}s/{namespace}/{repo}/cas-{token_type}-token/{revision}` match as they
    /// read. The query is ignored unless [`RouteBuilder::query`] asks for a parameter.
    ///
    /// A later route is tried before an earlier one, so a test can override a default it set
    /// up; a sequence that has run out no longer matches, and the request goes to the next
    /// route (or is unmatched).
    pub fn on(&self, method: Method, path: &str) -> RouteBuilder {
        RouteBuilder {
            state: Arc::clone(&self.state),
            method,
            path: PathPattern::parse(path),
            query: Vec::new(),
        }
    }

    /// Every request received so far, in the order they arrived, unmatched ones included.
    pub fn requests(&self) -> Vec<MockRequest> {
        lock(&self.state.requests).clone()
    }

    /// The requests no route matched (each was answered 404), in order. Empty when the code
    /// under test called nothing the test did not expect.
    pub fn unmatched(&self) -> Vec<MockRequest> {
        lock(&self.state.unmatched).clone()
    }

    /// Forgets the requests recorded so far (routes stay), for a test in several phases.
    pub fn clear_requests(&self) {
        lock(&self.state.requests).clear();
        lock(&self.state.unmatched).clear();
    }

    /// Stops the server and waits until it has stopped: the port is closed and open
    /// connections are dropped when this returns. Dropping the mock does the same without
    /// waiting.
    pub async fn shutdown(mut self) {
        if let Some(server) = self.server.take() {
            server.abort();
            // The task was aborted; its outcome (cancelled) says nothing more.
            let _cancelled = server.await;
        }
    }
}

impl Drop for MockHub {
    fn drop(&mut self) {
        // Aborting the accept loop drops the listener and its `JoinSet`, which aborts every
        // connection task, so a client pooled on a kept-alive connection is cut off too.
        if let Some(server) = self.server.take() {
            server.abort();
        }
    }
}

/// A route being set up by [`MockHub::on`]; it takes effect when one of its `respond*`
/// methods is called.
#[must_use = "a route answers nothing until `respond`, `reply`, `respond_seq` or `respond_with` is called"]
pub struct RouteBuilder {
    state: Arc<State>,
    method: Method,
    path: PathPattern,
    query: Vec<(String, String)>,
}

impl fmt::Debug for RouteBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RouteBuilder")
            .field("method", &self.method)
            .field("path", &self.path.source)
            .field("query", &self.query)
            .finish_non_exhaustive()
    }
}

impl RouteBuilder {
    /// Matches only requests whose query has `name` = `value` (both compared decoded); other
    /// parameters may be present. Call it again to require several.
    pub fn query(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.query.push((name.into(), value.into()));
        self
    }

    /// Answers every matching request with `status` and the JSON `body`.
    ///
    /// # Panics
    ///
    /// If `status` is not a valid HTTP status (100 to 999).
    pub fn respond(self, status: u16, body: Value) -> MockRoute {
        self.reply(MockResponse::json(status, body))
    }

    /// Answers every matching request with `response` (any status, headers, body or delay).
    pub fn reply(self, response: MockResponse) -> MockRoute {
        self.install(Responder::Fixed(response))
    }

    /// Answers the matching requests with `responses`, one each, in order. Once they are used
    /// up the route no longer matches: a further request goes to an earlier route, or is
    /// unmatched (404) and shows in [`MockHub::unmatched`], so an unexpected extra retry is
    /// seen. To repeat the last answer, add it first with [`RouteBuilder::reply`].
    pub fn respond_seq(self, responses: impl IntoIterator<Item = MockResponse>) -> MockRoute {
        self.install(Responder::Sequence(Mutex::new(
            responses.into_iter().collect(),
        )))
    }

    /// Answers each matching request with what `responder` returns for it, for answers that
    /// depend on the request (its page, its body) or on how many came before.
    ///
    /// The closure runs on the server's task, outside any lock. If it panics, the request is
    /// answered 500 with a JSON body saying so (the panic itself is printed as usual), so the
    /// client under test sees a failure rather than a dropped connection.
    pub fn respond_with<F>(self, responder: F) -> MockRoute
    where
        F: Fn(&MockRequest) -> MockResponse + Send + Sync + 'static,
    {
        self.install(Responder::Closure(Box::new(responder)))
    }

    fn install(self, responder: Responder) -> MockRoute {
        let route = Arc::new(Route {
            method: self.method,
            path: self.path,
            query: self.query,
            responder,
            calls: AtomicUsize::new(0),
        });
        lock(&self.state.routes).push(Arc::clone(&route));
        MockRoute { route }
    }
}

/// A route of a [`MockHub`], returned when it is set up: it counts the requests it answered.
#[derive(Clone)]
pub struct MockRoute {
    route: Arc<Route>,
}

impl fmt::Debug for MockRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MockRoute")
            .field("method", &self.route.method)
            .field("path", &self.route.path.source)
            .field("calls", &self.calls())
            .finish()
    }
}

impl MockRoute {
    /// How many requests this route has answered.
    pub fn calls(&self) -> usize {
        self.route.calls.load(Ordering::SeqCst)
    }
}

struct Route {
    method: Method,
    path: PathPattern,
    query: Vec<(String, String)>,
    responder: Responder,
    calls: AtomicUsize,
}

type ResponderFn = dyn Fn(&MockRequest) -> MockResponse + Send + Sync;

enum Responder {
    Fixed(MockResponse),
    Sequence(Mutex<VecDeque<MockResponse>>),
    Closure(Box<ResponderFn>),
}

impl Route {
    fn matches(&self, request: &MockRequest) -> bool {
        self.method == request.method
            && self.path.matches(&request.path)
            && (self.query.is_empty() || {
                let pairs = request.query_pairs();
                self.query.iter().all(|wanted| pairs.contains(wanted))
            })
    }

    /// The answer, or `None` when a sequence has run out (the route then passes).
    fn answer(&self, request: &MockRequest) -> Option<MockResponse> {
        let response = match &self.responder {
            Responder::Fixed(response) => response.clone(),
            Responder::Sequence(responses) => lock(responses).pop_front()?,
            Responder::Closure(responder) => catch_unwind(AssertUnwindSafe(|| responder(request)))
                .unwrap_or_else(|_| {
                    MockResponse::hub_error(
                        500,
                        format!(
                            "hub-api mock: the responder of {} {} panicked",
                            self.method, self.path.source
                        ),
                    )
                }),
        };
        self.calls.fetch_add(1, Ordering::SeqCst);
        Some(response)
    }
}

/// A route's path: segments of literal text and `{name}` holes.
struct PathPattern {
    source: String,
    segments: Vec<Vec<Piece>>,
}

#[derive(Debug, PartialEq)]
enum Piece {
    Literal(String),
    /// `{name}`: any non-empty text within the segment.
    Hole,
}

impl PathPattern {
    fn parse(path: &str) -> Self {
        let segments = path
            .split('/')
            .map(|segment| {
                let mut pieces = Vec::new();
                let mut rest = segment;
                while let Some(open) = rest.find('{') {
                    let Some(close) = rest[open..].find('}') else {
                        break;
                    };
                    if open > 0 {
                        pieces.push(Piece::Literal(rest[..open].to_owned()));
                    }
                    pieces.push(Piece::Hole);
                    rest = &rest[open + close + 1..];
                }
                if !rest.is_empty() {
                    pieces.push(Piece::Literal(rest.to_owned()));
                }
                pieces
            })
            .collect();
        Self {
            source: path.to_owned(),
            segments,
        }
    }

    fn matches(&self, path: &str) -> bool {
        let segments: Vec<&str> = path.split('/').collect();
        segments.len() == self.segments.len()
            && self
                .segments
                .iter()
                .zip(segments)
                .all(|(pieces, segment)| segment_matches(pieces, segment))
    }
}

/// Whether `text` is `pieces` with each hole filled by at least one character; a hole tries
/// every length (segments are short, so the backtracking costs nothing).
fn segment_matches(pieces: &[Piece], text: &str) -> bool {
    match pieces.split_first() {
        None => text.is_empty(),
        Some((Piece::Literal(literal), rest)) => text
            .strip_prefix(literal.as_str())
            .is_some_and(|text| segment_matches(rest, text)),
        Some((Piece::Hole, rest)) => text
            .char_indices()
            .skip(1)
            .map(|(index, _)| index)
            .chain([text.len()])
            .filter(|&end| end > 0)
            .any(|end| segment_matches(rest, &text[end..])),
    }
}

/// What a [`MockHub`] answers: a status, headers, a body and an optional delay.
#[derive(Clone)]
pub struct MockResponse {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
    delay: Duration,
}

impl fmt::Debug for MockResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The body is the test's own data, but may be a storage token: shown by length only,
        // like a request's.
        f.debug_struct("MockResponse")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("body", &BodyLength(self.body.len()))
            .field("delay", &self.delay)
            .finish()
    }
}

impl MockResponse {
    /// A response with `status` and an empty body (the hub's answer to revocation, 202, and to
    /// the settings updates).
    ///
    /// # Panics
    ///
    /// If `status` is not a valid HTTP status (100 to 999).
    pub fn empty(status: u16) -> Self {
        let status = StatusCode::from_u16(status)
            .unwrap_or_else(|_| panic!("{status} is not an HTTP status"));
        Self {
            status,
            headers: HeaderMap::new(),
            body: Bytes::new(),
            delay: Duration::ZERO,
        }
    }

    /// A response with `status` and `body` as JSON (`Content-Type: application/json`).
    ///
    /// # Panics
    ///
    /// If `status` is not a valid HTTP status.
    pub fn json(status: u16, body: Value) -> Self {
        Self::empty(status)
            .header(CONTENT_TYPE.as_str(), "application/json")
            .with_body(body.to_string())
    }

    /// A response with `status` and `body` as plain text, for a hub (or a proxy in front of
    /// it) that answers an error page rather than JSON.
    ///
    /// # Panics
    ///
    /// If `status` is not a valid HTTP status.
    pub fn text(status: u16, body: impl Into<String>) -> Self {
        Self::empty(status)
            .header(CONTENT_TYPE.as_str(), "text/plain; charset=utf-8")
            .with_body(body.into())
    }

    /// An error in the hub's format, `{"error": message}`, with `status`.
    ///
    /// # Panics
    ///
    /// If `status` is not a valid HTTP status.
    pub fn hub_error(status: u16, message: impl Into<String>) -> Self {
        Self::json(status, json!({ "error": message.into() }))
    }

    fn with_body(mut self, body: String) -> Self {
        self.body = Bytes::from(body);
        self
    }

    /// Adds a header (a second value of the same name is added beside the first).
    ///
    /// # Panics
    ///
    /// If `name` or `value` cannot be an HTTP header: the test wrote it, and a silently
    /// dropped header would make it pass or fail for the wrong reason.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let name = http::HeaderName::try_from(name)
            .unwrap_or_else(|_| panic!("{name:?} is not an HTTP header name"));
        let value = HeaderValue::try_from(value)
            .unwrap_or_else(|_| panic!("the value of {name} is not a valid HTTP header value"));
        self.headers.append(name, value);
        self
    }

    /// Adds `Retry-After: <seconds>`. On a 429 or 503 to an idempotent call the client waits
    /// that long before retrying, unless that would go past [`MockHub::retry_policy`]'s 1 s:
    /// then it gives up at once and its error reports the wait.
    pub fn retry_after(self, seconds: u64) -> Self {
        self.header(RETRY_AFTER.as_str(), &seconds.to_string())
    }

    /// Adds `x-request-id: <id>`, the id a hub (or the proxy in front of it) puts on its
    /// answers, for code under test that logs or reports it.
    pub fn request_id(self, id: &str) -> Self {
        self.header("x-request-id", id)
    }

    /// Waits `delay` before answering, to test timeouts. The wait holds only its own request:
    /// other requests are served meanwhile.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// The status this response has.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The body of the 404 for a request no route matched: the hub's error format, with the
    /// method and path as fields of their own so a test (or a person reading the client's
    /// error) sees at once which call was not expected.
    fn unmatched(request: &MockRequest) -> Self {
        Self::json(
            404,
            json!({
                "error": format!(
                    "hub-api mock: no route for {} {}",
                    request.method, request.path
                ),
                "method": request.method.as_str(),
                "path": request.path,
            }),
        )
    }

    fn into_hyper(self) -> hyper::Response<Full<Bytes>> {
        let mut response = hyper::Response::new(Full::new(self.body));
        *response.status_mut() = self.status;
        *response.headers_mut() = self.headers;
        response
    }
}

/// A page of the notification list (`GET /api/notifications`) holding `notifications`, as the
/// hub answers it: `{"notifications": [...], "count": {"view", "unread", "all"}, "start": 0}`,
/// the counts saying that this page is all there is (so
/// [`Client::notifications`] stops after it). `unread` counts the items whose `read` is
/// `false`.
pub fn notification_page(notifications: impl IntoIterator<Item = Value>) -> Value {
    let notifications: Vec<Value> = notifications.into_iter().collect();
    let unread = notifications
        .iter()
        .filter(|notification| notification["read"] == Value::Bool(false))
        .count();
    json!({
        "notifications": notifications,
        "count": { "view": notifications.len(), "unread": unread, "all": notifications.len() },
        "start": 0,
    })
}

/// An id as the hub writes them, 24 lowercase hexadecimal digits (a webhook's or a
/// discussion's id must have this shape), different for each `n`: `object_id(1)` is
/// `6729a1f00000000000000001`.
pub fn object_id(n: u64) -> String {
    format!("6729a1f0{n:016x}")
}

/// An unread notification about a model's discussion whose id is `discussion_id` (see
/// [`object_id`]), valid under the spec, for [`notification_page`]; change its fields with
/// `value["read"] = json!(true)` and the like.
pub fn notification(discussion_id: &str) -> Value {
    json!({
        "type": "repo",
        "updatedAt": "2026-11-01T18:42:07Z",
        "read": false,
        "repo": { "name": "acme/bert-tiny", "type": "model" },
        "discussion": {
            "num": 12, "title": "Add safetensors weights", "status": "open",
            "id": discussion_id, "isPullRequest": true, "participating": []
        }
    })
}

/// A webhook whose id is `id` (see [`object_id`]), valid under the spec: it delivers the
/// `repo` and `discussion` events of the model `acme/bert-tiny` to a URL, with a secret. The
/// list (`GET /api/settings/webhooks`) answers an array of these; the calls on one webhook
/// answer it inside [`webhook_envelope`].
pub fn webhook(id: &str) -> Value {
    json!({
        "id": id,
        "url": "https://ci.acme.example/hooks/hub",
        "disabled": false,
        "watched": [{ "type": "model", "name": "acme/bert-tiny" }],
        "hasSecret": true,
        "domains": ["repo", "discussion"]
    })
}

/// `{"webhook": webhook}`: how the hub answers creating, reading, enabling and disabling a
/// webhook ([`Client::create_webhook`] and the others unwrap it).
pub fn webhook_envelope(webhook: Value) -> Value {
    json!({ "webhook": webhook })
}

/// One request as the mock received it.
///
/// `Debug` shows neither the credentials headers (`Authorization`, `Proxy-Authorization`,
/// `Cookie`) nor the body (only its length): a failing assertion prints it, and test output is
/// kept in CI logs. The accessors give everything.
#[derive(Clone)]
pub struct MockRequest {
    method: Method,
    path: String,
    query: Option<String>,
    headers: HeaderMap,
    body: Bytes,
}

/// Headers whose values are credentials: marked sensitive when recorded (so even the
/// `HeaderMap`'s own `Debug` hides them) and redacted by [`MockRequest`]'s `Debug`. (A function,
/// not a `const`: a `HeaderName` has interior mutability.)
fn credential_headers() -> [http::HeaderName; 3] {
    [AUTHORIZATION, PROXY_AUTHORIZATION, COOKIE]
}

impl fmt::Debug for MockRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Headers<'a>(&'a HeaderMap);
        impl fmt::Debug for Headers<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_map()
                    .entries(self.0.iter().map(|(name, value)| {
                        let shown = if value.is_sensitive() || credential_headers().contains(name) {
                            "[redacted]"
                        } else {
                            value.to_str().unwrap_or("[not text]")
                        };
                        (name.as_str(), shown)
                    }))
                    .finish()
            }
        }
        f.debug_struct("MockRequest")
            .field("method", &self.method)
            .field("path", &self.path)
            .field("query", &self.query)
            .field("headers", &Headers(&self.headers))
            .field("body", &BodyLength(self.body.len()))
            .finish()
    }
}

/// A body in `Debug`: its length only.
struct BodyLength(usize);

impl fmt::Debug for BodyLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{} bytes]", self.0)
    }
}

impl MockRequest {
    /// The method.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The path as sent, percent-encoding kept, without the query.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The query as sent (without the `?`), or `None` when there was none.
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }

    /// The query's parameters, decoded, in order (a name may come more than once).
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        let Some(query) = &self.query else {
            return Vec::new();
        };
        // reqwest's `Url` is already a dependency and decodes the query as a form does.
        reqwest::Url::parse(&format!("http://mock/?{query}"))
            .map(|url| url.query_pairs().into_owned().collect())
            .unwrap_or_default()
    }

    /// The first value of the query parameter `name`, decoded.
    pub fn query_param(&self, name: &str) -> Option<String> {
        self.query_pairs()
            .into_iter()
            .find_map(|(key, value)| (key == name).then_some(value))
    }

    /// Every header as received (credentials headers are marked sensitive).
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The first value of the header `name` (any case), if it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The token of an `Authorization: Bearer <token>` header, as a [`Secret`] so that an
    /// assertion on it prints `[redacted]`; `None` when the request had no bearer token.
    pub fn bearer_token(&self) -> Option<Secret> {
        self.header(AUTHORIZATION.as_str())?
            .strip_prefix("Bearer ")
            .map(Secret::new)
    }

    /// Whether the request carried `Authorization: Bearer <token>`, compared in constant time.
    pub fn has_bearer_token(&self, token: &str) -> bool {
        self.bearer_token()
            .is_some_and(|sent| sent.matches(token.as_bytes()))
    }

    /// The body as received.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The body read as JSON.
    pub fn json(&self) -> serde_json::Result<Value> {
        serde_json::from_slice(&self.body)
    }

    /// The body decoded as `T`, e.g. a generated request type such as
    /// `types::RevokeCredentialsRequest`.
    pub fn json_as<T: DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_slice(&self.body)
    }
}

/// Accepts connections until the task is aborted, each served on a task of its own in a
/// `JoinSet`, so that aborting this task (dropping the set) ends the connections too.
async fn serve(listener: TcpListener, state: Arc<State>) {
    let mut connections = JoinSet::new();
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _peer)) => stream,
            Err(_) => {
                // Out of file descriptors or a connection reset before it was accepted:
                // waiting a moment keeps the loop from spinning while it lasts.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        // Forget the connections that have ended, so a long test does not accumulate them.
        while connections.try_join_next().is_some() {}
        let state = Arc::clone(&state);
        connections.spawn(async move {
            let service = service_fn(move |request| handle(Arc::clone(&state), request));
            // A connection the client closes or breaks ends here; nothing to report.
            let _ended = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Records one request and answers it.
async fn handle(
    state: Arc<State>,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let (mut parts, body) = request.into_parts();
    // A body cut short (the client gave up) is recorded as far as it came: the request still
    // happened.
    let body = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => Bytes::new(),
    };
    for name in credential_headers() {
        if let http::header::Entry::Occupied(mut entry) = parts.headers.entry(name) {
            for value in entry.iter_mut() {
                value.set_sensitive(true);
            }
        }
    }
    let request = MockRequest {
        method: parts.method,
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().map(str::to_owned),
        headers: parts.headers,
        body,
    };
    lock(&state.requests).push(request.clone());
    // Newest first; the list is copied so that no lock is held while a closure runs.
    let routes: Vec<Arc<Route>> = lock(&state.routes).iter().rev().cloned().collect();
    let answer = routes
        .iter()
        .filter(|route| route.matches(&request))
        .find_map(|route| route.answer(&request));
    let response = match answer {
        Some(response) => response,
        None => {
            lock(&state.unmatched).push(request.clone());
            MockResponse::unmatched(&request)
        }
    };
    if !response.delay.is_zero() {
        tokio::time::sleep(response.delay).await;
    }
    Ok(response.into_hyper())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        PathPattern::parse(pattern).matches(path)
    }

    #[test]
    fn paths_match_segment_by_segment_with_holes() {
        assert!(matches("/api/notifications", "/api/notifications"));
        assert!(!matches("/api/notifications", "/api/notifications/"));
        assert!(!matches("/api/notifications", "/api/notification"));
        assert!(matches(
            "/api/settings/webhooks/{id}",
            "/api/settings/webhooks/abc"
        ));
        assert!(!matches(
            "/api/settings/webhooks/{id}",
            "/api/settings/webhooks/"
        ));
        assert!(!matches(
            "/api/settings/webhooks/{id}",
            "/api/settings/webhooks/a/b"
        ));
        let storage = "/api/{repo_type}s/{namespace}/{repo}/cas-{token_type}-token/{revision}";
        assert!(matches(
            storage,
            "/api/models/acme/bert/cas-read-token/main"
        ));
        assert!(matches(
            storage,
            "/api/datasetss/acme/bert/cas-write-token/v1"
        ));
        assert!(!matches(storage, "/api/s/acme/bert/cas-read-token/main"));
        assert!(!matches(storage, "/api/models/acme/bert/cas--token/main"));
        assert!(!matches(
            storage,
            "/api/models/acme/bert/cas-read-tokens/main"
        ));
        // An unclosed brace is literal text.
        assert!(matches("/api/{oops", "/api/{oops"));
    }
}
