//! Threat-space search: victory by continuous double threats (VCDT).
//!
//! With two stones a turn, a side with three threats wins next turn, and a side facing exactly
//! two threats must spend both stones on them: the only defences are the pairs of cells that
//! hit every threat window (`Connect6::blocking_sets`), a short exact list. So a sequence of our
//! turns, each leaving two or more threats, lets the opponent choose only among those pairs,
//! and the search tree stays narrow: ours are the pairs that make a double threat, theirs the
//! exact defences. A win is proved when every defence of every branch leads to three threats
//! (or six in a row) within the depth.
//!
//! Our pair may also have to stop the opponent's threats first; then only pairs that both
//! defend and attack are tried. A defence that itself makes threats for the opponent is met
//! by that rule on our next turn.

use super::board::Board;
use crate::game::connect6::Stone;
use crate::game::{Color, Game};
use crate::search::budget::Budget;
use std::collections::HashMap;

/// Results already proved or refuted, by position hash: the largest depth at which the side to
/// move was shown to have no VCDT, or that it has one (at any depth: a win stays a win).
#[derive(Default)]
pub struct ThreatCache {
    entries: HashMap<u64, Known>,
}

#[derive(Clone, Copy)]
enum Known {
    Win,
    NoWinWithin(u8),
}

impl ThreatCache {
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    fn get(&self, hash: u64, depth: u8) -> Option<bool> {
        match self.entries.get(&hash)? {
            Known::Win => Some(true),
            Known::NoWinWithin(d) if *d >= depth => Some(false),
            Known::NoWinWithin(_) => None,
        }
    }

    fn put(&mut self, hash: u64, depth: u8, win: bool) {
        // Bounded: a runaway search must not eat the memory limit (256 MB on Botzone).
        if self.entries.len() > 1 << 20 {
            self.entries.clear();
        }
        let known = if win {
            Known::Win
        } else {
            Known::NoWinWithin(depth)
        };
        self.entries.insert(hash, known);
    }
}

/// A pair of ours that makes `threats` threats (2 or 3+) and leaves the opponent none.
struct Attack {
    stones: [Stone; 2],
    threats: u32,
}

/// Searches for a VCDT of the side to move, at most `depth` of its turns deep (the last turn
/// being the one that wins outright). Returns the first turn of the win: one stone or two.
/// `None` means none was found within the depth or the budget.
pub fn find_vcdt(
    board: &mut Board,
    depth: u8,
    budget: &mut Budget,
    cache: &mut ThreatCache,
) -> Option<Vec<Stone>> {
    let me = board.side();
    let left = board.pos.stones_left_in_turn();
    if let Some(win) = board.pos.immediate_win(me, left) {
        return Some(win);
    }
    if depth < 2 || left < 2 {
        return None;
    }
    for attack in attacks(board, budget) {
        let [a, b] = attack.stones;
        board.play(a);
        board.play(b);
        let won = attack.threats >= 3 || defences_fail(board, me, depth - 1, budget, cache);
        board.undo(b);
        board.undo(a);
        if won {
            return Some(vec![a, b]);
        }
        if budget.stopped() {
            return None;
        }
    }
    None
}

/// Whether the side to move has a VCDT within `depth` (cached).
fn has_vcdt(board: &mut Board, depth: u8, budget: &mut Budget, cache: &mut ThreatCache) -> bool {
    let hash = board.pos.hash();
    if let Some(known) = cache.get(hash, depth) {
        return known;
    }
    let win = find_vcdt(board, depth, budget, cache).is_some();
    if !budget.stopped() {
        cache.put(hash, depth, win);
    }
    win
}

/// The opponent to move faces exactly two threats of `attacker` and has none of its own: every
/// defending pair must leave `attacker` a VCDT within `depth`.
fn defences_fail(
    board: &mut Board,
    attacker: Color,
    depth: u8,
    budget: &mut Budget,
    cache: &mut ThreatCache,
) -> bool {
    let defences = board.pos.blocking_sets(attacker, 2);
    if defences.is_empty() {
        return true;
    }
    for d in defences {
        if d.len() != 2 {
            // A one-cell defence leaves a free stone we cannot enumerate: no proof here.
            return false;
        }
        budget.tick();
        if budget.stopped() {
            return false;
        }
        board.play(d[0]);
        board.play(d[1]);
        let lost = board.pos.winner().is_none() && has_vcdt(board, depth, budget, cache);
        board.undo(d[1]);
        board.undo(d[0]);
        if !lost {
            return false;
        }
    }
    true
}

