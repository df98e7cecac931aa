//! `null` that a schema lists but no instance can be.
//!
//! A schema that says `type: [object, null]` beside a `oneOf` (or `anyOf`) of members that are
//! all objects admits no `null`: the union refuses it, and a schema admits only what all of its
//! keywords admit. It is a defect of the description, usually a 3.0 `nullable: true` written
//! beside a union (OpenAPI 3.0.3 says the same: `nullable` does not override the other
//! keywords), often with `default: null` beside it (Together's `training_type`). Read as
//! written, the generated type would hold `null` in an `Option` and accept what the schema
//! refuses; so the `null` is dropped from `type` (and from its `enum`, and a `default: null`
//! with it, as hoisting drops a nullable's `null`), and reported.
//!
//! The same holds for an `allOf` with a part that refuses `null`. A member whose schema
//! cannot be read (a `$ref` to nothing, no stated `type`) may admit `null`, so the `null` stays.

use serde_json::Value;

use crate::model::{Document, Visit, push};
use crate::report::{Finding, FindingKind};

/// Drops `null` from the `type` of every schema whose union or composition refuses it, with a
/// defect finding at each.
pub(super) fn drop_unreachable_null(document: &mut Value, findings: &mut Vec<Finding>) {
    let mut dead = Vec::new();
    let model = Document::new(document);
    model.visit_schemas(|at| {
        if lists_null(at.schema)
            && let Some(keyword) = refusing_composition(&model, at.schema)
        {
            dead.push((at.pointer.clone(), keyword));
        }
        Visit::Descend
    });
    for (pointer, keyword) in dead {
        let Some(schema) = document.pointer_mut(&pointer) else {
            continue;
        };
        let (mut without, _) = super::hoisting::without_null(std::mem::take(schema));
        let default_too = without.get("default") == Some(&Value::Null);
        if let (true, Some(object)) = (default_too, without.as_object_mut()) {
            object.remove("default");
        }
        *schema = without;
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(&pointer, "type"),
            format!(
                "`null` in `type` beside {}: no instance can be `null`; dropped{}",
                if keyword == "allOf" {
                    "an `allOf` part that refuses it"
                } else {
                    "a union none of whose members admits it"
                },
                if default_too {
                    ", with the `default: null`"
                } else {
                    ""
                }
            ),
        ));
    }
}

/// Whether `schema`'s `type` lists `null` beside another type.
fn lists_null(schema: &Value) -> bool {
    matches!(schema.get("type"), Some(Value::Array(types))
        if types.len() > 1 && types.iter().any(|kind| kind == "null"))
}

/// The keyword whose members refuse `null`: a `oneOf` or `anyOf` of which no member admits it,
/// or an `allOf` of which a part refuses it.
fn refusing_composition(model: &Document<'_>, schema: &Value) -> Option<&'static str> {
    let members = |keyword: &str| schema.get(keyword).and_then(Value::as_array);
    for keyword in ["oneOf", "anyOf"] {
        if let Some(members) = members(keyword)
            && !members.is_empty()
            && members.iter().all(|member| refuses_null(model, member))
        {
            return Some(keyword);
        }
    }
    members("allOf")
        .is_some_and(|parts| parts.iter().any(|part| refuses_null(model, part)))
        .then_some("allOf")
}

/// Whether `member` (its `$ref` followed) states a type, literal or literals that exclude
/// `null`. A member that says nothing of its type may admit `null`.
fn refuses_null(model: &Document<'_>, member: &Value) -> bool {
    let Some(member) = model.resolve(member) else {
        return false;
    };
    let refused_by_type = match member.get("type") {
        Some(Value::String(kind)) => kind != "null",
        Some(Value::Array(kinds)) => !kinds.iter().any(|kind| kind == "null"),
        _ => false,
    };
    let refused_by_literals = match (member.get("const"), member.get("enum")) {
        (Some(value), _) => !value.is_null(),
        (_, Some(Value::Array(values))) => !values.iter().any(Value::is_null),
        _ => false,
    };
    refused_by_type || refused_by_literals
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn dropped(schema: Value) -> (Value, Vec<String>) {
        let mut document = json!({"components": {"schemas": {
            "S": schema,
            "Full": {"type": "object"},
            "Open": {"description": "any value"}}}});
        let mut findings = Vec::new();
        drop_unreachable_null(&mut document, &mut findings);
        (
            document["components"]["schemas"]["S"].clone(),
            findings.iter().map(ToString::to_string).collect(),
        )
    }

    #[test]
    fn null_beside_a_union_of_objects_is_dropped_with_its_default() {
        let (schema, findings) = dropped(json!({"properties": {"t": {
            "type": ["object", "null"], "default": null,
            "oneOf": [{"$ref": "#/components/schemas/Full"}, {"type": "object"}]}}}));
        assert_eq!(
            schema,
            json!({"properties": {"t": {"type": "object",
                "oneOf": [{"$ref": "#/components/schemas/Full"}, {"type": "object"}]}}})
        );
        assert_eq!(
            findings,
            [
                "defect /components/schemas/S/properties/t/type: `null` in `type` beside a union none of whose members admits it: no instance can be `null`; dropped, with the `default: null`"
            ]
        );
    }

    #[test]
    fn null_stays_where_a_member_or_every_part_may_admit_it() {
        for schema in [
            json!({"type": ["object", "null"], "anyOf": [{"type": "object"}, {"type": "null"}]}),
            json!({"type": ["object", "null"], "oneOf": [{"type": "object"}, {"$ref": "#/components/schemas/Open"}]}),
            json!({"type": ["string", "null"], "oneOf": [{"enum": ["a", null]}]}),
            json!({"type": ["object", "null"], "oneOf": [{"$ref": "#/components/schemas/Missing"}]}),
            json!({"type": ["object", "null"], "allOf": [{"description": "d"}]}),
            json!({"type": ["object", "null"]}),
        ] {
            let (after, findings) = dropped(schema.clone());
            assert_eq!(after, schema);
            assert!(findings.is_empty(), "{findings:?}");
        }
    }

    #[test]
    fn null_beside_an_all_of_part_that_refuses_it_is_dropped() {
        let (schema, findings) = dropped(json!({"type": ["object", "string", "null"],
            "allOf": [{"description": "d"}, {"$ref": "#/components/schemas/Full"}]}));
        assert_eq!(schema["type"], json!(["object", "string"]));
        assert!(
            findings[0].contains("beside an `allOf` part that refuses it"),
            "{findings:?}"
        );
    }
}
