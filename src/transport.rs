//! How the client executes every request the generated operations build (plugged into the
//! generated client through `hub_api_client::Transport`): the per-request settings (token, user
//! agent, default headers, timeout, request hooks), same-origin `GET` redirects only, a response
//! size limit, the [`RetryPolicy`], and the tracing spans of each call and attempt.
//!
//! The settings are applied here rather than as defaults of the `reqwest::Client` so that they
//! hold for a client the application brings itself
//! ([`ClientBuilder::http_client`](crate::ClientBuilder::http_client)), and so that
//! [`Client::with_timeout`](crate::Client::with_timeout) can share the connection pool.
//!
//! # Redirects
//!
//! reqwest itself follows no redirect (`redirect::Policy::none()`). A redirect of a `GET` or
//! `HEAD` request to the same origin (scheme, host and port) is followed here, at most
//! [`MAX_REDIRECTS`] times: the request has no body and its `Authorization` goes where it was
//! going anyway. Any other redirect comes back as the response, which the client reports as
//! [`Error::Redirect`](crate::Error::Redirect): a redirect to another origin could carry the
//! hub token (or the tokens being revoked) to another host, and following a 302 with a `GET`
//! would turn a revocation into a body-less request that looks like success.
//!
//! # Response size
//!
//! The body of the final response is wrapped so that reading it fails once more than the limit
//! has arrived, and, for a success, at once when its `Content-Length` already says so; nothing
//! is buffered beyond the limit (one network read at most). A body whose `Content-Length` is
//! within the limit is left as it is: hyper never reads past the announced length.
//!
//! # Retries
//!
//! See [`RetryPolicy`].
//!
//! # Tracing
//!
//! Each request the transport executes runs in a `hub_request` span (debug level: `operation`,
//! the generated client's method name for it, e.g. `get_mcp_settings` for the spec's
//! `getMcpSettings`; `method`; `path`, without the query, which could carry a secret),
//! and each attempt in a `hub_attempt` span inside it (`attempt`, `status`, `request_id`, the
//! hub's `x-request-id`). No header value is ever recorded: the `Authorization` header is only
//! ever set on the request, never read back.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use reqwest::header::{
    AUTHORIZATION, CONTENT_LENGTH, HeaderMap, HeaderName, HeaderValue, LOCATION, RETRY_AFTER,
    USER_AGENT,
};
use reqwest::{Method, StatusCode};
use tracing::Instrument;

use crate::as_sent;
use crate::generated::{Execute, ExecuteFuture};

/// At most this many same-origin `GET` redirects are followed for one request.
pub const MAX_REDIRECTS: usize = 5;

/// When and how often a call is retried; set with
/// [`ClientBuilder::retry`](crate::ClientBuilder::retry).
///
/// # What is retried
///
/// One rule decides, shared with [`Error::is_retryable`](crate::Error::is_retryable) (so that
/// an error the client returns is retryable exactly when the client would have retried it had
/// attempts been left):
/// - **nothing was sent**: the connection could not be established (refused, unreachable, the
///   connect timeout ran out). Retried whatever the method, since the hub saw nothing.
/// - **the hub may have done the work, or may not**: 408, 429, 502, 503 and 504 answers, and a
///   timeout after the request was sent. Retried only when the method is idempotent (`GET`,
///   `HEAD`, `PUT`, `DELETE`, `OPTIONS`): a `POST` or `PATCH` that timed out, or that a gateway
///   dropped, may have been carried out, and sending it again could do it twice (a second
///   webhook, a second job). Token revocation is resumed instead, see
///   [`Client::revoke`](crate::Client::revoke).
///
/// Everything else (other 4xx and 5xx answers, decoding, size limits) is final: asking again
/// would get the same answer. [`retry_if`](Self::retry_if) replaces the rule with the caller's.
///
/// # When
///
/// Between attempts the client waits an exponential backoff with jitter (half the delay fixed,
/// half random, doubling from `initial_backoff` up to `max_backoff`), or exactly what the hub's
/// `Retry-After` asks when that is longer. It gives up, returning the last answer (whose
/// [`Error::retry_after`](crate::Error::retry_after) still says what the hub asked), when
/// `max_attempts` are used or when the next wait would end more than `max_elapsed` after the
/// first attempt began. Each attempt keeps its own [`timeout`](crate::ClientBuilder::timeout),
/// so with the defaults (a 60 s timeout, 15 s in all) a call that timed out is not retried;
/// shorter timeouts are.
///
/// The default is on: 3 attempts, 250 ms doubling up to 4 s, 15 s in all. A 429 or 503 on a
/// read is nearly always transient, and two quick retries fix it without the caller writing a
/// loop, while the bounds keep a struggling hub from being hammered.
///
/// ```
/// use std::time::Duration;
/// use hub_api::{Client, RetryPolicy};
/// let client = Client::builder("https://hub.example.com")
///     .anonymous()
///     .retry(RetryPolicy::default().max_attempts(5).max_elapsed(Duration::from_secs(60)))
///     .build()?;
/// let no_retries = Client::builder("https://hub.example.com")
///     .anonymous()
///     .retry(RetryPolicy::none())
///     .build()?;
/// # let _ = (client, no_retries);
/// # Ok::<(), hub_api::Error>(())
/// ```
#[derive(Clone)]
#[must_use]
pub struct RetryPolicy {
    max_attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
    max_elapsed: Duration,
    /// The caller's rule, replacing [`RetryContext::is_retryable`] when set.
    predicate: Option<RetryPredicate>,
}

