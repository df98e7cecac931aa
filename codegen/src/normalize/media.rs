//! Media types as progenitor reads them: a JSON body without a schema is any JSON value, a
//! request body of `*/*` is the JSON or the bytes its schema describes, a byte body's schema
//! is bytes, and a form's per-property `encoding` (which progenitor cannot apply) is dropped
//! and reported, as is an `encoding` beside a body that is neither a form nor multipart, where it
//! means nothing (`repair`). Then (`sendable`, once each request body has one media type) every
//! media type is handed on as one of the few progenitor knows, sent the same way: JSON of any
//! spelling (`application/merge-patch+json`, `application/*+json`) as `application/json`, any
//! text as `text/plain`, anything else as bytes; the declared type is kept in
//! [`mark::MEDIA_TYPE`], which `emit` sends as the request's `Content-Type`. A response's JSON of
//! another spelling (`application/vnd.api+json`) is read as JSON, typed, not as bytes.

use serde_json::{Map, Value, json};

use super::{Finding, FindingKind, is_json};
use crate::model::{is_method, mark, push};

/// Repairs every request body and response, the shared ones in `components` included.
pub(super) fn repair(document: &mut Value, findings: &mut Vec<Finding>) {
    let bodies = bodies(document);
    for (pointer, is_request) in bodies {
        let Some(content) = document
            .pointer_mut(&push(&pointer, "content"))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        repair_content(content, &push(&pointer, "content"), is_request, findings);
    }
}

fn repair_content(
    content: &mut Map<String, Value>,
    pointer: &str,
    is_request: bool,
    findings: &mut Vec<Finding>,
) {
    if is_request && let Some(any) = content.remove("*/*") {
        let bytes = any.get("schema").is_none_or(is_bytes);
        let media_type = if bytes {
            "application/octet-stream"
        } else {
            "application/json"
        };
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, "*/*"),
            format!("a request body of any media type (`*/*`), which progenitor cannot send; sent as `{media_type}`, which its schema describes"),
        ));
        content.entry(media_type).or_insert(any);
    }
    for (media_type, media) in content.iter_mut() {
        let Some(media) = media.as_object_mut() else {
            continue;
        };
        let at = push(pointer, media_type);
        if is_json(media_type) && !media.contains_key("schema") {
            media.insert("schema".into(), json!({}));
            findings.push(Finding::new(
                FindingKind::Repaired,
                &at,
                "JSON without a schema; read as any JSON value",
            ));
        }
        let essence = media_type.split(';').next().unwrap_or_default().trim();
        if is_request
            && essence == "application/octet-stream"
            && media.get("schema").is_some_and(|schema| !is_bytes(schema))
        {
            media.insert(
                "schema".into(),
                json!({"type": "string", "format": "binary"}),
            );
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(&at, "schema"),
                "a byte body whose schema is not bytes; sent as the bytes given",
            ));
        }
        // OpenAPI defines `encoding` for multipart and form bodies only; beside JSON or bytes it
        // says nothing (gov.bc.ca's job postings put one on a JSON body).
        let encodes = essence.starts_with("multipart/") || essence == FORM;
        if !encodes && media.remove("encoding").is_some() {
            findings.push(Finding::new(
                FindingKind::Defect,
                &push(&at, "encoding"),
                format!("`encoding` beside `{essence}`: OpenAPI defines it for multipart and form bodies only, so it says nothing here; dropped"),
            ));
        }
        if is_request && essence == FORM && media.remove("encoding").is_some() {
            findings.push(Finding::new(
                FindingKind::Unenforced,
                &push(&at, "encoding"),
                "a form's per-property `encoding`, which progenitor does not apply; each property is sent in the form's own encoding",
            ));
        }
    }
}

/// The media types progenitor sends a request body as, and reads a response as JSON from.
const JSON: &str = "application/json";
const TEXT: &str = "text/plain";
const BYTES: &str = "application/octet-stream";
const FORM: &str = "application/x-www-form-urlencoded";

/// Hands every request body and response on in a media type progenitor reads (see the module
/// doc). Runs once each request body has one media type, after multipart bodies are marked.
pub(super) fn sendable(document: &mut Value, findings: &mut Vec<Finding>) {
    // A body given by `$ref` has no `content` of its own: it is handed on where it is defined.
    let bodies = bodies(document);
    for (pointer, is_request) in bodies {
        let Some(body) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        if is_request {
            sendable_request(body, &pointer, findings);
        } else {
            readable_response(body, &pointer, findings);
        }
    }
}

