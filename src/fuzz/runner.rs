//! The fuzzing loop: workers take input indices in turn, build each input from the seed and its
//! index, run it under `catch_unwind` with the panic message kept (not printed), and count. A
//! watchdog thread stops the process when one input runs past its bound, after writing the
//! input to a file.

use super::mutate::mutate;
use super::{Harness, Target, Workspace};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// Failure files written per target; later failures are only counted.
const FILES_PER_TARGET: u64 = 10;
/// Exit status when the watchdog stops the process.
pub const HANG_STATUS: i32 = 3;

pub struct Settings {
    pub seed: u64,
    /// Stop after this many inputs in all (`None`: only the clock stops the run).
    pub inputs: Option<u64>,
    /// Stop after this many seconds.
    pub seconds: Option<f64>,
    pub targets: Vec<&'static Target>,
    pub workers: usize,
    /// An input running longer than this is a hang.
    pub hang_after: Duration,
    /// Where failing inputs are written, one folder per target.
    pub failure_dir: PathBuf,
    /// A progress line on standard error every few seconds.
    pub progress: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// A panic, whether or not the program caught it (the serve loop covers a panicking search
    /// with a random move: still a bug).
    Panic,
    /// The answer broke a promise of the platform's form.
    Oracle,
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub target: &'static str,
    pub index: u64,
    pub kind: FailureKind,
    pub message: String,
    /// The input, written for `--replay` (the first few failures of each target only).
    pub file: Option<PathBuf>,
}

#[derive(Clone, Debug)]
pub struct Count {
    pub target: &'static str,
    pub inputs: u64,
    /// Time spent in this target's inputs, summed over the workers.
    pub busy: Duration,
    pub failures: u64,
}

pub struct Report {
    pub seed: u64,
    pub workers: usize,
    pub counts: Vec<Count>,
    pub failures: Vec<Failure>,
    pub elapsed: Duration,
}

impl Report {
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|c| c.inputs).sum()
    }

    pub fn panics(&self) -> usize {
        self.failures
            .iter()
            .filter(|f| f.kind == FailureKind::Panic)
            .count()
    }

    pub fn oracle_failures(&self) -> usize {
        self.failures.len() - self.panics()
    }

    /// The table of counts and the failures, as the command prints them.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{:<16} {:>12} {:>9} {:>12} {:>9}\n",
            "target", "inputs", "busy s", "inputs/s", "failures"
        );
        for c in &self.counts {
            let busy = c.busy.as_secs_f64();
            let rate = if busy > 0.0 {
                c.inputs as f64 / busy
            } else {
                0.0
            };
            s.push_str(&format!(
                "{:<16} {:>12} {:>9.1} {:>12.0} {:>9}\n",
                c.target, c.inputs, busy, rate, c.failures
            ));
        }
        let secs = self.elapsed.as_secs_f64();
        s.push_str(&format!(
            "total: {} inputs in {:.1} s ({:.0} inputs/s, {} workers, seed {}); {} panics, {} \
             broken answers, 0 hangs\n",
            self.total(),
            secs,
            self.total() as f64 / secs.max(1e-9),
            self.workers,
            self.seed,
            self.panics(),
            self.oracle_failures()
        ));
        for f in &self.failures {
            let kind = match f.kind {
                FailureKind::Panic => "panic",
                FailureKind::Oracle => "broken answer",
            };
            s.push_str(&format!(
                "FAIL {} #{} ({kind}): {}\n",
                f.target,
                f.index,
                one_line(&f.message)
            ));
            if let Some(file) = &f.file {
                s.push_str(&format!(
                    "  input: {}  (replay: stonebrain-fuzz --target {} --replay {})\n",
                    file.display(),
                    f.target,
                    file.display()
                ));
            }
        }
        s
    }
}

/// A failure's message on one line, clipped (a panic's message is on its second line).
fn one_line(s: &str) -> String {
    let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut clipped: String = joined.chars().take(300).collect();
    if clipped.len() < joined.len() {
        clipped.push_str("...");
    }
    clipped
}

