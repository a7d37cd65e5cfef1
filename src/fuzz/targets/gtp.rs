//! The Go Text Protocol for NoGo (the Olympiad's referee, GoGui), with the header's
//! `centre_ban`.
//!
//! The oracle: every command gets exactly one answer, `=` or `?` followed by the command's own
//! id, ended by an empty line; comments and empty lines get none, and nothing is answered after
//! `quit`. Commands are counted as GTP defines them (control characters dropped, `#` starts a
//! comment), independently of the code under test.

use super::super::grammar::{chance, extreme, lines_to_input, plies, random_game, searched_turns};
use super::super::header::Header;
use super::super::{corpus, Harness, Target, Workspace};
use super::{input_lines, nogo_session, output_text, quote, serve_bytes};
use crate::game::nogo::{self, Nogo, NogoRules};
use crate::protocol::gtp::{vertex_name, Gtp, GtpConfig};
use crate::protocol::LineReader;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;

pub const TARGET: Target = Target {
    name: "gtp",
    weight: 3,
    about: "GTP (NoGo): play, genmove, undo, boardsize, time_settings, time_left, showboard ...",
    seeds,
    generate,
    words: &[
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "time_settings",
        "time_left",
        "showboard",
        "final_score",
        "quit",
        "b",
        "w",
        "pass",
        "resign",
        "E5",
        "#",
    ],
    harness,
};

struct GtpHarness;

fn harness(_: &Workspace) -> Box<dyn Harness> {
    Box::new(GtpHarness)
}

impl Harness for GtpHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let centre_ban = header.flag("centre_ban");
        let mut protocol = Gtp::new(GtpConfig {
            rules: NogoRules { centre_ban },
            ..GtpConfig::default()
        });
        let mut session = nogo_session(true, centre_ban);
        let out = serve_bytes(
            &mut protocol,
            &mut session,
            None,
            &mut LineReader::new(body),
        );
        check(&output_text(out)?, &command_ids(&input_lines(body, false)))
    }
}

/// GTP's preprocessing of a line: a `#` starts a comment, control characters other than tab go,
/// tabs become spaces.
fn gtp_text(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The id of each command to be answered (empty when it has none), up to `quit`.
pub(super) fn command_ids(lines: &[String]) -> Vec<String> {
    let mut ids = Vec::new();
    for line in lines {
        let text = gtp_text(line);
        let mut words = text.split_whitespace();
        let Some(first) = words.next() else { continue };
        let (id, command) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (first, words.next().unwrap_or(""))
        } else {
            ("", first)
        };
        ids.push(id.to_string());
        if command == "quit" {
            break;
        }
    }
    ids
}

/// One answer per command, each `=id` or `?id`, then a space, a line break or nothing, and an
/// empty line after it.
pub(super) fn check(out: &str, ids: &[String]) -> Result<(), String> {
    let mut rest = out;
    let mut answers = Vec::new();
    while !rest.is_empty() {
        let end = rest
            .find("\n\n")
            .ok_or_else(|| format!("an answer without its empty line: {}", quote(rest)))?;
        answers.push(&rest[..end]);
        rest = &rest[end + 2..];
    }
    if answers.len() != ids.len() {
        return Err(format!(
            "{} answers to {} commands",
            answers.len(),
            ids.len()
        ));
    }
    for (answer, id) in answers.iter().zip(ids) {
        let after = answer
            .strip_prefix('=')
            .or_else(|| answer.strip_prefix('?'))
            .and_then(|a| a.strip_prefix(id.as_str()))
            .ok_or_else(|| format!("not an answer to command id {id:?}: {}", quote(answer)))?;
        if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\n')) {
            return Err(format!("a malformed answer: {}", quote(answer)));
        }
    }
    Ok(())
}

fn colour(black: bool) -> &'static str {
    if black {
        "b"
    } else {
        "w"
    }
}

