//! `stonebrain bench <game>`: speed on fixed positions, printed as a table or as JSON lines.
//! Figures, not assertions: tests never time anything; people compare these numbers by hand.

use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::engine::gomoku::{GomokuConfig, GomokuEngine};
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::Engine;
use crate::game::connect6::{Connect6, Connect6Rules};
use crate::game::gomoku::{Gomoku, GomokuRules};
use crate::game::nogo::{point, Nogo, NogoRules};
use crate::game::{Color, Game};
use crate::search::clock::Limits;
use std::time::Duration;

/// One measured position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// "mcts" (the playout search, no network) or "puct" (the default, with the network).
    pub search: &'static str,
    pub position: String,
    pub playouts: u64,
    pub seconds: f64,
    pub playouts_per_sec: f64,
}

impl BenchLine {
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "game": "nogo",
            "search": self.search,
            "position": self.position,
            "playouts": self.playouts,
            "seconds": self.seconds,
            "playouts_per_sec": self.playouts_per_sec.round(),
        })
        .to_string()
    }
}

/// The network's speed on one position: evaluations a second, one at a time on one core.
#[derive(Clone, Debug)]
pub struct NetworkBenchLine {
    pub position: String,
    /// Which network: its size, and whether it is the built-in one or random weights.
    pub network: String,
    pub evals: u64,
    pub seconds: f64,
    pub evals_per_sec: f64,
}

impl NetworkBenchLine {
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "game": "nogo",
            "kind": "network",
            "network": self.network,
            "position": self.position,
            "evals": self.evals,
            "seconds": self.seconds,
            "evals_per_sec": self.evals_per_sec.round(),
        })
        .to_string()
    }
}

/// The network's forward pass on the bench positions, for `seconds` each: the network built
/// into the binary (random weights of its size would cost the same: the hidden layers skip
/// nothing).
pub fn bench_nogo_network(seconds: f64) -> Vec<NetworkBenchLine> {
    use crate::engine::nogo::features::planes;
    use crate::engine::nogo::network::{builtin, Precision};
    let mut lines = Vec::new();
    for (precision, label) in [(Precision::Float, ""), (Precision::Int8, " int8")] {
        let net =
            builtin::network_at(precision).expect("the built-in network reads (a test holds it)");
        let name = format!(
            "{}x{} {}{label}",
            net.blocks(),
            net.channels(),
            builtin::NAME
        );
        lines.extend(nogo_positions().into_iter().map(|(position, pos)| {
            let input = planes(&pos);
            let start = std::time::Instant::now();
            let mut evals = 0u64;
            let mut sink = 0.0f32;
            while start.elapsed().as_secs_f64() < seconds {
                sink += net.evaluate(&input).value;
                evals += 1;
            }
            let secs = start.elapsed().as_secs_f64();
            std::hint::black_box(sink);
            NetworkBenchLine {
                position,
                network: name.clone(),
                evals,
                seconds: secs,
                evals_per_sec: evals as f64 / secs,
            }
        }));
    }
    lines
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

/// Runs a fresh single-threaded MCTS (the playout search, no network) for `seconds` on each
/// position.
pub fn bench_nogo(seconds: f64) -> Vec<BenchLine> {
    bench_nogo_search("mcts", seconds, NogoEngine::new)
}

/// Runs the default search, PUCT driven by the built-in network with the default settings
/// (`NetOptions::default()`), fresh on each position for `seconds`: leaves judged a second,
/// the figure a turn's strength rests on (network, playouts and tree together).
pub fn bench_nogo_puct(seconds: f64) -> Vec<BenchLine> {
    use crate::engine::nogo::network::builtin;
    use crate::engine::nogo::options::NetOptions;
    let options = NetOptions::default();
    let net = builtin::network_at(options.net_precision.precision())
        .expect("the built-in network reads (a test holds it)");
    bench_nogo_search("puct", seconds, |config| {
        NogoEngine::advised(config, net.clone(), options.advice())
    })
}

/// One fresh engine of `make` (without tree reuse) on each bench position for `seconds`; its
/// work a second (playouts, or PUCT's leaves) is the line's figure.
fn bench_nogo_search(
    search: &'static str,
    seconds: f64,
    make: impl Fn(NogoConfig) -> NogoEngine,
) -> Vec<BenchLine> {
    nogo_positions()
        .into_iter()
        .map(|(name, pos)| {
            let mut engine = make(NogoConfig {
                reuse_tree: false,
                ..NogoConfig::default()
            });
            let d = engine.think(&pos, Limits::time(Duration::from_secs_f64(seconds)));
            let secs = d.elapsed.as_secs_f64();
            BenchLine {
                search,
                position: name,
                playouts: d.work,
                seconds: secs,
                playouts_per_sec: d.work as f64 / secs.max(1e-9),
            }
        })
        .collect()
}

/// One measured position of an alpha-beta engine (Connect6, Gomoku): search speed on a quiet
/// position, or the time to prove a forced win on a tactical one.
#[derive(Clone, Debug)]
pub struct SearchBenchLine {
    pub game: &'static str,
    pub position: String,
    /// "speed" or "solve".
    pub kind: &'static str,
    pub nodes: u64,
    pub seconds: f64,
    pub nodes_per_sec: f64,
    /// For "solve" positions: whether the win was proved within the time.
    pub solved: Option<bool>,
}

impl SearchBenchLine {
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "game": self.game,
            "position": self.position,
            "kind": self.kind,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "nodes_per_sec": self.nodes_per_sec.round(),
            "solved": self.solved,
        })
        .to_string()
    }
}

