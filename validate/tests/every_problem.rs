//! `problems` over the real `schemas` registry: every problem of an instance is reported, at
//! the path of the instance the user gave, with a suggestion for misspelt values, and nothing
//! that only a removal caused.

use hub_api_client::schemas;
use hub_api_validate::{Failure, Problem, problems};

fn check(schema: &str, instance: &str) -> Vec<String> {
    let decode = |json: &str| match schemas::decode(schema, json).expect("a component") {
        Ok(_) => Ok(()),
        Err(error) => Err(Failure {
            path: error.path,
            message: error.message,
        }),
    };
    problems(instance, decode)
        .iter()
        .map(Problem::to_string)
        .collect()
}

/// The path of each reported problem.
fn paths(found: &[String]) -> Vec<&str> {
    found
        .iter()
        .map(|line| {
            line.split_once(": ")
                .map_or(line.as_str(), |(path, _)| path)
        })
        .collect()
}

#[test]
fn a_valid_instance_has_no_problem() {
    let request = r#"{"watched":[{"type":"model","name":"acme/bert-tiny"}],"domains":["repo"],"url":"https://ci.acme.example/hooks/hub"}"#;
    assert_eq!(check("WebhookRequest", request), Vec::<String>::new());
}

#[test]
fn every_problem_of_a_job_request_is_reported_with_a_suggestion() {
    let request = r#"{
        "watched": [{"type": "model", "name": "acme/bert-tiny"}],
        "domains": ["repo"],
        "job": {
            "dockerImage": "ghcr.io/acme/retrain:1.4",
            "flavor": "a10g-smal",
            "timeoutSeconds": 0,
            "network": {"group": "-abc", "aliases": ["ok", "Bad_Alias"]},
            "labels": {"team": "nlp"}
        },
        "url": "not a uri"
    }"#;
    let found = check("WebhookRequest", request);
    let paths = paths(&found);
    assert_eq!(
        paths,
        [
            "job.flavor",
            "job.timeoutSeconds",
            "job.network.group",
            "job.network.aliases[1]",
            "url"
        ],
        "{found:#?}"
    );
    assert_eq!(
        found[0],
        "job.flavor: unknown variant `a10g-smal`, expected one of 29 values; did you mean `a10g-small`?"
    );
}

#[test]
fn unknown_fields_of_a_closed_object_are_reported_at_their_own_path() {
    let found = check("RepoId", r#"{"nmae":"acme/bert","type":"model","extra":1}"#);
    let paths = paths(&found);
    assert_eq!(paths, ["nmae", "extra", "."], "{found:#?}");
    assert!(found[0].ends_with("did you mean `name`?"), "{found:#?}");
    assert!(found[2].contains("missing field `name`"), "{found:#?}");
}

#[test]
fn removed_array_elements_keep_their_original_indices() {
    let request = r#"{"watched":[{"type":"model","name":"acme/bert-tiny"}],"domains":["repo","rpeo","discussion","x"]}"#;
    let found = check("WebhookRequest", request);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("domains[1]: "), "{found:#?}");
    assert!(found[0].ends_with("did you mean `repo`?"), "{found:#?}");
    assert!(found[1].starts_with("domains[3]: "), "{found:#?}");
}

#[test]
fn a_bad_required_field_does_not_hide_what_follows_it() {
    // `watched[0].name` is required and bad; its removal makes `watched[0]` miss a field, which
    // must not be reported, and `domains` after it must still be checked.
    let request =
        r#"{"watched":[{"type":"model","name":5},{"type":"modle","name":"a/b"}],"domains":[]}"#;
    let found = check("WebhookRequest", request);
    let paths = paths(&found);
    assert_eq!(
        paths,
        ["watched[0].name", "watched[1].type", "domains"],
        "{found:#?}"
    );
    assert!(
        found.iter().all(|line| !line.contains("missing field")),
        "{found:#?}"
    );
}

#[test]
fn a_field_missing_from_the_instance_is_reported() {
    let found = check(
        "WebhookRequest",
        r#"{"watched":[{"type":"model","name":"a/b"}]}"#,
    );
    assert_eq!(found, [". : missing field `domains`".replace(". :", ".:")]);
}

#[test]
fn text_that_is_not_json_is_one_problem() {
    let found = check("WebhookRequest", "{\"watched\": [");
    assert_eq!(found.len(), 1, "{found:#?}");
}
