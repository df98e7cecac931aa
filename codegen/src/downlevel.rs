//! Step 2: OpenAPI 3.1 down to the 3.0 that progenitor 0.15 and typify 0.8 accept.
//!
//! Each rewrite keeps the meaning of the schema:
//!
//! | 3.1                                   | 3.0                                        | fixture; unit test      |
//! |---------------------------------------|--------------------------------------------|-------------------------|
//! | `openapi: 3.1.x`                      | `openapi: 3.0.3`                           | every one; `sets_the_version` |
//! | `type: [T, "null"]`                   | `type: T`, `nullable: true`                | `downlevel_nullable`; `nullable_type_arrays` |
//! | `type: "null"`                        | `enum: [null]`, `nullable: true`           | `downlevel_nullable`; `nullable_type_arrays` |
//! | `oneOf`/`anyOf` with a `{type: null}` | the other members, `nullable: true`        | `downlevel_nullable`; `nullable_unions` |
//! | `const: v`                            | `enum: [v]` (and `type` inferred from `v`) | `downlevel_const`; `const_becomes_a_one_value_enum_with_its_type` |
//! | `examples: [a, b]` (in a schema)      | `example: a`, `x-examples: [a, b]`         | `downlevel_examples`; `schema_examples_but_not_media_type_examples` |
//! | `exclusiveMinimum: n` (a number)      | `minimum: n`, `exclusiveMinimum: true`     | `downlevel_exclusive_bounds`; `exclusive_bounds` |
//! | `$ref` with sibling keywords          | `allOf: [{$ref}]` beside the siblings      | `downlevel_ref_siblings`; `ref_with_siblings` |
//! | `propertyNames: S`                    | `x-propertyNames: S`, for a patch          | `patch_validated_map`; `property_names_are_carried_for_patches` |
//! | `prefixItems: [S, ...]`, `items: false` | `x-prefixItems: [S, ...]`, `maxItems` of its length, for a patch | `normalize_tuple`; `tuples_are_carried_for_patches` |
//! | `items: false` (`items: true`)        | `x-prefixItems: []`, `maxItems: 0` (no `items`) | `normalize_tuple`; `tuples_are_carried_for_patches` |
//! | `$comment`                            | `x-comment`                                | none; `comments_become_extensions` |
//! | `not: S`, S not a literal set         | `x-not: S` (typify panics on it; reported unenforced) | none; `a_not_typify_cannot_convert_is_carried` |
//!
//! Schemas are found through [`crate::model`]; every problem is reported together, and the
//! [`Provenance`] maps each moved schema back to its pointer in the source.
//!
//! Anything else 3.0 cannot express (`if`/`then`, `unevaluated*`, a type
//! union of two non-null types, ...) stops generation with the JSON pointer and the reason:
//! nothing is dropped silently.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::Error;
use crate::model::{self, Document, mark, push};

/// JSON Schema 2020-12 keywords that have no OpenAPI 3.0 counterpart.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("if", "conditional schemas do not exist in OpenAPI 3.0"),
    ("then", "conditional schemas do not exist in OpenAPI 3.0"),
    ("else", "conditional schemas do not exist in OpenAPI 3.0"),
    (
        "dependentRequired",
        "dependent requirements do not exist in OpenAPI 3.0",
    ),
    (
        "dependentSchemas",
        "dependent schemas do not exist in OpenAPI 3.0",
    ),
    (
        "dependencies",
        "dependent schemas do not exist in OpenAPI 3.0",
    ),
    (
        "unevaluatedProperties",
        "`unevaluatedProperties` does not exist in OpenAPI 3.0",
    ),
    (
        "unevaluatedItems",
        "`unevaluatedItems` does not exist in OpenAPI 3.0",
    ),
    ("contains", "`contains` does not exist in OpenAPI 3.0"),
    ("minContains", "`minContains` does not exist in OpenAPI 3.0"),
    ("maxContains", "`maxContains` does not exist in OpenAPI 3.0"),
    (
        "patternProperties",
        "`patternProperties` does not exist in OpenAPI 3.0; use `propertyNames` with `additionalProperties`",
    ),
    (
        "$defs",
        "local `$defs` are not resolvable by progenitor; move the schema to `components/schemas`",
    ),
    ("$id", "schema identifiers are not supported by progenitor"),
    ("$anchor", "schema anchors are not supported by progenitor"),
    (
        "$dynamicRef",
        "dynamic references do not exist in OpenAPI 3.0",
    ),
    (
        "$dynamicAnchor",
        "dynamic references do not exist in OpenAPI 3.0",
    ),
    (
        "$recursiveRef",
        "recursive references (JSON Schema 2019-09) do not exist in OpenAPI 3.0",
    ),
    ("$schema", "per-schema dialects do not exist in OpenAPI 3.0"),
    (
        "contentMediaType",
        "`contentMediaType` does not exist in OpenAPI 3.0",
    ),
    (
        "contentEncoding",
        "`contentEncoding` does not exist in OpenAPI 3.0",
    ),
    (
        "contentSchema",
        "`contentSchema` does not exist in OpenAPI 3.0",
    ),
];

