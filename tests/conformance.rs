//! Conformance against an independent mock of the spec: Prism (`@stoplight/prism-cli`) reads
//! `spec/openapi.yaml` on its own, so where it and our generated types disagree, one of us read
//! the spec wrong, or the spec does not say what was meant.
//!
//! `cargo xtask test` starts `prism mock spec/openapi.yaml` and runs this target with the mock's
//! base URL in `HUB_API_MOCK_URL`. Without that variable the test prints that it is skipped and
//! passes, so a plain `cargo test` needs no Node.
//!
//! The operations, their example requests and their response schemas are read from the spec.
//! An operation without a typed call here, or without an invalid-input case where it has a body
//! or bounded parameters, fails the test, so a new operation fails until it is covered.
//!
//! 1. Typed calls: `hub_api::Client` with valid arguments gets a 2xx, and the typed result is the
//!    example the mock serves.
//! 2. Static mode: the example the mock serves without `Prefer`, and every named example of
//!    every success response asked for with `Prefer: example=<name>`, is served as written and
//!    decodes through the generated types. The requests carry the spec's own parameter and body
//!    examples (every named body example is sent), and the mock must flag nothing in them (no
//!    `sl-violations` header).
//! 3. Dynamic mode: with `Prefer: dynamic=true`, [`GENERATED_PER_OPERATION`] generated responses
//!    per operation that has a response body must decode through the generated type of its
//!    schema. Prism validates what it generates and lists violations in `sl-violations`; a
//!    response it flags is no instance of the spec, does not count, and must be refused by our
//!    types too, at the place Prism flags.
//! 4. Invalid inputs: for every operation with a body or bounded parameters, the valid request
//!    with one value broken is sent raw and must get a 422 that names exactly that value, and the
//!    same value given to the client must be refused before anything is sent (the refusing
//!    clients point at a tripwire listener that counts connections).
//!
//! Prism specifics handled here: it answers 401 to a bearer-secured operation called without
//! `Authorization`, so raw requests to those carry a dummy token; a `2XX` response is served as
//! 200; without `Prefer` it serves the response schema's own first `examples` entry ahead of the
//! operation's named examples; it lowercases query parameter names in its 422 locations; and its
//! generator (json-schema-faker 0.5) reads `exclusiveMinimum` only in the draft-04 boolean form,
//! so it makes `timeoutSeconds` values below 1 that its own validator then flags (point 3).
//!
//! Every problem is collected rather than asserted at once, so one run lists all of them; the
//! full bodies of disputed generated responses are written to
//! `target/tmp/conformance-refused.jsonl` for investigation.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, UNIX_EPOCH};

use futures_util::{StreamExt, stream};
use hub_api::Repository;
use hub_api::generated::schemas;
use hub_api::notifications::{
    MAX_PAGE, Mention, NotificationFilter, NotificationSelection, ReadStatus,
};
use hub_api::revocation::RevocationReport;
use hub_api::storage::StorageTokenType;
use hub_api::types;
use hub_api::webhooks::WebhookSpec;
use hub_api::{Client, Error, generated};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Where `cargo xtask test` puts the mock's base URL.
const MOCK_URL_VAR: &str = "HUB_API_MOCK_URL";
/// Generated responses decoded per operation with a response body.
const GENERATED_PER_OPERATION: usize = 100;
/// Requests in flight at once: enough to keep Prism (one Node process) busy, few enough not to
/// starve the other builds on a small CI machine.
const CONCURRENCY: usize = 8;
/// Prism checks that a bearer token is present, never its value.
const DUMMY_TOKEN: &str = "hub_conformance_dummy_token";
/// Gives up on an operation after this many generated responses, whatever decoded.
const MAX_GENERATED_PER_OPERATION: usize = 5 * GENERATED_PER_OPERATION;
/// Only this much of a refused body is printed; the whole body goes to the refused-bodies file.
const PRINTED_BODY: usize = 1500;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_against_the_prism_mock() {
    let Some(base_url) = std::env::var(MOCK_URL_VAR)
        .ok()
        .filter(|url| !url.is_empty())
    else {
        // Written past libtest's output capture, so the skip shows in a plain `cargo test`.
        let _ = writeln!(
            std::io::stderr(),
            "conformance: SKIPPED, {MOCK_URL_VAR} is not set; `cargo xtask test` starts the \
             Prism mock and runs this test against it"
        );
        return;
    };
    let started = Instant::now();
    let spec = Spec::load();
    let operations = spec.operations();
    assert!(!operations.is_empty(), "no operations found in the spec");
    let mock = Mock::new(base_url.trim_end_matches('/'));
    let mut report = Report::default();

    typed_calls(&mock, &operations, &mut report).await;
    static_examples(&mock, &operations, &mut report).await;
    generated_responses(&mock, &operations, &mut report).await;
    invalid_inputs(&mock, &operations, &mut report).await;

    report.finish(&operations, started.elapsed());
}

// ------------------------------------------------------------------------------------ the spec

/// The spec as JSON, read the way the tests need it.
struct Spec {
    doc: Value,
}

/// The JSON body of an operation's success response.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    /// `$ref: '#/components/schemas/<name>'`.
    Component(String),
    /// `type: array` of `$ref: '#/components/schemas/<name>'`.
    ArrayOf(String),
}

/// One operation of the spec with a valid request built from the spec's own examples.
#[derive(Debug, Clone)]
struct Operation {
    id: String,
    method: Method,
    template: String,
    /// Path parameter examples, by name.
    path_examples: BTreeMap<String, String>,
    /// Query parameters that have an example, with it.
    query_examples: Vec<(String, String)>,
    /// The JSON request body's `example`, else its first named example.
    body_example: Option<Value>,
    /// Every named example of the JSON request body.
    body_examples: Vec<(String, Value)>,
    secured: bool,
    /// Whether some parameter has a bound (enum, pattern, range, length or format).
    bounded_parameters: bool,
    /// The success response's JSON body, if it has one.
    response: Option<Shape>,
    /// The named examples of that body.
    response_examples: Vec<(String, Value)>,
    /// The example Prism serves without a `Prefer` header: the media type's `example`, else the
    /// response schema's first `examples` entry (a component's own example comes before the
    /// operation's named ones), else the first named example.
    default_example: Option<Value>,
}

