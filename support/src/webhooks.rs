//! Decoding the requests an API sends to a receiver of yours: the description's `webhooks`.
//!
//! A generated crate whose description lists webhooks has a `webhooks` module with one enum,
//! `Webhook`, a variant per webhook holding its body's generated type; its `decode(name, body)`
//! matches the name and calls [`json_body`]. Decoding is tolerant, like a response's, since the sender may be
//! newer than the crate; wrap the call in [`super::decoding::strict`] to accept exactly what the
//! description accepts.

use std::fmt;

/// Why a webhook request's body was not decoded. The message names the webhook and the broken
/// rule, never a header or a signature.
#[derive(Debug)]
#[non_exhaustive]
pub enum WebhookError {
    /// The description lists no webhook of this name.
    Unknown {
        /// The name asked for.
        name: String,
        /// The names the description lists.
        known: &'static [&'static str],
    },
    /// The body is not what the webhook's schema describes.
    Body {
        /// The webhook.
        name: &'static str,
        /// What the JSON decoder refused.
        source: serde_json::Error,
    },
}

impl WebhookError {
    /// A name the description does not list.
    pub fn unknown(name: &str, known: &'static [&'static str]) -> Self {
        Self::Unknown {
            name: name.to_owned(),
            known,
        }
    }
}

impl fmt::Display for WebhookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown { name, known } => write!(
                f,
                "no webhook is named {name:?}; the description lists {}",
                known.join(", ")
            ),
            Self::Body { name, source } => write!(f, "the body of webhook `{name}`: {source}"),
        }
    }
}

impl std::error::Error for WebhookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Body { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Decodes the JSON body of the webhook `name` into its generated type.
pub fn json_body<T: serde::de::DeserializeOwned>(
    name: &'static str,
    body: &[u8],
) -> Result<T, WebhookError> {
    super::json::from_body(body).map_err(|source| WebhookError::Body { name, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_decodes_into_its_type_or_says_which_webhook_refused_it() {
        let id: u32 = json_body("counted", b"7").unwrap();
        assert_eq!(id, 7);
        let error = json_body::<u32>("counted", b"\"seven\"").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the body of webhook `counted`: invalid type: string \"seven\""),
            "{error}"
        );
        assert!(std::error::Error::source(&error).is_some());
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let error = WebhookError::unknown("gone", &["done", "failed"]);
        assert_eq!(
            error.to_string(),
            "no webhook is named \"gone\"; the description lists done, failed"
        );
    }
}
