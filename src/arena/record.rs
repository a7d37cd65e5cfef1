//! What the arena writes down about every game: enough to replay it, judge it and draw it.

use crate::game::Color;
use serde_json::{json, Value};
use std::time::Duration;

/// How long after a turn's limit the referee still listens, to say how late a late answer was.
/// Short, so that a program that hung costs the match little.
pub const LATE_WATCH: Duration = Duration::from_millis(500);

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The game's own rules ended it (NoGo: the side to move had no legal move).
    Rules(String),
    /// The loser sent a move the rules refuse.
    IllegalMove(String),
    /// The loser sent something that is not a move in its protocol.
    Garbage(String),
    /// The loser's clock ran out; with how long after its limit its next line (its answer, or
    /// a line before it) came, when one came within `LATE_WATCH` of the limit: tens of
    /// milliseconds point to a loaded machine or a tight margin, none to a program that hung.
    Timeout(Option<Duration>),
    /// The loser's process exited or was killed by a signal.
    Crash(String),
    /// The loser closed its end of a pipe.
    ClosedPipe,
    /// A keep-running bot did not print `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` after its answer.
    MissingMarker,
    /// The loser could not be started.
    StartFailed(String),
}

impl EndReason {
    /// A short stable code for files and reports.
    pub fn code(&self) -> &'static str {
        match self {
            EndReason::Rules(_) => "rules",
            EndReason::IllegalMove(_) => "illegal-move",
            EndReason::Garbage(_) => "garbage",
            EndReason::Timeout(_) => "timeout",
            EndReason::Crash(_) => "crash",
            EndReason::ClosedPipe => "closed-pipe",
            EndReason::MissingMarker => "missing-marker",
            EndReason::StartFailed(_) => "start-failed",
        }
    }

    /// A sentence for people.
    pub fn describe(&self) -> String {
        match self {
            EndReason::Rules(s) => s.clone(),
            EndReason::IllegalMove(s) => format!("illegal move: {s}"),
            EndReason::Garbage(s) => format!("unreadable answer: {s}"),
            EndReason::Timeout(None) => "out of time".to_string(),
            EndReason::Timeout(Some(late)) => format!(
                "out of time: its next line came {} ms after its limit",
                late.as_millis()
            ),
            EndReason::Crash(s) => format!("crashed: {s}"),
            EndReason::ClosedPipe => "closed its pipe".to_string(),
            EndReason::MissingMarker => "forgot the keep-running marker".to_string(),
            EndReason::StartFailed(s) => format!("could not start: {s}"),
        }
    }
}

/// One move as played, with the time its player took.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    /// The move in the game's own board coordinates: (x, y), x = column from the left, y = row from
    /// the top (NoGo and Gomoku: one stone; Connect6 turns are recorded stone by stone).
    pub x: usize,
    pub y: usize,
    pub color: Color,
    /// The time of the turn, on its first stone; 0 on the second stone of a pair.
    pub millis: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// "nogo", "gomoku" or "connect6".
    pub game: String,
    pub board_size: usize,
    pub black: String,
    pub white: String,
    pub moves: Vec<MoveRecord>,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// Total thinking time of each side, milliseconds, indexed by `Color::index()`.
    pub time_used_ms: [u64; 2],
    /// Index of the opening used, if any.
    pub opening: Option<usize>,
}

impl GameRecord {
    /// "1-0", "0-1" or "1/2-1/2", as chess tools write results.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// One JSON object, for the JSON-lines game file.
    pub fn to_json(&self) -> Value {
        json!({
            "game": self.game,
            "board_size": self.board_size,
            "black": self.black,
            "white": self.white,
            "result": self.result_text(),
            "winner": self.winner.map(|c| c.name()),
            "reason": self.reason.code(),
            "reason_text": self.reason.describe(),
            "moves": self.moves.iter().map(|m| json!([m.x, m.y])).collect::<Vec<_>>(),
            // One letter a stone, B or W: Connect6 turns hold one or two stones.
            "colors": self.moves.iter().map(|m| match m.color {
                Color::Black => 'B',
                Color::White => 'W',
            }).collect::<String>(),
            "move_ms": self.moves.iter().map(|m| m.millis).collect::<Vec<_>>(),
            "time_used_ms": { "black": self.time_used_ms[0], "white": self.time_used_ms[1] },
            "opening": self.opening,
        })
    }
}
