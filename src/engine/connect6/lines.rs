//! Line shapes: what each colour can still make of every line of the board, counted in threats.
//!
//! A threat is what Connect6 counts (see `Connect6::threats`): the fewest stones the opponent
//! needs to stop every six the colour could complete. For one colour in one line the shape is
//! three numbers: its threats there now, the most it can have after one more stone there, and
//! after two more. A "live three" is a line where one stone makes two threats, a "live two" one
//! where two stones do; those are what a side can turn into a double threat in one turn, which
//! the six-cell windows alone do not tell apart from shapes that lead nowhere.
//!
//! Each line is kept as two bitmasks (one per colour), so a stone changes four lines, and a
//! line's shape is looked up by its contents in a small cache (the same few hundred lines recur
//! all through a search).

use crate::game::connect6::{Stone, RUN};
use std::sync::Arc;

/// A line's shape for one colour, packed: threats now (bits 5-6), after one more stone (bits
/// 3-4), after two (bits 0-2). A six already made or makeable counts as `MAX_*`.
pub type Shape = u8;
/// Distinct packed shapes.
const SHAPES: usize = 128;
const MAX_NOW: u8 = 3;
const MAX_ONE: u8 = 3;
const MAX_TWO: u8 = 7;
/// What `threats` returns for a line that already holds six.
const SIX: u8 = u8::MAX;

const fn now(s: Shape) -> u8 {
    s >> 5
}

const fn one(s: Shape) -> u8 {
    (s >> 3) & 3
}

const fn two(s: Shape) -> u8 {
    s & 7
}

fn pack(now: u8, one: u8, two: u8) -> Shape {
    now.min(MAX_NOW) << 5 | one.min(MAX_ONE) << 3 | two.min(MAX_TWO)
}

/// Threats of the colour holding `own` in a line of `len` cells where the opponent holds
/// `opp`: windows of six with no opponent stone and at least four own stones, and the fewest
/// empty cells that hit all of them. Windows come in order along the line, so taking, for each
/// window not yet hit, its last empty cell is optimal (any later window that meets this one
/// contains that cell).
fn threats(own: u32, opp: u32, len: u32) -> u8 {
    let mut count = 0;
    let mut blocked = 0u32;
    for start in 0..=len - RUN as u32 {
        let w = 0x3f << start;
        if opp & w != 0 {
            continue;
        }
        let k = (own & w).count_ones();
        if k as usize == RUN {
            return SIX;
        }
        if k >= RUN as u32 - 2 && blocked & w == 0 {
            let empty = w & !own;
            blocked |= 1 << (31 - empty.leading_zeros());
            count += 1;
        }
    }
    count
}

/// Empty cells of windows with no opponent stone and at least `min` own stones.
fn cells_of_windows(own: u32, opp: u32, len: u32, min: u32) -> u32 {
    let mut cells = 0;
    for start in 0..=len - RUN as u32 {
        let w = 0x3f << start;
        if opp & w == 0 && (own & w).count_ones() >= min {
            cells |= w;
        }
    }
    cells & !own
}

/// The shape of `own` in a line, computed from scratch.
fn shape_of(own: u32, opp: u32, len: u32) -> Shape {
    let now = threats(own, opp, len);
    if now == SIX {
        return pack(MAX_NOW, MAX_ONE, MAX_TWO);
    }
    let capped = |t: u8, max: u8| if t == SIX { max } else { t };
    let mut best_one = now;
    let mut ones = cells_of_windows(own, opp, len, RUN as u32 - 3);
    while ones != 0 {
        let e = ones & ones.wrapping_neg();
        ones ^= e;
        best_one = best_one.max(capped(threats(own | e, opp, len), MAX_ONE));
    }
    let mut best_two = best_one;
    let twos = cells_of_windows(own, opp, len, RUN as u32 - 4);
    let mut first = twos;
    while first != 0 {
        let e = first & first.wrapping_neg();
        first ^= e;
        let mut second = first;
        while second != 0 {
            let f = second & second.wrapping_neg();
            second ^= f;
            best_two = best_two.max(capped(threats(own | e | f, opp, len), MAX_TWO));
        }
    }
    pack(now, best_one, best_two)
}

