//! [`Client`]: the hub client, built from a base URL and an optional hub token, and the plumbing
//! every operation shares (authentication, logging, error mapping).
//!
//! The operations themselves live next to their helpers: notifications and notification/watch
//! settings in [`notifications`](crate::notifications), token revocation in
//! [`revocation`](crate::revocation), webhook management in
//! [`webhooks`](crate::webhooks), storage access tokens in [`storage`](crate::storage);
//! the MCP settings read is here.
//!
//! # Authentication
//!
//! The token is sent as `Authorization: Bearer <token>` on every call except
//! `revokeCredentials`, which the hub accepts without authentication: that call goes through a
//! second generated client whose transport never adds an `Authorization` header, so a
//! configured token can never reach it. The header is marked sensitive, so that reqwest and
//! hyper never print it.
//!
//! # Configuration from the environment
//!
//! [`Client::from_env`] reads, in this order:
//! 1. the base URL from `HUB_BASE_URL` ([`BASE_URL_ENV_VAR`]; required, as for the `hub`
//!    command: there is no default hub);
//! 2. the token from `HUB_TOKEN` ([`TOKEN_ENV_VAR`]), if set and not blank;
//! 3. else the token from the token file: `$XDG_CONFIG_HOME/hub/token`, else
//!    `$HOME/.config/hub/token` (on Windows `%APPDATA%\hub\token`), surrounding whitespace
//!    trimmed; a missing or blank file means no token. On Unix a file that group or others may
//!    read is refused with [`Error::TokenFile`] (as `ssh` refuses a readable key): the token
//!    could already be in other hands, and silently using it would hide that;
//! 4. else no token (the client is anonymous and a warning is logged; on standard error when
//!    no `tracing` subscriber is installed).
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

use std::ffi::OsString;
use std::fmt;
use std::future::Future;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderName, HeaderValue};
use serde::de::DeserializeOwned;

use crate::error::{BodyPolicy, FailedCall, Limits, Redactor, Result};
use crate::transport::{
    HubTransport, RequestHook, RequestSettings, RetryPolicy, TransportConfig, recording_request_id,
};
use crate::{Error, Secret, generated, types};

/// The environment variable read for the hub token when none is given to the builder.
pub const TOKEN_ENV_VAR: &str = "HUB_TOKEN";

/// The environment variable [`Client::from_env`] reads the base URL from (the `hub` command
/// reads the same one).
pub const BASE_URL_ENV_VAR: &str = "HUB_BASE_URL";

/// A token file larger than this is not a token file (a token is well under 1 KiB); it is
/// refused rather than read whole.
const MAX_TOKEN_FILE_BYTES: u64 = 64 * 1024;

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
    /// The one HTTP stack (and connection pool) of both generated clients, and of every client
    /// [`Client::with_timeout`] derives.
    http: reqwest::Client,
    /// The authenticated transport's configuration, to derive clients from.
    config: TransportConfig,
    /// Its transport sends `Authorization: Bearer` when a token is configured.
    authenticated: generated::Client,
    /// Its transport never sends `Authorization`; used for `revokeCredentials` only.
    anonymous: generated::Client,
}

impl Inner {
    /// Both generated clients over `http`, with transports configured by `config` (the
    /// anonymous one without its `Authorization`).
    fn new(
        base_url: String,
        token: Option<Secret>,
        limits: Limits,
        http: reqwest::Client,
        config: TransportConfig,
    ) -> Self {
        let mut anonymous_config = config.clone();
        anonymous_config.request.authorization = None;
        let transport = |config: TransportConfig| {
            generated::Transport::new(Arc::new(HubTransport::new(config)))
        };
        Self {
            authenticated: generated::Client::new_with_client(
                &base_url,
                http.clone(),
                transport(config.clone()),
            ),
            anonymous: generated::Client::new_with_client(
                &base_url,
                http.clone(),
                transport(anonymous_config),
            ),
            base_url,
            token,
            limits,
            http,
            config,
        }
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.inner.base_url)
            .field("token", &self.inner.token)
            .field("limits", &self.inner.limits)
            .field("retry", &self.inner.config.retry)
            .finish_non_exhaustive()
    }
}

/// Where the builder takes the hub token from.
#[derive(Debug, Clone)]
enum TokenSource {
    /// `HUB_TOKEN`, if set and not empty.
    Environment,
    /// `HUB_TOKEN`, else the token file ([`Client::from_env`]).
    EnvironmentOrFile,
    Explicit(Secret),
    None,
}

