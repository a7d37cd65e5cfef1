//! The stonebrain command line. With no subcommand it serves a platform on standard input.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stonebrain::arena::cli::{ArenaArgs, BracketArgs};
use stonebrain::engine::nogo::{NogoConfig, NogoEngine};
use stonebrain::game::nogo::{Nogo, NogoRules};
use stonebrain::protocol::botzone::{BotzoneConfig, BotzoneJson, BotzoneSimple};
use stonebrain::protocol::detect::choose_game;
use stonebrain::protocol::session::Session;
use stonebrain::protocol::{
    detect, serve, GameKind, Line, LineReader, Protocol, ProtocolKind, ThreadedLines,
};

#[derive(Parser)]
#[command(
    name = "stonebrain",
    version,
    about = "Plays NoGo (and soon Connect6 and Gomoku) on Botzone, SAU and Gomocup"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Measure search speed on fixed positions.
    Bench {
        game: GameArg,
        /// One JSON object per position instead of a table.
        #[arg(long)]
        json: bool,
        /// Seconds of search per position.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
    },
    /// Referee a match between two engines over their real protocols.
    Arena(ArenaArgs),
    /// Run a seeded single-elimination bracket, with an HTML report.
    Bracket(BracketArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    Nogo,
    Gomoku,
    Connect6,
}

impl GameArg {
    fn kind(self) -> GameKind {
        match self {
            GameArg::Nogo => GameKind::Nogo,
            GameArg::Gomoku => GameKind::Gomoku,
            GameArg::Connect6 => GameKind::Connect6,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ProtocolArg {
    Botzone,
    BotzoneSimple,
    Sau,
    Gomocup,
}

#[derive(Args)]
struct ServeArgs {
    /// Platform protocol; detected from the first input line when omitted.
    #[arg(long, value_enum)]
    protocol: Option<ProtocolArg>,
    /// Game; when the platform cannot tell, taken from the program's name, else NoGo.
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// Botzone keep-running mode: stay alive between turns and keep the search tree.
    #[arg(long)]
    keep_running: bool,
    /// Milliseconds kept back from every time limit.
    #[arg(long, default_value_t = 150)]
    margin_ms: u64,
    /// Per-turn limit in milliseconds, replacing the platform's.
    #[arg(long)]
    time_ms: Option<u64>,
    /// Stop each search after this many playouts (reproducible play with --seed).
    #[arg(long)]
    playouts: Option<u64>,
    /// Random seed (default: different every run).
    #[arg(long)]
    seed: Option<u64>,
    /// NoGo class rule: Black's first move may not be the centre (off on Botzone).
    #[arg(long)]
    centre_ban: bool,
}

fn main() -> ExitCode {
    // Botzone times a full-history turn from process start: stamp it first.
    let process_start = Instant::now();
    let cli = Cli::parse();
    match cli.command {
        None => serve_platform(&cli.serve, process_start),
        Some(Command::Bench {
            game,
            json,
            seconds,
        }) => bench(game.kind(), json, seconds),
        Some(Command::Arena(args)) => report_error(stonebrain::arena::cli::arena(&args)),
        Some(Command::Bracket(args)) => report_error(stonebrain::arena::cli::bracket(&args)),
    }
}

fn bench(game: GameKind, json: bool, seconds: f64) -> ExitCode {
    match game {
        GameKind::Nogo => bench_nogo(json, seconds),
        GameKind::Connect6 => bench_connect6(json, seconds),
        GameKind::Gomoku => {
            eprintln!(
                "stonebrain: bench {} is not available in this build yet",
                game.name()
            );
            ExitCode::from(2)
        }
    }
}

fn bench_nogo(json: bool, seconds: f64) -> ExitCode {
    if !json {
        println!(
            "{:<10} {:>10} {:>8} {:>14}",
            "position", "playouts", "seconds", "playouts/s"
        );
    }
    for line in stonebrain::bench::bench_nogo(seconds) {
        if json {
            println!("{}", line.to_json());
        } else {
            println!(
                "{:<10} {:>10} {:>8.3} {:>14.0}",
                line.position, line.playouts, line.seconds, line.playouts_per_sec
            );
        }
    }
    ExitCode::SUCCESS
}

fn bench_connect6(json: bool, seconds: f64) -> ExitCode {
    if !json {
        println!(
            "{:<14} {:>6} {:>10} {:>8} {:>10} {:>7}",
            "position", "kind", "nodes", "seconds", "nodes/s", "solved"
        );
    }
    for line in stonebrain::bench::bench_connect6(seconds) {
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

fn report_error(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stonebrain: {e}");
            ExitCode::from(2)
        }
    }
}

fn protocol_kind(p: ProtocolArg) -> ProtocolKind {
    match p {
        ProtocolArg::Botzone => ProtocolKind::BotzoneJson,
        ProtocolArg::BotzoneSimple => ProtocolKind::BotzoneSimple,
        ProtocolArg::Sau => ProtocolKind::Sau,
        ProtocolArg::Gomocup => ProtocolKind::Gomocup,
    }
}

fn default_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ ((std::process::id() as u64) << 32)
}

fn serve_platform(args: &ServeArgs, process_start: Instant) -> ExitCode {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!(
            "stonebrain: waiting for a platform on standard input (Botzone JSON or simple, SAU, Gomocup); \
             to try it by hand, paste {{\"requests\":[{{\"x\":-1,\"y\":-1}}],\"responses\":[]}} (see --help)"
        );
    }
    // Not `stdin.lock()`: the reader moves to its own thread once the platform is known.
    let mut reader = LineReader::new(std::io::BufReader::new(stdin));
    let (kind, first) = match args.protocol {
        Some(p) => (protocol_kind(p), None),
        None => match first_recognised_line(&mut reader) {
            Some((kind, line)) => (kind, Some(line)),
            None => return ExitCode::SUCCESS,
        },
    };
    let program = std::env::args().next().unwrap_or_default();
    let game = choose_game(args.game.map(GameArg::kind), &program, kind);
    let config = BotzoneConfig {
        keep_running: args.keep_running,
        margin: Duration::from_millis(args.margin_ms),
        process_start,
        turn_limit: args.time_ms.map(Duration::from_millis),
    };
    let mut protocol: Box<dyn Protocol<u8>> = match (game, kind) {
        (GameKind::Nogo, ProtocolKind::BotzoneJson) => Box::new(BotzoneJson::<Nogo>::new(config)),
        (GameKind::Nogo, ProtocolKind::BotzoneSimple) => {
            Box::new(BotzoneSimple::<Nogo>::new(config))
        }
        (game, kind) => return unsupported(game, kind),
    };
    let engine = NogoEngine::new(NogoConfig {
        seed: args.seed.unwrap_or_else(default_seed),
        reuse_tree: args.keep_running,
        ..NogoConfig::default()
    });
    let mut lines = ThreadedLines::spawn(reader, protocol.interrupts());
    let mut session = Session::new(
        Nogo::new(NogoRules {
            centre_ban: args.centre_ban,
        }),
        Box::new(engine),
    );
    session.max_iterations = args.playouts;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = std::io::stderr();
    match serve(
        protocol.as_mut(),
        &mut session,
        first,
        &mut lines,
        &mut out,
        &mut err,
    ) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed output pipe means the platform has gone: nothing left to say to it.
        Err(_) => ExitCode::SUCCESS,
    }
}

