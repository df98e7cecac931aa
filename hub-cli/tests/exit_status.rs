//! The built `hub` binary: `--help` everywhere exits 0; a usage error, invalid input or a failed
//! call is one line on standard error with exit status 2, 2 and 1.

use std::process::{Command, Output};

fn hub(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hub"))
        .args(args)
        .env_remove("HUB_BASE_URL")
        .env("HUB_TOKEN", "hub_test_token_never_printed")
        .output()
        .expect("the hub binary runs")
}

fn one_error_line(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("hub_test_token_never_printed"), "{stderr}");
    stderr
}

#[test]
fn help_exits_zero_everywhere() {
    for args in [
        &["--help"][..],
        &["notifications", "--help"],
        &["notifications", "list", "--help"],
        &["storage", "get-access-token", "--help"],
        &["webhooks", "create", "-h"],
    ] {
        let output = hub(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("Usage: hub"), "{args:?}: {stdout}");
    }
}

#[test]
fn usage_errors_are_one_line_and_status_two() {
    let missing = hub(&["webhooks", "get"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(one_error_line(&missing).contains("<WEBHOOK_ID>"));

    let unknown = hub(&["notifications", "list", "--unread-only"]);
    assert_eq!(unknown.status.code(), Some(2));
    one_error_line(&unknown);

    let no_hub = hub(&["settings", "get-mcp"]);
    assert_eq!(no_hub.status.code(), Some(2));
    assert!(one_error_line(&no_hub).contains("--base-url"));
}

#[test]
fn invalid_values_are_refused_before_sending() {
    // Port 1 on loopback: were anything sent, the error would be a connection failure (status 1).
    let base = ["--base-url", "http://127.0.0.1:1"];
    let enum_value = hub(&[
        &["notifications", "list", "--read-status", "unred"][..],
        &base,
    ]
    .concat());
    assert_eq!(enum_value.status.code(), Some(2));
    assert!(one_error_line(&enum_value).contains("unread"));

    let integer = hub(&[&["notifications", "list", "-p", "first"][..], &base].concat());
    assert_eq!(integer.status.code(), Some(2));
    assert!(one_error_line(&integer).contains("-p"));

    let body = std::env::temp_dir().join(format!("hub-cli-bad-body-{}.json", std::process::id()));
    std::fs::write(&body, r#"{"watched":[],"domains":["repo"]}"#).unwrap();
    let bad_body = hub(&[
        &["webhooks", "create", "--body", body.to_str().unwrap()][..],
        &base,
    ]
    .concat());
    let _ = std::fs::remove_file(&body);
    assert_eq!(bad_body.status.code(), Some(2));
    assert!(one_error_line(&bad_body).contains("watched"));
}

#[test]
fn a_failed_call_is_one_line_and_status_one() {
    // The error names the command as typed (an old spelling here), not the operationId.
    let output = hub(&["settings", "get-mcp", "--base-url", "http://127.0.0.1:1"]);
    assert_eq!(output.status.code(), Some(1));
    let line = one_error_line(&output);
    assert!(line.starts_with("error: hub settings get-mcp: "), "{line}");
    assert!(!line.contains("getMcpSettings"), "{line}");
}

#[test]
fn transport_errors_carry_their_cause() {
    // Issue 43: `transport error: error sending request for url (...)` said nothing of why.
    // Both ways a call is sent: through a library helper (webhooks list) and through the
    // generated client (webhooks get).
    for args in [
        &["webhooks", "list"][..],
        &["webhooks", "get", "6729a1f0c3d4e5f6a7b8c90a"],
    ] {
        let output = hub(&[args, &["--base-url", "http://127.0.0.1:1"]].concat());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let line = one_error_line(&output);
        assert!(line.contains("Connection refused"), "{args:?}: {line}");
        assert!(
            line.contains(&format!("hub {}", args[..2].join(" "))),
            "{line}"
        );
        assert_eq!(
            line.matches("error sending request").count(),
            1,
            "each cause once: {line}"
        );
    }
    // A name that does not resolve (`.invalid` never does): the resolver's reason.
    let output = hub(&["webhooks", "list", "--base-url", "http://hub.invalid"]);
    assert_eq!(output.status.code(), Some(1));
    let line = one_error_line(&output);
    assert!(line.contains("dns error"), "{line}");
}

#[test]
fn mistyped_commands_get_suggestions() {
    let output = hub(&["notifications", "lst"]);
    assert_eq!(output.status.code(), Some(2));
    let line = one_error_line(&output);
    assert!(line.contains("'list'"), "{line}");
    let output = hub(&["notifications", "list", "--read-stat", "all"]);
    assert_eq!(output.status.code(), Some(2));
    let line = one_error_line(&output);
    assert!(line.contains("--read-status"), "{line}");
}

#[test]
fn the_page_option_has_a_long_name_and_keeps_its_letter() {
    let output = hub(&["notifications", "list", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("-p, --page <VALUE>"), "{help}");
}

#[test]
fn a_malformed_base_url_is_named_with_its_value() {
    let output = hub(&["mcp-settings", "get", "--base-url", "hub.example.com"]);
    assert_eq!(output.status.code(), Some(2));
    let line = one_error_line(&output);
    assert!(line.contains("invalid --base-url: "), "{line}");
    assert!(line.contains("got \"hub.example.com\""), "{line}");
    let output = Command::new(env!("CARGO_BIN_EXE_hub"))
        .args(["mcp-settings", "get"])
        .env("HUB_BASE_URL", "hub.example.com")
        .env("HUB_TOKEN", "hub_test_token_never_printed")
        .output()
        .expect("the hub binary runs");
    assert_eq!(output.status.code(), Some(2));
    let line = one_error_line(&output);
    assert!(line.contains("invalid HUB_BASE_URL: "), "{line}");
}
