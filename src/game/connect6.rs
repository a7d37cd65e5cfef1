//! Connect6 (六子棋) on an N x N board (19 on the SAU platform, 15 on Botzone). Black's first turn
//! is one stone; after that each side places two stones a turn. Six or more in a row, in any of
//! the four directions, wins at once, even with the first stone of a pair; a full board is a draw.
//!
//! The `Game` trait sees one stone per move: the side to move stays the same for both stones of a
//! turn and `ply` counts stones. Turn-level questions (pairs) belong to the engines.
//!
//! Everything tactical in Connect6 is about six-cell windows: a run of six is exactly a window
//! full of one colour, and a window holding an enemy stone can never become one. So the board keeps,
//! for every window lying fully on the board, the number of stones of each colour, updated through
//! the (at most 24) windows that contain the new stone. On top of that it keeps, per colour, the
//! set of "threat windows" (no enemy stone, at least 4 own stones): those are the only windows the
//! colour can complete within one turn, so wins, threats and forced defences are all read from
//! them without looking at the rest of the board.

use std::sync::{Arc, OnceLock};

use super::zobrist;
use super::{Color, Game, IllegalMove, Outcome};

pub const MIN_SIZE: usize = 6;
pub const MAX_SIZE: usize = 25;
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;
/// Stones in a row that win, and so the length of a window.
pub const RUN: usize = 6;
/// Own stones (and no enemy stone) that make a window completable within one two-stone turn.
pub const THREAT_STONES: u8 = (RUN - 2) as u8;

/// A point index `y * N + x`: `x` the column from the left, `y` the row from the top, both from 0
/// (SAU's letters 'A'.. are x then y).
pub type Stone = u16;

/// Rule options that differ between platforms: only the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect6Rules {
    /// Side of the board, `MIN_SIZE..=MAX_SIZE`.
    pub size: usize,
}

impl Connect6Rules {
    /// The SAU Game Platform (Chinese computer-games championships): 19x19.
    pub const SAU: Connect6Rules = Connect6Rules { size: 19 };
    /// Botzone: 15x15.
    pub const BOTZONE: Connect6Rules = Connect6Rules { size: 15 };

    /// Rules for an `size` x `size` board, if the size is supported.
    pub fn with_size(size: usize) -> Option<Connect6Rules> {
        (MIN_SIZE..=MAX_SIZE)
            .contains(&size)
            .then_some(Connect6Rules { size })
    }
}

impl Default for Connect6Rules {
    fn default() -> Connect6Rules {
        Connect6Rules::SAU
    }
}

/// Line directions as (dx, dy): right, down, down-right, down-left. Each line is listed once.
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// The windows of one board size, shared by every position of that size.
#[derive(Debug)]
pub struct Tables {
    size: usize,
    /// The cells of each window, in line order.
    cells: Vec<[Stone; RUN]>,
    /// The windows through point `p` are `through[start[p]..start[p + 1]]`: one flat list, so a
    /// move touches one contiguous slice.
    start: Vec<u16>,
    through: Vec<u16>,
    /// `u64` words in a bitset over the windows.
    words: usize,
}

