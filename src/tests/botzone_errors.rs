//! Bad input through the real binary: a clear message, no panic, and a legal move whenever the
//! position can still be rebuilt.

mod common;

use common::{parse_answer, run_once, KeptBot, Mode};
use stonebrain::game::nogo::{point, Nogo, NogoRules};
use stonebrain::game::Game;

const FAST: [&str; 6] = ["--playouts", "300", "--seed", "1", "--time-ms", "60000"];

fn json_answer(stdout: &str) -> serde_json::Value {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "exactly one output line expected, got {stdout:?}"
    );
    serde_json::from_str(lines[0]).expect("the answer is JSON")
}

fn assert_no_panic(stderr: &str) {
    assert!(!stderr.contains("panicked"), "the bot panicked: {stderr}");
}

/// Rebuilds the position from (x, y) moves, Black first, and checks the answer is legal there.
fn assert_legal_after(moves: &[(usize, usize)], stdout: &str, mode: Mode) {
    let mut pos = Nogo::new(NogoRules::default());
    for &(x, y) in moves {
        pos.try_play(point(x, y)).expect("test history is legal");
    }
    let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    let m = parse_answer(mode, &lines)
        .expect("readable answer")
        .expect("a move, not a pass");
    assert!(pos.is_legal(m), "answer {m} is illegal in\n{pos}");
}

#[test]
fn malformed_json_gets_an_error_in_debug_and_no_move() {
    let (out, err, code) = run_once(&FAST, "{\"requests\":[{\"x\":-1,\n");
    assert_eq!(code, Some(0));
    assert_no_panic(&err);
    // The line `{"requests":[{"x":-1,` is cut: detection sees JSON, parsing fails.
    let v = json_answer(&out);
    assert!(v["response"].is_null());
    assert!(
        v["debug"].as_str().unwrap().contains("malformed JSON"),
        "{v}"
    );
    assert!(
        err.contains("malformed JSON"),
        "stderr should explain: {err}"
    );
}

#[test]
fn json_that_is_not_an_object_is_refused_clearly() {
    let (out, err, code) = run_once(&["--protocol", "botzone"], "[1,2,3]\n");
    assert_eq!(code, Some(0));
    assert_no_panic(&err);
    assert!(json_answer(&out)["debug"]
        .as_str()
        .unwrap()
        .contains("expected a JSON object"));
}

#[test]
fn missing_or_empty_requests_are_refused_clearly() {
    let (out, err, _) = run_once(&FAST, "{\"requests\":[],\"responses\":[]}\n");
    assert_no_panic(&err);
    assert!(json_answer(&out)["debug"]
        .as_str()
        .unwrap()
        .contains("\"requests\" is empty"));
    let (out, err, _) = run_once(&FAST, "{\"requests\":{\"x\":1},\"responses\":[]}\n");
    assert_no_panic(&err);
    assert!(json_answer(&out)["debug"]
        .as_str()
        .unwrap()
        .contains("must be a list"));
}

#[test]
fn occupied_point_in_history_is_reported_and_a_legal_move_still_comes() {
    // Black (us) played (2,2); White's request claims (2,2) again, then a real move.
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1},{\"x\":2,\"y\":2}],\"responses\":[{\"x\":2,\"y\":2}]}\n";
    let (out, err, code) = run_once(&FAST, input);
    assert_eq!(code, Some(0));
    assert_no_panic(&err);
    let v = json_answer(&out);
    let debug = v["debug"].as_str().unwrap();
    assert!(debug.contains("already occupied"), "{debug}");
    assert!(err.contains("already occupied"), "{err}");
    // The bad request was skipped, so Black is to move again after (2,2): rebuild and check.
    let mut pos = Nogo::new(NogoRules::default());
    pos.play(point(2, 2));
    let m = parse_answer(Mode::Json, &[out.trim().to_string()])
        .unwrap()
        .unwrap();
    assert!(pos.color_at(m).is_none(), "answer must be an empty point");
}

#[test]
fn off_board_move_in_history_is_reported() {
    let input = "{\"requests\":[{\"x\":9,\"y\":3}],\"responses\":[]}\n";
    let (out, err, _) = run_once(&FAST, input);
    assert_no_panic(&err);
    let v = json_answer(&out);
    assert!(
        v["debug"].as_str().unwrap().contains("off the 9x9 board"),
        "{v}"
    );
    // The position is the empty board, so any empty point is legal.
    assert_legal_after(&[], &out, Mode::Json);
}

