//! One delivery, from request to answer: secret, content type, size, JSON, payload shape, and
//! only then the handler. Every check that can fail on the sender's input answers a 4xx with a
//! JSON `{"error": ...}` body, so bad input can neither reach a handler nor cause a 5xx (which
//! the hub would retry forever). The only 5xx are a handler that failed (500) or did not finish
//! within the handler timeout (503); both should be retried.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::json;

use super::handler::{DeliveryContext, ErasedHandler};
use super::in_flight::InFlight;
use super::log_limit::LogLimiter;
use super::{SECRET_HEADER, UNAUTHENTICATED_WARNING_INTERVAL};
use crate::Secret;
use crate::types::WebhookPayload;

/// What every route of one receiver shares.
pub(crate) struct Shared {
    pub(crate) secret: Option<Secret>,
    pub(crate) body_limit: usize,
    pub(crate) body_timeout: std::time::Duration,
    pub(crate) handler_timeout: std::time::Duration,
    pub(crate) in_flight: Arc<InFlight>,
    /// Requests without the right secret come from anyone: warned about once per interval.
    pub(crate) unauthenticated: LogLimiter,
}

impl Shared {
    pub(crate) fn new(
        secret: Option<Secret>,
        body_limit: usize,
        body_timeout: std::time::Duration,
        handler_timeout: std::time::Duration,
        in_flight: Arc<InFlight>,
    ) -> Self {
        Self {
            secret,
            body_limit,
            body_timeout,
            handler_timeout,
            in_flight,
            unauthenticated: LogLimiter::new(UNAUTHENTICATED_WARNING_INTERVAL),
        }
    }

    /// Warns about an unauthenticated request, or counts it if one was warned about recently.
    /// The header's value is never logged, right or wrong: a wrong one may be a near miss.
    fn warn_unauthenticated(&self, route: &Route, rejection: &Rejection) {
        let (status, message) = (rejection.status(), rejection.message());
        match self.unauthenticated.admit() {
            Some(0) => tracing::warn!(
                route = %route.name,
                %status,
                "rejected a delivery: {message} (more such rejections are summed up in at most one warning a minute)"
            ),
            Some(suppressed) => tracing::warn!(
                route = %route.name,
                %status,
                "rejected a delivery: {message} ({suppressed} more unauthenticated requests rejected since the previous warning)"
            ),
            None => {
                tracing::debug!(route = %route.name, %status, "rejected a delivery: {message}");
            }
        }
    }
}

impl Drop for Shared {
    /// Reports the unauthenticated requests no warning has mentioned yet.
    fn drop(&mut self) {
        let suppressed = self.unauthenticated.take_suppressed();
        if suppressed > 0 {
            tracing::warn!(
                "{suppressed} more unauthenticated requests were rejected since the previous warning"
            );
        }
    }
}

/// One `POST /webhooks/<name>` route.
pub(crate) struct Route {
    pub(crate) name: Arc<str>,
    pub(crate) handler: ErasedHandler,
}

/// Why a delivery was not handed to its handler, or why the handler did not succeed.
#[derive(Debug)]
enum Rejection {
    MissingSecret,
    WrongSecret,
    NotJson,
    TooLarge {
        limit: usize,
    },
    UnreadableBody,
    /// The sender stopped sending the body: answering frees the connection (and a shutdown).
    BodyTimeout,
    MalformedJson(String),
    InvalidPayload {
        field: Option<String>,
        message: String,
    },
    HandlerFailed,
    /// The handler ran past the handler timeout and was cancelled.
    HandlerTimedOut {
        timeout: std::time::Duration,
    },
}

