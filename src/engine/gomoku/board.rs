//! The search's view of a Gomoku position: the rules' board plus, for every point and each of
//! the four lines through it, the pattern key of its neighbours and the shape class a stone of
//! either colour would make there (`pattern.rs`). From the classes come a value per point and
//! colour (which rank moves), a fitted worth per point, colour and role whose sums are the static
//! evaluation, and the sets of points where a colour makes five or a four, which the threat
//! searches walk.
//!
//! A stone changes the keys of the 32 points within four cells of it along its lines, so making
//! a move costs a table lookup for each of those that is empty, and a value update for each
//! whose shape changed. What a move changed is saved, and taking it back puts that back instead
//! of working it out again: `bench gomoku` searched about 1.7 million nodes a second refreshing
//! every point both ways, and about 2.4 million this way. The 32 points are listed once per
//! board size (`Lines`) rather than walked with edge tests each move: 6% less time for the same
//! search (ten positions at 1,000,000 nodes, 2.87 s against 3.06 s).

use super::eval::{
    code_table, combo_of, mask_of_kinds, shape_code, threat_kind, threat_table, Combo,
    EvalFeatures, COMBO_TERMS, EVAL_MOVER, EVAL_TERMS, EVAL_WAITER, KINDS, MOVE_TERM, NO_KIND,
    SHAPE_CODES, THREATS_FITTED,
};
use super::pattern::{self, Class, Table, BLACK, REACH, WALL, WHITE};
use super::policy::{policy_table, VALUE_WEIGHTS};
use crate::game::gomoku::{Gomoku, Point, MAX_SIZE};
use crate::game::{Color, Game};
use std::sync::OnceLock;

const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Worth of each class for the colour that would play there, for ranking moves.
const CLASS_VALUE: [i32; pattern::CLASSES] = [0, 1, 4, 12, 14, 60, 70, 900, 10_000];

/// A point's value for a colour from which one stone there makes two threats at once (two
/// fours, a four and an open three, or two open threes): `point_values`' bonus for those lifts a
/// point above what four single shapes without an open four can add up to (4 x 70).
const DOUBLE_THREAT: i32 = 300;

/// More double-threat points than this are not answered by spoiling them: one stone rarely
/// spoils them all, and trying each costs more than the search saves.
const MAX_THREATS: usize = 4;

// The static evaluation's weights and the shapes they weigh are in `eval.rs`.

/// Points this close (king moves) to a stone are candidates.
const NEAR: isize = 2;

/// A set of points as bits.
#[derive(Clone, Default)]
pub struct Points {
    words: [u64; 7],
    len: u32,
}

impl Points {
    fn set(&mut self, p: Point, on: bool) {
        let (w, b) = (p as usize / 64, p as usize % 64);
        let was = self.words[w] >> b & 1 == 1;
        if was != on {
            self.words[w] ^= 1 << b;
            if on {
                self.len += 1;
            } else {
                self.len -= 1;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn first(&self) -> Option<Point> {
        self.iter().next()
    }

    pub fn contains(&self, p: Point) -> bool {
        self.words[p as usize / 64] >> (p as usize % 64) & 1 == 1
    }

    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64) as Point + b as Point
                })
            })
        })
    }
}

#[derive(Clone)]
pub struct Board {
    pub pos: Gomoku,
    n: usize,
    table: &'static Table,
    /// `point_table()`, kept at hand for the refreshes a move makes.
    entries: &'static [PointEntry],
    /// The points whose keys see each point (`Lines`), for this board's size.
    lines: &'static Lines,
    /// Per point, per direction: the neighbours' codes (Black = 1, White = 2).
    key: Vec<[u16; 4]>,
    /// Per point, per colour, per direction: the class a stone there would make. Kept for the
    /// empty points only; an occupied point keeps those it had when it was filled.
    class: Vec<[[Class; 4]; 2]>,
    /// Per point, per colour: the value of a stone there (0 on occupied points).
    value: Vec<[i32; 2]>,
    /// Per point, per colour, per role (moving, waiting): the fitted worth of a stone there (0
    /// on occupied points); and its sums over the empty points.
    worth: Vec<[[i32; 2]; 2]>,
    worth_total: [[i32; 2]; 2],
    /// Per point, per colour: the threat kind of what a stone there makes over its lines
    /// together (`NO_KIND` on occupied points); and per colour, how many points make each
    /// kind. Only the threat table reads them, and only the kinds.
    kind: Vec<[u8; 2]>,
    kind_count: [[u16; KINDS + 1]; 2],
    /// Stones within `NEAR`.
    near: Vec<u8>,
    /// Per colour: empty points where it makes five; where it makes at least a four.
    fives: [Points; 2],
    fours: [Points; 2],
    /// How moves are ranked from their attack and defence values.
    pub order: Ordering,
    /// What the moves played on this board changed, to be put back when they are taken back:
    /// the points' old state, and per move where its points begin and the board's sums.
    saved: Vec<SavedPoint>,
    frames: Vec<Frame>,
}

/// What `Board::touch` does besides rewriting the keys.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Touch {
    /// Refresh the points whose shapes changed, saving what they were (a move played).
    RefreshAndSave,
    /// Refresh them without saving (a move taken back with nothing saved of it).
    Refresh,
    /// Nothing (a move taken back whose points are put back from what was saved).
    KeysOnly,
}

/// A point's state before a move changed it.
#[derive(Clone, Copy)]
struct SavedPoint {
    p: Point,
    class: [[Class; 4]; 2],
    value: [i32; 2],
    worth: [[i32; 2]; 2],
    kind: [u8; 2],
}

/// The board's sums before a move, and where its saved points begin.
#[derive(Clone)]
struct Frame {
    first_saved: usize,
    worth_total: [[i32; 2]; 2],
    kind_count: [[u16; KINDS + 1]; 2],
    fives: [Points; 2],
    fours: [Points; 2],
}

