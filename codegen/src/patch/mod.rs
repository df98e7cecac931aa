//! Step 3: declarative patches that restore what progenitor and typify drop.
//!
//! A [`Patch`] is data: a target (a JSON pointer to a component schema of the down-levelled
//! document), an [`Action`] and a one-line reason. The patches are inferred (`infer.rs`): inline
//! schemas that need one are first hoisted into `components/schemas` under the name typify
//! would give them, then each schema's action is read from its rules and its `x-rust-`
//! decisions; [`Input::patches`](crate::Input) may add more. [`apply`] is the one mechanism
//! that carries them out. An action may rewrite the document handed to progenitor, emits Rust items into the
//! generated `types` module, and asks typify to use the emitted item in place of the type it
//! would generate for the component. A patch whose target no longer fits the document fails
//! loudly: the spec moved, and a maintainer must look.
//!
//! After the patches, `coverage.rs` checks that no rule typify drops is left unenforced,
//! reporting every such rule at once with its pointer in the source document.

mod coverage;
mod defaults;
mod infer;
mod names;
pub(crate) use names::Moved;
mod newtypes;
mod tuples;
mod unions;
pub(crate) use unions::string_enum_support;

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use progenitor::TypeImpl;
use quote::{format_ident, quote};

pub(crate) use crate::contract::rust_ident;
use serde_json::Value;

use crate::Error;

/// One declarative patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patch {
    /// A JSON pointer to a component schema, `/components/schemas/<Name>`.
    pub target: String,
    /// What to do there.
    pub action: Action,
    /// Why the generators need help here, in one line, for maintainers (kept out of the
    /// generated documentation, which is for users).
    pub reason: String,
}

impl Patch {
    /// A patch on the component schema `name`.
    pub fn on(name: &str, action: Action, reason: impl Into<String>) -> Self {
        Self {
            target: crate::model::push("/components/schemas", name),
            action,
            reason: reason.into(),
        }
    }
}

/// What a patch does to its target. Every action reads the rules it enforces from the schema
/// itself, so the spec stays the single source of truth; the patch only says how to express them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A `oneOf` of `$ref` variants, each an object whose required `tag` property is a `const`
    /// string, becomes an internally tagged enum (`#[serde(tag = ...)]`) of newtype variants.
    /// The tag moves from the variant schemas to the enum, so each variant keeps
    /// `deny_unknown_fields` for itself only.
    TaggedUnion { tag: String },
    /// A `oneOf` of `$ref` object variants where variant `i` is the one that has property
    /// `keys[i]`: decoding picks the variant by which key is present and refuses none or several.
    ExclusiveUnion { keys: Vec<String> },
    /// A schema that admits exactly a few JSON literals becomes a plain Rust enum. Each entry is
    /// a variant name and the JSON literal it stands for; together they must be exactly the
    /// values the schema admits.
    LiteralUnion { variants: Vec<(String, String)> },
    /// An integer schema's `minimum`/`maximum` (inclusive or exclusive) become a validated newtype.
    BoundedInteger,
    /// A number schema's `minimum`/`maximum` (inclusive or exclusive) become a validated
    /// newtype over a finite `f64`.
    BoundedNumber,
    /// An array schema's `minItems`/`maxItems` become a validated newtype over a `Vec`.
    BoundedArray,
    /// A `prefixItems` tuple (down-levelled `x-prefixItems`) becomes a tuple struct: a field of
    /// each position's type (`Option` after `minItems`), then a `Vec` of the items that may
    /// follow.
    Tuple,
    /// A string-keyed map: keys checked against `x-propertyNames` (down-levelled
    /// `propertyNames`), values of the `additionalProperties` type, the number of entries
    /// against `minProperties`/`maxProperties`. With `secret`, `Debug` prints the keys only.
    ValidatedMap { secret: bool },
    /// A string schema's `pattern`, lengths and `format` (`date-time`, `uri`) become a validated
    /// newtype with uniform messages that name the rule. With `secret`, neither `Debug` nor any
    /// error message shows the value.
    ValidatedString { secret: bool },
}

