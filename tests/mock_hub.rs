//! The mock hub users start in their own tests (`hub_api::mock`, feature `test-util`): canned,
//! sequenced and computed answers, routes by method, path template and query, the 404 for
//! anything unexpected, what it records and what its `Debug` never shows, and that it stops
//! when dropped or shut down.

#[path = "client_support/bodies.rs"]
mod bodies;

use std::time::{Duration, Instant};

use bodies::repo_notification;
use hub_api::mock::{Method, MockHub, MockResponse, notification_page};
use hub_api::notifications::{NotificationFilter, NotificationSelection};
use hub_api::{Error, RetryPolicy, types};
use serde_json::{Value, json};

fn mcp_settings() -> Value {
    json!({
        "builtInTools": ["hub_search", "paper_search"],
        "spaceTools": [{ "_id": "6729a1f0c3d4e5f6a7b8c909", "name": "acme/image-gen", "emoji": "🎨", "subdomain": "acme-image-gen" }]
    })
}

/// Asks the mock for `path` with a plain HTTP client (no retries, no decoding), to see its
/// answer as sent.
async fn raw_get(mock: &MockHub, path: &str) -> reqwest::Response {
    // Building a hub client installs the TLS crypto provider, without which reqwest (built
    // with `rustls-no-provider`) cannot build a client at all.
    let _ = mock.client();
    reqwest::Client::new()
        .get(format!("{}{path}", mock.url()))
        .send()
        .await
        .expect("the mock answers")
}

#[tokio::test]
async fn a_canned_answer_is_decoded_by_the_client() {
    let mock = MockHub::start().await;
    let route = mock
        .on(Method::GET, "/api/settings/mcp")
        .respond(200, mcp_settings());

    let settings = mock.client().mcp_settings().await.expect("mcp settings");

    assert_eq!(settings.built_in_tools, ["hub_search", "paper_search"]);
    assert_eq!(settings.space_tools[0].subdomain, "acme-image-gen");
    assert_eq!(route.calls(), 1);
    // A canned answer repeats.
    mock.client().mcp_settings().await.expect("again");
    assert_eq!(route.calls(), 2);
    assert!(mock.unmatched().is_empty());
}

#[tokio::test]
async fn canned_headers_are_sent() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp").reply(
        MockResponse::hub_error(429, "slow down")
            .retry_after(7)
            .request_id("req-42")
            .header("x-extra", "one")
            .header("x-extra", "two"),
    );

    let response = raw_get(&mock, "/api/settings/mcp").await;
    assert_eq!(response.status(), 429);
    let headers = response.headers();
    assert_eq!(headers["retry-after"], "7");
    assert_eq!(headers["x-request-id"], "req-42");
    assert_eq!(headers["content-type"], "application/json");
    let extra: Vec<_> = headers.get_all("x-extra").iter().collect();
    assert_eq!(extra, ["one", "two"]);
    assert_eq!(
        response.json::<Value>().await.expect("JSON"),
        json!({ "error": "slow down" })
    );
}

#[tokio::test]
async fn a_long_retry_after_ends_the_retries_at_once() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .reply(MockResponse::hub_error(503, "maintenance").retry_after(30));

    let started = Instant::now();
    let error = mock.client().mcp_settings().await.expect_err("503");

    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the client slept"
    );
    assert!(
        matches!(&error, Error::Status { status, .. } if status.as_u16() == 503),
        "{error:?}"
    );
    assert_eq!(error.retry_after(), Some(Duration::from_secs(30)));
    assert_eq!(mock.requests().len(), 1);
}

#[tokio::test]
async fn a_sequence_answers_in_order_and_a_503_is_retried() {
    let mock = MockHub::start().await;
    let route = mock.on(Method::GET, "/api/notifications").respond_seq([
        MockResponse::hub_error(503, "busy"),
        MockResponse::hub_error(503, "still busy").retry_after(0),
        MockResponse::json(
            200,
            notification_page([
                repo_notification("6729a1f0c3d4e5f6a7b8c904", false),
                repo_notification("6729a1f0c3d4e5f6a7b8c905", true),
            ]),
        ),
    ]);

    let started = Instant::now();
    let page = mock
        .client()
        .list_notifications(&NotificationFilter::default(), 0)
        .await
        .expect("third attempt succeeds");

    assert!(
        started.elapsed() < Duration::from_secs(1),
        "retries are fast"
    );
    assert_eq!(page.notifications.len(), 2);
    assert_eq!(page.count.unread, 1.0);
    assert_eq!(route.calls(), 3);
    assert_eq!(mock.requests().len(), 3);
}

