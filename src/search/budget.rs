//! Node counting and the stop check shared by the alpha-beta and threat searches (Connect6,
//! Gomoku): one `Budget` per decision, ticked once a node, stopped by the node cap, the clock,
//! or an interrupt.

use super::clock::Limits;
use std::time::Instant;

/// Nodes between two looks at the clock: reading it costs more than a node of the threat
/// searches, and 64 nodes take well under a millisecond.
const CLOCK_EVERY: u64 = 64;

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
    pub fn nodes(n: u64) -> Budget {
        Budget::new(Limits::iterations(n))
    }

    /// Counts a node and decides whether to stop.
    pub fn tick(&mut self) {
        self.nodes += 1;
        if (self.nodes.is_multiple_of(CLOCK_EVERY) && self.limits.done(self.nodes, Instant::now()))
            || self.limits.max_iterations.is_some_and(|m| self.nodes >= m)
        {
            self.stopped = true;
        }
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Stops at `until` from now on (a share of the turn for one phase of the search), keeping
    /// the count; a stop caused by the old deadline is lifted.
    pub fn set_deadline(&mut self, until: Option<std::time::Instant>) {
        self.limits.stop_at = until;
        self.stopped = false;
    }
}
