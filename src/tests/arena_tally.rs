//! `stonebrain tally` reads back what `stonebrain arena --out` wrote: on a match played two games
//! at a time (so the games end out of order) it finds the arena's own score, pairs and Elo, and
//! two runs pooled count every game of both.

use std::path::{Path, PathBuf};

mod common;

/// Runs the binary once with no input: (whether it succeeded, stdout, stderr).
fn stonebrain(args: &[&str]) -> (bool, String, String) {
    let (stdout, stderr, code) = common::run_once(args, "");
    (code == Some(0), stdout, stderr)
}

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "stonebrain-tally-{name}-{}.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// The arguments of a NoGo match of `games` games between `weak` and `strong`, written to `out`.
fn match_args<'a>(games: &'a str, seed: &'a str, out: &'a Path) -> Vec<&'a str> {
    vec![
        "arena",
        "--game",
        "nogo",
        "--games",
        games,
        "--seed",
        seed,
        "--engine",
        "name=weak",
        "builtin=mcts:30p",
        "--engine",
        "name=strong",
        "builtin=mcts:300p",
        "--out",
        out.to_str().unwrap(),
    ]
}

/// A NoGo match of `games` games, two at a time, written to `out`; the arena's stdout.
fn play(out: &Path, games: &str, seed: &str) -> String {
    let mut args = match_args(games, seed, out);
    args.extend(["--concurrency", "2"]);
    let (ok, stdout, stderr) = stonebrain(&args);
    assert!(ok, "{stdout}{stderr}");
    stdout
}

/// The lines of `text` that start with `prefix`.
fn lines_from<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn tally_finds_the_arena_s_own_score_and_pools_runs() {
    let (first, second) = (temp_file("first"), temp_file("second"));
    let played = play(&first, "8", "3");
    // Every game carries its number, 0 to 7, whatever order they ended in.
    let text = std::fs::read_to_string(&first).unwrap();
    let mut numbers: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (0..8).collect::<Vec<u64>>());

    let (ok, tallied, stderr) = stonebrain(&["tally", first.to_str().unwrap(), "--for", "weak"]);
    assert!(ok, "{tallied}{stderr}");
    for prefix in [
        "weak vs strong: 8 games",
        "W-D-L",
        "pairs",
        "Elo difference",
    ] {
        let (a, b) = (lines_from(&played, prefix), lines_from(&tallied, prefix));
        assert!(
            !a.is_empty(),
            "the arena printed no {prefix:?} line:\n{played}"
        );
        assert_eq!(a, b, "arena:\n{played}\ntally:\n{tallied}");
    }
    assert!(tallied.contains("weak as Black"), "{tallied}");
    assert!(tallied.contains("weak's turns:"), "{tallied}");

    // A second run pooled with the first: 12 games, 6 pairs, and the SPRT's standing.
    play(&second, "4", "4");
    let (ok, pooled, stderr) = stonebrain(&[
        "tally",
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        "--for",
        "strong",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ]);
    assert!(ok, "{pooled}{stderr}");
    assert!(
        pooled.contains("strong vs weak: 12 games (6 pairs)"),
        "{pooled}"
    );
    assert!(
        lines_from(&pooled, "SPRT elo0=0 elo1=50").len() == 1,
        "{pooled}"
    );
    let _ = std::fs::remove_file(&first);
    let _ = std::fs::remove_file(&second);
}

#[test]
fn tally_refuses_what_it_cannot_read() {
    let (ok, _, stderr) = stonebrain(&["tally", "/nonexistent/games.jsonl"]);
    assert!(!ok);
    assert!(
        stderr.contains("cannot read /nonexistent/games.jsonl"),
        "{stderr}"
    );

    let bad = temp_file("bad");
    std::fs::write(
        &bad,
        "{\"black\":\"a\",\"white\":\"b\",\"winner\":\"black\"}\nnot json\n",
    )
    .unwrap();
    let (ok, _, stderr) = stonebrain(&["tally", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("line 2: not a game record"), "{stderr}");
    std::fs::write(
        &bad,
        "{\"black\":\"a\",\"white\":\"b\",\"winner\":\"black\"}\n",
    )
    .unwrap();
    let (ok, _, stderr) = stonebrain(&["tally", bad.to_str().unwrap(), "--for", "nobody"]);
    assert!(!ok);
    assert!(stderr.contains("without nobody"), "{stderr}");
    let _ = std::fs::remove_file(&bad);
}

/// `arena --continue` carries a match on from its earlier runs' files: the score it prints at
/// the end is the pooled one (the same as `tally` of all the files), and a sequential test
/// already decided by the earlier games plays nothing more.
#[test]
fn arena_continues_a_match_from_its_earlier_runs() {
    let (first, second) = (temp_file("cont-first"), temp_file("cont-second"));
    play(&first, "4", "5");
    let continued = |earlier: &Path, out: &Path, extra: &[&str]| {
        let mut args = match_args("4", "6", out);
        args.extend(["--continue", earlier.to_str().unwrap()]);
        args.extend_from_slice(extra);
        stonebrain(&args)
    };
    let (ok, stdout, stderr) = continued(&first, &second, &[]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stderr.contains("continuing from 4 earlier games"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&second).unwrap().lines().count(), 4);
    let (ok, pooled, stderr) = stonebrain(&[
        "tally",
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        "--for",
        "weak",
    ]);
    assert!(ok, "{pooled}{stderr}");
    for prefix in ["weak vs strong: 8 games (4 pairs)", "W-D-L", "pairs"] {
        let (a, b) = (lines_from(&stdout, prefix), lines_from(&pooled, prefix));
        assert_eq!(a.len(), 1, "arena:\n{stdout}");
        assert_eq!(a, b, "arena:\n{stdout}\ntally:\n{pooled}");
    }

    // Forty earlier games, every one lost by weak: the test of weak being 50 Elo better has
    // already accepted H0, so no game is started and the verdict is the earlier games'.
    let lost = temp_file("cont-lost");
    let lines: Vec<String> = (0..40)
        .map(|i| {
            let (black, white, winner) = if i % 2 == 0 {
                ("weak", "strong", "white")
            } else {
                ("strong", "weak", "black")
            };
            format!(r#"{{"black":"{black}","white":"{white}","winner":"{winner}","index":{i}}}"#)
        })
        .collect();
    std::fs::write(&lost, lines.join("\n")).unwrap();
    let (ok, stdout, stderr) = continued(&lost, &second, &["--sprt", "elo0=0", "elo1=50"]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("weak vs strong: 40 games (20 pairs)"),
        "{stdout}"
    );
    assert!(stdout.contains("H0 accepted after 20 pairs"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&second).unwrap(), "");

    // Another match's games, or the new games written over the old: refused.
    let (ok, _, stderr) = stonebrain(&[
        "arena",
        "--engine",
        "name=weak",
        "builtin=mcts:30p",
        "--engine",
        "name=other",
        "builtin=random",
        "--continue",
        first.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("not against other"), "{stderr}");
    let (ok, _, stderr) = continued(&first, &first, &[]);
    assert!(!ok);
    assert!(stderr.contains("also given to --continue"), "{stderr}");
    for f in [&first, &second, &lost] {
        let _ = std::fs::remove_file(f);
    }
}
