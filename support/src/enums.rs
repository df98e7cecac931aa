//! String enums: what the generated `string_enum!` writes for each enum ([`StringEnum`]), read
//! by the one `Deserialize` visitor of all of them ([`StringEnumVisitor`]) and by their
//! `FromStr` ([`parse`]). What becomes of a value the enum does not list is a constant of each
//! enum ([`Unlisted`]), not code of its own.

use std::fmt;
use std::marker::PhantomData;

use super::decoding::is_strict;

/// What `string_enum!` writes for each string enum.
pub trait StringEnum: Sized + 'static {
    /// What a decoding error says was expected.
    const EXPECTING: &'static str;
    /// The listed values, for the "unknown variant" error.
    const VALUES: &'static [&'static str];
    /// What becomes of a value the enum does not list.
    const UNLISTED: Unlisted<Self>;
    /// The listed value `value` names.
    fn listed(value: &str) -> Option<Self>;
}

/// What becomes of a value a string enum does not list, with the variant that keeps it.
pub enum Unlisted<T> {
    /// Refused everywhere (a strict enum).
    Refused,
    /// Kept when a response is decoded, unless decoding is strict; refused by `FromStr`, which
    /// builds values to send (a tolerant enum's `Unknown`).
    Tolerated(fn(String) -> T),
    /// Taken everywhere (an open enum's `Other`: the schema admits any string).
    Taken(fn(String) -> T),
}

/// Every string enum's `FromStr`: a listed value, or an open enum's `Other`; `None` otherwise.
pub fn parse<T: StringEnum>(value: &str) -> Option<T> {
    match (T::listed(value), T::UNLISTED) {
        (Some(listed), _) => Some(listed),
        (None, Unlisted::Taken(other)) => Some(other(value.to_owned())),
        (None, _) => None,
    }
}

/// Every string enum's `FromStr` with the reason for a refusal: a listed value, or an open
/// enum's `Other`; otherwise an [`UnlistedValue`] naming the allowed values and the nearest one.
pub fn parse_or_explain<T: StringEnum>(value: &str) -> Result<T, UnlistedValue> {
    parse(value).ok_or_else(|| UnlistedValue {
        value: value.to_owned(),
        allowed: T::VALUES,
    })
}

/// Every generated string enum's `FromStr` and `TryFrom` of a string: a listed value, or an
/// open enum's `Other`; else a [`ConversionError`](super::ConversionError) naming the allowed
/// values and the nearest one.
pub fn parse_string_enum<T: StringEnum>(value: &str) -> Result<T, super::ConversionError> {
    parse_or_explain(value).map_err(|unlisted| unlisted.to_string().into())
}

/// A string enum refused `value`, which it does not list (`FromStr` builds values to send, so
/// even a tolerant enum refuses it). Its message lists the allowed values and, for a likely
/// misspelling, the nearest one: ``invalid value `a10g-smal`: expected one of `cpu-basic`,
/// `a10g-small`; did you mean `a10g-small`?``.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnlistedValue {
    value: String,
    allowed: &'static [&'static str],
}

impl UnlistedValue {
    /// The values the enum lists.
    pub fn allowed(&self) -> &'static [&'static str] {
        self.allowed
    }

    /// The listed value nearest to the refused one, when it is a likely misspelling of it.
    pub fn nearest(&self) -> Option<&'static str> {
        super::suggest::nearest(&self.value, self.allowed.iter().copied())
    }
}

impl fmt::Display for UnlistedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid value `{}`: expected ", self.value)?;
        match self.allowed {
            [] => f.write_str("no value")?,
            [only] => write!(f, "`{only}`")?,
            many => {
                f.write_str("one of ")?;
                for (index, value) in many.iter().enumerate() {
                    let separator = if index == 0 { "" } else { ", " };
                    write!(f, "{separator}`{value}`")?;
                }
            }
        }
        if let Some(nearest) = self.nearest() {
            write!(f, "; did you mean `{nearest}`?")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnlistedValue {}

/// The one `Visitor` of every string enum: a string, listed or taken by the enum's mode, or
/// serde's "unknown variant" error.
pub struct StringEnumVisitor<T>(pub PhantomData<T>);

impl<'de, T: StringEnum> serde::de::Visitor<'de> for StringEnumVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<T, E> {
        if let Some(listed) = T::listed(value) {
            return Ok(listed);
        }
        match T::UNLISTED {
            Unlisted::Tolerated(keep) if !is_strict() => Ok(keep(value.to_owned())),
            Unlisted::Taken(other) => Ok(other(value.to_owned())),
            Unlisted::Refused | Unlisted::Tolerated(_) => Err(E::unknown_variant(value, T::VALUES)),
        }
    }
}

