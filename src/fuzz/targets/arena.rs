//! What the arena reads from a hostile bot: its output, fed line by line to the reading loops
//! of the players (`proto` in the header: `sau`, `sau-tolerant`, `gomocup`, `botzone`,
//! `botzone-simple`, `botzone-keep-running`, `gtp`), in a position of a random game (`plies`
//! and `seed`) of the protocol's game. Each turn the bot's answer is judged as the referee judges
//! it, the position goes on with a random reply, and the next answer is read, until the bot's
//! output ends or it loses.
//!
//! The oracle: a reading loop ends in a move or in a reason to lose, never a panic or a hang;
//! every stone it returns is a point of the board (the referee then checks the rules).

use super::super::grammar::{chance, coordinate, extreme, random_game};
use super::super::header::Header;
use super::super::{Harness, Target, Workspace};
use crate::arena::player::ArenaGame;
use crate::arena::players::botzone::BotzonePlayer;
use crate::arena::players::gomocup::{read_move, read_start_answer};
use crate::arena::players::gtp::{read_genmove, read_response};
use crate::arena::players::sau::{read_name, read_turn};
use crate::arena::process::{BotPipe, ReadFailure};
use crate::arena::record::EndReason;
use crate::game::connect6::{Connect6, Connect6Rules};
use crate::game::gomoku::Gomoku;
use crate::game::nogo::{Nogo, NogoRules};
use crate::protocol::botzone::{BotzoneMove, KEEP_RUNNING_MARKER};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

pub const TARGET: Target = Target {
    name: "arena",
    weight: 8,
    about: "the arena reading a hostile bot: SAU, Gomocup, Botzone (JSON, simple) and GTP players",
    seeds,
    generate,
    words: &[
        "move",
        "name",
        "OK",
        "MESSAGE",
        "DEBUG",
        "UNKNOWN",
        "ERROR",
        "SUGGEST",
        "=",
        "?",
        "resign",
        "pass",
        "response",
        "x",
        "y",
        KEEP_RUNNING_MARKER,
        "@@",
        "JJ",
    ],
    harness: |_: &Workspace| Box::new(ArenaHarness),
};

/// Turns read per input at most (the bot's output usually ends sooner).
const MAX_TURNS: usize = 12;

/// A bot's output, as the reader thread of a real bot cuts it: lines at `\n`, text decoded
/// with replacement, the line end removed. What the arena writes to it is dropped, or refused
/// (`deaf`) as by a bot that closed its input.
struct ScriptedBot {
    lines: VecDeque<String>,
    deaf: bool,
}

impl ScriptedBot {
    fn new(output: &[u8], deaf: bool) -> ScriptedBot {
        let lines = output
            .split_inclusive(|&b| b == b'\n')
            .map(|l| {
                String::from_utf8_lossy(l)
                    .trim_end_matches(['\n', '\r'])
                    .to_string()
            })
            .collect();
        ScriptedBot { lines, deaf }
    }
}

impl BotPipe for ScriptedBot {
    fn send(&mut self, _text: &str) -> Result<(), EndReason> {
        if self.deaf {
            Err(EndReason::ClosedPipe)
        } else {
            Ok(())
        }
    }

    fn read_line(&mut self, _deadline: Instant) -> Result<String, ReadFailure> {
        self.lines.pop_front().ok_or(ReadFailure::Closed)
    }

    fn judge_closed_output(&mut self) -> EndReason {
        EndReason::ClosedPipe
    }
}

struct ArenaHarness;

