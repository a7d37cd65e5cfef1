//! Per-game engines: what to play, given a position and a time limit. Each engine owns its search
//! state (for instance an MCTS tree kept between turns); protocols and the arena see only the
//! `Engine` trait.

pub mod connect6;
pub mod gomoku;
pub mod nogo;
pub mod random;

use crate::game::Game;
use crate::search::clock::Limits;
use std::time::Duration;

/// An engine's answer: the move and what it knows about it.
#[derive(Clone, Debug)]
pub struct Decision<M> {
    /// `None` only when the side to move has no legal move.
    pub mv: Option<M>,
    /// Estimated probability that the side to move wins, when the engine has one.
    pub win_rate: Option<f32>,
    /// Playouts (MCTS) or nodes (alpha-beta) searched for this decision.
    pub work: u64,
    /// What `work` counts, for messages: "playouts" or "nodes".
    pub work_unit: &'static str,
    pub elapsed: Duration,
}

impl<M> Decision<M> {
    /// No move and no work: the answer for a finished game, and the start of a summary.
    pub fn none() -> Decision<M> {
        Decision {
            mv: None,
            win_rate: None,
            work: 0,
            work_unit: "nodes",
            elapsed: Duration::ZERO,
        }
    }

    /// A short single-line summary for debug channels (never contains the word "move").
    pub fn summary(&self) -> String {
        let mut s = format!("{} {}", self.work, self.work_unit);
        if let Some(w) = self.win_rate {
            s.push_str(&format!(", win rate {:.1}%", 100.0 * w));
        }
        s.push_str(&format!(", {:.3} s", self.elapsed.as_secs_f64()));
        s
    }
}

pub trait Engine<G: Game>: Send {
    /// Forget everything about the previous game.
    fn new_game(&mut self);
    /// A move was played in the current game (by either side); lets the engine keep its tree.
    fn observe(&mut self, pos_before: &G, m: G::Move);
    /// Choose a move for the side to move in `pos` within `limits`.
    fn think(&mut self, pos: &G, limits: Limits) -> Decision<G::Move>;
}
