//! Issue 31's client options against the stub hub: a `reqwest::Client` of the application's own,
//! default headers, the user-agent suffix, request hooks, per-client timeouts, the one retry
//! rule and its predicate, and the hub's request id in errors (the tracing spans are in
//! `client_spans.rs`, a binary of their own).

mod client_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client_support::bodies::mcp_body;
use client_support::{Counter, HUB_TOKEN, Reply, StubHub, quick_retries};
use hub_api::{Client, DEFAULT_USER_AGENT, Error, RetryPolicy};
use reqwest::header::HeaderValue;

// --- (a) the HTTP stack and per-request settings ---------------------------------------------

#[tokio::test]
async fn an_own_http_client_is_used_with_the_token_user_agent_and_headers_still_applied() {
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    let mut marker = reqwest::header::HeaderMap::new();
    marker.insert("x-own-stack", HeaderValue::from_static("yes"));
    let http = Client::http_client_builder()
        .user_agent("replaced/1.0")
        .default_headers(marker)
        .build()
        .expect("reqwest client");
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .http_client(http)
        .user_agent_suffix("my-tool/2.0")
        .default_header("X-Tenant", "acme")
        .build()
        .expect("client");

    client.mcp_settings().await.expect("mcp");

    let request = hub.only_request();
    assert_eq!(
        request.header("x-own-stack"),
        Some("yes"),
        "the own client sent it"
    );
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {HUB_TOKEN}").as_str())
    );
    assert_eq!(
        request.header("user-agent"),
        Some(format!("{DEFAULT_USER_AGENT} my-tool/2.0").as_str())
    );
    assert_eq!(request.header("x-tenant"), Some("acme"));
}

#[tokio::test]
async fn revocation_through_an_own_http_client_carries_no_token() {
    let hub = StubHub::always(Reply::empty(202)).await;
    let http = Client::http_client_builder()
        .build()
        .expect("reqwest client");
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .http_client(http)
        .build()
        .expect("client");
    client
        .revoke_credentials(["hub_leaked_one"])
        .await
        .expect("revoked");
    assert_eq!(hub.only_request().header("authorization"), None);
}

#[tokio::test]
async fn the_timeout_applies_to_an_own_http_client() {
    let hub = StubHub::always(Reply::json(200, mcp_body()).after(Duration::from_secs(5))).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .http_client(
            Client::http_client_builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("reqwest client"),
        )
        .timeout(Duration::from_millis(200))
        .retry(RetryPolicy::none())
        .build()
        .expect("client");
    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("times out");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(matches!(&error, Error::Timeout { .. }), "{error:?}");
}

#[tokio::test]
async fn the_user_agent_suffix_extends_a_replaced_user_agent_too() {
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    let client = Client::builder(&hub.base_url)
        .anonymous()
        .user_agent("base/1")
        .user_agent_suffix("first/1")
        .user_agent_suffix("tool/3")
        .build()
        .expect("client");
    client.mcp_settings().await.expect("mcp");
    assert_eq!(
        hub.only_request().header("user-agent"),
        Some("base/1 tool/3")
    );
}

#[test]
fn unusable_default_headers_are_refused_naming_the_header_not_the_value() {
    for (name, value) in [
        ("Authorization", "Bearer hub_SECRET_in_header"),
        ("proxy-authorization", "Basic SECRET"),
        ("Connection", "close"),
        ("transfer-encoding", "chunked"),
        ("Host", "evil.example"),
        ("user-agent", "x"),
        ("bad header", "x"),
        ("x-fine-name", "line\nbreak SECRET"),
    ] {
        let error = Client::builder("https://hub.example.com")
            .anonymous()
            .default_header(name, value)
            .build()
            .expect_err(name);
        let Error::Validation { field, .. } = &error else {
            panic!("{name}: {error:?}");
        };
        assert!(field.contains(name), "{name}: {field}");
        assert!(!error.to_string().contains("SECRET"), "{error}");
        assert!(!format!("{error:?}").contains("SECRET"), "{error:?}");
    }
    let builder = Client::builder("https://hub.example.com")
        .anonymous()
        .default_header("x-api-key", "SECRET_KEY");
    assert!(!format!("{builder:?}").contains("SECRET_KEY"));
    assert!(format!("{builder:?}").contains("x-api-key"));
    let error = Client::builder("https://hub.example.com")
        .anonymous()
        .user_agent_suffix("bad\nagent")
        .build()
        .expect_err("refused");
    assert!(matches!(&error, Error::Validation { field, .. } if field == "user_agent"));
}

#[tokio::test]
async fn an_operation_header_wins_over_a_default_header_and_one_name_keeps_one_value() {
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    let client = Client::builder(&hub.base_url)
        .anonymous()
        .default_header("x-tenant", "first")
        .default_header("X-Tenant", "second")
        .build()
        .expect("client");
    client.mcp_settings().await.expect("mcp");
    let request = hub.only_request();
    let values: Vec<_> = request.headers.get_all("x-tenant").iter().collect();
    assert_eq!(values, ["second"]);
}

