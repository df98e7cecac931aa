//! Step 1½: makes a real-world OpenAPI 3.0/3.1 document generable before it is down-levelled,
//! and reports every repair and every defect it meets with the JSON pointer of its source.
//! [`normalize_with_origins`] runs the repairs in order; each submodule, named in parentheses
//! below, holds one job.
//!
//! Document-level repairs (`document`):
//!
//! - An OpenAPI 3.0 document is read as 3.1 (`nullable` becomes a `null` type, boolean
//!   exclusive bounds become numbers), and so is a 3.1 description's schema still spelled in 3.0.
//! - **A missing `info.title` or `info.version`** (both required) is read as "the API" and
//!   "0.0.0", and reported as a defect.
//! - Reusable path items (each path that refers to one holds a copy by then), the license
//!   identifier and the dialect are dropped; so are **callbacks**, requests the API sends that
//!   no generator reads, reported as left out.
//! - **Webhooks** (`webhooks`), requests the API sends rather than operations, leave
//!   `webhooks`: each one's JSON body schema becomes a component, and the root's `x-webhook-bodies`
//!   mark tells `emit` which, for the generated `webhooks` module.
//!
//! Operation-level repairs:
//!
//! - **Operation ids** are synthesised when absent (`operation_ids`; see [`operation_ids()`]
//!   for the naming scheme).
//! - An operation **without `responses`** gets a `200` success without a body (`operations`,
//!   like the next three).
//! - **Success bodies of different types** (say `200` and `207`): all their JSON schemas become
//!   one component `<OperationId>Success` (`anyOf` of the distinct bodies, in status order)
//!   that every 2xx response refers to, so the client decodes whichever the server sends. A
//!   2xx without a JSON body beside one with a body cannot share its type: only the lowest such
//!   status is kept and the others are reported (the client then returns them as unexpected
//!   responses, bytes intact). Error bodies (4xx, 5xx, `default`) are unified the same way.
//! - **Identical bodies written inline** in several responses of one class become one
//!   component (`<OperationId>Success`/`Error`), as hoisting would make a type per place.
//! - **More than one request media type**: the JSON one is kept, else one progenitor can send
//!   (form, octet-stream, text), else the first.
//! - **Parameters progenitor cannot send as described** (`parameters`): a `deepObject` is
//!   spelled out per leaf (`filter[state]`), an unexploded array taken as its text, and a
//!   cookie, a `deepObject` map or a second parameter with the same Rust argument name left
//!   out of its operation, which stays.
//! - **`$ref`s that lead nowhere** (`references`; a missing local place or another document)
//!   are degraded where they are: a schema reads any JSON value, a parameter or request body
//!   is left out, a response keeps no body. A `$ref` to a place that is not a component
//!   (inside one, under `#/paths/...`, a reusable path item, `#/definitions/...`), which the
//!   generators cannot follow, is repaired: a schema there becomes a component, anything else is
//!   copied in place (`references`), and so is a component's spelled with `%XX` escapes. A path
//!   item's shared parameters are copied into its operations (`paths`).
//!   2019-09's `$recursiveRef: "#"` inside a component anchored with `$recursiveAnchor` becomes
//!   a `$ref` to that component (`references`).
//! - **Media types** (`media`): JSON without a schema is any JSON value, a `*/*` request body
//!   the JSON or bytes its schema describes, a byte body's schema bytes, and a form's
//!   per-property `encoding` dropped and reported.
//! - **Multipart request bodies** (`multipart`), which progenitor refuses, are handed on as a
//!   typed form that emit sends as multipart, every binary string in it one file type.
//!
//! Component-level repairs:
//!
//! - **Component schemas named like a type the generated code shares** (`CheckedString`,
//!   `ValidationError`, ...) are renamed `<Name>Schema`, and those whose type would be named
//!   like an earlier component's (`check_result` after `CheckResult`) `<Name>2`, with every
//!   `$ref` to them (`components`, like the next two).
//! - A component's own `$defs` become components of their own.
//! - A component that is a union with a `null` member is split into the union and the
//!   nullable that holds it.
//! - **Inline objects** are moved into `components/schemas`, named from where they sit (see
//!   `hoist`'s doc), because the emit steps match each struct to its schema by component
//!   (`hoisting`). A union of moved objects told apart by a required `const` string property
//!   moves too, so that `patch::infer` gives it the tagged-union patch: it decodes by its tag
//!   (`#[serde(tag)]`), not by trying each member.
//! - **Identical moved schemas** (the same inline object under many operations) become one
//!   component, named by the description when it names one, else by the shortest moved name;
//!   a name made from a deep place is cut to its last words, at most 60 characters
//!   (`identical`, `hoisting`).
//! - **Union members that only require some of an object's properties**
//!   (`{properties, anyOf: [{required: [a]}, {required: [b]}]}`) are each written out as the
//!   whole object with its requirement (`required_alternatives`), since typify leaves out of
//!   each member the properties the others require.
//!
//! Schema-level repairs, on every schema node (`schemas`):
//!
//! - `$schema` is dropped (a per-schema dialect means nothing to a client), and so is `title`
//!   (an annotation that typify would otherwise take as the name of an inline type, which
//!   nothing else could then find from the schema's place).
//! - Boolean schemas where 3.0 has none, `contentEncoding`/`contentMediaType`/`contentSchema`,
//!   and a `format` on an object, array or boolean are written as 3.0 can read them.
//! - **Open enums** (`anyOf: [{enum: [...]}, {type: string}]`) become an `enum` of the known
//!   values marked `x-open-enum` and moved into `components/schemas` like an inline object;
//!   emit gives the enum an `Other(String)` variant that takes any other string, strict
//!   decoding and requests included (unlike a tolerant enum's `Unknown`), so the type accepts
//!   exactly what the schema accepts.
//! - **Literal sets** (`anyOf` of `const`s and `enum`s) become one `enum`; any other `anyOf` of
//!   two or more members is handed on as `oneOf` (marked `x-any-of`), which typify emits as an
//!   enum decoding the first member that fits: exactly `anyOf`, where typify's own `anyOf` is a
//!   struct of optional members that accepts values no member accepts. The plain open object
//!   members of every union (`oneOf`, and so `anyOf`) are given `additionalProperties: {}`
//!   (which means what its absence means), so that whichever member decodes a value keeps the
//!   properties another member lists (`union_members`).
//! - **Unsatisfiable closed objects** (`additionalProperties: false` and a required property
//!   not declared) get the property declared with an unconstrained schema, as their authors
//!   evidently meant.
//! - **Keywords that constrain no instance of the stated `type`** (`minimum` on a string,
//!   `minItems` on a string), and a `discriminator` beside no `oneOf`, `anyOf` or `allOf`, are
//!   dropped and reported as defects (`inapplicable`).
//! - **Defaults that break their own schema** are dropped.
//! - **Patterns** the generated code's ECMA-262 engine (`regress`, which has look-ahead and
//!   look-behind) cannot compile are dropped and reported; `format: uuid` becomes the
//!   equivalent pattern (typify would need the `uuid` crate otherwise).
//!
//! - **`null` no instance can be**: `type: [object, null]` beside a union none of whose members
//!   admits `null` (a 3.0 `nullable` beside a `oneOf`), or an `allOf` part that refuses it:
//!   the `null` is dropped, with a `default: null`, and reported (`dead_null`).
//!
//! Nullable `anyOf: [T, {type: null}]` and `type: [T, "null"]` need no repair here: down-levelling
//! turns them into `nullable`, which typify emits as `Option<T>`. Nor do tuples (`prefixItems`):
//! down-levelling carries them to the tuple patch.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::report::{Finding, FindingKind};

