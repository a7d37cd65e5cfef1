//! Botzone (botzone.org.cn), from the bot's side: JSON full history, keep-running, and the simple
//! (non-JSON) interaction. See `protocols/botzone.md`.
//!
//! Games plug in through `BotzoneMove`, which maps a game's moves to Botzone's request/response
//! values; everything else (history replay, budgets, keep-running, error reporting) is shared.

use super::{Event, Line, Protocol};
use crate::engine::Decision;
use crate::game::nogo::{self, Nogo};
use crate::game::Game;
use crate::search::clock::TurnBudget;
use serde_json::{json, Value};
use std::io::Write;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// The line that asks Botzone to keep the process for the next turn.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Botzone's debug field is kept to 1 KB.
const DEBUG_LIMIT: usize = 1000;

/// How a game's moves look on Botzone.
pub trait BotzoneMove: Game {
    /// A request or response value; `Ok(None)` is the "no move yet" marker that opens a game.
    fn move_from_json(v: &Value) -> Result<Option<Self::Move>, String>;
    fn move_to_json(m: Option<Self::Move>) -> Value;
    /// One line of the simple interaction.
    fn move_from_simple(s: &str) -> Result<Option<Self::Move>, String>;
    fn move_to_simple(m: Option<Self::Move>) -> String;
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
    fn move_from_json(v: &Value) -> Result<Option<nogo::Point>, String> {
        // The judge accepts a response stored as a JSON string; so do we.
        if let Value::String(s) = v {
            let inner: Value =
                serde_json::from_str(s).map_err(|e| format!("bad move text {s:?}: {e}"))?;
            return Self::move_from_json(&inner);
        }
        if !v.is_object() {
            return Err(format!(
                "a move must be an object {{\"x\":..,\"y\":..}}, got {v}"
            ));
        }
        nogo_point(int_field(v, "x")?, int_field(v, "y")?)
    }

    fn move_to_json(m: Option<nogo::Point>) -> Value {
        let (x, y) = m.map_or((-1, -1), |p| {
            let (x, y) = nogo::coords(p);
            (x as i64, y as i64)
        });
        json!({ "x": x, "y": y })
    }

    fn move_from_simple(s: &str) -> Result<Option<nogo::Point>, String> {
        let parts: Vec<&str> = s.split_whitespace().collect();
        let parse = |t: &str| {
            t.parse::<i64>()
                .map_err(|_| format!("{t:?} is not an integer"))
        };
        match parts.as_slice() {
            [x, y] => nogo_point(parse(x)?, parse(y)?),
            _ => Err(format!("expected \"x y\", got {s:?}")),
        }
    }