#[tokio::test]
async fn the_request_hook_runs_once_per_attempt_on_a_fresh_request() {
    let calls = Counter::default();
    let hub = StubHub::start(move |_| match calls.next() {
        0 => Reply::text(503, "busy"),
        _ => Reply::json(200, mcp_body()),
    })
    .await;
    let hooked = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&hooked);
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries())
        .on_request(move |request| {
            let attempt = seen.fetch_add(1, Ordering::SeqCst) + 1;
            // The hook sees the request as it will be sent.
            assert!(request.headers().contains_key("authorization"));
            request.headers_mut().append(
                "x-signature",
                HeaderValue::from_str(&format!("attempt-{attempt}")).expect("header"),
            );
        })
        .build()
        .expect("client");

    client
        .mcp_settings()
        .await
        .expect("second attempt succeeds");

    assert_eq!(hooked.load(Ordering::SeqCst), 2);
    let signatures: Vec<Vec<String>> = hub
        .requests()
        .iter()
        .map(|request| {
            request
                .headers
                .get_all("x-signature")
                .iter()
                .map(|value| value.to_str().expect("ascii").to_owned())
                .collect()
        })
        .collect();
    assert_eq!(signatures, [vec!["attempt-1"], vec!["attempt-2"]]);
}

#[tokio::test]
async fn with_timeout_changes_only_the_derived_client() {
    let hub = StubHub::always(Reply::json(200, mcp_body()).after(Duration::from_millis(600))).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(RetryPolicy::none())
        .build()
        .expect("client");
    let hurried = client.with_timeout(Duration::from_millis(150));

    let error = hurried.mcp_settings().await.expect_err("times out");
    assert!(
        matches!(&error, Error::Timeout { limit, .. } if *limit == Duration::from_millis(150)),
        "{error:?}"
    );
    assert!(hurried.is_authenticated());
    client
        .mcp_settings()
        .await
        .expect("the original keeps its timeout");
    let requests = hub.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        request.assert_authenticated();
    }
}

// --- (c) retries ---------------------------------------------------------------------------

#[tokio::test]
async fn gateway_errors_on_reads_are_retried() {
    let calls = Counter::default();
    let hub = StubHub::start(move |_| match calls.next() {
        0 => Reply::text(502, "bad gateway"),
        1 => Reply::text(504, "gateway timeout"),
        _ => Reply::json(200, mcp_body()),
    })
    .await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries())
        .build()
        .expect("client");
    client.mcp_settings().await.expect("third attempt succeeds");
    assert_eq!(hub.requests().len(), 3);
}

#[tokio::test]
async fn a_post_that_timed_out_is_not_sent_again() {
    let hub = StubHub::always(Reply::empty(202).after(Duration::from_secs(2))).await;
    let client = Client::builder(&hub.base_url)
        .anonymous()
        .timeout(Duration::from_millis(150))
        .retry(quick_retries().max_attempts(5))
        .build()
        .expect("client");
    let error = client
        .revoke_credentials(["hub_leaked_one"])
        .await
        .expect_err("times out");
    assert!(matches!(&error, Error::Timeout { .. }), "{error:?}");
    // Retryable by the classification (it may succeed later), yet never resent: the hub may
    // have revoked the token already.
    assert!(error.is_retryable());
    assert_eq!(hub.requests().len(), 1, "the POST was sent once");
}

#[tokio::test]
async fn a_timed_out_read_is_retried() {
    let calls = Counter::default();
    let hub = StubHub::start(move |_| match calls.next() {
        0 => Reply::json(200, mcp_body()).after(Duration::from_secs(2)),
        _ => Reply::json(200, mcp_body()),
    })
    .await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .timeout(Duration::from_millis(200))
        .retry(quick_retries())
        .build()
        .expect("client");
    client.mcp_settings().await.expect("the retry is answered");
    assert_eq!(hub.requests().len(), 2);
}

/// What a retry predicate saw: operation, method, attempt, status, the built-in answer.
type Seen = (String, String, u32, Option<u16>, bool);

#[tokio::test]
async fn retry_if_replaces_the_rule_and_sees_the_attempt() {
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let record = Arc::clone(&seen);
    let calls = Counter::default();
    let hub = StubHub::start(move |_| match calls.next() {
        0 => Reply::text(500, "oops"),
        _ => Reply::json(200, mcp_body()),
    })
    .await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries().retry_if(move |attempt| {
            record.lock().expect("lock").push((
                attempt.operation().to_owned(),
                attempt.method().to_string(),
                attempt.attempt(),
                attempt.status().map(|status| status.as_u16()),
                attempt.is_retryable(),
            ));
            attempt.is_retryable() || attempt.status().is_some_and(|s| s.as_u16() == 500)
        }))
        .build()
        .expect("client");
    client.mcp_settings().await.expect("500 retried");
    assert_eq!(hub.requests().len(), 2);
    assert_eq!(
        *seen.lock().expect("lock"),
        [(
            // The generated client's name for `getMcpSettings`.
            "get_mcp_settings".to_owned(),
            "GET".to_owned(),
            1,
            Some(500),
            false
        )]
    );

    // A predicate that says no stops even what the default would retry.
    let hub = StubHub::always(Reply::text(503, "busy")).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries().retry_if(|_| false))
        .build()
        .expect("client");
    let error = client.mcp_settings().await.expect_err("503");
    assert_eq!(error.status().map(|s| s.as_u16()), Some(503));
    assert_eq!(hub.requests().len(), 1);
}

#[test]
fn retry_policies_compare_and_print_without_their_predicate() {
    let predicate = RetryPolicy::default().retry_if(|_| true);
    assert_eq!(predicate.clone(), predicate);
    assert_ne!(predicate, RetryPolicy::default());
    assert_eq!(RetryPolicy::default(), RetryPolicy::default());
    assert!(format!("{predicate:?}").contains("custom"));
}

// --- (d) request ids and spans ---------------------------------------------------------------