/// The rank of a point from its value for the side to move (attack) and for the opponent
/// (defence): `attack * value(me) + defence * value(them)`, or, with `sharp`, only the larger
/// of the two once either makes a double threat (`DOUBLE_THREAT`), since such a point is about that
/// one threat and the other side's small shapes there do not matter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ordering {
    pub attack: i32,
    pub defence: i32,
    pub sharp: bool,
    /// Order by the learned scores instead (`policy.rs`): the two ranking values, weighted by
    /// a fit, plus corrections for the point's two shape codes; `attack`, `defence` and
    /// `sharp` are then not read.
    pub learned: bool,
}

impl Default for Ordering {
    fn default() -> Ordering {
        Ordering {
            attack: 5,
            defence: 4,
            sharp: false,
            learned: false,
        }
    }
}

fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// What a point's four classes for one colour come to, worked out once per set of classes
/// (`point_table`): a move refreshes up to 33 points for both colours, and this is all each
/// refresh needs.
#[derive(Clone, Copy)]
struct PointEntry {
    /// The ranking value (the classes' values, with a bonus for the combinations that win by
    /// force: two fours, a four and an open three, two open threes) and the fitted worths for
    /// the mover and the waiter.
    values: [i32; 3],
    best: Class,
    combo: Combo,
    /// `threat_kind(combo)`.
    kind: u8,
    /// The learned move-order scores of the point's code, for an own stone and an opponent's.
    policy: [i32; 2],
}

/// The entry of an occupied point: no value, no shape, no threat kind.
impl Default for PointEntry {
    fn default() -> PointEntry {
        PointEntry {
            values: [0; 3],
            best: Class::Dead,
            combo: Combo::Nothing,
            kind: NO_KIND as u8,
            policy: [0; 2],
        }
    }
}

/// Where the entry of a set of four classes sits in `point_table`.
#[inline]
fn point_index(classes: &[Class; 4]) -> usize {
    classes
        .iter()
        .fold(0, |i, &c| i * pattern::CLASSES + c as usize)
}

/// Every `PointEntry`, indexed by the four classes as digits in base `CLASSES`.
fn point_table() -> &'static [PointEntry] {
    static TABLE: OnceLock<Vec<PointEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let n = pattern::CLASSES;
        (0..n.pow(4))
            .map(|i| {
                let digit = |k: u32| Class::from_u8((i / n.pow(3 - k) % n) as u8);
                point_values(&[digit(0), digit(1), digit(2), digit(3)])
            })
            .collect()
    })
}

/// A point's entry worked out from its classes.
fn point_values(classes: &[Class; 4]) -> PointEntry {
    let combo = combo_of(classes);
    let mut values = [0; 3];
    for &c in classes {
        let c = c as usize;
        values[0] += CLASS_VALUE[c];
        values[1] += EVAL_MOVER[c];
        values[2] += EVAL_WAITER[c];
    }
    values[0] += match double_threat(classes) {
        Some(Double::WithFour) => 800,
        Some(Double::Threes) => DOUBLE_THREAT,
        None => 0,
    };
    values[1] += EVAL_MOVER[COMBO_TERMS + combo as usize];
    values[2] += EVAL_WAITER[COMBO_TERMS + combo as usize];
    let code = shape_code(classes);
    let [by_mover, by_waiter] = code_table()[code];
    values[1] += by_mover;
    values[2] += by_waiter;
    let best = classes.iter().copied().max().unwrap_or_default();
    PointEntry {
        values,
        best,
        combo,
        kind: threat_kind(combo) as u8,
        policy: policy_table()[code],
    }
}

/// Two threats from one stone.
#[derive(Clone, Copy)]
enum Double {
    /// Two fours, or a four and an open three.
    WithFour,
    /// Two open threes.
    Threes,
}

fn double_threat(classes: &[Class; 4]) -> Option<Double> {
    let fours = classes.iter().filter(|&&c| c >= Class::Four).count();
    let threes = classes.iter().filter(|&&c| c == Class::FlexThree).count();
    if fours >= 2 || (fours == 1 && threes >= 1) {
        Some(Double::WithFour)
    } else if threes >= 2 {
        Some(Double::Threes)
    } else {
        None
    }
}

/// A key whose every slot reads a wall: what a point sees beyond the board's edges.
const ALL_WALL: u16 = {
    let mut k = 0;
    let mut i = 0;
    while i < 2 * REACH {
        k |= (WALL as u16) << (2 * i);
        i += 1;
    }
    k
};

/// A point whose key along `dir` sees another point, in the bits from `shift`.
#[derive(Clone, Copy)]
struct Neighbour {
    q: u16,
    dir: u8,
    shift: u8,
}

/// For every point of a board, the points within `REACH` of it along the four lines (up to
/// 32), with the direction and key bits through which they see it. A new board writes every
/// point's code through them and a move rewrites them; listing them once per board size spares
/// each of those the walk and its edge tests.
struct Lines {
    /// Per point, where its neighbours begin in `all` (and end, at the next point's start).
    start: Vec<u32>,
    all: Vec<Neighbour>,
}

impl Lines {
    fn build(n: usize) -> Lines {
        let (mut start, mut all) = (Vec::with_capacity(n * n + 1), Vec::new());
        for p in 0..n * n {
            start.push(all.len() as u32);
            let (x, y) = ((p % n) as isize, (p / n) as isize);
            for (dir, &(dx, dy)) in DIRS.iter().enumerate() {
                for d in 1..=REACH as isize {
                    for s in [-d, d] {
                        let (qx, qy) = (x + dx * s, y + dy * s);
                        if (0..n as isize).contains(&qx) && (0..n as isize).contains(&qy) {
                            all.push(Neighbour {
                                q: (qy * n as isize + qx) as u16,
                                dir: dir as u8,
                                // `p` lies at offset -s from the neighbour.
                                shift: pattern::slot(-s) as u8,
                            });
                        }
                    }
                }
            }
        }
        start.push(all.len() as u32);
        Lines { start, all }
    }

    /// The lists of a board of side `n`, made on first use.
    fn of_size(n: usize) -> &'static Lines {
        static SIZES: [OnceLock<Lines>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];
        SIZES[n].get_or_init(|| Lines::build(n))
    }

    fn of(&self, p: Point) -> &[Neighbour] {
        let p = p as usize;
        &self.all[self.start[p] as usize..self.start[p + 1] as usize]
    }
}

