//! Inference: the patch each component schema needs, read from the schema itself, so that every
//! rule a schema states is enforced with no hand-written patch list.
//!
//! | the schema says                                              | the patch                  |
//! |--------------------------------------------------------------|----------------------------|
//! | `type: integer` (but a plain property or parameter), or an `enum` of integers only | [`Action::BoundedInteger`] |
//! | `type: number` with `minimum`/`maximum` (no `enum`)          | [`Action::BoundedNumber`]  |
//! | `type: array` with `minItems`/`maxItems`/`uniqueItems`       | [`Action::BoundedArray`]   |
//! | `prefixItems` (down-levelled `x-prefixItems`)                | [`Action::Tuple`]          |
//! | `propertyNames` (down-levelled `x-propertyNames`)            | [`Action::ValidatedMap`]   |
//! | a map (`additionalProperties` only) with `min`/`maxProperties` | [`Action::ValidatedMap`] |
//! | a `deepObject` query parameter's map (`x-deep-object`)       | [`Action::ValidatedMap`]   |
//! | `type: string` (no `enum`) with a pattern, length or format  | [`Action::ValidatedString`]|
//! | `oneOf`/`anyOf` of `$ref` objects sharing a required `const` key | [`Action::TaggedUnion`] |
//! | `oneOf` of `$ref` objects, each with a required key of its own | [`Action::ExclusiveUnion`] |
//! | literals named by `x-rust-variant-names`, or an `enum` listing a boolean | [`Action::LiteralUnion`] |
//!
//! What a schema cannot state is a decision, written beside it in the spec as an `x-rust-`
//! extension, each with its reason in `x-rust-reason`:
//!
//! - `x-rust-secret: true`: the string (or the map's values) is a secret: never shown by
//!   `Debug` or in an error;
//! - `x-rust-variant-names: [{value: <literal>, name: <RustName>}, ...]`: the Rust names of
//!   a literal union's variants, in order.
//!
//! The extensions are read and removed here, so progenitor and typify never see them.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::{Action, Patch, has_rust_type};
use crate::Error;
use crate::contract::{type_name_at, typify_keeps};
use crate::downlevel::Provenance;
use crate::model::mark::{REASON, SECRET, VARIANT_NAMES};
use crate::model::{self, Document, Owner, SchemaAt, Visit, mark, push, schema_ref_name};
use crate::rules::Rule;

/// What a schema's `x-rust-` extensions decide.
#[derive(Debug, Default)]
struct Decisions {
    secret: bool,
    variant_names: Option<Vec<(String, String)>>,
    reason: Option<String>,
}

impl Decisions {
    /// What the decisions would make of a schema, without reading them out: enough to tell
    /// whether the schema needs a patch.
    fn sketch(schema: &Value) -> Self {
        Decisions {
            variant_names: schema.get(VARIANT_NAMES).map(|_| Vec::new()),
            ..Decisions::default()
        }
    }

    /// Reads and removes the extensions of one schema.
    fn take(schema: &mut Map<String, Value>, pointer: &str) -> Result<Self, Error> {
        let fail = |key: &str, reason: &str| Error::Decision {
            pointer: push(pointer, key),
            reason: reason.to_owned(),
        };
        let mut decisions = Decisions::default();
        if let Some(secret) = schema.shift_remove(SECRET) {
            decisions.secret = secret
                .as_bool()
                .ok_or_else(|| fail(SECRET, "must be `true` or `false`"))?;
        }
        if let Some(names) = schema.shift_remove(VARIANT_NAMES) {
            let entries = names
                .as_array()
                .ok_or_else(|| fail(VARIANT_NAMES, "must be a list of `{value, name}` mappings"))?;
            let mut variants = Vec::new();
            for entry in entries {
                match (
                    entry.get("value"),
                    entry.get("name").and_then(Value::as_str),
                ) {
                    (Some(value), Some(name)) => {
                        variants.push((name.to_owned(), value.to_string()))
                    }
                    _ => {
                        return Err(fail(
                            VARIANT_NAMES,
                            "every entry needs a `value` (the literal) and a `name`",
                        ));
                    }
                }
            }
            decisions.variant_names = Some(variants);
        }
        if let Some(reason) = schema.shift_remove(REASON) {
            decisions.reason = Some(
                reason
                    .as_str()
                    .ok_or_else(|| fail(REASON, "must be a string"))?
                    .to_owned(),
            );
        }
        if let Some(unknown) = schema
            .keys()
            .find(|key| key.starts_with(mark::AUTHORED_PREFIX))
        {
            return Err(fail(
                unknown,
                "unknown decision; known ones are x-rust-secret, x-rust-variant-names and x-rust-reason",
            ));
        }
        Ok(decisions)
    }
}

