//! Notifications and settings against a stub hub: the exact request of every operation, the
//! pagination of the stream and where it ends, selections by id or `applyToAll`, refusals
//! before sending, and status and decode errors.

mod client_support;

use client_support::{Reply, StubHub};
use futures_util::{StreamExt, TryStreamExt};
use hub_api::notifications::{Mention, NotificationFilter, NotificationSelection, ReadStatus};
use hub_api::{Error, types};
use serde_json::{Value, json};

/// An unread `repo` notification.
fn repo_notification(discussion_id: &str) -> Value {
    client_support::bodies::repo_notification(discussion_id, false)
}

/// A page of `size` repo notifications starting at `start`, out of `view` in the view.
fn page(start: usize, size: usize, view: usize) -> Value {
    let notifications: Vec<Value> = (start..start + size)
        .map(|index| repo_notification(&format!("{index:024x}")))
        .collect();
    json!({
        "notifications": notifications,
        "count": { "view": view, "unread": view, "all": view },
        "start": start
    })
}

fn page_number(request: &client_support::Recorded) -> usize {
    request
        .query_param("p")
        .and_then(|p| p.parse().ok())
        .expect("p is sent")
}

fn full_filter() -> NotificationFilter {
    NotificationFilter {
        read_status: Some(ReadStatus::Unread),
        repo_type: Some(types::RepoType::Model),
        repo_name: Some("acme/bert-tiny".into()),
        post_author: Some("ada".into()),
        paper_id: Some("2411.01234".into()),
        article_id: Some("fine-tuning".into()),
        mention: Some(Mention::Participating),
        last_update: Some("2026-11-01T00:00:00Z".parse().expect("timestamp")),
    }
}

fn discussion_id(notification: &types::Notification) -> String {
    match notification {
        types::Notification::Repo(repo) => repo.discussion.id.to_string(),
        other => panic!("expected a repo notification, got {other:?}"),
    }
}

#[tokio::test]
async fn list_sends_every_filter_and_decodes_every_kind() {
    let example = json!({
        "notifications": [
            {
                "type": "paper", "updatedAt": "2026-11-02T09:15:00.000Z", "read": false,
                "discussionEventId": "6729a1f0c3d4e5f6a7b8c901",
                "paper": { "_id": "6729a1f0c3d4e5f6a7b8c902", "title": "Scaling Laws" },
                "paperDiscussion": {
                    "id": "6729a1f0c3d4e5f6a7b8c903", "paperId": "6729a1f0c3d4e5f6a7b8c902",
                    "participating": [{ "_id": "5f1e2d3c4b5a69788796a5b4", "avatar": "a.svg", "user": "ada" }]
                }
            },
            repo_notification("6729a1f0c3d4e5f6a7b8c904"),
            {
                "type": "post", "updatedAt": "2026-10-30T07:00:00Z", "read": false,
                "post": { "id": "p1", "slug": "907134551234567", "authorName": "ada", "title": "Tokenizer", "participating": [] }
            },
            {
                "type": "community_blog", "updatedAt": "2026-10-29T12:30:00Z", "read": true,
                "blog": { "id": "b1", "slug": "budget", "title": "Budget", "canonical": false, "participating": [] }
            }
        ],
        "count": { "view": 4, "unread": 2, "all": 4 },
        "start": 0
    });
    let hub = StubHub::always(Reply::json(200, example)).await;

    let list = hub
        .client()
        .list_notifications(&full_filter(), 2)
        .await
        .expect("list");

    let request = hub.only_request();
    assert_eq!(request.method, "GET");
    assert_eq!(request.path, "/api/notifications");
    assert_eq!(
        request.query.as_deref(),
        Some(
            "articleId=fine-tuning&lastUpdate=2026-11-01T00%3A00%3A00Z&mention=participating&p=2\
             &paperId=2411.01234&postAuthor=ada&readStatus=unread&repoName=acme%2Fbert-tiny&repoType=model"
        )
    );
    assert_eq!(request.header("accept"), Some("application/json"));
    assert!(request.body.is_empty());
    request.assert_authenticated();

    let kinds: Vec<&str> = list
        .notifications
        .iter()
        .map(|notification| match notification {
            types::Notification::Paper(_) => "paper",
            types::Notification::Repo(_) => "repo",
            types::Notification::Post(_) => "post",
            types::Notification::CommunityBlog(_) => "community_blog",
            _ => "unknown",
        })
        .collect();
    assert_eq!(kinds, ["paper", "repo", "post", "community_blog"]);
    assert_eq!(list.count.unread, 2.0);
}

