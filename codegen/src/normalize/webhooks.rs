//! Webhooks: the requests an API sends to a receiver of the user's. They are not operations a
//! client calls, so they leave `webhooks` (which OpenAPI 3.0 does not have); what a receiver
//! needs of each, its body's type, is kept. A JSON body's schema becomes a component (an inline
//! one moved to `components/schemas` as `<Webhook>Webhook`, a `$ref` to one kept), and the
//! document's root is marked [`WEBHOOKS`] (Redoc's `x-webhooks`, their spelling in OpenAPI 3.0,
//! is read as `webhooks`): per webhook, in the document's order, its method,
//! its body (`{"$ref": ...}` to that component, or the media type of a body that is not JSON)
//! and its description. `emit` writes the `webhooks` module from the mark. The mark holds a
//! `$ref`, so a later renaming of the component follows it, as every other reference does.

use serde_json::{Map, Value, json};

use super::{Finding, FindingKind, Origins, is_json, unique_name};
use crate::model::mark::WEBHOOKS;
use crate::model::{is_method, push};

/// Moves `webhooks` into the [`WEBHOOKS`] mark, their inline JSON bodies into components, and
/// returns where each moved body came from.
pub(super) fn webhook_bodies(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    let mut origins = Origins::new();
    let Some(root) = document.as_object_mut() else {
        return origins;
    };
    // OpenAPI 3.0 has no `webhooks`; Redoc's `x-webhooks` is their spelling there (Novu's
    // description has 24), the same map of path items.
    let (key, webhooks) = match root.remove("webhooks") {
        Some(webhooks) => ("webhooks", webhooks),
        None => match root.remove("x-webhooks") {
            Some(webhooks) => {
                findings.push(Finding::new(
                    FindingKind::Repaired,
                    "/x-webhooks",
                    "`x-webhooks`, the spelling of `webhooks` before OpenAPI 3.1, read as `webhooks`",
                ));
                ("x-webhooks", webhooks)
            }
            None => return origins,
        },
    };
    let Value::Object(webhooks) = webhooks else {
        return origins;
    };
    let mut taken = crate::contract::component_names_in_use(document);
    let mut marked = Map::new();
    for (name, item) in &webhooks {
        let pointer = push(&format!("/{key}"), name);
        // Owned, since a body may become a component of the document they are read from.
        let resolved = super::resolve(document, item).clone();
        let Some(item) = resolved.as_object() else {
            findings.push(Finding::new(
                FindingKind::Skipped,
                &pointer,
                "a webhook that is not a path item (or a `$ref` to one); not generated",
            ));
            continue;
        };
        let mut methods = item.iter().filter(|(key, _)| is_method(key));
        let Some((method, operation)) = methods.next() else {
            findings.push(Finding::new(
                FindingKind::Skipped,
                &pointer,
                "a webhook without an operation; not generated",
            ));
            continue;
        };
        for (other, _) in methods {
            findings.push(Finding::new(
                FindingKind::Skipped,
                &push(&pointer, other),
                format!("a webhook's second operation: `Webhook::decode` goes by the webhook's name, and decodes its first, `{method}`"),
            ));
        }
        let operation_pointer = push(&pointer, method);
        let mut entry = Map::new();
        entry.insert("method".into(), json!(method));
        if let Some(text) = ["description", "summary"]
            .iter()
            .find_map(|key| operation.get(*key).and_then(Value::as_str))
        {
            entry.insert("description".into(), json!(text));
        }
        let request_body = operation
            .get("requestBody")
            .map(|body| super::resolve(document, body).clone());
        let body = request_body
            .as_ref()
            .and_then(|body| body.get("content"))
            .and_then(Value::as_object);
        let json_body = body.and_then(|content| {
            content
                .iter()
                .find(|(media, _)| is_json(media))
                .map(|(media, content)| (media, content.get("schema")))
        });
        match (json_body, body.and_then(|content| content.keys().next())) {
            (Some((media, Some(schema))), _) => {
                let at = push(
                    &push(&push(&operation_pointer, "requestBody"), "content"),
                    media,
                );
                let reference = match component_reference(document, schema) {
                    Some(reference) => reference,
                    None => {
                        let component = unique_name(
                            &format!("{}Webhook", crate::contract::typify_name(name)),
                            &taken,
                        );
                        taken.insert(component.clone());
                        let reference = format!("#/components/schemas/{component}");
                        if let Some(schemas) = super::component_schemas_mut(document) {
                            schemas.insert(component.clone(), schema.clone());
                        }
                        origins
                            .insert(push("/components/schemas", &component), push(&at, "schema"));
                        reference
                    }
                };
                entry.insert("body".into(), json!({ "$ref": reference }));
            }
            // JSON without a schema is any JSON value.
            (Some((_, None)), _) => {
                entry.insert("body".into(), json!({}));
            }
            (None, Some(media)) => {
                entry.insert("media".into(), json!(media));
            }
            (None, None) => {}
        }
        marked.insert(name.clone(), Value::Object(entry));
    }
    if !marked.is_empty()
        && let Some(root) = document.as_object_mut()
    {
        root.insert(WEBHOOKS.into(), Value::Object(marked));
    }
    origins
}

