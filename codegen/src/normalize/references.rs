//! `$ref`s that lead nowhere: a local reference to a place the document does not have, a
//! reference into another document (a URL), which this generator does not fetch, or into a
//! file that `bundle` was not given or that has no such place. typify and
//! progenitor panic on the first they meet, which would leave out whatever holds it; here each
//! is a defect reported at its own pointer, and only the reference itself is degraded: a
//! schema becomes any JSON value, a parameter, header, example or request body is left out,
//! and a response keeps its status without a body.

use serde_json::{Value, json};

use super::{Finding, FindingKind, Origins};
use crate::model::{Place, place_of, push};

/// Repairs every reference that leads nowhere, all in one run.
pub(super) fn dangling(document: &mut Value, findings: &mut Vec<Finding>) {
    let mut found = Vec::new();
    collect(
        document,
        "",
        &|reference| !leads_somewhere(document, reference),
        &mut found,
    );
    let mut repaired = Vec::new();
    // Last first, so that removing an item of an array leaves the pointers before it valid.
    for (pointer, reference) in found.into_iter().rev() {
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", &pointer));
        let grandparent_key = parent.rsplit('/').next().unwrap_or_default();
        let what = if reference.starts_with('#') {
            "a place the document does not have"
        } else if reference.contains("://") || reference.starts_with("//") {
            "another document, which is not fetched"
        } else {
            // `bundle` reads the files a description is split over; what is left names a file
            // it was not given (the description's text alone) or a place that file lacks.
            "another file, which was not bundled or has no such place"
        };
        let (done, replacement) = match (grandparent_key, key) {
            (_, "requestBody") => ("the request body is left out", None),
            ("parameters" | "headers" | "examples", _) => ("left out", None),
            ("responses", _) => (
                "the response is kept without a body",
                Some(
                    json!({"description": format!("(a `$ref` to {reference}, which leads nowhere)")}),
                ),
            ),
            _ => ("read as any JSON value", Some(json!({}))),
        };
        let Some(parent_value) = document.pointer_mut(parent) else {
            continue;
        };
        let key = crate::model::unescape(key);
        match (parent_value, replacement) {
            (Value::Array(items), None) => {
                if let Ok(index) = key.parse::<usize>()
                    && index < items.len()
                {
                    items.remove(index);
                }
            }
            (Value::Object(object), None) => {
                object.remove(&key);
            }
            (parent_value, Some(replacement)) => {
                if let Some(slot) = parent_value.pointer_mut(&push("", &key)) {
                    *slot = replacement;
                }
            }
            _ => continue,
        }
        repaired.push(Finding::new(
            FindingKind::Defect,
            &push(&pointer, "$ref"),
            format!("`$ref` to `{reference}`: {what}; {done}"),
        ));
    }
    findings.extend(repaired.into_iter().rev());
}

/// A `$ref` the generators cannot follow: to a place inside a component
/// (`#/components/schemas/Order/allOf/0`,
/// `#/components/responses/Invalid/content/application~1json/schema/properties/instance`),
/// under `paths` (one operation's parameter or response schema reused by another,
/// `#/paths/~1vendors~1%7Bvendor%7D/delete/parameters/0/schema`), to a reusable path item
/// (which OpenAPI 3.0 has not), or anywhere else (`#/definitions/Pet`). typify and progenitor
/// follow only `#/components/<section>/<Name>`, and panic on any other. A schema there becomes a
/// component ([`into_components`]); anything else (a parameter, a response, a path item) is
/// copied in place ([`copied_in_place`]); a component's reference spelled with `%XX` escapes
/// is written as the pointer it means ([`spelled_as_pointers`]). Each is reported; returns where
/// each schema moved into `components/schemas` came from. (A component's own `$defs` are left
/// for `components::local_definitions`, which names them its own way.)
pub(super) fn out_of_place(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    let origins = into_components(document, findings);
    copied_in_place(document, findings);
    spelled_as_pointers(document, findings);
    origins
}

