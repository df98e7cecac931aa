//! Every `hub` command against a Prism mock of the spec, run by `cargo xtask test` with the
//! mock's URL in `HUB_API_MOCK_URL` (without it this test skips, saying so). Each command gets
//! the spec's example for every parameter and body; its JSON output must decode as the
//! response's component schema, and secrets must print as `[redacted]` unless asked for.

use std::path::PathBuf;
use std::process::{Command, Output};

use hub_cli::OPERATIONS;
use hub_cli::run::Operation;
use serde_json::Value;

const MOCK_URL_VAR: &str = "HUB_API_MOCK_URL";

fn hub(base_url: &str, args: &[String], token: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hub"));
    // No token file of the machine running the tests is read.
    let config = std::env::temp_dir().join(format!("hub-cli-mock-config-{}", std::process::id()));
    std::fs::create_dir_all(&config).expect("temporary directory");
    command
        .args(args)
        .env("HUB_BASE_URL", base_url)
        .env("XDG_CONFIG_HOME", &config)
        .env("HOME", &config);
    if token {
        command.env("HUB_TOKEN", "hub_mock_token");
    } else {
        command.env_remove("HUB_TOKEN");
    }
    command.output().expect("the hub binary runs")
}

/// The command line for `operation` with the spec's examples, and the body file it reads.
fn arguments(operation: &Operation) -> (Vec<String>, Option<PathBuf>) {
    let mut args = vec![operation.group.to_owned(), operation.name.to_owned()];
    for param in operation.params {
        assert!(
            !param.example.is_empty(),
            "{}: parameter {} has no example in the spec",
            operation.id,
            param.name
        );
        if !param.positional {
            args.push(param.flag.to_owned());
        }
        args.push(param.example.to_owned());
    }
    let body = operation.body.as_ref().map(|body| {
        assert!(
            !body.example.is_empty(),
            "{}: the body has no example",
            operation.id
        );
        let path = std::env::temp_dir().join(format!(
            "hub-cli-mock-{}-{}.json",
            operation.id,
            std::process::id()
        ));
        std::fs::write(&path, body.example).expect("temporary file");
        args.push("--body".to_owned());
        args.push(path.display().to_string());
        path
    });
    (args, body)
}

fn at<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('/')
        .filter(|segment| !segment.is_empty())
        .try_fold(value, |node, key| node.get(key))
}

#[test]
fn every_command_against_the_mock() {
    let Ok(base_url) = std::env::var(MOCK_URL_VAR) else {
        eprintln!("skipped: {MOCK_URL_VAR} is not set (cargo xtask test sets it)");
        return;
    };
    for operation in OPERATIONS {
        let (args, body_file) = arguments(operation);
        let output = hub(&base_url, &args, true);
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(
            output.status.code(),
            Some(0),
            "hub {}: {stderr}",
            args.join(" ")
        );
        if !operation.returns_body {
            assert_eq!(stdout, "", "{}", operation.id);
        } else {
            let printed: Value = serde_json::from_str(&stdout).unwrap_or_else(|error| {
                panic!("{}: output is not JSON ({error}): {stdout}", operation.id)
            });
            if !operation.response.is_empty() {
                let decoded = hub_api::generated::schemas::decode(operation.response, &stdout)
                    .expect("a component schema");
                assert!(decoded.is_ok(), "{}: {decoded:?}", operation.id);
            }
            for path in operation.secrets {
                assert_eq!(
                    at(&printed, path),
                    Some(&Value::from("[redacted]")),
                    "{}",
                    operation.id
                );
                let mut shown = args.clone();
                shown.push("--show-secrets".to_owned());
                let output = hub(&base_url, &shown, true);
                let printed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
                let secret = at(&printed, path)
                    .and_then(Value::as_str)
                    .unwrap_or("[redacted]");
                assert_ne!(secret, "[redacted]", "{}: --show-secrets", operation.id);
            }
        }
        if let Some(path) = body_file {
            let _ = std::fs::remove_file(path);
        }
        println!("ok: hub {}", args[..2].join(" "));
    }
}

#[test]
fn a_refused_call_is_one_line_and_the_auth_status() {
    let Ok(base_url) = std::env::var(MOCK_URL_VAR) else {
        eprintln!("skipped: {MOCK_URL_VAR} is not set (cargo xtask test sets it)");
        return;
    };
    // Without a token the mock refuses an authenticated operation: the warning that no token
    // is configured, then the error with its hint, and status 3.
    let output = hub(
        &base_url,
        &["mcp-settings".to_owned(), "get".to_owned()],
        false,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(stderr.starts_with("warning: no hub token"), "{stderr}");
    assert!(
        stderr.contains("hub mcp-settings get: HTTP 401"),
        "{stderr}"
    );
    assert!(stderr.contains("not authenticated"), "{stderr}");
}
