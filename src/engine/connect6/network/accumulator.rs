//! The network's accumulators, kept up to date stone by stone: for each side, the bias plus the
//! table rows of every cell's four line codes as that side reads them. A stone changes the codes
//! of the cells within reach of it on its four lines (`LineCodes::touched_by`), so placing or
//! removing one moves 4 * (2 * reach + 1) rows out and as many in, per side, however full the
//! board. A stone taken back in the reverse order of placing (as a search does) costs no row at
//! all: the sums from before it was placed are kept on a stack and put back.

use super::codes::{LineCodes, MAX_REACH};
use super::model::{Network, FIXED, MAX_DIM};
use crate::game::connect6::Stone;
use crate::game::Color;

const SIDES: [Color; 2] = [Color::Black, Color::White];

#[derive(Clone, Debug)]
pub struct Accumulator {
    codes: LineCodes,
    /// Per side (Black first): the fixed-point rows of its reading of every view.
    sums: [Vec<i32>; 2],
    /// The stones placed since the accumulator was built and not yet taken back, oldest first,
    /// and `saved_sums`: both sides' sums from just before each (`2 * dim` numbers a stone).
    /// Emptied by a removal out of that order, after which the saved sums no longer hold.
    placed: Vec<Stone>,
    saved_sums: Vec<i32>,
}

impl Accumulator {
    /// The accumulators of a board of `size` holding `stones`, computed from scratch.
    pub fn of_stones(net: &Network, size: usize, stones: &[(Stone, Color)]) -> Accumulator {
        let codes = LineCodes::of_stones(size, net.reach, stones);
        let sums = SIDES.map(|side| {
            let mut sum = vec![0i32; net.dim];
            for p in 0..(size * size) as Stone {
                for dir in 0..4 {
                    let row = net.row(net.row_of(codes.code_for(p, dir, side)));
                    for (s, r) in sum.iter_mut().zip(row) {
                        *s += r;
                    }
                }
            }
            sum
        });
        Accumulator {
            codes,
            sums,
            placed: Vec::new(),
            saved_sums: Vec::new(),
        }
    }

    /// The accumulator read by `side`, the bias added, in floats.
    pub fn sum(&self, net: &Network, side: Color) -> Vec<f32> {
        let mut out = vec![0.0; net.dim];
        self.sum_into(net, side, &mut out);
        out
    }

    fn sum_into(&self, net: &Network, side: Color, out: &mut [f32]) {
        for ((o, &s), b) in out.iter_mut().zip(&self.sums[side.index()]).zip(&net.bias) {
            *o = b + s as f32 / FIXED;
        }
    }

    /// The value of the position in search units for the side to move `mover`, given the threats
    /// against it and the fitted evaluation's value for it.
    pub fn value(&self, net: &Network, mover: Color, against: u32, fitted: i32) -> f32 {
        let mut mine = [0.0; MAX_DIM];
        let mut theirs = [0.0; MAX_DIM];
        self.sum_into(net, mover, &mut mine[..net.dim]);
        self.sum_into(net, mover.opponent(), &mut theirs[..net.dim]);
        let logit = net.logit(&mine[..net.dim], &theirs[..net.dim], against, fitted);
        logit * super::model::OUTPUT_UNITS_PER_LOGIT
    }

    /// A stone of `color` appears on the empty cell `p`.
    pub fn place(&mut self, net: &Network, p: Stone, color: Color) {
        self.placed.push(p);
        for sum in &self.sums {
            self.saved_sums.extend_from_slice(sum);
        }
        let old = self.touched_rows(net, p);
        self.codes.place(p, color);
        self.replace(net, p, &old);
    }

    /// The stone of `color` on `p` leaves it.
    pub fn remove(&mut self, net: &Network, p: Stone, color: Color) {
        if self.placed.last() == Some(&p) {
            // The last stone placed: every stone placed after it has been taken back the same
            // way, so the sums from before it are the sums without it.
            self.placed.pop();
            let dim = self.sums[0].len();
            let at = self.saved_sums.len() - 2 * dim;
            for (side, sum) in self.sums.iter_mut().enumerate() {
                sum.copy_from_slice(&self.saved_sums[at + side * dim..at + (side + 1) * dim]);
            }
            self.saved_sums.truncate(at);
            self.codes.remove(p, color);
            return;
        }
        self.placed.clear();
        self.saved_sums.clear();
        let old = self.touched_rows(net, p);
        self.codes.remove(p, color);
        self.replace(net, p, &old);
    }

    /// The rows, per side, of every view a stone on `p` touches, in `for_each_touched`'s order.
    fn touched_rows(&self, net: &Network, p: Stone) -> Touched {
        let mut rows = Touched::default();
        let codes = &self.codes;
        codes.for_each_touched(p, |q, dir| {
            let black = net.row_of(codes.code(q, dir));
            rows.rows[rows.count] = [black, net.swapped[black as usize] as u32];
            rows.count += 1;
        });
        rows
    }

    /// Swaps the `old` rows of the views `p` touches for their rows now.
    fn replace(&mut self, net: &Network, p: Stone, old: &Touched) {
        let new = self.touched_rows(net, p);
        for (o, n) in old.rows[..old.count].iter().zip(&new.rows[..new.count]) {
            for (s, sum) in self.sums.iter_mut().enumerate() {
                let (out, into) = (net.row(o[s]), net.row(n[s]));
                for ((x, a), b) in sum.iter_mut().zip(out).zip(into) {
                    *x += b - a;
                }
            }
        }
    }
}

/// The most views a stone touches: its own four and `MAX_REACH` either side on each line.
const MOST_TOUCHED: usize = 4 * (2 * MAX_REACH + 1);

/// The rows of the views a stone touches, per side.
struct Touched {
    rows: [[u32; 2]; MOST_TOUCHED],
    count: usize,
}

impl Default for Touched {
    fn default() -> Touched {
        Touched {
            rows: [[0; 2]; MOST_TOUCHED],
            count: 0,
        }
    }
}
