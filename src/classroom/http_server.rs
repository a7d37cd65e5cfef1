//! `stonebrain classroom-server`: the class server over HTTP. The main thread accepts requests
//! and keeps the clocks; each request is answered on a thread of its own; one more thread runs
//! the built-in engine, whose searches take seconds and must not hold up the students' requests.

use super::params::{parse_body, parse_query};
use super::server::{failure, BotSettings, Classroom};
use super::store::Store;
use super::think::choose_move;
use super::users::Users;
use crate::engine::gomoku_level;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub struct ServerSettings {
    pub bind: String,
    pub users: PathBuf,
    pub data: PathBuf,
    pub key_bits: u64,
    pub bot: Option<BotSettings>,
}

/// Bodies larger than this are refused: the requests here are a few hundred bytes.
const MAX_BODY: u64 = 64 * 1024;

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
    let server = tiny_http::Server::http(&settings.bind)
        .map_err(|e| format!("cannot listen on {}: {e}", settings.bind))?;
    let address = server
        .server_addr()
        .to_ip()
        .map_or_else(|| settings.bind.clone(), |a| a.to_string());
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
    loop {
        let request = match server.recv_timeout(Duration::from_millis(200)) {
            Ok(r) => r,
            Err(e) => {
                log(&format!("ERROR: accepting a request: {e}"));
                std::thread::sleep(Duration::from_millis(200));
                None
            }
        };
        if let Some(request) = request {
            // Each request on its own thread: a client that sends its body slowly holds up
            // nobody but itself (the state is locked only once the request is read).
            let class = Arc::clone(&class);
            std::thread::spawn(move || answer(&class, request));
        }
        let mut c = lock(&class);
        c.tick(Instant::now());
        for event in c.take_events() {
            log(&event);
        }
    }
}

/// Routes one request and sends the answer.
fn answer(class: &Mutex<Classroom>, mut request: tiny_http::Request) {
    let (status, body) = route(class, &mut request);
    let header = tiny_http::Header::from_bytes(
        &b"Content-Type"[..],
        &b"application/json; charset=utf-8"[..],
    );
    let mut response = tiny_http::Response::from_string(body.to_string()).with_status_code(status);
    if let Ok(h) = header {
        response = response.with_header(h);
    }
    // A client that hung up is its own problem; the server goes on.
    let _ = request.respond(response);
}

fn route(class: &Mutex<Classroom>, request: &mut tiny_http::Request) -> (u16, Value) {
    let method = request.method().clone();
    let url = request.url().to_string();
    let content_type = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Content-Type"))
        .map(|h| h.value.as_str().to_string())
        .unwrap_or_default();
    let answer = respond(
        class,
        &method,
        &url,
        &content_type,
        || read_body(request),
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
    method: &tiny_http::Method,
    url: &str,
    content_type: &str,
    body: impl FnOnce() -> Result<String, String>,
    now: &dyn Fn() -> Instant,
) -> (u16, Value) {
    use tiny_http::Method;
    let is_post = match method {
        Method::Get | Method::Head => false,
        Method::Post => true,
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
    let now = now();
    let mut c = lock(class);
    let value = match segments.as_slice() {
        [] => index(),
        ["public_key"] => c.public_key(),
        ["join_game"] => c.join(&params, now),
        ["check_game", id] => c.check(id, now),
        ["check_game"] | ["play_game"] => match params.get("game_id").cloned() {
            Some(id) if segments[0] == "check_game" => c.check(&id, now),
            Some(id) => c.play(&id, &params, now),
            None => failure(format!("missing game id: use /{}/{{game_id}}", segments[0])),
        },
        ["play_game", id] => c.play(id, &params, now),
        ["elo"] | ["ratings"] => c.ratings(),
        ["games"] => c.game_list(now),
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

fn read_body(request: &mut tiny_http::Request) -> Result<String, String> {
    if request.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return Err(format!("the request body is larger than {MAX_BODY} bytes"));
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the request body: {e}"))?;
    if bytes.len() as u64 > MAX_BODY {
        return Err(format!("the request body is larger than {MAX_BODY} bytes"));
    }
    String::from_utf8(bytes).map_err(|_| "malformed parameters: the body is not UTF-8".to_string())
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
    let mut engine = gomoku_level::build(bot.level, 0x5eed_0000);
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
