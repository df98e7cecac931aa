//! Measures an OpenAPI document by the constructs of issue 14's table, walking only schema
//! positions (components, parameters, bodies, responses, headers, and the keywords that hold
//! subschemas), so that `examples`, `default`, `const` and `enum` values are never mistaken for
//! schemas. It knows nothing of how the synthetic spec was made.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// How many times each construct of the table occurs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub paths: usize,
    /// Distinct first tags of the operations (the path's first segment after `/api` for an
    /// operation without tags).
    pub areas: usize,
    pub operations: usize,
    pub operations_without_operation_id: usize,
    pub operations_without_responses: usize,
    /// Operations answering both 200 and 207 with bodies of different schemas.
    pub operations_with_200_and_207: usize,
    pub component_schemas: usize,
    /// Every schema object, components and inline alike.
    pub schema_nodes: usize,
    pub parameter_schemas: usize,
    /// Parameter schemas with anything beyond a bare `type`.
    pub parameter_schemas_beyond_bare_type: usize,
    pub query_parameters_with_any_of: usize,
    pub dollar_schema: usize,
    pub any_of: AnyOfKinds,
    pub one_of: usize,
    pub prefix_items: usize,
    pub const_without_type: usize,
    pub enum_without_type: usize,
    pub patterns: usize,
    pub patterns_beside_date_time: usize,
    /// Patterns with look-ahead or look-behind, which Rust's `regex` cannot compile.
    pub lookahead_patterns: usize,
    pub integers: usize,
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.
    pub numeric_bounds: usize,
    pub min_items: usize,
    pub max_items: usize,
    pub property_names: usize,
    /// `propertyNames` with a pattern or a length.
    pub property_names_constrained: usize,
    /// `format` value -> count.
    pub formats: BTreeMap<String, usize>,
    pub defaults: usize,
    /// Closed objects (`additionalProperties: false`) requiring a property they do not declare.
    pub unsatisfiable_closed_objects: usize,
}

impl Counts {
    /// The constructs of issue 14's table with their counts, in the table's order (formats as
    /// `format uri`), for reports.
    pub fn constructs(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = [
            (
                "operations without operationId",
                self.operations_without_operation_id,
            ),
            (
                "operations without responses",
                self.operations_without_responses,
            ),
            (
                "operations with 200 and 207 bodies",
                self.operations_with_200_and_207,
            ),
            ("$schema", self.dollar_schema),
            ("anyOf nullable", self.any_of.nullable),
            ("anyOf nullable enum", self.any_of.nullable_enum),
            ("anyOf const-told objects", self.any_of.tagged_objects),
            ("anyOf objects without tag", self.any_of.untagged_objects),
            ("anyOf literal set", self.any_of.literal_sets),
            ("anyOf open enum", self.any_of.open_enums),
            ("anyOf other mix", self.any_of.other),
            ("prefixItems", self.prefix_items),
            ("const without type", self.const_without_type),
            ("enum without type", self.enum_without_type),
            ("pattern", self.patterns),
            ("pattern beside date-time", self.patterns_beside_date_time),
            ("look-ahead pattern", self.lookahead_patterns),
            ("integer", self.integers),
            ("numeric bound", self.numeric_bounds),
            ("minItems", self.min_items),
            ("maxItems", self.max_items),
            ("propertyNames", self.property_names),
            (
                "propertyNames with pattern or length",
                self.property_names_constrained,
            ),
            (
                "query parameter with anyOf",
                self.query_parameters_with_any_of,
            ),
            ("default", self.defaults),
            (
                "unsatisfiable closed object",
                self.unsatisfiable_closed_objects,
            ),
        ]
        .into_iter()
        .map(|(name, count)| (name.to_owned(), count))
        .collect();
        out.extend(
            self.formats
                .iter()
                .map(|(format, count)| (format!("format {format}"), *count)),
        );
        out
    }
}

