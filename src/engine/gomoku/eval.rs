//! The static evaluation's shape and weights.
//!
//! A stone on an empty point makes one class of shape on each of its four lines
//! (`pattern.rs`). The evaluation counts, over the empty points and for each colour in its
//! role (the side to move, the side waiting):
//! - the classes the lines give (`Class`, four per point);
//! - what the four lines make together (`Combo`, one per point): a four with an open three, two
//!   open threes and so on, the shapes that decide who must answer whom.
//!
//! It weighs each count, adds a bonus for having the move, and last a value for which threats
//! each side holds at all (`threat_mask`). That last term is not a sum over points: a side to
//! move with a four in hand and an opponent with an open three is a different game from the
//! same stones with the roles swapped, and no count of shapes says so. The idea of the
//! per-point combination and of the threat term comes from Rapfi's classical evaluation.

use super::pattern::{self, Class};
use std::sync::OnceLock;

/// What one stone of a colour on an empty point makes over its four lines together, weakest
/// first (the order is used in comparisons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Combo {
    #[default]
    Nothing = 0,
    /// One open two.
    FlexTwo,
    /// One closed three.
    Three,
    /// Two open twos.
    TwoFlexTwos,
    /// A closed three with another closed three or an open two.
    ThreePlus,
    /// One open three.
    FlexThree,
    /// An open three with a closed three or an open two.
    FlexThreePlus,
    /// Two open threes: a double threat one move from winning.
    TwoFlexThrees,
    /// One four.
    Four,
    /// A four with a closed three or an open two.
    FourPlus,
    /// A four with an open three: wins unless the opponent has fours of its own.
    FourFlexThree,
    /// An open four or two fours: wins next move.
    FlexFour,
    Five,
}

pub const COMBOS: usize = 13;

/// The combination a stone makes from its four lines' classes.
pub fn combo_of(classes: &[Class; 4]) -> Combo {
    let mut n = [0u8; pattern::CLASSES];
    for &c in classes {
        n[c as usize] += 1;
    }
    let count = |c: Class| n[c as usize];
    let (fours, flex_threes) = (count(Class::Four), count(Class::FlexThree));
    // A closed three or an open two: what turns a single threat into a "plus".
    let helpers = count(Class::Three) + count(Class::FlexTwo);
    if count(Class::Five) > 0 {
        Combo::Five
    } else if count(Class::FlexFour) > 0 || fours >= 2 {
        Combo::FlexFour
    } else if fours == 1 {
        match (flex_threes, helpers) {
            (1.., _) => Combo::FourFlexThree,
            (0, 1..) => Combo::FourPlus,
            _ => Combo::Four,
        }
    } else if flex_threes >= 2 {
        Combo::TwoFlexThrees
    } else if flex_threes == 1 {
        if helpers > 0 {
            Combo::FlexThreePlus
        } else {
            Combo::FlexThree
        }
    } else if count(Class::Three) >= 1 && helpers >= 2 {
        Combo::ThreePlus
    } else if count(Class::FlexTwo) >= 2 {
        Combo::TwoFlexTwos
    } else if count(Class::Three) == 1 {
        Combo::Three
    } else if count(Class::FlexTwo) == 1 {
        Combo::FlexTwo
    } else {
        Combo::Nothing
    }
}

/// Terms of the evaluation per role: the classes, the combinations, the bonus for the move.
pub const EVAL_TERMS: usize = pattern::CLASSES + COMBOS + 1;
pub const COMBO_TERMS: usize = pattern::CLASSES;
pub const MOVE_TERM: usize = pattern::CLASSES + COMBOS;

/// Bits of the threat mask: per role, whether it has a point making each kind of threat.
pub const MASK_BITS: usize = 2 * THREAT_KINDS.len();
pub const MASKS: usize = 1 << MASK_BITS;

/// The kinds of threat the mask records, one bit each per role (mover's bits first): an open
/// four (or two fours), a four with more, a plain four, two threes or an open three with more,
/// a plain open three.
const THREAT_KINDS: [&[Combo]; 5] = [
    &[Combo::FlexFour],
    &[Combo::FourFlexThree, Combo::FourPlus],
    &[Combo::Four],
    &[Combo::TwoFlexThrees, Combo::FlexThreePlus],
    &[Combo::FlexThree],
];

/// Which threats the mover and the waiter hold, from their counts of empty points per
/// combination.
pub fn threat_mask(mover: &[u16; COMBOS], waiter: &[u16; COMBOS]) -> usize {
    let mut mask = 0;
    for (role, counts) in [mover, waiter].into_iter().enumerate() {
        for (k, kinds) in THREAT_KINDS.iter().enumerate() {
            if kinds.iter().any(|&c| counts[c as usize] > 0) {
                mask |= 1 << (role * THREAT_KINDS.len() + k);
            }
        }
    }
    mask
}

