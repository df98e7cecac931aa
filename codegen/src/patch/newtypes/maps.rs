//! Maps: `validated_map`, an object whose keys (`propertyNames`), values and number of entries
//! (`minProperties`, `maxProperties`) carry rules, and the map of a `deepObject` query
//! parameter (`x-deep-object`), written `name[key]=value` per entry.
//!
//! The key schema may be given by a `$ref` (a component string schema, an enum of language
//! codes), and may list its keys (`enum`): a key the list does not hold is refused, except by
//! tolerant decoding of a type that may come from the server, which keeps it as a newer server
//! may add one, as a string enum keeps an unlisted value.
//!
//! The number of entries is checked whenever a map is built or decoded, tolerantly too (as a
//! string's length or an array's item count is), and an unlisted key a tolerant map keeps counts
//! as an entry. With `minProperties` above zero there is no empty map to start from (`new`,
//! `Default`): a map is built whole, with `try_from`; `insert` refuses a key that would take the
//! map past `maxProperties`.

use crate::Error;
use crate::model::mark;
use crate::patch::{Applied, Shared, Target, rust_type_of};
use proc_macro2::TokenStream;
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;
use std::collections::BTreeSet;

use super::strings::{string_checks, string_rules};
use super::{expect_type, number, only_keywords, value_checks};
use crate::rules::Subject;

pub(crate) fn validated_map(
    document: &Value,
    target: &Target<'_>,
    secret: bool,
    applied: &mut Applied,
) -> Result<(), Error> {
    expect_type(target, "object")?;
    only_keywords(
        target,
        &[
            "additionalProperties",
            mark::PROPERTY_NAMES,
            mark::DEEP_OBJECT,
            "minProperties",
            "maxProperties",
        ],
    )?;
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
    let sizes = map_sizes(target, &mut applied.shared)?;
    let mut rules = sizes
        .rule
        .iter()
        .cloned()
        .chain(
            string_rules(&names)
                .into_iter()
                .map(|rule| format!("keys {rule}")),
        )
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
        let check_size = &sizes.of_decoded_map;
        (
            quote! { value: &str, unlisted_allowed: bool },
            quote! {
                #check_size
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
    // A map without `propertyNames` takes any key, and has no key check to call.
    let (check_inserted, check_each_key, check_key_function) =
        if target.schema.get(mark::PROPERTY_NAMES).is_some() {
            let check_each = check_strictly(quote! { key });
            (
                check_strictly(quote! { &key }),
                quote! {
                    for key in map.keys() {
                        #check_each
                    }
                },
                quote! {
                    fn check_key(#check_parameters) -> ::std::result::Result<(), ValidationError> {
                        #listed_check
                        #key_checks
                        Ok(())
                    }
                },
            )
        } else {
            (quote! {}, quote! {}, quote! {})
        };
    let MapSizes {
        of_map: check_size,
        on_insert: check_growth,
        function: check_size_function,
        empty,
        ..
    } = sizes;
    let (default_derive, new) = if empty {
        (
            quote! { , Default },
            quote! {
                /// An empty map.
                pub fn new() -> Self {
                    Self::default()
                }
            },
        )
    } else {
        (quote! {}, quote! {})
    };
    let insert_doc = match (check_inserted.is_empty(), check_growth.is_empty()) {
        (false, true) => quote! { /// Checks `key`, then inserts; returns the value the key had.
        },
        (false, false) => quote! {
            /// Checks `key` and the number of entries, then inserts; returns the value the key had.
        },
        (true, false) => quote! {
            /// Checks the number of entries, then inserts; returns the value the key had.
        },
        (true, true) => quote! { /// Inserts; returns the value the key had.
        },
    };
    // The map of a `deepObject` query parameter is written as `name[key]=value` per entry:
    // progenitor hands a map's entries to the query as they are, keys and all.
    let serialize = match target.schema.get(mark::DEEP_OBJECT).and_then(Value::as_str) {
        Some(name) => quote! {
            serializer.collect_map(self.0.iter().map(|(key, value)| (::std::format!("{}[{}]", #name, key), value)))
        },
        None => quote! { self.0.serialize(serializer) },
    };
    let item = quote! {
        #doc
        #[derive(Clone, PartialEq #default_derive)]
        pub struct #ident(::std::collections::BTreeMap<::std::string::String, #value_type>);
        impl #ident {
            #new
            #insert_doc
            pub fn insert(&mut self, key: impl ::std::convert::Into<::std::string::String>, value: #value_type) -> ::std::result::Result<::std::option::Option<#value_type>, ValidationError> {
                let key = key.into();
                #check_inserted
                #check_growth
                Ok(self.0.insert(key, value))
            }
            #check_key_function
            #check_size_function
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
                #check_size
                #check_each_key
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
                #serialize
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let map = ::std::collections::BTreeMap::<::std::string::String, #value_type>::deserialize(deserializer)?;
                #check_on_decode
            }
        }
    };
    let impls = if empty {
        vec![TypeImpl::Default]
    } else {
        Vec::new()
    };
    target.replace(applied, item, impls);
    Ok(())
}

/// How a map checks its number of entries (`minProperties`, `maxProperties`): each part is
/// empty for a map without such a rule, whose code stays as it was.
struct MapSizes {
    /// The rule in words, for the documentation: `at most 16 entries`.
    rule: Option<String>,
    /// `Self::check_size(map.len())?;`, for a map built whole.
    of_map: TokenStream,
    /// The same check in a `Deserialize`, its error made the decoder's.
    of_decoded_map: TokenStream,
    /// The check `insert` makes before a key the map does not hold yet makes it grow.
    on_insert: TokenStream,
    /// `fn check_size(entries: usize)`, its checks written from
    /// [`crate::rules::Rule::enforcement`].
    function: TokenStream,
    /// Whether the empty map is one (`minProperties` is zero or absent).
    empty: bool,
}

/// The size checks of the target map, from its `minProperties` and `maxProperties`.
fn map_sizes(target: &Target<'_>, shared: &mut BTreeSet<Shared>) -> Result<MapSizes, Error> {
    let (checks, _) = value_checks(
        target,
        Subject::Entries,
        quote! { entries },
        &["minProperties", "maxProperties"],
        shared,
    )?;
    let min = number(target, "minProperties")?.unwrap_or(0);
    let max = number(target, "maxProperties")?;
    let entries = |n: i128| format!("{n} {}", if n == 1 { "entry" } else { "entries" });
    let rule = match max {
        Some(max) if min > 0 => Some(format!("{min} to {}", entries(max))),
        Some(max) => Some(format!("at most {}", entries(max))),
        None if min > 0 => Some(format!("at least {}", entries(min))),
        None => None,
    };
    if checks.is_empty() {
        return Ok(MapSizes {
            rule,
            of_map: TokenStream::new(),
            of_decoded_map: TokenStream::new(),
            on_insert: TokenStream::new(),
            function: TokenStream::new(),
            empty: true,
        });
    }
    Ok(MapSizes {
        rule,
        of_map: quote! { Self::check_size(map.len())?; },
        of_decoded_map: quote! {
            Self::check_size(map.len()).map_err(::serde::de::Error::custom)?;
        },
        // Replacing the value of a key the map holds leaves its size as it is.
        on_insert: quote! {
            Self::check_size(self.0.len() + usize::from(!self.0.contains_key(&key)))?;
        },
        function: quote! {
            fn check_size(entries: usize) -> ::std::result::Result<(), ValidationError> {
                #(#checks)*
                Ok(())
            }
        },
        empty: min <= 0,
    })
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
