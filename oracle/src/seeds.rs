//! Seed instances for a schema that has no `examples`: the oracle mutates seeds, and most
//! real-world descriptions give their component schemas none (the corpus gives 2 of about 4,400
//! component schemas `examples`; a few more have OpenAPI 3.0's singular `example`).
//!
//! [`synthesize`] builds candidates from the schema's own constraints: a *full* instance (every
//! declared property, arrays with an item) and a *minimal* one (required properties only, empty
//! arrays where allowed), and the same two for each member of a top-level `oneOf`/`anyOf`, so
//! that every variant of a union is mutated. Candidates are guesses: a pattern cannot be
//! satisfied in general, and the members of an `allOf` are merged shallowly. The oracle keeps
//! only the candidates its validator accepts as seeds (see `check_target`), so a wrong guess
//! costs coverage, never a false disagreement.

use serde_json::{Map, Value, json};

/// Below this depth a full instance stops adding optional properties (recursive schemas such
/// as a tree of comments would otherwise grow without end).
const FULL_DEPTH: usize = 4;
/// Below this depth nothing more is built (`null`); only a schema that requires itself gets here.
const MAX_DEPTH: usize = 12;

/// Candidate seeds for `schema` (a schema inside `spec`, whose local `$ref`s are followed),
/// distinct, full ones first.
pub fn synthesize(schema: &Value, spec: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut add = |value: Value| {
        if !out.contains(&value) {
            out.push(value);
        }
    };
    for full in [true, false] {
        let builder = Builder { spec, full };
        add(builder.value(schema, 0).unwrap_or_else(any_value));
    }
    // Each member of a top-level union, with the keywords beside the union (the shared
    // properties of a discriminated union, say) as an `allOf`.
    let Some(object) = schema.as_object() else {
        return out;
    };
    for keyword in ["oneOf", "anyOf"] {
        let Some(members) = object.get(keyword).and_then(Value::as_array) else {
            continue;
        };
        let mut rest = object.clone();
        rest.remove(keyword);
        for member in members {
            let combined = json!({"allOf": [Value::Object(rest.clone()), member]});
            for full in [true, false] {
                let builder = Builder { spec, full };
                add(builder.value(&combined, 0).unwrap_or_else(any_value));
            }
        }
    }
    out
}

/// What an unconstrained schema's instance is built as.
fn any_value() -> Value {
    json!("x")
}

struct Builder<'a> {
    spec: &'a Value,
    /// Every declared property and a non-empty array, rather than only what is required.
    full: bool,
}

impl Builder<'_> {
    /// An instance of `schema`; `None` when the schema says nothing about its instances' kind
    /// (so that a merge keeps what another part says).
    fn value(&self, schema: &Value, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return Some(Value::Null);
        }
        let object = match schema {
            Value::Object(object) => object,
            // `true` admits anything; `false` nothing, and `null` is as good a guess as any.
            Value::Bool(true) => return None,
            _ => return Some(Value::Null),
        };
        let mut parts: Vec<Value> = Vec::new();
        if let Some(reference) = object.get("$ref").and_then(Value::as_str)
            && let Some(target) = self.resolve(reference)
        {
            parts.extend(self.value(target, depth + 1));
        }
        if let Some(value) = object.get("const") {
            return Some(value.clone());
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            // A non-null value shows more of the type than `null` does.
            return values
                .iter()
                .find(|value| !value.is_null())
                .or(values.first())
                .cloned();
        }
        for member in object
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            parts.extend(self.value(member, depth + 1));
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(members) = object.get(keyword).and_then(Value::as_array) {
                let member = members
                    .iter()
                    .find(|member| member.get("type") != Some(&json!("null")))
                    .or(members.first());
                if let Some(member) = member {
                    parts.extend(self.value(member, depth + 1));
                }
            }
        }
        parts.extend(self.own(object, depth));
        parts.into_iter().reduce(merge)
    }

    /// The instance the schema's own keywords (besides references and combinators) describe.
    fn own(&self, object: &Map<String, Value>, depth: usize) -> Option<Value> {
        match kind(object)? {
            "null" => Some(Value::Null),
            "boolean" => Some(object.get("default").cloned().unwrap_or(json!(true))),
            "object" => Some(self.object(object, depth)),
            "array" => Some(self.array(object, depth)),
            "string" => Some(string(object)),
            kind @ ("integer" | "number") => Some(number(object, kind == "integer")),
            _ => None,
        }
    }

    fn object(&self, object: &Map<String, Value>, depth: usize) -> Value {
        let properties = object.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let full = self.full && depth < FULL_DEPTH;
        let extra = object
            .get("additionalProperties")
            .filter(|schema| schema.is_object());
        let mut out = Map::new();
        for (name, schema) in properties.into_iter().flatten() {
            if full || required.contains(&name.as_str()) {
                let value = self.value(schema, depth + 1).unwrap_or_else(any_value);
                out.insert(name.clone(), value);
            }
        }
        // A required property the object does not declare has the schema of the rest.
        for name in required {
            if !out.contains_key(name) {
                let value = extra
                    .and_then(|schema| self.value(schema, depth + 1))
                    .unwrap_or_else(any_value);
                out.insert(name.to_owned(), value);
            }
        }
        // A map (no declared properties) gets one entry when full, or as many as it needs.
        let wanted = object
            .get("minProperties")
            .and_then(Value::as_u64)
            .unwrap_or(0)
            .max(u64::from(full && properties.is_none() && extra.is_some()));
        let mut index = 0;
        while (out.len() as u64) < wanted && index < 64 {
            index += 1;
            let value = extra
                .and_then(|schema| self.value(schema, depth + 1))
                .unwrap_or_else(any_value);
            out.insert(format!("key{index}"), value);
        }
        Value::Object(out)
    }

    fn array(&self, object: &Map<String, Value>, depth: usize) -> Value {
        let mut out: Vec<Value> = object
            .get("prefixItems")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|schema| self.value(schema, depth + 1).unwrap_or_else(any_value))
            .collect();
        let min = object.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let max = object.get("maxItems").and_then(Value::as_u64);
        let wanted = min
            .max(u64::from(self.full && depth < FULL_DEPTH))
            .min(max.unwrap_or(u64::MAX))
            .min(64) as usize;
        if let Some(items) = object.get("items").filter(|items| items.is_object()) {
            let item = self.value(items, depth + 1).unwrap_or_else(any_value);
            while out.len() < wanted {
                out.push(item.clone());
            }
        }
        Value::Array(out)
    }

    /// The schema a local reference (`#/components/schemas/Foo`) points to.
    fn resolve(&self, reference: &str) -> Option<&Value> {
        self.spec.pointer(reference.strip_prefix('#')?)
    }
}

