//! The operation-level repairs, on every operation:
//!
//! - A path parameter in the template but not declared is declared as a string (a defect).
//! - An operation **without `responses`** gets a `200` success without a body.
//! - **Success bodies of different types** (say `200` and `207`): all their JSON schemas become
//!   one component `<OperationId>Success` (`anyOf` of the distinct bodies, in status order)
//!   that every 2xx response refers to, so the client decodes whichever the server sends. A
//!   2xx without a JSON body beside one with a body cannot share its type: only the lowest such
//!   status is kept and the others are reported (the client then returns them as unexpected
//!   responses, bytes intact). Error bodies (4xx, 5xx, `default`) are unified the same way.
//! - **Identical bodies written inline** in several responses of one class become one
//!   component (`<OperationId>Success`/`Error`), as hoisting would make a type per place.
//! - A `default` response beside successes of another body is read as the error statuses.
//! - **More than one request media type**: the JSON one is kept, else one progenitor can send
//!   (form, octet-stream, text), else the first.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::{Finding, FindingKind, is_json, pascal, resolve, unique_name};
use crate::contract::preflight::{UPGRADE_STATUS, is_success_status};
use crate::model::{is_method, mark, push};

/// The operation-level repairs, on every operation. Returns the names of the components it
/// made (each operation's unified bodies and their members).
pub(super) fn operations(document: &mut Value, findings: &mut Vec<Finding>) -> BTreeSet<String> {
    // A shared request body is given one media type where it is defined, as an operation's
    // own is below.
    if let Some(bodies) = document
        .pointer_mut("/components/requestBodies")
        .and_then(Value::as_object_mut)
    {
        for (name, body) in bodies.iter_mut() {
            let pointer = push("/components/requestBodies", name);
            single_request_media_type(body, &pointer, findings);
        }
    }
    let mut new_components: Vec<(String, Value)> = Vec::new();
    // Keys and the names typify gives their types: a union named `GetThingSuccess` beside a
    // component `get_thing_success` would be a second type of one name.
    let mut component_names: BTreeSet<String> = crate::contract::component_names_in_use(document);
    let snapshot = document.clone();
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return BTreeSet::new();
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        let item_parameters = declared_path_parameters(&snapshot, item.get("parameters"));
        for (method, operation) in item.iter_mut() {
            if !is_method(method) {
                continue;
            }
            let pointer = push(&push("/paths", path), method);
            let Some(operation) = operation.as_object_mut() else {
                continue;
            };
            let id = operation
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or("operation")
                .to_owned();
            let mut declared = item_parameters.clone();
            declared.extend(declared_path_parameters(
                &snapshot,
                operation.get("parameters"),
            ));
            for name in template_parameters(path) {
                if declared.contains(&name) {
                    continue;
                }
                let parameters = operation
                    .entry("parameters")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Some(parameters) = parameters.as_array_mut() {
                    parameters.push(json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}));
                    findings.push(Finding::new(
                        FindingKind::Defect,
                        &pointer,
                        format!("path parameter `{name}` is in the template but not declared; declared as a string"),
                    ));
                }
            }
            if !operation.contains_key("responses") {
                operation.insert(
                    "responses".into(),
                    json!({"200": {"description": "Success (no responses were declared)."}}),
                );
                findings.push(Finding::new(
                    FindingKind::Repaired,
                    &pointer,
                    "no `responses`; a `200` success without a body is assumed",
                ));
            }
            if let Some(body) = operation.get_mut("requestBody") {
                single_request_media_type(body, &push(&pointer, "requestBody"), findings);
            }
            let Some(responses) = operation
                .get_mut("responses")
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            default_beside_successes(&snapshot, responses, &push(&pointer, "responses"), findings);
            upgrade_error_bodies(&snapshot, responses, &push(&pointer, "responses"), findings);
            for (class, is_member) in [
                ("Success", is_success_status as fn(&str) -> bool),
                ("Error", is_error as fn(&str) -> bool),
            ] {
                let name = pascal(&format!("{id}_{class}"));
                let name = unique_name(&name, &component_names);
                let mut members = Members {
                    union_name: &name,
                    names: &mut component_names,
                    components: &mut new_components,
                };
                if let Some(union) = unify_bodies(
                    &snapshot,
                    responses,
                    is_member,
                    &mut members,
                    &push(&pointer, "responses"),
                    findings,
                ) {
                    component_names.insert(name.clone());
                    new_components.push((name, union));
                }
            }
        }
    }
    let made = new_components
        .iter()
        .map(|(name, _)| name.clone())
        .collect();
    if !new_components.is_empty()
        && let Some(schemas) = super::component_schemas_mut(document)
    {
        schemas.extend(new_components);
    }
    made
}

