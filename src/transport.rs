//! How the client executes every request the generated operations build (plugged into the
//! generated client through `hub_api_client::Transport`): same-origin `GET` redirects only, a
//! response size limit, and the [`RetryPolicy`].
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

use std::fmt;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use reqwest::header::{CONTENT_LENGTH, HeaderMap, LOCATION, RETRY_AFTER};
use reqwest::{Method, StatusCode};

use crate::generated::{Execute, ExecuteFuture};

/// At most this many same-origin `GET` redirects are followed for one request.
pub const MAX_REDIRECTS: usize = 5;

/// When and how often an idempotent call is retried; set with
/// [`ClientBuilder::retry`](crate::ClientBuilder::retry).
///
/// A call is retried when
/// - the hub answered 429 Too Many Requests or 503 Service Unavailable and the method is
///   idempotent (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`): a `POST` or `PATCH` is never sent
///   twice (token revocation is resumed instead, see
///   [`Client::revoke`](crate::Client::revoke));
/// - or the connection could not be established, whatever the method: nothing was sent.
///
/// Between attempts the client waits an exponential backoff with jitter (half the delay fixed,
/// half random, doubling from `initial_backoff` up to `max_backoff`), or exactly what the hub's
/// `Retry-After` asks when that is longer. It gives up, returning the last answer (whose
/// [`Error::retry_after`](crate::Error::retry_after) still says what the hub asked), when
/// `max_attempts` are used or when the next wait would end more than `max_elapsed` after the
/// first attempt began. Each attempt keeps its own [`timeout`](crate::ClientBuilder::timeout).
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct RetryPolicy {
    max_attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
    max_elapsed: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(4),
            max_elapsed: Duration::from_secs(15),
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

/// The wait a response's `Retry-After` asks for (delay seconds or an HTTP date), if any.
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The executor the hub client installs in its generated clients.
pub(crate) struct HubTransport {
    pub(crate) max_response_bytes: u64,
    pub(crate) retry: RetryPolicy,
    /// State of the jitter's generator (splitmix64): cheap, and good enough to keep clients
    /// that failed together from retrying together.
    jitter: AtomicU64,
}

impl fmt::Debug for HubTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HubTransport")
            .field("max_response_bytes", &self.max_response_bytes)
            .field("retry", &self.retry)
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
        Box::pin(self.execute_with_retries(client, request, operation_id))
    }
}

impl HubTransport {
    pub(crate) fn new(max_response_bytes: u64, retry: RetryPolicy) -> Self {
        let seed = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos() as u64);
        Self {
            max_response_bytes,
            retry,
            jitter: AtomicU64::new(seed),
        }
    }

    async fn execute_with_retries(
        &self,
        client: &reqwest::Client,
        request: reqwest::Request,
        operation_id: &'static str,
    ) -> reqwest::Result<reqwest::Response> {
        let started = Instant::now();
        let idempotent = is_idempotent(request.method());
        let mut request = request;
        let mut attempt = 1;
        loop {
            // A copy for the next attempt, taken before this one consumes the request (every
            // body the generated client builds is in memory, so copies always succeed).
            let next = (attempt < self.retry.max_attempts)
                .then(|| request.try_clone())
                .flatten();
            let outcome = execute_following_redirects(client, request).await;
            let Some(next) = next else {
                return outcome.map(|response| self.limit(response));
            };
            let wait = match &outcome {
                Err(error) if error.is_connect() => Some(self.backoff(attempt)),
                Ok(response)
                    if idempotent
                        && matches!(
                            response.status(),
                            StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
                        ) =>
                {
                    let asked = retry_after(response.headers(), SystemTime::now());
                    Some(asked.map_or_else(
                        || self.backoff(attempt),
                        |asked| asked.max(self.backoff(attempt)),
                    ))
                }
                _ => None,
            };
            let Some(wait) =
                wait.filter(|wait| started.elapsed() + *wait <= self.retry.max_elapsed)
            else {
                return outcome.map(|response| self.limit(response));
            };
            tracing::debug!(
                operation = operation_id,
                attempt,
                wait_ms = wait.as_millis(),
                status = outcome
                    .as_ref()
                    .ok()
                    .map(|response| response.status().as_u16()),
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
        self.retry.backoff(attempt, self.random())
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

    /// The response with its body limited to `max_response_bytes`.
    fn limit(&self, response: reqwest::Response) -> reqwest::Response {
        let limit = self.max_response_bytes;
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
        let mut limited = http::Response::from_parts(parts, reqwest::Body::wrap(body));
        // reqwest keeps the URL in an extension of its own; carry it over so that the rebuilt
        // response still knows where it came from.
        let mut marker = reqwest::ResponseBuilderExt::url(http::Response::builder(), url)
            .body(())
            .unwrap_or_default();
        limited
            .extensions_mut()
            .extend(std::mem::take(marker.extensions_mut()));
        reqwest::Response::from(limited)
    }
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

/// Sends `request`, following only same-origin redirects of `GET` and `HEAD` requests.
async fn execute_following_redirects(
    client: &reqwest::Client,
    request: reqwest::Request,
) -> reqwest::Result<reqwest::Response> {
    let mut request = request;
    for _ in 0..MAX_REDIRECTS {
        let follow_up = [Method::GET, Method::HEAD]
            .contains(request.method())
            .then(|| request.try_clone())
            .flatten();
        let response = client.execute(request).await?;
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
    client.execute(request).await
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
    fn only_idempotent_methods_are_retried_on_status() {
        assert!(is_idempotent(&Method::GET));
        assert!(is_idempotent(&Method::DELETE));
        assert!(!is_idempotent(&Method::POST));
        assert!(!is_idempotent(&Method::PATCH));
    }
}
