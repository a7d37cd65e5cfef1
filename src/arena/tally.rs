//! `stonebrain tally`: the score of one engine over the game files of one or more arena runs.
//!
//! A match long enough to decide something often outlives a sitting: it is stopped, started
//! again with another seed, and the runs are judged together. Reading the files back gives the
//! pooled score, the pairs (games 2k and 2k+1 of each run, matched by the game number the arena
//! writes), the Elo estimate, where a sequential test stands on all of them, and the engine's
//! move times, with the same statistics the arena prints at the end of a match.

use super::stats::{GamePoints, MatchScore};
use super::summary::{print_score, print_sprt, sprt_option};
use clap::Args;
use serde_json::Value;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TallyArgs {
    /// Game files written by `stonebrain arena --out` (JSON lines), pooled in the order given.
    #[arg(required = true, value_name = "GAMES.jsonl")]
    pub files: Vec<PathBuf>,
    /// The engine whose score is counted (default: Black of the first game).
    #[arg(long = "for", value_name = "NAME")]
    pub engine: Option<String>,
    /// Where a sequential test stands on the pooled pairs: `elo0=0 elo1=10 [alpha=0.05 beta=0.05]`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
}

/// One finished game as the tally needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct TalliedGame {
    pub black: String,
    pub white: String,
    /// "black", "white" or None for a draw.
    pub winner: Option<String>,
    /// The game's number in its run; None in files written before the arena wrote it.
    pub index: Option<u32>,
    /// Milliseconds of each turn of Black (first) and White (second).
    pub turn_ms: [Vec<u64>; 2],
}

/// Reads one arena game file; `name` labels its errors.
pub fn read_games(text: &str, name: &str) -> Result<Vec<TalliedGame>, String> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{name}, line {}", n + 1);
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{}: not a game record: {e}", at()))?;
        games.push(game_of(&v).map_err(|e| format!("{}: {e}", at()))?);
    }
    Ok(games)
}

fn game_of(v: &Value) -> Result<TalliedGame, String> {
    let text = |key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("no \"{key}\" in the record"))
    };
    let winner = match v.get("winner") {
        None | Some(Value::Null) => None,
        Some(Value::String(c)) if c == "black" || c == "white" => Some(c.clone()),
        Some(other) => return Err(format!("\"winner\" is {other}, not black, white or null")),
    };
    let index = match v.get("index") {
        None => None,
        Some(i) => Some(
            i.as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| format!("\"index\" is {i}, not a game number"))?,
        ),
    };
    // Connect6 records its turns stone by stone, the time on the first stone of each turn.
    let colours: Vec<char> = v
        .get("colors")
        .and_then(Value::as_str)
        .unwrap_or("")
        .chars()
        .collect();
    let millis: Vec<u64> = v
        .get("move_ms")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|m| m.as_u64().unwrap_or(0)).collect())
        .unwrap_or_default();
    let mut turn_ms = [Vec::new(), Vec::new()];
    for (i, (&c, &ms)) in colours.iter().zip(&millis).enumerate() {
        if i > 0 && colours[i - 1] == c {
            continue;
        }
        match c {
            'B' => turn_ms[0].push(ms),
            'W' => turn_ms[1].push(ms),
            _ => {}
        }
    }
    Ok(TalliedGame {
        black: text("black")?,
        white: text("white")?,
        winner,
        index,
        turn_ms,
    })
}

/// What the tally found: the pooled score and what goes with it.
#[derive(Debug, Default)]
pub struct Tallied {
    pub score: MatchScore,
    /// A's wins and games as Black, then as White.
    pub by_colour: [(u32, u32); 2],
    /// Every turn of A's, in milliseconds.
    pub turn_ms: Vec<u64>,
    /// The opponents met, each with its number of games.
    pub opponents: Vec<(String, u32)>,
    /// Runs whose games carry no number, paired as consecutive lines.
    pub unnumbered_runs: usize,
    /// The even game number past every run: where a further run's games are counted from.
    pub next_index: u32,
}

