//! Mobility: what a move does to the count of legal points of each side.
//!
//! NoGo is lost by the side that runs out of legal points, so a move is worth roughly what it
//! changes in (own legal points - opponent's legal points): a contested point taken costs both
//! sides one, a reserve point spent costs only the mover one, and a stone that takes the last
//! safe liberty of a group, or closes an eye, bans points for one side or the other for good.
//! The tree starts each child with an even AMAF prior; once a node has been visited often
//! enough to matter, its children's priors are lowered by how far each falls short of the best
//! sibling's gain. Counted on the position after the move, this is too dear for every node a
//! search makes, so `MctsParams::knowledge_after` defers it.

use crate::game::bitset::{bit, bits};
use crate::game::nogo::{neighbour_mask, Nogo, Point};
use crate::game::{Color, Game};
use crate::search::mcts::Hint;

/// Prior win rate taken off a move for each point of mobility it gains less than the best
/// sibling. 0.1 beat 0.05 at equal playouts (both against no knowledge: +115 and +56 over 100
/// games each, 20,000 playouts a move).
const RATE_PER_POINT: f32 = 0.1;

/// Shortfalls beyond this many points count as this many: a move that looks bad by the count
/// may still be the one that matters.
const MAX_SHORTFALL: i32 = 3;

/// Every legal move of the side to move, in `expansion_moves`' order, with its prior from the
/// mobility gain.
pub fn mobility_hints(pos: &mut Nogo) -> Vec<(Point, Hint)> {
    let open = pos.refreshed_legal();
    let gains: Vec<(Point, i32)> = bits(open)
        .map(|p| (p as Point, mobility_gain(pos, p as Point)))
        .collect();
    let best = gains.iter().map(|&(_, g)| g).max().unwrap_or(0);
    gains
        .into_iter()
        .map(|(p, g)| {
            let shortfall = (best - g).min(MAX_SHORTFALL) as f32;
            (p, Hint::Rate(0.5 - RATE_PER_POINT * shortfall))
        })
        .collect()
}

/// How much playing the legal point `p` raises the mover's lead in legal points (its own minus
/// the opponent's). `pos` must have the bans of both colours refreshed, so that its unbanned
/// empty points are exactly each side's legal ones. Only points next to `p`, or liberties of a
/// group touching it after the move, can change legality, so only those are checked.
fn mobility_gain(pos: &Nogo, p: Point) -> i32 {
    let me = pos.side_to_move();
    let opp = me.opponent();
    let opp_had_p = pos.banned(opp) & bit(p as usize) == 0;
    let mut after = pos.clone();
    after.place(p);
    let near = neighbour_mask(p);
    let mut touched = near;
    for q in bits(near & !after.empty()) {
        touched |= after.group_liberties(q as Point);
    }
    touched &= after.empty();
    // Legality only ever shrinks, so only points legal before can change.
    let lost = |c: Color| {
        bits(touched & !pos.banned(c))
            .filter(|&q| !after.stone_rules_allow(q as Point, c))
            .count() as i32
    };
    // The point itself: the mover loses it, and so does the opponent if it could play there.
    -1 + opp_had_p as i32 - lost(me) + lost(opp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nogo::{point, NogoRules};
    use rand::rngs::SmallRng;
    use rand::{RngCore, SeedableRng};

    fn legal_count(pos: &Nogo, c: Color) -> i32 {
        pos.legal_mask(c).count_ones() as i32
    }

    /// The gain counted from scratch: every point of the board, before and after.
    fn recounted_gain(pos: &Nogo, p: Point) -> i32 {
        let me = pos.side_to_move();
        let lead = |q: &Nogo| legal_count(q, me) - legal_count(q, me.opponent());
        let mut after = pos.clone();
        after.place(p);
        lead(&after) - lead(pos)
    }

    fn random_position(rng: &mut SmallRng, plies: usize) -> Nogo {
        let mut pos = Nogo::new(NogoRules::default());
        while pos.ply() < plies {
            let legal: Vec<u32> = bits(pos.legal_mask(pos.side_to_move()))
                .map(|p| p as u32)
                .collect();
            if legal.is_empty() {
                break;
            }
            pos.place(legal[rng.next_u32() as usize % legal.len()] as Point);
        }
        pos
    }

    /// Checking only the touched points gives the same gain as recounting the whole board.
    #[test]
    fn the_local_count_matches_a_full_recount() {
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut checked, mut nonzero) = (0, 0);
        for _ in 0..200 {
            let plies = (rng.next_u32() % 60) as usize;
            let mut pos = random_position(&mut rng, plies);
            pos.refreshed_legal();
            for p in bits(pos.legal_mask(pos.side_to_move())) {
                let gain = mobility_gain(&pos, p as Point);
                assert_eq!(gain, recounted_gain(&pos, p as Point), "{pos} at {p}");
                checked += 1;
                nonzero += (gain != 0) as u32;
            }
        }
        assert!(checked > 1000, "{checked} moves checked");
        assert!(nonzero > 100, "only {nonzero} moves changed the count");
    }

    /// Each hint is the formula on the recounted gains, in the order of the legal moves, and
    /// spending one's own eye ranks below a quiet contested point.
    #[test]
    fn the_hints_rank_moves_by_their_gain() {
        // Black at (1, 0) and (0, 1) makes the corner (0, 0) an eye: White may not play there
        // (suicide), so a black stone on it spends a point only Black had. White's two stones
        // are far away at (8, 8) and (8, 6).
        let mut pos = Nogo::new(NogoRules::default());
        for p in [point(1, 0), point(8, 8), point(0, 1), point(8, 6)] {
            pos.place(p);
        }
        let hints = mobility_hints(&mut pos.clone());
        let moves: Vec<Point> = hints.iter().map(|&(p, _)| p).collect();
        let legal: Vec<Point> = bits(pos.legal_mask(Color::Black))
            .map(|p| p as Point)
            .collect();
        assert_eq!(moves, legal);
        let gains: Vec<i32> = legal.iter().map(|&p| recounted_gain(&pos, p)).collect();
        let best = *gains.iter().max().unwrap();
        for (&(p, hint), &gain) in hints.iter().zip(&gains) {
            let want = 0.5 - RATE_PER_POINT * (best - gain).min(MAX_SHORTFALL) as f32;
            assert_eq!(hint, Hint::Rate(want), "move {p}, gain {gain}");
        }
        let rate = |p: Point| hints.iter().find(|&&(q, _)| q == p).map(|&(_, h)| h);
        assert_eq!(recounted_gain(&pos, point(0, 0)), -1);
        assert_eq!(recounted_gain(&pos, point(4, 4)), 0);
        assert_eq!(rate(point(4, 4)), Some(Hint::Rate(0.5)));
        assert_eq!(rate(point(0, 0)), Some(Hint::Rate(0.4)));
    }
}
