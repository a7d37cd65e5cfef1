//! Botzone (botzone.org.cn), from the bot's side: JSON full history, keep-running, and the simple
//! (non-JSON) interaction. See `protocols/botzone.md`.
//!
//! Games plug in through `BotzoneMove`, which maps a game's moves to Botzone's request/response
//! values; everything else (history replay, budgets, keep-running, error reporting) is shared.

use super::{Event, Line, Protocol};
use crate::engine::Decision;
use crate::game::connect6::{self, Connect6, Connect6Rules};
use crate::game::gomoku::{self, Gomoku};
use crate::game::nogo::{self, Nogo};
use crate::game::Game;
use crate::search::clock::TurnBudget;
use serde_json::{json, Value};
use std::io::Write;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// The line that asks Botzone to keep the process for the next turn.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// The largest turn count of the simple interaction: no Botzone game is longer (15x15 has 225
/// points). A larger count is refused at once: waiting for its 2n - 1 lines would mean never
/// answering (and 2n - 1 overflows for n of 2^63).
pub const MAX_SIMPLE_TURNS: usize = 225;

/// Botzone's debug field is kept to 1 KB.
const DEBUG_LIMIT: usize = 1000;

/// How a game's turns look on Botzone. A request or response is one turn: one stone in NoGo and
/// Gomoku, one or two in ConnectSix; an empty turn is the "no move yet" marker that opens a game
/// (and the answer of a side with no legal move).
pub trait BotzoneMove: Game {
    fn turn_from_json(v: &Value) -> Result<Vec<Self::Move>, String>;
    fn turn_to_json(turn: &[Self::Move]) -> Value;
    /// One line of the simple interaction.
    fn turn_from_simple(s: &str) -> Result<Vec<Self::Move>, String>;
    fn turn_to_simple(turn: &[Self::Move]) -> String;
    /// The stones to send for our `turn`; `seen` holds every stone named in the game so far
    /// (history, requests and our answers: a superset of Botzone's board). Usually `turn` itself.
    fn turn_to_send(turn: &[Self::Move], _seen: &[Self::Move]) -> Vec<Self::Move> {
        turn.to_vec()
    }
}

/// Every stone named in the current game: see `BotzoneMove::turn_to_send`.
struct Seen<M>(Vec<M>);

impl<M: Copy + PartialEq> Seen<M> {
    /// Follows the events of one input: a new game forgets, every play is kept.
    fn track(&mut self, events: &[Event<M>]) {
        for e in events {
            match e {
                Event::NewGame => self.0.clear(),
                Event::Play(m) if !self.0.contains(m) => self.0.push(*m),
                _ => {}
            }
        }
    }

    fn add(&mut self, turn: &[M]) {
        for m in turn {
            if !self.0.contains(m) {
                self.0.push(*m);
            }
        }
    }
}

/// Botzone sometimes stores a response as a JSON string holding the object; the judge accepts
/// it, and so do we.
fn unwrap_string(v: &Value) -> Result<Option<Value>, String> {
    match v {
        Value::String(s) => serde_json::from_str(s)
            .map(Some)
            .map_err(|e| format!("bad move text {s:?}: {e}")),
        _ => Ok(None),
    }
}

/// Integers of a simple-interaction line.
fn simple_ints(s: &str) -> Result<Vec<i64>, String> {
    s.split_whitespace()
        .map(|t| {
            t.parse::<i64>()
                .map_err(|_| format!("{t:?} is not an integer"))
        })
        .collect()
}

/// Reads an integer field that Botzone may send as a number or a numeric string.
fn int_field(v: &Value, key: &str) -> Result<i64, String> {
    match v.get(key) {
        Some(Value::Number(n)) => n
            .as_i64()
            .ok_or_else(|| format!("\"{key}\" is not an integer: {n}")),
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map_err(|_| format!("\"{key}\" is not an integer: {s:?}")),
        Some(other) => Err(format!("\"{key}\" is not an integer: {other}")),
        None => Err(format!("\"{key}\" is missing in {v}")),
    }
}

/// A point given as (x, y): `(-1, -1)` means no move; anything else must be on the 9x9 board.
fn nogo_point(x: i64, y: i64) -> Result<Option<nogo::Point>, String> {
    if x == -1 && y == -1 {
        return Ok(None);
    }
    let range = 0..nogo::SIZE as i64;
    if range.contains(&x) && range.contains(&y) {
        Ok(Some(nogo::point(x as usize, y as usize)))
    } else {
        Err(format!("({x},{y}) is off the 9x9 board"))
    }
}

impl BotzoneMove for Nogo {
    fn turn_from_json(v: &Value) -> Result<Vec<nogo::Point>, String> {
        if let Some(inner) = unwrap_string(v)? {
            return Self::turn_from_json(&inner);
        }
        if !v.is_object() {
            return Err(format!(
                "a move must be an object {{\"x\":..,\"y\":..}}, got {v}"
            ));
        }
        Ok(nogo_point(int_field(v, "x")?, int_field(v, "y")?)?
            .into_iter()
            .collect())
    }

