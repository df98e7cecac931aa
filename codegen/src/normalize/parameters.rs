//! Parameters as progenitor can send them: a parameter given as `content`, a structured
//! header, a `null` a header or path cannot carry, a path parameter not marked required
//! (`with_content`), and a style progenitor
//! does not write (`styles`), each rewritten into what sends the same bytes, or left out and
//! reported when nothing can.

use serde_json::{Map, Value, json};

use super::{Finding, FindingKind, resolve};
use crate::model::{is_method, mark, push};

/// How deep a `deepObject` parameter's objects are spelled out (`filter[a][b]`); deeper ones are
/// left out, as nothing sends them.
const DEEP_OBJECT_DEPTH: usize = 4;

/// For every operation, the pointers of its path item's `parameters` list and of its own.
fn operation_lists(document: &Value) -> Vec<(String, String)> {
    let mut lists = Vec::new();
    for (path, item) in document
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let item_pointer = push("/paths", path);
        for method in item.as_object().into_iter().flatten().map(|(key, _)| key) {
            if is_method(method) {
                lists.push((
                    push(&item_pointer, "parameters"),
                    push(&push(&item_pointer, method), "parameters"),
                ));
            }
        }
    }
    lists
}

/// The pointer of every `parameters` list of a path item or an operation, each once.
fn parameter_lists(document: &Value) -> Vec<String> {
    let mut lists = Vec::new();
    for (shared, own) in operation_lists(document) {
        if !lists.contains(&shared) {
            lists.push(shared);
        }
        lists.push(own);
    }
    lists
}

/// A parameter described by `content` (`{application/json: {schema}}`) is sent as that media
/// type's text, which progenitor cannot build: the client takes the text itself, a string
/// (JSON text for a JSON media type), and the description's schema stays in its docs.
pub(super) fn with_content(document: &mut Value, findings: &mut Vec<Finding>) {
    let mut parameters: Vec<String> = parameter_lists(document)
        .iter()
        .filter_map(|list| Some((list, document.pointer(list)?.as_array()?.len())))
        .flat_map(|(list, count)| (0..count).map(move |index| format!("{list}/{index}")))
        .collect();
    if let Some(components) = document
        .pointer("/components/parameters")
        .and_then(Value::as_object)
    {
        parameters.extend(
            components
                .keys()
                .map(|name| push("/components/parameters", name)),
        );
    }
    for pointer in parameters {
        // progenitor writes a header or a path segment with `to_string`, which only a scalar
        // has: an array or object header or path parameter (its schema given inline or by
        // `$ref`), or a union of members of several JSON types (whose enum has no `Display`),
        // is taken as its text (`simple` style: `a,b`), as sent.
        let structured = document
            .pointer(&pointer)
            .and_then(|parameter| parameter.get("schema"))
            .map(|schema| resolve(document, schema))
            .is_some_and(|schema| {
                schema.get("properties").is_some()
                    || schema
                        .get("type")
                        .and_then(Value::as_str)
                        .is_some_and(|kind| kind == "array" || kind == "object")
                    || is_mixed_union(document, schema)
            });
        let Some(parameter) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let location = parameter
            .get("in")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        // A path parameter is always sent (OpenAPI: its `required` MUST be `true`); progenitor
        // panics on one that says otherwise.
        if location == "path" && parameter.get("required") != Some(&Value::Bool(true)) {
            parameter.insert("required".into(), Value::Bool(true));
            findings.push(Finding::new(
                FindingKind::Defect,
                &push(&pointer, "required"),
                "a path parameter not marked `required: true`, which OpenAPI demands of every path parameter; read as required",
            ));
        }
        if matches!(location.as_str(), "header" | "path") && structured {
            let description = parameter
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let schema = parameter.get("schema").cloned().unwrap_or_default();
            let description = format!(
                "{description} Its text as sent (`simple` style), of this schema: {schema}"
            );
            parameter.insert(
                "description".into(),
                Value::String(description.trim().to_owned()),
            );
            parameter.insert("schema".into(), json!({"type": "string"}));
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(&pointer, "schema"),
                format!("a {location} parameter of a structured type; the client takes its text as a string"),
            ));
        }
        if matches!(location.as_str(), "header" | "path")
            && let Some(schema) = parameter.get_mut("schema")
            && leave_out_null(schema)
        {
            findings.push(Finding::new(
                FindingKind::Repaired,
                &push(&pointer, "schema"),
                format!("a {location} parameter cannot be sent as `null`; the schema's `null` is left out"),
            ));
        }
        if parameter.contains_key("schema") {
            continue;
        }
        let Some(content) = parameter.remove("content") else {
            continue;
        };
        let media_type = content
            .as_object()
            .and_then(|content| content.keys().next())
            .cloned()
            .unwrap_or_default();
        let described = content
            .pointer(&format!(
                "/{}/schema",
                media_type.replace('~', "~0").replace('/', "~1")
            ))
            .map(|schema| format!(" It holds `{media_type}` text of this schema: {schema}"))
            .unwrap_or_default();
        let description = parameter
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        parameter.insert(
            "description".into(),
            Value::String(format!("{description}{described}").trim().to_owned()),
        );
        parameter.insert("schema".into(), json!({"type": "string"}));
        findings.push(Finding::new(
            FindingKind::Repaired,
            &push(&pointer, "content"),
            format!(
                "a parameter given as `{media_type}` content; the client takes its text as a string"
            ),
        ));
    }
}