/// The caller's retry rule (see [`RetryPolicy::retry_if`]).
type RetryPredicate = Arc<dyn Fn(&RetryContext<'_>) -> bool + Send + Sync>;

impl fmt::Debug for RetryPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryPolicy")
            .field("max_attempts", &self.max_attempts)
            .field("initial_backoff", &self.initial_backoff)
            .field("max_backoff", &self.max_backoff)
            .field("max_elapsed", &self.max_elapsed)
            .field(
                "retry_if",
                &if self.predicate.is_some() {
                    "custom"
                } else {
                    "default"
                },
            )
            .finish()
    }
}

/// Policies are equal when their bounds are and they use the same rule (the default one, or
/// the very same `retry_if` closure): closures cannot be compared otherwise.
impl PartialEq for RetryPolicy {
    fn eq(&self, other: &Self) -> bool {
        let same_rule = match (&self.predicate, &other.predicate) {
            (None, None) => true,
            (Some(mine), Some(theirs)) => Arc::ptr_eq(mine, theirs),
            _ => false,
        };
        self.max_attempts == other.max_attempts
            && self.initial_backoff == other.initial_backoff
            && self.max_backoff == other.max_backoff
            && self.max_elapsed == other.max_elapsed
            && same_rule
    }
}

impl Eq for RetryPolicy {}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(4),
            max_elapsed: Duration::from_secs(15),
            predicate: None,
        }
    }
}

