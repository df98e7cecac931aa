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
//! # Hostile networks
//!
//! Every request, the generated client's included, goes through the transport the client plugs
//! into it: only same-origin `GET` redirects are followed (at most
//! [`MAX_REDIRECTS`](crate::MAX_REDIRECTS)), response bodies are limited to
//! [`ClientBuilder::max_response_bytes`], and idempotent calls are retried by the
//! [`RetryPolicy`](crate::RetryPolicy). A base URL with user info (`https://user:pw@host`) is
//! refused, since it would be sent as Basic credentials on every call.
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

use crate::error::{BodyPolicy, FailedCall, Limits, Redactor, Result};
use crate::transport::{HubTransport, RetryPolicy};
use crate::{Error, Secret, generated, types};

/// The environment variable read for the hub token when none is given to the builder.
pub const TOKEN_ENV_VAR: &str = "HUB_TOKEN";

/// The `User-Agent` sent unless the builder sets another.
pub const DEFAULT_USER_AGENT: &str = concat!("hub-api-rust/", env!("CARGO_PKG_VERSION"));

/// Default limit on connecting to the hub.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Default limit on a whole call, from sending the request to reading the last byte.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Default limit on the size of a response body: 8 MiB, far above any answer of the hub API
/// (a page of 50 notifications is about 34 KB) and far below what would hurt a small machine.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 8 * 1024 * 1024;

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
    limits: Limits,
    retry: RetryPolicy,
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
            .field("limits", &self.inner.limits)
            .field("retry", &self.inner.retry)
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

/// Configures a [`Client`]; see [`Client::builder`]. `Debug` never shows the token, nor user
/// info in the base URL.
#[derive(Clone)]
#[must_use]
pub struct ClientBuilder {
    base_url: String,
    token: TokenSource,
    timeout: Duration,
    connect_timeout: Duration,
    user_agent: String,
    max_response_bytes: u64,
    retry: RetryPolicy,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &without_user_info(&self.base_url))
            .field("token", &self.token)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("user_agent", &self.user_agent)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("retry", &self.retry)
            .finish()
    }
}

