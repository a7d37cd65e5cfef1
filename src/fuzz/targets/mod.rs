//! The fuzz targets, one file per family, and what the serve-loop targets share: sessions whose
//! engines search a handful of iterations, and the serve loop run over bytes in memory.

pub mod arena;
pub mod auto;
pub mod botzone;
pub mod classroom;
pub mod console;
pub mod files;
pub mod gomocup;
pub mod gtp;
pub mod sau;

use super::Target;
use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::engine::gomoku::level::{self, Level};
use crate::engine::gomoku::{GomokuConfig, GomokuEngine};
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::game::connect6::Connect6;
use crate::game::gomoku::Gomoku;
use crate::game::nogo::{Nogo, NogoRules};
use crate::game::Game;
use crate::protocol::session::Session;
use crate::protocol::{serve, Line, LineReader, Protocol};

/// Every target, in the order they take turns.
pub const ALL: &[&Target] = &[
    &botzone::JSON,
    &botzone::SIMPLE,
    &sau::TARGET,
    &gomocup::TARGET,
    &gtp::TARGET,
    &auto::TARGET,
    &files::ARGS,
    &console::TARGET,
    &files::SAVEFILE,
    &classroom::TARGET,
    &files::CLASSROOM,
    &arena::TARGET,
];

/// Playouts or nodes per decision: enough to reach every part of a search, few enough that an
/// input takes microseconds, and a cap rather than a clock so that answers repeat exactly.
pub const SEARCH_ITERATIONS: u64 = 3;
/// Transposition tables of 2^10 entries: a new game clears the table, and the default sizes
/// (megabytes) would make clearing it the whole cost of an input.
const TABLE_BITS: u32 = 10;
/// The engines' seed: fixed, so that an input always gets the same answer.
const ENGINE_SEED: u64 = 1;

pub fn nogo_session(reuse_tree: bool, centre_ban: bool) -> Session<Nogo> {
    let engine = NogoEngine::new(NogoConfig {
        seed: ENGINE_SEED,
        reuse_tree,
        ..NogoConfig::default()
    });
    let mut s = Session::new(Nogo::new(NogoRules { centre_ban }), Box::new(engine));
    s.max_iterations = Some(SEARCH_ITERATIONS);
    s
}

pub fn connect6_session(start: Connect6) -> Session<Connect6> {
    let engine = Connect6Engine::new(Connect6Config {
        seed: ENGINE_SEED,
        table_bits: TABLE_BITS,
        ..Connect6Config::default()
    });
    let mut s = Session::new(start, Box::new(engine));
    s.max_iterations = Some(SEARCH_ITERATIONS);
    s
}

pub fn gomoku_session(start: Gomoku, level: Level) -> Session<Gomoku> {
    let engine = match level {
        Level::Full => Box::new(GomokuEngine::new(GomokuConfig {
            seed: ENGINE_SEED,
            table_bits: TABLE_BITS,
            ..GomokuConfig::default()
        })),
        other => level::build(other, ENGINE_SEED),
    };
    let mut s = Session::new(start, engine);
    s.max_iterations = Some(SEARCH_ITERATIONS);
    s
}

/// The Gomoku level a header names (`level=classic`), else the search engine.
pub fn level_of(name: Option<&str>) -> Level {
    name.and_then(|n| Level::parse(n).ok()).unwrap_or_default()
}

/// Runs the serve loop over `input` (after `first`, a line already read, as detection leaves
/// it) and returns what it wrote to the platform. Diagnostics are dropped.
pub fn serve_bytes<G: Game>(
    protocol: &mut dyn Protocol<G::Move>,
    session: &mut Session<G>,
    first: Option<Line>,
    reader: &mut LineReader<&[u8]>,
) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to memory cannot fail, and the loop returns nothing else.
    let _ = serve(
        protocol,
        session,
        first,
        reader,
        &mut out,
        &mut std::io::sink(),
    );
    out
}

/// The non-empty lines the serve loop reads from `input`, as its reader cleans them.
pub fn input_lines(input: &[u8], nul_ends_line: bool) -> Vec<String> {
    let mut reader = LineReader::new(input);
    reader.set_nul_ends_line(nul_ends_line);
    std::iter::from_fn(|| reader.next_line().map(|l| l.text)).collect()
}

/// The output as text: every protocol writes UTF-8, and anything else is a broken answer.
pub fn output_text(out: Vec<u8>) -> Result<String, String> {
    String::from_utf8(out).map_err(|e| format!("the output is not UTF-8: {e}"))
}

/// A short quotation of an output line for failure messages.
pub fn quote(line: &str) -> String {
    let shown: String = line.chars().take(200).collect();
    format!("{shown:?}")
}

/// Reads the integers of a line separated by single spaces, as a platform would.
pub fn ints(line: &str) -> Option<Vec<i64>> {
    line.split(' ').map(|t| t.parse::<i64>().ok()).collect()
}
