//! Strings: `validated_string`, lengths, pattern and format checked on every construction, and
//! the shared `ValidatedString`/`SecretString` and format checks.

use super::{expect_type, only_keywords, read_rules};
use crate::Error;
use crate::patch::{Applied, Shared, Target};
use crate::rules::{Check, Enforcement, Subject, format_check, format_fn_name};
use crate::runtime::rules_module;
use proc_macro2::TokenStream;
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;
use std::collections::BTreeSet;

/// Whether [`string_checks`] has a check for `format`.
pub(crate) fn checks_format(format: &str) -> bool {
    format_check(format).is_some()
}

/// `fn is_<format>(value: &str) -> bool`, emitted once for every validated type that checks
/// `format` ([`Shared::Format`]).
pub(crate) fn format_fn(format: &str) -> TokenStream {
    let (rule, ok) = format_check(format).expect("a format format_check knows");
    let name = format_fn_name(format);
    let doc = format!(" Whether `value` is {}.", rule.trim_start_matches("be "));
    quote! {
        #[doc = #doc]
        fn #name(value: &str) -> bool {
            #ok
        }
    }
}

/// What a failed string check says it got: the value, or, for a secret, only its length.
pub(super) enum Got {
    Value,
    Length,
}

/// The checks of a string rule set (`pattern`, `minLength`, `maxLength`, `format`) as code
/// over a `value: &str`, returning `Err(ValidationError)`. `subject` prefixes messages (e.g.
/// `key {value:?} `, a format string over `value`); `got`, when given, renders the offending
/// value after `; got `.
pub(super) fn string_checks(
    rules: &Value,
    target: &Target<'_>,
    subject: &str,
    got: Option<&Got>,
    shared: &mut BTreeSet<Shared>,
) -> Result<TokenStream, Error> {
    let read = read_rules(
        target,
        rules,
        &["minLength", "maxLength", "pattern", "format"],
    )?;
    let mut checks = Vec::new();
    for rule in read {
        let check = match rule.enforcement().map_err(|reason| target.error(reason))? {
            Enforcement::Check(check) if check.subject == Subject::Text => check,
            Enforcement::Unchecked(reason) => return Err(target.error(reason)),
            _ => {
                return Err(target.error(format!(
                    "a string cannot be checked for {}",
                    rule.describe()
                )));
            }
        };
        let must = check.must.replace('{', "{{").replace('}', "}}");
        let fail = match got {
            Some(Got::Value) => {
                let message = format!("{subject}must {must}; got {{value:?}}");
                quote! { bail!(#message); }
            }
            Some(Got::Length) => {
                let message = format!("{subject}must {must}; got {{}} characters");
                quote! { bail!(#message, value.chars().count()); }
            }
            None => {
                let message = format!("{subject}must {must}");
                quote! { bail!(#message); }
            }
        };
        if let Some(format) = check.format {
            shared.insert(Shared::Format(format));
        }
        shared.insert(Shared::Bail);
        let Check {
            prelude, broken, ..
        } = check;
        checks.push(quote! {
            #prelude
            if #broken {
                #fail
            }
        });
    }
    Ok(quote! { #(#checks)* })
}

/// The string rules of a schema in words, for documentation.
pub(super) fn string_rules(schema: &Value) -> Vec<String> {
    let mut rules = Vec::new();
    match (
        schema.get("minLength").and_then(Value::as_u64),
        schema.get("maxLength").and_then(Value::as_u64),
    ) {
        (Some(min), Some(max)) => rules.push(format!("{min} to {max} characters")),
        (Some(min), None) => rules.push(format!("at least {min} characters")),
        (None, Some(max)) => rules.push(format!("at most {max} characters")),
        (None, None) => {}
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        rules.push(format!("match `{pattern}`"));
    }
    match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => rules.push("RFC 3339 date-time, kept as sent".to_owned()),
        Some("uri") => rules.push("absolute URI".to_owned()),
        Some("email") => rules.push("email address".to_owned()),
        Some(other) => {
            if let Some((rule, _)) = format_check(other) {
                rules.push(rule.trim_start_matches("be ").to_owned());
            }
        }
        None => {}
    }
    rules
}

pub(crate) fn validated_string(
    target: &Target<'_>,
    secret: bool,
    applied: &mut Applied,
) -> Result<(), Error> {
    expect_type(target, "string")?;
    only_keywords(target, &["pattern", "minLength", "maxLength", "format"])?;
    let got = if secret { Got::Length } else { Got::Value };
    let checks = string_checks(target.schema, target, "", Some(&got), &mut applied.shared)?;
    let ident = &target.ident;
    let mut rules = string_rules(target.schema);
    if secret {
        rules.push("secret (never printed)".to_owned());
    }
    let doc = target.doc(&rules.join(", "));
    let rules_module = rules_module();
    let date_time = (target.schema.get("format").and_then(Value::as_str) == Some("date-time"))
        .then(|| quote!(impl DateTimeText for #rules_module::#ident {}));
    let wrapper = if secret {
        quote!(SecretString)
    } else {
        quote!(ValidatedString)
    };
    applied.shared.insert(Shared::ValidatedString);
    // The checks stay plain code in the marker's impl, where a reader finds them.
    let item = quote! {
        #doc
        pub type #ident = #wrapper<#rules_module::#ident>;
        impl StringSchema for #rules_module::#ident {
            fn check(value: &str) -> ::std::result::Result<(), ValidationError> {
                #checks
                Ok(())
            }
        }
        #date_time
        pub mod #rules_module {
            pub enum #ident {}
        }
    };
    let impls = if secret {
        vec![TypeImpl::FromStr]
    } else {
        vec![TypeImpl::FromStr, TypeImpl::Display]
    };
    target.replace(applied, item, impls);
    Ok(())
}

/// `ValidatedString<R>` and `SecretString<R>`, the types every validated string is an alias
/// of, `R` being its marker in the `rules` module, whose `StringSchema::check` is written out
/// beside the alias: `new`/`as_str`/`into_inner`, the conversions and serde, all through
/// `check`, and for a date-time `to_datetime`, written once for all. A `SecretString` prints as
/// `Name([redacted])` and has no `Display`; its errors give only the length (see `check`).
pub(crate) fn validated_string_shared() -> TokenStream {
    // What both wrappers have, as one macro invoked for each, so the generated code says it
    // once.
    let common = quote! {
        macro_rules! validated_text {
            ($wrapper:ident) => {
            impl<R: StringSchema> $wrapper<R> {
                /// Checks `value` against the schema's rules.
                pub fn new(value: impl ::std::convert::Into<::std::string::String>) -> ::std::result::Result<Self, ValidationError> {
                    let value = value.into();
                    R::check(&value)?;
                    Ok(Self(value, ::std::marker::PhantomData))
                }
                /// The owned text.
                pub fn into_inner(self) -> ::std::string::String {
                    self.0
                }
            }
            impl<R: DateTimeText> $wrapper<R> {
                /// The instant, in UTC. The text is kept as sent so it round-trips exactly.
                pub fn to_datetime(&self) -> ::chrono::DateTime<::chrono::Utc> {
                    ::chrono::DateTime::parse_from_rfc3339(&self.0)
                        .expect("checked on construction")
                        .with_timezone(&::chrono::Utc)
                }
            }
            impl<R: StringSchema> ::std::str::FromStr for $wrapper<R> {
                type Err = ValidationError;
                fn from_str(value: &str) -> ::std::result::Result<Self, ValidationError> {
                    Self::new(value)
                }
            }
            impl<R: StringSchema> ::std::convert::TryFrom<&str> for $wrapper<R> {
                type Error = ValidationError;
                fn try_from(value: &str) -> ::std::result::Result<Self, ValidationError> {
                    Self::new(value)
                }
            }
            impl<R: StringSchema> ::std::convert::TryFrom<&::std::string::String> for $wrapper<R> {
                type Error = ValidationError;
                fn try_from(value: &::std::string::String) -> ::std::result::Result<Self, ValidationError> {
                    Self::new(value.as_str())
                }
            }
            impl<R: StringSchema> ::std::convert::TryFrom<::std::string::String> for $wrapper<R> {
                type Error = ValidationError;
                fn try_from(value: ::std::string::String) -> ::std::result::Result<Self, ValidationError> {
                    Self::new(value)
                }
            }
            impl<R> ::std::convert::From<$wrapper<R>> for ::std::string::String {
                fn from(value: $wrapper<R>) -> Self {
                    value.0
                }
            }
            impl<R> ::serde::Serialize for $wrapper<R> {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    serializer.serialize_str(&self.0)
                }
            }
            impl<'de, R: StringSchema> ::serde::Deserialize<'de> for $wrapper<R> {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    let value = ::std::string::String::deserialize(deserializer)?;
                    R::check(&value).map_err(::serde::de::Error::custom)?;
                    Ok(Self(value, ::std::marker::PhantomData))
                }
            }
            impl<R> ::std::clone::Clone for $wrapper<R> {
                fn clone(&self) -> Self {
                    Self(self.0.clone(), ::std::marker::PhantomData)
                }
            }
            impl<R> ::std::cmp::PartialEq for $wrapper<R> {
                fn eq(&self, other: &Self) -> bool {
                    self.0 == other.0
                }
            }
            impl<R> ::std::cmp::Eq for $wrapper<R> {}
            impl<R> ::std::hash::Hash for $wrapper<R> {
                fn hash<H: ::std::hash::Hasher>(&self, state: &mut H) {
                    self.0.hash(state);
                }
            }
            impl<R> ::std::cmp::PartialOrd for $wrapper<R> {
                fn partial_cmp(&self, other: &Self) -> ::std::option::Option<::std::cmp::Ordering> {
                    ::std::option::Option::Some(self.cmp(other))
                }
            }
            impl<R> ::std::cmp::Ord for $wrapper<R> {
                fn cmp(&self, other: &Self) -> ::std::cmp::Ordering {
                    self.0.cmp(&other.0)
                }
            }
            };
        }
    };
    quote! {
        #common

        /// The rules of one `ValidatedString` or `SecretString` alias, as its schema states them.
        pub trait StringSchema: AliasMarker {
            /// Checks `value` against the schema's rules.
            fn check(value: &str) -> ::std::result::Result<(), ValidationError>;
        }

        /// A `StringSchema` whose `format` is `date-time`.
        pub trait DateTimeText: StringSchema {}

        /// A string whose schema has rules typify does not enforce (a `format`, a pattern
        /// `regress` reads differently), checked on construction and on decoding. Each such
        /// type of the description is an alias of this one, `R` being its marker in `rules`,
        /// which checks the rules.
        pub struct ValidatedString<R>(::std::string::String, ::std::marker::PhantomData<fn() -> R>);
        validated_text!(ValidatedString);
        impl<R> ValidatedString<R> {
            /// The text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
        impl<R: StringSchema> ::std::fmt::Debug for ValidatedString<R> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_tuple(R::NAME).field(&self.0).finish()
            }
        }
        impl<R> ::std::fmt::Display for ValidatedString<R> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        /// A `ValidatedString` that holds a secret (`x-rust-secret`): it prints as
        /// `Name([redacted])`, has no `Display`, and its errors give only the length.
        pub struct SecretString<R>(::std::string::String, ::std::marker::PhantomData<fn() -> R>);
        validated_text!(SecretString);
        impl<R> SecretString<R> {
            /// The secret value: send it, never print it.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
        impl<R: StringSchema> ::std::fmt::Debug for SecretString<R> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::write!(f, "{}([redacted])", R::NAME)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn rules_are_worded_for_the_documentation() {
        assert_eq!(
            string_rules(
                &json!({"minLength": 1, "maxLength": 8, "pattern": "^a", "format": "uri"})
            ),
            ["1 to 8 characters", "match `^a`", "absolute URI"]
        );
        assert_eq!(
            string_rules(&json!({"maxLength": 8})),
            ["at most 8 characters"]
        );
        assert_eq!(
            string_rules(&json!({"format": "date-time"})),
            ["RFC 3339 date-time, kept as sent"]
        );
        // A format that is only an annotation adds no rule.
        assert_eq!(
            string_rules(&json!({"format": "unixtime"})),
            Vec::<String>::new()
        );
    }
}
