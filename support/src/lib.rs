//! Support code for the clients `hub-api-codegen` generates, in the way `progenitor-client`
//! serves progenitor's output: the generic types every generated alias stands on, written once
//! as ordinary Rust (documented, linted, unit-tested) instead of being emitted into every crate.
//!
//! A generated crate re-exports what it uses from its `types` module, so users meet these
//! types there (`types::ValidationError`, `types::ObjectId`, an alias of [`ValidatedString`]),
//! and writes only what is its own: one uninhabited marker per alias, whose trait impls
//! ([`StringSchema`], [`IntegerBounds`], [`NumberSchema`]) state the schema's rules.
//!
//! - [`ValidatedString`], [`SecretString`]: strings checked by their schema's rules.
//! - [`ConversionError`]: what a generated type's `TryFrom` or `FromStr` refuses with.
//! - [`BoundedInteger`], [`BoundedNumber`]: numbers within their schema's bounds.
//! - [`json`]: how a response body is read (UTF-8 checked once, then parsed as text).
//! - [`formats`]: the checks of the `format`s a schema can assert.
//! - [`items`]: the checks of an array's items as a whole (`uniqueItems`).
//! - [`Pattern`]: a schema's `pattern`, matched as ECMA-262 does, quickly.
//! - [`objects`]: the one decoder and writer of every generated struct.
//! - [`enums`]: the one decoder of every generated string enum.
//! - [`unions`]: tagged unions decoded in one pass, whatever the tag's place.
//! - [`decoding`]: strict or tolerant decoding, per thread.
//! - [`webhooks`]: the bodies of the requests an API sends to a receiver, by webhook.
//! - [`suggest`]: the nearest allowed value to a misspelt one.
//! - [`tls`]: the HTTP client of a standalone crate: HTTPS (feature `rustls`), timeouts,
//!   redirects within one origin.
//! - [`credentials`]: the credentials a standalone crate sends, by security scheme.
//! - [`servers`]: the servers its description lists, their variables filled in.
//! - [`reply`]: how an operation sends its request and reads the response its status calls for.
//! - [`registry`]: every component schema by name (a generated `schemas` module), decoded
//!   with the path of what does not decode.
//!
//! Until this crate is published, a standalone crate that `cargo xtask generate` writes carries
//! these files as its module `support` (`hub-api-codegen`'s `standalone`), tests left out. So
//! outside the test modules an item names another of this crate by a relative path
//! (`super::decoding`), never from the crate root, which there is the carrying crate's; a
//! macro names another by `$crate::`, the crate root where `#[macro_export]` puts them in
//! either case; and nothing here reads this crate's own manifest, which is not carried.

pub mod credentials;
pub mod decoding;
pub mod enums;
pub mod formats;
pub mod items;
pub mod json;
mod numbers;
pub mod objects;
mod pattern;
pub mod registry;
pub mod reply;
pub mod servers;
mod strings;
pub mod suggest;
pub mod tls;
pub mod unions;
pub mod webhooks;

pub use numbers::{
    BoundedInteger, BoundedNumber, IntegerBounds, IntegerDefault, NumberDefault, NumberSchema,
};
pub use pattern::{Pattern, PatternError};
pub use strings::{DateTimeText, SecretString, StringSchema, ValidatedString};

use std::fmt;

/// A value breaks a rule of the spec. The message names the rule and, except for secrets, the
/// offending value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError(String);

impl ValidationError {
    /// An error saying which rule was broken (`must match ^[a-z]+$; got "A"`). Generated
    /// checks build it; for a secret, the message must not hold the value.
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }

    /// The rule that was broken, e.g. `must match ^[a-z]+$; got "A"`.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ValidationError {}

/// Error from a generated type's `TryFrom` or `FromStr`: the message of the rule the text or
/// value breaks. A generated `types::error` re-exports it where typify's own would be written,
/// one per crate, and the generic checked types return it.
pub struct ConversionError(std::borrow::Cow<'static, str>);

impl std::error::Error for ConversionError {}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl From<&'static str> for ConversionError {
    fn from(value: &'static str) -> Self {
        Self(value.into())
    }
}

impl From<String> for ConversionError {
    fn from(value: String) -> Self {
        Self(value.into())
    }
}

/// The marker of one alias of a generic checked type ([`ValidatedString`], [`BoundedInteger`],
/// ...), which tells the aliases apart and holds, through the other traits it implements, the
/// schema's rules.
pub trait AliasMarker {
    /// The alias's name, shown by `Debug`.
    const NAME: &'static str;
}

/// `marker!(Name ...)`, in a generated `rules` module: one uninhabited [`AliasMarker`] per
/// alias of a generic checked type, named as its alias is, which only carries rules.
#[doc(hidden)]
#[macro_export]
macro_rules! marker {
    ($($name:ident)*) => {
        $(
            pub enum $name {}
            impl super::AliasMarker for $name {
                const NAME: &'static str = ::std::stringify!($name);
            }
        )*
    };
}

/// `bail!("must be at least {}; got {}", 1, value)`, which every generated check fails
/// through: it returns the [`ValidationError`] (imported where it is invoked) with that message.
#[doc(hidden)]
#[macro_export]
macro_rules! bail {
    ($($message:tt)*) => {
        return ::std::result::Result::Err(ValidationError::new(::std::format!($($message)*)))
    };
}

/// `checked_string!(Name, max 64, min 1, pattern "^[a-z]+$")`: the rules of the marker
/// `rules::Name` of a generated `CheckedString` alias, as its `StringRules` impl (the trait is
/// the generated crate's own, imported where this is invoked).
#[doc(hidden)]
#[macro_export]
macro_rules! checked_string {
    ($name:ident $(, $check:ident $argument:literal)+) => {
        impl StringRules for rules::$name {
            $($crate::checked_string!(@rule $check $argument);)+
        }
    };
    (@rule max $argument:literal) => {
        const MAX: ::std::option::Option<usize> = ::std::option::Option::Some($argument);
    };
    (@rule min $argument:literal) => {
        const MIN: ::std::option::Option<usize> = ::std::option::Option::Some($argument);
    };
    (@rule pattern $argument:literal) => {
        const PATTERN: ::std::option::Option<&'static str> = ::std::option::Option::Some($argument);
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversion_error_is_its_message_and_debugs_as_a_string() {
        let error = ConversionError::from("must be one of `a`, `b`");
        assert_eq!(error.to_string(), "must be one of `a`, `b`");
        assert_eq!(format!("{error:?}"), "\"must be one of `a`, `b`\"");
        let owned = ConversionError::from(format!("got {}", 3));
        assert_eq!(owned.to_string(), "got 3");
    }

    #[test]
    fn a_validation_error_is_its_message() {
        let error = ValidationError::new("must be at least 1; got 0");
        assert_eq!(error.message(), "must be at least 1; got 0");
        assert_eq!(error.to_string(), "must be at least 1; got 0");
    }
}
