//! `stonebrain classroom`: a student's bot on the class server, following step 9 of the seed:
//! join, then check the game every few seconds, and when it is our turn, think and play; stop
//! when the game is over and say how it ended.
//!
//! Networks drop and servers restart mid-game, so every call is retried with growing pauses,
//! each failure reported on standard error, until `give_up` has passed without one success.

use super::api::{CallError, ClassApi};
use super::rsa::PublicKey;
use super::think::choose_move;
use crate::engine::gomoku::level::{self, Level};
use crate::engine::Engine;
use crate::game::gomoku::{parse_seed_moves, Gomoku};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::time::{Duration, Instant};

pub struct ClientSettings {
    pub server: String,
    pub user: String,
    pub password: String,
    pub name: Option<String>,
    /// Pause between two checks, drawn afresh each time from this range (the seed asks for
    /// 5 to 10 seconds).
    pub poll: (Duration, Duration),
    /// Thinking time per move, kept inside the server's move limit.
    pub move_time: Duration,
    pub level: Level,
    /// The server's key, when known; else it is fetched from `/public_key`.
    pub public_key: Option<PublicKey>,
    /// Append the seed's NUL-and-random-letters salt to the password before encrypting.
    pub salt: bool,
    /// Give up after this long without a single successful call.
    pub give_up: Duration,
    /// The first pause after a failure; it doubles up to 30 s.
    pub retry_first: Duration,
}

/// Time kept in hand out of the move limit: for the answer to travel, and for a check that
/// came late.
const SAFETY: Duration = Duration::from_secs(3);

/// Thinking time for a move: what the user asked for, but never past the move clock less
/// `SAFETY` and the time since the clock was read. `left_time` may be whole seconds (this
/// server) or a fraction (another); without it the seed's whole minute is assumed.
fn think_budget(move_time: Duration, left_time: &Value, since_check: Duration) -> Duration {
    let left = left_time
        .as_f64()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(crate::classroom::game::MOVE_LIMIT, Duration::from_secs_f64);
    move_time.min(left.saturating_sub(SAFETY + since_check))
}

struct Client {
    api: ClassApi,
    settings: ClientSettings,
    key: PublicKey,
    rng: SmallRng,
    engine: Box<dyn Engine<Gomoku>>,
}

fn say(line: &str) {
    println!("classroom: {line}");
}

fn warn(line: &str) {
    eprintln!("classroom: {line}");
}

/// Calls `f` until it succeeds; failures are reported and retried with doubling pauses.
fn retry<T>(
    settings: &ClientSettings,
    what: &str,
    mut f: impl FnMut() -> Result<T, CallError>,
) -> Result<T, String> {
    let first_failure = Instant::now();
    let mut pause = settings.retry_first;
    let mut attempts = 0u32;
    loop {
        attempts += 1;
        match f() {
            Ok(v) => {
                if attempts > 1 {
                    warn(&format!("{what}: the server answers again"));
                }
                return Ok(v);
            }
            Err(e) => {
                let waited = first_failure.elapsed();
                if waited + pause > settings.give_up {
                    return Err(format!(
                        "giving up on {what} after {attempts} attempts in {:.0} s: {e}",
                        waited.as_secs_f64()
                    ));
                }
                warn(&format!(
                    "{what} failed (attempt {attempts}): {e}; retrying in {:.1} s",
                    pause.as_secs_f64()
                ));
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(30));
            }
        }
    }
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

impl Client {
    fn password_hex(&mut self) -> Result<String, String> {
        let salt: Option<&mut dyn rand::RngCore> = if self.settings.salt {
            Some(&mut self.rng)
        } else {
            None
        };
        self.key.encrypt_password(&self.settings.password, salt)
    }

    fn sleep_poll(&mut self) {
        let (lo, hi) = self.settings.poll;
        let pause = if hi > lo {
            lo + (hi - lo).mul_f64(self.rng.gen::<f64>())
        } else {
            lo
        };
        std::thread::sleep(pause);
    }

    fn join(&mut self) -> Result<String, String> {
        loop {
            let hex = self.password_hex()?;
            let (user, name) = (self.settings.user.clone(), self.settings.name.clone());
            let answer = retry(&self.settings, "join_game", || {
                self.api.join(&user, &hex, name.as_deref())
            })?;
            if answer["is_success"] == true {
                if let Some(id) = text(&answer, "game_id") {
                    return Ok(id.to_string());
                }
            }
            let error = text(&answer, "error").unwrap_or("no game_id in the answer");
            // A refused login will be refused again: say so and stop.
            if error.contains("login") || error.contains("parameter") {
                return Err(format!("the server refused to let {user} join: {error}"));
            }
            warn(&format!("join_game refused: {error}; trying again"));
            self.sleep_poll();
        }
    }

    /// Our move for the position of `board`, within `time`.
    fn choose(&mut self, board: &str, time: Duration) -> Result<(String, String), String> {
        let moves = parse_seed_moves(board).map_err(|e| format!("the server's board: {e}"))?;
        choose_move(&mut *self.engine, &moves, time).map_err(|e| format!("the server's board: {e}"))
    }

