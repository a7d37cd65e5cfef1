//! The Gomocup protocol through the real binary: the test plays the manager (Piskvork's way:
//! CR LF line ends, `MESSAGE`/`DEBUG` lines skipped while waiting for an answer) and a random
//! opponent, and checks every line the bot writes. Nothing here depends on the engine's
//! strength: answers must be legal, well-formed and in the protocol's order.

mod common;

use common::{bin, line_channel, renamed_copy, spawn_copied, XorShift};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use stonebrain::game::gomoku::{Gomoku, GomokuRules, Point};
use stonebrain::game::{Color, Game};

/// Long enough never to fire on a working bot, short enough to fail a hung one.
const PATIENCE: Duration = Duration::from_secs(60);

/// A bot process spoken to as a gomoku manager speaks.
struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
    /// `MESSAGE` and `DEBUG` lines seen so far.
    messages: Vec<String>,
}

impl Brain {
    fn start(args: &[&str]) -> Brain {
        Brain::start_program(Path::new(bin()), args)
    }

    fn start_program(program: &Path, args: &[&str]) -> Brain {
        // The program may be a copy this process has just written (`renamed_copy`).
        let mut child = spawn_copied(
            Command::new(program)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .expect("spawn the bot");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let lines = line_channel(stdout);
        let stderr = std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            all
        });
        Brain {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
            messages: Vec::new(),
        }
    }

    /// Writes each line with CR LF, all in one write.
    fn send(&mut self, lines: &[&str]) {
        let text: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(text.as_bytes()).expect("write to bot");
        stdin.flush().expect("flush to bot");
    }

    /// The next answer line, as the manager reads it: `MESSAGE` and `DEBUG` lines are kept
    /// aside and skipped.
    fn answer(&mut self) -> String {
        loop {
            let line = match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => line,
                Err(e) => panic!("no answer from the bot ({e:?})"),
            };
            assert!(!line.contains('\r'), "stray CR in {line:?}");
            let upper = line.to_ascii_uppercase();
            if upper.starts_with("MESSAGE ") || upper.starts_with("DEBUG ") {
                self.messages.push(line);
                continue;
            }
            return line;
        }
    }

    /// Sends `lines` and returns the answer.
    fn ask(&mut self, lines: &[&str]) -> String {
        self.send(lines);
        self.answer()
    }

    /// Proof that nothing was written since the last answer: `ABOUT` is answered next.
    fn nothing_printed(&mut self) {
        let about = self.ask(&["ABOUT"]);
        assert!(about.starts_with("name=\""), "unexpected output {about:?}");
    }

    /// Sends `END`, waits for the exit, and returns the status, how long the exit took, any
    /// further output and standard error.
    fn end(mut self) -> (ExitStatus, Duration, Vec<String>, String) {
        self.send(&["END"]);
        let asked = Instant::now();
        let status = self.wait_exit();
        let took = asked.elapsed();
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            rest.push(line);
        }
        let stderr = self.stderr.take().unwrap().join().unwrap();
        (
            status,
            took,
            rest,
            String::from_utf8_lossy(&stderr).into_owned(),
        )
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the bot") {
                return status;
            }
            assert!(start.elapsed() < PATIENCE, "the bot did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Ends the session and checks the exit: status 0, quick, silent, standard error empty.
fn assert_clean_end(brain: Brain) {
    let (status, took, rest, stderr) = brain.end();
    assert!(status.success(), "exit status {status:?}");
    assert!(took < Duration::from_secs(10), "END took {took:?}");
    assert!(rest.is_empty(), "output after END: {rest:?}");
    assert!(
        stderr.is_empty(),
        "standard error must stay empty: {stderr:?}"
    );
}

fn board(size: usize, exact_five: bool) -> Gomoku {
    Gomoku::new(GomokuRules::new(size, exact_five).unwrap())
}

fn xy(pos: &Gomoku, m: Point) -> String {
    let (x, y) = pos.coords(m);
    format!("{x},{y}")
}

/// Reads a move answer strictly (`x,y`, whole numbers, nothing else) and plays it on the
/// referee's board.
fn play_answer(pos: &mut Gomoku, text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("not a move x,y: {text:?}"))?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(x) || !digits(y) {
        return Err(format!("not a move x,y: {text:?}"));
    }
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    let m = pos
        .try_point(x, y)
        .ok_or_else(|| format!("{text:?} is off the board"))?;
    pos.try_play(m)
        .map_err(|e| format!("illegal answer {text:?}: {e}\n{pos}"))?;
    Ok(m)
}

