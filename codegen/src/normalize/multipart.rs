//! **Multipart request bodies**, which progenitor refuses, handed on as a typed form that emit
//! sends as multipart, every binary string in it a `$ref` to one file component (see
//! [`multipart_bodies`]).

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{Finding, FindingKind, unique_name};
use crate::model::push;

/// Request bodies sent as `multipart/form-data`, which progenitor refuses, are handed on as a
/// typed form: the media type becomes `application/x-www-form-urlencoded` and the body is
/// marked [`crate::model::MULTIPART`], so progenitor types the body from its schema and emit
/// sends it as multipart; every binary string the body's schema reaches (through `$ref`s too)
/// becomes a `$ref` to one component marked [`crate::model::FORM_FILE`], which emit gives the
/// type `FormFile` (bytes, file name, media type). A part's `encoding` media type goes on the
/// body as [`crate::model::PART_MEDIA_TYPES`], which emit sends the part with; its own headers
/// are not sent, and are reported.
pub(super) fn multipart_bodies(document: &mut Value, findings: &mut Vec<Finding>) {
    const MULTIPART: &str = "multipart/form-data";
    const FORM: &str = "application/x-www-form-urlencoded";
    let mut bodies: Vec<String> = Vec::new();
    for operation in crate::model::Document::new(document).operations() {
        let Some(body) = operation.value.get("requestBody") else {
            continue;
        };
        let pointer = match body.get("$ref").and_then(Value::as_str) {
            Some(reference) => match reference.strip_prefix('#') {
                Some(target) => target.to_owned(),
                None => continue,
            },
            None => push(&operation.pointer, "requestBody"),
        };
        if !bodies.contains(&pointer) {
            bodies.push(pointer);
        }
    }
    // The file component's name, and whether a body uses it.
    let mut file_component: Option<(String, bool)> = None;
    for pointer in bodies {
        let Some(body) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let Some(content) = body.get_mut("content").and_then(Value::as_object_mut) else {
            continue;
        };
        let is_multipart = content.len() == 1
            && content
                .keys()
                .all(|media_type| media_type.split(';').next().map(str::trim) == Some(MULTIPART));
        if !is_multipart {
            continue;
        }
        let Some(media_type) = content.keys().next().cloned() else {
            continue;
        };
        let Some(mut media) = content.remove(&media_type) else {
            continue;
        };
        let media_pointer = push(&push(&pointer, "content"), &media_type);
        let encoding = media
            .as_object_mut()
            .and_then(|media| media.remove("encoding"));
        let media_types = part_media_types(encoding, &media_pointer, findings);
        content.insert(FORM.to_owned(), media);
        body.insert(crate::model::MULTIPART.to_owned(), Value::Bool(true));
        if !media_types.is_empty() {
            body.insert(
                crate::model::PART_MEDIA_TYPES.to_owned(),
                Value::Object(media_types),
            );
        }
        let schema_pointer = push(&push(&push(&pointer, "content"), FORM), "schema");
        let name = file_component
            .get_or_insert_with(|| (form_file_name(document), false))
            .0
            .clone();
        if replace_binary_strings(document, &schema_pointer, &name)
            && let Some(used) = file_component.as_mut()
        {
            used.1 = true;
        }
    }
    let Some((name, true)) = file_component else {
        return;
    };
    if let Some(schemas) = super::component_schemas_mut(document) {
        schemas.insert(
            name,
            json!({
                "type": "string",
                "description": "A file sent as one part of a multipart form.",
                crate::model::FORM_FILE: true,
            }),
        );
    }
}

/// The media type each part's `encoding` gives it (`contentType`; of a list, such as
/// `image/png, image/jpeg`, the first, since a part is sent with one), by part name. A part's
/// own `headers` are not sent, and are reported; `style`, `explode` and `allowReserved` apply to
/// URL-encoded forms only, so a multipart form ignores them, as OpenAPI says.
fn part_media_types(
    encoding: Option<Value>,
    media_pointer: &str,
    findings: &mut Vec<Finding>,
) -> serde_json::Map<String, Value> {
    let mut media_types = serde_json::Map::new();
    let Some(Value::Object(parts)) = encoding else {
        return media_types;
    };
    let encoding_pointer = push(media_pointer, "encoding");
    for (name, part) in parts {
        let first = part
            .get("contentType")
            .and_then(Value::as_str)
            .and_then(|listed| listed.split(',').map(str::trim).find(|one| !one.is_empty()));
        if let Some(media_type) = first {
            media_types.insert(name.clone(), Value::String(media_type.to_owned()));
        }
        if part
            .get("headers")
            .and_then(Value::as_object)
            .is_some_and(|headers| !headers.is_empty())
        {
            findings.push(Finding::new(
                FindingKind::Unenforced,
                &push(&push(&encoding_pointer, &name), "headers"),
                format!("the part `{name}`'s own headers are not sent"),
            ));
        }
    }
    media_types
}

