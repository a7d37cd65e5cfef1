//! Victory by continuous fours (VCF).
//!
//! A four leaves the opponent one reply, the point that completes it, so a VCF tree is a
//! single line per attacking move: the attacker tries each of its fours, the defender blocks,
//! and the attacker wins when it makes five, an open four, or two fours at once. A defender
//! that makes five first, or blocks with a four of its own that the attacker cannot answer with
//! a four, refutes the line. Threes join the attack in `vct.rs`.

use super::board::Board;
use crate::game::gomoku::Point;
use crate::game::Color;
use crate::search::budget::Budget;

/// The attacker's first move of a VCF within `depth` of its own moves, if any.
pub fn find_vcf(board: &mut Board, depth: u32, budget: &mut Budget) -> Option<Point> {
    let me = board.side();
    let them = me.opponent();
    if let Some(p) = board.fives(me).first() {
        return Some(p);
    }
    if depth == 0 || budget.stopped() {
        return None;
    }
    let forced: Option<Point> = match board.fives(them).len() {
        0 => None,
        1 => board.fives(them).first(),
        // Two points to stop and one stone: lost unless we five first (checked above).
        _ => return None,
    };
    let moves: Vec<Point> = match forced {
        // We must block; that only continues a VCF if the block is itself a four.
        Some(b) => {
            if board.fours(me).contains(b) {
                vec![b]
            } else {
                return None;
            }
        }
        None => board.fours(me).iter().collect(),
    };
    // Winning shapes first.
    let (wins, rest): (Vec<Point>, Vec<Point>) = moves
        .into_iter()
        .partition(|&p| board.makes_winning_shape(p, me));
    for p in wins.into_iter().chain(rest) {
        budget.tick();
        if budget.stopped() {
            return None;
        }
        if attack_wins(
            board,
            p,
            me,
            |b, bud| find_vcf(b, depth - 1, bud).is_some(),
            budget,
        ) {
            return Some(p);
        }
    }
    None
}

/// Plays the four `p` for `me` and checks the forced reply: true if `me` wins.
fn attack_wins(
    board: &mut Board,
    p: Point,
    me: Color,
    mut go_on: impl FnMut(&mut Board, &mut Budget) -> bool,
    budget: &mut Budget,
) -> bool {
    let them = me.opponent();
    board.play(p);
    let won = if board.is_over() {
        true
    } else if !board.fives(them).is_empty() {
        // The defender makes five instead of blocking.
        false
    } else if board.fives(me).len() >= 2 {
        true
    } else if let Some(block) = board.fives(me).first() {
        board.play(block);
        let w = !board.is_over() && go_on(board, budget);
        board.undo(block);
        w
    } else {
        false
    };
    board.undo(p);
    won
}
