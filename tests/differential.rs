//! Differential tests: the generated types must accept exactly what the spec accepts.
//!
//! The oracle is the spec's own component schemas (OpenAPI 3.1, so JSON Schema 2020-12) under
//! the `jsonschema` crate, with formats checked. The instances are every schema's examples,
//! mutated at every node along every kind of constraint (wrong type, missing required, unknown
//! property, wrong or missing tag, boundaries, pattern-breaking strings, nulls), plus seeded
//! random chains of mutations. For every instance the generated type's verdict must equal the
//! oracle's; an accepted instance must serialize back to the same JSON, except for defaults the
//! type fills in, unknown properties of open objects (which the types ignore; the webhook payload
//! keeps them), and `null` on an optional nullable property, which comes back absent.
//!
//! One disagreement is known and cannot be removed by code generation: serde's derived
//! `Deserialize` for a struct also accepts the struct's fields as a JSON array, in declaration
//! order. Such instances are counted apart, and the test fails if any other kind appears.

use std::collections::{BTreeMap, BTreeSet};

use hub_api::generated::schemas;
use serde_json::{Map, Value, json};

/// The unknown property the mutations add, so round-trip comparison can set it aside.
const UNKNOWN: &str = "zzUnknown";
/// Random mutation chains per component, on top of the exhaustive single mutations.
const RANDOM_PER_COMPONENT: usize = 60;
const SEED: u64 = 0x5eed_2026_1122;

fn spec() -> Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/openapi.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

/// Values every node is replaced with in turn: wrong types, boundaries, pattern breakers.
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

/// Every JSON pointer in `value`, root first.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                pointers(
                    child,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// The single mutations of the node at `pointer`.
fn mutations_at(seed: &Value, pointer: &str, palette: &[Value]) -> Vec<Value> {
    let node = seed
        .pointer(pointer)
        .expect("pointer from the seed")
        .clone();
    let replace = |with: Value| {
        let mut copy = seed.clone();
        *copy.pointer_mut(pointer).unwrap() = with;
        copy
    };
    let mut out: Vec<Value> = palette
        .iter()
        .filter(|value| **value != node)
        .cloned()
        .map(replace)
        .collect();
    match &node {
        Value::Object(map) => {
            for key in map.keys() {
                let mut smaller = map.clone();
                smaller.remove(key);
                out.push(replace(Value::Object(smaller)));
            }
            let mut bigger = map.clone();
            bigger.insert(UNKNOWN.into(), json!(1));
            out.push(replace(Value::Object(bigger)));
            if map.contains_key("type") {
                let mut retagged = map.clone();
                retagged.insert("type".into(), json!("zzz"));
                out.push(replace(Value::Object(retagged)));
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for length in [1, 2, 20, 21, 1000, 1001] {
                out.push(replace(Value::Array(
                    items.iter().cycle().take(length).cloned().collect(),
                )));
            }
        }
        Value::String(text) => {
            for variant in [
                format!("-{text}"),
                format!("{text}!"),
                text.to_uppercase(),
                text.repeat(9),
                text.replace('Z', "+00:00"),
            ] {
                out.push(replace(Value::String(variant)));
            }
        }
        Value::Number(number) => {
            if let Some(value) = number.as_f64() {
                for variant in [json!(value), json!(value + 1.0), json!(value - 1.0)] {
                    out.push(replace(variant));
                }
            }
        }
        _ => {}
    }
    out
}

/// A small deterministic generator (xorshift), so every run checks the same instances.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// Property name -> the defaults the spec gives such properties anywhere.
fn defaults(value: &Value, out: &mut BTreeMap<String, Vec<Value>>) {
    match value {
        Value::Object(map) => {
            if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    if let Some(default) = property.get("default") {
                        out.entry(name.clone()).or_default().push(default.clone());
                    }
                    if let Some(reference) = property.get("$ref").and_then(Value::as_str) {
                        out.entry(format!("$ref {name}"))
                            .or_default()
                            .push(json!(reference));
                    }
                }
            }
            map.values().for_each(|child| defaults(child, out));
        }
        Value::Array(items) => items.iter().for_each(|child| defaults(child, out)),
        _ => {}
    }
}

/// Whether two JSON values are equal, numbers compared by value (`3.0` == `3`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, value)| y.get(key).is_some_and(|other| same(value, other)))
        }
        _ => a == b,
    }
}

