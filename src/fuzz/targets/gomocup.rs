//! The Gomocup protocol (Piskvork's managers) for Gomoku: `START`, `INFO`, `BEGIN`, `TURN`,
//! `BOARD` ... `DONE`, `TAKEBACK`, `RESTART`, `ABOUT`, `END`, with the header's `level`.
//!
//! The oracle: a manager reads every line that is not `MESSAGE` or `DEBUG` as an answer, so every
//! output line is one of the protocol's forms (`OK`, a move `x,y` on the board, the `ABOUT` line,
//! `ERROR ...`, `UNKNOWN ...`, `MESSAGE ...`), and every command that calls for an answer gets
//! exactly one (a refused one gets its `ERROR`), while `INFO`, `END` and the stone lines of a
//! `BOARD` get none. The count follows the protocol as `protocols/gomocup.md` states it, not the
//! code under test.

use super::super::grammar::{
    chance, extreme, gomoku_level_name, lines_to_input, plies, random_game, searched_turns,
};
use super::super::header::Header;
use super::super::{corpus, Harness, Target, Workspace};
use super::{gomoku_session, input_lines, level_of, output_text, quote, serve_bytes};
use crate::game::gomoku::{Gomoku, GomokuRules, MAX_SIZE};
use crate::protocol::gomocup::{self, make_board, Gomocup, GomocupConfig};
use crate::protocol::LineReader;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;

pub const TARGET: Target = Target {
    name: "gomocup",
    weight: 4,
    about: "Gomocup / Piskvork (Gomoku): START, INFO, BEGIN, TURN, BOARD, TAKEBACK, ABOUT, END",
    seeds,
    generate,
    words: &[
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "DONE",
        "TAKEBACK",
        "INFO",
        "ABOUT",
        "END",
        "PLAY",
        "SWAP2BOARD",
        "timeout_turn",
        "timeout_match",
        "time_left",
        "rule",
        "max_memory",
    ],
    harness,
};

struct GomocupHarness;

fn harness(_: &Workspace) -> Box<dyn Harness> {
    Box::new(GomocupHarness)
}

impl Harness for GomocupHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let mut protocol = Gomocup::new(GomocupConfig::default());
        let mut session = gomoku_session(protocol.start_position(), level_of(header.get("level")));
        session.board_maker = Some(make_board);
        let out = serve_bytes(
            &mut protocol,
            &mut session,
            None,
            &mut LineReader::new(body),
        );
        let out = output_text(out)?;
        check(&out, &input_lines(body, false))
    }
}

/// Every output line in a manager's form, and one answer per command that calls for one.
pub(super) fn check(out: &str, commands: &[String]) -> Result<(), String> {
    let mut answers = 0;
    for line in out.lines() {
        let word = line.split(' ').next().unwrap_or("");
        match word {
            "MESSAGE" | "DEBUG" => continue,
            "OK" if line == "OK" => {}
            "ERROR" | "UNKNOWN" if line.len() > word.len() + 1 => {}
            _ if line.starts_with("name=\"") => {}
            _ if is_move(line) => {}
            _ => return Err(format!("a line a manager would misread: {}", quote(line))),
        }
        answers += 1;
    }
    let due = answers_due(commands);
    if answers != due {
        return Err(format!(
            "{answers} answers to {due} commands that each call for one"
        ));
    }
    Ok(())
}

/// `x,y` with both on the largest board.
fn is_move(line: &str) -> bool {
    let on_board = |s: &str| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && s.parse::<usize>().is_ok_and(|v| v < MAX_SIZE)
    };
    line.split_once(',')
        .is_some_and(|(x, y)| on_board(x) && on_board(y))
}

/// How many answers the commands call for, by the protocol: one for each command but `INFO`,
/// `END` (which also ends the input) and Yixin's `STOP`; none for the lines of a `BOARD` or
/// `SWAP2BOARD` until its `DONE`, which is answered once. A command inside a board cuts it
/// short, unanswered, and is answered itself.
fn answers_due(commands: &[String]) -> usize {
    let mut due = 0;
    let mut in_board = false;
    for line in commands {
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if in_board {
            if word == "DONE" {
                due += 1;
                in_board = false;
                continue;
            }
            if word == "INFO" || !gomocup::COMMANDS.contains(&word.as_str()) {
                continue;
            }
            in_board = false;
        }
        match word.as_str() {
            "BOARD" | "SWAP2BOARD" => in_board = true,
            "INFO" | "STOP" | "YXSTOP" => {}
            "END" => break,
            _ => due += 1,
        }
    }
    due
}

