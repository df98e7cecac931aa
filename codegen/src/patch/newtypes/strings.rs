//! Strings: `validated_string`, lengths, pattern and format checked on every construction,
//! through the support crate's `ValidatedString`/`SecretString`, format checks and patterns.

use super::{expect_type, only_keywords, read_rules};
use crate::Error;
use crate::patch::{Applied, Shared, Target};
use crate::rules::{Check, Enforcement, Subject, format_check};
use crate::runtime::{rules_module, support_crate};
use proc_macro2::TokenStream;
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;
use std::collections::BTreeSet;

/// Whether [`string_checks`] has a check for `format`.
pub(crate) fn checks_format(format: &str) -> bool {
    format_check(format).is_some()
}

/// What a failed string check says it got: the value, or, for a secret, only its length.
pub(super) enum Got {
    Value,
    Length,
}

/// The checks of a string rule set (`pattern`, `minLength`, `maxLength`, `format`) as code
/// over a `value: &str`, returning `Err(ValidationError)`. `subject` prefixes messages (e.g.
/// `key {value:?} `, a format string over `value`); `got`, when given, renders the offending
/// value after `; got `.
pub(super) fn string_checks(
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
pub(super) fn string_rules(schema: &Value) -> Vec<String> {
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
            if let Some(checked) = format_check(other) {
                rules.push(checked.rule.trim_start_matches("be ").to_owned());
            }
        }
        None => {}
    }
    rules
}

pub(crate) fn validated_string(
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

/// `ValidatedString<R>` and `SecretString<R>` (in the support crate), the types every validated
/// string is an alias of, `R` being its marker in the `rules` module, whose
/// `StringSchema::check` is written out beside the alias.
pub(crate) fn validated_string_shared() -> TokenStream {
    let support = support_crate();
    quote! {
        pub use #support::{DateTimeText, SecretString, StringSchema, ValidatedString};
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn rules_are_worded_for_the_documentation() {
        assert_eq!(
            string_rules(
                &json!({"minLength": 1, "maxLength": 8, "pattern": "^a", "format": "uri"})
            ),
            ["1 to 8 characters", "match `^a`", "absolute URI"]
        );
        assert_eq!(
            string_rules(&json!({"maxLength": 8})),
            ["at most 8 characters"]
        );
        assert_eq!(
            string_rules(&json!({"format": "date-time"})),
            ["RFC 3339 date-time, kept as sent"]
        );
        // A format that is only an annotation adds no rule.
        assert_eq!(
            string_rules(&json!({"format": "unixtime"})),
            Vec::<String>::new()
        );
    }
}
