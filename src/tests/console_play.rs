//! `stonebrain play` through pipes, as a script or a test harness drives it: for each game, moves
//! against the computer, save, quit, a new process, load, play on to the end of the game; every
//! kind of bad input (off the board, occupied, illegal NoGo points, wrong stone counts, unknown
//! commands, garbage bytes, bad files) answered with an explanation and a new prompt; corrupt and
//! foreign save files refused with the game kept; undo, hint, swap, watching, and the command
//! line's refusals. The tests check behaviour, never timings.

mod common;

use common::{bin, line_channel, XorShift};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use stonebrain::console::games::{ConsoleGame, Setup};
use stonebrain::console::notation::Notation;
use stonebrain::console::savefile::SaveFile;
use stonebrain::game::connect6::Connect6;
use stonebrain::game::gomoku::Gomoku;
use stonebrain::game::nogo::Nogo;
use stonebrain::game::{Color, Outcome};

/// Long enough never to fire on a working console, short enough to fail a hung one.
const PATIENCE: Duration = Duration::from_secs(120);

/// A short think per computer move, capped in work too.
const FAST: [&str; 4] = ["--time", "0.05", "--nodes", "3000"];

/// A fresh, empty directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stonebrain-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make a scratch directory");
    dir
}

/// Runs `stonebrain play` once with all of `input` piped in; returns (stdout, stderr, status).
fn run_play(args: &[&str], input: &[u8]) -> (String, String, Option<i32>) {
    let mut child = Command::new(bin())
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn stonebrain play");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the console may print a lot before it reads everything.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for stonebrain play");
    writer.join().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// A console process driven a line at a time, its output read as it comes.
struct Console {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Console {
    fn start(args: &[&str]) -> Console {
        let mut child = Command::new(bin())
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn stonebrain play");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let lines = line_channel(stdout);
        Console {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the console");
        stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `want`, and returns it.
    fn wait_for(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if want(&line) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no line with {what}; the console said:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Closes the input and waits for the end; returns the exit code and standard error.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin.take());
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            self.seen.push(line);
        }
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = self.child.wait().expect("wait for the console");
        (status.code(), err)
    }
}

/// A game played against the console: our copy of the position, kept in step with what the
/// console reports, and a random player for the human's side.
struct Referee<G: ConsoleGame> {
    pos: G,
    notation: Notation,
    rng: XorShift,
    /// Stones played, for comparing with save files.
    stones: usize,
}

impl<G: ConsoleGame> Referee<G> {
    fn new(setup: &Setup, seed: u64) -> Referee<G> {
        Referee {
            pos: G::start(setup),
            notation: Notation::for_game(setup.kind, setup.size),
            rng: XorShift::new(seed),
            stones: 0,
        }
    }

    /// Random legal stones for the side to move, for a whole turn; played on our copy, and
    /// returned in the console's notation.
    fn random_turn(&mut self) -> String {
        let me = self.pos.side_to_move();
        let mut points = Vec::new();
        while self.pos.outcome().is_none() && self.pos.side_to_move() == me {
            let legal = self.pos.legal_moves();
            let m = legal[self.rng.below(legal.len())];
            points.push(self.pos.xy(m));
            self.pos.play(m);
            self.stones += 1;
        }
        self.notation.write_all(&points)
    }

    /// Plays the stones of a console line `... plays <points>: ...` on our copy.
    fn apply_report(&mut self, line: &str) {
        let after = line.split(" plays ").nth(1).expect("a move report");
        let text = after.split(':').next().unwrap();
        // Gomoku and NoGo reports may add the other notation in brackets: keep the first.
        let text = text.split(" (").next().unwrap().trim_end_matches('.');
        for (x, y) in self.notation.parse(text).expect("a readable move") {
            let m = self.pos.at(x, y);
            self.pos
                .check_move(m)
                .unwrap_or_else(|e| panic!("the computer's {text} is illegal: {e}"));
            self.pos.play(m);
            self.stones += 1;
        }
    }

