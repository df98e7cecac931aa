//! The public API surface of a generated client as one reviewable text: every operation (HTTP
//! method, path, Rust signatures) and every type (its kind and, for newtypes, the rule it
//! enforces). Snapshot-tested, so a spec change shows up in review as a short, readable diff.

use std::collections::BTreeMap;
use std::fmt::Write;

use quote::ToTokens;
use serde_json::Value;

use crate::contract;
use crate::contract::progenitor_output::{BUILDER_MODULE, BUILDER_NEW, CLIENT_TYPE, TYPES_MODULE};
use crate::emit::open_objects::{self, ObjectInvocation};
use crate::emit::tolerance::StringEnumInvocation;
use crate::rules::Rule;

/// Renders the surface of `file` (a generated client) for the operations of `document`.
/// `patched` names the rules each patch-emitted type enforces ([`crate::patch::Applied`]);
/// the rules of typify's own newtypes are read as [`Rule`]s from the schema each is named after.
pub fn render(file: &syn::File, document: &Value, patched: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    operations(file, document, &mut out);
    let rules = Rules {
        patched,
        schemas: schemas_by_type_name(document),
    };
    types(file, &rules, &mut out);
    out
}

/// Where the rules of a generated type are read from.
struct Rules<'a> {
    patched: &'a BTreeMap<String, String>,
    /// Type name -> the schema typify generated it from.
    schemas: BTreeMap<String, &'a Value>,
}

impl Rules<'_> {
    /// The rules type `name` enforces, in words, if it enforces any.
    fn of(&self, name: &str) -> Option<String> {
        if let Some(rules) = self.patched.get(name) {
            return Some(rules.clone());
        }
        // typify keeps a string's pattern and lengths in the newtypes it makes.
        let mut patterns = Vec::new();
        let mut bounds = Vec::new();
        for rule in Rule::from_schema(self.schemas.get(name)?) {
            match rule {
                Rule::Pattern(_) => patterns.push(rule.describe()),
                Rule::MinLength(_) | Rule::MaxLength(_) => bounds.push(rule.describe()),
                _ => {}
            }
        }
        bounds.sort();
        let rules: Vec<String> = patterns.into_iter().chain(bounds).collect();
        (!rules.is_empty()).then(|| rules.join(", "))
    }
}

/// Every schema of the document by the name typify gives its type (first one wins).
fn schemas_by_type_name(document: &Value) -> BTreeMap<String, &Value> {
    let mut names = BTreeMap::new();
    for (name, at) in contract::type_names(document) {
        names.entry(name).or_insert(at.schema);
    }
    names
}

/// The public inherent methods of the generated `Client`: one per operation with the
/// positional interface, one returning its builder with the builder interface.
pub(crate) fn client_methods(file: &syn::File) -> Vec<&syn::ImplItemFn> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Impl(block)
                if self_type_is(block, CLIENT_TYPE) && block.trait_.is_none() =>
            {
                Some(block)
            }
            _ => None,
        })
        .flat_map(|block| block.items.iter())
        .filter_map(|item| match item {
            syn::ImplItem::Fn(function) if matches!(function.vis, syn::Visibility::Public(_)) => {
                Some(function)
            }
            _ => None,
        })
        .collect()
}