    fn turn_to_json(turn: &[nogo::Point]) -> Value {
        let (x, y) = turn.first().map_or((-1, -1), |&p| {
            let (x, y) = nogo::coords(p);
            (x as i64, y as i64)
        });
        json!({ "x": x, "y": y })
    }

    fn turn_from_simple(s: &str) -> Result<Vec<nogo::Point>, String> {
        match simple_ints(s)?.as_slice() {
            &[x, y] => Ok(nogo_point(x, y)?.into_iter().collect()),
            _ => Err(format!("expected \"x y\", got {s:?}")),
        }
    }

    fn turn_to_simple(turn: &[nogo::Point]) -> String {
        match turn.first() {
            Some(&p) => {
                let (x, y) = nogo::coords(p);
                format!("{x} {y}")
            }
            None => "-1 -1".to_string(),
        }
    }
}

/// A ConnectSix point on Botzone's 15x15 board: `(-1, -1)` is "no stone".
fn connect6_point(x: i64, y: i64) -> Result<Option<connect6::Stone>, String> {
    if x == -1 && y == -1 {
        return Ok(None);
    }
    let n = Connect6Rules::BOTZONE.size as i64;
    if (0..n).contains(&x) && (0..n).contains(&y) {
        Ok(Some((y * n + x) as connect6::Stone))
    } else {
        Err(format!("({x},{y}) is off the {n}x{n} board"))
    }
}

fn connect6_xy(p: connect6::Stone) -> (i64, i64) {
    let n = Connect6Rules::BOTZONE.size as i64;
    (p as i64 % n, p as i64 / n)
}

/// The stones of a ConnectSix turn from its two points: a turn is one stone (Black's first) or
/// two; "no stone" may only come second, or for both in the opening request.
fn connect6_turn(points: [(i64, i64); 2]) -> Result<Vec<connect6::Stone>, String> {
    let first = connect6_point(points[0].0, points[0].1)?;
    let second = connect6_point(points[1].0, points[1].1)?;
    match (first, second) {
        (Some(a), Some(b)) if a == b => Err(format!(
            "both stones of the turn are on ({},{})",
            points[0].0, points[0].1
        )),
        (Some(a), Some(b)) => Ok(vec![a, b]),
        (Some(a), None) => Ok(vec![a]),
        (None, None) => Ok(Vec::new()),
        (None, Some(_)) => Err("the first stone is missing but the second is given".to_string()),
    }
}

impl BotzoneMove for Connect6 {
    fn turn_from_json(v: &Value) -> Result<Vec<connect6::Stone>, String> {
        if let Some(inner) = unwrap_string(v)? {
            return Self::turn_from_json(&inner);
        }
        if !v.is_object() {
            return Err(format!(
                "a turn must be an object {{\"x0\":..,\"y0\":..,\"x1\":..,\"y1\":..}}, got {v}"
            ));
        }
        connect6_turn([
            (int_field(v, "x0")?, int_field(v, "y0")?),
            (int_field(v, "x1")?, int_field(v, "y1")?),
        ])
    }

    fn turn_to_json(turn: &[connect6::Stone]) -> Value {
        let (x0, y0) = turn.first().map_or((-1, -1), |&p| connect6_xy(p));
        let (x1, y1) = turn.get(1).map_or((-1, -1), |&p| connect6_xy(p));
        json!({ "x0": x0, "y0": y0, "x1": x1, "y1": y1 })
    }

    fn turn_from_simple(s: &str) -> Result<Vec<connect6::Stone>, String> {
        match simple_ints(s)?.as_slice() {
            &[x0, y0, x1, y1] => connect6_turn([(x0, y0), (x1, y1)]),
            _ => Err(format!("expected \"x0 y0 x1 y1\", got {s:?}")),
        }
    }

    fn turn_to_simple(turn: &[connect6::Stone]) -> String {
        let (x0, y0) = turn.first().map_or((-1, -1), |&p| connect6_xy(p));
        let (x1, y1) = turn.get(1).map_or((-1, -1), |&p| connect6_xy(p));
        format!("{x0} {y0} {x1} {y1}")
    }

    /// A turn of one stone after the opening ends the game (the stone wins, or fills the board).
    /// Botzone's ConnectSix judge is not public, and whether it accepts `x1 = y1 = -1` there is
    /// unknown; a second stone on a point no input or answer has named is legal however the
    /// judge reads the turn, so one goes with it. Only a full board leaves the second out.
    fn turn_to_send(turn: &[connect6::Stone], seen: &[connect6::Stone]) -> Vec<connect6::Stone> {
        let mut send = turn.to_vec();
        if let ([only], false) = (turn, seen.is_empty()) {
            let points =
                (Connect6Rules::BOTZONE.size * Connect6Rules::BOTZONE.size) as connect6::Stone;
            if let Some(free) = (0..points).find(|p| p != only && !seen.contains(p)) {
                send.push(free);
            }
        }
        send
    }
}

