//! An external bot process as the arena drives it: lines in, lines out with deadlines, and the
//! signals Botzone uses to freeze a keep-running bot between turns.

use super::memory::{reap, PeakMemory, Reaped};
use super::orphans;
use super::record::EndReason;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a process that closed its output gets to exit before we judge it.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// How much of a bot's standard error a crash report quotes: its last lines, each cut short.
const STDERR_LINES: usize = 3;
const STDERR_LINE_CHARS: usize = 200;

pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    /// Set once we have reaped the process: from then on its pid is never signalled again.
    reaped: Option<Reaped>,
    /// Where its peak memory goes when it is reaped, if anyone is measuring.
    memory: Option<Arc<PeakMemory>>,
    /// The last lines of its standard error (unless merged into its output), quoted when it
    /// crashes so that whoever runs the match sees why.
    stderr_tail: Option<StderrTail>,
}

/// What a player reads from a bot and writes to it. A real bot is a `BotProcess`; the reading
/// loops of the players take this trait so that the fuzzer can feed them a hostile bot's output
/// in-process.
pub trait BotPipe {
    /// Writes `text` (see `BotProcess::send`).
    fn send(&mut self, text: &str) -> Result<(), EndReason>;
    /// The next output line, waiting until `deadline`.
    fn read_line(&mut self, deadline: Instant) -> Result<String, ReadFailure>;
    /// What the end of the bot's output means (see `BotProcess::judge_closed_output`).
    fn judge_closed_output(&mut self) -> EndReason;
}

impl BotPipe for BotProcess {
    fn send(&mut self, text: &str) -> Result<(), EndReason> {
        BotProcess::send(self, text)
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String, ReadFailure> {
        BotProcess::read_line(self, deadline)
    }

    fn judge_closed_output(&mut self) -> EndReason {
        BotProcess::judge_closed_output(self)
    }
}

/// Why no line came.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadFailure {
    Timeout,
    /// The process closed its output (it exited, or closed stdout).
    Closed,
}

impl BotProcess {
    /// Starts `command` through the shell, so that `python3 bot.py --x` works as typed. Its
    /// standard error is read and dropped, all but the last lines, which a crash report quotes.
    pub fn spawn(command: &str) -> std::io::Result<BotProcess> {
        Self::start(command, false)
    }

    /// Like `spawn`, but the program's standard error goes into the same pipe as its standard
    /// output, as the SAU platform wires its engines: whatever it prints anywhere is read.
    pub fn spawn_merged(command: &str) -> std::io::Result<BotProcess> {
        Self::start(command, true)
    }