impl Board {
    pub fn new(pos: &Gomoku) -> Board {
        let n = pos.size();
        let points = n * n;
        let mut b = Board {
            pos: pos.clone(),
            n,
            table: pattern::table(pos.rules().exact_five),
            entries: point_table(),
            lines: Lines::of_size(n),
            key: vec![[ALL_WALL; 4]; points],
            class: vec![[[Class::Dead; 4]; 2]; points],
            value: vec![[0; 2]; points],
            worth: vec![[[0; 2]; 2]; points],
            worth_total: [[0; 2]; 2],
            kind: vec![[NO_KIND as u8; 2]; points],
            kind_count: [[0; KINDS + 1]; 2],
            near: vec![0; points],
            fives: Default::default(),
            fours: Default::default(),
            order: Ordering::default(),
            saved: Vec::new(),
            frames: Vec::new(),
        };
        // Every key starts as all wall; each point then writes its code into the keys that
        // see it, so only the slots off the board keep the wall.
        let lines = b.lines;
        for p in 0..points as Point {
            let c = pos.color_at(p).map_or(pattern::EMPTY, code);
            for &nb in lines.of(p) {
                b.write_slot(nb, c);
            }
            if c != pattern::EMPTY {
                b.mark_near(p, 1);
            }
        }
        for counts in &mut b.kind_count {
            counts[NO_KIND] = points as u16;
        }
        for p in 0..points {
            for dir in 0..4 {
                b.reclassify(p as Point, dir);
            }
            b.revalue(p as Point);
        }
        b
    }

    /// Writes code `c` into the key slot through which `nb.q` sees the point listing it.
    #[inline]
    fn write_slot(&mut self, nb: Neighbour, c: u8) {
        let k = &mut self.key[nb.q as usize][nb.dir as usize];
        *k = (*k & !(3 << nb.shift)) | ((c as u16) << nb.shift);
    }

    fn mark_near(&mut self, p: Point, delta: i8) {
        let n = self.n as isize;
        let (x, y) = (
            (p as usize % self.n) as isize,
            (p as usize / self.n) as isize,
        );
        for dy in -NEAR..=NEAR {
            for dx in -NEAR..=NEAR {
                let (qx, qy) = (x + dx, y + dy);
                if (0..n).contains(&qx) && (0..n).contains(&qy) {
                    let q = (qy * n + qx) as usize;
                    self.near[q] = (self.near[q] as i8 + delta) as u8;
                }
            }
        }
    }

    /// Reads the classes of `p` along `dir` from its key; which colours' changed (bit 0 for
    /// the first colour, bit 1 for the second).
    fn reclassify(&mut self, p: Point, dir: usize) -> u8 {
        let (new, changed) = self.classes_along(p, dir);
        self.set_classes(p, dir, new);
        changed
    }

    /// The classes of `p` along `dir` as its key reads now, for each colour, and which of
    /// them differ from those it holds (as `reclassify` says).
    #[inline]
    fn classes_along(&self, p: Point, dir: usize) -> ([Class; 2], u8) {
        let k = self.key[p as usize][dir];
        let new = [self.table.get(k, 0), self.table.get(k, 1)];
        let cl = &self.class[p as usize];
        let changed = u8::from(cl[0][dir] != new[0]) | u8::from(cl[1][dir] != new[1]) << 1;
        (new, changed)
    }

    #[inline]
    fn set_classes(&mut self, p: Point, dir: usize, new: [Class; 2]) {
        let cl = &mut self.class[p as usize];
        cl[0][dir] = new[0];
        cl[1][dir] = new[1];
    }

    /// What a set of four classes (for one colour, in line order) comes to.
    #[inline]
    fn entry(&self, classes: &[Class; 4]) -> PointEntry {
        self.entries[point_index(classes)]
    }

    /// Recomputes the values and five/four membership of `p` from its classes.
    fn revalue(&mut self, p: Point) {
        self.revalue_colour(p, 0);
        self.revalue_colour(p, 1);
    }

    /// `revalue` for one colour (its index).
    #[inline]
    fn revalue_colour(&mut self, p: Point, c: usize) {
        let i = p as usize;
        let empty = self.pos.color_at(p).is_none();
        let PointEntry {
            values: [v, mover, waiter],
            best,
            kind,
            ..
        } = if empty {
            self.entry(&self.class[i][c])
        } else {
            PointEntry::default()
        };
        self.value[i][c] = v;
        // Only the threat table reads the counts: without one, they are not kept. Most changes
        // of a point's shapes leave its kind as it was.
        if THREATS_FITTED {
            let old_kind = std::mem::replace(&mut self.kind[i][c], kind);
            if old_kind != kind {
                self.kind_count[c][old_kind as usize] -= 1;
                self.kind_count[c][kind as usize] += 1;
            }
        }
        let old = self.worth[i][c];
        self.worth_total[c][0] += mover - old[0];
        self.worth_total[c][1] += waiter - old[1];
        self.worth[i][c] = [mover, waiter];
        self.fives[c].set(p, best == Class::Five);
        self.fours[c].set(p, best >= Class::Four && best < Class::Five);
    }

    /// Rewrites the key slots that see `p` to `c` and, as `how` says, refreshes the points
    /// concerned.
    fn touch(&mut self, p: Point, c: u8, how: Touch) {
        let save = how == Touch::RefreshAndSave;
        let lines = self.lines;
        for &nb in lines.of(p) {
            self.write_slot(nb, c);
            if how != Touch::KeysOnly {
                self.refresh(nb.q as Point, nb.dir as usize, save);
            }
        }
        if how == Touch::KeysOnly {
            return;
        }
        if save {
            let before = self.save_point(p);
            self.saved.push(before);
        }
        if how == Touch::Refresh {
            // Emptied without its move's saved state (a stone the board came with): its
            // classes are from when the board was made, and the stones after it may be gone.
            for dir in 0..4 {
                self.reclassify(p, dir);
            }
        }
        self.revalue(p);
    }