    fn run(&mut self) -> Result<(), String> {
        let id = self.join()?;
        say(&format!(
            "joined game {id} on {} as {}",
            self.api.base(),
            self.settings.user
        ));
        let me = self.settings.user.clone();
        let mut announced_ready = false;
        let mut announced_waiting = false;
        let mut seen_step = 0u64;
        let mut refusals = 0u32;
        loop {
            let checked_at = Instant::now();
            let state = retry(&self.settings, "check_game", || self.api.check(&id))?;
            if state["is_success"] != true {
                let error = text(&state, "error").unwrap_or("no reason given");
                return Err(format!("the server cannot show game {id}: {error}"));
            }
            if state["ready"] == true && !announced_ready {
                say(&format!(
                    "game ready: {} ({}) against {} ({})",
                    text(&state, "creator").unwrap_or("?"),
                    text(&state, "creator_stone").unwrap_or("?"),
                    text(&state, "opponent").unwrap_or("?"),
                    text(&state, "opponent_stone").unwrap_or("?"),
                ));
                announced_ready = true;
            }
            let step = state["step"].as_u64().unwrap_or(0);
            if step > seen_step {
                if let (Some(last), Some(by)) = (text(&state, "last_step"), self.last_mover(&state))
                {
                    if by != me {
                        say(&format!("move {step}: {by} {last}"));
                    }
                }
                seen_step = step;
            }
            if state["finished"] == true || !state["winner"].is_null() && state["winner"] != "None"
            {
                self.finish(&state);
                return Ok(());
            }
            if state["ready"] != true {
                if !announced_waiting {
                    say("waiting for an opponent");
                    announced_waiting = true;
                }
                self.sleep_poll();
                continue;
            }
            if text(&state, "current_turn") != Some(me.as_str()) {
                self.sleep_poll();
                continue;
            }
            let budget = think_budget(
                self.settings.move_time,
                &state["left_time"],
                checked_at.elapsed(),
            );
            let board = text(&state, "board").unwrap_or("").to_string();
            let (coord, summary) = match self.choose(&board, budget) {
                Ok(c) => c,
                Err(e) => {
                    warn(&format!("{e}; checking again"));
                    self.sleep_poll();
                    continue;
                }
            };
            let hex = self.password_hex()?;
            let answer = retry(&self.settings, "play_game", || {
                self.api.play(&id, &me, &hex, &coord)
            })?;
            if answer["is_success"] == true {
                refusals = 0;
                seen_step = step + 1;
                say(&format!("move {}: {me} {coord} ({summary})", step + 1));
            } else {
                refusals += 1;
                let error = text(&answer, "error").unwrap_or("no reason given");
                warn(&format!("the server refused {coord}: {error}"));
                if refusals >= 5 {
                    return Err(format!(
                        "the server refused 5 moves in a row; the last: {error}"
                    ));
                }
            }
        }
    }

    /// Who played the last stone: the other side from the one to move, or the winner.
    fn last_mover(&self, state: &Value) -> Option<String> {
        let step = state["step"].as_u64()?;
        let stone = if step % 2 == 1 { "x" } else { "o" };
        if text(state, "creator_stone") == Some(stone) {
            text(state, "creator").map(str::to_string)
        } else {
            text(state, "opponent").map(str::to_string)
        }
    }

    /// Says how the game ended, and our rating after it.
    fn finish(&self, state: &Value) {
        let winner = text(state, "winner")
            .filter(|w| *w != "None")
            .map(str::to_string);
        let result = text(state, "result")
            .map(str::to_string)
            .unwrap_or_else(|| match &winner {
                Some(w) => format!("{w} won"),
                None => "no winner".to_string(),
            });
        let line = text(state, "win_step")
            .map(|l| format!(" ({l})"))
            .unwrap_or_default();
        say(&format!("game over: {result}{line}"));
        let me = &self.settings.user;
        let verdict = match &winner {
            Some(w) if w == me => "we won",
            Some(_) => "we lost",
            None => "a draw",
        };
        // The rating table is a courtesy: one try, no retries.
        let rating = self
            .api
            .ratings()
            .ok()
            .and_then(|t| {
                t["ratings"]
                    .as_array()?
                    .iter()
                    .find(|r| r["user"] == me.as_str())
                    .and_then(|r| r["elo"].as_f64())
            })
            .map(|elo| {
                let change_key = if state["creator"] == me.as_str() {
                    "creator_elo_change"
                } else {
                    "opponent_elo_change"
                };
                match state[change_key].as_f64() {
                    Some(c) => format!("; Elo {elo:.1} ({c:+.1})"),
                    None => format!("; Elo {elo:.1}"),
                }
            })
            .unwrap_or_default();
        say(&format!("result: {verdict}{rating}"));
    }
}

/// Plays one game on the server, from joining to the end.
pub fn play_one_game(settings: ClientSettings) -> Result<(), String> {
    let api = ClassApi::new(&settings.server)?;
    let mut rng = SmallRng::from_entropy();
    let key = match settings.public_key.clone() {
        Some(k) => k,
        None => {
            let answer = retry(&settings, "public_key", || api.public_key())?;
            let text = text(&answer, "public_key").ok_or_else(|| {
                "the server gave no public key at /public_key; pass it with --public-key E,N"
                    .to_string()
            })?;
            PublicKey::parse(text)?
        }
    };
    let engine = level::build(settings.level, rng.gen());
    let mut client = Client {
        api,
        settings,
        key,
        rng,
        engine,
    };
    client.run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn thinking_stays_inside_the_move_clock() {
        let s = Duration::from_secs;
        assert_eq!(think_budget(s(10), &json!(60), s(0)), s(10));
        // A check that came late, or a long think asked for: the clock wins.
        assert_eq!(think_budget(s(100), &json!(60), s(0)), s(57));
        assert_eq!(think_budget(s(10), &json!(8), s(2)), s(3));
        assert_eq!(think_budget(s(10), &json!(2), s(0)), Duration::ZERO);
        assert_eq!(
            think_budget(s(10), &json!(7.5), s(0)),
            Duration::from_millis(4500)
        );
        // Nothing readable: the seed's minute.
        assert_eq!(think_budget(s(100), &json!("soon"), s(0)), s(57));
        assert_eq!(think_budget(s(100), &Value::Null, s(0)), s(57));
        assert_eq!(think_budget(s(100), &json!(-3), s(0)), s(57));
    }
}
