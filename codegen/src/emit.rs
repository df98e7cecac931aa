//! Step 5: progenitor (builder interface) and typify over the patched 3.0 document, the patch
//! items spliced into the `types` module, and deterministic formatting with prettyplease.

use quote::ToTokens;

use progenitor::{GenerationSettings, Generator, HooksMode, InterfaceStyle, TagStyle};
use serde_json::Value;

use crate::Error;
use crate::contract::progenitor_output::TYPES_MODULE;
use crate::contract::typify_output;
use crate::model::{Owner, mark, push};
use crate::patch::Applied;
use crate::runtime::rules_module;

mod checked_strings;
mod docs;
mod first_fit;
mod forms;
pub(crate) mod open_objects;
pub(crate) mod parameter_sets;
mod piecewise;
mod replies;
mod requests;
mod webhooks;
pub(crate) use crate::contract::serde_attrs;
pub(crate) use docs::{rustdoc_line, safe_doc_text};
pub(crate) mod tolerance;

/// Whether to add the generation steps that make types faithful beyond what typify does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fidelity {
    /// The client: optional fields refuse `null` unless nullable, and open objects decode
    /// without serde's `flatten` buffering.
    Faithful,
    /// typify's output as is, for benchmarks only.
    Plain,
}

/// How operations are called: progenitor's two interfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// `client.op().param(..).send()`, with a builder type per operation and per struct
    /// (`types::builder`); the hub client's public API.
    Builder,
    /// `client.op(param, ..)`: no builder types, which is most of a large client's code.
    Positional,
}

/// What a step of emit could not do for one item, which it left as the generator wrote it:
/// the place (a JSON pointer in the down-levelled document, empty when no schema matched) and
/// what the item lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Degraded {
    /// The schema the item belongs to, when it is known.
    pub pointer: String,
    /// What was left undone, naming the item.
    pub message: String,
}

/// An item a rewrite left as the generator wrote it, named as the rewrite knows it; [`emit`]
/// places it in the document as a [`Degraded`] entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PassedOver {
    pub(crate) item: Item,
    /// What was left undone, naming the item.
    pub(crate) message: String,
}

/// How a rewrite knows the item it passed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// A type, by its Rust name: placed at the schema typify named it after.
    Type(String),
    /// An operation method, by its Rust name: placed at its operation.
    Method(String),
    /// A schema the rewrite found itself, by its pointer.
    Schema(String),
}

impl PassedOver {
    pub(crate) fn of_type(name: &str, message: String) -> Self {
        Self {
            item: Item::Type(name.to_owned()),
            message,
        }
    }

    pub(crate) fn of_method(method: &str, message: String) -> Self {
        Self {
            item: Item::Method(method.to_owned()),
            message,
        }
    }
}

