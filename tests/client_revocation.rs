//! Token revocation against a stub hub: no `Authorization` even with a token, batches of at most
//! 1,000 in order, 202 as success, length checks before sending, and errors that never carry a
//! token or the response body.

mod client_support;

use client_support::{HUB_TOKEN, Reply, StubHub};
use hub_api::Error;
use hub_api::revocation::RevocationReport;
use serde_json::json;

fn tokens(count: usize) -> Vec<String> {
    (0..count)
        .map(|index| format!("hub_leaked_{index:05}"))
        .collect()
}

fn credentials(request: &client_support::Recorded) -> Vec<String> {
    serde_json::from_value(request.json()["credentials"].clone()).expect("credentials array")
}

#[tokio::test]
async fn revocation_sends_no_authorization_even_with_a_token() {
    let hub = StubHub::always(Reply::empty(202)).await;
    let client = hub.client();
    assert!(client.is_authenticated());

    let report = client
        .revoke_credentials(["hub_leaked_a", "hub_leaked_b"])
        .await
        .expect("revoke");

    assert_eq!(
        report,
        RevocationReport {
            tokens: 2,
            requests: 1
        }
    );
    let request = hub.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/api/credentials/revoke");
    assert_eq!(request.query, None);
    assert_eq!(
        request.json(),
        json!({ "credentials": ["hub_leaked_a", "hub_leaked_b"] })
    );
    request.assert_anonymous();

    // The same client still authenticates its other calls.
    let _ = client.mcp_settings().await;
    let requests = hub.requests();
    assert_eq!(
        requests[1].header("authorization"),
        Some(format!("Bearer {HUB_TOKEN}").as_str())
    );
}

#[tokio::test]
async fn revocation_splits_2500_tokens_into_1000_1000_500() {
    let hub = StubHub::always(Reply::empty(202)).await;
    let given = tokens(2500);

    let report = hub
        .client()
        .revoke_credentials(given.clone())
        .await
        .expect("revoke");

    assert_eq!(
        report,
        RevocationReport {
            tokens: 2500,
            requests: 3
        }
    );
    let requests = hub.requests();
    let batches: Vec<Vec<String>> = requests.iter().map(credentials).collect();
    let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
    assert_eq!(sizes, [1000, 1000, 500]);
    assert_eq!(batches.concat(), given, "every token once, in order");
    for request in &requests {
        assert_eq!(request.path, "/api/credentials/revoke");
        request.assert_anonymous();
    }
}

#[tokio::test]
async fn exactly_1000_tokens_fit_one_request() {
    let hub = StubHub::always(Reply::empty(202)).await;
    let report = hub
        .client()
        .revoke_credentials(tokens(1000))
        .await
        .expect("revoke");
    assert_eq!(report.requests, 1);
    assert_eq!(credentials(&hub.only_request()).len(), 1000);
}

#[tokio::test]
async fn token_lengths_are_checked_before_anything_is_sent() {
    let hub = StubHub::always(Reply::empty(202)).await;
    let client = hub.client();

    // The bad token is in the second batch: the first must not be sent either.
    let mut too_long = tokens(1500);
    too_long[1200] = "x".repeat(201);
    let error = client.revoke_credentials(too_long).await.err();
    assert!(
        matches!(&error, Some(Error::Validation { field, rule }) if field == "credentials[1200]" && rule.contains("200 characters")),
        "{error:?}"
    );

    let error = client.revoke_credentials(["ok", ""]).await.err();
    assert!(
        matches!(&error, Some(Error::Validation { field, .. }) if field == "credentials[1]"),
        "{error:?}"
    );

    let error = client.revoke_credentials(Vec::<String>::new()).await.err();
    assert!(
        matches!(&error, Some(Error::Validation { field, .. }) if field == "credentials"),
        "{error:?}"
    );

    assert!(hub.requests().is_empty(), "nothing may be sent");
}

#[tokio::test]
async fn lengths_are_counted_in_characters() {
    let hub = StubHub::always(Reply::empty(202)).await;
    // 200 characters of two bytes each: within the limit.
    let wide = "é".repeat(200);
    hub.client()
        .revoke_credentials([wide.clone(), "x".repeat(200)])
        .await
        .expect("200 characters are accepted");
    assert_eq!(credentials(&hub.only_request()), [wide, "x".repeat(200)]);
}

#[tokio::test]
async fn a_refusal_withholds_the_body_and_never_shows_a_token() {
    // A hub that echoes the tokens in its error body.
    let hub =
        StubHub::start(|request| Reply::text(400, &String::from_utf8_lossy(&request.body))).await;

    let error = hub
        .client()
        .revoke_credentials(["hub_leaked_secret_value"])
        .await
        .expect_err("a 400 fails");

    match &error {
        Error::Status { status, body, .. } => {
            assert_eq!(status.as_u16(), 400);
            assert_eq!(*body, None);
        }
        other => panic!("expected a status error, got {other:?}"),
    }
    assert!(!error.to_string().contains("hub_leaked_secret_value"));
    assert!(!format!("{error:?}").contains("hub_leaked_secret_value"));
}

#[tokio::test]
async fn only_202_is_success() {
    let hub = StubHub::always(Reply::empty(200)).await;
    let error = hub.client().revoke_credentials(["hub_leaked"]).await.err();
    assert_eq!(
        error.and_then(|error| error.status()).map(|s| s.as_u16()),
        Some(200)
    );
}

#[tokio::test]
async fn a_failed_later_batch_reports_what_was_revoked() {
    let counter = std::sync::Arc::new(client_support::Counter::default());
    let hub = StubHub::start(move |_| match counter.next() {
        0 => Reply::empty(202),
        _ => Reply::text(503, "try later"),
    })
    .await;

    let error = hub.client().revoke_credentials(tokens(2500)).await.err();

    match &error {
        Some(Error::RevocationIncomplete {
            accepted,
            total,
            source,
            ..
        }) => {
            assert_eq!((*accepted, *total), (1000, 2500));
            assert_eq!(source.status().map(|s| s.as_u16()), Some(503));
        }
        other => panic!("expected an incomplete revocation, got {other:?}"),
    }
    assert_eq!(hub.requests().len(), 2, "the third batch is not sent");
}

#[tokio::test]
async fn a_failed_first_batch_is_reported_as_itself() {
    let hub = StubHub::always(Reply::text(500, "down")).await;
    let error = hub.client().revoke_credentials(tokens(1500)).await.err();
    assert!(
        matches!(&error, Some(Error::Status { status, body: None, .. }) if status.as_u16() == 500),
        "{error:?}"
    );
    assert_eq!(hub.requests().len(), 1);
}
