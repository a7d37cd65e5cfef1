//! The referee against misbehaving bots, each a real child process spoken to over Botzone's
//! protocol: every fault loses with the right reason and the opponent is credited.

use std::path::Path;
use std::time::Duration;
use stonebrain::arena::player::TimeControl;
use stonebrain::arena::player::{ArenaGame, GameOptions};
use stonebrain::arena::players::botzone::{BotzoneMode, BotzonePlayer};
use stonebrain::arena::players::builtin::Builtin;
use stonebrain::arena::record::{EndReason, GameRecord};
use stonebrain::arena::referee::play_game;
use stonebrain::game::nogo::Nogo;
use stonebrain::game::Color;

fn script(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_vectors/arena/bots")
        .join(name);
    format!("sh {}", path.display())
}

fn nogo() -> Nogo {
    Nogo::start(&GameOptions::default()).unwrap()
}

fn json() -> BotzoneMode {
    BotzoneMode::from_name("botzone").unwrap()
}

fn keep_running() -> BotzoneMode {
    BotzoneMode::from_name("botzone-keep-running").unwrap()
}

/// The bad bot plays Black against a built-in player that never misbehaves.
fn bad_bot_game(script_name: &str, mode: BotzoneMode, tc: TimeControl) -> GameRecord {
    let mut bad = BotzonePlayer::new("bad", &script(script_name), mode);
    let mut good = Builtin::<Nogo>::from_spec("good", "mcts:200p", 1).unwrap();
    play_game(&mut bad, &mut good, &nogo(), &[], tc)
}

fn clock() -> TimeControl {
    TimeControl {
        per_move: Some(Duration::from_secs(2)),
        per_game: Some(Duration::from_secs(60)),
    }
}

fn assert_lost(rec: &GameRecord, code: &str) {
    assert_eq!(
        rec.winner,
        Some(Color::White),
        "the good side must be credited: {:?}",
        rec.reason
    );
    assert_eq!(rec.reason.code(), code, "reason: {}", rec.reason.describe());
}

#[test]
fn an_illegal_move_loses() {
    let rec = bad_bot_game("illegal.sh", json(), clock());
    assert_lost(&rec, "illegal-move");
    assert!(
        rec.reason.describe().contains("(0,0)"),
        "{}",
        rec.reason.describe()
    );
    assert_eq!(rec.moves.len(), 2, "one legal move each, then the repeat");
}

#[test]
fn sleeping_past_the_clock_loses_on_time() {
    let tc = TimeControl {
        per_move: Some(Duration::from_millis(500)),
        per_game: None,
    };
    let rec = bad_bot_game("sleeper.sh", json(), tc);
    assert_lost(&rec, "timeout");
}

#[test]
fn the_whole_game_clock_is_enforced_too() {
    let tc = TimeControl {
        per_move: None,
        per_game: Some(Duration::from_millis(700)),
    };
    let rec = bad_bot_game("sleeper.sh", json(), tc);
    assert_lost(&rec, "timeout");
}

#[test]
fn a_crash_loses() {
    let rec = bad_bot_game("crasher.sh", json(), clock());
    assert_lost(&rec, "crash");
    assert!(
        rec.reason.describe().contains("status 3"),
        "{}",
        rec.reason.describe()
    );
    // Its last words on standard error come with the report, so that whoever runs the match
    // can see why it died.
    assert!(
        rec.reason.describe().contains("crasher: no luck today"),
        "{}",
        rec.reason.describe()
    );
}

#[test]
fn garbage_loses() {
    let rec = bad_bot_game("garbage.sh", json(), clock());
    assert_lost(&rec, "garbage");
    assert!(rec.reason.describe().contains("somewhere nice"));
}

#[test]
fn closing_stdin_loses() {
    let rec = bad_bot_game("closer.sh", keep_running(), clock());
    assert_lost(&rec, "closed-pipe");
    assert_eq!(
        rec.moves.len(),
        2,
        "its first answer counted; the second request found the pipe closed"
    );
}

#[test]
fn a_forgotten_keep_running_marker_is_caught() {
    let rec = bad_bot_game("nomarker.sh", keep_running(), clock());
    assert_lost(&rec, "missing-marker");
}

#[test]
fn a_program_that_cannot_start_loses() {
    let mut bad = BotzonePlayer::new("ghost", "/nonexistent/bot-binary", json());
    let mut good = Builtin::<Nogo>::from_spec("good", "random", 1).unwrap();
    let rec = play_game(&mut good, &mut bad, &nogo(), &[], clock());
    assert_eq!(rec.winner, Some(Color::Black));
    // The shell starts, then cannot find the program: it exits with status 127.
    assert!(
        matches!(rec.reason, EndReason::Crash(_) | EndReason::StartFailed(_)),
        "{:?}",
        rec.reason
    );
}

#[test]
fn the_real_bot_plays_whole_games_in_every_botzone_mode() {
    let bin = env!("CARGO_BIN_EXE_stonebrain");
    for (proto, flags) in [
        ("botzone", ""),
        ("botzone-keep-running", "--keep-running"),
        ("botzone-simple", ""),
        ("botzone-simple-keep-running", "--keep-running"),
    ] {
        let cmd = format!("{bin} --playouts 400 --seed 5 {flags}");
        let mut bot =
            BotzonePlayer::new("stonebrain", &cmd, BotzoneMode::from_name(proto).unwrap());
        let mut random = Builtin::<Nogo>::from_spec("random", "random", 2).unwrap();
        for bot_black in [true, false] {
            let rec = if bot_black {
                play_game(&mut bot, &mut random, &nogo(), &[], clock())
            } else {
                play_game(&mut random, &mut bot, &nogo(), &[], clock())
            };
            let bot_color = if bot_black {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(rec.winner, Some(bot_color), "{proto}: {:?}", rec.reason);
            assert_eq!(rec.reason.code(), "rules", "{proto}");
            assert!(rec.moves.len() > 20);
            let used = rec.time_used_ms[bot_color.index()];
            assert!(used > 0, "{proto}: the bot's time is measured");
        }
    }
}
