//! The prepared book: opening turns worked out offline by long searches of this engine, and
//! turns learned from the results of played games (`stonebrain book connect6`, `--learn`;
//! `training::connect6::book`), kept in `prepared-book.txt` and built into the binary. On by
//! default since it measured better with `focus` (stop 100 in docs/experiments/connect6.md);
//! `prepared=0` in the arena's specs, `--connect6-prepared off` when serving, turn it off.
//!
//! A position is stored once for its eight symmetries: its key is the smallest of the eight
//! transformed stone lists, and its turn is written in the key's frame. The file is text, one
//! position a line, so that a build stopped at any point keeps every whole line:
//!
//! ```text
//! 19 JJ/JKKJ | KKLL | 35 6 60.0 | JLIL KLLM
//! ```
//!
//! the board's size; Black's stones, then White's, two letters a stone (column then row, `A`
//! for 0, as SAU writes them), each list sorted; the turn to play; the search's value for the
//! side to move, the depth it completed and the seconds it had; the next turns of its ranking
//! (the replies a builder follows for the other side). A learned turn has no search: `- 0 0.0`
//! and no ranking, after a `# learned` comment with the games' records; where it replaces a
//! searched turn, the later line of the two is the one read. A forgotten position (a learned or
//! searched turn that kept losing, `--learn`) is a line whose turn is `-` and the forgotten
//! turn, after a `# forgotten` comment: from there on the book lacks the position and the
//! engine searches it, the forgotten turn left out, and the learning knows which games played
//! the forgotten turn.
//!
//! A line whose position starts with `=` holds one form of the position only, in its own
//! frame (`exact_key`): where the book has such a line for the position asked, booked or
//! forgotten, it is read instead of the line of the eight forms together. Book learning writes
//! them where an opponent answers the forms differently (Cloudict does: stop 107 in
//! docs/experiments/connect6.md found a turn that won in two forms of a position and lost in
//! two others).

use crate::game::connect6::{Connect6, Stone};
use crate::game::{Color, Game};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The book built into the binary.
const BUILT_IN: &str = include_str!("prepared-book.txt");

/// One position's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The turn to play, in the key's frame: stones as (column, row).
    pub turn: Vec<(u8, u8)>,
    /// The search's value for the side to move (`None`: no search, a forced or book turn).
    pub value: Option<i32>,
    pub depth: u8,
    pub seconds: f64,
    /// The next turns of the search's ranking, best first, in the key's frame.
    pub replies: Vec<Vec<(u8, u8)>>,
}

/// A cell as (column, row).
type Cell = (u8, u8);

/// A book: each canonical key's entry, for one board size at a time.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<(usize, String), Entry>,
    /// The turns forgotten (in the key's frame) at positions the book no longer has.
    forgotten: HashMap<(usize, String), Vec<Cell>>,
}

/// What a line of the file says of its position.
enum Line {
    Booked(Entry),
    /// The position is dropped; the turn it had.
    Forgotten(Vec<Cell>),
}

/// The eight symmetries of an `n` x `n` board.
pub(super) fn transform(sym: usize, (x, y): (u8, u8), n: u8) -> (u8, u8) {
    let m = n - 1;
    match sym {
        0 => (x, y),
        1 => (m - x, y),
        2 => (x, m - y),
        3 => (m - x, m - y),
        4 => (y, x),
        5 => (m - y, x),
        6 => (y, m - x),
        _ => (m - y, m - x),
    }
}

/// The symmetry that undoes `sym`.
fn inverse(sym: usize) -> usize {
    // 5 and 6 are the quarter turns, each the other's inverse; the rest undo themselves.
    match sym {
        5 => 6,
        6 => 5,
        s => s,
    }
}

/// A cell as SAU writes it: column then row, `A` for 0.
pub fn cell_text((x, y): (u8, u8)) -> String {
    [x, y].iter().map(|&c| (b'A' + c) as char).collect()
}

fn cells_text(cells: &[(u8, u8)]) -> String {
    cells.iter().map(|&c| cell_text(c)).collect()
}

/// Cells written as by `cell_text`, one after another, each on an `n` x `n` board.
pub fn parse_cells(text: &str, n: u8) -> Result<Vec<(u8, u8)>, String> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err(format!("`{text}`: cells are two letters each"));
    }
    bytes
        .chunks(2)
        .map(|c| {
            let (x, y) = (c[0].wrapping_sub(b'A'), c[1].wrapping_sub(b'A'));
            if x < n && y < n {
                Ok((x, y))
            } else {
                Err(format!("`{text}`: a cell off the {n}x{n} board"))
            }
        })
        .collect()
}

