//! `cargo xtask generate` end to end: the binary writes a standalone crate from a fixture spec,
//! the crate is moved alone to a temporary directory outside the checkout (it carries its
//! support code and asks only crates.io), and there it type-checks offline against the
//! workspace's locked dependencies (its `Cargo.lock` is the workspace's, which cargo trims to
//! what it uses), with and without its default TLS, and `cargo package` verifies it. The checks
//! share the workspace's target directory, so the dependencies are already built.

use std::path::{Path, PathBuf};
use std::process::Command;

mod local_server;

use local_server::{Reply, Seen, Server};

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

/// The program a user writes from the README of the crate generated from
/// `fixtures/first_program.yaml`: its first program, with the base URL and, for HTTPS, the
/// certificate authority from the environment as its HTTPS section shows, plus the other
/// operations (one per security requirement: a query key, none).
const FIRST_PROGRAM: &str = r#"use inventory::{Client, Credentials};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base_url = std::env::var("INVENTORY_URL")?;
    let token = std::env::var("INVENTORY_BEARER_AUTH")?;
    let credentials = Credentials::new().bearer_auth(token).partner_key("k3y-secret");
    println!("credentials: {credentials:?}");
    let client = match std::env::var("INVENTORY_CA") {
        Ok(path) => {
            let pem = std::fs::read(path)?;
            let http = inventory::http_client_builder()
                .add_root_certificate(inventory::reqwest::Certificate::from_pem(&pem)?)
                .build()?;
            Client::new_with_client(&base_url, http, credentials)
        }
        Err(_) => Client::new(&base_url, credentials),
    };
    // The optional `limit` by name, in the operation's parameter struct.
    let limit = inventory::types::ListItemsLimit::new(2)?;
    let page = inventory::params::ListItems { limit: Some(&limit) };
    match client.list_items(page).await {
        Ok(response) => println!("items: {:?}", response.into_inner()),
        Err(error) => println!("items error: {error}"),
    }
    match client.get_price("42").await {
        Ok(response) => println!("price: {}", response.into_inner()),
        Err(error) => println!("price error: {error}"),
    }
    match client.get_price("gone").await {
        Ok(response) => println!("price: {}", response.into_inner()),
        Err(error) => println!("price error: {error}"),
    }
    client.health().await?;
    println!("healthy");
    Ok(())
}
"#;

