//! Integers: `bounded_integer`, the range of every `type: integer` (its bounds, width format,
//! `multipleOf`, or the integers an `enum` lists), and the shared `BoundedInteger` it aliases.

use crate::Error;
use crate::patch::{Applied, Shared, Target};
use crate::runtime::{rules_module, support_crate};
use proc_macro2::TokenStream;
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;
use std::collections::BTreeSet;

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

/// The values of a schema that admits listed integers and nothing else: `enum: [1, 2, 3]` (or
/// `enum: [n]`, a down-levelled `const`), with `type: integer` or no type. `None` when the
/// schema has no `enum` or lists anything but integers.
pub(crate) fn integer_literals(schema: &Value) -> Option<Vec<i128>> {
    let kind = schema.get("type");
    if kind.is_some_and(|kind| kind != "integer") {
        return None;
    }
    let values = schema.get("enum")?.as_array()?;
    if values.is_empty() {
        return None;
    }
    values
        .iter()
        .map(|value| {
            value
                .as_i64()
                .map(i128::from)
                .or_else(|| value.as_u64().map(i128::from))
        })
        .collect()
}

/// The step an integer's `multipleOf` requires, `None` when every integer meets it (`1`, or a
/// fraction `1/n` such as `0.5`); `Err` for a `multipleOf` an integer step cannot state (`2.5`
/// admits 5, 10, ...; the patch then does not fit, and the coverage report names the rule).
fn integer_step(schema: &Value) -> Result<Option<i128>, String> {
    let Some(value) = schema.get("multipleOf") else {
        return Ok(None);
    };
    let step = value
        .as_f64()
        .filter(|step| step.is_finite() && *step > 0.0)
        .ok_or("`multipleOf` must be a number above 0")?;
    if step.fract() == 0.0 && step < 2f64.powi(63) {
        // `as` is exact: a whole number below 2^63.
        return Ok((step > 1.0).then_some(step as i128));
    }
    let inverse = 1.0 / step;
    if inverse.fract() == 0.0 {
        return Ok(None);
    }
    Err(format!(
        "`multipleOf: {step}` on an integer is not a whole number or a fraction 1/n"
    ))
}

