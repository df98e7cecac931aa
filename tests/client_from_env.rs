//! `Client::from_env` end to end: the base URL from `HUB_BASE_URL`, the token from `HUB_TOKEN`,
//! else from `$XDG_CONFIG_HOME/hub/token`, a token file others may read refused. (The order of
//! sources and the file's checks are unit-tested in `src/client.rs` with an injected
//! environment; this checks that the real environment is what is read.)
//!
//! One test in its own binary on a current-thread runtime: it changes the process environment,
//! which is only sound while no other thread can read it.

mod client_support;

use std::path::{Path, PathBuf};

use client_support::{Reply, StubHub};
use hub_api::{BASE_URL_ENV_VAR, Client, Error, TOKEN_ENV_VAR};
use serde_json::json;

fn set(name: &str, value: Option<&str>) {
    // SAFETY: this binary holds this one test, run on a current-thread runtime with IP-literal
    // addresses only (no resolver threads): no other thread exists to read the environment.
    unsafe {
        match value {
            Some(value) => std::env::set_var(name, value),
            None => std::env::remove_var(name),
        }
    }
}

fn write_token_file(config: &Path, content: &str, mode: u32) -> PathBuf {
    let path = config.join("hub").join("token");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    std::fs::write(&path, content).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    #[cfg(not(unix))]
    let _ = mode;
    path
}

#[test]
fn from_env_reads_the_base_url_and_the_token_from_the_environment_then_the_file() {
    let config = std::env::temp_dir().join(format!("hub-api-from-env-{}", std::process::id()));
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
        write_token_file(&config, "hub_from_file\n", 0o600);
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
            let path = write_token_file(&config, "hub_readable_SECRET", 0o644);
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
        let _ = std::fs::remove_dir_all(&config);

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