impl Tables {
    fn build(size: usize) -> Tables {
        let inside = |v: isize| (0..size as isize).contains(&v);
        let mut cells = Vec::new();
        for y in 0..size as isize {
            for x in 0..size as isize {
                for (dx, dy) in DIRECTIONS {
                    let last = (RUN - 1) as isize;
                    if inside(x + dx * last) && inside(y + dy * last) {
                        cells.push(std::array::from_fn(|i| {
                            let i = i as isize;
                            ((y + dy * i) as usize * size + (x + dx * i) as usize) as Stone
                        }));
                    }
                }
            }
        }
        // Counting sort of (point, window) pairs by point.
        let points = size * size;
        let mut start = vec![0u16; points + 1];
        for w in &cells {
            for &p in w {
                start[p as usize + 1] += 1;
            }
        }
        for p in 0..points {
            start[p + 1] += start[p];
        }
        let mut next = start.clone();
        let mut through = vec![0u16; start[points] as usize];
        for (i, w) in cells.iter().enumerate() {
            for &p in w {
                through[next[p as usize] as usize] = i as u16;
                next[p as usize] += 1;
            }
        }
        let words = cells.len().div_ceil(64);
        Tables {
            size,
            cells,
            start,
            through,
            words,
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of windows (924 for 19x19, 500 for 15x15).
    pub fn window_count(&self) -> usize {
        self.cells.len()
    }

    /// The six cells of window `w`, in line order.
    pub fn window(&self, w: usize) -> &[Stone; RUN] {
        &self.cells[w]
    }

    /// The windows containing point `p` (at most 24: 6 per direction).
    pub fn windows_through(&self, p: Stone) -> &[u16] {
        let p = p as usize;
        &self.through[self.start[p] as usize..self.start[p + 1] as usize]
    }
}

/// The tables for `size`, built on first use and then shared: a new position costs one reference
/// count, and a fresh process (Botzone starts one a turn) builds them once, in microseconds.
pub fn tables(size: usize) -> Arc<Tables> {
    static CACHE: [OnceLock<Arc<Tables>>; MAX_SIZE - MIN_SIZE + 1] =
        [const { OnceLock::new() }; MAX_SIZE - MIN_SIZE + 1];
    assert!(
        (MIN_SIZE..=MAX_SIZE).contains(&size),
        "Connect6 board size {size} is outside {MIN_SIZE}..={MAX_SIZE}"
    );
    CACHE[size - MIN_SIZE]
        .get_or_init(|| Arc::new(Tables::build(size)))
        .clone()
}

/// Keys by point index; a board of any size uses the first N*N. Static rather than const so the
/// 10 KB table exists once.
static KEYS: [[u64; MAX_POINTS]; 2] = zobrist::table::<MAX_POINTS>(0x436f_6e6e_6563_7436);

/// XORed in while the side to move has one stone left in its turn: the same stones with White to
/// place its second stone and with White to start a pair are different positions.
const ONE_LEFT: u64 = zobrist::mix(0x4f4e_455f_4c45_4654);

fn turn_key(to_move: Color, left: u8) -> u64 {
    let side = if to_move == Color::White {
        zobrist::WHITE_TO_MOVE
    } else {
        0
    };
    side ^ if left == 1 { ONE_LEFT } else { 0 }
}

/// The empty cells of a threat window (at most two: it holds four or five stones). A window with
/// one gap repeats it, so that "hits the window" is always "contains `g[0]` or `g[1]`".
type Gaps = [Stone; 2];

#[derive(Clone)]
pub struct Connect6 {
    tables: Arc<Tables>,
    rules: Connect6Rules,
    board: Vec<Option<Color>>,
    /// Black and white stones in each window.
    counts: Vec<[u8; 2]>,
    /// Per colour, a bitset over the windows (`words` words each, Black first): the threat
    /// windows, with no enemy stone and at least `THREAT_STONES` own stones.
    hot: Vec<u64>,
    to_move: Color,
    /// Stones the side to move still places this turn (1 or 2).
    left: u8,
    ply: u16,
    hash: u64,
    /// Set by the stone that completes a window; nothing is played after it.
    winner: Option<Color>,
}

impl Connect6 {
    /// The empty board. Panics if the size is unsupported (see `Connect6Rules::with_size`).
    pub fn new(rules: Connect6Rules) -> Connect6 {
        let tables = tables(rules.size);
        let windows = tables.window_count();
        let words = tables.words;
        Connect6 {
            board: vec![None; rules.size * rules.size],
            counts: vec![[0; 2]; windows],
            hot: vec![0; 2 * words],
            tables,
            rules,
            to_move: Color::Black,
            left: 1,
            ply: 0,
            hash: turn_key(Color::Black, 1),
            winner: None,
        }
    }

    pub fn rules(&self) -> Connect6Rules {
        self.rules
    }

    pub fn size(&self) -> usize {
        self.rules.size
    }

    /// Number of points, N*N.
    pub fn points(&self) -> usize {
        self.board.len()
    }

    pub fn point(&self, x: usize, y: usize) -> Stone {
        debug_assert!(x < self.size() && y < self.size());
        (y * self.size() + x) as Stone
    }

    /// `(x, y)` of a point.
    pub fn coords(&self, p: Stone) -> (usize, usize) {
        (p as usize % self.size(), p as usize / self.size())
    }

    pub fn color_at(&self, p: Stone) -> Option<Color> {
        self.board[p as usize]
    }

    /// Stones the side to move still places in this turn: 1 on Black's first turn and for the
    /// second stone of a pair, else 2.
    pub fn stones_left_in_turn(&self) -> u8 {
        self.left
    }

    /// Stones `color` can place before the opponent moves again: what is left of this turn if it
    /// is `color`'s turn, else a whole turn.
    pub fn stones_available(&self, color: Color) -> u8 {
        if color == self.to_move {
            self.left
        } else {
            2
        }
    }

    /// Makes it `to_move`'s turn with `left` (1 or 2) stones to place, keeping the hash in step:
    /// for puzzles and test positions that are not reached by the normal turn order. Play goes on
    /// with the usual order from there.
    pub fn set_turn(&mut self, to_move: Color, left: u8) {
        assert!(
            left == 1 || left == 2,
            "a turn has 1 or 2 stones left, not {left}"
        );
        self.hash ^= turn_key(self.to_move, self.left) ^ turn_key(to_move, left);
        self.to_move = to_move;
        self.left = left;
    }

    /// The colour with six or more in a row, if any.
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    pub fn window_count(&self) -> usize {
        self.tables.window_count()
    }

    /// Stones of `color` in window `w`.
    pub fn window_stones(&self, w: usize, color: Color) -> u8 {
        self.counts[w][color.index()]
    }

    /// Puts a stone of the side to move on the empty point `p` and advances the turn. Legality is
    /// the caller's business (see `check_move`).
    pub fn place(&mut self, p: Stone) {
        debug_assert!(
            self.check_move(p).is_ok(),
            "place: {:?}",
            self.check_move(p)
        );
        let (c, o) = (self.to_move, self.to_move.opponent());
        self.board[p as usize] = Some(c);
        self.hash ^= KEYS[c.index()][p as usize];
        let words = self.tables.words;
        for &w in self.tables.windows_through(p) {
            let w = w as usize;
            let n = &mut self.counts[w];
            n[c.index()] += 1;
            let (own, theirs) = (n[c.index()], n[o.index()]);
            let bit = 1u64 << (w % 64);
            if theirs == 0 {
                if own >= THREAT_STONES {
                    self.hot[c.index() * words + w / 64] |= bit;
                }
                if own as usize == RUN {
                    self.winner = Some(c);
                }
            } else if own == 1 {
                // Our first stone here: the window is dead for the opponent from now on.
                self.hot[o.index() * words + w / 64] &= !bit;
            }
        }
        let before = turn_key(c, self.left);
        if self.left == 2 {
            self.left = 1;
        } else {
            self.to_move = o;
            self.left = 2;
        }
        self.hash ^= before ^ turn_key(self.to_move, self.left);
        self.ply += 1;
    }

    /// Takes back the stone on `p`, which must be the last one placed (searches make and unmake
    /// moves instead of copying the board). The turn goes back with it: a position with one
    /// stone left came from the same side with two, and one with two left came from the other
    /// side's last stone.
    pub fn undo(&mut self, p: Stone) {
        let c = self.board[p as usize].expect("undo: no stone on that point");
        let o = c.opponent();
        let after = turn_key(self.to_move, self.left);
        if self.left == 1 && self.to_move == c {
            self.left = 2;
        } else {
            debug_assert!(self.to_move == o && self.left == 2);
            self.to_move = c;
            self.left = 1;
        }
        self.hash ^= after ^ turn_key(self.to_move, self.left);
        self.board[p as usize] = None;
        self.hash ^= KEYS[c.index()][p as usize];
        let words = self.tables.words;
        for &w in self.tables.windows_through(p) {
            let w = w as usize;
            let n = &mut self.counts[w];
            n[c.index()] -= 1;
            let (own, theirs) = (n[c.index()], n[o.index()]);
            let bit = 1u64 << (w % 64);
            if theirs == 0 {
                if own < THREAT_STONES {
                    self.hot[c.index() * words + w / 64] &= !bit;
                }
            } else if own == 0 && theirs >= THREAT_STONES {
                // Our only stone here is gone: the window is live for the opponent again.
                self.hot[o.index() * words + w / 64] |= bit;
            }
        }
        // Nothing is played after a win, so the stone taken back is the one that made it.
        self.winner = None;
        self.ply -= 1;
    }

    /// The threat windows of `color`: no enemy stone, at least 4 own stones. Read from the bitset.
    pub fn threat_windows(&self, color: Color) -> impl Iterator<Item = usize> + '_ {
        let words = self.tables.words;
        self.hot[color.index() * words..(color.index() + 1) * words]
            .iter()
            .enumerate()
            .flat_map(|(i, &word)| {
                let mut word = word;
                std::iter::from_fn(move || {
                    (word != 0).then(|| {
                        let b = word.trailing_zeros() as usize;
                        word &= word - 1;
                        i * 64 + b
                    })
                })
            })
    }

    /// Windows with no stone of the opponent and at least `min_stones` of `color`, in index order.
    /// From 4 stones up this walks the threat bitset; below, it filters the window counts (every
    /// window, but no board scan).
    pub fn live_windows(&self, color: Color, min_stones: u8) -> impl Iterator<Item = usize> + '_ {
        let (c, o) = (color.index(), color.opponent().index());
        let hot = (min_stones >= THREAT_STONES).then(|| {
            self.threat_windows(color)
                .filter(move |&w| self.counts[w][c] >= min_stones)
        });
        let all = (min_stones < THREAT_STONES).then(|| {
            (0..self.counts.len())
                .filter(move |&w| self.counts[w][o] == 0 && self.counts[w][c] >= min_stones)
        });
        // One of the two is empty; chaining them gives one iterator type for both cases.
        hot.into_iter().flatten().chain(all.into_iter().flatten())
    }