mod components;
mod dead_null;
mod document;
mod hoisting;
mod identical;
mod inapplicable;
mod media;
mod multipart;
mod operation_ids;
mod operations;
mod parameters;
mod paths;
mod references;
mod required_alternatives;
mod schemas;
mod union_members;
mod webhooks;

pub(crate) use document::UNTITLED;
pub use operation_ids::{operation_ids, synthesise_ids};

/// Applies every repair to `document` (a loaded 3.0 or 3.1 document) and returns what it did.
pub fn normalize(document: &mut Value) -> Vec<Finding> {
    normalize_with_origins(document).findings
}

/// Where each schema moved into `components/schemas` came from: component pointer to source
/// pointer, so that later findings can name the place in the original document.
pub type Origins = BTreeMap<String, String>;

/// What [`normalize_with_origins`] found besides its findings.
#[derive(Clone, Debug, Default)]
pub struct Normalized {
    /// Every repair and defect, with its source pointer.
    pub findings: Vec<Finding>,
    /// Where each moved schema came from.
    pub origins: Origins,
}

/// [`normalize`], with the [`Origins`] of the inline objects it moved.
pub fn normalize_with_origins(document: &mut Value) -> Normalized {
    let mut findings = Vec::new();
    references::dangling(document, &mut findings);
    // First after the references that lead nowhere, while every place a reference names is
    // where it was written: the repairs below restructure parameters and bodies.
    let out_of_place = references::out_of_place(document, &mut findings);
    references::recursive(document, &mut findings);
    // Before the document-level repairs, so that the bodies moved into components are read as
    // 3.1 like every other component.
    let webhook_bodies = webhooks::webhook_bodies(document, &mut findings);
    document::document_level(document, &mut findings);
    let renamed = components::rename_shared_names(document, &mut findings);
    operation_ids(document, &mut findings);
    parameters::with_content(document, &mut findings);
    parameters::styles(document, &mut findings);
    // Shared parameters go into each operation first, so a clash in one operation leaves the
    // parameter out of that operation only.
    paths::shared_parameters_into_operations(document);
    parameters::names_alike(document, &mut findings);
    media::repair(document, &mut findings);
    let definitions = components::local_definitions(document, &mut findings);
    for pointer in crate::model::schema_locations(document) {
        if let Some(schema) = document.pointer_mut(&pointer) {
            schemas::normalize_schema(schema, &pointer, &mut findings);
        }
    }
    schemas::defaults_through_references(document, &mut findings);
    // After the schema repairs (a 3.0 `nullable` is a `null` type by then), before any step
    // reads a schema's nullability.
    dead_null::drop_unreachable_null(document, &mut findings);
    // After the schema repairs (an `anyOf` is a `oneOf` by then, a member's `type` stated),
    // before hoisting, which moves each member written out into a component.
    let alternatives = required_alternatives::write_out(document, &mut findings);
    let unified_bodies = operations::operations(document, &mut findings);
    multipart::multipart_bodies(document, &mut findings);
    // Once each request body has one media type and the multipart ones are marked.
    media::sendable(document, &mut findings);
    let split = components::nullable_union_components(document);
    let mut origins = hoisting::hoist(document);
    // After hoisting, so that an inline member is changed in its component.
    union_members::keep_unlisted_properties(document);
    // Last of the schema repairs, once every moved schema is as the generators will read it.
    let moved = origins
        .keys()
        .filter_map(|pointer| pointer.strip_prefix("/components/schemas/"))
        .map(crate::model::unescape)
        .chain(unified_bodies)
        .collect();
    identical::share_identical(document, &moved, &mut origins);
    origins.extend(alternatives);
    origins.extend(renamed);
    origins.extend(split);
    origins.extend(definitions);
    origins.extend(webhook_bodies);
    origins.extend(out_of_place);
    // A repair after a move names a place in the moved schema: name it in the source instead.
    for finding in &mut findings {
        finding.pointer = source_pointer(&origins, &finding.pointer);
    }
    Normalized { findings, origins }
}