    /// Refreshes `q` after its key along `dir` changed, saving what it was first with `save`.
    #[inline]
    fn refresh(&mut self, q: Point, dir: usize, save: bool) {
        // An occupied point's classes are not read while it is occupied; when it is emptied
        // they are put back as they were when it was filled (moves are taken back last first,
        // so its lines are as they were then). Only its key must stay current.
        if self.pos.color_at(q).is_some() {
            return;
        }
        // A stone far along a line often leaves the shape there as it was; then nothing of `q`
        // changes. A point lies on one line of the move, so it is saved at most once a move.
        let (new, changed) = self.classes_along(q, dir);
        if changed == 0 {
            return;
        }
        if save {
            let before = self.save_point(q);
            self.saved.push(before);
        }
        self.set_classes(q, dir, new);
        for c in 0..2 {
            if changed >> c & 1 == 1 {
                self.revalue_colour(q, c);
            }
        }
    }

    fn save_point(&self, p: Point) -> SavedPoint {
        let i = p as usize;
        SavedPoint {
            p,
            class: self.class[i],
            value: self.value[i],
            worth: self.worth[i],
            kind: self.kind[i],
        }
    }

    pub fn side(&self) -> Color {
        self.pos.side_to_move()
    }

    pub fn play(&mut self, p: Point) {
        let c = code(self.side());
        self.frames.push(Frame {
            first_saved: self.saved.len(),
            worth_total: self.worth_total,
            kind_count: self.kind_count,
            fives: self.fives.clone(),
            fours: self.fours.clone(),
        });
        self.pos.play(p);
        self.mark_near(p, 1);
        self.touch(p, c, Touch::RefreshAndSave);
    }

    /// Takes back the last move, which must be on `p`.
    pub fn undo(&mut self, p: Point) {
        let undone = self.pos.undo();
        debug_assert_eq!(undone, Some(p));
        self.mark_near(p, -1);
        let Some(frame) = self.frames.pop() else {
            // A move this board did not play (it came with the position): work it out.
            self.touch(p, pattern::EMPTY, Touch::Refresh);
            return;
        };
        // Putting back what the move changed costs far less than working it out again.
        self.touch(p, pattern::EMPTY, Touch::KeysOnly);
        for sp in self.saved.drain(frame.first_saved..).rev() {
            let i = sp.p as usize;
            self.class[i] = sp.class;
            self.value[i] = sp.value;
            self.worth[i] = sp.worth;
            self.kind[i] = sp.kind;
        }
        self.worth_total = frame.worth_total;
        self.kind_count = frame.kind_count;
        self.fives = frame.fives;
        self.fours = frame.fours;
    }

    pub fn is_over(&self) -> bool {
        self.pos.outcome().is_some()
    }

    /// Empty points where `c` makes five.
    pub fn fives(&self, c: Color) -> &Points {
        &self.fives[c.index()]
    }

    /// Empty points where `c` makes a four or an open four (not five).
    pub fn fours(&self, c: Color) -> &Points {
        &self.fours[c.index()]
    }

    /// The best class `c` makes on `p` over the four lines.
    pub fn best_class(&self, p: Point, c: Color) -> Class {
        self.class[p as usize][c.index()]
            .iter()
            .copied()
            .max()
            .unwrap_or(Class::Dead)
    }

    /// Whether a stone of `c` on `p` wins by force by itself: an open four, two fours, or a
    /// four with an open three (the opponent having no five to play first).
    pub fn makes_winning_shape(&self, p: Point, c: Color) -> bool {
        let cl = &self.class[p as usize][c.index()];
        cl.contains(&Class::Five)
            || cl.contains(&Class::FlexFour)
            || matches!(double_threat(cl), Some(Double::WithFour))
    }

    /// The shape code (`eval::shape_code`) of a stone of `c` on `p`.
    pub fn code(&self, p: Point, c: Color) -> usize {
        shape_code(&self.class[p as usize][c.index()])
    }

    /// What a stone of `c` on `p` makes over its four lines together.
    pub fn combo(&self, p: Point, c: Color) -> Combo {
        self.entry(&self.class[p as usize][c.index()]).combo
    }

    /// Whether `c`, to move and facing no five, wins by force with one stone: a point where it
    /// makes an open four, two fours or a four with an open three, and the opponent has no four
    /// to answer with.
    pub fn wins_with_a_shape(&self, c: Color) -> bool {
        self.fours(c.opponent()).is_empty()
            && self.fours(c).iter().any(|p| self.makes_winning_shape(p, c))
    }

    pub fn value(&self, p: Point, c: Color) -> i32 {
        self.value[p as usize][c.index()]
    }

    /// Static value for `c`: the fitted worth of the side to move's possible stones plus the
    /// (negative) worth of the waiting side's, and the bonus for the move; negated when `c` is
    /// the side waiting.
    pub fn evaluate(&self, c: Color) -> i32 {
        let mover = self.side().index();
        let v = self.worth_total[mover][0]
            + self.worth_total[1 - mover][1]
            + EVAL_MOVER[MOVE_TERM]
            + if THREATS_FITTED {
                threat_table()[mask_of_kinds(&self.kind_count[mover], &self.kind_count[1 - mover])]
            } else {
                0
            };
        if self.side() == c {
            v
        } else {
            -v
        }
    }

