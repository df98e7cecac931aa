//! Union defaults typify would build through the wrong member.
//!
//! typify writes a union's `default` as the first member it cannot rule out, and it cannot look
//! inside a type a patch put in a component's place. With `{oneOf: [{type: integer}, {enum:
//! [max]}], default: max}` and the integer member hoisted into a bounded integer, the default is
//! built as `from_str::<BoundedInteger>("\"max\"").unwrap()`, which panics the first time a
//! value without the property is decoded (found by the differential oracle on Together's
//! description).
//!
//! When no value can match two members (they state distinct JSON types), the order of the
//! members decides nothing, so the member that holds the default is moved first and typify
//! builds the default through it: the default is kept. Otherwise (an `anyOf`, whose first
//! member that fits decides, or members that overlap) the default is left out, so the property
//! is optional, and reported: a `default` is an annotation, not a rule, so nothing the spec
//! requires is lost. A `default: null` on a nullable union is typify's `None`, never built
//! through a member.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::Error;
use crate::downlevel::Provenance;
use crate::model::{Document, Visit, push, schema_ref_name};

/// What to do with one union's default that typify would build wrongly.
enum Mend {
    /// Move the member at this index, the first that holds the default, to the front.
    Lead(usize),
    /// Leave the default out.
    Drop,
}

/// Mends each union `default` that a replaced member ahead of the member that takes it would
/// make typify build wrongly (see the module docs), and returns one finding per default
/// dropped.
pub(super) fn drop_misbuilt_union_defaults(
    document: &mut Value,
    replaced: &BTreeSet<&str>,
    provenance: &Provenance,
) -> Vec<Error> {
    let mut mends = Vec::new();
    let model = Document::new(document);
    model.visit_schemas(|at| {
        if let Some(holder) = misbuilt(&model, at.schema, replaced) {
            let disjoint = crate::rules::one_of_members_are_disjoint(&model, at.schema)
                && at.schema.get(crate::model::mark::ANY_OF).is_none();
            let mend = if disjoint {
                Mend::Lead(holder)
            } else {
                Mend::Drop
            };
            mends.push((at.pointer.clone(), mend));
        }
        Visit::Descend
    });
    mends
        .into_iter()
        .filter_map(|(pointer, mend)| {
            let union = document.pointer_mut(&pointer)?.as_object_mut()?;
            if let Mend::Lead(holder) = mend {
                let members = union.get_mut("oneOf")?.as_array_mut()?;
                let member = members.remove(holder);
                members.insert(0, member);
                return None;
            }
            let removed = union.remove("default")?;
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

/// The index of the member that holds the default when typify, trying the members in order,
/// would reach a replaced member that cannot hold it first; `None` when it builds the default
/// rightly (or there is none).
fn misbuilt(model: &Document<'_>, schema: &Value, replaced: &BTreeSet<&str>) -> Option<usize> {
    let default = schema.get("default")?;
    // typify's `Option` takes `null` as its own default, `None`.
    if default.is_null() && schema.get("nullable") == Some(&Value::Bool(true)) {
        return None;
    }
    let members: Vec<&Value> = ["oneOf", "anyOf"]
        .into_iter()
        .filter_map(|keyword| schema.get(keyword)?.as_array())
        .flatten()
        .collect();
    let mut reached_replaced = false;
    for (index, member) in members.into_iter().enumerate() {
        let resolved = model.resolve(member)?;
        if holds_type(resolved, default) {
            return reached_replaced.then_some(index);
        }
        reached_replaced |= member
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(schema_ref_name)
            .is_some_and(|name| replaced.contains(name));
    }
    None
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
    fn a_default_behind_a_replaced_member_leads_its_disjoint_union() {
        let mut doc = document(json!("max"));
        let replaced = BTreeSet::from(["Size"]);
        let found = drop_misbuilt_union_defaults(&mut doc, &replaced, &Provenance::default());
        assert!(found.is_empty(), "{found:?}");
        let batch = &doc["components"]["schemas"]["Job"]["properties"]["batch"];
        assert_eq!(batch["default"], json!("max"));
        assert_eq!(
            batch["oneOf"],
            json!([{"type": "string", "enum": ["max"]}, {"$ref": "#/components/schemas/Size"}])
        );
    }

    #[test]
    fn a_default_behind_a_replaced_member_of_an_any_of_is_dropped_and_reported() {
        // Members in an `anyOf` decide by their order: it stays, and the default goes.
        let mut doc = document(json!("max"));
        doc["components"]["schemas"]["Job"]["properties"]["batch"]["x-any-of"] = json!(true);
        let replaced = BTreeSet::from(["Size"]);
        let found = drop_misbuilt_union_defaults(&mut doc, &replaced, &Provenance::default());
        assert_eq!(found.len(), 1);
        let text = found[0].to_string();
        assert!(
            text.contains("/components/schemas/Job/properties/batch/default"),
            "{text}"
        );
        let batch = &doc["components"]["schemas"]["Job"]["properties"]["batch"];
        assert!(batch.get("default").is_none(), "{doc}");
        assert_eq!(
            batch["oneOf"][0],
            json!({"$ref": "#/components/schemas/Size"})
        );
    }

    #[test]
    fn a_null_default_of_a_nullable_union_is_kept() {
        let mut doc = document(json!(null));
        doc["components"]["schemas"]["Job"]["properties"]["batch"]["nullable"] = json!(true);
        let replaced = BTreeSet::from(["Size"]);
        let found = drop_misbuilt_union_defaults(&mut doc, &replaced, &Provenance::default());
        assert!(found.is_empty(), "{found:?}");
        let batch = &doc["components"]["schemas"]["Job"]["properties"]["batch"];
        assert_eq!(batch["default"], json!(null));
        assert_eq!(
            batch["oneOf"][0],
            json!({"$ref": "#/components/schemas/Size"})
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
