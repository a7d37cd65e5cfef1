//! `stonebrain-fit`: fits the Gomoku engine's evaluation weights to a stronger Gomocup engine's
//! judgement of positions from arena games, a program of its own so that the bot's binary
//! carries none of it. Three steps, each writing a file the next one reads:
//!
//! ```text
//! stonebrain-fit positions --out positions.txt --max 30000 games/*.jsonl
//! stonebrain-fit label --engine ./pbrain-rapfi --ms 100 --workers 2 positions.txt labels.txt
//! stonebrain-fit fit labels.txt
//! ```
//!
//! `positions` takes the quiet positions (no five to make) of 15x15 games, each once, shuffled,
//! a line each in the arena's openings format.
//! `label` sends each to the engine as a Gomocup `BOARD` and keeps the last `Eval` its
//! `MESSAGE` lines report (Rapfi's form: a number in its units, `+M7`/`-M7` for proven results)
//! and its move. `fit` turns the evaluations into win rates and prints the fitted weights, as
//! the arrays of `src/engine/gomoku/board.rs`, with the log loss against the weights in use.
//!
//! `fit --code-ridge R` also fits a worth per shape code (a point's four classes) on top of the
//! classes and combinations, each held towards 0 by R points' worth.
//!
//! Three more steps read positions for other ends. `order` takes the labels' moves: how often the
//! engine's choice is among the first candidates of our static move order. `policy` fits the
//! learned move order (`src/engine/gomoku/policy.rs`) to those moves and prints its tables. `choose` is for
//! comparing engine settings rather than fitting: the move a built-in engine spec picks in each
//! position. Labelling the positions after two specs' choices says, position by position, which
//! choices the stronger engine judges worse.

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;
use stonebrain::arena::duel::parse_openings;
use stonebrain::arena::player::TimeControl;
use stonebrain::arena::player::{Player, Turn};
use stonebrain::arena::players::builtin::Builtin;
use stonebrain::engine::gomoku::fit::{
    choice, fit, fit_policy, order_rank, quiet_features, Sample,
};
use stonebrain::game::gomoku::{Gomoku, GomokuRules, Point};
use stonebrain::game::Game;

/// The board the evaluation is fitted on.
const SIZE: usize = 15;

#[derive(Parser)]
#[command(
    name = "stonebrain-fit",
    about = "Fits the Gomoku evaluation to a stronger engine's judgement"
)]
struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(Subcommand)]
enum Step {
    /// Quiet positions of arena games (`--out` JSON lines), one per line as `x,y` moves.
    Positions {
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 30_000)]
        max: usize,
        #[arg(long, default_value_t = 7)]
        seed: u64,
        /// Positions before this ply are skipped (the openings are chosen, not played).
        #[arg(long, default_value_t = 4)]
        from_ply: usize,
        games: Vec<PathBuf>,
    },
    /// Each position's evaluation by a Gomocup engine.
    Label {
        /// The engine's command line.
        #[arg(long)]
        engine: String,
        /// Its time for each position (`INFO timeout_turn`).
        #[arg(long, default_value_t = 100)]
        ms: u64,
        /// Engine processes run side by side.
        #[arg(long, default_value_t = 1)]
        workers: usize,
        input: PathBuf,
        output: PathBuf,
    },
    /// The move a built-in engine (an arena `builtin=` spec, e.g. `full:300000n,width=12`)
    /// chooses in each position, as JSON lines `{"moves": ..., "choice": [x, y]}`: with a node
    /// budget the choices are the same on every run, so two specs can be compared position by
    /// position (a stronger engine's `label` of the positions after each choice says which
    /// choices cost more).
    Choose {
        #[arg(long)]
        spec: String,
        /// Positions searched side by side.
        #[arg(long, default_value_t = 1)]
        workers: usize,
        input: PathBuf,
        output: PathBuf,
    },
    /// How often the labelling engine's move is among the first candidates of the engine's
    /// static move order (the order before the search's table, killers and history).
    Order { labels: PathBuf },
    /// Scores for the static move order, fitted to the labelling engine's moves.
    Policy {
        /// Positions' worth of pull towards 0 on each score.
        #[arg(long, default_value_t = 1.0)]
        ridge: f64,
        labels: PathBuf,
    },
    /// The fitted weights.
    Fit {
        /// Win rate given to a proven loss (and one minus it to a proven win).
        #[arg(long, default_value_t = 0.1)]
        proven: f64,
        /// The engine's evaluation units per unit of log-odds (Rapfi's classical: 200).
        #[arg(long, default_value_t = 200.0)]
        scale: f64,
        /// Samples' worth of pull towards 0 on each threat-table entry (most masks are rare).
        #[arg(long, default_value_t = 10.0)]
        ridge: f64,
        /// Fit the shape-code table too, each entry pulled towards 0 by this many points' worth
        /// (without it, the table is left out of the fit and printed empty).
        #[arg(long)]
        code_ridge: Option<f64>,
        labels: PathBuf,
    },
}

