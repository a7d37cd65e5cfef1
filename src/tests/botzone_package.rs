//! The Botzone upload packages (`src/packaging/botzone/`) played the way Botzone plays them:
//! the arena's Botzone player starts `python3 <package>.zip` afresh every turn with the whole
//! history, or keeps one process and freezes it with SIGSTOP between turns (SIGCONT to wake it),
//! and its referee checks every stone. Complete games of NoGo, Gomoku and ConnectSix against a
//! random player, in every mode each game has on Botzone.
//!
//! `make check-botzone` runs these on the packages of `make botzone` (the static musl binary,
//! `STONEBRAIN_BOTZONE_DIR=dist/botzone`); under plain `cargo test` the packages are built from
//! the test build's own binary, so the entry point and the packer are tested everywhere.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;
use stonebrain::arena::duel::MatchConfig;
use stonebrain::arena::player::TimeControl;
use stonebrain::arena::player::{ArenaGame, GameOptions};
use stonebrain::game::connect6::Connect6;
use stonebrain::game::gomoku::Gomoku;
use stonebrain::game::nogo::Nogo;

mod common;

use common::MARKER;

/// The directory holding the six zips, built once per test run unless given.
fn packages() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("STONEBRAIN_BOTZONE_DIR") {
            return PathBuf::from(dir);
        }
        let out = scratch("packages");
        let status = Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/packaging/botzone/pack.py"))
            .arg("--binary")
            .arg(env!("CARGO_BIN_EXE_stonebrain"))
            .arg("--out")
            .arg(&out)
            .stdout(Stdio::null())
            .status()
            .expect("python3 runs pack.py");
        assert!(status.success(), "pack.py failed");
        out
    })
}

/// A fresh directory for this test run.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("botzone-package-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn package(name: &str) -> PathBuf {
    let path = packages().join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

/// The command the arena runs: the package, with a search budget small enough for a test (the
/// package itself would give the bot Python's 6 s a turn).
fn command(zip: &str, budget: &str) -> String {
    format!(
        "env STONEBRAIN_CACHE={} python3 {} {budget}",
        scratch_cache().display(),
        package(zip).display()
    )
}

/// One extraction cache for all the games, as on a judge machine that keeps its files.
fn scratch_cache() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch("cache"))
}

/// Plays `games` games (colours alternate) of the package against the random player in
/// `protocol`, and checks each ended by the rules with the package the winner.
fn play<G: ArenaGame>(zip: &str, protocol: &str, budget: &str, size: Option<usize>, games: u32) {
    let config = MatchConfig {
        games,
        concurrency: 1,
        // Botzone's limit for a Python bot is 6 s a turn; these searches take milliseconds.
        tc: TimeControl {
            per_move: Some(Duration::from_secs(6)),
            per_game: None,
        },
        seed: 11,
        options: GameOptions {
            size,
            ..GameOptions::default()
        },
        sprt: None,
    };
    common::wins_every_game_against_random::<G>(zip, &command(zip, budget), protocol, &config);
}

#[test]
fn nogo_full_history_and_simple_interaction() {
    play::<Nogo>("botzone-nogo.zip", "botzone", "--playouts 400", None, 2);
    play::<Nogo>(
        "botzone-nogo.zip",
        "botzone-simple",
        "--playouts 400",
        None,
        2,
    );
}

#[test]
fn nogo_keep_running_frozen_between_turns() {
    let zip = "botzone-nogo-keep-running.zip";
    play::<Nogo>(zip, "botzone-keep-running", "--playouts 400", None, 2);
    play::<Nogo>(
        zip,
        "botzone-simple-keep-running",
        "--playouts 400",
        None,
        2,
    );
}

#[test]
fn gomoku_full_history_and_keep_running() {
    play::<Gomoku>("botzone-gomoku.zip", "botzone", "--playouts 3000", None, 2);
    let zip = "botzone-gomoku-keep-running.zip";
    play::<Gomoku>(zip, "botzone-keep-running", "--playouts 3000", None, 2);
}

#[test]
fn connect6_on_botzones_board_in_every_mode() {
    let (full, kept) = ("botzone-connect6.zip", "botzone-connect6-keep-running.zip");
    for (zip, protocol) in [
        (full, "botzone"),
        (full, "botzone-simple"),
        (kept, "botzone-keep-running"),
        (kept, "botzone-simple-keep-running"),
    ] {
        play::<Connect6>(zip, protocol, "--playouts 3000", Some(15), 2);
    }
}

