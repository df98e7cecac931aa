//! Object members of a union keep the properties they do not list.
//!
//! A union decodes a value as one member: an `anyOf` (handed on as a first-fit enum marked
//! `x-any-of`, see `schemas`) as the first member that fits it, a `oneOf` as the one member
//! that does. An open object member (no `additionalProperties`) fits a value that carries
//! properties another member lists, and typify's struct for it skips properties it does not
//! declare, so those properties were lost on the way back (Novu's error bodies: `ErrorDto`
//! fits a `ValidationErrorDto` and dropped its `errors`; Deepgram's `ErrorResponse`, whose
//! legacy member took a modern error and dropped every field of it).
//!
//! Such a member is given `additionalProperties: {}`, which admits exactly what an absent
//! `additionalProperties` admits (any value), so the schema's meaning is unchanged and nothing
//! is reported; typify then writes the struct with a flattened `extra` map, which emit makes
//! `UnknownFields` (each unknown value kept as sent). Whichever member decodes the value, every
//! property comes back. A member that is shared elsewhere keeps unknown properties there too,
//! which loses nothing either.
//!
//! Only plain object components change: a closed object (`additionalProperties: false`) admits no
//! other property, a map already keeps its entries, and a composition (`allOf`, a union) is
//! left to the members it is made of.

use serde_json::{Map, Value};

use crate::model::{Document, Visit, mark};

/// Gives every plain open object member of a union (a `oneOf`, which an `anyOf` has become)
/// `additionalProperties: {}`.
pub(super) fn keep_unlisted_properties(document: &mut Value) {
    let mut members: Vec<String> = Vec::new();
    let model = Document::new(document);
    model.visit_schemas(|at| {
        if let Some(Value::Array(listed)) = at.schema.get("oneOf")
            && !listed.iter().any(is_inline_object)
        {
            members.extend(
                listed
                    .iter()
                    .filter_map(|member| model.resolve_at(member)?.0),
            );
        }
        Visit::Descend
    });
    for pointer in members {
        if let Some(object) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
            && is_plain_open_object(object)
        {
            object.insert("additionalProperties".into(), Value::Object(Map::new()));
        }
    }
}

/// Whether a union member is an object (or a composition) written in place. Hoisting has made
/// each plain object member a component; one left inline (an `allOf`) typify writes as a
/// struct variant, and such a union keeps serde's derived decoder (see `emit::first_fit`), in
/// which a member's map of unknown properties cannot be read: its members are left as they
/// are, as skipping unknown properties loses less than refusing them.
fn is_inline_object(member: &Value) -> bool {
    member.get("$ref").is_none()
        && member
            .get("type")
            .is_none_or(|kind| kind == "object" || kind.is_array())
}

/// Whether `object` is an object schema with properties of its own, whatever other properties
/// it admits left unsaid, and no composition.
fn is_plain_open_object(object: &Map<String, Value>) -> bool {
    let object_type = match object.get("type") {
        Some(kind) => kind == "object",
        None => object.contains_key("properties"),
    };
    object_type
        && object.contains_key("properties")
        && !object.contains_key("additionalProperties")
        && ![
            "allOf",
            "anyOf",
            "oneOf",
            "not",
            "$ref",
            mark::PROPERTY_NAMES,
            "propertyNames",
        ]
        .iter()
        .any(|key| object.contains_key(*key))
        && ![mark::MULTIPART, mark::FORM_FILE]
            .iter()
            .any(|key| object.contains_key(*key))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn open_object_members_of_an_any_of_keep_unlisted_properties() {
        let mut document = json!({"components": {"schemas": {
            "Error": {"type": "object", "properties": {"message": {"type": "string"}}},
            "Validation": {"type": "object", "properties": {"errors": {"type": "array"}}},
            "Closed": {"type": "object", "additionalProperties": false, "properties": {"a": {}}},
            "Map": {"type": "object", "additionalProperties": {"type": "string"}},
            "Composed": {"allOf": [{"$ref": "#/components/schemas/Error"}]},
            "Alias": {"$ref": "#/components/schemas/Validation"},
            "Alone": {"type": "object", "properties": {"a": {}}},
            "Body": {"oneOf": [
                {"$ref": "#/components/schemas/Error"},
                {"$ref": "#/components/schemas/Alias"},
                {"$ref": "#/components/schemas/Closed"},
                {"$ref": "#/components/schemas/Map"},
                {"$ref": "#/components/schemas/Composed"},
                {"type": "string"}
            ], "x-any-of": true},
            "Exclusive": {"oneOf": [{"$ref": "#/components/schemas/Alone"}, {"type": "string"}]},
            "Kept": {"type": "object", "properties": {"k": {}}},
            "Mixed": {"oneOf": [{"$ref": "#/components/schemas/Kept"},
                {"allOf": [{"$ref": "#/components/schemas/Alone"}]}]},
            "Unshared": {"type": "object", "properties": {"a": {}}},
            "Holder": {"type": "object", "properties": {"u": {"$ref": "#/components/schemas/Unshared"}}}
        }}});
        keep_unlisted_properties(&mut document);
        let schemas = &document["components"]["schemas"];
        let open = json!({});
        assert_eq!(schemas["Error"]["additionalProperties"], open);
        assert_eq!(
            schemas["Validation"]["additionalProperties"], open,
            "through the alias"
        );
        assert!(
            schemas["Body"]["oneOf"][5]
                .get("additionalProperties")
                .is_none()
        );
        assert_eq!(schemas["Closed"]["additionalProperties"], json!(false));
        assert_eq!(
            schemas["Map"]["additionalProperties"],
            json!({"type": "string"})
        );
        assert!(schemas["Composed"].get("additionalProperties").is_none());
        assert!(schemas["Alias"].get("additionalProperties").is_none());
        // The one member of a `oneOf` that fits drops what the others list just the same.
        assert_eq!(schemas["Alone"]["additionalProperties"], open);
        // A union with a member written in place keeps serde's decoder: its members stay.
        assert!(schemas["Kept"].get("additionalProperties").is_none());
        // An object that is no union's member is left as it is.
        assert!(schemas["Unshared"].get("additionalProperties").is_none());
        assert!(schemas["Holder"].get("additionalProperties").is_none());
    }
}