fn operations(file: &syn::File, document: &Value, out: &mut String) {
    let client_methods = client_methods(file);
    let builder = module(file, BUILDER_MODULE);

    let mut listed = Vec::new();
    for operation in crate::model::Document::new(document).operations() {
        let id = operation.id().unwrap_or_default();
        listed.push((id.to_owned(), operation.label()));
    }
    listed.sort();
    out.push_str("# Operations\n");
    for (id, route) in listed {
        let _ = writeln!(out, "\n{id}: {route}");
        let method_name = crate::contract::method_name(&id);
        if let Some(method) = client_methods
            .iter()
            .find(|method| method.sig.ident == method_name)
        {
            let _ = writeln!(out, "  Client::{}", signature(&method.sig));
        }
        let builder_name = crate::contract::builder_name(&id);
        for block in builder
            .iter()
            .flat_map(|items| items.iter())
            .filter_map(|item| match item {
                syn::Item::Impl(block)
                    if self_type_is(block, &builder_name) && block.trait_.is_none() =>
                {
                    Some(block)
                }
                _ => None,
            })
        {
            for item in &block.items {
                if let syn::ImplItem::Fn(function) = item
                    && matches!(function.vis, syn::Visibility::Public(_))
                    && function.sig.ident != BUILDER_NEW
                {
                    let _ = writeln!(
                        out,
                        "  builder::{builder_name}::{}",
                        signature(&function.sig)
                    );
                }
            }
        }
    }
}

fn types(file: &syn::File, rules: &Rules<'_>, out: &mut String) {
    out.push_str("\n# Types\n\n");
    let Some(items) = module(file, TYPES_MODULE) else {
        return;
    };
    // The wire names of the variants of string enums whose serde impls `string_enum!` writes,
    // shown quoted.
    let wires = wire_names(
        items,
        |invocation| StringEnumInvocation::read(invocation).map(|read| (read.name, read.variants)),
        tokens,
    );
    // The keys of the fields of structs whose serde impls `decode_object!` writes.
    let keys = wire_names(
        items,
        |invocation| ObjectInvocation::read(invocation).map(|read| (read.name, read.keys)),
        syn::LitStr::value,
    );
    let mut lines = Vec::new();
    for item in items {
        match item {
            syn::Item::Struct(structure) if matches!(structure.vis, syn::Visibility::Public(_)) => {
                let keys = keys.get(&structure.ident.to_string());
                lines.push(describe_struct(structure, rules, keys));
            }
            syn::Item::Enum(enumeration)
                if matches!(enumeration.vis, syn::Visibility::Public(_)) =>
            {
                let wires = wires.get(&enumeration.ident.to_string());
                lines.push(describe_enum(enumeration, rules, wires));
            }
            syn::Item::Type(alias) if matches!(alias.vis, syn::Visibility::Public(_)) => {
                let name = &alias.ident;
                let ty = tokens(&alias.ty);
                lines.push(match rules.of(&name.to_string()) {
                    Some(rule) => format!("alias {name} = {ty} where {rule}"),
                    None => format!("alias {name} = {ty}"),
                });
            }
            // The support crate's types the module re-exports are part of its API too.
            syn::Item::Use(reexport) if matches!(reexport.vis, syn::Visibility::Public(_)) => {
                lines.push(format!("use {}", tokens(&reexport.tree)));
            }
            _ => {}
        }
    }
    lines.sort();
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
}

/// What each macro invocation among `items` that `read` recognises says about its type, by
/// the type's name: each field's or variant's wire name, as `show` writes it.
fn wire_names(
    items: &[syn::Item],
    read: impl Fn(&syn::ItemMacro) -> Option<(syn::Ident, Vec<(syn::Ident, syn::LitStr)>)>,
    show: impl Fn(&syn::LitStr) -> String,
) -> BTreeMap<String, BTreeMap<String, String>> {
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(invocation) => read(invocation),
            _ => None,
        })
        .map(|(name, names)| {
            let names = names
                .iter()
                .map(|(member, wire)| (member.to_string(), show(wire)))
                .collect();
            (name.to_string(), names)
        })
        .collect()
}

/// The lines of a type's documentation, trimmed.
fn doc_lines_of(attrs: &[syn::Attribute]) -> impl Iterator<Item = String> + '_ {
    attrs.iter().filter_map(|attr| match &attr.meta {
        syn::Meta::NameValue(doc) if doc.path.is_ident("doc") => match &doc.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => Some(text.value().trim().to_owned()),
            _ => None,
        },
        _ => None,
    })
}

