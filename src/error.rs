//! [`Error`]: the one error type of every [`Client`](crate::Client) call, and the glue that turns
//! the generated client's errors into it.
//!
//! Every message is built so that it can be logged: secrets known to the call (the hub token,
//! webhook and job secrets, tokens being revoked, storage tokens) are scrubbed from any text that
//! comes from the server (see [`Redactor`]), revocation response bodies are withheld altogether,
//! and a redirect is reported by the origin of its target only.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, LOCATION};
use serde::de::DeserializeOwned;

use crate::revocation::Revocation;
use crate::transport::{BodyLimitExceeded, retry_after, transient_failure, transient_status};
use crate::{Repository, Secret, generated, types};

/// The result of a client call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// At most this many bytes of an error response body are kept in [`Error::Status`].
pub const MAX_ERROR_BODY_TEXT: usize = 4096;

/// Why a client call failed.
///
/// `Clone` so that one failed storage-token refresh can be handed to every caller that waited
/// for it. [`Error::is_retryable`] says whether the same call may succeed later.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request was refused before anything was sent: `field` (a JSON path in the request,
    /// or the name of an argument) breaks `rule`.
    #[error("invalid `{field}`: {rule}")]
    Validation {
        /// Where the bad value is, e.g. `discussionIds[2]` or `credentials[0]`.
        field: String,
        /// What the value must look like.
        rule: String,
    },

    /// The HTTP client could not be built from the configuration.
    #[error("cannot build the HTTP client: {source}")]
    ClientBuild {
        /// What reqwest reported.
        #[source]
        source: Arc<reqwest::Error>,
    },

    /// Connecting, sending the request or reading the response failed (timeouts are
    /// [`Error::Timeout`]).
    #[error("{operation}: transport error: {source}{}", request_id_suffix(.request_id.as_deref()))]
    Transport {
        /// The operation id of the spec, e.g. `listNotifications`.
        operation: &'static str,
        /// What reqwest reported; its message carries the URL, never headers or bodies.
        #[source]
        source: Arc<reqwest::Error>,
        /// The hub's `x-request-id`, when the failure came after the response's head (reading
        /// its body).
        request_id: Option<String>,
    },

    /// The call took longer than the client allows: connecting took longer than the connect
    /// timeout, or the whole exchange longer than the timeout.
    #[error("{operation}: timed out {} after {limit:?}{}", timeout_phase(*.connecting), request_id_suffix(.request_id.as_deref()))]
    Timeout {
        /// The operation id of the spec.
        operation: &'static str,
        /// The limit that ran out ([`ClientBuilder::timeout`](crate::ClientBuilder::timeout) or
        /// [`ClientBuilder::connect_timeout`](crate::ClientBuilder::connect_timeout)).
        limit: Duration,
        /// Whether it ran out while connecting.
        connecting: bool,
        /// What reqwest reported.
        #[source]
        source: Arc<reqwest::Error>,
        /// The hub's `x-request-id`, when the time ran out after the response's head (reading
        /// its body).
        request_id: Option<String>,
    },

    /// The server answered with a status the operation does not expect.
    #[error("{operation}: HTTP {status}{}{}{}", retry_after_suffix(*.retry_after), request_id_suffix(.request_id.as_deref()), body_suffix(.body.as_deref()))]
    Status {
        /// The operation id of the spec.
        operation: &'static str,
        /// The status the server sent.
        status: StatusCode,
        /// The response body as text (at most [`MAX_ERROR_BODY_TEXT`] bytes, secrets scrubbed);
        /// `None` where it is withheld because it could echo secrets (token revocation).
        body: Option<String>,
        /// How long the server asked to wait before trying again (`Retry-After`), if it said.
        retry_after: Option<Duration>,
        /// The hub's id of the request (`x-request-id`), for the hub's support; see
        /// [`Error::request_id`].
        request_id: Option<String>,
    },

    /// The hub answered with a redirect, which the client does not follow: only redirects of
    /// `GET` requests to the same origin are followed (at most
    /// [`MAX_REDIRECTS`](crate::MAX_REDIRECTS)); a redirect to another origin, or of a
    /// request with a body, could carry credentials to another host or resend a body.
    #[error("{operation}: the hub answered HTTP {status} ({}), which is not followed{}", redirect_target(.location.as_deref()), request_id_suffix(.request_id.as_deref()))]
    Redirect {
        /// The operation id of the spec.
        operation: &'static str,
        /// The redirect status.
        status: StatusCode,
        /// The origin (`scheme://host:port`) the redirect points to; never its path or query,
        /// which could carry a secret. `None` when the `Location` header is missing or invalid.
        location: Option<String>,
        /// The hub's id of the request (`x-request-id`); see [`Error::request_id`].
        request_id: Option<String>,
    },

    /// The response body is larger than the client accepts
    /// ([`ClientBuilder::max_response_bytes`](crate::ClientBuilder::max_response_bytes)); it was
    /// not read beyond the limit.
    #[error("{operation}: the response body exceeds the limit of {limit} bytes{}", request_id_suffix(.request_id.as_deref()))]
    ResponseTooLarge {
        /// The operation id of the spec.
        operation: &'static str,
        /// The limit, in bytes.
        limit: u64,
        /// The hub's id of the request (`x-request-id`); see [`Error::request_id`].
        request_id: Option<String>,
    },

    /// A response body does not have the shape the spec describes.
    #[error("{operation}: unexpected response body at `{path}`: {message}{}", request_id_suffix(.request_id.as_deref()))]
    Decode {
        /// The operation id of the spec.
        operation: &'static str,
        /// JSON path of the offending value (`.` for the whole body).
        path: String,
        /// What is wrong with it.
        message: String,
        /// The hub's id of the request (`x-request-id`); see [`Error::request_id`].
        request_id: Option<String>,
    },

    /// One item of a list response does not have the shape the spec describes (the notifications
    /// stream yields it in the item's place and carries on).
    #[error(transparent)]
    InvalidItem(#[from] crate::partial::ItemError),

    /// The hub answered 401: the hub token is invalid, or none was sent.
    #[error("{operation}: HTTP 401 Unauthorized{}: {}", request_id_suffix(.request_id.as_deref()), unauthorized_reason(*.token_sent))]
    Unauthorized {
        /// The operation id of the spec.
        operation: &'static str,
        /// Whether the request carried a hub token.
        token_sent: bool,
        /// The hub's id of the request (`x-request-id`); see [`Error::request_id`].
        request_id: Option<String>,
    },

    /// The hub token file ([`Client::from_env`](crate::Client::from_env)) cannot be used. The
    /// message names the file, never its content.
    #[error("hub token file {}: {problem}", .path.display())]
    TokenFile {
        /// The file, e.g. `~/.config/hub/token`.
        path: PathBuf,
        /// Why it cannot be used, e.g. that others may read it.
        problem: String,
    },

    /// The storage-token endpoint answered 403: the hub token lacks the access that a token of
    /// this type needs for this repository.
    #[error(
        "getStorageAccessToken: the hub token lacks the access a {token_type} storage token for `{repository}` needs (HTTP 403){}",
        request_id_suffix(.request_id.as_deref())
    )]
    Forbidden {
        /// The repository, with the revision asked for (`main` when it named none).
        repository: Repository,
        /// The requested storage token type.
        token_type: types::StorageTokenType,
        /// The hub's id of the request (`x-request-id`); see [`Error::request_id`].
        request_id: Option<String>,
    },

    /// The storage-token endpoint answered 404: the repository or the revision does not exist
    /// (or is not visible to this token).
    #[error(
        "getStorageAccessToken: repository `{}` or its revision `{}` not found (HTTP 404){}",
        .repository.id(),
        .repository.revision().unwrap_or(Repository::DEFAULT_REVISION),
        request_id_suffix(.request_id.as_deref())
    )]
    NotFound {
        /// The repository, with the revision asked for (`main` when it named none).
        repository: Repository,
        /// The hub's id of the request (`x-request-id`); see [`Error::request_id`].
        request_id: Option<String>,
    },

    /// The hub issued a storage token that is already expired, or expires within the provider's
    /// refresh margin, by this machine's clock: it would be refreshed again at once. Either the
    /// clock is wrong or the margin is longer than the tokens the hub issues.
    #[error(
        "getStorageAccessToken: the hub issued a token that {} (refresh margin {refresh_margin:?}){}; check the system clock or lower the refresh margin",
        stale_description(*.expires_at, *.received_at),
        request_id_suffix(.request_id.as_deref())
    )]
    StaleStorageToken {
        /// The token's `exp`.
        expires_at: SystemTime,
        /// When it was received, by the provider's clock.
        received_at: SystemTime,
        /// The provider's refresh margin.
        refresh_margin: Duration,
        /// The hub's id of the request that issued the token (`x-request-id`); see
        /// [`Error::request_id`].
        request_id: Option<String>,
    },

    /// Token revocation stopped at a failed batch after earlier batches had been accepted.
    /// [`Error::revocation`] gives the state to resume from: only the batches not accepted are
    /// sent again (see [`Client::revoke`](crate::Client::revoke)).
    #[error(
        "revokeCredentials: {accepted} of {total} tokens were revoked before a batch failed: {source}"
    )]
    RevocationIncomplete {
        /// Tokens in the batches the server accepted (each with status 202).
        accepted: usize,
        /// Tokens given.
        total: usize,
        /// Why the first failed batch failed.
        #[source]
        source: Box<Error>,
        /// The revocation, with the accepted batches marked, to resume with
        /// [`Client::revoke`](crate::Client::revoke).
        revocation: Box<Revocation>,
    },
}

