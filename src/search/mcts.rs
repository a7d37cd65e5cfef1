//! Monte-Carlo tree search with RAVE (rapid action value estimation), single-threaded, generic
//! over any game that can play itself out to the end.
//!
//! Each iteration walks down the tree by a UCT score blended with the all-moves-as-first (AMAF)
//! statistics, expands a leaf once it has been visited `expand_after` times, plays a random game
//! with the game's own policy, and backs the result up. RAVE matters in games like NoGo where a
//! point's value hardly depends on when it is played. The move played is the most-visited one.
//! The tree can be kept between turns: `advance` re-roots it on the moves actually played.

use super::clock::Limits;
use crate::game::bitset::bit;
use crate::game::{Color, Game, Outcome};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::{Duration, Instant};

/// A set of move slots, for AMAF bookkeeping.
pub trait MoveSet: Copy + Default {
    fn insert(&mut self, slot: usize);
    fn contains(&self, slot: usize) -> bool;
}

impl MoveSet for u128 {
    #[inline]
    fn insert(&mut self, slot: usize) {
        *self |= bit(slot);
    }
    #[inline]
    fn contains(&self, slot: usize) -> bool {
        *self & bit(slot) != 0
    }
}

/// What MCTS needs beyond the `Game` trait: a playout policy and a dense index of moves.
pub trait Playout: Game {
    type Set: MoveSet;
    /// A dense index of the move, for AMAF sets.
    fn slot(m: Self::Move) -> usize;
    /// Plays the game out to its end with the game's own policy, recording in `played` the
    /// moves each colour made, and returns the result.
    fn rollout(&mut self, rng: &mut SmallRng, played: &mut [Self::Set; 2]) -> Outcome;
    /// Legal moves for expanding a tree node, each with the game's first opinion of it; may
    /// refresh caches in the position.
    fn expansion_moves(&mut self) -> Vec<(Self::Move, Hint)> {
        self.legal_moves()
            .into_iter()
            .map(|m| (m, Hint::Neutral))
            .collect()
    }
}

/// A game's first opinion of a move, before any playout: it seeds the move's AMAF statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    Neutral,
    /// Usually a poor move (NoGo: filling one's own reserve point).
    Weak,
}

#[derive(Clone, Copy, Debug)]
pub struct MctsParams {
    /// Weight of the UCB exploration term.
    pub exploration: f32,
    /// Visits at which the tree value and the AMAF value weigh the same.
    pub rave_equivalence: f32,
    /// Virtual AMAF visits given to every new child, at an even result (or at `weak_prior` for
    /// moves the game hints are weak).
    pub rave_prior: f32,
    /// The virtual AMAF win rate of a move hinted weak.
    pub weak_prior: f32,
    /// A leaf becomes a tree node after this many visits.
    pub expand_after: u32,
    /// Upper bound on tree nodes (memory); past it the tree stops growing.
    pub max_nodes: usize,
}

impl Default for MctsParams {
    fn default() -> MctsParams {
        MctsParams {
            // Tuned by arena matches (2000 and 20000 playouts a move): with RAVE guiding the
            // tree, little UCB exploration is best (0.25 lost 24-76 to 0.1 at 20000 playouts).
            exploration: 0.05,
            rave_equivalence: 800.0,
            rave_prior: 20.0,
            weak_prior: 0.5,
            expand_after: 1,
            // 24-byte nodes: about 96 MB at most, well inside Botzone's 256 MB.
            max_nodes: 4_000_000,
        }
    }
}

