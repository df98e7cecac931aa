//! `client_vs_reqwest` and `receiver_vs_axum`: the HTTP sides of the crate against what a user
//! would write by hand, over real connections to 127.0.0.1.

use std::convert::Infallible;
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use axum::Router;
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::routing::{get, post};
use futures_util::{StreamExt, TryStreamExt, stream};
use hub_api::notifications::NotificationFilter;
use hub_api::receiver::{Receiver, SECRET_HEADER};
use hub_api::types::{NotificationList, WebhookPayload};
use tokio::runtime::Runtime;

use crate::fixtures;
use crate::measure::{Bound, Comparison, Side, chunked_pair};
use crate::server::{LocalServer, client_runtime};

/// Sequential `listNotifications` calls per repetition.
pub const CALLS: usize = 2_000;
/// Notifications per page: a full page of the hub's notification list.
pub const PAGE_SIZE: usize = 50;
/// Deliveries per repetition, and how many are in flight at once.
pub const DELIVERIES: usize = 5_000;
pub const CONCURRENCY: usize = 32;
/// A repetition's calls or deliveries are made in this many chunks, alternating between the
/// sides; a repetition lasts about a second, long enough for the load of a shared machine to
/// change within it.
pub const CHUNKS: usize = 10;

const HUB_TOKEN: &str = "hub_bench_token_0123456789";
const WEBHOOK_SECRET: &str = "bench webhook secret";

/// A stub hub that answers `GET /api/notifications` with one fixed page.
fn notifications_server(page: Bytes) -> Result<LocalServer> {
    LocalServer::start("hub", move |listener, shutdown| async move {
        let router = Router::new().route(
            "/api/notifications",
            get(move || {
                let page = page.clone();
                async move { ([(CONTENT_TYPE, "application/json")], page) }
            }),
        );
        axum::serve(listener, router)
            .with_graceful_shutdown(shutdown)
            .await
    })
}

pub struct ClientVsReqwest {
    runtime: Runtime,
    client: hub_api::Client,
    bare: reqwest::Client,
    url: String,
    /// Kept for its `Drop`, which stops it; last, so that happens after the clients are gone.
    _server: LocalServer,
}

impl ClientVsReqwest {
    pub fn new() -> Result<Self> {
        let page = Bytes::from(fixtures::notification_list(PAGE_SIZE, 0xC0FFEE));
        println!(
            "# client_vs_reqwest: {CALLS} sequential calls, a {PAGE_SIZE}-notification page of {} bytes",
            page.len()
        );
        let server = notifications_server(page)?;
        let client = hub_api::Client::builder(server.url(""))
            .token(HUB_TOKEN)
            .build()
            .context("building hub_api::Client")?;
        // Defaults, as a user calling the hub by hand would write it: no timeouts, which the
        // hub client sets (they cost a timer per call, part of what the figure measures).
        let bare = reqwest::Client::builder()
            .build()
            .context("building reqwest::Client")?;
        let url = server.url("/api/notifications?p=0");
        let figure = Self {
            runtime: client_runtime()?,
            client,
            bare,
            url,
            _server: server,
        };
        // Setup check: both sides get the same, complete page.
        figure.runtime.block_on(async {
            let ours = figure.ours_call().await?;
            let bare = figure.bare_call().await?;
            ensure!(ours == bare && ours.notifications.len() == PAGE_SIZE);
            Ok(())
        })?;
        Ok(figure)
    }

    async fn ours_call(&self) -> Result<NotificationList> {
        Ok(self
            .client
            .list_notifications(&NotificationFilter::default(), 0)
            .await?
            .into_value())
    }

    /// What a user without this crate would write: the same request, decoded into the same type.
    async fn bare_call(&self) -> Result<NotificationList> {
        Ok(self
            .bare
            .get(&self.url)
            .bearer_auth(HUB_TOKEN)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }
}

impl Comparison for ClientVsReqwest {
    fn labels(&self) -> [&'static str; 2] {
        ["hub_api::Client", "reqwest"]
    }

    fn bound(&self) -> Bound {
        Bound::AtMost(1.10)
    }

    fn sample(&mut self, side: Side) -> Result<Duration> {
        self.calls(side, CALLS)
    }

    fn pair(&mut self) -> Result<(Duration, Duration)> {
        chunked_pair(CHUNKS, |side| self.calls(side, CALLS / CHUNKS))
    }
}

impl ClientVsReqwest {
    fn calls(&self, side: Side, calls: usize) -> Result<Duration> {
        self.runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..calls {
                let list = match side {
                    Side::Ours => self.ours_call().await?,
                    Side::Baseline => self.bare_call().await?,
                };
                black_box(list);
            }
            Ok(started.elapsed())
        })
    }
}

