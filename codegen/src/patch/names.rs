//! Step 3a: schemas typify would give the same type name, moved apart.
//!
//! typify names an inline schema by where it sits: its parent's type name, then a word per
//! step (`contract::type_names`). Two different places can spell the same name: the property
//! `repoType` of `GetWebhooksResponse` and the property `type` of its property `repo` are both
//! `GetWebhooksResponseRepoType`, and the property `bar` of the component `Foo` is named like
//! the component `FooBar`. typify then either emits both types under that name, which does not
//! compile, or gives both places the first one's type, which decodes the second place wrongly
//! without a word. So every schema that would be named like a different one, and that is not a
//! component, is moved into `components/schemas` under the first free name (`<Name>2`, ...),
//! a `$ref` left in its place, and reported. A component keeps its name; among inline schemas,
//! the first in document order does.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::Error;
use crate::downlevel::Provenance;
use crate::model::{Owner, SchemaAt, mark, push};
use crate::report::{Finding, FindingKind};

/// The keywords that make typify emit a named type for a schema (a struct, an enum, a checked
/// newtype), rather than use a Rust type for it (`String`, `Vec<T>`, a map) or the type a
/// `$ref` names. Counting a schema that turns out unnamed only costs a needless move.
const NAMED: &[&str] = &[
    "properties",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "pattern",
    "minLength",
    "maxLength",
    mark::PREFIX_ITEMS,
];

/// Moves apart every schema typify would name like a different one (see the module docs) and
/// returns what was moved. Each move renames the moved schema's own inline parts, so the check
/// runs again until no name is shared.
pub(crate) fn separate_alike_names(
    document: &mut Value,
    provenance: &mut Provenance,
) -> Result<Vec<Moved>, Error> {
    let mut repairs = Vec::new();
    // Each round moves at least one schema out of place for good; a name still shared after
    // as many rounds as there are schemas is left to `emit`, which names it.
    for _ in 0..=crate::model::schema_locations(document).len() {
        let names = crate::contract::type_names(document);
        let moves = alike(&names);
        if moves.is_empty() {
            break;
        }
        let mut used: BTreeSet<String> = names.into_iter().map(|(name, _)| name).collect();
        used.extend(
            crate::runtime::SHARED_TYPE_NAMES
                .iter()
                .map(|name| (*name).to_owned()),
        );
        used.extend(
            document
                .pointer("/components/schemas")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|schemas| schemas.keys().cloned()),
        );
        let mut moved = Vec::new();
        for Move {
            pointer,
            name,
            first,
        } in moves
        {
            // `name` itself is in use: the first free one is `<name>2`, `<name>3`, ...
            let new = crate::normalize::unique_name(&name, &used);
            used.insert(new.clone());
            let Some(slot) = document.pointer_mut(&pointer) else {
                continue;
            };
            let mut schema = std::mem::take(slot);
            *slot = reference_to(&new, &mut schema);
            let source = provenance.source_pointer(&pointer);
            repairs.push(Moved {
                source: source.clone(),
                name,
                first: provenance.source_pointer(&first),
                new: new.clone(),
            });
            moved.push((new, schema, source));
        }
        if moved.is_empty() {
            break;
        }
        let schemas = super::infer::component_schemas(document)?;
        for (name, schema, source) in moved {
            schemas.insert(name.clone(), schema);
            provenance.record_move(&push("/components/schemas", &name), source);
        }
    }
    Ok(repairs)
}

/// What takes the place of `schema`, moved to the component `name`. A nullable schema stays
/// nullable where it is used, as a `$ref` with a sibling is down-levelled; the component is the
/// schema without `null`, so its type is the one it would have had inline (an enum named, and
/// so decoded, like the schema's other types, not an inner type of a nullable newtype).
fn reference_to(name: &str, schema: &mut Value) -> Value {
    let reference = json!({"$ref": format!("#{}", push("/components/schemas", name))});
    let Some(Value::Bool(true)) = schema
        .as_object_mut()
        .and_then(|map| map.remove("nullable"))
    else {
        return reference;
    };
    if let Some(Value::Array(values)) = schema.get_mut("enum") {
        values.retain(|value| !value.is_null());
    }
    json!({"allOf": [reference], "nullable": true})
}

/// A schema moved apart, for the report: where it was in the down-levelled document's source,
/// the name it shared, where the schema that kept the name is, and its component's name.
#[derive(Clone, Debug)]
pub(crate) struct Moved {
    source: String,
    name: String,
    first: String,
    new: String,
}

impl Moved {
    /// The repair as a finding, its places named by `source` (which maps a moved schema's
    /// pointer to where the original document has it).
    pub(crate) fn finding(&self, source: impl Fn(&str) -> String) -> Finding {
        Finding::new(
            FindingKind::Repaired,
            &source(&self.source),
            format!(
                "typify would give it the type name `{}` of {} and one type to both; moved into `components/schemas` as `{}`",
                self.name,
                source(&self.first),
                self.new
            ),
        )
    }
}

/// One schema to move: where it is, the name it shares, and where the schema that keeps the
/// name is.
struct Move {
    pointer: String,
    name: String,
    first: String,
}

