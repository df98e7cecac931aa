//! Step 1½: makes a real-world OpenAPI 3.0/3.1 document generable before it is down-levelled,
//! and reports every repair and every defect it meets with the JSON pointer of its source.
//!
//! Operation-level repairs:
//!
//! - **Operation ids** are synthesised when absent (see [`operation_ids`] for the naming scheme).
//! - An operation **without `responses`** gets a `200` success without a body.
//! - **Success bodies of different types** (say `200` and `207`): all their JSON schemas become
//!   one component `<OperationId>Success` (`anyOf` of the distinct bodies, in status order)
//!   that every 2xx response refers to, so the client decodes whichever the server sends. A
//!   2xx without a JSON body beside one with a body cannot share its type: only the lowest such
//!   status is kept and the others are reported (the client then returns them as unexpected
//!   responses, bytes intact). Error bodies (4xx, 5xx, `default`) are unified the same way.
//! - **More than one request media type**: the JSON one is kept, else one progenitor can send
//!   (form, octet-stream, text), else the first.
//! - **Parameters progenitor cannot send as described** (`parameters`): a `deepObject` is
//!   spelled out per leaf (`filter[state]`), an unexploded array taken as its text, and a
//!   cookie, a `deepObject` map or a second parameter with the same Rust argument name left
//!   out of its operation, which stays.
//! - **`$ref`s that lead nowhere** (`references`; a missing local place or another document)
//!   are degraded where they are: a schema reads any JSON value, a parameter or request body
//!   is left out, a response keeps no body. A `$ref` into `#/paths/...` becomes a copy of its
//!   target, and a path item's shared parameters are copied into its operations (`paths`).
//! - **Media types** (`media`): JSON without a schema is any JSON value, a `*/*` request body
//!   the JSON or bytes its schema describes, a byte body's schema bytes, and a form's
//!   per-property `encoding` dropped and reported.
//! - **Identical bodies written inline** in several responses of one class become one
//!   component (`<OperationId>Success`/`Error`), as hoisting would make a type per place.
//! - Boolean schemas where 3.0 has none, `contentEncoding`/`contentMediaType`/`contentSchema`,
//!   and a `format` on an object, array or boolean are written as 3.0 can read them.
//!
//! - **Component schemas named like a type the generated code shares** (`CheckedString`,
//!   `ValidationError`, ...) are renamed `<Name>Schema`, and those whose type would be named
//!   like an earlier component's (`check_result` after `CheckResult`) `<Name>2`, with every
//!   `$ref` to them.
//!
//! Schema-level repairs, on every schema node:
//!
//! - `$schema` is dropped (a per-schema dialect means nothing to a client), and so is `title`
//!   (an annotation that typify would otherwise take as the name of an inline type, which
//!   nothing else could then find from the schema's place).
//! - **Open enums** (`anyOf: [{enum: [...]}, {type: string}]`) become an `enum` of the known
//!   values marked `x-open-enum` and moved into `components/schemas` like an inline object;
//!   emit gives the enum an `Other(String)` variant that takes any other string, strict
//!   decoding and requests included (unlike a tolerant enum's `Unknown`), so the type accepts
//!   exactly what the schema accepts.
//! - **Literal sets** (`anyOf` of `const`s and `enum`s) become one `enum`; any other `anyOf` of
//!   two or more members is handed on as `oneOf` (marked `x-any-of`), which typify emits as an
//!   enum decoding the first member that fits: exactly `anyOf`, where typify's own `anyOf` is a
//!   struct of optional members that accepts values no member accepts.
//! - **Inline objects** are moved into `components/schemas`, named from where they sit (see
//!   `hoist`'s doc), because the emit steps match each struct to its schema by component.
//!   A union of moved objects told apart by a required `const` string property moves too, so
//!   that `patch::infer` gives it the tagged-union patch: it decodes by its tag
//!   (`#[serde(tag)]`), not by trying each member.
//! - **Unsatisfiable closed objects** (`additionalProperties: false` and a required property
//!   not declared) get the property declared with an unconstrained schema, as their authors
//!   evidently meant.
//! - **Defaults that break their own schema** are dropped.
//! - **A missing `info.title` or `info.version`** (both required) is read as "the API" and
//!   "0.0.0", and reported as a defect.
//! - **Patterns** the generated code's ECMA-262 engine (`regress`, which has look-ahead and
//!   look-behind) cannot compile are dropped and reported; `format: uuid` becomes the
//!   equivalent pattern (typify would need the `uuid` crate otherwise).
//!
//! Nullable `anyOf: [T, {type: null}]` and `type: [T, "null"]` need no repair here: down-levelling
//! turns them into `nullable`, which typify emits as `Option<T>`. Nor do tuples (`prefixItems`):
//! down-levelling carries them to the tuple patch.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use crate::model::is_method;
use crate::model::mark;
use crate::model::push;
use crate::report::{Finding, FindingKind};

mod media;
mod parameters;
mod paths;
mod references;

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
    paths::references_into_paths(document, &mut findings);
    references::dangling(document, &mut findings);
    document_level(document, &mut findings);
    let renamed = rename_shared_names(document, &mut findings);
    operation_ids(document, &mut findings);
    parameters::with_content(document, &mut findings);
    parameters::styles(document, &mut findings);
    parameters::names_alike(document, &mut findings);
    paths::shared_parameters_into_operations(document);
    media::repair(document, &mut findings);
    let definitions = local_definitions(document, &mut findings);
    for pointer in crate::model::schema_locations(document) {
        if let Some(schema) = document.pointer_mut(&pointer) {
            normalize_schema(schema, &pointer, &mut findings);
        }
    }
    operations(document, &mut findings);
    multipart_bodies(document, &mut findings);
    let split = nullable_union_components(document);
    let mut origins = hoist(document);
    origins.extend(renamed);
    origins.extend(split);
    origins.extend(definitions);
    Normalized { findings, origins }
}

/// A component schema's own `$defs` (or draft 4's `definitions`), which progenitor cannot
/// resolve: each definition a `$ref` points to becomes the component `<Component><Name>`, with
/// every such `$ref` rewritten; unused ones are dropped. Both are reported.
fn local_definitions(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    let mut origins = Origins::new();
    let text = document.to_string();
    let mut taken = crate::contract::component_names_in_use(document);
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return origins;
    };
    let mut moved = Vec::new();
    let mut renames = Vec::new();
    for (name, schema) in schemas.iter_mut() {
        for keyword in ["$defs", "definitions"] {
            let Some(Value::Object(definitions)) = schema
                .as_object_mut()
                .and_then(|object| object.remove(keyword))
            else {
                continue;
            };
            let at = push(&push("/components/schemas", name), keyword);
            for (definition, body) in definitions {
                let old = push(&at, &definition);
                let referenced =
                    text.contains(&format!("\"#{old}\"")) || text.contains(&format!("\"#{old}/"));
                if !referenced {
                    findings.push(Finding::new(
                        FindingKind::Repaired,
                        &old,
                        "a local definition no `$ref` uses; dropped",
                    ));
                    continue;
                }
                let new = unique_name(
                    &format!("{}{}", type_name(name), type_name(&definition)),
                    &taken,
                );
                taken.insert(new.clone());
                findings.push(Finding::new(
                    FindingKind::Repaired,
                    &old,
                    format!("a local definition, which progenitor cannot resolve; moved into `components/schemas` as `{new}`"),
                ));
                let new_pointer = push("/components/schemas", &new);
                origins.insert(new_pointer.clone(), old.clone());
                renames.push((format!("#{old}"), format!("#{new_pointer}")));
                moved.push((new, body));
            }
        }
    }
    schemas.extend(moved);
    if !renames.is_empty() {
        rewrite_refs(document, &renames);
    }
    origins
}

/// A component that is a union with a `null` member (`oneOf: [string, null, $ref]`) is split
/// in two: `<Name>Inner`, the union without `null`, and the component, `anyOf: [<Name>Inner,
/// null]`. typify names both halves of such a component after it (the `Option` newtype and the
/// union inside it), which would not compile; split, it names them as it names a nullable
/// object's, `<Name>` holding an `Option<<Name>Inner>`. Returns where each new component came
/// from.
fn nullable_union_components(document: &mut Value) -> Origins {
    let mut origins = Origins::new();
    let mut taken = crate::contract::component_names_in_use(document);
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return origins;
    };
    let is_null = |member: &Value| member.get("type").and_then(Value::as_str) == Some("null");
    let mut split = Vec::new();
    for (name, schema) in schemas.iter_mut() {
        let Some(object) = schema.as_object_mut() else {
            continue;
        };
        let Some(keyword) = ["oneOf", "anyOf"].into_iter().find(|keyword| {
            object
                .get(*keyword)
                .and_then(Value::as_array)
                .is_some_and(|members| members.iter().any(is_null))
        }) else {
            continue;
        };
        let members = object
            .get(keyword)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let rest: Vec<Value> = members
            .into_iter()
            .filter(|member| !is_null(member))
            .collect();
        // One `$ref` beside `null` is typify's `Option` of that type already.
        let single_reference = matches!(rest.as_slice(), [only] if only.get("$ref").is_some());
        let structural = object.keys().any(|key| {
            ![
                "description",
                "title",
                "example",
                "examples",
                "default",
                "deprecated",
                mark::ANY_OF,
                keyword,
            ]
            .contains(&key.as_str())
        });
        if rest.is_empty() || single_reference || structural {
            continue;
        }
        let inner = unique_name(&format!("{}Inner", type_name(name)), &taken);
        taken.insert(inner.clone());
        let mut union = json!({ keyword: rest });
        // `anyOf` handed on as `oneOf` keeps its mark on the half that is the union.
        if let Some(mark) = object.get(mark::ANY_OF) {
            union[mark::ANY_OF] = mark.clone();
        }
        object.insert(
            keyword.to_owned(),
            json!([{"$ref": format!("#/components/schemas/{inner}")}, {"type": "null"}]),
        );
        origins.insert(
            push("/components/schemas", &inner),
            push("/components/schemas", name),
        );
        split.push((inner, union));
    }
    schemas.extend(split);
    origins
}