/// A component schema that typify must not generate, because a patch emitted its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The component schema name.
    pub schema: String,
    /// The Rust type name emitted into the `types` module.
    pub type_name: String,
    /// The traits the emitted type implements that typify may rely on.
    pub impls: Vec<TypeImpl>,
}

/// Everything the patches produced besides their edits to the document.
#[derive(Clone, Debug, Default)]
pub struct Applied {
    /// Items to add to the generated `types` module.
    pub items: Vec<TokenStream>,
    /// Component schemas whose type is one of `items`.
    pub replacements: Vec<Replacement>,
    /// Variant component -> (union type, variant) for tagged unions: the variant's own Rust type
    /// has no tag, so as a whole schema (tag included) it decodes through the union.
    pub tagged_variants: Vec<(String, syn::Ident, syn::Ident)>,
    /// The shared support the emitted types need, each emitted once.
    pub shared: BTreeSet<Shared>,
    /// Component schemas only requests use: they decode strictly and have no `Unknown`
    /// variant (see `emit::tolerance`).
    pub request_only: BTreeSet<String>,
    /// Component schemas that hold secrets (validated strings and maps with `secret`).
    pub secrets: BTreeSet<String>,
    /// Emitted type name -> the rules it enforces, in words (for the API surface).
    pub rules: std::collections::BTreeMap<String, String>,
    /// How many `$ref`s point at each component schema, counted before the patches ran.
    pub(crate) ref_counts: std::collections::BTreeMap<String, usize>,
    /// Schemas moved into `components/schemas` so that typify names their types apart, for the
    /// report.
    pub(crate) repairs: Vec<names::Moved>,
}

/// Support that a family of emitted types shares (a `macro_rules!` each type invokes, helper
/// functions), emitted once when any type of the family is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shared {
    /// `tagged_union!` and the replay of entries read before the tag.
    TaggedUnion,
    /// `BoundedInteger` and `bounded_integer!`.
    BoundedInteger,
    /// `BoundedNumber`.
    BoundedNumber,
    /// `NumberDefault`, the `default` of the bounded numbers that have one.
    NumberDefault,
    /// `ValidatedString` and `SecretString`.
    ValidatedString,
    /// `bail!`, which a generated check fails through.
    Bail,
    /// `string_enum!` and what its invocations name (see [`string_enum_support`]).
    StringEnum,
}

impl Shared {
    fn tokens(&self) -> TokenStream {
        match self {
            Shared::TaggedUnion => unions::replay_support(),
            Shared::BoundedInteger => newtypes::bounded_integer_shared(),
            Shared::BoundedNumber => newtypes::bounded_number_shared(),
            Shared::NumberDefault => newtypes::number_default_shared(),
            Shared::ValidatedString => newtypes::validated_string_shared(),
            Shared::Bail => newtypes::bail_macro(),
            Shared::StringEnum => unions::string_enum_support(),
        }
    }
}

/// How far [`Applied`] had grown before a patch, so that a patch that fails half-way leaves
/// nothing behind.
pub(crate) struct Checkpoint {
    items: usize,
    replacements: usize,
    tagged_variants: usize,
    shared: BTreeSet<Shared>,
}

impl Applied {
    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            items: self.items.len(),
            replacements: self.replacements.len(),
            tagged_variants: self.tagged_variants.len(),
            shared: self.shared.clone(),
        }
    }

    fn rollback(&mut self, checkpoint: Checkpoint) {
        self.items.truncate(checkpoint.items);
        // A type's rules are recorded with its replacement (`Target::replace`).
        for undone in self.replacements.drain(checkpoint.replacements..) {
            self.rules.remove(&undone.type_name);
        }
        self.tagged_variants.truncate(checkpoint.tagged_variants);
        self.shared = checkpoint.shared;
    }
}

/// The name of the error type every validated patch type reports with.
const VALIDATION_ERROR: &str = "ValidationError";

