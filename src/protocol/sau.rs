//! The SAU Game Platform (the board-game platform of the Chinese computer-games championships),
//! from the engine's side, for Connect6. See `protocols/sau.md`.
//!
//! The platform writes one command a line: `name?`, `new black|white`, `move XXXX` (the
//! opponent's turn), `error` (our last turn was refused), `end [colour]`, `quit`. It reads only
//! `name ...` and `move ...` from us, and takes the first `move` it finds anywhere in what we
//! write, so nothing else may ever be written. It sends no time: the bot keeps a whole-game
//! clock of its own, counted from the moment each command is read.
//!
//! The protocol keeps its own copy of the board, to check the platform's moves before they reach
//! the session: a move the platform could not have sent (off the board, on a stone, out of turn,
//! with no game running) is reported to the log and otherwise ignored, since SAU has no way to
//! say that something was wrong.

use super::{Event, Line, Protocol};
use crate::engine::Decision;
use crate::game::connect6::{Connect6, Connect6Rules, Stone};
use crate::game::{Color, Game};
use crate::search::clock::{GameClock, GamePlan, TurnBudget, DEFAULT_MARGIN};
use std::io::Write;
use std::time::{Duration, Instant};

/// The name we give when asked.
pub const DEFAULT_NAME: &str = "stonebrain";
/// The platform's limit for a name: 12 ASCII characters (or 6 Chinese ones).
pub const MAX_NAME_LEN: usize = 12;
/// The class rule: 3 minutes a side for the whole game.
pub const DEFAULT_GAME_TIME: Duration = Duration::from_secs(180);
/// Columns and rows are letters from `A` (25 of them fit before `Z`, as many as the largest board
/// the rules support); `@`, the character before `A`, stands for "no stone".
const NO_STONE: u8 = b'@';

/// Checks a name for `name?`: 1 to 12 ASCII letters or digits. Anything else could break the
/// platform's reading (it ends the name at the first space) or its display.
pub fn check_name(name: &str) -> Result<String, String> {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return Err(format!(
            "a name has 1 to {MAX_NAME_LEN} characters, {name:?} has {}",
            name.chars().count()
        ));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "a name may hold only ASCII letters and digits, not {name:?}"
        ));
    }
    Ok(name.to_string())
}

/// Settings of the SAU protocol.
#[derive(Clone, Debug)]
pub struct SauConfig {
    /// Answered to `name?`; see `check_name`.
    pub name: String,
    /// Side of the board (19 on the platform).
    pub size: usize,
    /// Our time for a whole game.
    pub game_time: Duration,
    /// Kept back from every turn.
    pub margin: Duration,
    /// A fixed limit per turn replacing the game clock (`--time-ms`).
    pub turn_limit: Option<Duration>,
}

impl Default for SauConfig {
    fn default() -> SauConfig {
        SauConfig {
            name: DEFAULT_NAME.to_string(),
            size: Connect6Rules::SAU.size,
            game_time: DEFAULT_GAME_TIME,
            margin: DEFAULT_MARGIN,
            turn_limit: None,
        }
    }
}

/// A game in progress.
struct Running {
    /// Our copy of the board, kept in step with the session's.
    pos: Connect6,
    us: Color,
    clock: GameClock,
    /// Our turns answered so far in this game (the clock's turn index).
    answered: u32,
    /// When the command we are about to answer was read.
    asked_at: Option<Instant>,
    /// The board before our last answer, while the platform may still refuse it with `error`.
    before_answer: Option<Connect6>,
}

/// Receives one line of trace per answer (time used, time left); for the log file.
pub type Trace = Box<dyn FnMut(String) + Send>;

/// The SAU platform's protocol for Connect6.
pub struct Sau {
    config: SauConfig,
    game: Option<Running>,
    trace: Option<Trace>,
}

/// The words the platform sends as commands. A token that is one of them is never taken as the
/// argument of the command before it.
const COMMANDS: [&str; 6] = ["name?", "new", "move", "error", "end", "quit"];

