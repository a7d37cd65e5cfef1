//! The soak's words and tables: a line as each pair ends, then the table of every pair, the
//! faults one by one, and the totals.

use super::run::{Fault, PairReport};
use super::SoakSummary;
use std::fmt::Write;
use std::time::Duration;

/// Botzone's memory ceiling, in MB (MiB, as its judge counts).
pub const BOTZONE_MEMORY_MB: f64 = 256.0;

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

fn results(r: &PairReport) -> String {
    format!("{}-{}-{}", r.results[0], r.results[1], r.results[2])
}

pub fn print_pair_line(r: &PairReport) {
    println!(
        "{}: {} games in {:.0} s (Black-White-draw {}), slowest answer {} ms ({}), {} faults",
        r.label,
        r.games,
        r.seconds,
        results(r),
        ms(r.slowest),
        r.limit,
        r.faults.len()
    );
}

pub fn print_memory_line(r: &PairReport) {
    println!(
        "{}: peak {:.1} MB over {} processes, {} turns, {:.0} s ({}){}",
        r.label,
        mb(r.peak_kb),
        r.processes,
        r.answers,
        r.seconds,
        r.limit,
        if r.faults.is_empty() { "" } else { ", FAULT" }
    );
}

fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

fn or_dash(d: Option<Duration>) -> String {
    d.map_or("-".to_string(), |d| ms(d).to_string())
}

/// The soak's table: per pair, the games, the results by colour, the faults, the slowest answer
/// against the move limit, and the most of a game clock one side used against the clock.
pub fn soak_table(summary: &SoakSummary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<38} {:>6} {:>12} {:>6} {:>9} {:>10} {:>11} {:>10}",
        "pair", "games", "B-W-draw", "faults", "slowest", "move limit", "most clock", "game clock"
    );
    let _ = writeln!(
        out,
        "{:<38} {:>6} {:>12} {:>6} {:>9} {:>10} {:>11} {:>10}",
        "", "", "", "", "ms", "ms", "used, ms", "ms"
    );
    for r in &summary.pairs {
        let clock = r.tc.per_game;
        let _ = writeln!(
            out,
            "{:<38} {:>6} {:>12} {:>6} {:>9} {:>10} {:>11} {:>10}",
            r.label,
            r.games,
            results(r),
            r.faults.len(),
            ms(r.slowest),
            or_dash(r.tc.per_move),
            clock.map_or("-".to_string(), |_| ms(r.most_clock).to_string()),
            or_dash(clock)
        );
    }
    out
}

/// The memory table: per game and mode, the limit it was played at and the peak resident set of
/// its bot processes against Botzone's 256 MB.
pub fn memory_table(summary: &SoakSummary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<10} {:<28} {:<30} {:>8} {:>7} {:>9}",
        "game", "mode", "time limit", "peak MB", "of 256", "processes"
    );
    for r in &summary.pairs {
        let (game, mode) = r.label.split_once(' ').unwrap_or((&r.label, ""));
        let _ = writeln!(
            out,
            "{:<10} {:<28} {:<30} {:>8.1} {:>6.1}% {:>9}",
            game,
            mode,
            r.limit,
            mb(r.peak_kb),
            100.0 * mb(r.peak_kb) / BOTZONE_MEMORY_MB,
            r.processes
        );
    }
    out
}

pub fn fault_line(f: &Fault) -> String {
    format!(
        "FAULT {} game {}: {} lost by {} ({}) after {} stones",
        f.pair,
        f.game,
        f.loser.map_or("nobody", |c| c.name()),
        f.code,
        f.text,
        f.stones
    )
}

/// The totals: games, time, games per hour, and every fault.
pub fn totals(summary: &SoakSummary) -> String {
    let mut out = String::new();
    let faults = summary.faults();
    let _ = writeln!(
        out,
        "{} games in {:.0} s: {:.0} games per hour; {} faults (illegal moves, time losses, \
         crashes, protocol errors)",
        summary.games(),
        summary.seconds,
        summary.games_per_hour(),
        faults.len()
    );
    for f in faults {
        let _ = writeln!(out, "{}", fault_line(f));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::player::TimeControl;
    use crate::game::Color;

    #[test]
    fn tables_show_limits_and_faults() {
        let sau = PairReport {
            label: "connect6 sau".into(),
            limit: "5 s a game".into(),
            tc: TimeControl {
                per_move: None,
                per_game: Some(Duration::from_secs(5)),
            },
            games: 4,
            results: [2, 1, 1],
            slowest: Duration::from_millis(211),
            most_clock: Duration::from_millis(1900),
            peak_kb: 10 * 1024,
            processes: 2,
            faults: vec![Fault {
                pair: "connect6 sau".into(),
                game: 3,
                loser: Some(Color::White),
                code: "timeout",
                text: "out of time".into(),
                stones: 41,
            }],
            ..PairReport::default()
        };
        let summary = SoakSummary {
            pairs: vec![sau],
            seconds: 2.0,
        };
        let table = soak_table(&summary);
        assert!(table.contains("2-1-1"), "{table}");
        assert!(table
            .lines()
            .nth(2)
            .unwrap()
            .ends_with(" 211          -        1900       5000"));
        let totals = totals(&summary);
        assert!(totals.starts_with("4 games in 2 s: 7200 games per hour; 1 faults"));
        assert!(totals.contains(
            "FAULT connect6 sau game 3: white lost by timeout (out of time) after 41 stones"
        ));
        let memory = memory_table(&summary);
        assert!(memory.contains("connect6   sau "), "{memory}");
        assert!(memory.contains("10.0    3.9%"), "{memory}");
    }
}
