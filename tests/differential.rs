//! Differential tests: the generated types must accept exactly what the spec accepts.
//!
//! The oracle (`hub-api-oracle`, which knows no particular spec) runs the hub's component
//! schemas under a JSON Schema 2020-12 validator against the generated `schemas` registry,
//! over every example mutated at every node plus seeded random chains. What is hub-specific
//! lives here: the spec, the registry, and the palette of values near the hub's own rules
//! (ObjectIds, hardware flavors, webhook states, repository ids).

use std::collections::BTreeSet;

use hub_api::generated::schemas;
use hub_api_oracle::{Config, component_targets, run};
use serde_json::{Value, json};

fn spec() -> Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/openapi.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

/// Values every node is replaced with in turn: wrong types, boundaries, pattern breakers, and
/// values near the hub's rules.
fn palette() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.5),
        json!(3.0),
        json!(20),
        json!(21),
        json!(65535),
        json!(65536),
        json!(9007199254740991u64),
        json!(9007199254740992u64),
        json!(""),
        json!("x"),
        json!("-abc"),
        json!("ok-1"),
        json!("A"),
        json!("a".repeat(24)),
        json!("a".repeat(47)),
        json!("a".repeat(201)),
        json!("6729a1f0c3d4e5f6a7b8c901"),
        json!("6729A1F0C3D4E5F6A7B8C901"),
        json!("2026-11-02T09:15:00Z"),
        json!("2026-11-02T09:15:00.5Z"),
        json!("2026-11-02T09:15:00+01:00"),
        json!("2026-13-02T09:15:00Z"),
        json!("https://example.com/hooks?x=1"),
        json!("not a uri"),
        json!("suspended-after-failure"),
        json!("cpu-basic"),
        json!("model"),
        json!("/data"),
        json!("acme/bert"),
        json!("tab\there"),
        json!([]),
        json!(["x"]),
        json!({}),
        json!({"a": "b"}),
        json!({"1A": "b"}),
        json!({"A_1": "b"}),
    ]
}

#[test]
fn generated_types_agree_with_the_spec() {
    let spec = spec();
    let targets = component_targets(&spec);
    // Every component of the spec is in the registry; the registry also holds the inline
    // schemas regen moved into components (a rule typify drops, named from their place),
    // which the oracle checks through the components that hold them.
    let registry = schemas::NAMES.iter().copied().collect::<BTreeSet<_>>();
    let missing: Vec<&str> = targets
        .iter()
        .map(|target| target.name.as_str())
        .filter(|name| !registry.contains(name))
        .collect();
    assert!(
        missing.is_empty(),
        "every component schema must be decodable by name; not in the registry: {missing:?}"
    );
    let config = Config {
        palette: palette(),
        ..Config::default()
    };
    let decode = |name: &str, json: &str| {
        schemas::decode(name, json).map(|result| result.map_err(|error| error.to_string()))
    };
    let report = run(&spec, &targets, &decode, &config);
    println!("{}", report.summary(config.seed));
    assert!(
        report.checked >= 5_000,
        "too few instances: {}",
        report.checked
    );
    if let Some(failure) = report.failure() {
        panic!("{failure}");
    }
}