/// Renames each component schema whose type would take the name of a type the generated code
/// shares ([`crate::runtime::SHARED_TYPE_NAMES`], compared as typify names types, in
/// UpperCamelCase) to `<Name>Schema`, and each whose type would take the name of an earlier
/// component's (`foo_bar` after `FooBar`) to `<Name>2`, with every `$ref` to them: two items of
/// one name would not compile, and the description's name is the one that can move. Returns
/// where each renamed component came from.
fn rename_shared_names(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    let mut origins = Origins::new();
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return origins;
    };
    let mut taken: BTreeSet<String> = schemas.keys().map(|name| type_name(name)).collect();
    taken.extend(
        crate::runtime::SHARED_TYPE_NAMES
            .iter()
            .map(|name| (*name).to_owned()),
    );
    // A name the generated code shares, or the type name of an earlier component (`foo_bar`
    // after `FooBar`): the later one is renamed.
    let mut first_named: BTreeMap<String, String> = BTreeMap::new();
    let mut clashing: Vec<(String, Option<String>)> = Vec::new();
    for name in schemas.keys() {
        let typed = type_name(name);
        if crate::runtime::SHARED_TYPE_NAMES.contains(&typed.as_str()) {
            clashing.push((name.clone(), None));
        } else if let Some(first) = first_named.get(&typed) {
            clashing.push((name.clone(), Some(first.clone())));
        } else {
            first_named.insert(typed, name.clone());
        }
    }
    let mut renames = Vec::new();
    for (old, first) in clashing {
        let new = match &first {
            None => unique_name(&format!("{}Schema", type_name(&old)), &taken),
            Some(_) => unique_name(&type_name(&old), &taken),
        };
        taken.insert(new.clone());
        if let Some(schema) = schemas.remove(&old) {
            schemas.insert(new.clone(), schema);
        }
        let (old_pointer, new_pointer) = (
            push("/components/schemas", &old),
            push("/components/schemas", &new),
        );
        let why = match first {
            None => "the generated code has a type of its own named".to_owned(),
            Some(first) => format!(
                "the type of {} is named",
                push("/components/schemas", &first)
            ),
        };
        findings.push(Finding::new(
            FindingKind::Repaired,
            &old_pointer,
            format!("renamed to `{new}`: {why} `{}`", type_name(&old)),
        ));
        origins.insert(new_pointer.clone(), old_pointer.clone());
        renames.push((format!("#{old_pointer}"), format!("#{new_pointer}")));
    }
    if !renames.is_empty() {
        rewrite_refs(document, &renames);
    }
    origins
}

/// Points every `$ref` in `value` that names (or points into) a renamed schema at its new name.
fn rewrite_refs(value: &mut Value, renames: &[(String, String)]) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match child {
                    Value::String(reference) if key == "$ref" => {
                        let renamed = renames.iter().find_map(|(old, new)| {
                            let rest = reference.strip_prefix(old.as_str())?;
                            (rest.is_empty() || rest.starts_with('/'))
                                .then(|| format!("{new}{rest}"))
                        });
                        if let Some(renamed) = renamed {
                            *reference = renamed;
                        }
                    }
                    child => rewrite_refs(child, renames),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| rewrite_refs(item, renames)),
        _ => {}
    }
}

/// `pointer` in terms of the original document: a place inside a moved schema is named where
/// that schema came from.
pub fn source_pointer(origins: &Origins, pointer: &str) -> String {
    let moved = origins
        .range(..=pointer.to_owned())
        .rev()
        .find(|(component, _)| {
            pointer == component.as_str() || pointer.starts_with(&format!("{component}/"))
        });
    match moved {
        Some((component, source)) => {
            let inner = source_pointer(origins, source);
            format!("{inner}{}", &pointer[component.len()..])
        }
        None => pointer.to_owned(),
    }
}

/// Moves every inline object schema (one with `properties`) into `components/schemas`, named
/// from where it sits, innermost first: `<OperationId>Body`, `<OperationId>Response`, then
/// `<Parent><Property>`, `<Parent>Item` (array items), `<Parent>Value` (map values) and
/// `<Parent>Variant<n>` (union members). A direct property of a component stays where it is
/// (typify names it `<Component><Property>` already, and the emit steps find it there).
///
/// The generated client is the same either way; what changes is that every struct has a
/// component of its own, which the emit steps need to match each struct to its rules (a real
/// description may hold its whole API inline).
fn hoist(document: &mut Value) -> Origins {
    // A component's key and the name typify gives its type (`searchResponse` is
    // `SearchResponse`) are both taken: a hoisted schema must not take either.
    let mut taken = crate::contract::component_names_in_use(document);
    taken.extend(
        crate::runtime::SHARED_TYPE_NAMES
            .iter()
            .map(|name| (*name).to_owned()),
    );
    let mut hoisted: Vec<(String, Value)> = Vec::new();
    let mut origins = Origins::new();
    for pointer in crate::model::schema_locations(document) {
        let (base, component) = match location_name(document, &pointer) {
            Some(found) => found,
            None => continue,
        };
        let Some(schema) = document.pointer_mut(&pointer) else {
            continue;
        };
        let mut context = Hoisting {
            taken: &mut taken,
            hoisted: &mut hoisted,
            origins: &mut origins,
        };
        if component {
            for (child, name) in children(schema, &base) {
                // A component's direct properties stay inline; their own children do not.
                let keep_inline = child.0 == "properties";
                let child_pointer = child_pointer(&pointer, &child);
                let node = child_mut(schema, &child);
                if let Some(node) = node {
                    if keep_inline {
                        for (grandchild, grandname) in children(node, &name) {
                            let inner_pointer = self::child_pointer(&child_pointer, &grandchild);
                            if let Some(inner) = child_mut(node, &grandchild) {
                                context.visit(inner, &grandname, &inner_pointer);
                            }
                        }
                        // A tagged union moves even here: its patch needs a component; so
                        // does an open enum, which emit finds by its component.
                        if context.union_tag(node).is_some() || node.get(mark::OPEN_ENUM).is_some()
                        {
                            context.visit(node, &name, &child_pointer);
                        }
                    } else {
                        context.visit(node, &name, &child_pointer);
                    }
                }
            }
        } else {
            context.visit(schema, &base, &pointer);
        }
    }
    if hoisted.is_empty() {
        return origins;
    }
    let Some(root) = document.as_object_mut() else {
        return origins;
    };
    let components = root
        .entry("components")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(schemas) = components.as_object_mut().map(|components| {
        components
            .entry("schemas")
            .or_insert_with(|| Value::Object(Map::new()))
    }) && let Some(schemas) = schemas.as_object_mut()
    {
        schemas.extend(hoisted);
    }
    origins
}

/// The pointer of a child of the schema at `parent`.
fn child_pointer(parent: &str, (keyword, key): &ChildKey) -> String {
    let pointer = push(parent, keyword);
    match key {
        Some(key) => push(&pointer, key),
        None => pointer,
    }
}

/// The type name a schema location gives its inline types, and whether it is a component.
fn location_name(document: &Value, pointer: &str) -> Option<(String, bool)> {
    if let Some(name) = pointer.strip_prefix("/components/schemas/") {
        return Some((pascal(&name.replace("~1", "/").replace("~0", "~")), true));
    }
    let tokens: Vec<&str> = pointer.split('/').collect();
    // `/components/(responses|requestBodies|parameters|headers)/<Name>/...`: progenitor would
    // name an inline type there after each operation that uses it, so it moves under the
    // component's own name.
    if tokens.get(1) == Some(&"components") && tokens.len() > 3 {
        let name = tokens[3].replace("~1", "/").replace("~0", "~");
        let suffix = match tokens[2] {
            "responses" => "response",
            "requestBodies" => "body",
            "parameters" | "headers" => "",
            _ => return None,
        };
        return Some((pascal(&format!("{name}_{suffix}")), false));
    }
    // `/paths/<path>/<method>/(requestBody|responses/<status>)/...`
    if tokens.get(1) != Some(&"paths") || tokens.len() < 5 {
        return None;
    }
    let operation = document.pointer(&tokens[..4].join("/"))?;
    let id = operation.get("operationId").and_then(Value::as_str)?;
    match tokens[4] {
        "requestBody" => Some((pascal(&format!("{id}_body")), false)),
        "responses" => {
            let status = tokens.get(5).copied().unwrap_or_default();
            let suffix = if status.starts_with('2') {
                "response".to_owned()
            } else {
                format!("response_{status}")
            };
            Some((pascal(&format!("{id}_{suffix}")), false))
        }
        _ => None,
    }
}

/// Where a subschema sits in its parent: the keyword and, for maps and lists, the key.
type ChildKey = (&'static str, Option<String>);

/// The subschemas of `schema` that may hold inline objects, with the names they would take.
fn children(schema: &Value, base: &str) -> Vec<(ChildKey, String)> {
    let mut out = Vec::new();
    let Some(object) = schema.as_object() else {
        return out;
    };
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for name in properties.keys() {
            out.push((
                ("properties", Some(name.clone())),
                format!("{base}{}", pascal(name)),
            ));
        }
    }
    if object.get("items").is_some_and(Value::is_object) {
        out.push((("items", None), format!("{base}Item")));
    }
    if object
        .get("additionalProperties")
        .is_some_and(Value::is_object)
    {
        out.push((("additionalProperties", None), format!("{base}Value")));
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        for index in 0..object
            .get(keyword)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
        {
            out.push((
                (keyword, Some(index.to_string())),
                format!("{base}Variant{index}"),
            ));
        }
    }
    out
}