impl Error {
    /// The HTTP status behind the error, if the server answered.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Self::Status { status, .. } | Self::Redirect { status, .. } => Some(*status),
            Self::Unauthorized { .. } => Some(StatusCode::UNAUTHORIZED),
            Self::Forbidden { .. } => Some(StatusCode::FORBIDDEN),
            Self::NotFound { .. } => Some(StatusCode::NOT_FOUND),
            Self::RevocationIncomplete { source, .. } => source.status(),
            Self::Transport { source, .. } | Self::Timeout { source, .. } => source.status(),
            _ => None,
        }
    }

    /// Whether the hub answered 404: what the call named does not exist (or is not visible to
    /// this token), whichever operation it was (`Error::NotFound` from the storage-token
    /// calls, `Error::Status` from the others).
    pub fn is_not_found(&self) -> bool {
        self.status() == Some(StatusCode::NOT_FOUND)
    }

    /// Whether the hub answered 401: no token was sent, or the hub refused it.
    pub fn is_unauthorized(&self) -> bool {
        self.status() == Some(StatusCode::UNAUTHORIZED)
    }

    /// Whether the hub answered 403: the token is valid but may not do this.
    pub fn is_forbidden(&self) -> bool {
        self.status() == Some(StatusCode::FORBIDDEN)
    }

    /// Whether the hub answered 429: too many requests (see [`Error::retry_after`]).
    pub fn is_rate_limited(&self) -> bool {
        self.status() == Some(StatusCode::TOO_MANY_REQUESTS)
    }

    /// How long the server asked to wait before trying again (`Retry-After` of a 429 or 503),
    /// if it said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Status { retry_after, .. } => *retry_after,
            Self::RevocationIncomplete { source, .. } => source.retry_after(),
            _ => None,
        }
    }

    /// Whether the same call may succeed if made again later: the hub was overloaded or
    /// unavailable (408, 429, 502, 503, 504), could not be reached, or did not answer in time.
    /// Validation, authorization, decoding and size errors are not retryable.
    ///
    /// This is the classification the client's [`RetryPolicy`](crate::RetryPolicy) retries by
    /// (the same code decides both), and the client already retried what it safely could
    /// before returning this error. The policy adds one condition the error cannot see, the
    /// method: apart from a failure to connect (nothing was sent), it resends only idempotent
    /// calls. A `POST` that timed out or met a 502/504 is retryable by this answer, since it
    /// may succeed later, but it may also have been carried out already: check before sending
    /// it again (webhook and job creation are not deduplicated by the hub).
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Status { status, .. } => transient_status(*status).is_some(),
            Self::Timeout { connecting, .. } => transient_failure(*connecting, true).is_some(),
            Self::Transport { source, .. } => {
                transient_failure(source.is_connect(), source.is_timeout()).is_some()
            }
            Self::RevocationIncomplete { source, .. } => source.is_retryable(),
            _ => false,
        }
    }

    /// The hub's id of the request behind the error (its `x-request-id` response header), for
    /// the hub's support to find the request in its logs. `Some` for every error built from an
    /// answer of the hub, when the hub sent an id: [`Error::Status`], [`Error::Redirect`],
    /// [`Error::Unauthorized`], [`Error::Forbidden`], [`Error::NotFound`], [`Error::Decode`],
    /// [`Error::InvalidItem`], [`Error::ResponseTooLarge`], [`Error::StaleStorageToken`] (the
    /// answer that issued the token), [`Error::RevocationIncomplete`] (its failed batch's), and
    /// [`Error::Timeout`] or [`Error::Transport`] when the body stalled or broke off after the
    /// head arrived. `None` for errors without an answer (validation, a connection that failed
    /// or timed out before the head). Of a retried call,
    /// it is the last attempt's. The id is also shown in the error's message; like any text
    /// from the server, secrets the call knows are scrubbed from it.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Self::Status { request_id, .. }
            | Self::Redirect { request_id, .. }
            | Self::Unauthorized { request_id, .. }
            | Self::Forbidden { request_id, .. }
            | Self::NotFound { request_id, .. }
            | Self::Decode { request_id, .. }
            | Self::ResponseTooLarge { request_id, .. }
            | Self::StaleStorageToken { request_id, .. }
            | Self::Transport { request_id, .. }
            | Self::Timeout { request_id, .. } => request_id.as_deref(),
            Self::InvalidItem(item) => item.request_id.as_deref(),
            Self::RevocationIncomplete { source, .. } => source.request_id(),
            Self::Validation { .. } | Self::ClientBuild { .. } | Self::TokenFile { .. } => None,
        }
    }

    /// For [`Error::RevocationIncomplete`], the revocation to resume with
    /// [`Client::revoke`](crate::Client::revoke), which sends only the batches not accepted.
    pub fn revocation(&self) -> Option<&Revocation> {
        match self {
            Self::RevocationIncomplete { revocation, .. } => Some(revocation),
            _ => None,
        }
    }

    /// A refusal before sending: `field` breaks `rule`.
    pub(crate) fn validation(field: impl Into<String>, rule: impl Into<String>) -> Self {
        Self::Validation {
            field: field.into(),
            rule: rule.into(),
        }
    }

    /// Reads the message of a conversion error of the generated builders (`error converting
    /// supplied value for <field>: <rule>`, `no value supplied for <field>`) as a validation
    /// error; other messages are reported against the whole `request`.
    pub(crate) fn from_conversion_message(message: &str) -> Self {
        if let Some(rest) = message.strip_prefix("error converting supplied value for ")
            && let Some((field, rule)) = rest.split_once(": ")
        {
            return Self::validation(field, rule);
        }
        if let Some(field) = message.strip_prefix("no value supplied for ") {
            return Self::validation(field, "required");
        }
        Self::validation("request", message)
    }
}