impl RetryPolicy {
    /// Never retries: every call is sent once.
    pub fn none() -> Self {
        Self {
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// Attempts in all, the first included (at least 1; default 3).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The backoff before the first retry, doubled for each next one (default 250 ms).
    pub fn initial_backoff(mut self, backoff: Duration) -> Self {
        self.initial_backoff = backoff;
        self
    }

    /// The longest backoff between two attempts, unless `Retry-After` asks for more (default
    /// 4 s).
    pub fn max_backoff(mut self, backoff: Duration) -> Self {
        self.max_backoff = backoff;
        self
    }

    /// No retry starts later than this after the first attempt began (default 15 s); a
    /// `Retry-After` beyond it ends the retries.
    pub fn max_elapsed(mut self, elapsed: Duration) -> Self {
        self.max_elapsed = elapsed;
        self
    }

    /// Decides with `predicate` instead of the built-in rule whether a failed attempt is
    /// retried. It sees every attempt that did not succeed (any status outside 2xx and 3xx, or
    /// no answer at all) and is called at most `max_attempts - 1` times per call; the bounds
    /// and the backoff (with `Retry-After`) still apply. [`RetryContext::is_retryable`] gives
    /// the built-in answer, to extend it rather than start over.
    ///
    /// The predicate may ask to resend a `POST`: the client then does, so only do that for
    /// calls the hub deduplicates (the hub's revocation, for one, is safe to repeat). It must
    /// be quick and must not block: it runs inside the call.
    ///
    /// ```
    /// use hub_api::RetryPolicy;
    /// // Also retry a 500 on reads, and never retry anything on the webhook operations.
    /// let policy = RetryPolicy::default().retry_if(|attempt| {
    ///     if attempt.operation().contains("webhook") {
    ///         return false;
    ///     }
    ///     attempt.is_retryable()
    ///         || (attempt.is_idempotent() && attempt.status().is_some_and(|s| s.as_u16() == 500))
    /// });
    /// # let _ = policy;
    /// ```
    pub fn retry_if(
        mut self,
        predicate: impl Fn(&RetryContext<'_>) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.predicate = Some(Arc::new(predicate));
        self
    }

    /// Whether the attempt described by `context` is to be retried (bounds aside).
    fn wants_retry(&self, context: &RetryContext<'_>) -> bool {
        match &self.predicate {
            Some(predicate) => predicate(context),
            None => context.is_retryable(),
        }
    }

    /// The backoff before retry number `retry` (1 for the first), with `random` (any value)
    /// choosing the jitter: between half and all of `initial_backoff · 2^(retry-1)`, capped.
    fn backoff(&self, retry: u32, random: u64) -> Duration {
        let exponent = retry.saturating_sub(1).min(20);
        let full = self
            .initial_backoff
            .saturating_mul(1 << exponent)
            .min(self.max_backoff);
        let half = full / 2;
        let jitter_nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
        let jitter = if jitter_nanos == 0 {
            Duration::ZERO
        } else {
            Duration::from_nanos(random % (jitter_nanos + 1))
        };
        half + jitter
    }
}

/// One failed attempt, as [`RetryPolicy::retry_if`] sees it.
#[derive(Debug)]
pub struct RetryContext<'a> {
    operation: &'static str,
    method: &'a Method,
    attempt: u32,
    outcome: Outcome<'a>,
}

/// What an attempt ended with.
#[derive(Debug)]
enum Outcome<'a> {
    Answer {
        status: StatusCode,
        retry_after: Option<Duration>,
    },
    Failure(&'a reqwest::Error),
}

impl RetryContext<'_> {
    /// The operation, by the generated client's name for it: its method name, progenitor's
    /// snake_case form of the spec's operation id (`list_notifications` for
    /// `listNotifications`), which is what the generated client hands its transport.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// The request's method.
    pub fn method(&self) -> &Method {
        self.method
    }

    /// Whether the method is idempotent (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`), so that
    /// sending the request twice has the effect of sending it once.
    pub fn is_idempotent(&self) -> bool {
        is_idempotent(self.method)
    }

    /// The attempt that failed: 1 for the first.
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// The status the hub answered with, if it answered.
    pub fn status(&self) -> Option<StatusCode> {
        match self.outcome {
            Outcome::Answer { status, .. } => Some(status),
            Outcome::Failure(_) => None,
        }
    }

    /// How long the hub asked to wait (`Retry-After`), if it answered and said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self.outcome {
            Outcome::Answer { retry_after, .. } => retry_after,
            Outcome::Failure(_) => None,
        }
    }

    /// Whether the attempt failed without an answer because no connection could be made (the
    /// hub saw nothing).
    pub fn is_connect_failure(&self) -> bool {
        matches!(self.outcome, Outcome::Failure(error) if error.is_connect())
    }

    /// Whether the attempt failed without an answer because a timeout ran out.
    pub fn is_timeout(&self) -> bool {
        matches!(self.outcome, Outcome::Failure(error) if error.is_timeout())
    }

    /// The built-in rule's answer (see [`RetryPolicy`]): a connection failure, or, for an
    /// idempotent method, a 408, 429, 502, 503 or 504 answer or a timeout.
    pub fn is_retryable(&self) -> bool {
        let kind = match self.outcome {
            Outcome::Answer { status, .. } => transient_status(status),
            Outcome::Failure(error) => transient_failure(error.is_connect(), error.is_timeout()),
        };
        kind.is_some_and(|kind| kind.may_resend(self.is_idempotent()))
    }
}

/// Why an outcome may be different next time: the one classification behind both the
/// transport's retries and [`Error::is_retryable`](crate::Error::is_retryable).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transient {
    /// No connection was made: the hub saw nothing, any request may be sent again.
    NothingSent,
    /// The hub was overloaded or unreachable behind a gateway, or did not answer in time: it
    /// may have carried the request out, so only an idempotent one may be sent again.
    MaybeDone,
}