// ----- grammar -----

fn info_line(rng: &mut SmallRng) -> String {
    let key = *[
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "rule",
        "game_type",
        "folder",
        "evaluate",
        "unknown_key",
    ]
    .choose(rng)
    .expect("not empty");
    let value = match (key, rng.gen_range(0..4)) {
        ("rule", 0) => rng.gen_range(0..16).to_string(),
        ("rule", _) => ["0", "1", "2", "4", "5"]
            .choose(rng)
            .expect("not empty")
            .to_string(),
        (_, 0) => extreme(rng),
        (_, 1) => "2147483647".to_string(),
        (_, 2) => String::new(),
        _ => rng.gen_range(0..200_000).to_string(),
    };
    format!("INFO {key} {value}")
}

fn xy(size: usize, p: u16) -> (usize, usize) {
    (p as usize % size, p as usize / size)
}

/// A manager's session: the board, limits, then a game from one side (`BEGIN` and `TURN`s, or
/// `TURN` first, or a `BOARD` in the middle), with the mistakes of a broken manager mixed in.
pub(super) fn generate(rng: &mut SmallRng) -> Vec<u8> {
    let size = *[15, 15, 15, 20, 19, 11, 12].choose(rng).expect("not empty");
    let exact = chance(rng, 0.2);
    let spoil: f64 = *[0.0, 0.05, 0.3].choose(rng).expect("not empty");
    let start = Gomoku::new(GomokuRules::new(size, exact).expect("11 to 20"));
    let focus = chance(rng, 0.6);
    let c = size / 2;
    let near = move |p: u16| {
        let (x, y) = xy(size, p);
        x.abs_diff(c) <= 2 && y.abs_diff(c) <= 2
    };
    let f: &dyn Fn(u16) -> bool = &near;
    let n = plies(rng);
    let (_, moves) = random_game(rng, start, n, focus.then_some(f));
    let mut lines = Vec::new();
    if chance(rng, 0.3) {
        lines.push("ABOUT".to_string());
    }
    lines.push(if chance(rng, spoil) {
        [
            "START",
            "START 10",
            "START 21",
            "START x",
            "RECTSTART 15,20",
        ]
        .choose(rng)
        .expect("not empty")
        .to_string()
    } else if chance(rng, 0.1) {
        format!("RECTSTART {size},{size}")
    } else {
        format!("START {size}")
    });
    for _ in 0..rng.gen_range(0..5) {
        lines.push(info_line(rng));
    }
    if exact {
        lines.push("INFO rule 1".to_string());
    }
    let split = rng.gen_range(0..=moves.len());
    let asked = searched_turns(rng);
    match rng.gen_range(0..3) {
        // A game from the start, Black or White.
        0 => {
            let black = chance(rng, 0.5);
            if black {
                lines.push("BEGIN".to_string());
            }
            for (i, &m) in moves.iter().enumerate().take(2 * asked + 1) {
                let theirs = (i % 2 == 0) != black;
                if theirs {
                    let (x, y) = xy(size, m);
                    lines.push(format!("TURN {x},{y}"));
                }
                if chance(rng, 0.1) {
                    lines.push(info_line(rng));
                }
            }
        }
        // A position, then the game goes on from it.
        _ => {
            lines.push("BOARD".to_string());
            let to_move_black = split % 2 == 0;
            for (i, &m) in moves[..split].iter().enumerate() {
                let black = i % 2 == 0;
                let own = black == to_move_black;
                let (x, y) = xy(size, m);
                let field = if chance(rng, spoil / 3.0) {
                    "3"
                } else if own {
                    "1"
                } else {
                    "2"
                };
                lines.push(format!("{x},{y},{field}"));
            }
            if chance(rng, spoil) {
                lines.push(format!("{},{},1", size, 0));
            }
            if chance(rng, 0.95) {
                lines.push("DONE".to_string());
            }
            for (i, &m) in moves[split..].iter().enumerate().take(2 * asked) {
                if i % 2 == 1 {
                    let (x, y) = xy(size, m);
                    lines.push(format!("TURN {x},{y}"));
                }
            }
        }
    }
    if chance(rng, 0.3) {
        if let Some(&m) = moves.choose(rng) {
            let (x, y) = xy(size, m);
            lines.push(format!("TAKEBACK {x},{y}"));
        }
    }
    for _ in 0..rng.gen_range(0..3) {
        if chance(rng, spoil.max(0.05)) {
            let line = *[
                "RESTART",
                "BEGIN",
                "DONE",
                "PLAY 1,1",
                "SWAP2BOARD",
                "TURN",
                "TURN 99,99",
                "TAKEBACK 0,0",
                "hello",
                "STOP",
                "BOARD",
            ]
            .choose(rng)
            .expect("not empty");
            let at = rng.gen_range(0..=lines.len());
            lines.insert(at, line.to_string());
        }
    }
    if chance(rng, 0.5) {
        lines.push("END".to_string());
    }
    let level = gomoku_level_name(rng);
    lines_to_input(rng, Header::line(&[("level", level)]), &lines)
}