fn main() -> Result<()> {
    match Args::parse().step {
        Step::Positions {
            out,
            max,
            seed,
            from_ply,
            games,
        } => positions(&out, max, seed, from_ply, &games),
        Step::Label {
            engine,
            ms,
            workers,
            input,
            output,
        } => label(&engine, ms, workers.max(1), &input, &output),
        Step::Choose {
            spec,
            workers,
            input,
            output,
        } => choose(&spec, workers.max(1), &input, &output),
        Step::Order { labels } => order(&labels),
        Step::Policy { ridge, labels } => fit_order(&labels, ridge),
        Step::Fit {
            proven,
            scale,
            ridge,
            code_ridge,
            labels,
        } => fit_labels(&labels, proven, scale, ridge, code_ridge),
    }
}

fn choose(spec: &str, workers: usize, input: &PathBuf, output: &PathBuf) -> Result<()> {
    let text = std::fs::read_to_string(input).with_context(|| format!("{input:?}"))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // Check the spec once before starting the workers.
    Builtin::<Gomoku>::from_spec("probe", spec, 0).map_err(|e| anyhow!(e))?;
    let chosen = dealt_out(&lines, workers, |mine| choose_some(spec, mine))?;
    let mut out = std::fs::File::create(output).with_context(|| format!("{output:?}"))?;
    for (_, line) in chosen {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Deals `lines` out to `workers` threads in turn, each running `work` on its share (the
/// lines with their numbers), and gathers the results in the lines' order.
fn dealt_out<F>(lines: &[&str], workers: usize, work: F) -> Result<Vec<(usize, String)>>
where
    F: Fn(&[(usize, &str)]) -> Result<Vec<(usize, String)>> + Sync,
{
    let work = &work;
    let results: Vec<Result<Vec<(usize, String)>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let mine: Vec<(usize, &str)> = lines
                    .iter()
                    .copied()
                    .enumerate()
                    .skip(w)
                    .step_by(workers)
                    .collect();
                s.spawn(move || work(&mine))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow!("a worker panicked")))
            })
            .collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    all.sort_unstable();
    Ok(all)
}

/// Each position searched by a fresh engine (no table carried over from the position before).
fn choose_some(spec: &str, lines: &[(usize, &str)]) -> Result<Vec<(usize, String)>> {
    let start = new_position();
    let mut chosen = Vec::new();
    for &(i, line) in lines {
        let g = parse_moves(line)?;
        if g.outcome().is_some() {
            bail!("position {}: the game is over", i + 1);
        }
        let mut player = Builtin::<Gomoku>::from_spec("probe", spec, 0).map_err(|e| anyhow!(e))?;
        player
            .new_game(g.side_to_move(), &start)
            .map_err(|e| anyhow!("{e:?}"))?;
        let turns: Vec<Vec<_>> = g.moves().iter().map(|&p| vec![p]).collect();
        let turn = Turn {
            start: &start,
            pos: &g,
            turns: &turns,
            budget: Duration::from_secs(3600),
            clock: TimeControl::default(),
            used: Duration::ZERO,
        };
        let (answer, _) = player.play(turn);
        let stones = answer.map_err(|e| anyhow!("position {}: {e:?}", i + 1))?;
        let &[p] = stones.as_slice() else {
            bail!("position {}: {} stones chosen", i + 1, stones.len());
        };
        let (x, y) = g.coords(p);
        let record = serde_json::json!({"moves": line.trim(), "choice": [x, y]});
        chosen.push((i, record.to_string()));
    }
    Ok(chosen)
}

