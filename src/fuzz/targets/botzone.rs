//! Botzone from the bot's side: JSON (full history, keep-running) and the simple interaction,
//! for each game Botzone has (the header's `game`, `keep` and `lang`).
//!
//! The oracle: every answer is in Botzone's form. JSON: one line per answer, an object with
//! exactly `response` and `debug`, the response `null` (a refused input, the reason in `debug`
//! after `error:`) or the game's move object with every point on the board or all `-1`, the
//! debug text within Botzone's 1 KB, the keep-running marker after each answer when keep-running;
//! and every input line is answered (a full-history process answers its first line, then exits).
//! Simple: a move line of integers, then one debug line, then the marker when keep-running.

use super::super::grammar::{
    chance, coordinate, extreme, gomoku_level_name, lines_to_input, odd_json, plies, random_game,
    searched_turns,
};
use super::super::header::Header;
use super::super::{corpus, Harness, Target, Workspace};
use super::{
    connect6_session, gomoku_session, input_lines, ints, nogo_session, output_text, quote,
    serve_bytes,
};
use crate::game::connect6::{Connect6, Connect6Rules};
use crate::game::gomoku::Gomoku;
use crate::game::nogo::{self, Nogo, NogoRules};
use crate::game::{Color, Game};
use crate::protocol::botzone::{
    BotzoneConfig, BotzoneJson, BotzoneLanguage, BotzoneMove, BotzoneSimple, KEEP_RUNNING_MARKER,
    MAX_SIMPLE_TURNS,
};
use crate::protocol::session::Session;
use crate::protocol::{LineReader, Protocol};
use crate::search::clock::DEFAULT_MARGIN;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::time::Instant;

pub const JSON: Target = Target {
    name: "botzone-json",
    weight: 6,
    about: "Botzone JSON, full history and keep-running, NoGo / Gomoku / ConnectSix",
    seeds: json_seeds,
    generate: generate_json,
    words: WORDS,
    harness: json_harness,
};

pub const SIMPLE: Target = Target {
    name: "botzone-simple",
    weight: 4,
    about: "Botzone simple interaction, one process a turn and keep-running, NoGo / ConnectSix",
    seeds: simple_seeds,
    generate: generate_simple,
    words: WORDS,
    harness: simple_harness,
};

const WORDS: &[&str] = &[
    "requests",
    "responses",
    "x",
    "y",
    "x0",
    "y0",
    "x1",
    "y1",
    "time_limit",
    "data",
    "globaldata",
    "null",
    "true",
    "[]",
    "{}",
    "-1",
    KEEP_RUNNING_MARKER,
];

/// Botzone keeps 1 KB of debug text.
const DEBUG_LIMIT: usize = 1000;

/// The games of Botzone, as headers name them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum BotzoneGame {
    Nogo,
    Gomoku,
    Connect6,
}

fn game_of(header: &Header) -> BotzoneGame {
    match header.get("game") {
        Some("gomoku") => BotzoneGame::Gomoku,
        Some("connect6") => BotzoneGame::Connect6,
        _ => BotzoneGame::Nogo,
    }
}

fn config(header: &Header) -> BotzoneConfig {
    BotzoneConfig {
        keep_running: header.flag("keep"),
        margin: DEFAULT_MARGIN,
        process_start: Instant::now(),
        turn_limit: None,
        language: if header.get("lang") == Some("python") {
            BotzoneLanguage::Python
        } else {
            BotzoneLanguage::Cpp
        },
    }
}

fn json_seeds() -> Vec<Vec<u8>> {
    corpus::botzone_inputs("json")
}

fn simple_seeds() -> Vec<Vec<u8>> {
    corpus::botzone_inputs("simple")
}

struct JsonHarness;
struct SimpleHarness;

fn json_harness(_: &Workspace) -> Box<dyn Harness> {
    Box::new(JsonHarness)
}

fn simple_harness(_: &Workspace) -> Box<dyn Harness> {
    Box::new(SimpleHarness)
}

