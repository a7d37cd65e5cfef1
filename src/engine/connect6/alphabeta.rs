//! Alpha-beta over whole turns (stone pairs), iteratively deepened, with a transposition table.
//!
//! A node is the start of a turn. Its moves are pairs built from the best-ranked single cells:
//! the top `wide` first stones, and for each the top `wide2` second stones once the first is
//! on the board, kept to the best `pairs` by the static value after both. When the opponent has
//! threats, only the exact defences are generated (both cells of a double threat; a blocking
//! cell plus a free stone for a single one), so forced lines cost almost nothing and the
//! depth goes where it matters. Wins and losses are scored by distance, so the shortest win and
//! the longest defence are preferred.

use super::board::Board;
use crate::game::connect6::Stone;
use crate::game::Game;
use crate::search::budget::Budget;

pub use crate::search::score::{WIN, WIN_BOUND};

#[derive(Clone, Copy, Debug)]
pub struct Width {
    /// First stones considered at a quiet node.
    pub wide: usize,
    /// Second stones considered for each first stone.
    pub wide2: usize,
    /// Pairs kept after ranking.
    pub pairs: usize,
    /// Leaves where the side to move can make three threats at once count as won.
    pub leaf_threats: bool,
    /// Principal-variation search: turns after the first are tried with a null window and
    /// searched again in full only when they might be better.
    pub pvs: bool,
    /// With `pvs`, at a node where the side to move faces no threat, turns from this index on
    /// are searched two turns shallower first (0: no reductions).
    pub lmr: usize,
    /// Nodes this close to the root (1: the root, 2: the root and the replies to its turns; 0:
    /// none) take `near_wide` first stones and keep `near_pairs` pairs instead. Near the root
    /// the opponent's real replies must be among those searched: a narrow generator there is
    /// blind to them, and deeper a miss costs less.
    pub near_plies: i32,
    pub near_wide: usize,
    pub near_pairs: usize,
}

impl Width {
    /// The generation at a node `ply` turns from the root's (the root is 1).
    pub fn at(self, ply: i32) -> Width {
        if ply <= self.near_plies {
            Width {
                wide: self.near_wide,
                pairs: self.near_pairs,
                ..self
            }
        } else {
            self
        }
    }
}

impl Default for Width {
    /// Wide, with the late turns reduced: 12 first stones and 40 pairs (9 and 28 before) offer
    /// more of the turns a different program plays, and null windows with late-move reductions
    /// make those extra turns cheap. Together they measured +198 in self-play against 9 and 28
    /// without reductions (see docs/experiments/connect6.md); the wider generation alone had
    /// measured -47, the reductions alone +30.
    fn default() -> Width {
        Width {
            wide: 12,
            wide2: 7,
            pairs: 40,
            leaf_threats: false,
            pvs: true,
            lmr: 4,
            near_plies: 0,
            near_wide: 12,
            near_pairs: 40,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    best: [Stone; 2],
    has_best: bool,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// Position hash -> what an earlier search learnt. Always-replace, one entry a slot.
pub struct Table {
    slots: Vec<Entry>,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![Entry::default(); 1 << bits],
        }
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    fn get(&self, key: u64) -> Option<Entry> {
        let e = self.slots[self.index(key)];
        (e.key == key).then_some(e)
    }

    fn put(&mut self, e: Entry) {
        let i = self.index(e.key);
        self.slots[i] = e;
    }

    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }
}

/// A turn: one or two stones.
pub type Turn = Vec<Stone>;

/// The moves of a turn-start node, best first. Empty when the side to move is lost (three or
/// more threats against it and no win of its own) or there is no empty cell.
pub fn turn_moves(board: &mut Board, width: Width) -> Vec<Turn> {
    let me = board.side();
    let them = me.opponent();
    let left = board.pos.stones_left_in_turn();
    let threats = board.pos.threats(them);
    if threats > left as u32 {
        return Vec::new();
    }
    if left == 1 {
        // Black's opening stone, or a puzzle set up mid-turn: single stones.
        let cells = if threats == 1 {
            let sets = board.pos.blocking_sets(them, 1);
            sets.into_iter().flatten().collect()
        } else {
            board.top_cells(me, width.wide)
        };
        return cells.into_iter().map(|c| vec![c]).collect();
    }
    let mut scored: Vec<(i32, [Stone; 2])> = Vec::new();
    let mut seen = fxhash::FxHashSet::default();
    let mut consider =
        |board: &mut Board, a: Stone, b: Stone, scored: &mut Vec<(i32, [Stone; 2])>| {
            let key = (a.min(b), a.max(b));
            if a == b || !seen.insert(key) {
                return;
            }
            board.play(a);
            board.play(b);
            // After our pair the opponent is to move; its view, negated, is ours.
            let value = -board.order_value(them);
            board.undo(b);
            board.undo(a);
            scored.push((value, [a, b]));
        };
    match threats {
        2 => {
            for set in board.pos.blocking_sets(them, 2) {
                if let [a, b] = set[..] {
                    consider(board, a, b, &mut scored);
                }
            }
        }
        1 => {
            for set in board.pos.blocking_sets(them, 2) {
                match set[..] {
                    [a] => {
                        board.play(a);
                        let seconds = board.top_cells(me, width.wide2 + 2);
                        board.undo(a);
                        for b in seconds {
                            consider(board, a, b, &mut scored);
                        }
                    }
                    [a, b] => consider(board, a, b, &mut scored),
                    _ => {}
                }
            }
        }
        _ => {
            for a in board.top_cells(me, width.wide) {
                board.play(a);
                let won = board.pos.winner().is_some();
                let seconds = if won {
                    Vec::new()
                } else {
                    board.top_cells(me, width.wide2)
                };
                board.undo(a);
                for b in seconds {
                    consider(board, a, b, &mut scored);
                }
            }
        }
    }
    scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let keep = if threats == 0 {
        width.pairs
    } else {
        scored.len()
    };
    scored.truncate(keep.max(1));
    scored.into_iter().map(|(_, p)| p.to_vec()).collect()
}

pub struct Searcher<'a> {
    pub board: &'a mut Board,
    pub table: &'a mut Table,
    pub budget: &'a mut Budget,
    pub width: Width,
}