/// `pointer` in terms of the original document: a place inside a moved schema is named where
/// that schema came from.
pub fn source_pointer(origins: &Origins, pointer: &str) -> String {
    // The longest of the pointer's own prefixes (itself, then up to each `/`) that names a moved
    // schema: a lookup per segment, not a scan of every moved schema.
    let ends = std::iter::once(pointer.len()).chain(pointer.rmatch_indices('/').map(|(at, _)| at));
    let moved = ends
        .filter(|&end| end > 0)
        .find_map(|end| origins.get_key_value(&pointer[..end]));
    match moved {
        Some((component, source)) => {
            let inner = source_pointer(origins, source);
            format!("{inner}{}", &pointer[component.len()..])
        }
        None => pointer.to_owned(),
    }
}

/// The document's `components/schemas`, made when it has none: where every step that adds a
/// component puts it.
fn component_schemas_mut(document: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    document
        .as_object_mut()?
        .entry("components")
        .or_insert_with(|| Value::Object(serde_json::Map::new()))
        .as_object_mut()?
        .entry("schemas")
        .or_insert_with(|| Value::Object(serde_json::Map::new()))
        .as_object_mut()
}

/// `name`, or `name` with the first number from 2 that is not `taken`.
pub(crate) fn unique_name(name: &str, taken: &BTreeSet<String>) -> String {
    let mut candidate = name.to_owned();
    let mut counter = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}{counter}");
        counter += 1;
    }
    candidate
}

