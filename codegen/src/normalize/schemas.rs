//! The schema-level repairs, on every schema node:
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
//!   struct of optional members that accepts values no member accepts.
//! - **`additionalProperties: true` beside a union** without a `type` or properties of its own,
//!   which admits what its absence admits, is left out (typify would merge it into each member).
//! - **Unsatisfiable closed objects** (`additionalProperties: false` and a required property
//!   not declared) get the property declared with an unconstrained schema, as their authors
//!   evidently meant.
//! - **Keywords that constrain no instance of the stated `type`** (`minimum` on a string) are
//!   dropped and reported (`inapplicable`).
//! - **Defaults that break their own schema** are dropped.
//! - **Patterns** the generated code's ECMA-262 engine (`hub_api_support::Pattern`, which
//!   falls back to `regress`, with look-ahead and look-behind) cannot compile are dropped and
//!   reported; `format: uuid` becomes the
//!   equivalent pattern (typify would need the `uuid` crate otherwise).

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::{Finding, FindingKind};
use crate::model::{mark, push};

/// Keywords whose value is one subschema.
pub(super) const ONE_SCHEMA: &[&str] = &[
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
pub(super) const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
pub(super) const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "dependentSchemas",
];

/// The schema-level repairs, on `schema` and every subschema.
pub(super) fn normalize_schema(schema: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
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
    implied_type(object, pointer, findings);
    super::inapplicable::drop_inapplicable_keywords(object, pointer, findings);
    float_as_double(object);
    // A count of at least 0 constrains nothing, and its check (`count < 0`) is one the
    // compiler warns about in every crate that has it (AWS states `minLength: 0`). After
    // `implied_type`, which reads the keyword as saying what kind the schema is.
    for keyword in ["minLength", "minItems", "minProperties"] {
        if object.get(keyword).and_then(Value::as_f64) == Some(0.0) {
            object.remove(keyword);
        }
    }
    type_union(object, pointer, findings);
    members_that_admit_nothing(object, pointer, findings);
    open_enum(object, pointer, findings);
    nullable_enum(object);
    literal_set(object, pointer, findings);
    repeated_enum_values(object, pointer, findings);
    repeated_required(object, pointer, findings);
    any_of(object, pointer, findings);
    open_beside_union(object, pointer, findings);
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
/// keywords that can constrain its type (`minimum` goes to the `integer` member only), marked
/// `x-any-of` like any `anyOf`.
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
                let kind = [kind.as_str().unwrap_or_default()];
                rest.iter()
                    .filter(|(keyword, _)| crate::rules::keyword_applies(keyword, &kind))
                    .map(|(keyword, value)| (keyword.clone(), value.clone()))
                    .collect()
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

/// The keywords that give a schema without `type` a kind some other way; beside one of them a
/// `format` is left for the steps that read them.
const IMPLY_A_TYPE: &[&str] = &[
    "$ref",
    "oneOf",
    "anyOf",
    "allOf",
    "enum",
    "const",
    "properties",
    "items",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The kind a numeric `format` names (`int64`: an integer, `double`: a number); `None` for a
/// string format or a sentence.
fn numeric_format_kind(format: &str) -> Option<&'static str> {
    if crate::rules::integer_width(format).is_some() {
        Some("integer")
    } else if matches!(format, "float" | "double" | "decimal") {
        Some("number")
    } else {
        None
    }
}

/// `format: string` (or another JSON type's name, or a numeric format: `int64`, `double`) where
/// no `type` is given: the author meant that type, and progenitor refuses a schema that has a
/// `format` but no type. A defect. Any other `format` on a schema with no `type` and nothing
/// else that says its kind is left out.
fn format_as_type(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    const TYPES: &[&str] = &["string", "boolean", "object", "integer", "number", "array"];
    if object.contains_key("type") {
        return;
    }
    let Some(format) = object.get("format").and_then(Value::as_str) else {
        return;
    };
    let implies_a_type = object
        .keys()
        .any(|key| IMPLY_A_TYPE.contains(&key.as_str()));
    if let Some(kind) = numeric_format_kind(format).filter(|_| !implies_a_type) {
        let format = format.to_owned();
        object.insert("type".into(), Value::String(kind.into()));
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, "format"),
            format!("`format: {format}` without a `type`; read as `type: {kind}`"),
        ));
        return;
    }
    if !TYPES.contains(&format) {
        // Anything else beside no `type` (a sentence, a string format): typify panics on it,
        // and JSON Schema reads an unknown format as a note. Left out, so the schema is what
        // its other keywords say.
        // Under `propertyNames` every instance is a string (a key), so the format holds.
        if !implies_a_type && !pointer.ends_with("/propertyNames") {
            let format = format.to_owned();
            object.remove("format");
            findings.push(Finding::new(
                FindingKind::Defect,
                &push(pointer, "format"),
                format!("`format: {format}` without a `type` (a format constrains strings only); left out"),
            ));
        }
        return;
    }
    let kind = format.to_owned();
    object.remove("format");
    object.insert("type".into(), Value::String(kind.clone()));
    findings.push(Finding::new(
        FindingKind::Defect,
        &push(pointer, "format"),
        format!("`format: {kind}` without a `type`; read as `type: {kind}`"),
    ));
}