/// Each passed-over item at its place in the document (the schema of a type's name, the
/// operation of a method's), or at no pointer where none is found. `named` is
/// [`crate::contract::type_names_with_merged_parts`] of `document`.
fn place(
    document: &Value,
    named: &[(String, crate::model::SchemaAt<'_>)],
    passed_over: Vec<PassedOver>,
) -> Vec<Degraded> {
    let mut types: std::collections::BTreeMap<&str, &str> = Default::default();
    for (name, at) in named {
        types.entry(name).or_insert(&at.pointer);
    }
    let mut methods: std::collections::BTreeMap<String, String> = Default::default();
    for operation in crate::model::Document::new(document).operations() {
        if let Some(id) = operation.value.get("operationId").and_then(Value::as_str) {
            methods
                .entry(crate::contract::method_name(id))
                .or_insert(operation.pointer);
        }
    }
    passed_over
        .into_iter()
        .map(|PassedOver { item, message }| Degraded {
            pointer: match item {
                Item::Type(name) => types
                    .get(name.as_str())
                    .copied()
                    .unwrap_or_default()
                    .to_owned(),
                Item::Method(name) => methods.get(&name).cloned().unwrap_or_default(),
                Item::Schema(pointer) => pointer,
            },
            message,
        })
        .collect()
}

/// The generated syntax tree, with what [`emit`] left undone item by item.
pub struct Emitted {
    /// The generated file.
    pub file: syn::File,
    /// Items a step left as the generator wrote them.
    pub degraded: Vec<Degraded>,
    /// How many items each rewrite of the generator's output rewrote, by rewrite.
    pub rewritten: std::collections::BTreeMap<&'static str, usize>,
}

/// What one rewrite of the generator's output did: how many items it rewrote, and each item
/// that was its candidate but not a shape [`crate::contract`] knows, which it left as the
/// generator wrote it (reported, and so refused by a strict run). A candidate the contract
/// knows the rewrite leaves alone (a WebSocket upgrade, a string newtype with a `default`) is
/// neither.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) matched: usize,
    pub(crate) passed_over: Vec<PassedOver>,
}

/// progenitor's settings for `document`: the interface, the transport, and the types typify
/// must not generate because a patch (or the multipart support) emits them.
pub(crate) fn generator_settings(
    document: &Value,
    applied: &Applied,
    module_path: &str,
    interface: Interface,
    transport: Option<&str>,
) -> Result<GenerationSettings, Error> {
    let mut settings = GenerationSettings::default();
    settings
        .with_interface(match interface {
            Interface::Builder => InterfaceStyle::Builder,
            Interface::Positional => InterfaceStyle::Positional,
        })
        .with_tag(TagStyle::Merged)
        .with_derive("PartialEq");
    if let Some(transport) = transport {
        let path: syn::Path = syn::parse_str(transport)
            .map_err(|error| Error::Syntax(format!("transport type `{transport}`: {error}")))?;
        settings
            .with_inner_type(quote::quote!(#path))
            .with_hooks(HooksMode::Expected);
    }
    for replacement in &applied.replacements {
        let path = format!("{module_path}::types::{}", replacement.type_name);
        // typify finds a replacement by the name it gives the component's type, not by the
        // component's key (`nbHits` is replaced as `NbHits`).
        settings.with_replacement(
            crate::contract::typify_name(&replacement.schema),
            path,
            replacement.impls.iter().cloned(),
        );
    }
    // The file of a multipart body is the emitted `FormFile`.
    for component in forms::form_file_components(document) {
        settings.with_replacement(
            crate::contract::typify_name(&component),
            format!("{module_path}::types::{}", forms::FORM_FILE_TYPE),
            std::iter::empty(),
        );
    }
    Ok(settings)
}

/// Generates the client as a syntax tree; [`format()`] prints it. The tree is kept so that the
/// API surface is read from it rather than from the printed text parsed again.
///
/// With a `transport` type path, the `Client` carries a value of that type and the mounting
/// crate must implement progenitor's `ClientHooks` for it (a missing impl fails to compile).
pub fn emit(
    document: &Value,
    applied: &Applied,
    module_path: &str,
    fidelity: Fidelity,
    interface: Interface,
    transport: Option<&str>,
) -> Result<Emitted, Error> {
    let spec = crate::contract::run::read_openapi(document)?;
    let settings = generator_settings(document, applied, module_path, interface, transport)?;
    let mut generator = Generator::new(&settings);
    let tokens = crate::contract::run::generate_tokens(&mut generator, &spec)?;
    // The generator's type space and the parsed spec are as large as the output: freed before
    // the output is parsed, their memory is reused rather than the heap grown.
    drop(generator);
    drop(spec);

    let (mut file, folded_early, conversions) = match fidelity {
        Fidelity::Faithful => {
            let mut sink = TypesAsParsed {
                conversions: tolerance::EarlyConversionDrop::default(),
                checked_strings: checked_strings::EarlyFold::new(),
                folded: None,
            };
            let file = piecewise::parse_file(tokens, &mut sink)?;
            (file, sink.folded.unwrap_or_default(), sink.conversions)
        }
        Fidelity::Plain => (
            piecewise::parse_file(tokens, &mut piecewise::KeepAll)?,
            Default::default(),
            Default::default(),
        ),
    };
    let named = crate::contract::type_names_with_merged_parts(document);
    let mut degraded = Vec::new();
    let mut tallies = Vec::new();
    if fidelity == Fidelity::Faithful {
        distinct_field_names(types_module(&mut file)?);
        degraded.extend(refuse_null_for_optional_fields(
            &mut file, document, &named,
        )?);
        let tolerant = tolerant_type_names(document, applied)?;
        let is_tolerant = |name: &str| tolerant.contains(name);
        let types = types_module(&mut file)?;
        tallies.push(("conversion error", share_conversion_error(types)));
        let objects =
            open_objects::decode_open_objects_in_one_pass(types, &is_tolerant, interface)?;
        tallies.push(("open objects", objects));
        let open = open_enum_type_names(document)?;
        let string_enums = tolerance::emit_string_enums(types, conversions, is_tolerant, |name| {
            open.contains(name)
        })?;
        tallies.push(("string enums", string_enums));
        // After the string enums, whose equal enums become one type: a union's conversions
        // from two of them are one by then, and the first-fit invocation writes that one.
        let unions = union_schemas(document, &named);
        tallies.push((
            "first-fit unions",
            first_fit::decode_first_fit_unions(types, |name| unions.get(name).cloned())?,
        ));
        let newtypes = checked_strings::fold_checked_strings(types, folded_early)?;
        tallies.push(("string newtypes", newtypes));
        tallies.push((
            "response handling",
            replies::share_response_handling(&mut file),
        ));
        tallies.push((
            "version header",
            requests::leave_out_version_header(&mut file.items),
        ));
    }
    let as_declared = requests::as_declared(document);
    if !as_declared.is_empty() {
        tallies.push((
            "sent as declared",
            requests::send_as_declared(&mut file.items, &as_declared),
        ));
    }
    let multipart = forms::multipart_operations(document);
    if !multipart.is_empty() {
        let changed = forms::send_as_multipart(&mut file.items, &multipart, module_path);
        tallies.push((
            "multipart forms",
            Tally {
                matched: changed,
                passed_over: Vec::new(),
            },
        ));
        if changed != multipart.len() {
            return Err(Error::Mismatch(format!(
                "{} operations send a multipart form, but progenitor's form call (`{}`) was found in {changed} of their methods",
                multipart.len(),
                crate::contract::PROGENITOR_FORM_CALL
            )));
        }
        types_module(&mut file)?.extend(
            syn::parse2::<syn::File>(forms::form_file_type())
                .map_err(|error| Error::Syntax(format!("FormFile: {error}")))?
                .items,
        );
        file.items.extend(
            syn::parse2::<syn::File>(forms::support())
                .map_err(|error| Error::Syntax(format!("multipart: {error}")))?
                .items,
        );
    }
    if interface == Interface::Positional {
        let sets = parameter_sets::gather_optional_parameters(&mut file.items);
        tallies.push((
            "parameter sets",
            Tally {
                matched: sets,
                passed_over: Vec::new(),
            },
        ));
    }
    // The registry decodes strictly through it, in either fidelity.
    file.items.extend(
        syn::parse2::<syn::File>(tolerance::decoding_module())
            .map_err(|error| Error::Syntax(error.to_string()))?
            .items,
    );
    splice_into_types(&mut file, applied)?;
    refuse_names_defined_twice(types_module(&mut file)?)?;
    file.items.extend(
        syn::parse2::<syn::File>(schema_registry(document, applied)?)
            .map_err(|error| Error::Syntax(error.to_string()))?
            .items,
    );
    if let Some(module) = webhooks::webhooks_module(document)? {
        file.items.extend(
            syn::parse2::<syn::File>(module)
                .map_err(|error| Error::Syntax(format!("webhooks: {error}")))?
                .items,
        );
    }
    let mut rewritten = std::collections::BTreeMap::new();
    let mut passed_over = Vec::new();
    for (name, tally) in tallies {
        rewritten.insert(name, tally.matched);
        passed_over.extend(tally.passed_over);
    }
    degraded.extend(place(document, &named, passed_over));
    if crate::runtime::carries_support() {
        build_with_support_client(&mut file)?;
    }
    docs::make_docs_safe(&mut file);
    Ok(Emitted {
        file,
        degraded,
        rewritten,
    })
}

/// Makes `Client::new` of a standalone crate build its `reqwest::Client` with the support
/// code's `tls::client_builder`: the TLS crypto provider installed first (the crate builds
/// reqwest without a provider of its own, its feature `rustls` bringing `ring` instead of the
/// heavy aws-lc-rs, and reqwest panics building a client when none is installed), a connect
/// and a read timeout rather than progenitor's 15 s for a whole response, and redirects that
/// stay within one origin (a credential in a header of the API's own name would otherwise
/// follow a redirect to another host). The hub's client never builds its own; `hub-api` does.
fn build_with_support_client(file: &mut syn::File) -> Result<(), Error> {
    use crate::contract::progenitor_output::{CLIENT_NEW_WITH_CLIENT, client_constructor};
    let constructor = client_constructor(&mut file.items)
        .ok_or_else(|| Error::Mismatch("progenitor wrote no `Client::new`".to_owned()))?;
    // `new(baseurl, transport...)` calls `new_with_client(baseurl, client, transport...)`.
    let mut arguments = constructor.sig.inputs.iter().map(|input| match input {
        syn::FnArg::Typed(syn::PatType { pat, .. }) => Ok(pat.clone()),
        syn::FnArg::Receiver(_) => Err(Error::Mismatch(
            "progenitor's `Client::new` takes `self`".to_owned(),
        )),
    });
    let base_url = arguments.next().ok_or_else(|| {
        Error::Mismatch("progenitor's `Client::new` takes no base URL".to_owned())
    })??;
    let rest = arguments.collect::<Result<Vec<_>, Error>>()?;
    let support = crate::runtime::support_crate();
    let with_client = quote::format_ident!("{CLIENT_NEW_WITH_CLIENT}");
    constructor.block = syn::parse_quote! {{
        let client = #support::tls::client_builder()
            .build()
            .expect("a reqwest client with the installed TLS provider builds");
        Self::#with_client(#base_url, client #(, #rest)*)
    }};
    Ok(())
}

/// The rewrites that can work on typify's items as they are parsed, so that what they delete
/// never enters the tree (a large spec's tree is most of a run's memory): string enums'
/// conversions are dropped and string newtypes folded. The rewrites after the parse still run
/// over the whole module and do what these left.
struct TypesAsParsed {
    conversions: tolerance::EarlyConversionDrop,
    checked_strings: checked_strings::EarlyFold,
    folded: Option<checked_strings::FoldedEarly>,
}

impl piecewise::Sink for TypesAsParsed {
    fn item(
        &mut self,
        module: &str,
        item: syn::Item,
        items: &mut Vec<syn::Item>,
    ) -> Result<(), Error> {
        if module != TYPES_MODULE {
            items.push(item);
            return Ok(());
        }
        if !self.conversions.keep(&item) {
            return Ok(());
        }
        let mut item = item;
        typify_output::qualify_string_of_parse_conversion(&mut item);
        self.checked_strings.item(item, items)
    }

    fn end(&mut self, module: &str, items: &mut Vec<syn::Item>) -> Result<(), Error> {
        if module == TYPES_MODULE {
            self.folded = Some(self.checked_strings.finish(items)?);
        }
        Ok(())
    }
}

/// Calls `change` on the function that sends each operation of `operations` (by
/// `operationId`, with what the change needs to know of it): a positional client's
/// `Client::<method>`, a builder's `send`, among `items` and, recursively, in their modules.
/// Returns how many calls changed their function.
fn change_operation_functions<T>(
    items: &mut [syn::Item],
    operations: &[(String, T)],
    change: &mut impl FnMut(&mut syn::ImplItemFn, &T) -> bool,
) -> usize {
    use crate::contract::progenitor_output::{BUILDER_SEND, CLIENT_TYPE};
    let mut changed = 0;
    for item in items {
        match item {
            syn::Item::Impl(block) if block.trait_.is_none() => {
                let syn::Type::Path(self_type) = &*block.self_ty else {
                    continue;
                };
                let self_name = self_type
                    .path
                    .segments
                    .last()
                    .map(|last| last.ident.to_string())
                    .unwrap_or_default();
                for member in &mut block.items {
                    let syn::ImplItem::Fn(function) = member else {
                        continue;
                    };
                    let name = function.sig.ident.to_string();
                    let operation = operations.iter().find(|(id, _)| {
                        if self_name == CLIENT_TYPE {
                            crate::contract::method_name(id) == name
                        } else {
                            name == BUILDER_SEND && crate::contract::builder_name(id) == self_name
                        }
                    });
                    if let Some((_, what)) = operation
                        && change(function, what)
                    {
                        changed += 1;
                    }
                }
            }
            syn::Item::Mod(module) => {
                if let Some((_, content)) = &mut module.content {
                    changed += change_operation_functions(content, operations, change);
                }
            }
            _ => {}
        }
    }
    changed
}

/// Calls `change` on every function of the inherent impls among `items` and, recursively, in
/// their modules (`builder`), with the path from its module to the generated root (`super::`
/// per level); returns how many calls changed their function.
fn change_methods(
    items: &mut [syn::Item],
    root: &proc_macro2::TokenStream,
    change: &mut impl FnMut(&mut syn::ImplItemFn, &proc_macro2::TokenStream) -> bool,
) -> usize {
    let mut changed = 0;
    for item in items {
        match item {
            syn::Item::Impl(block) if block.trait_.is_none() => {
                for member in &mut block.items {
                    if let syn::ImplItem::Fn(function) = member
                        && change(function, root)
                    {
                        changed += 1;
                    }
                }
            }
            syn::Item::Mod(module) => {
                if let Some((_, content)) = &mut module.content {
                    changed += change_methods(content, &quote::quote!(#root super::), change);
                }
            }
            _ => {}
        }
    }
    changed
}

/// The generated file's text: `header` (see [`crate::header`]), then the tree formatted by
/// prettyplease.
pub fn format(file: &syn::File, header: &str) -> String {
    format!("{}\n{}", header.trim_end(), prettyplease::unparse(file))
}

/// Adds the patch items to `pub mod types`, where typify's own types are: the `macro_rules!`
/// definitions a patch shares between its types first (a macro is visible only below its
/// definition), everything else after typify's items.
fn splice_into_types(file: &mut syn::File, applied: &Applied) -> Result<(), Error> {
    let types = types_module(file)?;
    // Support a step of `emit` wrote already (the string enums' imports and `parse_string_enum`,
    // which a patch's string enums share) is not written twice.
    let support = |item: &syn::Item| matches!(item, syn::Item::Use(_) | syn::Item::Fn(_));
    let mut written: std::collections::BTreeSet<String> = types
        .iter()
        .filter(|item| support(item))
        .map(|item| quote::quote!(#item).to_string())
        .collect();
    let mut macros = Vec::new();
    for tokens in &applied.items {
        let patch_file: syn::File = syn::parse2(tokens.clone())
            .map_err(|error| Error::Syntax(format!("patch item: {error}")))?;
        for item in patch_file.items {
            match item {
                syn::Item::Macro(definition) if definition.mac.path.is_ident("macro_rules") => {
                    macros.push(syn::Item::Macro(definition));
                }
                item if support(&item) && !written.insert(quote::quote!(#item).to_string()) => {}
                item => types.push(item),
            }
        }
    }
    types.splice(0..0, macros);
    merge_rules_modules(types)
}

/// Gathers the markers of every `mod rules { pub enum Name {} }` fragment of `types` (each
/// patch and step writes the markers of its aliases in one) into one module, last, written
/// as one `marker!` list, with the `AliasMarker` trait every generic checked type reads the alias's
/// name from.
fn merge_rules_modules(types: &mut Vec<syn::Item>) -> Result<(), Error> {
    let module = rules_module();
    let mut markers = Vec::new();
    let mut unexpected = None;
    types.retain_mut(|item| match item {
        syn::Item::Mod(fragment) if fragment.ident == module => {
            for item in fragment
                .content
                .take()
                .map(|(_, items)| items)
                .unwrap_or_default()
            {
                match item {
                    syn::Item::Enum(marker) if marker.variants.is_empty() => {
                        markers.push(marker.ident);
                    }
                    other => unexpected = Some(other),
                }
            }
            false
        }
        _ => true,
    });
    if let Some(item) = unexpected {
        return Err(Error::Syntax(format!(
            "a `{module}` fragment holds `{}`, not only markers",
            item.to_token_stream()
        )));
    }
    if markers.is_empty() {
        return Ok(());
    }
    markers.sort();
    let support = crate::runtime::support_crate();
    let macros = crate::runtime::support_macros();
    let items: syn::File = syn::parse2(quote::quote! {
        pub use #support::AliasMarker;

        /// The markers of the aliases of the generic checked types, each named as its alias
        /// is: uninhabited types that only carry rules.
        #[doc(hidden)]
        pub mod #module {
            use #macros::marker;
            marker!(#(#markers)*);
        }
    })
    .map_err(|error| Error::Syntax(format!("rules module: {error}")))?;
    types.extend(items.items);
    Ok(())
}

/// Puts a re-export of the support code's `ConversionError` in the place of typify's `error`
/// module (about thirty lines in every crate, and a type per crate for the compiler), when
/// that module is exactly typify's ([`typify_output::typify_error_module`]); any other module
/// of that name stays, and the tally names it.
fn share_conversion_error(types: &mut [syn::Item]) -> Tally {
    // Compared as printed, where a doc comment reads the same whichever string literal
    // spelled it.
    let printed = |item: syn::Item| {
        prettyplease::unparse(&syn::File {
            shebang: None,
            attrs: Vec::new(),
            items: vec![item],
        })
    };
    let expected = syn::parse2(crate::contract::typify_output::typify_error_module()).map(printed);
    let support = crate::runtime::support_crate();
    let mut tally = Tally::default();
    for item in types {
        let syn::Item::Mod(module) = item else {
            continue;
        };
        if module.ident != "error" {
            continue;
        }
        if expected.as_ref().ok() != Some(&printed(syn::Item::Mod(module.clone()))) {
            tally.passed_over.push(PassedOver::of_type(
                "error",
                "typify's `error` module is not the known one, so it is kept".to_owned(),
            ));
            continue;
        }
        *item = syn::parse_quote! {
            /// Error types.
            pub mod error {
                pub use #support::ConversionError;
            }
        };
        tally.matched += 1;
    }
    tally
}

/// Stops on a type name `types` defines twice (a schema's type and a shared item of the same
/// name), which would not compile: the shared item's name belongs in [`crate::runtime::SHARED_TYPE_NAMES`],
/// whose names `normalize` keeps schemas from taking.
fn refuse_names_defined_twice(types: &[syn::Item]) -> Result<(), Error> {
    let mut seen = std::collections::BTreeSet::new();
    let mut twice = std::collections::BTreeSet::new();
    for item in types {
        let ident = match item {
            syn::Item::Struct(item) => &item.ident,
            syn::Item::Enum(item) => &item.ident,
            syn::Item::Type(item) => &item.ident,
            syn::Item::Trait(item) => &item.ident,
            syn::Item::Union(item) => &item.ident,
            _ => continue,
        };
        if !seen.insert(ident) {
            twice.insert(ident.to_string());
        }
    }
    // Every name at once, so that one round leaves out every schema involved.
    Error::from_problems(
        twice
            .into_iter()
            .map(|type_name| Error::TypeMismatch {
                type_name,
                reason: "`types` defines it twice: a schema's type takes the name of a shared item or of another schema's type; list the name in `runtime::SHARED_TYPE_NAMES`".into(),
            })
            .collect(),
    )
}

/// `schemas`: every component schema by name, with a decoder into its generated type. It is
/// what `cargo xtask validate` and the differential tests decode through.
fn schema_registry(document: &Value, applied: &Applied) -> Result<proc_macro2::TokenStream, Error> {
    let mut names: Vec<&String> = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().collect())
        .unwrap_or_default();
    names.sort();
    // One entry per schema: its name and the type it decodes through; a tagged union's variant
    // schema decodes through the union and must come out as that variant.
    let mut entries = Vec::new();
    for name in &names {
        if let Some((_, union, variant)) = applied
            .tagged_variants
            .iter()
            .find(|(schema, _, _)| schema == *name)
        {
            entries.push(quote::quote! { #name => #union::#variant, });
            continue;
        }
        let ident = crate::contract::rust_ident(name, &format!("/components/schemas/{name}"))?;
        entries.push(quote::quote! { #name => #ident, });
    }
    let support = crate::runtime::support_crate();
    let macros = crate::runtime::support_macros();
    Ok(quote::quote! {
        /// Every component schema of the spec by name, decodable into its generated type.
        pub mod schemas {
            use #macros::registry;
            use #support::registry::decode_as;
            pub use #support::registry::DecodeError;

            registry! { #(#entries)* }
        }
    })
}

/// typify names a field after its property in snake case, so two properties of one object
/// can make one field name (`connectionString` and `connection_string`), and the struct would
/// not compile. Each repeat is renamed `<name>_2`, `<name>_3`, ... in field order, with its
/// wire name kept (an explicit `rename` when the old name was the wire name).
fn distinct_field_names(types: &mut [syn::Item]) {
    for item in types {
        let syn::Item::Struct(structure) = item else {
            continue;
        };
        let syn::Fields::Named(fields) = &mut structure.fields else {
            continue;
        };
        let mut taken: std::collections::BTreeSet<String> = fields
            .named
            .iter()
            .filter_map(|field| field.ident.as_ref().map(ToString::to_string))
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for field in &mut fields.named {
            let Some(ident) = field.ident.clone() else {
                continue;
            };
            let name = ident.to_string();
            if seen.insert(name.clone()) {
                continue;
            }
            let wire = serde_attrs::wire_name(&field.attrs, &ident);
            // typify's `type_` for a keyword would give `type__2`, which is not snake case.
            let stem = name.trim_start_matches("r#").trim_end_matches('_');
            let stem = if stem.is_empty() { "field" } else { stem };
            let renamed = (2..)
                .map(|counter| format!("{stem}_{counter}"))
                .find(|candidate| !taken.contains(candidate))
                .unwrap_or_default();
            taken.insert(renamed.clone());
            if !serde_attrs::has(&field.attrs, "rename") {
                field
                    .attrs
                    .push(syn::parse_quote!(#[serde(rename = #wire)]));
            }
            field.ident = Some(syn::Ident::new(&renamed, ident.span()));
        }
    }
}

/// serde decodes `null` into an optional field as if the field were absent; JSON Schema refuses
/// `null` unless the property is nullable. typify gives no hook for this, so after it runs,
/// every optional, non-nullable field of a generated struct gets
/// `deserialize_with = "deserialize_present"` (read by `open_objects`' decoder, or by serde's
/// derive through the helper that step emits): absent still means `None` (the field keeps
/// `default`), but a present `null` must decode as the field's type, which refuses it.
///
/// Each struct is matched to its schema by typify's naming (`contract::type_names`). A struct
/// with optional fields that matches no schema, or a field that matches no property, keeps
/// serde's reading (`null` as absent) and is returned as a [`Degraded`] entry: the rest of the
/// crate is generated, and the pipeline reports it (a strict run refuses it).
fn refuse_null_for_optional_fields(
    file: &mut syn::File,
    document: &Value,
    named: &[(String, crate::model::SchemaAt<'_>)],
) -> Result<Vec<Degraded>, Error> {
    let schemas = struct_schemas(named);
    let types = types_module(file)?;
    // Every struct that does not fit is reported, not only the first.
    let mut problems = Vec::new();
    for item in types.iter_mut() {
        let syn::Item::Struct(structure) = item else {
            continue;
        };
        let syn::Fields::Named(fields) = &mut structure.fields else {
            continue;
        };
        let name = structure.ident.to_string();
        let optional: Vec<usize> = fields
            .named
            .iter()
            .enumerate()
            .filter(|(_, field)| typify_output::is_optional_field(field))
            .map(|(index, _)| index)
            .collect();
        if optional.is_empty() {
            continue;
        }
        let Some(at) = schemas.get(name.as_str()) else {
            problems.push(Degraded {
                pointer: String::new(),
                message: format!("struct `{name}` matches no schema, so its optional fields read `null` as absent"),
            });
            continue;
        };
        for index in optional {
            let field = &mut fields.named[index];
            let wire = wire_name(field);
            let mut definitions = Vec::new();
            property_definitions(document, at.schema, &wire, 0, &mut definitions);
            if definitions.is_empty() {
                problems.push(Degraded {
                    pointer: at.pointer.clone(),
                    message: format!("field `{name}.{wire}` matches no property of its schema, so it reads `null` as absent"),
                });
                continue;
            }
            // `allOf` is an intersection: `null` is the field's only when every part admits it
            // (a part that only annotates the property admits anything).
            let admits_null = definitions
                .iter()
                .any(|property| is_nullable(document, property))
                && definitions
                    .iter()
                    .all(|property| is_nullable(document, property) || only_annotates(property));
            if admits_null {
                continue;
            }
            // `deserialize_with` turns off serde's "absent Option means None"; `default` restores it.
            if serde_attrs::has(&field.attrs, "default") {
                field
                    .attrs
                    .push(syn::parse_quote! { #[serde(deserialize_with = "deserialize_present")] });
            } else {
                field.attrs.push(syn::parse_quote! { #[serde(default, deserialize_with = "deserialize_present")] });
            }
        }
    }
    Ok(problems)
}

/// Every definition of the property `wire` in `schema`: its own, and those of the `allOf`
/// parts it is composed of (followed through `$ref`s), which typify merges into one struct.
fn property_definitions<'a>(
    document: &'a Value,
    schema: &'a Value,
    wire: &str,
    depth: usize,
    out: &mut Vec<&'a Value>,
) {
    // A composition deeper than this is a cycle, which no instance could satisfy anyway.
    const MAX_DEPTH: usize = 16;
    let schema = crate::model::Document::new(document)
        .resolve(schema)
        .unwrap_or(schema);
    out.extend(
        schema
            .get("properties")
            .and_then(|properties| properties.get(wire)),
    );
    if depth >= MAX_DEPTH {
        return;
    }
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        property_definitions(document, part, wire, depth + 1, out);
    }
}

/// Whether a property schema states no rule, only words about it (a `description` an
/// `allOf` part adds to a property another part defines).
fn only_annotates(schema: &Value) -> bool {
    schema.as_object().is_some_and(|object| {
        object.keys().all(|key| {
            key.starts_with("x-")
                || matches!(
                    key.as_str(),
                    "description"
                        | "title"
                        | "example"
                        | "examples"
                        | "default"
                        | "deprecated"
                        | "readOnly"
                        | "writeOnly"
                        | "externalDocs"
                )
        })
    })
}

/// The Rust names of the types that decode tolerantly: every component that is not request-only
/// (see [`tolerance`]), and every inline property type typify names after such a component
/// (`<Component><Property>`). Parameter enums are named after their operation and stay strict.
/// The types of open enums: components marked by `normalize` (every open enum is one).
fn open_enum_type_names(document: &Value) -> Result<std::collections::BTreeSet<String>, Error> {
    let Some(schemas) = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    else {
        return Ok(Default::default());
    };
    schemas
        .iter()
        .filter(|(_, schema)| schema.get(mark::OPEN_ENUM) == Some(&Value::Bool(true)))
        .map(|(name, _)| {
            crate::contract::rust_ident(name, &push("/components/schemas", name))
                .map(|ident| ident.to_string())
        })
        .collect()
}

fn tolerant_type_names(
    document: &Value,
    applied: &Applied,
) -> Result<std::collections::BTreeSet<String>, Error> {
    Ok(crate::contract::type_names(document)
        .into_iter()
        .filter(|(_, at)| {
            at.depth <= 1
                && matches!(&at.owner, Owner::Schema(component) if !applied.request_only.contains(component))
                && (at.depth == 0 || at.pointer.rsplit('/').nth(1) == Some("properties"))
        })
        .map(|(name, _)| name)
        .collect())
}

/// Generated struct name -> its object schema where it sits: every schema with `properties`,
/// by the name typify gives its type (a component's own name wins over an inline type named
/// the same), the objects inside merged `allOf` parts also by the merged type's names.
fn struct_schemas<'n, 'a>(
    named: &'n [(String, crate::model::SchemaAt<'a>)],
) -> std::collections::BTreeMap<&'n str, &'n crate::model::SchemaAt<'a>> {
    let mut out = std::collections::BTreeMap::new();
    for (name, at) in named {
        if at.depth == 0 || at.schema.get("properties").is_some() {
            out.entry(name.as_str()).or_insert(at);
        }
    }
    out
}

/// Generated enum name -> the union schema it stands for (every schema with a `oneOf`, which
/// is how the down-levelled document spells `anyOf` too), by the name typify gives its type,
/// with what the schema says of a value two members take.
fn union_schemas(
    document: &Value,
    named: &[(String, crate::model::SchemaAt<'_>)],
) -> std::collections::BTreeMap<String, first_fit::UnionSchema> {
    let model = crate::model::Document::new(document);
    let mut out = std::collections::BTreeMap::new();
    for (name, at) in named {
        let Some(object) = at.schema.as_object() else {
            continue;
        };
        if !object.contains_key("oneOf") {
            continue;
        }
        let overlap = if crate::rules::stands_for_any_of(object)
            || crate::rules::one_of_members_are_disjoint(&model, at.schema)
        {
            first_fit::Overlap::AnyOf
        } else {
            first_fit::Overlap::OneOf
        };
        out.entry(name.clone())
            .or_insert((at.pointer.clone(), overlap));
    }
    out
}

fn types_module(file: &mut syn::File) -> Result<&mut Vec<syn::Item>, Error> {
    file.items
        .iter_mut()
        .find_map(|item| match item {
            syn::Item::Mod(module) if module.ident == TYPES_MODULE => {
                module.content.as_mut().map(|(_, items)| items)
            }
            _ => None,
        })
        .ok_or_else(|| Error::Mismatch("progenitor emitted no `types` module".into()))
}

/// Whether a property schema admits `null`, directly or through the component it refers to.
fn is_nullable(document: &Value, schema: &Value) -> bool {
    let model = crate::model::Document::new(document);
    let is_nullable_at = |schema: &Value| {
        model
            .resolve(schema)
            .is_some_and(|target| target.get("nullable").and_then(Value::as_bool) == Some(true))
    };
    // A `$ref` with siblings is down-levelled to `allOf: [{$ref}]` (the siblings beside it).
    is_nullable_at(schema)
        || schema
            .get("allOf")
            .and_then(|all| all.get(0))
            .is_some_and(is_nullable_at)
}

/// The wire name of a struct field (see [`serde_attrs::wire_name`]).
fn wire_name(field: &syn::Field) -> String {
    match &field.ident {
        Some(ident) => serde_attrs::wire_name(&field.attrs, ident),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_degraded_item_is_placed_at_its_schema_or_operation() {
        let document = serde_json::json!({
            "paths": {"/a/{b}": {"get": {"operationId": "getThing"}}},
            "components": {"schemas": {"Level": {"type": "string", "enum": ["a"]}}}});
        let passed_over = vec![
            PassedOver::of_type("Level", "type".into()),
            PassedOver::of_method("get_thing", "method".into()),
            PassedOver::of_type("Nowhere", "lost".into()),
            PassedOver {
                item: Item::Schema("/components/schemas/Level".into()),
                message: "placed".into(),
            },
        ];
        let named = crate::contract::type_names_with_merged_parts(&document);
        let degraded = place(&document, &named, passed_over);
        let pointers: Vec<&str> = degraded.iter().map(|item| item.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/components/schemas/Level",
                "/paths/~1a~1{b}/get",
                "",
                "/components/schemas/Level"
            ]
        );
    }

    #[test]
    fn fields_named_alike_are_numbered_and_keep_their_wire_names() {
        let mut items: Vec<syn::Item> = vec![syn::parse_quote! {
            pub struct Config {
                #[serde(rename = "connectionString")]
                pub connection_string: String,
                pub connection_string: String,
                pub connection_string_2: String,
            }
        }];
        distinct_field_names(&mut items);
        let syn::Item::Struct(structure) = &items[0] else {
            unreachable!()
        };
        let named: Vec<(String, String)> = structure
            .fields
            .iter()
            .map(|field| {
                let ident = field.ident.clone().unwrap();
                (ident.to_string(), wire_name(field))
            })
            .collect();
        assert_eq!(
            named,
            [
                ("connection_string".into(), "connectionString".into()),
                ("connection_string_3".into(), "connection_string".into()),
                ("connection_string_2".into(), "connection_string_2".into()),
            ]
        );
        // A keyword's field, `type_`, is numbered as `type_2`, which is snake case.
        let mut items: Vec<syn::Item> = vec![syn::parse_quote! {
            pub struct Node {
                #[serde(rename = "type")]
                pub type_: String,
                #[serde(rename = "_type")]
                pub type_: String,
            }
        }];
        distinct_field_names(&mut items);
        let syn::Item::Struct(structure) = &items[0] else {
            unreachable!()
        };
        let idents: Vec<String> = structure
            .fields
            .iter()
            .map(|field| field.ident.clone().unwrap().to_string())
            .collect();
        assert_eq!(idents, ["type_", "type_2"]);
    }

    #[test]
    fn a_type_name_defined_twice_is_refused_by_name() {
        let file: syn::File = syn::parse_quote! {
            pub struct Webhook;
            pub struct ObjectWriter;
            pub type ObjectWriter = u8;
        };
        let error = refuse_names_defined_twice(&file.items).expect_err("refused");
        assert!(
            error
                .to_string()
                .contains("type `ObjectWriter`: `types` defines it twice"),
            "{error}"
        );
        assert!(refuse_names_defined_twice(&file.items[..2]).is_ok());
    }
}
