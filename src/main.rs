//! The stonebrain command line. With no subcommand it serves a platform on standard input.

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;
use std::time::Instant;
use stonebrain::arena::cli::{ArenaArgs, BracketArgs};
use stonebrain::classroom::cli::{ClassroomArgs, ClassroomServerArgs};
use stonebrain::console::PlayArgs;
use stonebrain::protocol::cli::{command_line, serve_platform, ServeArgs};
use stonebrain::protocol::GameKind;

#[derive(Parser)]
#[command(
    name = "stonebrain",
    version,
    about = "Plays NoGo, Connect6 and Gomoku on Botzone, the SAU platform and Gomocup managers"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

/// What `bench` measures: a game's search speed, or start-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BenchWhat {
    Nogo,
    Gomoku,
    Connect6,
    Startup,
}

#[derive(Subcommand)]
enum Command {
    /// Measure search speed on fixed positions, or (`startup`) how fast a fresh process answers.
    Bench {
        what: BenchWhat,
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
        /// Seconds of search per position.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// startup: starts measured per case.
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// startup: the program to start, `{game}` standing for the game's name (default: this
        /// program with `--game {game} --playouts 1 --seed 1`).
        #[arg(long)]
        command: Option<String>,
    },
    /// Referee a match between two engines over their real protocols.
    Arena(ArenaArgs),
    /// Run a seeded single-elimination bracket, with an HTML report.
    Bracket(BracketArgs),
    /// Pool the game files of arena runs: score, pairs, Elo, where an SPRT stands, move times.
    Tally(stonebrain::arena::tally::TallyArgs),
    /// Play against the computer at the console (or watch it play itself).
    Play(PlayArgs),
    /// Play one game of gomoku on a class battle server (seed 000), as a student's bot.
    Classroom(ClassroomArgs),
    /// Run a class battle server (seed 000): RSA logins, games over HTTP, Elo ratings.
    ClassroomServer(ClassroomServerArgs),
    /// Self-play for the network's training data: positions with the search's visits and the
    /// game's result (resumable, seeded).
    Selfplay(stonebrain::training::nogo::selfplay::SelfplayArgs),
    /// Build the prepared opening book by long searches (resumable: a stopped build goes on).
    Book(stonebrain::training::connect6::book::BookArgs),
    /// Turn arena game files into the Connect6 value network's training records.
    Positions(stonebrain::training::connect6::positions::PositionsArgs),
}

fn main() -> ExitCode {
    // Botzone times a full-history turn from process start: stamp it first.
    let process_start = Instant::now();
    // With no arguments at all (the SAU platform starts engines that way), flags may come from
    // `stonebrain.args` next to the executable.
    let (args, args_file) = command_line();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(file) = args_file {
                eprintln!("stonebrain: in the flags read from {}:", file.display());
            }
            e.exit()
        }
    };
    match cli.command {
        None => serve_platform(&cli.serve, process_start),
        Some(Command::Bench {
            what,
            json,
            seconds,
            runs,
            command,
        }) => match what {
            BenchWhat::Nogo => bench(GameKind::Nogo, json, seconds),
            BenchWhat::Gomoku => bench(GameKind::Gomoku, json, seconds),
            BenchWhat::Connect6 => bench(GameKind::Connect6, json, seconds),
            BenchWhat::Startup => bench_startup(command, runs, json),
        },
        Some(Command::Arena(args)) => report_error(stonebrain::arena::cli::arena(&args)),
        Some(Command::Bracket(args)) => report_error(stonebrain::arena::cli::bracket(&args)),
        Some(Command::Tally(args)) => report_error(stonebrain::arena::tally::run(&args)),
        Some(Command::Play(args)) => stonebrain::console::play(&args),
        Some(Command::Classroom(args)) => stonebrain::classroom::cli::classroom(&args),
        Some(Command::ClassroomServer(args)) => stonebrain::classroom::cli::classroom_server(&args),
        Some(Command::Selfplay(args)) => {
            report_error(stonebrain::training::nogo::selfplay::selfplay(&args))
        }
        Some(Command::Book(args)) => {
            report_error(stonebrain::training::connect6::book::build(&args))
        }
        Some(Command::Positions(args)) => report_error(
            stonebrain::training::connect6::positions::write(&args).map_err(|e| format!("{e:#}")),
        ),
    }
}

