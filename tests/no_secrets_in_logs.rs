//! A full scenario with every kind of secret (hub token, tokens being revoked, webhook secret, job
//! secret, storage tokens) against a stub hub that echoes secrets back in its error bodies, with
//! tracing captured at TRACE (and `log` records of the HTTP stack bridged into it): no raw secret
//! may appear in the captured output nor in any error's `Display` or `Debug`.
//!
//! One test in its own binary, because it installs the global subscriber.

mod client_support;

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use client_support::bodies::storage_token_body;
use client_support::{
    CLOCK_START as START, Capture, Counter, FakeClock, HUB_TOKEN, Reply, StubHub,
};
use futures_util::TryStreamExt;
use hub_api::Repository;
use hub_api::notifications::{NotificationFilter, NotificationSelection};
use hub_api::storage::{Clock, StorageTokenProvider, StorageTokenType};
use hub_api::types::{WatchedType, WebhookDomain, WebhookPayload};
use hub_api::webhooks::WebhookSpec;
use hub_api::{Error, WebhookPayloadExt};
use serde_json::json;

const REVOKED: [&str; 3] = [
    "hub_leaked_token_ONE_1111",
    "hub_leaked_token_TWO_2222",
    "hub_leaked_token_THREE_33",
];
const WEBHOOK_SECRET: &str = "webhook-signing-secret-XYZ";
const JOB_SECRET: &str = "job-secret-value-PQR";
const STORAGE_TOKEN: &str = "storage-access-token-LMN";

/// The stub hub: succeeds once per area, then fails with bodies that echo the request body and
/// the `Authorization` header.
async fn echoing_hub() -> StubHub {
    let revocations = Counter::default();
    let creations = Counter::default();
    let storage = Counter::default();
    StubHub::start(move |request| {
        let echo = format!(
            "rejected: authorization={:?} body={}",
            request.header("authorization"),
            String::from_utf8_lossy(&request.body)
        );
        match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/api/notifications") => Reply::json(
                200,
                json!({ "notifications": [], "count": { "view": 0, "unread": 0, "all": 0 }, "start": 0 }),
            ),
            ("POST", "/api/credentials/revoke") => match revocations.next() {
                0 => Reply::empty(202),
                _ => Reply::text(400, &echo),
            },
            ("POST", "/api/settings/webhooks") => match creations.next() {
                0 => Reply::json(
                    200,
                    json!({ "webhook": {
                        "id": "6729a1f0c3d4e5f6a7b8c90a", "disabled": false,
                        "watched": [{ "name": "acme", "type": "org" }],
                        "hasSecret": true, "domains": ["repo"]
                    } }),
                ),
                _ => Reply::text(422, &echo),
            },
            ("GET", path) if path.contains("/cas-") => match storage.next() {
                0 => Reply::json(200, storage_token_body(STORAGE_TOKEN, START + 3600)),
                // The request id that errors now carry is scrubbed like the body.
                _ => Reply::text(500, &echo).header("x-request-id", HUB_TOKEN),
            },
            _ => Reply::text(401, &echo),
        }
    })
    .await
}

#[tokio::test]
async fn no_secret_reaches_logs_or_error_messages() {
    let capture = Capture::default();
    let writer = capture.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .init();

    let hub = echoing_hub().await;
    let client = hub.client();
    let mut errors: Vec<Error> = Vec::new();

    // Notifications, then an endpoint that fails with the Authorization header echoed.
    let _: Vec<_> = client
        .notifications(NotificationFilter::default())
        .try_collect()
        .await
        .expect("notifications");
    errors.extend(
        client
            .delete_notifications(&NotificationSelection::discussions([
                "6729a1f0c3d4e5f6a7b8c904",
            ]))
            .await
            .err(),
    );
    errors.extend(client.mcp_settings().await.err());

    // Revocation: accepted, then refused with the tokens echoed.
    client.revoke_credentials(REVOKED).await.expect("revoke");
    errors.extend(client.revoke_credentials(REVOKED).await.err());
    errors.extend(
        client
            .revoke_credentials([REVOKED[0], &"x".repeat(201)])
            .await
            .err(),
    );

    // Webhooks with a secret and a job secret: created, then refused with the body echoed.
    let spec = WebhookSpec::job_source("6729a1f0c3d4e5f6a7b8c90d")
        .watch(WatchedType::Org, "acme")
        .domain(WebhookDomain::Repo)
        .secret(WEBHOOK_SECRET)
        .job_secret("HF_WRITE_TOKEN", JOB_SECRET);
    tracing::debug!(
        ?spec,
        ?client,
        "objects holding secrets, printed with Debug"
    );
    client.create_webhook(&spec).await.expect("create");
    errors.extend(client.create_webhook(&spec).await.err());
    errors.extend(
        client
            .create_webhook(&spec.clone().secret("naïve"))
            .await
            .err(),
    );

    // Storage tokens: issued, refresh fails (old token served), then expired (error).
    let clock = FakeClock::new();
    let provider = StorageTokenProvider::builder(client.clone())
        .clock(Arc::clone(&clock) as Arc<dyn Clock>)
        .build();
    let repository = Repository::model("acme/bert");
    let token = provider
        .token(&repository, StorageTokenType::Write)
        .await
        .expect("storage token");
    tracing::debug!(?token, ?provider, "storage token printed with Debug");
    clock.set(UNIX_EPOCH + Duration::from_secs(START + 3590));
    let served = provider
        .token(&repository, StorageTokenType::Read)
        .await
        .expect("old token served");
    assert_eq!(served.access_token().expose(), STORAGE_TOKEN);
    clock.set(UNIX_EPOCH + Duration::from_secs(START + 3600));
    errors.extend(
        provider
            .token(&repository, StorageTokenType::Write)
            .await
            .err(),
    );
    assert_eq!(
        errors.last().and_then(Error::request_id),
        Some("[redacted]")
    );

    // A payload error for good measure.
    let payload_error = WebhookPayload::from_json("{}").expect_err("invalid payload");

    // Every failure above happened, and echoed secrets back.
    assert_eq!(errors.len(), 7, "{errors:#?}");
    let messages: Vec<String> = errors
        .iter()
        .flat_map(|error| [error.to_string(), format!("{error:?}")])
        .chain([payload_error.to_string(), format!("{payload_error:?}")])
        .collect();
    assert!(
        messages
            .iter()
            .any(|message| message.contains("[redacted]")),
        "the hub echoed secrets, so some message must show a scrubbed one: {messages:#?}"
    );

    let logs = capture.text();
    // The capture works at TRACE and saw the whole scenario.
    for expected in [
        "sending hub request",
        "hub call succeeded",
        "revokeCredentials",
        "createWebhook",
        "storage token refresh failed",
        "[redacted]",
    ] {
        assert!(
            logs.contains(expected),
            "`{expected}` missing from the logs:\n{logs}"
        );
    }

    let secrets: Vec<&str> = [HUB_TOKEN, WEBHOOK_SECRET, JOB_SECRET, STORAGE_TOKEN]
        .into_iter()
        .chain(REVOKED)
        .collect();
    for secret in &secrets {
        assert!(
            !logs.contains(secret),
            "`{secret}` leaked into the logs:\n{logs}"
        );
        for message in &messages {
            assert!(
                !message.contains(secret),
                "`{secret}` leaked into an error: {message}"
            );
        }
    }
}
