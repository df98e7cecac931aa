//! Stops the build of `hub-api` when `spec/openapi.yaml` changed since the client was generated:
//! the sha256 in the generated file's header must be the spec's. Cheap: cargo reruns this only
//! when one of the two files changes.

use std::path::Path;

use sha2::{Digest, Sha256};

const SPEC: &str = "spec/openapi.yaml";
const GENERATED: &str = "generated-client/src/generated.rs";

fn main() {
    // Read at run time: `env!` would fix the directory of whichever checkout compiled this
    // script, and a second checkout sharing the target directory would check the first one's
    // spec.
    let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        eprintln!("error: CARGO_MANIFEST_DIR is not set: run this build script through cargo");
        std::process::exit(1);
    };
    let root = Path::new(&root);
    println!("cargo:rerun-if-changed={SPEC}");
    println!("cargo:rerun-if-changed={GENERATED}");
    // A packaged crate carries neither file; there is nothing to compare then.
    let (Ok(spec), Ok(generated)) = (
        std::fs::read(root.join(SPEC)),
        std::fs::read_to_string(root.join(GENERATED)),
    ) else {
        return;
    };
    let spec_hash: String = Sha256::digest(&spec)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let header_hash = generated
        .lines()
        .next()
        .and_then(|line| line.split("(sha256 ").nth(1))
        .and_then(|rest| rest.split(')').next())
        .unwrap_or("(missing)");
    if header_hash != spec_hash {
        eprintln!("error: {SPEC} changed since the client was generated: run cargo xtask regen");
        eprintln!("       (spec sha256 {spec_hash}, {GENERATED} was generated from {header_hash})");
        std::process::exit(1);
    }
}
