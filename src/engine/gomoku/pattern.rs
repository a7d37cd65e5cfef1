//! Line patterns: what a stone on an empty point would make along one line, read from a table.
//!
//! The key of a point in one direction holds its eight neighbours on that line, four each side,
//! two bits each: empty, black, white, or off the board. For every key the table gives, for each
//! colour, the class of the shape a stone of that colour on the point would make on that line:
//! five, open four (two ways to five), four (one way), open three (a move from an open four),
//! three (a move from a four), open two, two, one, or nothing (no five can ever pass through).
//!
//! Keys change only for points within four cells of a new stone along its four lines (32
//! points), so a move updates 32 keys and looks up 32 classes; that is the whole incremental
//! evaluation.

use std::sync::OnceLock;

/// Cell codes in a key.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// Neighbours per side in a key.
pub const REACH: usize = 4;

/// Shape classes, weakest first; the numeric order is used in comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Class {
    #[default]
    Dead = 0,
    One,
    Two,
    FlexTwo,
    Three,
    FlexThree,
    Four,
    FlexFour,
    Five,
}

pub const CLASSES: usize = 9;

impl Class {
    pub(super) fn from_u8(v: u8) -> Class {
        match v {
            0 => Class::Dead,
            1 => Class::One,
            2 => Class::Two,
            3 => Class::FlexTwo,
            4 => Class::Three,
            5 => Class::FlexThree,
            6 => Class::Four,
            7 => Class::FlexFour,
            _ => Class::Five,
        }
    }
}

/// The slot of the neighbour at offset `d` (-4..=4, not 0) in a key: two bits each, the four
/// before the point first.
pub fn slot(d: isize) -> u32 {
    debug_assert!(d != 0 && d.unsigned_abs() <= REACH);
    let i = if d < 0 {
        d + REACH as isize
    } else {
        d + REACH as isize - 1
    };
    2 * i as u32
}

/// The nine cells of a line around a key, the point itself (empty) in the middle.
fn cells(key: u16) -> [u8; 9] {
    let mut line = [EMPTY; 9];
    for d in -(REACH as isize)..=REACH as isize {
        if d != 0 {
            line[(d + REACH as isize) as usize] = ((key >> slot(d)) & 3) as u8;
        }
    }
    line
}

/// Whether `line` has a run of own stones through the middle that wins: five or more
/// (freestyle), or exactly five.
fn five_through_middle(line: &[u8; 9], own: u8, exact: bool) -> bool {
    let mid = REACH;
    let mut lo = mid;
    while lo > 0 && line[lo - 1] == own {
        lo -= 1;
    }
    let mut hi = mid;
    while hi < 8 && line[hi + 1] == own {
        hi += 1;
    }
    let run = hi - lo + 1;
    if exact {
        run == 5
    } else {
        run >= 5
    }
}

/// Empty cells of `line` (the middle already holds an own stone) where one more own stone makes
/// a winning run through the middle.
fn five_cells(line: &mut [u8; 9], own: u8, exact: bool) -> u32 {
    let mut n = 0;
    for i in 0..9 {
        if line[i] == EMPTY {
            line[i] = own;
            if five_through_middle(line, own, exact) {
                n += 1;
            }
            line[i] = EMPTY;
        }
    }
    n
}

/// The class of `line` with an own stone already in the middle, looking `depth` more stones
/// ahead (a four needs none, a three one, a two two).
fn class_after(line: &mut [u8; 9], own: u8, exact: bool, depth: u32) -> Class {
    if five_through_middle(line, own, exact) {
        return Class::Five;
    }
    match five_cells(line, own, exact) {
        0 => {}
        1 => return Class::Four,
        _ => return Class::FlexFour,
    }
    if depth == 0 {
        return Class::Dead;
    }
    let mut best = Class::Dead;
    for i in 0..9 {
        if line[i] == EMPTY {
            line[i] = own;
            let c = class_after(line, own, exact, depth - 1);
            line[i] = EMPTY;
            // One stone lifts a class by one step: four -> three, open four -> open three, ...
            let lifted = match c {
                Class::FlexFour => Class::FlexThree,
                Class::Four => Class::Three,
                Class::FlexThree => Class::FlexTwo,
                Class::Three => Class::Two,
                _ => Class::Dead,
            };
            best = best.max(lifted);
        }
    }
    best
}

/// Whether any five-cell segment through the middle is free of enemy stones and walls.
fn has_room(line: &[u8; 9], own: u8) -> bool {
    (0..=4).any(|start| {
        line[start..start + 5]
            .iter()
            .all(|&c| c == EMPTY || c == own)
    })
}

fn classify(key: u16, own: u8, exact: bool) -> Class {
    let mut line = cells(key);
    if !has_room(&line, own) {
        return Class::Dead;
    }
    line[REACH] = own;
    match class_after(&mut line, own, exact, 2) {
        Class::Dead => Class::One,
        c => c,
    }
}