/// Each labelled position that has a move, with the move.
fn labelled_moves(labels: &PathBuf) -> Result<Vec<(Gomoku, Point)>> {
    let mut out = Vec::new();
    for (n, line) in std::fs::read_to_string(labels)?.lines().enumerate() {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(moves), Some(chosen)) = (cols.first(), cols.get(2)) else {
            continue;
        };
        let g = parse_moves(moves).with_context(|| format!("line {}", n + 1))?;
        // The chosen move, read as a one-stone opening played from the position.
        let p = parse_openings(chosen, &g)
            .map_err(|e| anyhow!("line {}: {e}", n + 1))?
            .into_iter()
            .flatten()
            .next()
            .ok_or_else(|| anyhow!("line {}: no move", n + 1))?;
        out.push((g, p));
    }
    Ok(out)
}

/// Prints, for the positions whose label has a move, the share of moves ranked within the first
/// 1, 3, 5, 8 and 16 candidates (16 is the search's width) and the share not a candidate.
fn order(labels: &PathBuf) -> Result<()> {
    const FIRST: [usize; 5] = [1, 3, 5, 8, 16];
    let (mut quiet, mut outside) = (0usize, 0usize);
    let mut within = [0usize; FIRST.len()];
    for (g, p) in labelled_moves(labels)? {
        let Some(rank) = order_rank(&g, p) else {
            continue;
        };
        quiet += 1;
        match rank {
            Some(rank) => {
                for (count, &k) in within.iter_mut().zip(&FIRST) {
                    *count += (rank < k) as usize;
                }
            }
            None => outside += 1,
        }
    }
    if quiet == 0 {
        bail!("{labels:?}: no quiet position with a move");
    }
    let share = |k: usize| 100.0 * k as f64 / quiet as f64;
    println!("{quiet} quiet positions");
    for (count, k) in within.iter().zip(FIRST) {
        println!("within the first {k:>2}: {:.1}%", share(*count));
    }
    println!("not a candidate: {:.1}%", share(outside));
    Ok(())
}

/// The chosen move of each labelled quiet position, fitted as the static move order's scores.
fn fit_order(labels: &PathBuf, ridge: f64) -> Result<()> {
    let mut choices = Vec::new();
    for (g, p) in labelled_moves(labels)? {
        choices.extend(choice(&g, p));
    }
    let f = fit_policy(&choices, 5, ridge).map_err(|e| anyhow!(e))?;
    println!("{} positions, one in 5 held out", choices.len());
    println!(
        "log loss of the chosen move: fitted {:.4}, held out {:.4}",
        f.train_loss, f.test_loss
    );
    for (i, k) in [1, 3, 8, 16].iter().enumerate() {
        println!(
            "held out, within the first {k:>2}: fitted {:.1}%, in use {:.1}%",
            100.0 * f.fitted_within[i],
            100.0 * f.current_within[i]
        );
    }
    println!(
        "const VALUE_WEIGHTS: [i32; 2] = [{}, {}];",
        (f.value_weights[0] * 1000.0).round(),
        (f.value_weights[1] * 1000.0).round()
    );
    print_code_table("POLICY_FITTED", &f.table);
    Ok(())
}

fn new_position() -> Gomoku {
    Gomoku::new(GomokuRules::new(SIZE, false).expect("15x15 is a valid board"))
}

/// A line of `x,y` moves played from the empty board: one line of the arena's openings format.
fn parse_moves(text: &str) -> Result<Gomoku> {
    let mut g = new_position();
    let moves = parse_openings(text, &g).map_err(|e| anyhow!(e))?;
    for p in moves.into_iter().flatten() {
        g.play(p);
    }
    Ok(g)
}

fn moves_text(g: &Gomoku) -> String {
    let moves: Vec<String> = g
        .moves()
        .iter()
        .map(|&p| {
            let (x, y) = g.coords(p);
            format!("{x},{y}")
        })
        .collect();
    moves.join(" ")
}

