//! Platforms' wire formats. A protocol turns input lines into `Event`s and writes answers in the
//! platform's own form; `serve` is the single-threaded loop that connects a protocol, a position
//! and an engine: read a line, update the position, think until the deadline, write.

pub mod botzone;
pub mod cli;
pub mod detect;
pub mod gomocup;
pub mod gtp;
pub mod sau;
pub mod session;

use crate::engine::Decision;
use crate::game::IllegalMove;
use crate::search::clock::TurnBudget;
use session::Session;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
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
    /// Start a new game on a board of another kind: `size` is its side and `rules` the
    /// platform's rule bits (Gomocup's `START n` and `INFO rule`). The session's `board_maker`
    /// builds the empty board, which later `NewGame`s return to.
    NewBoard { size: usize, rules: u32 },
    /// A move (by either side) to put on the board.
    Play(M),
    /// The side to move stops its turn early: a Connect6 turn of one stone where two were due,
    /// which the SAU platform accepts.
    EndTurn,
    /// Something wrong with the input that did not stop us: reported on the diagnostics stream
    /// (stderr, or the log file) at once and, where the platform has one, in its debug channel.
    Warning(String),
    /// It is our turn: answer within the budget.
    Go(TurnBudget),
    /// The platform refused our last turn (SAU's `error`): take it back and answer again,
    /// with something else if we can.
    Retry(TurnBudget),
    /// A line for the platform that is not a move (SAU's `name stonebrain`): written as it is.
    Reply(String),
    /// Leave.
    Quit,
}

/// A platform's codec, from the bot's side.
pub trait Protocol<M> {
    /// Reads one line. Multi-line messages return no events until complete. An `Err` is a
    /// problem with the input that loses this message; the serve loop reports it and goes on.
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<M>>, String>;
    /// Writes our answer: the stones of our whole turn (one for NoGo; one or two for Connect6;
    /// none when there is no legal move or the game is over), and the platform's debug text if it
    /// has any. A platform with no way to say "no move" (SAU) writes nothing for an empty turn.
    /// `decision` describes the search behind the turn.
    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        turn: &[M],
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
    /// Which input lines cancel a search in progress (SAU's `end` and `quit`). A cancelled
    /// turn is never answered.
    fn interrupts(&self) -> fn(&str) -> bool {
        |_| false
    }
}

/// Normalises a raw input line: platforms send `\r\n`, stray NUL bytes and extra spaces.
pub fn clean_line(raw: &str) -> String {
    raw.replace(['\r', '\0'], " ").trim().to_string()
}

/// Where the serve loop gets its input lines.
pub trait LineSource {
    /// The next non-empty line, or `None` at end of input.
    fn next_line(&mut self) -> Option<Line>;
    /// Read-but-unhandled lines that cancel a search, if this source watches for them.
    fn interrupt(&self) -> Option<&'static AtomicUsize> {
        None
    }
}

/// Reads lines, stamps them, and yields only non-empty ones. A line ends at `\n`; once
/// `set_nul_ends_line` is on, also at a NUL byte (the SAU platform sends one after every command,
/// and a move typed by a human player on the platform comes with a NUL but no newline).
pub struct LineReader<R: Read> {
    input: R,
    /// Bytes read but not yet handed out as lines.
    pending: Vec<u8>,
    /// When the bytes in `pending` arrived: every complete line waiting there came with the
    /// latest read, since nothing is read while a complete line waits.
    read_at: Instant,
    nul_ends_line: bool,
    at_end: bool,
}

