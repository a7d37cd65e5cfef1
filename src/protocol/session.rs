//! The game as a protocol session sees it: a position, the engine, and the options that turn a
//! platform's budget into search limits.

use crate::engine::random::RandomPlayer;
use crate::engine::{Decision, Engine};
use crate::game::{Game, IllegalMove};
use crate::search::clock::{Limits, TurnBudget};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

/// Builds an empty board from a side and a platform's rule bits: see `Session::board_maker`.
pub type BoardMaker<G> = fn(usize, u32) -> Result<G, String>;

pub struct Session<G: Game> {
    start: G,
    pos: G,
    engine: Box<dyn Engine<G>>,
    /// Cap on playouts/nodes per decision (tests and reproducible runs).
    pub max_iterations: Option<u64>,
    /// The position before our last turn and the stones we played in it, so that a turn the
    /// platform refused or cancelled can be taken back.
    last_turn: Option<(G, Vec<G::Move>)>,
    /// How the side to move gives up the rest of its turn, for games whose turns hold several
    /// stones (Connect6: the SAU platform accepts a turn of one stone). `None`: not possible.
    pub end_turn_early: Option<fn(&mut G)>,
    /// Builds the empty board for `Event::NewBoard` from a side and the platform's rule bits
    /// (Gomocup's `START n`, `INFO rule`). `None`: this game's board never changes.
    pub board_maker: Option<BoardMaker<G>>,
}

impl<G: Game> Session<G> {
    pub fn new(start: G, engine: Box<dyn Engine<G>>) -> Session<G> {
        Session {
            pos: start.clone(),
            start,
            engine,
            max_iterations: None,
            last_turn: None,
            end_turn_early: None,
            board_maker: None,
        }
    }

    pub fn position(&self) -> &G {
        &self.pos
    }

    pub fn new_game(&mut self) {
        self.pos = self.start.clone();
        self.engine.new_game();
        self.last_turn = None;
    }

    /// A new game on another board (see `board_maker`), which later new games start from too.
    /// On an error nothing changes.
    pub fn new_board(&mut self, size: usize, rules: u32) -> Result<(), String> {
        let make = self
            .board_maker
            .ok_or_else(|| "this game's board cannot change; ignored".to_string())?;
        let start = make(size, rules)?;
        self.pos = start.clone();
        self.start = start;
        self.engine.new_game();
        self.last_turn = None;
        Ok(())
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
                self.last_turn = None;
                verdict
            }
            Err(e) => Err(e),
        }
    }

    /// The side to move stops its turn here (the opponent placed one stone where two were due).
    /// The engine starts afresh from the new position.
    pub fn end_turn(&mut self) -> Result<(), String> {
        let cut = self
            .end_turn_early
            .ok_or_else(|| "this game has no turns to cut short; ignored".to_string())?;
        if self.pos.outcome().is_some() {
            return Err("the turn cannot end early: the game is over".to_string());
        }
        cut(&mut self.pos);
        self.engine.new_game();
        self.last_turn = None;
        Ok(())
    }

    /// One decision: the next stone for the side to move.
    pub fn think(&mut self, budget: TurnBudget) -> Decision<G::Move> {
        let limits = Limits::until(budget.stop_at())
            .with_iterations(self.max_iterations)
            .stretchable(budget.stretch_at());
        self.decide(limits)
    }

    fn decide(&mut self, limits: Limits) -> Decision<G::Move> {
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

    /// Our whole turn: stones for the side to move until the turn passes to the opponent or the
    /// game ends (one stone in NoGo, one or two in Connect6), all played on the position. The
    /// returned decision describes the search (work and time summed over the stones). Stones of
    /// `avoid` (a turn the platform refused) are replaced by random legal stones outside it.
    /// Nothing is played once the game is over.
    pub fn think_turn(
        &mut self,
        budget: TurnBudget,
        avoid: &[G::Move],
        interrupt: Option<&'static AtomicUsize>,
    ) -> (Vec<G::Move>, Decision<G::Move>) {
        let before = self.pos.clone();
        let side = self.pos.side_to_move();
        let limits = Limits::until(budget.stop_at())
            .with_iterations(self.max_iterations)
            .stretchable(budget.stretch_at())
            .interruptible(interrupt);
        let started = Instant::now();
        let mut turn = Vec::new();
        let mut summary = Decision::none();
        let mut random = RandomPlayer::new(self.pos.hash() ^ 0x5eed);
        let mut others = SmallRng::seed_from_u64(self.pos.hash() ^ 0xa501d);
        while self.pos.outcome().is_none() && self.pos.side_to_move() == side {
            let d = self.decide(limits);
            if turn.is_empty() {
                summary.win_rate = d.win_rate;
                summary.work_unit = d.work_unit;
            }
            summary.work += d.work;
            let mut choice = d.mv;
            if choice.is_some_and(|m| avoid.contains(&m)) {
                // A stone of the refused turn could be refused again: another legal one instead.
                let fresh: Vec<G::Move> = self
                    .pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| !avoid.contains(m))
                    .collect();
                if !fresh.is_empty() {
                    choice = Some(fresh[others.gen_range(0..fresh.len())]);
                }
            }
            let Some(m) = choice else { break };
            if self.apply(m).is_err() {
                // Cannot happen with a sound engine; a legal random stone keeps the game going.
                match random.pick(&self.pos) {
                    Some(r) if self.apply(r).is_ok() => turn.push(r),
                    _ => break,
                }
                continue;
            }
            turn.push(m);
        }
        summary.mv = turn.first().copied();
        summary.elapsed = started.elapsed();
        self.last_turn = Some((before, turn.clone()));
        (turn, summary)
    }

    /// Takes back our last turn (refused or cancelled by the platform) and returns its stones;
    /// empty if the last thing played was not our turn.
    pub fn retract_turn(&mut self) -> Vec<G::Move> {
        match self.last_turn.take() {
            Some((before, turn)) => {
                self.pos = before;
                // The engine's tree followed our stones; it starts afresh from here.
                self.engine.new_game();
                turn
            }
            None => Vec::new(),
        }
    }
}
