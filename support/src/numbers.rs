//! Numbers a schema bounds: [`BoundedInteger`] (`minimum`/`maximum` of an integer, held in
//! `u64` or `i64`) and [`BoundedNumber`] (bounds of a `number`, inclusive or exclusive, held
//! in `f64`). Each bounded number of a description is an alias of one of them, `R` being its
//! marker, which states the bounds.

use std::fmt;
use std::marker::PhantomData;

use super::{AliasMarker, ValidationError};

/// An integer that a schema's `minimum` and `maximum` bound (and, when it states them, its
/// `enum` and `multipleOf`), checked on construction and on decoding. JSON Schema counts `3.0`
/// as an integer, so integral floats decode too.
pub struct BoundedInteger<R: IntegerBounds>(R::Repr);

/// The bounds of one `BoundedInteger` alias.
pub trait IntegerBounds: AliasMarker {
    /// The integer it holds: `u64` when it cannot be negative, `i64` otherwise.
    type Repr: Copy
        + 'static
        + Ord
        + std::hash::Hash
        + fmt::Debug
        + fmt::Display
        + Into<i128>
        + TryFrom<i128>
        + serde::Serialize;
    /// The smallest value allowed.
    const MIN: Self::Repr;
    /// The largest value allowed.
    const MAX: Self::Repr;
    /// The schema's `enum`: when not empty, the only values allowed (within the bounds).
    const VALUES: &'static [Self::Repr] = &[];
    /// The schema's `multipleOf`, when it is an integer above 1 (every integer is a multiple
    /// of 1, or of a fraction `1/n`).
    const MULTIPLE_OF: Option<Self::Repr> = None;
}

/// The schema's `default` of a `BoundedInteger` alias that has one.
pub trait IntegerDefault: IntegerBounds {
    /// The value `Default` gives.
    const DEFAULT: Self::Repr;
}

impl<R: IntegerBounds> BoundedInteger<R> {
    /// The smallest value allowed.
    pub const MIN: R::Repr = R::MIN;
    /// The largest value allowed.
    pub const MAX: R::Repr = R::MAX;

    /// Checks `value` against the bounds, the listed values and the multiple.
    pub fn new(value: R::Repr) -> Result<Self, ValidationError> {
        if value < R::MIN {
            return Err(below::<R>(value));
        }
        if value > R::MAX {
            return Err(above::<R>(value));
        }
        if !R::VALUES.is_empty() && !R::VALUES.contains(&value) {
            let listed: Vec<String> = R::VALUES.iter().map(ToString::to_string).collect();
            return Err(ValidationError::new(format!(
                "must be one of {}; got {value}",
                listed.join(", ")
            )));
        }
        if let Some(step) = R::MULTIPLE_OF {
            let (whole, step): (i128, i128) = (value.into(), step.into());
            if step != 0 && whole % step != 0 {
                return Err(ValidationError::new(format!(
                    "must be a multiple of {step}; got {value}"
                )));
            }
        }
        Ok(Self(value))
    }

    /// The value.
    pub fn get(self) -> R::Repr {
        self.0
    }

    /// Checks an integer of any width, which may not fit the representation.
    fn from_wide(value: i128) -> Result<Self, ValidationError> {
        if value < R::MIN.into() {
            return Err(below::<R>(value));
        }
        match R::Repr::try_from(value) {
            Ok(value) => Self::new(value),
            // Above the representation, so above the bounds.
            Err(_) => Err(above::<R>(value)),
        }
    }
}

fn below<R: IntegerBounds>(value: impl fmt::Display) -> ValidationError {
    ValidationError::new(format!("must be at least {}; got {value}", R::MIN))
}

fn above<R: IntegerBounds>(value: impl fmt::Display) -> ValidationError {
    ValidationError::new(format!("must be at most {}; got {value}", R::MAX))
}

impl<R: IntegerDefault> Default for BoundedInteger<R> {
    fn default() -> Self {
        Self(R::DEFAULT)
    }
}

impl<R: IntegerBounds> TryFrom<i64> for BoundedInteger<R> {
    type Error = ValidationError;
    fn try_from(value: i64) -> Result<Self, ValidationError> {
        Self::from_wide(i128::from(value))
    }
}

impl<R: IntegerBounds> TryFrom<u64> for BoundedInteger<R> {
    type Error = ValidationError;
    fn try_from(value: u64) -> Result<Self, ValidationError> {
        Self::from_wide(i128::from(value))
    }
}

impl<R: IntegerBounds> TryFrom<i32> for BoundedInteger<R> {
    type Error = ValidationError;
    fn try_from(value: i32) -> Result<Self, ValidationError> {
        Self::from_wide(i128::from(value))
    }
}

impl<R: IntegerBounds<Repr = u64>> From<BoundedInteger<R>> for u64 {
    fn from(value: BoundedInteger<R>) -> Self {
        value.0
    }
}

