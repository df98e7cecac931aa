//! Step 5b: every object decodes through one shared visitor, in one pass.
//!
//! An object schema with `additionalProperties` becomes a struct whose unknown properties are
//! kept in a `#[serde(flatten)] extra` map. serde implements `flatten` by buffering every entry
//! it cannot place in its private `Content` tree and decoding it a second time from there, which
//! made an open object several times dearer to decode than a closed one (a webhook payload is
//! open at every level). This step replaces the derived `Deserialize` of each such struct with
//! one that reads each known key straight into its field and each unknown key straight into
//! `extra`, keeping the derive's rules: a key given twice is refused, a missing required field
//! is named, `default` and `deserialize_present` mean what they mean to serde.
//!
//! Every other struct of named fields gets the same decoder, with what its schema says of
//! other keys: a closed object (`#[serde(deny_unknown_fields)]`) of a tolerant schema (see
//! `tolerance`) refuses an unknown key under strict decoding, with the derive's message, and
//! skips it otherwise, so a property a newer hub adds does not fail the call; a closed object
//! only requests use always refuses it; an object whose schema says nothing of other keys
//! skips it. Besides being one pass, this is what keeps a generated crate quick to build: the
//! loop, duplicate and unknown keys are one generic visitor (`ObjectVisitor`), and each struct
//! writes only its slots, key lookup, one read per field and its construction, where serde's
//! derive wrote a field visitor, a map visitor and a sequence visitor per struct. It is also
//! stricter where serde's derive was lax: a JSON array is not read as the struct's fields in
//! order. `Serialize` is written by the same invocation, through one shared `ObjectWriter`
//! (each field's key and `skip_serializing_if` are in the invocation), so such a struct has no
//! serde derive and its fields no serde attributes; the API surface reads the keys back from
//! the invocation (`ObjectInvocation`).
//!
//! `extra` becomes `UnknownFields`, an ordered map of `RawJson` (serde_json's `RawValue`), in the
//! struct and in typify's builder: an unknown property is kept as the text it arrived as, so a
//! number beyond `f64`, which JSON allows and `serde_json::Value` cannot hold, neither fails
//! the object nor changes on its way back out.
//!
//! Only the attributes that step 5 and typify put on such structs are understood. Any other on
//! an open or tolerant closed object stops generation, naming the struct; any other struct
//! with one (a `transparent` newtype, a flattened base) keeps serde's derive, which honours it.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;

use crate::Error;
use crate::contract::progenitor_output::BUILDER_MODULE;
use crate::contract::serde_attrs;
use crate::contract::typify_output::{self, BUILDER_EXTRA};