impl Rejection {
    fn status(&self) -> StatusCode {
        match self {
            Self::MissingSecret => StatusCode::UNAUTHORIZED,
            Self::WrongSecret => StatusCode::FORBIDDEN,
            Self::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnreadableBody | Self::MalformedJson(_) => StatusCode::BAD_REQUEST,
            Self::BodyTimeout => StatusCode::REQUEST_TIMEOUT,
            Self::InvalidPayload { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::HandlerFailed => StatusCode::INTERNAL_SERVER_ERROR,
            Self::HandlerTimedOut { .. } => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn message(&self) -> String {
        match self {
            Self::MissingSecret => format!("missing {SECRET_HEADER} header"),
            Self::WrongSecret => format!("wrong {SECRET_HEADER} header"),
            Self::NotJson => "content type must be application/json".to_owned(),
            Self::TooLarge { limit } => format!("body is larger than {limit} bytes"),
            Self::UnreadableBody => "could not read the request body".to_owned(),
            Self::BodyTimeout => "the request body did not arrive in time".to_owned(),
            Self::MalformedJson(detail) => format!("malformed JSON: {detail}"),
            Self::InvalidPayload {
                field: Some(field),
                message,
            } => {
                format!("invalid payload at `{field}`: {message}")
            }
            Self::InvalidPayload {
                field: None,
                message,
            } => format!("invalid payload: {message}"),
            // Deliberately vague: the handler's error is for the receiver's log, not the caller.
            Self::HandlerFailed => "handler failed; the delivery should be retried".to_owned(),
            Self::HandlerTimedOut { timeout } => format!(
                "handler did not finish within {} s; the delivery should be retried",
                timeout.as_secs_f64()
            ),
        }
    }
}

impl IntoResponse for Rejection {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message() });
        if let Self::InvalidPayload {
            field: Some(field), ..
        } = &self
        {
            body["field"] = json!(field);
        }
        json_response(self.status(), &body)
    }
}

