//! `regen_scaling`: how generation time grows with the spec. The synthetic spec is
//! `spec/openapi.yaml` with every path and every component schema copied 7 more times under new
//! names (`/x2/api/...`, `NotificationX2`, operation `listNotificationsX2`), each copy's schema
//! references rewritten to point into the same copy, so it is 8 times larger in every dimension
//! the generator works through.
//!
//! Both sides run the full pipeline `cargo xtask regen` runs (`hub_api_codegen::generate`: load,
//! down-level, patch inference, patches, coverage check, progenitor, typify, prettyplease,
//! surface). Patches are inferred from the schemas (and their `x-rust-` decisions, copied with
//! them), so each copy gets its own; measuring `generate_plain` instead would leave out the
//! patch and coverage steps, whose cost is what most needs watching as the spec grows.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, ensure};
use hub_api_codegen::{self as codegen, Input};
use serde_json::{Map, Value};

use crate::measure::{Bound, Comparison, Side};

/// The synthetic spec is this many times the original.
pub const FACTOR: usize = 8;

const SCHEMA_REF: &str = "#/components/schemas/";

pub struct RegenScaling {
    original: String,
    synthetic: String,
}

impl RegenScaling {
    pub fn new() -> Result<Self> {
        let root = crate::workspace_root();
        let text = std::fs::read_to_string(root.join(codegen::SPEC_PATH))
            .with_context(|| format!("reading {}", codegen::SPEC_PATH))?;
        let document = codegen::load::load(&text, codegen::SPEC_PATH)?;
        let synthetic = synthetic_spec(&document, FACTOR)?;
        // Both sides are given JSON text, so that YAML parsing of the checked-in file does not
        // make the original look slower per byte than the synthetic one.
        let original = serde_json::to_string_pretty(&document)?;
        let synthetic = serde_json::to_string_pretty(&synthetic)?;

        // Setup check: both generate, and the synthetic output really is about 8 times larger.
        let small = generate(&original)?;
        let large = generate(&synthetic)?;
        let growth = large.rust.lines().count() as f64 / small.rust.lines().count() as f64;
        ensure!(
            (FACTOR as f64 * 0.8..=FACTOR as f64 * 1.2).contains(&growth),
            "the synthetic spec generated {growth:.1} times the lines of the original, not about {FACTOR}"
        );
        println!(
            "# regen_scaling: {} lines of Rust from spec/openapi.yaml, {} from the {FACTOR}x spec",
            small.rust.lines().count(),
            large.rust.lines().count()
        );
        Ok(Self {
            original,
            synthetic,
        })
    }
}

fn generate(spec_text: &str) -> Result<codegen::Output> {
    Ok(codegen::generate(&Input {
        spec_text,
        spec_name: codegen::SPEC_PATH,
        patches: &[],
        module_path: codegen::CLIENT_MODULE,
    })?)
}

impl Comparison for RegenScaling {
    fn labels(&self) -> [&'static str; 2] {
        ["8x spec", "spec"]
    }

    fn bound(&self) -> Bound {
        Bound::AtMost(10.0)
    }

    fn sample(&mut self, side: Side) -> Result<Duration> {
        let text = match side {
            Side::Ours => &self.synthetic,
            Side::Baseline => &self.original,
        };
        let started = Instant::now();
        let output = generate(text)?;
        let elapsed = started.elapsed();
        drop(std::hint::black_box(output));
        Ok(elapsed)
    }
}

/// The name of copy `copy` (2 and up) of a schema, path or operation; copy 1 is the original.
fn renamed(name: &str, copy: usize) -> String {
    format!("{name}X{copy}")
}

/// `document` with its paths and component schemas present `factor` times.
pub fn synthetic_spec(document: &Value, factor: usize) -> Result<Value> {
    let mut synthetic = document.clone();
    let paths = object(document, "/paths")?;
    let schemas = object(document, "/components/schemas")?;
    let mut all_paths = paths.clone();
    let mut all_schemas = schemas.clone();
    for copy in 2..=factor {
        for (path, item) in paths {
            let mut item = item.clone();
            retarget(&mut item, copy);
            rename_operations(&mut item, copy);
            all_paths.insert(format!("/x{copy}{path}"), item);
        }
        for (name, schema) in schemas {
            let mut schema = schema.clone();
            retarget(&mut schema, copy);
            all_schemas.insert(renamed(name, copy), schema);
        }
    }
    *synthetic
        .pointer_mut("/paths")
        .ok_or_else(|| anyhow!("the spec has no paths"))? = Value::Object(all_paths);
    *synthetic
        .pointer_mut("/components/schemas")
        .ok_or_else(|| anyhow!("the spec has no component schemas"))? = Value::Object(all_schemas);
    Ok(synthetic)
}

fn object<'a>(document: &'a Value, pointer: &str) -> Result<&'a Map<String, Value>> {
    document
        .pointer(pointer)
        .and_then(Value::as_object)
        .ok_or_else(|| anyhow!("the spec has no object at {pointer}"))
}

/// Points every schema reference (`$ref`s and discriminator mappings alike are strings starting
/// with `#/components/schemas/`) at the copy's schema. Parameter references stay shared.
fn retarget(value: &mut Value, copy: usize) {
    match value {
        Value::String(text) => {
            if let Some(name) = text.strip_prefix(SCHEMA_REF) {
                *text = format!("{SCHEMA_REF}{}", renamed(name, copy));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| retarget(item, copy)),
        Value::Object(members) => members.values_mut().for_each(|item| retarget(item, copy)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Operation ids must stay unique: progenitor names methods and types after them.
fn rename_operations(path_item: &mut Value, copy: usize) {
    let Some(methods) = path_item.as_object_mut() else {
        return;
    };
    for operation in methods.values_mut() {
        if let Some(Value::String(id)) = operation.get_mut("operationId") {
            *id = renamed(id, copy);
        }
    }
}

/// The hub's patches once per copy, each retargeted to that copy's schema.
#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn copies_paths_schemas_and_references() {
        let document = json!({
            "paths": { "/api/a": { "get": { "operationId": "getA", "responses": { "200": {
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/A" } } }
            } } } } },
            "components": { "schemas": {
                "A": { "oneOf": [{ "$ref": "#/components/schemas/B" }],
                       "discriminator": { "propertyName": "t", "mapping": { "b": "#/components/schemas/B" } } },
                "B": { "type": "object" }
            } }
        });
        let synthetic = synthetic_spec(&document, 3).expect("a valid document");
        assert_eq!(synthetic["paths"].as_object().map(Map::len), Some(3));
        assert_eq!(
            synthetic["components"]["schemas"].as_object().map(Map::len),
            Some(6)
        );
        let copy = &synthetic["paths"]["/x3/api/a"]["get"];
        assert_eq!(copy["operationId"], "getAX3");
        assert_eq!(
            copy["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/AX3"
        );
        let union = &synthetic["components"]["schemas"]["AX2"];
        assert_eq!(union["oneOf"][0]["$ref"], "#/components/schemas/BX2");
        assert_eq!(
            union["discriminator"]["mapping"]["b"],
            "#/components/schemas/BX2"
        );
        // The original is untouched.
        assert_eq!(
            synthetic["components"]["schemas"]["A"],
            document["components"]["schemas"]["A"]
        );
    }
}
