//! Saved games: a small line-based text format that a person can read and edit, and that `load`
//! restores exactly (the moves are the truth; the position is replayed from them).
//!
//! ```text
//! # stonebrain play: a saved game.
//! format stonebrain-play 1
//! game connect6
//! size 19
//! rules standard
//! human white
//! turn 1 black JJ
//! turn 2 white KK KL
//! end
//! ```
//!
//! Blank lines and lines starting with `#` are ignored. The first other line is the format line;
//! then the header (`game`, `size`, `rules`, `human`, and for Gomoku `level`), each key once, in
//! any order; then the turns, numbered from 1, Black's first, the colours alternating, each with
//! its stones in the game's console notation (`x,y` for NoGo and Gomoku, SAU letters for
//! Connect6; the other notation the console reads is accepted too); then `end`. Whether the
//! moves can be played is checked when the game is replayed (`super::replay`).

use super::games::Setup;
use super::notation::Notation;
use crate::engine::gomoku::level::Level;
use crate::game::Color;
use crate::protocol::GameKind;
use std::path::Path;

pub const FORMAT_LINE: &str = "format stonebrain-play 1";

/// Larger files are not saved games (the longest game, 25x25 Connect6, takes a few kilobytes).
const MAX_BYTES: u64 = 1 << 20;

/// A saved game, before its moves are checked against the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveFile {
    pub setup: Setup,
    /// The human's colour; `None` when the computer plays both sides (watching).
    pub human: Option<Color>,
    /// Each turn's colour and stones, `(x, y)` from the top left.
    pub turns: Vec<(Color, Vec<(usize, usize)>)>,
}

