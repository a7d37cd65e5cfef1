//! How points are written at the console: each game in the notation of the platforms it is played
//! on, so that a console game can be followed next to Botzone, the SAU platform or a Gomocup
//! manager. Everything here is about text and `(x, y)` pairs (`x` the column from the left, `y`
//! the row from the top, both from 0); the games' own point types stay in the game modules.

use crate::protocol::GameKind;

/// One way of writing a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `x,y`: the column number, then the row number, from 0 at the top left (Botzone, Gomocup).
    Numbers,
    /// Two letters, the column's then the row's, `A` for 0, from the top left (SAU's Connect6:
    /// `JJ` is the centre of 19x19).
    ColumnRow,
    /// Two letters, the row's then the column's, `A` for 0, from the top left (the Gomoku server
    /// of seed 000: `HH` is the centre of 15x15).
    RowColumn,
}

/// A game's notation: the style the console writes (shown on the top and left edges of the
/// board) and a second style it also reads (shown on the bottom and right edges; the same style
/// again for NoGo, which only has Botzone's numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notation {
    pub size: usize,
    pub main: Style,
    pub other: Style,
}

/// The letter of coordinate `i` (0 is `A`).
pub fn letter(i: usize) -> char {
    (b'A' + i as u8) as char
}

impl Notation {
    pub fn for_game(kind: GameKind, size: usize) -> Notation {
        let (main, other) = match kind {
            GameKind::Nogo => (Style::Numbers, Style::Numbers),
            GameKind::Gomoku => (Style::Numbers, Style::RowColumn),
            GameKind::Connect6 => (Style::ColumnRow, Style::Numbers),
        };
        Notation { size, main, other }
    }

    /// The point in the main style.
    pub fn write(&self, (x, y): (usize, usize)) -> String {
        write_in(self.main, (x, y))
    }

    /// The point in the main style, followed by the other style in brackets when it differs
    /// (Gomoku's `7,7 (HH)`, Connect6's `JJ (9,9)`).
    pub fn write_both(&self, p: (usize, usize)) -> String {
        if self.other == self.main {
            self.write(p)
        } else {
            format!("{} ({})", self.write(p), write_in(self.other, p))
        }
    }

    /// Several points (a Connect6 turn) in the main style, separated by spaces.
    pub fn write_all(&self, points: &[(usize, usize)]) -> String {
        let words: Vec<String> = points.iter().map(|&p| self.write(p)).collect();
        words.join(" ")
    }

    /// Column `x`'s label on the top (`main`) or bottom (`other`) edge.
    pub fn column_label(style: Style, x: usize) -> String {
        match style {
            Style::Numbers => x.to_string(),
            Style::ColumnRow | Style::RowColumn => letter(x).to_string(),
        }
    }

    /// Row `y`'s label on the left (`main`) or right (`other`) edge.
    pub fn row_label(style: Style, y: usize) -> String {
        Notation::column_label(style, y)
    }

    /// One short sentence saying how to write a point, for the help and for error messages.
    pub fn explain(&self) -> String {
        let centre = (self.size / 2, self.size / 2);
        match (self.main, self.other) {
            (Style::Numbers, Style::Numbers) => format!(
                "a point is x,y (column, row) as on Botzone, e.g. {}",
                self.write(centre)
            ),
            (Style::Numbers, _) => format!(
                "a point is x,y (column, row) as on Botzone and Gomocup, e.g. {}, or two \
                 letters (row, column) as on the seed-000 server, e.g. {}",
                self.write(centre),
                write_in(Style::RowColumn, centre)
            ),
            _ => format!(
                "a point is two letters (column, row) as on SAU, e.g. {}, and a turn two \
                 points, e.g. {} {}; Botzone's x,y numbers work too",
                self.write(centre),
                self.write(centre),
                self.write((centre.0 + 1, centre.1)),
            ),
        }
    }

    /// Which edge of the board shows what, for the help.
    pub fn edges(&self) -> String {
        let name = |style: Style| match style {
            Style::Numbers => "numbers",
            Style::ColumnRow => "SAU letters",
            Style::RowColumn => "seed-000 letters",
        };
        if self.main == self.other {
            format!("The edges show the {}.", name(self.main))
        } else {
            format!(
                "The top and left edges show the {}, the bottom and right edges the {}.",
                name(self.main),
                name(self.other)
            )
        }
    }

    fn has(&self, style: Style) -> bool {
        self.main == style || self.other == style
    }

    /// The letter style the game reads, if any.
    fn letter_style(&self) -> Option<Style> {
        [self.main, self.other]
            .into_iter()
            .find(|&s| s != Style::Numbers)
    }

    /// Reads the points in `text`: number pairs (`4,4`, `4 4`, `(4, 4)`) or letter pairs (`JJ`,
    /// `JJ JK`, `jjjk`; `@@` is SAU's "no stone" and is skipped). Checks that each point is on
    /// the board; whether it may be played is the rules' business.
    pub fn parse(&self, text: &str) -> Result<Vec<(usize, usize)>, String> {
        let spaced: String = text
            .chars()
            .map(|c| match c {
                ',' | ';' | '(' | ')' | '[' | ']' => ' ',
                c => c,
            })
            .collect();
        let tokens: Vec<&str> = spaced.split_whitespace().collect();
        if tokens.is_empty() {
            return Err("no point given".to_string());
        }
        if tokens.iter().all(|t| is_number(t)) {
            if !self.has(Style::Numbers) {
                return Err(format!("numbers are not points here: {}", self.explain()));
            }
            return self.parse_numbers(&tokens);
        }
        if tokens.iter().all(|t| is_letters(t)) {
            if let Some(style) = self.letter_style() {
                return self.parse_letters(style, &tokens.concat());
            }
        }
        Err(format!(
            "'{}' is not a point: {}",
            shorten(text),
            self.explain()
        ))
    }