    /// The empty cells of a threat window, `g[1] == g[0]` when there is only one.
    fn gaps(&self, w: usize) -> Gaps {
        let mut empty = self.tables.cells[w]
            .iter()
            .copied()
            .filter(|&p| self.board[p as usize].is_none());
        let first = empty.next().expect("a threat window has an empty cell");
        [first, empty.next().unwrap_or(first)]
    }

    /// The gaps of every threat window of `color` (none after the game has ended).
    fn threat_gaps(&self, color: Color) -> Vec<Gaps> {
        if self.winner.is_some() {
            return Vec::new();
        }
        self.threat_windows(color).map(|w| self.gaps(w)).collect()
    }

    /// The empty cells that take part in a win for `color` with the stones it can place before the
    /// opponent moves (`stones_available`): the gap of a window with 5 own stones and no enemy,
    /// and, with 2 stones, both gaps of a window with 4. Sorted, no repeats; empty once the game is
    /// over.
    pub fn winning_cells(&self, color: Color) -> Vec<Stone> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let need = RUN as u8 - self.stones_available(color);
        let mut cells: Vec<Stone> = self
            .threat_windows(color)
            .filter(|&w| self.counts[w][color.index()] >= need)
            .flat_map(|w| self.gaps(w))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Stones (one, or two if `stones >= 2` and one is not enough) that give `color` six in a row
    /// now, if any; a one-stone win is preferred. `None` once the game is over.
    pub fn immediate_win(&self, color: Color, stones: u8) -> Option<Vec<Stone>> {
        if self.winner.is_some() || stones == 0 {
            return None;
        }
        let mut pair = None;
        for w in self.threat_windows(color) {
            let g = self.gaps(w);
            if g[0] == g[1] {
                return Some(vec![g[0]]);
            }
            if stones >= 2 && pair.is_none() {
                pair = Some(g.to_vec());
            }
        }
        pair
    }