/// A controller's session: set-up, a game of `play` and `genmove` (our side's moves asked,
/// the other side's given), with clocks, `undo`, ids, comments and mistakes mixed in.
pub(super) fn generate(rng: &mut SmallRng) -> Vec<u8> {
    let spoil: f64 = *[0.0, 0.05, 0.3].choose(rng).expect("not empty");
    let centre_ban = chance(rng, 0.2);
    let focus = chance(rng, 0.5);
    let centre = |p: nogo::Point| {
        let (x, y) = nogo::coords(p);
        x.abs_diff(4) <= 2 && y.abs_diff(4) <= 2
    };
    let f: &dyn Fn(nogo::Point) -> bool = &centre;
    let n = plies(rng);
    let (_, moves) = random_game(
        rng,
        Nogo::new(NogoRules { centre_ban }),
        n,
        focus.then_some(f),
    );
    let mut lines = Vec::new();
    for c in ["protocol_version", "name", "version", "list_commands"] {
        if chance(rng, 0.3) {
            lines.push(c.to_string());
        }
    }
    lines.push("boardsize 9".to_string());
    lines.push("clear_board".to_string());
    if chance(rng, 0.3) {
        lines.push(format!(
            "time_settings {} {} {}",
            rng.gen_range(0..300),
            rng.gen_range(0..10),
            rng.gen_range(0..3)
        ));
    }
    let ours_black = chance(rng, 0.5);
    let mut asks = searched_turns(rng);
    for (i, &m) in moves.iter().enumerate() {
        let black = i % 2 == 0;
        if black == ours_black && asks > 0 && chance(rng, 0.5) {
            asks -= 1;
            if chance(rng, 0.3) {
                lines.push(format!(
                    "time_left {} {} 0",
                    colour(black),
                    rng.gen_range(0..100)
                ));
            }
            lines.push(format!("genmove {}", colour(black)));
        } else {
            lines.push(format!("play {} {}", colour(black), vertex_name(m)));
        }
        if chance(rng, 0.05) {
            lines.push("undo".to_string());
        }
    }
    lines.push(format!("genmove {}", colour(moves.len() % 2 == 0)));
    let extras = [
        "showboard",
        "final_score",
        "undo",
        "known_command play",
        "known_command fly",
        "komi 6.5",
        "komi x",
        "boardsize 19",
        "boardsize",
        "play b pass",
        "play x E5",
        "play b I9",
        "play b A10",
        "genmove",
        "genmove w",
        "time_left b",
        "time_settings 1 2",
        "time_settings -1 0 0",
        "fly",
        "7",
        "# a comment",
        "\t\tname\t",
        "quit",
    ];
    for _ in 0..rng.gen_range(0..4) {
        if chance(rng, spoil.max(0.1)) {
            let extra = extras.choose(rng).expect("not empty").to_string();
            let at = rng.gen_range(0..=lines.len());
            lines.insert(at, extra);
        }
    }
    if chance(rng, spoil) {
        let at = rng.gen_range(0..=lines.len());
        lines.insert(at, format!("time_left w {} {}", extreme(rng), extreme(rng)));
    }
    // Ids on some commands, as controllers number them.
    if chance(rng, 0.3) {
        for (i, l) in lines.iter_mut().enumerate() {
            if chance(rng, 0.7) {
                *l = format!("{} {l}", i + 1);
            }
        }
    }
    if chance(rng, 0.5) {
        lines.push("quit".to_string());
    }
    let header = Header::line(&[("centre_ban", if centre_ban { "1" } else { "0" })]);
    lines_to_input(rng, header, &lines)
}

pub(super) fn seeds() -> Vec<Vec<u8>> {
    let session = corpus::sent_lines(corpus::GTP_SESSION).join("\n");
    vec![format!("{session}\n").into_bytes()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..40 {
            GtpHarness.run(&generate(&mut rng)).unwrap();
        }
        GtpHarness.run(&seeds()[0]).unwrap();
    }

    #[test]
    fn commands_and_answers_are_matched() {
        let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        let ids = command_ids(&lines("1 name\n# note\n\nplay b E5 # c\n2 quit\nname"));
        assert_eq!(ids, ["1", "", "2"]);
        assert!(check("=1 stonebrain\n\n=\n\n=2\n\n", &ids).is_ok());
        assert!(check("=1 stonebrain\n\n?\n\n", &ids).is_err());
        assert!(check("=1 stonebrain\n\n=\n\n=3\n\n", &ids).is_err());
        assert!(check("=1 stonebrain\n\n=\n\n=2\n", &ids).is_err());
    }
}
