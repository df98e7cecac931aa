//! The document as hub-api-codegen's normalize step leaves it, read as JSON Schema 2020-12.
//!
//! Normalization keeps OpenAPI 3.1 semantics with two exceptions, which it writes as marks a
//! later step reads (hub-api-codegen's `model::mark`):
//!
//! - `oneOf` marked `x-any-of: true` is an `anyOf` (typify's first-fit enum is exactly `anyOf`),
//!   so for a validator it must be `anyOf` again: as `oneOf` it would refuse an instance two
//!   members accept, which the source schema accepts;
//! - an `enum` marked `x-open-enum: true` lists the known values of a string that may be any
//!   other string (the source was `anyOf: [{enum: [...]}, {type: string}]`), so the `enum` is
//!   dropped and its `type` (`string`, or `["string", "null"]`) is what remains.
//!
//! The oracle is not taught codegen's other `x-` marks: the validator ignores unknown keywords,
//! and `x-multipart` marks a request body. `x-form-file` marks the one component that stands
//! for a file in a multipart form, which is bytes, not a JSON value: [`reaches_mark`] finds the
//! targets that hold one, which a JSON decoder cannot be compared on.
//!
//! OpenAPI 3.1 also gives the formats `int32` and `int64` a meaning (signed 32 and 64 bits),
//! and its format registry `uint32`, `uint64`, ..., which a JSON Schema validator ignores as
//! unknown formats and the generated types enforce: [`unmark`] writes them as the bounds they
//! mean.

use std::collections::BTreeSet;

use serde_json::{Value, json};

/// `document` with normalize's marks read back as the JSON Schema they stand for, and
/// OpenAPI's integer formats as bounds, everywhere (every schema of a normalized document may
/// carry them).
pub fn unmark(document: &Value) -> Value {
    let mut document = document.clone();
    unmark_in_place(&mut document);
    document
}

/// Whether the schema at `pointer` in `spec` carries `mark: true` anywhere in it or in what its
/// local `$ref`s lead to.
pub fn reaches_mark(spec: &Value, pointer: &str, mark: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = vec![pointer.to_owned()];
    while let Some(pointer) = pending.pop() {
        if !seen.insert(pointer.clone()) {
            continue;
        }
        let Some(schema) = spec.pointer(&pointer) else {
            continue;
        };
        let mut nodes = vec![schema];
        while let Some(node) = nodes.pop() {
            match node {
                Value::Object(map) => {
                    if map.get(mark) == Some(&Value::Bool(true)) {
                        return true;
                    }
                    if let Some(target) = map
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|reference| reference.strip_prefix('#'))
                    {
                        pending.push(target.to_owned());
                    }
                    nodes.extend(map.values());
                }
                Value::Array(items) => nodes.extend(items),
                _ => {}
            }
        }
    }
    false
}

/// The bounds of the integer formats: OpenAPI's `int32` and `int64`, and the sized ones the
/// OpenAPI format registry adds (`int8` ... `uint64`), which typify maps to Rust's integer of
/// that size, so the generated types enforce them too.
fn format_bounds(format: &str) -> Option<(Value, Value)> {
    Some(match format {
        "int8" => (json!(i8::MIN), json!(i8::MAX)),
        "int16" => (json!(i16::MIN), json!(i16::MAX)),
        "int32" => (json!(i32::MIN), json!(i32::MAX)),
        "int64" => (json!(i64::MIN), json!(i64::MAX)),
        "uint8" => (json!(0), json!(u8::MAX)),
        "uint16" => (json!(0), json!(u16::MAX)),
        "uint32" => (json!(0), json!(u32::MAX)),
        "uint64" => (json!(0), json!(u64::MAX)),
        _ => return None,
    })
}

fn unmark_in_place(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("x-any-of") == Some(&Value::Bool(true))
                && let Some(members) = map.remove("oneOf")
            {
                map.remove("x-any-of");
                map.insert("anyOf".into(), members);
            }
            if map.get("x-open-enum") == Some(&Value::Bool(true)) && map.contains_key("type") {
                map.remove("x-open-enum");
                map.remove("enum");
            }
            // Only on integers: typify reads `type: number, format: uint64` (Weaviate) as a
            // double, and so does the format registry, whose integer formats are for integers.
            let integer = match map.get("type") {
                Some(Value::String(kind)) => kind == "integer",
                Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "integer"),
                _ => false,
            };
            if let Some((low, high)) = map
                .get("format")
                .and_then(Value::as_str)
                .and_then(format_bounds)
                .filter(|_| integer)
            {
                // A bound the schema states stays when it is the stricter one.
                let stricter =
                    |stated: Option<&Value>, wider: fn(f64, f64) -> bool, bound: &Value| {
                        stated.and_then(Value::as_f64).is_some_and(|stated| {
                            !wider(stated, bound.as_f64().unwrap_or_default())
                        })
                    };
                if !stricter(map.get("minimum"), |s, b| s < b, &low) {
                    map.insert("minimum".into(), low);
                }
                if !stricter(map.get("maximum"), |s, b| s > b, &high) {
                    map.insert("maximum".into(), high);
                }
            }
            map.values_mut().for_each(unmark_in_place);
        }
        Value::Array(items) => items.iter_mut().for_each(unmark_in_place),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn marks_become_the_schema_they_stand_for() {
        let document = json!({"components": {"schemas": {
            "Model": {"oneOf": [{"type": "string"}, {"$ref": "#/x"}], "x-any-of": true},
            "Voice": {"type": ["string", "null"], "enum": ["ash", null], "x-open-enum": true},
            "Exclusive": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "Nested": {"properties": {"a": {"oneOf": [{}], "x-any-of": true}}},
        }}});
        let schemas = &unmark(&document)["components"]["schemas"];
        assert_eq!(
            schemas["Model"],
            json!({"anyOf": [{"type": "string"}, {"$ref": "#/x"}]})
        );
        assert_eq!(schemas["Voice"], json!({"type": ["string", "null"]}));
        assert_eq!(
            schemas["Exclusive"],
            document["components"]["schemas"]["Exclusive"]
        );
        assert_eq!(schemas["Nested"]["properties"]["a"], json!({"anyOf": [{}]}));
    }

    #[test]
    fn integer_formats_are_bounds() {
        let schemas = unmark(&json!([
            {"type": "integer", "format": "int32", "minimum": 0},
            {"type": ["integer", "null"], "format": "int64", "maximum": 1e300},
            {"type": "number", "format": "double"},
            {"type": "integer", "format": "uint32", "maximum": 10},
            {"type": "number", "format": "uint64"},
        ]));
        assert_eq!(
            schemas,
            json!([
                {"type": "integer", "format": "int32", "minimum": 0, "maximum": i32::MAX},
                {"type": ["integer", "null"], "format": "int64", "maximum": i64::MAX,
                 "minimum": i64::MIN},
                {"type": "number", "format": "double"},
                {"type": "integer", "format": "uint32", "maximum": 10, "minimum": 0},
                {"type": "number", "format": "uint64"},
            ])
        );
    }

    #[test]
    fn marks_are_found_through_references() {
        let spec = json!({"components": {"schemas": {
            "File": {"type": "string", "x-form-file": true},
            "Upload": {"properties": {"file": {"$ref": "#/components/schemas/File"}}},
            "Loop": {"items": {"$ref": "#/components/schemas/Loop"}},
        }}});
        let reaches =
            |name: &str| reaches_mark(&spec, &format!("/components/schemas/{name}"), "x-form-file");
        assert!(reaches("File"));
        assert!(reaches("Upload"));
        assert!(!reaches("Loop"));
    }
}