/// `class_of` for every packed shape, built at compile time.
const CLASS: [u8; SHAPES] = {
    let mut t = [0u8; SHAPES];
    let mut s = 0;
    while s < SHAPES {
        let shape = s as Shape;
        let two = if two(shape) > 3 { 3 } else { two(shape) };
        t[s] = match (now(shape), one(shape)) {
            (0, 0) => two,
            (0, 1) => 3 + if two > 1 { two } else { 1 },
            (0, 2) => 7,
            (0, _) => 8,
            (1, _) => 9,
            _ => 10,
        };
        s += 1;
    }
    t
};

/// Which lines each cell lies on: per direction, the line and the cell's bit in it.
struct Geometry {
    /// Per cell, per direction: `line << 5 | bit`, or `NONE` where the line is too short to
    /// hold a six.
    at: Vec<[u32; 4]>,
    len: Vec<u8>,
}

const NONE: u32 = u32::MAX;

impl Geometry {
    fn new(size: usize) -> Geometry {
        let n = size as isize;
        let mut at = vec![[NONE; 4]; size * size];
        let mut len = Vec::new();
        let dirs: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for (d, &(dx, dy)) in dirs.iter().enumerate() {
            for y in 0..n {
                for x in 0..n {
                    // A line starts where the cell before it is off the board.
                    let (px, py) = (x - dx, y - dy);
                    if (0..n).contains(&px) && (0..n).contains(&py) {
                        continue;
                    }
                    let mut cells = Vec::new();
                    let (mut cx, mut cy) = (x, y);
                    while (0..n).contains(&cx) && (0..n).contains(&cy) {
                        cells.push((cy * n + cx) as usize);
                        cx += dx;
                        cy += dy;
                    }
                    if cells.len() < RUN {
                        continue;
                    }
                    let id = len.len() as u32;
                    len.push(cells.len() as u8);
                    for (bit, &p) in cells.iter().enumerate() {
                        at[p][d] = id << 5 | bit as u32;
                    }
                }
            }
        }
        Geometry { at, len }
    }
}

const CACHE_BITS: u32 = 16;
const EMPTY_SLOT: u64 = u64::MAX;

/// Every line's contents and shapes, and per colour how many lines have each shape.
#[derive(Clone)]
pub struct Lines {
    geometry: Arc<Geometry>,
    /// Per line, per colour (Black first): the stones as bits along the line.
    bits: Vec<[u32; 2]>,
    /// Per line, per colour: its shape.
    shape: Vec<[Shape; 2]>,
    /// Per colour, per class (`class_of`): how many lines have it.
    count: [[u16; CLASSES]; 2],
    /// Line contents -> shape, direct-mapped: `key << 8 | shape`.
    cache: Vec<u64>,
}

impl Lines {
    pub fn new(size: usize) -> Lines {
        let geometry = Geometry::new(size);
        let lines = geometry.len.len();
        let mut count = [[0; CLASSES]; 2];
        count[0][0] = lines as u16;
        count[1][0] = lines as u16;
        Lines {
            geometry: Arc::new(geometry),
            bits: vec![[0; 2]; lines],
            shape: vec![[0; 2]; lines],
            count,
            cache: vec![EMPTY_SLOT; 1 << CACHE_BITS],
        }
    }