pub struct ReceiverVsAxum {
    runtime: Runtime,
    /// One keep-alive HTTP/1.1 pool for both servers.
    client: reqwest::Client,
    payload: Bytes,
    /// Deliveries the receiver's handler has seen: proves each one went all the way through.
    handled: Arc<AtomicUsize>,
    receiver: LocalServer,
    bare: LocalServer,
}

impl ReceiverVsAxum {
    pub fn new() -> Result<Self> {
        let handled = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&handled);
        let receiver = Receiver::builder()
            .secret(WEBHOOK_SECRET)
            .handler("bench", move |payload: WebhookPayload| {
                let counter = Arc::clone(&counter);
                async move {
                    black_box(payload);
                    counter.fetch_add(1, Ordering::Relaxed);
                    Ok::<(), Infallible>(())
                }
            })
            .build()
            .context("building the receiver")?;
        let receiver = LocalServer::start("receiver", move |listener, shutdown| {
            receiver.serve(listener, shutdown)
        })?;
        let bare = LocalServer::start("axum", move |listener, shutdown| async move {
            // Reads the body (as any endpoint must for the connection to be reused) and says 200.
            let router = Router::new().route(
                "/webhooks/bench",
                post(|body: Bytes| async move {
                    black_box(body);
                    StatusCode::OK
                }),
            );
            axum::serve(listener, router)
                .with_graceful_shutdown(shutdown)
                .await
        })?;
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(CONCURRENCY)
            .build()
            .context("building reqwest::Client")?;
        let payload = Bytes::from(fixtures::webhook_payload());
        println!(
            "# receiver_vs_axum: {DELIVERIES} deliveries of {} bytes, {CONCURRENCY} at a time",
            payload.len()
        );
        let figure = Self {
            runtime: client_runtime()?,
            client,
            payload,
            handled,
            receiver,
            bare,
        };
        // Setup check: the receiver really checks the secret, and both accept the delivery.
        figure.runtime.block_on(async {
            let url = figure.receiver.url("/webhooks/bench");
            let without_secret = figure
                .client
                .post(&url)
                .header(CONTENT_TYPE, "application/json")
                .body(figure.payload.clone())
                .send()
                .await?;
            ensure!(without_secret.status() == StatusCode::UNAUTHORIZED);
            figure.deliver(&url).await?;
            figure.deliver(&figure.bare.url("/webhooks/bench")).await
        })?;
        Ok(figure)
    }

    async fn deliver(&self, url: &str) -> Result<()> {
        let response = self
            .client
            .post(url)
            .header(SECRET_HEADER, WEBHOOK_SECRET)
            .header(CONTENT_TYPE, "application/json")
            .body(self.payload.clone())
            .send()
            .await?;
        ensure!(
            response.status() == StatusCode::OK,
            "delivery answered {}",
            response.status()
        );
        // Read to the end so the connection goes back to the pool.
        black_box(response.bytes().await?);
        Ok(())
    }
}

impl Comparison for ReceiverVsAxum {
    fn labels(&self) -> [&'static str; 2] {
        ["receiver", "axum"]
    }

    fn bound(&self) -> Bound {
        Bound::AtMost(1.25)
    }

    fn sample(&mut self, side: Side) -> Result<Duration> {
        self.deliveries(side, DELIVERIES)
    }

    fn pair(&mut self) -> Result<(Duration, Duration)> {
        chunked_pair(CHUNKS, |side| self.deliveries(side, DELIVERIES / CHUNKS))
    }
}

impl ReceiverVsAxum {
    /// Sends `count` deliveries to `side`'s server, [`CONCURRENCY`] at a time.
    fn deliveries(&self, side: Side, count: usize) -> Result<Duration> {
        let url = match side {
            Side::Ours => self.receiver.url("/webhooks/bench"),
            Side::Baseline => self.bare.url("/webhooks/bench"),
        };
        let handled_before = self.handled.load(Ordering::Relaxed);
        let elapsed = self.runtime.block_on(async {
            let started = Instant::now();
            stream::iter(0..count)
                .map(|_| self.deliver(&url))
                .buffer_unordered(CONCURRENCY)
                .try_for_each(|()| async { Ok(()) })
                .await?;
            anyhow::Ok(started.elapsed())
        })?;
        if side == Side::Ours {
            let handled = self.handled.load(Ordering::Relaxed) - handled_before;
            ensure!(
                handled == count,
                "the handler saw {handled} of {count} deliveries"
            );
        }
        Ok(elapsed)
    }
}