thread_local! {
    /// Whether this thread is running a fuzz input (its panics are recorded, not printed).
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// The first panic of the input being run.
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs, once per process, a panic hook that records the panics of fuzzing threads and
/// passes every other thread's panic to the hook that was there before.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if ARMED.with(Cell::get) {
                CAUGHT.with(|c| {
                    let mut c = c.borrow_mut();
                    if c.is_none() {
                        *c = Some(info.to_string());
                    }
                });
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs one input: a panic anywhere inside, even one the program catches itself, is a failure.
pub fn guarded(run: impl FnOnce() -> Result<(), String>) -> Result<(), (FailureKind, String)> {
    install_hook();
    ARMED.with(|a| a.set(true));
    CAUGHT.with(|c| c.borrow_mut().take());
    let result = std::panic::catch_unwind(AssertUnwindSafe(run));
    ARMED.with(|a| a.set(false));
    let caught = CAUGHT.with(|c| c.borrow_mut().take());
    match (result, caught) {
        (Err(_), message) => Err((
            FailureKind::Panic,
            message.unwrap_or_else(|| "a panic without a message".to_string()),
        )),
        (Ok(_), Some(message)) => Err((
            FailureKind::Panic,
            format!("{message} (caught inside the program)"),
        )),
        (Ok(Err(message)), None) => Err((FailureKind::Oracle, message)),
        (Ok(Ok(())), None) => Ok(()),
    }
}

/// A well-mixed 64-bit value of a seed and an index (SplitMix64's finaliser).
fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The input number `index` of a run with `seed` for `target` (whose real transcripts are
/// `seeds`): a transcript as it is, mutated, grammar-made, or grammar-made and mutated.
pub fn make_input(target: &Target, seeds: &[Vec<u8>], seed: u64, index: u64) -> Vec<u8> {
    let mut rng = SmallRng::seed_from_u64(mix(seed, index));
    let roll = rng.gen_range(0..100);
    let mut input = match (roll, seeds.choose(&mut rng)) {
        (0..=4, Some(s)) => return s.clone(),
        (5..=54, Some(s)) => s.clone(),
        _ => (target.generate)(&mut rng),
    };
    if (55..85).contains(&roll) {
        return input;
    }
    let other = match seeds.choose(&mut rng) {
        Some(s) if rng.gen_bool(0.5) => s.clone(),
        _ => (target.generate)(&mut rng),
    };
    mutate(&mut rng, &mut input, &other, target.words);
    input
}

/// What the watchdog sees of a worker: when its input started (nanoseconds from the run's
/// start, plus one; 0 while idle) and which input it is.
#[derive(Default)]
struct Slot {
    started: AtomicU64,
    index: AtomicU64,
}

/// Counters of one target, shared by the workers.
#[derive(Default)]
struct Tally {
    inputs: AtomicU64,
    busy_nanos: AtomicU64,
    failures: AtomicU64,
}

/// Which target each input of a round goes to: every target `weight` times, spread through the
/// round (a round of weights 3, 1, 2 is 0 1 2 0 2 0).
pub fn schedule(targets: &[&Target]) -> Vec<usize> {
    let most = targets.iter().map(|t| t.weight.max(1)).max().unwrap_or(1);
    (0..most)
        .flat_map(|slot| {
            targets
                .iter()
                .enumerate()
                .filter(move |(_, t)| t.weight.max(1) > slot)
                .map(|(i, _)| i)
        })
        .collect()
}

struct Shared<'a> {
    settings: &'a Settings,
    /// The round of targets (see `schedule`); input `i` goes to `round[i % round.len()]`.
    round: Vec<usize>,
    seeds: Vec<Vec<Vec<u8>>>,
    next: AtomicU64,
    deadline: Option<Instant>,
    start: Instant,
    tallies: Vec<Tally>,
    failures: Mutex<Vec<Failure>>,
}

/// Engines' tables are megabytes, made and dropped with every session, and the fuzzer makes
/// sessions by the thousand a second. glibc's threshold for giving a block pages of its own
/// moves with what is freed, so where a table lands (and what its zeroing costs) would drift
/// during a run. Fixed at 8 MiB: Connect6's 6 MiB table, filled when made, reuses a freed block
/// of the heap, already mapped (the heap is not given back to the system, or the next table would
/// fault its pages in again); Gomoku's 16 MiB table, zeroed on allocation, gets fresh pages that
/// stay untouched until used.
fn settle_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets parameters of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 8 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}