/// Configures a [`Client`]; see [`Client::builder`]. `Debug` never shows the token, nor user
/// info in the base URL.
#[derive(Clone)]
#[must_use]
pub struct ClientBuilder {
    base_url: String,
    /// What errors call the base URL: `base_url`, or `HUB_BASE_URL` when it came from there,
    /// so that a malformed variable is reported under its own name.
    base_url_field: &'static str,
    token: TokenSource,
    timeout: Duration,
    connect_timeout: Duration,
    user_agent: String,
    user_agent_suffix: Option<String>,
    max_response_bytes: u64,
    retry: RetryPolicy,
    http_client: Option<reqwest::Client>,
    /// As given; checked by `build`, so that the setter stays infallible.
    default_headers: Vec<(String, String)>,
    hooks: Vec<RequestHook>,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Header names only: a default header's value may be a credential.
        let header_names: Vec<&str> = self
            .default_headers
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        f.debug_struct("ClientBuilder")
            .field("base_url", &without_user_info(&self.base_url))
            .field("token", &self.token)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("user_agent", &self.user_agent)
            .field("user_agent_suffix", &self.user_agent_suffix)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("retry", &self.retry)
            .field("http_client", &self.http_client.is_some())
            .field("default_headers", &header_names)
            .field("on_request", &self.hooks.len())
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

    /// Reads the token as [`Client::from_env`] does (`HUB_TOKEN`, else the token file, else
    /// none) when the client is built, for a base URL given some other way (the `hub`
    /// command's `--base-url`).
    pub fn token_from_env(mut self) -> Self {
        self.token = TokenSource::EnvironmentOrFile;
        self
    }

    /// Sends no token at all, whatever `HUB_TOKEN` holds.
    pub fn anonymous(mut self) -> Self {
        self.token = TokenSource::None;
        self
    }

    /// Limits a whole call, from sending the request to reading the last byte
    /// (default [`DEFAULT_TIMEOUT`]). Each attempt of a retried call has this long. It is set
    /// on every request, so it also holds with [`http_client`](Self::http_client), and
    /// [`Client::with_timeout`] changes it for some calls.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Limits connecting to the hub (default [`DEFAULT_CONNECT_TIMEOUT`]). Not applied with
    /// [`http_client`](Self::http_client): connecting is that client's business.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Sends this `User-Agent` instead of [`DEFAULT_USER_AGENT`]. Prefer
    /// [`user_agent_suffix`](Self::user_agent_suffix), which keeps the crate's name and version
    /// in the hub's logs.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// Appends `suffix` to the user agent, after a space: `hub-api-rust/0.1.0 my-tool/2.0` with
    /// the default one (or after the one [`user_agent`](Self::user_agent) set), so that the
    /// hub sees both the application and the client library. Calling it again replaces the
    /// suffix.
    pub fn user_agent_suffix(mut self, suffix: impl Into<String>) -> Self {
        self.user_agent_suffix = Some(suffix.into());
        self
    }

    /// Sends the requests with this `reqwest::Client` instead of one the builder makes: for
    /// proxies, custom root certificates, client certificates, or a test double. Both the
    /// authenticated and the anonymous calls use it (one connection pool).
    ///
    /// What still applies, because the client sets it on each request: the token, the user
    /// agent ([`user_agent`](Self::user_agent), [`user_agent_suffix`](Self::user_agent_suffix),
    /// replacing one set on `client`), [`default_header`](Self::default_header)s,
    /// [`timeout`](Self::timeout) (per request, overriding `client`'s), the
    /// [`on_request`](Self::on_request) hooks, the response size limit, the redirect rule and
    /// the [`RetryPolicy`].
    ///
    /// What no longer applies: [`connect_timeout`](Self::connect_timeout) (use
    /// `reqwest::ClientBuilder::connect_timeout`), and anything else below HTTP (TLS, proxies,
    /// pools), which is `client`'s.
    ///
    /// Start from [`Client::http_client_builder`], which turns reqwest's redirects off: a
    /// client that follows redirects itself does so before this client sees them, so a
    /// redirected `POST` (token revocation) can turn into a `GET` that looks like success. And
    /// give `client` no default `Authorization` header: reqwest would add it to the anonymous
    /// calls too.
    ///
    /// ```
    /// let http = hub_api::Client::http_client_builder()
    ///     .connect_timeout(std::time::Duration::from_secs(5))
    ///     .build()
    ///     .expect("HTTP client");
    /// let client = hub_api::Client::builder("https://hub.example.com")
    ///     .anonymous()
    ///     .http_client(http)
    ///     .build()?;
    /// # let _ = client;
    /// # Ok::<(), hub_api::Error>(())
    /// ```
    pub fn http_client(mut self, client: reqwest::Client) -> Self {
        self.http_client = Some(client);
        self
    }

