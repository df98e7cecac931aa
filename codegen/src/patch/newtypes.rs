//! Newtype patches: integers, arrays, maps and strings whose rules typify drops or words
//! differently, emitted as newtypes that check every rule both when decoding JSON and when
//! built in Rust (`new`, `TryFrom`), so there is no public way to hold an invalid value.
//!
//! The check of each rule (string lengths, pattern, format; number bounds; item counts) is
//! [`Rule::enforcement`]'s: this module arranges the checks into types. Integer bounds are the
//! exception: they become the range of a `bounded_integer!`, read exactly (a 64-bit bound does
//! not survive the `f64` of [`Rule::Minimum`]).
//!
//! Messages have one shape: `must <rule>; got <value>`. For secrets the value is never shown,
//! only its length.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::{Applied, Shared, Target, rust_type_of};
use crate::Error;
use crate::model::mark;
use crate::rules::{Check, Enforcement, Rule, Subject, format_check, format_fn_name};
use crate::runtime::rules_module;
use progenitor::TypeImpl;
use std::collections::BTreeSet;

/// Keywords a patch may see beside the ones it enforces: documentation and annotations.
const ANNOTATIONS: &[&str] = &[
    "type",
    "description",
    "example",
    "x-examples",
    "default",
    "title",
    "x-comment",
];

/// Keywords that state nothing an instance can break, whatever the action.
const MORE_ANNOTATIONS: &[&str] = &[
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "externalDocs",
    "$comment",
    "xml",
];

/// Whether `key` is an annotation: a listed one, or a specification extension (`x-...`) other
/// than the marks that carry rules or meaning through this pipeline.
fn is_annotation(key: &str) -> bool {
    const MARKS: &[&str] = &[
        mark::PREFIX_ITEMS,
        mark::PROPERTY_NAMES,
        mark::ANY_OF,
        mark::OPEN_ENUM,
    ];
    ANNOTATIONS.contains(&key)
        || MORE_ANNOTATIONS.contains(&key)
        || (key.starts_with("x-")
            && !MARKS.contains(&key)
            && !key.starts_with(mark::AUTHORED_PREFIX))
}

/// Refuses any keyword the action does not know how to enforce, so nothing is dropped.
pub(super) fn only_keywords(target: &Target<'_>, enforced: &[&str]) -> Result<(), Error> {
    let object = target
        .schema
        .as_object()
        .ok_or_else(|| target.error("the schema is not a mapping"))?;
    match object
        .iter()
        .find(|(key, value)| {
            let annotation_format = *key == "format"
                && value
                    .as_str()
                    .is_some_and(|format| !crate::rules::format_is_a_rule(format));
            !enforced.contains(&key.as_str()) && !is_annotation(key) && !annotation_format
        })
        .map(|(key, _)| key)
    {
        Some(key) => Err(target.error(format!("this action cannot enforce `{key}`"))),
        None => Ok(()),
    }
}

fn expect_type(target: &Target<'_>, kind: &str) -> Result<(), Error> {
    match target.schema.get("type").and_then(Value::as_str) {
        Some(found) if found == kind => Ok(()),
        found => Err(target.error(format!("expected `type: {kind}`, found {found:?}"))),
    }
}

pub(super) fn number(target: &Target<'_>, keyword: &str) -> Result<Option<i128>, Error> {
    match target.schema.get(keyword) {
        None => Ok(None),
        Some(value) => value
            .as_i64()
            .map(i128::from)
            .or_else(|| value.as_u64().map(i128::from))
            .map(Some)
            .ok_or_else(|| target.error(format!("`{keyword}` must be a whole number"))),
    }
}

/// An integer's bound as the integer it means: a bound written as a number (`minimum: 0.5`,
/// or `-9223372036854776000`, which loads as a double) admits the integers on its side of it,
/// so a lower bound rounds up and an upper bound down. `None` when the keyword is absent.
fn integer_bound(target: &Target<'_>, keyword: &str, upper: bool) -> Result<Option<i128>, Error> {
    let Some(value) = target.schema.get(keyword) else {
        return Ok(None);
    };
    if let Some(whole) = value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from))
    {
        return Ok(Some(whole));
    }
    match value.as_f64().filter(|bound| bound.is_finite()) {
        // `as` saturates at i128's range, far beyond any 64-bit type the bound is compared to.
        Some(bound) if upper => Ok(Some(bound.floor() as i128)),
        Some(bound) => Ok(Some(bound.ceil() as i128)),
        None => Err(target.error(format!("`{keyword}` must be a number"))),
    }
}