/// `string_enum!(Name [mode catch?] { Variant = "wire", ... })`: `as_str`, [`StringEnum`],
/// `Display`, `FromStr` and `TryFrom` of a string, `Serialize`, and `Deserialize` through the
/// one [`StringEnumVisitor`], for a generated string enum. The invoking module imports
/// `StringEnum`, `StringEnumVisitor`, [`Unlisted`] and [`parse_string_enum`], and has an
/// `error::ConversionError` (the support code's, or typify's own, which it converts to).
///
/// `mode` is what an unlisted value does: `strict`, refused with serde's "unknown variant"
/// message; `tolerant`, kept in the variant `catch` (`Unknown` unless named), or refused inside
/// `decoding::strict`; `open`, taken as `catch` (`Other` unless named), strict or not, in
/// `FromStr` too.
#[doc(hidden)]
#[macro_export]
macro_rules! string_enum {
    ($name:ident [$mode:ident $($catch:ident)?] { $($variant:ident = $wire:literal,)* }) => {
        $crate::string_enum!(@as_str $name $mode [$($catch)?] { $($variant = $wire,)* });
        impl StringEnum for $name {
            const EXPECTING: &'static str = ::std::concat!("a `", ::std::stringify!($name), "` string");
            const VALUES: &'static [&'static str] = &[$($wire),*];
            const UNLISTED: Unlisted<Self> = $crate::string_enum!(@unlisted $mode [$($catch)?]);
            fn listed(value: &str) -> ::std::option::Option<Self> {
                match value {
                    $($wire => ::std::option::Option::Some(Self::$variant),)*
                    _ => ::std::option::Option::None,
                }
            }
        }
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl ::std::str::FromStr for $name {
            type Err = self::error::ConversionError;
            fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
                parse_string_enum(value).map_err(|error| error.to_string().into())
            }
        }
        impl ::std::convert::TryFrom<&str> for $name {
            type Error = self::error::ConversionError;
            fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
                parse_string_enum(value).map_err(|error| error.to_string().into())
            }
        }
        impl ::std::convert::TryFrom<::std::string::String> for $name {
            type Error = self::error::ConversionError;
            fn try_from(value: ::std::string::String) -> ::std::result::Result<Self, self::error::ConversionError> {
                parse_string_enum(&value).map_err(|error| error.to_string().into())
            }
        }
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                deserializer.deserialize_str(StringEnumVisitor::<Self>(::std::marker::PhantomData))
            }
        }
    };
    (@as_str $name:ident strict [] { $($variant:ident = $wire:literal,)* }) => {
        impl $name {
            /// The value as it is sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)*
                }
            }
        }
    };
    (@as_str $name:ident tolerant [] { $($variant:ident = $wire:literal,)* }) => {
        $crate::string_enum!(@as_str $name tolerant [Unknown] { $($variant = $wire,)* });
    };
    (@as_str $name:ident open [] { $($variant:ident = $wire:literal,)* }) => {
        $crate::string_enum!(@as_str $name open [Other] { $($variant = $wire,)* });
    };
    (@as_str $name:ident $mode:ident [$catch:ident] { $($variant:ident = $wire:literal,)* }) => {
        impl $name {
            /// The value as it is sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)*
                    Self::$catch(value) => value,
                }
            }
        }
    };
    (@unlisted strict []) => { Unlisted::Refused };
    (@unlisted tolerant []) => { Unlisted::Tolerated(Self::Unknown) };
    (@unlisted tolerant [$catch:ident]) => { Unlisted::Tolerated(Self::$catch) };
    (@unlisted open []) => { Unlisted::Taken(Self::Other) };
    (@unlisted open [$catch:ident]) => { Unlisted::Taken(Self::$catch) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Stage {
        Running,
        Unknown(String),
    }

    impl StringEnum for Stage {
        const EXPECTING: &'static str = "a `Stage` string";
        const VALUES: &'static [&'static str] = &["running"];
        const UNLISTED: Unlisted<Self> = Unlisted::Tolerated(Self::Unknown);
        fn listed(value: &str) -> Option<Self> {
            (value == "running").then_some(Self::Running)
        }
    }

    impl<'de> serde::Deserialize<'de> for Stage {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_str(StringEnumVisitor(PhantomData))
        }
    }

    #[test]
    fn a_tolerant_enum_keeps_unlisted_values_unless_strict_or_sending() {
        assert_eq!(
            serde_json::from_str::<Stage>("\"running\"").unwrap(),
            Stage::Running
        );
        assert_eq!(
            serde_json::from_str::<Stage>("\"paused\"").unwrap(),
            Stage::Unknown("paused".into())
        );
        let strict = crate::decoding::strict(|| serde_json::from_str::<Stage>("\"paused\""));
        let error = strict.unwrap_err().to_string();
        assert!(
            error.contains("unknown variant `paused`, expected `running`"),
            "{error}"
        );
        assert_eq!(parse::<Stage>("running"), Some(Stage::Running));
        assert_eq!(
            parse_or_explain::<Stage>("runing").unwrap_err().to_string(),
            "invalid value `runing`: expected `running`; did you mean `running`?"
        );
        assert_eq!(parse::<Stage>("paused"), None);
        // `FromStr` and `TryFrom` of every generated enum: the same message, as a
        // `ConversionError`.
        assert_eq!(
            parse_string_enum::<Stage>("runing")
                .unwrap_err()
                .to_string(),
            "invalid value `runing`: expected `running`; did you mean `running`?"
        );
        assert_eq!(
            parse_string_enum::<Stage>("running").ok(),
            Some(Stage::Running)
        );
        let not_a_string = serde_json::from_str::<Stage>("1").unwrap_err().to_string();
        assert!(
            not_a_string.contains("expected a `Stage` string"),
            "{not_a_string}"
        );
    }
}
