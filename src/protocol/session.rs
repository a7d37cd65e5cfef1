//! The game as a protocol session sees it: a position, the engine, and the options that turn a
//! platform's budget into search limits.

use crate::engine::random::RandomPlayer;
use crate::engine::{Decision, Engine};
use crate::game::{Game, IllegalMove};
use crate::search::clock::{Limits, TurnBudget};

pub struct Session<G: Game> {
    start: G,
    pos: G,
    engine: Box<dyn Engine<G>>,
    /// Cap on playouts/nodes per decision (tests and reproducible runs).
    pub max_iterations: Option<u64>,
}

impl<G: Game> Session<G> {
    pub fn new(start: G, engine: Box<dyn Engine<G>>) -> Session<G> {
        Session {
            pos: start.clone(),
            start,
            engine,
            max_iterations: None,
        }
    }

    pub fn position(&self) -> &G {
        &self.pos
    }

    pub fn new_game(&mut self) {
        self.pos = self.start.clone();
        self.engine.new_game();
    }

    /// Plays `m`. A move that breaks a rule of the game but can physically be placed is kept
    /// (the platform's record is the truth we must play on) and reported; an off-board or
    /// occupied point, or a move after the end, is refused and leaves the position unchanged.
    pub fn apply(&mut self, m: G::Move) -> Result<(), IllegalMove> {
        let verdict = self.pos.check_move(m);
        match verdict {
            Ok(()) | Err(IllegalMove::Forbidden(_)) => {
                self.engine.observe(&self.pos, m);
                self.pos.play(m);
                verdict
            }
            Err(e) => Err(e),
        }
    }

    pub fn think(&mut self, budget: TurnBudget) -> Decision<G::Move> {
        let limits = Limits::until(budget.stop_at()).with_iterations(self.max_iterations);
        let engine = &mut self.engine;
        let pos = &self.pos;
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.think(pos, limits))) {
            Ok(decision) => decision,
            Err(_) => {
                // A bug in a search must not cost the game: forget the engine's state and answer
                // a legal move anyway.
                self.engine.new_game();
                RandomPlayer::new(self.pos.hash()).think(&self.pos, limits)
            }
        }
    }
}
