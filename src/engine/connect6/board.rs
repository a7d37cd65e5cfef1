//! The search's view of a Connect6 position: the rules' board plus, kept up to date stone by
//! stone, a value for every empty cell (what a stone there would add for each colour) and a
//! static evaluation. Both come from the six-cell windows the rules already count: a window
//! with stones of one colour only is "live" for that colour and worth more the fuller it is.
//!
//! A stone changes only the (at most 24) windows through it, so making and unmaking a stone
//! touches at most 24 x 6 cell values; the board never needs a full scan except to list
//! candidates.

use crate::game::connect6::{Connect6, Stone, RUN};
use crate::game::{Color, Game};

/// The evaluation's numbers, kept with the board so that versions can be measured side by side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Worth of a live window holding k stones of one colour (k = 0..=5). Six is a win and never
    /// evaluated. Each step is roughly a factor of 3-4: a window with 3 stones is one turn from a
    /// threat, and two such windows are a double threat in the making.
    pub window: [i32; RUN],
    /// The side to move's windows count this much more: it places two stones before the
    /// opponent answers.
    pub tempo: f32,
    /// What the side to move's windows count for, and the waiting side's, when the side to move
    /// faces one threat (index 0) or two (index 1): its stones then go to blocking first, so
    /// the turn's tempo shrinks (one free stone) or passes to the side that made the threats
    /// (none).
    pub forced: [(f32, f32); 2],
    /// Move ordering: a cell's worth is its own gain times `own` plus the opponent's gain there
    /// (what the stone takes away) times `theirs`.
    pub own: i32,
    pub theirs: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            window: [0, 1, 6, 24, 90, 180],
            tempo: 1.6,
            forced: [(1.3, 1.0), (1.0, 1.6)],
            own: 4,
            theirs: 3,
        }
    }
}

impl Weights {
    /// The gain of one more stone in a live window with k stones.
    fn gain(&self, k: usize) -> i32 {
        if k + 1 < RUN {
            self.window[k + 1] - self.window[k]
        } else {
            // Completing a window wins; the searches find wins before they look at values.
            1000
        }
    }

    /// The contribution of a window with `n` (Black, White) stones: its value to each colour
    /// and the gain it gives each of its cells, per colour.
    fn window_terms(&self, n: [u8; 2]) -> ([i32; 2], [i32; 2]) {
        let mut value = [0; 2];
        let mut cell = [0; 2];
        for c in 0..2 {
            if n[1 - c] == 0 && (n[c] as usize) < RUN {
                value[c] = self.window[n[c] as usize];
                cell[c] = self.gain(n[c] as usize);
            }
        }
        (value, cell)
    }
}

/// Cells this close (in king moves) to a stone are candidates: further away a stone shares no
/// window with anything on the board worth speaking of.
const NEAR: isize = 2;

#[derive(Clone)]
pub struct Board {
    pub pos: Connect6,
    /// Per cell, per colour (Black first): what a stone of that colour there would add.
    cell: Vec<[i32; 2]>,
    /// Sum of live-window values, per colour.
    total: [i32; 2],
    /// Stones within `NEAR` of each cell.
    near: Vec<u8>,
    /// Precomputed neighbourhoods within `NEAR`, per cell.
    around: std::sync::Arc<Vec<Vec<Stone>>>,
    /// Stones on the board.
    stones: usize,
    weights: Weights,
}

fn neighbourhoods(size: usize) -> Vec<Vec<Stone>> {
    (0..size * size)
        .map(|p| {
            let (x, y) = ((p % size) as isize, (p / size) as isize);
            let mut v = Vec::new();
            for dy in -NEAR..=NEAR {
                for dx in -NEAR..=NEAR {
                    let (nx, ny) = (x + dx, y + dy);
                    if (dx, dy) != (0, 0)
                        && (0..size as isize).contains(&nx)
                        && (0..size as isize).contains(&ny)
                    {
                        v.push((ny as usize * size + nx as usize) as Stone);
                    }
                }
            }
            v
        })
        .collect()
}

impl Board {
    /// The search board of `pos` with the default weights.
    #[cfg(test)]
    pub fn new(pos: &Connect6) -> Board {
        Board::with_weights(pos, Weights::default())
    }

    /// The search board of `pos`, computed from scratch from the rules' window counts.
    pub fn with_weights(pos: &Connect6, weights: Weights) -> Board {
        let n = pos.points();
        let around = neighbourhoods(pos.size());
        let mut cell = vec![[0; 2]; n];
        let mut total = [0; 2];
        let t = pos.tables();
        for w in 0..t.window_count() {
            let counts = [
                pos.window_stones(w, Color::Black),
                pos.window_stones(w, Color::White),
            ];
            let (v, g) = weights.window_terms(counts);
            total[0] += v[0];
            total[1] += v[1];
            for &p in t.window(w) {
                cell[p as usize][0] += g[0];
                cell[p as usize][1] += g[1];
            }
        }
        let mut near = vec![0u8; n];
        let mut stones = 0;
        for p in 0..n as Stone {
            if pos.color_at(p).is_some() {
                stones += 1;
                for &q in &around[p as usize] {
                    near[q as usize] += 1;
                }
            }
        }
        Board {
            pos: pos.clone(),
            cell,
            total,
            near,
            around: std::sync::Arc::new(around),
            stones,
            weights,
        }
    }

