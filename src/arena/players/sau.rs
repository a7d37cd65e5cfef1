//! An external engine spoken to as the SAU Game Platform speaks to its engines (Connect6; see
//! `protocols/arena.md`):
//!
//! - the program is started once and kept for several games; its standard error shares the pipe
//!   with its standard output, as the platform wires it;
//! - `name?` after the start, answered `name <x>` (within `NAME_GRACE`, or the program loses);
//! - `new black` / `new white` opens a game; Black answers `new black` with its first stone;
//! - each turn the engine gets the opponent's turn as `move X1Y1X2Y2` (letters from `A` = 0, the
//!   first of a pair the column, the second the row; `@@` = no stone, as in Black's single
//!   first stone `move JJ@@`) and answers its own;
//! - its answer is found as the platform finds it: the first `move ` (with its space) in whatever
//!   it writes, then the four characters after it; output without it is skipped;
//! - at the end the winner gets `end`, the loser (or the side that did not make the last turn)
//!   the final `move ...` and then `end`; `quit` when the player is dropped (the series or match is
//!   over), and the process is killed a second later if it is still there.
//!
//! A program that faulted (time-out, crash, closed pipe, unreadable answer) is killed, and the next
//! game starts a fresh one; after an illegal move it is told `end` and kept.
//!
//! Engines written for the platform are often a little off its protocol, and the platform lets
//! them be, since it only looks for `move `. `proto=sau-tolerant` does the same for four common
//! habits (Cloudict, the 2011 Olympiad champion, has all four):
//!
//! - no answer to `name?`: after `TOLERANT_NAME_GRACE` the engine plays on, unnamed;
//! - chatter on its output that holds the word `move`: only a line ending in `move` and its
//!   coordinates is an answer;
//! - a single stone written with two letters, `move JJ`, for Black's first stone;
//! - a single stone read the same way: such engines take `move JJ@@` as a stone on the border
//!   row `@`, so a one-stone turn is sent as `move JJ`.
//!
//! Either mode can send `init` lines (`init="depth 4"`) once the program has started, for engines
//! that take their settings on their input.

use super::common::clip;
use super::common::read_reply;
use crate::arena::memory::PeakMemory;
use crate::arena::player::{Answer, ArenaGame, GameEnd, Player, Turn};
use crate::arena::process::{BotPipe, BotProcess, ReadFailure};
use crate::arena::record::EndReason;
use crate::game::Color;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a freshly started engine has to answer `name?`.
pub const NAME_GRACE: Duration = Duration::from_secs(5);
/// How long a tolerant-mode engine may take to answer `name?` before it plays on unnamed.
const TOLERANT_NAME_GRACE: Duration = Duration::from_secs(2);
/// How long an engine has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(1);

pub struct SauPlayer {
    name: String,
    command: String,
    process: Option<BotProcess>,
    color: Color,
    /// What the engine called itself in answer to `name?`.
    engine_name: Option<String>,
    /// Black is sent `new black` when its first turn begins, so that its clock covers the
    /// first stone.
    new_pending: bool,
    /// The engine has been told about the current game (`new` sent), so it expects `end`.
    in_game: bool,
    name_grace: Duration,
    /// Lines sent once the program has started, before `name?`.
    init: Vec<String>,
    /// `sau-tolerant`: see the module notes.
    tolerant: bool,
    /// Where the peak memory of its processes goes (`Player::measure_memory`).
    memory: Option<Arc<PeakMemory>>,
}

/// The protocol name of tolerant mode.
pub const SAU_TOLERANT: &str = "sau-tolerant";

/// Whether a protocol is one of the SAU platform's.
pub fn is_sau(protocol: &str) -> bool {
    protocol == "sau" || protocol == SAU_TOLERANT
}

impl SauPlayer {
    pub fn new(name: &str, command: &str) -> SauPlayer {
        SauPlayer {
            name: name.to_string(),
            command: command.to_string(),
            process: None,
            color: Color::Black,
            engine_name: None,
            new_pending: false,
            in_game: false,
            name_grace: NAME_GRACE,
            init: Vec::new(),
            tolerant: false,
            memory: None,
        }
    }

    /// Lines to send the program once it has started (each gets its newline).
    pub fn with_init(mut self, lines: &[String]) -> SauPlayer {
        self.init = lines.to_vec();
        self
    }

