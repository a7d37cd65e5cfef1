//! `stonebrain bench <game>`: speed on fixed positions, printed as a table or as JSON lines.
//! Figures, not assertions: tests never time anything; people compare these numbers by hand.

use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::Engine;
use crate::game::nogo::{point, Nogo, NogoRules};
use crate::game::Game;
use crate::search::clock::Limits;
use std::time::Duration;

/// One measured position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub position: String,
    pub playouts: u64,
    pub seconds: f64,
    pub playouts_per_sec: f64,
}

impl BenchLine {
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "game": "nogo",
            "position": self.position,
            "playouts": self.playouts,
            "seconds": self.seconds,
            "playouts_per_sec": self.playouts_per_sec.round(),
        })
        .to_string()
    }
}

/// The first 40 moves of a fixed game, spread over the whole board, as Botzone (x, y) pairs;
/// written out here so that the bench positions never change with the code.
const NOGO_GAME: [(usize, usize); 40] = [
    (2, 2),
    (6, 6),
    (2, 6),
    (6, 2),
    (4, 4),
    (4, 1),
    (1, 4),
    (7, 4),
    (4, 7),
    (3, 3),
    (5, 5),
    (3, 5),
    (5, 3),
    (0, 0),
    (8, 8),
    (0, 8),
    (8, 0),
    (1, 1),
    (7, 7),
    (1, 7),
    (7, 1),
    (2, 4),
    (6, 4),
    (4, 2),
    (4, 6),
    (3, 7),
    (5, 1),
    (0, 3),
    (8, 5),
    (3, 0),
    (5, 8),
    (6, 8),
    (2, 0),
    (0, 5),
    (8, 3),
    (1, 6),
    (7, 2),
    (3, 1),
    (5, 7),
    (0, 6),
];

/// The bench positions: the empty board, and the fixed game after 20 and 40 moves.
pub fn nogo_positions() -> Vec<(String, Nogo)> {
    let mut out = Vec::new();
    let mut pos = Nogo::new(NogoRules::default());
    out.push(("empty".to_string(), pos.clone()));
    for (i, &(x, y)) in NOGO_GAME.iter().enumerate() {
        pos.try_play(point(x, y)).expect("bench game is legal");
        if i + 1 == 20 || i + 1 == 40 {
            out.push((format!("after-{}", i + 1), pos.clone()));
        }
    }
    out
}

/// Runs a fresh single-threaded MCTS for `seconds` on each position.
pub fn bench_nogo(seconds: f64) -> Vec<BenchLine> {
    nogo_positions()
        .into_iter()
        .map(|(name, pos)| {
            let mut engine = NogoEngine::new(NogoConfig {
                reuse_tree: false,
                ..NogoConfig::default()
            });
            let d = engine.think(&pos, Limits::time(Duration::from_secs_f64(seconds)));
            let secs = d.elapsed.as_secs_f64();
            BenchLine {
                position: name,
                playouts: d.work,
                seconds: secs,
                playouts_per_sec: d.work as f64 / secs.max(1e-9),
            }
        })
        .collect()
}
