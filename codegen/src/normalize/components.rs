//! Component schemas as typify can name them. A component named like a type the generated
//! code shares (`CheckedString`, `ValidationError`, ...) is renamed `<Name>Schema`, and one
//! whose type would be named like an earlier component's (`check_result` after `CheckResult`)
//! `<Name>2`, with every `$ref` to them. A component's own `$defs`, which progenitor cannot
//! resolve, become components of their own; and a component that is a union with a `null`
//! member is split into the union and the nullable that holds it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::{Finding, FindingKind, Origins, pascal, unique_name};
use crate::model::{mark, push};

/// A component schema's own `$defs` (or draft 4's `definitions`), which progenitor cannot
/// resolve: each definition a `$ref` points to becomes the component `<Component><Name>`, with
/// every such `$ref` rewritten; unused ones are dropped. Both are reported.
pub(super) fn local_definitions(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    let mut origins = Origins::new();
    let text = document.to_string();
    let mut taken = crate::contract::component_names_in_use(document);
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return origins;
    };
    let mut moved = Vec::new();
    let mut renames = Vec::new();
    for (name, schema) in schemas.iter_mut() {
        for keyword in ["$defs", "definitions"] {
            let Some(Value::Object(definitions)) = schema
                .as_object_mut()
                .and_then(|object| object.remove(keyword))
            else {
                continue;
            };
            let at = push(&push("/components/schemas", name), keyword);
            for (definition, body) in definitions {
                let old = push(&at, &definition);
                let referenced =
                    text.contains(&format!("\"#{old}\"")) || text.contains(&format!("\"#{old}/"));
                if !referenced {
                    findings.push(Finding::new(
                        FindingKind::Repaired,
                        &old,
                        "a local definition no `$ref` uses; dropped",
                    ));
                    continue;
                }
                let new = unique_name(
                    &format!("{}{}", type_name(name), type_name(&definition)),
                    &taken,
                );
                taken.insert(new.clone());
                findings.push(Finding::new(
                    FindingKind::Repaired,
                    &old,
                    format!("a local definition, which progenitor cannot resolve; moved into `components/schemas` as `{new}`"),
                ));
                let new_pointer = push("/components/schemas", &new);
                origins.insert(new_pointer.clone(), old.clone());
                renames.push((format!("#{old}"), format!("#{new_pointer}")));
                moved.push((new, body));
            }
        }
    }
    schemas.extend(moved);
    if !renames.is_empty() {
        rewrite_refs(document, &renames);
    }
    origins
}

/// A component that is a union with a `null` member (`oneOf: [string, null, $ref]`) is split
/// in two: `<Name>Inner`, the union without `null`, and the component, `anyOf: [<Name>Inner,
/// null]`. typify names both halves of such a component after it (the `Option` newtype and the
/// union inside it), which would not compile; split, it names them as it names a nullable
/// object's, `<Name>` holding an `Option<<Name>Inner>`. Returns where each new component came
/// from.
pub(super) fn nullable_union_components(document: &mut Value) -> Origins {
    let mut origins = Origins::new();
    let mut taken = crate::contract::component_names_in_use(document);
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return origins;
    };
    let is_null = |member: &Value| member.get("type").and_then(Value::as_str) == Some("null");
    let mut split = Vec::new();
    for (name, schema) in schemas.iter_mut() {
        let Some(object) = schema.as_object_mut() else {
            continue;
        };
        let Some(keyword) = ["oneOf", "anyOf"].into_iter().find(|keyword| {
            object
                .get(*keyword)
                .and_then(Value::as_array)
                .is_some_and(|members| members.iter().any(is_null))
        }) else {
            continue;
        };
        let members = object
            .get(keyword)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let rest: Vec<Value> = members
            .into_iter()
            .filter(|member| !is_null(member))
            .collect();
        // One `$ref` beside `null` is typify's `Option` of that type already.
        let single_reference = matches!(rest.as_slice(), [only] if only.get("$ref").is_some());
        let structural = object.keys().any(|key| {
            ![
                "description",
                "title",
                "example",
                "examples",
                "default",
                "deprecated",
                mark::ANY_OF,
                keyword,
            ]
            .contains(&key.as_str())
        });
        if rest.is_empty() || single_reference || structural {
            continue;
        }
        let inner = unique_name(&format!("{}Inner", type_name(name)), &taken);
        taken.insert(inner.clone());
        let mut union = json!({ keyword: rest });
        // `anyOf` handed on as `oneOf` keeps its mark on the half that is the union.
        if let Some(mark) = object.get(mark::ANY_OF) {
            union[mark::ANY_OF] = mark.clone();
        }
        object.insert(
            keyword.to_owned(),
            json!([{"$ref": format!("#/components/schemas/{inner}")}, {"type": "null"}]),
        );
        origins.insert(
            push("/components/schemas", &inner),
            push("/components/schemas", name),
        );
        split.push((inner, union));
    }
    schemas.extend(split);
    origins
}

