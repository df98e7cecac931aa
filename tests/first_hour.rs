//! What a new user meets in the first hour (issue 43): string newtypes compare with text, an
//! error returned from `main` prints its message, a misspelt enum value gets the nearest one,
//! the missing-token warning shows without a `tracing` subscriber, the mock writes valid bodies,
//! and the README's recipes list what they use.

use std::process::Command;

use hub_api::mock::{Method, MockHub, object_id, webhook, webhook_envelope};
use hub_api::prelude::*;
use hub_api::webhooks::WebhookSpec;

/// Set for the child processes this file starts (the environment is the process's).
const CHILD: &str = "HUB_API_FIRST_HOUR_CHILD";

/// Runs the test `name` of this binary in a child process with `env`, returning its stderr.
fn child(name: &str, env: &[(&str, &str)]) -> String {
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .env_remove("HUB_TOKEN")
        .env_remove("HUB_BASE_URL")
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("hub-api-first-hour-no-config"),
        );
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("the child runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn in_child(name: &str) -> bool {
    std::env::var(CHILD).as_deref() == Ok(name)
}

#[test]
fn a_generated_id_compares_with_text() {
    let decoded: types::Webhook = serde_json::from_value(webhook(&object_id(7))).unwrap();
    let id = object_id(7);
    assert!(decoded.id == "6729a1f00000000000000007");
    assert!(decoded.id == id);
    assert!(id == decoded.id);
    assert!(decoded.id == *id.as_str());
    assert!(decoded.id.starts_with("6729"), "str methods through Deref");
    let text: &str = &decoded.id;
    assert_eq!(text, id);
    assert_eq!(AsRef::<str>::as_ref(&decoded.id), id);
}

#[test]
fn a_misspelt_enum_value_names_the_nearest() {
    let error = "a10g-smal".parse::<Flavor>().unwrap_err().to_string();
    assert!(
        error.starts_with("invalid value `a10g-smal`: expected one of `"),
        "{error}"
    );
    assert!(error.contains("`cpu-basic`"), "the allowed values: {error}");
    assert!(error.ends_with("did you mean `a10g-small`?"), "{error}");
    let far = "gpu".parse::<Flavor>().unwrap_err().to_string();
    assert!(!far.contains("did you mean"), "{far}");
    assert_eq!("a10g-small".parse::<Flavor>().unwrap(), Flavor::A10gSmall);
}

#[test]
fn report_prints_the_message_not_the_variant() {
    let error = Client::builder("hub.example.com")
        .anonymous()
        .build()
        .expect_err("not a URL");
    let report = hub_api::Report::from(error);
    let printed = format!("{report:?}");
    assert!(printed.starts_with("invalid `base_url`: "), "{printed}");
    assert!(printed.contains("got \"hub.example.com\""), "{printed}");
    assert!(!printed.contains("Validation"), "{printed}");
    assert!(report.downcast_ref::<Error>().is_some());
}

#[test]
fn a_malformed_hub_base_url_is_named_with_its_value() {
    if in_child("a_malformed_hub_base_url_is_named_with_its_value") {
        fn main() -> Result<(), hub_api::Report> {
            let _client = Client::from_env()?;
            Ok(())
        }
        let printed = format!("{:?}", main().expect_err("refused"));
        eprintln!("{printed}");
        return;
    }
    let stderr = child(
        "a_malformed_hub_base_url_is_named_with_its_value",
        &[("HUB_BASE_URL", "hub.example.com")],
    );
    assert!(
        stderr.contains("invalid `HUB_BASE_URL`: must be an absolute http or https URL"),
        "{stderr}"
    );
    assert!(stderr.contains("got \"hub.example.com\""), "{stderr}");
}

#[test]
fn without_a_token_or_a_subscriber_the_warning_shows_once() {
    if in_child("without_a_token_or_a_subscriber_the_warning_shows_once") {
        Client::new("https://hub.example.com").unwrap();
        Client::new("https://hub.example.com").unwrap();
        Client::anonymous("https://hub.example.com").unwrap();
        return;
    }
    let stderr = child(
        "without_a_token_or_a_subscriber_the_warning_shows_once",
        &[],
    );
    assert_eq!(
        stderr
            .matches("warning: hub-api: HUB_TOKEN is not set")
            .count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("HTTP 401"), "{stderr}");
}

