//! `cargo xtask regen [--check]`: generates every checked-in file from `spec/openapi.yaml` and
//! writes it, or with `--check` writes nothing and fails when one is stale. xtask runs this
//! binary instead of linking `hub-api-codegen` itself, so that `cargo xtask validate` and the
//! other commands never build progenitor, typify and syn.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hub_api_codegen as codegen;

fn main() {
    if let Err(error) = run(std::env::args().skip(1).collect()) {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

fn run(args: Vec<String>) -> Result<()> {
    let check = match args.as_slice() {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask regen [--check]"),
    };
    let root = workspace_root();
    let spec_text = std::fs::read_to_string(root.join(codegen::SPEC_PATH))
        .with_context(|| format!("reading {}", codegen::SPEC_PATH))?;
    let output = codegen::generate_hub_client(&spec_text)?;
    let cli = codegen::cli::generate(
        &output.downlevelled,
        &output.rust,
        &output.secrets,
        &codegen::header(codegen::SPEC_PATH, &spec_text),
    )?;
    // Both are generated before either is written: a generation error leaves both files as they were.
    sync(&root, codegen::CLIENT_PATH, &output.rust, check)?;
    sync(&root, codegen::cli::CLI_PATH, &cli, check)
}

/// Writes `expected` to `path` (relative to the root) unless it is there already; with `check`,
/// fails with a short diff instead of writing.
fn sync(root: &Path, path: &str, expected: &str, check: bool) -> Result<()> {
    let full_path = root.join(path);
    let on_disk = std::fs::read_to_string(&full_path).unwrap_or_default();
    match codegen::short_diff(path, &on_disk, expected, 40) {
        None => println!("regen: {path} is up to date"),
        Some(diff) if check => bail!("{diff}{path} is stale: run `cargo xtask regen`"),
        Some(_) => {
            std::fs::write(&full_path, expected).with_context(|| format!("writing {path}"))?;
            println!("regen: wrote {path}");
        }
    }
    Ok(())
}

/// The workspace root: this crate lives two levels below it.
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .ancestors()
        .nth(2)
        .unwrap_or(manifest_dir)
        .to_path_buf()
}
