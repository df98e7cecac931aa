//! Maps: `validated_map`, an object whose keys (`propertyNames`) and values carry rules.

use crate::Error;
use crate::model::mark;
use crate::patch::{Applied, Target, rust_type_of};
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;

use super::strings::{string_checks, string_rules};
use super::{expect_type, only_keywords};

pub(crate) fn validated_map(
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
