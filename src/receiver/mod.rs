//! A webhook receiver: a small HTTP server that checks the hub's deliveries and turns each
//! accepted one into a call of a typed async handler (feature `receiver`, experimental).
//!
//! (Before issue 31 this module was `hub_api::webhooks`, a name that now belongs to webhook
//! management, [`crate::webhooks`].)
//!
//! Every registered handler is served at `POST /webhooks/<name>`; `GET /` answers 200 with the
//! list of routes, as a health check. A delivery reaches its handler only if it carries the
//! right `X-Webhook-Secret` (compared in constant time), declares a JSON content type, fits the
//! body limit and parses as a [`WebhookPayload`]. Otherwise the sender gets a 4xx and a JSON
//! body `{"error": "..."}`:
//!
//! | Checked in this order | Status |
//! |---|---|
//! | no route with that path | 404 |
//! | a method other than `POST` (`GET`/`HEAD` on `/`) | 405 |
//! | `X-Webhook-Secret` missing (when a secret is configured) | 401 |
//! | `X-Webhook-Secret` wrong, or given twice | 403 |
//! | content type not `application/json` or `application/*+json` | 415 |
//! | body over the limit (default [`DEFAULT_BODY_LIMIT`]) | 413 |
//! | body not received within the timeout (default [`DEFAULT_BODY_TIMEOUT`]) | 408 |
//! | malformed JSON | 400 |
//! | JSON that is not a payload (the body also has `"field"`, e.g. `"repo.type"`) | 422 |
//! | the handler returned `Err` or panicked | 500, so the hub retries |
//! | the handler did not finish within the timeout (default [`DEFAULT_HANDLER_TIMEOUT`]) | 503, so the hub retries |
//! | the handler returned `Ok` | 200 |
//!
//! The secret comes before anything about the body, so a caller without it learns nothing
//! more and costs no parsing. The hub counts only a 2xx as delivered, so a 200 is sent only
//! after the handler succeeded, also during a graceful shutdown. A handler past its timeout is
//! cancelled (its future is dropped at its next `.await`), so handlers should be safe to stop
//! and to run again: the hub retries the delivery. Unauthenticated requests (401, 403) come
//! from anyone who can reach the receiver, so at most one warning a minute is logged about
//! them, counting the others; each is also logged at `DEBUG`.
//!
//! # Connections
//!
//! [`Receiver::serve`] runs its own HTTP/1 server, which holds up against slow and idle
//! clients as well as deliveries (all defaults can be changed on the builder):
//!
//! - a new connection must send a complete request head within the header timeout
//!   ([`DEFAULT_HEADER_TIMEOUT`]), so a sender dribbling its head (slowloris) is cut off;
//! - a kept-alive connection may wait for its next request for the idle timeout
//!   ([`DEFAULT_IDLE_TIMEOUT`]), then has the header timeout for that request's head;
//! - at most [`DEFAULT_MAX_CONNECTIONS`] connections are open. One more closes the connection
//!   that has waited longest without a request in progress (idle, or still sending its head),
//!   so idle or slow clients cannot crowd out deliveries; only when every connection is
//!   answering a request does a new one wait. Running out of file descriptors sheds an idle
//!   connection the same way.
//!
//! A request in progress is never cut off by these: the body and handler timeouts bound it.
//!
//! # In an existing axum or tower app
//!
//! [`Receiver::into_router`] gives the `POST /webhooks/<name>` routes as an axum [`Router`]
//! (a tower `Service`) to merge or nest into an app served by other means, with the same
//! checks, status codes and body and handler timeouts. What is about connections is then the
//! host server's job: `axum::serve` bounds neither the time to send a request head nor the
//! number of connections. [`Receiver::handler_calls`] lets the host's shutdown wait for
//! handlers whose caller hung up:
//!
//! ```no_run
//! use axum::Router;
//! use axum::routing::get;
//! use hub_api::types::WebhookPayload;
//! use hub_api::receiver::Receiver;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let receiver = Receiver::builder()
//!     .handler("hub", |payload: WebhookPayload| async move {
//!         println!("{}", payload.event.action);
//!         Ok::<(), std::convert::Infallible>(())
//!     })
//!     .build()?;
//! let handlers = receiver.handler_calls();
//! let app = Router::new()
//!     .route("/health", get(|| async { "ok" }))
//!     // Deliveries at `POST /hooks/webhooks/hub`.
//!     .nest("/hooks", receiver.into_router());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! axum::serve(listener, app)
//!     .with_graceful_shutdown(async {
//!         let _ = tokio::signal::ctrl_c().await;
//!     })
//!     .await?;
//! handlers.finished().await;
//! # Ok(())
//! # }
//! ```
//!
//! ```no_run
//! use hub_api::types::WebhookPayload;
//! use hub_api::receiver::{DeliveryContext, Receiver, handler};
//!
//! /// Served at `POST /webhooks/on_repo_change`.
//! async fn on_repo_change(payload: WebhookPayload) -> Result<(), std::io::Error> {
//!     println!("{} on {}", payload.event.action, payload.repo.type_);
//!     Ok(())
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let receiver = Receiver::builder()
//!     // Without this, the secret is read from `WEBHOOK_SECRET`.
//!     .secret("correct horse battery staple")
//!     .body_limit(256 * 1024)
//!     .register(handler!(on_repo_change))
//!     .handler("audit", |payload: WebhookPayload, context: DeliveryContext| async move {
//!         println!("{} via {}", payload.event.action, context.route());
//!         Ok::<(), std::convert::Infallible>(())
//!     })
//!     .build()?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8787").await?;
//! let ctrl_c = async {
//!     let _ = tokio::signal::ctrl_c().await;
//! };
//! receiver.serve(listener, ctrl_c).await?;
//! # Ok(())
//! # }
//! ```