impl Operation {
    /// The valid request: every path parameter and every query parameter with its example,
    /// and the first body example.
    fn example_request(&self) -> RawRequest {
        RawRequest {
            method: self.method.clone(),
            path: self.path_with(&[]),
            query: self.query_examples.clone(),
            body: self.body_example.clone(),
            bearer: self.secured,
        }
    }

    /// The path with the examples filled in, except for `overrides`; every value is
    /// percent-encoded as one segment.
    fn path_with(&self, overrides: &[(&str, &str)]) -> String {
        let mut path = self.template.clone();
        for (name, example) in &self.path_examples {
            let value = overrides
                .iter()
                .find(|(overridden, _)| overridden == name)
                .map_or(example.as_str(), |(_, value)| *value);
            path = path.replace(&format!("{{{name}}}"), &encode_segment(value));
        }
        path
    }
}

impl Spec {
    fn load() -> Self {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/openapi.yaml");
        let text = std::fs::read_to_string(path).expect("reading spec/openapi.yaml");
        Self {
            doc: serde_norway::from_str(&text).expect("parsing spec/openapi.yaml"),
        }
    }

    /// Follows local `$ref`s until a value that is not one.
    fn resolve<'a>(&'a self, mut value: &'a Value) -> &'a Value {
        while let Some(reference) = value.get("$ref").and_then(Value::as_str) {
            let pointer = reference
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("only local $refs are supported, got {reference}"));
            value = self
                .doc
                .pointer(pointer)
                .unwrap_or_else(|| panic!("dangling $ref {reference}"));
        }
        value
    }

    fn operations(&self) -> Vec<Operation> {
        let mut operations = Vec::new();
        let paths = self.doc["paths"].as_object().expect("spec has paths");
        for (template, item) in paths {
            for method in [
                "get", "put", "post", "delete", "options", "head", "patch", "trace",
            ] {
                if let Some(operation) = item.get(method) {
                    operations.push(self.operation(template, item, method, operation));
                }
            }
        }
        operations
    }

    fn operation(&self, template: &str, item: &Value, method: &str, op: &Value) -> Operation {
        let id = op["operationId"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {template} has no operationId"))
            .to_owned();
        let mut path_examples = BTreeMap::new();
        let mut query_examples = Vec::new();
        let mut bounded_parameters = false;
        let parameters = [&item["parameters"], &op["parameters"]]
            .into_iter()
            .filter_map(Value::as_array)
            .flatten()
            .map(|parameter| self.resolve(parameter));
        for parameter in parameters {
            let name = parameter["name"]
                .as_str()
                .expect("parameter name")
                .to_owned();
            let schema = self.resolve(&parameter["schema"]);
            bounded_parameters |= has_bound(schema);
            let example = parameter
                .get("example")
                .or_else(|| schema.get("examples").and_then(|examples| examples.get(0)))
                .map(|example| match example {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                });
            match (parameter["in"].as_str(), example) {
                (Some("path"), Some(example)) => {
                    path_examples.insert(name, example);
                }
                (Some("path"), None) => panic!("{id}: path parameter {name} has no example"),
                (Some("query"), Some(example)) => query_examples.push((name, example)),
                _ => {}
            }
        }
        let body_media = op
            .get("requestBody")
            .map(|body| &self.resolve(body)["content"]["application/json"]);
        let body_examples = body_media
            .map(|media| self.named_examples(media))
            .unwrap_or_default();
        let body_example = body_media
            .and_then(|media| media.get("example"))
            .or_else(|| body_examples.first().map(|(_, value)| value))
            .cloned();
        let security = op.get("security").unwrap_or(&self.doc["security"]);
        let secured = security
            .as_array()
            .is_some_and(|requirements| requirements.iter().any(|r| r.as_object().is_some()));
        let success = self.success_response(&id, &op["responses"]);
        Operation {
            method: method.to_uppercase().parse().expect("HTTP method"),
            template: template.to_owned(),
            path_examples,
            query_examples,
            body_example,
            body_examples,
            secured,
            bounded_parameters,
            response: success.shape,
            response_examples: success.examples,
            default_example: success.default_example,
            id,
        }
    }

    /// The first `2..` response.
    fn success_response(&self, id: &str, responses: &Value) -> Success {
        let responses = responses.as_object().expect("responses");
        let (_, response) = responses
            .iter()
            .find(|(code, _)| code.starts_with('2'))
            .unwrap_or_else(|| panic!("{id} has no 2xx response"));
        let media = &self.resolve(response)["content"]["application/json"];
        let Some(schema) = media.get("schema") else {
            return Success::default();
        };
        let component = |schema: &Value| {
            schema["$ref"]
                .as_str()
                .and_then(|reference| reference.strip_prefix("#/components/schemas/"))
                .map(str::to_owned)
        };
        let shape = if let Some(name) = component(schema) {
            Shape::Component(name)
        } else if schema["type"] == "array"
            && let Some(name) = component(&schema["items"])
        {
            Shape::ArrayOf(name)
        } else {
            panic!("{id}: the response schema is neither a component nor an array of one");
        };
        let examples = self.named_examples(media);
        let default_example = media
            .get("example")
            .or_else(|| {
                self.resolve(schema)
                    .get("examples")
                    .and_then(|list| list.get(0))
            })
            .or_else(|| examples.first().map(|(_, value)| value))
            .cloned();
        Success {
            shape: Some(shape),
            examples,
            default_example,
        }
    }

    /// The named `examples` of a media type.
    fn named_examples(&self, media: &Value) -> Vec<(String, Value)> {
        media["examples"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, example)| (name.clone(), self.resolve(example)["value"].clone()))
            .collect()
    }
}

/// An operation's success response, as far as the tests need it.
#[derive(Default)]
struct Success {
    shape: Option<Shape>,
    examples: Vec<(String, Value)>,
    default_example: Option<Value>,
}

/// Whether a parameter schema restricts its values beyond its type.
fn has_bound(schema: &Value) -> bool {
    const BOUNDS: &[&str] = &[
        "enum",
        "const",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
    ];
    BOUNDS.iter().any(|bound| schema.get(bound).is_some())
}