impl SaveFile {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let s = &self.setup;
        let notation = Notation::for_game(s.kind, s.size);
        let mut text = String::new();
        text.push_str("# stonebrain play: a saved game (see the README, \"Play against it\").\n");
        text.push_str(
            "# Load it with `load FILE` at the prompt, or `stonebrain play --load FILE`.\n",
        );
        text.push_str(FORMAT_LINE);
        text.push('\n');
        text.push_str(&format!("game {}\n", s.kind.name()));
        text.push_str(&format!("size {}\n", s.size));
        text.push_str(&format!("rules {}\n", s.rules_word()));
        if s.kind == GameKind::Gomoku {
            text.push_str(&format!("level {}\n", s.level.name()));
        }
        let human = self.human.map_or("none", |c| c.name());
        text.push_str(&format!("human {human}\n"));
        for (i, (color, stones)) in self.turns.iter().enumerate() {
            text.push_str(&format!(
                "turn {} {} {}\n",
                i + 1,
                color.name(),
                notation.write_all(stones)
            ));
        }
        text.push_str("end\n");
        text
    }

    /// Reads a file's text. The error names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<SaveFile, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim().trim_start_matches('\u{feff}')))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        match lines.next() {
            Some((_, l)) if words(l) == words(FORMAT_LINE) => {}
            Some((n, l)) if l.starts_with("format stonebrain-play") => {
                return Err(format!(
                    "line {n}: '{l}' is a format this version does not read (it reads \
                     '{FORMAT_LINE}')"
                ))
            }
            _ => {
                return Err(format!(
                    "this is not a stonebrain saved game (it does not start with \
                     '{FORMAT_LINE}')"
                ))
            }
        }
        let mut header: Vec<(&str, &str, usize)> = Vec::new();
        let mut parsed: Option<(Setup, Option<Color>)> = None;
        let mut turns = Vec::new();
        let mut ended = false;
        for (n, line) in lines {
            if ended {
                return Err(format!("line {n}: '{}' after 'end'", short(line)));
            }
            let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match key {
                "game" | "size" | "rules" | "human" | "level" => {
                    if parsed.is_some() {
                        return Err(format!("line {n}: '{key}' after the first turn"));
                    }
                    if header.iter().any(|&(k, _, _)| k == key) {
                        return Err(format!("line {n}: a second '{key}' line"));
                    }
                    header.push((key, rest, n));
                }
                "turn" | "end" => {
                    if parsed.is_none() {
                        parsed = Some(interpret_header(&header, n)?);
                    }
                    if key == "end" {
                        if !rest.is_empty() {
                            return Err(format!("line {n}: 'end' takes nothing after it"));
                        }
                        ended = true;
                        continue;
                    }
                    let (setup, _) = parsed.as_ref().expect("set just above");
                    turns.push(parse_turn(setup, rest, turns.len(), n)?);
                }
                _ => return Err(format!("line {n}: unexpected '{}'", short(line))),
            }
        }
        if !ended {
            return Err("the file ends without its 'end' line (was it cut short?)".to_string());
        }
        let (setup, human) = parsed.expect("set at 'end'");
        Ok(SaveFile {
            setup,
            human,
            turns,
        })
    }

    pub fn write_file(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_text())
            .map_err(|e| format!("cannot save to {}: {e}", path.display()))
    }

    pub fn read_file(path: &Path) -> Result<SaveFile, String> {
        let shown = path.display();
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        if meta.is_dir() {
            return Err(format!("{shown} is a directory, not a saved game"));
        }
        if meta.len() > MAX_BYTES {
            return Err(format!(
                "{shown} is too large to be a saved game ({} bytes)",
                meta.len()
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{shown} is not a saved game: it is not text"))?;
        SaveFile::parse(&text).map_err(|e| format!("{shown}: {e}"))
    }
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn short(line: &str) -> String {
    super::notation::shorten(line)
}

/// The setup and the human's side, from the header lines; `n` is the line that ended the header.
fn interpret_header(
    header: &[(&str, &str, usize)],
    n: usize,
) -> Result<(Setup, Option<Color>), String> {
    let get = |key: &str| -> Result<(&str, usize), String> {
        header
            .iter()
            .find(|&&(k, _, _)| k == key)
            .map(|&(_, v, line)| (v, line))
            .ok_or_else(|| format!("line {n}: the '{key}' line is missing before it"))
    };
    let (game, line) = get("game")?;
    let kind = match game {
        "nogo" => GameKind::Nogo,
        "gomoku" => GameKind::Gomoku,
        "connect6" => GameKind::Connect6,
        _ => {
            return Err(format!(
                "line {line}: unknown game '{}': nogo, gomoku or connect6",
                short(game)
            ))
        }
    };
    let (size, size_line) = get("size")?;
    let size: usize = size.parse().map_err(|_| {
        format!(
            "line {size_line}: the size '{}' is not a number",
            short(size)
        )
    })?;
    let level = match header.iter().find(|&&(k, _, _)| k == "level") {
        Some(&(_, _, line)) if kind != GameKind::Gomoku => {
            return Err(format!("line {line}: 'level' is for Gomoku only"))
        }
        Some(&(_, v, line)) => Some(Level::parse(v).map_err(|e| format!("line {line}: {e}"))?),
        None => None,
    };
    let setup = Setup::new(kind, Some(size), false, false, level)
        .map_err(|e| format!("line {size_line}: {e}"))?;
    let (rules, line) = get("rules")?;
    let setup = setup
        .with_rules_word(rules)
        .map_err(|e| format!("line {line}: {e}"))?;
    let (human, line) = get("human")?;
    let human = match human {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        "none" => None,
        _ => {
            return Err(format!(
                "line {line}: human is 'black', 'white' or 'none', not '{}'",
                short(human)
            ))
        }
    };
    Ok((setup, human))
}

/// One `turn` line after its keyword: number, colour, stones.
fn parse_turn(
    setup: &Setup,
    rest: &str,
    index: usize,
    n: usize,
) -> Result<(Color, Vec<(usize, usize)>), String> {
    let mut parts = rest.splitn(3, char::is_whitespace);
    let number = parts.next().unwrap_or("");
    if number.parse::<usize>().ok() != Some(index + 1) {
        return Err(format!(
            "line {n}: turn {} expected, found '{}'",
            index + 1,
            short(number)
        ));
    }
    let expected = if index.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let color = match parts.next().unwrap_or("") {
        "black" => Color::Black,
        "white" => Color::White,
        other => {
            return Err(format!(
                "line {n}: the colour is 'black' or 'white', not '{}'",
                short(other)
            ))
        }
    };
    if color != expected {
        return Err(format!(
            "line {n}: turn {} is {}'s, not {}'s (Black moves first, then the colours alternate)",
            index + 1,
            expected.name(),
            color.name()
        ));
    }
    let stones = Notation::for_game(setup.kind, setup.size)
        .parse(parts.next().unwrap_or(""))
        .map_err(|e| format!("line {n}: {e}"))?;
    Ok((color, stones))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SaveFile {
        SaveFile {
            setup: Setup::new(GameKind::Connect6, Some(19), false, false, None).unwrap(),
            human: Some(Color::White),
            turns: vec![
                (Color::Black, vec![(9, 9)]),
                (Color::White, vec![(10, 10), (10, 11)]),
            ],
        }
    }

    #[test]
    fn the_text_reads_back_to_the_same_game() {
        let text = sample().to_text();
        assert!(text.contains("\nformat stonebrain-play 1\ngame connect6\nsize 19\n"));
        assert!(text.contains("turn 2 white KK KL\nend\n"), "{text}");
        assert_eq!(SaveFile::parse(&text), Ok(sample()));
        let gomoku = SaveFile {
            setup: Setup::new(
                GameKind::Gomoku,
                Some(11),
                false,
                true,
                Some(Level::Wintable),
            )
            .unwrap(),
            human: None,
            turns: vec![(Color::Black, vec![(5, 5)])],
        };
        let text = gomoku.to_text();
        assert!(text.contains("rules exact-five\nlevel wintable\nhuman none\nturn 1 black 5,5\n"));
        assert_eq!(SaveFile::parse(&text), Ok(gomoku));
    }

    #[test]
    fn keys_in_any_order_comments_and_blank_lines_are_fine() {
        let text = "\n# mine\nformat  stonebrain-play   1\nhuman black\nrules centre-ban\n\
                    size 9\ngame nogo\n\nturn 1 black 3,3\n# later\nturn 2 white (5, 5)\nend\n\n";
        let save = SaveFile::parse(text).unwrap();
        assert!(save.setup.centre_ban);
        assert_eq!(save.turns[1], (Color::White, vec![(5, 5)]));
    }

    #[test]
    fn every_kind_of_damage_is_reported_with_its_line() {
        let good = sample().to_text();
        let cases: Vec<(String, &str)> = vec![
            (
                "[package]\nname = \"x\"\n".into(),
                "not a stonebrain saved game",
            ),
            (String::new(), "not a stonebrain saved game"),
            (good.replace("play 1", "play 2"), "does not read"),
            (good.replace("end\n", ""), "without its 'end'"),
            (good.replace("game connect6", "game chess"), "unknown game"),
            (good.replace("size 19", "size 30"), "size"),
            (good.replace("size 19", "size nine"), "not a number"),
            (
                good.replace("rules standard", "rules renju"),
                "unknown rules",
            ),
            (good.replace("human white", "human both"), "human is"),
            (good.replace("human white\n", ""), "'human' line is missing"),
            (good.replace("turn 2", "turn 3"), "turn 2 expected"),
            (good.replace("2 white", "2 black"), "turn 2 is white's"),
            (good.replace("KK KL", "KK ZZ"), "off the board"),
            (good.replace("KK KL", "KK K"), "two letters"),
            (
                good.replace("end\n", "end\nturn 3 black AA\n"),
                "after 'end'",
            ),
            (
                good.replace("rules standard\n", "rules standard\nrules standard\n"),
                "second",
            ),
            (
                good.replace("end\n", "level full\nend\n"),
                "after the first turn",
            ),
            (
                good.replace("human white", "human white\nlevel full"),
                "Gomoku only",
            ),
            (
                good.replace("end\n", "bogus line\nend\n"),
                "unexpected 'bogus line'",
            ),
        ];
        for (text, wanted) in cases {
            let err = SaveFile::parse(&text).expect_err(&text);
            assert!(err.contains(wanted), "{wanted:?} not in {err:?}");
        }
    }
}