/// The base URL as given, with any user info replaced by `[redacted]`, for `Debug`.
fn without_user_info(base_url: &str) -> String {
    let (scheme, rest) = match base_url.split_once("://") {
        Some((scheme, rest)) => (format!("{scheme}://"), rest),
        None => (String::new(), base_url),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}[redacted]{}", &rest[at..]),
        None => base_url.to_owned(),
    }
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

    /// Refuses response bodies larger than `bytes` (default [`DEFAULT_MAX_RESPONSE_BYTES`])
    /// with [`Error::ResponseTooLarge`]; a body is never read beyond the limit, and one whose
    /// `Content-Length` is already larger is not read at all.
    pub fn max_response_bytes(mut self, bytes: u64) -> Self {
        self.max_response_bytes = bytes;
        self
    }

    /// Retries idempotent calls by `policy` (default [`RetryPolicy::default`]; switch retries
    /// off with [`RetryPolicy::none`]).
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Builds the client. Fails with [`Error::Validation`] on a base URL that is not an absolute
    /// `http`/`https` URL (or carries user info), or a token that cannot be sent in a header,
    /// and with [`Error::ClientBuild`] when the HTTP stack cannot be set up.
    ///
    /// When the token was to come from `HUB_TOKEN` and that is unset or empty, the client is
    /// anonymous and a warning is logged: calls that need a token will fail with
    /// [`Error::Unauthorized`]. Say [`anonymous`](Self::anonymous) to mean it.
    pub fn build(self) -> Result<Client> {
        let base_url = normalize_base_url(&self.base_url)?;
        let token = match &self.token {
            TokenSource::Explicit(token) if token.is_empty() => {
                return Err(Error::validation("token", "must not be empty"));
            }
            TokenSource::Explicit(token) => Some(token.clone()),
            TokenSource::Environment => {
                let token = token_from_environment();
                if token.is_none() {
                    tracing::warn!(
                        base_url = %base_url,
                        "{TOKEN_ENV_VAR} is not set (or empty): this hub client sends no token, and calls that need one will fail with HTTP 401 (use ClientBuilder::token, or ClientBuilder::anonymous if this is intended)"
                    );
                }
                token
            }
            TokenSource::None => None,
        };
        install_crypto_provider();
        let mut headers = HeaderMap::new();
        if let Some(token) = &token {
            headers.insert(AUTHORIZATION, bearer_header(token)?);
        }
        let authenticated = self.http_client(headers)?;
        let anonymous = self.http_client(HeaderMap::new())?;
        let transport = generated::Transport::new(Arc::new(HubTransport::new(
            self.max_response_bytes,
            self.retry,
        )));
        tracing::debug!(base_url = %base_url, authenticated = token.is_some(), "hub client built");
        Ok(Client {
            inner: Arc::new(Inner {
                authenticated: generated::Client::new_with_client(
                    &base_url,
                    authenticated,
                    transport.clone(),
                ),
                anonymous: generated::Client::new_with_client(&base_url, anonymous, transport),
                base_url,
                token,
                limits: Limits {
                    timeout: self.timeout,
                    connect_timeout: self.connect_timeout,
                    max_response_bytes: self.max_response_bytes,
                },
                retry: self.retry,
            }),
        })
    }

    fn http_client(&self, default_headers: HeaderMap) -> Result<reqwest::Client> {
        reqwest::Client::builder()
            .user_agent(self.user_agent.as_str())
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout)
            // Redirects are the transport's business: it follows same-origin GETs only.
            .redirect(reqwest::redirect::Policy::none())
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
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            retry: RetryPolicy::default(),
        }
    }

    /// A client of the hub at `base_url` with the token from `HUB_TOKEN` and default settings.
    /// Without `HUB_TOKEN` the client is anonymous and a warning is logged (see
    /// [`ClientBuilder::build`]); [`Client::anonymous`] says that on purpose.
    pub fn new(base_url: impl Into<String>) -> Result<Self> {
        Self::builder(base_url).build()
    }

    /// A client of the hub at `base_url` that sends no token, whatever `HUB_TOKEN` holds: enough
    /// for token revocation and public reads.
    pub fn anonymous(base_url: impl Into<String>) -> Result<Self> {
        Self::builder(base_url).anonymous().build()
    }

    /// The base URL, without a trailing `/`.
    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// Whether calls carry a hub token.
    pub fn is_authenticated(&self) -> bool {
        self.inner.token.is_some()
    }

    /// The generated client behind this one (authenticated like it, with the same redirect,
    /// size and retry rules), for anything not wrapped here. Its errors are the raw generated
    /// ones.
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
        let token_sent = call.authenticated && self.inner.token.is_some();
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
                let error = match special(&error) {
                    Some(mapped) => mapped,
                    None => {
                        let failed = FailedCall {
                            operation,
                            redactor: self.redactor().with_all(call.secrets.iter().copied()),
                            body_policy: call.body_policy,
                            token_sent,
                            limits: self.inner.limits,
                        };
                        failed.map::<T>(error).await
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
    /// Whether the call goes through the authenticated client (all but revocation).
    pub(crate) authenticated: bool,
}

impl<'a> Call<'a> {
    pub(crate) fn new(operation: &'static str) -> Self {
        Self {
            operation,
            secrets: Vec::new(),
            body_policy: BodyPolicy::Keep,
            authenticated: true,
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

    /// Marks a call sent through [`Client::anonymous_api`].
    pub(crate) fn unauthenticated(mut self) -> Self {
        self.authenticated = false;
        self
    }
}

fn normalize_base_url(base_url: &str) -> Result<String> {
    const RULE: &str = "an absolute http or https URL without query or fragment";
    let parsed = reqwest::Url::parse(base_url).map_err(|_| Error::validation("base_url", RULE))?;
    // reqwest would send user info as Basic credentials on every call (revocation included)
    // and it would show wherever the URL does; the message never repeats the URL.
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(Error::validation(
            "base_url",
            "must not contain user info (`user:password@`): give the hub token with ClientBuilder::token or HUB_TOKEN",
        ));
    }
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
            "https://user:pw@hub.example.com",
            "https://user@hub.example.com",
            "https://:pw@hub.example.com",
        ] {
            assert!(
                matches!(normalize_base_url(bad), Err(Error::Validation { ref field, .. }) if field == "base_url"),
                "{bad} was accepted"
            );
        }
    }

    #[test]
    fn debug_hides_user_info() {
        assert_eq!(
            without_user_info("http://user:SECRET@hub:1/x@y"),
            "http://[redacted]@hub:1/x@y"
        );
        assert_eq!(without_user_info("https://hub/a@b"), "https://hub/a@b");
        assert_eq!(without_user_info("user:SECRET@hub"), "[redacted]@hub");
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
