//! The bot started with no flags, as most platforms start it: the first line that names a
//! platform picks the protocol (and, where the platform cannot tell, NoGo), lines before it are
//! only complained about, and the serve loop starts with that line. Input is any target's,
//! headers removed, with junk lines before it.
//!
//! The oracle is the detected protocol's own (see each target); input where no line names a
//! platform must get no answer at all.

use super::super::grammar::chance;
use super::super::header::Header;
use super::super::{Harness, Target, Workspace};
use super::{botzone, gomocup, gtp, sau};
use super::{
    connect6_session, gomoku_session, input_lines, nogo_session, output_text, serve_bytes,
};
use crate::engine::gomoku::level::Level;
use crate::game::nogo::Nogo;
use crate::protocol::botzone::{BotzoneConfig, BotzoneJson, BotzoneLanguage, BotzoneSimple};
use crate::protocol::detect::{choose_game, detect, GameKind, ProtocolKind};
use crate::protocol::gomocup::{make_board, Gomocup, GomocupConfig};
use crate::protocol::gtp::{Gtp, GtpConfig};
use crate::protocol::sau::{end_connect6_turn, Sau, SauConfig};
use crate::protocol::{Line, LineReader};
use crate::search::clock::DEFAULT_MARGIN;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::time::Instant;

pub const TARGET: Target = Target {
    name: "auto",
    weight: 4,
    about: "no flags: the first line picks the platform, then that platform's serve loop",
    seeds,
    generate,
    words: &[
        "name?",
        "new",
        "START",
        "BEGIN",
        "ABOUT",
        "boardsize",
        "genmove",
        "{",
        "1",
    ],
    harness,
};

struct AutoHarness;

fn harness(_: &Workspace) -> Box<dyn Harness> {
    Box::new(AutoHarness)
}

impl Harness for AutoHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (_, body) = Header::split(input);
        let mut reader = LineReader::new(body);
        let mut skipped = 0;
        let (kind, first) = loop {
            let Some(line) = reader.next_line() else {
                // No platform named: the bot says so on its diagnostics and answers nothing.
                return Ok(());
            };
            match detect(&line.text) {
                Some(kind) => break (kind, line),
                None => skipped += 1,
            }
        };
        let game = choose_game(None, "stonebrain", kind);
        // The lines the serve loop reads, the detected one first (SAU's reader also splits at
        // NUL bytes from then on, which only SAU's oracle, which counts nothing, would see).
        let lines: Vec<String> = input_lines(body, false).into_iter().skip(skipped).collect();
        serve_detected(kind, game, first, &mut reader, &lines)
    }
}

fn serve_detected(
    kind: ProtocolKind,
    game: GameKind,
    first: Line,
    reader: &mut LineReader<&[u8]>,
    lines: &[String],
) -> Result<(), String> {
    let botzone = BotzoneConfig {
        keep_running: false,
        margin: DEFAULT_MARGIN,
        process_start: Instant::now(),
        turn_limit: None,
        language: BotzoneLanguage::Cpp,
    };
    match (kind, game) {
        (ProtocolKind::BotzoneJson, GameKind::Nogo) => {
            let mut p = BotzoneJson::<Nogo>::new(botzone);
            let out = serve_bytes(&mut p, &mut nogo_session(false, false), Some(first), reader);
            botzone::check_json_answers::<Nogo>(&output_text(out)?, false, 1)
        }
        (ProtocolKind::BotzoneSimple, GameKind::Nogo) => {
            let mut p = BotzoneSimple::<Nogo>::new(botzone);
            let out = serve_bytes(&mut p, &mut nogo_session(false, false), Some(first), reader);
            botzone::check_simple_answers::<Nogo>(&output_text(out)?, false, lines)
        }
        (ProtocolKind::Sau, GameKind::Connect6) => {
            reader.set_nul_ends_line(true);
            let mut p = Sau::new(SauConfig::default());
            let mut session = connect6_session(p.start_position());
            session.end_turn_early = Some(end_connect6_turn);
            let out = output_text(serve_bytes(&mut p, &mut session, Some(first), reader))?;
            // The lines before detection were read without NUL splitting: the first line's
            // commands count alike either way.
            sau::check(&out, 19, lines)
        }
        (ProtocolKind::Gomocup, GameKind::Gomoku) => {
            let mut p = Gomocup::new(GomocupConfig::default());
            let mut session = gomoku_session(p.start_position(), Level::Full);
            session.board_maker = Some(make_board);
            let out = serve_bytes(&mut p, &mut session, Some(first), reader);
            gomocup::check(&output_text(out)?, lines)
        }
        (ProtocolKind::Gtp, GameKind::Nogo) => {
            let mut p = Gtp::new(GtpConfig::default());
            let out = serve_bytes(&mut p, &mut nogo_session(true, false), Some(first), reader);
            gtp::check(&output_text(out)?, &gtp::command_ids(lines))
        }
        (kind, game) => Err(format!(
            "detection chose {} for {}, which the command line does not serve",
            game.name(),
            kind.name()
        )),
    }
}

/// Another target's input without its header, sometimes after lines that name no platform.
fn generate(rng: &mut SmallRng) -> Vec<u8> {
    let make: fn(&mut SmallRng) -> Vec<u8> = *[
        botzone::generate_json,
        botzone::generate_simple,
        sau::generate,
        gomocup::generate,
        gtp::generate,
    ]
    .choose(rng)
    .expect("not empty");
    let input = make(rng);
    let (_, body) = Header::split(&input);
    let mut out = Vec::new();
    if chance(rng, 0.3) {
        for _ in 0..rng.gen_range(1..4) {
            let junk = *["hello", "7 hello", "1 2", "", "   ", "\u{feff}", "{", "#"]
                .choose(rng)
                .expect("not empty");
            out.extend_from_slice(junk.as_bytes());
            out.push(b'\n');
        }
    }
    out.extend_from_slice(body);
    out
}

fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let sources = [
        super::super::corpus::botzone_inputs("json"),
        super::super::corpus::botzone_inputs("simple"),
        sau::seeds(),
        gomocup::seeds(),
        gtp::seeds(),
    ];
    for list in sources {
        for input in list.iter().step_by(4) {
            out.push(Header::split(input).1.to_vec());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let mut rng = SmallRng::seed_from_u64(11);
        for _ in 0..40 {
            AutoHarness.run(&generate(&mut rng)).unwrap();
        }
        for seed in seeds().iter().take(10) {
            AutoHarness.run(seed).unwrap();
        }
        assert_eq!(AutoHarness.run(b"hello\n7 hello\n"), Ok(()));
    }
}