impl Transient {
    /// Whether a request of this kind may be sent again.
    pub(crate) fn may_resend(self, idempotent: bool) -> bool {
        match self {
            Self::NothingSent => true,
            Self::MaybeDone => idempotent,
        }
    }
}

/// Whether an answer with `status` may be different later.
pub(crate) fn transient_status(status: StatusCode) -> Option<Transient> {
    matches!(status.as_u16(), 408 | 429 | 502 | 503 | 504).then_some(Transient::MaybeDone)
}

/// Whether a failure without an answer may be different later: connecting failed (whether
/// refused or timed out), or the exchange timed out.
pub(crate) fn transient_failure(connect: bool, timeout: bool) -> Option<Transient> {
    if connect {
        Some(Transient::NothingSent)
    } else if timeout {
        Some(Transient::MaybeDone)
    } else {
        None
    }
}

/// The wait a response's `Retry-After` asks for (delay seconds or an HTTP date), if any.
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// A function run on every request just before it is sent (see
/// [`ClientBuilder::on_request`](crate::ClientBuilder::on_request)).
pub(crate) type RequestHook = Arc<dyn Fn(&mut reqwest::Request) + Send + Sync>;

/// What the transport sets on every request of one generated client.
#[derive(Clone)]
pub(crate) struct RequestSettings {
    /// `Bearer <token>`, marked sensitive; `None` for the anonymous client.
    pub(crate) authorization: Option<HeaderValue>,
    pub(crate) user_agent: HeaderValue,
    /// Added unless the request already has a header of that name; values marked sensitive.
    pub(crate) default_headers: Vec<(HeaderName, HeaderValue)>,
    /// The limit on each attempt.
    pub(crate) timeout: Duration,
    /// Run in order on every attempt (and every followed redirect), after the above.
    pub(crate) hooks: Vec<RequestHook>,
}

/// Everything the transport needs, cloned to make a variant (anonymous, another timeout).
#[derive(Clone)]
pub(crate) struct TransportConfig {
    pub(crate) max_response_bytes: u64,
    pub(crate) retry: RetryPolicy,
    pub(crate) request: RequestSettings,
}

/// The executor the hub client installs in its generated clients.
pub(crate) struct HubTransport {
    config: TransportConfig,
    /// State of the jitter's generator (splitmix64): cheap, and good enough to keep clients
    /// that failed together from retrying together.
    jitter: AtomicU64,
}

impl fmt::Debug for HubTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the headers: the token is among them.
        f.debug_struct("HubTransport")
            .field("max_response_bytes", &self.config.max_response_bytes)
            .field("retry", &self.config.retry)
            .field("timeout", &self.config.request.timeout)
            .field("hooks", &self.config.request.hooks.len())
            .finish_non_exhaustive()
    }
}

impl Execute for HubTransport {
    fn execute<'a>(
        &'a self,
        client: &'a reqwest::Client,
        request: reqwest::Request,
        operation_id: &'static str,
    ) -> ExecuteFuture<'a> {
        let span = tracing::debug_span!(
            "hub_request",
            operation = operation_id,
            method = %request.method(),
            path = request.url().path(),
        );
        Box::pin(
            self.execute_with_retries(client, request, operation_id)
                .instrument(span),
        )
    }
}

