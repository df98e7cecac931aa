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
//!
//! Three names no place of the document spells are predicted too. The schemas inside the parts
//! of an `allOf` typify merges are named as the merged type's (`contract::
//! type_names_with_merged_parts`: Microsoft Graph's `accessPackage.catalog`, in its second part,
//! is `MicrosoftGraphAccessPackageCatalog`, a component's name). An inline schema equal to the
//! component whose name it takes (AWS IoT Jobs' path parameter `jobId` of `DescribeJobExecution`
//! and the component `DescribeJobExecutionJobId`) becomes a `$ref` to it: typify would give it
//! the component's type, except when a patch replaces the component and leaves the name free,
//! and then write it again. A component typify copies under its own name while merging another
//! `allOf` (`contract::merged_copies`, Zuora's custom fields) is put ahead of that `allOf`'s
//! component, so the copy is its type.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::Error;
use crate::downlevel::Provenance;
use crate::model::{SchemaAt, mark, push};
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
        // typify names the schemas of an `allOf` it merges as the merged type's.
        let names = crate::contract::type_names_with_merged_parts(document);
        let moves = alike(document, &names);
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
        let mut referred = false;
        for Move {
            pointer,
            name,
            first,
            component,
        } in moves
        {
            let Some(slot) = document.pointer_mut(&pointer) else {
                continue;
            };
            let source = provenance.source_pointer(&pointer);
            let first_source = provenance.source_pointer(&first);
            if let Some(component) = component {
                // The component's own schema, so its type, whatever a patch makes of it.
                *slot = json!({"$ref": format!("#{}", push("/components/schemas", &component))});
                referred = true;
                repairs.push(Moved {
                    source,
                    remedy: Remedy::Referred {
                        name,
                        first: first_source,
                    },
                });
                continue;
            }
            // `name` itself is in use: the first free one is `<name>2`, `<name>3`, ...
            let new = crate::normalize::unique_name(&name, &used);
            used.insert(new.clone());
            let mut schema = std::mem::take(slot);
            *slot = reference_to(&new, &mut schema);
            repairs.push(Moved {
                source: source.clone(),
                remedy: Remedy::Moved {
                    name: name.clone(),
                    first: first_source,
                    new: new.clone(),
                },
            });
            moved.push((new, schema, source));
        }
        if moved.is_empty() {
            if referred {
                continue;
            }
            break;
        }
        let schemas = super::infer::component_schemas(document)?;
        for (name, schema, source) in moved {
            schemas.insert(name.clone(), schema);
            provenance.record_move(&push("/components/schemas", &name), source);
        }
    }
    // After the moves, which can add compositions to `components/schemas`.
    repairs.extend(put_copied_components_ahead(document, provenance));
    Ok(repairs)
}

/// Every component typify would copy under its own name while it merges an `allOf` that
/// comes before it (`contract::merged_copies`: Zuora's `POSTAccountType` merges the
/// `additionalProperties` of `AccountObjectCustomFields` into its property `billToContact`, a
/// `$ref` to the composition `POSTAccountTypeBillToContact`, and writes the merged copy as
/// `PostAccountTypeBillToContact`) is put ahead of the component whose conversion makes the
/// copy. typify claims a component's name once it has converted it, and gives a schema named
/// like a type it has that type: the copy, the same schema when the merged
/// `additionalProperties` states nothing, is then the component's type instead of a second
/// type of the name. A copy named otherwise, or of an `additionalProperties` that states
/// something, is a type of its own, left to typify.
fn put_copied_components_ahead(document: &mut Value, provenance: &Provenance) -> Vec<Moved> {
    let mut repairs: Vec<Moved> = Vec::new();
    let component_key = |pointer: &str| -> Option<String> {
        let rest = pointer.strip_prefix("/components/schemas/")?;
        Some(crate::model::unescape(rest.split('/').next()?))
    };
    // Reordering moves no schema: the copies stay the same.
    let candidates: Vec<(crate::contract::MergedCopy, String, String)> =
        crate::contract::merged_copies(document)
            .into_iter()
            .filter_map(|copy| {
                let target = component_key(&copy.target)?;
                let converting = component_key(&copy.composer)?;
                let own_name = crate::contract::typify_name(&target) == copy.name
                    && copy.target == push("/components/schemas", &target);
                let states_nothing = document
                    .pointer(&copy.additional)
                    .is_some_and(states_nothing);
                (own_name && states_nothing && target != converting)
                    .then_some((copy, target, converting))
            })
            .collect();
    // Each round puts one component ahead; a cycle of such components is left after as many
    // rounds as there are copies.
    for _ in 0..=candidates.len() {
        let Some(schemas) = document
            .pointer("/components/schemas")
            .and_then(Value::as_object)
        else {
            break;
        };
        let position = |key: &str| schemas.keys().position(|known| known == key);
        let ahead = candidates.iter().find(|(_, target, converting)| {
            matches!((position(target), position(converting)), (Some(target), Some(converting)) if target > converting)
        });
        let Some((copy, target, converting)) = ahead.cloned() else {
            break;
        };
        let entries = std::mem::take(
            document
                .pointer_mut("/components/schemas")
                .and_then(Value::as_object_mut)
                .expect("read above"),
        );
        let mut moved = None;
        let mut reordered = serde_json::Map::new();
        let mut rest = Vec::new();
        for (key, schema) in entries {
            if key == target {
                moved = Some(schema);
            } else {
                rest.push((key, schema));
            }
        }
        for (key, schema) in rest {
            if key == converting
                && let Some(schema) = moved.take()
            {
                reordered.insert(target.clone(), schema);
            }
            reordered.insert(key, schema);
        }
        *document
            .pointer_mut("/components/schemas")
            .expect("read above") = Value::Object(reordered);
        repairs.push(Moved {
            source: provenance.source_pointer(&copy.target),
            remedy: Remedy::Ahead {
                name: copy.name,
                composer: provenance.source_pointer(&copy.composer),
                converting: provenance.source_pointer(&push("/components/schemas", &converting)),
            },
        });
    }
    repairs
}

