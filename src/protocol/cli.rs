//! Serving a platform from the command line: the options, where diagnostics go, which protocol
//! and game to set up, and the default flags file for platforms that start the bot without any.

use super::botzone::{BotzoneConfig, BotzoneJson, BotzoneLanguage, BotzoneSimple};
use super::detect::{choose_game, detect, protocol_from_program_name, GameKind, ProtocolKind};
use super::gomocup::{self, Gomocup, GomocupConfig};
use super::gtp::{Gtp, GtpConfig};
use super::sau::{self, Sau, SauConfig};
use super::session::Session;
use super::{serve, Line, LineReader, Protocol, ThreadedLines};
use crate::engine::connect6::network::model::Network as Connect6Network;
use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::engine::gomoku::level::{self, Level};
use crate::engine::nogo::network::{builtin, Network, Precision};
use crate::engine::nogo::options::{NetOptions, SearchArg};
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::game::connect6::{Connect6, Connect6Rules};
use crate::game::gomoku::Gomoku;
use crate::game::nogo::{Nogo, NogoRules};
use crate::game::Game;
use crate::search::clock::DEFAULT_MARGIN;
use clap::builder::BoolishValueParser;
use clap::{ArgAction, Args, ValueEnum};
use std::ffi::OsString;
use std::fs::File;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    Nogo,
    Gomoku,
    Connect6,
}

impl GameArg {
    pub fn kind(self) -> GameKind {
        match self {
            GameArg::Nogo => GameKind::Nogo,
            GameArg::Gomoku => GameKind::Gomoku,
            GameArg::Connect6 => GameKind::Connect6,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    Botzone,
    BotzoneSimple,
    Sau,
    Gomocup,
    Gtp,
}

impl ProtocolArg {
    pub fn kind(self) -> ProtocolKind {
        match self {
            ProtocolArg::Botzone => ProtocolKind::BotzoneJson,
            ProtocolArg::BotzoneSimple => ProtocolKind::BotzoneSimple,
            ProtocolArg::Sau => ProtocolKind::Sau,
            ProtocolArg::Gomocup => ProtocolKind::Gomocup,
            ProtocolArg::Gtp => ProtocolKind::Gtp,
        }
    }
}

/// The language a bot was uploaded to Botzone as (see `BotzoneLanguage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LanguageArg {
    Cpp,
    Python,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Platform protocol; detected from the first input line when omitted.
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,
    /// Game; when the platform cannot tell, taken from the program's name, else NoGo.
    #[arg(long, value_enum)]
    pub game: Option<GameArg>,
    /// Botzone keep-running mode: stay alive between turns and keep the search tree.
    #[arg(long)]
    pub keep_running: bool,
    /// Milliseconds kept back from every time limit (default 150; Gomocup: a sixteenth of the
    /// move's limit, from 120 to 150).
    #[arg(long)]
    pub margin_ms: Option<u64>,
    /// Per-turn limit in milliseconds, replacing the platform's (SAU: replacing the game clock).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Botzone: the language the bot was uploaded as, which sets the time limits when Botzone
    /// sends none (cpp: 1 s a turn, 2 s the first; python: 6 s, 4 s on later kept-running turns).
    #[arg(long, value_enum, default_value = "cpp")]
    pub botzone_language: LanguageArg,
    /// Stop each search after this many playouts (reproducible play with --seed).
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Random seed (default: different every run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// NoGo class rule: Black's first move may not be the centre (off on Botzone).
    #[arg(long)]
    pub centre_ban: bool,
    /// Gomoku playing level: wintable, classic or full (the search engine).
    #[arg(long, default_value = "full", value_parser = Level::parse)]
    pub level: Level,
    /// The name answered to SAU's `name?` and in Gomocup's `ABOUT` (1 to 12 ASCII letters or
    /// digits).
    #[arg(long, default_value = sau::DEFAULT_NAME, value_parser = sau::check_name)]
    pub name: String,
    /// SAU: our time for a whole game, in seconds (the class rule is 3 minutes a side).
    #[arg(long, default_value_t = 180.0, value_parser = parse_game_seconds)]
    pub game_seconds: f64,
    /// SAU: side of the board.
    #[arg(long, default_value_t = 19, value_parser = parse_board_size)]
    pub board_size: usize,
    /// Connect6 under a game clock (SAU): the turns that decide a game (our first four, the
    /// first two after the opening books, and turns whose search is unsettled or whose best
    /// two turns are close) may take up to 2.5 times their share of the clock, the others keep
    /// their share. On by default;
    /// `--connect6-focus off` turns it off.
    #[arg(long, default_value_t = true, num_args = 0..=1, default_missing_value = "on",
          value_parser = BoolishValueParser::new(), action = ArgAction::Set, value_name = "ON|OFF")]
    pub connect6_focus: bool,
    /// Connect6: play the prepared book's turns (built offline by `stonebrain book connect6`)
    /// where it has the position. On by default; `--connect6-prepared off` turns it off.
    #[arg(long, default_value_t = true, num_args = 0..=1, default_missing_value = "on",
          value_parser = BoolishValueParser::new(), action = ArgAction::Set, value_name = "ON|OFF")]
    pub connect6_prepared: bool,
    /// Connect6: a value network file (`.sbc6`, trained by `src/training/connect6/train.py`)
    /// that values the search's positions in place of the fitted evaluation. None by default.
    #[arg(long, value_name = "FILE")]
    pub connect6_net: Option<std::path::PathBuf>,
    /// NoGo: the network whose policy advises the search: `builtin` (the default: the one
    /// inside this binary), `none` (the search alone), or a network file (`.sbnn`; write
    /// `./none` for a file of that name).
    #[arg(long, value_name = "builtin|none|FILE", default_value = "builtin", value_parser = parse_net_choice)]
    pub nogo_net: NetChoice,
    /// NoGo: how the network's search is set (shared with self-play).
    #[command(flatten)]
    pub net: NetOptions,
    /// Append diagnostics (bad input, time used, panics) to this file instead of standard error.
    /// On SAU and Gomocup nothing but protocol lines is ever written to the pipes, so without it
    /// they are dropped.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

