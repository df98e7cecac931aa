//! Tests a piece of application code against the mock hub (feature `test-util`) instead of the
//! real hub: no network, no token, and retries that take milliseconds.
//!
//! ```sh
//! cargo run --example mock_hub --features test-util
//! ```
//!
//! In a real project the body of `main` is a `#[tokio::test]` in `tests/`; here it prints what
//! it checks.

use futures_util::TryStreamExt;
use hub_api::mock::{Method, MockHub, MockResponse, notification_page};
use hub_api::notifications::{NotificationExt, NotificationFilter, NotificationSelection};
use hub_api::{Client, Result};
use serde_json::json;

/// The application code under test: marks every unread notification read and returns how many
/// it marked.
async fn mark_all_unread_read(client: &Client) -> Result<usize> {
    let unread: Vec<_> = client
        .notifications(NotificationFilter::unread())
        .try_collect()
        .await?;
    let ids: Vec<String> = unread
        .iter()
        .filter_map(|notification| notification.discussion_id().map(str::to_owned))
        .collect();
    if !ids.is_empty() {
        client
            .mark_notifications_read(&NotificationSelection::discussions(ids.clone()), true)
            .await?;
    }
    Ok(ids.len())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let mock = MockHub::start().await;
    println!("mock hub at {}", mock.url());

    // The hub is busy once (with a request id, as the hub sends), then lists one notification.
    let unread = json!({
        "type": "repo",
        "updatedAt": "2026-11-01T18:42:07Z",
        "read": false,
        "repo": { "name": "acme/bert-tiny", "type": "model" },
        "discussion": {
            "num": 12, "title": "Add safetensors weights", "status": "open",
            "id": "6729a1f0c3d4e5f6a7b8c904", "isPullRequest": true, "participating": []
        }
    });
    let listing = mock.on(Method::GET, "/api/notifications").respond_seq([
        MockResponse::hub_error(503, "maintenance").request_id("req-1"),
        MockResponse::json(200, notification_page([unread])),
    ]);
    let marking = mock
        .on(Method::POST, "/api/notifications/mark-as-read")
        .reply(MockResponse::empty(200));

    let marked = mark_all_unread_read(&mock.client()).await?;

    assert_eq!(marked, 1);
    assert_eq!(listing.calls(), 2, "the 503 was retried");
    assert_eq!(marking.calls(), 1);
    assert!(
        mock.unmatched().is_empty(),
        "unexpected calls: {:?}",
        mock.unmatched()
    );
    for request in mock.requests() {
        // `Debug` hides the token and the body; the accessors show them to assertions.
        println!("{request:?}");
        assert!(request.has_bearer_token(MockHub::TOKEN));
    }
    let mark = &mock.requests()[2];
    assert_eq!(
        mark.json()?,
        json!({ "discussionIds": ["6729a1f0c3d4e5f6a7b8c904"], "read": true })
    );
    println!("marked {marked} notification read; every check passed");

    mock.shutdown().await;
    Ok(())
}