/// The value of a schema that admits one integer and nothing else: `enum: [n]` (a down-levelled
/// `const`), with `type: integer` or no type.
pub(super) fn integer_literal(schema: &Value) -> Option<i128> {
    let kind = schema.get("type");
    if kind.is_some_and(|kind| kind != "integer") {
        return None;
    }
    match schema.get("enum")?.as_array()?.as_slice() {
        [value] if value.is_i64() || value.is_u64() => value
            .as_i64()
            .map(i128::from)
            .or_else(|| value.as_u64().map(i128::from)),
        _ => None,
    }
}

fn flag(target: &Target<'_>, keyword: &str) -> bool {
    target
        .schema
        .get(keyword)
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

pub(super) fn bounded_integer(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
    // An integer literal (`const: 2`, `enum: [2]`) is the integer bounded to itself: it then
    // also accepts `2.0`, which JSON Schema counts as the integer 2.
    let (minimum, maximum) = match integer_literal(target.schema) {
        Some(value) => {
            only_keywords(target, &["type", "enum"])?;
            (Some(value), Some(value))
        }
        None => {
            expect_type(target, "integer")?;
            only_keywords(
                target,
                &[
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "format",
                ],
            )?;
            let minimum = integer_bound(target, "minimum", false)?
                .map(|value| value + i128::from(flag(target, "exclusiveMinimum")));
            let maximum = integer_bound(target, "maximum", true)?
                .map(|value| value - i128::from(flag(target, "exclusiveMaximum")));
            // A width format (`int32`) is one more pair of bounds; any other format on an
            // integer is an annotation (`unixtime`).
            match target
                .schema
                .get("format")
                .and_then(Value::as_str)
                .and_then(crate::rules::integer_width)
            {
                Some((lowest, highest)) => (
                    Some(minimum.map_or(lowest, |minimum| minimum.max(lowest))),
                    Some(maximum.map_or(highest, |maximum| maximum.min(highest))),
                ),
                None => (minimum, maximum),
            }
        }
    };
    let unsigned = minimum.is_some_and(|minimum| minimum >= 0);
    let (repr, lowest, highest) = if unsigned {
        (quote! { u64 }, 0, i128::from(u64::MAX))
    } else {
        (quote! { i64 }, i128::from(i64::MIN), i128::from(i64::MAX))
    };
    // A bound beyond the 64-bit type (`maximum: 18446744073709552000` on an unsigned integer)
    // is met by every value the type holds, so it is the type's own limit.
    let minimum = minimum.map_or(lowest, |minimum| minimum.max(lowest));
    let maximum = maximum.map_or(highest, |maximum| maximum.min(highest));
    if minimum > maximum {
        return Err(target.error("the bounds admit no value that fits 64 bits"));
    }
    let literal = |value: i128| -> TokenStream {
        if unsigned {
            u64::try_from(value)
                .map(|v| quote! { #v })
                .unwrap_or_default()
        } else {
            i64::try_from(value)
                .map(|v| quote! { #v })
                .unwrap_or_default()
        }
    };
    let (min, max) = (literal(minimum), literal(maximum));
    let default = match target.schema.get("default") {
        None => None,
        Some(value) => {
            let value = value
                .as_i64()
                .map(i128::from)
                .or_else(|| value.as_u64().map(i128::from));
            match value {
                Some(value) if (minimum..=maximum).contains(&value) => Some(literal(value)),
                _ => return Err(target.error("`default` is not an integer within the bounds")),
            }
        }
    };
    let ident = &target.ident;
    let rules = match (minimum == lowest && !unsigned, maximum == highest) {
        _ if minimum == maximum => format!("exactly {minimum}"),
        (false, false) => format!("{minimum} to {maximum}"),
        (false, true) => format!("at least {minimum}"),
        (true, false) => format!("at most {maximum}"),
        (true, true) => "any integer".to_owned(),
    };
    let doc = target.doc(&rules);
    let has_default = default.is_some();
    let default = default.map(|value| quote! { , default #value });
    let rules_module = rules_module();
    let item = quote! {
        #doc
        pub type #ident = BoundedInteger<#rules_module::#ident>;
        bounded_integer!(#ident(#repr) = #min..=#max #default);
        pub mod #rules_module {
            pub enum #ident {}
        }
    };
    applied.shared.insert(Shared::BoundedInteger);
    let mut impls = vec![TypeImpl::Display, TypeImpl::FromStr];
    if has_default {
        impls.push(TypeImpl::Default);
    }
    target.replace(applied, item, impls);
    Ok(())
}

/// `BoundedInteger<R>`, the type every bounded integer is an alias of, `R` being its marker in
/// the `rules` module, which holds its bounds: `new`/`get`, `MIN`/`MAX`, the conversions and
/// serde, written once for all. `bounded_integer!(Name(repr) = MIN..=MAX [, default VALUE])`
/// writes a marker. JSON Schema counts `3.0` as an integer, so integral floats decode too.
pub(super) fn bounded_integer_shared() -> TokenStream {
    let wrapper = quote!(BoundedInteger<R>);
    let number_impls = number_impls(
        &wrapper,
        quote!(IntegerBounds),
        quote!(i128),
        "an integer",
        quote!(from_wide),
    );
    quote! {
        /// An integer that a schema's `minimum` and `maximum` bound, checked on construction
        /// and on decoding. Each such type of the description is an alias of this one, `R`
        /// being its marker in `rules`, which holds its bounds.
        pub struct BoundedInteger<R: IntegerBounds>(R::Repr);

        /// The bounds of one `BoundedInteger` alias.
        pub trait IntegerBounds: AliasMarker {
            /// The integer it holds: `u64` when it cannot be negative, `i64` otherwise.
            type Repr: ::std::marker::Copy
                + ::std::cmp::Ord
                + ::std::hash::Hash
                + ::std::fmt::Debug
                + ::std::fmt::Display
                + ::std::convert::Into<i128>
                + ::std::convert::TryFrom<i128>
                + ::serde::Serialize;
            /// The smallest value allowed.
            const MIN: Self::Repr;
            /// The largest value allowed.
            const MAX: Self::Repr;
        }

        /// The schema's `default` of a `BoundedInteger` alias that has one.
        pub trait IntegerDefault: IntegerBounds {
            /// The value `Default` gives.
            const DEFAULT: Self::Repr;
        }

        macro_rules! bounded_integer {
            ($name:ident($repr:ty) = $min:literal..=$max:literal $(, default $default:literal)?) => {
                impl IntegerBounds for rules::$name {
                    type Repr = $repr;
                    const MIN: $repr = $min;
                    const MAX: $repr = $max;
                }
                $(
                    impl IntegerDefault for rules::$name {
                        const DEFAULT: $repr = $default;
                    }
                )?
            };
        }

        impl<R: IntegerBounds> BoundedInteger<R> {
            /// The smallest value allowed.
            pub const MIN: R::Repr = R::MIN;
            /// The largest value allowed.
            pub const MAX: R::Repr = R::MAX;
            /// Checks `value` against the bounds.
            pub fn new(value: R::Repr) -> ::std::result::Result<Self, ValidationError> {
                if value < R::MIN {
                    return Err(ValidationError::new(::std::format!("must be at least {}; got {}", R::MIN, value)));
                }
                if value > R::MAX {
                    return Err(ValidationError::new(::std::format!("must be at most {}; got {}", R::MAX, value)));
                }
                Ok(Self(value))
            }
            /// The value.
            pub fn get(self) -> R::Repr {
                self.0
            }
            fn from_wide(value: i128) -> ::std::result::Result<Self, ValidationError> {
                if value < R::MIN.into() {
                    return Err(ValidationError::new(::std::format!("must be at least {}; got {}", R::MIN, value)));
                }
                match R::Repr::try_from(value) {
                    Ok(value) => Self::new(value),
                    // Within the bounds, so within the representation, but said without a panic.
                    Err(_) => Err(ValidationError::new(::std::format!("must be at most {}; got {}", R::MAX, value))),
                }
            }
        }
        impl<R: IntegerDefault> ::std::default::Default for BoundedInteger<R> {
            fn default() -> Self {
                Self(R::DEFAULT)
            }
        }
        impl<R: IntegerBounds> ::std::convert::TryFrom<i64> for BoundedInteger<R> {
            type Error = ValidationError;
            fn try_from(value: i64) -> ::std::result::Result<Self, ValidationError> {
                Self::from_wide(i128::from(value))
            }
        }
        impl<R: IntegerBounds> ::std::convert::TryFrom<u64> for BoundedInteger<R> {
            type Error = ValidationError;
            fn try_from(value: u64) -> ::std::result::Result<Self, ValidationError> {
                Self::from_wide(i128::from(value))
            }
        }
        impl<R: IntegerBounds> ::std::convert::TryFrom<i32> for BoundedInteger<R> {
            type Error = ValidationError;
            fn try_from(value: i32) -> ::std::result::Result<Self, ValidationError> {
                Self::from_wide(i128::from(value))
            }
        }
        impl<R: IntegerBounds<Repr = u64>> ::std::convert::From<BoundedInteger<R>> for u64 {
            fn from(value: BoundedInteger<R>) -> Self {
                value.0
            }
        }
        impl<R: IntegerBounds<Repr = i64>> ::std::convert::From<BoundedInteger<R>> for i64 {
            fn from(value: BoundedInteger<R>) -> Self {
                value.0
            }
        }
        #number_impls
        impl<R: IntegerBounds> ::std::marker::Copy for BoundedInteger<R> {}
        impl<R: IntegerBounds> ::std::cmp::Eq for BoundedInteger<R> {}
        impl<R: IntegerBounds> ::std::hash::Hash for BoundedInteger<R> {
            fn hash<H: ::std::hash::Hasher>(&self, state: &mut H) {
                self.0.hash(state);
            }
        }
        impl<R: IntegerBounds> ::std::cmp::Ord for BoundedInteger<R> {
            fn cmp(&self, other: &Self) -> ::std::cmp::Ordering {
                self.0.cmp(&other.0)
            }
        }
        impl<'de, R: IntegerBounds> ::serde::Deserialize<'de> for BoundedInteger<R> {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                deserializer.deserialize_any(BoundedIntegerVisitor::<R>(::std::marker::PhantomData))
            }
        }
        struct BoundedIntegerVisitor<R>(::std::marker::PhantomData<fn() -> R>);
        impl<R: IntegerBounds> ::serde::de::Visitor<'_> for BoundedIntegerVisitor<R> {
            type Value = BoundedInteger<R>;
            fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: ::serde::de::Error>(self, value: i64) -> ::std::result::Result<BoundedInteger<R>, E> {
                BoundedInteger::from_wide(i128::from(value)).map_err(E::custom)
            }
            fn visit_u64<E: ::serde::de::Error>(self, value: u64) -> ::std::result::Result<BoundedInteger<R>, E> {
                BoundedInteger::from_wide(i128::from(value)).map_err(E::custom)
            }
            fn visit_f64<E: ::serde::de::Error>(self, value: f64) -> ::std::result::Result<BoundedInteger<R>, E> {
                if value.fract() != 0.0 || !value.is_finite() {
                    return Err(E::custom(::std::format!("must be an integer; got {value}")));
                }
                if value < i128::MIN as f64 || value > i128::MAX as f64 {
                    return Err(E::custom(::std::format!("must be between {} and {}; got {value}", R::MIN, R::MAX)));
                }
                BoundedInteger::from_wide(value as i128).map_err(E::custom)
            }
        }
    }
}

/// A `type: number` with `minimum`/`maximum` (inclusive or exclusive): a newtype over a finite
/// `f64` that refuses values outside the bounds.
/// The rules of `schema`, refusing any of `keywords` that is there but could not be read as a
/// rule (a length that is not a whole number, a bound that is not a number): it would
/// otherwise go unchecked.
fn read_rules(target: &Target<'_>, schema: &Value, keywords: &[&str]) -> Result<Vec<Rule>, Error> {
    let read = Rule::from_schema(schema);
    match keywords
        .iter()
        .find(|key| schema.get(**key).is_some() && !read.iter().any(|rule| rule.keyword() == **key))
    {
        Some(key) => Err(target.error(format!("`{key}` is not a value the rule takes"))),
        None => Ok(read),
    }
}

/// The checks of the target's rules on `subject` (numbers or item lists), each returning
/// `Err(ValidationError)` with `must <rule>; got <got>`, and each rule's words after "must";
/// `keywords` are the subject's, refused when they cannot be read ([`read_rules`]).
fn value_checks(
    target: &Target<'_>,
    subject: Subject,
    got: TokenStream,
    keywords: &[&str],
    shared: &mut BTreeSet<Shared>,
) -> Result<(Vec<TokenStream>, Vec<String>), Error> {
    let mut checks = Vec::new();
    let mut musts = Vec::new();
    for rule in read_rules(target, target.schema, keywords)? {
        // Every array has at least no items.
        if rule == Rule::MinItems(0) {
            continue;
        }
        match rule.enforcement().map_err(|reason| target.error(reason))? {
            Enforcement::Check(Check {
                subject: checked,
                broken,
                must,
                ..
            }) if checked == subject => {
                let message = format!("must {must}; got {{}}");
                shared.insert(Shared::Bail);
                checks.push(quote! {
                    if #broken {
                        bail!(#message, #got);
                    }
                });
                musts.push(must);
            }
            _ => {}
        }
    }
    Ok((checks, musts))
}

pub(super) fn bounded_number(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
    expect_type(target, "number")?;
    only_keywords(
        target,
        &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
    )?;
    let (checks, musts) = value_checks(
        target,
        Subject::Number,
        quote! { value },
        &["minimum", "maximum"],
        &mut applied.shared,
    )?;
    let words: Vec<&str> = musts
        .iter()
        .map(|must| must.trim_start_matches("be "))
        .collect();
    let ident = &target.ident;
    let rules_module = rules_module();
    // A `default` is the value `Default` gives; `normalize` has already dropped one that
    // breaks the schema, so one still outside the bounds is a defect this action refuses.
    let default = match target.schema.get("default") {
        None => None,
        Some(value) => match value.as_f64() {
            Some(value) if number_within_bounds(target.schema, value) => Some(quote! {
                impl NumberDefault for #rules_module::#ident {
                    const DEFAULT: f64 = #value;
                }
            }),
            _ => return Err(target.error("`default` is not a number within the bounds")),
        },
    };
    let doc = target.doc(&words.join(", "));
    applied.shared.insert(Shared::BoundedNumber);
    let mut impls = vec![TypeImpl::Display, TypeImpl::FromStr];
    if default.is_some() {
        applied.shared.insert(Shared::NumberDefault);
        impls.push(TypeImpl::Default);
    }
    let item = quote! {
        #doc
        pub type #ident = BoundedNumber<#rules_module::#ident>;
        impl NumberSchema for #rules_module::#ident {
            fn check(value: f64) -> ::std::result::Result<(), ValidationError> {
                #(#checks)*
                Ok(())
            }
        }
        #default
        pub mod #rules_module {
            pub enum #ident {}
        }
    };
    target.replace(applied, item, impls);
    Ok(())
}

/// Whether `value` meets a number schema's bounds, in either spelling of exclusive ones.
fn number_within_bounds(schema: &Value, value: f64) -> bool {
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let flag = |key: &str| schema.get(key) == Some(&Value::Bool(true));
    let above = match (bound("minimum"), bound("exclusiveMinimum")) {
        (_, Some(exclusive)) => value > exclusive,
        (Some(minimum), None) if flag("exclusiveMinimum") => value > minimum,
        (Some(minimum), None) => value >= minimum,
        (None, None) => true,
    };
    let below = match (bound("maximum"), bound("exclusiveMaximum")) {
        (_, Some(exclusive)) => value < exclusive,
        (Some(maximum), None) if flag("exclusiveMaximum") => value < maximum,
        (Some(maximum), None) => value <= maximum,
        (None, None) => true,
    };
    above && below
}

/// `NumberDefault`: the `default` of a `BoundedNumber` alias that has one, and the `Default`
/// it gives. Emitted only where a bounded number has a default.
pub(super) fn number_default_shared() -> TokenStream {
    quote! {
        /// The schema's `default` of a `BoundedNumber` alias that has one.
        pub trait NumberDefault: NumberSchema {
            /// The value `Default` gives.
            const DEFAULT: f64;
        }
        impl<R: NumberDefault> ::std::default::Default for BoundedNumber<R> {
            fn default() -> Self {
                Self(R::DEFAULT, ::std::marker::PhantomData)
            }
        }
    }
}

/// What bounded integers and numbers share, for the generic `wrapper` over a marker `R: bound`:
/// `Display`, `FromStr`, which parses the text as `parsed` (refusing what is not `what`) and
/// checks it with `Self::check_with`, `Serialize`, and what they derived (`Clone`, `Debug`
/// as the alias's name, `PartialEq`, `PartialOrd`).
fn number_impls(
    wrapper: &TokenStream,
    bound: TokenStream,
    parsed: TokenStream,
    what: &str,
    check_with: TokenStream,
) -> TokenStream {
    let refused = format!("must be {what}; got {{text:?}}");
    quote! {
        impl<R: #bound> ::std::fmt::Display for #wrapper {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                self.0.fmt(f)
            }
        }
        impl<R: #bound> ::std::str::FromStr for #wrapper {
            type Err = ValidationError;
            fn from_str(text: &str) -> ::std::result::Result<Self, ValidationError> {
                let value: #parsed = text.parse().map_err(|_| ValidationError::new(::std::format!(#refused)))?;
                Self::#check_with(value)
            }
        }
        impl<R: #bound> ::serde::Serialize for #wrapper {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
        impl<R: #bound> ::std::clone::Clone for #wrapper {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<R: #bound> ::std::fmt::Debug for #wrapper {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_tuple(R::NAME).field(&self.0).finish()
            }
        }
        impl<R: #bound> ::std::cmp::PartialEq for #wrapper {
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }
        impl<R: #bound> ::std::cmp::PartialOrd for #wrapper {
            fn partial_cmp(&self, other: &Self) -> ::std::option::Option<::std::cmp::Ordering> {
                self.0.partial_cmp(&other.0)
            }
        }
    }
}

