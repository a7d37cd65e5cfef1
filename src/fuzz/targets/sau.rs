//! The SAU platform's protocol for Connect6 (`name?`, `new`, `move`, `error`, `end`, `quit`),
//! on the board side the header gives (`size`, 6 to 25; the platform's is 19).
//!
//! The oracle: SAU reads anything we write as a command, so every output line must be our name
//! (`name stonebrain`) or a move, `move` and two points of the board (`@@` for a missing second
//! stone), never the same point twice. A bad input gets no answer at all: SAU has no error form.

use super::super::grammar::{chance, lines_to_input, plies, random_game, searched_turns};
use super::super::header::Header;
use super::super::{corpus, Harness, Target, Workspace};
use super::{connect6_session, input_lines, output_text, quote, serve_bytes};
use crate::game::connect6::{Connect6, Connect6Rules};
use crate::game::{Color, Game};
use crate::protocol::sau::{end_connect6_turn, Sau, SauConfig, DEFAULT_NAME};
use crate::protocol::LineReader;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::time::Duration;

pub const TARGET: Target = Target {
    name: "sau",
    weight: 1,
    about: "the SAU platform (Connect6): name?, new, move, error, end, quit",
    seeds,
    generate,
    words: &[
        "name?", "new", "black", "white", "move", "error", "end", "quit", "@@", "JJ",
    ],
    harness,
};

struct SauHarness;

fn harness(_: &Workspace) -> Box<dyn Harness> {
    Box::new(SauHarness)
}

impl Harness for SauHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let size = header.number("size", 6..=25, 19) as usize;
        let mut protocol = Sau::new(SauConfig {
            size,
            // Each answer is timed against the game clock: a short one reaches its last turns.
            game_time: Duration::from_secs(header.number("seconds", 1..=600, 180)),
            ..SauConfig::default()
        });
        let mut session = connect6_session(protocol.start_position());
        session.end_turn_early = Some(end_connect6_turn);
        let mut reader = LineReader::new(body);
        reader.set_nul_ends_line(true);
        let out = output_text(serve_bytes(&mut protocol, &mut session, None, &mut reader))?;
        check(&out, size, &input_lines(body, true))
    }
}

/// Every output line in SAU's form (see `check_line`), one name for each `name?`, and no more
/// moves than commands that ask for one (`new`, `move`, `error`), all up to `quit`.
pub(super) fn check(out: &str, size: usize, input: &[String]) -> Result<(), String> {
    let mut names_asked = 0;
    let mut moves_asked = 0;
    'lines: for line in input {
        for token in line.split_whitespace() {
            match token.to_ascii_lowercase().as_str() {
                "name?" => names_asked += 1,
                "new" | "move" | "error" => moves_asked += 1,
                "quit" => break 'lines,
                _ => {}
            }
        }
    }
    let mut names = 0;
    let mut moves = 0;
    for line in out.lines() {
        check_line(line, size)?;
        if line.starts_with("name ") {
            names += 1;
        } else {
            moves += 1;
        }
    }
    if names != names_asked {
        return Err(format!("{names} names for {names_asked} name? commands"));
    }
    if moves > moves_asked {
        return Err(format!(
            "{moves} moves for {moves_asked} commands that may ask for one"
        ));
    }
    Ok(())
}

/// One output line: `name <ours>` or `move` with a legal-looking pair of points.
pub(super) fn check_line(line: &str, size: usize) -> Result<(), String> {
    if line == format!("name {DEFAULT_NAME}") {
        return Ok(());
    }
    let letters = line
        .strip_prefix("move ")
        .filter(|l| l.len() == 4)
        .ok_or_else(|| format!("a line SAU would misread: {}", quote(line)))?
        .as_bytes();
    let coordinate = |c: u8| c >= b'A' && ((c - b'A') as usize) < size;
    let first = &letters[..2];
    let second = &letters[2..];
    if !first.iter().all(|&c| coordinate(c)) {
        return Err(format!("the first stone is not a point: {}", quote(line)));
    }
    if second != b"@@" && !second.iter().all(|&c| coordinate(c)) {
        return Err(format!("the second stone is not a point: {}", quote(line)));
    }
    if first == second {
        return Err(format!("both stones on one point: {}", quote(line)));
    }
    Ok(())
}

fn letters(size: usize, p: u16) -> String {
    let (x, y) = (p as usize % size, p as usize / size);
    format!("{}{}", (b'A' + x as u8) as char, (b'A' + y as u8) as char)
}

/// A game's turns, as lists of stones.
fn turns_of(start: &Connect6, moves: &[u16]) -> Vec<(Color, Vec<u16>)> {
    let mut pos = start.clone();
    let mut turns: Vec<(Color, Vec<u16>)> = Vec::new();
    for &m in moves {
        let side = pos.side_to_move();
        match turns.last_mut() {
            Some((c, t)) if *c == side => t.push(m),
            _ => turns.push((side, vec![m])),
        }
        pos.play(m);
    }
    turns
}