impl Harness for ArenaHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let mut bot = ScriptedBot::new(body, header.flag("deaf"));
        let mut rng = SmallRng::seed_from_u64(header.number("seed", 0..=u64::MAX, 0));
        let plies = header.number("plies", 0..=400, 0) as usize;
        // Deadlines are never reached: the script ends first.
        let deadline = Instant::now() + Duration::from_secs(3600);
        let grace = Duration::from_secs(5);
        match header.get("proto").unwrap_or("sau") {
            proto @ ("sau" | "sau-tolerant") => {
                let tolerant = proto == "sau-tolerant";
                let size = header.number("size", 6..=25, 19) as usize;
                let start = Connect6::new(Connect6Rules::with_size(size).expect("6 to 25"));
                let (pos, _) = random_game(&mut rng, start, plies, None);
                if read_name(&mut bot, tolerant, deadline, grace).is_err() {
                    return Ok(());
                }
                play_turns(pos, &mut rng, |pos| {
                    read_turn(&mut bot, tolerant, pos, deadline)
                })
            }
            "gomocup" => {
                let (pos, _) = random_game(&mut rng, Gomoku::default(), plies, None);
                if read_start_answer(&mut bot, 15, deadline, None, grace).is_err() {
                    return Ok(());
                }
                play_turns(pos, &mut rng, |pos| {
                    read_move(&mut bot, pos, deadline).map(|p| vec![p])
                })
            }
            "gtp" => {
                let (pos, _) = random_game(&mut rng, Nogo::new(NogoRules::default()), plies, None);
                // `boardsize` and `clear_board` must be accepted before the game starts.
                for _ in 0..2 {
                    match read_response(&mut bot, deadline) {
                        Ok(r) if r.ok => {}
                        _ => return Ok(()),
                    }
                }
                play_turns(pos, &mut rng, |_| {
                    let r = read_response(&mut bot, deadline)?;
                    if !r.ok {
                        return Err(EndReason::Garbage(r.text));
                    }
                    read_genmove(&r.text).map(|p| vec![p])
                })
            }
            proto => {
                let simple = proto.contains("simple");
                let keep = proto.contains("keep");
                match header.get("game") {
                    Some("gomoku") => botzone_turns::<Gomoku>(
                        &mut bot,
                        &mut rng,
                        Gomoku::default(),
                        plies,
                        simple,
                        keep,
                        deadline,
                    ),
                    Some("connect6") => botzone_turns::<Connect6>(
                        &mut bot,
                        &mut rng,
                        Connect6::new(Connect6Rules::BOTZONE),
                        plies,
                        simple,
                        keep,
                        deadline,
                    ),
                    _ => botzone_turns::<Nogo>(
                        &mut bot,
                        &mut rng,
                        Nogo::new(NogoRules::default()),
                        plies,
                        simple,
                        keep,
                        deadline,
                    ),
                }
            }
        }
    }
}

fn botzone_turns<G: ArenaGame + BotzoneMove>(
    bot: &mut ScriptedBot,
    rng: &mut SmallRng,
    start: G,
    plies: usize,
    simple: bool,
    keep: bool,
    deadline: Instant,
) -> Result<(), String> {
    let (pos, _) = random_game(rng, start, plies, None);
    play_turns(pos, rng, |_| {
        let turn = BotzonePlayer::read_answer::<G>(simple, bot, deadline)?;
        if keep {
            BotzonePlayer::read_marker(bot)?;
        }
        Ok(turn)
    })
}

/// Reads the bot's turns with `read` and judges each as the referee does: every stone a point of
/// the board (else the reading loop broke its promise), then the rules (an illegal turn ends the
/// game). After each legal turn the other side answers with random stones.
fn play_turns<G: ArenaGame>(
    mut pos: G,
    rng: &mut SmallRng,
    mut read: impl FnMut(&G) -> Result<Vec<G::Move>, EndReason>,
) -> Result<(), String> {
    for _ in 0..MAX_TURNS {
        if pos.outcome().is_some() {
            return Ok(());
        }
        let side = pos.side_to_move();
        let Ok(stones) = read(&pos) else {
            // The bot loses: garbage, an illegal move, a closed pipe ...
            return Ok(());
        };
        for &m in &stones {
            let (x, y) = pos.xy(m);
            if pos.point_at(x, y) != Some(m) {
                return Err(format!("a stone off the board came back as a move: {m:?}"));
            }
        }
        if stones.len() > 2 {
            return Err(format!("{} stones in one answer", stones.len()));
        }
        for &m in &stones {
            if pos.outcome().is_some() || pos.side_to_move() != side || pos.try_play(m).is_err() {
                return Ok(());
            }
        }
        if pos.outcome().is_none() && pos.side_to_move() == side {
            // A short turn: the referee ends the game.
            return Ok(());
        }
        // The opponent's turn, by the rules.
        while pos.outcome().is_none() && pos.side_to_move() != side {
            let legal = pos.legal_moves();
            let Some(&m) = legal.choose(rng) else { break };
            pos.play(m);
        }
    }
    Ok(())
}

// ----- grammar -----

