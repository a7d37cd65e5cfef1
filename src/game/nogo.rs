//! NoGo (不围棋) on a 9x9 board: Go where capturing is forbidden. Black moves first; a move that
//! leaves any group (its own or the opponent's) without a liberty is illegal, there is no pass, and
//! the side to move with no legal move loses.
//!
//! The board is a set of `u128` bitboards. Groups are kept in a union-find whose roots hold the
//! group's liberties as a bitboard. Because stones never leave the board, liberties only shrink
//! and a point that is illegal for a colour stays illegal for the rest of the game; `ban` keeps
//! those points per colour so that they are never examined twice (see `refresh_bans`).

use super::bitset::{bit, bits};
use super::zobrist;
use super::{Color, Game, IllegalMove, Outcome};

pub const SIZE: usize = 9;
pub const POINTS: usize = SIZE * SIZE;
pub const CENTRE: Point = (POINTS / 2) as Point;

/// A point index: `y * 9 + x`, where `x` is the first coordinate of Botzone's `grid[x][y]`.
pub type Point = u8;

pub const BOARD: u128 = (1u128 << POINTS) - 1;

/// Rule options that differ between platforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct NogoRules {
    /// Black's first move may not be the centre (the class rule of seed 001; not on Botzone).
    pub centre_ban: bool,
}

pub fn point(x: usize, y: usize) -> Point {
    debug_assert!(x < SIZE && y < SIZE);
    (y * SIZE + x) as Point
}

pub fn coords(p: Point) -> (usize, usize) {
    (p as usize % SIZE, p as usize / SIZE)
}

/// All ones when exactly one bit of `set` is set, else zero; no population count, no branch.
#[inline(always)]
fn single_mask(set: u128) -> u128 {
    let single = (set != 0) & (set & set.wrapping_sub(1) == 0);
    0u128.wrapping_sub(single as u128)
}

/// The points of the board's first column (`x == 0`) and of its last.
const FIRST_COLUMN: u128 = {
    let mut m = 0;
    let mut y = 0;
    while y < SIZE {
        m |= 1u128 << (y * SIZE);
        y += 1;
    }
    m
};
const LAST_COLUMN: u128 = FIRST_COLUMN << (SIZE - 1);

/// The points next to at least one point of `set`: the set shifted a step each way, without
/// wrapping from one row's end to the next row's start.
#[inline(always)]
fn touching(set: u128) -> u128 {
    let sideways = ((set & !LAST_COLUMN) << 1) | ((set & !FIRST_COLUMN) >> 1);
    (sideways | (set << SIZE) | (set >> SIZE)) & BOARD
}

/// The set holding only `p` (at compile time too).
const fn const_bit(p: usize) -> u128 {
    1u128 << p
}

/// Neighbour masks and lists, built at compile time.
struct Tables {
    mask: [u128; POINTS],
    list: [[u8; 4]; POINTS],
    count: [u8; POINTS],
}

const TABLES: Tables = {
    let mut t = Tables {
        mask: [0; POINTS],
        list: [[0; 4]; POINTS],
        count: [0; POINTS],
    };
    let mut p = 0;
    while p < POINTS {
        let (x, y) = (p % SIZE, p / SIZE);
        let mut n = 0;
        if x > 0 {
            t.mask[p] |= const_bit(p - 1);
            t.list[p][n] = (p - 1) as u8;
            n += 1;
        }
        if x + 1 < SIZE {
            t.mask[p] |= const_bit(p + 1);
            t.list[p][n] = (p + 1) as u8;
            n += 1;
        }
        if y > 0 {
            t.mask[p] |= const_bit(p - SIZE);
            t.list[p][n] = (p - SIZE) as u8;
            n += 1;
        }
        if y + 1 < SIZE {
            t.mask[p] |= const_bit(p + SIZE);
            t.list[p][n] = (p + SIZE) as u8;
            n += 1;
        }
        t.count[p] = n as u8;
        p += 1;
    }
    t
};