/// The pointer of every request body (`true`) and response (`false`): each operation's, then
/// the shared ones in `components`. An operation's body given by `$ref` is listed too; it has
/// no `content` of its own, so the steps pass over it and change the one it names.
fn bodies(document: &Value) -> Vec<(String, bool)> {
    let mut bodies: Vec<(String, bool)> = Vec::new();
    if let Some(paths) = document.get("paths").and_then(Value::as_object) {
        for (path, item) in paths {
            for (method, operation) in item.as_object().into_iter().flatten() {
                if !is_method(method) {
                    continue;
                }
                let at = push(&push("/paths", path), method);
                bodies.push((push(&at, "requestBody"), true));
                for status in operation
                    .get("responses")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flat_map(Map::keys)
                {
                    bodies.push((push(&push(&at, "responses"), status), false));
                }
            }
        }
    }
    for (section, is_request) in [("requestBodies", true), ("responses", false)] {
        for name in document
            .pointer(&push("/components", section))
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(Map::keys)
        {
            bodies.push((push(&push("/components", section), name), is_request));
        }
    }
    bodies
}

/// A request body of one media type that progenitor cannot send as declared, handed on as the
/// one it sends the same bytes as, with the declared type in [`mark::MEDIA_TYPE`] (unless it is
/// a pattern such as `application/*+json`, for which the type handed on is one instance).
fn sendable_request(body: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    if body.contains_key(mark::MULTIPART) {
        return;
    }
    let Some(content) = body.get_mut("content").and_then(Value::as_object_mut) else {
        return;
    };
    if content.len() != 1 {
        return;
    }
    let Some(declared) = content.keys().next().cloned() else {
        return;
    };
    let essence = declared
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let sent = if is_json(&essence) || is_json_pattern(&essence) {
        JSON
    } else if essence.starts_with("text/") {
        TEXT
    } else {
        BYTES
    };
    if matches!(
        essence.as_str(),
        JSON | FORM | BYTES | TEXT | "text/x-markdown"
    ) {
        if essence == TEXT {
            plain_text_schema(content, &declared, pointer, findings);
        }
        // progenitor knows each only in lower case (`application/JSON` is the same type).
        let known = declared.split(';').next().unwrap_or_default().trim();
        if known != essence
            && let Some(media) = content.remove(&declared)
        {
            content.insert(essence.clone(), media);
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(&push(pointer, "content"), &declared),
                format!("`{declared}` read as `{essence}`, the same media type"),
            ));
        }
        return;
    }
    if sent == TEXT {
        plain_text_schema(content, &declared, pointer, findings);
    }
    let Some(media) = content.remove(&declared) else {
        return;
    };
    content.insert(sent.to_owned(), media);
    let at = push(&push(pointer, "content"), &declared);
    if sent == BYTES
        && let Some(media) = content.get_mut(BYTES).and_then(Value::as_object_mut)
        && media.get("schema").is_none_or(|schema| !is_bytes(schema))
    {
        let description = media
            .get("schema")
            .and_then(|schema| schema.get("description"))
            .cloned();
        let mut schema = json!({"type": "string", "format": "binary"});
        if let Some(description) = description {
            schema["description"] = description;
        }
        media.insert("schema".into(), schema);
    }
    let pattern = declared.contains('*');
    if !pattern {
        body.insert(mark::MEDIA_TYPE.into(), Value::String(declared.clone()));
    }
    let how = match sent {
        JSON => "JSON",
        TEXT => "text",
        _ => "the bytes given",
    };
    let as_what = if pattern {
        format!("`{sent}`, an instance of it")
    } else {
        format!("`{declared}`")
    };
    findings.push(Finding::new(
        FindingKind::Repaired,
        &at,
        format!("a request body of a media type progenitor cannot send; sent as {how}, labelled {as_what}"),
    ));
}

/// A text body's schema as progenitor takes it, a plain string: a string's own rules (a
/// pattern, lengths, an enum) are not checked on a text body, and are reported.
fn plain_text_schema(
    content: &mut Map<String, Value>,
    media_type: &str,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    let Some(media) = content.get_mut(media_type).and_then(Value::as_object_mut) else {
        return;
    };
    let plain = media.get("schema").is_some_and(|schema| {
        schema.as_object().is_some_and(|schema| {
            schema.get("type") == Some(&json!("string"))
                && schema
                    .keys()
                    .all(|key| matches!(key.as_str(), "type" | "description" | "title" | "example"))
        })
    });
    if plain {
        return;
    }
    let description = media
        .get("schema")
        .and_then(|schema| schema.get("description"))
        .cloned();
    let mut schema = json!({"type": "string"});
    if let Some(description) = description {
        schema["description"] = description;
    }
    media.insert("schema".into(), schema);
    findings.push(Finding::new(
        FindingKind::Unenforced,
        &push(&push(&push(pointer, "content"), media_type), "schema"),
        "a text body is sent as the text given; its schema is not checked",
    ));
}