/// Where each down-levelled location came from: the rewrites move subschemas (`$ref` with
/// siblings into `allOf`, `null` members out of `oneOf`, `propertyNames` to
/// `x-propertyNames`), so a pointer into the down-levelled document is translated back before
/// a message shows it.
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// Down-levelled pointer -> source pointer, for every schema whose two differ.
    moved: BTreeMap<String, String>,
}

impl Provenance {
    /// Records that the schema now at `pointer` (in the document handed on) came from `source`
    /// (in the 3.1 one): for schemas moved after down-levelling.
    pub(crate) fn record_move(&mut self, pointer: &str, source: String) {
        self.moved.insert(pointer.to_owned(), source);
    }

    /// The pointer in the source (3.1) document of a pointer into the down-levelled one.
    pub fn source_pointer(&self, pointer: &str) -> String {
        let mut prefix = pointer;
        loop {
            if let Some(source) = self.moved.get(prefix) {
                return format!("{source}{}", &pointer[prefix.len()..]);
            }
            match prefix.rfind('/') {
                Some(cut) if cut > 0 => prefix = &prefix[..cut],
                _ => return pointer.to_owned(),
            }
        }
    }
}

/// Down-levels a whole OpenAPI 3.1 document. A 3.0 document is refused: the spec is 3.1 and
/// the step should never be skipped by accident. Every problem is reported together.
pub fn downlevel(document: &Value) -> Result<Value, Error> {
    downlevel_traced(document).map(|(document, _)| document)
}

/// [`downlevel`], also saying where each moved schema came from.
pub fn downlevel_traced(document: &Value) -> Result<(Value, Provenance), Error> {
    let mut out = document.clone();
    let root = out
        .as_object_mut()
        .ok_or_else(|| Error::downlevel("", "the document is not a mapping"))?;

    let version = root
        .get("openapi")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !version.starts_with("3.1.") {
        return Err(Error::downlevel(
            "/openapi",
            format!("expected an OpenAPI 3.1.x document, found `{version}`"),
        ));
    }
    root.insert("openapi".into(), json!("3.0.3"));

    let mut problems = Vec::new();
    if let Some(dialect) = root.remove("jsonSchemaDialect")
        && dialect != json!("https://spec.openapis.org/oas/3.1/dialect/base")
    {
        problems.push(Error::downlevel(
            "/jsonSchemaDialect",
            "only the default OpenAPI 3.1 dialect can be down-levelled",
        ));
    }
    if root
        .get("webhooks")
        .is_some_and(|hooks| hooks.as_object().is_none_or(|map| !map.is_empty()))
    {
        problems.push(Error::downlevel(
            "/webhooks",
            "top-level webhooks do not exist in OpenAPI 3.0",
        ));
    }
    root.remove("webhooks");
    if root
        .get("components")
        .and_then(|components| components.get("pathItems"))
        .is_some()
    {
        problems.push(Error::downlevel(
            "/components/pathItems",
            "reusable path items do not exist in OpenAPI 3.0",
        ));
    }
    if let Some(info) = root.get_mut("info").and_then(Value::as_object_mut) {
        rename_key(info, "summary", "x-summary");
        if info
            .get("license")
            .and_then(|license| license.get("identifier"))
            .is_some()
        {
            problems.push(Error::downlevel(
                "/info/license/identifier",
                "SPDX license identifiers do not exist in OpenAPI 3.0; use `url`",
            ));
        }
    }
    if !root.contains_key("paths") {
        root.insert("paths".into(), json!({}));
    }

    let roots: Vec<String> = Document::new(&out)
        .schema_roots()
        .into_iter()
        .map(|at| at.pointer)
        .collect();
    let mut trace = Trace {
        problems,
        provenance: Provenance::default(),
    };
    for pointer in roots {
        let schema = out.pointer_mut(&pointer).expect("location was just found");
        downlevel_schema(schema, &pointer, &pointer, &mut trace);
    }
    Error::from_problems(trace.problems)?;
    Ok((out, trace.provenance))
}

