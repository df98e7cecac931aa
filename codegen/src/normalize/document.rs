//! What sits outside paths and schemas. An OpenAPI 3.0 document is read as 3.1 (`nullable`
//! becomes a `null` type, boolean exclusive bounds become numbers), and so is a 3.1
//! description's schema still spelled in 3.0 (a defect). **A missing `info.title` or
//! `info.version`** (both required) is read as "the API" and "0.0.0", and reported as a defect.
//! Reusable path items (copied into the paths that refer to them by then), the license
//! identifier and the dialect are dropped and reported; so are callbacks, which no generator
//! reads and openapiv3 cannot read behind a `$ref`.

use serde_json::{Map, Value, json};

use super::schemas::{ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS};
use super::{Finding, FindingKind};
use crate::model::{is_method, push};

/// The title a description without `info.title` is read with.
pub(crate) const UNTITLED: &str = "the API";

/// What sits outside paths and schemas: the version, the title and version in `info`,
/// the license identifier, the dialect and reusable path items.
pub(super) fn document_level(document: &mut Value, findings: &mut Vec<Finding>) {
    let Some(root) = document.as_object_mut() else {
        return;
    };
    let version = root
        .get("openapi")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if version.starts_with("3.0.") {
        root.insert("openapi".into(), json!("3.1.0"));
        findings.push(Finding::new(
            FindingKind::Repaired,
            "/openapi",
            format!("OpenAPI {version} read as 3.1: `nullable` becomes a `null` type, boolean exclusive bounds become numbers"),
        ));
        let locations = crate::model::schema_locations(document);
        for pointer in locations {
            if let Some(schema) = document.pointer_mut(&pointer) {
                up_level(schema);
            }
        }
    } else {
        // A 3.1 description that still spells a schema in 3.0 (`nullable`, a boolean
        // `exclusiveMinimum`) means what 3.0 means by it.
        for pointer in crate::model::schema_locations(document) {
            stray_three_zero(document, &pointer, findings);
        }
    }
    let Some(root) = document.as_object_mut() else {
        return;
    };
    // `info.title` and `info.version` are required; a description without them is still
    // generated, under a neutral title (the crate's docs read "Client for the API").
    if !root.get("info").is_some_and(Value::is_object) {
        root.insert("info".into(), Value::Object(Map::new()));
    }
    if let Some(info) = root.get_mut("info").and_then(Value::as_object_mut) {
        for (key, stand_in) in [("title", UNTITLED), ("version", "0.0.0")] {
            if !info.get(key).is_some_and(Value::is_string) {
                info.insert(key.into(), Value::String(stand_in.into()));
                findings.push(Finding::new(
                    FindingKind::Defect,
                    &format!("/info/{key}"),
                    format!("missing or not a string, though required; read as \"{stand_in}\""),
                ));
            }
        }
    }
    if root.remove("jsonSchemaDialect").is_some() {
        findings.push(Finding::new(
            FindingKind::Repaired,
            "/jsonSchemaDialect",
            "dropped; schemas are read as the OpenAPI 3.1 default dialect",
        ));
    }
    if let Some(license) = root
        .get_mut("info")
        .and_then(|info| info.get_mut("license"))
        .and_then(Value::as_object_mut)
        && license.remove("identifier").is_some()
    {
        findings.push(Finding::new(
            FindingKind::Repaired,
            "/info/license/identifier",
            "the SPDX identifier has no OpenAPI 3.0 counterpart; dropped",
        ));
    }
    // Every path that refers to a reusable path item holds a copy of it by now (`references`),
    // so dropping them loses nothing.
    if let Some(components) = root.get_mut("components").and_then(Value::as_object_mut)
        && let Some(Value::Object(items)) = components.remove("pathItems")
    {
        for name in items.keys() {
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push("/components/pathItems", name),
                "reusable path items have no OpenAPI 3.0 counterpart; dropped, each path that refers to one holding a copy of it",
            ));
        }
    }
    callbacks(document, findings);
}

/// Drops every callback (an operation's, and `components/callbacks`), each reported as left
/// out: they are requests the API sends, which progenitor generates nothing for, and openapiv3
/// reads an operation's callback only written out, refusing the whole document at a `$ref` to
/// `components/callbacks` (which OpenAPI allows); their schemas are neither repaired nor
/// down-levelled, so a 3.1 schema in one would refuse it too.
fn callbacks(document: &mut Value, findings: &mut Vec<Finding>) {
    for (path, item) in document
        .get_mut("paths")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flatten()
    {
        for (method, operation) in item.as_object_mut().into_iter().flatten() {
            if !is_method(method) {
                continue;
            }
            let Some(Value::Object(callbacks)) = operation
                .as_object_mut()
                .and_then(|operation| operation.remove("callbacks"))
            else {
                continue;
            };
            let at = push(&push(&push("/paths", path), method), "callbacks");
            for name in callbacks.keys() {
                findings.push(Finding::new(
                    FindingKind::Skipped,
                    &push(&at, name),
                    "a callback (a request the API sends) is not generated",
                ));
            }
        }
    }
    if let Some(Value::Object(callbacks)) = document
        .get_mut("components")
        .and_then(Value::as_object_mut)
        .and_then(|components| components.remove("callbacks"))
    {
        for name in callbacks.keys() {
            findings.push(Finding::new(
                FindingKind::Skipped,
                &push("/components/callbacks", name),
                "a reusable callback (a request the API sends) is not generated",
            ));
        }
    }
}

