//! Step 5b: what progenitor refuses without saying where, found unit by unit in one pass.
//!
//! [`preflight`](super::preflight) refuses every input we know makes progenitor or typify
//! panic, by name, before they run. When they still fail on the whole document (a typify
//! error such as `value does not conform to the given schema`, a panic nobody has met yet),
//! their message names no schema or operation. Then each unit (every component schema, every
//! operation) is given to progenitor alone, once, in a trial document holding the unit and the
//! components it reaches; a unit whose trial fails, and whose failure no other failing unit it
//! names explains, is what to leave out. No trial is compared with another by its message.
//!
//! A trial converts only its unit and the schemas the unit names directly (typify reads a
//! named type to check a `default` against it); every other schema it reaches is present, so
//! that `$ref`s resolve and `allOf` parts can be merged through them, but replaced by a type
//! typify is given, so it is never converted. The trials together cost about one conversion of
//! each schema per unit that names it, not the document's size per unit.

use std::collections::{BTreeMap, BTreeSet};

use progenitor::{GenerationSettings, Generator};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::model::{Document, push, schema_ref_name, unescape};

/// A unit progenitor refuses on its own: its pointer (`/components/schemas/<Name>` or
/// `/paths/<path>/<method>`) and progenitor's message for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub pointer: String,
    pub reason: String,
}

/// The type a trial is told to use for the schemas it must not convert. Trials are never
/// compiled; the name only has to be a path.
const GIVEN_TYPE: &str = "::serde_json::Value";

/// Every unit of the down-levelled `document` that progenitor (with `settings`) refuses on its
/// own, in document order: the component schemas whose trials fail while every schema they
/// name converts, then the operations whose trials fail while every schema they name converts.
pub fn refused_units(document: &Value, settings: &GenerationSettings) -> Vec<Refused> {
    let model = Document::new(document);
    let schemas = document
        .pointer("/components/schemas")
        .and_then(Value::as_object);
    let mut failing: BTreeMap<String, String> = BTreeMap::new();
    let mut named: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, schema) in schemas.into_iter().flatten() {
        let direct = direct_schemas(model, &[schema]);
        if let Err(reason) = trial(
            document,
            model,
            settings,
            schema,
            Unit::Schema(name),
            &direct,
        ) {
            failing.insert(name.clone(), reason);
        }
        named.insert(name.clone(), direct);
    }
    // A schema is to blame unless a failing schema it names fails without naming it back:
    // then that one is (and this one is fixed with it). Schemas that name each other and fail
    // together are all left out.
    let mut refused: Vec<Refused> = failing
        .iter()
        .filter(|(name, _)| {
            named[name.as_str()].iter().all(|other| {
                other == *name
                    || !failing.contains_key(other)
                    || named.get(other).is_some_and(|back| back.contains(*name))
            })
        })
        .map(|(name, reason)| Refused {
            pointer: push("/components/schemas", name),
            reason: reason.clone(),
        })
        .collect();
    for operation in model.operations() {
        let shared = operation.item.get("parameters").unwrap_or(&Value::Null);
        let direct = direct_schemas(model, &[operation.value, shared]);
        if direct.iter().any(|name| failing.contains_key(name)) {
            continue;
        }
        let unit = Unit::Operation {
            path: operation.path,
            method: operation.method,
            item: operation.item,
        };
        if let Err(reason) = trial(document, model, settings, operation.value, unit, &direct) {
            refused.push(Refused {
                pointer: operation.pointer.clone(),
                reason,
            });
        }
    }
    refused
}

