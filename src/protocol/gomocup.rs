//! The Gomocup protocol (Piskvork and the other gomoku managers), from the brain's side. See
//! `protocols/gomocup.md`.
//!
//! The manager writes one command a line: `START n`, `RECTSTART w,h`, `RESTART`, `BEGIN`,
//! `TURN x,y`, `BOARD` (stone lines `x,y,f`, then `DONE`), `TAKEBACK x,y`, `INFO key value`,
//! `ABOUT`, `END`. We answer with `OK`, a move `x,y`, an `ABOUT` line, `ERROR text` for a
//! command we understood but cannot carry out, or `UNKNOWN text` for anything else. `INFO`
//! and `END` get no answer. `MESSAGE text` lines may go before an answer: managers skip them
//! while waiting for it.
//!
//! The protocol keeps its own copy of the game, so that every stone the manager names is checked
//! before the session sees it, and so that a position given by `BOARD` (stones in any order) or
//! changed by `TAKEBACK` can be replayed to the session as a game whose colours alternate.
//!
//! Time: `INFO timeout_turn` limits each move, `INFO timeout_match` and `INFO time_left` the
//! whole game. Each move gets the smaller of the move limit and a share of what is left of the
//! game, counted from the moment the command was read.

use super::sau::Trace;
use super::{Event, Line, Protocol};
use crate::engine::Decision;
use crate::game::gomoku::{Gomoku, GomokuRules, Point};
use crate::game::{Color, Game, Outcome};
use crate::search::clock::{GameClock, GamePlan, TurnBudget, DEFAULT_MARGIN};
use std::io::Write;
use std::time::{Duration, Instant};

/// `INFO rule` bits: only exactly five wins.
pub const RULE_EXACT_FIVE: u32 = 1;
/// `INFO rule` bits: a continuous game (play goes on after a five; not supported).
pub const RULE_CONTINUOUS: u32 = 2;
/// `INFO rule` bits: renju (not supported: we play freestyle).
pub const RULE_RENJU: u32 = 4;
/// `INFO rule` bits: caro (not supported: we play freestyle).
pub const RULE_CARO: u32 = 8;

/// The move limit when the manager names no time at all (our choice).
pub const DEFAULT_TURN_TIME: Duration = Duration::from_secs(5);
/// `INFO time_left` with this value means the game has no time limit.
const UNLIMITED_MS: i64 = 2_147_483_647;
/// At most this many messages wait for the next answer; later ones only go to the log.
const MAX_PENDING: usize = 20;

/// The empty board of a side and `INFO rule` bits (the session's `board_maker`): only the
/// exactly-five bit changes our rules.
pub fn make_board(size: usize, rules: u32) -> Result<Gomoku, String> {
    GomokuRules::new(size, rules & RULE_EXACT_FIVE != 0).map(Gomoku::new)
}

/// The smallest margin kept back from a move when it scales with the move's limit: the
/// answer's trip through the manager and a stall of the whole process. On this project's
/// 2-core machine a process stalls for about 100 ms whenever both cores are busy (a loop
/// reading the clock beside one busy process: 34 stalls over 10 ms in 120 s, the longest
/// 103 ms; alone: none over 3 ms); the host takes the virtual CPU away, and no stop check can
/// answer while it is gone. A stall that begins before the search's deadline ends at most its
/// length after it, so the margin must outlast one. 60 ms (stops 74 to 109) lost 175 ms moves
/// in CI's soak, and 6 of 40 games of two soak games at once; 120 ms lost none of 200 such
/// games, the longest move 154 ms. (Earlier floors: 40 ms lost a 175 ms move
/// through a search that ran 80 ms past its stop, since fixed in `search::budget`.)
pub const MIN_MARGIN: Duration = Duration::from_millis(120);

/// The margin of a move allowed `limit`: a sixteenth of it, from `MIN_MARGIN` to
/// `DEFAULT_MARGIN` (120 ms up to a 1.92 s move, 125 ms of 2 s, 150 ms from 2.4 s up). The
/// search stops within a millisecond or two of its deadline. Until stop 74 the margin was a
/// tenth, at least 100 ms; from then to stop 110 a sixteenth, at least 60 ms (62.5 ms of 1 s).
pub fn scaled_margin(limit: Duration) -> Duration {
    (limit / 16).clamp(MIN_MARGIN, DEFAULT_MARGIN)
}

/// Settings of the Gomocup protocol.
#[derive(Clone, Debug)]
pub struct GomocupConfig {
    /// The name given to `ABOUT`.
    pub name: String,
    /// Kept back from every move's time; `None`: a sixteenth of the move's limit, from
    /// `MIN_MARGIN` to `DEFAULT_MARGIN` (a fixed 150 ms took 30% of a 0.5 s move).
    pub margin: Option<Duration>,
    /// A fixed limit per move replacing `INFO timeout_turn` (`--time-ms`); the game's clock
    /// still caps it.
    pub turn_limit: Option<Duration>,
}

impl Default for GomocupConfig {
    fn default() -> GomocupConfig {
        GomocupConfig {
            name: "stonebrain".to_string(),
            margin: None,
            turn_limit: None,
        }
    }
}

/// What the manager said about time, and what we have used in this game.
#[derive(Clone, Copy, Debug, Default)]
struct Times {
    /// `INFO timeout_turn`.
    turn: Option<Duration>,
    /// `INFO timeout_match`; `None` when unlimited or not given.
    whole_game: Option<Duration>,
    /// The last `INFO time_left`, and our `used` when it came (it ages as we think).
    left: Option<(Duration, Duration)>,
    /// Our time in this game: from the reading of each command we answered with a move to
    /// the answer.
    used: Duration,
}

impl Times {
    /// A new game: the time used starts again; the limits stay.
    fn new_game(&mut self) {
        self.used = Duration::ZERO;
        self.left = None;
    }

    /// What is left of the game's time, if it is limited.
    fn remaining(&self) -> Option<Duration> {
        match (self.left, self.whole_game) {
            (Some((left, used_then)), _) => {
                Some(left.saturating_sub(self.used.saturating_sub(used_then)))
            }
            (None, Some(total)) => Some(total.saturating_sub(self.used)),
            (None, None) => None,
        }
    }

    /// How long our `turn`-th move (from 0) may take, before the margin: the smaller of the
    /// move limit (`fixed`, else `timeout_turn`) and a share of the game's time left.
    fn limit(&self, fixed: Option<Duration>, turn: u32, margin: Duration) -> Duration {
        let per_move = fixed.or(self.turn);
        let share = self.remaining().map(|left| {
            let total = match self.whole_game {
                Some(t) if t >= left => t,
                _ => left + self.used,
            };
            GameClock {
                total,
                used: total - left,
                margin,
                plan: GamePlan::GOMOKU,
            }
            .allowance(turn)
        });
        match (per_move, share) {
            (Some(m), Some(s)) => m.min(s),
            (Some(m), None) => m,
            (None, Some(s)) => s,
            (None, None) => DEFAULT_TURN_TIME,
        }
    }
}

