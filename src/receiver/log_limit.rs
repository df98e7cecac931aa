//! Keeps a warning that anyone on the network can trigger (an unauthenticated request, a
//! failing `accept`) from flooding the log: at most one line per interval, which reports how
//! many were left out since the previous one.

use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug)]
pub(crate) struct LogLimiter {
    interval: Duration,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    last_logged: Option<Instant>,
    suppressed: u64,
}

impl LogLimiter {
    pub(crate) fn new(interval: Duration) -> Self {
        Self {
            interval,
            state: Mutex::new(State::default()),
        }
    }

    /// Whether this occurrence should be logged: `Some(left out since the last logged one)`,
    /// or `None` if it is to be left out (and counted).
    pub(crate) fn admit(&self) -> Option<u64> {
        self.admit_at(Instant::now())
    }

    fn admit_at(&self, now: Instant) -> Option<u64> {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let due = state
            .last_logged
            .is_none_or(|last| now.duration_since(last) >= self.interval);
        if due {
            state.last_logged = Some(now);
            Some(std::mem::take(&mut state.suppressed))
        } else {
            state.suppressed += 1;
            None
        }
    }

    /// How many were left out since the last logged one, and forgets them: for a final summary.
    pub(crate) fn take_suppressed(&self) -> u64 {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        std::mem::take(&mut state.suppressed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_one_per_interval_and_counts_the_rest() {
        let limiter = LogLimiter::new(Duration::from_secs(60));
        let start = Instant::now();
        assert_eq!(limiter.admit_at(start), Some(0), "the first one is logged");
        for _ in 0..999 {
            assert_eq!(limiter.admit_at(start), None);
        }
        let later = start + Duration::from_secs(59);
        assert_eq!(limiter.admit_at(later), None);
        let next_interval = start + Duration::from_secs(60);
        assert_eq!(
            limiter.admit_at(next_interval),
            Some(1000),
            "the next one reports the rest"
        );
        assert_eq!(limiter.admit_at(next_interval), None);
        assert_eq!(limiter.take_suppressed(), 1);
        assert_eq!(limiter.take_suppressed(), 0);
    }
}
