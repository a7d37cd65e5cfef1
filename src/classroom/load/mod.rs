//! `stonebrain-load`: the class server under load. The real server runs as a child process on
//! a loopback port with a fresh data folder; a class of students plays games through the real
//! HTTP API with real RSA logins, hostile requests of every kind go beside them, and the
//! server is killed with SIGKILL under load and started again. At the end the audit holds the
//! server's files and its rating table against what the clients saw.
//!
//! - `accounts`: the class list and logins; `supervisor`: the server process, its kills and
//!   restarts; `student`: a student playing games; `hostile`: the refusals the server owes;
//! - `board`: the load test's own gomoku (moves, and fives for the audit); `ledger`: what the
//!   clients saw; `stats`: latencies; `audit`: the final check; `report`: the printout;
//! - `http`: a raw HTTP client.

pub mod accounts;
pub mod audit;
pub mod board;
pub mod hostile;
pub mod http;
pub mod ledger;
pub mod report;
pub mod stats;
pub mod student;
pub mod supervisor;

use crate::classroom::rsa::PublicKey;
use accounts::Class;
use http::{exchange, get_request};
use ledger::{Ledger, Tally};
use stats::Latencies;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use supervisor::{ServerState, Supervisor};

#[derive(Clone, Debug)]
pub struct LoadSettings {
    /// The `stonebrain` binary whose class server is tested.
    pub binary: PathBuf,
    /// How long the students keep starting games.
    pub seconds: f64,
    /// The class: students and games at once (two students a game).
    pub accounts: usize,
    pub games: usize,
    /// SIGKILLs under load, spread evenly over the run.
    pub kills: usize,
    /// The server's limits, as passed to it.
    pub request_time: Duration,
    pub idle_time: Duration,
    pub max_connections: usize,
    /// The students' pause between two checks of their game.
    pub poll: Duration,
    /// Where the data folder goes (a temporary folder when `None`), kept after the run.
    pub work_dir: Option<PathBuf>,
    /// For the test that proves the audit can fail: remove a finished game's file before the
    /// final restart.
    pub sabotage: bool,
}

impl LoadSettings {
    /// `make load`'s defaults: 60 accounts, 30 games at once, ten minutes, one kill.
    pub fn new(binary: PathBuf) -> LoadSettings {
        LoadSettings {
            binary,
            seconds: 600.0,
            accounts: 60,
            games: 30,
            kills: 1,
            request_time: Duration::from_secs(10),
            idle_time: Duration::from_secs(60),
            max_connections: 1000,
            poll: Duration::from_millis(50),
            work_dir: None,
            sabotage: false,
        }
    }
}

/// What the students and the hostile thread share.
pub struct Shared {
    pub addr: SocketAddr,
    pub key: PublicKey,
    pub server: Arc<ServerState>,
    pub ledger: Mutex<Ledger>,
    pub tally: Mutex<Tally>,
    pub faults: Mutex<Vec<String>>,
    /// Set when the run's time is up: no new game is started.
    pub stop: AtomicBool,
    /// After this, even games under way are given up.
    pub hard_stop_ms: AtomicU64,
    pub started: Instant,
    pub settings: LoadSettings,
    /// Requests the students sent and got an answer to.
    pub requests: AtomicU64,
}

/// A lock that a panicking thread cannot poison for the others (the state is only counts).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub fn fault(&self, text: String) {
        lock(&self.faults).push(text);
    }

    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    pub fn past_hard_stop(&self) -> bool {
        self.started.elapsed().as_millis() as u64 > self.hard_stop_ms.load(Ordering::SeqCst)
    }
}

/// One kill: its downtime and what happened to the games it caught.
#[derive(Debug, Clone)]
pub struct KillRecord {
    pub at_seconds: f64,
    pub downtime: Duration,
    pub in_progress: Vec<String>,
}

/// Everything the report prints; `faults` empty means the run passed.
pub struct LoadReport {
    pub settings: LoadSettings,
    pub elapsed: Duration,
    pub requests: u64,
    pub latencies: Latencies,
    pub games_finished: usize,
    pub moves: usize,
    pub hostile: Tally,
    pub kills: Vec<KillRecord>,
    /// Of the games each kill caught, how many went on to finish.
    pub resumed: Vec<usize>,
    pub in_flight_kept: usize,
    pub in_flight_lost: usize,
    pub ratings_checked: usize,
    pub server_errors: Vec<String>,
    pub data_dir: PathBuf,
    pub faults: Vec<String>,
}