impl Harness for JsonHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let config = config(&header);
        match game_of(&header) {
            BotzoneGame::Nogo => json_game(
                BotzoneJson::<Nogo>::new(config),
                nogo_session(config.keep_running, false),
                body,
            ),
            BotzoneGame::Gomoku => json_game(
                BotzoneJson::<Gomoku>::new(config),
                gomoku_session(Gomoku::default(), super::level_of(header.get("level"))),
                body,
            ),
            BotzoneGame::Connect6 => json_game(
                BotzoneJson::<Connect6>::new(config),
                connect6_session(Connect6::new(Connect6Rules::BOTZONE)),
                body,
            ),
        }
    }
}

impl Harness for SimpleHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let config = config(&header);
        // Botzone has no simple interaction for Gomoku: the command line refuses it before any
        // serving, so only NoGo and ConnectSix are served here.
        match game_of(&header) {
            BotzoneGame::Connect6 => simple_game(
                BotzoneSimple::<Connect6>::new(config),
                connect6_session(Connect6::new(Connect6Rules::BOTZONE)),
                config.keep_running,
                body,
            ),
            _ => simple_game(
                BotzoneSimple::<Nogo>::new(config),
                nogo_session(config.keep_running, false),
                config.keep_running,
                body,
            ),
        }
    }
}

fn json_game<G: BotzoneMove>(
    mut protocol: BotzoneJson<G>,
    mut session: Session<G>,
    body: &[u8],
) -> Result<(), String> {
    let keep = !protocol.done_after_answer();
    let out = serve_bytes(
        &mut protocol,
        &mut session,
        None,
        &mut LineReader::new(body),
    );
    let out = output_text(out)?;
    let asked = input_lines(body, false).len();
    let due = if keep { asked } else { asked.min(1) };
    check_json_answers::<G>(&out, keep, due)
}

/// Checks the JSON answers in `out`: `due` of them, each in Botzone's form.
pub(super) fn check_json_answers<G: BotzoneMove>(
    out: &str,
    keep: bool,
    due: usize,
) -> Result<(), String> {
    let mut lines = out.lines();
    let mut answers = 0;
    while let Some(line) = lines.next() {
        answers += 1;
        let v: Value = serde_json::from_str(line)
            .map_err(|e| format!("answer {answers} is not JSON ({e}): {}", quote(line)))?;
        let object = v
            .as_object()
            .ok_or_else(|| format!("answer {answers} is not an object: {}", quote(line)))?;
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        if keys != ["debug", "response"] {
            return Err(format!(
                "answer {answers} has keys {keys:?}: {}",
                quote(line)
            ));
        }
        let debug = v["debug"]
            .as_str()
            .ok_or_else(|| format!("answer {answers}: debug is not text: {}", quote(line)))?;
        if debug.len() > DEBUG_LIMIT {
            return Err(format!("answer {answers}: debug of {} bytes", debug.len()));
        }
        match &v["response"] {
            Value::Null if debug.contains("error: ") => {}
            Value::Null => {
                return Err(format!(
                    "answer {answers}: a null response without an error: {}",
                    quote(line)
                ))
            }
            response => check_json_move::<G>(response)
                .map_err(|e| format!("answer {answers}: {e}: {}", quote(line)))?,
        }
        if keep && lines.next() != Some(KEEP_RUNNING_MARKER) {
            return Err(format!(
                "answer {answers} is not followed by the keep-running marker"
            ));
        }
    }
    if answers != due {
        return Err(format!(
            "{answers} answers to {due} input lines that each call for one"
        ));
    }
    Ok(())
}