/// A response whose JSON is spelled otherwise (`application/vnd.api+json`, `application/*+json`)
/// and that has no `application/json`: read as JSON, so that progenitor types it.
fn readable_response(body: &mut Map<String, Value>, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(content) = body.get_mut("content").and_then(Value::as_object_mut) else {
        return;
    };
    let essence = |media_type: &str| {
        media_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    // progenitor reads `application/json` (with or without parameters) as JSON, in lower case.
    if content
        .keys()
        .any(|media_type| media_type.split(';').next().unwrap_or_default().trim() == JSON)
    {
        return;
    }
    let Some(declared) = content
        .keys()
        .find(|media_type| {
            let essence = essence(media_type);
            essence == JSON || is_json(&essence) || is_json_pattern(&essence)
        })
        .cloned()
    else {
        return;
    };
    // Rebuilt in order, so that the JSON entry keeps its place.
    let entries = std::mem::take(content);
    for (media_type, media) in entries {
        let key = if media_type == declared {
            JSON.to_owned()
        } else {
            media_type
        };
        content.insert(key, media);
    }
    findings.push(Finding::new(
        FindingKind::Repaired,
        &push(&push(pointer, "content"), &declared),
        format!("JSON spelled `{declared}`; read as JSON"),
    ));
}

/// A media type pattern whose instances are JSON: `application/*+json`, `*/*+json`,
/// `application/*json`.
fn is_json_pattern(essence: &str) -> bool {
    essence.contains('*') && essence.ends_with("json")
}

/// Whether a schema describes bytes: a `binary` string (a `$ref` is read as structured).
fn is_bytes(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("string")
        && schema.get("format").and_then(Value::as_str) == Some("binary")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::places;

    /// A document of one `POST /a` with this request body and `200` response content.
    fn operation(request: Value, response: Value) -> Value {
        json!({"paths": {"/a": {"post": {
            "requestBody": {"content": request},
            "responses": {"200": {"description": "d", "content": response}},
        }}}})
    }

    fn bytes() -> Value {
        json!({"type": "string", "format": "binary"})
    }

    #[test]
    fn media_types_are_sent_and_read_as_progenitor_knows_them() {
        let schema = json!({"schema": {"type": "object"}});
        let mut document = operation(
            json!({"application/JSON": schema.clone()}),
            json!({"application/hal+json; charset=utf-8": schema.clone()}),
        );
        let mut findings = Vec::new();
        sendable(&mut document, &mut findings);
        let post = &document["paths"]["/a"]["post"];
        assert_eq!(
            post["requestBody"]["content"],
            json!({"application/json": schema})
        );
        assert!(post["requestBody"].get(mark::MEDIA_TYPE).is_none());
        assert_eq!(
            post["responses"]["200"]["content"],
            json!({"application/json": schema})
        );
        let mut patch = operation(
            json!({"application/merge-patch+json": schema.clone()}),
            json!({}),
        );
        sendable(&mut patch, &mut findings);
        let body = &patch["paths"]["/a"]["post"]["requestBody"];
        assert_eq!(body["content"], json!({"application/json": schema}));
        assert_eq!(body[mark::MEDIA_TYPE], "application/merge-patch+json");
        let mut image = operation(
            json!({"image/png": {"schema": {"type": "object"}}}),
            json!({}),
        );
        sendable(&mut image, &mut findings);
        let body = &image["paths"]["/a"]["post"]["requestBody"];
        assert_eq!(
            body["content"],
            json!({"application/octet-stream": {"schema": bytes()}})
        );
        assert_eq!(body[mark::MEDIA_TYPE], "image/png");
    }

    #[test]
    fn json_without_a_schema_is_any_json_value() {
        let mut document = operation(
            json!({"application/json": {}}),
            json!({"application/problem+json": {"example": {}}}),
        );
        let mut findings = Vec::new();
        repair(&mut document, &mut findings);
        assert_eq!(
            document,
            operation(
                json!({"application/json": {"schema": {}}}),
                json!({"application/problem+json": {"example": {}, "schema": {}}}),
            )
        );
        assert_eq!(
            places(&findings),
            [
                (
                    FindingKind::Repaired,
                    "/paths/~1a/post/requestBody/content/application~1json"
                ),
                (
                    FindingKind::Repaired,
                    "/paths/~1a/post/responses/200/content/application~1problem+json"
                ),
            ]
        );
    }

    #[test]
    fn an_encoding_beside_json_says_nothing_and_goes_beside_multipart_it_stays() {
        let encoding = json!({"color": {"style": "form", "explode": true}});
        let object = json!({"type": "object"});
        let mut document = operation(
            json!({"application/json": {"schema": object, "encoding": encoding},
                "multipart/form-data": {"schema": object, "encoding": encoding}}),
            json!({}),
        );
        let mut findings = Vec::new();
        repair(&mut document, &mut findings);
        let content = &document["paths"]["/a"]["post"]["requestBody"]["content"];
        assert_eq!(content["application/json"], json!({"schema": object}));
        assert_eq!(content["multipart/form-data"]["encoding"], encoding);
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Defect,
                "/paths/~1a/post/requestBody/content/application~1json/encoding"
            )]
        );
    }

    #[test]
    fn a_request_body_of_any_media_type_with_a_bytes_schema_or_none_is_bytes() {
        for any in [json!({"schema": bytes()}), json!({})] {
            let mut document = operation(json!({"*/*": any.clone()}), json!({}));
            let mut findings = Vec::new();
            repair(&mut document, &mut findings);
            assert_eq!(
                document,
                operation(json!({"application/octet-stream": any}), json!({}))
            );
            assert_eq!(
                places(&findings),
                [(
                    FindingKind::Repaired,
                    "/paths/~1a/post/requestBody/content/*~1*"
                )]
            );
        }
    }

    #[test]
    fn a_request_body_of_any_media_type_with_a_structured_schema_is_json() {
        let any = json!({"schema": {"$ref": "#/components/schemas/Thing"}});
        let mut document = operation(json!({"*/*": any.clone()}), json!({}));
        let mut findings = Vec::new();
        repair(&mut document, &mut findings);
        assert_eq!(
            document,
            operation(json!({"application/json": any}), json!({}))
        );
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Repaired,
                "/paths/~1a/post/requestBody/content/*~1*"
            )]
        );
    }

    #[test]
    fn a_declared_media_type_wins_over_the_any_it_would_become() {
        let mut document = operation(
            json!({
                "application/json": {"schema": {"type": "object"}},
                "*/*": {"schema": {"type": "array"}},
            }),
            json!({}),
        );
        repair(&mut document, &mut Vec::new());
        assert_eq!(
            document,
            operation(
                json!({"application/json": {"schema": {"type": "object"}}}),
                json!({})
            )
        );
    }

    #[test]
    fn a_response_of_any_media_type_is_left_alone() {
        let original = operation(json!({}), json!({"*/*": {"schema": {"type": "object"}}}));
        let mut document = original.clone();
        let mut findings = Vec::new();
        repair(&mut document, &mut findings);
        assert_eq!(document, original);
        assert!(findings.is_empty());
    }

    #[test]
    fn a_byte_request_body_whose_schema_is_not_bytes_is_sent_as_bytes() {
        let mut document = operation(
            json!({"application/octet-stream; q=1": {"schema": {"type": "object"}}}),
            json!({"application/octet-stream": {"schema": {"type": "object"}}}),
        );
        let mut findings = Vec::new();
        repair(&mut document, &mut findings);
        assert_eq!(
            document,
            operation(
                json!({"application/octet-stream; q=1": {"schema": bytes()}}),
                json!({"application/octet-stream": {"schema": {"type": "object"}}}),
            )
        );
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Repaired,
                "/paths/~1a/post/requestBody/content/application~1octet-stream; q=1/schema"
            )]
        );
    }

    #[test]
    fn a_forms_per_property_encoding_is_dropped_and_reported_unenforced() {
        let mut document = operation(
            json!({"application/x-www-form-urlencoded": {
                "schema": {"type": "object"},
                "encoding": {"tags": {"style": "form", "explode": false}},
            }}),
            json!({}),
        );
        let mut findings = Vec::new();
        repair(&mut document, &mut findings);
        assert_eq!(
            document,
            operation(
                json!({"application/x-www-form-urlencoded": {"schema": {"type": "object"}}}),
                json!({})
            )
        );
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Unenforced,
                "/paths/~1a/post/requestBody/content/application~1x-www-form-urlencoded/encoding"
            )]
        );
    }

    #[test]
    fn shared_request_bodies_and_responses_are_repaired_where_they_are_defined() {
        let mut document = json!({"components": {
            "requestBodies": {"Upload": {"content": {"*/*": {"schema": bytes()}}}},
            "responses": {"Found": {"description": "d", "content": {"application/json": {}}}},
        }});
        let mut findings = Vec::new();
        repair(&mut document, &mut findings);
        assert_eq!(
            document,
            json!({"components": {
                "requestBodies": {"Upload": {"content": {"application/octet-stream": {"schema": bytes()}}}},
                "responses": {"Found": {"description": "d", "content": {"application/json": {"schema": {}}}}},
            }})
        );
        assert_eq!(
            places(&findings),
            [
                (
                    FindingKind::Repaired,
                    "/components/requestBodies/Upload/content/*~1*"
                ),
                (
                    FindingKind::Repaired,
                    "/components/responses/Found/content/application~1json"
                ),
            ]
        );
    }
}
