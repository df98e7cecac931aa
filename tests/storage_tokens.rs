//! Storage access tokens against a stub hub: the exact request and the 401/403/404 mapping of
//! the single call, and the provider's rules with a fake clock: refresh 30 s (or the configured
//! margin) before `exp`, single flight (1,000 concurrent callers, one request, whatever the
//! token says), stale tokens as errors, backoff after failures, serving the old token through a
//! failed refresh until `exp`, write tokens serving reads, and no token crossing repositories or
//! revisions. Both take one [`Repository`], repository first, then the token type.

mod client_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use client_support::bodies::storage_token_body as token_body;
use client_support::{CLOCK_START, Counter, FakeClock, Reply, StubHub};
use hub_api::storage::{Clock, StorageTokenProvider, StorageTokenType};
use hub_api::types::RepoType;
use hub_api::{Error, Repository, StorageToken};

/// Token lifetime the stub hub grants.
const LIFETIME: Duration = Duration::from_secs(3600);

fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// A stub hub that issues `storage-token-<n>` valid for [`LIFETIME`] from the clock's now, and
/// answers 500 while `failing` is set.
async fn issuing_hub(clock: Arc<FakeClock>, failing: Arc<AtomicBool>) -> StubHub {
    let issued = Counter::default();
    StubHub::start(move |_| {
        if failing.load(Ordering::SeqCst) {
            return Reply::text(500, "storage token service unavailable");
        }
        let number = issued.next() + 1;
        let exp = unix_seconds(clock.now() + LIFETIME);
        Reply::json(200, token_body(&format!("storage-token-{number}"), exp))
    })
    .await
}

/// A provider on `clock` whose client never retries, so that hub requests count refreshes.
fn provider(hub: &StubHub, clock: &Arc<FakeClock>) -> StorageTokenProvider {
    StorageTokenProvider::builder(hub.client_without_retries())
        .clock(Arc::clone(clock) as Arc<dyn Clock>)
        .build()
}

/// The repository most tests ask for, at no particular revision (so `main`).
fn bert() -> Repository {
    Repository::model("acme/bert")
}

async fn read_token(
    provider: &StorageTokenProvider,
    repository: &Repository,
) -> hub_api::Result<StorageToken> {
    provider.token(repository, StorageTokenType::Read).await
}

fn value(token: &StorageToken) -> &str {
    token.access_token().expose()
}

#[tokio::test]
async fn the_call_sends_the_exact_path_with_the_revision_encoded() {
    let hub = StubHub::always(Reply::json(
        200,
        token_body("storage-secret", 1_795_000_000.5),
    ))
    .await;

    let repository = Repository::model("acme/bert").at_revision("refs/pr/5");
    let token = hub
        .client()
        .storage_access_token(&repository, StorageTokenType::Write)
        .await
        .expect("token");

    let request = hub.only_request();
    assert_eq!(request.method, "GET");
    assert_eq!(
        request.path,
        "/api/models/acme/bert/cas-write-token/refs%2Fpr%2F5"
    );
    assert_eq!(request.query, None);
    request.assert_authenticated();
    assert_eq!(value(&token), "storage-secret");
    assert_eq!(token.cas_url(), "https://cas.hub.example.com");
    assert_eq!(token.token_type(), StorageTokenType::Write);
    assert_eq!(
        token.expires_at(),
        UNIX_EPOCH + Duration::from_millis(1_795_000_000_500)
    );
    assert!(!format!("{token:?}").contains("storage-secret"));
}

#[tokio::test]
async fn every_repo_type_uses_its_plural_and_no_revision_is_main() {
    let hub = StubHub::always(Reply::json(200, token_body("t", 1_795_000_000))).await;
    let client = hub.client();
    for repository in [
        Repository::model("acme/data"),
        Repository::dataset("acme/data"),
        Repository::space("acme/data"),
        Repository::new(RepoType::Dataset, "acme/data").at_revision("main"),
    ] {
        client
            .storage_access_token(&repository, StorageTokenType::Read)
            .await
            .expect("token");
    }
    assert_eq!(
        hub.paths(),
        [
            "/api/models/acme/data/cas-read-token/main",
            "/api/datasets/acme/data/cas-read-token/main",
            "/api/spaces/acme/data/cas-read-token/main",
            "/api/datasets/acme/data/cas-read-token/main",
        ]
    );
}

