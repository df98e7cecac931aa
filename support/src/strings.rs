//! Strings a schema constrains beyond what typify checks (a `format`, a `pattern`, lengths):
//! [`ValidatedString`] and, for secrets, [`SecretString`]. Each validated string of a
//! description is an alias of one of them, `R` being its marker, whose [`StringSchema::check`]
//! the generated code writes out.

use std::fmt;
use std::marker::PhantomData;

use crate::{AliasMarker, ValidationError};

/// The rules of one `ValidatedString` or `SecretString` alias, as its schema states them.
pub trait StringSchema: AliasMarker {
    /// Checks `value` against the schema's rules.
    fn check(value: &str) -> Result<(), ValidationError>;
}

/// A `StringSchema` whose `format` is `date-time`.
pub trait DateTimeText: StringSchema {}

/// A string whose schema has rules typify does not enforce (a `format`, a pattern `regress`
/// reads differently), checked on construction and on decoding. Each such type of a
/// description is an alias of this one, `R` being its marker, which checks the rules.
pub struct ValidatedString<R>(String, PhantomData<fn() -> R>);

/// A `ValidatedString` that holds a secret (`x-rust-secret`): it prints as `Name([redacted])`,
/// has no `Display`, and its errors give only the length.
pub struct SecretString<R>(String, PhantomData<fn() -> R>);

/// What both wrappers have: construction through `check`, the conversions, serde and the
/// comparisons of the text.
macro_rules! validated_text {
    ($wrapper:ident) => {
        impl<R: StringSchema> $wrapper<R> {
            /// Checks `value` against the schema's rules.
            pub fn new(value: impl Into<String>) -> Result<Self, ValidationError> {
                let value = value.into();
                R::check(&value)?;
                Ok(Self(value, PhantomData))
            }

            /// The owned text.
            pub fn into_inner(self) -> String {
                self.0
            }
        }

        impl<R: DateTimeText> $wrapper<R> {
            /// The instant, in UTC. The text is kept as sent so it round-trips exactly.
            pub fn to_datetime(&self) -> chrono::DateTime<chrono::Utc> {
                chrono::DateTime::parse_from_rfc3339(&self.0)
                    .expect("checked on construction")
                    .with_timezone(&chrono::Utc)
            }
        }

        impl<R: StringSchema> std::str::FromStr for $wrapper<R> {
            type Err = ValidationError;
            fn from_str(value: &str) -> Result<Self, ValidationError> {
                Self::new(value)
            }
        }

        impl<R: StringSchema> TryFrom<&str> for $wrapper<R> {
            type Error = ValidationError;
            fn try_from(value: &str) -> Result<Self, ValidationError> {
                Self::new(value)
            }
        }

        impl<R: StringSchema> TryFrom<&String> for $wrapper<R> {
            type Error = ValidationError;
            fn try_from(value: &String) -> Result<Self, ValidationError> {
                Self::new(value.as_str())
            }
        }

        impl<R: StringSchema> TryFrom<String> for $wrapper<R> {
            type Error = ValidationError;
            fn try_from(value: String) -> Result<Self, ValidationError> {
                Self::new(value)
            }
        }

        impl<R> From<$wrapper<R>> for String {
            fn from(value: $wrapper<R>) -> Self {
                value.0
            }
        }

        impl<R> serde::Serialize for $wrapper<R> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }

        impl<'de, R: StringSchema> serde::Deserialize<'de> for $wrapper<R> {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = String::deserialize(deserializer)?;
                R::check(&value).map_err(serde::de::Error::custom)?;
                Ok(Self(value, PhantomData))
            }
        }

        impl<R> Clone for $wrapper<R> {
            fn clone(&self) -> Self {
                Self(self.0.clone(), PhantomData)
            }
        }

        impl<R> PartialEq for $wrapper<R> {
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }

        impl<R> Eq for $wrapper<R> {}

        impl<R> std::hash::Hash for $wrapper<R> {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.0.hash(state);
            }
        }

        impl<R> PartialOrd for $wrapper<R> {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl<R> Ord for $wrapper<R> {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.0.cmp(&other.0)
            }
        }
    };
}

validated_text!(ValidatedString);
validated_text!(SecretString);

impl<R> ValidatedString<R> {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<R: StringSchema> fmt::Debug for ValidatedString<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(R::NAME).field(&self.0).finish()
    }
}

impl<R> fmt::Display for ValidatedString<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<R> SecretString<R> {
    /// The secret value: send it, never print it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<R: StringSchema> fmt::Debug for SecretString<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}([redacted])", R::NAME)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    enum Lowercase {}

    impl AliasMarker for Lowercase {
        const NAME: &'static str = "Lowercase";
    }

    impl StringSchema for Lowercase {
        fn check(value: &str) -> Result<(), ValidationError> {
            if value.bytes().any(|byte| byte.is_ascii_uppercase()) {
                return Err(ValidationError::new(format!(
                    "must be lower case; got {value:?}"
                )));
            }
            Ok(())
        }
    }

    impl DateTimeText for Lowercase {}

    enum Token {}

    impl AliasMarker for Token {
        const NAME: &'static str = "Token";
    }

    impl StringSchema for Token {
        fn check(value: &str) -> Result<(), ValidationError> {
            if value.len() < 4 {
                return Err(ValidationError::new(format!(
                    "must be at least 4 characters; got {} characters",
                    value.len()
                )));
            }
            Ok(())
        }
    }

    #[derive(serde::Deserialize)]
    struct Holder {
        name: ValidatedString<Lowercase>,
    }

    #[test]
    fn checked_on_construction_parsing_and_decoding() {
        let name = ValidatedString::<Lowercase>::new("acme").unwrap();
        assert_eq!(name.as_str(), "acme");
        assert_eq!(format!("{name:?} {name}"), "Lowercase(\"acme\") acme");
        assert_eq!(
            "Acme"
                .parse::<ValidatedString<Lowercase>>()
                .unwrap_err()
                .message(),
            "must be lower case; got \"Acme\""
        );
        let error = serde_json::from_str::<Holder>(r#"{"name": "ACME"}"#)
            .err()
            .unwrap();
        assert!(error.to_string().contains("must be lower case"), "{error}");
        let held: Holder = serde_json::from_str(r#"{"name": "acme"}"#).unwrap();
        assert_eq!(held.name, name);
        assert_eq!(serde_json::to_string(&name).unwrap(), "\"acme\"");
    }

    #[test]
    fn a_date_time_is_read_as_an_instant_in_utc() {
        let stamp = ValidatedString::<Lowercase>::new("2026-11-02t09:15:00+01:00").unwrap();
        assert_eq!(
            stamp.to_datetime().to_rfc3339(),
            "2026-11-02T08:15:00+00:00"
        );
    }

    #[test]
    fn a_secret_never_prints_its_value() {
        let secret = SecretString::<Token>::new("hf_abcdef").unwrap();
        assert_eq!(format!("{secret:?}"), "Token([redacted])");
        assert_eq!(secret.as_str(), "hf_abcdef");
        let error = SecretString::<Token>::new("hf_").unwrap_err();
        assert!(!error.message().contains("hf_"), "{error}");
    }
}