/// A multi-line message being read.
enum Reading {
    /// `BOARD` until `DONE`.
    Board(BoardInput),
    /// `SWAP2BOARD` until `DONE` (not supported: answered `UNKNOWN` at the end).
    Swap2,
}

/// The stones of a `BOARD` so far.
struct BoardInput {
    /// When `BOARD` was read: the move's time counts from here.
    arrived: Instant,
    own: Vec<Point>,
    theirs: Vec<Point>,
    /// Field 3: a stone of a finished five in a continuous game.
    marked: Vec<Point>,
    problems: Vec<String>,
}

/// The commands of the protocol, as the manager spells them.
pub(crate) const COMMANDS: [&str; 13] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "TAKEBACK",
    "INFO",
    "ABOUT",
    "END",
    "PLAY",
    "SWAP2BOARD",
    "DONE",
];

/// Lines that cancel a search in progress: the manager leaves (`END`) or starts over
/// (`START`, `RECTSTART`, `RESTART`, `BEGIN`, `BOARD`), so the move being thought about is
/// no longer wanted.
fn cancels_search(text: &str) -> bool {
    let word = text.split_whitespace().next().unwrap_or("");
    ["END", "START", "RECTSTART", "RESTART", "BEGIN", "BOARD"]
        .iter()
        .any(|c| c.eq_ignore_ascii_case(word))
}

/// `x,y` (spaces allowed around the numbers) as a point of a `size` x `size` board.
fn parse_point(text: &str, size: usize) -> Result<(usize, usize), String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let parts: Vec<&str> = compact.split(',').collect();
    let [x, y] = parts.as_slice() else {
        return Err(format!("{text:?} is not a point x,y"));
    };
    let coord = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("{text:?} is not a point x,y of whole numbers"))
    };
    let (x, y) = (coord(x)?, coord(y)?);
    if x >= size || y >= size {
        return Err(format!(
            "{x},{y} is off the {size}x{size} board (coordinates 0 to {})",
            size - 1
        ));
    }
    Ok((x, y))
}

/// Orders the stones of each colour into a game that Black starts and whose colours alternate,
/// and plays it: the position the stones make, with the right side to move. Black must have as
/// many stones as White, or one more. Where an order matters (a five must not appear before
/// the last stone, or play would stop there) the first stone of a colour's list that does not
/// end the game goes next; otherwise the lists' order is kept.
pub fn arrange(rules: GomokuRules, black: &[Point], white: &[Point]) -> Result<Gomoku, String> {
    if black.len() != white.len() && black.len() != white.len() + 1 {
        return Err(format!(
            "{} black and {} white stones cannot come from a game where the colours alternate",
            black.len(),
            white.len()
        ));
    }
    let mut pos = Gomoku::new(rules);
    let mut lists = [black.to_vec(), white.to_vec()];
    while lists.iter().any(|l| !l.is_empty()) {
        let side = pos.side_to_move();
        let list = &mut lists[side.index()];
        let Some(&first) = list.first() else {
            return Err(format!("{} has no stone left to play", side.name()));
        };
        let (x, y) = pos.coords(first);
        if pos.outcome().is_some() {
            return Err(format!(
                "the stones already hold five in a row before {x},{y} is placed"
            ));
        }
        let quiet = (0..list.len()).find(|&i| {
            if pos.check_move(list[i]).is_err() {
                return false;
            }
            pos.play(list[i]);
            let ends = pos.outcome().is_some();
            pos.undo();
            !ends
        });
        let m = list.remove(quiet.unwrap_or(0));
        if let Err(why) = pos.check_move(m) {
            let (x, y) = pos.coords(m);
            return Err(format!("{x},{y}: {why}"));
        }
        pos.play(m);
    }
    Ok(pos)
}

/// The stones of each colour, in the order they were played.
fn stones_by_colour(pos: &Gomoku) -> (Vec<Point>, Vec<Point>) {
    let moves = pos.moves();
    let black = moves.iter().step_by(2).copied().collect();
    let white = moves.iter().skip(1).step_by(2).copied().collect();
    (black, white)
}

/// The events that make the session's game `pos`: a new game, then every move in order.
fn replay_events(pos: &Gomoku) -> Vec<Event<Point>> {
    let mut events = vec![Event::NewGame];
    events.extend(pos.moves().iter().map(|&m| Event::Play(m)));
    events
}

/// Why a finished game has no move, in words.
fn why_over(pos: &Gomoku) -> String {
    match pos.outcome() {
        Some(Outcome::Win(c)) => format!("the game is over: {} has five in a row", c.name()),
        Some(Outcome::Draw) => "the game is over: the board is full".to_string(),
        None => "there is no legal point".to_string(),
    }
}

/// The Gomocup protocol.
pub struct Gomocup {
    config: GomocupConfig,
    /// Our copy of the game, from `START` on.
    pos: Option<Gomoku>,
    /// Our colour, once `BEGIN`, the first `TURN` or a `BOARD` has told it.
    us: Option<Color>,
    /// The last `INFO rule`.
    rules: u32,
    times: Times,
    reading: Option<Reading>,
    /// When the command we are about to answer with a move was read.
    asked_at: Option<Instant>,
    /// Messages for the user, written as `MESSAGE` lines before our next move.
    pending: Vec<String>,
    trace: Option<Trace>,
}

impl Gomocup {
    pub fn new(config: GomocupConfig) -> Gomocup {
        Gomocup {
            config,
            pos: None,
            us: None,
            rules: 0,
            times: Times::default(),
            reading: None,
            asked_at: None,
            pending: Vec::new(),
            trace: None,
        }
    }

    /// Sends a line about each answer and each problem to `trace` (the log).
    pub fn with_trace(mut self, trace: Trace) -> Gomocup {
        self.trace = Some(trace);
        self
    }

    /// The board the session starts on, before any `START` (which replaces it).
    pub fn start_position(&self) -> Gomoku {
        make_board(crate::game::gomoku::DEFAULT_SIZE, self.rules).expect("the default size")
    }

    fn log(&mut self, text: String) {
        if let Some(trace) = self.trace.as_mut() {
            trace(text);
        }
    }

    /// A message for the user, shown before our next move (and logged now).
    fn note(&mut self, text: String) {
        self.log(text.clone());
        if self.pending.len() < MAX_PENDING {
            self.pending.push(text);
        }
    }

    fn game_rules(&self, size: usize) -> Result<GomokuRules, String> {
        GomokuRules::new(size, self.rules & RULE_EXACT_FIVE != 0)
    }

    /// Our game, or the error for a command that needs one.
    fn board(&self, command: &str) -> Result<&Gomoku, String> {
        self.pos
            .as_ref()
            .ok_or_else(|| format!("{command} before START: there is no board yet"))
    }

