//! The server under test: the real `stonebrain classroom-server` as a child process on a fixed
//! loopback port, killed with SIGKILL (no chance to save or flush anything) and started again
//! on the same data folder and port.

use super::http::{exchange, get_request};
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What every client thread reads before a request: whether the server is up, and which run of
/// it this is (a client whose connection is from an earlier run opens a new one).
#[derive(Default)]
pub struct ServerState {
    epoch: AtomicU64,
    up: AtomicBool,
    /// Held by whatever disturbs the whole server (a kill, a flood of connections), so that
    /// two disturbances never overlap and each one's effect is its own.
    pub disruption: Mutex<()>,
    /// The server's log lines that say ERROR.
    pub errors: Mutex<Vec<String>>,
}

impl ServerState {
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }

    pub fn up(&self) -> bool {
        self.up.load(Ordering::SeqCst)
    }

    /// Waits (at most `limit`) for the server to be up; its epoch then.
    pub fn wait_up(&self, limit: Duration) -> Option<u64> {
        let start = Instant::now();
        while !self.up() {
            if start.elapsed() > limit {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Some(self.epoch())
    }
}

pub struct Supervisor {
    binary: PathBuf,
    args: Vec<String>,
    pub addr: SocketAddr,
    child: Option<Child>,
    pub state: Arc<ServerState>,
}

/// A free loopback port: bound once and let go, for the server to bind again.
pub fn free_port() -> Result<SocketAddr, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free loopback port: {e}"))
}

impl Supervisor {
    /// `args` are the server's flags after `classroom-server` (users, data, limits), without
    /// `--bind`.
    pub fn new(binary: PathBuf, args: Vec<String>) -> Result<Supervisor, String> {
        Ok(Supervisor {
            binary,
            args,
            addr: free_port()?,
            child: None,
            state: Arc::new(ServerState::default()),
        })
    }

    /// Starts the server and waits until it answers; how long that took. A port still held
    /// by the killed process's last moments is waited out for a while.
    pub fn start(&mut self) -> Result<Duration, String> {
        let started = Instant::now();
        let mut last_error = String::new();
        while started.elapsed() < Duration::from_secs(30) {
            match self.spawn_once() {
                Ok(()) => {
                    self.state.epoch.fetch_add(1, Ordering::SeqCst);
                    self.state.up.store(true, Ordering::SeqCst);
                    return Ok(started.elapsed());
                }
                Err(e) => last_error = e,
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!("the server did not start: {last_error}"))
    }

    fn spawn_once(&mut self) -> Result<(), String> {
        let mut child = Command::new(&self.binary)
            .arg("classroom-server")
            .args(["--bind", &self.addr.to_string()])
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.binary.display()))?;
        // The log is read to the end, so the server never blocks on a full pipe.
        for pipe in [
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let state = Arc::clone(&self.state);
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if line.contains("ERROR") || line.contains("error:") {
                        if let Ok(mut e) = state.errors.lock() {
                            e.push(line);
                        }
                    }
                }
            });
        }
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("the server exited at start ({status})"));
            }
            let answer = exchange(
                self.addr,
                &get_request("/public_key"),
                Duration::from_secs(2),
            );
            if answer.is_ok_and(|a| a.status == 200) {
                self.child = Some(child);
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                let _ = child.wait();
                return Err("the server did not answer within 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// SIGKILL, under load: the clients are told the server is down first, so that the
    /// failures that follow are known for what they are.
    pub fn kill(&mut self) -> Instant {
        self.state.up.store(false, Ordering::SeqCst);
        let at = Instant::now();
        if let Some(mut child) = self.child.take() {
            // On Unix, `Child::kill` is SIGKILL: no handler runs, nothing is flushed.
            let _ = child.kill();
            let _ = child.wait();
        }
        at
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        self.kill();
    }
}
