//! Answers arrive within Botzone's own limits with default settings (no playout cap): 1 s a turn,
//! 2 s on the bot's first turn, counted by Botzone from process start. These are the platform's
//! limits, not tighter figures; the bot aims at the limit minus its margin.

mod common;

use common::{parse_answer, KeptBot, Mode};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn timed_turn(input: &str) -> (Duration, String) {
    let start = Instant::now();
    let mut child = Command::new(common::bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        start.elapsed(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn full_history_turns_end_within_botzone_limits() {
    // The bot's first turn: Botzone allows double time.
    let (first, out) = timed_turn("{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n");
    assert!(parse_answer(Mode::Json, &[out.trim().to_string()])
        .unwrap()
        .is_some());
    assert!(
        first < Duration::from_millis(2000),
        "first turn took {first:?}"
    );
    // A later turn: 1 s.
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1},{\"x\":4,\"y\":4}],\"responses\":[{\"x\":0,\"y\":0}]}\n";
    let (later, out) = timed_turn(input);
    assert!(parse_answer(Mode::Json, &[out.trim().to_string()])
        .unwrap()
        .is_some());
    assert!(
        later < Duration::from_millis(1000),
        "a later turn took {later:?}"
    );
    // It does use its time: a search that stopped at once would waste the turn.
    assert!(
        later > Duration::from_millis(400),
        "a later turn took only {later:?}"
    );
}

#[test]
fn time_limit_from_the_input_is_obeyed() {
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1},{\"x\":4,\"y\":4}],\"responses\":[{\"x\":0,\"y\":0}],\"time_limit\":0.5}\n";
    let (took, out) = timed_turn(input);
    assert!(parse_answer(Mode::Json, &[out.trim().to_string()])
        .unwrap()
        .is_some());
    assert!(
        took < Duration::from_millis(500),
        "took {took:?} with a 0.5 s limit"
    );
}

#[test]
fn keep_running_turns_end_within_a_second_of_the_request() {
    let mut bot = KeptBot::start(&["--keep-running"]);
    bot.send("{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n");
    for (x, y) in [(8, 8), (8, 0)] {
        let start = Instant::now();
        let answer = bot.send(&format!("{{\"x\":{x},\"y\":{y}}}\n"));
        let took = start.elapsed();
        assert!(parse_answer(Mode::Json, &answer).is_ok());
        assert!(
            took < Duration::from_millis(1000),
            "keep-running turn took {took:?}"
        );
    }
}