fn bench(game: GameKind, json: bool, seconds: f64) -> ExitCode {
    match game {
        GameKind::Nogo => bench_nogo(json, seconds),
        GameKind::Connect6 => bench_search(stonebrain::bench::bench_connect6(seconds), json),
        GameKind::Gomoku => bench_search(stonebrain::bench::bench_gomoku(seconds), json),
    }
}

fn bench_nogo(json: bool, seconds: f64) -> ExitCode {
    print_nogo_bench_header(json, "playouts", "the playout search (no network)");
    for line in stonebrain::bench::bench_nogo(seconds) {
        print_bench_line(&line, json);
    }
    print_nogo_bench_header(
        json,
        "leaves",
        "the default search (PUCT, built-in network)",
    );
    for line in stonebrain::bench::bench_nogo_puct(seconds) {
        print_bench_line(&line, json);
    }
    print_nogo_bench_header(json, "evals", "network");
    for line in stonebrain::bench::bench_nogo_network(seconds) {
        if json {
            println!("{}", line.to_json());
        } else {
            println!(
                "{:<10} {:>10} {:>8.3} {:>14.0}  {}",
                line.position, line.evals, line.seconds, line.evals_per_sec, line.network
            );
        }
    }
    ExitCode::SUCCESS
}

/// The header of one table of the NoGo bench (none in JSON): `work` is what the search counts
/// (its rate is `work/s`), `title` says which search the table times.
fn print_nogo_bench_header(json: bool, work: &str, title: &str) {
    if !json {
        let rate = format!("{work}/s");
        println!(
            "{:<10} {:>10} {:>8} {rate:>14}  {title}",
            "position", work, "seconds"
        );
    }
}

fn print_bench_line(line: &stonebrain::bench::BenchLine, json: bool) {
    if json {
        println!("{}", line.to_json());
    } else {
        println!(
            "{:<10} {:>10} {:>8.3} {:>14.0}",
            line.position, line.playouts, line.seconds, line.playouts_per_sec
        );
    }
}

/// Prints the lines of an alpha-beta engine's bench (Connect6, Gomoku).
fn bench_search(lines: Vec<stonebrain::bench::SearchBenchLine>, json: bool) -> ExitCode {
    if !json {
        println!(
            "{:<14} {:>6} {:>10} {:>8} {:>10} {:>7}",
            "position", "kind", "nodes", "seconds", "nodes/s", "solved"
        );
    }
    for line in lines {
        if json {
            println!("{}", line.to_json());
        } else {
            let solved = line.solved.map_or("-", |s| if s { "yes" } else { "no" });
            println!(
                "{:<14} {:>6} {:>10} {:>8.3} {:>10.0} {:>7}",
                line.position, line.kind, line.nodes, line.seconds, line.nodes_per_sec, solved
            );
        }
    }
    ExitCode::SUCCESS
}

fn bench_startup(command: Option<String>, runs: usize, json: bool) -> ExitCode {
    let command = command.unwrap_or_else(stonebrain::startup_bench::default_command);
    let lines = match stonebrain::startup_bench::bench_startup(&command, runs) {
        Ok(lines) => lines,
        Err(e) => return report_error(Err(e)),
    };
    if !json {
        println!("command: {command}");
        println!(
            "{:<12} {:>5} {:>10} {:>8} {:>8}",
            "case", "runs", "median ms", "min ms", "max ms"
        );
    }
    for line in lines {
        if json {
            println!("{}", line.to_json());
        } else {
            println!(
                "{:<12} {:>5} {:>10.1} {:>8.1} {:>8.1}",
                line.case, line.runs, line.median_ms, line.min_ms, line.max_ms
            );
        }
    }
    ExitCode::SUCCESS
}

fn report_error(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stonebrain: {e}");
            ExitCode::from(2)
        }
    }
}