/// Reads until a line that names a platform; complains about each line that does not.
fn first_recognised_line<R: std::io::BufRead>(
    reader: &mut LineReader<R>,
) -> Option<(ProtocolKind, Line)> {
    loop {
        let line = reader.next_line()?;
        match detect(&line.text) {
            Some(kind) => return Some((kind, line)),
            None => eprintln!(
                "stonebrain: cannot tell the platform from {:?} (expected Botzone JSON, a turn number, \
                 name?/new for SAU, or a Gomocup command); give --protocol to choose",
                line.text
            ),
        }
    }
}

/// A game or platform whose engine has not landed yet: say so in the platform's own way.
fn unsupported(game: GameKind, kind: ProtocolKind) -> ExitCode {
    let message = format!(
        "{} over the {} protocol is not available in this build yet",
        game.name(),
        kind.name()
    );
    // Each platform shows its own error form to the user; SAU gets nothing on its pipe, since it
    // would read any output as a command.
    let platform_line = match kind {
        ProtocolKind::Gomocup => Some(format!("ERROR {message}")),
        ProtocolKind::BotzoneJson => Some(
            serde_json::json!({ "response": null, "debug": format!("error: {message}") })
                .to_string(),
        ),
        ProtocolKind::BotzoneSimple => Some(format!("-1 -1\nerror: {message}")),
        ProtocolKind::Sau => None,
    };
    if let Some(line) = platform_line {
        let mut out = std::io::stdout();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    eprintln!("stonebrain: {message}");
    ExitCode::from(2)
}