fn random_move(pos: &mut Gomoku, rng: &mut XorShift) -> Point {
    let legal = pos.legal_moves();
    let m = legal[rng.below(legal.len())];
    pos.play(m);
    m
}

/// One whole game against a random opponent, the bot as `us`; the game must already be
/// started (`START` or `RESTART`). Every answer is checked.
fn play_game(brain: &mut Brain, size: usize, exact_five: bool, us: Color, seed: u64) {
    let mut rng = XorShift::new(seed);
    let mut pos = board(size, exact_five);
    let mut answer = if us == Color::Black {
        brain.ask(&["BEGIN"])
    } else {
        let m = random_move(&mut pos, &mut rng);
        let turn = format!("TURN {}", xy(&pos, m));
        brain.ask(&[&turn])
    };
    loop {
        if let Err(e) = play_answer(&mut pos, &answer) {
            panic!("{size}x{size} game {seed} as {}: {e}", us.name());
        }
        if pos.outcome().is_some() {
            return;
        }
        let m = random_move(&mut pos, &mut rng);
        if pos.outcome().is_some() {
            return;
        }
        let turn = format!("TURN {}", xy(&pos, m));
        answer = brain.ask(&["INFO time_left 100000", &turn]);
    }
}

#[test]
fn whole_games_on_15x15_and_20x20_as_black_and_white() {
    for size in [15, 20] {
        let mut brain = Brain::start(&["--seed", "5"]);
        let start = format!("START {size}");
        assert_eq!(
            brain.ask(&[&start, "INFO timeout_turn 50", "INFO timeout_match 0"]),
            "OK"
        );
        for (i, us) in [Color::Black, Color::White, Color::White, Color::Black]
            .into_iter()
            .enumerate()
        {
            if i > 0 {
                assert_eq!(brain.ask(&["RESTART"]), "OK");
            }
            play_game(&mut brain, size, false, us, 10 * size as u64 + i as u64);
        }
        assert!(brain.messages.is_empty(), "{:?}", brain.messages);
        assert_clean_end(brain);
    }
}

#[test]
fn a_board_in_shuffled_order_is_answered_and_the_game_goes_on() {
    let mut brain = Brain::start(&["--time-ms", "30", "--margin-ms", "10"]);
    assert_eq!(brain.ask(&["START 15"]), "OK");
    for (case, stones) in [0usize, 1, 6, 7, 20, 31].into_iter().enumerate() {
        let mut rng = XorShift::new(300 + case as u64);
        // A random game of `stones` moves with no five yet.
        let mut pos = board(15, false);
        while pos.ply() < stones {
            let mut next = pos.clone();
            random_move(&mut next, &mut rng);
            if next.outcome().is_none() {
                pos = next;
            }
        }
        let us = pos.side_to_move();
        let mut lines: Vec<String> = pos
            .moves()
            .iter()
            .map(|&m| {
                let field = if pos.color_at(m) == Some(us) { 1 } else { 2 };
                format!("{},{field}", xy(&pos, m))
            })
            .collect();
        // Any order: reversed, then shuffled.
        lines.reverse();
        for i in (1..lines.len()).rev() {
            let j = rng.below(i + 1);
            lines.swap(i, j);
        }
        let mut message: Vec<&str> = vec!["RESTART"];
        assert_eq!(brain.ask(&message), "OK");
        message = vec!["BOARD"];
        message.extend(lines.iter().map(String::as_str));
        message.push("DONE");
        let answer = brain.ask(&message);
        play_answer(&mut pos, &answer).unwrap_or_else(|e| panic!("case {case}: {e}"));
        // The game goes on from there with TURN.
        for _ in 0..3 {
            if pos.outcome().is_some() {
                break;
            }
            let m = random_move(&mut pos, &mut rng);
            if pos.outcome().is_some() {
                break;
            }
            let turn = format!("TURN {}", xy(&pos, m));
            let answer = brain.ask(&[&turn]);
            play_answer(&mut pos, &answer).unwrap_or_else(|e| panic!("case {case}: {e}"));
        }
    }
    assert_clean_end(brain);
}