/// Pools the runs' games for engine `a`.
pub fn tally(runs: &[(String, Vec<TalliedGame>)], a: &str) -> Result<Tallied, String> {
    let mut t = Tallied::default();
    // Each run's games 2k and 2k+1 are a pair; the runs are laid end to end so that no pair
    // spans two of them.
    let mut offset: u32 = 0;
    for (name, games) in runs {
        let numbered = games.iter().all(|g| g.index.is_some());
        if !numbered {
            t.unnumbered_runs += 1;
        }
        let mut last = 0;
        for (line, g) in games.iter().enumerate() {
            let a_colour = if g.black == a {
                0
            } else if g.white == a {
                1
            } else {
                return Err(format!(
                    "{name}: game {} is {} against {}, without {a}",
                    line + 1,
                    g.black,
                    g.white
                ));
            };
            let opponent = if a_colour == 0 { &g.white } else { &g.black };
            match t.opponents.iter_mut().find(|(o, _)| o == opponent) {
                Some((_, n)) => *n += 1,
                None => t.opponents.push((opponent.clone(), 1)),
            }
            let won = g.winner.as_deref() == Some(if a_colour == 0 { "black" } else { "white" });
            let points = match &g.winner {
                None => GamePoints::Draw,
                Some(_) if won => GamePoints::Win,
                Some(_) => GamePoints::Loss,
            };
            let index = if numbered {
                g.index.unwrap_or(0)
            } else {
                line as u32
            };
            last = last.max(index);
            t.score.record(offset + index, points);
            t.by_colour[a_colour].1 += 1;
            t.by_colour[a_colour].0 += u32::from(won);
            t.turn_ms.extend(&g.turn_ms[a_colour]);
        }
        // The next run starts on an even number past this one's last game.
        offset += (last + 2) & !1;
    }
    t.next_index = offset;
    Ok(t)
}

/// Reads arena game files, each as (its name, its games).
pub fn read_runs(files: &[PathBuf]) -> Result<Vec<(String, Vec<TalliedGame>)>, String> {
    let mut runs = Vec::new();
    for file in files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {name}: {e}"))?;
        runs.push((name.clone(), read_games(&text, &name)?));
    }
    Ok(runs)
}

/// `stonebrain tally`.
pub fn run(args: &TallyArgs) -> Result<(), String> {
    let runs = read_runs(&args.files)?;
    let a = match &args.engine {
        Some(a) => a.clone(),
        None => runs
            .iter()
            .find_map(|(_, games)| games.first())
            .map(|g| g.black.clone())
            .ok_or("the files hold no games")?,
    };
    let sprt = sprt_option(args.sprt.as_deref())?;
    let t = tally(&runs, &a)?;
    let files: Vec<String> = runs
        .iter()
        .map(|(name, games)| format!("{name} ({} games)", games.len()))
        .collect();
    println!("pooled: {}", files.join(", "));
    if t.unnumbered_runs > 0 {
        println!(
            "({} file(s) without game numbers, written before the arena recorded them: pairs \
             taken as consecutive lines, right only for one game at a time)",
            t.unnumbered_runs
        );
    }
    let b: Vec<&str> = t.opponents.iter().map(|(o, _)| o.as_str()).collect();
    print_score(&a, &b.join(" / "), &t.score);
    let [(bw, bn), (ww, wn)] = t.by_colour;
    println!("{a} as Black {bw} of {bn}, as White {ww} of {wn}");
    if !t.turn_ms.is_empty() {
        let mut ms = t.turn_ms.clone();
        ms.sort_unstable();
        println!(
            "{a}'s turns: {}, {} ms at the median, {} ms at most",
            ms.len(),
            ms[ms.len() / 2],
            ms[ms.len() - 1]
        );
    }
    if let Some(s) = sprt {
        print_sprt(&s, &t.score, None);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