/// Takes `null` out of what `schema` admits at its top (a `null` type, or a `{type: null}`
/// member of `anyOf`/`oneOf`, the union unwrapped when one member is left); whether it did.
fn leave_out_null(schema: &mut Value) -> bool {
    let Some(object) = schema.as_object_mut() else {
        return false;
    };
    if let Some(Value::Array(kinds)) = object.get_mut("type") {
        let before = kinds.len();
        kinds.retain(|kind| kind != "null");
        let changed = kinds.len() < before;
        if kinds.len() == 1 {
            let only = kinds.remove(0);
            object.insert("type".into(), only);
        }
        return changed;
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = object.get_mut(keyword) else {
            continue;
        };
        let before = members.len();
        members.retain(|member| member.get("type").and_then(Value::as_str) != Some("null"));
        if members.len() == before {
            continue;
        }
        if members.len() == 1 {
            let only = members.remove(0);
            object.remove(keyword);
            if object.is_empty() {
                *schema = only;
            } else {
                object.insert("allOf".into(), json!([only]));
            }
        }
        return true;
    }
    false
}

/// Whether `schema` is a `oneOf` or `anyOf` whose members (`null` aside) are not all strings
/// and not all plain scalars (`{type: integer}`, written in place): typify's enum for it then
/// has no `Display` to write it into a path or header with.
fn is_mixed_union(document: &Value, schema: &Value) -> bool {
    let is_plain_scalar = |member: &Value| {
        member.get("$ref").is_none()
            && member.as_object().is_some_and(|object| {
                object
                    .keys()
                    .all(|key| key == "type" || crate::model::ANNOTATIONS.contains(&key.as_str()))
            })
    };
    ["oneOf", "anyOf"].iter().any(|keyword| {
        let Some(members) = schema.get(*keyword).and_then(Value::as_array) else {
            return false;
        };
        let members: Vec<&Value> = members
            .iter()
            .filter(|member| json_type(resolve(document, member)) != Some("null"))
            .collect();
        let strings = members
            .iter()
            .all(|member| json_type(resolve(document, member)) == Some("string"));
        members.len() > 1 && !strings && !members.iter().all(|member| is_plain_scalar(member))
    })
}

/// progenitor sends a query parameter exploded in `form` style (`a=1&a=2`; an object's entries
/// as `key=value`), a path or header parameter in `simple` style, and no cookie. A parameter
/// the description sends another way is rewritten into parameters progenitor sends as the
/// description means, or, when none can, left out of its operation (which stays) and reported:
///
/// - `deepObject` over an object of declared properties becomes one query parameter per leaf,
///   named as sent (`filter[state]`, `filter[range][from]`), each required when it and every
///   object above it is; over a map of scalars (`additionalProperties`), whose keys no name can
///   list, it stays one parameter, its schema marked [`mark::DEEP_OBJECT`], which the validated
///   map it becomes writes as `name[key]=value` per entry; over any other map it is left out;
/// - an array or object sent unexploded (`form` with `explode: false`, `pipeDelimited`,
///   `spaceDelimited`: `a,b`, `a|b`, `a b`) is taken as its text, a string, with the
///   separator and the schema in its description;
/// - a cookie parameter is left out (a `Cookie` default header sends it).
pub(super) fn styles(document: &mut Value, findings: &mut Vec<Finding>) {
    for list in parameter_lists(document) {
        let Some(entries) = document.pointer(&list).and_then(Value::as_array) else {
            continue;
        };
        let mut rewritten = Vec::with_capacity(entries.len());
        let mut changed = false;
        for (index, entry) in entries.iter().enumerate() {
            let pointer = format!("{list}/{index}");
            let parameter = resolve(document, entry);
            match sent_as(document, parameter, &pointer, findings) {
                Some(replacement) => {
                    changed = true;
                    rewritten.extend(replacement);
                }
                None => rewritten.push(entry.clone()),
            }
        }
        if changed && let Some(slot) = document.pointer_mut(&list) {
            *slot = Value::Array(rewritten);
        }
    }
}