fn positions(
    out: &PathBuf,
    max: usize,
    seed: u64,
    from_ply: usize,
    games: &[PathBuf],
) -> Result<()> {
    let mut seen = fxhash::FxHashSet::default();
    let mut found = Vec::new();
    for path in games {
        let text = std::fs::read_to_string(path).with_context(|| format!("{path:?}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let game: serde_json::Value = serde_json::from_str(line)?;
            if game["board_size"].as_u64() != Some(SIZE as u64) {
                continue;
            }
            let moves = game["moves"]
                .as_array()
                .ok_or_else(|| anyhow!("{path:?}: a game without moves"))?;
            let mut g = new_position();
            // The last position is the end of the game, not one to judge.
            for m in moves.iter().take(moves.len().saturating_sub(1)) {
                let (x, y) = (m[0].as_u64(), m[1].as_u64());
                let p = match (x, y) {
                    (Some(x), Some(y)) => g.try_point(x as usize, y as usize),
                    _ => None,
                }
                .ok_or_else(|| anyhow!("{path:?}: a bad move {m}"))?;
                if g.check_move(p).is_err() {
                    break;
                }
                g.play(p);
                if g.ply() < from_ply || g.outcome().is_some() {
                    continue;
                }
                // The same stones reached in another order are the same position.
                let mut stones: Vec<(usize, bool)> = g
                    .moves()
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (p as usize, i % 2 == 0))
                    .collect();
                stones.sort_unstable();
                if seen.insert(stones) && quiet_features(&g).is_some() {
                    found.push(moves_text(&g));
                }
            }
        }
    }
    found.shuffle(&mut rand::rngs::SmallRng::seed_from_u64(seed));
    found.truncate(max);
    let mut text = found.join("\n");
    text.push('\n');
    std::fs::write(out, text)?;
    eprintln!("{} quiet positions written to {out:?}", found.len());
    Ok(())
}

fn label(engine: &str, ms: u64, workers: usize, input: &PathBuf, output: &PathBuf) -> Result<()> {
    let text = std::fs::read_to_string(input)?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let all = dealt_out(&lines, workers, |mine| label_some(engine, ms, mine))?;
    let mut text: String = all.into_iter().map(|(_, l)| l + "\n").collect();
    if text.is_empty() {
        text.push('\n');
    }
    std::fs::write(output, text)?;
    Ok(())
}

/// One engine process judging `positions`: `moves TAB eval TAB move` for each.
fn label_some(engine: &str, ms: u64, positions: &[(usize, &str)]) -> Result<Vec<(usize, String)>> {
    let mut parts = engine.split_whitespace();
    let program = parts.next().ok_or_else(|| anyhow!("an empty --engine"))?;
    let mut child = Command::new(program)
        .args(parts)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {engine:?}"))?;
    let mut to = child.stdin.take().expect("piped");
    let mut from = BufReader::new(child.stdout.take().expect("piped"));
    writeln!(to, "START {SIZE}")?;
    let mut line = String::new();
    from.read_line(&mut line)?;
    if line.trim() != "OK" {
        bail!("{engine} answered START with {:?}", line.trim());
    }
    writeln!(to, "INFO timeout_turn {ms}")?;
    let mut out = Vec::new();
    for &(i, moves) in positions {
        let g = parse_moves(moves).with_context(|| format!("position {}", i + 1))?;
        let side = g.ply() % 2;
        let mut board = String::from("BOARD\n");
        for (k, &p) in g.moves().iter().enumerate() {
            let (x, y) = g.coords(p);
            let own = if k % 2 == side { 1 } else { 2 };
            board.push_str(&format!("{x},{y},{own}\n"));
        }
        board.push_str("DONE");
        writeln!(to, "{board}")?;
        to.flush()?;
        let mut eval = None;
        let reply = loop {
            line.clear();
            if from.read_line(&mut line)? == 0 {
                bail!("{engine} stopped at position {}", i + 1);
            }
            let l = line.trim();
            if let Some(rest) = l.split("Eval ").nth(1) {
                eval = rest.split_whitespace().next().map(String::from);
            }
            if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") && l.contains(',') {
                break l.to_string();
            }
        };
        let eval = eval.ok_or_else(|| anyhow!("{engine} gave no Eval at position {}", i + 1))?;
        out.push((i, format!("{moves}\t{eval}\t{reply}")));
    }
    writeln!(to, "END")?;
    let _ = child.wait();
    Ok(out)
}

