//! Strings a schema constrains beyond what typify checks (a `format`, a `pattern`, lengths):
//! [`ValidatedString`] and, for secrets, [`SecretString`]. Each validated string of a
//! description is an alias of one of them, `R` being its marker, whose [`StringSchema::check`]
//! the generated code writes out.

use std::fmt;
use std::marker::PhantomData;

use super::{AliasMarker, ValidationError};

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
pub struct ValidatedString<R>(Text, PhantomData<fn() -> R>);

/// A `ValidatedString` that holds a secret (`x-rust-secret`): it prints as `Name([redacted])`,
/// has no `Display`, and its errors give only the length. Unlike a `ValidatedString` it does
/// not read as a `str` (no `Deref`, `AsRef<str>` or comparison with text): its value is taken
/// with `as_str` only, where it is sent.
///
/// ```compile_fail
/// # use hub_api_support::{AliasMarker, SecretString, StringSchema, ValidationError};
/// # enum Token {}
/// # impl AliasMarker for Token { const NAME: &'static str = "Token"; }
/// # impl StringSchema for Token { fn check(_: &str) -> Result<(), ValidationError> { Ok(()) } }
/// let token = SecretString::<Token>::new("hf_abc").unwrap();
/// let leaked: &str = &token; // no `Deref<Target = str>`
/// ```
///
/// ```compile_fail
/// # use hub_api_support::{AliasMarker, SecretString, StringSchema, ValidationError};
/// # enum Token {}
/// # impl AliasMarker for Token { const NAME: &'static str = "Token"; }
/// # impl StringSchema for Token { fn check(_: &str) -> Result<(), ValidationError> { Ok(()) } }
/// let token = SecretString::<Token>::new("hf_abc").unwrap();
/// println!("{token}"); // no `Display`
/// ```
pub struct SecretString<R>(Text, PhantomData<fn() -> R>);

/// The longest text kept inline: ids, timestamps, names and codes, which are most of the
/// strings a schema constrains, fit.
const INLINE: usize = 30;

/// The text of a validated string: inline when it is short, so that decoding one does not
/// allocate (a page of notifications holds several ids and a timestamp each), on the heap
/// otherwise. Two texts are equal when their bytes are, whichever way each is kept.
#[derive(Clone)]
enum Text {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(String),
}

impl Text {
    /// `value`, copied inline when it fits.
    fn copied(value: &str) -> Self {
        match u8::try_from(value.len()) {
            Ok(len) if value.len() <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..value.len()].copy_from_slice(value.as_bytes());
                Self::Inline { len, bytes }
            }
            _ => Self::Heap(value.to_owned()),
        }
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Self::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Self::Heap(text) => text.as_bytes(),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            // The bytes were copied from a `str` whole, so they are UTF-8.
            Self::Inline { .. } => std::str::from_utf8(self.as_bytes()).expect("copied from a str"),
            Self::Heap(text) => text,
        }
    }

    fn into_string(self) -> String {
        match self {
            Self::Inline { .. } => self.as_str().to_owned(),
            Self::Heap(text) => text,
        }
    }
}

/// Decodes a validated string: checks the text where the decoder lends it, then keeps it.
struct TextVisitor<R>(PhantomData<fn() -> R>);

impl<'de, R: StringSchema> serde::de::Visitor<'de> for TextVisitor<R> {
    type Value = Text;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Text, E> {
        R::check(value).map_err(E::custom)?;
        Ok(Text::copied(value))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Text, E> {
        R::check(&value).map_err(E::custom)?;
        Ok(Text::Heap(value))
    }
}

/// What both wrappers have: construction through `check`, the conversions, serde and the
/// comparisons of the text.
macro_rules! validated_text {
    ($wrapper:ident) => {
        impl<R: StringSchema> $wrapper<R> {
            /// Checks `value` against the schema's rules.
            pub fn new(value: impl Into<String>) -> Result<Self, ValidationError> {
                let value = value.into();
                R::check(&value)?;
                Ok(Self(Text::Heap(value), PhantomData))
            }

            /// The owned text.
            pub fn into_inner(self) -> String {
                self.0.into_string()
            }
        }

        impl<R: DateTimeText> $wrapper<R> {
            /// The instant, in UTC. The text is kept as sent so it round-trips exactly.
            pub fn to_datetime(&self) -> chrono::DateTime<chrono::Utc> {
                chrono::DateTime::parse_from_rfc3339(self.0.as_str())
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
                value.0.into_string()
            }
        }

        impl<R> serde::Serialize for $wrapper<R> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.0.as_str())
            }
        }

        impl<'de, R: StringSchema> serde::Deserialize<'de> for $wrapper<R> {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer
                    .deserialize_str(TextVisitor::<R>(PhantomData))
                    .map(|text| Self(text, PhantomData))
            }
        }

        impl<R> Clone for $wrapper<R> {
            fn clone(&self) -> Self {
                Self(self.0.clone(), PhantomData)
            }
        }

        impl<R> PartialEq for $wrapper<R> {
            fn eq(&self, other: &Self) -> bool {
                self.0.as_bytes() == other.0.as_bytes()
            }
        }

        impl<R> Eq for $wrapper<R> {}

        impl<R> std::hash::Hash for $wrapper<R> {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.0.as_bytes().hash(state);
            }
        }

        impl<R> PartialOrd for $wrapper<R> {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl<R> Ord for $wrapper<R> {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.0.as_bytes().cmp(other.0.as_bytes())
            }
        }
    };
}