#[tokio::test]
async fn list_without_filters_sends_only_the_page() {
    let hub = StubHub::always(Reply::json(200, page(0, 0, 0))).await;
    hub.client()
        .list_notifications(&NotificationFilter::default(), 0)
        .await
        .expect("list");
    assert_eq!(hub.only_request().query.as_deref(), Some("p=0"));
}

#[tokio::test]
async fn stream_walks_pages_until_the_view_count_is_reached() {
    // 5 notifications in pages of 2: p=0 and p=1 hold 2, p=2 holds the last one.
    let hub = StubHub::start(|request| {
        let p = page_number(request);
        Reply::json(200, page(p * 2, if p < 2 { 2 } else { 1 }, 5))
    })
    .await;
    let filter = NotificationFilter {
        read_status: Some(ReadStatus::Unread),
        ..Default::default()
    };

    let notifications: Vec<types::Notification> = hub
        .client()
        .notifications(filter)
        .try_collect()
        .await
        .expect("stream");

    let ids: Vec<String> = notifications.iter().map(discussion_id).collect();
    let expected: Vec<String> = (0..5).map(|index| format!("{index:024x}")).collect();
    assert_eq!(ids, expected);
    let requests = hub.requests();
    let queries: Vec<&str> = requests
        .iter()
        .map(|request| request.query.as_deref().unwrap_or(""))
        .collect();
    // No fourth request: the third page reached count.view.
    assert_eq!(
        queries,
        [
            "p=0&readStatus=unread",
            "p=1&readStatus=unread",
            "p=2&readStatus=unread"
        ]
    );
    for request in &requests {
        assert_eq!(request.path, "/api/notifications");
        request.assert_authenticated();
    }
}

#[tokio::test]
async fn stream_stops_at_an_empty_page_even_if_the_count_says_more() {
    let hub = StubHub::start(|request| match page_number(request) {
        0 => Reply::json(200, page(0, 2, 100)),
        _ => Reply::json(200, page(2, 0, 100)),
    })
    .await;

    let pages: Vec<hub_api::partial::Partial<types::NotificationList>> = hub
        .client()
        .notification_pages(NotificationFilter::default())
        .try_collect()
        .await
        .expect("stream");

    assert_eq!(pages.len(), 1, "the empty page is not yielded");
    assert_eq!(hub.requests().len(), 2);
}

#[tokio::test]
async fn an_empty_inbox_streams_nothing_after_one_request() {
    let hub = StubHub::always(Reply::json(200, page(0, 0, 0))).await;
    let count = hub
        .client()
        .notifications(NotificationFilter::default())
        .count()
        .await;
    assert_eq!(count, 0);
    assert_eq!(hub.requests().len(), 1);
}

#[tokio::test]
async fn stream_yields_the_error_and_ends() {
    let hub = StubHub::start(|request| match page_number(request) {
        0 => Reply::json(200, page(0, 2, 10)),
        _ => Reply::text(503, "maintenance"),
    })
    .await;

    // Without retries: the 503 is the stream's last item at once.
    let items: Vec<hub_api::Result<types::Notification>> = hub
        .client_without_retries()
        .notifications(NotificationFilter::default())
        .collect()
        .await;

    assert_eq!(
        items.len(),
        3,
        "two notifications, then the error, then the end"
    );
    assert!(items[0].is_ok() && items[1].is_ok());
    match &items[2] {
        Err(Error::Status {
            operation,
            status,
            body,
            ..
        }) => {
            assert_eq!(*operation, "listNotifications");
            assert_eq!(status.as_u16(), 503);
            assert_eq!(body.as_deref(), Some("maintenance"));
        }
        other => panic!("expected a status error, got {other:?}"),
    }
    assert_eq!(hub.requests().len(), 2);
}

#[tokio::test]
async fn mark_read_by_ids_sends_the_ids_without_apply_to_all() {
    let hub = StubHub::always(Reply::empty(200)).await;
    let selection = NotificationSelection::discussions([
        "6729a1f0c3d4e5f6a7b8c904",
        "6729a1f0c3d4e5f6a7b8c905",
    ]);

    hub.client()
        .mark_notifications_read(&selection, false)
        .await
        .expect("mark");

    let request = hub.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/api/notifications/mark-as-read");
    assert_eq!(request.query, None);
    assert_eq!(
        request.json(),
        json!({ "discussionIds": ["6729a1f0c3d4e5f6a7b8c904", "6729a1f0c3d4e5f6a7b8c905"], "read": false })
    );
    request.assert_authenticated();
}