fn child_mut<'a>(schema: &'a mut Value, (keyword, key): &ChildKey) -> Option<&'a mut Value> {
    let node = schema.get_mut(*keyword)?;
    match key {
        None => Some(node),
        Some(key) => match node {
            Value::Array(list) => list.get_mut(key.parse::<usize>().ok()?),
            Value::Object(map) => map.get_mut(key),
            _ => None,
        },
    }
}

/// A schema without its `null` (from its `type` list and its `enum`), and whether it had one.
fn without_null(mut schema: Value) -> (Value, bool) {
    let nullable = match schema.get_mut("type") {
        Some(Value::Array(kinds)) if kinds.iter().any(|kind| kind == "null") => {
            kinds.retain(|kind| kind != "null");
            if let [only] = kinds.as_slice() {
                let only = only.clone();
                schema["type"] = only;
            }
            if let Some(Value::Array(values)) = schema.get_mut("enum") {
                values.retain(|value| !value.is_null());
            }
            true
        }
        _ => false,
    };
    (schema, nullable)
}

struct Hoisting<'a> {
    taken: &'a mut BTreeSet<String>,
    hoisted: &'a mut Vec<(String, Value)>,
    origins: &'a mut Origins,
}

impl Hoisting<'_> {
    /// Hoists the inline objects inside `node`, then `node` itself if it is one.
    fn visit(&mut self, node: &mut Value, name: &str, pointer: &str) {
        for (child, child_name) in children(node, name) {
            let inner_pointer = child_pointer(pointer, &child);
            if let Some(inner) = child_mut(node, &child) {
                self.visit(inner, &child_name, &inner_pointer);
            }
        }
        let is_struct = node
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|properties| !properties.is_empty());
        let tagged_union = self.union_tag(node).is_some();
        let open_enum = node.get(mark::OPEN_ENUM).is_some();
        if !(is_struct || tagged_union || open_enum) || node.get("$ref").is_some() {
            return;
        }
        // The same schema met again under the same name (a body repeated for `200` and `201`)
        // is the same component, so both places have one type, as progenitor needs of the
        // bodies of one status class.
        let repeated = self
            .hoisted
            .iter()
            .find(|(hoisted, schema)| {
                hoisted
                    .strip_prefix(name)
                    .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
                    && *schema == without_null(node.clone()).0
            })
            .map(|(hoisted, _)| hoisted.clone());
        if let Some(existing) = repeated {
            let reference = json!({"$ref": format!("#/components/schemas/{existing}")});
            *node = if without_null(node.clone()).1 {
                json!({"anyOf": [reference, {"type": "null"}]})
            } else {
                reference
            };
            return;
        }
        let name = unique_name(name, self.taken);
        self.taken.insert(name.clone());
        let schema = std::mem::take(node);
        let reference = json!({"$ref": format!("#/components/schemas/{name}")});
        // A nullable object (or open enum) stays nullable where it is used; the component is
        // the object (the enum without `null`).
        let (schema, nullable) = without_null(schema);
        *node = if nullable {
            json!({"anyOf": [reference, {"type": "null"}]})
        } else {
            reference
        };
        self.origins
            .insert(push("/components/schemas", &name), pointer.to_owned());
        self.hoisted.push((name, schema));
    }

    /// The property that tells the members of a `oneOf` of moved objects apart: required by
    /// each, a different `const` string in each.
    fn union_tag(&self, node: &Value) -> Option<String> {
        let members = node.get("oneOf")?.as_array()?;
        if members.len() < 2 || node.get("properties").is_some() {
            return None;
        }
        let schemas: Vec<&Value> = members
            .iter()
            .map(|member| {
                let name = member
                    .get("$ref")?
                    .as_str()?
                    .strip_prefix("#/components/schemas/")?;
                self.hoisted
                    .iter()
                    .find(|(hoisted, _)| hoisted == name)
                    .map(|(_, schema)| schema)
            })
            .collect::<Option<_>>()?;
        let constant = |schema: &Value, property: &str| -> Option<String> {
            let required = schema.get("required")?.as_array()?;
            if !required.iter().any(|name| name == property) {
                return None;
            }
            let property = schema.get("properties")?.get(property)?;
            match (
                property.get("const"),
                property.get("enum").and_then(Value::as_array),
            ) {
                (Some(Value::String(value)), _) => Some(value.clone()),
                (None, Some(values)) => match values.as_slice() {
                    [Value::String(value)] => Some(value.clone()),
                    _ => None,
                },
                _ => None,
            }
        };
        let candidates = schemas.first()?.get("properties")?.as_object()?.keys();
        for property in candidates {
            let values: Option<Vec<String>> = schemas
                .iter()
                .map(|schema| constant(schema, property))
                .collect();
            if let Some(values) = values {
                let distinct: BTreeSet<&String> = values.iter().collect();
                if distinct.len() == values.len() {
                    return Some(property.clone());
                }
            }
        }
        None
    }
}

/// The title a description without `info.title` is read with.
pub(crate) const UNTITLED: &str = "the API";

/// What sits outside paths and schemas: the version, the title and version in `info`,
/// webhooks, the license identifier, the dialect and reusable path items.
fn document_level(document: &mut Value, findings: &mut Vec<Finding>) {
    let Some(root) = document.as_object_mut() else {
        return;
    };
    let version = root
        .get("openapi")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if version.starts_with("3.0.") {
        root.insert("openapi".into(), json!("3.1.0"));
        findings.push(Finding::new(
            FindingKind::Repaired,
            "/openapi",
            format!("OpenAPI {version} read as 3.1: `nullable` becomes a `null` type, boolean exclusive bounds become numbers"),
        ));
        let locations = crate::model::schema_locations(document);
        for pointer in locations {
            if let Some(schema) = document.pointer_mut(&pointer) {
                up_level(schema);
            }
        }
    } else {
        // A 3.1 description that still spells a schema in 3.0 (`nullable`, a boolean
        // `exclusiveMinimum`) means what 3.0 means by it.
        for pointer in crate::model::schema_locations(document) {
            stray_three_zero(document, &pointer, findings);
        }
    }
    let Some(root) = document.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(webhooks)) = root.remove("webhooks") {
        for name in webhooks.keys() {
            findings.push(Finding::new(
                FindingKind::Skipped,
                &push("/webhooks", name),
                "webhooks are requests the API sends, not operations a client calls; not generated",
            ));
        }
    }
    // `info.title` and `info.version` are required; a description without them is still
    // generated, under a neutral title (the crate's docs read "Client for the API").
    if !root.get("info").is_some_and(Value::is_object) {
        root.insert("info".into(), Value::Object(Map::new()));
    }
    if let Some(info) = root.get_mut("info").and_then(Value::as_object_mut) {
        for (key, stand_in) in [("title", UNTITLED), ("version", "0.0.0")] {
            if !info.get(key).is_some_and(Value::is_string) {
                info.insert(key.into(), Value::String(stand_in.into()));
                findings.push(Finding::new(
                    FindingKind::Defect,
                    &format!("/info/{key}"),
                    format!("missing or not a string, though required; read as \"{stand_in}\""),
                ));
            }
        }
    }
    if root.remove("jsonSchemaDialect").is_some() {
        findings.push(Finding::new(
            FindingKind::Repaired,
            "/jsonSchemaDialect",
            "dropped; schemas are read as the OpenAPI 3.1 default dialect",
        ));
    }
    if let Some(license) = root
        .get_mut("info")
        .and_then(|info| info.get_mut("license"))
        .and_then(Value::as_object_mut)
        && license.remove("identifier").is_some()
    {
        findings.push(Finding::new(
            FindingKind::Repaired,
            "/info/license/identifier",
            "the SPDX identifier has no OpenAPI 3.0 counterpart; dropped",
        ));
    }
    if let Some(components) = root.get_mut("components").and_then(Value::as_object_mut)
        && let Some(Value::Object(items)) = components.remove("pathItems")
    {
        for name in items.keys() {
            findings.push(Finding::new(
                FindingKind::Skipped,
                &push("/components/pathItems", name),
                "reusable path items are not generated; paths that refer to them are left out",
            ));
        }
    }
}

/// Reads the schema at `pointer` and below it in 3.0's dialect from the first schema that uses
/// a keyword only 3.0 has (a defect of a 3.1 description), reporting each such schema.
fn stray_three_zero(document: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(schema) = document.pointer_mut(pointer) else {
        return;
    };
    let three_zero = schema.as_object().and_then(|object| {
        ["nullable", "exclusiveMinimum", "exclusiveMaximum"]
            .into_iter()
            .find(|keyword| object.get(*keyword).is_some_and(Value::is_boolean))
    });
    if let Some(keyword) = three_zero {
        up_level(schema);
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, keyword),
            format!(
                "`{keyword}` as OpenAPI 3.0 writes it, in a 3.1 description; read as 3.0 means it"
            ),
        ));
        return;
    }
    let children: Vec<String> = crate::model::subschemas(schema)
        .into_iter()
        .map(|(suffix, _)| format!("{pointer}{suffix}"))
        .collect();
    for child in children {
        stray_three_zero(document, &child, findings);
    }
}

