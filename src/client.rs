//! [`Client`]: the hub client, built from a base URL and an optional hub token, and the plumbing
//! every operation shares (authentication, logging, error mapping).
//!
//! The operations themselves live next to their helpers: notifications and notification/watch
//! settings in [`notifications`](crate::notifications), token revocation in
//! [`revocation`](crate::revocation), webhook management in
//! [`webhook_admin`](crate::webhook_admin), storage access tokens in [`storage`](crate::storage);
//! the MCP settings read is here.
//!
//! # Authentication
//!
//! The token is sent as `Authorization: Bearer <token>` on every call except
//! `revokeCredentials`, which the hub accepts without authentication: that call goes through a
//! second HTTP client that has no `Authorization` header at all, so a configured token can never
//! reach it. The header is marked sensitive, so that reqwest and hyper never print it.
//!
//! # Examples
//!
//! `examples/` holds one short program per area, each taking `--base-url`:
//! `notifications`, `revoke_credentials`, `webhooks`, `storage_token`. For instance
//! `HUB_TOKEN=... cargo run --example notifications -- --base-url https://hub.example.com`.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;

use crate::error::{BodyPolicy, Redactor, Result, from_generated};
use crate::{Error, Secret, generated, types};

/// The environment variable read for the hub token when none is given to the builder.
pub const TOKEN_ENV_VAR: &str = "HUB_TOKEN";

/// The `User-Agent` sent unless the builder sets another.
pub const DEFAULT_USER_AGENT: &str = concat!("hub-api-rust/", env!("CARGO_PKG_VERSION"));

/// Default limit on connecting to the hub.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Default limit on a whole call, from sending the request to reading the last byte.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// A client of the hub API. Cheap to clone: clones share their connection pools.
///
/// ```no_run
/// # async fn demo() -> hub_api::Result<()> {
/// // The token comes from `HUB_TOKEN` when the builder is not given one.
/// let client = hub_api::Client::builder("https://hub.example.com").build()?;
/// let settings = client.mcp_settings().await?;
/// println!("{} built-in MCP tools", settings.built_in_tools.len());
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    base_url: String,
    token: Option<Secret>,
    /// Sends `Authorization: Bearer` when a token is configured.
    authenticated: generated::Client,
    /// Never sends `Authorization`; used for `revokeCredentials` only.
    anonymous: generated::Client,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.inner.base_url)
            .field("token", &self.inner.token)
            .finish_non_exhaustive()
    }
}

/// Where the builder takes the hub token from.
#[derive(Debug, Clone)]
enum TokenSource {
    /// `HUB_TOKEN`, if set and not empty.
    Environment,
    Explicit(Secret),
    None,
}

/// Configures a [`Client`]; see [`Client::builder`].
#[derive(Debug, Clone)]
#[must_use]
pub struct ClientBuilder {
    base_url: String,
    token: TokenSource,
    timeout: Duration,
    connect_timeout: Duration,
    user_agent: String,
}

impl ClientBuilder {
    /// Authenticates with this hub token instead of `HUB_TOKEN`.
    pub fn token(mut self, token: impl Into<Secret>) -> Self {
        self.token = TokenSource::Explicit(token.into());
        self
    }

    /// Sends no token at all, whatever `HUB_TOKEN` holds.
    pub fn anonymous(mut self) -> Self {
        self.token = TokenSource::None;
        self
    }

