//! Union defaults typify would build through the wrong member.
//!
//! typify writes a union's `default` as the first member it cannot rule out, and it cannot look
//! inside a type a patch put in a component's place. With `{oneOf: [{type: integer}, {enum:
//! [max]}], default: max}` and the integer member hoisted into a bounded integer, the default is
//! built as `from_str::<BoundedInteger>("\"max\"").unwrap()`, which panics the first time a
//! value without the property is decoded (found by the differential oracle on Together's
//! description). Such a default is left out, so the property is optional, and reported: a
//! `default` is an annotation, not a rule, so nothing the spec requires is lost.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::Error;
use crate::downlevel::Provenance;
use crate::model::{Document, Visit, push, schema_ref_name};

/// Drops each union `default` that a replaced member ahead of the member that takes it would
/// make typify build wrongly, and returns one finding per default dropped.
pub(super) fn drop_misbuilt_union_defaults(
    document: &mut Value,
    replaced: &BTreeSet<&str>,
    provenance: &Provenance,
) -> Vec<Error> {
    let mut doomed = Vec::new();
    let model = Document::new(document);
    model.visit_schemas(|at| {
        if misbuilt(&model, at.schema, replaced) {
            doomed.push(at.pointer.clone());
        }
        Visit::Descend
    });
    doomed
        .into_iter()
        .filter_map(|pointer| {
            let removed = document
                .pointer_mut(&pointer)?
                .as_object_mut()?
                .remove("default")?;
            Some(Error::Unenforced {
                pointer: provenance.source_pointer(&push(&pointer, "default")),
                owner: format!("the union at {pointer}"),
                rule: format!(
                    "its `default` {removed} (typify would build it as a member that cannot hold it), left out: the property is optional"
                ),
                remedy: "a default is an annotation; put the member that takes it first".to_owned(),
            })
        })
        .collect()
}

/// Whether typify, trying the members in order, would reach a replaced member that cannot hold
/// the default before one that can.
fn misbuilt(model: &Document<'_>, schema: &Value, replaced: &BTreeSet<&str>) -> bool {
    let Some(default) = schema.get("default") else {
        return false;
    };
    let members = ["oneOf", "anyOf"]
        .into_iter()
        .filter_map(|keyword| schema.get(keyword)?.as_array())
        .flatten();
    for member in members {
        let Some(resolved) = model.resolve(member) else {
            return false;
        };
        if holds_type(resolved, default) {
            return false;
        }
        let is_replaced = member
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(schema_ref_name)
            .is_some_and(|name| replaced.contains(name));
        if is_replaced {
            return true;
        }
    }
    false
}

/// Whether the member's `type` (absent: any) admits the JSON type of `value`.
fn holds_type(member: &Value, value: &Value) -> bool {
    let Some(kind) = member.get("type").and_then(Value::as_str) else {
        return true;
    };
    match value {
        Value::Null => kind == "null" || member.get("nullable") == Some(&Value::Bool(true)),
        Value::Bool(_) => kind == "boolean",
        Value::Number(number) => {
            kind == "number"
                || (kind == "integer"
                    && (number.is_i64()
                        || number.is_u64()
                        || number.as_f64().is_some_and(|float| float.fract() == 0.0)))
        }
        Value::String(_) => kind == "string",
        Value::Array(_) => kind == "array",
        Value::Object(_) => kind == "object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn document(default: Value) -> Value {
        json!({"components": {"schemas": {
            "Size": {"type": "integer"},
            "Job": {"type": "object", "properties": {"batch": {
                "oneOf": [{"$ref": "#/components/schemas/Size"}, {"type": "string", "enum": ["max"]}],
                "default": default,
            }}},
        }}})
    }

    #[test]
    fn a_default_a_replaced_member_ahead_cannot_hold_is_dropped_and_reported() {
        let mut doc = document(json!("max"));
        let replaced = BTreeSet::from(["Size"]);
        let found = drop_misbuilt_union_defaults(&mut doc, &replaced, &Provenance::default());
        assert_eq!(found.len(), 1);
        let text = found[0].to_string();
        assert!(
            text.contains("/components/schemas/Job/properties/batch/default"),
            "{text}"
        );
        assert!(
            doc.pointer("/components/schemas/Job/properties/batch/default")
                .is_none(),
            "{doc}"
        );
    }

    #[test]
    fn a_default_the_first_member_holds_or_a_member_typify_reads_is_kept() {
        let replaced = BTreeSet::from(["Size"]);
        let mut held = document(json!(8));
        assert!(
            drop_misbuilt_union_defaults(&mut held, &replaced, &Provenance::default()).is_empty()
        );
        let mut not_replaced = document(json!("max"));
        assert!(
            drop_misbuilt_union_defaults(
                &mut not_replaced,
                &BTreeSet::new(),
                &Provenance::default()
            )
            .is_empty()
        );
        assert_eq!(
            not_replaced.pointer("/components/schemas/Job/properties/batch/default"),
            Some(&json!("max"))
        );
    }
}
