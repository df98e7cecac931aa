//! The review of a spec change: `cargo xtask diff --base REV` (the change report against a git
//! revision), the report `cargo xtask regen` prints against `HEAD`, and `cargo xtask review`,
//! the whole loop in one command (regen, the tests that pin the spec without stopping at the
//! first failing binary, the snapshot diffs through `cargo insta`, the change report).
//!
//! The report itself is `hub_api_codegen::changes`, run by `xtask-regen`; this module only reads
//! the base from git (`git show REV:spec/openapi.yaml` and the surface snapshot at that
//! revision) into the target directory and hands the files over.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::tools::Tools;

/// The spec, relative to the workspace root.
const SPEC: &str = "spec/openapi.yaml";
/// The accepted snapshot of the generated client's public API (`codegen/tests/hub_spec.rs`).
const SURFACE_SNAPSHOT: &str = "codegen/tests/snapshots/hub_spec__public_api_surface.snap";

/// The tests that pin the spec, by package: the checked-in client and its snapshots, the spec
/// change drill, the CLI table, the change report's table, the spec's own checks and the
/// differential test of the generated types against the spec's schemas. (The conformance test
/// needs the Prism mock and runs under `cargo xtask test`.)
const SPEC_TESTS: &[(&str, &[&str])] = &[
    (
        "hub-api-codegen",
        &["hub_spec", "spec_change", "cli", "changes"],
    ),
    ("hub-api", &["spec", "differential"]),
];

/// The base of a report, read from git into the target directory.
struct Base {
    spec: PathBuf,
    /// `None` when the revision has no surface snapshot (the report then generates it).
    surface: Option<PathBuf>,
}

/// The directory cargo builds into: `CARGO_TARGET_DIR` when set, else `target/`.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// Where the markdown report is written.
pub fn report_path(root: &Path) -> PathBuf {
    target_dir(root).join("change-report.md")
}

