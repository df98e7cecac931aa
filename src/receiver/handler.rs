//! Handlers: the async functions a receiver calls with each accepted delivery, and the type
//! erasure that lets handlers of different signatures and error types share one route table.

use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::http::HeaderMap;

use crate::types::WebhookPayload;

/// What a delivery carried besides its payload: the name of the route it arrived on and its
/// HTTP headers, minus `X-Webhook-Secret` so that a handler cannot log the secret by accident.
#[derive(Clone, Debug)]
pub struct DeliveryContext {
    route: Arc<str>,
    headers: HeaderMap,
}

impl DeliveryContext {
    pub(crate) fn new(route: Arc<str>, headers: HeaderMap) -> Self {
        Self { route, headers }
    }

    /// The handler name the delivery was posted to (`<name>` in `POST /webhooks/<name>`).
    pub fn route(&self) -> &str {
        &self.route
    }

    /// The request headers, without `X-Webhook-Secret`.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }
}

/// The future of one handler call. Its error is already rendered to text: the receiver only
/// logs it, and text lets handlers with different error types live side by side.
pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'static>>;

/// A type-erased handler as the route table stores it.
pub(crate) type ErasedHandler =
    Arc<dyn Fn(WebhookPayload, DeliveryContext) -> HandlerFuture + Send + Sync + 'static>;

/// An async function that handles deliveries. Implemented for
///
/// - `async fn(WebhookPayload) -> Result<(), E>` and
/// - `async fn(WebhookPayload, DeliveryContext) -> Result<(), E>`,
///
/// and for closures of those shapes, where `E: Display`. An `Err` answers 500, so the hub
/// retries the delivery; the error is logged, never sent back. A closure needs its argument
/// types written out (`|payload: WebhookPayload| async move { ... }`), because either shape
/// could fit an unannotated one.
///
/// The trait is sealed: its method may change while the receiver is experimental.
pub trait WebhookHandler<Args>: sealed::Sealed<Args> + Send + Sync + 'static {
    #[doc(hidden)]
    fn call(&self, payload: WebhookPayload, context: DeliveryContext) -> HandlerFuture;
}

mod sealed {
    /// Keeps [`super::WebhookHandler`] implementable only here.
    pub trait Sealed<Args> {}
}

impl<F, Fut, E> sealed::Sealed<(WebhookPayload,)> for F
where
    F: Fn(WebhookPayload) -> Fut,
    Fut: Future<Output = Result<(), E>>,
{
}

impl<F, Fut, E> WebhookHandler<(WebhookPayload,)> for F
where
    F: Fn(WebhookPayload) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), E>> + Send + 'static,
    E: Display,
{
    fn call(&self, payload: WebhookPayload, _context: DeliveryContext) -> HandlerFuture {
        let outcome = self(payload);
        Box::pin(async move { outcome.await.map_err(|error| error.to_string()) })
    }
}

impl<F, Fut, E> sealed::Sealed<(WebhookPayload, DeliveryContext)> for F
where
    F: Fn(WebhookPayload, DeliveryContext) -> Fut,
    Fut: Future<Output = Result<(), E>>,
{
}

impl<F, Fut, E> WebhookHandler<(WebhookPayload, DeliveryContext)> for F
where
    F: Fn(WebhookPayload, DeliveryContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), E>> + Send + 'static,
    E: Display,
{
    fn call(&self, payload: WebhookPayload, context: DeliveryContext) -> HandlerFuture {
        let outcome = self(payload, context);
        Box::pin(async move { outcome.await.map_err(|error| error.to_string()) })
    }
}

pub(crate) fn erase<H, Args>(handler: H) -> ErasedHandler
where
    H: WebhookHandler<Args>,
    Args: 'static,
{
    Arc::new(move |payload, context| handler.call(payload, context))
}

/// Names a handler after its function: `handler!(on_push)` is `("on_push", on_push)`, for
/// [`ReceiverBuilder::register`](crate::receiver::ReceiverBuilder::register), which serves it
/// at `POST /webhooks/on_push`.
#[doc(hidden)]
#[macro_export]
macro_rules! __webhook_handler {
    ($function:ident) => {
        (::core::stringify!($function), $function)
    };
}
