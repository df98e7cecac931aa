//! The `webhook_receiver` example, compiled into this test as a module: its printer keeps the
//! server answering when its output is not drained (issue 12), it prints every accepted
//! delivery once its line is written, and its command line answers `--help`.

#[allow(dead_code)] // `main` and the signal handling are the example's, not the test's.
#[path = "../examples/webhook_receiver.rs"]
mod example;

mod receiver_support;

use std::time::{Duration, Instant};

use hub_api::receiver::Receiver;
use receiver_support::{Running, SECRET, client, payload};
use reqwest::StatusCode;
use tokio::io::AsyncReadExt;

async fn deliver(running: &Running, secret: &str, index: usize) -> StatusCode {
    client()
        .post(running.url("/webhooks/hub"))
        .header("X-Webhook-Secret", secret)
        .header("Content-Type", "application/json")
        .body(payload("repo", "update", "model", &format!("acme/repo-{index}")).to_string())
        .send()
        .await
        .expect("an answer")
        .status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undrained_output_gets_deliveries_refused_but_never_stops_the_server() {
    // The output is a pipe of 1 KiB that nobody reads, like a stdout nobody drains.
    let (output, _never_read) = tokio::io::duplex(1024);
    let (printer, _writer) = example::Printer::start(output);
    let receiver =
        example::receiver(Receiver::builder().secret(SECRET), printer).expect("a valid receiver");
    let running = Running::start(receiver).await;

    // More deliveries than the pipe and the queue can take, sent 32 at a time.
    let deliveries = 200;
    let mut statuses = Vec::new();
    let started = Instant::now();
    for batch in (0..deliveries).collect::<Vec<_>>().chunks(32) {
        let sent: Vec<_> = batch
            .iter()
            .map(|&index| {
                let url = running.url("/webhooks/hub");
                tokio::spawn(async move {
                    let response = client()
                        .post(url)
                        .header("X-Webhook-Secret", SECRET)
                        .header("Content-Type", "application/json")
                        .body(
                            payload("repo", "update", "model", &format!("acme/repo-{index}"))
                                .to_string(),
                        )
                        .send()
                        .await
                        .expect("an answer");
                    response.status()
                })
            })
            .collect();
        for delivery in sent {
            statuses.push(delivery.await.expect("the delivery task"));
        }
    }
    let took = started.elapsed();
    let delivered = statuses
        .iter()
        .filter(|status| **status == StatusCode::OK)
        .count();
    let refused = statuses
        .iter()
        .filter(|status| **status == StatusCode::INTERNAL_SERVER_ERROR)
        .count();
    println!(
        "{deliveries} deliveries into an undrained output: {delivered} delivered, {refused} refused with 500, in {took:?}"
    );
    assert_eq!(delivered + refused, deliveries, "only 200 or 500");
    assert!(delivered > 0, "lines were written while the pipe had room");
    assert!(refused > 0, "the pipe filled up");

    // Still answering, and promptly: wrong secrets and even further deliveries.
    let started = Instant::now();
    assert_eq!(deliver(&running, "wrong", 0).await, StatusCode::FORBIDDEN);
    assert_eq!(
        deliver(&running, SECRET, 0).await,
        StatusCode::INTERNAL_SERVER_ERROR
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    running.stop().await;
}

#[tokio::test]
async fn a_delivery_is_answered_200_once_its_line_is_written() {
    let (output, mut reader) = tokio::io::duplex(64 * 1024);
    let (printer, writer) = example::Printer::start(output);
    let receiver =
        example::receiver(Receiver::builder().secret(SECRET), printer).expect("a valid receiver");
    let running = Running::start(receiver).await;

    for index in 0..3 {
        assert_eq!(deliver(&running, SECRET, index).await, StatusCode::OK);
    }
    running.stop().await;
    tokio::time::timeout(Duration::from_secs(10), writer)
        .await
        .expect("the writer ends once the receiver is gone")
        .expect("the writer task");
    let mut printed = String::new();
    reader
        .read_to_string(&mut printed)
        .await
        .expect("read the output");
    assert_eq!(
        printed,
        "delivery scope=repo action=update repo=model/acme/repo-0\n\
         delivery scope=repo action=update repo=model/acme/repo-1\n\
         delivery scope=repo action=update repo=model/acme/repo-2\n"
    );
}

/// The arguments as the process would get them.
fn arguments(list: &[&str]) -> impl Iterator<Item = String> {
    list.iter()
        .map(|argument| (*argument).to_owned())
        .collect::<Vec<_>>()
        .into_iter()
}

#[test]
fn the_command_line_answers_help_and_refuses_nonsense() {
    for help in [
        &["--help"][..],
        &["-h"],
        &["--addr", "127.0.0.1:1", "--help"],
    ] {
        assert_eq!(
            example::parse_arguments(arguments(help)),
            Ok(example::Command::Help)
        );
    }
    assert_eq!(
        example::parse_arguments(arguments(&["--addr=127.0.0.1:9000"])),
        Ok(example::Command::Serve(
            "127.0.0.1:9000".parse().expect("an address")
        ))
    );
    assert!(example::parse_arguments(arguments(&["--bogus"])).is_err());
    assert!(example::parse_arguments(arguments(&["--addr", "nowhere"])).is_err());
}