/// `git show REV:PATH`, or why not.
fn git_show(root: &Path, rev: &str, path: &str) -> Result<Vec<u8>> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["show", &format!("{rev}:{path}")])
        .output()
        .context("running git")?;
    if !output.status.success() {
        bail!(
            "git show {rev}:{path}: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(output.stdout)
}

/// Writes the spec and the surface snapshot of `rev` where `xtask-regen` reads them.
fn base(root: &Path, rev: &str) -> Result<Base> {
    let dir = target_dir(root).join("change-report");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let spec = dir.join("base-openapi.yaml");
    std::fs::write(&spec, git_show(root, rev, SPEC)?)
        .with_context(|| format!("writing {}", spec.display()))?;
    let surface = match git_show(root, rev, SURFACE_SNAPSHOT) {
        Ok(text) => {
            let path = dir.join("base-surface.txt");
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            Some(path)
        }
        Err(_) => None,
    };
    Ok(Base { spec, surface })
}

/// The `xtask-regen` arguments that make it report against `base`.
fn report_args(root: &Path, base: &Base) -> Vec<String> {
    let mut args = vec![
        "--old-spec".to_owned(),
        base.spec.to_string_lossy().into_owned(),
    ];
    if let Some(surface) = &base.surface {
        args.extend([
            "--old-surface".to_owned(),
            surface.to_string_lossy().into_owned(),
        ]);
    }
    args.extend([
        "--report".to_owned(),
        report_path(root).to_string_lossy().into_owned(),
    ]);
    args
}

/// The arguments `cargo xtask regen` adds so that it prints the change report against `HEAD`;
/// none (with a note) where git cannot give the base, since regen itself does not need it.
pub fn regen_report_args(root: &Path) -> Vec<String> {
    match base(root, "HEAD") {
        Ok(base) => report_args(root, &base),
        Err(error) => {
            eprintln!("regen: no change report ({error:#})");
            Vec::new()
        }
    }
}

/// The value of `--base REV` among `args` (the only argument these commands take).
fn base_rev<'a>(args: &'a [String], usage: &str, default: Option<&'a str>) -> Result<&'a str> {
    match args {
        [flag, rev] if flag == "--base" => Ok(rev),
        [] => default.with_context(|| usage.to_owned()),
        _ => bail!("{usage}"),
    }
}

/// `cargo xtask diff --base REV`.
pub fn diff(root: &Path, args: &[String]) -> Result<()> {
    let rev = base_rev(args, "usage: cargo xtask diff --base <git rev>", None)?;
    let started = std::time::Instant::now();
    let base = base(root, rev)?;
    let mut forwarded = vec!["changes".to_owned()];
    forwarded.extend(report_args(root, &base));
    crate::run_regen(root, &forwarded).context("change report")?;
    println!(
        "diff: reported against {rev} in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `cargo xtask review [--base REV]`: every step runs, and the command fails at the end if one
/// did, naming it.
pub fn review(root: &Path, args: &[String]) -> Result<()> {
    let rev = base_rev(
        args,
        "usage: cargo xtask review [--base <git rev>]",
        Some("HEAD"),
    )?;
    let started = std::time::Instant::now();
    let step = |number: usize, what: &str| {
        println!(
            "\nreview: step {number}/4 ({:.0} s): {what}",
            started.elapsed().as_secs_f64()
        );
    };
    let mut failed = Vec::new();

    step(1, "cargo xtask regen");
    crate::run_regen(root, &[])
        .context("regen (nothing else runs on a spec that does not generate)")?;

    step(
        2,
        "the tests that pin the spec (cargo test --no-fail-fast; a first build takes minutes)",
    );
    for (package, tests) in SPEC_TESTS {
        let mut cargo_args = vec!["test", "--no-fail-fast", "--package", package];
        for test in *tests {
            cargo_args.extend(["--test", test]);
        }
        if !crate::cargo_succeeds(root, &cargo_args)? {
            failed.push(format!("tests of {package} ({})", tests.join(", ")));
        }
    }

    step(3, "snapshot diffs (cargo insta)");
    let insta = Tools::new(root).ensure_cargo_insta(root)?;
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
    // `review` asks, snapshot by snapshot, in a terminal; elsewhere the pending ones are listed
    // (their diffs are in the failing tests' output above). The root is a package as well as
    // the workspace, so without `--workspace` cargo-insta would look at `hub-api` alone.
    let subcommand = if interactive {
        "review"
    } else {
        "pending-snapshots"
    };
    let status = insta_command(&insta)?
        .args(["insta", subcommand, "--workspace"])
        .current_dir(root)
        .status()
        .with_context(|| format!("running cargo insta {subcommand}"))?;
    if !status.success() {
        failed.push(format!("cargo insta {subcommand}"));
    }
    if !interactive {
        println!(
            "review: to accept or reject them one by one, run `cargo xtask review` in a terminal, \
             or `PATH=tools/cargo/bin:$PATH cargo insta review --workspace`"
        );
    }

    step(4, &format!("change report against {rev}"));
    let base = base(root, rev)?;
    let mut forwarded = vec!["changes".to_owned()];
    forwarded.extend(report_args(root, &base));
    if let Err(error) = crate::run_regen(root, &forwarded) {
        failed.push(format!("change report ({error:#})"));
    }

    let seconds = started.elapsed().as_secs_f64();
    if failed.is_empty() {
        println!("\nreview: every step passed in {seconds:.0} s");
        Ok(())
    } else {
        bail!(
            "review: {} step(s) failed in {seconds:.0} s (tests that compare snapshots pass once the new snapshots are accepted):\n  {}",
            failed.len(),
            failed.join("\n  ")
        )
    }
}

/// `cargo` with the pinned `cargo-insta` (at `binary`) first on `PATH`, so that `cargo insta`
/// runs it as cargo runs any subcommand.
fn insta_command(binary: &Path) -> Result<Command> {
    let bin = binary
        .parent()
        .context("cargo-insta's path has no folder")?;
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut command = crate::cargo_command();
    command.env("PATH", std::env::join_paths(paths).context("joining PATH")?);
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_is_given_by_flag_or_defaults_where_a_command_has_one() {
        let usage = "usage";
        let args = ["--base".to_owned(), "main".to_owned()];
        assert_eq!(base_rev(&args, usage, None).unwrap(), "main");
        assert_eq!(base_rev(&[], usage, Some("HEAD")).unwrap(), "HEAD");
        assert!(base_rev(&[], usage, None).is_err());
        assert!(base_rev(&["main".to_owned()], usage, Some("HEAD")).is_err());
    }
}