/// The key of `pos` and the symmetry that maps the position onto it.
pub fn key(pos: &Connect6) -> (String, usize) {
    let (black, white) = stones(pos);
    (0..8)
        .map(|sym| (key_in(&black, &white, sym, pos.size() as u8), sym))
        .min()
        .expect("eight symmetries")
}

/// Black's and White's stones moved by `sym` on an `n` x `n` board, each side's sorted, as
/// `Black/White`.
fn key_in(black: &[Cell], white: &[Cell], sym: usize, n: u8) -> String {
    let side = |cells: &[Cell]| {
        let mut moved: Vec<Cell> = cells.iter().map(|&c| transform(sym, c, n)).collect();
        moved.sort_unstable();
        cells_text(&moved)
    };
    format!("{}/{}", side(black), side(white))
}

/// The key of `pos` in its own frame, this form of the position only: `=` and its stones as
/// `key` writes them, unmoved. A turn at that key is in the position's own frame (symmetry 0).
pub fn exact_key(pos: &Connect6) -> String {
    let (black, white) = stones(pos);
    format!("={}", key_in(&black, &white, 0, pos.size() as u8))
}

/// Black's and White's stones as (column, row).
fn stones(pos: &Connect6) -> (Vec<Cell>, Vec<Cell>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for p in 0..pos.points() as Stone {
        let (x, y) = pos.coords(p);
        match pos.color_at(p) {
            Some(Color::Black) => black.push((x as u8, y as u8)),
            Some(Color::White) => white.push((x as u8, y as u8)),
            None => {}
        }
    }
    (black, white)
}

impl Entry {
    /// A turn from `pos`'s own frame into the key's (`sym` from `key`).
    pub fn to_key_frame(pos: &Connect6, sym: usize, turn: &[Stone]) -> Vec<(u8, u8)> {
        let n = pos.size() as u8;
        turn.iter()
            .map(|&s| {
                let (x, y) = pos.coords(s);
                transform(sym, (x as u8, y as u8), n)
            })
            .collect()
    }

    /// A turn of the key's frame as stones of `pos` (`sym` from `key`).
    pub fn in_position(pos: &Connect6, sym: usize, turn: &[(u8, u8)]) -> Vec<Stone> {
        let n = pos.size() as u8;
        turn.iter()
            .map(|&c| {
                let (x, y) = transform(inverse(sym), c, n);
                pos.point(x as usize, y as usize)
            })
            .collect()
    }

    /// The line of the file for the position whose key is `key`.
    pub fn line(&self, size: usize, key: &str) -> String {
        let value = self.value.map_or("-".to_string(), |v| v.to_string());
        let replies: Vec<String> = self.replies.iter().map(|r| cells_text(r)).collect();
        format!(
            "{size} {key} | {} | {value} {} {:.1} | {}",
            cells_text(&self.turn),
            self.depth,
            self.seconds,
            replies.join(" ")
        )
        .trim_end()
        .to_string()
    }
}

