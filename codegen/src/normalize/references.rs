//! `$ref`s that lead nowhere: a local reference to a place the document does not have, a
//! reference into another document (a URL), which this generator does not fetch, or into a
//! file that `bundle` was not given or that has no such place. typify and
//! progenitor panic on the first they meet, which would leave out whatever holds it; here each
//! is a defect reported at its own pointer, and only the reference itself is degraded: a
//! schema becomes any JSON value, a parameter, header, example or request body is left out,
//! and a response keeps its status without a body.

use serde_json::{Value, json};

use super::{Finding, FindingKind};
use crate::model::push;

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

/// A `$ref` to a schema inside a component (`#/components/schemas/Order/allOf/0`,
/// `#/components/responses/Invalid/content/application~1json/schema/properties/instance`):
/// typify and progenitor follow only `#/components/schemas/<Name>`, and panic on any other. The
/// schema there moves into `components/schemas` under a name read from its place
/// (`OrderAllOf0`, `InvalidInstance`), a `$ref` to it left where it was, and every reference to
/// the place points to the component; each move is reported. Deepest first, so that a place
/// inside another moved place is moved before its holder. (A reference into `paths` is copied
/// by `paths` before this runs.)
pub(super) fn into_components(document: &mut Value, findings: &mut Vec<Finding>) {
    let mut found = Vec::new();
    collect(
        document,
        "",
        &|reference| inside_a_component(reference).is_some(),
        &mut found,
    );
    let mut targets: Vec<String> = found
        .iter()
        .filter_map(|(_, reference)| inside_a_component(reference))
        .filter(|target| {
            document
                .pointer(target)
                .is_some_and(|schema| schema.is_object() && is_schema_place(target))
        })
        .collect();
    targets.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    targets.dedup();
    let mut taken: std::collections::BTreeSet<String> = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|schemas| schemas.keys().cloned())
        .collect();
    let mut moved: Vec<(String, String)> = Vec::new();
    for target in targets {
        let name = super::unique_name(&name_of_place(&target), &taken);
        taken.insert(name.clone());
        let reference = format!("#/components/schemas/{name}");
        let Some(slot) = document.pointer_mut(&target) else {
            continue;
        };
        let schema = std::mem::replace(slot, json!({"$ref": reference}));
        if let Some(schemas) = super::component_schemas_mut(document) {
            schemas.insert(name.clone(), schema);
        }
        findings.push(Finding::new(
            FindingKind::Repaired,
            &target,
            format!("a `$ref` points to this schema inside a component, which the generators do not follow; it becomes the component `{name}`"),
        ));
        moved.push((target, reference));
    }
    if moved.is_empty() {
        return;
    }
    let mut referrers = Vec::new();
    collect(
        document,
        "",
        &|reference| inside_a_component(reference).is_some(),
        &mut referrers,
    );
    for (pointer, reference) in referrers {
        let Some(target) = inside_a_component(&reference) else {
            continue;
        };
        if let Some((_, component)) = moved.iter().find(|(place, _)| *place == target)
            && let Some(Value::Object(object)) = document.pointer_mut(&pointer)
        {
            object.insert("$ref".into(), Value::String(component.clone()));
        }
    }
}

/// The pointer a local reference leads to when it is inside a component (below
/// `/components/<section>/<name>`), its `%XX` escapes decoded.
fn inside_a_component(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let fragment = crate::model::percent_decoded(fragment).unwrap_or_else(|| fragment.to_owned());
    let depth = fragment.split('/').count();
    (fragment.starts_with("/components/") && depth > 4).then_some(fragment)
}

/// Whether a pointer inside a component names a schema: anywhere below a component schema, or
/// below the `schema` of a parameter, header or media type.
fn is_schema_place(pointer: &str) -> bool {
    pointer.starts_with("/components/schemas/") || pointer.split('/').any(|token| token == "schema")
}

/// A component name for the schema at `pointer`: the component's name, then the name of each
/// property on the way down and the keyword of each other step (`OrderAllOf0`,
/// `InvalidInstance`, `PageItemsItem`).
fn name_of_place(pointer: &str) -> String {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(3)
        .map(crate::model::unescape)
        .collect();
    let mut words: Vec<String> = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index].as_str();
        match token {
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
            // Containers on the way to a schema (`content`, a media type, `schema`) and a
            // status, header or parameter name say nothing a reader needs.
            "content" | "schema" | "headers" => index += if token == "content" { 2 } else { 1 },
            _ if index == 0 => {
                words.push(token.to_owned());
                index += 1;
            }
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
                // Examples are data: a `$ref` key inside one is not a reference.
                if matches!(
                    key.as_str(),
                    "example" | "examples" | "default" | "const" | "enum"
                ) {
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
    let Some(fragment) = reference.strip_prefix('#') else {
        return false;
    };
    document.pointer(fragment).is_some()
        || crate::model::percent_decoded(fragment)
            .is_some_and(|decoded| document.pointer(&decoded).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

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
