//! `cargo xtask generate` end to end: the binary writes a standalone crate from a fixture spec,
//! the crate is moved alone to a temporary directory outside the checkout (it carries its
//! support code and asks only crates.io), and there it type-checks offline against the
//! workspace's locked dependencies (its `Cargo.lock` is the workspace's, which cargo trims to
//! what it uses), with and without its default TLS, and `cargo package` verifies it. The checks
//! share the workspace's target directory, so the dependencies are already built.

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
fn generated_crate_builds_alone_and_packages() {
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
        "src/support/mod.rs",
        "src/support/tls.rs",
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

    assert!(
        !manifest.contains("path ="),
        "nothing points into the checkout: {manifest}"
    );

    // Alone, outside the checkout: nothing it needs may be found by a path into it.
    let moved = Moved::new("commit-client");
    copy_dir(&out, &moved.0);
    std::fs::copy(
        workspace_root().join("Cargo.lock"),
        moved.0.join("Cargo.lock"),
    )
    .unwrap();
    cargo(&moved.0, &["check", "--offline", "--quiet"]);
    // Without TLS, for an application that brings its own `reqwest::Client`.
    cargo(
        &moved.0,
        &["check", "--offline", "--quiet", "--no-default-features"],
    );
    // Packaged and built from the package, as crates.io would have it.
    cargo(
        &moved.0,
        &["package", "--offline", "--quiet", "--allow-dirty"],
    );
}

/// Runs cargo in the crate at `dir` with the workspace's target directory and dependency
/// profile (the workspace builds its dependencies at opt-level 1; the same profile reuses
/// them), and fails the test with cargo's output if it fails.
fn cargo(dir: &Path, args: &[&str]) {
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"));
    let run = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(args)
        .args(["--config", "profile.dev.package.\"*\".opt-level=1"])
        .env("CARGO_TARGET_DIR", target_dir)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "cargo {} of the generated crate failed:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&run.stderr)
    );
}

/// A directory under the system's temporary directory, outside the checkout, removed when
/// dropped.
struct Moved(PathBuf);

impl Moved {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir()
            .join(format!("hub-api-generate-{}", std::process::id()))
            .join(name);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            !dir.starts_with(workspace_root()),
            "the temporary directory is inside the checkout"
        );
        Self(dir)
    }
}

impl Drop for Moved {
    fn drop(&mut self) {
        if let Some(parent) = self.0.parent() {
            let _ = std::fs::remove_dir_all(parent);
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
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