    /// Wu & Huang's threat count: how many opposing stones it takes to stop `color` winning with
    /// its next two stones, i.e. the fewest cells hitting every threat window of `color`. Exact
    /// for 0, 1 and 2; 3 means "3 or more", which with two stones a turn is a win for `color` (if
    /// the opponent cannot win first). 0 once the game is over.
    pub fn threats(&self, color: Color) -> u32 {
        let gaps = self.threat_gaps(color);
        (0..=2u8)
            .find(|&k| cover(&gaps, &mut Vec::new(), k, &mut |_| true))
            .map_or(3, u32::from)
    }

    /// Every inclusion-minimal set of at most `max` empty cells (1 or 2: the stones of a turn)
    /// that hits every threat window of `color`, each sorted, the list sorted: the forced
    /// defences. `[[]]` when there is nothing to stop; `[]` when `max` stones cannot stop it
    /// (the defender is lost unless it wins first). Any superset of a listed set also defends.
    pub fn blocking_sets(&self, color: Color, max: u8) -> Vec<Vec<Stone>> {
        let gaps = self.threat_gaps(color);
        let mut sets: Vec<Vec<Stone>> = Vec::new();
        cover(&gaps, &mut Vec::new(), max, &mut |chosen| {
            let mut set = chosen.to_vec();
            set.sort_unstable();
            sets.push(set);
            false
        });
        sets.sort_unstable();
        sets.dedup();
        // The branching can reach a set through a cell that a later choice made redundant
        // (windows {a, b} and {b}: it tries a, then must add b); such sets are not minimal.
        let minimal: Vec<Vec<Stone>> = sets
            .iter()
            .filter(|s| {
                !sets
                    .iter()
                    .any(|t| t.len() < s.len() && t.iter().all(|c| s.contains(c)))
            })
            .cloned()
            .collect();
        minimal
    }
}