/// Moves every inline schema that needs a patch (it states a rule typify drops, or an `x-rust-`
/// decision) into `components/schemas`, leaving a `$ref` in its place, so that it gets its
/// patch like any component; and every part a patch names by its type that has no plain one
/// ([`parts_named_by`]), so that typify names it. Its name is read from its location: the
/// owner's type name (a component's, or `<OperationId>Body`, `<OperationId>Response`,
/// `<OperationId><Parameter>`), then one word per step (`<Property>` as typify names a
/// property's type, `Item`, `Item<i>`, `Value`, `Key`, `Variant<i>`). Deepest first, so a hoisted
/// schema's own inline parts are hoisted too. Where each one came from is recorded in
/// `provenance`, so messages keep naming the source.
pub(crate) fn hoist_inline(document: &mut Value, provenance: &mut Provenance) -> Result<(), Error> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut problems = Vec::new();
    let model = Document::new(document);
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for root in model.schema_roots() {
        let root_pointer = root.pointer.clone();
        let component = matches!(root.owner, Owner::Schema(_));
        let patched_component =
            component && infer(document, root.schema, &Decisions::sketch(root.schema)).is_some();
        model::walk(root, &mut |at: &SchemaAt<'_>| {
            let is_root = at.pointer == root_pointer;
            let action = infer(document, at.schema, &Decisions::sketch(at.schema));
            let mut hoist = |pointer: String| {
                if taken.insert(pointer.clone()) {
                    match type_name_at(document, &root_pointer, &at.owner, &pointer) {
                        Ok(name) => found.push((pointer, name)),
                        Err(problem) => problems.push(problem),
                    }
                }
            };
            // A literal union is one typify cannot emit at all (it panics on some), so it
            // moves wherever it sits, rules or not.
            let literals = matches!(action, Some(Action::LiteralUnion { .. }));
            // A plain integer property or parameter stays typify's Rust integer.
            let plain = crate::contract::is_plain_integer(document, at.schema, &at.pointer);
            if !(plain || is_root && component)
                && action.is_some()
                && (literals || needs_patch(at.schema))
            {
                hoist(at.pointer.clone());
            }
            // The parts a patch names by their type get a type of their own.
            if let Some(action) = &action {
                for suffix in parts_named_by(action, at.schema) {
                    let part = format!("{}{suffix}", at.pointer);
                    if document
                        .pointer(&part)
                        .is_some_and(|part| part.is_object() && !has_rust_type(part))
                    {
                        hoist(part);
                    }
                }
            }
            if is_root && patched_component && !is_tuple(at.schema) {
                // The component's own patch reads the rest of its subschemas.
                return Visit::Skip;
            }
            Visit::Descend
        });
    }
    // A name already taken (by a component's key or its type, or by an earlier inline schema
    // named alike) gets the first free number from 2, in document order: the schema still
    // gets its patch, under a name of its own.
    let mut names_taken = crate::contract::component_names_in_use(document);
    names_taken.extend(
        crate::runtime::SHARED_TYPE_NAMES
            .iter()
            .map(|name| (*name).to_owned()),
    );
    for (_, name) in &mut found {
        *name = crate::normalize::unique_name(name, &names_taken);
        names_taken.insert(name.clone());
    }
    // Deepest first, so that a parent is taken out with its hoisted parts already `$ref`s;
    // then inserted in document order.
    let mut taken_out = Vec::new();
    for (pointer, name) in found.iter().rev() {
        let reference = Value::String(format!("#{}", push("/components/schemas", name)));
        let slot = document.pointer_mut(pointer).expect("found above");
        let mut schema = std::mem::replace(
            slot,
            Value::Object(Map::from_iter([("$ref".to_owned(), reference.clone())])),
        );
        // A nullable schema with a rule moves without its `null`, which no newtype holds: the
        // place keeps it, as `Option` of the moved type (3.0's `allOf: [$ref]` beside
        // `nullable`, which typify reads that way).
        if let Some(object) = schema.as_object_mut()
            && object.get("nullable") == Some(&Value::Bool(true))
            && !object.contains_key("properties")
        {
            object.remove("nullable");
            if let Some(values) = object.get_mut("enum").and_then(Value::as_array_mut) {
                values.retain(|value| !value.is_null());
            }
            // So does a `default: null`, which the moved type cannot hold; at the place it is
            // the `None` an absent value gives anyway.
            if object.get("default") == Some(&Value::Null) {
                object.remove("default");
            }
            *slot = serde_json::json!({"allOf": [{"$ref": reference}], "nullable": true});
        }
        taken_out.push((name.clone(), schema, provenance.source_pointer(pointer)));
    }
    if taken_out.is_empty() {
        return Error::from_problems(problems);
    }
    let schemas = component_schemas(document)?;
    for (name, schema, source) in taken_out.into_iter().rev() {
        schemas.insert(name.clone(), schema);
        provenance.record_move(&push("/components/schemas", &name), source);
    }
    Error::from_problems(problems)
}

