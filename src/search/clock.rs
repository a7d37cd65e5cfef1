//! Time: every platform's budget becomes one hard stop instant here.
//!
//! Budgets count from the moment the platform's input arrived (for Botzone's full-history mode,
//! from process start, since the platform's clock includes start-up and parsing), minus a safety
//! margin that absorbs what we cannot see: process exit, pipe latency, a loaded judge machine.

use std::time::{Duration, Instant};

/// What the search may spend on one decision.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop thinking at this instant.
    pub stop_at: Option<Instant>,
    /// Stop after this many playouts (or nodes); makes searches reproducible in tests.
    pub max_iterations: Option<u64>,
}

impl Limits {
    pub fn iterations(n: u64) -> Limits {
        Limits {
            stop_at: None,
            max_iterations: Some(n),
        }
    }

    pub fn until(stop_at: Instant) -> Limits {
        Limits {
            stop_at: Some(stop_at),
            max_iterations: None,
        }
    }

    pub fn time(d: Duration) -> Limits {
        Limits::until(Instant::now() + d)
    }

    /// Both bounds, whichever comes first.
    pub fn with_iterations(mut self, n: Option<u64>) -> Limits {
        self.max_iterations = n;
        self
    }

    pub fn done(&self, iterations: u64, now: Instant) -> bool {
        self.max_iterations.is_some_and(|m| iterations >= m)
            || self.stop_at.is_some_and(|t| now >= t)
    }
}

/// A per-turn limit as platforms such as Botzone state it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnBudget {
    /// When the platform's clock for this turn started.
    pub started: Instant,
    /// The platform's limit for the turn.
    pub limit: Duration,
    /// Kept back from the limit for safety.
    pub margin: Duration,
}

impl TurnBudget {
    /// The instant the search must stop. Never earlier than `started`, and a margin larger than
    /// the limit leaves a tenth of the limit rather than nothing.
    pub fn stop_at(&self) -> Instant {
        let usable = if self.margin < self.limit {
            self.limit - self.margin
        } else {
            self.limit / 10
        };
        self.started + usable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_subtracts_the_margin() {
        let t0 = Instant::now();
        let b = TurnBudget {
            started: t0,
            limit: Duration::from_millis(1000),
            margin: Duration::from_millis(150),
        };
        assert_eq!(b.stop_at() - t0, Duration::from_millis(850));
        let tight = TurnBudget {
            margin: Duration::from_secs(5),
            ..b
        };
        assert_eq!(tight.stop_at() - t0, Duration::from_millis(100));
    }

    #[test]
    fn limits_stop_on_either_bound() {
        let now = Instant::now();
        assert!(Limits::iterations(10).done(10, now));
        assert!(!Limits::iterations(10).done(9, now));
        assert!(Limits::until(now).done(0, now));
        assert!(!Limits::until(now + Duration::from_secs(1)).done(0, now));
        assert!(!Limits::default().done(u64::MAX, now));
    }
}
