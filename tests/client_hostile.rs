//! The client against a misbehaving hub (issue 12): redirects to other hosts and of bodies,
//! user info in the base URL, error bodies that straddle the cut or never end, oversized,
//! stalled and trickled responses, `Retry-After`, timeouts, 401 on any call, the retry policy
//! and resumable revocation, and secret scrubbing that never mangles a message.

mod client_support;

use std::ops::Range;
use std::time::{Duration, Instant};

use client_support::bodies::mcp_body;
use client_support::raw::{self, Connection, RawHub};
use client_support::{Counter, HUB_TOKEN, Reply, StubHub, quick_retries};
use hub_api::notifications::NotificationSelection;
use hub_api::revocation::Revocation;
use hub_api::{Client, Error, MAX_ERROR_BODY_TEXT, MAX_REDIRECTS, RetryPolicy};

fn leaked(count: usize) -> Vec<String> {
    (0..count)
        .map(|index| format!("hub_leaked_{index:05}"))
        .collect()
}

/// A retry policy fast enough for tests.

// --- Item 1: redirects ---------------------------------------------------------------------

#[tokio::test]
async fn a_307_on_revocation_never_reaches_the_other_host() {
    let other = StubHub::always(Reply::empty(202)).await;
    let target = format!("{}/steal?token=SECRET_IN_LOCATION", other.base_url);
    let hub = StubHub::always(Reply::redirect(307, target)).await;

    let error = hub
        .client()
        .revoke_credentials(["hub_leaked_redirected"])
        .await
        .expect_err("a redirect is not a success");

    assert!(other.requests().is_empty(), "the other host got a request");
    match &error {
        Error::Redirect {
            operation,
            status,
            location,
            ..
        } => {
            assert_eq!(*operation, "revokeCredentials");
            assert_eq!(status.as_u16(), 307);
            assert_eq!(location.as_deref(), Some(other.base_url.as_str()));
        }
        other => panic!("expected a redirect error, got {other:?}"),
    }
    let printed = format!("{error} {error:?}");
    assert!(!printed.contains("SECRET_IN_LOCATION"), "{printed}");
    assert!(!printed.contains("hub_leaked_redirected"), "{printed}");
    assert!(!error.is_retryable());
}

#[tokio::test]
async fn a_302_on_revocation_is_not_turned_into_a_successful_get() {
    // Same origin, even: a POST is never re-sent, and only 202 from the hub counts.
    let hub = StubHub::start(|request| {
        if request.path == "/elsewhere" {
            Reply::empty(202)
        } else {
            Reply::redirect(302, "/elsewhere")
        }
    })
    .await;

    let error = hub
        .client()
        .revoke_credentials(["hub_leaked_x1"])
        .await
        .err();

    assert!(
        matches!(&error, Some(Error::Redirect { status, .. }) if status.as_u16() == 302),
        "{error:?}"
    );
    assert_eq!(hub.only_request().method, "POST");
}

#[tokio::test]
async fn a_307_on_a_post_with_a_body_is_not_followed_even_to_the_same_origin() {
    let hub = StubHub::start(|request| {
        if request.path == "/again" {
            Reply::empty(200)
        } else {
            Reply::redirect(307, "/again")
        }
    })
    .await;
    let error = hub
        .client()
        .mark_notifications_read(&NotificationSelection::discussions(["d1"]), true)
        .await
        .err();
    assert!(
        matches!(&error, Some(Error::Redirect { status, .. }) if status.as_u16() == 307),
        "{error:?}"
    );
    assert_eq!(hub.requests().len(), 1, "the body was sent once");
}

#[tokio::test]
async fn a_get_redirect_to_another_origin_keeps_the_token_home() {
    let other = StubHub::always(Reply::json(200, mcp_body())).await;
    let hub = StubHub::always(Reply::redirect(
        302,
        format!("{}/api/settings/mcp", other.base_url),
    ))
    .await;

    let error = hub.client().mcp_settings().await.err();

    assert!(
        matches!(&error, Some(Error::Redirect { location: Some(origin), .. }) if *origin == other.base_url),
        "{error:?}"
    );
    assert!(
        other.requests().is_empty(),
        "the token went to another host"
    );
}

