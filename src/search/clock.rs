//! Time: every platform's budget becomes one hard stop instant here.
//!
//! Budgets count from the moment the platform's input arrived (for Botzone's full-history mode,
//! from process start, since the platform's clock includes start-up and parsing), minus a safety
//! margin that absorbs what we cannot see: process exit, pipe latency, a loaded judge machine.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What the search may spend on one decision.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop thinking at this instant.
    pub stop_at: Option<Instant>,
    /// Stop after this many playouts (or nodes); makes searches reproducible in tests.
    pub max_iterations: Option<u64>,
    /// Stop as soon as this count is non-zero: input lines that cancel a search (SAU's `end`)
    /// read but not yet handled. Set by the input thread, so a search can be abandoned while
    /// the main loop is busy thinking.
    pub interrupt: Option<&'static AtomicUsize>,
}

impl Limits {
    pub fn iterations(n: u64) -> Limits {
        Limits {
            max_iterations: Some(n),
            ..Limits::default()
        }
    }

    pub fn until(stop_at: Instant) -> Limits {
        Limits {
            stop_at: Some(stop_at),
            ..Limits::default()
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

    /// Also stop when `interrupt` becomes non-zero.
    pub fn interruptible(mut self, interrupt: Option<&'static AtomicUsize>) -> Limits {
        self.interrupt = interrupt;
        self
    }

    /// Whether an interrupting input line is waiting.
    pub fn interrupted(&self) -> bool {
        self.interrupt
            .is_some_and(|n| n.load(Ordering::Relaxed) > 0)
    }

    pub fn done(&self, iterations: u64, now: Instant) -> bool {
        self.max_iterations.is_some_and(|m| iterations >= m)
            || self.stop_at.is_some_and(|t| now >= t)
            || self.interrupted()
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

/// A whole-game clock (the SAU platform's 3 minutes a side, Gomocup's `timeout_match`): how much
/// of what is left to give the next turn.
///
/// The plan covers `PLANNED_TURNS` of our turns (a 120-move game, 60 turns a side) and spends at
/// most `PLANNED_SHARE` of the budget on them, so a longer game still has time. Within the plan,
/// middle-game turns weigh more than the opening (book-like, forced) and the late game (few
/// candidate moves). Past the plan, each turn gets a small share of what remains.
#[derive(Clone, Copy, Debug)]
pub struct GameClock {
    pub total: Duration,
    pub used: Duration,
    /// Kept back from every turn, like `TurnBudget::margin`.
    pub margin: Duration,
}

/// Our turns the plan covers.
pub const PLANNED_TURNS: u32 = 60;
/// The share of the whole budget the planned turns may use.
pub const PLANNED_SHARE: f64 = 0.8;

impl GameClock {
    pub fn new(total: Duration, margin: Duration) -> GameClock {
        GameClock {
            total,
            used: Duration::ZERO,
            margin,
        }
    }

    pub fn remaining(&self) -> Duration {
        self.total.saturating_sub(self.used)
    }

    /// The relative weight of our `turn`-th turn (from 0).
    fn weight(turn: u32) -> f64 {
        match turn {
            0..=2 => 0.5,
            3..=29 => 1.5,
            _ => 0.8,
        }
    }

    /// How long our `turn`-th turn (from 0) may think, before the margin.
    pub fn allowance(&self, turn: u32) -> Duration {
        let remaining = self.remaining().as_secs_f64();
        let secs = if turn < PLANNED_TURNS {
            let planned_left =
                (PLANNED_SHARE * self.total.as_secs_f64() - self.used.as_secs_f64()).max(0.0);
            let weights_left: f64 = (turn..PLANNED_TURNS).map(Self::weight).sum();
            // A turn that ran over earlier leaves less for later ones, never nothing: a tiny
            // share of the reserve keeps moves coming.
            (planned_left * Self::weight(turn) / weights_left).max(remaining / 100.0)
        } else {
            remaining / 20.0
        };
        Duration::from_secs_f64(secs.min(remaining / 2.0).max(0.0))
    }

    /// The budget of our `turn`-th turn, started at `started` (when the platform's command was
    /// read).
    pub fn turn_budget(&self, turn: u32, started: Instant) -> TurnBudget {
        TurnBudget {
            started,
            limit: self.allowance(turn),
            margin: self.margin,
        }
    }

    /// Books the time a turn really took (from the read of the command to the answer).
    pub fn spend(&mut self, spent: Duration) {
        self.used += spent;
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

    /// Spends every allowance in full, as a worst case.
    fn play_out(clock: &mut GameClock, turns: u32) -> Vec<Duration> {
        (0..turns)
            .map(|t| {
                let a = clock.allowance(t);
                clock.spend(a);
                a
            })
            .collect()
    }

    #[test]
    fn a_120_move_game_uses_at_most_80_percent() {
        let total = Duration::from_secs(180);
        let mut clock = GameClock::new(total, Duration::from_millis(100));
        play_out(&mut clock, PLANNED_TURNS);
        assert!(
            clock.used.as_secs_f64() <= 0.8 * 180.0 + 1e-6,
            "used {:?}",
            clock.used
        );
        assert!(
            clock.used.as_secs_f64() >= 0.79 * 180.0,
            "the plan should use its share: {:?}",
            clock.used
        );
    }

    #[test]
    fn the_middle_game_gets_more_than_the_opening_and_the_end() {
        let mut clock = GameClock::new(Duration::from_secs(180), Duration::ZERO);
        let a = play_out(&mut clock, PLANNED_TURNS);
        assert!(
            a[10] > a[0] && a[10] > a[50],
            "{:?} {:?} {:?}",
            a[0],
            a[10],
            a[50]
        );
    }

    #[test]
    fn a_very_long_game_never_runs_out() {
        let total = Duration::from_secs(180);
        let mut clock = GameClock::new(total, Duration::ZERO);
        let a = play_out(&mut clock, 400);
        assert!(clock.used <= total);
        assert!(a.iter().all(|d| !d.is_zero()), "every turn gets some time");
    }

    #[test]
    fn overspending_early_shrinks_later_turns_but_not_to_nothing() {
        let mut clock = GameClock::new(Duration::from_secs(180), Duration::ZERO);
        let normal = clock.allowance(5);
        clock.spend(Duration::from_secs(150));
        let after = clock.allowance(5);
        assert!(after < normal && !after.is_zero());
        assert!(after <= clock.remaining() / 2);
    }
}