impl<R: IntegerBounds<Repr = i64>> From<BoundedInteger<R>> for i64 {
    fn from(value: BoundedInteger<R>) -> Self {
        value.0
    }
}

impl<R: IntegerBounds> Eq for BoundedInteger<R> {}

impl<R: IntegerBounds> std::hash::Hash for BoundedInteger<R> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<R: IntegerBounds> PartialOrd for BoundedInteger<R> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<R: IntegerBounds> Ord for BoundedInteger<R> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl<'de, R: IntegerBounds> serde::Deserialize<'de> for BoundedInteger<R> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BoundedIntegerVisitor::<R>(PhantomData))
    }
}

struct BoundedIntegerVisitor<R>(PhantomData<fn() -> R>);

impl<R: IntegerBounds> serde::de::Visitor<'_> for BoundedIntegerVisitor<R> {
    type Value = BoundedInteger<R>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<BoundedInteger<R>, E> {
        BoundedInteger::from_wide(i128::from(value)).map_err(E::custom)
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<BoundedInteger<R>, E> {
        BoundedInteger::from_wide(i128::from(value)).map_err(E::custom)
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<BoundedInteger<R>, E> {
        if value.fract() != 0.0 || !value.is_finite() {
            return Err(E::custom(format!("must be an integer; got {value}")));
        }
        if value < i128::MIN as f64 || value > i128::MAX as f64 {
            return Err(E::custom(format!(
                "must be between {} and {}; got {value}",
                R::MIN,
                R::MAX
            )));
        }
        BoundedInteger::from_wide(value as i128).map_err(E::custom)
    }
}

/// A number that a schema's `minimum` and `maximum` (inclusive or exclusive) bound, checked on
/// construction and on decoding.
pub struct BoundedNumber<R>(f64, PhantomData<fn() -> R>);

/// The bounds of one `BoundedNumber` alias.
pub trait NumberSchema: AliasMarker {
    /// Checks `value` against the bounds.
    fn check(value: f64) -> Result<(), ValidationError>;
}

/// The schema's `default` of a `BoundedNumber` alias that has one.
pub trait NumberDefault: NumberSchema {
    /// The value `Default` gives.
    const DEFAULT: f64;
}

impl<R: NumberSchema> BoundedNumber<R> {
    /// Checks `value` against the bounds.
    pub fn new(value: f64) -> Result<Self, ValidationError> {
        R::check(value)?;
        Ok(Self(value, PhantomData))
    }

    /// The value.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl<R: NumberDefault> Default for BoundedNumber<R> {
    fn default() -> Self {
        Self(R::DEFAULT, PhantomData)
    }
}

impl<R: NumberSchema> TryFrom<f64> for BoundedNumber<R> {
    type Error = ValidationError;
    fn try_from(value: f64) -> Result<Self, ValidationError> {
        Self::new(value)
    }
}

impl<R: NumberSchema> From<BoundedNumber<R>> for f64 {
    fn from(value: BoundedNumber<R>) -> Self {
        value.0
    }
}

impl<R: NumberSchema> PartialOrd for BoundedNumber<R> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.0.partial_cmp(&other.0)
    }
}

impl<'de, R: NumberSchema> serde::Deserialize<'de> for BoundedNumber<R> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::new(<f64 as serde::Deserialize>::deserialize(deserializer)?)
            .map_err(<D::Error as serde::de::Error>::custom)
    }
}

/// What bounded integers and numbers share, for the wrapper over a marker `R: $bound`:
/// `FromStr`, which parses the text as `$parsed` (refusing what is not `$what`) and checks it
/// with `Self::$check`, the copy and comparison of the value, `Display`, `Debug` as the alias's
/// name, and `Serialize`.
macro_rules! number_impls {
    ($wrapper:ident, $bound:ident, $parsed:ty, $what:literal, $check:ident) => {
        impl<R: $bound> std::str::FromStr for $wrapper<R> {
            type Err = ValidationError;
            fn from_str(text: &str) -> Result<Self, ValidationError> {
                let value: $parsed = text.parse().map_err(|_| {
                    ValidationError::new(format!(concat!("must be ", $what, "; got {:?}"), text))
                })?;
                Self::$check(value)
            }
        }

        impl<R: $bound> Copy for $wrapper<R> {}

        impl<R: $bound> Clone for $wrapper<R> {
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<R: $bound> fmt::Display for $wrapper<R> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl<R: $bound> fmt::Debug for $wrapper<R> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(R::NAME).field(&self.0).finish()
            }
        }

        impl<R: $bound> PartialEq for $wrapper<R> {
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }

        impl<R: $bound> serde::Serialize for $wrapper<R> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
    };
}

number_impls!(BoundedInteger, IntegerBounds, i128, "an integer", from_wide);
number_impls!(BoundedNumber, NumberSchema, f64, "a number", new);