#[tokio::test]
async fn a_same_origin_get_redirect_is_followed_with_the_token() {
    let hub = StubHub::start(|request| {
        if request.path == "/api/settings/mcp" {
            Reply::redirect(301, "/moved/mcp")
        } else {
            Reply::json(200, mcp_body())
        }
    })
    .await;

    hub.client().mcp_settings().await.expect("followed");

    let requests = hub.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].path, "/moved/mcp");
    requests[1].assert_authenticated();
}

#[tokio::test]
async fn a_redirect_loop_ends() {
    let hub = StubHub::always(Reply::redirect(302, "/api/settings/mcp")).await;
    let error = hub.client().mcp_settings().await.err();
    assert!(matches!(&error, Some(Error::Redirect { .. })), "{error:?}");
    assert_eq!(hub.requests().len(), MAX_REDIRECTS + 1);
}

// --- Item 2: user info in the base URL --------------------------------------------------------

#[test]
fn a_base_url_with_user_info_is_refused_without_showing_it() {
    for base_url in [
        format!("http://user:{HUB_TOKEN}@127.0.0.1:9"),
        format!("https://{HUB_TOKEN}@hub.example.com"),
    ] {
        let builder = Client::builder(&base_url).anonymous();
        let printed = format!("{builder:?}");
        assert!(!printed.contains(HUB_TOKEN), "{printed}");
        let error = builder.build().expect_err("refused");
        assert!(
            matches!(&error, Error::Validation { field, rule } if field == "base_url" && rule.contains("user info")),
            "{error:?}"
        );
        assert!(!format!("{error} {error:?}").contains(HUB_TOKEN));
    }
}

// --- Item 3: error bodies ------------------------------------------------------------------

#[tokio::test]
async fn a_secret_straddling_the_cut_of_an_error_body_leaves_no_prefix() {
    for offset in [1, 5, HUB_TOKEN.len() / 2, HUB_TOKEN.len() - 1] {
        let body = format!(
            "{}{HUB_TOKEN}{}",
            "e".repeat(MAX_ERROR_BODY_TEXT - offset),
            "f".repeat(3000)
        );
        let hub = StubHub::always(Reply::text(400, &body)).await;
        let error = hub.client().mcp_settings().await.expect_err("400");
        let Error::Status {
            body: Some(text), ..
        } = &error
        else {
            panic!("expected a status error with a body, got {error:?}");
        };
        assert!(text.contains("[redacted]"), "offset {offset}");
        for length in 4..=HUB_TOKEN.len() {
            assert!(
                !text.contains(&HUB_TOKEN[..length]),
                "offset {offset}: a {length}-byte prefix of the token survived"
            );
        }
        assert!(text.len() < MAX_ERROR_BODY_TEXT + 64, "{}", text.len());
    }
}

#[tokio::test]
async fn an_endless_error_body_is_read_only_as_far_as_it_is_kept() {
    // 8 KiB of an announced 50 MB, then nothing: reading it all would wait for the timeout.
    let hub = RawHub::start(|mut connection: Connection| {
        let head = raw::head(500, &["content-length: 52428800"]);
        if connection.send(&head) && connection.send(&vec![b'z'; 8192]) {
            connection.hold(Duration::from_secs(30));
        }
    });
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");

    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("500");

    assert!(
        started.elapsed() < Duration::from_secs(10),
        "it waited for the body"
    );
    let Error::Status { status, body, .. } = &error else {
        panic!("expected a status error, got {error:?}");
    };
    assert_eq!(status.as_u16(), 500);
    let body = body.as_deref().unwrap_or_default();
    assert!(body.ends_with("… (52428800 bytes)"), "{body:?}");
    assert_eq!(body.matches('z').count(), MAX_ERROR_BODY_TEXT);
}

// --- Item 4: response size limit ------------------------------------------------------------