/// Botzone's Gomoku board is 15x15, the `Gomoku` default (freestyle: five or more wins).
pub const BOTZONE_GOMOKU_SIZE: usize = gomoku::DEFAULT_SIZE;

/// A Gomoku point on Botzone's 15x15 board, `x` the column and `y` the row: `(-1, -1)` is the
/// "no move" of Black's first request.
fn gomoku_point(x: i64, y: i64) -> Result<Option<gomoku::Point>, String> {
    if x == -1 && y == -1 {
        return Ok(None);
    }
    let n = BOTZONE_GOMOKU_SIZE as i64;
    if (0..n).contains(&x) && (0..n).contains(&y) {
        Ok(Some((y * n + x) as gomoku::Point))
    } else {
        Err(format!("({x},{y}) is off the {n}x{n} board"))
    }
}

fn gomoku_xy(p: gomoku::Point) -> (i64, i64) {
    let n = BOTZONE_GOMOKU_SIZE as i64;
    (p as i64 % n, p as i64 / n)
}

impl BotzoneMove for Gomoku {
    fn turn_from_json(v: &Value) -> Result<Vec<gomoku::Point>, String> {
        if let Some(inner) = unwrap_string(v)? {
            return Self::turn_from_json(&inner);
        }
        if !v.is_object() {
            return Err(format!(
                "a move must be an object {{\"x\":..,\"y\":..}}, got {v}"
            ));
        }
        Ok(gomoku_point(int_field(v, "x")?, int_field(v, "y")?)?
            .into_iter()
            .collect())
    }

    fn turn_to_json(turn: &[gomoku::Point]) -> Value {
        let (x, y) = turn.first().map_or((-1, -1), |&p| gomoku_xy(p));
        json!({ "x": x, "y": y })
    }

    /// Botzone offers no simple interaction for Gomoku (the serving command line refuses it);
    /// the lines would look like NoGo's.
    fn turn_from_simple(s: &str) -> Result<Vec<gomoku::Point>, String> {
        match simple_ints(s)?.as_slice() {
            &[x, y] => Ok(gomoku_point(x, y)?.into_iter().collect()),
            _ => Err(format!("expected \"x y\", got {s:?}")),
        }
    }

    fn turn_to_simple(turn: &[gomoku::Point]) -> String {
        let (x, y) = turn.first().map_or((-1, -1), |&p| gomoku_xy(p));
        format!("{x} {y}")
    }
}

/// Settings shared by the Botzone modes.
#[derive(Clone, Copy, Debug)]
pub struct BotzoneConfig {
    /// Print the keep-running marker after each answer and stay for the next turn.
    pub keep_running: bool,
    /// Kept back from every turn's limit.
    pub margin: Duration,
    /// When this process started: full-history turns are timed from here.
    pub process_start: Instant,
    /// A per-turn limit that replaces Botzone's (`--time-ms`).
    pub turn_limit: Option<Duration>,
    /// The language the bot was uploaded as, whose limits apply when Botzone sends none.
    pub language: BotzoneLanguage,
}

/// Botzone multiplies its time limits by language. A Rust bot is uploaded as something else
/// (a Python entry point that runs the bundled binary), so it gets that language's time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BotzoneLanguage {
    /// C and C++: 1 s a turn, doubled on the bot's first turn of the game.
    #[default]
    Cpp,
    /// Python: 6 s for a process's first turn (every turn of a full-history bot), 4 s for the
    /// later turns of a kept-running process (Botzone's judge configuration, as published in
    /// `ailab-pku/botzone-local`). Whether Python's first turn is doubled too is not known, so
    /// it is not counted on.
    Python,
}

impl BotzoneConfig {
    /// Botzone's limit for a turn: its own `time_limit` if it sent one, else the language's
    /// (C++: 1 s, doubled on the bot's first turn; Python: 6 s for the process's first turn,
    /// 4 s for a kept-running process's later ones).
    fn limit(
        &self,
        platform_limit: Option<Duration>,
        first_turn: bool,
        fresh_process: bool,
    ) -> Duration {
        let language_limit = match self.language {
            BotzoneLanguage::Cpp if first_turn => 2000,
            BotzoneLanguage::Cpp => 1000,
            BotzoneLanguage::Python if fresh_process => 6000,
            BotzoneLanguage::Python => 4000,
        };
        self.turn_limit
            .or(platform_limit)
            .unwrap_or(Duration::from_millis(language_limit))
    }

    /// The budget of a turn whose input `line` was read. A fresh process (nothing answered yet)
    /// is timed by Botzone from its start, parsing included; later turns from the read.
    fn budget(
        &self,
        answered: usize,
        line: &Line,
        platform_limit: Option<Duration>,
        first_turn: bool,
    ) -> TurnBudget {
        let fresh_process = answered == 0;
        let started = if fresh_process {
            self.process_start
        } else {
            line.arrived
        };
        let limit = self.limit(platform_limit, first_turn, fresh_process);
        let margin = if fresh_process {
            self.margin + fresh_process_allowance(limit)
        } else {
            self.margin
        };
        TurnBudget {
            started,
            limit,
            margin,
            stretch: None,
        }
    }
}