mod delivery;
mod handler;
mod in_flight;
mod log_limit;
mod server;

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde_json::json;
use tokio::net::TcpListener;

pub use self::handler::{DeliveryContext, HandlerFuture, WebhookHandler};
pub use self::in_flight::HandlerCalls;
/// Names a handler after its function, for [`ReceiverBuilder::register`]:
/// `handler!(on_push)` is `("on_push", on_push)`, served at `POST /webhooks/on_push`.
#[doc(inline)]
pub use crate::__webhook_handler as handler;
use crate::Secret;
pub use crate::types::WebhookPayload;
use delivery::{Route, Shared, json_response};
use in_flight::InFlight;
use server::ConnectionLimits;

/// The header that carries the webhook secret on every delivery.
pub const SECRET_HEADER: &str = "x-webhook-secret";

/// The environment variable the secret is read from when the builder is given none.
pub const SECRET_ENV: &str = "WEBHOOK_SECRET";

/// The body limit unless [`ReceiverBuilder::body_limit`] says otherwise: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;

/// How long a sender may take to send the body unless [`ReceiverBuilder::body_timeout`] says
/// otherwise: 30 seconds. A stalled sender then gets a 408 instead of holding the connection
/// (and a graceful shutdown) open.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a handler may run unless [`ReceiverBuilder::handler_timeout`] says otherwise: 30
/// seconds. A handler still running then is cancelled and the delivery answered 503, which the
/// hub retries.
pub const DEFAULT_HANDLER_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a connection may take to send a request head unless
/// [`ReceiverBuilder::header_timeout`] says otherwise: 10 seconds, counted from the connection's
/// acceptance or, on a kept-alive connection, from the request's first byte. The hub sends a
/// head in one go; a client that dribbles it is closed.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a kept-alive connection may wait for its next request unless
/// [`ReceiverBuilder::idle_timeout`] says otherwise: 60 seconds, longer than most HTTP clients
/// keep an unused connection, so that a client rarely sends on a connection just being closed.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// How many connections [`Receiver::serve`] keeps open at most unless
/// [`ReceiverBuilder::max_connections`] says otherwise: 512, half the usual default limit of
/// 1024 open files per process.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// At most one warning per this interval is logged about unauthenticated requests.
const UNAUTHENTICATED_WARNING_INTERVAL: Duration = Duration::from_secs(60);