/// The schema a `$ref` of [`out_of_place`] leads to moves into `components/schemas` under a
/// name read from its place (`OrderAllOf0`, `InvalidInstance`, `DisconnectVendorVendor`), a
/// `$ref` to it left where it was, and every reference to the place points to the component.
/// A place is a schema by where it sits ([`Place`]), or, where OpenAPI defines nothing
/// (`#/definitions/Pet`), because a schema refers to it. Deepest first, so that a place inside
/// another moved place is moved before its holder. A schema's `$ref` to what is not a schema
/// (a parameter) means, as JSON Schema reads an object of unknown keywords, any value: it is
/// read as that and reported as a defect.
fn into_components(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    let mut origins = Origins::new();
    let mut found = Vec::new();
    collect(
        document,
        "",
        &|reference| misplaced(document, reference).is_some(),
        &mut found,
    );
    let mut targets: Vec<String> = Vec::new();
    let mut not_schemas: Vec<(String, String, Place)> = Vec::new();
    for (pointer, reference) in found {
        let Some(target) = misplaced(document, &reference) else {
            continue;
        };
        match (place_of(&pointer), place_of(&target)) {
            (_, Place::Schema) | (Place::Schema, Place::Other)
                if document.pointer(&target).is_some_and(Value::is_object) =>
            {
                targets.push(target);
            }
            // A boolean schema there is left as it is.
            (_, Place::Schema) | (Place::Schema, Place::Other) => {}
            (Place::Schema, place) => not_schemas.push((pointer, reference, place)),
            // Not a schema: copied in place by `copied_in_place`.
            _ => {}
        }
    }
    for (pointer, reference, place) in not_schemas {
        if let Some(slot) = document.pointer_mut(&pointer) {
            *slot = json!({});
            findings.push(Finding::new(
                FindingKind::Defect,
                &push(&pointer, "$ref"),
                format!("`$ref` to `{reference}`, a {}, where a schema belongs; read as any JSON value, as JSON Schema reads an object of unknown keywords", place_name(place)),
            ));
        }
    }
    targets.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    targets.dedup();
    let mut taken = crate::contract::component_names_in_use(document);
    let mut moved: Vec<(String, String)> = Vec::new();
    for target in targets {
        let name = super::unique_name(&name_of_place(document, &target), &taken);
        taken.insert(name.clone());
        let component = push("/components/schemas", &name);
        let reference = format!("#{component}");
        let Some(slot) = document.pointer_mut(&target) else {
            continue;
        };
        let schema = std::mem::replace(slot, json!({"$ref": reference}));
        if let Some(schemas) = super::component_schemas_mut(document) {
            schemas.insert(name.clone(), schema);
        }
        let place = if target.starts_with("/components/") {
            "inside a component"
        } else {
            "outside the components"
        };
        findings.push(Finding::new(
            FindingKind::Repaired,
            &target,
            format!("a `$ref` points to this schema {place}, which the generators do not follow; it becomes the component `{name}`"),
        ));
        origins.insert(component, target.clone());
        moved.push((target, reference));
    }
    if moved.is_empty() {
        return origins;
    }
    // Collected again, since a reference inside a moved schema has moved with it; a place
    // inside another moved place is no longer there, so references are matched by their text.
    let mut referrers = Vec::new();
    collect(
        document,
        "",
        &|reference| moved.iter().any(|(place, _)| names(reference, place)),
        &mut referrers,
    );
    for (pointer, reference) in referrers {
        if let Some((_, component)) = moved.iter().find(|(place, _)| names(&reference, place))
            && let Some(Value::Object(object)) = document.pointer_mut(&pointer)
        {
            object.insert("$ref".into(), Value::String(component.clone()));
        }
    }
    origins
}

/// Whether a local `$ref` names the place at `pointer`, its fragment read as written or with
/// its `%XX` escapes decoded, whether or not the place is still there.
fn names(reference: &str, pointer: &str) -> bool {
    reference.strip_prefix('#').is_some_and(|fragment| {
        fragment == pointer
            || crate::model::percent_decoded(fragment).is_some_and(|decoded| decoded == pointer)
    })
}

/// A chain of copied references longer than this is a cycle.
const MAX_ROUNDS: usize = 16;