/// Every inline schema typify would name like a different schema, deepest first, so that
/// moving one leaves the pointers of the others valid.
fn alike<'a>(names: &'a [(String, SchemaAt<'a>)]) -> Vec<Move> {
    let mut by_name: BTreeMap<&str, Vec<(&str, bool, &Value)>> = BTreeMap::new();
    for (name, at) in names {
        if is_named(at.schema) {
            let component = at.depth == 0 && matches!(at.owner, Owner::Schema(_));
            by_name
                .entry(name)
                .or_default()
                .push((&at.pointer, component, at.schema));
        }
    }
    let mut moves = Vec::new();
    for (name, places) in by_name {
        let Some((first, _, schema)) = places
            .iter()
            .find(|(_, component, _)| *component)
            .or_else(|| places.first())
        else {
            continue;
        };
        // Equal schemas of one name are one type, rightly.
        if places.iter().all(|(_, _, other)| other == schema) {
            continue;
        }
        for (pointer, component, _) in &places {
            if pointer != first && !component {
                moves.push(Move {
                    pointer: (*pointer).to_owned(),
                    name: name.to_owned(),
                    first: (*first).to_owned(),
                });
            }
        }
    }
    moves.sort_by_key(|at| std::cmp::Reverse(at.pointer.matches('/').count()));
    moves
}

fn is_named(schema: &Value) -> bool {
    // `allOf: [{$ref}]` is how down-levelling keeps a `$ref` with siblings (a description,
    // `nullable`): typify uses the referenced type. A `oneOf` or `anyOf` of one member is that
    // member, named like the union (`contract::union_member_words`): one type, not two.
    let names_a_type = |keyword: &&str| match schema.get(*keyword) {
        None => false,
        Some(Value::Array(members)) if matches!(*keyword, "oneOf" | "anyOf") => members.len() != 1,
        Some(Value::Array(members)) if keyword.ends_with("Of") => {
            !matches!(members.as_slice(), [only] if only.get("$ref").is_some())
        }
        Some(_) => true,
    };
    schema.get("$ref").is_none()
        && (NAMED.iter().any(names_a_type)
            || schema.get("additionalProperties") == Some(&Value::Bool(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn separated(mut document: Value) -> (Value, Vec<Finding>) {
        let mut provenance = Provenance::default();
        let moved = separate_alike_names(&mut document, &mut provenance).unwrap();
        let repairs = moved
            .iter()
            .map(|moved| moved.finding(ToOwned::to_owned))
            .collect();
        (document, repairs)
    }

    #[test]
    fn an_inline_schema_named_like_a_component_moves() {
        let (document, repairs) = separated(json!({
            "openapi": "3.0.3",
            "components": {"schemas": {
                "Foo": {"type": "object", "properties": {"bar": {"type": "string", "enum": ["x"]}}},
                "FooBar": {"type": "object", "properties": {"n": {"type": "integer"}}},
            }},
        }));
        assert_eq!(
            document["components"]["schemas"]["Foo"]["properties"]["bar"],
            json!({"$ref": "#/components/schemas/FooBar2"})
        );
        assert_eq!(
            document["components"]["schemas"]["FooBar2"],
            json!({"type": "string", "enum": ["x"]})
        );
        assert_eq!(repairs.len(), 1);
        assert_eq!(repairs[0].pointer, "/components/schemas/Foo/properties/bar");
        assert!(
            repairs[0]
                .message
                .contains("`FooBar` of /components/schemas/FooBar and"),
            "{}",
            repairs[0].message
        );
    }

    #[test]
    fn two_inline_schemas_of_one_name_part_and_equal_ones_stay() {
        let repo_type = json!({"type": "string", "enum": ["a", "b"]});
        let (document, repairs) = separated(json!({
            "openapi": "3.0.3",
            "components": {"schemas": {
                "R": {"type": "object", "properties": {
                    "repoType": repo_type,
                    "repo": {"$ref": "#/components/schemas/RRepo"},
                }},
                "RRepo": {"type": "object", "properties": {
                    "type": {"type": "string", "enum": ["asc", "desc"]},
                }},
                // Named `SKind` twice, but the same schema: one type is right.
                "S": {"type": "object", "properties": {"kind": repo_type, "k": {
                    "type": "object", "properties": {"ind": repo_type}}}},
            }},
        }));
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["R"]["properties"]["repoType"], repo_type);
        assert_eq!(
            schemas["RRepo"]["properties"]["type"],
            json!({"$ref": "#/components/schemas/RRepoType2"})
        );
        assert_eq!(repairs.len(), 1, "{repairs:?}");
        assert_eq!(schemas["S"]["properties"]["kind"], repo_type);
    }

    #[test]
    fn a_union_of_one_and_its_member_are_one_type() {
        // typify writes `oneOf: [X]` as `X` under the union's name: both places are named
        // `JobKind`, and that is right.
        let (_, repairs) = separated(json!({
            "openapi": "3.0.3",
            "components": {"schemas": {
                "Job": {"type": "object", "properties": {"kind": {
                    "oneOf": [{"type": "string", "enum": ["wandb"]}],
                }}},
            }},
        }));
        assert!(repairs.is_empty(), "{repairs:?}");
    }

    #[test]
    fn a_described_reference_is_the_referenced_type() {
        let (_, repairs) = separated(json!({
            "openapi": "3.0.3",
            "components": {"schemas": {
                "Job": {"type": "object", "properties": {"status": {
                    "allOf": [{"$ref": "#/components/schemas/JobStatus"}],
                    "description": "The job's status.",
                }}},
                "JobStatus": {"type": "string", "enum": ["running", "done"]},
            }},
        }));
        assert!(repairs.is_empty(), "{repairs:?}");
    }

    #[test]
    fn plain_types_share_names_freely() {
        let (_, repairs) = separated(json!({
            "openapi": "3.0.3",
            "components": {"schemas": {
                "A": {"type": "object", "properties": {"bC": {"type": "string"}, "b": {
                    "type": "object", "properties": {"c": {"type": "integer"}}}}},
            }},
        }));
        assert!(repairs.is_empty());
    }
}