fn describe_struct(
    structure: &syn::ItemStruct,
    rules: &Rules<'_>,
    keys: Option<&BTreeMap<String, String>>,
) -> String {
    // A generic struct (`CheckedString<R>`, ...) is named with its parameters.
    let name = format!("{}{}", structure.ident, tokens(&structure.generics));
    match &structure.fields {
        syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
            let inner = tokens(&fields.unnamed[0].ty);
            match rules.of(&structure.ident.to_string()) {
                Some(rule) => format!("newtype {name}({inner}) where {rule}"),
                None => format!("newtype {name}({inner})"),
            }
        }
        syn::Fields::Unnamed(fields) => {
            let positions: Vec<String> = fields
                .unnamed
                .iter()
                .map(|field| tokens(&field.ty))
                .collect();
            let positions = positions.join(", ");
            match rules.of(&structure.ident.to_string()) {
                Some(rule) => format!("tuple {name}({positions}) where {rule}"),
                None => format!("tuple {name}({positions})"),
            }
        }
        syn::Fields::Named(fields) => {
            let deny = contract::typify_output::denies_unknown_fields(&structure.attrs)
                || doc_lines_of(&structure.attrs).any(|line| open_objects::is_closed_doc(&line));
            let mut text = format!(
                "struct {name}{}{}",
                if deny { " (deny_unknown_fields)" } else { "" },
                non_exhaustive_marker(&structure.attrs)
            );
            for field in &fields.named {
                let ident = field
                    .ident
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                // A key is shown where it is not the field's name (serde's `rename`).
                let wire = serde_args(&field.attrs)
                    .into_iter()
                    .find_map(|arg| {
                        arg.strip_prefix("rename = ")
                            .map(|name| name.trim_matches('"').to_owned())
                    })
                    .or_else(|| keys?.get(&ident).filter(|key| **key != ident).cloned());
                let _ = write!(text, "\n    {ident}: {}", tokens(&field.ty));
                if let Some(wire) = wire {
                    let _ = write!(text, "  // \"{wire}\"");
                }
            }
            text
        }
        _ => format!("struct {name}"),
    }
}

fn describe_enum(
    enumeration: &syn::ItemEnum,
    rules: &Rules<'_>,
    wires: Option<&BTreeMap<String, String>>,
) -> String {
    let args = serde_args(&enumeration.attrs);
    let kind =
        if let Some(tag) = args.iter().find_map(|arg| arg.strip_prefix("tag = ")) {
            format!("tagged enum (tag = {tag})")
        } else if args.iter().any(|arg| arg == "untagged") {
            "untagged enum".to_owned()
        } else if enumeration
            .variants
            .iter()
            .all(|variant| matches!(variant.fields, syn::Fields::Unit))
        {
            "string enum".to_owned()
        } else if enumeration.variants.iter().all(|variant| {
            matches!(variant.fields, syn::Fields::Unit) || variant.ident == "Unknown"
        }) {
            // An `Unknown` variant keeps values a newer hub adds (see `emit::tolerance`).
            "tolerant string enum".to_owned()
        } else if enumeration
            .variants
            .iter()
            .all(|variant| matches!(variant.fields, syn::Fields::Unit) || variant.ident == "Other")
        {
            // An open enum: listed values or any other string, as `Other`.
            "open string enum".to_owned()
        } else {
            "enum".to_owned()
        };
    let mut text = format!(
        "{kind} {}{}",
        enumeration.ident,
        non_exhaustive_marker(&enumeration.attrs)
    );
    if let Some(rules) = rules.patched.get(&enumeration.ident.to_string()) {
        let _ = write!(text, " where {rules}");
    }
    for variant in &enumeration.variants {
        let wire = serde_args(&variant.attrs)
            .into_iter()
            .find_map(|arg| arg.strip_prefix("rename = ").map(str::to_owned))
            .or_else(|| wires?.get(&variant.ident.to_string()).cloned())
            .map(|wire| format!(" = {wire}"))
            .unwrap_or_default();
        let fields = match &variant.fields {
            syn::Fields::Unit => String::new(),
            fields => tokens(fields),
        };
        let _ = write!(text, "\n    {}{fields}{wire}", variant.ident);
    }
    text
}

