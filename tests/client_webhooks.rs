//! Webhook management against a stub hub: the exact request of list, get, create (URL, inline
//! job, `jobSourceId` with secrets), update, enable, disable and delete; refusals before sending;
//! and secrets kept out of `Debug` and error messages.

mod client_support;

use client_support::{Reply, StubHub};
use hub_api::Error;
use hub_api::types::{self, WatchedType, WebhookDomain};
use hub_api::webhooks::WebhookSpec;
use serde_json::{Value, json};

const WEBHOOK_ID: &str = "6729a1f0c3d4e5f6a7b8c90a";
const WEBHOOK_SECRET: &str = "correct horse battery staple";
const JOB_SECRET: &str = "hf_job_secret_value_42";

fn url_webhook(disabled: Value) -> Value {
    json!({
        "id": WEBHOOK_ID,
        "url": "https://ci.acme.example/hooks/hub",
        "disabled": disabled,
        "watched": [{ "name": "acme/bert-tiny", "type": "model", "avatarUrl": "https://hub.example.com/a.svg" }],
        "hasSecret": true,
        "domains": ["repo", "discussion"],
        "lastTriggerAt": "2026-11-01T18:42:08Z"
    })
}

fn job_webhook() -> Value {
    json!({
        "id": "6729a1f0c3d4e5f6a7b8c90b",
        "job": {
            "dockerImage": "ghcr.io/acme/retrain:1.4",
            "environment": { "MODEL_ID": "acme/bert-tiny" },
            "command": ["python", "retrain.py"],
            "flavor": "a10g-small",
            "timeoutSeconds": 3600,
            "secrets": ["HF_WRITE_TOKEN"]
        },
        "disabled": "suspended-after-failure",
        "watched": [{ "name": "acme", "type": "org" }],
        "hasSecret": false,
        "domains": ["repo"]
    })
}

fn url_spec() -> WebhookSpec {
    WebhookSpec::url("https://ci.acme.example/hooks/hub")
        .watch(WatchedType::Model, "acme/bert-tiny")
        .domain(WebhookDomain::Repo)
        .domain(WebhookDomain::Discussion)
        .secret(WEBHOOK_SECRET)
}

fn image_job() -> types::WebhookJobRequest {
    serde_json::from_value(json!({
        "dockerImage": "ghcr.io/acme/retrain:1.4",
        "command": ["python", "retrain.py"],
        "environment": { "MODEL_ID": "acme/bert-tiny" },
        "flavor": "a10g-small",
        "timeoutSeconds": 3600
    }))
    .expect("job request")
}

#[tokio::test]
async fn list_returns_every_webhook() {
    let hub = StubHub::always(Reply::json(
        200,
        json!([url_webhook(json!(false)), job_webhook()]),
    ))
    .await;

    let webhooks = hub.client().list_webhooks().await.expect("list");

    assert_eq!(webhooks.len(), 2);
    assert_eq!(webhooks[0].id.as_str(), WEBHOOK_ID);
    assert!(webhooks[1].job.is_some());
    assert_eq!(
        webhooks[1].disabled,
        types::WebhookDisabled::SuspendedAfterFailure
    );
    let request = hub.only_request();
    assert_eq!(request.method, "GET");
    assert_eq!(request.path, "/api/settings/webhooks");
    assert_eq!(request.query, None);
    request.assert_authenticated();
}

#[tokio::test]
async fn get_reads_one_webhook() {
    let hub = StubHub::always(Reply::json(
        200,
        json!({ "webhook": url_webhook(json!(false)) }),
    ))
    .await;

    let webhook = hub.client().get_webhook(WEBHOOK_ID).await.expect("get");

    assert_eq!(
        webhook.url.as_ref().map(types::Uri::as_str),
        Some("https://ci.acme.example/hooks/hub")
    );
    assert!(webhook.has_secret);
    let request = hub.only_request();
    assert_eq!(request.method, "GET");
    assert_eq!(request.path, format!("/api/settings/webhooks/{WEBHOOK_ID}"));
    request.assert_authenticated();
}

#[tokio::test]
async fn create_with_a_url_sends_the_exact_body() {
    let hub = StubHub::always(Reply::json(
        200,
        json!({ "webhook": url_webhook(json!(false)) }),
    ))
    .await;

    let created = hub
        .client()
        .create_webhook(&url_spec())
        .await
        .expect("create");

    assert_eq!(created.id.as_str(), WEBHOOK_ID);
    let request = hub.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/api/settings/webhooks");
    assert_eq!(
        request.json(),
        json!({
            "watched": [{ "type": "model", "name": "acme/bert-tiny" }],
            "domains": ["repo", "discussion"],
            "url": "https://ci.acme.example/hooks/hub",
            "secret": WEBHOOK_SECRET
        })
    );
    request.assert_authenticated();
}

