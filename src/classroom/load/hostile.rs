//! Hostile requests, sent beside the students: each kind with the refusal the server owes it
//! (`protocols/class-server.md`). Any other answer, or no answer while the server was up, is a
//! fault; so is a server that stops serving after one.

use super::accounts::Account;
use super::board::{moves_of, point_text, Board, SIZE};
use super::http::{connect, exchange, get_request, read_answer, Answer};
use super::{lock, Shared};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

/// The answers a kind may get: a status and words its `error` must contain.
type Expected = &'static [(u16, &'static str)];

/// Tallies an answer of `kind`; a fault unless it is one of `expected`. An answer lost to a
/// kill (the server down, or restarted since `epoch`) is not counted either way.
fn judge(
    shared: &Shared,
    kind: &str,
    epoch: u64,
    answer: std::io::Result<Answer>,
    expected: Expected,
) {
    let answer = match answer {
        Ok(a) => a,
        Err(_) if !shared.server.up() || shared.server.epoch() != epoch => return,
        Err(e) => {
            lock(&shared.tally).add(kind, &format!("UNEXPECTED no answer: {e}"));
            shared.fault(format!("{kind}: no answer with the server up: {e}"));
            return;
        }
    };
    let error = answer.refusal().unwrap_or_default();
    match expected
        .iter()
        .find(|(status, words)| answer.status == *status && error.contains(words))
    {
        Some((status, words)) => lock(&shared.tally).add(kind, &format!("{status} {words}")),
        None => {
            let body: String = answer.body.chars().take(120).collect();
            lock(&shared.tally).add(kind, &format!("UNEXPECTED {} {body}", answer.status));
            shared.fault(format!("{kind}: got {} {body}", answer.status));
        }
    }
}

/// A game between the two hostile accounts, kept going (a move every so often, so the clock
/// never runs out) for the wrong-turn requests.
pub struct HostileGame {
    pub id: String,
    players: [Account; 2],
    rng: SmallRng,
}

impl HostileGame {
    /// Made before the students start, so that the two accounts pair with each other.
    pub fn open(shared: &Shared, players: &[Account; 2]) -> Result<HostileGame, String> {
        let mut game = HostileGame {
            id: String::new(),
            players: players.clone(),
            rng: SmallRng::seed_from_u64(0x4057),
        };
        for i in 0..2 {
            let target = format!("/join_game?{}", game.login(shared, i));
            let answer = exchange(shared.addr, &get_request(&target), TIMEOUT)
                .map_err(|e| format!("the hostile game: {e}"))?;
            let v = answer.json().unwrap_or_default();
            match v["game_id"].as_str() {
                Some(id) => game.id = id.to_string(),
                None => return Err(format!("the hostile game: join refused: {}", answer.body)),
            }
        }
        Ok(game)
    }

    fn login(&mut self, shared: &Shared, i: usize) -> String {
        let account = &self.players[i];
        format!(
            "user={}&password={}",
            account.user,
            account.cipher(&shared.key, &mut self.rng)
        )
    }

    /// A move by the player not to move: refused, "not your turn". The player to move plays
    /// first when its clock is past a quarter.
    fn wrong_turn(&mut self, shared: &Shared) {
        let epoch = shared.server.epoch();
        let Ok(state) = exchange(
            shared.addr,
            &get_request(&format!("/check_game/{}", self.id)),
            TIMEOUT,
        ) else {
            return;
        };
        let v = state.json().unwrap_or_default();
        let Some(board) = Board::from_moves(&moves_of(v["board"].as_str().unwrap_or_default()))
        else {
            return;
        };
        let Some(mover) = self
            .players
            .iter()
            .position(|p| v["current_turn"] == p.user.as_str())
        else {
            return;
        };
        let step = moves_of(v["board"].as_str().unwrap_or_default()).len();
        let empty = |rng: &mut SmallRng, harmless: bool| {
            (0..1000).find_map(|_| {
                let p = (rng.gen_range(0..SIZE), rng.gen_range(0..SIZE));
                (board.is_empty(p) && (!harmless || !board.would_make_five(p)))
                    .then(|| point_text(p))
            })
        };
        if v["left_time"].as_u64().unwrap_or(60) < 45 {
            let Some(coord) = empty(&mut self.rng, true) else {
                return;
            };
            let login = self.login(shared, mover);
            let target = format!("/play_game/{}?{login}&coord={coord}", self.id);
            match exchange(shared.addr, &get_request(&target), TIMEOUT) {
                Ok(a) if a.json().is_some_and(|v| v["is_success"] == true) => {
                    lock(&shared.ledger).confirm(&self.id, step, &self.players[mover].user, &coord);
                }
                Ok(a) => shared.fault(format!("the hostile game's move refused: {}", a.body)),
                Err(_) => {}
            }
            return;
        }
        let Some(coord) = empty(&mut self.rng, false) else {
            return;
        };
        let login = self.login(shared, 1 - mover);
        let target = format!("/play_game/{}?{login}&coord={coord}", self.id);
        let answer = exchange(shared.addr, &get_request(&target), TIMEOUT);
        judge(
            shared,
            "wrong turn",
            epoch,
            answer,
            &[(200, "not your turn")],
        );
    }
}