    pub fn side(&self) -> Color {
        self.pos.side_to_move()
    }

    /// Puts a stone for the side to move.
    pub fn play(&mut self, p: Stone) {
        let c = self.pos.side_to_move();
        self.account(p, c, true);
        self.pos.place(p);
    }

    /// Takes back the last stone, which was on `p`.
    pub fn undo(&mut self, p: Stone) {
        let c = self.pos.color_at(p).expect("undo of an empty point");
        self.pos.undo(p);
        self.account(p, c, false);
    }

    /// Moves the cell values, totals and neighbour counts for a stone of `c` on `p` appearing
    /// (`add`) or disappearing. Reads window counts from `self.pos`, which must not yet hold
    /// the change (on `add`) or must already have undone it (on removal).
    fn account(&mut self, p: Stone, c: Color, add: bool) {
        let ci = c.index();
        let tables = self.pos.tables();
        for &w in tables.windows_through(p) {
            let w = w as usize;
            let before = [
                self.pos.window_stones(w, Color::Black),
                self.pos.window_stones(w, Color::White),
            ];
            let mut after = before;
            after[ci] += 1;
            // `before` is the window without the stone, `after` with it.
            let (v0, g0) = self.weights.window_terms(before);
            let (v1, g1) = self.weights.window_terms(after);
            let sign = if add { 1 } else { -1 };
            let dv = [(v1[0] - v0[0]) * sign, (v1[1] - v0[1]) * sign];
            let dg = [(g1[0] - g0[0]) * sign, (g1[1] - g0[1]) * sign];
            self.total[0] += dv[0];
            self.total[1] += dv[1];
            if dg != [0, 0] {
                for &q in tables.window(w) {
                    let cq = &mut self.cell[q as usize];
                    cq[0] += dg[0];
                    cq[1] += dg[1];
                }
            }
        }
        if add {
            self.stones += 1;
            for &q in self.around[p as usize].iter() {
                self.near[q as usize] += 1;
            }
        } else {
            self.stones -= 1;
            for &q in self.around[p as usize].iter() {
                self.near[q as usize] -= 1;
            }
        }
    }

    /// The static value of the position for `color`: its live windows against the opponent's.
    /// The side to move gets a bonus, since it places two stones before the opponent answers,
    /// less of one or none when it must first block threats (`Weights::forced`).
    pub fn evaluate(&self, color: Color) -> i32 {
        self.evaluate_facing(color, self.pos.threats(self.side().opponent()))
    }

    /// `evaluate`, given the threats against the side to move (`threats` of the other side),
    /// for a caller that has already counted them.
    pub fn evaluate_facing(&self, color: Color, threats: u32) -> i32 {
        let me = self.total[color.index()];
        let them = self.total[color.opponent().index()];
        let (mover, waiter) = match threats {
            0 => (self.weights.tempo, 1.0),
            1 => self.weights.forced[0],
            _ => self.weights.forced[1],
        };
        let scaled = |total: i32, factor: f32| (total as f32 * factor) as i32;
        if self.side() == color {
            scaled(me, mover) - scaled(them, waiter)
        } else {
            scaled(me, waiter) - scaled(them, mover)
        }
    }

    /// The move-ordering value of `p` for the side `color`: own gain plus most of what it takes
    /// from the opponent.
    pub fn priority(&self, p: Stone, color: Color) -> i32 {
        let [b, w] = self.cell[p as usize];
        let (own, theirs) = if color == Color::Black {
            (b, w)
        } else {
            (w, b)
        };
        own * self.weights.own + theirs * self.weights.theirs
    }

