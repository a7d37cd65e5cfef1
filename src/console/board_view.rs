//! Drawing a board as text: coordinates on all four edges (the game's main notation on the top
//! and left, its second notation on the bottom and right), `X` for Black, `O` for White, `.` for
//! an empty point and `+` for a star point, the last turn's stones in brackets. With colour, the
//! board gets a wooden background and coloured stones; without, it is plain ASCII, so that it
//! reads the same in a pipe, a log file or a terminal with no colour.

use super::notation::{Notation, Style};
use crate::game::Color;

/// How much colour the terminal gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    /// No escape sequences at all.
    Plain,
    /// The 16 basic colours, no background.
    Basic,
    /// 256 colours: a wooden board.
    Rich,
}

/// 256-colour palette entries of the rich board.
const WOOD: u8 = 137;
const GRID: u8 = 180;
const BLACK_STONE: u8 = 16;
const WHITE_STONE: u8 = 231;
const MARK: u8 = 196;

/// Star points (hoshi), for orientation on the empty board: 3 in from the edges on 13x13 and
/// larger boards, 2 in on smaller ones, the centre of odd boards, and the edge midpoints from
/// 19x19 up.
pub fn star_points(size: usize) -> Vec<(usize, usize)> {
    if size < 7 {
        return Vec::new();
    }
    let e = if size >= 13 { 3 } else { 2 };
    let (a, b) = (e, size - 1 - e);
    let mut stars = vec![(a, a), (b, a), (a, b), (b, b)];
    if size % 2 == 1 {
        let c = size / 2;
        stars.push((c, c));
        if size >= 19 {
            stars.extend([(c, a), (a, c), (b, c), (c, b)]);
        }
    }
    stars
}

/// What one cell shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Stone(Color),
    Star,
    Empty,
}

/// The board as lines of text (no trailing newline on any).
pub fn draw(
    notation: &Notation,
    stone_at: impl Fn(usize, usize) -> Option<Color>,
    marked: &[(usize, usize)],
    palette: Palette,
) -> Vec<String> {
    let n = notation.size;
    let stars = star_points(n);
    let labels =
        |style: Style| -> Vec<String> { (0..n).map(|i| Notation::row_label(style, i)).collect() };
    let (left, right) = (labels(notation.main), labels(notation.other));
    let left_width = left.iter().map(|l| l.len()).max().unwrap_or(1);
    let edge = |style: Style| -> String {
        let mut line = " ".repeat(left_width + 1);
        for x in 0..n {
            line.push_str(&format!(" {:<2}", Notation::column_label(style, x)));
        }
        line.trim_end().to_string()
    };
    let mut lines = vec![edge(notation.main)];
    for y in 0..n {
        let mut line = format!("{:>left_width$} ", left[y]);
        for x in 0..n {
            let cell = match stone_at(x, y) {
                Some(c) => Cell::Stone(c),
                None if stars.contains(&(x, y)) => Cell::Star,
                None => Cell::Empty,
            };
            line.push_str(&paint_cell(cell, marked.contains(&(x, y)), palette));
        }
        if palette != Palette::Plain {
            line.push_str("\x1b[0m");
        }
        line.push(' ');
        line.push_str(&right[y]);
        lines.push(line);
    }
    lines.push(edge(notation.other));
    lines
}

/// The three characters of one cell: the symbol between two spaces, or between brackets when
/// it is one of the last turn's stones.
fn paint_cell(cell: Cell, marked: bool, palette: Palette) -> String {
    let symbol = match cell {
        Cell::Stone(Color::Black) => 'X',
        Cell::Stone(Color::White) => 'O',
        Cell::Star => '+',
        Cell::Empty => '.',
    };
    let (open, close) = if marked { ('[', ']') } else { (' ', ' ') };
    match palette {
        Palette::Plain => format!("{open}{symbol}{close}"),
        Palette::Rich => {
            let paint = |fg: u8, bold: bool, c: char| {
                let weight = if bold { ";1" } else { "" };
                format!("\x1b[0;48;5;{WOOD}{weight};38;5;{fg}m{c}")
            };
            let fg = match cell {
                Cell::Stone(Color::Black) => BLACK_STONE,
                Cell::Stone(Color::White) => WHITE_STONE,
                _ => GRID,
            };
            let stone = matches!(cell, Cell::Stone(_));
            format!(
                "{}{}{}",
                paint(MARK, true, open),
                paint(fg, stone, symbol),
                paint(MARK, true, close)
            )
        }
        Palette::Basic => {
            let sgr = match cell {
                Cell::Stone(Color::Black) => "1;31",
                Cell::Stone(Color::White) => "1;36",
                _ => "2",
            };
            format!("\x1b[0;1;33m{open}\x1b[0;{sgr}m{symbol}\x1b[0;1;33m{close}\x1b[0m")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::GameKind;

    #[test]
    fn a_plain_nogo_board_has_numbers_on_every_edge_and_brackets_on_the_last_move() {
        let n = Notation::for_game(GameKind::Nogo, 9);
        let lines = draw(
            &n,
            |x, y| match (x, y) {
                (4, 4) => Some(Color::Black),
                (5, 4) => Some(Color::White),
                _ => None,
            },
            &[(5, 4)],
            Palette::Plain,
        );
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "   0  1  2  3  4  5  6  7  8");
        assert_eq!(lines[1], "0  .  .  .  .  .  .  .  .  .  0");
        assert_eq!(lines[3], "2  .  .  +  .  .  .  +  .  .  2");
        assert_eq!(lines[5], "4  .  .  .  .  X [O] .  .  .  4");
        assert_eq!(lines[10], lines[0]);
        assert!(lines.iter().all(|l| !l.contains('\x1b')));
    }

    #[test]
    fn gomoku_and_connect6_edges_show_both_notations() {
        let g = draw(
            &Notation::for_game(GameKind::Gomoku, 15),
            |_, _| None,
            &[],
            Palette::Plain,
        );
        assert!(g[0].ends_with(" 13 14"), "{}", g[0]);
        assert!(g[16].ends_with(" N  O"), "{}", g[16]);
        assert!(
            g[1].starts_with(" 0  . ") && g[1].ends_with(" A"),
            "{}",
            g[1]
        );
        let c = draw(
            &Notation::for_game(GameKind::Connect6, 19),
            |_, _| None,
            &[],
            Palette::Plain,
        );
        assert!(c[0].ends_with(" R  S"), "{}", c[0]);
        assert!(c[20].ends_with(" 17 18"), "{}", c[20]);
        assert!(
            c[19].starts_with("S  . ") && c[19].ends_with(" 18"),
            "{}",
            c[19]
        );
        // Nine star points on 19x19.
        let stars: usize = c.iter().map(|l| l.matches('+').count()).sum();
        assert_eq!(stars, 9);
    }

    #[test]
    fn colour_boards_use_escapes_and_keep_the_symbols() {
        for palette in [Palette::Basic, Palette::Rich] {
            let lines = draw(
                &Notation::for_game(GameKind::Nogo, 9),
                |x, _| (x == 0).then_some(Color::White),
                &[(0, 0)],
                palette,
            );
            assert!(lines[1].contains('\x1b') && lines[1].contains('O'));
            assert!(lines[1].contains('['));
        }
    }
}