    /// What `evaluate` weighs, per role (the side to move, the side waiting): for each class,
    /// how many (empty point, line) pairs give it; for each combination, how many empty points
    /// make it; last 1 for the mover (its bonus) and 0 for the waiter. With them, the threat
    /// mask. `evaluate(side)` is the sum of the terms times `EVAL_MOVER` and `EVAL_WAITER`, plus
    /// `THREAT[mask]`. Worked out afresh, not from the incremental state.
    pub fn eval_features(&self) -> EvalFeatures {
        let mut terms = [[0; EVAL_TERMS]; 2];
        let mut kinds = [[0u16; KINDS + 1]; 2];
        let mut codes = [vec![0; SHAPE_CODES], vec![0; SHAPE_CODES]];
        let mover = self.side().index();
        for p in 0..self.n * self.n {
            if self.pos.color_at(p as Point).is_some() {
                continue;
            }
            for (role, c) in [(0, mover), (1, 1 - mover)] {
                let classes = &self.class[p][c];
                for &k in classes {
                    terms[role][k as usize] += 1;
                }
                let combo = combo_of(classes);
                terms[role][COMBO_TERMS + combo as usize] += 1;
                kinds[role][threat_kind(combo)] += 1;
                codes[role][shape_code(classes)] += 1;
            }
        }
        terms[0][MOVE_TERM] = 1;
        let occurring = |counts: &[i32]| -> Vec<(u16, i32)> {
            (0..SHAPE_CODES)
                .filter(|&c| counts[c] > 0)
                .map(|c| (c as u16, counts[c]))
                .collect()
        };
        EvalFeatures {
            terms,
            mask: mask_of_kinds(&kinds[0], &kinds[1]),
            codes: [occurring(&codes[0]), occurring(&codes[1])],
        }
    }

    /// How promising `p` is for the side to move, attack and defence together: the order
    /// moves are tried in.
    fn order_score(&self, p: Point) -> i32 {
        let me = self.side();
        let o = self.order;
        let (attack, defence) = (self.value(p, me), self.value(p, me.opponent()));
        if o.learned {
            let i = p as usize;
            let own = self.entry(&self.class[i][me.index()]).policy[0];
            let theirs = self.entry(&self.class[i][me.opponent().index()]).policy[1];
            return (attack * VALUE_WEIGHTS[0] + defence * VALUE_WEIGHTS[1]) / 1000 + own + theirs;
        }
        if o.sharp && attack.max(defence) >= DOUBLE_THREAT {
            (attack * o.attack).max(defence * o.defence)
        } else {
            attack * o.attack + defence * o.defence
        }
    }

    /// Whether `c` has a point where it makes an open four.
    pub fn has_open_three(&self, c: Color) -> bool {
        self.fours[c.index()]
            .iter()
            .any(|p| self.best_class(p, c) == Class::FlexFour)
    }

    /// When the opponent has an open three (a point where it makes an open four) and no five
    /// to make, the only moves that do not lose to the open four: the points where it would
    /// make a four or better (every block of the three is one) and our own fours, which gain
    /// a tempo. Best first. `None` when there is no open three to answer.
    pub fn defences(&self) -> Option<Vec<Point>> {
        let me = self.side();
        let them = me.opponent();
        if !self.has_open_three(them) {
            return None;
        }
        Some(
            self.ranked(
                self.fours[them.index()]
                    .iter()
                    .chain(self.fours[me.index()].iter()),
            ),
        )
    }

    /// `points` best first by `order_score` (ties by point), each once.
    fn ranked(&self, points: impl IntoIterator<Item = Point>) -> Vec<Point> {
        let mut v = self.scored(points);
        v.sort_unstable_by(better_first);
        v.dedup_by_key(|e| e.1);
        v.into_iter().map(|(_, p)| p).collect()
    }

    /// The `k` best of `points` (each given once), in `ranked`'s order: a selection first, so
    /// that only those `k` are sorted (a node keeps 16 of the 40 to 100 points near stones).
    fn ranked_top(&self, points: impl IntoIterator<Item = Point>, k: usize) -> Vec<Point> {
        let mut v = self.scored(points);
        if k < v.len() {
            v.select_nth_unstable_by(k, better_first);
            v.truncate(k);
        }
        v.sort_unstable_by(better_first);
        v.into_iter().map(|(_, p)| p).collect()
    }

    /// Each of `points` with its `order_score`, the key of both rankings.
    fn scored(&self, points: impl IntoIterator<Item = Point>) -> Vec<(i32, Point)> {
        points
            .into_iter()
            .map(|p| (self.order_score(p), p))
            .collect()
    }

    /// The line and offset that lead from `t` to `q` when `q` lies within `REACH` of it on
    /// one of its four lines.
    fn line_offset(&self, t: Point, q: Point) -> Option<(usize, isize)> {
        let n = self.n as isize;
        let (dx, dy) = (
            q as isize % n - t as isize % n,
            q as isize / n - t as isize / n,
        );
        let (dir, s) = match (dx, dy) {
            (_, 0) => (0, dx),
            (0, _) => (1, dy),
            _ if dx == dy => (2, dx),
            _ if dx == -dy => (3, dx),
            _ => return None,
        };
        (s != 0 && s.unsigned_abs() <= REACH).then_some((dir, s))
    }

    /// Whether `q` is in `t`'s neighbourhood: the 5x5 square around it, or one of its four
    /// lines within `REACH`.
    pub fn is_near(&self, t: Point, q: Point) -> bool {
        let n = self.n as isize;
        let (dx, dy) = (
            q as isize % n - t as isize % n,
            q as isize / n - t as isize / n,
        );
        (dx.abs() <= 2 && dy.abs() <= 2) || self.line_offset(t, q).is_some()
    }

    /// The points within `REACH` of `p` along its four lines, on the board.
    fn line_points(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let n = self.n as isize;
        let (x, y) = (p as isize % n, p as isize / n);
        DIRS.iter().flat_map(move |&(dx, dy)| {
            (-(REACH as isize)..=REACH as isize)
                .filter(|&s| s != 0)
                .map(move |s| (x + dx * s, y + dy * s))
                .filter(move |&(qx, qy)| (0..n).contains(&qx) && (0..n).contains(&qy))
                .map(move |(qx, qy)| (qy * n + qx) as Point)
        })
    }

    /// Whether a stone of the side to move on the empty point `q` leaves the opponent without
    /// a double threat on `t`: it takes `t`, or it lies on one of `t`'s lines and lowers the
    /// shape there. The shape is read from `t`'s key with `q` filled in, so nothing is played.
    fn spoils(&self, q: Point, t: Point) -> bool {
        if q == t {
            return true;
        }
        let Some((dir, s)) = self.line_offset(t, q) else {
            return false;
        };
        let them = self.side().opponent().index();
        let sl = pattern::slot(s);
        let key = (self.key[t as usize][dir] & !(3 << sl)) | ((code(self.side()) as u16) << sl);
        let mut classes = self.class[t as usize][them];
        classes[dir] = self.table.get(key, them);
        self.entry(&classes).values[0] < DOUBLE_THREAT
    }

