//! `stonebrain classroom-server`: the class server over HTTP. The main thread accepts
//! connections (`http_wire`), each served on a thread of its own; one thread keeps the clocks,
//! and one more runs the built-in engine, whose searches take seconds and must not hold up the
//! students' requests.

use super::http_wire::{self, Limits, Request};
use super::params::{parse_body, parse_query};
use super::server::{decrypt_login, failure, BotSettings, Classroom};
use super::store::Store;
use super::think::choose_move;
use super::users::Users;
use crate::engine::gomoku::level;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub struct ServerSettings {
    pub bind: String,
    pub users: PathBuf,
    pub data: PathBuf,
    pub key_bits: u64,
    pub bot: Option<BotSettings>,
    /// What a client may send and how long it may take (see `http_wire`).
    pub limits: Limits,
}

fn lock(class: &Mutex<Classroom>) -> MutexGuard<'_, Classroom> {
    // A panic while holding the lock would poison it; the state is still consistent (every
    // change is made whole before the files are written), so carry on with it.
    class.lock().unwrap_or_else(|e| e.into_inner())
}

fn log(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "classroom-server: {line}");
    let _ = out.flush();
}

/// Starts the server and serves until the process is stopped. Errors are for start-up only.
pub fn serve(settings: ServerSettings) -> Result<(), String> {
    let users = Users::load(&settings.users)?;
    if users.is_empty() {
        return Err(format!("{} lists no users", settings.users.display()));
    }
    let store = Store::open(&settings.data)?;
    let mut rng = SmallRng::from_entropy();
    let (key, new_key) = store.key_pair(settings.key_bits, &mut rng)?;
    store.write_public_key(&key.public)?;
    let class = Classroom::open(users, key, store, settings.bot.clone(), rng, Instant::now())?;
    let listener = TcpListener::bind(&settings.bind)
        .map_err(|e| format!("cannot listen on {}: {e}", settings.bind))?;
    let address = listener
        .local_addr()
        .map_or_else(|_| settings.bind.clone(), |a| a.to_string());
    log(&format!(
        "listening on http://{address} ({} users, {} games, {}-bit key {}, data in {})",
        class.user_count(),
        class.game_count(),
        class.key_bits(),
        if new_key { "generated" } else { "loaded" },
        settings.data.display()
    ));
    let class = Arc::new(Mutex::new(class));
    if let Some(bot) = settings.bot {
        let class = Arc::clone(&class);
        std::thread::spawn(move || run_engine(class, bot));
    }
    // The clocks run out whether or not anyone asks: a game whose player vanished ends on time.
    let clock = Arc::clone(&class);
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(200));
        let mut c = lock(&clock);
        c.tick(Instant::now());
        for event in c.take_events() {
            log(&event);
        }
    });
    let handler = move |request: &Request| answer(&class, request);
    http_wire::serve(listener, settings.limits, Arc::new(handler), log);
    Ok(())
}

/// Answers one request read whole by `http_wire`.
fn answer(class: &Mutex<Classroom>, request: &Request) -> (u16, Value) {
    let content_type = request.header("Content-Type").unwrap_or_default();
    let body = || {
        String::from_utf8(request.body.clone())
            .map_err(|_| "malformed parameters: the body is not UTF-8".to_string())
    };
    let answer = respond(
        class,
        &request.method,
        &request.target,
        content_type,
        body,
        &Instant::now,
    );
    for event in lock(class).take_events() {
        log(&event);
    }
    answer
}

/// The answer to one request, from its parts: the method, the URL (path and query), the
/// content type, and the body, read only for a POST. `now` is read once the request is read.
/// Kept apart from HTTP so that the fuzzer can send requests in-process.
pub fn respond(
    class: &Mutex<Classroom>,
    method: &str,
    url: &str,
    content_type: &str,
    body: impl FnOnce() -> Result<String, String>,
    now: &dyn Fn() -> Instant,
) -> (u16, Value) {
    let is_post = match method {
        "GET" | "HEAD" => false,
        "POST" => true,
        other => {
            return (
                405,
                failure(format!("the method {other} is not used here: GET or POST")),
            )
        }
    };
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut params = match parse_query(query) {
        Ok(p) => p,
        Err(e) => return (200, failure(format!("malformed parameters: {e}"))),
    };
    if is_post {
        match body() {
            Ok(body) => match parse_body(&body, content_type) {
                Ok(p) => params.extend(p),
                Err(e) => return (200, failure(format!("malformed parameters: {e}"))),
            },
            Err(e) => return (200, failure(e)),
        }
    }
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    // A login's RSA decryption is the one slow step of a request: it is done before the
    // lock is taken, so that logins run side by side and nobody waits on another's.
    let login = match segments.as_slice() {
        ["join_game"] | ["play_game"] | ["play_game", _] => {
            let key = lock(class).private_key();
            Some(decrypt_login(&key, &params))
        }
        _ => None,
    };
    let now = now();
    let mut c = lock(class);
    let value = match (segments.as_slice(), login) {
        ([], _) => index(),
        (["public_key"], _) => c.public_key(),
        (["join_game"], Some(login)) => c.join_as(login, &params, now),
        (["check_game", id], _) => c.check(id, now),
        (["check_game"], _) => match params.get("game_id") {
            Some(id) => c.check(id, now),
            None => failure("missing game id: use /check_game/{game_id}"),
        },
        (["play_game"], Some(login)) => match params.get("game_id").cloned() {
            Some(id) => c.play_as_login(&id, login, &params, now),
            None => failure("missing game id: use /play_game/{game_id}"),
        },
        (["play_game", id], Some(login)) => c.play_as_login(id, login, &params, now),
        (["elo"] | ["ratings"], _) => c.ratings(),
        (["games"], _) => c.game_list(now),
        _ => {
            return (
                404,
                failure(format!(
                    "there is nothing at {path}: see / for the endpoints"
                )),
            )
        }
    };
    (200, value)
}

fn index() -> Value {
    json!({
        "is_success": true,
        "message": "stonebrain class server (gomoku, 15x15, seed 000)",
        "endpoints": {
            "/public_key": "the RSA public key: e,n in decimal",
            "/join_game": "user, password (encrypted, hex), optional name -> game_id",
            "/check_game/{game_id}": "the game's state",
            "/play_game/{game_id}": "user, password, coord (row letter then column letter, A-O)",
            "/elo": "the rating table",
            "/games": "every game, newest first",
        }
    })
}

/// The built-in engine's thread: finds a game where it is to move, thinks without holding the
/// lock, then plays if the game has not moved on meanwhile.
fn run_engine(class: Arc<Mutex<Classroom>>, bot: BotSettings) {
    let mut engine = level::build(bot.level, 0x5eed_0000);
    loop {
        let turn = lock(&class).engine_turn(Instant::now());
        let Some((id, moves, left)) = turn else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        // Five seconds of the minute stay in hand for the lock and the answer.
        let time = bot
            .move_time
            .min(left.saturating_sub(Duration::from_secs(5)));
        let Ok((coord, _)) = choose_move(&mut *engine, &moves, time) else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        let mut c = lock(&class);
        c.engine_move(&id, moves.len(), &coord, Instant::now());
        for event in c.take_events() {
            log(&event);
        }
    }
}
