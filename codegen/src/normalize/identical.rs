//! **One type per distinct schema.** A real description repeats an inline schema under many
//! operations (the same `owner` object in every listing, the same error body everywhere), and
//! hoisting makes a component, and so a type, of each place. Here every moved component that
//! states exactly what another component states (its annotations aside: `description`,
//! `title`, examples) becomes that component: each `$ref` to it is rewritten and it is dropped.
//! Merging runs until nothing changes, since two parents become identical once their children
//! are one.
//!
//! Which name stays: a component the description named (an author's name is never dropped,
//! and two of them are never merged); else the words all the moved names end with, from the
//! first that names something (`ListAResponseItemOwner` and `GetBResponseOwner` are `Owner`),
//! when no other type has that name; else the shortest moved name (then the first in order).
//! So the name is deterministic and the shortest sensible one. Two things keep schemas apart
//! though they are identical: one only requests reach and one a response reaches (requests are
//! strict and responses tolerant, so their types differ), and two members of one union or
//! composition (a union of two equal members would list one type twice).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Origins;
use crate::model::{Document, Visit, push, schema_ref_name, unescape, without_annotations};

/// Merges every component in `moved` (names hoisting gave, not the description) into an
/// identical component, rewriting every `$ref`, and drops its entry from `origins`. Returns
/// how many components were merged away.
pub(super) fn share_identical(
    document: &mut Value,
    moved: &BTreeSet<String>,
    origins: &mut Origins,
) -> usize {
    let mut request_only = Document::new(document).request_only_schemas();
    let mut moved = moved.clone();
    let mut taken = crate::contract::component_names_in_use(document);
    taken.extend(
        crate::runtime::SHARED_TYPE_NAMES
            .iter()
            .map(|name| (*name).to_owned()),
    );
    let mut kept_apart: BTreeSet<String> = BTreeSet::new();
    let mut merged = 0;
    loop {
        let Merges {
            mut renames,
            sources,
        } = identical_groups(document, &moved, &request_only, &kept_apart, &mut taken);
        keep_members_apart(document, &mut renames, &mut kept_apart);
        if renames.is_empty() {
            return merged;
        }
        let Some(schemas) = document
            .pointer_mut("/components/schemas")
            .and_then(Value::as_object_mut)
        else {
            return merged;
        };
        // A group's shared name is a new component, a copy of the member that stood for it.
        let mut added = 0;
        for (name, source) in &sources {
            let used = renames.values().any(|target| target == name);
            if used && !schemas.contains_key(name) {
                let Some(schema) = schemas.get(source).cloned() else {
                    continue;
                };
                schemas.insert(name.clone(), schema);
                moved.insert(name.clone());
                // The shared name stands where its members stood: only requests reach it when
                // only requests reached them, so a later round keeps it apart likewise.
                if request_only.contains(source) {
                    request_only.insert(name.clone());
                }
                added += 1;
                let from = origins.get(&push("/components/schemas", source)).cloned();
                if let Some(from) = from {
                    origins.insert(push("/components/schemas", name), from);
                }
            }
        }
        for name in renames.keys() {
            schemas.remove(name);
            origins.remove(&push("/components/schemas", name));
        }
        merged += renames.len() - added;
        rewrite_schema_refs(document, &renames);
    }
}

/// Component name → the name of the identical component it becomes.
type Renames = BTreeMap<String, String>;

/// One round's merges: the renames, and each new shared name with the member it copies.
struct Merges {
    renames: Renames,
    sources: BTreeMap<String, String>,
}

