//! The soak inside `make test`: two games of every pair (one with each colour) between two copies
//! of the release binary, through the arena with real processes, with the same verdict as
//! `make soak`'s 3,000 games: every pair played, no fault of any kind, every answer within its
//! limit. Then `stonebrain-soak` itself against a bot that crashes, which must fail and name
//! every fault.

use std::process::Command;
use std::time::Instant;
use stonebrain::soak::plan::soak_pairs;
use stonebrain::soak::run::RunSettings;
use stonebrain::soak::soak;

const PER_PAIR: u32 = 2;

#[test]
fn a_slice_of_every_pair_plays_clean() {
    let pairs = soak_pairs();
    let on_game = |_: &str, _: &_, _: Option<&_>| {};
    let settings = RunSettings {
        binary: env!("CARGO_BIN_EXE_stonebrain"),
        concurrency: 2,
        seed: 16,
        on_game: &on_game,
    };
    let started = Instant::now();
    let summary = soak(&pairs, PER_PAIR * pairs.len() as u32, &settings).unwrap();
    println!(
        "{} games in {:.1} s",
        summary.games(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(summary.pairs.len(), pairs.len());
    for (pair, r) in pairs.iter().zip(&summary.pairs) {
        assert_eq!(r.label, pair.label());
        assert_eq!(r.games, PER_PAIR, "{}", r.label);
        assert!(r.faults.is_empty(), "{}: {:?}", r.label, r.faults);
        assert!(r.answers >= 2 * u64::from(PER_PAIR), "{}", r.label);
        if let Some(limit) = pair.tc.per_move {
            assert!(r.slowest <= limit, "{}: {:?}", r.label, r.slowest);
        }
        if let Some(clock) = pair.tc.per_game {
            assert!(r.most_clock <= clock, "{}: {:?}", r.label, r.most_clock);
        }
    }
    assert!(summary.faults().is_empty());
}

#[test]
fn the_soak_fails_and_names_every_fault() {
    let crasher = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/test_vectors/arena/bots/crasher.sh"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_stonebrain-soak"))
        .args(["play", "--games", "13", "--binary", crasher])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("13 faults"), "{stdout}");
    assert_eq!(stdout.matches("FAULT ").count(), 13, "{stdout}");
    assert!(stdout.contains("FAULT nogo gtp game 1:"), "{stdout}");
    assert!(stdout.trim_end().ends_with("FAIL"), "{stdout}");
}
