//! Step 5c: forward compatibility. A newer hub adds enum values, union variants and
//! properties; a client generated from today's spec must still decode what it sends.
//!
//! Every generated type that can come back from the hub (everything but the types only
//! requests use) decodes in one of two modes, chosen per thread by the emitted `decoding`
//! module:
//!
//! - tolerant (the default, what progenitor and the receiver use): an enum value the spec does
//!   not list becomes the enum's `Unknown` variant with the value as sent, a union tag or shape
//!   it does not know becomes the union's `Unknown` variant with the object as sent, and an
//!   unknown property of a closed object is skipped;
//! - strict (`decoding::strict`, what the `schemas` registry, `cargo xtask validate` and the
//!   request checks use): each of those is refused with the message serde's derive gives.
//!
//! The three places consult `decoding::is_strict()` only when they meet something unknown, so a
//! decode that meets nothing unknown costs what it did before. `Unknown` values serialize back
//! exactly as they came, so a strict check of a serialized value refuses them.
//!
//! This module holds what the other steps share: which schemas are request-only (they stay
//! strict and get no `Unknown` variant, so a request cannot carry one), the `decoding` module,
//! and the rewrite of typify's string enums.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::Error;
use crate::contract::typify_output;

/// The `decoding` module of the generated file, the per-thread mode the tolerant types consult:
/// the support crate's, re-exported so users find it beside the types.
pub(crate) fn decoding_module() -> TokenStream {
    let support = crate::runtime::support_crate();
    quote! {
        pub use #support::decoding;
    }
}

