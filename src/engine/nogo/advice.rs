//! The network's policy as the tree's advisor (`search::mcts::Advisor`): at a node that has
//! earned it, each move's share of the policy becomes a prior win rate, above one half for the
//! moves the network likes more than an even share and below for the others.

use super::features::planes;
use super::network::{policy, Network};
use crate::game::bitset::bits;
use crate::game::nogo::{Nogo, Point};
use crate::search::mcts::Advisor;
use std::sync::Arc;

pub struct NetworkAdvisor {
    pub net: Arc<Network>,
    /// How far from one half the rates go: a move the policy rates `e` times an even share gets
    /// `0.5 + spread * tanh(ln(e) / 2)`.
    pub spread: f32,
}

impl Advisor<Nogo> for NetworkAdvisor {
    fn advise(&mut self, pos: &mut Nogo) -> Option<Vec<(Point, f32)>> {
        // The expansion's moves, in its order: the legal points, lowest first.
        let open = pos.refreshed_legal();
        if open == 0 {
            return None;
        }
        let eval = self.net.evaluate(&planes(pos));
        let shares = policy(&eval.logits, open);
        let even = open.count_ones() as f32;
        Some(
            bits(open)
                .map(|p| {
                    let ratio = (shares[p] * even).max(1e-6);
                    (p as Point, 0.5 + self.spread * (0.5 * ratio.ln()).tanh())
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nogo::network::weights::Weights;
    use crate::game::nogo::NogoRules;
    use crate::game::Game;
    use crate::search::mcts::Playout;

    #[test]
    fn advice_covers_the_expansion_moves_in_order_with_rates() {
        let net = Arc::new(Network::new(&Weights::random(8, 1, 8, 2)));
        let mut advisor = NetworkAdvisor { net, spread: 0.3 };
        let mut pos = Nogo::new(NogoRules { centre_ban: true });
        for mv in [10u8, 20, 30, 40, 50] {
            let advice = advisor.advise(&mut pos).unwrap();
            let mut expansion = Vec::new();
            pos.expansion_moves(&mut expansion);
            assert_eq!(
                advice.iter().map(|a| a.0).collect::<Vec<_>>(),
                expansion.iter().map(|e| e.0).collect::<Vec<_>>()
            );
            assert!(advice.iter().all(|&(_, r)| (0.2..=0.8).contains(&r)));
            // Not all alike: the network has an opinion.
            assert!(advice.iter().any(|&(_, r)| (r - advice[0].1).abs() > 1e-4));
            pos.play(mv);
        }
    }
}