/// Applies every patch, in order, to the down-levelled document, then checks that every rule
/// typify would drop is enforced by one of them.
pub fn apply(document: &mut Value, patches: &[Patch]) -> Result<Applied, Error> {
    let (applied, unenforced) =
        apply_reporting(document, patches, &crate::downlevel::Provenance::default())?;
    Error::from_problems(unenforced)?;
    Ok(applied)
}

/// [`apply`], with the places of problems named in the source document through `provenance`
/// (from [`crate::downlevel::downlevel_traced`]), and every rule typify drops that no patch
/// enforces returned (as [`Error::Unenforced`]) instead of stopping generation: a strict run
/// stops on them, `cargo xtask generate` reports them.
pub fn apply_reporting(
    document: &mut Value,
    patches: &[Patch],
    provenance: &crate::downlevel::Provenance,
) -> Result<(Applied, Vec<Error>), Error> {
    let mut provenance = provenance.clone();
    let repairs = names::separate_alike_names(document, &mut provenance)?;
    infer::hoist_inline(document, &mut provenance)?;
    let inferred = infer::patches(document, patches)?;
    let mut applied = Applied {
        request_only: crate::model::Document::new(document).request_only_schemas(),
        ref_counts: unions::schema_ref_counts(document),
        repairs,
        ..Applied::default()
    };
    let mut unfit = Vec::new();
    let mut refused = Vec::new();
    for (index, patch) in patches.iter().chain(&inferred).enumerate() {
        let inferred_patch = index >= patches.len();
        // A union patch edits its variants' schemas before it knows it fits; they are kept
        // (not the whole document, which would make patching quadratic) to be put back.
        let variants_before = (inferred_patch
            && matches!(
                patch.action,
                Action::TaggedUnion { .. } | Action::ExclusiveUnion { .. }
            ))
        .then(|| member_schemas(document, &patch.target));
        let checkpoint = applied.checkpoint();
        match apply_one(document, patch, &mut applied) {
            Ok(()) => {}
            // An inferred patch whose action cannot carry this schema's shape leaves the
            // schema to typify: a strict run stops on it, `generate` reports it, and the
            // coverage check names every rule it would have enforced.
            Err(Error::Patch { target, reason }) if inferred_patch => {
                applied.rollback(checkpoint);
                for (pointer, schema) in variants_before.into_iter().flatten() {
                    if let Some(slot) = document.pointer_mut(&pointer) {
                        *slot = schema;
                    }
                }
                unfit.push(Error::Unenforced {
                    owner: format!("schema {}", component_name(patch)?),
                    rule: format!(
                        "the inferred {:?} patch, which does not fit: {reason}",
                        patch.action
                    ),
                    pointer: provenance.source_pointer(&target),
                    remedy: "its rules are listed separately".to_owned(),
                });
            }
            // An explicit patch that does not fit stops generation, with every other one.
            Err(error) => {
                applied.rollback(checkpoint);
                refused.push(error);
            }
        }
    }
    Error::from_problems(refused)?;
    let shared: Vec<TokenStream> = applied
        .shared
        .iter()
        .map(|shared| shared.tokens())
        .collect();
    applied.items.extend(shared);
    if !applied.items.is_empty() {
        applied.items.push(validation_error());
    }
    let replaced: BTreeSet<&str> = applied
        .replacements
        .iter()
        .map(|replacement| replacement.schema.as_str())
        .collect();
    unfit.extend(defaults::drop_misbuilt_union_defaults(
        document,
        &replaced,
        &provenance,
    ));
    unfit.extend(coverage::unenforced_rules(document, &replaced, &provenance));
    Ok((applied, unfit))
}

/// The component schemas a union at `target` names in its `oneOf`/`anyOf`, by pointer.
fn member_schemas(document: &Value, target: &str) -> Vec<(String, Value)> {
    let members = ["oneOf", "anyOf"]
        .into_iter()
        .filter_map(|keyword| document.pointer(target)?.get(keyword)?.as_array())
        .flatten();
    members
        .filter_map(|member| {
            let name = crate::model::schema_ref_name(member.get("$ref")?.as_str()?)?;
            let pointer = crate::model::push("/components/schemas", name);
            Some((pointer.clone(), document.pointer(&pointer)?.clone()))
        })
        .collect()
}