/// `snake_case` of a path segment: words split at non-alphanumerics and lower-upper changes.
fn snake(text: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for character in text.chars() {
        if character.is_ascii_alphanumeric() {
            if character.is_ascii_uppercase() && previous_lower {
                out.push('_');
            }
            previous_lower = character.is_ascii_lowercase() || character.is_ascii_digit();
            out.push(character.to_ascii_lowercase());
        } else {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            previous_lower = false;
        }
    }
    let trimmed = out.trim_matches('_');
    if trimmed.starts_with(|c: char| c.is_ascii_digit()) {
        format!("n{trimmed}")
    } else {
        trimmed.to_owned()
    }
}

/// `UpperCamelCase` of `text`, from its [`snake`] words.
fn pascal(text: &str) -> String {
    snake(text)
        .split('_')
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut characters = word.chars();
            characters
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + characters.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Whether `media_type` is JSON (`application/json` or `+json`), parameters aside.
fn is_json(media_type: &str) -> bool {
    // Media types are case-insensitive (`application/JSON` is JSON).
    let essence = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence.ends_with("+json")
}

/// `value`, or what its local `$ref`s lead to ([`crate::model::Document::resolve`], the one
/// place references are followed); `value` itself when they lead nowhere (a dangling reference
/// is degraded by `references` before anything reads it).
fn resolve<'a>(document: &'a Value, value: &'a Value) -> &'a Value {
    crate::model::Document::new(document)
        .resolve(value)
        .unwrap_or(value)
}

/// The kind and pointer of each finding, in order: what the submodules' tests compare.
#[cfg(test)]
fn places(findings: &[Finding]) -> Vec<(FindingKind, &str)> {
    findings
        .iter()
        .map(|finding| (finding.kind.clone(), finding.pointer.as_str()))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_shared_parameter_that_clashes_in_one_operation_is_renamed_there_only() {
        // `X-Id` (shared, query) and `x_id` (get's own header) are one Rust argument in `get`
        // only, where the operation's own (after the shared one, once copied in) is renamed;
        // `post` has no clash and keeps the shared parameter as it is.
        let mut document = json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {"/a": {
                "parameters": [{"name": "X-Id", "in": "query", "schema": {"type": "string"}}],
                "get": {"operationId": "getA", "parameters": [{"name": "x_id", "in": "header", "schema": {"type": "string"}}], "responses": {"204": {"description": "ok"}}},
                "post": {"operationId": "postA", "responses": {"204": {"description": "ok"}}}
            }}
        });
        let findings = normalize(&mut document);
        let names = |method: &str| -> Vec<String> {
            document["paths"]["/a"][method]["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|parameter| parameter["name"].as_str().unwrap_or_default().to_owned())
                .collect()
        };
        assert_eq!(names("get"), ["X-Id", "x_id_header"], "{findings:?}");
        assert_eq!(
            document["paths"]["/a"]["get"]["parameters"][1]["x-wire-name"],
            "x_id"
        );
        assert_eq!(names("post"), ["X-Id"], "{findings:?}");
        let renamed: Vec<&Finding> = findings
            .iter()
            .filter(|finding| finding.message.contains("same Rust argument name"))
            .collect();
        assert_eq!(renamed.len(), 1, "{findings:?}");
        assert_eq!(renamed[0].kind, FindingKind::Repaired);
        assert!(
            renamed[0].pointer.starts_with("/paths/~1a/get/"),
            "{renamed:?}"
        );
    }
}
