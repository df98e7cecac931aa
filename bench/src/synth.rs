//! Issue 14's scale figures, on the synthetic hub-shaped spec of `hub-api-synth` (320
//! operations, about 13,600 schema nodes, every construct of the whole hub's description):
//!
//! - `synth_lines`: lines of the crate `generate_crate` writes against the lines progenitor and
//!   typify emit alone (builder interface, `generate_plain`) from the same operations. Plain
//!   progenitor needs operation ids and refuses what 3.0 cannot say, so it is fed the document
//!   as codegen's `normalize` leaves it, the "hand-cleaned copy" of the issue.
//! - `synth_check`: `cargo check` of the two crates after a change to the generated file, with
//!   their dependencies already built (the same versions, one shared target directory). Ours
//!   is the crate as `generate_crate` writes it, so it carries the support code as its module
//!   `support` and its check includes it, as a user's would; it asks crates.io for nothing
//!   that is not there.
//! - `synth_regen_scaling`: `cargo xtask generate` (the `xtask-regen` binary, a fresh process
//!   per run) on the spec at 2 times the synthetic size against 1/4 of it (8 times the schema
//!   nodes); 1/2 and 1 times are printed alongside, so the growth can be seen to be linear.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use hub_api_codegen::{self as codegen, CrateOptions, FindingKind};
use hub_api_synth::Options;

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

/// Our crate, not strict: what cannot be generated is left out and reported.
fn generate_ours(spec_text: &str) -> Result<codegen::GeneratedCrate> {
    Ok(codegen::generate_crate(
        spec_text,
        SPEC_NAME,
        "synthetic-hub",
        &CrateOptions::default(),
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

/// Prints what our run repaired, did not enforce and left out.
fn print_report(generated: &codegen::GeneratedCrate) {
    println!(
        "# synth: generate_crate report: {}",
        codegen::report::summary(&generated.report)
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

/// `synth_lines`: ours against plain, in lines of Rust. Goal 0.25 (issue 14), stretch 0.12.
pub fn lines_vs_plain() -> Result<Figure> {
    let (text, nodes) = synthetic(Options::default().operations);
    let ours = generate_ours(&text).context("generate_crate on the synthetic spec")?;
    print_report(&ours);
    let ours_lines = generated_rust(&ours)?.lines().count();
    let plain_lines = generate_plain(&text)?.lines().count();
    println!(
        "# synth: synthetic spec ({nodes} schema nodes): ours {ours_lines} lines, plain {plain_lines} lines"
    );
    Ok(Figure {
        name: "synth_lines",
        value: ours_lines as f64 / plain_lines as f64,
        ours: format!("generated {ours_lines} lines, synthetic spec"),
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
        let (text, _) = synthetic(Options::default().operations);
        let ours = generate_ours(&text)?;
        let plain = generate_plain(&text)?;
        let scratch = scratch_dir("synth-check")?;
        let (ours_dir, plain_dir) = (scratch.join("ours"), scratch.join("plain"));
        for (path, content) in &ours.files {
            write(&ours_dir.join(path), content)?;
        }
        // The plain crate: the same manifest (the same dependencies) under another name, and a
        // lib.rs that only mounts the generated module, which names no support code.
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

/// `name` under the target directory.
pub(crate) fn scratch_dir(name: &str) -> Result<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::workspace_root().join("target"));
    let dir = target.join(name);
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

/// `synth_regen_scaling`: the 2x spec against the 1/4 spec, each run a fresh `xtask-regen
/// generate` process, as `cargo xtask generate` runs: its allocator and its memory policy are
/// part of what is measured, and no run inherits the heap another left behind.
pub struct RegenScaling {
    regen: PathBuf,
    large: PathBuf,
    small: PathBuf,
    out: PathBuf,
}

impl RegenScaling {
    pub fn new() -> Result<Self> {
        let regen = regen_binary()?;
        let scratch = scratch_dir("synth-regen")?;
        let out = scratch.join("out");
        let full = Options::default().operations;
        let sizes = [full / 4, full / 2, full, full * 2];
        let mut points = Vec::new();
        for operations in sizes {
            let (text, nodes) = synthetic(operations);
            let spec = scratch.join(format!("synthetic-{operations}.json"));
            write(&spec, &text)?;
            let elapsed = run_generate(&regen, &spec, &out)?;
            let generated = out.join("src/generated.rs");
            let lines = std::fs::read_to_string(&generated)
                .with_context(|| format!("reading {}", generated.display()))?
                .lines()
                .count();
            points.push((operations, nodes, elapsed, lines, spec));
        }
        for (operations, nodes, elapsed, lines, _) in &points {
            println!(
                "# synth_regen: {operations} operations, {nodes} schema nodes, {lines} lines: {} ({:.1} µs per node)",
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
        Ok(Self {
            regen,
            large,
            small,
            out,
        })
    }
}

/// `xtask-regen`, built beside this binary by `cargo xtask bench`.
pub(crate) fn regen_binary() -> Result<PathBuf> {
    let this = std::env::current_exe().context("locating the bench binary")?;
    let regen = this.with_file_name(format!("xtask-regen{}", std::env::consts::EXE_SUFFIX));
    ensure!(
        regen.is_file(),
        "{} is missing: run the bench through `cargo xtask bench`, which builds it",
        regen.display()
    );
    Ok(regen)
}

/// One `xtask-regen generate` run, timed from spawn to exit.
pub(crate) fn run_generate(regen: &Path, spec: &Path, out: &Path) -> Result<Duration> {
    let started = Instant::now();
    let output = Command::new(regen)
        .arg("generate")
        .arg("--spec")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args(["--crate-name", "synthetic-hub"])
        .output()
        .with_context(|| format!("running {}", regen.display()))?;
    let elapsed = started.elapsed();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let head: String = stderr.lines().take(30).collect::<Vec<_>>().join("\n");
        bail!(
            "{} generate failed on {}:\n{head}",
            regen.display(),
            spec.display()
        );
    }
    Ok(elapsed)
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
        let spec = match side {
            Side::Ours => &self.large,
            Side::Baseline => &self.small,
        };
        run_generate(&self.regen, spec, &self.out)
    }
}
