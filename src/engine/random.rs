//! The uniformly random legal player: the baseline every engine must crush.

use super::{Decision, Engine};
use crate::game::Game;
use crate::search::clock::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    pub fn pick<G: Game>(&mut self, pos: &G) -> Option<G::Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            None
        } else {
            Some(moves[self.rng.gen_range(0..moves.len())])
        }
    }
}

impl<G: Game> Engine<G> for RandomPlayer {
    fn new_game(&mut self) {}

    fn observe(&mut self, _pos_before: &G, _m: G::Move) {}

    fn think(&mut self, pos: &G, _limits: Limits) -> Decision<G::Move> {
        let start = Instant::now();
        Decision {
            mv: self.pick(pos),
            win_rate: None,
            work: 0,
            work_unit: "nodes",
            elapsed: start.elapsed(),
        }
    }
}
