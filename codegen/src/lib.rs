//! `hub-api-codegen`: turns `spec/openapi.yaml` (OpenAPI 3.1) into the checked-in Rust client.
//!
//! [`generate`] is the one entry point: spec text in, files out, no I/O. Every step stands on
//! three modules: [`model`] (the document model: one walker over every schema location and
//! operation, `$ref` resolution, pointer escaping), [`rules`] (the [`rules::Rule`] enum, read
//! once per schema) and [`contract`] (what progenitor 0.15 and typify 0.8 keep, drop, name and
//! panic on). A step reports every problem it finds together ([`Error::Problems`]). The steps,
//! each its own module with its own tests:
//!
//! 1. [`load`]: YAML or JSON text to a JSON value, with the exact location of a parse error;
//!    then [`normalize`]: the repairs that make a real-world document generable, each reported;
//! 2. [`downlevel`]: OpenAPI 3.1 to the 3.0 that progenitor 0.15 and typify 0.8 accept, failing
//!    with a JSON pointer on anything 3.0 cannot express, and keeping where moved schemas came
//!    from so later messages name the source;
//! 3. [`patch`]: declarative patches, inferred from the schemas (and the spec's `x-rust-`
//!    decisions), that restore what the generators drop;
//! 4. [`contract::preflight`]: the checks that stand between the document and progenitor's panics;
//! 5. [`emit`]: progenitor and typify, then deterministic formatting with prettyplease.
//!
//! [`surface`] renders the public API of generated code as reviewable text for snapshots.
//! [`standalone`] runs the same steps on any document and writes a crate ([`generate_crate`]).

pub mod bundle;
pub mod cli;
pub mod contract;
pub mod downlevel;
pub mod emit;
mod error;
pub mod load;
pub mod model;
pub mod normalize;
pub mod patch;
pub mod report;
pub mod rules;
mod runtime;
pub mod standalone;
pub mod surface;
pub(crate) mod swagger2;

pub use error::{Error, panic_message};
pub use patch::{Action, Patch};
pub use report::{Finding, FindingKind};
pub use standalone::{CrateOptions, GeneratedCrate, generate_crate};

use serde_json::Value;

/// What to generate from and how.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The OpenAPI 3.1 document, YAML or JSON.
    pub spec_text: &'a str,
    /// The name the spec is known by in messages and in the generated header, such as
    /// `spec/openapi.yaml`. Never an absolute path: output must not depend on the machine.
    pub spec_name: &'a str,
    /// Patches beyond the ones inferred from the schemas (a schema named here is left to its
    /// patch). The hub spec needs none: its decisions are `x-rust-` extensions in the spec.
    pub patches: &'a [Patch],
    /// The Rust path at which the generated file is mounted, such as `crate::generated`.
    /// Patched types are referred to through it, so it must be absolute.
    pub module_path: &'a str,
}

/// Everything one generation produces.
#[derive(Clone, Debug)]
pub struct Output {
    /// The formatted Rust file, starting with the `@generated` header.
    pub rust: String,
    /// The patched OpenAPI 3.0 document that was handed to progenitor.
    pub downlevelled: Value,
    /// The public API surface of `rust`, for review.
    pub surface: String,
    /// The component schemas that hold secrets (`x-rust-secret`), which the CLI redacts.
    pub secrets: std::collections::BTreeSet<String>,
    /// How many items each rewrite of the generators' output rewrote, by rewrite (`emit`): a
    /// count that drops after an upgrade of progenitor or typify shows what stopped matching.
    pub rewritten: std::collections::BTreeMap<&'static str, usize>,
}

/// Runs every step. Deterministic: the same input gives byte-identical output on any machine.
pub fn generate(input: &Input<'_>) -> Result<Output, Error> {
    generate_with_transport(input, None)
}

/// [`generate`], with the generated `Client` carrying a value of the type at `transport` (a path
/// in the crate that mounts the file) and that crate implementing progenitor's `ClientHooks`
/// with it, so that it decides how every built request is executed.
fn generate_with_transport(input: &Input<'_>, transport: Option<&str>) -> Result<Output, Error> {
    standalone::pipeline(input, transport, emit::Interface::Builder, true, None)
        .map(|(output, _repairs)| output)
}

