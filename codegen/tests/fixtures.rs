//! One small spec per down-level rule, per patch kind and per emit step, under `tests/fixtures/`. Each one's
//! down-levelled document and generated Rust are snapshots; the `hub-api-codegen-fixtures`
//! crate compiles every accepted Rust snapshot, so each fixture's output is proved to build.

use std::collections::BTreeSet;
use std::path::Path;

use hub_api_codegen::{Input, generate};

/// Every fixture. None needs a hand-written patch: each is inferred from the fixture's
/// schemas and its `x-rust-` decisions.
const FIXTURES: &[&str] = &[
    "downlevel_const",
    "downlevel_examples",
    "downlevel_exclusive_bounds",
    "downlevel_nullable",
    "downlevel_ref_siblings",
    "emit_one_of_union",
    "emit_open_object",
    "emit_repeated_enums",
    "patch_bounded_array",
    "patch_bounded_integer",
    "patch_exclusive_union",
    "patch_literal_union",
    "patch_tagged_union",
    "patch_validated_map",
    "patch_validated_string",
];

fn fixtures_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
}

#[test]
fn every_fixture_file_is_listed() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "yaml")
        })
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        // `normalize_*` fixtures belong to `tests/normalize.rs`.
        .filter(|name| !name.starts_with("normalize_"))
        .collect();
    let listed: BTreeSet<String> = FIXTURES.iter().map(|name| (*name).to_owned()).collect();
    assert_eq!(
        on_disk, listed,
        "tests/fixtures/*.yaml and FIXTURES must name the same fixtures"
    );
}

#[test]
fn fixtures() {
    for name in FIXTURES {
        let spec_name = format!("codegen/tests/fixtures/{name}.yaml");
        let spec_text =
            std::fs::read_to_string(fixtures_dir().join(format!("{name}.yaml"))).unwrap();
        let module_path = format!("crate::{name}");
        let output = generate(&Input {
            spec_text: &spec_text,
            spec_name: &spec_name,
            patches: &[],
            module_path: &module_path,
        })
        .unwrap_or_else(|error| panic!("fixture {name}: {error}"));
        insta::assert_snapshot!(
            format!("{name}__downlevelled"),
            serde_norway::to_string(&output.downlevelled).unwrap()
        );
        insta::assert_snapshot!(format!("{name}__rust"), output.rust);
    }
}