/// Whether the side to move, facing no threat, can leave three threats with one pair (and so
/// win next turn): the cheapest VCDT, tested at the leaves of alpha-beta.
pub fn has_triple_threat(board: &mut Board) -> bool {
    let me = board.side();
    if board.pos.stones_left_in_turn() < 2 || board.pos.threats(me.opponent()) > 0 {
        return false;
    }
    let firsts = board.cells_of_live_windows(me, 2);
    for a in firsts {
        board.play(a);
        let mut found = false;
        if board.pos.winner().is_none() {
            for b in board.cells_of_live_windows(me, 3) {
                board.play(b);
                found = board.pos.threats(me) >= 3;
                board.undo(b);
                if found {
                    break;
                }
            }
        }
        board.undo(a);
        if found {
            return true;
        }
    }
    false
}

/// Our candidate double-threat pairs, the strongest first. A threat window after the pair holds
/// at least 4 of our stones; it got them either from both stones (it held 2), or from the second
/// (it held 3 after the first), or from the first alone (it held 3 before, and then the second
/// stone is free). So the first stone comes from windows with 2+ of our stones, the second from
/// windows with 3+ after the first, plus, when the opponent has threats, the cells that stop
/// them.
fn attacks(board: &mut Board, budget: &mut Budget) -> Vec<Attack> {
    let me = board.side();
    let them = me.opponent();
    let must_block = board.pos.threats(them);
    if must_block > 2 {
        return Vec::new();
    }
    let blockers: Vec<Stone> = if must_block > 0 {
        let mut cells: Vec<Stone> = board
            .pos
            .blocking_sets(them, 2)
            .into_iter()
            .flatten()
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    } else {
        Vec::new()
    };
    let mut firsts = board.cells_of_live_windows(me, 2);
    firsts.extend(blockers.iter().copied());
    firsts.sort_unstable();
    firsts.dedup();
    firsts.sort_by_key(|&p| -board.priority(p, me));
    let mut found: Vec<Attack> = Vec::new();
    let mut tried = std::collections::HashSet::new();
    for &a in &firsts {
        budget.tick();
        if budget.stopped() {
            break;
        }
        board.play(a);
        if board.pos.winner().is_none() {
            let mut seconds = board.cells_of_live_windows(me, 3);
            if must_block > 0 {
                seconds.extend(blockers.iter().copied().filter(|&c| c != a));
            }
            if board.pos.threats(me) >= 2 {
                // The first stone made the double threat alone: the second is free, so let it
                // be the most useful cell.
                seconds.extend(board.top_cells(me, 3));
            }
            seconds.sort_unstable();
            seconds.dedup();
            for b in seconds {
                if b == a || board.pos.color_at(b).is_some() || !tried.insert((a.min(b), a.max(b)))
                {
                    continue;
                }
                board.play(b);
                let ours = board.pos.threats(me);
                if ours >= 2 && board.pos.threats(them) == 0 {
                    found.push(Attack {
                        stones: [a, b],
                        threats: ours,
                    });
                }
                board.undo(b);
            }
        }
        board.undo(a);
    }
    found.sort_by_key(|at| std::cmp::Reverse(at.threats));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect6::{Connect6, Connect6Rules};

    /// Places stones of each colour directly (turn order does not matter for these puzzles),
    /// then gives `to_move` a full turn.
    fn position(black: &[(usize, usize)], white: &[(usize, usize)], to_move: Color) -> Board {
        let mut g = Connect6::new(Connect6Rules::SAU);
        for (c, stones) in [(Color::Black, black), (Color::White, white)] {
            for &(x, y) in stones {
                g.set_turn(c, 2);
                g.play(g.point(x, y));
            }
        }
        g.set_turn(to_move, 2);
        Board::new(&g)
    }

    #[test]
    fn three_open_lines_of_three_are_a_vcdt() {
        // Black: three separate lines of three; one pair makes two of them fours (two threats),
        // the defence blocks both, the third line and one more stone... the search must find a
        // proved win of depth 2 or 3.
        let black = [
            (5, 5),
            (6, 5),
            (7, 5),
            (5, 10),
            (6, 10),
            (7, 10),
            (5, 15),
            (6, 15),
            (7, 15),
        ];
        let mut b = position(&black, &[(0, 0), (18, 18)], Color::Black);
        let mut budget = Budget::nodes(2_000_000);
        let mut cache = ThreatCache::default();
        let win = find_vcdt(&mut b, 3, &mut budget, &mut cache);
        assert!(win.is_some(), "no VCDT found");
    }
}