fn post_with_length(length: &str) -> Vec<u8> {
    format!("POST /play_game/x HTTP/1.1\r\nHost: class\r\nContent-Length: {length}\r\n\r\n")
        .into_bytes()
}

/// One request of each simple kind: (name, bytes, expected answers).
fn simple_kinds(rng: &mut SmallRng) -> Vec<(&'static str, Vec<u8>, Expected)> {
    let random_hex: String = (0..250)
        .map(|_| char::from_digit(rng.gen_range(0..16), 16).unwrap_or('0'))
        .collect();
    let mut big_body = post_with_length("70000");
    big_body.extend(std::iter::repeat_n(b'u', 70_000));
    let garbage: Vec<u8> = (0..rng.gen_range(1..200))
        .map(|_| rng.gen_range(0..=255u8))
        .filter(|&b| b != b'\n')
        .collect();
    let mut garbage_line = garbage;
    garbage_line.extend_from_slice(b"\r\n\r\n");
    vec![
        (
            "bad cipher text",
            get_request(&format!("/join_game?user=hostile-a&password={random_hex}")),
            &[(200, "login failed: unknown user or wrong password")],
        ),
        (
            "bad cipher text",
            get_request("/join_game?user=hostile-a&password=not-hex-at-all"),
            &[(
                200,
                "login failed: the password must be the cipher text in hexadecimal",
            )],
        ),
        (
            "bad cipher text",
            get_request(&format!(
                "/join_game?user=hostile-a&password={}",
                "f".repeat(300)
            )),
            &[(
                200,
                "login failed: the encrypted password is larger than the key's modulus",
            )],
        ),
        (
            "huge Content-Length",
            post_with_length("1000000000000"),
            &[(413, "larger than 65536 bytes")],
        ),
        (
            "oversized body",
            big_body,
            &[(413, "larger than 65536 bytes")],
        ),
        (
            "garbage request line",
            garbage_line,
            &[(400, "malformed request line")],
        ),
        (
            "over-long header",
            format!(
                "GET /elo HTTP/1.1\r\nX-Junk: {}\r\n\r\n",
                "j".repeat(20_000)
            )
            .into_bytes(),
            &[(431, "longer than 16384 bytes")],
        ),
        (
            "HTTP/2.0 request",
            b"GET /elo HTTP/2.0\r\n\r\n".to_vec(),
            &[(505, "HTTP/2.0 is not spoken here")],
        ),
        (
            "chunked body",
            b"POST /join_game HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nuser\r\n0\r\n\r\n"
                .to_vec(),
            &[(411, "send the body with a Content-Length")],
        ),
        (
            "unknown method",
            b"DELETE /elo HTTP/1.1\r\n\r\n".to_vec(),
            &[(405, "the method DELETE is not used here")],
        ),
    ]
}

/// Half a request, then nothing: the server must give up on it with 408 (and serve others
/// meanwhile, which the students show).
fn slow_client(shared: &Shared) {
    let epoch = shared.server.epoch();
    let wait = shared.settings.request_time + TIMEOUT;
    let answer = connect(shared.addr, wait).and_then(|mut s| {
        s.write_all(b"GET /check_game/x HTTP/1.1\r\nHost: cla")?;
        read_answer(&mut s, &mut Vec::new())
    });
    judge(
        shared,
        "slow client",
        epoch,
        answer,
        &[(408, "was not complete within")],
    );
}

