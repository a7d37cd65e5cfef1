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
//! each side holds at all (`mask_of_kinds`). That last term is not a sum over points: a side to
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

/// Threat kinds, and the slot of a point that makes none of them.
pub const KINDS: usize = THREAT_KINDS.len();
pub const NO_KIND: usize = KINDS;

/// The threat kind a combination belongs to (`NO_KIND` for none): the board counts points per
/// kind, not per combination, as the mask needs no more.
pub fn threat_kind(combo: Combo) -> usize {
    THREAT_KINDS
        .iter()
        .position(|kinds| kinds.contains(&combo))
        .unwrap_or(NO_KIND)
}

/// Which threats the mover and the waiter hold, from their counts of empty points per threat
/// kind (`threat_kind`; the last slot, points with none, is not read).
pub fn mask_of_kinds(mover: &[u16; KINDS + 1], waiter: &[u16; KINDS + 1]) -> usize {
    let mut mask = 0;
    for k in 0..KINDS {
        mask |= usize::from(mover[k] > 0) << k | usize::from(waiter[k] > 0) << (KINDS + k);
    }
    mask
}

/// Counts of the evaluation's terms per role (mover, waiter), the threat mask, and per role
/// how many empty points give each shape code (`shape_code`, ascending, only codes that occur):
/// the evaluation is `terms` times `EVAL_MOVER` and `EVAL_WAITER`, plus `THREAT[mask]`, plus
/// each code's count times its entry of the code table (`code_table`).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalFeatures {
    pub terms: [[i32; EVAL_TERMS]; 2],
    pub mask: usize,
    pub codes: [Vec<(u16, i32)>; 2],
}

impl EvalFeatures {
    /// The code table's part of the evaluation: each code's count times its entry, per role.
    pub fn by_code(&self) -> i32 {
        (0..2)
            .flat_map(|r| {
                self.codes[r]
                    .iter()
                    .map(move |&(c, n)| code_table()[c as usize][r] * n)
            })
            .sum()
    }
}

/// Shape codes: the four classes of a point, in any order (a point's four lines are alike),
/// as the digits in base `CLASSES` of the classes sorted strongest first. Of the 6,561 numbers
/// 495 are codes.
pub const SHAPE_CODES: usize = pattern::CLASSES.pow(4);

/// The shape code of a point's four classes.
pub fn shape_code(classes: &[Class; 4]) -> usize {
    let mut c = *classes;
    c.sort_unstable_by(|a, b| b.cmp(a));
    c.iter().fold(0, |i, &k| i * pattern::CLASSES + k as usize)
}

/// The worth a point's shape code adds for the side to move and for the side waiting, beyond
/// what its classes and combination give (0 for a code not listed).
pub fn code_table() -> &'static [[i32; 2]] {
    static TABLE: OnceLock<Vec<[i32; 2]>> = OnceLock::new();
    TABLE.get_or_init(|| per_code(CODE_FITTED))
}

/// A pair of numbers for every shape code, from the (code, first, second) entries listed (0
/// for the rest): how the code tables are written down.
pub fn per_code(entries: &[(u16, i32, i32)]) -> Vec<[i32; 2]> {
    let mut t = vec![[0; 2]; SHAPE_CODES];
    for &(code, a, b) in entries {
        t[code as usize] = [a, b];
    }
    t
}

/// The code table's entries that are not 0: (code, mover, waiter). Empty: a fit of the table
/// with the weights below (`stonebrain-fit fit --ridge 3 --code-ridge 10`, 64,000 positions of
/// stop 75) lowered the held-out log loss from 0.610 to 0.596, but played no better against
/// Rapfi at 400,000 / 80,000 nodes than the weights in use: -0.028 (+-0.074) a game over the
/// fresh openings, -0.022 (+-0.055) over the five-stone ones.
const CODE_FITTED: &[(u16, i32, i32)] = &[];