/// Kept back, on top of the margin, from a turn timed from process start. Botzone's clock starts
/// before the process can read its own (the judge's spawn, loading the binary), and a fresh
/// process on a busy machine pays that again: once in CI a 2 s first turn aimed at 1.85 s ended
/// at 2.25 s. An eighth of the limit (250 ms of the doubled first turn, 125 ms of a full-history
/// 1 s turn) costs the search little and covers such a stall.
fn fresh_process_allowance(limit: Duration) -> Duration {
    limit / 8
}

/// The longest turn limit taken from the input: no judge gives a turn an hour.
const MAX_TIME_LIMIT: Duration = Duration::from_secs(3600);

/// Botzone's `time_limit` has been seen both in seconds and in milliseconds; small values are
/// taken as seconds. A limit that is not positive, or longer than `MAX_TIME_LIMIT`, is not one a
/// judge would send: it is ignored, and the language's limit applies.
fn parse_time_limit(v: &Value) -> Option<Duration> {
    let n = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    if !(n.is_finite() && n > 0.0) {
        return None;
    }
    let seconds = if n < 100.0 { n } else { n / 1000.0 };
    // Checked, not `from_secs_f64`: the fuzzer found that `1e308` (or any number of seconds a
    // Duration cannot hold) made that panic and the bot die without an answer.
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|&d| d <= MAX_TIME_LIMIT)
}

/// Builds the replay of a full history: the requests are the opponent's moves (the first may be
/// the "you start" marker), the responses ours, alternating.
fn replay<G: BotzoneMove>(
    requests: Vec<Result<Vec<G::Move>, String>>,
    responses: Vec<Result<Vec<G::Move>, String>>,
) -> Vec<Event<G::Move>> {
    let mut events = vec![Event::NewGame];
    let turns = requests.len();
    if responses.len() + 1 != turns {
        events.push(Event::Warning(format!(
            "history does not alternate: {} requests but {} responses (expected {})",
            turns,
            responses.len(),
            turns.saturating_sub(1)
        )));
    }
    let mut responses = responses.into_iter();
    for (i, request) in requests.into_iter().enumerate() {
        match request {
            Ok(turn) if !turn.is_empty() => events.extend(turn.into_iter().map(Event::Play)),
            Ok(_) if i == 0 => {}
            Ok(_) => events.push(Event::Warning(format!(
                "request {} is an empty move; skipped",
                i + 1
            ))),
            Err(e) => events.push(Event::Warning(format!("request {}: {e}; skipped", i + 1))),
        }
        if i + 1 < turns {
            match responses.next() {
                Some(Ok(turn)) if !turn.is_empty() => {
                    events.extend(turn.into_iter().map(Event::Play))
                }
                Some(Ok(_)) => events.push(Event::Warning(format!(
                    "response {} is an empty move; skipped",
                    i + 1
                ))),
                Some(Err(e)) => {
                    events.push(Event::Warning(format!("response {}: {e}; skipped", i + 1)))
                }
                None => {}
            }
        }
    }
    events
}

/// Botzone's JSON interaction.
pub struct BotzoneJson<G: BotzoneMove> {
    config: BotzoneConfig,
    platform_limit: Option<Duration>,
    answered: usize,
    in_game: bool,
    seen: Seen<G::Move>,
    _game: PhantomData<G>,
}

impl<G: BotzoneMove> BotzoneJson<G> {
    pub fn new(config: BotzoneConfig) -> BotzoneJson<G> {
        BotzoneJson {
            config,
            platform_limit: None,
            answered: 0,
            in_game: false,
            seen: Seen(Vec::new()),
            _game: PhantomData,
        }
    }

    fn full_history(&mut self, input: &Value, line: &Line) -> Result<Vec<Event<G::Move>>, String> {
        let list = |key: &str| -> Result<Vec<Value>, String> {
            match input.get(key) {
                Some(Value::Array(a)) => Ok(a.clone()),
                None if key == "responses" => Ok(Vec::new()),
                Some(other) => Err(format!("\"{key}\" must be a list, got {other}")),
                None => Err(format!("\"{key}\" is missing")),
            }
        };
        let requests = list("requests")?;
        if requests.is_empty() {
            return Err("\"requests\" is empty: there is no turn to play".to_string());
        }
        let responses = list("responses")?;
        if let Some(limit) = input.get("time_limit").and_then(parse_time_limit) {
            self.platform_limit = Some(limit);
        }
        let first_turn = requests.len() == 1;
        let requests = requests.iter().map(G::turn_from_json).collect();
        let responses = responses.iter().map(G::turn_from_json).collect();
        let mut events = replay::<G>(requests, responses);
        let budget = self
            .config
            .budget(self.answered, line, self.platform_limit, first_turn);
        events.push(Event::Go(budget));
        self.in_game = true;
        Ok(events)
    }
}

