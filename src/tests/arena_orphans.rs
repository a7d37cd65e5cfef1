//! A match ended by a signal takes its bots with it. Between its turns a keep-running bot is
//! frozen (SIGSTOP, as on Botzone), and a stopped process acts on no signal but SIGKILL and
//! SIGCONT: an arena killed then must not leave it stopped for ever.
#![cfg(target_os = "linux")]

mod common;

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The fields of `/proc/PID/stat` after the program's name (state, parent, process group ...),
/// `None` if the process is gone.
fn stat_fields(pid: i32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name in parentheses may hold spaces; the fields follow its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// The state letter of `/proc/PID/stat` (`R`, `S`, `T` stopped, `Z` zombie), `None` if gone.
fn state(pid: i32) -> Option<char> {
    stat_fields(pid)?.first()?.chars().next()
}

/// The process group of `pid`, `None` if gone.
fn process_group(pid: i32) -> Option<i32> {
    stat_fields(pid)?.get(2)?.parse().ok()
}

fn pids_in(file: &std::path::Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Kills whatever bots the file names when the test ends, passed or failed, so that a failure
/// leaves nothing behind either.
struct Sweep(std::path::PathBuf);

impl Drop for Sweep {
    fn drop(&mut self) {
        for pid in pids_in(&self.0) {
            if matches!(state(pid), Some(s) if s != 'Z') {
                // SAFETY: kill(2); the pid was a bot of this test and is not yet reaped.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A fresh file for the bots of the test `tag` to write their pids to, and the sweep that
/// kills them when the test ends.
fn pid_file(tag: &str) -> (std::path::PathBuf, Sweep) {
    let file = std::env::temp_dir().join(format!("stonebrain-{tag}-{}.pids", std::process::id()));
    let _ = std::fs::remove_file(&file);
    (file.clone(), Sweep(file))
}

/// A keep-running bot that writes its pid to `pid_file`, then becomes the engine (exec keeps
/// the pid). `dollars` is how `$$` must be written to reach the bot's own shell.
fn bot(pid_file: &std::path::Path, playouts: u32, dollars: &str) -> String {
    format!(
        "sh -c 'echo {dollars} >> {}; exec {} --game nogo --keep-running --playouts {playouts}'",
        pid_file.display(),
        common::bin()
    )
}

/// Waits for both bots, and for one of them frozen between its turns: the pids, and the frozen
/// one's.
fn a_frozen_bot(pid_file: &std::path::Path) -> (Vec<i32>, i32) {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let pids = pids_in(pid_file);
        if let Some(&p) = pids.iter().find(|&&p| state(p) == Some('T')) {
            if pids.len() >= 2 {
                return (pids, p);
            }
        }
        assert!(
            Instant::now() < until,
            "no bot frozen within a minute: {pids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_arena_leaves_no_frozen_bot_behind() {
    let (pid_file, _sweep) = pid_file("orphans");
    // Thinking long enough a move that one bot is caught frozen.
    let bot = bot(&pid_file, 20_000, "$$");
    let mut arena = Command::new(common::bin())
        .args(["arena", "--game", "nogo", "--games", "2"])
        .args(["--engine", "name=a", &format!("cmd={bot}")])
        .arg("proto=botzone-keep-running")
        .args(["--engine", "name=b", &format!("cmd={bot}")])
        .arg("proto=botzone-keep-running")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the arena");

    let (_, frozen) = a_frozen_bot(&pid_file);

    // SAFETY: kill(2) on the arena, our own child.
    unsafe {
        libc::kill(arena.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = arena.wait().expect("the arena ends");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");

    // Gone, or a zombie waiting for whoever adopted it: not stopped, not running.
    let pids = pids_in(&pid_file);
    assert!(pids.contains(&frozen));
    let until = Instant::now() + Duration::from_secs(5);
    for pid in pids {
        while !matches!(state(pid), None | Some('Z')) {
            assert!(
                Instant::now() < until,
                "bot {pid} is still alive ({:?}) after the arena was killed",
                state(pid)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A match started as `nohup stonebrain arena ... &` is: SIGHUP ignored, in a process group of
/// its own. A hang-up of that group (what the kernel sends when the shell that started it exits
/// while a bot is frozen) must end neither the arena nor its bots: every game ends by the rules.
#[test]
fn a_hang_up_under_nohup_ends_neither_the_arena_nor_its_bots() {
    let (pid_file, _sweep) = pid_file("hangup");
    // (`\$\$`: the arena's own shell must pass `$$` on to the bot's.)
    let bot = bot(&pid_file, 1_000, "\\$\\$");
    let arena_command = format!(
        "trap '' HUP; exec {} arena --game nogo --games 2 --engine name=a \"cmd={bot}\" \
         proto=botzone-keep-running --engine name=b \"cmd={bot}\" proto=botzone-keep-running",
        common::bin()
    );
    let arena = Command::new("sh")
        .arg("-c")
        .arg(&arena_command)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the arena");
    let arena_pid = arena.id() as i32;

    // A bot frozen between its turns, and each bot in a group of its own, not the arena's.
    let (pids, _) = a_frozen_bot(&pid_file);
    for &p in &pids {
        if let Some(group) = process_group(p) {
            assert_ne!(group, arena_pid, "bot {p} shares the arena's process group");
        }
    }

    // SAFETY: kill(2) on the process group the arena leads (our child's, not ours).
    unsafe {
        libc::kill(-arena_pid, libc::SIGHUP);
    }
    let out = arena.wait_with_output().expect("the arena ends");
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {report}", out.status);
    assert!(!report.contains("crash"), "{report}");
    assert_eq!(report.matches("has no legal move").count(), 2, "{report}");
}