fn rename_key(map: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(value) = map.remove(from) {
        map.insert(to.to_owned(), value);
    }
}

/// What down-levelling collects on its way: every problem, and where moved schemas came from.
struct Trace {
    problems: Vec<Error>,
    provenance: Provenance,
}

/// Where the rewrites of one schema moved its direct subschemas: a down-levelled suffix
/// (`/allOf/1`) -> its source suffix (`/allOf/0`, or `` for the schema itself).
type Moves = BTreeMap<String, String>;

/// Down-levels one schema and everything below it. `down` is its pointer in the down-levelled
/// document, `source` in the 3.1 one (what messages show).
fn downlevel_schema(schema: &mut Value, down: &str, source: &str, trace: &mut Trace) {
    if down != source {
        trace
            .provenance
            .moved
            .insert(down.to_owned(), source.to_owned());
    }
    let pointer = source;
    let Some(object) = schema.as_object_mut() else {
        trace.problems.push(match schema {
            Value::Bool(_) => Error::downlevel(
                pointer,
                "boolean schemas exist in OpenAPI 3.0 only as `additionalProperties`",
            ),
            _ => Error::downlevel(pointer, "a schema must be a mapping"),
        });
        return;
    };

    let before = trace.problems.len();
    for (keyword, reason) in UNSUPPORTED {
        if object.contains_key(*keyword) {
            trace
                .problems
                .push(Error::downlevel(&push(pointer, keyword), *reason));
        }
    }
    if object.contains_key("nullable") {
        trace.problems.push(Error::downlevel(
            &push(pointer, "nullable"),
            "`nullable` is not OpenAPI 3.1; write `type: [T, \"null\"]`",
        ));
    }
    if matches!(object.get("items"), Some(Value::Array(_))) {
        trace.problems.push(Error::downlevel(
            &push(pointer, "items"),
            "tuple validation does not exist in OpenAPI 3.0",
        ));
    }
    if trace.problems.len() > before {
        // What lies below a keyword 3.0 cannot say is not down-levelled either.
        return;
    }

    let mut moves = Moves::new();
    wrap_ref_with_siblings(object, &mut moves);
    let folds = [
        fold_null_members(object, pointer, &mut moves),
        fold_null_type(object, pointer),
        fold_const(object, pointer),
        fold_examples(object, pointer),
        fold_exclusive_bound(object, pointer, "exclusiveMinimum", "minimum", |a, b| {
            a >= b
        }),
        fold_exclusive_bound(object, pointer, "exclusiveMaximum", "maximum", |a, b| {
            a <= b
        }),
    ];
    trace
        .problems
        .extend(folds.into_iter().filter_map(Result::err));
    if object.contains_key("propertyNames") {
        rename_key(object, "propertyNames", mark::PROPERTY_NAMES);
        moves.insert("/x-propertyNames".into(), "/propertyNames".into());
    }
    if object
        .get("not")
        .is_some_and(|excluded| !crate::contract::typify_converts_not(excluded))
    {
        // typify panics on a `not` it cannot turn into a type; the rule is reported
        // unenforced either way, and `x-not` keeps it in the document for that report.
        rename_key(object, "not", mark::NOT);
        moves.insert("/x-not".into(), "/not".into());
    }
    if carry_tuple(object, &mut moves) {
        trace
            .provenance
            .moved
            .insert(push(down, mark::PREFIX_ITEMS), push(pointer, "prefixItems"));
    }
    rename_key(object, "$comment", "x-comment");

    for keyword in ["allOf", "anyOf", "oneOf"] {
        if object
            .get(keyword)
            .is_some_and(|members| !members.is_array())
        {
            trace.problems.push(Error::downlevel(
                &push(pointer, keyword),
                "must be a list of schemas",
            ));
        }
    }
    if object.get("properties").is_some_and(|map| !map.is_object()) {
        trace.problems.push(Error::downlevel(
            &push(pointer, "properties"),
            "must be a mapping",
        ));
    }

    let children: Vec<String> = model::subschemas(schema)
        .into_iter()
        .filter(|(_, child)| {
            !(child.keyword == "additionalProperties" && child.schema.is_boolean())
        })
        .map(|(suffix, _)| suffix)
        .collect();
    for suffix in children {
        let from = moves
            .get(&suffix)
            .cloned()
            .unwrap_or_else(|| suffix.clone());
        let child = schema.pointer_mut(&suffix).expect("child was just listed");
        downlevel_schema(
            child,
            &format!("{down}{suffix}"),
            &format!("{source}{from}"),
            trace,
        );
    }
}