/// The parameters that send what `parameter` means, or `None` when progenitor already sends it
/// as it is.
fn sent_as(
    document: &Value,
    parameter: &Value,
    pointer: &str,
    findings: &mut Vec<Finding>,
) -> Option<Vec<Value>> {
    let name = parameter.get("name").and_then(Value::as_str)?;
    let location = parameter.get("in").and_then(Value::as_str)?;
    let style = parameter.get("style").and_then(Value::as_str);
    let schema = parameter
        .get("schema")
        .map(|schema| resolve(document, schema));
    let kind = schema.and_then(json_type);
    if location == "cookie" {
        findings.push(Finding::new(
            FindingKind::Skipped,
            pointer,
            format!("cookie parameter `{name}`: progenitor sends no cookie; left out of the operation (send it with a `Cookie` default header)"),
        ));
        return Some(Vec::new());
    }
    if location != "query" {
        return None;
    }
    let structured = matches!(kind, Some("array" | "object"));
    // `explode` defaults to true for `form` alone (OpenAPI 3.x, Parameter Object).
    let explode = parameter
        .get("explode")
        .and_then(Value::as_bool)
        .unwrap_or(matches!(style, None | Some("form")));
    let separator = match style {
        Some("deepObject") if kind == Some("array") => {
            // OpenAPI leaves `deepObject` over an array undefined; the APIs that use it (Stripe's
            // `expand`) read the bracketed form `expand[]=a&expand[]=b`.
            let mut exploded = parameter.as_object()?.clone();
            exploded.insert("name".into(), Value::String(format!("{name}[]")));
            exploded.remove("style");
            exploded.remove("explode");
            findings.push(Finding::new(
                FindingKind::Repaired,
                pointer,
                format!("query parameter `{name}` is an array in `deepObject` style, which OpenAPI leaves undefined; sent as `{name}[]=..` once per item"),
            ));
            return Some(vec![Value::Object(exploded)]);
        }
        Some("deepObject")
            if kind.is_none() && schema.is_some_and(|schema| union_members(schema).is_some()) =>
        {
            return Some(deep_union(document, name, schema?, pointer, findings));
        }
        Some("deepObject") => {
            let schema = schema.filter(|_| kind == Some("object"))?;
            return Some(deep_object(
                document, parameter, name, schema, pointer, findings,
            ));
        }
        None | Some("form") if structured && !explode => ",",
        Some("pipeDelimited") if structured && !explode => "|",
        Some("spaceDelimited") if structured && !explode => " ",
        _ => return None,
    };
    let mut text = parameter.as_object()?.clone();
    let described = format!(
        "{} Its items joined by `{separator}`, as sent, of this schema: {}",
        text.get("description")
            .and_then(Value::as_str)
            .unwrap_or_default(),
        schema.cloned().unwrap_or_default()
    );
    text.insert(
        "description".into(),
        Value::String(described.trim().to_owned()),
    );
    text.insert("schema".into(), json!({"type": "string"}));
    text.remove("style");
    text.remove("explode");
    findings.push(Finding::new(
        FindingKind::Repaired,
        pointer,
        format!("query parameter `{name}` is sent unexploded (`{separator}` between items), which progenitor does not write; the client takes its text as a string"),
    ));
    Some(vec![Value::Object(text)])
}

/// The one JSON type a schema states besides `null` (`type: [object, "null"]` is an object
/// here: a query parameter has no way to send `null` but leaving it out).
fn json_type(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => {
            let mut kinds = kinds
                .iter()
                .filter_map(Value::as_str)
                .filter(|kind| *kind != "null");
            let kind = kinds.next()?;
            kinds.next().is_none().then_some(kind)
        }
        _ => None,
    }
}

/// A `deepObject` parameter spelled out as one query parameter per leaf property.
fn deep_object(
    document: &Value,
    parameter: &Value,
    name: &str,
    schema: &Value,
    pointer: &str,
    findings: &mut Vec<Finding>,
) -> Vec<Value> {
    let required = parameter.get("required").and_then(Value::as_bool) == Some(true);
    let mut leaves = Vec::new();
    if spell_out(document, name, schema, required, 0, &mut leaves) {
        findings.push(Finding::new(
            FindingKind::Repaired,
            pointer,
            format!("query parameter `{name}` in `deepObject` style, which progenitor does not write; sent as {} parameters named as the style spells them (`{}`)", leaves.len(), leaves.first().and_then(|leaf: &Value| leaf.get("name")).and_then(Value::as_str).unwrap_or(name)),
        ));
        return leaves;
    }
    if let Some(map) = scalar_map(document, schema) {
        let mut sent = parameter.as_object().cloned().unwrap_or_default();
        sent.remove("style");
        sent.remove("explode");
        let mut marked = map.clone();
        marked.insert(mark::DEEP_OBJECT.into(), Value::String(name.to_owned()));
        sent.insert("schema".into(), Value::Object(marked));
        findings.push(Finding::new(
            FindingKind::Repaired,
            pointer,
            format!("query parameter `{name}` in `deepObject` style over a map, which progenitor does not write; sent as `{name}[<key>]=<value>` per entry"),
        ));
        return vec![Value::Object(sent)];
    }
    findings.push(Finding::new(
        FindingKind::Skipped,
        pointer,
        format!("query parameter `{name}` in `deepObject` style over an object whose keys are not listed (a map of objects or arrays, or deeper than {DEEP_OBJECT_DEPTH}), which progenitor cannot send; left out of the operation"),
    ));
    Vec::new()
}

