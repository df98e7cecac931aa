//! The differential oracle: a generated crate's types must accept exactly what the spec accepts.
//!
//! The oracle is the spec's own schemas (OpenAPI 3.1, so JSON Schema 2020-12) under the
//! `jsonschema` crate, with formats checked. The instances are every target schema's examples,
//! mutated at every node along every kind of constraint (wrong type, missing required, unknown
//! property, wrong or missing tag, boundaries, pattern-breaking strings, nulls), plus seeded
//! random chains of mutations. For every instance the generated decoder's verdict must equal
//! the validator's; an accepted instance must serialize back to the same JSON, except for
//! defaults the type fills in, unknown properties of open objects, `null` on an optional
//! nullable property (it comes back absent) and empty optional arrays and maps.
//!
//! No disagreement is excused: a struct that read its fields from a JSON array, as serde's
//! derived `Deserialize` does, is reported like any other (generated structs decode through
//! `decode_object!`, which reads objects only).
//!
//! Nothing here knows a particular spec: a test gives [`run`] the spec, the schemas to check
//! (by JSON pointer, see [`component_targets`] and [`body_targets`]) and the generated crate's
//! decode function (its `schemas` registry, or any function from a name and JSON text to the
//! decoded value serialized again).
//!
//! A target without a valid example (most real-world schemas have none) is seeded by
//! [`synthesize`] from its own constraints. A document that went through hub-api-codegen's
//! normalize step (`cargo xtask corpus --oracle` checks such documents) is read through
//! [`unmark`] first.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

mod marks;
mod seeds;

pub use marks::{reaches_mark, unmark};
pub use seeds::synthesize;

/// The unknown property the mutations add, so round-trip comparison can set it aside.
const UNKNOWN: &str = "zzUnknown";

/// One schema to check: the name the decode function knows it by, and where it is in the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    /// A JSON pointer into the spec (`/components/schemas/Foo`).
    pub pointer: String,
}

/// Every component schema, named by its component name.
pub fn component_targets(spec: &Value) -> Vec<Target> {
    spec.pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(Map::keys)
        .map(|name| Target {
            name: name.clone(),
            pointer: format!("/components/schemas/{}", escape(name)),
        })
        .collect()
}

/// The pointer of every inline JSON body schema (request bodies and responses) that has
/// `examples`, for specs that keep their schemas inline. Naming them is the generated crate's
/// business; a test maps each pointer to the name its decode function knows.
pub fn body_targets(spec: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (path, item) in spec
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (method, operation) in item.as_object().into_iter().flatten() {
            let at = format!("/paths/{}/{method}", escape(path));
            let mut holders = vec![format!("{at}/requestBody")];
            for status in operation
                .get("responses")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(Map::keys)
            {
                holders.push(format!("{at}/responses/{}", escape(status)));
            }
            for holder in holders {
                let pointer = format!("{holder}/content/application~1json/schema");
                if spec
                    .pointer(&pointer)
                    .is_some_and(|schema| schema.get("examples").is_some())
                {
                    out.push(pointer);
                }
            }
        }
    }
    out
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// `cidrv4`/`cidrv6`: an address and a prefix length of at most `bits` (`10.0.0.0/8`). JSON
/// Schema has no such formats and a validator ignores formats it does not know, but
/// descriptions written with Zod (the hub's among them) use these two with this meaning, and
/// the generated types enforce it; the oracle is taught it independently of the generator.
fn is_cidr<Address: std::str::FromStr>(text: &str, bits: u8) -> bool {
    let Some((address, length)) = text.split_once('/') else {
        return false;
    };
    address.parse::<Address>().is_ok()
        && !length.is_empty()
        && length.bytes().all(|byte| byte.is_ascii_digit())
        && length.parse::<u8>().is_ok_and(|length| length <= bits)
}

/// `byte`: base64 text (RFC 4648, padded), as OpenAPI's format registry defines it. A JSON
/// Schema validator does not know the format; the generated types enforce it.
fn is_base64(text: &str) -> bool {
    let bytes = text.as_bytes();
    let padding = bytes.iter().rev().take_while(|byte| **byte == b'=').count();
    bytes.len().is_multiple_of(4)
        && padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|byte| byte.is_ascii_alphanumeric() || *byte == b'+' || *byte == b'/')
}

/// How many instances to try.
#[derive(Clone, Debug)]
pub struct Config {
    /// Values every node is replaced with in turn.
    pub palette: Vec<Value>,
    /// Random mutation chains per target, on top of the exhaustive single mutations.
    pub random_per_target: usize,
    pub seed: u64,
    /// At most this many single mutations per target (seeds included), taken evenly from all
    /// of them: a large object's seed has hundreds of nodes, each mutated some forty ways.
    pub max_singles_per_target: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            palette: generic_palette(),
            random_per_target: 60,
            seed: 0x5eed_2026_1122,
            max_singles_per_target: usize::MAX,
        }
    }
}