    /// Sends the header `name: value` on every request, unless the operation sets that header
    /// itself (e.g. a tenant or tracing header a proxy in front of the hub wants). Calling it
    /// again with the same name replaces the value.
    ///
    /// [`build`](Self::build) refuses, with [`Error::Validation`] naming the header (never the
    /// value): an invalid name or value; `Authorization` and `Proxy-Authorization` (give the
    /// token with [`token`](Self::token), so that it is kept out of the anonymous calls and out
    /// of logs); `User-Agent` (see [`user_agent`](Self::user_agent)); `Host`, `Content-Length`
    /// and the hop-by-hop headers (`Connection`, `Keep-Alive`, `TE`, `Trailer`,
    /// `Transfer-Encoding`, `Upgrade`), which describe one connection, not the request, and
    /// would break its framing. Values are marked sensitive, so that reqwest and hyper never
    /// print them.
    pub fn default_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        let name = name.into();
        self.default_headers
            .retain(|(existing, _)| !existing.eq_ignore_ascii_case(&name));
        self.default_headers.push((name, value.into()));
        self
    }

    /// Runs `hook` on every request just before it is sent: on every attempt of a retried
    /// call and on every followed redirect, each time on a fresh copy of the request, so that
    /// a hook adding a header adds it once. For request signing or tracing headers
    /// (`traceparent`). Hooks run in the order they were added, after the token, the user
    /// agent, the default headers and the timeout were set, so a hook sees (and may sign) the
    /// request as it will be sent.
    ///
    /// The request carries the `Authorization` header: a hook must never log or store it (nor
    /// the body of a revocation, which holds the tokens being revoked). It must be quick and
    /// must not block: it runs inside the call.
    ///
    /// ```
    /// let client = hub_api::Client::builder("https://hub.example.com")
    ///     .anonymous()
    ///     .on_request(|request| {
    ///         request.headers_mut().insert(
    ///             "x-trace",
    ///             reqwest::header::HeaderValue::from_static("abc"),
    ///         );
    ///     })
    ///     .build()?;
    /// # let _ = client;
    /// # Ok::<(), hub_api::Error>(())
    /// ```
    pub fn on_request(
        mut self,
        hook: impl Fn(&mut reqwest::Request) + Send + Sync + 'static,
    ) -> Self {
        self.hooks.push(Arc::new(hook));
        self
    }

    /// Refuses response bodies larger than `bytes` (default [`DEFAULT_MAX_RESPONSE_BYTES`])
    /// with [`Error::ResponseTooLarge`]; a body is never read beyond the limit, and one whose
    /// `Content-Length` is already larger is not read at all.
    pub fn max_response_bytes(mut self, bytes: u64) -> Self {
        self.max_response_bytes = bytes;
        self
    }

    /// Retries failed calls by `policy` (default [`RetryPolicy::default`]; switch retries off
    /// with [`RetryPolicy::none`]); see [`RetryPolicy`] for what is retried.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Builds the client. Fails with [`Error::Validation`] on a base URL that is not an absolute
    /// `http`/`https` URL (or carries user info), a token that cannot be sent in a header, a
    /// user agent or default header that cannot be sent, with [`Error::TokenFile`] when the
    /// token file of [`Client::from_env`] cannot be used, and with [`Error::ClientBuild`] when
    /// the HTTP stack cannot be set up.
    ///
    /// When the token was to come from `HUB_TOKEN` (or the token file) and there is none, the
    /// client is anonymous and a warning is logged (through `tracing`; without a subscriber,
    /// once per process on standard error, so that it is seen): calls that need a token will fail with
    /// [`Error::Unauthorized`]. Say [`anonymous`](Self::anonymous) to mean it.
    pub fn build(self) -> Result<Client> {
        let base_url = normalize_base_url(&self.base_url, self.base_url_field)?;
        let token = self.resolve_token(&base_url, &|name| std::env::var_os(name))?;
        let user_agent = match &self.user_agent_suffix {
            Some(suffix) => format!("{} {suffix}", self.user_agent),
            None => self.user_agent.clone(),
        };
        let user_agent = HeaderValue::from_str(&user_agent).map_err(|_| {
            Error::validation(
                "user_agent",
                "printable ASCII only (no control characters or line breaks)",
            )
        })?;
        let default_headers = self
            .default_headers
            .iter()
            .map(|(name, value)| default_header(name, value))
            .collect::<Result<Vec<_>>>()?;
        install_crypto_provider();
        let http = match &self.http_client {
            Some(client) => client.clone(),
            None => self.own_http_client()?,
        };
        let config = TransportConfig {
            max_response_bytes: self.max_response_bytes,
            retry: self.retry.clone(),
            request: RequestSettings {
                authorization: token.as_ref().map(bearer_header).transpose()?,
                user_agent,
                default_headers,
                timeout: self.timeout,
                hooks: self.hooks.clone(),
            },
        };
        tracing::debug!(
            base_url = %base_url,
            authenticated = token.is_some(),
            own_http_client = self.http_client.is_some(),
            "hub client built"
        );
        let limits = Limits {
            timeout: self.timeout,
            connect_timeout: self.connect_timeout,
            max_response_bytes: self.max_response_bytes,
        };
        Ok(Client {
            inner: Arc::new(Inner::new(base_url, token, limits, http, config)),
        })
    }

    /// The token the client will send, from where the builder was told to take it; `lookup`
    /// reads the environment (a parameter so that tests need not change the process's).
    fn resolve_token(
        &self,
        base_url: &str,
        lookup: &dyn Fn(&str) -> Option<OsString>,
    ) -> Result<Option<Secret>> {
        let (token, file) = match &self.token {
            TokenSource::Explicit(token) if token.is_empty() => {
                return Err(Error::validation("token", "must not be empty"));
            }
            TokenSource::Explicit(token) => return Ok(Some(token.clone())),
            TokenSource::None => return Ok(None),
            TokenSource::Environment => (token_from_lookup(lookup), None),
            TokenSource::EnvironmentOrFile => {
                let path = token_file_path(lookup);
                let token = match (token_from_lookup(lookup), &path) {
                    (Some(token), _) => Some(token),
                    (None, Some(path)) => read_token_file(path)?,
                    (None, None) => None,
                };
                (token, Some(path))
            }
        };
        if token.is_none() {
            let file = match file {
                None => String::new(),
                Some(Some(path)) => format!(" and the token file {} holds none", path.display()),
                Some(None) => {
                    " and there is no token file (neither XDG_CONFIG_HOME, HOME nor APPDATA is set)"
                        .to_owned()
                }
            };
            tracing::warn!(
                base_url = %base_url,
                "{TOKEN_ENV_VAR} is not set (or empty){file}: this hub client sends no token, and calls that need one will fail with HTTP 401 (use ClientBuilder::token, or ClientBuilder::anonymous if this is intended)"
            );
            warn_on_stderr_once(&format!(
                "warning: hub-api: {TOKEN_ENV_VAR} is not set (or empty){file}: the client sends no token, and calls that need one will fail with HTTP 401 (ClientBuilder::anonymous says this is intended)"
            ));
        }
        Ok(token)
    }

    /// The `reqwest::Client` made when the application brings none.
    fn own_http_client(&self) -> Result<reqwest::Client> {
        // Redirects are the transport's business: it follows same-origin GETs only.
        Client::http_client_builder()
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout)
            .build()
            .map_err(|source| Error::ClientBuild {
                source: Arc::new(source),
            })
    }

    /// A builder configured from the environment, as [`Client::from_env`] describes: the base
    /// URL from `HUB_BASE_URL`, the token from `HUB_TOKEN` or else the token file (read when
    /// the client is built). Everything else can still be changed before
    /// [`build`](Self::build). Fails with [`Error::Validation`] (field `HUB_BASE_URL`) when
    /// `HUB_BASE_URL` is unset or empty.
    pub fn from_env() -> Result<Self> {
        Self::from_lookup(&|name| std::env::var_os(name))
    }

    fn from_lookup(lookup: &dyn Fn(&str) -> Option<OsString>) -> Result<Self> {
        let base_url = lookup(BASE_URL_ENV_VAR)
            .filter(|url| !url.is_empty())
            .ok_or_else(|| {
                Error::validation(
                    BASE_URL_ENV_VAR,
                    "must be set to the hub's URL, e.g. https://hub.example.com",
                )
            })?
            .into_string()
            .map_err(|_| Error::validation(BASE_URL_ENV_VAR, "must be valid Unicode"))?;
        let mut builder = Client::builder(base_url).token_from_env();
        builder.base_url_field = BASE_URL_ENV_VAR;
        Ok(builder)
    }
}

