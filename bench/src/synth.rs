//! Issue 14's scale figures, on the synthetic hub-shaped spec of `hub-api-synth` (320
//! operations, about 13,600 schema nodes, every construct of the whole hub's description):
//!
//! - `synth_lines`: lines of the crate `generate_crate` writes against the lines progenitor and
//!   typify emit alone (builder interface, `generate_plain`) from the same operations. Plain
//!   progenitor needs operation ids and refuses what 3.0 cannot say, so it is fed the document
//!   as codegen's `normalize` leaves it, the "hand-cleaned copy" of the issue.
//! - `synth_check`: `cargo check` of the two crates after a change to the generated file, with
//!   their dependencies already built (the same pinned versions, one shared target directory).
//! - `synth_regen_scaling`: `generate_crate` on the spec at 2 times the synthetic size against
//!   1/4 of it (8 times the schema nodes); 1/2 and 1 times are printed alongside, so the growth
//!   can be seen to be linear.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use hub_api_codegen::{self as codegen, CrateOptions, FindingKind};
use hub_api_synth::Options;
use serde_json::{Value, json};

use crate::measure::{Bound, Comparison, Figure, Side, millis};

const SPEC_NAME: &str = "synthetic.json";

/// The synthetic spec at `operations` operations, as JSON text, with its schema node count.
fn synthetic(operations: usize) -> (String, usize) {
    let options = Options {
        operations,
        ..Options::default()
    };
    let document = hub_api_synth::spec(&options);
    let nodes = hub_api_synth::count(&document).schema_nodes;
    (hub_api_synth::spec_text(&options), nodes)
}

/// The synthetic spec `generate_crate` accepts: the spec itself, or, while generate_crate
/// refuses it, the reduced spec ([`reduce`]); the flag says which. Every figure names it.
fn usable(operations: usize) -> Result<(String, usize, bool)> {
    let (text, nodes) = synthetic(operations);
    if generate_ours(&text).is_ok() {
        return Ok((text, nodes, false));
    }
    let mut document: Value = serde_json::from_str(&text)?;
    reduce(&mut document);
    let nodes = hub_api_synth::count(&document).schema_nodes;
    let text = serde_json::to_string_pretty(&document)?;
    generate_ours(&text).context("generate_crate refuses even the reduced synthetic spec")?;
    Ok((text, nodes, true))
}

/// What `generate_crate` cannot take yet, taken out of the document (the failures
/// [`print_failures`] finds): every object property becomes required (inline objects with
/// optional fields stop generation), a literal set (`anyOf` of `const`s) becomes an `enum`, and
/// an `anyOf` that is neither nullable, nor of objects only, nor an open enum becomes its first
/// member. Every other construct stays. A stopgap that goes when generate_crate takes the full
/// spec.
fn reduce(value: &mut Value) {
    let Value::Object(map) = value else {
        if let Value::Array(items) = value {
            items.iter_mut().for_each(reduce);
        }
        return;
    };
    let literals: Option<Vec<Value>> =
        map.get("anyOf")
            .and_then(Value::as_array)
            .and_then(|members| {
                members
                    .iter()
                    .map(|member| member.get("const").cloned())
                    .collect()
            });
    if let Some(literals) = literals {
        map.remove("anyOf");
        map.insert("enum".into(), Value::Array(literals));
    } else if let Some(members) = map.get("anyOf").and_then(Value::as_array).cloned() {
        let kind = |member: &Value| {
            member
                .get("type")
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let nullable =
            members.len() == 2 && members.iter().any(|m| kind(m).as_deref() == Some("null"));
        let objects = members.iter().all(|m| kind(m).as_deref() == Some("object"));
        let open_enum = members.len() == 2
            && members.iter().any(|m| m.get("enum").is_some())
            && members.iter().any(|m| {
                m.as_object().is_some_and(|m| m.len() == 1) && kind(m).as_deref() == Some("string")
            });
        if !(nullable || objects || open_enum) {
            map.remove("anyOf");
            if let Some(Value::Object(first)) = members.into_iter().next() {
                map.extend(first);
            }
        }
    }
    if let Some(names) = map
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .keys()
                .map(|name| json!(name))
                .collect::<Vec<_>>()
        })
    {
        map.insert("required".into(), Value::Array(names));
    }
    for (key, child) in map.iter_mut() {
        if key != "examples"
            && key != "example"
            && key != "default"
            && key != "const"
            && key != "enum"
        {
            reduce(child);
        }
    }
}

/// How a figure names the spec it ran on.
fn which(reduced: bool) -> &'static str {
    if reduced {
        "reduced synthetic spec"
    } else {
        "synthetic spec"
    }
}