/// Connections that never send a byte: the server closes them, silently, after its idle time.
fn idle_connections(shared: &Shared, count: usize) {
    let epoch = shared.server.epoch();
    let conns: Vec<TcpStream> = (0..count)
        .filter_map(|_| connect(shared.addr, TIMEOUT).ok())
        .collect();
    let start = Instant::now();
    for mut s in conns {
        let _ = s.set_read_timeout(Some(shared.settings.idle_time + Duration::from_secs(15)));
        let mut byte = [0u8; 1];
        let closed = matches!(s.read(&mut byte), Ok(0)) || shared.server.epoch() != epoch;
        let label = if shared.server.epoch() != epoch {
            "closed by a kill".to_string()
        } else if closed
            && start.elapsed() + Duration::from_millis(200) >= shared.settings.idle_time
        {
            "closed by the server, without a word, after its idle time".to_string()
        } else {
            shared.fault(format!(
                "an idle connection was not closed as it should be ({:?})",
                start.elapsed()
            ));
            "UNEXPECTED not closed after the idle time".to_string()
        };
        lock(&shared.tally).add("idle connection", &label);
    }
}

/// More connections than the server takes, at once: the ones over its limit get 503, and once
/// they are gone the server serves again.
fn flood(shared: &Shared) {
    let _quiet = lock(&shared.server.disruption);
    let epoch = shared.server.epoch();
    let limit = shared.settings.max_connections;
    let conns: Vec<TcpStream> = (0..limit + 20)
        .map_while(|_| TcpStream::connect_timeout(&shared.addr, Duration::from_secs(5)).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let (mut held, mut refused) = (0, 0);
    for s in &conns {
        let _ = s.set_nonblocking(true);
        let mut buf = [0u8; 16];
        match (&*s).read(&mut buf) {
            Ok(n) if buf[..n].starts_with(b"HTTP/1.1 503") => refused += 1,
            Err(e) if e.kind() == ErrorKind::WouldBlock => held += 1,
            _ => {}
        }
    }
    drop(conns);
    let start = Instant::now();
    let served = loop {
        let a = exchange(shared.addr, &get_request("/elo"), TIMEOUT);
        if a.as_ref().is_ok_and(|a| a.status == 200) {
            break true;
        }
        if start.elapsed() > Duration::from_secs(10) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if shared.server.epoch() != epoch {
        return;
    }
    let ok = refused > 0 && held <= limit && served;
    let label = format!(
        "{}{} connections: {held} held, {refused} refused with 503, {} once they closed",
        if ok { "" } else { "UNEXPECTED " },
        limit + 20,
        if served { "served again" } else { "NOT served" }
    );
    if !ok {
        shared.fault(format!("connection flood: {label}"));
    }
    lock(&shared.tally).add("connection flood", &label);
}

/// Sends hostile requests until the run's time is up.
pub fn run(shared: &Shared, mut game: HostileGame) {
    let mut rng = SmallRng::seed_from_u64(0xbad);
    let settings = &shared.settings;
    let run_time = Duration::from_secs_f64(settings.seconds);
    std::thread::scope(|scope| {
        if run_time > settings.idle_time + Duration::from_secs(5) {
            scope.spawn(|| idle_connections(shared, 20));
        }
        // The flood comes at a third of the run, then every two minutes.
        let mut next_flood = shared.started + run_time / 3;
        let mut next_slow = Instant::now();
        let mut slow = Vec::new();
        while !shared.stopping() {
            for (kind, bytes, expected) in simple_kinds(&mut rng) {
                let epoch = shared.server.epoch();
                judge(
                    shared,
                    kind,
                    epoch,
                    exchange(shared.addr, &bytes, TIMEOUT),
                    expected,
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            game.wrong_turn(shared);
            slow.retain(|h: &std::thread::ScopedJoinHandle<()>| !h.is_finished());
            if Instant::now() >= next_slow && slow.len() < 8 {
                slow.push(scope.spawn(|| slow_client(shared)));
                next_slow = Instant::now() + Duration::from_secs(1);
            }
            if Instant::now() >= next_flood {
                flood(shared);
                next_flood = Instant::now() + Duration::from_secs(120);
            }
        }
    });
}