fn letters(rng: &mut SmallRng, size: usize) -> String {
    let letter = |rng: &mut SmallRng| {
        if chance(rng, 0.9) {
            (b'A' + rng.gen_range(0..size as u8)) as char
        } else {
            *['@', 'Z', 'a', '[', '1', 'é']
                .choose(rng)
                .expect("not empty")
        }
    };
    let n = *[4, 4, 4, 2, 3, 5].choose(rng).expect("not empty");
    let mut s: Vec<char> = (0..n).map(|_| letter(rng)).collect();
    if n == 4 && chance(rng, 0.2) {
        s.truncate(2);
        s.extend(['@', '@']);
    }
    s.into_iter().collect()
}

fn sau_output(rng: &mut SmallRng, size: usize, tolerant: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if chance(rng, 0.9) {
        lines.push(
            [
                "name stonebrain",
                "name cloudict",
                "name",
                "name  x",
                "myname",
            ]
            .choose(rng)
            .expect("not empty")
            .to_string(),
        );
    }
    for _ in 0..rng.gen_range(1..MAX_TURNS) {
        if chance(rng, 0.2) {
            lines.push(
                [
                    "thinking...",
                    "search the move for next step",
                    "",
                    "\0",
                    "movement",
                ]
                .choose(rng)
                .expect("not empty")
                .to_string(),
            );
        }
        let l = letters(rng, size);
        lines.push(match rng.gen_range(0..6) {
            0 if tolerant => format!("We loss!move {l}"),
            1 => format!("move {}", l.chars().take(2).collect::<String>()),
            2 => format!("debug: move {l} chosen"),
            3 => format!("move {l}\r"),
            _ => format!("move {l}"),
        });
    }
    lines
}

fn gomocup_output(rng: &mut SmallRng) -> Vec<String> {
    let mut lines = vec![["OK", "ok", "MESSAGE hello", "ERROR size", "", "DEBUG x"]
        .choose(rng)
        .expect("not empty")
        .to_string()];
    if lines[0].starts_with("MESSAGE") || lines[0].is_empty() {
        lines.push("OK".to_string());
    }
    for _ in 0..rng.gen_range(1..MAX_TURNS) {
        if chance(rng, 0.3) {
            lines.push(
                ["MESSAGE thinking", "DEBUG depth 7", "UNKNOWN INFO x", ""]
                    .choose(rng)
                    .expect("not empty")
                    .to_string(),
            );
        }
        let (x, y) = (coordinate(rng, 15), coordinate(rng, 15));
        lines.push(match rng.gen_range(0..10) {
            0 => format!("SUGGEST {x},{y}"),
            1 => format!(" {x} , {y} "),
            2 => format!("{x},{y},1"),
            3 => "ERROR no".to_string(),
            4 => "OK".to_string(),
            5 => format!("{},{}", extreme(rng), extreme(rng)),
            _ => format!("{x},{y}"),
        });
    }
    lines
}

fn botzone_output(rng: &mut SmallRng, game: &str, simple: bool, keep: bool) -> Vec<String> {
    let size = if game == "nogo" { 9 } else { 15 };
    let mut lines = Vec::new();
    for _ in 0..rng.gen_range(1..MAX_TURNS) {
        let mut c = || coordinate(rng, size);
        let (x0, y0, x1, y1) = (c(), c(), c(), c());
        let line = if simple {
            if game == "connect6" {
                format!("{x0} {y0} {x1} {y1}")
            } else {
                format!("{x0} {y0}")
            }
        } else {
            let m = if game == "connect6" {
                format!("{{\"x0\":{x0},\"y0\":{y0},\"x1\":{x1},\"y1\":{y1}}}")
            } else {
                format!("{{\"x\":{x0},\"y\":{y0}}}")
            };
            match rng.gen_range(0..6) {
                0 => m,
                1 => format!("{{\"response\":{:?},\"debug\":\"\"}}", m),
                2 => format!("{{\"response\":{m},\"debug\":[1]}}"),
                3 => "{\"response\":null}".to_string(),
                _ => format!("{{\"debug\":\"ok\",\"response\":{m}}}"),
            }
        };
        lines.push(line);
        if chance(rng, 0.2) {
            lines.push("debug line".to_string());
        }
        if keep && chance(rng, 0.9) {
            lines.push(KEEP_RUNNING_MARKER.to_string());
        }
    }
    lines
}

