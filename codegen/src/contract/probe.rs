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
//! A trial converts only its unit, the schemas the unit names directly (typify reads a named
//! type to check a `default` against it) and, where a schema of the unit with a `default`
//! names others, every schema those reach (typify checks the default's properties and items
//! against their types too); every other schema it reaches is present, so
//! that `$ref`s resolve and `allOf` parts can be merged through them, but replaced by a type
//! typify is given, so it is never converted. Units are first tried in groups of about the
//! square root of their number, and only a failing group's units one by one: a trial's cost
//! is mostly copying and reading what it reaches, and thousands of trials each reaching much
//! of a large document took minutes (loket.nl: 480 s).

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
    let with_defaults = schemas_with_defaults(model);
    let schemas: Vec<Unit<'_>> = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, schema)| Unit {
            kind: Kind::Schema(name),
            value: schema,
            direct: direct_schemas(model, &[schema]),
            defaulted: defaulted_schemas(model, &with_defaults, &push("/components/schemas", name)),
        })
        .collect();
    let failing: BTreeMap<&str, String> = failing_alone(document, model, settings, &schemas)
        .into_iter()
        .filter_map(|(unit, reason)| match unit.kind {
            Kind::Schema(name) => Some((name.as_str(), reason)),
            Kind::Operation { .. } => None,
        })
        .collect();
    let named: BTreeMap<&str, &BTreeSet<String>> = schemas
        .iter()
        .filter_map(|unit| match unit.kind {
            Kind::Schema(name) => Some((name.as_str(), &unit.direct)),
            Kind::Operation { .. } => None,
        })
        .collect();
    // A schema is to blame unless a failing schema it names fails without naming it back:
    // then that one is (and this one is fixed with it). Schemas that name each other and fail
    // together are all left out.
    let mut refused: Vec<Refused> = failing
        .iter()
        .filter(|(name, _)| {
            named[*name].iter().all(|other| {
                other == *name
                    || !failing.contains_key(other.as_str())
                    || named
                        .get(other.as_str())
                        .is_some_and(|back| back.contains(**name))
            })
        })
        .map(|(name, reason)| Refused {
            pointer: push("/components/schemas", name),
            reason: reason.clone(),
        })
        .collect();
    // An operation that names a failing schema is fixed with it.
    let operations: Vec<Unit<'_>> = model
        .operations()
        .into_iter()
        .filter_map(|operation| {
            let shared = operation.item.get("parameters").unwrap_or(&Value::Null);
            let direct = direct_schemas(model, &[operation.value, shared]);
            if direct
                .iter()
                .any(|name| failing.contains_key(name.as_str()))
            {
                return None;
            }
            let defaulted = defaulted_schemas(model, &with_defaults, &operation.pointer);
            Some(Unit {
                kind: Kind::Operation {
                    path: operation.path,
                    method: operation.method,
                    item: operation.item,
                    pointer: operation.pointer,
                },
                value: operation.value,
                direct,
                defaulted,
            })
        })
        .collect();
    for (unit, reason) in failing_alone(document, model, settings, &operations) {
        if let Kind::Operation { pointer, .. } = &unit.kind {
            refused.push(Refused {
                pointer: pointer.clone(),
                reason,
            });
        }
    }
    refused
}

/// The units of `units` whose trials fail, each with progenitor's message. They are tried in
/// groups of about the square root of their number first, and only the units of a failing
/// group one by one: with few failures, about `2 sqrt(n)` trials instead of `n`, each group's
/// as large as its units together. A group fails when one of its units does (each converts
/// only itself); a group that fails while no unit of it does alone yields nothing.
fn failing_alone<'u, 'a>(
    document: &Value,
    model: Document<'_>,
    settings: &GenerationSettings,
    units: &'u [Unit<'a>],
) -> Vec<(&'u Unit<'a>, String)> {
    let size = units.len().isqrt().max(1);
    let mut failing = Vec::new();
    for group in units.chunks(size) {
        if group.len() > 1 && trial(document, model, settings, group).is_ok() {
            continue;
        }
        for unit in group {
            if let Err(reason) = trial(document, model, settings, std::slice::from_ref(unit)) {
                failing.push((unit, reason));
            }
        }
    }
    failing
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

/// One unit of a trial: what it is, its value, and the component schemas it names itself
/// (converted with it; every other schema it reaches is a given type).
struct Unit<'a> {
    kind: Kind<'a>,
    value: &'a Value,
    direct: BTreeSet<String>,
    /// The component schemas a `default` of the unit is checked against beyond those it
    /// names (converted with it too; not counted as named for blame).
    defaulted: BTreeSet<String>,
}

/// What a unit is.
enum Kind<'a> {
    /// A component schema, by name.
    Schema(&'a String),
    /// An operation, the path item it sits in (for the item's shared parameters) and its
    /// pointer.
    Operation {
        path: &'a str,
        method: &'a str,
        item: &'a Value,
        pointer: String,
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

/// Every schema of the document that states a `default`, by pointer: what typify checks
/// against the types the schema reaches.
fn schemas_with_defaults<'a>(model: Document<'a>) -> BTreeMap<String, &'a Value> {
    let mut found = BTreeMap::new();
    model.visit_schemas(|at| {
        if at.schema.get("default").is_some() {
            found.insert(at.pointer.clone(), at.schema);
        }
        crate::model::Visit::Descend
    });
    found
}

