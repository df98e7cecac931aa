//! Building a [`Client`]: HTTPS support without network, base URL checks, the user agent,
//! anonymous clients, token checks, timeouts, and a `Debug` that never shows the token.

mod client_support;

use std::time::{Duration, Instant};

use client_support::bodies::mcp_body;
use client_support::{HUB_TOKEN, Reply, StubHub};
use hub_api::{Client, DEFAULT_USER_AGENT, Error};

#[test]
fn an_https_client_builds_without_network() {
    let client = Client::builder("https://hub.example.com")
        .token("hub_abc")
        .build()
        .expect("https client");
    assert_eq!(client.base_url(), "https://hub.example.com");
    assert!(client.is_authenticated());
}

#[test]
fn bad_base_urls_are_refused() {
    for base_url in [
        "",
        "hub.example.com",
        "ftp://hub.example.com",
        "https://hub.example.com/?x=1",
    ] {
        let error = Client::builder(base_url).anonymous().build().err();
        assert!(
            matches!(&error, Some(Error::Validation { field, .. }) if field == "base_url"),
            "{base_url}: {error:?}"
        );
    }
}

#[test]
fn unusable_tokens_are_refused_without_showing_them() {
    let error = Client::builder("https://hub.example.com")
        .token("")
        .build()
        .err();
    assert!(matches!(&error, Some(Error::Validation { field, .. }) if field == "token"));

    let error = Client::builder("https://hub.example.com")
        .token("hub_line\nbreak_SECRET")
        .build()
        .expect_err("refused");
    assert!(matches!(&error, Error::Validation { field, .. } if field == "token"));
    assert!(!error.to_string().contains("SECRET"));
    assert!(!format!("{error:?}").contains("SECRET"));
}

#[test]
fn debug_never_shows_the_token() {
    let builder = Client::builder("https://hub.example.com").token(HUB_TOKEN);
    assert!(!format!("{builder:?}").contains(HUB_TOKEN));
    let client = builder.build().expect("client");
    let printed = format!("{client:?}");
    assert!(!printed.contains(HUB_TOKEN), "{printed}");
    assert!(printed.contains("[redacted]"), "{printed}");
}

#[tokio::test]
async fn the_default_user_agent_names_the_crate_and_version() {
    assert_eq!(
        DEFAULT_USER_AGENT,
        format!("hub-api-rust/{}", env!("CARGO_PKG_VERSION"))
    );
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    hub.client().mcp_settings().await.expect("mcp");
    assert_eq!(
        hub.only_request().header("user-agent"),
        Some(DEFAULT_USER_AGENT)
    );
}

#[tokio::test]
async fn a_custom_user_agent_is_sent() {
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    let client = Client::builder(&hub.base_url)
        .anonymous()
        .user_agent("my-tool/2.0")
        .build()
        .expect("client");
    client.mcp_settings().await.expect("mcp");
    assert_eq!(hub.only_request().header("user-agent"), Some("my-tool/2.0"));
}

#[tokio::test]
async fn an_anonymous_client_sends_no_authorization() {
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    let client = Client::builder(&hub.base_url)
        .anonymous()
        .build()
        .expect("client");
    assert!(!client.is_authenticated());
    client.mcp_settings().await.expect("mcp");
    hub.only_request().assert_anonymous();
}

#[tokio::test]
async fn a_path_stem_and_trailing_slash_are_kept_right() {
    let hub = StubHub::always(Reply::json(200, mcp_body())).await;
    let client = Client::builder(format!("{}/hub/", hub.base_url))
        .token(HUB_TOKEN)
        .build()
        .expect("client");
    client.mcp_settings().await.expect("mcp");
    assert_eq!(hub.only_request().path, "/hub/api/settings/mcp");
}

#[tokio::test]
async fn the_timeout_ends_a_slow_call() {
    let hub = StubHub::always(Reply::json(200, mcp_body()).after(Duration::from_secs(5))).await;
    let client = Client::builder(&hub.base_url)
        .token(HUB_TOKEN)
        .timeout(Duration::from_millis(200))
        .build()
        .expect("client");

    let started = Instant::now();
    let error = client.mcp_settings().await.err();

    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(
        matches!(&error, Some(Error::Timeout { operation, source, .. }) if *operation == "getMcpSettings" && source.is_timeout()),
        "{error:?}"
    );
}

#[tokio::test]
async fn an_unreachable_hub_is_a_transport_error() {
    // Bind a port, then free it: nothing listens there any more.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    drop(listener);
    let client = Client::builder(format!("http://{address}"))
        .token(HUB_TOKEN)
        .build()
        .expect("client");

    let error = client.mcp_settings().await.expect_err("fails");

    assert!(matches!(&error, Error::Transport { .. }), "{error:?}");
    assert!(!error.to_string().contains(HUB_TOKEN));
    assert!(!format!("{error:?}").contains(HUB_TOKEN));
}
