//! The future, played against today's client: a stub hub on 127.0.0.1 serves what the
//! spec-change drill adds (a new flavor, a fifth notification kind, a new property of a closed
//! object, a new job stage) and today's receiver gets a delivery with values newer than the
//! spec. Everything reaches the user, the unknowns visible as `Unknown`; an item that breaks
//! the spec loses only itself; requests and the `schemas` registry stay strict.

mod client_support;
mod receiver_support;

use client_support::{Reply, StubHub};
use futures_util::StreamExt;
use hub_api::notifications::NotificationFilter;
use hub_api::receiver::Receiver;
use hub_api::types::{self, Flavor, JobStage, Notification, RepoType, WebhookDisabled, WebhookJob};
use hub_api::webhooks::WebhookSpec;
use hub_api::{Error, generated};
use receiver_support::{Recorder, Running, SECRET, client, payload};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A webhook as today's spec describes it, running a job on `flavor`.
fn job_webhook(id: &str, flavor: &str) -> Value {
    json!({
        "id": id,
        "job": {"dockerImage": "python:3.12", "environment": {}, "flavor": flavor, "timeoutSeconds": 60},
        "disabled": false,
        "watched": [{"type": "org", "name": "acme"}],
        "hasSecret": false,
        "domains": ["repo"]
    })
}

/// What a newer hub sends for `GET /api/settings/webhooks`: a new flavor, a new property of the
/// closed `Webhook`, a new `disabled` state and domain, a job kind with neither known key, and
/// one webhook that breaks today's spec (no `domains`).
fn newer_webhooks() -> Value {
    let mut with_new_field = job_webhook("6729a1f0c3d4e5f6a7b8c902", "cpu-basic");
    with_new_field["createdBy"] = json!({"id": "5f1e2d3c4b5a69788796a5b5"});
    with_new_field["disabled"] = json!("suspended-by-admin");
    with_new_field["domains"] = json!(["repo", "collection"]);
    let mut new_job_kind = job_webhook("6729a1f0c3d4e5f6a7b8c903", "cpu-basic");
    new_job_kind["job"] = json!({"notebook": "acme/train.ipynb", "flavor": "cpu-basic"});
    let mut broken = job_webhook("6729a1f0c3d4e5f6a7b8c904", "cpu-basic");
    broken.as_object_mut().unwrap().remove("domains");
    json!([
        job_webhook("6729a1f0c3d4e5f6a7b8c901", "b200"),
        with_new_field,
        broken,
        new_job_kind
    ])
}

#[tokio::test]
async fn a_newer_hubs_webhooks_all_reach_the_user() {
    let hub = StubHub::always(Reply::json(200, newer_webhooks())).await;
    let listing = hub.client().list_webhooks().await.expect("a listing");

    let ids: Vec<String> = listing
        .iter()
        .map(|webhook| webhook.id.to_string())
        .collect();
    assert_eq!(
        ids,
        [
            "6729a1f0c3d4e5f6a7b8c901",
            "6729a1f0c3d4e5f6a7b8c902",
            "6729a1f0c3d4e5f6a7b8c903"
        ],
        "every webhook but the broken one"
    );
    let Some(WebhookJob::FromImage(job)) = &listing[0].job else {
        panic!("an image job: {:?}", listing[0].job);
    };
    assert_eq!(job.flavor, Flavor::Unknown("b200".into()));
    assert_eq!(job.flavor.to_string(), "b200");
    assert_eq!(
        listing[1].disabled,
        WebhookDisabled::Unknown("suspended-by-admin".into())
    );
    assert_eq!(
        listing[1].domains[1],
        types::WebhookDomain::Unknown("collection".into())
    );
    let Some(WebhookJob::Unknown(new_kind)) = &listing[2].job else {
        panic!("an unknown job kind: {:?}", listing[2].job);
    };
    assert_eq!(new_kind["notebook"], "acme/train.ipynb");

    assert_eq!(listing.invalid.len(), 1);
    let broken = &listing.invalid[0];
    assert_eq!(
        (broken.operation, broken.index, broken.path.as_str()),
        ("listWebhooks", 2, ".")
    );
    assert!(broken.rule.contains("missing field `domains`"), "{broken}");

    // Unknown values serialize back exactly as they came.
    let again = serde_json::to_value(&listing[0]).unwrap();
    assert_eq!(again["job"]["flavor"], "b200");
    assert_eq!(
        serde_json::to_value(&listing[2].job).unwrap(),
        json!({"notebook": "acme/train.ipynb", "flavor": "cpu-basic"})
    );
}