    /// Tolerant mode: an unanswered `name?`, and single stones in two letters both ways.
    pub fn tolerant(mut self) -> SauPlayer {
        self.tolerant = true;
        self.name_grace = self.name_grace.min(TOLERANT_NAME_GRACE);
        self
    }

    /// Another grace period for the `name?` answer (tests use a short one).
    pub fn with_name_grace(mut self, grace: Duration) -> SauPlayer {
        self.name_grace = grace;
        self
    }

    /// The name the engine gave in answer to `name?`, once it has been started.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    /// Starts the program and asks its name.
    fn launch(&mut self) -> Result<BotProcess, EndReason> {
        let mut process = BotProcess::spawn_merged(&self.command)
            .map_err(|e| EndReason::StartFailed(e.to_string()))?
            .measured_by(self.memory.clone());
        for line in &self.init {
            process.send(&format!("{line}\n"))?;
        }
        process.send("name?\n")?;
        let deadline = Instant::now() + self.name_grace;
        if let Some(name) = read_name(&mut process, self.tolerant, deadline, self.name_grace)? {
            self.engine_name = Some(name);
        }
        Ok(process)
    }

    fn exchange<G: ArenaGame>(
        &mut self,
        turn: &Turn<'_, G>,
        start: Instant,
    ) -> Result<Vec<G::Move>, EndReason> {
        let message = if self.new_pending {
            self.new_pending = false;
            self.in_game = true;
            "new black\n".to_string()
        } else {
            let last = turn.turns.last().map_or(&[][..], Vec::as_slice);
            format!("move {}\n", encode_for(self.tolerant, turn.pos, last))
        };
        let process = self.process.as_mut().ok_or(EndReason::ClosedPipe)?;
        process.send(&message)?;
        read_turn(process, self.tolerant, turn.pos, start + turn.budget)
    }
}

/// Reads the answer to `name?` until `deadline`: the name, or (tolerant mode) nothing once the
/// time is up. `grace` is the time given, for the message.
pub fn read_name(
    process: &mut dyn BotPipe,
    tolerant: bool,
    deadline: Instant,
    grace: Duration,
) -> Result<Option<String>, EndReason> {
    loop {
        match process.read_line(deadline) {
            Ok(line) => {
                if let Some(name) = keyword_argument(&line, "name") {
                    return Ok(Some(name.to_string()));
                }
            }
            Err(ReadFailure::Timeout) if tolerant => return Ok(None),
            Err(ReadFailure::Timeout) => {
                return Err(EndReason::StartFailed(format!(
                    "no `name <x>` answer to `name?` within {:.1} s",
                    grace.as_secs_f64()
                )))
            }
            Err(ReadFailure::Closed) => return Err(process.judge_closed_output()),
        }
    }
}

/// Reads an engine's turn in `pos` until `deadline`, as the platform finds it in whatever the
/// engine writes (see the module notes; `tolerant` for `sau-tolerant`).
pub fn read_turn<G: ArenaGame>(
    process: &mut dyn BotPipe,
    tolerant: bool,
    pos: &G,
    deadline: Instant,
) -> Result<Vec<G::Move>, EndReason> {
    loop {
        let line = read_reply(process, deadline)?;
        // The platform skips whatever does not hold the keyword.
        let found = if tolerant {
            tolerant_answer(&line)
        } else {
            keyword_argument(&line, "move")
        };
        if let Some(argument) = found {
            return match widen(tolerant, argument) {
                Some(four) => decode(pos, &four, &line),
                None => decode(pos, argument, &line),
            };
        }
    }
}

/// A turn as the engine wants it: tolerant mode writes a single stone in two letters.
fn encode_for<G: ArenaGame>(tolerant: bool, pos: &G, turn: &[G::Move]) -> String {
    let mut text = encode(pos, turn);
    if tolerant && text.ends_with("@@") {
        text.truncate(2);
    }
    text
}

/// Tolerant mode's answer: a line that ends with `move` and two or four coordinate letters
/// (`move JJ`, `We loss!move KIIK`). Chatter that merely holds the word, such as a help text's
/// "search the move for next step", is skipped rather than judged.
fn tolerant_answer(line: &str) -> Option<&str> {
    let (head, argument) = line.trim_end().rsplit_once(' ')?;
    let letters = argument.chars().count();
    let coordinates = argument.chars().all(|c| c == '@' || c.is_ascii_uppercase());
    (head.ends_with("move") && (letters == 2 || letters == 4) && coordinates).then_some(argument)
}