#[test]
fn takeback_and_restart() {
    let mut brain = Brain::start(&["--time-ms", "30", "--margin-ms", "10"]);
    assert_eq!(brain.ask(&["START 15"]), "OK");
    let mut pos = board(15, false);
    let first = brain.ask(&["BEGIN"]);
    let ours = play_answer(&mut pos, &first).unwrap();
    let theirs = pos.point(0, 0);
    pos.play(theirs);
    let second = brain.ask(&["TURN 0,0"]);
    let ours2 = play_answer(&mut pos, &second).unwrap();
    // As a manager undoes: the last move first.
    assert_eq!(brain.ask(&[&format!("TAKEBACK {}", xy(&pos, ours2))]), "OK");
    pos.undo();
    assert_eq!(brain.ask(&["TAKEBACK 0,0"]), "OK");
    pos.undo();
    // The opponent plays elsewhere, even on the point our stone left.
    let again = ours2;
    pos.play(again);
    let answer = brain.ask(&[&format!("TURN {}", xy(&pos, again))]);
    play_answer(&mut pos, &answer).unwrap();
    // A stone that is not there cannot be taken back; the game goes on.
    let empty = pos.legal_moves()[0];
    let refused = brain.ask(&[&format!("TAKEBACK {}", xy(&pos, empty))]);
    assert!(refused.starts_with("ERROR "), "{refused:?}");
    assert_eq!(pos.color_at(ours), Some(Color::Black));
    // A new game on the same board.
    assert_eq!(brain.ask(&["RESTART"]), "OK");
    let mut pos = board(15, false);
    let answer = brain.ask(&["BEGIN"]);
    play_answer(&mut pos, &answer).unwrap();
    assert_clean_end(brain);
}

#[test]
fn about_unknown_commands_and_bad_input_get_their_answers() {
    let mut brain = Brain::start(&["--time-ms", "30", "--margin-ms", "10"]);
    let about = brain.ask(&["ABOUT"]);
    assert!(
        about.starts_with("name=\"stonebrain\", version=\"")
            && about.contains("\", author=\"")
            && about.contains("\", country=\"")
            && about.ends_with('"'),
        "{about:?}"
    );
    // Moves before START.
    for command in ["BEGIN", "TURN 7,7", "RESTART", "TAKEBACK 1,1"] {
        let a = brain.ask(&[command]);
        assert!(
            a.starts_with("ERROR ") && a.contains("START"),
            "{command}: {a:?}"
        );
    }
    let a = brain.ask(&["BOARD", "1,1,1", "DONE"]);
    assert!(a.starts_with("ERROR ") && a.contains("START"), "{a:?}");
    // Bad sizes, then square and rectangular RECTSTART.
    for command in ["START 10", "START 21", "START 100", "START", "START x"] {
        assert!(brain.ask(&[command]).starts_with("ERROR "), "{command}");
    }
    assert_eq!(brain.ask(&["RECTSTART 15,15"]), "OK");
    let rect = brain.ask(&["RECTSTART 20,15"]);
    assert!(
        rect.starts_with("ERROR ") && rect.contains("rectangular"),
        "{rect:?}"
    );
    assert!(brain.ask(&["RECTSTART 30,30"]).starts_with("ERROR "));
    // Unknown commands.
    for command in ["HELLO", "SUGGEST 1,1", "PLAY 3,3", "YXSHOWINFO", "7,7,1"] {
        let a = brain.ask(&[command]);
        assert!(a.starts_with("UNKNOWN "), "{command}: {a:?}");
    }
    assert!(brain.ask(&["DONE"]).starts_with("ERROR "));
    // A game: a move on an occupied point, off the board, malformed; then a good one.
    assert_eq!(brain.ask(&["START 15"]), "OK");
    let mut pos = board(15, false);
    pos.play(pos.point(7, 7));
    let answer = brain.ask(&["TURN 7,7"]);
    let ours = play_answer(&mut pos, &answer).unwrap();
    for command in [
        "TURN 7,7".to_string(),
        format!("TURN {}", xy(&pos, ours)),
        "TURN 15,3".to_string(),
        "TURN 3".to_string(),
        "TURN a,b".to_string(),
    ] {
        let a = brain.ask(&[&command]);
        assert!(a.starts_with("ERROR "), "{command}: {a:?}");
    }
    let free = pos.legal_moves()[0];
    pos.play(free);
    let answer = brain.ask(&[&format!("TURN {}", xy(&pos, free))]);
    play_answer(&mut pos, &answer).unwrap();
    // A BOARD the bot cannot play: a continuous game's marked stones, and a bad line.
    for stones in [["1,1,3", "2,2,2"], ["1,1,1", "1,1,2"]] {
        let mut message = vec!["BOARD"];
        message.extend(stones);
        message.push("DONE");
        let a = brain.ask(&message);
        assert!(a.starts_with("ERROR BOARD"), "{stones:?}: {a:?}");
    }
    assert_clean_end(brain);
}