/// Handler names become one URL path segment; this keeps them readable and short.
const MAX_NAME_LENGTH: usize = 100;

/// Why a receiver could not be built. No variant carries a secret's value.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReceiverError {
    /// No handler was registered, so no delivery could ever be accepted.
    #[error("no handler registered: add one with `handler` or `register`")]
    NoHandlers,
    /// Two handlers share a name, and so would share a route.
    #[error("two handlers are named {0:?}; each name is one route, so names must be unique")]
    DuplicateName(String),
    /// A handler name cannot be used as a URL path segment.
    #[error("handler name {name:?} cannot be a URL path segment: {reason}")]
    InvalidName {
        /// The refused name.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The secret is empty: every delivery without one would match.
    #[error("the webhook secret from {origin} is empty; unset it to run without a secret")]
    EmptySecret {
        /// Where the secret came from: the builder or `WEBHOOK_SECRET`.
        origin: &'static str,
    },
    /// The secret cannot travel in an HTTP header, so no delivery could ever match it.
    #[error(
        "the webhook secret from {origin} cannot be sent in an HTTP header: use printable ASCII \
         (0x20 to 0x7E) without leading or trailing spaces"
    )]
    UnusableSecret {
        /// Where the secret came from: the builder or `WEBHOOK_SECRET`.
        origin: &'static str,
    },
    /// A body limit of zero bytes would refuse every delivery.
    #[error("the body limit must be at least one byte")]
    ZeroBodyLimit,
    /// A timeout of zero would refuse every delivery.
    #[error("the {setting} must be longer than zero")]
    ZeroTimeout {
        /// Which timeout: `body timeout`, `handler timeout`, `header timeout` or `idle timeout`.
        setting: &'static str,
    },
    /// A connection limit of zero would refuse every delivery.
    #[error("the connection limit must be at least one")]
    ZeroMaxConnections,
}

/// Where the expected secret comes from.
#[derive(Default)]
enum SecretSource {
    #[default]
    Environment,
    Given(Secret),
    Disabled,
}

const FROM_BUILDER: &str = "the builder";
const FROM_ENV: &str = "`WEBHOOK_SECRET`";

/// Configures a [`Receiver`]; start with [`Receiver::builder`].
#[must_use = "a builder does nothing until `build` is called"]
pub struct ReceiverBuilder {
    secret: SecretSource,
    body_limit: usize,
    body_timeout: Duration,
    handler_timeout: Duration,
    limits: ConnectionLimits,
    handlers: Vec<(String, handler::ErasedHandler)>,
}

impl Default for ReceiverBuilder {
    fn default() -> Self {
        Self {
            secret: SecretSource::Environment,
            body_limit: DEFAULT_BODY_LIMIT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            handler_timeout: DEFAULT_HANDLER_TIMEOUT,
            limits: ConnectionLimits {
                header_timeout: DEFAULT_HEADER_TIMEOUT,
                idle_timeout: DEFAULT_IDLE_TIMEOUT,
                max_connections: DEFAULT_MAX_CONNECTIONS,
            },
            handlers: Vec::new(),
        }
    }
}

impl ReceiverBuilder {
    /// The secret every delivery must carry in `X-Webhook-Secret`. Without this call the
    /// secret is read from `WEBHOOK_SECRET` by [`build`](Self::build).
    pub fn secret(mut self, secret: impl Into<Secret>) -> Self {
        self.secret = SecretSource::Given(secret.into());
        self
    }

