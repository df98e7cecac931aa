//! **Inline objects** moved into `components/schemas`, named from where they sit (see
//! [`hoist`]), because the emit steps match each struct to its schema by component. A union of
//! moved objects told apart by a required `const` string property moves too, so that
//! `patch::infer` gives it the tagged-union patch: it decodes by its tag (`#[serde(tag)]`), not
//! by trying each member; and so does an open enum, which emit finds by its component. So do
//! the structs typify merges from an `allOf`, and the inline property objects of a component
//! that is an `allOf` part, which typify would otherwise write again under names no schema has.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{Origins, pascal, unique_name};
use crate::model::{mark, push};

/// Moves every inline object schema (one with `properties`, or an `allOf` typify merges into a
/// struct of its own) into `components/schemas`, named
/// from where it sits, innermost first: `<OperationId>Body`, `<OperationId>Response`, then
/// `<Parent><Property>`, `<Parent>Item` (array items), `<Parent>Value` (map values) and
/// `<Parent>Variant<n>` (union members). A direct property of a component stays where it is
/// (typify names it `<Component><Property>` already, and the emit steps find it there), unless
/// it is a merged `allOf` (which has no `properties` to be found by) or the component is an
/// `allOf` part elsewhere (whose inline property objects typify would write again, named after
/// the composing struct).
///
/// The generated client is the same either way; what changes is that every struct has a
/// component of its own, which the emit steps need to match each struct to its rules (a real
/// description may hold its whole API inline).
pub(super) fn hoist(document: &mut Value) -> Origins {
    // A component's key and the name typify gives its type (`searchResponse` is
    // `SearchResponse`) are both taken: a hoisted schema must not take either.
    let mut taken = crate::contract::component_names_in_use(document);
    taken.extend(
        crate::runtime::SHARED_TYPE_NAMES
            .iter()
            .map(|name| (*name).to_owned()),
    );
    let composed = composed_components(document);
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
        let base = Name::new(base);
        if component {
            // A component that is an `allOf` part elsewhere is merged into the composing
            // struct, where typify would write its inline property objects again under the
            // composing struct's name, which no schema has: they move like any other.
            let is_part = pointer
                .strip_prefix("/components/schemas/")
                .is_some_and(|key| composed.contains(&crate::model::unescape(key)));
            for (child, word) in children(schema) {
                let name = base.with(word);
                // A component's direct properties stay inline; their own children do not.
                let keep_inline = child.0 == "properties" && !is_part;
                let child_pointer = child_pointer(&pointer, &child);
                let node = child_mut(schema, &child);
                if let Some(node) = node {
                    if keep_inline {
                        for (grandchild, word) in children(node) {
                            let grandname = name.with(word);
                            let inner_pointer = self::child_pointer(&child_pointer, &grandchild);
                            if let Some(inner) = child_mut(node, &grandchild) {
                                context.visit(inner, &grandname, &inner_pointer);
                            }
                        }
                        // A tagged union moves even here: its patch needs a component; so
                        // does an open enum, which emit finds by its component, and a struct
                        // merged from an `allOf`, which has no `properties` to be found by.
                        if context.union_tag(node).is_some()
                            || node.get(mark::OPEN_ENUM).is_some()
                            || is_merged_struct(node)
                            || name.full().len() > LONGEST_NAME
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
    if let Some(schemas) = super::component_schemas_mut(document) {
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
            // A body of another class is the operation's one error body (several distinct
            // ones are a union `operations` names already).
            let suffix = if status.starts_with('2') {
                "response"
            } else {
                "error"
            };
            Some((pascal(&format!("{id}_{suffix}")), false))
        }
        _ => None,
    }
}

/// Where a subschema sits in its parent: the keyword and, for maps and lists, the key.
type ChildKey = (&'static str, Option<String>);

/// The longest name a moved schema takes: a longer one is cut to its last words (see
/// [`Name::fitted`]), so that no type named from its place runs past it.
pub(crate) const LONGEST_NAME: usize = 60;

/// The name of a place, word by word: the owner's name, then one word per step down (a
/// property's name, which names something, or `Item`, `Value`, `Variant<n>`, which do not).
#[derive(Clone, Debug)]
struct Name(Vec<Word>);

/// One word of a [`Name`], and whether it names something (the owner, a property).
#[derive(Clone, Debug)]
struct Word {
    text: String,
    names: bool,
}

impl Name {
    fn new(base: String) -> Self {
        Self(vec![Word {
            text: base,
            names: true,
        }])
    }

    /// This name one step down.
    fn with(&self, word: Word) -> Self {
        let mut words = self.0.clone();
        words.push(word);
        Self(words)
    }

    /// Every word, joined: `CreateAssistantRequestToolResourcesVariant0FileSearch`.
    fn full(&self) -> String {
        self.0.iter().map(|word| word.text.as_str()).collect()
    }

    /// The full name when it has at most [`LONGEST_NAME`] characters; else its longest run of
    /// last words that fits and starts at a word that names something
    /// (`...Variant0VectorStoresItemChunkingStrategy` is `VectorStoresItemChunkingStrategy`),
    /// or, when not even that fits, the run from the last such word: a property's own name is
    /// the description's choice.
    fn fitted(&self) -> String {
        let full = self.full();
        if full.len() <= LONGEST_NAME {
            return full;
        }
        let from = |start: usize| -> String {
            self.0[start..]
                .iter()
                .map(|word| word.text.as_str())
                .collect()
        };
        let starts = (1..self.0.len()).filter(|start| self.0[*start].names);
        let mut last = None;
        for start in starts {
            let tail = from(start);
            if tail.len() <= LONGEST_NAME {
                return tail;
            }
            last = Some(tail);
        }
        last.unwrap_or(full)
    }
}

/// The subschemas of `schema` that may hold inline objects, with the word each adds to the
/// name of its place.
fn children(schema: &Value) -> Vec<(ChildKey, Word)> {
    let mut out = Vec::new();
    let Some(object) = schema.as_object() else {
        return out;
    };
    let step = |text: String| Word { text, names: false };
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for name in properties.keys() {
            out.push((
                ("properties", Some(name.clone())),
                Word {
                    text: pascal(name),
                    names: true,
                },
            ));
        }
    }
    if object.get("items").is_some_and(Value::is_object) {
        out.push((("items", None), step("Item".to_owned())));
    }
    if object
        .get("additionalProperties")
        .is_some_and(Value::is_object)
    {
        out.push((("additionalProperties", None), step("Value".to_owned())));
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        for index in 0..object
            .get(keyword)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
        {
            out.push((
                (keyword, Some(index.to_string())),
                step(format!("Variant{index}")),
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

/// Whether typify merges `node`, an `allOf` without `properties` of its own, into a struct of
/// its own: two or more parts, or one beside object keywords (`additionalProperties: true`
/// beside `allOf: [$ref]`). One part alone (beside annotations or a `null`) is that part's
/// type, and a composition beside a union or a `not` is left as it is.
fn is_merged_struct(node: &Value) -> bool {
    let Some(object) = node.as_object() else {
        return false;
    };
    let Some(Value::Array(parts)) = object.get("allOf") else {
        return false;
    };
    let object_type = match object.get("type") {
        Some(Value::String(kind)) => kind == "object",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "object"),
        _ => false,
    };
    let object_keywords = object_type
        || ["additionalProperties", "required"]
            .iter()
            .any(|key| object.contains_key(*key));
    !parts.is_empty()
        && (parts.len() >= 2 || object_keywords)
        && ![
            "properties",
            "oneOf",
            "anyOf",
            "not",
            "discriminator",
            "enum",
            "$ref",
        ]
        .iter()
        .any(|key| object.contains_key(*key))
}

/// Whether a type of its own is written for `node`, named from its place: by typify, an enum,
/// a union of two or more members besides `null`, or a string with a pattern or a length; by
/// a patch, a string with a format, a number with a bound, an array with a size.
fn names_a_type(node: &Value) -> bool {
    let Some(object) = node.as_object() else {
        return false;
    };
    let is_null = |member: &Value| member.get("type").and_then(Value::as_str) == Some("null");
    let union = ["oneOf", "anyOf"].iter().any(|keyword| {
        object
            .get(*keyword)
            .and_then(Value::as_array)
            .is_some_and(|members| members.iter().filter(|member| !is_null(member)).count() > 1)
    });
    let checked = [
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
    ]
    .iter()
    .any(|keyword| object.contains_key(*keyword));
    // A width format on an integer is its Rust type in place; on a string, a checked type.
    let string_format = object.contains_key("format")
        && object.get("type").and_then(Value::as_str) == Some("string");
    object.contains_key("enum") || union || checked || string_format
}

/// The keys of the components that are an `allOf` part (a `$ref` in an `allOf` list) anywhere
/// in `document`.
fn composed_components(document: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    crate::model::Document::new(document).visit_schemas(|at| {
        if let Some(Value::Array(parts)) = at.schema.get("allOf") {
            out.extend(parts.iter().filter_map(|part| {
                let reference = part.get("$ref")?.as_str()?;
                crate::model::schema_ref_name(reference).map(crate::model::unescape)
            }));
        }
        crate::model::Visit::Descend
    });
    out
}

/// A schema without its `null` (from its `type` list and its `enum`), and whether it had one.
pub(super) fn without_null(mut schema: Value) -> (Value, bool) {
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
    fn visit(&mut self, node: &mut Value, name: &Name, pointer: &str) {
        for (child, word) in children(node) {
            let inner_pointer = child_pointer(pointer, &child);
            if let Some(inner) = child_mut(node, &child) {
                self.visit(inner, &name.with(word), &inner_pointer);
            }
        }
        let is_struct = node
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|properties| !properties.is_empty());
        let tagged_union = self.union_tag(node).is_some();
        let open_enum = node.get(mark::OPEN_ENUM).is_some();
        // Any other type typify would name from this place moves too when that name is too
        // long: under a component, it takes the fitted name.
        let long_named = name.full().len() > LONGEST_NAME && names_a_type(node);
        if !(is_struct || tagged_union || open_enum || long_named || is_merged_struct(node))
            || node.get("$ref").is_some()
        {
            return;
        }
        let name = name.fitted();
        let name = name.as_str();
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

#[cfg(test)]
mod tests {
    use super::super::{normalize_with_origins, source_pointer};
    use super::*;

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
    fn merged_compositions_and_the_inline_objects_of_a_composed_component_move() {
        let mut document = json!({"openapi": "3.1.0", "paths": {}, "components": {"schemas": {
            "Key": {"type": "object", "properties": {
                "owner": {"type": "object", "properties": {"id": {"type": "string"}}},
                "name": {"type": "string"}}},
            "Plain": {"type": "object", "properties": {
                "inner": {"type": "object", "properties": {"id": {"type": "integer"}}}}},
            "Lone": {"type": "object", "properties": {
                "inner": {"type": "object", "properties": {"id": {"type": "string"}}}}},
            "Created": {"allOf": [{"$ref": "#/components/schemas/Key"},
                {"type": "object", "properties": {"value": {"type": "string"}}}]},
            "Step": {"type": "object", "properties": {
                "values": {"additionalProperties": true,
                    "allOf": [{"$ref": "#/components/schemas/Plain"}]},
                "alias": {"description": "d", "allOf": [{"$ref": "#/components/schemas/Plain"}]},
                "list": {"type": "array", "items": {"allOf": [
                    {"$ref": "#/components/schemas/Plain"},
                    {"type": "object", "properties": {"n": {"type": "string"}}}]}}}}
        }}});
        let normalized = normalize_with_origins(&mut document);
        let schemas = &document["components"]["schemas"];
        // `Key` is an `allOf` part: its inline `owner` moves, under the name typify gives it.
        assert_eq!(
            schemas["Key"]["properties"]["owner"],
            json!({"$ref": "#/components/schemas/KeyOwner"})
        );
        assert_eq!(
            schemas["Key"]["properties"]["name"],
            json!({"type": "string"})
        );
        assert_eq!(
            schemas["Plain"]["properties"]["inner"],
            json!({"$ref": "#/components/schemas/PlainInner"})
        );
        // A component no `allOf` lists keeps its direct properties inline.
        assert!(
            schemas["Lone"]["properties"]["inner"]
                .get("properties")
                .is_some()
        );
        // A merged struct moves, a direct property or deeper; a lone part beside annotations
        // is that part's type, and stays.
        let step = &schemas["Step"]["properties"];
        assert_eq!(
            step["values"],
            json!({"$ref": "#/components/schemas/StepValues"})
        );
        assert!(step["alias"].get("allOf").is_some());
        assert_eq!(
            step["list"]["items"],
            json!({"$ref": "#/components/schemas/StepListItem"})
        );
        assert_eq!(
            source_pointer(
                &normalized.origins,
                "/components/schemas/StepValues/allOf/0"
            ),
            "/components/schemas/Step/properties/values/allOf/0"
        );
    }
}