/// OpenAPI 3.0's schema dialect to 3.1's, on `schema` and every subschema.
fn up_level(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if object.remove("nullable") == Some(Value::Bool(true)) {
        match object.get("type").cloned() {
            Some(Value::String(kind)) => {
                object.insert("type".into(), json!([kind, "null"]));
            }
            _ if object.contains_key("$ref") => {
                let reference = object.remove("$ref").unwrap_or_default();
                object.insert(
                    "anyOf".into(),
                    json!([{"$ref": reference}, {"type": "null"}]),
                );
            }
            _ => {}
        }
        if let Some(Value::Array(values)) = object.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        match object.get(flag) {
            Some(Value::Bool(true)) => {
                if let Some(value) = object.remove(bound) {
                    object.insert(flag.into(), value);
                } else {
                    object.remove(flag);
                }
            }
            Some(Value::Bool(false)) => {
                object.remove(flag);
            }
            _ => {}
        }
    }
    for keyword in ONE_SCHEMA {
        if let Some(sub) = object.get_mut(*keyword) {
            up_level(sub);
        }
    }
    for keyword in SCHEMA_LISTS {
        for sub in object
            .get_mut(*keyword)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            up_level(sub);
        }
    }
    for keyword in SCHEMA_MAPS {
        for sub in object
            .get_mut(*keyword)
            .and_then(Value::as_object_mut)
            .into_iter()
            .flat_map(|map| map.values_mut())
        {
            up_level(sub);
        }
    }
}

/// Synthesises an `operationId` for every operation without one.
///
/// The name is the method, then the path's fixed segments (parameters and a leading `api` or
/// version segment such as `v2` dropped), each segment followed by a parameter singularised
/// because it names one resource of a collection:
///
/// 1. first the short form, the method with the first and the last fixed segment:
///    `GET /api/models/{namespace}/{repo}/tree/{rev}` is `get_model_tree`, `GET /api/models`
///    is `get_models`, `DELETE /api/spaces/{ns}/{repo}/secrets/{key}` is `delete_space_secret`;
/// 2. operations whose short forms collide (with each other or with a declared id) use every
///    fixed segment: `get_model_discussion_comment`;
/// 3. still colliding, `_by_` and the parameters' names are appended;
/// 4. and as a last resort a counter (`_2`, `_3`, in path order).
///
/// A path without fixed segments is `root`. The result depends only on the document.
pub fn operation_ids(document: &mut Value, findings: &mut Vec<Finding>) {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut missing: Vec<(String, String)> = Vec::new();
    for (path, item) in document
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (method, operation) in item.as_object().into_iter().flatten() {
            if !is_method(method) {
                continue;
            }
            match operation.get("operationId").and_then(Value::as_str) {
                // An id whose method an earlier operation's id already makes (`list` twice, or
                // `getFoo` after `get_foo`) is named anew, like a missing one.
                Some(id) if taken.contains(&crate::contract::method_name(id)) => {
                    missing.push((path.clone(), method.clone()));
                }
                Some(id) => {
                    taken.insert(id.to_owned());
                    taken.insert(crate::contract::method_name(id));
                }
                None => missing.push((path.clone(), method.clone())),
            }
        }
    }
    let names = synthesise_ids(&missing, &taken);
    for ((path, method), name) in missing.iter().zip(names) {
        let pointer = push(&push("/paths", path), method);
        if let Some(operation) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        {
            let finding = match operation.get("operationId").and_then(Value::as_str) {
                Some(repeated) => Finding::new(
                    FindingKind::Defect,
                    &push(&pointer, "operationId"),
                    format!(
                        "`operationId` `{repeated}` is also an earlier operation's; named `{name}`"
                    ),
                ),
                None => Finding::new(
                    FindingKind::Repaired,
                    &pointer,
                    format!("no `operationId`; named `{name}`"),
                ),
            };
            operation.insert("operationId".into(), Value::String(name.clone()));
            findings.push(finding);
        }
    }
}

/// The names of `operations` (path, method), avoiding `taken`; see [`operation_ids`].
pub fn synthesise_ids(operations: &[(String, String)], taken: &BTreeSet<String>) -> Vec<String> {
    let forms: Vec<[String; 3]> = operations
        .iter()
        .map(|(path, method)| name_forms(path, method))
        .collect();
    let mut level = vec![0usize; operations.len()];
    // Each round widens every name that collides; three forms, so three rounds settle it.
    for _ in 0..3 {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for (form, level) in forms.iter().zip(&level) {
            *count.entry(form[*level].as_str()).or_default() += 1;
        }
        let mut widened = false;
        for (index, form) in forms.iter().enumerate() {
            let name = form[level[index]].as_str();
            if (count[name] > 1 || taken.contains(name)) && level[index] < 2 {
                level[index] += 1;
                widened = true;
            }
        }
        if !widened {
            break;
        }
    }
    let mut used = taken.clone();
    forms
        .iter()
        .zip(&level)
        .map(|(form, level)| {
            let base = &form[*level];
            let mut name = base.clone();
            let mut counter = 2;
            while used.contains(&name) {
                name = format!("{base}_{counter}");
                counter += 1;
            }
            used.insert(name.clone());
            name
        })
        .collect()
}

/// The short, wide and widest names of one operation.
fn name_forms(path: &str, method: &str) -> [String; 3] {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let is_parameter = |segment: &str| segment.starts_with('{') && segment.ends_with('}');
    let mut fixed: Vec<String> = Vec::new();
    let mut parameters: Vec<String> = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        if is_parameter(segment) {
            parameters.push(snake(segment.trim_matches(|c| c == '{' || c == '}')));
            continue;
        }
        if fixed.is_empty() && parameters.is_empty() && is_prefix(segment) {
            continue;
        }
        let followed_by_parameter = segments
            .get(index + 1)
            .is_some_and(|next| is_parameter(next));
        let word = snake(segment);
        if word.is_empty() {
            continue;
        }
        fixed.push(if followed_by_parameter {
            singular(&word)
        } else {
            word
        });
    }
    let verb = snake(method);
    if fixed.is_empty() {
        fixed.push("root".into());
    }
    let short = match fixed.as_slice() {
        [only] => format!("{verb}_{only}"),
        [first, .., last] => format!("{verb}_{first}_{last}"),
        [] => unreachable!("a root segment was pushed"),
    };
    let wide = format!("{verb}_{}", fixed.join("_"));
    let widest = if parameters.is_empty() {
        format!("{wide}_root")
    } else {
        format!("{wide}_by_{}", parameters.join("_"))
    };
    [short, wide, widest]
}

/// A leading segment that says where the API lives rather than what it is about.
fn is_prefix(segment: &str) -> bool {
    segment.eq_ignore_ascii_case("api")
        || (segment.len() >= 2
            && segment.starts_with(['v', 'V'])
            && segment[1..].chars().all(|c| c.is_ascii_digit()))
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

/// The singular of an English plural noun, for the common regular forms; other words unchanged.
fn singular(word: &str) -> String {
    let (head, last) = match word.rsplit_once('_') {
        Some((head, last)) => (format!("{head}_"), last),
        None => (String::new(), word),
    };
    let one = if let Some(stem) = last.strip_suffix("ies").filter(|s| s.len() > 1) {
        format!("{stem}y")
    } else if ["sses", "xes", "ches", "shes", "zes"]
        .iter()
        .any(|ending| last.ends_with(ending))
    {
        last[..last.len() - 2].to_owned()
    } else if last.len() > 3
        && last.ends_with('s')
        && !["ss", "us", "is"]
            .iter()
            .any(|ending| last.ends_with(ending))
    {
        last[..last.len() - 1].to_owned()
    } else {
        last.to_owned()
    };
    format!("{head}{one}")
}

/// Request bodies sent as `multipart/form-data`, which progenitor refuses, are handed on as a
/// typed form: the media type becomes `application/x-www-form-urlencoded` and the body is
/// marked [`crate::model::MULTIPART`], so progenitor types the body from its schema and emit
/// sends it as multipart; every binary string the body's schema reaches (through `$ref`s too)
/// becomes a `$ref` to one component marked [`crate::model::FORM_FILE`], which emit gives the
/// type `FormFile` (bytes, file name, media type). A part's `encoding` (its own media type or
/// headers) is not applied, and is reported.
fn multipart_bodies(document: &mut Value, findings: &mut Vec<Finding>) {
    const MULTIPART: &str = "multipart/form-data";
    const FORM: &str = "application/x-www-form-urlencoded";
    let mut bodies: Vec<String> = Vec::new();
    for operation in crate::model::Document::new(document).operations() {
        let Some(body) = operation.value.get("requestBody") else {
            continue;
        };
        let pointer = match body.get("$ref").and_then(Value::as_str) {
            Some(reference) => match reference.strip_prefix('#') {
                Some(target) => target.to_owned(),
                None => continue,
            },
            None => push(&operation.pointer, "requestBody"),
        };
        if !bodies.contains(&pointer) {
            bodies.push(pointer);
        }
    }
    // The file component's name, and whether a body uses it.
    let mut file_component: Option<(String, bool)> = None;
    for pointer in bodies {
        let Some(body) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let Some(content) = body.get_mut("content").and_then(Value::as_object_mut) else {
            continue;
        };
        let is_multipart = content.len() == 1
            && content
                .keys()
                .all(|media_type| media_type.split(';').next().map(str::trim) == Some(MULTIPART));
        if !is_multipart {
            continue;
        }
        let Some(media_type) = content.keys().next().cloned() else {
            continue;
        };
        let Some(mut media) = content.remove(&media_type) else {
            continue;
        };
        let media_pointer = push(&push(&pointer, "content"), &media_type);
        if let Some(media) = media.as_object_mut()
            && media.remove("encoding").is_some()
        {
            findings.push(Finding::new(
                FindingKind::Unenforced,
                &push(&media_pointer, "encoding"),
                "the parts' own `encoding` is not applied; each part is sent with the media type its value implies",
            ));
        }
        content.insert(FORM.to_owned(), media);
        body.insert(crate::model::MULTIPART.to_owned(), Value::Bool(true));
        let schema_pointer = push(&push(&push(&pointer, "content"), FORM), "schema");
        let name = file_component
            .get_or_insert_with(|| (form_file_name(document), false))
            .0
            .clone();
        if replace_binary_strings(document, &schema_pointer, &name)
            && let Some(used) = file_component.as_mut()
        {
            used.1 = true;
        }
    }
    let Some((name, true)) = file_component else {
        return;
    };
    let Some(root) = document.as_object_mut() else {
        return;
    };
    let schemas = root
        .entry("components")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .map(|components| components.entry("schemas").or_insert_with(|| json!({})));
    if let Some(Value::Object(schemas)) = schemas {
        schemas.insert(
            name,
            json!({
                "type": "string",
                "description": "A file sent as one part of a multipart form.",
                crate::model::FORM_FILE: true,
            }),
        );
    }
}

/// The component name of the file type: `FormFile`, unless a component takes it.
fn form_file_name(document: &Value) -> String {
    unique_name(
        "FormFile",
        &crate::contract::component_names_in_use(document),
    )
}

/// Replaces every binary string (`type: string, format: binary`) the schema at `start` reaches,
/// through `$ref`s to components too, by a `$ref` to the component `name`; whether it found one.
fn replace_binary_strings(document: &mut Value, start: &str, name: &str) -> bool {
    let mut replaced = false;
    let reference = json!({"$ref": format!("#/components/schemas/{name}")});
    let mut pending = vec![start.to_owned()];
    let mut seen = BTreeSet::new();
    while let Some(pointer) = pending.pop() {
        if !seen.insert(pointer.clone()) {
            continue;
        }
        let Some(schema) = document.pointer_mut(&pointer) else {
            continue;
        };
        let is_binary = schema.get("format").and_then(Value::as_str) == Some("binary")
            && schema.get("type").is_none_or(|kind| kind == "string");
        if is_binary {
            // A bare `$ref`: a sibling (even a description) would make it `allOf: [$ref]`, a
            // type of its own around the file.
            *schema = reference.clone();
            replaced = true;
            continue;
        }
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix('#'))
        {
            pending.push(target.to_owned());
        }
        for (suffix, _) in crate::model::subschemas(schema) {
            pending.push(format!("{pointer}{suffix}"));
        }
    }
    replaced
}