impl Book {
    /// Reads a book's text; `name` names it in errors. Blank lines and `#` comments are skipped.
    pub fn parse(text: &str, name: &str) -> Result<Book, String> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, size, entry) =
                parse_line(line).map_err(|e| format!("{name}, line {}: {e}", i + 1))?;
            match entry {
                Line::Booked(entry) => book.insert(size, k, entry),
                Line::Forgotten(turn) => book.forget(size, &k, turn),
            }
        }
        Ok(book)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, size: usize, key: &str) -> Option<&Entry> {
        self.entries.get(&(size, key.to_string()))
    }

    pub fn insert(&mut self, size: usize, key: String, entry: Entry) {
        self.forgotten.remove(&(size, key.clone()));
        self.entries.insert((size, key), entry);
    }

    /// Drops the position of `key`, whose turn was `turn` (in the key's frame): the line that
    /// records it is `forgotten_line`'s.
    pub fn forget(&mut self, size: usize, key: &str, turn: Vec<Cell>) {
        self.entries.remove(&(size, key.to_string()));
        self.forgotten.insert((size, key.to_string()), turn);
    }

    /// The book's turn for `pos` at the start of a turn, as stones of `pos`, if it has the
    /// position and the turn is legal there.
    pub fn turn(&self, pos: &Connect6) -> Option<Vec<Stone>> {
        self.turn_of(pos, |k| self.get(pos.size(), k).map(|e| &e.turn))
    }

    /// The turn the book forgot at `pos`, as `turn` gives a booked one.
    pub fn forgotten_turn(&self, pos: &Connect6) -> Option<Vec<Stone>> {
        self.turn_of(pos, |k| self.forgotten.get(&(pos.size(), k.to_string())))
    }

    fn turn_of<'a>(
        &'a self,
        pos: &Connect6,
        lookup: impl Fn(&str) -> Option<&'a Vec<Cell>>,
    ) -> Option<Vec<Stone>> {
        // Black's single first stone is not the book's: every line starts after it.
        if pos.outcome().is_some() || pos.ply() == 0 || pos.stones_left_in_turn() != 2 {
            return None;
        }
        let (k, sym) = self.frame(pos);
        let turn = Entry::in_position(pos, sym, lookup(&k)?);
        let mut after = pos.clone();
        for &s in &turn {
            if after.outcome().is_some() || after.check_move(s).is_err() {
                return None;
            }
            after.play(s);
        }
        Some(turn)
    }

    /// Where the book's say on `pos` is kept, and the symmetry from `pos` to that frame: the
    /// line of this form alone where the book has one (booked or forgotten), else the line of
    /// the position up to symmetry.
    pub fn frame(&self, pos: &Connect6) -> (String, usize) {
        let exact = (pos.size(), exact_key(pos));
        if self.entries.contains_key(&exact) || self.forgotten.contains_key(&exact) {
            (exact.1, 0)
        } else {
            key(pos)
        }
    }
}

/// The line that drops the position of `key`, whose turn was `turn` (in the key's frame), from
/// a book read up to it.
pub fn forgotten_line(size: usize, key: &str, turn: &[Cell]) -> String {
    format!("{size} {key} | - {} | - 0 0.0 |", cells_text(turn))
}

/// A line's key, board size and what it says of the position.
fn parse_line(line: &str) -> Result<(String, usize, Line), String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [head, turn, numbers, replies] = fields[..] else {
        return Err("expected four fields separated by `|`".into());
    };
    let (size, k) = head
        .split_once(' ')
        .ok_or("expected the board's size and the position")?;
    let size: usize = size
        .parse()
        .map_err(|_| format!("`{size}` is not a size"))?;
    if !(6..=25).contains(&size) {
        return Err(format!("size {size} out of range"));
    }
    let n = size as u8;
    let (black, white) = k
        .strip_prefix('=')
        .unwrap_or(k)
        .split_once('/')
        .ok_or("expected Black's stones / White's")?;
    parse_cells(black, n)?;
    parse_cells(white, n)?;
    if let Some(gone) = turn.strip_prefix('-') {
        return Ok((
            k.to_string(),
            size,
            Line::Forgotten(parse_cells(gone.trim(), n)?),
        ));
    }
    let turn = parse_cells(turn, n)?;
    if turn.is_empty() || turn.len() > 2 {
        return Err("a turn has one or two stones".into());
    }
    let nums: Vec<&str> = numbers.split_whitespace().collect();
    let [value, depth, seconds] = nums[..] else {
        return Err("expected value, depth and seconds".into());
    };
    let value = match value {
        "-" => None,
        v => Some(v.parse().map_err(|_| format!("`{v}` is not a value"))?),
    };
    let depth = depth
        .parse()
        .map_err(|_| format!("`{depth}` is not a depth"))?;
    let seconds = seconds
        .parse()
        .map_err(|_| format!("`{seconds}` is not a number of seconds"))?;
    let replies = replies
        .split_whitespace()
        .map(|r| parse_cells(r, n))
        .collect::<Result<_, _>>()?;
    let entry = Entry {
        turn,
        value,
        depth,
        seconds,
        replies,
    };
    Ok((k.to_string(), size, Line::Booked(entry)))
}

/// The built-in book, read once (a damaged file fails its test, never a game: it reads empty).
pub fn built_in() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(BUILT_IN, "prepared-book.txt").unwrap_or_default())
}

#[cfg(test)]
mod tests;
