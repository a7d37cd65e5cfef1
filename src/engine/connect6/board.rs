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
    /// Per cell, per colour: the worth of that colour's live windows through it, all lost to it
    /// once the other colour takes the cell.
    held: Vec<[i32; 2]>,
    /// Sum of live-window values, per colour.
    total: [i32; 2],
    /// Stones within `NEAR` of each cell.
    near: Vec<u8>,
    /// Precomputed neighbourhoods within `NEAR`, per cell.
    around: std::sync::Arc<Vec<Vec<Stone>>>,
    /// Stones on the board.
    stones: usize,
    /// A box (first and last column, first and last row) holding every cell within `NEAR` of a
    /// stone. It grows with each stone and is not shrunk on undo: a box too large only costs a
    /// little scanning.
    span: [usize; 4],
    weights: Weights,
    /// `Weights::window_terms` for every count of (Black, White) stones, looked up by `account`.
    terms: Terms,
}

/// Window terms by the stone counts of each colour (0 to 6).
type Terms = [[([i32; 2], [i32; 2]); RUN + 1]; RUN + 1];

fn terms(weights: &Weights) -> Terms {
    let mut t = [[([0; 2], [0; 2]); RUN + 1]; RUN + 1];
    for (b, row) in t.iter_mut().enumerate() {
        for (w, entry) in row.iter_mut().enumerate() {
            *entry = weights.window_terms([b as u8, w as u8]);
        }
    }
    t
}

