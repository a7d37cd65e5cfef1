//! `stonebrain-load`: the class server under load (`make load`): a class of students playing
//! through the real HTTP API, hostile requests beside them, kill -9 and restarts, and an audit
//! of every finished game and rating (see `stonebrain::classroom::load`). A program of its
//! own, so that the bot's binary carries none of it.
//!
//! Exit status: 0 the audit passed, 1 it failed, 2 the test could not run.

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use stonebrain::classroom::load::{report, run, LoadSettings};

#[derive(Parser)]
#[command(
    name = "stonebrain-load",
    about = "Runs the class server under load, kills it with SIGKILL, and audits what survived"
)]
struct Args {
    /// Seconds of play.
    #[arg(long, default_value_t = 600.0)]
    seconds: f64,
    /// Accounts in the class.
    #[arg(long, default_value_t = 60)]
    accounts: usize,
    /// Games at once (two students each).
    #[arg(long, default_value_t = 30)]
    games: usize,
    /// SIGKILLs of the server under load, spread evenly over the run.
    #[arg(long, default_value_t = 1)]
    kills: usize,
    /// The server's --request-time (seconds).
    #[arg(long, default_value_t = 10.0)]
    request_time: f64,
    /// The server's --idle-time (seconds).
    #[arg(long, default_value_t = 60.0)]
    idle_time: f64,
    /// The server's --max-connections.
    #[arg(long, default_value_t = 1000)]
    max_connections: usize,
    /// Milliseconds a student waits between two checks of its game.
    #[arg(long, default_value_t = 50)]
    poll_ms: u64,
    /// The `stonebrain` binary (default: the one next to this program).
    #[arg(long)]
    binary: Option<PathBuf>,
    /// Keep the class list and data folder here (default: a temporary folder, removed after
    /// a run that passed).
    #[arg(long)]
    work_dir: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !cfg!(unix) {
        eprintln!("stonebrain-load: kill -9 needs a Unix system");
        return ExitCode::from(2);
    }
    let binary = args.binary.unwrap_or_else(|| {
        let me = std::env::current_exe().unwrap_or_default();
        me.with_file_name(format!("stonebrain{}", std::env::consts::EXE_SUFFIX))
    });
    let seconds_ok = |s: f64| s.is_finite() && s > 0.0 && s <= 86_400.0;
    if ![args.seconds, args.request_time, args.idle_time]
        .into_iter()
        .all(seconds_ok)
    {
        eprintln!("stonebrain-load: times must be above 0 and at most a day");
        return ExitCode::from(2);
    }
    let mut settings = LoadSettings::new(binary);
    settings.seconds = args.seconds;
    settings.accounts = args.accounts;
    settings.games = args.games;
    settings.kills = args.kills;
    settings.request_time = Duration::from_secs_f64(args.request_time);
    settings.idle_time = Duration::from_secs_f64(args.idle_time);
    settings.max_connections = args.max_connections.max(1);
    settings.poll = Duration::from_millis(args.poll_ms);
    settings.work_dir = args.work_dir;
    match run(settings) {
        Ok(r) => {
            print!("{}", report::render(&r));
            if r.passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("stonebrain-load: could not run: {e}");
            ExitCode::from(2)
        }
    }
}