/// The kind of instance a schema describes: its `type` (the first that is not `null`), or the
/// kind its keywords imply; `None` when it says nothing.
fn kind(object: &Map<String, Value>) -> Option<&str> {
    match object.get("type") {
        Some(Value::String(kind)) => return Some(kind),
        Some(Value::Array(kinds)) => {
            let kinds: Vec<&str> = kinds.iter().filter_map(Value::as_str).collect();
            return kinds
                .iter()
                .find(|kind| **kind != "null")
                .or(kinds.first())
                .copied();
        }
        _ => {}
    }
    let has = |keys: &[&str]| keys.iter().any(|key| object.contains_key(*key));
    if has(&[
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
    ]) {
        Some("object")
    } else if has(&["items", "prefixItems", "minItems", "maxItems"]) {
        Some("array")
    } else if has(&["pattern", "minLength", "maxLength", "format"]) {
        Some("string")
    } else if has(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
        Some("number")
    } else {
        None
    }
}

/// A string that fits the schema's format and length; with a pattern, the schema's own example
/// or default (a pattern cannot be satisfied in general; the validator judges the guess).
fn string(object: &Map<String, Value>) -> Value {
    let given = ["default", "example"]
        .iter()
        .filter_map(|key| object.get(*key))
        .chain(
            object
                .get("examples")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        )
        .find_map(Value::as_str);
    let format = object.get("format").and_then(Value::as_str);
    let base = match (given, format) {
        (Some(given), _) if object.contains_key("pattern") || format.is_some() => given,
        (_, Some(format)) => format_example(format).unwrap_or("x"),
        (Some(given), None) => given,
        (None, None) => "x",
    };
    let length = |key: &str| {
        object
            .get(key)
            .and_then(Value::as_u64)
            .map(|n| n.min(10_000) as usize)
    };
    let mut text = base.to_owned();
    if let Some(min) = length("minLength") {
        while text.chars().count() < min {
            text.push('x');
        }
    }
    if let Some(max) = length("maxLength") {
        text = text.chars().take(max).collect();
    }
    Value::String(text)
}

/// A valid string of a format JSON Schema or OpenAPI names.
fn format_example(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2026-11-02T09:15:00Z",
        "date" => "2026-11-02",
        "time" => "09:15:00Z",
        "duration" => "P1D",
        "email" | "idn-email" => "user@example.com",
        "hostname" | "idn-hostname" => "example.com",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "uri" | "iri" | "url" => "https://example.com/x",
        "uri-reference" | "iri-reference" => "/x",
        "uri-template" => "https://example.com/{x}",
        "uuid" => "6f1c2d3e-4a5b-4c6d-8e7f-001122334455",
        "json-pointer" => "/x",
        "relative-json-pointer" => "0/x",
        "regex" => "^x$",
        "byte" => "eA==",
        "cidrv4" => "10.0.0.0/8",
        "cidrv6" => "2001:db8::/32",
        _ => return None,
    })
}

