//! The hub spec's own conventions, beyond what OpenAPI and generation need: the one definition
//! that `cargo xtask regen` (strict) enforces before it generates, and that the tests of the
//! spec rely on, so that the two agree on what a valid `spec/openapi.yaml` is.
//!
//! - Every component schema, every property of an object (inline ones at any depth below a
//!   property) and every shared parameter has a description: they become the documentation of
//!   the generated types, fields and the CLI's flags.
//! - Every parameter and every request body has an example: the conformance test and the CLI's
//!   tests against the mock send each operation's request built from them.
//!
//! Component schemas and responses need no example. Where one is given, `tests/spec.rs`
//! validates it under its schema (a JSON Schema validator, which codegen does not link); Prism
//! serves a response without one from its schema.

use serde_json::Value;

use crate::model::{self, Document};

/// Every place of `document` that breaks a convention, as `pointer: what is missing`, sorted.
pub fn violations(document: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for (name, schema) in entries(document.pointer("/components/schemas")) {
        described_object(
            schema,
            &model::push("/components/schemas", name),
            &mut found,
        );
    }
    for (name, parameter) in entries(document.pointer("/components/parameters")) {
        let at = model::push("/components/parameters", name);
        if !described(parameter) {
            found.push(format!("{at}: no description"));
        }
    }
    let view = Document::new(document);
    for operation in view.operations() {
        let name = operation.name();
        for parameter in operation.parameters() {
            let Some(resolved) = view.resolve(parameter) else {
                continue;
            };
            let has_example = has_example(resolved)
                || resolved
                    .get("schema")
                    .and_then(|schema| view.resolve(schema))
                    .and_then(|schema| schema.get("examples"))
                    .and_then(Value::as_array)
                    .is_some_and(|examples| !examples.is_empty());
            if !has_example {
                let parameter_name = resolved
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                found.push(format!(
                    "{}: parameter `{parameter_name}` of {name} has no example",
                    operation.pointer
                ));
            }
        }
        let body = operation
            .value
            .get("requestBody")
            .and_then(|body| view.resolve(body));
        for (media_type, media) in entries(body.and_then(|body| body.get("content"))) {
            if !has_example(media) {
                found.push(format!(
                    "{}: the `{media_type}` request body of {name} has no example",
                    operation.pointer
                ));
            }
        }
    }
    found.sort();
    found
}

/// A parameter or media type with an `example`, or a named one in `examples`.
fn has_example(value: &Value) -> bool {
    value.get("example").is_some()
        || value
            .get("examples")
            .and_then(Value::as_object)
            .is_some_and(|examples| !examples.is_empty())
}

/// A description that says something.
fn described(value: &Value) -> bool {
    value
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|text| !text.trim().is_empty())
}

/// `schema` (a component or an inline object property) and its properties, each described;
/// a `$ref` takes its target's description.
fn described_object(schema: &Value, at: &str, found: &mut Vec<String>) {
    if !described(schema) && schema.get("$ref").is_none() {
        found.push(format!("{at}: no description"));
    }
    for (name, property) in entries(schema.get("properties")) {
        let at = model::push(&model::push(at, "properties"), name);
        if property.get("properties").is_some() {
            described_object(property, &at, found);
        } else if !described(property) {
            found.push(format!("{at}: no description"));
        }
    }
}

fn entries(value: Option<&Value>) -> impl Iterator<Item = (&String, &Value)> {
    value.and_then(Value::as_object).into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_requests_need_and_what_documents_types_is_required_nothing_more() {
        let document = json!({
            "paths": {"/things/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": true,
                    "schema": {"type": "string"}}],
                "post": {
                    "operationId": "makeThing",
                    "parameters": [
                        {"$ref": "#/components/parameters/Page"},
                        {"name": "q", "in": "query", "example": "x", "schema": {"type": "string"}}
                    ],
                    "requestBody": {"content": {"application/json": {"schema": {}}}},
                    "responses": {"200": {"description": "ok", "content": {"application/json":
                        {"schema": {"$ref": "#/components/schemas/Thing"}}}}}
                }
            }},
            "components": {
                "parameters": {"Page": {"name": "p", "in": "query",
                    "schema": {"$ref": "#/components/schemas/Page"}}},
                "schemas": {
                    // No example: a component needs none.
                    "Thing": {"description": "A thing.", "type": "object", "properties": {
                        "name": {"description": "Its name.", "type": "string"},
                        "owner": {"type": "object", "properties": {"id": {"type": "string"}}}
                    }},
                    "Page": {"description": "A page.", "type": "integer", "examples": [0]}
                }
            }
        });
        assert_eq!(
            violations(&document),
            [
                "/components/parameters/Page: no description",
                "/components/schemas/Thing/properties/owner/properties/id: no description",
                "/components/schemas/Thing/properties/owner: no description",
                "/paths/~1things~1{id}/post: parameter `id` of makeThing has no example",
                "/paths/~1things~1{id}/post: the `application/json` request body of makeThing has no example",
            ]
        );
    }
}