/// Groups the components by what they state, and names in each group with a moved member the
/// one that stays ([`module docs`](self)); every other moved member is renamed to it.
fn identical_groups(
    document: &Value,
    moved: &BTreeSet<String>,
    request_only: &BTreeSet<String>,
    kept_apart: &BTreeSet<String>,
    taken: &mut BTreeSet<String>,
) -> Merges {
    let mut merges = Merges {
        renames: Renames::new(),
        sources: BTreeMap::new(),
    };
    let Some(schemas) = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    else {
        return merges;
    };
    let mut groups: BTreeMap<(bool, String), Vec<&String>> = BTreeMap::new();
    for (name, schema) in schemas {
        let key = (
            request_only.contains(name),
            without_annotations(schema).to_string(),
        );
        groups.entry(key).or_default().push(name);
    }
    for members in groups.values().filter(|members| members.len() > 1) {
        let mergeable = |name: &&&String| moved.contains(**name) && !kept_apart.contains(**name);
        let merging: Vec<&String> = members.iter().filter(mergeable).copied().collect();
        if merging.is_empty() {
            continue;
        }
        // An author's name first, then the shortest, then the first in order.
        let Some(kept) = members
            .iter()
            .min_by_key(|name| (moved.contains(**name), name.len(), **name))
        else {
            continue;
        };
        // Moved schemas alone: the words their names end with, when they name something
        // (`ListAResponseItemOwner` and `GetBResponseOwner` are `Owner`) and no other type.
        let target = if moved.contains(*kept) && merging.len() == members.len() {
            shared_ending(&merging)
                .filter(|name| !taken.contains(name))
                .unwrap_or_else(|| (*kept).clone())
        } else {
            (*kept).clone()
        };
        if target != **kept {
            taken.insert(target.clone());
            merges.sources.insert(target.clone(), (*kept).clone());
        }
        for name in merging {
            if *name != target {
                merges.renames.insert(name.clone(), target.clone());
            }
        }
    }
    merges
}

/// The words every one of `names` ends with (`PascalCase` words), from the first that names
/// something: not a step (`Item`, `Value`, `Variant<n>`), nor an owner's part (`Response`,
/// `Body`, `Inner`). `None` when they share none such.
fn shared_ending(names: &[&String]) -> Option<String> {
    let split: Vec<Vec<&str>> = names.iter().map(|name| words(name)).collect();
    let shortest = split.iter().map(Vec::len).min()?;
    let mut shared = 0;
    while shared < shortest {
        let word = split[0][split[0].len() - 1 - shared];
        if split
            .iter()
            .all(|words| words[words.len() - 1 - shared] == word)
        {
            shared += 1;
        } else {
            break;
        }
    }
    let ending = &split[0][split[0].len() - shared..];
    let is_step = |word: &&str| {
        matches!(*word, "Item" | "Value" | "Response" | "Body" | "Inner")
            || word
                .strip_prefix("Variant")
                .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
            || word.starts_with(|c: char| c.is_ascii_digit())
    };
    let start = ending.iter().position(|word| !is_step(word))?;
    Some(ending[start..].concat())
}

/// The words of a `PascalCase` name: a new word at each capital that follows a small letter or
/// a digit, or that starts a word after an acronym (`HTTPServer` is `HTTP`, `Server`).
fn words(name: &str) -> Vec<&str> {
    let characters: Vec<(usize, char)> = name.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for (index, &(at, character)) in characters.iter().enumerate().skip(1) {
        let previous = characters[index - 1].1;
        let next_is_lower = characters
            .get(index + 1)
            .is_some_and(|(_, next)| next.is_lowercase());
        let boundary = character.is_uppercase()
            && (previous.is_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_uppercase() && next_is_lower));
        if boundary {
            out.push(&name[start..at]);
            start = at;
        }
    }
    out.push(&name[start..]);
    out
}

/// Undoes each rename that would make one union or composition list the same type twice, and
/// remembers the component as kept apart for later rounds.
fn keep_members_apart(document: &Value, renames: &mut Renames, kept_apart: &mut BTreeSet<String>) {
    if renames.is_empty() {
        return;
    }
    let mut lists: Vec<Vec<String>> = Vec::new();
    Document::new(document).visit_schemas(|at| {
        for keyword in ["oneOf", "anyOf", "allOf"] {
            if let Some(Value::Array(members)) = at.schema.get(keyword) {
                let names: Vec<String> = members
                    .iter()
                    .filter_map(|member| member.get("$ref")?.as_str())
                    .filter_map(schema_ref_name)
                    .map(unescape)
                    .collect();
                if names.len() > 1 {
                    lists.push(names);
                }
            }
        }
        Visit::Descend
    });
    for names in lists {
        // A member keeps its own name if an earlier member (renamed or not) already stands
        // for the type it would become.
        let mut listed: BTreeSet<String> = BTreeSet::new();
        let final_name =
            |name: &String, renames: &Renames| renames.get(name).unwrap_or(name).clone();
        for name in &names {
            let mut becomes = final_name(name, renames);
            if listed.contains(&becomes) && renames.remove(name).is_some() {
                kept_apart.insert(name.clone());
                becomes = name.clone();
            }
            listed.insert(becomes);
        }
        // A member that stays as it is, listed after one renamed to it: that one stays too.
        for name in &names {
            if let Some(target) = renames.get(name)
                && names.contains(target)
            {
                renames.remove(name);
                kept_apart.insert(name.clone());
            }
        }
    }
}

