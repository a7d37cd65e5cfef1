//! Replays the recorded Botzone games in `test_vectors/botzone/` through the real binary.
//!
//! Each transcript is a complete game of stonebrain against a random player in one Botzone mode,
//! recorded with a fixed seed and playout budget, which make the bot reproducible: the replay
//! feeds the recorded inputs (a fresh process per turn in full-history modes, one process in
//! keep-running modes) and requires the recorded moves, in the recorded output form, back.
//! `cargo test --release --test botzone_transcripts -- --ignored` records them again (needed
//! only when the engine's play changes on purpose).

mod common;

use common::{parse_answer, play_vs_random, run_once, KeptBot, Mode, MARKER};
use std::path::{Path, PathBuf};
use stonebrain::game::{Color, Outcome};

const ARGS: [&str; 8] = [
    "--game",
    "nogo",
    "--playouts",
    "800",
    "--time-ms",
    "60000",
    "--seed",
    "7",
];

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_vectors/botzone")
}

struct Transcript {
    mode: Mode,
    args: Vec<String>,
    turns: Vec<(Vec<String>, Vec<String>)>,
}

fn parse(text: &str) -> Transcript {
    let mut mode = None;
    let mut args = Vec::new();
    let mut turns: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(m) = line.strip_prefix("mode: ") {
            mode = Mode::from_name(m.trim());
        } else if let Some(a) = line.strip_prefix("args: ") {
            args = a.split_whitespace().map(str::to_string).collect();
        } else if line == "turn" {
            turns.push((Vec::new(), Vec::new()));
        } else if let Some(input) = line.strip_prefix("> ") {
            turns
                .last_mut()
                .expect("'>' before any 'turn'")
                .0
                .push(input.to_string());
        } else if let Some(output) = line.strip_prefix("< ") {
            turns
                .last_mut()
                .expect("'<' before any 'turn'")
                .1
                .push(output.to_string());
        }
    }
    Transcript {
        mode: mode.expect("a 'mode:' line"),
        args,
        turns,
    }
}

/// The part of an output line that must match: the move (debug text carries timings).
fn essential(mode: Mode, lines: &[String]) -> String {
    match parse_answer(mode, lines) {
        Ok(m) => format!("{m:?}"),
        Err(e) => format!("unreadable: {e}"),
    }
}

#[test]
fn recorded_games_replay_exactly() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("test_vectors/botzone exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 8,
        "expected a transcript per mode and colour, found {files:?}"
    );
    for file in files {
        let t = parse(&std::fs::read_to_string(&file).unwrap());
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let args: Vec<&str> = t.args.iter().map(String::as_str).collect();
        let mut kept = t.mode.keep_running().then(|| KeptBot::start(&args));
        assert!(t.turns.len() > 5, "{name}: a whole game has more turns");
        for (i, (inputs, expected)) in t.turns.iter().enumerate() {
            let input = inputs.join("\n") + "\n";
            let got: Vec<String> = match &mut kept {
                Some(bot) => bot.send(&input),
                None => {
                    let (out, err, code) = run_once(&args, &input);
                    assert_eq!(code, Some(0), "{name} turn {}: {err}", i + 1);
                    out.lines().map(str::to_string).collect()
                }
            };
            let expected: Vec<String> = expected.iter().filter(|l| *l != MARKER).cloned().collect();
            assert_eq!(
                got.len(),
                expected.len(),
                "{name} turn {}: output lines {got:?}",
                i + 1
            );
            assert_eq!(
                essential(t.mode, &got),
                essential(t.mode, &expected),
                "{name} turn {}",
                i + 1
            );
        }
    }
}

#[test]
#[ignore = "records test_vectors/botzone again; run on purpose only"]
fn record_transcripts() {
    let modes = [
        Mode::Json,
        Mode::JsonKeepRunning,
        Mode::Simple,
        Mode::SimpleKeepRunning,
    ];
    for mode in modes {
        for (k, color) in [Color::Black, Color::White].into_iter().enumerate() {
            let mut args: Vec<&str> = ARGS.to_vec();
            if mode.simple() {
                args.extend(["--protocol", "botzone-simple"]);
            }
            if mode.keep_running() {
                args.push("--keep-running");
            }
            // `play_vs_random` adds the mode flags itself; `args` records the full command line.
            let rec = play_vs_random(mode, color, &ARGS, 40 + k as u64).expect("game plays");
            let result = match rec.outcome {
                Outcome::Win(c) if c == color => "stonebrain wins",
                _ => "stonebrain loses",
            };
            let mut text = format!(
                "# A complete NoGo game of stonebrain ({}) against a random player over Botzone's {} mode.\n\
                 # '>' lines go to the bot, '<' lines come back; each 'turn' in a full-history mode is a\n\
                 # fresh process. Replayed by src/tests/botzone_transcripts.rs.\n",
                color.name(),
                mode.name()
            );
            text += &format!(
                "mode: {}\nargs: {}\nbot: {}\nresult: {result}\n",
                mode.name(),
                args.join(" "),
                color.name()
            );
            for ex in &rec.exchanges {
                text += "turn\n";
                for l in ex.input.lines() {
                    text += &format!("> {l}\n");
                }
                for l in &ex.output {
                    text += &format!("< {l}\n");
                }
                if mode.keep_running() {
                    text += &format!("< {MARKER}\n");
                }
            }
            let file = vectors_dir().join(format!("{}-{}.txt", mode.name(), color.name()));
            std::fs::write(&file, text).unwrap();
        }
    }
}
