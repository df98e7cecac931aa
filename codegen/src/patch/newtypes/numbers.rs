//! Numbers: `bounded_number`, the bounds of a `type: number` checked as `f64`, and the shared
//! `BoundedNumber` and `NumberDefault`.

use super::{expect_type, only_keywords, value_checks};
use crate::Error;
use crate::patch::{Applied, Shared, Target};
use crate::rules::Subject;
use crate::runtime::{rules_module, support_crate};
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

/// `NumberDefault` (in the support crate): the `default` of a `BoundedNumber` alias that has
/// one, and the `Default` it gives. Re-exported only where a bounded number has a default.
pub(crate) fn number_default_shared() -> TokenStream {
    let support = support_crate();
    quote! {
        pub use #support::NumberDefault;
    }
}

/// `BoundedNumber<R>` (in the support crate), the type every bounded number is an alias of,
/// `R` being its marker in the `rules` module, whose `NumberSchema::check` (the bounds) is
/// written out there.
pub(crate) fn bounded_number_shared() -> TokenStream {
    let support = support_crate();
    quote! {
        pub use #support::{BoundedNumber, NumberSchema};
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
