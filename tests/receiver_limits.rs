//! The webhook receiver against a misbehaving hub and hostile clients, over real sockets on
//! 127.0.0.1 (issue 12): senders that dribble their request head (slowloris), idle connections
//! beyond the connection limit, kept-alive connections left idle, handlers that never finish,
//! floods of unauthenticated requests, and the receiver mounted inside a bigger axum app.
//! Timeouts are set short here to keep the suite fast; the bounds asserted are generous,
//! because the machine running the suite may be loaded.

mod receiver_support;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use hub_api::receiver::{Receiver, ReceiverBuilder};
use hub_api::types::WebhookPayload;
use receiver_support::{LogCapture, Recorder, Running, SECRET, client, payload};
use reqwest::StatusCode;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{Notify, oneshot};

fn builder(recorder: &Recorder) -> ReceiverBuilder {
    Receiver::builder()
        .secret(SECRET)
        .handler("hub", recorder.handler())
}

/// One delivery on a connection of its own; its status and how long the answer took.
async fn deliver_once(url: &str) -> (StatusCode, Duration) {
    let http = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(20))
        .build()
        .expect("an HTTP client");
    let started = Instant::now();
    let response = http
        .post(url)
        .header("X-Webhook-Secret", SECRET)
        .header("Content-Type", "application/json")
        .body(payload("repo", "update", "model", "acme/x").to_string())
        .send()
        .await
        .expect("an answer");
    (response.status(), started.elapsed())
}

/// Waits until the server closes `stream` (a read sees the end, or a reset), at most `limit`;
/// returns how long that took, or `None` if it stayed open.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0_u8; 1024];
    loop {
        let remaining = limit.checked_sub(started.elapsed())?;
        match tokio::time::timeout(remaining, stream.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            // Whatever the server answered (hyper may say 408), keep reading until it closes.
            Ok(Ok(_)) => {}
        }
    }
}

/// A slowloris sender: one byte of an endless request head every `pace`, until the server
/// closes the connection or `give_up` has passed. Returns how long the connection stayed open.
async fn dribble_head(address: SocketAddr, pace: Duration, give_up: Duration) -> Option<Duration> {
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let head = format!(
        "POST /webhooks/hub HTTP/1.1\r\nHost: test\r\nX-Webhook-Secret: {SECRET}\r\nX-Padding: {}",
        "a".repeat(10_000)
    );
    let started = Instant::now();
    for byte in head.bytes() {
        if started.elapsed() > give_up {
            return None;
        }
        if stream.write_all(&[byte]).await.is_err() {
            return Some(started.elapsed());
        }
        if closed_within(&mut stream, pace).await.is_some() {
            return Some(started.elapsed());
        }
    }
    None
}

/// What a slowloris attack did: how long each of the 50 slow senders stayed connected (`None`:
/// still connected at the end), and the latency of each delivery sent meanwhile, sorted.
struct AttackOutcome {
    held: Vec<Option<Duration>>,
    latencies: Vec<Duration>,
}