/// Tolerant mode reads a two-letter answer (`move JJ`) as one stone, `JJ@@`.
fn widen(tolerant: bool, argument: &str) -> Option<String> {
    let two = argument.chars().count() == 2 && argument.chars().all(|c| c.is_ascii_uppercase());
    (tolerant && two).then(|| format!("{argument}@@"))
}

/// The argument after the first `keyword ` (keyword and a space, as the platform matches it)
/// in `line`, up to the next space; `None` if the keyword is not there.
fn keyword_argument<'l>(line: &'l str, keyword: &str) -> Option<&'l str> {
    let at = line.find(&format!("{keyword} "))?;
    let rest = &line[at + keyword.len() + 1..];
    Some(rest.split([' ', '\0', '\r', '\t']).next().unwrap_or(""))
}

/// A turn in SAU letters: two stones as four letters, `@@` for a missing stone.
pub fn encode<G: ArenaGame>(pos: &G, turn: &[G::Move]) -> String {
    let letter = |v: usize| char::from(b'A' + v as u8);
    (0..2)
        .map(|i| match turn.get(i) {
            Some(&m) => {
                let (x, y) = pos.xy(m);
                format!("{}{}", letter(x), letter(y))
            }
            None => "@@".to_string(),
        })
        .collect()
}

/// The stones of an engine's `move` argument (its first four characters). Characters that are
/// not coordinates are garbage; coordinates off the board or a missing first stone are illegal
/// moves, as the platform judges them.
pub fn decode<G: ArenaGame>(
    pos: &G,
    argument: &str,
    line: &str,
) -> Result<Vec<G::Move>, EndReason> {
    let chars: Vec<char> = argument.chars().take(4).collect();
    let garbage = |why: String| EndReason::Garbage(format!("{}: {why}", clip(line)));
    if chars.len() < 4 {
        return Err(garbage(
            "`move` must be followed by four coordinate letters".to_string(),
        ));
    }
    // '@' is one below 'A': -1, "no stone".
    let mut values = [0i32; 4];
    for (v, &c) in values.iter_mut().zip(&chars) {
        if c != '@' && !c.is_ascii_uppercase() {
            return Err(garbage(format!("{c:?} is not a coordinate letter")));
        }
        *v = c as i32 - 'A' as i32;
    }
    let text: String = chars.iter().collect();
    let n = pos.board_size();
    let mut stones = Vec::new();
    for (i, pair) in values.chunks(2).enumerate() {
        let (x, y) = (pair[0], pair[1]);
        if x == -1 && y == -1 {
            if i == 0 {
                return Err(EndReason::IllegalMove(format!(
                    "move {text}: the first stone is missing"
                )));
            }
            continue;
        }
        let stone = (x >= 0 && y >= 0)
            .then(|| pos.point_at(x as usize, y as usize))
            .flatten()
            .ok_or_else(|| {
                EndReason::IllegalMove(format!("move {text}: ({x},{y}) is off the {n}x{n} board"))
            })?;
        stones.push(stone);
    }
    Ok(stones)
}

impl<G: ArenaGame> Player<G> for SauPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, color: Color, _start: &G) -> Result<(), EndReason> {
        self.color = color;
        self.in_game = false;
        self.new_pending = false;
        // Whatever the engine said since the last game (a late answer to a `move` that `end`
        // cancelled) is not an answer to the coming game.
        if let Some(p) = self.process.as_mut() {
            if !p.drain() {
                self.process = None;
            }
        }
        if self.process.is_none() {
            self.process = Some(self.launch()?);
        }
        if color == Color::White {
            let sent = self
                .process
                .as_mut()
                .map_or(Err(EndReason::ClosedPipe), |p| p.send("new white\n"));
            if let Err(reason) = sent {
                self.process = None;
                return Err(reason);
            }
            self.in_game = true;
        } else {
            self.new_pending = true;
        }
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move> {
        // The clock runs from the moment we start writing the command.
        let start = Instant::now();
        let result = self.exchange(&turn, start);
        if let Err(reason) = &result {
            if !matches!(reason, EndReason::IllegalMove(_)) {
                // A late or confused engine is not trusted with the next game.
                self.process = None;
                self.in_game = false;
            }
        }
        (result, start.elapsed())
    }

