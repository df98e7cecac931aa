//! The maintainer's drill, on a copy of the spec: a new `Flavor` value, a fifth `Notification`
//! variant, a new path and a new rule on an inline schema (`maxItems` on the inline
//! `discussionIds` array of the mark-as-read request body) are absorbed by regeneration with no
//! code change (the rule is inferred and enforced with no patch), the regenerated
//! client builds and exposes all three, code that matches on its enums as our crates do still
//! builds (and a match that a new variant would break is refused already), and the accepted
//! surface snapshot no longer matches, so review is forced.

use std::path::{Path, PathBuf};
use std::process::Command;

use hub_api_codegen as codegen;
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The three edits of the drill, made on the parsed spec.
fn changed_spec() -> String {
    let text = std::fs::read_to_string(root().join(codegen::SPEC_PATH)).unwrap();
    let mut spec: Value = serde_norway::from_str(&text).unwrap();
    let schemas = &mut spec["components"]["schemas"];

    schemas["Flavor"]["enum"]
        .as_array_mut()
        .unwrap()
        .push(json!("b200x1"));

    schemas["ArticleNotification"] = json!({
        "type": "object",
        "required": ["type", "updatedAt", "read", "article"],
        "additionalProperties": false,
        "properties": {
            "type": {"const": "article"},
            "updatedAt": {"$ref": "#/components/schemas/Timestamp"},
            "read": {"type": "boolean"},
            "article": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}
        }
    });
    schemas["Notification"]["oneOf"]
        .as_array_mut()
        .unwrap()
        .push(json!({"$ref": "#/components/schemas/ArticleNotification"}));

    schemas["MarkAsReadRequest"]["properties"]["discussionIds"]["maxItems"] = json!(2);

    spec["paths"]["/api/settings/papers"] = json!({"get": {
        "operationId": "getPaperSettings",
        "responses": {"200": {"description": "Paper settings.", "content": {"application/json": {"schema": {
            "type": "object", "required": ["digest"], "properties": {"digest": {"type": "boolean"}}
        }}}}}
    }});
    serde_norway::to_string(&spec).unwrap()
}

#[test]
fn a_spec_change_is_absorbed_by_regen_and_caught_by_the_snapshots() {
    let output =
        codegen::generate_hub_client(&changed_spec()).unwrap_or_else(|error| panic!("{error}"));

    // Regeneration exposes all three changes.
    assert!(
        output.surface.contains("\n    B200x1 = \"b200x1\""),
        "new Flavor value missing from the surface"
    );
    assert!(
        output
            .surface
            .contains("\n    Article(ArticleNotification) = \"article\""),
        "fifth variant missing"
    );
    assert!(
        output
            .surface
            .contains("getPaperSettings: GET /api/settings/papers"),
        "new operation missing"
    );

    // The inline rule is enforced: the array became a bounded newtype named from its place,
    // which checks the count when decoded or built.
    let rule_line = output
        .surface
        .lines()
        .find(|line| line.contains("MarkAsReadRequestDiscussionIds"))
        .unwrap_or_else(|| panic!("inline array not given a type:\n{}", output.surface));
    assert!(rule_line.contains("at most 2 items"), "{rule_line}");

    assert!(
        output
            .rust
            .contains("pub struct MarkAsReadRequestDiscussionIds(")
            && output.rust.contains("if items.len() > 2usize {"),
        "the inline maxItems is not checked"
    );

    // The accepted surface snapshot no longer matches: `cargo insta review` is required.
    let accepted = std::fs::read_to_string(
        root().join("codegen/tests/snapshots/hub_spec__public_api_surface.snap"),
    )
    .unwrap();
    let accepted = accepted.splitn(3, "---\n").nth(2).unwrap();
    assert_ne!(
        accepted.trim_end(),
        output.surface.trim_end(),
        "the surface snapshot would not catch the change"
    );

    // The regenerated client builds, and the new items are usable from outside the crate.
    let usage = "
        #[allow(dead_code)]
        fn uses_the_changes(client: &Client, article: types::ArticleNotification) {
            let _ = types::Flavor::B200x1;
            let _ = types::Notification::from(article);
            let _ = client.get_paper_settings();
        }
        #[allow(dead_code)]
        fn bounded(request: types::MarkAsReadRequest) -> Option<types::MarkAsReadRequestDiscussionIds> {
            let _ = types::MarkAsReadRequestDiscussionIds::new(vec![String::new(); 3]).unwrap_err();
            request.discussion_ids
        }
    ";
    if let Err(errors) = cargo_check_client(&output.rust, usage, DOWNSTREAM_WITH_WILDCARDS) {
        panic!(
            "the regenerated client, or code that uses it as our crates do, does not build:\n{errors}"
        );
    }

    // Our own crates must still build after a spec change. They can: the enums a spec change
    // grows are `#[non_exhaustive]`, so a `match` without a wildcard arm (the kind a new value
    // or variant would break) is refused by the compiler already, before any spec change.
    let errors = cargo_check_client(&output.rust, usage, DOWNSTREAM_EXHAUSTIVE)
        .expect_err("an exhaustive match on a generated enum must not compile");
    assert!(
        errors.contains("E0004") && errors.contains("non-exhaustive"),
        "{errors}"
    );
}