    /// Runs without a secret, whatever `WEBHOOK_SECRET` says: every route is open to anyone
    /// who can reach it, and [`Receiver::serve`] logs a warning saying so.
    pub fn without_secret(mut self) -> Self {
        self.secret = SecretSource::Disabled;
        self
    }

    /// The largest body accepted, in bytes (default [`DEFAULT_BODY_LIMIT`]); larger ones are
    /// answered 413 without being read to the end.
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// Sets how long a sender may take to send the body (default [`DEFAULT_BODY_TIMEOUT`]);
    /// after that it gets a 408.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// Sets how long a handler may run (default [`DEFAULT_HANDLER_TIMEOUT`]); after that it is
    /// cancelled and the delivery answered 503, so the hub retries it.
    pub fn handler_timeout(mut self, timeout: Duration) -> Self {
        self.handler_timeout = timeout;
        self
    }

    /// Sets how long a connection may take to send a request head (default
    /// [`DEFAULT_HEADER_TIMEOUT`]): from its acceptance, or from the first byte of a request on
    /// a kept-alive connection. A connection past it is closed. Applies to
    /// [`Receiver::serve`]; a host server serving [`Receiver::into_router`] sets its own.
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.limits.header_timeout = timeout;
        self
    }

    /// Sets how long a kept-alive connection may wait for its next request (default
    /// [`DEFAULT_IDLE_TIMEOUT`]) before it is closed. Applies to [`Receiver::serve`].
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.limits.idle_timeout = timeout;
        self
    }

    /// Sets how many connections are open at most (default [`DEFAULT_MAX_CONNECTIONS`]). One
    /// more closes the connection that has waited longest without a request in progress, or,
    /// if every connection is answering one, waits for a slot. Applies to [`Receiver::serve`].
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.limits.max_connections = connections;
        self
    }

    /// Serves `handler` at `POST /webhooks/<name>`. The name may hold ASCII letters, digits,
    /// `-`, `_` and `.` (not first), at most 100 of them; [`build`](Self::build) checks it.
    pub fn handler<H, Args>(mut self, name: impl Into<String>, handler: H) -> Self
    where
        H: WebhookHandler<Args>,
        Args: 'static,
    {
        self.handlers.push((name.into(), handler::erase(handler)));
        self
    }

    /// Serves a handler under its function's name: `.register(handler!(on_push))` serves
    /// `on_push` at `POST /webhooks/on_push`.
    pub fn register<H, Args>(self, (name, handler): (&'static str, H)) -> Self
    where
        H: WebhookHandler<Args>,
        Args: 'static,
    {
        self.handler(name, handler)
    }

    /// Checks the configuration and builds the receiver; reads `WEBHOOK_SECRET` unless a
    /// secret was given or refused.
    pub fn build(self) -> Result<Receiver, ReceiverError> {
        let secret = match self.secret {
            SecretSource::Given(secret) => Some(check_secret(secret, FROM_BUILDER)?),
            SecretSource::Disabled => None,
            SecretSource::Environment => secret_from_env(std::env::var_os(SECRET_ENV))?,
        };
        if self.body_limit == 0 {
            return Err(ReceiverError::ZeroBodyLimit);
        }
        for (setting, timeout) in [
            ("body timeout", self.body_timeout),
            ("handler timeout", self.handler_timeout),
            ("header timeout", self.limits.header_timeout),
            ("idle timeout", self.limits.idle_timeout),
        ] {
            if timeout.is_zero() {
                return Err(ReceiverError::ZeroTimeout { setting });
            }
        }
        if self.limits.max_connections == 0 {
            return Err(ReceiverError::ZeroMaxConnections);
        }
        if self.handlers.is_empty() {
            return Err(ReceiverError::NoHandlers);
        }
        let mut routes: Vec<Route> = Vec::with_capacity(self.handlers.len());
        for (name, handler) in self.handlers {
            check_name(&name)?;
            if routes.iter().any(|route| *route.name == *name) {
                return Err(ReceiverError::DuplicateName(name));
            }
            routes.push(Route {
                name: name.into(),
                handler,
            });
        }
        routes.sort_by(|left, right| left.name.cmp(&right.name));
        Ok(Receiver {
            secret,
            body_limit: self.body_limit,
            body_timeout: self.body_timeout,
            handler_timeout: self.handler_timeout,
            limits: self.limits,
            in_flight: Arc::new(InFlight::default()),
            routes,
        })
    }
}

impl fmt::Debug for ReceiverBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secret = match &self.secret {
            SecretSource::Environment => "from WEBHOOK_SECRET",
            SecretSource::Given(_) => "given",
            SecretSource::Disabled => "none",
        };
        let names: Vec<&str> = self
            .handlers
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        f.debug_struct("ReceiverBuilder")
            .field("secret", &secret)
            .field("body_limit", &self.body_limit)
            .field("body_timeout", &self.body_timeout)
            .field("handler_timeout", &self.handler_timeout)
            .field("limits", &self.limits)
            .field("handlers", &names)
            .finish()
    }
}

