//! Peak memory when the hub sends 50 MB: a success body is refused at the size limit and an
//! error body is read only as far as it is kept, so the process's peak resident set
//! (`VmHWM`, Linux) grows by far less than the body.
//!
//! One test in its own binary, because the peak is the whole process's.

#![cfg(target_os = "linux")]

mod client_support;

use std::time::Duration;

use client_support::raw::{self, Connection, RawHub};
use client_support::{HUB_TOKEN, Reply, StubHub};
use hub_api::{Client, Error};

const FIFTY_MB: usize = 50 * 1024 * 1024;

/// The process's peak resident set, in KiB.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/self/status")
}

/// A hub answering `status` with 50 MB of JSON-ish bytes, chunked (no length announced, so the
/// client must count), written as fast as the client reads.
fn fifty_megabytes(status: u16) -> RawHub {
    RawHub::start(move |mut connection: Connection| {
        let head = raw::head(
            status,
            &[
                "content-type: application/json",
                "transfer-encoding: chunked",
            ],
        );
        if !connection.send(&head) {
            return;
        }
        let piece = 64 * 1024;
        let chunk = format!("{piece:x}\r\n{}\r\n", "1".repeat(piece));
        for _ in 0..FIFTY_MB / piece {
            if connection.stopping() || !connection.send(chunk.as_bytes()) {
                return;
            }
        }
        let _ = connection.send(b"0\r\n\r\n");
    })
}

#[tokio::test]
async fn a_fifty_megabyte_body_never_reaches_memory() {
    // Warm up the stack, so that one-time allocations are not counted.
    let warm = StubHub::always(Reply::json(
        200,
        serde_json::json!({ "builtInTools": [], "spaceTools": [] }),
    ))
    .await;
    warm.client().mcp_settings().await.expect("warm-up call");

    for status in [200, 500] {
        let hub = fifty_megabytes(status);
        let client = Client::builder(&hub.base_url)
            .token(HUB_TOKEN)
            .timeout(Duration::from_secs(60))
            .build()
            .expect("client");
        let before = peak_rss_kib();
        let error = client.mcp_settings().await.expect_err("refused");
        let growth_mib = (peak_rss_kib() - before) / 1024;
        match status {
            200 => assert!(matches!(error, Error::ResponseTooLarge { .. }), "{error:?}"),
            _ => assert!(
                matches!(&error, Error::Status { body: Some(body), .. } if body.len() < 4200),
                "{error:?}"
            ),
        }
        eprintln!(
            "status {status}: peak RSS grew by {growth_mib} MiB; the hub wrote {} MiB",
            hub.bytes_sent() / (1024 * 1024)
        );
        // The default limit is 8 MiB; allow for allocator slack, never for the whole body.
        assert!(
            growth_mib < 20,
            "status {status}: peak RSS grew by {growth_mib} MiB"
        );
        assert!(
            hub.bytes_sent() < FIFTY_MB as u64,
            "the whole body was read"
        );
    }
}
