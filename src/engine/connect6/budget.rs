//! Node counting and the stop check shared by the Connect6 searches.

use crate::search::clock::Limits;
use std::time::Instant;

pub struct Budget {
    limits: Limits,
    pub nodes: u64,
    stopped: bool,
}

impl Budget {
    pub fn new(limits: Limits) -> Budget {
        Budget {
            limits,
            nodes: 0,
            stopped: false,
        }
    }

    /// At most `n` nodes, no clock (tests and reproducible runs).
    #[cfg(test)]
    pub fn nodes(n: u64) -> Budget {
        Budget::new(Limits::iterations(n))
    }

    /// Counts a node; looks at the clock every 64 nodes, since reading it costs more than a
    /// node of the threat search.
    pub fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) && self.limits.done(self.nodes, Instant::now()) {
            self.stopped = true;
        }
        if self.limits.max_iterations.is_some_and(|m| self.nodes >= m) {
            self.stopped = true;
        }
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Stops at `until` from now on (narrowing the deadline), keeping the count.
    pub fn set_deadline(&mut self, until: Option<Instant>) {
        self.limits.stop_at = until;
        self.stopped = false;
    }
}