/// Every answer ends alike: it is counted, and in keep-running mode the marker follows it.
fn finish_answer(
    config: &BotzoneConfig,
    answered: &mut usize,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    *answered += 1;
    if config.keep_running {
        writeln!(out, "{KEEP_RUNNING_MARKER}")?;
    }
    Ok(())
}

/// Truncates on a character boundary.
fn clip(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut cut = max;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}

fn debug_text<M>(
    decision: Option<&Decision<M>>,
    warnings: &[String],
    extra: Option<&str>,
) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(d) = decision {
        parts.push(d.summary());
        if d.mv.is_none() {
            parts.push("no legal point left (or the game is over)".to_string());
        }
    }
    if let Some(e) = extra {
        parts.push(format!("error: {e}"));
    }
    parts.extend(warnings.iter().map(|w| format!("warning: {w}")));
    clip(parts.join("; "), DEBUG_LIMIT)
}

impl<G: BotzoneMove> BotzoneJson<G> {
    fn parse_line(&mut self, line: &Line) -> Result<Vec<Event<G::Move>>, String> {
        let input: Value =
            serde_json::from_str(&line.text).map_err(|e| format!("malformed JSON input: {e}"))?;
        if !input.is_object() {
            return Err(format!("expected a JSON object, got {input}"));
        }
        if input.get("requests").is_some() {
            return self.full_history(&input, line);
        }
        // Keep-running: a bare request, the opponent's last move.
        if !self.in_game {
            return Err(
                "a bare request arrived before any full history: no game to play it in".to_string(),
            );
        }
        let go = Event::Go(
            self.config
                .budget(self.answered, line, self.platform_limit, false),
        );
        let turn = G::turn_from_json(&input)?;
        if turn.is_empty() {
            Ok(vec![Event::NewGame, go])
        } else {
            let mut events: Vec<_> = turn.into_iter().map(Event::Play).collect();
            events.push(go);
            Ok(events)
        }
    }
}

impl<G: BotzoneMove> Protocol<G::Move> for BotzoneJson<G> {
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<G::Move>>, String> {
        let events = self.parse_line(line)?;
        self.seen.track(&events);
        Ok(events)
    }

    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        turn: &[G::Move],
        decision: &Decision<G::Move>,
        warnings: &[String],
    ) -> std::io::Result<()> {
        let turn = G::turn_to_send(turn, &self.seen.0);
        self.seen.add(&turn);
        let answer = json!({
            "response": G::turn_to_json(&turn),
            "debug": debug_text(Some(decision), warnings, None),
        });
        writeln!(out, "{answer}")?;
        finish_answer(&self.config, &mut self.answered, out)
    }

    fn write_error(&mut self, out: &mut dyn Write, message: &str) -> std::io::Result<()> {
        // No position, so no move: say why in the place Botzone keeps.
        let answer = json!({ "response": Value::Null, "debug": debug_text::<G::Move>(None, &[], Some(message)) });
        writeln!(out, "{answer}")?;
        finish_answer(&self.config, &mut self.answered, out)
    }

    fn done_after_answer(&self) -> bool {
        !self.config.keep_running
    }

    fn name_move(&self, m: G::Move) -> String {
        G::turn_to_json(&[m]).to_string()
    }

    fn at_end_of_input(&mut self) -> Option<String> {
        (self.answered == 0).then(|| "input ended before any request arrived".to_string())
    }
}

/// Botzone's simple interaction: `n`, then 2n-1 move lines (requests and our responses,
/// alternating, ending with the current request); in keep-running mode, later turns are one line.
pub struct BotzoneSimple<G: BotzoneMove> {
    config: BotzoneConfig,
    expected: usize,
    lines: Vec<String>,
    answered: usize,
    in_game: bool,
    seen: Seen<G::Move>,
    _game: PhantomData<G>,
}

impl<G: BotzoneMove> BotzoneSimple<G> {
    pub fn new(config: BotzoneConfig) -> BotzoneSimple<G> {
        BotzoneSimple {
            config,
            expected: 0,
            lines: Vec::new(),
            answered: 0,
            in_game: false,
            seen: Seen(Vec::new()),
            _game: PhantomData,
        }
    }

    fn budget(&self, line: &Line, first_turn: bool) -> TurnBudget {
        self.config.budget(self.answered, line, None, first_turn)
    }

