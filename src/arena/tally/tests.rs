use super::*;
use crate::arena::record::{EndReason, GameRecord, MoveRecord};
use crate::arena::stats::PairTally;
use crate::game::Color;

/// A NoGo record as the arena writes it, numbered `index`, Black winning when `black_wins`.
fn line(black: &str, white: &str, black_wins: bool, index: u32) -> String {
    let moves = [(4, 4, Color::Black, 800), (2, 2, Color::White, 300)]
        .map(|(x, y, color, millis)| MoveRecord {
            x,
            y,
            color,
            millis,
        })
        .to_vec();
    let record = GameRecord {
        game: "nogo".into(),
        board_size: 9,
        black: black.into(),
        white: white.into(),
        moves,
        winner: Some(if black_wins {
            Color::Black
        } else {
            Color::White
        }),
        reason: EndReason::Rules("no legal move".into()),
        time_used_ms: [800, 300],
        opening: None,
    };
    let mut v = record.to_json();
    v["index"] = index.into();
    v.to_string()
}

fn run_of(name: &str, lines: &[String]) -> (String, Vec<TalliedGame>) {
    (name.into(), read_games(&lines.join("\n"), name).unwrap())
}

#[test]
fn the_arena_s_records_read_back() {
    let games = read_games(&line("a", "b", false, 7), "f.jsonl").unwrap();
    assert_eq!(
        games,
        vec![TalliedGame {
            black: "a".into(),
            white: "b".into(),
            winner: Some("white".into()),
            index: Some(7),
            turn_ms: [vec![800], vec![300]],
        }]
    );
}

#[test]
fn pairs_follow_the_game_numbers_not_the_order_of_the_lines() {
    // Two games at a time: game 1 ended before game 0, game 3 before game 2.
    // Pair 0: a loses as Black (game 0), wins as White (game 1): 1 point.
    // Pair 1: a wins as Black (game 2) and as White (game 3): 2 points.
    let run = run_of(
        "r.jsonl",
        &[
            line("b", "a", false, 1),
            line("a", "b", false, 0),
            line("b", "a", false, 3),
            line("a", "b", true, 2),
        ],
    );
    let t = tally(&[run], "a").unwrap();
    assert_eq!(t.score.pairs, PairTally::new([0, 0, 1, 0, 1]));
    assert_eq!((t.score.games.wins, t.score.games.losses), (3, 1));
    assert_eq!(t.by_colour, [(1, 2), (2, 2)]);
    assert_eq!(t.opponents, vec![("b".to_string(), 4)]);
    // Read as consecutive lines, the first two would have made a 2-point pair.
    assert_eq!(t.score.unpaired(), 0);
}

#[test]
fn runs_are_pooled_without_a_pair_across_two_of_them() {
    // The first run was stopped after three games: its game 2 has no partner.
    let first = run_of(
        "one.jsonl",
        &[
            line("a", "b", true, 0),
            line("b", "a", true, 1),
            line("a", "b", true, 2),
        ],
    );
    let second = run_of(
        "two.jsonl",
        &[line("a", "c", false, 0), line("c", "a", true, 1)],
    );
    let t = tally(&[first, second], "a").unwrap();
    assert_eq!(t.score.pairs, PairTally::new([1, 0, 1, 0, 0]));
    assert_eq!(t.score.unpaired(), 1);
    assert_eq!(t.score.games.games(), 5);
    assert_eq!(
        t.opponents,
        vec![("b".to_string(), 3), ("c".to_string(), 2)]
    );
    assert_eq!(t.turn_ms, vec![800, 300, 800, 800, 300]);
}

#[test]
fn files_without_game_numbers_pair_consecutive_lines() {
    let old: Vec<String> = [line("a", "b", true, 0), line("b", "a", true, 1)]
        .iter()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("index");
            v.to_string()
        })
        .collect();
    let t = tally(&[run_of("old.jsonl", &old)], "a").unwrap();
    assert_eq!(t.unnumbered_runs, 1);
    assert_eq!(t.score.pairs, PairTally::new([0, 0, 1, 0, 0]));
}

#[test]
fn connect6_turns_are_timed_on_their_first_stone() {
    let text = r#"{"black":"a","white":"b","winner":"black","colors":"BWWBBW","move_ms":[5,40,0,60,0,70],"index":0}"#;
    let games = read_games(text, "c6.jsonl").unwrap();
    assert_eq!(games[0].turn_ms, [vec![5, 60], vec![40, 70]]);
}

#[test]
fn bad_files_are_named_with_their_line() {
    let good = line("a", "b", true, 0);
    let err = read_games(&format!("{good}\n{{\"black\": "), "x.jsonl").unwrap_err();
    assert!(
        err.starts_with("x.jsonl, line 2: not a game record"),
        "{err}"
    );
    let err = read_games(r#"{"black":"a","white":"b","winner":"red"}"#, "y.jsonl").unwrap_err();
    assert!(
        err.contains("y.jsonl, line 1") && err.contains("\"red\""),
        "{err}"
    );
    let err = read_games(r#"{"white":"b","winner":null}"#, "z.jsonl").unwrap_err();
    assert!(err.contains("no \"black\""), "{err}");
    let err = read_games(r#"{"black":"a","white":"b","index":-3}"#, "w.jsonl").unwrap_err();
    assert!(err.contains("not a game number"), "{err}");
}

#[test]
fn a_game_without_the_engine_is_refused() {
    let run = run_of(
        "r.jsonl",
        &[line("a", "b", true, 0), line("c", "b", true, 1)],
    );
    let err = tally(&[run], "a").unwrap_err();
    assert_eq!(err, "r.jsonl: game 2 is c against b, without a");
}