/// An operation that upgrades the connection (a `101` response, Docker's `POST /session`) is
/// read by progenitor's `ResponseValue::upgrade`, which needs an error type that is `Debug`: an
/// error body that is not JSON (a byte stream) is not, and the crate would not compile. Such a
/// body is left out; the error keeps its status and headers.
fn upgrade_error_bodies(
    document: &Value,
    responses: &mut Map<String, Value>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    if !responses.contains_key(UPGRADE_STATUS) {
        return;
    }
    for (status, response) in responses.iter_mut() {
        if !is_error(status) || !matches!(body_of(document, response), Body::Other) {
            continue;
        }
        let mut inline = resolve(document, response).clone();
        if let Some(object) = inline.as_object_mut() {
            object.remove("content");
        }
        *response = inline;
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(pointer, status),
            "an error body that is not JSON beside a `101` upgrade, which progenitor cannot read there; left out (the error keeps its status and headers)",
        ));
    }
}

/// progenitor reads a `default` response as a possible success and as a possible error. Beside
/// declared successes whose body is not `default`'s (an error body, typically), it would need
/// two success types, which it cannot have: there `default` is read as what it describes, the
/// error statuses `4XX` and `5XX` (each only where the operation does not declare it), and the
/// change is reported. A success status the operation does not declare is then an unexpected
/// response, kept as bytes.
fn default_beside_successes(
    document: &Value,
    responses: &mut Map<String, Value>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    let Some(default) = responses.get("default") else {
        return;
    };
    let default_body = body_of(document, default);
    let differs_from = |class: fn(&str) -> bool| {
        responses
            .iter()
            .filter(|(status, _)| *status != "default" && class(status))
            .any(|(_, response)| body_of(document, response) != default_body)
    };
    let has_success = responses.keys().any(|status| is_success_status(status));
    // `default` is a success and an error to progenitor: it must share the successes' body and
    // the errors' (apideck.com/proxy: `200` and `default` any JSON, `401` an object).
    if !(differs_from(is_success_status) || has_success && differs_from(is_error)) {
        return;
    }
    let Some(default) = responses.remove("default") else {
        return;
    };
    let mut added = Vec::new();
    for range in ["4XX", "5XX"] {
        if !responses.contains_key(range) {
            responses.insert(range.to_owned(), default.clone());
            added.push(range);
        }
    }
    findings.push(Finding::new(
        FindingKind::Repaired,
        &push(pointer, "default"),
        format!(
            "`default` beside successes of another body is read as the error statuses{}",
            if added.is_empty() {
                " declared already".to_owned()
            } else {
                format!(" {}", added.join(" and "))
            }
        ),
    ));
}

/// The names of the path parameters a `parameters` list declares (references followed).
fn declared_path_parameters(document: &Value, parameters: Option<&Value>) -> BTreeSet<String> {
    parameters
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|parameter| resolve(document, parameter))
        .filter(|parameter| parameter.get("in").and_then(Value::as_str) == Some("path"))
        .filter_map(|parameter| parameter.get("name").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// The `{names}` of a path template.
fn template_parameters(path: &str) -> Vec<String> {
    path.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}'))
        .map(|(name, _)| name.to_owned())
        .collect()
}

fn is_error(status: &str) -> bool {
    status.starts_with(['4', '5']) || status == "default"
}

/// The body a response declares, as progenitor sees it.
enum Body {
    Json(Value),
    Other,
    None,
    /// A `101` without a JSON body: progenitor hands over the upgraded connection, a type of
    /// its own (Docker's `attach`, `101` beside a `200` without a body).
    Upgrade,
}

impl PartialEq for Body {
    /// Two JSON bodies are one type when their schemas state the same, their descriptions and
    /// examples aside (each error status's example message, say).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Body::Json(one), Body::Json(other)) => same_schema(one, other),
            (Body::Other, Body::Other)
            | (Body::None, Body::None)
            | (Body::Upgrade, Body::Upgrade) => true,
            _ => false,
        }
    }
}

/// Whether two schemas state the same ([`crate::model::without_annotations`]).
fn same_schema(one: &Value, other: &Value) -> bool {
    one == other
        || crate::model::without_annotations(one) == crate::model::without_annotations(other)
}

fn body_of(document: &Value, response: &Value) -> Body {
    let response = resolve(document, response);
    let Some(content) = response.get("content").and_then(Value::as_object) else {
        return Body::None;
    };
    match content.iter().find(|(media_type, _)| is_json(media_type)) {
        Some((_, media)) => Body::Json(media.get("schema").cloned().unwrap_or(json!({}))),
        None if content.is_empty() => Body::None,
        None => Body::Other,
    }
}

/// Where a status sorts: codes by number, then ranges (`4XX`) by their first digit, then
/// `default`.
fn status_order(status: &str) -> (u8, u16) {
    if let Ok(code) = status.parse::<u16>() {
        return (0, code);
    }
    match status.chars().next().and_then(|digit| digit.to_digit(10)) {
        Some(digit) => (1, u16::try_from(digit).unwrap_or(u16::MAX)),
        None => (2, 0),
    }
}

