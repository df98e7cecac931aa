//! The hub's request id (`x-request-id`) in every error built from an answer of the hub:
//! statuses, a body that does not decode (whole, or one item of a list), a body over the size
//! limit, a body that stalls or breaks off after the head; of a retried call, the last
//! attempt's; scrubbed like any text from the server. (The storage-token errors are in
//! `storage_tokens.rs`.)

mod client_support;

use client_support::bodies::mcp_body;
use client_support::raw::{self, Connection, RawHub};
use client_support::{Counter, HUB_TOKEN, Reply, StubHub, quick_retries};
use futures_util::StreamExt;
use hub_api::notifications::NotificationFilter;
use hub_api::{Client, Error};
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn the_hub_request_id_is_kept_in_errors() {
    let hub = StubHub::start(|request| match request.path.as_str() {
        "/api/settings/mcp" => Reply::text(404, "no such thing").header("x-request-id", "req-123"),
        _ => Reply::text(401, "who are you").header("x-request-id", "req-401"),
    })
    .await;
    let client = hub.client_without_retries();

    let error = client.mcp_settings().await.expect_err("404");
    assert_eq!(error.request_id(), Some("req-123"));
    assert!(
        error.to_string().contains("(request id req-123)"),
        "{error}"
    );

    let error = client.list_webhooks().await.expect_err("401");
    assert!(matches!(&error, Error::Unauthorized { .. }), "{error:?}");
    assert_eq!(error.request_id(), Some("req-401"));
    assert!(error.to_string().contains("req-401"), "{error}");

    // An id that echoes the token is scrubbed like any text from the server; one that is not
    // an id (too long) is dropped.
    let hub = StubHub::start(|request| match request.path.as_str() {
        "/api/settings/mcp" => Reply::text(500, "").header("x-request-id", HUB_TOKEN),
        _ => Reply::text(500, "").header("x-request-id", "x".repeat(500)),
    })
    .await;
    let client = hub.client_without_retries();
    let error = client.mcp_settings().await.expect_err("500");
    assert_eq!(error.request_id(), Some("[redacted]"));
    let error = client.list_webhooks().await.expect_err("500");
    assert_eq!(error.request_id(), None);
}

#[tokio::test]
async fn a_body_that_does_not_decode_carries_the_request_id() {
    let hub = StubHub::start(|request| match request.path.as_str() {
        "/api/settings/mcp" => Reply::json(200, json!({ "builtInTools": 5, "spaceTools": [] }))
            .header("x-request-id", "req-decode"),
        _ => Reply::json(200, json!({ "notifications": [] })).header("x-request-id", HUB_TOKEN),
    })
    .await;
    let client = hub.client_without_retries();

    let error = client
        .mcp_settings()
        .await
        .expect_err("not the spec's shape");
    assert!(
        matches!(&error, Error::Decode { path, .. } if path == "builtInTools"),
        "{error:?}"
    );
    assert_eq!(error.request_id(), Some("req-decode"));
    assert!(
        error.to_string().ends_with("(request id req-decode)"),
        "{error}"
    );

    // The hub token echoed as the id is scrubbed, in the error and its `Debug`.
    let error = client
        .list_notifications(&NotificationFilter::default(), 0)
        .await
        .expect_err("no count");
    assert!(matches!(&error, Error::Decode { .. }), "{error:?}");
    assert_eq!(error.request_id(), Some("[redacted]"));
    assert!(!format!("{error} {error:?}").contains(HUB_TOKEN));
}

#[tokio::test]
async fn an_item_that_does_not_decode_carries_the_request_id() {
    let page = json!({
        "notifications": [client_support::bodies::repo_notification("6729a1f0c3d4e5f6a7b8c904", false), { "type": "repo" }],
        "count": { "view": 2, "unread": 2, "all": 2 },
        "start": 0
    });
    let hub = StubHub::always(Reply::json(200, page).header("x-request-id", "req-page")).await;
    let client = hub.client_without_retries();

    let list = client
        .list_notifications(&NotificationFilter::default(), 0)
        .await
        .expect("the good item is kept");
    assert_eq!(list.notifications.len(), 1);
    assert_eq!(list.invalid.len(), 1);
    assert_eq!(list.invalid[0].request_id.as_deref(), Some("req-page"));
    assert!(
        list.invalid[0]
            .to_string()
            .ends_with("(request id req-page)")
    );

    // The stream yields the bad item as an error in its place.
    let items: Vec<_> = client
        .notifications(NotificationFilter::default())
        .collect()
        .await;
    let error = items
        .into_iter()
        .find_map(Result::err)
        .expect("the bad item as an error");
    assert!(matches!(&error, Error::InvalidItem(_)), "{error:?}");
    assert_eq!(error.request_id(), Some("req-page"));
}

