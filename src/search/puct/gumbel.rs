//! Gumbel root selection (after Danihelka et al., "Policy improvement by planning with Gumbel",
//! ICLR 2022), for self-play at a few dozen visits a move, where PUCT's visit counts say little.
//!
//! The root draws `considered` moves without replacement from its prior, by adding Gumbel noise
//! to the prior's logits and keeping the best; sequential halving then shares the visits among
//! them, phase by phase, dropping the worse half of the survivors after each phase by
//! `noise + logit + sigma(q)`. The last survivor is the move to play: a draw from a policy
//! better than the prior. The training target is that improved policy itself,
//! `softmax(logit + sigma(completed q))` over every legal move, where a move never visited
//! borrows the root's value: it stays meaningful at any number of visits.
//!
//! Below the root the tree is PUCT's as it stands.

use super::Puct;
use crate::game::Game;
use rand::Rng;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GumbelParams {
    /// Moves drawn at the root for sequential halving (16 in the paper's board games).
    pub considered: usize,
    /// `sigma(q) = (c_visit + most visits of a root move) * c_scale * q`, q from 0 to 1: as
    /// visits grow the results outweigh the prior.
    pub c_visit: f32,
    pub c_scale: f32,
    /// Whether to add the Gumbel noise (self-play) or rank by the prior alone (tests, play).
    pub noise: bool,
}

impl Default for GumbelParams {
    fn default() -> GumbelParams {
        GumbelParams {
            considered: 16,
            c_visit: 50.0,
            c_scale: 1.0,
            noise: true,
        }
    }
}

/// What a Gumbel search decided.
#[derive(Clone, Debug)]
pub struct GumbelChoice<M> {
    /// The move to play; `None` when the game is over.
    pub chosen: Option<M>,
    /// The improved policy over every legal move, summing to 1.
    pub policy: Vec<(M, f32)>,
    /// The chosen move's mean result, -1 to 1, for the side to move (the root's own value
    /// when the move was never visited).
    pub value: f32,
    /// Visits made by this search.
    pub visits: u64,
}

/// A draw from the standard Gumbel distribution.
fn gumbel(rng: &mut impl Rng) -> f32 {
    // `gen` is in [0, 1): the floor keeps both logarithms finite.
    let u: f64 = rng.gen::<f64>().max(1e-12);
    -(-u.ln()).ln() as f32
}

impl<G: Game> Puct<G> {
    /// A search of `simulations` visits whose root is chosen by Gumbel sequential halving.
    pub fn search_gumbel(
        &mut self,
        simulations: u32,
        params: GumbelParams,
        rng: &mut impl Rng,
    ) -> GumbelChoice<G::Move> {
        self.prepare_root();
        let children: Vec<usize> = self.children(self.root).collect();
        let root_value = -self.nodes[self.root].mean();
        if children.is_empty() {
            return GumbelChoice {
                chosen: None,
                policy: Vec::new(),
                value: root_value,
                visits: 0,
            };
        }
        let logits: Vec<f32> = children
            .iter()
            .map(|&c| self.nodes[c].prior.max(1e-8).ln())
            .collect();
        let noise: Vec<f32> = children
            .iter()
            .map(|_| if params.noise { gumbel(rng) } else { 0.0 })
            .collect();
        // Candidates are indices into `children`, best first by noise + logit.
        let mut candidates: Vec<usize> = (0..children.len()).collect();
        candidates.sort_by(|&a, &b| (noise[b] + logits[b]).total_cmp(&(noise[a] + logits[a])));
        candidates.truncate(params.considered.max(1));

        let mut visits = 0u64;
        let mut path = Vec::with_capacity(96);
        let budget = simulations as u64;
        let phases = (candidates.len() as f64).log2().ceil().max(1.0) as u64;
        let mut room = true;
        while room && visits < budget && candidates.len() > 1 {
            let k = candidates.len() as u64;
            // Each phase has an equal share of the budget; the last takes what is left.
            let share = if k <= 2 {
                budget - visits
            } else {
                budget / phases
            };
            let each = (share / k).max(1);
            'phase: for _ in 0..each {
                for &i in &candidates {
                    if visits >= budget {
                        break 'phase;
                    }
                    if !self.visit_through(&mut path, Some(children[i])) {
                        room = false;
                        break 'phase;
                    }
                    visits += 1;
                }
            }
            let score = self.scores(&children, &logits, &noise, params);
            candidates.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
            candidates.truncate(candidates.len().div_ceil(2));
        }
        let chosen = candidates[0];
        let policy = self.improved_policy(&children, &logits, params, root_value);
        let node = &self.nodes[children[chosen]];
        GumbelChoice {
            chosen: Some(node.mv),
            policy,
            value: if node.visits > 0 {
                node.mean()
            } else {
                root_value
            },
            visits,
        }
    }

    /// `sigma` of a mean result from -1 to 1.
    fn sigma(&self, children: &[usize], mean: f32, params: GumbelParams) -> f32 {
        let most = children
            .iter()
            .map(|&c| self.nodes[c].visits)
            .max()
            .unwrap_or(0) as f32;
        (params.c_visit + most) * params.c_scale * (mean + 1.0) / 2.0
    }

    /// The halving's ranking: noise + logit + sigma(q), a move never visited ranked by its
    /// noise and logit alone (it stands below every visited one only if its prior does).
    fn scores(
        &self,
        children: &[usize],
        logits: &[f32],
        noise: &[f32],
        params: GumbelParams,
    ) -> Vec<f32> {
        children
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let node = &self.nodes[c];
                let q = if node.visits > 0 {
                    self.sigma(children, node.mean(), params)
                } else {
                    0.0
                };
                noise[i] + logits[i] + q
            })
            .collect()
    }

    /// `softmax(logit + sigma(completed q))`: a move without visits takes the value mixed from
    /// the root's own and the prior-weighted results of the visited moves.
    fn improved_policy(
        &self,
        children: &[usize],
        logits: &[f32],
        params: GumbelParams,
        root_value: f32,
    ) -> Vec<(G::Move, f32)> {
        let nodes: Vec<_> = children.iter().map(|&c| self.nodes[c]).collect();
        let visited: u64 = nodes.iter().map(|n| n.visits as u64).sum();
        let prior_visited: f32 = nodes.iter().filter(|n| n.visits > 0).map(|n| n.prior).sum();
        let weighted: f32 = nodes
            .iter()
            .filter(|n| n.visits > 0)
            .map(|n| n.prior * n.mean())
            .sum();
        let mixed = if visited == 0 || prior_visited <= 0.0 {
            root_value
        } else {
            (root_value + visited as f32 * weighted / prior_visited) / (1.0 + visited as f32)
        };
        let raw: Vec<f32> = nodes
            .iter()
            .zip(logits)
            .map(|(n, &l)| {
                let q = if n.visits > 0 { n.mean() } else { mixed };
                l + self.sigma(children, q, params)
            })
            .collect();
        let top = raw.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let exp: Vec<f32> = raw.iter().map(|r| (r - top).exp()).collect();
        let total: f32 = exp.iter().sum();
        nodes
            .iter()
            .zip(exp)
            .map(|(n, e)| (n.mv, e / total))
            .collect()
    }
}

#[cfg(test)]
mod tests;
