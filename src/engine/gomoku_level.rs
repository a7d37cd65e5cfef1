//! Gomoku playing levels, selectable for class use and for testing: `wintable` (the win-table
//! method of seed 004), `classic` (the ten scoring rules of seed 000, step 8) and `full` (the
//! search engine, the default).

use super::gomoku::{GomokuConfig, GomokuEngine};
use super::random::RandomPlayer;
use super::Engine;
use crate::game::gomoku::Gomoku;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Level {
    Wintable,
    Classic,
    #[default]
    Full,
}

impl Level {
    pub fn parse(s: &str) -> Result<Level, String> {
        match s {
            "wintable" => Ok(Level::Wintable),
            "classic" => Ok(Level::Classic),
            "full" => Ok(Level::Full),
            _ => Err(format!(
                "unknown Gomoku level {s:?}: wintable, classic or full"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Level::Wintable => "wintable",
            Level::Classic => "classic",
            Level::Full => "full",
        }
    }
}

/// The engine of a level. (The `wintable` and `classic` players are being written; until then
/// they are the random player.)
pub fn build(level: Level, seed: u64) -> Box<dyn Engine<Gomoku>> {
    match level {
        Level::Full => Box::new(GomokuEngine::new(GomokuConfig {
            seed,
            ..GomokuConfig::default()
        })),
        Level::Wintable | Level::Classic => Box::new(RandomPlayer::new(seed)),
    }
}
