//! Union patches: `oneOf` schemas that typify would turn into untagged enums (or `Value`s),
//! emitted as enums that decode exactly what the schema admits, with messages that say why.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::{Applied, Target, rust_ident};
use crate::Error;
use crate::model::schema_ref_name;

/// The component names of a `oneOf` (or, for a tagged union, `anyOf`: members with distinct
/// constant tags can never both match) whose members are all `$ref`s.
fn ref_members(target: &Target<'_>) -> Result<Vec<String>, Error> {
    let members = target
        .schema
        .get("oneOf")
        .or_else(|| target.schema.get("anyOf"))
        .and_then(Value::as_array)
        .ok_or_else(|| target.error("expected a `oneOf` or `anyOf`"))?;
    members
        .iter()
        .enumerate()
        .map(|(index, member)| {
            member
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(schema_ref_name)
                .map(str::to_owned)
                .ok_or_else(|| {
                    target.error(format!(
                        "`oneOf/{index}` is not a `$ref` to a component schema"
                    ))
                })
        })
        .collect()
}

pub(super) fn tagged(
    document: &mut Value,
    target: &Target<'_>,
    tag: &str,
    applied: &mut Applied,
) -> Result<(), Error> {
    let mut arms = Vec::new();
    let variants = ref_members(target)?;
    let uses: Vec<usize> = variants
        .iter()
        .map(|variant| applied.ref_counts.get(variant).copied().unwrap_or(0))
        .collect();
    for (variant, uses) in variants.into_iter().zip(uses) {
        let schema = document
            .pointer_mut(&format!("/components/schemas/{variant}"))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| target.error(format!("variant `{variant}` is not a schema mapping")))?;
        // A variant only this union uses gives its tag to the union; one used elsewhere too
        // keeps it (its own type must still read and write the tag there), and the union hands
        // the tag on to it.
        let keeps_tag = uses != 1;
        let value = tag_value(schema, tag, !keeps_tag)
            .map_err(|reason| target.error(format!("variant `{variant}`: {reason}")))?;
        arms.push((value, variant, keeps_tag));
    }
    // serde writes `#[serde(untagged)]` variants (which write their own tag) only after the
    // others.
    arms.sort_by_key(|(_, _, keeps_tag)| *keeps_tag);
    let mut seen = BTreeSet::new();
    if let Some((duplicate, ..)) = arms.iter().find(|(value, ..)| !seen.insert(value.clone())) {
        return Err(target.error(format!("two variants share the tag value `{duplicate}`")));
    }

    let ident = &target.ident;
    let mut variants = Vec::new();
    let mut decode_arms = Vec::new();
    let mut conversions = Vec::new();
    let rules = format!(
        "tag `{tag}` is one of {}",
        arms.iter()
            .map(|(value, ..)| format!("`{value}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (value, variant, keeps_tag) in &arms {
        let variant_ident = rust_ident(value, &target.patch.target)?;
        let inner = rust_ident(variant, &target.patch.target)?;
        conversions.push(from_variant(ident, &variant_ident, &inner));
        if *keeps_tag {
            variants.push(quote! { #[serde(untagged)] #variant_ident(#inner), });
            decode_arms.push(quote! { #value => #variant_ident(#inner) [keeps_tag], });
            continue;
        }
        variants.push(quote! { #[serde(rename = #value)] #variant_ident(#inner), });
        decode_arms.push(quote! { #value => #variant_ident(#inner), });
        applied
            .tagged_variants
            .push((variant.clone(), ident.clone(), variant_ident.clone()));
    }
    let expecting = format!("a `{}` object tagged by `{tag}`", target.name);
    // A tolerant union keeps an object with a tag it does not know, tag included, so that it
    // serializes back unchanged; strict decoding refuses it.
    let (unknown_variant, unknown, non_exhaustive) = if target.tolerant {
        (
            quote! {
                /// A variant this client's spec does not list, as the hub sent it (tag
                /// included; a newer hub may add variants). Strict decoding and requests refuse it.
                #[serde(untagged)]
                Unknown(::serde_json::Map<::std::string::String, ::serde_json::Value>),
            },
            quote! { Unknown },
            quote! { #[non_exhaustive] },
        )
    } else {
        (quote! {}, quote! {}, quote! {})
    };
    let doc = target.doc(&rules);
    // Deserialize is written out rather than derived: serde's `#[serde(tag)]` buffers every
    // object and decodes it twice. `tagged_union!` (see `replay_support`) reads the tag and
    // decodes the variant straight from the rest of the map; only entries that come before the
    // tag are buffered, then replayed.
    let item = quote! {
        #doc
        #[derive(::serde::Serialize, Clone, Debug, PartialEq)]
        #[serde(tag = #tag)]
        #non_exhaustive
        pub enum #ident { #(#variants)* #unknown_variant }
        tagged_union!(#ident, #tag, #expecting, [#unknown] { #(#decode_arms)* });
        #(#conversions)*
    };
    applied.shared.insert(super::Shared::TaggedUnion);
    target.replace(applied, item, Vec::new());
    Ok(())
}

pub(super) fn exclusive(
    document: &Value,
    target: &Target<'_>,
    keys: &[&str],
    applied: &mut Applied,
) -> Result<(), Error> {
    let is_strict = crate::runtime::is_strict();
    let members = ref_members(target)?;
    if members.len() != keys.len() {
        return Err(target.error(format!(
            "{} variants but {} keys",
            members.len(),
            keys.len()
        )));
    }
    let ident = &target.ident;
    let mut variants = Vec::new();
    let mut arms = Vec::new();
    let mut conversions = Vec::new();
    for (variant, key) in members.iter().zip(keys) {
        let required = document
            .pointer(&format!("/components/schemas/{variant}/required"))
            .and_then(Value::as_array)
            .is_some_and(|required| required.iter().any(|name| name == key));
        if !required {
            return Err(target.error(format!("variant `{variant}` does not require `{key}`")));
        }
        // `WebhookJobFromSpace` in `WebhookJob` reads better as `WebhookJob::FromSpace`.
        let short = variant
            .strip_prefix(target.name)
            .filter(|rest| !rest.is_empty())
            .unwrap_or(variant);
        let variant_ident = rust_ident(short, &target.patch.target)?;
        let inner = rust_ident(variant, &target.patch.target)?;
        variants.push(quote! { #variant_ident(#inner), });
        arms.push(quote! { [#key] => decode_variant::<#inner, D::Error>(::serde_json::Value::Object(object)).map(Self::#variant_ident), });
        conversions.push(from_variant(ident, &variant_ident, &inner));
    }
    let listed = keys
        .iter()
        .map(|key| format!("`{key}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let neither = format!("must have exactly one of {listed}; got none");
    let several = format!("must have exactly one of {listed}; got ");
    let doc = target.doc(&format!("exactly one of {listed}"));
    // A tolerant union keeps an object with none or several of the keys (a newer hub may add a
    // variant) as it came; strict decoding refuses it.
    let (unknown_variant, unknown_arm, non_exhaustive) = if target.tolerant {
        (
            quote! {
                /// An object with none or several of the keys, as the hub sent it (a newer hub
                /// may add variants). Strict decoding and requests refuse it.
                Unknown(::serde_json::Map<::std::string::String, ::serde_json::Value>),
            },
            quote! {
                _ if !#is_strict => Ok(Self::Unknown(object)),
            },
            quote! { #[non_exhaustive] },
        )
    } else {
        (quote! {}, quote! {}, quote! {})
    };
    let decode_variant = decode_variant_fn();
    let item = quote! {
        #doc
        #[derive(::serde::Serialize, Clone, Debug, PartialEq)]
        #[serde(untagged)]
        #non_exhaustive
        pub enum #ident { #(#variants)* #unknown_variant }
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                use ::serde::de::Error as _;
                // The variant depends on which keys are present, so the object is read whole
                // first; the chosen variant is then decoded with its own error paths.
                #decode_variant
                let object = match ::serde_json::Value::deserialize(deserializer)? {
                    ::serde_json::Value::Object(object) => object,
                    value => return Err(D::Error::custom(::std::format_args!("must be an object; got {}", value))),
                };
                let present: ::std::vec::Vec<&str> = [#(#keys),*].into_iter().filter(|key| object.contains_key(*key)).collect();
                match present.as_slice() {
                    #(#arms)*
                    #unknown_arm
                    [] => Err(D::Error::custom(#neither)),
                    several => Err(D::Error::custom(::std::format_args!("{}{}", #several, several.iter().map(|key| ::std::format!("`{key}`")).collect::<::std::vec::Vec<_>>().join(" and ")))),
                }
            }
        }
        #(#conversions)*
    };
    target.replace(applied, item, Vec::new());
    Ok(())
}

/// `fn decode_variant`, which decodes one variant from a JSON value with its error paths
/// (`items[0].name: ...`), for the unions that read the value whole before choosing.
fn decode_variant_fn() -> TokenStream {
    quote! {
        fn decode_variant<T: ::serde::de::DeserializeOwned, E: ::serde::de::Error>(value: ::serde_json::Value) -> ::std::result::Result<T, E> {
            ::serde_path_to_error::deserialize(value).map_err(|error| {
                if error.path().iter().next().is_none() {
                    E::custom(error.inner())
                } else {
                    E::custom(::std::format_args!("{}: {}", error.path(), error.inner()))
                }
            })
        }
    }
}

pub(super) fn literal(
    target: &Target<'_>,
    variants: &[(&str, &str)],
    applied: &mut Applied,
) -> Result<(), Error> {
    let is_strict = crate::runtime::is_strict();
    let admitted = admitted_literals(target.schema)
        .ok_or_else(|| target.error("cannot list the values this schema admits"))?;
    let mut listed = BTreeSet::new();
    let mut parsed = Vec::new();
    for (name, literal) in variants {
        let value: Value = serde_json::from_str(literal)
            .map_err(|_| target.error(format!("`{literal}` is not a JSON literal")))?;
        listed.insert(value.to_string());
        parsed.push((rust_ident(name, &target.patch.target)?, value));
    }
    if listed != admitted {
        return Err(target.error(format!(
            "the patch lists {listed:?} but the schema admits {admitted:?}"
        )));
    }
    if let Some(wires) = parsed
        .iter()
        .map(|(_, value)| value.as_str())
        .collect::<Option<Vec<&str>>>()
    {
        let names: Vec<&syn::Ident> = parsed.iter().map(|(name, _)| name).collect();
        string_literals(target, &names, &wires, variants, applied);
        return Ok(());
    }
    let ident = &target.ident;
    let mut names = Vec::new();
    let mut serialize = Vec::new();
    let mut deserialize = Vec::new();
    for (name, value) in &parsed {
        names.push(name);
        let (write, read) = match value {
            Value::Bool(flag) => (
                quote! { serializer.serialize_bool(#flag) },
                quote! { ::serde_json::Value::Bool(#flag) },
            ),
            Value::String(text) => (
                quote! { serializer.serialize_str(#text) },
                quote! { ::serde_json::Value::String(text) if text == #text },
            ),
            Value::Null => (
                quote! { serializer.serialize_unit() },
                quote! { ::serde_json::Value::Null },
            ),
            // A number is compared by value (JSON Schema's `2` is `2.0`), and sent as written.
            Value::Number(number) => {
                let write = if let Some(integer) = number.as_i64() {
                    quote! { serializer.serialize_i64(#integer) }
                } else if let Some(integer) = number.as_u64() {
                    quote! { serializer.serialize_u64(#integer) }
                } else {
                    let float = number.as_f64().unwrap_or_default();
                    quote! { serializer.serialize_f64(#float) }
                };
                let float = number.as_f64().unwrap_or_default();
                (
                    write,
                    quote! { ::serde_json::Value::Number(number) if number.as_f64() == ::std::option::Option::Some(#float) },
                )
            }
            _ => {
                return Err(
                    target.error("only boolean, number, string and null literals are supported")
                );
            }
        };
        serialize.push(quote! { Self::#name => #write, });
        deserialize.push(quote! { #read => Ok(Self::#name), });
    }
    let literals = variants
        .iter()
        .map(|(_, literal)| *literal)
        .collect::<Vec<_>>()
        .join(" | ");
    let expected = format!("must be one of {}; got ", literals.replace(" | ", ", "));
    let doc = target.doc(&format!("exactly `{literals}`"));
    // A tolerant union keeps a string it does not list (a newer hub may add one) as it came;
    // strict decoding refuses it. It then holds a `String`, so it is not `Copy`.
    let (derives, unknown_variant, unknown_write, unknown_read) = if target.tolerant {
        (
            quote! { #[derive(Clone, Debug, PartialEq, Eq, Hash)] #[non_exhaustive] },
            quote! {
                /// A string this client's spec does not list, as the hub sent it (a newer hub
                /// may add values). Strict decoding and requests refuse it.
                Unknown(::std::string::String),
            },
            quote! { Self::Unknown(text) => serializer.serialize_str(text), },
            quote! { ::serde_json::Value::String(text) if !#is_strict => Ok(Self::Unknown(text)), },
        )
    } else {
        (
            quote! { #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)] },
            quote! {},
            quote! {},
            quote! {},
        )
    };
    let item = quote! {
        #doc
        #derives
        pub enum #ident { #(#names,)* #unknown_variant }
        impl ::serde::Serialize for #ident {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self { #(#serialize)* #unknown_write }
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                use ::serde::de::Error as _;
                match ::serde_json::Value::deserialize(deserializer)? {
                    #(#deserialize)*
                    #unknown_read
                    other => Err(D::Error::custom(::std::format_args!("{}{}", #expected, other))),
                }
            }
        }
    };
    target.replace(applied, item, Vec::new());
    Ok(())
}

/// A literal union of strings only (strings typify cannot name apart, such as `"1"` and `"X1"`)
/// as the string enum it is: the enum and one `string_enum!` invocation, as every string enum
/// typify names is written (`emit::tolerance`), instead of a `match` arm per value in each of
/// `Serialize` and `Deserialize`. A tolerant one keeps an unlisted string in its catch-all
/// variant, `Unknown` unless a value took that name.
fn string_literals(
    target: &Target<'_>,
    names: &[&syn::Ident],
    wires: &[&str],
    variants: &[(&str, &str)],
    applied: &mut Applied,
) {
    let ident = &target.ident;
    let literals = variants
        .iter()
        .map(|(_, literal)| *literal)
        .collect::<Vec<_>>()
        .join(" | ");
    let doc = target.doc(&format!("exactly `{literals}`"));
    let (derives, mode, catch_all) = if target.tolerant {
        let taken: BTreeSet<String> = names.iter().map(ToString::to_string).collect();
        let catch = crate::normalize::unique_name("Unknown", &taken);
        let catch = syn::Ident::new(&catch, proc_macro2::Span::call_site());
        (
            quote! { #[derive(Clone, Debug, PartialEq, Eq, Hash)] #[non_exhaustive] },
            quote!(tolerant #catch),
            quote! {
                /// A string this client's spec does not list, as the server sent it (a newer
                /// server may add values). Strict decoding and requests refuse it.
                #catch(::std::string::String),
            },
        )
    } else {
        (
            quote! { #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)] },
            quote!(strict),
            quote!(),
        )
    };
    let item = quote! {
        #doc
        #derives
        pub enum #ident { #(#names,)* #catch_all }
        string_enum!(#ident [#mode] { #(#names = #wires,)* });
    };
    applied.shared.insert(super::Shared::StringEnum);
    target.replace(applied, item, Vec::new());
}

/// The support code every `string_enum!` invocation names, beside the enums typify wrote
/// (`emit::tolerance`) or a patch did ([`string_literals`]): the macro itself (see its docs in
/// the support crate's `enums`: one shared `Deserialize` visitor and one shared `FromStr` body,
/// where serde's derive wrote a visitor per enum and also took `{"value": null}` for a value),
/// the traits it implements, and `parse_string_enum`, every `FromStr` and `TryFrom` of one. What becomes of an unlisted value is a constant, `Unlisted`,
/// not a function of each enum. Emitted by both, it is spliced in once.
pub(crate) fn string_enum_support() -> TokenStream {
    let support = crate::runtime::support_crate();
    let macros = crate::runtime::support_macros();
    quote! {
        use #macros::string_enum;
        use #support::enums::{StringEnum, StringEnumVisitor, Unlisted, parse_string_enum};
    }
}

/// Every JSON value (as JSON text) a schema made of `enum`s and `boolean` types admits.
fn admitted_literals(schema: &Value) -> Option<BTreeSet<String>> {
    if let Some(members) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    {
        return members
            .iter()
            .map(admitted_literals)
            .try_fold(BTreeSet::new(), |mut all, some| {
                all.extend(some?);
                Some(all)
            });
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.iter().map(Value::to_string).collect());
    }
    (schema.get("type").and_then(Value::as_str) == Some("boolean"))
        .then(|| ["false".to_owned(), "true".to_owned()].into())
}

fn from_variant(ident: &syn::Ident, variant: &syn::Ident, inner: &syn::Ident) -> TokenStream {
    quote! {
        impl ::std::convert::From<#inner> for #ident {
            fn from(value: #inner) -> Self {
                Self::#variant(value)
            }
        }
    }
}

/// The value of the required, single-valued string property `tag`, which `take` removes.
fn tag_value(
    schema: &mut serde_json::Map<String, Value>,
    tag: &str,
    take: bool,
) -> Result<String, String> {
    let properties = schema
        .get_mut("properties")
        .and_then(Value::as_object_mut)
        .ok_or("has no `properties`")?;
    let property = properties
        .get(tag)
        .ok_or_else(|| format!("has no `{tag}` property"))?;
    let value = match property
        .get("enum")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([Value::String(value)]) => value.clone(),
        _ => return Err(format!("property `{tag}` is not a `const` string")),
    };
    let required = schema
        .get_mut("required")
        .and_then(Value::as_array_mut)
        .filter(|required| required.iter().any(|name| name == tag))
        .ok_or_else(|| format!("does not require `{tag}`"))?;
    if take {
        required.retain(|name| name != tag);
        if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            properties.remove(tag);
        }
    }
    Ok(value)
}

/// How many `$ref`s anywhere in the document point at each component schema, in one walk,
/// taken once before the patches run (none of them adds or removes a `$ref`): walking the
/// document for every union made patching quadratic.
pub(super) fn schema_ref_counts(document: &Value) -> BTreeMap<String, usize> {
    fn walk<'a>(value: &'a Value, counts: &mut BTreeMap<&'a str, usize>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    match (key.as_str(), child) {
                        ("$ref", Value::String(reference)) => {
                            if let Some(name) = schema_ref_name(reference) {
                                *counts.entry(name).or_default() += 1;
                            }
                        }
                        _ => walk(child, counts),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, counts)),
            _ => {}
        }
    }
    let mut counts = BTreeMap::new();
    walk(document, &mut counts);
    counts
        .into_iter()
        .map(|(name, count)| (name.to_owned(), count))
        .collect()
}

/// Shared by every tagged union: `tagged_union!`, the `Deserialize` each union invokes, which
/// calls the support crate's `unions`: `read_tag` reads up to the tag, keeping the entries
/// before it; `variant` decodes the variant from those entries, then the rest of the live map,
/// so the variant sees the object without its tag; `unknown` keeps an object whose tag this
/// client does not know, as sent.
///
/// `tagged_union!(Name, "tag", "expecting", [Unknown] { "value" => Variant(Inner), ... })`:
/// `[Unknown]` for a tolerant union (an unknown tag is kept unless decoding is strict), `[]`
/// otherwise; an arm marked `[keeps_tag]` is a variant whose own type reads the tag, which is
/// then handed on to it first.
pub(super) fn replay_support() -> TokenStream {
    let is_strict = crate::runtime::is_strict();
    let support = crate::runtime::support_crate();
    quote! {
        macro_rules! tagged_union {
            ($name:ident, $tag:literal, $expecting:literal, [$($unknown:ident)?] {
                $($value:literal => $variant:ident($inner:ty) $([$keeps_tag:ident])?,)*
            }) => {
                impl<'de> ::serde::Deserialize<'de> for $name {
                    fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                        struct Visitor;
                        impl<'de> ::serde::de::Visitor<'de> for Visitor {
                            type Value = $name;
                            fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                                f.write_str($expecting)
                            }
                            fn visit_map<M: ::serde::de::MapAccess<'de>>(self, mut map: M) -> ::std::result::Result<$name, M::Error> {
                                let (tag, before) = #support::unions::read_tag(&mut map, $tag)?;
                                match &*tag {
                                    $($value => {
                                        #[allow(unused_mut)]
                                        let mut before = before;
                                        // A variant that keeps its tag reads it like any field.
                                        $(let _ = stringify!($keeps_tag); before.insert(0, ($tag.to_owned(), ::serde_json::Value::String(tag.clone().into_owned()))); )?
                                        #support::unions::variant::<$inner, M>(before, map).map($name::$variant)
                                    })*
                                    $(other if !#is_strict => {
                                        #support::unions::unknown(before, map, $tag, other).map($name::$unknown)
                                    })?
                                    other => ::std::result::Result::Err(<M::Error as ::serde::de::Error>::unknown_variant(other, &[$($value),*])),
                                }
                            }
                        }
                        deserializer.deserialize_map(Visitor)
                    }
                }
            };
        }

    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::patch::{Action, Patch, apply};

    fn union() -> Patch {
        Patch::on("Shape", Action::TaggedUnion { tag: "kind".into() }, "test")
    }

    fn document() -> Value {
        json!({"components": {"schemas": {
            "Shape": {"oneOf": [{"$ref": "#/components/schemas/Circle"}, {"$ref": "#/components/schemas/Square"}]},
            "Circle": {"type": "object", "required": ["kind", "r"], "additionalProperties": false,
                       "properties": {"kind": {"type": "string", "enum": ["circle"]}, "r": {"type": "number"}}},
            "Square": {"type": "object", "required": ["kind"],
                       "properties": {"kind": {"type": "string", "enum": ["square_box"]}, "side": {"type": "number"}}}
        }}})
    }

    #[test]
    fn tagged_union_moves_the_tag_to_the_enum() {
        let mut doc = document();
        let applied = apply(&mut doc, &[union()]).unwrap();
        assert_eq!(
            doc["components"]["schemas"]["Circle"]["required"],
            json!(["r"])
        );
        assert!(
            doc["components"]["schemas"]["Square"]["properties"]
                .get("kind")
                .is_none()
        );
        assert_eq!(applied.replacements[0].schema, "Shape");
        let code = applied.items[0].to_string();
        assert!(code.contains("# [serde (tag = \"kind\")]"), "{code}");
        assert!(code.contains("SquareBox (Square)"), "{code}");
    }

    #[test]
    fn an_any_of_with_constant_tags_is_a_tagged_union_too() {
        let mut doc = document();
        let shape = &mut doc["components"]["schemas"]["Shape"];
        shape["anyOf"] = shape["oneOf"].take();
        shape.as_object_mut().unwrap().remove("oneOf");
        let applied = apply(&mut doc, &[]).unwrap();
        assert_eq!(applied.replacements[0].schema, "Shape");
        let code = applied.items[0].to_string();
        assert!(code.contains("# [serde (tag = \"kind\")]"), "{code}");
    }

    #[test]
    fn a_variant_used_elsewhere_keeps_its_tag() {
        let mut doc = document();
        doc["components"]["schemas"]["Other"] = json!({"$ref": "#/components/schemas/Circle"});
        let applied = apply(&mut doc, &[union()]).unwrap();
        // Circle keeps `kind` (its own type still reads and writes it elsewhere); Square gives
        // it to the union.
        assert_eq!(
            doc["components"]["schemas"]["Circle"]["required"],
            json!(["kind", "r"])
        );
        assert!(
            doc["components"]["schemas"]["Square"]["properties"]
                .get("kind")
                .is_none()
        );
        let code = applied.items[0].to_string();
        assert!(
            code.contains("# [serde (untagged)] Circle (Circle)"),
            "{code}"
        );
        assert!(
            code.contains("\"circle\" => Circle (Circle) [keeps_tag]"),
            "{code}"
        );
        // Untagged variants come last, as serde requires.
        assert!(
            code.find("SquareBox (Square)") < code.find("Circle (Circle)"),
            "{code}"
        );
        assert_eq!(
            applied
                .tagged_variants
                .iter()
                .map(|(schema, ..)| schema.as_str())
                .collect::<Vec<_>>(),
            ["Square"]
        );
    }

    #[test]
    fn tagged_union_refuses_a_variant_without_a_const_tag() {
        let mut doc = document();
        doc["components"]["schemas"]["Circle"]["properties"]["kind"] = json!({"type": "string"});
        let error = apply(&mut doc, &[union()]).unwrap_err().to_string();
        assert!(
            error.ends_with("variant `Circle`: property `kind` is not a `const` string"),
            "{error}"
        );
    }

    #[test]
    fn exclusive_union_needs_each_key_required_by_its_variant() {
        let mut doc = document();
        let patch = Patch::on(
            "Shape",
            Action::ExclusiveUnion {
                keys: vec!["r".into(), "side".into()],
            },
            "t",
        );
        let error = apply(&mut doc, &[patch]).unwrap_err().to_string();
        assert!(
            error.ends_with("variant `Square` does not require `side`"),
            "{error}"
        );
    }

    #[test]
    fn literal_union_must_list_exactly_the_admitted_values() {
        let mut doc = json!({"components": {"schemas": {"Flag": {"oneOf": [{"type": "boolean"}, {"type": "string", "enum": ["x"]}]}}}});
        let named = |variants: &[(&str, &str)]| {
            let variants = variants
                .iter()
                .map(|(name, literal)| ((*name).to_owned(), (*literal).to_owned()))
                .collect();
            Patch::on("Flag", Action::LiteralUnion { variants }, "t")
        };
        let partial = named(&[("No", "false"), ("Yes", "true")]);
        let error = apply(&mut doc.clone(), &[partial]).unwrap_err().to_string();
        assert!(error.contains("the patch lists {\"false\", \"true\"} but the schema admits {\"\\\"x\\\"\", \"false\", \"true\"}"), "{error}");
        let full = named(&[("No", "false"), ("Yes", "true"), ("X", "\"x\"")]);
        apply(&mut doc, &[full]).unwrap();
    }
}