/// The stub inventory API: `/v2/items` wants the bearer token (and the `limit` the program
/// sets), the price the partner key in the query (and an unknown item is an undeclared 500),
/// `/v2/health` no credential at all.
fn inventory(request: &Seen) -> Reply {
    let bearer = request.header("authorization") == Some("Bearer t0ken");
    let keyed = request.line.contains("partner_key=k3y-secret");
    let reply = |status: u16, body: &str| (status, body.to_owned());
    match request.line.split('?').next().unwrap_or_default() {
        "GET /v2/items" if bearer && !keyed && request.line.contains("limit=2") => {
            reply(200, r#"[{"id":"1","name":"bolt"}]"#)
        }
        "GET /v2/items" => reply(401, r#"{"title":"no token"}"#),
        "GET /v2/items/42/price" if keyed && !bearer => reply(200, "9.5"),
        "GET /v2/items/gone/price" => reply(500, ""),
        "GET /v2/health" if !keyed && request.header("authorization").is_none() => reply(204, ""),
        _ => reply(400, r#"{"title":"unexpected request"}"#),
    }
}

#[test]
fn a_program_from_the_readme_calls_a_local_server_over_http_and_https() {
    let out = scratch("first-program").join("inventory");
    let output = generate(
        &workspace_root().join("xtask/regen/tests/fixtures/first_program.yaml"),
        &out,
        &[],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    for promised in [
        "Credentials::new().bearer_auth(token)",
        "client.list_items(inventory::params::ListItems::default()).await",
        "| `partnerKey` | `partner_key` | query `partner_key` |",
        "- `https://{region}.inventory.example.com/v2`: Production",
        ".add_root_certificate(inventory::reqwest::Certificate::from_pem(&pem)?)",
    ] {
        assert!(readme.contains(promised), "{promised}\nin\n{readme}");
    }

    let moved = Moved::new("first-program");
    let crate_dir = moved.0.join("inventory");
    copy_dir(&out, &crate_dir);
    let lock = workspace_root().join("Cargo.lock");
    std::fs::copy(&lock, crate_dir.join("Cargo.lock")).unwrap();
    // The crate compiles without a warning, the description's own names included.
    let checked = cargo(&crate_dir, &["check", "--offline", "--quiet"]);
    assert!(!checked.contains("warning"), "{checked}");
    // The README is the crate's documentation: its programs compile as doc tests, and the
    // documentation builds without a warning.
    cargo(&crate_dir, &["test", "--offline", "--quiet", "--doc"]);
    cargo(
        &crate_dir,
        &[
            "doc",
            "--offline",
            "--quiet",
            "--no-deps",
            "--config",
            "build.rustdocflags=[\"-D\", \"warnings\"]",
        ],
    );

    let program = moved.0.join("program");
    std::fs::create_dir_all(program.join("src")).unwrap();
    std::fs::write(
        program.join("Cargo.toml"),
        "[package]\nname = \"program\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n[dependencies]\ninventory = { path = \"../inventory\" }\ntokio = { version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }\n",
    )
    .unwrap();
    std::fs::write(program.join("src/main.rs"), FIRST_PROGRAM).unwrap();
    std::fs::copy(&lock, program.join("Cargo.lock")).unwrap();
    cargo(&program, &["build", "--offline", "--quiet"]);
    let binary = target_dir().join("debug/program");

    let tls = workspace_root().join("xtask/regen/tests/fixtures/tls");
    let run = |server: &Server, ca: Option<&Path>| {
        let mut command = Command::new(&binary);
        command
            .env("INVENTORY_URL", server.url("/v2"))
            .env("INVENTORY_BEARER_AUTH", "t0ken")
            .env_remove("INVENTORY_CA");
        if let Some(ca) = ca {
            command.env("INVENTORY_CA", ca);
        }
        let output = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.success(), format!("{stdout}{stderr}"))
    };
    let expect_calls = |server: &Server, printed: &str| {
        assert!(
            printed.contains(
                r#"credentials: Credentials({"bearerAuth": REDACTED, "partnerKey": REDACTED})"#
            ),
            "{printed}"
        );
        assert!(
            printed.contains(r#"items: [Item { id: "1", name: "#),
            "{printed}"
        );
        assert!(printed.contains("price: 9.5"), "{printed}");
        assert!(
            printed.contains("price error: Unexpected Response"),
            "{printed}"
        );
        assert!(printed.contains("partner_key=REDACTED"), "{printed}");
        assert!(printed.contains("healthy"), "{printed}");
        assert!(
            !printed.contains("k3y-secret") && !printed.contains("t0ken"),
            "{printed}"
        );
        let lines: Vec<String> = server.seen().iter().map(|seen| seen.line.clone()).collect();
        assert_eq!(
            lines,
            [
                "GET /v2/items?limit=2",
                "GET /v2/items/42/price?partner_key=k3y-secret",
                "GET /v2/items/gone/price?partner_key=k3y-secret",
                "GET /v2/health",
            ]
        );
    };

    let http = Server::start(None, inventory);
    let (succeeded, printed) = run(&http, None);
    assert!(succeeded, "{printed}");
    expect_calls(&http, &printed);

    let https = Server::start(Some(&tls), inventory);
    let (succeeded, printed) = run(&https, Some(&tls.join("ca.pem")));
    assert!(succeeded, "{printed}");
    expect_calls(&https, &printed);
    // Without the certificate authority, the first call fails on the certificate, and says so
    // through the error's causes.
    let (_, printed) = run(&https, None);
    assert!(
        printed.contains("items error: Communication Error"),
        "{printed}"
    );
}

/// The target directory the tests' cargo runs share with the workspace.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// Runs cargo in the crate at `dir` with the workspace's target directory and dependency
/// profile (the workspace builds its dependencies at opt-level 1; the same profile reuses
/// them), fails the test with cargo's output if it fails, and returns what it printed on
/// stderr (its warnings).
fn cargo(dir: &Path, args: &[&str]) -> String {
    let target_dir = target_dir();
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
    String::from_utf8_lossy(&run.stderr).into_owned()
}

/// A directory under the system's temporary directory, outside the checkout, removed when
/// dropped.
struct Moved(PathBuf);

impl Moved {
    fn new(name: &str) -> Self {
        // A parent of its own: tests run in parallel, and each removes its parent when done.
        let dir = std::env::temp_dir()
            .join(format!("hub-api-generate-{}-{name}", std::process::id()))
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
