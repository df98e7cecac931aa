//! The webhook receiver under pressure, over real HTTP on 127.0.0.1: a load test (5,000
//! deliveries at concurrency 64, each handled exactly once) and a property test (arbitrary
//! bodies and header values never get a 5xx, never crash the server, and get exactly the
//! status an independent oracle predicts).

mod receiver_support;

use std::collections::{BTreeSet, HashSet};
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use hub_api::receiver::Receiver;
use hub_api::types::WebhookPayload;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use receiver_support::{REPO_TYPES, Running, SCOPES, SECRET, client, payload};
use reqwest::StatusCode;

const DELIVERIES: usize = 5_000;
const CONCURRENCY: usize = 64;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_thousand_deliveries_at_concurrency_64_are_each_handled_once() {
    let seen = Arc::new(Mutex::new(HashSet::new()));
    let calls = Arc::new(AtomicUsize::new(0));
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler("hub", {
            let (seen, calls) = (Arc::clone(&seen), Arc::clone(&calls));
            move |payload: WebhookPayload| {
                let (seen, calls) = (Arc::clone(&seen), Arc::clone(&calls));
                async move {
                    calls.fetch_add(1, Ordering::SeqCst);
                    let name = payload.repo.name.unwrap_or_default();
                    seen.lock().expect("seen lock").insert(name);
                    Ok::<(), Infallible>(())
                }
            }
        })
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;
    let url = running.url("/webhooks/hub");
    let http = client();
    let next = Arc::new(AtomicUsize::new(0));

    let started = Instant::now();
    let workers: Vec<_> = (0..CONCURRENCY)
        .map(|_| {
            let (http, url, next) = (http.clone(), url.clone(), Arc::clone(&next));
            tokio::spawn(async move {
                let mut statuses = Vec::new();
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= DELIVERIES {
                        return statuses;
                    }
                    let scope = SCOPES[index % SCOPES.len()];
                    let repo_type = REPO_TYPES[index % REPO_TYPES.len()];
                    let body = payload(scope, "update", repo_type, &format!("acme/repo-{index}"));
                    let response = http
                        .post(&url)
                        .header("X-Webhook-Secret", SECRET)
                        .header("Content-Type", "application/json")
                        .body(body.to_string())
                        .send()
                        .await
                        .expect("an answer");
                    statuses.push(response.status());
                }
            })
        })
        .collect();
    let mut statuses = Vec::with_capacity(DELIVERIES);
    for worker in workers {
        statuses.extend(worker.await.expect("the worker does not panic"));
    }
    let elapsed = started.elapsed();
    running.stop().await;

    let per_second = DELIVERIES as f64 / elapsed.as_secs_f64();
    println!(
        "load: {DELIVERIES} deliveries at concurrency {CONCURRENCY} in {:.2} s: {per_second:.0} deliveries/second",
        elapsed.as_secs_f64()
    );
    assert_eq!(statuses.len(), DELIVERIES);
    assert!(
        statuses.iter().all(|status| *status == StatusCode::OK),
        "every delivery answered 200"
    );
    assert_eq!(
        calls.load(Ordering::SeqCst),
        DELIVERIES,
        "the handler ran exactly once per delivery"
    );
    assert_eq!(
        seen.lock().expect("seen lock").len(),
        DELIVERIES,
        "no delivery handled twice or lost"
    );
}

/// The property test's body limit: small, so that generated bodies also cross it.
const LIMIT: usize = 2048;

#[derive(Clone, Debug)]
enum SecretHeader {
    Absent,
    Correct,
    Other(Vec<u8>),
}

#[derive(Clone, Debug)]
struct Delivery {
    secret: SecretHeader,
    content_type: Option<Vec<u8>>,
    extra_header: Option<Vec<u8>>,
    body: Vec<u8>,
}

/// Bytes an HTTP header value may hold (`HeaderValue::from_bytes` accepts exactly these).
fn header_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(prop_oneof![Just(b'\t'), 0x20u8..0x7f, 0x80u8..=0xff], 0..48)
}

fn valid_payload() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::sample::select(SCOPES.to_vec()),
        proptest::sample::select(REPO_TYPES.to_vec()),
        "[a-z]{1,8}",
        any::<String>(),
    )
        .prop_map(|(scope, repo_type, action, name)| {
            payload(scope, &action, repo_type, &name)
                .to_string()
                .into_bytes()
        })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..(LIMIT * 2)),
        valid_payload(),
        // Near misses: a valid payload cut short, or with bytes replaced.
        (valid_payload(), any::<prop::sample::Index>())
            .prop_map(|(bytes, cut)| bytes[..cut.index(bytes.len())].to_vec()),
        (
            valid_payload(),
            proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)
        )
            .prop_map(|(mut bytes, edits)| {
                for (at, byte) in edits {
                    let at = at.index(bytes.len());
                    bytes[at] = byte;
                }
                bytes
            }),
        // Well-formed JSON of the wrong shape.
        proptest::collection::vec(any::<u8>(), 0..64).prop_map(|bytes| {
            serde_json::to_vec(&serde_json::json!({ "event": bytes, "repo": { "type": "model" } }))
                .expect("serializable")
        }),
    ]
}