/// Counts of the evaluation's terms per role (mover, waiter), and the threat mask: the
/// evaluation is `terms` times `EVAL_MOVER` and `EVAL_WAITER`, plus `THREAT[mask]`.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalFeatures {
    pub terms: [[i32; EVAL_TERMS]; 2],
    pub mask: usize,
}

/// The weights, in the side to move's view, for a stone of the side to move (`EVAL_MOVER`)
/// and of the side waiting (`EVAL_WAITER`, mostly negative) on an empty point: per class, per
/// combination, and last the bonus for having the move (mover only).
///
/// The class weights were fitted by logistic regression to Rapfi's evaluation (classical,
/// 100 ms, win rate `1 / (1 + e^(-eval / 200))`, its proven wins and losses counted as 0.9 and
/// 0.1) of 26,190 positions from arena games with no five to make, scaled so that the mover's
/// open three is 60; two more weights came with them, one for a point with two fours or a four
/// and an open three (here the combinations `FourFlexThree` and `FlexFour`) and one for a point
/// with two open threes. Against the class values with the mover counted 1.5 times: +32 (+7 to
/// +58), H1, 540 games at 0.1 s a move.
///
/// A fit of every weight here and of the threat table (`stonebrain-fit fit --ridge 3`, 24,000
/// positions, held-out log loss 0.602 against 0.631 for these weights) did not play better:
/// -35 (-92 to +19) over 178 games against these at 0.15 s a move; so the table is empty.
pub const EVAL_MOVER: [i32; EVAL_TERMS] = [
    0, -1, 3, 10, 24, 60, 100, 902, 10_000, // classes
    0, 0, 0, 0, 0, 0, 0, -48, 0, 0, 883, 883, 0, // combinations
    6,
];
pub const EVAL_WAITER: [i32; EVAL_TERMS] = [
    0, 1, -3, -6, -17, -41, -110, -311, -10_000, // classes
    0, 0, 0, 0, 0, 0, 0, 93, 0, 0, -173, -173, 0, // combinations
    0,
];

/// The value of the threat masks a fit saw, in the side to move's view (the rest are 0).
const THREAT_FITTED: &[(u16, i32)] = &[];

/// Whether there is a threat table at all: without one the board does not count its points'
/// combinations, which costs a few percent of the search's speed.
pub const THREATS_FITTED: bool = !THREAT_FITTED.is_empty();

/// The value of each threat mask, in the side to move's view.
pub fn threat_table() -> &'static [i32; MASKS] {
    static TABLE: OnceLock<[i32; MASKS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0; MASKS];
        for &(mask, v) in THREAT_FITTED {
            t[mask as usize] = v;
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_rank_the_four_lines_together() {
        use Class::*;
        assert_eq!(combo_of(&[Four, Four, Dead, One]), Combo::FlexFour);
        assert_eq!(combo_of(&[FlexFour, Dead, Dead, Dead]), Combo::FlexFour);
        assert_eq!(
            combo_of(&[Four, FlexThree, Dead, Dead]),
            Combo::FourFlexThree
        );
        assert_eq!(combo_of(&[Four, FlexTwo, Two, Dead]), Combo::FourPlus);
        assert_eq!(combo_of(&[Four, Two, Two, One]), Combo::Four);
        assert_eq!(
            combo_of(&[FlexThree, FlexThree, Dead, Dead]),
            Combo::TwoFlexThrees
        );
        assert_eq!(
            combo_of(&[FlexThree, Three, Dead, Dead]),
            Combo::FlexThreePlus
        );
        assert_eq!(combo_of(&[FlexThree, Two, One, Dead]), Combo::FlexThree);
        assert_eq!(combo_of(&[Three, Three, Dead, Dead]), Combo::ThreePlus);
        assert_eq!(combo_of(&[Three, FlexTwo, Dead, Dead]), Combo::ThreePlus);
        assert_eq!(combo_of(&[FlexTwo, FlexTwo, One, Dead]), Combo::TwoFlexTwos);
        assert_eq!(combo_of(&[Three, Two, Dead, Dead]), Combo::Three);
        assert_eq!(combo_of(&[FlexTwo, Two, Dead, Dead]), Combo::FlexTwo);
        assert_eq!(combo_of(&[Two, Two, One, Dead]), Combo::Nothing);
        assert_eq!(combo_of(&[Five, Dead, Dead, Dead]), Combo::Five);
    }

    #[test]
    fn the_mask_records_each_sides_threats() {
        let mut mover = [0u16; COMBOS];
        let mut waiter = [0u16; COMBOS];
        mover[Combo::Nothing as usize] = 100;
        assert_eq!(threat_mask(&mover, &waiter), 0);
        mover[Combo::FourPlus as usize] = 1;
        mover[Combo::FlexThree as usize] = 2;
        waiter[Combo::TwoFlexThrees as usize] = 1;
        assert_eq!(threat_mask(&mover, &waiter), 0b01000_10010);
        waiter[Combo::FlexFour as usize] = 1;
        assert_eq!(threat_mask(&mover, &waiter), 0b01001_10010);
    }
}
