//! A student: joins a game with a real RSA login, checks it, plays its moves through
//! `play_game`, and joins again when it is over, until the run's time is up. Every answered
//! request is timed. Now and then it sends its last move again, word for word (a replayed
//! request, which the server must refuse).

use super::accounts::Account;
use super::board::{moves_of, Board};
use super::http::{Answer, Conn};
use super::stats::Latencies;
use super::{lock, Shared};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

struct Student<'a> {
    shared: &'a Shared,
    account: Account,
    conn: Conn,
    /// The server run the connection belongs to.
    epoch: u64,
    rng: SmallRng,
    latencies: Latencies,
}

/// The request died with the server (or with the connection): the student has waited for it
/// to come back.
struct Lost;

/// Plays games until the run's time is up; the latencies of its answered requests.
pub fn play(shared: &Shared, account: Account, seed: u64) -> Latencies {
    let mut s = Student {
        shared,
        conn: Conn::new(shared.addr, Duration::from_secs(30)),
        account,
        epoch: 0,
        rng: SmallRng::seed_from_u64(0x10ad_0000 + seed),
        latencies: Latencies::default(),
    };
    while !shared.stopping() && !shared.past_hard_stop() {
        match s.join() {
            Some(id) => s.play_game(&id),
            None => break,
        }
    }
    s.latencies
}

impl Student<'_> {
    fn fault(&self, text: String) {
        self.shared.fault(format!("{}: {text}", self.account.user));
    }

    /// One GET, timed. When it fails the student waits for the server to be up again; a
    /// failure while the server was up all along is a fault.
    fn call(&mut self, target: &str) -> Result<Answer, Lost> {
        let server = &self.shared.server;
        let Some(epoch) = server.wait_up(Duration::from_secs(120)) else {
            self.fault("the server did not come back within 120 s".into());
            return Err(Lost);
        };
        if epoch != self.epoch {
            self.conn.reset();
            self.epoch = epoch;
        }
        let start = Instant::now();
        match self.conn.get(target) {
            Ok(answer) => {
                self.latencies.add(start.elapsed());
                self.shared.requests.fetch_add(1, Ordering::Relaxed);
                if answer.status >= 500 {
                    self.fault(format!(
                        "HTTP {} for {target}: {}",
                        answer.status, answer.body
                    ));
                }
                Ok(answer)
            }
            Err(e) => {
                self.conn.reset();
                if server.up() && server.epoch() == epoch {
                    self.fault(format!("{target}: {e}, with the server up"));
                }
                Err(Lost)
            }
        }
    }

    /// The answer as JSON, when it is a success; else a fault naming the request.
    fn success(&self, what: &str, answer: &Answer) -> Option<Value> {
        match answer.json() {
            Some(v) if v["is_success"] == true => Some(v),
            _ => {
                self.fault(format!("{what} refused: {} {}", answer.status, answer.body));
                None
            }
        }
    }

    fn login(&mut self) -> String {
        let cipher = self.account.cipher(&self.shared.key, &mut self.rng);
        format!("user={}&password={cipher}", self.account.user)
    }

    fn join(&mut self) -> Option<String> {
        loop {
            if self.shared.past_hard_stop() {
                return None;
            }
            let target = format!("/join_game?{}", self.login());
            if let Ok(answer) = self.call(&target) {
                let v = self.success("join_game", &answer)?;
                return v["game_id"].as_str().map(str::to_string);
            }
        }
    }

    fn pause(&mut self) {
        let poll = self.shared.settings.poll;
        std::thread::sleep(poll.mul_f64(self.rng.gen_range(0.5..1.5)));
    }

    fn play_game(&mut self, id: &str) {
        let me = self.account.user.clone();
        // A move whose request died with the server: taken or not, the board will say.
        let mut in_flight: Option<(usize, String)> = None;
        loop {
            if self.shared.past_hard_stop() {
                self.fault(format!("game {id} still not over at the end"));
                return;
            }
            let Ok(answer) = self.call(&format!("/check_game/{id}")) else {
                continue;
            };
            let Some(v) = self.success("check_game", &answer) else {
                return;
            };
            let board = moves_of(v["board"].as_str().unwrap_or_default());
            if let Some((step, coord)) = in_flight.take() {
                let mut ledger = lock(&self.shared.ledger);
                if board.get(step) == Some(&coord) {
                    ledger.confirm(id, step, &me, &coord);
                    ledger.in_flight_kept += 1;
                } else {
                    ledger.in_flight_lost += 1;
                }
            }
            if v["finished"] == true {
                self.seen_finish(id, &v);
                return;
            }
            if v["ready"] != true {
                if self.shared.stopping() {
                    return;
                }
                self.pause();
                continue;
            }
            if v["current_turn"].as_str() != Some(me.as_str()) {
                self.pause();
                continue;
            }
            let Some(coord) = Board::from_moves(&board).and_then(|b| b.quick_move(&mut self.rng))
            else {
                self.fault(format!("game {id}: no move in {}", v["board"]));
                return;
            };
            let target = format!("/play_game/{id}?{}&coord={coord}", self.login());
            let step = board.len();
            match self.call(&target) {
                Err(Lost) => in_flight = Some((step, coord)),
                Ok(answer) => {
                    let Some(v) = self.success(&format!("move {coord} in {id}"), &answer) else {
                        return;
                    };
                    lock(&self.shared.ledger).confirm(id, step, &me, &coord);
                    if v["finished"] == true {
                        self.seen_finish(id, &v);
                        return;
                    }
                    if self.rng.gen_bool(0.05) {
                        self.replay(&target);
                    }
                }
            }
        }
    }

    fn seen_finish(&self, id: &str, v: &Value) {
        let winner = v["winner"].as_str().map(str::to_string);
        let board = v["board"].as_str().unwrap_or_default().to_string();
        lock(&self.shared.ledger).finish(id, winner, board);
    }

    /// The last move's request again, the same bytes: refused whatever happened since
    /// (it is not our turn, or the point is taken, or the opponent has won meanwhile).
    fn replay(&mut self, target: &str) {
        let epoch = self.epoch;
        let Ok(answer) = self.conn.get(target) else {
            self.conn.reset();
            return;
        };
        let error = answer.refusal().unwrap_or_default();
        let what = if error.starts_with("not your turn") {
            "200 not your turn"
        } else if error.contains("is already occupied") {
            "200 already occupied"
        } else {
            "200 the game is over"
        };
        let expected = answer.status == 200
            && (error.starts_with("not your turn")
                || error.contains("is already occupied")
                || error.starts_with("the game is over"));
        let kind = "replayed move";
        let mut tally = lock(&self.shared.tally);
        if expected {
            tally.add(kind, what);
        } else if self.shared.server.epoch() == epoch {
            tally.add(
                kind,
                &format!("UNEXPECTED {} {}", answer.status, answer.body),
            );
            drop(tally);
            self.fault(format!(
                "a replayed move got {} {}",
                answer.status, answer.body
            ));
        }
    }
}
