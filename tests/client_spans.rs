//! The tracing spans of the client: one `hub_request` per call (operation, method, path) and one
//! `hub_attempt` per attempt (attempt number, status, the hub's request id), with no secret in
//! any of them.
//!
//! One test in its own binary: tracing caches per call site whether anyone listens, and another
//! test's thread hitting a call site without a subscriber while this one installs its own could
//! make the spans vanish from the capture.

mod client_support;

use std::time::Duration;

use client_support::bodies::mcp_body;
use client_support::{Capture, Counter, HUB_TOKEN, Reply, StubHub};
use hub_api::{Client, RetryPolicy};

#[tokio::test]
async fn each_call_and_attempt_has_a_span_without_secrets() {
    let calls = Counter::default();
    let hub = StubHub::start(move |_| match calls.next() {
        0 => Reply::text(503, "busy"),
        _ => Reply::json(200, mcp_body()).header("x-request-id", "req-ok"),
    })
    .await;
    let capture = Capture::default();
    let writer = capture.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    // The test runs on a current-thread runtime, so the thread's subscriber sees everything.
    let _guard = tracing::subscriber::set_default(subscriber);
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .default_header("x-api-key", "DEFAULT_HEADER_SECRET")
        .retry(
            RetryPolicy::default()
                .initial_backoff(Duration::from_millis(10))
                .max_backoff(Duration::from_millis(20)),
        )
        .build()
        .expect("client");

    client.mcp_settings().await.expect("mcp");

    let logged = capture.text();
    assert!(
        logged.contains(
            "hub_request{operation=\"get_mcp_settings\" method=GET path=\"/api/settings/mcp\"}"
        ),
        "{logged}"
    );
    assert!(
        logged.contains("hub_attempt{attempt=1 status=503}"),
        "{logged}"
    );
    assert!(
        logged.contains("hub_attempt{attempt=2 status=200 request_id=\"req-ok\"}"),
        "{logged}"
    );
    assert!(!logged.contains(HUB_TOKEN), "{logged}");
    assert!(!logged.contains("DEFAULT_HEADER_SECRET"), "{logged}");
}
