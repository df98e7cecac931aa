//! For jobs started by a webhook: [`WebhookPayloadExt::from_env`] reads the delivery payload
//! that the hub puts in the `WEBHOOK_PAYLOAD` environment variable, with an error that says what
//! is missing or wrong.

use std::ffi::OsString;

use crate::types::WebhookPayload;

/// The environment variable holding the payload in a job started by a webhook.
pub const PAYLOAD_ENV_VAR: &str = "WEBHOOK_PAYLOAD";

/// Why the payload could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PayloadError {
    /// The variable is not set: the program was not started by a webhook.
    #[error(
        "the environment variable WEBHOOK_PAYLOAD is not set: this program expects to run as a job started by a webhook"
    )]
    Missing,
    /// The variable is set but is not valid Unicode.
    #[error("the environment variable WEBHOOK_PAYLOAD is not valid Unicode")]
    NotUnicode,
    /// The value is not a webhook payload.
    #[error("WEBHOOK_PAYLOAD is not a valid webhook payload: at `{path}`: {message}")]
    Invalid {
        /// JSON path of the offending value (`.` for the whole document).
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

/// Reading a [`WebhookPayload`] the way a webhook job receives it.
///
/// ```no_run
/// use hub_api::WebhookPayloadExt;
/// use hub_api::types::WebhookPayload;
/// # fn demo() -> Result<(), hub_api::PayloadError> {
/// let payload = WebhookPayload::from_env()?;
/// println!("{} on {:?}", payload.event.action, payload.repo.name);
/// # Ok(()) }
/// ```
pub trait WebhookPayloadExt: Sized {
    /// Reads and parses `WEBHOOK_PAYLOAD`.
    fn from_env() -> Result<Self, PayloadError>;

    /// Parses a payload from JSON text.
    fn from_json(json: &str) -> Result<Self, PayloadError>;
}

impl WebhookPayloadExt for WebhookPayload {
    fn from_env() -> Result<Self, PayloadError> {
        from_variable(std::env::var_os(PAYLOAD_ENV_VAR))
    }

    fn from_json(json: &str) -> Result<Self, PayloadError> {
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let payload: Self = serde_path_to_error::deserialize(&mut deserializer).map_err(invalid)?;
        // Trailing text after the document is as wrong as a broken document.
        deserializer.end().map_err(|error| PayloadError::Invalid {
            path: ".".into(),
            message: error.to_string(),
        })?;
        Ok(payload)
    }
}

fn from_variable(value: Option<OsString>) -> Result<WebhookPayload, PayloadError> {
    let value = value.ok_or(PayloadError::Missing)?;
    let value = value.into_string().map_err(|_| PayloadError::NotUnicode)?;
    WebhookPayload::from_json(&value)
}

fn invalid(error: serde_path_to_error::Error<serde_json::Error>) -> PayloadError {
    PayloadError::Invalid {
        path: error.path().to_string(),
        message: error.inner().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_variable_says_so() {
        assert_eq!(from_variable(None).err(), Some(PayloadError::Missing));
    }

    #[cfg(unix)]
    #[test]
    fn a_non_unicode_variable_says_so() {
        use std::os::unix::ffi::OsStringExt;
        let value = OsString::from_vec(vec![0xff, 0xfe]);
        assert_eq!(
            from_variable(Some(value)).err(),
            Some(PayloadError::NotUnicode)
        );
    }

    #[test]
    fn an_invalid_payload_names_the_path() {
        let error = from_variable(Some(
            r#"{"event":{"action":"update"},"repo":{"type":42}}"#.into(),
        ));
        assert!(
            matches!(&error, Err(PayloadError::Invalid { path, .. }) if path == "repo.type"),
            "{error:?}"
        );
        let error = from_variable(Some(
            r#"{"event":{"action":"update"},"repo":{"type":"model"}} trailing"#.into(),
        ));
        assert!(
            matches!(&error, Err(PayloadError::Invalid { .. })),
            "{error:?}"
        );
    }

    #[test]
    fn a_valid_payload_is_parsed_and_keeps_unknown_fields() {
        let payload = from_variable(Some(
            r#"{"event":{"action":"update","scope":"repo.content"},
                "repo":{"type":"model","name":"acme/bert-tiny"},"novel":1}"#
                .into(),
        ));
        let payload = match payload {
            Ok(payload) => payload,
            Err(error) => panic!("{error}"),
        };
        assert_eq!(payload.event.action, "update");
        assert_eq!(payload.repo.name.as_deref(), Some("acme/bert-tiny"));
        assert_eq!(payload.extra["novel"], serde_json::json!(1));
    }
}
