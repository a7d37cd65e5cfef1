//! An external Gomoku brain spoken to as a Gomocup manager (Piskvork) speaks to it (see
//! `protocols/arena.md`):
//!
//! - every game starts a fresh process, as tournament managers do (the protocol's `RESTART` is
//!   optional for a brain, so it is not relied on); the brain's standard error is discarded, only
//!   its standard output is read;
//! - `START N` as the game is set up, to be answered `OK` within `START_GRACE`; an `ERROR`, any
//!   other answer, or silence loses the game before it starts (`start-failed`);
//! - before the brain's first move `INFO timeout_turn`, `INFO timeout_match` and `INFO rule`,
//!   then the `init=` lines if any (`INFO max_node 20000`, say: after the limits, so that they
//!   can also override them), and before every move `INFO time_left`;
//! - its first move is asked with `BEGIN` on an empty board, `TURN x,y` when the opponent has
//!   played one stone, or `BOARD`, one line `x,y,1` (own) or `x,y,2` (opponent's) a stone in the
//!   order they were played, and `DONE`, from an opening; every later move with `TURN x,y`;
//! - the answer is a line `x,y` (column, row, from 0); `MESSAGE`, `DEBUG` and `UNKNOWN` lines
//!   before it are skipped, `SUGGEST x,y` is answered `PLAY x,y` (as Gomocup's manager always
//!   does) and the brain's echo is its move, and an `ERROR` line loses (`garbage`);
//! - `END` when the game is over; a brain still running `END_GRACE` later is killed.
//!
//! Commands end with CR LF, as a manager sends them; keywords in the brain's lines are read in
//! either case. The clock of a turn runs from the first `INFO` line written to the answer read,
//! as Gomocup counts everything but `START` into a turn.

use super::common::clip;
use super::common::read_reply;
use crate::arena::memory::PeakMemory;
use crate::arena::player::{Answer, GameEnd, Player, Turn};
use crate::arena::process::{BotPipe, BotProcess, ReadFailure};
use crate::arena::record::EndReason;
use crate::game::gomoku::{Gomoku, Point};
use crate::game::Color;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a freshly started brain has to answer `START`.
pub const START_GRACE: Duration = Duration::from_secs(5);
/// How long a brain has to exit after `END` before it is killed (Piskvork's figure).
const END_GRACE: Duration = Duration::from_secs(1);
/// `INFO time_left` when the game has no clock: the protocol's "unlimited".
const UNLIMITED_MS: i64 = 2_147_483_647;

pub struct GomocupPlayer {
    name: String,
    command: String,
    process: Option<BotProcess>,
    color: Color,
    /// Stones of the game the brain knows about (told, or its own answers); 0 until its first
    /// move of the game has been asked.
    known: usize,
    start_grace: Duration,
    /// Lines sent after the limits before the brain's first move of every game (`init=`).
    init: Vec<String>,
    /// Where the peak memory of its processes goes (`Player::measure_memory`).
    memory: Option<Arc<PeakMemory>>,
}

/// A line from the brain, by its first word.
#[derive(Debug, PartialEq, Eq)]
enum Reply<'l> {
    Blank,
    /// `MESSAGE`, `DEBUG`, `UNKNOWN`: said to the user or the log, never an answer.
    Aside,
    Ok,
    Error,
    /// `SUGGEST x,y`, with the text after the keyword.
    Suggest(&'l str),
    /// Anything else: a move, or garbage.
    Other(&'l str),
}

fn classify(line: &str) -> Reply<'_> {
    let text = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    if text.is_empty() {
        return Reply::Blank;
    }
    let (head, rest) = text
        .split_once(char::is_whitespace)
        .map_or((text, ""), |(h, r)| (h, r.trim()));
    match head.to_ascii_uppercase().as_str() {
        "MESSAGE" | "DEBUG" | "UNKNOWN" => Reply::Aside,
        "OK" => Reply::Ok,
        "ERROR" => Reply::Error,
        "SUGGEST" => Reply::Suggest(rest),
        _ => Reply::Other(text),
    }
}

