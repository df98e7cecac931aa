//! Objects whose union members only require some of their properties.
//!
//! `{properties: P, oneOf: [{required: [a]}, {required: [b]}]}` (or `anyOf`, handed on as a
//! `oneOf` marked `x-any-of` by then) says which properties must be present and nothing else:
//! every property keeps the schema `P` gives it whichever member matches. typify merges the
//! object into each member and leaves out of each member's struct variant the properties the
//! other members require (as if the union were exclusive, but without refusing them), and the
//! enum keeps serde's derived decoder: OpenAI's `file_search` took `{vector_store_ids: [..],
//! vector_stores: "x"}` as its first variant, skipping `vector_stores` unchecked, and the closed
//! `CreateVectorStoreFileBatchRequest` refused `file_ids` and `files` together, which its
//! `anyOf` admits.
//!
//! Such a union is written out as the same meaning member by member: each member becomes the
//! whole object (its `properties`, its `additionalProperties` and its `required` together with
//! the member's), so that hoisting moves each into a component of its own and the union is an
//! enum of those, decoded by trying each (`emit::first_fit`). The union's own exclusivity is
//! what it was: an `anyOf`'s first fit is exact, and a `oneOf`'s first-fit union refuses,
//! when strict, a value two members take.
//! Each rewrite is reported as repaired, and the members' properties point back at the
//! object's in [`super::Origins`].
//!
//! Only the plain shape changes: an object with other rules of its own beside the union (a
//! `not`, `allOf`, a discriminator, bounds on its properties' count, ...) or a member that
//! says more than `required` is left as typify reads it.

use serde_json::{Map, Value};

use super::{Finding, FindingKind, Origins};
use crate::model::{Document, Visit, mark, push};

/// Keywords the object may state beside its union and still be written out member by member:
/// what every member takes over, and annotations.
const OBJECT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "description",
    "example",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "externalDocs",
    "$comment",
    mark::ANY_OF,
];

/// Writes out every object whose union members only require some of its properties, innermost
/// first, and returns where each member's properties came from.
pub(super) fn write_out(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    // Their source still spells the union `anyOf`.
    let were_any_of = exclusive_pairs(document, findings);
    let mut found = Vec::new();
    Document::new(document).visit_schemas(|at| {
        if is_required_alternatives(at.schema) {
            found.push(at.pointer.clone());
        }
        Visit::Descend
    });
    let mut origins = Origins::new();
    // Document order puts a schema before those inside it: the innermost is written out first,
    // so that an outer object copies its properties already written out.
    for pointer in found.into_iter().rev() {
        let Some(object) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let any_of = object.contains_key(mark::ANY_OF) || were_any_of.contains(&pointer);
        let count = distribute(object);
        for index in 0..count {
            let member = push(&push(&pointer, "oneOf"), &index.to_string());
            for keyword in ["properties", "additionalProperties"] {
                origins.insert(push(&member, keyword), push(&pointer, keyword));
            }
        }
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(&pointer, if any_of { "anyOf" } else { "oneOf" }),
            "members that only require some of the object's properties: each member written out as the whole object with its requirement, so that every member's type has every property (typify leaves out of each member the properties the others require)",
        ));
    }
    origins
}

/// Reads `anyOf: [{required: A}, {required: B}]` beside `not: {required: A ∪ B}` (OpenAI's
/// `ImageRefParam`: "provide exactly one of `image_url` or `file_id`") as the `oneOf` it
/// means: a value that meets both members meets `A ∪ B`, which `not` refuses, so exactly one
/// member matches. The `not` and the `anyOf` mark go, and the object is then written out like
/// any other (typify drops `not`; a `oneOf`'s first-fit union refuses a value both members
/// take). With three or more members `not` refuses only a value that meets them all, which
/// is not `oneOf`: that stays. Returns where it read one.
fn exclusive_pairs(document: &mut Value, findings: &mut Vec<Finding>) -> Vec<String> {
    let mut found = Vec::new();
    Document::new(document).visit_schemas(|at| {
        if is_exclusive_pair(at.schema) {
            found.push(at.pointer.clone());
        }
        Visit::Descend
    });
    for pointer in &found {
        let Some(object) = document.pointer_mut(pointer).and_then(Value::as_object_mut) else {
            continue;
        };
        object.remove("not");
        object.remove(mark::ANY_OF);
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "not"),
            "`anyOf` of two members and `not` of both: exactly one member matches, read as `oneOf`",
        ));
    }
    found
}

