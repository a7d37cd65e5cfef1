//! Line codes: what a cell sees along each of its four lines, the input the learned evaluation
//! of `docs/connect6-network.md` is to be built on.
//!
//! A cell's view along one direction is three parts: the cell itself (empty, Black or White)
//! and the two half-lines either side of it, `reach` cells each, nearest first. A half-line is
//! some cells on the board followed by cells off it (once a line leaves the board it does not
//! come back), so a half-line with `k` cells on the board has `3^k` contents, and all of them
//! together number `(3^(reach+1) - 1) / 2` (364 at a reach of 5). Its code lists the shorter
//! half-lines first, then the digits of its cells, nearest lowest:
//! `(3^k - 1) / 2 + sum(v_i * 3^i)` with `v_i` 0 empty, 1 Black, 2 White.
//!
//! A stone changes one digit of the half-lines of the cells within `reach` of it on each of its
//! four lines, and nothing else, so the codes are kept up to date by adding and subtracting
//! (`LineCodes::place`, `LineCodes::remove`): 8 times `reach` additions a stone. A line read
//! the other way round is the same line, so [`LineCodes::code`] gives the smaller of the two
//! readings, and a table indexed by it is shared by all four directions and both orientations.

use crate::game::connect6::{Stone, MAX_SIZE, MIN_SIZE};
use crate::game::Color;

/// The longest reach the codes take: five cells either side covers every six through the cell.
pub const MAX_REACH: usize = 5;

/// The four directions of the board's lines, as (dx, dy).
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A cell's contents as a digit of the codes.
const EMPTY: u32 = 0;