#[tokio::test]
async fn an_oversized_body_fails_typed_without_being_read_to_the_end() {
    // Chunked, no length announced: the limit is counted; the rest would never come.
    let hub = RawHub::start(|mut connection: Connection| {
        let head = raw::head(
            200,
            &[
                "content-type: application/json",
                "transfer-encoding: chunked",
            ],
        );
        let chunk = format!("{:x}\r\n{}\r\n", 4096, "1".repeat(4096));
        if !connection.send(&head) {
            return;
        }
        for _ in 0..8 {
            if !connection.send(chunk.as_bytes()) {
                return;
            }
        }
        connection.hold(Duration::from_secs(30));
    });
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .max_response_bytes(16 * 1024)
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");

    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("too large");

    assert!(started.elapsed() < Duration::from_secs(10), "it read on");
    assert!(
        matches!(&error, Error::ResponseTooLarge { operation, limit, .. } if *operation == "getMcpSettings" && *limit == 16 * 1024),
        "{error:?}"
    );
    assert!(!error.is_retryable());
}

#[tokio::test]
async fn a_body_announced_too_large_is_not_read_at_all() {
    let hub = RawHub::start(|mut connection: Connection| {
        let head = raw::head(
            200,
            &["content-type: application/json", "content-length: 52428800"],
        );
        if connection.send(&head) {
            connection.hold(Duration::from_secs(30));
        }
    });
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");

    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("too large");

    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(
        matches!(&error, Error::ResponseTooLarge { limit, .. } if *limit == hub_api::DEFAULT_MAX_RESPONSE_BYTES),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_body_within_the_limit_is_decoded() {
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .max_response_bytes(mcp_body().to_string().len() as u64)
        .build()
        .expect("client");
    client.mcp_settings().await.expect("exactly at the limit");
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .max_response_bytes(mcp_body().to_string().len() as u64 - 1)
        .build()
        .expect("client");
    let error = client.mcp_settings().await.err();
    assert!(
        matches!(error, Some(Error::ResponseTooLarge { .. })),
        "{error:?}"
    );
}

// --- Item 5: Retry-After, timeouts, 401 ------------------------------------------------------

#[tokio::test]
async fn retry_after_is_kept_in_the_error() {
    let hub = StubHub::start(|request| match request.path.as_str() {
        "/api/settings/mcp" => Reply::text(429, "slow down").header("retry-after", "7"),
        _ => Reply::text(503, "maintenance").header("retry-after", "Fri, 31 Dec 2100 23:59:59 GMT"),
    })
    .await;
    let client = hub.client_without_retries();

    let error = client.mcp_settings().await.expect_err("429");
    assert_eq!(error.retry_after(), Some(Duration::from_secs(7)));
    assert!(
        matches!(&error, Error::Status { status, retry_after: Some(wait), .. } if status.as_u16() == 429 && wait.as_secs() == 7)
    );
    assert!(error.is_retryable());
    assert!(error.to_string().contains("retry after 7 s"), "{error}");

    let error = client.list_webhooks().await.expect_err("503");
    assert!(
        error
            .retry_after()
            .is_some_and(|wait| wait > Duration::from_secs(365 * 24 * 3600)),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_hub_that_never_answers_is_a_timeout() {
    let hub = RawHub::start(|mut connection: Connection| connection.hold(Duration::from_secs(30)));
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .timeout(Duration::from_millis(300))
        .build()
        .expect("client");

    let error = client.mcp_settings().await.expect_err("times out");

    assert!(
        matches!(&error, Error::Timeout { operation, limit, connecting: false, .. } if *operation == "getMcpSettings" && *limit == Duration::from_millis(300)),
        "{error:?}"
    );
    assert!(error.to_string().contains("timed out"), "{error}");
    assert!(error.is_retryable());
    // A timed-out GET is retried (the default policy's 3 attempts fit in its 15 s), as it is
    // idempotent; a POST that timed out never is (see client_options.rs).
    assert_eq!(hub.connections(), 3, "a timed-out GET is retried");
}

#[tokio::test]
async fn a_trickled_body_is_a_timeout() {
    let hub = RawHub::start(|mut connection: Connection| {
        let head = raw::head(
            200,
            &["content-type: application/json", "content-length: 1000"],
        );
        if !connection.send(&head) {
            return;
        }
        for _ in 0..1000 {
            if connection.stopping() || !connection.send(b" ") {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .timeout(Duration::from_millis(500))
        .build()
        .expect("client");

    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("times out");

    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(matches!(&error, Error::Timeout { .. }), "{error:?}");
}

#[tokio::test]
async fn a_401_on_any_call_is_unauthorized() {
    let hub = StubHub::always(Reply::text(401, "bad token")).await;
    let error = hub.client().mcp_settings().await.expect_err("401");
    assert!(
        matches!(
            &error,
            Error::Unauthorized {
                operation: "getMcpSettings",
                token_sent: true,
                ..
            }
        ),
        "{error:?}"
    );
    let error = hub.client().list_webhooks().await.expect_err("401");
    assert!(
        matches!(
            &error,
            Error::Unauthorized {
                operation: "listWebhooks",
                ..
            }
        ),
        "{error:?}"
    );
    let anonymous = Client::anonymous(&hub.base_url).expect("client");
    let error = anonymous.mcp_settings().await.expect_err("401");
    assert!(
        matches!(
            &error,
            Error::Unauthorized {
                token_sent: false,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("HUB_TOKEN"), "{error}");
    assert_eq!(error.status().map(|status| status.as_u16()), Some(401));
}

// --- Item 6: retries and resumable revocation ------------------------------------------------

#[tokio::test]
async fn idempotent_calls_are_retried_on_429_and_503() {
    let answers = Counter::default();
    let hub = StubHub::start(move |_| match answers.next() {
        0 => Reply::text(503, "busy"),
        1 => Reply::text(429, "slow down").header("retry-after", "1"),
        _ => Reply::json(200, mcp_body()),
    })
    .await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries())
        .build()
        .expect("client");

    let started = Instant::now();
    client.mcp_settings().await.expect("third attempt succeeds");

    assert_eq!(hub.requests().len(), 3);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was not honoured"
    );
}

#[tokio::test]
async fn retries_stop_at_max_attempts() {
    let hub = StubHub::always(Reply::text(503, "down")).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries().max_attempts(4))
        .build()
        .expect("client");
    let error = client.mcp_settings().await.expect_err("503");
    assert_eq!(error.status().map(|status| status.as_u16()), Some(503));
    assert_eq!(hub.requests().len(), 4);
}

#[tokio::test]
async fn a_retry_after_beyond_the_budget_ends_the_retries_at_once() {
    let hub = StubHub::always(Reply::text(503, "down").header("retry-after", "120")).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries().max_elapsed(Duration::from_secs(5)))
        .build()
        .expect("client");
    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("503");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(error.retry_after(), Some(Duration::from_secs(120)));
    assert_eq!(hub.requests().len(), 1);
}

#[tokio::test]
async fn posts_are_never_retried_on_a_status() {
    let hub = StubHub::always(Reply::text(503, "busy")).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .retry(quick_retries())
        .build()
        .expect("client");
    let error = client
        .mark_notifications_read(&NotificationSelection::discussions(["d1"]), true)
        .await
        .err();
    assert_eq!(
        error.and_then(|e| e.status()).map(|s| s.as_u16()),
        Some(503)
    );
    let error = client.revoke_credentials(["hub_leaked_1"]).await.err();
    assert_eq!(
        error.and_then(|e| e.status()).map(|s| s.as_u16()),
        Some(503)
    );
    assert_eq!(hub.requests().len(), 2, "each POST was sent once");
}

#[tokio::test]
async fn a_refused_connection_is_retried_until_the_hub_is_up() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port");
    let client = Client::builder(format!("http://{port}"))
        .token(HUB_TOKEN)
        .retry(
            RetryPolicy::default()
                .max_attempts(10)
                .initial_backoff(Duration::from_millis(200))
                .max_backoff(Duration::from_millis(200)),
        )
        .build()
        .expect("client");
    // The hub comes up on that port while the client is between attempts.
    let server = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        let listener = tokio::net::TcpListener::bind(port).await.expect("rebind");
        let app = axum::Router::new().fallback(|| async {
            (
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                mcp_body().to_string(),
            )
        });
        axum::serve(listener, app).await.expect("serves");
    });

    let outcome = client.mcp_settings().await;
    server.abort();
    outcome.expect("a later attempt connects");
}

#[tokio::test]
async fn an_unreachable_hub_is_retryable_and_bounded() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port");
    let client = Client::builder(format!("http://{port}"))
        .token(HUB_TOKEN)
        .retry(quick_retries().max_attempts(3))
        .build()
        .expect("client");
    let started = Instant::now();
    let error = client.mcp_settings().await.expect_err("nobody listens");
    assert!(matches!(&error, Error::Transport { .. }), "{error:?}");
    assert!(error.is_retryable());
    // Two waits of at least half the backoff each.
    assert!(started.elapsed() >= Duration::from_millis(30));
}

#[tokio::test]
async fn a_failed_revocation_resumes_with_only_the_rest() {
    let answers = Counter::default();
    let hub = StubHub::start(move |_| match answers.next() {
        1 => Reply::text(503, "try later").header("retry-after", "2"),
        _ => Reply::empty(202),
    })
    .await;
    let client = hub.client();
    let tokens = leaked(2500);

    let error = client
        .revoke_credentials(tokens.clone())
        .await
        .expect_err("the second batch fails");
    assert!(error.is_retryable());
    assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
    let mut revocation = error.revocation().cloned().expect("resumable");
    assert_eq!(
        revocation.accepted_batches(),
        [Range {
            start: 0,
            end: 1000
        }]
    );
    assert_eq!(revocation.pending_batches(), [1000..2000, 2000..2500]);
    assert_eq!(revocation.accepted_tokens(), 1000);
    assert!(!format!("{error:?}").contains("hub_leaked_"));

    let report = client.revoke(&mut revocation).await.expect("resumed");
    assert_eq!((report.tokens, report.requests), (2500, 2));
    assert!(revocation.is_complete());
    assert_eq!(report.accepted_batches(), [0..1000, 1000..2000, 2000..2500]);

    let sent: Vec<Vec<String>> = hub
        .requests()
        .iter()
        .map(|request| serde_json::from_value(request.json()["credentials"].clone()).expect("list"))
        .collect();
    assert_eq!(sent.len(), 4);
    assert_eq!(sent[0], tokens[..1000]);
    assert_eq!(sent[1], tokens[1000..2000], "the failed batch");
    assert_eq!(sent[2], tokens[1000..2000], "resumed at the failed batch");
    assert_eq!(sent[3], tokens[2000..]);

    // A complete revocation sends nothing.
    let report = client.revoke(&mut revocation).await.expect("nothing to do");
    assert_eq!(report.requests, 0);
    assert_eq!(hub.requests().len(), 4);
}

#[tokio::test]
async fn a_revocation_checks_every_token_before_sending() {
    let mut too_long = leaked(1500);
    too_long[1200] = "x".repeat(201);
    let error = Revocation::new(too_long).expect_err("refused");
    assert!(
        matches!(&error, Error::Validation { field, .. } if field == "credentials[1200]"),
        "{error:?}"
    );
}

// --- Item 9: scrubbing never mangles ---------------------------------------------------------

#[tokio::test]
async fn a_short_secret_does_not_mangle_the_message() {
    let hub = StubHub::always(Reply::text(400, "expected a token of 40 characters, got x")).await;
    let client = Client::builder(&hub.base_url)
        .token("x")
        .build()
        .expect("client");
    let error = client.mcp_settings().await.expect_err("400");
    let Error::Status {
        body: Some(body), ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!(body, "expected a token of 40 characters, got [redacted]");
}

#[tokio::test]
async fn generated_calls_go_through_the_same_transport() {
    let hub = StubHub::always(Reply::redirect(307, "http://127.0.0.1:9/elsewhere")).await;
    let client = hub.client();
    let error = client
        .generated()
        .get_mcp_settings()
        .send()
        .await
        .expect_err("not followed");
    assert_eq!(error.status().map(|status| status.as_u16()), Some(307));
    assert_eq!(hub.requests().len(), 1);
}