fn parse_game_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

fn parse_board_size(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .ok()
        .filter(|&n| Connect6Rules::with_size(n).is_some())
        .ok_or_else(|| format!("{s:?} is not a supported board size (6 to 25)"))
}

/// The command line to parse: the real one, or, when the program was started with no arguments
/// at all (the SAU platform starts engines that way), the flags in `<program>.args` next to the
/// executable, if that file exists; then the file is returned too, for error messages. Each line
/// of the file is one flag, optionally followed by its value (the rest of the line, so paths may
/// hold spaces); blank lines and lines starting with `#` are skipped.
pub fn command_line() -> (Vec<OsString>, Option<PathBuf>) {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.len() > 1 {
        return (args, None);
    }
    let program = args
        .first()
        .cloned()
        .unwrap_or_else(|| OsString::from("stonebrain"));
    let Some((file, text)) =
        args_file().and_then(|f| Some((f.clone(), std::fs::read_to_string(f).ok()?)))
    else {
        return (vec![program], None);
    };
    let mut line = vec![program];
    line.extend(flags_from_file(&text).into_iter().map(OsString::from));
    (line, Some(file))
}

/// `<directory of the executable>/<its name without extension>.args`, if it exists.
fn args_file() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let stem = exe.file_stem()?.to_os_string();
    let mut name = stem;
    name.push(".args");
    let file = exe.parent()?.join(name);
    file.is_file().then_some(file)
}

/// The flags of an args file, in order.
pub fn flags_from_file(text: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(char::is_whitespace) {
            Some((flag, value)) => {
                flags.push(flag.to_string());
                let value = value.trim();
                let unquoted = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or(value);
                flags.push(unquoted.to_string());
            }
            None => flags.push(line.to_string()),
        }
    }
    flags
}

/// Where diagnostics go: standard error, a log file, or nowhere. Writing never fails: a log that
/// cannot be written must not stop the bot.
#[derive(Clone)]
pub enum Diagnostics {
    Stderr,
    File(Arc<Mutex<File>>),
    Nowhere,
}