/// Whether a key can occur: off-board cells only continue to the end of each side.
fn valid(key: u16) -> bool {
    let line = cells(key);
    let side_ok = |side: &[u8]| {
        // `side` runs outwards from the point.
        let mut wall = false;
        side.iter().all(|&c| {
            if c == WALL {
                wall = true;
                true
            } else {
                !wall
            }
        })
    };
    let before: Vec<u8> = line[..REACH].iter().rev().copied().collect();
    side_ok(&before) && side_ok(&line[REACH + 1..])
}

/// The key of the same line with black and white stones exchanged.
fn swap_colours(key: u16) -> u16 {
    let mut swapped = 0;
    for slot in 0..2 * REACH as u32 {
        let code = (key >> (2 * slot)) & 3;
        let code = match code as u8 {
            BLACK => WHITE as u16,
            WHITE => BLACK as u16,
            _ => code,
        };
        swapped |= code << (2 * slot);
    }
    swapped
}

/// Class tables, indexed `[colour][key]` (colour 0 Black, 1 White), for one rule.
pub struct Table {
    class: Vec<[u8; 2]>,
}

impl Table {
    fn build(exact: bool) -> Table {
        let mut class = vec![[0u8; 2]; 1 << 16];
        // Built on the first gomoku turn of every fresh process (Botzone starts one a turn), so
        // each shape is classified once: White's class of a line is Black's of the same line
        // with the colours exchanged.
        for key in 0..=u16::MAX {
            if valid(key) {
                class[key as usize][0] = classify(key, BLACK, exact) as u8;
            }
        }
        for key in 0..=u16::MAX {
            if valid(key) {
                class[key as usize][1] = class[swap_colours(key) as usize][0];
            }
        }
        Table { class }
    }

    pub fn get(&self, key: u16, colour: usize) -> Class {
        Class::from_u8(self.class[key as usize][colour])
    }
}

/// The shared table for freestyle (five or more) or exactly-five rules, built on first use.
pub fn table(exact: bool) -> &'static Table {
    static FREE: OnceLock<Table> = OnceLock::new();
    static EXACT: OnceLock<Table> = OnceLock::new();
    if exact {
        EXACT.get_or_init(|| Table::build(true))
    } else {
        FREE.get_or_init(|| Table::build(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key from a picture of the line: `x` black, `o` white, `#` wall, `.` empty, and `_` the
    /// point itself in the middle.
    fn key(pic: &str) -> u16 {
        let b = pic.as_bytes();
        assert_eq!(b.len(), 9);
        assert_eq!(b[4], b'_');
        let mut k = 0u16;
        for (i, &ch) in b.iter().enumerate() {
            if i == 4 {
                continue;
            }
            let d = i as isize - 4;
            let code = match ch {
                b'x' => BLACK,
                b'o' => WHITE,
                b'#' => WALL,
                _ => EMPTY,
            };
            k |= (code as u16) << slot(d);
        }
        k
    }

    #[test]
    fn whites_classes_are_blacks_with_the_colours_exchanged() {
        for exact in [false, true] {
            let t = table(exact);
            for key in (0..=u16::MAX).filter(|&k| valid(k)) {
                assert_eq!(swap_colours(swap_colours(key)), key);
                assert_eq!(
                    t.get(key, 1),
                    classify(key, WHITE, exact),
                    "key {key:#06x}, exact {exact}"
                );
            }
        }
    }

    #[test]
    fn classes_of_familiar_shapes() {
        let t = table(false);
        let black = |pic: &str| t.get(key(pic), 0);
        let white = |pic: &str| t.get(key(pic), 1);
        assert_eq!(black("xxxx_...."), Class::Five);
        assert_eq!(black("..xx_xx.."), Class::Five);
        assert_eq!(black(".xxx_...."), Class::FlexFour);
        assert_eq!(black("oxxx_...."), Class::Four);
        assert_eq!(black("..xx_x.o."), Class::FlexFour); // -3 and +2 both make five
        assert_eq!(black(".oxx_x.o."), Class::Four);
        assert_eq!(black("..xx_...."), Class::FlexThree);
        assert_eq!(black("..x._x..."), Class::FlexThree);
        assert_eq!(black(".oxx_...."), Class::Three);
        assert_eq!(black("...x_...."), Class::FlexTwo);
        assert_eq!(black("o..x_...."), Class::FlexTwo);
        assert_eq!(black("...._...."), Class::One);
        assert_eq!(black("#ox._.o.."), Class::Dead);
        // The same shapes for White, and Black's stones are White's walls.
        assert_eq!(white("oooo_...."), Class::Five);
        assert_eq!(white(".xoo_oo.."), Class::Five);
        assert_eq!(white("..oo_...."), Class::FlexThree);
        assert_eq!(white("xxxx_...."), Class::One);
    }

    #[test]
    fn exact_five_refuses_overlines() {
        assert_eq!(table(false).get(key("xxxx_x..."), 0), Class::Five);
        assert_ne!(table(true).get(key("xxxx_x..."), 0), Class::Five);
        assert_eq!(table(true).get(key(".xxx_x..."), 0), Class::Five);
    }

    #[test]
    fn the_edge_of_the_board_is_a_wall() {
        let t = table(false);
        assert_eq!(t.get(key("#xxx_...."), 0), Class::Four);
        assert_eq!(t.get(key("##xx_...#"), 0), Class::Three);
    }
}