/// A response object: the game's keys, integers, each point on the 15x15 (NoGo: 9x9) board or
/// `(-1, -1)`, and read back by the game's own codec.
fn check_json_move<G: BotzoneMove>(response: &Value) -> Result<(), String> {
    let object = response
        .as_object()
        .ok_or("the response is not an object")?;
    let two = object.len() == 2 && object.contains_key("x") && object.contains_key("y");
    let four = object.len() == 4
        && ["x0", "y0", "x1", "y1"]
            .iter()
            .all(|k| object.contains_key(*k));
    if !two && !four {
        return Err("the response has other keys than a move".to_string());
    }
    let pairs: Vec<(i64, i64)> = if two {
        vec![(int(response, "x")?, int(response, "y")?)]
    } else {
        vec![
            (int(response, "x0")?, int(response, "y0")?),
            (int(response, "x1")?, int(response, "y1")?),
        ]
    };
    for (x, y) in pairs {
        let on_board = (0..15).contains(&x) && (0..15).contains(&y);
        if !(on_board || (x, y) == (-1, -1)) {
            return Err(format!("({x},{y}) is neither a point nor no move"));
        }
    }
    G::turn_from_json(response).map(|_| ())
}

fn int(v: &Value, key: &str) -> Result<i64, String> {
    v[key]
        .as_i64()
        .ok_or_else(|| format!("{key} is not an integer"))
}

fn simple_game<G: BotzoneMove>(
    mut protocol: BotzoneSimple<G>,
    mut session: Session<G>,
    keep: bool,
    body: &[u8],
) -> Result<(), String> {
    let out = serve_bytes(
        &mut protocol,
        &mut session,
        None,
        &mut LineReader::new(body),
    );
    check_simple_answers::<G>(&output_text(out)?, keep, &input_lines(body, false))
}

/// How many answers a one-turn process owes for its input `lines`: the first line is the turn
/// count n, then 2n - 1 move lines follow; a count that is not a whole number from 1 up to the
/// longest game is refused at once (one answer, the error), and a turn whose lines are all
/// there is answered.
fn simple_answers_due(lines: &[String]) -> usize {
    let Some(first) = lines.first() else {
        return 0;
    };
    match first.parse::<usize>() {
        Ok(n) if (1..=MAX_SIMPLE_TURNS).contains(&n) => usize::from(lines.len() > 2 * n - 1),
        _ => 1,
    }
}

/// Checks the simple-interaction answers in `out` to the input `lines`: each a move line of
/// integers, a debug line, and the marker when keep-running. A one-turn process answers exactly
/// what `simple_answers_due` says; a kept one, at most once a line.
pub(super) fn check_simple_answers<G: BotzoneMove>(
    out: &str,
    keep: bool,
    input: &[String],
) -> Result<(), String> {
    let stones = G::turn_to_simple(&[]).split(' ').count();
    let mut lines = out.lines();
    let mut answers = 0;
    while let Some(line) = lines.next() {
        answers += 1;
        let values = ints(line)
            .filter(|v| v.len() == stones)
            .ok_or_else(|| format!("answer {answers} is not a move line: {}", quote(line)))?;
        for pair in values.chunks(2) {
            let on_board = pair.iter().all(|v| (0..15).contains(v));
            if !(on_board || pair == [-1, -1]) {
                return Err(format!(
                    "answer {answers}: {pair:?} is neither a point nor no move"
                ));
            }
        }
        G::turn_from_simple(line).map_err(|e| format!("answer {answers}: {e}"))?;
        let Some(debug) = lines.next() else {
            return Err(format!("answer {answers} has no debug line"));
        };
        if debug.len() > DEBUG_LIMIT {
            return Err(format!("answer {answers}: debug of {} bytes", debug.len()));
        }
        if keep && lines.next() != Some(KEEP_RUNNING_MARKER) {
            return Err(format!(
                "answer {answers} is not followed by the keep-running marker"
            ));
        }
    }
    let due = simple_answers_due(input);
    if !keep && answers != due {
        return Err(format!(
            "{answers} answers from a one-turn process that owes {due}"
        ));
    }
    if keep && answers > input.len() {
        return Err(format!("{answers} answers to {} lines", input.len()));
    }
    Ok(())
}

// ----- grammar -----

