//! A greedy Connect6 baseline for the arena: no search, one stone at a time.
//!
//! For each stone: complete six in a row if the stones left in the turn can; otherwise, if the
//! opponent threatens to win on its next turn, take a cell of a smallest forced defence (or, if
//! no defence is possible with the stones left, the cell that spoils most of its threat
//! windows); otherwise take the cell with the best window score. A cell scores through every
//! six-cell window it lies in: a window still open for us (no enemy stone) is worth more the
//! more of our stones it already holds, and likewise a window still open for the opponent,
//! which our stone would spoil. Our own windows weigh a little more than the opponent's, so
//! the player prefers building to spoiling when both are alike. Ties go to a seeded coin.
//!
//! It is meant to beat the random player nearly always and to give stronger engines a quick,
//! reproducible sparring partner.

use crate::engine::{Decision, Engine};
use crate::game::connect6::{Connect6, Stone, RUN};
use crate::game::{Color, Game};
use crate::search::clock::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Worth of an open window by the stones already in it (0..=5): each stone makes it several
/// times more urgent.
const WINDOW_WEIGHT: [f64; RUN] = [1.0, 6.0, 30.0, 150.0, 800.0, 5000.0];
/// Our own windows against the opponent's.
const OWN_FACTOR: f64 = 1.25;

pub struct Connect6Greedy {
    seed: u64,
    rng: SmallRng,
}

impl Connect6Greedy {
    pub fn new(seed: u64) -> Connect6Greedy {
        Connect6Greedy {
            seed,
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// The score of placing a stone of `me` on the empty cell `p`.
    pub fn score(pos: &Connect6, me: Color, p: Stone) -> f64 {
        let them = me.opponent();
        let mut total = 0.0;
        for &w in pos.tables().windows_through(p) {
            let w = w as usize;
            let (own, theirs) = (pos.window_stones(w, me), pos.window_stones(w, them));
            if theirs == 0 {
                total += OWN_FACTOR * WINDOW_WEIGHT[own as usize];
            }
            if own == 0 {
                total += WINDOW_WEIGHT[theirs as usize];
            }
        }
        total
    }

    /// The best of `cells` by `value`, ties broken by the seeded generator.
    fn best_of(&mut self, cells: impl Iterator<Item = (Stone, f64)>) -> Option<Stone> {
        let mut best: Vec<Stone> = Vec::new();
        let mut top = f64::NEG_INFINITY;
        for (p, v) in cells {
            if v > top {
                top = v;
                best.clear();
                best.push(p);
            } else if v == top {
                best.push(p);
            }
        }
        (!best.is_empty()).then(|| best[self.rng.gen_range(0..best.len())])
    }

    fn empty_cells(pos: &Connect6) -> impl Iterator<Item = Stone> + '_ {
        (0..pos.points() as Stone).filter(move |&p| pos.color_at(p).is_none())
    }

    /// The stone to place now.
    fn choose(&mut self, pos: &Connect6) -> Option<Stone> {
        if pos.outcome().is_some() {
            return None;
        }
        let me = pos.side_to_move();
        let them = me.opponent();
        let left = pos.stones_left_in_turn();
        if let Some(win) = pos.immediate_win(me, left) {
            return win.first().copied();
        }
        if pos.threats(them) > 0 {
            let sets = pos.blocking_sets(them, left);
            if let Some(smallest) = sets.iter().map(Vec::len).min() {
                let cells: Vec<Stone> = sets
                    .iter()
                    .filter(|s| s.len() == smallest)
                    .flatten()
                    .copied()
                    .collect();
                return self.best_of(cells.into_iter().map(|p| (p, Self::score(pos, me, p))));
            }
            // No defence with the stones left: spoil as many of its threat windows as we can.
            let mut hits = vec![0u32; pos.points()];
            for w in pos.threat_windows(them) {
                for &p in pos.tables().window(w) {
                    if pos.color_at(p).is_none() {
                        hits[p as usize] += 1;
                    }
                }
            }
            return self.best_of(
                Self::empty_cells(pos)
                    .filter(|&p| hits[p as usize] > 0)
                    .map(|p| (p, hits[p as usize] as f64 * 1e6 + Self::score(pos, me, p))),
            );
        }
        self.best_of(Self::empty_cells(pos).map(|p| (p, Self::score(pos, me, p))))
    }
}

impl Engine<Connect6> for Connect6Greedy {
    fn new_game(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.seed);
    }

    fn observe(&mut self, _pos_before: &Connect6, _m: Stone) {}

    fn think(&mut self, pos: &Connect6, _limits: Limits) -> Decision<Stone> {
        let start = Instant::now();
        let mv = self.choose(pos);
        Decision {
            mv,
            win_rate: None,
            work: pos.points() as u64,
            work_unit: "nodes",
            elapsed: start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect6::Connect6Rules;

    fn board(stones: &[(usize, usize)]) -> Connect6 {
        // Stones in turn order: Black's one, then pairs.
        let mut g = Connect6::new(Connect6Rules::SAU);
        for &(x, y) in stones {
            let p = g.point(x, y);
            g.try_play(p).unwrap();
        }
        g
    }

    fn think(g: &Connect6) -> (usize, usize) {
        let mut e = Connect6Greedy::new(3);
        let m = e.think(g, Limits::default()).mv.unwrap();
        g.coords(m)
    }

    #[test]
    fn completes_six() {
        // Black has (3..=7, 9) in a row after its turns; White played elsewhere.
        let g = board(&[
            (3, 9),
            (0, 0),
            (0, 1),
            (4, 9),
            (5, 9),
            (0, 3),
            (0, 4),
            (6, 9),
            (7, 9),
            (2, 0),
            (2, 1),
        ]);
        assert_eq!(g.side_to_move(), Color::Black);
        let (x, y) = think(&g);
        assert!(y == 9 && (x == 2 || x == 8), "({x},{y})");
    }

    #[test]
    fn blocks_a_four() {
        // White has four in a row on row 5 with both ends open; Black must block in the window.
        let g = board(&[(9, 9), (4, 5), (5, 5), (15, 15), (16, 15), (6, 5), (7, 5)]);
        assert_eq!(g.side_to_move(), Color::Black);
        assert!(g.threats(Color::White) > 0);
        let mut e = Connect6Greedy::new(1);
        let mut g2 = g.clone();
        for _ in 0..2 {
            let m = e.think(&g2, Limits::default()).mv.unwrap();
            g2.play(m);
        }
        assert_eq!(g2.threats(Color::White), 0, "\n{g2}");
    }

    #[test]
    fn opens_near_the_centre_and_is_reproducible() {
        let g = Connect6::new(Connect6Rules::SAU);
        let (x, y) = think(&g);
        assert!((7..=11).contains(&x) && (7..=11).contains(&y), "({x},{y})");
        assert_eq!(think(&g), think(&g));
    }
}
