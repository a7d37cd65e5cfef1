//! The load test's printout.

use super::LoadReport;
use std::fmt::Write;

fn ms(d: std::time::Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

pub fn render(r: &LoadReport) -> String {
    let s = &r.settings;
    let mut out = String::new();
    let secs = r.elapsed.as_secs_f64().max(1e-9);
    let _ = writeln!(
        out,
        "class server under load: {} accounts, {} games at once, {:.0} s, {} kill -9",
        s.accounts, s.games, s.seconds, s.kills
    );
    let _ = writeln!(
        out,
        "students: {} requests in {secs:.1} s = {:.0} requests/s; latency p50 {}, p99 {}, max {}",
        r.requests,
        r.requests as f64 / secs,
        ms(r.latencies.quantile(0.5)),
        ms(r.latencies.quantile(0.99)),
        ms(r.latencies.quantile(1.0)),
    );
    let _ = writeln!(
        out,
        "games finished: {} ({} moves acknowledged)",
        r.games_finished, r.moves
    );
    let _ = writeln!(out, "hostile requests, by kind, and their answers:");
    for (kind, answers) in &r.hostile.answers {
        let total: usize = answers.values().sum();
        let _ = writeln!(out, "  {kind}: {total}");
        for (answer, n) in answers {
            let _ = writeln!(out, "    {n} x {answer}");
        }
    }
    for (i, k) in r.kills.iter().enumerate() {
        let _ = writeln!(
            out,
            "kill -9 #{} at {:.1} s: down {}, {} games in progress, {} of them finished after the restart",
            i + 1,
            k.at_seconds,
            ms(k.downtime),
            k.in_progress.len(),
            r.resumed.get(i).copied().unwrap_or(0),
        );
    }
    let _ = writeln!(
        out,
        "moves in flight at a kill: {} found on the board after the restart, {} not taken (never acknowledged)",
        r.in_flight_kept, r.in_flight_lost
    );
    let _ = writeln!(
        out,
        "audit: every finished game against its file and the rules, {} ratings against a replay, after a last kill -9 and restart",
        r.ratings_checked
    );
    for e in &r.server_errors {
        let _ = writeln!(out, "server log: {e}");
    }
    if r.passed() {
        let _ = writeln!(out, "PASS");
    } else {
        let _ = writeln!(out, "FAIL: {} faults", r.faults.len());
        for f in r.faults.iter().take(50) {
            let _ = writeln!(out, "  {f}");
        }
        let _ = writeln!(out, "data folder kept: {}", r.data_dir.display());
    }
    out
}