/// Makes the responses of one class share one body type; returns the union component to add.
fn unify_bodies(
    document: &Value,
    responses: &mut Map<String, Value>,
    is_member: fn(&str) -> bool,
    members_out: &mut Members<'_>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) -> Option<Value> {
    let union_name = members_out.union_name;
    let mut statuses: Vec<String> = responses
        .keys()
        .filter(|status| is_member(status))
        .cloned()
        .collect();
    // In status order, whatever order the document writes them in: the lowest status is the
    // one kept, and the union lists its members in that order.
    statuses.sort_by_key(|status| status_order(status));
    let bodies: Vec<(String, Body)> = statuses
        .iter()
        .map(|status| {
            let body = match body_of(document, &responses[status]) {
                Body::Json(schema) => Body::Json(schema),
                _ if status == UPGRADE_STATUS => Body::Upgrade,
                other => other,
            };
            (status.clone(), body)
        })
        .collect();
    let first = bodies.first()?;
    // One schema written inline in several responses would be hoisted once per place, each
    // a type of its own, which progenitor cannot return from one operation.
    let all_equal = bodies.iter().all(|(_, body)| *body == first.1);
    let shared_inline = all_equal
        && bodies.len() > 1
        && matches!(&first.1, Body::Json(schema) if schema.get("$ref").is_none());
    if all_equal && !shared_inline {
        return None;
    }
    let with_json: Vec<&(String, Body)> = bodies
        .iter()
        .filter(|(_, body)| matches!(body, Body::Json(_)))
        .collect();
    // Responses whose body cannot share a JSON type are dropped (all but the lowest when there
    // is no JSON body at all).
    let keep_json = !with_json.is_empty();
    for (index, (status, body)) in bodies.iter().enumerate() {
        let dropped = if keep_json {
            !matches!(body, Body::Json(_))
        } else {
            index > 0
        };
        if dropped {
            responses.remove(status);
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(pointer, status),
                "its body type differs from the other responses of its class and cannot share one type with them; left out (the client returns it as an unexpected response, body intact)",
            ));
        }
    }
    // Each distinct body once, with the first status that declares it.
    let mut members: Vec<Value> = Vec::new();
    let mut first_statuses: Vec<&str> = Vec::new();
    for (status, body) in &with_json {
        if let Body::Json(schema) = body
            && !members.iter().any(|member| same_schema(member, schema))
        {
            members.push(schema.clone());
            first_statuses.push(status.as_str());
        }
    }
    if members.len() < 2 && !shared_inline {
        return None;
    }
    let reference = json!({"$ref": format!("#/components/schemas/{union_name}")});
    for (status, _) in &with_json {
        let Some(response) = responses.get_mut(status) else {
            continue;
        };
        let media_types: Vec<String> = resolve(document, response)
            .get("content")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(media_type, _)| media_type.clone())
            .filter(|media_type| is_json(media_type))
            .collect();
        // A shared response component is copied inline so that the change stays local.
        let mut inline = resolve(document, response).clone();
        for media_type in media_types {
            if let Some(media) = inline
                .get_mut("content")
                .and_then(|content| content.get_mut(&media_type))
                .and_then(Value::as_object_mut)
            {
                media.insert("schema".into(), reference.clone());
            }
        }
        *response = inline;
    }
    let statuses = with_json
        .iter()
        .map(|(status, _)| status.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if let [schema] = members.as_slice() {
        findings.push(Finding::new(
            FindingKind::Repaired,
            pointer,
            format!("responses {statuses} write one body schema inline in each; it becomes one component, `{union_name}`"),
        ));
        return Some(schema.clone());
    }
    findings.push(Finding::new(
        FindingKind::Repaired,
        pointer,
        format!("responses {statuses} have different body types; their bodies become one union, `{union_name}`"),
    ));
    // An inline body that is a type of its own (an object, a composition, an enum) becomes a
    // component named by its status (`<Union>NotFound`), so that the union's variants read as
    // statuses rather than `Variant0` (typify cuts the shared prefix). A scalar or an array
    // stays inline: as a component it would be a newtype of its own, where inline it is the
    // plain Rust type.
    for (member, status) in members.iter_mut().zip(first_statuses) {
        if member.get("$ref").is_none() && is_own_type(member) {
            let name = unique_name(
                &format!("{union_name}{}", status_word(status)),
                members_out.names,
            );
            members_out.names.insert(name.clone());
            let schema = std::mem::replace(
                member,
                json!({"$ref": format!("#/components/schemas/{name}")}),
            );
            members_out.components.push((name, schema));
        }
    }
    // `oneOf` marked `x-any-of`: a first-fit enum, as `any_of` hands on every `anyOf`.
    Some(json!({"oneOf": members, (mark::ANY_OF): true}))
}

