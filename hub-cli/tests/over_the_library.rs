//! `hub` over the `hub-api` library (issue 31, item 6), against the library's mock hub
//! (`hub_api::mock`, feature `test-util`) serving on this test's runtime while the built binary
//! runs: `--version`, completions, `--paginate`, batching of revocation beyond 1,000 tokens,
//! the tolerant lists, hints and the exit status of a 401, `--field`, and the old spellings.

// The hub's answers the library's tests send too.
#[path = "../../tests/client_support/bodies.rs"]
mod bodies;

use std::path::PathBuf;
use std::process::{Command, Output};

use bodies::{mcp_body, storage_token_body};

use hub_api::mock::{Method, MockHub, MockResponse, notification_page};
use serde_json::{Value, json};

/// A directory for `XDG_CONFIG_HOME` and `HOME` without a token file, so no real token of the
/// machine running the tests is ever read.
fn empty_config_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hub-cli-no-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// Runs `hub args` with `HUB_BASE_URL` set to `base_url` and the token if given; blocking, so
/// call it through [`hub`] from the tests' runtime.
fn hub_blocking(
    base_url: &str,
    args: &[&str],
    token: Option<&str>,
    stdin: Option<PathBuf>,
) -> Output {
    let config = empty_config_dir();
    let mut command = Command::new(env!("CARGO_BIN_EXE_hub"));
    command
        .args(args)
        .env("HUB_BASE_URL", base_url)
        .env("XDG_CONFIG_HOME", &config)
        .env("HOME", &config);
    match token {
        Some(token) => command.env("HUB_TOKEN", token),
        None => command.env_remove("HUB_TOKEN"),
    };
    if let Some(path) = stdin {
        command.stdin(std::fs::File::open(path).expect("body file"));
    }
    command.output().expect("the hub binary runs")
}

async fn hub(base_url: &str, args: &[&str], token: Option<&str>) -> Output {
    let base_url = base_url.to_owned();
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    let token = token.map(str::to_owned);
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        hub_blocking(&base_url, &args, token.as_deref(), None)
    })
    .await
    .expect("the hub binary ran")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An unread `repo` notification.
fn notification(id: &str) -> Value {
    bodies::repo_notification(id, false)
}

fn webhook(id: &str) -> Value {
    json!({
        "id": id,
        "url": "https://ci.acme.example/hooks/hub",
        "disabled": false,
        "watched": [{ "name": "acme/bert-tiny", "type": "model" }],
        "hasSecret": true,
        "domains": ["repo", "discussion"]
    })
}

const TOKEN: &str = MockHub::TOKEN;

/// The storage-token operation's path template.
const STORAGE_TOKEN_PATH: &str =
    "/api/{repo_type}s/{namespace}/{repo}/cas-{token_type}-token/{revision}";

