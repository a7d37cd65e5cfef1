//! GTP through the real binary: the scripted session of `test_vectors/gtp/nogo-session.txt`
//! (every command, errors included) line by line, bad bytes that must not kill the engine, a
//! whole game against a random controller, and arena games where both sides speak GTP.

mod common;

use common::{bin, line_channel, run_once};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use stonebrain::game::nogo::{Nogo, NogoRules, Point};
use stonebrain::game::{Color, Game};
use stonebrain::protocol::gtp::{parse_vertex, vertex_name};

/// Long enough never to fire on a working engine, short enough to fail a hung one.
const PATIENCE: Duration = Duration::from_secs(60);
const FAST: [&str; 6] = ["--time-ms", "60", "--margin-ms", "10", "--seed", "5"];

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn stonebrain");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let lines = line_channel(stdout);
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// One answer: its lines up to (not including) the empty line that ends it.
    fn answer(&mut self, command: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("no complete answer to {command:?}; got {lines:?}"));
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    fn ask(&mut self, command: &str) -> Vec<String> {
        self.send_bytes(format!("{command}\n").as_bytes());
        self.answer(command)
    }

    fn finish(mut self) -> Option<i32> {
        drop(self.stdin);
        self.child.wait().unwrap().code()
    }
}

/// The game as the controller sees it: replayed from the moves, for legality checks.
fn replay(moves: &[Point]) -> Nogo {
    let mut pos = Nogo::new(NogoRules::default());
    for &m in moves {
        pos.try_play(m)
            .expect("a legal move in the controller's record");
    }
    pos
}

#[test]
fn the_scripted_session_gets_exactly_the_answers_it_expects() {
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/test_vectors/gtp/nogo-session.txt"
    ))
    .unwrap();
    // (command, expected lines) in order; `#` lines of the file are its own comments.
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in script.lines() {
        if let Some(cmd) = line.strip_prefix("> ") {
            steps.push((cmd.to_string(), Vec::new()));
        } else if let Some(exp) = line.strip_prefix("< ").or(line.strip_prefix("<")) {
            steps
                .last_mut()
                .expect("an answer after a command")
                .1
                .push(exp.to_string());
        }
    }
    assert!(
        steps.len() > 40,
        "the script was read: {} steps",
        steps.len()
    );
    // No --protocol: the first line says GTP.
    let mut engine = Engine::start(&FAST);
    let mut moves: Vec<Point> = Vec::new();
    let mut generated = 0;
    for (command, expected) in &steps {
        let got = engine.ask(command);
        assert_eq!(
            got.len(),
            expected.len(),
            "{command}: {got:?} vs {expected:?}"
        );
        for (g, e) in got.iter().zip(expected) {
            if let Some(head) = e.strip_suffix("{vertex}") {
                let v = g
                    .strip_prefix(head)
                    .unwrap_or_else(|| panic!("{command}: {g:?} does not start {head:?}"));
                let m = parse_vertex(v).unwrap().expect("a move, not a pass");
                let pos = replay(&moves);
                assert!(pos.is_legal(m), "{command}: {v} is not legal");
                moves.push(m);
                generated += 1;
            } else if let Some(head) = e.strip_suffix("{version}") {
                assert_eq!(g, &format!("{head}{}", env!("CARGO_PKG_VERSION")));
            } else {
                assert_eq!(g, e, "{command}");
            }
        }
        let ok = got[0].starts_with('=');
        let words: Vec<&str> = command
            .split('#')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        let words = if words
            .first()
            .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
        {
            &words[1..]
        } else {
            &words[..]
        };
        match (ok, words) {
            (true, ["play", _, v]) => moves.push(parse_vertex(v).unwrap().unwrap()),
            (true, ["undo"]) => {
                moves.pop();
            }
            (true, ["clear_board"] | ["boardsize", _]) => moves.clear(),
            _ => {}
        }
    }
    assert_eq!(generated, 3);
    assert_eq!(engine.finish(), Some(0), "quit ends the process cleanly");
}

