//! Node counting and the stop check shared by the alpha-beta and threat searches (Connect6,
//! Gomoku): one `Budget` per decision, ticked once a node, stopped by the node cap, the clock,
//! or an interrupt.

use super::clock::{share_of_time_left, Limits};
use std::time::Instant;

/// Nodes between two looks at the clock: reading it costs more than a node of the threat
/// searches, and 64 nodes take well under a millisecond.
const CLOCK_EVERY: u64 = 64;

pub struct Budget {
    limits: Limits,
    pub nodes: u64,
    /// The node count at which the clock is next read. A count, not a multiple of
    /// `CLOCK_EVERY`: callers may add nodes counted elsewhere, and a count that jumps past
    /// every multiple must not leave the clock unread (a Gomoku search once ran 80 ms past its
    /// stop that way).
    next_look: u64,
    stopped: bool,
}

impl Budget {
    pub fn new(limits: Limits) -> Budget {
        Budget {
            limits,
            nodes: 0,
            next_look: CLOCK_EVERY,
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
        let look = self.nodes >= self.next_look;
        if look {
            self.next_look = self.nodes + CLOCK_EVERY;
        }
        if (look && self.limits.done(self.nodes, Instant::now()))
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

    /// Gives one phase of a decision `share` of what is left, of the time to the stop and of
    /// the node cap alike, and returns the limits to put back with `end_phase`. A search capped
    /// in nodes (the arena's fixed-work matches) then divides its work among the phases as a
    /// timed one divides its time: with the deadline alone, its first phase could spend the
    /// whole cap and leave nothing to the phases after.
    pub fn enter_phase(&mut self, share: f64) -> Limits {
        let saved = self.limits;
        self.limits.stop_at = share_of_time_left(saved.stop_at, share);
        self.limits.max_iterations = saved
            .max_iterations
            .map(|cap| self.nodes + (cap.saturating_sub(self.nodes) as f64 * share) as u64);
        self.stopped = false;
        saved
    }

    /// Puts back the limits `enter_phase` replaced; a stop caused by the phase's own limits is
    /// lifted.
    pub fn end_phase(&mut self, saved: Limits) {
        self.limits = saved;
        self.stopped = false;
    }

    /// Stops at `until` from now on (a share of the turn for one phase of the search), keeping
    /// the count; a stop caused by the old deadline is lifted.
    pub fn set_deadline(&mut self, until: Option<std::time::Instant>) {
        self.limits.stop_at = until;
        self.stopped = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_count_that_jumps_past_every_multiple_still_reads_the_clock() {
        // Past its stop; each round adds nodes counted elsewhere (a leaf's threat search) so
        // that the count, ticked once a round, is never a multiple of the look interval.
        let mut budget = Budget::new(Limits::until(Instant::now() - Duration::from_millis(1)));
        budget.nodes = 1;
        let mut rounds = 0;
        while !budget.stopped() && rounds < 1000 {
            budget.nodes += CLOCK_EVERY - 1;
            budget.tick();
            rounds += 1;
        }
        assert!(budget.stopped());
        assert!(rounds <= 2, "{rounds} rounds");
    }

    #[test]
    fn the_clock_is_read_within_one_interval_and_the_node_cap_at_once() {
        let mut budget = Budget::new(Limits::until(Instant::now() - Duration::from_millis(1)));
        let mut ticks = 0;
        while !budget.stopped() {
            budget.tick();
            ticks += 1;
            assert!(ticks <= CLOCK_EVERY, "{ticks} ticks");
        }
        let mut capped = Budget::nodes(5);
        for _ in 0..4 {
            capped.tick();
        }
        assert!(!capped.stopped());
        capped.tick();
        assert!(capped.stopped());
    }

    #[test]
    fn a_phase_gets_its_share_of_the_nodes_left_and_the_cap_comes_back() {
        let mut budget = Budget::nodes(1000);
        for _ in 0..200 {
            budget.tick();
        }
        // A quarter of the 800 left: the phase stops at 400 nodes.
        let saved = budget.enter_phase(0.25);
        let mut ticks = 0;
        while !budget.stopped() {
            budget.tick();
            ticks += 1;
        }
        assert_eq!(ticks, 200);
        budget.end_phase(saved);
        assert!(!budget.stopped());
        while !budget.stopped() {
            budget.tick();
        }
        assert_eq!(budget.nodes, 1000);
        // Without a cap a phase has none either, and the deadline is shared as before.
        let mut timed = Budget::new(Limits::until(Instant::now() + Duration::from_secs(60)));
        let saved = timed.enter_phase(0.5);
        assert_eq!(timed.limits().max_iterations, None);
        let stop = timed.limits().stop_at.unwrap();
        assert!(stop < saved.stop_at.unwrap());
        assert!(stop > Instant::now() + Duration::from_secs(20));
    }
}