/// Wrong types, boundaries and pattern breakers that fit any spec: the JSON kinds, integer and
/// length boundaries, and strings near the common formats.
pub fn generic_palette() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.5),
        json!(3.0),
        json!(100),
        json!(101),
        json!(1000),
        json!(1001),
        json!(9007199254740991u64),
        json!(9007199254740992u64),
        json!(""),
        json!("x"),
        json!("-abc"),
        json!("A"),
        json!("a".repeat(65)),
        json!("a".repeat(201)),
        json!("2026-11-02T09:15:00Z"),
        json!("2026-11-02T09:15:00+01:00"),
        json!("2026-13-02T09:15:00Z"),
        json!("2026-11-02"),
        json!("https://example.com/hooks?x=1"),
        json!("not a uri"),
        json!("user@example.com"),
        json!("10.0.0.0/8"),
        json!("2001:db8::/32"),
        json!("tab\there"),
        json!([]),
        json!(["x"]),
        json!({}),
        json!({"a": "b"}),
        json!({"1A": "b"}),
    ]
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    pub targets: usize,
    pub checked: usize,
    /// Instances both sides accepted (and that round-tripped).
    pub accepted: usize,
    /// Targets without a valid example, seeded by [`synthesize`].
    pub synthesized: usize,
    /// Targets for which no seed the validator accepts was found, given or synthesized: their
    /// instances are mutations of invalid values, so they check little besides refusals.
    pub unseeded: usize,
    /// Every other disagreement, one text each.
    pub disagreements: Vec<String>,
}

impl Report {
    /// One line for the test log.
    pub fn summary(&self, seed: u64) -> String {
        format!(
            "differential: {} instances over {} schemas (seed {seed:#x}): {} accepted by both, \
             {} disagreements",
            self.checked,
            self.targets,
            self.accepted,
            self.disagreements.len()
        )
    }