    fn parse_line(&mut self, line: &Line) -> Result<Vec<Event<G::Move>>, String> {
        if self.expected == 0 {
            if self.in_game && self.config.keep_running {
                // Keep-running: a single request line per turn.
                return match G::turn_from_simple(&line.text) {
                    Ok(turn) if !turn.is_empty() => {
                        let mut events: Vec<_> = turn.into_iter().map(Event::Play).collect();
                        events.push(Event::Go(self.budget(line, false)));
                        Ok(events)
                    }
                    Ok(_) => Ok(vec![Event::NewGame, Event::Go(self.budget(line, true))]),
                    // Botzone may append data lines after the first turn; they are not moves.
                    Err(e) => Ok(vec![Event::Warning(format!(
                        "ignored input line {:?}: {e}",
                        line.text
                    ))]),
                };
            }
            let n: usize = match line.text.parse() {
                Ok(n) if (1..=MAX_SIMPLE_TURNS).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "expected the turn number (an integer from 1 to {MAX_SIMPLE_TURNS}), \
                         got {:?}",
                        line.text
                    ))
                }
            };
            self.expected = 2 * n - 1;
            self.lines.clear();
            return Ok(Vec::new());
        }
        self.lines.push(line.text.clone());
        if self.lines.len() < self.expected {
            return Ok(Vec::new());
        }
        self.expected = 0;
        let lines = std::mem::take(&mut self.lines);
        let turns = lines.len().div_ceil(2);
        let requests = lines
            .iter()
            .step_by(2)
            .map(|l| G::turn_from_simple(l))
            .collect();
        let responses = lines
            .iter()
            .skip(1)
            .step_by(2)
            .map(|l| G::turn_from_simple(l))
            .collect();
        let mut events = replay::<G>(requests, responses);
        events.push(Event::Go(self.budget(line, turns == 1)));
        self.in_game = true;
        Ok(events)
    }
}

