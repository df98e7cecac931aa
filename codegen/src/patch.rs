//! Step 3: declarative patches that restore what progenitor and typify drop.
//!
//! A [`Patch`] is data: a target (a JSON pointer into the down-levelled document), an [`Action`]
//! and a one-line reason. [`apply`] is the one mechanism that carries them out. An action may
//! rewrite the document handed to progenitor, emit Rust items into the generated `types` module,
//! and ask typify to use an emitted item in place of the type it would generate for a component
//! schema. A patch whose target no longer fits the document fails loudly: the spec moved, and a
//! maintainer must look.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use crate::Error;
use crate::pointer::schema_ref_name;

/// One declarative patch.
#[derive(Clone, Copy, Debug)]
pub struct Patch {
    /// A JSON pointer into the down-levelled document, such as `/components/schemas/Notification`.
    pub target: &'static str,
    /// What to do there.
    pub action: Action,
    /// Why the generators need help here, in one line. Shown in the surface snapshot.
    pub reason: &'static str,
}

/// What a patch does to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The target is a component whose `oneOf` lists `$ref` variants, each an object whose
    /// required `tag` property is a `const` string. It becomes an internally tagged enum
    /// (`#[serde(tag = ...)]`) with one newtype variant per variant schema; the tag property is
    /// removed from the variant schemas, so each keeps `deny_unknown_fields` for itself only.
    TaggedUnion { tag: &'static str },
}

/// A component schema that typify must not generate, because a patch emitted its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The component schema name.
    pub schema: String,
    /// The Rust type name emitted into the `types` module.
    pub type_name: String,
}

/// Everything the patches produced besides their edits to the document.
#[derive(Clone, Debug, Default)]
pub struct Applied {
    /// Items to add to the generated `types` module.
    pub items: Vec<TokenStream>,
    /// Component schemas whose type is one of `items`.
    pub replacements: Vec<Replacement>,
}

/// Applies every patch, in order, to the down-levelled document.
pub fn apply(document: &mut Value, patches: &[Patch]) -> Result<Applied, Error> {
    let mut applied = Applied::default();
    for patch in patches {
        match patch.action {
            Action::TaggedUnion { tag } => tagged_union(document, patch, tag, &mut applied)?,
        }
    }
    Ok(applied)
}

/// The component name a `/components/schemas/<Name>` target names.
fn component_name(patch: &Patch) -> Result<&'static str, Error> {
    patch
        .target
        .strip_prefix("/components/schemas/")
        .filter(|name| !name.contains('/'))
        .ok_or_else(|| {
            Error::patch(
                patch.target,
                "this action needs a `/components/schemas/<Name>` target",
            )
        })
}

fn tagged_union(
    document: &mut Value,
    patch: &Patch,
    tag: &str,
    applied: &mut Applied,
) -> Result<(), Error> {
    let union_name = component_name(patch)?;
    let union = document
        .pointer(patch.target)
        .ok_or_else(|| Error::patch(patch.target, "no such schema"))?;
    let description = union
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let members = union
        .get("oneOf")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::patch(patch.target, "expected a `oneOf`"))?;

    let mut variants = Vec::new();
    for (index, member) in members.iter().enumerate() {
        let name = member
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(schema_ref_name)
            .ok_or_else(|| {
                Error::patch(
                    patch.target,
                    format!("`oneOf/{index}` is not a `$ref` to a component schema"),
                )
            })?;
        variants.push(name.to_owned());
    }

    let mut arms = Vec::new();
    for variant in &variants {
        let uses = count_refs(document, variant);
        if uses != 1 {
            return Err(Error::patch(
                patch.target,
                format!(
                    "variant `{variant}` is referenced {uses} times; it must be used only by this union, because its tag moves to the union"
                ),
            ));
        }
        let pointer = format!("/components/schemas/{variant}");
        let schema = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
            .ok_or_else(|| {
                Error::patch(
                    patch.target,
                    format!("variant `{variant}` is not a schema mapping"),
                )
            })?;
        let value = take_tag(schema, tag).map_err(|reason| {
            Error::patch(patch.target, format!("variant `{variant}`: {reason}"))
        })?;
        arms.push((value, variant.clone()));
    }

    let mut seen = std::collections::BTreeSet::new();
    if let Some((duplicate, _)) = arms.iter().find(|(value, _)| !seen.insert(value.clone())) {
        return Err(Error::patch(
            patch.target,
            format!("two variants share the tag value `{duplicate}`"),
        ));
    }

    let type_ident = rust_ident(union_name, patch.target)?;
    let mut variant_tokens = Vec::new();
    let mut conversions = Vec::new();
    for (value, variant) in &arms {
        let variant_ident = rust_ident(value, patch.target)?;
        let inner = rust_ident(variant, patch.target)?;
        variant_tokens.push(quote! {
            #[serde(rename = #value)]
            #variant_ident(#inner),
        });
        conversions.push(quote! {
            impl ::std::convert::From<#inner> for #type_ident {
                fn from(value: #inner) -> Self {
                    Self::#variant_ident(value)
                }
            }
        });
    }
    let doc = doc_lines(
        &description,
        &format!("Tagged by `{tag}`. {}", patch.reason),
    );
    applied.items.push(quote! {
        #doc
        #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
        #[serde(tag = #tag)]
        pub enum #type_ident {
            #(#variant_tokens)*
        }
        #(#conversions)*
    });
    applied.replacements.push(Replacement {
        schema: union_name.to_owned(),
        type_name: type_ident.to_string(),
    });
    Ok(())
}