/// The schema (its `$ref` followed) when it is a map of scalars: an object with no properties
/// whose `additionalProperties` states a string, number, integer or boolean, each entry one
/// `key=value` pair of the query.
fn scalar_map<'a>(document: &'a Value, schema: &'a Value) -> Option<&'a Map<String, Value>> {
    let map = resolve(document, schema).as_object()?;
    let values = resolve(document, map.get("additionalProperties")?);
    let scalar = matches!(
        json_type(values),
        Some("string" | "number" | "integer" | "boolean")
    );
    let listed = map
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty());
    (scalar && !listed && json_type(resolve(document, schema)) == Some("object")).then_some(map)
}

/// The members of a union schema (`anyOf` or `oneOf`).
fn union_members(schema: &Value) -> Option<&Vec<Value>> {
    schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(Value::as_array)
}

/// A `deepObject` parameter whose schema is a union of an object and scalars (Stripe's
/// `created`: a timestamp, or a range `{gt, lte, ...}`): the object spelled out per leaf and
/// the scalar sent under the plain name, all optional, as either form may be given.
fn deep_union(
    document: &Value,
    name: &str,
    schema: &Value,
    pointer: &str,
    findings: &mut Vec<Finding>,
) -> Vec<Value> {
    let mut leaves: Vec<Value> = Vec::new();
    for member in union_members(schema).into_iter().flatten() {
        let member = resolve(document, member);
        if json_type(member) == Some("object") {
            let mut spelled = Vec::new();
            if spell_out(document, name, member, false, 0, &mut spelled) {
                leaves.extend(spelled);
            }
        } else {
            leaves.push(json!({"name": name, "in": "query", "required": false, "schema": member}));
        }
    }
    // Two members may name one leaf; the first keeps it.
    let mut seen = Vec::new();
    leaves.retain(|leaf| {
        let leaf_name = leaf.get("name").cloned();
        let fresh = !seen.contains(&leaf_name);
        seen.push(leaf_name);
        fresh
    });
    if leaves.is_empty() {
        findings.push(Finding::new(
            FindingKind::Skipped,
            pointer,
            format!("query parameter `{name}` in `deepObject` style over a union none of whose members can be spelled out; left out of the operation"),
        ));
    } else {
        findings.push(Finding::new(
            FindingKind::Repaired,
            pointer,
            format!("query parameter `{name}` in `deepObject` style over a union; each member's form sent as its own optional parameters ({} in all)", leaves.len()),
        ));
    }
    leaves
}

/// Pushes one query parameter per leaf of `schema` under `name`; false when a part has no
/// listed keys (a map) or nests too deep.
fn spell_out(
    document: &Value,
    name: &str,
    schema: &Value,
    required: bool,
    depth: usize,
    leaves: &mut Vec<Value>,
) -> bool {
    let schema = resolve(document, schema);
    let Some(object) = schema.as_object() else {
        return false;
    };
    let is_object = json_type(schema) == Some("object");
    if !is_object {
        let mut leaf = Map::new();
        leaf.insert("name".into(), Value::String(name.to_owned()));
        leaf.insert("in".into(), json!("query"));
        leaf.insert("required".into(), Value::Bool(required));
        if let Some(description) = object.get("description") {
            leaf.insert("description".into(), description.clone());
        }
        leaf.insert("schema".into(), schema.clone());
        leaves.push(Value::Object(leaf));
        return true;
    }
    let open = object
        .get("additionalProperties")
        .is_some_and(|additional| additional != &Value::Bool(false));
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return false;
    };
    if open || properties.is_empty() || depth >= DEEP_OBJECT_DEPTH {
        return false;
    }
    let listed: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    properties.iter().all(|(property, inner)| {
        spell_out(
            document,
            &format!("{name}[{property}]"),
            inner,
            required && listed.contains(&property.as_str()),
            depth + 1,
            leaves,
        )
    })
}