/// Percent-encodes everything but RFC 3986 unreserved characters, as one path segment.
fn encode_segment(value: &str) -> String {
    let mut encoded = String::new();
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

// -------------------------------------------------------------------------------------- the mock

/// A request sent as written, bypassing every client.
#[derive(Debug, Clone)]
struct RawRequest {
    method: Method,
    path: String,
    query: Vec<(String, String)>,
    body: Option<Value>,
    /// Whether to send the dummy bearer token (bearer-secured operations).
    bearer: bool,
}

impl RawRequest {
    fn set_query(mut self, name: &str, value: &str) -> Self {
        self.query.retain(|(existing, _)| existing != name);
        self.query.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Replaces the body value at a JSON pointer, which must exist.
    fn set_body(mut self, pointer: &str, value: Value) -> Self {
        let target = self
            .body
            .as_mut()
            .and_then(|body| body.pointer_mut(pointer))
            .unwrap_or_else(|| panic!("the example body has no {pointer}"));
        *target = value;
        self
    }

    fn describe(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

struct Reply {
    status: StatusCode,
    /// Prism's `sl-violations` header: what it found wrong with the request or its own response.
    violations: Option<String>,
    body: String,
}

struct Mock {
    base_url: String,
    /// A typed client of the mock, authenticated like a real user.
    client: Client,
    /// A plain HTTP client for raw requests.
    http: reqwest::Client,
}

impl Mock {
    fn new(base_url: &str) -> Self {
        // Built first: building a `hub_api::Client` installs the TLS crypto provider that
        // reqwest (built without a default one) needs before any client is built.
        let client = Client::builder(base_url)
            .token(DUMMY_TOKEN)
            .build()
            .expect("client of the mock");
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("HTTP client");
        Self {
            base_url: base_url.to_owned(),
            client,
            http,
        }
    }

    async fn send(&self, request: &RawRequest, prefer: Option<&str>) -> Result<Reply, String> {
        let mut builder = self
            .http
            .request(
                request.method.clone(),
                format!("{}{}", self.base_url, request.path),
            )
            .query(&request.query);
        if request.bearer {
            builder = builder.bearer_auth(DUMMY_TOKEN);
        }
        if let Some(prefer) = prefer {
            builder = builder.header("Prefer", prefer);
        }
        if let Some(body) = &request.body {
            builder = builder.json(body);
        }
        let response = builder
            .send()
            .await
            .map_err(|error| format!("{}: {error}", request.describe()))?;
        let status = response.status();
        let violations = response
            .headers()
            .get("sl-violations")
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        let body = response
            .text()
            .await
            .map_err(|error| format!("{}: reading the body: {error}", request.describe()))?;
        Ok(Reply {
            status,
            violations,
            body,
        })
    }
}

// ------------------------------------------------------------------------------------ the report

#[derive(Default)]
struct Report {
    /// Operations whose typed call succeeded with the expected result.
    typed: BTreeSet<String>,
    examples_decoded: usize,
    /// Generated responses decoded, by operation.
    generated: BTreeMap<String, usize>,
    /// Generated responses that the mock's own validator flags and our types refuse, by
    /// operation and refusal.
    generated_flagged: BTreeMap<String, usize>,
    invalid_agreed: usize,
    /// Operations with at least one agreed invalid input.
    invalid_operations: BTreeSet<String>,
    problems: Vec<String>,
    refused_bodies: Vec<Value>,
}

impl Report {
    fn problem(&mut self, problem: impl Into<String>) {
        self.problems.push(problem.into());
    }

    fn finish(self, operations: &[Operation], elapsed: Duration) {
        let mut problems = self.problems;
        for operation in operations {
            if !self.typed.contains(&operation.id) {
                problems.push(format!("{}: no successful typed call", operation.id));
            }
        }
        let with_body = operations.iter().filter(|op| op.response.is_some()).count();
        let generated: usize = self.generated.values().sum();
        let flagged: usize = self.generated_flagged.values().sum();
        let flagged_reasons: String = self
            .generated_flagged
            .iter()
            .map(|(reason, count)| format!("\n  {count} × {reason}"))
            .collect();
        // Replaced on every run, so that a file left by an earlier failure cannot mislead.
        let refused_path = concat!(env!("CARGO_TARGET_TMPDIR"), "/conformance-refused.jsonl");
        let _ = std::fs::remove_file(refused_path);
        let refused_note = if self.refused_bodies.is_empty() {
            String::new()
        } else {
            let lines: String = self
                .refused_bodies
                .iter()
                .map(|body| format!("{body}\n"))
                .collect();
            match std::fs::write(refused_path, lines) {
                Ok(()) => format!("\nthe disputed generated responses are in {refused_path}"),
                Err(error) => format!("\ncould not write {refused_path}: {error}"),
            }
        };
        let summary = format!(
            "conformance: {} operations checked ({} typed calls, {} static examples decoded)\n\
             conformance: {generated} generated responses decoded ({} operations with a response \
             body, {GENERATED_PER_OPERATION} required of each)\n\
             conformance: {flagged} generated responses flagged by the mock's own validator and \
             refused by our types too{flagged_reasons}\n\
             conformance: {} invalid inputs agreed over {} operations (mock 422, client refused \
             before sending)\n\
             conformance: {} problems, {:.1} s",
            operations.len(),
            self.typed.len(),
            self.examples_decoded,
            with_body,
            self.invalid_agreed,
            self.invalid_operations.len(),
            problems.len(),
            elapsed.as_secs_f64(),
        );
        // Written past libtest's output capture: the counts are the point of a passing run.
        let _ = writeln!(std::io::stderr(), "{summary}");
        assert!(
            problems.is_empty(),
            "{} conformance problems:\n- {}{refused_note}",
            problems.len(),
            problems.join("\n- ")
        );
    }
}

// --------------------------------------------------------------------------- 1. typed calls

/// The filter with every query parameter set to its example in the spec.
fn full_filter() -> NotificationFilter {
    NotificationFilter {
        read_status: Some(ReadStatus::Unread),
        repo_type: Some(types::RepoType::Model),
        repo_name: Some("acme/bert-tiny".into()),
        post_author: Some("ada".into()),
        paper_id: Some("2411.01234".into()),
        article_id: Some("fine-tuning-on-a-budget".into()),
        mention: Some(Mention::Participating),
        last_update: Some(
            types::Timestamp::try_from("2026-11-01T00:00:00Z").expect("valid timestamp"),
        ),
    }
}

const DISCUSSION_IDS: [&str; 2] = ["6729a1f0c3d4e5f6a7b8c904", "6729A1F0C3D4E5F6A7B8C907"];
const WEBHOOK_ID: &str = "6729a1f0c3d4e5f6a7b8c90a";
const WEBHOOK_URL: &str = "https://ci.acme.example/hooks/hub";

fn url_webhook() -> WebhookSpec {
    url_webhook_to(WEBHOOK_URL)
}

/// The URL webhook of the spec's `createWebhook` example, delivering to `url`.
fn url_webhook_to(url: &str) -> WebhookSpec {
    WebhookSpec::url(url)
        .watch(types::WatchedType::Model, "acme/bert-tiny")
        .domain(types::WebhookDomain::Repo)
        .domain(types::WebhookDomain::Discussion)
        .secret("correct horse battery staple")
}

/// The job webhook of the spec's `createWebhook` body examples (the one with a `job`).
fn job_webhook(operations: &[Operation]) -> Result<WebhookSpec, Failure> {
    let job = operation(operations, "createWebhook")
        .and_then(|op| {
            op.body_examples
                .iter()
                .find_map(|(_, body)| body.get("job"))
        })
        .ok_or_else(|| {
            Failure::Test("the spec has no createWebhook body example with a job".into())
        })?;
    let job: types::WebhookJobRequest = serde_json::from_value(job.clone()).map_err(|error| {
        Failure::Test(format!("the spec's job example does not decode: {error}"))
    })?;
    Ok(WebhookSpec::job(job)
        .watch(types::WatchedType::Org, "acme")
        .domain(types::WebhookDomain::Repo))
}

fn operation<'a>(operations: &'a [Operation], id: &str) -> Option<&'a Operation> {
    operations.iter().find(|op| op.id == id)
}

/// Why a typed call failed.
#[derive(Debug)]
enum Failure {
    /// The client returned an error.
    Client(Error),
    /// The call returned, but not what it should have.
    Test(String),
    /// This test has no typed call for the operation.
    NoCase,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Self::Client(error)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Client(error) => write!(f, "{error}"),
            Self::Test(message) => f.write_str(message),
            Self::NoCase => f.write_str("no typed call in this test"),
        }
    }
}

