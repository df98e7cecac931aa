//! The webhook receiver over real HTTP on 127.0.0.1: every status of the status table, typed
//! payloads for every documented scope and repo type, handler failures, logging, and graceful
//! shutdown. Each test starts its own receiver on port 0 and stops it at the end.

mod receiver_support;

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hub_api::receiver::{DEFAULT_BODY_LIMIT, DeliveryContext, Receiver, handler};
use hub_api::types::{RepoType, WebhookPayload};
use receiver_support::{
    LogCapture, REPO_TYPES, Recorder, Running, SCOPES, SECRET, client, payload, raw_request,
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::sync::{Notify, oneshot};

fn recording_receiver(recorder: &Recorder) -> Receiver {
    Receiver::builder()
        .secret(SECRET)
        .handler("hub", recorder.handler())
        .build()
        .expect("a valid receiver")
}

/// Posts `body` to `/webhooks/hub` with the given secret and content type.
async fn post(
    running: &Running,
    secret: Option<&str>,
    content_type: Option<&str>,
    body: impl Into<reqwest::Body>,
) -> (StatusCode, Value) {
    let mut request = client().post(running.url("/webhooks/hub")).body(body);
    if let Some(secret) = secret {
        request = request.header("X-Webhook-Secret", secret);
    }
    if let Some(content_type) = content_type {
        request = request.header("Content-Type", content_type);
    }
    let response = request.send().await.expect("an answer");
    let status = response.status();
    let body = response.json::<Value>().await.unwrap_or(Value::Null);
    (status, body)
}

async fn deliver(running: &Running, payload: &Value) -> (StatusCode, Value) {
    post(
        running,
        Some(SECRET),
        Some("application/json"),
        payload.to_string(),
    )
    .await
}

fn error_of(body: &Value) -> &str {
    body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no JSON error in {body}"))
}

#[tokio::test]
async fn every_scope_and_repo_type_reaches_the_handler_typed() {
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;

    let mut sent = Vec::new();
    for scope in SCOPES {
        for repo_type in REPO_TYPES {
            let name = format!("acme/{repo_type}-{scope}");
            let delivery = payload(scope, "update", repo_type, &name);
            let (status, body) = deliver(&running, &delivery).await;
            assert_eq!(status, StatusCode::OK, "{scope} on {repo_type}: {body}");
            sent.push((scope, repo_type, name));
        }
    }
    running.stop().await;

    let calls = recorder.calls();
    assert_eq!(calls.len(), SCOPES.len() * REPO_TYPES.len());
    for (call, (scope, repo_type, name)) in calls.iter().zip(&sent) {
        assert_eq!(call.event.action, "update");
        assert_eq!(call.event.scope.as_deref(), Some(*scope));
        assert_eq!(call.repo.type_.to_string(), *repo_type);
        assert_eq!(call.repo.name.as_deref(), Some(name.as_str()));
        // Unknown fields are kept at every open level.
        assert_eq!(
            call.extra["deliveredBy"],
            json!("an unknown top-level field")
        );
        assert_eq!(call.event.extra["eventTraceId"], json!("trace-1"));
        assert_eq!(call.repo.extra["tags"], json!(["unknown-to-the-spec"]));
        match *scope {
            "repo.content" => assert_eq!(call.updated_refs[0].ref_, "refs/heads/main"),
            "repo.config" => assert_eq!(call.updated_config["private"], true),
            "discussion" | "discussion.comment" => {
                let discussion = call.discussion.as_ref().expect("a discussion");
                assert_eq!(discussion.is_pull_request, Some(true));
                assert_eq!(
                    discussion.extra["changes"].to_value().unwrap()["title"],
                    "unknown-to-the-spec"
                );
                let comment = call.comment.as_ref();
                assert_eq!(comment.is_some(), *scope == "discussion.comment");
                if let Some(comment) = comment {
                    assert_eq!(comment.extra["reactions"], json!(3));
                }
            }
            _ => assert!(call.discussion.is_none() && call.updated_refs.is_empty()),
        }
    }
    let model = calls.iter().find(|call| call.repo.type_ == RepoType::Model);
    assert!(model.is_some(), "repo types are parsed into the enum");
}

#[tokio::test]
async fn missing_secret_is_401_and_wrong_secret_is_403() {
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    let (status, body) = post(&running, None, Some("application/json"), delivery.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(error_of(&body).contains("missing"), "{body}");

    let near_misses = [
        "",
        "t3st-s3cret with spaces insid",
        "t3st-s3cret with spaces inside!",
        "T3st-s3cret with spaces inside",
    ];
    for wrong in near_misses {
        let (status, body) = post(
            &running,
            Some(wrong),
            Some("application/json"),
            delivery.clone(),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{wrong:?}");
        assert!(error_of(&body).contains("wrong"), "{body}");
        assert!(
            !body.to_string().contains(SECRET),
            "the answer never quotes the secret"
        );
    }

    // Both values right is still two values: refused rather than guessed at.
    let twice = client()
        .post(running.url("/webhooks/hub"))
        .header("X-Webhook-Secret", SECRET)
        .header("X-Webhook-Secret", SECRET)
        .header("Content-Type", "application/json")
        .body(delivery.clone())
        .send()
        .await
        .expect("an answer");
    assert_eq!(twice.status(), StatusCode::FORBIDDEN);

    // Header names are case-insensitive.
    let lowercase = client()
        .post(running.url("/webhooks/hub"))
        .header("x-webhook-secret", SECRET)
        .header("content-type", "application/json")
        .body(delivery)
        .send()
        .await
        .expect("an answer");
    assert_eq!(lowercase.status(), StatusCode::OK);

    running.stop().await;
    assert_eq!(
        recorder.count(),
        1,
        "only the authenticated delivery reached the handler"
    );
}

#[tokio::test]
async fn the_secret_is_checked_before_anything_about_the_body() {
    let recorder = Recorder::default();
    let receiver = Receiver::builder()
        .secret(SECRET)
        .body_limit(64)
        .handler("hub", recorder.handler())
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;

    let oversized_garbage = vec![b'{'; 1000];
    let (status, _) = post(
        &running,
        None,
        Some("text/plain"),
        oversized_garbage.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(
        &running,
        Some("nope"),
        Some("text/plain"),
        oversized_garbage,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post(&running, Some("nope"), Some("application/json"), "{").await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    running.stop().await;
    assert_eq!(recorder.count(), 0);
}

#[tokio::test]
async fn a_content_type_other_than_json_is_415() {
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("application/jsonp"),
        Some("text/json"),
    ] {
        let (status, body) = post(&running, Some(SECRET), content_type, delivery.clone()).await;
        assert_eq!(
            status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
        assert!(error_of(&body).contains("application/json"), "{body}");
    }
    for content_type in [
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/hub+json",
    ] {
        let (status, _) = post(&running, Some(SECRET), Some(content_type), delivery.clone()).await;
        assert_eq!(status, StatusCode::OK, "{content_type}");
    }

    running.stop().await;
    assert_eq!(recorder.count(), 3);
}

/// A valid payload of exactly `size` bytes, padded with an unknown field.
fn padded_payload(size: usize) -> String {
    let mut delivery = payload("repo", "update", "model", "acme/x");
    delivery["padding"] = json!("");
    let unpadded = delivery.to_string().len();
    delivery["padding"] = json!("x".repeat(size - unpadded));
    let text = delivery.to_string();
    assert_eq!(text.len(), size);
    text
}

#[tokio::test]
async fn a_body_over_the_configured_limit_is_413() {
    let recorder = Recorder::default();
    let receiver = Receiver::builder()
        .secret(SECRET)
        .body_limit(1024)
        .handler("hub", recorder.handler())
        .build()
        .expect("a valid receiver");
    assert_eq!(receiver.body_limit(), 1024);
    let running = Running::start(receiver).await;

    let (status, _) = deliver_text(&running, padded_payload(1024)).await;
    assert_eq!(status, StatusCode::OK, "exactly at the limit is accepted");
    let (status, body) = deliver_text(&running, padded_payload(1025)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error_of(&body).contains("1024"), "{body}");

    // Without a Content-Length the limit is enforced while reading.
    let chunk = "x".repeat(600);
    let chunked = format!(
        "POST /webhooks/hub HTTP/1.1\r\nHost: test\r\nX-Webhook-Secret: {SECRET}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
         258\r\n{chunk}\r\n258\r\n{chunk}\r\n0\r\n\r\n"
    );
    let address = running.address;
    let status = tokio::task::spawn_blocking(move || raw_request(address, chunked.as_bytes()))
        .await
        .expect("the raw request runs");
    assert_eq!(status, 413);

    running.stop().await;
    assert_eq!(recorder.count(), 1);
}

#[tokio::test]
async fn a_sender_that_stalls_mid_body_gets_408_and_the_handler_never_runs() {
    let recorder = Recorder::default();
    let receiver = Receiver::builder()
        .secret(SECRET)
        .body_timeout(Duration::from_millis(200))
        .handler("hub", recorder.handler())
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;

    // Announces 100 bytes, sends 10, then waits without closing the connection.
    let stalled = format!(
        "POST /webhooks/hub HTTP/1.1\r\nHost: test\r\nX-Webhook-Secret: {SECRET}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"event\": {{"
    );
    let address = running.address;
    let started = std::time::Instant::now();
    let status = tokio::task::spawn_blocking(move || raw_request(address, stalled.as_bytes()))
        .await
        .expect("the raw request runs");
    assert_eq!(status, 408);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered after {:?}",
        started.elapsed()
    );

    running.stop().await;
    assert_eq!(recorder.count(), 0);
}

async fn deliver_text(running: &Running, body: String) -> (StatusCode, Value) {
    post(running, Some(SECRET), Some("application/json"), body).await
}

#[tokio::test]
async fn the_default_limit_is_one_mebibyte() {
    let recorder = Recorder::default();
    let receiver = recording_receiver(&recorder);
    assert_eq!(receiver.body_limit(), DEFAULT_BODY_LIMIT);
    assert_eq!(DEFAULT_BODY_LIMIT, 1024 * 1024);
    let running = Running::start(receiver).await;

    let (status, _) = deliver_text(&running, padded_payload(DEFAULT_BODY_LIMIT)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = deliver_text(&running, padded_payload(DEFAULT_BODY_LIMIT + 1)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);

    running.stop().await;
    assert_eq!(recorder.count(), 1);
}

#[tokio::test]
async fn malformed_json_is_400() {
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;
    let valid = payload("repo", "update", "model", "acme/x").to_string();

    let malformed: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"{".to_vec(),
        b"not json".to_vec(),
        valid.as_bytes()[..valid.len() - 1].to_vec(),
        format!("{valid} trailing").into_bytes(),
        // A shape error early, a syntax error later: malformed wins.
        br#"{"event": 1, "repo": }"#.to_vec(),
        // Invalid UTF-8 inside a string.
        b"{\"event\":{\"action\":\"\xff\"},\"repo\":{\"type\":\"model\"}}".to_vec(),
    ];
    for body in malformed {
        let (status, answer) = post(
            &running,
            Some(SECRET),
            Some("application/json"),
            body.clone(),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{}",
            String::from_utf8_lossy(&body)
        );
        assert!(error_of(&answer).starts_with("malformed JSON"), "{answer}");
    }

    running.stop().await;
    assert_eq!(recorder.count(), 0);
}

/// Valid JSON is never "malformed": a number beyond `f64` (RFC 8259 sets no range) in a
/// property the spec does not list is delivered and kept as sent; in a field of the spec that
/// must hold an `f64`, it is a 422 naming the field.
#[tokio::test]
async fn numbers_beyond_f64_are_valid_json() {
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;
    let valid = payload("discussion", "create", "model", "acme/x").to_string();
    let numbers = ["1e999999999".to_owned(), "9".repeat(10_000)];
    for number in &numbers {
        let body = format!(r#"{{"unlisted":{number},{}"#, &valid[1..]);
        let (status, answer) = deliver_text(&running, body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");

        let known = valid.replacen(r#""num":"#, &format!(r#""num":{number},"was":"#), 1);
        assert_ne!(known, valid, "the payload has a discussion number");
        let (status, answer) = deliver_text(&running, known).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
        assert_eq!(answer["field"], "discussion.num", "{answer}");
    }
    running.stop().await;
    let calls = recorder.calls();
    assert_eq!(calls.len(), numbers.len());
    for (call, number) in calls.iter().zip(&numbers) {
        assert_eq!(call.extra["unlisted"].get(), number);
    }
}

#[tokio::test]
async fn json_that_is_not_a_payload_is_422_naming_the_field() {
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;

    let without = |pointer: &str| {
        let mut delivery = payload("repo", "update", "model", "acme/x");
        let (parent, field) = pointer.rsplit_once('/').expect("a JSON pointer");
        let parent = if parent.is_empty() {
            &mut delivery
        } else {
            delivery.pointer_mut(parent).expect("the parent exists")
        };
        parent.as_object_mut().expect("an object").remove(field);
        delivery
    };
    let with = |pointer: &str, value: Value| {
        let mut delivery = payload("repo.content", "update", "model", "acme/x");
        *delivery.pointer_mut(pointer).expect("the field exists") = value;
        delivery
    };
    let cases = [
        (without("/event/action"), "event.action"),
        (without("/repo/type"), "repo.type"),
        (without("/event"), "event"),
        (without("/repo"), "repo"),
        (with("/repo/type", json!(7)), "repo.type"),
        (with("/event/action", json!(5)), "event.action"),
        (with("/repo/private", json!("no")), "repo.private"),
        (
            with("/updatedRefs/0/ref", json!(null)),
            "updatedRefs[0].ref",
        ),
    ];
    for (delivery, field) in cases {
        let (status, body) = deliver(&running, &delivery).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{delivery}");
        assert_eq!(body["field"], field, "{body}");
        assert!(error_of(&body).contains(&format!("`{field}`")), "{body}");
    }
    for not_an_object in ["[]", "5", "\"update\"", "null"] {
        let (status, body) = deliver_text(&running, not_an_object.to_owned()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{not_an_object}");
        assert!(error_of(&body).starts_with("invalid payload"), "{body}");
    }

    running.stop().await;
    assert_eq!(recorder.count(), 0);
}

#[tokio::test]
async fn unknown_routes_are_404_and_other_methods_405() {
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;
    let http = client();
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    for path in [
        "/webhooks/nope",
        "/webhooks/hub/",
        "/webhooks",
        "/webhooks/hub/extra",
        "/hub",
    ] {
        let response = http
            .post(running.url(path))
            .header("X-Webhook-Secret", SECRET)
            .header("Content-Type", "application/json")
            .body(delivery.clone())
            .send()
            .await
            .expect("an answer");
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let body: Value = response.json().await.expect("a JSON body");
        assert!(error_of(&body).contains("no such route"), "{body}");
    }

    for method in [
        reqwest::Method::GET,
        reqwest::Method::PUT,
        reqwest::Method::DELETE,
    ] {
        let response = http
            .request(method.clone(), running.url("/webhooks/hub"))
            .header("X-Webhook-Secret", SECRET)
            .send()
            .await
            .expect("an answer");
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
        assert_eq!(response.headers()["allow"], "POST");
        let body: Value = response.json().await.expect("a JSON body");
        assert!(error_of(&body).contains("method not allowed"), "{body}");
    }
    let response = http.post(running.url("/")).send().await.expect("an answer");
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);

    running.stop().await;
    assert_eq!(recorder.count(), 0);
}

#[tokio::test]
async fn the_index_lists_the_routes_without_a_secret() {
    let recorder = Recorder::default();
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler("zeta", recorder.handler())
        .register(handler!(on_push))
        .build()
        .expect("a valid receiver");
    assert_eq!(receiver.routes(), ["/webhooks/on_push", "/webhooks/zeta"]);
    let running = Running::start(receiver).await;

    let response = client()
        .get(running.url("/"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: Value = response.json().await.expect("a JSON body");
    assert_eq!(
        body,
        json!({ "routes": ["/webhooks/on_push", "/webhooks/zeta"] })
    );

    // The function-named route is live, not just listed.
    let delivery = payload("repo", "update", "model", "acme/x").to_string();
    let response = client()
        .post(running.url("/webhooks/on_push"))
        .header("X-Webhook-Secret", SECRET)
        .header("Content-Type", "application/json")
        .body(delivery)
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    running.stop().await;
    assert_eq!(PUSHES.load(Ordering::SeqCst), 1);
}

static PUSHES: AtomicUsize = AtomicUsize::new(0);

async fn on_push(_payload: WebhookPayload) -> Result<(), Infallible> {
    PUSHES.fetch_add(1, Ordering::SeqCst);
    Ok(())
}

#[tokio::test]
async fn a_failing_handler_is_500_and_logged_without_the_secret() {
    let logs = LogCapture::default();
    let _capture = logs.install();
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler("fails", |payload: WebhookPayload| async move {
            // A careless handler that puts the secret in its error.
            Err::<(), _>(format!(
                "database down while handling {} (secret {SECRET})",
                payload.event.action
            ))
        })
        .handler("panics", |_: WebhookPayload| async move {
            if true {
                panic!("handler bug");
            }
            Ok::<(), Infallible>(())
        })
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    for route in ["/webhooks/fails", "/webhooks/panics", "/webhooks/fails"] {
        let response = client()
            .post(running.url(route))
            .header("X-Webhook-Secret", SECRET)
            .header("Content-Type", "application/json")
            .body(delivery.clone())
            .send()
            .await
            .expect("an answer, also after a panic");
        assert_eq!(
            response.status(),
            StatusCode::INTERNAL_SERVER_ERROR,
            "{route}"
        );
        let body = response.text().await.expect("a body");
        assert!(body.contains("retried"), "{body}");
        assert!(
            !body.contains("database") && !body.contains(SECRET),
            "{body}"
        );
    }
    running.stop().await;

    let log = logs.text();
    assert!(
        log.contains("database down while handling update (secret [redacted])"),
        "{log}"
    );
    assert!(log.contains("the handler panicked: handler bug"), "{log}");
    assert!(
        !log.contains(SECRET),
        "the secret leaked into the log:\n{log}"
    );
}

#[tokio::test]
async fn rejections_are_logged_without_the_presented_secret() {
    let logs = LogCapture::default();
    let _capture = logs.install();
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    let near_miss = "t3st-s3cret with spaces insidE";
    let (status, _) = post(
        &running,
        Some(near_miss),
        Some("application/json"),
        delivery.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post(&running, Some(SECRET), Some("text/plain"), delivery).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    running.stop().await;

    let log = logs.text();
    assert!(log.contains("wrong x-webhook-secret header"), "{log}");
    assert!(log.contains("415"), "{log}");
    assert!(
        !log.contains(near_miss) && !log.contains(SECRET),
        "a secret leaked:\n{log}"
    );
}

#[tokio::test]
async fn without_a_secret_routes_are_open_and_startup_warns() {
    let logs = LogCapture::default();
    let _capture = logs.install();
    let recorder = Recorder::default();
    let receiver = Receiver::builder()
        .without_secret()
        .handler("hub", recorder.handler())
        .build()
        .expect("a valid receiver");
    assert!(!receiver.has_secret());
    let running = Running::start(receiver).await;
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    let (status, _) = post(&running, None, Some("application/json"), delivery.clone()).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = post(
        &running,
        Some("anything"),
        Some("application/json"),
        delivery,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    running.stop().await;

    assert_eq!(recorder.count(), 2);
    let log = logs.text();
    assert!(
        log.contains("WARN") && log.contains("no webhook secret configured"),
        "{log}"
    );
}

#[tokio::test]
async fn a_configured_secret_starts_without_the_warning() {
    let logs = LogCapture::default();
    let _capture = logs.install();
    let recorder = Recorder::default();
    let running = Running::start(recording_receiver(&recorder)).await;
    // One request so that the server has certainly started and logged.
    let response = client()
        .get(running.url("/"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    running.stop().await;

    let log = logs.text();
    assert!(log.contains("webhook receiver listening"), "{log}");
    assert!(!log.contains("no webhook secret configured"), "{log}");
}

#[tokio::test]
async fn a_handler_with_context_sees_headers_but_not_the_secret() {
    let (seen_tx, seen_rx) = std::sync::mpsc::channel();
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler(
            "ctx",
            move |payload: WebhookPayload, context: DeliveryContext| {
                let seen_tx = seen_tx.clone();
                async move {
                    let headers = context.headers();
                    let seen = (
                        context.route().to_owned(),
                        payload.event.action,
                        headers.get("x-delivery-id").cloned(),
                        headers.contains_key("x-webhook-secret"),
                    );
                    seen_tx.send(seen).map_err(|_| "the test stopped listening")
                }
            },
        )
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;

    let response = client()
        .post(running.url("/webhooks/ctx"))
        .header("X-Webhook-Secret", SECRET)
        .header("X-Delivery-Id", "42")
        .header("Content-Type", "application/json")
        .body(payload("discussion", "create", "space", "acme/s").to_string())
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    running.stop().await;

    let (route, action, delivery_id, has_secret) = seen_rx.try_recv().expect("the handler ran");
    assert_eq!(route, "ctx");
    assert_eq!(action, "create");
    assert_eq!(
        delivery_id.as_ref().map(|value| value.as_bytes()),
        Some(&b"42"[..])
    );
    assert!(
        !has_secret,
        "the secret header is removed before the handler sees the headers"
    );
}

/// A handler that signals when it starts and finishes only when released.
fn gated_handler(
    started: Arc<Notify>,
    release: Arc<Notify>,
    finished: Arc<AtomicUsize>,
) -> impl Fn(WebhookPayload) -> std::pin::Pin<Box<dyn Future<Output = Result<(), Infallible>> + Send>>
+ Send
+ Sync
+ 'static {
    move |_payload| {
        let (started, release, finished) = (
            Arc::clone(&started),
            Arc::clone(&release),
            Arc::clone(&finished),
        );
        Box::pin(async move {
            started.notify_one();
            release.notified().await;
            finished.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
    }
}

#[tokio::test]
async fn shutdown_lets_a_delivery_in_flight_finish_and_answers_it() {
    let (started, release, finished) = (
        Arc::new(Notify::new()),
        Arc::new(Notify::new()),
        Arc::new(AtomicUsize::new(0)),
    );
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler(
            "slow",
            gated_handler(
                Arc::clone(&started),
                Arc::clone(&release),
                Arc::clone(&finished),
            ),
        )
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;
    let address = running.address;
    let url = running.url("/webhooks/slow");
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    let in_flight = tokio::spawn(
        client()
            .post(url)
            .header("X-Webhook-Secret", SECRET)
            .header("Content-Type", "application/json")
            .body(delivery)
            .send(),
    );
    started.notified().await;
    let server = running.begin_shutdown();

    // Shutting down: no new connections, but the delivery in flight keeps the server up.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !server.is_finished(),
        "the server waits for the delivery in flight"
    );
    assert!(
        !in_flight.is_finished(),
        "the delivery is not answered before its handler ran"
    );
    // The listener closes once the server has seen the signal; on a loaded machine that may
    // take a moment, so poll rather than sleep a fixed time.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while tokio::net::TcpStream::connect(address).await.is_ok() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "new connections are still accepted"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        !in_flight.is_finished(),
        "still not answered before its handler ran"
    );

    release.notify_one();
    let response = in_flight
        .await
        .expect("the request task")
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(finished.load(Ordering::SeqCst), 1);
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the server stops once the delivery is done")
        .expect("no panic")
        .expect("no I/O error");
}

#[tokio::test]
async fn shutdown_waits_for_a_handler_whose_caller_hung_up() {
    let (started, release, finished) = (
        Arc::new(Notify::new()),
        Arc::new(Notify::new()),
        Arc::new(AtomicUsize::new(0)),
    );
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler(
            "slow",
            gated_handler(
                Arc::clone(&started),
                Arc::clone(&release),
                Arc::clone(&finished),
            ),
        )
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;
    let url = running.url("/webhooks/slow");
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    let caller = tokio::spawn(
        client()
            .post(url)
            .header("X-Webhook-Secret", SECRET)
            .header("Content-Type", "application/json")
            .body(delivery)
            .send(),
    );
    started.notified().await;
    // The caller gives up (as the hub does on its timeout); its connection is dropped.
    caller.abort();
    let _ = caller.await;
    let server = running.begin_shutdown();

    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !server.is_finished(),
        "the server waits for the orphaned handler"
    );
    assert_eq!(finished.load(Ordering::SeqCst), 0);

    let (done_tx, done_rx) = oneshot::channel();
    tokio::spawn(async move {
        let _ = done_tx.send(server.await);
    });
    release.notify_one();
    tokio::time::timeout(Duration::from_secs(10), done_rx)
        .await
        .expect("the server stops once the handler is done")
        .expect("the watcher reports")
        .expect("no panic")
        .expect("no I/O error");
    assert_eq!(
        finished.load(Ordering::SeqCst),
        1,
        "the handler ran to the end"
    );
}
