//! Botzone's ConnectSix (15x15) through the real binary: whole games against a random player in
//! every interaction mode, every answer checked, and bad input answered in Botzone's own form.

mod common;

use common::{run_once, KeptBot, Mode, XorShift};
use serde_json::Value;
use stonebrain::game::connect6::{Connect6, Connect6Rules, Stone};
use stonebrain::game::{Color, Game, Outcome};

const FAST: [&str; 8] = [
    "--game",
    "connect6",
    "--time-ms",
    "50",
    "--margin-ms",
    "10",
    "--seed",
    "11",
];

fn board() -> Connect6 {
    Connect6::new(Connect6Rules::BOTZONE)
}

/// (x0, y0, x1, y1) of a turn, -1 for a missing stone.
fn quad(pos: &Connect6, turn: &[Stone]) -> [i64; 4] {
    let xy = |s: Option<&Stone>| {
        s.map_or((-1, -1), |&p| {
            let (x, y) = pos.coords(p);
            (x as i64, y as i64)
        })
    };
    let (x0, y0) = xy(turn.first());
    let (x1, y1) = xy(turn.get(1));
    [x0, y0, x1, y1]
}

fn json_turn(pos: &Connect6, turn: &[Stone]) -> String {
    let [x0, y0, x1, y1] = quad(pos, turn);
    format!("{{\"x0\":{x0},\"y0\":{y0},\"x1\":{x1},\"y1\":{y1}}}")
}

fn simple_turn(pos: &Connect6, turn: &[Stone]) -> String {
    let [x0, y0, x1, y1] = quad(pos, turn);
    format!("{x0} {y0} {x1} {y1}")
}

/// The full history of a turn: requests are the opponent's turns (empty = "you start"), the
/// responses ours.
fn full_history(
    mode: Mode,
    pos: &Connect6,
    requests: &[Vec<Stone>],
    responses: &[Vec<Stone>],
) -> String {
    if mode.simple() {
        let mut lines = vec![requests.len().to_string()];
        for (i, r) in requests.iter().enumerate() {
            lines.push(simple_turn(pos, r));
            if let Some(resp) = responses.get(i) {
                lines.push(simple_turn(pos, resp));
            }
        }
        lines.join("\n") + "\n"
    } else {
        let req: Vec<String> = requests.iter().map(|r| json_turn(pos, r)).collect();
        let resp: Vec<String> = responses.iter().map(|r| json_turn(pos, r)).collect();
        format!(
            "{{\"requests\":[{}],\"responses\":[{}]}}\n",
            req.join(","),
            resp.join(",")
        )
    }
}

/// The four numbers of the bot's answer, and its debug text.
fn read_answer(mode: Mode, lines: &[String]) -> Result<([i64; 4], String), String> {
    let first = lines.first().ok_or("no output")?;
    if mode.simple() {
        let v: Vec<i64> = first
            .split_whitespace()
            .map(|t| t.parse().map_err(|_| format!("bad answer {first:?}")))
            .collect::<Result<_, _>>()?;
        let q: [i64; 4] = v
            .try_into()
            .map_err(|_| format!("four numbers expected: {first:?}"))?;
        Ok((q, lines.get(1).cloned().unwrap_or_default()))
    } else {
        if lines.len() != 1 {
            return Err(format!("a JSON answer is one line: {lines:?}"));
        }
        let v: Value = serde_json::from_str(first).map_err(|e| format!("{first:?}: {e}"))?;
        let r = &v["response"];
        let field = |k: &str| r[k].as_i64().ok_or(format!("no {k} in {first}"));
        let q = [field("x0")?, field("y0")?, field("x1")?, field("y1")?];
        Ok((q, v["debug"].as_str().unwrap_or_default().to_string()))
    }
}

/// Plays the answer on the referee's board: exactly the stones the turn allows, all legal. A turn
/// whose first stone wins may carry a second stone on an empty point (not played).
fn play_answer(pos: &mut Connect6, q: [i64; 4]) -> Result<Vec<Stone>, String> {
    let before = pos.clone();
    let me = pos.side_to_move();
    let mut stones = Vec::new();
    for (x, y) in [(q[0], q[1]), (q[2], q[3])] {
        if x == -1 && y == -1 {
            continue;
        }
        if !(0..15).contains(&x) || !(0..15).contains(&y) {
            return Err(format!("off-board stone in {q:?}"));
        }
        let s = pos.point(x as usize, y as usize);
        if pos.outcome().is_some() && stones.len() == 1 {
            // The first stone won; the second is only there for the judge, and must be a
            // legal point all the same.
            if pos.color_at(s).is_some() {
                return Err(format!("the extra stone of {q:?} is on a stone\n{before}"));
            }
            continue;
        }
        if pos.outcome().is_some() || pos.side_to_move() != me {
            return Err(format!("too many stones in {q:?}\n{before}"));
        }
        pos.try_play(s)
            .map_err(|e| format!("illegal stone in {q:?}: {e}\n{before}"))?;
        stones.push(s);
    }
    if stones.is_empty() || (q[0] == -1 && q[2] != -1) {
        return Err(format!("a turn starts with a stone: {q:?}"));
    }
    if pos.outcome().is_none() && pos.side_to_move() == me {
        return Err(format!("too few stones in {q:?}\n{before}"));
    }
    Ok(stones)
}