impl Diagnostics {
    /// The log file if one was asked for (and can be opened), else standard error, or nothing
    /// at all when `silent` (SAU: its pipes carry protocol lines only).
    pub fn open(log: Option<&Path>, silent: bool) -> Diagnostics {
        let fallback = if silent {
            Diagnostics::Nowhere
        } else {
            Diagnostics::Stderr
        };
        let Some(path) = log else {
            return fallback;
        };
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(file) => Diagnostics::File(Arc::new(Mutex::new(file))),
            Err(e) => {
                let mut d = fallback;
                let _ = writeln!(d, "stonebrain: cannot open the log {}: {e}", path.display());
                d
            }
        }
    }

    /// Panics (a bug in a search, caught by the session and answered with a random legal
    /// stone) are written to the log, never to the pipes.
    pub fn catch_panic_messages(&self) {
        let log = self.clone();
        std::panic::set_hook(Box::new(move |info| {
            if let Diagnostics::File(file) = &log {
                // `try_lock`: a panic while the log is being written must not wait on itself.
                if let Ok(mut f) = file.try_lock() {
                    let _ = writeln!(f, "stonebrain: panic: {info}");
                }
            }
        }));
    }
}

impl Write for Diagnostics {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Diagnostics::Stderr => {
                let _ = std::io::stderr().write_all(buf);
            }
            Diagnostics::File(file) => {
                if let Ok(mut f) = file.lock() {
                    let _ = f.write_all(buf);
                }
            }
            Diagnostics::Nowhere => {}
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The margin asked for, or the shipped one (Gomocup scales its own, so it gets the option).
fn margin(args: &ServeArgs) -> Duration {
    args.margin_ms.map_or(DEFAULT_MARGIN, Duration::from_millis)
}

/// Which network advises the NoGo search.
#[derive(Clone, Debug, PartialEq)]
pub enum NetChoice {
    None,
    Builtin,
    File(PathBuf),
}

fn parse_net_choice(s: &str) -> Result<NetChoice, String> {
    Ok(match s {
        "" => return Err("give builtin, none or a network file".into()),
        "none" => NetChoice::None,
        "builtin" => NetChoice::Builtin,
        _ => NetChoice::File(PathBuf::from(s)),
    })
}

impl NetChoice {
    /// The network, read and checked; an error names the file and what was wrong.
    pub fn load(&self, precision: Precision) -> Result<Option<Arc<Network>>, String> {
        match self {
            NetChoice::None => Ok(None),
            NetChoice::Builtin => builtin::network_at(precision).map(Some),
            NetChoice::File(path) => {
                Network::from_file_at(path, precision).map(|n| Some(Arc::new(n)))
            }
        }
    }
}

fn default_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ ((std::process::id() as u64) << 32)
}