#[test]
fn non_integer_coordinates_are_reported() {
    let input = "{\"requests\":[{\"x\":\"a\",\"y\":3}],\"responses\":[]}\n";
    let (out, err, _) = run_once(&FAST, input);
    assert_no_panic(&err);
    assert!(json_answer(&out)["debug"]
        .as_str()
        .unwrap()
        .contains("not an integer"));
}

#[test]
fn a_rule_breaking_history_move_is_kept_and_reported() {
    // White surrounds the corner (0,0) with (1,0) and (0,1); then Black "plays" (0,0), which is
    // suicide. Botzone would have ended the game; we keep the stone and still answer legally.
    // Black: (4,4) (8,8) then suicide (0,0); White: (1,0) (0,1). We are White.
    let input = concat!(
        "{\"requests\":[{\"x\":4,\"y\":4},{\"x\":8,\"y\":8},{\"x\":0,\"y\":0}],",
        "\"responses\":[{\"x\":1,\"y\":0},{\"x\":0,\"y\":1}]}\n"
    );
    let (out, err, _) = run_once(&FAST, input);
    assert_no_panic(&err);
    let v = json_answer(&out);
    let debug = v["debug"].as_str().unwrap();
    assert!(
        debug.contains("suicide") && debug.contains("kept as given"),
        "{debug}"
    );
    let m = parse_answer(Mode::Json, &[out.trim().to_string()])
        .unwrap()
        .unwrap();
    assert!(![
        point(4, 4),
        point(8, 8),
        point(0, 0),
        point(1, 0),
        point(0, 1)
    ]
    .contains(&m));
}

#[test]
fn history_that_does_not_alternate_is_reported() {
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1},{\"x\":3,\"y\":3}],\"responses\":[]}\n";
    let (out, err, _) = run_once(&FAST, input);
    assert_no_panic(&err);
    let debug = json_answer(&out)["debug"].as_str().unwrap().to_string();
    assert!(debug.contains("does not alternate"), "{debug}");
}

#[test]
fn responses_given_as_json_strings_are_accepted() {
    // Botzone's judge accepts a response stored as a string; the history may carry that form.
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1},{\"x\":3,\"y\":3}],\"responses\":[\"{\\\"x\\\":5,\\\"y\\\":5}\"]}\n";
    let (out, err, _) = run_once(&FAST, input);
    assert_no_panic(&err);
    assert!(
        !json_answer(&out)["debug"]
            .as_str()
            .unwrap()
            .contains("warning"),
        "{out}"
    );
    assert_legal_after(&[(5, 5), (3, 3)], &out, Mode::Json);
}

#[test]
fn empty_input_and_blank_lines_end_quietly_with_a_message() {
    for input in ["", "\n\n", "\r\n \n"] {
        let (out, err, code) = run_once(&["--game", "nogo"], input);
        assert_eq!(code, Some(0), "input {input:?}");
        assert_no_panic(&err);
        assert!(out.is_empty(), "nothing to answer: {out:?}");
    }
    let (_, err, _) = run_once(&["--protocol", "botzone"], "\n");
    assert!(err.contains("input ended before any request"), "{err}");
}

#[test]
fn crlf_and_nul_bytes_are_whitespace() {
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\r\n\0";
    let (out, err, _) = run_once(&FAST, input);
    assert_no_panic(&err);
    assert_legal_after(&[], &out, Mode::Json);
}

#[test]
fn unrecognised_lines_are_explained_then_the_platform_is_found() {
    let input = "hello bot\n{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n";
    let (out, err, code) = run_once(&FAST, input);
    assert_eq!(code, Some(0));
    assert!(err.contains("cannot tell the platform"), "{err}");
    assert_legal_after(&[], &out, Mode::Json);
}

#[test]
fn simple_interaction_with_a_bad_turn_number_is_refused() {
    let (out, err, _) = run_once(&["--protocol", "botzone-simple"], "x\n");
    assert_no_panic(&err);
    assert!(out.starts_with("-1 -1\n"), "{out:?}");
    assert!(err.contains("expected the turn number"), "{err}");
}

#[test]
fn simple_interaction_cut_short_says_so() {
    let (out, err, code) = run_once(&FAST, "2\n-1 -1\n");
    assert_eq!(code, Some(0));
    assert_no_panic(&err);
    assert!(out.is_empty());
    assert!(err.contains("input ended inside a turn"), "{err}");
}