/// Lets `?` turn a failed conversion of a generated type (its `TryFrom` or builder) into
/// [`Error::Validation`], naming the field when the generated message does.
impl From<types::error::ConversionError> for Error {
    fn from(error: types::error::ConversionError) -> Self {
        Self::from_conversion_message(&error.to_string())
    }
}

/// Lets `?` turn a value refused by a validated generated type (`types::Uri::new`, ...) into
/// [`Error::Validation`]. The generated error does not know the field, so it is `value`.
impl From<types::ValidationError> for Error {
    fn from(error: types::ValidationError) -> Self {
        Self::validation("value", error.message())
    }
}

fn body_suffix(body: Option<&str>) -> String {
    match body {
        None => " (response body withheld)".to_owned(),
        Some("") => String::new(),
        Some(text) => format!(": {text}"),
    }
}

fn retry_after_suffix(retry_after: Option<Duration>) -> String {
    retry_after
        .map(|wait| format!(" (retry after {} s)", wait.as_secs()))
        .unwrap_or_default()
}

/// ` (request id <id>)` when the hub sent one, so that a logged error can be matched with the
/// hub's own logs.
pub(crate) fn request_id_suffix(request_id: Option<&str>) -> String {
    request_id
        .map(|id| format!(" (request id {id})"))
        .unwrap_or_default()
}