/// Serves the platform on standard input until it leaves.
pub fn serve_platform(args: &ServeArgs, process_start: Instant) -> ExitCode {
    // A network that cannot be read is a broken installation: say so and serve nothing, rather
    // than play on without it.
    let network = match args.nogo_net.load(args.net.net_precision.precision()) {
        Ok(net) => net,
        Err(e) => {
            eprintln!("stonebrain: {e}");
            return ExitCode::from(2);
        }
    };
    let connect6_net = match &args.connect6_net {
        None => None,
        Some(path) => match Connect6Network::from_file(path) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                eprintln!("stonebrain: --connect6-net {e}");
                return ExitCode::from(2);
            }
        },
    };
    // PUCT is the network's own search: without one, the request cannot be met as asked.
    if network.is_none() && args.net.nogo_search == Some(SearchArg::Puct) {
        eprintln!(
            "stonebrain: --nogo-search puct needs a network: give --nogo-net builtin or a file"
        );
        return ExitCode::from(2);
    }
    let stdin = std::io::stdin();
    let program = std::env::args().next().unwrap_or_default();
    // A `pbrain-` program is a Gomocup brain by the managers' own convention: they choose the
    // protocol by that prefix, so the bot does too.
    let known = args
        .protocol
        .map(ProtocolArg::kind)
        .or_else(|| protocol_from_program_name(&program));
    if stdin.is_terminal() && known.is_none() {
        eprintln!(
            "stonebrain: waiting for a platform on standard input (Botzone JSON or simple, SAU, Gomocup, GTP); \
             to try it by hand, paste {{\"requests\":[{{\"x\":-1,\"y\":-1}}],\"responses\":[]}} (see --help)"
        );
    }
    let mut reader = LineReader::new(stdin);
    // Complaints about unrecognised first lines wait until the platform is known: on SAU they
    // may only go to the log.
    let mut complaints = Vec::new();
    let detected = match known {
        Some(kind) => Some((kind, None)),
        None => first_recognised_line(&mut reader, &mut complaints)
            .map(|(kind, line)| (kind, Some(line))),
    };
    let kind_seen = detected.as_ref().map(|d| d.0);
    let sau = kind_seen == Some(ProtocolKind::Sau);
    // Piskvork gives a brain's standard error the same pipe as its standard output, where any
    // line that is not MESSAGE or DEBUG would be read as an answer: silent, like SAU.
    let silent = sau || kind_seen == Some(ProtocolKind::Gomocup);
    let mut diagnostics = Diagnostics::open(args.log.as_deref(), silent);
    for c in &complaints {
        let _ = writeln!(diagnostics, "stonebrain: {c}");
    }
    let Some((kind, first)) = detected else {
        return ExitCode::SUCCESS;
    };
    if silent {
        diagnostics.catch_panic_messages();
    }
    if sau {
        reader.set_nul_ends_line(true);
    }
    let game = choose_game(args.game.map(GameArg::kind), &program, kind);
    let seed = args.seed.unwrap_or_else(default_seed);
    let botzone = BotzoneConfig {
        keep_running: args.keep_running,
        margin: margin(args),
        process_start,
        turn_limit: args.time_ms.map(Duration::from_millis),
        language: match args.botzone_language {
            LanguageArg::Cpp => BotzoneLanguage::Cpp,
            LanguageArg::Python => BotzoneLanguage::Python,
        },
    };
    let io = Io {
        first,
        reader,
        diagnostics,
    };
    match (game, kind) {
        (GameKind::Nogo, ProtocolKind::BotzoneJson) => run(
            BotzoneJson::<Nogo>::new(botzone),
            nogo_session(args, seed, args.keep_running, &network),
            io,
        ),
        (GameKind::Nogo, ProtocolKind::BotzoneSimple) => run(
            BotzoneSimple::<Nogo>::new(botzone),
            nogo_session(args, seed, args.keep_running, &network),
            io,
        ),
        (GameKind::Connect6, ProtocolKind::BotzoneJson) => run(
            BotzoneJson::<Connect6>::new(botzone),
            connect6_session(
                args,
                seed,
                Connect6::new(Connect6Rules::BOTZONE),
                &connect6_net,
            ),
            io,
        ),
        (GameKind::Connect6, ProtocolKind::BotzoneSimple) => run(
            BotzoneSimple::<Connect6>::new(botzone),
            connect6_session(
                args,
                seed,
                Connect6::new(Connect6Rules::BOTZONE),
                &connect6_net,
            ),
            io,
        ),
        (GameKind::Connect6, ProtocolKind::Sau) => {
            let mut trace_to = io.diagnostics.clone();
            let protocol = Sau::new(SauConfig {
                name: args.name.clone(),
                size: args.board_size,
                game_time: Duration::from_secs_f64(args.game_seconds),
                margin: margin(args),
                turn_limit: args.time_ms.map(Duration::from_millis),
            })
            .with_trace(Box::new(move |line| {
                let _ = writeln!(trace_to, "stonebrain: {line}");
            }));
            let mut session =
                connect6_session(args, seed, protocol.start_position(), &connect6_net);
            session.end_turn_early = Some(sau::end_connect6_turn);
            run(protocol, session, io)
        }
        (GameKind::Nogo, ProtocolKind::Gtp) => run(
            Gtp::new(GtpConfig {
                name: args.name.clone(),
                margin: margin(args),
                turn_limit: args.time_ms.map(Duration::from_millis),
                rules: NogoRules {
                    centre_ban: args.centre_ban,
                },
            }),
            // A GTP engine lives for the whole game (for many games), so it keeps its tree.
            nogo_session(args, seed, true, &network),
            io,
        ),
        (GameKind::Gomoku, ProtocolKind::BotzoneJson) => run(
            BotzoneJson::<Gomoku>::new(botzone),
            gomoku_session(args, seed, Gomoku::default()),
            io,
        ),
        (GameKind::Gomoku, ProtocolKind::BotzoneSimple) => refuse(
            kind,
            "Botzone has no simple interaction for Gomoku: use JSON (the default), with \
             --keep-running if the bot is set to keep running"
                .to_string(),
            io.diagnostics,
        ),
        (GameKind::Gomoku, ProtocolKind::Gomocup) => {
            let mut trace_to = io.diagnostics.clone();
            let protocol = Gomocup::new(GomocupConfig {
                name: args.name.clone(),
                margin: args.margin_ms.map(Duration::from_millis),
                turn_limit: args.time_ms.map(Duration::from_millis),
            })
            .with_trace(Box::new(move |line| {
                let _ = writeln!(trace_to, "stonebrain: {line}");
            }));
            let mut session = gomoku_session(args, seed, protocol.start_position());
            session.board_maker = Some(gomocup::make_board);
            run(protocol, session, io)
        }
        (game, kind) => unsupported(game, kind, io.diagnostics),
    }
}

