//! Threat searches: victory by continuous fours (VCF) and by threes and fours (VCT).
//!
//! A four leaves the opponent one reply, the point that completes it, so a VCF tree is a
//! single line per attacking move: the attacker tries each of its fours, the defender blocks,
//! and the attacker wins when it makes five, an open four, or two fours at once. A defender
//! that makes five first, or blocks with a four of its own that the attacker cannot answer with
//! a four, refutes the line.
//!
//! VCT adds open threes: the defender then has several replies (the points that spoil the three,
//! or any four of its own), all of which must fail. It is much more expensive, so it runs to a
//! smaller depth.

use super::board::Board;
use super::pattern::Class;
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

/// Defences of an open three tried before giving up on proving the win.
const MAX_REPLIES: usize = 24;

/// The attacker's first move of a VCT within `depth` of its own moves: fours (one forced
/// reply) and open threes (every reasonable reply refuted), ending in a VCF.
pub fn find_vct(
    board: &mut Board,
    depth: u32,
    vcf_depth: u32,
    budget: &mut Budget,
) -> Option<Point> {
    if let Some(p) = find_vcf(board, vcf_depth, budget) {
        return Some(p);
    }
    if depth == 0 || budget.stopped() {
        return None;
    }
    let me = board.side();
    let them = me.opponent();
    if !board.fives(them).is_empty() {
        return None; // a VCF would have handled the forced block
    }
    // Fours keep the initiative with one reply; open threes need every reply refuted.
    let fours: Vec<Point> = board.fours(me).iter().collect();
    for p in fours {
        budget.tick();
        if budget.stopped() {
            return None;
        }
        if attack_wins(
            board,
            p,
            me,
            |b, bud| find_vct(b, depth - 1, vcf_depth, bud).is_some(),
            budget,
        ) {
            return Some(p);
        }
    }
    let threes: Vec<Point> = board
        .candidates(60)
        .into_iter()
        .filter(|&p| board.best_class(p, me) == Class::FlexThree)
        .collect();
    for p in threes {
        budget.tick();
        if budget.stopped() {
            return None;
        }
        board.play(p);
        let won = defences_fail(board, me, depth, vcf_depth, budget);
        board.undo(p);
        if won {
            return Some(p);
        }
    }
    None
}

/// After `me`'s open three, the defender to move: every defence must still lose.
fn defences_fail(
    board: &mut Board,
    me: Color,
    depth: u32,
    vcf_depth: u32,
    budget: &mut Budget,
) -> bool {
    let them = me.opponent();
    // If the defender has a VCF of its own, it simply wins.
    if find_vcf(board, vcf_depth, budget).is_some() {
        return false;
    }
    // Defences: the points where `me` would make a four or better (the three's ends, near and
    // far, and its gaps), and every four of the defender (gaining a tempo).
    let replies: Vec<Point> = board
        .candidates(120)
        .into_iter()
        .filter(|&q| {
            board.best_class(q, me) >= Class::Four || board.best_class(q, them) >= Class::Four
        })
        .collect();
    // No reply at all: not actually a threat. Very many: too wide to prove here (cutting the
    // list would claim wins that a skipped reply refutes).
    if replies.is_empty() || replies.len() > MAX_REPLIES {
        return false;
    }
    for q in replies {
        budget.tick();
        if budget.stopped() {
            return false;
        }
        board.play(q);
        let lost = !board.is_over() && find_vct(board, depth - 1, vcf_depth, budget).is_some();
        board.undo(q);
        if !lost {
            return false;
        }
    }
    true
}
