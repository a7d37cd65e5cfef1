//! `stonebrain-soak`: thousands of games between two copies of the bot's binary over every game
//! and protocol, and the bot's peak memory at the platforms' largest limits (see
//! `stonebrain::soak`). A program of its own, so that the bot's binary carries none of it.
//!
//! ```text
//! stonebrain-soak play --games 3000 --concurrency 2     # fails on any fault
//! stonebrain-soak play --games 26 --pair "nogo gtp" --out games.jsonl
//! stonebrain-soak memory                                # one game per game and mode
//! stonebrain-soak list
//! ```

use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use stonebrain::arena::duel::MatchGame;
use stonebrain::soak::plan::{self, BotzoneLimits, Pair};
use stonebrain::soak::report;
use stonebrain::soak::run::{Fault, RunSettings};
use stonebrain::soak::{self, SoakSummary};

#[derive(Parser)]
#[command(
    name = "stonebrain-soak",
    about = "Plays the bot against itself over every platform protocol and checks every game"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Common {
    /// The bot's binary, for both sides (default: `stonebrain` next to this program).
    #[arg(long)]
    binary: Option<PathBuf>,
    /// Only these pairs (`nogo gtp`, `connect6 sau`, ...; see `list`); may be repeated.
    #[arg(long = "pair")]
    pairs: Vec<String>,
    /// Seed of the arena's matches (the bots seed themselves).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Subcommand)]
enum Command {
    /// The soak: games shared evenly among the pairs at fast limits; fails on any fault.
    Play {
        #[command(flatten)]
        common: Common,
        /// Games in all.
        #[arg(long, default_value_t = 3000)]
        games: u32,
        /// Games played at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
        /// Write every game here as a JSON line (the arena's record, with its pair).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// One game of each game and mode at its platform's largest limit, with the peak memory of
    /// the bot's processes.
    Memory {
        #[command(flatten)]
        common: Common,
        /// The Botzone language whose limits apply (the shipped zips are Python).
        #[arg(long, value_enum, default_value = "python")]
        botzone_language: Language,
        /// Games played at once (1: each bot has a core to itself, so it searches as deep, and
        /// grows as large, as on an idle judge).
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Multiply every limit by this (a quick check of the run itself; not a measurement).
        #[arg(long, default_value_t = 1.0)]
        scale: f64,
    },
    /// The pairs and their limits.
    List,
}

#[derive(Clone, Copy, ValueEnum)]
enum Language {
    Cpp,
    Python,
}

fn main() -> ExitCode {
    match run(Args::parse().command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("stonebrain-soak: {e}");
            ExitCode::from(2)
        }
    }
}

fn binary(common: &Common) -> Result<String, String> {
    let path = match &common.binary {
        Some(p) => p.clone(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find this program: {e}"))?
            .with_file_name(format!("stonebrain{}", std::env::consts::EXE_SUFFIX)),
    };
    if !path.exists() {
        return Err(format!("no bot binary at {}", path.display()));
    }
    Ok(path.to_string_lossy().into_owned())
}

/// The pairs `--pair` names, in the plan's order; all of them without `--pair`.
fn chosen(all: Vec<Pair>, names: &[String]) -> Result<Vec<Pair>, String> {
    if let Some(unknown) = names.iter().find(|n| !all.iter().any(|p| &p.label() == *n)) {
        return Err(format!(
            "no pair {unknown:?}: `stonebrain-soak list` names them"
        ));
    }
    Ok(all
        .into_iter()
        .filter(|p| names.is_empty() || names.contains(&p.label()))
        .collect())
}

fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::List => {
            for p in plan::soak_pairs() {
                println!(
                    "{:<38} {:<30} stonebrain {}",
                    p.label(),
                    p.limit_text(),
                    p.flags.join(" ")
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Play {
            common,
            games,
            concurrency,
            out,
        } => {
            let pairs = chosen(plan::soak_pairs(), &common.pairs)?;
            let binary = binary(&common)?;
            let file = match &out {
                Some(p) => Some(
                    std::fs::File::create(p)
                        .map_err(|e| format!("cannot write {}: {e}", p.display()))?,
                ),
                None => None,
            };
            let file = Mutex::new(file);
            let on_game = |label: &str, g: &MatchGame, fault: Option<&Fault>| {
                if let Some(f) = fault {
                    eprintln!("{}", report::fault_line(f));
                }
                if let Some(f) = file.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
                    let mut line = g.record.to_json();
                    line["pair"] = label.into();
                    if writeln!(f, "{line}").is_err() {
                        eprintln!("stonebrain-soak: cannot write a game to the --out file");
                    }
                }
            };
            let settings = RunSettings {
                binary: &binary,
                concurrency,
                seed: common.seed,
                on_game: &on_game,
            };
            println!(
                "soak: {games} games over {} pairs, {concurrency} at once, both sides {binary}",
                pairs.len()
            );
            let summary = soak::soak(&pairs, games, &settings)?;
            println!();
            print!("{}", report::soak_table(&summary));
            print!("{}", report::totals(&summary));
            Ok(verdict(&summary, &plan::share(games, pairs.len()), true))
        }
        Command::Memory {
            common,
            botzone_language,
            concurrency,
            scale,
        } => {
            if !(scale > 0.0 && scale <= 1.0) {
                return Err(format!("--scale {scale}: give a factor above 0, at most 1"));
            }
            let limits = match botzone_language {
                Language::Cpp => BotzoneLimits::Cpp,
                Language::Python => BotzoneLimits::Python,
            };
            let pairs = chosen(plan::memory_pairs(limits, scale), &common.pairs)?;
            let binary = binary(&common)?;
            let on_game = |_: &str, _: &MatchGame, fault: Option<&Fault>| {
                if let Some(f) = fault {
                    eprintln!("{}", report::fault_line(f));
                }
            };
            let settings = RunSettings {
                binary: &binary,
                concurrency,
                seed: common.seed,
                on_game: &on_game,
            };
            println!(
                "memory: one game of each of {} pairs, {concurrency} at once",
                pairs.len()
            );
            let summary = soak::memory(&pairs, &settings)?;
            println!();
            print!("{}", report::memory_table(&summary));
            print!("{}", report::totals(&summary));
            let ceiling = (report::BOTZONE_MEMORY_MB * 1024.0) as u64;
            let over = summary.over_memory(ceiling);
            if !over.is_empty() {
                println!("over Botzone's 256 MB: {}", over.join(", "));
            }
            Ok(verdict(&summary, &vec![1; pairs.len()], over.is_empty()))
        }
    }
}

/// Failure when any game ended by a fault, a pair played fewer games than it was given, or
/// something else was wrong (`ok` false: memory over the ceiling).
fn verdict(summary: &SoakSummary, wanted: &[u32], ok: bool) -> ExitCode {
    let idle = summary.idle_pairs(wanted);
    if !idle.is_empty() {
        println!(
            "pairs that did not play all their games: {}",
            idle.join(", ")
        );
    }
    if ok && summary.faults().is_empty() && idle.is_empty() {
        println!("PASS");
        ExitCode::SUCCESS
    } else {
        println!("FAIL");
        ExitCode::FAILURE
    }
}
