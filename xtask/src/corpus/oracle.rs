//! `cargo xtask corpus --oracle`: the differential oracle (`hub-api-oracle`) on each generated
//! corpus crate.
//!
//! For a document `<stem>`, generation also writes the document as normalize leaves it
//! (`xtask-regen generate --normalized`) into `<out>/<stem>-oracle/normalized.json`: OpenAPI
//! 3.1 semantics whatever the source's version (Swagger converted, `nullable` as type unions,
//! boolean exclusive bounds as numbers), with the component names the crate's `schemas`
//! registry uses. Beside it, [`write_harness`] writes a small binary crate that depends on the
//! generated crate and on the oracle by path; its `main` runs `hub_api_oracle::run` over every
//! component the registry knows against `schemas::decode`, prints every disagreement and ends
//! with one [`Summary`] line, which [`Summary::parse`] reads back for the table.
//!
//! The harnesses build into one target directory (dependencies once, the generated crate and
//! the harness per document), without incremental caches and without debug info, with the
//! dependencies (the validator, serde) optimised and the generated crate not: at OpenAI's
//! 100,000 lines, optimising it would cost more build time than it saves at run time.
//!
//! Nothing here fails the command: the figures are reported, and what kept the oracle from
//! running (a build error, a crash, the timeout) is the row's oracle status.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// The target directory of every harness build, beside the checks' (relative to the root).
pub const TARGET: &str = "target/corpus-oracle-target";
/// The random mutation chains per target, on top of the single mutations.
const RANDOM_PER_TARGET: usize = 10;
/// The single mutations per target: a large object's seeds have hundreds of nodes.
const MAX_SINGLES_PER_TARGET: usize = 300;
/// A run that takes this long is stuck (a decoder or the validator looping).
const RUN_TIMEOUT: Duration = Duration::from_secs(900);
/// The first line of the summary the harness prints last.
const SUMMARY_PREFIX: &str = "oracle-summary:";

/// The harness crate's folder for the crate generated into `crate_dir`.
pub fn harness_dir(crate_dir: &Path) -> PathBuf {
    let mut name = crate_dir.file_name().unwrap_or_default().to_os_string();
    name.push("-oracle");
    crate_dir.with_file_name(name)
}

/// Where generation writes the normalized document for the harness.
pub fn normalized_path(crate_dir: &Path) -> PathBuf {
    harness_dir(crate_dir).join("normalized.json")
}

/// What one document's oracle run gave, or why it gave nothing.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    Ran {
        summary: Summary,
        build_seconds: f64,
        run_seconds: f64,
    },
    /// The harness did not build, crashed or timed out: the first line of why.
    Failed {
        why: String,
        build_seconds: Option<f64>,
    },
}

/// The harness's last line, `oracle-summary: components=300 targets=290 instances=... ...`.
#[derive(Debug, Default, PartialEq)]
pub struct Summary {
    /// The document's component schemas.
    pub components: usize,
    /// The components checked: the registry knows them and they hold no multipart file.
    pub targets: usize,
    /// Components the generated registry does not know.
    pub missing: usize,
    /// Components that hold a multipart file (bytes, not JSON), not compared.
    pub files: usize,
    pub instances: usize,
    pub accepted: usize,
    pub disagreements: usize,
    /// Targets seeded by synthesis (no valid example), and of those, with no valid seed.
    pub synthesized: usize,
    pub unseeded: usize,
}

impl Summary {
    /// Reads the summary from the harness's output (its last line that is one); `None` when
    /// there is none or a figure is missing, so that a changed format is not read as zeros.
    pub fn parse(output: &str) -> Option<Self> {
        let line = output
            .lines()
            .rev()
            .find_map(|line| line.strip_prefix(SUMMARY_PREFIX))?;
        let mut figures = std::collections::BTreeMap::new();
        for pair in line.split_whitespace() {
            let (key, value) = pair.split_once('=')?;
            figures.insert(key, value.parse::<usize>().ok()?);
        }
        let figure = |key: &str| figures.get(key).copied();
        Some(Summary {
            components: figure("components")?,
            targets: figure("targets")?,
            missing: figure("missing")?,
            files: figure("files")?,
            instances: figure("instances")?,
            accepted: figure("accepted")?,
            disagreements: figure("disagreements")?,
            synthesized: figure("synthesized")?,
            unseeded: figure("unseeded")?,
        })
    }
}