/// 3.0 has no tuples: `prefixItems` moves to `x-prefixItems` for the tuple patch, and whether
/// the schema is a tuple is returned. `items: true` says what no `items` says, so it goes.
/// `items: false` (no item after the tuple) says what a `maxItems` of the tuple's length says;
/// without `prefixItems` it admits only the empty array, the tuple of no positions. An `items`
/// schema (the type of the items after the tuple) stays.
fn carry_tuple(object: &mut Map<String, Value>, moves: &mut Moves) -> bool {
    if object.get("items") == Some(&Value::Bool(true)) {
        object.remove("items");
    }
    let closed = object.get("items") == Some(&Value::Bool(false));
    if closed && !object.contains_key("prefixItems") {
        object.insert("prefixItems".into(), json!([]));
    }
    let Some(length) = object
        .get("prefixItems")
        .and_then(Value::as_array)
        .map(Vec::len)
    else {
        return false;
    };
    rename_key(object, "prefixItems", mark::PREFIX_ITEMS);
    for index in 0..length {
        moves.insert(
            format!("/x-prefixItems/{index}"),
            format!("/prefixItems/{index}"),
        );
    }
    if closed {
        object.remove("items");
        let length = length as u64;
        let max = object.get("maxItems").and_then(Value::as_u64);
        object.insert(
            "maxItems".into(),
            json!(max.map_or(length, |max| max.min(length))),
        );
    }
    true
}

/// In 3.0 a `$ref` object ignores its siblings; `allOf` with one member keeps them meaningful.
fn wrap_ref_with_siblings(object: &mut Map<String, Value>, moves: &mut Moves) {
    if object.len() < 2 || !object.contains_key("$ref") {
        return;
    }
    let reference = object.remove("$ref").expect("checked above");
    let member = json!({ "$ref": reference });
    moves.insert("/allOf/0".into(), String::new());
    match object.get_mut("allOf").and_then(Value::as_array_mut) {
        Some(members) => {
            for index in 0..members.len() {
                moves.insert(format!("/allOf/{}", index + 1), format!("/allOf/{index}"));
            }
            members.insert(0, member)
        }
        None => {
            object.insert("allOf".into(), json!([member]));
        }
    }
}

fn is_null_schema(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) => {
            kind == "null" && schema.as_object().is_some_and(|o| o.len() == 1)
        }
        Some(Value::Array(kinds)) => {
            kinds == &[json!("null")] && schema.as_object().is_some_and(|o| o.len() == 1)
        }
        _ => false,
    }
}