/// `bounded_integer!(Name(repr) = MIN..=MAX [, one of [V, ...]] [, multiple of N]
/// [, default VALUE])`: the bounds, listed values, step and default of the marker
/// `rules::Name` of a generated [`BoundedInteger`] alias, as [`IntegerBounds`] and
/// [`IntegerDefault`], which the invoking module imports.
#[doc(hidden)]
#[macro_export]
macro_rules! bounded_integer {
    ($name:ident($repr:ty) = $min:literal..=$max:literal
        $(, one of [$($value:literal),*])? $(, multiple of $step:literal)?
        $(, default $default:literal)?) => {
        impl IntegerBounds for rules::$name {
            type Repr = $repr;
            const MIN: $repr = $min;
            const MAX: $repr = $max;
            $(const VALUES: &'static [$repr] = &[$($value),*];)?
            $(const MULTIPLE_OF: ::std::option::Option<$repr> = ::std::option::Option::Some($step);)?
        }
        $(
            impl IntegerDefault for rules::$name {
                const DEFAULT: $repr = $default;
            }
        )?
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    enum Port {}

    impl AliasMarker for Port {
        const NAME: &'static str = "Port";
    }

    impl IntegerBounds for Port {
        type Repr = u64;
        const MIN: u64 = 1;
        const MAX: u64 = 65_535;
    }

    impl IntegerDefault for Port {
        const DEFAULT: u64 = 80;
    }

    enum Weekday {}

    impl AliasMarker for Weekday {
        const NAME: &'static str = "Weekday";
    }

    impl IntegerBounds for Weekday {
        type Repr = u64;
        const MIN: u64 = 1;
        const MAX: u64 = 7;
        const VALUES: &'static [u64] = &[1, 2, 7];
    }

    enum Even {}

    impl AliasMarker for Even {
        const NAME: &'static str = "Even";
    }

    impl IntegerBounds for Even {
        type Repr = i64;
        const MIN: i64 = i64::MIN;
        const MAX: i64 = i64::MAX;
        const MULTIPLE_OF: Option<i64> = Some(2);
    }

    enum Ratio {}

    impl AliasMarker for Ratio {
        const NAME: &'static str = "Ratio";
    }

    impl NumberSchema for Ratio {
        fn check(value: f64) -> Result<(), ValidationError> {
            if !(value > 0.0 && value <= 1.0) {
                return Err(ValidationError::new(format!(
                    "must be above 0 and at most 1; got {value}"
                )));
            }
            Ok(())
        }
    }

    #[test]
    fn integers_are_checked_however_they_arrive() {
        type P = BoundedInteger<Port>;
        assert_eq!(P::new(8080).unwrap().get(), 8080);
        assert_eq!(P::default().get(), 80);
        assert_eq!(
            P::new(0).unwrap_err().message(),
            "must be at least 1; got 0"
        );
        assert_eq!(
            P::try_from(-5i64).unwrap_err().message(),
            "must be at least 1; got -5"
        );
        assert_eq!(
            "70000".parse::<P>().unwrap_err().message(),
            "must be at most 65535; got 70000"
        );
        assert_eq!(
            "1.5".parse::<P>().unwrap_err().message(),
            "must be an integer; got \"1.5\""
        );
        // `3.0` is an integer to JSON Schema; `3.5` is not.
        assert_eq!(serde_json::from_str::<P>("3.0").unwrap().get(), 3);
        assert!(serde_json::from_str::<P>("3.5").is_err());
        assert!(serde_json::from_str::<P>("1e40").is_err());
        assert!(serde_json::from_str::<P>("\"3\"").is_err());
        assert_eq!(format!("{:?}", P::new(22).unwrap()), "Port(22)");
        assert_eq!(serde_json::to_string(&P::new(22).unwrap()).unwrap(), "22");
    }

    #[test]
    fn listed_integers_and_multiples_are_checked_however_they_arrive() {
        type W = BoundedInteger<Weekday>;
        assert_eq!(W::new(2).unwrap().get(), 2);
        assert_eq!(
            W::new(3).unwrap_err().message(),
            "must be one of 1, 2, 7; got 3"
        );
        // A listed integer written `7.0` is that integer to JSON Schema.
        assert_eq!(serde_json::from_str::<W>("7.0").unwrap().get(), 7);
        assert!(serde_json::from_str::<W>("5").is_err());
        assert!(serde_json::from_str::<W>("8").is_err());
        type E = BoundedInteger<Even>;
        assert_eq!(serde_json::from_str::<E>("-4.0").unwrap().get(), -4);
        assert_eq!(
            E::new(3).unwrap_err().message(),
            "must be a multiple of 2; got 3"
        );
        assert!("7".parse::<E>().is_err());
    }

    #[test]
    fn numbers_are_checked_by_their_schema() {
        type R = BoundedNumber<Ratio>;
        assert_eq!(R::new(0.5).unwrap().get(), 0.5);
        assert!(R::new(0.0).is_err());
        assert!("x".parse::<R>().is_err());
        assert!(serde_json::from_str::<R>("1.5").is_err());
        assert_eq!(format!("{:?}", R::new(1.0).unwrap()), "Ratio(1.0)");
    }
}
