//! `JobSpec`, the hand-written webhook job: the request it builds, every rule of the generated
//! types enforced with the failing path named, secrets kept out of `Debug` and errors, the
//! generated types and builders taken as they are, and the exact body a webhook sends.

mod client_support;

use std::time::Duration;

use client_support::{Reply, StubHub};
use hub_api::jobs::JobSpec;
use hub_api::types::{self, Arch, Flavor, WatchedType, WebhookDomain};
use hub_api::webhooks::WebhookSpec;
use hub_api::{Error, Secret};
use serde_json::{Value, json};

const JOB_SECRET: &str = "hf_job_secret_value_42";

fn json_of(job: &JobSpec) -> Value {
    serde_json::to_value(job.build().expect("a valid job")).expect("serializable")
}

fn field_of(job: &JobSpec) -> String {
    match job.build() {
        Err(Error::Validation { field, .. }) => field,
        other => panic!("expected a validation error, got {other:?}"),
    }
}

#[test]
fn an_image_job_builds_the_generated_request() {
    let job = JobSpec::image("ghcr.io/acme/retrain:1.4", Flavor::A10gSmall)
        .command(["python", "retrain.py"])
        .arguments(["--epochs", "3"])
        .expose([8080, 9090])
        .env("MODEL_ID", "acme/bert-tiny")
        .secret("HF_WRITE_TOKEN", JOB_SECRET)
        .timeout(Duration::from_secs(3600))
        .attempts(3)
        .label("team", "nlp")
        .arch(Arch::Amd64)
        .ssh(true)
        .network("retrain-workers", ["trainer"])
        .resource_group("6729A1F0C3D4E5F6A7B8C90C");

    let request = job.build().expect("a valid job");
    assert!(matches!(request, types::WebhookJobRequest::FromImage(_)));
    assert_eq!(
        serde_json::to_value(&request).unwrap(),
        json!({
            "dockerImage": "ghcr.io/acme/retrain:1.4",
            "flavor": "a10g-small",
            "command": ["python", "retrain.py"],
            "arguments": ["--epochs", "3"],
            "expose": { "ports": [8080, 9090] },
            "environment": { "MODEL_ID": "acme/bert-tiny" },
            "secrets": { "HF_WRITE_TOKEN": JOB_SECRET },
            "timeoutSeconds": 3600,
            "attempts": 3,
            "labels": { "team": "nlp" },
            "arch": "amd64",
            "ssh": { "enabled": true },
            "network": { "group": "retrain-workers", "aliases": ["trainer"] },
            "resourceGroupId": "6729A1F0C3D4E5F6A7B8C90C"
        })
    );
}

#[test]
fn a_space_job_builds_the_space_variant() {
    let request = JobSpec::space("acme/retrain-space", Flavor::CpuBasic)
        .build()
        .expect("a valid job");
    assert!(matches!(request, types::WebhookJobRequest::FromSpace(_)));
    assert_eq!(
        serde_json::to_value(&request).unwrap(),
        json!({ "spaceId": "acme/retrain-space", "flavor": "cpu-basic", "environment": {} })
    );
}

#[test]
fn public_ports_are_exposed_too_and_ports_are_not_repeated() {
    let job = JobSpec::image("img", Flavor::CpuBasic)
        .expose([8080])
        .expose_public([9090, 8080])
        .expose([9090]);
    assert_eq!(
        json_of(&job)["expose"],
        json!({ "ports": [8080, 9090], "portsPublic": [9090, 8080] })
    );
}

#[test]
fn a_timeout_is_whole_seconds_rounded_up() {
    let job = JobSpec::image("img", Flavor::CpuBasic).timeout(Duration::from_millis(1500));
    assert_eq!(json_of(&job)["timeoutSeconds"], json!(2));
}

#[test]
fn every_broken_rule_is_refused_with_its_path() {
    let image = || JobSpec::image("img", Flavor::CpuBasic);
    let cases = [
        (JobSpec::image("", Flavor::CpuBasic), "job.dockerImage"),
        (JobSpec::space("", Flavor::CpuBasic), "job.spaceId"),
        (image().expose([0]), "job.expose.ports[0]"),
        (image().expose(1..=21), "job.expose.ports"),
        (image().timeout(Duration::ZERO), "job.timeoutSeconds"),
        (image().attempts(0), "job.attempts"),
        (image().command(Vec::<String>::new()), "job.command"),
        (image().command(["python", ""]), "job.command[1]"),
        (image().env("1_BAD", "x"), "job.environment"),
        (image().label("bad label", "x"), "job.labels"),
        (image().network("-bad-", ["ok"]), "job.network.group"),
        (image().resource_group("not-hex"), "job.resourceGroupId"),
    ];
    for (job, expected) in cases {
        assert_eq!(field_of(&job), expected, "{job:?}");
    }
}