/// Runs the fuzzer with `settings` until its input count or its time is reached.
pub fn run(settings: &Settings) -> Report {
    assert!(!settings.targets.is_empty(), "no target to fuzz");
    install_hook();
    settle_large_blocks();
    let start = Instant::now();
    let shared = Shared {
        settings,
        round: schedule(&settings.targets),
        seeds: settings.targets.iter().map(|t| (t.seeds)()).collect(),
        next: AtomicU64::new(0),
        deadline: settings
            .seconds
            .map(|s| start + Duration::from_secs_f64(s.max(0.0))),
        start,
        tallies: settings.targets.iter().map(|_| Tally::default()).collect(),
        failures: Mutex::new(Vec::new()),
    };
    let workers = settings.workers.max(1);
    let slots: Vec<Slot> = (0..workers).map(|_| Slot::default()).collect();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for slot in &slots {
            let shared = &shared;
            handles.push(scope.spawn(move || work(shared, slot)));
        }
        scope.spawn(|| watch(&shared, &slots, &done));
        for h in handles {
            if h.join().is_err() {
                // A worker can only fail outside the guarded input (a bug of the fuzzer).
                eprintln!("stonebrain-fuzz: a worker stopped unexpectedly");
            }
        }
        done.store(true, Ordering::SeqCst);
    });
    let counts = settings
        .targets
        .iter()
        .zip(&shared.tallies)
        .map(|(t, tally)| Count {
            target: t.name,
            inputs: tally.inputs.load(Ordering::Relaxed),
            busy: Duration::from_nanos(tally.busy_nanos.load(Ordering::Relaxed)),
            failures: tally.failures.load(Ordering::Relaxed),
        })
        .collect();
    let mut failures = shared
        .failures
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    failures.sort_by_key(|f| f.index);
    Report {
        seed: settings.seed,
        workers,
        counts,
        failures,
        elapsed: start.elapsed(),
    }
}

impl Shared<'_> {
    /// The target (its position in the settings) of input number `index`.
    fn target_of(&self, index: u64) -> usize {
        self.round[(index % self.round.len() as u64) as usize]
    }
}

fn work(shared: &Shared<'_>, slot: &Slot) {
    let settings = shared.settings;
    let workspace = Workspace::create();
    let mut harnesses: Vec<Option<Box<dyn Harness>>> =
        settings.targets.iter().map(|_| None).collect();
    loop {
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        if settings.inputs.is_some_and(|limit| index >= limit)
            || shared.deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
        let t = shared.target_of(index);
        let target = settings.targets[t];
        let input = make_input(target, &shared.seeds[t], settings.seed, index);
        let harness = harnesses[t].get_or_insert_with(|| (target.harness)(&workspace));
        let began = Instant::now();
        slot.index.store(index, Ordering::SeqCst);
        slot.started
            .store(nanos_since(shared.start, began) + 1, Ordering::SeqCst);
        let result = guarded(|| harness.run(&input));
        slot.started.store(0, Ordering::SeqCst);
        let tally = &shared.tallies[t];
        tally.inputs.fetch_add(1, Ordering::Relaxed);
        tally
            .busy_nanos
            .fetch_add(began.elapsed().as_nanos() as u64, Ordering::Relaxed);
        if let Err((kind, message)) = result {
            // The harness may be left half-way through an input: start it afresh.
            harnesses[t] = None;
            let written = tally.failures.fetch_add(1, Ordering::Relaxed);
            let file = (written < FILES_PER_TARGET)
                .then(|| {
                    write_input(
                        &settings.failure_dir,
                        target.name,
                        settings.seed,
                        index,
                        &input,
                    )
                })
                .flatten();
            let failure = Failure {
                target: target.name,
                index,
                kind,
                message,
                file,
            };
            if settings.progress {
                eprintln!(
                    "stonebrain-fuzz: FAIL {} #{index}: {}",
                    target.name,
                    one_line(&failure.message)
                );
            }
            shared
                .failures
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(failure);
        }
    }
    workspace.remove();
}