/// Rewrites every struct of `types` with a flattened `extra` map, and every closed struct
/// `is_tolerant` names; each new impl goes right after its struct, where a reader of the
/// generated file looks for it. The tally counts the structs rewritten; a struct that must be
/// rewritten and is not typify's shape is an error, not a pass-over.
pub(super) fn decode_open_objects_in_one_pass(
    types: &mut Vec<syn::Item>,
    is_tolerant: &dyn Fn(&str) -> bool,
    interface: super::Interface,
) -> Result<super::Tally, Error> {
    let mut matched = 0;
    let mut rewritten = Vec::with_capacity(types.len());
    let mut any = false;
    // Whether a struct that keeps serde's derive has a `deserialize_present` field, which needs
    // the helper function of that name.
    let mut derive_reads_present = false;
    let mut open = BTreeSet::new();
    // Every struct that does not fit is reported, not only the first.
    let mut problems = Vec::new();
    // A struct every field of which may be absent gets a `Default` (the value of an empty
    // object), unless typify wrote one.
    let with_default: BTreeSet<String> = types
        .iter()
        .filter_map(crate::contract::typify_output::default_impl_for)
        .collect();
    let mut any_default = false;
    for mut item in std::mem::take(types) {
        let decoder = match &mut item {
            syn::Item::Struct(structure) => {
                if interface == super::Interface::Builder {
                    mark_received_record(structure, is_tolerant);
                }
                // Under the positional interface, which writes no builders, a struct only
                // requests use gets a constructor taking its required fields.
                let constructors = interface == super::Interface::Positional;
                let decoder =
                    rewrite(structure, is_tolerant, constructors).unwrap_or_else(|error| {
                        problems.push(error);
                        None
                    });
                if decoder.is_some() && has_extra(structure) {
                    open.insert(structure.ident.to_string());
                }
                derive_reads_present |= decoder.is_none()
                    && structure
                        .fields
                        .iter()
                        .any(|field| reads_present(&field.attrs));
                decoder
            }
            _ => None,
        };
        rewritten.push(item);
        if let Some((decoder, default)) = decoder {
            rewritten.extend(parse_items(decoder)?);
            any = true;
            matched += 1;
            if let Some((name, default)) = default
                && !with_default.contains(&name)
            {
                rewritten.extend(parse_items(default)?);
                any_default = true;
            }
        }
    }
    Error::from_problems(problems)?;
    if any {
        rewritten.extend(parse_items(shared_items())?);
    }
    if any_default {
        let macros = crate::runtime::support_macros();
        rewritten.extend(parse_items(quote!(use #macros::default_object;))?);
    }
    if derive_reads_present {
        rewritten.push(syn::parse_quote! {
            /// Decodes an optional field that is present: `null` is refused unless the schema
            /// makes the property nullable (see `refuse_null_for_optional_fields` in codegen).
            fn deserialize_present<'de, D, T>(deserializer: D) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::Deserialize<'de>,
            {
                T::deserialize(deserializer).map(Some)
            }
        });
    }
    for item in &mut rewritten {
        if let syn::Item::Mod(module) = item
            && module.ident == BUILDER_MODULE
        {
            let items = module.content.as_mut().map(|(_, items)| items);
            retype_builders(items.into_iter().flatten(), &open)?;
        }
    }
    *types = rewritten;
    Ok(super::Tally {
        matched,
        passed_over: Vec::new(),
    })
}

/// Marks a struct of named fields that the API sends (a tolerant schema's) `#[non_exhaustive]`,
/// as its enums are: a property a newer description adds is then a minor change for the
/// crate's users, who build such a struct with its builder (or `Default`) and match it with
/// `..`, never with a literal listing every field (cargo-semver-checks'
/// `constructible_struct_adds_field`). A struct only requests use stays constructible, and so
/// does every struct under the positional interface, which writes no builders.
fn mark_received_record(structure: &mut syn::ItemStruct, is_tolerant: &dyn Fn(&str) -> bool) {
    let named = matches!(structure.fields, syn::Fields::Named(_));
    let marked = structure
        .attrs
        .iter()
        .any(|attr| attr.path().is_ident("non_exhaustive"));
    if named && !marked && is_tolerant(&structure.ident.to_string()) {
        structure.attrs.push(syn::parse_quote!(#[non_exhaustive]));
    }
}

/// Whether a field's serde attributes read it with `deserialize_present`.
fn reads_present(attrs: &[syn::Attribute]) -> bool {
    super::serde_attrs::metas(attrs).iter().any(|meta| {
        meta.path().is_ident("deserialize_with")
            && super::serde_attrs::text(meta).as_deref() == Some("deserialize_present")
    })
}

fn has_extra(structure: &syn::ItemStruct) -> bool {
    structure
        .fields
        .iter()
        .any(|field| tokens(&field.ty) == "UnknownFields")
}

/// typify's builder of an open object mirrors its `extra` map in a field and a setter; both
/// follow the struct to `UnknownFields`, or the builder would not convert into it. Every
/// builder that is not typify's shape, or is missing, is reported together.
fn retype_builders<'a>(
    items: impl Iterator<Item = &'a mut syn::Item>,
    open: &BTreeSet<String>,
) -> Result<(), Error> {
    let mut problems = Vec::new();
    let mut found = BTreeSet::new();
    for item in items {
        let retyped = match item {
            syn::Item::Struct(builder) if open.contains(&builder.ident.to_string()) => {
                found.insert(builder.ident.to_string());
                retype_extra_field(builder)
            }
            syn::Item::Impl(implementation) if implementation.trait_.is_some() => {
                // An open object's builder starts with no unknown properties, as its struct
                // decodes from JSON without any, rather than typify's "no value supplied".
                let is_open = matches!(&*implementation.self_ty, syn::Type::Path(self_type)
                    if self_type.path.get_ident().is_some_and(|name| open.contains(&name.to_string())));
                if is_open
                    && let Some(start) =
                        typify_output::builder_default_field(implementation, BUILDER_EXTRA)
                {
                    *start = syn::parse_quote!(Ok(::std::default::Default::default()));
                }
                Ok(())
            }
            syn::Item::Impl(implementation) if implementation.trait_.is_none() => {
                match &*implementation.self_ty {
                    syn::Type::Path(self_type)
                        if self_type
                            .path
                            .get_ident()
                            .is_some_and(|name| open.contains(&name.to_string())) =>
                    {
                        retype_extra_setter(implementation)
                    }
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        };
        problems.extend(retyped.err());
    }
    problems.extend(
        open.difference(&found)
            .map(|name| builder_mismatch(name, "a missing builder")),
    );
    Error::from_problems(problems)
}

fn builder_mismatch(name: &impl std::fmt::Display, what: &str) -> Error {
    Error::Mismatch(format!(
        "builder of open object `{name}`: {what} is not typify's shape"
    ))
}

/// The builder's `extra` field: typify's map becomes `UnknownFields`.
fn retype_extra_field(builder: &mut syn::ItemStruct) -> Result<(), Error> {
    let name = builder.ident.clone();
    let field = builder
        .fields
        .iter_mut()
        .find(|field| {
            field
                .ident
                .as_ref()
                .is_some_and(|ident| ident == BUILDER_EXTRA)
        })
        .ok_or_else(|| builder_mismatch(&name, "a missing `extra` field"))?;
    if !typify_output::is_builder_extra_type(&field.ty) {
        return Err(builder_mismatch(&name, "the `extra` field"));
    }
    field.ty =
        syn::parse_quote!(::std::result::Result<super::UnknownFields, ::std::string::String>);
    Ok(())
}

/// The builder's `extra` setter: its `TryInto<map>` bound becomes `TryInto<UnknownFields>`.
fn retype_extra_setter(implementation: &mut syn::ItemImpl) -> Result<(), Error> {
    let name = tokens(&implementation.self_ty);
    let setter = implementation
        .items
        .iter_mut()
        .find_map(|item| match item {
            syn::ImplItem::Fn(method) if method.sig.ident == BUILDER_EXTRA => Some(method),
            _ => None,
        })
        .ok_or_else(|| builder_mismatch(&name, "a missing `extra` setter"))?;
    let target = setter
        .sig
        .generics
        .where_clause
        .iter_mut()
        .flat_map(|clause| clause.predicates.iter_mut())
        .flat_map(|predicate| match predicate {
            syn::WherePredicate::Type(bound) => bound.bounds.iter_mut().collect(),
            _ => Vec::new(),
        })
        .filter_map(|bound| match bound {
            syn::TypeParamBound::Trait(bound) => bound.path.segments.last_mut(),
            _ => None,
        })
        .filter(|segment| typify_output::is_setter_conversion(segment))
        .find_map(|segment| match &mut segment.arguments {
            syn::PathArguments::AngleBracketed(arguments) => arguments.args.first_mut(),
            _ => None,
        })
        .ok_or_else(|| builder_mismatch(&name, "the `extra` setter's bound"))?;
    match target {
        syn::GenericArgument::Type(ty) if typify_output::is_extra_map(ty) => {
            *ty = syn::parse_quote!(super::UnknownFields);
            Ok(())
        }
        _ => Err(builder_mismatch(&name, "the `extra` setter's bound")),
    }
}

/// What the API surface reads back from a `decode_object!` invocation: the struct and each
/// field's key (its fields have no serde `rename`; the invocation is where the key is said).
pub(crate) struct ObjectInvocation {
    pub(crate) name: syn::Ident,
    pub(crate) keys: Vec<(syn::Ident, syn::LitStr)>,
}

impl ObjectInvocation {
    /// The invocation `item` is, if it is one of `decode_object!`.
    pub(crate) fn read(item: &syn::ItemMacro) -> Option<Self> {
        if !item.mac.path.is_ident("decode_object") {
            return None;
        }
        item.mac.parse_body().ok()
    }
}

impl syn::parse::Parse for ObjectInvocation {
    /// `Name [mode extra?] { field: Type = "key" => ..., ... }`; what follows `=>` is skipped
    /// up to the entry's comma (its parts hold no top-level comma).
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let name = input.parse()?;
        let _mode: proc_macro2::Group = input.parse()?;
        let body;
        syn::braced!(body in input);
        let mut keys = Vec::new();
        while !body.is_empty() {
            let field = body.parse()?;
            body.parse::<syn::Token![:]>()?;
            body.parse::<syn::Type>()?;
            body.parse::<syn::Token![=]>()?;
            let key = body.parse()?;
            body.parse::<syn::Token![=>]>()?;
            while !body.peek(syn::Token![,]) {
                body.parse::<proc_macro2::TokenTree>()?;
            }
            body.parse::<syn::Token![,]>()?;
            keys.push((field, key));
        }
        Ok(Self { name, keys })
    }
}

fn parse_items(tokens: TokenStream) -> Result<Vec<syn::Item>, Error> {
    syn::parse2::<syn::File>(tokens)
        .map(|file| file.items)
        .map_err(|error| Error::Syntax(format!("open-object decoder: {error}")))
}

/// How one known field decodes, read from its serde attributes.
struct KnownField {
    ident: syn::Ident,
    /// The field's type, restated in the invocation so each slot is typed where it is declared
    /// (slots left to inference made type checking superlinear in the number of fields).
    ty: syn::Type,
    wire: String,
    /// `deserialize_with = "deserialize_present"`: a present value must decode as the inner type.
    present: bool,
    missing: Missing,
    /// `skip_serializing_if = "path"`: the field is left out of the JSON when `path` says so.
    skip: Option<syn::Path>,
}

/// What a known field becomes when its key is absent.
enum Missing {
    /// `#[serde(default)]`, or an `Option` without `deserialize_with` (which serde's derive
    /// makes `None`).
    Default,
    /// `#[serde(default = "path")]`.
    DefaultWith(syn::ExprPath),
    /// Anything else: "missing field".
    Refused,
}

/// What a struct's decoder does with a key its schema does not list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unknown {
    /// An open object: the key and its value go into `extra`.
    Keep,
    /// A closed object of a tolerant schema: refused under strict decoding, skipped otherwise.
    Tolerant,
    /// A closed object only requests use (`deny_unknown_fields`): always refused.
    Refused,
    /// An object whose schema says nothing of other keys (typify's default): always skipped,
    /// since JSON Schema admits them.
    Skipped,
}

impl Unknown {
    fn keyword(self) -> TokenStream {
        match self {
            Self::Keep => quote!(keep),
            Self::Tolerant => quote!(tolerant),
            Self::Refused => quote!(refused),
            Self::Skipped => quote!(skipped),
        }
    }
}

/// The documentation line a tolerant closed object gets; the API surface reads it back
/// ([`is_closed_doc`]).
const CLOSED_DOC: &str = "\n\nClosed: strict decoding refuses a property the spec does not list; tolerant decoding skips it.";

/// The documentation line a closed object only requests use gets.
const CLOSED_REQUEST_DOC: &str = "\n\nClosed: decoding refuses a property the spec does not list.";

/// Whether `line`, a trimmed line of a struct's documentation, is the one [`CLOSED_DOC`] or
/// [`CLOSED_REQUEST_DOC`] gives a closed object, which the API surface reads back.
pub(crate) fn is_closed_doc(line: &str) -> bool {
    [CLOSED_DOC, CLOSED_REQUEST_DOC]
        .iter()
        .any(|doc| doc.trim() == line)
}

/// Drops `Deserialize` from the struct's derive and returns its replacement, or `None` when the
/// struct keeps its derive: one that is not a plain struct of named fields, or whose
/// attributes say more than the decoder understands (serde's derive then honours them). An
/// open object (a flattened `extra` map) or a tolerant closed object must be rewritten, so for
/// those an attribute it does not understand is an error.
/// A struct's decoder, and its `Default` or constructor (with the struct's name).
type Rewritten = (TokenStream, Option<(String, TokenStream)>);

fn rewrite(
    structure: &mut syn::ItemStruct,
    is_tolerant: &dyn Fn(&str) -> bool,
    constructors: bool,
) -> Result<Option<Rewritten>, Error> {
    let name = structure.ident.clone();
    if !serde_attrs::derives(&structure.attrs, "Deserialize") && !has_extra_map(structure) {
        return Ok(None);
    }
    let syn::Fields::Named(fields) = &mut structure.fields else {
        return Ok(None);
    };
    let mut extra = None;
    for field in &mut fields.named {
        if typify_output::is_extra_map_field(field) {
            extra = field.ident.clone();
            field.ty = syn::parse_quote!(UnknownFields);
        }
    }
    let container = super::serde_attrs::metas(&structure.attrs);
    let denies = typify_output::is_closed(&container);
    let unknown = match (&extra, denies, container.is_empty()) {
        (Some(_), _, _) => Unknown::Keep,
        (None, true, _) if is_tolerant(&name.to_string()) => Unknown::Tolerant,
        (None, true, _) => Unknown::Refused,
        (None, false, true) => Unknown::Skipped,
        (None, false, false) => return Ok(None),
    };
    let must_rewrite = matches!(unknown, Unknown::Keep | Unknown::Tolerant);
    let kind = if extra.is_some() { "open" } else { "closed" };
    let refuse = |what: String| Error::Mismatch(format!("{kind} object `{name}`: {what}"));
    if !structure.generics.params.is_empty() {
        return if must_rewrite {
            Err(refuse("generic structs are not supported".into()))
        } else {
            Ok(None)
        };
    }
    if let (Unknown::Keep, Some(attr)) = (unknown, container.first()) {
        return Err(refuse(format!(
            "unsupported container attribute `{}`",
            tokens(attr)
        )));
    }
    let known = fields
        .named
        .iter()
        .filter(|field| extra.is_none() || field.ident != extra)
        .map(known_field)
        .collect::<Result<Vec<_>, _>>();
    let known = match known {
        Ok(known) => known,
        Err(what) if must_rewrite => return Err(refuse(what)),
        Err(_) => return Ok(None),
    };
    let derives = |name| serde_attrs::derives(&structure.attrs, name);
    if !(derives("Deserialize") && derives("Serialize")) {
        return if must_rewrite {
            Err(refuse(
                "no derived `Deserialize` and `Serialize` to replace".into(),
            ))
        } else {
            Ok(None)
        };
    }
    drop_derived_serde(structure).map_err(refuse)?;
    // Each field's key, what its absence means and when it is left out of the JSON are in
    // the invocation now; the attributes that said them to serde's derives go.
    if let syn::Fields::Named(fields) = &mut structure.fields {
        for field in &mut fields.named {
            field.attrs.retain(|attr| !attr.path().is_ident("serde"));
        }
    }
    let closed_doc = match unknown {
        Unknown::Tolerant => Some(CLOSED_DOC),
        Unknown::Refused => Some(CLOSED_REQUEST_DOC),
        Unknown::Keep | Unknown::Skipped => None,
    };
    if let Some(doc) = closed_doc {
        // The container attribute goes (the derive it configured is gone); this line keeps the
        // fact in the documentation and in the API surface.
        structure
            .attrs
            .retain(|attr| !attr.path().is_ident("serde"));
        structure.attrs.push(syn::parse_quote! {
            #[doc = #doc]
        });
    }
    // typify derives `Default` for some structs whose fields all default.
    let default = if crate::contract::typify_output::derives_default(&structure.attrs) {
        None
    } else {
        empty_object_default(&name, extra.as_ref(), &known).or_else(|| {
            (constructors && !is_tolerant(&name.to_string()))
                .then(|| required_fields_constructor(&name, extra.as_ref(), &known))
        })
    };
    Ok(Some((
        decoder(&name, unknown, extra.as_ref(), &known),
        default.map(|default| (name.to_string(), default)),
    )))
}

/// The invocation of `default_object!` (in the support crate's `objects`) for a struct none of
/// whose
/// fields is required: each field as an empty object decodes it (`None`, its type's default,
/// or the schema's `default`). `None` when a field is required.
fn empty_object_default(
    name: &syn::Ident,
    extra: Option<&syn::Ident>,
    known: &[KnownField],
) -> Option<TokenStream> {
    let mut fields = Vec::with_capacity(known.len() + 1);
    for field in known {
        let ident = &field.ident;
        fields.push(match &field.missing {
            Missing::Default => quote!(#ident),
            Missing::DefaultWith(path) => quote!(#ident(#path)),
            Missing::Refused => return None,
        });
    }
    fields.extend(extra.map(|extra| quote!(#extra)));
    Some(quote! {
        default_object!(#name { #(#fields),* });
    })
}

/// The invocation of `default_object!(new ...)` (in the support crate's `objects`) for a struct with
/// required fields: `Name::new(required, ...)`, every other field as an object without it
/// decodes.
fn required_fields_constructor(
    name: &syn::Ident,
    extra: Option<&syn::Ident>,
    known: &[KnownField],
) -> TokenStream {
    let mut required = Vec::new();
    let mut rest = Vec::new();
    for field in known {
        let ident = &field.ident;
        let ty = &field.ty;
        match &field.missing {
            Missing::Refused => required.push(quote!(#ident: #ty)),
            Missing::Default => rest.push(quote!(#ident)),
            Missing::DefaultWith(path) => rest.push(quote!(#ident(#path))),
        }
    }
    rest.extend(extra.map(|extra| quote!(#extra)));
    quote! {
        default_object!(new #name (#(#required),*) { #(#rest),* });
    }
}

/// Whether the struct has typify's flattened map of unknown properties.
fn has_extra_map(structure: &syn::ItemStruct) -> bool {
    structure
        .fields
        .iter()
        .any(typify_output::is_extra_map_field)
}

fn known_field(field: &syn::Field) -> Result<KnownField, String> {
    let ident = field
        .ident
        .clone()
        .ok_or_else(|| "a field without a name".to_owned())?;
    let mut default = None;
    let mut skip = None;
    let mut present = false;
    let mut required_nullable = false;
    let refuse = |what: &str| format!("field `{ident}`: {what}");
    let metas =
        super::serde_attrs::try_metas(&field.attrs).map_err(|error| refuse(&error.to_string()))?;
    for meta in &metas {
        let key = meta
            .path()
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        let text = super::serde_attrs::text(meta);
        match (key.as_str(), meta) {
            ("rename", _) if text.is_some() => {}
            ("skip_serializing_if", _) => {
                let path = text.ok_or_else(|| refuse("unsupported field attribute"))?;
                skip = Some(syn::parse_str(&path).map_err(|error| refuse(&error.to_string()))?);
            }
            ("default", syn::Meta::Path(_)) => default = Some(Missing::Default),
            ("default", _) => {
                let path = text.ok_or_else(|| refuse("unsupported field attribute"))?;
                let path = syn::parse_str(&path).map_err(|error| refuse(&error.to_string()))?;
                default = Some(Missing::DefaultWith(path));
            }
            ("deserialize_with", _) => match text.as_deref() {
                Some("deserialize_present") => present = true,
                // typify's required nullable field: `null` is `None`, absent is refused.
                Some(path) if typify_output::reads_required_nullable(path) => {
                    required_nullable = true;
                }
                _ => {
                    return Err(refuse(
                        "only `deserialize_present` and `Option::deserialize` are supported",
                    ));
                }
            },
            _ => return Err(refuse("unsupported field attribute")),
        }
    }
    let optional = typify_output::option_inner(&field.ty).is_some();
    if present && !optional {
        return Err(format!(
            "field `{ident}`: `deserialize_present` on a type that is not an `Option`"
        ));
    }
    let missing = match default {
        Some(default) => default,
        None if optional && !present && !required_nullable => Missing::Default,
        None => Missing::Refused,
    };
    Ok(KnownField {
        wire: super::wire_name(field),
        ty: field.ty.clone(),
        ident,
        present,
        missing,
        skip,
    })
}

/// Removes `Deserialize` and `Serialize` from the struct's derive: `decode_object!` writes both.
fn drop_derived_serde(structure: &mut syn::ItemStruct) -> Result<(), String> {
    for attr in &mut structure.attrs {
        if !attr.path().is_ident("derive") {
            continue;
        }
        let derives = attr
            .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            .map_err(|error| format!("unreadable derive: {error}"))?;
        let kept: Vec<&syn::Path> = derives
            .iter()
            .filter(|path| {
                path.segments
                    .last()
                    .is_none_or(|last| last.ident != "Deserialize" && last.ident != "Serialize")
            })
            .collect();
        *attr = syn::parse_quote! { #[derive(#(#kept),*)] };
    }
    Ok(())
}

/// The invocation of `decode_object!` (in the support crate's `objects`) for one struct.
fn decoder(
    name: &syn::Ident,
    unknown: Unknown,
    extra: Option<&syn::Ident>,
    known: &[KnownField],
) -> TokenStream {
    let fields = known.iter().map(|field| {
        let ident = &field.ident;
        let ty = &field.ty;
        let wire = &field.wire;
        // A plain integer (or a list of them, or an `Option` of either) reads any number
        // without a fraction.
        let integer = typify_output::is_plain_integer_field(ty);
        let read = match (field.present, integer) {
            (true, false) => quote!(present),
            (false, false) => quote!(value),
            (true, true) => quote!(present_integer),
            (false, true) => quote!(integer),
        };
        let missing = match &field.missing {
            Missing::Default => quote!(default),
            Missing::DefaultWith(path) => quote!(default_with(#path)),
            Missing::Refused => quote!(required),
        };
        let skip = field.skip.as_ref().map(|path| quote!(if #path));
        quote! { #ident: #ty = #wire => #read #missing #skip, }
    });
    let unknown = unknown.keyword();
    quote! {
        decode_object!(#name [#unknown #extra] { #(#fields)* });
    }
}

/// The decoder and writer every struct shares, from the support crate (`objects`): the macro
/// `decode_object!` (see its docs there), the types its invocations name, and the two that
/// appear in the structs' fields.
fn shared_items() -> TokenStream {
    let support = crate::runtime::support_crate();
    let macros = crate::runtime::support_macros();
    quote! {
        use #macros::decode_object;
        use #support::objects::{DecodeObject, ObjectVisitor, ObjectWriter, UnknownKeys, read_integer, read_present, read_present_integer, read_value};
        pub use #support::objects::{RawJson, UnknownFields};
    }
}

fn tokens(node: &impl quote::ToTokens) -> String {
    node.to_token_stream().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(item: syn::ItemStruct) -> Result<Vec<syn::Item>, Error> {
        let mut types = vec![syn::Item::Struct(item)];
        decode_open_objects_in_one_pass(
            &mut types,
            &|name| name == "Tolerant",
            crate::emit::Interface::Builder,
        )?;
        Ok(types)
    }

    fn derives(item: &syn::Item) -> String {
        let syn::Item::Struct(structure) = item else {
            panic!("not a struct");
        };
        tokens(&structure.attrs[0])
    }

    #[test]
    fn reports_every_builder_that_is_not_typifys_shape() {
        let mut items: Vec<syn::Item> = vec![
            syn::parse_quote! { pub struct Open { pub name: ::std::string::String } },
            syn::parse_quote! { impl Open { pub fn name(self) -> Self { self } } },
            syn::parse_quote! { impl Closed { pub fn name(self) -> Self { self } } },
        ];
        let open = BTreeSet::from(["Open".to_owned()]);
        let error = retype_builders(items.iter_mut(), &open).unwrap_err();
        let problems: Vec<String> = error.problems().iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].contains("`Open`: a missing `extra` field"),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("`Open`: a missing `extra` setter"),
            "{problems:?}"
        );
    }

    #[test]
    fn an_open_builder_starts_with_no_unknown_properties() {
        let mut items: Vec<syn::Item> = vec![
            syn::parse_quote! {
                impl ::std::default::Default for Open {
                    fn default() -> Self {
                        Self {
                            name: Err("no value supplied for name".to_string()),
                            extra: Err("no value supplied for extra".to_string()),
                        }
                    }
                }
            },
            syn::parse_quote! {
                impl ::std::default::Default for Other {
                    fn default() -> Self {
                        Self { extra: Err("no value supplied for extra".to_string()) }
                    }
                }
            },
        ];
        let open = BTreeSet::from(["Open".to_owned()]);
        // The builder struct and setter are missing here, which is reported; the default is
        // rewritten all the same.
        let _ = retype_builders(items.iter_mut(), &open);
        let open_default = tokens(&items[0]);
        assert!(
            open_default.contains("extra : Ok (:: std :: default :: Default :: default ())"),
            "{open_default}"
        );
        assert!(
            open_default.contains("name : Err"),
            "a required field still starts unset: {open_default}"
        );
        assert!(
            tokens(&items[1]).contains("extra : Err"),
            "not an open object"
        );
    }

    #[test]
    fn replaces_the_derive_and_adds_the_decoder_and_imports_the_shared_one() {
        let types = run(syn::parse_quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
            pub struct Open {
                #[serde(rename = "type")]
                pub type_: ::std::string::String,
                #[serde(default = "defaults::open_count")]
                pub count: u64,
                #[serde(default, deserialize_with = "deserialize_present")]
                pub note: ::std::option::Option<::std::string::String>,
                #[serde(flatten)]
                pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
            }
        })
        .unwrap();
        let items: Vec<String> = types.iter().map(tokens).collect();
        assert_eq!(derives(&types[0]), "# [derive (Clone)]");
        let structure = tokens(&types[0]);
        assert!(
            !structure.contains("serde"),
            "keys, defaults and `deserialize_present` are in the invocation now: {structure}"
        );
        assert_eq!(
            items[1],
            "decode_object ! (Open [keep extra] { \
             type_ : :: std :: string :: String = \"type\" => value required , \
             count : u64 = \"count\" => integer default_with (defaults :: open_count) , \
             note : :: std :: option :: Option < :: std :: string :: String > = \"note\" => present default , }) ;"
        );
        // The macro and what its invocations name come from the support crate.
        assert_eq!(items[2], "use :: hub_api_support :: decode_object ;");
        assert!(
            items[3].contains("objects :: { DecodeObject"),
            "{}",
            items[3]
        );
    }

    #[test]
    fn closed_objects_get_a_decoder_that_refuses_or_consults_the_mode() {
        let types = run(syn::parse_quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(deny_unknown_fields)]
            pub struct Tolerant { pub id: ::std::string::String }
        })
        .unwrap();
        let structure = tokens(&types[0]);
        assert!(!structure.contains("deny_unknown_fields"), "{structure}");
        assert!(
            structure.contains("Closed: strict decoding refuses"),
            "{structure}"
        );
        assert_eq!(
            tokens(&types[1]),
            "decode_object ! (Tolerant [tolerant] { id : :: std :: string :: String = \"id\" => value required , }) ;"
        );

        // A closed object only requests use refuses unknown keys whatever the mode.
        let types = run(syn::parse_quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(deny_unknown_fields)]
            pub struct RequestOnly { pub id: ::std::string::String }
        })
        .unwrap();
        let structure = tokens(&types[0]);
        assert!(
            structure.contains("Closed: decoding refuses"),
            "{structure}"
        );
        assert_eq!(
            tokens(&types[1]),
            "decode_object ! (RequestOnly [refused] { id : :: std :: string :: String = \"id\" => value required , }) ;"
        );
    }

    #[test]
    fn an_object_that_says_nothing_of_other_keys_skips_them() {
        let types = run(syn::parse_quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
            pub struct Plain {
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub id: ::std::option::Option<::std::string::String>,
            }
        })
        .unwrap();
        // The struct, its decoder and, every field optional, its `Default`; then the imports.
        assert_eq!(derives(&types[0]), "# [derive (Clone)]");
        assert_eq!(
            tokens(&types[1]),
            "decode_object ! (Plain [skipped] { id : :: std :: option :: Option < :: std :: string :: String > = \"id\" => value default if :: std :: option :: Option :: is_none , }) ;"
        );
        assert_eq!(tokens(&types[2]), "default_object ! (Plain { id }) ;");
        assert_eq!(
            tokens(types.last().unwrap()),
            "use :: hub_api_support :: default_object ;"
        );
    }

    #[test]
    fn a_struct_with_a_required_field_or_typifys_default_gets_none_of_ours() {
        let mut types = vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                pub struct Required { pub id: ::std::string::String }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                pub struct Typified {
                    #[serde(default = "defaults::thing_size")]
                    pub size: i64,
                }
            },
            syn::parse_quote! {
                impl ::std::default::Default for Typified {
                    fn default() -> Self { Self { size: defaults::thing_size() } }
                }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                pub struct Sized {
                    #[serde(default = "defaults::sized_size")]
                    pub size: i64,
                }
            },
        ];
        decode_open_objects_in_one_pass(&mut types, &|_| false, crate::emit::Interface::Builder)
            .unwrap();
        let defaults: Vec<String> = types
            .iter()
            .map(tokens)
            .filter(|item| item.starts_with("default_object !"))
            .collect();
        assert_eq!(
            defaults,
            ["default_object ! (Sized { size (defaults :: sized_size) }) ;"]
        );
    }

    #[test]
    fn structs_the_decoder_cannot_read_keep_their_derive() {
        for item in [
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                pub struct Composed {
                    #[serde(flatten)]
                    pub base: Base,
                }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                #[serde(transparent)]
                pub struct Wrapped { pub id: ::std::string::String }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                pub struct Pair(pub u8, pub u8);
            },
        ] {
            let types = run(item).unwrap();
            assert_eq!(types.len(), 1, "no decoder, no shared items");
            assert_eq!(
                derives(&types[0]),
                "# [derive (:: serde :: Deserialize , :: serde :: Serialize)]"
            );
        }
    }

    #[test]
    fn every_struct_it_cannot_honour_is_reported_at_once() {
        let mut types: Vec<syn::Item> = vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize)]
                pub struct First {
                    #[serde(alias = "x")]
                    pub a: ::std::string::String,
                    #[serde(flatten)]
                    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize)]
                pub struct Second {
                    #[serde(alias = "y")]
                    pub b: ::std::string::String,
                    #[serde(flatten)]
                    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                }
            },
        ];
        let error = decode_open_objects_in_one_pass(
            &mut types,
            &|_| false,
            crate::emit::Interface::Builder,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("`First`") && error.contains("`Second`"),
            "{error}"
        );
    }

    #[test]
    fn refuses_what_it_cannot_honour_naming_the_struct() {
        for (item, expected) in [
            (
                syn::parse_quote! {
                    #[derive(::serde::Deserialize)]
                    #[serde(deny_unknown_fields)]
                    pub struct Open {
                        #[serde(flatten)]
                        pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                    }
                },
                "open object `Open`: unsupported container attribute",
            ),
            (
                syn::parse_quote! {
                    #[derive(::serde::Deserialize)]
                    pub struct Open {
                        #[serde(alias = "id")]
                        pub identifier: ::std::string::String,
                        #[serde(flatten)]
                        pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                    }
                },
                "open object `Open`: field `identifier`: unsupported field attribute",
            ),
            (
                syn::parse_quote! {
                    #[derive(::serde::Deserialize)]
                    pub struct Open {
                        #[serde(deserialize_with = "elsewhere")]
                        pub id: ::std::option::Option<::std::string::String>,
                        #[serde(flatten)]
                        pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                    }
                },
                "open object `Open`: field `id`: only `deserialize_present` and `Option::deserialize` are supported",
            ),
            (
                syn::parse_quote! {
                    #[derive(::serde::Serialize)]
                    pub struct Open {
                        #[serde(flatten)]
                        pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                    }
                },
                "open object `Open`: no derived `Deserialize` and `Serialize` to replace",
            ),
        ] {
            let Err(error) = run(item) else {
                panic!("accepted; expected: {expected}");
            };
            let error = error.to_string();
            assert!(error.contains(expected), "{error}");
        }
    }
}