/// Replaces every `$ref` of [`out_of_place`] that [`into_components`] left (to a parameter,
/// response, request body or path item that is not a component) with a copy of its target,
/// repeatedly, so that a copy that is itself such a reference is resolved too; each is
/// reported. progenitor reads a copy where it stands as it would read the original.
fn copied_in_place(document: &mut Value, findings: &mut Vec<Finding>) {
    for _ in 0..MAX_ROUNDS {
        let mut found = Vec::new();
        collect(
            document,
            "",
            &|reference| misplaced(document, reference).is_some(),
            &mut found,
        );
        let mut replaced = false;
        for (pointer, reference) in found {
            let Some(target) = misplaced(document, &reference) else {
                continue;
            };
            let Some(copy) = document.pointer(&target).cloned() else {
                continue;
            };
            // A target that is itself such a reference waits for the next round.
            if copy
                .get("$ref")
                .and_then(Value::as_str)
                .is_some_and(|inner| misplaced(document, inner).is_some())
            {
                continue;
            }
            if let Some(slot) = document.pointer_mut(&pointer) {
                *slot = copy;
                replaced = true;
                findings.push(Finding::new(
                    FindingKind::Repaired,
                    &push(&pointer, "$ref"),
                    format!("a `$ref` to `#{target}`, a {} that is not a component, which progenitor cannot follow; replaced by a copy of its target", place_name(place_of(&target))),
                ));
            }
        }
        if !replaced {
            return;
        }
    }
}

/// A `$ref` to a component spelled with `%XX` escapes (`#/components/schemas/My%20Thing`):
/// typify and progenitor look the component up by the text as written, and find none; it is
/// written as the pointer it means.
fn spelled_as_pointers(document: &mut Value, findings: &mut Vec<Finding>) {
    let mut found = Vec::new();
    collect(
        document,
        "",
        &|reference| {
            crate::model::target_of(document, reference)
                .is_some_and(|target| reference.strip_prefix('#') != Some(target.as_str()))
        },
        &mut found,
    );
    for (pointer, reference) in found {
        let Some(target) = crate::model::target_of(document, &reference) else {
            continue;
        };
        if let Some(Value::Object(object)) = document.pointer_mut(&pointer) {
            object.insert("$ref".into(), Value::String(format!("#{target}")));
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(&pointer, "$ref"),
                format!("`$ref` to `{reference}`, spelled with `%` escapes, which the generators do not decode; written `#{target}`"),
            ));
        }
    }
}

/// The pointer a local `$ref` leads to when the generators cannot follow it there: any place
/// but the document itself and a component (`/components/<section>/<name>`) of a section
/// OpenAPI 3.0 has (not `pathItems`), and but a component's own `$defs`.
fn misplaced(document: &Value, reference: &str) -> Option<String> {
    let target = crate::model::target_of(document, reference)?;
    let tokens: Vec<&str> = target.split('/').collect();
    let component = tokens.len() == 4 && tokens[1] == "components" && tokens[2] != "pathItems";
    let definition = tokens.len() == 6
        && tokens[1..3] == ["components", "schemas"]
        && matches!(tokens[4], "$defs" | "definitions");
    (!target.is_empty() && !component && !definition).then_some(target)
}

/// How a finding names a [`Place`].
fn place_name(place: Place) -> &'static str {
    match place {
        Place::Schema => "schema",
        Place::Parameter => "parameter",
        Place::RequestBody => "request body",
        Place::Response => "response",
        Place::Header => "header",
        Place::MediaType => "media type",
        Place::Example => "example",
        Place::Link => "link",
        Place::Callback => "callback",
        Place::PathItem => "path item",
        Place::Operation => "operation",
        Place::Other => "place OpenAPI does not define",
    }
}

