//! Newtype patches: integers, arrays, maps and strings whose rules typify drops or words
//! differently, emitted as newtypes that check every rule both when decoding JSON and when
//! built in Rust (`new`, `TryFrom`), so there is no public way to hold an invalid value.
//! One submodule per kind (`integers`, `numbers`, `arrays`, `strings`, `maps`); this module
//! holds what they share: which keywords a patch may pass over, and the checks of values.
//!
//! The check of each rule (string lengths, pattern, format; number bounds; item and entry
//! counts) is [`Rule::enforcement`]'s: this module arranges the checks into types. Integer
//! bounds are the exception: they become the range of a `bounded_integer!`, read exactly (a
//! 64-bit bound does not survive the `f64` of [`Rule::Minimum`]), and so do an integer's listed
//! values and its `multipleOf`.
//!
//! Messages have one shape: `must <rule>; got <value>`. For secrets the value is never shown,
//! only its length.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::{Shared, Target};
use crate::Error;
use crate::model::mark;
use crate::rules::{Check, Enforcement, Rule, Subject};
use std::collections::BTreeSet;

mod arrays;
mod integers;
mod maps;
mod numbers;
mod strings;

pub(super) use arrays::bounded_array;
pub(super) use integers::{bounded_integer, bounded_integer_shared, integer_literals};
pub(super) use maps::validated_map;
pub(super) use numbers::{bounded_number, bounded_number_shared, number_default_shared};
pub(super) use strings::{checks_format, validated_string, validated_string_shared};

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

pub(super) fn expect_type(target: &Target<'_>, kind: &str) -> Result<(), Error> {
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

/// A `type: number` with `minimum`/`maximum` (inclusive or exclusive): a newtype over a finite
/// `f64` that refuses values outside the bounds.
/// The rules of `schema`, refusing any of `keywords` that is there but could not be read as a
/// rule (a length that is not a whole number, a bound that is not a number): it would
/// otherwise go unchecked.
pub(super) fn read_rules(
    target: &Target<'_>,
    schema: &Value,
    keywords: &[&str],
) -> Result<Vec<Rule>, Error> {
    let read = Rule::from_schema(schema);
    match keywords
        .iter()
        .find(|key| schema.get(**key).is_some() && !read.iter().any(|rule| rule.keyword() == **key))
    {
        Some(key) => Err(target.error(format!("`{key}` is not a value the rule takes"))),
        None => Ok(read),
    }
}

/// The checks of the target's rules on `subject` (numbers, item lists or entry counts), each
/// returning `Err(ValidationError)` with `must <rule>; got <got>`, and each rule's words after
/// "must"; `keywords` are the subject's, refused when they cannot be read ([`read_rules`]).
pub(super) fn value_checks(
    target: &Target<'_>,
    subject: Subject,
    got: TokenStream,
    keywords: &[&str],
    shared: &mut BTreeSet<Shared>,
) -> Result<(Vec<TokenStream>, Vec<String>), Error> {
    let mut checks = Vec::new();
    let mut musts = Vec::new();
    for rule in read_rules(target, target.schema, keywords)? {
        // Every array has at least no items, and every map no entries.
        if matches!(rule, Rule::MinItems(0) | Rule::MinProperties(0)) {
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

/// `bail!("must be at least {}; got {}", 1, value)`, which every generated check fails
/// through (the support crate's: it returns the `ValidationError` with that message).
pub(super) fn bail_macro() -> TokenStream {
    let macros = crate::runtime::support_macros();
    quote! {
        use #macros::bail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_listed_keywords_and_foreign_extensions_but_not_rule_marks() {
        for key in [
            "description",
            "example",
            "deprecated",
            "xml",
            "x-vendor-note",
        ] {
            assert!(is_annotation(key), "{key}");
        }
        // The marks carry rules through the pipeline, and an author's decision is read by
        // `infer`: a patch meeting one must not pass over it as documentation.
        for key in [
            mark::PREFIX_ITEMS,
            mark::PROPERTY_NAMES,
            mark::ANY_OF,
            mark::OPEN_ENUM,
            mark::SECRET,
            "minLength",
            "pattern",
        ] {
            assert!(!is_annotation(key), "{key}");
        }
    }
}