fn secret_from_env(value: Option<std::ffi::OsString>) -> Result<Option<Secret>, ReceiverError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let value = value
        .into_string()
        .map_err(|_| ReceiverError::UnusableSecret { origin: FROM_ENV })?;
    check_secret(Secret::new(value), FROM_ENV).map(Some)
}

/// Refuses secrets no delivery could match: the hub allows 0x20 to 0x7F, but HTTP cannot carry
/// DEL (0x7F) in a header, and parsers strip spaces at either end of a header value.
fn check_secret(secret: Secret, origin: &'static str) -> Result<Secret, ReceiverError> {
    let value = secret.expose().as_bytes();
    if value.is_empty() {
        return Err(ReceiverError::EmptySecret { origin });
    }
    let printable = value.iter().all(|byte| (0x20..=0x7E).contains(byte));
    let trimmed = value.first() != Some(&b' ') && value.last() != Some(&b' ');
    if printable && trimmed {
        Ok(secret)
    } else {
        Err(ReceiverError::UnusableSecret { origin })
    }
}

fn check_name(name: &str) -> Result<(), ReceiverError> {
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.len() > MAX_NAME_LENGTH {
        Some("it is longer than 100 characters")
    } else if !name
        .bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.'))
    {
        Some("use only ASCII letters, digits, '-', '_' and '.'")
    } else if name.starts_with('.') {
        // Rules out `.` and `..`, which clients and proxies collapse out of paths.
        Some("it must not start with '.'")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(ReceiverError::InvalidName {
            name: name.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

/// A configured webhook receiver; run it with [`serve`](Self::serve), or mount it in an
/// existing app with [`into_router`](Self::into_router).
pub struct Receiver {
    secret: Option<Secret>,
    body_limit: usize,
    body_timeout: Duration,
    handler_timeout: Duration,
    limits: ConnectionLimits,
    in_flight: Arc<InFlight>,
    /// Sorted by name, so that `GET /` lists them in a stable order.
    routes: Vec<Route>,
}

impl Receiver {
    /// Starts the configuration.
    pub fn builder() -> ReceiverBuilder {
        ReceiverBuilder::default()
    }

    /// The delivery paths, `/webhooks/<name>`, sorted by name.
    pub fn routes(&self) -> Vec<String> {
        self.routes
            .iter()
            .map(|route| route_path(&route.name))
            .collect()
    }

    /// Whether deliveries must carry a secret.
    pub fn has_secret(&self) -> bool {
        self.secret.is_some()
    }

    /// The largest accepted body, in bytes.
    pub fn body_limit(&self) -> usize {
        self.body_limit
    }

    /// The handler calls of this receiver, to wait for after a host server serving
    /// [`into_router`](Self::into_router) has shut down ([`serve`](Self::serve) waits itself).
    pub fn handler_calls(&self) -> HandlerCalls {
        HandlerCalls(Arc::clone(&self.in_flight))
    }

    /// Serves deliveries on `listener` until `shutdown` resolves, then stops accepting
    /// connections, lets the deliveries in flight finish (each answered only after its handler
    /// ran) and returns once every handler call has ended. Connections are bounded as the
    /// [module documentation](self#connections) says.
    pub async fn serve<F>(self, listener: TcpListener, shutdown: F) -> std::io::Result<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let address = listener.local_addr()?;
        let routes = self.routes();
        if self.secret.is_none() {
            tracing::warn!(
                "no webhook secret configured (builder or {SECRET_ENV}): every route is open to anyone who can reach {address}"
            );
        }
        tracing::info!(%address, ?routes, "webhook receiver listening");

        let limits = self.limits;
        let handler_calls = self.handler_calls();
        let index = json!({ "routes": routes });
        let router = self
            .into_router()
            .route(
                "/",
                get(move || {
                    let index = index.clone();
                    async move { json_response(StatusCode::OK, &index) }
                })
                .fallback(|| async { method_not_allowed("use GET") }),
            )
            .fallback(|| async {
                json_response(
                    StatusCode::NOT_FOUND,
                    &json!({ "error": "no such route; GET / lists them" }),
                )
            });
        server::serve(listener, router, limits, shutdown).await;
        // The server has answered every open request; a handler whose caller hung up may
        // still be running, and must not be cut off by the process exiting.
        handler_calls.finished().await;
        tracing::info!(%address, "webhook receiver stopped");
        Ok(())
    }

    /// The delivery routes, `POST /webhooks/<name>` (other methods answer 405), as an axum
    /// [`Router`] to merge or nest into an existing app; a `Router` is also a tower `Service`.
    /// Every check, status code and timeout of a delivery is the same as under
    /// [`serve`](Self::serve); the index at `GET /`, the JSON 404 and the bounds on connections
    /// (header and idle timeouts, connection limit) are left to the host. Await
    /// [`handler_calls`](Self::handler_calls)`().finished()` after the host has shut down.
    pub fn into_router(self) -> Router {
        let shared = Arc::new(Shared::new(
            self.secret,
            self.body_limit,
            self.body_timeout,
            self.handler_timeout,
            self.in_flight,
        ));
        let mut router = Router::new();
        for route in self.routes {
            let path = route_path(&route.name);
            let route = Arc::new(route);
            let shared = Arc::clone(&shared);
            router = router.route(
                &path,
                post(move |request| delivery::deliver(shared, route, request))
                    .fallback(|| async { method_not_allowed("deliveries are POSTed") }),
            );
        }
        router
    }
}

fn route_path(name: &str) -> String {
    format!("/webhooks/{name}")
}

fn method_not_allowed(hint: &str) -> axum::response::Response {
    // axum adds the `Allow` header to this answer.
    json_response(
        StatusCode::METHOD_NOT_ALLOWED,
        &json!({ "error": format!("method not allowed: {hint}") }),
    )
}

impl fmt::Debug for Receiver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Receiver")
            .field("routes", &self.routes())
            .field("secret", &self.secret)
            .field("body_limit", &self.body_limit)
            .field("body_timeout", &self.body_timeout)
            .field("handler_timeout", &self.handler_timeout)
            .field("limits", &self.limits)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::*;

    fn noop(_: WebhookPayload) -> std::future::Ready<Result<(), std::convert::Infallible>> {
        std::future::ready(Ok(()))
    }

    #[test]
    fn refuses_duplicate_and_unsafe_names() {
        let duplicate = Receiver::builder()
            .without_secret()
            .handler("hub", noop)
            .handler("hub", noop)
            .build();
        assert!(matches!(duplicate, Err(ReceiverError::DuplicateName(name)) if name == "hub"));

        for name in [
            "",
            ".",
            "..",
            ".hidden",
            "a/b",
            "a b",
            "{name}",
            "*rest",
            "é",
            &"x".repeat(101),
        ] {
            let built = Receiver::builder()
                .without_secret()
                .handler(name, noop)
                .build();
            assert!(
                matches!(built, Err(ReceiverError::InvalidName { .. })),
                "{name:?} was accepted"
            );
        }
        let built = Receiver::builder()
            .without_secret()
            .handler("Hub-1_v2.0", noop)
            .build();
        assert_eq!(
            built.expect("a safe name").routes(),
            ["/webhooks/Hub-1_v2.0"]
        );
    }

    #[test]
    fn registers_functions_by_name() {
        let receiver = Receiver::builder()
            .without_secret()
            .register(handler!(noop))
            .build()
            .expect("valid");
        assert_eq!(receiver.routes(), ["/webhooks/noop"]);
    }

    #[test]
    fn refuses_useless_configurations() {
        assert!(matches!(
            Receiver::builder().without_secret().build(),
            Err(ReceiverError::NoHandlers)
        ));
        let zero = Receiver::builder()
            .without_secret()
            .body_limit(0)
            .handler("hub", noop)
            .build();
        assert!(matches!(zero, Err(ReceiverError::ZeroBodyLimit)));
        let zero = Receiver::builder()
            .without_secret()
            .max_connections(0)
            .handler("hub", noop)
            .build();
        assert!(matches!(zero, Err(ReceiverError::ZeroMaxConnections)));
        type Setter = fn(ReceiverBuilder) -> ReceiverBuilder;
        let zeroes: [(&str, Setter); 4] = [
            ("body timeout", |builder| {
                builder.body_timeout(Duration::ZERO)
            }),
            ("handler timeout", |builder| {
                builder.handler_timeout(Duration::ZERO)
            }),
            ("header timeout", |builder| {
                builder.header_timeout(Duration::ZERO)
            }),
            ("idle timeout", |builder| {
                builder.idle_timeout(Duration::ZERO)
            }),
        ];
        for (name, zero_timeout) in zeroes {
            let built =
                zero_timeout(Receiver::builder().without_secret().handler("hub", noop)).build();
            assert!(
                matches!(built, Err(ReceiverError::ZeroTimeout { setting }) if setting == name),
                "{name}"
            );
        }
    }

    #[test]
    fn secrets_that_cannot_match_are_refused_without_being_echoed() {
        for unusable in [
            "tab\there",
            "del\u{7f}",
            " sp4ce-first",
            "sp4ce-last ",
            "caf\u{e9}",
        ] {
            let built = Receiver::builder()
                .secret(unusable)
                .handler("hub", noop)
                .build();
            let error = built.expect_err(unusable);
            assert!(
                matches!(error, ReceiverError::UnusableSecret { .. }),
                "{unusable:?}"
            );
            assert!(
                !error.to_string().contains(unusable) && !format!("{error:?}").contains(unusable)
            );
        }
        let empty = Receiver::builder().secret("").handler("hub", noop).build();
        assert!(matches!(empty, Err(ReceiverError::EmptySecret { .. })));

        let receiver = Receiver::builder()
            .secret("in the middle is fine")
            .handler("hub", noop)
            .build();
        let receiver = receiver.expect("a usable secret");
        assert!(receiver.has_secret());
        assert!(!format!("{receiver:?}").contains("middle"));
    }

    #[test]
    fn reads_the_environment_value() {
        assert!(secret_from_env(None).expect("unset is fine").is_none());
        let secret = secret_from_env(Some(OsString::from("s3cret"))).expect("usable");
        assert!(secret.expect("set").matches(b"s3cret"));
        let empty = secret_from_env(Some(OsString::new()));
        assert!(matches!(empty, Err(ReceiverError::EmptySecret { origin }) if origin == FROM_ENV));
    }
}