/// The input and diagnostics of a serve, once the platform is known.
struct Io {
    first: Option<Line>,
    reader: LineReader<std::io::Stdin>,
    diagnostics: Diagnostics,
}

fn nogo_session(
    args: &ServeArgs,
    seed: u64,
    reuse_tree: bool,
    network: &Option<Arc<Network>>,
) -> Session<Nogo> {
    let config = NogoConfig {
        seed,
        reuse_tree,
        ..NogoConfig::default()
    };
    let engine = match network {
        Some(net) => NogoEngine::advised(config, Arc::clone(net), args.net.advice()),
        None => NogoEngine::new(config),
    };
    let mut session = Session::new(
        Nogo::new(NogoRules {
            centre_ban: args.centre_ban,
        }),
        Box::new(engine),
    );
    session.max_iterations = args.playouts;
    session
}

fn connect6_session(
    args: &ServeArgs,
    seed: u64,
    start: Connect6,
    net: &Option<Arc<Connect6Network>>,
) -> Session<Connect6> {
    // The engine's settings are still growing: take the defaults for all but these.
    let engine = Connect6Engine::new(Connect6Config {
        seed,
        focus: args.connect6_focus,
        prepared: args.connect6_prepared,
        net: net.clone(),
        ..Default::default()
    });
    let mut session = Session::new(start, Box::new(engine));
    session.max_iterations = args.playouts;
    session
}

fn gomoku_session(args: &ServeArgs, seed: u64, start: Gomoku) -> Session<Gomoku> {
    let mut session = Session::new(start, level::build(args.level, seed));
    session.max_iterations = args.playouts;
    session
}

fn run<G: Game, P: Protocol<G::Move>>(
    mut protocol: P,
    mut session: Session<G>,
    io: Io,
) -> ExitCode {
    let mut lines = ThreadedLines::spawn(io.reader, protocol.interrupts());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = io.diagnostics;
    // A closed output pipe means the platform has gone: nothing left to say to it.
    let _ = serve(
        &mut protocol,
        &mut session,
        io.first,
        &mut lines,
        &mut out,
        &mut err,
    );
    ExitCode::SUCCESS
}

/// Reads until a line that names a platform; each line that does not is kept as a complaint.
fn first_recognised_line<R: Read>(
    reader: &mut LineReader<R>,
    complaints: &mut Vec<String>,
) -> Option<(ProtocolKind, Line)> {
    loop {
        let line = reader.next_line()?;
        match detect(&line.text) {
            Some(kind) => return Some((kind, line)),
            None => complaints.push(format!(
                "cannot tell the platform from {:?} (expected Botzone JSON, a turn number, \
                 name?/new for SAU, a Gomocup command, or a GTP command); give --protocol to choose",
                line.text
            )),
        }
    }
}

