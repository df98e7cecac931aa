//! `cargo xtask`: the maintainer's entry point. Argument parsing over `hub-api-codegen` and the
//! test tools; every real decision lives in the library crates so it can be tested there.

mod conformance;
mod spec_checks;
mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use hub_api_codegen as codegen;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  regen [--check]                      regenerate generated-client/ from spec/openapi.yaml;
                                       with --check, write nothing and fail if it is stale
  validate --schema <Name> [--jsonl] <FILE>...
                                       decode instances into the generated type of a component schema
  test                                 everything CI runs: spec checks, regen --check, workspace
                                       tests, conformance against the Prism mock
  bench                                the ratio benchmarks (see BENCHMARKS.md)
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
    match command {
        "regen" => regen(&root, rest),
        "test" => test(&root, rest),
        "validate" => validate(&root, rest),
        "bench" => bench(&root, rest),
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

fn regen(root: &Path, args: &[String]) -> Result<()> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask regen [--check]"),
    };
    let spec_text = std::fs::read_to_string(root.join(codegen::SPEC_PATH))
        .with_context(|| format!("reading {}", codegen::SPEC_PATH))?;
    let output = codegen::generate_hub_client(&spec_text)?;
    let client_path = root.join(codegen::CLIENT_PATH);
    let on_disk = std::fs::read_to_string(&client_path).unwrap_or_default();
    match codegen::short_diff(codegen::CLIENT_PATH, &on_disk, &output.rust, 40) {
        None => println!("regen: {} is up to date", codegen::CLIENT_PATH),
        Some(diff) if check => {
            bail!(
                "{diff}{} is stale: run `cargo xtask regen`",
                codegen::CLIENT_PATH
            )
        }
        Some(_) => {
            std::fs::write(&client_path, &output.rust)
                .with_context(|| format!("writing {}", codegen::CLIENT_PATH))?;
            println!("regen: wrote {}", codegen::CLIENT_PATH);
        }
    }
    Ok(())
}

/// Runs the `hub-api-validate` binary, which links the generated client. xtask itself must not:
/// `regen` has to build even when the checked-in client does not.
fn validate(root: &Path, args: &[String]) -> Result<()> {
    let mut cargo_args = vec![
        "run",
        "--quiet",
        "--package",
        "hub-api",
        "--bin",
        "hub-api-validate",
        "--",
    ];
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
    let mut cargo_args = vec!["run", "--release", "--package", "hub-api-bench", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    cargo(root, &cargo_args).context("benchmarks: see BENCHMARKS.md")
}

fn test(root: &Path, args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("usage: cargo xtask test");
    }
    spec_checks::run(root).context("spec checks")?;
    regen(root, &["--check".to_owned()])?;
    cargo(
        root,
        &["test", "--workspace", "--all-targets", "--all-features"],
    )?;
    conformance::run(root).context("conformance against the Prism mock")?;
    // `--all-targets` leaves out doc tests; the usage examples in the docs must compile too.
    cargo(root, &["test", "--workspace", "--all-features", "--doc"])?;
    // The documentation of the two published crates builds without a warning (no broken link).
    for package in ["hub-api-client", "hub-api"] {
        let args = ["rustdoc", "-p", package, "--lib", "--all-features"];
        cargo(root, &[&args[..], &["--", "-D", "warnings"]].concat())?;
    }
    println!("xtask test: all steps passed");
    Ok(())
}

/// The cargo that runs xtask (`CARGO`), so every step uses one toolchain.
pub(crate) fn cargo_command() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs cargo in the workspace root; under CI insta must never write snapshots.
fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    let mut command = cargo_command();
    command.args(args).current_dir(root);
    if std::env::var_os("CI").is_some() {
        command.env("INSTA_UPDATE", "no");
    }
    let status = command
        .status()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("cargo {} failed ({status})", args.join(" "));
    }
    Ok(())
}