#[tokio::test]
async fn create_with_an_inline_job_puts_job_secrets_in_the_job() {
    let hub = StubHub::always(Reply::json(200, json!({ "webhook": job_webhook() }))).await;
    let spec = WebhookSpec::job(image_job())
        .watch(WatchedType::Org, "acme")
        .domain(WebhookDomain::Repo)
        .job_secret("HF_WRITE_TOKEN", JOB_SECRET);

    let created = hub.client().create_webhook(&spec).await.expect("create");

    assert!(created.job.is_some());
    let request = hub.only_request();
    assert_eq!(request.path, "/api/settings/webhooks");
    assert_eq!(
        request.json(),
        json!({
            "watched": [{ "type": "org", "name": "acme" }],
            "domains": ["repo"],
            "job": {
                "dockerImage": "ghcr.io/acme/retrain:1.4",
                "command": ["python", "retrain.py"],
                "environment": { "MODEL_ID": "acme/bert-tiny" },
                "flavor": "a10g-small",
                "timeoutSeconds": 3600,
                "secrets": { "HF_WRITE_TOKEN": JOB_SECRET }
            }
        })
    );
    request.assert_authenticated();
}

#[tokio::test]
async fn create_from_a_job_source_sends_the_secrets_beside_it() {
    let mut webhook = job_webhook();
    webhook["jobSourceId"] = json!("6729a1f0c3d4e5f6a7b8c90d");
    let hub = StubHub::always(Reply::json(200, json!({ "webhook": webhook }))).await;
    let spec = WebhookSpec::job_source("6729a1f0c3d4e5f6a7b8c90d")
        .watch(WatchedType::Dataset, "acme/reviews")
        .domain(WebhookDomain::Repo)
        .job_secret("HF_WRITE_TOKEN", JOB_SECRET)
        .job_secret("OLD_TOKEN", "");

    hub.client().create_webhook(&spec).await.expect("create");

    assert_eq!(
        hub.only_request().json(),
        json!({
            "watched": [{ "type": "dataset", "name": "acme/reviews" }],
            "domains": ["repo"],
            "jobSourceId": "6729a1f0c3d4e5f6a7b8c90d",
            "secrets": { "HF_WRITE_TOKEN": JOB_SECRET, "OLD_TOKEN": "" }
        })
    );
}

#[tokio::test]
async fn update_posts_the_body_to_the_webhook() {
    let hub = StubHub::always(Reply::empty(200)).await;

    hub.client()
        .update_webhook(WEBHOOK_ID, &url_spec())
        .await
        .expect("update");

    let request = hub.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, format!("/api/settings/webhooks/{WEBHOOK_ID}"));
    assert_eq!(request.json()["secret"], json!(WEBHOOK_SECRET));
    assert_eq!(
        request.json()["watched"],
        json!([{ "type": "model", "name": "acme/bert-tiny" }])
    );
    request.assert_authenticated();
}

#[tokio::test]
async fn enable_and_disable_post_to_their_paths() {
    let hub = StubHub::start(|request| {
        let disabled = request.path.ends_with("/disable");
        Reply::json(200, json!({ "webhook": url_webhook(json!(disabled)) }))
    })
    .await;
    let client = hub.client();

    let enabled = client.enable_webhook(WEBHOOK_ID).await.expect("enable");
    let disabled = client.disable_webhook(WEBHOOK_ID).await.expect("disable");

    assert_eq!(enabled.disabled, types::WebhookDisabled::Enabled);
    assert_eq!(disabled.disabled, types::WebhookDisabled::Disabled);
    let requests = hub.requests();
    let calls: Vec<(&str, &str)> = requests
        .iter()
        .map(|request| (request.method.as_str(), request.path.as_str()))
        .collect();
    assert_eq!(
        calls,
        [
            (
                "POST",
                "/api/settings/webhooks/6729a1f0c3d4e5f6a7b8c90a/enable"
            ),
            (
                "POST",
                "/api/settings/webhooks/6729a1f0c3d4e5f6a7b8c90a/disable"
            ),
        ]
    );
    for request in &requests {
        assert!(request.body.is_empty());
        request.assert_authenticated();
    }
}

#[tokio::test]
async fn delete_sends_delete_to_the_webhook() {
    let hub = StubHub::always(Reply::empty(204)).await;

    hub.client()
        .delete_webhook(WEBHOOK_ID)
        .await
        .expect("delete");

    let request = hub.only_request();
    assert_eq!(request.method, "DELETE");
    assert_eq!(request.path, format!("/api/settings/webhooks/{WEBHOOK_ID}"));
    assert!(request.body.is_empty());
    request.assert_authenticated();
}

#[tokio::test]
async fn path_parameters_are_percent_encoded() {
    let hub = StubHub::always(Reply::empty(204)).await;
    hub.client().delete_webhook("a/b?c").await.expect("delete");
    assert_eq!(hub.only_request().path, "/api/settings/webhooks/a%2Fb%3Fc");
}

