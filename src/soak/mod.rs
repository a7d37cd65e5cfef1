//! The soak: thousands of games between two copies of the release binary, over every game and
//! protocol the bot speaks, refereed by the arena with real processes at fast time controls. A
//! platform forfeits a bot for one illegal move, one late answer or one crash, so the soak passes
//! only with none of them, and says how close the slowest answer came to its limit. A second
//! run, `memory`, plays one game of each game and mode at its platform's largest time limit and
//! reads the peak resident set of every bot process (Botzone's ceiling is 256 MB).
//!
//! `plan` says what is played and at what limits, `run` plays it through the arena, `report`
//! prints the tables. `stonebrain-soak` (src/bin) is the command line.

pub mod plan;
pub mod report;
pub mod run;

use plan::Pair;
use run::{Fault, PairReport, RunSettings};

/// Everything a soak or memory run found.
#[derive(Clone, Debug, Default)]
pub struct SoakSummary {
    pub pairs: Vec<PairReport>,
    pub seconds: f64,
}

impl SoakSummary {
    pub fn games(&self) -> u32 {
        self.pairs.iter().map(|p| p.games).sum()
    }

    pub fn faults(&self) -> Vec<&Fault> {
        self.pairs.iter().flat_map(|p| &p.faults).collect()
    }

    pub fn games_per_hour(&self) -> f64 {
        if self.seconds > 0.0 {
            f64::from(self.games()) * 3600.0 / self.seconds
        } else {
            0.0
        }
    }

    /// Pairs whose bot processes grew past `kb` kilobytes at their peak.
    pub fn over_memory(&self, kb: u64) -> Vec<&str> {
        self.pairs
            .iter()
            .filter(|p| p.peak_kb > kb)
            .map(|p| p.label.as_str())
            .collect()
    }

    /// Pairs that were given games but played fewer (a pair that cannot even start is a fault
    /// of its own kind, and must not pass unseen).
    pub fn idle_pairs(&self, wanted: &[u32]) -> Vec<&str> {
        self.pairs
            .iter()
            .zip(wanted)
            .filter(|(p, &w)| w > 0 && p.games < w)
            .map(|(p, _)| p.label.as_str())
            .collect()
    }
}

/// Plays `games` games shared evenly among `pairs`, one pair after another.
pub fn soak(pairs: &[Pair], games: u32, settings: &RunSettings) -> Result<SoakSummary, String> {
    let started = std::time::Instant::now();
    let mut summary = SoakSummary::default();
    for (pair, n) in pairs.iter().zip(plan::share(games, pairs.len())) {
        let report = run::play_pair(pair, n, settings)?;
        report::print_pair_line(&report);
        summary.pairs.push(report);
    }
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// One game of each pair with its processes' memory measured, `concurrency` pairs at once.
pub fn memory(pairs: &[Pair], settings: &RunSettings) -> Result<SoakSummary, String> {
    let started = std::time::Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..settings.concurrency.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(pair) = pairs.get(i) else { break };
                let report = run::measure_pair(pair, settings);
                if let Ok(r) = &report {
                    report::print_memory_line(r);
                }
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, report));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let pairs = results
        .into_iter()
        .map(|(_, r)| r)
        .collect::<Result<Vec<_>, String>>()?;
    Ok(SoakSummary {
        pairs,
        seconds: started.elapsed().as_secs_f64(),
    })
}