/// Our crate, not strict: what cannot be generated is left out and reported.
fn generate_ours(spec_text: &str) -> Result<codegen::GeneratedCrate> {
    Ok(codegen::generate_crate(
        spec_text,
        SPEC_NAME,
        "synthetic-hub",
        &CrateOptions { strict: false },
    )?)
}

/// progenitor and typify alone, on the normalized document.
fn generate_plain(spec_text: &str) -> Result<String> {
    let mut document = codegen::load::load(spec_text, SPEC_NAME)?;
    codegen::normalize::normalize(&mut document);
    let normalized = serde_json::to_string(&document)?;
    Ok(codegen::generate_plain(
        &normalized,
        SPEC_NAME,
        "crate::generated",
    )?)
}

/// Prints what our run repaired, did not enforce and left out (the list of what fails).
fn print_report(generated: &codegen::GeneratedCrate) {
    let count = |kind: FindingKind| {
        generated
            .report
            .iter()
            .filter(|finding| finding.kind == kind)
            .count()
    };
    println!(
        "# synth: generate_crate report: {} repaired, {} defects, {} rules not enforced, {} left out",
        count(FindingKind::Repaired),
        count(FindingKind::Defect),
        count(FindingKind::Unenforced),
        count(FindingKind::Skipped),
    );
    for finding in generated
        .report
        .iter()
        .filter(|finding| matches!(finding.kind, FindingKind::Skipped | FindingKind::Unenforced))
        .take(20)
    {
        println!("#   {finding}");
    }
}

fn generated_rust(generated: &codegen::GeneratedCrate) -> Result<&str> {
    generated
        .files
        .get("src/generated.rs")
        .map(String::as_str)
        .context("generate_crate wrote no src/generated.rs")
}

/// When `generate_crate` refuses the whole synthetic spec, runs it on each path alone and prints
/// the distinct errors (names replaced by `_`), each with its count and a first path: the list of
/// what fails, for the closing note.
fn print_failures(text: &str) -> Result<()> {
    let document: Value = serde_json::from_str(text)?;
    let mut kinds: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    let paths = document["paths"].as_object().context("no paths")?;
    let mut failed = 0;
    for (path, item) in paths {
        let mut single = document.clone();
        single["paths"] = json!({ path: item });
        if let Err(error) = generate_ours(&single.to_string()) {
            failed += 1;
            let message = error.to_string();
            let first = message.lines().next().unwrap_or_default();
            // Names differ per path; the kind of failure is the message without them.
            let kind: String = first
                .split('`')
                .enumerate()
                .map(|(index, part)| if index % 2 == 1 { "_" } else { part })
                .collect::<Vec<_>>()
                .join("`");
            kinds.entry(kind).or_insert((0, path.clone())).0 += 1;
        }
    }
    println!(
        "# synth: generate_crate fails on {failed} of {} paths alone:",
        paths.len()
    );
    for (kind, (count, path)) in &kinds {
        println!("#   [{count}x] {kind} (first: {path})");
    }
    print_construct_failures(&document);
    Ok(())
}

/// Runs `generate_crate` on one construct at a time: for each distinct set of constructs a
/// property schema of the synthetic spec has (objects with optional fields left out, so the
/// first failure above does not hide the others), a one-operation spec whose 200 body requires
/// just that property. Prints each construct set that fails, with the error.
fn print_construct_failures(document: &serde_json::Value) {
    let mut candidates = Vec::new();
    property_schemas(&document["paths"], &mut candidates);
    let mut seen = std::collections::BTreeSet::new();
    let (mut tried, mut failures) = (0, Vec::new());
    for schema in candidates {
        if has_optional_field(schema) {
            continue;
        }
        let spec = probe_spec(schema);
        let constructs: Vec<String> = hub_api_synth::count(&spec)
            .constructs()
            .into_iter()
            .filter(|(name, count)| *count > 0 && !name.starts_with("operations"))
            .map(|(name, _)| name)
            .collect();
        let mut key = if constructs.is_empty() {
            "plain property".to_owned()
        } else {
            constructs.join(" + ")
        };
        // The other mixes differ by their members' shapes; each shape is tried.
        if let Some(members) = schema.get("anyOf").and_then(Value::as_array) {
            let shapes: Vec<String> = members.iter().map(member_shape).collect();
            key = format!("{key} [{}]", shapes.join(" | "));
        }
        if !seen.insert(key.clone()) {
            continue;
        }
        tried += 1;
        if let Err(error) = generate_ours(&spec.to_string()) {
            let message = error.to_string();
            let first = message.lines().next().unwrap_or_default();
            failures.push(format!("{key}: {first}\n#       {schema}"));
        }
    }
    println!(
        "# synth: {} of {tried} construct sets fail alone:",
        failures.len()
    );
    for failure in failures {
        println!("#   {failure}");
    }
}