/// `BoundedNumber<R>`, the type every bounded number is an alias of, `R` being its marker in
/// the `rules` module, whose `NumberSchema::check` (the bounds) is written out there:
/// `new`/`get`, the conversions and serde, all through `check`, written once for all.
pub(super) fn bounded_number_shared() -> TokenStream {
    let wrapper = quote!(BoundedNumber<R>);
    let number_impls = number_impls(
        &wrapper,
        quote!(NumberSchema),
        quote!(f64),
        "a number",
        quote!(new),
    );
    quote! {
        /// A number that a schema's `minimum` and `maximum` (inclusive or exclusive) bound,
        /// checked on construction and on decoding. Each such type of the description is an
        /// alias of this one, `R` being its marker in `rules`, which checks the bounds.
        pub struct BoundedNumber<R>(f64, ::std::marker::PhantomData<fn() -> R>);

        /// The bounds of one `BoundedNumber` alias.
        pub trait NumberSchema: AliasMarker {
            /// Checks `value` against the bounds.
            fn check(value: f64) -> ::std::result::Result<(), ValidationError>;
        }

        impl<R: NumberSchema> BoundedNumber<R> {
            /// Checks `value` against the bounds.
            pub fn new(value: f64) -> ::std::result::Result<Self, ValidationError> {
                R::check(value)?;
                Ok(Self(value, ::std::marker::PhantomData))
            }
            /// The value.
            pub fn get(self) -> f64 {
                self.0
            }
        }
        impl<R: NumberSchema> ::std::convert::TryFrom<f64> for BoundedNumber<R> {
            type Error = ValidationError;
            fn try_from(value: f64) -> ::std::result::Result<Self, ValidationError> {
                Self::new(value)
            }
        }
        impl<R: NumberSchema> ::std::convert::From<BoundedNumber<R>> for f64 {
            fn from(value: BoundedNumber<R>) -> Self {
                value.0
            }
        }
        impl<R: NumberSchema> ::std::marker::Copy for BoundedNumber<R> {}
        #number_impls
        impl<'de, R: NumberSchema> ::serde::Deserialize<'de> for BoundedNumber<R> {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                Self::new(<f64 as ::serde::Deserialize>::deserialize(deserializer)?)
                    .map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
    }
}

pub(super) fn bounded_array(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
    expect_type(target, "array")?;
    only_keywords(target, &["minItems", "maxItems", "items"])?;
    let item_type = rust_type_of(
        target.schema.get("items").unwrap_or(&Value::Null),
        target,
        "`items`",
    )?;
    let min = number(target, "minItems")?.unwrap_or(0);
    let max = number(target, "maxItems")?;
    let min = usize::try_from(min).map_err(|_| target.error("`minItems` out of range"))?;
    let max = max
        .map(usize::try_from)
        .transpose()
        .map_err(|_| target.error("`maxItems` out of range"))?;
    let (checks, _) = value_checks(
        target,
        Subject::Items,
        quote! { items.len() },
        &["minItems", "maxItems"],
        &mut applied.shared,
    )?;
    let ident = &target.ident;
    let rules = match max {
        Some(max) if min > 0 => format!("{min} to {max} items"),
        Some(max) => format!("at most {max} items"),
        None => format!("at least {min} item{}", if min == 1 { "" } else { "s" }),
    };
    let doc = target.doc(&rules);
    let default_impl = (min == 0).then(|| {
        quote! {
            impl ::std::default::Default for #ident {
                fn default() -> Self {
                    Self(::std::vec::Vec::new())
                }
            }
        }
    });
    let item = quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub struct #ident(::std::vec::Vec<#item_type>);
        impl #ident {
            /// Checks the number of items.
            pub fn new(items: ::std::vec::Vec<#item_type>) -> ::std::result::Result<Self, ValidationError> {
                #(#checks)*
                Ok(Self(items))
            }
            /// The items.
            pub fn into_inner(self) -> ::std::vec::Vec<#item_type> {
                self.0
            }
        }
        #default_impl
        impl ::std::ops::Deref for #ident {
            type Target = [#item_type];
            fn deref(&self) -> &[#item_type] {
                &self.0
            }
        }
        impl ::std::convert::TryFrom<::std::vec::Vec<#item_type>> for #ident {
            type Error = ValidationError;
            fn try_from(items: ::std::vec::Vec<#item_type>) -> ::std::result::Result<Self, ValidationError> {
                Self::new(items)
            }
        }
        impl ::std::convert::From<#ident> for ::std::vec::Vec<#item_type> {
            fn from(value: #ident) -> Self {
                value.0
            }
        }
        impl<'a> ::std::iter::IntoIterator for &'a #ident {
            type Item = &'a #item_type;
            type IntoIter = ::std::slice::Iter<'a, #item_type>;
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }
        impl ::serde::Serialize for #ident {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let items = ::std::vec::Vec::<#item_type>::deserialize(deserializer)?;
                Self::new(items).map_err(::serde::de::Error::custom)
            }
        }
    };
    let impls = if min == 0 {
        vec![TypeImpl::Default]
    } else {
        Vec::new()
    };
    target.replace(applied, item, impls);
    Ok(())
}