const KEYS: [[u64; POINTS]; 2] = zobrist::table::<POINTS>(0x4e6f_476f);

/// Points next to `p`.
#[inline]
pub fn neighbours(p: Point) -> &'static [u8] {
    &TABLES.list[p as usize][..TABLES.count[p as usize] as usize]
}

#[inline]
pub fn neighbour_mask(p: Point) -> u128 {
    TABLES.mask[p as usize]
}

#[derive(Clone)]
pub struct Nogo {
    stones: [u128; 2],
    /// Points known to be illegal for each colour, for good. A bit may stay set after the point
    /// is filled; every reader masks with `empty()`.
    ban: [u128; 2],
    /// Points that are the last liberty of some group of that colour. A group in atari can only
    /// gain liberties by a stone on that very point, so a point joins this set for good (until
    /// it is filled): the capture test is one bit test.
    atari: [u128; 2],
    /// The root (representative point) of each occupied point's group. Kept flat: a merge
    /// relabels the absorbed group, so a look-up is a single load, with no loop to mispredict.
    root: [u8; POINTS],
    /// Liberties of the group, valid at roots.
    libs: [u128; POINTS],
    to_move: Color,
    ply: u16,
    hash: u64,
    rules: NogoRules,
}

impl Nogo {
    pub fn new(rules: NogoRules) -> Nogo {
        Nogo {
            stones: [0; 2],
            ban: [0; 2],
            atari: [0; 2],
            root: [0; POINTS],
            libs: [0; POINTS],
            to_move: Color::Black,
            ply: 0,
            hash: 0,
            rules,
        }
    }

    pub fn rules(&self) -> NogoRules {
        self.rules
    }

    pub fn stones(&self, c: Color) -> u128 {
        self.stones[c.index()]
    }

    pub fn empty(&self) -> u128 {
        !(self.stones[0] | self.stones[1]) & BOARD
    }