#[test]
fn with_a_token_there_is_no_warning() {
    if in_child("with_a_token_there_is_no_warning") {
        Client::new("https://hub.example.com").unwrap();
        Client::anonymous("https://hub.example.com").unwrap();
        return;
    }
    let stderr = child(
        "with_a_token_there_is_no_warning",
        &[("HUB_TOKEN", "hub_first_hour_token")],
    );
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[tokio::test]
async fn the_mock_writes_valid_bodies() {
    let mock = MockHub::start().await;
    let id = object_id(1);
    assert_eq!(id.len(), 24);
    assert!(id.bytes().all(|byte| byte.is_ascii_hexdigit()));
    mock.on(Method::GET, "/api/settings/webhooks").respond(
        200,
        serde_json::json!([webhook(&id), webhook(&object_id(2))]),
    );
    mock.on(Method::POST, "/api/settings/webhooks")
        .respond(200, webhook_envelope(webhook(&id)));
    mock.on(Method::GET, "/api/notifications").respond(
        200,
        hub_api::mock::notification_page([hub_api::mock::notification(&object_id(3))]),
    );
    let client = mock.client();
    let listed = client.list_webhooks().await.expect("listed");
    assert_eq!(listed.len(), 2);
    assert!(listed.invalid.is_empty(), "{:?}", listed.invalid);
    let spec = WebhookSpec::url("https://ci.acme.example/hooks/hub")
        .watch(WatchedType::Model, "acme/bert-tiny")
        .domain(WebhookDomain::Repo);
    let created = client.create_webhook(&spec).await.expect("created");
    assert!(created.id == id);
    let page = client
        .list_notifications(&NotificationFilter::unread(), 0)
        .await
        .expect("listed");
    assert!(page.invalid.is_empty(), "{:?}", page.invalid);
    assert_eq!(
        page.notifications[0].discussion_id(),
        Some(object_id(3).as_str())
    );
    // Strictly valid too, not only tolerated.
    for body in [webhook(&id), hub_api::mock::notification(&id)] {
        let strict = hub_api::generated::decoding::strict(|| {
            serde_json::from_value::<types::Webhook>(body.clone())
                .map(drop)
                .or_else(|_| serde_json::from_value::<Notification>(body.clone()).map(drop))
        });
        strict.expect("valid under the spec");
    }
}

/// The crates the README's and the mock module's recipes name, each of which the recipe's
/// `[dev-dependencies]` must list (issue 43: the mock recipe used `serde_json` without it).
#[test]
fn recipes_list_the_crates_they_use() {
    let readme = include_str!("../README.md");
    let section = readme
        .split("## Testing your code")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the README's testing section");
    let mock_docs: String = include_str!("../src/mock.rs")
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line).to_owned() + "\n")
        .collect();
    for (name, text) in [("README", section), ("src/mock.rs", &mock_docs)] {
        let toml = text
            .split("```toml")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .unwrap_or_else(|| panic!("{name}: no toml block"));
        let rust: String = text
            .split("```rust")
            .chain(text.split("```\n"))
            .skip(1)
            .filter_map(|block| block.split("```").next())
            .collect();
        for krate in ["serde_json", "tokio", "futures_util", "reqwest"] {
            if rust.contains(&format!("{krate}::")) {
                let listed = toml.lines().any(|line| {
                    line.starts_with(&format!("{krate} "))
                        || line.starts_with(&format!("{} ", krate.replace('_', "-")))
                });
                assert!(
                    listed,
                    "{name}: the recipe uses {krate} but does not list it:\n{toml}"
                );
            }
        }
    }
}

/// Every feature of the crate is in the README's feature table.
#[test]
fn the_feature_table_lists_every_feature() {
    let manifest = include_str!("../Cargo.toml");
    let features = manifest
        .split("\n[features]\n")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .expect("a [features] table");
    let readme = include_str!("../README.md");
    for line in features.lines() {
        let Some((feature, _)) = line.split_once(" = ") else {
            continue;
        };
        if feature == "default" || feature.starts_with('#') {
            continue;
        }
        assert!(
            readme.contains(&format!("| `{feature}` |")),
            "the README's feature table has no `{feature}`"
        );
    }
}