/// Rewrites every string enum typify emitted (unit variants, derived `Deserialize`) into one
/// invocation of `string_enum!` (see [`crate::patch::string_enum_support`]), which stands in for typify's
/// `Display`, `FromStr` and `TryFrom<&str>`/`TryFrom<String>` (same behaviour, same error),
/// adds `as_str`, and writes `Serialize` and `Deserialize` (one shared visitor for every enum),
/// so every string enum loses serde's derives and its variants their `rename`s. typify's
/// `Ord` and `PartialOrd` go without a replacement: a wire enum's values have no order the
/// schema states, and each is a body per enum the compiler checks in every build (`Eq` and
/// `Hash` stay). An enum of a
/// tolerant schema also gets an `Unknown(String)` variant (unknown values are kept, or refused
/// when strict, and go back out as they came). It becomes
/// `#[non_exhaustive]` (a new value must not break a user's exhaustive `match`) and loses `Copy`
/// (it may hold a `String`). `FromStr` accepts only the listed values: it builds values to
/// send. An open enum (listed values or any string) gets `Other(String)` the same way. An enum
/// that repeats an earlier one becomes an alias of it (see [`equal_enums`]).
///
/// `early` holds the conversions [`EarlyConversionDrop`] dropped as the types were parsed. The
/// tally counts the enums rewritten and names each one whose conversions, early and here,
/// were not the ones typify writes for every string enum, one of each.
pub(crate) fn emit_string_enums(
    types: &mut Vec<syn::Item>,
    early: EarlyConversionDrop,
    is_tolerant: impl Fn(&str) -> bool,
    is_open: impl Fn(&str) -> bool,
) -> Result<super::Tally, Error> {
    let mut conversions = early.dropped;
    let mut rewritten_names = BTreeSet::new();
    let mut invocations = BTreeMap::new();
    let mut shapes = BTreeMap::new();
    // Every enum that does not fit is reported, not only the first.
    let mut problems = Vec::new();
    // (enum, typify's variant name, the capitalized one) for each variant renamed below.
    let mut renamed: Vec<(String, String, String)> = Vec::new();
    for (index, item) in types.iter_mut().enumerate() {
        let syn::Item::Enum(enumeration) = item else {
            continue;
        };
        let name = enumeration.ident.to_string();
        if !typify_output::is_string_enum(enumeration) {
            continue;
        }
        let open = is_open(&name);
        let tolerant = !open && is_tolerant(&name);
        let mut idents = Vec::new();
        let mut wires = Vec::new();
        let taken: Vec<String> = enumeration
            .variants
            .iter()
            .map(|variant| variant.ident.to_string())
            .collect();
        for variant in &mut enumeration.variants {
            wires.push(super::serde_attrs::wire_name(
                &variant.attrs,
                &variant.ident,
            ));
            // typify names `+1` and `-1` `plus1` and `minus1`, which the compiler warns about.
            let text = variant.ident.to_string();
            if text.starts_with(|c: char| c.is_ascii_lowercase()) {
                let capitalized = format!("{}{}", text[..1].to_ascii_uppercase(), &text[1..]);
                if !taken.contains(&capitalized) {
                    variant.ident = syn::Ident::new(&capitalized, variant.ident.span());
                    renamed.push((name.clone(), text, capitalized));
                }
            }
            idents.push(variant.ident.clone());
        }
        let catch_all = match add_unlisted_variant(enumeration, &idents, open, tolerant) {
            Ok(catch_all) => catch_all,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        let ident = &enumeration.ident;
        let mode = if open {
            quote!(open)
        } else if tolerant {
            quote!(tolerant)
        } else {
            quote!(strict)
        };
        let invocation = StringEnumInvocation {
            name: ident.clone(),
            mode: syn::parse_quote!(#mode),
            catch_all,
            variants: idents
                .into_iter()
                .zip(wires)
                .map(|(variant, wire)| (variant, syn::LitStr::new(&wire, Span::call_site())))
                .collect(),
        };
        shapes.insert(index, same_values_key(enumeration, &invocation));
        invocations.insert(index, quote!(string_enum! #invocation ;));
        rewritten_names.insert(name);
    }
    Error::from_problems(problems)?;
    // What names a renamed variant (typify's `Default` of `-1`, `Kind::minus1`) follows it.
    if !renamed.is_empty() {
        let mut follow = FollowRenamedVariants(&renamed);
        for item in types.iter_mut() {
            syn::visit_mut::VisitMut::visit_item_mut(&mut follow, item);
        }
    }
    if invocations.is_empty() {
        return Ok(super::Tally::default());
    }
    let merged = equal_enums(types, &shapes, &rewritten_names);
    let same_type: BTreeMap<String, String> = merged
        .aliases
        .iter()
        .filter_map(|(index, canonical)| match &types[*index] {
            syn::Item::Enum(enumeration) => {
                Some((enumeration.ident.to_string(), canonical.to_string()))
            }
            _ => None,
        })
        .collect();
    let mut conversions_seen = BTreeSet::new();
    let parse = |tokens: TokenStream| {
        syn::parse2::<syn::File>(tokens)
            .map(|file| file.items)
            .map_err(|error| Error::Syntax(format!("string enum: {error}")))
    };
    // Each invocation goes right after its enum, where a reader looks for it; typify's
    // conversions of these enums give way to the macro's.
    let mut rewritten = parse(crate::patch::string_enum_support())?;
    for (index, item) in std::mem::take(types).into_iter().enumerate() {
        let replaced = is_conversion_of(&item, &rewritten_names);
        if let (Some(canonical), syn::Item::Enum(enumeration)) = (merged.aliases.get(&index), &item)
        {
            rewritten.push(alias_item(enumeration, canonical));
            continue;
        }
        if merged.dropped_impls.contains(&index) {
            continue;
        }
        // Two members of one union whose enums became one type (`From<A>` and `From<B>` with
        // `B = A`) would implement `From` twice: the first is kept.
        if let Some(conversion) = from_conversion(&item, &same_type)
            && !conversions_seen.insert(conversion)
        {
            continue;
        }
        if !replaced {
            rewritten.push(item);
        } else if let syn::Item::Impl(block) = &item
            && let Some(name) = self_type_name(&block.self_ty)
        {
            *conversions.entry(name).or_default() += 1;
        }
        if let Some(invocation) = invocations.remove(&index) {
            rewritten.extend(parse(invocation)?);
        }
    }
    *types = rewritten;
    let passed_over = rewritten_names
        .iter()
        .filter(|name| conversions.get(*name) != Some(&typify_output::STRING_ENUM_CONVERSIONS))
        .map(|name| {
            super::PassedOver::of_type(
                name,
                format!(
                    "string enum `{name}`: typify's string conversions were not the known ones, so one of them may be kept beside the `string_enum!` macro's"
                ),
            )
        })
        .collect();
    Ok(super::Tally {
        matched: rewritten_names.len(),
        passed_over,
    })
}

/// Whether `item` is one of typify's string conversions (`Display`, `FromStr`, `TryFrom` of a
/// string) of a type named in `names`, which the `string_enum!` macro's replace.
fn is_conversion_of(item: &syn::Item, names: &BTreeSet<String>) -> bool {
    match item {
        syn::Item::Impl(block) => {
            self_type_name(&block.self_ty).is_some_and(|name| names.contains(&name))
                && block
                    .trait_
                    .as_ref()
                    .is_some_and(|(_, path, _)| typify_output::is_string_conversion(path))
        }
        _ => false,
    }
}

/// Drops typify's string conversions of string enums as progenitor's output is parsed, so the
/// tree never holds them: they are about 30 % of typify's items, and [`emit_string_enums`] would
/// delete them anyway. typify writes each enum before its impls; an impl met before its enum
/// is kept here and deleted by the rewrite, which stays the one that decides. An enum the
/// rewrite then refuses (its unlisted variant clashes) fails the step, and a later round
/// parses afresh, so nothing dropped early is ever wanted.
#[derive(Default)]
pub(crate) struct EarlyConversionDrop {
    string_enums: BTreeSet<String>,
    /// How many conversions of each enum were dropped, by its name.
    dropped: BTreeMap<String, usize>,
}

impl EarlyConversionDrop {
    /// Whether to keep `item`, an item of the `types` module, in the parsed tree.
    pub(crate) fn keep(&mut self, item: &syn::Item) -> bool {
        if let syn::Item::Enum(enumeration) = item
            && typify_output::is_string_enum(enumeration)
        {
            self.string_enums.insert(enumeration.ident.to_string());
        }
        let dropped = is_conversion_of(item, &self.string_enums);
        if dropped
            && let syn::Item::Impl(block) = item
            && let Some(name) = self_type_name(&block.self_ty)
        {
            *self.dropped.entry(name).or_default() += 1;
        }
        !dropped
    }
}

/// What makes two rewritten string enums the same type but their names and their own docs:
/// the enum with a placeholder name and without its doc attributes, and its invocation's mode
/// and wire values.
fn same_values_key(enumeration: &syn::ItemEnum, invocation: &StringEnumInvocation) -> String {
    let mut shape = enumeration.clone();
    shape.ident = syn::Ident::new(SAME_VALUES, Span::call_site());
    shape.attrs.retain(|attr| !attr.path().is_ident("doc"));
    let wires = invocation.variants.iter().map(|(_, wire)| wire.value());
    format!(
        "{} [{}] {:?}",
        quote!(#shape),
        invocation.mode,
        wires.collect::<Vec<_>>()
    )
}

/// The string enums to merge: every rewritten enum that repeats an earlier one, by index in
/// `types`, with the name of that first enum; and the indices of the repeats' own impls, which
/// go with them.
///
/// An inline description repeats the same value list in many places (a sort direction, a
/// hardware flavour), and typify names a type for each place; the repeats become aliases of
/// the first, each keeping its own name and docs, so the compiler checks one enum and its
/// impls per value list instead of one per place. An impl an enum keeps beside the macro's (a
/// parameter's `Default`) is part of what must repeat, its name aside.
struct EqualEnums {
    aliases: BTreeMap<usize, syn::Ident>,
    dropped_impls: BTreeSet<usize>,
}

fn equal_enums(
    types: &[syn::Item],
    shapes: &BTreeMap<usize, String>,
    rewritten_names: &BTreeSet<String>,
) -> EqualEnums {
    let mut own_impls: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, item) in types.iter().enumerate() {
        if let syn::Item::Impl(block) = item
            && let Some(name) = self_type_name(&block.self_ty)
            && rewritten_names.contains(&name)
            && !block
                .trait_
                .as_ref()
                .is_some_and(|(_, path, _)| typify_output::is_string_conversion(path))
        {
            own_impls.entry(name).or_default().push(index);
        }
    }
    let mut first_by_shape: BTreeMap<String, syn::Ident> = BTreeMap::new();
    let mut merged = EqualEnums {
        aliases: BTreeMap::new(),
        dropped_impls: BTreeSet::new(),
    };
    for (&index, shape) in shapes {
        let syn::Item::Enum(enumeration) = &types[index] else {
            continue;
        };
        let name = enumeration.ident.to_string();
        let impls = own_impls.get(&name).map_or(&[][..], Vec::as_slice);
        // Token text spaces every identifier, so the name is replaced as a whole word.
        let mut key = shape.clone();
        for &position in impls {
            let text = quote::ToTokens::to_token_stream(&types[position]).to_string();
            for word in text.split(' ') {
                key.push(' ');
                key.push_str(if word == name { SAME_VALUES } else { word });
            }
        }
        match first_by_shape.get(&key) {
            Some(first) => {
                merged.aliases.insert(index, first.clone());
                merged.dropped_impls.extend(impls);
            }
            None => {
                first_by_shape.insert(key, enumeration.ident.clone());
            }
        }
    }
    merged
}

/// Renames `Enum::old` to `Enum::new` wherever a path names a variant the string enums step
/// capitalized: (enum, old, new) each.
struct FollowRenamedVariants<'a>(&'a [(String, String, String)]);

impl syn::visit_mut::VisitMut for FollowRenamedVariants<'_> {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        let count = path.segments.len();
        if count >= 2 {
            let enumeration = path.segments[count - 2].ident.to_string();
            let variant = &mut path.segments[count - 1].ident;
            if let Some((_, _, new)) = self
                .0
                .iter()
                .find(|(name, old, _)| *name == enumeration && variant == old)
            {
                *variant = syn::Ident::new(new, variant.span());
            }
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

/// The name an enum's own name is replaced by when enums are compared: typify names types in
/// UpperCamelCase, so no enum has it.
const SAME_VALUES: &str = "__SameValues";

/// `pub type Name = Canonical;` in place of `enumeration`, with its docs and a line naming the
/// enum it shares.
fn alias_item(enumeration: &syn::ItemEnum, canonical: &syn::Ident) -> syn::Item {
    let docs = enumeration
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"));
    let ident = &enumeration.ident;
    let note = format!(" The same type as [`{canonical}`], whose schema lists the same values.");
    syn::parse_quote! {
        #(#docs)*
        ///
        #[doc = #note]
        pub type #ident = #canonical;
    }
}

/// Gives a tolerant enum its `Unknown(String)` variant, an open enum its `Other(String)`, and
/// takes from both the serde derives and renames that `string_enum!` replaces.
fn add_unlisted_variant(
    enumeration: &mut syn::ItemEnum,
    idents: &[syn::Ident],
    open: bool,
    tolerant: bool,
) -> Result<Option<syn::Ident>, Error> {
    let name = enumeration.ident.to_string();
    let refuse = |what: &str| Error::TypeMismatch {
        type_name: name.clone(),
        reason: format!("string enum: {what}"),
    };
    // Every string enum is serialized and decoded by the macro (through `as_str` and the
    // shared visitor), so its variants' `rename`s, read by the caller, go with the derives;
    // anything else stops generation.
    for variant in &mut enumeration.variants {
        let only_rename = super::serde_attrs::try_metas(&variant.attrs)
            .is_ok_and(|metas| metas.iter().all(|meta| meta.path().is_ident("rename")));
        if !only_rename {
            return Err(refuse(&format!(
                "variant `{}` has a serde attribute other than `rename`",
                variant.ident
            )));
        }
        variant.attrs.retain(|attr| !attr.path().is_ident("serde"));
    }
    // An enum that may hold a `String` (`Unknown`, `Other`) cannot be `Copy`; no string enum
    // keeps typify's declaration-order `Ord` (see `emit_string_enums`).
    let holds_text = open || tolerant;
    retain_derives(&mut enumeration.attrs, |derive| {
        let replaced = ["Deserialize", "Serialize"].contains(&derive);
        let not_copy = holds_text && derive == "Copy";
        let unordered = ["Ord", "PartialOrd"].contains(&derive);
        !(replaced || not_copy || unordered)
    })
    .map_err(|error| refuse(&error))?;
    // The variant for unlisted values is `Unknown` (tolerant) or `Other` (open), unless a
    // listed value is spelled so (`unknown`): then it is the first of `Unlisted`,
    // `UnlistedValue`, `UnlistedValue2`, ... that no listed value takes.
    let catch_all_name = |usual: &str| {
        if !idents.iter().any(|ident| ident == usual) {
            return None;
        }
        let taken: std::collections::BTreeSet<String> =
            idents.iter().map(ToString::to_string).collect();
        let name = ["Unlisted", "UnlistedValue"]
            .into_iter()
            .map(str::to_owned)
            .chain((2..).map(|counter| format!("UnlistedValue{counter}")))
            .find(|candidate| !taken.contains(candidate))?;
        Some(syn::Ident::new(&name, Span::call_site()))
    };
    let mut catch_all = None;
    if tolerant {
        catch_all = catch_all_name("Unknown");
        let variant = catch_all
            .clone()
            .unwrap_or_else(|| syn::Ident::new("Unknown", Span::call_site()));
        enumeration.attrs.push(syn::parse_quote!(#[non_exhaustive]));
        enumeration.variants.push(syn::parse_quote! {
            /// A value this client's spec does not list, as the hub sent it (a newer hub may
            /// add values). Strict decoding and requests refuse it.
            #variant(::std::string::String)
        });
    }
    if open {
        catch_all = catch_all_name("Other");
        let variant = catch_all
            .clone()
            .unwrap_or_else(|| syn::Ident::new("Other", Span::call_site()));
        enumeration.variants.push(syn::parse_quote! {
            /// Any other string: the schema lists these values but admits every string.
            #variant(::std::string::String)
        });
    }
    Ok(catch_all)
}

/// The arguments of a `string_enum!` invocation, `(Name [mode] { Variant = "wire", ... })`:
/// written by [`emit_string_enums`] and read back by the API surface, which finds each
/// variant's wire name here (the variants have no serde `rename`).
pub(crate) struct StringEnumInvocation {
    pub(crate) name: syn::Ident,
    pub(crate) mode: syn::Ident,
    /// The variant that holds an unlisted value, when it is not the mode's own (`Unknown`,
    /// `Other`) because a listed value takes that name.
    pub(crate) catch_all: Option<syn::Ident>,
    pub(crate) variants: Vec<(syn::Ident, syn::LitStr)>,
}

impl StringEnumInvocation {
    /// The invocation `item` is, if it is one of `string_enum!`.
    pub(crate) fn read(item: &syn::ItemMacro) -> Option<Self> {
        if !item.mac.path.is_ident("string_enum") {
            return None;
        }
        item.mac.parse_body().ok()
    }
}

impl syn::parse::Parse for StringEnumInvocation {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let name = input.parse()?;
        let bracketed;
        syn::bracketed!(bracketed in input);
        let mode = bracketed.parse()?;
        let catch_all = if bracketed.is_empty() {
            None
        } else {
            Some(bracketed.parse()?)
        };
        let body;
        syn::braced!(body in input);
        let mut variants = Vec::new();
        while !body.is_empty() {
            let variant = body.parse()?;
            body.parse::<syn::Token![=]>()?;
            let wire = body.parse()?;
            body.parse::<syn::Token![,]>()?;
            variants.push((variant, wire));
        }
        Ok(Self {
            name,
            mode,
            catch_all,
            variants,
        })
    }
}

impl quote::ToTokens for StringEnumInvocation {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let Self {
            name,
            mode,
            catch_all,
            variants,
        } = self;
        let (idents, wires): (Vec<_>, Vec<_>) = variants.iter().cloned().unzip();
        tokens.extend(quote!((#name [#mode #catch_all] { #(#idents = #wires,)* })));
    }
}

/// `(source, target)` of an `impl From<source> for target`, with each enum that became an
/// alias read as the enum it stands for.
fn from_conversion(
    item: &syn::Item,
    same_type: &BTreeMap<String, String>,
) -> Option<(String, String)> {
    let (source, block) = typify_output::from_impl(item)?;
    // A plain type name (any path to it) is read through the aliases; any other type (a
    // reference, `Vec<_>`) is compared as written.
    let spelled = |ty: &syn::Type| match ty {
        syn::Type::Path(path)
            if path
                .path
                .segments
                .last()
                .is_some_and(|last| last.arguments.is_none()) =>
        {
            let name = self_type_name(ty).unwrap_or_default();
            same_type.get(&name).cloned().unwrap_or(name)
        }
        other => quote::ToTokens::to_token_stream(other).to_string(),
    };
    Some((spelled(source), spelled(&block.self_ty)))
}

fn self_type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|last| last.ident.to_string()),
        _ => None,
    }
}

/// Keeps the derives whose last path segment `keep` accepts.
pub(crate) fn retain_derives(
    attrs: &mut [syn::Attribute],
    keep: impl Fn(&str) -> bool,
) -> Result<(), String> {
    for attr in attrs.iter_mut() {
        if !attr.path().is_ident("derive") {
            continue;
        }
        let derives = attr
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .map_err(|error| format!("unreadable derive: {error}"))?;
        let kept: Vec<&syn::Path> = derives
            .iter()
            .filter(|path| {
                path.segments
                    .last()
                    .is_none_or(|last| keep(&last.ident.to_string()))
            })
            .collect();
        *attr = syn::parse_quote! { #[derive(#(#kept),*)] };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::*;

    #[test]
    fn a_listed_value_spelled_like_the_catch_all_moves_the_catch_all() {
        let mut types: Vec<syn::Item> = vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize)]
                pub enum First { Unknown, Unlisted }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize)]
                pub enum Second { Other }
            },
        ];
        emit_string_enums(
            &mut types,
            EarlyConversionDrop::default(),
            |name| name == "First",
            |name| name == "Second",
        )
        .expect("both fit");
        let text: String = types
            .iter()
            .map(|item| item.to_token_stream().to_string())
            .collect();
        assert!(
            text.contains("UnlistedValue (:: std :: string :: String)"),
            "{text}"
        );
        assert!(text.contains("First [tolerant UnlistedValue]"), "{text}");
        assert!(
            text.contains("Unlisted (:: std :: string :: String)"),
            "{text}"
        );
        assert!(text.contains("Second [open Unlisted]"), "{text}");
    }

    #[test]
    fn early_drop_takes_only_string_conversions_of_string_enums_met_before() {
        let display_before: syn::Item = syn::parse_quote! {
            impl ::std::fmt::Display for Kind { fn fmt(&self, f: &mut Formatter) -> Result { Ok(()) } }
        };
        let kind: syn::Item = syn::parse_quote! {
            #[derive(::serde::Deserialize)]
            pub enum Kind { A, B }
        };
        let shaped: syn::Item = syn::parse_quote! {
            #[derive(::serde::Deserialize)]
            pub enum Shaped { A(u8) }
        };
        let conversions: [syn::Item; 3] = [
            syn::parse_quote! { impl ::std::str::FromStr for Kind { type Err = (); } },
            syn::parse_quote! { impl ::std::convert::TryFrom<&str> for Kind { type Error = (); } },
            syn::parse_quote! { impl ::std::convert::TryFrom<::std::string::String> for Kind { type Error = (); } },
        ];
        let kept: [syn::Item; 3] = [
            syn::parse_quote! { impl ::std::default::Default for Kind { } },
            syn::parse_quote! { impl ::std::convert::TryFrom<u8> for Kind { type Error = (); } },
            syn::parse_quote! { impl ::std::fmt::Display for Shaped { } },
        ];
        let mut early = EarlyConversionDrop::default();
        // Met before its enum: kept here, for the rewrite to delete.
        assert!(early.keep(&display_before));
        assert!(early.keep(&kind) && early.keep(&shaped));
        for item in &conversions {
            assert!(!early.keep(item), "{}", item.to_token_stream());
        }
        for item in &kept {
            assert!(early.keep(item), "{}", item.to_token_stream());
        }
    }

    #[test]
    fn enums_listing_the_same_values_share_the_first_one_s_type() {
        let enumeration = |name: &str| -> syn::Item {
            let ident = syn::Ident::new(name, Span::call_site());
            let doc = format!("`{name}`");
            syn::parse_quote! {
                #[doc = #doc]
                #[derive(::serde::Deserialize, Clone, Debug)]
                pub enum #ident {
                    #[serde(rename = "asc")]
                    Asc,
                    #[serde(rename = "desc")]
                    Desc,
                }
            }
        };
        let default = |name: &str, variant: &str| -> syn::Item {
            let ident = syn::Ident::new(name, Span::call_site());
            let variant = syn::Ident::new(variant, Span::call_site());
            syn::parse_quote! {
                impl ::std::default::Default for #ident {
                    fn default() -> Self { #ident::#variant }
                }
            }
        };
        let mut types = vec![
            enumeration("First"),
            enumeration("Second"),
            enumeration("Strict"),
            enumeration("DefaultDesc"),
            default("DefaultDesc", "Desc"),
            enumeration("DefaultAsc"),
            default("DefaultAsc", "Asc"),
            enumeration("AlsoDefaultDesc"),
            default("AlsoDefaultDesc", "Desc"),
        ];
        emit_string_enums(
            &mut types,
            EarlyConversionDrop::default(),
            |name| name != "Strict",
            |_| false,
        )
        .unwrap();
        let text: Vec<String> = types
            .iter()
            .skip_while(|item| !matches!(item, syn::Item::Enum(_)))
            .map(|item| quote::ToTokens::to_token_stream(item).to_string())
            .collect();
        let alias = |name: &str, of: &str| {
            format!(
                "# [doc = \"`{name}`\"] # [doc = r\"\"] # [doc = \" The same type as [`{of}`], whose schema lists the same values.\"] pub type {name} = {of} ;"
            )
        };
        let invocations: Vec<&String> = text
            .iter()
            .filter(|item| item.starts_with("string_enum !"))
            .collect();
        assert_eq!(
            invocations,
            [
                "string_enum ! (First [tolerant] { Asc = \"asc\" , Desc = \"desc\" , }) ;",
                "string_enum ! (Strict [strict] { Asc = \"asc\" , Desc = \"desc\" , }) ;",
                "string_enum ! (DefaultDesc [tolerant] { Asc = \"asc\" , Desc = \"desc\" , }) ;",
                "string_enum ! (DefaultAsc [tolerant] { Asc = \"asc\" , Desc = \"desc\" , }) ;",
            ],
            "one enum per mode, values and default: {text:#?}"
        );
        assert!(text.contains(&alias("Second", "First")), "{text:#?}");
        assert!(
            text.contains(&alias("AlsoDefaultDesc", "DefaultDesc")),
            "{text:#?}"
        );
        let defaults = text
            .iter()
            .filter(|item| item.contains("Default for"))
            .count();
        assert_eq!(
            defaults, 2,
            "the alias's own Default goes with it: {text:#?}"
        );
    }

    #[test]
    fn string_enums_lose_serde_derives_and_typify_display_and_tolerant_ones_gain_unknown() {
        let mut types: Vec<syn::Item> = vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy, Debug)]
                pub enum Arch {
                    #[serde(rename = "amd64")]
                    Amd64,
                }
            },
            syn::parse_quote! {
                impl ::std::fmt::Display for Arch {
                    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result { todo!() }
                }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, Clone, Copy)]
                pub enum RequestOnly { A }
            },
        ];
        emit_string_enums(
            &mut types,
            EarlyConversionDrop::default(),
            |name| name == "Arch",
            |_| false,
        )
        .unwrap();
        let text: Vec<String> = types
            .iter()
            .map(|item| quote::ToTokens::to_token_stream(item).to_string())
            .collect();
        assert_eq!(text[0], "use :: hub_api_support :: string_enum ;");
        assert!(
            text.iter()
                .filter(|item| item.contains("enums :: { StringEnum , StringEnumVisitor"))
                .count()
                == 1,
            "the shared visitor is imported once"
        );
        let position = |needle: &str| {
            text.iter()
                .position(|item| item.contains(needle))
                .unwrap_or_else(|| panic!("no item contains {needle}: {text:?}"))
        };
        let arch = position("pub enum Arch");
        assert!(
            text[arch].starts_with(
                "# [derive (Clone , Debug)] # [non_exhaustive] pub enum Arch { Amd64 ,"
            ),
            "serde's derives and renames give way to the macro's impls: {}",
            text[arch]
        );
        assert!(text[arch].contains("Unknown (:: std :: string :: String)"));
        let request_only = position("enum RequestOnly");
        assert_eq!(
            text[request_only], "# [derive (Clone , Copy)] pub enum RequestOnly { A }",
            "a strict enum keeps `Copy` and loses serde's derives to the macro too"
        );
        assert!(
            !text.iter().any(|item| item.contains("Display for Arch")),
            "typify's Display gives way to the macro's"
        );
        assert_eq!(
            text[arch + 1],
            "string_enum ! (Arch [tolerant] { Amd64 = \"amd64\" , }) ;",
            "right after its enum"
        );
        assert_eq!(
            text[request_only + 1],
            "string_enum ! (RequestOnly [strict] { A = \"A\" , }) ;"
        );
    }
}
