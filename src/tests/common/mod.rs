//! Drives the real `stonebrain` binary the way Botzone does: a fresh process per turn with the
//! whole history, or one kept-running process fed one request a turn.
#![allow(dead_code)]

pub mod class_server;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use stonebrain::game::nogo::{coords, point, Nogo, NogoRules, Point};
use stonebrain::game::{Color, Game, Outcome};

pub const MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_stonebrain")
}

/// A copy of the binary under another name, in a folder of its own: (the folder, the copy).
/// Spawn it with `spawn_copied`.
pub fn renamed_copy(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("stonebrain-copy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join(name);
    std::fs::copy(bin(), &program).expect("copy the binary");
    (dir, program)
}

/// Spawns `cmd`, whose program is a copy of the binary this test process has just written,
/// trying again for up to a second while the kernel calls it busy (ETXTBSY). The copy's write
/// handle is closed on exec, but a child that another test thread forks meanwhile holds it
/// until that child's own exec, and a program open for writing cannot be run.
pub fn spawn_copied(cmd: &mut Command) -> std::io::Result<Child> {
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            spawned => return spawned,
        }
    }
}

/// Runs the binary once with `input` on stdin; returns (stdout, stderr, exit code).
pub fn run_once(args: &[&str], input: &str) -> (String, String, Option<i32>) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn stonebrain");
    {
        let mut stdin = child.stdin.take().unwrap();
        // The bot may exit before reading everything: a broken pipe here is not our concern.
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("wait for stonebrain");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// The Botzone modes under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Json,
    JsonKeepRunning,
    Simple,
    SimpleKeepRunning,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Json => "botzone-json",
            Mode::JsonKeepRunning => "botzone-json-keep-running",
            Mode::Simple => "botzone-simple",
            Mode::SimpleKeepRunning => "botzone-simple-keep-running",
        }
    }

    pub fn from_name(s: &str) -> Option<Mode> {
        [
            Mode::Json,
            Mode::JsonKeepRunning,
            Mode::Simple,
            Mode::SimpleKeepRunning,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }

    pub fn keep_running(self) -> bool {
        matches!(self, Mode::JsonKeepRunning | Mode::SimpleKeepRunning)
    }

    pub fn simple(self) -> bool {
        matches!(self, Mode::Simple | Mode::SimpleKeepRunning)
    }
}

pub fn json_move(m: Option<Point>) -> String {
    match m {
        Some(p) => {
            let (x, y) = coords(p);
            format!("{{\"x\":{x},\"y\":{y}}}")
        }
        None => "{\"x\":-1,\"y\":-1}".to_string(),
    }
}

pub fn simple_move(m: Option<Point>) -> String {
    match m {
        Some(p) => {
            let (x, y) = coords(p);
            format!("{x} {y}")
        }
        None => "-1 -1".to_string(),
    }
}

/// The full-history input of a turn: `requests` are the opponent's moves (None = "you start").
pub fn full_history_input(mode: Mode, requests: &[Option<Point>], responses: &[Point]) -> String {
    if mode.simple() {
        let mut lines = vec![requests.len().to_string()];
        for (i, r) in requests.iter().enumerate() {
            lines.push(simple_move(*r));
            if let Some(&resp) = responses.get(i) {
                lines.push(simple_move(Some(resp)));
            }
        }
        lines.join("\n") + "\n"
    } else {
        let req: Vec<String> = requests.iter().map(|r| json_move(*r)).collect();
        let resp: Vec<String> = responses.iter().map(|r| json_move(Some(*r))).collect();
        format!(
            "{{\"requests\":[{}],\"responses\":[{}]}}\n",
            req.join(","),
            resp.join(",")
        )
    }
}

/// The input of a later keep-running turn: only the opponent's move.
pub fn bare_request(mode: Mode, m: Point) -> String {
    if mode.simple() {
        simple_move(Some(m)) + "\n"
    } else {
        json_move(Some(m)) + "\n"
    }
}

/// Reads the bot's answer (as Botzone would see it) from a kept-running process's stdout.
/// Returns the answer lines, the marker excluded; panics if the marker never comes.
pub fn read_keep_running_answer(out: &mut BufReader<ChildStdout>) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        let n = out.read_line(&mut line).expect("read bot output");
        assert!(
            n > 0,
            "bot closed its output before the keep-running marker; got {lines:?}"
        );
        let line = line.trim_end().to_string();
        if line == MARKER {
            return lines;
        }
        lines.push(line);
    }
}

/// Parses the move out of the bot's answer lines.
pub fn parse_answer(mode: Mode, lines: &[String]) -> Result<Option<Point>, String> {
    let first = lines.first().ok_or("no output")?;
    let (x, y) = if mode.simple() {
        let v: Vec<i64> = first
            .split_whitespace()
            .map(|t| {
                t.parse()
                    .map_err(|_| format!("bad simple answer {first:?}"))
            })
            .collect::<Result<_, _>>()?;
        if v.len() != 2 {
            return Err(format!("bad simple answer {first:?}"));
        }
        (v[0], v[1])
    } else {
        let v: serde_json::Value = serde_json::from_str(first)
            .map_err(|e| format!("answer is not JSON: {first:?}: {e}"))?;
        let r = &v["response"];
        (
            r["x"].as_i64().ok_or(format!("no x in {first}"))?,
            r["y"].as_i64().ok_or(format!("no y in {first}"))?,
        )
    };
    if x == -1 && y == -1 {
        return Ok(None);
    }
    if !(0..9).contains(&x) || !(0..9).contains(&y) {
        return Err(format!("off-board answer ({x},{y})"));
    }
    Ok(Some(point(x as usize, y as usize)))
}

