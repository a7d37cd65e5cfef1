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
//!
//! Optionally (`Reach::singles`), a line may also use turns of a single threat: one cell stops
//! it, and the defender's other stone is free. That stone is tried only at the defender's most
//! useful cells, so such a "win" is a strong guess rather than a proof.

use super::board::Board;
use crate::game::connect6::Stone;
use crate::game::{Color, Game};
use crate::search::budget::Budget;
use fxhash::{FxHashMap, FxHashSet};

/// How far a threat search looks: `depth` turns of the attacker (the winning one included), of
/// which at most `singles` may be single threats.
///
/// A single threat (one cell stops it) leaves the defender a free stone, so a proof would have to
/// try every empty cell. The search tries only the defender's `FREE_STONES` most useful cells
/// there: a strong heuristic, not a proof. With `singles == 0` the search is the exact VCDT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub depth: u8,
    pub singles: u8,
}

impl Reach {
    pub fn vcdt(depth: u8) -> Reach {
        Reach { depth, singles: 0 }
    }

    fn next(self, single: bool) -> Reach {
        Reach {
            depth: self.depth - 1,
            singles: self.singles - single as u8,
        }
    }
}

/// Free stones of the defender tried against a single threat.
const FREE_STONES: usize = 8;
/// Single-threat pairs tried at an attacker's node, the most promising first.
const SINGLE_ATTACKS: usize = 6;

/// Results already proved or refuted, by position hash and allowance of single threats: the
/// largest depth at which the side to move was shown to have no win, or that it has one (at any
/// depth: a win stays a win). FxHash rather than the standard SipHash: 1.7% fewer instructions
/// over two fixed-node games, the same moves.
#[derive(Default)]
pub struct ThreatCache {
    entries: FxHashMap<(u64, u8), Known>,
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

    fn get(&self, hash: u64, reach: Reach) -> Option<bool> {
        match self.entries.get(&(hash, reach.singles))? {
            Known::Win => Some(true),
            Known::NoWinWithin(d) if *d >= reach.depth => Some(false),
            Known::NoWinWithin(_) => None,
        }
    }

    fn put(&mut self, hash: u64, reach: Reach, win: bool) {
        // Bounded: a runaway search must not eat the memory limit (256 MB on Botzone).
        if self.entries.len() > 1 << 20 {
            self.entries.clear();
        }
        let known = if win {
            Known::Win
        } else {
            Known::NoWinWithin(reach.depth)
        };
        self.entries.insert((hash, reach.singles), known);
    }
}

/// A pair of ours that makes `threats` threats (2 or 3+) and leaves the opponent none.
struct Attack {
    stones: [Stone; 2],
    threats: u32,
}

/// Searches for a win of the side to move by threats within `reach`: double threats, and up to
/// `reach.singles` single ones, at most `reach.depth` of its turns deep (the last turn being the
/// one that wins outright). Returns the first turn of the win: one stone or two. `None` means
/// none was found within the reach or the budget.
pub fn find_threat_win(
    board: &mut Board,
    reach: Reach,
    budget: &mut Budget,
    cache: &mut ThreatCache,
) -> Option<Vec<Stone>> {
    let me = board.side();
    let left = board.pos.stones_left_in_turn();
    if let Some(win) = board.pos.immediate_win(me, left) {
        return Some(win);
    }
    if reach.depth < 2 || left < 2 {
        return None;
    }
    // Double threats first; single ones only if those fail (they are slower and less sure).
    let doubles: Vec<([Stone; 2], bool)> = attacks(board, budget)
        .into_iter()
        .map(|at| (at.stones, at.threats >= 3))
        .collect();
    if let Some(win) = first_winning(board, doubles, reach, budget, cache) {
        return Some(win);
    }
    if reach.singles == 0 || budget.stopped() {
        return None;
    }
    let singles = single_attacks(board, budget)
        .into_iter()
        .map(|p| (p, false))
        .collect();
    first_winning(board, singles, reach, budget, cache)
}

