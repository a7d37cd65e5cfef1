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

use super::{Decision, Engine};
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
    use crate::game::gomoku::GomokuRules;
    use crate::game::{Color, Outcome};

    /// A game of size `n` after Black's and White's stones, given as `(x, y)` and played in
    /// turn, Black first (the longer list may only be Black's, by one stone).
    fn position(n: usize, black: &[(usize, usize)], white: &[(usize, usize)]) -> Gomoku {
        assert!(black.len() == white.len() || black.len() == white.len() + 1);
        let mut g = Gomoku::new(GomokuRules::new(n, false).unwrap());
        for (i, &(x, y)) in black.iter().enumerate() {
            g.try_play(g.point(x, y)).unwrap();
            if let Some(&(x, y)) = white.get(i) {
                g.try_play(g.point(x, y)).unwrap();
            }
        }
        assert_eq!(g.outcome(), None, "\n{g}");
        g
    }

    fn play(g: &Gomoku, seed: u64) -> (usize, usize) {
        let mv = GomokuClassic::new(seed)
            .think(g, Limits::default())
            .mv
            .unwrap();
        assert!(g.is_legal(mv));
        g.coords(mv)
    }

    #[test]
    fn takes_an_immediate_five_on_every_size() {
        for n in [11, 15, 20] {
            // Black: four across on the top row's neighbour, open at the right only (the left
            // end is the edge). White: four down the far column, to be blocked or not.
            let black = [(0, 1), (1, 1), (2, 1), (3, 1)];
            let white = [(n - 1, 5), (n - 1, 6), (n - 1, 7), (n - 3, 9)];
            let g = position(n, &black, &white);
            for seed in 0..5 {
                assert_eq!(play(&g, seed), (4, 1), "size {n}\n{g}");
            }
            let mut after = g.clone();
            after.play(after.point(4, 1));
            assert_eq!(after.outcome(), Some(Outcome::Win(Color::Black)));
        }
    }

    #[test]
    fn makes_five_before_blocking_a_four() {
        // Both sides hold a four; the side to move (White here) wins rather than blocks.
        for n in [11, 20] {
            let black = [(2, 2), (3, 2), (4, 2), (5, 2), (0, n - 1)];
            let white = [(2, 6), (2, 7), (2, 8), (2, 9)];
            let g = position(n, &black, &white);
            assert_eq!(g.side_to_move(), Color::White);
            let (x, y) = play(&g, 7);
            assert!(
                (x, y) == (2, 5) || (x, y) == (2, 10),
                "size {n}: ({x},{y})\n{g}"
            );
        }
    }

    #[test]
    fn blocks_a_four() {
        for n in [11, 15, 20] {
            // White's four down column 6 from row 1: the top end (6, 0) is open, the bottom one
            // taken by Black; Black, to move, must play (6, 0).
            let black = [(6, 5), (0, n - 1), (n - 1, n - 1), (n - 1, 0)];
            let white = [(6, 1), (6, 2), (6, 3), (6, 4)];
            let g = position(n, &black, &white);
            assert_eq!(g.side_to_move(), Color::Black);
            assert_eq!(play(&g, 3), (6, 0), "size {n}\n{g}");
        }
    }

    #[test]
    fn blocks_an_open_four_at_one_end() {
        let black = [(0, 0), (14, 14), (14, 0), (0, 14)];
        let white = [(5, 7), (6, 7), (7, 7), (8, 7)];
        let g = position(15, &black, &white);
        let (x, y) = play(&g, 1);
        assert!((x, y) == (4, 7) || (x, y) == (9, 7), "({x},{y})\n{g}");
    }

    #[test]
    fn plays_legal_points_until_the_board_is_full_on_11_and_20() {
        // Two classic players against each other: every move legal, the game ends.
        for n in [11, 20] {
            let mut g = Gomoku::new(GomokuRules::new(n, false).unwrap());
            let mut players = [GomokuClassic::new(1), GomokuClassic::new(2)];
            while g.outcome().is_none() {
                let side = g.side_to_move().index();
                let mv = players[side].think(&g, Limits::default()).mv.unwrap();
                assert!(g.is_legal(mv), "({:?})\n{g}", g.coords(mv));
                g.play(mv);
            }
            assert!(g.ply() <= n * n);
            assert_eq!(players[0].think(&g, Limits::default()).mv, None);
        }
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