fn timeout_phase(connecting: bool) -> &'static str {
    if connecting {
        "connecting"
    } else {
        "waiting for the hub"
    }
}

fn unauthorized_reason(token_sent: bool) -> &'static str {
    if token_sent {
        "the hub token was refused"
    } else {
        "no hub token was sent (set HUB_TOKEN or use ClientBuilder::token)"
    }
}

fn redirect_target(origin: Option<&str>) -> String {
    match origin {
        Some(origin) => format!("to {origin}"),
        None => "without a valid Location".to_owned(),
    }
}

fn stale_description(expires_at: SystemTime, received_at: SystemTime) -> String {
    let unix = |time: SystemTime| {
        time.duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs())
    };
    match expires_at.duration_since(received_at) {
        Ok(left) => format!(
            "expires in {} s (at Unix time {})",
            left.as_secs(),
            unix(expires_at)
        ),
        Err(_) => format!(
            "had already expired when it arrived (at Unix time {})",
            unix(expires_at)
        ),
    }
}

/// A secret shorter than this is only scrubbed where it stands alone (see [`Redactor`]).
const MIN_EMBEDDED_SECRET_LEN: usize = 8;

/// Scrubs secret values from server-provided text, replacing each occurrence by `[redacted]`.
///
/// A secret of at least 8 bytes is replaced wherever it occurs, even inside a longer word (a
/// server that glues text to it is still echoing it). A shorter one is replaced only where it
/// stands alone, not inside a longer run of letters, digits, `_` and `-`: the token `x` must not
/// turn `expected` into `e[redacted]pected`. Overlapping occurrences of several secrets are
/// replaced as one, so no part of any of them survives.
#[derive(Default)]
pub(crate) struct Redactor<'a> {
    secrets: Vec<&'a str>,
}

