//! `cargo xtask generate`: the whole pipeline on any OpenAPI 3.0 or 3.1 document, written as a
//! standalone crate that builds with no further step.
//!
//! `pipeline` is the one sequence of steps; `cargo xtask regen` runs it strictly with the hub's
//! patches (see [`crate::generate_hub_client`]) and [`generate_crate`] runs it on any document:
//! load, [`crate::normalize`], down-level, patch (reporting every rule no patch enforces),
//! preflight, emit. Outside strict mode, what still cannot be generated is left out and named in
//! the report: a schema 3.0 cannot express is read as any JSON value, an operation progenitor
//! would refuse is skipped. Every failing unit is found in one pass of unit checks, never by
//! running the pipeline again on parts of the document: preflight's refusals are removed in
//! place; the down-level's problems, the units the `openapiv3` reader refuses, the types emit
//! cannot rewrite and what [`probe`] finds progenitor refusing are all left out at once, and
//! the steps run again on what is left, at most [`MAX_ROUNDS`] times in all.
//!
//! A generated crate stands alone: it builds wherever it is moved and `cargo package` verifies
//! it. Its manifest asks crates.io only, with caret requirements at the versions this
//! workspace's `Cargo.lock` tests (`DEPENDENCIES`), so it joins a workspace that has newer
//! compatible releases. The support code its generated module calls (`hub-api-support`, not
//! yet published) travels with it as the module `src/support/`, the crate's own sources
//! without their tests (`SUPPORT_SOURCES`): a dependency by path into the checkout that wrote
//! the crate breaks once it moves, and one on sources written beside it (a path dependency
//! with a version) fails `cargo package`, which resolves it from crates.io; a module does
//! neither. The run generates inside `runtime::carrying_support`, so the code names
//! `crate::support` where the hub's client names `::hub_api_support`. HTTPS is the default
//! feature `rustls` (rustls on `ring`, installed by `Client::new`). The crate's root, README and
//! credentials come from [`crate::sdk`]: the client carries the `Credentials` of the
//! description's security schemes, and the README, the crate's documentation and doc tests,
//! shows a first program, bringing one's own `reqwest::Client` and a transport error's cause.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::bundle::Bundled;
use crate::contract::{preflight, probe};
use crate::report::{Finding, FindingKind};
use crate::{Error, Input, Output, downlevel, emit, load, normalize, patch, surface};

/// How [`generate_crate`] treats what it cannot generate faithfully.
#[derive(Clone, Copy, Debug, Default)]
pub struct CrateOptions {
    /// Fail (with every finding in the error) on a defect of the description, a rule the types
    /// do not enforce, or anything left out, instead of reporting it and generating the rest.
    pub strict: bool,
    /// Told of each step of a run as it starts (normalising, each round of generation, what a
    /// round left out, tracing an error to its operation), one line each, so that a caller can
    /// show progress on a long run. The library itself prints nothing.
    pub progress: Option<fn(&str)>,
}

/// A generated crate: its files and what generation repaired, left out or does not enforce.
#[derive(Clone, Debug)]
pub struct GeneratedCrate {
    /// Relative path (`Cargo.toml`, `src/lib.rs`, ...) to file text.
    pub files: BTreeMap<String, String>,
    /// Every finding of the run, in document order within each step.
    pub report: Vec<Finding>,
}