/// Lines that cancel a search in progress: the game is over (`end`), the platform leaves
/// (`quit`), or a new game starts (`new`), so the turn being thought about is no longer wanted.
fn cancels_search(text: &str) -> bool {
    text.split_whitespace().any(|t| {
        let t = t.to_ascii_lowercase();
        t == "end" || t == "quit" || t == "new"
    })
}

impl Sau {
    /// Panics if the board size is outside what the rules support (6 to 25).
    pub fn new(config: SauConfig) -> Sau {
        assert!(
            Connect6Rules::with_size(config.size).is_some(),
            "unsupported Connect6 board size {}",
            config.size
        );
        Sau {
            config,
            game: None,
            trace: None,
        }
    }

    /// Sends a line about each answer (time used and left) to `trace`.
    pub fn with_trace(mut self, trace: Trace) -> Sau {
        self.trace = Some(trace);
        self
    }

    /// The empty board this protocol plays on.
    pub fn start_position(&self) -> Connect6 {
        Connect6::new(Connect6Rules::with_size(self.config.size).expect("checked in new"))
    }

    fn budget(&self, game: &Running, arrived: Instant) -> TurnBudget {
        match self.config.turn_limit {
            // A fixed turn limit still answers to the game clock: never more than a quarter
            // of what is left, so a long game cannot be lost on time.
            Some(limit) => TurnBudget {
                started: arrived,
                limit: limit.min(game.clock.remaining() / 4),
                margin: self.config.margin,
                stretch: None,
            },
            None => game.clock.turn_budget(game.answered, arrived),
        }
    }

    /// Two characters: a point, or `@@` for no stone.
    fn letters(&self, p: Option<Stone>) -> String {
        match p {
            Some(p) => {
                let n = self.config.size;
                let (x, y) = (p as usize % n, p as usize / n);
                format!("{}{}", (b'A' + x as u8) as char, (b'A' + y as u8) as char)
            }
            None => format!("{0}{0}", NO_STONE as char),
        }
    }

    /// Reads a point from two characters (upper or lower case); `@@` is no stone.
    fn point(&self, pair: &[u8]) -> Result<Option<Stone>, String> {
        let n = self.config.size;
        let (a, b) = (pair[0].to_ascii_uppercase(), pair[1].to_ascii_uppercase());
        if a == NO_STONE && b == NO_STONE {
            return Ok(None);
        }
        let coord = |c: u8| {
            c.checked_sub(b'A')
                .map(usize::from)
                .filter(|&v| v < n && c.is_ascii_uppercase())
        };
        match (coord(a), coord(b)) {
            (Some(x), Some(y)) => Ok(Some((y * n + x) as Stone)),
            _ => Err(format!(
                "{:?} is not a point of the {n}x{n} board (letters A to {})",
                String::from_utf8_lossy(pair),
                (b'A' + n as u8 - 1) as char
            )),
        }
    }

    /// `new black` / `new white`.
    fn new_game(&mut self, colour: Option<&str>, line: &Line) -> Result<Vec<Event<Stone>>, String> {
        let us = match colour.map(str::to_ascii_lowercase).as_deref() {
            Some("black") => Color::Black,
            Some("white") => Color::White,
            Some(other) => return Err(format!("new: unknown colour {other:?}; no game started")),
            None => return Err("new without a colour; no game started".to_string()),
        };
        let mut game = Running {
            pos: self.start_position(),
            us,
            clock: GameClock::new(
                self.config.game_time,
                self.config.margin,
                GamePlan::CONNECT6,
            ),
            answered: 0,
            asked_at: None,
            before_answer: None,
        };
        let mut events = vec![Event::NewGame];
        if us == Color::Black {
            game.asked_at = Some(line.arrived);
            events.push(Event::Go(self.budget(&game, line.arrived)));
        }
        self.game = Some(game);
        Ok(events)
    }