/// A member of an `anyOf` as its keywords and type (`type=string`, `const`, `not`).
fn member_shape(member: &Value) -> String {
    let Some(map) = member.as_object() else {
        return member.to_string();
    };
    map.iter()
        .map(|(key, value)| match (key.as_str(), value.as_str()) {
            ("type", Some(kind)) => format!("type={kind}"),
            _ => key.clone(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether `schema` or any schema in it is an object with a property it does not require.
fn has_optional_field(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    let required = map.get("required").and_then(Value::as_array);
    let optional = map
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| {
            properties
                .keys()
                .any(|name| !required.is_some_and(|required| required.iter().any(|r| r == name)))
        });
    optional
        || map.values().any(|child| match child {
            Value::Array(items) => items.iter().any(has_optional_field),
            other => has_optional_field(other),
        })
}

/// Every property schema under `value`.
fn property_schemas<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    match value {
        Value::Object(map) => {
            if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                out.extend(properties.values());
            }
            map.values().for_each(|child| property_schemas(child, out));
        }
        Value::Array(items) => items.iter().for_each(|child| property_schemas(child, out)),
        _ => {}
    }
}

/// One `GET` whose 200 body is a closed object requiring one property of schema `schema`.
fn probe_spec(schema: &Value) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "probe", "version": "1"},
        "paths": {"/api/probe": {"get": {"responses": {"200": {
            "description": "OK",
            "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {"probe": schema},
                "required": ["probe"],
                "additionalProperties": false,
            }}},
        }}}}},
    })
}

/// `synth_lines`: ours against plain, in lines of Rust. Goal 0.25 (issue 14), stretch 0.12.
pub fn lines_vs_plain() -> Result<Figure> {
    let (text, nodes) = synthetic(Options::default().operations);
    match generate_plain(&text) {
        Ok(plain) => println!(
            "# synth: plain progenitor+typify: {} lines",
            plain.lines().count()
        ),
        Err(error) => println!("# synth: plain progenitor+typify fails: {error}"),
    }
    if let Err(error) = generate_ours(&text) {
        println!(
            "# synth: generate_crate refuses the synthetic spec ({nodes} schema nodes): {error}"
        );
        print_failures(&text)?;
    }
    let (text, nodes, reduced) = usable(Options::default().operations)?;
    let ours = generate_ours(&text)?;
    print_report(&ours);
    let ours_lines = generated_rust(&ours)?.lines().count();
    let plain_lines = generate_plain(&text)?.lines().count();
    println!(
        "# synth: {} ({nodes} schema nodes): ours {ours_lines} lines, plain {plain_lines} lines",
        which(reduced)
    );
    Ok(Figure {
        name: "synth_lines",
        value: ours_lines as f64 / plain_lines as f64,
        ours: format!("generated {ours_lines} lines, {}", which(reduced)),
        baseline: format!("plain {plain_lines} lines"),
        bound: Bound::AtMost(0.25),
    })
}

/// `synth_check`: two crates in one scratch directory under the target directory, sharing a
/// target directory of their own, so their dependencies are built once, in the setup.
pub struct CheckVsPlain {
    ours: PathBuf,
    plain: PathBuf,
    target: PathBuf,
}

impl CheckVsPlain {
    pub fn new() -> Result<Self> {
        let (text, _, reduced) = usable(Options::default().operations)?;
        println!("# synth_check: on the {}", which(reduced));
        let ours = generate_ours(&text)?;
        let plain = generate_plain(&text)?;
        let scratch = scratch_dir()?;
        let (ours_dir, plain_dir) = (scratch.join("ours"), scratch.join("plain"));
        for (path, content) in &ours.files {
            write(&ours_dir.join(path), content)?;
        }
        // The plain crate: the same manifest (the same pinned dependencies) under another name,
        // and a lib.rs that only mounts the generated module.
        let manifest = ours.files.get("Cargo.toml").context("no Cargo.toml")?;
        write(
            &plain_dir.join("Cargo.toml"),
            &manifest.replacen(
                "name = \"synthetic-hub\"",
                "name = \"synthetic-hub-plain\"",
                1,
            ),
        )?;
        write(
            &plain_dir.join("src/lib.rs"),
            "//! progenitor and typify alone, for `synth_check`.\n#![allow(warnings, clippy::all)]\n#[rustfmt::skip]\npub mod generated;\n",
        )?;
        write(&plain_dir.join("src/generated.rs"), &plain)?;
        let lock = crate::workspace_root().join("Cargo.lock");
        for dir in [&ours_dir, &plain_dir] {
            std::fs::copy(&lock, dir.join("Cargo.lock")).context("copying Cargo.lock")?;
        }
        let this = Self {
            ours: ours_dir,
            plain: plain_dir,
            target: scratch.join("target"),
        };
        // Builds the dependencies, and shows that both crates check at all.
        for dir in [&this.ours, &this.plain] {
            let started = Instant::now();
            this.check(dir)?;
            println!(
                "# synth_check: first check of {} (dependencies included) {}",
                dir.display(),
                millis(started.elapsed())
            );
        }
        Ok(this)
    }