    fn start(command: &str, merge_stderr: bool) -> std::io::Result<BotProcess> {
        let mut cmd = if cfg!(windows) {
            let mut c = Command::new("cmd");
            c.arg("/C").arg(command);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("exec {command}"));
            // Each bot in a process group of its own. The kernel hangs up a process group
            // left without a parent in the session while one of its members is stopped: had
            // the bots shared the arena's group, a shell that started the arena in the
            // background and then exited (a job runner, `nohup ... &` from a script) would have
            // killed every frozen keep-running bot in mid-game. In its own group, a bot's group
            // is orphaned only when the arena itself is gone, and then the hang-up ends a bot
            // left frozen, as it should.
            #[cfg(unix)]
            std::os::unix::process::CommandExt::process_group(&mut c, 0);
            c
        };
        cmd.stdin(Stdio::piped());
        let (mut child, output, stderr_tail): (Child, Box<dyn Read + Send>, _) = if merge_stderr {
            let (reader, writer) = std::io::pipe()?;
            cmd.stdout(writer.try_clone()?).stderr(writer);
            let child = cmd.spawn()?;
            // The command keeps our copies of the pipe's write end: drop them, or the pipe
            // would never report the end of the program's output.
            drop(cmd);
            (child, Box::new(reader), None)
        } else {
            cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
            let mut child = cmd.spawn()?;
            let stdout = child.stdout.take().expect("stdout is piped");
            let stderr = child.stderr.take().expect("stderr is piped");
            (child, Box::new(stdout), Some(StderrTail::read(stderr)))
        };
        // From here until it is reaped, a signal that ends the arena takes the bot with it.
        orphans::started(child.id());
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        // A reader thread turns blocking reads into a channel we can wait on with a deadline.
        std::thread::spawn(move || {
            for_each_line(output, |line| tx.send(Some(line)).is_ok());
            let _ = tx.send(None);
        });
        Ok(BotProcess {
            child,
            stdin,
            lines: rx,
            reaped: None,
            memory: None,
            stderr_tail,
        })
    }

    /// Reports the process's peak resident set to `memory` when it is reaped (nothing when
    /// `None`).
    pub fn measured_by(mut self, memory: Option<Arc<PeakMemory>>) -> BotProcess {
        self.memory = memory;
        self
    }

    /// How the process ended, if it has; reaps it (and reports its memory) the first time.
    fn ended(&mut self, block: bool) -> Option<Reaped> {
        if self.reaped.is_none() {
            self.reaped = reap(&mut self.child, block);
            if self.reaped.is_some() {
                orphans::reaped(self.child.id());
            }
            if let (Some(r), Some(memory)) = (&self.reaped, &self.memory) {
                if let Some(kb) = r.peak_kb {
                    memory.record(kb);
                }
            }
        }
        self.reaped
    }

    /// Writes `text` and flushes. A failed write is the bot's fault, judged like closed output:
    /// a process that already died crashed (even before reading), a living one closed its input.
    pub fn send(&mut self, text: &str) -> Result<(), EndReason> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(text.as_bytes())
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        };
        if written {
            Ok(())
        } else {
            Err(self.judge_closed_output())
        }
    }

    /// Closes our end of the bot's input (a full-history bot reads to the end).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next output line, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadFailure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Some(line)) => Ok(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(ReadFailure::Closed),
            Err(RecvTimeoutError::Timeout) => Err(ReadFailure::Timeout),
        }
    }

    /// Throws away every line the program has written so far without waiting; `false` if its
    /// output has ended.
    pub fn drain(&mut self) -> bool {
        loop {
            match self.lines.try_recv() {
                Ok(Some(_)) => continue,
                Ok(None) | Err(TryRecvError::Disconnected) => return false,
                Err(TryRecvError::Empty) => return true,
            }
        }
    }

    /// Waits up to `grace` for the program to exit by itself; whether it did.
    pub fn wait_exit(&mut self, grace: Duration) -> bool {
        let until = Instant::now() + grace;
        loop {
            if self.ended(false).is_some() {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// What a closed pipe means: a crash if the process died or exited, a closed pipe if it
    /// lives on.
    pub fn judge_closed_output(&mut self) -> EndReason {
        let until = Instant::now() + EXIT_GRACE;
        loop {
            if let Some(r) = self.ended(false) {
                let mut why = describe_exit(r.status);
                if let Some(said) = self.stderr_tail.as_ref().and_then(StderrTail::last_words) {
                    why.push_str(&format!("; its standard error ended: {said}"));
                }
                return EndReason::Crash(why);
            }
            if Instant::now() >= until {
                return EndReason::ClosedPipe;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Freezes the process between turns, as Botzone does with keep-running bots, so that it
    /// cannot think on the opponent's time.
    pub fn freeze(&self) {
        self.signal(true);
    }

    pub fn thaw(&self) {
        self.signal(false);
    }

    #[cfg(unix)]
    fn signal(&self, stop: bool) {
        if self.reaped.is_some() {
            // The pid may already be another process's.
            return;
        }
        let sig = if stop { libc::SIGSTOP } else { libc::SIGCONT };
        // SAFETY: kill(2) on our own child's pid; no memory is touched.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, sig);
        }
    }

    #[cfg(not(unix))]
    fn signal(&self, _stop: bool) {
        // No SIGSTOP here: the bot stays awake between turns.
    }

    pub fn kill(&mut self) {
        if self.reaped.is_none() {
            self.thaw();
            // Not yet reaped, so the pid is still ours (a zombie at worst).
            let _ = self.child.kill();
            self.ended(true);
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A thread that reads a bot's standard error to the end (so that a chatty bot never blocks on
/// a full pipe) and keeps its last few lines.
struct StderrTail {
    lines: Arc<Mutex<std::collections::VecDeque<String>>>,
    /// Says, by disconnecting, that the reader has seen the end of the stream.
    done: Receiver<()>,
}

impl StderrTail {
    fn read(stream: impl Read + Send + 'static) -> StderrTail {
        let lines = Arc::new(Mutex::new(std::collections::VecDeque::new()));
        let (tx, done) = channel::<()>();
        let kept = Arc::clone(&lines);
        std::thread::spawn(move || {
            let _tx = tx;
            for_each_line(stream, |line| {
                let line = line.trim();
                if !line.is_empty() {
                    let mut short: String = line.chars().take(STDERR_LINE_CHARS).collect();
                    if short.len() < line.len() {
                        short.push_str("...");
                    }
                    let mut lines = kept.lock().unwrap_or_else(|e| e.into_inner());
                    if lines.len() == STDERR_LINES {
                        lines.pop_front();
                    }
                    lines.push_back(short);
                }
                true
            });
        });
        StderrTail { lines, done }
    }

    /// The kept lines joined by " | ", or `None` if the bot wrote nothing there. Waits a moment
    /// for the reader to reach the end: the process has exited, but its last writes may still
    /// be in the pipe (a program it started may hold the pipe open, hence no longer).
    fn last_words(&self) -> Option<String> {
        let _ = self.done.recv_timeout(Duration::from_millis(100));
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.is_empty() {
            return None;
        }
        Some(lines.iter().cloned().collect::<Vec<_>>().join(" | "))
    }
}

/// Reads `stream` line by line (bytes that are not UTF-8 replaced, the line end dropped) and
/// hands each line to `each` until the stream ends or `each` says to stop.
fn for_each_line(stream: impl Read, mut each: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                if !each(line) {
                    return;
                }
            }
        }
    }
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(0) => "exited without answering".to_string(),
        Some(c) => format!("exited with status {c}"),
        None => "ended abnormally".to_string(),
    }
}
