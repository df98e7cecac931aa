//! Step 4: the checks that stand between the document and progenitor's panics.
//!
//! progenitor 0.15 panics (`assert!`, `todo!`, `unwrap`) instead of returning an error when an
//! operation has no `operationId`, more than one request media type, JSON without a schema, a
//! media-type `encoding`, more than one success (or error) body type, or a path template that
//! does not match its path parameters. Each is caught here and named by its operation, with
//! its pointer ([`refusals`]), so that outside a strict run it is left out before progenitor
//! runs.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::Error;
use crate::model::Document;

/// Checks every operation of a down-levelled (3.0) document, reporting every problem together.
pub fn check(document: &Value) -> Result<(), Error> {
    Error::from_problems(
        refusals(document)
            .into_iter()
            .map(|refusal| refusal.error)
            .collect(),
    )
}

/// An operation (or a path item) progenitor would refuse: its JSON pointer and why.
#[derive(Debug)]
pub struct Refusal {
    pub pointer: String,
    pub error: Error,
}

/// Every operation and path item of a down-levelled (3.0) document that progenitor would
/// refuse, in document order, each with its pointer, so that a caller can leave each out.
pub fn refusals(document: &Value) -> Vec<Refusal> {
    let model = Document::new(document);
    let mut problems = Vec::new();
    for (path, item) in document
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if item.get("$ref").is_some() {
            problems.push(Refusal {
                pointer: crate::model::push("/paths", path),
                error: Error::Preflight {
                    operation: path.clone(),
                    reason: "path items given by `$ref` are not supported".into(),
                },
            });
        }
    }
    let mut operation_ids = BTreeMap::new();
    for operation in model.operations() {
        let label = operation.label();
        let refusal = |operation_name: String, reason: String| Refusal {
            pointer: operation.pointer.clone(),
            error: Error::Preflight {
                operation: operation_name,
                reason,
            },
        };
        let Some(id) = operation.id() else {
            problems.push(refusal(
                label,
                "has no `operationId`, which progenitor needs to name the method".into(),
            ));
            continue;
        };
        if let Some(other) = operation_ids.insert(id.to_owned(), label.clone()) {
            problems.push(refusal(
                label.clone(),
                format!("`operationId` `{id}` is also used by {other}"),
            ));
        }
        let checks = [
            check_path_parameters(
                model,
                operation.path,
                operation.item.get("parameters"),
                operation.value.get("parameters"),
            ),
            operation.value.get("requestBody").map_or(Ok(()), |body| {
                check_request_body(model.resolve(body).unwrap_or(body))
            }),
            check_responses(model, operation.value.get("responses")),
            check_parameter_styles(
                model,
                operation.item.get("parameters"),
                operation.value.get("parameters"),
            ),
        ];
        problems.extend(
            checks
                .into_iter()
                .filter_map(Result::err)
                .map(|reason| refusal(format!("{id} ({label})"), reason)),
        );
    }
    problems
}

fn is_json(media_type: &str) -> bool {
    media_type == "application/json" || media_type.starts_with("application/json;")
}

fn check_request_body(body: &Value) -> Result<(), String> {
    let content = body
        .get("content")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    if content.len() > 1 {
        let types: Vec<&str> = content.iter().map(|(name, _)| name.as_str()).collect();
        return Err(format!(
            "the request body has {} media types ({}); progenitor supports one",
            types.len(),
            types.join(", ")
        ));
    }
    for (media_type, media) in content {
        check_media(media_type, media, "the request body")?;
    }
    Ok(())
}

fn check_media(media_type: &str, media: &Value, what: &str) -> Result<(), String> {
    if media
        .get("encoding")
        .and_then(Value::as_object)
        .is_some_and(|encoding| !encoding.is_empty())
    {
        return Err(format!(
            "{what} ({media_type}) has an `encoding`, which progenitor does not support"
        ));
    }
    if is_json(media_type) && media.get("schema").is_none() {
        return Err(format!("{what} is JSON ({media_type}) without a schema"));
    }
    Ok(())
}

/// The status of a response that upgrades the connection: without a JSON body, progenitor
/// hands over the upgraded connection, a success type of its own.
pub const UPGRADE_STATUS: &str = "101";

/// progenitor's success class: the 2xx statuses and [`UPGRADE_STATUS`].
pub fn is_success_status(status: &str) -> bool {
    status.starts_with('2') || status == UPGRADE_STATUS
}