/// Whether `schema` is an `anyOf` (a `oneOf` marked [`mark::ANY_OF`] by now) of two members
/// that only require, beside a `not` that only requires what both members do together.
fn is_exclusive_pair(schema: &Value) -> bool {
    let required = |schema: &Value| -> Option<std::collections::BTreeSet<String>> {
        let object = schema.as_object()?;
        let only_required = object
            .iter()
            .all(|(key, value)| key == "required" || (key == "type" && value == "object"));
        let names = object.get("required")?.as_array()?;
        let names: Option<_> = names
            .iter()
            .map(|name| name.as_str().map(str::to_owned))
            .collect();
        only_required.then_some(names?)
    };
    let (Some(Value::Array(members)), Some(excluded)) = (schema.get("oneOf"), schema.get("not"))
    else {
        return false;
    };
    let ([first, second], Some(excluded)) = (members.as_slice(), required(excluded)) else {
        return false;
    };
    let (Some(first), Some(second)) = (required(first), required(second)) else {
        return false;
    };
    schema.get(mark::ANY_OF) == Some(&Value::Bool(true))
        && excluded == first.union(&second).cloned().collect()
}

/// Whether `schema` is an object with properties of its own and a `oneOf` of two or more
/// members that each only require some of them, and says nothing else a member would lose.
fn is_required_alternatives(schema: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        return false;
    };
    let Some(Value::Object(properties)) = object.get("properties") else {
        return false;
    };
    let Some(Value::Array(members)) = object.get("oneOf") else {
        return false;
    };
    let annotation = |key: &str| {
        key.starts_with("x-")
            && ![
                mark::OPEN_ENUM,
                mark::MULTIPART,
                mark::FORM_FILE,
                mark::NOT,
                mark::PREFIX_ITEMS,
                mark::PROPERTY_NAMES,
            ]
            .contains(&key)
            && !key.starts_with(mark::AUTHORED_PREFIX)
    };
    let is_object_type = |kind: Option<&Value>| kind.is_none_or(|kind| kind == "object");
    let own_keywords_fit = object
        .keys()
        .all(|key| key == "oneOf" || OBJECT_KEYWORDS.contains(&key.as_str()) || annotation(key));
    let member_fits = |member: &Value| {
        let Some(member) = member.as_object() else {
            return false;
        };
        let Some(Value::Array(required)) = member.get("required") else {
            return false;
        };
        !required.is_empty()
            && required.iter().all(|name| {
                name.as_str()
                    .is_some_and(|name| properties.contains_key(name))
            })
            && is_object_type(member.get("type"))
            && member
                .keys()
                .all(|key| matches!(key.as_str(), "required" | "type" | "description"))
    };
    !properties.is_empty()
        && is_object_type(object.get("type"))
        && own_keywords_fit
        && members.len() >= 2
        && members.iter().all(member_fits)
}

