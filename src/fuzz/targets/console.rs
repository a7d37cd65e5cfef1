//! `stonebrain play`, the console game: its options (the input's first line, as typed after
//! `stonebrain play`) and what a person types at the prompt, on a scripted terminal.
//!
//! Files: `save` and `load` name files in the worker's own folder (the argument is replaced
//! by `f0.txt` to `f3.txt` there, which start as a NoGo, a Gomoku and a Connect6 game and a file
//! that is not a saved game), so that no input can write or read anything else. A `save` without
//! a file name is given one too, since its default is the current directory.
//!
//! The oracle: nothing but plain text reaches a terminal that is not one (no escape sequence,
//! whatever was typed), and every game the console saved reads back and replays by the rules.

use super::super::grammar::{chance, extreme, random_game, searched_turns};
use super::super::{Harness, Target, Workspace};
use super::files::{random_save_text, random_setup};
use super::SEARCH_ITERATIONS;
use crate::console::games::{ConsoleGame, Setup};
use crate::console::notation::{write_in, Notation, Style};
use crate::console::savefile::SaveFile;
use crate::console::term::Term;
use crate::console::{run_on, validate, PlayArgs};
use crate::game::connect6::Connect6;
use crate::game::gomoku::Gomoku;
use crate::game::nogo::Nogo;
use crate::protocol::GameKind;
use clap::Parser;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub const TARGET: Target = Target {
    name: "console",
    weight: 1,
    about: "stonebrain play: its options, moves and commands at the prompt, save and load",
    seeds,
    generate,
    words: &[
        "undo",
        "hint",
        "save",
        "load",
        "new",
        "swap",
        "side",
        "watch",
        "board",
        "help",
        "quit",
        "black",
        "white",
        "--size",
        "--human",
        "--watch",
        "--level",
        "--centre-ban",
        "--exact-five",
        "nogo",
        "gomoku",
        "connect6",
        "4,4",
        "JJ",
        "HH",
    ],
    harness,
};

/// The save files of a worker: their names and what they hold before each input.
const FILES: usize = 4;

#[derive(Parser)]
#[command(name = "play")]
struct PlayCommand {
    #[command(flatten)]
    play: PlayArgs,
}

/// Output the console writes, kept for the oracle.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct ConsoleHarness {
    files: Vec<PathBuf>,
    pristine: Vec<String>,
}

fn harness(workspace: &Workspace) -> Box<dyn Harness> {
    let mut rng = SmallRng::seed_from_u64(17);
    let mut pristine: Vec<String> = Vec::new();
    // A saved game of each kind, then something else.
    while pristine.len() < FILES - 1 {
        let text = random_save_text(&mut rng);
        let kind = SaveFile::parse(&text).map(|s| s.setup.kind);
        let wanted = [GameKind::Nogo, GameKind::Gomoku, GameKind::Connect6][pristine.len()];
        if kind == Ok(wanted) {
            pristine.push(text);
        }
    }
    pristine.push("not a saved game\n".to_string());
    let files: Vec<PathBuf> = (0..FILES)
        .map(|i| workspace.dir.join(format!("f{i}.txt")))
        .collect();
    let h = ConsoleHarness { files, pristine };
    h.restore();
    Box::new(h)
}

impl ConsoleHarness {
    fn restore(&self) {
        for (file, text) in self.files.iter().zip(&self.pristine) {
            let _ = std::fs::write(file, text);
        }
    }

    /// The worker's file for an argument (the same argument always names the same file).
    fn file_for(&self, arg: &[u8]) -> &PathBuf {
        let sum: usize = arg.iter().map(|&b| b as usize).sum();
        &self.files[sum % FILES]
    }

    /// The input with `save` and `load` pointed at the worker's files; whether any file may
    /// have been written.
    fn sandboxed(&self, lines: &[u8]) -> (Vec<u8>, bool) {
        let mut out = Vec::with_capacity(lines.len());
        let mut saves = false;
        for line in lines.split_inclusive(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(line);
            let trimmed = text.trim();
            let (word, rest) = trimmed
                .split_once(char::is_whitespace)
                .unwrap_or((trimmed, ""));
            let word = word.to_ascii_lowercase();
            if word == "save" || word == "load" {
                saves |= word == "save";
                let file = self.file_for(rest.trim().as_bytes());
                out.extend_from_slice(format!("{word} {}\n", file.display()).as_bytes());
            } else {
                out.extend_from_slice(line);
            }
        }
        (out, saves)
    }
}

