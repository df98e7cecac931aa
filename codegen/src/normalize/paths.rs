//! The path items as progenitor reads them: a path item's shared `parameters` copied into each
//! of its operations. (A `$ref` into `#/paths/...`, one operation's response or schema reused by
//! another, is repaired with every other reference the generators cannot follow, in
//! `references`.)

use serde_json::Value;

use crate::model::is_method;

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
}