/// Code outside the client that matches on generated enums as the bench and examples do.
const DOWNSTREAM_WITH_WILDCARDS: &str = "
    use hub_api_client::types::{Flavor, Notification};
    pub fn kind(notification: &Notification) -> usize {
        match notification {
            Notification::Paper(_) => 0,
            Notification::Repo(_) => 1,
            Notification::Post(_) => 2,
            Notification::CommunityBlog(_) => 3,
            _ => 4,
        }
    }
    pub fn is_gpu(flavor: &Flavor) -> bool {
        !matches!(flavor, Flavor::CpuBasic | Flavor::CpuUpgrade)
    }
";

/// A `match` naming every variant of the changed spec and no wildcard: only
/// `#[non_exhaustive]` refuses it.
const DOWNSTREAM_EXHAUSTIVE: &str = "
    use hub_api_client::types::Notification;
    pub fn kind(notification: &Notification) -> usize {
        match notification {
            Notification::Paper(_) => 0,
            Notification::Repo(_) => 1,
            Notification::Post(_) => 2,
            Notification::CommunityBlog(_) => 3,
            Notification::Article(_) => 4,
            Notification::Unknown(_) => 5,
        }
    }
";

/// Builds a copy of `generated-client` with `generated` as its generated file, and a crate
/// `downstream` using it with `downstream_code` as its library, in a scratch workspace that
/// reuses this workspace's lock file and dependency declarations, offline. `Err` holds the
/// compiler's errors.
fn cargo_check_client(
    generated: &str,
    extra_lib_code: &str,
    downstream_code: &str,
) -> Result<(), String> {
    let scratch = std::env::temp_dir().join(format!("hub-api-spec-change-{}", std::process::id()));
    let crate_dir = scratch.join("generated-client");
    std::fs::create_dir_all(crate_dir.join("src")).unwrap();

    let root_manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let shared = root_manifest
        .split_once("[workspace.package]")
        .and_then(|(_, rest)| rest.split_once("\n[package]"))
        .map(|(shared, _)| shared)
        .expect("the root Cargo.toml has [workspace.package] and [workspace.dependencies] before [package]");
    let manifest = format!(
        "[workspace]\nmembers = [\"generated-client\", \"downstream\"]\nresolver = \"3\"\n\n[workspace.package]{shared}\n"
    );
    let downstream = scratch.join("downstream");
    std::fs::create_dir_all(downstream.join("src")).unwrap();
    std::fs::write(
        downstream.join("Cargo.toml"),
        "[package]\nname = \"downstream\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nhub-api-client = { path = \"../generated-client\" }\n",
    )
    .unwrap();
    std::fs::write(downstream.join("src/lib.rs"), downstream_code).unwrap();
    std::fs::write(scratch.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root().join("Cargo.lock"), scratch.join("Cargo.lock")).unwrap();
    // The copy finds the support crate where it is, not beside itself.
    let client_manifest =
        std::fs::read_to_string(root().join("generated-client/Cargo.toml")).unwrap();
    let support = root().join("support");
    std::fs::write(
        crate_dir.join("Cargo.toml"),
        client_manifest.replace(
            "path = \"../support\"",
            &format!("path = {:?}", support.display().to_string()),
        ),
    )
    .unwrap();
    let lib = std::fs::read_to_string(root().join("generated-client/src/lib.rs")).unwrap();
    std::fs::write(
        crate_dir.join("src/lib.rs"),
        format!("{lib}\n{extra_lib_code}"),
    )
    .unwrap();
    std::fs::write(crate_dir.join("src/generated.rs"), generated).unwrap();

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let result = Command::new(cargo)
        .args(["check", "--offline", "--quiet", "--manifest-path"])
        .arg(scratch.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root().join("target/spec-change-drill"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&scratch);
    if result.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&result.stderr).into_owned())
    }
}
