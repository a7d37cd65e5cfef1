//! The SAU Game Platform through the real binary: the test plays the platform (and a random
//! opponent) over the bot's standard input and output, as the platform does, and checks every
//! line the bot writes. Nothing but `name ...` and `move ...` lines may ever appear, and standard
//! error (the same pipe on the platform) must stay empty.

mod common;

use common::{bin, line_channel, XorShift};
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use stonebrain::game::connect6::{Connect6, Connect6Rules, Stone};
use stonebrain::game::{Color, Game, Outcome};

/// Long enough never to fire on a working bot, short enough to fail a hung one.
const PATIENCE: Duration = Duration::from_secs(60);

/// Fast settings: a short fixed time per turn.
const FAST: [&str; 6] = ["--time-ms", "50", "--margin-ms", "10", "--seed", "7"];

/// A bot process spoken to as the SAU platform speaks.
struct SauBot {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    stderr: Option<std::thread::JoinHandle<Vec<u8>>>,
}

impl SauBot {
    fn start(args: &[&str]) -> SauBot {
        let mut child = Command::new(bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn stonebrain");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let lines = line_channel(stdout);
        let stderr = std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            all
        });
        SauBot {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
        }
    }

    /// Writes `text` exactly as given, in one write.
    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).expect("write to bot");
        self.stdin.flush().expect("flush to bot");
    }

    /// The bot's next output line.
    fn line(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(e) => panic!("no line from the bot ({e:?})"),
        }
    }

    /// Asks the name and checks it is the very next line: proof that nothing was written since
    /// the last line read.
    fn nothing_printed(&mut self, name: &str) {
        self.send("name?\n");
        assert_eq!(self.line(), format!("name {name}"), "unexpected output");
    }

    /// Sends `quit` and waits for the exit; returns the status, anything else the bot printed,
    /// and its standard error.
    fn quit(mut self) -> (ExitStatus, Vec<String>, String) {
        self.send("quit\n");
        let status = self.wait_exit();
        // The output pipe is closed now: whatever is left comes, then the channel ends.
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            rest.push(line);
        }
        let stderr = self.stderr.take().unwrap().join().unwrap();
        (status, rest, String::from_utf8_lossy(&stderr).into_owned())
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for bot") {
                return status;
            }
            assert!(start.elapsed() < PATIENCE, "the bot did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for SauBot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two letters for a point of the 19x19 board, `@@` for none.
fn letters(pos: &Connect6, p: Option<Stone>) -> String {
    match p {
        Some(p) => {
            let (x, y) = pos.coords(p);
            format!("{}{}", (b'A' + x as u8) as char, (b'A' + y as u8) as char)
        }
        None => "@@".to_string(),
    }
}

fn sau_turn(pos: &Connect6, stones: &[Stone]) -> String {
    format!(
        "move {}{}",
        letters(pos, stones.first().copied()),
        letters(pos, stones.get(1).copied())
    )
}

/// Reads a bot answer `move XXXX` strictly: the platform's form, capital letters `A`..`S` or
/// `@@` for a missing second stone.
fn read_turn(pos: &Connect6, text: &str) -> Result<Vec<Stone>, String> {
    let arg = text
        .strip_prefix("move ")
        .ok_or_else(|| format!("not a move line: {text:?}"))?;
    let b = arg.as_bytes();
    if b.len() != 4 {
        return Err(format!("a turn is four characters: {text:?}"));
    }
    let mut stones = Vec::new();
    for pair in b.chunks(2) {
        match pair {
            b"@@" => {}
            [x @ b'A'..=b'S', y @ b'A'..=b'S'] => {
                stones.push(pos.point((x - b'A') as usize, (y - b'A') as usize))
            }
            _ => return Err(format!("bad point in {text:?}")),
        }
    }
    if stones.is_empty() || (b[..2] == *b"@@") {
        return Err(format!("no first stone in {text:?}"));
    }
    Ok(stones)
}

/// Plays the bot's answer on the referee's board: exactly the stones its turn allows, all legal.
fn play_bot_turn(pos: &mut Connect6, text: &str) -> Result<(), String> {
    let stones = read_turn(pos, text)?;
    let bot = pos.side_to_move();
    let before = pos.clone();
    for &s in &stones {
        if pos.outcome().is_some() || pos.side_to_move() != bot {
            return Err(format!("too many stones in {text:?}\n{before}"));
        }
        pos.try_play(s)
            .map_err(|e| format!("illegal stone in {text:?}: {e}\n{before}"))?;
    }
    if pos.outcome().is_none() && pos.side_to_move() == bot {
        return Err(format!("too few stones in {text:?}\n{before}"));
    }
    Ok(())
}

/// A random legal turn for the side to move, played on `pos`.
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

/// One whole game against a random opponent, the test playing the platform. Every `error_every`
/// turns of the bot (if given), its answer is refused once; the retry must be another legal
/// turn. Returns the outcome.
fn play_game(bot: &mut SauBot, us: Color, seed: u64, error_every: Option<u32>) -> Outcome {
    let mut rng = XorShift::new(seed);
    let mut pos = Connect6::new(Connect6Rules::SAU);
    bot.send(&format!("new {}\n", us.name()));
    let mut answers = 0u32;
    loop {
        if pos.side_to_move() != us {
            let stones = random_turn(&mut pos, &mut rng);
            let text = sau_turn(&pos, &stones);
            if let Some(outcome) = pos.outcome() {
                // The loser gets the winning move and `end` in one write.
                bot.send(&format!("{text}\nend\n"));
                bot.nothing_printed("stonebrain");
                return outcome;
            }
            bot.send(&format!("{text}\n"));
        }
        let mut answer = bot.line();
        answers += 1;
        if error_every.is_some_and(|n| answers.is_multiple_of(n)) {
            // Refused: the platform plays nothing and says `error`; the bot answers again.
            read_turn(&pos, &answer).unwrap();
            bot.send("error\n");
            let again = bot.line();
            assert_ne!(again, answer, "a refused turn must not come back unchanged");
            answer = again;
        }
        if let Err(e) = play_bot_turn(&mut pos, &answer) {
            panic!("game {seed} as {}: {e}", us.name());
        }
        if let Some(outcome) = pos.outcome() {
            bot.send("end\n");
            bot.nothing_printed("stonebrain");
            return outcome;
        }
    }
}

fn assert_clean_exit(bot: SauBot) {
    let (status, rest, stderr) = bot.quit();
    assert!(status.success(), "exit status {status:?}");
    assert!(rest.is_empty(), "output after quit: {rest:?}");
    assert!(
        stderr.is_empty(),
        "standard error must stay empty: {stderr:?}"
    );
}

#[test]
fn a_session_of_games_as_black_and_white_in_one_process() {
    let mut bot = SauBot::start(&FAST);
    bot.send("name?\n");
    assert_eq!(bot.line(), "name stonebrain");
    for (i, us) in [Color::Black, Color::White, Color::Black, Color::White]
        .into_iter()
        .enumerate()
    {
        play_game(&mut bot, us, 100 + i as u64, None);
    }
    assert_clean_exit(bot);
}

#[test]
fn a_refused_turn_is_answered_again_with_another_legal_turn() {
    let mut bot = SauBot::start(&FAST);
    bot.send("name?\n");
    assert_eq!(bot.line(), "name stonebrain");
    // Every third answer refused, as black and as white; the first answer of each game too.
    play_game(&mut bot, Color::White, 200, Some(3));
    play_game(&mut bot, Color::Black, 201, Some(1));
    assert_clean_exit(bot);
}

#[test]
fn black_opens_with_one_stone_in_the_platforms_form() {
    let mut bot = SauBot::start(&FAST);
    bot.send("name?\nnew black\n");
    assert_eq!(bot.line(), "name stonebrain");
    let first = bot.line();
    assert!(
        first.len() == 9 && first.starts_with("move ") && first.ends_with("@@"),
        "{first:?}"
    );
    let pos = Connect6::new(Connect6Rules::SAU);
    assert_eq!(read_turn(&pos, &first).unwrap().len(), 1);
    assert_clean_exit(bot);
}

/// The loser of a game gets the winning turn and then `end`. Here the test wins for real: it
/// refuses (with `error`) every answer of the bot that would stop six in a row on the top line,
/// so the bot's board must see the game end on the winning turn itself and answer nothing, even
/// before `end` arrives.
#[test]
fn the_losers_last_turn_is_never_answered() {
    let mut bot = SauBot::start(&FAST);
    let mut pos = Connect6::new(Connect6Rules::SAU);
    let row: Vec<Stone> = (0..6).map(|x| pos.point(x, 0)).collect();
    bot.send("new white\n");
    let turns: [&[Stone]; 4] = [&row[..1], &row[1..3], &row[3..5], &row[5..]];
    for (i, turn) in turns.iter().enumerate() {
        for &s in *turn {
            pos.try_play(s).unwrap();
        }
        let text = sau_turn(&pos, turn);
        if i == 3 {
            assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
            bot.send(&format!("{text}\n"));
            // No `end` yet: the win on the bot's own board is enough to stay silent.
            bot.nothing_printed("stonebrain");
            bot.send("end\n");
            bot.nothing_printed("stonebrain");
            break;
        }
        bot.send(&format!("{text}\n"));
        let mut refusals = 0;
        loop {
            let answer = bot.line();
            let stones = read_turn(&pos, &answer).unwrap();
            if stones.iter().any(|s| row.contains(s)) {
                refusals += 1;
                assert!(refusals < 100, "the bot keeps answering on the top line");
                bot.send("error\n");
                continue;
            }
            play_bot_turn(&mut pos, &answer).unwrap();
            break;
        }
    }
    // Still serving: the next game starts normally.
    bot.send("new black\n");
    let first = bot.line();
    read_turn(&Connect6::new(Connect6Rules::SAU), &first).unwrap();
    assert_clean_exit(bot);
}

#[test]
fn end_during_a_search_drops_the_answer_and_the_bot_serves_on() {
    // A long think: `end` must cut it short and nothing may be written for it.
    let mut bot = SauBot::start(&["--time-ms", "5000", "--seed", "3"]);
    bot.send("new white\n");
    bot.send("move JJ@@\nend\n");
    bot.nothing_printed("stonebrain");
    // A new game during a search cancels it too.
    bot.send("new white\nmove JJ@@\nnew black\n");
    let first = bot.line();
    assert!(first.ends_with("@@"), "the answer to new black: {first:?}");
    bot.nothing_printed("stonebrain");
    assert_clean_exit(bot);
}

#[test]
fn quit_during_a_search_exits_at_once_without_answering() {
    let mut bot = SauBot::start(&["--time-ms", "5000"]);
    bot.send("new white\n");
    bot.send("move JJ@@\n");
    let (status, rest, stderr) = bot.quit();
    assert!(status.success(), "{status:?}");
    // The move may have been answered before `quit` was read, but nothing after it.
    assert!(rest.len() <= 1, "{rest:?}");
    assert!(stderr.is_empty(), "{stderr:?}");
    let mut bot = SauBot::start(&["--time-ms", "5000"]);
    bot.send("new white\nmove JJ@@\nquit\n");
    let (status, rest, stderr) = bot.quit();
    assert!(status.success(), "{status:?}");
    assert!(rest.is_empty(), "{rest:?}");
    assert!(stderr.is_empty(), "{stderr:?}");
}

#[test]
fn nul_bytes_crlf_and_several_commands_on_a_line() {
    let mut bot = SauBot::start(&FAST);
    // Old platforms: every command ends with a NUL byte after the newline.
    bot.send("name?\r\n\0");
    assert_eq!(bot.line(), "name stonebrain");
    bot.send("new white\r\n\0move JJ@@\r\n\0");
    let mut pos = Connect6::new(Connect6Rules::SAU);
    pos.play(pos.point(9, 9));
    let answer = bot.line();
    play_bot_turn(&mut pos, &answer).unwrap();
    // A command ended by a NUL alone (a move entered by hand on the platform has no newline).
    let mut rng = XorShift::new(5);
    let turn = random_turn(&mut pos, &mut rng);
    bot.send(&format!("{}\0", sau_turn(&pos, &turn)));
    let answer = bot.line();
    play_bot_turn(&mut pos, &answer).unwrap();
    // Several commands on one line, in lower case.
    bot.send("end name? new black\n");
    assert_eq!(bot.line(), "name stonebrain");
    let first = bot.line();
    assert!(first.ends_with("@@"), "{first:?}");
    bot.send("END\r\n\0");
    bot.nothing_printed("stonebrain");
    let mut pos = Connect6::new(Connect6Rules::SAU);
    bot.send("new white\n");
    let turn = random_turn(&mut pos, &mut rng);
    bot.send(
        &sau_turn(&pos, &turn)
            .to_ascii_lowercase()
            .replace("move", "MOVE"),
    );
    bot.send("\n");
    play_bot_turn(&mut pos, &bot.line()).unwrap();
    assert_clean_exit(bot);
}

#[test]
fn bad_input_prints_nothing_is_logged_and_the_bot_serves_on() {
    let dir = std::env::temp_dir().join(format!("stonebrain-sau-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("bot.log");
    let _ = std::fs::remove_file(&log);
    let log_arg = log.to_str().unwrap().to_string();
    let mut args = FAST.to_vec();
    args.extend(["--log", &log_arg, "--name", "Stone42"]);
    let mut bot = SauBot::start(&args);
    bot.send("name?\n");
    assert_eq!(bot.line(), "name Stone42");
    let before_any_game = [
        "hello\n",
        "move JJ@@\n",
        "error\n",
        "new purple\n",
        "name\n",
        "\u{1b}[A\n",
    ];
    for text in before_any_game {
        bot.send(text);
        bot.nothing_printed("Stone42");
    }
    bot.send("new white\n");
    let during_a_game = [
        "move ZZ@@\n",
        "move @@JJ\n",
        "move JJKKLL\n",
        "move\n",
        "error\n",
        "take 1 AA\n",
    ];
    for text in during_a_game {
        bot.send(text);
        bot.nothing_printed("Stone42");
    }
    // Now a real opening; then the opponent plays on our stones and out of turn.
    bot.send("move JJ@@\n");
    let mut pos = Connect6::new(Connect6Rules::SAU);
    pos.play(pos.point(9, 9));
    let answer = bot.line();
    let ours = read_turn(&pos, &answer).unwrap();
    play_bot_turn(&mut pos, &answer).unwrap();
    let free = pos.legal_moves()[0];
    for bad in [
        sau_turn(&pos, &[ours[0], free]),
        sau_turn(&pos, &[free, pos.point(9, 9)]),
    ] {
        bot.send(&format!("{bad}\n"));
        bot.nothing_printed("Stone42");
    }
    // A proper turn still gets a proper answer.
    let mut rng = XorShift::new(9);
    let turn = random_turn(&mut pos, &mut rng);
    bot.send(&format!("{}\n", sau_turn(&pos, &turn)));
    play_bot_turn(&mut pos, &bot.line()).unwrap();
    bot.send(&format!("{}\n", sau_turn(&pos, &turn)));
    bot.nothing_printed("Stone42");
    assert_clean_exit(bot);
    let text = std::fs::read_to_string(&log).expect("the log was written");
    for expected in [
        "unknown command \"hello\"",
        "no game running",
        "unknown colour",
        "not a point of the 19x19 board",
        "already occupied",
        "our answer is not the last thing played",
        "turn 1 (move ",
    ] {
        assert!(text.contains(expected), "log lacks {expected:?}:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_name_is_refused_at_start() {
    for name in ["two words", "thirteenchars", "", "näme"] {
        let out = Command::new(bin())
            .args(["--name", name, "--protocol", "sau"])
            .stdin(Stdio::null())
            .output()
            .expect("run stonebrain");
        assert!(!out.status.success(), "{name:?} was accepted");
        assert!(out.stdout.is_empty());
    }
}