/// A component name for the schema at `pointer`: what holds it (a component's name; an
/// operation's id, else its method and path; the key below a section OpenAPI does not define),
/// then the name of each property or parameter on the way down, `Body` or `Response` for a
/// request or response body as hoisting names them, and the keyword of each other step
/// (`OrderAllOf0`, `InvalidInstance`, `PageItemsItem`, `DisconnectVendorVendor`,
/// `PostChargingLocationsBody`).
fn name_of_place(document: &Value, pointer: &str) -> String {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(crate::model::unescape)
        .collect();
    let prefix = |end: usize| {
        tokens[..end]
            .iter()
            .fold(String::new(), |pointer, token| push(&pointer, token))
    };
    let mut words: Vec<String> = Vec::new();
    let mut index = match tokens.first().map(String::as_str) {
        Some("components") => 2,
        Some("paths" | "webhooks")
            if tokens
                .get(2)
                .is_some_and(|method| crate::model::is_method(method)) =>
        {
            let id = document
                .pointer(&prefix(3))
                .and_then(|operation| operation.get("operationId"))
                .and_then(Value::as_str)
                .map_or_else(|| format!("{} {}", tokens[2], tokens[1]), str::to_owned);
            words.push(id);
            3
        }
        _ => 1,
    };
    let start = index;
    while index < tokens.len() {
        let token = tokens[index].as_str();
        match token {
            // What holds the schema, where the pointer does not say it before the loop.
            _ if index == start && words.is_empty() => {
                words.push(token.to_owned());
                index += 1;
            }
            "properties" | "patternProperties" | "$defs" | "definitions" => {
                if let Some(name) = tokens.get(index + 1) {
                    words.push(name.clone());
                }
                index += 2;
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                let position = tokens.get(index + 1).cloned().unwrap_or_default();
                words.push(format!("{token}{position}"));
                index += 2;
            }
            "items" => {
                words.push("item".into());
                index += 1;
            }
            "additionalProperties" => {
                words.push("value".into());
                index += 1;
            }
            "parameters" => {
                let name = document
                    .pointer(&prefix(index + 2))
                    .and_then(|parameter| parameter.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or("parameter");
                words.push(name.to_owned());
                index += 2;
            }
            "requestBody" => {
                words.push("body".into());
                index += 1;
            }
            "responses" => {
                let status = tokens.get(index + 1).cloned().unwrap_or_default();
                words.push(if status.starts_with('2') {
                    "response".to_owned()
                } else {
                    format!("response {status}")
                });
                index += 2;
            }
            // Containers on the way to a schema (`content`, a media type, `schema`) and a
            // status or header name say nothing a reader needs.
            "content" | "schema" | "headers" => index += if token == "content" { 2 } else { 1 },
            _ => index += 1,
        }
    }
    let name = crate::contract::typify_name(&words.join("-"));
    if name.is_empty() {
        "Schema".to_owned()
    } else {
        name
    }
}

/// 2019-09's recursive references, which 3.1's dialect (2020-12) no longer has and 3.0 never
/// had: `$recursiveRef: "#"` inside a component schema whose root says `$recursiveAnchor: true`
/// means the component itself (OpenAI's `CompoundFilter`, whose filters are filters again), so
/// it becomes a `$ref` to the component and the anchor goes, each reported as a defect. A
/// `$recursiveRef` of any other kind is left for down-levelling to report.
pub(super) fn recursive(document: &mut Value, findings: &mut Vec<Finding>) {
    const ANCHOR: &str = "$recursiveAnchor";
    const REFERENCE: &str = "$recursiveRef";
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (key, schema) in schemas.iter_mut() {
        if schema.get(ANCHOR) != Some(&Value::Bool(true)) {
            continue;
        }
        let component = push("/components/schemas", key);
        let mut found = Vec::new();
        recursive_references(schema, &component, &mut found);
        if let Some(root) = schema.as_object_mut() {
            root.remove(ANCHOR);
        }
        for pointer in found {
            let relative = &pointer[component.len()..];
            let Some(Value::Object(object)) = schema.pointer_mut(relative) else {
                continue;
            };
            object.remove(REFERENCE);
            object.insert("$ref".into(), Value::String(format!("#{component}")));
            findings.push(Finding::new(
                FindingKind::Defect,
                &push(&pointer, REFERENCE),
                format!(
                    "`$recursiveRef: \"#\"` (JSON Schema 2019-09, not 3.1's dialect) beside the component's `$recursiveAnchor`: read as a `$ref` to the component `{key}`"
                ),
            ));
        }
    }
}

/// The pointer of every schema below `value` (at `pointer`) that is `$recursiveRef: "#"`, the
/// places that hold data passed over.
fn recursive_references(value: &Value, pointer: &str, found: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            if object.get("$recursiveRef").and_then(Value::as_str) == Some("#") {
                found.push(pointer.to_owned());
            }
            for (key, inner) in object {
                if !matches!(
                    key.as_str(),
                    "example" | "examples" | "default" | "const" | "enum"
                ) {
                    recursive_references(inner, &push(pointer, key), found);
                }
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                recursive_references(inner, &format!("{pointer}/{index}"), found);
            }
        }
        _ => {}
    }
}

