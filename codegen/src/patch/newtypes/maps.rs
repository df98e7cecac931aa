//! Maps: `validated_map`, an object whose keys (`propertyNames`) and values carry rules.
//!
//! The key schema may be given by a `$ref` (a component string schema, an enum of language
//! codes), and may list its keys (`enum`): a key the list does not hold is refused, except by
//! tolerant decoding of a type that may come from the server, which keeps it as a newer server
//! may add one, as a string enum keeps an unlisted value.

use crate::Error;
use crate::model::mark;
use crate::patch::{Applied, Target, rust_type_of};
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;

use super::strings::{string_checks, string_rules};
use super::{expect_type, only_keywords};

pub(crate) fn validated_map(
    document: &Value,
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
    let names = key_schema(document, target)?;
    let listed = listed_keys(&names, target)?;
    let names = Value::Object(
        names
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(key, _)| matches!(key.as_str(), "pattern" | "minLength" | "maxLength"))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect(),
    );
    let key_checks = string_checks(&names, target, "key {value:?} ", None, &mut applied.shared)?;
    let ident = &target.ident;
    let mut rules = string_rules(&names)
        .into_iter()
        .map(|rule| format!("keys {rule}"))
        .collect::<Vec<_>>();
    let listed_check = match &listed {
        None => quote! {},
        Some(keys) => {
            let one_of = keys
                .iter()
                .map(|key| format!("`{key}`"))
                .collect::<Vec<_>>()
                .join(", ");
            rules.push(format!("keys one of {one_of}"));
            let must = format!(
                "key {{value:?}} must be one of {}",
                one_of.replace('{', "{{").replace('}', "}}")
            );
            quote! {
                if !unlisted_allowed && ![#(#keys),*].contains(&value) {
                    return ::std::result::Result::Err(ValidationError::new(::std::format!(#must)));
                }
            }
        }
    };
    // Where the schema lists its keys, decoding a type that may come from the server keeps an
    // unlisted key unless strict; building one (`insert`, `try_from`) refuses it.
    let is_strict = crate::runtime::is_strict();
    let listing = listed.is_some();
    let check_strictly = |key: proc_macro2::TokenStream| {
        if listing {
            quote! { Self::check_key(#key, false)?; }
        } else {
            quote! { Self::check_key(#key)?; }
        }
    };
    let (check_parameters, check_on_decode) = if listing {
        let unlisted_on_decode = if target.tolerant {
            quote! { !#is_strict }
        } else {
            quote! { false }
        };
        (
            quote! { value: &str, unlisted_allowed: bool },
            quote! {
                for key in map.keys() {
                    Self::check_key(key, #unlisted_on_decode).map_err(::serde::de::Error::custom)?;
                }
                Ok(Self(map))
            },
        )
    } else {
        (
            quote! { value: &str },
            quote! { Self::try_from(map).map_err(::serde::de::Error::custom) },
        )
    };
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
    let check_inserted = check_strictly(quote! { &key });
    let check_each = check_strictly(quote! { key });
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
                #check_inserted
                Ok(self.0.insert(key, value))
            }
            fn check_key(#check_parameters) -> ::std::result::Result<(), ValidationError> {
                #listed_check
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
                    #check_each
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
                #check_on_decode
            }
        }
    };
    target.replace(applied, item, vec![TypeImpl::Default]);
    Ok(())
}

/// The schema of the map's keys (`propertyNames`, down-levelled to `x-propertyNames`), its
/// `$ref`s followed: keywords other than a key check (`pattern`, `minLength`, `maxLength`,
/// `enum`), `type: string` and annotations are refused.
fn key_schema(document: &Value, target: &Target<'_>) -> Result<Value, Error> {
    let Some(names) = target.schema.get(mark::PROPERTY_NAMES) else {
        return Ok(Value::Object(Default::default()));
    };
    let names = crate::model::Document::new(document)
        .resolve(names)
        .ok_or_else(|| target.error("`propertyNames` refers to no schema"))?;
    let object = names
        .as_object()
        .ok_or_else(|| target.error("`propertyNames` is not a schema object"))?;
    for (key, value) in object {
        let checks_keys = matches!(key.as_str(), "pattern" | "minLength" | "maxLength" | "enum");
        let names_strings = key == "type" && value == "string";
        if !checks_keys && !names_strings && !super::is_annotation(key) {
            return Err(target.error(format!(
                "`propertyNames` may only use `pattern`, `minLength`, `maxLength` and `enum`, not `{key}`"
            )));
        }
    }
    Ok(names.clone())
}

/// The keys the key schema lists (`enum`), which must be strings.
fn listed_keys(names: &Value, target: &Target<'_>) -> Result<Option<Vec<String>>, Error> {
    let Some(listed) = names.get("enum") else {
        return Ok(None);
    };
    listed
        .as_array()
        .into_iter()
        .flatten()
        .map(|key| {
            key.as_str().map(str::to_owned).ok_or_else(|| {
                target.error(format!(
                    "`propertyNames` lists {key}, which is not a string"
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
