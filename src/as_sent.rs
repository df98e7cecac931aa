//! The bodies of the hub's answers as it sent them, for a program that passes them on (the
//! `hub` command prints what the hub sent, not the typed value serialized again: a `number`
//! the spec types as a float stays `1` rather than `1.0`, and a field newer than this client
//! is kept). [`recording`] runs a call and returns, beside its output, the bodies of the
//! successful answers the call read to their end, in order. The call itself is unchanged: its
//! typed value is decoded and checked from the same bytes, so a body that breaks the spec is
//! still an error. Nothing is recorded outside [`recording`], and each body is bounded by
//! [`ClientBuilder::max_response_bytes`](crate::ClientBuilder::max_response_bytes) as always.
//!
//! ```no_run
//! # async fn run(client: hub_api::Client) -> hub_api::Result<()> {
//! let (settings, bodies) = hub_api::as_sent::recording(client.mcp_settings()).await;
//! let settings = settings?; // decoded and checked as usual
//! let sent: serde_json::Value = serde_json::from_slice(&bodies[0]).expect("checked JSON");
//! # let _ = (settings, sent); Ok(()) }
//! ```

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};

/// The bodies recorded so far by the [`recording`] in progress.
type Slot = Arc<Mutex<Vec<Vec<u8>>>>;

tokio::task_local! {
    static RECORDING: Slot;
}

/// Runs `call` (a call of a [`Client`](crate::Client), or a future or stream step that makes
/// calls) and returns its output with the bodies of the successful (2xx) answers it read to
/// their end, in the order they ended. An answer whose body was not read (a call without a
/// response body, a retried attempt) or not read to its end (an error while reading) adds none.
pub async fn recording<F: Future>(call: F) -> (F::Output, Vec<Vec<u8>>) {
    let slot: Slot = Arc::new(Mutex::new(Vec::new()));
    let output = RECORDING.scope(Arc::clone(&slot), call).await;
    let bodies = std::mem::take(&mut *slot.lock().unwrap_or_else(PoisonError::into_inner));
    (output, bodies)
}

/// `response`, its body copied as it is read when a [`recording`] is in progress and the
/// status is a success; unchanged otherwise.
pub(crate) fn tee(response: reqwest::Response) -> reqwest::Response {
    let Ok(slot) = RECORDING.try_with(Arc::clone) else {
        return response;
    };
    if !response.status().is_success() {
        return response;
    }
    let url = response.url().clone();
    let (parts, body) = http::Response::<reqwest::Body>::from(response).into_parts();
    let body = TeeBody {
        inner: body,
        copy: Vec::new(),
        slot: Some(slot),
    };
    crate::transport::rebuilt(parts, reqwest::Body::wrap(body), url)
}

/// A body that copies what passes through it and hands the copy to its slot at the end.
struct TeeBody {
    inner: reqwest::Body,
    copy: Vec<u8>,
    /// `None` once the copy was handed over.
    slot: Option<Slot>,
}

impl TeeBody {
    fn hand_over(&mut self) {
        if let Some(slot) = self.slot.take() {
            slot.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(std::mem::take(&mut self.copy));
        }
    }
}

impl HttpBody for TeeBody {
    type Data = Bytes;
    type Error = reqwest::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    self.copy.extend_from_slice(data);
                }
                if self.inner.is_end_stream() {
                    self.hand_over();
                }
            }
            Poll::Ready(None) => self.hand_over(),
            // A body that failed is not the hub's whole answer.
            Poll::Ready(Some(Err(_))) => self.slot = None,
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
