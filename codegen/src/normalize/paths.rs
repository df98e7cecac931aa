//! The path items as progenitor reads them: a path item's shared `parameters` copied into each
//! of its operations, and `$ref`s into `#/paths/...` (one operation's response or schema reused
//! by another), which progenitor cannot follow, replaced by a copy of what they point at.

use serde_json::Value;

use super::{Finding, FindingKind};
use crate::model::{is_method, push};

/// A chain of references into `paths` longer than this is a cycle.
const MAX_ROUNDS: usize = 16;

/// Copies each path item's `parameters` into its operations (an operation's own parameter of
/// the same name and location wins, as OpenAPI says) and removes them from the path item, so
/// that every later step, the patches' naming of inline parameter schemas included, sees an
/// operation's parameters in one list.
pub(super) fn shared_parameters_into_operations(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        let Some(Value::Array(shared)) = item.remove("parameters") else {
            continue;
        };
        for (method, operation) in item.iter_mut() {
            if !is_method(method) {
                continue;
            }
            let Some(operation) = operation.as_object_mut() else {
                continue;
            };
            let own = operation
                .entry("parameters")
                .or_insert_with(|| Value::Array(Vec::new()));
            let Some(own) = own.as_array_mut() else {
                continue;
            };
            let identity = |parameter: &Value| {
                (
                    parameter.get("name").cloned(),
                    parameter.get("in").cloned(),
                    parameter.get("$ref").cloned(),
                )
            };
            let mut merged: Vec<Value> = shared
                .iter()
                .filter(|parameter| {
                    let (name, location, reference) = identity(parameter);
                    !own.iter().any(|mine| {
                        let (my_name, my_location, my_reference) = identity(mine);
                        (reference.is_some() && reference == my_reference)
                            || (name.is_some() && name == my_name && location == my_location)
                    })
                })
                .cloned()
                .collect();
            merged.append(own);
            *own = merged;
        }
    }
}

/// Replaces every `$ref` into `#/paths/...` with a copy of its target, repeatedly, so a copy
/// that itself refers into `paths` is resolved too; each is reported.
pub(super) fn references_into_paths(document: &mut Value, findings: &mut Vec<Finding>) {
    for _ in 0..MAX_ROUNDS {
        let mut found = Vec::new();
        super::references::collect(
            document,
            "",
            &|reference| reference.starts_with("#/paths/"),
            &mut found,
        );
        if found.is_empty() {
            return;
        }
        let mut replaced = false;
        for (pointer, reference) in found {
            let target = reference.trim_start_matches('#');
            let Some(copy) = document.pointer(target).cloned() else {
                continue;
            };
            // A target that is itself a reference into `paths` waits for the next round.
            if copy
                .get("$ref")
                .and_then(Value::as_str)
                .is_some_and(|reference| reference.starts_with("#/paths/"))
            {
                continue;
            }
            if let Some(slot) = document.pointer_mut(&pointer) {
                *slot = copy;
                replaced = true;
                findings.push(Finding::new(
                    FindingKind::Repaired,
                    &push(&pointer, "$ref"),
                    format!("a `$ref` into `paths` (`#{target}`), which progenitor cannot follow; replaced by a copy of its target"),
                ));
            }
        }
        if !replaced {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn shared_parameters_go_into_each_operation_unless_overridden() {
        let mut document = json!({"paths": {"/a/{id}": {
            "parameters": [{"name": "id", "in": "path"}, {"name": "q", "in": "query"}],
            "get": {"parameters": [{"name": "q", "in": "query", "description": "mine"}]},
            "post": {},
        }}});
        shared_parameters_into_operations(&mut document);
        let item = &document["paths"]["/a/{id}"];
        assert!(item.get("parameters").is_none());
        assert_eq!(
            item["get"]["parameters"],
            json!([{"name": "id", "in": "path"}, {"name": "q", "in": "query", "description": "mine"}])
        );
        assert_eq!(
            item["post"]["parameters"],
            json!([{"name": "id", "in": "path"}, {"name": "q", "in": "query"}])
        );
    }

    #[test]
    fn references_into_paths_become_copies_even_in_chains() {
        let schema = json!({"type": "object", "properties": {"message": {"type": "string"}}});
        let mut document = json!({"paths": {
            "/a": {"get": {"responses": {"401": {"content": {"application/json": {"schema": schema}}}}}},
            "/b": {"get": {"responses": {
                "401": {"$ref": "#/paths/~1a/get/responses/401"},
                "403": {"content": {"application/json": {"schema": {"$ref": "#/paths/~1b/get/responses/401/content/application~1json/schema"}}}},
            }}},
        }});
        let mut findings = Vec::new();
        references_into_paths(&mut document, &mut findings);
        let responses = &document["paths"]["/b"]["get"]["responses"];
        assert_eq!(
            responses["401"]["content"]["application/json"]["schema"],
            schema
        );
        assert_eq!(
            responses["403"]["content"]["application/json"]["schema"],
            schema
        );
        assert_eq!(findings.len(), 2);
        assert!(!document.to_string().contains("#/paths/"));
    }
}