#[derive(Clone, Debug)]
struct Node<M> {
    mv: M,
    expanded: bool,
    num_children: u16,
    first_child: u32,
    visits: u32,
    /// Wins of the player who made `mv`, draws counted half.
    wins: f32,
    rave_visits: f32,
    rave_wins: f32,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchReport<M> {
    /// `None` only when the side to move has no legal move.
    pub best: Option<M>,
    /// Estimated chance that the side to move wins, from its best move's statistics.
    pub win_rate: f32,
    /// Playouts run by this search.
    pub playouts: u64,
    /// Visits of the chosen move (including visits inherited from earlier turns).
    pub best_visits: u32,
    pub nodes: usize,
    pub elapsed: Duration,
    /// The most-visited line from the root.
    pub principal_variation: Vec<M>,
}

pub struct Mcts<G: Playout> {
    root_pos: G,
    nodes: Vec<Node<G::Move>>,
    params: MctsParams,
    rng: SmallRng,
    inv_sqrt_table: Vec<f32>,
    /// Index of the root node. Re-rooting after a move only moves this index: the work of
    /// copying the kept subtree is left to the next search, whose deadline covers it. (Done right
    /// after our answer instead, it would run after Botzone has frozen the process and be
    /// charged, unseen by our clock, to the next turn.)
    root: usize,
}

/// Compact the arena at the start of a search once it is this full.
const COMPACT_AT: f64 = 0.5;

impl<G: Playout> Mcts<G> {
    pub fn new(root_pos: G, params: MctsParams, seed: u64) -> Mcts<G> {
        let inv_sqrt_table = (0..4096).map(|v| 1.0 / (v as f32 + 1.0).sqrt()).collect();
        let mut m = Mcts {
            root_pos,
            nodes: Vec::new(),
            params,
            rng: SmallRng::seed_from_u64(seed),
            inv_sqrt_table,
            root: 0,
        };
        m.reset_tree();
        m
    }

    fn reset_tree(&mut self) {
        self.nodes.clear();
        self.nodes.push(Self::leaf(None));
        self.root = 0;
    }

    fn leaf(mv: Option<G::Move>) -> Node<G::Move> {
        Node {
            // The root has no move of its own; its `mv` is never read.
            mv: mv.unwrap_or_default(),
            expanded: false,
            num_children: 0,
            first_child: 0,
            visits: 0,
            wins: 0.0,
            rave_visits: 0.0,
            rave_wins: 0.0,
        }
    }

    /// A new child, its AMAF statistics seeded with the prior's virtual visits.
    fn child(&self, mv: G::Move, hint: Hint) -> Node<G::Move> {
        let p = &self.params;
        let mean = match hint {
            Hint::Neutral => 0.5,
            Hint::Weak => p.weak_prior,
        };
        Node {
            rave_visits: p.rave_prior,
            rave_wins: mean * p.rave_prior,
            ..Self::leaf(Some(mv))
        }
    }

    pub fn root_position(&self) -> &G {
        &self.root_pos
    }

    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits already accumulated at the root (non-zero after a successful `advance`).
    pub fn root_visits(&self) -> u32 {
        self.nodes[self.root].visits
    }

    /// Moves the root along `m` (just played), keeping the subtree below it. Returns whether
    /// any statistics were kept.
    pub fn advance(&mut self, m: G::Move) -> bool {
        let child = self.children(self.root).find(|&c| self.nodes[c].mv == m);
        self.root_pos.play(m);
        match child {
            Some(c) if self.nodes[c].visits > 0 => {
                self.root = c;
                true
            }
            _ => {
                self.reset_tree();
                false
            }
        }
    }

    /// Starts over from a new position, dropping the tree.
    pub fn set_root(&mut self, pos: G) {
        self.root_pos = pos;
        self.reset_tree();
    }

    fn children(&self, n: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[n];
        let start = node.first_child as usize;
        start..start + node.num_children as usize
    }

    fn expand(&mut self, n: usize, pos: &mut G) {
        let moves = pos.expansion_moves();
        self.nodes[n].expanded = true;
        if self.nodes.len() + moves.len() > self.params.max_nodes {
            self.nodes[n].expanded = false;
            return;
        }
        let first = self.nodes.len();
        let children: Vec<Node<G::Move>> =
            moves.iter().map(|&(m, hint)| self.child(m, hint)).collect();
        self.nodes.extend(children);
        self.nodes[n].first_child = first as u32;
        self.nodes[n].num_children = moves.len() as u16;
    }

