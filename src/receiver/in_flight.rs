//! Counts handler calls still running, so that shutdown can wait for them. The HTTP server
//! already waits for open requests; this covers a handler whose caller hung up, which keeps
//! running (a half-run handler is worse than a duplicate delivery) and must not be cut off.
//! The receiver's server counts its connection tasks with the same counter.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Notify;

#[derive(Debug, Default)]
pub(crate) struct InFlight {
    running: AtomicUsize,
    idle: Notify,
}

impl InFlight {
    /// Counts one handler call until the returned guard is dropped.
    pub(crate) fn start(self: &Arc<Self>) -> InFlightGuard {
        self.running.fetch_add(1, Ordering::SeqCst);
        InFlightGuard(Arc::clone(self))
    }

    /// Resolves once no handler call is running.
    pub(crate) async fn idle(&self) {
        loop {
            // Created before the check: `notify_waiters` reaches a `Notified` from the moment
            // it exists, so a guard dropped between the check and the await is not missed.
            let notified = self.idle.notified();
            if self.running.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// The handler calls of one receiver, for a host server that mounts it with
/// [`Receiver::into_router`](super::Receiver::into_router): the host's graceful shutdown waits
/// for open requests, but not for a handler whose caller hung up, which keeps running (a
/// half-run handler is worse than a duplicate delivery). Await [`finished`](Self::finished)
/// after the host server has stopped, before the process exits.
#[derive(Clone, Debug)]
pub struct HandlerCalls(pub(crate) Arc<InFlight>);

impl HandlerCalls {
    /// How many handler calls are running now.
    pub fn running(&self) -> usize {
        self.0.running.load(Ordering::SeqCst)
    }

    /// Resolves once no handler call is running. Each call ends within the handler timeout.
    pub async fn finished(&self) {
        self.0.idle().await;
    }
}

/// Marks one running handler call; dropping it (also by a panic) ends the count.
pub(crate) struct InFlightGuard(Arc<InFlight>);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn idle_waits_for_every_guard() {
        let in_flight = Arc::new(InFlight::default());
        in_flight.idle().await;

        let first = in_flight.start();
        let second = in_flight.start();
        drop(first);
        let still_running = tokio::time::timeout(Duration::from_millis(50), in_flight.idle()).await;
        assert!(still_running.is_err(), "one call is still running");

        let waiter = tokio::spawn({
            let in_flight = Arc::clone(&in_flight);
            async move { in_flight.idle().await }
        });
        drop(second);
        tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("idle once the last guard is dropped")
            .expect("the waiter does not panic");
    }
}