/// `anyOf` by the kinds the table tells apart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnyOfKinds {
    pub total: usize,
    /// `[T, null]`, `T` not an enum.
    pub nullable: usize,
    /// `[enum, null]`.
    pub nullable_enum: usize,
    /// Objects with a `const` property told apart, each requiring it.
    pub tagged_objects: usize,
    /// Objects without such a property.
    pub untagged_objects: usize,
    /// Members that are all `const`.
    pub literal_sets: usize,
    /// A string `enum` or any string.
    pub open_enums: usize,
    pub other: usize,
}

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Measures `document`.
pub fn count(document: &Value) -> Counts {
    let mut counts = Counts::default();
    let mut areas = std::collections::BTreeSet::new();
    let paths = document.get("paths").and_then(Value::as_object);
    for (path, item) in paths.into_iter().flatten() {
        counts.paths += 1;
        let mut segments = path.split('/').filter(|segment| !segment.is_empty());
        let first = segments.next().unwrap_or_default();
        let area = if first == "api" {
            segments.next().unwrap_or_default()
        } else {
            first
        };
        for parameter in item
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            parameter_schema(parameter, &mut counts);
        }
        for method in METHODS {
            if let Some(operation) = item.get(*method) {
                let tag = operation.pointer("/tags/0").and_then(Value::as_str);
                areas.insert(tag.unwrap_or(area).to_owned());
                count_operation(operation, &mut counts);
            }
        }
    }
    counts.areas = areas.len();
    if let Some(components) = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    {
        counts.component_schemas = components.len();
        components
            .values()
            .for_each(|schema| walk(schema, &mut counts));
    }
    counts
}

fn count_operation(operation: &Value, counts: &mut Counts) {
    counts.operations += 1;
    if operation.get("operationId").is_none() {
        counts.operations_without_operation_id += 1;
    }
    for parameter in operation
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        parameter_schema(parameter, counts);
    }
    for schema in content_schemas(operation.get("requestBody")) {
        walk(schema, counts);
    }
    let Some(responses) = operation.get("responses").and_then(Value::as_object) else {
        counts.operations_without_responses += 1;
        return;
    };
    for response in responses.values() {
        content_schemas(Some(response)).for_each(|schema| walk(schema, counts));
        let headers = response.get("headers").and_then(Value::as_object);
        for header in headers.into_iter().flat_map(Map::values) {
            if let Some(schema) = header.get("schema") {
                walk(schema, counts);
            }
        }
    }
    let first = |status: &str| content_schemas(responses.get(status)).next();
    if let (Some(ok), Some(multi)) = (first("200"), first("207"))
        && ok != multi
    {
        counts.operations_with_200_and_207 += 1;
    }
}

fn parameter_schema(parameter: &Value, counts: &mut Counts) {
    let Some(schema) = parameter.get("schema") else {
        return;
    };
    counts.parameter_schemas += 1;
    if schema
        .as_object()
        .is_some_and(|map| map.keys().any(|key| key != "type"))
    {
        counts.parameter_schemas_beyond_bare_type += 1;
    }
    if parameter.get("in").and_then(Value::as_str) == Some("query") && schema.get("anyOf").is_some()
    {
        counts.query_parameters_with_any_of += 1;
    }
    walk(schema, counts);
}

/// The schemas of a request body's or response's media types.
fn content_schemas(holder: Option<&Value>) -> impl Iterator<Item = &Value> {
    holder
        .and_then(|holder| holder.get("content"))
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(Map::values)
        .filter_map(|media| media.get("schema"))
}

/// Keywords whose value is one subschema.
const ONE: &[&str] = &[
    "items",
    "not",
    "additionalProperties",
    "propertyNames",
    "contains",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
];
/// Keywords whose value is a list of subschemas.
const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

fn walk(schema: &Value, counts: &mut Counts) {
    let Some(map) = schema.as_object() else {
        return;
    };
    counts.schema_nodes += 1;
    tally(map, counts);
    for keyword in ONE {
        if let Some(child) = map.get(*keyword) {
            walk(child, counts);
        }
    }
    for keyword in LIST {
        for child in map
            .get(*keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            walk(child, counts);
        }
    }
    for keyword in MAP {
        for child in map
            .get(*keyword)
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(Map::values)
        {
            walk(child, counts);
        }
    }
}