impl HubTransport {
    pub(crate) fn new(config: TransportConfig) -> Self {
        let seed = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos() as u64);
        Self {
            config,
            jitter: AtomicU64::new(seed),
        }
    }

    /// Sets the token, the user agent, the default headers and the timeout on `request`.
    fn prepare(&self, request: &mut reqwest::Request) {
        let settings = &self.config.request;
        let headers = request.headers_mut();
        for (name, value) in &settings.default_headers {
            if !headers.contains_key(name) {
                headers.insert(name.clone(), value.clone());
            }
        }
        headers.insert(USER_AGENT, settings.user_agent.clone());
        if let Some(authorization) = &settings.authorization {
            headers.insert(AUTHORIZATION, authorization.clone());
        }
        *request.timeout_mut() = Some(settings.timeout);
    }

    async fn execute_with_retries(
        &self,
        client: &reqwest::Client,
        request: reqwest::Request,
        operation_id: &'static str,
    ) -> reqwest::Result<reqwest::Response> {
        let retry = &self.config.retry;
        let started = Instant::now();
        let method = request.method().clone();
        let mut request = request;
        self.prepare(&mut request);
        let mut attempt = 1;
        loop {
            // A copy for the next attempt, taken before this one consumes the request (every
            // body the generated client builds is in memory, so copies always succeed).
            let next = (attempt < retry.max_attempts)
                .then(|| request.try_clone())
                .flatten();
            let span = tracing::debug_span!(
                "hub_attempt",
                attempt,
                status = tracing::field::Empty,
                request_id = tracing::field::Empty,
            );
            let outcome = self
                .execute_following_redirects(client, request)
                .instrument(span.clone())
                .await;
            let id = outcome
                .as_ref()
                .ok()
                .and_then(|response| request_id(response.headers()));
            if let Ok(response) = &outcome {
                span.record("status", response.status().as_u16());
            }
            if let Some(id) = id {
                span.record("request_id", id);
            }
            record_request_id(id);
            let answered = matches!(&outcome, Ok(response)
                if response.status().is_success() || response.status().is_redirection());
            let Some(next) = next.filter(|_| !answered) else {
                return outcome.map(|response| as_sent::tee(self.limit(response)));
            };
            let context = RetryContext {
                operation: operation_id,
                method: &method,
                attempt,
                outcome: match &outcome {
                    Ok(response) => Outcome::Answer {
                        status: response.status(),
                        retry_after: retry_after(response.headers(), SystemTime::now()),
                    },
                    Err(error) => Outcome::Failure(error),
                },
            };
            let wait = retry.wants_retry(&context).then(|| {
                let backoff = self.backoff(attempt);
                context
                    .retry_after()
                    .map_or(backoff, |asked| asked.max(backoff))
            });
            let Some(wait) = wait.filter(|wait| started.elapsed() + *wait <= retry.max_elapsed)
            else {
                return outcome.map(|response| as_sent::tee(self.limit(response)));
            };
            tracing::debug!(
                operation = operation_id,
                attempt,
                wait_ms = wait.as_millis(),
                status = context.status().map(|status| status.as_u16()),
                timeout = context.is_timeout(),
                "hub call will be retried"
            );
            // The response is dropped unread: its connection is closed rather than drained.
            drop(outcome);
            tokio::time::sleep(wait).await;
            request = next;
            attempt += 1;
        }
    }

    fn backoff(&self, attempt: u32) -> Duration {
        self.config.retry.backoff(attempt, self.random())
    }

    fn random(&self) -> u64 {
        let mut z = self
            .jitter
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Sends `request` (after the request hooks), following only same-origin redirects of
    /// `GET` and `HEAD` requests. The hooks see each request sent, redirects included, and
    /// always a copy taken before any hook ran, so that a hook that adds a header adds it once.
    async fn execute_following_redirects(
        &self,
        client: &reqwest::Client,
        request: reqwest::Request,
    ) -> reqwest::Result<reqwest::Response> {
        let mut request = request;
        for _ in 0..MAX_REDIRECTS {
            let follow_up = [Method::GET, Method::HEAD]
                .contains(request.method())
                .then(|| request.try_clone())
                .flatten();
            let response = client.execute(self.hooked(request)).await?;
            let Some(mut follow_up) = follow_up else {
                return Ok(response);
            };
            let Some(target) = same_origin_redirect(&response) else {
                return Ok(response);
            };
            tracing::debug!(
                status = response.status().as_u16(),
                "following a same-origin redirect"
            );
            *follow_up.url_mut() = target;
            request = follow_up;
        }
        client.execute(self.hooked(request)).await
    }

    /// `request` after every request hook.
    fn hooked(&self, mut request: reqwest::Request) -> reqwest::Request {
        for hook in &self.config.request.hooks {
            hook(&mut request);
        }
        request
    }

    /// The response with its body limited to `max_response_bytes`.
    fn limit(&self, response: reqwest::Response) -> reqwest::Response {
        let limit = self.config.max_response_bytes;
        let declared = response
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse::<u64>().ok());
        // hyper never reads past an announced length, so a body announced within the limit
        // needs no wrapper (the common case, kept cheap).
        if declared.is_some_and(|length| length <= limit) {
            return response;
        }
        let success = response.status().is_success();
        let url = response.url().clone();
        let (parts, body) = http::Response::<reqwest::Body>::from(response).into_parts();
        let body = LimitedBody {
            inner: body,
            remaining: limit,
            limit,
            // An error body is still read for the start of its text (the client reads only
            // that much of it), so only a success is refused on its announced length alone.
            refuse_at_once: success && declared.is_some_and(|length| length > limit),
        };
        rebuilt(parts, reqwest::Body::wrap(body), url)
    }
}

