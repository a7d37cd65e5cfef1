//! The search's view of a Connect6 position: the rules' board plus, kept up to date stone by
//! stone, a value for every empty cell (what a stone there would add for each colour), the
//! live windows of each colour by how many stones they hold, every line's shape (`lines.rs`),
//! and a static evaluation.
//!
//! Cells are ranked from the six-cell windows the rules already count: a window with stones of
//! one colour only is "live" for that colour and worth more the fuller it is. Positions are
//! valued by `Fitted`, a regression of game results on the windows and the line shapes (the
//! window sums alone, `Weights::fitted` unset, are the earlier evaluation).
//!
//! A stone changes only the (at most 24) windows and the 4 lines through it, so making and
//! unmaking a stone touches at most 24 x 6 cell values; the board never needs a full scan
//! except to list candidates.

use super::lines::{best_two_stones, Lines, CLASSES};
use super::network::accumulator::Accumulator;
use super::network::model::Network;
use crate::game::connect6::{Connect6, Stone, RUN};
use crate::game::{Color, Game};
use std::sync::Arc;

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
    /// When set, positions are valued by this instead of the window sums (`evaluate`); the
    /// window sums still rank cells.
    pub fitted: Option<&'static Fitted>,
}

/// An evaluation fitted to game results: a logistic regression of the side to move's result on
/// `Inputs`, one set of weights per count of threats against it (0, 1, 2), scaled so that a
/// unit means what it meant for the window sums (about 190 units to a logit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    pub bias: [i32; 3],
    /// Per threats, per role (side to move, other side), per k from 1 to 5: a live window
    /// holding k stones.
    pub levels: [[[i32; RUN - 1]; 2]; 3],
    /// Per threats, per role, per line class from 1 to 10 (`lines::class_of`).
    pub classes: [[[i32; CLASSES - 1]; 2]; 3],
    /// Per threats, per role: the most threats two more stones could give it being 1, 2, 3.
    pub two_stones: [[[i32; 3]; 2]; 3],
}

impl Fitted {
    /// The value of a position for its side to move.
    pub fn value(&self, x: &Inputs) -> i32 {
        let t = (x.against as usize).min(2);
        let mut v = self.bias[t];
        for role in 0..2 {
            for k in 1..RUN {
                v += self.levels[t][role][k - 1] * x.levels[role][k] as i32;
            }
            for c in 1..CLASSES {
                v += self.classes[t][role][c - 1] * x.classes[role][c] as i32;
            }
            let m = x.two_stones[role] as usize;
            if m > 0 {
                v += self.two_stones[t][role][m - 1];
            }
        }
        v
    }
}

/// The fit of 14,925 turn starts of 1,000 self-play games (8,000 nodes a turn, random
/// five-stone openings played with both colours), held-out log-loss 0.479 against 0.567 for the
/// window sums. A side to move free of threats that can make three with its turn won every one
/// of its games: valued as won but for a proof (1,500 units), which the regression cannot say
/// of a feature that never lost.
pub static FITTED: Fitted = Fitted {
    bias: [142, 37, -42],
    levels: [
        [[1, 49, 153, 0, 0], [3, 2, -47, 0, 0]],
        [[0, 7, 56, 0, 0], [-1, -3, 16, -29, 51]],
        [[-1, -5, 4, 0, 0], [-1, -30, -46, 17, 43]],
    ],
    classes: [
        [
            [-52, 64, 0, -79, -50, 0, -52, 0, 0, 0],
            [-23, -36, 0, -38, 33, 0, 5, 0, 0, 0],
        ],
        [
            [20, 53, 0, 56, 46, 0, 77, 0, 0, 0],
            [-14, -43, 0, -60, -101, 0, -102, 0, 0, 0],
        ],
        [
            [46, 45, 0, 73, 33, 0, 84, 0, 0, 0],
            [26, -75, 0, -7, -139, 0, -354, 0, 9, -4],
        ],
    ],
    two_stones: [
        [[-56, -119, 1500], [-112, -223, -114]],
        [[32, -42, 177], [82, -27, -55]],
        [[47, 49, -6], [0, -24, 24]],
    ],
};

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            window: [0, 1, 6, 24, 90, 180],
            tempo: 1.6,
            forced: [(1.3, 1.0), (1.0, 1.6)],
            own: 4,
            theirs: 3,
            fitted: Some(&FITTED),
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
    /// Per colour, per k (1 to 5): live windows holding k of its stones.
    levels: [[u16; RUN]; 2],
    /// Every line's shape for each colour.
    lines: Lines,
    weights: Weights,
    /// The learned evaluation, when the engine has one, and its accumulators: they follow every
    /// stone and value positions instead of the fitted evaluation, which becomes one of the
    /// network's inputs.
    net: Option<(Arc<Network>, Accumulator)>,
    /// Whether the network also ranks candidate turns (`order_value`), or only values the
    /// search's leaves.
    net_orders: bool,
}