/// What progenitor and typify emit from the down-levelled spec alone: no patches, no coverage
/// check, no strict optional fields. Not a client anyone should use; it exists so benchmarks can
/// measure what faithfulness costs (`cargo xtask bench`, `validation_overhead`).
pub fn generate_plain(
    spec_text: &str,
    spec_name: &str,
    module_path: &str,
) -> Result<String, Error> {
    let document = load::load(spec_text, spec_name)?;
    let downlevelled = downlevel::downlevel(&document)?;
    contract::preflight::check(&downlevelled)?;
    let file = emit::emit(
        &downlevelled,
        &patch::Applied::default(),
        module_path,
        emit::Fidelity::Plain,
        emit::Interface::Builder,
        None,
    )?
    .file;
    Ok(emit::format(&file, &header(spec_name, spec_text)))
}

/// The document as the pipeline's normalize step leaves it, before down-levelling: loaded, a
/// Swagger 2.0 description converted, every repair applied, so OpenAPI 3.1 (JSON Schema
/// 2020-12) semantics with the components the generated `schemas` registry is named after. The
/// differential oracle validates against it; it carries normalize's marks (`x-any-of`,
/// `x-open-enum`, ...), which a reader must interpret (`model::mark`). Findings are dropped:
/// `generate_crate` reports them.
pub fn normalized_document(spec_text: &str, spec_name: &str) -> Result<Value, Error> {
    let mut document = load::load(spec_text, spec_name)?;
    if swagger2::is_swagger2(&document) {
        swagger2::convert(&mut document);
    }
    normalize::normalize(&mut document);
    Ok(document)
}

/// The first line of every generated file; `build.rs` of `hub-api` reads the hash back from it.
pub fn header(spec_name: &str, spec_text: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(spec_text.as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("// @generated by cargo xtask regen from {spec_name} (sha256 {hex}). Do not edit.\n")
}

/// Where the hub spec lives, relative to the workspace root.
pub const SPEC_PATH: &str = "spec/openapi.yaml";
/// Where its generated client lives, relative to the workspace root.
pub const CLIENT_PATH: &str = "generated-client/src/generated.rs";
/// The module path at which `generated-client/src/lib.rs` mounts the generated file.
pub const CLIENT_MODULE: &str = "crate::generated";

/// The type the hub client's generated `Client` carries to execute its requests. It is written
/// by hand in `generated-client/src/lib.rs`, which implements progenitor's `ClientHooks` with
/// it; `hub-api` plugs its redirect, size-limit and retry rules in through it.
pub const CLIENT_TRANSPORT: &str = "crate::Transport";

/// Generates the hub client from the text of `spec/openapi.yaml`; every patch is inferred.
pub fn generate_hub_client(spec_text: &str) -> Result<Output, Error> {
    generate_with_transport(
        &Input {
            spec_text,
            spec_name: SPEC_PATH,
            patches: &[],
            module_path: CLIENT_MODULE,
        },
        Some(CLIENT_TRANSPORT),
    )
}

/// `None` when `expected` and `actual` are equal, else a short unified diff (at most
/// `max_lines` lines) from `actual` (on disk) to `expected` (freshly generated).
pub fn short_diff(path: &str, actual: &str, expected: &str, max_lines: usize) -> Option<String> {
    if actual == expected {
        return None;
    }
    let diff = similar::TextDiff::from_lines(actual, expected);
    let full = diff
        .unified_diff()
        .context_radius(2)
        .header(
            &format!("{path} (checked in)"),
            &format!("{path} (regenerated)"),
        )
        .to_string();
    let total = full.lines().count();
    let mut short: String = full
        .lines()
        .take(max_lines)
        .map(|line| format!("{line}\n"))
        .collect();
    if total > max_lines {
        short.push_str(&format!("... ({} more diff lines)\n", total - max_lines));
    }
    Some(short)
}