    fn move_to_simple(m: Option<nogo::Point>) -> String {
        match m {
            Some(p) => {
                let (x, y) = nogo::coords(p);
                format!("{x} {y}")
            }
            None => "-1 -1".to_string(),
        }
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
}

impl BotzoneConfig {
    /// Botzone's limit for a turn: its own `time_limit` if it sent one, else 1 s, doubled on the
    /// bot's first turn as Botzone does.
    fn limit(&self, platform_limit: Option<Duration>, first_turn: bool) -> Duration {
        self.turn_limit.or(platform_limit).unwrap_or(if first_turn {
            Duration::from_millis(2000)
        } else {
            Duration::from_millis(1000)
        })
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
        let started = if answered == 0 {
            self.process_start
        } else {
            line.arrived
        };
        TurnBudget {
            started,
            limit: self.limit(platform_limit, first_turn),
            margin: self.margin,
        }
    }
}

/// Botzone's `time_limit` has been seen both in seconds and in milliseconds; small values are
/// taken as seconds.
fn parse_time_limit(v: &Value) -> Option<Duration> {
    let n = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    if !(n.is_finite() && n > 0.0) {
        None
    } else if n < 100.0 {
        Some(Duration::from_secs_f64(n))
    } else {
        Some(Duration::from_secs_f64(n / 1000.0))
    }
}

/// Builds the replay of a full history: the requests are the opponent's moves (the first may be
/// the "you start" marker), the responses ours, alternating.
fn replay<G: BotzoneMove>(
    requests: Vec<Result<Option<G::Move>, String>>,
    responses: Vec<Result<Option<G::Move>, String>>,
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
            Ok(Some(m)) => events.push(Event::Play(m)),
            Ok(None) if i == 0 => {}
            Ok(None) => events.push(Event::Warning(format!(
                "request {} is an empty move; skipped",
                i + 1
            ))),
            Err(e) => events.push(Event::Warning(format!("request {}: {e}; skipped", i + 1))),
        }
        if i + 1 < turns {
            match responses.next() {
                Some(Ok(Some(m))) => events.push(Event::Play(m)),
                Some(Ok(None)) => events.push(Event::Warning(format!(
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
    _game: PhantomData<G>,
}

impl<G: BotzoneMove> BotzoneJson<G> {
    pub fn new(config: BotzoneConfig) -> BotzoneJson<G> {
        BotzoneJson {
            config,
            platform_limit: None,
            answered: 0,
            in_game: false,
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
        let requests = requests.iter().map(G::move_from_json).collect();
        let responses = responses.iter().map(G::move_from_json).collect();
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
            parts.push("no legal point left".to_string());
        }
    }
    if let Some(e) = extra {
        parts.push(format!("error: {e}"));
    }
    parts.extend(warnings.iter().map(|w| format!("warning: {w}")));
    clip(parts.join("; "), DEBUG_LIMIT)
}

impl<G: BotzoneMove> Protocol<G::Move> for BotzoneJson<G> {
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<G::Move>>, String> {
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
        match G::move_from_json(&input)? {
            Some(m) => Ok(vec![Event::Play(m), go]),
            None => Ok(vec![Event::NewGame, go]),
        }
    }

    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        decision: &Decision<G::Move>,
        warnings: &[String],
    ) -> std::io::Result<()> {
        let answer = json!({
            "response": G::move_to_json(decision.mv),
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
        G::move_to_json(Some(m)).to_string()
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
            _game: PhantomData,
        }
    }

    fn budget(&self, line: &Line, first_turn: bool) -> TurnBudget {
        self.config.budget(self.answered, line, None, first_turn)
    }
}

impl<G: BotzoneMove> Protocol<G::Move> for BotzoneSimple<G> {
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<G::Move>>, String> {
        if self.expected == 0 {
            if self.in_game && self.config.keep_running {
                // Keep-running: a single request line per turn.
                return match G::move_from_simple(&line.text) {
                    Ok(Some(m)) => Ok(vec![Event::Play(m), Event::Go(self.budget(line, false))]),
                    Ok(None) => Ok(vec![Event::NewGame, Event::Go(self.budget(line, true))]),
                    // Botzone may append data lines after the first turn; they are not moves.
                    Err(e) => Ok(vec![Event::Warning(format!(
                        "ignored input line {:?}: {e}",
                        line.text
                    ))]),
                };
            }
            let n: usize = match line.text.parse() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(format!(
                        "expected the turn number (an integer from 1), got {:?}",
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
            .map(|l| G::move_from_simple(l))
            .collect();
        let responses = lines
            .iter()
            .skip(1)
            .step_by(2)
            .map(|l| G::move_from_simple(l))
            .collect();
        let mut events = replay::<G>(requests, responses);
        events.push(Event::Go(self.budget(line, turns == 1)));
        self.in_game = true;
        Ok(events)
    }

    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        decision: &Decision<G::Move>,
        warnings: &[String],
    ) -> std::io::Result<()> {
        writeln!(out, "{}", G::move_to_simple(decision.mv))?;
        writeln!(out, "{}", debug_text(Some(decision), warnings, None))?;
        finish_answer(&self.config, &mut self.answered, out)
    }

    fn write_error(&mut self, out: &mut dyn Write, message: &str) -> std::io::Result<()> {
        writeln!(out, "{}", G::move_to_simple(None))?;
        writeln!(out, "{}", debug_text::<G::Move>(None, &[], Some(message)))?;
        finish_answer(&self.config, &mut self.answered, out)
    }

    fn done_after_answer(&self) -> bool {
        !self.config.keep_running
    }

    fn name_move(&self, m: G::Move) -> String {
        format!("\"{}\"", G::move_to_simple(Some(m)))
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
    }

    #[test]
    fn default_limits_double_on_the_first_turn() {
        let c = BotzoneConfig {
            keep_running: false,
            margin: Duration::ZERO,
            process_start: Instant::now(),
            turn_limit: None,
        };
        assert_eq!(c.limit(None, true), Duration::from_secs(2));
        assert_eq!(c.limit(None, false), Duration::from_secs(1));
        assert_eq!(
            c.limit(Some(Duration::from_secs(3)), true),
            Duration::from_secs(3)
        );
        let forced = BotzoneConfig {
            turn_limit: Some(Duration::from_millis(50)),
            ..c
        };
        assert_eq!(
            forced.limit(Some(Duration::from_secs(3)), true),
            Duration::from_millis(50)
        );
    }

    #[test]
    fn nogo_moves_round_trip_in_both_forms() {
        for p in [0u8, 8, 40, 72, 80] {
            let j = Nogo::move_to_json(Some(p));
            assert_eq!(Nogo::move_from_json(&j), Ok(Some(p)));
            let s = Nogo::move_to_simple(Some(p));
            assert_eq!(Nogo::move_from_simple(&s), Ok(Some(p)));
        }
        assert_eq!(Nogo::move_from_json(&json!({"x": -1, "y": -1})), Ok(None));
        assert_eq!(Nogo::move_from_simple("-1 -1"), Ok(None));
        // x is the first index of Botzone's grid[x][y].
        assert_eq!(
            Nogo::move_from_json(&json!({"x": 2, "y": 7})),
            Ok(Some(nogo::point(2, 7)))
        );
        assert!(Nogo::move_from_json(&json!({"x": 9, "y": 0})).is_err());
        assert!(Nogo::move_from_json(&json!({"x": -1, "y": 3})).is_err());
        assert!(Nogo::move_from_json(&json!({"x": 1})).is_err());
        assert!(Nogo::move_from_json(&json!([1, 2])).is_err());
        assert!(Nogo::move_from_simple("1").is_err());
        assert!(Nogo::move_from_simple("1 2 3").is_err());
    }

    #[test]
    fn replay_interleaves_requests_and_responses() {
        let events = replay::<Nogo>(
            vec![Ok(None), Ok(Some(3)), Ok(Some(5))],
            vec![Ok(Some(1)), Ok(Some(4))],
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
        let white = replay::<Nogo>(vec![Ok(Some(7))], vec![]);
        assert_eq!(white, vec![Event::NewGame, Event::Play(7)]);
    }

    #[test]
    fn debug_text_stays_within_botzone_limit() {
        let long = vec!["é".repeat(800)];
        let text = debug_text::<u8>(None, &long, Some("x"));
        assert!(text.len() <= DEBUG_LIMIT);
    }
}
