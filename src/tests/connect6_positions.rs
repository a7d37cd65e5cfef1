//! The engine against `test_vectors/connect6/positions.txt`: wins this turn, the only defence,
//! forced wins by continuous double threats, and lost positions, each within the node budget
//! the file states.
//!
//! The hand analysis in the file is checked too, by the rules alone (which have their own tests
//! against a from-scratch reference): that a claimed defence is the only one, that a lost
//! position has three threats against the mover, and that a claimed N-turn win has no shorter
//! one. And a claimed forced win is not taken on the engine's word: its line is followed through
//! every defence the rules allow, until six in a row or three threats (which two stones cannot
//! stop) with no win for the defender in between.

use stonebrain::engine::connect6::{Connect6Config, Connect6Engine};
use stonebrain::engine::Engine;
use stonebrain::game::connect6::{Connect6, Connect6Rules, Stone};
use stonebrain::game::{Color, Game};
use stonebrain::search::clock::Limits;

struct Case {
    name: String,
    pos: Connect6,
    expect: String,
    nodes: u64,
}

fn cell(pos: &Connect6, name: &str) -> Stone {
    let b = name.as_bytes();
    assert_eq!(b.len(), 2, "bad cell {name:?}");
    let (x, y) = ((b[0] - b'A') as usize, (b[1] - b'A') as usize);
    assert!(x < pos.size() && y < pos.size(), "off-board cell {name:?}");
    pos.point(x, y)
}

fn cell_name(pos: &Connect6, p: Stone) -> String {
    let (x, y) = pos.coords(p);
    format!("{}{}", (b'A' + x as u8) as char, (b'A' + y as u8) as char)
}

fn colour(s: &str) -> Color {
    match s {
        "black" => Color::Black,
        "white" => Color::White,
        _ => panic!("bad colour {s:?}"),
    }
}

fn load() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/test_vectors/connect6/positions.txt"
    );
    let text = std::fs::read_to_string(path).expect("positions file");
    let mut cases = Vec::new();
    for block in text.split("\n\n") {
        let fields: Vec<(&str, &str)> = block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with(' '))
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        let get = |k: &str| fields.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
        let Some(name) = get("name") else { continue };
        let mut pos = Connect6::new(Connect6Rules::SAU);
        for c in ["black", "white"] {
            for s in get(c).unwrap_or("").split_whitespace() {
                pos.set_turn(colour(c), 2);
                let p = cell(&pos, s);
                pos.try_play(p)
                    .unwrap_or_else(|e| panic!("{name}: {s}: {e}"));
            }
        }
        let to_move: Vec<&str> = get("to-move")
            .expect("to-move")
            .split_whitespace()
            .collect();
        pos.set_turn(colour(to_move[0]), to_move[1].parse().expect("stones left"));
        assert!(pos.outcome().is_none(), "{name}: the game is already over");
        cases.push(Case {
            name: name.to_string(),
            pos,
            expect: get("expect").expect("expect").to_string(),
            nodes: get("nodes").expect("nodes").parse().expect("nodes"),
        });
    }
    cases
}

/// The engine's whole turn from `pos`, each stone within `nodes`.
fn engine_turn(
    engine: &mut Connect6Engine,
    pos: &Connect6,
    nodes: u64,
) -> (Vec<Stone>, Option<f32>) {
    let mut p = pos.clone();
    let side = p.side_to_move();
    let mut turn = Vec::new();
    let mut rate = None;
    while p.outcome().is_none() && p.side_to_move() == side {
        let d = engine.think(&p, Limits::iterations(nodes));
        if turn.is_empty() {
            rate = d.win_rate;
        }
        let m = d.mv.expect("a stone while the game is on");
        p.try_play(m).expect("a legal stone");
        turn.push(m);
    }
    (turn, rate)
}

fn play_all(pos: &Connect6, stones: &[Stone]) -> Connect6 {
    let mut p = pos.clone();
    for &s in stones {
        p.try_play(s).expect("legal");
    }
    p
}

/// Whether the side to move can, with one pair, leave three threats (so that it wins next turn
/// whatever the defence) while the opponent has no win of its own: a two-turn win. Tries every
/// pair of empty cells.
fn has_two_turn_win(pos: &Connect6) -> bool {
    let me = pos.side_to_move();
    let empty = pos.legal_moves();
    let mut p = pos.clone();
    for (i, &a) in empty.iter().enumerate() {
        p.play(a);
        for &b in &empty[i + 1..] {
            p.play(b);
            if p.threats(me) >= 3 && p.immediate_win(me.opponent(), 2).is_none() {
                return true;
            }
            p.undo(b);
        }
        p.undo(a);
    }
    false
}