/// A game of Botzone's kind as turns (a ConnectSix turn is one or two stones), from the empty
/// board, as Botzone's coordinates.
fn botzone_turns(rng: &mut SmallRng, game: BotzoneGame) -> Vec<Vec<(i64, i64)>> {
    let n = plies(rng);
    let focus = chance(rng, 0.5);
    match game {
        BotzoneGame::Nogo => {
            let centre = |p: nogo::Point| {
                let (x, y) = nogo::coords(p);
                x.abs_diff(4) <= 2 && y.abs_diff(4) <= 2
            };
            let f: &dyn Fn(nogo::Point) -> bool = &centre;
            let (_, moves) =
                random_game(rng, Nogo::new(NogoRules::default()), n, focus.then_some(f));
            moves
                .iter()
                .map(|&p| {
                    let (x, y) = nogo::coords(p);
                    vec![(x as i64, y as i64)]
                })
                .collect()
        }
        BotzoneGame::Gomoku => {
            let near = |p: u16| (p % 15).abs_diff(7) <= 2 && (p / 15).abs_diff(7) <= 2;
            let f: &dyn Fn(u16) -> bool = &near;
            let (_, moves) = random_game(rng, Gomoku::default(), n, focus.then_some(f));
            moves
                .iter()
                .map(|&p| vec![(p as i64 % 15, p as i64 / 15)])
                .collect()
        }
        BotzoneGame::Connect6 => {
            let near = |p: u16| (p % 15).abs_diff(7) <= 3 && (p / 15).abs_diff(7) <= 3;
            let f: &dyn Fn(u16) -> bool = &near;
            let start = Connect6::new(Connect6Rules::BOTZONE);
            let mut sides = Vec::new();
            let mut pos = start.clone();
            let (_, moves) = random_game(rng, start, n, focus.then_some(f));
            for &m in &moves {
                sides.push(pos.side_to_move());
                pos.play(m);
            }
            let mut turns: Vec<Vec<(i64, i64)>> = Vec::new();
            let mut last: Option<Color> = None;
            for (&m, side) in moves.iter().zip(sides) {
                let xy = (m as i64 % 15, m as i64 / 15);
                match turns.last_mut() {
                    Some(t) if last == Some(side) => t.push(xy),
                    _ => turns.push(vec![xy]),
                }
                last = Some(side);
            }
            turns
        }
    }
}

/// A turn as Botzone's JSON, sometimes spoiled: a coordinate off the board, a field missing or
/// of the wrong type, the move wrapped in a string, or something else entirely.
fn turn_json(rng: &mut SmallRng, game: BotzoneGame, turn: &[(i64, i64)], spoil: f64) -> Value {
    let size = if game == BotzoneGame::Nogo { 9 } else { 15 };
    let mut points: Vec<(i64, i64)> = turn.to_vec();
    if chance(rng, spoil) {
        match rng.gen_range(0..6) {
            0 => return odd_json(rng, 0),
            1 => {
                if let Some(p) = points.first_mut() {
                    *p = (coordinate(rng, size), coordinate(rng, size));
                }
            }
            2 => points.reverse(),
            3 => points.push((coordinate(rng, size), coordinate(rng, size))),
            _ => {}
        }
    }
    let mut v = if game == BotzoneGame::Connect6 {
        let (a, b) = (
            points.first().copied().unwrap_or((-1, -1)),
            points.get(1).copied().unwrap_or((-1, -1)),
        );
        json!({"x0": a.0, "y0": a.1, "x1": b.0, "y1": b.1})
    } else {
        let a = points.first().copied().unwrap_or((-1, -1));
        json!({"x": a.0, "y": a.1})
    };
    if chance(rng, spoil) {
        let keys: Vec<String> = v
            .as_object()
            .map_or(Vec::new(), |o| o.keys().cloned().collect());
        if let (Some(k), Some(o)) = (keys.choose(rng).cloned(), v.as_object_mut()) {
            match rng.gen_range(0..4) {
                0 => {
                    o.remove(&k);
                }
                1 => {
                    o.insert(k, odd_json(rng, 1));
                }
                2 => {
                    let text = o[&k].to_string();
                    o.insert(k, Value::String(text));
                }
                _ => {
                    o.insert("extra".to_string(), odd_json(rng, 1));
                }
            }
        }
    }
    if chance(rng, spoil / 2.0) {
        v = Value::String(v.to_string());
    }
    v
}