/// The dependencies of a generated crate, each at the least version the generated code is
/// built and tested against: the workspace's `Cargo.lock` (a test keeps them equal), with the
/// workspace's features. Caret requirements, so the crate joins a workspace that has a newer
/// compatible release. `rustls` is optional: the `rustls` feature (default) turns it on.
const DEPENDENCIES: &[(&str, &str)] = &[
    (
        "chrono",
        r#"{ version = "0.4.45", default-features = false, features = ["serde", "std", "clock"] }"#,
    ),
    (
        "indexmap",
        r#"{ version = "2.14.2", default-features = false, features = ["std", "serde"] }"#,
    ),
    ("progenitor-client", r#""0.15.1""#),
    ("http", r#""1.5.0""#),
    ("regress", r#""0.10.5""#),
    (
        "reqwest",
        r#"{ version = "0.13.5", default-features = false, features = ["json", "query"] }"#,
    ),
    (
        "rustls",
        r#"{ version = "0.23.46", default-features = false, features = ["ring", "std", "tls12"], optional = true }"#,
    ),
    ("serde", r#"{ version = "1.0.229", features = ["derive"] }"#),
    (
        "serde_json",
        r#"{ version = "1.0.154", features = ["preserve_order", "raw_value"] }"#,
    ),
    ("serde_path_to_error", r#""0.1.20""#),
];

/// A generated crate's dev-dependencies: the README's first program, a doc test, runs on tokio.
const DEV_DEPENDENCIES: &str = "[dev-dependencies]\n\
    # The README's first program (a doc test) runs on tokio.\n\
    tokio = { version = \"1.54.1\", features = [\"macros\", \"rt-multi-thread\"] }\n";

/// A generated crate's features: HTTPS by default, through rustls on the `ring` provider as
/// `hub-api` has it (aws-lc-rs, reqwest's own default, is heavy to build); without it the
/// crate builds no TLS stack, for an application that brings its own `reqwest::Client`.
const FEATURES: &str = "[features]\n\
    # HTTPS through rustls on the `ring` crypto provider, which `Client::new` installs unless the\n\
    # application installed one. Off, the crate builds no TLS stack: bring your own\n\
    # `reqwest::Client` (`Client::new_with_client`).\n\
    default = [\"rustls\"]\n\
    rustls = [\"reqwest/rustls-no-provider\", \"dep:rustls\"]\n";

/// The sources of the support crate (`support/src`), which every standalone crate carries as
/// its module `support` (see `carried_support`).
const SUPPORT_SOURCES: &[(&str, &str)] = &[
    (
        "credentials.rs",
        include_str!("../../support/src/credentials.rs"),
    ),
    ("decoding.rs", include_str!("../../support/src/decoding.rs")),
    ("enums.rs", include_str!("../../support/src/enums.rs")),
    ("formats.rs", include_str!("../../support/src/formats.rs")),
    ("items.rs", include_str!("../../support/src/items.rs")),
    ("json.rs", include_str!("../../support/src/json.rs")),
    ("lib.rs", include_str!("../../support/src/lib.rs")),
    ("numbers.rs", include_str!("../../support/src/numbers.rs")),
    ("objects.rs", include_str!("../../support/src/objects.rs")),
    ("pattern.rs", include_str!("../../support/src/pattern.rs")),
    ("registry.rs", include_str!("../../support/src/registry.rs")),
    ("reply.rs", include_str!("../../support/src/reply.rs")),
    ("servers.rs", include_str!("../../support/src/servers.rs")),
    ("strings.rs", include_str!("../../support/src/strings.rs")),
    ("suggest.rs", include_str!("../../support/src/suggest.rs")),
    ("tls.rs", include_str!("../../support/src/tls.rs")),
    ("unions.rs", include_str!("../../support/src/unions.rs")),
    ("webhooks.rs", include_str!("../../support/src/webhooks.rs")),
];

/// Where each support source's unit tests start: every file ends with its one test module,
/// which a test checks against the file's syntax tree.
const TESTS_START: &str = "\n#[cfg(test)]\nmod tests {";

/// Generates a standalone crate named `crate_name` from `spec_text` (OpenAPI 3.0 or 3.1, YAML
/// or JSON; `spec_name` names it in messages and in the header).
///
/// The files are `Cargo.toml` (caret dependencies and an empty `[workspace]` table, so the
/// crate never joins an enclosing workspace), `src/lib.rs`, `src/generated.rs`, the support
/// code as the module `src/support/` (see `carried_support`), `surface.txt` (the public API)
/// and `report.txt` (every finding, one per line).
pub fn generate_crate(
    spec_text: &str,
    spec_name: &str,
    crate_name: &str,
    options: &CrateOptions,
) -> Result<GeneratedCrate, Error> {
    check_crate_name(crate_name)?;
    let (output, report) = crate::runtime::carrying_support(|| {
        generate_module(spec_text, spec_name, "crate::generated", options)
    })?;
    Ok(crate_files(output, report, spec_name, crate_name))
}

/// [`generate_crate`] for a description split over files, bundled into one document by
/// [`crate::bundle::bundle`]: the bundler's findings lead the report, and the header hashes
/// the bundle's text (the root's own when nothing was bundled, so a single file generates
/// exactly as [`generate_crate`] does). `spec_name` names the root file.
pub fn generate_crate_from_bundle(
    bundled: Bundled,
    spec_name: &str,
    crate_name: &str,
    options: &CrateOptions,
) -> Result<GeneratedCrate, Error> {
    check_crate_name(crate_name)?;
    let Bundled {
        document,
        text,
        findings,
        ..
    } = bundled;
    let input = Input {
        spec_text: &text,
        spec_name,
        patches: &[],
        module_path: "crate::generated",
    };
    let (output, report) = crate::runtime::carrying_support(|| {
        pipeline_on(
            document,
            findings,
            &input,
            None,
            emit::Interface::Positional,
            options.strict,
            options.progress,
        )
    })?;
    Ok(crate_files(output, report, spec_name, crate_name))
}

fn check_crate_name(crate_name: &str) -> Result<(), Error> {
    if is_crate_name(crate_name) {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "`{crate_name}` is not a crate name (ASCII letters, digits, `-` and `_`, starting with a letter)"
        )))
    }
}

/// The files of the crate around the generated module: its root, README and credentials
/// (`sdk`), whose findings (a security scheme or server that cannot be used) join the report.
fn crate_files(
    output: Output,
    mut report: Vec<Finding>,
    spec_name: &str,
    crate_name: &str,
) -> GeneratedCrate {
    let root = crate::sdk::CrateRoot {
        crate_name,
        spec_name,
        document: &output.downlevelled,
        first_call: output.first_call.as_ref(),
        report: &report,
    };
    let (mut files, findings) = root.files();
    report.extend(findings);
    // The pipeline leaves `info.title` as written, so the spec is not loaded a second time.
    let title = output
        .downlevelled
        .pointer("/info/title")
        .and_then(Value::as_str)
        .unwrap_or(normalize::UNTITLED);
    files.insert("Cargo.toml".to_owned(), manifest(crate_name, title));
    files.insert("src/generated.rs".to_owned(), output.rust);
    files.extend(carried_support());
    files.insert("surface.txt".to_owned(), output.surface);
    files.insert("report.txt".to_owned(), render_report(&report));
    GeneratedCrate { files, report }
}

/// The generated module alone, mounted at `module_path` (such as `crate::generated`), with the
/// findings of the run, for a host that depends on the `hub-api-support` crate: what
/// [`generate_crate`] writes to `src/generated.rs`, except that there the support code is the
/// crate's own module (`crate::support`) and `Client::new` installs the TLS provider.
pub fn generate_module(
    spec_text: &str,
    spec_name: &str,
    module_path: &str,
    options: &CrateOptions,
) -> Result<(Output, Vec<Finding>), Error> {
    let input = Input {
        spec_text,
        spec_name,
        patches: &[],
        module_path,
    };
    pipeline(
        &input,
        None,
        emit::Interface::Positional,
        options.strict,
        options.progress,
    )
}

/// The report as text: a summary line, then one finding per line.
pub fn render_report(report: &[Finding]) -> String {
    let mut text = crate::report::summary(report);
    text.push('\n');
    for finding in report {
        text.push_str(&finding.to_string());
        text.push('\n');
    }
    text
}

/// A crate name made from any text, such as the folder a crate is written to, in the snake
/// case rustc asks of a crate (its `non_snake_case` lint): lower case, each run of characters a
/// crate name cannot hold (and of `-`, `_`) one `-`, none at the end, and a name that does not
/// start with a letter prefixed with `api-` (`2gis.ru` is `api-2gis-ru`, `Orders-API-(PII)` is
/// `orders-api-pii`).
pub fn crate_name_from(text: &str) -> String {
    let mut name = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    if is_crate_name(name) {
        name.to_owned()
    } else {
        format!("api-{}", name.trim_start_matches('-'))
    }
}

fn is_crate_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn manifest(crate_name: &str, title: &str) -> String {
    let description = format!("Client for {title}, generated by `cargo xtask generate`.");
    let mut text = format!(
        "[package]\nname = \"{crate_name}\"\nversion = \"0.1.0\"\ndescription = {}\nreadme = \"README.md\"\n# Generated code is emitted for the 2021 edition, the one progenitor and typify target.\nedition = \"2021\"\npublish = false\n\n# A crate of its own, even when written inside another workspace.\n[workspace]\n\n[dependencies]\n",
        toml_string(&description)
    );
    for (name, requirement) in DEPENDENCIES {
        text.push_str(&format!("{name} = {requirement}\n"));
    }
    text.push('\n');
    text.push_str(DEV_DEPENDENCIES);
    text.push('\n');
    text.push_str(FEATURES);
    text
}

/// The support code, as the files of the crate's module `support`: `hub-api-support`'s
/// sources, its `lib.rs` as `mod.rs`, each without its unit tests.
///
/// A standalone crate carries the support code rather than depending on `hub-api-support`
/// until that crate is published: a dependency by path into the checkout that wrote the crate
/// breaks once the crate moves, and one on sources written beside it (a path dependency with
/// a version) fails `cargo package`, which resolves it from crates.io. As a module, the crate
/// builds anywhere and packages as it is. The generated code names it `crate::support` (a run
/// inside [`crate::runtime::carrying_support`]); the hub's client, built beside the support
/// crate, names the crate. The tests stay out: they need the support crate's
/// dev-dependencies, and they are its own, not the generated crate's.
fn carried_support() -> impl Iterator<Item = (String, String)> {
    let folder = crate::runtime::CARRIED_MODULE;
    SUPPORT_SOURCES.iter().map(move |(file, source)| {
        let file = if *file == "lib.rs" { "mod.rs" } else { file };
        let mut text = without_tests(source).to_owned();
        if file == "mod.rs" {
            text.insert_str(
                0,
                "//! `hub-api-support`'s sources, carried by this crate until that crate is published\n//! (written by `cargo xtask generate`; its unit tests are left out).\n//!\n",
            );
        }
        (format!("src/{folder}/{file}"), text)
    })
}

/// A support source without its test module, which ends the file.
fn without_tests(source: &str) -> String {
    match source.find(TESTS_START) {
        Some(start) => format!("{}\n", source[..start].trim_end()),
        None => source.to_owned(),
    }
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// The pipeline shared by `regen` and `generate`: every step, with the findings of the run.
///
/// Strict, the first error stops it and any finding other than a repair is an error too (a
/// defect, a rule left unenforced); otherwise what cannot be generated is left out and reported.
pub(crate) fn pipeline(
    input: &Input<'_>,
    transport: Option<&str>,
    interface: emit::Interface,
    strict: bool,
    progress: Option<fn(&str)>,
) -> Result<(Output, Vec<Finding>), Error> {
    if let Some(progress) = progress {
        progress("reading the description");
    }
    let document = load::load(input.spec_text, input.spec_name)?;
    pipeline_on(
        document,
        Vec::new(),
        input,
        transport,
        interface,
        strict,
        progress,
    )
}

/// [`pipeline`] on a document already loaded (`input.spec_text` is what the header hashes);
/// `earlier` are the findings of what made it (the bundler's), which lead the report.
fn pipeline_on(
    mut document: Value,
    earlier: Vec<Finding>,
    input: &Input<'_>,
    transport: Option<&str>,
    interface: emit::Interface,
    strict: bool,
    progress: Option<fn(&str)>,
) -> Result<(Output, Vec<Finding>), Error> {
    let tell = |line: &str| {
        if let Some(progress) = progress {
            progress(line);
        }
    };
    tell("repairing (normalize)");
    // Swagger 2.0 is converted first; its findings name places in the Swagger document, and
    // later ones places in the converted one.
    let converted = if crate::swagger2::is_swagger2(&document) {
        crate::swagger2::convert(&mut document)
    } else {
        Vec::new()
    };
    let normalize::Normalized {
        mut findings,
        origins,
    } = normalize::normalize_with_origins(&mut document);
    findings.splice(0..0, earlier.into_iter().chain(converted));
    let repaired = findings.len();
    // A standalone crate's client carries the credentials its description's security schemes
    // take, which the crate's `src/auth.rs` (written by `sdk` from the same schemes) sends.
    let credentials = crate::runtime::carries_support()
        && transport.is_none()
        && crate::sdk::Access::read(&document).0.has_credentials();
    let transport = if credentials {
        Some(crate::sdk::CREDENTIALS_TYPE)
    } else {
        transport
    };
    for round in 1..=MAX_ROUNDS {
        tell(&format!("round {round}: generating"));
        let lenient = !strict;
        match attempt(&document, input, transport, interface, lenient, &tell) {
            Ok(Attempt {
                output,
                left_out,
                moved,
                unenforced,
                degraded,
            }) => {
                findings.extend(left_out);
                findings.extend(degraded);
                findings.extend(
                    moved
                        .iter()
                        .map(|moved| moved.finding(|p| normalize::source_pointer(&origins, p))),
                );
                findings.extend(unenforced.into_iter().map(|error| match error {
                    Error::Unenforced {
                        pointer,
                        owner,
                        rule,
                        ..
                    } => Finding::new(
                        FindingKind::Unenforced,
                        &pointer,
                        format!("{owner}: {rule} (typify drops it and no patch can be inferred)"),
                    ),
                    other => Finding::new(FindingKind::Unenforced, "", other.to_string()),
                }));
                // Later findings name places in moved schemas: name them in the source instead.
                for finding in &mut findings[repaired..] {
                    finding.pointer = normalize::source_pointer(&origins, &finding.pointer);
                }
                if strict {
                    let problems: Vec<&Finding> = findings
                        .iter()
                        .filter(|finding| finding.kind != FindingKind::Repaired)
                        .collect();
                    if !problems.is_empty() {
                        return Err(Error::Strict {
                            count: problems.len(),
                            report: problems.iter().map(|f| format!("\n  {f}")).collect(),
                        });
                    }
                }
                return Ok((output, findings));
            }
            Err(Setback::Fatal(error)) => return Err(error),
            Err(Setback::LeaveOut(units)) => {
                let before = findings.len();
                let mut progress = false;
                for unit in &units {
                    progress |= leave_out(&mut document, unit, &mut findings);
                }
                for finding in &findings[before..] {
                    let message: String = finding.message.chars().take(160).collect();
                    tell(&format!("round {round}: {} {message}", finding.pointer));
                }
                if !progress {
                    let reasons: Vec<String> = units
                        .iter()
                        .map(|unit| format!("{}: {}", unit.pointer, unit.reason))
                        .collect();
                    return Err(Error::Progenitor(format!(
                        "what failed is already left out or cannot be: {}",
                        reasons.join("; ")
                    )));
                }
            }
        }
    }
    Err(Error::Progenitor(format!(
        "generation did not settle in {MAX_ROUNDS} rounds of leaving out what failed"
    )))
}

/// The most rounds a run takes. Each failing round leaves out every unit its step found
/// failing, in one pass (the down-level's problems, the units the `openapiv3` reader or
/// progenitor refuse, the types emit cannot rewrite), so a round fails once per step at most.
const MAX_ROUNDS: usize = 6;

/// Why a round did not generate.
enum Setback {
    /// What to leave out before the next round, found unit by unit in one pass.
    LeaveOut(Vec<Unit>),
    /// A failure no unit can be left out for (or any failure, in a strict run).
    Fatal(Error),
}

/// A unit to leave out: its pointer in the source document and why.
struct Unit {
    pointer: String,
    reason: String,
}

impl Unit {
    fn new(pointer: &str, reason: impl ToString) -> Self {
        Self {
            pointer: pointer.to_owned(),
            reason: reason.to_string(),
        }
    }
}

/// The steps after normalisation, once. Outside a strict run (`lenient`), the operations
/// preflight refuses are left out of the down-levelled document in place, and a failure is
/// traced to the units that cause it: by its own pointer, by the schema of a type's name, or,
/// for progenitor's, by [`probe`].
fn attempt(
    document: &Value,
    input: &Input<'_>,
    transport: Option<&str>,
    interface: emit::Interface,
    lenient: bool,
    tell: &dyn Fn(&str),
) -> Result<Attempt, Setback> {
    tell("down-levelling to OpenAPI 3.0");
    let (mut downlevelled, provenance) =
        downlevel::downlevel_traced(document).map_err(|error| located(error, document, lenient))?;
    tell("inferring and applying patches");
    let (mut applied, unenforced) =
        patch::apply_reporting(&mut downlevelled, input.patches, &provenance)
            .map_err(|error| located(error, document, lenient))?;
    let moved = std::mem::take(&mut applied.repairs);
    let mut left_out = Vec::new();
    if lenient {
        for refusal in preflight::refusals(&downlevelled) {
            if remove_operation(&mut downlevelled, &refusal.pointer) {
                let what = match operation_of(&refusal.pointer) {
                    Some((_, method)) if method.is_empty() => "path",
                    _ => "operation",
                };
                left_out.push(Finding::new(
                    FindingKind::Skipped,
                    &provenance.source_pointer(&refusal.pointer),
                    format!("{what} left out: {}", refusal.error),
                ));
            }
        }
    } else {
        preflight::check(&downlevelled).map_err(Setback::Fatal)?;
    }
    if let Err(error) = crate::contract::run::read_openapi(&downlevelled) {
        let units = probe::unreadable_units(&downlevelled);
        return Err(if units.is_empty() {
            located(error, document, lenient)
        } else {
            traced(error, units, &provenance, lenient)
        });
    }
    tell("running progenitor and typify, then rewriting their output");
    let emitted = emit::emit(
        &downlevelled,
        &applied,
        input.module_path,
        emit::Fidelity::Faithful,
        interface,
        transport,
    );
    let emit::Emitted {
        file,
        degraded,
        rewritten,
    } = match emitted {
        Ok(emitted) => emitted,
        Err(error @ Error::Progenitor(_)) if lenient => {
            let settings = emit::generator_settings(
                &downlevelled,
                &applied,
                input.module_path,
                interface,
                transport,
            )
            .map_err(Setback::Fatal)?;
            tell("progenitor failed: generating each schema and operation alone to find where");
            let units = probe::refused_units(&downlevelled, &settings);
            return Err(traced(error, units, &provenance, lenient));
        }
        Err(error) => return Err(located(error, document, lenient)),
    };
    tell("formatting");
    let surface = surface::render(&file, &downlevelled, &applied.rules);
    // Only a standalone crate has a README whose first program calls an operation.
    let first_call = if crate::runtime::carries_support() {
        crate::sdk::first_call(&file, &downlevelled)
    } else {
        None
    };
    let rust = emit::format(&file, &crate::header(input.spec_name, input.spec_text));
    // What emit left as the generator wrote it is named in the source, like every finding.
    let degraded = degraded
        .into_iter()
        .map(|item| {
            let pointer = provenance.source_pointer(&item.pointer);
            Finding::new(FindingKind::Unenforced, &pointer, item.message)
        })
        .collect();
    Ok(Attempt {
        output: Output {
            rust,
            downlevelled,
            surface,
            secrets: applied.secrets,
            rewritten,
            first_call,
        },
        left_out,
        moved,
        unenforced,
        degraded,
    })
}

/// A round that generated: the output, and what it left out, moved, could not enforce or
/// left as the generator wrote it.
struct Attempt {
    output: Output,
    left_out: Vec<Finding>,
    moved: Vec<patch::Moved>,
    unenforced: Vec<Error>,
    degraded: Vec<Finding>,
}

/// `error`'s units (each problem's own place in the source `document`), or the error itself
/// when one of its problems names no place or the run is strict.
fn located(error: Error, document: &Value, lenient: bool) -> Setback {
    if !lenient {
        return Setback::Fatal(error);
    }
    let mut units = Vec::new();
    // Read once for every problem: a large document names tens of thousands of schemas.
    let mismatched = error
        .problems()
        .iter()
        .any(|problem| matches!(problem, Error::TypeMismatch { .. }));
    let names = if mismatched {
        crate::contract::type_names(document)
    } else {
        Vec::new()
    };
    for problem in error.problems() {
        let pointers = match problem {
            Error::Downlevel { pointer, .. }
            | Error::NotOpenApi30 { pointer, .. }
            | Error::Inline { pointer, .. } => vec![pointer.clone()],
            // A patch names its target by pointer when it is a place in the document (a
            // property named `_` gives no identifier), else by type name, which is no unit.
            Error::Patch { target, .. } if target.starts_with('/') => vec![target.clone()],
            Error::TypeMismatch { type_name, .. } => schemas_of_type(&names, type_name),
            _ => Vec::new(),
        };
        if pointers.is_empty() {
            return Setback::Fatal(error);
        }
        units.extend(pointers.iter().map(|pointer| Unit::new(pointer, problem)));
    }
    Setback::LeaveOut(units)
}

/// The units a unit check found (pointers in the down-levelled document), named in the
/// source; `error` itself when the check found none.
fn traced(
    error: Error,
    units: Vec<probe::Refused>,
    provenance: &downlevel::Provenance,
    lenient: bool,
) -> Setback {
    if units.is_empty() || !lenient {
        return Setback::Fatal(error);
    }
    Setback::LeaveOut(
        units
            .into_iter()
            .map(|unit| Unit::new(&provenance.source_pointer(&unit.pointer), unit.reason))
            .collect(),
    )
}

/// Removes the operation (or path item) at `pointer`; whether there was one.
fn remove_operation(document: &mut Value, pointer: &str) -> bool {
    let Some((path, method)) = operation_of(pointer) else {
        return false;
    };
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return false;
    };
    if method.is_empty() {
        return paths.remove(&path).is_some();
    }
    paths
        .get_mut(&path)
        .and_then(Value::as_object_mut)
        .and_then(|item| item.remove(&method))
        .is_some()
}

/// Leaves `unit` out of the source `document`: the innermost schema that holds it is read as
/// any JSON value (its description kept), or else the operation or path item that holds it
/// is removed. Whether anything was left out.
fn leave_out(document: &mut Value, unit: &Unit, findings: &mut Vec<Finding>) -> bool {
    let reason = &unit.reason;
    if let Some(schema) = enclosing_schema(document, &unit.pointer)
        && let Some(node) = document.pointer_mut(&schema)
    {
        if node.as_object().is_some_and(is_any_value) {
            return false;
        }
        let description = node.get("description").cloned();
        *node = json!({});
        if let Some(description) = description {
            node["description"] = description;
        }
        findings.push(Finding::new(
            FindingKind::Skipped,
            &schema,
            format!("read as any JSON value: {reason}"),
        ));
        return true;
    }
    let Some((path, method)) = operation_of(&unit.pointer) else {
        return false;
    };
    let push = crate::model::push;
    let operation = push(&push("/paths", &path), &method);
    if !method.is_empty() && remove_operation(document, &operation) {
        findings.push(Finding::new(
            FindingKind::Skipped,
            &operation,
            format!("operation left out: {reason}"),
        ));
        return true;
    }
    let item = push("/paths", &path);
    if remove_operation(document, &item) {
        findings.push(Finding::new(
            FindingKind::Skipped,
            &item,
            format!("path left out: {reason}"),
        ));
        return true;
    }
    false
}

/// The schemas whose generated type is named `type_name` (typify's naming, as
/// [`crate::contract::type_names`] reads it): every such schema that is not a component root
/// (an inline schema read as any JSON value gets no type of its own, so the name is freed even
/// when it was defined twice), or else the first component. Only a schema that is not already
/// any JSON value qualifies, so that the rounds always make progress.
fn schemas_of_type(names: &[(String, crate::model::SchemaAt<'_>)], type_name: &str) -> Vec<String> {
    let named: Vec<&crate::model::SchemaAt<'_>> = names
        .iter()
        .filter(|(name, at)| {
            (name == type_name || name.strip_suffix("Inner") == Some(type_name))
                && at
                    .schema
                    .as_object()
                    .is_some_and(|schema| !is_any_value(schema))
        })
        .map(|(_, at)| at)
        .collect();
    let is_component = |at: &&crate::model::SchemaAt<'_>| {
        at.depth == 0 && matches!(at.owner, crate::model::Owner::Schema(_))
    };
    let inline: Vec<String> = named
        .iter()
        .filter(|at| !is_component(at))
        .map(|at| at.pointer.clone())
        .collect();
    if inline.is_empty() {
        named
            .first()
            .map(|at| at.pointer.clone())
            .into_iter()
            .collect()
    } else {
        inline
    }
}

/// Whether a schema admits any JSON value: nothing but annotations.
fn is_any_value(schema: &serde_json::Map<String, Value>) -> bool {
    schema.keys().all(|key| key == "description")
}

/// The innermost schema location (from [`crate::model::schema_locations`] or below it,
/// ending at a subschema) that contains `pointer`.
fn enclosing_schema(document: &Value, pointer: &str) -> Option<String> {
    let roots = crate::model::schema_locations(document);
    let root = roots
        .iter()
        .filter(|root| pointer == root.as_str() || pointer.starts_with(&format!("{root}/")))
        .max_by_key(|root| root.len())?;
    // Walk down from the root to the deepest subschema that still holds the pointer.
    let tokens: Vec<&str> = pointer[root.len()..]
        .split('/')
        .filter(|t| !t.is_empty())
        .collect();
    let mut deepest = root.clone();
    let mut current = root.clone();
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index];
        let step = match token {
            "items" | "additionalProperties" | "not" | "propertyNames" => 1,
            "properties" | "allOf" | "anyOf" | "oneOf" | "prefixItems"
                if index + 1 < tokens.len() =>
            {
                2
            }
            _ => break,
        };
        current = format!("{current}/{}", tokens[index..index + step].join("/"));
        // Every step is a schema position, so whatever stands there (a mapping or not) is the
        // schema to replace.
        if document.pointer(&current).is_some() {
            deepest = current.clone();
        }
        index += step;
    }
    Some(deepest)
}

/// `/paths/<path>/<method>...` to the unescaped path and method.
fn operation_of(pointer: &str) -> Option<(String, String)> {
    let mut tokens = pointer.strip_prefix("/paths/")?.split('/');
    let unescape = |token: &str| token.replace("~1", "/").replace("~0", "~");
    let path = unescape(tokens.next()?);
    let method = tokens.next().map(unescape).unwrap_or_default();
    Some((path, method))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_are_the_workspace_lock_s_versions_as_carets() {
        let lock =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock")).unwrap();
        for (name, requirement) in DEPENDENCIES {
            // `"1.2.3"` or `{ version = "1.2.3", ... }`: the first quoted text is the version.
            let version = requirement.split('"').nth(1).unwrap();
            assert!(
                version.starts_with(|c: char| c.is_ascii_digit()),
                "{name}: a caret requirement, not `{version}`"
            );
            let entry = format!("name = \"{name}\"\nversion = \"{version}\"\n");
            assert!(
                lock.contains(&entry),
                "{name} {version} is not in Cargo.lock"
            );
        }
    }

    #[test]
    fn the_manifest_asks_the_registry_for_nothing_but_published_crates() {
        let spec = r#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}}"#;
        let generated = generate_crate(spec, "t.json", "t", &CrateOptions::default()).unwrap();
        let manifest = &generated.files["Cargo.toml"];
        assert!(!manifest.contains("hub-api-support"), "{manifest}");
        assert!(!manifest.contains("path ="), "{manifest}");
        assert!(!manifest.contains("\"="), "no exact versions: {manifest}");
        assert!(
            manifest.ends_with(
                "[features]\n\
                 # HTTPS through rustls on the `ring` crypto provider, which `Client::new` installs unless the\n\
                 # application installed one. Off, the crate builds no TLS stack: bring your own\n\
                 # `reqwest::Client` (`Client::new_with_client`).\n\
                 default = [\"rustls\"]\n\
                 rustls = [\"reqwest/rustls-no-provider\", \"dep:rustls\"]\n"
            ),
            "{manifest}"
        );
    }

    #[test]
    fn the_crate_carries_the_support_code_and_names_it_as_its_module() {
        let spec = r#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {
            "/a": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json":
                {"schema": {"type": "string", "pattern": "^[a-z]+$"}}}}}}}}}"#;
        let generated = generate_crate(spec, "t.json", "my-api", &CrateOptions::default()).unwrap();
        for (file, _) in SUPPORT_SOURCES {
            let file = if *file == "lib.rs" { "mod.rs" } else { file };
            let text = &generated.files[&format!("src/support/{file}")];
            assert!(text.starts_with("//!"), "{file}");
            assert!(!text.contains("#[cfg(test)]"), "{file} keeps its tests");
            syn::parse_file(text).unwrap_or_else(|error| panic!("{file}: {error}"));
        }
        assert!(
            generated.files["src/support/mod.rs"].starts_with("//! `hub-api-support`'s sources")
        );
        let rust = &generated.files["src/generated.rs"];
        assert!(!rust.contains("hub_api_support"));
        assert!(
            rust.contains("crate::support::Pattern"),
            "the pattern's support"
        );
        assert!(rust.contains("crate::support::tls::client_builder()"));
        let lib = &generated.files["src/lib.rs"];
        assert!(lib.contains("\nmod support;\n"));
        assert!(lib.contains("#![doc = include_str!(\"../README.md\")]"));
        assert!(generated.files["README.md"].contains("my_api::Client::new_with_client("));
        syn::parse_file(lib).unwrap();
        // A module generated alone is for a host that depends on the support crate.
        let (output, _) =
            generate_module(spec, "t.json", "crate::generated", &CrateOptions::default()).unwrap();
        assert!(output.rust.contains("::hub_api_support::Pattern"));
        assert!(!output.rust.contains("client_builder"));
    }

    #[test]
    fn every_support_source_is_carried_and_ends_with_its_tests() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../support/src");
        let mut on_disk: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let carried: Vec<&str> = SUPPORT_SOURCES.iter().map(|(file, _)| *file).collect();
        assert_eq!(on_disk, carried, "support/src and SUPPORT_SOURCES differ");
        for (file, source) in SUPPORT_SOURCES {
            let head = without_tests(source);
            // What is cut is exactly the test module, the file's last item.
            let whole = syn::parse_file(source).unwrap();
            let kept = syn::parse_file(&head).unwrap();
            if let Some(start) = source.find(TESTS_START) {
                let cut = syn::parse_file(&source[start..]).unwrap();
                assert!(
                    matches!(cut.items.as_slice(), [syn::Item::Mod(module)] if module.ident == "tests"),
                    "{file}: more than the test module follows it"
                );
                assert_eq!(kept.items.len() + 1, whole.items.len(), "{file}");
            }
            // Carried as a module, `crate` is the carrying crate. A macro names another by
            // `$crate::`, the crate root where `#[macro_export]` puts them either way.
            assert!(
                !head.replace("$crate::", "").contains("crate::"),
                "{file} names its own crate as `crate::`"
            );
            assert!(!head.contains("CARGO_PKG"), "{file} reads its own manifest");
        }
    }

    #[test]
    fn any_folder_name_makes_a_crate_name() {
        for (folder, name) in [
            ("client", "client"),
            ("api.example.com", "api-example-com"),
            ("2gis.ru", "api-2gis-ru"),
            ("_x", "api-x"),
            ("", "api-"),
            ("ünï", "api-n"),
            ("Orders-API-(PII-version)", "orders-api-pii-version"),
            (
                "amadeus-airport-&-city-search",
                "amadeus-airport-city-search",
            ),
        ] {
            let made = crate_name_from(folder);
            assert_eq!(made, name);
            assert!(is_crate_name(&made) || folder.is_empty(), "{made}");
        }
    }

    #[test]
    fn the_crate_is_described_by_the_spec_s_title() {
        let spec =
            r#"{"openapi": "3.1.0", "info": {"title": "The Hub", "version": "1"}, "paths": {}}"#;
        let generated = generate_crate(spec, "t.json", "t", &CrateOptions::default()).unwrap();
        assert!(
            generated.files["Cargo.toml"].contains("Client for The Hub,"),
            "{}",
            generated.files["Cargo.toml"]
        );
        let readme = &generated.files["README.md"];
        assert!(
            readme.starts_with("# t\n\nA Rust client for The Hub (API version 1),"),
            "{readme}"
        );
        let untitled = r#"{"openapi": "3.1.0", "info": {"version": "1"}, "paths": {}}"#;
        let generated = generate_crate(untitled, "t.json", "t", &CrateOptions::default()).unwrap();
        assert!(
            generated.files["README.md"].contains("A Rust client for the API (API version 1),")
        );
        assert!(
            generated
                .report
                .iter()
                .any(|f| f.kind == FindingKind::Defect && f.pointer == "/info/title"),
            "a missing title is reported: {:?}",
            generated.report
        );
        let strict = generate_crate(
            untitled,
            "t.json",
            "t",
            &CrateOptions {
                strict: true,
                ..CrateOptions::default()
            },
        );
        assert!(strict.is_err(), "and refused under --strict");
    }

    #[test]
    fn an_inferred_patch_that_does_not_fit_is_reported_not_fatal() {
        // A map patch checks keys by pattern and lengths only; a key `format` does not fit it.
        let spec = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"S": {"type": "object",
                "propertyNames": {"format": "email"}, "additionalProperties": {"type": "string"}}}}}"#;
        let generated = generate_crate(spec, "t.json", "t", &CrateOptions::default()).unwrap();
        assert!(
            generated
                .report
                .iter()
                .any(|f| f.kind == FindingKind::Unenforced
                    && f.pointer == "/components/schemas/S"
                    && f.message.contains("does not fit")),
            "{:?}",
            generated.report
        );
        assert!(generated.files["src/generated.rs"].contains("pub struct S"));
        let strict = generate_crate(
            spec,
            "t.json",
            "t",
            &CrateOptions {
                strict: true,
                ..CrateOptions::default()
            },
        );
        assert!(strict.is_err());
    }

    #[test]
    fn what_progenitor_refuses_without_a_place_is_found_and_degraded_where_it_sits() {
        // A `default` whose property the referenced object's enum refuses: the repairs check a
        // default against the keywords of its schema (and of the one it references), not the
        // subschemas, so typify meets it and says `value does not conform` with no place; the
        // probe finds the schema.
        let spec = r##"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {
            "/a": {"get": {"responses": {"200": {"description": "ok"}}}},
            "/b": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                "type": "object", "properties": {"paint": {
                    "$ref": "#/components/schemas/Paint", "default": {"colour": "plaid"}}}}}}}}}}},
            "components": {"schemas": {
                "Paint": {"type": "object", "properties": {"colour": {"$ref": "#/components/schemas/Colour"}}},
                "Colour": {"type": "string", "enum": ["red", "blue"]}}}}"##;
        let generated = generate_crate(spec, "t.json", "t", &CrateOptions::default()).unwrap();
        let skipped: Vec<&Finding> = generated
            .report
            .iter()
            .filter(|f| f.kind == FindingKind::Skipped)
            .collect();
        assert_eq!(skipped.len(), 1, "{:?}", generated.report);
        assert_eq!(
            skipped[0].pointer,
            "/paths/~1b/get/responses/200/content/application~1json/schema"
        );
        assert!(
            skipped[0].message.contains("read as any JSON value"),
            "{skipped:?}"
        );
        assert!(generated.files["src/generated.rs"].contains("get_b"));
        assert!(generated.files["src/generated.rs"].contains("get_a"));
        let strict = generate_crate(
            spec,
            "t.json",
            "t",
            &CrateOptions {
                strict: true,
                ..CrateOptions::default()
            },
        );
        assert!(strict.is_err());
    }

    #[test]
    fn a_schema_three_zero_cannot_express_is_read_as_any_value() {
        let spec = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"S": {"type": "object", "properties": {
                "c": {"if": {"type": "string"}, "then": {"minLength": 1}}}}}}}"#;
        let generated = generate_crate(spec, "t.json", "t", &CrateOptions::default()).unwrap();
        assert!(
            generated
                .report
                .iter()
                .any(|f| f.kind == FindingKind::Skipped
                    && f.pointer == "/components/schemas/S/properties/c"),
            "{:?}",
            generated.report
        );
    }

    thread_local! {
        static PROGENITOR_RUNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    fn count_progenitor_runs(line: &str) {
        if line.starts_with("running progenitor") {
            PROGENITOR_RUNS.with(|runs| runs.set(runs.get() + 1));
        }
    }

    #[test]
    fn what_progenitor_refuses_without_a_place_is_found_unit_by_unit_in_one_pass() {
        // A default whose property is not one of the named enum's values: normalize does not
        // see it, and typify's error names no schema.
        let bad = r##"{"type": "object", "properties": {"category": {"$ref": "#/components/schemas/Filed", "default": {"category": "Case"}}}}"##;
        let json_body = |schema: &str| format!(r#"{{"application/json": {{"schema": {schema}}}}}"#);
        let reply = |schema: &str| {
            format!(
                r#"{{"200": {{"description": "ok", "content": {}}}}}"#,
                json_body(schema)
            )
        };
        let spec = format!(
            r##"{{"openapi": "3.1.0", "info": {{"title": "t", "version": "1"}},
            "paths": {{
                "/counts": {{"post": {{"operationId": "postCount",
                    "requestBody": {{"content": {body}}}, "responses": {{"204": {{"description": "ok"}}}}}}}},
                "/goods": {{"get": {{"operationId": "getGood", "responses": {good}}}}},
                "/holders": {{"get": {{"operationId": "getHolder", "responses": {holder}}}}}
            }},
            "components": {{"schemas": {{
                "Bad": {bad},
                "Good": {{"type": "string"}},
                "Category": {{"type": "string", "enum": ["Project", "File"]}},
                "Filed": {{"type": "object", "properties": {{"category": {{"$ref": "#/components/schemas/Category"}}}}}},
                "Holder": {{"type": "object", "properties": {{"bad": {{"$ref": "#/components/schemas/Bad"}}}}}}
            }}}}}}"##,
            body = json_body(bad),
            good = reply(r##"{"$ref": "#/components/schemas/Good"}"##),
            holder = reply(r##"{"$ref": "#/components/schemas/Holder"}"##),
        );
        PROGENITOR_RUNS.with(|runs| runs.set(0));
        let options = CrateOptions {
            progress: Some(count_progenitor_runs),
            ..CrateOptions::default()
        };
        let generated = generate_crate(&spec, "t.json", "t", &options).unwrap();
        let skipped: Vec<(&str, &str)> = generated
            .report
            .iter()
            .filter(|f| f.kind == FindingKind::Skipped)
            .map(|f| (f.pointer.as_str(), f.message.as_str()))
            .collect();
        assert_eq!(
            skipped
                .iter()
                .map(|(pointer, _)| *pointer)
                .collect::<Vec<_>>(),
            // The body is a component once hoisted, so it is read as any value, and the
            // operation stays.
            [
                "/components/schemas/Bad",
                "/paths/~1counts/post/requestBody/content/application~1json/schema"
            ],
            "{:?}",
            generated.report
        );
        assert!(
            skipped
                .iter()
                .all(|(_, message)| message.contains("progenitor: "))
        );
        let rust = &generated.files["src/generated.rs"];
        assert!(
            ["fn get_good", "fn get_holder", "fn post_count"]
                .iter()
                .all(|method| rust.contains(method))
        );
        assert!(rust.contains("pub struct Holder"));
        // Once on the whole document, once on what passed: never again per suspect.
        assert_eq!(PROGENITOR_RUNS.with(std::cell::Cell::get), 2);
    }

    #[test]
    fn a_patch_on_a_place_without_a_name_leaves_out_that_place_only() {
        // `uniqueItems` needs a patch, whose type is named after the property; `_` gives no
        // name (typify would say `X`), so that one property is read as any value.
        let spec = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"Suggest": {"type": "object", "required": ["_"], "properties": {
                "_": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
                "words": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}}}}}}"#;
        let generated = generate_crate(spec, "t.json", "t", &CrateOptions::default()).unwrap();
        let skipped: Vec<&str> = generated
            .report
            .iter()
            .filter(|f| f.kind == FindingKind::Skipped)
            .map(|f| f.pointer.as_str())
            .collect();
        assert_eq!(
            skipped,
            ["/components/schemas/Suggest/properties/_"],
            "{:?}",
            generated.report
        );
        assert!(generated.files["src/generated.rs"].contains("pub struct Suggest"));
    }
}