    /// `move XXXX`: the opponent's turn. Checked in full on a copy of the board before anything
    /// is played, so a bad move changes nothing.
    fn opponent_turn(
        &mut self,
        arg: Option<&str>,
        line: &Line,
    ) -> Result<Vec<Event<Stone>>, String> {
        let arg = arg.ok_or("a move command without its stones")?;
        let bytes = arg.as_bytes();
        if bytes.len() != 4 && bytes.len() != 2 {
            return Err(format!(
                "{arg:?} is not a turn: two letters a stone, like JJ@@ or JJKL"
            ));
        }
        let first = self
            .point(&bytes[..2])?
            .ok_or_else(|| format!("{arg:?} places no stone"))?;
        let second = match bytes.len() {
            4 => self.point(&bytes[2..])?,
            _ => None,
        };
        let game = self
            .game
            .as_ref()
            .ok_or_else(|| format!("{arg:?} arrived with no game running"))?;
        let them = game.us.opponent();
        if game.pos.outcome().is_some() {
            return Err(format!("{arg:?} arrived after the game ended on our board"));
        }
        if game.pos.side_to_move() != them {
            return Err(format!("{arg:?} arrived while it is our turn"));
        }
        let mut pos = game.pos.clone();
        let mut events = Vec::new();
        let mut notes = Vec::new();
        pos.check_move(first)
            .map_err(|why| format!("{arg:?}: {why}"))?;
        pos.play(first);
        events.push(Event::Play(first));
        if pos.outcome().is_some() {
            if second.is_some() {
                notes.push(format!(
                    "{arg:?}: the first stone ends the game; the second is not played"
                ));
            }
        } else if pos.side_to_move() == them {
            // A second stone is due. The platform takes a turn of one stone (`@@` second, or
            // the same point twice), so we do too.
            match second.filter(|&s| s != first) {
                Some(s) => {
                    pos.check_move(s).map_err(|why| format!("{arg:?}: {why}"))?;
                    pos.play(s);
                    events.push(Event::Play(s));
                }
                None => {
                    pos.set_turn(game.us, 2);
                    events.push(Event::EndTurn);
                    notes.push(format!("{arg:?}: a turn of one stone; our turn now"));
                }
            }
        } else if second.is_some() {
            // Black's opening turn is one stone; the platform plays only the first.
            notes.push(format!(
                "{arg:?}: the opening turn is one stone; the second is not played"
            ));
        }
        let over = pos.outcome().is_some();
        let game = self.game.as_mut().expect("checked above");
        game.pos = pos;
        game.before_answer = None;
        events.extend(notes.into_iter().map(Event::Warning));
        if !over {
            game.asked_at = Some(line.arrived);
            let game = self.game.as_ref().expect("checked above");
            events.push(Event::Go(self.budget(game, line.arrived)));
        }
        Ok(events)
    }

    /// `error`: the platform refused our last turn; take it back and answer again.
    fn refused(&mut self, line: &Line) -> Result<Vec<Event<Stone>>, String> {
        let game = self
            .game
            .as_mut()
            .ok_or("error arrived with no game running")?;
        let before = game
            .before_answer
            .take()
            .ok_or("error arrived, but our answer is not the last thing played")?;
        game.pos = before;
        game.answered = game.answered.saturating_sub(1);
        game.asked_at = Some(line.arrived);
        let game = self.game.as_ref().expect("checked above");
        Ok(vec![Event::Retry(self.budget(game, line.arrived))])
    }
}

/// Drops the turns asked for earlier on the same line: a later `end`, `new` or `quit` means the
/// platform no longer wants them.
fn drop_pending_turns(events: &mut Vec<Event<Stone>>) {
    events.retain(|e| !matches!(e, Event::Go(_) | Event::Retry(_)));
}