/// A page as a newer hub sends it: a paper notification, a fifth kind, a repo notification with
/// a new property in a closed object and a new repo type, and one that breaks today's spec.
fn newer_page() -> Value {
    let participants = json!([{"_id": "5f1e2d3c4b5a69788796a5b5", "avatar": "https://hub.example.com/avatars/acme.svg", "user": "acme"}]);
    json!({
        "notifications": [
            {
                "type": "paper", "updatedAt": "2026-01-02T03:04:05.000Z", "read": false,
                "paper": {"_id": "6729a1f0c3d4e5f6a7b8c90c", "title": "A paper"},
                "paperDiscussion": {"id": "6729a1f0c3d4e5f6a7b8c90a", "paperId": "6729a1f0c3d4e5f6a7b8c90c", "participating": participants}
            },
            {
                "type": "article", "updatedAt": "2026-01-02T03:04:05.000Z", "read": true,
                "article": {"id": "a-1", "title": "News"}
            },
            {
                "type": "repo", "updatedAt": "2026-01-02T03:04:05.000Z", "read": false,
                "repo": {"name": "acme/notes", "type": "notebook"},
                "discussion": {"num": 3, "title": "Hi", "status": "open", "id": "6729a1f0c3d4e5f6a7b8c90b",
                               "isPullRequest": false, "participating": participants, "pinned": true},
                "reactions": 4
            },
            {"type": "paper", "read": false}
        ],
        "count": {"all": 4, "view": 4, "unread": 3},
        "start": 0
    })
}

#[tokio::test]
async fn a_newer_hubs_notifications_all_reach_the_user() {
    let hub = StubHub::always(Reply::json(200, newer_page())).await;
    let items: Vec<hub_api::Result<Notification>> = hub
        .client()
        .notifications(NotificationFilter::default())
        .collect()
        .await;
    assert_eq!(items.len(), 4, "{items:?}");
    assert!(
        matches!(&items[0], Ok(Notification::Paper(_))),
        "{:?}",
        items[0]
    );
    let Ok(Notification::Unknown(article)) = &items[1] else {
        panic!("an unknown kind: {:?}", items[1]);
    };
    assert_eq!(article["type"], "article");
    assert_eq!(article["article"]["title"], "News");
    let Ok(Notification::Repo(repo)) = &items[2] else {
        panic!("a repo notification: {:?}", items[2]);
    };
    assert_eq!(repo.repo.type_, RepoType::Unknown("notebook".into()));
    let Err(Error::InvalidItem(broken)) = &items[3] else {
        panic!("the broken item in its place: {:?}", items[3]);
    };
    assert_eq!((broken.index, broken.operation), (3, "listNotifications"));
    assert!(broken.rule.contains("missing field"), "{broken}");
    assert_eq!(hub.requests().len(), 1, "one page: count.view is reached");
}