    fn check(&self, dir: &Path) -> Result<()> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let output = Command::new(cargo)
            .args(["check", "--quiet", "--offline"])
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", &self.target)
            // Each check redoes the whole crate, as a clean build would: incremental reuse
            // after a touch would measure the cache, not the generated code.
            .env("CARGO_INCREMENTAL", "0")
            .output()
            .with_context(|| format!("running cargo check in {}", dir.display()))?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let head: String = stderr.lines().take(30).collect::<Vec<_>>().join("\n");
            bail!("cargo check failed in {}:\n{head}", dir.display());
        }
        Ok(())
    }
}

impl Comparison for CheckVsPlain {
    fn labels(&self) -> [&'static str; 2] {
        ["generated", "plain"]
    }

    fn bound(&self) -> Bound {
        Bound::AtMost(0.25)
    }

    /// Rewrites the generated file's modification time, so cargo checks the crate again.
    fn sample(&mut self, side: Side) -> Result<Duration> {
        let dir = match side {
            Side::Ours => &self.ours,
            Side::Baseline => &self.plain,
        };
        let file = std::fs::File::options()
            .append(true)
            .open(dir.join("src/generated.rs"))?;
        file.set_modified(std::time::SystemTime::now())?;
        drop(file);
        let started = Instant::now();
        self.check(dir)?;
        Ok(started.elapsed())
    }
}

fn scratch_dir() -> Result<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join("target"));
    let dir = target.join("synth-check");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

fn write(path: &Path, content: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    // Unchanged files keep their time, so a rerun does not check more than it measures.
    if std::fs::read_to_string(path).ok().as_deref() != Some(content) {
        std::fs::write(path, content).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// `synth_regen_scaling`: the 2x spec against the 1/4 spec.
pub struct RegenScaling {
    large: String,
    small: String,
}

impl RegenScaling {
    pub fn new() -> Result<Self> {
        let full = Options::default().operations;
        let sizes = [full / 4, full / 2, full, full * 2];
        let mut points = Vec::new();
        for operations in sizes {
            let (text, nodes, reduced) = usable(operations)?;
            let started = Instant::now();
            let generated = generate_ours(&text)?;
            let elapsed = started.elapsed();
            let lines = generated_rust(&generated)?.lines().count();
            points.push((operations, nodes, elapsed, lines, text, reduced));
        }
        for (operations, nodes, elapsed, lines, _, reduced) in &points {
            println!(
                "# synth_regen: {}, {operations} operations, {nodes} schema nodes, {lines} lines: {} ({:.1} µs per node)",
                which(*reduced),
                millis(*elapsed),
                elapsed.as_secs_f64() * 1e6 / *nodes as f64
            );
        }
        let (_, small_nodes, ..) = &points[0];
        let (_, large_nodes, ..) = &points[3];
        let growth = *large_nodes as f64 / *small_nodes as f64;
        ensure!(
            (6.0..=10.0).contains(&growth),
            "the 2x spec has {growth:.1} times the schema nodes of the 1/4 spec, not about 8"
        );
        let mut points = points.into_iter();
        let small = points.next().map(|point| point.4).unwrap_or_default();
        let large = points.last().map(|point| point.4).unwrap_or_default();
        Ok(Self { large, small })
    }
}

impl Comparison for RegenScaling {
    fn labels(&self) -> [&'static str; 2] {
        ["2x synthetic", "1/4 synthetic"]
    }

    /// 8 times the nodes; at most 10 times the time, as `regen_scaling`.
    fn bound(&self) -> Bound {
        Bound::AtMost(10.0)
    }

    fn sample(&mut self, side: Side) -> Result<Duration> {
        let text = match side {
            Side::Ours => &self.large,
            Side::Baseline => &self.small,
        };
        let started = Instant::now();
        std::hint::black_box(generate_ours(text)?);
        Ok(started.elapsed())
    }
}