/// The component name of the file type: `FormFile`, unless a component takes it.
fn form_file_name(document: &Value) -> String {
    unique_name(
        "FormFile",
        &crate::contract::component_names_in_use(document),
    )
}

/// Replaces every binary string (`type: string, format: binary`) the schema at `start` reaches,
/// through `$ref`s to components too, by a `$ref` to the component `name`; whether it found one.
fn replace_binary_strings(document: &mut Value, start: &str, name: &str) -> bool {
    let mut replaced = false;
    let reference = json!({"$ref": format!("#/components/schemas/{name}")});
    let mut pending = vec![start.to_owned()];
    let mut seen = BTreeSet::new();
    while let Some(pointer) = pending.pop() {
        if !seen.insert(pointer.clone()) {
            continue;
        }
        let Some(schema) = document.pointer_mut(&pointer) else {
            continue;
        };
        let is_binary = schema.get("format").and_then(Value::as_str) == Some("binary")
            && schema.get("type").is_none_or(|kind| kind == "string");
        if is_binary {
            // A bare `$ref`: a sibling (even a description) would make it `allOf: [$ref]`, a
            // type of its own around the file.
            *schema = reference.clone();
            replaced = true;
            continue;
        }
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix('#'))
        {
            pending.push(target.to_owned());
        }
        for (suffix, _) in crate::model::subschemas(schema) {
            pending.push(format!("{pointer}{suffix}"));
        }
    }
    replaced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::places;

    /// A document of one `POST /upload` whose request body is `body`.
    fn upload(body: Value) -> Value {
        json!({"paths": {"/upload": {"post": {"requestBody": body, "responses": {"204": {"description": "d"}}}}}})
    }

    fn file_reference(name: &str) -> Value {
        json!({"$ref": format!("#/components/schemas/{name}")})
    }

    fn file_component() -> Value {
        json!({
            "type": "string",
            "description": "A file sent as one part of a multipart form.",
            "x-form-file": true,
        })
    }

    #[test]
    fn a_multipart_body_becomes_a_form_marked_multipart() {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        let mut document =
            upload(json!({"content": {"multipart/form-data": {"schema": schema.clone()}}}));
        let mut findings = Vec::new();
        multipart_bodies(&mut document, &mut findings);
        assert_eq!(
            document,
            upload(json!({
                "content": {"application/x-www-form-urlencoded": {"schema": schema}},
                "x-multipart": true,
            }))
        );
        assert!(findings.is_empty());
    }

    #[test]
    fn a_multipart_media_type_with_parameters_is_a_form_too() {
        let mut document = upload(
            json!({"content": {"multipart/form-data; charset=utf-8": {"schema": {"type": "object"}}}}),
        );
        multipart_bodies(&mut document, &mut Vec::new());
        assert_eq!(
            document,
            upload(json!({
                "content": {"application/x-www-form-urlencoded": {"schema": {"type": "object"}}},
                "x-multipart": true,
            }))
        );
    }

    #[test]
    fn every_binary_string_becomes_a_reference_to_one_file_component() {
        let mut document = upload(json!({"content": {"multipart/form-data": {"schema": {
            "type": "object",
            "properties": {
                "file": {"type": "string", "format": "binary", "description": "The file."},
                "more": {"type": "array", "items": {"format": "binary"}},
                "name": {"type": "string"},
            },
        }}}}));
        multipart_bodies(&mut document, &mut Vec::new());
        assert_eq!(
            document["paths"]["/upload"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
                ["schema"],
            json!({
                "type": "object",
                "properties": {
                    "file": file_reference("FormFile"),
                    "more": {"type": "array", "items": file_reference("FormFile")},
                    "name": {"type": "string"},
                },
            })
        );
        assert_eq!(
            document["components"],
            json!({"schemas": {"FormFile": file_component()}})
        );
    }

    #[test]
    fn binary_strings_behind_references_are_replaced_too() {
        let mut document = upload(
            json!({"content": {"multipart/form-data": {"schema": file_reference("Upload")}}}),
        );
        document["components"] = json!({"schemas": {"Upload": {
            "type": "object",
            "properties": {"file": {"type": "string", "format": "binary"}, "self": file_reference("Upload")},
        }}});
        multipart_bodies(&mut document, &mut Vec::new());
        assert_eq!(
            document["components"]["schemas"],
            json!({
                "Upload": {
                    "type": "object",
                    "properties": {"file": file_reference("FormFile"), "self": file_reference("Upload")},
                },
                "FormFile": file_component(),
            })
        );
    }

    #[test]
    fn the_file_component_takes_a_name_no_type_has() {
        let mut document = upload(json!({"content": {"multipart/form-data": {"schema": {
            "type": "object",
            "properties": {"file": {"type": "string", "format": "binary"}},
        }}}}));
        // typify would name this component's type `FormFile`.
        document["components"] = json!({"schemas": {"form_file": {"type": "integer"}}});
        multipart_bodies(&mut document, &mut Vec::new());
        assert_eq!(
            document["components"]["schemas"],
            json!({"form_file": {"type": "integer"}, "FormFile2": file_component()})
        );
        assert_eq!(
            document["paths"]["/upload"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
                ["schema"]["properties"]["file"],
            file_reference("FormFile2")
        );
    }

    #[test]
    fn the_parts_media_types_are_handed_on_and_their_headers_reported() {
        let mut document = upload(json!({"content": {"multipart/form-data": {
            "schema": {"type": "object"},
            "encoding": {
                "meta": {"contentType": "application/json"},
                "image": {"contentType": "image/png, image/jpeg"},
                "note": {"headers": {"X-Note": {"schema": {"type": "string"}}}, "style": "form"},
            },
        }}}));
        let mut findings = Vec::new();
        multipart_bodies(&mut document, &mut findings);
        let body = &document["paths"]["/upload"]["post"]["requestBody"];
        assert_eq!(
            body["content"],
            json!({"application/x-www-form-urlencoded": {"schema": {"type": "object"}}})
        );
        assert_eq!(
            body["x-part-media-types"],
            json!({"meta": "application/json", "image": "image/png"})
        );
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Unenforced,
                "/paths/~1upload/post/requestBody/content/multipart~1form-data/encoding/note/headers"
            )]
        );
    }

    #[test]
    fn a_shared_request_body_is_handed_on_once_where_it_is_defined() {
        let shared = json!({"$ref": "#/components/requestBodies/Upload"});
        let mut document = json!({
            "paths": {
                "/a": {"post": {"requestBody": shared.clone()}},
                "/b": {"put": {"requestBody": shared.clone()}},
            },
            "components": {"requestBodies": {"Upload": {"content": {"multipart/form-data": {
                "schema": {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}},
                "encoding": {"file": {"contentType": "image/png"}},
            }}}}},
        });
        let mut findings = Vec::new();
        multipart_bodies(&mut document, &mut findings);
        assert_eq!(document["paths"]["/a"]["post"]["requestBody"], shared);
        assert_eq!(document["paths"]["/b"]["put"]["requestBody"], shared);
        assert_eq!(
            document["components"],
            json!({
                "requestBodies": {"Upload": {
                    "content": {"application/x-www-form-urlencoded": {
                        "schema": {"type": "object", "properties": {"file": file_reference("FormFile")}},
                    }},
                    "x-multipart": true,
                    "x-part-media-types": {"file": "image/png"},
                }},
                "schemas": {"FormFile": file_component()},
            })
        );
        assert!(places(&findings).is_empty());
    }

    #[test]
    fn a_body_with_another_media_type_beside_multipart_is_left_alone() {
        let original = upload(json!({"content": {
            "multipart/form-data": {"schema": {"type": "object"}},
            "application/json": {"schema": {"type": "object"}},
        }}));
        let mut document = original.clone();
        let mut findings = Vec::new();
        multipart_bodies(&mut document, &mut findings);
        assert_eq!(document, original);
        assert!(findings.is_empty());
    }
}