/// One Botzone input for a game: the full history of one side (the first request the "no move"
/// marker when that side is Black), then, when keep-running, later turns as bare requests.
pub(super) fn generate_json(rng: &mut SmallRng) -> Vec<u8> {
    let game = *[
        BotzoneGame::Nogo,
        BotzoneGame::Gomoku,
        BotzoneGame::Connect6,
    ]
    .choose(rng)
    .expect("not empty");
    let keep = chance(rng, 0.5);
    let spoil: f64 = *[0.0, 0.02, 0.1, 0.4].choose(rng).expect("not empty");
    let turns = botzone_turns(rng, game);
    let we_black = chance(rng, 0.5);
    let upto = rng.gen_range(0..=turns.len());
    // Requests are the opponent's turns; Black's first request is the empty marker.
    let mut requests = Vec::new();
    let mut responses = Vec::new();
    if we_black {
        requests.push(turn_json(rng, game, &[], spoil));
    }
    for (i, t) in turns[..upto].iter().enumerate() {
        let ours = (i % 2 == 0) == we_black;
        let v = turn_json(rng, game, t, spoil);
        if ours {
            responses.push(v);
        } else {
            requests.push(v);
        }
    }
    // The history ends with a request: drop a trailing response of ours.
    if responses.len() >= requests.len() && chance(rng, 0.95) {
        responses.truncate(requests.len().saturating_sub(1));
    }
    let mut history = json!({"requests": requests, "responses": responses});
    if chance(rng, 0.2) {
        history["time_limit"] = if chance(rng, 0.5) {
            serde_json::from_str(&extreme(rng)).unwrap_or(Value::Null)
        } else {
            odd_json(rng, 0)
        };
    }
    if chance(rng, 0.1) {
        history["data"] = json!("saved between turns");
        history["globaldata"] = odd_json(rng, 0);
    }
    if chance(rng, spoil) {
        let key = *["requests", "responses"].choose(rng).expect("not empty");
        match rng.gen_range(0..3) {
            0 => {
                history.as_object_mut().map(|o| o.remove(key));
            }
            _ => history[key] = odd_json(rng, 0),
        }
    }
    let mut lines = vec![history.to_string()];
    if keep {
        let asked = searched_turns(rng);
        for t in turns[upto..].iter().skip(1).step_by(2).take(asked) {
            lines.push(turn_json(rng, game, t, spoil).to_string());
        }
        if chance(rng, 0.1) {
            lines.push(turn_json(rng, game, &[], 0.0).to_string());
        }
    } else if chance(rng, 0.1) {
        lines.push(json!({"requests": [], "responses": []}).to_string());
    }
    let name = match game {
        BotzoneGame::Nogo => "nogo",
        BotzoneGame::Gomoku => "gomoku",
        BotzoneGame::Connect6 => "connect6",
    };
    let level = gomoku_level_name(rng);
    let lang = if chance(rng, 0.2) { "python" } else { "cpp" };
    let header = Header::line(&[
        ("game", name),
        ("keep", if keep { "1" } else { "0" }),
        ("level", level),
        ("lang", lang),
    ]);
    lines_to_input(rng, header, &lines)
}