#[test]
fn info_problems_and_unsupported_rules_come_as_messages_before_the_move() {
    let mut brain = Brain::start(&["--time-ms", "30", "--margin-ms", "10"]);
    assert_eq!(brain.ask(&["START 15"]), "OK");
    // INFO is never answered, even when wrong: the next answer is ABOUT's.
    brain.send(&[
        "INFO timeout_turn soon",
        "INFO rule 4",
        "INFO unknown_key 1",
    ]);
    brain.nothing_printed();
    assert!(brain.messages.is_empty());
    let mut pos = board(15, false);
    let answer = brain.ask(&["BEGIN"]);
    play_answer(&mut pos, &answer).unwrap();
    assert_eq!(brain.messages.len(), 2, "{:?}", brain.messages);
    assert!(brain.messages[0].starts_with("MESSAGE INFO timeout_turn"));
    assert!(brain.messages[1].contains("renju"));
    assert_clean_end(brain);
}

#[test]
fn exactly_five_from_info_rule() {
    // Black (the opponent) has six in a row on the top line: an overline. Under exactly five
    // the game goes on and the bot answers; under freestyle it is already won, so no move.
    let mut pos = board(15, true);
    // In this order no exact five appears on the way (x = 4 comes last).
    let black: Vec<Point> = [0, 1, 2, 3, 5, 4].map(|x| pos.point(x, 0)).to_vec();
    let white: Vec<Point> = (0..5).map(|i| pos.point(2 * i, 10)).collect();
    let mut lines = vec!["BOARD".to_string()];
    for (i, &b) in black.iter().enumerate() {
        lines.push(format!("{},2", xy(&pos, b)));
        if let Some(&w) = white.get(i) {
            lines.push(format!("{},1", xy(&pos, w)));
        }
    }
    lines.push("DONE".to_string());
    let message: Vec<&str> = lines.iter().map(String::as_str).collect();
    for (i, (&b, &w)) in black.iter().zip(&white).enumerate() {
        pos.play(b);
        pos.play(w);
        assert!(pos.outcome().is_none(), "{i}");
    }
    pos.play(black[5]);
    assert!(pos.outcome().is_none());

    let mut brain = Brain::start(&["--time-ms", "30", "--margin-ms", "10"]);
    assert_eq!(brain.ask(&["START 15"]), "OK");
    brain.send(&["INFO rule 1"]);
    let answer = brain.ask(&message);
    play_answer(&mut pos, &answer).unwrap();
    // A whole game under exactly five.
    assert_eq!(brain.ask(&["RESTART"]), "OK");
    play_game(&mut brain, 15, true, Color::White, 77);
    // Freestyle again: the same board holds a five.
    brain.send(&["INFO rule 0"]);
    let refused = brain.ask(&message);
    assert!(refused.starts_with("ERROR "), "{refused:?}");
    assert_clean_end(brain);
}

#[test]
fn answers_respect_a_move_limit_and_a_nearly_spent_game() {
    let mut brain = Brain::start(&[]);
    assert_eq!(
        brain.ask(&["START 15", "INFO timeout_turn 1000", "INFO timeout_match 0"]),
        "OK"
    );
    let mut rng = XorShift::new(9);
    let mut pos = board(15, false);
    for i in 0..6 {
        if pos.outcome().is_some() {
            // The bot won already (it plays to win): a new game for the rest.
            assert_eq!(brain.ask(&["RESTART"]), "OK");
            pos = board(15, false);
        }
        let m = random_move(&mut pos, &mut rng);
        let turn = format!("TURN {}", xy(&pos, m));
        let asked = Instant::now();
        let answer = if i % 2 == 0 {
            brain.ask(&[&turn])
        } else {
            // Half a second left for the whole game: well under the move limit.
            brain.ask(&["INFO time_left 500", &turn])
        };
        let took = asked.elapsed();
        play_answer(&mut pos, &answer).unwrap();
        // Generous: a loaded machine may be slow, but never seconds over.
        assert!(took < Duration::from_millis(3000), "move {i} took {took:?}");
    }
    // timeout_turn 0: as fast as possible, still a legal move.
    if pos.outcome().is_some() {
        assert_eq!(brain.ask(&["RESTART"]), "OK");
        pos = board(15, false);
    }
    let m = random_move(&mut pos, &mut rng);
    let answer = brain.ask(&["INFO timeout_turn 0", &format!("TURN {}", xy(&pos, m))]);
    play_answer(&mut pos, &answer).unwrap();
    assert_clean_end(brain);
}