#[test]
fn simple_interaction_with_a_garbled_move_still_answers() {
    let (out, err, _) = run_once(&FAST, "2\n-1 -1\n4 4\nfour four\n");
    assert_no_panic(&err);
    assert!(err.contains("is not an integer"), "{err}");
    assert_legal_after(&[(4, 4)], &out, Mode::Simple);
}

#[test]
fn keep_running_survives_garbage_and_keeps_serving() {
    let mut args = FAST.to_vec();
    args.push("--keep-running");
    let mut bot = KeptBot::start(&args);
    let first = bot.send("{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n");
    let m1 = parse_answer(Mode::Json, &first).unwrap().unwrap();
    // A garbage line: an error answer, the marker, and the bot still there.
    let bad = bot.send("this is not json\n");
    let v: serde_json::Value = serde_json::from_str(&bad[0]).unwrap();
    assert!(v["response"].is_null() && v["debug"].as_str().unwrap().contains("malformed JSON"));
    // An off-board bare request: reported, and the bot answers for the unchanged position.
    let off = bot.send("{\"x\":12,\"y\":0}\n");
    let v: serde_json::Value = serde_json::from_str(&off[0]).unwrap();
    assert!(
        v["debug"].as_str().unwrap().contains("off the 9x9 board"),
        "{v}"
    );
    // A real request after all that still gets a legal move.
    let mut pos = Nogo::new(NogoRules::default());
    pos.play(m1);
    let reply = (0..81u8).find(|&p| pos.is_legal(p)).unwrap();
    pos.play(reply);
    let (x, y) = stonebrain::game::nogo::coords(reply);
    let answer = bot.send(&format!("{{\"x\":{x},\"y\":{y}}}\n"));
    let m = parse_answer(Mode::Json, &answer).unwrap().unwrap();
    assert!(
        pos.is_legal(m),
        "answer must be legal after the real request"
    );
}

#[test]
fn a_bare_request_without_history_is_refused() {
    let mut args = FAST.to_vec();
    args.push("--keep-running");
    let mut bot = KeptBot::start(&args);
    let answer = bot.send("{\"x\":3,\"y\":3}\n");
    let v: serde_json::Value = serde_json::from_str(&answer[0]).unwrap();
    assert!(
        v["debug"]
            .as_str()
            .unwrap()
            .contains("before any full history"),
        "{v}"
    );
}

#[test]
fn a_full_history_restart_in_keep_running_mode_rebuilds_the_game() {
    let mut args = FAST.to_vec();
    args.push("--keep-running");
    let mut bot = KeptBot::start(&args);
    bot.send("{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n");
    // Botzone restarted the game's history (e.g. after a process restart): a new full history.
    let answer = bot.send("{\"requests\":[{\"x\":4,\"y\":4}],\"responses\":[]}\n");
    let mut pos = Nogo::new(NogoRules::default());
    pos.play(point(4, 4));
    let m = parse_answer(Mode::Json, &answer).unwrap().unwrap();
    assert!(pos.is_legal(m));
}

#[test]
fn games_a_platform_does_not_play_get_a_clear_message() {
    // Gomocup is gomoku only: the refusal is an ERROR line, and nothing reaches standard error
    // (Piskvork reads it as the same pipe).
    let (out, err, code) = run_once(&["--game", "nogo", "--protocol", "gomocup"], "START 15\n");
    assert_eq!(code, Some(2));
    assert!(
        out.starts_with("ERROR ") && out.contains("not available"),
        "Gomocup gets its own error form: {out:?}"
    );
    assert!(err.is_empty(), "{err}");
    // Botzone has no simple interaction for Gomoku: refused in the simple form.
    let (out, err, code) = run_once(&["--game", "gomoku"], "1\n-1 -1\n");
    assert_eq!(code, Some(2));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&"-1 -1"), "{out:?}");
    assert!(
        lines
            .get(1)
            .is_some_and(|l| l.contains("no simple interaction")),
        "{out:?}"
    );
    assert!(err.contains("no simple interaction"), "{err}");
    // The SAU platform reads stdout and stderr as one pipe and takes anything for a command:
    // a game it cannot play there leaves both empty (the reason goes to --log, if given).
    let (out, err, code) = run_once(&["--game", "nogo"], "name?\n");
    assert_eq!(code, Some(2));
    assert!(out.is_empty() && err.is_empty(), "{out:?} {err:?}");
}

#[test]
fn unknown_flags_are_refused_with_usage() {
    let (_, err, code) = run_once(&["--no-such-flag"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("Usage"), "{err}");
}