/// Reads the schema at `pointer` and below it in 3.0's dialect from the first schema that uses
/// a keyword only 3.0 has (a defect of a 3.1 description), reporting each such schema.
fn stray_three_zero(document: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(schema) = document.pointer_mut(pointer) else {
        return;
    };
    let three_zero = schema.as_object().and_then(|object| {
        ["nullable", "exclusiveMinimum", "exclusiveMaximum"]
            .into_iter()
            .find(|keyword| object.get(*keyword).is_some_and(Value::is_boolean))
    });
    if let Some(keyword) = three_zero {
        up_level(schema);
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, keyword),
            format!(
                "`{keyword}` as OpenAPI 3.0 writes it, in a 3.1 description; read as 3.0 means it"
            ),
        ));
        return;
    }
    let children: Vec<String> = crate::model::subschemas(schema)
        .into_iter()
        .map(|(suffix, _)| format!("{pointer}{suffix}"))
        .collect();
    for child in children {
        stray_three_zero(document, &child, findings);
    }
}

/// OpenAPI 3.0's schema dialect to 3.1's, on `schema` and every subschema.
fn up_level(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if object.remove("nullable") == Some(Value::Bool(true)) {
        match object.get("type").cloned() {
            Some(Value::String(kind)) => {
                object.insert("type".into(), json!([kind, "null"]));
            }
            _ if object.contains_key("$ref") => {
                let reference = object.remove("$ref").unwrap_or_default();
                object.insert(
                    "anyOf".into(),
                    json!([{"$ref": reference}, {"type": "null"}]),
                );
            }
            _ => {}
        }
        if let Some(Value::Array(values)) = object.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        match object.get(flag) {
            Some(Value::Bool(true)) => {
                if let Some(value) = object.remove(bound) {
                    object.insert(flag.into(), value);
                } else {
                    object.remove(flag);
                }
            }
            Some(Value::Bool(false)) => {
                object.remove(flag);
            }
            _ => {}
        }
    }
    for keyword in ONE_SCHEMA {
        if let Some(sub) = object.get_mut(*keyword) {
            up_level(sub);
        }
    }
    for keyword in SCHEMA_LISTS {
        for sub in object
            .get_mut(*keyword)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            up_level(sub);
        }
    }
    for keyword in SCHEMA_MAPS {
        for sub in object
            .get_mut(*keyword)
            .and_then(Value::as_object_mut)
            .into_iter()
            .flat_map(|map| map.values_mut())
        {
            up_level(sub);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::places;

    #[test]
    fn a_three_zero_document_is_read_as_three_one() {
        let mut document = json!({
            "openapi": "3.0.3",
            "info": {"title": "T", "version": "1"},
            "paths": {"/a": {"get": {
                "parameters": [{"name": "n", "in": "query", "schema": {"type": "integer", "nullable": true}}],
                "responses": {},
            }}},
            "components": {"schemas": {"Count": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}},
        });
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(
            document,
            json!({
                "openapi": "3.1.0",
                "info": {"title": "T", "version": "1"},
                "paths": {"/a": {"get": {
                    "parameters": [{"name": "n", "in": "query", "schema": {"type": ["integer", "null"]}}],
                    "responses": {},
                }}},
                "components": {"schemas": {"Count": {"type": "integer", "exclusiveMinimum": 0}}},
            })
        );
        assert_eq!(places(&findings), [(FindingKind::Repaired, "/openapi")]);
    }

    #[test]
    fn a_nullable_type_gains_null_and_a_nullable_enum_the_null_value() {
        let mut schema = json!({"type": "string", "enum": ["a", "b"], "nullable": true});
        up_level(&mut schema);
        assert_eq!(
            schema,
            json!({"type": ["string", "null"], "enum": ["a", "b", null]})
        );
    }

    #[test]
    fn a_nullable_reference_becomes_a_union_with_null() {
        let mut schema = json!({"$ref": "#/components/schemas/Thing", "nullable": true});
        up_level(&mut schema);
        assert_eq!(
            schema,
            json!({"anyOf": [{"$ref": "#/components/schemas/Thing"}, {"type": "null"}]})
        );
    }

    #[test]
    fn a_false_nullable_is_dropped() {
        let mut schema = json!({"type": "string", "nullable": false});
        up_level(&mut schema);
        assert_eq!(schema, json!({"type": "string"}));
    }

    #[test]
    fn boolean_exclusive_bounds_become_numbers() {
        let mut schema = json!({
            "type": "number",
            "minimum": 1,
            "exclusiveMinimum": true,
            "maximum": 9,
            "exclusiveMaximum": false,
        });
        up_level(&mut schema);
        assert_eq!(
            schema,
            json!({"type": "number", "exclusiveMinimum": 1, "maximum": 9})
        );
    }

    #[test]
    fn a_true_exclusive_bound_without_its_bound_is_dropped() {
        let mut schema = json!({"type": "integer", "exclusiveMaximum": true});
        up_level(&mut schema);
        assert_eq!(schema, json!({"type": "integer"}));
    }

    #[test]
    fn up_levelling_reaches_every_subschema() {
        let mut schema = json!({
            "type": "object",
            "properties": {"a": {"type": "string", "nullable": true}},
            "additionalProperties": {"type": "integer", "nullable": true},
            "items": {"type": "boolean", "nullable": true},
            "anyOf": [{"type": "number", "nullable": true}],
        });
        up_level(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {"a": {"type": ["string", "null"]}},
                "additionalProperties": {"type": ["integer", "null"]},
                "items": {"type": ["boolean", "null"]},
                "anyOf": [{"type": ["number", "null"]}],
            })
        );
    }

    #[test]
    fn a_three_one_schema_spelled_in_three_zero_is_read_as_three_zero_and_reported() {
        let mut document = json!({
            "openapi": "3.1.0",
            "info": {"title": "T", "version": "1"},
            "components": {"schemas": {
                "Thing": {"type": "object", "properties": {
                    "a": {"type": "string", "nullable": true},
                    "b": {"type": "integer", "exclusiveMinimum": 3},
                }},
            }},
        });
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(document["openapi"], json!("3.1.0"));
        assert_eq!(
            document["components"]["schemas"]["Thing"],
            json!({"type": "object", "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"type": "integer", "exclusiveMinimum": 3},
            }})
        );
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Defect,
                "/components/schemas/Thing/properties/a/nullable"
            )]
        );
    }

    #[test]
    fn a_stray_three_zero_schema_is_reported_once_and_read_as_three_zero_below_it() {
        let mut document = json!({
            "openapi": "3.1.0",
            "info": {"title": "T", "version": "1"},
            "components": {"schemas": {
                "Range": {
                    "type": "object",
                    "nullable": true,
                    "properties": {"low": {"type": "number", "minimum": 0, "exclusiveMinimum": true}},
                },
            }},
        });
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(
            document["components"]["schemas"]["Range"],
            json!({
                "type": ["object", "null"],
                "properties": {"low": {"type": "number", "exclusiveMinimum": 0}},
            })
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Defect, "/components/schemas/Range/nullable")]
        );
    }

    #[test]
    fn a_missing_title_and_version_are_read_as_stand_ins_and_reported() {
        let mut document = json!({"openapi": "3.1.0"});
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(
            document,
            json!({"openapi": "3.1.0", "info": {"title": "the API", "version": "0.0.0"}})
        );
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Defect, "/info/title"),
                (FindingKind::Defect, "/info/version"),
            ]
        );
    }

    #[test]
    fn a_version_that_is_not_a_string_is_read_as_the_stand_in() {
        let mut document = json!({"openapi": "3.1.0", "info": {"title": "T", "version": 2}});
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(document["info"], json!({"title": "T", "version": "0.0.0"}));
        assert_eq!(places(&findings), [(FindingKind::Defect, "/info/version")]);
    }

    #[test]
    fn the_dialect_and_the_license_identifier_are_dropped_and_reported() {
        let mut document = json!({
            "openapi": "3.1.0",
            "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
            "info": {"title": "T", "version": "1", "license": {"name": "MIT", "identifier": "MIT"}},
        });
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(
            document,
            json!({
                "openapi": "3.1.0",
                "info": {"title": "T", "version": "1", "license": {"name": "MIT"}},
            })
        );
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Repaired, "/jsonSchemaDialect"),
                (FindingKind::Repaired, "/info/license/identifier"),
            ]
        );
    }

    #[test]
    fn reusable_path_items_and_callbacks_are_dropped_and_each_reported() {
        let mut document = json!({
            "openapi": "3.1.0",
            "info": {"title": "T", "version": "1"},
            "paths": {"/a": {"post": {
                "callbacks": {"done": {"$ref": "#/components/callbacks/Done"}},
                "responses": {"204": {"description": "d"}},
            }}},
            "components": {
                "pathItems": {"Shared": {"get": {}}},
                "callbacks": {"Done": {"{$request.body#/url}": {"post": {}}}},
                "schemas": {"Thing": {"type": "string"}},
            },
        });
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(
            document["components"],
            json!({"schemas": {"Thing": {"type": "string"}}})
        );
        assert_eq!(
            document["paths"]["/a"]["post"],
            json!({"responses": {"204": {"description": "d"}}})
        );
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Repaired, "/components/pathItems/Shared"),
                (FindingKind::Skipped, "/paths/~1a/post/callbacks/done"),
                (FindingKind::Skipped, "/components/callbacks/Done"),
            ]
        );
    }

    #[test]
    fn a_document_that_is_not_an_object_is_left_alone() {
        let mut document = json!(["not", "a", "document"]);
        let mut findings = Vec::new();
        document_level(&mut document, &mut findings);
        assert_eq!(document, json!(["not", "a", "document"]));
        assert!(findings.is_empty());
    }
}
