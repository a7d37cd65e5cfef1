//! The real transcripts of `test_vectors/`, built into the fuzzer so that it runs from anywhere:
//! what the platforms sent the bot in recorded games and sessions, and positions worked out by
//! hand that become `BOARD` commands, SAU games and saved games.

use super::header::Header;

/// Botzone games (NoGo) in each mode: `mode:` names it, `> ` lines went to the bot.
const BOTZONE: &[&str] = &[
    include_str!("../../test_vectors/botzone/botzone-json-black.txt"),
    include_str!("../../test_vectors/botzone/botzone-json-white.txt"),
    include_str!("../../test_vectors/botzone/botzone-json-keep-running-black.txt"),
    include_str!("../../test_vectors/botzone/botzone-json-keep-running-white.txt"),
    include_str!("../../test_vectors/botzone/botzone-simple-black.txt"),
    include_str!("../../test_vectors/botzone/botzone-simple-white.txt"),
    include_str!("../../test_vectors/botzone/botzone-simple-keep-running-black.txt"),
    include_str!("../../test_vectors/botzone/botzone-simple-keep-running-white.txt"),
];

/// A GTP session with every command, errors included.
pub const GTP_SESSION: &str = include_str!("../../test_vectors/gtp/nogo-session.txt");
/// Gomoku positions (stones in seed 000's letters) and openings (`x,y` lists).
pub const GOMOKU_POSITIONS: &str = include_str!("../../test_vectors/gomoku/positions.txt");
pub const GOMOKU_OPENINGS: &str = include_str!("../../test_vectors/gomoku/openings.txt");
/// Connect6 positions in SAU letters.
pub const CONNECT6_POSITIONS: &str = include_str!("../../test_vectors/connect6/positions.txt");
/// The seed's RSA public key, as the class server hands it out.
pub const SEED_PUBLIC_KEY: &str = include_str!("../../test_vectors/classroom/seed_public_key.txt");

/// The lines a transcript sent to the bot (`> ` lines), without the marker.
pub fn sent_lines(transcript: &str) -> Vec<&str> {
    transcript
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .collect()
}

/// Botzone inputs of one interaction (`json` or `simple`): for full-history games each turn's
/// input is a fresh process's input; a keep-running game is one input. Each starts with the
/// header that says which mode it was.
pub fn botzone_inputs(interaction: &str) -> Vec<Vec<u8>> {
    let mut inputs = Vec::new();
    for t in BOTZONE {
        let mode = t
            .lines()
            .find_map(|l| l.strip_prefix("mode: "))
            .unwrap_or("");
        if !mode.starts_with(&format!("botzone-{interaction}")) {
            continue;
        }
        let keep = mode.ends_with("keep-running");
        let header = Header::line(&[("game", "nogo"), ("keep", if keep { "1" } else { "0" })]);
        if keep {
            inputs.push(format!("{header}{}\n", sent_lines(t).join("\n")).into_bytes());
            continue;
        }
        // A simple-interaction turn is several lines: split the sent lines at each turn marker.
        let mut turn = Vec::new();
        for line in t.lines() {
            if line == "turn" && !turn.is_empty() {
                inputs.push(format!("{header}{}\n", turn.join("\n")).into_bytes());
                turn.clear();
            } else if let Some(sent) = line.strip_prefix("> ") {
                turn.push(sent);
            }
        }
        if !turn.is_empty() {
            inputs.push(format!("{header}{}\n", turn.join("\n")).into_bytes());
        }
    }
    inputs
}

/// The values of `key: ` lines of a block file, block by block (blocks are separated by blank
/// lines; `#` lines are comments).
pub fn blocks(text: &str) -> Vec<Vec<(&str, &str)>> {
    let mut out = Vec::new();
    let mut block = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !block.is_empty() {
                out.push(std::mem::take(&mut block));
            }
            continue;
        }
        if let Some((k, v)) = line.split_once(": ") {
            block.push((k, v));
        }
    }
    if !block.is_empty() {
        out.push(block);
    }
    out
}

/// Two-letter points (`HH`) as (x, y) from the top left: the first letter is the column.
pub fn letter_points(text: &str) -> Vec<(usize, usize)> {
    text.split_whitespace()
        .filter_map(|p| {
            let b = p.as_bytes();
            (b.len() == 2 && b.iter().all(u8::is_ascii_uppercase))
                .then(|| ((b[0] - b'A') as usize, (b[1] - b'A') as usize))
        })
        .collect()
}

/// The stones of one position: Black's and White's, as (x, y).
pub type Stones = (Vec<(usize, usize)>, Vec<(usize, usize)>);

/// Each position's black and white stones, from a block file.
pub fn positions(text: &str) -> Vec<Stones> {
    blocks(text)
        .into_iter()
        .map(|b| {
            let get = |key: &str| b.iter().find(|(k, _)| *k == key).map_or("", |(_, v)| v);
            (letter_points(get("black")), letter_points(get("white")))
        })
        .collect()
}

/// The openings file: each line a list of `x,y` points, Black first.
pub fn openings() -> Vec<Vec<(usize, usize)>> {
    GOMOKU_OPENINGS
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcripts_give_inputs_of_every_mode() {
        let json = botzone_inputs("json");
        let simple = botzone_inputs("simple");
        assert!(json.len() > 20, "{}", json.len());
        assert!(simple.len() > 20, "{}", simple.len());
        assert!(json.iter().all(|i| i.starts_with(b"#!fuzz game=nogo")));
        assert!(sent_lines(GTP_SESSION).len() > 10);
        assert!(positions(GOMOKU_POSITIONS)
            .iter()
            .all(|(b, _)| !b.is_empty()));
        assert!(positions(CONNECT6_POSITIONS).len() > 5);
        assert!(openings().len() > 20);
    }
}