fn random_turn(pos: &mut Connect6, rng: &mut XorShift) -> Vec<Stone> {
    let side = pos.side_to_move();
    let mut stones = Vec::new();
    while pos.outcome().is_none() && pos.side_to_move() == side {
        let legal = pos.legal_moves();
        let s = legal[rng.below(legal.len())];
        pos.play(s);
        stones.push(s);
    }
    stones
}

/// One game: the bot over `mode` against a random player. Returns the outcome.
fn play(mode: Mode, us: Color, seed: u64) -> Result<Outcome, String> {
    let mut rng = XorShift::new(seed);
    let mut pos = board();
    let mut requests: Vec<Vec<Stone>> = Vec::new();
    let mut responses: Vec<Vec<Stone>> = Vec::new();
    let mut args = FAST.to_vec();
    if mode.simple() {
        args.extend(["--protocol", "botzone-simple"]);
    }
    if mode.keep_running() {
        args.push("--keep-running");
    }
    let mut kept = mode.keep_running().then(|| KeptBot::start(&args));
    loop {
        let request = if pos.side_to_move() == us {
            Vec::new()
        } else {
            random_turn(&mut pos, &mut rng)
        };
        if let Some(outcome) = pos.outcome() {
            return Ok(outcome);
        }
        requests.push(request.clone());
        let input = match &mut kept {
            Some(_) if !responses.is_empty() => {
                if mode.simple() {
                    simple_turn(&pos, &request) + "\n"
                } else {
                    json_turn(&pos, &request) + "\n"
                }
            }
            _ => full_history(mode, &pos, &requests, &responses),
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
        let (q, _) = read_answer(mode, &output)?;
        if requests.len() == 1 && us == Color::Black && (q[2], q[3]) != (-1, -1) {
            return Err(format!("Black's opening is one stone, x1 = y1 = -1: {q:?}"));
        }
        let stones = play_answer(&mut pos, q).map_err(|e| format!("{}: {e}", mode.name()))?;
        responses.push(stones);
        if let Some(outcome) = pos.outcome() {
            return Ok(outcome);
        }
    }
}

fn games(mode: Mode) {
    for (i, us) in [Color::Black, Color::White].into_iter().enumerate() {
        if let Err(e) = play(mode, us, 40 + i as u64) {
            panic!("{} as {}: {e}", mode.name(), us.name());
        }
    }
}

#[test]
fn full_history_json_games_are_legal_to_the_end() {
    games(Mode::Json);
}

#[test]
fn keep_running_json_games_are_legal_to_the_end() {
    games(Mode::JsonKeepRunning);
}

#[test]
fn simple_interaction_games_are_legal_to_the_end() {
    games(Mode::Simple);
}

#[test]
fn simple_keep_running_games_are_legal_to_the_end() {
    games(Mode::SimpleKeepRunning);
}

#[test]
fn blacks_first_answer_is_one_stone() {
    let input = "{\"requests\":[{\"x0\":-1,\"y0\":-1,\"x1\":-1,\"y1\":-1}],\"responses\":[]}\n";
    let (out, err, code) = run_once(&FAST, input);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let (q, debug) = read_answer(Mode::Json, &lines).unwrap();
    assert_eq!((q[2], q[3]), (-1, -1), "{out}");
    assert!((0..15).contains(&q[0]) && (0..15).contains(&q[1]), "{out}");
    assert!(!debug.contains("warning"), "{debug}");
    // The same in simple interaction.
    let mut args = FAST.to_vec();
    args.extend(["--protocol", "botzone-simple"]);
    let (out, _, code) = run_once(&args, "1\n-1 -1 -1 -1\n");
    assert_eq!(code, Some(0));
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let (q, _) = read_answer(Mode::Simple, &lines).unwrap();
    assert_eq!((q[2], q[3]), (-1, -1), "{out}");
}

fn json_answer(out: &str) -> Value {
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected: {out:?}");
    serde_json::from_str(lines[0]).expect("the answer is JSON")
}

#[test]
fn malformed_json_gets_an_error_in_debug() {
    let (out, err, code) = run_once(&FAST, "{\"requests\":[{\"x0\":-1,\n");
    assert_eq!(code, Some(0));
    assert!(!err.contains("panicked"), "{err}");
    let v = json_answer(&out);
    assert!(v["response"].is_null(), "{v}");
    assert!(
        v["debug"].as_str().unwrap().contains("malformed JSON"),
        "{v}"
    );
}

#[test]
fn bad_turns_in_the_history_are_reported_in_debug_and_a_legal_turn_still_comes() {
    // White's request holds an off-board stone, then a stone on Black's own opening point.
    let cases = [
        (
            "{\"requests\":[{\"x0\":15,\"y0\":0,\"x1\":-1,\"y1\":-1}],\"responses\":[]}\n",
            "off the 15x15 board",
        ),
        (
            "{\"requests\":[{\"x0\":-1,\"y0\":-1,\"x1\":-1,\"y1\":-1},{\"x0\":7,\"y0\":7,\"x1\":1,\"y1\":1}],\
             \"responses\":[{\"x0\":7,\"y0\":7,\"x1\":-1,\"y1\":-1}]}\n",
            "already occupied",
        ),
        (
            "{\"requests\":[{\"x0\":\"a\",\"y0\":0,\"x1\":-1,\"y1\":-1}],\"responses\":[]}\n",
            "not an integer",
        ),
        (
            "{\"requests\":[{\"x0\":3,\"y0\":3}],\"responses\":[]}\n",
            "\\\"x1\\\" is missing",
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
        let r = &v["response"];
        assert!(r["x0"].as_i64().is_some(), "still a turn: {v}");
    }
}

#[test]
fn a_bad_simple_line_is_reported_in_the_debug_line() {
    let mut args = FAST.to_vec();
    args.extend(["--protocol", "botzone-simple"]);
    let (out, err, code) = run_once(&args, "1\nseven seven -1 -1\n");
    assert_eq!(code, Some(0));
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let (q, debug) = read_answer(Mode::Simple, &lines).unwrap();
    assert!(debug.contains("not an integer"), "{out}");
    // The request was skipped: the bot plays Black's opening on the empty board.
    assert_eq!((q[2], q[3]), (-1, -1), "{out}");
}

#[test]
fn keep_running_survives_garbage() {
    let mut args = FAST.to_vec();
    args.push("--keep-running");
    let mut bot = KeptBot::start(&args);
    let first =
        bot.send("{\"requests\":[{\"x0\":-1,\"y0\":-1,\"x1\":-1,\"y1\":-1}],\"responses\":[]}\n");
    let (q, _) = read_answer(Mode::Json, &first).unwrap();
    let mut pos = board();
    play_answer(&mut pos, q).unwrap();
    let bad = bot.send("not json at all\n");
    let v: Value = serde_json::from_str(&bad[0]).unwrap();
    assert!(v["response"].is_null() && v["debug"].as_str().unwrap().contains("malformed JSON"));
    let mut rng = XorShift::new(3);
    let turn = random_turn(&mut pos, &mut rng);
    let answer = bot.send(&(json_turn(&pos, &turn) + "\n"));
    let (q, _) = read_answer(Mode::Json, &answer).unwrap();
    play_answer(&mut pos, q).unwrap();
}

/// A turn that wins with its first stone still carries a second stone, on an empty point: the
/// judge's reading of `x1 = y1 = -1` after the opening is unknown, a legal stone is safe.
#[test]
fn a_winning_turn_is_sent_with_two_legal_stones() {
    // Black (the bot) has five in a row on the top line; White's stones are scattered.
    let black: [&[(usize, usize)]; 3] = [&[(0, 0)], &[(1, 0), (2, 0)], &[(3, 0), (4, 0)]];
    let white: [&[(usize, usize)]; 3] = [
        &[(10, 10), (12, 12)],
        &[(10, 12), (12, 10)],
        &[(14, 7), (7, 14)],
    ];
    let mut pos = board();
    let mut requests = vec![Vec::new()];
    let mut responses = Vec::new();
    for (b, w) in black.iter().zip(white) {
        let b: Vec<Stone> = b.iter().map(|&(x, y)| pos.point(x, y)).collect();
        let w: Vec<Stone> = w.iter().map(|&(x, y)| pos.point(x, y)).collect();
        for &s in b.iter().chain(&w) {
            pos.try_play(s).unwrap();
        }
        responses.push(b);
        requests.push(w);
    }
    for mode in [Mode::Json, Mode::Simple] {
        let mut args = FAST.to_vec();
        if mode.simple() {
            args.extend(["--protocol", "botzone-simple"]);
        }
        let input = full_history(mode, &pos, &requests, &responses);
        let (out, err, code) = run_once(&args, &input);
        assert_eq!(code, Some(0), "{err}");
        let lines: Vec<String> = out.lines().map(str::to_string).collect();
        let (q, _) = read_answer(mode, &lines).unwrap();
        let mut after = pos.clone();
        play_answer(&mut after, q).unwrap();
        assert_eq!(after.outcome(), Some(Outcome::Win(Color::Black)), "{q:?}");
        assert!(q.iter().all(|&v| v >= 0), "two stones expected: {q:?}");
    }
}