/// The first of `pairs` after which every defence loses within `reach` (a pair marked `true`
/// leaves three threats and wins outright).
fn first_winning(
    board: &mut Board,
    pairs: Vec<([Stone; 2], bool)>,
    reach: Reach,
    budget: &mut Budget,
    cache: &mut ThreatCache,
) -> Option<Vec<Stone>> {
    let me = board.side();
    for ([a, b], decisive) in pairs {
        board.play(a);
        board.play(b);
        let won = decisive || defences_fail(board, me, reach, budget, cache);
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

/// Whether the side to move has a threat win within `reach` (cached).
fn has_win(board: &mut Board, reach: Reach, budget: &mut Budget, cache: &mut ThreatCache) -> bool {
    let hash = board.pos.hash();
    if let Some(known) = cache.get(hash, reach) {
        return known;
    }
    let win = find_threat_win(board, reach, budget, cache).is_some();
    if !budget.stopped() {
        cache.put(hash, reach, win);
    }
    win
}

/// The opponent to move faces one or two threats of `attacker` and has none of its own: every
/// defence must leave `attacker` a threat win within `reach` (one turn less). A defence of two
/// stones is tried as it is; a one-stone defence leaves a free stone, tried at the defender's
/// most useful cells, and only while single threats are allowed (it spends one).
fn defences_fail(
    board: &mut Board,
    attacker: Color,
    reach: Reach,
    budget: &mut Budget,
    cache: &mut ThreatCache,
) -> bool {
    let defences = board.pos.blocking_sets(attacker, 2);
    if defences.is_empty() {
        return true;
    }
    let single = defences.iter().any(|d| d.len() < 2);
    if single && reach.singles == 0 {
        // A free stone we do not enumerate: no proof here.
        return false;
    }
    let next = reach.next(single);
    let defender = attacker.opponent();
    for d in defences {
        budget.tick();
        if budget.stopped() {
            return false;
        }
        let replies: Vec<[Stone; 2]> = match d[..] {
            [a, b] => vec![[a, b]],
            [a] => {
                board.play(a);
                let free = board.top_cells(defender, FREE_STONES);
                board.undo(a);
                free.into_iter().map(|f| [a, f]).collect()
            }
            _ => return false,
        };
        for [a, b] in replies {
            board.play(a);
            board.play(b);
            let lost = board.pos.winner().is_none() && has_win(board, next, budget, cache);
            board.undo(b);
            board.undo(a);
            if !lost {
                return false;
            }
        }
    }
    true
}

/// Where our attacking pairs start when the opponent's threats must be stopped with at most
/// `max_block` of our stones: the cells that stop them (sorted, no repeats; none when there is
/// nothing to stop), and the first stones to try, those cells and the cells of our windows
/// holding 2 or more (sorted by cell). `None` when stopping the opponent takes more stones.
fn pair_starts(board: &Board, max_block: u32) -> Option<(Vec<Stone>, Vec<Stone>)> {
    let me = board.side();
    let them = me.opponent();
    let must_block = board.pos.threats(them);
    if must_block > max_block {
        return None;
    }
    let mut blockers: Vec<Stone> = if must_block > 0 {
        board
            .pos
            .blocking_sets(them, max_block as u8)
            .into_iter()
            .flatten()
            .collect()
    } else {
        Vec::new()
    };
    blockers.sort_unstable();
    blockers.dedup();
    let mut firsts = board.cells_of_live_windows(me, 2);
    firsts.extend(blockers.iter().copied());
    firsts.sort_unstable();
    firsts.dedup();
    Some((blockers, firsts))
}

/// Our candidate single-threat pairs, at most `SINGLE_ATTACKS`, the strongest first by the
/// static value after them: a pair making exactly one threat (and leaving the opponent none)
/// whose other stone builds. Either one stone makes the threat (it joins a window holding 3)
/// and the other goes to our most useful cells, or both join a window holding 2.
fn single_attacks(board: &mut Board, budget: &mut Budget) -> Vec<[Stone; 2]> {
    let me = board.side();
    let them = me.opponent();
    let Some((blockers, firsts)) = pair_starts(board, 1) else {
        return Vec::new();
    };
    let mut tried = FxHashSet::default();
    let mut found: Vec<(i32, [Stone; 2])> = Vec::new();
    for a in firsts {
        budget.tick();
        if budget.stopped() {
            break;
        }
        board.play(a);
        if board.pos.winner().is_none() {
            let mut seconds = if board.pos.threats(me) >= 1 {
                board.top_cells(me, 8)
            } else {
                board.cells_of_live_windows(me, 3)
            };
            seconds.extend(blockers.iter().copied());
            for b in seconds {
                if b == a || board.pos.color_at(b).is_some() || !tried.insert((a.min(b), a.max(b)))
                {
                    continue;
                }
                board.play(b);
                if board.pos.winner().is_none()
                    && board.pos.threats(me) == 1
                    && board.pos.threats(them) == 0
                {
                    found.push((-board.order_value(them), [a, b]));
                }
                board.undo(b);
            }
        }
        board.undo(a);
    }
    found.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    found.truncate(SINGLE_ATTACKS);
    found.into_iter().map(|(_, p)| p).collect()
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
    let Some((blockers, mut firsts)) = pair_starts(board, 2) else {
        return Vec::new();
    };
    firsts.sort_by_key(|&p| -board.priority(p, me));
    let mut found: Vec<Attack> = Vec::new();
    let mut tried = FxHashSet::default();
    for &a in &firsts {
        budget.tick();
        if budget.stopped() {
            break;
        }
        board.play(a);
        if board.pos.winner().is_none() {
            let mut seconds = board.cells_of_live_windows(me, 3);
            seconds.extend(blockers.iter().copied().filter(|&c| c != a));
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
        let win = find_threat_win(&mut b, Reach::vcdt(3), &mut budget, &mut cache);
        assert!(win.is_some(), "no VCDT found");
    }

    /// Letters to cells: column then row, `A` = 0.
    fn cells(text: &str) -> Vec<(usize, usize)> {
        text.split_whitespace()
            .map(|s| {
                let b = s.as_bytes();
                ((b[0] - b'A') as usize, (b[1] - b'A') as usize)
            })
            .collect()
    }

    #[test]
    fn a_single_threat_opens_a_win_the_exact_search_cannot_see() {
        // From a game this engine lost to Cloudict (SAU, White to move after 13 stones): White
        // won with a turn making one threat, then double threats. The exact VCDT sees nothing
        // here; with single threats allowed the search finds a first turn of one threat.
        let black = cells("JJ LI LH LG LF KI NF");
        let white = cells("JK KJ HL HM LK LE");
        let mut b = position(&black, &white, Color::White);
        let mut cache = ThreatCache::default();
        let mut budget = Budget::nodes(5_000_000);
        assert_eq!(
            find_threat_win(&mut b, Reach::vcdt(10), &mut budget, &mut cache),
            None
        );
        let mut budget = Budget::nodes(5_000_000);
        let reach = Reach {
            depth: 8,
            singles: 2,
        };
        let win = find_threat_win(&mut b, reach, &mut budget, &mut cache).expect("a threat win");
        assert!(!budget.stopped());
        for &s in &win {
            b.play(s);
        }
        assert_eq!(
            b.pos.threats(Color::White),
            1,
            "the first turn is a single threat"
        );
    }
}