    /// A stone of colour `c` (0 Black, 1 White) appears on `p` (`add`) or leaves it.
    pub fn update(&mut self, p: Stone, c: usize, add: bool) {
        // Borrowed field by field: the geometry is read while the rest changes (this runs for
        // every stone the search plays, so no reference count is taken).
        let Lines {
            geometry,
            bits,
            shape,
            count,
            cache,
        } = self;
        for &a in &geometry.at[p as usize] {
            if a == NONE {
                continue;
            }
            let (line, bit) = ((a >> 5) as usize, a & 31);
            if add {
                bits[line][c] |= 1 << bit;
            } else {
                bits[line][c] &= !(1 << bit);
            }
            let len = geometry.len[line] as u32;
            for colour in 0..2 {
                let own = bits[line][colour];
                let opp = bits[line][1 - colour];
                let new = lookup(cache, own, opp, len);
                let old = std::mem::replace(&mut shape[line][colour], new);
                count[colour][class_of(old)] -= 1;
                count[colour][class_of(new)] += 1;
            }
        }
    }

    /// How many lines of colour `c` (0 Black, 1 White) are of each class.
    pub fn classes(&self, c: usize) -> &[u16; CLASSES] {
        &self.count[c]
    }
}

/// The shape of `own` in a line, from the cache or computed and kept there.
fn lookup(cache: &mut [u64], own: u32, opp: u32, len: u32) -> Shape {
    if own == 0 {
        return 0;
    }
    let key = own as u64 | (opp as u64) << 25 | (len as u64) << 50;
    let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - CACHE_BITS)) as usize;
    let entry = cache[slot];
    if entry != EMPTY_SLOT && entry >> 8 == key {
        return entry as u8;
    }
    let s = shape_of(own, opp, len);
    cache[slot] = key << 8 | s as u64;
    s
}

/// Shapes grouped by what they promise, weakest first: the classes the evaluation weighs.
pub const CLASSES: usize = 11;

/// The class of a shape: 0 nothing within two stones; 1 two stones make one threat; 2 two
/// stones make two; 3 two stones make three or more (or six); 4-6 one stone makes one threat
/// (and two stones at most one, two, three); 7 one stone makes two, 8 one stone makes three or
/// more; 9 one threat now; 10 two or more now.
pub fn class_of(s: Shape) -> usize {
    CLASS[s as usize] as usize
}