/// The `$ref` of a schema that is only a reference to an existing component schema.
fn component_reference(document: &Value, schema: &Value) -> Option<String> {
    let object = schema.as_object()?;
    let reference = object.get("$ref")?.as_str()?;
    let name = crate::model::schema_ref_name(reference)?;
    let exists = document
        .pointer("/components/schemas")
        .and_then(|schemas| schemas.get(crate::model::unescape(name)))
        .is_some();
    (object.len() == 1 && exists).then(|| reference.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(document: &mut Value) -> (Vec<Finding>, Origins) {
        let mut findings = Vec::new();
        let origins = webhook_bodies(document, &mut findings);
        (findings, origins)
    }

    #[test]
    fn bodies_become_components_and_the_root_is_marked() {
        let mut document = json!({
            "openapi": "3.1.0",
            "components": {"schemas": {"Done": {"type": "object"}}},
            "webhooks": {
                "done": {"post": {"summary": "A job is done.", "requestBody": {"content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Done"}}}}}},
                "new-repo": {"post": {"requestBody": {"content": {
                    "application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}},
                "ping": {"post": {"description": "No body."}},
                "raw": {"put": {"requestBody": {"content": {"text/plain": {"schema": {"type": "string"}}}}}},
            }
        });
        let (findings, origins) = run(&mut document);
        assert!(findings.is_empty(), "{findings:?}");
        assert!(document.get("webhooks").is_none());
        assert_eq!(
            document[WEBHOOKS],
            json!({
                "done": {"method": "post", "description": "A job is done.", "body": {"$ref": "#/components/schemas/Done"}},
                "new-repo": {"method": "post", "body": {"$ref": "#/components/schemas/NewRepoWebhook"}},
                "ping": {"method": "post", "description": "No body."},
                "raw": {"method": "put", "media": "text/plain"},
            })
        );
        assert_eq!(
            document["components"]["schemas"]["NewRepoWebhook"]["properties"]["id"],
            json!({"type": "string"})
        );
        assert_eq!(
            origins["/components/schemas/NewRepoWebhook"],
            "/webhooks/new-repo/post/requestBody/content/application~1json/schema"
        );
    }

    #[test]
    fn redoc_s_x_webhooks_is_read_as_webhooks() {
        let mut document = json!({
            "openapi": "3.0.3",
            "x-webhooks": {"done": {"post": {"requestBody": {"content": {
                "application/json": {"schema": {"type": "object"}}}}}}}
        });
        let (findings, origins) = run(&mut document);
        assert_eq!(
            super::super::places(&findings),
            [(FindingKind::Repaired, "/x-webhooks")]
        );
        assert!(document.get("x-webhooks").is_none());
        assert_eq!(
            document[WEBHOOKS]["done"]["body"],
            json!({"$ref": "#/components/schemas/DoneWebhook"})
        );
        assert_eq!(
            origins["/components/schemas/DoneWebhook"],
            "/x-webhooks/done/post/requestBody/content/application~1json/schema"
        );
    }

    #[test]
    fn a_webhook_without_an_operation_or_with_two_is_reported_where_it_is() {
        let mut document = json!({
            "openapi": "3.1.0",
            "webhooks": {
                "empty": {"summary": "nothing"},
                "twice": {"post": {}, "put": {}},
                "broken": {"$ref": "#/components/pathItems/Gone"},
            }
        });
        let (findings, _) = run(&mut document);
        assert_eq!(
            super::super::places(&findings),
            [
                (FindingKind::Skipped, "/webhooks/empty"),
                (FindingKind::Skipped, "/webhooks/twice/put"),
                (FindingKind::Skipped, "/webhooks/broken"),
            ]
        );
        assert_eq!(document[WEBHOOKS], json!({"twice": {"method": "post"}}));
    }

    #[test]
    fn a_body_that_is_no_component_reference_moves_under_a_free_name() {
        let mut document = json!({
            "openapi": "3.1.0",
            "components": {"schemas": {"DoneWebhook": {"type": "string"}}},
            "webhooks": {"done": {"post": {"requestBody": {"content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Gone"}}}}}}}
        });
        run(&mut document);
        assert_eq!(
            document[WEBHOOKS]["done"]["body"],
            json!({"$ref": "#/components/schemas/DoneWebhook2"})
        );
        assert_eq!(
            document["components"]["schemas"]["DoneWebhook2"],
            json!({"$ref": "#/components/schemas/Gone"})
        );
    }
}