/// Writes the harness crate for the generated crate `crate_name` in `crate_dir`, and the
/// workspace's `Cargo.lock`, so that the harness resolves to the versions the workspace (and
/// so the generated crate's pins and the oracle) is built and tested with.
pub fn write_harness(root: &Path, crate_dir: &Path, crate_name: &str) -> Result<PathBuf> {
    let dir = harness_dir(crate_dir);
    let src = dir.join("src");
    std::fs::create_dir_all(&src).with_context(|| format!("creating {}", src.display()))?;
    let stem = crate_dir
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let files = [
        (
            dir.join("Cargo.toml"),
            manifest(crate_name, &stem, &root.join("oracle")),
        ),
        (src.join("main.rs"), main_rs(&crate_name.replace('-', "_"))),
    ];
    for (path, text) in files {
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let lock = dir.join("Cargo.lock");
    std::fs::copy(root.join("Cargo.lock"), &lock)
        .with_context(|| format!("writing {}", lock.display()))?;
    Ok(dir)
}

/// The harness's manifest. Its own `[workspace]` keeps it out of any enclosing one (the default
/// output folder is inside this workspace).
fn manifest(crate_name: &str, stem: &str, oracle: &Path) -> String {
    let oracle = serde_json::Value::String(oracle.display().to_string());
    let generated = serde_json::Value::String(format!("../{stem}"));
    format!(
        "[package]\n\
         name = \"{crate_name}-oracle\"\n\
         version = \"0.1.0\"\n\
         description = \"The differential oracle on {crate_name}, written by `cargo xtask corpus --oracle`.\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         [workspace]\n\
         \n\
         [dependencies]\n\
         {crate_name} = {{ path = {generated} }}\n\
         hub-api-oracle = {{ path = {oracle} }}\n\
         serde_json = \"1\"\n\
         \n\
         # Built once to be run once: no debug info; the validator and serde optimised, the\n\
         # generated crate (up to 100,000 lines) not, as optimising it costs more than it saves.\n\
         [profile.dev]\n\
         debug = false\n\
         \n\
         [profile.dev.package.\"*\"]\n\
         opt-level = 1\n\
         \n\
         [profile.dev.package.{crate_name}]\n\
         opt-level = 0\n"
    )
}

/// The harness's `main`: the normalized document read through `unmark`, the registry's names
/// intersected with the components, every disagreement printed, then the summary line.
fn main_rs(crate_ident: &str) -> String {
    format!(
        r#"//! The differential oracle on `{crate_ident}`, written by `cargo xtask corpus --oracle`.
//! Usage: `<normalized.json> <random chains per target> <single mutations per target>`.

use std::collections::BTreeSet;

use {crate_ident}::schemas;
use hub_api_oracle::{{component_targets, reaches_mark, run, unmark, Config}};

fn main() {{
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, random, singles] = args.as_slice() else {{
        panic!("usage: <normalized.json> <random per target> <singles per target>");
    }};
    let text = std::fs::read_to_string(path).expect("reading the normalized document");
    let spec = unmark(&serde_json::from_str(&text).expect("the normalized document is JSON"));
    let registry: BTreeSet<&str> = schemas::NAMES.iter().copied().collect();
    let components = component_targets(&spec);
    let total = components.len();
    let (known, missing): (Vec<_>, Vec<_>) = components
        .into_iter()
        .partition(|target| registry.contains(target.name.as_str()));
    // A multipart file is bytes, not JSON: a schema holding one is not compared.
    let (files, targets): (Vec<_>, Vec<_>) = known
        .into_iter()
        .partition(|target| reaches_mark(&spec, &target.pointer, "x-form-file"));
    let config = Config {{
        random_per_target: random.parse().expect("a count"),
        max_singles_per_target: singles.parse().expect("a count"),
        ..Config::default()
    }};
    // A decoder that panics is a refusal worth reporting, not the end of the run.
    std::panic::set_hook(Box::new(|_| {{}}));
    let decode = |name: &str, json: &str| {{
        std::panic::catch_unwind(|| schemas::decode(name, json))
            .unwrap_or_else(|_| Some(Err(schemas::DecodeError {{
                path: String::new(),
                message: "the decoder panicked".to_owned(),
            }})))
            .map(|result| result.map_err(|error| error.to_string()))
    }};
    let report = run(&spec, &targets, &decode, &config);
    let missing: Vec<&str> = missing.iter().map(|target| target.name.as_str()).collect();
    println!("components not in the registry ({{}}): {{}}", missing.len(), missing.join(", "));
    let files: Vec<&str> = files.iter().map(|target| target.name.as_str()).collect();
    println!("components holding a multipart file, not compared ({{}}): {{}}", files.len(), files.join(", "));
    for disagreement in &report.disagreements {{
        println!("--- {{disagreement}}");
    }}
    println!("{{}}", report.summary(config.seed));
    println!(
        "{summary} components={{total}} targets={{}} missing={{}} files={{}} instances={{}} \
         accepted={{}} disagreements={{}} synthesized={{}} unseeded={{}}",
        report.targets,
        missing.len(),
        files.len(),
        report.checked,
        report.accepted,
        report.disagreements.len(),
        report.synthesized,
        report.unseeded,
    );
}}
"#,
        summary = SUMMARY_PREFIX
    )
}