    fn parse_numbers(&self, tokens: &[&str]) -> Result<Vec<(usize, usize)>, String> {
        if !tokens.len().is_multiple_of(2) {
            return Err(format!(
                "numbers come in pairs, x then y: {}",
                self.explain()
            ));
        }
        let n = self.size;
        tokens
            .chunks(2)
            .map(|pair| {
                let coord = |t: &str| {
                    t.parse::<i64>()
                        .ok()
                        .filter(|&v| (0..n as i64).contains(&v))
                };
                match (coord(pair[0]), coord(pair[1])) {
                    (Some(x), Some(y)) => Ok((x as usize, y as usize)),
                    _ => Err(format!(
                        "{},{} is off the board: x and y run from 0 to {}",
                        shorten(pair[0]),
                        shorten(pair[1]),
                        n - 1
                    )),
                }
            })
            .collect()
    }

    fn parse_letters(&self, style: Style, letters: &str) -> Result<Vec<(usize, usize)>, String> {
        let chars: Vec<char> = letters.chars().map(|c| c.to_ascii_uppercase()).collect();
        if !chars.len().is_multiple_of(2) {
            return Err(format!(
                "'{}': every point is two letters: {}",
                shorten(letters),
                self.explain()
            ));
        }
        let n = self.size;
        let mut points = Vec::new();
        for pair in chars.chunks(2) {
            let word: String = pair.iter().collect();
            if word == "@@" {
                continue;
            }
            let index = |c: char| {
                (c.is_ascii_uppercase() && ((c as usize - 'A' as usize) < n))
                    .then(|| c as usize - 'A' as usize)
            };
            let (Some(a), Some(b)) = (index(pair[0]), index(pair[1])) else {
                return Err(format!(
                    "{word} is off the board: the letters run from A to {}",
                    letter(n - 1)
                ));
            };
            points.push(match style {
                Style::RowColumn => (b, a),
                _ => (a, b),
            });
        }
        if points.is_empty() {
            return Err("@@ is no stone: give a point".to_string());
        }
        Ok(points)
    }
}

/// A point written in `style`.
pub fn write_in(style: Style, (x, y): (usize, usize)) -> String {
    match style {
        Style::Numbers => format!("{x},{y}"),
        Style::ColumnRow => format!("{}{}", letter(x), letter(y)),
        Style::RowColumn => format!("{}{}", letter(y), letter(x)),
    }
}

/// An optionally signed whole number (a negative one is read so that it can be called off the
/// board rather than garbage).
fn is_number(t: &str) -> bool {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

fn is_letters(t: &str) -> bool {
    t.chars().all(|c| c.is_ascii_alphabetic() || c == '@')
}

/// At most 24 characters of what the user typed, for quoting it back.
pub fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(24).collect();
    if text.chars().count() > 24 {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nogo_reads_botzone_numbers_in_any_common_form() {
        let n = Notation::for_game(GameKind::Nogo, 9);
        for text in ["4,5", "4 5", "(4, 5)", " 4 ,5 ", "[4;5]"] {
            assert_eq!(n.parse(text), Ok(vec![(4, 5)]), "{text}");
        }
        assert_eq!(n.write((4, 5)), "4,5");
        assert_eq!(n.write_both((4, 5)), "4,5");
        assert!(n.parse("9,0").unwrap_err().contains("off the board"));
        assert!(n.parse("-1,-1").unwrap_err().contains("off the board"));
        assert!(n
            .parse("99999999999999999999999,1")
            .unwrap_err()
            .contains("off the board"));
        assert!(n.parse("4").unwrap_err().contains("pairs"));
        assert!(n.parse("EE").unwrap_err().contains("is not a point"));
        assert!(n.parse("e5").unwrap_err().contains("is not a point"));
        assert!(n.parse("").is_err());
    }

    #[test]
    fn gomoku_reads_numbers_column_first_and_seed_letters_row_first() {
        let n = Notation::for_game(GameKind::Gomoku, 15);
        assert_eq!(n.parse("7,3"), Ok(vec![(7, 3)]));
        // Seed 000: row letter first. `DH` is row 3, column 7.
        assert_eq!(n.parse("DH"), Ok(vec![(7, 3)]));
        assert_eq!(n.parse("dh"), Ok(vec![(7, 3)]));
        assert_eq!(n.write_both((7, 3)), "7,3 (DH)");
        assert!(n.parse("PA").unwrap_err().contains("A to O"));
        assert!(n.parse("15,0").unwrap_err().contains("0 to 14"));
    }

    #[test]
    fn connect6_reads_sau_letters_column_first_alone_in_pairs_or_run_together() {
        let n = Notation::for_game(GameKind::Connect6, 19);
        assert_eq!(n.parse("JK"), Ok(vec![(9, 10)]));
        assert_eq!(n.parse("JK KL"), Ok(vec![(9, 10), (10, 11)]));
        assert_eq!(n.parse("jkkl"), Ok(vec![(9, 10), (10, 11)]));
        assert_eq!(n.parse("JJ@@"), Ok(vec![(9, 9)]));
        assert_eq!(n.parse("9,10 10,11"), Ok(vec![(9, 10), (10, 11)]));
        assert_eq!(n.write_all(&[(9, 10), (10, 11)]), "JK KL");
        assert!(n.parse("TT").unwrap_err().contains("A to S"));
        assert!(n.parse("JKK").unwrap_err().contains("two letters"));
        assert!(n.parse("@@").is_err());
        let small = Notation::for_game(GameKind::Connect6, 15);
        assert!(small.parse("PA").unwrap_err().contains("A to O"));
    }
}
