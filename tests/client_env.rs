//! The hub token from `HUB_TOKEN`: used when the builder has none, trimmed, ignored when empty
//! (with a warning that the client is anonymous), overridden by an explicit token and by
//! `anonymous()` (which warns of nothing).
//!
//! One test in its own binary on a current-thread runtime: it changes the process environment,
//! which is only sound while no other thread can read it.

mod client_support;

use client_support::bodies::mcp_body;
use client_support::files::set_env;
use client_support::{Capture, Reply, StubHub, on_one_thread};
use hub_api::{Client, ClientBuilder, TOKEN_ENV_VAR};

/// `HUB_TOKEN` (unset if `None`), how the builder is configured, the `Authorization` expected,
/// and whether building warns that no token will be sent.
type Case = (
    Option<&'static str>,
    fn(ClientBuilder) -> ClientBuilder,
    Option<&'static str>,
    bool,
);

fn set_hub_token(value: Option<&str>) {
    set_env(TOKEN_ENV_VAR, value);
}

/// Builds a client and returns it with the warnings logged meanwhile.
fn build_capturing_warnings(builder: ClientBuilder) -> (Client, String) {
    let capture = Capture::default();
    let writer = capture.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_writer(move || writer.clone())
        .finish();
    let client = tracing::subscriber::with_default(subscriber, || builder.build()).expect("client");
    let logged = capture.text();
    (client, logged)
}

#[test]
fn the_token_comes_from_hub_token_unless_given() {
    on_one_thread(async {
        let hub = StubHub::always(Reply::json(200, mcp_body())).await;
        let cases: [Case; 6] = [
            (
                Some(" hub_from_env\n"),
                |builder| builder,
                Some("Bearer hub_from_env"),
                false,
            ),
            (
                Some("hub_from_env"),
                |builder| builder.token("hub_explicit"),
                Some("Bearer hub_explicit"),
                false,
            ),
            (Some("hub_from_env"), ClientBuilder::anonymous, None, false),
            (Some(""), |builder| builder, None, true),
            (None, |builder| builder, None, true),
            (None, ClientBuilder::anonymous, None, false),
        ];
        for (environment, configure, _, warns) in &cases {
            set_hub_token(*environment);
            let (client, logged) =
                build_capturing_warnings(configure(Client::builder(&hub.base_url)));
            assert_eq!(
                logged.contains("HUB_TOKEN is not set"),
                *warns,
                "HUB_TOKEN={environment:?}: {logged:?}"
            );
            client.mcp_settings().await.expect("mcp");
        }
        // `Client::anonymous` ignores HUB_TOKEN without a warning.
        set_hub_token(Some("hub_from_env"));
        let capture = Capture::default();
        let writer = capture.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .finish();
        let anonymous =
            tracing::subscriber::with_default(subscriber, || Client::anonymous(&hub.base_url))
                .expect("client");
        assert!(!anonymous.is_authenticated());
        assert!(capture.text().is_empty());
        anonymous.mcp_settings().await.expect("mcp");
        set_hub_token(None);

        let sent: Vec<Option<String>> = hub
            .requests()
            .iter()
            .map(|request| request.header("authorization").map(str::to_owned))
            .collect();
        let mut expected: Vec<Option<String>> = cases
            .iter()
            .map(|(_, _, expected, _)| expected.map(str::to_owned))
            .collect();
        expected.push(None);
        assert_eq!(sent, expected);
    });
}