/// What round-trip comparison needs to know about the spec.
struct Context<'a> {
    spec: &'a Value,
    /// Property name -> defaults the spec gives such properties (and `$ref <name>` entries).
    defaults: BTreeMap<String, Vec<Value>>,
    /// Every property name the spec declares anywhere.
    known: BTreeSet<String>,
}

/// Sets aside what round-tripping may legitimately change: unknown properties of open objects
/// (the mutations' own and any name the spec never declares), `null` on an optional nullable
/// property (it comes back absent), empty optional arrays and maps (typify's default for them,
/// so they come back absent), and defaults filled in or left out by the decoded type.
fn comparable(input: &Value, output: &Value, context: &Context<'_>) -> (Value, Value) {
    match (input, output) {
        (Value::Object(input), Value::Object(output)) => {
            let mut left = Map::new();
            let mut right = Map::new();
            let is_default = |key: &str, value: &Value| {
                context
                    .defaults
                    .get(key)
                    .is_some_and(|values| values.iter().any(|default| same(default, value)))
                    || default_of_ref(key, value, &context.defaults, context.spec)
            };
            for (key, value) in input {
                let dropped = !output.contains_key(key);
                let empty = value.as_array().is_some_and(Vec::is_empty)
                    || value.as_object().is_some_and(Map::is_empty);
                if key == UNKNOWN
                    || (dropped
                        && (is_default(key, value)
                            || value.is_null()
                            || empty
                            || !context.known.contains(key)))
                {
                    continue;
                }
                let (l, r) = comparable(value, output.get(key).unwrap_or(&Value::Null), context);
                left.insert(key.clone(), l);
                if !dropped {
                    right.insert(key.clone(), r);
                }
            }
            for (key, value) in output {
                if !input.contains_key(key) && !is_default(key, value) {
                    right.insert(key.clone(), value.clone());
                }
            }
            (Value::Object(left), Value::Object(right))
        }
        (Value::Array(input), Value::Array(output)) if input.len() == output.len() => {
            let (left, right) = input
                .iter()
                .zip(output)
                .map(|(i, o)| comparable(i, o, context))
                .unzip();
            (Value::Array(left), Value::Array(right))
        }
        _ => (input.clone(), output.clone()),
    }
}

/// Every property name the spec declares anywhere.
fn known_properties(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                out.extend(properties.keys().cloned());
            }
            map.values().for_each(|child| known_properties(child, out));
        }
        Value::Array(items) => items.iter().for_each(|child| known_properties(child, out)),
        _ => {}
    }
}

/// Whether `output` differs from `input` only where the input had an array and the decoded
/// value has an object: serde's derived structs read a struct's fields from an array, in
/// declaration order, and no code generation can turn that off.
fn read_arrays_as_objects(input: &Value, output: &Value) -> bool {
    fn walk(input: &Value, output: &Value, found: &mut bool) -> bool {
        match (input, output) {
            (Value::Array(_), Value::Object(_)) => {
                *found = true;
                true
            }
            (Value::Array(i), Value::Array(o)) => {
                i.len() == o.len() && i.iter().zip(o).all(|(i, o)| walk(i, o, found))
            }
            (Value::Object(i), Value::Object(o)) => o
                .iter()
                .all(|(key, o)| i.get(key).is_none_or(|i| walk(i, o, found))),
            _ => true,
        }
    }
    let mut found = false;
    walk(input, output, &mut found) && found
}

/// Whether `value` is the `default` of the component a property named `key` refers to.
fn default_of_ref(
    key: &str,
    value: &Value,
    defaults: &BTreeMap<String, Vec<Value>>,
    spec: &Value,
) -> bool {
    defaults
        .get(&format!("$ref {key}"))
        .into_iter()
        .flatten()
        .any(|reference| {
            let pointer = reference
                .as_str()
                .unwrap_or_default()
                .trim_start_matches('#');
            spec.pointer(pointer)
                .and_then(|schema| schema.get("default"))
                .is_some_and(|default| same(default, value))
        })
}