    /// When the opponent has points where one stone makes two threats at once (and, asked
    /// first, no open three), the moves that answer them: the stones that spoil every such
    /// point, our fours (a tempo the opponent must answer), and, when no threat holds a four,
    /// our open threes too (two open threes still need a move to become an open four, so an
    /// open three of ours comes first). Best first. `None` when there is no such point or no
    /// such answer (the position is lost anyway, and the ordinary search shows it).
    /// With `fours_only`, only the double threats that hold a four (two fours, a four and an
    /// open three) are answered this way.
    pub fn threat_defences(&self, fours_only: bool) -> Option<Vec<Point>> {
        let me = self.side();
        let them = me.opponent();
        let holds_four = |t: Point| {
            self.class[t as usize][them.index()]
                .iter()
                .any(|&k| k >= Class::Four)
        };
        let threats: Vec<Point> = (0..(self.n * self.n) as Point)
            .filter(|&p| self.value(p, them) >= DOUBLE_THREAT && (!fours_only || holds_four(p)))
            .collect();
        let &first = threats.first()?;
        let strong = threats.iter().any(|&t| holds_four(t));
        let mut moves: Vec<Point> = Vec::new();
        if threats.len() <= MAX_THREATS {
            // A spoiler spoils every threat, so it is among the first one's spoilers.
            moves = std::iter::once(first)
                .chain(self.line_points(first))
                .filter(|&q| self.pos.color_at(q).is_none())
                .filter(|&q| threats.iter().all(|&t| self.spoils(q, t)))
                .collect();
        }
        moves.extend(self.fours[me.index()].iter());
        if !strong {
            moves.extend((0..(self.n * self.n) as Point).filter(|&q| {
                self.pos.color_at(q).is_none() && self.best_class(q, me) == Class::FlexThree
            }));
        }
        if moves.is_empty() {
            return None;
        }
        Some(self.ranked(moves))
    }

    /// `candidates(k)`, then up to `extra` more of the points near stones, best first: those
    /// where the side to move makes two open twos or better with one stone. Such a point ranks
    /// low (each of its shapes is small), but it is how a win by threes begins, and in the
    /// games lost to Rapfi its winning first move often stood 17th to 23rd in the order.
    pub fn candidates_with_builders(&self, k: usize, extra: usize) -> Vec<Point> {
        let mut moves = self.candidates(k);
        if extra == 0 || moves.len() < k {
            return moves;
        }
        let me = self.side();
        let builders = self.ranked(
            self.near_points()
                .filter(|&p| self.combo(p, me) >= Combo::TwoFlexTwos && !moves.contains(&p)),
        );
        moves.extend(builders.into_iter().take(extra));
        moves
    }

    /// The empty points near a stone: the points a node may search.
    fn near_points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..(self.n * self.n) as Point)
            .filter(|&p| self.near[p as usize] > 0 && self.pos.color_at(p).is_none())
    }

    /// Candidate points (near a stone; the centre on an empty board), best first for the side
    /// to move by attack plus defence, at most `k`.
    pub fn candidates(&self, k: usize) -> Vec<Point> {
        let mut v = self.ranked_top(self.near_points(), k);
        if v.is_empty() && k > 0 {
            let c = (self.n / 2) as Point;
            if self.pos.color_at(c * self.n as Point + c).is_none() {
                return vec![c * self.n as Point + c];
            }
            // No stone has a free neighbour: any empty point, in order.
            v = (0..(self.n * self.n) as Point)
                .filter(|&p| self.pos.color_at(p).is_none())
                .collect();
        }
        v.truncate(k);
        v
    }
}