/// Applies one patch to its component schema.
fn apply_one(document: &mut Value, patch: &Patch, applied: &mut Applied) -> Result<(), Error> {
    let name = component_name(patch)?;
    if applied
        .replacements
        .iter()
        .any(|replacement| replacement.schema == name)
    {
        return Err(Error::patch(
            &patch.target,
            "a second patch on the same schema",
        ));
    }
    let schema = document
        .pointer(&patch.target)
        .ok_or_else(|| Error::patch(&patch.target, "no such schema"))?
        .clone();
    let target = Target {
        patch,
        name,
        ident: rust_ident(name, &patch.target)?,
        schema: &schema,
        tolerant: !applied.request_only.contains(name),
        rules: std::cell::RefCell::new(None),
    };
    match &patch.action {
        Action::TaggedUnion { tag } => unions::tagged(document, &target, tag, applied)?,
        Action::ExclusiveUnion { keys } => {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            unions::exclusive(document, &target, &keys, applied)?
        }
        Action::LiteralUnion { variants } => {
            let variants: Vec<(&str, &str)> = variants
                .iter()
                .map(|(name, literal)| (name.as_str(), literal.as_str()))
                .collect();
            unions::literal(&target, &variants, applied)?
        }
        Action::BoundedInteger => newtypes::bounded_integer(&target, applied)?,
        Action::BoundedNumber => newtypes::bounded_number(&target, applied)?,
        Action::BoundedArray => newtypes::bounded_array(&target, applied)?,
        Action::Tuple => tuples::tuple(&target, applied)?,
        Action::ValidatedMap { secret } => {
            newtypes::validated_map(document, &target, *secret, applied)?
        }
        Action::ValidatedString { secret } => {
            newtypes::validated_string(&target, *secret, applied)?
        }
    }
    if matches!(
        patch.action,
        Action::ValidatedString { secret: true } | Action::ValidatedMap { secret: true }
    ) {
        applied.secrets.insert(name.to_owned());
    }
    Ok(())
}

/// A patch with its component resolved.
pub(crate) struct Target<'a> {
    pub patch: &'a Patch,
    /// The component schema name.
    pub name: &'a str,
    /// The Rust type name for it.
    pub ident: syn::Ident,
    /// The component schema as it was before this patch.
    pub schema: &'a Value,
    /// Whether the type may come from the hub, so must keep what a newer hub adds in an
    /// `Unknown` variant (see `emit::tolerance`); request-only types stay strict.
    pub tolerant: bool,
    /// The rules the emitted type enforces, in words, once [`Target::doc`] has written them.
    pub rules: std::cell::RefCell<Option<String>>,
}

impl Target<'_> {
    pub(crate) fn error(&self, reason: impl Into<String>) -> Error {
        Error::patch(&self.patch.target, reason)
    }

    /// The documentation of the emitted type: the schema's description and the rules the type
    /// enforces (read back by the surface snapshot). The patch's reason is a note for
    /// maintainers; it stays in the patch list, out of the users' documentation.
    pub(crate) fn doc(&self, rules: &str) -> TokenStream {
        *self.rules.borrow_mut() = Some(rules.to_owned());
        let description = self
            .schema
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default();
        doc_lines(description, &format!("Rules: {rules}."))
    }

    /// Registers the emitted item as the type of this component.
    pub(crate) fn replace(&self, applied: &mut Applied, item: TokenStream, impls: Vec<TypeImpl>) {
        applied.items.push(item);
        if let Some(rules) = self.rules.borrow_mut().take() {
            applied.rules.insert(self.ident.to_string(), rules);
        }
        applied.replacements.push(Replacement {
            schema: self.name.to_owned(),
            type_name: self.ident.to_string(),
            impls,
        });
    }
}

/// The component name a `/components/schemas/<Name>` target names.
fn component_name(patch: &Patch) -> Result<&str, Error> {
    patch
        .target
        .strip_prefix("/components/schemas/")
        .filter(|name| !name.contains('/'))
        .ok_or_else(|| {
            Error::patch(
                &patch.target,
                "a patch targets a `/components/schemas/<Name>` schema",
            )
        })
}