/// Removes the required, single-valued string property `tag` and returns its value.
fn take_tag(schema: &mut serde_json::Map<String, Value>, tag: &str) -> Result<String, String> {
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
    properties.remove(tag);
    let required = schema
        .get_mut("required")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| format!("does not require `{tag}`"))?;
    let before = required.len();
    required.retain(|name| name != tag);
    if required.len() == before {
        return Err(format!("does not require `{tag}`"));
    }
    Ok(value)
}

/// How many `$ref`s anywhere in the document point at component schema `name`.
fn count_refs(value: &Value, name: &str) -> usize {
    match value {
        Value::Object(map) => map
            .iter()
            .map(|(key, child)| match (key.as_str(), child) {
                ("$ref", Value::String(reference)) => {
                    usize::from(schema_ref_name(reference) == Some(name))
                }
                _ => count_refs(child, name),
            })
            .sum(),
        Value::Array(items) => items.iter().map(|item| count_refs(item, name)).sum(),
        _ => 0,
    }
}

/// The Rust type or variant identifier for a schema name or tag value, in UpperCamelCase as
/// typify spells them (`community_blog` -> `CommunityBlog`).
pub(crate) fn rust_ident(name: &str, target: &str) -> Result<syn::Ident, Error> {
    let mut out = String::new();
    for part in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
    {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    syn::parse_str::<syn::Ident>(&out)
        .map(|_| format_ident!("{out}"))
        .map_err(|_| Error::patch(target, format!("`{name}` does not make a Rust identifier")))
}

/// `#[doc]` attributes from a schema description and a note, one paragraph each.
fn doc_lines(description: &str, note: &str) -> TokenStream {
    let lines = description
        .lines()
        .chain((!description.is_empty()).then_some(""))
        .chain(std::iter::once(note));
    let lines = lines.map(|line| {
        if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        }
    });
    quote! { #(#[doc = #lines])* }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const UNION: Patch = Patch {
        target: "/components/schemas/Shape",
        action: Action::TaggedUnion { tag: "kind" },
        reason: "test",
    };

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
        let applied = apply(&mut doc, &[UNION]).unwrap();
        assert_eq!(
            doc["components"]["schemas"]["Circle"]["required"],
            json!(["r"])
        );
        assert!(
            doc["components"]["schemas"]["Square"]["properties"]
                .get("kind")
                .is_none()
        );
        assert_eq!(
            applied.replacements,
            [Replacement {
                schema: "Shape".into(),
                type_name: "Shape".into()
            }]
        );
        let code = applied.items[0].to_string();
        assert!(code.contains("# [serde (tag = \"kind\")]"), "{code}");
        assert!(code.contains("SquareBox (Square)"), "{code}");
    }

    #[test]
    fn refuses_a_variant_used_elsewhere() {
        let mut doc = document();
        doc["components"]["schemas"]["Other"] = json!({"$ref": "#/components/schemas/Circle"});
        let error = apply(&mut doc, &[UNION]).unwrap_err().to_string();
        assert!(
            error.contains("variant `Circle` is referenced 2 times"),
            "{error}"
        );
    }

    #[test]
    fn refuses_a_missing_target_or_tag() {
        let mut doc = json!({"components": {"schemas": {}}});
        assert_eq!(
            apply(&mut doc, &[UNION]).unwrap_err().to_string(),
            "patch on /components/schemas/Shape cannot be applied: no such schema"
        );
        let mut doc = document();
        doc["components"]["schemas"]["Circle"]["properties"]["kind"] = json!({"type": "string"});
        let error = apply(&mut doc, &[UNION]).unwrap_err().to_string();
        assert!(
            error.ends_with("variant `Circle`: property `kind` is not a `const` string"),
            "{error}"
        );
    }

    #[test]
    fn identifiers_follow_typify() {
        assert_eq!(
            rust_ident("community_blog", "").unwrap().to_string(),
            "CommunityBlog"
        );
        assert_eq!(
            rust_ident("repo.content", "").unwrap().to_string(),
            "RepoContent"
        );
        assert_eq!(rust_ident("2fa", "").unwrap().to_string(), "V2fa");
        assert!(rust_ident("---", "").is_err());
    }
}