/// A program's standard output read on its own thread, a line at a time, so that a test can
/// wait for the next line with a deadline (`recv_timeout`) and fail a hung program.
pub fn line_channel(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// A kept-running bot process.
pub struct KeptBot {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl KeptBot {
    pub fn start(args: &[&str]) -> KeptBot {
        let mut child = Command::new(bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn stonebrain");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        KeptBot {
            child,
            stdin,
            stdout,
        }
    }

    pub fn send(&mut self, input: &str) -> Vec<String> {
        self.stdin
            .write_all(input.as_bytes())
            .expect("write to bot");
        self.stdin.flush().expect("flush to bot");
        read_keep_running_answer(&mut self.stdout)
    }
}

impl Drop for KeptBot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One exchange of a game, as recorded in a transcript.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub input: String,
    pub output: Vec<String>,
}

/// Everything about a game against the random player.
pub struct GameRecord {
    pub bot_color: Color,
    pub outcome: Outcome,
    pub exchanges: Vec<Exchange>,
}

/// A tiny deterministic generator (xorshift64) for the tests' random games and opponents.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        // Spread small seeds over the whole word; xorshift must never hold zero.
        XorShift((seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xd1b5_4a32_d192_ed03) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays one game: the bot (over `mode`) against a uniformly random legal player. Every bot
/// answer is checked for legality; an illegal or unreadable answer is an `Err`.
pub fn play_vs_random(
    mode: Mode,
    bot_color: Color,
    bot_args: &[&str],
    seed: u64,
) -> Result<GameRecord, String> {
    let mut rng = XorShift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut pos = Nogo::new(NogoRules::default());
    let mut requests: Vec<Option<Point>> = Vec::new();
    let mut responses: Vec<Point> = Vec::new();
    let mut exchanges = Vec::new();
    let mut args: Vec<&str> = bot_args.to_vec();
    if mode.simple() {
        args.extend(["--protocol", "botzone-simple"]);
    }
    if mode.keep_running() {
        args.push("--keep-running");
    }
    let mut kept = mode.keep_running().then(|| KeptBot::start(&args));
    loop {
        // Opponent's turn (or the opening marker when the bot is Black).
        let request = if pos.side_to_move() == bot_color {
            None
        } else {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                return Ok(GameRecord {
                    bot_color,
                    outcome: Outcome::Win(bot_color),
                    exchanges,
                });
            }
            let m = legal[rng.below(legal.len())];
            pos.play(m);
            Some(m)
        };
        requests.push(request);
        if pos.legal_moves().is_empty() {
            // The random player's move left the bot without a move: Botzone ends the game here.
            return Ok(GameRecord {
                bot_color,
                outcome: Outcome::Win(bot_color.opponent()),
                exchanges,
            });
        }
        let input = match (&mut kept, request) {
            (Some(_), Some(m)) if !responses.is_empty() => bare_request(mode, m),
            _ => full_history_input(mode, &requests, &responses),
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
        if !mode.simple() && output.len() != 1 {
            return Err(format!(
                "a JSON answer must be exactly one line, got {output:?}"
            ));
        }
        let answer = parse_answer(mode, &output)?;
        let m = answer
            .ok_or_else(|| format!("bot answered no move with legal moves left: {output:?}"))?;
        pos.try_play(m)
            .map_err(|e| format!("illegal answer {:?}: {e}\n{pos}", coords(m)))?;
        responses.push(m);
        exchanges.push(Exchange { input, output });
    }
}

/// Plays `config.games` games of the external program `command` (over `protocol`) against the
/// arena's random player, and checks that every game ended by the rules (no illegal stone,
/// time-out, crash or garbage) and was won by the program. `label` names the program in
/// failure messages.
pub fn wins_every_game_against_random<G: stonebrain::arena::player::ArenaGame>(
    label: &str,
    command: &str,
    protocol: &str,
    config: &stonebrain::arena::duel::MatchConfig,
) {
    use stonebrain::arena::duel::run_match;
    use stonebrain::arena::engines::EngineSpec;
    use stonebrain::arena::record::EndReason;
    let program = EngineSpec::parse(&[
        "name=program".to_string(),
        format!("cmd={command}"),
        format!("proto={protocol}"),
    ])
    .unwrap();
    let random =
        EngineSpec::parse(&["name=random".to_string(), "builtin=random".to_string()]).unwrap();
    let result = run_match::<G>(&program, &random, &[], config, &|_, _| {})
        .unwrap_or_else(|e| panic!("{label} over {protocol}: {e}"));
    let (tally, played) = (result.score.games, result.games);
    assert_eq!(played.len(), config.games as usize);
    for game in &played {
        let rec = &game.record;
        let program_colour = if game.a_black {
            Color::Black
        } else {
            Color::White
        };
        assert!(
            matches!(rec.reason, EndReason::Rules(_)),
            "{label} over {protocol}, game {}: ended by {:?} after {} moves",
            game.index,
            rec.reason,
            rec.moves.len()
        );
        assert_eq!(
            rec.winner,
            Some(program_colour),
            "{label} over {protocol}, game {}",
            game.index
        );
    }
    assert_eq!(
        tally.wins, config.games,
        "{label} over {protocol}: {tally:?}"
    );
}