impl Searcher<'_> {
    /// Negamax value of the turn-start position for the side to move, `depth` turns deep.
    pub fn search(&mut self, depth: u8, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.budget.tick();
        if self.budget.stopped() {
            return 0;
        }
        let me = self.board.side();
        let them = me.opponent();
        let left = self.board.pos.stones_left_in_turn();
        if self.board.pos.immediate_win(me, left).is_some() {
            return WIN - ply;
        }
        // Counted once: the loss test, the leaf's value and the reductions all need it.
        let against = self.board.pos.threats(them);
        if against > left as u32 {
            return -(WIN - ply - 1);
        }
        if self.board.is_over() {
            return 0; // a full board
        }
        if depth == 0 {
            if self.width.leaf_threats && super::threats::has_triple_threat(self.board) {
                return WIN - ply - 1;
            }
            return self.board.evaluate_facing(me, against);
        }
        let key = self.board.pos.hash();
        let mut first: Option<[Stone; 2]> = None;
        if let Some(e) = self.table.get(key) {
            if e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    return e.value;
                }
            }
            if e.has_best {
                first = Some(e.best);
            }
        }
        let mut moves = turn_moves(self.board, self.width.at(ply));
        if moves.is_empty() {
            return -(WIN - ply - 1);
        }
        if let Some(f) = first {
            if let Some(i) = moves.iter().position(|m| stones2(m) == f) {
                moves[..=i].rotate_right(1);
            }
        }
        let alpha0 = alpha;
        let mut best = -WIN;
        let mut best_move = stones2(&moves[0]);
        // Reductions only where nothing forces the turn: under threat every defence matters.
        let quiet = against == 0;
        for (i, m) in moves.iter().enumerate() {
            let v = if i == 0 || !self.width.pvs {
                self.try_turn(m, depth, alpha, beta, ply)
            } else {
                self.try_later_turn(m, i, quiet, depth, alpha, beta, ply)
            };
            if self.budget.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_move = stones2(m);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.put(Entry {
            key,
            value: best,
            depth,
            bound,
            best: best_move,
            has_best: true,
        });
        best
    }

    /// A turn after the first at a principal-variation node: a null-window search, two turns
    /// shallower if it is a late quiet turn, then a full search only if it may beat `alpha`.
    #[allow(clippy::too_many_arguments)]
    fn try_later_turn(
        &mut self,
        m: &[Stone],
        index: usize,
        quiet: bool,
        depth: u8,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        let lmr = self.width.lmr;
        // Two turns less, not one: a leaf's value leans to the side to move (its tempo), so a
        // search of the other parity would not compare with its siblings.
        let reduced = quiet && lmr > 0 && index >= lmr && depth >= 3;
        let first_depth = if reduced { depth - 2 } else { depth };
        let v = self.try_turn(m, first_depth, alpha, alpha + 1, ply);
        if self.budget.stopped() || v <= alpha || (!reduced && v >= beta) {
            return v;
        }
        self.try_turn(m, depth, alpha, beta, ply)
    }

    /// Plays the turn `m`, searches the reply, takes it back; the value is ours.
    pub fn try_turn(&mut self, m: &[Stone], depth: u8, alpha: i32, beta: i32, ply: i32) -> i32 {
        for &s in m {
            self.board.play(s);
        }
        let v = if self.board.pos.winner().is_some() {
            WIN - ply
        } else {
            -self.search(depth - 1, -beta, -alpha, ply + 1)
        };
        for &s in m.iter().rev() {
            self.board.undo(s);
        }
        v
    }
}