    /// Empty cells near a stone (the centre on an empty board), best first by `priority` for
    /// `color`, at most `k` of them.
    pub fn top_cells(&self, color: Color, k: usize) -> Vec<Stone> {
        let mut cells: Vec<(i32, Stone)> = if self.stones == 0 {
            let n = self.pos.size();
            vec![(0, self.pos.point(n / 2, n / 2))]
        } else {
            (0..self.pos.points() as Stone)
                .filter(|&p| self.near[p as usize] > 0 && self.pos.color_at(p).is_none())
                .map(|p| (self.priority(p, color), p))
                .collect()
        };
        if cells.is_empty() {
            // Every cell near a stone is taken: any empty cell will do.
            cells = (0..self.pos.points() as Stone)
                .filter(|&p| self.pos.color_at(p).is_none())
                .map(|p| (self.priority(p, color), p))
                .collect();
        }
        let k = k.min(cells.len());
        if k < cells.len() {
            cells.select_nth_unstable_by(k, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            cells.truncate(k);
        }
        cells.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        cells.into_iter().map(|(_, p)| p).collect()
    }

    /// Empty cells of live windows of `color` holding at least `min` of its stones: where
    /// `color`'s threats can come from.
    pub fn cells_of_live_windows(&self, color: Color, min: u8) -> Vec<Stone> {
        let mut seen = vec![false; self.pos.points()];
        let mut out = Vec::new();
        let windows: Vec<usize> = self.pos.live_windows(color, min).collect();
        for w in windows {
            for &p in self.pos.tables().window(w) {
                if self.pos.color_at(p).is_none() && !seen[p as usize] {
                    seen[p as usize] = true;
                    out.push(p);
                }
            }
        }
        out
    }

    pub fn is_over(&self) -> bool {
        self.pos.outcome().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect6::Connect6Rules;

    /// The incremental values equal a fresh computation after any sequence of stones and undos,
    /// with the default weights and with others.
    #[test]
    fn incremental_values_match_a_fresh_board() {
        let other = Weights {
            window: [0, 2, 5, 30, 70, 300],
            tempo: 1.1,
            forced: [(1.0, 1.2), (0.9, 1.5)],
            own: 2,
            theirs: 5,
        };
        for weights in [Weights::default(), other] {
            let pos = Connect6::new(Connect6Rules::with_size(11).unwrap());
            let mut b = Board::with_weights(&pos, weights);
            let mut played = Vec::new();
            let mut seed = 12345u64;
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            for step in 0..400 {
                if b.is_over() || (!played.is_empty() && next() % 3 == 0) {
                    if let Some(p) = played.pop() {
                        b.undo(p);
                    }
                } else {
                    let empty: Vec<Stone> = b.pos.legal_moves();
                    let p = empty[(next() % empty.len() as u64) as usize];
                    b.play(p);
                    played.push(p);
                }
                let fresh = Board::with_weights(&b.pos, weights);
                assert_eq!(b.cell, fresh.cell, "{weights:?} step {step}");
                assert_eq!(b.total, fresh.total, "{weights:?} step {step}");
                assert_eq!(b.near, fresh.near, "{weights:?} step {step}");
            }
        }
    }

    /// The weights are the board's own: a fuller window is worth what `window` says.
    #[test]
    fn the_weights_set_the_values() {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        pos.play(pos.point(9, 9));
        let plain = Board::with_weights(&pos, Weights::default());
        let doubled = Board::with_weights(
            &pos,
            Weights {
                window: Weights::default().window.map(|v| v * 2),
                ..Weights::default()
            },
        );
        assert!(plain.total[0] > 0);
        assert_eq!(doubled.total[0], 2 * plain.total[0]);
        assert_eq!(
            doubled.cell,
            plain
                .cell
                .iter()
                .map(|c| [c[0] * 2, c[1] * 2])
                .collect::<Vec<_>>()
        );
    }

    /// Black to move after White's four on row 5 (columns 5 to 8), Black's first stone on
    /// `black_first`: at (4, 5) it closes one end (one threat), far away it does not (two).
    fn facing_a_four(black_first: (usize, usize)) -> Connect6 {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        for (x, y) in [
            black_first,
            (5, 5),
            (6, 5),
            (0, 18),
            (18, 0),
            (7, 5),
            (8, 5),
        ] {
            pos.play(pos.point(x, y));
        }
        pos
    }

    /// The side to move's windows count `tempo` when it is free, and the `forced` factors (its
    /// own, the waiting side's) when it must block one threat or two.
    #[test]
    fn threats_against_the_side_to_move_take_its_tempo() {
        let weights = Weights {
            tempo: 1.5,
            forced: [(1.25, 1.125), (0.75, 1.75)],
            ..Weights::default()
        };
        let scaled = |total: i32, factor: f32| (total as f32 * factor) as i32;
        let mut quiet = Connect6::new(Connect6Rules::SAU);
        for (x, y) in [(9, 9), (10, 10), (10, 9)] {
            quiet.play(quiet.point(x, y));
        }
        let cases = [
            (quiet, 0, (1.5, 1.0)),
            (facing_a_four((4, 5)), 1, weights.forced[0]),
            (facing_a_four((0, 0)), 2, weights.forced[1]),
        ];
        for (pos, threats, (mover, waiter)) in cases {
            assert_eq!(pos.threats(pos.side_to_move().opponent()), threats);
            let b = Board::with_weights(&pos, weights);
            let side = b.side().index();
            let (m, w) = (b.total[side], b.total[1 - side]);
            assert!(m > 0 && w > 0);
            let expected = scaled(m, mover) - scaled(w, waiter);
            assert_eq!(b.evaluate(b.side()), expected, "{threats} threats");
            assert_eq!(
                b.evaluate(b.side().opponent()),
                -expected,
                "{threats} threats"
            );
        }
    }

    #[test]
    fn the_first_stone_goes_to_the_centre() {
        let b = Board::new(&Connect6::new(Connect6Rules::SAU));
        assert_eq!(b.top_cells(Color::Black, 5), vec![b.pos.point(9, 9)]);
    }
}
