//! Platforms' wire formats. A protocol turns input lines into `Event`s and writes answers in the
//! platform's own form; `serve` is the single-threaded loop that connects a protocol, a position
//! and an engine: read a line, update the position, think until the deadline, write.

pub mod botzone;
pub mod detect;
pub mod session;

use crate::engine::Decision;
use crate::game::IllegalMove;
use crate::search::clock::TurnBudget;
use session::Session;
use std::io::{BufRead, Write};
use std::time::Instant;

pub use detect::{detect, GameKind, ProtocolKind};

/// One input line and the instant it was read (budgets count from there).
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    pub arrived: Instant,
}

/// What a platform's input means for the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<M> {
    /// Start a new game from the empty board.
    NewGame,
    /// A move (by either side) to put on the board.
    Play(M),
    /// Something wrong with the input that did not stop us: reported on stderr and, where the
    /// platform has one, in its debug channel.
    Warning(String),
    /// It is our turn: answer within the budget.
    Go(TurnBudget),
    /// Leave.
    Quit,
}

/// A platform's codec, from the bot's side.
pub trait Protocol<M> {
    /// Reads one line. Multi-line messages return no events until complete. An `Err` is a
    /// problem with the input that loses this message; the serve loop reports it and goes on.
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<M>>, String>;
    /// Writes our answer (and the platform's debug text, if it has any).
    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        decision: &Decision<M>,
        warnings: &[String],
    ) -> std::io::Result<()>;
    /// Writes an error in the platform's own form (after `parse` failed).
    fn write_error(&mut self, out: &mut dyn Write, message: &str) -> std::io::Result<()>;
    /// Whether the process should exit after an answer (Botzone's one-turn-per-process mode).
    fn done_after_answer(&self) -> bool;
    /// A move in the platform's own notation, for messages.
    fn name_move(&self, m: M) -> String;
    /// Said when input ends; `Some` is a complaint about an unfinished message.
    fn at_end_of_input(&mut self) -> Option<String> {
        None
    }
}

/// Normalises a raw input line: platforms send `\r\n`, stray NUL bytes and extra spaces.
pub fn clean_line(raw: &str) -> String {
    raw.replace(['\r', '\0'], " ").trim().to_string()
}

/// Reads lines, stamps them, and yields only non-empty ones.
pub struct LineReader<R: BufRead> {
    input: R,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            buffer: Vec::new(),
        }
    }

    /// The next non-empty line, or `None` at end of input (or on a read error).
    pub fn next_line(&mut self) -> Option<Line> {
        loop {
            self.buffer.clear();
            match self.input.read_until(b'\n', &mut self.buffer) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {
                    let arrived = Instant::now();
                    // Invalid UTF-8 is replaced rather than refused: the parser reports it.
                    let text = clean_line(&String::from_utf8_lossy(&self.buffer));
                    if !text.is_empty() {
                        return Some(Line { text, arrived });
                    }
                }
            }
        }
    }
}

/// Serves one protocol until input ends, `Quit`, or a one-turn protocol has answered.
/// `first` is a line already read (by protocol detection).
pub fn serve<G, R, W, E>(
    protocol: &mut dyn Protocol<G::Move>,
    session: &mut Session<G>,
    first: Option<Line>,
    reader: &mut LineReader<R>,
    out: &mut W,
    err: &mut E,
) -> std::io::Result<()>
where
    G: crate::game::Game,
    R: BufRead,
    W: Write,
    E: Write,
{
    let mut pending = first;
    let mut warnings: Vec<String> = Vec::new();
    loop {
        let line = match pending.take().or_else(|| reader.next_line()) {
            Some(l) => l,
            None => {
                if let Some(msg) = protocol.at_end_of_input() {
                    writeln!(err, "stonebrain: {msg}")?;
                }
                return Ok(());
            }
        };
        let events = match protocol.parse(&line) {
            Ok(events) => events,
            Err(msg) => {
                writeln!(err, "stonebrain: {msg}")?;
                protocol.write_error(out, &msg)?;
                out.flush()?;
                if protocol.done_after_answer() {
                    return Ok(());
                }
                continue;
            }
        };
        for event in events {
            match event {
                Event::NewGame => {
                    session.new_game();
                    warnings.clear();
                }
                Event::Play(m) => {
                    let ply = session.position().ply() + 1;
                    if let Err(why) = session.apply(m) {
                        let fate = match why {
                            IllegalMove::Forbidden(_) => "kept as given",
                            _ => "skipped",
                        };
                        warnings.push(format!(
                            "ply {ply}: {} is illegal ({why}); {fate}",
                            protocol.name_move(m)
                        ));
                    }
                }
                Event::Warning(w) => warnings.push(w),
                Event::Go(budget) => {
                    for w in &warnings {
                        writeln!(err, "stonebrain: {w}")?;
                    }
                    let decision = session.think(budget);
                    protocol.write_answer(out, &decision, &warnings)?;
                    out.flush()?;
                    warnings.clear();
                    if let Some(m) = decision.mv {
                        if let Err(why) = session.apply(m) {
                            // Cannot happen with a sound engine; said loudly if it ever does.
                            writeln!(err, "stonebrain: internal error, own choice refused: {why}")?;
                        }
                    }
                    if protocol.done_after_answer() {
                        return Ok(());
                    }
                }
                Event::Quit => return Ok(()),
            }
        }
    }
}