/// A number within the schema's bounds (a multiple of `multipleOf` when it can be), or its
/// default.
fn number(object: &Map<String, Value>, integer: bool) -> Value {
    if let Some(default) = object.get("default").filter(|value| value.is_number()) {
        return default.clone();
    }
    let bound = |key: &str| object.get(key).and_then(Value::as_f64);
    let step = if integer { 1.0 } else { 0.5 };
    let low = bound("minimum").or(bound("exclusiveMinimum").map(|x| x + step));
    let high = bound("maximum").or(bound("exclusiveMaximum").map(|x| x - step));
    let mut value = match (low, high) {
        (Some(low), _) => low,
        (None, Some(high)) if high < 1.0 => high,
        _ => 1.0,
    };
    if integer {
        value = value.ceil();
    }
    if let Some(multiple) = bound("multipleOf").filter(|m| *m > 0.0) {
        value = (value / multiple).ceil() * multiple;
    }
    if integer && value.abs() < 9.0e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

/// Two parts of one instance as one: objects merged key by key (a key in both merged again),
/// anything else the later part.
fn merge(earlier: Value, later: Value) -> Value {
    match (earlier, later) {
        (Value::Object(mut earlier), Value::Object(later)) => {
            for (key, value) in later {
                let merged = match earlier.remove(&key) {
                    Some(old) => merge(old, value),
                    None => value,
                };
                earlier.insert(key, merged);
            }
            Value::Object(earlier)
        }
        (_, later) => later,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Value {
        json!({"components": {"schemas": {
            "Id": {"type": "string", "format": "uuid"},
            "Base": {"type": "object", "properties": {"id": {"$ref": "#/components/schemas/Id"}},
                     "required": ["id"]},
            "Tree": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}}}},
        }}})
    }

    #[test]
    fn full_and_minimal_objects_follow_references() {
        let spec = spec();
        let schema = json!({"allOf": [{"$ref": "#/components/schemas/Base"}, {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 3, "multipleOf": 2},
                           "tags": {"type": "array", "items": {"enum": [null, "a"]}}},
        }]});
        let seeds = synthesize(&schema, &spec);
        assert_eq!(
            seeds,
            [
                json!({"id": "6f1c2d3e-4a5b-4c6d-8e7f-001122334455", "n": 4, "tags": ["a"]}),
                json!({"id": "6f1c2d3e-4a5b-4c6d-8e7f-001122334455"}),
            ]
        );
    }

    #[test]
    fn recursive_schemas_end() {
        let spec = spec();
        let seeds = synthesize(&spec["components"]["schemas"]["Tree"], &spec);
        let text = seeds[0].to_string();
        assert_eq!(text.matches("children").count(), FULL_DEPTH / 2, "{text}");
        assert_eq!(seeds[1], json!({}));
    }

    #[test]
    fn every_union_member_is_a_seed() {
        let schema = json!({
            "oneOf": [
                {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                {"type": "string", "minLength": 3, "maxLength": 4},
                {"type": "null"},
            ],
            "x-any-of": true,
        });
        let seeds = synthesize(&schema, &json!({}));
        assert_eq!(seeds, [json!({"kind": "a"}), json!("xxx"), Value::Null]);
    }

    #[test]
    fn scalars_respect_bounds_and_formats() {
        let spec = json!({});
        let one = |schema: Value| synthesize(&schema, &spec).remove(0);
        assert_eq!(
            one(json!({"type": "integer", "exclusiveMinimum": 0})),
            json!(1)
        );
        assert_eq!(one(json!({"type": "number", "maximum": -2.5})), json!(-2.5));
        assert_eq!(one(json!({"type": "integer", "default": 7})), json!(7));
        assert_eq!(
            one(json!({"type": ["null", "string"], "format": "date-time"})),
            json!("2026-11-02T09:15:00Z")
        );
        assert_eq!(
            one(json!({"type": "string", "pattern": "^v\\d$", "example": "v1"})),
            json!("v1")
        );
        assert_eq!(one(json!({})), json!("x"));
        assert_eq!(
            one(json!({"type": "array", "items": {"type": "boolean"}, "minItems": 2})),
            json!([true, true])
        );
        assert_eq!(
            one(json!({"type": "object", "additionalProperties": {"type": "integer"}})),
            json!({"key1": 1})
        );
    }
}