/// A labelled evaluation as a win rate for the side to move.
fn win_rate(eval: &str, proven: f64, scale: f64) -> Option<f64> {
    if eval.contains('M') {
        return Some(if eval.starts_with('-') {
            proven
        } else {
            1.0 - proven
        });
    }
    let v: f64 = eval.parse().ok()?;
    Some(1.0 / (1.0 + (-v / scale).exp()))
}

fn fit_labels(
    labels: &PathBuf,
    proven: f64,
    scale: f64,
    ridge: f64,
    code_ridge: Option<f64>,
) -> Result<()> {
    let mut samples = Vec::new();
    for (n, line) in std::fs::read_to_string(labels)?.lines().enumerate() {
        let mut cols = line.split('\t');
        let (Some(moves), Some(eval)) = (cols.next(), cols.next()) else {
            continue;
        };
        let g = parse_moves(moves).with_context(|| format!("line {}", n + 1))?;
        let (Some(features), Some(target)) = (quiet_features(&g), win_rate(eval, proven, scale))
        else {
            continue;
        };
        samples.push(Sample { features, target });
    }
    let f = fit(&samples, 5, ridge, code_ridge).map_err(|e| anyhow!(e))?;
    println!("{} samples, one in 5 held out", samples.len());
    println!(
        "log loss: fitted {:.4} (held out {:.4}, {:.4} as written); in use {:.4} (held out {:.4})",
        f.train_loss, f.test_loss, f.written_test_loss, f.current_train_loss, f.current_test_loss
    );
    println!(
        "in the units of the weights in use: {:.1} a unit of log-odds",
        f.scale
    );
    println!("const EVAL_MOVER: [i32; EVAL_TERMS] = {:?};", f.mover);
    println!("const EVAL_WAITER: [i32; EVAL_TERMS] = {:?};", f.waiter);
    let seen: Vec<String> = f
        .threat
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(mask, v)| format!("({mask}, {v})"))
        .collect();
    println!(
        "const THREAT_FITTED: &[(u16, i32)] = &[{}];",
        seen.join(", ")
    );
    print_code_table("CODE_FITTED", &f.codes);
    Ok(())
}

/// Prints a table of (shape code, first, second) entries as the Rust constant `name`, the
/// form `eval.rs` and `policy.rs` write their code tables in.
fn print_code_table(name: &str, entries: &[(u16, i32, i32)]) {
    let listed: Vec<String> = entries
        .iter()
        .map(|(c, a, b)| format!("({c}, {a}, {b})"))
        .collect();
    println!(
        "const {name}: &[(u16, i32, i32)] = &[{}];",
        listed.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_legal_the_same_on_every_run_and_take_a_five() {
        // Black to move with four in a row open at both ends, and a quiet middle game.
        let lines = [
            (0, "7,7 0,0 8,7 0,2 9,7 0,4 10,7 0,6"),
            (1, "7,7 8,8 6,8 8,6 8,7 6,6 9,7"),
        ];
        let first = choose_some("full:20000n", &lines).unwrap();
        assert_eq!(first, choose_some("full:20000n", &lines).unwrap());
        let choice = |i: usize| -> (usize, usize) {
            assert_eq!(first[i].0, lines[i].0);
            let record: serde_json::Value = serde_json::from_str(&first[i].1).unwrap();
            assert_eq!(record["moves"], lines[i].1);
            let c = &record["choice"];
            (
                c[0].as_u64().unwrap() as usize,
                c[1].as_u64().unwrap() as usize,
            )
        };
        let five = choice(0);
        assert!(five == (6, 7) || five == (11, 7), "{five:?}");
        let (x, y) = choice(1);
        let g = parse_moves(lines[1].1).unwrap();
        let p = g.try_point(x, y).unwrap();
        assert!(g.check_move(p).is_ok(), "{:?} is taken", (x, y));
        // A finished game is refused with its position's number.
        let over = [(4, "7,7 0,0 8,7 0,2 9,7 0,4 10,7 0,6 11,7")];
        let err = choose_some("full:1000n", &over).unwrap_err().to_string();
        assert!(err.contains("position 5"), "{err}");
    }
}
