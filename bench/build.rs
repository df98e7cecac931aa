//! Generates the `plain` module: what progenitor and typify emit from `spec/openapi.yaml`
//! without the codegen patches. It is the baseline of `validation_overhead` and exists for this
//! benchmark only, so it is generated at build time instead of being checked in.

use std::path::Path;

fn main() {
    let spec_path =
        Path::new(&std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
            .join("../spec/openapi.yaml");
    println!("cargo:rerun-if-changed={}", spec_path.display());
    let spec = std::fs::read_to_string(&spec_path)
        .unwrap_or_else(|error| panic!("reading {}: {error}", spec_path.display()));
    let plain = hub_api_codegen::generate_plain(&spec, "spec/openapi.yaml", "crate::plain")
        .unwrap_or_else(|error| panic!("generating the plain baseline: {error}"));
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    std::fs::write(Path::new(&out_dir).join("plain.rs"), plain)
        .unwrap_or_else(|error| panic!("writing plain.rs to OUT_DIR: {error}"));
}
