//! PUCT: the tree search of AlphaZero and its descendants. Each new leaf is judged once by an
//! evaluator (a network, perhaps mixed with playouts), which gives the side to move a prior for
//! each legal move and an expected result; the tree then follows
//! `Q + c * P * sqrt(N) / (1 + n)` down to the next leaf.
//!
//! Beside `mcts` (playouts and RAVE, thousands of cheap visits) this search makes a few thousand
//! dear ones, so a node here is small and a visit reads the clock every time.

use super::clock::Limits;
use super::mcts::SearchReport;
use crate::game::{Color, Game, Outcome};
use std::time::Instant;

/// What the tree asks of each new leaf whose game is not over.
pub trait Evaluator<G: Game>: Send {
    /// Each legal move of the side to move with its prior (the priors sum to about 1) and the
    /// side to move's expected result, from -1 (lost) to 1 (won).
    fn evaluate(&mut self, pos: &mut G) -> Evaluated<G::Move>;
}

pub struct Evaluated<M> {
    pub priors: Vec<(M, f32)>,
    pub value: f32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctParams {
    /// The weight of the prior against the results (`c` above; results run from -1 to 1).
    pub c_puct: f32,
    /// A move not yet visited counts as its parent's value less this: an optimistic guess
    /// would make the search try every move once, which a few thousand visits cannot afford.
    pub fpu_reduction: f32,
    /// The tree's size limit in nodes; once it is reached the search stops.
    pub max_nodes: usize,
}

impl Default for PuctParams {
    fn default() -> PuctParams {
        PuctParams {
            // 1.0 beat 1.5 by +55 (+13 to +99) over 179 games at 2,000 visits a move (2.5 lost by
            // 162); 0.7 against 1.0: +23 (-23 to +69) over 242, not taken. At Botzone's 1 s a move
            // it was timed as part of stop 97's default (docs/experiments/nogo.md).
            c_puct: 1.0,
            fpu_reduction: 0.2,
            // Some 20 bytes a node, 40 MB: more than a minute's search at a few thousand leaves
            // a second with some 60 children each.
            max_nodes: 2_000_000,
        }
    }
}

/// One move of the tree. Results are summed for the player who made the move, so a parent
/// picks the child with the highest mean.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    prior: f32,
    visits: u32,
    /// Sum of the results, -1 to 1 each, for the player who made `mv`.
    total: f32,
    /// Index of the first child; the children are contiguous. 0 while not expanded (the root
    /// is node 0 of a fresh tree and is never anyone's child).
    first_child: u32,
    num_children: u16,
    expanded: bool,
}

impl<M> Node<M> {
    fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f32
        }
    }
}

pub struct Puct<G: Game> {
    root_pos: G,
    nodes: Vec<Node<G::Move>>,
    root: usize,
    params: PuctParams,
    evaluator: Box<dyn Evaluator<G>>,
}

/// Compact the tree at the start of a search once it is this full.
const COMPACT_AT: f64 = 0.5;

impl<G: Game> Puct<G> {
    pub fn new(root_pos: G, params: PuctParams, evaluator: Box<dyn Evaluator<G>>) -> Puct<G> {
        let mut p = Puct {
            root_pos,
            nodes: Vec::new(),
            root: 0,
            params,
            evaluator,
        };
        p.reset_tree();
        p
    }