#[tokio::test]
async fn statuses_401_403_404_have_their_own_errors_with_the_request_id() {
    let hub = StubHub::start(|request| {
        let status = if request.path.contains("/private/") {
            401
        } else if request.path.contains("cas-write-token") {
            403
        } else if request.path.contains("/missing/") {
            404
        } else {
            500
        };
        Reply::text(status, "no").header("x-request-id", format!("req-{status}"))
    })
    .await;
    let client = hub.client();
    let call = |repo_id: &'static str, token_type| {
        let client = client.clone();
        async move {
            let repository = Repository::model(repo_id).at_revision("v1");
            client
                .storage_access_token(&repository, token_type)
                .await
                .err()
        }
    };

    assert!(matches!(
        call("acme/private/", StorageTokenType::Read).await,
        Some(Error::Validation { .. })
    ));
    assert!(matches!(
        call("private/x", StorageTokenType::Read).await,
        Some(Error::Unauthorized {
            operation: "getStorageAccessToken",
            token_sent: true,
            ..
        })
    ));
    let forbidden = call("acme/bert", StorageTokenType::Write).await;
    assert!(
        matches!(&forbidden, Some(Error::Forbidden { repository, token_type: StorageTokenType::Write, .. })
            if *repository == Repository::model("acme/bert").at_revision("v1")),
        "{forbidden:?}"
    );
    let forbidden = forbidden.expect("an error");
    assert_eq!(forbidden.request_id(), Some("req-403"));
    assert!(forbidden.is_forbidden());
    assert_eq!(
        forbidden.to_string(),
        "getStorageAccessToken: the hub token lacks the access a write storage token for \
         `models/acme/bert@v1` needs (HTTP 403) (request id req-403)"
    );
    let not_found = call("missing/x", StorageTokenType::Read).await;
    assert!(
        matches!(&not_found, Some(Error::NotFound { repository, .. }) if *repository == Repository::model("missing/x").at_revision("v1")),
        "{not_found:?}"
    );
    let not_found = not_found.expect("an error");
    assert!(not_found.is_not_found());
    assert_eq!(not_found.request_id(), Some("req-404"));
    assert_eq!(
        not_found.to_string(),
        "getStorageAccessToken: repository `missing/x` or its revision `v1` not found (HTTP 404) \
         (request id req-404)"
    );
    assert!(matches!(
        call("acme/bert", StorageTokenType::Read).await,
        Some(Error::Status { status, .. }) if status.as_u16() == 500
    ));
    assert_eq!(hub.requests().len(), 4, "the invalid repo id is not sent");
}

#[tokio::test]
async fn bad_repositories_are_refused_before_sending_by_the_client_and_the_provider() {
    let hub = StubHub::always(Reply::empty(500)).await;
    let client = hub.client();
    let provider = StorageTokenProvider::new(client.clone());
    for (repository, field) in [
        (Repository::model("acme"), "repository.id"),
        (Repository::model("acme/bert/extra"), "repository.id"),
        (Repository::dataset("/bert"), "repository.id"),
        (bert().at_revision(""), "repository.revision"),
        (
            Repository::new(RepoType::Bucket, "acme/bert"),
            "repository.kind",
        ),
    ] {
        let refused = |error: Option<Error>| {
            assert!(
                matches!(&error, Some(Error::Validation { field: f, .. }) if f == field),
                "{repository}: {error:?}"
            );
        };
        refused(read_token(&provider, &repository).await.err());
        refused(
            client
                .storage_access_token(&repository, StorageTokenType::Write)
                .await
                .err(),
        );
    }
    assert!(hub.requests().is_empty());
}