/// A game the platform does not play (Gomocup is gomoku only; SAU is Connect6 only): say so
/// in the platform's own way.
fn unsupported(game: GameKind, kind: ProtocolKind, diagnostics: Diagnostics) -> ExitCode {
    let message = format!(
        "{} over the {} protocol is not available",
        game.name(),
        kind.name()
    );
    refuse(kind, message, diagnostics)
}

/// Refuses to serve, with `message` in the platform's own error form, and exits with status 2.
fn refuse(kind: ProtocolKind, message: String, mut diagnostics: Diagnostics) -> ExitCode {
    // Each platform shows its own error form to the user; SAU gets nothing on its pipe, since it
    // would read any output as a command.
    let platform_line = match kind {
        ProtocolKind::Gomocup => Some(format!("ERROR {message}")),
        ProtocolKind::BotzoneJson => Some(
            serde_json::json!({ "response": null, "debug": format!("error: {message}") })
                .to_string(),
        ),
        ProtocolKind::BotzoneSimple => Some(format!("-1 -1\nerror: {message}")),
        ProtocolKind::Gtp => Some(format!("? {message}\n")),
        ProtocolKind::Sau => None,
    };
    if let Some(line) = platform_line {
        let mut out = std::io::stdout();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    let _ = writeln!(diagnostics, "stonebrain: {message}");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_files_hold_one_flag_a_line() {
        let text = "# for the SAU platform\n\n--name stonebrain\n--log C:\\my logs\\sb.log\n--time-ms \"500\"\n--keep-running\n";
        assert_eq!(
            flags_from_file(text),
            [
                "--name",
                "stonebrain",
                "--log",
                "C:\\my logs\\sb.log",
                "--time-ms",
                "500",
                "--keep-running"
            ]
        );
    }

    #[test]
    fn game_seconds_and_board_sizes_are_checked() {
        assert_eq!(parse_game_seconds("180"), Ok(180.0));
        assert_eq!(parse_game_seconds("0.5"), Ok(0.5));
        assert!(parse_game_seconds("0").is_err());
        assert!(parse_game_seconds("-3").is_err());
        assert!(parse_game_seconds("inf").is_err());
        assert_eq!(parse_board_size("19"), Ok(19));
        assert!(parse_board_size("5").is_err());
        assert!(parse_board_size("26").is_err());
    }

    /// Connect6's `focus` and prepared book are on unless turned off, on the command line or
    /// by an args file line; the bare flag (how they were asked for before they were the
    /// default) still means on.
    #[test]
    fn connect6_focus_and_book_are_on_unless_turned_off() {
        #[derive(clap::Parser)]
        struct Command {
            #[command(flatten)]
            serve: ServeArgs,
        }
        let parse = |args: &[&str]| {
            let line = std::iter::once("stonebrain").chain(args.iter().copied());
            <Command as clap::Parser>::try_parse_from(line)
                .map(|c| (c.serve.connect6_focus, c.serve.connect6_prepared))
        };
        assert_eq!(parse(&["--game", "connect6"]).unwrap(), (true, true));
        assert_eq!(
            parse(&[
                "--connect6-focus",
                "--game",
                "connect6",
                "--connect6-prepared"
            ])
            .unwrap(),
            (true, true)
        );
        assert_eq!(
            parse(&["--connect6-focus", "off", "--connect6-prepared=false"]).unwrap(),
            (false, false)
        );
        assert_eq!(
            parse(&["--connect6-prepared", "0", "--connect6-focus=on"]).unwrap(),
            (true, false)
        );
        assert!(parse(&["--connect6-focus", "maybe"]).is_err());
        let from_file = flags_from_file("--game connect6\n--connect6-focus off\n");
        let from_file: Vec<&str> = from_file.iter().map(String::as_str).collect();
        assert_eq!(parse(&from_file).unwrap(), (false, true));
    }
}
