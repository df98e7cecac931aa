//! [`Error`]: the one error type of every [`Client`](crate::Client) call, and the glue that turns
//! the generated client's errors into it.
//!
//! Every message is built so that it can be logged: secrets known to the call (the hub token,
//! webhook and job secrets, tokens being revoked, storage tokens) are scrubbed from any text that
//! comes from the server, and revocation response bodies are withheld altogether.

use std::sync::Arc;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use crate::Secret;
use crate::generated;
use crate::types;

/// The result of a client call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// At most this many bytes of an error response body are kept in [`Error::Status`].
const MAX_BODY_TEXT: usize = 4096;

/// Why a client call failed.
///
/// `Clone` so that one failed storage-token refresh can be handed to every caller that waited
/// for it.
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

    /// Connecting, sending the request or reading the response failed (including timeouts).
    #[error("{operation}: transport error: {source}")]
    Transport {
        /// The operation id of the spec, e.g. `listNotifications`.
        operation: &'static str,
        /// What reqwest reported; its message carries the URL, never headers or bodies.
        #[source]
        source: Arc<reqwest::Error>,
    },

    /// The server answered with a status the operation does not expect.
    #[error("{operation}: HTTP {status}{}", body_suffix(.body.as_deref()))]
    Status {
        /// The operation id of the spec.
        operation: &'static str,
        /// The status the server sent.
        status: StatusCode,
        /// The response body as text (at most 4 KiB, secrets scrubbed); `None` where it is
        /// withheld because it could echo secrets (token revocation).
        body: Option<String>,
    },

    /// A response body does not have the shape the spec describes.
    #[error("{operation}: unexpected response body at `{path}`: {message}")]
    Decode {
        /// The operation id of the spec.
        operation: &'static str,
        /// JSON path of the offending value (`.` for the whole body).
        path: String,
        /// What is wrong with it.
        message: String,
    },

    /// One item of a list response does not have the shape the spec describes (the notifications
    /// stream yields it in the item's place and carries on).
    #[error(transparent)]
    InvalidItem(#[from] crate::partial::ItemError),

    /// The storage-token endpoint answered 401: the hub token is invalid or missing.
    #[error("getStorageAccessToken: the hub token is invalid or missing (HTTP 401)")]
    Unauthorized,

    /// The storage-token endpoint answered 403: the hub token lacks the access that a token of
    /// this type needs.
    #[error(
        "getStorageAccessToken: the hub token lacks the access a {token_type} storage token needs (HTTP 403)"
    )]
    Forbidden {
        /// The requested storage token type.
        token_type: types::StorageTokenType,
    },

    /// The storage-token endpoint answered 404: the repository or the revision does not exist.
    #[error(
        "getStorageAccessToken: repository `{repo_id}` or revision `{revision}` not found (HTTP 404)"
    )]
    NotFound {
        /// The requested repository, `<namespace>/<repo-name>`.
        repo_id: String,
        /// The requested revision.
        revision: String,
    },

    /// Token revocation stopped at a failed batch after earlier batches had been accepted.
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
    },
}

impl Error {
    /// The HTTP status behind the error, if the server answered.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Self::Status { status, .. } => Some(*status),
            Self::Unauthorized => Some(StatusCode::UNAUTHORIZED),
            Self::Forbidden { .. } => Some(StatusCode::FORBIDDEN),
            Self::NotFound { .. } => Some(StatusCode::NOT_FOUND),
            Self::RevocationIncomplete { source, .. } => source.status(),
            Self::Transport { source, .. } => source.status(),
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

/// Secret values that must not reach an error message: each occurrence in server-provided text
/// is replaced by `[redacted]`.
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

    pub(crate) fn scrub(&self, text: &str) -> String {
        self.secrets.iter().fold(text.to_owned(), |text, secret| {
            text.replace(secret, "[redacted]")
        })
    }
}

/// What to do with the body of an unexpected response.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyPolicy {
    /// Keep its text (scrubbed) in [`Error::Status`].
    Keep,
    /// Never read it into an error (it could echo secrets sent in the request).
    Withhold,
}

/// Turns an error of the generated client into [`Error`]. `T` is the type the operation decodes,
/// used to find the JSON path of a decode failure.
pub(crate) async fn from_generated<T: DeserializeOwned>(
    operation: &'static str,
    error: generated::Error<()>,
    redactor: &Redactor<'_>,
    body_policy: BodyPolicy,
) -> Error {
    match error {
        generated::Error::InvalidRequest(message) | generated::Error::Custom(message) => {
            let message = redactor.scrub(&message);
            Error::from_conversion_message(&message)
        }
        generated::Error::CommunicationError(source)
        | generated::Error::InvalidUpgrade(source)
        | generated::Error::ResponseBodyError(source) => Error::Transport {
            operation,
            source: Arc::new(source),
        },
        generated::Error::ErrorResponse(response) => Error::Status {
            operation,
            status: response.status(),
            body: match body_policy {
                BodyPolicy::Keep => Some(String::new()),
                BodyPolicy::Withhold => None,
            },
        },
        generated::Error::InvalidResponsePayload(bytes, error) => {
            decode_error::<T>(operation, &bytes, &error, redactor)
        }
        generated::Error::UnexpectedResponse(response) => {
            let status = response.status();
            let body = match body_policy {
                BodyPolicy::Withhold => None,
                // A body that cannot be read is reported as empty: the status is the news.
                BodyPolicy::Keep => Some(match response.bytes().await {
                    Ok(bytes) => redactor.scrub(&truncated_text(&bytes)),
                    Err(_) => String::new(),
                }),
            };
            Error::Status {
                operation,
                status,
                body,
            }
        }
    }
}

/// A decode error with the JSON path of the first offending value: serde_json alone reports
/// only a line and column, so the body is decoded again through `serde_path_to_error`.
pub(crate) fn decode_error<T: DeserializeOwned>(
    operation: &'static str,
    bytes: &[u8],
    fallback: &serde_json::Error,
    redactor: &Redactor<'_>,
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

fn truncated_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= MAX_BODY_TEXT {
        return text.into_owned();
    }
    let mut end = MAX_BODY_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], bytes.len())
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

    #[test]
    fn errors_can_cross_threads() {
        // Errors are shared between tasks (single-flight refresh) and returned from spawned ones.
        fn assert_shareable<T: Send + Sync + Clone + 'static>() {}
        assert_shareable::<Error>();
    }

    #[test]
    fn redactor_scrubs_every_secret() {
        let token = Secret::new("hub_abc");
        let empty = Secret::new("");
        let redactor = Redactor::new().with(&token).with(&empty);
        assert_eq!(
            redactor.scrub("bad token hub_abc, hub_abc!"),
            "bad token [redacted], [redacted]!"
        );
    }

    #[test]
    fn long_bodies_are_truncated_on_a_char_boundary() {
        let body = "é".repeat(MAX_BODY_TEXT);
        let text = truncated_text(body.as_bytes());
        assert!(text.len() < body.len());
        assert!(text.ends_with(&format!("({} bytes)", body.len())));
    }

    #[test]
    fn status_display_says_when_the_body_is_withheld() {
        let error = Error::Status {
            operation: "revokeCredentials",
            status: StatusCode::BAD_REQUEST,
            body: None,
        };
        assert_eq!(
            error.to_string(),
            "revokeCredentials: HTTP 400 Bad Request (response body withheld)"
        );
    }
}