/// Every component schema, path item and operation of the down-levelled `document` that the
/// `openapiv3` crate (which progenitor reads with) cannot read on its own, with why: the whole
/// document's reader stops at the first.
pub fn unreadable_units(document: &Value) -> Vec<Refused> {
    let mut found = Vec::new();
    let mut refuse = |pointer: String, error: serde_json::Error| {
        found.push(Refused {
            pointer,
            reason: format!("not OpenAPI 3.0 as progenitor reads it: {error}"),
        });
    };
    for (name, schema) in document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if let Err(error) = openapiv3::ReferenceOr::<openapiv3::Schema>::deserialize(schema) {
            refuse(push("/components/schemas", name), error);
        }
    }
    for (path, item) in document
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let item_pointer = push("/paths", path);
        let Err(item_error) = openapiv3::ReferenceOr::<openapiv3::PathItem>::deserialize(item)
        else {
            continue;
        };
        let mut an_operation = false;
        for (method, operation) in item.as_object().into_iter().flatten() {
            if !crate::model::is_method(method) {
                continue;
            }
            if let Err(error) = openapiv3::Operation::deserialize(operation) {
                an_operation = true;
                refuse(push(&item_pointer, method), error);
            }
        }
        if !an_operation {
            refuse(item_pointer, item_error);
        }
    }
    found
}

/// What a trial holds besides the components.
enum Unit<'a> {
    /// A component schema, by name.
    Schema(&'a str),
    /// An operation and the path item it sits in (for the item's shared parameters).
    Operation {
        path: &'a str,
        method: &'a str,
        item: &'a Value,
    },
}

/// The component schemas `roots` name themselves (through parameters, bodies and responses
/// given by `$ref`, not through other schemas), by name.
fn direct_schemas(model: Document<'_>, roots: &[&Value]) -> BTreeSet<String> {
    model
        .references(roots, false)
        .into_iter()
        .filter_map(schema_ref_name)
        .map(unescape)
        .collect()
}