/// Whether typify makes a type of its own for `schema` wherever it sits: an object (or a
/// schema with properties), a composition, an enum.
fn is_own_type(schema: &Value) -> bool {
    let object = schema.as_object();
    let has = |key: &str| object.is_some_and(|object| object.contains_key(key));
    schema.get("type").and_then(Value::as_str) == Some("object")
        || [
            "properties",
            "allOf",
            "oneOf",
            "anyOf",
            "enum",
            "additionalProperties",
        ]
        .iter()
        .any(|key| has(key))
}

/// Where [`unify_bodies`] puts what it makes: the union's name, the component names taken,
/// and the new components (a union's inline members, named by status).
struct Members<'a> {
    union_name: &'a str,
    names: &'a mut BTreeSet<String>,
    components: &'a mut Vec<(String, Value)>,
}

/// A status as a word of a type name: its reason phrase (RFC 9110 and the registry), a range's
/// class, `Other` for `default`, `Status<code>` for a code without a registered phrase.
fn status_word(status: &str) -> String {
    let phrase = match status {
        "200" => "Ok",
        "201" => "Created",
        "202" => "Accepted",
        "203" => "NonAuthoritativeInformation",
        "204" => "NoContent",
        "205" => "ResetContent",
        "206" => "PartialContent",
        "207" => "MultiStatus",
        "208" => "AlreadyReported",
        "226" => "ImUsed",
        "400" => "BadRequest",
        "401" => "Unauthorized",
        "402" => "PaymentRequired",
        "403" => "Forbidden",
        "404" => "NotFound",
        "405" => "MethodNotAllowed",
        "406" => "NotAcceptable",
        "407" => "ProxyAuthenticationRequired",
        "408" => "RequestTimeout",
        "409" => "Conflict",
        "410" => "Gone",
        "411" => "LengthRequired",
        "412" => "PreconditionFailed",
        "413" => "ContentTooLarge",
        "414" => "UriTooLong",
        "415" => "UnsupportedMediaType",
        "416" => "RangeNotSatisfiable",
        "417" => "ExpectationFailed",
        "418" => "ImATeapot",
        "421" => "MisdirectedRequest",
        "422" => "UnprocessableContent",
        "423" => "Locked",
        "424" => "FailedDependency",
        "425" => "TooEarly",
        "426" => "UpgradeRequired",
        "428" => "PreconditionRequired",
        "429" => "TooManyRequests",
        "431" => "RequestHeaderFieldsTooLarge",
        "451" => "UnavailableForLegalReasons",
        "500" => "InternalServerError",
        "501" => "NotImplemented",
        "502" => "BadGateway",
        "503" => "ServiceUnavailable",
        "504" => "GatewayTimeout",
        "505" => "HttpVersionNotSupported",
        "507" => "InsufficientStorage",
        "508" => "LoopDetected",
        "511" => "NetworkAuthenticationRequired",
        "2XX" | "2xx" => "OtherSuccess",
        "4XX" | "4xx" => "ClientError",
        "5XX" | "5xx" => "ServerError",
        "default" => "Other",
        code => {
            let code: String = code.chars().filter(char::is_ascii_alphanumeric).collect();
            return format!("Status{code}");
        }
    };
    phrase.to_owned()
}