/// The keys of a schema that states nothing an instance can break.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "example",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "externalDocs",
    "$comment",
];

/// Whether `schema` takes any value: only annotations, and no mark a later step reads.
fn states_nothing(schema: &Value) -> bool {
    const CARRYING: &[&str] = &[
        mark::PREFIX_ITEMS,
        mark::PROPERTY_NAMES,
        mark::NOT,
        mark::DEEP_OBJECT,
        mark::OPEN_ENUM,
        mark::ANY_OF,
        mark::FORM_FILE,
        mark::MULTIPART,
    ];
    schema.as_object().is_some_and(|object| {
        object.keys().all(|key| {
            ANNOTATIONS.contains(&key.as_str())
                || (key.starts_with("x-")
                    && !CARRYING.contains(&key.as_str())
                    && !key.starts_with(mark::AUTHORED_PREFIX))
        })
    })
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
/// and what became of it.
#[derive(Clone, Debug)]
pub(crate) struct Moved {
    source: String,
    remedy: Remedy,
}

/// What became of a schema: named `name` like another, whose place is `first`, or merged
/// into the properties of a composer's other parts.
#[derive(Clone, Debug)]
enum Remedy {
    /// Moved into `components/schemas` under the name `new`.
    Moved {
        name: String,
        first: String,
        new: String,
    },
    /// The same schema as the component that keeps the name: a `$ref` to it now.
    Referred { name: String, first: String },
    /// A component typify would copy as `name`, its own type name, while it merges the `allOf`
    /// of `composer`, in the component `converting`: put ahead of that component.
    Ahead {
        name: String,
        composer: String,
        converting: String,
    },
}

impl Moved {
    /// The repair as a finding, its places named by `source` (which maps a moved schema's
    /// pointer to where the original document has it).
    pub(crate) fn finding(&self, source: impl Fn(&str) -> String) -> Finding {
        let message = match &self.remedy {
            Remedy::Moved { name, first, new } => format!(
                "typify would give it the type name `{name}` of {} and one type to both; moved into `components/schemas` as `{new}`",
                source(first)
            ),
            Remedy::Referred { name, first } => format!(
                "typify would give it the type name `{name}` of {}, the same schema, and write that type again beside the component's own; now a `$ref` to the component",
                source(first)
            ),
            Remedy::Ahead {
                name,
                composer,
                converting,
            } => format!(
                "typify would copy it as `{name}`, its own type name, merging an `additionalProperties` that states nothing into the `allOf` of {}, and write both; put ahead of {} in `components/schemas`, so that the copy is this type",
                source(composer),
                source(converting)
            ),
        };
        Finding::new(FindingKind::Repaired, &source(&self.source), message)
    }
}

/// One schema to move: where it is, the name it shares, where the schema that keeps the name
/// is, and that schema's component name when it is a component stating the same schema (then
/// the place refers to it rather than moving).
struct Move {
    pointer: String,
    name: String,
    first: String,
    component: Option<String>,
}

/// Every inline schema typify would name like a different schema, deepest first, so that
/// moving one leaves the pointers of the others valid; and every inline schema named like the
/// component that states the same schema.
///
/// typify gives a schema named like a type it already has that type (`assign_type` looks the
/// name up), so equal schemas of one name are one type, rightly, with one exception: a
/// component a patch replaces leaves its name unclaimed (the replacement is a type typify does
/// not name), and the inline schema after it is written again under that name, beside the
/// patch's own. An inline schema equal to the component of its name is that component's type
/// either way, and becomes a `$ref` to it.
fn alike<'a>(document: &Value, names: &'a [(String, SchemaAt<'a>)]) -> Vec<Move> {
    let model = crate::model::Document::new(document);
    let mut by_name: BTreeMap<&str, Vec<Place<'_>>> = BTreeMap::new();
    for (name, at) in names {
        if is_named(at.schema) {
            // A component's own schema, also where it is named as a part merged into another.
            let component = at
                .pointer
                .strip_prefix("/components/schemas/")
                .filter(|key| !key.contains('/'))
                .map(crate::model::unescape);
            by_name.entry(name).or_default().push(Place {
                pointer: &at.pointer,
                component,
                schema: at.schema,
            });
        }
    }
    let mut moves = Vec::new();
    for (name, mut places) in by_name {
        // The parts of an `allOf` typify merges (or, one part, writes as that part) are named
        // as the type they make, which they are.
        let parts: BTreeSet<String> = places
            .iter()
            .filter_map(|place| Some((place.pointer, place.schema.get("allOf")?.as_array()?)))
            .flat_map(|(pointer, parts)| {
                parts
                    .iter()
                    .enumerate()
                    .map(move |(index, part)| match model.resolve_at(part) {
                        Some((Some(target), _)) => target,
                        _ => format!("{pointer}/allOf/{index}"),
                    })
            })
            .collect();
        places.retain(|place| !parts.contains(place.pointer));
        let Some(keeper) = places
            .iter()
            .find(|place| place.component.is_some())
            .or_else(|| places.first())
        else {
            continue;
        };
        for place in &places {
            if place.pointer == keeper.pointer || place.component.is_some() {
                continue;
            }
            let same = place.schema == keeper.schema;
            // An inline schema equal to the inline one that keeps the name is given its type.
            if same && keeper.component.is_none() {
                continue;
            }
            moves.push(Move {
                pointer: place.pointer.to_owned(),
                name: name.to_owned(),
                first: keeper.pointer.to_owned(),
                component: keeper.component.clone().filter(|_| same),
            });
        }
    }
    // A schema inside a merged `allOf` part has two names (its place's and the merged type's):
    // it moves once, for the first name met.
    let mut seen = BTreeSet::new();
    moves.retain(|at| seen.insert(at.pointer.clone()));
    moves.sort_by_key(|at| std::cmp::Reverse(at.pointer.matches('/').count()));
    moves
}

/// A place of a schema typify names: its pointer, its component's name when it is a
/// component's own schema, and the schema.
struct Place<'a> {
    pointer: &'a str,
    component: Option<String>,
    schema: &'a Value,
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
    fn an_inline_schema_equal_to_the_component_of_its_name_refers_to_it() {
        // AWS IoT Jobs: progenitor names the path parameter's type `<OperationId><Parameter>`,
        // `DescribeJobExecutionJobId`, the name of the equal component. The component's
        // pattern gets a patch, which typify does not count as a type of that name: it would
        // write the parameter's type again beside the patch's.
        let job_id = json!({"type": "string", "pattern": "[a-zA-Z0-9_-]+|^\\$next"});
        let (document, repairs) = separated(json!({
            "openapi": "3.0.3",
            "paths": {"/things/{thingName}/jobs/{jobId}": {"get": {
                "operationId": "DescribeJobExecution",
                "parameters": [{"name": "jobId", "in": "path", "required": true, "schema": job_id}],
                "responses": {"200": {"description": "d"}},
            }}},
            "components": {"schemas": {"DescribeJobExecutionJobId": job_id}},
        }));
        let parameter = "/paths/~1things~1{thingName}~1jobs~1{jobId}/get/parameters/0/schema";
        assert_eq!(
            document.pointer(parameter).unwrap(),
            &json!({"$ref": "#/components/schemas/DescribeJobExecutionJobId"})
        );
        assert_eq!(
            document["components"]["schemas"]["DescribeJobExecutionJobId"],
            job_id
        );
        assert_eq!(repairs.len(), 1, "{repairs:?}");
        assert_eq!(repairs[0].pointer, parameter);
        assert!(
            repairs[0].message.contains("now a `$ref` to the component"),
            "{}",
            repairs[0].message
        );
    }

    #[test]
    fn a_component_typify_copies_under_its_own_name_goes_ahead_of_the_copier() {
        // Zuora: merging `Account`'s parts, typify reads `CustomFields`' `additionalProperties`
        // as the schema of `billTo` too and copies the composition `AccountBillTo` as
        // `AccountBillTo`. Converted after `Account`, the component would be a second type of
        // that name; converted before, it is the copy's type.
        let custom =
            |additional: Value| json!({"type": "object", "additionalProperties": additional});
        let document = |additional: Value| {
            json!({
                "openapi": "3.0.3",
                "components": {"schemas": {
                    "Account": {"allOf": [
                        {"$ref": "#/components/schemas/AccountFields"},
                        {"$ref": "#/components/schemas/CustomFields"},
                    ]},
                    "AccountFields": {"type": "object", "properties": {
                        "billTo": {"$ref": "#/components/schemas/AccountBillTo"},
                    }},
                    "AccountBillTo": {"allOf": [
                        {"$ref": "#/components/schemas/Address"},
                        {"$ref": "#/components/schemas/CustomFields"},
                    ]},
                    "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
                    "CustomFields": custom(additional),
                }},
            })
        };
        let keys = |document: &Value| -> Vec<String> {
            document["components"]["schemas"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        let (separated_document, repairs) =
            separated(document(json!({"description": "A custom field."})));
        assert_eq!(
            keys(&separated_document),
            [
                "AccountBillTo",
                "Account",
                "AccountFields",
                "Address",
                "CustomFields"
            ]
        );
        assert_eq!(repairs.len(), 1, "{repairs:?}");
        assert_eq!(repairs[0].pointer, "/components/schemas/AccountBillTo");
        assert!(
            repairs[0]
                .message
                .contains("put ahead of /components/schemas/Account in"),
            "{}",
            repairs[0].message
        );
        // Merged with a schema that states something, the copy is a type of its own: the
        // component must not take its place.
        let (kept, repairs) = separated(document(json!({"type": "string"})));
        assert_eq!(keys(&kept), keys(&document(json!({}))));
        assert!(repairs.is_empty(), "{repairs:?}");
    }

    #[test]
    fn a_schema_in_a_merged_part_is_named_as_the_merged_type_names_it() {
        // Microsoft Graph: typify merges `Package`'s parts, so the union `catalog` of its second
        // part is `PackageCatalog`, the component's name, not `PackageVariant1Catalog`.
        let (document, repairs) = separated(json!({
            "openapi": "3.0.3",
            "components": {"schemas": {
                "Package": {"allOf": [
                    {"$ref": "#/components/schemas/Entity"},
                    {"type": "object", "properties": {"catalog": {"oneOf": [
                        {"$ref": "#/components/schemas/PackageCatalog"},
                        {"type": "object", "nullable": true},
                    ]}}},
                ]},
                "Entity": {"type": "object", "properties": {"id": {"type": "string"}}},
                "PackageCatalog": {"type": "object", "properties": {"name": {"type": "string"}}},
            }},
        }));
        assert_eq!(
            document["components"]["schemas"]["Package"]["allOf"][1]["properties"]["catalog"],
            json!({"$ref": "#/components/schemas/PackageCatalog2"})
        );
        assert_eq!(repairs.len(), 1, "{repairs:?}");
        // A described `$ref` (an `allOf` of one) is the referenced type: nothing merged, nothing
        // named anew, so the component it refers to is not named after the place.
        let (_, repairs) = separated(json!({
            "openapi": "3.0.3",
            "components": {"schemas": {
                "Job": {"type": "object", "properties": {"execution": {
                    "allOf": [{"$ref": "#/components/schemas/Execution"}],
                    "description": "d",
                }}},
                "Execution": {"type": "object", "properties": {"state": {"type": "string", "enum": ["a"]}}},
                "JobExecutionState": {"type": "string", "enum": ["b"]},
            }},
        }));
        assert!(repairs.is_empty(), "{repairs:?}");
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