/// A turn in the simple interaction: `x y` (ConnectSix `x0 y0 x1 y1`), sometimes spoiled.
fn turn_simple(rng: &mut SmallRng, game: BotzoneGame, turn: &[(i64, i64)], spoil: f64) -> String {
    let size = if game == BotzoneGame::Nogo { 9 } else { 15 };
    let count = if game == BotzoneGame::Connect6 { 2 } else { 1 };
    let mut values: Vec<String> = (0..count)
        .flat_map(|i| {
            let (x, y) = turn.get(i).copied().unwrap_or((-1, -1));
            [x.to_string(), y.to_string()]
        })
        .collect();
    if chance(rng, spoil) {
        match rng.gen_range(0..5) {
            0 => {
                values.pop();
            }
            1 => values.push(coordinate(rng, size).to_string()),
            2 => {
                let i = rng.gen_range(0..values.len());
                values[i] = extreme(rng);
            }
            3 => values = vec!["x".to_string(), "y".to_string()],
            _ => {
                let i = rng.gen_range(0..values.len());
                values[i] = coordinate(rng, size).to_string();
            }
        }
    }
    values.join(" ")
}

pub(super) fn generate_simple(rng: &mut SmallRng) -> Vec<u8> {
    let game = if chance(rng, 0.5) {
        BotzoneGame::Nogo
    } else {
        BotzoneGame::Connect6
    };
    let keep = chance(rng, 0.5);
    let spoil: f64 = *[0.0, 0.02, 0.1, 0.4].choose(rng).expect("not empty");
    let turns = botzone_turns(rng, game);
    let we_black = chance(rng, 0.5);
    let upto = rng.gen_range(0..=turns.len());
    let mut lines = Vec::new();
    if we_black {
        lines.push(turn_simple(rng, game, &[], spoil));
    }
    for t in &turns[..upto] {
        lines.push(turn_simple(rng, game, t, spoil));
    }
    // The lines are requests and responses alternately, ending with a request: 2n - 1 of them.
    if lines.len() % 2 == 0 && chance(rng, 0.95) {
        lines.pop();
    }
    let n = lines.len().div_ceil(2);
    let count = if chance(rng, spoil) {
        [
            extreme(rng),
            "0".to_string(),
            (n + 1).to_string(),
            "x".to_string(),
        ]
        .choose(rng)
        .cloned()
        .expect("not empty")
    } else {
        n.max(1).to_string()
    };
    if lines.is_empty() {
        lines.push(turn_simple(rng, game, &[], spoil));
    }
    lines.insert(0, count);
    if keep {
        let asked = searched_turns(rng);
        for t in turns[upto..].iter().skip(1).step_by(2).take(asked) {
            lines.push(turn_simple(rng, game, t, spoil));
        }
        if chance(rng, 0.1) {
            lines.push("data line, not a move".to_string());
        }
    }
    let name = if game == BotzoneGame::Nogo {
        "nogo"
    } else {
        "connect6"
    };
    let header = Header::line(&[("game", name), ("keep", if keep { "1" } else { "0" })]);
    lines_to_input(rng, header, &lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let mut rng = SmallRng::seed_from_u64(9);
        for _ in 0..40 {
            JsonHarness.run(&generate_json(&mut rng)).unwrap();
            SimpleHarness.run(&generate_simple(&mut rng)).unwrap();
        }
        for seed in json_seeds().iter().take(5) {
            JsonHarness.run(seed).unwrap();
        }
    }

    #[test]
    fn the_oracle_refuses_answers_out_of_form() {
        assert!(check_json_answers::<Nogo>(
            "{\"response\":{\"x\":1,\"y\":2},\"debug\":\"\"}\n",
            false,
            1
        )
        .is_ok());
        assert!(check_json_answers::<Nogo>(
            "{\"response\":{\"x\":1,\"y\":20},\"debug\":\"\"}\n",
            false,
            1
        )
        .is_err());
        assert!(
            check_json_answers::<Nogo>("{\"response\":null,\"debug\":\"x\"}\n", false, 1).is_err()
        );
        assert!(check_json_answers::<Nogo>("", false, 1).is_err());
        assert!(check_json_answers::<Nogo>(
            "{\"response\":null,\"debug\":\"error: x\"}\n",
            true,
            1
        )
        .is_err());
    }
}
