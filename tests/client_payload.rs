//! `WebhookPayload::from_env()` as a job started by a webhook uses it: missing, invalid and valid
//! `WEBHOOK_PAYLOAD`.
//!
//! One test in its own binary: it changes the process environment, which is only sound while no
//! other thread can read it.

#[path = "client_support/files.rs"]
mod files;

use hub_api::types::WebhookPayload;
use hub_api::{PAYLOAD_ENV_VAR, PayloadError, WebhookPayloadExt};

/// This binary holds this one test and starts no threads, as `set_env` requires.
fn set_payload(value: Option<&str>) {
    files::set_env(PAYLOAD_ENV_VAR, value);
}

#[test]
fn from_env_reads_webhook_payload() {
    set_payload(None);
    let missing = WebhookPayload::from_env().err();
    assert_eq!(missing, Some(PayloadError::Missing));
    assert!(
        missing
            .map(|error| error.to_string())
            .is_some_and(|message| message.contains("WEBHOOK_PAYLOAD is not set"))
    );

    set_payload(Some(r#"{"event":{"action":"update"}}"#));
    let invalid = WebhookPayload::from_env().err();
    assert!(
        matches!(&invalid, Some(PayloadError::Invalid { message, .. }) if message.contains("repo")),
        "{invalid:?}"
    );

    set_payload(Some("not json"));
    assert!(matches!(
        WebhookPayload::from_env(),
        Err(PayloadError::Invalid { .. })
    ));

    set_payload(Some(
        r#"{"event":{"action":"update","scope":"repo.content"},
            "repo":{"type":"model","name":"acme/bert-tiny","headSha":"4f3a"},
            "updatedRefs":[{"ref":"refs/heads/main","oldSha":null,"newSha":"4f3a"}]}"#,
    ));
    let payload = WebhookPayload::from_env().expect("valid payload");
    set_payload(None);
    assert_eq!(payload.event.action, "update");
    assert_eq!(payload.event.scope.as_deref(), Some("repo.content"));
    assert_eq!(payload.repo.name.as_deref(), Some("acme/bert-tiny"));
    assert_eq!(payload.updated_refs[0].ref_, "refs/heads/main");
}