    /// The budget of a move asked for by a command read at `arrived`.
    fn budget(&mut self, arrived: Instant) -> TurnBudget {
        self.asked_at = Some(arrived);
        let ours = match (&self.pos, self.us) {
            (Some(pos), Some(us)) => pos
                .moves()
                .iter()
                .filter(|&&m| pos.color_at(m) == Some(us))
                .count() as u32,
            _ => 0,
        };
        let cap = self.config.margin.unwrap_or(DEFAULT_MARGIN);
        let limit = self.times.limit(self.config.turn_limit, ours, cap);
        TurnBudget {
            started: arrived,
            limit,
            margin: self.config.margin.unwrap_or_else(|| scaled_margin(limit)),
            // The Gomoku engine does not stretch its turns.
            stretch: None,
        }
    }

    /// `START n`, and `RECTSTART n,n`.
    fn start(&mut self, size: usize) -> Result<Vec<Event<Point>>, String> {
        let rules = self.game_rules(size)?;
        self.pos = Some(Gomoku::new(rules));
        self.us = None;
        self.times.new_game();
        Ok(vec![
            Event::NewBoard {
                size,
                rules: self.rules,
            },
            Event::Reply("OK".to_string()),
        ])
    }

    fn rectstart(&mut self, arg: &str) -> Result<Vec<Event<Point>>, String> {
        let compact: String = arg.chars().filter(|c| !c.is_whitespace()).collect();
        let dims: Vec<usize> = compact
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| {
                format!("RECTSTART needs width,height (as in RECTSTART 20,20), got {arg:?}")
            })?;
        match dims.as_slice() {
            [w, h] if w == h => self.start(*w),
            [w, h] => Err(format!(
                "rectangular boards are not supported ({w}x{h}): only square boards from {} to {}",
                crate::game::gomoku::MIN_SIZE,
                crate::game::gomoku::MAX_SIZE
            )),
            _ => Err(format!(
                "RECTSTART needs width,height (as in RECTSTART 20,20), got {arg:?}"
            )),
        }
    }

    fn restart(&mut self) -> Result<Vec<Event<Point>>, String> {
        let size = self.board("RESTART")?.size();
        self.pos = Some(Gomoku::new(self.game_rules(size)?));
        self.us = None;
        self.times.new_game();
        Ok(vec![Event::NewGame, Event::Reply("OK".to_string())])
    }

    fn begin(&mut self, line: &Line) -> Result<Vec<Event<Point>>, String> {
        let pos = self.board("BEGIN")?;
        if pos.ply() > 0 {
            let n = pos.ply();
            self.note(format!(
                "BEGIN on a board with {n} stones: a new game on the empty board"
            ));
        }
        let size = self.board("BEGIN")?.size();
        self.pos = Some(Gomoku::new(self.game_rules(size)?));
        self.us = Some(Color::Black);
        Ok(vec![Event::NewGame, Event::Go(self.budget(line.arrived))])
    }

    fn turn(&mut self, arg: &str, line: &Line) -> Result<Vec<Event<Point>>, String> {
        let pos = self.board("TURN")?;
        if arg.is_empty() {
            return Err("TURN needs the opponent's point, as in TURN 7,7".to_string());
        }
        let (x, y) = parse_point(arg, pos.size()).map_err(|e| format!("TURN {arg}: {e}"))?;
        let m = pos.point(x, y);
        if pos.outcome().is_some() {
            return Err(format!(
                "TURN {x},{y}: {}; RESTART or BOARD starts again",
                why_over(pos)
            ));
        }
        let them = pos.side_to_move();
        let us = match self.us {
            Some(us) if us == them => {
                return Err(format!(
                    "TURN {x},{y} arrived while it is our move ({} to play)",
                    us.name()
                ))
            }
            Some(us) => us,
            None if pos.ply() == 0 => Color::White,
            None => return Err(format!("TURN {x},{y}: our colour is unknown")),
        };
        pos.check_move(m)
            .map_err(|why| format!("TURN {x},{y}: {why}"))?;
        let pos = self.pos.as_mut().expect("checked above");
        pos.play(m);
        self.us = Some(us);
        Ok(vec![Event::Play(m), Event::Go(self.budget(line.arrived))])
    }

    /// One line inside `BOARD`: a stone `x,y,f`.
    fn board_stone(&mut self, text: &str) {
        let Some(size) = self.pos.as_ref().map(Gomoku::size) else {
            // No board: DONE says so.
            return;
        };
        let Some(Reading::Board(input)) = self.reading.as_mut() else {
            return;
        };
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let Some((point, field)) = compact.rsplit_once(',') else {
            input
                .problems
                .push(format!("{text:?} is not a stone line x,y,field"));
            return;
        };
        let (x, y) = match parse_point(point, size) {
            Ok(p) => p,
            Err(e) => {
                input.problems.push(format!("{text:?}: {e}"));
                return;
            }
        };
        let m = (y * size + x) as Point;
        if input
            .own
            .iter()
            .chain(&input.theirs)
            .chain(&input.marked)
            .any(|&s| s == m)
        {
            input.problems.push(format!("{x},{y} is given twice"));
            return;
        }
        match field {
            "1" => input.own.push(m),
            "2" => input.theirs.push(m),
            "3" => input.marked.push(m),
            _ => input.problems.push(format!(
                "{text:?}: the field must be 1 (ours), 2 (the opponent's) or 3"
            )),
        }
    }

    /// `DONE` after `BOARD`: the new position, and our move.
    fn board_done(&mut self, input: BoardInput) -> Result<Vec<Event<Point>>, String> {
        let size = self.board("BOARD")?.size();
        if !input.problems.is_empty() {
            return Err(format!("BOARD: {}", input.problems.join("; ")));
        }
        if let Some(&m) = input.marked.first() {
            let (x, y) = ((m as usize) % size, (m as usize) / size);
            return Err(format!(
                "BOARD: {x},{y} is marked 3, a stone of a finished five in a continuous game: \
                 continuous games are not supported"
            ));
        }
        let (own, theirs) = (input.own.len(), input.theirs.len());
        let us = if own == theirs {
            Color::Black
        } else if theirs == own + 1 {
            Color::White
        } else {
            return Err(format!(
                "BOARD: {own} stones of ours and {theirs} of the opponent's cannot be a game \
                 where we are to move (we need as many as the opponent, or one fewer)"
            ));
        };
        let (black, white) = match us {
            Color::Black => (&input.own, &input.theirs),
            Color::White => (&input.theirs, &input.own),
        };
        let pos =
            arrange(self.game_rules(size)?, black, white).map_err(|e| format!("BOARD: {e}"))?;
        let mut events = replay_events(&pos);
        self.pos = Some(pos);
        self.us = Some(us);
        events.push(Event::Go(self.budget(input.arrived)));
        Ok(events)
    }

    fn takeback(&mut self, arg: &str) -> Result<Vec<Event<Point>>, String> {
        let pos = self.board("TAKEBACK")?;
        let (x, y) = parse_point(arg, pos.size()).map_err(|e| format!("TAKEBACK {arg}: {e}"))?;
        let m = pos.point(x, y);
        if pos.color_at(m).is_none() {
            return Err(format!("TAKEBACK {x},{y}: there is no stone there"));
        }
        let after = if pos.last_move() == Some(m) {
            let mut p = pos.clone();
            p.undo();
            p
        } else {
            // Not the last stone: the rest, replayed with the colours alternating.
            let (mut black, mut white) = stones_by_colour(pos);
            black.retain(|&s| s != m);
            white.retain(|&s| s != m);
            arrange(pos.rules(), &black, &white).map_err(|e| format!("TAKEBACK {x},{y}: {e}"))?
        };
        let mut events = replay_events(&after);
        self.pos = Some(after);
        events.push(Event::Reply("OK".to_string()));
        Ok(events)
    }

    /// `INFO key value`: never answered; problems wait for the next move as messages.
    fn info(&mut self, arg: &str) -> Vec<Event<Point>> {
        let (key, value) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
        let key = key.to_ascii_lowercase();
        let value = value.trim();
        let number = value.parse::<i64>();
        let ms = |n: i64| Duration::from_millis(n.max(0) as u64);
        let bad = |what: &str| format!("INFO {key} {value:?}: the value must be {what}; ignored");
        match key.as_str() {
            "timeout_turn" => match number {
                Ok(n) if n >= 0 => self.times.turn = Some(ms(n)),
                _ => self.note(bad("a number of milliseconds, 0 or more")),
            },
            "timeout_match" => match number {
                Ok(0) => self.times.whole_game = None,
                Ok(n) if n > 0 => self.times.whole_game = Some(ms(n)),
                _ => self.note(bad("a number of milliseconds, 0 or more")),
            },
            "time_left" => match number {
                Ok(UNLIMITED_MS) => self.times.left = None,
                // Negative when we are already over: nothing left.
                Ok(n) => self.times.left = Some((ms(n), self.times.used)),
                _ => self.note(bad("a number of milliseconds")),
            },
            "max_memory" => match number {
                Ok(n) if n >= 0 => {}
                _ => self.note(bad("a number of bytes")),
            },
            "rule" => match value.parse::<u32>() {
                Ok(bits) => return self.set_rules(bits),
                Err(_) => self.note(bad(
                    "a bit mask (1 exactly five, 2 continuous, 4 renju, 8 caro)",
                )),
            },
            // Known, and nothing to do with them: the opponent's kind, the mouse position in a
            // debugging manager, a folder for files we do not keep.
            "game_type" | "evaluate" | "folder" => {}
            // Unknown keys are ignored, as the protocol asks.
            _ => {}
        }
        Vec::new()
    }

    /// A new `INFO rule`. Unsupported rules are reported (we play freestyle, or exactly five);
    /// a change of the exactly-five bit rebuilds the board under the new rules.
    fn set_rules(&mut self, bits: u32) -> Vec<Event<Point>> {
        let old = std::mem::replace(&mut self.rules, bits);
        let mut unsupported = Vec::new();
        if bits & RULE_CONTINUOUS != 0 {
            unsupported.push("continuous game (2)");
        }
        if bits & RULE_RENJU != 0 {
            unsupported.push("renju (4)");
        }
        if bits & RULE_CARO != 0 {
            unsupported.push("caro (8)");
        }
        if !unsupported.is_empty() && bits != old {
            let ours = if bits & RULE_EXACT_FIVE != 0 {
                "exactly five wins"
            } else {
                "five or more wins"
            };
            self.note(format!(
                "INFO rule {bits}: {} not supported; stonebrain plays freestyle ({ours})",
                unsupported.join(", ")
            ));
        }
        if (old ^ bits) & RULE_EXACT_FIVE == 0 {
            return Vec::new();
        }
        let Some(pos) = self.pos.take() else {
            return Vec::new();
        };
        let rules = GomokuRules::new(pos.size(), bits & RULE_EXACT_FIVE != 0)
            .expect("the size was checked at START");
        let (black, white) = stones_by_colour(&pos);
        let rebuilt = match arrange(rules, &black, &white) {
            Ok(p) => p,
            Err(e) => {
                // Cannot happen with stones from a real game; keep what replays in order.
                self.note(format!(
                    "INFO rule {bits}: the board cannot be replayed ({e})"
                ));
                let mut p = Gomoku::new(rules);
                for &m in pos.moves() {
                    if p.try_play(m).is_err() {
                        break;
                    }
                }
                p
            }
        };
        let mut events = vec![Event::NewBoard {
            size: rebuilt.size(),
            rules: bits,
        }];
        events.extend(rebuilt.moves().iter().map(|&m| Event::Play(m)));
        self.pos = Some(rebuilt);
        events
    }

    fn about(&self) -> String {
        format!(
            "name=\"{}\", version=\"{}\", author=\"stonebrain maintainers\", country=\"unknown\"",
            self.config.name,
            env!("CARGO_PKG_VERSION")
        )
    }

    /// A line while a `BOARD` or `SWAP2BOARD` is being read.
    fn parse_reading(&mut self, line: &Line) -> Option<Result<Vec<Event<Point>>, String>> {
        let text = line.text.as_str();
        let word = text.split_whitespace().next().unwrap_or("");
        let upper = word.to_ascii_uppercase();
        if upper == "DONE" {
            return Some(match self.reading.take() {
                Some(Reading::Board(input)) => self.board_done(input),
                Some(Reading::Swap2) => Ok(vec![Event::Reply(
                    "UNKNOWN SWAP2BOARD is not supported".to_string(),
                )]),
                None => Ok(Vec::new()),
            });
        }
        if upper == "INFO" {
            // Allowed at any time; the board goes on after it.
            return Some(Ok(self.info(text[word.len()..].trim())));
        }
        if COMMANDS.contains(&upper.as_str()) {
            // A command cuts the board short: it is dropped, and the command handled.
            let what = match self.reading.take() {
                Some(Reading::Swap2) => "SWAP2BOARD",
                _ => "BOARD",
            };
            self.note(format!(
                "{what} was cut short by {text:?} before DONE; dropped"
            ));
            return None;
        }
        match self.reading {
            Some(Reading::Board(_)) => self.board_stone(text),
            // Swap2's stone lines are read and forgotten.
            Some(Reading::Swap2) | None => {}
        }
        Some(Ok(Vec::new()))
    }
}