/// A schema with no `type` whose keywords speak of kinds of value (`properties`,
/// `additionalProperties`, `required`: an object; `items`: an array; `minimum`: a number;
/// `pattern`: a string) is generated as those kinds: typify writes a struct, a map, a vector or
/// a checked value, which refuses every other JSON value, where JSON Schema would admit them
/// (its object keywords only constrain objects); and it panics on an untyped schema with number
/// rules or with keywords of several kinds. The document is made to say what the code does,
/// `type` added (a list where several kinds are spoken of, which the type union then splits),
/// and the repair reported.
fn implied_type(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    const OBJECT: &[&str] = &[
        "properties",
        "additionalProperties",
        "required",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
    ];
    const ARRAY: &[&str] = &[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
    ];
    const STRING: &[&str] = &["pattern", "minLength", "maxLength"];
    const NUMBER: &[&str] = &[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ];
    // Where the kind comes from elsewhere (members, a reference, listed values), nothing is
    // implied.
    const ELSEWHERE: &[&str] = &[
        "type", "$ref", "oneOf", "anyOf", "allOf", "not", "enum", "const", "if", "then", "else",
        "contains",
    ];
    if ELSEWHERE
        .iter()
        .any(|keyword| object.contains_key(*keyword))
    {
        return;
    }
    // Under a `not` or a condition no code is generated, and a stated `type` would change what
    // the schema there admits. (A property named `not` is passed over too, which is only a
    // repair not made.)
    let negated = pointer
        .split('/')
        .any(|segment| matches!(segment, "not" | "if" | "then" | "else" | "contains"));
    // Under `propertyNames` every instance is a string (a key), and the step that reads it
    // wants its rules as written.
    if negated || pointer.ends_with("/propertyNames") {
        return;
    }
    let has = |keywords: &[&str]| keywords.iter().any(|keyword| object.contains_key(*keyword));
    // A numeric format says which kind of number (`int64`: an integer).
    let number = match object.get("format").and_then(Value::as_str) {
        Some(format) => numeric_format_kind(format).unwrap_or("number"),
        None => "number",
    };
    let kinds: Vec<&str> = [
        (OBJECT, "object"),
        (ARRAY, "array"),
        (STRING, "string"),
        (NUMBER, number),
    ]
    .into_iter()
    .filter(|(keywords, _)| has(keywords))
    .map(|(_, kind)| kind)
    .collect();
    let stated = match kinds.as_slice() {
        [] => return,
        [kind] => json!(kind),
        several => json!(several),
    };
    let kind = kinds.join(" and ");
    object.insert("type".into(), stated.clone());
    findings.push(Finding::new(
        FindingKind::Repaired,
        pointer,
        format!(
            "no `type`, but only {kind} keywords: generated, and now stated, as `type: {stated}`"
        ),
    ));
}

