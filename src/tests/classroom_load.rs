//! The class-server load test (`make load`) scaled down for CI: a few seconds, ten accounts,
//! one kill -9 under load, every hostile kind; the audit must pass. And the audit must be able
//! to fail: with a finished game's file removed before the final restart, it does.

use std::path::PathBuf;
use std::time::Duration;
use stonebrain::classroom::load::{report, run, LoadSettings};

fn slice(tag: &str, seconds: f64, kills: usize) -> LoadSettings {
    let mut s = LoadSettings::new(PathBuf::from(env!("CARGO_BIN_EXE_stonebrain")));
    s.seconds = seconds;
    s.accounts = 10;
    s.games = 5;
    s.kills = kills;
    s.request_time = Duration::from_secs(1);
    s.idle_time = Duration::from_secs(2);
    s.max_connections = 100;
    s.poll = Duration::from_millis(20);
    s.work_dir =
        Some(std::env::temp_dir().join(format!("stonebrain-load-{tag}-{}", std::process::id())));
    s
}

#[test]
fn a_short_load_with_a_kill_passes_the_audit() {
    let settings = slice("slice", 8.0, 1);
    let dir = settings.work_dir.clone().unwrap();
    let r = run(settings).expect("the load test runs");
    let text = report::render(&r);
    assert!(r.passed(), "{text}");
    assert!(r.games_finished >= 5, "{text}");
    assert_eq!(r.kills.len(), 1, "{text}");
    for kind in [
        "bad cipher text",
        "wrong turn",
        "replayed move",
        "huge Content-Length",
        "oversized body",
        "garbage request line",
        "over-long header",
        "HTTP/2.0 request",
        "chunked body",
        "unknown method",
        "slow client",
        "idle connection",
        "connection flood",
    ] {
        assert!(r.hostile.answers.contains_key(kind), "no {kind:?}: {text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_audit_fails_when_a_finished_game_is_lost() {
    let mut settings = slice("sabotage", 3.0, 0);
    settings.sabotage = true;
    let dir = settings.work_dir.clone().unwrap();
    let r = run(settings).expect("the load test runs");
    let text = report::render(&r);
    assert!(!r.passed(), "{text}");
    assert!(
        r.faults.iter().any(|f| f.contains("its file is gone")),
        "{text}"
    );
    assert!(r.faults.iter().any(|f| f.contains("rating")), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}