/// The operation-level repairs, on every operation.
fn operations(document: &mut Value, findings: &mut Vec<Finding>) {
    let mut new_components: Vec<(String, Value)> = Vec::new();
    let mut component_names: BTreeSet<String> = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().cloned().collect())
        .unwrap_or_default();
    let snapshot = document.clone();
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        let item_parameters = declared_path_parameters(&snapshot, item.get("parameters"));
        for (method, operation) in item.iter_mut() {
            if !is_method(method) {
                continue;
            }
            let pointer = push(&push("/paths", path), method);
            let Some(operation) = operation.as_object_mut() else {
                continue;
            };
            let id = operation
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or("operation")
                .to_owned();
            let mut declared = item_parameters.clone();
            declared.extend(declared_path_parameters(
                &snapshot,
                operation.get("parameters"),
            ));
            for name in template_parameters(path) {
                if declared.contains(&name) {
                    continue;
                }
                let parameters = operation
                    .entry("parameters")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Some(parameters) = parameters.as_array_mut() {
                    parameters.push(json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}));
                    findings.push(Finding::new(
                        FindingKind::Defect,
                        &pointer,
                        format!("path parameter `{name}` is in the template but not declared; declared as a string"),
                    ));
                }
            }
            if !operation.contains_key("responses") {
                operation.insert(
                    "responses".into(),
                    json!({"200": {"description": "Success (no responses were declared)."}}),
                );
                findings.push(Finding::new(
                    FindingKind::Repaired,
                    &pointer,
                    "no `responses`; a `200` success without a body is assumed",
                ));
            }
            if let Some(body) = operation.get_mut("requestBody") {
                single_request_media_type(body, &push(&pointer, "requestBody"), findings);
            }
            let Some(responses) = operation
                .get_mut("responses")
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            default_beside_successes(&snapshot, responses, &push(&pointer, "responses"), findings);
            for (class, is_member) in [
                ("Success", is_success as fn(&str) -> bool),
                ("Error", is_error as fn(&str) -> bool),
            ] {
                let name = pascal(&format!("{id}_{class}"));
                let name = unique_name(&name, &component_names);
                if let Some(union) = unify_bodies(
                    &snapshot,
                    responses,
                    is_member,
                    &name,
                    &push(&pointer, "responses"),
                    findings,
                ) {
                    component_names.insert(name.clone());
                    new_components.push((name, union));
                }
            }
        }
    }
    if new_components.is_empty() {
        return;
    }
    let Some(root) = document.as_object_mut() else {
        return;
    };
    let components = root
        .entry("components")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(components) = components.as_object_mut() {
        let schemas = components
            .entry("schemas")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(schemas) = schemas.as_object_mut() {
            schemas.extend(new_components);
        }
    }
}

/// progenitor reads a `default` response as a possible success and as a possible error. Beside
/// declared successes whose body is not `default`'s (an error body, typically), it would need
/// two success types, which it cannot have: there `default` is read as what it describes, the
/// error statuses `4XX` and `5XX` (each only where the operation does not declare it), and the
/// change is reported. A success status the operation does not declare is then an unexpected
/// response, kept as bytes.
fn default_beside_successes(
    document: &Value,
    responses: &mut Map<String, Value>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    let Some(default) = responses.get("default") else {
        return;
    };
    let default_body = body_of(document, default);
    let differs = responses
        .iter()
        .filter(|(status, _)| is_success(status))
        .any(|(_, response)| body_of(document, response) != default_body);
    if !differs {
        return;
    }
    let Some(default) = responses.remove("default") else {
        return;
    };
    let mut added = Vec::new();
    for range in ["4XX", "5XX"] {
        if !responses.contains_key(range) {
            responses.insert(range.to_owned(), default.clone());
            added.push(range);
        }
    }
    findings.push(Finding::new(
        FindingKind::Repaired,
        &push(pointer, "default"),
        format!(
            "`default` beside successes of another body is read as the error statuses{}",
            if added.is_empty() {
                " declared already".to_owned()
            } else {
                format!(" {}", added.join(" and "))
            }
        ),
    ));
}

/// The names of the path parameters a `parameters` list declares (references followed).
fn declared_path_parameters(document: &Value, parameters: Option<&Value>) -> BTreeSet<String> {
    parameters
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|parameter| resolve(document, parameter))
        .filter(|parameter| parameter.get("in").and_then(Value::as_str) == Some("path"))
        .filter_map(|parameter| parameter.get("name").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// The `{names}` of a path template.
fn template_parameters(path: &str) -> Vec<String> {
    path.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}'))
        .map(|(name, _)| name.to_owned())
        .collect()
}

fn is_success(status: &str) -> bool {
    status.starts_with('2')
}

fn is_error(status: &str) -> bool {
    status.starts_with(['4', '5']) || status == "default"
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

/// The name typify gives the type of a component named `name` ([`crate::contract::rust_ident`]).
fn type_name(name: &str) -> String {
    crate::contract::rust_ident(name, "").map_or_else(|_| pascal(name), |ident| ident.to_string())
}

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

/// The body a response declares, as progenitor sees it.
#[derive(PartialEq)]
enum Body {
    Json(Value),
    Other,
    None,
}

fn is_json(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    essence == "application/json" || essence.ends_with("+json")
}

fn body_of(document: &Value, response: &Value) -> Body {
    let response = resolve(document, response);
    let Some(content) = response.get("content").and_then(Value::as_object) else {
        return Body::None;
    };
    match content.iter().find(|(media_type, _)| is_json(media_type)) {
        Some((_, media)) => Body::Json(media.get("schema").cloned().unwrap_or(json!({}))),
        None if content.is_empty() => Body::None,
        None => Body::Other,
    }
}

fn resolve<'a>(document: &'a Value, value: &'a Value) -> &'a Value {
    value
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| document.pointer(pointer))
        .unwrap_or(value)
}