/// The platform's side of a game: `new`, then the opponent's turns as `move` commands (our
/// answers are the bot's, so later stones of the opponent may land on them), with the
/// platform's habits and mistakes mixed in.
fn session_lines(
    rng: &mut SmallRng,
    size: usize,
    turns: &[(Color, Vec<u16>)],
    spoil: f64,
) -> Vec<String> {
    let us = if chance(rng, 0.5) {
        Color::Black
    } else {
        Color::White
    };
    let mut lines = Vec::new();
    if chance(rng, 0.7) {
        lines.push("name?".to_string());
    }
    lines.push(format!("new {}", us.name()));
    let asked = searched_turns(rng);
    for (_, stones) in turns.iter().filter(|(side, _)| *side != us).take(asked) {
        let mut text: String = stones.iter().map(|&s| letters(size, s)).collect();
        if text.len() == 2 {
            text.push_str("@@");
        }
        if chance(rng, spoil) {
            text = match rng.gen_range(0..7) {
                0 => text[..2].to_string(),
                1 => format!("{}{}", &text[..2], &text[..2]),
                2 => text.to_ascii_lowercase(),
                3 => "@@JJ".to_string(),
                4 => "ZZ[[".to_string(),
                5 => format!("{text}KK"),
                _ => String::new(),
            };
        }
        lines.push(format!("move {text}"));
        if chance(rng, spoil) {
            lines.push(
                [
                    "error",
                    "name?",
                    "end",
                    "new black",
                    "new white",
                    "hello",
                    "move",
                    "new purple",
                ]
                .choose(rng)
                .expect("not empty")
                .to_string(),
            );
        }
    }
    if chance(rng, 0.6) {
        lines.push(if chance(rng, 0.5) {
            "end".to_string()
        } else {
            format!("end {}", us.name())
        });
    }
    if chance(rng, 0.2) {
        lines.extend(["new white".to_string(), "move JJ@@".to_string()]);
    }
    if chance(rng, 0.5) {
        lines.push("quit".to_string());
    }
    lines
}

pub(super) fn generate(rng: &mut SmallRng) -> Vec<u8> {
    // The platform's board is 19x19; `--board-size` allows others, and smaller ones make
    // quicker searches.
    let size = if chance(rng, 0.6) {
        19
    } else {
        rng.gen_range(6..=25)
    };
    let start = Connect6::new(Connect6Rules::with_size(size).expect("6 to 25"));
    let focus = chance(rng, 0.5);
    let c = size as u16 / 2;
    let near =
        move |p: u16| (p % size as u16).abs_diff(c) <= 3 && (p / size as u16).abs_diff(c) <= 3;
    let f: &dyn Fn(u16) -> bool = &near;
    let n = plies(rng);
    let (_, moves) = random_game(rng, start.clone(), n, focus.then_some(f));
    let spoil: f64 = *[0.0, 0.05, 0.3].choose(rng).expect("not empty");
    let mut lines = session_lines(rng, size, &turns_of(&start, &moves), spoil);
    // Old platforms end each command with a NUL, sometimes with no newline at all.
    if chance(rng, 0.2) {
        let joined = lines.join("\0");
        lines = vec![joined];
    }
    let seconds = if chance(rng, 0.2) { "1" } else { "180" };
    let header = Header::line(&[("size", &size.to_string()), ("seconds", seconds)]);
    lines_to_input(rng, header, &lines)
}

/// The Connect6 positions of `test_vectors/connect6`, as games: stones taken in turn from each
/// colour's list, one for Black's opening and then two a turn, while both have stones.
pub(super) fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (black, white) in corpus::positions(corpus::CONNECT6_POSITIONS) {
        let start = Connect6::new(Connect6Rules::SAU);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let (mut b, mut w) = (black.into_iter(), white.into_iter());
        loop {
            let next = match pos.side_to_move() {
                Color::Black => b.next(),
                Color::White => w.next(),
            };
            let Some((x, y)) = next else { break };
            let m = pos.point(x, y);
            if pos.try_play(m).is_err() {
                break;
            }
            moves.push(m);
        }
        let turns = turns_of(&start, &moves);
        for us in ["black", "white"] {
            let mut lines = vec!["name?".to_string(), format!("new {us}")];
            // Each turn of the opponent is answered by a search: the first few are enough to
            // put the protocol through its paces.
            for (_, stones) in turns.iter().filter(|(side, _)| side.name() != us).take(4) {
                let mut text: String = stones.iter().map(|&s| letters(19, s)).collect();
                if text.len() == 2 {
                    text.push_str("@@");
                }
                lines.push(format!("move {text}"));
            }
            lines.extend(["end".to_string(), "quit".to_string()]);
            out.push(format!("{}\n", lines.join("\n")).into_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..40 {
            SauHarness.run(&generate(&mut rng)).unwrap();
        }
        for seed in seeds().iter().take(6) {
            SauHarness.run(seed).unwrap();
        }
    }

    #[test]
    fn only_names_and_moves_may_be_written() {
        assert!(check_line("name stonebrain", 19).is_ok());
        assert!(check_line("move JJ@@", 19).is_ok());
        assert!(check_line("move AASS", 19).is_ok());
        assert!(check_line("move AAST", 19).is_err());
        assert!(check_line("move JJJJ", 19).is_err());
        assert!(check_line("move @@JJ", 19).is_err());
        assert!(check_line("stonebrain: warning", 19).is_err());
    }
}