/// What progenitor makes of one response: the kinds must agree within success and error.
#[derive(Clone, Debug, PartialEq)]
enum ResponseKind {
    Json(Value),
    Raw,
    None,
    /// A `101` without a JSON body: the upgraded connection.
    Upgrade,
}

fn check_responses(model: Document<'_>, responses: Option<&Value>) -> Result<(), String> {
    let mut success: Vec<(&str, ResponseKind)> = Vec::new();
    let mut failure: Vec<(&str, ResponseKind)> = Vec::new();
    for (status, response) in responses.and_then(Value::as_object).into_iter().flatten() {
        let response = model.resolve(response).unwrap_or(response);
        let content = response.get("content").and_then(Value::as_object);
        let mut kind = ResponseKind::None;
        for (media_type, media) in content.into_iter().flatten() {
            check_media(media_type, media, &format!("response {status}"))?;
        }
        if let Some((_, media)) = content
            .into_iter()
            .flatten()
            .find(|(media_type, _)| is_json(media_type))
        {
            kind = ResponseKind::Json(media["schema"].clone());
        } else if status == UPGRADE_STATUS {
            kind = ResponseKind::Upgrade;
        } else if content.is_some_and(|content| !content.is_empty()) {
            kind = ResponseKind::Raw;
        }
        if is_success_status(status) || status == "default" {
            success.push((status, kind.clone()));
        }
        if status.starts_with(['4', '5']) || status == "default" {
            failure.push((status, kind));
        }
    }
    // progenitor ignores `default` for success when a 2XX range is present.
    if success.iter().any(|(status, _)| *status == "2XX") {
        success.retain(|(status, _)| *status != "default");
    }
    for (class, responses) in [("success", &success), ("error", &failure)] {
        if let Some((status, _)) = responses.iter().find(|(_, kind)| *kind != responses[0].1) {
            return Err(format!(
                "{class} responses {} and {status} have different body types; progenitor needs one per class",
                responses[0].0
            ));
        }
    }
    Ok(())
}

/// The parameters a path item and its operation declare, `$ref`s followed.
fn declared_parameters<'a>(
    model: Document<'a>,
    item: Option<&'a Value>,
    operation: Option<&'a Value>,
) -> impl Iterator<Item = &'a Value> {
    [item, operation]
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .flatten()
        .map(move |parameter| model.resolve(parameter).unwrap_or(parameter))
}

/// progenitor sends a query parameter in `form` style and a path or header parameter in
/// `simple` style, and refuses any other style (`deepObject`, `pipeDelimited`, ...) or a cookie
/// parameter; caught here, by name, so that the operation is left out before progenitor runs.
fn check_parameter_styles(
    model: Document<'_>,
    item: Option<&Value>,
    operation: Option<&Value>,
) -> Result<(), String> {
    for parameter in declared_parameters(model, item, operation) {
        let name = parameter
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let location = parameter
            .get("in")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let style = parameter.get("style").and_then(Value::as_str);
        let sendable = match location {
            "query" => style.is_none_or(|style| style == "form"),
            "path" | "header" => style.is_none_or(|style| style == "simple"),
            _ => false,
        };
        if !sendable {
            return Err(format!(
                "parameter `{name}` is in `{location}`{}, which progenitor cannot send",
                style
                    .map(|style| format!(" with style `{style}`"))
                    .unwrap_or_default()
            ));
        }
    }
    Ok(())
}