#[test]
fn version_exits_zero() {
    let output = hub_blocking("http://127.0.0.1:1", &["--version"], None, None);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout).trim(),
        format!("hub {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn completions_name_the_commands() {
    for shell in ["bash", "zsh", "fish"] {
        let output = hub_blocking("http://127.0.0.1:1", &["completions", shell], None, None);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{shell}: {}",
            text(&output.stderr)
        );
        let script = text(&output.stdout);
        for name in [
            "notifications",
            "mcp-settings",
            "webhooks",
            "storage-access-token",
            "paginate",
        ] {
            assert!(script.contains(name), "{shell}: no {name}");
        }
    }
    let unknown = hub_blocking("http://127.0.0.1:1", &["completions", "tcsh"], None, None);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn help_documents_the_exit_statuses_and_hides_the_old_spellings() {
    let output = hub_blocking("http://127.0.0.1:1", &["--help"], None, None);
    assert_eq!(output.status.code(), Some(0));
    let help = text(&output.stdout);
    for line in [
        "0  success",
        "1  the call failed",
        "2  usage",
        "3  not authenticated",
    ] {
        assert!(help.contains(line), "no `{line}` in\n{help}");
    }
    assert!(help.contains("mcp-settings"), "{help}");
    for old in ["  settings ", "  tokens ", "  storage "] {
        assert!(
            !help.contains(old),
            "the old group `{old}` is listed:\n{help}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_401_exits_three_with_a_hint() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .reply(MockResponse::hub_error(
            401,
            "Invalid credentials in Authorization header",
        ));
    let output = hub(mock.url(), &["mcp-settings", "get"], Some(TOKEN)).await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("hub mcp-settings get: HTTP 401"),
        "{stderr}"
    );
    assert!(stderr.contains("not authenticated"), "{stderr}");
    assert!(stderr.contains("HUB_TOKEN"), "{stderr}");
    assert!(!stderr.contains(TOKEN), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_the_warning_shows_and_a_401_exits_three() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/webhooks")
        .reply(MockResponse::hub_error(401, "Authentication required"));
    let output = hub(mock.url(), &["webhooks", "list"], None).await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.starts_with("warning: no hub token"), "{stderr}");
    assert!(stderr.contains("set HUB_TOKEN"), "{stderr}");
    assert_eq!(mock.requests()[0].header("authorization"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_404_and_a_403_give_hints() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/webhooks/{webhookId}")
        .reply(MockResponse::hub_error(404, "Webhook not found"));
    mock.on(Method::POST, "/api/settings/webhooks/{webhookId}/enable")
        .reply(MockResponse::hub_error(403, "Forbidden"));
    let output = hub(
        mock.url(),
        &["webhooks", "get", "6729a1f0c3d4e5f6a7b8c90a"],
        Some(TOKEN),
    )
    .await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("HTTP 404"), "{stderr}");
    assert!(stderr.contains("hint: check <WEBHOOK_ID>"), "{stderr}");

    let output = hub(
        mock.url(),
        &["webhooks", "enable", "6729a1f0c3d4e5f6a7b8c90a"],
        Some(TOKEN),
    )
    .await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("HTTP 403"), "{stderr}");
    assert!(
        stderr.contains("hint: the token lacks the permission"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paginate_concatenates_the_pages() {
    let mock = MockHub::start().await;
    let mut first = notification_page([notification("6729a1f0c3d4e5f6a7b8c904")]);
    first["count"]["view"] = json!(2);
    let mut second = notification_page([notification("6729a1f0c3d4e5f6a7b8c905")]);
    second["count"]["view"] = json!(2);
    second["start"] = json!(1);
    mock.on(Method::GET, "/api/notifications")
        .query("p", "0")
        .respond(200, first);
    mock.on(Method::GET, "/api/notifications")
        .query("p", "1")
        .respond(200, second);
    let output = hub(
        mock.url(),
        &[
            "notifications",
            "list",
            "--paginate",
            "--read-status",
            "unread",
        ],
        Some(TOKEN),
    )
    .await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let printed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let ids: Vec<&str> = printed
        .as_array()
        .expect("one array")
        .iter()
        .map(|item| item["discussion"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["6729a1f0c3d4e5f6a7b8c904", "6729a1f0c3d4e5f6a7b8c905"]
    );
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests
            .iter()
            .all(|r| r.query_param("readStatus").as_deref() == Some("unread"))
    );

    // Without --paginate: the one page asked for, as the hub sent it.
    let output = hub(
        mock.url(),
        &["notifications", "list", "-p", "1"],
        Some(TOKEN),
    )
    .await;
    let printed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(printed["start"].as_f64(), Some(1.0));
    // --paginate and -p together are a usage error.
    let output = hub(
        mock.url(),
        &["notifications", "list", "--paginate", "-p", "1"],
        Some(TOKEN),
    )
    .await;
    assert_eq!(output.status.code(), Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revoking_more_than_a_thousand_tokens_sends_batches() {
    let mock = MockHub::start().await;
    mock.on(Method::POST, "/api/credentials/revoke")
        .reply(MockResponse::empty(202));
    let tokens: Vec<String> = (0..1500)
        .map(|i| format!("hub_leaked_{i:06}_0123456789"))
        .collect();
    let body = std::env::temp_dir().join(format!("hub-cli-revoke-{}.json", std::process::id()));
    std::fs::write(&body, json!({ "credentials": tokens }).to_string()).unwrap();
    let url = mock.url().to_owned();
    let stdin = body.clone();
    let output = tokio::task::spawn_blocking(move || {
        hub_blocking(
            &url,
            &["credentials", "revoke", "--body", "-"],
            Some(TOKEN),
            Some(stdin),
        )
    })
    .await
    .unwrap();
    let _ = std::fs::remove_file(&body);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&output.stdout), "");
    let requests = mock.requests();
    let sizes: Vec<usize> = requests
        .iter()
        .map(|r| r.json().unwrap()["credentials"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [1000, 500]);
    assert!(
        requests.iter().all(|r| r.header("authorization").is_none()),
        "sent anonymously"
    );
    assert!(!stderr.contains("hub_leaked_"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_revocation_body_names_no_token() {
    let mock = MockHub::start().await;
    let body = std::env::temp_dir().join(format!("hub-cli-revoke-bad-{}.json", std::process::id()));
    std::fs::write(&body, r#"{"credentials": "hub_leaked_SECRET_0123456789"}"#).unwrap();
    let output = hub(
        mock.url(),
        &["credentials", "revoke", "--body", body.to_str().unwrap()],
        None,
    )
    .await;
    let _ = std::fs::remove_file(&body);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("SECRET"), "{stderr}");
    assert!(mock.requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_keeps_its_good_items_and_warns_of_the_bad() {
    let mock = MockHub::start().await;
    let mut bad = webhook("6729a1f0c3d4e5f6a7b8c90b");
    bad["domains"] = json!("repo");
    mock.on(Method::GET, "/api/settings/webhooks")
        .respond(200, json!([webhook("6729a1f0c3d4e5f6a7b8c90a"), bad]));
    let output = hub(
        mock.url(),
        &["webhooks", "list", "--field", "id"],
        Some(TOKEN),
    )
    .await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&output.stdout), "6729a1f0c3d4e5f6a7b8c90a\n");
    assert!(
        stderr.starts_with("warning: hub webhooks list: skipped item [1]"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn field_selects_values() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp").respond(
        200,
        json!({ "builtInTools": ["hub_search", "paper_search"], "spaceTools": [] }),
    );
    let output = hub(
        mock.url(),
        &["mcp-settings", "get", "--field", "builtInTools"],
        Some(TOKEN),
    )
    .await;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), "hub_search\npaper_search\n");
    let output = hub(
        mock.url(),
        &["mcp-settings", "get", "--field", "builtInTools.1"],
        Some(TOKEN),
    )
    .await;
    assert_eq!(text(&output.stdout), "paper_search\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_spellings_still_work() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .respond(200, mcp_body());
    mock.on(Method::GET, STORAGE_TOKEN_PATH)
        .respond(200, storage_token_body("storage_SECRET", 1_795_000_000));
    let new = hub(mock.url(), &["mcp-settings", "get"], Some(TOKEN)).await;
    let old = hub(mock.url(), &["settings", "get-mcp"], Some(TOKEN)).await;
    assert_eq!(old.status.code(), Some(0), "{}", text(&old.stderr));
    assert_eq!(old.stdout, new.stdout);

    let args = ["model", "acme", "bert-tiny", "read", "main"];
    let new = hub(
        mock.url(),
        &[&["storage-access-token", "get"][..], &args].concat(),
        Some(TOKEN),
    )
    .await;
    let old = hub(
        mock.url(),
        &[&["storage", "get-access-token"][..], &args].concat(),
        Some(TOKEN),
    )
    .await;
    assert_eq!(old.status.code(), Some(0), "{}", text(&old.stderr));
    assert_eq!(old.stdout, new.stdout);
    let printed: Value = serde_json::from_slice(&new.stdout).expect("JSON");
    assert_eq!(
        printed,
        json!({ "accessToken": "[redacted]", "exp": 1795000000, "casUrl": "https://cas.hub.example.com" })
    );
    let shown = hub(
        mock.url(),
        &[
            &["storage-access-token", "get"][..],
            &args,
            &["--show-secrets"],
        ]
        .concat(),
        Some(TOKEN),
    )
    .await;
    let printed: Value = serde_json::from_slice(&shown.stdout).expect("JSON");
    assert_eq!(printed["accessToken"], "storage_SECRET");
    let path = mock.requests().last().unwrap().path().to_owned();
    assert_eq!(path, "/api/models/acme/bert-tiny/cas-read-token/main");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn base_url_overrides_the_environment() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/settings/mcp")
        .respond(200, mcp_body());
    let output = hub(
        "http://127.0.0.1:1",
        &["mcp-settings", "get", "--base-url", mock.url()],
        Some(TOKEN),
    )
    .await;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(mock.requests().len(), 1);
    assert!(mock.requests()[0].has_bearer_token(TOKEN));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn storage_errors_name_the_repository_and_the_request_id() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, STORAGE_TOKEN_PATH)
        .reply(MockResponse::hub_error(404, "Repository not found").request_id("req-storage-404"));
    let output = hub(
        mock.url(),
        &[
            "storage-access-token",
            "get",
            "dataset",
            "acme",
            "squad",
            "read",
            "refs/pr/5",
        ],
        Some(TOKEN),
    )
    .await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("repository `acme/squad` or its revision `refs/pr/5` not found"),
        "{stderr}"
    );
    assert!(stderr.contains("(request id req-storage-404)"), "{stderr}");
    assert!(stderr.contains("hint: check <REPO_TYPE>"), "{stderr}");
    let path = mock.requests()[0].path().to_owned();
    assert_eq!(
        path,
        "/api/datasets/acme/squad/cas-read-token/refs%2Fpr%2F5"
    );

    // A repository type without storage tokens is a usage error; nothing is sent.
    let output = hub(
        mock.url(),
        &[
            "storage-access-token",
            "get",
            "bucket",
            "acme",
            "logs",
            "read",
            "main",
        ],
        Some(TOKEN),
    )
    .await;
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert_eq!(mock.requests().len(), 1);
}

/// Writes `body` to a file of this test process and returns its path.
fn body_file(name: &str, body: &Value) -> PathBuf {
    let path = std::env::temp_dir().join(format!("hub-cli-{name}-{}.json", std::process::id()));
    std::fs::write(&path, body.to_string()).expect("body file");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_breaks_the_spec_is_refused_before_sending() {
    // Issue 43: the generated types decode tolerantly (an unlisted value is `Unknown`), so a
    // misspelt flavor or repository type used to reach the hub.
    let mock = MockHub::start().await;
    mock.on(Method::POST, "/api/settings/webhooks").respond(
        200,
        json!({ "webhook": webhook("6729a1f0c3d4e5f6a7b8c90a") }),
    );
    let misspelt_flavor = json!({
        "watched": [{ "type": "org", "name": "acme" }],
        "domains": ["repo"],
        "job": { "dockerImage": "ghcr.io/acme/retrain:1.4", "flavor": "a10g-smal" }
    });
    let misspelt_type = json!({
        "watched": [{ "type": "modle", "name": "acme/bert-tiny" }],
        "domains": ["repo"],
        "url": "https://ci.acme.example/hooks/hub"
    });
    for (name, body, named) in [
        ("flavor", misspelt_flavor, "did you mean `a10g-small`?"),
        ("type", misspelt_type, "did you mean `model`?"),
    ] {
        let path = body_file(name, &body);
        let output = hub(
            mock.url(),
            &["webhooks", "create", "--body", path.to_str().unwrap()],
            Some(TOKEN),
        )
        .await;
        let _ = std::fs::remove_file(&path);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(named), "{name}: {stderr}");
        assert!(mock.requests().is_empty(), "{name}: nothing is sent");
    }
}

/// Runs `hub args` with standard input from `stdin`, from the tests' runtime.
async fn hub_with_stdin(base_url: &str, args: &[&str], stdin: PathBuf) -> Output {
    let base_url = base_url.to_owned();
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        hub_blocking(&base_url, &args, Some(TOKEN), Some(stdin))
    })
    .await
    .expect("the hub binary ran")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revoke_reads_one_token_per_line_and_reports_the_count() {
    // Issue 43: a file of one token per line failed with `expected value at line 1 column 1`,
    // and success printed nothing.
    let mock = MockHub::start().await;
    mock.on(Method::POST, "/api/credentials/revoke")
        .reply(MockResponse::empty(202));
    let lines = "hub_leaked_000001_0123456789\n\n# from the CI log\n  hub_leaked_000002_0123456789  \nhub_leaked_000003_0123456789\n";
    let path =
        std::env::temp_dir().join(format!("hub-cli-revoke-lines-{}.txt", std::process::id()));
    std::fs::write(&path, lines).unwrap();
    let expected = json!({ "credentials": [
        "hub_leaked_000001_0123456789",
        "hub_leaked_000002_0123456789",
        "hub_leaked_000003_0123456789"
    ]});

    // Standard input, without --body; then the file; then the file through `--body -`.
    let piped = hub_with_stdin(mock.url(), &["credentials", "revoke"], path.clone()).await;
    let from_file = hub(
        mock.url(),
        &["credentials", "revoke", "--body", path.to_str().unwrap()],
        Some(TOKEN),
    )
    .await;
    let dash = hub_with_stdin(
        mock.url(),
        &["credentials", "revoke", "--body", "-"],
        path.clone(),
    )
    .await;
    let _ = std::fs::remove_file(&path);
    for output in [&piped, &from_file, &dash] {
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert_eq!(stderr, "revoked 3 tokens in 1 request\n");
        assert_eq!(
            text(&output.stdout),
            "",
            "standard output is the hub's body: none"
        );
    }
    let requests = mock.requests();
    assert_eq!(requests.len(), 3);
    for request in &requests {
        assert_eq!(request.json().unwrap(), expected);
    }

    let help = hub_blocking(mock.url(), &["credentials", "revoke", "--help"], None, None);
    let help = text(&help.stdout);
    assert!(help.contains("one token per line"), "{help}");
    assert!(
        help.contains(r#"{"credentials": ["<token>", ...]}"#),
        "{help}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn storage_access_token_takes_a_repository() {
    // Issue 43: `storage-access-token get REPO [--write]`, `Repository`'s own syntax.
    let mock = MockHub::start().await;
    mock.on(Method::GET, STORAGE_TOKEN_PATH)
        .respond(200, storage_token_body("storage_SECRET", 1_795_000_000));
    let output = hub(
        mock.url(),
        &["storage-access-token", "get", "acme/bert-tiny"],
        Some(TOKEN),
    )
    .await;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let printed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(printed["accessToken"], "[redacted]");
    let output = hub(
        mock.url(),
        &[
            "storage-access-token",
            "get",
            "datasets/acme/squad@refs/pr/5",
            "--write",
        ],
        Some(TOKEN),
    )
    .await;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let paths: Vec<String> = mock
        .requests()
        .iter()
        .map(|request| request.path().to_owned())
        .collect();
    assert_eq!(
        paths,
        [
            "/api/models/acme/bert-tiny/cas-read-token/main",
            "/api/datasets/acme/squad/cas-write-token/refs%2Fpr%2F5"
        ]
    );

    // Not a repository: a usage error naming the syntax; nothing sent.
    let output = hub(
        mock.url(),
        &["storage-access-token", "get", "bert-tiny"],
        Some(TOKEN),
    )
    .await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("[<type>s/]<namespace>/<name>[@<revision>]"),
        "{stderr}"
    );
    assert_eq!(mock.requests().len(), 2);

    let help = hub_blocking(
        mock.url(),
        &["storage-access-token", "get", "--help"],
        None,
        None,
    );
    let help = text(&help.stdout);
    assert!(help.contains("<REPO>"), "{help}");
    assert!(help.contains("--write"), "{help}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_response_is_printed_as_the_hub_sent_it() {
    // Issue 43: integers printed as floats (`"all": 1.0`, the counts are numbers in the spec)
    // and fields the spec does not list were dropped.
    let mock = MockHub::start().await;
    let mut page = notification_page([notification("6729a1f0c3d4e5f6a7b8c904")]);
    page["addedLater"] = json!({ "by": "a newer hub" });
    page["notifications"][0]["addedLater"] = json!(7);
    mock.on(Method::GET, "/api/notifications")
        .query("p", "0")
        .respond(200, page.clone());
    mock.on(Method::GET, "/api/notifications")
        .query("p", "1")
        .respond(200, notification_page([]));
    mock.on(Method::GET, "/api/settings/mcp").respond(
        200,
        json!({ "builtInTools": ["hub_search"], "spaceTools": [], "addedLater": 1 }),
    );

    let output = hub(mock.url(), &["notifications", "list"], Some(TOKEN)).await;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let printed = text(&output.stdout);
    assert!(printed.contains("\"all\": 1\n"), "{printed}");
    assert!(!printed.contains("1.0"), "{printed}");
    let printed: Value = serde_json::from_str(&printed).expect("JSON");
    assert_eq!(printed, page, "the body as sent, unknown fields and all");

    let output = hub(
        mock.url(),
        &["notifications", "list", "--field", "count.unread"],
        Some(TOKEN),
    )
    .await;
    assert_eq!(text(&output.stdout), "1\n");

    let output = hub(mock.url(), &["mcp-settings", "get"], Some(TOKEN)).await;
    let printed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(printed["addedLater"], json!(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_field_means_the_same_with_and_without_paginate_and_must_match() {
    let mock = MockHub::start().await;
    mock.on(Method::GET, "/api/notifications")
        .query("p", "0")
        .respond(
            200,
            notification_page([notification("6729a1f0c3d4e5f6a7b8c904")]),
        );
    mock.on(Method::GET, "/api/notifications")
        .query("p", "1")
        .respond(200, notification_page([]));
    let path = "notifications.discussion.id";
    let one = hub(
        mock.url(),
        &["notifications", "list", "--field", path],
        Some(TOKEN),
    )
    .await;
    let all = hub(
        mock.url(),
        &["notifications", "list", "--paginate", "--field", path],
        Some(TOKEN),
    )
    .await;
    assert_eq!(all.status.code(), Some(0), "{}", text(&all.stderr));
    assert_eq!(text(&one.stdout), "6729a1f0c3d4e5f6a7b8c904\n");
    assert_eq!(one.stdout, all.stdout);

    // A path that matches nothing: status 1, naming the path; nothing on standard output.
    for args in [
        &["notifications", "list", "--field", "discussion.id"][..],
        &[
            "notifications",
            "list",
            "--paginate",
            "--field",
            "count.unread",
        ],
        &[
            "notifications",
            "list",
            "--field",
            "notifications.dicsussion",
        ],
    ] {
        let output = hub(mock.url(), args, Some(TOKEN)).await;
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "--field `{}` matches nothing",
                args[args.len() - 1]
            )),
            "{stderr}"
        );
        assert_eq!(text(&output.stdout), "");
    }
    // An empty list is no mismatch: there is nothing to print today.
    mock.on(Method::GET, "/api/notifications")
        .query("p", "0")
        .respond(200, notification_page([]));
    let empty = hub(
        mock.url(),
        &["notifications", "list", "--field", path],
        Some(TOKEN),
    )
    .await;
    assert_eq!(empty.status.code(), Some(0), "{}", text(&empty.stderr));
    assert_eq!(text(&empty.stdout), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tls_failure_says_why() {
    // Issue 43: HTTPS to a server that speaks plain HTTP (the mock): rustls's reason is shown.
    let mock = MockHub::start().await;
    let https = mock.url().replacen("http://", "https://", 1);
    // Through a library helper (webhooks list) and the generated client (mcp-settings get).
    for (args, typed) in [
        (&["webhooks", "list"], "hub webhooks list: "),
        (&["mcp-settings", "get"], "hub mcp-settings get: "),
    ] {
        let output = hub(&https, args, Some(TOKEN)).await;
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(typed), "{stderr}");
        assert!(stderr.contains("InvalidContentType"), "{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parameter_the_spec_does_not_list_is_refused_before_sending() {
    // Parameters are decoded strictly too: through the generated client, an unlisted
    // repository type would have been sent as it was.
    let mock = MockHub::start().await;
    mock.on(Method::DELETE, "/api/notifications")
        .reply(MockResponse::empty(204));
    let output = hub(
        mock.url(),
        &["notifications", "delete", "--repo-type", "modle"],
        Some(TOKEN),
    )
    .await;
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--repo-type"), "{stderr}");
    assert!(stderr.contains("did you mean `model`?"), "{stderr}");
    assert!(mock.requests().is_empty(), "nothing is sent");
}