/// Builds the harness in `dir` into `target` and runs it over `normalized`; its output goes to
/// `log`.
pub fn build_and_run(dir: &Path, target: &Path, normalized: &Path, log: &Path) -> Result<Outcome> {
    let started = Instant::now();
    let build = crate::cargo_command()
        .args(["build", "--message-format", "short"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        // Built once per run, like the checked crates: incremental caches would only fill disk.
        .env("CARGO_INCREMENTAL", "0")
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running cargo build in {}", dir.display()))?;
    let build_seconds = started.elapsed().as_secs_f64();
    let build_log = String::from_utf8_lossy(&build.stderr).into_owned();
    if !build.status.success() {
        super::write_log(log, "", &build_log)?;
        return Ok(Outcome::Failed {
            why: format!(
                "build failed: {}",
                super::first_error_line(&build_log, build.status)
            ),
            build_seconds: Some(build_seconds),
        });
    }
    let package = std::fs::read_to_string(dir.join("Cargo.toml"))
        .ok()
        .and_then(|manifest| {
            let line = manifest.lines().find(|line| line.starts_with("name = "))?;
            Some(
                line.trim_start_matches("name = ")
                    .trim_matches('"')
                    .to_owned(),
            )
        })
        .context("the harness manifest has no name")?;
    let binary = target.join("debug").join(&package);
    let mut command = Command::new(&binary);
    command.arg(normalized).args([
        RANDOM_PER_TARGET.to_string(),
        MAX_SINGLES_PER_TARGET.to_string(),
    ]);
    let finished = super::run_with_timeout(command, RUN_TIMEOUT)
        .with_context(|| format!("running {}", binary.display()))?;
    super::write_log(log, &finished.stdout, &finished.stderr)?;
    let run_seconds = finished.elapsed.as_secs_f64();
    let failed = |why: String| Outcome::Failed {
        why,
        build_seconds: Some(build_seconds),
    };
    Ok(match (finished.status, Summary::parse(&finished.stdout)) {
        (None, _) => failed(format!("timed out after {} s", RUN_TIMEOUT.as_secs())),
        (Some(status), Some(summary)) if status.success() => Outcome::Ran {
            summary,
            build_seconds,
            run_seconds,
        },
        (Some(status), _) => failed(format!(
            "crashed: {}",
            super::first_error_line(&finished.stderr, status)
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_read_from_the_last_summary_line() {
        let output = "\
--- X: generated type ACCEPTS, spec refuses (...)
oracle-summary: components=1 targets=1 missing=0 files=0 instances=1 accepted=1 disagreements=1 synthesized=0 unseeded=0
differential: ...
oracle-summary: components=300 targets=290 missing=8 files=2 instances=51234 accepted=9000 disagreements=17 synthesized=280 unseeded=3
";
        assert_eq!(
            Summary::parse(output),
            Some(Summary {
                components: 300,
                targets: 290,
                missing: 8,
                files: 2,
                instances: 51234,
                accepted: 9000,
                disagreements: 17,
                synthesized: 280,
                unseeded: 3,
            })
        );
        assert_eq!(Summary::parse("no summary\n"), None);
        assert_eq!(
            Summary::parse("oracle-summary: components=1 targets=x\n"),
            None
        );
        assert_eq!(Summary::parse("oracle-summary: components=1\n"), None);
    }

    #[test]
    fn the_harness_sits_beside_the_crate_and_names_it() {
        let crate_dir = Path::new("/out/openai");
        assert_eq!(harness_dir(crate_dir), Path::new("/out/openai-oracle"));
        assert_eq!(
            normalized_path(crate_dir),
            Path::new("/out/openai-oracle/normalized.json")
        );
        let manifest = manifest("corpus-openai", "openai", Path::new("/w/oracle"));
        assert!(manifest.contains("corpus-openai = { path = \"../openai\" }"));
        assert!(manifest.contains("hub-api-oracle = { path = \"/w/oracle\" }"));
        assert!(manifest.contains("\n[workspace]\n"));
        assert!(manifest.contains("[profile.dev.package.corpus-openai]\nopt-level = 0"));
        let main = main_rs("corpus_openai");
        assert!(main.contains("use corpus_openai::schemas;"));
        assert!(
            main.contains("\"oracle-summary: components={total} targets={} missing={} files={}")
        );
    }
}