#[tokio::test]
async fn a_used_up_sequence_falls_through() {
    let mock = MockHub::start().await;
    // The earlier route is the fallback; the sequence (newer) is tried first.
    let fallback = mock
        .on(Method::GET, "/api/settings/mcp")
        .reply(MockResponse::hub_error(500, "fallback"));
    let sequence = mock
        .on(Method::GET, "/api/settings/mcp")
        .respond_seq([MockResponse::json(200, mcp_settings())]);

    mock.client()
        .mcp_settings()
        .await
        .expect("from the sequence");
    let error = mock.client().mcp_settings().await.expect_err("fallback");

    assert_eq!(error.status().map(|status| status.as_u16()), Some(500));
    assert_eq!((sequence.calls(), fallback.calls()), (1, 1));

    // Without a fallback, a used-up sequence leaves the request unmatched.
    let mock = MockHub::start().await;
    mock.on(Method::POST, "/api/credentials/revoke")
        .respond_seq([MockResponse::empty(202)]);
    let client = mock.client();
    client
        .revoke_credentials(["hub_leaked_one"])
        .await
        .expect("202");
    let error = client
        .revoke_credentials(["hub_leaked_two"])
        .await
        .expect_err("unmatched");
    assert_eq!(error.status().map(|status| status.as_u16()), Some(404));
    assert_eq!(mock.unmatched().len(), 1);
}

#[tokio::test]
async fn a_later_route_overrides_an_earlier_one() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .respond(200, mcp_settings());
    mock.on(Method::GET, "/api/settings/mcp")
        .reply(MockResponse::hub_error(403, "forbidden"));

    let error = mock.client().mcp_settings().await.expect_err("403");
    assert_eq!(error.status().map(|status| status.as_u16()), Some(403));
}

#[tokio::test]
async fn a_closure_answers_from_the_request() {
    let mock = MockHub::start().await;
    // Three pages of one notification each, chosen by the page parameter.
    let route = mock
        .on(Method::GET, "/api/notifications")
        .respond_with(|request| {
            let page: usize = request
                .query_param("p")
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            MockResponse::json(
                200,
                json!({
                    "notifications": [repo_notification(&format!("{page:024x}"), false)],
                    "count": { "view": 3, "unread": 3, "all": 3 },
                    "start": page,
                }),
            )
            .request_id(&format!("page-{page}"))
        });

    let all: Vec<types::Notification> = futures_util::TryStreamExt::try_collect(
        mock.client().notifications(NotificationFilter::default()),
    )
    .await
    .expect("three pages");

    assert_eq!(all.len(), 3);
    assert_eq!(route.calls(), 3);
    let pages: Vec<_> = mock
        .requests()
        .iter()
        .map(|request| request.query_param("p"))
        .collect();
    assert_eq!(
        pages,
        [Some("0".into()), Some("1".into()), Some("2".into())]
    );
}

#[tokio::test]
async fn a_panicking_closure_is_a_500() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .respond_with(|_| panic!("the test's responder broke"));

    let response = raw_get(&mock, "/api/settings/mcp").await;

    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.expect("JSON");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|error| error.contains("panicked")),
        "{body}"
    );
    // The mock still serves, and still records.
    assert_eq!(raw_get(&mock, "/api/settings/mcp").await.status(), 500);
    assert_eq!(mock.requests().len(), 2);
}

