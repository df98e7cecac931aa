//! Integers: `bounded_integer`, the range of every `type: integer` (its bounds and width
//! format, or one integer literal), and the shared `BoundedInteger` it aliases.

use crate::Error;
use crate::patch::{Applied, Shared, Target};
use crate::runtime::{rules_module, support_crate};
use proc_macro2::TokenStream;
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;

use super::{expect_type, only_keywords};

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
pub(crate) fn integer_literal(schema: &Value) -> Option<i128> {
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

pub(crate) fn bounded_integer(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
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

/// `BoundedInteger<R>` (in the support crate), the type every bounded integer is an alias of,
/// `R` being its marker in the `rules` module, which holds its bounds.
/// `bounded_integer!(Name(repr) = MIN..=MAX [, default VALUE])` writes a marker's bounds.
pub(crate) fn bounded_integer_shared() -> TokenStream {
    let support = support_crate();
    quote! {
        pub use #support::{BoundedInteger, IntegerBounds, IntegerDefault};

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
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn one_integer_literal_is_read_exactly_and_anything_else_is_not_one() {
        assert_eq!(integer_literal(&json!({"enum": [2]})), Some(2));
        assert_eq!(
            integer_literal(&json!({"type": "integer", "enum": [u64::MAX]})),
            Some(i128::from(u64::MAX))
        );
        assert_eq!(integer_literal(&json!({"enum": [2, 3]})), None);
        assert_eq!(integer_literal(&json!({"enum": [2.5]})), None);
        assert_eq!(
            integer_literal(&json!({"type": "string", "enum": [2]})),
            None
        );
        assert_eq!(integer_literal(&json!({"type": "integer"})), None);
    }
}
