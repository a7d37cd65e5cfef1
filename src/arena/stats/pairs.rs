//! Game pairs: the arena plays games 2k and 2k+1 from the same start (the same opening, or the
//! empty board) with the colours swapped, so the two games of a pair share whatever the opening
//! or the first move gives one colour. Their results are correlated, and treating them as
//! independent games misjudges the spread of the score. Scoring the pair as one sample (0, 0.5,
//! 1, 1.5 or 2 points for A: the pentanomial model) measures that spread directly.

use super::Tally;
use std::collections::HashMap;

/// One game's result for player A, in half points: a loss 0, a draw 1, a win 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamePoints {
    Loss,
    Draw,
    Win,
}

impl GamePoints {
    fn half_points(self) -> usize {
        match self {
            GamePoints::Loss => 0,
            GamePoints::Draw => 1,
            GamePoints::Win => 2,
        }
    }
}

/// How many pairs ended with A scoring 0, 0.5, 1, 1.5 and 2 points (index = half points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairTally {
    pub counts: [u32; 5],
}

impl PairTally {
    /// A tally from its five counts, from A's 0-point pairs to A's 2-point pairs.
    pub fn new(counts: [u32; 5]) -> PairTally {
        PairTally { counts }
    }

    /// Number of complete pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// A's mean score per game over the complete pairs; 0.5 before any pair.
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let half_points: u32 = self.counts.iter().zip(0..).map(|(c, k)| c * k).sum();
        f64::from(half_points) / (4.0 * f64::from(n))
    }

    /// Adds one complete pair.
    pub fn add(&mut self, first: GamePoints, second: GamePoints) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// The same pairs seen from player B's side.
    pub fn swapped(&self) -> PairTally {
        let mut counts = self.counts;
        counts.reverse();
        PairTally { counts }
    }

    /// The counts as `a-b-c-d-e`, from A's 0-point pairs to A's 2-point pairs.
    pub fn dashed(&self) -> String {
        let c = self.counts;
        format!("{}-{}-{}-{}-{}", c[0], c[1], c[2], c[3], c[4])
    }
}

/// A match's running score: every game in W-D-L, and the pairs completed so far.
///
/// Games may end out of order when several are played at once, so the first game of a pair to
/// finish waits here until its partner ends.
#[derive(Clone, Debug, Default)]
pub struct MatchScore {
    pub games: Tally,
    pub pairs: PairTally,
    // The standard map: keyed by game number, a few entries at most, off any hot path.
    waiting: HashMap<u32, GamePoints>,
}

impl MatchScore {
    /// Records game `index` (pairs are games 2k and 2k+1); returns whether it completed a pair.
    pub fn record(&mut self, index: u32, points: GamePoints) -> bool {
        match points {
            GamePoints::Win => self.games.wins += 1,
            GamePoints::Draw => self.games.draws += 1,
            GamePoints::Loss => self.games.losses += 1,
        }
        match self.waiting.remove(&(index ^ 1)) {
            Some(partner) => {
                self.pairs.add(partner, points);
                true
            }
            None => {
                self.waiting.insert(index, points);
                false
            }
        }
    }

    /// Games whose partner has not finished (or was never played): counted in W-D-L only.
    pub fn unpaired(&self) -> u32 {
        self.waiting.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GamePoints::{Draw, Loss, Win};

    #[test]
    fn pairs_complete_in_any_order() {
        let mut s = MatchScore::default();
        assert!(!s.record(1, Win));
        assert!(!s.record(2, Draw));
        assert_eq!(s.unpaired(), 2);
        // Game 0 completes pair 0 (games 0 and 1): a win and a loss is 1 point.
        assert!(s.record(0, Loss));
        assert!(s.record(3, Win));
        assert_eq!(s.unpaired(), 0);
        assert_eq!(s.pairs, PairTally::new([0, 0, 1, 1, 0]));
        assert_eq!(s.games, Tally::new(2, 1, 1));
        assert!(!s.record(4, Win));
        assert_eq!(s.unpaired(), 1);
        assert_eq!(s.pairs.pairs(), 2);
        assert_eq!(s.games.games(), 5);
    }

    #[test]
    fn pair_score_and_swap() {
        let p = PairTally::new([1, 0, 2, 0, 1]);
        // Half points 0 + 2·2 + 4 = 8 over 4 pairs of 4 half points: 0.5.
        assert_eq!(p.score(), 0.5);
        let q = PairTally::new([0, 0, 0, 1, 3]);
        // (3 + 4·3) / 16 = 15/16.
        assert_eq!(q.score(), 15.0 / 16.0);
        assert_eq!(q.swapped(), PairTally::new([3, 1, 0, 0, 0]));
        assert_eq!(q.swapped().score(), 1.0 / 16.0);
        assert_eq!(PairTally::default().score(), 0.5);
        assert_eq!(q.dashed(), "0-0-0-1-3");
    }
}
