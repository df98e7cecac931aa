//! The synthetic spec keeps its promises: at least 300 operations and 10,000 schema nodes, every
//! construct of issue 14's table present at roughly its measured share, deterministic, and the
//! planted defects really defects (checked with a JSON Schema 2020-12 validator).

use hub_api_synth::{AREA_COUNT, Counts, Options, count, schemas_with_defaults, spec, spec_text};
use serde_json::Value;

/// Whether `actual` is within a factor 1.6 of `share` times `total` (both ways); a factor 2 for
/// constructs expected fewer than 50 times, whose counts are drawn and so vary more.
fn near_share(actual: usize, share: f64, total: usize) -> bool {
    let expected = share * total as f64;
    let slack = if expected < 50.0 { 2.0 } else { 1.6 };
    (actual as f64) >= expected / slack && (actual as f64) <= expected * slack
}

fn measured() -> Counts {
    count(&spec(&Options::default()))
}

#[test]
fn the_synthetic_spec_has_the_size_and_shape_promised() {
    let counts = measured();
    println!("{counts:#?}");
    assert!(counts.operations >= 300, "{} operations", counts.operations);
    assert!(
        counts.schema_nodes >= 10_000,
        "{} schema nodes",
        counts.schema_nodes
    );
    assert_eq!(counts.areas, AREA_COUNT);
    assert_eq!(counts.operations_without_operation_id, counts.operations);
    assert_eq!(counts.component_schemas, 2, "everything else is inline");
    assert_eq!(counts.one_of, 0, "the hub writes `anyOf` only");

    // Shares of the real description: per operation (314) or per schema node (13,478).
    let ops = counts.operations;
    let nodes = counts.schema_nodes;
    let per_op = |actual, real: f64| near_share(actual, real / 314.0, ops);
    let per_node = |actual, real: f64| near_share(actual, real / 13_478.0, nodes);
    let checks = [
        ("schema nodes per operation", per_op(nodes, 13_478.0)),
        (
            "operations without responses",
            per_op(counts.operations_without_responses, 68.0),
        ),
        ("$schema", per_op(counts.dollar_schema, 481.0)),
        ("anyOf", per_node(counts.any_of.total, 460.0)),
        ("nullable anyOf", per_node(counts.any_of.nullable, 146.0)),
        (
            "nullable enums",
            per_node(counts.any_of.nullable_enum, 18.0),
        ),
        (
            "tagged object unions",
            per_node(counts.any_of.tagged_objects, 129.0),
        ),
        (
            "untagged object unions",
            per_node(counts.any_of.untagged_objects, 25.0),
        ),
        ("literal sets", per_node(counts.any_of.literal_sets, 36.0)),
        ("open enums", per_node(counts.any_of.open_enums, 18.0)),
        ("other anyOf mixes", per_node(counts.any_of.other, 88.0)),
        ("prefixItems", per_node(counts.prefix_items, 12.0)),
        (
            "const without type",
            per_node(counts.const_without_type, 716.0),
        ),
        (
            "enum without type",
            per_node(counts.enum_without_type, 1_032.0),
        ),
        ("patterns", per_node(counts.patterns, 793.0)),
        (
            "patterns beside date-time",
            per_node(counts.patterns_beside_date_time, 285.0),
        ),
        ("integers", per_node(counts.integers, 213.0)),
        ("numeric bounds", per_node(counts.numeric_bounds, 223.0)),
        ("minItems", per_node(counts.min_items, 74.0)),
        ("maxItems", per_node(counts.max_items, 85.0)),
        ("propertyNames", per_node(counts.property_names, 78.0)),
        (
            "constrained propertyNames",
            per_node(counts.property_names_constrained, 29.0),
        ),
        (
            "uri",
            per_node(counts.formats.get("uri").copied().unwrap_or(0), 38.0),
        ),
        (
            "email",
            per_node(counts.formats.get("email").copied().unwrap_or(0), 11.0),
        ),
        (
            "look-ahead patterns",
            per_op(counts.lookahead_patterns, 9.0),
        ),
        (
            "unsatisfiable closed objects",
            per_op(counts.unsatisfiable_closed_objects, 10.0),
        ),
    ];
    let missed: Vec<_> = checks
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(name, _)| *name)
        .collect();
    assert!(
        missed.is_empty(),
        "off their real share: {missed:?}\n{counts:#?}"
    );

    // The constructs the table lists without a share: present at least once (or exactly twice).
    assert_eq!(counts.operations_with_200_and_207, 2);
    assert!(counts.query_parameters_with_any_of >= 2);
    for format in ["date-time", "date", "cidrv4", "cidrv6"] {
        assert!(
            counts.formats.get(format).is_some_and(|n| *n > 0),
            "no `{format}`"
        );
    }
    assert!(counts.parameter_schemas_beyond_bare_type * 10 >= counts.parameter_schemas);
}