impl Harness for ConsoleHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (options, typed) = match input.iter().position(|&b| b == b'\n') {
            Some(i) => (&input[..i], &input[i + 1..]),
            None => (input, &input[input.len()..]),
        };
        let options = String::from_utf8_lossy(options);
        let argv = std::iter::once("play").chain(options.split_whitespace());
        let Ok(command) = PlayCommand::try_parse_from(argv) else {
            // Refused by the command line, with clap's message.
            return Ok(());
        };
        let mut args = command.play;
        // Thinking is a few iterations, and repeats; files stay in the worker's folder.
        args.nodes = Some(SEARCH_ITERATIONS);
        args.time = 60.0;
        args.seed = Some(1);
        if let Some(load) = &args.load {
            args.load = Some(self.file_for(load.as_os_str().as_encoded_bytes()).clone());
        }
        let (typed, saves) = self.sandboxed(typed);
        let out = Captured::default();
        let sink = out.clone();
        // A refusal of the options is printed by `play`; here it is only an answer.
        let _ = run_on(&args, || Term::scripted(&typed, Box::new(sink)));
        let text = out.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(at) = text.iter().position(|&b| b == 0x1b) {
            let around =
                String::from_utf8_lossy(&text[at.saturating_sub(40)..(at + 40).min(text.len())]);
            return Err(format!(
                "an escape sequence on a plain terminal: {around:?}"
            ));
        }
        if saves {
            let result = self.check_saved();
            self.restore();
            result?;
        }
        Ok(())
    }
}

impl ConsoleHarness {
    /// Every file the console wrote is a saved game that replays.
    fn check_saved(&self) -> Result<(), String> {
        for (file, pristine) in self.files.iter().zip(&self.pristine) {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            if &text == pristine {
                continue;
            }
            let save = SaveFile::parse(&text)
                .map_err(|e| format!("the console saved a file it cannot read: {e}\n{text}"))?;
            validate(&save).map_err(|e| {
                format!("the console saved a game that does not replay: {e}\n{text}")
            })?;
        }
        Ok(())
    }
}

// ----- grammar -----

/// Whether a watched game (the computer on both sides, to the end) stays short: NoGo, or
/// Connect6 on a small board.
fn short_games(setup: &Setup) -> bool {
    setup.kind == GameKind::Nogo || (setup.kind == GameKind::Connect6 && setup.size <= 9)
}

/// The options line for a setup, sometimes with a wrong option.
fn options_line(rng: &mut SmallRng, setup: &Setup) -> String {
    let mut words = vec![setup.kind.name().to_string()];
    if setup.kind != GameKind::Nogo || chance(rng, 0.2) {
        words.push(format!("--size {}", setup.size));
    }
    if setup.centre_ban {
        words.push("--centre-ban".to_string());
    }
    if setup.exact_five {
        words.push("--exact-five".to_string());
    }
    if setup.kind == GameKind::Gomoku {
        words.push(format!("--level {}", setup.level.name()));
    }
    match rng.gen_range(0..6) {
        0 => words.push("--human white".to_string()),
        1 if short_games(setup) => words.push("--watch".to_string()),
        2 => words.push(format!("--load f{}", rng.gen_range(0..FILES))),
        _ => {}
    }
    if chance(rng, 0.1) {
        let wrong = *[
            "--size 30",
            "--level full",
            "--centre-ban",
            "--time 0",
            "--nodes 0",
            "--size x",
            "chess",
        ]
        .choose(rng)
        .expect("not empty");
        words.push(wrong.to_string());
    }
    words.join(" ")
}

