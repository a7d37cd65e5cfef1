//! Pieces the targets' generators share: random games played by the rules (so that most input
//! is a game the bot could really be sent), numbers at the edges, and JSON of the wrong shape.

use super::mutate::EXTREMES;
use crate::game::Game;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};

/// Plays up to `plies` random legal moves from `pos`. With `focus`, moves are drawn from the
/// points it accepts whenever one is legal, so that stones crowd together and games end (a
/// five, a six, NoGo's last legal move), and moves after the end get tried.
pub fn random_game<G: Game>(
    rng: &mut SmallRng,
    mut pos: G,
    plies: usize,
    focus: Option<&dyn Fn(G::Move) -> bool>,
) -> (G, Vec<G::Move>) {
    let mut moves = Vec::new();
    // Points not played yet, the focus's first: a legal move is among them (a stone never
    // leaves the board in these games), and drawing from them costs a legality check, where
    // listing the legal moves every ply would cost a pass over the board.
    let mut all = pos.legal_moves();
    let mut near: Vec<G::Move> = match focus {
        Some(f) => all.iter().copied().filter(|&m| f(m)).collect(),
        None => Vec::new(),
    };
    'plies: for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        for list in [&mut near, &mut all] {
            // NoGo forbids some empty points: a few tries, then those points are dropped.
            for _ in 0..list.len().min(16) {
                let i = rng.gen_range(0..list.len());
                let m = list[i];
                if pos.check_move(m).is_ok() {
                    pos.play(m);
                    moves.push(m);
                    list.swap_remove(i);
                    continue 'plies;
                }
            }
            list.retain(|&m| pos.check_move(m).is_ok());
            if let Some(&m) = list.choose(rng) {
                pos.play(m);
                moves.push(m);
                list.retain(|&x| x != m);
                continue 'plies;
            }
        }
        // A NoGo point dropped earlier may have become legal since.
        all = pos.legal_moves();
        let Some(&m) = all.choose(rng) else { break };
        pos.play(m);
        moves.push(m);
    }
    (pos, moves)
}

/// How many plies a generated game has: mostly short, sometimes to the end.
pub fn plies(rng: &mut SmallRng) -> usize {
    match rng.gen_range(0..10) {
        0 => 0,
        1..=5 => rng.gen_range(1..12),
        6..=8 => rng.gen_range(12..60),
        _ => 400,
    }
}

/// How many turns of a move-by-move session ask the bot for a move: each costs a search, so
/// mostly a few, sometimes a whole game (to its end, and past it).
pub fn searched_turns(rng: &mut SmallRng) -> usize {
    match rng.gen_range(0..100) {
        0 => 200,
        1..=10 => rng.gen_range(6..20),
        _ => rng.gen_range(0..6),
    }
}

/// A Gomoku level for a generated input. The classic level (seed 000's method) scores every
/// point by matching text patterns, a millisecond a move, against microseconds for the others
/// at the fuzzer's budget: it gets one input in thirty, enough to reach all of it.
pub fn gomoku_level_name(rng: &mut SmallRng) -> &'static str {
    match rng.gen_range(0..30) {
        0 => "classic",
        1..=4 => "wintable",
        _ => "full",
    }
}

/// `true` with probability `p`.
pub fn chance(rng: &mut SmallRng, p: f64) -> bool {
    rng.gen_bool(p)
}

/// A number at the edge of some type, or a plain small one.
pub fn extreme(rng: &mut SmallRng) -> String {
    EXTREMES.choose(rng).expect("not empty").to_string()
}

/// An integer for a coordinate: mostly on a board of side `size`, sometimes just off it or far
/// away.
pub fn coordinate(rng: &mut SmallRng, size: usize) -> i64 {
    match rng.gen_range(0..10) {
        0 => -1,
        1 => size as i64,
        2 => [i64::MIN, i64::MAX, -2, 255, 256, 1 << 32]
            .choose(rng)
            .copied()
            .expect("not empty"),
        _ => rng.gen_range(0..size as i64),
    }
}

/// A JSON value of any shape, to put where a move or a list is expected.
pub fn odd_json(rng: &mut SmallRng, depth: u32) -> Value {
    match rng.gen_range(0..12) {
        0 => Value::Null,
        1 => json!(rng.gen_bool(0.5)),
        2 => json!(rng.gen_range(-3i64..20)),
        3 => json!(rng.gen::<f64>() * 1e6 - 5e5),
        4 => serde_json::from_str(&extreme(rng)).unwrap_or_else(|_| json!(extreme(rng))),
        5 => json!(extreme(rng)),
        6 => json!(""),
        7 => json!("{\"x\":1,\"y\":2}"),
        8 if depth < 4 => Value::Array(
            (0..rng.gen_range(0..4))
                .map(|_| odd_json(rng, depth + 1))
                .collect(),
        ),
        9 if depth < 4 => {
            let keys = [
                "x", "y", "x0", "y0", "x1", "y1", "response", "requests", "z", "",
            ];
            let mut map = serde_json::Map::new();
            for _ in 0..rng.gen_range(0..5) {
                let k = keys.choose(rng).expect("not empty").to_string();
                map.insert(k, odd_json(rng, depth + 1));
            }
            Value::Object(map)
        }
        _ => json!(rng.gen_range(0..15)),
    }
}

/// Joins lines with newlines, and a last newline most of the time.
pub fn lines_to_input(rng: &mut SmallRng, header: String, lines: &[String]) -> Vec<u8> {
    let mut text = header;
    text.push_str(&lines.join("\n"));
    if !lines.is_empty() && rng.gen_bool(0.9) {
        text.push('\n');
    }
    text.into_bytes()
}