fn gtp_output(rng: &mut SmallRng) -> Vec<String> {
    let mut lines = vec![
        "=".to_string(),
        String::new(),
        "= ".to_string(),
        String::new(),
    ];
    for _ in 0..rng.gen_range(1..MAX_TURNS) {
        if chance(rng, 0.2) {
            lines.push("thinking...".to_string());
        }
        let col = *"ABCDEFGHJKI".as_bytes().choose(rng).expect("not empty") as char;
        let row = rng.gen_range(0..11);
        lines.push(match rng.gen_range(0..8) {
            0 => "= resign".to_string(),
            1 => "= pass".to_string(),
            2 => "? illegal move".to_string(),
            3 => format!("={row} {col}{row}"),
            4 => format!("= {col}{row} {col}{row}"),
            _ => format!("= {col}{row}"),
        });
        if chance(rng, 0.1) {
            lines.push("more text".to_string());
        }
        if chance(rng, 0.95) {
            lines.push(String::new());
        }
    }
    lines
}

fn generate(rng: &mut SmallRng) -> Vec<u8> {
    let proto = *[
        "sau",
        "sau-tolerant",
        "gomocup",
        "botzone",
        "botzone-simple",
        "botzone-keep-running",
        "gtp",
    ]
    .choose(rng)
    .expect("not empty");
    let game = match proto {
        "botzone" | "botzone-keep-running" => *["nogo", "gomoku", "connect6"]
            .choose(rng)
            .expect("not empty"),
        "botzone-simple" => *["nogo", "connect6"].choose(rng).expect("not empty"),
        "gomocup" => "gomoku",
        "gtp" => "nogo",
        _ => "connect6",
    };
    let size = if chance(rng, 0.8) {
        19
    } else {
        rng.gen_range(6..=25)
    };
    let lines = match proto {
        "sau" | "sau-tolerant" => sau_output(rng, size, proto == "sau-tolerant"),
        "gomocup" => gomocup_output(rng),
        "gtp" => gtp_output(rng),
        p => botzone_output(rng, game, p.contains("simple"), p.contains("keep")),
    };
    let plies = rng.gen_range(0..30).to_string();
    let seed = rng.gen_range(0..1000u32).to_string();
    let deaf = if chance(rng, 0.05) { "1" } else { "0" };
    let header = Header::line(&[
        ("proto", proto),
        ("game", game),
        ("size", &size.to_string()),
        ("plies", &plies),
        ("seed", &seed),
        ("deaf", deaf),
    ]);
    let mut text = header;
    for l in lines {
        text.push_str(&l);
        text.push(if chance(rng, 0.1) { '\r' } else { '\n' });
        if text.ends_with('\r') {
            text.push('\n');
        }
    }
    text.into_bytes()
}

/// The misbehaving bots of `test_vectors/arena/bots` say these lines (and the well-behaved
/// scripted ones, their answers).
fn seeds() -> Vec<Vec<u8>> {
    [
        ("sau", "connect6", "name c6bot\nmove JJ@@\nmove KKKL\n"),
        ("sau", "connect6", "name garbage\nhello\nmove ZZZZ\n"),
        ("sau-tolerant", "connect6", "\nWe loss!move KIIK\nmove JJ\n"),
        (
            "gomocup",
            "gomoku",
            "OK\nMESSAGE hi\n7,7\nSUGGEST 8,8\n8,8\n",
        ),
        ("gomocup", "gomoku", "ERROR unsupported size\n"),
        (
            "botzone",
            "nogo",
            "{\"response\":{\"x\":4,\"y\":4},\"debug\":\"\"}\n",
        ),
        (
            "botzone-keep-running",
            "nogo",
            "{\"x\":0,\"y\":0}\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n",
        ),
        ("botzone-simple", "connect6", "7 7 -1 -1\n8 8 9 9\n"),
        ("gtp", "nogo", "=\n\n=\n\n= E5\n\n= resign\n\n"),
    ]
    .iter()
    .map(|(proto, game, out)| {
        format!(
            "{}{out}",
            Header::line(&[("proto", proto), ("game", game), ("plies", "4")])
        )
        .into_bytes()
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let mut rng = SmallRng::seed_from_u64(37);
        for _ in 0..100 {
            ArenaHarness.run(&generate(&mut rng)).unwrap();
        }
        for seed in seeds() {
            ArenaHarness.run(&seed).unwrap();
        }
    }
}
