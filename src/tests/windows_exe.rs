//! The Windows executable of `make windows`, run under Wine as the SAU platform and a Gomocup
//! manager would run it: started with no arguments, flags from the `.args` file next to it,
//! the protocol and game from its name, commands ending in `\r\n` (and SAU's NUL bytes), and
//! complete games refereed by the arena.
//!
//! These need the .exe and Wine, so they are ignored by `cargo test`; `make check-windows`
//! builds both and runs them (`STONEBRAIN_WINDOWS_DIR`, `STONEBRAIN_WINE`,
//! `STONEBRAIN_WINE_SHIM`: see the Makefile).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;
use stonebrain::arena::duel::MatchConfig;
use stonebrain::arena::player::TimeControl;
use stonebrain::arena::player::{ArenaGame, GameOptions};
use stonebrain::game::connect6::Connect6;
use stonebrain::game::gomoku::Gomoku;

fn exe() -> PathBuf {
    let dir = std::env::var_os("STONEBRAIN_WINDOWS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/windows"));
    let exe = dir.join("stonebrain.exe");
    assert!(exe.is_file(), "{} is missing: make windows", exe.display());
    exe
}

fn wine() -> String {
    match std::env::var("STONEBRAIN_WINE") {
        Ok(w) if !w.is_empty() => w,
        _ => "/usr/lib/wine/wine64".to_string(),
    }
}

/// A folder as a user would set one up: the .exe under `name`, and `args` (if any) in
/// `<stem>.args` beside it. Wine 8 lacks a library Rust programs load at start on Windows 10
/// and later: the test stand-in goes beside the .exe too.
fn install(folder: &str, name: &str, args: Option<&str>) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("windows-exe-{}", std::process::id()))
        .join(folder);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join(name);
    std::fs::copy(exe(), &target).unwrap();
    if let Some(args) = args {
        let stem = Path::new(name).file_stem().unwrap().to_str().unwrap();
        std::fs::write(dir.join(format!("{stem}.args")), args).unwrap();
    }
    if let Some(shim) = std::env::var_os("STONEBRAIN_WINE_SHIM") {
        std::fs::copy(shim, dir.join("bcryptprimitives.dll")).unwrap();
    }
    target
}

/// The command line that runs `exe` under Wine, for the arena's shell: a prefix of its own
/// (made on first use), and Wine's own messages off.
fn under_wine(exe: &Path) -> String {
    let prefix = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wine-prefix");
    format!(
        "env WINEPREFIX={} WINEDEBUG=-all {} {}",
        prefix.display(),
        wine(),
        exe.display()
    )
}

/// Wine makes its prefix (its C: drive and registry) on first use, which takes seconds, longer
/// than a platform waits for `name?`: a first run with empty input, once, does it before any
/// test's clock starts.
fn prepare_wine() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let exe = install("prefix", "stonebrain.exe", None);
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {}", under_wine(&exe)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("wine starts");
        assert!(status.success(), "stonebrain.exe on empty input: {status}");
    });
}

/// Starts `exe` under Wine with pipes, as a platform does.
fn start(exe: &Path) -> Child {
    prepare_wine();
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec {}", under_wine(exe)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("wine starts")
}

/// Lines of `child`'s output as they come, with a deadline for each.
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    let out = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

fn next_line(lines: &mpsc::Receiver<String>, what: &str) -> String {
    // The first start of Wine makes its prefix, which takes seconds.
    lines
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("no answer to {what}"))
}

/// Plays `games` games of the .exe (as `command`, over `protocol`) against the random player and
/// checks each ended by the rules, won by the .exe.
fn play<G: ArenaGame>(command: &str, protocol: &str, tc: TimeControl, games: u32) {
    prepare_wine();
    let config = MatchConfig {
        games,
        concurrency: 1,
        tc,
        seed: 5,
        options: GameOptions::default(),
        sprt: None,
    };
    common::wins_every_game_against_random::<G>("the .exe", command, protocol, &config);
}

#[test]
#[ignore = "needs the .exe and Wine: run by make check-windows"]
fn sau_reads_its_args_file_and_windows_line_ends() {
    // The platform starts the engine with no arguments: the name comes from stonebrain.args.
    let exe = install("sau-args", "stonebrain.exe", Some("--name WineBot\r\n"));
    let mut child = start(&exe);
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    // Old platform builds send a NUL after each command; lines end in CR LF.
    stdin.write_all(b"name?\0\r\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(&lines, "name?").trim_end(), "name WineBot");
    stdin.write_all(b"new black\0\r\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(&lines, "new black").trim_end(), "move JJ@@");
    stdin.write_all(b"quit\r\n").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}

#[test]
#[ignore = "needs the .exe and Wine: run by make check-windows"]
fn sau_games_to_the_end_under_wine() {
    // 200 ms a turn (from the args file) keeps the games short; SAU's own clock is the
    // engine's business, so the arena gives the whole class limit of 3 minutes.
    let exe = install("sau-games", "stonebrain.exe", Some("--time-ms 200\n"));
    let tc = TimeControl {
        per_move: None,
        per_game: Some(Duration::from_secs(180)),
    };
    play::<Connect6>(&under_wine(&exe), "sau", tc, 2);
}

#[test]
#[ignore = "needs the .exe and Wine: run by make check-windows"]
fn gomocup_brain_named_pbrain_plays_games_under_wine() {
    // No flags anywhere: the name alone makes it a Gomocup brain. The manager's INFO lines
    // give 1 s a move.
    let exe = install("gomocup", "pbrain-stonebrain.exe", None);
    let mut child = start(&exe);
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"ABOUT\r\n").unwrap();
    stdin.flush().unwrap();
    let about = next_line(&lines, "ABOUT");
    assert!(about.starts_with("name=\"stonebrain\""), "{about}");
    stdin.write_all(b"END\r\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());

    let tc = TimeControl {
        per_move: Some(Duration::from_secs(1)),
        per_game: None,
    };
    play::<Gomoku>(&under_wine(&exe), "gomocup", tc, 2);
}