/// Every component schema that a schema with a `default` inside the unit at `pointer` reaches,
/// transitively (its `$ref`, or in 3.0 its `allOf: [{$ref}]`): what typify checks such a
/// default against, converted with the unit.
fn defaulted_schemas(
    model: Document<'_>,
    with_defaults: &BTreeMap<String, &Value>,
    pointer: &str,
) -> BTreeSet<String> {
    let inside = format!("{pointer}/");
    let schemas: Vec<&Value> = with_defaults
        .range(pointer.to_owned()..)
        .take_while(|(at, _)| *at == pointer || at.starts_with(&inside))
        .map(|(_, schema)| *schema)
        .collect();
    if schemas.is_empty() {
        return BTreeSet::new();
    }
    model
        .references(&schemas, true)
        .into_iter()
        .filter_map(schema_ref_name)
        .map(unescape)
        .collect()
}

/// progenitor on the trial document of `units`: `Err` with its message when it fails. Only
/// the units and the schemas they name themselves are converted.
fn trial(
    document: &Value,
    model: Document<'_>,
    settings: &GenerationSettings,
    units: &[Unit<'_>],
) -> Result<(), String> {
    let mut trial = json!({
        "openapi": document.get("openapi").cloned().unwrap_or(json!("3.0.3")),
        "info": document.get("info").cloned().unwrap_or(json!({"title": "", "version": ""})),
        "paths": {},
        "components": {},
    });
    let mut settings = settings.clone();
    let mut converted: BTreeSet<&str> = BTreeSet::new();
    let mut roots: Vec<&Value> = Vec::new();
    for unit in units {
        converted.extend(unit.direct.iter().map(String::as_str));
        converted.extend(unit.defaulted.iter().map(String::as_str));
        roots.push(unit.value);
        match &unit.kind {
            Kind::Schema(name) => {
                converted.insert(name.as_str());
            }
            Kind::Operation { item, .. } => roots.extend(item.get("parameters")),
        }
    }
    // The components the units reach, each copied whole, by the component the `$ref` is in.
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
    for unit in units {
        if let Kind::Schema(name) = unit.kind {
            components.insert(("schemas", name.clone()));
        }
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
        if kind == "schemas" && !converted.contains(name.as_str()) {
            settings.with_replacement(super::typify_name(&name), GIVEN_TYPE, std::iter::empty());
        }
    }
    for unit in units {
        if let Kind::Operation {
            path, method, item, ..
        } = unit.kind
        {
            let trial_item = trial["paths"]
                .as_object_mut()
                .map(|paths| paths.entry(path).or_insert_with(|| json!({})));
            if let Some(trial_item) = trial_item {
                trial_item[method] = unit.value.clone();
                if let Some(shared) = item.get("parameters") {
                    trial_item["parameters"] = shared.clone();
                }
            }
        }
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

    fn pointers(units: &[Refused]) -> Vec<&str> {
        units.iter().map(|unit| unit.pointer.as_str()).collect()
    }

    fn settings() -> GenerationSettings {
        let mut settings = GenerationSettings::default();
        settings.with_interface(progenitor::InterfaceStyle::Builder);
        settings
    }

    #[test]
    fn what_a_default_is_checked_against_is_found_in_schemas_only() {
        let document = json!({"openapi": "3.0.3", "paths": {"/a": {"get": {
            // A `default` response and a property called `default` state no default.
            "responses": {"default": {"description": "d", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Error"}}}}}}}},
        "components": {"schemas": {
            "Error": {"type": "object", "properties": {
                "default": {"$ref": "#/components/schemas/Code"}}},
            "Code": {"type": "string"},
            "Paint": {"type": "object", "properties": {"colour": {
                "allOf": [{"$ref": "#/components/schemas/Colour"}],
                "default": {"shade": "plaid"}}}},
            "Colour": {"type": "object", "properties": {
                "shade": {"$ref": "#/components/schemas/Shade"}}},
            "Shade": {"type": "string", "enum": ["red"]},
        }}});
        let model = Document::new(&document);
        let with_defaults = schemas_with_defaults(model);
        let defaulted = |pointer: &str| defaulted_schemas(model, &with_defaults, pointer);
        assert_eq!(defaulted("/paths/~1a/get"), BTreeSet::new());
        assert_eq!(defaulted("/components/schemas/Error"), BTreeSet::new());
        assert_eq!(
            defaulted("/components/schemas/Paint"),
            BTreeSet::from(["Colour".to_owned(), "Shade".to_owned()])
        );
        // A name that only starts like it is another unit.
        assert_eq!(defaulted("/components/schemas/Pain"), BTreeSet::new());
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
            pointers(&refused),
            ["/components/schemas/Bad"],
            "{refused:?}"
        );
        assert!(refused[0].reason.starts_with("progenitor: "), "{refused:?}");
    }

    #[test]
    fn units_tried_in_groups_find_each_failing_one() {
        // Ten schemas in groups of three: the two failing ones sit in different groups, and
        // the groups without one pass whole.
        let mut schemas = serde_json::Map::new();
        for index in 0..10 {
            let schema = if index == 4 || index == 9 {
                bad_default()
            } else {
                json!({"type": "object", "properties": {"n": {"type": "integer"}}})
            };
            schemas.insert(format!("S{index}"), schema);
        }
        let document = document(Value::Object(schemas), json!({}));
        let refused = refused_units(&document, &settings());
        assert_eq!(
            pointers(&refused),
            ["/components/schemas/S4", "/components/schemas/S9"],
            "{refused:?}"
        );
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
        assert_eq!(pointers(&refused), ["/paths/~1counts/post"], "{refused:?}");
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
            pointers(&refused),
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
            pointers(&found),
            ["/components/schemas/Bad", "/paths/~1a/get", "/paths/~1c"],
            "{found:?}"
        );
    }
}