/// The Connect6 bench positions (19x19, SAU letters: column then row), fixed here so that they
/// never change with the code or the test files: (name, kind, side to move, Black, White).
/// The "speed" ones are quiet positions (no threat on either side) from an early self-play
/// game; the "solve" ones are the forced wins of `test_vectors/connect6/positions.txt`.
const CONNECT6_POSITIONS: [(&str, &str, Color, &str, &str); 6] = [
    ("ply-7", "speed", Color::Black, "JJ HJ IK", "II JH KI GI"),
    (
        "ply-13",
        "speed",
        Color::White,
        "JJ HJ IK LJ KJ HI KH",
        "II JH KI GI IJ JI",
    ),
    (
        "ply-25",
        "speed",
        Color::White,
        "JJ HJ IK LJ KJ HI KH GE MJ MI JF IH JG",
        "II JH KI GI IJ JI IG HF OJ LI KG IE",
    ),
    (
        "vcdt-2",
        "solve",
        Color::Black,
        "FF GF HF OK OL OM",
        "AA SA AS SS",
    ),
    (
        "vcdt-3",
        "solve",
        Color::Black,
        "HJ IJ JK JL KH KI",
        "AA SA AS SS",
    ),
    (
        "vcdt-3-white",
        "solve",
        Color::White,
        "AA SA AS SS",
        "JH JI KJ LJ HK IK",
    ),
];

fn connect6_position(to_move: Color, black: &str, white: &str) -> Connect6 {
    let mut pos = Connect6::new(Connect6Rules::SAU);
    for (c, stones) in [(Color::Black, black), (Color::White, white)] {
        for s in stones.split_whitespace() {
            let b = s.as_bytes();
            pos.set_turn(c, 2);
            pos.play(pos.point((b[0] - b'A') as usize, (b[1] - b'A') as usize));
        }
    }
    pos.set_turn(to_move, 2);
    pos
}