/// `components/schemas` of `document`, made when it has none.
pub(super) fn component_schemas(document: &mut Value) -> Result<&mut Map<String, Value>, Error> {
    document
        .as_object_mut()
        .expect("a document is a mapping")
        .entry("components")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .and_then(|components| {
            components
                .entry("schemas")
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
        })
        .ok_or_else(|| Error::Inline {
            pointer: "/components/schemas".to_owned(),
            reason: "`components/schemas` is not a mapping".to_owned(),
        })
}

fn is_tuple(schema: &Value) -> bool {
    schema.get(mark::PREFIX_ITEMS).is_some()
}

/// The subschemas (as pointer suffixes) whose Rust type the patch of `action` names: a tuple's
/// positions and the items after it, a bounded array's items, a validated map's values. One
/// that has no plain type is hoisted, or the patch could not name it.
fn parts_named_by(action: &Action, schema: &Value) -> Vec<String> {
    match action {
        Action::Tuple => {
            let positions = schema
                .get(mark::PREFIX_ITEMS)
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            (0..positions)
                .map(|index| format!("/x-prefixItems/{index}"))
                .chain(["/items".to_owned()])
                .collect()
        }
        Action::BoundedArray => vec!["/items".to_owned()],
        Action::ValidatedMap { .. } => vec!["/additionalProperties".to_owned()],
        _ => Vec::new(),
    }
}

/// Whether a schema states something only a patch can enforce, or is sent in a way only a
/// patch writes (a `deepObject` map).
fn needs_patch(schema: &Value) -> bool {
    let rules = Rule::from_schema(schema);
    rules.iter().any(|rule| typify_keeps(rule, &rules).is_err())
        || schema.as_object().is_some_and(|object| {
            object.contains_key(mark::DEEP_OBJECT)
                || object
                    .keys()
                    .any(|key| key.starts_with(mark::AUTHORED_PREFIX))
        })
}

/// The patch every component schema needs, in schema order, after the `explicit` ones (a
/// schema with an explicit patch is left to it). Every `x-rust-` extension is removed from the
/// document. All problems are reported together.
pub(crate) fn patches(document: &mut Value, explicit: &[Patch]) -> Result<Vec<Patch>, Error> {
    let names: Vec<String> = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().cloned().collect())
        .unwrap_or_default();
    let mut decided = Vec::new();
    let mut problems = Vec::new();
    for name in names {
        let pointer = push("/components/schemas", &name);
        let Some(schema) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        match Decisions::take(schema, &pointer) {
            Ok(decisions) => decided.push((name, pointer, decisions)),
            Err(problem) => problems.push(problem),
        }
    }
    let mut inferred = Vec::new();
    for (name, pointer, decisions) in decided {
        if explicit.iter().any(|patch| patch.target == pointer) {
            continue;
        }
        let schema = &document["components"]["schemas"][&name];
        let action = infer(document, schema, &decisions).filter(|action| {
            // Items of a type the newtype cannot name (an inline union no patch hoisted) leave
            // the sizes unenforced, and the coverage check names them.
            *action != Action::BoundedArray || schema.get("items").is_some_and(super::has_rust_type)
        });
        let decided_something = decisions.secret || decisions.variant_names.is_some();
        match action {
            Some(action) => inferred.push(Patch {
                target: pointer,
                action,
                reason: decisions
                    .reason
                    .unwrap_or_else(|| "inferred from the schema".to_owned()),
            }),
            None if decided_something => problems.push(Error::Decision {
                pointer,
                reason: "an `x-rust-` decision on a schema that needs no patch (secrets are validated strings or maps; variant names belong to literal unions)".to_owned(),
            }),
            None => {}
        }
    }
    Error::from_problems(problems)?;
    Ok(inferred)
}