/// `format: float` on a number is a storage hint, not a rule: JSON numbers are doubles, and
/// typify's `f32` would change a value on its way through (`0.00001` comes back as
/// `9.999999747e-6`). Read as `double`, so the value is kept as sent.
fn float_as_double(object: &mut Map<String, Value>) {
    let is_number = match object.get("type") {
        Some(Value::String(kind)) => kind == "number",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "number"),
        _ => false,
    };
    if is_number && object.get("format").and_then(Value::as_str) == Some("float") {
        object.insert("format".into(), Value::String("double".into()));
    }
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
    let Listed {
        repeated,
        refused: impossible,
    } = keep_each_once(values, admitted);
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

/// What [`keep_each_once`] left out of a list, each value spelled as JSON.
struct Listed {
    /// Values listed again after their first place.
    repeated: Vec<String>,
    /// Values `admitted` refused.
    refused: Vec<String>,
}

/// Keeps each value of `values` that `admitted` takes, once, in its first place.
fn keep_each_once(values: &mut Vec<Value>, admitted: impl Fn(&Value) -> bool) -> Listed {
    let mut kept: Vec<Value> = Vec::with_capacity(values.len());
    let mut left_out = Listed {
        repeated: Vec::new(),
        refused: Vec::new(),
    };
    for value in values.drain(..) {
        if !admitted(&value) {
            left_out.refused.push(value.to_string());
        } else if kept.contains(&value) {
            left_out.repeated.push(value.to_string());
        } else {
            kept.push(value);
        }
    }
    *values = kept;
    left_out
}

/// A `required` list must not name a property twice (JSON Schema refuses the schema; a
/// validator will not compile it); each is kept once, and the defect reported.
fn repeated_required(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(names) = object.get_mut("required").and_then(Value::as_array_mut) else {
        return;
    };
    let Listed { repeated, .. } = keep_each_once(names, |_| true);
    if !repeated.is_empty() {
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, "required"),
            format!(
                "properties required more than once: {}; each kept once",
                repeated.join(", ")
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

/// `additionalProperties: true` (or `{}`) beside a union, with no `type` or properties of its
/// own (Mistral's `SignalInvocationBody.input`), admits what its absence admits. typify would
/// merge it into each member, copying a `$ref`'d object into a struct variant that no longer
/// names its schema; without it, the union's members are read as they are.
fn open_beside_union(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let open = match object.get("additionalProperties") {
        Some(Value::Bool(admits)) => *admits,
        Some(Value::Object(schema)) => schema.is_empty(),
        _ => false,
    };
    let union = object.contains_key("oneOf") || object.contains_key("anyOf");
    let own = ["type", "properties", "patternProperties", "allOf"];
    if open && union && !own.iter().any(|keyword| object.contains_key(*keyword)) {
        object.remove("additionalProperties");
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "additionalProperties"),
            "`additionalProperties: true` beside a union admits what its absence admits; left out, so that the members are read as they are",
        ));
    }
}

/// A closed object that requires a property it does not declare can hold no value at all.
fn closed_object(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false));
    if !closed {
        return;
    }
    let required: Vec<String> = crate::model::required_names(object)
        .map(str::to_owned)
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