/// The pointer and target of every `$ref` below `value` (at `pointer`) that `wanted` picks,
/// the places that hold data, not schemas (`example`, `default`, `const`, `enum`), passed over.
/// Shared by the repairs of references that lead nowhere and of references into `paths`.
pub(super) fn collect(
    value: &Value,
    pointer: &str,
    wanted: &dyn Fn(&str) -> bool,
    found: &mut Vec<(String, String)>,
) {
    match value {
        Value::Object(object) => {
            if let Some(reference) = object.get("$ref").and_then(Value::as_str)
                && wanted(reference)
            {
                found.push((pointer.to_owned(), reference.to_owned()));
                return;
            }
            for (key, inner) in object {
                // Examples are data: a `$ref` key inside one is not a reference. A schema's
                // `default` is data too, but the `default` of `responses` is a response.
                let data = match key.as_str() {
                    "example" | "examples" | "const" | "enum" => true,
                    "default" => !pointer.ends_with("/responses"),
                    _ => false,
                };
                if data {
                    continue;
                }
                collect(inner, &push(pointer, key), wanted, found);
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                collect(inner, &format!("{pointer}/{index}"), wanted, found);
            }
        }
        _ => {}
    }
}

/// Whether a `$ref` names a place in this document (its fragment read as a JSON pointer, or
/// as one percent-encoded).
fn leads_somewhere(document: &Value, reference: &str) -> bool {
    crate::model::target_of(document, reference).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_response_is_a_referrer_not_data() {
        let place = "#/paths/~1a/get/responses/401/content/application~1json/schema";
        let body = |schema: Value| json!({"description": "d", "content": {"application/json": {"schema": schema}}});
        let mut document = json!({"paths": {"/a": {"get": {"responses": {
            "401": body(json!({"type": "object", "properties": {"id": {"type": "string"}}})),
            "429": body(json!({"$ref": place})),
            "default": body(json!({"$ref": place, "default": {"$ref": "data"}})),
        }}}}});
        let mut findings = Vec::new();
        into_components(&mut document, &mut findings);
        let responses = &document["paths"]["/a"]["get"]["responses"];
        for status in ["401", "429", "default"] {
            assert_eq!(
                responses[status]["content"]["application/json"]["schema"]["$ref"],
                "#/components/schemas/GetAResponse401",
                "{status}: {responses}"
            );
        }
        // A schema's `default` stays data.
        assert_eq!(
            responses["default"]["content"]["application/json"]["schema"]["default"],
            json!({"$ref": "data"})
        );
    }

    #[test]
    fn a_reference_inside_a_component_leads_to_a_component_of_its_own() {
        let mut document = json!({
            "paths": {"/a": {"get": {"responses": {"200": {"description": "d", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Order/allOf/0"}}}}}}}},
            "components": {
                "schemas": {
                    "Order": {"allOf": [{"type": "object", "properties": {"id": {"type": "string"}}}, {"required": ["id"]}]},
                    "Problem": {"type": "object", "properties": {
                        "instance": {"$ref": "#/components/responses/Invalid/content/application~1json/schema/properties/instance"}}},
                    "Deep": {"$ref": "#/components/responses/Invalid/content/application~1json/schema/properties/instance/properties/at"},
                },
                "responses": {"Invalid": {"description": "d", "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"instance": {"type": "object", "properties": {"at": {"type": "string"}}}}}}}}},
            }
        });
        let mut findings = Vec::new();
        into_components(&mut document, &mut findings);
        let schemas = &document["components"]["schemas"];
        assert_eq!(
            schemas["Order"]["allOf"][0],
            json!({"$ref": "#/components/schemas/OrderAllOf0"})
        );
        assert_eq!(
            schemas["OrderAllOf0"]["properties"]["id"],
            json!({"type": "string"})
        );
        assert_eq!(
            document["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]["schema"],
            json!({"$ref": "#/components/schemas/OrderAllOf0"})
        );
        // The deeper place moved first, so its holder moved with a `$ref` to it inside.
        assert_eq!(schemas["InvalidInstanceAt"], json!({"type": "string"}));
        assert_eq!(
            schemas["InvalidInstance"]["properties"]["at"],
            json!({"$ref": "#/components/schemas/InvalidInstanceAt"})
        );
        assert_eq!(
            schemas["Problem"]["properties"]["instance"],
            json!({"$ref": "#/components/schemas/InvalidInstance"})
        );
        assert_eq!(
            schemas["Deep"],
            json!({"$ref": "#/components/schemas/InvalidInstanceAt"})
        );
        assert_eq!(findings.len(), 3, "{findings:?}");
        assert!(
            findings
                .iter()
                .all(|finding| finding.kind == FindingKind::Repaired)
        );
    }

    #[test]
    fn references_outside_the_components_lead_to_components_or_copies() {
        let mut document = json!({
            "paths": {
                "/v/{id}": {"delete": {
                    "operationId": "dropV",
                    "parameters": [
                        {"name": "id", "in": "path", "schema": {"enum": ["a", "b"]}},
                        {"name": "why", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": {"200": {"description": "d", "content": {"application/json": {
                        "schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}},
                }},
                "/v": {
                    "get": {
                        "parameters": [
                            {"$ref": "#/paths/~1v~1%7Bid%7D/delete/parameters/1"},
                            {"name": "f", "in": "query", "schema": {"items": {"$ref": "#/paths/~1v~1%7Bid%7D/delete/parameters/1"}}},
                        ],
                        "responses": {"200": {"$ref": "#/paths/~1w/get/responses/200"}},
                    },
                    "post": {"requestBody": {"content": {"application/json": {
                        "schema": {"$ref": "#/paths/~1v~1%7Bid%7D/delete/responses/200/content/application~1json/schema"}}}}},
                },
                "/w": {"get": {"responses": {"200": {"$ref": "#/paths/~1v~1%7Bid%7D/delete/responses/200"}}}},
                "/x": {"$ref": "#/components/pathItems/X"},
            },
            "definitions": {"Pet": {"type": "string"}},
            "components": {
                "schemas": {
                    "Kind": {"$ref": "#/paths/~1v~1%7Bid%7D/delete/parameters/0/schema"},
                    "Pet": {"type": "object", "properties": {"me": {"$ref": "#/definitions/Pet"}}},
                    "My Thing": {"type": "string"},
                    "Spaced": {"$ref": "#/components/schemas/My%20Thing"},
                },
                "pathItems": {"X": {"get": {"responses": {"204": {"description": "d"}}}}},
            },
        });
        let mut findings = Vec::new();
        let origins = out_of_place(&mut document, &mut findings);
        let schemas = &document["components"]["schemas"];
        // The schemas are components, their places and every reference to them `$ref`s.
        assert_eq!(schemas["DropVId"], json!({"enum": ["a", "b"]}));
        assert_eq!(
            schemas["Kind"],
            json!({"$ref": "#/components/schemas/DropVId"})
        );
        assert_eq!(
            document["paths"]["/v/{id}"]["delete"]["parameters"][0]["schema"],
            json!({"$ref": "#/components/schemas/DropVId"})
        );
        assert_eq!(
            schemas["DropVResponse"]["properties"]["id"],
            json!({"type": "string"})
        );
        assert_eq!(
            document["paths"]["/v"]["post"]["requestBody"]["content"]["application/json"]["schema"],
            json!({"$ref": "#/components/schemas/DropVResponse"})
        );
        assert_eq!(schemas["Pet2"], json!({"type": "string"}));
        assert_eq!(
            schemas["Pet"]["properties"]["me"],
            json!({"$ref": "#/components/schemas/Pet2"})
        );
        assert_eq!(
            origins
                .get("/components/schemas/DropVId")
                .map(String::as_str),
            Some("/paths/~1v~1{id}/delete/parameters/0/schema")
        );
        // Anything else is copied, through a chain of copies too; the copied response refers to
        // the component its schema became.
        let get = &document["paths"]["/v"]["get"];
        assert_eq!(
            get["parameters"][0],
            json!({"name": "why", "in": "query", "schema": {"type": "string"}})
        );
        assert_eq!(
            get["responses"]["200"]["content"]["application/json"]["schema"],
            json!({"$ref": "#/components/schemas/DropVResponse"})
        );
        assert_eq!(
            document["paths"]["/x"],
            json!({"get": {"responses": {"204": {"description": "d"}}}})
        );
        // A parameter where a schema belongs reads any value; a percent-encoded component's
        // reference is written as the pointer it means.
        assert_eq!(get["parameters"][1]["schema"]["items"], json!({}));
        assert_eq!(
            schemas["Spaced"],
            json!({"$ref": "#/components/schemas/My Thing"})
        );
        assert!(!document.to_string().contains("#/paths/"));
        assert_eq!(
            crate::normalize::places(&findings),
            [
                (
                    FindingKind::Defect,
                    "/paths/~1v/get/parameters/1/schema/items/$ref"
                ),
                (
                    FindingKind::Repaired,
                    "/paths/~1v~1{id}/delete/responses/200/content/application~1json/schema"
                ),
                (
                    FindingKind::Repaired,
                    "/paths/~1v~1{id}/delete/parameters/0/schema"
                ),
                (FindingKind::Repaired, "/definitions/Pet"),
                (FindingKind::Repaired, "/paths/~1v/get/parameters/0/$ref"),
                (FindingKind::Repaired, "/paths/~1w/get/responses/200/$ref"),
                (FindingKind::Repaired, "/paths/~1x/$ref"),
                (FindingKind::Repaired, "/paths/~1v/get/responses/200/$ref"),
                (FindingKind::Repaired, "/components/schemas/Spaced/$ref"),
            ]
        );
    }

    #[test]
    fn a_recursive_reference_to_its_anchored_component_is_a_ref() {
        let mut document = json!({"components": {"schemas": {
            "Filter": {"$recursiveAnchor": true, "type": "object", "properties": {
                "filters": {"type": "array", "items": {"oneOf": [
                    {"$ref": "#/components/schemas/Leaf"}, {"$recursiveRef": "#"}]}}},
                "example": {"$recursiveRef": "#"}},
            "Unanchored": {"properties": {"next": {"$recursiveRef": "#"}}},
            "Leaf": {"type": "string"}
        }}});
        let mut findings = Vec::new();
        recursive(&mut document, &mut findings);
        let filter = &document["components"]["schemas"]["Filter"];
        assert!(filter.get("$recursiveAnchor").is_none());
        assert_eq!(
            filter["properties"]["filters"]["items"]["oneOf"][1],
            json!({"$ref": "#/components/schemas/Filter"})
        );
        assert_eq!(filter["example"], json!({"$recursiveRef": "#"}), "data");
        // Without the anchor the reference means the document, which is not a schema: it is
        // left for down-levelling to report.
        assert_eq!(
            document["components"]["schemas"]["Unanchored"]["properties"]["next"],
            json!({"$recursiveRef": "#"})
        );
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(
            findings[0].pointer,
            "/components/schemas/Filter/properties/filters/items/oneOf/1/$recursiveRef"
        );
    }

    #[test]
    fn each_reference_to_nothing_is_degraded_where_it_is() {
        let mut document = json!({
            "paths": {"/a": {"get": {
                "parameters": [{"$ref": "#/components/parameters/Gone"}, {"name": "q", "in": "query"}],
                "requestBody": {"$ref": "other.yaml#/Body"},
                "responses": {"200": {"$ref": "#/components/responses/Gone"}},
            }}},
            "components": {"schemas": {"Thing": {"properties": {
                "gone": {"$ref": "#/components/schemas/Gone"},
                "here": {"$ref": "#/components/schemas/Thing"},
                "spaced": {"$ref": "#/components/schemas/My%20Thing"},
            }, "example": {"$ref": "not a reference"}}, "My Thing": {}}},
        });
        let mut findings = Vec::new();
        dangling(&mut document, &mut findings);
        assert_eq!(
            document["paths"]["/a"]["get"]["parameters"],
            json!([{"name": "q", "in": "query"}])
        );
        assert!(document["paths"]["/a"]["get"].get("requestBody").is_none());
        assert!(document["paths"]["/a"]["get"]["responses"]["200"]["description"].is_string());
        let properties = &document["components"]["schemas"]["Thing"]["properties"];
        assert_eq!(properties["gone"], json!({}));
        assert_eq!(
            properties["here"],
            json!({"$ref": "#/components/schemas/Thing"})
        );
        assert_eq!(
            properties["spaced"],
            json!({"$ref": "#/components/schemas/My%20Thing"})
        );
        let pointers: Vec<&str> = findings
            .iter()
            .map(|finding| finding.pointer.as_str())
            .collect();
        assert_eq!(
            pointers,
            [
                "/paths/~1a/get/parameters/0/$ref",
                "/paths/~1a/get/requestBody/$ref",
                "/paths/~1a/get/responses/200/$ref",
                "/components/schemas/Thing/properties/gone/$ref",
            ]
        );
        assert!(
            findings
                .iter()
                .all(|finding| finding.kind == FindingKind::Defect)
        );
    }
}