impl Protocol<Stone> for Sau {
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<Stone>>, String> {
        // Tokens, not lines: a line may hold several commands (old platforms end each command
        // with a NUL byte, which the reader has turned into a space).
        let tokens: Vec<&str> = line.text.split_whitespace().collect();
        let is_command = |t: &str| COMMANDS.contains(&t.to_ascii_lowercase().as_str());
        let mut events = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let word = tokens[i].to_ascii_lowercase();
            i += 1;
            // The argument of a command, if the next token is not itself a command.
            let mut argument = || {
                let arg = tokens.get(i).copied().filter(|t| !is_command(t));
                if arg.is_some() {
                    i += 1;
                }
                arg
            };
            let result = match word.as_str() {
                "name?" => Ok(vec![Event::Reply(format!("name {}", self.config.name))]),
                "new" => {
                    drop_pending_turns(&mut events);
                    let colour = argument();
                    self.new_game(colour, line)
                }
                "move" => {
                    let arg = argument();
                    self.opponent_turn(arg, line)
                }
                "error" => self.refused(line),
                "end" => {
                    // `end` may name the winner; nothing to do with it.
                    let _winner = argument();
                    drop_pending_turns(&mut events);
                    self.game = None;
                    Ok(Vec::new())
                }
                "quit" => {
                    drop_pending_turns(&mut events);
                    events.push(Event::Quit);
                    break;
                }
                _ => Err(format!("unknown command {:?}; ignored", tokens[i - 1])),
            };
            match result {
                Ok(more) => events.extend(more),
                Err(problem) => events.push(Event::Warning(format!(
                    "{problem} (line {:?}); nothing answered",
                    line.text
                ))),
            }
        }
        Ok(events)
    }

    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        turn: &[Stone],
        decision: &Decision<Stone>,
        _warnings: &[String],
    ) -> std::io::Result<()> {
        // No stones (the game is over) or no game: SAU has no way to say so; stay silent.
        let Some(&first) = turn.first() else {
            return Ok(());
        };
        let text = format!(
            "move {}{}",
            self.letters(Some(first)),
            self.letters(turn.get(1).copied())
        );
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        writeln!(out, "{text}")?;
        out.flush()?;
        let before = game.pos.clone();
        for &s in turn {
            if game.pos.check_move(s).is_ok() {
                game.pos.play(s);
            }
        }
        game.before_answer = Some(before);
        let spent = game.asked_at.take().map_or(Duration::ZERO, |t| t.elapsed());
        game.clock.spend(spent);
        game.answered += 1;
        let note = format!(
            "turn {} ({}): {}; {:.3} s from read to answer, {:.1} s of {:.0} s left",
            game.answered,
            text,
            decision.summary(),
            spent.as_secs_f64(),
            game.clock.remaining().as_secs_f64(),
            game.clock.total.as_secs_f64()
        );
        if let Some(trace) = self.trace.as_mut() {
            trace(note);
        }
        Ok(())
    }

    fn write_error(&mut self, _out: &mut dyn Write, _message: &str) -> std::io::Result<()> {
        // SAU has no error form: anything written would be taken for a command.
        Ok(())
    }

    fn done_after_answer(&self) -> bool {
        false
    }

    fn name_move(&self, m: Stone) -> String {
        self.letters(Some(m))
    }

    fn interrupts(&self) -> fn(&str) -> bool {
        cancels_search
    }
}