/// Hitting sets by branching: take the first window that `chosen` misses; any hitting set holds
/// one of its (at most two) gaps, so try each. Calls `found` on every hitting set reached with at
/// most `budget` more cells, and stops (returning true) as soon as `found` returns true. Every
/// minimal hitting set within budget is reached, because each branch can follow its cells; the
/// tree has at most 2^budget leaves.
fn cover(
    gaps: &[Gaps],
    chosen: &mut Vec<Stone>,
    budget: u8,
    found: &mut dyn FnMut(&[Stone]) -> bool,
) -> bool {
    let Some(&g) = gaps
        .iter()
        .find(|g| !chosen.contains(&g[0]) && !chosen.contains(&g[1]))
    else {
        return found(chosen);
    };
    if budget == 0 {
        return false;
    }
    let options = if g[0] == g[1] { &g[..1] } else { &g[..] };
    for &c in options {
        chosen.push(c);
        let stop = cover(gaps, chosen, budget - 1, found);
        chosen.pop();
        if stop {
            return true;
        }
    }
    false
}

impl Game for Connect6 {
    type Move = Stone;

    fn side_to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Stone> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        (0..self.points() as Stone)
            .filter(|&p| self.board[p as usize].is_none())
            .collect()
    }

    fn check_move(&self, p: Stone) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        match self.board.get(p as usize) {
            None => Err(IllegalMove::OffBoard),
            Some(Some(_)) => Err(IllegalMove::Occupied),
            Some(None) => Ok(()),
        }
    }

    fn play(&mut self, p: Stone) {
        self.place(p);
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(c) => Some(Outcome::Win(c)),
            None if self.ply as usize == self.points() => Some(Outcome::Draw),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }
}

impl std::fmt::Display for Connect6 {
    /// A plain diagram, `x` to the right and `y` downwards: `X` Black, `O` White, `.` empty.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.size();
        super::write_diagram(f, n, |x, y| self.board[y * n + x])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_lies_in_at_most_24_windows_and_the_centre_in_exactly_24() {
        for size in MIN_SIZE..=MAX_SIZE {
            let t = tables(size);
            let most = (0..size * size)
                .map(|p| t.windows_through(p as Stone).len())
                .max()
                .unwrap();
            // A point 5 cells from every edge (boards from 11 up) lies in 6 windows a direction.
            assert_eq!(most, if size >= 11 { 24 } else { most.min(24) });
            // Each window lists its six cells, and each cell lists the window back.
            for w in 0..t.window_count() {
                for &p in t.window(w) {
                    assert!(t.windows_through(p).contains(&(w as u16)));
                }
            }
            assert_eq!(t.through.len(), 6 * t.window_count());
        }
    }

    #[test]
    fn tables_are_shared_between_positions() {
        let a = Connect6::new(Connect6Rules::SAU);
        let b = Connect6::new(Connect6Rules::SAU);
        assert!(Arc::ptr_eq(&a.tables, &b.tables));
        assert!(Arc::ptr_eq(&a.tables, &a.clone().tables));
    }

    #[test]
    fn cover_finds_minimal_sets() {
        // Windows {1, 2} and {2}: only {2} is minimal; the branch through 1 reaches {1, 2}.
        let gaps = [[1, 2], [2, 2]];
        assert!(!cover(&gaps, &mut Vec::new(), 0, &mut |_| true));
        assert!(cover(&gaps, &mut Vec::new(), 1, &mut |_| true));
        let mut found = Vec::new();
        cover(&gaps, &mut Vec::new(), 2, &mut |s| {
            found.push(s.to_vec());
            false
        });
        assert_eq!(found, vec![vec![1, 2], vec![2]]);
    }

    #[test]
    fn one_stone_left_changes_the_hash() {
        assert_ne!(turn_key(Color::White, 1), turn_key(Color::White, 2));
        assert_ne!(turn_key(Color::Black, 1), turn_key(Color::White, 1));
    }
}
