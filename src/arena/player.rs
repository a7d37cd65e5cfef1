//! Players as the referee sees them: built-in engines called directly, and external programs
//! spoken to exactly as their platform would speak to them. The Botzone side reuses the bot's
//! own codec (`protocol::botzone`) in the other direction, so there is one copy of the format.

use super::record::EndReason;
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::random::RandomPlayer;
use crate::engine::Engine;
use crate::game::nogo::{self, Nogo, NogoRules};
use crate::game::{Color, Game};
use crate::protocol::botzone::BotzoneMove;
use crate::search::clock::Limits;
use std::time::{Duration, Instant};

/// What the arena needs of a game on top of the rules and its Botzone form.
pub trait ArenaGame: BotzoneMove {
    const NAME: &'static str;
    fn board_size() -> usize;
    /// The empty board under the given options.
    fn start(centre_ban: bool) -> Self;
    /// (column from the left, row from the top), for records and pictures.
    fn xy(m: Self::Move) -> (usize, usize);
    fn from_xy(x: usize, y: usize) -> Option<Self::Move>;
    /// The project's own engine for this game.
    fn engine(seed: u64) -> Box<dyn Engine<Self>>;
    /// Why the rules ended the game in `pos` (a finished position).
    fn end_text(pos: &Self) -> String;
}

impl ArenaGame for Nogo {
    const NAME: &'static str = "nogo";

    fn board_size() -> usize {
        nogo::SIZE
    }

    fn start(centre_ban: bool) -> Nogo {
        Nogo::new(NogoRules { centre_ban })
    }

    fn xy(m: nogo::Point) -> (usize, usize) {
        nogo::coords(m)
    }

    fn from_xy(x: usize, y: usize) -> Option<nogo::Point> {
        (x < nogo::SIZE && y < nogo::SIZE).then(|| nogo::point(x, y))
    }

    fn engine(seed: u64) -> Box<dyn Engine<Nogo>> {
        Box::new(NogoEngine::new(NogoConfig {
            seed,
            ..NogoConfig::default()
        }))
    }

    fn end_text(pos: &Nogo) -> String {
        format!("{} has no legal move", pos.side_to_move().name())
    }
}

/// What a player is told on its turn.
pub struct Turn<'a, G: Game> {
    /// The position the game started from (empty board, with the game's rules).
    pub start: &'a G,
    pub pos: &'a G,
    /// Every move so far, Black's first.
    pub history: &'a [G::Move],
    /// The most this move may take (per-move limit and game clock together).
    pub budget: Duration,
}

/// A player's answer: the move or why it failed, and the time measured around the exchange.
pub type Answer<M> = (Result<M, EndReason>, Duration);

pub trait Player<G: ArenaGame>: Send {
    fn name(&self) -> &str;
    /// A new game begins and this player has `color`.
    fn new_game(&mut self, color: Color) -> Result<(), EndReason>;
    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move>;
    /// The game is over: release processes.
    fn end_game(&mut self) {}
}

/// How a built-in engine spends its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Think this long a move (less if the clock is shorter).
    Time(Duration),
    /// Run this many playouts a move (stopped by the clock if it must).
    Playouts(u64),
}

/// A player inside this process: the random player or the project's engine.
pub struct Builtin<G: ArenaGame> {
    name: String,
    engine: Box<dyn Engine<G>>,
    budget: Option<Budget>,
    /// The game as this player has followed it, to let the engine keep its tree.
    seen: G,
    seen_moves: usize,
}

impl<G: ArenaGame> Builtin<G> {
    /// `spec` is `random`, `mcts:<N>ms` or `mcts:<N>p`.
    pub fn from_spec(name: &str, spec: &str, seed: u64) -> Result<Builtin<G>, String> {
        let bad =
            || format!("unknown built-in player {spec:?}: use random, mcts:<N>ms or mcts:<N>p");
        let (engine, budget): (Box<dyn Engine<G>>, _) = if spec == "random" {
            (Box::new(RandomPlayer::new(seed)), None)
        } else {
            let b = spec.strip_prefix("mcts:").ok_or_else(bad)?;
            let budget = if let Some(ms) = b.strip_suffix("ms") {
                Budget::Time(Duration::from_millis(ms.parse().map_err(|_| bad())?))
            } else if let Some(p) = b.strip_suffix('p') {
                Budget::Playouts(p.parse().map_err(|_| bad())?)
            } else {
                return Err(bad());
            };
            (G::engine(seed), Some(budget))
        };
        Ok(Builtin {
            name: name.to_string(),
            engine,
            budget,
            seen: G::start(false),
            seen_moves: 0,
        })
    }
}

impl<G: ArenaGame> Player<G> for Builtin<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _color: Color) -> Result<(), EndReason> {
        self.engine.new_game();
        self.seen_moves = 0;
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move> {
        let start = Instant::now();
        if self.seen_moves == 0 {
            self.seen = turn.start.clone();
        }
        for &m in &turn.history[self.seen_moves..] {
            self.engine.observe(&self.seen, m);
            self.seen.play(m);
        }
        self.seen_moves = turn.history.len();
        // Keep a little of the budget for ourselves: the referee's clock is strict.
        let hard = start + turn.budget.mul_f64(0.9);
        let limits = match self.budget {
            None => Limits::default(),
            Some(Budget::Time(d)) => Limits::until((start + d).min(hard)),
            Some(Budget::Playouts(n)) => Limits::until(hard).with_iterations(Some(n)),
        };
        let decision = self.engine.think(turn.pos, limits);
        let result = decision
            .mv
            .ok_or_else(|| EndReason::Rules("offered no move".to_string()));
        (result, start.elapsed())
    }
}
