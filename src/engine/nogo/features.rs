//! What the network sees of a position: eight planes of the 9x9 board, from the side to move's
//! view, each a bitboard (`bit p` for point `p = 9 * y + x`). Self-play records them and the
//! forward pass reads them, so the trainer and the bot can never disagree about the input.
//!
//! Legality is the heart of NoGo (the side with no legal point loses), so two planes say where
//! each side may still play; stones in groups short of liberties are where legality changes
//! next (their last liberty is banned to the opponent, and filling it is banned to the owner).

use crate::game::bitset::bits;
use crate::game::nogo::{Nogo, Point};
use crate::game::Game;

/// Planes recorded and fed to the network (the network adds a plane of ones).
pub const PLANES: usize = 8;

/// The planes, in their fixed order: the mover's stones, the opponent's stones, the points
/// legal for the mover, those legal for the opponent, the mover's stones in groups with one
/// liberty and with two, and the opponent's likewise.
pub fn planes(pos: &Nogo) -> [u128; PLANES] {
    let me = pos.side_to_move();
    let opp = me.opponent();
    let mut short = [[0u128; 2]; 2];
    for (side, colour) in [me, opp].into_iter().enumerate() {
        let mut left = pos.stones(colour);
        while left != 0 {
            let p = left.trailing_zeros() as Point;
            let libs = pos.group_liberties(p);
            // The whole group at once, so that each group is looked at once.
            let group = group_of(pos, p);
            match libs.count_ones() {
                1 => short[side][0] |= group,
                2 => short[side][1] |= group,
                _ => {}
            }
            left &= !group;
        }
    }
    [
        pos.stones(me),
        pos.stones(opp),
        pos.legal_mask(me),
        pos.legal_mask(opp),
        short[0][0],
        short[0][1],
        short[1][0],
        short[1][1],
    ]
}

/// The stones of the group holding `p`, by flood fill over same-coloured neighbours.
fn group_of(pos: &Nogo, p: Point) -> u128 {
    use crate::game::nogo::neighbour_mask;
    let colour = pos.color_at(p).expect("a stone");
    let own = pos.stones(colour);
    let mut group = 1u128 << p;
    let mut frontier = group;
    while frontier != 0 {
        let mut next = 0;
        for q in bits(frontier) {
            next |= neighbour_mask(q as Point) & own;
        }
        frontier = next & !group;
        group |= next;
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nogo::{coords, neighbours, point, NogoRules};
    use crate::game::Color;
    use rand::rngs::SmallRng;
    use rand::{RngCore, SeedableRng};

    /// Liberties of the group at `p` counted from scratch on the board.
    fn liberties(pos: &Nogo, p: Point) -> u32 {
        let c = pos.color_at(p).unwrap();
        let mut seen = [false; 81];
        let mut stack = vec![p];
        let mut libs = std::collections::BTreeSet::new();
        seen[p as usize] = true;
        while let Some(q) = stack.pop() {
            for &n in neighbours(q) {
                match pos.color_at(n) {
                    None => {
                        libs.insert(n);
                    }
                    Some(d) if d == c && !seen[n as usize] => {
                        seen[n as usize] = true;
                        stack.push(n);
                    }
                    _ => {}
                }
            }
        }
        libs.len() as u32
    }

    #[test]
    fn planes_match_the_board_counted_from_scratch() {
        let mut rng = SmallRng::seed_from_u64(5);
        for game in 0..40 {
            let mut pos = Nogo::new(NogoRules {
                centre_ban: game % 2 == 0,
            });
            while pos.outcome().is_none() {
                let f = planes(&pos);
                let me = pos.side_to_move();
                for p in 0..81u8 {
                    let b = |plane: usize| f[plane] >> p & 1 == 1;
                    let colour = pos.color_at(p);
                    assert_eq!(b(0), colour == Some(me));
                    assert_eq!(b(1), colour == Some(me.opponent()));
                    let legal_me = colour.is_none() && pos.clone().check_move(p).is_ok();
                    assert_eq!(b(2), legal_me, "legal for the mover at {:?}", coords(p));
                    assert_eq!(b(3), pos.legal_mask(me.opponent()) >> p & 1 == 1);
                    let libs = colour.map(|_| liberties(&pos, p));
                    let mine = colour == Some(me);
                    assert_eq!(b(4), mine && libs == Some(1));
                    assert_eq!(b(5), mine && libs == Some(2));
                    assert_eq!(b(6), !mine && libs == Some(1));
                    assert_eq!(b(7), !mine && libs == Some(2));
                }
                let moves = pos.legal_moves();
                pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
            }
        }
    }

    #[test]
    fn the_centre_ban_shows_in_the_first_legal_plane() {
        let pos = Nogo::new(NogoRules { centre_ban: true });
        let f = planes(&pos);
        assert_eq!(f[2] >> point(4, 4) & 1, 0);
        assert_eq!(f[2].count_ones(), 80);
        // White is not bound by the rule.
        assert_eq!(f[3].count_ones(), 81);
        assert_eq!(pos.side_to_move(), Color::Black);
    }
}
