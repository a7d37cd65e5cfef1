//! An exact solver for NoGo endgames: win or loss, by depth-first search to the end of the game.
//!
//! NoGo games between Monte-Carlo programs are decided late, when few contested points are left
//! and the order of the last moves decides who runs out first. There the playouts' estimates
//! swing: in a replayed game a search of 20,000 playouts rated one position 60% for the mover,
//! the next 18%, the next 98%, while this solver proved the second lost and the third won (with
//! the move the game missed) in 0.4 s and 20 ms. The engine can ask it first once the board is
//! full enough and play a proved win at once (`NogoConfig::solve_nodes`, the arena's `solve=`).
//! It is off by default: it finishes only some 16 moves from the end (in two replayed games,
//! positions with 25 and 28 empty points took 2 and 4 million nodes; others with 27 to 32 were
//! not solved in 20 million), where a search of Botzone's second already finds the same moves,
//! and it measured no better than the engine without it.
//!
//! The search is plain negamax on win/loss. Legality only ever shrinks in NoGo, so the side to
//! move with no legal point has lost, and the game is short by then. A transposition table keyed
//! by the position's hash (which fixes the side to move: no passes, so the stone counts do) folds
//! the many orders of the same independent moves; it is kept between turns, since a position's
//! result never changes. Contested points (legal for both) are tried before the mover's reserve
//! points: taking one denies it to the opponent, which is where wins are.

use crate::game::bitset::bits;
use crate::game::nogo::{Nogo, Point};
use crate::game::Game;
use std::time::Instant;

/// What the solver proved about the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This move wins against any defence.
    Win(Point),
    /// Every move loses against best play (or there is no legal move).
    Loss,
    /// The budget ran out first.
    Unknown,
}

/// Entries in the transposition table: 8 MB.
const TABLE_BITS: u32 = 20;

/// The clock is read once per this many nodes.
const CLOCK_EVERY: u64 = 1024;

pub struct Solver {
    /// Each entry: the position's hash with its lowest bit replaced by the result (1: the side to
    /// move wins); 0 is empty. Colliding positions overwrite each other.
    table: Vec<u64>,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
}

impl Solver {
    pub fn new() -> Solver {
        Solver {
            table: vec![0; 1 << TABLE_BITS],
            nodes: 0,
            budget: 0,
            deadline: None,
        }
    }

    /// Forgets every stored result (a new game: the hashes would still be right, but the table
    /// would fill with positions that cannot come back).
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Nodes visited by the last `solve`.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves `pos` for the side to move within `budget` nodes and before `deadline`.
    pub fn solve(&mut self, pos: &Nogo, budget: u64, deadline: Option<Instant>) -> Verdict {
        self.nodes = 0;
        self.budget = budget;
        self.deadline = deadline;
        match self.winning_move(&mut pos.clone()) {
            None => Verdict::Unknown,
            Some(Some(p)) => Verdict::Win(p),
            Some(None) => Verdict::Loss,
        }
    }

    /// The first move after which the opponent loses (`Some(None)`: there is none), or `None`
    /// once the budget is spent.
    fn winning_move(&mut self, pos: &mut Nogo) -> Option<Option<Point>> {
        for p in ordered_moves(pos) {
            let mut child = pos.clone();
            child.play(p);
            if !self.wins(&mut child)? {
                return Some(Some(p));
            }
        }
        Some(None)
    }

    /// Whether the side to move in `pos` wins, or `None` once the budget is spent.
    fn wins(&mut self, pos: &mut Nogo) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        // A spent budget unwinds the whole search at once (every caller passes `None` up), so
        // the clock is read only every so often and nothing needs remembering.
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return None;
        }
        let hash = pos.hash();
        if let Some(known) = self.probe(hash) {
            return Some(known);
        }
        let result = self.winning_move(pos)?.is_some();
        self.store(hash, result);
        Some(result)
    }

    fn slot(hash: u64) -> usize {
        (hash >> (64 - TABLE_BITS)) as usize
    }

    fn probe(&self, hash: u64) -> Option<bool> {
        let e = self.table[Self::slot(hash)];
        (e != 0 && e & !1 == hash & !1).then_some(e & 1 == 1)
    }

    fn store(&mut self, hash: u64, wins: bool) {
        // A hash of 0 or 1 with a loss would read as empty: one lost entry in 2^63.
        self.table[Self::slot(hash)] = (hash & !1) | wins as u64;
    }
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

/// The legal moves of the side to move: contested points first, then its reserve points.
fn ordered_moves(pos: &mut Nogo) -> Vec<Point> {
    let legal = pos.refreshed_legal();
    // With both colours' bans refreshed, the opponent's unbanned empty points are its legal ones.
    let theirs = pos.empty() & !pos.banned(pos.side_to_move().opponent());
    bits(legal & theirs)
        .chain(bits(legal & !theirs))
        .map(|p| p as Point)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nogo::NogoRules;
    use rand::rngs::SmallRng;
    use rand::{RngCore, SeedableRng};

    /// The plain game-theoretic value by brute force: no table, no ordering.
    fn brute_force_wins(pos: &Nogo) -> bool {
        pos.legal_moves().into_iter().any(|p| {
            let mut child = pos.clone();
            child.play(p);
            !brute_force_wins(&child)
        })
    }

    fn random_position(rng: &mut SmallRng, plies: usize) -> Option<Nogo> {
        let mut pos = Nogo::new(NogoRules::default());
        while pos.ply() < plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return None;
            }
            pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
        }
        pos.outcome().is_none().then_some(pos)
    }

    /// Endgames of random games, small enough for brute force: the solver agrees on every one,
    /// its winning move does win, and the table kept from one position to the next never
    /// changes an answer.
    #[test]
    fn the_solver_agrees_with_brute_force_and_its_wins_are_wins() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut solver = Solver::new();
        let (mut wins, mut losses) = (0, 0);
        for _ in 0..300 {
            let Some(pos) = random_position(&mut rng, 66) else {
                continue;
            };
            let truth = brute_force_wins(&pos);
            match solver.solve(&pos, u64::MAX, None) {
                Verdict::Win(p) => {
                    assert!(truth, "claimed a win in a lost position");
                    assert!(pos.is_legal(p));
                    let mut after = pos.clone();
                    after.play(p);
                    assert!(!brute_force_wins(&after), "the winning move does not win");
                    wins += 1;
                }
                Verdict::Loss => {
                    assert!(!truth, "claimed a loss in a won position");
                    losses += 1;
                }
                Verdict::Unknown => panic!("an unlimited budget always decides"),
            }
        }
        assert!(
            wins > 20 && losses > 20,
            "both results seen: {wins} wins, {losses} losses"
        );
    }

    #[test]
    fn a_spent_budget_or_a_past_deadline_gives_unknown() {
        let mut rng = SmallRng::seed_from_u64(6);
        let pos = random_position(&mut rng, 30).expect("a game at move 30");
        let mut solver = Solver::new();
        assert_eq!(solver.solve(&pos, 100, None), Verdict::Unknown);
        assert!(solver.nodes() <= 101);
        let past = Some(Instant::now());
        assert_eq!(solver.solve(&pos, u64::MAX, past), Verdict::Unknown);
        assert!(solver.nodes() <= CLOCK_EVERY + 1);
    }

    #[test]
    fn no_legal_move_is_a_loss() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut pos = Nogo::new(NogoRules::default());
        while pos.outcome().is_none() {
            let moves = pos.legal_moves();
            pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
        }
        assert_eq!(Solver::new().solve(&pos, 10, None), Verdict::Loss);
    }
}
