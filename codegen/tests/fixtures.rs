//! One small spec per down-level rule, per patch kind and per emit step, under `tests/fixtures/`. Each one's
//! down-levelled document and generated Rust are snapshots; the `hub-api-codegen-fixtures`
//! crate compiles every accepted Rust snapshot, so each fixture's output is proved to build.

use std::collections::BTreeSet;
use std::path::Path;

use hub_api_codegen::{Action, Input, Patch, generate};

/// A fixture's patch on `/components/schemas/<name>`.
macro_rules! fixture_patch {
    ($name:literal, $action:expr $(,)?) => {
        Patch {
            target: concat!("/components/schemas/", $name),
            action: $action,
            reason: "the fixture's patch.",
        }
    };
}

/// Every fixture with the patches it exercises.
const FIXTURES: &[(&str, &[Patch])] = &[
    ("downlevel_const", &[]),
    ("downlevel_examples", &[]),
    (
        "downlevel_exclusive_bounds",
        &[
            fixture_patch!("Percent", Action::BoundedInteger),
            fixture_patch!("Positive", Action::BoundedInteger),
        ],
    ),
    ("downlevel_nullable", &[]),
    ("downlevel_ref_siblings", &[]),
    ("emit_open_object", &[]),
    (
        "patch_bounded_array",
        &[fixture_patch!("Tags", Action::BoundedArray)],
    ),
    (
        "patch_bounded_integer",
        &[fixture_patch!("Port", Action::BoundedInteger)],
    ),
    (
        "patch_exclusive_union",
        &[fixture_patch!(
            "Job",
            Action::ExclusiveUnion {
                keys: &["spaceId", "dockerImage"]
            }
        )],
    ),
    (
        "patch_literal_union",
        &[fixture_patch!(
            "Disabled",
            Action::LiteralUnion {
                variants: &[
                    ("Enabled", "false"),
                    ("Disabled", "true"),
                    ("SuspendedAfterFailure", "\"suspended-after-failure\"")
                ],
            },
        )],
    ),
    (
        "patch_tagged_union",
        &[fixture_patch!("Shape", Action::TaggedUnion { tag: "kind" })],
    ),
    (
        "patch_validated_map",
        &[
            fixture_patch!("Env", Action::ValidatedMap { secret: false }),
            fixture_patch!("Secrets", Action::ValidatedMap { secret: true }),
        ],
    ),
    (
        "patch_validated_string",
        &[
            fixture_patch!("Oid", Action::ValidatedString { secret: false }),
            fixture_patch!("Short", Action::ValidatedString { secret: false }),
            fixture_patch!("At", Action::ValidatedString { secret: false }),
            fixture_patch!("Link", Action::ValidatedString { secret: false }),
            fixture_patch!("Token", Action::ValidatedString { secret: true }),
        ],
    ),
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
    let listed: BTreeSet<String> = FIXTURES
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    assert_eq!(
        on_disk, listed,
        "tests/fixtures/*.yaml and FIXTURES must name the same fixtures"
    );
}

#[test]
fn fixtures() {
    for (name, patches) in FIXTURES {
        let spec_name = format!("codegen/tests/fixtures/{name}.yaml");
        let spec_text =
            std::fs::read_to_string(fixtures_dir().join(format!("{name}.yaml"))).unwrap();
        let module_path = format!("crate::{name}");
        let output = generate(&Input {
            spec_text: &spec_text,
            spec_name: &spec_name,
            patches,
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
