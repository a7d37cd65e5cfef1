//! The network as the judge of PUCT's leaves (`search::puct::Evaluator`): its policy over the
//! legal points is the prior, its value head the expected result, optionally mixed with the
//! results of a few playouts from the leaf (as AlphaGo mixed its value network with rollouts:
//! a playout costs some 4 µs here, an evaluation of the built-in network some 290 µs).

use super::features::planes;
use super::network::{policy, Network};
use crate::game::bitset::bits;
use crate::game::nogo::{Nogo, Point};
use crate::game::{Game, Outcome};
use crate::search::mcts::Playout;
use crate::search::puct::{Evaluated, Evaluator};
use fxhash::FxHashMap;
use rand::rngs::SmallRng;
use std::sync::Arc;

pub struct NetworkEvaluator {
    pub net: Arc<Network>,
    /// Playouts from each leaf (0: the value head alone).
    pub rollouts: u32,
    /// The playouts' share of the leaf's value, 0 to 1, when there are any.
    pub mix: f32,
    pub rng: SmallRng,
    /// The network's answers for the positions already judged, by hash. NoGo never takes a
    /// stone off the board, so the same position is reached by many orders of the same moves,
    /// and the tree meets it again as a new leaf under another parent.
    seen: FxHashMap<u64, Judged>,
}

struct Judged {
    priors: Vec<(Point, f32)>,
    value: f32,
}

/// Positions remembered at most (some 500 bytes each); the memory is emptied when full.
const SEEN_LIMIT: usize = 1 << 16;

impl NetworkEvaluator {
    pub fn new(net: Arc<Network>, rollouts: u32, mix: f32, rng: SmallRng) -> NetworkEvaluator {
        NetworkEvaluator {
            net,
            rollouts,
            mix,
            rng,
            seen: FxHashMap::default(),
        }
    }

    /// The network's priors and value at `pos`, from memory when it has met `pos` before.
    fn judge(&mut self, pos: &mut Nogo) -> (Vec<(Point, f32)>, f32) {
        if let Some(j) = self.seen.get(&pos.hash()) {
            return (j.priors.clone(), j.value);
        }
        let open = pos.refreshed_legal();
        let eval = self.net.evaluate(&planes(pos));
        let shares = policy(&eval.logits, open);
        let priors: Vec<(Point, f32)> = bits(open).map(|p| (p as Point, shares[p])).collect();
        if self.seen.len() >= SEEN_LIMIT {
            self.seen.clear();
        }
        let judged = Judged {
            priors: priors.clone(),
            value: eval.value,
        };
        self.seen.insert(pos.hash(), judged);
        (priors, eval.value)
    }
}

impl Evaluator<Nogo> for NetworkEvaluator {
    fn evaluate(&mut self, pos: &mut Nogo) -> Evaluated<Point> {
        let (priors, mut value) = self.judge(pos);
        // The playouts are drawn afresh each time: a position met again gets new ones.
        if self.rollouts > 0 {
            let me = pos.side_to_move();
            let mut sum = 0.0;
            for _ in 0..self.rollouts {
                let mut game = pos.clone();
                sum += match game.rollout(&mut self.rng, &mut [0u128; 2]) {
                    Outcome::Win(c) if c == me => 1.0,
                    Outcome::Win(_) => -1.0,
                    Outcome::Draw => 0.0,
                };
            }
            value = (1.0 - self.mix) * value + self.mix * sum / self.rollouts as f32;
        }
        Evaluated { priors, value }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nogo::network::weights::Weights;
    use crate::game::nogo::NogoRules;
    use rand::SeedableRng;

    fn evaluator(rollouts: u32, mix: f32) -> NetworkEvaluator {
        NetworkEvaluator::new(
            Arc::new(Network::new(&Weights::random(8, 1, 8, 2))),
            rollouts,
            mix,
            SmallRng::seed_from_u64(1),
        )
    }

    #[test]
    fn priors_cover_the_legal_moves_and_sum_to_one() {
        let mut e = evaluator(0, 0.5);
        let mut pos = Nogo::new(NogoRules { centre_ban: true });
        for mv in [10u8, 20, 30, 40, 50] {
            let judged = e.evaluate(&mut pos);
            let moves: Vec<Point> = judged.priors.iter().map(|p| p.0).collect();
            assert_eq!(moves, pos.legal_moves());
            let total: f32 = judged.priors.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
            // Without playouts the value is the network's own.
            let own = e.net.evaluate(&planes(&pos)).value;
            assert_eq!(judged.value, own);
            pos.play(mv);
        }
    }

    #[test]
    fn playouts_move_the_value_by_their_share() {
        let mut pos = Nogo::new(NogoRules::default());
        for mv in [40u8, 41, 31] {
            pos.play(mv);
        }
        let own = evaluator(0, 0.0).evaluate(&mut pos.clone()).value;
        // All playouts: the value is a mean of results, a multiple of 1/16 in [-1, 1].
        let all = evaluator(16, 1.0).evaluate(&mut pos.clone()).value;
        assert!(all.abs() <= 1.0 && ((all * 16.0).round() - all * 16.0).abs() < 1e-4);
        // Half and half lies halfway between the network and the same playouts (same seed).
        let half = evaluator(16, 0.5).evaluate(&mut pos.clone()).value;
        assert!(
            (half - (own + all) / 2.0).abs() < 1e-5,
            "{half} {own} {all}"
        );
    }

    #[test]
    fn a_position_met_again_by_another_order_is_not_evaluated_twice() {
        let rules = NogoRules::default();
        let mut e = evaluator(0, 0.5);
        let mut one = Nogo::new(rules);
        let mut other = Nogo::new(rules);
        for mv in [10u8, 20, 30, 40] {
            one.play(mv);
        }
        for mv in [30u8, 40, 10, 20] {
            other.play(mv);
        }
        let first = e.evaluate(&mut one);
        // The answer from memory is the network's answer at that position.
        let fresh = evaluator(0, 0.5).evaluate(&mut other);
        assert_eq!(first.priors, fresh.priors);
        assert_eq!(first.value, fresh.value);
        // Marked, the remembered answer shows that the second order is answered from memory.
        e.seen.get_mut(&one.hash()).expect("remembered").value = 0.25;
        let again = e.evaluate(&mut other);
        assert_eq!(again.value, 0.25);
        assert_eq!(again.priors, first.priors);
        assert_eq!(e.seen.len(), 1);
        // Another position is evaluated afresh.
        other.play(50);
        e.evaluate(&mut other);
        assert_eq!(e.seen.len(), 2);
    }
}