#[tokio::test]
async fn a_body_over_the_limit_carries_the_request_id() {
    let hub =
        StubHub::always(Reply::json(200, mcp_body()).header("x-request-id", "req-large")).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .max_response_bytes(8)
        .build()
        .expect("client");

    let error = client.mcp_settings().await.expect_err("too large");
    assert!(
        matches!(&error, Error::ResponseTooLarge { .. }),
        "{error:?}"
    );
    assert_eq!(error.request_id(), Some("req-large"));
    assert!(
        error.to_string().ends_with("(request id req-large)"),
        "{error}"
    );
}

#[tokio::test]
async fn a_retried_call_reports_the_last_attempts_request_id() {
    let attempts = Counter::default();
    let hub = StubHub::start(move |_| match attempts.next() {
        0 => Reply::text(503, "busy").header("x-request-id", "req-first"),
        1 => Reply::text(503, "busy").header("x-request-id", "req-second"),
        // The last answer has no id: an earlier attempt's is not reported as its own.
        _ => Reply::text(503, "busy"),
    })
    .await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries().max_attempts(2))
        .build()
        .expect("client");

    let error = client.mcp_settings().await.expect_err("503");
    assert_eq!(hub.requests().len(), 2);
    assert_eq!(error.request_id(), Some("req-second"));

    let error = hub
        .client_without_retries()
        .mcp_settings()
        .await
        .expect_err("503");
    assert_eq!(error.request_id(), None);
}

#[tokio::test]
async fn errors_without_an_answer_have_no_request_id() {
    let client = Client::builder("http://127.0.0.1:9")
        .token(HUB_TOKEN)
        .retry(hub_api::RetryPolicy::none())
        .build()
        .expect("client");
    let error = client.mcp_settings().await.expect_err("nothing listens");
    assert!(matches!(&error, Error::Transport { .. }), "{error:?}");
    assert_eq!(error.request_id(), None);
    let error = client.get_webhook("").await.expect_err("refused");
    assert!(matches!(&error, Error::Validation { .. }), "{error:?}");
    assert_eq!(error.request_id(), None);
}

/// A hub that sends the head of a 200 (with a request id) and part of its body, then stalls
/// (`then_close: false`) or closes the connection.
fn body_broken_off(then_close: bool) -> RawHub {
    RawHub::start(move |mut connection: Connection| {
        let head = raw::head(
            200,
            &[
                "content-type: application/json",
                "content-length: 100",
                "x-request-id: req-partial",
            ],
        );
        if connection.send(&head) && connection.send(b"{\"builtInTools\": [") && !then_close {
            connection.hold(Duration::from_secs(10));
        }
    })
}

#[tokio::test]
async fn a_body_that_stalls_or_breaks_off_after_the_head_carries_the_request_id() {
    let hub = body_broken_off(false);
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .timeout(Duration::from_millis(300))
        .retry(hub_api::RetryPolicy::none())
        .build()
        .expect("client");
    let error = client.mcp_settings().await.expect_err("the body stalls");
    assert!(matches!(&error, Error::Timeout { .. }), "{error:?}");
    assert_eq!(error.request_id(), Some("req-partial"));
    assert!(
        error.to_string().contains("(request id req-partial)"),
        "{error}"
    );

    let hub = body_broken_off(true);
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(hub_api::RetryPolicy::none())
        .build()
        .expect("client");
    let error = client
        .mcp_settings()
        .await
        .expect_err("the body breaks off");
    assert!(matches!(&error, Error::Transport { .. }), "{error:?}");
    assert_eq!(error.request_id(), Some("req-partial"));
}