/// The most threats a colour can hold after two more stones, from its class counts: both
/// stones in one line, or one in each of two lines (lines taken as independent), on top of
/// the threats it holds now. Capped at 3, a win when the colour is to move.
pub fn best_two_stones(classes: &[u16; CLASSES]) -> u8 {
    let held = (classes[9] + 2 * classes[10]).min(3) as u8;
    let in_one_line = if classes[3] + classes[6] + classes[8] > 0 {
        3
    } else if classes[2] + classes[5] + classes[7] > 0 {
        2
    } else if classes[1] + classes[4] > 0 {
        1
    } else {
        0
    };
    let (live, dead) = (
        classes[7] + 2 * classes[8],
        classes[4] + classes[5] + classes[6],
    );
    let spread = match live {
        0 => dead.min(2) as u8,
        1 => 2 + dead.min(1) as u8,
        _ => 4,
    };
    (held + in_one_line.max(spread)).min(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x` own, `o` the opponent's, `.` empty: the line as masks.
    fn line(text: &str) -> (u32, u32, u32) {
        let (mut own, mut opp) = (0, 0);
        for (i, ch) in text.chars().enumerate() {
            match ch {
                'x' => own |= 1 << i,
                'o' => opp |= 1 << i,
                _ => {}
            }
        }
        (own, opp, text.len() as u32)
    }

    fn shape(text: &str) -> (u8, u8, u8) {
        let (own, opp, len) = line(text);
        let s = shape_of(own, opp, len);
        (now(s), one(s), two(s))
    }

    #[test]
    fn shapes_count_threats_now_and_after_one_or_two_stones() {
        // Four in a row with room on both sides: two threats already.
        assert_eq!(shape("...xxxx...").0, 2);
        // Blocked on one side: one.
        assert_eq!(shape("oxxxx....").0, 1);
        // A live three: one stone makes a live four.
        assert_eq!(shape("....xxx....").1, 2);
        // A live two: two stones make a live four, one stone only a live three.
        assert_eq!(shape("....xx....."), (0, 0, 2));
        // A single stone: nothing within two stones.
        assert_eq!(shape(".....x....."), (0, 0, 0));
        // A dead two: squeezed so that only one six fits around it.
        assert_eq!(shape("o.xx...o"), (0, 0, 1));
        // Five with room: one more stone is six.
        assert_eq!(shape("..xxxxx..").1, MAX_ONE);
        // No room for a six at all.
        assert_eq!(shape("o.xxx.o"), (0, 0, 0));
        // Room for one six only: one stone makes one threat.
        assert_eq!(shape("o.xxx..o"), (0, 1, 1));
    }

    #[test]
    fn classes_rank_what_a_turn_can_make_of_a_line() {
        let class = |text: &str| {
            let (own, opp, len) = line(text);
            class_of(shape_of(own, opp, len))
        };
        assert_eq!(class("........."), 0);
        assert_eq!(class("o.xx...o"), 1);
        assert_eq!(class("....xx....."), 2);
        assert_eq!(class("o.xxx..o"), 4);
        assert_eq!(class("....xxx...."), 7);
        assert_eq!(class("oxxxx...."), 9);
        assert_eq!(class("...xxxx..."), 10);
    }

    /// The greedy blocking count equals the fewest cells found by trying every set.
    #[test]
    fn threat_counts_match_an_exhaustive_search() {
        let len = 11u32;
        let mut seed = 99u64;
        for _ in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let own = (seed as u32) & ((1 << len) - 1);
            let opp = ((seed >> 32) as u32) & ((1 << len) - 1) & !own & ((seed >> 20) as u32);
            let t = threats(own, opp, len);
            if t == SIX {
                continue;
            }
            let live: Vec<u32> = (0..=len - 6)
                .map(|s| 0x3f << s)
                .filter(|&w| opp & w == 0 && (own & w).count_ones() >= 4)
                .collect();
            let empty = !own & !opp & ((1 << len) - 1);
            let fewest = (0u32..1 << len)
                .filter(|&b| b & !empty == 0 && live.iter().all(|&w| w & b != 0))
                .map(|b| b.count_ones())
                .min()
                .unwrap();
            assert_eq!(t as u32, fewest, "own {own:b} opp {opp:b}");
        }
    }

    /// Counts kept stone by stone equal counts made afresh, through stones and undos.
    #[test]
    fn incremental_counts_match_a_fresh_count() {
        let size = 11;
        let mut lines = Lines::new(size);
        let mut board = vec![None; size * size];
        let mut played = Vec::new();
        let mut seed = 7u64;
        for step in 0..300 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            if !played.is_empty() && seed.is_multiple_of(3) {
                let (p, c) = played.pop().unwrap();
                lines.update(p, c, false);
                board[p as usize] = None;
            } else {
                let p = (seed >> 8) as usize % (size * size);
                if board[p].is_some() {
                    continue;
                }
                let c = (seed >> 40) as usize % 2;
                lines.update(p as Stone, c, true);
                board[p] = Some(c);
                played.push((p as Stone, c));
            }
            let mut fresh = Lines::new(size);
            for (p, c) in board.iter().enumerate() {
                if let Some(c) = c {
                    fresh.update(p as Stone, *c, true);
                }
            }
            assert_eq!(lines.count, fresh.count, "step {step}");
        }
    }

    #[test]
    fn two_live_threes_give_three_threats_or_more_in_a_turn() {
        let size = 15;
        let mut lines = Lines::new(size);
        // Black: three in a row on row 3 and three in a column 10, both open.
        for p in [(3, 3), (4, 3), (5, 3), (10, 6), (10, 7), (10, 8)] {
            lines.update((p.1 * size + p.0) as Stone, 0, true);
        }
        assert_eq!(best_two_stones(lines.classes(0)), 3);
        // White: a single live two: two stones make two threats.
        for p in [(7, 12), (8, 12)] {
            lines.update((p.1 * size + p.0) as Stone, 1, true);
        }
        assert_eq!(best_two_stones(lines.classes(1)), 2);
    }
}