/// The weights, in the side to move's view, for a stone of the side to move (`EVAL_MOVER`)
/// and of the side waiting (`EVAL_WAITER`, mostly negative) on an empty point: per class, per
/// combination, and last the bonus for having the move (mover only).
///
/// Every weight here and the threat table below were fitted together by logistic regression
/// (`stonebrain-fit fit --ridge 3`) to Rapfi's evaluation (classical, 80 ms, win rate
/// `1 / (1 + e^(-eval / 200))`, proven wins and losses counted as 0.9 and 0.1) of 24,000 quiet
/// positions from arena games against Rapfi (stop 61), in the units of the weights before them
/// (785 a unit of log-odds); a fifth held out, log loss 0.590 against 0.619 for those. The
/// class and combination weights pull against each other (the combinations repeat what the
/// classes say), so read them together, not one by one. Against Rapfi held to a fifth of our
/// nodes, paired over the same 188 wide openings, against the weights before: +0.051 (+-0.070)
/// a game at 400,000 nodes, +0.085 (+-0.071) at 500,000; the same fit without the threat
/// table +0.013 (+-0.078). The table costs about 9% of the search's speed.
///
/// (An earlier fit of the same shape, on other labels, scored -35, -92 to +19, over 178 games
/// of self-play at 0.15 s a move, and was not used.)
pub const EVAL_MOVER: [i32; EVAL_TERMS] = [
    0, 3, 6, 16, 50, 214, -102, -206, 10_000, // classes
    0, -8, -34, -14, 3, -152, -137, -271, 201, 382, 1315, 1074, 0, // combinations
    0,
];
pub const EVAL_WAITER: [i32; EVAL_TERMS] = [
    0, -3, -6, -31, -32, 466, 534, 943, -10_000, // classes
    0, 24, 16, 53, 15, -510, -502, -985, -649, -753, -1538, -1183, 0, // combinations
    0,
];