/// Prints `line` on standard error, once per process, when no `tracing` subscriber was ever
/// installed. A client that silently has no token is the first-hour trap this guards against
/// (every call then fails with a 401 that seems to say the token is wrong), so the warning must
/// be seen without a subscriber; a program that installs one gets it in its own logs instead,
/// and one that means to be anonymous says so with `ClientBuilder::anonymous` and gets nothing.
/// Once per process, so that a program building many clients is not flooded.
fn warn_on_stderr_once(line: &str) {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if tracing::dispatcher::has_been_set()
        || WARNED.swap(true, std::sync::atomic::Ordering::Relaxed)
    {
        return;
    }
    eprintln!("{line}");
}

/// A default header, checked: a clear error for what must not be a default header, naming the
/// header but never the value.
fn default_header(name: &str, value: &str) -> Result<(HeaderName, HeaderValue)> {
    let field = format!("default_header({name:?})");
    let name = HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| Error::validation(&field, "not a valid header name"))?;
    let refusal = match name.as_str() {
        "authorization" | "proxy-authorization" => Some(
            "credentials are not default headers: give the hub token with ClientBuilder::token (it is kept out of the anonymous calls and out of logs)",
        ),
        "user-agent" => Some("use ClientBuilder::user_agent or ClientBuilder::user_agent_suffix"),
        "host" | "content-length" | "connection" | "keep-alive" | "te" | "trailer"
        | "transfer-encoding" | "upgrade" | "proxy-connection" => Some(
            "a hop-by-hop or framing header describes the connection, not the request, and is set by the HTTP stack",
        ),
        _ => None,
    };
    if let Some(rule) = refusal {
        return Err(Error::validation(field, rule));
    }
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        Error::validation(
            &field,
            "the value must be printable ASCII (no control characters or line breaks)",
        )
    })?;
    value.set_sensitive(true);
    Ok((name, value))
}

