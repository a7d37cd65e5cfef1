//! The Gomoku engine (level `full`). Work in progress: for now it wins at once when it can,
//! and otherwise plays a random point next to the stones.

use super::random::RandomPlayer;
use super::{Decision, Engine};
use crate::game::gomoku::{Gomoku, Point};
use crate::game::Game;
use crate::search::clock::Limits;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct GomokuConfig {
    pub seed: u64,
}

impl Default for GomokuConfig {
    fn default() -> GomokuConfig {
        GomokuConfig { seed: 1 }
    }
}

pub struct GomokuEngine {
    config: GomokuConfig,
    random: RandomPlayer,
}

impl GomokuEngine {
    pub fn new(config: GomokuConfig) -> GomokuEngine {
        GomokuEngine {
            random: RandomPlayer::new(config.seed),
            config,
        }
    }
}

/// A point where the side to move makes five.
fn winning_point(pos: &Gomoku) -> Option<Point> {
    let mut p = pos.clone();
    for m in pos.legal_moves() {
        p.play(m);
        let won = p.outcome().is_some();
        p.undo();
        if won {
            return Some(m);
        }
    }
    None
}

impl Engine<Gomoku> for GomokuEngine {
    fn new_game(&mut self) {
        self.random = RandomPlayer::new(self.config.seed);
    }

    fn observe(&mut self, _pos_before: &Gomoku, _m: Point) {}

    fn think(&mut self, pos: &Gomoku, _limits: Limits) -> Decision<Point> {
        let start = Instant::now();
        let mv = winning_point(pos).or_else(|| self.random.pick(pos));
        Decision {
            mv,
            win_rate: None,
            work: 0,
            work_unit: "nodes",
            elapsed: start.elapsed(),
        }
    }
}