fn nanos_since(start: Instant, t: Instant) -> u64 {
    t.saturating_duration_since(start).as_nanos() as u64
}

/// Writes a failing input as `<dir>/<target>/<seed>-<index>.txt`; its path, if it could be
/// written.
fn write_input(dir: &Path, target: &str, seed: u64, index: u64, input: &[u8]) -> Option<PathBuf> {
    let folder = dir.join(target);
    std::fs::create_dir_all(&folder).ok()?;
    let file = folder.join(format!("{seed}-{index}.txt"));
    std::fs::write(&file, input).ok()?;
    Some(file)
}

/// The watchdog: every few milliseconds, looks for an input running past the bound; then writes
/// it, says which it is, and ends the process (a stuck worker cannot be stopped otherwise).
/// Every few seconds, a progress line if asked for.
fn watch(shared: &Shared<'_>, slots: &[Slot], done: &AtomicBool) {
    let settings = shared.settings;
    let mut last_progress = Instant::now();
    while !done.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20));
        let now = nanos_since(shared.start, Instant::now());
        for slot in slots {
            let started = slot.started.load(Ordering::SeqCst);
            if started == 0
                || now.saturating_sub(started - 1) < settings.hang_after.as_nanos() as u64
            {
                continue;
            }
            let index = slot.index.load(Ordering::SeqCst);
            let t = shared.target_of(index);
            let target = settings.targets[t];
            let input = make_input(target, &shared.seeds[t], settings.seed, index);
            let file = write_input(
                &settings.failure_dir,
                target.name,
                settings.seed,
                index,
                &input,
            );
            let mut err = std::io::stderr().lock();
            let _ = writeln!(
                err,
                "stonebrain-fuzz: HANG in {} #{index} (seed {}): one input ran longer than {:.1} s",
                target.name,
                settings.seed,
                settings.hang_after.as_secs_f64()
            );
            if let Some(file) = file {
                let _ = writeln!(
                    err,
                    "  input: {}  (replay: stonebrain-fuzz --target {} --replay {})",
                    file.display(),
                    target.name,
                    file.display()
                );
            }
            let _ = err.flush();
            std::process::exit(HANG_STATUS);
        }
        if settings.progress && last_progress.elapsed() >= Duration::from_secs(10) {
            last_progress = Instant::now();
            let total: u64 = shared
                .tallies
                .iter()
                .map(|t| t.inputs.load(Ordering::Relaxed))
                .sum();
            let secs = shared.start.elapsed().as_secs_f64();
            eprintln!(
                "stonebrain-fuzz: {total} inputs in {secs:.0} s ({:.0} inputs/s)",
                total as f64 / secs
            );
        }
    }
}

/// Runs one saved input of `target`, as a failure would have run.
pub fn replay(target: &Target, input: &[u8]) -> Result<(), (FailureKind, String)> {
    let workspace = Workspace::create();
    let mut harness = (target.harness)(&workspace);
    let result = guarded(|| harness.run(input));
    drop(harness);
    workspace.remove();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_are_recorded_whether_caught_or_not() {
        let r = guarded(|| panic!("boom"));
        assert!(matches!(r, Err((FailureKind::Panic, ref m)) if m.contains("boom")));
        let r = guarded(|| {
            let _ = std::panic::catch_unwind(|| panic!("inner"));
            Ok(())
        });
        assert!(matches!(r, Err((FailureKind::Panic, ref m)) if m.contains("inner")));
        let r = guarded(|| Err("bad answer".to_string()));
        assert_eq!(r, Err((FailureKind::Oracle, "bad answer".to_string())));
        assert_eq!(guarded(|| Ok(())), Ok(()));
    }
}
