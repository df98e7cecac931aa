//! After the patches: every rule that typify 0.8 would drop must be enforced by a patch. A rule
//! left over stops generation with its JSON pointer, so a spec change can never quietly widen
//! what the client accepts.
//!
//! typify keeps `required`, `enum`, `additionalProperties: false`, `nullable`, string
//! `pattern`/`minLength`/`maxLength` (without `format`) and `format: date-time` (without
//! `pattern`). Everything else listed below it drops. Integers are always patched: serde refuses
//! `1.0` where JSON Schema counts it as the integer 1, and typify reads bounds only to pick a type.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::Error;
use crate::pointer::push;

/// Keywords typify ignores wherever they appear.
const DROPPED: &[(&str, &str)] = &[
    ("minItems", "array sizes"),
    ("maxItems", "array sizes"),
    ("uniqueItems", "unique items"),
    ("minProperties", "object sizes"),
    ("maxProperties", "object sizes"),
    ("multipleOf", "`multipleOf`"),
    ("x-propertyNames", "map key rules (`propertyNames`)"),
    ("not", "`not`"),
    ("discriminator", "discriminators"),
    (
        "oneOf",
        "`oneOf` exclusivity (it decodes the first variant that fits)",
    ),
];

/// Checks every schema of the document that no patch replaced.
#[cfg(test)]
pub(super) fn check(document: &Value, replaced: &BTreeSet<&str>) -> Result<(), Error> {
    unenforced_rules(document, replaced)
        .into_iter()
        .next()
        .map_or(Ok(()), Err)
}

/// Every rule typify drops in a schema that no patch replaced, in document order.
pub(super) fn unenforced_rules(document: &Value, replaced: &BTreeSet<&str>) -> Vec<Error> {
    let mut found = Vec::new();
    for pointer in crate::downlevel::schema_locations(document) {
        let replaced_component = pointer
            .strip_prefix("/components/schemas/")
            .is_some_and(|name| {
                replaced.contains(name.replace("~1", "/").replace("~0", "~").as_str())
            });
        if replaced_component {
            continue;
        }
        if let Some(schema) = document.pointer(&pointer) {
            check_schema(schema, &pointer, &mut found);
        }
    }
    found
}

fn unenforced(pointer: &str, keyword: &str, what: &str) -> Error {
    Error::Patch {
        target: push(pointer, keyword),
        reason: format!(
            "typify drops {what} and no patch enforces it; give the schema a name in `components/schemas` and add a patch in codegen/src/patches.rs"
        ),
    }
}

fn check_schema(schema: &Value, pointer: &str, found: &mut Vec<Error>) {
    let Some(object) = schema.as_object() else {
        return;
    };
    // `normalize` hands an `anyOf` on as `oneOf`: typify's first-fit enum is exactly `anyOf`.
    let any_of = object.get("x-any-of") == Some(&Value::Bool(true));
    for (keyword, what) in DROPPED {
        if object.contains_key(*keyword) && !(any_of && *keyword == "oneOf") {
            found.push(unenforced(pointer, keyword, what));
        }
    }
    let kind = object.get("type").and_then(Value::as_str);
    match object.get("format").and_then(Value::as_str) {
        Some("date-time") if object.contains_key("pattern") => found.push(unenforced(
            pointer,
            "pattern",
            "the `pattern` of a `date-time` string",
        )),
        Some("date-time") | None => {}
        Some(_) => found.push(unenforced(pointer, "format", "this `format`")),
    }
    if kind == Some("integer") {
        found.push(unenforced(
            pointer,
            "type",
            "integers written as `1.0` and integer bounds",
        ));
    } else if object.contains_key("minimum") {
        found.push(unenforced(pointer, "minimum", "numeric bounds"));
    } else if object.contains_key("maximum") {
        found.push(unenforced(pointer, "maximum", "numeric bounds"));
    }

    for keyword in ["items", "additionalProperties"] {
        if let Some(sub) = object.get(keyword) {
            check_schema(sub, &push(pointer, keyword), found);
        }
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        for (index, member) in object
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            check_schema(
                member,
                &format!("{}/{index}", push(pointer, keyword)),
                found,
            );
        }
    }
    for (name, property) in object
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        check_schema(property, &push(&push(pointer, "properties"), name), found);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn doc(schema: Value) -> Value {
        json!({"components": {"schemas": {"S": schema}}})
    }

    #[test]
    fn names_an_unenforced_rule() {
        let error = check(
            &doc(json!({"properties": {"ports": {"type": "array", "maxItems": 20}}})),
            &BTreeSet::new(),
        )
        .unwrap_err()
        .to_string();
        assert!(error.starts_with("patch on /components/schemas/S/properties/ports/maxItems cannot be applied: typify drops array sizes"), "{error}");
    }

    #[test]
    fn accepts_what_typify_keeps_and_what_patches_replace() {
        let kept = json!({"type": "object", "required": ["a"], "additionalProperties": false, "properties": {
            "a": {"type": "string", "pattern": "^a$", "maxLength": 3},
            "b": {"type": "number"},
            "d": {"type": "string", "format": "date-time"}}});
        check(&doc(kept), &BTreeSet::new()).unwrap();
        check(
            &doc(json!({"oneOf": [{"type": "string"}]})),
            &BTreeSet::from(["S"]),
        )
        .unwrap();
    }

    #[test]
    fn refuses_inexpressible_integer_bounds_and_formats() {
        for (schema, keyword) in [
            (json!({"type": "integer", "minimum": 1}), "type"),
            (json!({"type": "number", "maximum": 5}), "maximum"),
            (json!({"type": "string", "format": "uri"}), "format"),
            (
                json!({"type": "string", "format": "date-time", "pattern": "Z$"}),
                "pattern",
            ),
            (json!({"oneOf": [{"type": "string"}]}), "oneOf"),
        ] {
            let error = check(&doc(schema), &BTreeSet::new())
                .unwrap_err()
                .to_string();
            assert!(
                error.starts_with(&format!("patch on /components/schemas/S/{keyword} ")),
                "{error}"
            );
        }
    }
}