    fn select_child(&self, n: usize) -> usize {
        let p = &self.params;
        let explore = p.exploration * (self.nodes[n].visits.max(1) as f32).ln().sqrt();
        let inv_k = 1.0 / p.rave_equivalence;
        let mut best = usize::MAX;
        let mut best_score = f32::NEG_INFINITY;
        for c in self.children(n) {
            let ch = &self.nodes[c];
            let visits = ch.visits as f32;
            // The AMAF statistics include the prior's virtual visits (see `child`).
            let (rv, rw) = (ch.rave_visits, ch.rave_wins);
            // The blend (1 - b) * wins / visits + b * rw / rv with b = rv / (rv + visits +
            // rv * visits / k), written with a single division.
            let blended = (ch.wins * (1.0 + rv * inv_k) + rw) / (rv + visits + rv * visits * inv_k);
            let score = blended + explore * self.inv_sqrt(ch.visits);
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        best
    }

    /// 1 / sqrt(visits + 1), tabulated for the small counts that dominate the tree.
    #[inline]
    fn inv_sqrt(&self, visits: u32) -> f32 {
        match self.inv_sqrt_table.get(visits as usize) {
            Some(&v) => v,
            None => 1.0 / (visits as f32 + 1.0).sqrt(),
        }
    }

    /// Runs playouts until the limits say stop, then reports the most-visited move.
    pub fn search(&mut self, limits: Limits) -> SearchReport<G::Move> {
        let start = Instant::now();
        let mut playouts = 0u64;
        let mut path: Vec<(usize, Color)> = Vec::with_capacity(128);
        // Drop what earlier moves left unreachable, inside this search's time.
        if self.root != 0 && self.nodes.len() as f64 > COMPACT_AT * self.params.max_nodes as f64 {
            compact(&mut self.nodes, self.root);
            self.root = 0;
        }
        if !self.nodes[self.root].expanded {
            let mut pos = self.root_pos.clone();
            self.expand(self.root, &mut pos);
            if !self.nodes[self.root].expanded {
                // No room even for the root's children: start a fresh tree rather than fail.
                self.reset_tree();
                self.expand(self.root, &mut pos);
            }
        }
        // With a single legal move there is nothing to think about.
        let forced = self.nodes[self.root].num_children <= 1;
        if !forced {
            loop {
                // The playout cap is exact; the clock is read every 8 playouts (a few µs).
                if limits.max_iterations.is_some_and(|m| playouts >= m)
                    || (playouts.is_multiple_of(8) && limits.done(playouts, Instant::now()))
                {
                    break;
                }
                self.iterate(&mut path);
                playouts += 1;
            }
        }
        self.report(playouts, start.elapsed())
    }

    fn iterate(&mut self, path: &mut Vec<(usize, Color)>) {
        let mut pos = self.root_pos.clone();
        let mut played = [G::Set::default(); 2];
        path.clear();
        let mut n = self.root;
        loop {
            let mover = pos.side_to_move();
            path.push((n, mover));
            if !self.nodes[n].expanded {
                if n != self.root && self.nodes[n].visits >= self.params.expand_after {
                    self.expand(n, &mut pos);
                }
                if !self.nodes[n].expanded || self.nodes[n].num_children == 0 {
                    break;
                }
            } else if self.nodes[n].num_children == 0 {
                break;
            }
            n = self.select_child(n);
            let m = self.nodes[n].mv;
            played[mover.index()].insert(G::slot(m));
            pos.play(m);
        }
        let outcome = pos.rollout(&mut self.rng, &mut played);
        self.backup(path, outcome, played);
    }

    fn backup(&mut self, path: &[(usize, Color)], outcome: Outcome, mut played: [G::Set; 2]) {
        let score = |c: Color| match outcome {
            Outcome::Win(w) if w == c => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        };
        // Walk up from the leaf. `path[i].1` is the side to move at node `path[i].0`, i.e. the
        // player of its children's moves; the node itself was reached by the other player.
        for i in (0..path.len()).rev() {
            let (n, to_move) = path[i];
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.wins += score(to_move.opponent());
            if i + 1 < path.len() {
                // Moves from this depth onward count for AMAF; add the tree move made here.
                let m = self.nodes[path[i + 1].0].mv;
                played[to_move.index()].insert(G::slot(m));
            }
            let mine = played[to_move.index()];
            let s = score(to_move);
            // Branch-free: about half the children match, which a branch would mispredict.
            let range = self.children(n);
            for ch in &mut self.nodes[range] {
                let hit = mine.contains(G::slot(ch.mv)) as u32 as f32;
                ch.rave_visits += hit;
                ch.rave_wins += s * hit;
            }
        }
    }

    fn report(&self, playouts: u64, elapsed: Duration) -> SearchReport<G::Move> {
        let best = self
            .children(self.root)
            .max_by_key(|&c| self.nodes[c].visits);
        let mut pv = Vec::new();
        let mut n = best;
        while let Some(c) = n {
            if self.nodes[c].visits == 0 {
                break;
            }
            pv.push(self.nodes[c].mv);
            n = self.children(c).max_by_key(|&g| self.nodes[g].visits);
        }
        let (win_rate, best_visits) = match best {
            Some(c) if self.nodes[c].visits > 0 => (
                self.nodes[c].wins / self.nodes[c].visits as f32,
                self.nodes[c].visits,
            ),
            _ => (0.5, 0),
        };
        SearchReport {
            best: best.map(|c| self.nodes[c].mv),
            win_rate,
            playouts,
            best_visits,
            nodes: self.nodes.len(),
            elapsed,
            principal_variation: pv,
        }
    }
}

/// Keeps only the subtree rooted at `root`, moved to the front of the same arena (`root` at
/// index 0), in the order the nodes were made. Done in place because the arena is the bot's
/// whole memory: a copy into a new arena held both at once, which took a NoGo process at
/// Botzone's Python limits to 203 MB of its 256 MB. A descendant is always made after its
/// ancestors and a node's children are made together, so the kept nodes keep their relative
/// order, every child block stays contiguous, and each kept node moves only towards the front.
fn compact<M: Copy>(nodes: &mut Vec<Node<M>>, root: usize) {
    let kept = KeptSet::of_subtree(nodes, root);
    let mut write = 0;
    for read in 0..nodes.len() {
        if !kept.contains(read) {
            continue;
        }
        let mut node = nodes[read].clone();
        // A leaf's empty range starts at 0, inside the arena whatever is dropped.
        node.first_child = if node.num_children > 0 {
            kept.rank(node.first_child as usize) as u32
        } else {
            0
        };
        // `write <= read`: the slot written was already read.
        nodes[write] = node;
        write += 1;
    }
    nodes.truncate(write);
}

/// A set of arena indices (a bit each) that also tells how many members lie below an index.
struct KeptSet {
    bits: Vec<u64>,
    /// Members in the words before each word.
    before: Vec<u32>,
}

impl KeptSet {
    /// The nodes of the subtree rooted at `root`.
    fn of_subtree<M>(nodes: &[Node<M>], root: usize) -> KeptSet {
        let mut bits = vec![0u64; nodes.len().div_ceil(64)];
        let mut stack = vec![root];
        bits[root / 64] |= 1 << (root % 64);
        while let Some(n) = stack.pop() {
            let first = nodes[n].first_child as usize;
            for c in first..first + nodes[n].num_children as usize {
                bits[c / 64] |= 1 << (c % 64);
                if nodes[c].num_children > 0 {
                    stack.push(c);
                }
            }
        }
        let mut before = Vec::with_capacity(bits.len());
        let mut count = 0u32;
        for word in &bits {
            before.push(count);
            count += word.count_ones();
        }
        KeptSet { bits, before }
    }

