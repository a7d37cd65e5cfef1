//! The class battle server of seed 000 and its client, end to end through the real binary: a
//! server on a loopback port, `stonebrain classroom` clients playing whole games through it,
//! a restart of the server in the middle of a game, every kind of bad request, and the RSA
//! numbers of the seed.

mod common;

use common::bin;
use common::class_server::{start_server, temp_dir};
use num_bigint::BigUint;
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use stonebrain::classroom::rsa::{self, PublicKey};
use stonebrain::game::gomoku::parse_seed_moves;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into()
}

fn get(url: &str, params: &[(&str, &str)]) -> Value {
    let mut r = agent().get(url);
    for (k, v) in params {
        r = r.query(*k, *v);
    }
    let body = r.call().unwrap().body_mut().read_to_string().unwrap();
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{url}: {e}: {body}"))
}

fn key_of(url: &str) -> PublicKey {
    let v = get(&format!("{url}/public_key"), &[]);
    PublicKey::parse(v["public_key"].as_str().unwrap()).unwrap()
}

fn client(url: &str, user: &str, password: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(bin());
    c.args([
        "classroom",
        "--server",
        url,
        "--user",
        user,
        "--password",
        password,
    ]);
    // Fast settings for tests, unless the test gives its own.
    for (flag, value) in [
        ("--poll", "0.05-0.1"),
        ("--move-time", "0.1"),
        ("--retry", "0.2"),
        ("--give-up", "60"),
    ] {
        if !extra.contains(&flag) {
            c.args([flag, value]);
        }
    }
    c.args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Waits for a client to finish (at most `limit`) and returns (success, stdout, stderr).
fn finish(mut child: Child, limit: Duration) -> (bool, String, String) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (
                status.success(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            );
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "client still running after {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The winner really has five in a row: `win_step` is a straight line of at least five of the
/// winner's stones, all on the board.
fn check_win_line(state: &Value) {
    let board = parse_seed_moves(state["board"].as_str().unwrap()).unwrap();
    let line = parse_seed_moves(state["win_step"].as_str().unwrap()).unwrap();
    assert!(line.len() >= 5, "{state}");
    let winner = state["winner"].as_str().unwrap();
    let winner_parity = if state["creator"] == winner {
        state["creator_stone"] == "x"
    } else {
        state["opponent_stone"] == "x"
    };
    let (dx, dy) = (
        (line[1] % 15) as i32 - (line[0] % 15) as i32,
        (line[1] / 15) as i32 - (line[0] / 15) as i32,
    );
    assert!(dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0));
    for w in line.windows(2) {
        assert_eq!((w[1] % 15) as i32 - (w[0] % 15) as i32, dx);
        assert_eq!((w[1] / 15) as i32 - (w[0] / 15) as i32, dy);
    }
    for p in &line {
        let i = board
            .iter()
            .position(|q| q == p)
            .expect("win stone on the board");
        assert_eq!(i % 2 == 0, winner_parity, "the line is the winner's colour");
    }
}

#[test]
fn two_clients_play_a_whole_game_through_a_server_restart() {
    let dir = temp_dir("restart");
    let (server, url) = start_server(&dir, "127.0.0.1:0", &["--no-bot"]);
    let key_before = key_of(&url);
    assert!(key_before.n.bits() >= 1024);
    let alice = client(&url, "alice", "pw-alice", &[]).spawn().unwrap();
    let bob = client(&url, "bob", "pw-bob", &["--name", "Bobby"])
        .spawn()
        .unwrap();

    // Wait until the game is under way, then stop the server in the middle of it.
    let start = Instant::now();
    let (game_id, step_at_stop) = loop {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the game never started"
        );
        let games = get(&format!("{url}/games"), &[]);
        if let Some(g) = games["games"].as_array().and_then(|a| a.first()) {
            let step = g["step"].as_u64().unwrap();
            if step >= 4 {
                break (g["game_id"].as_str().unwrap().to_string(), step);
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(server);
    std::thread::sleep(Duration::from_millis(800));
    let port_bind = url.trim_start_matches("http://").to_string();
    let (_server, url2) = start_server(&dir, &port_bind, &["--no-bot"]);
    assert_eq!(url2, url);
    assert_eq!(key_of(&url), key_before, "the key pair is kept on disk");

    let (alice_ok, alice_out, alice_err) = finish(alice, Duration::from_secs(120));
    let (bob_ok, bob_out, bob_err) = finish(bob, Duration::from_secs(120));
    assert!(
        alice_ok && bob_ok,
        "alice:\n{alice_out}{alice_err}\nbob:\n{bob_out}{bob_err}"
    );

    let state = get(&format!("{url}/check_game/{game_id}"), &[]);
    assert_eq!(state["finished"], true, "{state}");
    assert!(
        state["step"].as_u64().unwrap() > step_at_stop,
        "the game went on after the restart"
    );
    let bob_side = if state["creator"] == "bob" {
        "creator_name"
    } else {
        "opponent_name"
    };
    assert_eq!(state[bob_side], "Bobby");
    // At least one client had to retry while the server was down (the other may have been
    // sleeping between checks).
    assert!(
        format!("{alice_err}{bob_err}").contains("retrying"),
        "alice: {alice_err}\nbob: {bob_err}"
    );
    let table = get(&format!("{url}/elo"), &[]);
    let rows = table["ratings"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    match state["winner"].as_str() {
        Some(winner) => {
            check_win_line(&state);
            // The clients saw the same end.
            let (winner_out, loser_out) = if winner == "alice" {
                (&alice_out, &bob_out)
            } else {
                (&bob_out, &alice_out)
            };
            assert!(
                winner_out.contains("result: we won; Elo 1516.0 (+16.0)"),
                "{winner_out}"
            );
            assert!(
                loser_out.contains("result: we lost; Elo 1484.0 (-16.0)"),
                "{loser_out}"
            );
            // Equal ratings before the game: the winner gains K/2 = 16, the loser gives 16.
            assert_eq!(rows[0]["user"], winner);
            assert_eq!(
                (rows[0]["elo"].as_f64(), rows[1]["elo"].as_f64()),
                (Some(1516.0), Some(1484.0))
            );
            assert_eq!(
                (rows[0]["wins"].as_u64(), rows[1]["losses"].as_u64()),
                (Some(1), Some(1))
            );
        }
        None => {
            // Two equal engines may also fill the board (CI saw it once): then the game is a
            // draw, the board is full, and the ratings do not move.
            let board = parse_seed_moves(state["board"].as_str().unwrap()).unwrap();
            assert_eq!(
                board.len(),
                225,
                "a game without a winner fills the board: {state}"
            );
            assert!(
                state["result"].as_str().unwrap().contains("draw"),
                "{state}"
            );
            for out in [&alice_out, &bob_out] {
                assert!(out.contains("result: a draw; Elo 1500.0 (+0.0)"), "{out}");
            }
            for row in rows {
                assert_eq!(row["elo"].as_f64(), Some(1500.0), "{table}");
                assert_eq!(row["draws"].as_u64(), Some(1), "{table}");
            }
        }
    }

    // A finished game and the ratings survive another restart, and are not counted twice.
    drop(_server);
    std::thread::sleep(Duration::from_millis(300));
    let (_server, _) = start_server(&dir, &port_bind, &["--no-bot"]);
    let again = get(&format!("{url}/check_game/{game_id}"), &[]);
    assert_eq!(
        (again["board"].clone(), again["winner"].clone()),
        (state["board"].clone(), state["winner"].clone())
    );
    assert_eq!(get(&format!("{url}/elo"), &[])["ratings"], table["ratings"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lone_student_plays_the_built_in_engine() {
    let dir = temp_dir("bot");
    let (_server, url) = start_server(
        &dir,
        "127.0.0.1:0",
        &[
            "--bot-after",
            "0.3",
            "--bot-level",
            "classic",
            "--bot-time",
            "0.05",
        ],
    );
    let (ok, out, err) = finish(
        client(&url, "alice", "pw-alice", &["--games", "2"])
            .spawn()
            .unwrap(),
        Duration::from_secs(120),
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("waiting for an opponent"), "{out}");
    assert!(
        out.contains("against stonebrain") || out.contains("stonebrain ("),
        "{out}"
    );
    assert!(out.contains("game 2 of 2"), "{out}");
    assert_eq!(out.matches("game over").count(), 2, "{out}");
    let table = get(&format!("{url}/elo"), &[]);
    let rows = table["ratings"].as_array().unwrap();
    let games_of = |user: &str| {
        rows.iter()
            .find(|r| r["user"] == user)
            .and_then(|r| r["games"].as_u64())
    };
    assert_eq!(
        (games_of("alice"), games_of("stonebrain")),
        (Some(2), Some(2)),
        "{table}"
    );
    assert_eq!(
        get(&format!("{url}/games"), &[])["games"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Everything a client may see about a game, but the ticking clock.
fn snapshot(url: &str, id: &str) -> Value {
    let mut v = get(&format!("{url}/check_game/{id}"), &[]);
    v.as_object_mut().unwrap().remove("left_time");
    v
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let dir = temp_dir("bad");
    let (_server, url) = start_server(&dir, "127.0.0.1:0", &["--no-bot"]);
    let key = key_of(&url);
    let enc = |pw: &str| key.encrypt_password(pw, None).unwrap();
    let (pa, pb) = (enc("pw-alice"), enc("pw-bob"));
    let join = |user: &str, pw: &str| {
        get(
            &format!("{url}/join_game"),
            &[("user", user), ("password", pw)],
        )
    };

    // Bad logins make no game.
    let refused = |v: &Value, needle: &str| {
        assert_eq!(v["is_success"], false, "{v}");
        let e = v["error"].as_str().unwrap_or_default();
        assert!(e.contains(needle), "wanted {needle:?} in {e:?}");
    };
    refused(&join("alice", &pb), "login failed");
    refused(&join("mallory", &pa), "login failed");
    refused(&join("alice", "pw-alice"), "hexadecimal");
    refused(
        &join("alice", &rsa::to_hex(&(&key.n + BigUint::from(5u32)))),
        "larger than",
    );
    refused(
        &get(&format!("{url}/join_game"), &[("user", "alice")]),
        "missing parameter 'password'",
    );
    refused(
        &get(&format!("{url}/join_game"), &[("password", &pa)]),
        "missing parameter 'user'",
    );
    assert_eq!(
        get(&format!("{url}/games"), &[])["games"]
            .as_array()
            .unwrap()
            .len(),
        0
    );

    let id = join("alice", &pa)["game_id"].as_str().unwrap().to_string();
    // Not started yet: no move.
    let play = |user: &str, pw: &str, coord: &str| {
        get(
            &format!("{url}/play_game/{id}"),
            &[("user", user), ("password", pw), ("coord", coord)],
        )
    };
    refused(&play("alice", &pa, "HH"), "waiting for an opponent");
    assert_eq!(join("bob", &pb)["game_id"], id.as_str());
    let state = get(&format!("{url}/check_game/{id}"), &[]);
    let black = state["current_turn"].as_str().unwrap().to_string();
    let (bp, white, wp) = if black == "alice" {
        (&pa, "bob", &pb)
    } else {
        (&pb, "alice", &pa)
    };
    assert_eq!(play(&black, bp, "HH")["is_success"], true);
    let before = snapshot(&url, &id);
    assert_eq!(before["board"], "HH");

    refused(&play(&black, bp, "HI"), "not your turn");
    refused(&play(white, wp, "HH"), "already occupied");
    for coord in ["ZZ", "H", "HHH", "hh", "P1", "A15"] {
        refused(&play(white, wp, coord), "bad coordinate");
    }
    refused(&play(white, "00ff", "HI"), "login failed");
    refused(&play(white, bp, "HI"), "login failed");
    refused(
        &get(
            &format!("{url}/play_game/{id}"),
            &[("user", white), ("password", wp)],
        ),
        "missing parameter 'coord'",
    );
    refused(
        &get(
            &format!("{url}/play_game/{id}"),
            &[("user", white), ("password", wp), ("coord", "")],
        ),
        "'coord' is empty",
    );
    refused(
        &get(&format!("{url}/check_game/nosuchgame"), &[]),
        "no game with id",
    );
    refused(
        &get(
            &format!("{url}/play_game/nosuchgame"),
            &[("user", white), ("password", wp), ("coord", "HI")],
        ),
        "no game with id",
    );
    refused(&get(&format!("{url}/check_game"), &[]), "missing game id");
    // Malformed parameters at the HTTP level: a broken escape, a body that is not an object.
    let raw = agent()
        .get(&format!(
            "{url}/play_game/{id}?user={white}&password=%zz&coord=HI"
        ))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    refused(&serde_json::from_str(&raw).unwrap(), "malformed parameters");
    let mut posted = agent()
        .post(&format!("{url}/play_game/{id}"))
        .header("Content-Type", "application/json")
        .send("[\"HI\"]")
        .unwrap();
    refused(
        &serde_json::from_str(&posted.body_mut().read_to_string().unwrap()).unwrap(),
        "malformed parameters",
    );
    let mut unknown = agent().get(&format!("{url}/no_such_page")).call().unwrap();
    assert_eq!(unknown.status().as_u16(), 404);
    refused(
        &serde_json::from_str(&unknown.body_mut().read_to_string().unwrap()).unwrap(),
        "nothing at",
    );
    let mut put = agent()
        .put(&format!("{url}/play_game/{id}"))
        .send("coord=HI")
        .unwrap();
    assert_eq!(put.status().as_u16(), 405);
    refused(
        &serde_json::from_str(&put.body_mut().read_to_string().unwrap()).unwrap(),
        "method",
    );

    assert_eq!(
        snapshot(&url, &id),
        before,
        "no refused request changed the game"
    );

    // The same move, well formed, by POST form with a salted password, is taken.
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(9);
    let salted = key
        .encrypt_password(
            if white == "alice" {
                "pw-alice"
            } else {
                "pw-bob"
            },
            Some(&mut rng),
        )
        .unwrap();
    let mut ok = agent()
        .post(&format!("{url}/play_game/{id}"))
        .send_form([
            ("user", white),
            ("password", salted.as_str()),
            ("coord", "HI"),
        ])
        .unwrap();
    let v: Value = serde_json::from_str(&ok.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(
        (v["is_success"].as_bool(), v["board"].as_str()),
        (Some(true), Some("HHHI"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_client_never_exits_silently() {
    // Nothing listens on port 1 of this machine: the client retries, then says it gives up.
    let (ok, out, err) = finish(
        client(
            "http://127.0.0.1:1",
            "alice",
            "pw",
            &["--give-up", "1", "--retry", "0.2"],
        )
        .spawn()
        .unwrap(),
        Duration::from_secs(30),
    );
    assert!(!ok, "{out}");
    assert!(err.contains("retrying in"), "{err}");
    assert!(err.contains("error: giving up on public_key"), "{err}");

    let dir = temp_dir("login");
    let (_server, url) = start_server(&dir, "127.0.0.1:0", &["--no-bot"]);
    let (ok, out, err) = finish(
        client(&url, "alice", "wrong", &[]).spawn().unwrap(),
        Duration::from_secs(30),
    );
    assert!(!ok, "{out}");
    assert!(
        err.contains("refused to let alice join: login failed"),
        "{err}"
    );

    // Not an http:// address.
    let (ok, _, err) = finish(
        client("192.168.0.103:8000", "alice", "pw", &[])
            .spawn()
            .unwrap(),
        Duration::from_secs(30),
    );
    assert!(!ok && err.contains("http://HOST:PORT"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_server_refuses_to_start_on_a_broken_class_list() {
    let dir = temp_dir("start");
    // The server's standard error when started with this class list (it must not start).
    let refusal = |class_list: &str| {
        std::fs::write(dir.join("users.txt"), class_list).unwrap();
        let out = Command::new(bin())
            .args(["classroom-server", "--bind", "127.0.0.1:0", "--users"])
            .arg(dir.join("users.txt"))
            .arg("--data")
            .arg(dir.join("data"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "started with {class_list:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(refusal("alice\n").contains("line 1: alice has no password"));
    assert!(refusal("stonebrain pw\n").contains("--bot-user"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Step 5 of the seed asks for four numbers from its own public key; they were computed once
/// with Python's built-in `pow` (an independent implementation) into the test vectors.
#[test]
fn the_seeds_key_and_its_step_5_answers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_vectors/classroom");
    let key_text: String = std::fs::read_to_string(root.join("seed_public_key.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let key = PublicKey::parse(&key_text).unwrap();
    assert_eq!(key.e, BigUint::from(65537u32));
    assert_eq!(key.n.bits(), 1024, "the seed's key is 1024 bits");
    let answers: std::collections::HashMap<String, String> =
        std::fs::read_to_string(root.join("seed_key_answers.txt"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                l.split_once(' ')
                    .map(|(a, b)| (a.to_string(), b.to_string()))
            })
            .collect();
    let m = rsa::text_to_number(b"hello, world!");
    assert_eq!(m.to_string(), answers["str2num"]);
    assert_eq!(
        rsa::power_mod(&BigUint::from(31415926u32), &key.e, &key.n).to_string(),
        answers["num"]
    );
    assert_eq!(
        rsa::power_mod(&m, &key.e, &key.n).to_string(),
        answers["str"]
    );
    assert_eq!(
        key.encrypt_password("hello, world!", None).unwrap(),
        answers["hex"]
    );
    // And the worked example of step 4, through the same functions.
    let toy = PublicKey::parse("5,493").unwrap();
    assert_eq!(
        rsa::power_mod(&BigUint::from(327u32), &toy.e, &toy.n),
        BigUint::from(259u32)
    );
    assert_eq!(
        rsa::power_mod(&BigUint::from(259u32), &BigUint::from(269u32), &toy.n),
        BigUint::from(327u32)
    );
    assert_eq!(rsa::text_to_number(b"abc"), BigUint::from(6382179u32));
}