/// A brain's `x,y`: two integers (spaces around them allowed) on the board. Text that is not two
/// integers is garbage; integers off the board are an illegal move.
pub fn parse_move(pos: &Gomoku, text: &str, line: &str) -> Result<Point, EndReason> {
    let garbage = || EndReason::Garbage(format!("{}: not a move `x,y`", clip(line)));
    let (x, y) = text.split_once(',').ok_or_else(garbage)?;
    let (x, y): (i64, i64) = (
        x.trim().parse().map_err(|_| garbage())?,
        y.trim().parse().map_err(|_| garbage())?,
    );
    let n = pos.size();
    usize::try_from(x)
        .ok()
        .zip(usize::try_from(y).ok())
        .and_then(|(x, y)| pos.try_point(x, y))
        .ok_or_else(|| EndReason::IllegalMove(format!("({x},{y}) is off the {n}x{n} board")))
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// What the manager writes before the brain's move: the `INFO` lines (the limits and the `init`
/// lines only before its first move of the game) and the command that asks for the move.
pub fn move_request(turn: &Turn<'_, Gomoku>, color: Color, first: bool, init: &[String]) -> String {
    let mut out = String::new();
    let clock = turn.clock;
    if first {
        // A turn may take no more than the game clock holds: with only a game clock, that is the
        // turn's limit too. With no clock at all nothing is said and the brain keeps its own.
        if let Some(limit) = clock.per_move.or(clock.per_game) {
            out.push_str(&format!("INFO timeout_turn {}\r\n", millis(limit)));
        }
        out.push_str(&format!(
            "INFO timeout_match {}\r\n",
            clock.per_game.map_or(0, millis)
        ));
        out.push_str(&format!(
            "INFO rule {}\r\n",
            u8::from(turn.start.rules().exact_five)
        ));
        for line in init {
            out.push_str(line);
            out.push_str("\r\n");
        }
    }
    let left = clock
        .per_game
        .map_or(UNLIMITED_MS, |g| millis(g) - millis(turn.used));
    out.push_str(&format!("INFO time_left {left}\r\n"));
    let xy = |m: Point| {
        let (x, y) = turn.pos.coords(m);
        format!("{x},{y}")
    };
    let stones = turn.turns.iter().flatten().count();
    match turn.turns.last() {
        None => out.push_str("BEGIN\r\n"),
        // The opponent's stone since the brain's last move, or its first stone of the game as
        // a manager passes it on after `BEGIN`.
        Some(last) if !first || stones == 1 => {
            for &m in last {
                out.push_str(&format!("TURN {}\r\n", xy(m)));
            }
        }
        // An opening: the whole board, in the order of play.
        Some(_) => {
            out.push_str("BOARD\r\n");
            for (i, t) in turn.turns.iter().enumerate() {
                // Turns alternate, Black's first.
                let by = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let field = if by == color { 1 } else { 2 };
                for &m in t {
                    out.push_str(&format!("{},{field}\r\n", xy(m)));
                }
            }
            out.push_str("DONE\r\n");
        }
    }
    out
}

impl GomocupPlayer {
    pub fn new(name: &str, command: &str) -> GomocupPlayer {
        GomocupPlayer {
            name: name.to_string(),
            command: command.to_string(),
            process: None,
            color: Color::Black,
            known: 0,
            start_grace: START_GRACE,
            init: Vec::new(),
            memory: None,
        }
    }

    /// Lines to send after the limits before the brain's first move of every game.
    pub fn with_init(mut self, lines: &[String]) -> GomocupPlayer {
        self.init = lines.to_vec();
        self
    }

    /// Another grace period for the `OK` to `START` (tests use a short one).
    pub fn with_start_grace(mut self, grace: Duration) -> GomocupPlayer {
        self.start_grace = grace;
        self
    }

    /// Starts the program and sends `START N`.
    fn launch(&self, size: usize) -> Result<BotProcess, EndReason> {
        let mut process = BotProcess::spawn(&self.command)
            .map_err(|e| EndReason::StartFailed(e.to_string()))?
            .measured_by(self.memory.clone());
        // A brain that refuses before it reads anything may already have said why and exited:
        // its words are read before the failed write is judged.
        let unsent = process.send(&format!("START {size}\r\n")).err();
        let deadline = Instant::now() + self.start_grace;
        read_start_answer(&mut process, size, deadline, unsent, self.start_grace)?;
        Ok(process)
    }

    fn exchange(&mut self, turn: &Turn<'_, Gomoku>, start: Instant) -> Result<Point, EndReason> {
        let request = move_request(turn, self.color, self.known == 0, &self.init);
        let process = self.process.as_mut().ok_or(EndReason::ClosedPipe)?;
        process.send(&request)?;
        read_move(process, turn.pos, start + turn.budget)
    }
}

/// Reads a brain's answer to `START size` until `deadline`: `OK`, after blank and aside lines.
/// `unsent` is why `START` could not be written, if it could not: a brain that refuses before it
/// reads anything may already have said why and exited, so its words are read first. `grace`
/// is the time it was given, for the message.
pub fn read_start_answer(
    process: &mut dyn BotPipe,
    size: usize,
    deadline: Instant,
    unsent: Option<EndReason>,
    grace: Duration,
) -> Result<(), EndReason> {
    loop {
        let line = match (process.read_line(deadline), unsent.clone()) {
            (Ok(line), _) => line,
            (Err(_), Some(reason)) => return Err(reason),
            (Err(ReadFailure::Timeout), None) => {
                return Err(EndReason::StartFailed(format!(
                    "no OK to `START {size}` within {:.1} s",
                    grace.as_secs_f64()
                )))
            }
            (Err(ReadFailure::Closed), None) => return Err(process.judge_closed_output()),
        };
        match classify(&line) {
            Reply::Blank | Reply::Aside => continue,
            Reply::Ok => return Ok(()),
            _ => {
                return Err(EndReason::StartFailed(format!(
                    "answered `START {size}` with {} instead of OK",
                    clip(&line)
                )))
            }
        }
    }
}

/// Reads a brain's move in `pos` until `deadline`, after the request was sent: asides are
/// skipped, a `SUGGEST` is answered `PLAY` (the brain then answers it as its move), an `ERROR`
/// or `OK` loses.
pub fn read_move(
    process: &mut dyn BotPipe,
    pos: &Gomoku,
    deadline: Instant,
) -> Result<Point, EndReason> {
    loop {
        let line = read_reply(process, deadline)?;
        match classify(&line) {
            Reply::Blank | Reply::Aside => continue,
            Reply::Error => {
                return Err(EndReason::Garbage(format!(
                    "{}: an ERROR where a move was due",
                    clip(&line)
                )))
            }
            Reply::Suggest(text) => {
                // The manager takes the suggestion; the brain then answers it as its move.
                let p = parse_move(pos, text, &line)?;
                let (x, y) = pos.coords(p);
                process.send(&format!("PLAY {x},{y}\r\n"))?;
            }
            Reply::Ok => {
                return Err(EndReason::Garbage(format!(
                    "{}: OK where a move was due",
                    clip(&line)
                )))
            }
            Reply::Other(text) => return parse_move(pos, text, &line),
        }
    }
}

impl Player<Gomoku> for GomocupPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, color: Color, start: &Gomoku) -> Result<(), EndReason> {
        self.color = color;
        self.known = 0;
        // A brain left from an unfinished game is killed with it.
        self.process = None;
        self.process = Some(self.launch(start.size())?);
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, Gomoku>) -> Answer<Point> {
        let start = Instant::now();
        let result = self.exchange(&turn, start);
        match &result {
            Ok(_) => self.known = turn.turns.iter().flatten().count() + 1,
            // A brain that is late, dead or deaf hears no `END`: it is killed at once (a late
            // one once the referee has listened `LATE_WATCH` for how late it was).
            Err(EndReason::Timeout(_) | EndReason::Crash(_) | EndReason::ClosedPipe) => {
                self.process = None
            }
            Err(_) => {}
        }
        (result.map(|p| vec![p]), start.elapsed())
    }

    fn end_game(&mut self, _end: &GameEnd<'_, Gomoku>) {
        if let Some(mut process) = self.process.take() {
            if process.send("END\r\n").is_ok() {
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
    use crate::arena::player::TimeControl;
    use crate::arena::player::{ArenaGame, GameOptions};
    use crate::game::Game;

    fn board(exact_five: bool) -> Gomoku {
        Gomoku::start(&GameOptions {
            exact_five,
            ..GameOptions::default()
        })
        .unwrap()
    }

    #[test]
    fn lines_are_read_as_a_manager_reads_them() {
        assert_eq!(classify("  \r"), Reply::Blank);
        assert_eq!(classify("MESSAGE I will win"), Reply::Aside);
        assert_eq!(classify("debug depth 7"), Reply::Aside);
        assert_eq!(classify("UNKNOWN command INFO foo"), Reply::Aside);
        assert_eq!(classify("ok"), Reply::Ok);
        assert_eq!(classify("ERROR too big"), Reply::Error);
        assert_eq!(classify("SUGGEST 7,8"), Reply::Suggest("7,8"));
        assert_eq!(classify(" 7,8 "), Reply::Other("7,8"));
        let g = board(false);
        assert_eq!(parse_move(&g, "7,8", "").unwrap(), g.point(7, 8));
        assert_eq!(parse_move(&g, "14, 0", "").unwrap(), g.point(14, 0));
        let code = |t: &str| parse_move(&g, t, t).unwrap_err().code();
        assert_eq!(code("15,0"), "illegal-move");
        assert_eq!(code("-1,3"), "illegal-move");
        assert_eq!(code("7 8"), "garbage");
        assert_eq!(code("7,8,1"), "garbage");
        assert_eq!(code("h8"), "garbage");
        assert_eq!(code("7.5,8"), "garbage");
    }

    fn request(
        turns: &[Vec<(usize, usize)>],
        color: Color,
        first: bool,
        clock: TimeControl,
        exact_five: bool,
    ) -> String {
        request_with(turns, color, first, clock, exact_five, &[])
    }

    /// `request`, with `init=` lines.
    fn request_with(
        turns: &[Vec<(usize, usize)>],
        color: Color,
        first: bool,
        clock: TimeControl,
        exact_five: bool,
        init: &[String],
    ) -> String {
        let start = board(exact_five);
        let mut pos = start.clone();
        let turns: Vec<Vec<Point>> = turns
            .iter()
            .map(|t| t.iter().map(|&(x, y)| start.point(x, y)).collect())
            .collect();
        for m in turns.iter().flatten() {
            pos.play(*m);
        }
        let turn = Turn {
            start: &start,
            pos: &pos,
            turns: &turns,
            budget: Duration::from_secs(1),
            clock,
            used: Duration::from_millis(1500),
        };
        move_request(&turn, color, first, init)
    }

    #[test]
    fn init_lines_follow_the_limits_before_the_first_move_only() {
        let clock = TimeControl {
            per_move: Some(Duration::from_secs(1)),
            per_game: None,
        };
        let init = vec!["INFO max_node 20000".to_string()];
        assert_eq!(
            request_with(&[], Color::Black, true, clock, false, &init),
            "INFO timeout_turn 1000\r\nINFO timeout_match 0\r\nINFO rule 0\r\n\
             INFO max_node 20000\r\nINFO time_left 2147483647\r\nBEGIN\r\n"
        );
        assert_eq!(
            request_with(
                &[vec![(7, 7)], vec![(8, 8)], vec![(6, 6)]],
                Color::White,
                false,
                clock,
                false,
                &init
            ),
            "INFO time_left 2147483647\r\nTURN 6,6\r\n"
        );
    }

    #[test]
    fn the_manager_asks_for_moves_as_piskvork_does() {
        let clock = TimeControl {
            per_move: Some(Duration::from_secs(5)),
            per_game: Some(Duration::from_secs(180)),
        };
        assert_eq!(
            request(&[], Color::Black, true, clock, false),
            "INFO timeout_turn 5000\r\nINFO timeout_match 180000\r\nINFO rule 0\r\n\
             INFO time_left 178500\r\nBEGIN\r\n"
        );
        // White's first move after Black's first stone.
        assert_eq!(
            request(
                &[vec![(7, 7)]],
                Color::White,
                true,
                TimeControl::default(),
                true
            ),
            "INFO timeout_match 0\r\nINFO rule 1\r\nINFO time_left 2147483647\r\nTURN 7,7\r\n"
        );
        // Later moves: the opponent's last stone only.
        let game_only = TimeControl {
            per_move: None,
            per_game: Some(Duration::from_secs(10)),
        };
        assert_eq!(
            request(
                &[vec![(7, 7)], vec![(8, 8)], vec![(6, 6)]],
                Color::White,
                false,
                game_only,
                false
            ),
            "INFO time_left 8500\r\nTURN 6,6\r\n"
        );
        // From an opening: the board in the order of play, own stones 1.
        let opening = [vec![(7, 7)], vec![(8, 7)], vec![(5, 9)]];
        assert_eq!(
            request(&opening, Color::White, true, game_only, false),
            "INFO timeout_turn 10000\r\nINFO timeout_match 10000\r\nINFO rule 0\r\n\
             INFO time_left 8500\r\nBOARD\r\n7,7,2\r\n8,7,1\r\n5,9,2\r\nDONE\r\n"
        );
        let four = [vec![(7, 7)], vec![(8, 7)], vec![(5, 9)], vec![(9, 9)]];
        assert!(request(&four, Color::Black, true, game_only, false)
            .ends_with("BOARD\r\n7,7,1\r\n8,7,2\r\n5,9,1\r\n9,9,2\r\nDONE\r\n"));
    }
}