impl<G: BotzoneMove> Protocol<G::Move> for BotzoneSimple<G> {
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<G::Move>>, String> {
        let events = self.parse_line(line)?;
        self.seen.track(&events);
        Ok(events)
    }

    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        turn: &[G::Move],
        decision: &Decision<G::Move>,
        warnings: &[String],
    ) -> std::io::Result<()> {
        let turn = G::turn_to_send(turn, &self.seen.0);
        self.seen.add(&turn);
        writeln!(out, "{}", G::turn_to_simple(&turn))?;
        writeln!(out, "{}", debug_text(Some(decision), warnings, None))?;
        finish_answer(&self.config, &mut self.answered, out)
    }

    fn write_error(&mut self, out: &mut dyn Write, message: &str) -> std::io::Result<()> {
        writeln!(out, "{}", G::turn_to_simple(&[]))?;
        writeln!(out, "{}", debug_text::<G::Move>(None, &[], Some(message)))?;
        finish_answer(&self.config, &mut self.answered, out)
    }

    fn done_after_answer(&self) -> bool {
        !self.config.keep_running
    }

    fn name_move(&self, m: G::Move) -> String {
        format!("\"{}\"", G::turn_to_simple(&[m]))
    }

    fn at_end_of_input(&mut self) -> Option<String> {
        if self.expected > 0 {
            Some(format!(
                "input ended inside a turn: {} of {} move lines read",
                self.lines.len(),
                self.expected
            ))
        } else {
            (self.answered == 0).then(|| "input ended before any request arrived".to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_in_seconds_or_milliseconds() {
        assert_eq!(parse_time_limit(&json!(1)), Some(Duration::from_secs(1)));
        assert_eq!(parse_time_limit(&json!("6")), Some(Duration::from_secs(6)));
        assert_eq!(parse_time_limit(&json!(1000)), Some(Duration::from_secs(1)));
        assert_eq!(
            parse_time_limit(&json!(0.5)),
            Some(Duration::from_millis(500))
        );
        assert_eq!(parse_time_limit(&json!("")), None);
        assert_eq!(parse_time_limit(&json!(-3)), None);
        assert_eq!(parse_time_limit(&json!(null)), None);
        // Beyond an hour, or beyond what a Duration holds: ignored, never a panic.
        assert_eq!(
            parse_time_limit(&json!(3_600_000)),
            Some(Duration::from_secs(3600))
        );
        assert_eq!(parse_time_limit(&json!(3_600_001)), None);
        assert_eq!(parse_time_limit(&json!(1e308)), None);
        assert_eq!(parse_time_limit(&json!("3.4e38")), None);
    }

    #[test]
    fn default_limits_double_on_the_first_turn() {
        let c = BotzoneConfig {
            keep_running: false,
            margin: Duration::ZERO,
            process_start: Instant::now(),
            turn_limit: None,
            language: BotzoneLanguage::Cpp,
        };
        assert_eq!(c.limit(None, true, true), Duration::from_secs(2));
        assert_eq!(c.limit(None, false, true), Duration::from_secs(1));
        assert_eq!(c.limit(None, false, false), Duration::from_secs(1));
        assert_eq!(
            c.limit(Some(Duration::from_secs(3)), true, true),
            Duration::from_secs(3)
        );
        let forced = BotzoneConfig {
            turn_limit: Some(Duration::from_millis(50)),
            ..c
        };
        assert_eq!(
            forced.limit(Some(Duration::from_secs(3)), true, true),
            Duration::from_millis(50)
        );
    }

    #[test]
    fn a_fresh_process_keeps_more_back_than_a_kept_running_turn() {
        let c = BotzoneConfig {
            keep_running: true,
            margin: Duration::from_millis(150),
            process_start: Instant::now(),
            turn_limit: None,
            language: BotzoneLanguage::Cpp,
        };
        let line = Line {
            text: String::new(),
            arrived: Instant::now(),
        };
        // The first turn of a fresh process: 2 s, of which 150 + 250 ms are kept back.
        let first = c.budget(0, &line, None, true);
        assert_eq!(first.limit, Duration::from_secs(2));
        assert_eq!(first.margin, Duration::from_millis(400));
        assert_eq!(first.started, c.process_start);
        // A full-history later turn is a fresh process too: 1 s, 150 + 125 ms kept back.
        let later = c.budget(0, &line, None, false);
        assert_eq!(later.margin, Duration::from_millis(275));
        // A kept-running turn is timed from its line, with the plain margin.
        let kept = c.budget(3, &line, None, false);
        assert_eq!(kept.margin, Duration::from_millis(150));
        assert_eq!(kept.started, line.arrived);
    }

    #[test]
    fn python_limits_follow_the_process_not_the_game() {
        let c = BotzoneConfig {
            keep_running: true,
            margin: Duration::ZERO,
            process_start: Instant::now(),
            turn_limit: None,
            language: BotzoneLanguage::Python,
        };
        // A full-history bot is a fresh process every turn: 6 s each, first turn or not.
        assert_eq!(c.limit(None, true, true), Duration::from_secs(6));
        assert_eq!(c.limit(None, false, true), Duration::from_secs(6));
        // A kept-running process gets 4 s for each turn after its first.
        assert_eq!(c.limit(None, false, false), Duration::from_secs(4));
        // Botzone's own figure, when it sends one, still wins.
        assert_eq!(
            c.limit(Some(Duration::from_secs(2)), false, false),
            Duration::from_secs(2)
        );
    }

    #[test]
    fn simple_turn_counts_beyond_any_game_are_refused_at_once() {
        let config = BotzoneConfig {
            keep_running: false,
            margin: Duration::ZERO,
            process_start: Instant::now(),
            turn_limit: None,
            language: BotzoneLanguage::Cpp,
        };
        let line = |text: &str| Line {
            text: text.to_string(),
            arrived: Instant::now(),
        };
        assert_eq!(
            BotzoneSimple::<Nogo>::new(config).parse(&line("225")),
            Ok(Vec::new())
        );
        for n in [
            "226",
            "9223372036854775808",
            "18446744073709551616",
            "0",
            "-1",
        ] {
            let refused = BotzoneSimple::<Nogo>::new(config).parse(&line(n));
            assert!(refused.is_err(), "{n}");
        }
    }

    #[test]
    fn nogo_moves_round_trip_in_both_forms() {
        for p in [0u8, 8, 40, 72, 80] {
            let j = Nogo::turn_to_json(&[p]);
            assert_eq!(Nogo::turn_from_json(&j), Ok(vec![p]));
            let s = Nogo::turn_to_simple(&[p]);
            assert_eq!(Nogo::turn_from_simple(&s), Ok(vec![p]));
        }
        assert_eq!(Nogo::turn_from_json(&json!({"x": -1, "y": -1})), Ok(vec![]));
        assert_eq!(Nogo::turn_from_simple("-1 -1"), Ok(vec![]));
        // x is the first index of Botzone's grid[x][y].
        assert_eq!(
            Nogo::turn_from_json(&json!({"x": 2, "y": 7})),
            Ok(vec![nogo::point(2, 7)])
        );
        assert_eq!(
            Nogo::turn_from_json(&json!("{\"x\": 2, \"y\": 7}")),
            Ok(vec![nogo::point(2, 7)])
        );
        assert!(Nogo::turn_from_json(&json!({"x": 9, "y": 0})).is_err());
        assert!(Nogo::turn_from_json(&json!({"x": -1, "y": 3})).is_err());
        assert!(Nogo::turn_from_json(&json!({"x": 1})).is_err());
        assert!(Nogo::turn_from_json(&json!([1, 2])).is_err());
        assert!(Nogo::turn_from_simple("1").is_err());
        assert!(Nogo::turn_from_simple("1 2 3").is_err());
    }

    #[test]
    fn connect6_turns_round_trip_in_both_forms() {
        let n = 15;
        let turns: [&[connect6::Stone]; 4] = [&[], &[7 * n + 7], &[0, 224], &[3 * n + 14, 14 * n]];
        for turn in turns {
            let j = Connect6::turn_to_json(turn);
            assert_eq!(Connect6::turn_from_json(&j), Ok(turn.to_vec()), "{j}");
            let s = Connect6::turn_to_simple(turn);
            assert_eq!(Connect6::turn_from_simple(&s), Ok(turn.to_vec()), "{s}");
        }
        // Black's opening answer: one stone, the second pair is -1.
        assert_eq!(
            Connect6::turn_to_json(&[7 * n + 7]),
            json!({"x0": 7, "y0": 7, "x1": -1, "y1": -1})
        );
        // x is the column, y the row: (3, 1) is point 1 * 15 + 3.
        assert_eq!(
            Connect6::turn_from_json(&json!({"x0": 3, "y0": 1, "x1": 0, "y1": 14})),
            Ok(vec![18, 210])
        );
        assert_eq!(Connect6::turn_to_simple(&[18, 210]), "3 1 0 14");
        assert!(Connect6::turn_from_json(&json!({"x0": 15, "y0": 0, "x1": 1, "y1": 1})).is_err());
        assert!(Connect6::turn_from_json(&json!({"x0": 1, "y0": 1, "x1": 1, "y1": 1})).is_err());
        assert!(Connect6::turn_from_json(&json!({"x0": -1, "y0": -1, "x1": 1, "y1": 1})).is_err());
        assert!(Connect6::turn_from_json(&json!({"x0": 1, "y0": 1})).is_err());
        assert!(Connect6::turn_from_simple("1 2").is_err());
        assert!(Connect6::turn_from_simple("1 2 3 x").is_err());
    }

    #[test]
    fn gomoku_moves_round_trip_on_the_15x15_board() {
        for p in [0u16, 14, 112, 210, 224] {
            let j = Gomoku::turn_to_json(&[p]);
            assert_eq!(Gomoku::turn_from_json(&j), Ok(vec![p]), "{j}");
        }
        // x is the column, y the row: (3, 1) is point 1 * 15 + 3.
        assert_eq!(
            Gomoku::turn_from_json(&json!({"x": 3, "y": 1})),
            Ok(vec![18])
        );
        assert_eq!(Gomoku::turn_to_json(&[18]), json!({"x": 3, "y": 1}));
        assert_eq!(Gomoku::turn_to_json(&[]), json!({"x": -1, "y": -1}));
        assert_eq!(
            Gomoku::turn_from_json(&json!({"x": -1, "y": -1})),
            Ok(vec![])
        );
        assert_eq!(
            Gomoku::turn_from_json(&json!("{\"x\":14,\"y\":14}")),
            Ok(vec![224])
        );
        assert!(Gomoku::turn_from_json(&json!({"x": 15, "y": 0})).is_err());
        assert!(Gomoku::turn_from_json(&json!({"x": 0, "y": -1})).is_err());
        assert!(Gomoku::turn_from_json(&json!({"x": 1})).is_err());
        assert!(Gomoku::turn_from_json(&json!([1, 2])).is_err());
        assert_eq!(Gomoku::turn_from_simple("3 1"), Ok(vec![18]));
        assert_eq!(Gomoku::turn_to_simple(&[18]), "3 1");
    }

    #[test]
    fn a_winning_single_stone_goes_with_a_second_stone_on_a_free_point() {
        // The opening stays one stone.
        assert_eq!(Connect6::turn_to_send(&[112], &[]), vec![112]);
        // Later, a lone (winning) stone gets a second one, never on a stone named before.
        let seen: Vec<connect6::Stone> = vec![0, 1, 2, 112];
        assert_eq!(Connect6::turn_to_send(&[3], &seen), vec![3, 4]);
        assert_eq!(Connect6::turn_to_send(&[4], &seen), vec![4, 3]);
        // Two stones, or NoGo's single stone, are sent as they are.
        assert_eq!(Connect6::turn_to_send(&[5, 6], &seen), vec![5, 6]);
        assert_eq!(Nogo::turn_to_send(&[7], &[1, 2]), vec![7]);
        // A full board leaves nothing to add.
        let full: Vec<connect6::Stone> = (0..225).filter(|&p| p != 9).collect();
        assert_eq!(Connect6::turn_to_send(&[9], &full), vec![9]);
    }

    #[test]
    fn seen_stones_follow_the_game() {
        let mut seen = Seen(Vec::new());
        seen.track(&[Event::NewGame, Event::Play(3u8), Event::Play(4)]);
        seen.add(&[5, 3]);
        assert_eq!(seen.0, vec![3, 4, 5]);
        seen.track(&[Event::NewGame, Event::Play(9)]);
        assert_eq!(seen.0, vec![9]);
    }

    #[test]
    fn replay_interleaves_requests_and_responses() {
        let events = replay::<Nogo>(
            vec![Ok(vec![]), Ok(vec![3]), Ok(vec![5])],
            vec![Ok(vec![1]), Ok(vec![4])],
        );
        assert_eq!(
            events,
            vec![
                Event::NewGame,
                Event::Play(1),
                Event::Play(3),
                Event::Play(4),
                Event::Play(5)
            ]
        );
        let white = replay::<Nogo>(vec![Ok(vec![7])], vec![]);
        assert_eq!(white, vec![Event::NewGame, Event::Play(7)]);
        // A ConnectSix turn is two plays in a row.
        let pairs = replay::<Connect6>(vec![Ok(vec![]), Ok(vec![3, 4])], vec![Ok(vec![9])]);
        assert_eq!(
            pairs,
            vec![
                Event::NewGame,
                Event::Play(9),
                Event::Play(3),
                Event::Play(4)
            ]
        );
    }

    #[test]
    fn debug_text_stays_within_botzone_limit() {
        let long = vec!["é".repeat(800)];
        let text = debug_text::<u8>(None, &long, Some("x"));
        assert!(text.len() <= DEBUG_LIMIT);
    }
}
