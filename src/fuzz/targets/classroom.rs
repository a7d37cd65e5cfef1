//! The class server (seed 000's gomoku server): requests as students' clients send them, to a
//! fresh server per input (its data folder in the worker's folder, three students, the
//! built-in engine, and a clock that only moves when the input says `wait`).
//!
//! An input is one request a line: `METHOD URL [CONTENT-TYPE] [BODY]` (the content type is a
//! word with a `/`). In URLs and bodies, `<pw:USER>` stands for USER's password encrypted with
//! the server's key (so that logins can succeed) and `<game>` for the last game id the server
//! gave. Two more lines drive the server's own threads: `wait N` (N seconds pass) and `engine`
//! (the built-in engine plays its move, if it has one to play).
//!
//! The oracle: every answer is a JSON object with a boolean `is_success`; a refusal says why
//! in a non-empty `error` and changes no game; the status is 200, 404 for an unknown path or
//! 405 for an unused method; a successful join gives a game id.

use super::super::grammar::{chance, extreme};
use super::super::{Harness, Target, Workspace};
use crate::classroom::game::MOVE_LIMIT;
use crate::classroom::http_server::respond;
use crate::classroom::rsa::{is_probable_prime, KeyPair, PrivateKey, PublicKey, PUBLIC_EXPONENT};
use crate::classroom::server::{BotSettings, Classroom};
use crate::classroom::store::Store;
use crate::classroom::users::Users;
use crate::engine::gomoku::level::Level;
use crate::game::gomoku::{seed_move_text, Point};
use num_bigint::BigUint;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

pub const TARGET: Target = Target {
    name: "classroom",
    weight: 1,
    about: "the class server's requests: join_game, check_game, play_game, elo, games ...",
    seeds,
    generate,
    words: &[
        "GET",
        "POST",
        "PUT",
        "/join_game",
        "/check_game",
        "/play_game",
        "/public_key",
        "/elo",
        "/games",
        "user",
        "password",
        "coord",
        "name",
        "game_id",
        "<game>",
        "<pw:ann>",
        "application/json",
        "wait",
        "engine",
        "HH",
    ],
    harness,
};

/// The class list of every fuzzed server.
const USERS: &str = "ann pw-ann Ann\nbob pw-bob\ncarl pw-carl Carl C.\n";

/// A key for fuzzing: 128 bits, made once from a fixed seed. The server's own keys are 1024 bits
/// or more, whose private-key arithmetic (a millisecond a login) would make logins the whole
/// cost of the run; the code that uses the key is the same, and the passwords here fit.
pub fn fuzz_key() -> &'static KeyPair {
    static KEY: OnceLock<KeyPair> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut rng = SmallRng::seed_from_u64(0x6b6579);
        let e = BigUint::from(PUBLIC_EXPONENT);
        loop {
            let p = prime(&mut rng);
            let q = prime(&mut rng);
            let one = BigUint::from(1u32);
            let phi = (&p - &one) * (&q - &one);
            if p == q {
                continue;
            }
            if let Some(d) = e.modinv(&phi) {
                let n = p * q;
                return KeyPair {
                    public: PublicKey {
                        e: e.clone(),
                        n: n.clone(),
                    },
                    private: PrivateKey { d, n },
                };
            }
        }
    })
}

/// A random 64-bit prime with its top bit set.
fn prime(rng: &mut SmallRng) -> BigUint {
    loop {
        let mut bytes = [0u8; 8];
        rng.fill_bytes(&mut bytes);
        bytes[0] |= 0x80;
        bytes[7] |= 1;
        let candidate = BigUint::from_bytes_be(&bytes);
        if is_probable_prime(&candidate, 20, rng) {
            return candidate;
        }
    }
}

struct ClassroomHarness {
    dir: PathBuf,
    users: Users,
    /// Each student's password, encrypted.
    passwords: Vec<(String, String)>,
}

fn harness(workspace: &Workspace) -> Box<dyn Harness> {
    let key = fuzz_key();
    let mut rng = SmallRng::seed_from_u64(23);
    let passwords = ["ann", "bob", "carl"]
        .iter()
        .map(|u| {
            let salt: Option<&mut dyn RngCore> = Some(&mut rng);
            let cipher = key
                .public
                .encrypt_password(&format!("pw-{u}"), salt)
                .expect("short passwords fit the key");
            (u.to_string(), cipher)
        })
        .collect();
    Box::new(ClassroomHarness {
        dir: workspace.dir.join("class"),
        users: Users::parse(USERS).expect("a valid class list"),
        passwords,
    })
}