/// Rewrites every `$ref` to a renamed component schema (or into one) to name its new name.
fn rewrite_schema_refs(value: &mut Value, renames: &Renames) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match child {
                    Value::String(reference) if key == "$ref" => {
                        if let Some(renamed) = renamed_ref(reference, renames) {
                            *reference = renamed;
                        }
                    }
                    child => rewrite_schema_refs(child, renames),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| rewrite_schema_refs(item, renames)),
        _ => {}
    }
}

/// `reference` with its component renamed, when it names one of `renames`.
fn renamed_ref(reference: &str, renames: &Renames) -> Option<String> {
    let rest = reference.strip_prefix("#/components/schemas/")?;
    let (token, inside) = match rest.split_once('/') {
        Some((token, inside)) => (token, Some(inside)),
        None => (rest, None),
    };
    let new = renames.get(&unescape(token))?;
    let pointer = push("#/components/schemas", new);
    Some(match inside {
        Some(inside) => format!("{pointer}/{inside}"),
        None => pointer,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn moved(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn identical_moved_schemas_become_the_shortest_and_parents_follow() {
        let owner = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        let mut document = json!({"openapi": "3.1.0", "paths": {}, "components": {"schemas": {
            "ListAResponseItemOwner": owner,
            "GetBResponseOwner": {"description": "the owner", "type": "object",
                "properties": {"id": {"type": "string", "description": "its id"}}},
            "ListAResponseItem": {"type": "object", "properties": {
                "owner": {"$ref": "#/components/schemas/ListAResponseItemOwner"}}},
            "GetBResponse": {"type": "object", "properties": {
                "owner": {"$ref": "#/components/schemas/GetBResponseOwner"}}},
            "Other": {"type": "object", "properties": {"id": {"type": "integer"}}}
        }}});
        let mut origins = Origins::new();
        origins.insert(
            "/components/schemas/GetBResponseOwner".into(),
            "/paths/x".into(),
        );
        let merged = share_identical(
            &mut document,
            &moved(&[
                "ListAResponseItemOwner",
                "GetBResponseOwner",
                "ListAResponseItem",
                "GetBResponse",
            ]),
            &mut origins,
        );
        assert_eq!(merged, 2);
        // The two owners end with `Owner`; the two responses share no word that names
        // something, and keep the shorter name.
        let names: BTreeSet<&String> = document["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(
            names,
            BTreeSet::from([
                &"GetBResponse".to_owned(),
                &"Owner".to_owned(),
                &"Other".to_owned()
            ])
        );
        assert_eq!(
            document["components"]["schemas"]["GetBResponse"]["properties"]["owner"]["$ref"],
            "#/components/schemas/Owner"
        );
        // The shared type is the shortest member's copy, annotations and origin included.
        assert_eq!(
            document["components"]["schemas"]["Owner"]["description"],
            "the owner"
        );
        assert_eq!(origins["/components/schemas/Owner"], "/paths/x");
        assert!(!origins.contains_key("/components/schemas/GetBResponseOwner"));
    }

    #[test]
    fn names_split_into_words_and_share_an_ending_that_names_something() {
        assert_eq!(words("HTTPServerV1Item"), ["HTTP", "Server", "V1", "Item"]);
        let names = |list: &[&str]| {
            list.iter()
                .map(|name| (*name).to_owned())
                .collect::<Vec<_>>()
        };
        let shared = |list: &[&str]| {
            let owned = names(list);
            shared_ending(&owned.iter().collect::<Vec<_>>())
        };
        assert_eq!(
            shared(&["CrawlUrlsError", "MapUrlsError"]).as_deref(),
            Some("UrlsError")
        );
        assert_eq!(
            shared(&["CreateAResponseTagsItem", "ListBResponseTagsItem"]).as_deref(),
            Some("TagsItem")
        );
        assert_eq!(shared(&["CreateAResponseItem", "ListBResponseItem"]), None);
        assert_eq!(shared(&["AVariant0", "BVariant0"]), None);
    }

    #[test]
    fn an_author_s_name_stays_and_two_authors_names_are_never_merged() {
        let object = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        let mut document = json!({"openapi": "3.1.0", "paths": {}, "components": {"schemas": {
            "Owner": object, "User": object, "A": object,
            "Holder": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/A"}}}
        }}});
        share_identical(&mut document, &moved(&["A"]), &mut Origins::new());
        let schemas = document["components"]["schemas"].as_object().unwrap();
        let names: BTreeSet<&str> = schemas.keys().map(String::as_str).collect();
        assert_eq!(names, BTreeSet::from(["Holder", "Owner", "User"]));
        assert_eq!(
            schemas["Holder"]["properties"]["a"]["$ref"],
            "#/components/schemas/User"
        );
    }

    #[test]
    fn members_of_one_union_and_requests_beside_responses_stay_apart() {
        let object = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        let mut document = json!({"openapi": "3.1.0",
            "paths": {"/a": {"post": {"operationId": "postA",
                "requestBody": {"content": {"application/json": {"schema":
                    {"$ref": "#/components/schemas/PostABody"}}}},
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Union"}}}}}}}},
            "components": {"schemas": {
                "PostABody": object, "UnionVariant0": object, "UnionVariant1": object,
                "Union": {"oneOf": [{"$ref": "#/components/schemas/UnionVariant0"},
                    {"$ref": "#/components/schemas/UnionVariant1"}]}
        }}});
        let merged = share_identical(
            &mut document,
            &moved(&["PostABody", "UnionVariant0", "UnionVariant1", "Union"]),
            &mut Origins::new(),
        );
        assert_eq!(merged, 0, "{document:#}");
    }

    #[test]
    fn a_shared_name_only_requests_reach_stays_apart_from_a_received_twin() {
        let object = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        let body = |name: &str| {
            json!({"type": "object", "properties": {
                "owner": {"$ref": format!("#/components/schemas/{name}")}}})
        };
        let post = |id: &str, body: &str| {
            json!({"post": {"operationId": id,
                "requestBody": {"content": {"application/json": {"schema":
                    {"$ref": format!("#/components/schemas/{body}")}}}},
                "responses": {"204": {"description": "done"}}}})
        };
        let mut document = json!({"openapi": "3.1.0",
            "paths": {"/a": post("postA", "PostABody"), "/b": post("postB", "PostBBody"),
                "/c": {"get": {"operationId": "getC", "responses": {"200": {
                    "description": "ok", "content": {"application/json": {"schema":
                        {"$ref": "#/components/schemas/GetCResponse"}}}}}}}},
            "components": {"schemas": {
                "PostABody": body("PostABodyOwner"), "PostBBody": body("PostBBodyOwner"),
                "GetCResponse": body("GetCResponseOwner"),
                "PostABodyOwner": object, "PostBBodyOwner": object, "GetCResponseOwner": object
        }}});
        share_identical(
            &mut document,
            &moved(&[
                "PostABody",
                "PostBBody",
                "GetCResponse",
                "PostABodyOwner",
                "PostBBodyOwner",
                "GetCResponseOwner",
            ]),
            &mut Origins::new(),
        );
        let schemas = document["components"]["schemas"].as_object().unwrap();
        // The two request owners are one `Owner`, only requests reach it, and the response's
        // owner keeps a type of its own in every round.
        assert_eq!(
            schemas["GetCResponse"]["properties"]["owner"]["$ref"],
            "#/components/schemas/GetCResponseOwner",
            "{document:#}"
        );
        assert_eq!(
            schemas["PostABody"]["properties"]["owner"]["$ref"], "#/components/schemas/Owner",
            "{document:#}"
        );
    }
}
