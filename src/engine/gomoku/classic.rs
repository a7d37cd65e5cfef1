//! Gomoku level `classic`: the simple player of seed 000, step 8, and nothing more.
//!
//! Every empty point is scored by the seed's ten rules (`game::gomoku_seed`): its four 9-cell
//! lines are read from the side to move (`M` own stones, `O` the opponent's, `C` the point),
//! every rule pattern found in a line adds the rule's score, and the point takes the sum over
//! its lines. The player plays a point of highest score; when several tie, the seed says to take
//! any of them, and a seeded generator picks one (so a game is reproducible from the seed).
//!
//! There is no second pass for the opponent's colour: the seed scores for the side to move only,
//! and defence is already inside its rules (2, 4, 7 and 8 look at the opponent's stones).
//!
//! The rules are the seed's and so are their limits; nothing here corrects them. The scores are
//! summed, so a point that collects several big scores can outrank a point the rules give first
//! place to: two lines of rule 2 (blocking two fours, 12000) beat one line of rule 1 (making five,
//! 10000). Rule 2 knows only the solid four (`OOOOC`, `COOOO`), so a split four (`OO.OO`) is not
//! blocked as a must. The player judges lines as freestyle gomoku does (the seed's game); under
//! `exact_five` it still takes an overline for a five.

use crate::engine::{Decision, Engine};
use crate::game::gomoku::{Gomoku, Point};
use crate::game::gomoku_seed;
use crate::game::Game;
use crate::search::clock::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

pub struct GomokuClassic {
    seed: u64,
    rng: SmallRng,
}

impl GomokuClassic {
    pub fn new(seed: u64) -> GomokuClassic {
        GomokuClassic {
            seed,
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// The point the seed's method plays, with its score; `None` when no point is empty.
    pub fn choose(&mut self, pos: &Gomoku) -> Option<(Point, i32)> {
        if pos.outcome().is_some() {
            return None;
        }
        let (best, score) = gomoku_seed::best_points(pos)?;
        Some((best[self.rng.gen_range(0..best.len())], score))
    }
}

impl Engine<Gomoku> for GomokuClassic {
    fn new_game(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.seed);
    }

    fn observe(&mut self, _pos_before: &Gomoku, _m: Point) {}

    fn think(&mut self, pos: &Gomoku, _limits: Limits) -> Decision<Point> {
        let start = Instant::now();
        let mv = self.choose(pos).map(|(p, _)| p);
        Decision {
            mv,
            win_rate: None,
            // Points scored.
            work: (pos.points() - pos.ply()) as u64,
            work_unit: "nodes",
            elapsed: start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(g: &Gomoku, seed: u64) -> (usize, usize) {
        let mv = GomokuClassic::new(seed)
            .think(g, Limits::default())
            .mv
            .unwrap();
        assert!(g.is_legal(mv));
        g.coords(mv)
    }

    #[test]
    fn the_first_move_is_any_point_and_reproducible() {
        // On the empty board every point scores 80 (rule 10 on its four lines), so the seed's
        // "any of them" decides: different seeds, different points; one seed, one point.
        let g = Gomoku::default();
        let (_, top) = gomoku_seed::best_points(&g).unwrap();
        assert_eq!(top, 80);
        let firsts: std::collections::HashSet<_> = (0..20).map(|s| play(&g, s)).collect();
        assert!(firsts.len() > 10);
        assert_eq!(play(&g, 5), play(&g, 5));
        let mut e = GomokuClassic::new(9);
        let a = e.think(&g, Limits::default()).mv;
        e.new_game();
        assert_eq!(e.think(&g, Limits::default()).mv, a);
    }
}
