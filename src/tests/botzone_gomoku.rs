//! Botzone's Gomoku (15x15, freestyle) through the real binary: whole games against a random
//! player in JSON full history and keep-running, every answer checked; bad input answered in
//! Botzone's own form; simple interaction refused, since Botzone has none for Gomoku.

mod common;

use common::{renamed_copy, run_once, spawn_copied, KeptBot, XorShift};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use stonebrain::game::gomoku::{Gomoku, Point};
use stonebrain::game::{Color, Game, Outcome};

const FAST: [&str; 8] = [
    "--game",
    "gomoku",
    "--time-ms",
    "50",
    "--margin-ms",
    "10",
    "--seed",
    "13",
];

fn json_move(pos: &Gomoku, m: Option<Point>) -> String {
    match m {
        Some(p) => {
            let (x, y) = pos.coords(p);
            format!("{{\"x\":{x},\"y\":{y}}}")
        }
        None => "{\"x\":-1,\"y\":-1}".to_string(),
    }
}

fn full_history(pos: &Gomoku, requests: &[Option<Point>], responses: &[Point]) -> String {
    let req: Vec<String> = requests.iter().map(|&r| json_move(pos, r)).collect();
    let resp: Vec<String> = responses.iter().map(|&r| json_move(pos, Some(r))).collect();
    format!(
        "{{\"requests\":[{}],\"responses\":[{}]}}\n",
        req.join(","),
        resp.join(",")
    )
}

/// The bot's answer: exactly one line of JSON whose response holds integer `x` and `y`.
fn read_answer(lines: &[String]) -> Result<(i64, i64, String), String> {
    if lines.len() != 1 {
        return Err(format!("a JSON answer is one line: {lines:?}"));
    }
    let v: Value = serde_json::from_str(&lines[0]).map_err(|e| format!("{lines:?}: {e}"))?;
    let r = &v["response"];
    // The judge wants numbers, not strings holding numbers.
    let x = r["x"].as_i64().ok_or(format!("no integer x in {v}"))?;
    let y = r["y"].as_i64().ok_or(format!("no integer y in {v}"))?;
    Ok((x, y, v["debug"].as_str().unwrap_or_default().to_string()))
}

/// Plays the answer on the referee's board; it must be a legal point.
fn play_answer(pos: &mut Gomoku, (x, y): (i64, i64)) -> Result<Point, String> {
    if !(0..15).contains(&x) || !(0..15).contains(&y) {
        return Err(format!("off-board answer ({x},{y})"));
    }
    let m = pos.point(x as usize, y as usize);
    pos.try_play(m)
        .map_err(|e| format!("illegal answer ({x},{y}): {e}\n{pos}"))?;
    Ok(m)
}

/// One game against a random player, a fresh process per turn or one kept running.
fn play(keep_running: bool, us: Color, seed: u64) -> Result<Outcome, String> {
    let mut rng = XorShift::new(seed);
    let mut pos = Gomoku::default();
    let mut requests: Vec<Option<Point>> = Vec::new();
    let mut responses: Vec<Point> = Vec::new();
    let mut args = FAST.to_vec();
    if keep_running {
        args.push("--keep-running");
    }
    let mut kept = keep_running.then(|| KeptBot::start(&args));
    loop {
        let request = if pos.side_to_move() == us {
            None
        } else {
            let legal = pos.legal_moves();
            let m = legal[rng.below(legal.len())];
            pos.play(m);
            Some(m)
        };
        if let Some(outcome) = pos.outcome() {
            return Ok(outcome);
        }
        requests.push(request);
        let input = match (&mut kept, request) {
            (Some(_), Some(m)) if !responses.is_empty() => json_move(&pos, Some(m)) + "\n",
            _ => full_history(&pos, &requests, &responses),
        };
        let output = match &mut kept {
            Some(bot) => bot.send(&input),
            None => {
                let (out, err, code) = run_once(&args, &input);
                if code != Some(0) || err.contains("panicked") {
                    return Err(format!("bot failed (exit {code:?}): {err}"));
                }
                out.lines().map(str::to_string).collect()
            }
        };
        let (x, y, _) = read_answer(&output)?;
        responses.push(play_answer(&mut pos, (x, y))?);
        if let Some(outcome) = pos.outcome() {
            return Ok(outcome);
        }
    }
}

#[test]
fn full_history_games_are_legal_to_the_end() {
    for (i, us) in [Color::Black, Color::White].into_iter().enumerate() {
        if let Err(e) = play(false, us, 60 + i as u64) {
            panic!("full history as {}: {e}", us.name());
        }
    }
}

#[test]
fn keep_running_games_are_legal_to_the_end() {
    for (i, us) in [Color::Black, Color::White, Color::Black, Color::White]
        .into_iter()
        .enumerate()
    {
        if let Err(e) = play(true, us, 70 + i as u64) {
            panic!("keep-running as {}: {e}", us.name());
        }
    }
}