#[tokio::test]
async fn mark_read_for_all_matching_sends_apply_to_all_with_the_filter() {
    let hub = StubHub::always(Reply::empty(204)).await;
    let selection = NotificationSelection::all_matching(NotificationFilter {
        repo_type: Some(types::RepoType::Dataset),
        mention: Some(Mention::Mentions),
        ..Default::default()
    });

    hub.client()
        .mark_notifications_read(&selection, true)
        .await
        .expect("mark");

    let request = hub.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/api/notifications/mark-as-read");
    assert_eq!(
        request.query.as_deref(),
        Some("applyToAll=true&mention=mentions&repoType=dataset")
    );
    assert_eq!(request.json(), json!({ "read": true }));
    request.assert_authenticated();
}

#[tokio::test]
async fn delete_by_ids_sends_the_ids() {
    let hub = StubHub::always(Reply::empty(200)).await;
    // Either case of hexadecimal is accepted for deletion.
    let selection = NotificationSelection::discussions(["6729A1F0C3D4E5F6A7B8C907"]);

    hub.client()
        .delete_notifications(&selection)
        .await
        .expect("delete");

    let request = hub.only_request();
    assert_eq!(request.method, "DELETE");
    assert_eq!(request.path, "/api/notifications");
    assert_eq!(request.query, None);
    assert_eq!(
        request.json(),
        json!({ "discussionIds": ["6729A1F0C3D4E5F6A7B8C907"] })
    );
    request.assert_authenticated();
}

#[tokio::test]
async fn delete_all_matching_sends_apply_to_all_with_the_filter() {
    let hub = StubHub::always(Reply::empty(200)).await;
    let selection = NotificationSelection::all_matching(NotificationFilter {
        read_status: Some(ReadStatus::All),
        repo_name: Some("acme/bert-tiny".into()),
        ..Default::default()
    });

    hub.client()
        .delete_notifications(&selection)
        .await
        .expect("delete");

    let request = hub.only_request();
    assert_eq!(request.method, "DELETE");
    assert_eq!(
        request.query.as_deref(),
        Some("applyToAll=true&readStatus=all&repoName=acme%2Fbert-tiny")
    );
    assert_eq!(request.json(), json!({}));
    request.assert_authenticated();
}

#[tokio::test]
async fn bad_input_is_refused_before_sending() {
    let hub = StubHub::always(Reply::empty(200)).await;
    let client = hub.client();

    let bad_id = NotificationSelection::discussions(["6729a1f0c3d4e5f6a7b8c904", "not-hex"]);
    let error = client.delete_notifications(&bad_id).await.err();
    assert!(
        matches!(&error, Some(Error::Validation { field, .. }) if field == "discussionIds[1]"),
        "{error:?}"
    );

    let short_id = NotificationSelection::discussions(["6729a1f0"]);
    assert!(matches!(
        client.delete_notifications(&short_id).await,
        Err(Error::Validation { .. })
    ));

    let none = NotificationSelection::discussions(Vec::<String>::new());
    for error in [
        client.delete_notifications(&none).await.err(),
        client.mark_notifications_read(&none, true).await.err(),
    ] {
        assert!(
            matches!(&error, Some(Error::Validation { field, rule }) if field == "discussionIds" && rule == "at least 1 item"),
            "{error:?}"
        );
    }

    let error = client
        .list_notifications(
            &NotificationFilter::default(),
            hub_api::notifications::MAX_PAGE + 1,
        )
        .await
        .err();
    assert!(
        matches!(&error, Some(Error::Validation { field, .. }) if field == "p"),
        "{error:?}"
    );

    assert!(hub.requests().is_empty(), "nothing may be sent");
}

#[tokio::test]
async fn the_last_page_number_is_accepted() {
    let hub = StubHub::always(Reply::json(200, page(0, 0, 0))).await;
    hub.client()
        .list_notifications(
            &NotificationFilter::default(),
            hub_api::notifications::MAX_PAGE,
        )
        .await
        .expect("list");
    assert_eq!(
        hub.only_request().query.as_deref(),
        Some("p=9007199254740991")
    );
}