/// progenitor on the trial document of `unit` (whose own value is `value`): `Err` with its
/// message when it fails. Only the unit and the schemas in `direct` are converted.
fn trial(
    document: &Value,
    model: Document<'_>,
    settings: &GenerationSettings,
    value: &Value,
    unit: Unit<'_>,
    direct: &BTreeSet<String>,
) -> Result<(), String> {
    let mut trial = json!({
        "openapi": document.get("openapi").cloned().unwrap_or(json!("3.0.3")),
        "info": document.get("info").cloned().unwrap_or(json!({"title": "", "version": ""})),
        "paths": {},
        "components": {},
    });
    let mut settings = settings.clone();
    let own_name = match &unit {
        Unit::Schema(name) => Some(*name),
        Unit::Operation { .. } => None,
    };
    // The components the unit reaches, each copied whole, by the component the `$ref` is in.
    let shared = match &unit {
        Unit::Operation { item, .. } => item.get("parameters"),
        Unit::Schema(_) => None,
    };
    let roots: Vec<&Value> = std::iter::once(value).chain(shared).collect();
    let mut components = BTreeSet::new();
    for reference in model.references(&roots, true) {
        let mut tokens = reference
            .strip_prefix("#/components/")
            .unwrap_or_default()
            .split('/');
        if let (Some(kind), Some(name)) = (tokens.next(), tokens.next())
            && !name.is_empty()
        {
            components.insert((kind, unescape(name)));
        }
    }
    if let Some(name) = own_name {
        components.insert(("schemas", name.to_owned()));
    }
    for (kind, name) in components {
        let Some(component) = document.pointer(&push(&push("/components", kind), &name)) else {
            continue;
        };
        trial["components"]
            .as_object_mut()
            .map(|all| all.entry(kind).or_insert_with(|| json!({})))
            .and_then(Value::as_object_mut)
            .map(|of_kind| of_kind.insert(name.clone(), component.clone()));
        if kind == "schemas" && own_name != Some(name.as_str()) && !direct.contains(&name) {
            settings.with_replacement(super::typify_name(&name), GIVEN_TYPE, std::iter::empty());
        }
    }
    if let Unit::Operation { path, method, item } = unit {
        let mut trial_item = json!({ method: value });
        if let Some(shared) = item.get("parameters") {
            trial_item["parameters"] = shared.clone();
        }
        trial["paths"][path] = trial_item;
    }
    let spec = super::run::read_openapi(&trial).map_err(|error| error.to_string())?;
    let mut generator = Generator::new(&settings);
    super::run::generate_tokens(&mut generator, &spec)
        .map(drop)
        .map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> GenerationSettings {
        let mut settings = GenerationSettings::default();
        settings.with_interface(progenitor::InterfaceStyle::Builder);
        settings
    }

    fn document(schemas: Value, paths: Value) -> Value {
        json!({
            "openapi": "3.0.3",
            "info": {"title": "t", "version": "1"},
            "paths": paths,
            "components": {"schemas": schemas},
        })
    }

    /// An integer schema whose `default` is a string: typify refuses it with a message that
    /// names no schema.
    fn bad_default() -> Value {
        json!({"type": "object", "properties": {"count": {"type": "integer", "default": "many"}}})
    }

    #[test]
    fn the_whole_document_fails_without_a_place() {
        let document = document(
            json!({"Bad": bad_default(), "Good": {"type": "string"}}),
            json!({}),
        );
        let spec = crate::contract::run::read_openapi(&document).unwrap();
        let error = crate::contract::run::generate_tokens(&mut Generator::new(&settings()), &spec)
            .expect_err("typify refuses the default");
        assert!(!error.to_string().contains("Bad"), "{error}");
    }

    #[test]
    fn the_schema_that_fails_alone_is_refused_not_the_ones_naming_it() {
        let document = document(
            json!({
                "Bad": bad_default(),
                "Holder": {"type": "object", "properties": {"bad": {"$ref": "#/components/schemas/Bad"}}},
                "Good": {"type": "string"},
            }),
            json!({
                "/holders": {"get": {
                    "operationId": "getHolder",
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/Holder"}}}}},
                }},
            }),
        );
        let refused = refused_units(&document, &settings());
        assert_eq!(
            refused
                .iter()
                .map(|unit| unit.pointer.as_str())
                .collect::<Vec<_>>(),
            ["/components/schemas/Bad"],
            "{refused:?}"
        );
        assert!(refused[0].reason.starts_with("progenitor: "), "{refused:?}");
    }

    #[test]
    fn an_operation_whose_own_schema_fails_is_refused() {
        let document = document(
            json!({"Good": {"type": "string"}}),
            json!({
                "/counts": {"post": {
                    "operationId": "postCount",
                    "requestBody": {"content": {"application/json": {"schema": bad_default()}}},
                    "responses": {"204": {"description": "ok"}},
                }},
                "/goods": {"get": {
                    "operationId": "getGood",
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/Good"}}}}},
                }},
            }),
        );
        let refused = refused_units(&document, &settings());
        assert_eq!(
            refused
                .iter()
                .map(|unit| unit.pointer.as_str())
                .collect::<Vec<_>>(),
            ["/paths/~1counts/post"],
            "{refused:?}"
        );
    }

    #[test]
    fn schemas_failing_together_in_a_cycle_are_all_refused() {
        let mut bad = bad_default();
        bad["properties"]["next"] = json!({"$ref": "#/components/schemas/Next"});
        let document = document(
            json!({
                "Bad": bad,
                "Next": {"type": "object", "properties": {"back": {"$ref": "#/components/schemas/Bad"}}},
            }),
            json!({}),
        );
        let refused = refused_units(&document, &settings());
        assert_eq!(
            refused
                .iter()
                .map(|unit| unit.pointer.as_str())
                .collect::<Vec<_>>(),
            ["/components/schemas/Bad", "/components/schemas/Next"],
            "{refused:?}"
        );
    }

    #[test]
    fn every_unreadable_unit_is_found_not_only_the_first() {
        let document = document(
            json!({"Bad": {"type": "object", "required": "name"}, "Good": {"type": "string"}}),
            json!({
                "/a": {"get": {"operationId": "a", "responses": {"200": "ok"}}},
                "/b": {"get": {"operationId": "b", "responses": {"204": {"description": "ok"}}}},
                "/c": {"parameters": "none", "get": {"operationId": "c", "responses": {}}},
            }),
        );
        assert!(crate::contract::run::read_openapi(&document).is_err());
        let found = unreadable_units(&document);
        assert_eq!(
            found
                .iter()
                .map(|unit| unit.pointer.as_str())
                .collect::<Vec<_>>(),
            ["/components/schemas/Bad", "/paths/~1a/get", "/paths/~1c"],
            "{found:?}"
        );
    }
}
