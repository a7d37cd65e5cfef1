//! In-process fuzzing of every input surface: the platforms' serve loops (Botzone JSON and simple,
//! keep-running or not, SAU, Gomocup, GTP, and the detection that picks among them), the serving
//! flags file, the console's commands and save files, the class server's requests and data files,
//! and what the arena reads from a hostile bot.
//!
//! Each input is built from a seed and its index alone (a real transcript from `test_vectors/`,
//! mutated, or text from the protocol's grammar), so any failure can be made again, and is also
//! written to a file that `--replay` runs. Engines get a tiny iteration cap, never a clock, so
//! that millions of inputs run in minutes and each gives the same answer every time.
//!
//! A failure is a panic anywhere (even one the serve loop catches and covers with a random move),
//! an answer out of the platform's own form (the oracle of each target), or an input that runs
//! past the watchdog's bound.
//!
//! Layout: `runner` (workers, panics, the watchdog, counts), `mutate` (byte- and line-level
//! mutations), `grammar` (random games and the text pieces the targets' generators share),
//! `corpus` (the real transcripts), `header` (the first line that chooses a target's variant),
//! and one file per family of targets under `targets`.

pub mod corpus;
pub mod grammar;
pub mod header;
pub mod mutate;
pub mod runner;
pub mod targets;

use rand::rngs::SmallRng;
use std::path::PathBuf;

/// One input surface: where its inputs come from and how one is run and judged.
pub struct Target {
    pub name: &'static str,
    /// What it feeds, for `--list`.
    pub about: &'static str,
    /// Inputs per round of all targets: the serve loops, which carry the platforms' traffic,
    /// get the most; the console and the class server, which build an engine or a data folder
    /// for each input, the fewest (see `targets::ALL`).
    pub weight: u32,
    /// Real transcripts and sessions to mutate.
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// Input from the protocol's grammar: well-formed commands, mostly legal, some wrong.
    pub generate: fn(&mut SmallRng) -> Vec<u8>,
    /// Keywords of the protocol, which the mutator puts in place of other words.
    pub words: &'static [&'static str],
    /// The state a worker keeps for this target (a session, a data folder ...).
    pub harness: fn(&Workspace) -> Box<dyn Harness>,
}

/// Runs inputs of one target on one worker.
pub trait Harness {
    /// Feeds one input. `Err` says which promise the answer broke (for example an output line
    /// out of the platform's form); panics are caught by the runner.
    fn run(&mut self, input: &[u8]) -> Result<(), String>;
}

/// Files a worker may write: the console's saves, the class server's data folder. Each worker
/// has its own folder under the system's temporary directory.
#[derive(Clone, Debug)]
pub struct Workspace {
    pub dir: PathBuf,
}

impl Workspace {
    /// A fresh, empty folder of its own (one per worker, or per replay). In memory where the
    /// system has a memory file system (`/dev/shm`): the class server renames a file on every
    /// move, which a disk turns into a write-back each time.
    pub fn create() -> Workspace {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let shm = std::path::Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!("stonebrain-fuzz-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::create_dir_all(&dir);
        Workspace { dir }
    }

    /// Removes the folder (at the end of a run).
    pub fn remove(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Every target, in the order they take turns.
pub fn all_targets() -> Vec<&'static Target> {
    targets::ALL.to_vec()
}

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    targets::ALL.iter().copied().find(|t| t.name == name)
}
