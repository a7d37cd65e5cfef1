//! The end of a run: the server is killed once more and started on its folder, and then every
//! game the clients saw is held against its file, every finish against the rules, and the
//! rating table against a replay of the finished games, with this file's own Elo arithmetic.

use super::board::{moves_of, parse_point, Board};
use super::http::{exchange, get_request};
use super::ledger::SeenGame;
use super::stats::Latencies;
use super::supervisor::Supervisor;
use super::{lock, KillRecord, LoadReport, Shared};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// A game as its file has it.
struct DiskGame {
    moves: Vec<String>,
    /// Black's and White's login names.
    black: String,
    white: String,
    /// (winner, reason, sequence) once over.
    ending: Option<(Option<String>, String, u64)>,
}

fn read_games(data: &Path) -> Result<BTreeMap<String, DiskGame>, String> {
    let dir = data.join("games");
    let mut games = BTreeMap::new();
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let v: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let creator = v["creator"]["user"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let opponent = v["opponent"]["user"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let (black, white) = if v["creator_stone"] == "x" {
            (creator, opponent)
        } else {
            (opponent, creator)
        };
        let e = &v["ending"];
        let ending = (!e.is_null()).then(|| {
            (
                e["winner"].as_str().map(str::to_string),
                e["reason"].as_str().unwrap_or_default().to_string(),
                e["sequence"].as_u64().unwrap_or(0),
            )
        });
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let moves = moves_of(v["moves"].as_str().unwrap_or_default());
        games.insert(
            id,
            DiskGame {
                moves,
                black,
                white,
                ending,
            },
        );
    }
    Ok(games)
}

/// What the clients saw of one game, against its file.
fn check_game(id: &str, seen: &SeenGame, disk: Option<&DiskGame>, faults: &mut Vec<String>) {
    let Some(disk) = disk else {
        faults.push(format!(
            "game {id}: the clients played it, its file is gone"
        ));
        return;
    };
    for (&step, (user, coord)) in &seen.moves {
        if disk.moves.get(step) != Some(coord) {
            faults.push(format!(
                "game {id}: move {} {coord} by {user} was acknowledged, the file has {:?}",
                step + 1,
                disk.moves.get(step)
            ));
        }
        let mover = if step % 2 == 0 {
            &disk.black
        } else {
            &disk.white
        };
        if mover != user {
            faults.push(format!(
                "game {id}: move {} was {user}'s, the file gives it to {mover}",
                step + 1
            ));
        }
    }
    let Some((winner, board)) = &seen.finish else {
        return;
    };
    let Some((disk_winner, reason, _)) = &disk.ending else {
        faults.push(format!(
            "game {id}: the clients saw it end, its file has it running"
        ));
        return;
    };
    if disk.moves.concat() != *board {
        faults.push(format!(
            "game {id}: the clients saw {board}, the file has {}",
            disk.moves.concat()
        ));
    }
    if let Some(step) = (0..disk.moves.len()).find(|s| !seen.moves.contains_key(s)) {
        faults.push(format!(
            "game {id}: move {} was never acknowledged to its player",
            step + 1
        ));
    }
    if disk_winner != winner {
        faults.push(format!(
            "game {id}: the clients saw {winner:?} win, the file says {disk_winner:?}"
        ));
    }
    // The rules, checked here and not taken from the server: five means the last move made
    // five, and its player won.
    if reason == "five" {
        let last = disk.moves.last().and_then(|m| parse_point(m));
        let five = Board::from_moves(&disk.moves)
            .zip(last)
            .is_some_and(|(b, p)| b.five_through(p));
        let last_mover = if disk.moves.len() % 2 == 1 {
            &disk.black
        } else {
            &disk.white
        };
        if !five || disk_winner.as_ref() != Some(last_mover) {
            faults.push(format!(
                "game {id}: ended as five, but the moves say otherwise"
            ));
        }
    }
}

/// One line of the rating table: rating, games, wins, losses, draws.
type Row = (f64, u32, u32, u32, u32);

/// The finished games replayed in the order they finished, as the seed grades: everyone from
/// 1500, K = 32, expected score 1 / (1 + 10^((theirs - yours) / 400)).
fn replay(games: &BTreeMap<String, DiskGame>, faults: &mut Vec<String>) -> BTreeMap<String, Row> {
    let mut finished: Vec<(&DiskGame, u64)> = games
        .values()
        .filter_map(|g| g.ending.as_ref().map(|e| (g, e.2)))
        .collect();
    finished.sort_by_key(|&(_, seq)| seq);
    if finished.windows(2).any(|w| w[0].1 == w[1].1) {
        faults.push("two finished games share a sequence number".into());
    }
    let mut table: BTreeMap<String, Row> = BTreeMap::new();
    for (g, _) in finished {
        let Some((winner, _, _)) = &g.ending else {
            continue;
        };
        let rating = |t: &BTreeMap<String, Row>, u: &str| t.get(u).map_or(1500.0, |r| r.0);
        let (rb, rw) = (rating(&table, &g.black), rating(&table, &g.white));
        let score = match winner {
            Some(w) if *w == g.black => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let delta = 32.0 * (score - 1.0 / (1.0 + 10f64.powf((rw - rb) / 400.0)));
        for (user, change, s) in [
            (&g.black, delta, score),
            (&g.white, 0.0 - delta, 1.0 - score),
        ] {
            let row = table.entry(user.clone()).or_insert((1500.0, 0, 0, 0, 0));
            row.0 += change;
            row.1 += 1;
            match s {
                x if x > 0.75 => row.2 += 1,
                x if x < 0.25 => row.3 += 1,
                _ => row.4 += 1,
            }
        }
    }
    table
}

fn server_table(answer: &Value) -> BTreeMap<String, Row> {
    let count = |r: &Value, k: &str| r[k].as_u64().unwrap_or(0) as u32;
    answer["ratings"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    let user = r["user"].as_str().unwrap_or_default().to_string();
                    let row = (
                        r["elo"].as_f64().unwrap_or(f64::NAN),
                        count(r, "games"),
                        count(r, "wins"),
                        count(r, "losses"),
                        count(r, "draws"),
                    );
                    (user, row)
                })
                .collect()
        })
        .unwrap_or_default()
}

