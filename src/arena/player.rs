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
    /// The project's own engine for this game, with `options` (`key=value` settings from a
    /// built-in player's spec) applied; an unknown key is an error.
    fn engine(seed: u64, options: &[(String, f64)]) -> Result<Box<dyn Engine<Self>>, String>;
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

    fn engine(seed: u64, options: &[(String, f64)]) -> Result<Box<dyn Engine<Nogo>>, String> {
        let mut config = NogoConfig {
            seed,
            ..NogoConfig::default()
        };
        let p = &mut config.mcts;
        for (key, value) in options {
            match key.as_str() {
                "c" => p.exploration = *value as f32,
                "k" => p.rave_equivalence = *value as f32,
                "prior" => p.rave_prior = *value as f32,
                "weak" => p.weak_prior = *value as f32,
                "expand" => p.expand_after = *value as u32,
                "nodes" => p.max_nodes = *value as usize,
                _ => {
                    return Err(format!(
                        "unknown NoGo engine option {key:?} (c, k, prior, weak, expand, nodes)"
                    ))
                }
            }
        }
        Ok(Box::new(NogoEngine::new(config)))
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
    /// `spec` is `random`, `mcts:<N>ms` or `mcts:<N>p`, optionally followed by engine settings:
    /// `mcts:200ms,c=0.35,k=2000`.
    pub fn from_spec(name: &str, spec: &str, seed: u64) -> Result<Builtin<G>, String> {
        let bad = || {
            format!("unknown built-in player {spec:?}: use random, mcts:<N>ms or mcts:<N>p[,key=value...]")
        };
        let mut parts = spec.split(',');
        let head = parts.next().unwrap_or("");
        let options = parts
            .map(|kv| {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| format!("expected key=value in {spec:?}, got {kv:?}"))?;
                let v: f64 = v
                    .parse()
                    .map_err(|_| format!("{k}={v} is not a number in {spec:?}"))?;
                Ok((k.to_string(), v))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let (engine, budget): (Box<dyn Engine<G>>, _) = if head == "random" && options.is_empty() {
            (Box::new(RandomPlayer::new(seed)), None)
        } else {
            let b = head.strip_prefix("mcts:").ok_or_else(bad)?;
            let budget = if let Some(ms) = b.strip_suffix("ms") {
                Budget::Time(Duration::from_millis(ms.parse().map_err(|_| bad())?))
            } else if let Some(p) = b.strip_suffix('p') {
                Budget::Playouts(p.parse().map_err(|_| bad())?)
            } else {
                return Err(bad());
            };
            (G::engine(seed, &options)?, Some(budget))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_specs_parse_with_engine_options() {
        assert!(Builtin::<Nogo>::from_spec("a", "random", 1).is_ok());
        let b = Builtin::<Nogo>::from_spec("a", "mcts:200ms,c=0.3,k=1500", 1).unwrap();
        assert_eq!(b.budget, Some(Budget::Time(Duration::from_millis(200))));
        let b = Builtin::<Nogo>::from_spec("a", "mcts:500p", 1).unwrap();
        assert_eq!(b.budget, Some(Budget::Playouts(500)));
        let err = |s: &str| Builtin::<Nogo>::from_spec("a", s, 1).err().unwrap();
        assert!(err("mcts:200ms,zz=1").contains("unknown NoGo engine option"));
        assert!(err("mcts:200ms,c=x").contains("not a number"));
        assert!(err("mcts:200ms,c").contains("expected key=value"));
        assert!(err("alphabeta:3").contains("unknown built-in player"));
        assert!(err("mcts:fast").contains("unknown built-in player"));
    }
}