/// The action a schema needs, if any: see the module's table.
fn infer(document: &Value, schema: &Value, decisions: &Decisions) -> Option<Action> {
    let object = schema.as_object()?;
    let kind = object.get("type").and_then(Value::as_str);
    let has = |key: &str| object.contains_key(key);
    if let Some(variants) = &decisions.variant_names {
        return Some(Action::LiteralUnion {
            variants: variants.clone(),
        });
    }
    if has("oneOf") {
        let members = ref_members(document, schema, "oneOf")?;
        let tagged = tag_of(&members).map(|tag| Action::TaggedUnion { tag });
        // Exclusivity is `oneOf`'s: an `anyOf` admits an object with several members' keys.
        if crate::rules::stands_for_any_of(object) {
            return tagged;
        }
        // Any other `oneOf` stays typify's untagged enum, whose first-fit decoder (`emit`)
        // refuses a value two members take when strict.
        return tagged.or_else(|| own_keys(&members).map(|keys| Action::ExclusiveUnion { keys }));
    }
    if has("anyOf") && !has("allOf") && !has("properties") {
        // Members with distinct constant tags never both match, so `anyOf` is a tagged union
        // too; told apart by keys, several could match, which an exclusive union would refuse.
        let members = ref_members(document, schema, "anyOf")?;
        return tag_of(&members).map(|tag| Action::TaggedUnion { tag });
    }
    if has(mark::PREFIX_ITEMS) {
        return Some(Action::Tuple);
    }
    if has("enum") {
        if super::newtypes::integer_literals(schema).is_some() {
            return Some(Action::BoundedInteger);
        }
        return literal_variants(object).map(|variants| Action::LiteralUnion { variants });
    }
    match kind {
        Some("integer") => Some(Action::BoundedInteger),
        Some("number") if has("minimum") || has("maximum") => Some(Action::BoundedNumber),
        Some("array")
            if (has("minItems")
                || has("maxItems")
                || object.get("uniqueItems") == Some(&Value::Bool(true)))
                && crate::contract::fixed_size(&Rule::from_schema(schema)).is_none() =>
        {
            Some(Action::BoundedArray)
        }
        _ if has(mark::PROPERTY_NAMES) || has(mark::DEEP_OBJECT) => Some(Action::ValidatedMap {
            secret: decisions.secret,
        }),
        // An object of no listed properties is a map, whose size the validated map checks.
        Some("object")
            if (has("minProperties") || has("maxProperties"))
                && object
                    .get("additionalProperties")
                    .is_some_and(|values| *values != Value::Bool(false))
                && !has("properties") =>
        {
            Some(Action::ValidatedMap {
                secret: decisions.secret,
            })
        }
        // A format no check is written for stays unenforced, and the coverage check names it.
        Some("string")
            if ["pattern", "minLength", "maxLength", "format"]
                .iter()
                .any(|key| has(key))
                && object.get("format").is_none_or(|format| {
                    format.as_str().is_some_and(super::newtypes::checks_format)
                }) =>
        {
            Some(Action::ValidatedString {
                secret: decisions.secret,
            })
        }
        _ => None,
    }
}