/// A response from `parts` and another `body`, still knowing its `url`: reqwest keeps the URL
/// in an extension of its own, which `into_parts` drops, so it is carried over.
pub(crate) fn rebuilt(
    parts: http::response::Parts,
    body: reqwest::Body,
    url: reqwest::Url,
) -> reqwest::Response {
    let mut response = http::Response::from_parts(parts, body);
    let mut marker = reqwest::ResponseBuilderExt::url(http::Response::builder(), url)
        .body(())
        .unwrap_or_default();
    response
        .extensions_mut()
        .extend(std::mem::take(marker.extensions_mut()));
    reqwest::Response::from(response)
}

fn is_idempotent(method: &Method) -> bool {
    [
        Method::GET,
        Method::HEAD,
        Method::PUT,
        Method::DELETE,
        Method::OPTIONS,
    ]
    .contains(method)
}

/// The response header that carries the hub's id of a request, for its support to find it.
pub(crate) const REQUEST_ID_HEADER: &str = "x-request-id";

/// The hub's id of the request that got `headers`, if it is short visible ASCII (anything else
/// is not an id, and is not worth repeating in logs and errors).
pub(crate) fn request_id(headers: &HeaderMap) -> Option<&str> {
    let id = headers.get(REQUEST_ID_HEADER)?.to_str().ok()?.trim();
    let plausible =
        !id.is_empty() && id.len() <= 128 && id.bytes().all(|byte| byte.is_ascii_graphic());
    plausible.then_some(id)
}

tokio::task_local! {
    /// Where the transport leaves the request id of the call in progress (see
    /// [`recording_request_id`]).
    static CALL_REQUEST_ID: Arc<Mutex<Option<String>>>;
}

/// Runs `call` (a generated operation's future), returning its output and the hub's request id
/// of the answer it ended with: the last attempt's, `None` when that attempt got no answer or
/// the answer had no id. The id reaches the errors that progenitor builds without the
/// response's headers (a body that does not decode, a body over the size limit).
pub(crate) async fn recording_request_id<F: Future>(call: F) -> (F::Output, Option<String>) {
    let slot = Arc::new(Mutex::new(None));
    let output = CALL_REQUEST_ID.scope(Arc::clone(&slot), call).await;
    let id = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    (output, id)
}

/// Keeps `id` as the call's request id, replacing an earlier attempt's; nothing outside
/// [`recording_request_id`] (a call on the generated client itself).
fn record_request_id(id: Option<&str>) {
    let _outside_a_call = CALL_REQUEST_ID.try_with(|slot| {
        *slot.lock().unwrap_or_else(PoisonError::into_inner) = id.map(str::to_owned);
    });
}

/// The target of a redirect response, when it is a redirect to the same origin.
fn same_origin_redirect(response: &reqwest::Response) -> Option<reqwest::Url> {
    let redirects = [
        StatusCode::MOVED_PERMANENTLY,
        StatusCode::FOUND,
        StatusCode::SEE_OTHER,
        StatusCode::TEMPORARY_REDIRECT,
        StatusCode::PERMANENT_REDIRECT,
    ];
    if !redirects.contains(&response.status()) {
        return None;
    }
    let location = response.headers().get(LOCATION)?.to_str().ok()?;
    let target = response.url().join(location).ok()?;
    let same_origin = target.origin() == response.url().origin()
        && target.username().is_empty()
        && target.password().is_none();
    same_origin.then_some(target)
}

/// The error a limited body fails with; the client finds it in reqwest's error chain and
/// reports [`Error::ResponseTooLarge`](crate::Error::ResponseTooLarge).
#[derive(Debug)]
pub(crate) struct BodyLimitExceeded {
    limit: u64,
}