/// 50 slow senders dribbling a head byte every `pace` for `duration`, while a delivery is sent
/// every 20 ms on a connection of its own (as a hub without a pool would); every
/// delivery must be answered 200.
async fn slowloris_attack(running: &Running, pace: Duration, duration: Duration) -> AttackOutcome {
    let address = running.address;
    let attackers: Vec<_> = (0..50)
        .map(|_| tokio::spawn(dribble_head(address, pace, duration)))
        .collect();
    let url = running.url("/webhooks/hub");
    let mut latencies = Vec::new();
    let started = Instant::now();
    while started.elapsed() < duration {
        let (status, took) = deliver_once(&url).await;
        assert_eq!(status, StatusCode::OK);
        latencies.push(took);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut held = Vec::new();
    for attacker in attackers {
        held.push(attacker.await.expect("the attacker task"));
    }
    latencies.sort();
    AttackOutcome { held, latencies }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_head_senders_are_cut_off_while_deliveries_keep_flowing() {
    let recorder = Recorder::default();
    let header_timeout = Duration::from_millis(800);
    let receiver = builder(&recorder)
        .header_timeout(header_timeout)
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;
    let AttackOutcome { held, latencies } =
        slowloris_attack(&running, Duration::from_millis(100), header_timeout * 3).await;
    running.stop().await;

    let still_open = held.iter().filter(|held| held.is_none()).count();
    assert_eq!(still_open, 0, "every slow sender is cut off: {held:?}");
    for held in held.into_iter().flatten() {
        // Cut off by the header timeout, not refused: a slow but legitimate client gets its time.
        assert!(
            held >= header_timeout / 2 && held < header_timeout * 8,
            "held for {held:?} with a {header_timeout:?} header timeout"
        );
    }
    let slowest = latencies.last().copied().unwrap_or_default();
    println!(
        "{} deliveries during the attack, median {:?}, slowest {slowest:?}",
        latencies.len(),
        latencies[latencies.len() / 2]
    );
    assert!(latencies.len() >= 5, "deliveries kept flowing");
    assert!(
        slowest < Duration::from_secs(5),
        "no delivery waited on the attack"
    );
    assert_eq!(recorder.count(), latencies.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_beyond_the_limit_are_shed_for_deliveries() {
    let recorder = Recorder::default();
    let max_connections = 8;
    // Long timeouts: only shedding can make room here.
    let receiver = builder(&recorder)
        .max_connections(max_connections)
        .header_timeout(Duration::from_secs(60))
        .idle_timeout(Duration::from_secs(60))
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;

    let mut idle = Vec::new();
    for _ in 0..30 {
        idle.push(TcpStream::connect(running.address).await.expect("connect"));
    }
    let url = running.url("/webhooks/hub");
    for _ in 0..20 {
        let (status, took) = deliver_once(&url).await;
        assert_eq!(status, StatusCode::OK);
        assert!(took < Duration::from_secs(5), "a delivery took {took:?}");
    }
    let mut still_open = 0;
    for stream in &mut idle {
        if closed_within(stream, Duration::from_millis(200))
            .await
            .is_none()
        {
            still_open += 1;
        }
    }
    running.stop().await;

    assert_eq!(recorder.count(), 20);
    assert!(
        still_open < max_connections,
        "{still_open} idle connections still open with a limit of {max_connections}"
    );
}

/// A handler that signals when it starts and finishes only when released.
fn gated(
    started: Arc<Notify>,
    release: Arc<Notify>,
) -> impl Fn(WebhookPayload) -> std::pin::Pin<Box<dyn Future<Output = Result<(), Infallible>> + Send>>
+ Send
+ Sync
+ 'static {
    move |_payload| {
        let (started, release) = (Arc::clone(&started), Arc::clone(&release));
        Box::pin(async move {
            started.notify_one();
            release.notified().await;
            Ok(())
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_connections_are_never_shed_and_a_newcomer_waits_for_a_slot() {
    let (started, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let receiver = Receiver::builder()
        .secret(SECRET)
        .max_connections(2)
        .handler("hub", gated(Arc::clone(&started), Arc::clone(&release)))
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;
    let url = running.url("/webhooks/hub");

    let first = tokio::spawn({
        let url = url.clone();
        async move { deliver_once(&url).await }
    });
    started.notified().await;
    let second = tokio::spawn({
        let url = url.clone();
        async move { deliver_once(&url).await }
    });
    started.notified().await;
    // Both slots answer a delivery: a third connection waits rather than shedding one.
    let third = tokio::spawn(async move { deliver_once(&url).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!third.is_finished(), "the third delivery waits for a slot");
    assert!(!first.is_finished() && !second.is_finished());

    release.notify_one();
    release.notify_one();
    for delivery in [first, second] {
        let (status, _) = delivery.await.expect("the delivery task");
        assert_eq!(status, StatusCode::OK, "a busy connection is never cut off");
    }
    // The third one is served once a slot is free.
    started.notified().await;
    release.notify_one();
    let (status, _) = tokio::time::timeout(Duration::from_secs(10), third)
        .await
        .expect("served once a slot was free")
        .expect("the delivery task");
    assert_eq!(status, StatusCode::OK);
    running.stop().await;
}

/// Sends one delivery on `stream`, keeping the connection alive, and returns the status.
async fn keep_alive_delivery(stream: &mut TcpStream) -> u16 {
    let body = payload("repo", "update", "model", "acme/x").to_string();
    let request = format!(
        "POST /webhooks/hub HTTP/1.1\r\nHost: test\r\nX-Webhook-Secret: {SECRET}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .expect("send the request");
    let mut answer = Vec::new();
    let mut buffer = [0_u8; 1024];
    // The answer is small; its head and body end with the body `{"status":"delivered"}`.
    while !answer.ends_with(b"}") {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer))
            .await
            .expect("an answer within 10 s")
            .expect("read the answer");
        assert!(read > 0, "the connection closed before answering");
        answer.extend_from_slice(&buffer[..read]);
    }
    let answer = String::from_utf8_lossy(&answer);
    answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {answer:?}"))
}

#[tokio::test]
async fn a_kept_alive_connection_is_closed_after_the_idle_timeout() {
    let recorder = Recorder::default();
    let idle_timeout = Duration::from_millis(500);
    let receiver = builder(&recorder)
        .idle_timeout(idle_timeout)
        .header_timeout(Duration::from_secs(30))
        .build()
        .expect("a valid receiver");
    let running = Running::start(receiver).await;

    let mut stream = TcpStream::connect(running.address).await.expect("connect");
    // Within the idle timeout the connection is reused.
    assert_eq!(keep_alive_delivery(&mut stream).await, 200);
    tokio::time::sleep(idle_timeout / 4).await;
    assert_eq!(keep_alive_delivery(&mut stream).await, 200);
    // Then left idle, it is closed: after the idle timeout, well before the header timeout.
    let closed = closed_within(&mut stream, Duration::from_secs(10)).await;
    let closed = closed.expect("the idle connection is closed");
    assert!(
        closed >= idle_timeout / 2 && closed < Duration::from_secs(8),
        "closed after {closed:?}"
    );
    running.stop().await;
    assert_eq!(recorder.count(), 2);
}

/// Counts the handler futures dropped before they finished.
struct CancelledOnDrop(Arc<AtomicUsize>);

impl Drop for CancelledOnDrop {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn stuck_receiver(handler_timeout: Duration, cancelled: &Arc<AtomicUsize>) -> Receiver {
    let cancelled = Arc::clone(cancelled);
    Receiver::builder()
        .secret(SECRET)
        .handler_timeout(handler_timeout)
        .handler("stuck", move |_: WebhookPayload| {
            let guard = CancelledOnDrop(Arc::clone(&cancelled));
            async move {
                std::future::pending::<()>().await;
                drop(guard);
                Ok::<(), Infallible>(())
            }
        })
        .build()
        .expect("a valid receiver")
}

#[tokio::test]
async fn a_stuck_handler_is_cancelled_and_answered_503() {
    let cancelled = Arc::new(AtomicUsize::new(0));
    let handler_timeout = Duration::from_millis(300);
    let running = Running::start(stuck_receiver(handler_timeout, &cancelled)).await;

    let started = Instant::now();
    let request = client()
        .post(running.url("/webhooks/stuck"))
        .header("X-Webhook-Secret", SECRET)
        .header("Content-Type", "application/json")
        .body(payload("repo", "update", "model", "acme/x").to_string())
        .send();
    let response = tokio::time::timeout(Duration::from_secs(20), request)
        .await
        .expect("answered before the test gives up")
        .expect("an answer");
    let took = started.elapsed();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.expect("a JSON body");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|error| error.contains("retried")),
        "{body}"
    );
    assert!(
        took >= handler_timeout && took < Duration::from_secs(5),
        "answered after {took:?}"
    );
    assert_eq!(
        cancelled.load(Ordering::SeqCst),
        1,
        "the handler was cancelled"
    );
    // Nothing is left running for the shutdown to wait on.
    running.stop().await;
}

#[tokio::test]
async fn a_stuck_handler_whose_caller_hung_up_does_not_hold_shutdown() {
    let cancelled = Arc::new(AtomicUsize::new(0));
    let running = Running::start(stuck_receiver(Duration::from_millis(500), &cancelled)).await;

    let caller = tokio::spawn(
        client()
            .post(running.url("/webhooks/stuck"))
            .header("X-Webhook-Secret", SECRET)
            .header("Content-Type", "application/json")
            .body(payload("repo", "update", "model", "acme/x").to_string())
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    caller.abort();
    let _ = caller.await;
    let started = Instant::now();
    running.stop().await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        cancelled.load(Ordering::SeqCst),
        1,
        "the handler was cancelled"
    );
}

/// The figure: 7,000 unauthenticated requests.
const UNAUTHENTICATED: usize = 7_000;

#[tokio::test]
async fn unauthenticated_requests_are_warned_about_once_and_counted() {
    let logs = LogCapture::default();
    let _capture = logs.install();
    let recorder = Recorder::default();
    let running = Running::start(builder(&recorder).build().expect("a valid receiver")).await;
    let near_miss = "t3st-s3cret with spaces insidE";

    let http = client();
    let url = running.url("/webhooks/hub");
    let body = payload("repo", "update", "model", "acme/x").to_string();
    for index in 0..UNAUTHENTICATED {
        let mut request = http
            .post(&url)
            .header("Content-Type", "application/json")
            .body(body.clone());
        let expected = if index % 2 == 0 {
            request = request.header("X-Webhook-Secret", near_miss);
            StatusCode::FORBIDDEN
        } else {
            StatusCode::UNAUTHORIZED
        };
        let response = request.send().await.expect("an answer");
        assert_eq!(response.status(), expected);
    }
    let warnings_during = warnings(&logs.text());
    running.stop().await;
    let log = logs.text();
    let warnings_after = warnings(&log);

    assert_eq!(recorder.count(), 0);
    assert_eq!(warnings_during.len(), 1, "{warnings_during:#?}");
    assert!(warnings_during[0].contains("wrong x-webhook-secret header"));
    // The rest are summed up when the receiver stops.
    assert_eq!(warnings_after.len(), 2, "{warnings_after:#?}");
    assert!(
        warnings_after[1].contains(&format!("{} more unauthenticated", UNAUTHENTICATED - 1)),
        "{}",
        warnings_after[1]
    );
    let warned_bytes: usize = warnings_after.iter().map(|line| line.len()).sum();
    println!("{UNAUTHENTICATED} unauthenticated requests: {warned_bytes} bytes of warnings");
    assert!(warned_bytes < 1_000);
    assert!(!log.contains(near_miss) && !log.contains(SECRET));
}

fn warnings(log: &str) -> Vec<String> {
    log.lines()
        .filter(|line| line.contains("WARN"))
        .map(str::to_owned)
        .collect()
}

/// A bigger app with its own routes, the receiver nested under `/hooks`, served by plain
/// `axum::serve` on 127.0.0.1 until the returned sender fires.
async fn host_app(
    app: Router,
) -> (
    SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let address = listener.local_addr().expect("bound address");
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await
    });
    (address, stop, server)
}

#[tokio::test]
async fn the_router_mounts_in_a_bigger_app_with_the_same_checks() {
    let recorder = Recorder::default();
    let cancelled = Arc::new(AtomicUsize::new(0));
    let guard_count = Arc::clone(&cancelled);
    let receiver = Receiver::builder()
        .secret(SECRET)
        .body_limit(4096)
        .handler_timeout(Duration::from_millis(300))
        .handler("hub", recorder.handler())
        .handler("stuck", move |_: WebhookPayload| {
            let guard = CancelledOnDrop(Arc::clone(&guard_count));
            async move {
                std::future::pending::<()>().await;
                drop(guard);
                Ok::<(), Infallible>(())
            }
        })
        .build()
        .expect("a valid receiver");
    let handlers = receiver.handler_calls();
    let app = Router::new()
        .route("/", get(|| async { "the host's own index" }))
        .route("/health", get(|| async { "ok" }))
        .nest("/hooks", receiver.into_router());
    let (address, stop, server) = host_app(app).await;
    let url = |path: &str| format!("http://{address}{path}");
    let http = client();
    let post = |path: &str, secret: Option<&str>, body: String| {
        let mut request = http
            .post(url(path))
            .header("Content-Type", "application/json")
            .body(body);
        if let Some(secret) = secret {
            request = request.header("X-Webhook-Secret", secret);
        }
        request.send()
    };
    let delivery = payload("repo", "update", "model", "acme/x").to_string();

    // The host's own routes are untouched.
    let index = http.get(url("/")).send().await.expect("an answer");
    assert_eq!(index.text().await.expect("a body"), "the host's own index");
    let health = http.get(url("/health")).send().await.expect("an answer");
    assert_eq!(health.status(), StatusCode::OK);

    let status = |response: reqwest::Response| response.status();
    let delivered = post("/hooks/webhooks/hub", Some(SECRET), delivery.clone()).await;
    assert_eq!(delivered.map(status).ok(), Some(StatusCode::OK));
    let missing = post("/hooks/webhooks/hub", None, delivery.clone()).await;
    assert_eq!(missing.map(status).ok(), Some(StatusCode::UNAUTHORIZED));
    let wrong = post("/hooks/webhooks/hub", Some("nope"), delivery.clone()).await;
    assert_eq!(wrong.map(status).ok(), Some(StatusCode::FORBIDDEN));
    let oversized = post("/hooks/webhooks/hub", Some(SECRET), "x".repeat(5000)).await;
    assert_eq!(
        oversized.map(status).ok(),
        Some(StatusCode::PAYLOAD_TOO_LARGE)
    );
    let malformed = post("/hooks/webhooks/hub", Some(SECRET), "{".to_owned()).await;
    assert_eq!(malformed.map(status).ok(), Some(StatusCode::BAD_REQUEST));
    let stuck = tokio::time::timeout(
        Duration::from_secs(20),
        post("/hooks/webhooks/stuck", Some(SECRET), delivery.clone()),
    )
    .await
    .expect("answered before the test gives up");
    assert_eq!(
        stuck.map(status).ok(),
        Some(StatusCode::SERVICE_UNAVAILABLE)
    );
    let get_delivery = http
        .get(url("/hooks/webhooks/hub"))
        .send()
        .await
        .expect("an answer");
    assert_eq!(get_delivery.status(), StatusCode::METHOD_NOT_ALLOWED);

    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the host stops")
        .expect("no panic")
        .expect("no I/O error");
    tokio::time::timeout(Duration::from_secs(10), handlers.finished())
        .await
        .expect("no handler call left running");
    assert_eq!(handlers.running(), 0);
    assert_eq!(recorder.count(), 1);
    assert_eq!(cancelled.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_router_merges_at_the_root_and_the_host_waits_for_orphaned_handlers() {
    let (started, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let receiver = Receiver::builder()
        .secret(SECRET)
        .handler("slow", gated(Arc::clone(&started), Arc::clone(&release)))
        .build()
        .expect("a valid receiver");
    let handlers = receiver.handler_calls();
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .merge(receiver.into_router());
    let (address, stop, server) = host_app(app).await;

    let caller = tokio::spawn(
        client()
            .post(format!("http://{address}/webhooks/slow"))
            .header("X-Webhook-Secret", SECRET)
            .header("Content-Type", "application/json")
            .body(payload("repo", "update", "model", "acme/x").to_string())
            .send(),
    );
    started.notified().await;
    assert_eq!(handlers.running(), 1);
    // The hub gives up; the host stops; the handler is still running and must be waited for.
    caller.abort();
    let _ = caller.await;
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the host stops")
        .expect("no panic")
        .expect("no I/O error");
    let finished = tokio::spawn({
        let handlers = handlers.clone();
        async move { handlers.finished().await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!finished.is_finished(), "the handler is still running");
    release.notify_one();
    tokio::time::timeout(Duration::from_secs(10), finished)
        .await
        .expect("finished once the handler is done")
        .expect("the waiting task");
}

/// The figure with the defaults: 50 senders dribbling one byte a second for 60 s.
/// Run with `cargo test --test receiver_limits -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "takes a minute; run by hand for the figure"]
async fn fifty_slowloris_senders_for_sixty_seconds_with_the_defaults() {
    let recorder = Recorder::default();
    let running = Running::start(builder(&recorder).build().expect("a valid receiver")).await;
    let AttackOutcome { held, latencies } =
        slowloris_attack(&running, Duration::from_secs(1), Duration::from_secs(60)).await;
    running.stop().await;
    let still_open = held.iter().filter(|held| held.is_none()).count();
    let longest = held.iter().flatten().max().copied().unwrap_or_default();
    println!(
        "after 60 s: {still_open} of 50 slow senders still connected (longest held {longest:?}); \
         {} deliveries served meanwhile, median {:?}, p99 {:?}, slowest {:?}",
        latencies.len(),
        latencies[latencies.len() / 2],
        latencies[latencies.len() * 99 / 100],
        latencies[latencies.len() - 1]
    );
    assert_eq!(still_open, 0);
}