/// The variants of an `enum` typify cannot emit faithfully, each with a Rust name and its
/// literal: one that lists a boolean (typify would read it as any `bool`), values of several
/// JSON types (typify panics on `[true, "true"]`), or strings typify cannot name apart (`-2`
/// and `2`, `Foo` and `foo`, `""`, where it panics). `None` for any other `enum`.
///
/// Names are deterministic: `True`, `False`, `Null`, a string by typify's rule (`Empty` when
/// it has no letter or digit), a number `V<digits>` (`Minus` for a sign, `Point` for a decimal
/// point); a name already taken gains its value's kind (`TrueString`), then a number.
fn literal_variants(object: &Map<String, Value>) -> Option<Vec<(String, String)>> {
    let values = object.get("enum")?.as_array()?;
    let kind = |value: &Value| match value {
        Value::Null => "Null",
        Value::Bool(_) => "Bool",
        Value::Number(_) => "Number",
        Value::String(_) => "String",
        Value::Array(_) => "Array",
        Value::Object(_) => "Object",
    };
    let kinds: BTreeSet<&str> = values
        .iter()
        .filter(|value| !value.is_null())
        .map(kind)
        .collect();
    let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
    let typify_cannot = kinds.contains("Bool")
        || kinds.len() > 1
        || (strings.len() == values.len()
            && crate::contract::typify_variant_names(&strings).is_none());
    if !typify_cannot || kinds.contains("Array") || kinds.contains("Object") {
        return None;
    }
    let mut taken = BTreeSet::new();
    let mut variants = Vec::new();
    for value in values {
        // A number, or a string that spells one (`"-2"`), is named by its digits.
        let number_name = |text: &str| {
            let digits = text
                .replace('-', "Minus")
                .replace('.', "Point")
                .replace('+', "");
            if digits.starts_with("Minus") {
                digits
            } else {
                format!("V{digits}")
            }
        };
        let base = match value {
            Value::Bool(true) => "True".to_owned(),
            Value::Bool(false) => "False".to_owned(),
            Value::Null => "Null".to_owned(),
            Value::String(text) if serde_json::from_str::<serde_json::Number>(text).is_ok() => {
                number_name(text)
            }
            Value::String(text) => crate::contract::rust_ident(text, "")
                .map_or_else(|_| "Empty".to_owned(), |ident| ident.to_string()),
            Value::Number(number) => number_name(&number.to_string()),
            Value::Array(_) | Value::Object(_) => return None,
        };
        // The patch spells each name through `rust_ident` again, which is not idempotent
        // (`m/J` is `MJ`, and `MJ` then `Mj`, as `MJ` is): names are compared as spelled.
        let base = crate::contract::typify_name(&base);
        let name = if taken.contains(&base) {
            crate::normalize::unique_name(&format!("{base}{}", kind(value)), &taken)
        } else {
            base
        };
        taken.insert(name.clone());
        variants.push((name, value.to_string()));
    }
    Some(variants)
}

/// The component schemas of a `oneOf` or `anyOf` (`keyword`) whose members are all `$ref`s to
/// object schemas.
fn ref_members<'a>(
    document: &'a Value,
    schema: &Value,
    keyword: &str,
) -> Option<Vec<&'a Map<String, Value>>> {
    schema
        .get(keyword)?
        .as_array()?
        .iter()
        .map(|member| {
            let name = schema_ref_name(member.get("$ref")?.as_str()?)?;
            document
                .pointer(&push("/components/schemas", name))?
                .as_object()
        })
        .collect()
}

fn required(member: &Map<String, Value>) -> Vec<&str> {
    model::required_names(member).collect()
}

/// The property every member requires with one constant string value (down-levelled `const`).
fn tag_of(members: &[&Map<String, Value>]) -> Option<String> {
    let is_tag = |member: &Map<String, Value>, key: &str| {
        required(member).contains(&key)
            && member
                .get("properties")
                .and_then(|properties| properties.get(key))
                .and_then(|property| property.get("enum"))
                .and_then(Value::as_array)
                .is_some_and(|values| matches!(values.as_slice(), [Value::String(_)]))
    };
    let value = |member: &Map<String, Value>, key: &str| {
        member
            .get("properties")
            .and_then(|properties| properties.get(key))
            .and_then(|property| property.get("enum"))
            .map(Value::to_string)
    };
    let first = members.first()?;
    required(first)
        .into_iter()
        .find(|key| {
            // Distinct values only: two members with one tag value cannot be told apart by it.
            let mut seen = std::collections::BTreeSet::new();
            members
                .iter()
                .all(|member| is_tag(member, key) && seen.insert(value(member, key)))
        })
        .map(str::to_owned)
}