/// The Gomoku positions and openings of `test_vectors/gomoku`, given as `BOARD` to the side to
/// move, and the openings also move by move.
pub(super) fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut board_input = |black: &[(usize, usize)], white: &[(usize, usize)]| {
        let black_to_move = black.len() == white.len();
        let mut lines = vec!["START 15".to_string(), "INFO timeout_turn 5000".to_string()];
        lines.push("BOARD".to_string());
        let mut w = white.iter();
        // Alternate the colours as the stones were played, Black first.
        let (black_field, white_field) = if black_to_move { (1, 2) } else { (2, 1) };
        for &(x, y) in black {
            lines.push(format!("{x},{y},{black_field}"));
            let Some(&(x, y)) = w.next() else { break };
            lines.push(format!("{x},{y},{white_field}"));
        }
        lines.extend(["DONE".to_string(), "END".to_string()]);
        out.push(format!("{}\n", lines.join("\n")).into_bytes());
    };
    for (black, white) in corpus::positions(corpus::GOMOKU_POSITIONS) {
        board_input(&black, &white);
    }
    for opening in corpus::openings() {
        let black: Vec<_> = opening.iter().step_by(2).copied().collect();
        let white: Vec<_> = opening.iter().skip(1).step_by(2).copied().collect();
        board_input(&black, &white);
    }
    for opening in corpus::openings().into_iter().take(8) {
        let mut lines = vec!["START 15".to_string(), "BEGIN".to_string()];
        for (i, (x, y)) in opening.iter().enumerate() {
            if i % 2 == 1 {
                lines.push(format!("TURN {x},{y}"));
            }
        }
        lines.push("END".to_string());
        out.push(format!("{}\n", lines.join("\n")).into_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..40 {
            GomocupHarness.run(&generate(&mut rng)).unwrap();
        }
        for seed in seeds().iter().take(10) {
            GomocupHarness.run(seed).unwrap();
        }
    }

    #[test]
    fn answers_are_counted_by_the_protocol() {
        let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            answers_due(&lines("START 15\nINFO rule 1\nBEGIN\nTURN 1,1\nEND\nBEGIN")),
            3
        );
        assert_eq!(
            answers_due(&lines("BOARD\n1,1,1\nINFO x 1\nDONE\nABOUT")),
            2
        );
        assert_eq!(answers_due(&lines("BOARD\n1,1,1\nTURN 2,2\nhello")), 2);
        assert!(check(
            "OK\n7,7\nMESSAGE hi\nERROR no\n",
            &lines("START 15\nBEGIN\nTURN 1")
        )
        .is_ok());
        assert!(check("OK\nstonebrain: oops\n", &lines("START 15\nBEGIN")).is_err());
        assert!(check("OK\n", &lines("START 15\nBEGIN")).is_err());
    }
}