fn flag(target: &Target<'_>, keyword: &str) -> bool {
    target
        .schema
        .get(keyword)
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

pub(crate) fn bounded_integer(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
    // Listed integers (`enum: [1, 2, 3]`, `const: 2`) are bounded by the smallest and largest
    // and checked against the list: they then also accept `2.0`, which JSON Schema counts as
    // the integer 2.
    let listed = integer_literals(target.schema);
    let mut enforced = vec![
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "format",
        "multipleOf",
    ];
    // An `enum` is enforced only when it lists integers alone; any other is refused.
    match listed {
        Some(_) => enforced.push("enum"),
        None => expect_type(target, "integer")?,
    }
    only_keywords(target, &enforced)?;
    let step = integer_step(target.schema).map_err(|reason| target.error(reason))?;
    let minimum = integer_bound(target, "minimum", false)?
        .map(|value| value + i128::from(flag(target, "exclusiveMinimum")));
    let maximum = integer_bound(target, "maximum", true)?
        .map(|value| value - i128::from(flag(target, "exclusiveMaximum")));
    // A width format (`int32`) is one more pair of bounds; any other format on an integer is
    // an annotation (`unixtime`).
    let (minimum, maximum) = match target
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
    };
    // The listed values are bounds too (the smallest and largest), and a list of one is the
    // range of that one value, which needs no list.
    let (minimum, maximum, listed) = match listed {
        Some(values) => {
            let (least, most) = (values.iter().min().copied(), values.iter().max().copied());
            let minimum = minimum.into_iter().chain(least).max();
            let maximum = maximum.into_iter().chain(most).min();
            let values: BTreeSet<i128> = values.into_iter().collect();
            (minimum, maximum, (values.len() > 1).then_some(values))
        }
        None => (minimum, maximum, None),
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
            let admitted = |value: i128| {
                (minimum..=maximum).contains(&value)
                    && listed.as_ref().is_none_or(|listed| listed.contains(&value))
                    && step.is_none_or(|step| value % step == 0)
            };
            match value {
                Some(value) if admitted(value) => Some(literal(value)),
                _ => return Err(target.error("`default` is not an integer the schema admits")),
            }
        }
    };
    let ident = &target.ident;
    let mut rules = match (minimum == lowest && !unsigned, maximum == highest) {
        _ if minimum == maximum => format!("exactly {minimum}"),
        _ if listed.is_some() => {
            let values: Vec<String> = listed.iter().flatten().map(i128::to_string).collect();
            format!("one of {}", values.join(", "))
        }
        (false, false) => format!("{minimum} to {maximum}"),
        (false, true) => format!("at least {minimum}"),
        (true, false) => format!("at most {maximum}"),
        (true, true) => "any integer".to_owned(),
    };
    if let Some(step) = step {
        rules.push_str(&format!(", a multiple of {step}"));
    }
    let doc = target.doc(&rules);
    let has_default = default.is_some();
    let default = default.map(|value| quote! { , default #value });
    let listed = listed.map(|values| {
        let values = values.into_iter().map(literal);
        quote! { , one of [#(#values),*] }
    });
    let step = step.map(|step| {
        let step = literal(step);
        quote! { , multiple of #step }
    });
    let rules_module = rules_module();
    let item = quote! {
        #doc
        pub type #ident = BoundedInteger<#rules_module::#ident>;
        bounded_integer!(#ident(#repr) = #min..=#max #listed #step #default);
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
/// `R` being its marker in the `rules` module, which holds its bounds, and the support crate's
/// `bounded_integer!(Name(repr) = MIN..=MAX [, one of [V, ...]] [, multiple of N]
/// [, default VALUE])`, which writes a marker's bounds, listed values and step.
pub(crate) fn bounded_integer_shared() -> TokenStream {
    let support = support_crate();
    let macros = crate::runtime::support_macros();
    quote! {
        pub use #support::{BoundedInteger, IntegerBounds, IntegerDefault};
        use #macros::bounded_integer;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn listed_integers_are_read_exactly_and_anything_else_is_not_a_list() {
        assert_eq!(integer_literals(&json!({"enum": [2]})), Some(vec![2]));
        assert_eq!(
            integer_literals(&json!({"type": "integer", "enum": [u64::MAX, -1]})),
            Some(vec![i128::from(u64::MAX), -1])
        );
        assert_eq!(
            integer_literals(&json!({"enum": [2, 3, 1]})),
            Some(vec![2, 3, 1])
        );
        assert_eq!(integer_literals(&json!({"enum": [2, 2.5]})), None);
        assert_eq!(integer_literals(&json!({"enum": [2, "3"]})), None);
        assert_eq!(integer_literals(&json!({"enum": []})), None);
        assert_eq!(
            integer_literals(&json!({"type": "string", "enum": [2]})),
            None
        );
        assert_eq!(integer_literals(&json!({"type": "integer"})), None);
    }

    #[test]
    fn an_integer_step_is_kept_only_when_some_integer_breaks_it() {
        assert_eq!(integer_step(&json!({"type": "integer"})), Ok(None));
        assert_eq!(integer_step(&json!({"multipleOf": 1})), Ok(None));
        assert_eq!(integer_step(&json!({"multipleOf": 1.0})), Ok(None));
        assert_eq!(integer_step(&json!({"multipleOf": 0.25})), Ok(None));
        assert_eq!(integer_step(&json!({"multipleOf": 5})), Ok(Some(5)));
        assert_eq!(integer_step(&json!({"multipleOf": 5.0})), Ok(Some(5)));
        assert!(integer_step(&json!({"multipleOf": 2.5})).is_err());
        assert!(integer_step(&json!({"multipleOf": 0})).is_err());
        assert!(integer_step(&json!({"multipleOf": "2"})).is_err());
    }
}