#[tokio::test]
async fn bad_specs_are_refused_before_sending() {
    let hub = StubHub::always(Reply::empty(200)).await;
    let client = hub.client();
    let cases: Vec<(WebhookSpec, &str)> = vec![
        (
            WebhookSpec::url("https://a.example").domain(WebhookDomain::Repo),
            "watched",
        ),
        (
            WebhookSpec::url("https://a.example").watch(WatchedType::User, "ada"),
            "domains",
        ),
        (url_spec_with_url("not a uri"), "url"),
        (url_spec().secret("naïve"), "secret"),
        (
            WebhookSpec::job_source("6729a1f0c3d4e5f6a7b8c90d")
                .watch(WatchedType::User, "ada")
                .domain(WebhookDomain::Repo)
                .job_secret("1BAD", "x"),
            "secrets",
        ),
        (
            WebhookSpec::job(image_job())
                .watch(WatchedType::User, "ada")
                .domain(WebhookDomain::Repo)
                .job_secret("BAD-NAME", "x"),
            "job.secrets",
        ),
        (url_spec().job_secret("TOKEN", "x"), "secrets"),
        (
            WebhookSpec::job_source("")
                .watch(WatchedType::User, "ada")
                .domain(WebhookDomain::Repo),
            "jobSourceId",
        ),
    ];
    for (spec, expected_field) in cases {
        let error = client.create_webhook(&spec).await.err();
        assert!(
            matches!(&error, Some(Error::Validation { field, .. }) if field == expected_field),
            "{spec:?}: {error:?}"
        );
    }
    for error in [
        client.get_webhook("").await.err(),
        client.enable_webhook("").await.err(),
        client.disable_webhook("").await.err(),
        client.delete_webhook("").await.err(),
        client.update_webhook("", &url_spec()).await.err(),
    ] {
        assert!(
            matches!(&error, Some(Error::Validation { field, .. }) if field == "webhookId"),
            "{error:?}"
        );
    }
    assert!(hub.requests().is_empty(), "nothing may be sent");
}

fn url_spec_with_url(url: &str) -> WebhookSpec {
    WebhookSpec::url(url)
        .watch(WatchedType::Model, "acme/bert-tiny")
        .domain(WebhookDomain::Repo)
}

#[tokio::test]
async fn an_echoed_secret_is_scrubbed_from_the_error() {
    let hub =
        StubHub::start(|request| Reply::text(422, &String::from_utf8_lossy(&request.body))).await;
    let spec = WebhookSpec::job_source("6729a1f0c3d4e5f6a7b8c90d")
        .watch(WatchedType::Org, "acme")
        .domain(WebhookDomain::Repo)
        .secret(WEBHOOK_SECRET)
        .job_secret("HF_WRITE_TOKEN", JOB_SECRET);

    let error = hub
        .client()
        .create_webhook(&spec)
        .await
        .expect_err("422 fails");

    let Error::Status { status, body, .. } = &error else {
        panic!("expected a status error, got {error:?}");
    };
    assert_eq!(status.as_u16(), 422);
    let body = body.as_deref().unwrap_or_default();
    assert!(
        body.contains("jobSourceId"),
        "the rest of the body is kept: {body}"
    );
    for text in [error.to_string(), format!("{error:?}")] {
        assert!(!text.contains(WEBHOOK_SECRET), "{text}");
        assert!(!text.contains(JOB_SECRET), "{text}");
        assert!(text.contains("[redacted]"), "{text}");
    }
}

#[test]
fn specs_never_print_their_secrets() {
    let job: types::WebhookJobRequest = serde_json::from_value(json!({
        "dockerImage": "ghcr.io/acme/retrain:1.4",
        "flavor": "cpu-basic",
        "secrets": { "INLINE": "inline-secret-value" }
    }))
    .expect("job request");
    let spec = WebhookSpec::job(job)
        .watch(WatchedType::Org, "acme")
        .domain(WebhookDomain::Repo)
        .secret(WEBHOOK_SECRET)
        .job_secret("HF_WRITE_TOKEN", JOB_SECRET);
    let printed = format!("{spec:?}");
    assert!(!printed.contains(WEBHOOK_SECRET), "{printed}");
    assert!(!printed.contains(JOB_SECRET), "{printed}");
    assert!(!printed.contains("inline-secret-value"), "{printed}");
    assert!(
        printed.contains("HF_WRITE_TOKEN"),
        "secret names may show: {printed}"
    );
    assert!(
        printed.contains("ghcr.io/acme/retrain"),
        "the job shows: {printed}"
    );
}

#[tokio::test]
async fn a_missing_webhook_is_a_404_status() {
    let hub = StubHub::always(Reply::text(404, "webhook not found")).await;
    let error = hub.client().get_webhook(WEBHOOK_ID).await.err();
    assert!(
        matches!(&error, Some(Error::Status { status, body: Some(body), .. }) if status.as_u16() == 404 && body == "webhook not found"),
        "{error:?}"
    );
    // One question for every operation, whichever variant carries the 404.
    let error = error.expect("an error");
    assert!(error.is_not_found());
    assert!(!error.is_unauthorized() && !error.is_forbidden() && !error.is_rate_limited());
}