/// Renames each component schema whose type would take the name of a type the generated code
/// shares ([`crate::runtime::SHARED_TYPE_NAMES`], compared as typify names types, in
/// UpperCamelCase) to `<Name>Schema`, and each whose type would take the name of an earlier
/// component's (`foo_bar` after `FooBar`) to `<Name>2`, with every `$ref` to them: two items of
/// one name would not compile, and the description's name is the one that can move. Returns
/// where each renamed component came from.
pub(super) fn rename_shared_names(document: &mut Value, findings: &mut Vec<Finding>) -> Origins {
    let mut origins = Origins::new();
    let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return origins;
    };
    let mut taken: BTreeSet<String> = schemas.keys().map(|name| type_name(name)).collect();
    taken.extend(
        crate::runtime::SHARED_TYPE_NAMES
            .iter()
            .map(|name| (*name).to_owned()),
    );
    // A name the generated code shares, or the type name of an earlier component (`foo_bar`
    // after `FooBar`): the later one is renamed.
    let mut first_named: BTreeMap<String, String> = BTreeMap::new();
    let mut clashing: Vec<(String, Option<String>)> = Vec::new();
    for name in schemas.keys() {
        let typed = type_name(name);
        if crate::runtime::SHARED_TYPE_NAMES.contains(&typed.as_str()) {
            clashing.push((name.clone(), None));
        } else if let Some(first) = first_named.get(&typed) {
            clashing.push((name.clone(), Some(first.clone())));
        } else {
            first_named.insert(typed, name.clone());
        }
    }
    let mut renames = Vec::new();
    for (old, first) in clashing {
        let new = match &first {
            None => unique_name(&format!("{}Schema", type_name(&old)), &taken),
            Some(_) => unique_name(&type_name(&old), &taken),
        };
        taken.insert(new.clone());
        if let Some(schema) = schemas.remove(&old) {
            schemas.insert(new.clone(), schema);
        }
        let (old_pointer, new_pointer) = (
            push("/components/schemas", &old),
            push("/components/schemas", &new),
        );
        let why = match first {
            None => "the generated code has a type of its own named".to_owned(),
            Some(first) => format!(
                "the type of {} is named",
                push("/components/schemas", &first)
            ),
        };
        findings.push(Finding::new(
            FindingKind::Repaired,
            &old_pointer,
            format!("renamed to `{new}`: {why} `{}`", type_name(&old)),
        ));
        origins.insert(new_pointer.clone(), old_pointer.clone());
        renames.push((format!("#{old_pointer}"), format!("#{new_pointer}")));
    }
    if !renames.is_empty() {
        rewrite_refs(document, &renames);
    }
    origins
}

/// Points every `$ref` in `value` that names (or points into) a renamed schema at its new name.
fn rewrite_refs(value: &mut Value, renames: &[(String, String)]) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match child {
                    Value::String(reference) if key == "$ref" => {
                        let renamed = renames.iter().find_map(|(old, new)| {
                            let rest = reference.strip_prefix(old.as_str())?;
                            (rest.is_empty() || rest.starts_with('/'))
                                .then(|| format!("{new}{rest}"))
                        });
                        if let Some(renamed) = renamed {
                            *reference = renamed;
                        }
                    }
                    child => rewrite_refs(child, renames),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| rewrite_refs(item, renames)),
        _ => {}
    }
}

/// The name typify gives the type of a component named `name` ([`crate::contract::rust_ident`]).
fn type_name(name: &str) -> String {
    crate::contract::rust_ident(name, "").map_or_else(|_| pascal(name), |ident| ident.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_named_like_shared_types_are_renamed_with_their_refs() {
        let mut document = json!({
            "components": {"schemas": {
                "CheckedString": {"type": "object", "properties": {"a": {"type": "string"}}},
                "CheckedStringSchema": {"type": "string"},
                "user": {"properties": {
                    "a": {"$ref": "#/components/schemas/CheckedString/properties/a"},
                    "b": {"$ref": "#/components/schemas/CheckedString"},
                    "c": {"$ref": "#/components/schemas/CheckedStringSchema"},
                }},
            }}
        });
        let mut findings = Vec::new();
        let origins = rename_shared_names(&mut document, &mut findings);
        let schemas = &document["components"]["schemas"];
        assert!(schemas.get("CheckedString").is_none());
        assert_eq!(schemas["CheckedStringSchema"], json!({"type": "string"}));
        let properties = &schemas["user"]["properties"];
        assert_eq!(
            properties["a"]["$ref"],
            "#/components/schemas/CheckedStringSchema2/properties/a"
        );
        assert_eq!(
            properties["b"]["$ref"],
            "#/components/schemas/CheckedStringSchema2"
        );
        assert_eq!(
            properties["c"]["$ref"],
            "#/components/schemas/CheckedStringSchema"
        );
        assert_eq!(
            origins
                .get("/components/schemas/CheckedStringSchema2")
                .map(String::as_str),
            Some("/components/schemas/CheckedString")
        );
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].pointer, "/components/schemas/CheckedString");
    }
}