/// Whether [`string_checks`] has a check for `format`.
pub(super) fn checks_format(format: &str) -> bool {
    format_check(format).is_some()
}

/// `fn is_<format>(value: &str) -> bool`, emitted once for every validated type that checks
/// `format` ([`Shared::Format`]).
pub(super) fn format_fn(format: &str) -> TokenStream {
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
enum Got {
    Value,
    Length,
}

/// The checks of a string rule set (`pattern`, `minLength`, `maxLength`, `format`) as code
/// over a `value: &str`, returning `Err(ValidationError)`. `subject` prefixes messages (e.g.
/// `key {value:?} `, a format string over `value`); `got`, when given, renders the offending
/// value after `; got `.
fn string_checks(
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
fn string_rules(schema: &Value) -> Vec<String> {
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

pub(super) fn validated_string(
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

/// `bail!("must be at least {}; got {}", 1, value)`, which every generated check fails
/// through: it returns the `ValidationError` with that message.
pub(super) fn bail_macro() -> TokenStream {
    quote! {
        macro_rules! bail {
            ($($message:tt)*) => {
                return ::std::result::Result::Err(ValidationError::new(::std::format!($($message)*)))
            };
        }
    }
}

/// `ValidatedString<R>` and `SecretString<R>`, the types every validated string is an alias
/// of, `R` being its marker in the `rules` module, whose `StringSchema::check` is written out
/// beside the alias: `new`/`as_str`/`into_inner`, the conversions and serde, all through
/// `check`, and for a date-time `to_datetime`, written once for all. A `SecretString` prints as
/// `Name([redacted])` and has no `Display`; its errors give only the length (see `check`).
pub(super) fn validated_string_shared() -> TokenStream {
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

pub(super) fn validated_map(
    target: &Target<'_>,
    secret: bool,
    applied: &mut Applied,
) -> Result<(), Error> {
    expect_type(target, "object")?;
    only_keywords(target, &["additionalProperties", mark::PROPERTY_NAMES])?;
    let value_type = rust_type_of(
        target
            .schema
            .get("additionalProperties")
            .unwrap_or(&Value::Null),
        target,
        "`additionalProperties`",
    )?;
    let names = target
        .schema
        .get(mark::PROPERTY_NAMES)
        .cloned()
        .unwrap_or_else(|| Value::Object(Default::default()));
    if let Some(key) = names.as_object().and_then(|names| {
        names
            .keys()
            .find(|key| !matches!(key.as_str(), "pattern" | "minLength" | "maxLength"))
    }) {
        return Err(target.error(format!(
            "`propertyNames` may only use `pattern`, `minLength` and `maxLength`, not `{key}`"
        )));
    }
    let key_checks = string_checks(&names, target, "key {value:?} ", None, &mut applied.shared)?;
    let ident = &target.ident;
    let mut rules = string_rules(&names)
        .into_iter()
        .map(|rule| format!("keys {rule}"))
        .collect::<Vec<_>>();
    if secret {
        rules.push("values secret (never printed)".to_owned());
    }
    let rules = if rules.is_empty() {
        "any keys".to_owned()
    } else {
        rules.join(", ")
    };
    let doc = target.doc(&rules);
    let debug = if secret {
        quote! { f.debug_map().entries(self.0.keys().map(|key| (key, ::std::format_args!("[redacted]")))).finish() }
    } else {
        quote! { f.debug_map().entries(self.0.iter()).finish() }
    };
    let item = quote! {
        #doc
        #[derive(Clone, PartialEq, Default)]
        pub struct #ident(::std::collections::BTreeMap<::std::string::String, #value_type>);
        impl #ident {
            /// An empty map.
            pub fn new() -> Self {
                Self::default()
            }
            /// Checks `key`, then inserts; returns the value the key had.
            pub fn insert(&mut self, key: impl ::std::convert::Into<::std::string::String>, value: #value_type) -> ::std::result::Result<::std::option::Option<#value_type>, ValidationError> {
                let key = key.into();
                Self::check_key(&key)?;
                Ok(self.0.insert(key, value))
            }
            fn check_key(value: &str) -> ::std::result::Result<(), ValidationError> {
                #key_checks
                Ok(())
            }
            /// The entries, sorted by key.
            pub fn into_inner(self) -> ::std::collections::BTreeMap<::std::string::String, #value_type> {
                self.0
            }
        }
        impl ::std::fmt::Debug for #ident {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                #debug
            }
        }
        impl ::std::ops::Deref for #ident {
            type Target = ::std::collections::BTreeMap<::std::string::String, #value_type>;
            fn deref(&self) -> &Self::Target {
                &self.0
            }
        }
        impl ::std::convert::TryFrom<::std::collections::BTreeMap<::std::string::String, #value_type>> for #ident {
            type Error = ValidationError;
            fn try_from(map: ::std::collections::BTreeMap<::std::string::String, #value_type>) -> ::std::result::Result<Self, ValidationError> {
                for key in map.keys() {
                    Self::check_key(key)?;
                }
                Ok(Self(map))
            }
        }
        impl ::std::convert::TryFrom<::std::collections::HashMap<::std::string::String, #value_type>> for #ident {
            type Error = ValidationError;
            fn try_from(map: ::std::collections::HashMap<::std::string::String, #value_type>) -> ::std::result::Result<Self, ValidationError> {
                Self::try_from(map.into_iter().collect::<::std::collections::BTreeMap<_, _>>())
            }
        }
        impl ::serde::Serialize for #ident {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let map = ::std::collections::BTreeMap::<::std::string::String, #value_type>::deserialize(deserializer)?;
                Self::try_from(map).map_err(::serde::de::Error::custom)
            }
        }
    };
    target.replace(applied, item, vec![TypeImpl::Default]);
    Ok(())
}