#[test]
fn secrets_stay_out_of_debug_and_errors() {
    let job = JobSpec::image("img", Flavor::CpuBasic).secret("BAD-NAME", JOB_SECRET);
    let error = job.build().expect_err("the secret name is invalid");
    assert!(!error.to_string().contains(JOB_SECRET), "{error}");
    assert!(!format!("{error:?}").contains(JOB_SECRET));
    assert!(!format!("{job:?}").contains(JOB_SECRET), "{job:?}");

    let valid = JobSpec::image("img", Flavor::CpuBasic).secret("TOKEN", JOB_SECRET);
    let request = valid.build().expect("a valid job");
    assert!(!format!("{valid:?}").contains(JOB_SECRET));
    assert!(!format!("{request:?}").contains(JOB_SECRET));
}

#[test]
fn generated_requests_and_builders_are_taken_as_they_are() {
    let from_json: types::WebhookJobRequest = serde_json::from_value(json!({
        "dockerImage": "img",
        "flavor": "cpu-basic",
        "secrets": { "TOKEN": JOB_SECRET }
    }))
    .unwrap();
    let job = JobSpec::from(from_json.clone());
    assert!(!format!("{job:?}").contains(JOB_SECRET));
    assert_eq!(job.build().expect("a valid job"), from_json);

    let builder = types::WebhookJobRequestFromSpace::builder()
        .space_id("acme/retrain-space")
        .flavor(Flavor::CpuBasic);
    let built = JobSpec::from(builder).build().expect("a valid job");
    assert!(matches!(built, types::WebhookJobRequest::FromSpace(_)));

    // A builder missing its flavor is reported when the job is built, not when it is given.
    let incomplete = types::WebhookJobRequestFromImage::builder().docker_image("img");
    let error = JobSpec::from(incomplete).build().expect_err("no flavor");
    assert!(
        matches!(&error, Error::Validation { field, .. } if field.starts_with("job")),
        "{error:?}"
    );

    let volume = types::VolumeRequest::builder()
        .type_(types::VolumeRequestType::Dataset)
        .source("acme/reviews")
        .mount_path("/data");
    let job = JobSpec::image("img", Flavor::CpuBasic).volume(volume);
    assert_eq!(
        json_of(&job)["volumes"],
        json!([{ "type": "dataset", "source": "acme/reviews", "mountPath": "/data" }])
    );
    let no_mount_path = types::VolumeRequest::builder()
        .type_(types::VolumeRequestType::Bucket)
        .source("acme/scratch");
    let job = JobSpec::image("img", Flavor::CpuBasic).volume(no_mount_path);
    assert_eq!(field_of(&job), "job.volumes");
}

#[tokio::test]
async fn a_webhook_sends_the_job_with_every_secret_and_refuses_a_broken_one() {
    let webhook = json!({
        "id": "6729a1f0c3d4e5f6a7b8c90b",
        "job": {
            "dockerImage": "ghcr.io/acme/retrain:1.4",
            "environment": {},
            "flavor": "a10g-small",
            "timeoutSeconds": null,
            "secrets": ["HF_WRITE_TOKEN", "OTHER"]
        },
        "disabled": false,
        "watched": [{ "name": "acme/bert-tiny", "type": "model" }],
        "hasSecret": false,
        "domains": ["repo"]
    });
    let hub = StubHub::always(Reply::json(200, json!({ "webhook": webhook }))).await;
    let job = JobSpec::image("ghcr.io/acme/retrain:1.4", Flavor::A10gSmall)
        .expose([8080, 9090])
        .secret("HF_WRITE_TOKEN", "replaced by the webhook's job secret");
    let spec = WebhookSpec::job(job)
        .watch(WatchedType::Model, "acme/bert-tiny")
        .domain(WebhookDomain::Repo)
        .job_secret("HF_WRITE_TOKEN", JOB_SECRET)
        .job_secret("OTHER", Secret::new("other"));

    hub.client().create_webhook(&spec).await.expect("create");
    assert_eq!(
        hub.only_request().json()["job"],
        json!({
            "dockerImage": "ghcr.io/acme/retrain:1.4",
            "flavor": "a10g-small",
            "environment": {},
            "expose": { "ports": [8080, 9090] },
            "secrets": { "HF_WRITE_TOKEN": JOB_SECRET, "OTHER": "other" }
        })
    );

    let broken = WebhookSpec::job(JobSpec::image("img", Flavor::CpuBasic).expose([0]))
        .watch(WatchedType::Model, "acme/bert-tiny")
        .domain(WebhookDomain::Repo)
        .job_secret("TOKEN", JOB_SECRET);
    let error = hub
        .client()
        .create_webhook(&broken)
        .await
        .expect_err("port 0");
    assert!(
        matches!(&error, Error::Validation { field, .. } if field == "job.expose.ports[0]"),
        "{error:?}"
    );
    assert_eq!(hub.requests().len(), 1, "nothing is sent for a broken job");
}
