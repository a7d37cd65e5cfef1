//! Elo ratings, as the seed's course graded by them: every finished game moves both players'
//! ratings by K times the difference between the result and the expected result.

use std::collections::BTreeMap;

/// Everyone starts here.
pub const INITIAL_RATING: f64 = 1500.0;
/// How far one game can move a rating: 32 is the usual choice for players with few games.
pub const K_FACTOR: f64 = 32.0;

/// The expected score of a player rated `a` against one rated `b` (0 to 1).
pub fn expected_score(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// The rating changes of two players after a game; `score_a` is 1 for a win of `a`, 0.5 for a
/// draw, 0 for a loss. The two changes always sum to zero.
pub fn changes(a: f64, b: f64, score_a: f64) -> (f64, f64) {
    let delta = K_FACTOR * (score_a - expected_score(a, b));
    // `0.0 - delta` rather than `-delta`: a draw between equals is then +0.0 for both, never
    // a "-0.0" on a student's screen.
    (delta, 0.0 - delta)
}

/// One player's line in the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub rating: f64,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Default for Standing {
    fn default() -> Standing {
        Standing {
            rating: INITIAL_RATING,
            games: 0,
            wins: 0,
            losses: 0,
            draws: 0,
        }
    }
}

/// The ratings of every player who has finished a game.
#[derive(Clone, Debug, Default)]
pub struct Table {
    players: BTreeMap<String, Standing>,
}

impl Table {
    pub fn rating(&self, user: &str) -> f64 {
        self.players.get(user).map_or(INITIAL_RATING, |s| s.rating)
    }

    /// Records a finished game between `a` and `b`; `winner` is one of them, or `None` for a
    /// draw. Returns the two rating changes.
    pub fn record(&mut self, a: &str, b: &str, winner: Option<&str>) -> (f64, f64) {
        let score_a = match winner {
            Some(w) if w == a => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let (da, db) = changes(self.rating(a), self.rating(b), score_a);
        for (user, delta, score) in [(a, da, score_a), (b, db, 1.0 - score_a)] {
            let s = self.players.entry(user.to_string()).or_default();
            s.rating += delta;
            s.games += 1;
            match score {
                x if x > 0.75 => s.wins += 1,
                x if x < 0.25 => s.losses += 1,
                _ => s.draws += 1,
            }
        }
        (da, db)
    }

    /// Best first; equal ratings by name.
    pub fn standings(&self) -> Vec<(&str, &Standing)> {
        let mut rows: Vec<(&str, &Standing)> =
            self.players.iter().map(|(u, s)| (u.as_str(), s)).collect();
        rows.sort_by(|x, y| y.1.rating.total_cmp(&x.1.rating).then(x.0.cmp(y.0)));
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_players_move_by_half_of_k() {
        assert_eq!(expected_score(1500.0, 1500.0), 0.5);
        assert_eq!(changes(1500.0, 1500.0, 1.0), (16.0, -16.0));
        let (a, b) = changes(1500.0, 1500.0, 0.5);
        assert_eq!((a, b), (0.0, 0.0));
        // Both printed as +0.0: no negative zero reaches a screen.
        assert_eq!(format!("{a:+.1} {b:+.1}"), "+0.0 +0.0");
    }

    #[test]
    fn a_400_point_favourite_is_expected_to_score_ten_to_one() {
        let e = expected_score(1900.0, 1500.0);
        assert!((e - 10.0 / 11.0).abs() < 1e-12);
        // Winning as the favourite earns little; losing costs much.
        let (win, _) = changes(1900.0, 1500.0, 1.0);
        let (loss, _) = changes(1900.0, 1500.0, 0.0);
        assert!((win - 32.0 / 11.0).abs() < 1e-9);
        assert!((loss + 320.0 / 11.0).abs() < 1e-9);
    }

    #[test]
    fn the_table_counts_games_and_keeps_the_sum() {
        let mut t = Table::default();
        assert_eq!(t.record("ann", "bob", Some("ann")), (16.0, -16.0));
        let (da, db) = t.record("bob", "ann", None);
        assert!(
            da > 0.0 && (da + db).abs() < 1e-9,
            "the lower-rated side gains from a draw"
        );
        t.record("cat", "ann", Some("ann"));
        let rows = t.standings();
        assert_eq!(rows[0].0, "ann");
        assert_eq!(
            (
                rows[0].1.games,
                rows[0].1.wins,
                rows[0].1.draws,
                rows[0].1.losses
            ),
            (3, 2, 1, 0)
        );
        let total: f64 = rows.iter().map(|(_, s)| s.rating).sum();
        assert!((total - 3.0 * INITIAL_RATING).abs() < 1e-9);
        assert_eq!(t.rating("nobody"), INITIAL_RATING);
    }
}