/// Keeps one media type of a request body with several: the JSON one, else the first.
fn single_request_media_type(body: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(content) = body.get_mut("content").and_then(Value::as_object_mut) else {
        return;
    };
    // A non-JSON body without a schema is bytes; progenitor needs that said.
    for (media_type, media) in content.iter_mut() {
        if let Some(media) = media.as_object_mut()
            && !is_json(media_type)
            && !media.contains_key("schema")
        {
            media.insert(
                "schema".into(),
                json!({"type": "string", "format": "binary"}),
            );
        }
    }
    if content.len() < 2 {
        return;
    }
    // JSON first, then the bodies progenitor can send, then whatever comes first.
    let rank = |media_type: &str| {
        if is_json(media_type) {
            0
        } else {
            match media_type {
                "application/x-www-form-urlencoded" => 1,
                "application/octet-stream" => 2,
                "text/plain" => 3,
                _ => 4,
            }
        }
    };
    let keep = content
        .keys()
        .min_by_key(|media_type| rank(media_type))
        .cloned()
        .unwrap_or_default();
    let dropped: Vec<String> = content.keys().filter(|k| **k != keep).cloned().collect();
    content.retain(|media_type, _| *media_type == keep);
    findings.push(Finding::new(
        FindingKind::Repaired,
        &push(pointer, "content"),
        format!(
            "several request media types; the client sends `{keep}` only (left out: {})",
            dropped.join(", ")
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::places;

    /// A response with a JSON body of `schema`.
    fn json_response(schema: Value) -> Value {
        json!({"description": "d", "content": {"application/json": {"schema": schema}}})
    }

    fn reference(name: &str) -> Value {
        json!({"$ref": format!("#/components/schemas/{name}")})
    }

    /// `responses` as a map, for the functions that take one.
    fn map(responses: Value) -> Map<String, Value> {
        responses.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_shared_request_body_keeps_one_media_type_where_it_is_defined() {
        let mut document = json!({
            "paths": {"/a": {"put": {"operationId": "putA",
                "requestBody": {"$ref": "#/components/requestBodies/Data"},
                "responses": {"204": {"description": "d"}}}}},
            "components": {"requestBodies": {"Data": {"content": {
                "application/json": {"schema": {"type": "object"}},
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
                "multipart/form-data": {"schema": {"type": "object"}},
            }}}}
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert_eq!(
            document["components"]["requestBodies"]["Data"]["content"],
            json!({"application/json": {"schema": {"type": "object"}}})
        );
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Repaired,
                "/components/requestBodies/Data/content"
            )]
        );
    }

    #[test]
    fn an_upgrade_keeps_no_error_body_that_is_not_json() {
        let text =
            json!({"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "e"});
        let mut document = json!({"paths": {"/session": {"post": {"operationId": "session",
            "responses": {"101": {"description": "upgraded"}, "400": text, "500": text}}}}});
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        let responses = &document["paths"]["/session"]["post"]["responses"];
        assert!(responses["400"].get("content").is_none(), "{responses}");
        assert!(responses["500"].get("content").is_none(), "{responses}");
        assert_eq!(findings.len(), 2, "{findings:?}");
    }

    #[test]
    fn a_missing_responses_becomes_a_bodiless_200() {
        let mut document = json!({"paths": {"/a": {"get": {"operationId": "getA"}}}});
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert_eq!(
            document,
            json!({"paths": {"/a": {"get": {
                "operationId": "getA",
                "responses": {"200": {"description": "Success (no responses were declared)."}},
            }}}})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get")]
        );
    }

    #[test]
    fn an_undeclared_path_parameter_is_declared_as_a_string() {
        let mut document = json!({
            "paths": {"/items/{id}/tags/{tag}": {
                "parameters": [{"$ref": "#/components/parameters/Id"}],
                "get": {"operationId": "getTag", "responses": {"204": {"description": "d"}}},
            }},
            "components": {"parameters": {"Id": {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}}},
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert_eq!(
            document["paths"]["/items/{id}/tags/{tag}"]["get"]["parameters"],
            json!([{"name": "tag", "in": "path", "required": true, "schema": {"type": "string"}}])
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Defect, "/paths/~1items~1{id}~1tags~1{tag}/get")]
        );
    }

    #[test]
    fn a_path_templates_parameters_are_the_names_in_braces() {
        assert_eq!(
            template_parameters("/repos/{owner}/{repo}/file.{format}"),
            ["owner", "repo", "format"]
        );
        assert!(template_parameters("/repos").is_empty());
    }

    #[test]
    fn success_bodies_of_different_types_become_one_union_component() {
        let mut document = json!({
            "paths": {"/things": {"get": {"operationId": "getThing", "responses": {
                "200": json_response(reference("Thing")),
                "207": json_response(reference("Statuses")),
            }}}},
            "components": {"schemas": {"Thing": {"type": "object"}, "Statuses": {"type": "array"}}},
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        let responses = &document["paths"]["/things"]["get"]["responses"];
        assert_eq!(
            responses["200"],
            json_response(reference("GetThingSuccess"))
        );
        assert_eq!(
            responses["207"],
            json_response(reference("GetThingSuccess"))
        );
        assert_eq!(
            document["components"]["schemas"]["GetThingSuccess"],
            json!({"oneOf": [reference("Thing"), reference("Statuses")], "x-any-of": true})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1things/get/responses")]
        );
    }

    #[test]
    fn inline_error_bodies_become_members_named_by_their_status() {
        let message = json!({"type": "object", "properties": {"message": {"type": "string"}}});
        let limit = json!({"type": "object", "properties": {"retryAfter": {"type": "integer"}}});
        let mut document = json!({
            "paths": {"/things": {"get": {"operationId": "getThing", "responses": {
                "200": json_response(reference("Thing")),
                "402": json_response(message.clone()),
                "404": json_response(reference("Problem")),
                "422": json_response(message.clone()),
                "429": json_response(limit.clone()),
                "500": json_response(json!({"type": "string"})),
                "599": json_response(json!({"type": "object", "properties": {"code": {"type": "integer"}}})),
            }}}},
            "components": {"schemas": {
                "Thing": {"type": "object"},
                "Problem": {"type": "object"},
                "GetThingErrorTooManyRequests": {"type": "string"},
            }},
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        let schemas = &document["components"]["schemas"];
        assert_eq!(
            schemas["GetThingError"]["oneOf"],
            json!([
                reference("GetThingErrorPaymentRequired"),
                reference("Problem"),
                reference("GetThingErrorTooManyRequests2"),
                json!({"type": "string"}),
                reference("GetThingErrorStatus599"),
            ])
        );
        assert_eq!(schemas["GetThingErrorPaymentRequired"], message);
        assert_eq!(schemas["GetThingErrorTooManyRequests2"], limit);
        assert_eq!(status_word("4XX"), "ClientError");
        assert_eq!(status_word("default"), "Other");
    }

    #[test]
    fn identical_bodies_written_inline_become_one_component() {
        let inline = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        let mut document = json!({"paths": {"/things": {"post": {"operationId": "makeThing", "responses": {
            "200": json_response(inline.clone()),
            "201": json_response(inline.clone()),
        }}}}});
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        let responses = &document["paths"]["/things"]["post"]["responses"];
        assert_eq!(
            responses["200"],
            json_response(reference("MakeThingSuccess"))
        );
        assert_eq!(
            responses["201"],
            json_response(reference("MakeThingSuccess"))
        );
        assert_eq!(
            document["components"]["schemas"],
            json!({"MakeThingSuccess": inline})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1things/post/responses")]
        );
    }

    #[test]
    fn identical_referenced_bodies_need_no_repair() {
        let mut document = json!({
            "paths": {"/things": {"get": {"operationId": "getThing", "responses": {
                "200": json_response(reference("Thing")),
                "201": json_response(reference("Thing")),
            }}}},
            "components": {"schemas": {"Thing": {"type": "object"}}},
        });
        let before = document.clone();
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert_eq!(document, before);
        assert!(findings.is_empty());
    }

    #[test]
    fn a_union_component_takes_a_name_no_component_has() {
        let mut document = json!({
            "paths": {"/things": {"get": {"operationId": "getThing", "responses": {
                "200": json_response(reference("Thing")),
                "207": json_response(reference("GetThingSuccess")),
            }}}},
            "components": {"schemas": {"Thing": {"type": "object"}, "GetThingSuccess": {"type": "array"}}},
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert_eq!(
            document["components"]["schemas"]["GetThingSuccess2"],
            json!({"oneOf": [reference("Thing"), reference("GetThingSuccess")], "x-any-of": true})
        );
        assert_eq!(
            document["paths"]["/things"]["get"]["responses"]["200"],
            json_response(reference("GetThingSuccess2"))
        );
    }

    #[test]
    fn a_union_component_takes_no_name_typify_gives_a_component() {
        // `get_thing_success` is typify's `GetThingSuccess`: a union of that name would be a
        // second type `GetThingSuccess`.
        let mut document = json!({
            "paths": {"/things": {"get": {"operationId": "getThing", "responses": {
                "200": json_response(reference("Thing")),
                "207": json_response(reference("get_thing_success")),
            }}}},
            "components": {"schemas": {"Thing": {"type": "object"}, "get_thing_success": {"type": "array"}}},
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert!(
            document["components"]["schemas"]
                .get("GetThingSuccess")
                .is_none()
        );
        assert_eq!(
            document["paths"]["/things"]["get"]["responses"]["200"],
            json_response(reference("GetThingSuccess2"))
        );
    }

    #[test]
    fn the_lowest_status_is_kept_whatever_order_the_document_writes() {
        let mut document = json!({
            "paths": {"/things": {"get": {"operationId": "getThing", "responses": {
                "204": {"description": "none"},
                "200": {"description": "text", "content": {"text/plain": {"schema": {"type": "string"}}}},
            }}}},
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        let responses = &document["paths"]["/things"]["get"]["responses"];
        assert!(responses.get("200").is_some(), "{responses}");
        assert!(responses.get("204").is_none(), "{responses}");
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].pointer, "/paths/~1things/get/responses/204");
    }

    #[test]
    fn statuses_sort_by_code_then_range_then_default() {
        let mut statuses = ["default", "4XX", "404", "400", "5XX"];
        statuses.sort_by_key(|status| status_order(status));
        assert_eq!(statuses, ["400", "404", "4XX", "5XX", "default"]);
    }

    #[test]
    fn a_shared_response_is_copied_inline_before_its_body_changes() {
        let mut document = json!({
            "paths": {"/things": {"get": {"operationId": "getThing", "responses": {
                "200": {"$ref": "#/components/responses/Found"},
                "207": json_response(reference("Statuses")),
            }}}},
            "components": {
                "responses": {"Found": json_response(reference("Thing"))},
                "schemas": {"Thing": {"type": "object"}, "Statuses": {"type": "array"}},
            },
        });
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert_eq!(
            document["paths"]["/things"]["get"]["responses"]["200"],
            json_response(reference("GetThingSuccess"))
        );
        assert_eq!(
            document["components"]["responses"]["Found"],
            json_response(reference("Thing"))
        );
    }

    /// [`unify_bodies`] on `responses` of an operation at `/paths/~1a/get`, in a document with
    /// no components.
    fn unify(
        responses: &mut Map<String, Value>,
        is_member: fn(&str) -> bool,
        union_name: &str,
        findings: &mut Vec<Finding>,
    ) -> Option<Value> {
        let mut names = BTreeSet::new();
        let mut components = Vec::new();
        let mut members = Members {
            union_name,
            names: &mut names,
            components: &mut components,
        };
        unify_bodies(
            &json!({}),
            responses,
            is_member,
            &mut members,
            "/paths/~1a/get/responses",
            findings,
        )
    }

    #[test]
    fn a_success_without_a_json_body_beside_one_with_a_body_is_left_out() {
        let mut responses = map(json!({
            "200": json_response(reference("Thing")),
            "202": {"description": "accepted"},
            "203": {"description": "text", "content": {"text/plain": {"schema": {"type": "string"}}}},
        }));
        let mut findings = Vec::new();
        let union = unify(
            &mut responses,
            is_success_status,
            "GetThingSuccess",
            &mut findings,
        );
        assert_eq!(union, None);
        assert_eq!(
            Value::Object(responses),
            json!({"200": json_response(reference("Thing"))})
        );
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Repaired, "/paths/~1a/get/responses/202"),
                (FindingKind::Repaired, "/paths/~1a/get/responses/203"),
            ]
        );
    }

    #[test]
    fn an_upgrade_beside_a_success_without_a_body_is_the_one_kept() {
        // Docker's `attach`: `101` hands over the connection, `200` has no body; progenitor
        // cannot return both, and the upgrade is what the operation asks for.
        let mut responses = map(json!({
            "200": {"description": "no upgrade header found"},
            "101": {"description": "hijacked"},
        }));
        let mut findings = Vec::new();
        let union = unify(
            &mut responses,
            is_success_status,
            "AttachSuccess",
            &mut findings,
        );
        assert_eq!(union, None);
        assert_eq!(
            Value::Object(responses),
            json!({"101": {"description": "hijacked"}})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/responses/200")]
        );
    }

    #[test]
    fn successes_without_json_bodies_keep_only_the_first() {
        let mut responses = map(json!({
            "200": {"description": "text", "content": {"text/plain": {"schema": {"type": "string"}}}},
            "204": {"description": "none"},
        }));
        let mut findings = Vec::new();
        let union = unify(
            &mut responses,
            is_success_status,
            "GetThingSuccess",
            &mut findings,
        );
        assert_eq!(union, None);
        assert_eq!(
            responses.keys().collect::<Vec<_>>(),
            ["200"],
            "{responses:#?}"
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/responses/204")]
        );
    }

    #[test]
    fn error_bodies_are_unified_like_successes_default_included() {
        let mut responses = map(json!({
            "200": json_response(reference("Thing")),
            "404": json_response(reference("NotFound")),
            "default": json_response(reference("Problem")),
        }));
        let mut findings = Vec::new();
        let union = unify(&mut responses, is_error, "GetThingError", &mut findings);
        assert_eq!(
            union,
            Some(json!({"oneOf": [reference("NotFound"), reference("Problem")], "x-any-of": true}))
        );
        assert_eq!(
            Value::Object(responses),
            json!({
                "200": json_response(reference("Thing")),
                "404": json_response(reference("GetThingError")),
                "default": json_response(reference("GetThingError")),
            })
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/responses")]
        );
    }

    #[test]
    fn a_union_lists_each_distinct_body_once_in_status_order() {
        let mut responses = map(json!({
            "200": json_response(reference("A")),
            "201": json_response(reference("B")),
            "202": json_response(reference("A")),
        }));
        let union = unify(&mut responses, is_success_status, "U", &mut Vec::new());
        assert_eq!(
            union,
            Some(json!({"oneOf": [reference("A"), reference("B")], "x-any-of": true}))
        );
    }

    #[test]
    fn a_default_beside_successes_of_another_body_is_read_as_the_error_statuses() {
        let mut responses = map(json!({
            "200": json_response(reference("Thing")),
            "default": json_response(reference("Problem")),
        }));
        let mut findings = Vec::new();
        default_beside_successes(
            &json!({}),
            &mut responses,
            "/paths/~1a/get/responses",
            &mut findings,
        );
        assert_eq!(
            Value::Object(responses),
            json!({
                "200": json_response(reference("Thing")),
                "4XX": json_response(reference("Problem")),
                "5XX": json_response(reference("Problem")),
            })
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/responses/default")]
        );
        assert!(findings[0].message.ends_with("error statuses 4XX and 5XX"));
    }

    #[test]
    fn a_default_never_replaces_a_declared_error_range() {
        let mut responses = map(json!({
            "200": {"description": "no body"},
            "4XX": json_response(reference("ClientProblem")),
            "default": json_response(reference("Problem")),
        }));
        let mut findings = Vec::new();
        default_beside_successes(&json!({}), &mut responses, "/r", &mut findings);
        assert_eq!(
            Value::Object(responses),
            json!({
                "200": {"description": "no body"},
                "4XX": json_response(reference("ClientProblem")),
                "5XX": json_response(reference("Problem")),
            })
        );
        assert!(findings[0].message.ends_with("error statuses 5XX"));
    }

    #[test]
    fn a_default_with_the_successes_body_but_not_the_errors_is_read_as_the_errors() {
        // apideck.com/proxy: `200` and `default` any JSON, `401` an object.
        let mut responses = map(json!({
            "200": json_response(json!({})),
            "401": json_response(reference("Unauthorized")),
            "default": json_response(json!({})),
        }));
        let mut findings = Vec::new();
        default_beside_successes(&json!({}), &mut responses, "/r", &mut findings);
        let statuses: Vec<&String> = responses.keys().collect();
        assert_eq!(statuses, ["200", "401", "4XX", "5XX"]);
        assert_eq!(findings.len(), 1, "{findings:?}");
    }

    #[test]
    fn a_default_with_the_successes_body_stays() {
        let original = json!({
            "200": json_response(reference("Thing")),
            "default": {"$ref": "#/components/responses/Thing"},
        });
        let document =
            json!({"components": {"responses": {"Thing": json_response(reference("Thing"))}}});
        let mut responses = map(original.clone());
        let mut findings = Vec::new();
        default_beside_successes(&document, &mut responses, "/r", &mut findings);
        assert_eq!(Value::Object(responses), original);
        assert!(findings.is_empty());
    }

    #[test]
    fn of_several_request_media_types_the_json_one_is_kept() {
        let mut body = json!({"content": {
            "application/xml": {"schema": {"type": "object"}},
            "application/vnd.api+json": {"schema": {"type": "object"}},
            "application/x-www-form-urlencoded": {"schema": {"type": "object"}},
        }});
        let mut findings = Vec::new();
        single_request_media_type(&mut body, "/paths/~1a/post/requestBody", &mut findings);
        assert_eq!(
            body,
            json!({"content": {"application/vnd.api+json": {"schema": {"type": "object"}}}})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/post/requestBody/content")]
        );
        assert!(
            findings[0]
                .message
                .ends_with("(left out: application/xml, application/x-www-form-urlencoded)")
        );
    }

    #[test]
    fn without_json_a_body_progenitor_can_send_is_kept_form_first() {
        let mut body = json!({"content": {
            "text/plain": {"schema": {"type": "string"}},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            "application/x-www-form-urlencoded": {"schema": {"type": "object"}},
        }});
        single_request_media_type(&mut body, "/b", &mut Vec::new());
        assert_eq!(
            body,
            json!({"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object"}}}})
        );
        let mut body = json!({"content": {
            "text/plain": {"schema": {"type": "string"}},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        }});
        single_request_media_type(&mut body, "/b", &mut Vec::new());
        assert_eq!(
            body,
            json!({"content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}})
        );
    }

    #[test]
    fn without_a_body_progenitor_can_send_the_first_is_kept() {
        let mut body = json!({"content": {
            "application/xml": {"schema": {"type": "object"}},
            "image/png": {"schema": {"type": "string", "format": "binary"}},
        }});
        single_request_media_type(&mut body, "/b", &mut Vec::new());
        assert_eq!(
            body,
            json!({"content": {"application/xml": {"schema": {"type": "object"}}}})
        );
    }

    #[test]
    fn a_non_json_request_body_without_a_schema_is_bytes() {
        let mut body = json!({"content": {"application/octet-stream": {}}});
        let mut findings = Vec::new();
        single_request_media_type(&mut body, "/b", &mut findings);
        assert_eq!(
            body,
            json!({"content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}})
        );
        assert!(findings.is_empty());
        let mut json_body = json!({"content": {"application/json": {}}});
        single_request_media_type(&mut json_body, "/b", &mut findings);
        assert_eq!(json_body, json!({"content": {"application/json": {}}}));
    }

    #[test]
    fn the_request_body_of_an_operation_keeps_one_media_type() {
        let mut document = json!({"paths": {"/a": {"post": {
            "operationId": "postA",
            "requestBody": {"content": {"text/plain": {}, "application/json": {"schema": {"type": "object"}}}},
            "responses": {"204": {"description": "d"}},
        }}}});
        let mut findings = Vec::new();
        operations(&mut document, &mut findings);
        assert_eq!(
            document["paths"]["/a"]["post"]["requestBody"],
            json!({"content": {"application/json": {"schema": {"type": "object"}}}})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/post/requestBody/content")]
        );
    }
}