/// Starts a package by hand, with its own cache directory.
fn start(zip: &str, cache: &Path) -> std::process::Child {
    Command::new("python3")
        .arg(package(zip))
        .args(["--playouts", "500"])
        .env("STONEBRAIN_CACHE", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 starts the package")
}

fn answer_once(zip: &str, cache: &Path, input: &str) -> String {
    let mut child = start(zip, cache);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The files of the extraction cache, by name.
fn cached_files(cache: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(cache).unwrap() {
        for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            files.push(file.unwrap().path());
        }
    }
    files
}

#[test]
fn the_binary_is_extracted_once_and_reused_by_later_turns() {
    use std::os::unix::fs::MetadataExt;
    let cache = scratch("extract-once");
    let first = r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#;
    let answer = answer_once("botzone-gomoku.zip", &cache, first);
    assert!(answer.contains(r#""response":{"x":"#), "{answer}");
    let files = cached_files(&cache);
    assert_eq!(files.len(), 1, "one binary, no partial file: {files:?}");
    let written = std::fs::metadata(&files[0]).unwrap();
    assert!(written.mode() & 0o111 != 0, "the binary is executable");
    // The next turn, a fresh process with the history, runs the same file.
    let later = r#"{"requests":[{"x":-1,"y":-1},{"x":8,"y":8}],"responses":[{"x":7,"y":7}]}"#;
    let answer = answer_once("botzone-gomoku.zip", &cache, later);
    assert!(answer.contains(r#""response":{"x":"#), "{answer}");
    let files_after = cached_files(&cache);
    assert_eq!(files_after, files);
    let reused = std::fs::metadata(&files[0]).unwrap();
    assert_eq!(reused.ino(), written.ino(), "not written again");
    assert_eq!(reused.mtime_nsec(), written.mtime_nsec());
}

#[test]
fn an_unusable_cache_directory_falls_back_to_the_next() {
    // A directory cannot be made inside a regular file: the package must move on (to the
    // temporary directory) and still answer.
    let blocker = scratch("blocked").join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let first = r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#;
    let answer = answer_once("botzone-nogo.zip", &blocker.join("cache"), first);
    assert!(answer.contains(r#""response":{"x":"#), "{answer}");
}

#[test]
fn the_package_becomes_the_bot_process_with_its_game_and_mode() {
    let cache = scratch("exec");
    let mut child = start("botzone-connect6-keep-running.zip", &cache);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(
        stdin,
        r#"{{"requests":[{{"x0":-1,"y0":-1,"x1":-1,"y1":-1}}],"responses":[]}}"#
    )
    .unwrap();
    let mut answer = String::new();
    stdout.read_line(&mut answer).unwrap();
    // ConnectSix's answer (the game came from the package), Black's one opening stone.
    assert!(answer.contains(r#""x1":-1"#), "{answer}");
    let mut marker = String::new();
    stdout.read_line(&mut marker).unwrap();
    assert_eq!(marker.trim(), MARKER);
    // The same process (os.execv, no Python left in between) runs the extracted binary, told
    // the game, the mode and Python's time limits.
    let proc_dir = PathBuf::from(format!("/proc/{}", child.id()));
    let exe = std::fs::read_link(proc_dir.join("exe")).unwrap();
    assert_eq!(exe, cached_files(&cache)[0]);
    let cmdline = std::fs::read(proc_dir.join("cmdline")).unwrap();
    let args: Vec<String> = cmdline
        .split(|&b| b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    for expected in [
        &["--game", "connect6"][..],
        &["--botzone-language", "python"],
        &["--keep-running"],
        &["--playouts", "500"],
    ] {
        assert!(
            args.windows(expected.len()).any(|w| w == expected),
            "{expected:?} not in {args:?}"
        );
    }
    // The margin covers what Python spent before the exec (some milliseconds over 150).
    let margin = args
        .iter()
        .position(|a| a == "--margin-ms")
        .and_then(|i| args[i + 1].parse::<u64>().ok())
        .expect("--margin-ms N");
    assert!(margin > 150, "{margin}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
