//! The hub token from `HUB_TOKEN`: used when the builder has none, trimmed, ignored when empty,
//! overridden by an explicit token and by `anonymous()`.
//!
//! One test in its own binary on a current-thread runtime: it changes the process environment,
//! which is only sound while no other thread can read it.

mod client_support;

use client_support::{Reply, StubHub};
use hub_api::{Client, ClientBuilder, TOKEN_ENV_VAR};
use serde_json::json;

/// `HUB_TOKEN` (unset if `None`), how the builder is configured, the `Authorization` expected.
type Case = (
    Option<&'static str>,
    fn(ClientBuilder) -> ClientBuilder,
    Option<&'static str>,
);

fn set_hub_token(value: Option<&str>) {
    // SAFETY: this binary holds this one test, run on a current-thread runtime with IP-literal
    // addresses only (no resolver threads): no other thread exists to read the environment.
    unsafe {
        match value {
            Some(value) => std::env::set_var(TOKEN_ENV_VAR, value),
            None => std::env::remove_var(TOKEN_ENV_VAR),
        }
    }
}

#[test]
fn the_token_comes_from_hub_token_unless_given() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let hub = StubHub::always(Reply::json(
            200,
            json!({ "builtInTools": [], "spaceTools": [] }),
        ))
        .await;
        let cases: [Case; 5] = [
            (
                Some(" hub_from_env\n"),
                |builder| builder,
                Some("Bearer hub_from_env"),
            ),
            (
                Some("hub_from_env"),
                |builder| builder.token("hub_explicit"),
                Some("Bearer hub_explicit"),
            ),
            (Some("hub_from_env"), ClientBuilder::anonymous, None),
            (Some(""), |builder| builder, None),
            (None, |builder| builder, None),
        ];
        for (environment, configure, _) in &cases {
            set_hub_token(*environment);
            let client = configure(Client::builder(&hub.base_url))
                .build()
                .expect("client");
            client.mcp_settings().await.expect("mcp");
        }
        set_hub_token(None);

        let sent: Vec<Option<String>> = hub
            .requests()
            .iter()
            .map(|request| request.header("authorization").map(str::to_owned))
            .collect();
        let expected: Vec<Option<String>> = cases
            .iter()
            .map(|(_, _, expected)| expected.map(str::to_owned))
            .collect();
        assert_eq!(sent, expected);
    });
}
