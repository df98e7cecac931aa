//! Numbers: `bounded_number`, the bounds of a `type: number` checked as `f64`, and the shared
//! `BoundedNumber` and `NumberDefault`.

use super::{expect_type, only_keywords, value_checks};
use crate::Error;
use crate::patch::{Applied, Shared, Target};
use crate::rules::Subject;
use crate::runtime::rules_module;
use proc_macro2::TokenStream;
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;

pub(crate) fn bounded_number(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
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
pub(crate) fn number_default_shared() -> TokenStream {
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
pub(super) fn number_impls(
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
pub(crate) fn bounded_number_shared() -> TokenStream {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn bounds_are_read_in_both_spellings_of_exclusive() {
        let draft4 = json!({"minimum": 0, "exclusiveMinimum": true, "maximum": 1});
        let modern = json!({"exclusiveMinimum": 0, "maximum": 1});
        for schema in [&draft4, &modern] {
            assert!(!number_within_bounds(schema, 0.0), "{schema}");
            assert!(number_within_bounds(schema, 0.5), "{schema}");
            assert!(number_within_bounds(schema, 1.0), "{schema}");
            assert!(!number_within_bounds(schema, 1.5), "{schema}");
        }
        assert!(number_within_bounds(&json!({}), f64::MAX));
    }
}