/// The moves of a game as a person would type them (either notation the game reads).
fn typed_moves<G: ConsoleGame>(rng: &mut SmallRng, setup: &Setup) -> Vec<String> {
    let start = G::start(setup);
    // Each move typed is answered by a search: a few, sometimes a long game.
    let n = searched_turns(rng).min(30);
    let (_, moves) = random_game(rng, start.clone(), n, None);
    let notation = Notation::for_game(setup.kind, setup.size);
    let mut pos = start;
    let mut out = Vec::new();
    let mut turn: Vec<(usize, usize)> = Vec::new();
    for m in moves {
        let side = pos.side_to_move();
        turn.push(pos.xy(m));
        pos.play(m);
        if pos.side_to_move() != side || pos.outcome().is_some() {
            let text = if chance(rng, 0.2) {
                let style = if notation.other == Style::Numbers {
                    Style::Numbers
                } else {
                    notation.other
                };
                turn.iter()
                    .map(|&p| write_in(style, p))
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                notation.write_all(&turn)
            };
            out.push(text);
            turn.clear();
        }
    }
    out
}

fn generate(rng: &mut SmallRng) -> Vec<u8> {
    let mut setup = random_setup(rng);
    // A Connect6 engine fills a table of megabytes when it is made: fewer of those.
    if setup.kind == GameKind::Connect6 && chance(rng, 0.5) {
        setup = random_setup(rng);
    }
    // Small boards keep a watched game short.
    if setup.kind != GameKind::Nogo && chance(rng, 0.7) {
        setup.size = if setup.kind == GameKind::Gomoku {
            11
        } else {
            rng.gen_range(6..=9)
        };
    }
    let mut lines = vec![options_line(rng, &setup)];
    let moves = match setup.kind {
        GameKind::Nogo => typed_moves::<Nogo>(rng, &setup),
        GameKind::Gomoku => typed_moves::<Gomoku>(rng, &setup),
        GameKind::Connect6 => typed_moves::<Connect6>(rng, &setup),
    };
    let commands = [
        "undo",
        "hint",
        "save",
        "save mine.txt",
        "load f1",
        "load f3",
        "load missing",
        "load",
        "new",
        "new white",
        "new purple",
        "swap",
        "side black",
        "side white",
        "side",
        "board",
        "help",
        "h",
        "?",
        "",
        "watch",
        "fly",
        "ABCDEFG",
        "4,4",
        "9,9",
        "-1,3",
        "JJ JJ",
        "AA BB CC",
        "@@",
        "(3, 4)",
    ];
    for m in moves.iter().step_by(2) {
        lines.push(m.clone());
        if chance(rng, 0.15) {
            let c = *commands.choose(rng).expect("not empty");
            // `watch` plays the game to its end (pauses are for live terminals): on small
            // boards only.
            if c != "watch" || short_games(&setup) {
                lines.push(c.to_string());
            }
        }
        if chance(rng, 0.03) {
            lines.push(format!("{},{}", extreme(rng), extreme(rng)));
        }
    }
    if chance(rng, 0.3) {
        lines.push("save".to_string());
    }
    if chance(rng, 0.7) {
        lines.push("quit".to_string());
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text.into_bytes()
}

fn seeds() -> Vec<Vec<u8>> {
    [
        "nogo\n4,3\nhint\n9,9\nsave game.txt\nquit\n",
        "gomoku --human white --level classic\n7,7\nHH\nundo\nboard\nquit\n",
        "connect6 --size 15\nJJ\nKK KL\nswap\nside black\nhelp\nquit\n",
        "gomoku --size 11 --level wintable --exact-five\n5,5\n6,6\nnew black\nload f2\nquit\n",
        "nogo --centre-ban\n4,4\n0,0\nundo\nundo\nsave\nload f0\nquit\n",
        "connect6 --size 6 --watch\n\nquit\n",
        "--load f1\nhint\nquit\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let workspace = Workspace::create();
        let mut h = harness(&workspace);
        let mut rng = SmallRng::seed_from_u64(19);
        for _ in 0..30 {
            h.run(&generate(&mut rng)).unwrap();
        }
        for seed in seeds() {
            h.run(&seed).unwrap();
        }
        workspace.remove();
    }
}