impl ClassroomHarness {
    /// A server with no games: the data folder is emptied first.
    fn fresh(&self, now: Instant) -> Result<Classroom, String> {
        let _ = std::fs::remove_dir_all(self.dir.join("games"));
        let store = Store::open(&self.dir)?;
        let bot = BotSettings {
            user: "stonebrain".to_string(),
            name: "stonebrain (built-in)".to_string(),
            level: Level::Classic,
            move_time: Duration::from_millis(10),
            after: Duration::from_secs(30),
        };
        Classroom::open(
            self.users.clone(),
            fuzz_key().clone(),
            store,
            Some(bot),
            SmallRng::seed_from_u64(29),
            now,
        )
    }

    /// The placeholders of a request line replaced.
    fn expand(&self, text: &str, game: &str) -> String {
        let mut text = text.replace("<game>", game);
        for (user, cipher) in &self.passwords {
            text = text.replace(&format!("<pw:{user}>"), cipher);
        }
        text
    }
}

impl Harness for ClassroomHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let text = String::from_utf8_lossy(input);
        let start = Instant::now();
        let mut now = start;
        let class = Mutex::new(self.fresh(now)?);
        let mut game = String::new();
        for (i, line) in text.lines().enumerate().take(200) {
            let line = line.trim();
            if let Some(n) = line.strip_prefix("wait ") {
                let secs = n.trim().parse::<u64>().unwrap_or(0).min(10_000);
                now += Duration::from_secs(secs);
                continue;
            }
            if line == "engine" {
                engine_move(&class, now);
                continue;
            }
            let mut parts = line.splitn(3, ' ');
            let method = parts.next().unwrap_or("");
            let url = self.expand(parts.next().unwrap_or(""), &game);
            let rest = parts.next().unwrap_or("");
            let (content_type, body) = match rest.split_once(' ') {
                Some((ct, body)) if ct.contains('/') => (ct, body),
                _ if rest.contains('/') && !rest.contains(' ') => (rest, ""),
                _ => ("", rest),
            };
            let body = self.expand(body, &game);
            let before = snapshot(&class, now);
            let (status, answer) =
                respond(&class, method, &url, content_type, || Ok(body), &|| now);
            check(status, &answer).map_err(|e| format!("request {} ({line:?}): {e}", i + 1))?;
            if answer["is_success"] == Value::Bool(false) && snapshot(&class, now) != before {
                return Err(format!(
                    "request {} ({line:?}) was refused but changed a game",
                    i + 1
                ));
            }
            if let Some(id) = answer["game_id"].as_str() {
                game = id.to_string();
            }
        }
        Ok(())
    }
}

/// What a refusal must leave as it was: every game, with the clocks brought up to `now` first
/// (time passing may end a game whatever the request).
fn snapshot(class: &Mutex<Classroom>, now: Instant) -> Value {
    let mut c = class.lock().unwrap_or_else(|e| e.into_inner());
    c.tick(now);
    c.game_list(now)
}

/// The built-in engine's turn, as its thread plays it, with the first empty point.
fn engine_move(class: &Mutex<Classroom>, now: Instant) {
    let mut c = class.lock().unwrap_or_else(|e| e.into_inner());
    let Some((id, moves, _)) = c.engine_turn(now) else {
        return;
    };
    let Some(free) = (0..225u16).find(|p| !moves.contains(p)) else {
        return;
    };
    let _ = c.engine_move(&id, moves.len(), &seed_move_text(free as Point), now);
}

fn check(status: u16, answer: &Value) -> Result<(), String> {
    if ![200, 404, 405].contains(&status) {
        return Err(format!("HTTP status {status}"));
    }
    let success = answer["is_success"]
        .as_bool()
        .ok_or_else(|| format!("no boolean is_success in {answer}"))?;
    if !success {
        let error = answer["error"].as_str().unwrap_or("");
        if error.trim().is_empty() {
            return Err(format!("a refusal without its reason: {answer}"));
        }
    } else if status != 200 {
        return Err(format!("status {status} with a success: {answer}"));
    }
    if let Some(id) = answer.get("game_id").filter(|v| !v.is_null()) {
        let id = id.as_str().unwrap_or("");
        if id.is_empty() || id.len() > 64 {
            return Err(format!("a game id of the wrong form: {answer}"));
        }
    }
    Ok(())
}

// ----- grammar -----

fn coord(rng: &mut SmallRng) -> String {
    if chance(rng, 0.8) {
        let p = rng.gen_range(0..225u16);
        seed_move_text(p)
    } else {
        ["", "hh", "PP", "H", "HHH", "@@", "%48H", "AO", "OA", " HH "]
            .choose(rng)
            .expect("not empty")
            .to_string()
    }
}

fn user(rng: &mut SmallRng) -> &'static str {
    ["ann", "bob", "carl", "zed", "", "stonebrain"]
        .choose(rng)
        .expect("not empty")
}

fn password(rng: &mut SmallRng, user: &str) -> String {
    match rng.gen_range(0..6) {
        0 => "pw-ann".to_string(),
        1 => "zz".to_string(),
        2 => extreme(rng),
        3 => "0x".to_string(),
        _ => format!("<pw:{user}>"),
    }
}