/// What the surface prints after the name of a `#[non_exhaustive]` struct or enum: whether
/// users may build it with a literal or match it exhaustively, which decides whether a field or
/// variant it gains breaks them (the change report reads it back).
pub const NON_EXHAUSTIVE: &str = "(non_exhaustive)";

/// ` (non_exhaustive)` for an item marked so, else nothing.
fn non_exhaustive_marker(attrs: &[syn::Attribute]) -> String {
    if attrs
        .iter()
        .any(|attr| attr.path().is_ident("non_exhaustive"))
    {
        format!(" {NON_EXHAUSTIVE}")
    } else {
        String::new()
    }
}

fn module<'a>(file: &'a syn::File, name: &str) -> Option<&'a [syn::Item]> {
    file.items.iter().find_map(|item| match item {
        syn::Item::Mod(module) if module.ident == name => {
            module.content.as_ref().map(|(_, items)| items.as_slice())
        }
        _ => None,
    })
}

fn self_type_is(block: &syn::ItemImpl, name: &str) -> bool {
    match block.self_ty.as_ref() {
        syn::Type::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == name),
        _ => false,
    }
}

/// The comma-separated contents of every `#[serde(...)]` attribute, as normalised text.
fn serde_args(attrs: &[syn::Attribute]) -> Vec<String> {
    crate::emit::serde_attrs::metas(attrs)
        .iter()
        .map(tokens)
        .collect()
}

/// A signature as one line of formatted Rust.
fn signature(sig: &syn::Signature) -> String {
    let function: syn::ItemFn = syn::parse_quote! { #sig {} };
    let file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: vec![syn::Item::Fn(function)],
    };
    let text = prettyplease::unparse(&file);
    let text = text.trim().trim_end_matches("{}").trim();
    // A long signature is broken over lines with a trailing comma after the last argument
    // (and after a `where` clause): on one line that comma goes.
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(", )", ")")
        .replace("( ", "(")
        .replace(" )", ")")
        .trim_end_matches(',')
        .to_owned()
}

/// Token text with the spacing quote puts between tokens removed where Rust would not write it.
fn tokens(node: &impl ToTokens) -> String {
    let text = node.to_token_stream().to_string();
    let mut out = text
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" <", "<")
        .replace("< ", "<");
    out = out
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace("& ", "&")
        .replace(" (", "(")
        .replace("( ", "(");
    out.replace(" )", ")")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_and_types_read_as_written_rust() {
        let sig: syn::Signature = syn::parse_quote! {
            async fn get_thing<'a>(&'a self, id: &'a str, limit: Option<u32>) -> Result<Thing, Error<()>>
        };
        assert_eq!(
            signature(&sig),
            "async fn get_thing<'a>(&'a self, id: &'a str, limit: Option<u32>) -> Result<Thing, Error<()>>"
        );
        let ty: syn::Type = syn::parse_quote! { ::std::vec::Vec<::std::option::Option<&str>> };
        assert_eq!(tokens(&ty), "::std::vec::Vec<::std::option::Option<&str>>");
        let long: syn::Signature = syn::parse_quote! {
            fn body_map<F>(mut self, f: F) -> Self where F: std::ops::FnOnce(types::builder::SomeLongRequestName) -> types::builder::SomeLongRequestName
        };
        assert_eq!(
            signature(&long),
            "fn body_map<F>(mut self, f: F) -> Self where F: std::ops::FnOnce(types::builder::SomeLongRequestName) -> types::builder::SomeLongRequestName"
        );
    }
}