/// `oneOf: [X, {type: null}]` means "X or null": 3.0 says that with `nullable`.
fn fold_null_members(
    object: &mut Map<String, Value>,
    pointer: &str,
    moves: &mut Moves,
) -> Result<(), Error> {
    for keyword in ["oneOf", "anyOf"] {
        let Some(members) = object.get_mut(keyword).and_then(Value::as_array_mut) else {
            continue;
        };
        let before = members.len();
        let kept: Vec<usize> = (0..before)
            .filter(|index| !is_null_schema(&members[*index]))
            .collect();
        members.retain(|member| !is_null_schema(member));
        if members.len() == before {
            continue;
        }
        for (now, was) in kept.iter().enumerate() {
            moves.insert(format!("/{keyword}/{now}"), format!("/{keyword}/{was}"));
        }
        if members.is_empty() {
            return Err(Error::downlevel(
                &push(pointer, keyword),
                "a union of only `null` cannot be expressed",
            ));
        }
        object.insert("nullable".into(), json!(true));
        if let [single] = object
            .get(keyword)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            // A one-member union is the member itself; `allOf` keeps a `$ref` member valid.
            let single = single.clone();
            object.remove(keyword);
            let position = object
                .get("allOf")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            moves.insert(
                format!("/allOf/{position}"),
                format!("/{keyword}/{}", kept[0]),
            );
            match object.get_mut("allOf").and_then(Value::as_array_mut) {
                Some(all) => all.push(single),
                None => {
                    object.insert("allOf".into(), json!([single]));
                }
            }
        }
    }
    Ok(())
}

fn fold_null_type(object: &mut Map<String, Value>, pointer: &str) -> Result<(), Error> {
    let Some(kind) = object.get("type").cloned() else {
        return Ok(());
    };
    let kinds: Vec<Value> = match kind {
        Value::String(_) => vec![kind],
        Value::Array(kinds) => kinds,
        _ => {
            return Err(Error::downlevel(
                &push(pointer, "type"),
                "must be a string or a list of strings",
            ));
        }
    };
    let nullable = kinds.iter().any(|kind| kind == "null");
    let rest: Vec<&Value> = kinds.iter().filter(|kind| *kind != "null").collect();
    match rest.as_slice() {
        [] => {
            // Only null: 3.0 has no null type, but a nullable enum of just `null` means the same.
            if object.contains_key("enum") || object.contains_key("const") {
                return Err(Error::downlevel(
                    pointer,
                    "`type: null` beside `enum` or `const` cannot be expressed",
                ));
            }
            object.remove("type");
            object.insert("enum".into(), json!([null]));
        }
        [single] => {
            object.insert("type".into(), (*single).clone());
        }
        _ => {
            return Err(Error::downlevel(
                &push(pointer, "type"),
                format!(
                    "a union of types {rest:?} cannot be expressed; use `oneOf` of one schema per type"
                ),
            ));
        }
    }
    if nullable {
        object.insert("nullable".into(), json!(true));
        if let Some(values) = object.get_mut("enum").and_then(Value::as_array_mut) {
            // OpenAPI 3.0.3 requires `null` among the values of a nullable enum.
            if !values.contains(&Value::Null) {
                values.push(Value::Null);
            }
        }
    }
    Ok(())
}

fn fold_const(object: &mut Map<String, Value>, pointer: &str) -> Result<(), Error> {
    let Some(value) = object.remove("const") else {
        return Ok(());
    };
    if object.contains_key("enum") {
        return Err(Error::downlevel(
            &push(pointer, "const"),
            "`const` beside `enum` cannot be expressed",
        ));
    }
    let inferred = match &value {
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_i64() || number.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::Null | Value::Array(_) | Value::Object(_) => {
            return Err(Error::downlevel(
                &push(pointer, "const"),
                "only a string, number or boolean `const` can be expressed",
            ));
        }
    };
    object.entry("type").or_insert_with(|| json!(inferred));
    object.insert("enum".into(), json!([value]));
    Ok(())
}

