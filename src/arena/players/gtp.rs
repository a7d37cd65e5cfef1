//! An external NoGo program spoken to over GTP, as GoGui's `twogtp` referees the Computer
//! Olympiad (see `protocols/arena.md`):
//!
//! - every game starts a fresh process (its standard error is discarded) and is set up with
//!   `boardsize 9`, `clear_board` and the `init=` lines, each to be answered `=` within
//!   `START_GRACE`;
//! - the clock, if the match has one: before each `genmove`, `time_left <colour> <s> <stones>`,
//!   with the time per move as a byo-yomi period of one stone, or what is left of a whole-game
//!   clock as main time (stones 0). Seconds are whole when they are, else given to the
//!   millisecond. `time_settings` is not sent unless an `init=` line says it: some NoGo
//!   programs read GTP word by word and would answer each of its numbers as a command;
//! - on its turn, `play <colour> <vertex>` for each opponent move it has not seen, then
//!   `genmove <colour>`; the answer is a vertex (`A1` bottom left, no `I` column);
//! - `resign` loses by the rules, `pass` is an illegal move (NoGo has none), a `?` answer or
//!   anything that is not a vertex is garbage;
//! - `quit` when the game is over; a program still running `END_GRACE` later is killed.
//!
//! Answers are read as GTP has them: `=` or `?`, an optional id, the text, and an empty line
//! closing the answer. The clock of a turn runs from the first `play` or `time_left` sent to
//! the answer of `genmove`.

use super::common::clip;
use super::common::read_reply;
use crate::arena::memory::PeakMemory;
use crate::arena::player::{Answer, GameEnd, Player, Turn};
use crate::arena::process::{BotPipe, BotProcess};
use crate::arena::record::EndReason;
use crate::game::nogo::{Nogo, Point};
use crate::game::Color;
use crate::protocol::gtp::{parse_vertex, vertex_name};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a freshly started program has for each set-up command.
pub const START_GRACE: Duration = Duration::from_secs(10);
/// How long a program has to exit after `quit` before it is killed.
const END_GRACE: Duration = Duration::from_secs(1);

pub struct GtpPlayer {
    name: String,
    command: String,
    process: Option<BotProcess>,
    color: Color,
    /// Moves of the game the program knows about (told, or its own answers).
    known: usize,
    /// Lines sent after `clear_board` in every game (`init=`).
    init: Vec<String>,
    /// Where the peak memory of its processes goes (`Player::measure_memory`).
    memory: Option<Arc<PeakMemory>>,
}

/// A GTP answer: success or failure, and its text (lines joined with newlines, id removed).
#[derive(Debug, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub text: String,
}

/// Reads one answer: lines before the `=` or `?` that starts it are skipped (chatter), and the
/// empty line after it ends it.
pub fn read_response(process: &mut dyn BotPipe, deadline: Instant) -> Result<Response, EndReason> {
    let mut first: Option<(bool, String)> = None;
    let mut text = String::new();
    loop {
        let line = read_reply(process, deadline)?;
        let line = line.trim_end_matches(['\r', '\n']);
        match &first {
            None => {
                if let Some((ok, rest)) = start_of_response(line) {
                    text = rest.to_string();
                    first = Some((ok, line.to_string()));
                }
            }
            Some((ok, _)) => {
                if line.trim().is_empty() {
                    return Ok(Response {
                        ok: *ok,
                        text: text.trim().to_string(),
                    });
                }
                text.push('\n');
                text.push_str(line);
            }
        }
    }
}

/// `= text`, `=text`, `?message`: whether it is a success, and its text. We send no ids, so
/// none is expected back (and `=2`, HaHaNoGo's answer to `protocol_version`, is text).
pub fn start_of_response(line: &str) -> Option<(bool, &str)> {
    let ok = match line.chars().next()? {
        '=' => true,
        '?' => false,
        _ => return None,
    };
    Some((ok, line[1..].trim()))
}

/// Seconds for `time_left`: whole when they are (as GTP writes them), else to the millisecond,
/// so that a clock under a second is not said to be 0.
fn gtp_seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        d.as_secs().to_string()
    } else {
        format!("{:.3}", d.as_secs_f64())
    }
}

/// What a `genmove` answer means for the game.
pub fn read_genmove(text: &str) -> Result<Point, EndReason> {
    let word = text.split_whitespace().next().unwrap_or("");
    match word.to_ascii_lowercase().as_str() {
        "resign" => Err(EndReason::Rules("resigned".to_string())),
        "pass" => Err(EndReason::IllegalMove(
            "pass (NoGo has no pass: a side with no legal move resigns)".to_string(),
        )),
        _ => match parse_vertex(word) {
            Ok(Some(p)) if text.split_whitespace().count() == 1 => Ok(p),
            _ => Err(EndReason::Garbage(format!(
                "{}: not a vertex of the 9x9 board",
                clip(text)
            ))),
        },
    }
}