    fn end_game(&mut self, end: &GameEnd<'_, G>) {
        self.new_pending = false;
        if !std::mem::take(&mut self.in_game) {
            return;
        }
        let tolerant = self.tolerant;
        let Some(process) = self.process.as_mut() else {
            return;
        };
        let mut message = String::new();
        if let Some((by, stones)) = end.last_turn {
            if by != self.color {
                message.push_str(&format!("move {}\n", encode_for(tolerant, end.pos, stones)));
            }
        }
        message.push_str("end\n");
        if process.send(&message).is_err() {
            self.process = None;
        }
    }

    fn reusable(&self) -> bool {
        true
    }

    fn measure_memory(&mut self, memory: Arc<PeakMemory>) {
        self.memory = Some(memory);
    }
}

impl Drop for SauPlayer {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            if process.send("quit\n").is_ok() {
                process.wait_exit(QUIT_GRACE);
            }
            // Dropping the process kills it if it is still there.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::player::GameOptions;
    use crate::game::connect6::Connect6;

    fn board() -> Connect6 {
        Connect6::start(&GameOptions::default()).unwrap()
    }

    #[test]
    fn letters_both_ways() {
        let g = board();
        let jj = g.point(9, 9);
        let a_s = g.point(0, 18);
        assert_eq!(encode(&g, &[jj]), "JJ@@");
        assert_eq!(encode(&g, &[jj, a_s]), "JJAS");
        assert_eq!(decode(&g, "JJ@@", "").unwrap(), vec![jj]);
        assert_eq!(decode(&g, "JJASxyz", "").unwrap(), vec![jj, a_s]);
        let code = |arg: &str| decode(&g, arg, "").unwrap_err().code();
        assert_eq!(code("@@JJ"), "illegal-move");
        assert_eq!(code("TAJJ"), "illegal-move");
        assert_eq!(code("@AJJ"), "illegal-move");
        assert_eq!(code("JJ"), "garbage");
        assert_eq!(code("jjkk"), "garbage");
        assert_eq!(code("J1K2"), "garbage");
    }

    #[test]
    fn the_keyword_is_found_as_the_platform_finds_it() {
        assert_eq!(keyword_argument("move JJ@@", "move"), Some("JJ@@"));
        assert_eq!(
            keyword_argument("debug: thinking... move KKLL\r", "move"),
            Some("KKLL")
        );
        // "remove " holds "move ": the platform would take the word after it.
        assert_eq!(keyword_argument("I remove this", "move"), Some("this"));
        assert_eq!(keyword_argument("movement", "move"), None);
        assert_eq!(keyword_argument("name  ", "name"), Some(""));
        assert_eq!(keyword_argument("name Stone Brain", "name"), Some("Stone"));
    }

    #[test]
    fn tolerant_mode_reads_and_writes_single_stones_in_two_letters() {
        let g = board();
        let jj = g.point(9, 9);
        assert_eq!(encode_for(true, &g, &[jj]), "JJ");
        assert_eq!(encode_for(false, &g, &[jj]), "JJ@@");
        assert_eq!(encode_for(true, &g, &[jj, jj]), "JJJJ");
        assert_eq!(widen(true, "JJ").as_deref(), Some("JJ@@"));
        assert_eq!(widen(false, "JJ"), None);
        assert_eq!(widen(true, "JJKK"), None);
        assert_eq!(widen(true, "J1"), None);
        assert_eq!(tolerant_answer("move JJ"), Some("JJ"));
        assert_eq!(tolerant_answer("We loss!move KIIK\r"), Some("KIIK"));
        assert_eq!(tolerant_answer("move JJ@@"), Some("JJ@@"));
        assert_eq!(
            tolerant_answer("  next - the engine will search the move for next step."),
            None
        );
        assert_eq!(tolerant_answer("move JJK"), None);
        assert_eq!(tolerant_answer("remove JJKK"), Some("JJKK"));
        assert_eq!(tolerant_answer("Score :\t999.400"), None);
        assert!(is_sau("sau") && is_sau(SAU_TOLERANT) && !is_sau("gomocup"));
    }
}