#[test]
fn a_newer_job_stage_is_kept_and_strict_decoding_refuses_it() {
    let status = json!({"stage": "PAUSED", "message": null});
    let decoded: types::JobStatus = serde_json::from_value(status.clone()).unwrap();
    assert_eq!(decoded.stage, JobStage::Unknown("PAUSED".into()));
    assert_eq!(serde_json::to_value(&decoded).unwrap(), status);

    // The registry (what `cargo xtask validate` uses) stays exact.
    let refused = generated::schemas::decode("JobStatus", &status.to_string())
        .expect("a component")
        .expect_err("strict");
    assert_eq!(refused.path, "stage");
    assert!(
        refused.message.starts_with("unknown variant `PAUSED`"),
        "{refused}"
    );
    let closed = json!([job_webhook("6729a1f0c3d4e5f6a7b8c901", "cpu-basic")]);
    let mut with_new_field = closed.clone();
    with_new_field[0]["createdBy"] = json!("x");
    assert!(
        generated::schemas::decode("Webhook", &closed[0].to_string())
            .unwrap()
            .is_ok()
    );
    let refused = generated::schemas::decode("Webhook", &with_new_field[0].to_string())
        .unwrap()
        .expect_err("a closed object");
    assert!(
        refused.message.starts_with("unknown field `createdBy`"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_request_carrying_an_unknown_value_is_refused_before_sending() {
    let hub = StubHub::always(Reply::empty(204)).await;
    let filter = NotificationFilter {
        repo_type: Some(RepoType::Unknown("notebook".into())),
        ..Default::default()
    };
    let error = hub
        .client()
        .list_notifications(&filter, 0)
        .await
        .expect_err("refused");
    assert!(
        matches!(&error, Error::Validation { field, .. } if field == "repoType"),
        "{error}"
    );
    // A job whose flavor came from a response (a newer hub's `b200`) is not sent back.
    let job: types::WebhookJobRequest = serde_json::from_value(json!({
        "dockerImage": "python:3.12", "environment": {}, "flavor": "b200", "timeoutSeconds": 60
    }))
    .expect("tolerant decoding keeps the flavor");
    let spec = WebhookSpec::job(job)
        .watch(types::WatchedType::Org, "acme")
        .domain(types::WebhookDomain::Repo);
    let error = hub
        .client()
        .create_webhook(&spec)
        .await
        .expect_err("refused");
    assert!(
        error.to_string().contains("unknown variant `b200`"),
        "{error}"
    );
    let spec = WebhookSpec::url("https://ci.acme.example/hook")
        .watch(types::WatchedType::Unknown("collection".into()), "acme/c")
        .domain(types::WebhookDomain::Repo);
    let error = hub
        .client()
        .create_webhook(&spec)
        .await
        .expect_err("refused");
    assert!(
        error.to_string().contains("unknown variant `collection`"),
        "{error}"
    );
    assert!(hub.requests().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn a_delivery_newer_than_the_spec_reaches_the_handler() {
    let recorder = Recorder::default();
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler("hub", recorder.handler())
        .build()
        .expect("a receiver");
    let running = Running::start(receiver).await;
    let mut delivery = payload("repo.future", "archive", "notebook", "acme/notes");
    delivery["event"]["initiator"] = json!({"kind": "automation"});
    delivery["repo"]["storage"] = json!({"tier": "cold"});
    let send = |body: String| {
        client()
            .post(running.url("/webhooks/hub"))
            .header("X-Webhook-Secret", SECRET)
            .header("Content-Type", "application/json")
            .body(body)
            .send()
    };

    let response = send(delivery.to_string()).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let calls = recorder.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].repo.type_, RepoType::Unknown("notebook".into()));
    assert_eq!(calls[0].event.action, "archive");
    assert_eq!(calls[0].event.scope.as_deref(), Some("repo.future"));
    assert_eq!(
        calls[0].event.extra["initiator"],
        json!({"kind": "automation"})
    );

    // Only what the spec requires is required: no `repo.type` or no `event.action` is refused.
    for (pointer, key) in [("/repo", "type"), ("/event", "action")] {
        let mut lacking = delivery.clone();
        lacking
            .pointer_mut(pointer)
            .and_then(Value::as_object_mut)
            .unwrap()
            .remove(key);
        let response = send(lacking.to_string()).await.expect("an answer");
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{pointer}/{key}"
        );
    }
    let response = send("[1, 2]".to_owned()).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(recorder.count(), 1);
    running.stop().await;
}