    fn contains(&self, i: usize) -> bool {
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    /// How many members have a smaller index than `i`: `i`'s place once compacted.
    fn rank(&self, i: usize) -> usize {
        let below = self.bits[i / 64] & ((1u64 << (i % 64)) - 1);
        self.before[i / 64] as usize + below.count_ones() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nogo::{Nogo, NogoRules};

    /// Searching, re-rooting on the moves played and searching again keeps a consistent tree,
    /// also when a small node cap makes every search compact the arena first.
    #[test]
    fn tree_survives_many_advances() {
        for max_nodes in [MctsParams::default().max_nodes, 3_000] {
            advance_through_a_game(MctsParams {
                max_nodes,
                ..MctsParams::default()
            });
        }
    }

    #[test]
    fn advancing_is_cheap_and_keeps_the_statistics() {
        let mut mcts = Mcts::new(Nogo::new(NogoRules::default()), MctsParams::default(), 6);
        let report = mcts.search(Limits::iterations(2000));
        let before = mcts.tree_size();
        let m = report.best.unwrap();
        assert!(mcts.advance(m));
        // No copy happens at the advance itself...
        assert_eq!(mcts.tree_size(), before);
        assert_eq!(mcts.root_visits(), report.best_visits);
        // ...and the next search still starts from the kept statistics.
        let again = mcts.search(Limits::iterations(100));
        assert!(again.best.is_some());
        assert!(mcts.root_visits() >= report.best_visits + 100);
    }

    /// The subtree below `n`, depth first: each node's move and statistics, child order kept.
    fn subtree_shape<M: Copy + std::fmt::Debug>(nodes: &[Node<M>], n: usize) -> Vec<String> {
        let node = &nodes[n];
        let mut out = vec![format!(
            "{:?} {} {} {} {} {} {}",
            node.mv,
            node.expanded,
            node.num_children,
            node.visits,
            node.wins,
            node.rave_visits,
            node.rave_wins
        )];
        let first = node.first_child as usize;
        for c in first..first + node.num_children as usize {
            out.extend(subtree_shape(nodes, c));
        }
        out
    }

    /// Compacting leaves exactly the subtree below the new root, statistics and child order
    /// included, and nothing else.
    #[test]
    fn compaction_keeps_exactly_the_subtree() {
        let params = MctsParams {
            max_nodes: 50_000,
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(Nogo::new(NogoRules::default()), params, 11);
        let mut compacted = 0;
        for _ in 0..16 {
            let report = mcts.search(Limits::iterations(600));
            let Some(m) = report.best else { break };
            if !mcts.advance(m) {
                continue;
            }
            let expected = subtree_shape(&mcts.nodes, mcts.root);
            let mut nodes = mcts.nodes.clone();
            compact(&mut nodes, mcts.root);
            assert!(nodes.len() < mcts.nodes.len(), "something was dropped");
            assert_eq!(nodes.len(), expected.len(), "only the subtree is left");
            assert_eq!(subtree_shape(&nodes, 0), expected);
            compacted += 1;
        }
        assert!(compacted >= 8, "only {compacted} positions compacted");
    }

    fn advance_through_a_game(params: MctsParams) {
        let mut mcts = Mcts::new(Nogo::new(NogoRules::default()), params, 5);
        let mut pos = Nogo::new(NogoRules::default());
        while pos.outcome().is_none() {
            let report = mcts.search(Limits::iterations(300));
            let m = report.best.expect("a legal move exists");
            assert!(pos.is_legal(m));
            mcts.advance(m);
            pos.play(m);
            assert_eq!(mcts.root_position().hash(), pos.hash());
            for n in 0..mcts.nodes.len() {
                let r = mcts.children(n);
                assert!(
                    r.end <= mcts.nodes.len(),
                    "node {n} children {r:?} of {}",
                    mcts.nodes.len()
                );
            }
        }
    }
}
