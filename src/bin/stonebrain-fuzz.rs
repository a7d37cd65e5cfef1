//! `stonebrain-fuzz`: the in-process fuzzer (see `stonebrain::fuzz`), a program of its own so
//! that the bot's binary carries none of it.
//!
//! ```text
//! stonebrain-fuzz --inputs 10000000 --seed 1          # every target in turn
//! stonebrain-fuzz --target gtp --seconds 30
//! stonebrain-fuzz --target gtp --replay target/fuzz-failures/gtp/1-12345.txt
//! stonebrain-fuzz --list
//! ```

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use stonebrain::fuzz::runner::{self, FailureKind, Settings};
use stonebrain::fuzz::{all_targets, target};

#[derive(Parser)]
#[command(
    name = "stonebrain-fuzz",
    about = "Feeds mutated transcripts and grammar-made input to every input surface of stonebrain"
)]
struct Args {
    /// Seed of the run: the same seed makes the same inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Inputs in all (shared by the targets in turn).
    #[arg(long)]
    inputs: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    seconds: Option<f64>,
    /// A target's name, or `all`.
    #[arg(long, default_value = "all")]
    target: String,
    /// Worker threads (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Seconds one input may run before it counts as a hang.
    #[arg(long, default_value_t = 2.0)]
    hang_seconds: f64,
    /// Where failing inputs are written.
    #[arg(long, default_value = "target/fuzz-failures")]
    failures: PathBuf,
    /// Run one saved input of `--target` instead, and say how it went.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// List the targets.
    #[arg(long)]
    list: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.list {
        for t in all_targets() {
            println!("{:<16} {}", t.name, t.about);
        }
        return ExitCode::SUCCESS;
    }
    let targets = if args.target == "all" {
        all_targets()
    } else {
        match target(&args.target) {
            Some(t) => vec![t],
            None => {
                eprintln!("stonebrain-fuzz: no target {:?} (see --list)", args.target);
                return ExitCode::from(2);
            }
        }
    };
    if let Some(file) = &args.replay {
        let [t] = targets.as_slice() else {
            eprintln!("stonebrain-fuzz: --replay needs --target NAME");
            return ExitCode::from(2);
        };
        let input = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("stonebrain-fuzz: cannot read {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        return match runner::replay(t, &input) {
            Ok(()) => {
                println!("{}: passes", file.display());
                ExitCode::SUCCESS
            }
            Err((kind, message)) => {
                let kind = match kind {
                    FailureKind::Panic => "panic",
                    FailureKind::Oracle => "broken answer",
                };
                println!("{}: FAILS ({kind}): {message}", file.display());
                ExitCode::FAILURE
            }
        };
    }
    if args.inputs.is_none() && args.seconds.is_none() {
        eprintln!("stonebrain-fuzz: give --inputs N or --seconds S (or both)");
        return ExitCode::from(2);
    }
    let workers = args.workers.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let settings = Settings {
        seed: args.seed,
        inputs: args.inputs,
        seconds: args.seconds,
        targets,
        workers,
        hang_after: Duration::from_secs_f64(args.hang_seconds.max(0.01)),
        failure_dir: args.failures,
        progress: true,
    };
    let report = runner::run(&settings);
    print!("{}", report.text());
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