/// Higher order score first; the lower point breaks ties, so that the order is total.
fn better_first(a: &(i32, Point), b: &(i32, Point)) -> std::cmp::Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(&b.1))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::game::gomoku::GomokuRules;

    /// Asserts that `b`'s incremental state is what a board made afresh from its position has.
    fn assert_matches_a_fresh_board(b: &Board, at: &str) {
        let fresh = Board::new(&b.pos);
        assert_eq!(b.key, fresh.key, "{at}");
        assert_eq!(b.value, fresh.value, "{at}");
        assert_eq!(b.worth, fresh.worth, "{at}");
        assert_eq!(b.worth_total, fresh.worth_total, "{at}");
        // The threat kinds are only kept when there is a threat table (`THREATS_FITTED`);
        // without one both boards leave them as they began.
        assert_eq!(b.kind, fresh.kind, "{at}");
        assert_eq!(b.kind_count, fresh.kind_count, "{at}");
        assert_eq!(b.near, fresh.near, "{at}");
        // Classes are kept for the empty points, and only for them.
        for p in 0..b.n * b.n {
            if b.pos.color_at(p as Point).is_none() {
                assert_eq!(b.class[p], fresh.class[p], "{at}, point {p}");
            }
        }
        for c in 0..2 {
            assert_eq!(
                b.fives[c].iter().collect::<Vec<_>>(),
                fresh.fives[c].iter().collect::<Vec<_>>(),
                "{at}"
            );
            assert_eq!(
                b.fours[c].iter().collect::<Vec<_>>(),
                fresh.fours[c].iter().collect::<Vec<_>>(),
                "{at}"
            );
        }
    }

    /// Each point's neighbour list holds every point within `REACH` along its four lines and
    /// on the board, once, with the key bits through which that point sees it.
    #[test]
    fn neighbour_lists_hold_every_point_within_reach_once() {
        for n in [11, 15, 20] {
            let lines = Lines::of_size(n);
            let (last, centre) = (n - 1, (n / 2) * n + n / 2);
            // A corner sees 4 points along each of three lines; the centre 8 along all four.
            assert_eq!(lines.of(0).len(), 12, "size {n}");
            assert_eq!(lines.of((last * n + last) as Point).len(), 12, "size {n}");
            assert_eq!(lines.of(centre as Point).len(), 32, "size {n}");
            for p in 0..n * n {
                let list = lines.of(p as Point);
                let (x, y) = ((p % n) as isize, (p / n) as isize);
                for (i, nb) in list.iter().enumerate() {
                    let (qx, qy) = ((nb.q as usize % n) as isize, (nb.q as usize / n) as isize);
                    let (dx, dy) = DIRS[nb.dir as usize];
                    // The neighbour's offset from `p`, a whole number of steps along its line.
                    let s = if dx != 0 {
                        (qx - x) / dx
                    } else {
                        (qy - y) / dy
                    };
                    assert_eq!((x + dx * s, y + dy * s), (qx, qy), "size {n}, point {p}");
                    assert!(s != 0 && s.unsigned_abs() <= REACH, "size {n}, point {p}");
                    assert_eq!(nb.shift as u32, pattern::slot(-s), "size {n}, point {p}");
                    let twice = list[..i].iter().any(|o| o.q == nb.q && o.dir == nb.dir);
                    assert!(!twice, "size {n}, point {p}: {} listed twice", nb.q);
                }
            }
        }
    }

    /// A board made from a position with moves takes those moves back too (they were never
    /// played on it, so nothing of them was saved), before and after moves of its own.
    #[test]
    fn moves_a_board_came_with_are_taken_back_too() {
        let mut g = Gomoku::new(GomokuRules::default());
        // The first eight moves of an arena game against Rapfi.
        let moves = [
            (7, 7),
            (6, 6),
            (10, 10),
            (6, 5),
            (6, 4),
            (7, 5),
            (5, 7),
            (5, 4),
        ];
        for (x, y) in moves {
            g.play(g.point(x, y));
        }
        let mut b = Board::new(&g);
        let own = [b.pos.point(9, 9), b.pos.point(5, 5)];
        for (i, &m) in own.iter().enumerate() {
            b.play(m);
            assert_matches_a_fresh_board(&b, &format!("own move {i} played"));
        }
        for (i, &m) in own.iter().enumerate().rev() {
            b.undo(m);
            assert_matches_a_fresh_board(&b, &format!("own move {i} taken back"));
        }
        for (i, &(x, y)) in moves.iter().enumerate().rev() {
            let p = b.pos.point(x, y);
            b.undo(p);
            assert_matches_a_fresh_board(&b, &format!("move {i} of the position taken back"));
            // A move of its own between two of those.
            let q = b.pos.point(8, 8);
            b.play(q);
            assert_matches_a_fresh_board(&b, &format!("own move after {i}"));
            b.undo(q);
            assert_matches_a_fresh_board(&b, &format!("own move after {i} taken back"));
        }
    }

    /// The incremental state equals a fresh computation after any sequence of moves and undos.
    #[test]
    fn incremental_state_matches_a_fresh_board() {
        for size in [11, 15, 20] {
            let mut b = Board::new(&Gomoku::new(GomokuRules::new(size, false).unwrap()));
            let mut played = Vec::new();
            let mut seed = 99u64 + size as u64;
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            for step in 0..300 {
                if b.is_over() || (!played.is_empty() && next() % 3 == 0) {
                    if let Some(p) = played.pop() {
                        b.undo(p);
                    }
                } else {
                    // Mostly near the centre, so that shapes form.
                    let c = size as u64 / 2;
                    let (x, y) = (c - 3 + next() % 7, c - 3 + next() % 7);
                    let p = (y * size as u64 + x) as Point;
                    if b.pos.color_at(p).is_some() {
                        continue;
                    }
                    b.play(p);
                    played.push(p);
                }
                assert_matches_a_fresh_board(&b, &format!("step {step}"));
            }
        }
    }

    /// Keeping only the best `k` candidates by a selection gives the first `k` of the full
    /// ranking, ties included, at every size of `k`.
    #[test]
    fn the_best_candidates_are_the_head_of_the_full_ranking() {
        let mut b = Board::new(&Gomoku::new(GomokuRules::default()));
        let mut seed = 7u64;
        let mut checked = 0;
        for _ in 0..60 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (x, y) = (4 + seed % 7, 4 + (seed >> 8) % 7);
            let p = (y * 15 + x) as Point;
            if b.pos.color_at(p).is_some() || b.is_over() {
                continue;
            }
            b.play(p);
            let near: Vec<Point> = (0..225)
                .filter(|&q| b.near[q as usize] > 0 && b.pos.color_at(q).is_none())
                .collect();
            let full = b.ranked(near.iter().copied());
            assert_eq!(b.candidates(usize::MAX), full);
            for k in [0, 1, 5, 16, full.len(), full.len() + 3] {
                assert_eq!(b.candidates(k), full[..k.min(full.len())], "k = {k}");
            }
            checked += 1;
        }
        assert!(checked > 20, "only {checked} positions");
    }

    /// Black to move with three in a row open at both ends (White's stones well away), and the
    /// two points that make it an open four.
    pub(in crate::engine::gomoku) fn open_three() -> (Gomoku, [Point; 2]) {
        let mut g = Gomoku::new(GomokuRules::default());
        for (x, y) in [(6, 7), (2, 2), (7, 7), (2, 12), (8, 7), (12, 2)] {
            g.play(g.point(x, y));
        }
        let ends = [g.point(5, 7), g.point(9, 7)];
        (g, ends)
    }

    /// The learned order scores a point by its two ranking values, weighted, and its two shape
    /// codes' corrections; with it, the points that turn an open three into an open four come
    /// first for the side that has the three, and among the first three for the side facing it.
    #[test]
    fn the_learned_order_puts_the_open_four_first_and_the_blocks_high() {
        let (mut g, ends) = open_three();
        let mut b = Board::new(&g);
        b.order.learned = true;
        let me = b.side();
        for p in b.candidates(usize::MAX) {
            let own = policy_table()[b.code(p, me)][0];
            let theirs = policy_table()[b.code(p, me.opponent())][1];
            let weighted = (b.value(p, me) * VALUE_WEIGHTS[0]
                + b.value(p, me.opponent()) * VALUE_WEIGHTS[1])
                / 1000;
            assert_eq!(b.order_score(p), weighted + own + theirs);
        }
        let first = b.candidates(2);
        assert!(ends.iter().all(|e| first.contains(e)), "{first:?}");
        // White to move against the three: Black played far away instead of making the four.
        g.play(g.point(12, 12));
        let mut b = Board::new(&g);
        b.order.learned = true;
        let first = b.candidates(3);
        assert!(ends.iter().all(|e| first.contains(e)), "{first:?}");
    }

    /// The static evaluation is exactly its features times the weights, from either side.
    #[test]
    fn evaluation_is_its_features_times_the_weights() {
        let mut g = Gomoku::new(GomokuRules::default());
        let moves = [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 9),
            (7, 6),
            (7, 9),
            (8, 6),
            (9, 6),
            (5, 7),
        ];
        for (x, y) in moves {
            g.play(g.point(x, y));
            let b = Board::new(&g);
            let f = b.eval_features();
            let dot = |w: &[i32; EVAL_TERMS], f: &[i32; EVAL_TERMS]| {
                w.iter().zip(f).map(|(a, b)| a * b).sum::<i32>()
            };
            let by_code = f.by_code();
            let v = dot(&EVAL_MOVER, &f.terms[0])
                + dot(&EVAL_WAITER, &f.terms[1])
                + threat_table()[f.mask]
                + by_code;
            assert_eq!(b.evaluate(b.side()), v);
            // Every empty point has one code per role.
            let empty = (0..b.n * b.n)
                .filter(|&p| g.color_at(p as Point).is_none())
                .count();
            for codes in &f.codes {
                assert_eq!(codes.iter().map(|&(_, n)| n as usize).sum::<usize>(), empty);
            }
            assert_eq!(b.evaluate(b.side().opponent()), -v);
            assert!(
                f.terms[0][1..].iter().sum::<i32>() > 0,
                "shapes are counted"
            );
        }
    }

    #[test]
    fn an_open_three_is_answered_by_its_blocks_and_our_fours_only() {
        let mut g = Gomoku::new(GomokuRules::default());
        // Black builds an open three at (5..=7, 7); White two stones in the corner of the top
        // edge, which make no four yet.
        for (bx, wx) in [(5, 12), (6, 13)] {
            g.play(g.point(bx, 7));
            g.play(g.point(wx, 0));
        }
        assert!(
            Board::new(&g).defences().is_none(),
            "White has no open three"
        );
        let mut with_four = g.clone();
        for pos in [&mut g, &mut with_four] {
            pos.play(pos.point(7, 7));
        }
        g.play(g.point(0, 14));
        g.play(g.point(12, 12));
        let b = Board::new(&g);
        assert_eq!(b.side(), Color::White);
        let mut got = b.defences().expect("Black's open three must be answered");
        got.sort_unstable();
        let blocks: Vec<Point> = [3, 4, 8, 9].iter().map(|&x| g.point(x, 7)).collect();
        assert_eq!(got, blocks);
        // A third White stone on the edge gives White fours of its own: defences too.
        with_four.play(with_four.point(14, 0));
        with_four.play(with_four.point(12, 12));
        let mut got = Board::new(&with_four).defences().unwrap();
        got.sort_unstable();
        let mut want = blocks.clone();
        want.extend([with_four.point(10, 0), with_four.point(11, 0)]);
        want.sort_unstable();
        assert_eq!(got, want);
    }

    #[test]
    fn a_double_three_point_is_answered_by_the_stones_that_spoil_it() {
        let mut g = Gomoku::new(GomokuRules::default());
        // Black: two stones on row 7 and two on column 7, so that (7, 7) would make two open
        // threes; White: a corner stone and, once its third stone is on, an open three on
        // row 2. Its stones are points where a White stone would make an open three: taken
        // points must not come back as answers.
        for (b, w) in [((5, 7), (0, 14)), ((6, 7), (11, 2)), ((7, 5), (12, 2))] {
            g.play(g.point(b.0, b.1));
            g.play(g.point(w.0, w.1));
        }
        g.play(g.point(10, 12));
        assert_eq!(g.side_to_move(), Color::White);
        assert!(
            Board::new(&g).threat_defences(false).is_none(),
            "one three and a two are no double threat"
        );
        g.play(g.point(10, 2));
        g.play(g.point(7, 6));
        let b = Board::new(&g);
        assert_eq!(b.side(), Color::White);
        let threat = g.point(7, 7);
        assert!(b.value(threat, Color::Black) >= DOUBLE_THREAT);
        let got = b
            .threat_defences(false)
            .expect("Black's double three must be answered");
        for p in [(7, 7), (4, 7), (8, 7), (7, 4), (7, 8)] {
            assert!(got.contains(&g.point(p.0, p.1)), "{p:?} spoils it");
        }
        assert!(
            got.contains(&g.point(13, 2)),
            "White's fours keep the tempo"
        );
        // Every answer is an empty point that spoils the double three, as the incremental
        // board sees it once the stone is played, or one where White makes a four.
        for q in got {
            assert!(g.color_at(q).is_none(), "{:?} is taken", g.coords(q));
            let mut after = b.clone();
            after.play(q);
            assert!(
                after.value(threat, Color::Black) < DOUBLE_THREAT
                    || b.best_class(q, Color::White) >= Class::Four,
                "{:?} neither spoils the double three nor makes a four",
                g.coords(q)
            );
        }
    }

    #[test]
    fn fives_and_fours_are_found() {
        let mut g = Gomoku::new(GomokuRules::default());
        // Black: a row of four at (3..=6, 7); White elsewhere.
        for (bx, wx) in [(3, 3), (4, 5), (5, 7), (6, 9)] {
            g.play(g.point(bx, 7));
            g.play(g.point(wx, 12));
        }
        let b = Board::new(&g);
        let fives: Vec<Point> = b.fives(Color::Black).iter().collect();
        assert_eq!(fives, vec![g.point(2, 7), g.point(7, 7)]);
        assert!(b.fives(Color::White).is_empty());
        assert!(b.makes_winning_shape(g.point(2, 7), Color::Black));
    }
}
