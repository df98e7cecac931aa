//! The `schemas` module of a generated client: every component schema by name, decodable into
//! its generated type, which `cargo xtask validate` and the differential tests decode through.
//! The generated module holds one invocation of `registry!` (the table of names and types); the decoding and its error are written once, here.

/// Why an instance does not decode: where (a path such as `job.network.group`, empty for the
/// whole instance) and which rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The path of the offending value.
    pub path: String,
    /// The broken rule.
    pub message: String,
}

impl DecodeError {
    /// An error of the whole instance, at no path.
    pub fn whole(message: impl Into<String>) -> Self {
        Self {
            path: String::new(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decodes `json` as `T` and returns the decoded value serialized again, or where and why it
/// does not decode.
pub fn decode_as<T: serde::de::DeserializeOwned + serde::Serialize>(
    json: &str,
) -> Result<serde_json::Value, DecodeError> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        let mut message = inner.to_string();
        // A data error's place is its path; the line and column add nothing to it.
        let at = message.rfind(" at line ");
        if let (serde_json::error::Category::Data, Some(at)) = (inner.classify(), at) {
            message.truncate(at);
        }
        let mut path = if path == "." { String::new() } else { path };
        // A patched union decodes its variant separately and reports `inner.path: rule`; that
        // inner path is joined onto the outer one.
        let is_path = |text: &str| {
            !text.is_empty()
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.[]-".contains(c))
        };
        if let Some((inner, rule)) = message.split_once(": ").filter(|(inner, _)| is_path(inner)) {
            path = if path.is_empty() {
                inner.to_owned()
            } else {
                format!("{path}.{inner}")
            };
            message = rule.to_owned();
        }
        DecodeError { path, message }
    })?;
    deserializer
        .end()
        .map_err(|error| DecodeError::whole(error.to_string()))?;
    serde_json::to_value(&value).map_err(|error| DecodeError::whole(error.to_string()))
}

/// `registry! { "Name" => Type, "Variant" => Union::Variant, ... }`, invoked in a generated
/// `schemas` module beside `types` and `decoding`: `NAMES` and `decode` from one table, so
/// each schema is named once. The module imports [`decode_as`] and [`DecodeError`].
#[doc(hidden)]
#[macro_export]
macro_rules! registry {
    ($($name:literal => $ty:ident $(:: $variant:ident)?,)*) => {
        /// The component schema names, sorted.
        pub const NAMES: &[&str] = &[$($name),*];

        /// Decodes `json` as the component schema `name` and returns the decoded value
        /// serialized again; `None` when the spec has no such component. Decoding is strict
        /// (see [`decoding`](super::decoding)): the registry accepts exactly what the spec
        /// accepts, values a newer server may add included.
        pub fn decode(name: &str, json: &str) -> ::std::option::Option<::std::result::Result<::serde_json::Value, DecodeError>> {
            super::decoding::strict(|| Some(match name {
                $($name => $crate::registry!(@decode json $ty $(:: $variant)?),)*
                _ => return None,
            }))
        }
    };
    (@decode $json:ident $ty:ident) => {
        decode_as::<super::types::$ty>($json)
    };
    (@decode $json:ident $union:ident :: $variant:ident) => {
        decode_as::<super::types::$union>($json).and_then(|value| {
            match ::serde_json::from_value::<super::types::$union>(value.clone()) {
                Ok(super::types::$union::$variant(_)) => Ok(value),
                _ => Err(DecodeError::whole(::std::concat!(
                    "must be the `", ::std::stringify!($variant),
                    "` variant of `", ::std::stringify!($union), "`"
                ))),
            }
        })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, serde::Serialize)]
    #[serde(deny_unknown_fields)]
    struct Job {
        #[allow(dead_code)]
        network: Network,
    }

    #[derive(serde::Deserialize, serde::Serialize)]
    struct Network {
        #[allow(dead_code)]
        group: u8,
    }

    /// A union that decodes its variant separately, and so reports `inner.path: rule`.
    #[derive(serde::Serialize)]
    struct Union;

    impl<'de> serde::Deserialize<'de> for Union {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            serde_json::Value::deserialize(deserializer)?;
            Err(serde::de::Error::custom("kind.tag: must be a string"))
        }
    }

    #[test]
    fn an_instance_decodes_to_its_value_serialized_again() {
        let value = decode_as::<Job>(r#"{"network": {"group": 7}}"#).expect("a job");
        assert_eq!(value, serde_json::json!({"network": {"group": 7}}));
    }

    #[test]
    fn an_error_names_the_path_and_the_rule_without_line_and_column() {
        let error = decode_as::<Job>(r#"{"network": {"group": 300}}"#).unwrap_err();
        assert_eq!(error.path, "network.group");
        assert!(
            error.message.starts_with("invalid value: integer `300`"),
            "{error}"
        );
        assert!(!error.message.contains(" at line "), "{error}");
        assert_eq!(
            error.to_string(),
            format!("network.group: {}", error.message)
        );
        let error = decode_as::<Job>(r#"{"network": {"group": 1}, "other": 1}"#).unwrap_err();
        assert_eq!(error.path, "other");
        assert!(
            error.message.starts_with("unknown field `other`"),
            "{error}"
        );
        // A nested decoder's `inner.path: rule` is joined onto the outer path.
        let error = decode_as::<Vec<Union>>("[1]").unwrap_err();
        assert_eq!(error.path, "[0].kind.tag");
        assert_eq!(error.message, "must be a string");
        // Trailing text is an error of the whole instance.
        let error = decode_as::<Network>(r#"{"group": 1} 2"#).unwrap_err();
        assert_eq!(error.path, "");
        assert!(error.message.contains("trailing characters"), "{error}");
    }
}
