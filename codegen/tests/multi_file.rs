//! A description split over files (`tests/fixtures/multi_file/`: a root, path items, a
//! parameter, schemas and a tag's description each in files of their own), bundled by
//! `bundle::bundle` through a reader of the files and generated through the public API: every
//! operation keeps its parameters and typed bodies, nothing is left out, and nothing in the
//! output names where the files sit on this machine.

use std::path::Path;

use hub_api_codegen::bundle::bundle;
use hub_api_codegen::{CrateOptions, generate_crate_from_bundle};

fn root() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/multi_file/openapi.yaml"
    ))
}

#[test]
fn a_description_split_over_files_generates_whole() {
    let bundled = bundle(root(), |path| std::fs::read_to_string(path)).unwrap();
    assert_eq!(
        bundled.files,
        [
            "openapi.yaml",
            // Read first: the root's components that are only a `$ref` are claimed first.
            "schemas/error.yaml",
            "docs/pets.md",
            "paths/pets.yaml",
            "parameters.yaml",
            "schemas/pet.yaml",
        ]
    );
    let generated = generate_crate_from_bundle(
        bundled,
        "openapi.yaml",
        "multi-file-pets",
        &CrateOptions::default(),
    )
    .unwrap();
    let report = &generated.files["report.txt"];
    let rust = &generated.files["src/generated.rs"];
    assert!(report.contains(" 0 left out\n"), "{report}");
    assert!(
        report.contains("`$ref` to `schemas/pet.yaml#/Pet`: read from that file; the schema becomes the component `Pet`"),
        "{report}"
    );
    // Each operation as its files describe it, not an empty shell: its parameters (the path
    // item's shared one too), its typed body and its typed responses, errors included.
    for expected in [
        "pub async fn list_pets<'a>(\n        &'a self,\n        parameters: params::ListPets<'a>,\n    ) -> Result<ResponseValue<::std::vec::Vec<types::Pet>>, Error<types::Error>> {\n        let p = parameters;",
        "pub struct ListPets<'a> {\n        pub limit: Option<&'a crate::generated::types::ListPetsLimit>,\n    }",
        "pub async fn create_pet<'a>(\n        &'a self,\n        body: &'a types::NewPet,\n    ) -> Result<ResponseValue<types::Pet>, Error<()>> {",
        "pub async fn show_pet_by_id<'a>(\n        &'a self,\n        pet_id: i64,\n    ) -> Result<ResponseValue<types::Pet>, Error<types::Error>> {",
        "pub struct Pet {",
        "pub parent: ::std::option::Option<::std::boxed::Box<Pet>>,",
        "pub struct NewPet {",
        "pub struct Error {",
    ] {
        assert!(rust.contains(expected), "{expected}\n{rust}");
    }
    let machine = env!("CARGO_MANIFEST_DIR");
    for (name, text) in &generated.files {
        assert!(!text.contains(machine), "{name} names a machine path");
    }
}