#[tokio::test]
async fn the_cached_token_is_served_until_30_seconds_before_exp() {
    let clock = FakeClock::new();
    let hub = issuing_hub(Arc::clone(&clock), Arc::default()).await;
    let provider = provider(&hub, &clock);
    let start = clock.now();
    let expiry = start + LIFETIME;

    let first = read_token(&provider, &bert()).await.expect("token");
    assert_eq!(value(&first), "storage-token-1");
    assert_eq!(first.expires_at(), expiry);

    clock.set(expiry - Duration::from_secs(31));
    let cached = read_token(&provider, &bert()).await.expect("token");
    assert_eq!(value(&cached), "storage-token-1");
    assert_eq!(hub.requests().len(), 1);

    clock.set(expiry - Duration::from_secs(30));
    let refreshed = read_token(&provider, &bert()).await.expect("token");
    assert_eq!(value(&refreshed), "storage-token-2");
    assert_eq!(hub.requests().len(), 2);
    for request in hub.requests() {
        assert_eq!(request.path, "/api/models/acme/bert/cas-read-token/main");
        request.assert_authenticated();
    }
}

#[tokio::test]
async fn the_refresh_margin_is_configurable() {
    let clock = FakeClock::new();
    let hub = issuing_hub(Arc::clone(&clock), Arc::default()).await;
    let provider = StorageTokenProvider::builder(hub.client())
        .clock(Arc::clone(&clock) as Arc<dyn Clock>)
        .refresh_margin(Duration::from_secs(600))
        .build();
    let expiry = clock.now() + LIFETIME;

    read_token(&provider, &bert()).await.expect("token");
    clock.set(expiry - Duration::from_secs(601));
    read_token(&provider, &bert()).await.expect("token");
    assert_eq!(hub.requests().len(), 1);
    clock.set(expiry - Duration::from_secs(600));
    let token = read_token(&provider, &bert()).await.expect("token");
    assert_eq!(value(&token), "storage-token-2");
    assert_eq!(hub.requests().len(), 2);
}