/// A UUID in its hyphenated text form, any case.
const UUID: &str = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/// Drops a `pattern` the generated code cannot compile; `format: uuid` becomes a pattern (typify
/// would need the `uuid` crate otherwise), joined to the author's own pattern when there is one:
/// the whole text must be a UUID, and the author's pattern must match in it.
fn pattern(object: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    if object.get("format").and_then(Value::as_str) == Some("uuid") {
        object.remove("format");
        let joined = match object.get("pattern").and_then(Value::as_str) {
            Some(own) if hub_api_support::Pattern::check(own).is_ok() => {
                format!("^(?={UUID}$)[\\s\\S]*?(?:{own})")
            }
            _ => format!("^{UUID}$"),
        };
        // An author's pattern that cannot compile is reported below, as it would be alone.
        let own = object.insert("pattern".into(), json!(joined));
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "format"),
            "`format: uuid` enforced as the equivalent pattern",
        ));
        if let Some(Value::String(own)) = own
            && let Err(error) = hub_api_support::Pattern::check(&own)
        {
            findings.push(Finding::new(
                FindingKind::Unenforced,
                &push(pointer, "pattern"),
                format!("{error}; not enforced"),
            ));
        }
    }
    let Some(text) = object.get("pattern").and_then(Value::as_str) else {
        return;
    };
    if let Err(error) = hub_api_support::Pattern::check(text) {
        object.remove("pattern");
        findings.push(Finding::new(
            FindingKind::Unenforced,
            &push(pointer, "pattern"),
            format!("{error}; not enforced"),
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

/// Drops a `default` beside a `$ref` that the referenced schema refuses (a `default: plaid`
/// beside a `$ref` to an enum of colours): typify refuses the value with no place named, and
/// each schema's own check ([`default_value`]) does not look through the reference. After the
/// schema repairs, so that the referenced schema is as the generators will read it.
pub(super) fn defaults_through_references(document: &mut Value, findings: &mut Vec<Finding>) {
    let model = crate::model::Document::new(document);
    let mut refused = Vec::new();
    model.visit_schemas(|at| {
        if let (Some(default), Some(_)) = (at.schema.get("default"), at.schema.get("$ref"))
            && let Some(target) = model.resolve(at.schema).and_then(Value::as_object)
            && let Some(reason) = refusal(target, default)
        {
            refused.push((at.pointer.clone(), reason));
        }
        crate::model::Visit::Descend
    });
    for (pointer, reason) in refused {
        if let Some(object) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        {
            object.remove("default");
        }
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(&pointer, "default"),
            format!("the default breaks the schema it references ({reason}); dropped"),
        ));
    }
}

/// Why `schema` (its own keywords, not its subschemas) refuses `value`, if it does.
fn refusal(schema: &Map<String, Value>, value: &Value) -> Option<String> {
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
    ) && hub_api_support::Pattern::interpreted(pattern)
        .is_ok_and(|compiled| !compiled.is_match(text))
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
    use super::super::normalize;
    use super::*;

    #[test]
    fn a_uuid_format_is_a_pattern_joined_to_the_authors() {
        let mut findings = Vec::new();
        let mut alone = json!({"type": "string", "format": "uuid"});
        normalize_schema(&mut alone, "/a", &mut findings);
        let mut joined = json!({"type": "string", "format": "uuid", "pattern": "^[0-9a-f-]+4"});
        normalize_schema(&mut joined, "/j", &mut findings);
        let mut broken = json!({"type": "string", "format": "uuid", "pattern": "(?<"});
        normalize_schema(&mut broken, "/b", &mut findings);
        for schema in [&alone, &joined, &broken] {
            assert!(schema.get("format").is_none(), "{schema}");
        }
        let matches = |schema: &Value, text: &str| {
            hub_api_support::Pattern::interpreted(schema["pattern"].as_str().unwrap())
                .unwrap()
                .is_match(text)
        };
        let v4 = "0b6c1a2e-3d4f-4a5b-8c6d-7e8f9a0b1c2d";
        let upper = "0B6C1A2E-3D4F-1A5B-8C6D-7E8F9A0B1C2D";
        assert!(matches(&alone, v4) && matches(&alone, upper) && !matches(&alone, "x"));
        assert!(matches(&joined, v4), "{joined}");
        // A UUID the author's pattern refuses, and text the author's pattern takes that is no UUID.
        assert!(
            !matches(&joined, upper) && !matches(&joined, "0b6c4"),
            "{joined}"
        );
        assert!(matches(&broken, v4) && !matches(&broken, "(?<"), "{broken}");
        let kinds: Vec<&FindingKind> = findings.iter().map(|finding| &finding.kind).collect();
        assert_eq!(
            kinds,
            [
                &FindingKind::Repaired,
                &FindingKind::Repaired,
                &FindingKind::Repaired,
                &FindingKind::Unenforced
            ],
            "{findings:?}"
        );
    }

    #[test]
    fn a_kind_only_its_keywords_imply_is_stated_and_reported() {
        let mut findings = Vec::new();
        let mut map = json!({"additionalProperties": {"type": "string"}});
        normalize_schema(&mut map, "/m", &mut findings);
        assert_eq!(map["type"], "object");
        let mut list = json!({"items": {"type": "integer"}, "minItems": 1});
        normalize_schema(&mut list, "/l", &mut findings);
        assert_eq!(list["type"], "array");
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert_eq!(findings[0].pointer, "/m");
        // Number rules (typify panics on them untyped) imply a number, an integer format an
        // integer.
        let mut bounded = json!({"minimum": 0, "maximum": 9.5});
        normalize_schema(&mut bounded, "/n", &mut findings);
        assert_eq!(bounded["type"], "number");
        let mut counted = json!({"minimum": 0, "format": "int32"});
        normalize_schema(&mut counted, "/i", &mut findings);
        assert_eq!(counted["type"], "integer");
        let mut lone = json!({"format": "int64"});
        normalize_schema(&mut lone, "/f", &mut findings);
        assert_eq!(lone["type"], "integer");
        assert_eq!(findings[4].kind, FindingKind::Defect, "{findings:?}");
        assert_eq!(findings.len(), 5, "{findings:?}");
        // Members and references imply nothing.
        for schema in [
            json!({"properties": {}, "oneOf": [{"type": "object"}]}),
            json!({"maximum": 2, "$ref": "#/components/schemas/A"}),
            json!({"description": "anything"}),
        ] {
            let mut schema = schema;
            let before = schema.clone();
            let mut none = Vec::new();
            normalize_schema(&mut schema, "/x", &mut none);
            assert_eq!(schema.get("type"), before.get("type"), "{schema}");
        }
        // Keywords of objects and arrays both (typify panics on them): both kinds, which the
        // type union then splits, each member with its own kind's keywords.
        let mut mixed = json!({"properties": {"a": {"type": "number"}}, "maxItems": 1});
        let mut both = Vec::new();
        normalize_schema(&mut mixed, "/b", &mut both);
        let members = mixed["oneOf"].as_array().expect("a union of the two kinds");
        assert_eq!(members.len(), 2, "{mixed}");
        assert_eq!(members[0]["type"], "object", "{mixed}");
        assert_eq!(members[0]["properties"]["a"]["type"], "number", "{mixed}");
        assert_eq!(members[1]["type"], "array", "{mixed}");
        assert_eq!(members[1]["maxItems"], 1, "{mixed}");
        assert!(members[0].get("maxItems").is_none(), "{mixed}");
        assert!(both[0].message.contains("object and array"), "{both:?}");
        // A number's rules beside a string's (loket.nl: `format: double`, bounds and a
        // pattern): both kinds, each member keeping its own.
        let mut amount = json!({"format": "double", "minimum": 0, "pattern": "^[0-9]+$"});
        normalize_schema(&mut amount, "/a", &mut Vec::new());
        let members = amount["oneOf"]
            .as_array()
            .expect("a union of the two kinds");
        assert_eq!(members[0]["type"], "string", "{amount}");
        assert_eq!(members[0]["pattern"], "^[0-9]+$", "{amount}");
        assert_eq!(members[1]["type"], "number", "{amount}");
        assert_eq!(members[1]["minimum"], 0, "{amount}");
        // Under `not`, a stated type would change what the `not` admits.
        let mut negated = json!({"type": "object", "not": {"required": ["a"]}});
        let mut none = Vec::new();
        normalize_schema(&mut negated, "/n", &mut none);
        assert_eq!(negated["not"], json!({"required": ["a"]}));
        assert!(none.is_empty(), "{none:?}");
    }

    #[test]
    fn a_format_without_a_type_is_a_type_or_left_out() {
        let mut findings = Vec::new();
        let mut typed = json!({"format": "integer"});
        normalize_schema(&mut typed, "/t", &mut findings);
        assert_eq!(typed, json!({"type": "integer"}));
        let mut sentence = json!({"format": "The HTTP verb for the endpoint", "description": "d"});
        normalize_schema(&mut sentence, "/s", &mut findings);
        assert_eq!(sentence, json!({"description": "d"}));
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert_eq!(findings[1].pointer, "/s/format");
        assert_eq!(findings[1].kind, FindingKind::Defect);
        // Beside a keyword that says the kind, the format stays for the step that reads it.
        let mut referenced = json!({"format": "email", "$ref": "#/components/schemas/Id"});
        let before = referenced.clone();
        normalize_schema(&mut referenced, "/r", &mut Vec::new());
        assert_eq!(referenced, before);
        let mut key = json!({"format": "email"});
        normalize_schema(&mut key, "/m/propertyNames", &mut Vec::new());
        assert_eq!(key, json!({"format": "email"}), "a key is a string");
    }

    #[test]
    fn a_count_of_at_least_zero_is_dropped_after_it_said_the_kind() {
        let mut findings = Vec::new();
        let mut text = json!({"type": "string", "minLength": 0, "maxLength": 4});
        normalize_schema(&mut text, "/t", &mut findings);
        assert_eq!(text, json!({"type": "string", "maxLength": 4}));
        let mut list = json!({"minItems": 0});
        normalize_schema(&mut list, "/l", &mut findings);
        assert_eq!(list, json!({"type": "array"}));
    }

    #[test]
    fn a_property_required_twice_is_required_once() {
        let mut findings = Vec::new();
        let mut schema = json!({"type": "object", "properties": {"id": {}, "name": {}},
            "required": ["id", "name", "id", "name"]});
        normalize_schema(&mut schema, "/c", &mut findings);
        assert_eq!(schema["required"], json!(["id", "name"]));
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].pointer, "/c/required");
        assert!(
            findings[0].message.contains("\"id\", \"name\""),
            "{findings:?}"
        );
    }

    #[test]
    fn a_float_number_is_read_as_a_double() {
        let mut findings = Vec::new();
        let mut number = json!({"type": "number", "format": "float"});
        normalize_schema(&mut number, "/n", &mut findings);
        assert_eq!(number["format"], "double");
        let mut nullable = json!({"type": ["number", "null"], "format": "float"});
        normalize_schema(&mut nullable, "/n", &mut findings);
        assert_eq!(nullable.get("format"), Some(&json!("double")), "{nullable}");
        let mut string = json!({"type": "string", "format": "float"});
        normalize_schema(&mut string, "/s", &mut findings);
        assert_eq!(string["format"], "float");
        assert!(findings.is_empty(), "{findings:?}");
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
    fn defaults_that_break_the_schema_they_reference_are_dropped() {
        let mut document = json!({"components": {"schemas": {
            "Colour": {"type": "string", "enum": ["red", "blue"]},
            "Named": {"$ref": "#/components/schemas/Colour"},
            "Paint": {"type": "object", "properties": {
                "plaid": {"$ref": "#/components/schemas/Named", "default": "plaid"},
                "red": {"$ref": "#/components/schemas/Colour", "default": "red"},
                "nowhere": {"$ref": "#/components/schemas/Missing", "default": "x"},
            }},
        }}});
        let mut findings = Vec::new();
        defaults_through_references(&mut document, &mut findings);
        let paint = &document["components"]["schemas"]["Paint"]["properties"];
        assert_eq!(
            paint["plaid"],
            json!({"$ref": "#/components/schemas/Named"})
        );
        assert_eq!(paint["red"]["default"], "red");
        assert_eq!(
            paint["nowhere"]["default"], "x",
            "nothing to check it against"
        );
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(
            findings[0].pointer,
            "/components/schemas/Paint/properties/plaid/default"
        );
        assert_eq!(
            findings[0].message,
            "the default breaks the schema it references (not one of the enum's values); dropped"
        );
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