/// The constructs of one schema object.
fn tally(map: &Map<String, Value>, counts: &mut Counts) {
    let has = |key: &str| map.contains_key(key);
    let typed = has("type");
    counts.dollar_schema += usize::from(has("$schema"));
    counts.one_of += usize::from(has("oneOf"));
    counts.prefix_items += usize::from(has("prefixItems"));
    counts.const_without_type += usize::from(has("const") && !typed);
    counts.enum_without_type += usize::from(has("enum") && !typed);
    counts.min_items += usize::from(has("minItems"));
    counts.max_items += usize::from(has("maxItems"));
    counts.defaults += usize::from(has("default"));
    counts.integers += usize::from(map.get("type").and_then(Value::as_str) == Some("integer"));
    counts.numeric_bounds += [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]
    .iter()
    .filter(|key| has(key))
    .count();
    let format = map.get("format").and_then(Value::as_str);
    if let Some(format) = format {
        *counts.formats.entry(format.to_owned()).or_default() += 1;
    }
    if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
        counts.patterns += 1;
        counts.patterns_beside_date_time += usize::from(format == Some("date-time"));
        counts.lookahead_patterns += usize::from(
            ["(?=", "(?!", "(?<=", "(?<!"]
                .iter()
                .any(|group| pattern.contains(group)),
        );
    }
    if let Some(names) = map.get("propertyNames") {
        counts.property_names += 1;
        counts.property_names_constrained += usize::from(
            ["pattern", "minLength", "maxLength"]
                .iter()
                .any(|key| names.get(key).is_some()),
        );
    }
    if map.get("additionalProperties") == Some(&Value::Bool(false)) {
        let declared = map.get("properties").and_then(Value::as_object);
        let undeclared = map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .any(|name| !declared.is_some_and(|declared| declared.contains_key(name)));
        counts.unsatisfiable_closed_objects += usize::from(undeclared);
    }
    if let Some(members) = map.get("anyOf").and_then(Value::as_array) {
        counts.any_of.total += 1;
        classify_any_of(members, &mut counts.any_of);
    }
}

fn classify_any_of(members: &[Value], kinds: &mut AnyOfKinds) {
    let type_of = |member: &Value| {
        member
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let is_null = |member: &Value| type_of(member).as_deref() == Some("null");
    let is_object = |member: &Value| {
        type_of(member).as_deref() == Some("object") || member.get("properties").is_some()
    };
    if members.len() == 2 && members.iter().any(is_null) {
        let other = members.iter().find(|member| !is_null(member));
        if other.is_some_and(|other| other.get("enum").is_some()) {
            kinds.nullable_enum += 1;
        } else {
            kinds.nullable += 1;
        }
    } else if !members.is_empty() && members.iter().all(is_object) {
        if tag_property(members).is_some() {
            kinds.tagged_objects += 1;
        } else {
            kinds.untagged_objects += 1;
        }
    } else if !members.is_empty() && members.iter().all(|member| member.get("const").is_some()) {
        kinds.literal_sets += 1;
    } else if members.len() == 2
        && members.iter().any(|member| member.get("enum").is_some())
        && members.iter().any(|member| {
            type_of(member).as_deref() == Some("string")
                && member.as_object().is_some_and(|map| map.len() == 1)
        })
    {
        kinds.open_enums += 1;
    } else {
        kinds.other += 1;
    }
}

/// A property every member requires and pins with a distinct `const`.
fn tag_property(members: &[Value]) -> Option<String> {
    let first = members[0].get("properties")?.as_object()?;
    first.keys().find_map(|name| {
        let mut seen = Vec::new();
        for member in members {
            let value = member.pointer(&format!("/properties/{name}/const"))?;
            let required = member.get("required")?.as_array()?;
            if !required.iter().any(|required| required == name) || seen.contains(&value) {
                return None;
            }
            seen.push(value);
        }
        Some(name.clone())
    })
}

/// Every schema in the document that has a `default`, with its JSON pointer, so a test can
/// judge the defaults with a validator.
pub fn schemas_with_defaults(document: &Value) -> Vec<(String, Value)> {
    fn visit(value: &Value, at: &str, out: &mut Vec<(String, Value)>) {
        match value {
            Value::Object(map) => {
                if map.contains_key("default")
                    && (map.contains_key("type")
                        || map.contains_key("enum")
                        || map.contains_key("anyOf"))
                {
                    out.push((at.to_owned(), value.clone()));
                }
                for (key, child) in map {
                    if key != "examples" && key != "example" {
                        let key = key.replace('~', "~0").replace('/', "~1");
                        visit(child, &format!("{at}/{key}"), out);
                    }
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    visit(child, &format!("{at}/{index}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    visit(document, "", &mut out);
    out
}