#[tokio::test]
async fn a_failed_refresh_serves_the_old_token_until_exp_then_errors() {
    let clock = FakeClock::new();
    let failing = Arc::new(AtomicBool::new(false));
    let hub = issuing_hub(Arc::clone(&clock), Arc::clone(&failing)).await;
    let provider = provider(&hub, &clock);
    let expiry = clock.now() + LIFETIME;
    read_token(&provider, &bert()).await.expect("token");

    failing.store(true, Ordering::SeqCst);
    clock.set(expiry - Duration::from_secs(10));
    let served = read_token(&provider, &bert()).await.expect("old token");
    assert_eq!(value(&served), "storage-token-1");
    assert_eq!(hub.requests().len(), 2, "a refresh was attempted");

    // Inside the 1 s backoff: the old token, no hub call.
    clock.set(expiry - Duration::from_millis(9500));
    let served = read_token(&provider, &bert()).await.expect("old token");
    assert_eq!(value(&served), "storage-token-1");
    assert_eq!(hub.requests().len(), 2, "no refresh during the backoff");

    clock.set(expiry - Duration::from_secs(1));
    let served = read_token(&provider, &bert()).await.expect("old token");
    assert_eq!(value(&served), "storage-token-1");
    assert_eq!(hub.requests().len(), 3, "after the backoff, a new refresh");

    // Expired, and inside the second backoff (2 s): the last error, no hub call.
    clock.set(expiry);
    let error = read_token(&provider, &bert()).await.err();
    assert!(
        matches!(&error, Some(Error::Status { status, .. }) if status.as_u16() == 500),
        "{error:?}"
    );
    assert_eq!(hub.requests().len(), 3);

    failing.store(false, Ordering::SeqCst);
    clock.set(expiry + Duration::from_secs(1));
    let recovered = read_token(&provider, &bert()).await.expect("new token");
    assert_eq!(value(&recovered), "storage-token-2");
    assert_eq!(hub.requests().len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_callers_share_one_request() {
    let clock = FakeClock::new();
    let issued = Counter::default();
    // A slow hub, so that every caller arrives while the one refresh is in flight.
    let hub = StubHub::start(move |_| {
        Reply::json(
            200,
            token_body(
                &format!("storage-token-{}", issued.next() + 1),
                CLOCK_START + 3600,
            ),
        )
        .after(Duration::from_millis(200))
    })
    .await;
    let provider = provider(&hub, &clock);

    let started = Instant::now();
    let callers: Vec<_> = (0..1000)
        .map(|_| {
            let provider = provider.clone();
            tokio::spawn(async move { read_token(&provider, &bert()).await })
        })
        .collect();
    let mut values = Vec::new();
    for caller in callers {
        let token = caller.await.expect("task").expect("token");
        values.push(value(&token).to_owned());
    }
    let elapsed = started.elapsed();

    assert_eq!(hub.requests().len(), 1, "exactly one HTTP request");
    assert!(values.iter().all(|value| value == "storage-token-1"));
    eprintln!("1,000 concurrent callers served by one request in {elapsed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_callers_share_a_failed_refresh_too() {
    let clock = FakeClock::new();
    let hub = StubHub::always(Reply::text(503, "down").after(Duration::from_millis(200))).await;
    let provider = provider(&hub, &clock);

    let callers: Vec<_> = (0..100)
        .map(|_| {
            let provider = provider.clone();
            tokio::spawn(async move { read_token(&provider, &bert()).await })
        })
        .collect();
    for caller in callers {
        let error = caller.await.expect("task").err();
        assert_eq!(
            error.and_then(|error| error.status()).map(|s| s.as_u16()),
            Some(503)
        );
    }
    assert_eq!(
        hub.requests().len(),
        1,
        "the waiters take the failed outcome"
    );
}

#[tokio::test]
async fn a_cached_write_token_serves_reads_but_not_the_reverse() {
    let clock = FakeClock::new();
    let hub = issuing_hub(Arc::clone(&clock), Arc::default()).await;
    let provider = provider(&hub, &clock);

    let write = provider
        .token(&bert(), StorageTokenType::Write)
        .await
        .expect("write token");
    let read = read_token(&provider, &bert()).await.expect("read");
    assert_eq!(value(&read), value(&write));
    assert_eq!(read.token_type(), StorageTokenType::Write);
    assert_eq!(hub.requests().len(), 1);

    // A read token never serves a write request.
    let other = FakeClock::new();
    let hub = issuing_hub(Arc::clone(&other), Arc::default()).await;
    let provider = self::provider(&hub, &other);
    read_token(&provider, &bert()).await.expect("read");
    let write = provider
        .token(&bert(), StorageTokenType::Write)
        .await
        .expect("write");
    assert_eq!(value(&write), "storage-token-2");
    assert_eq!(
        hub.paths(),
        [
            "/api/models/acme/bert/cas-read-token/main",
            "/api/models/acme/bert/cas-write-token/main",
        ]
    );
}

#[tokio::test]
async fn tokens_never_cross_repos_revisions_or_repo_types() {
    let clock = FakeClock::new();
    let hub = issuing_hub(Arc::clone(&clock), Arc::default()).await;
    let provider = provider(&hub, &clock);

    let targets = [
        bert(),
        bert().at_revision("refs/pr/5"),
        Repository::model("acme/bert-large"),
        Repository::model("other/bert"),
        Repository::dataset("acme/bert"),
    ];
    let mut values = Vec::new();
    for repository in &targets {
        let token = read_token(&provider, repository).await.expect("token");
        values.push(value(&token).to_owned());
    }
    // Asking again hits the cache of each, and naming `main` is naming no revision.
    for repository in &targets {
        read_token(&provider, repository).await.expect("token");
    }
    read_token(&provider, &bert().at_revision("main"))
        .await
        .expect("token");

    assert_eq!(
        values,
        [
            "storage-token-1",
            "storage-token-2",
            "storage-token-3",
            "storage-token-4",
            "storage-token-5"
        ]
    );
    assert_eq!(
        hub.paths(),
        [
            "/api/models/acme/bert/cas-read-token/main",
            "/api/models/acme/bert/cas-read-token/refs%2Fpr%2F5",
            "/api/models/acme/bert-large/cas-read-token/main",
            "/api/models/other/bert/cas-read-token/main",
            "/api/datasets/acme/bert/cas-read-token/main",
        ]
    );
}

#[tokio::test]
async fn an_unrepresentable_exp_is_a_decode_error_with_the_request_id() {
    let hub = StubHub::always(
        Reply::json(200, token_body("storage-secret", -5)).header("x-request-id", "req-exp"),
    )
    .await;
    let error = hub
        .client()
        .storage_access_token(&bert(), StorageTokenType::Read)
        .await
        .err();
    assert!(
        matches!(&error, Some(Error::Decode { path, .. }) if path == "exp"),
        "{error:?}"
    );
    assert_eq!(
        error
            .and_then(|error| error.request_id().map(str::to_owned))
            .as_deref(),
        Some("req-exp")
    );
}

#[tokio::test]
async fn a_failed_read_refresh_falls_back_to_an_unexpired_write_token() {
    let clock = FakeClock::new();
    let failing = Arc::new(AtomicBool::new(false));
    let hub = issuing_hub(Arc::clone(&clock), Arc::clone(&failing)).await;
    let provider = provider(&hub, &clock);
    let expiry = clock.now() + LIFETIME;
    provider
        .token(&bert(), StorageTokenType::Write)
        .await
        .expect("write token");

    // Inside the margin the write token no longer serves reads directly: a read token is asked
    // for, that fails, and the still valid write token is served.
    failing.store(true, Ordering::SeqCst);
    clock.set(expiry - Duration::from_secs(5));
    let read = read_token(&provider, &bert()).await.expect("write token");
    assert_eq!(value(&read), "storage-token-1");
    assert_eq!(
        hub.requests()[1].path,
        "/api/models/acme/bert/cas-read-token/main"
    );

    clock.set(expiry);
    assert!(read_token(&provider, &bert()).await.is_err());
}

/// A hub that issues tokens with `exp` = the clock's now + `lifetime_secs` (negative: expired),
/// slowly, counting its requests.
async fn hub_issuing(clock: Arc<FakeClock>, lifetime_secs: i64) -> StubHub {
    let issued = Counter::default();
    StubHub::start(move |_| {
        let exp = unix_seconds(clock.now()) as i64 + lifetime_secs;
        let number = issued.next() + 1;
        Reply::json(200, token_body(&format!("storage-token-{number}"), exp))
            .header("x-request-id", format!("req-{number}"))
            .after(Duration::from_millis(100))
    })
    .await
}

async fn thousand_callers(provider: &StorageTokenProvider) -> Vec<hub_api::Result<StorageToken>> {
    let callers: Vec<_> = (0..1000)
        .map(|_| {
            let provider = provider.clone();
            tokio::spawn(async move { read_token(&provider, &bert()).await })
        })
        .collect();
    let mut outcomes = Vec::new();
    for caller in callers {
        outcomes.push(caller.await.expect("task"));
    }
    outcomes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_one_hub_call_and_an_error_for_every_waiter() {
    let clock = FakeClock::new();
    let hub = hub_issuing(Arc::clone(&clock), -10).await;
    let provider = provider(&hub, &clock);

    let started = Instant::now();
    let outcomes = thousand_callers(&provider).await;
    let elapsed = started.elapsed();

    assert_eq!(hub.requests().len(), 1, "one hub call for the refresh");
    for outcome in &outcomes {
        assert!(
            matches!(outcome, Err(Error::StaleStorageToken { .. })),
            "{outcome:?}"
        );
    }
    let error = outcomes[0].as_ref().err();
    assert_eq!(error.and_then(Error::request_id), Some("req-1"));
    let message = error.map(ToString::to_string).unwrap_or_default();
    assert!(message.contains("already expired"), "{message}");
    assert!(message.contains("(request id req-1)"), "{message}");
    assert!(!message.contains("storage-token-1"), "{message}");
    eprintln!("1,000 waiters for an expired token: 1 hub call, {elapsed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_inside_the_margin_is_an_error_too() {
    let clock = FakeClock::new();
    // Valid for 20 s: inside the default 30 s margin.
    let hub = hub_issuing(Arc::clone(&clock), 20).await;
    let provider = provider(&hub, &clock);

    let outcomes = thousand_callers(&provider).await;

    assert_eq!(hub.requests().len(), 1);
    for outcome in &outcomes {
        assert!(
            matches!(outcome, Err(Error::StaleStorageToken { refresh_margin, .. }) if *refresh_margin == Duration::from_secs(30)),
            "{outcome:?}"
        );
    }
    let message = outcomes[0]
        .as_ref()
        .err()
        .map(ToString::to_string)
        .unwrap_or_default();
    assert!(message.contains("expires in 20 s"), "{message}");

    // With a margin shorter than the tokens live, the same hub is fine.
    let provider = StorageTokenProvider::builder(hub.client_without_retries())
        .clock(Arc::clone(&clock) as Arc<dyn Clock>)
        .refresh_margin(Duration::from_secs(5))
        .build();
    read_token(&provider, &bert()).await.expect("fresh enough");
}

#[tokio::test]
async fn two_hundred_calls_against_a_failing_hub_make_one_hub_call() {
    let clock = FakeClock::new();
    let hub = StubHub::always(Reply::text(500, "down")).await;
    let provider = provider(&hub, &clock);

    for _ in 0..200 {
        let error = read_token(&provider, &bert()).await.err();
        assert_eq!(
            error.and_then(|error| error.status()).map(|s| s.as_u16()),
            Some(500)
        );
    }
    assert_eq!(hub.requests().len(), 1, "the backoff held");

    // The backoff doubles: 1 s, then 2 s, then 4 s.
    let start = clock.now();
    for (after_ms, expected_requests) in [
        (999, 1),
        (1000, 2),
        (2999, 2),
        (3000, 3),
        (6999, 3),
        (7000, 4),
    ] {
        clock.set(start + Duration::from_millis(after_ms));
        let _ = read_token(&provider, &bert()).await;
        assert_eq!(hub.requests().len(), expected_requests, "at {after_ms} ms");
    }
}

#[tokio::test]
async fn the_failure_backoff_is_configurable_and_a_success_resets_it() {
    let clock = FakeClock::new();
    let failing = Arc::new(AtomicBool::new(true));
    let hub = issuing_hub(Arc::clone(&clock), Arc::clone(&failing)).await;
    let provider = StorageTokenProvider::builder(hub.client_without_retries())
        .clock(Arc::clone(&clock) as Arc<dyn Clock>)
        .failure_backoff(Duration::from_secs(10), Duration::from_secs(15))
        .build();
    let start = clock.now();

    assert!(read_token(&provider, &bert()).await.is_err());
    clock.set(start + Duration::from_secs(9));
    assert!(read_token(&provider, &bert()).await.is_err());
    assert_eq!(hub.requests().len(), 1);
    clock.set(start + Duration::from_secs(10));
    assert!(read_token(&provider, &bert()).await.is_err());
    assert_eq!(hub.requests().len(), 2);
    // Capped at 15 s rather than 20.
    clock.set(start + Duration::from_secs(25));
    failing.store(false, Ordering::SeqCst);
    read_token(&provider, &bert()).await.expect("recovered");
    assert_eq!(hub.requests().len(), 3);

    // After a success the next failure waits the initial backoff again.
    failing.store(true, Ordering::SeqCst);
    let expiry = start + Duration::from_secs(25) + LIFETIME;
    clock.set(expiry + Duration::from_secs(1));
    assert!(read_token(&provider, &bert()).await.is_err());
    clock.set(expiry + Duration::from_secs(11));
    assert!(read_token(&provider, &bert()).await.is_err());
    assert_eq!(hub.requests().len(), 5);
}

#[test]
fn types_storage_token_is_the_one_storage_token() {
    use std::any::TypeId;
    // `hub_api::types` shadows the generated `accessToken` type, which stays under `generated`.
    assert_eq!(
        TypeId::of::<hub_api::types::StorageToken>(),
        TypeId::of::<StorageToken>()
    );
    assert_ne!(
        TypeId::of::<hub_api::generated::types::StorageToken>(),
        TypeId::of::<StorageToken>()
    );
}
