//! `token_single_flight`: how many HTTP requests reach the hub when 1,000 tasks ask the
//! storage-token provider at once for a token whose cached copy has expired. The provider's
//! clock is a fake one moved by the benchmark, so "expired" needs no waiting; the stub hub
//! counts requests and takes a little time to answer, as a real one does, so that every task
//! asks while the refresh is in flight.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, ensure};
use axum::Router;
use axum::http::header::CONTENT_TYPE;
use hub_api::Repository;
use hub_api::storage::{Clock, StorageTokenProvider, StorageTokenType};
use tokio::sync::Barrier;

use crate::measure::{Bound, Figure};
use crate::server::LocalServer;

/// Tasks asking at once.
pub const TASKS: usize = 1_000;
/// How long the stub hub takes to issue a token.
const HUB_LATENCY: Duration = Duration::from_millis(20);
/// Tokens live this long; the clock jumps twice as far between rounds, so each round starts
/// with an expired token.
const LIFETIME_SECS: u64 = 3_600;
/// 2026-11-22T00:00:00Z, a plausible "now".
const START_SECS: u64 = 1_795_305_600;

/// A clock the benchmark moves by hand, shared with the stub hub so that issued tokens are
/// valid relative to it.
struct FakeClock(AtomicU64);

impl FakeClock {
    fn seconds(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }

    fn advance(&self, seconds: u64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

impl Clock for FakeClock {
    fn now(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(self.seconds())
    }
}

/// Runs `rounds` rounds of [`TASKS`] concurrent requests for an expired token; the figure is
/// the largest number of hub requests one round caused.
pub fn token_single_flight(rounds: usize) -> Result<Figure> {
    let clock = Arc::new(FakeClock(AtomicU64::new(START_SECS)));
    let requests = Arc::new(AtomicUsize::new(0));
    let server = {
        let clock = Arc::clone(&clock);
        let requests = Arc::clone(&requests);
        LocalServer::start("storage-tokens", move |listener, shutdown| async move {
            let router = Router::new().fallback(move || {
                let number = requests.fetch_add(1, Ordering::SeqCst) + 1;
                let exp = clock.seconds() + LIFETIME_SECS;
                async move {
                    tokio::time::sleep(HUB_LATENCY).await;
                    let body = serde_json::json!({
                        "accessToken": format!("storage-token-{number}"),
                        "exp": exp,
                        "casUrl": "https://cas.hub.example.com",
                    });
                    ([(CONTENT_TYPE, "application/json")], body.to_string())
                }
            });
            axum::serve(listener, router)
                .with_graceful_shutdown(shutdown)
                .await
        })?
    };
    let client = hub_api::Client::builder(server.url(""))
        .token("hub_bench_token_0123456789")
        .build()
        .context("building hub_api::Client")?;
    let provider = StorageTokenProvider::builder(client)
        .clock(Arc::clone(&clock) as Arc<dyn Clock>)
        .build();

    // Several threads, so the tasks really race for the provider's locks.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut per_round = Vec::with_capacity(rounds);
    runtime.block_on(async {
        // Setup: a cached token, which each round then lets expire.
        ask(&provider).await?;
        for _ in 0..rounds {
            clock.advance(2 * LIFETIME_SECS);
            let before = requests.load(Ordering::SeqCst);
            let barrier = Arc::new(Barrier::new(TASKS));
            let tasks: Vec<_> = (0..TASKS)
                .map(|_| {
                    let provider = provider.clone();
                    let barrier = Arc::clone(&barrier);
                    tokio::spawn(async move {
                        barrier.wait().await;
                        ask(&provider).await
                    })
                })
                .collect();
            let mut tokens = Vec::with_capacity(TASKS);
            for task in tasks {
                tokens.push(task.await.context("a task panicked")??);
            }
            let made = requests.load(Ordering::SeqCst) - before;
            // Every task must have got the one fresh token, not merely some token.
            ensure!(
                tokens.iter().all(|token| token == &tokens[0]),
                "tasks of one round got different tokens"
            );
            per_round.push(made);
        }
        anyhow::Ok(())
    })?;
    drop(runtime);
    server.stop()?;

    let worst = per_round.iter().copied().max().unwrap_or(0);
    let best = per_round.iter().copied().min().unwrap_or(0);
    Ok(Figure {
        name: "token_single_flight",
        value: worst as f64,
        ours: format!("requests per round: max {worst}, min {best}"),
        baseline: format!("{rounds} rounds of {TASKS} tasks"),
        bound: Bound::Exactly(1.0),
    })
}

/// One task's request; the token's value is returned so rounds can check they all agree.
async fn ask(provider: &StorageTokenProvider) -> Result<String> {
    let token = provider
        .token(&Repository::model("acme/bert-tiny"), StorageTokenType::Read)
        .await?;
    Ok(token.access_token().expose().to_owned())
}