/// Makes the responses of one class share one body type; returns the union component to add.
fn unify_bodies(
    document: &Value,
    responses: &mut Map<String, Value>,
    is_member: fn(&str) -> bool,
    union_name: &str,
    pointer: &str,
    findings: &mut Vec<Finding>,
) -> Option<Value> {
    let statuses: Vec<String> = responses
        .keys()
        .filter(|status| is_member(status))
        .cloned()
        .collect();
    let bodies: Vec<(String, Body)> = statuses
        .iter()
        .map(|status| (status.clone(), body_of(document, &responses[status])))
        .collect();
    let first = bodies.first()?;
    // One schema written inline in several responses would be hoisted once per place, each
    // a type of its own, which progenitor cannot return from one operation.
    let all_equal = bodies.iter().all(|(_, body)| *body == first.1);
    let shared_inline = all_equal
        && bodies.len() > 1
        && matches!(&first.1, Body::Json(schema) if schema.get("$ref").is_none());
    if all_equal && !shared_inline {
        return None;
    }
    let with_json: Vec<&(String, Body)> = bodies
        .iter()
        .filter(|(_, body)| matches!(body, Body::Json(_)))
        .collect();
    // Responses whose body cannot share a JSON type are dropped (all but the lowest when there
    // is no JSON body at all).
    let keep_json = !with_json.is_empty();
    for (index, (status, body)) in bodies.iter().enumerate() {
        let dropped = if keep_json {
            !matches!(body, Body::Json(_))
        } else {
            index > 0
        };
        if dropped {
            responses.remove(status);
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(pointer, status),
                "its body type differs from the other responses of its class and cannot share one type with them; left out (the client returns it as an unexpected response, body intact)",
            ));
        }
    }
    let mut members: Vec<Value> = Vec::new();
    for (_, body) in &with_json {
        if let Body::Json(schema) = body
            && !members.contains(schema)
        {
            members.push(schema.clone());
        }
    }
    if members.len() < 2 && !shared_inline {
        return None;
    }
    let reference = json!({"$ref": format!("#/components/schemas/{union_name}")});
    for (status, _) in &with_json {
        let Some(response) = responses.get_mut(status) else {
            continue;
        };
        let media_types: Vec<String> = resolve(document, response)
            .get("content")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(media_type, _)| media_type.clone())
            .filter(|media_type| is_json(media_type))
            .collect();
        // A shared response component is copied inline so that the change stays local.
        let mut inline = resolve(document, response).clone();
        for media_type in media_types {
            if let Some(media) = inline
                .get_mut("content")
                .and_then(|content| content.get_mut(&media_type))
                .and_then(Value::as_object_mut)
            {
                media.insert("schema".into(), reference.clone());
            }
        }
        *response = inline;
    }
    let statuses = with_json
        .iter()
        .map(|(status, _)| status.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if let [schema] = members.as_slice() {
        findings.push(Finding::new(
            FindingKind::Repaired,
            pointer,
            format!("responses {statuses} write one body schema inline in each; it becomes one component, `{union_name}`"),
        ));
        return Some(schema.clone());
    }
    findings.push(Finding::new(
        FindingKind::Repaired,
        pointer,
        format!("responses {statuses} have different body types; their bodies become one union, `{union_name}`"),
    ));
    // `oneOf` marked `x-any-of`: a first-fit enum, as `any_of` hands on every `anyOf`.
    Some(json!({"oneOf": members, (mark::ANY_OF): true}))
}

/// Keeps one media type of a request body with several: the JSON one, else the first.
fn single_request_media_type(body: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(content) = body.get_mut("content").and_then(Value::as_object_mut) else {
        return;
    };
    // A non-JSON body without a schema is bytes; progenitor needs that said.
    for (media_type, media) in content.iter_mut() {
        if let Some(media) = media.as_object_mut()
            && !is_json(media_type)
            && !media.contains_key("schema")
        {
            media.insert(
                "schema".into(),
                json!({"type": "string", "format": "binary"}),
            );
        }
    }
    if content.len() < 2 {
        return;
    }
    // JSON first, then the bodies progenitor can send, then whatever comes first.
    let rank = |media_type: &str| {
        if is_json(media_type) {
            0
        } else {
            match media_type {
                "application/x-www-form-urlencoded" => 1,
                "application/octet-stream" => 2,
                "text/plain" => 3,
                _ => 4,
            }
        }
    };
    let keep = content
        .keys()
        .min_by_key(|media_type| rank(media_type))
        .cloned()
        .unwrap_or_default();
    let dropped: Vec<String> = content.keys().filter(|k| **k != keep).cloned().collect();
    content.retain(|media_type, _| *media_type == keep);
    findings.push(Finding::new(
        FindingKind::Repaired,
        &push(pointer, "content"),
        format!(
            "several request media types; the client sends `{keep}` only (left out: {})",
            dropped.join(", ")
        ),
    ));
}

/// Keywords whose value is one subschema.
const ONE_SCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "propertyNames",
    "contains",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
];
/// Keywords whose value is a list of subschemas.
const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "dependentSchemas",
];

/// The schema-level repairs, on `schema` and every subschema.
fn normalize_schema(schema: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
    boolean_schema(schema, pointer, findings);
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    annotations_3_0_lacks(object, pointer, findings);
    if object.remove("$schema").is_some() {
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "$schema"),
            "`$schema` inside a schema dropped",
        ));
    }
    // typify names an inline type after its `title` when there is one, which no other step can
    // predict from the schema's place (and two titles alike make two types of one name). A
    // title is an annotation: without it, every type is named from where it sits.
    if object.get("title").is_some_and(Value::is_string) {
        object.remove("title");
    }
    format_as_type(object, pointer, findings);
    type_union(object, pointer, findings);
    members_that_admit_nothing(object, pointer, findings);
    open_enum(object, pointer, findings);
    nullable_enum(object);
    literal_set(object, pointer, findings);
    repeated_enum_values(object, pointer, findings);
    any_of(object, pointer, findings);
    closed_object(object, pointer, findings);
    pattern(object, pointer, findings);
    string_keys(object);
    for keyword in ONE_SCHEMA {
        if let Some(sub) = object.get_mut(*keyword) {
            normalize_schema(sub, &push(pointer, keyword), findings);
        }
    }
    for keyword in SCHEMA_LISTS {
        if let Some(list) = object.get_mut(*keyword).and_then(Value::as_array_mut) {
            for (index, sub) in list.iter_mut().enumerate() {
                normalize_schema(
                    sub,
                    &format!("{}/{index}", push(pointer, keyword)),
                    findings,
                );
            }
        }
    }
    for keyword in SCHEMA_MAPS {
        if let Some(map) = object.get_mut(*keyword).and_then(Value::as_object_mut) {
            for (name, sub) in map.iter_mut() {
                normalize_schema(sub, &push(&push(pointer, keyword), name), findings);
            }
        }
    }
    // Last, so that the repairs above (a declared property, a pattern) are in place.
    default_value(object, pointer, findings);
}

/// A boolean schema where 3.0 has none (a property, a union member): `true` admits anything,
/// `{}`; `false` nothing, `{not: {}}`. (As `additionalProperties` or `items`, 3.0 reads it.)
fn boolean_schema(schema: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
    const HOLDERS: &[&str] = &[
        "properties",
        "patternProperties",
        "dependentSchemas",
        "allOf",
        "anyOf",
        "oneOf",
    ];
    let Value::Bool(admits) = *schema else {
        return;
    };
    if !pointer
        .rsplit('/')
        .nth(1)
        .is_some_and(|holder| HOLDERS.contains(&holder))
    {
        return;
    }
    *schema = if admits {
        json!({})
    } else {
        json!({"not": {}})
    };
    findings.push(Finding::new(
        FindingKind::Repaired,
        pointer,
        format!("the boolean schema `{admits}`, which OpenAPI 3.0 cannot say here, written as the schema it means"),
    ));
}

/// What a 3.0 reader cannot take and a client does not need: `contentEncoding`,
/// `contentMediaType` and `contentSchema` (annotations about a string's content), and a
/// `format` on an object, array or boolean (typify panics on it; no such format asserts
/// anything a validator checks).
fn annotations_3_0_lacks(
    object: &mut Map<String, Value>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    for keyword in ["contentEncoding", "contentMediaType", "contentSchema"] {
        if object.remove(keyword).is_some() {
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(pointer, keyword),
                format!("`{keyword}`, an annotation OpenAPI 3.0 does not have, dropped"),
            ));
        }
    }
    let no_format = |kind: &Value| matches!(kind.as_str(), Some("object" | "array" | "boolean"));
    let structured = match object.get("type") {
        Some(Value::Array(kinds)) => kinds.iter().any(no_format),
        Some(kind) => no_format(kind),
        None => false,
    };
    if structured && object.remove("format").is_some() {
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "format"),
            "a `format` on a type no format applies to, dropped",
        ));
    }
}

/// `propertyNames: {type: string}` says nothing (an object's keys are strings), so the
/// `type` goes, and with it a `propertyNames` left empty: what remains is a rule the map patch
/// enforces, or no rule at all.
fn string_keys(object: &mut Map<String, Value>) {
    let Some(names) = object
        .get_mut("propertyNames")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    if names.get("type") == Some(&Value::String("string".into())) {
        names.remove("type");
    }
    if names.is_empty() {
        object.remove("propertyNames");
    }
}

/// `anyOf: [{enum: [..]}, {type: string}]` (in either order, perhaps with a null member).
fn open_enum(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    for keyword in ["anyOf", "oneOf"] {
        let Some(members) = object.get(keyword).and_then(Value::as_array) else {
            continue;
        };
        let is_null = |m: &Value| m.get("type").and_then(Value::as_str) == Some("null");
        let non_null: Vec<&Value> = members.iter().filter(|m| !is_null(m)).collect();
        let nullable = non_null.len() < members.len();
        let [first, second] = non_null.as_slice() else {
            continue;
        };
        let known = |m: &Value| -> Option<Vec<String>> {
            let values = m.get("enum").and_then(Value::as_array)?;
            values
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        let any_string = |m: &Value| {
            m.get("type").and_then(Value::as_str) == Some("string")
                && m.as_object().is_some_and(|o| {
                    o.keys()
                        .all(|k| ["type", "description", "title"].contains(&k.as_str()))
                })
        };
        let values = match (known(first), known(second)) {
            (Some(values), None) if any_string(second) => values,
            (None, Some(values)) if any_string(first) => values,
            _ => continue,
        };
        object.remove(keyword);
        // The values stay an `enum`, marked open: emit gives the enum an `Other(String)`
        // variant that takes any other string, so the type admits what the schema admits.
        let mut listed: Vec<Value> = values.into_iter().map(Value::String).collect();
        if nullable {
            listed.push(Value::Null);
        }
        object.insert(
            "type".into(),
            if nullable {
                json!(["string", "null"])
            } else {
                json!("string")
            },
        );
        object.insert("enum".into(), Value::Array(listed));
        object.insert(mark::OPEN_ENUM.into(), Value::Bool(true));
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, keyword),
            "open enum (known values or any string) read as an enum of the known values with an `Other(String)` variant",
        ));
        return;
    }
}

