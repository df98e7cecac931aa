//! `cargo xtask generate` end to end: the binary writes a standalone crate from a fixture spec,
//! and that crate type-checks offline against the workspace's locked dependencies (its
//! `Cargo.lock` is the workspace's, which cargo trims to what it uses). The check shares the
//! workspace's target directory, so the dependencies are already built.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

/// A fresh directory for one test under cargo's per-target temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("generate-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn generate(spec: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask-regen"))
        .arg("generate")
        .arg("--spec")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn fixture(name: &str) -> PathBuf {
    workspace_root().join(format!("codegen/tests/fixtures/{name}.yaml"))
}

#[test]
fn generated_crate_checks_offline() {
    let out = scratch("crate").join("commit-client");
    let output = generate(&fixture("normalize_success_bodies"), &out, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for file in [
        "Cargo.toml",
        "src/lib.rs",
        "src/generated.rs",
        "surface.txt",
        "report.txt",
    ] {
        assert!(out.join(file).is_file(), "{file} was not written");
    }
    let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"commit-client\""), "{manifest}");
    assert!(manifest.contains("\n[workspace]\n"), "{manifest}");
    let report = std::fs::read_to_string(out.join("report.txt")).unwrap();
    assert!(report.contains("`PostRepoCommitSuccess`"), "{report}");

    std::fs::copy(workspace_root().join("Cargo.lock"), out.join("Cargo.lock")).unwrap();
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"));
    let check = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["check", "--offline", "--quiet"])
        // The workspace builds its dependencies at opt-level 1; the same profile reuses them.
        .args(["--config", "profile.dev.package.\"*\".opt-level=1"])
        .env("CARGO_TARGET_DIR", target_dir)
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "cargo check of the generated crate failed:\n{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn strict_fails_on_a_defect_and_writes_nothing() {
    let out = scratch("strict").join("grant");
    let output = generate(&fixture("normalize_unsatisfiable"), &out, &["--strict"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("/components/schemas/Grant/required/scope"),
        "{stderr}"
    );
    assert!(!out.exists());
    // Without --strict the same document generates, with the defect in the report.
    let output = generate(&fixture("normalize_unsatisfiable"), &out, &[]);
    assert!(output.status.success());
    let report = std::fs::read_to_string(out.join("report.txt")).unwrap();
    assert!(
        report.contains("defect /components/schemas/Grant/required/scope"),
        "{report}"
    );
}

#[test]
fn refuses_a_bad_crate_name_and_missing_arguments() {
    let out = scratch("usage").join("x");
    let bad = generate(
        &fixture("normalize_tuple"),
        &out,
        &["--crate-name", "1 bad"],
    );
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a crate name"));
    let missing = Command::new(env!("CARGO_BIN_EXE_xtask-regen"))
        .arg("generate")
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--spec and --out are required"));
}