fn ratings(shared: &Shared) -> Option<Value> {
    exchange(shared.addr, &get_request("/elo"), Duration::from_secs(30))
        .ok()
        .and_then(|a| a.json())
}

/// The final restart and the audit; the report of the whole run.
pub fn finish(
    shared: &Shared,
    server: &mut Supervisor,
    data: &Path,
    kills: Vec<KillRecord>,
    latencies: Latencies,
    elapsed: Duration,
) -> Result<LoadReport, String> {
    let mut faults = std::mem::take(&mut *lock(&shared.faults));
    let ledger = std::mem::take(&mut *lock(&shared.ledger));
    let before = ratings(shared);
    if shared.settings.sabotage {
        // The audit must be able to fail: a finished game's file goes missing.
        if let Some(id) = ledger
            .games
            .iter()
            .find(|(_, g)| g.finish.is_some())
            .map(|(id, _)| id)
        {
            let _ = std::fs::remove_file(data.join("games").join(format!("{id}.json")));
        }
    }
    server.kill();
    if let Err(e) = server.start() {
        faults.push(format!("the server did not start again on its folder: {e}"));
    }
    let after = ratings(shared);
    if before.as_ref().map(|v| &v["ratings"]) != after.as_ref().map(|v| &v["ratings"]) {
        faults.push("the rating table changed across the final kill -9 and restart".into());
    }
    let disk = read_games(data)?;
    for (id, seen) in &ledger.games {
        check_game(id, seen, disk.get(id), &mut faults);
    }
    for (id, g) in &disk {
        if g.ending.is_some() && ledger.games.get(id).is_none_or(|s| s.finish.is_none()) {
            faults.push(format!(
                "game {id}: finished on disk, but no client saw it end"
            ));
        }
    }
    let replayed = replay(&disk, &mut faults);
    let served = after.as_ref().map(server_table).unwrap_or_default();
    for user in replayed.keys().chain(served.keys()) {
        let (mine, theirs) = (replayed.get(user), served.get(user));
        let same = match (mine, theirs) {
            (Some(m), Some(t)) => {
                (m.0 - t.0).abs() < 0.05 + 1e-9 && (m.1, m.2, m.3, m.4) == (t.1, t.2, t.3, t.4)
            }
            _ => false,
        };
        if !same {
            faults.push(format!(
                "{user}: the replay of the finished games gives {mine:?}, the server {theirs:?}"
            ));
        }
    }
    faults.dedup();
    let resumed = kills
        .iter()
        .map(|k| {
            k.in_progress
                .iter()
                .filter(|id| ledger.games.get(*id).is_some_and(|g| g.finish.is_some()))
                .count()
        })
        .collect();
    Ok(LoadReport {
        settings: shared.settings.clone(),
        elapsed,
        requests: shared.requests.load(std::sync::atomic::Ordering::Relaxed),
        latencies,
        games_finished: ledger.games.values().filter(|g| g.finish.is_some()).count(),
        moves: ledger.games.values().map(|g| g.moves.len()).sum(),
        hostile: std::mem::take(&mut *lock(&shared.tally)),
        kills,
        resumed,
        in_flight_kept: ledger.in_flight_kept,
        in_flight_lost: ledger.in_flight_lost,
        ratings_checked: replayed.len(),
        server_errors: lock(&shared.server.errors).clone(),
        data_dir: data.to_path_buf(),
        faults,
    })
}