    pub fn color_at(&self, p: Point) -> Option<Color> {
        if self.stones[0] & bit(p as usize) != 0 {
            Some(Color::Black)
        } else if self.stones[1] & bit(p as usize) != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Points known illegal for `c` (a subset of the truth; see `refresh_bans`).
    pub fn banned(&self, c: Color) -> u128 {
        self.ban[c.index()]
    }

    pub fn ban(&mut self, c: Color, p: Point) {
        self.ban[c.index()] |= bit(p as usize);
    }

    /// Bans `p` for `c` if `cond`, without a branch.
    #[inline(always)]
    pub fn ban_where(&mut self, c: Color, p: Point, cond: bool) {
        self.ban[c.index()] |= bit(p as usize) & 0u128.wrapping_sub(cond as u128);
    }

    #[inline(always)]
    fn find(&self, p: usize) -> usize {
        self.root[p] as usize
    }

    /// Liberties of the group holding the stone at `p`.
    pub fn group_liberties(&self, p: Point) -> u128 {
        debug_assert!(self.color_at(p).is_some());
        self.libs[self.find(p as usize)]
    }

    /// Whether colour `c` may play on the empty point `p`, by the stone rules alone (not the
    /// opening centre rule, and without consulting `ban`). Hot path of the playouts.
    #[inline(always)]
    pub fn stone_rules_allow(&self, p: Point, c: Color) -> bool {
        let p = p as usize;
        let pb = bit(p);
        if self.atari[c.opponent().index()] & pb != 0 {
            return false; // would capture the group whose last liberty this is
        }
        if TABLES.mask[p] & self.empty() != 0 {
            return true;
        }
        // Surrounded by stones: legal only if a friendly neighbour group has another liberty.
        let mut friends = TABLES.mask[p] & self.stones[c.index()];
        while friends != 0 {
            let q = friends.trailing_zeros() as usize;
            friends &= friends - 1;
            if self.libs[self.find(q)] != pb {
                return true;
            }
        }
        false
    }

    /// `stone_rules_allow` for both colours at once (the playout asks both about each point):
    /// the neighbourhood is looked at once. `empty` must be `self.empty()`: the playout keeps it
    /// in a register, where reading it back from the stone boards just written would wait on
    /// the stores.
    #[inline(always)]
    pub fn stone_rules_allow_both(&self, p: Point, empty: u128) -> [bool; 2] {
        debug_assert_eq!(empty, self.empty());
        let pb = bit(p as usize);
        let not_capture = [self.atari[1] & pb == 0, self.atari[0] & pb == 0];
        if TABLES.mask[p as usize] & empty != 0 {
            return not_capture;
        }
        [
            not_capture[0] && self.stone_rules_allow(p, Color::Black),
            not_capture[1] && self.stone_rules_allow(p, Color::White),
        ]
    }

    /// The points the opening rule forbids `c` right now: the centre for Black's first move under
    /// `centre_ban`, else nothing. Not permanent, so never part of the ban masks.
    #[inline(always)]
    pub fn opening_ban(&self, c: Color) -> u128 {
        if self.rules.centre_ban && self.ply == 0 && c == Color::Black {
            bit(CENTRE as usize)
        } else {
            0
        }
    }

    /// Full legality of `p` for `c` when it is `c`'s turn, using the ban mask as a shortcut.
    #[inline(always)]
    pub fn allows(&self, p: Point, c: Color) -> bool {
        let pb = bit(p as usize);
        if (self.empty() & !self.ban[c.index()] & !self.opening_ban(c)) & pb == 0 {
            return false;
        }
        self.stone_rules_allow(p, c)
    }

    /// Examines every point not yet banned for `c` and bans the illegal ones; afterwards
    /// `empty & !banned(c)` is exactly `c`'s legal moves (opening centre rule aside).
    pub fn refresh_bans(&mut self, c: Color) {
        // `stone_rules_allow` over the whole board at once: a point that is the last liberty
        // of an opposing group is illegal, one with an empty neighbour is otherwise legal, and
        // only the few points surrounded by stones are looked at one by one.
        let empty = self.empty();
        let open = empty & !self.ban[c.index()];
        let captures = open & self.atari[c.opponent().index()];
        let mut illegal = captures;
        for p in bits(open & !captures & !touching(empty)) {
            if !self.stone_rules_allow(p as Point, c) {
                illegal |= bit(p);
            }
        }
        self.ban[c.index()] |= illegal;
    }

    /// Refreshes the bans of both colours and returns the side to move's legal points (the
    /// opening rule included): afterwards the unbanned empty points are exactly each side's
    /// legal ones, which is what the tree's opinions of moves are counted from.
    pub fn refreshed_legal(&mut self) -> u128 {
        let me = self.to_move;
        self.refresh_bans(me);
        self.refresh_bans(me.opponent());
        self.empty() & !self.ban[me.index()] & !self.opening_ban(me)
    }

    /// The legal moves of `c` as a bitboard (as if it were `c`'s turn).
    pub fn legal_mask(&self, c: Color) -> u128 {
        let mut mask = 0;
        for p in bits(self.empty() & !self.ban[c.index()] & !self.opening_ban(c)) {
            if self.stone_rules_allow(p as Point, c) {
                mask |= bit(p);
            }
        }
        mask
    }

    /// Whether `c` has at least one legal move.
    pub fn has_legal_move(&self, c: Color) -> bool {
        bits(self.empty() & !self.ban[c.index()] & !self.opening_ban(c))
            .any(|p| self.stone_rules_allow(p as Point, c))
    }

    /// Puts a stone of the side to move on the empty point `p` and passes the turn. The stone
    /// rules are not checked here: callers check first (or, when rebuilding a platform's history
    /// that holds a bad move, knowingly place it anyway).
    #[inline(always)]
    pub fn place(&mut self, p: Point) {
        let c = self.to_move;
        let o = c.opponent();
        let p = p as usize;
        let pb = bit(p);
        debug_assert!(self.empty() & pb != 0, "place on an occupied point");
        // Both boards are read before the new stone is stored: reading one back right after a
        // store to it waits for the store (the halves of a 128-bit value do not forward).
        let (mine, theirs) = (self.stones[c.index()], self.stones[o.index()]);
        let empty = !(mine | theirs | pb) & BOARD;
        self.stones[c.index()] = mine | pb;
        let near = TABLES.mask[p];
        // Opposing neighbours lose the liberty `p`; one left to any of them makes it an atari point.
        let mut enemies = near & theirs;
        while enemies != 0 {
            let r = self.find(enemies.trailing_zeros() as usize);
            enemies &= enemies - 1;
            let l = self.libs[r] & !pb;
            self.libs[r] = l;
            self.atari[o.index()] |= l & single_mask(l);
        }
        // The new stone joins every friendly neighbour group; the first one's root stays root.
        let mut libs = near & empty;
        let mut friends = near & mine;
        let root = if friends != 0 {
            self.find(friends.trailing_zeros() as usize)
        } else {
            p
        };
        self.root[p] = root as u8;
        while friends != 0 {
            let r = self.find(friends.trailing_zeros() as usize);
            friends &= friends - 1;
            libs |= self.libs[r];
            if r != root {
                self.relabel(r as u8, root as u8);
            }
        }
        libs &= !pb;
        self.libs[root] = libs;
        self.atari[c.index()] |= libs & single_mask(libs);
        self.hash ^= KEYS[c.index()][p] ^ zobrist::WHITE_TO_MOVE;
        self.to_move = o;
        self.ply += 1;
    }

    /// Points every stone of group `from` at root `to`: one pass over 81 bytes, which the
    /// compiler turns into a few vector compares. Empty points' entries are meaningless, so
    /// rewriting them does no harm.
    #[inline(always)]
    fn relabel(&mut self, from: u8, to: u8) {
        for r in self.root.iter_mut() {
            *r = if *r == from { to } else { *r };
        }
    }
}

impl Game for Nogo {
    type Move = Point;