/// What a typed call returned, as JSON to compare with the example the mock serves.
enum Typed {
    /// An operation without a response body.
    Done,
    /// The decoded body, serialized again.
    Body(Value),
    /// A webhook unwrapped from its `{ "webhook": ... }` envelope.
    Webhook(Value),
}

/// Calls every operation through `hub_api::Client` (static mode: the mock serves its default
/// example), comparing each typed result with that example.
async fn typed_calls(mock: &Mock, operations: &[Operation], report: &mut Report) {
    let client = &mock.client;
    for op in operations {
        match typed_call(client, operations, &op.id).await {
            Err(error) => report.problem(format!("{}: typed call failed: {error}", op.id)),
            Ok(typed) => {
                let expected = op.default_example.as_ref();
                let (actual, expected) = match (typed, expected) {
                    (Typed::Done, None) => (None, None),
                    (Typed::Body(actual), Some(expected)) => (Some(actual), Some(expected.clone())),
                    (Typed::Webhook(actual), Some(expected)) => {
                        (Some(actual), Some(expected["webhook"].clone()))
                    }
                    _ => {
                        report.problem(format!(
                            "{}: the typed result and the spec disagree on whether there is a \
                             response body",
                            op.id
                        ));
                        continue;
                    }
                };
                if let (Some(actual), Some(expected)) = (actual, expected)
                    && !same_json(&actual, &expected)
                {
                    report.problem(format!(
                        "{}: the typed result is not the served example\n  typed:   {actual}\n  \
                         example: {expected}",
                        op.id
                    ));
                    continue;
                }
                report.typed.insert(op.id.clone());
            }
        }
    }
}

/// One typed call per operation (two where the operation has two distinct request forms, and
/// both must succeed).
async fn typed_call(client: &Client, operations: &[Operation], id: &str) -> Result<Typed, Failure> {
    Ok(match id {
        "listNotifications" => Typed::Body(to_json(
            &client
                .list_notifications(&full_filter(), 0)
                .await?
                .into_complete()
                .map_err(hub_api::Error::from)?,
        )),
        "deleteNotifications" => {
            client
                .delete_notifications(&NotificationSelection::discussions(DISCUSSION_IDS))
                .await?;
            client
                .delete_notifications(&NotificationSelection::all_matching(full_filter()))
                .await?;
            Typed::Done
        }
        "markNotificationsAsRead" => {
            let discussions = NotificationSelection::discussions(DISCUSSION_IDS);
            client.mark_notifications_read(&discussions, true).await?;
            let matching = NotificationSelection::all_matching(full_filter());
            client.mark_notifications_read(&matching, false).await?;
            Typed::Done
        }
        "updateNotificationSettings" => {
            let settings: types::NotificationSettingsRequest = serde_json::from_value(json!({
                "notifications": {
                    "daily_papers_digest": true,
                    "discussions_watched": false,
                    "launch_prepaid_credits": true,
                    "product_updates_after": "2026-01-01T00:00:00Z"
                },
                "prepaidAmount": "25.00"
            }))
            .map_err(|error| Failure::Test(format!("settings: {error}")))?;
            client.update_notification_settings(settings).await?;
            Typed::Done
        }
        "updateWatchSettings" => {
            let watch: types::WatchSettingsRequest = serde_json::from_value(json!({
                "add": [{ "id": "5f1e2d3c4b5a69788796a5b5", "type": "org" }],
                "delete": [{ "id": "6729a1f0c3d4e5f6a7b8c908", "type": "repo" }]
            }))
            .map_err(|error| Failure::Test(format!("watch settings: {error}")))?;
            client.update_watch_settings(watch).await?;
            Typed::Done
        }
        "revokeCredentials" => {
            let tokens = [
                "hub_0000000000000000000000000000000000EXAMPLE1",
                "hub_0000000000000000000000000000000000EXAMPLE2",
            ];
            let expected = RevocationReport {
                tokens: 2,
                requests: 1,
            };
            let report = client.revoke_credentials(tokens).await?;
            if report != expected {
                return Err(Failure::Test(format!(
                    "expected {expected:?}, got {report:?}"
                )));
            }
            Typed::Done
        }
        "getMcpSettings" => Typed::Body(to_json(&client.mcp_settings().await?)),
        "listWebhooks" => Typed::Body(to_json(
            &client
                .list_webhooks()
                .await?
                .into_complete()
                .map_err(hub_api::Error::from)?,
        )),
        "createWebhook" => {
            // The job webhook puts the request `oneOf` under the mock's validation; the URL
            // webhook's result is compared with the served example.
            client.create_webhook(&job_webhook(operations)?).await?;
            Typed::Webhook(to_json(&client.create_webhook(&url_webhook()).await?))
        }
        "getWebhook" => Typed::Webhook(to_json(&client.get_webhook(WEBHOOK_ID).await?)),
        "updateWebhook" => {
            client.update_webhook(WEBHOOK_ID, &url_webhook()).await?;
            Typed::Done
        }
        "deleteWebhook" => {
            client.delete_webhook(WEBHOOK_ID).await?;
            Typed::Done
        }
        "enableWebhook" => Typed::Webhook(to_json(&client.enable_webhook(WEBHOOK_ID).await?)),
        "disableWebhook" => Typed::Webhook(to_json(&client.disable_webhook(WEBHOOK_ID).await?)),
        "getStorageAccessToken" => {
            let repository = Repository::model("acme/bert-tiny");
            // A revision with `/` must reach the mock as one percent-encoded segment.
            let pull_request = repository.clone().at_revision("refs/pr/5");
            client
                .storage_access_token(&pull_request, StorageTokenType::Write)
                .await?;
            let token = client
                .storage_access_token(&repository, StorageTokenType::Read)
                .await?;
            let exp = token
                .expires_at()
                .duration_since(UNIX_EPOCH)
                .map_or(f64::NAN, |since| since.as_secs_f64());
            Typed::Body(json!({
                "accessToken": token.access_token().expose(),
                "exp": exp,
                "casUrl": token.cas_url(),
            }))
        }
        _ => return Err(Failure::NoCase),
    })
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("generated types serialize")
}