#[test]
fn generated_types_agree_with_the_spec() {
    let spec = spec();
    let palette = palette();
    let mut context = Context {
        spec: &spec,
        defaults: BTreeMap::new(),
        known: BTreeSet::new(),
    };
    defaults(&spec, &mut context.defaults);
    known_properties(&spec, &mut context.known);
    let components = spec["components"]["schemas"].as_object().unwrap();
    assert_eq!(
        components
            .keys()
            .map(String::as_str)
            .collect::<BTreeSet<_>>(),
        schemas::NAMES.iter().copied().collect::<BTreeSet<_>>(),
        "every component schema must be decodable by name"
    );

    let mut rng = Rng(SEED);
    let (mut checked, mut accepted, mut positional, mut disagreements) =
        (0usize, 0usize, 0usize, Vec::new());
    for (name, schema) in components {
        let oracle = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&json!({"$ref": format!("#/components/schemas/{name}"), "components": spec["components"]}))
            .unwrap_or_else(|error| panic!("{name}: the oracle cannot compile the schema: {error}"));
        let seeds = schema["examples"]
            .as_array()
            .unwrap_or_else(|| panic!("{name} has no examples"));
        assert!(!seeds.is_empty(), "{name} has no examples");

        let mut instances: Vec<Value> = seeds.clone();
        for seed in seeds {
            let mut at = Vec::new();
            pointers(seed, String::new(), &mut at);
            for pointer in &at {
                instances.extend(mutations_at(seed, pointer, &palette));
            }
        }
        let singles = instances.len();
        for _ in 0..RANDOM_PER_COMPONENT {
            let mut instance = instances[rng.below(singles)].clone();
            for _ in 0..2 {
                let mut at = Vec::new();
                pointers(&instance, String::new(), &mut at);
                let pointer = at[rng.below(at.len())].clone();
                let choices = mutations_at(&instance, &pointer, &palette);
                instance = choices[rng.below(choices.len())].clone();
            }
            instances.push(instance);
        }

        for instance in instances {
            checked += 1;
            let text = instance.to_string();
            let expected = oracle.is_valid(&instance);
            let actual = schemas::decode(name, &text).expect("name listed");
            match (&actual, expected) {
                (Ok(output), true) => {
                    accepted += 1;
                    let (left, right) = comparable(&instance, output, &context);
                    if !same(&left, &right) {
                        disagreements.push(format!(
                            "{name}: round trip changed the value\n  in:  {text}\n  out: {output}"
                        ));
                    }
                }
                (Err(_), false) => {}
                (Ok(output), false)
                    if read_arrays_as_objects(&instance, output) && oracle.is_valid(output) =>
                {
                    positional += 1
                }
                (Ok(_), false) => {
                    let why = oracle
                        .iter_errors(&instance)
                        .next()
                        .map(|error| format!("{} at {}", error, error.instance_path()))
                        .unwrap_or_default();
                    disagreements.push(format!(
                        "{name}: generated type ACCEPTS, spec refuses ({why})\n  {text}"
                    ));
                }
                (Err(error), true) => {
                    disagreements.push(format!(
                        "{name}: generated type REFUSES ({error}), spec accepts\n  {text}"
                    ));
                }
            }
        }
    }

    println!(
        "differential: {checked} instances over {} component schemas (seed {SEED:#x}): {accepted} accepted by both, \
         {positional} positional arrays accepted by serde-derived structs (known), {} disagreements",
        components.len(),
        disagreements.len()
    );
    assert!(checked >= 5_000, "too few instances: {checked}");
    if !disagreements.is_empty() {
        // One example per kind of disagreement (schema and verdict line), most frequent first.
        let mut kinds: BTreeMap<String, (usize, &String)> = BTreeMap::new();
        for disagreement in &disagreements {
            let head = disagreement.lines().next().unwrap_or_default();
            let kind: String = head.chars().take(120).collect();
            kinds.entry(kind).or_insert((0, disagreement)).0 += 1;
        }
        let mut kinds: Vec<_> = kinds.into_values().collect();
        kinds.sort_by_key(|(count, _)| std::cmp::Reverse(*count));
        let report: Vec<String> = kinds
            .iter()
            .take(40)
            .map(|(count, example)| {
                format!(
                    "[{count}x] {}",
                    example.chars().take(700).collect::<String>()
                )
            })
            .collect();
        panic!(
            "{} disagreements in {} kinds:\n{}",
            disagreements.len(),
            kinds.len(),
            report.join("\n")
        );
    }
}