impl<'a> Redactor<'a> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Adds a secret to scrub; empty values are ignored (they would match everywhere).
    pub(crate) fn with(mut self, secret: &'a Secret) -> Self {
        self.add(secret.expose());
        self
    }

    pub(crate) fn with_all(mut self, secrets: impl IntoIterator<Item = &'a Secret>) -> Self {
        for secret in secrets {
            self.add(secret.expose());
        }
        self
    }

    pub(crate) fn add(&mut self, value: &'a str) {
        if !value.is_empty() {
            self.secrets.push(value);
        }
    }

    /// The length in bytes of the longest secret.
    pub(crate) fn longest(&self) -> usize {
        self.secrets
            .iter()
            .map(|secret| secret.len())
            .max()
            .unwrap_or(0)
    }

    pub(crate) fn scrub(&self, text: &str) -> String {
        self.scrub_prefix(text, text.len()).0
    }

    /// Scrubs `text` and keeps what lies before byte `keep` of it (on a character boundary),
    /// except that an occurrence of a secret starting before `keep` is replaced whole. Returns
    /// the text and whether anything was cut. So that no prefix of a secret can survive the cut,
    /// `text` must extend at least the longest secret's length plus one character past `keep`
    /// when there is more to it.
    pub(crate) fn scrub_prefix(&self, text: &str, keep: usize) -> (String, bool) {
        let spans = self.occurrences(text);
        let mut scrubbed = String::with_capacity(text.len().min(keep) + 16);
        let mut position = 0;
        for (start, end) in spans {
            if start >= keep {
                break;
            }
            scrubbed.push_str(&text[position..start]);
            scrubbed.push_str("[redacted]");
            position = end;
        }
        if position >= keep {
            return (scrubbed, position < text.len());
        }
        let mut end = keep.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        scrubbed.push_str(&text[position..end]);
        (scrubbed, end < text.len())
    }

    /// Byte ranges of every occurrence of every secret (overlapping ones included), merged and
    /// in order.
    fn occurrences(&self, text: &str) -> Vec<(usize, usize)> {
        let mut spans = Vec::new();
        for secret in &self.secrets {
            let standalone_only = secret.len() < MIN_EMBEDDED_SECRET_LEN;
            let mut from = 0;
            while let Some(found) = text[from..].find(secret) {
                let start = from + found;
                let end = start + secret.len();
                if !standalone_only || stands_alone(text, start, end) {
                    spans.push((start, end));
                }
                // Next search one character on, so that overlapping occurrences are found too.
                from = start + text[start..].chars().next().map_or(1, char::len_utf8);
            }
        }
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
        for (start, end) in spans {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        merged
    }
}

/// Whether `text[start..end]` is not part of a longer run of word characters.
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let first = text[start..end].chars().next();
    let last = text[start..end].chars().next_back();
    // A secret that itself starts or ends with punctuation cannot be part of a word there.
    let continues_before = before.is_some_and(is_word) && first.is_some_and(is_word);
    let continues_after = after.is_some_and(is_word) && last.is_some_and(is_word);
    !continues_before && !continues_after
}