    /// Limits a whole call, from sending the request to reading the last byte
    /// (default [`DEFAULT_TIMEOUT`]).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Limits connecting to the hub (default [`DEFAULT_CONNECT_TIMEOUT`]).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Sends this `User-Agent` instead of [`DEFAULT_USER_AGENT`].
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// Builds the client. Fails with [`Error::Validation`] on a base URL that is not an absolute
    /// `http`/`https` URL or a token that cannot be sent in a header, and with
    /// [`Error::ClientBuild`] when the HTTP stack cannot be set up.
    pub fn build(self) -> Result<Client> {
        let base_url = normalize_base_url(&self.base_url)?;
        let token = match &self.token {
            TokenSource::Explicit(token) if token.is_empty() => {
                return Err(Error::validation("token", "must not be empty"));
            }
            TokenSource::Explicit(token) => Some(token.clone()),
            TokenSource::Environment => token_from_environment(),
            TokenSource::None => None,
        };
        install_crypto_provider();
        let mut headers = HeaderMap::new();
        if let Some(token) = &token {
            headers.insert(AUTHORIZATION, bearer_header(token)?);
        }
        let authenticated = self.http_client(headers)?;
        let anonymous = self.http_client(HeaderMap::new())?;
        tracing::debug!(base_url = %base_url, authenticated = token.is_some(), "hub client built");
        Ok(Client {
            inner: Arc::new(Inner {
                authenticated: generated::Client::new_with_client(&base_url, authenticated),
                anonymous: generated::Client::new_with_client(&base_url, anonymous),
                base_url,
                token,
            }),
        })
    }

    fn http_client(&self, default_headers: HeaderMap) -> Result<reqwest::Client> {
        reqwest::Client::builder()
            .user_agent(self.user_agent.as_str())
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout)
            .default_headers(default_headers)
            .build()
            .map_err(|source| Error::ClientBuild {
                source: Arc::new(source),
            })
    }
}

impl Client {
    /// Starts configuring a client of the hub at `base_url` (scheme, host, optional port and
    /// path stem, e.g. `https://hub.example.com`). Unless told otherwise the token is read from
    /// `HUB_TOKEN` when the client is built.
    pub fn builder(base_url: impl Into<String>) -> ClientBuilder {
        ClientBuilder {
            base_url: base_url.into(),
            token: TokenSource::Environment,
            timeout: DEFAULT_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            user_agent: DEFAULT_USER_AGENT.to_owned(),
        }
    }

    /// A client of the hub at `base_url` with the token from `HUB_TOKEN` (none if unset) and
    /// default timeouts.
    pub fn new(base_url: impl Into<String>) -> Result<Self> {
        Self::builder(base_url).build()
    }

    /// The base URL, without a trailing `/`.
    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// Whether calls carry a hub token.
    pub fn is_authenticated(&self) -> bool {
        self.inner.token.is_some()
    }

    /// The generated client behind this one (authenticated like it), for anything not wrapped
    /// here. Its errors are the raw generated ones.
    pub fn generated(&self) -> &generated::Client {
        &self.inner.authenticated
    }

    /// Reads the user's MCP settings (`GET /api/settings/mcp`).
    pub async fn mcp_settings(&self) -> Result<types::McpSettings> {
        self.send(
            Call::new("getMcpSettings"),
            self.api().get_mcp_settings().send(),
        )
        .await
    }

    pub(crate) fn api(&self) -> &generated::Client {
        &self.inner.authenticated
    }

    pub(crate) fn anonymous_api(&self) -> &generated::Client {
        &self.inner.anonymous
    }

    /// A redactor that already knows the hub token.
    pub(crate) fn redactor(&self) -> Redactor<'_> {
        match &self.inner.token {
            Some(token) => Redactor::new().with(token),
            None => Redactor::new(),
        }
    }

    /// Awaits a generated call, logs its outcome (never a body) and maps its error.
    pub(crate) async fn send<T, F>(&self, call: Call<'_>, request: F) -> Result<T>
    where
        T: DeserializeOwned,
        F: Future<Output = std::result::Result<generated::ResponseValue<T>, generated::Error<()>>>,
    {
        self.send_with(call, request, |_| None).await
    }

    /// Like [`Client::send`], with `special` given the first chance to map an error (the
    /// storage-token call maps 401, 403 and 404 to their own variants).
    pub(crate) async fn send_with<T, F>(
        &self,
        call: Call<'_>,
        request: F,
        special: impl FnOnce(&generated::Error<()>) -> Option<Error>,
    ) -> Result<T>
    where
        T: DeserializeOwned,
        F: Future<Output = std::result::Result<generated::ResponseValue<T>, generated::Error<()>>>,
    {
        let operation = call.operation;
        let started = Instant::now();
        tracing::trace!(operation, "sending hub request");
        let outcome = request.await;
        let elapsed_ms = started.elapsed().as_millis();
        match outcome {
            Ok(response) => {
                tracing::debug!(
                    operation,
                    status = response.status().as_u16(),
                    elapsed_ms,
                    "hub call succeeded"
                );
                Ok(response.into_inner())
            }
            Err(error) => {
                let redactor = self.redactor().with_all(call.secrets.iter().copied());
                let error = match special(&error) {
                    Some(mapped) => mapped,
                    None => {
                        from_generated::<T>(operation, error, &redactor, call.body_policy).await
                    }
                };
                tracing::debug!(operation, elapsed_ms, error = %error, "hub call failed");
                Err(error)
            }
        }
    }
}