/// The Rust type a subschema stands for in emitted code: a `$ref` names the component's type;
/// plain `string`, `boolean`, `integer` and `number` map to their Rust types, and a schema
/// that admits any value to `serde_json::Value`.
pub(crate) fn rust_type_of(
    schema: &Value,
    target: &Target<'_>,
    what: &str,
) -> Result<TokenStream, Error> {
    if let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(crate::model::schema_ref_name)
    {
        let ident = rust_ident(name, &target.patch.target)?;
        return Ok(quote! { #ident });
    }
    match (schema.get("type").and_then(Value::as_str), is_plain(schema)) {
        (Some("string"), true) => Ok(quote! { ::std::string::String }),
        (Some("boolean"), true) => Ok(quote! { bool }),
        (Some("integer"), true) => Ok(quote! { i64 }),
        (Some("number"), true) => Ok(quote! { f64 }),
        (None, true) => Ok(quote! { ::serde_json::Value }),
        _ if schema == &Value::Bool(true) => Ok(quote! { ::serde_json::Value }),
        _ => Err(target.error(format!(
            "{what} must be a `$ref` or a plain string, boolean, integer or number; name the schema"
        ))),
    }
}

/// A schema that is only a type (and its description or example): it needs no type of its own.
fn is_plain(schema: &Value) -> bool {
    schema.as_object().is_some_and(|object| {
        object.keys().all(|key| {
            matches!(
                key.as_str(),
                "type" | "description" | "example" | "x-examples"
            )
        })
    })
}

/// Whether [`rust_type_of`] can name `schema`: a `$ref`, a plain string, boolean, integer or
/// number, or a schema that admits any value.
pub(crate) fn has_rust_type(schema: &Value) -> bool {
    schema.get("$ref").and_then(Value::as_str).is_some()
        || schema == &Value::Bool(true)
        || (is_plain(schema)
            && matches!(
                schema.get("type").and_then(Value::as_str),
                None | Some("string" | "boolean" | "integer" | "number")
            ))
}

/// `#[doc]` attributes from a schema description and a note, one paragraph each.
fn doc_lines(description: &str, note: &str) -> TokenStream {
    let lines = description
        .lines()
        .chain((!description.is_empty()).then_some(""))
        .chain(note.lines());
    let lines = lines.map(|line| {
        if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        }
    });
    quote! { #(#[doc = #lines])* }
}

/// The error every patched type reports, which rule a value breaks (in the support crate). For
/// secrets it never holds the value.
fn validation_error() -> TokenStream {
    let ident = format_ident!("{VALIDATION_ERROR}");
    let support = crate::runtime::support_crate();
    quote! {
        pub use #support::#ident;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_targets_that_are_not_components() {
        let patch = Patch {
            target: "/paths/~1a".into(),
            action: Action::BoundedArray,
            reason: "r".into(),
        };
        let error = apply(&mut serde_json::json!({}), &[patch])
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "patch on /paths/~1a cannot be applied: a patch targets a `/components/schemas/<Name>` schema"
        );
    }

    #[test]
    fn refuses_a_missing_target() {
        let patch = Patch::on("Gone", Action::BoundedArray, "r");
        let error = apply(
            &mut serde_json::json!({"components": {"schemas": {}}}),
            &[patch],
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            error,
            "patch on /components/schemas/Gone cannot be applied: no such schema"
        );
    }

    #[test]
    fn reports_every_patch_that_does_not_fit() {
        let patches = [
            Patch::on("Gone", Action::BoundedArray, "r"),
            Patch::on("Text", Action::BoundedInteger, "r"),
        ];
        let mut document = serde_json::json!({"components": {"schemas": {
            "Text": {"type": "string"}}}});
        let error = apply(&mut document, &patches).unwrap_err();
        let problems: Vec<String> = error.problems().iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].contains("/components/schemas/Gone"),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("/components/schemas/Text"),
            "{problems:?}"
        );
    }
}