/// What to do with the body of an unexpected response.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyPolicy {
    /// Keep its text (scrubbed) in [`Error::Status`].
    Keep,
    /// Never read it into an error (it could echo secrets sent in the request).
    Withhold,
}

/// What the mapping of a failed call needs to know about the call and the client.
pub(crate) struct FailedCall<'a> {
    pub(crate) operation: &'static str,
    pub(crate) redactor: Redactor<'a>,
    pub(crate) body_policy: BodyPolicy,
    pub(crate) token_sent: bool,
    pub(crate) limits: Limits,
    /// The hub's id of the answer the call ended with, scrubbed; see
    /// [`recording_request_id`](crate::transport::recording_request_id).
    pub(crate) request_id: Option<String>,
}

/// The client's limits, named in the errors they cause.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub(crate) timeout: Duration,
    pub(crate) connect_timeout: Duration,
    pub(crate) max_response_bytes: u64,
}

impl FailedCall<'_> {
    /// Turns an error of the generated client into [`Error`]. `T` is the type the operation
    /// decodes, used to find the JSON path of a decode failure.
    pub(crate) async fn map<T: DeserializeOwned>(&self, error: generated::Error<()>) -> Error {
        match error {
            generated::Error::InvalidRequest(message) | generated::Error::Custom(message) => {
                Error::from_conversion_message(&self.redactor.scrub(&message))
            }
            generated::Error::CommunicationError(source)
            | generated::Error::InvalidUpgrade(source)
            | generated::Error::ResponseBodyError(source) => self.transport(source),
            generated::Error::ErrorResponse(response) => {
                let body = match self.body_policy {
                    BodyPolicy::Keep => Some(String::new()),
                    BodyPolicy::Withhold => None,
                };
                self.status(response.status(), response.headers(), body)
            }
            generated::Error::InvalidResponsePayload(bytes, error) => {
                let request_id = self.request_id.clone();
                decode_error::<T>(self.operation, &bytes, &error, &self.redactor, request_id)
            }
            generated::Error::UnexpectedResponse(mut response) => {
                let status = response.status();
                if status.is_redirection() {
                    return Error::Redirect {
                        operation: self.operation,
                        status,
                        location: redirect_origin(&response),
                        request_id: self.request_id.clone(),
                    };
                }
                let headers = response.headers().clone();
                let body = match self.body_policy {
                    BodyPolicy::Withhold => None,
                    BodyPolicy::Keep if status == StatusCode::UNAUTHORIZED => None,
                    BodyPolicy::Keep => Some(self.error_body_text(&mut response).await),
                };
                self.status(status, &headers, body)
            }
        }
    }

    /// A failure below HTTP: the size limit, a timeout, or anything else reqwest reports.
    pub(crate) fn transport(&self, source: reqwest::Error) -> Error {
        if is_body_limit(&source) {
            return Error::ResponseTooLarge {
                operation: self.operation,
                limit: self.limits.max_response_bytes,
                request_id: self.request_id.clone(),
            };
        }
        if source.is_timeout() {
            let connecting = source.is_connect();
            return Error::Timeout {
                operation: self.operation,
                limit: if connecting {
                    self.limits.connect_timeout
                } else {
                    self.limits.timeout
                },
                connecting,
                source: Arc::new(source),
                request_id: self.request_id.clone(),
            };
        }
        Error::Transport {
            operation: self.operation,
            source: Arc::new(source),
            request_id: self.request_id.clone(),
        }
    }

    fn status(&self, status: StatusCode, headers: &HeaderMap, body: Option<String>) -> Error {
        let request_id = self.request_id.clone();
        if status == StatusCode::UNAUTHORIZED {
            return Error::Unauthorized {
                operation: self.operation,
                token_sent: self.token_sent,
                request_id,
            };
        }
        Error::Status {
            operation: self.operation,
            status,
            body,
            retry_after: retry_after(headers, SystemTime::now()),
            request_id,
        }
    }

    /// The start of an error body as scrubbed text. Only as much is read as is kept, plus the
    /// longest secret and one character, so that a secret straddling the cut is still seen
    /// whole and replaced; the rest is never read. A body that cannot be read counts as empty
    /// from there on: the status is the news.
    async fn error_body_text(&self, response: &mut reqwest::Response) -> String {
        let declared = response.content_length();
        let window = MAX_ERROR_BODY_TEXT + self.redactor.longest() + 4;
        let mut bytes = Vec::with_capacity(window.min(16 * 1024));
        let mut more = false;
        while let Ok(Some(chunk)) = response.chunk().await {
            let room = window - bytes.len();
            if chunk.len() > room {
                bytes.extend_from_slice(&chunk[..room]);
                more = true;
                break;
            }
            bytes.extend_from_slice(&chunk);
            if bytes.len() == window {
                more = true;
                break;
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let (mut kept, cut) = self.redactor.scrub_prefix(&text, MAX_ERROR_BODY_TEXT);
        if cut || more {
            match declared {
                Some(length) => kept.push_str(&format!("… ({length} bytes)")),
                None => kept.push_str("… (truncated)"),
            }
        }
        kept
    }
}

/// Whether a reqwest error was caused by the response size limit.
fn is_body_limit(error: &reqwest::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if current.is::<BodyLimitExceeded>() {
            return true;
        }
        source = current.source();
    }
    false
}

