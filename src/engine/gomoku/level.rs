//! Gomoku playing levels, selectable for class use and for testing: `wintable` (the win-table
//! method of seed 004), `classic` (the ten scoring rules of seed 000, step 8) and `full` (the
//! search engine, the default).

use super::classic::GomokuClassic;
use super::wintable::GomokuWintable;
use super::{GomokuConfig, GomokuEngine};
use crate::engine::Engine;
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

/// The engine of a level: `wintable` and `classic` are the seeds' teaching players
/// (`wintable.rs`, `classic.rs`); `seed` breaks their ties between equal points.
// `GomokuConfig` has only the seed for now; the `full` arm is written for the fields its owner
// will add, so the struct update stays.
#[allow(clippy::needless_update)]
pub fn build(level: Level, seed: u64) -> Box<dyn Engine<Gomoku>> {
    match level {
        Level::Full => Box::new(GomokuEngine::new(GomokuConfig {
            seed,
            ..GomokuConfig::default()
        })),
        Level::Classic => Box::new(GomokuClassic::new(seed)),
        Level::Wintable => Box::new(GomokuWintable::new(seed)),
    }
}