#[tokio::test]
async fn path_templates_and_query_parameters_select_the_route() {
    let mock = MockHub::start().await;
    let any_webhook = mock
        .on(Method::DELETE, "/api/settings/webhooks/{webhookId}")
        .reply(MockResponse::empty(204));
    let second_page = mock
        .on(Method::GET, "/api/notifications")
        .query("p", "1")
        .respond(200, notification_page([]));
    let client = mock.client();

    client
        .delete_webhook("6729a1f0c3d4e5f6a7b8c90a")
        .await
        .expect("deleted");
    client
        .list_notifications(&NotificationFilter::default(), 1)
        .await
        .expect("page 1");
    // Page 0 is not the route's query.
    let error = client
        .list_notifications(&NotificationFilter::default(), 0)
        .await
        .expect_err("page 0 is unmatched");

    assert_eq!(any_webhook.calls(), 1);
    assert_eq!(second_page.calls(), 1);
    assert_eq!(error.status().map(|status| status.as_u16()), Some(404));
    let unmatched = mock.unmatched();
    assert_eq!(unmatched.len(), 1);
    assert_eq!(unmatched[0].query_param("p").as_deref(), Some("0"));
    // The method is part of the route.
    assert_eq!(
        raw_get(&mock, "/api/settings/webhooks/6729a1f0c3d4e5f6a7b8c90a")
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn an_unmatched_request_is_a_404_naming_it_and_is_recorded() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .respond(200, mcp_settings());

    let response = raw_get(&mock, "/api/settings/webhooks?x=1").await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["method"], "GET");
    assert_eq!(body["path"], "/api/settings/webhooks");
    assert_eq!(
        body["error"],
        "hub-api mock: no route for GET /api/settings/webhooks"
    );

    // Through the client, the 404 is an error whose body names the call.
    let error = mock.client().list_webhooks().await.expect_err("404");
    assert!(
        error.to_string().contains("/api/settings/webhooks"),
        "{error}"
    );

    let unmatched = mock.unmatched();
    assert_eq!(unmatched.len(), 2);
    assert_eq!(unmatched[0].query(), Some("x=1"));
    assert_eq!(mock.requests().len(), 2);
    mock.clear_requests();
    assert!(mock.requests().is_empty() && mock.unmatched().is_empty());
}

#[tokio::test]
async fn requests_are_recorded_as_sent() {
    let mock = MockHub::start().await;
    mock.on(Method::POST, "/api/notifications/mark-as-read")
        .reply(MockResponse::empty(200));

    mock.client()
        .mark_notifications_read(
            &NotificationSelection::discussions(["6729a1f0c3d4e5f6a7b8c904"]),
            true,
        )
        .await
        .expect("marked");

    let requests = mock.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(*request.method(), Method::POST);
    assert_eq!(request.path(), "/api/notifications/mark-as-read");
    assert_eq!(request.query(), None);
    assert!(request.query_pairs().is_empty());
    assert_eq!(request.header("Content-Type"), Some("application/json"));
    assert_eq!(
        request.header("user-agent"),
        Some(hub_api::DEFAULT_USER_AGENT)
    );
    assert!(request.has_bearer_token(MockHub::TOKEN));
    assert!(!request.has_bearer_token("hub_other"));
    assert_eq!(
        request.bearer_token(),
        Some(hub_api::Secret::new(MockHub::TOKEN))
    );
    assert_eq!(
        request.json().expect("JSON"),
        json!({ "discussionIds": ["6729a1f0c3d4e5f6a7b8c904"], "read": true })
    );
    let typed: types::MarkAsReadRequest = request.json_as().expect("the generated type");
    assert!(typed.read);
    assert!(!request.body().is_empty());
}