/// progenitor names an operation's arguments after its parameters' names in snake case, and
/// panics (or writes two arguments of one name) when two parameters of an operation share
/// that name: `id` in the path and `id` in the query, `location_ids[]` and `location_ids` in
/// the query, `X-Id` in a header and `x_id` in the query. A path parameter keeps its name (the
/// request cannot be built without it), then the first declared; each other is renamed to
/// `<argument>_<location>` (a number after it while that is taken too) and marked with its
/// name on the wire ([`mark::WIRE_NAME`]), which `emit` sends instead of the new name. Nothing
/// is left out. A path parameter's name is never on the wire, so only query and header
/// parameters are renamed.
pub(super) fn names_alike(document: &mut Value, findings: &mut Vec<Finding>) {
    // (list, index, new name)
    let mut renames: Vec<(String, usize, String)> = Vec::new();
    for (shared, own) in operation_lists(document) {
        // (list, index, wire name, location), the operation's own overriding the path
        // item's of the same name and location.
        let mut declared: Vec<(&str, usize, &str, &str)> = Vec::new();
        for list in [&own, &shared] {
            for (index, entry) in document
                .pointer(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let parameter = resolve(document, entry);
                let (Some(name), Some(location)) = (
                    parameter.get("name").and_then(Value::as_str),
                    parameter.get("in").and_then(Value::as_str),
                ) else {
                    continue;
                };
                if !declared
                    .iter()
                    .any(|(_, _, n, l)| *n == name && *l == location)
                {
                    declared.push((list.as_str(), index, name, location));
                }
            }
        }
        declared.sort_by_key(|(_, _, _, location)| *location != "path");
        // Every argument name the operation declares: a new name takes none of them. The
        // request body is progenitor's argument `body`, which no parameter may take either.
        let has_body = own
            .strip_suffix("/parameters")
            .and_then(|operation| document.pointer(operation))
            .is_some_and(|operation| operation.get("requestBody").is_some());
        let body = crate::contract::BODY_ARGUMENT.to_owned();
        let mut declared_arguments: Vec<String> = declared
            .iter()
            .map(|(_, _, name, _)| crate::contract::method_name(name))
            .collect();
        let mut kept: Vec<String> = Vec::new();
        if has_body {
            declared_arguments.push(body.clone());
            kept.push(body);
        }
        for (list, index, name, location) in declared {
            let argument = crate::contract::method_name(name);
            if !kept.contains(&argument) {
                kept.push(argument);
                continue;
            }
            let base = format!("{argument}_{location}");
            let mut renamed = base.clone();
            let mut counter = 2;
            while declared_arguments.contains(&renamed) || kept.contains(&renamed) {
                renamed = format!("{base}_{counter}");
                counter += 1;
            }
            kept.push(renamed.clone());
            let entry = (list.to_owned(), index, renamed);
            if !renames
                .iter()
                .any(|(l, i, _)| *l == entry.0 && *i == entry.1)
            {
                renames.push(entry);
            }
        }
    }
    for (list, index, renamed) in renames {
        let at = format!("{list}/{index}");
        let Some(entry) = document.pointer(&at) else {
            continue;
        };
        // A shared parameter (`$ref`) is copied into the operation, so the rename stays there.
        let mut parameter = resolve(document, entry).clone();
        let Some(fields) = parameter.as_object_mut() else {
            continue;
        };
        let wire = fields
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let location = fields
            .get("in")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        fields.insert("name".into(), Value::String(renamed.clone()));
        fields.insert(mark::WIRE_NAME.into(), Value::String(wire.clone()));
        if let Some(slot) = document.pointer_mut(&at) {
            *slot = parameter;
        }
        findings.push(Finding::new(
            FindingKind::Repaired,
            &at,
            format!("{location} parameter `{wire}`: another parameter of the operation has the same Rust argument name; the argument is `{renamed}`, sent as `{wire}`"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::places;

    /// A document of one `GET /a` with these parameters.
    fn operation(parameters: Value) -> Value {
        json!({"paths": {"/a": {"get": {"parameters": parameters}}}})
    }

    fn parameters(document: &Value) -> &Value {
        &document["paths"]["/a"]["get"]["parameters"]
    }

    #[test]
    fn a_path_parameter_is_required_whatever_it_says() {
        let mut document = operation(json!([
            {"name": "id", "in": "path", "required": false, "schema": {"type": "string"}},
            {"name": "key", "in": "path", "schema": {"type": "string"}},
            {"name": "q", "in": "query", "schema": {"type": "string"}},
        ]));
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        let list = parameters(&document);
        assert_eq!(list[0]["required"], true);
        assert_eq!(list[1]["required"], true);
        assert!(list[2].get("required").is_none());
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Defect, "/paths/~1a/get/parameters/0/required"),
                (FindingKind::Defect, "/paths/~1a/get/parameters/1/required"),
            ]
        );
    }

    #[test]
    fn a_parameter_given_as_content_is_taken_as_its_text() {
        let mut document = operation(json!([{
            "name": "filter",
            "in": "query",
            "description": "The filter.",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }]));
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([{
                "name": "filter",
                "in": "query",
                "description": "The filter. It holds `application/json` text of this schema: {\"type\":\"object\"}",
                "schema": {"type": "string"},
            }])
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/parameters/0/content")]
        );
    }

    #[test]
    fn a_structured_header_is_taken_as_its_text() {
        let mut document = operation(json!([{
            "name": "X-Tags",
            "in": "header",
            "schema": {"type": "array", "items": {"type": "string"}},
        }]));
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([{
                "name": "X-Tags",
                "in": "header",
                "description": "Its text as sent (`simple` style), of this schema: {\"type\":\"array\",\"items\":{\"type\":\"string\"}}",
                "schema": {"type": "string"},
            }])
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/parameters/0/schema")]
        );
    }

    #[test]
    fn a_structured_path_parameter_is_taken_as_its_text() {
        // gambitcomm.local/mimic, opensuse.org/obs: an array path parameter, which progenitor
        // wrote with `to_string` (no such method on a `Vec`).
        let mut document = operation(json!([{
            "name": "ids",
            "in": "path",
            "required": true,
            "schema": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        }]));
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        assert_eq!(
            parameters(&document)[0]["schema"],
            json!({"type": "string"})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/parameters/0/schema")]
        );
        assert!(
            findings[0]
                .message
                .starts_with("a path parameter of a structured type"),
            "{findings:?}"
        );
    }

    #[test]
    fn a_path_parameter_of_ids_or_slugs_is_taken_as_its_text() {
        // pandascore.co: `oneOf` an integer enum and a string enum.
        let mut document = operation(json!([{
            "name": "videogame",
            "in": "path",
            "required": true,
            "schema": {"oneOf": [
                {"type": "integer", "enum": [1, 3]},
                {"type": "string", "enum": ["dota-2", "fifa"]}]},
        }]));
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        assert_eq!(
            parameters(&document)[0]["schema"],
            json!({"type": "string"})
        );
        // A union of strings alone is an enum that writes itself.
        let strings = json!({"oneOf": [{"type": "string", "enum": ["a"]}, {"type": "string"}]});
        assert!(!is_mixed_union(&document, &strings));
    }

    #[test]
    fn a_header_of_a_referenced_object_is_taken_as_its_text_too() {
        // visualstudio.com: a header parameter `headers` of an object component.
        let mut document = operation(json!([{
            "name": "headers",
            "in": "header",
            "schema": {"$ref": "#/components/schemas/PlanResourceHeaders"},
        }]));
        document["components"] = json!({"schemas": {"PlanResourceHeaders": {
            "properties": {"x-ms-client-tenant-id": {"type": "string"}},
        }}});
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        assert_eq!(
            parameters(&document)[0]["schema"],
            json!({"type": "string"})
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/parameters/0/schema")]
        );
    }

    #[test]
    fn a_header_or_path_parameter_cannot_be_null() {
        let mut document = json!({"paths": {"/a/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": ["string", "null"]}}],
            "get": {"parameters": [
                {"name": "X-A", "in": "header", "schema": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
                {"name": "X-B", "in": "header", "schema": {"description": "b", "oneOf": [{"$ref": "#/components/schemas/B"}, {"type": "null"}]}},
                {"name": "X-C", "in": "header", "schema": {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]}},
                {"name": "q", "in": "query", "schema": {"type": ["string", "null"]}},
            ]},
        }}});
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        let item = &document["paths"]["/a/{id}"];
        assert_eq!(
            item["parameters"],
            json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}])
        );
        assert_eq!(
            item["get"]["parameters"],
            json!([
                {"name": "X-A", "in": "header", "schema": {"type": "integer"}},
                {"name": "X-B", "in": "header", "schema": {"description": "b", "allOf": [{"$ref": "#/components/schemas/B"}]}},
                {"name": "X-C", "in": "header", "schema": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
                {"name": "q", "in": "query", "schema": {"type": ["string", "null"]}},
            ])
        );
        assert_eq!(
            places(&findings),
            [
                (
                    FindingKind::Repaired,
                    "/paths/~1a~1{id}/parameters/0/schema"
                ),
                (
                    FindingKind::Repaired,
                    "/paths/~1a~1{id}/get/parameters/0/schema"
                ),
                (
                    FindingKind::Repaired,
                    "/paths/~1a~1{id}/get/parameters/1/schema"
                ),
                (
                    FindingKind::Repaired,
                    "/paths/~1a~1{id}/get/parameters/2/schema"
                ),
            ]
        );
    }

    #[test]
    fn component_parameters_are_rewritten_where_they_are_defined() {
        let mut document = json!({"components": {"parameters": {"Filter": {
            "name": "filter",
            "in": "query",
            "content": {"text/plain": {}},
        }}}});
        let mut findings = Vec::new();
        with_content(&mut document, &mut findings);
        assert_eq!(
            document["components"]["parameters"]["Filter"],
            json!({"name": "filter", "in": "query", "description": "", "schema": {"type": "string"}})
        );
        assert_eq!(
            places(&findings),
            [(
                FindingKind::Repaired,
                "/components/parameters/Filter/content"
            )]
        );
    }

    #[test]
    fn a_cookie_parameter_is_left_out_of_its_operation() {
        let mut document = json!({
            "paths": {"/a": {"get": {"parameters": [
                {"$ref": "#/components/parameters/Session"},
                {"name": "q", "in": "query", "schema": {"type": "string"}},
            ]}}},
            "components": {"parameters": {"Session": {"name": "session", "in": "cookie", "schema": {"type": "string"}}}},
        });
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([{"name": "q", "in": "query", "schema": {"type": "string"}}])
        );
        assert!(document.pointer("/components/parameters/Session").is_some());
        assert_eq!(
            places(&findings),
            [(FindingKind::Skipped, "/paths/~1a/get/parameters/0")]
        );
    }

    #[test]
    fn a_deep_object_is_spelled_out_per_leaf() {
        let mut document = operation(json!([{
            "name": "filter",
            "in": "query",
            "required": true,
            "style": "deepObject",
            "schema": {
                "type": "object",
                "required": ["state"],
                "properties": {
                    "state": {"type": "string", "description": "The state."},
                    "range": {
                        "type": ["object", "null"],
                        "required": ["from"],
                        "properties": {"from": {"type": "integer"}, "to": {"type": "integer"}},
                    },
                },
            },
        }]));
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([
                {"name": "filter[state]", "in": "query", "required": true, "description": "The state.", "schema": {"type": "string", "description": "The state."}},
                {"name": "filter[range][from]", "in": "query", "required": false, "schema": {"type": "integer"}},
                {"name": "filter[range][to]", "in": "query", "required": false, "schema": {"type": "integer"}},
            ])
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/parameters/0")]
        );
    }

    #[test]
    fn a_deep_object_over_a_map_of_scalars_is_marked_and_one_of_objects_left_out() {
        let mut document = operation(json!([
            {
                "name": "labels",
                "in": "query",
                "style": "deepObject",
                "schema": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            {
                "name": "nested",
                "in": "query",
                "style": "deepObject",
                "schema": {"type": "object", "additionalProperties": {"type": "object"}},
            },
        ]));
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([{
                "name": "labels",
                "in": "query",
                "schema": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "x-deep-object": "labels",
                },
            }])
        );
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Repaired, "/paths/~1a/get/parameters/0"),
                (FindingKind::Skipped, "/paths/~1a/get/parameters/1"),
            ]
        );
    }

    #[test]
    fn a_deep_object_nested_deeper_than_four_objects_is_left_out() {
        let nested = |depth: usize| {
            let mut schema = json!({"type": "string"});
            for _ in 0..depth {
                schema = json!({"type": "object", "properties": {"x": schema}});
            }
            schema
        };
        let mut document = operation(json!([
            {"name": "deep", "in": "query", "style": "deepObject", "schema": nested(4)},
            {"name": "deeper", "in": "query", "style": "deepObject", "schema": nested(5)},
        ]));
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([{"name": "deep[x][x][x][x]", "in": "query", "required": false, "schema": {"type": "string"}}])
        );
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Repaired, "/paths/~1a/get/parameters/0"),
                (FindingKind::Skipped, "/paths/~1a/get/parameters/1"),
            ]
        );
    }

    #[test]
    fn a_deep_object_array_is_sent_bracketed_once_per_item() {
        let mut document = operation(json!([{
            "name": "expand",
            "in": "query",
            "style": "deepObject",
            "explode": true,
            "schema": {"type": "array", "items": {"type": "string"}},
        }]));
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([{"name": "expand[]", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}}])
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/parameters/0")]
        );
    }

    #[test]
    fn a_deep_object_union_sends_each_members_form_as_optional_parameters() {
        let mut document = json!({
            "paths": {"/a": {"get": {"parameters": [{
                "name": "created",
                "in": "query",
                "required": true,
                "style": "deepObject",
                "schema": {"anyOf": [
                    {"type": "integer"},
                    {"$ref": "#/components/schemas/Range"},
                    {"type": "object", "properties": {"gt": {"type": "string"}}},
                ]},
            }]}}},
            "components": {"schemas": {"Range": {"type": "object", "properties": {"gt": {"type": "integer"}, "lte": {"type": "integer"}}}}},
        });
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([
                {"name": "created", "in": "query", "required": false, "schema": {"type": "integer"}},
                {"name": "created[gt]", "in": "query", "required": false, "schema": {"type": "integer"}},
                {"name": "created[lte]", "in": "query", "required": false, "schema": {"type": "integer"}},
            ])
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a/get/parameters/0")]
        );
        assert!(findings[0].message.ends_with("(3 in all)"));
    }

    #[test]
    fn an_unexploded_array_is_taken_as_its_text() {
        let items = json!({"type": "array", "items": {"type": "integer"}});
        let mut document = operation(json!([
            {"name": "ids", "in": "query", "description": "The ids.", "explode": false, "schema": items.clone()},
            {"name": "tags", "in": "query", "style": "pipeDelimited", "schema": items.clone()},
            {"name": "words", "in": "query", "style": "spaceDelimited", "explode": false, "schema": items.clone()},
        ]));
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        let described = |prefix: &str, separator: &str| {
            format!("{prefix}Its items joined by `{separator}`, as sent, of this schema: {items}")
        };
        assert_eq!(
            parameters(&document),
            &json!([
                {"name": "ids", "in": "query", "description": described("The ids. ", ","), "schema": {"type": "string"}},
                {"name": "tags", "in": "query", "description": described("", "|"), "schema": {"type": "string"}},
                {"name": "words", "in": "query", "description": described("", " "), "schema": {"type": "string"}},
            ])
        );
        assert_eq!(
            places(&findings),
            [
                (FindingKind::Repaired, "/paths/~1a/get/parameters/0"),
                (FindingKind::Repaired, "/paths/~1a/get/parameters/1"),
                (FindingKind::Repaired, "/paths/~1a/get/parameters/2"),
            ]
        );
    }

    #[test]
    fn parameters_progenitor_sends_as_described_stay() {
        let original = json!({"paths": {"/a/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "array", "items": {"type": "string"}}}],
            "get": {"parameters": [
                {"name": "ids", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
                {"name": "page", "in": "query", "explode": false, "schema": {"type": "integer"}},
                {"name": "X-Id", "in": "header", "schema": {"type": "string"}},
            ]},
        }}});
        let mut document = original.clone();
        let mut findings = Vec::new();
        styles(&mut document, &mut findings);
        assert_eq!(document, original);
        assert!(findings.is_empty());
    }

    #[test]
    fn the_json_type_of_a_schema_is_its_one_type_besides_null() {
        assert_eq!(json_type(&json!({"type": "object"})), Some("object"));
        assert_eq!(
            json_type(&json!({"type": ["null", "array"]})),
            Some("array")
        );
        assert_eq!(json_type(&json!({"type": ["string", "integer"]})), None);
        assert_eq!(json_type(&json!({"type": ["null"]})), None);
        assert_eq!(json_type(&json!({})), None);
    }

    #[test]
    fn a_parameter_named_like_a_path_parameter_is_renamed_and_sent_by_its_name() {
        let mut document = json!({"paths": {"/a/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true}],
            "get": {"parameters": [{"name": "id", "in": "query"}, {"name": "q", "in": "query"}]},
        }}});
        let mut findings = Vec::new();
        names_alike(&mut document, &mut findings);
        assert_eq!(
            document["paths"]["/a/{id}"],
            json!({
                "parameters": [{"name": "id", "in": "path", "required": true}],
                "get": {"parameters": [
                    {"name": "id_query", "in": "query", "x-wire-name": "id"},
                    {"name": "q", "in": "query"},
                ]},
            })
        );
        assert_eq!(
            places(&findings),
            [(FindingKind::Repaired, "/paths/~1a~1{id}/get/parameters/0")]
        );
        assert!(findings[0].message.starts_with("query parameter `id`:"));
    }

    #[test]
    fn of_parameters_with_one_argument_name_the_first_declared_keeps_it() {
        let mut document = operation(json!([
            {"name": "X-Id", "in": "header"},
            {"name": "page", "in": "query"},
            {"name": "x_id", "in": "query"},
            {"name": "x-id", "in": "query"},
            {"name": "x_id_query", "in": "query"},
            {"name": "ids", "in": "query"},
            {"$ref": "#/components/parameters/Ids"},
        ]));
        document["components"] = json!({"parameters": {"Ids": {"name": "ids[]", "in": "query"}}});
        let mut findings = Vec::new();
        names_alike(&mut document, &mut findings);
        assert_eq!(
            parameters(&document),
            &json!([
                {"name": "X-Id", "in": "header"},
                {"name": "page", "in": "query"},
                {"name": "x_id_query_2", "in": "query", "x-wire-name": "x_id"},
                {"name": "x_id_query_3", "in": "query", "x-wire-name": "x-id"},
                {"name": "x_id_query", "in": "query"},
                {"name": "ids", "in": "query"},
                {"name": "ids_query", "in": "query", "x-wire-name": "ids[]"},
            ])
        );
        assert_eq!(
            document["components"]["parameters"]["Ids"],
            json!({"name": "ids[]", "in": "query"}),
            "a shared parameter is copied where it clashes, and renamed there only"
        );
        assert!(
            findings.iter().all(|f| f.kind == FindingKind::Repaired),
            "{findings:?}"
        );
        assert_eq!(findings.len(), 3);
    }

    #[test]
    fn a_parameter_named_body_beside_a_request_body_is_renamed() {
        let mut document = json!({"paths": {"/a": {"post": {
            "parameters": [{"name": "body", "in": "query"}],
            "requestBody": {"content": {"application/json": {"schema": {}}}},
        }}}});
        let mut findings = Vec::new();
        names_alike(&mut document, &mut findings);
        assert_eq!(
            document["paths"]["/a"]["post"]["parameters"],
            json!([{"name": "body_query", "in": "query", "x-wire-name": "body"}])
        );
        // Without a request body, `body` is a name like any other.
        let mut bodiless = operation(json!([{"name": "body", "in": "query"}]));
        let before = bodiless.clone();
        names_alike(&mut bodiless, &mut Vec::new());
        assert_eq!(bodiless, before);
    }

    #[test]
    fn an_operations_own_parameter_overriding_a_shared_one_is_no_clash() {
        let original = json!({"paths": {"/a": {
            "parameters": [{"name": "q", "in": "query"}],
            "get": {"parameters": [{"name": "q", "in": "query", "description": "mine"}]},
        }}});
        let mut document = original.clone();
        let mut findings = Vec::new();
        names_alike(&mut document, &mut findings);
        assert_eq!(document, original);
        assert!(findings.is_empty());
    }
}