/// A JSON answer. Built by hand rather than with axum's `json` feature, which would only add
/// a dependency for what `serde_json::to_vec` does.
pub(crate) fn json_response(status: StatusCode, body: &serde_json::Value) -> Response {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    (
        status,
        [(CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        Body::from(bytes),
    )
        .into_response()
}

/// Answers one `POST /webhooks/<name>`.
pub(crate) async fn deliver(shared: Arc<Shared>, route: Arc<Route>, request: Request) -> Response {
    match accept(&shared, &route, request).await {
        // A constant body: every accepted delivery gets the same answer, so nothing is built.
        Ok(()) => (
            StatusCode::OK,
            [(CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            Body::from(r#"{"status":"delivered"}"#),
        )
            .into_response(),
        Err(rejection) => rejection.into_response(),
    }
}

async fn accept(shared: &Shared, route: &Route, request: Request) -> Result<(), Rejection> {
    let (parts, body) = request.into_parts();
    let mut headers = parts.headers;

    // The secret is checked before anything else, so that a caller without it learns nothing
    // about what the receiver would accept and costs no body reading or parsing.
    if let Err(rejection) = authenticate(&headers, shared.secret.as_ref()) {
        shared.warn_unauthenticated(route, &rejection);
        return Err(rejection);
    }
    headers.remove(SECRET_HEADER);

    let body = match read_body(&headers, body, shared.body_limit, shared.body_timeout).await {
        Ok(body) => body,
        Err(rejection) => {
            log_rejection(route, &rejection);
            return Err(rejection);
        }
    };
    parse_and_handle(shared, route, body, headers).await
}

fn log_rejection(route: &Route, rejection: &Rejection) {
    tracing::debug!(route = %route.name, status = %rejection.status(), "rejected a delivery: {}", rejection.message());
}

fn authenticate(headers: &HeaderMap, secret: Option<&Secret>) -> Result<(), Rejection> {
    let Some(secret) = secret else {
        return Ok(());
    };
    let mut presented = headers.get_all(SECRET_HEADER).iter();
    match (presented.next(), presented.next()) {
        (None, _) => Err(Rejection::MissingSecret),
        (Some(value), None) if secret.matches(value.as_bytes()) => Ok(()),
        // Two values are refused outright: which one to compare would be a guess.
        (Some(_), _) => Err(Rejection::WrongSecret),
    }
}

/// The body of a JSON delivery within the size limit and the timeout.
async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
    timeout: std::time::Duration,
) -> Result<Bytes, Rejection> {
    if !is_json(headers) {
        return Err(Rejection::NotJson);
    }
    // A declared length over the limit is refused before reading a byte; `Limited` below
    // catches chunked bodies and lengths that lie.
    let declared_length = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared_length.is_some_and(|length| length > limit as u64) {
        return Err(Rejection::TooLarge { limit });
    }
    let collected = tokio::time::timeout(timeout, Limited::new(body, limit).collect())
        .await
        .map_err(|_| Rejection::BodyTimeout)?;
    match collected {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(error) if error.is::<LengthLimitError>() => Err(Rejection::TooLarge { limit }),
        Err(_) => Err(Rejection::UnreadableBody),
    }
}

/// `application/json`, or any `application/<subtype>+json`, with any parameters.
fn is_json(headers: &HeaderMap) -> bool {
    let mut values = headers.get_all(CONTENT_TYPE).iter();
    let (Some(value), None) = (values.next(), values.next()) else {
        return false;
    };
    let Ok(value) = value.to_str() else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    // Compared in place: lowercasing a copy would allocate on every delivery.
    let is_json_subtype = subtype.eq_ignore_ascii_case("json")
        || subtype
            .len()
            .checked_sub("+json".len())
            .and_then(|start| subtype.get(start..))
            .is_some_and(|suffix| suffix.eq_ignore_ascii_case("+json"));
    kind.eq_ignore_ascii_case("application") && is_json_subtype
}

/// Parses the payload, telling malformed JSON (400) from well-formed JSON that is not a payload
/// (422), and naming the offending field in the latter.
///
/// A valid delivery costs one UTF-8 check and one plain parse. Tracking the path of every
/// value as it is parsed (`serde_path_to_error`) made parsing several times slower, and the
/// path is only needed to explain a failure, so only a failed delivery is parsed again with
/// tracking (the same deserializer on the same bytes fails the same way). JSON text is UTF-8
/// (RFC 8259), so checking the body once up front lets the parser skip checking each string.
fn parse_payload(bytes: &[u8]) -> Result<WebhookPayload, Rejection> {
    let text = std::str::from_utf8(bytes)
        .map_err(|error| Rejection::MalformedJson(format!("the body is not UTF-8: {error}")))?;
    serde_json::from_str(text).map_err(|first| explain_failure(bytes, &first))
}

/// Why `bytes`, which failed to parse with `first`, is not a payload.
///
/// Well-formedness is decided by skipping the whole text (`IgnoredAny`), which reads numbers
/// without converting them: a number beyond `f64` is valid JSON (RFC 8259 sets no range), so
/// it makes a payload invalid only where a field of the spec must hold it, and never
/// malformed. A shape error stops the typed parse before it has seen the rest, which may
/// itself be malformed; malformed wins.
fn explain_failure(bytes: &[u8], first: &serde_json::Error) -> Rejection {
    if let Err(syntax) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        return Rejection::MalformedJson(syntax.to_string());
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, WebhookPayload>(&mut deserializer) {
        Err(error) => invalid_payload(&error),
        // Unreachable (the two parses are the same), but if it were not: report `first`.
        Ok(_) => Rejection::InvalidPayload {
            field: None,
            message: first.to_string(),
        },
    }
}

fn invalid_payload(error: &serde_path_to_error::Error<serde_json::Error>) -> Rejection {
    let message = error.inner().to_string();
    let parent = error.path().to_string();
    let parent = (parent != ".").then_some(parent);
    // serde reports a missing field at its parent; name the field itself.
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name);
    let field = match (parent, missing) {
        (Some(parent), Some(name)) => Some(format!("{parent}.{name}")),
        (None, Some(name)) => Some(name.to_owned()),
        (parent, None) => parent,
    };
    Rejection::InvalidPayload { field, message }
}

/// Why a delivery's task did not succeed.
enum TaskFailure {
    /// The body is not a payload: the handler never ran.
    Rejected(Rejection),
    /// The handler's error, as text.
    Handler(String),
    /// The handler ran past the timeout and was cancelled.
    TimedOut,
}

/// Parses the body and runs the handler, both in a task of its own: the handler runs to the
/// end even if the caller hangs up (the hub then retries, which beats a half-done handler), and
/// a panic becomes a 500, not a reset. The end is bounded by the handler timeout, also for a
/// caller that hung up: the handler's future is then dropped, so a stuck handler holds neither
/// a connection nor a graceful shutdown, and the caller gets a 503. Parsing inside the task keeps the decoded payload (about
/// 2 KB) out of this future and the task's: it is built where the handler takes it, instead of
/// being copied through both and allocated twice more.
async fn parse_and_handle(
    shared: &Shared,
    route: &Route,
    body: Bytes,
    headers: HeaderMap,
) -> Result<(), Rejection> {
    let context = DeliveryContext::new(Arc::clone(&route.name), headers);
    let handler = Arc::clone(&route.handler);
    let guard = shared.in_flight.start();
    let timeout = shared.handler_timeout;
    let task = tokio::spawn(async move {
        let _running = guard;
        let payload = parse_payload(&body).map_err(TaskFailure::Rejected)?;
        match tokio::time::timeout(timeout, handler(payload, context)).await {
            Ok(outcome) => outcome.map_err(TaskFailure::Handler),
            Err(_elapsed) => Err(TaskFailure::TimedOut),
        }
    });
    let failure = match task.await {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(TaskFailure::Rejected(rejection))) => {
            log_rejection(route, &rejection);
            return Err(rejection);
        }
        Ok(Err(TaskFailure::Handler(message))) => message,
        Ok(Err(TaskFailure::TimedOut)) => {
            tracing::error!(
                route = %route.name,
                ?timeout,
                "webhook handler did not finish within the handler timeout; cancelled it and answering 503 so the hub retries"
            );
            return Err(Rejection::HandlerTimedOut { timeout });
        }
        Err(join_error) if join_error.is_panic() => panic_message(join_error.into_panic()),
        Err(_) => "the handler was cancelled".to_owned(),
    };
    let failure = redact(failure, shared.secret.as_ref());
    tracing::error!(route = %route.name, error = %failure, "webhook handler failed; answering 500 so the hub retries");
    Err(Rejection::HandlerFailed)
}

fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    format!("the handler panicked: {detail}")
}

/// Handler errors are free text; one that quotes the secret must not put it in the log.
fn redact(message: String, secret: Option<&Secret>) -> String {
    match secret {
        Some(secret) if !secret.is_empty() && message.contains(secret.expose()) => {
            message.replace(secret.expose(), "[redacted]")
        }
        _ => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn json_content_types() {
        for accepted in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/vnd.hub.webhook+json",
            "APPLICATION/VND.HUB.WEBHOOK+JSON ; charset=utf-8",
        ] {
            assert!(
                is_json(&headers(&[("content-type", accepted)])),
                "{accepted}"
            );
        }
        for refused in [
            "text/plain",
            "application/jsonx",
            "application/json+x",
            "application/x+jso",
            "json",
            "text/json",
            "",
        ] {
            assert!(
                !is_json(&headers(&[("content-type", refused)])),
                "{refused}"
            );
        }
        assert!(!is_json(&HeaderMap::new()));
        let twice = headers(&[
            ("content-type", "application/json"),
            ("content-type", "text/plain"),
        ]);
        assert!(!is_json(&twice));
    }

    #[test]
    fn secret_checks() {
        let secret = Secret::new("s3cret");
        assert!(authenticate(&HeaderMap::new(), None).is_ok());
        assert!(matches!(
            authenticate(&HeaderMap::new(), Some(&secret)),
            Err(Rejection::MissingSecret)
        ));
        assert!(authenticate(&headers(&[(SECRET_HEADER, "s3cret")]), Some(&secret)).is_ok());
        assert!(matches!(
            authenticate(&headers(&[(SECRET_HEADER, "s3cre")]), Some(&secret)),
            Err(Rejection::WrongSecret)
        ));
        let twice = headers(&[(SECRET_HEADER, "s3cret"), (SECRET_HEADER, "s3cret")]);
        assert!(matches!(
            authenticate(&twice, Some(&secret)),
            Err(Rejection::WrongSecret)
        ));
    }

    fn field_of(body: &str) -> Option<String> {
        match parse_payload(body.as_bytes()) {
            Err(Rejection::InvalidPayload { field, .. }) => field,
            other => panic!("expected an invalid payload for {body}, got {other:?}"),
        }
    }

    #[test]
    fn names_the_offending_field() {
        assert_eq!(
            field_of(r#"{"repo":{"type":"model"}}"#).as_deref(),
            Some("event")
        );
        assert_eq!(
            field_of(r#"{"event":{},"repo":{"type":"model"}}"#).as_deref(),
            Some("event.action")
        );
        assert_eq!(
            field_of(r#"{"event":{"action":1},"repo":{"type":"model"}}"#).as_deref(),
            Some("event.action")
        );
        assert_eq!(
            field_of(r#"{"event":{"action":"update"},"repo":{}}"#).as_deref(),
            Some("repo.type")
        );
        assert_eq!(
            field_of(r#"{"event":{"action":"update"},"repo":{"type":7}}"#).as_deref(),
            Some("repo.type")
        );
        assert_eq!(
            field_of(r#"{"event":{"action":"u"},"repo":{"type":"model"},"updatedRefs":[{"oldSha":null}]}"#).as_deref(),
            Some("updatedRefs[0].ref")
        );
        assert_eq!(field_of("[]"), None);
    }

    #[test]
    fn malformed_wins_over_shape() {
        for body in [
            "",
            "{",
            r#"{"event":1,"#,
            r#"{"event":{"action":"u"},"repo":{"type":"model"}} x"#,
        ] {
            assert!(
                matches!(
                    parse_payload(body.as_bytes()),
                    Err(Rejection::MalformedJson(_))
                ),
                "{body}"
            );
        }
        // Not UTF-8, inside a string and outside one.
        for body in [&b"{\"event\":\"\xff\"}"[..], b"\xfe{}"] {
            assert!(
                matches!(parse_payload(body), Err(Rejection::MalformedJson(message)) if message.contains("not UTF-8")),
                "{body:?}"
            );
        }
    }

    /// Numbers JSON allows but `f64` cannot hold: an exponent far past its range, and 10,000
    /// digits.
    fn huge_numbers() -> [String; 3] {
        [
            "1e999999999".to_owned(),
            "-1E+999999999".to_owned(),
            format!("{}.5", "9".repeat(10_000)),
        ]
    }

    #[test]
    fn keeps_numbers_beyond_f64_in_unknown_fields_as_sent() {
        for number in huge_numbers() {
            let body = format!(
                r#"{{"event":{{"action":"u","big":{number}}},"repo":{{"type":"model","nested":{{"n":[{number}]}}}},"top":{number}}}"#
            );
            let payload = match parse_payload(body.as_bytes()) {
                Ok(payload) => payload,
                Err(rejection) => panic!("{number:.20}: {rejection:?}"),
            };
            assert_eq!(payload.extra["top"].get(), number);
            assert_eq!(payload.event.extra["big"].get(), number);
            let nested = format!(r#"{{"n":[{number}]}}"#);
            assert_eq!(payload.repo.extra["nested"].get(), nested);
            // And they go out as they came in.
            let sent = serde_json::to_string(&payload).unwrap();
            assert!(sent.contains(&format!(r#""top":{number}"#)), "{sent:.200}");
        }
    }

    #[test]
    fn a_number_beyond_f64_in_a_known_field_is_invalid_not_malformed() {
        for number in huge_numbers() {
            let body = format!(
                r#"{{"event":{{"action":"u"}},"repo":{{"type":"model"}},"discussion":{{"num":{number}}}}}"#
            );
            assert_eq!(
                field_of(&body).as_deref(),
                Some("discussion.num"),
                "{number:.20}"
            );
        }
    }

    #[test]
    fn redacts_the_secret_from_handler_errors() {
        let secret = Secret::new("s3cret");
        assert_eq!(
            redact("bad s3cret here".into(), Some(&secret)),
            "bad [redacted] here"
        );
        assert_eq!(redact("nothing".into(), Some(&secret)), "nothing");
        assert_eq!(redact("s3cret".into(), None), "s3cret");
    }
}