#[tokio::test]
async fn debug_never_shows_the_token_or_the_body() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .respond(200, mcp_settings());
    mock.on(Method::POST, "/api/credentials/revoke")
        .reply(MockResponse::empty(202));
    let leaked = "hub_leaked_SECRET_0123456789";

    let client = mock.client();
    client.mcp_settings().await.expect("mcp");
    client.revoke_credentials([leaked]).await.expect("revoked");

    let requests = mock.requests();
    let authenticated = &requests[0];
    assert!(authenticated.headers().get("authorization").is_some());
    for shown in [
        format!("{authenticated:?}"),
        format!("{authenticated:#?}"),
        format!("{:?}", authenticated.headers()),
        format!("{:?}", authenticated.bearer_token()),
        format!("{requests:?}"),
        format!("{mock:?}"),
    ] {
        assert!(!shown.contains(MockHub::TOKEN), "{shown}");
        assert!(!shown.contains(leaked), "{shown}");
    }
    let shown = format!("{authenticated:?}");
    assert!(
        shown.contains(r#""authorization": "[redacted]""#),
        "{shown}"
    );
    assert!(shown.contains(r#""/api/settings/mcp""#), "{shown}");
    let revocation = format!("{:?}", requests[1]);
    assert!(
        revocation.contains("body: [") && revocation.contains(" bytes]"),
        "{revocation}"
    );
    // The accessors still give the values to assert on.
    assert_eq!(
        requests[1].json().expect("JSON")["credentials"][0],
        json!(leaked)
    );
}

#[tokio::test]
async fn a_delayed_answer_times_the_client_out() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .reply(MockResponse::json(200, mcp_settings()).delay(Duration::from_secs(5)));
    let client = mock
        .client_builder()
        .timeout(Duration::from_millis(200))
        .retry(RetryPolicy::none())
        .build()
        .expect("client");

    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("timeout");

    assert!(matches!(error, Error::Timeout { .. }), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

/// Connects to `address` until it is refused; the drop takes effect when the runtime next runs
/// the aborted server task, so this yields between attempts. A connection the closing listener
/// had queued is reset rather than refused, so that is tried again.
async fn refused_within(address: std::net::SocketAddr, limit: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        match tokio::net::TcpStream::connect(address).await {
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionRefused => return true,
            Err(_) => {}
            Ok(stream) => drop(stream),
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn dropping_the_mock_stops_the_server() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .respond(200, mcp_settings());
    let address = mock.address();
    assert_eq!(mock.url(), format!("http://{address}"));
    // A client with a kept-alive connection to the mock.
    let client = mock
        .client_builder()
        .retry(RetryPolicy::none())
        .build()
        .expect("client");
    client.mcp_settings().await.expect("served");

    drop(mock);

    assert!(
        refused_within(address, Duration::from_secs(2)).await,
        "still accepting after drop"
    );
    // The pooled connection was closed with the server: the call fails, it does not hang.
    let error = client.mcp_settings().await.expect_err("server gone");
    assert!(
        matches!(error, Error::Transport { .. } | Error::Timeout { .. }),
        "{error:?}"
    );
}

#[tokio::test]
async fn shutdown_closes_the_port_before_returning() {
    let mock = MockHub::try_start().await.expect("starts");
    let address = mock.address();
    assert_eq!(raw_get(&mock, "/anything").await.status(), 404);

    mock.shutdown().await;

    let error = tokio::net::TcpStream::connect(address)
        .await
        .expect_err("refused at once");
    assert_eq!(error.kind(), std::io::ErrorKind::ConnectionRefused);
}

#[test]
fn the_mock_can_be_shared_across_tasks() {
    // A test may hand the mock (or its recordings) to spawned tasks.
    fn send_sync<T: Send + Sync + 'static>() {}
    send_sync::<MockHub>();
    send_sync::<hub_api::mock::MockRequest>();
    send_sync::<MockResponse>();
    send_sync::<hub_api::mock::MockRoute>();
    send_sync::<hub_api::mock::MockError>();
}

#[tokio::test]
async fn as_sent_records_the_bodies_the_call_read() {
    // Issue 43: `hub` prints what the hub sent, not the typed value serialized again.
    let mock = MockHub::start().await;
    let sent = r#"{"builtInTools":["hub_search"],"spaceTools":[],"addedLater":1.50}"#;
    mock.on(Method::GET, "/api/settings/mcp").respond_seq([
        MockResponse::hub_error(503, "maintenance"),
        MockResponse::text(200, sent).header("content-type", "application/json"),
    ]);
    let client = mock.client();
    let (settings, bodies) = hub_api::as_sent::recording(client.mcp_settings()).await;
    assert_eq!(settings.expect("decoded").built_in_tools, ["hub_search"]);
    assert_eq!(
        bodies,
        [sent.as_bytes()],
        "the 200's body, byte for byte; not the 503's"
    );

    // An error records nothing; outside `recording` nothing is kept.
    mock.on(Method::GET, "/api/settings/mcp")
        .reply(MockResponse::hub_error(404, "gone"));
    let (error, bodies) = hub_api::as_sent::recording(client.mcp_settings()).await;
    assert!(error.is_err());
    assert!(bodies.is_empty());
}