/// JSON equality where numbers compare by value (`0` and `0.0` are the same number; the typed
/// counters are `f64`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| same_json(x, y)))
        }
        _ => a == b,
    }
}

// ------------------------------------------------------------------------- 2. static examples

/// Asks for every named example of every success response and decodes what is served; sends
/// every named request body example, which the mock must accept without a violation.
async fn static_examples(mock: &Mock, operations: &[Operation], report: &mut Report) {
    for op in operations {
        // (what, request, Prefer, the example that must be served)
        let mut asks: Vec<(String, RawRequest, Option<String>, Option<&Value>)> = vec![(
            "no Prefer".to_owned(),
            op.example_request(),
            None,
            op.default_example.as_ref(),
        )];
        for (name, value) in &op.response_examples {
            let prefer = format!("example={name}");
            asks.push((
                prefer.clone(),
                op.example_request(),
                Some(prefer),
                Some(value),
            ));
        }
        for (name, body) in op.body_examples.iter().skip(1) {
            let request = RawRequest {
                body: Some(body.clone()),
                ..op.example_request()
            };
            asks.push((format!("request example {name}"), request, None, None));
        }
        for (what, request, prefer, expected) in asks {
            let what = format!("{} ({what})", op.id);
            let reply = match mock.send(&request, prefer.as_deref()).await {
                Ok(reply) => reply,
                Err(error) => {
                    report.problem(format!("{what}: {error}"));
                    continue;
                }
            };
            if !reply.status.is_success() {
                report.problem(format!("{what}: HTTP {}: {}", reply.status, reply.body));
                continue;
            }
            if let Some(violations) = reply.violations {
                report.problem(format!(
                    "{what}: the mock flags the spec's examples: {violations}"
                ));
                continue;
            }
            let Some(shape) = &op.response else {
                if !reply.body.is_empty() {
                    report.problem(format!("{what}: a body where the spec has none"));
                }
                continue;
            };
            match (decode(shape, &reply.body), expected) {
                (Err(error), _) => {
                    report.problem(format!(
                        "{what}: the served example does not decode: {error}"
                    ));
                }
                (Ok(decoded), Some(expected)) if !same_json(&decoded, expected) => {
                    report.problem(format!(
                        "{what}: served or decoded differently from the spec's example\n  \
                         decoded: {decoded}\n  example: {expected}"
                    ));
                }
                (Ok(_), _) => report.examples_decoded += 1,
            }
        }
    }
}

