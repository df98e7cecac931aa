//! The `hub` CLI through codegen: the checked-in `hub-cli/src/generated.rs` must be exactly what
//! the spec generates, generation is deterministic, and a new operation in the spec becomes a
//! new command through regen alone.

use std::path::{Path, PathBuf};

use hub_api_codegen as codegen;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen lives in the workspace")
        .to_path_buf()
}

fn generate_cli(spec: &str) -> String {
    let client = codegen::generate_hub_client(spec).unwrap_or_else(|error| panic!("{error}"));
    codegen::cli::generate(
        &client.downlevelled,
        &client.rust,
        &client.secrets,
        &codegen::header(codegen::SPEC_PATH, spec),
    )
    .unwrap_or_else(|error| panic!("{error}"))
}

fn spec() -> String {
    std::fs::read_to_string(root().join(codegen::SPEC_PATH)).expect("spec is readable")
}

#[test]
fn checked_in_cli_is_what_the_spec_generates() {
    let generated = generate_cli(&spec());
    let on_disk = std::fs::read_to_string(root().join(codegen::cli::CLI_PATH)).unwrap_or_default();
    if let Some(diff) = codegen::short_diff(codegen::cli::CLI_PATH, &on_disk, &generated, 60) {
        panic!("{diff}\nthe checked-in CLI is stale: run `cargo xtask regen`");
    }
    assert_eq!(generated, generate_cli(&spec()), "deterministic");
}

#[test]
fn a_new_operation_becomes_a_command() {
    let spec = spec().replacen(
        "\npaths:\n",
        "\npaths:\n  /api/settings/ping:\n    get:\n      operationId: pingSettings\n      tags: [settings]\n      summary: Check the settings service.\n      responses:\n        \"204\":\n          description: Up.\n",
        1,
    );
    let generated = generate_cli(&spec);
    assert!(
        generated.contains("name: \"ping\""),
        "no `hub settings ping`"
    );
    assert!(
        generated.contains("group: \"settings\""),
        "`pingSettings` is `hub settings ping`"
    );
    assert!(
        generated.contains("\"pingSettings\" =>"),
        "no dispatch for pingSettings"
    );
}

#[test]
fn a_new_operation_under_a_new_tag_has_no_old_spelling() {
    // Issue 42's `GET /api/whoami-v2` under a new tag `users`: `hub whoami-v2 get`, and no
    // hidden `hub users get-whoami-v2`, which no script can have used.
    let spec = spec().replacen(
        "\npaths:\n",
        "\npaths:\n  /api/whoami-v2:\n    get:\n      operationId: getWhoamiV2\n      tags: [users]\n      summary: Who the token is.\n      responses:\n        \"204\":\n          description: Known.\n",
        1,
    );
    let generated = generate_cli(&spec);
    let at = generated
        .find("id: \"getWhoamiV2\"")
        .expect("a command for getWhoamiV2");
    let entry = &generated[at..];
    let entry = &entry[..entry.find("},\n").unwrap_or(entry.len())];
    assert!(entry.contains("legacy: None"), "{entry}");
    // An operation that had the old spelling keeps it.
    assert!(generated.contains("legacy: Some("), "no old spelling kept");
}

/// The naming rule (`cli`'s module documentation), operation by operation of the hub's spec.
#[test]
fn commands_are_noun_verb_from_the_operation_id() {
    let cases = [
        (
            "listNotifications",
            "notifications",
            "notifications",
            "list",
        ),
        (
            "deleteNotifications",
            "notifications",
            "notifications",
            "delete",
        ),
        (
            "markNotificationsAsRead",
            "notifications",
            "notifications",
            "mark-as-read",
        ),
        (
            "updateNotificationSettings",
            "settings",
            "notification-settings",
            "update",
        ),
        (
            "updateWatchSettings",
            "settings",
            "watch-settings",
            "update",
        ),
        ("getMcpSettings", "settings", "mcp-settings", "get"),
        ("revokeCredentials", "tokens", "credentials", "revoke"),
        ("listWebhooks", "webhooks", "webhooks", "list"),
        // Singular: merged with `webhooks` across operations, in `generate`.
        ("createWebhook", "webhooks", "webhook", "create"),
        ("enableWebhook", "webhooks", "webhook", "enable"),
        (
            "getStorageAccessToken",
            "storage",
            "storage-access-token",
            "get",
        ),
        // No noun: the tag, and the whole id as the verb.
        ("ping", "health", "health", "ping"),
        ("logInToHub", "auth", "auth", "log-in-to-hub"),
    ];
    for (id, tag, noun, verb) in cases {
        assert_eq!(
            codegen::cli::noun_verb(id, tag),
            (noun.to_owned(), verb.to_owned()),
            "{id}"
        );
    }
    assert_eq!(
        codegen::cli::legacy_spelling("getMcpSettings", "settings"),
        ("settings".to_owned(), "get-mcp".to_owned())
    );
}