/// For each member, the first key it requires that no other member declares: the key that
/// tells it apart.
fn own_keys(members: &[&Map<String, Value>]) -> Option<Vec<String>> {
    let declares = |member: &Map<String, Value>, key: &str| {
        required(member).contains(&key)
            || member
                .get("properties")
                .is_some_and(|properties| properties.get(key).is_some())
    };
    members
        .iter()
        .enumerate()
        .map(|(index, member)| {
            required(member)
                .into_iter()
                .find(|key| {
                    members
                        .iter()
                        .enumerate()
                        .all(|(other, them)| other == index || !declares(them, key))
                })
                .map(str::to_owned)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn literal_names_are_unique_as_the_patch_spells_them() {
        // exoapi.dev: `MJ` and `m/J` both spell `Mj` once `rust_ident` is applied twice.
        let object = json!({"enum": ["MJ", "m/J", "'", "''", "%", true]});
        let names: Vec<String> = literal_variants(object.as_object().unwrap())
            .unwrap()
            .into_iter()
            .map(|(name, _)| crate::contract::rust_ident(&name, "").unwrap().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "Mj",
                "MjString",
                "Empty",
                "EmptyString",
                "EmptyString2",
                "True"
            ]
        );
    }

    fn inferred(schemas: Value) -> Result<Vec<(String, Action)>, String> {
        let mut document = json!({ "components": { "schemas": schemas } });
        let patches = patches(&mut document, &[]).map_err(|error| error.to_string())?;
        assert!(
            !document.to_string().contains("x-rust-"),
            "decisions are removed"
        );
        Ok(patches
            .into_iter()
            .map(|patch| (patch.target, patch.action))
            .collect())
    }

    #[test]
    fn infers_newtypes_from_rules() {
        let found = inferred(json!({
            "Port": {"type": "integer", "minimum": 1},
            "Policy": {"type": "integer", "enum": [1, 2, 3]},
            "Mixed": {"enum": [1, "one"]},
            "Tags": {"type": "array", "maxItems": 3, "items": {"type": "string"}},
            "Set": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
            "Bag": {"type": "array", "uniqueItems": false, "items": {"type": "string"}},
            "Env": {"type": "object", "x-propertyNames": {"pattern": "^[A-Z]+$"}, "additionalProperties": {"type": "string"}},
            "Labels": {"type": "object", "maxProperties": 3, "additionalProperties": {"type": "string"}},
            "Sized": {"type": "object", "maxProperties": 3, "properties": {"a": {"type": "string"}}},
            "Token": {"type": "string", "minLength": 8, "x-rust-secret": true, "x-rust-reason": "a credential"},
            "Plain": {"type": "string"},
            "Kind": {"type": "string", "enum": ["a", "b"]},
            "List": {"type": "array", "items": {"type": "string"}}
        }))
        .unwrap();
        assert_eq!(
            found,
            [
                (
                    "/components/schemas/Port".to_owned(),
                    Action::BoundedInteger
                ),
                (
                    "/components/schemas/Policy".to_owned(),
                    Action::BoundedInteger
                ),
                (
                    "/components/schemas/Mixed".to_owned(),
                    Action::LiteralUnion {
                        variants: vec![
                            ("V1".to_owned(), "1".to_owned()),
                            ("One".to_owned(), "\"one\"".to_owned()),
                        ]
                    }
                ),
                ("/components/schemas/Tags".to_owned(), Action::BoundedArray),
                ("/components/schemas/Set".to_owned(), Action::BoundedArray),
                (
                    "/components/schemas/Env".to_owned(),
                    Action::ValidatedMap { secret: false }
                ),
                (
                    "/components/schemas/Labels".to_owned(),
                    Action::ValidatedMap { secret: false }
                ),
                (
                    "/components/schemas/Token".to_owned(),
                    Action::ValidatedString { secret: true }
                ),
            ]
        );
    }

    #[test]
    fn infers_unions_from_tags_and_keys() {
        let found = inferred(json!({
            "Shape": {"oneOf": [{"$ref": "#/components/schemas/Circle"}, {"$ref": "#/components/schemas/Square"}]},
            "Circle": {"type": "object", "required": ["kind", "r"], "properties": {"kind": {"type": "string", "enum": ["circle"]}, "r": {"type": "number"}}},
            "Square": {"type": "object", "required": ["kind", "side"], "properties": {"kind": {"type": "string", "enum": ["square"]}, "side": {"type": "number"}}},
            "Job": {"oneOf": [{"$ref": "#/components/schemas/FromSpace"}, {"$ref": "#/components/schemas/FromImage"}]},
            "AnyShape": {"anyOf": [{"$ref": "#/components/schemas/Circle"}, {"$ref": "#/components/schemas/Square"}]},
            "AnyJob": {"anyOf": [{"$ref": "#/components/schemas/FromSpace"}, {"$ref": "#/components/schemas/FromImage"}]},
            "FromSpace": {"type": "object", "required": ["flavor", "spaceId"], "properties": {"flavor": {"type": "string"}, "spaceId": {"type": "string"}}},
            "FromImage": {"type": "object", "required": ["flavor", "dockerImage"], "properties": {"flavor": {"type": "string"}, "dockerImage": {"type": "string"}}},
            "State": {"oneOf": [{"type": "boolean"}, {"type": "string", "enum": ["gone"]}],
                "x-rust-variant-names": [{"value": false, "name": "On"}, {"value": true, "name": "Off"}, {"value": "gone", "name": "Gone"}]}
        }))
        .unwrap();
        assert_eq!(
            found,
            [
                (
                    "/components/schemas/Shape".to_owned(),
                    Action::TaggedUnion { tag: "kind".into() }
                ),
                (
                    "/components/schemas/Job".to_owned(),
                    Action::ExclusiveUnion {
                        keys: vec!["spaceId".into(), "dockerImage".into()]
                    }
                ),
                (
                    "/components/schemas/AnyShape".to_owned(),
                    Action::TaggedUnion { tag: "kind".into() }
                ),
                (
                    "/components/schemas/State".to_owned(),
                    Action::LiteralUnion {
                        variants: vec![
                            ("On".into(), "false".into()),
                            ("Off".into(), "true".into()),
                            ("Gone".into(), "\"gone\"".into())
                        ]
                    }
                ),
            ]
        );
    }

    #[test]
    fn refuses_unknown_or_misplaced_decisions_together() {
        let error = inferred(json!({
            "A": {"type": "string", "x-rust-secrets": true},
            "B": {"type": "boolean", "x-rust-secret": true}
        }))
        .unwrap_err();
        assert!(error.starts_with("2 problems:"), "{error}");
        assert!(
            error.contains("/components/schemas/A/x-rust-secrets"),
            "{error}"
        );
        assert!(
            error.contains("decision /components/schemas/B: an `x-rust-` decision"),
            "{error}"
        );
    }

    #[test]
    fn hoists_inline_schemas_that_need_a_patch_under_names_from_their_place() {
        let source = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"post": {"operationId": "markAsRead",
                "parameters": [{"name": "page_size", "in": "query", "schema": {"type": "integer", "minimum": 1}}],
                "requestBody": {"content": {"application/json": {"schema": {"type": "object",
                    "properties": {"ids": {"type": "array", "maxItems": 2, "items": {"type": "string", "format": "uri"}},
                        "note": {"type": "string"}}}}}},
                "responses": {"204": {"description": "d"}}}}},
            "components": {"schemas": {"Settings": {"type": "object", "properties": {
                "limits": {"type": "object", "properties": {"max_ports": {"type": "integer", "maximum": 9}}}}}}}});
        let (mut document, mut provenance) = crate::downlevel::downlevel_traced(&source).unwrap();
        hoist_inline(&mut document, &mut provenance).unwrap();
        let schemas = document["components"]["schemas"].as_object().unwrap();
        let names: Vec<&String> = schemas.keys().collect();
        assert_eq!(
            names,
            [
                "Settings",
                "SettingsLimitsMaxPorts",
                "MarkAsReadPageSize",
                "MarkAsReadBodyIds",
                "MarkAsReadBodyIdsItem"
            ]
        );
        let body = &document["paths"]["/a"]["post"]["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(
            body["properties"]["ids"],
            json!({"$ref": "#/components/schemas/MarkAsReadBodyIds"})
        );
        assert_eq!(body["properties"]["note"], json!({"type": "string"}));
        assert_eq!(
            schemas["MarkAsReadBodyIds"]["items"],
            json!({"$ref": "#/components/schemas/MarkAsReadBodyIdsItem"})
        );
        assert_eq!(
            provenance.source_pointer("/components/schemas/MarkAsReadBodyIds/maxItems"),
            "/paths/~1a/post/requestBody/content/application~1json/schema/properties/ids/maxItems"
        );
        let found = patches(&mut document, &[]).unwrap();
        let actions: Vec<Action> = found.into_iter().map(|patch| patch.action).collect();
        assert_eq!(
            actions,
            [
                Action::BoundedInteger,
                Action::BoundedInteger,
                Action::BoundedArray,
                Action::ValidatedString { secret: false },
            ]
        );
    }

    #[test]
    fn parts_a_patch_names_by_type_get_a_type_of_their_own() {
        let source = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {
                "Tags": {"type": "array", "maxItems": 3, "items": {"type": "string", "enum": ["a", "b"]}},
                "S": {"type": "object", "properties": {
                    "env": {"type": "object", "propertyNames": {"pattern": "^[A-Z]+$"},
                        "additionalProperties": {"type": "string", "enum": ["on", "off"]}},
                    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean", "description": "d"}, {"anyOf": [{"type": "string"}, {"type": "number"}]}]}}}}}});
        let (mut document, mut provenance) = crate::downlevel::downlevel_traced(&source).unwrap();
        hoist_inline(&mut document, &mut provenance).unwrap();
        let names: Vec<&String> = document["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        // Plain positions (a string, a described boolean) keep their Rust types.
        assert_eq!(
            names,
            [
                "Tags",
                "S",
                "TagsItem",
                "SEnv",
                "SEnvValue",
                "SPair",
                "SPairItem2"
            ]
        );
        let found = patches(&mut document, &[]).unwrap();
        let actions: Vec<Action> = found.into_iter().map(|patch| patch.action).collect();
        assert_eq!(
            actions,
            [
                Action::BoundedArray,
                Action::ValidatedMap { secret: false },
                Action::Tuple
            ]
        );
    }

    #[test]
    fn a_nullable_schema_moves_without_its_null_default() {
        let source = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"S": {"type": "object", "properties": {
                "n": {"type": ["integer", "null"], "minimum": 0, "maximum": 5, "default": null},
                "m": {"type": ["integer", "null"], "maximum": 5, "default": 2}}}}}});
        let (mut document, mut provenance) = crate::downlevel::downlevel_traced(&source).unwrap();
        hoist_inline(&mut document, &mut provenance).unwrap();
        assert_eq!(
            document.pointer("/components/schemas/S/properties/n"),
            Some(&json!({"allOf": [{"$ref": "#/components/schemas/SN"}], "nullable": true}))
        );
        assert_eq!(
            document.pointer("/components/schemas/SN"),
            Some(&json!({"type": "integer", "minimum": 0, "maximum": 5}))
        );
        // A default the moved type holds stays with it.
        assert_eq!(
            document.pointer("/components/schemas/SM/default"),
            Some(&json!(2))
        );
        let found = patches(&mut document, &[]).unwrap();
        let actions: Vec<Action> = found.into_iter().map(|patch| patch.action).collect();
        assert_eq!(actions, [Action::BoundedInteger, Action::BoundedInteger]);
    }

    #[test]
    fn a_taken_name_is_numbered_and_the_move_recorded() {
        let source = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {
                "S": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}},
                "sN": {"type": "string"}}}});
        let (mut document, mut provenance) = crate::downlevel::downlevel_traced(&source).unwrap();
        hoist_inline(&mut document, &mut provenance).unwrap();
        // `sN`'s type is `SN`, so the inline `S.n` cannot take that name.
        assert_eq!(
            document.pointer("/components/schemas/S/properties/n"),
            Some(&json!({"$ref": "#/components/schemas/SN2"}))
        );
        assert_eq!(
            document.pointer("/components/schemas/SN2"),
            Some(&json!({"type": "integer", "maximum": 3}))
        );
        assert_eq!(
            provenance.source_pointer("/components/schemas/SN2"),
            "/components/schemas/S/properties/n"
        );
    }
}