/// A class of students joining, checking and playing, with wrong passwords, moves out of turn or
/// on taken points, broken escapes, other methods and bodies mixed in.
fn generate(rng: &mut SmallRng) -> Vec<u8> {
    let mut lines = Vec::new();
    let players = ["ann", "bob", "carl"];
    for _ in 0..rng.gen_range(1..9) {
        let line = match rng.gen_range(0..16) {
            0..=2 => {
                let u = *players.choose(rng).expect("not empty");
                let name = if chance(rng, 0.2) {
                    "&name=Ann+Liu"
                } else {
                    ""
                };
                format!("GET /join_game?user={u}&password=<pw:{u}>{name}")
            }
            3 => {
                let u = user(rng);
                format!("GET /join_game?user={u}&password={}", password(rng, u))
            }
            4 | 5 => "GET /check_game/<game>".to_string(),
            6..=9 => {
                let u = if chance(rng, 0.9) {
                    *players.choose(rng).expect("not empty")
                } else {
                    user(rng)
                };
                let pw = if chance(rng, 0.9) {
                    format!("<pw:{u}>")
                } else {
                    password(rng, u)
                };
                format!(
                    "GET /play_game/<game>?user={u}&password={pw}&coord={}",
                    coord(rng)
                )
            }
            10 => {
                let u = *players.choose(rng).expect("not empty");
                let body = format!(
                    "{{\"user\":\"{u}\",\"password\":\"<pw:{u}>\",\"coord\":\"{}\",\"game_id\":\"<game>\"}}",
                    coord(rng)
                );
                format!("POST /play_game application/json {body}")
            }
            11 => {
                let u = *players.choose(rng).expect("not empty");
                format!(
                    "POST /join_game application/x-www-form-urlencoded user={u}&password=<pw:{u}>"
                )
            }
            12 => format!(
                "wait {}",
                [5, 31, MOVE_LIMIT.as_secs() + 1, 600]
                    .choose(rng)
                    .expect("not empty")
            ),
            13 => "engine".to_string(),
            14 => [
                "GET /elo",
                "GET /games",
                "GET /public_key",
                "GET /",
                "HEAD /ratings",
            ]
            .choose(rng)
            .expect("not empty")
            .to_string(),
            _ => [
                "PUT /join_game",
                "DELETE /games",
                "GET /nothing/here",
                "GET /check_game",
                "GET /check_game?game_id=<game>",
                "GET /play_game?game_id=<game>&coord=HH",
                "GET /join_game?user=%4",
                "GET /join_game?user=%ff%fe&password=1",
                "POST /join_game application/json [1]",
                "POST /join_game application/json {\"user\":[\"ann\"]}",
                "POST /join_game text/plain {",
                "GET /check_game/%2e%2e",
                "GET /join_game?user=ann&password=<pw:ann>&name=\u{7}",
            ]
            .choose(rng)
            .expect("not empty")
            .to_string(),
        };
        lines.push(line);
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text.into_bytes()
}

fn seeds() -> Vec<Vec<u8>> {
    // A whole game between two students, Black winning with five in a row (either may be Black:
    // the other's moves are then refused as out of turn).
    let mut game = vec![
        "GET /public_key".to_string(),
        "GET /join_game?user=ann&password=<pw:ann>".to_string(),
        "GET /join_game?user=bob&password=<pw:bob>".to_string(),
        "GET /check_game/<game>".to_string(),
    ];
    let black = ["HH", "HI", "HJ", "HK", "HL"];
    let white = ["AA", "AB", "AC", "AD"];
    for i in 0..5 {
        for u in ["ann", "bob"] {
            let c = if i % 2 == 0 {
                black[i.min(4)]
            } else {
                white[i.min(3)]
            };
            game.push(format!(
                "GET /play_game/<game>?user={u}&password=<pw:{u}>&coord={c}"
            ));
        }
    }
    game.extend(["GET /elo".to_string(), "GET /games".to_string()]);
    let lonely = "GET /join_game?user=carl&password=<pw:carl>\nwait 31\nGET /check_game/<game>\n\
                  engine\nGET /check_game/<game>\nwait 61\nGET /check_game/<game>\nGET /elo\n";
    vec![
        format!("{}\n", game.join("\n")).into_bytes(),
        lonely.as_bytes().to_vec(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let workspace = Workspace::create();
        let mut h = harness(&workspace);
        let mut rng = SmallRng::seed_from_u64(31);
        for _ in 0..30 {
            h.run(&generate(&mut rng)).unwrap();
        }
        for seed in seeds() {
            h.run(&seed).unwrap();
        }
        workspace.remove();
    }

    #[test]
    fn the_fuzz_key_works() {
        let k = fuzz_key();
        let c = k.public.encrypt_password("pw-ann", None).unwrap();
        assert_eq!(k.private.decrypt_password(&c).unwrap(), b"pw-ann");
    }
}