#[test]
fn the_planted_defects_are_defects() {
    let document = spec(&Options::default());
    let broken: Vec<String> = schemas_with_defaults(&document)
        .into_iter()
        .filter(|(_, schema)| {
            let default = schema["default"].clone();
            let mut bare = schema.clone();
            bare.as_object_mut().expect("an object").remove("default");
            !jsonschema::draft202012::is_valid(&bare, &default)
        })
        .map(|(pointer, _)| pointer)
        .collect();
    assert!(
        (2..=8).contains(&broken.len()),
        "defaults that break their schema (a few wanted): {broken:?}"
    );
    // An unsatisfiable object refuses even its own authors' intended instance.
    let constraints = find_key(&document, "constraints").expect("an unsatisfiable object");
    let intended = serde_json::json!({});
    assert!(!jsonschema::draft202012::is_valid(constraints, &intended));
}

/// The first value under `key` anywhere in `value`.
fn find_key<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    match value {
        Value::Object(map) => map
            .get(key)
            .or_else(|| map.values().find_map(|child| find_key(child, key))),
        Value::Array(items) => items.iter().find_map(|child| find_key(child, key)),
        _ => None,
    }
}

#[test]
fn every_example_is_accepted_by_its_schema() {
    let document = spec(&Options::default());
    let mut checked = 0;
    let mut refused = Vec::new();
    visit_bodies(&document, &mut |pointer, schema| {
        for example in schema["examples"].as_array().into_iter().flatten() {
            checked += 1;
            if !jsonschema::draft202012::is_valid(schema, example) {
                refused.push(pointer.to_owned());
            }
        }
    });
    assert!(checked >= 300, "{checked} examples");
    assert!(
        refused.is_empty(),
        "examples their schema refuses: {refused:?}"
    );
}

/// Calls `visit` with every body schema (request or response) of every operation.
fn visit_bodies(document: &Value, visit: &mut dyn FnMut(&str, &Value)) {
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            let mut holders = vec![("requestBody".to_owned(), &operation["requestBody"])];
            for (status, response) in operation["responses"].as_object().into_iter().flatten() {
                holders.push((format!("responses/{status}"), response));
            }
            for (at, holder) in holders {
                if let Some(schema) = holder.pointer("/content/application~1json/schema")
                    && schema.get("$ref").is_none()
                {
                    visit(&format!("{path} {method} {at}"), schema);
                }
            }
        }
    }
}

#[test]
fn generation_is_deterministic_and_scales() {
    let options = Options::default();
    assert_eq!(spec_text(&options), spec_text(&options));
    let half = count(&spec(&Options {
        operations: options.operations / 2,
        ..options
    }));
    let full = measured();
    assert_eq!(half.operations * 2, full.operations);
    let ratio = full.schema_nodes as f64 / half.schema_nodes as f64;
    assert!(
        (1.7..=2.3).contains(&ratio),
        "nodes do not grow with operations: {ratio}"
    );
    let double = count(&spec(&Options {
        operations: options.operations * 2,
        ..options
    }));
    assert_eq!(double.operations, full.operations * 2);
    assert!(double.paths > full.paths, "a larger spec has new paths");
}