/// `type: [string, integer]`: one `oneOf` member per type, each with the schema's other
/// keywords (a keyword applies only to its own type), marked `x-any-of` like any `anyOf`.
fn type_union(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(Value::Array(kinds)) = object.get("type") else {
        return;
    };
    if kinds.iter().filter(|kind| *kind != "null").count() < 2 {
        return;
    }
    let kinds = kinds.clone();
    object.remove("type");
    let shared: Map<String, Value> = ["description", "title", "default", "example", "examples"]
        .iter()
        .filter_map(|key| Some(((*key).to_owned(), object.remove(*key)?)))
        .collect();
    let rest = std::mem::take(object);
    let members: Vec<Value> = kinds
        .iter()
        .map(|kind| {
            let mut member = if kind == "null" {
                Map::new()
            } else {
                rest.clone()
            };
            member.insert("type".into(), kind.clone());
            Value::Object(member)
        })
        .collect();
    *object = shared;
    object.insert("anyOf".into(), Value::Array(members));
    findings.push(Finding::new(
        FindingKind::Repaired,
        &push(pointer, "type"),
        "a union of types read as a union of one schema per type",
    ));
}

/// `format: string` (or another JSON type's name) where no `type` is given: the author meant
/// `type`, and progenitor refuses a schema that has a `format` but no type. A defect.
fn format_as_type(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    const TYPES: &[&str] = &["string", "boolean", "object", "integer", "number", "array"];
    if object.contains_key("type") {
        return;
    }
    let Some(kind) = object
        .get("format")
        .and_then(Value::as_str)
        .filter(|format| TYPES.contains(format))
        .map(str::to_owned)
    else {
        return;
    };
    object.remove("format");
    object.insert("type".into(), Value::String(kind.clone()));
    findings.push(Finding::new(
        FindingKind::Defect,
        &push(pointer, "format"),
        format!("`format: {kind}` without a `type`; read as `type: {kind}`"),
    ));
}

/// An `enum` that lists a value twice means what it means with the value once; typify cannot
/// name two variants alike, so the repeats go; and a value of a type the schema's `type`
/// refuses can never be valid, so it goes too (both defects of the description).
fn repeated_enum_values(
    object: &mut Map<String, Value>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    // The JSON types `type` admits, when it states any: a listed value of another type can
    // never be valid (`type: string, enum: [null, a]`), and typify would read it as optional.
    let types: Option<Vec<String>> = match object.get("type") {
        Some(Value::String(kind)) => Some(vec![kind.clone()]),
        Some(Value::Array(kinds)) => Some(
            kinds
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    };
    let admitted = |value: &Value| {
        types.as_ref().is_none_or(|types| {
            types.iter().any(|kind| match (kind.as_str(), value) {
                ("null", Value::Null) | ("boolean", Value::Bool(_)) => true,
                ("string", Value::String(_)) | ("array", Value::Array(_)) => true,
                ("object", Value::Object(_)) | ("number", Value::Number(_)) => true,
                ("integer", Value::Number(number)) => {
                    number.is_i64()
                        || number.is_u64()
                        || number.as_f64().is_some_and(|n| n.fract() == 0.0)
                }
                _ => false,
            })
        })
    };
    let Some(values) = object.get_mut("enum").and_then(Value::as_array_mut) else {
        return;
    };
    let mut kept: Vec<Value> = Vec::with_capacity(values.len());
    let mut repeated = Vec::new();
    let mut impossible = Vec::new();
    for value in values.drain(..) {
        if !admitted(&value) {
            impossible.push(value.to_string());
        } else if kept.contains(&value) {
            repeated.push(value.to_string());
        } else {
            kept.push(value);
        }
    }
    *values = kept;
    if !repeated.is_empty() {
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, "enum"),
            format!(
                "values listed more than once: {}; each kept once",
                repeated.join(", ")
            ),
        ));
    }
    if !impossible.is_empty() {
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, "enum"),
            format!(
                "values the schema's `type` refuses, so no instance can have them: {}; left out",
                impossible.join(", ")
            ),
        ));
    }
}

/// `oneOf: [{type: string, enum: [a, b]}, {type: null}]` is the enum `type: [string, null],
/// enum: [a, b, null]`, spelled so: 3.0 would say it as `nullable` beside `allOf` of the
/// member, and typify gives a component spelled that way two types of one name (the `Option`
/// and the enum inside it).
fn nullable_enum(object: &mut Map<String, Value>) {
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(members)) = object.get(keyword) else {
            continue;
        };
        let is_null = |member: &Value| {
            member.get("type").and_then(Value::as_str) == Some("null")
                && member.as_object().is_some_and(|member| {
                    member
                        .keys()
                        .all(|key| key == "type" || key == "description")
                })
        };
        let [first, second] = members.as_slice() else {
            continue;
        };
        let (enumeration, _) = match (is_null(first), is_null(second)) {
            (false, true) => (first, second),
            (true, false) => (second, first),
            _ => continue,
        };
        let Some(kind) = enumeration
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            continue;
        };
        let Some(member) = enumeration.as_object().filter(|member| {
            member.contains_key("enum")
                && member
                    .keys()
                    .all(|key| !object.contains_key(key) || key == "description")
        }) else {
            continue;
        };
        let mut merged = member.clone();
        object.remove(keyword);
        merged.insert("type".into(), json!([kind, "null"]));
        if let Some(Value::Array(values)) = merged.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
        for (key, value) in merged {
            object.entry(key).or_insert(value);
        }
        return;
    }
}

/// A union of literals (`anyOf: [{const: a}, {enum: [b, c]}]`) is the enum of all of them.
fn literal_set(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    for keyword in ["anyOf", "oneOf"] {
        let Some(members) = object.get(keyword).and_then(Value::as_array) else {
            continue;
        };
        let mut values: Vec<Value> = Vec::new();
        for member in members {
            let Some(member) = member.as_object() else {
                return;
            };
            let literal_only = member.keys().all(|key| {
                ["const", "enum", "type", "description", "title"].contains(&key.as_str())
            });
            let these: Vec<Value> = match (member.get("const"), member.get("enum")) {
                (Some(constant), None) => vec![constant.clone()],
                (None, Some(Value::Array(list))) => list.clone(),
                _ => return,
            };
            if !literal_only
                || these
                    .iter()
                    .any(|v| v.is_null() || v.is_object() || v.is_array())
            {
                return;
            }
            for value in these {
                if !values.contains(&value) {
                    values.push(value);
                }
            }
        }
        object.remove(keyword);
        let kinds: BTreeSet<&str> = values
            .iter()
            .map(|value| match value {
                Value::String(_) => "string",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
                _ => "number",
            })
            .collect();
        if let [kind] = kinds.into_iter().collect::<Vec<_>>().as_slice() {
            object.insert("type".into(), json!(kind));
        }
        object.insert("enum".into(), Value::Array(values));
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, keyword),
            "a union of literals read as one enum of all of them",
        ));
        return;
    }
}

/// `anyOf: [X, {not: {}}]` (or `oneOf`): a member that admits nothing (`not: {}`, or the
/// schema `false`) changes neither union, so it is dropped, and `X` stands alone. typify would
/// read `not` as a rule it drops, and the union as an enum with a variant no value can take.
fn members_that_admit_nothing(
    object: &mut Map<String, Value>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    let admits_nothing = |member: &Value| {
        *member == Value::Bool(false)
            || *member == json!({"not": {}})
            || *member == json!({"not": true})
    };
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = object.get_mut(keyword) else {
            continue;
        };
        let before = members.len();
        let dropped: Vec<usize> = (0..before)
            .filter(|&index| admits_nothing(&members[index]))
            .collect();
        // A union of nothing but such members admits nothing; that is the description's to say.
        if dropped.is_empty() || dropped.len() == before {
            continue;
        }
        members.retain(|member| !admits_nothing(member));
        for index in dropped {
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(&push(pointer, keyword), &index.to_string()),
                "a union member that admits nothing (`not: {}`) dropped; the union is its other members",
            ));
        }
    }
}

/// typify reads `anyOf` as a struct of optional flattened members, which accepts values no
/// member accepts. An `anyOf` of two or more members is handed on as `oneOf`, which typify
/// emits as an untagged (first member that fits) or tagged enum: exactly `anyOf`'s meaning.
/// `x-any-of` tells the coverage check that no exclusivity is lost. A member listed twice is
/// listed once; a single member left stands for the union.
fn any_of(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(Value::Array(members)) = object.get("anyOf") else {
        return;
    };
    let mut distinct: Vec<Value> = Vec::new();
    for member in members {
        if !distinct.contains(member) {
            distinct.push(member.clone());
        }
    }
    let is_null = |m: &Value| m.get("type").and_then(Value::as_str) == Some("null");
    if distinct.len() < members.len() {
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "anyOf"),
            "a member listed more than once is listed once",
        ));
    }
    let non_null = distinct.iter().filter(|m| !is_null(m)).count();
    if non_null < 2 {
        object.insert("anyOf".into(), Value::Array(distinct));
        return;
    }
    object.remove("anyOf");
    object.insert("oneOf".into(), Value::Array(distinct));
    object.insert(mark::ANY_OF.into(), Value::Bool(true));
}

/// A closed object that requires a property it does not declare can hold no value at all.
fn closed_object(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false));
    if !closed {
        return;
    }
    let required: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|name| name.as_str().map(str::to_owned))
        .collect();
    for name in required {
        let properties = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(properties) = properties.as_object_mut() else {
            return;
        };
        if properties.contains_key(&name) {
            continue;
        }
        properties.insert(name.clone(), json!({}));
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(&push(pointer, "required"), &name),
            format!(
                "unsatisfiable: `{name}` is required but not declared under `additionalProperties: false`; declared with an unconstrained schema"
            ),
        ));
    }
}