/// Grows `span` to hold the cells within `NEAR` of `p`.
fn widen(span: &mut [usize; 4], pos: &Connect6, p: Stone) {
    let (x, y) = pos.coords(p);
    let last = pos.size() as isize - 1;
    let clamp = |v: isize| v.clamp(0, last) as usize;
    span[0] = span[0].min(clamp(x as isize - NEAR));
    span[1] = span[1].max(clamp(x as isize + NEAR));
    span[2] = span[2].min(clamp(y as isize - NEAR));
    span[3] = span[3].max(clamp(y as isize + NEAR));
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
        let mut held = vec![[0; 2]; n];
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
                held[p as usize][0] += v[0];
                held[p as usize][1] += v[1];
            }
        }
        let mut near = vec![0u8; n];
        let mut stones = 0;
        let mut span = [usize::MAX, 0, usize::MAX, 0];
        for p in 0..n as Stone {
            if pos.color_at(p).is_some() {
                stones += 1;
                widen(&mut span, pos, p);
                for &q in &around[p as usize] {
                    near[q as usize] += 1;
                }
            }
        }
        Board {
            pos: pos.clone(),
            cell,
            held,
            total,
            near,
            around: std::sync::Arc::new(around),
            stones,
            span,
            weights,
            terms: terms(&weights),
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
            let (v0, g0) = self.terms[before[0] as usize][before[1] as usize];
            let (v1, g1) = self.terms[after[0] as usize][after[1] as usize];
            let sign = if add { 1 } else { -1 };
            let dv = [(v1[0] - v0[0]) * sign, (v1[1] - v0[1]) * sign];
            let dg = [(g1[0] - g0[0]) * sign, (g1[1] - g0[1]) * sign];
            self.total[0] += dv[0];
            self.total[1] += dv[1];
            if dg != [0, 0] || dv != [0, 0] {
                for &q in tables.window(w) {
                    let cq = &mut self.cell[q as usize];
                    cq[0] += dg[0];
                    cq[1] += dg[1];
                    let hq = &mut self.held[q as usize];
                    hq[0] += dv[0];
                    hq[1] += dv[1];
                }
            }
        }
        if add {
            self.stones += 1;
            widen(&mut self.span, &self.pos, p);
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
    /// The side to move gets a bonus, since it places two stones before the opponent answers.
    pub fn evaluate(&self, color: Color) -> i32 {
        let me = self.total[color.index()];
        let them = self.total[color.opponent().index()];
        let tempo = self.weights.tempo;
        let (me, them) = if self.side() == color {
            ((me as f32 * tempo) as i32, them)
        } else {
            (me, (them as f32 * tempo) as i32)
        };
        me - them
    }

    /// What `evaluate` would say for the side to move after it puts its last stone of the turn
    /// on the empty cell `p` (the opponent then to move), without playing it: the stone adds its
    /// cell's gain to the mover's windows and takes every window through it from the opponent.
    /// Exact unless the stone makes six, which the searches test before they rank pairs.
    pub fn value_after_last_stone(&self, p: Stone) -> i32 {
        debug_assert_eq!(self.pos.stones_left_in_turn(), 1);
        let me = self.side().index();
        let them = 1 - me;
        let mine = self.total[me] + self.cell[p as usize][me];
        let theirs = self.total[them] - self.held[p as usize][them];
        mine - (theirs as f32 * self.weights.tempo) as i32
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
    /// `color`, at most `k` of them; equal priorities in board order.
    pub fn top_cells(&self, color: Color, k: usize) -> Vec<Stone> {
        if self.stones == 0 {
            let n = self.pos.size();
            return vec![self.pos.point(n / 2, n / 2)];
        }
        let mut best = self.best_cells(color, k, self.span, |p| self.near[p as usize] > 0);
        if best.is_empty() {
            // Every cell near a stone is taken: any empty cell will do.
            let last = self.pos.size() - 1;
            best = self.best_cells(color, k, [0, last, 0, last], |_| true);
        }
        best.into_iter().map(|(_, p)| p).collect()
    }

    /// The `k` best empty cells of the box `span` passing `wanted`, kept sorted as they are found: `k` is a
    /// handful, so an insertion beats collecting and sorting every candidate.
    fn best_cells(
        &self,
        color: Color,
        k: usize,
        span: [usize; 4],
        wanted: impl Fn(Stone) -> bool,
    ) -> Vec<(i32, Stone)> {
        let mut best: Vec<(i32, Stone)> = Vec::with_capacity(k + 1);
        if k == 0 {
            return best;
        }
        let [x0, x1, y0, y1] = span;
        let n = self.pos.size();
        for y in y0..=y1 {
            for p in (y * n + x0) as Stone..=(y * n + x1) as Stone {
                if !wanted(p) || self.pos.color_at(p).is_some() {
                    continue;
                }
                let v = self.priority(p, color);
                if best.len() == k && best[k - 1].0 >= v {
                    continue;
                }
                // After every equal value: earlier cells stay ahead.
                let at = best.partition_point(|&(w, _)| w >= v);
                best.insert(at, (v, p));
                best.truncate(k);
            }
        }
        best
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
                assert_eq!(b.held, fresh.held, "{weights:?} step {step}");
                assert_eq!(b.total, fresh.total, "{weights:?} step {step}");
                assert_eq!(b.near, fresh.near, "{weights:?} step {step}");
            }
        }
    }

    /// Valuing a turn's last stone without playing it agrees with playing it and evaluating,
    /// on every empty cell of positions along a game (no six made).
    #[test]
    fn the_last_stone_is_valued_as_if_played() {
        let mut b = Board::new(&Connect6::new(Connect6Rules::with_size(11).unwrap()));
        let mut seed = 99u64;
        let mut checked = 0;
        while !b.is_over() && b.stones < 40 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let empty = b.pos.legal_moves();
            if b.pos.stones_left_in_turn() == 1 {
                let me = b.side();
                for &p in &empty {
                    b.play(p);
                    let over = b.pos.winner().is_some();
                    let played = -b.evaluate(me.opponent());
                    b.undo(p);
                    if !over {
                        assert_eq!(b.value_after_last_stone(p), played, "cell {p}");
                        checked += 1;
                    }
                }
            }
            b.play(empty[(seed >> 33) as usize % empty.len()]);
        }
        assert!(checked > 1000, "{checked}");
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

    #[test]
    fn the_first_stone_goes_to_the_centre() {
        let b = Board::new(&Connect6::new(Connect6Rules::SAU));
        assert_eq!(b.top_cells(Color::Black, 5), vec![b.pos.point(9, 9)]);
    }
}
