//! String enums: what the generated `string_enum!` writes for each enum ([`StringEnum`]), read
//! by the one `Deserialize` visitor of all of them ([`StringEnumVisitor`]) and by their
//! `FromStr` ([`parse`]). What becomes of a value the enum does not list is a constant of each
//! enum ([`Unlisted`]), not code of its own.

use std::fmt;
use std::marker::PhantomData;

use crate::decoding::is_strict;

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
        assert_eq!(parse::<Stage>("paused"), None);
        let not_a_string = serde_json::from_str::<Stage>("1").unwrap_err().to_string();
        assert!(
            not_a_string.contains("expected a `Stage` string"),
            "{not_a_string}"
        );
    }
}