/// How one call's errors are reported.
pub(crate) struct Call<'a> {
    pub(crate) operation: &'static str,
    /// Secrets sent in the request: scrubbed from any server text in the error.
    pub(crate) secrets: Vec<&'a Secret>,
    pub(crate) body_policy: BodyPolicy,
}

impl<'a> Call<'a> {
    pub(crate) fn new(operation: &'static str) -> Self {
        Self {
            operation,
            secrets: Vec::new(),
            body_policy: BodyPolicy::Keep,
        }
    }

    pub(crate) fn with_secrets(mut self, secrets: impl IntoIterator<Item = &'a Secret>) -> Self {
        self.secrets.extend(secrets);
        self
    }

    pub(crate) fn withholding_body(mut self) -> Self {
        self.body_policy = BodyPolicy::Withhold;
        self
    }
}

fn normalize_base_url(base_url: &str) -> Result<String> {
    const RULE: &str = "an absolute http or https URL without query or fragment";
    let parsed = reqwest::Url::parse(base_url).map_err(|_| Error::validation("base_url", RULE))?;
    let supported = matches!(parsed.scheme(), "http" | "https")
        && parsed.host_str().is_some()
        && parsed.query().is_none()
        && parsed.fragment().is_none();
    if !supported {
        return Err(Error::validation("base_url", RULE));
    }
    // The generated client appends `/api/...` to the base as given.
    Ok(base_url.trim_end_matches('/').to_owned())
}

fn token_from_environment() -> Option<Secret> {
    let value = std::env::var(TOKEN_ENV_VAR).ok()?;
    // A token pasted with a trailing newline is still the token.
    let value = value.trim();
    (!value.is_empty()).then(|| Secret::new(value))
}

fn bearer_header(token: &Secret) -> Result<HeaderValue> {
    let mut value = HeaderValue::from_str(&format!("Bearer {}", token.expose())).map_err(|_| {
        Error::validation(
            "token",
            "printable ASCII only (no control characters or line breaks)",
        )
    })?;
    value.set_sensitive(true);
    Ok(value)
}

/// reqwest is built without a default rustls provider (aws-lc-rs is heavy to build); install
/// `ring` unless the application installed a provider already, in which case that one stays.
fn install_crypto_provider() {
    #[cfg(feature = "rustls")]
    {
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_checked_and_trimmed() {
        assert_eq!(
            normalize_base_url("https://hub.example.com/")
                .ok()
                .as_deref(),
            Some("https://hub.example.com")
        );
        assert_eq!(
            normalize_base_url("http://127.0.0.1:8080/hub")
                .ok()
                .as_deref(),
            Some("http://127.0.0.1:8080/hub")
        );
        for bad in [
            "hub.example.com",
            "ftp://hub.example.com",
            "https://h/?q=1",
            "",
        ] {
            assert!(
                matches!(normalize_base_url(bad), Err(Error::Validation { ref field, .. }) if field == "base_url"),
                "{bad} was accepted"
            );
        }
    }

    #[test]
    fn bearer_header_is_sensitive() {
        let header = bearer_header(&Secret::new("hub_abc")).ok();
        assert!(header.as_ref().is_some_and(HeaderValue::is_sensitive));
        assert_eq!(
            header.as_ref().and_then(|h| h.to_str().ok()),
            Some("Bearer hub_abc")
        );
        assert!(format!("{header:?}").contains("Sensitive"));
        assert!(bearer_header(&Secret::new("bad\ntoken")).is_err());
    }
}