/// The learned evaluation's values are kept this far inside the search's win scores.
const NET_BOUND: f32 = 20_000.0;

/// What the fitted evaluation reads of a position, from the side to move's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// Threats against the side to move (0, 1, or 2: more is a lost position).
    pub against: u32,
    /// Per role (0 the side to move, 1 the other), per k: live windows with k stones.
    pub levels: [[u16; RUN]; 2],
    /// Per role, per line class (`lines::class_of`): how many lines.
    pub classes: [[u16; CLASSES]; 2],
    /// Per role: the most threats it could hold after two more stones (capped at 3).
    pub two_stones: [u8; 2],
}

/// The level a window with `n` (Black, White) stones counts at for colour `c` (0 Black, 1 White):
/// its stones of `c`, if it is live for `c` and holds one to five of them.
fn live_level(n: [u8; 2], c: usize) -> Option<usize> {
    let own = n[c] as usize;
    (n[1 - c] == 0 && own > 0 && own < RUN).then_some(own)
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
        let mut levels = [[0u16; RUN]; 2];
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
            for (c, level) in levels.iter_mut().enumerate() {
                if let Some(k) = live_level(counts, c) {
                    level[k] += 1;
                }
            }
        }
        let mut lines = Lines::new(pos.size());
        let mut near = vec![0u8; n];
        let mut stones = 0;
        for p in 0..n as Stone {
            if let Some(c) = pos.color_at(p) {
                lines.update(p, c.index(), true);
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
            levels,
            lines,
            weights,
            net: None,
            net_orders: true,
        }
    }

    /// The same board valued by `net` (from its next evaluation on); `orders`: whether it also
    /// ranks candidate turns.
    pub fn with_network(mut self, net: Arc<Network>, orders: bool) -> Board {
        self.net_orders = orders;
        let stones: Vec<_> = (0..self.pos.points() as Stone)
            .filter_map(|p| self.pos.color_at(p).map(|c| (p, c)))
            .collect();
        let acc = Accumulator::of_stones(&net, self.pos.size(), &stones);
        self.net = Some((net, acc));
        self
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
            for (state, n) in [(0, before), (1, after)] {
                // The window's level for each colour leaves with `before` and arrives with
                // `after` (the other way round on removal).
                let arriving = (state == 1) == add;
                for c in 0..2 {
                    if let Some(k) = live_level(n, c) {
                        if arriving {
                            self.levels[c][k] += 1;
                        } else {
                            self.levels[c][k] -= 1;
                        }
                    }
                }
            }
            if dg != [0, 0] {
                for &q in tables.window(w) {
                    let cq = &mut self.cell[q as usize];
                    cq[0] += dg[0];
                    cq[1] += dg[1];
                }
            }
        }
        self.lines.update(p, ci, add);
        if let Some((net, acc)) = &mut self.net {
            if add {
                acc.place(net, p, c);
            } else {
                acc.remove(net, p, c);
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
    #[cfg(test)]
    pub fn evaluate(&self, color: Color) -> i32 {
        self.evaluate_facing(color, self.pos.threats(self.side().opponent()))
    }

    /// `evaluate`, given the threats against the side to move (`threats` of the other side),
    /// for a caller that has already counted them.
    pub fn evaluate_facing(&self, color: Color, threats: u32) -> i32 {
        if let Some((net, acc)) = &self.net {
            let fitted = self.weights.fitted.unwrap_or(&FITTED);
            let f = fitted.value(&self.inputs(threats));
            let v = acc.value(net, self.side(), threats, f);
            let v = v.clamp(-NET_BOUND, NET_BOUND).round() as i32;
            return if self.side() == color { v } else { -v };
        }
        self.hand_made_facing(color, threats)
    }

    /// The value candidate turns are ranked by: `evaluate`, or the hand-made evaluation when
    /// the network is set to value only the leaves.
    pub fn order_value(&self, color: Color) -> i32 {
        let threats = self.pos.threats(self.side().opponent());
        if self.net_orders {
            self.evaluate_facing(color, threats)
        } else {
            self.hand_made_facing(color, threats)
        }
    }

    /// The fitted evaluation, or the window sums without it.
    fn hand_made_facing(&self, color: Color, threats: u32) -> i32 {
        if let Some(fitted) = self.weights.fitted {
            let v = fitted.value(&self.inputs(threats));
            return if self.side() == color { v } else { -v };
        }
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

    /// What the fitted evaluation reads of the position, `against` being the threats against
    /// the side to move.
    pub fn inputs(&self, against: u32) -> Inputs {
        let me = self.side().index();
        let roles = [me, 1 - me];
        let classes = roles.map(|c| *self.lines.classes(c));
        Inputs {
            against,
            levels: roles.map(|c| self.levels[c]),
            two_stones: classes.map(|c| best_two_stones(&c)),
            classes,
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
            fitted: None,
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
                assert_eq!(b.levels, fresh.levels, "{weights:?} step {step}");
                assert_eq!(b.inputs(0), fresh.inputs(0), "{weights:?} step {step}");
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
            fitted: None,
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

    /// The fitted evaluation reads the position from the side to move: its value for one colour
    /// is minus its value for the other, and it is `Fitted::value` of the inputs.
    #[test]
    fn the_fitted_value_is_the_side_to_moves_and_antisymmetric() {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        for (x, y) in [(9, 9), (10, 10), (10, 9), (8, 8), (8, 9)] {
            pos.play(pos.point(x, y));
        }
        let b = Board::new(&pos);
        let against = pos.threats(b.side().opponent());
        let v = FITTED.value(&b.inputs(against));
        assert_eq!(b.evaluate(b.side()), v);
        assert_eq!(b.evaluate(b.side().opponent()), -v);
    }

    /// A side to move free of threats with two open lines of three makes three threats or more
    /// with its turn: the fitted value says all but won, far above the same stones with the
    /// other side to move.
    #[test]
    fn three_threats_in_one_turn_are_valued_as_all_but_won() {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        // Black's open threes on row 5 and column 14, White's stones two apart on row 18 (never
        // four in a window), Black's last stone in a far corner.
        let stones = [
            (5, 5),
            (0, 18),
            (2, 18),
            (6, 5),
            (7, 5),
            (4, 18),
            (6, 18),
            (14, 10),
            (14, 11),
            (8, 18),
            (10, 18),
            (14, 12),
            (18, 18),
        ];
        for (x, y) in stones {
            pos.play(pos.point(x, y));
        }
        // White to move now; give Black the move by a White turn far away.
        let mut black_to_move = pos.clone();
        for (x, y) in [(18, 0), (18, 2)] {
            black_to_move.play(black_to_move.point(x, y));
        }
        assert_eq!(black_to_move.side_to_move(), Color::Black);
        let b = Board::new(&black_to_move);
        assert_eq!(b.inputs(0).two_stones[0], 3);
        assert!(
            b.evaluate(Color::Black) >= 1000,
            "{}",
            b.evaluate(Color::Black)
        );
        let w = Board::new(&pos);
        assert_eq!(w.side(), Color::White);
        assert!(w.evaluate(Color::Black) < b.evaluate(Color::Black) - 1000);
    }

    #[test]
    fn the_first_stone_goes_to_the_centre() {
        let b = Board::new(&Connect6::new(Connect6Rules::SAU));
        assert_eq!(b.top_cells(Color::Black, 5), vec![b.pos.point(9, 9)]);
    }
}
