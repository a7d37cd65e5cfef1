//! 100 complete games against a random legal player in each Botzone mode, through the real
//! binary: every game won, every answer legal and well-formed.

mod common;

use common::{play_vs_random, Mode};
use stonebrain::game::{Color, Outcome};

const GAMES: u64 = 100;

fn hundred_games(mode: Mode) {
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if g >= GAMES {
                    break;
                }
                let color = if g.is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                let seed = (1000 + g).to_string();
                let args = [
                    "--game",
                    "nogo",
                    "--playouts",
                    "50",
                    "--time-ms",
                    "60000",
                    "--seed",
                    &seed,
                ];
                let verdict = match play_vs_random(mode, color, &args, g) {
                    Ok(rec) if rec.outcome == Outcome::Win(color) => None,
                    Ok(rec) => Some(format!(
                        "game {g} ({}) lost: {:?}",
                        color.name(),
                        rec.outcome
                    )),
                    Err(e) => Some(format!("game {g} ({}): {e}", color.name())),
                };
                if let Some(v) = verdict {
                    failures.lock().unwrap().push(v);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {GAMES} games failed in {}:\n{}",
        failures.len(),
        mode.name(),
        failures.join("\n")
    );
}

#[test]
fn full_history_json_wins_all_games() {
    hundred_games(Mode::Json);
}

#[test]
fn keep_running_json_wins_all_games() {
    hundred_games(Mode::JsonKeepRunning);
}

#[test]
fn simple_interaction_wins_all_games() {
    hundred_games(Mode::Simple);
}

#[test]
fn simple_keep_running_wins_all_games() {
    hundred_games(Mode::SimpleKeepRunning);
}