/// Why a body does not decode: where (a dotted path, array indices as segments, as Prism writes
/// locations; empty for the whole body) and which rule it breaks.
#[derive(Debug)]
struct Refusal {
    path: String,
    message: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl Refusal {
    fn whole(message: impl Into<String>) -> Self {
        Self {
            path: String::new(),
            message: message.into(),
        }
    }

    /// The refusal with array indices and the offending value taken out, so that the same
    /// refusal of different generated values is counted once.
    fn general(&self) -> String {
        let message = self.message.split("; got ").next().unwrap_or(&self.message);
        format!("{}: {message}", general_path(&self.path))
    }
}

/// A dotted path with array indices replaced by `<i>`.
fn general_path(path: &str) -> String {
    path.split('.')
        .map(|segment| {
            if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                "<i>"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// `notifications[2].type` → `notifications.2.type`.
fn dotted(path: &str) -> String {
    path.replace('[', ".")
        .replace(']', "")
        .trim_start_matches('.')
        .to_owned()
}

/// Decodes a response body through the generated type of its schema; returns the decoded value
/// serialized again.
fn decode(shape: &Shape, body: &str) -> Result<Value, Refusal> {
    let component = |name: &str, json: &str| match schemas::decode(name, json) {
        None => Err(Refusal::whole(format!(
            "the generated client has no type for component `{name}`"
        ))),
        Some(result) => result.map_err(|error| Refusal {
            path: dotted(&error.path),
            message: error.message,
        }),
    };
    match shape {
        Shape::Component(name) => component(name, body),
        Shape::ArrayOf(name) => {
            let value: Value = serde_json::from_str(body)
                .map_err(|error| Refusal::whole(format!("not JSON: {error}")))?;
            let items = value
                .as_array()
                .ok_or_else(|| Refusal::whole("not a JSON array"))?;
            items
                .iter()
                .enumerate()
                .map(|(index, item)| {
                    component(name, &item.to_string()).map_err(|refusal| Refusal {
                        path: format!("{index}.{}", refusal.path)
                            .trim_end_matches('.')
                            .to_owned(),
                        message: refusal.message,
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array)
        }
    }
}

// ------------------------------------------------------------------------ 3. generated responses

/// Asks for generated responses until [`GENERATED_PER_OPERATION`] per operation with a response
/// body have decoded.
///
/// Prism validates its own responses and lists what it finds in `sl-violations`. A response it
/// flags is not an instance of the spec (its generator, json-schema-faker, does not honour every
/// keyword), so it does not count; our types must refuse it too. What it does not flag must
/// decode: a refusal there is our bug or a spec bug.
async fn generated_responses(mock: &Mock, operations: &[Operation], report: &mut Report) {
    for op in operations {
        let Some(shape) = &op.response else { continue };
        let request = op.example_request();
        let mut decoded = 0;
        let mut sent = 0;
        let mut refusals: BTreeMap<String, (usize, Reply)> = BTreeMap::new();
        while decoded < GENERATED_PER_OPERATION && sent < MAX_GENERATED_PER_OPERATION {
            let round = GENERATED_PER_OPERATION - decoded;
            sent += round;
            let replies: Vec<Result<Reply, String>> = stream::iter(0..round)
                .map(|_| mock.send(&request, Some("dynamic=true")))
                .buffer_unordered(CONCURRENCY)
                .collect()
                .await;
            for reply in replies {
                let reply = match reply {
                    Ok(reply) if reply.status.is_success() => reply,
                    Ok(reply) => {
                        report.problem(format!(
                            "{} (dynamic): HTTP {}: {}",
                            op.id, reply.status, reply.body
                        ));
                        continue;
                    }
                    Err(error) => {
                        report.problem(format!("{} (dynamic): {error}", op.id));
                        continue;
                    }
                };
                let flagged = mock_flagged_locations(&reply);
                // For messages: each flagged place once, indices generalized.
                let flagged_general = flagged
                    .iter()
                    .map(|at| general_path(at))
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect::<Vec<_>>()
                    .join(", ");
                let verdict = match decode(shape, &reply.body) {
                    Ok(_) if flagged.is_empty() => {
                        decoded += 1;
                        continue;
                    }
                    Ok(_) => {
                        format!("accepted, but the mock's own validator flags {flagged_general}")
                    }
                    // Both refuse, for the same value: the generator made an invalid instance.
                    Err(refusal) if flagged.iter().any(|at| related(at, &refusal.path)) => {
                        *report
                            .generated_flagged
                            .entry(format!("{}: {}", op.id, refusal.general()))
                            .or_default() += 1;
                        continue;
                    }
                    Err(refusal) if flagged.is_empty() => format!("refused: {}", refusal.general()),
                    Err(refusal) => format!(
                        "refused ({}), but the mock's own validator flags only {flagged_general}",
                        refusal.general(),
                    ),
                };
                report.refused_bodies.push(json!({
                    "operation": op.id,
                    "verdict": verdict,
                    "mockViolations": reply.violations,
                    "body": serde_json::from_str::<Value>(&reply.body)
                        .unwrap_or_else(|_| Value::String(reply.body.clone())),
                }));
                refusals.entry(verdict).or_insert((0, reply)).0 += 1;
            }
        }
        for (verdict, (count, reply)) in refusals {
            report.problem(format!(
                "{} (dynamic): {count} generated responses {verdict}\n  e.g. {}",
                op.id,
                shorten(&reply.body)
            ));
        }
        if decoded < GENERATED_PER_OPERATION {
            report.problem(format!(
                "{}: only {decoded} of {sent} generated responses decoded",
                op.id
            ));
        }
        report.generated.insert(op.id.clone(), decoded);
    }
}

/// Where Prism found error-level violations in its own response body (dotted paths).
fn mock_flagged_locations(reply: &Reply) -> Vec<String> {
    let Some(header) = reply.violations.as_deref() else {
        return Vec::new();
    };
    let Ok(violations) = serde_json::from_str::<Vec<Value>>(header) else {
        // Prism truncates a long header ("Too many violations! ..."); still a flag.
        return vec![String::new()];
    };
    violations
        .iter()
        .filter(|violation| violation["severity"] == "Error")
        .filter_map(|violation| {
            let location: Vec<&str> = violation["location"]
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            let rest = location.strip_prefix(&["response", "body"][..])?;
            Some(rest.join("."))
        })
        .collect()
}

/// Whether two dotted locations are the same value or one contains the other (a `oneOf` is
/// flagged at the union as well as at the member that broke it).
fn related(a: &str, b: &str) -> bool {
    let inside = |outer: &str, inner: &str| {
        outer.is_empty() || inner == outer || inner.starts_with(&format!("{outer}."))
    };
    inside(a, b) || inside(b, a)
}

/// At most [`PRINTED_BODY`] bytes of a body, for a message.
fn shorten(body: &str) -> String {
    if body.len() <= PRINTED_BODY {
        return body.to_owned();
    }
    let mut end = PRINTED_BODY;
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &body[..end])
}

// ----------------------------------------------------------------------------- 4. invalid inputs

/// One invalid input: the valid example request with one value broken.
#[derive(Debug, Clone, Copy)]
enum Invalid {
    PageAboveMaximum,
    DiscussionIdNotHex,
    LastUpdateWithOffset,
    PrepaidAmountTooLong,
    UnknownWatchTargetType,
    CredentialTooLong,
    RelativeWebhookUrl,
    NonAsciiWebhookSecret,
    NoWebhookDomain,
    EmptyNamespace,
    UnknownStorageRepoType,
}

const INVALID: &[Invalid] = &[
    Invalid::PageAboveMaximum,
    Invalid::DiscussionIdNotHex,
    Invalid::LastUpdateWithOffset,
    Invalid::PrepaidAmountTooLong,
    Invalid::UnknownWatchTargetType,
    Invalid::CredentialTooLong,
    Invalid::RelativeWebhookUrl,
    Invalid::NonAsciiWebhookSecret,
    Invalid::NoWebhookDomain,
    Invalid::EmptyNamespace,
    Invalid::UnknownStorageRepoType,
];

// The broken values, shared by the raw request and the client call so both get the same input.
const TOO_LONG_CREDENTIAL_LEN: usize = 201;
const TOO_LONG_PREPAID_AMOUNT_LEN: usize = 25;
const NOT_A_HEX_ID: &str = "not-a-hex-id";
/// A valid RFC 3339 date-time, but the spec wants UTC written with `Z`.
const TIMESTAMP_WITH_OFFSET: &str = "2026-11-01T00:00:00+01:00";
const RELATIVE_URL: &str = "ci.acme.example/hooks/hub";
const NON_ASCII_SECRET: &str = "café au lait";
const UNKNOWN_WATCH_TARGET_TYPE: &str = "folder";
const NON_STORAGE_REPO_TYPE: &str = "bucket";

/// The clients that must refuse: they point at a listener that only counts connections, so a
/// request that was sent anyway shows up.
struct Refusers {
    client: Client,
    generated: generated::Client,
}

impl Invalid {
    fn operation(self) -> &'static str {
        match self {
            Self::PageAboveMaximum => "listNotifications",
            Self::DiscussionIdNotHex => "deleteNotifications",
            Self::LastUpdateWithOffset => "markNotificationsAsRead",
            Self::PrepaidAmountTooLong => "updateNotificationSettings",
            Self::UnknownWatchTargetType => "updateWatchSettings",
            Self::CredentialTooLong => "revokeCredentials",
            Self::RelativeWebhookUrl | Self::NonAsciiWebhookSecret => "createWebhook",
            Self::NoWebhookDomain => "updateWebhook",
            Self::EmptyNamespace | Self::UnknownStorageRepoType => "getStorageAccessToken",
        }
    }

    /// The raw request, and the location the mock's 422 must name (Prism lowercases query
    /// parameter names there).
    fn raw(self, op: &Operation) -> (RawRequest, &'static [&'static str]) {
        let request = op.example_request();
        match self {
            Self::PageAboveMaximum => (
                request.set_query("p", &(MAX_PAGE + 1).to_string()),
                &["query", "p"],
            ),
            Self::DiscussionIdNotHex => (
                request.set_body("/discussionIds/0", json!(NOT_A_HEX_ID)),
                &["body", "discussionIds", "0"],
            ),
            Self::LastUpdateWithOffset => (
                request.set_query("lastUpdate", TIMESTAMP_WITH_OFFSET),
                &["query", "lastupdate"],
            ),
            Self::PrepaidAmountTooLong => (
                request.set_body(
                    "/prepaidAmount",
                    json!("9".repeat(TOO_LONG_PREPAID_AMOUNT_LEN)),
                ),
                &["body", "prepaidAmount"],
            ),
            Self::UnknownWatchTargetType => (
                request.set_body("/add/0/type", json!(UNKNOWN_WATCH_TARGET_TYPE)),
                &["body", "add", "0", "type"],
            ),
            Self::CredentialTooLong => (
                request.set_body("/credentials/0", json!("x".repeat(TOO_LONG_CREDENTIAL_LEN))),
                &["body", "credentials", "0"],
            ),
            Self::RelativeWebhookUrl => (
                request.set_body("/url", json!(RELATIVE_URL)),
                &["body", "url"],
            ),
            Self::NonAsciiWebhookSecret => (
                request.set_body("/secret", json!(NON_ASCII_SECRET)),
                &["body", "secret"],
            ),
            Self::NoWebhookDomain => (
                request.set_body("/domains", json!([])),
                &["body", "domains"],
            ),
            Self::EmptyNamespace => {
                let path = op.path_with(&[("namespace", "")]);
                // Prism reports a missing path parameter against the whole path.
                (RawRequest { path, ..request }, &["path"])
            }
            Self::UnknownStorageRepoType => {
                let path = op.path_with(&[("repo_type", NON_STORAGE_REPO_TYPE)]);
                (RawRequest { path, ..request }, &["path", "repo_type"])
            }
        }
    }

    /// Gives the same input to a client; `Ok` describes the refusal, `Err` what went wrong.
    /// Where the client's own API can carry the value, `hub_api::Client` gets it; where its
    /// typed arguments cannot, the generated builder (which takes strings) or the generated
    /// request type (decoding the same JSON body) must refuse it.
    async fn refuse(self, refusers: &Refusers, op: &Operation) -> Result<String, String> {
        let client = &refusers.client;
        match self {
            Self::PageAboveMaximum => expect_validation(
                client
                    .list_notifications(&NotificationFilter::default(), MAX_PAGE + 1)
                    .await,
                "p",
            ),
            Self::DiscussionIdNotHex => expect_validation(
                client
                    .delete_notifications(&NotificationSelection::discussions([
                        NOT_A_HEX_ID,
                        DISCUSSION_IDS[1],
                    ]))
                    .await,
                "discussionIds[0]",
            ),
            Self::LastUpdateWithOffset => {
                let body: types::MarkAsReadRequest =
                    serde_json::from_value(op.body_example.clone().unwrap_or_default())
                        .map_err(|error| format!("the example body does not decode: {error}"))?;
                let result = refusers
                    .generated
                    .mark_notifications_as_read()
                    .last_update(TIMESTAMP_WITH_OFFSET)
                    .body(body)
                    .send()
                    .await;
                expect_invalid_request(result.map(|_| ()), "last_update")
            }
            Self::PrepaidAmountTooLong => {
                let (request, _) = self.raw(op);
                expect_type_refusal::<types::NotificationSettingsRequest>(
                    request.body,
                    "prepaidAmount",
                )
            }
            Self::UnknownWatchTargetType => {
                let (request, _) = self.raw(op);
                expect_type_refusal::<types::WatchSettingsRequest>(request.body, "add[0].type")
            }
            Self::CredentialTooLong => expect_validation(
                client
                    .revoke_credentials(["x".repeat(TOO_LONG_CREDENTIAL_LEN)])
                    .await,
                "credentials[0]",
            ),
            Self::RelativeWebhookUrl => expect_validation(
                client.create_webhook(&url_webhook_to(RELATIVE_URL)).await,
                "url",
            ),
            Self::NonAsciiWebhookSecret => expect_validation(
                client
                    .create_webhook(&url_webhook().secret(NON_ASCII_SECRET))
                    .await,
                "secret",
            ),
            Self::NoWebhookDomain => expect_validation(
                client
                    .update_webhook(
                        WEBHOOK_ID,
                        &WebhookSpec::url(WEBHOOK_URL)
                            .watch(types::WatchedType::Model, "acme/bert-tiny"),
                    )
                    .await,
                "domains",
            ),
            Self::EmptyNamespace => expect_validation(
                client
                    .storage_access_token(&Repository::model("/bert-tiny"), StorageTokenType::Read)
                    .await,
                "repository.id",
            ),
            Self::UnknownStorageRepoType => {
                let result = refusers
                    .generated
                    .get_storage_access_token()
                    .repo_type(NON_STORAGE_REPO_TYPE)
                    .namespace("acme")
                    .repo("bert-tiny")
                    .token_type(types::StorageTokenType::Read)
                    .revision("main")
                    .send()
                    .await;
                expect_invalid_request(result.map(|_| ()), "repo_type")
            }
        }
    }
}

fn expect_validation<T>(result: Result<T, Error>, field: &str) -> Result<String, String> {
    match result {
        Err(Error::Validation {
            field: refused,
            rule,
        }) if refused == field => Ok(format!("hub_api::Client: invalid `{refused}`: {rule}")),
        Err(error) => Err(format!(
            "hub_api::Client should refuse `{field}`, got: {error}"
        )),
        Ok(_) => Err(format!(
            "hub_api::Client accepted it (expected a refusal of `{field}`)"
        )),
    }
}

fn expect_invalid_request(
    result: Result<(), generated::Error<()>>,
    field: &str,
) -> Result<String, String> {
    match result {
        Err(generated::Error::InvalidRequest(message)) if message.contains(field) => {
            Ok(format!("generated client: {message}"))
        }
        Err(error) => Err(format!(
            "the generated client should refuse `{field}`, got: {error}"
        )),
        Ok(()) => Err(format!(
            "the generated client accepted it (expected a refusal of `{field}`)"
        )),
    }
}

/// The generated request type must refuse the body, at `path`.
fn expect_type_refusal<T: serde::de::DeserializeOwned>(
    body: Option<Value>,
    path: &str,
) -> Result<String, String> {
    let body = body.ok_or("no body")?;
    let type_name = std::any::type_name::<T>();
    match serde_path_to_error::deserialize::<_, T>(body) {
        Err(error) if error.path().to_string() == path => {
            Ok(format!("{type_name}: {path}: {}", error.inner()))
        }
        Err(error) => Err(format!(
            "{type_name} should refuse `{path}`, refused `{}`: {}",
            error.path(),
            error.inner()
        )),
        Ok(_) => Err(format!(
            "{type_name} accepted it (expected a refusal of `{path}`)"
        )),
    }
}

/// Sends each invalid input raw (the mock must answer 422 naming the broken value) and gives it
/// to a client (which must refuse it without connecting).
async fn invalid_inputs(mock: &Mock, operations: &[Operation], report: &mut Report) {
    let tripwire = Tripwire::start().await;
    let refusers = Refusers {
        client: Client::builder(tripwire.url())
            .token(DUMMY_TOKEN)
            .build()
            .expect("client of the tripwire"),
        generated: generated::Client::new(&tripwire.url(), generated::Transport::default()),
    };
    for &case in INVALID {
        let Some(op) = operation(operations, case.operation()) else {
            report.problem(format!(
                "{case:?}: the spec has no operation {}",
                case.operation()
            ));
            continue;
        };
        let (request, location) = case.raw(op);
        let mock_verdict = match mock.send(&request, None).await {
            Err(error) => Err(error),
            Ok(reply) => refused_at(&reply, location),
        };
        let client_verdict = case.refuse(&refusers, op).await;
        match (mock_verdict, client_verdict) {
            (Ok(_), Ok(_)) => {
                report.invalid_agreed += 1;
                report.invalid_operations.insert(op.id.clone());
            }
            (mock, client) => report.problem(format!(
                "{} {case:?}: the mock and the client disagree\n  mock:   {}\n  client: {}",
                op.id,
                mock.unwrap_or_else(|error| error),
                client.unwrap_or_else(|error| error),
            )),
        }
    }
    let connections = tripwire.connections();
    if connections > 0 {
        report.problem(format!(
            "a refusing client connected {connections} times: some invalid input was sent"
        ));
    }
    for op in operations {
        let needs_case = op.body_example.is_some() || op.bounded_parameters;
        if needs_case && !report.invalid_operations.contains(&op.id) {
            report.problem(format!(
                "{}: has a body or bounded parameters but no agreed invalid input",
                op.id
            ));
        }
    }
}

/// `Ok` when the reply is Prism's 422 and every violation it lists is at `location`.
fn refused_at(reply: &Reply, location: &[&str]) -> Result<String, String> {
    if reply.status != StatusCode::UNPROCESSABLE_ENTITY {
        return Err(format!(
            "HTTP {} (expected 422): {}",
            reply.status, reply.body
        ));
    }
    let problem: Value = serde_json::from_str(&reply.body)
        .map_err(|error| format!("422 with a body that is not JSON ({error}): {}", reply.body))?;
    let violations = problem["validation"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let at_location = |violation: &Value| {
        violation["location"].as_array().is_some_and(|parts| {
            parts.len() == location.len()
                && parts
                    .iter()
                    .zip(location)
                    .all(|(part, expected)| part.as_str() == Some(expected))
        })
    };
    if !violations.is_empty() && violations.iter().all(at_location) {
        Ok(format!("422 at {}", location.join(".")))
    } else {
        Err(format!(
            "422, but not (only) at {}: {}",
            location.join("."),
            problem["validation"]
        ))
    }
}

/// A listener on 127.0.0.1 that counts connections and closes each at once, so that a client
/// that sends anyway fails fast instead of waiting for an answer.
struct Tripwire {
    address: std::net::SocketAddr,
    connections: Arc<AtomicUsize>,
}

impl Tripwire {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binding the tripwire");
        let address = listener.local_addr().expect("tripwire address");
        let connections = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&connections);
        tokio::spawn(async move {
            while let Ok((connection, _)) = listener.accept().await {
                // Counted before the close, which is what the client sees first.
                counter.fetch_add(1, Ordering::SeqCst);
                drop(connection);
            }
        });
        Self {
            address,
            connections,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}