impl<R: Read> LineReader<R> {
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            pending: Vec::new(),
            read_at: Instant::now(),
            nul_ends_line: false,
            at_end: false,
        }
    }

    /// Whether a NUL byte ends a line, as a newline does.
    pub fn set_nul_ends_line(&mut self, on: bool) {
        self.nul_ends_line = on;
    }

    /// Takes the first complete line out of `pending`, if there is one.
    fn take_raw_line(&mut self) -> Option<Vec<u8>> {
        let nul = self.nul_ends_line;
        let end = self
            .pending
            .iter()
            .position(|&b| b == b'\n' || (nul && b == 0))?;
        let rest = self.pending.split_off(end + 1);
        Some(std::mem::replace(&mut self.pending, rest))
    }

    fn stamp(&self, raw: &[u8]) -> Option<Line> {
        // Invalid UTF-8 is replaced rather than refused: the parser reports it.
        let text = clean_line(&String::from_utf8_lossy(raw));
        (!text.is_empty()).then_some(Line {
            text,
            arrived: self.read_at,
        })
    }

    /// The next non-empty line among those already read, without waiting for more input.
    pub fn next_buffered_line(&mut self) -> Option<Line> {
        while let Some(raw) = self.take_raw_line() {
            if let Some(line) = self.stamp(&raw) {
                return Some(line);
            }
        }
        None
    }

    /// The next non-empty line, or `None` at end of input (or on a read error). A last line
    /// without its newline still counts.
    pub fn next_line(&mut self) -> Option<Line> {
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(line) = self.next_buffered_line() {
                return Some(line);
            }
            if self.at_end {
                let rest = std::mem::take(&mut self.pending);
                return if rest.is_empty() {
                    None
                } else {
                    self.stamp(&rest)
                };
            }
            match self.input.read(&mut chunk) {
                Ok(0) => self.at_end = true,
                Ok(n) => {
                    self.read_at = Instant::now();
                    self.pending.extend_from_slice(&chunk[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => self.at_end = true,
            }
        }
    }
}

impl<R: Read> LineSource for LineReader<R> {
    fn next_line(&mut self) -> Option<Line> {
        LineReader::next_line(self)
    }
}

/// Input read on its own thread, so that a line arriving while we think (SAU's `end`) is seen at
/// once: lines the `cancels` test picks are counted in `interrupt` when read and uncounted when
/// the serve loop takes them, and a search stops while the count is non-zero. Lines that arrive
/// together (the SAU platform sends the loser `move ...` and `end` in one write) are all counted
/// before the first is handed over, so such a move is never answered. Lines are stamped on the
/// reading thread, so budgets still count from the real arrival.
pub struct ThreadedLines {
    lines: mpsc::Receiver<Line>,
    cancels: fn(&str) -> bool,
    interrupt: &'static AtomicUsize,
}

impl ThreadedLines {
    pub fn spawn<R: Read + Send + 'static>(
        mut reader: LineReader<R>,
        cancels: fn(&str) -> bool,
    ) -> ThreadedLines {
        // One counter per serve loop, alive for the rest of the process (a few bytes, once).
        let interrupt: &'static AtomicUsize = Box::leak(Box::new(AtomicUsize::new(0)));
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(first) = reader.next_line() {
                let mut batch = vec![first];
                while let Some(line) = reader.next_buffered_line() {
                    batch.push(line);
                }
                for line in &batch {
                    if cancels(&line.text) {
                        interrupt.fetch_add(1, Ordering::SeqCst);
                    }
                }
                for line in batch {
                    if send.send(line).is_err() {
                        return;
                    }
                }
            }
        });
        ThreadedLines {
            lines,
            cancels,
            interrupt,
        }
    }
}

impl LineSource for ThreadedLines {
    fn next_line(&mut self) -> Option<Line> {
        let line = self.lines.recv().ok()?;
        if (self.cancels)(&line.text) {
            self.interrupt.fetch_sub(1, Ordering::SeqCst);
        }
        Some(line)
    }

    fn interrupt(&self) -> Option<&'static AtomicUsize> {
        Some(self.interrupt)
    }
}

/// Reports a problem with the input on the diagnostics stream at once, and keeps it for the
/// platform's debug channel with the next answer.
fn note<E: Write>(err: &mut E, warnings: &mut Vec<String>, w: String) -> std::io::Result<()> {
    writeln!(err, "stonebrain: {w}")?;
    warnings.push(w);
    Ok(())
}

/// Serves one protocol until input ends, `Quit`, or a one-turn protocol has answered.
/// `first` is a line already read (by protocol detection).
pub fn serve<G, W, E>(
    protocol: &mut dyn Protocol<G::Move>,
    session: &mut Session<G>,
    first: Option<Line>,
    reader: &mut dyn LineSource,
    out: &mut W,
    err: &mut E,
) -> std::io::Result<()>
where
    G: crate::game::Game,
    W: Write,
    E: Write,
{
    let interrupt = reader.interrupt();
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
                Event::NewBoard { size, rules } => {
                    warnings.clear();
                    if let Err(why) = session.new_board(size, rules) {
                        note(err, &mut warnings, why)?;
                    }
                }
                Event::Play(m) => {
                    let ply = session.position().ply() + 1;
                    if let Err(why) = session.apply(m) {
                        let fate = match why {
                            IllegalMove::Forbidden(_) => "kept as given",
                            _ => "skipped",
                        };
                        let w = format!(
                            "ply {ply}: {} is illegal ({why}); {fate}",
                            protocol.name_move(m)
                        );
                        note(err, &mut warnings, w)?;
                    }
                }
                Event::EndTurn => {
                    if let Err(why) = session.end_turn() {
                        note(err, &mut warnings, why)?;
                    }
                }
                Event::Warning(w) => note(err, &mut warnings, w)?,
                Event::Reply(text) => {
                    writeln!(out, "{text}")?;
                    out.flush()?;
                }
                Event::Go(budget) | Event::Retry(budget) => {
                    let retry = matches!(event, Event::Retry(_));
                    let refused = if retry {
                        session.retract_turn()
                    } else {
                        Vec::new()
                    };
                    let (turn, decision) = session.think_turn(budget, &refused, interrupt);
                    if interrupt.is_some_and(|n| n.load(Ordering::SeqCst) > 0) {
                        // Cancelled while thinking: the platform no longer wants this turn.
                        session.retract_turn();
                        warnings.clear();
                        continue;
                    }
                    protocol.write_answer(out, &turn, &decision, &warnings)?;
                    out.flush()?;
                    warnings.clear();
                    if protocol.done_after_answer() {
                        return Ok(());
                    }
                }
                Event::Quit => return Ok(()),
            }
        }
    }
}