validated_text!(ValidatedString);
validated_text!(SecretString);

impl<R> ValidatedString<R> {
    /// The text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

// A validated string reads as the `str` it holds (`webhook.id == "..."`, `&*id`, `str`
// methods), since its rules only narrow which strings it can be. `SecretString` has none of
// these: its value is reached through `as_str` only, where sending it is meant, never by a
// comparison or a deref that could end in a log line.

impl<R> std::ops::Deref for ValidatedString<R> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<R> AsRef<str> for ValidatedString<R> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<R> PartialEq<str> for ValidatedString<R> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<R> PartialEq<&str> for ValidatedString<R> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<R> PartialEq<String> for ValidatedString<R> {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl<R> PartialEq<ValidatedString<R>> for str {
    fn eq(&self, other: &ValidatedString<R>) -> bool {
        self == other.as_str()
    }
}

impl<R> PartialEq<ValidatedString<R>> for &str {
    fn eq(&self, other: &ValidatedString<R>) -> bool {
        *self == other.as_str()
    }
}

impl<R> PartialEq<ValidatedString<R>> for String {
    fn eq(&self, other: &ValidatedString<R>) -> bool {
        self == other.as_str()
    }
}

impl<R: StringSchema> fmt::Debug for ValidatedString<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(R::NAME).field(&self.as_str()).finish()
    }
}

impl<R> fmt::Display for ValidatedString<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<R> SecretString<R> {
    /// The secret value: send it, never print it.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
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
    fn short_and_long_texts_are_kept_alike() {
        use std::hash::{BuildHasher, RandomState};
        let long = "a".repeat(INLINE + 1);
        for text in ["", "acme", &"b".repeat(INLINE), &long, "caf\u{e9}"] {
            // Decoded from the input (kept inline when short) against built from a `String`
            // (kept on the heap): equal, hashed and ordered alike, and the same text out.
            let decoded: ValidatedString<Lowercase> =
                serde_json::from_value(serde_json::json!(text)).unwrap();
            let built = ValidatedString::<Lowercase>::new(text).unwrap();
            assert_eq!(decoded, built);
            assert_eq!(decoded.cmp(&built), std::cmp::Ordering::Equal);
            let state = RandomState::new();
            assert_eq!(state.hash_one(&decoded), state.hash_one(&built));
            assert_eq!(decoded.as_str(), text);
            assert_eq!(String::from(decoded.clone()), text);
            assert_eq!(decoded.into_inner(), text);
        }
        // An escaped string reaches the visitor as a `String`.
        let escaped: ValidatedString<Lowercase> = serde_json::from_str(r#""a\u0062c""#).unwrap();
        assert_eq!(escaped.as_str(), "abc");
        assert!(
            ValidatedString::<Lowercase>::new("a").unwrap()
                < ValidatedString::<Lowercase>::new("b").unwrap()
        );
        let refused = serde_json::from_str::<ValidatedString<Lowercase>>("3").unwrap_err();
        assert!(
            refused.to_string().contains("expected a string"),
            "{refused}"
        );
    }

    #[test]
    fn a_validated_string_reads_as_its_str() {
        // Issue 43: `webhook.id == "..."` did not compile.
        let name = ValidatedString::<Lowercase>::new("acme").unwrap();
        assert!(name == "acme");
        assert!(name == *"acme");
        let owned = String::from("acme");
        assert!(name == owned);
        assert!("acme" == name && *"acme" == name && owned == name);
        assert!(name != "other");
        assert_eq!(name.len(), 4, "str methods through Deref");
        assert!(name.starts_with("ac"));
        let text: &str = &name;
        assert_eq!(text, "acme");
        fn takes_as_ref(text: impl AsRef<str>) -> usize {
            text.as_ref().len()
        }
        assert_eq!(takes_as_ref(&name), 4);
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