fn digit(color: Color) -> u32 {
    match color {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// How many contents a half-line of `reach` cells can have.
pub const fn half_codes(reach: usize) -> u32 {
    (3u32.pow(reach as u32 + 1) - 1) / 2
}

/// How many codes a cell's view along one line can have at this reach (before the two readings
/// of a line are folded into one): 397,488 at a reach of 5, 43,923 at 4.
pub const fn line_codes(reach: usize) -> u32 {
    3 * half_codes(reach) * half_codes(reach)
}

/// The code of a half-line whose cells on the board hold `digits`, nearest first.
pub fn half_code(digits: &[u32]) -> u32 {
    let base = (3u32.pow(digits.len() as u32) - 1) / 2;
    digits.iter().rev().fold(0, |acc, &d| acc * 3 + d) + base
}

/// The code of the same half-line with Black and White exchanged.
pub fn swap_half(code: u32) -> u32 {
    let digits: Vec<u32> = half_digits(code).iter().map(|&d| (3 - d) % 3).collect();
    half_code(&digits)
}

/// The digits of a half-line from its code, nearest first: `half_code`'s inverse.
pub fn half_digits(code: u32) -> Vec<u32> {
    let mut k = 0;
    while (3u32.pow(k + 1) - 1) / 2 <= code {
        k += 1;
    }
    let mut rest = code - (3u32.pow(k) - 1) / 2;
    (0..k)
        .map(|_| {
            let d = rest % 3;
            rest /= 3;
            d
        })
        .collect()
}

/// Every cell's view along its four lines on a board of one size, kept up to date stone by
/// stone.
#[derive(Clone, Debug)]
pub struct LineCodes {
    size: usize,
    reach: usize,
    /// `half_codes(reach)`.
    halves: u32,
    /// Per cell, per direction: the half-line behind the cell (towards -d) and ahead (+d).
    half: Vec<[[u32; 2]; 4]>,
    /// Per cell: its own digit.
    centre: Vec<u32>,
    /// Per half-line code: the code with Black and White exchanged.
    swapped: Vec<u32>,
}

impl LineCodes {
    /// The codes of the empty board. `size` is a Connect6 board's (6 to 25), `reach` from 1 to
    /// `MAX_REACH`.
    pub fn new(size: usize, reach: usize) -> LineCodes {
        LineCodes::of_stones(size, reach, &[])
    }

    /// The codes of a board holding `stones`, computed from scratch, cell by cell (the
    /// reference the incremental updates are tested against).
    pub fn of_stones(size: usize, reach: usize, stones: &[(Stone, Color)]) -> LineCodes {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size}");
        assert!((1..=MAX_REACH).contains(&reach), "reach {reach}");
        let halves = half_codes(reach);
        let swapped = (0..halves).map(swap_half).collect();
        let mut cells = vec![EMPTY; size * size];
        for &(p, color) in stones {
            cells[p as usize] = digit(color);
        }
        let mut codes = LineCodes {
            size,
            reach,
            halves,
            half: vec![[[0; 2]; 4]; size * size],
            centre: cells.clone(),
            swapped,
        };
        for p in 0..(size * size) as Stone {
            for dir in 0..4 {
                for (side, sign) in [(0, -1), (1, 1)] {
                    let digits: Vec<u32> = codes
                        .line_cells(p, dir, sign)
                        .map(|q| cells[q as usize])
                        .collect();
                    codes.half[p as usize][dir][side] = half_code(&digits);
                }
            }
        }
        codes
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// A stone of `color` appears on the empty cell `p`.
    pub fn place(&mut self, p: Stone, color: Color) {
        debug_assert_eq!(self.centre[p as usize], EMPTY, "cell {p} taken");
        self.centre[p as usize] = digit(color);
        self.shift(p, digit(color), true);
    }

    /// The stone of `color` on `p` leaves it.
    pub fn remove(&mut self, p: Stone, color: Color) {
        debug_assert_eq!(self.centre[p as usize], digit(color), "cell {p}");
        self.centre[p as usize] = EMPTY;
        self.shift(p, digit(color), false);
    }

    /// Adds (or takes back) the digit `d` of `p` in the half-lines of the cells that see it: a
    /// cell `t` steps ahead of `p` sees it `t` cells behind, and the other way round.
    fn shift(&mut self, p: Stone, d: u32, add: bool) {
        for dir in 0..4 {
            for (side, sign) in [(0, 1), (1, -1)] {
                let mut step = d;
                for q in self.line_cells(p, dir, sign) {
                    let code = &mut self.half[q as usize][dir][side];
                    if add {
                        *code += step;
                    } else {
                        *code -= step;
                    }
                    step *= 3;
                }
            }
        }
    }

    /// The cells of the board from `p` along direction `dir`, forwards (`sign` 1) or backwards
    /// (-1), nearest first, up to `reach` of them: where the line leaves the board they end.
    fn line_cells(&self, p: Stone, dir: usize, sign: isize) -> impl Iterator<Item = Stone> {
        let (n, reach) = (self.size as isize, self.reach as isize);
        let (x, y) = (p as isize % n, p as isize / n);
        let (dx, dy) = DIRECTIONS[dir];
        (1..=reach)
            .map(move |t| (x + sign * t * dx, y + sign * t * dy))
            .take_while(move |&(cx, cy)| (0..n).contains(&cx) && (0..n).contains(&cy))
            .map(move |(cx, cy)| (cy * n + cx) as Stone)
    }

    /// The code of cell `p`'s view along direction `dir` (0 to 3), in Black's terms (Black's
    /// stones are the digit 1), the two readings of the line folded into one: less than
    /// `line_codes(reach)`.
    pub fn code(&self, p: Stone, dir: usize) -> u32 {
        let [behind, ahead] = self.half[p as usize][dir];
        self.fold(self.centre[p as usize], behind, ahead)
    }

    /// The same code read by `side`: its own stones are the digit 1. White reads every stone's
    /// colour exchanged, so a position and its colour-exchanged copy read the same for the
    /// side to move.
    pub fn code_for(&self, p: Stone, dir: usize, side: Color) -> u32 {
        let [behind, ahead] = self.half[p as usize][dir];
        let centre = self.centre[p as usize];
        match side {
            Color::Black => self.fold(centre, behind, ahead),
            Color::White => self.fold(
                (3 - centre) % 3,
                self.swapped[behind as usize],
                self.swapped[ahead as usize],
            ),
        }
    }

    fn fold(&self, centre: u32, a: u32, b: u32) -> u32 {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        (centre * self.halves + lo) * self.halves + hi
    }

    /// Calls `f` with each view a stone on `p` touches (`touched_by`), in plain loops: the
    /// accumulators' inner loop.
    #[inline]
    pub fn for_each_touched(&self, p: Stone, mut f: impl FnMut(Stone, usize)) {
        let (n, reach) = (self.size as isize, self.reach as isize);
        let (x, y) = (p as isize % n, p as isize / n);
        for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            f(p, dir);
            for sign in [1, -1] {
                let (sx, sy) = (sign * dx, sign * dy);
                let (mut cx, mut cy) = (x + sx, y + sy);
                for _ in 0..reach {
                    if cx < 0 || cx >= n || cy < 0 || cy >= n {
                        break;
                    }
                    f((cy * n + cx) as Stone, dir);
                    cx += sx;
                    cy += sy;
                }
            }
        }
    }

    /// The cells whose views a stone on `p` changes, with the direction of the view: `p`
    /// itself in all four, and the cells within `reach` of it on its lines. What an
    /// accumulator over the codes must update when the stone comes or goes.
    pub fn touched_by(&self, p: Stone) -> Vec<(Stone, usize)> {
        let mut touched = Vec::new();
        self.for_each_touched(p, |q, dir| touched.push((q, dir)));
        touched
    }
}

impl PartialEq for LineCodes {
    fn eq(&self, other: &LineCodes) -> bool {
        self.size == other.size
            && self.reach == other.reach
            && self.half == other.half
            && self.centre == other.centre
    }
}