/// Drops a `pattern` the generated code cannot compile; `format: uuid` becomes a pattern.
fn pattern(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    if object.get("format").and_then(Value::as_str) == Some("uuid")
        && !object.contains_key("pattern")
    {
        object.remove("format");
        object.insert(
            "pattern".into(),
            json!("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
        );
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "format"),
            "`format: uuid` enforced as the equivalent pattern",
        ));
    }
    let Some(text) = object.get("pattern").and_then(Value::as_str) else {
        return;
    };
    if let Err(error) = regress::Regex::new(text) {
        object.remove("pattern");
        findings.push(Finding::new(
            FindingKind::Unenforced,
            &push(pointer, "pattern"),
            format!("the pattern does not compile as ECMA-262 ({error}); not enforced"),
        ));
    }
}

/// Drops a `default` that its own schema refuses.
fn default_value(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(default) = object.get("default") else {
        return;
    };
    if let Some(reason) = refusal(object, default) {
        object.remove("default");
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, "default"),
            format!("the default breaks its own schema ({reason}); dropped"),
        ));
    }
}

/// Why `schema` (its own keywords, not its subschemas) refuses `value`, if it does.
pub(crate) fn refusal(schema: &Map<String, Value>, value: &Value) -> Option<String> {
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let nullable = schema.get("nullable") == Some(&Value::Bool(true));
    let fits = |kind: &str| match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        "integer" => value
            .as_f64()
            .is_some_and(|number| number.fract() == 0.0 && number.is_finite()),
        _ => true,
    };
    let fits_a_type =
        types.is_empty() || types.iter().any(|kind| fits(kind)) || (nullable && value.is_null());
    if !fits_a_type {
        return Some(format!("not of type {}", types.join(" or ")));
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array)
        && !values.contains(value)
    {
        return Some("not one of the enum's values".into());
    }
    if let Some(constant) = schema.get("const")
        && constant != value
    {
        return Some("not the schema's `const`".into());
    }
    if let (Some(pattern), Some(text)) = (
        schema.get("pattern").and_then(Value::as_str),
        value.as_str(),
    ) && regress::Regex::new(pattern).is_ok_and(|regex| regex.find(text).is_none())
    {
        return Some("does not match the pattern".into());
    }
    let number = value.as_f64();
    if let (Some(minimum), Some(number)) = (schema.get("minimum").and_then(Value::as_f64), number)
        && number < minimum
    {
        return Some("below the minimum".into());
    }
    if let (Some(maximum), Some(number)) = (schema.get("maximum").and_then(Value::as_f64), number)
        && number > maximum
    {
        return Some("above the maximum".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(paths: &[(&str, &str)]) -> Vec<String> {
        let operations: Vec<(String, String)> = paths
            .iter()
            .map(|(method, path)| ((*path).to_owned(), (*method).to_owned()))
            .collect();
        synthesise_ids(&operations, &BTreeSet::new())
    }

    #[test]
    fn property_names_in_a_document() {
        let mut document = json!({"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"m": {"type": "object", "propertyNames": {"type": "string", "maxLength": 3}}}}}}}}}}}});
        normalize(&mut document);
        assert_eq!(
            document.pointer("/components/schemas/GetAResponse/properties/m/propertyNames"),
            Some(&json!({"maxLength": 3})),
            "{document:#}"
        );
    }

    #[test]
    fn property_names_typed_string_state_nothing() {
        let mut bare = json!({"type": "object", "propertyNames": {"type": "string"}});
        normalize_schema(&mut bare, "/s", &mut Vec::new());
        assert_eq!(bare, json!({"type": "object"}));
        let mut bounded =
            json!({"type": "object", "propertyNames": {"type": "string", "maxLength": 64}});
        normalize_schema(&mut bounded, "/s", &mut Vec::new());
        assert_eq!(
            bounded,
            json!({"type": "object", "propertyNames": {"maxLength": 64}})
        );
    }

    #[test]
    fn operation_ids_read_like_their_resource() {
        let table = [
            (
                "get",
                "/api/models/{namespace}/{repo}/tree/{rev}",
                "get_model_tree",
            ),
            ("get", "/api/models", "get_models"),
            ("post", "/api/repos/create", "post_repos_create"),
            (
                "delete",
                "/api/spaces/{namespace}/{repo}/secrets/{key}",
                "delete_space_secret",
            ),
            (
                "get",
                "/api/datasets/{namespace}/{repo}/parquet",
                "get_dataset_parquet",
            ),
            ("get", "/api/whoami-v2", "get_whoami_v2"),
            ("get", "/", "get_root"),
            ("get", "/v2/categories/{id}", "get_category"),
            (
                "put",
                "/api/repositories/{id}/branches/{branch}",
                "put_repository_branch",
            ),
        ];
        let paths: Vec<(&str, &str)> = table.iter().map(|(m, p, _)| (*m, *p)).collect();
        let expected: Vec<&str> = table.iter().map(|(_, _, name)| *name).collect();
        assert_eq!(ids(&paths), expected);
    }

    #[test]
    fn collisions_widen_only_the_colliding_names() {
        let names = ids(&[
            ("get", "/api/models/{ns}/{repo}/discussions/{num}/comment"),
            ("get", "/api/models/{ns}/{repo}/comment"),
            ("get", "/api/models/{ns}/{repo}/tree/{rev}"),
            ("get", "/api/models/{ns}/{repo}/tree/{rev}/{path}"),
            ("get", "/api/models/{ns}/tree"),
        ]);
        assert_eq!(
            names,
            [
                "get_model_discussion_comment",
                "get_model_comment",
                "get_model_tree_by_ns_repo_rev",
                "get_model_tree_by_ns_repo_rev_path",
                "get_model_tree_by_ns",
            ]
        );
        let deduplicated: BTreeSet<&String> = names.iter().collect();
        assert_eq!(deduplicated.len(), names.len());
    }

    #[test]
    fn declared_ids_are_never_reused_and_identical_paths_get_a_counter() {
        let taken = BTreeSet::from(["get_models".to_owned()]);
        let operations = vec![
            ("/api/models".to_owned(), "get".to_owned()),
            ("/models".to_owned(), "get".to_owned()),
        ];
        assert_eq!(
            synthesise_ids(&operations, &taken),
            ["get_models_root", "get_models_root_2"]
        );
    }

    #[test]
    fn singulars() {
        for (plural, one) in [
            ("models", "model"),
            ("repositories", "repository"),
            ("branches", "branch"),
            ("status", "status"),
            ("analysis", "analysis"),
            ("access", "access"),
            ("tree", "tree"),
            ("user_keys", "user_key"),
        ] {
            assert_eq!(singular(plural), one);
        }
    }

    #[test]
    fn inline_objects_move_to_components_named_where_they_sit() {
        let mut document = json!({"openapi": "3.1.0", "paths": {"/api/models/{id}": {"get": {
            "operationId": "get_model",
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {"siblings": {"type": "array", "items": {
                    "type": "object", "properties": {"name": {"type": "string"}}}}}}}}}}}}}});
        let normalized = normalize_with_origins(&mut document);
        let schemas = document["components"]["schemas"].as_object().unwrap();
        let names: Vec<&String> = schemas.keys().collect();
        assert_eq!(names, ["GetModelResponseSiblingsItem", "GetModelResponse"]);
        let source =
            "/paths/~1api~1models~1{id}/get/responses/200/content/application~1json/schema";
        assert_eq!(
            source_pointer(
                &normalized.origins,
                "/components/schemas/GetModelResponseSiblingsItem/properties/name/type"
            ),
            format!("{source}/properties/siblings/items/properties/name/type")
        );
        assert_eq!(
            source_pointer(&normalized.origins, "/components/schemas/Other/type"),
            "/components/schemas/Other/type"
        );
    }

    #[test]
    fn schemas_named_like_shared_types_are_renamed_with_their_refs() {
        let mut document = json!({
            "components": {"schemas": {
                "CheckedString": {"type": "object", "properties": {"a": {"type": "string"}}},
                "CheckedStringSchema": {"type": "string"},
                "user": {"properties": {
                    "a": {"$ref": "#/components/schemas/CheckedString/properties/a"},
                    "b": {"$ref": "#/components/schemas/CheckedString"},
                    "c": {"$ref": "#/components/schemas/CheckedStringSchema"},
                }},
            }}
        });
        let mut findings = Vec::new();
        let origins = rename_shared_names(&mut document, &mut findings);
        let schemas = &document["components"]["schemas"];
        assert!(schemas.get("CheckedString").is_none());
        assert_eq!(schemas["CheckedStringSchema"], json!({"type": "string"}));
        let properties = &schemas["user"]["properties"];
        assert_eq!(
            properties["a"]["$ref"],
            "#/components/schemas/CheckedStringSchema2/properties/a"
        );
        assert_eq!(
            properties["b"]["$ref"],
            "#/components/schemas/CheckedStringSchema2"
        );
        assert_eq!(
            properties["c"]["$ref"],
            "#/components/schemas/CheckedStringSchema"
        );
        assert_eq!(
            origins
                .get("/components/schemas/CheckedStringSchema2")
                .map(String::as_str),
            Some("/components/schemas/CheckedString")
        );
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].pointer, "/components/schemas/CheckedString");
    }

    #[test]
    fn defaults_that_break_their_schema_are_found() {
        let schema = |value: Value| value.as_object().unwrap().clone();
        assert!(refusal(&schema(json!({"type": "integer"})), &json!("10")).is_some());
        assert!(refusal(&schema(json!({"enum": ["a"]})), &json!("b")).is_some());
        assert!(refusal(&schema(json!({"type": "integer", "minimum": 1})), &json!(0)).is_some());
        assert!(refusal(&schema(json!({"type": ["string", "null"]})), &Value::Null).is_none());
        assert!(refusal(&schema(json!({"type": "integer"})), &json!(3)).is_none());
    }
}