fn colour_letter(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl GtpPlayer {
    pub fn new(name: &str, command: &str, init: &[String]) -> GtpPlayer {
        GtpPlayer {
            name: name.to_string(),
            command: command.to_string(),
            process: None,
            color: Color::Black,
            known: 0,
            init: init.to_vec(),
            memory: None,
        }
    }

    /// Sends a command that must succeed and waits for its answer until `deadline`: the text
    /// of the answer; `fault` builds the reason when it is refused.
    fn expect_ok(
        &mut self,
        command: &str,
        deadline: Instant,
        fault: fn(String) -> EndReason,
    ) -> Result<String, EndReason> {
        let process = self.process.as_mut().ok_or(EndReason::ClosedPipe)?;
        process.send(&format!("{command}\n"))?;
        let r = read_response(process, deadline)?;
        if r.ok {
            Ok(r.text)
        } else {
            Err(fault(format!("`{command}` refused: {}", clip(&r.text))))
        }
    }

    fn launch(&mut self) -> Result<(), EndReason> {
        let process = BotProcess::spawn(&self.command)
            .map_err(|e| EndReason::StartFailed(e.to_string()))?
            .measured_by(self.memory.clone());
        self.process = Some(process);
        let setup: Vec<String> = ["boardsize 9", "clear_board"]
            .iter()
            .map(|s| s.to_string())
            .chain(self.init.iter().cloned())
            .collect();
        for command in &setup {
            let deadline = Instant::now() + START_GRACE;
            match self.expect_ok(command, deadline, EndReason::StartFailed) {
                Ok(_) => {}
                Err(EndReason::Timeout(_)) => {
                    return Err(EndReason::StartFailed(format!(
                        "no answer to `{command}` within {:.0} s",
                        START_GRACE.as_secs_f64()
                    )))
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    fn exchange(&mut self, turn: &Turn<'_, Nogo>, start: Instant) -> Result<Point, EndReason> {
        let deadline = start + turn.budget;
        let moves: Vec<Point> = turn.turns.iter().flatten().copied().collect();
        for (i, &m) in moves.iter().enumerate().skip(self.known) {
            // Colours alternate from Black.
            let by = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let command = format!("play {} {}", colour_letter(by), vertex_name(m));
            self.expect_ok(&command, deadline, EndReason::Garbage)?;
        }
        self.known = moves.len();
        let clock = turn.clock;
        let left = match (clock.per_move, clock.per_game) {
            (Some(m), _) => Some((m, 1)),
            (None, Some(g)) => Some((g.saturating_sub(turn.used), 0)),
            (None, None) => None,
        };
        if let Some((left, stones)) = left {
            let command = format!(
                "time_left {} {} {stones}",
                colour_letter(self.color),
                gtp_seconds(left)
            );
            self.expect_ok(&command, deadline, EndReason::Garbage)?;
        }
        let command = format!("genmove {}", colour_letter(self.color));
        let answer = self.expect_ok(&command, deadline, EndReason::Garbage)?;
        read_genmove(&answer)
    }
}

impl Player<Nogo> for GtpPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, color: Color, _start: &Nogo) -> Result<(), EndReason> {
        self.color = color;
        self.known = 0;
        // A program left from an unfinished game is killed with it.
        self.process = None;
        self.launch()
    }

    fn play(&mut self, turn: Turn<'_, Nogo>) -> Answer<Point> {
        let start = Instant::now();
        let result = self.exchange(&turn, start);
        match &result {
            Ok(_) => self.known += 1,
            // A program that is late, dead or deaf hears no `quit`: it is killed at once (a late
            // one once the referee has listened `LATE_WATCH` for how late it was).
            Err(EndReason::Timeout(_) | EndReason::Crash(_) | EndReason::ClosedPipe) => {
                self.process = None
            }
            Err(_) => {}
        }
        (result.map(|p| vec![p]), start.elapsed())
    }

    fn end_game(&mut self, _end: &GameEnd<'_, Nogo>) {
        if let Some(mut process) = self.process.take() {
            if process.send("quit\n").is_ok() {
                // The end of input too: a program that answers `quit` and reads on (HaHaNoGo)
                // stops there.
                process.close_input();
                process.wait_exit(END_GRACE);
            }
            // Dropping the process kills it if it is still there.
        }
    }

    fn measure_memory(&mut self, memory: Arc<PeakMemory>) {
        self.memory = Some(memory);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nogo;

    #[test]
    fn answers_are_read_as_gtp_has_them() {
        assert_eq!(start_of_response("= C3"), Some((true, "C3")));
        assert_eq!(start_of_response("=C3"), Some((true, "C3")));
        assert_eq!(start_of_response("=2"), Some((true, "2")));
        assert_eq!(start_of_response("="), Some((true, "")));
        assert_eq!(
            start_of_response("? illegal move"),
            Some((false, "illegal move"))
        );
        assert_eq!(start_of_response("thinking..."), None);
        assert_eq!(gtp_seconds(Duration::from_secs(5)), "5");
        assert_eq!(gtp_seconds(Duration::from_millis(250)), "0.250");
        assert_eq!(read_genmove("A1").unwrap(), nogo::point(0, 8));
        assert_eq!(read_genmove("j9").unwrap(), nogo::point(8, 0));
        assert_eq!(read_genmove("resign").unwrap_err().code(), "rules");
        assert_eq!(read_genmove("PASS").unwrap_err().code(), "illegal-move");
        for bad in ["I5", "K1", "A10", "A0", "", "C3 D4", "move C3"] {
            assert_eq!(read_genmove(bad).unwrap_err().code(), "garbage", "{bad}");
        }
    }
}