impl Protocol<Point> for Gomocup {
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<Point>>, String> {
        if self.reading.is_some() {
            if let Some(result) = self.parse_reading(line) {
                return result;
            }
        }
        let text = line.text.as_str();
        let word = text.split_whitespace().next().unwrap_or("");
        let arg = text[word.len()..].trim();
        match word.to_ascii_uppercase().as_str() {
            "START" => {
                let size = arg.parse::<usize>().map_err(|_| {
                    format!("START needs the board size, as in START 20; got {arg:?}")
                })?;
                self.start(size)
            }
            "RECTSTART" => self.rectstart(arg),
            "RESTART" => self.restart(),
            "BEGIN" => self.begin(line),
            "TURN" => self.turn(arg, line),
            "BOARD" => {
                // Read to its DONE even before START, so that one ERROR answers it all.
                self.reading = Some(Reading::Board(BoardInput {
                    arrived: line.arrived,
                    own: Vec::new(),
                    theirs: Vec::new(),
                    marked: Vec::new(),
                    problems: Vec::new(),
                }));
                Ok(Vec::new())
            }
            "TAKEBACK" => self.takeback(arg),
            "INFO" => Ok(self.info(arg)),
            "ABOUT" => Ok(vec![Event::Reply(self.about())]),
            "END" => Ok(vec![Event::Quit]),
            "SWAP2BOARD" => {
                self.reading = Some(Reading::Swap2);
                Ok(Vec::new())
            }
            "DONE" => Err("DONE without BOARD".to_string()),
            "PLAY" => Ok(vec![Event::Reply(
                "UNKNOWN PLAY answers SUGGEST, which stonebrain never sends".to_string(),
            )]),
            // Yixin's "stop thinking and answer now": we never think while reading, so there
            // is nothing to stop.
            "STOP" | "YXSTOP" => Ok(Vec::new()),
            _ => {
                let shown: String = text.chars().take(60).collect();
                Ok(vec![Event::Reply(format!(
                    "UNKNOWN command {shown:?} is not understood"
                ))])
            }
        }
    }

    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        turn: &[Point],
        decision: &Decision<Point>,
        warnings: &[String],
    ) -> std::io::Result<()> {
        let mut messages = std::mem::take(&mut self.pending);
        messages.extend(warnings.iter().cloned());
        for m in &messages {
            // One line each: a message must hold no line break.
            let m = m.replace(['\r', '\n'], " ");
            writeln!(out, "MESSAGE {m}")?;
        }
        let spent = self.asked_at.take().map(|t| t.elapsed());
        let Some(pos) = self.pos.as_mut() else {
            writeln!(out, "ERROR no game: send START first")?;
            return out.flush();
        };
        let text = match turn.first() {
            Some(&m) if pos.check_move(m).is_ok() => {
                let (x, y) = pos.coords(m);
                pos.play(m);
                format!("{x},{y}")
            }
            Some(&m) => {
                let (x, y) = pos.coords(m);
                format!(
                    "ERROR no move: {x},{y} cannot be played ({})",
                    why_over(pos)
                )
            }
            None => format!("ERROR no move: {}", why_over(pos)),
        };
        writeln!(out, "{text}")?;
        out.flush()?;
        if let Some(spent) = spent {
            self.times.used += spent;
            let left = self
                .times
                .remaining()
                .map_or("no game limit".to_string(), |r| {
                    format!("{:.1} s of the game left", r.as_secs_f64())
                });
            self.log(format!(
                "{text}: {}; {:.3} s from read to answer, {left}",
                decision.summary(),
                spent.as_secs_f64()
            ));
        }
        Ok(())
    }

    fn write_error(&mut self, out: &mut dyn Write, message: &str) -> std::io::Result<()> {
        self.asked_at = None;
        let message = message.replace(['\r', '\n'], " ");
        writeln!(out, "ERROR {message}")
    }

    fn done_after_answer(&self) -> bool {
        false
    }

    fn name_move(&self, m: Point) -> String {
        match &self.pos {
            Some(pos) => {
                let (x, y) = pos.coords(m);
                format!("{x},{y}")
            }
            None => format!("point {m}"),
        }
    }

    fn interrupts(&self) -> fn(&str) -> bool {
        cancels_search
    }
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

    fn gomocup() -> Gomocup {
        Gomocup::new(GomocupConfig::default())
    }

    fn decision() -> Decision<Point> {
        Decision::none()
    }

    fn kinds(events: &[Event<Point>]) -> Vec<&'static str> {
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

    fn parse(p: &mut Gomocup, text: &str) -> Result<Vec<Event<Point>>, String> {
        p.parse(&line(text))
    }

    /// What `write_answer` prints for `turn`.
    fn answer(p: &mut Gomocup, turn: &[Point]) -> String {
        let mut out = Vec::new();
        p.write_answer(&mut out, turn, &decision(), &[]).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn at(size: usize, x: usize, y: usize) -> Point {
        (y * size + x) as Point
    }

    fn go_limit(events: &[Event<Point>]) -> Duration {
        match events.last() {
            Some(Event::Go(b)) => b.limit,
            other => panic!("no Go at the end: {other:?}"),
        }
    }

    #[test]
    fn start_takes_sizes_11_to_20_and_refuses_others() {
        for n in [11, 15, 20] {
            let mut p = gomocup();
            let e = parse(&mut p, &format!("START {n}")).unwrap();
            assert_eq!(kinds(&e), ["new-board", "reply"]);
            assert_eq!(e[0], Event::NewBoard { size: n, rules: 0 });
            assert_eq!(e[1], Event::Reply("OK".to_string()));
        }
        let mut p = gomocup();
        for bad in [
            "START 10",
            "START 21",
            "START 0",
            "START",
            "START twenty",
            "start -5",
        ] {
            let e = parse(&mut p, bad).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
        // The managers look for "20" in the refusal of another size.
        assert!(parse(&mut p, "START 30").unwrap_err().contains("20"));
        // Lower case is accepted.
        assert_eq!(
            kinds(&parse(&mut p, "start 19").unwrap()),
            ["new-board", "reply"]
        );
    }

    #[test]
    fn rectstart_takes_square_boards_only() {
        let mut p = gomocup();
        let e = parse(&mut p, "RECTSTART 15,15").unwrap();
        assert_eq!(kinds(&e), ["new-board", "reply"]);
        assert!(parse(&mut p, "RECTSTART 20,15")
            .unwrap_err()
            .contains("rectangular"));
        assert!(parse(&mut p, "RECTSTART 25,25").is_err());
        assert!(parse(&mut p, "RECTSTART 15").is_err());
        assert!(parse(&mut p, "RECTSTART a,b").is_err());
        assert_eq!(
            kinds(&parse(&mut p, "RECTSTART 12, 12").unwrap()),
            ["new-board", "reply"]
        );
    }

    #[test]
    fn moves_need_a_board() {
        let mut p = gomocup();
        for text in ["BEGIN", "TURN 1,1", "TAKEBACK 1,1", "RESTART"] {
            assert!(parse(&mut p, text).unwrap_err().contains("START"), "{text}");
        }
        // BOARD is read to its end, then refused once.
        assert!(parse(&mut p, "BOARD").unwrap().is_empty());
        assert!(parse(&mut p, "1,1,1").unwrap().is_empty());
        assert!(parse(&mut p, "DONE").unwrap_err().contains("START"));
        assert!(parse(&mut p, "DONE").unwrap_err().contains("without BOARD"));
    }

    #[test]
    fn begin_plays_black_and_turn_plays_white() {
        let mut p = gomocup();
        parse(&mut p, "START 15").unwrap();
        let e = parse(&mut p, "BEGIN").unwrap();
        assert_eq!(kinds(&e), ["new", "go"]);
        assert_eq!(answer(&mut p, &[at(15, 7, 7)]), "7,7\n");
        let e = parse(&mut p, "TURN 8,7").unwrap();
        assert_eq!(e[0], Event::Play(at(15, 8, 7)));
        assert_eq!(kinds(&e), ["play", "go"]);
        assert_eq!(answer(&mut p, &[at(15, 0, 14)]), "0,14\n");

        let e = parse(&mut p, "RESTART").unwrap();
        assert_eq!(kinds(&e), ["new", "reply"]);
        let e = parse(&mut p, "TURN 7,7").unwrap();
        assert_eq!(kinds(&e), ["play", "go"]);
        assert_eq!(p.us, Some(Color::White));
    }

    #[test]
    fn bad_turns_are_refused_and_change_nothing() {
        let mut p = gomocup();
        parse(&mut p, "START 15").unwrap();
        parse(&mut p, "TURN 7,7").unwrap();
        // Our move is due: another TURN is out of turn.
        assert!(parse(&mut p, "TURN 8,8").unwrap_err().contains("our move"));
        answer(&mut p, &[at(15, 8, 8)]);
        for (text, expected) in [
            ("TURN 7,7", "occupied"),
            ("TURN 8,8", "occupied"),
            ("TURN 15,0", "off the 15x15 board"),
            ("TURN 1", "not a point"),
            ("TURN a,b", "not a point"),
            ("TURN -1,2", "not a point"),
            ("TURN", "needs"),
        ] {
            let e = parse(&mut p, text).unwrap_err();
            assert!(e.contains(expected), "{text}: {e}");
        }
        assert_eq!(p.pos.as_ref().unwrap().ply(), 2);
        assert_eq!(kinds(&parse(&mut p, "TURN 9, 9").unwrap()), ["play", "go"]);
    }

    #[test]
    fn board_in_any_order_becomes_an_alternating_game_with_us_to_move() {
        let mut p = gomocup();
        parse(&mut p, "START 15").unwrap();
        // Two of ours, three of theirs, listed out of order: we are White.
        for text in ["BOARD", "3,3,2", "10,10,1", "4,4,2", "5,5,2", "11,10,1"] {
            assert!(parse(&mut p, text).unwrap().is_empty(), "{text}");
        }
        let e = parse(&mut p, "DONE").unwrap();
        assert_eq!(
            kinds(&e),
            ["new", "play", "play", "play", "play", "play", "go"]
        );
        let pos = p.pos.as_ref().unwrap();
        assert_eq!(p.us, Some(Color::White));
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.color_at(at(15, 3, 3)), Some(Color::Black));
        assert_eq!(pos.color_at(at(15, 10, 10)), Some(Color::White));
        // The plays are the moves of our copy, in order.
        let plays: Vec<Point> = e
            .iter()
            .filter_map(|e| match e {
                Event::Play(m) => Some(*m),
                _ => None,
            })
            .collect();
        assert_eq!(plays, pos.moves());
        assert_eq!(answer(&mut p, &[at(15, 0, 0)]), "0,0\n");

        // As many of ours as theirs: we are Black. An empty BOARD is Black's first move.
        for text in ["BOARD", "1,1,1", "2,2,2"] {
            parse(&mut p, text).unwrap();
        }
        assert_eq!(
            kinds(&parse(&mut p, "DONE").unwrap()),
            ["new", "play", "play", "go"]
        );
        assert_eq!(p.us, Some(Color::Black));
        parse(&mut p, "BOARD").unwrap();
        assert_eq!(kinds(&parse(&mut p, "done").unwrap()), ["new", "go"]);
    }

    #[test]
    fn a_board_with_problems_is_refused_at_done() {
        let cases: [(&[&str], &str); 6] = [
            (&["1,1,1", "1,1,2"], "given twice"),
            (&["15,1,1"], "off the 15x15 board"),
            (&["1,1,4"], "field must be"),
            (&["hello"], "not a stone line"),
            (&["1,1,1", "2,2,1"], "cannot be a game"),
            (&["1,1,2", "2,2,3"], "continuous"),
        ];
        for (stones, expected) in cases {
            let mut p = gomocup();
            parse(&mut p, "START 15").unwrap();
            parse(&mut p, "BOARD").unwrap();
            for s in stones {
                parse(&mut p, s).unwrap();
            }
            let e = parse(&mut p, "DONE").unwrap_err();
            assert!(e.contains(expected), "{stones:?}: {e}");
            // Still serving.
            assert_eq!(kinds(&parse(&mut p, "BEGIN").unwrap()), ["new", "go"]);
        }
    }

    #[test]
    fn a_command_cuts_a_board_short_but_info_does_not() {
        let mut p = gomocup();
        parse(&mut p, "START 15").unwrap();
        parse(&mut p, "BOARD").unwrap();
        parse(&mut p, "1,1,2").unwrap();
        assert!(parse(&mut p, "INFO time_left 5000").unwrap().is_empty());
        parse(&mut p, "2,2,1").unwrap();
        parse(&mut p, "3,3,2").unwrap();
        assert!(go_limit(&parse(&mut p, "DONE").unwrap()) <= Duration::from_millis(2500));
        parse(&mut p, "BOARD").unwrap();
        parse(&mut p, "1,1,2").unwrap();
        let e = parse(&mut p, "ABOUT").unwrap();
        assert_eq!(kinds(&e), ["reply"]);
        assert!(p.pending.iter().any(|m| m.contains("cut short")));
        assert!(parse(&mut p, "DONE").unwrap_err().contains("without BOARD"));
    }

    #[test]
    fn takeback_removes_the_stone_and_answers_ok() {
        let mut p = gomocup();
        parse(&mut p, "START 15").unwrap();
        parse(&mut p, "BEGIN").unwrap();
        answer(&mut p, &[at(15, 7, 7)]);
        parse(&mut p, "TURN 8,8").unwrap();
        answer(&mut p, &[at(15, 9, 9)]);
        let e = parse(&mut p, "TAKEBACK 9,9").unwrap();
        assert_eq!(kinds(&e), ["new", "play", "play", "reply"]);
        assert_eq!(e[3], Event::Reply("OK".to_string()));
        let e = parse(&mut p, "TAKEBACK 8,8").unwrap();
        assert_eq!(kinds(&e), ["new", "play", "reply"]);
        // The opponent moves again, elsewhere.
        assert_eq!(kinds(&parse(&mut p, "TURN 1,1").unwrap()), ["play", "go"]);
        answer(&mut p, &[at(15, 2, 2)]);
        for (text, expected) in [
            ("TAKEBACK 5,5", "no stone"),
            ("TAKEBACK 20,1", "off the"),
            ("TAKEBACK", "not a point"),
            // Taking back White's only stone would leave Black with two in a row.
            ("TAKEBACK 1,1", "alternate"),
        ] {
            let e = parse(&mut p, text).unwrap_err();
            assert!(e.contains(expected), "{text}: {e}");
        }
        // A stone other than the last: Black's first, with as many left for each side.
        let e = parse(&mut p, "TAKEBACK 7,7").unwrap();
        assert_eq!(kinds(&e), ["new", "play", "play", "reply"]);
        let pos = p.pos.as_ref().unwrap();
        assert_eq!(pos.color_at(at(15, 7, 7)), None);
        assert_eq!(pos.color_at(at(15, 2, 2)), Some(Color::Black));
        assert_eq!(pos.side_to_move(), Color::Black);
    }

    #[test]
    fn about_end_unknown_and_the_rest() {
        let mut p = gomocup();
        let e = parse(&mut p, "ABOUT").unwrap();
        let Event::Reply(about) = &e[0] else {
            panic!("{e:?}")
        };
        assert!(
            about.starts_with("name=\"stonebrain\", version=\""),
            "{about}"
        );
        assert!(about.contains("author=\"") && about.contains("country=\""));
        assert_eq!(parse(&mut p, "END").unwrap(), vec![Event::Quit]);
        for text in ["HELLO", "10,10,1", "SUGGEST 1,1", "PLAY 1,1", "YXSHOWINFO"] {
            let e = parse(&mut p, text).unwrap();
            assert!(
                matches!(&e[..], [Event::Reply(r)] if r.starts_with("UNKNOWN ")),
                "{text}: {e:?}"
            );
        }
        assert!(parse(&mut p, "YXSTOP").unwrap().is_empty());
        // SWAP2BOARD is read to its DONE and answered once.
        assert!(parse(&mut p, "SWAP2BOARD").unwrap().is_empty());
        assert!(parse(&mut p, "7,7").unwrap().is_empty());
        let e = parse(&mut p, "DONE").unwrap();
        assert!(matches!(&e[..], [Event::Reply(r)] if r.starts_with("UNKNOWN SWAP2BOARD")));
    }

    #[test]
    fn info_sets_the_clock_and_never_answers() {
        let mut p = gomocup();
        parse(&mut p, "START 15").unwrap();
        // Nothing said about time: the default move limit.
        assert_eq!(
            go_limit(&parse(&mut p, "BEGIN").unwrap()),
            DEFAULT_TURN_TIME
        );
        for text in [
            "INFO timeout_turn 1000",
            "INFO timeout_match 0",
            "INFO max_memory 83886080",
            "INFO game_type 1",
            "INFO folder C:\\some folder",
            "INFO evaluate 1,1",
            "INFO something_new 42",
        ] {
            assert!(parse(&mut p, text).unwrap().is_empty(), "{text}");
        }
        assert!(p.pending.is_empty(), "{:?}", p.pending);
        assert_eq!(
            go_limit(&parse(&mut p, "BEGIN").unwrap()),
            Duration::from_millis(1000)
        );
        // Little time left in the game: a share of it, below the move limit.
        parse(&mut p, "INFO time_left 4000").unwrap();
        let limit = go_limit(&parse(&mut p, "BEGIN").unwrap());
        assert!(
            limit <= Duration::from_millis(2000) && limit > Duration::ZERO,
            "{limit:?}"
        );
        // Unlimited again.
        parse(&mut p, "INFO time_left 2147483647").unwrap();
        assert_eq!(
            go_limit(&parse(&mut p, "BEGIN").unwrap()),
            Duration::from_millis(1000)
        );
        // Over time: nothing left.
        parse(&mut p, "INFO time_left -300").unwrap();
        assert_eq!(go_limit(&parse(&mut p, "BEGIN").unwrap()), Duration::ZERO);
        // timeout_turn 0: as fast as possible.
        parse(&mut p, "INFO time_left 100000").unwrap();
        parse(&mut p, "INFO timeout_turn 0").unwrap();
        assert_eq!(go_limit(&parse(&mut p, "BEGIN").unwrap()), Duration::ZERO);
        // A bad value is kept for the next move, as a message.
        parse(&mut p, "INFO timeout_turn soon").unwrap();
        parse(&mut p, "INFO time_left").unwrap();
        assert_eq!(p.pending.len(), 2);
        let text = answer(&mut p, &[at(15, 7, 7)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("MESSAGE INFO timeout_turn"), "{text}");
        assert!(lines[1].starts_with("MESSAGE INFO time_left"), "{text}");
        assert_eq!(lines[2], "7,7");
        assert!(p.pending.is_empty());
    }

    #[test]
    fn the_margin_scales_with_short_moves_unless_one_is_given() {
        assert_eq!(scaled_margin(Duration::from_millis(500)), MIN_MARGIN);
        assert_eq!(scaled_margin(Duration::from_millis(100)), MIN_MARGIN);
        assert_eq!(scaled_margin(Duration::from_secs(1)), MIN_MARGIN);
        assert_eq!(
            scaled_margin(Duration::from_millis(1920)),
            Duration::from_millis(120)
        );
        assert_eq!(
            scaled_margin(Duration::from_millis(2080)),
            Duration::from_millis(130)
        );
        assert_eq!(scaled_margin(Duration::from_secs(5)), DEFAULT_MARGIN);
        let mut p = Gomocup::new(GomocupConfig::default());
        parse(&mut p, "INFO timeout_turn 2000").unwrap();
        let budget = p.budget(Instant::now());
        assert_eq!(budget.limit, Duration::from_millis(2000));
        assert_eq!(budget.margin, Duration::from_millis(125));
        let mut p = Gomocup::new(GomocupConfig {
            margin: Some(Duration::from_millis(150)),
            ..GomocupConfig::default()
        });
        parse(&mut p, "INFO timeout_turn 500").unwrap();
        assert_eq!(p.budget(Instant::now()).margin, Duration::from_millis(150));
    }

    #[test]
    fn the_time_limit_is_the_smaller_of_the_move_and_the_game() {
        let margin = Duration::from_millis(100);
        let mut t = Times {
            turn: Some(Duration::from_secs(5)),
            whole_game: Some(Duration::from_secs(180)),
            ..Times::default()
        };
        // 180 s for the game: the first move gets far less than 5 s.
        let first = t.limit(None, 0, margin);
        assert!(
            first < Duration::from_secs(5) && first > Duration::ZERO,
            "{first:?}"
        );
        // Plenty of time left: the move limit.
        t.whole_game = Some(Duration::from_secs(100_000));
        assert_eq!(t.limit(None, 10, margin), Duration::from_secs(5));
        // --time-ms replaces the move limit, the game still caps it.
        assert_eq!(
            t.limit(Some(Duration::from_millis(300)), 10, margin),
            Duration::from_millis(300)
        );
        t.left = Some((Duration::from_millis(400), Duration::ZERO));
        assert!(t.limit(Some(Duration::from_secs(60)), 10, margin) <= Duration::from_millis(200));
        // time_left ages with the time we use after it came.
        t.used = Duration::from_millis(300);
        assert_eq!(t.remaining(), Some(Duration::from_millis(100)));
        t.new_game();
        assert_eq!(t.remaining(), Some(Duration::from_secs(100_000)));
    }

    #[test]
    fn rule_exact_five_rebuilds_the_board_and_other_rules_are_reported() {
        let mut p = gomocup();
        assert!(parse(&mut p, "INFO rule 1").unwrap().is_empty());
        let e = parse(&mut p, "START 15").unwrap();
        assert_eq!(e[0], Event::NewBoard { size: 15, rules: 1 });
        assert!(p.pos.as_ref().unwrap().rules().exact_five);
        parse(&mut p, "TURN 7,7").unwrap();
        answer(&mut p, &[at(15, 8, 8)]);
        let e = parse(&mut p, "INFO rule 0").unwrap();
        assert_eq!(kinds(&e), ["new-board", "play", "play"]);
        assert!(!p.pos.as_ref().unwrap().rules().exact_five);
        assert!(p.pending.is_empty());
        // Renju: reported, the board unchanged.
        assert!(parse(&mut p, "INFO rule 4").unwrap().is_empty());
        assert!(p.pending[0].contains("renju"), "{:?}", p.pending);
        assert!(parse(&mut p, "INFO rule x").unwrap().is_empty());
        assert_eq!(p.pending.len(), 2);
    }

    #[test]
    fn arranging_stones_avoids_a_five_before_the_end() {
        let exact = GomokuRules::new(15, true).unwrap();
        // Six black stones in a row (an overline, no win under exactly five), listed in order,
        // and six scattered white ones.
        let black: Vec<Point> = (0..6).map(|x| at(15, x, 0)).collect();
        let white: Vec<Point> = (0..6).map(|i| at(15, 2 * i, 10)).collect();
        let pos = arrange(exact, &black, &white).unwrap();
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.ply(), 12);
        assert_eq!(pos.side_to_move(), Color::Black);
        // Under freestyle the same stones are a finished game: refused.
        let free = GomokuRules::new(15, false).unwrap();
        assert!(arrange(free, &black, &white).is_err());
        // Counts that cannot alternate, and duplicates.
        assert!(arrange(free, &black[..3], &white[..1]).is_err());
        assert!(arrange(free, &[1, 1], &[2]).is_err());
        // The order of each list is kept when nothing forces another.
        let pos = arrange(free, &[30, 10], &[20]).unwrap();
        assert_eq!(pos.moves(), [30, 20, 10]);
    }

    #[test]
    fn no_move_is_an_error_line() {
        let mut p = gomocup();
        assert!(answer(&mut p, &[]).starts_with("ERROR"));
        parse(&mut p, "START 15").unwrap();
        parse(&mut p, "BEGIN").unwrap();
        let text = answer(&mut p, &[]);
        assert!(text.starts_with("ERROR no move"), "{text}");
        let mut out = Vec::new();
        p.write_error(&mut out, "two\nlines").unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "ERROR two lines\n");
    }

    #[test]
    fn end_and_new_games_cancel_a_search() {
        let cancels = gomocup().interrupts();
        for text in [
            "END",
            "end",
            "RESTART",
            "START 20",
            "RECTSTART 20,20",
            "BEGIN",
            "BOARD",
        ] {
            assert!(cancels(text), "{text}");
        }
        for text in [
            "INFO time_left 1000",
            "TURN 1,1",
            "ABOUT",
            "1,1,1",
            "DONE",
            "YXSTOP",
        ] {
            assert!(!cancels(text), "{text}");
        }
    }

    /// An engine that thinks until told to stop, then plays the first free point.
    struct Slow;

    impl crate::engine::Engine<Gomoku> for Slow {
        fn new_game(&mut self) {}

        fn observe(&mut self, _pos: &Gomoku, _m: Point) {}

        fn think(&mut self, pos: &Gomoku, limits: crate::search::clock::Limits) -> Decision<Point> {
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

    /// `END` and `RESTART` arriving while a long search runs stop it, and nothing is written
    /// for it; the serve loop ends at `END`.
    #[test]
    fn a_running_search_is_abandoned_when_restart_or_end_arrives() {
        let (feed, chunks) = std::sync::mpsc::channel::<Vec<u8>>();
        struct Feed(std::sync::mpsc::Receiver<Vec<u8>>, Vec<u8>);
        impl std::io::Read for Feed {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.1.is_empty() {
                    match self.0.recv() {
                        Ok(chunk) => self.1 = chunk,
                        Err(_) => return Ok(0),
                    }
                }
                let n = buf.len().min(self.1.len());
                buf[..n].copy_from_slice(&self.1[..n]);
                self.1.drain(..n);
                Ok(n)
            }
        }
        let reader = super::super::LineReader::new(Feed(chunks, Vec::new()));
        let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
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
        let mut served = Shared(out.clone());
        let server = std::thread::spawn(move || {
            let mut protocol = Gomocup::new(GomocupConfig {
                turn_limit: Some(Duration::from_secs(60)),
                ..GomocupConfig::default()
            });
            let mut session =
                super::super::session::Session::new(protocol.start_position(), Box::new(Slow));
            session.board_maker = Some(make_board);
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
        let text = || String::from_utf8(out.lock().unwrap().clone()).unwrap();
        let wait_lines = |n: usize| {
            let start = Instant::now();
            while text().lines().count() < n {
                assert!(start.elapsed() < Duration::from_secs(60), "{:?}", text());
                std::thread::sleep(Duration::from_millis(2));
            }
        };
        let send = |t: &str| {
            feed.send(t.as_bytes().to_vec()).unwrap();
            std::thread::sleep(Duration::from_millis(50));
        };
        send("START 15\r\n");
        wait_lines(1);
        send("TURN 7,7\r\n");
        send("RESTART\r\n");
        wait_lines(2);
        send("BEGIN\r\n");
        send("END\r\n");
        server.join().unwrap().unwrap();
        assert_eq!(text(), "OK\nOK\n");
    }
}