fn check_path_parameters(
    model: Document<'_>,
    path: &str,
    item: Option<&Value>,
    operation: Option<&Value>,
) -> Result<(), String> {
    let mut template = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| format!("path template `{path}` has an unclosed `{{`"))?
            + start;
        template.push(&rest[start + 1..end]);
        rest = &rest[end + 1..];
    }
    let mut declared = Vec::new();
    for parameter in declared_parameters(model, item, operation) {
        if parameter.get("in").and_then(Value::as_str) == Some("path") {
            declared.push(
                parameter
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            );
        }
    }
    for name in &template {
        if !declared.contains(name) {
            return Err(format!(
                "path parameter `{name}` is in the template but not declared"
            ));
        }
    }
    for name in &declared {
        if !template.contains(name) {
            return Err(format!(
                "path parameter `{name}` is declared but not in the template"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn with_operation(operation: Value) -> Value {
        json!({"paths": {"/things/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "get": operation
        }}})
    }

    fn error(operation: Value) -> String {
        check(&with_operation(operation)).unwrap_err().to_string()
    }

    #[test]
    fn accepts_a_plain_operation() {
        let ok = json!({"operationId": "getThing", "responses": {
            "200": {"description": "d", "content": {"application/json": {"schema": {"type": "string"}}}},
            "404": {"description": "d"}, "500": {"description": "d"}}});
        check(&with_operation(ok)).unwrap();
    }

    #[test]
    fn refuses_a_parameter_style_progenitor_cannot_send() {
        let text = error(
            json!({"operationId": "listJobs", "responses": {"200": {"description": "d"}},
            "parameters": [{"name": "metadata", "in": "query", "style": "deepObject",
                "schema": {"type": "object"}}]}),
        );
        assert_eq!(
            text,
            "operation listJobs (GET /things/{id}): parameter `metadata` is in `query` with style `deepObject`, which progenitor cannot send"
        );
        let form = json!({"operationId": "listJobs", "responses": {"200": {"description": "d"}},
            "parameters": [{"name": "q", "in": "query", "style": "form", "schema": {"type": "string"}}]});
        assert!(check(&with_operation(form)).is_ok());
    }

    #[test]
    fn names_the_operation_without_an_id() {
        assert_eq!(
            error(json!({"responses": {}})),
            "operation GET /things/{id}: has no `operationId`, which progenitor needs to name the method"
        );
    }

    #[test]
    fn refuses_two_success_body_types() {
        let text = error(json!({"operationId": "getThing", "responses": {
            "200": {"description": "d", "content": {"application/json": {"schema": {"type": "string"}}}},
            "204": {"description": "d"}}}));
        assert_eq!(
            text,
            "operation getThing (GET /things/{id}): success responses 200 and 204 have different body types; progenitor needs one per class"
        );
    }

    #[test]
    fn refuses_an_upgrade_beside_a_success_without_a_body() {
        // progenitor returns the upgraded connection for `101`, nothing for `200`.
        let text = error(json!({"operationId": "getThing", "responses": {
            "101": {"description": "upgraded"}, "200": {"description": "d"}}}));
        assert!(
            text.ends_with("success responses 101 and 200 have different body types; progenitor needs one per class"),
            "{text}"
        );
    }

    #[test]
    fn refuses_two_error_body_types() {
        let text = error(json!({"operationId": "getThing", "responses": {
            "400": {"description": "d", "content": {"application/json": {"schema": {"type": "string"}}}},
            "404": {"description": "d", "content": {"text/plain": {}}}}}));
        assert!(
            text.contains("error responses 400 and 404 have different body types"),
            "{text}"
        );
    }

    #[test]
    fn refuses_json_without_a_schema() {
        let text = error(
            json!({"operationId": "getThing", "responses": {"200": {"description": "d", "content": {"application/json": {}}}}}),
        );
        assert!(
            text.ends_with("response 200 is JSON (application/json) without a schema"),
            "{text}"
        );
        let text = error(
            json!({"operationId": "getThing", "requestBody": {"content": {"application/json": {}}}, "responses": {}}),
        );
        assert!(
            text.ends_with("the request body is JSON (application/json) without a schema"),
            "{text}"
        );
    }

    #[test]
    fn refuses_two_request_media_types() {
        let text = error(
            json!({"operationId": "getThing", "responses": {}, "requestBody": {"content": {
            "application/json": {"schema": {}}, "text/plain": {"schema": {}}}}}),
        );
        assert!(
            text.contains("the request body has 2 media types (application/json, text/plain)"),
            "{text}"
        );
    }

    #[test]
    fn refuses_undeclared_path_parameters() {
        let document = json!({"paths": {"/things/{id}/{other}": {"get": {"operationId": "x", "responses": {},
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}]}}}});
        let text = check(&document).unwrap_err().to_string();
        assert!(
            text.ends_with("path parameter `other` is in the template but not declared"),
            "{text}"
        );
    }

    #[test]
    fn refuses_duplicate_operation_ids() {
        let document = json!({"paths": {"/a": {"get": {"operationId": "x", "responses": {}}},
                                        "/b": {"get": {"operationId": "x", "responses": {}}}}});
        assert_eq!(
            check(&document).unwrap_err().to_string(),
            "operation GET /b: `operationId` `x` is also used by GET /a"
        );
    }

    #[test]
    fn reports_every_operation_s_problem_together() {
        let document = json!({"paths": {"/a": {"get": {"responses": {}}},
                                        "/b/{id}": {"get": {"operationId": "b", "responses": {}}}}});
        let error = check(&document).unwrap_err();
        let messages: Vec<String> = error.problems().iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "operation GET /a: has no `operationId`, which progenitor needs to name the method",
                "operation b (GET /b/{id}): path parameter `id` is in the template but not declared",
            ]
        );
    }
}