/// The value of the threat masks a fit saw, in the side to move's view (the rest are 0).
#[rustfmt::skip]
const THREAT_FITTED: &[(u16, i32)] = &[
    (0, -18), (4, -389), (6, -341), (7, -40), (8, 144), (12, 198), (14, 5), (16, -2),
    (20, -323), (22, -69), (23, -193), (24, -10), (28, 133), (30, 182), (66, -118), (68, 48),
    (70, 51), (78, -41), (79, -70), (80, 18), (84, 20), (88, 108), (90, 207), (92, 172),
    (94, 260), (96, 113), (118, 100), (120, -175), (124, 56), (126, 301), (127, 47), (128, 229),
    (132, 106), (134, 51), (136, 466), (142, -84), (144, 215), (146, -30), (148, 18), (150, 33),
    (152, 362), (154, 118), (156, 354), (158, 174), (160, 207), (164, 30), (166, 52), (168, 120),
    (174, 364), (178, 18), (180, 326), (182, 320), (183, 9), (184, 243), (186, 69), (188, 347),
    (190, 247), (191, -99), (192, 191), (196, 254), (198, 193), (199, 18), (200, 436), (202, -77),
    (204, 312), (206, 535), (207, 108), (208, 149), (210, -29), (212, 201), (214, 178), (215, -93),
    (216, 431), (218, -115), (220, 586), (222, 367), (223, -108), (224, 119), (226, -67), (228, 157),
    (230, -73), (231, -138), (232, 317), (234, -210), (236, 306), (238, -235), (240, 209), (242, 60),
    (244, 249), (246, -39), (247, 23), (248, -4), (250, -46), (252, 120), (254, 201), (255, -9),
    (256, -226), (260, -291), (261, -34), (262, 170), (272, -234), (278, -77), (280, 107), (282, 179),
    (284, 88), (286, 455), (287, -149), (326, -230), (342, -109), (344, 94), (346, 178), (348, 316),
    (350, -47), (351, -67), (352, 67), (376, -209), (380, -235), (382, 106), (384, -261), (386, -5),
    (388, -115), (390, -113), (392, 209), (398, 46), (400, -289), (402, -228), (404, -217), (406, -359),
    (408, 173), (412, 535), (414, -12), (422, -88), (428, -285), (432, -60), (440, -462), (442, -71),
    (444, -348), (446, -336), (448, -198), (452, 102), (454, -301), (455, 69), (456, 68), (460, 123),
    (462, 284), (464, -39), (468, 28), (470, -14), (472, 362), (474, -41), (476, 237), (478, 181),
    (480, -234), (484, -250), (486, -405), (488, 11), (492, -436), (496, -178), (498, 42), (500, -118),
    (502, -139), (503, -8), (504, -471), (506, -635), (508, -335), (509, -27), (510, -703), (511, 91),
    (512, -49), (516, -31), (518, -242), (519, -53), (520, 136), (524, -73), (526, 242), (528, -99),
    (530, 133), (532, -64), (534, -91), (535, -83), (536, 176), (540, 172), (542, 147), (543, -295),
    (576, -3), (580, 150), (582, -114), (590, 4), (596, 7), (598, 246), (599, -91), (600, 243),
    (604, 73), (605, 204), (606, 127), (607, -70), (614, -89), (615, 149), (630, 24), (632, 252),
    (636, 231), (637, 31), (638, 199), (639, -76), (640, 234), (642, 34), (644, 108), (646, -187),
    (647, 33), (652, 54), (654, 340), (656, 172), (660, 11), (662, -106), (664, 274), (666, 306),
    (668, 205), (670, 201), (671, -283), (672, 15), (676, 73), (678, -86), (679, -138), (680, 78),
    (684, -258), (688, 119), (692, -113), (694, 79), (696, -1), (698, -308), (700, 161), (702, 146),
    (703, -251), (704, 135), (706, 220), (708, 131), (710, -47), (711, 41), (712, 295), (716, 106),
    (718, 560), (720, -122), (724, 294), (726, 117), (727, -51), (728, 254), (730, 165), (732, 524),
    (734, 344), (735, -250), (736, 188), (738, -158), (740, 263), (742, -123), (743, 185), (744, -38),
    (746, -492), (748, 119), (749, 517), (750, -651), (752, -48), (754, -199), (756, 3), (758, -287),
    (759, -73), (760, -178), (762, -18), (764, -27), (765, 431), (766, -60), (767, -56), (768, -304),
    (770, 226), (772, -319), (773, 342), (774, -265), (775, -116), (776, 285), (778, 371), (780, 403),
    (782, 236), (783, -349), (784, -346), (786, -235), (788, -259), (789, 131), (790, -197), (791, -85),
    (792, 8), (794, 471), (795, 44), (796, 177), (797, 99), (798, 253), (799, -624), (832, -206),
    (834, -142), (836, -266), (837, 52), (838, -373), (839, 189), (840, 8), (842, 503), (844, -68),
    (846, 629), (847, -22), (848, -345), (850, -131), (852, -212), (854, -82), (855, 17), (856, -76),
    (858, 262), (860, 161), (861, 242), (862, 232), (863, -59), (864, -17), (868, -140), (870, 202),
    (871, 188), (872, -79), (874, 273), (877, 329), (878, 542), (879, 345), (880, 98), (882, -209),
    (884, 11), (885, 120), (886, -199), (887, 246), (888, -187), (890, 51), (893, 339), (894, 554),
    (895, 261), (896, -142), (898, -101), (900, -270), (902, -507), (903, -51), (904, 199), (906, 140),
    (908, 290), (910, 471), (911, 24), (912, -257), (914, -79), (916, -238), (918, -293), (919, 7),
    (920, 186), (922, 340), (924, 280), (925, 230), (926, 179), (927, -73), (928, -63), (930, -372),
    (932, -320), (934, -282), (935, -25), (936, -759), (940, -550), (942, -477), (943, 227), (944, -289),
    (946, -29), (948, -360), (949, -26), (950, -373), (951, 455), (952, -413), (954, -809), (955, -14),
    (956, -398), (957, 128), (958, -298), (959, -211), (960, -299), (962, -107), (964, -288), (966, -244),
    (967, 268), (968, 371), (970, -271), (972, 383), (974, 249), (975, -105), (976, -210), (978, -214),
    (980, -134), (981, 196), (982, -183), (983, -116), (984, -96), (986, -67), (987, -26), (988, 90),
    (989, 592), (990, 125), (991, 156), (992, -106), (994, 99), (996, -425), (997, 814), (998, -415),
    (999, 1457), (1000, -391), (1002, -97), (1003, 186), (1004, -365), (1005, 303), (1006, 27), (1007, 17),
    (1008, -388), (1010, 239), (1012, -303), (1013, 1349), (1014, -374), (1015, 1331), (1016, -627), (1018, -471),
    (1019, 188), (1020, -438), (1021, 731), (1022, -324), (1023, 630),
];

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
        let mut mover = [0u16; KINDS + 1];
        let mut waiter = [0u16; KINDS + 1];
        mover[threat_kind(Combo::Nothing)] = 100;
        assert_eq!(mask_of_kinds(&mover, &waiter), 0);
        mover[threat_kind(Combo::FourPlus)] += 1;
        mover[threat_kind(Combo::FlexThree)] += 2;
        waiter[threat_kind(Combo::TwoFlexThrees)] += 1;
        assert_eq!(mask_of_kinds(&mover, &waiter), 0b01000_10010);
        waiter[threat_kind(Combo::FlexFour)] += 1;
        assert_eq!(mask_of_kinds(&mover, &waiter), 0b01001_10010);
    }
}