/// The origin of a redirect's target, never its path or query.
fn redirect_origin(response: &reqwest::Response) -> Option<String> {
    let location = response.headers().get(LOCATION)?.to_str().ok()?;
    let target = response.url().join(location).ok()?;
    target
        .host_str()
        .map(|_| target.origin().ascii_serialization())
}

/// A decode error with the JSON path of the first offending value: serde_json alone reports
/// only a line and column, so the body is decoded again through `serde_path_to_error`. The body
/// is never larger than the client's response size limit.
pub(crate) fn decode_error<T: DeserializeOwned>(
    operation: &'static str,
    bytes: &[u8],
    fallback: &serde_json::Error,
    redactor: &Redactor<'_>,
    request_id: Option<String>,
) -> Error {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let (path, message) = match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
        Err(error) => (error.path().to_string(), error.inner().to_string()),
        // Cannot happen (the same bytes just failed); report what the first attempt said.
        Ok(_) => (".".to_owned(), fallback.to_string()),
    };
    Error::Decode {
        operation,
        path,
        message: redactor.scrub(&message),
        request_id,
    }
}

/// Builds a generated request type from JSON, so that its own validation (the `Deserialize`
/// impls of its constrained fields) decides; a failure names the JSON path and the rule.
pub(crate) fn build_request<T: DeserializeOwned>(
    value: serde_json::Value,
    redactor: &Redactor<'_>,
) -> Result<T> {
    // Strict: a request carries only what the spec allows, never a value a newer hub added.
    generated::decoding::strict(|| serde_path_to_error::deserialize::<_, T>(value)).map_err(
        |error| {
            let path = error.path().to_string();
            let field = if path == "." {
                "request".to_owned()
            } else {
                path
            };
            Error::validation(field, redactor.scrub(&error.inner().to_string()))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion_messages_name_the_field() {
        let error = Error::from_conversion_message(
            "error converting supplied value for command: must have at least 1 item; got 0",
        );
        assert!(matches!(
            &error,
            Error::Validation { field, rule } if field == "command" && rule == "must have at least 1 item; got 0"
        ));
        let error = Error::from_conversion_message("no value supplied for watched");
        assert!(matches!(
            &error,
            Error::Validation { field, rule } if field == "watched" && rule == "required"
        ));
        let error = Error::from_conversion_message("something else");
        assert!(matches!(&error, Error::Validation { field, .. } if field == "request"));
    }

    /// The generated builders' own messages, not copies of them: if typify words them
    /// differently, this fails (see "builder messages" in codegen's `contract.rs`).
    #[test]
    fn the_generated_builders_messages_have_the_shape_read_here() {
        use crate::types::{WebhookJobFromImage, builder};
        let missing = WebhookJobFromImage::try_from(builder::WebhookJobFromImage::default())
            .unwrap_err()
            .to_string();
        let error = Error::from_conversion_message(&missing);
        assert!(
            matches!(&error, Error::Validation { field, rule } if field == "docker_image" && rule == "required"),
            "{missing}: {error:?}"
        );
        // Fields convert in order, so the first one set wrongly is the one reported.
        let invalid = builder::WebhookJobFromImage::default().docker_image("");
        let message = WebhookJobFromImage::try_from(invalid)
            .unwrap_err()
            .to_string();
        let error = Error::from_conversion_message(&message);
        assert!(
            matches!(&error, Error::Validation { field, .. } if field == "docker_image"),
            "{message}: {error:?}"
        );
    }

    #[test]
    fn errors_can_cross_threads() {
        // Errors are shared between tasks (single-flight refresh) and returned from spawned ones.
        fn assert_shareable<T: Send + Sync + Clone + 'static>() {}
        assert_shareable::<Error>();
    }

    #[test]
    fn redactor_scrubs_every_secret() {
        let token = Secret::new("hub_abc12345");
        let empty = Secret::new("");
        let redactor = Redactor::new().with(&token).with(&empty);
        assert_eq!(
            redactor.scrub("bad token hub_abc12345, hub_abc12345!"),
            "bad token [redacted], [redacted]!"
        );
        // Long secrets go even when glued to other text.
        assert_eq!(redactor.scrub("xhub_abc12345y"), "x[redacted]y");
    }

    #[test]
    fn short_secrets_never_mangle_words() {
        let short = Secret::new("x");
        let redactor = Redactor::new().with(&short);
        assert_eq!(
            redactor.scrub("expected x, got x."),
            "expected [redacted], got [redacted]."
        );
        assert_eq!(redactor.scrub("token=x&y"), "token=[redacted]&y");
        assert_eq!(redactor.scrub("max-x_1"), "max-x_1");
        // A secret that starts with punctuation cannot continue a word there.
        let punctuated = Secret::new("!pw");
        let redactor = Redactor::new().with(&punctuated);
        assert_eq!(redactor.scrub("x!pw y"), "x[redacted] y");
        assert_eq!(redactor.scrub("x!pwy"), "x!pwy");
    }

    #[test]
    fn overlapping_secrets_are_replaced_as_one() {
        let first = Secret::new("abcdefgh1234");
        let second = Secret::new("1234wxyzwxyz");
        let redactor = Redactor::new().with(&first).with(&second);
        assert_eq!(redactor.scrub("<abcdefgh1234wxyzwxyz>"), "<[redacted]>");
        let repeated = Secret::new("aaaaaaaa");
        let redactor = Redactor::new().with(&repeated);
        assert_eq!(redactor.scrub("aaaaaaaaaa!"), "[redacted]!");
    }

    #[test]
    fn a_secret_straddling_the_cut_is_replaced_whole() {
        let token = Secret::new("hub_SECRET_0123456789");
        let redactor = Redactor::new().with(&token);
        for offset in 0..token.expose().len() + 2 {
            let text = format!(
                "{}{}{}",
                "a".repeat(100 - offset),
                token.expose(),
                "b".repeat(50)
            );
            let (kept, cut) = redactor.scrub_prefix(&text, 100);
            assert!(cut);
            for prefix_len in 4..=token.expose().len() {
                assert!(
                    !kept.contains(&token.expose()[..prefix_len]),
                    "offset {offset}: {kept}"
                );
            }
        }
        let (kept, cut) = redactor.scrub_prefix("short", 100);
        assert_eq!((kept.as_str(), cut), ("short", false));
    }

    #[test]
    fn the_cut_respects_character_boundaries() {
        let redactor = Redactor::new();
        let text = "é".repeat(10);
        let (kept, cut) = redactor.scrub_prefix(&text, 5);
        assert_eq!(kept, "éé");
        assert!(cut);
    }

    #[test]
    fn status_display_says_when_the_body_is_withheld() {
        let error = Error::Status {
            operation: "revokeCredentials",
            status: StatusCode::BAD_REQUEST,
            body: None,
            retry_after: None,
            request_id: None,
        };
        assert_eq!(
            error.to_string(),
            "revokeCredentials: HTTP 400 Bad Request (response body withheld)"
        );
        let error = Error::Status {
            operation: "listWebhooks",
            status: StatusCode::TOO_MANY_REQUESTS,
            body: Some("slow down".into()),
            retry_after: Some(Duration::from_secs(7)),
            request_id: Some("req-42".into()),
        };
        assert_eq!(
            error.to_string(),
            "listWebhooks: HTTP 429 Too Many Requests (retry after 7 s) (request id req-42): slow down"
        );
        assert_eq!(error.request_id(), Some("req-42"));
        assert!(error.is_retryable());
        assert_eq!(error.retry_after(), Some(Duration::from_secs(7)));
    }
}