    /// `None` when nothing disagrees; otherwise one example per kind of disagreement (schema
    /// and verdict line), most frequent first.
    pub fn failure(&self) -> Option<String> {
        if self.disagreements.is_empty() {
            return None;
        }
        let mut kinds: BTreeMap<String, (usize, &String)> = BTreeMap::new();
        for disagreement in &self.disagreements {
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
        Some(format!(
            "{} disagreements in {} kinds:\n{}",
            self.disagreements.len(),
            kinds.len(),
            report.join("\n")
        ))
    }
}

/// The generated crate's side: decodes `json` as the schema known as `name` and returns the
/// decoded value serialized again; `None` when it knows no such name.
pub type Decode<'a> = dyn Fn(&str, &str) -> Option<Result<Value, String>> + 'a;

/// Checks every target. A target the validator cannot compile, without examples, or unknown to
/// `decode` is a disagreement (named), not a panic, so one run reports everything.
pub fn run(spec: &Value, targets: &[Target], decode: &Decode<'_>, config: &Config) -> Report {
    let mut context = Context {
        spec,
        defaults: BTreeMap::new(),
        known: BTreeSet::new(),
    };
    defaults(spec, &mut context.defaults);
    known_properties(spec, &mut context.known);
    let mut rng = Rng(config.seed);
    let mut report = Report {
        targets: targets.len(),
        ..Report::default()
    };
    for target in targets {
        check_target(target, &context, decode, config, &mut rng, &mut report);
    }
    report
}

fn check_target(
    target: &Target,
    context: &Context<'_>,
    decode: &Decode<'_>,
    config: &Config,
    rng: &mut Rng,
    report: &mut Report,
) {
    let name = &target.name;
    let Some(schema) = context.spec.pointer(&target.pointer) else {
        report
            .disagreements
            .push(format!("{name}: no schema at {}", target.pointer));
        return;
    };
    // The target is the validator's root, so a `$schema` it carries stays at a resource root;
    // the components ride along for its `$ref`s.
    let mut root = schema.clone();
    if let (Some(map), Some(components)) = (root.as_object_mut(), context.spec.get("components")) {
        map.insert("components".into(), components.clone());
    }
    let oracle = match jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .with_format("cidrv4", |text: &str| {
            is_cidr::<std::net::Ipv4Addr>(text, 32)
        })
        .with_format("cidrv6", |text: &str| {
            is_cidr::<std::net::Ipv6Addr>(text, 128)
        })
        .with_format("byte", is_base64)
        .build(&root)
    {
        Ok(oracle) => oracle,
        Err(error) => {
            report.disagreements.push(format!(
                "{name}: the validator cannot compile the schema: {error}"
            ));
            return;
        }
    };
    // `examples`, or OpenAPI 3.0's singular `example` that a 3.0 document carries over.
    let mut seeds = match (schema.get("examples"), schema.get("example")) {
        (Some(Value::Array(examples)), _) => examples.clone(),
        (None, Some(example)) => vec![example.clone()],
        _ => Vec::new(),
    };
    // Real-world examples are often wrong, and a seed the schema refuses mostly yields
    // instances both sides refuse: synthesized valid seeds join them.
    if !seeds.iter().any(|seed| oracle.is_valid(seed)) {
        report.synthesized += 1;
        let candidates = synthesize(schema, context.spec);
        let valid: Vec<Value> = candidates
            .iter()
            .filter(|candidate| oracle.is_valid(candidate))
            .cloned()
            .collect();
        if valid.is_empty() {
            report.unseeded += 1;
            seeds.extend(candidates);
        } else {
            seeds.extend(valid);
        }
    }
    let palette = &config.palette;
    let mut instances: Vec<Value> = seeds.clone();
    for seed in &seeds {
        let mut at = Vec::new();
        pointers(seed, String::new(), &mut at);
        for pointer in &at {
            instances.extend(mutations_at(seed, pointer, palette));
        }
    }
    thin(&mut instances, seeds.len(), config.max_singles_per_target);
    let singles = instances.len();
    for _ in 0..config.random_per_target {
        let mut instance = instances[rng.below(singles)].clone();
        for _ in 0..2 {
            let mut at = Vec::new();
            pointers(&instance, String::new(), &mut at);
            let pointer = at[rng.below(at.len())].clone();
            let choices = mutations_at(&instance, &pointer, palette);
            instance = choices[rng.below(choices.len())].clone();
        }
        instances.push(instance);
    }

    for instance in instances {
        report.checked += 1;
        let text = instance.to_string();
        let expected = oracle.is_valid(&instance);
        let Some(actual) = decode(name, &text) else {
            report
                .disagreements
                .push(format!("{name}: the generated crate has no such schema"));
            return;
        };
        match (&actual, expected) {
            (Ok(output), true) => {
                report.accepted += 1;
                let (left, right) = comparable(&instance, output, context);
                if !same(&left, &right) {
                    report.disagreements.push(format!(
                        "{name}: round trip changed the value\n  in:  {text}\n  out: {output}"
                    ));
                }
            }
            (Err(_), false) => {}
            (Ok(_), false) => {
                let why = oracle
                    .iter_errors(&instance)
                    .next()
                    .map(|error| {
                        format!(
                            "{} at {} by {}",
                            error,
                            error.instance_path(),
                            error.schema_path()
                        )
                    })
                    .unwrap_or_default();
                report.disagreements.push(format!(
                    "{name}: generated type ACCEPTS, spec refuses ({why})\n  {text}"
                ));
            }
            (Err(error), true) => {
                report.disagreements.push(format!(
                    "{name}: generated type REFUSES ({error}), spec accepts\n  {text}"
                ));
            }
        }
    }
}

/// Keeps at most `limit` of `instances` (never fewer than the first `keep`, the seeds), the
/// rest taken evenly from across the list so that every seed's nodes stay represented.
fn thin(instances: &mut Vec<Value>, keep: usize, limit: usize) {
    let limit = limit.max(keep);
    if instances.len() <= limit {
        return;
    }
    let rest = instances.split_off(keep);
    let wanted = limit - keep;
    let stride = rest.len() as f64 / wanted as f64;
    instances.extend(
        (0..wanted)
            .map(|index| rest[((index as f64 * stride) as usize).min(rest.len() - 1)].clone()),
    );
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
            // The usual tag properties of const-told unions, given a value no variant has.
            for tag in ["type", "kind"] {
                if map.contains_key(tag) {
                    let mut retagged = map.clone();
                    retagged.insert(tag.into(), json!("zzz"));
                    out.push(replace(Value::Object(retagged)));
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_padded_rfc_4648() {
        for good in ["", "eA==", "eHk=", "eHl6", "a+/9"] {
            assert!(is_base64(good), "{good}");
        }
        for bad in [
            "x",
            "eA=",
            "eA===",
            "e===",
            "eA-_",
            "eA=="[..3].as_ref(),
            "=eA=",
        ] {
            assert!(!is_base64(bad), "{bad}");
        }
    }

    #[test]
    fn thinning_keeps_the_seeds_and_spreads_the_rest() {
        let mut instances: Vec<Value> = (0..12).map(|n| json!(n)).collect();
        thin(&mut instances, 2, 6);
        assert_eq!(instances, [0, 1, 2, 4, 7, 9].map(|n| json!(n)));
        let mut few: Vec<Value> = (0..3).map(|n| json!(n)).collect();
        thin(&mut few, 3, 1);
        assert_eq!(few.len(), 3);
    }
}