fn delivery() -> impl Strategy<Value = Delivery> {
    let secret = prop_oneof![
        1 => Just(SecretHeader::Absent),
        4 => Just(SecretHeader::Correct),
        1 => header_bytes().prop_map(SecretHeader::Other),
    ];
    let content_type = prop_oneof![
        1 => Just(None),
        4 => Just(Some(b"application/json".to_vec())),
        1 => Just(Some(b"application/json; charset=utf-8".to_vec())),
        1 => header_bytes().prop_map(Some),
    ];
    let extra_header = proptest::option::of(header_bytes());
    (secret, content_type, extra_header, body()).prop_map(
        |(secret, content_type, extra_header, body)| Delivery {
            secret,
            content_type,
            extra_header,
            body,
        },
    )
}

/// HTTP parsers drop spaces and tabs around a header value.
fn trimmed(value: &[u8]) -> &[u8] {
    let is_space = |byte: &u8| *byte == b' ' || *byte == b'\t';
    let start = value
        .iter()
        .position(|byte| !is_space(byte))
        .unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|byte| !is_space(byte))
        .map_or(start, |last| last + 1);
    &value[start..end]
}

/// What the receiver must answer, derived from the status table rather than from its code.
fn expected_status(delivery: &Delivery) -> StatusCode {
    match &delivery.secret {
        SecretHeader::Absent => return StatusCode::UNAUTHORIZED,
        SecretHeader::Other(value) if trimmed(value) != SECRET.as_bytes() => {
            return StatusCode::FORBIDDEN;
        }
        _ => {}
    }
    let is_json = delivery.content_type.as_deref().is_some_and(|value| {
        let Ok(text) = std::str::from_utf8(trimmed(value)) else {
            return false;
        };
        let visible = text
            .bytes()
            .all(|byte| byte == b'\t' || (0x20..0x7f).contains(&byte));
        let essence = text
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        visible
            && (essence == "application/json"
                || (essence.starts_with("application/") && essence.ends_with("+json")))
    });
    if !is_json {
        return StatusCode::UNSUPPORTED_MEDIA_TYPE;
    }
    if delivery.body.len() > LIMIT {
        return StatusCode::PAYLOAD_TOO_LARGE;
    }
    if serde_json::from_slice::<serde_json::Value>(&delivery.body).is_err() {
        return StatusCode::BAD_REQUEST;
    }
    if serde_json::from_slice::<WebhookPayload>(&delivery.body).is_err() {
        return StatusCode::UNPROCESSABLE_ENTITY;
    }
    StatusCode::OK
}

#[test]
fn arbitrary_requests_never_get_a_5xx_and_get_the_status_the_table_predicts() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let calls = Arc::new(AtomicUsize::new(0));
    let receiver = Receiver::builder()
        .secret(SECRET)
        .body_limit(LIMIT)
        .handler("hub", {
            let calls = Arc::clone(&calls);
            move |_: WebhookPayload| {
                calls.fetch_add(1, Ordering::SeqCst);
                std::future::ready(Ok::<(), Infallible>(()))
            }
        })
        .build()
        .expect("a valid receiver");
    let running = runtime.block_on(Running::start(receiver));
    let url = running.url("/webhooks/hub");
    let http = client();
    let accepted = AtomicUsize::new(0);
    let statuses_seen = Mutex::new(BTreeSet::new());

    // Bounded so the test takes seconds; no regression files are written into the source tree.
    let config = Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&delivery(), |delivery| {
        let expected = expected_status(&delivery);
        let mut request = http.post(&url).body(delivery.body.clone());
        match &delivery.secret {
            SecretHeader::Absent => {}
            SecretHeader::Correct => request = request.header("X-Webhook-Secret", SECRET),
            SecretHeader::Other(value) => {
                request = request.header("X-Webhook-Secret", value.as_slice())
            }
        }
        if let Some(content_type) = &delivery.content_type {
            request = request.header("Content-Type", content_type.as_slice());
        }
        if let Some(extra) = &delivery.extra_header {
            request = request.header("X-Anything", extra.as_slice());
        }
        let response = runtime.block_on(request.send()).map_err(|error| {
            TestCaseError::fail(format!("no answer (did the server crash?): {error}"))
        })?;
        let status = response.status();
        let body = runtime
            .block_on(response.bytes())
            .map_err(|error| TestCaseError::fail(format!("no body: {error}")))?;
        prop_assert!(!status.is_server_error(), "5xx {status} for {delivery:?}");
        prop_assert_eq!(status, expected, "for {:?}", delivery);
        statuses_seen
            .lock()
            .expect("statuses lock")
            .insert(status.as_u16());
        let error: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|error| TestCaseError::fail(format!("answer not JSON: {error}")))?;
        if status != StatusCode::OK {
            prop_assert!(error["error"].is_string(), "no error message in {}", error);
        } else {
            accepted.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    });
    runtime.block_on(running.stop());
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    // The generator reaches every row of the status table, not just the first check.
    let statuses_seen: Vec<u16> = statuses_seen
        .into_inner()
        .expect("statuses lock")
        .into_iter()
        .collect();
    assert_eq!(statuses_seen, [200, 400, 401, 403, 413, 415, 422]);
    let accepted = accepted.load(Ordering::SeqCst);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        accepted,
        "the handler ran exactly for the 200s"
    );
}