/// Where the token file is: `$XDG_CONFIG_HOME/hub/token`, else `$HOME/.config/hub/token`;
/// `%APPDATA%\hub\token` on Windows. `None` when the variables say nothing usable (the XDG
/// rule: a relative `XDG_CONFIG_HOME` is ignored).
fn token_file_path(lookup: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let absolute = |name: &str| {
        lookup(name)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
    };
    if cfg!(windows) {
        return absolute("APPDATA").map(|dir| dir.join("hub").join("token"));
    }
    if let Some(config) = absolute("XDG_CONFIG_HOME") {
        return Some(config.join("hub").join("token"));
    }
    absolute("HOME").map(|home| home.join(".config").join("hub").join("token"))
}

/// The token in the file at `path`: `None` when there is no file or it is blank, an error
/// (naming the path, never the content) when it cannot be read or, on Unix, when group or
/// others may read it.
fn read_token_file(path: &Path) -> Result<Option<Secret>> {
    let problem = |problem: String| Error::TokenFile {
        path: path.to_owned(),
        problem,
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        // The io error's text is the OS's reason (permission denied, ...), never the content.
        Err(error) => return Err(problem(format!("cannot be opened: {error}"))),
    };
    // The opened file's own metadata, so that the checks and the read see the same file.
    let metadata = file
        .metadata()
        .map_err(|error| problem(format!("cannot be inspected: {error}")))?;
    if !metadata.is_file() {
        return Err(problem("is not a regular file".to_owned()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(problem(format!(
                "group or others may read it (mode {mode:03o}); restrict it with `chmod 600 {}`",
                path.display()
            )));
        }
    }
    if metadata.len() > MAX_TOKEN_FILE_BYTES {
        return Err(problem(format!(
            "is larger than {MAX_TOKEN_FILE_BYTES} bytes, too large for a token"
        )));
    }
    let mut text = String::new();
    file.take(MAX_TOKEN_FILE_BYTES)
        .read_to_string(&mut text)
        .map_err(|error| problem(format!("cannot be read as text: {}", error.kind())))?;
    let token = text.trim();
    Ok((!token.is_empty()).then(|| Secret::new(token)))
}

impl Client {
    /// Starts configuring a client of the hub at `base_url` (scheme, host, optional port and
    /// path stem, e.g. `https://hub.example.com`). Unless told otherwise the token is read from
    /// `HUB_TOKEN` when the client is built.
    pub fn builder(base_url: impl Into<String>) -> ClientBuilder {
        ClientBuilder {
            base_url: base_url.into(),
            base_url_field: "base_url",
            token: TokenSource::Environment,
            timeout: DEFAULT_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            user_agent_suffix: None,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            retry: RetryPolicy::default(),
            http_client: None,
            default_headers: Vec::new(),
            hooks: Vec::new(),
        }
    }

    /// A `reqwest::ClientBuilder` set up as the one the client makes itself, to customise
    /// (proxies, root certificates) and hand to [`ClientBuilder::http_client`]: redirects off
    /// (the client follows same-origin `GET` redirects itself), [`DEFAULT_TIMEOUT`] and
    /// [`DEFAULT_CONNECT_TIMEOUT`], and, with the default `rustls` feature, the `ring` crypto
    /// provider installed unless the application installed one, without which reqwest cannot
    /// build a client.
    pub fn http_client_builder() -> reqwest::ClientBuilder {
        install_crypto_provider();
        reqwest::Client::builder()
            .timeout(DEFAULT_TIMEOUT)
            .connect_timeout(DEFAULT_CONNECT_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
    }

    /// A client configured from the environment, read in this order:
    /// 1. the base URL from `HUB_BASE_URL` ([`BASE_URL_ENV_VAR`]); required, as for the `hub`
    ///    command: there is no default hub;
    /// 2. the token from `HUB_TOKEN` ([`TOKEN_ENV_VAR`]), if set and not blank;
    /// 3. else the token from the token file: `$XDG_CONFIG_HOME/hub/token`, else
    ///    `$HOME/.config/hub/token` (on Windows `%APPDATA%\hub\token`), surrounding whitespace
    ///    trimmed; a missing or blank file means no token. On Unix a file that group or others
    ///    may read is refused with [`Error::TokenFile`] (as `ssh` refuses a readable key): the
    ///    token may already be in other hands, and silently using it would hide that;
    /// 4. else no token: the client is anonymous and a warning is logged.
    ///
    /// [`ClientBuilder::from_env`] does the same and allows changing other settings first.
    ///
    /// ```no_run
    /// let client = hub_api::Client::from_env()?;
    /// # let _ = client;
    /// # Ok::<(), hub_api::Error>(())
    /// ```
    pub fn from_env() -> Result<Self> {
        ClientBuilder::from_env()?.build()
    }

    /// This client with another [`timeout`](ClientBuilder::timeout) for each attempt of its
    /// calls, e.g. a short one for a health check or a long one for a large page. Cheap: the
    /// new client shares this one's connection pool and every other setting, and this client
    /// keeps its own timeout.
    ///
    /// ```no_run
    /// # async fn demo(client: hub_api::Client) -> hub_api::Result<()> {
    /// use std::time::Duration;
    /// let settings = client.with_timeout(Duration::from_secs(2)).mcp_settings().await?;
    /// # let _ = settings; Ok(()) }
    /// ```
    pub fn with_timeout(&self, timeout: Duration) -> Client {
        let inner = &self.inner;
        let mut config = inner.config.clone();
        config.request.timeout = timeout;
        let limits = Limits {
            timeout,
            ..inner.limits
        };
        Client {
            inner: Arc::new(Inner::new(
                inner.base_url.clone(),
                inner.token.clone(),
                limits,
                inner.http.clone(),
                config,
            )),
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
        let answer = self.send_with(call, request, |_, _| None).await?;
        Ok(answer.value)
    }

    /// Like [`Client::send`], keeping the hub's request id of the answer, and with `special`
    /// given the first chance to map an error, with that request id (the storage-token call
    /// maps 403 and 404 to their own variants).
    pub(crate) async fn send_with<T, F>(
        &self,
        call: Call<'_>,
        request: F,
        special: impl FnOnce(&generated::Error<()>, Option<&str>) -> Option<Error>,
    ) -> Result<Answer<T>>
    where
        T: DeserializeOwned,
        F: Future<Output = std::result::Result<generated::ResponseValue<T>, generated::Error<()>>>,
    {
        let operation = call.operation;
        let token_sent = call.authenticated && self.inner.token.is_some();
        let redactor = self.redactor().with_all(call.secrets.iter().copied());
        let started = Instant::now();
        tracing::trace!(operation, "sending hub request");
        let (outcome, request_id) = recording_request_id(request).await;
        // Scrubbed like any text from the server: an id that repeats a secret sent in the
        // request would otherwise carry it into errors and logs.
        let request_id = request_id.map(|id| redactor.scrub(&id));
        let elapsed_ms = started.elapsed().as_millis();
        match outcome {
            Ok(response) => {
                tracing::debug!(
                    operation,
                    status = response.status().as_u16(),
                    elapsed_ms,
                    "hub call succeeded"
                );
                Ok(Answer {
                    value: response.into_inner(),
                    request_id,
                })
            }
            Err(error) => {
                let error = match special(&error, request_id.as_deref()) {
                    Some(mapped) => mapped,
                    None => {
                        let failed = FailedCall {
                            operation,
                            redactor,
                            body_policy: call.body_policy,
                            token_sent,
                            limits: self.inner.limits,
                            request_id,
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

/// A decoded answer of the hub, with its request id (`x-request-id`, scrubbed).
pub(crate) struct Answer<T> {
    pub(crate) value: T,
    pub(crate) request_id: Option<String>,
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

/// `base_url` checked and without its trailing `/`; `field` is what errors call it
/// (`base_url`, or `HUB_BASE_URL`).
fn normalize_base_url(base_url: &str, field: &str) -> Result<String> {
    // The value is repeated, so that a typo shows, except what could hold a credential: user
    // info (`user:token@`), a query or a fragment (`?access_token=...`).
    let refused = || {
        let shown = match base_url.split_once(['?', '#']) {
            _ if base_url.contains('@') => "not shown: it may hold credentials".to_owned(),
            Some((before, _)) => format!("got {before:?} and a query or fragment, not shown"),
            None => format!("got {base_url:?}"),
        };
        Error::validation(
            field,
            format!(
                "must be an absolute http or https URL without query or fragment, e.g. https://hub.example.com; {shown}"
            ),
        )
    };
    let parsed = reqwest::Url::parse(base_url).map_err(|_| refused())?;
    // reqwest would send user info as Basic credentials on every call (revocation included)
    // and it would show wherever the URL does; the message never repeats the URL.
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(Error::validation(
            field,
            "must not contain user info (`user:password@`): give the hub token with ClientBuilder::token or HUB_TOKEN",
        ));
    }
    let supported = matches!(parsed.scheme(), "http" | "https")
        && parsed.host_str().is_some()
        && parsed.query().is_none()
        && parsed.fragment().is_none();
    if !supported {
        return Err(refused());
    }
    // The generated client appends `/api/...` to the base as given.
    Ok(base_url.trim_end_matches('/').to_owned())
}

fn token_from_lookup(lookup: &dyn Fn(&str) -> Option<OsString>) -> Option<Secret> {
    let value = lookup(TOKEN_ENV_VAR)?.into_string().ok()?;
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

/// The temporary directory and the token-file writer the integration tests use too.
#[cfg(test)]
#[path = "../tests/client_support/files.rs"]
mod test_files;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_checked_and_trimmed() {
        assert_eq!(
            normalize_base_url("https://hub.example.com/", "base_url")
                .ok()
                .as_deref(),
            Some("https://hub.example.com")
        );
        assert_eq!(
            normalize_base_url("http://127.0.0.1:8080/hub", "base_url")
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
                matches!(normalize_base_url(bad, "base_url"), Err(Error::Validation { ref field, .. }) if field == "base_url"),
                "{bad} was accepted"
            );
        }
    }

    #[test]
    fn a_malformed_hub_base_url_is_named_with_its_value() {
        // Issue 43: reported as field `base_url`, without the value.
        let lookup =
            |name: &str| (name == BASE_URL_ENV_VAR).then(|| OsString::from("hub.example.com"));
        let error = ClientBuilder::from_lookup(&lookup)
            .expect("set")
            .anonymous()
            .build()
            .expect_err("refused");
        assert_eq!(
            error.to_string(),
            "invalid `HUB_BASE_URL`: must be an absolute http or https URL without query or fragment, e.g. https://hub.example.com; got \"hub.example.com\""
        );
        let with_user_info = normalize_base_url("https//user:pw@hub", BASE_URL_ENV_VAR)
            .expect_err("refused")
            .to_string();
        assert!(!with_user_info.contains("pw"), "{with_user_info}");
        let with_query = normalize_base_url("https://hub.example.com/?token=hf_x", "base_url")
            .expect_err("refused")
            .to_string();
        assert!(!with_query.contains("hf_x"), "{with_query}");
        assert!(
            with_query.contains("\"https://hub.example.com/\""),
            "{with_query}"
        );
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

    use super::test_files::{TempDir, write_token_file};

    /// An environment of the given variables only.
    fn environment(vars: &[(&str, &Path)]) -> impl Fn(&str) -> Option<OsString> + use<> {
        let vars: Vec<(String, OsString)> = vars
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.as_os_str().to_owned()))
            .collect();
        move |name| {
            vars.iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.clone())
        }
    }

    #[cfg(not(windows))]
    #[test]
    fn the_token_file_is_found_by_xdg_then_home() {
        let xdg = Path::new("/xdg");
        let home = Path::new("/home/me");
        assert_eq!(
            token_file_path(&environment(&[("XDG_CONFIG_HOME", xdg), ("HOME", home)])),
            Some(PathBuf::from("/xdg/hub/token"))
        );
        assert_eq!(
            token_file_path(&environment(&[("HOME", home)])),
            Some(PathBuf::from("/home/me/.config/hub/token"))
        );
        // A relative XDG_CONFIG_HOME is ignored, as the XDG rule says.
        assert_eq!(
            token_file_path(&environment(&[
                ("XDG_CONFIG_HOME", Path::new("relative")),
                ("HOME", home)
            ])),
            Some(PathBuf::from("/home/me/.config/hub/token"))
        );
        assert_eq!(token_file_path(&environment(&[])), None);
    }

    #[test]
    fn the_token_file_is_trimmed_and_a_blank_or_missing_one_is_no_token() {
        let dir = TempDir::new("trimmed");
        assert!(matches!(
            read_token_file(&dir.0.join("hub/token")),
            Ok(None)
        ));
        let path = write_token_file(&dir.0, "  hub_from_file_SECRET\n", 0o600);
        let token = read_token_file(&path).ok().flatten();
        assert_eq!(
            token.as_ref().map(Secret::expose),
            Some("hub_from_file_SECRET")
        );
        let path = write_token_file(&dir.0, " \n\t", 0o600);
        assert!(matches!(read_token_file(&path), Ok(None)));
        let error = read_token_file(&dir.0).err();
        assert!(
            matches!(&error, Some(Error::TokenFile { problem, .. }) if problem.contains("not a regular file")),
            "{error:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_others_may_read_is_refused_naming_the_path_only() {
        let dir = TempDir::new("mode");
        for mode in [0o644, 0o640, 0o604, 0o660] {
            let path = write_token_file(&dir.0, "hub_readable_SECRET", mode);
            let error = read_token_file(&path).expect_err("refused");
            let Error::TokenFile { path: named, .. } = &error else {
                panic!("{error:?}");
            };
            assert_eq!(named, &path);
            let message = error.to_string();
            assert!(message.contains(&path.display().to_string()), "{message}");
            assert!(message.contains(&format!("{mode:03o}")), "{message}");
            assert!(!message.contains("SECRET"), "{message}");
            assert!(!format!("{error:?}").contains("SECRET"));
        }
        let path = write_token_file(&dir.0, "hub_private", 0o400);
        assert!(read_token_file(&path).is_ok_and(|token| token.is_some()));
    }

    #[test]
    fn from_env_takes_hub_token_first_then_the_file() {
        let dir = TempDir::new("order");
        write_token_file(&dir.0, "hub_from_file\n", 0o600);
        let url = Path::new("https://hub.example.com");
        let file_only = environment(&[(BASE_URL_ENV_VAR, url), ("XDG_CONFIG_HOME", &dir.0)]);
        let builder = ClientBuilder::from_lookup(&file_only).expect("builder");
        assert_eq!(builder.base_url, "https://hub.example.com");
        let token = builder.resolve_token("https://hub.example.com", &file_only);
        assert_eq!(
            token.ok().flatten().as_ref().map(Secret::expose),
            Some("hub_from_file")
        );

        let both = environment(&[
            (BASE_URL_ENV_VAR, url),
            ("XDG_CONFIG_HOME", &dir.0),
            (TOKEN_ENV_VAR, Path::new(" hub_from_env ")),
        ]);
        let token = builder.resolve_token("https://hub.example.com", &both);
        assert_eq!(
            token.ok().flatten().as_ref().map(Secret::expose),
            Some("hub_from_env")
        );

        // A blank HUB_TOKEN falls through to the file.
        let blank = environment(&[("XDG_CONFIG_HOME", &dir.0), (TOKEN_ENV_VAR, Path::new(""))]);
        let token = builder.resolve_token("https://hub.example.com", &blank);
        assert_eq!(
            token.ok().flatten().as_ref().map(Secret::expose),
            Some("hub_from_file")
        );

        // Neither: no token (and a warning), not an error.
        let empty = TempDir::new("empty");
        let neither = environment(&[("XDG_CONFIG_HOME", &empty.0)]);
        assert!(matches!(
            builder.resolve_token("https://hub.example.com", &neither),
            Ok(None)
        ));

        // An explicit token or anonymous() still wins over both.
        let explicit = builder.clone().token("hub_explicit");
        let token = explicit.resolve_token("https://hub.example.com", &both);
        assert_eq!(
            token.ok().flatten().as_ref().map(Secret::expose),
            Some("hub_explicit")
        );
        let anonymous = builder.anonymous();
        assert!(matches!(
            anonymous.resolve_token("https://hub.example.com", &both),
            Ok(None)
        ));
    }

    #[test]
    fn from_env_needs_hub_base_url() {
        for lookup in [
            environment(&[]),
            environment(&[(BASE_URL_ENV_VAR, Path::new(""))]),
        ] {
            let error = ClientBuilder::from_lookup(&lookup).err();
            assert!(
                matches!(&error, Some(Error::Validation { field, .. }) if field == BASE_URL_ENV_VAR),
                "{error:?}"
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