#[test]
fn blacks_first_turn_is_a_point_on_the_board() {
    let (out, err, code) = run_once(
        &FAST,
        "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let (x, y, debug) = read_answer(&lines).unwrap();
    assert!((0..15).contains(&x) && (0..15).contains(&y), "{out}");
    assert!(!debug.contains("warning"), "{debug}");
}

#[test]
fn a_program_named_for_gomoku_needs_no_flag() {
    let (dir, program) = renamed_copy("stonebrain-gomoku");
    // White's first turn: Black opened at (14,14), a point NoGo's 9x9 board does not have.
    let mut child = spawn_copied(
        Command::new(&program)
            .args(["--time-ms", "50"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"requests\":[{\"x\":14,\"y\":14}],\"responses\":[]}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (x, y, debug) = read_answer(&lines).unwrap();
    assert!(!debug.contains("warning"), "{debug}");
    let mut pos = Gomoku::default();
    pos.play(pos.point(14, 14));
    play_answer(&mut pos, (x, y)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

fn json_answer(out: &str) -> Value {
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected: {out:?}");
    serde_json::from_str(lines[0]).expect("the answer is JSON")
}

#[test]
fn malformed_json_gets_an_error_in_debug() {
    for input in [
        "{\"requests\":[{\"x\":-1,\n",
        // A bare request (keep-running's form) with no game before it.
        "{\"x\":1,\"y\":1}\n",
        "{\"requests\":[]}\n",
    ] {
        let (out, err, code) = run_once(&FAST, input);
        assert_eq!(code, Some(0), "{input}");
        assert!(!err.contains("panicked"), "{err}");
        let v = json_answer(&out);
        assert!(v["response"].is_null(), "{v}");
        assert!(v["debug"].as_str().unwrap().contains("error"), "{v}");
    }
}

#[test]
fn bad_moves_in_the_history_are_reported_and_a_legal_move_still_comes() {
    let cases = [
        (
            "{\"requests\":[{\"x\":15,\"y\":0}],\"responses\":[]}\n",
            "off the 15x15 board",
        ),
        (
            "{\"requests\":[{\"x\":-1,\"y\":-1},{\"x\":7,\"y\":7}],\"responses\":[{\"x\":7,\"y\":7}]}\n",
            "already occupied",
        ),
        (
            "{\"requests\":[{\"x\":\"a\",\"y\":0}],\"responses\":[]}\n",
            "not an integer",
        ),
        (
            "{\"requests\":[{\"x\":3}],\"responses\":[]}\n",
            "\\\"y\\\" is missing",
        ),
    ];
    for (input, expected) in cases {
        let (out, err, code) = run_once(&FAST, input);
        assert_eq!(code, Some(0), "{input}");
        assert!(!err.contains("panicked"), "{err}");
        let v = json_answer(&out);
        let debug = v["debug"].to_string();
        assert!(debug.contains(expected), "{input}: {debug}");
        assert!(err.contains("stonebrain:"), "stderr explains: {err}");
        let lines = vec![out.trim_end().to_string()];
        let (x, y, _) = read_answer(&lines).unwrap();
        assert!((0..15).contains(&x) && (0..15).contains(&y), "{v}");
    }
}

#[test]
fn keep_running_survives_garbage() {
    let mut args = FAST.to_vec();
    args.push("--keep-running");
    let mut bot = KeptBot::start(&args);
    let mut pos = Gomoku::default();
    let first = bot.send("{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n");
    let (x, y, _) = read_answer(&first).unwrap();
    play_answer(&mut pos, (x, y)).unwrap();
    let bad = bot.send("not json at all\n");
    let v: Value = serde_json::from_str(&bad[0]).unwrap();
    assert!(v["response"].is_null() && v["debug"].as_str().unwrap().contains("malformed JSON"));
    let free = pos.legal_moves()[0];
    pos.play(free);
    let answer = bot.send(&(json_move(&pos, Some(free)) + "\n"));
    let (x, y, _) = read_answer(&answer).unwrap();
    play_answer(&mut pos, (x, y)).unwrap();
}

#[test]
fn simple_interaction_is_refused_in_its_own_form() {
    for args in [
        vec!["--game", "gomoku"],
        vec!["--game", "gomoku", "--protocol", "botzone-simple"],
    ] {
        let (out, err, code) = run_once(&args, "1\n-1 -1\n");
        assert_eq!(code, Some(2), "{args:?}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.first(), Some(&"-1 -1"), "{out:?}");
        assert!(
            lines
                .get(1)
                .is_some_and(|l| l.contains("no simple interaction")),
            "{out:?}"
        );
        assert!(err.contains("no simple interaction"), "{err}");
    }
}