    fn reset_tree(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node {
            mv: G::Move::default(),
            prior: 1.0,
            visits: 0,
            total: 0.0,
            first_child: 0,
            num_children: 0,
            expanded: false,
        });
        self.root = 0;
    }

    pub fn root_position(&self) -> &G {
        &self.root_pos
    }

    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits already at the root (non-zero after an `advance` into a visited move).
    pub fn root_visits(&self) -> u32 {
        self.nodes[self.root].visits
    }

    fn children(&self, n: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[n];
        let first = node.first_child as usize;
        first..first + node.num_children as usize
    }

    /// Each of the root's moves with its visits: the search's distribution over the moves.
    pub fn root_child_visits(&self) -> Vec<(G::Move, u32)> {
        self.children(self.root)
            .map(|c| (self.nodes[c].mv, self.nodes[c].visits))
            .collect()
    }

    /// Moves the root along `m` (just played), keeping the subtree below it. Returns whether
    /// any visits were kept. The copy that drops the rest waits for the next search (see
    /// `mcts::Mcts::root`: done after our answer, its time would go unseen by our clock).
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

    /// Keeps only the subtree under the root, the root at 0, each node's children still
    /// contiguous.
    fn compact(&mut self) {
        let mut kept = Vec::with_capacity(self.nodes.len() / 2);
        let mut root = self.nodes[self.root];
        root.prior = 1.0;
        kept.push(root);
        // Breadth first: `kept[i]` still points at its children in the old arena; they are
        // copied to the end and the pointer is moved there.
        let mut i = 0;
        while i < kept.len() {
            let (first, count) = (kept[i].first_child as usize, kept[i].num_children as usize);
            if count > 0 {
                kept[i].first_child = kept.len() as u32;
                kept.extend_from_slice(&self.nodes[first..first + count]);
            }
            i += 1;
        }
        self.nodes = kept;
        self.root = 0;
    }

    /// Gives node `n`, whose position is `pos`, its children; returns the side to move's value.
    fn expand(&mut self, n: usize, pos: &mut G) -> Option<f32> {
        let judged = self.evaluator.evaluate(pos);
        if self.nodes.len() + judged.priors.len() > self.params.max_nodes {
            return None;
        }
        let first = self.nodes.len();
        self.nodes
            .extend(judged.priors.iter().map(|&(mv, prior)| Node {
                mv,
                prior,
                visits: 0,
                total: 0.0,
                first_child: 0,
                num_children: 0,
                expanded: false,
            }));
        let node = &mut self.nodes[n];
        node.first_child = first as u32;
        node.num_children = judged.priors.len() as u16;
        node.expanded = true;
        Some(judged.value)
    }

    /// The child of `n` with the best PUCT score.
    fn select_child(&self, n: usize) -> usize {
        let parent = &self.nodes[n];
        let sqrt_n = (parent.visits.max(1) as f32).sqrt();
        // The parent's mean is for the player who moved into it; its children are the other
        // player's moves.
        let fpu = -parent.mean() - self.params.fpu_reduction;
        let c = self.params.c_puct;
        let mut best = (f32::NEG_INFINITY, self.nodes[n].first_child as usize);
        for i in self.children(n) {
            let child = &self.nodes[i];
            let q = if child.visits == 0 { fpu } else { child.mean() };
            let score = q + c * child.prior * sqrt_n / (1.0 + child.visits as f32);
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    /// Runs visits until the limits say stop (a visit is one leaf evaluated) or the tree is
    /// full, then reports the most-visited move.
    pub fn search(&mut self, limits: Limits) -> SearchReport<G::Move> {
        let start = Instant::now();
        self.prepare_root();
        let mut visits = 0u64;
        // With a single legal move there is nothing to think about.
        if self.nodes[self.root].num_children > 1 {
            let mut path = Vec::with_capacity(96);
            while !limits.done(visits, Instant::now()) && self.visit(&mut path) {
                visits += 1;
            }
        }
        self.report(visits, start)
    }

    /// Compacts a tree grown too full and gives the root its children (once).
    fn prepare_root(&mut self) {
        if self.root != 0 && self.nodes.len() as f64 > COMPACT_AT * self.params.max_nodes as f64 {
            self.compact();
        }
        if !self.nodes[self.root].expanded && self.root_pos.outcome().is_none() {
            let mut pos = self.root_pos.clone();
            let mut value = self.expand(self.root, &mut pos);
            if value.is_none() {
                // No room for the root's children: start a fresh tree rather than fail.
                self.reset_tree();
                value = self.expand(self.root, &mut pos);
            }
            // The root's own evaluation counts as its first visit, as a leaf's does.
            if let Some(v) = value {
                let root = &mut self.nodes[self.root];
                root.visits += 1;
                root.total -= v;
            }
        }
    }

    /// One descent, evaluation and backup; false when the tree has no room for the leaf.
    fn visit(&mut self, path: &mut Vec<usize>) -> bool {
        self.visit_through(path, None)
    }

    /// A visit whose first step is the root's child `first` when given (Gumbel's root
    /// chooses its own moves), the tree's choice below it.
    fn visit_through(&mut self, path: &mut Vec<usize>, first: Option<usize>) -> bool {
        let mut pos = self.root_pos.clone();
        path.clear();
        let mut n = self.root;
        path.push(n);
        let mut forced = first;
        while self.nodes[n].expanded && self.nodes[n].num_children > 0 {
            n = forced.take().unwrap_or_else(|| self.select_child(n));
            pos.play(self.nodes[n].mv);
            path.push(n);
        }
        let to_move = pos.side_to_move();
        // The value for the side to move at the leaf.
        let value = match pos.outcome() {
            Some(Outcome::Win(c)) => outcome_value(c, to_move),
            Some(Outcome::Draw) => 0.0,
            None => match self.expand(n, &mut pos) {
                Some(v) => v,
                None => return false,
            },
        };
        // The leaf's own mover is the other side; signs alternate up the path.
        let mut v = -value;
        for &i in path.iter().rev() {
            let node = &mut self.nodes[i];
            node.visits += 1;
            node.total += v;
            v = -v;
        }
        true
    }

    fn report(&self, visits: u64, start: Instant) -> SearchReport<G::Move> {
        let best = self
            .children(self.root)
            .max_by(|&a, &b| {
                let (x, y) = (&self.nodes[a], &self.nodes[b]);
                (x.visits, x.prior)
                    .partial_cmp(&(y.visits, y.prior))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|c| (self.nodes[c].mv, self.nodes[c].visits, self.nodes[c].mean()));
        // Without a move the root's own mean (for the player who moved into it) says how the
        // side to move stands: its opposite.
        let value = best.map_or(-self.nodes[self.root].mean(), |b| b.2);
        let mut principal_variation = Vec::new();
        let mut n = self.root;
        while let Some(c) = self
            .children(n)
            .filter(|&c| self.nodes[c].visits > 0)
            .max_by_key(|&c| self.nodes[c].visits)
        {
            principal_variation.push(self.nodes[c].mv);
            n = c;
        }
        SearchReport {
            best: best.map(|b| b.0),
            win_rate: (value + 1.0) / 2.0,
            playouts: visits,
            best_visits: best.map_or(0, |b| b.1),
            nodes: self.nodes.len(),
            elapsed: start.elapsed(),
            principal_variation,
        }
    }
}

/// A finished game's result for `side`: 1 if `winner` is it, else -1.
fn outcome_value(winner: Color, side: Color) -> f32 {
    if winner == side {
        1.0
    } else {
        -1.0
    }
}

mod gumbel;
pub use gumbel::{GumbelChoice, GumbelParams};

#[cfg(test)]
mod tests;