    fn side_to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Point> {
        bits(self.legal_mask(self.to_move))
            .map(|p| p as Point)
            .collect()
    }

    fn check_move(&self, p: Point) -> Result<(), IllegalMove> {
        if p as usize >= POINTS {
            return Err(IllegalMove::OffBoard);
        }
        if self.empty() & bit(p as usize) == 0 {
            return Err(IllegalMove::Occupied);
        }
        if self.opening_ban(self.to_move) & bit(p as usize) != 0 {
            return Err(IllegalMove::Forbidden(
                "Black's first move may not be the centre",
            ));
        }
        if !self.stone_rules_allow(p, self.to_move) {
            let why = if self.captures(p) {
                "the move would capture (leave an opposing group without liberties)"
            } else {
                "the move would be suicide (leave its own group without liberties)"
            };
            return Err(IllegalMove::Forbidden(why));
        }
        Ok(())
    }

    fn play(&mut self, p: Point) {
        self.place(p);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move(self.to_move) {
            None
        } else {
            Some(Outcome::Win(self.to_move.opponent()))
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }
}

impl Nogo {
    /// Whether playing `p` would take the last liberty of an opposing group.
    fn captures(&self, p: Point) -> bool {
        let them = self.stones[self.to_move.opponent().index()];
        neighbours(p).iter().any(|&q| {
            them & bit(q as usize) != 0 && self.libs[self.find(q as usize)] == bit(p as usize)
        })
    }
}

impl std::fmt::Display for Nogo {
    /// A plain diagram, `x` to the right and `y` downwards: `X` Black, `O` White, `.` empty.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        super::write_diagram(f, SIZE, |x, y| self.color_at(point(x, y)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_a_point_is_its_neighbours_and_touching_a_set_their_union() {
        for p in 0..POINTS {
            assert_eq!(touching(bit(p)), neighbour_mask(p as Point), "point {p}");
        }
        let set = bit(0) | bit(40) | bit(44) | bit(80);
        let union = [0, 40, 44, 80]
            .iter()
            .fold(0, |m, &p| m | neighbour_mask(p as Point));
        assert_eq!(touching(set), union);
    }
}
