//! `Client::from_env` end to end: the base URL from `HUB_BASE_URL`, the token from `HUB_TOKEN`,
//! else from `$XDG_CONFIG_HOME/hub/token`, a token file others may read refused. (The order of
//! sources and the file's checks are unit-tested in `src/client.rs` with an injected
//! environment; this checks that the real environment is what is read.)
//!
//! One test in its own binary on a current-thread runtime: it changes the process environment,
//! which is only sound while no other thread can read it.

mod client_support;

use client_support::bodies::mcp_body;
use client_support::files::{TempDir, set_env as set, write_token_file};
use client_support::{Reply, StubHub, on_one_thread};
use hub_api::{BASE_URL_ENV_VAR, Client, Error, TOKEN_ENV_VAR};

#[test]
fn from_env_reads_the_base_url_and_the_token_from_the_environment_then_the_file() {
    let dir = TempDir::new("from-env");
    let config = &dir.0;
    on_one_thread(async {
        let hub = StubHub::always(Reply::json(200, mcp_body())).await;

        set(BASE_URL_ENV_VAR, None);
        let error = Client::from_env().expect_err("no base URL");
        assert!(
            matches!(&error, Error::Validation { field, .. } if field == BASE_URL_ENV_VAR),
            "{error:?}"
        );

        set(BASE_URL_ENV_VAR, Some(&hub.base_url));
        set(
            "XDG_CONFIG_HOME",
            Some(config.to_str().expect("utf-8 temp dir")),
        );
        set(TOKEN_ENV_VAR, None);
        write_token_file(config, "hub_from_file\n", 0o600);
        let client = Client::from_env().expect("client");
        assert_eq!(client.base_url(), hub.base_url);
        client.mcp_settings().await.expect("mcp");

        set(TOKEN_ENV_VAR, Some("hub_from_env"));
        Client::from_env()
            .expect("client")
            .mcp_settings()
            .await
            .expect("mcp");

        #[cfg(unix)]
        {
            set(TOKEN_ENV_VAR, None);
            let path = write_token_file(config, "hub_readable_SECRET", 0o644);
            let error = Client::from_env().expect_err("refused");
            assert!(
                matches!(&error, Error::TokenFile { path: named, .. } if *named == path),
                "{error:?}"
            );
            assert!(!error.to_string().contains("SECRET"), "{error}");
            // The builder form reads the file when the client is built, and keeps the checks.
            let error = hub_api::ClientBuilder::from_env()
                .expect("builder")
                .timeout(std::time::Duration::from_secs(5))
                .build()
                .expect_err("refused");
            assert!(matches!(&error, Error::TokenFile { .. }), "{error:?}");
        }

        for name in [BASE_URL_ENV_VAR, TOKEN_ENV_VAR, "XDG_CONFIG_HOME"] {
            set(name, None);
        }

        let sent: Vec<Option<String>> = hub
            .requests()
            .iter()
            .map(|request| request.header("authorization").map(str::to_owned))
            .collect();
        assert_eq!(
            sent,
            [
                Some("Bearer hub_from_file".to_owned()),
                Some("Bearer hub_from_env".to_owned())
            ]
        );
    });
}