#[test]
fn bad_bytes_get_errors_and_the_engine_keeps_serving() {
    let mut engine = Engine::start(&["--protocol", "gtp", "--time-ms", "50"]);
    let long = "x".repeat(100_000);
    let hostile: Vec<Vec<u8>> = vec![
        b"\xff\xfe\xfd garbage\n".to_vec(),
        b"play b \0E5\n".to_vec(),
        format!("{long}\n").into_bytes(),
        b"genmove\n".to_vec(),
        b"time_left w 1e300 0\n".to_vec(),
        b"time_settings -1 0 0\n".to_vec(),
        b"99999999999999999999999 name\n".to_vec(),
        b"boardsize 99999999999999999999\n".to_vec(),
        b"play b A99999999999999999999\n".to_vec(),
        b"known_command\n".to_vec(),
    ];
    for bytes in &hostile {
        engine.send_bytes(bytes);
        let answer = engine.answer(&String::from_utf8_lossy(bytes));
        assert!(
            answer[0].starts_with('?') || answer[0].starts_with('='),
            "{:?} -> {answer:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    // `play b \0E5` is `play b E5` once the NUL is dropped, as GTP's cleaning says.
    assert_eq!(engine.ask("showboard")[6], " 5  . . . . X . . . .");
    assert_eq!(engine.ask("name"), ["= stonebrain"]);
    let m = engine.ask("genmove w");
    assert!(m[0].starts_with("= "), "{m:?}");
    assert_eq!(
        engine.finish(),
        Some(0),
        "the end of input ends the process"
    );
}

#[test]
fn a_whole_game_against_a_random_controller_is_legal_to_the_end() {
    let mut engine = Engine::start(&FAST);
    assert_eq!(engine.ask("boardsize 9"), ["="]);
    assert_eq!(engine.ask("clear_board"), ["="]);
    let mut pos = Nogo::new(NogoRules::default());
    let mut seed = 99u64;
    let mut turns = 0;
    // The engine is White; the controller plays random legal moves as Black.
    loop {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            // Black has no move: the engine has won. Asked for a move for Black, it resigns.
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = legal[(seed >> 33) as usize % legal.len()];
        assert_eq!(engine.ask(&format!("play b {}", vertex_name(m))), ["="]);
        pos.play(m);
        let answer = engine.ask("genmove w");
        turns += 1;
        let text = answer[0].strip_prefix("= ").expect("a success answer");
        if text == "resign" {
            assert!(
                pos.legal_moves().is_empty(),
                "resigned with a legal move left"
            );
            break;
        }
        let m = parse_vertex(text).unwrap().unwrap();
        assert!(pos.is_legal(m), "{text} is illegal");
        pos.play(m);
    }
    assert_eq!(
        pos.side_to_move(),
        Color::Black,
        "the game ended on Black's turn"
    );
    assert_eq!(engine.ask("genmove b"), ["= resign"]);
    assert!(turns > 10, "a real game: {turns} turns");
    assert_eq!(engine.ask("quit"), ["="]);
    assert_eq!(engine.finish(), Some(0));
}

#[test]
fn other_games_are_refused_in_gtp_form() {
    let (out, _, code) = run_once(&["--game", "gomoku"], "protocol_version\n");
    assert_eq!(out, "? gomoku over the gtp protocol is not available\n\n");
    assert_eq!(code, Some(2));
}

#[test]
fn the_arena_plays_gtp_engines() {
    let dir = std::env::temp_dir().join(format!("stonebrain-gtp-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.jsonl");
    let cmd = format!("cmd={} --protocol gtp --time-ms 60 --margin-ms 10", bin());
    let status = Command::new(bin())
        .args(["arena", "--game", "nogo", "--games", "2", "--tc-move", "2"])
        .args(["--out", out.to_str().unwrap()])
        .args(["--engine", "name=gtp", &cmd, "proto=gtp", "init=komi 0"])
        .args(["--engine", "name=mcts", "builtin=mcts:30ms"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let records = std::fs::read_to_string(&out).unwrap();
    let games: Vec<serde_json::Value> = records
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    for g in &games {
        // Both sides played legal moves to the end: the rules ended the game.
        assert_eq!(g["reason"], "rules", "{g}");
        assert!(g["moves"].as_array().unwrap().len() > 20, "{g}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