#[test]
fn end_exits_promptly_even_while_a_move_is_being_thought_about() {
    // BEGIN with a minute to think, and END in the same write: the move is dropped, the
    // process leaves at once.
    let mut brain = Brain::start(&["--time-ms", "60000"]);
    brain.send(&["START 15", "BEGIN", "END"]);
    assert_eq!(brain.answer(), "OK");
    let asked = Instant::now();
    let status = brain.wait_exit();
    assert!(status.success(), "{status:?}");
    assert!(asked.elapsed() < Duration::from_secs(10));
    drop(brain.stdin.take());
    let rest: Vec<String> = brain.lines.iter().collect();
    assert!(rest.is_empty(), "nothing may follow: {rest:?}");
    // END in its own write during a think.
    let mut brain = Brain::start(&["--time-ms", "60000"]);
    assert_eq!(brain.ask(&["START 20"]), "OK");
    brain.send(&["TURN 10,10"]);
    std::thread::sleep(Duration::from_millis(100));
    let (status, took, rest, stderr) = brain.end();
    assert!(status.success(), "{status:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    // The move may have been answered before END was read, but nothing else.
    assert!(rest.len() <= 1, "{rest:?}");
    assert!(stderr.is_empty(), "{stderr:?}");
}

#[test]
fn started_as_pbrain_stonebrain_with_no_arguments_it_speaks_gomocup() {
    let (dir, program) = renamed_copy("pbrain-stonebrain");
    let mut brain = Brain::start_program(&program, &[]);
    // Even a first line detection alone would not place is read as Gomocup.
    let a = brain.ask(&["RESTART"]);
    assert!(a.starts_with("ERROR ") && a.contains("START"), "{a:?}");
    assert_eq!(brain.ask(&["START 20", "INFO timeout_turn 50"]), "OK");
    play_game(&mut brain, 20, false, Color::Black, 3);
    assert_clean_end(brain);

    // Flags from pbrain-stonebrain.args next to it: the managers pass none.
    let log = dir.join("brain.log");
    std::fs::write(
        dir.join("pbrain-stonebrain.args"),
        format!("--name Stone20\n--log {}\n", log.display()),
    )
    .unwrap();
    let mut brain = Brain::start_program(&program, &[]);
    let about = brain.ask(&["ABOUT"]);
    assert!(about.starts_with("name=\"Stone20\""), "{about:?}");
    assert_eq!(brain.ask(&["START 15"]), "OK");
    assert!(brain.ask(&["TURN 99,99"]).starts_with("ERROR "));
    let mut pos = board(15, false);
    play_answer(&mut pos, &brain.ask(&["BEGIN"])).unwrap();
    assert_clean_end(brain);
    let text = std::fs::read_to_string(&log).expect("the log was written");
    assert!(text.contains("off the 15x15 board"), "{text}");
    assert!(text.contains("from read to answer"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn detected_from_the_first_line_without_flags() {
    for first in ["START 15", "INFO timeout_turn 100", "ABOUT"] {
        let mut brain = Brain::start(&["--time-ms", "30"]);
        brain.send(&[first]);
        if first.starts_with("START") {
            assert_eq!(brain.answer(), "OK");
        } else if first == "ABOUT" {
            assert!(brain.answer().starts_with("name="));
        }
        assert_eq!(brain.ask(&["START 15"]), "OK");
        let mut pos = board(15, false);
        play_answer(&mut pos, &brain.ask(&["BEGIN"])).unwrap();
        assert_clean_end(brain);
    }
}

#[test]
fn every_level_plays_legal_games() {
    for level in ["wintable", "classic", "full"] {
        let mut brain = Brain::start(&["--level", level, "--time-ms", "30", "--margin-ms", "10"]);
        assert_eq!(brain.ask(&["START 15"]), "OK");
        play_game(&mut brain, 15, false, Color::Black, 40);
        assert_eq!(brain.ask(&["RESTART"]), "OK");
        play_game(&mut brain, 15, false, Color::White, 41);
        assert_clean_end(brain);
    }
    // An unknown level is refused at start, before any protocol line.
    let out = Command::new(bin())
        .args(["--level", "grandmaster", "--protocol", "gomocup"])
        .stdin(Stdio::null())
        .output()
        .expect("run the bot");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("grandmaster"));
}