/// Follows the engine's line from `pos` (its side to move) through every defence; true if it
/// wins within `turns` of its own turns.
fn proves_win(
    engine: &mut Connect6Engine,
    pos: &Connect6,
    turns: u32,
    nodes: u64,
    line: &mut Vec<String>,
) -> bool {
    if turns == 0 {
        return false;
    }
    let me = pos.side_to_move();
    let (turn, _) = engine_turn(engine, pos, nodes);
    line.push(
        turn.iter()
            .map(|&s| cell_name(pos, s))
            .collect::<Vec<_>>()
            .join(" "),
    );
    let after = play_all(pos, &turn);
    if after.winner() == Some(me) {
        return true;
    }
    if after.immediate_win(me.opponent(), 2).is_some() || turns == 1 {
        return false;
    }
    match after.threats(me) {
        0 | 1 => false,
        2 => after.blocking_sets(me, 2).into_iter().all(|d| {
            // Two threats: both defending stones are forced, so the defences are listed exactly.
            d.len() == 2 && {
                let defended = play_all(&after, &d);
                defended.winner().is_none() && proves_win(engine, &defended, turns - 1, nodes, line)
            }
        }),
        // Three or more: no pair of cells stops them all, and the defender cannot win first.
        _ => turns >= 2,
    }
}

#[test]
fn the_engine_solves_every_position() {
    let cases = load();
    assert!(cases.len() >= 12, "only {} positions", cases.len());
    for case in cases {
        let name = &case.name;
        let pos = &case.pos;
        let me = pos.side_to_move();
        let them = me.opponent();
        let mut engine = Connect6Engine::new(Connect6Config::default());
        let words: Vec<&str> = case.expect.split_whitespace().collect();
        let (turn, rate) = engine_turn(&mut engine, pos, case.nodes);
        let shown: Vec<String> = turn.iter().map(|&s| cell_name(pos, s)).collect();
        match words[0] {
            "win-now" => {
                assert!(
                    pos.immediate_win(me, pos.stones_left_in_turn()).is_some(),
                    "{name}: claim"
                );
                assert_eq!(
                    play_all(pos, &turn).winner(),
                    Some(me),
                    "{name}: played {shown:?}"
                );
            }
            "block" => {
                let mut want: Vec<Stone> = words[1..].iter().map(|w| cell(pos, w)).collect();
                want.sort_unstable();
                assert_eq!(
                    pos.blocking_sets(them, 2),
                    vec![want.clone()],
                    "{name}: claim"
                );
                assert!(pos.immediate_win(me, 2).is_none(), "{name}: claim");
                let mut got = turn.clone();
                got.sort_unstable();
                assert_eq!(got, want, "{name}: played {shown:?}");
            }
            "block-one" => {
                let want = cell(pos, words[1]);
                assert_eq!(pos.threats(them), 1, "{name}: claim");
                assert!(
                    pos.blocking_sets(them, 2).iter().all(|s| s.contains(&want)),
                    "{name}: claim"
                );
                assert!(turn.contains(&want), "{name}: played {shown:?}");
                assert_eq!(
                    play_all(pos, &turn).threats(them),
                    0,
                    "{name}: played {shown:?}"
                );
            }
            "block-all" => {
                assert_eq!(pos.threats(them), 2, "{name}: claim");
                assert!(pos.blocking_sets(them, 2).len() > 1, "{name}: claim");
                assert_eq!(
                    play_all(pos, &turn).threats(them),
                    0,
                    "{name}: played {shown:?}"
                );
            }
            "play" => {
                let want: Vec<Stone> = words[1..].iter().map(|w| cell(pos, w)).collect();
                assert_eq!(turn, want, "{name}: played {shown:?}");
            }
            "lost" => {
                assert!(pos.threats(them) >= 3, "{name}: claim");
                assert!(pos.immediate_win(me, 2).is_none(), "{name}: claim");
                assert_eq!(rate, Some(0.0), "{name}: the engine should know it is lost");
                assert_eq!(turn.len(), 2, "{name}: still a whole turn");
            }
            "vcdt" => {
                let n: u32 = words[1].parse().unwrap();
                assert!(pos.immediate_win(me, 2).is_none(), "{name}: claim");
                if n >= 3 {
                    assert!(
                        !has_two_turn_win(pos),
                        "{name}: claim: a two-turn win exists"
                    );
                }
                assert_eq!(
                    rate,
                    Some(1.0),
                    "{name}: the engine should know it wins ({shown:?})"
                );
                let mut line = Vec::new();
                assert!(
                    proves_win(&mut engine, pos, n, case.nodes, &mut line),
                    "{name}: the line {line:?} is not a forced win in {n}"
                );
            }
            other => panic!("{name}: unknown expectation {other:?}"),
        }
    }
}