/// Writes the object into each member of its `oneOf` and keeps only the union and the
/// annotations on the object; returns how many members there are.
fn distribute(object: &mut Map<String, Value>) -> usize {
    let properties = object.remove("properties").unwrap_or_default();
    let additional = object.remove("additionalProperties");
    let required: Vec<Value> = match object.remove("required") {
        Some(Value::Array(required)) => required,
        _ => Vec::new(),
    };
    object.remove("type");
    let Some(Value::Array(members)) = object.get_mut("oneOf") else {
        return 0;
    };
    for member in members.iter_mut() {
        let Some(member) = member.as_object_mut() else {
            continue;
        };
        let mut all = required.clone();
        if let Some(Value::Array(own)) = member.remove("required") {
            for name in own {
                if !all.contains(&name) {
                    all.push(name);
                }
            }
        }
        let description = member.remove("description");
        member.clear();
        member.insert("type".into(), Value::String("object".into()));
        member.insert("properties".into(), properties.clone());
        member.insert("required".into(), Value::Array(all));
        if let Some(additional) = &additional {
            member.insert("additionalProperties".into(), additional.clone());
        }
        if let Some(description) = description {
            member.insert("description".into(), description);
        }
    }
    members.len()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn two_alternatives_and_not_both_are_exactly_one() {
        let image = |extra: Value| {
            let mut schema = json!({
                "type": "object", "additionalProperties": false,
                "properties": {"image_url": {"type": "string"}, "file_id": {"type": "string"}},
                "oneOf": [{"required": ["image_url"]}, {"type": "object", "required": ["file_id"]}],
                "x-any-of": true,
                "not": {"required": ["file_id", "image_url"]},
            });
            if let (Some(schema), Value::Object(extra)) = (schema.as_object_mut(), extra) {
                schema.extend(extra);
            }
            json!({"components": {"schemas": {"Image": schema}}})
        };
        let mut document = image(json!({}));
        let mut findings = Vec::new();
        write_out(&mut document, &mut findings);
        let written = &document["components"]["schemas"]["Image"];
        assert!(
            written.get("not").is_none() && written.get("x-any-of").is_none(),
            "{written}"
        );
        assert_eq!(written["oneOf"][1]["required"], json!(["file_id"]));
        assert_eq!(written["oneOf"][1]["additionalProperties"], json!(false));
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert_eq!(findings[0].pointer, "/components/schemas/Image/not");
        assert_eq!(findings[1].pointer, "/components/schemas/Image/anyOf");
        // `not` of only one member, or of something else, says more than exclusivity.
        for not in [
            json!({"required": ["image_url"]}),
            json!({"required": ["file_id", "image_url"], "type": "object", "minProperties": 1}),
        ] {
            let mut document = image(json!({"not": not}));
            let before = document.clone();
            let mut findings = Vec::new();
            write_out(&mut document, &mut findings);
            assert_eq!(document, before);
            assert!(findings.is_empty(), "{findings:?}");
        }
    }

    #[test]
    fn members_that_only_require_become_the_whole_object() {
        let mut document = json!({"components": {"schemas": {
            "Batch": {
                "type": "object", "additionalProperties": false, "description": "a batch",
                "properties": {"ids": {"type": "array", "maxItems": 2}, "files": {"type": "array"},
                    "label": {"type": "string"}},
                "required": ["label"],
                "oneOf": [{"required": ["ids"]}, {"type": "object", "required": ["files", "label"]}],
                "x-any-of": true
            }
        }}});
        let mut findings = Vec::new();
        let origins = write_out(&mut document, &mut findings);
        let batch = &document["components"]["schemas"]["Batch"];
        let properties = json!({"ids": {"type": "array", "maxItems": 2},
            "files": {"type": "array"}, "label": {"type": "string"}});
        assert_eq!(
            *batch,
            json!({"description": "a batch", "x-any-of": true, "oneOf": [
                {"type": "object", "properties": properties, "required": ["label", "ids"],
                    "additionalProperties": false},
                {"type": "object", "properties": properties, "required": ["label", "files"],
                    "additionalProperties": false}
            ]})
        );
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].pointer, "/components/schemas/Batch/anyOf");
        assert_eq!(
            origins.get("/components/schemas/Batch/oneOf/1/properties"),
            Some(&"/components/schemas/Batch/properties".to_owned())
        );
    }

    #[test]
    fn an_inner_object_is_written_out_before_the_one_that_holds_it() {
        let mut document = json!({"components": {"schemas": {
            "Outer": {"type": "object", "properties": {
                "inner": {"type": "object", "properties": {"a": {}, "b": {}},
                    "oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
                "c": {}, "d": {}},
                "oneOf": [{"required": ["c"]}, {"required": ["d"]}]}
        }}});
        let mut findings = Vec::new();
        write_out(&mut document, &mut findings);
        let outer = &document["components"]["schemas"]["Outer"];
        for member in 0..2 {
            let inner = &outer["oneOf"][member]["properties"]["inner"];
            assert!(inner.get("properties").is_none(), "{inner}");
            assert_eq!(inner["oneOf"][1]["required"], json!(["b"]));
        }
        assert_eq!(findings.len(), 2);
    }

    #[test]
    fn objects_that_say_more_are_left_as_they_are() {
        let schemas = json!({
            // A `not` beside the union would be lost to the members.
            "Not": {"type": "object", "properties": {"a": {}, "b": {}},
                "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
                "not": {"required": ["a", "b"]}},
            // A member that states a property's schema of its own.
            "Member": {"type": "object", "properties": {"a": {}, "b": {}},
                "oneOf": [{"required": ["a"], "properties": {"a": {"type": "string"}}},
                    {"required": ["b"]}]},
            // A requirement of a property the object does not declare.
            "Undeclared": {"type": "object", "properties": {"a": {}},
                "oneOf": [{"required": ["a"]}, {"required": ["z"]}]},
            // A union of whole objects.
            "Whole": {"oneOf": [{"type": "object", "properties": {"a": {}}, "required": ["a"]},
                {"type": "string"}]},
            // One member alone.
            "One": {"type": "object", "properties": {"a": {}}, "oneOf": [{"required": ["a"]}]}
        });
        let mut document = json!({"components": {"schemas": schemas.clone()}});
        let mut findings = Vec::new();
        write_out(&mut document, &mut findings);
        assert_eq!(document["components"]["schemas"], schemas);
        assert!(findings.is_empty());
    }
}