    /// Sends a random human turn and follows the computer's reply; returns false once the
    /// game is over.
    fn exchange(&mut self, console: &mut Console) -> bool {
        let turn = self.random_turn();
        console.send(&turn);
        if self.pos.outcome().is_some() {
            return false;
        }
        let reply = console.wait_for("the computer's move", |l| l.contains("(computer) plays"));
        self.apply_report(&reply);
        self.pos.outcome().is_none()
    }

    fn result_text(&self) -> String {
        match self.pos.outcome() {
            Some(Outcome::Win(Color::Black)) => "Game over: Black wins".to_string(),
            Some(Outcome::Win(Color::White)) => "Game over: White wins".to_string(),
            Some(Outcome::Draw) => "Game over: a draw".to_string(),
            None => panic!("the game is not over"),
        }
    }
}

/// The whole story for one game: three human turns, save, quit; a new process loads the file
/// and plays on to the end of the game; the finished game is saved, and loads again.
fn save_quit_load_and_finish<G: ConsoleGame>(game: &str, extra: &[&str], seed: u64) {
    let dir = scratch(game);
    let first = dir.join("first.txt");
    let last = dir.join("last.txt");
    let setup = Setup::new(G::KIND, None, false, false, None).unwrap();
    let mut referee = Referee::<G>::new(&setup, seed);

    let mut args = vec![game, "--seed", "5"];
    args.extend(FAST);
    args.extend(extra);
    let mut console = Console::start(&args);
    console.wait_for("the greeting", |l| l.starts_with("New game:"));
    for _ in 0..3 {
        assert!(referee.exchange(&mut console), "the game ended too soon");
    }
    console.send(&format!("save {}", first.display()));
    console.wait_for("the save", |l| l.starts_with("Saved to"));
    console.send("quit");
    let (code, err) = console.finish();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");

    let text = std::fs::read_to_string(&first).unwrap();
    assert!(text.contains("format stonebrain-play 1\n"), "{text}");
    assert!(text.contains(&format!("game {game}\n")), "{text}");
    assert!(text.contains("human black\n"), "{text}");
    assert!(text.contains("turn 6 white "), "{text}");
    assert!(!text.contains("turn 7 "), "{text}");

    // A new process, a different seed: load, then play on until the game ends.
    let mut args = vec![game, "--seed", "6"];
    args.extend(FAST);
    let mut console = Console::start(&args);
    console.send(&format!("load {}", first.display()));
    let loaded = console.wait_for("the load", |l| l.starts_with("Loaded"));
    assert!(loaded.contains("6 turns"), "{loaded}");
    let mut turns = 0;
    while referee.exchange(&mut console) {
        turns += 1;
        assert!(turns < 500, "the game does not end");
    }
    let result = referee.result_text();
    let line = console.wait_for("the result", |l| l.starts_with("Game over"));
    assert!(line.starts_with(&result), "{line} (expected {result})");
    // Moves after the end are refused with the reason.
    console.send(&referee.notation.write((0, 0)));
    console.wait_for("the refusal", |l| l.contains("Type new for another game"));
    console.send(&format!("save {}", last.display()));
    console.wait_for("the save", |l| l.starts_with("Saved to"));
    console.send("quit");
    let (code, err) = console.finish();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");

    // The finished game reads back stone for stone, and a third process starts from it.
    let save = SaveFile::read_file(&last).unwrap();
    let stones: usize = save.turns.iter().map(|(_, s)| s.len()).sum();
    assert_eq!(stones, referee.stones);
    let path = last.display().to_string();
    let (out, err, code) = run_play(&["--load", &path, "--color", "never"], b"quit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&result), "{out}");
    assert!(out.contains("game over > quit"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nogo_save_quit_load_and_finish() {
    save_quit_load_and_finish::<Nogo>("nogo", &[], 1);
}

#[test]
fn gomoku_save_quit_load_and_finish() {
    save_quit_load_and_finish::<Gomoku>("gomoku", &[], 2);
}

#[test]
fn connect6_save_quit_load_and_finish() {
    save_quit_load_and_finish::<Connect6>("connect6", &[], 3);
}

/// Runs one piped session and checks it ended cleanly, with no escape sequence and nothing on
/// standard error.
fn clean_session(args: &[&str], input: &[u8]) -> String {
    let mut all = args.to_vec();
    all.extend(FAST);
    let (out, err, code) = run_play(&all, input);
    assert_eq!(code, Some(0), "{err}\n{out}");
    assert!(err.is_empty(), "{err}");
    assert!(!out.contains('\x1b'), "escape sequences in a pipe:\n{out}");
    out
}

fn assert_has(out: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(out.contains(w), "{w:?} missing from:\n{out}");
    }
}

/// The bad inputs every game shares, around one good move, then a save: the file shows the
/// game went on untouched.
fn common_bad_input(game: &str, good: &str, saved: &str, bad_point: &str, off_board: &str) {
    let dir = scratch(&format!("bad-{game}"));
    let corrupt = dir.join("corrupt.txt");
    std::fs::write(
        &corrupt,
        "format stonebrain-play 1\ngame nogo\nsize 9\nrules standard\n",
    )
    .unwrap();
    let illegal = dir.join("illegal.txt");
    std::fs::write(
        &illegal,
        "format stonebrain-play 1\ngame gomoku\nsize 15\nrules freestyle\nhuman black\n\
         turn 1 black 7,7\nturn 2 white 7,7\nend\n",
    )
    .unwrap();
    let foreign = dir.join("foreign.txt");
    std::fs::write(&foreign, "[package]\nname = \"something else\"\n").unwrap();
    let binary = dir.join("binary.bin");
    std::fs::write(&binary, [0u8, 159, 146, 150, 255, 10]).unwrap();
    let out_file = dir.join("kept.txt");

    let mut input: Vec<u8> = Vec::new();
    let mut line = |l: &str| {
        input.extend_from_slice(l.as_bytes());
        input.push(b'\n');
    };
    line(bad_point);
    line(good);
    line(good);
    line("hello");
    line("%%%");
    line("");
    line("   ");
    line("load");
    line(&format!("load {}", dir.join("missing.txt").display()));
    line(&format!("load {}", corrupt.display()));
    line(&format!("load {}", illegal.display()));
    line(&format!("load {}", foreign.display()));
    line(&format!("load {}", binary.display()));
    line(&format!("load {}", dir.display()));
    line(&format!("save {}", dir.join("no/such/dir/x.txt").display()));
    line("side purple");
    line("new purple");
    line(off_board);
    line(&"7".repeat(10_000));
    input.extend_from_slice(&[0xff, 0xfe, b'\r', b'\n', 0x80, b'\n']);
    input.extend_from_slice(format!("save {}\nquit\n", out_file.display()).as_bytes());
    let out = clean_session(&[game], &input);
    assert_has(
        &out,
        &[
            "is already occupied. Try another point.",
            "'hello' is not a command. Type help for the commands",
            "'%%%' is not a point",
            "load what? load FILE",
            "Cannot load: cannot read",
            "corrupt.txt: the file ends without its 'end' line",
            "illegal.txt: turn 2: 7,7: the point is already occupied",
            "foreign.txt: this is not a stonebrain saved game",
            "binary.bin is not a saved game: it is not text",
            "is a directory, not a saved game",
            "The current game goes on.",
            "cannot save to",
            "The game is not saved.",
            "side black or side white?",
            "new takes black or white (or nothing).",
            "is off the board",
            "Bye.",
        ],
    );
    // Every bad line got its answer and a new prompt: one prompt per input line read.
    let prompts = out.matches(" > ").count();
    assert!(prompts >= 22, "{prompts} prompts:\n{out}");
    let kept = std::fs::read_to_string(&out_file).unwrap();
    assert!(kept.contains(saved), "{kept}");
    assert!(kept.contains("turn 2 white "), "{kept}");
    assert!(!kept.contains("turn 3 "), "{kept}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nogo_bad_input_is_explained_and_asked_again() {
    common_bad_input("nogo", "4,4", "turn 1 black 4,4\n", "4", "9,0");
}

#[test]
fn gomoku_bad_input_is_explained_and_asked_again() {
    common_bad_input("gomoku", "7,7", "turn 1 black 7,7\n", "7,7 8,8", "PA");
    // The seed-000 letters name the same point: row H, column H is 7,7.
    let out = clean_session(&["gomoku", "--level", "classic"], b"HH\n7,7\nquit\n");
    assert_has(
        &out,
        &[
            "Black (you) plays 7,7 (HH).",
            "7,7: the point is already occupied",
        ],
    );
    let out = clean_session(&["gomoku", "--level", "classic"], b"7,7 8,8\n15,0\nquit\n");
    assert_has(
        &out,
        &[
            "One point at a time, please.",
            "15,0 is off the board: x and y run from 0 to 14",
        ],
    );
}

#[test]
fn connect6_bad_input_is_explained_and_asked_again() {
    common_bad_input("connect6", "JJ", "turn 1 black JJ\n", "JK KL", "TT AA");
    // Later turns are two stones: one, three, a repeated point and half letters are refused.
    let out = clean_session(
        &["connect6"],
        b"JK KL\nJJ\nAA\nAA BB CC\nAA AA\nJJJ\nJJ AA\nTT AA\nquit\n",
    );
    assert_has(
        &out,
        &[
            "This turn is one stone, not 2.",
            "Black (you) plays JJ (9,9).",
            "A turn is two stones: give both",
            "A turn is two stones, not 3.",
            "AA twice: the two stones of a turn go on two different points.",
            "'JJJ': every point is two letters",
            "JJ: the point is already occupied",
            "TT is off the board: the letters run from A to S",
        ],
    );
}

#[test]
fn nogo_illegal_points_name_the_rule_they_break() {
    let dir = scratch("nogo-rules");
    let file = dir.join("position.txt");
    // White's corner stone at 0,0 has one liberty left (0,1); 8,8 is walled in by White.
    std::fs::write(
        &file,
        "format stonebrain-play 1\ngame nogo\nsize 9\nrules standard\nhuman black\n\
         turn 1 black 1,0\nturn 2 white 0,0\nturn 3 black 4,4\nturn 4 white 8,7\n\
         turn 5 black 4,6\nturn 6 white 7,8\nend\n",
    )
    .unwrap();
    let input = format!("load {}\n0,1\n8,8\nquit\n", file.display());
    let out = clean_session(&["nogo"], input.as_bytes());
    assert_has(
        &out,
        &[
            "Loaded",
            "0,1: the move would capture (leave an opposing group without liberties)",
            "8,8: the move would be suicide (leave its own group without liberties)",
        ],
    );
    // The class rule of seed 001: no opening in the centre, and it is kept in the save file.
    let saved = dir.join("centre.txt");
    let input = format!("4,4\n3,4\nsave {}\nquit\n", saved.display());
    let out = clean_session(&["nogo", "--centre-ban"], input.as_bytes());
    assert_has(
        &out,
        &[
            "no opening in the centre",
            "4,4: Black's first move may not be the centre",
            "Black (you) plays 3,4.",
        ],
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("rules centre-ban\n"), "{text}");
    let input = format!("load {}\nsave {}\nquit\n", saved.display(), saved.display());
    let out = clean_session(&["nogo"], input.as_bytes());
    assert!(out.contains("no opening in the centre"), "{out}");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undo_takes_back_the_reply_and_the_move_and_replays_nogo() {
    let dir = scratch("undo");
    let file = dir.join("undo.txt");
    let input = format!(
        "undo\n4,4\n3,3\nundo\nsave {}\nundo\nundo\nquit\n",
        file.display()
    );
    let out = clean_session(&["nogo"], input.as_bytes());
    assert_has(
        &out,
        &["Nothing of yours to take back.", "Took back 2 stones."],
    );
    assert_eq!(out.matches("Took back 2 stones.").count(), 2, "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("turn 1 black 4,4\nturn 2 white "), "{text}");
    assert!(!text.contains("turn 3"), "{text}");
    // Connect6: a whole turn of each side.
    let input = format!("JJ\nundo\nsave {}\nquit\n", file.display());
    clean_session(&["connect6", "--human", "white"], input.as_bytes());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("human white\nturn 1 black "), "{text}");
    assert!(!text.contains("turn 2"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hints_swap_sides_and_new_games() {
    let dir = scratch("hint");
    let file = dir.join("hint.txt");
    let input = format!("hint\nsave {}\nquit\n", file.display());
    let out = clean_session(&["gomoku", "--level", "classic"], input.as_bytes());
    assert!(out.contains("Hint for Black: "), "{out}");
    // A hint plays nothing.
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("turn 1"), "{text}");

    let out = clean_session(
        &["gomoku", "--level", "classic"],
        b"swap\nswap\nnew white\nquit\n",
    );
    assert_has(
        &out,
        &[
            "You play White (O); the computer plays Black (X)",
            "Black (computer) plays ",
            "): score ",
            "White (computer) plays",
        ],
    );
    let out = clean_session(&["nogo"], b"4,4\nnew\nquit\n");
    assert_eq!(out.matches("New game: NoGo 9x9.").count(), 2, "{out}");
    assert!(out.contains("White (computer) plays ") && out.contains("win rate"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loading_another_games_file_switches_game() {
    let dir = scratch("switch");
    let file = dir.join("gomoku.txt");
    std::fs::write(
        &file,
        "format stonebrain-play 1\ngame gomoku\nsize 11\nrules exact-five\nlevel classic\n\
         human white\nturn 1 black 5,5\nend\n",
    )
    .unwrap();
    let input = format!("load {}\nEE\nquit\n", file.display());
    let out = clean_session(&["nogo"], input.as_bytes());
    assert_has(
        &out,
        &[
            "Loaded",
            "Gomoku 11x11, exactly five wins, level classic, 1 turn played.",
            "You play White (O)",
            "White (you) plays 4,4 (EE).",
            "Black (computer) plays",
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn watching_plays_a_whole_game_for_each_game() {
    for args in [
        vec!["nogo", "--watch"],
        vec!["gomoku", "--watch", "--level", "wintable"],
        vec!["connect6", "--watch", "--size", "15"],
    ] {
        let out = clean_session(&args, b"");
        assert!(out.contains("The computer plays both sides"), "{out}");
        assert!(out.contains("Game over: "), "{out}");
        assert!(
            out.contains("Black plays ") && out.contains("White plays "),
            "{out}"
        );
        assert!(
            !out.contains("(computer)") && !out.contains("(you)"),
            "{out}"
        );
    }
    // Commands piped after a watch run when the game is over.
    let out = clean_session(
        &["gomoku", "--watch", "--level", "classic"],
        b"undo\nquit\n",
    );
    assert!(out.contains("Took back 1 stone."), "{out}");
}

#[test]
fn end_of_input_mid_game_ends_cleanly() {
    let out = clean_session(&["nogo"], b"4,4\n");
    assert!(out.contains("White (computer) plays"), "{out}");
    let out = clean_session(&["connect6", "--human", "white"], b"");
    assert!(out.contains("Black (computer) plays"), "{out}");
}

#[test]
fn colour_only_when_asked_for_in_a_pipe() {
    let out = clean_session(&["nogo", "--color", "never"], b"quit\n");
    assert!(!out.contains('\x1b'));
    let mut args = vec!["nogo", "--color", "always"];
    args.extend(FAST);
    let (out, err, code) = run_play(&args, b"4,4\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("\x1b["), "{out}");
    // Colour never clears a screen that is not a terminal.
    assert!(!out.contains("\x1b[2J"), "{out}");
}

#[test]
fn the_command_line_refuses_what_a_game_does_not_have() {
    let dir = scratch("cli");
    let corrupt = dir.join("corrupt.txt");
    std::fs::write(&corrupt, "format stonebrain-play 1\ngame nogo\n").unwrap();
    let corrupt = corrupt.display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "which game?"),
        (vec!["nogo", "--size", "13"], "9x9 only"),
        (
            vec!["nogo", "--level", "full"],
            "--level is for Gomoku only",
        ),
        (vec!["gomoku", "--level", "master"], "unknown Gomoku level"),
        (vec!["gomoku", "--size", "25"], "from 11 to 20"),
        (vec!["connect6", "--size", "4"], "from 6 to 25"),
        (
            vec!["connect6", "--exact-five"],
            "--exact-five is a Gomoku rule",
        ),
        (
            vec!["gomoku", "--centre-ban"],
            "--centre-ban is a NoGo rule",
        ),
        (vec!["nogo", "--time", "0"], "not a time"),
        (vec!["nogo", "--time", "soon"], "not a time"),
        (vec!["chess"], "invalid value"),
        (vec!["--load", &corrupt], "without its 'end' line"),
        (vec!["gomoku", "--load", &corrupt], "without its 'end' line"),
        (vec!["--load", "/no/such/file"], "cannot read"),
    ];
    for (args, wanted) in cases {
        let (out, err, code) = run_play(&args, b"");
        assert_eq!(code, Some(2), "{args:?}: {out} {err}");
        assert!(err.contains(wanted), "{args:?}: {wanted:?} not in {err:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_board_shows_the_platform_coordinates() {
    let out = clean_session(&["connect6"], b"JJ\nquit\n");
    assert!(out.contains("   A  B  C  D  E  F  G  H  I  J  K  L  M  N  O  P  Q  R  S\n"));
    assert!(out.contains("   0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15 16 17 18\n"));
    assert!(out.contains("\nJ  .  .  .  +  .  .  .  .  .  +  .  .  .  .  .  +  .  .  .  9\n"));
    let out = clean_session(&["gomoku", "--level", "classic"], b"quit\n");
    assert!(out.contains("\n 7  .  .  .  .  .  .  .  +  .  .  .  .  .  .  .  H\n"));
    assert!(out.contains("\n    A  B  C  D  E  F  G  H  I  J  K  L  M  N  O\n"));
    // The last move is in brackets: after the computer's reply, its stone and not ours.
    let out = clean_session(&["nogo"], b"4,4\nquit\n");
    let after = out.split("White (computer) plays").nth(1).unwrap();
    assert_eq!(after.matches('[').count(), 1, "{out}");
    assert!(after.contains("[O]") && after.contains(" X "), "{out}");
}

#[test]
fn random_lines_never_stop_the_console() {
    let words = [
        "undo",
        "hint",
        "new",
        "swap",
        "side",
        "board",
        "help",
        "load",
        "new white",
        "side black",
        "JJ",
        "7,7",
        "4 4",
        "HH",
        "@@",
        "-1,-1",
        "(3,3)",
        "AA BB",
        "jkkl",
        "0,0 1,1 2,2",
    ];
    for (g, game) in ["nogo", "gomoku", "connect6"].into_iter().enumerate() {
        let mut rng = XorShift::new(40 + g as u64);
        let mut input: Vec<u8> = Vec::new();
        for _ in 0..150 {
            match rng.below(4) {
                0 => input.extend_from_slice(words[rng.below(words.len())].as_bytes()),
                1 => {
                    let (x, y) = (rng.below(22) as i64 - 1, rng.below(22) as i64 - 1);
                    input.extend_from_slice(format!("{x},{y}").as_bytes());
                }
                2 => {
                    // Two to five letters (one letter may be a command: `q` quits).
                    for _ in 0..2 + rng.below(4) {
                        input.push(b'A' + rng.below(26) as u8);
                    }
                }
                _ => {
                    for _ in 0..rng.below(12) {
                        // Any byte but a newline: control characters, invalid UTF-8, escapes.
                        let b = rng.below(256) as u8;
                        input.push(if b == b'\n' { b' ' } else { b });
                    }
                }
            }
            input.push(b'\n');
        }
        let out = clean_session(&[game], &input);
        // Every line was read at a prompt.
        assert_eq!(out.matches(" > ").count(), 151, "{out}");
    }
}