/// A turn as a fixed pair (a single stone repeats itself), for the table.
fn stones2(m: &[Stone]) -> [Stone; 2] {
    [m[0], *m.get(1).unwrap_or(&m[0])]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect6::{Connect6, Connect6Rules};

    /// Plain negamax over the same turns and leaves, with no window, no table and no null
    /// windows: what the real search must agree with.
    fn negamax(board: &mut Board, width: Width, depth: u8, ply: i32) -> i32 {
        let me = board.side();
        let left = board.pos.stones_left_in_turn();
        if board.pos.immediate_win(me, left).is_some() {
            return WIN - ply;
        }
        if board.pos.threats(me.opponent()) > left as u32 {
            return -(WIN - ply - 1);
        }
        if board.is_over() {
            return 0;
        }
        if depth == 0 {
            return board.evaluate(me);
        }
        let moves = turn_moves(board, width.at(ply));
        if moves.is_empty() {
            return -(WIN - ply - 1);
        }
        let mut best = -WIN;
        for m in &moves {
            for &s in m {
                board.play(s);
            }
            let v = if board.pos.winner().is_some() {
                WIN - ply
            } else {
                -negamax(board, width, depth - 1, ply + 1)
            };
            for &s in m.iter().rev() {
                board.undo(s);
            }
            best = best.max(v);
        }
        best
    }

    /// Alpha-beta with its window cuts and the table's turn tried first gives the negamax value
    /// at every depth of an iterative deepening over one table, along a game that runs into
    /// threats.
    #[test]
    fn the_search_agrees_with_plain_negamax() {
        agrees_with_negamax(false);
    }

    /// The same with null windows and re-searches (no reductions, which change the value).
    #[test]
    fn the_principal_variation_search_agrees_with_plain_negamax() {
        agrees_with_negamax(true);
    }

    /// Nodes near the root generated wider than the rest: the search and negamax still agree.
    #[test]
    fn a_wider_search_near_the_root_agrees_with_plain_negamax() {
        agrees_with_negamax_at(Width {
            near_plies: 1,
            near_wide: 7,
            near_pairs: 12,
            ..narrow(true)
        });
    }

    fn agrees_with_negamax(pvs: bool) {
        agrees_with_negamax_at(narrow(pvs));
    }

    fn narrow(pvs: bool) -> Width {
        Width {
            wide: 5,
            wide2: 4,
            pairs: 8,
            leaf_threats: false,
            pvs,
            lmr: 0,
            near_plies: 0,
            ..Width::default()
        }
    }

    /// Within `near_plies` of the root the near numbers apply, beyond them the usual ones.
    #[test]
    fn the_near_width_applies_only_near_the_root() {
        let w = Width {
            wide: 9,
            pairs: 28,
            near_plies: 2,
            near_wide: 12,
            near_pairs: 40,
            ..Width::default()
        };
        assert_eq!((w.at(1).wide, w.at(1).pairs), (12, 40));
        assert_eq!((w.at(2).wide, w.at(2).pairs), (12, 40));
        assert_eq!((w.at(3).wide, w.at(3).pairs), (9, 28));
        assert_eq!(w.at(3).near_plies, 2);
        let off = Width { near_plies: 0, ..w };
        assert_eq!((off.at(1).wide, off.at(1).pairs), (9, 28));
        // On a quiet board the wider generation really offers more turns.
        let mut board = Board::new(&Connect6::new(Connect6Rules::with_size(19).unwrap()));
        for s in [180, 181, 200] {
            board.play(s);
        }
        assert_eq!(turn_moves(&mut board, w.at(1)).len(), 40);
        assert_eq!(turn_moves(&mut board, w.at(3)).len(), 28);
    }

    fn agrees_with_negamax_at(width: Width) {
        let mut board = Board::new(&Connect6::new(Connect6Rules::with_size(13).unwrap()));
        let (mut checked, mut threatened) = (0, 0);
        for turn in 0..14 {
            let moves = turn_moves(&mut board, width);
            if moves.is_empty() || board.is_over() {
                break;
            }
            if board.pos.stones_left_in_turn() == 2 {
                if board.pos.threats(board.side().opponent()) > 0 {
                    threatened += 1;
                }
                let mut table = Table::new(12);
                for depth in 1..=4 {
                    let expected = negamax(&mut board, width, depth, 0);
                    let mut budget = Budget::nodes(u64::MAX);
                    let mut searcher = Searcher {
                        board: &mut board,
                        table: &mut table,
                        budget: &mut budget,
                        width,
                    };
                    let value = searcher.search(depth, -WIN, WIN, 0);
                    assert_eq!(value, expected, "turn {turn}, depth {depth}");
                    checked += 1;
                }
            }
            // Not always the best turn, so that the game gets sharp for both sides.
            for &s in &moves[turn % 3 % moves.len()] {
                board.play(s);
            }
        }
        assert!(checked >= 30 && threatened >= 2, "{checked} {threatened}");
    }
}
