//! The oracle itself: it finds a decoder that is too lenient or too strict, stays quiet for one
//! that agrees, and works on a spec that keeps everything inline (the synthetic hub spec).

use hub_api_oracle::{Config, Target, body_targets, component_targets, run};
use hub_api_synth::Options;
use serde_json::{Value, json};

/// A one-schema spec: a closed object with a bounded integer and an optional string.
fn tiny_spec() -> Value {
    json!({
        "openapi": "3.1.0",
        "components": {"schemas": {"Counter": {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 1}, "label": {"type": "string"}},
            "required": ["n"],
            "additionalProperties": false,
            "examples": [{"n": 2, "label": "two"}],
        }}},
    })
}

/// A hand-written decoder for `Counter`; `check_minimum` off makes it too lenient.
fn counter(json: &str, check_minimum: bool) -> Result<Value, String> {
    let value: Value = serde_json::from_str(json).map_err(|error| error.to_string())?;
    let map = value.as_object().ok_or("not an object")?;
    if map.keys().any(|key| key != "n" && key != "label") {
        return Err("unknown property".into());
    }
    // `3.0` is an integer to JSON Schema.
    let n = map
        .get("n")
        .and_then(Value::as_f64)
        .ok_or("n: not a number")?;
    if n.fract() != 0.0 {
        return Err("n: not an integer".into());
    }
    if check_minimum && n < 1.0 {
        return Err("n: below 1".into());
    }
    if map.get("label").is_some_and(|label| !label.is_string()) {
        return Err("label: not a string".into());
    }
    Ok(value)
}

fn run_tiny(check_minimum: bool) -> hub_api_oracle::Report {
    let spec = tiny_spec();
    let decode =
        move |name: &str, json: &str| (name == "Counter").then(|| counter(json, check_minimum));
    run(
        &spec,
        &component_targets(&spec),
        &decode,
        &Config::default(),
    )
}

#[test]
fn an_agreeing_decoder_passes() {
    let report = run_tiny(true);
    assert!(report.checked > 50, "{}", report.summary(0));
    assert!(report.accepted > 0);
    assert_eq!(report.failure(), None);
}

#[test]
fn a_lenient_decoder_is_caught() {
    let report = run_tiny(false);
    let failure = report.failure().expect("the missing minimum must be found");
    assert!(failure.contains("ACCEPTS, spec refuses"), "{failure}");
}

#[test]
fn an_unknown_name_or_pointer_is_reported_not_panicked() {
    let spec = tiny_spec();
    let targets = [
        Target {
            name: "Missing".into(),
            pointer: "/components/schemas/Counter".into(),
        },
        Target {
            name: "Nowhere".into(),
            pointer: "/components/schemas/Nowhere".into(),
        },
    ];
    let report = run(
        &spec,
        &targets,
        &|_: &str, _: &str| None,
        &Config::default(),
    );
    assert_eq!(report.disagreements.len(), 2, "{:?}", report.disagreements);
}

/// Every inline body schema of the synthetic spec compiles under the validator and has a seed:
/// the oracle is ready for a generated crate of it. The decoder here is the validator itself, so
/// any disagreement is the oracle's own (a round trip it cannot compare, a schema it cannot read).
#[test]
fn the_synthetic_specs_inline_schemas_are_checkable() {
    let spec = hub_api_synth::spec(&Options {
        operations: 24,
        ..Options::default()
    });
    let pointers = body_targets(&spec);
    assert!(pointers.len() >= 20, "{} body schemas", pointers.len());
    let targets: Vec<Target> = pointers
        .iter()
        .map(|pointer| Target {
            name: pointer.clone(),
            pointer: pointer.clone(),
        })
        .collect();
    let validators: std::collections::BTreeMap<String, jsonschema::Validator> = pointers
        .iter()
        .map(|pointer| {
            let schema = spec.pointer(pointer).expect("listed").clone();
            let validator = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .build(&schema)
                .expect("compiles");
            (pointer.clone(), validator)
        })
        .collect();
    let decode = |name: &str, json: &str| {
        let validator = validators.get(name)?;
        let value: Value = serde_json::from_str(json).expect("the oracle sends JSON");
        Some(if validator.is_valid(&value) {
            Ok(value)
        } else {
            Err("invalid".to_owned())
        })
    };
    let config = Config {
        random_per_target: 5,
        ..Config::default()
    };
    let report = run(&spec, &targets, &decode, &config);
    println!("{}", report.summary(config.seed));
    assert_eq!(report.failure(), None);
}