impl fmt::Display for BodyLimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the response body exceeds {} bytes", self.limit)
    }
}

impl std::error::Error for BodyLimitExceeded {}

/// A response body that fails once more than `limit` bytes arrive, or before reading anything
/// when the declared length is already too large.
struct LimitedBody {
    inner: reqwest::Body,
    remaining: u64,
    limit: u64,
    refuse_at_once: bool,
}

impl HttpBody for LimitedBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let limit = self.limit;
        let exceeded = move || -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            Poll::Ready(Some(Err(Box::new(BodyLimitExceeded { limit }))))
        };
        if self.refuse_at_once {
            return exceeded();
        }
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                let length = frame.data_ref().map_or(0, |data| data.len() as u64);
                if length > self.remaining {
                    self.refuse_at_once = true;
                    return exceeded();
                }
                self.remaining -= length;
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(Box::new(error)))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        !self.refuse_at_once && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        if self.refuse_at_once {
            return SizeHint::default();
        }
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_is_capped() {
        let policy = RetryPolicy::default()
            .initial_backoff(Duration::from_millis(100))
            .max_backoff(Duration::from_millis(350));
        for random in [0, 1, 12_345, u64::MAX] {
            let first = policy.backoff(1, random);
            assert!(first >= Duration::from_millis(50) && first <= Duration::from_millis(100));
            let second = policy.backoff(2, random);
            assert!(second >= Duration::from_millis(100) && second <= Duration::from_millis(200));
            let capped = policy.backoff(30, random);
            assert!(capped >= Duration::from_millis(175) && capped <= Duration::from_millis(350));
        }
        assert_ne!(policy.backoff(1, 1), policy.backoff(1, 40_000_000));
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
        let mut headers = HeaderMap::new();
        assert_eq!(retry_after(&headers, now), None);
        headers.insert(RETRY_AFTER, "7".parse().expect("header"));
        assert_eq!(retry_after(&headers, now), Some(Duration::from_secs(7)));
        // 2015-10-21T07:28:00Z is 1,445,412,480 + 0 s.
        headers.insert(
            RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:30 GMT".parse().expect("header"),
        );
        assert_eq!(retry_after(&headers, now), Some(Duration::from_secs(30)));
        headers.insert(
            RETRY_AFTER,
            "Wed, 21 Oct 2015 07:27:00 GMT".parse().expect("header"),
        );
        assert_eq!(retry_after(&headers, now), Some(Duration::ZERO));
        headers.insert(RETRY_AFTER, "soon".parse().expect("header"));
        assert_eq!(retry_after(&headers, now), None);
    }

    #[test]
    fn the_one_retry_rule() {
        for code in [408, 429, 502, 503, 504] {
            let status = StatusCode::from_u16(code).expect("status");
            assert_eq!(
                transient_status(status),
                Some(Transient::MaybeDone),
                "{code}"
            );
        }
        for code in [400, 401, 403, 404, 409, 422, 500, 501] {
            let status = StatusCode::from_u16(code).expect("status");
            assert_eq!(transient_status(status), None, "{code}");
        }
        // A connect timeout is a connect failure: nothing was sent.
        assert_eq!(transient_failure(true, true), Some(Transient::NothingSent));
        assert_eq!(transient_failure(false, true), Some(Transient::MaybeDone));
        assert_eq!(transient_failure(false, false), None);
        assert!(Transient::NothingSent.may_resend(false));
        assert!(Transient::MaybeDone.may_resend(true));
        assert!(!Transient::MaybeDone.may_resend(false));
        let post = Method::POST;
        let context = RetryContext {
            operation: "revoke_credentials",
            method: &post,
            attempt: 1,
            outcome: Outcome::Answer {
                status: StatusCode::SERVICE_UNAVAILABLE,
                retry_after: None,
            },
        };
        assert!(!context.is_retryable(), "a POST is not resent on a 503");
    }

    #[test]
    fn only_idempotent_methods_are_retried_on_status() {
        assert!(is_idempotent(&Method::GET));
        assert!(is_idempotent(&Method::DELETE));
        assert!(!is_idempotent(&Method::POST));
        assert!(!is_idempotent(&Method::PATCH));
    }
}