fn fold_examples(object: &mut Map<String, Value>, pointer: &str) -> Result<(), Error> {
    let Some(examples) = object.remove("examples") else {
        return Ok(());
    };
    let Value::Array(list) = &examples else {
        return Err(Error::downlevel(
            &push(pointer, "examples"),
            "schema `examples` must be a list",
        ));
    };
    if let Some(first) = list.first() {
        object.entry("example").or_insert_with(|| first.clone());
    }
    if list.len() > 1 {
        object.insert("x-examples".into(), examples);
    }
    Ok(())
}

/// Turns the 3.1 numeric `exclusiveMinimum: n` into 3.0's `minimum: n, exclusiveMinimum: true`,
/// keeping whichever of the two bounds is stricter when both are given.
fn fold_exclusive_bound(
    object: &mut Map<String, Value>,
    pointer: &str,
    exclusive: &str,
    inclusive: &str,
    exclusive_is_stricter: fn(f64, f64) -> bool,
) -> Result<(), Error> {
    let Some(bound) = object.remove(exclusive) else {
        return Ok(());
    };
    let Some(exclusive_value) = bound.as_f64() else {
        return Err(Error::downlevel(
            &push(pointer, exclusive),
            "must be a number in OpenAPI 3.1",
        ));
    };
    match object
        .get(inclusive)
        .map(|value| value.as_f64().ok_or(value))
    {
        Some(Err(_)) => Err(Error::downlevel(
            &push(pointer, inclusive),
            "must be a number",
        )),
        Some(Ok(inclusive_value)) if !exclusive_is_stricter(exclusive_value, inclusive_value) => {
            Ok(())
        }
        _ => {
            object.insert(inclusive.to_owned(), bound);
            object.insert(exclusive.to_owned(), json!(true));
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(schema: Value) -> Value {
        json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {"S": schema}}})
    }

    fn down(schema: Value) -> Value {
        downlevel(&doc(schema)).unwrap()["components"]["schemas"]["S"].clone()
    }

    fn refused(schema: Value) -> String {
        downlevel(&doc(schema)).unwrap_err().to_string()
    }

    #[test]
    fn sets_the_version() {
        assert_eq!(downlevel(&doc(json!({}))).unwrap()["openapi"], "3.0.3");
        let error = downlevel(&json!({"openapi": "3.0.3"}))
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "cannot down-level /openapi: expected an OpenAPI 3.1.x document, found `3.0.3`"
        );
    }

    #[test]
    fn nullable_type_arrays() {
        assert_eq!(
            down(json!({"type": ["string", "null"]})),
            json!({"type": "string", "nullable": true})
        );
        assert_eq!(
            down(json!({"type": ["integer"]})),
            json!({"type": "integer"})
        );
        assert_eq!(
            down(json!({"type": "null"})),
            json!({"enum": [null], "nullable": true})
        );
        assert_eq!(
            down(json!({"type": ["string", "null"], "enum": ["a"]})),
            json!({"type": "string", "enum": ["a", null], "nullable": true})
        );
        assert_eq!(
            refused(json!({"properties": {"x": {"type": ["string", "integer"]}}})),
            "cannot down-level /components/schemas/S/properties/x/type: a union of types \
             [String(\"string\"), String(\"integer\")] cannot be expressed; use `oneOf` of one schema per type"
        );
    }

    #[test]
    fn nullable_unions() {
        assert_eq!(
            down(json!({"oneOf": [{"$ref": "#/components/schemas/T"}, {"type": "null"}]})),
            json!({"nullable": true, "allOf": [{"$ref": "#/components/schemas/T"}]})
        );
        assert_eq!(
            down(json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true})
        );
    }

    #[test]
    fn const_becomes_a_one_value_enum_with_its_type() {
        assert_eq!(
            down(json!({"const": "paper"})),
            json!({"type": "string", "enum": ["paper"]})
        );
        assert_eq!(
            down(json!({"const": 3})),
            json!({"type": "integer", "enum": [3]})
        );
        assert!(refused(json!({"const": {"a": 1}})).contains("/components/schemas/S/const"));
    }

    #[test]
    fn schema_examples_but_not_media_type_examples() {
        assert_eq!(
            down(json!({"examples": ["a", "b"]})),
            json!({"example": "a", "x-examples": ["a", "b"]})
        );
        assert_eq!(down(json!({"examples": ["a"]})), json!({"example": "a"}));
        let media = json!({"schema": {"type": "string", "examples": ["x"]}, "examples": {"one": {"value": "x"}}});
        let document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": {"responses": {"200": {"description": "d", "content": {"application/json": media}}}}}}});
        let out = downlevel(&document).unwrap();
        let content = &out["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"];
        assert_eq!(content["examples"], json!({"one": {"value": "x"}}));
        assert_eq!(content["schema"], json!({"type": "string", "example": "x"}));
    }

    #[test]
    fn exclusive_bounds() {
        assert_eq!(
            down(json!({"type": "integer", "exclusiveMinimum": 0})),
            json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true})
        );
        assert_eq!(
            down(json!({"exclusiveMaximum": 10, "maximum": 20})),
            json!({"maximum": 10, "exclusiveMaximum": true})
        );
        assert_eq!(
            down(json!({"exclusiveMinimum": 0, "minimum": 5})),
            json!({"minimum": 5})
        );
        assert!(
            refused(json!({"exclusiveMinimum": true}))
                .contains("/components/schemas/S/exclusiveMinimum: must be a number")
        );
    }

    #[test]
    fn ref_with_siblings() {
        assert_eq!(
            down(json!({"properties": {"e": {"$ref": "#/components/schemas/E", "default": {}}}})),
            json!({"properties": {"e": {"default": {}, "allOf": [{"$ref": "#/components/schemas/E"}]}}})
        );
        assert_eq!(
            down(json!({"$ref": "#/components/schemas/E"})),
            json!({"$ref": "#/components/schemas/E"})
        );
    }

    #[test]
    fn property_names_are_carried_for_patches() {
        assert_eq!(
            down(
                json!({"propertyNames": {"pattern": "^a$"}, "additionalProperties": {"type": "string"}})
            ),
            json!({"additionalProperties": {"type": "string"}, "x-propertyNames": {"pattern": "^a$"}})
        );
    }

    #[test]
    fn a_not_typify_cannot_convert_is_carried() {
        assert_eq!(
            down(json!({"not": {"required": ["a", "b"]}})),
            json!({"x-not": {"required": ["a", "b"]}})
        );
        // A set of literals, `{}` and booleans typify turns into types: they stay.
        for kept in [
            json!({"type": "string", "not": {"enum": ["a", "b"]}}),
            json!({"not": {}}),
            json!({"not": {"type": "integer", "enum": [1, 2]}}),
        ] {
            assert_eq!(down(kept.clone()), kept);
        }
    }

    #[test]
    fn tuples_are_carried_for_patches() {
        assert_eq!(
            down(
                json!({"type": "array", "prefixItems": [{"type": ["string", "null"]}, {"const": 1}], "items": false})
            ),
            json!({"type": "array", "maxItems": 2,
                "x-prefixItems": [{"type": "string", "nullable": true}, {"type": "integer", "enum": [1]}]})
        );
        // `items: false` lowers a larger `maxItems` to the tuple's length; a rest schema stays.
        assert_eq!(
            down(json!({"prefixItems": [{}], "items": false, "maxItems": 5})),
            json!({"maxItems": 1, "x-prefixItems": [{}]})
        );
        assert_eq!(
            down(json!({"prefixItems": [{}], "items": {"type": "string"}})),
            json!({"items": {"type": "string"}, "x-prefixItems": [{}]})
        );
        // A boolean `items` alone: no item at all, or any.
        assert_eq!(
            down(json!({"type": "array", "items": false})),
            json!({"type": "array", "maxItems": 0, "x-prefixItems": []})
        );
        assert_eq!(
            down(json!({"type": "array", "items": true})),
            json!({"type": "array"})
        );
        let (_, provenance) = downlevel_traced(&doc(
            json!({"properties": {"t": {"prefixItems": [{"type": "string"}]}}}),
        ))
        .unwrap();
        assert_eq!(
            provenance
                .source_pointer("/components/schemas/S/properties/t/x-prefixItems/0/minLength"),
            "/components/schemas/S/properties/t/prefixItems/0/minLength"
        );
        assert_eq!(
            provenance.source_pointer("/components/schemas/S/properties/t/x-prefixItems"),
            "/components/schemas/S/properties/t/prefixItems"
        );
    }

    #[test]
    fn refuses_what_3_0_cannot_say_naming_the_pointer() {
        for (schema, pointer) in [
            (
                json!({"items": [{"type": "string"}]}),
                "/components/schemas/S/items",
            ),
            (
                json!({"properties": {"a~b": {"if": {}}}}),
                "/components/schemas/S/properties/a~0b/if",
            ),
            (
                json!({"allOf": [{"unevaluatedProperties": false}]}),
                "/components/schemas/S/allOf/0/unevaluatedProperties",
            ),
            (
                json!({"patternProperties": {}}),
                "/components/schemas/S/patternProperties",
            ),
            (json!({"nullable": true}), "/components/schemas/S/nullable"),
            (json!({"not": true}), "/components/schemas/S/not"),
        ] {
            let error = refused(schema);
            assert!(
                error.starts_with(&format!("cannot down-level {pointer}")),
                "{error}"
            );
        }
    }

    #[test]
    fn refuses_top_level_webhooks() {
        let mut document = doc(json!({}));
        document["webhooks"] = json!({"ping": {}});
        assert!(
            downlevel(&document)
                .unwrap_err()
                .to_string()
                .starts_with("cannot down-level /webhooks")
        );
    }

    #[test]
    fn walks_parameters_bodies_and_responses() {
        let document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a/{id}": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": ["string", "null"]}}],
        "post": {
            "parameters": [{"name": "q", "in": "query", "schema": {"const": "x"}}],
            "requestBody": {"content": {"application/json": {"schema": {"examples": [1]}}}},
            "responses": {"200": {"description": "d", "headers": {"h": {"schema": {"exclusiveMinimum": 1}}}}}
        }}}});
        let out = downlevel(&document).unwrap();
        let item = &out["paths"]["/a/{id}"];
        assert_eq!(
            item["parameters"][0]["schema"],
            json!({"type": "string", "nullable": true})
        );
        assert_eq!(
            item["post"]["parameters"][0]["schema"],
            json!({"type": "string", "enum": ["x"]})
        );
        assert_eq!(
            item["post"]["requestBody"]["content"]["application/json"]["schema"],
            json!({"example": 1})
        );
        assert_eq!(
            item["post"]["responses"]["200"]["headers"]["h"]["schema"],
            json!({"minimum": 1, "exclusiveMinimum": true})
        );
    }

    #[test]
    fn comments_become_extensions() {
        assert_eq!(
            down(json!({"$comment": "why", "type": "string"})),
            json!({"type": "string", "x-comment": "why"})
        );
    }

    #[test]
    fn reports_every_problem_at_its_source_pointer() {
        let schema = json!({"properties": {
            "a": {"contains": {}},
            "b": {"$ref": "#/components/schemas/T", "allOf": [{"if": {}}], "description": "d"},
            "c": {"oneOf": [{"type": "null"}, {"type": "string"}, {"type": "null"}, {"then": {}}]}
        }});
        let error = downlevel(&doc(schema)).unwrap_err();
        let messages: Vec<String> = error.problems().iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "cannot down-level /components/schemas/S/properties/a/contains: `contains` does not exist in OpenAPI 3.0",
                "cannot down-level /components/schemas/S/properties/b/allOf/0/if: conditional schemas do not exist in OpenAPI 3.0",
                "cannot down-level /components/schemas/S/properties/c/oneOf/3/then: conditional schemas do not exist in OpenAPI 3.0",
            ]
        );
    }
}