/// Runs a fresh engine for up to `seconds` on each Connect6 position.
pub fn bench_connect6(seconds: f64) -> Vec<SearchBenchLine> {
    CONNECT6_POSITIONS
        .iter()
        .map(|&(name, kind, to_move, black, white)| {
            let pos = connect6_position(to_move, black, white);
            // The search is what is timed: the prepared book's turns would answer at once.
            let mut engine = Connect6Engine::new(Connect6Config {
                prepared: false,
                ..Connect6Config::default()
            });
            let d = engine.think(&pos, Limits::time(Duration::from_secs_f64(seconds)));
            let secs = d.elapsed.as_secs_f64();
            SearchBenchLine {
                game: "connect6",
                position: name.to_string(),
                kind,
                nodes: d.work,
                seconds: secs,
                nodes_per_sec: d.work as f64 / secs.max(1e-9),
                solved: (kind == "solve").then(|| d.win_rate == Some(1.0)),
            }
        })
        .collect()
}

/// The Gomoku bench positions (15x15 freestyle, seed-000 letters: column then row), as the
/// moves of each side, alternating from Black: (name, kind, Black, White). The "speed" ones are
/// quiet openings from the engine's self-play; the "solve" ones are forced wins from
/// `test_vectors/gomoku/positions.txt` (a five-move VCF, a four-move VCF, and a VCT).
pub(crate) const GOMOKU_POSITIONS: [(&str, &str, &str, &str); 6] = [
    ("ply-4", "speed", "HH GH", "GI FH"),
    ("ply-6", "speed", "HH GH HJ", "GI FH HI"),
    ("ply-8", "speed", "HH HJ HI IG", "JH HF HK JF"),
    (
        "vcf-5",
        "solve",
        "HE JG GK HF JK EG JH GG",
        "FI KK FH KG JI IJ II",
    ),
    (
        "vcf-4",
        "solve",
        "EK FF FE IH EG JJ EJ",
        "JE GI GF KF JF FI",
    ),
    ("vct", "solve", "GH HH IF IG", "BB BN NB NN"),
];

pub(crate) fn gomoku_position(black: &str, white: &str) -> Gomoku {
    let mut pos = Gomoku::new(GomokuRules::default());
    let at = |pos: &Gomoku, s: &str| {
        let b = s.as_bytes();
        pos.point((b[0] - b'A') as usize, (b[1] - b'A') as usize)
    };
    let (b, w): (Vec<&str>, Vec<&str>) = (
        black.split_whitespace().collect(),
        white.split_whitespace().collect(),
    );
    for (i, s) in b.iter().enumerate() {
        let p = at(&pos, s);
        pos.play(p);
        if let Some(s) = w.get(i) {
            let p = at(&pos, s);
            pos.play(p);
        }
    }
    pos
}

/// Runs a fresh `full` engine for up to `seconds` on each Gomoku position (same line format as
/// Connect6's).
pub fn bench_gomoku(seconds: f64) -> Vec<SearchBenchLine> {
    GOMOKU_POSITIONS
        .iter()
        .map(|&(name, kind, black, white)| {
            let pos = gomoku_position(black, white);
            let mut engine = GomokuEngine::new(GomokuConfig::default());
            let d = engine.think(&pos, Limits::time(Duration::from_secs_f64(seconds)));
            let secs = d.elapsed.as_secs_f64();
            SearchBenchLine {
                game: "gomoku",
                position: name.to_string(),
                kind,
                nodes: d.work,
                seconds: secs,
                nodes_per_sec: d.work as f64 / secs.max(1e-9),
                solved: (kind == "solve").then(|| d.win_rate == Some(1.0)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nogo_bench_names_each_search_in_its_lines() {
        let lines: Vec<BenchLine> = bench_nogo(0.02)
            .into_iter()
            .chain(bench_nogo_puct(0.02))
            .collect();
        let searches: Vec<&str> = lines.iter().map(|l| l.search).collect();
        assert_eq!(searches, ["mcts", "mcts", "mcts", "puct", "puct", "puct"]);
        for line in &lines {
            assert!(line.playouts > 0, "{line:?}");
            let json: serde_json::Value = serde_json::from_str(&line.to_json()).unwrap();
            assert_eq!(json["search"], line.search);
            assert_eq!(json["position"], line.position.as_str());
        }
    }
}