/// Makes it the other side's turn with two stones to place: a Connect6 turn cut short.
pub fn end_connect6_turn(pos: &mut Connect6) {
    let next = pos.side_to_move().opponent();
    pos.set_turn(next, 2);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line {
            text: text.to_string(),
            arrived: Instant::now(),
        }
    }

    fn sau() -> Sau {
        Sau::new(SauConfig::default())
    }

    fn decision() -> Decision<Stone> {
        Decision::none()
    }

    /// What `write_answer` prints for `turn`.
    fn answer(p: &mut Sau, turn: &[Stone]) -> String {
        let mut out = Vec::new();
        p.write_answer(&mut out, turn, &decision(), &[]).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn at(x: usize, y: usize) -> Stone {
        (y * 19 + x) as Stone
    }

    fn kinds(events: &[Event<Stone>]) -> Vec<&'static str> {
        events
            .iter()
            .map(|e| match e {
                Event::NewGame => "new",
                Event::NewBoard { .. } => "new-board",
                Event::Play(_) => "play",
                Event::EndTurn => "end-turn",
                Event::Warning(_) => "warning",
                Event::Go(_) => "go",
                Event::Retry(_) => "retry",
                Event::Reply(_) => "reply",
                Event::Quit => "quit",
            })
            .collect()
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("stonebrain"), Ok("stonebrain".to_string()));
        assert!(check_name("abcdefghijkl").is_ok());
        assert!(check_name("abcdefghijklm").is_err());
        assert!(check_name("").is_err());
        assert!(check_name("two words").is_err());
        assert!(check_name("café").is_err());
    }

    #[test]
    fn letters_are_column_then_row() {
        let p = sau();
        assert_eq!(p.letters(Some(at(9, 9))), "JJ");
        assert_eq!(p.letters(Some(at(0, 18))), "AS");
        assert_eq!(p.letters(None), "@@");
        assert_eq!(p.point(b"CB"), Ok(Some(at(2, 1))));
        assert_eq!(p.point(b"cb"), Ok(Some(at(2, 1))));
        assert_eq!(p.point(b"@@"), Ok(None));
        assert!(p.point(b"TA").is_err());
        assert!(p.point(b"A@").is_err());
        assert!(p.point(b"[A").is_err());
    }

    #[test]
    fn black_opens_with_one_stone_and_white_waits() {
        let mut p = sau();
        let e = p.parse(&line("new black")).unwrap();
        assert_eq!(kinds(&e), ["new", "go"]);
        assert_eq!(answer(&mut p, &[at(9, 9)]), "move JJ@@\n");
        let e = p.parse(&line("move KKLL")).unwrap();
        assert_eq!(kinds(&e), ["play", "play", "go"]);
        assert_eq!(e[0], Event::Play(at(10, 10)));
        assert_eq!(e[1], Event::Play(at(11, 11)));
        assert_eq!(answer(&mut p, &[at(0, 0), at(1, 0)]), "move AABA\n");

        let e = p.parse(&line("new white")).unwrap();
        assert_eq!(kinds(&e), ["new"]);
        let e = p.parse(&line("move jj@@")).unwrap();
        assert_eq!(kinds(&e), ["play", "go"]);
    }

    #[test]
    fn name_is_a_reply_at_any_time() {
        let mut p = sau();
        let e = p.parse(&line("name?")).unwrap();
        assert_eq!(e, vec![Event::Reply("name stonebrain".to_string())]);
    }

    #[test]
    fn several_commands_on_one_line_are_read_in_order() {
        let mut p = sau();
        let e = p.parse(&line("name?  new white  move JJ@@")).unwrap();
        assert_eq!(kinds(&e), ["reply", "new", "play", "go"]);
        // `end` after a move on the same line: the move is played, never answered.
        let mut p = sau();
        p.parse(&line("new white")).unwrap();
        let e = p.parse(&line("move JJ@@ end")).unwrap();
        assert_eq!(kinds(&e), ["play"]);
        let e = p.parse(&line("move KKKL")).unwrap();
        assert_eq!(kinds(&e), ["warning"], "no game after end");
    }

    #[test]
    fn error_takes_back_our_turn_and_asks_again() {
        let mut p = sau();
        p.parse(&line("new white")).unwrap();
        p.parse(&line("move JJ@@")).unwrap();
        answer(&mut p, &[at(1, 1), at(2, 2)]);
        let e = p.parse(&line("error")).unwrap();
        assert_eq!(kinds(&e), ["retry"]);
        // Our board forgot the refused stones: the retry may use those points.
        answer(&mut p, &[at(1, 1), at(3, 3)]);
        let e = p.parse(&line("move CCEE")).unwrap();
        assert_eq!(kinds(&e), ["play", "play", "go"]);
        // A second error with nothing of ours to take back is only reported.
        let e = p.parse(&line("error")).unwrap();
        assert_eq!(kinds(&e), ["warning"]);
    }

    #[test]
    fn the_winning_move_of_the_opponent_is_played_but_not_answered() {
        let mut p = sau();
        p.parse(&line("new white")).unwrap();
        // Black builds row 0 from A to F; we play far away on row 18.
        p.parse(&line("move AA@@")).unwrap();
        answer(&mut p, &[at(0, 18), at(1, 18)]);
        p.parse(&line("move BACA")).unwrap();
        answer(&mut p, &[at(3, 18), at(4, 18)]);
        p.parse(&line("move DAEA")).unwrap();
        answer(&mut p, &[at(6, 18), at(7, 18)]);
        let e = p.parse(&line("move FAHH")).unwrap();
        // Six in a row with the first stone: the second is not played, and nothing is asked.
        assert_eq!(kinds(&e), ["play", "warning"]);
        assert_eq!(e[0], Event::Play(at(5, 0)));
        assert_eq!(kinds(&p.parse(&line("end")).unwrap()), Vec::<&str>::new());
        // An empty turn (a finished game) writes nothing.
        assert_eq!(answer(&mut p, &[]), "");
    }

    #[test]
    fn a_one_stone_turn_passes_the_turn() {
        let mut p = sau();
        p.parse(&line("new black")).unwrap();
        answer(&mut p, &[at(9, 9)]);
        let e = p.parse(&line("move AA@@")).unwrap();
        assert_eq!(kinds(&e), ["play", "end-turn", "warning", "go"]);
        let e = p.parse(&line("new black")).unwrap();
        assert_eq!(kinds(&e), ["new", "go"]);
        answer(&mut p, &[at(9, 9)]);
        let e = p.parse(&line("move BBBB")).unwrap();
        assert_eq!(kinds(&e), ["play", "end-turn", "warning", "go"]);
    }

    #[test]
    fn bad_input_is_reported_and_changes_nothing() {
        let mut p = sau();
        for text in ["hello", "move JJ@@", "error", "new purple", "new"] {
            let e = p.parse(&line(text)).unwrap();
            assert_eq!(kinds(&e), ["warning"], "{text}");
        }
        p.parse(&line("new white")).unwrap();
        for text in [
            "move ZZ@@",
            "move @@JJ",
            "move J",
            "move",
            "move JJKKLL",
            "move JJ?A",
        ] {
            let e = p.parse(&line(text)).unwrap();
            assert_eq!(kinds(&e), ["warning"], "{text}");
        }
        // Two letters alone are a one-stone turn.
        let e = p.parse(&line("move JJ")).unwrap();
        assert_eq!(kinds(&e), ["play", "go"]);
        // Now it is our turn: another move of the opponent is out of turn.
        let e = p.parse(&line("move KKLL")).unwrap();
        assert_eq!(kinds(&e), ["warning"]);
        answer(&mut p, &[at(1, 1), at(2, 2)]);
        // Occupied points (ours, or the same stone as the opening) are refused whole.
        for text in ["move BBCC", "move CDJJ"] {
            let e = p.parse(&line(text)).unwrap();
            assert_eq!(kinds(&e), ["warning"], "{text}");
        }
        let e = p.parse(&line("move CDCE")).unwrap();
        assert_eq!(kinds(&e), ["play", "play", "go"]);
    }

    #[test]
    fn end_quit_and_new_cancel_a_search() {
        let cancels = sau().interrupts();
        for text in ["end", "END white", "quit", "new black", "move JJ@@ end"] {
            assert!(cancels(text), "{text}");
        }
        for text in ["name?", "move JJ@@", "error"] {
            assert!(!cancels(text), "{text}");
        }
    }

    #[test]
    fn quit_stops_the_line_and_drops_unanswered_turns() {
        let mut p = sau();
        p.parse(&line("new white")).unwrap();
        let e = p.parse(&line("move JJ@@ quit name?")).unwrap();
        assert_eq!(kinds(&e), ["play", "quit"]);
    }

    #[test]
    fn the_clock_gives_each_turn_a_share_and_books_the_time_spent() {
        let mut p = sau();
        let e = p.parse(&line("new black")).unwrap();
        let Event::Go(first) = e[1] else {
            panic!("{e:?}")
        };
        assert!(first.limit > Duration::ZERO && first.limit < DEFAULT_GAME_TIME / 2);
        // The game clock may lend an unsettled turn more, within a quarter of the clock.
        let lent = first.stretch.expect("a game clock lends time");
        assert!(
            lent > first.limit && lent <= DEFAULT_GAME_TIME / 4,
            "{lent:?}"
        );
        answer(&mut p, &[at(9, 9)]);
        let game = p.game.as_ref().unwrap();
        assert_eq!(game.answered, 1);
        assert!(game.clock.used > Duration::ZERO);
        // A fixed per-turn limit replaces the clock.
        let mut fixed = Sau::new(SauConfig {
            turn_limit: Some(Duration::from_millis(50)),
            ..SauConfig::default()
        });
        let e = fixed.parse(&line("new black")).unwrap();
        let Event::Go(b) = e[1] else { panic!("{e:?}") };
        assert_eq!(b.limit, Duration::from_millis(50));
        assert_eq!(b.stretch, None, "a fixed limit is not stretched");
    }

    /// An engine that thinks until told to stop, then plays the first free point.
    struct Slow;

    impl crate::engine::Engine<Connect6> for Slow {
        fn new_game(&mut self) {}

        fn observe(&mut self, _pos: &Connect6, _m: Stone) {}

        fn think(
            &mut self,
            pos: &Connect6,
            limits: crate::search::clock::Limits,
        ) -> Decision<Stone> {
            let mut n = 0;
            while !limits.done(n, Instant::now()) {
                n += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            Decision {
                mv: pos.legal_moves().first().copied(),
                win_rate: None,
                work: n,
                work_unit: "nodes",
                elapsed: Duration::ZERO,
            }
        }
    }

    /// Input fed by the test, chunk by chunk, as a pipe would bring it.
    struct Feed {
        chunks: std::sync::mpsc::Receiver<Vec<u8>>,
        pending: Vec<u8>,
    }

    impl std::io::Read for Feed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.pending.is_empty() {
                match self.chunks.recv() {
                    Ok(chunk) => self.pending = chunk,
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.pending.len());
            buf[..n].copy_from_slice(&self.pending[..n]);
            self.pending.drain(..n);
            Ok(n)
        }
    }

    /// Output the test can look at while the serve loop runs.
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }

        /// Waits (generously) until the output holds `n` lines.
        fn wait_lines(&self, n: usize) -> String {
            let start = Instant::now();
            while self.text().lines().count() < n {
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "{:?}",
                    self.text()
                );
                std::thread::sleep(Duration::from_millis(2));
            }
            self.text()
        }
    }

    /// `end`, `new` and `quit` arriving in their own writes while a long search runs (here, an
    /// engine that would think for a minute) stop it, and nothing is written for it.
    #[test]
    fn a_running_search_is_abandoned_when_end_new_or_quit_arrives() {
        let (feed, chunks) = std::sync::mpsc::channel::<Vec<u8>>();
        let mut reader = super::super::LineReader::new(Feed {
            chunks,
            pending: Vec::new(),
        });
        reader.set_nul_ends_line(true);
        let out = Shared::default();
        let mut served = out.clone();
        let server = std::thread::spawn(move || {
            let mut protocol = Sau::new(SauConfig {
                turn_limit: Some(Duration::from_secs(60)),
                ..SauConfig::default()
            });
            let mut session =
                super::super::session::Session::new(protocol.start_position(), Box::new(Slow));
            let mut lines = super::super::ThreadedLines::spawn(reader, protocol.interrupts());
            super::super::serve(
                &mut protocol,
                &mut session,
                None,
                &mut lines,
                &mut served,
                &mut std::io::sink(),
            )
        });
        let send = |text: &str| {
            feed.send(text.as_bytes().to_vec()).unwrap();
            // Let the search start before the next write.
            std::thread::sleep(Duration::from_millis(50));
        };
        send("new white\n");
        send("move JJ@@\n");
        send("end\n");
        send("name?\n");
        assert_eq!(out.wait_lines(1), "name stonebrain\n");
        send("new white\n");
        send("move JJ@@\n");
        send("new white\n");
        send("name?\n");
        assert_eq!(out.wait_lines(2), "name stonebrain\nname stonebrain\n");
        send("move JJ@@\n");
        send("quit\n");
        server.join().unwrap().unwrap();
        assert_eq!(out.text(), "name stonebrain\nname stonebrain\n");
    }
}