impl LoadReport {
    pub fn passed(&self) -> bool {
        self.faults.is_empty()
    }
}

/// Runs the load test. An error means it could not run (no binary, no port, no server).
pub fn run(settings: LoadSettings) -> Result<LoadReport, String> {
    if settings.games == 0 || settings.accounts < 2 * settings.games {
        return Err(format!(
            "{} games at once need {} accounts, not {}",
            settings.games,
            2 * settings.games,
            settings.accounts
        ));
    }
    let work = match &settings.work_dir {
        Some(d) => d.clone(),
        None => std::env::temp_dir().join(format!("stonebrain-load-{}", std::process::id())),
    };
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot make {}: {e}", work.display()))?;
    let class = Class::new(settings.accounts);
    let users = work.join("class.txt");
    class.write(&users)?;
    let data = work.join("data");
    let mut server = Supervisor::new(
        settings.binary.clone(),
        vec![
            "--users".into(),
            users.display().to_string(),
            "--data".into(),
            data.display().to_string(),
            "--no-bot".into(),
            "--request-time".into(),
            settings.request_time.as_secs_f64().to_string(),
            "--idle-time".into(),
            settings.idle_time.as_secs_f64().to_string(),
            "--max-connections".into(),
            settings.max_connections.to_string(),
        ],
    )?;
    server.start()?;
    let key = public_key(server.addr)?;
    let shared = Arc::new(Shared {
        addr: server.addr,
        key,
        server: Arc::clone(&server.state),
        ledger: Mutex::default(),
        tally: Mutex::default(),
        faults: Mutex::default(),
        stop: AtomicBool::new(false),
        hard_stop_ms: AtomicU64::new(u64::MAX),
        started: Instant::now(),
        settings: settings.clone(),
        requests: AtomicU64::new(0),
    });
    let hostile_game = hostile::HostileGame::open(&shared, &class.hostile)?;
    lock(&shared.ledger).hostile_game = Some(hostile_game.id.clone());

    let students: Vec<_> = class.students[..2 * settings.games]
        .iter()
        .enumerate()
        .map(|(i, account)| {
            let (shared, account) = (Arc::clone(&shared), account.clone());
            std::thread::spawn(move || student::play(&shared, account, i as u64))
        })
        .collect();
    let hostile = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || hostile::run(&shared, hostile_game))
    };

    let run_time = Duration::from_secs_f64(settings.seconds.max(0.1));
    let mut kills = Vec::new();
    for k in 1..=settings.kills {
        let at = run_time.mul_f64(k as f64 / (settings.kills + 1) as f64);
        sleep_until(shared.started + at);
        kills.push(kill_and_restart(&mut server, &shared)?);
    }
    sleep_until(shared.started + run_time);
    shared.stop.store(true, Ordering::SeqCst);
    // Games under way are played to their end; a minute is far more than any needs.
    let hard = (run_time + Duration::from_secs(60)).as_millis() as u64;
    shared.hard_stop_ms.store(hard, Ordering::SeqCst);
    let mut latencies = Latencies::default();
    for s in students {
        latencies.merge(s.join().unwrap_or_default());
    }
    let elapsed = shared.started.elapsed();
    let _ = hostile.join();

    let report = audit::finish(&shared, &mut server, &data, kills, latencies, elapsed)?;
    if settings.work_dir.is_none() && report.passed() {
        let _ = std::fs::remove_dir_all(&work);
    }
    Ok(report)
}

fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        std::thread::sleep(t - now);
    }
}

fn public_key(addr: SocketAddr) -> Result<PublicKey, String> {
    let answer = exchange(addr, &get_request("/public_key"), Duration::from_secs(10))
        .map_err(|e| format!("/public_key: {e}"))?;
    let v = answer.json().ok_or("/public_key: not JSON")?;
    PublicKey::parse(v["public_key"].as_str().unwrap_or_default())
}

/// A SIGKILL under load and a start on the same folder; the downtime runs from the kill to
/// the first answer of the new process.
fn kill_and_restart(server: &mut Supervisor, shared: &Shared) -> Result<KillRecord, String> {
    let state = Arc::clone(&server.state);
    let _quiet = lock(&state.disruption);
    let in_progress = lock(&shared.ledger).in_progress();
    let at = server.kill();
    server.start()?;
    let record = KillRecord {
        at_seconds: (at - shared.started).as_secs_f64(),
        downtime: at.elapsed(),
        in_progress,
    };
    // The clients reconnect before anything else disturbs the server.
    std::thread::sleep(Duration::from_secs(1));
    Ok(record)
}