#[tokio::test]
async fn notification_settings_are_patched() {
    let hub = StubHub::always(Reply::empty(200)).await;
    let settings = types::NotificationSettingsRequest::builder()
        .notifications(
            types::NotificationSettings::builder()
                .daily_papers_digest(Some(true))
                .discussions_watched(Some(false))
                .launch_prepaid_credits(Some(true)),
        )
        .prepaid_amount(Some("25.00".parse().expect("amount")));

    hub.client()
        .update_notification_settings(settings)
        .await
        .expect("update");

    let request = hub.only_request();
    assert_eq!(request.method, "PATCH");
    assert_eq!(request.path, "/api/settings/notifications");
    assert_eq!(request.query, None);
    assert_eq!(
        request.json(),
        json!({
            "notifications": { "daily_papers_digest": true, "discussions_watched": false, "launch_prepaid_credits": true },
            "prepaidAmount": "25.00"
        })
    );
    request.assert_authenticated();
}

#[tokio::test]
async fn incomplete_notification_settings_are_refused() {
    let hub = StubHub::always(Reply::empty(200)).await;
    // `notifications` is required.
    let settings = types::NotificationSettingsRequest::builder();

    let error = hub
        .client()
        .update_notification_settings(settings)
        .await
        .err();

    assert!(
        matches!(&error, Some(Error::Validation { field, rule }) if field == "notifications" && rule == "required"),
        "{error:?}"
    );
    assert!(hub.requests().is_empty());
}

#[test]
fn conversion_errors_of_generated_types_become_validation_errors() {
    // `prepaidAmount` is at most 24 characters; the generated type refuses more, and `?` turns
    // its error into ours.
    let error = "1"
        .repeat(25)
        .parse::<types::NotificationSettingsRequestPrepaidAmount>()
        .map_err(Error::from)
        .err();
    assert!(
        matches!(&error, Some(Error::Validation { rule, .. }) if rule.contains("24")),
        "{error:?}"
    );
}

#[tokio::test]
async fn watch_settings_are_patched() {
    let hub = StubHub::always(Reply::empty(200)).await;
    let watch: types::WatchSettingsRequest = serde_json::from_value(json!({
        "add": [{ "id": "5f1e2d3c4b5a69788796a5b5", "type": "org" }],
        "delete": [{ "id": "6729a1f0c3d4e5f6a7b8c908", "type": "repo" }]
    }))
    .expect("watch request");

    hub.client()
        .update_watch_settings(watch)
        .await
        .expect("update");

    let request = hub.only_request();
    assert_eq!(request.method, "PATCH");
    assert_eq!(request.path, "/api/settings/watch");
    assert_eq!(
        request.json(),
        json!({
            "add": [{ "id": "5f1e2d3c4b5a69788796a5b5", "type": "org" }],
            "delete": [{ "id": "6729a1f0c3d4e5f6a7b8c908", "type": "repo" }]
        })
    );
    request.assert_authenticated();
}

#[tokio::test]
async fn mcp_settings_are_read() {
    let hub = StubHub::always(Reply::json(
        200,
        json!({
            "builtInTools": ["hub_search", "paper_search"],
            "spaceTools": [{ "_id": "6729a1f0c3d4e5f6a7b8c909", "name": "acme/image-gen", "emoji": "🎨", "subdomain": "acme-image-gen" }]
        }),
    ))
    .await;

    let settings = hub.client().mcp_settings().await.expect("mcp settings");

    assert_eq!(settings.built_in_tools, ["hub_search", "paper_search"]);
    assert_eq!(settings.space_tools[0].subdomain, "acme-image-gen");
    let request = hub.only_request();
    assert_eq!(request.method, "GET");
    assert_eq!(request.path, "/api/settings/mcp");
    assert_eq!(request.query, None);
    request.assert_authenticated();
}

#[tokio::test]
async fn a_malformed_response_names_the_json_path() {
    let mut body = page(0, 1, 1);
    body["count"]["view"] = json!("one");
    let hub = StubHub::always(Reply::json(200, body)).await;

    let error = hub
        .client()
        .list_notifications(&NotificationFilter::default(), 0)
        .await
        .err();

    match error {
        Some(Error::Decode {
            operation, path, ..
        }) => {
            assert_eq!(operation, "listNotifications");
            assert_eq!(path, "count.view");
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

#[tokio::test]
async fn error_statuses_carry_the_body_text() {
    let hub = StubHub::always(Reply::text(500, "{\"error\":\"internal\"}")).await;

    let error = hub.client().mcp_settings().await.err();

    match &error {
        Some(Error::Status { status, body, .. }) => {
            assert_eq!(status.as_u16(), 500);
            assert_eq!(body.as_deref(), Some("{\"error\":\"internal\"}"));
        }
        other => panic!("expected a status error, got {other:?}"),
    }
    assert_eq!(
        error.map(|error| error.to_string()).as_deref(),
        Some("getMcpSettings: HTTP 500 Internal Server Error: {\"error\":\"internal\"}")
    );
}
