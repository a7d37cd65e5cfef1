//! `stonebrain bench startup`: how long a fresh process takes to answer Botzone's first request
//! of each game, and to leave on empty input. Botzone starts a full-history bot afresh every
//! turn, inside the turn's time, so start-up is time the search does not get.
//!
//! The command is any program (this one by default, a Botzone package under `python3`, the .exe
//! under Wine); `{game}` in it becomes the game's name. A tiny search budget is part of the
//! default command, so that the figure is start-up, not thinking.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What is measured: Black's first turn of a game, or empty input.
#[derive(Clone, Debug)]
pub struct StartupLine {
    /// `nogo`, `gomoku`, `connect6` or `empty-input`.
    pub case: String,
    pub runs: usize,
    /// Start to the answer line (for empty input: start to exit).
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    /// The first answer, to show that a real answer was measured.
    pub answer: String,
}

impl StartupLine {
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "bench": "startup",
            "case": self.case,
            "runs": self.runs,
            "median_ms": round2(self.median_ms),
            "min_ms": round2(self.min_ms),
            "max_ms": round2(self.max_ms),
            "answer": self.answer,
        })
        .to_string()
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The default command: this program, with a search budget of one playout or node.
pub fn default_command() -> String {
    let me = std::env::current_exe()
        .map_or_else(|_| "stonebrain".to_string(), |p| p.display().to_string());
    format!("{me} --game {{game}} --playouts 1 --seed 1")
}

/// Black's first request in each of Botzone's games.
const FIRST_REQUESTS: [(&str, &str); 3] = [
    ("nogo", r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#),
    ("gomoku", r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#),
    (
        "connect6",
        r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1}],"responses":[]}"#,
    ),
];

/// Measures `runs` starts of `command` (words split on spaces; `{game}` replaced) per case.
pub fn bench_startup(command: &str, runs: usize) -> Result<Vec<StartupLine>, String> {
    let runs = runs.max(1);
    let mut lines = Vec::new();
    for (game, request) in FIRST_REQUESTS {
        let words = words(command, game)?;
        let mut times = Vec::new();
        let mut answer = String::new();
        for _ in 0..runs {
            let (time, line) = time_first_answer(&words, request)?;
            times.push(time);
            answer = line;
        }
        lines.push(summary(game, &times, answer));
    }
    // Empty input: the platform closed the pipe before saying anything.
    let words = words(command, "nogo")?;
    let mut times = Vec::new();
    for _ in 0..runs {
        times.push(time_empty_input(&words)?);
    }
    lines.push(summary("empty-input", &times, String::new()));
    Ok(lines)
}

fn words(command: &str, game: &str) -> Result<Vec<String>, String> {
    let words: Vec<String> = command
        .replace("{game}", game)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        return Err("the command is empty".to_string());
    }
    Ok(words)
}

fn spawn(words: &[String], stdin: Stdio) -> Result<std::process::Child, String> {
    Command::new(&words[0])
        .args(&words[1..])
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", words[0]))
}

/// From the start of the process to its first output line, which must be an answer.
fn time_first_answer(words: &[String], request: &str) -> Result<(Duration, String), String> {
    let start = Instant::now();
    let mut child = spawn(words, Stdio::piped())?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Botzone writes the request and closes the pipe; a bot may exit before reading it all.
    let _ = writeln!(stdin, "{request}");
    drop(stdin);
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let read = out.read_line(&mut line);
    let elapsed = start.elapsed();
    let _ = child.wait();
    match read {
        Ok(n) if n > 0 && line.contains("response") => Ok((elapsed, line.trim().to_string())),
        _ => Err(format!(
            "{} gave no answer to {request} (output: {:?})",
            words.join(" "),
            line.trim()
        )),
    }
}

fn time_empty_input(words: &[String]) -> Result<Duration, String> {
    let start = Instant::now();
    let mut child = spawn(words, Stdio::null())?;
    child
        .wait()
        .map_err(|e| format!("waiting for {}: {e}", words[0]))?;
    Ok(start.elapsed())
}

fn summary(case: &str, times: &[Duration], answer: String) -> StartupLine {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    StartupLine {
        case: case.to_string(),
        runs: ms.len(),
        median_ms: ms[ms.len() / 2],
        min_ms: ms[0],
        max_ms: ms[ms.len() - 1],
        answer,
    }
}
