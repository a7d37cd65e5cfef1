//! The Connect6 engine: threat-space search for forced wins, exact forced defences, and
//! alpha-beta over stone pairs for everything else.
//!
//! The `Engine` trait asks for one stone at a time; the engine decides the whole turn on its
//! first stone and keeps the second for the next call, checked against the position's hash.
//! A turn's decision, in order:
//! 1. six in a row now, if we have it;
//! 2. the opening book's turn (`book.rs`), if the book is on (it is off by default), or the
//!    prepared book's (`prepared.rs`, on by default); where the prepared book forgot a turn
//!    that kept losing, the search below leaves that turn out;
//! 3. a forced move (one defence only) at once, without searching;
//! 4. a victory by threats (`threats.rs`), within part of the time: continuous double threats,
//!    then lines with one single threat among them;
//! 5. otherwise alpha-beta over pairs (`alphabeta.rs`), deepened within most of what is left;
//! 6. the chosen turn checked against the opponent's threat lines of both kinds, and replaced
//!    by the next in alpha-beta's order that survives them if it does not;
//! 7. with `resume` on, the time the check left goes back to alpha-beta, from the iteration
//!    after its last complete one, and a better turn it finds is checked again.
//!
//! Beside it, `greedy.rs`: the searchless baseline the arena offers as `greedy`.

mod alphabeta;
pub(crate) mod board;
mod book;
#[cfg(test)]
mod focus_tests;
pub mod greedy;
mod lines;
pub mod network;
pub mod prepared;
mod threats;

pub use alphabeta::Width;

use super::{Decision, Engine};
use crate::game::connect6::{Connect6, Stone};
use crate::game::Game;
use crate::search::budget::Budget;
use crate::search::clock::{share_of_time_from, share_of_time_left, Limits};
use crate::search::score::win_rate;
use alphabeta::{Searcher, Table, Turn, WIN, WIN_BOUND};
use board::Board;
pub use board::{Weights, FITTED};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;
use threats::{Reach, ThreatCache};

#[derive(Clone, Debug)]
pub struct Connect6Config {
    pub seed: u64,
    /// Pair generation at quiet nodes.
    pub width: Width,
    /// Deepest VCDT tried, in our turns (including the winning one).
    pub vcdt_depth: u8,
    /// Deepest check of our chosen turn against the opponent's VCDT, in its turns.
    pub safety_depth: u8,
    /// When the chosen turn fails that check, search the candidates that pass it again among
    /// themselves (false: play the first that passes, in alpha-beta's order).
    pub safety_research: bool,
    /// Single threats allowed in a line of the threat searches (ours and the safety check's) once
    /// the exact VCDT has found nothing; 0 keeps them exact.
    pub singles: u8,
    /// Deepest threat search with single threats, in the attacker's turns.
    pub single_depth: u8,
    /// Share of the turn's time the VCDT search may use before alpha-beta starts.
    pub vcdt_share: f64,
    /// Share of the time left after the VCDT search that alpha-beta may use; the rest goes to
    /// checking the chosen turn against the opponent's threat sequences.
    pub ab_share: f64,
    /// Another alpha-beta iteration starts only while the time left is at least this many
    /// times what the iterations so far took (0: deepen until the time is up; a partial
    /// iteration still counts when it finds a better turn).
    pub deepen_ratio: f64,
    /// Whether alpha-beta resumes, one iteration deeper, with the time the safety check left.
    pub resume: bool,
    /// Whether an unsettled turn may borrow from a whole-game clock (`Limits::stretch_to`).
    pub stretch: bool,
    /// Whether the turns that decide a game may borrow from a whole-game clock, decided after
    /// each alpha-beta iteration: while a turn is one of the game's first (`focus_plies`), or
    /// unsettled, or its best two turns score within `focus_close`, the next iteration may start
    /// and run within alpha-beta's share of the loan instead of its share of the turn.
    pub focus: bool,
    /// With `focus`, a turn that starts before this many stones are on the board is one of the
    /// game's first.
    pub focus_plies: usize,
    /// With `focus`, the margin within which the best two root turns make a turn undecided.
    pub focus_close: i32,
    /// With `focus`, how a turn on the loan is shared: true, the safety check keeps only its
    /// share of the ordinary turn and alpha-beta may run until then; false, both take their
    /// shares of the loan as of a turn (the safety check rarely needs even the turn's share).
    pub focus_deep: bool,
    /// With `focus`, how many of the turns searched after a book's turn are the first out of
    /// the book: each is deciding after every iteration, whatever its search says, and
    /// alpha-beta runs on its loan as with `focus_deep` (issue 83: the turns out of the book get
    /// several times the average, since the book's turns saved the time; with the plan's
    /// `loan_cap` at two fifths that is up to 72 s of 180).
    pub exit_turns: u8,
    /// A fall of the root value this large between iterations of the same parity marks the
    /// turn unsettled.
    pub unsettled_drop: i32,
    /// Deepest alpha-beta iteration, in turns.
    pub max_depth: u8,
    /// Transposition table size, as a power of two of entries (24 bytes each).
    pub table_bits: u32,
    /// In the first `variety_plies` stones of a game, play any turn scored within `variety` of
    /// the best, chosen by the seed (0 turns it off).
    pub variety: i32,
    pub variety_plies: usize,
    /// Play the opening book's turns (`book.rs`) where it has one; with `variety` on, one of
    /// its symmetric forms at random.
    pub book: bool,
    /// Play the prepared book's turns (`prepared.rs`, built offline by long searches and
    /// learned from played games) where it has the position.
    pub prepared: bool,
    /// The evaluation and move-ordering numbers.
    pub weights: Weights,
    /// The learned evaluation (`network/`), which values positions in place of the fitted one
    /// when set.
    pub net: Option<std::sync::Arc<network::model::Network>>,
    /// With `net`: whether it also ranks the candidate turns (false: the fitted evaluation
    /// ranks them and the network values only the search's leaves).
    pub net_orders: bool,
}

impl Default for Connect6Config {
    fn default() -> Connect6Config {
        Connect6Config {
            seed: 1,
            width: Width::default(),
            vcdt_depth: 8,
            safety_depth: 10,
            // Measured without a gain (see docs/experiments/connect6.md): off.
            safety_research: false,
            // One single threat, to 7 turns: the lines Cloudict won most of its games with (see
            // docs/experiments/connect6.md).
            singles: 1,
            single_depth: 7,
            vcdt_share: 0.3,
            ab_share: AB_SHARE,
            deepen_ratio: 1.0,
            // Measured without a decision so far (see docs/experiments/connect6.md): off.
            resume: false,
            // Measured without a gain so far (see docs/experiments/connect6.md): off.
            stretch: false,
            // With the prepared book, +110 (+45 to +183) in self-play against both off, and 26-14
            // against Cloudict at depth 5 (see docs/experiments/connect6.md, stop 100): on.
            focus: true,
            focus_plies: FOCUS_PLIES,
            focus_close: FOCUS_CLOSE,
            // Measured without a gain (stop 103 in docs/experiments/connect6.md): off.
            focus_deep: false,
            // With the plan's loan cap of two fifths (`GamePlan::CONNECT6`): the same score as
            // without against Cloudict on the same first stones, and our clock used at depth 5
            // beyond issue 83's 60% (stop 111 in docs/experiments/connect6.md; stop 106, on the
            // book before, lost two games at depth 4 the default won): on.
            exit_turns: 2,
            unsettled_drop: UNSETTLED_DROP,
            max_depth: 12,
            table_bits: 18,
            variety: 15,
            variety_plies: 12,
            // Better against Cloudict, worse in self-play (see docs/experiments/connect6.md): off.
            book: false,
            // Measured with `focus` (above): on.
            prepared: true,
            weights: Weights::default(),
            net: None,
            net_orders: true,
        }
    }
}

/// The share of the time left after the VCDT search that alpha-beta may use. The safety check
/// after it follows lines with a single threat, which take up to a second or so for each
/// candidate turn at 7 turns deep, so it keeps two fifths (and its last complete depth if cut
/// short); what it does not use is left on the game clock.
const AB_SHARE: f64 = 0.6;
/// The fall of the root value that marks a turn unsettled: about a fifth of what a four-stone
/// window is worth.
const UNSETTLED_DROP: i32 = 20;
/// Root turns checked against the opponent's VCDT.
const SAFETY_CANDIDATES: usize = 16;
/// Our first four turns of a game (Black's start at stones 3, 7, 11 and 15, White's at 1, 5, 9
/// and 13): against Cloudict the games were decided there, lost games lost before any threat
/// line showed (see docs/experiments/connect6.md).
const FOCUS_PLIES: usize = 16;
/// Half the fall that marks a turn unsettled: turns closer than that are ones the next
/// iteration may well reorder.
const FOCUS_CLOSE: i32 = UNSETTLED_DROP / 2;

pub struct Connect6Engine {
    config: Connect6Config,
    table: Table,
    threat_cache: ThreatCache,
    /// Variety in the opening; seeded once, so successive games differ.
    rng: SmallRng,
    /// The second stone of the turn decided on the first, valid in the position whose hash is
    /// kept with it.
    planned: Option<(u64, Stone)>,
    /// The root turns of the last turn's alpha-beta, ranked by its last complete iteration
    /// (empty when the turn needed no alpha-beta): the book builder's replies.
    last_ranked: Vec<Turn>,
    /// Searched turns still to come that count as the first out of the book (`exit_turns`),
    /// set when a book plays a turn.
    exits_left: u8,
    /// Whether the turn being searched is one of those.
    on_exit: bool,
}

/// A long search's verdict on a position, for the book builder.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub turn: Vec<Stone>,
    /// For the side to move; `None` when no search gave one (a forced turn).
    pub value: Option<i32>,
    pub depth: u8,
    /// The other root turns, best first by the last complete iteration.
    pub ranked: Vec<Vec<Stone>>,
}

/// What the search concluded about a turn, for the decision's summary.
#[derive(Debug)]
struct Choice {
    turn: Turn,
    /// From our side: positive is good; beyond `WIN_BOUND` a proved win.
    value: Option<i32>,
    depth: u8,
}

impl Connect6Engine {
    pub fn new(config: Connect6Config) -> Connect6Engine {
        Connect6Engine {
            table: Table::new(config.table_bits),
            threat_cache: ThreatCache::default(),
            rng: SmallRng::seed_from_u64(config.seed),
            config,
            planned: None,
            last_ranked: Vec::new(),
            exits_left: 0,
            on_exit: false,
        }
    }

    /// The turn this engine chooses for `pos` under `limits`, with its value, depth and the
    /// other turns in the order its search ranked them.
    pub fn analyse(&mut self, pos: &Connect6, limits: Limits) -> Analysis {
        let mut budget = Budget::new(limits);
        let choice = self.choose(pos, &mut budget);
        let same = |t: &Turn| {
            let (mut a, mut b) = (t.clone(), choice.turn.clone());
            a.sort_unstable();
            b.sort_unstable();
            a == b
        };
        let ranked = self
            .last_ranked
            .iter()
            .filter(|t| !same(t))
            .cloned()
            .collect();
        Analysis {
            turn: choice.turn,
            value: choice.value,
            depth: choice.depth,
            ranked,
        }
    }

    /// Chooses a whole turn for the side to move.
    fn choose(&mut self, pos: &Connect6, budget: &mut Budget) -> Choice {
        self.last_ranked.clear();
        self.on_exit = false;
        let mut board = Board::with_weights(pos, self.config.weights);
        if let Some(net) = &self.config.net {
            board = board.with_network(std::sync::Arc::clone(net), self.config.net_orders);
        }
        let me = board.side();
        let left = pos.stones_left_in_turn();
        if let Some(win) = pos.immediate_win(me, left) {
            return Choice {
                turn: complete(&mut board, win),
                value: Some(WIN),
                depth: 0,
            };
        }
        let book = if self.config.book {
            book::book_turns(pos)
        } else {
            Vec::new()
        };
        if !book.is_empty() {
            let pick = if self.config.variety > 0 {
                self.rng.gen_range(0..book.len())
            } else {
                0
            };
            self.exits_left = self.config.exit_turns;
            return Choice {
                turn: book[pick].to_vec(),
                value: None,
                depth: 0,
            };
        }
        if let Some(turn) = self
            .config
            .prepared
            .then(|| prepared::built_in().turn(pos))
            .flatten()
        {
            self.exits_left = self.config.exit_turns;
            return Choice {
                turn,
                value: None,
                depth: 0,
            };
        }
        // The root is a node like any other, at ply 1. A turn the prepared book forgot here
        // (it kept losing) is not played again while there is another.
        let forgotten = self
            .config
            .prepared
            .then(|| prepared::built_in().forgotten_turn(pos))
            .flatten();
        let moves = without_turn(
            alphabeta::turn_moves(&mut board, self.config.width.at(1)),
            forgotten.as_deref(),
        );
        if moves.is_empty() {
            // Lost (three threats against us) or full: still play the most useful stones.
            let turn = board.top_cells(me, left as usize);
            return Choice {
                turn: complete(&mut board, turn),
                value: Some(-WIN),
                depth: 0,
            };
        }
        if moves.len() == 1 || pos.ply() == 0 {
            return Choice {
                turn: moves[0].clone(),
                value: None,
                depth: 0,
            };
        }
        let t0 = Instant::now();
        let vcdt = self.vcdt(&mut board, budget);
        trace(|| format!("  vcdt {:?} nodes {}", t0.elapsed(), budget.nodes));
        if let Some(win) = vcdt {
            return Choice {
                turn: complete(&mut board, win),
                value: Some(WIN),
                depth: 0,
            };
        }
        // Alpha-beta gets most of what is left; the rest goes to the safety check. With
        // `focus`, a deciding turn may take the same share of the whole loan (with
        // `exit_turns`, the first turns out of the book take more: `loan_for_alpha_beta`).
        self.on_exit = self.exits_left > 0;
        self.exits_left = self.exits_left.saturating_sub(1);
        let mut saved = budget.limits().stop_at;
        let loan = budget
            .limits()
            .stretch_to
            .filter(|&t| self.config.focus && saved.is_some_and(|s| t > s));
        let now = Instant::now();
        let loan_share = loan
            .zip(saved)
            .map(|(loan, turn)| self.loan_for_alpha_beta(now, turn, loan));
        budget.set_deadline(share_of_time_left(saved, self.config.ab_share));
        let t1 = Instant::now();
        let first = self.alpha_beta(&mut board, moves, budget, None, loan_share);
        if first.borrowed {
            // The safety check keeps its share of the longer turn.
            saved = loan;
        }
        let (mut choice, mut ranked, unsettled) = (first.choice, first.ranked, first.unsettled);
        self.last_ranked.clone_from(&ranked);
        let mut last = first.last;
        trace(|| {
            format!(
                "  alpha-beta {:?} depth {} nodes {} unsettled {unsettled} borrowed {}",
                t1.elapsed(),
                choice.depth,
                budget.nodes,
                first.borrowed
            )
        });
        // An unsettled turn (its best turn still changing, or its value falling) borrows from
        // the game clock when the platform's clock is a whole-game one: the search starts
        // again, the table keeping what it learnt, and the longer turn is shared as before.
        let stretch_to = budget.limits().stretch_to.filter(|_| self.config.stretch);
        if let Some(later) = stretch_to.filter(|&t| unsettled && saved.is_some_and(|s| t > s)) {
            saved = Some(later);
            budget.set_deadline(share_of_time_left(saved, self.config.ab_share));
            let t3 = Instant::now();
            let again = self.alpha_beta(&mut board, ranked, budget, None, None);
            (choice, ranked, last) = (again.choice, again.ranked, again.last);
            self.last_ranked.clone_from(&ranked);
            trace(|| {
                format!(
                    "  stretched {:?} depth {} nodes {}",
                    t3.elapsed(),
                    choice.depth,
                    budget.nodes
                )
            });
        }
        budget.set_deadline(saved);
        let mut safe = self.checked(&mut board, choice, &ranked, budget, saved);
        if !self.config.resume || budget.limits().max_iterations.is_some() {
            return safe;
        }
        // The safety check mostly ends in a moment, and alpha-beta stopped before an iteration
        // it could not finish in its share: with the time the check left, alpha-beta goes on
        // from the iteration after its last complete one, and a turn it finds better (or the
        // choice of a complete deeper iteration) is checked in turn. Another round starts only
        // while more time is left than alpha-beta has spent so far, the rule it keeps between
        // iterations.
        let mut spent = t1.elapsed();
        while let (Some(stop), Some((depth, value))) = (saved, last) {
            let left = stop.saturating_duration_since(Instant::now());
            if left < spent.mul_f64(self.config.deepen_ratio)
                || depth >= self.config.max_depth
                || value.abs() > WIN_BOUND
                || safe.value.is_some_and(|v| v > WIN_BOUND)
            {
                break;
            }
            budget.set_deadline(share_of_time_left(saved, self.config.ab_share));
            let t = Instant::now();
            let deeper = self.alpha_beta(&mut board, ranked.clone(), budget, last, None);
            spent += t.elapsed();
            trace(|| {
                format!(
                    "  resumed {:?} depth {} nodes {}",
                    t.elapsed(),
                    deeper.choice.depth,
                    budget.nodes
                )
            });
            budget.set_deadline(saved);
            if deeper.choice.depth <= depth {
                // Nothing better found: the checked choice stands.
                break;
            }
            (ranked, last) = (deeper.ranked, deeper.last);
            self.last_ranked.clone_from(&ranked);
            safe = self.checked(&mut board, deeper.choice, &ranked, budget, saved);
        }
        safe
    }

    /// Where alpha-beta stops on a turn that runs on the loan (the turn's own stop `turn`, the
    /// loan's end `loan`, from `now`): by default its share of the loan, as of an ordinary
    /// turn; with `focus_deep` (or on one of the first turns out of the book, `exit_turns`),
    /// the loan less the safety check's share of the ordinary turn, since the check needs no
    /// more on a longer turn (it rarely needs even that).
    fn loan_for_alpha_beta(&self, now: Instant, turn: Instant, loan: Instant) -> Instant {
        let share = self.config.ab_share;
        if self.config.focus_deep || self.on_exit {
            let check = turn.saturating_duration_since(now).mul_f64(1.0 - share);
            (loan - check).max(now)
        } else {
            share_of_time_from(now, loan, share)
        }
    }

    /// `avoid_forced_loss`, with a trace line.
    fn checked(
        &mut self,
        board: &mut Board,
        choice: Choice,
        ranked: &[Turn],
        budget: &mut Budget,
        saved: Option<Instant>,
    ) -> Choice {
        let t = Instant::now();
        let safe = self.avoid_forced_loss(board, choice, ranked, budget);
        trace(|| {
            format!(
                "  safety {:?} nodes {} left {:?}",
                t.elapsed(),
                budget.nodes,
                saved.map(|t| t.saturating_duration_since(Instant::now()))
            )
        });
        safe
    }

    /// Alpha-beta sees only as deep as it got; a double-threat attack of the opponent can be
    /// longer. So the chosen turn is checked with the opponent's VCDT search, deepened while
    /// the time lasts, and kept if the opponent has none at the deepest depth completed. A
    /// proved win needs no check.
    ///
    /// The reaches tried are the exact VCDT, deepened, then lines with a single threat, deepened;
    /// a turn beaten at one of them is out, whatever the others say.
    ///
    /// If the chosen turn loses that way, the first of the next turns in alpha-beta's order
    /// that survives is played. That order is a guess below the best (those values are only
    /// bounds, and a turn alpha-beta itself proved lost can come next), so with
    /// `safety_research` the survivors are instead searched again among themselves, with the
    /// time a whole-game clock can lend, and the best of them is played. If every candidate
    /// loses at some depth, the answer of the depth before stands (the loss may be beyond what
    /// the opponent will see).
    fn avoid_forced_loss(
        &mut self,
        board: &mut Board,
        choice: Choice,
        ranked: &[Turn],
        budget: &mut Budget,
    ) -> Choice {
        if choice.value.is_some_and(|v| v > WIN_BOUND) {
            return choice;
        }
        let candidates: Vec<Turn> = std::iter::once(choice.turn.clone())
            .chain(ranked.iter().filter(|t| **t != choice.turn).cloned())
            .take(SAFETY_CANDIDATES)
            .collect();
        // The reaches are not ordered by strength: the exact VCDT to 10 turns comes before the
        // lines with a single threat from 3 turns on, which see neither more nor less than it.
        // So a candidate lost at any reach stays lost, and one taken up late is first checked
        // at every reach before the current one.
        let reaches = self.threat_reaches(3, self.config.safety_depth);
        // How many of the reaches each candidate has survived; `None` once one beat it.
        let mut passed: Vec<Option<usize>> = vec![Some(0); candidates.len()];
        // The first survivor at the last reach completed, and that reach's index.
        let mut safe: Option<(usize, usize)> = None;
        'reaches: for r in 0..reaches.len() {
            let mut found = None;
            for (i, turn) in candidates.iter().enumerate() {
                let Some(from) = passed[i] else { continue };
                let Some(alive) = self.survives(board, turn, &reaches[from..=r], budget) else {
                    break 'reaches;
                };
                passed[i] = alive.then_some(r + 1);
                if alive {
                    found = Some(i);
                    break;
                }
            }
            match found {
                Some(at) => safe = Some((at, r)),
                None => break,
            }
        }
        let Some((at, last)) = safe.filter(|&(at, _)| at != 0) else {
            // The chosen turn (first of the candidates) survived, or nothing was decided.
            return choice;
        };
        let first_safe = candidates[at].clone();
        if !self.config.safety_research {
            return Choice {
                turn: first_safe,
                value: None,
                depth: choice.depth,
            };
        }
        if let Some(later) = budget.limits().stretch_to {
            if budget.limits().stop_at.is_some_and(|t| later > t) {
                budget.set_deadline(Some(later));
            }
        }
        let mut survivors = vec![first_safe.clone()];
        for (turn, from) in candidates.iter().zip(&passed).skip(at + 1) {
            let Some(from) = *from else { continue };
            match self.survives(board, turn, &reaches[from..=last], budget) {
                Some(true) => survivors.push(turn.clone()),
                Some(false) => {}
                None => break,
            }
        }
        let t = Instant::now();
        let best = self.alpha_beta(board, survivors, budget, None, None).choice;
        trace(|| {
            format!(
                "  safety replaced the choice: re-searched {:?} depth {} value {:?}",
                t.elapsed(),
                best.depth,
                best.value
            )
        });
        if best.depth == 0 {
            // Nothing complete: the first survivor in alpha-beta's order.
            return Choice {
                turn: first_safe,
                value: None,
                depth: choice.depth,
            };
        }
        best
    }

    /// Whether our `turn` survives each of `reaches`, tried in order (`None`: the budget ran
    /// out before that was known).
    fn survives(
        &mut self,
        board: &mut Board,
        turn: &Turn,
        reaches: &[Reach],
        budget: &mut Budget,
    ) -> Option<bool> {
        for &reach in reaches {
            let lost = self.loses_to_threats(board, turn, reach, budget);
            if budget.stopped() {
                return None;
            }
            if lost {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Whether, after our `turn`, the opponent wins by threats within `reach`.
    fn loses_to_threats(
        &mut self,
        board: &mut Board,
        turn: &Turn,
        reach: Reach,
        budget: &mut Budget,
    ) -> bool {
        for &s in turn {
            board.play(s);
        }
        let lost = board.pos.winner().is_none()
            && threats::find_threat_win(board, reach, budget, &mut self.threat_cache).is_some();
        for &s in turn.iter().rev() {
            board.undo(s);
        }
        lost
    }

    /// Iteratively deepened VCDT search within its share of the time.
    fn vcdt(&mut self, board: &mut Board, budget: &mut Budget) -> Option<Turn> {
        let saved = budget.limits().stop_at;
        budget.set_deadline(share_of_time_left(saved, self.config.vcdt_share));
        self.threat_cache.clear();
        let mut found = None;
        for reach in self.threat_reaches(2, self.config.vcdt_depth) {
            found = threats::find_threat_win(board, reach, budget, &mut self.threat_cache);
            if found.is_some() || budget.stopped() {
                break;
            }
        }
        budget.set_deadline(saved);
        found
    }

    /// The threat searches' iterations, cheapest first: the exact VCDT from `first` to `last`
    /// turns, then, if single threats are on, searches allowing them, from 3 turns to
    /// `single_depth`. (A single threat is the slower and less certain search, so it only
    /// starts once the exact one has said what it can.)
    fn threat_reaches(&self, first: u8, last: u8) -> Vec<Reach> {
        let mut reaches: Vec<Reach> = (first..=last).map(Reach::vcdt).collect();
        let singles = self.config.singles;
        if singles > 0 {
            reaches.extend((3..=self.config.single_depth).map(|depth| Reach { depth, singles }));
        }
        reaches
    }

    /// Iteratively deepened alpha-beta over the root turns `moves`, from depth 1, or with
    /// `after` (the depth and best value of an earlier call's last complete iteration, `moves`
    /// in its order) from the depth after it. With `loan` (a deadline later than the budget's,
    /// given with `focus`), each iteration after one that leaves the turn `deciding` stops at
    /// the loan instead, and the budget's own deadline comes back once the turn is settled.
    fn alpha_beta(
        &mut self,
        board: &mut Board,
        mut moves: Vec<Turn>,
        budget: &mut Budget,
        after: Option<(u8, i32)>,
        loan: Option<Instant>,
    ) -> Searched {
        let started = Instant::now();
        let own_stop = budget.limits().stop_at;
        let mut borrowed = false;
        let mut best = Choice {
            turn: moves[0].clone(),
            value: after.map(|(_, v)| v),
            depth: after.map_or(0, |(d, _)| d),
        };
        let mut last = after;
        let width = self.config.width;
        let variety = if board.pos.ply() < self.config.variety_plies {
            self.config.variety
        } else {
            0
        };
        // Root turns scored within this of the best get exact scores, not just bounds: those
        // within `variety` for its choice, and with a loan those within `focus_close`, so that
        // two close turns are known to be close.
        let exact = if loan.is_some() {
            variety.max(self.config.focus_close)
        } else {
            variety
        };
        let mut last_scores: Vec<i32> = Vec::new();
        // The best value of each complete iteration, and whether the best turn changed.
        let mut values: Vec<i32> = after.iter().map(|&(_, v)| v).collect();
        let mut changed = false;
        for depth in best.depth + 1..=self.config.max_depth {
            let mut searcher = Searcher {
                board,
                table: &mut self.table,
                budget,
                width,
            };
            let mut alpha = -WIN;
            let mut scores: Vec<(i32, usize)> = Vec::new();
            let mut complete = true;
            for (i, m) in moves.iter().enumerate() {
                let v = searcher.try_turn(m, depth, alpha - exact, WIN, 1);
                if searcher.budget.stopped() {
                    complete = false;
                    break;
                }
                scores.push((v, i));
                alpha = alpha.max(v);
            }
            if !complete {
                // A partial iteration still counts if its first (previous best) turn was
                // searched and something beat it.
                if let Some(&(v, i)) = scores.iter().max_by_key(|(v, i)| (*v, -(*i as i64))) {
                    if scores.len() > 1 && i != 0 && best.value.is_some_and(|b| v > b) {
                        changed = true;
                        best = Choice {
                            turn: moves[i].clone(),
                            value: Some(v),
                            depth,
                        };
                    }
                }
                break;
            }
            // Best first for the next iteration; ties keep the earlier order.
            scores.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            moves = scores.iter().map(|&(_, i)| moves[i].clone()).collect();
            last_scores = scores.iter().map(|&(v, _)| v).collect();
            changed = depth > 1 && moves[0] != best.turn;
            values.push(scores[0].0);
            last = Some((depth, scores[0].0));
            best = Choice {
                turn: moves[0].clone(),
                value: Some(scores[0].0),
                depth,
            };
            if scores[0].0.abs() > WIN_BOUND {
                // Proved either way: nothing to stretch for.
                return Searched {
                    choice: best,
                    ranked: moves,
                    unsettled: false,
                    last,
                    borrowed,
                };
            }
            if loan.is_some() {
                let deciding = self.deciding(board.pos.ply(), changed, &values, &last_scores);
                budget.set_deadline(if deciding { loan } else { own_stop });
                borrowed |= deciding;
            }
            // Another iteration costs several times this one and will rarely end, but its
            // first turns are searched first, so a partial iteration that finds a better turn
            // still counts (above): start one while more time is left than this one took.
            // (Waiting for three times as much left most of the SAU clock unspent.)
            if let Some(stop) = budget.limits().stop_at {
                let spent = started.elapsed();
                let left = stop.saturating_duration_since(Instant::now());
                if left < spent.mul_f64(self.config.deepen_ratio) {
                    break;
                }
            }
        }
        let unsettled = changed || falling(&values, self.config.unsettled_drop);
        if !last_scores.is_empty() {
            trace(|| {
                let top: Vec<String> = moves
                    .iter()
                    .zip(&last_scores)
                    .take(8)
                    .map(|(m, v)| {
                        let cells: String = m.iter().map(|&s| letters(&board.pos, s)).collect();
                        format!("{cells} {v}")
                    })
                    .collect();
                format!("  root {}", top.join(", "))
            });
        }
        if variety > 0 && best.value.is_some_and(|v| v.abs() < WIN_BOUND) && !last_scores.is_empty()
        {
            // Early in the game, any turn within `variety` of the best: games between the same
            // programs then differ, and an opponent cannot replay a won game against us.
            let close = last_scores
                .iter()
                .take_while(|&&v| v >= last_scores[0] - variety)
                .count();
            let pick = self.rng.gen_range(0..close);
            best.turn = moves[pick].clone();
            best.value = Some(last_scores[pick]);
        }
        Searched {
            choice: best,
            ranked: moves,
            unsettled,
            last,
            borrowed,
        }
    }

    /// Whether a turn is one that decides the game, worth the clock's loan with `focus`: one of
    /// the first out of the book (`exit_turns`), or one of the game's first (it starts at stone
    /// `ply`), or its search unsettled (the best turn `changed` at the last iteration, or the
    /// best `values` of the iterations falling), or its best two turns within `focus_close`
    /// (`scores`: the last iteration's, best first).
    fn deciding(&self, ply: usize, changed: bool, values: &[i32], scores: &[i32]) -> bool {
        let close =
            matches!(scores, [best, second, ..] if best - second <= self.config.focus_close);
        self.on_exit
            || ply < self.config.focus_plies
            || changed
            || falling(values, self.config.unsettled_drop)
            || close
    }
}

/// What `alpha_beta` found.
struct Searched {
    choice: Choice,
    /// All root turns, ranked by the last complete iteration.
    ranked: Vec<Turn>,
    /// Whether the search is unsettled: its last iterations changed the best turn, or lowered
    /// its value by `UNSETTLED_DROP` or more against the iteration two before (same parity: the
    /// values of odd and even depths differ by the turn's tempo).
    unsettled: bool,
    /// The depth and best value of the last complete iteration.
    last: Option<(u8, i32)>,
    /// Whether the search ran on the loan (`focus`) at some iteration, and may have gone past
    /// the budget's own deadline.
    borrowed: bool,
}

/// `moves` less `turn` (its stones in either order), unless that would leave none: book
/// learning forgets a turn so that the search tries another (`prepared.rs`), and the search
/// with its opening variety would otherwise often choose the same turn again.
fn without_turn(mut moves: Vec<Turn>, turn: Option<&[Stone]>) -> Vec<Turn> {
    let Some(turn) = turn else { return moves };
    let same = |t: &Turn| t.len() == turn.len() && t.iter().all(|s| turn.contains(s));
    if moves.iter().any(|t| !same(t)) {
        moves.retain(|t| !same(t));
    }
    moves
}

/// Whether the best values of the complete iterations, in order, end with a fall of `drop` or
/// more against the iteration two before (the same parity: odd and even depths differ by the
/// turn's tempo).
fn falling(values: &[i32], drop: i32) -> bool {
    match values {
        [.., before, _, last] => *last <= *before - drop,
        _ => false,
    }
}

/// With `STONEBRAIN_TRACE` set, writes a line about the search to standard error (the time each
/// phase took, for tuning the clock).
fn trace(line: impl FnOnce() -> String) {
    if std::env::var_os("STONEBRAIN_TRACE").is_some() {
        eprintln!("{}", line());
    }
}

/// A cell as two letters, column then row from `A` (as the SAU platform writes them), for
/// traces and printed games.
fn letters(pos: &Connect6, s: Stone) -> String {
    let (x, y) = pos.coords(s);
    [x, y].iter().map(|&c| (b'A' + c as u8) as char).collect()
}

/// A turn's stones, topped up to a whole turn (a one-stone win still places the second stone
/// if the rules ask for it: they do not, the game ends, so only trim to what is legal).
fn complete(board: &mut Board, stones: Vec<Stone>) -> Turn {
    let left = board.pos.stones_left_in_turn() as usize;
    let mut turn: Turn = stones.into_iter().take(left).collect();
    if turn.is_empty() {
        turn = board.top_cells(board.side(), 1);
    }
    turn
}

impl Engine<Connect6> for Connect6Engine {
    fn new_game(&mut self) {
        self.planned = None;
        self.exits_left = 0;
        self.table.clear();
        self.threat_cache.clear();
    }

    fn observe(&mut self, _pos_before: &Connect6, _m: Stone) {}

    fn think(&mut self, pos: &Connect6, limits: Limits) -> Decision<Stone> {
        let start = Instant::now();
        if let Some((_, m)) = self
            .planned
            .take()
            .filter(|&(h, m)| h == pos.hash() && pos.check_move(m).is_ok())
        {
            return Decision {
                mv: Some(m),
                win_rate: None,
                work: 0,
                work_unit: "nodes",
                elapsed: start.elapsed(),
            };
        }
        if pos.outcome().is_some() {
            return Decision::none();
        }
        let mut budget = Budget::new(limits);
        let choice = self.choose(pos, &mut budget);
        let first = choice.turn[0];
        if let Some(&second) = choice.turn.get(1) {
            let mut after = pos.clone();
            after.play(first);
            if after.outcome().is_none() {
                self.planned = Some((after.hash(), second));
            }
        }
        trace(|| {
            format!(
                "ply {} depth {} value {:?} nodes {} {:?}",
                pos.ply(),
                choice.depth,
                choice.value,
                budget.nodes,
                start.elapsed()
            )
        });
        Decision {
            mv: Some(first),
            win_rate: choice.value.map(|v| win_rate(v, 400.0)),
            work: budget.nodes,
            work_unit: "nodes",
            elapsed: start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::random::RandomPlayer;
    use crate::game::connect6::Connect6Rules;
    use crate::game::{Color, Outcome};
    use std::time::Duration;

    /// Plays one game, the engine as `engine_color`, each engine stone under `limits`.
    fn game_vs(
        engine: &mut dyn Engine<Connect6>,
        other: &mut dyn Engine<Connect6>,
        engine_color: Color,
        limits: impl Fn() -> Limits,
    ) -> Option<Outcome> {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        engine.new_game();
        other.new_game();
        while pos.outcome().is_none() {
            let who: &mut dyn Engine<Connect6> = if pos.side_to_move() == engine_color {
                &mut *engine
            } else {
                &mut *other
            };
            let d = who.think(&pos, limits());
            let m = d.mv.expect("a move while the game is on");
            pos.try_play(m).expect("a legal move");
        }
        pos.outcome()
    }

    #[test]
    fn a_value_falling_against_its_parity_unsettles_the_turn() {
        assert!(!falling(&[], 20));
        assert!(
            !falling(&[50, -40], 20),
            "two iterations have no same-parity pair"
        );
        // Odd and even depths alternate high and low: that alone is settled.
        assert!(!falling(&[80, -40, 85, -35, 80], 20));
        assert!(falling(&[80, -40, 60], 20));
        assert!(falling(&[80, -40, 85, -60], 20));
        assert!(!falling(&[80, -40, 85, -59], 20));
    }

    /// A turn written in SAU letters (column then row from `A`, two letters a stone).
    pub(super) fn sau_turn(pos: &Connect6, t: &str) -> Turn {
        t.as_bytes()
            .chunks(2)
            .map(|c| pos.point((c[0] - b'A') as usize, (c[1] - b'A') as usize))
            .collect()
    }

    /// The 19x19 position after `turns`, SAU-lettered turns separated by spaces, from Black's
    /// first stone.
    pub(super) fn after_turns(turns: &str) -> Connect6 {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        for t in turns.split(' ') {
            for s in sau_turn(&pos, t) {
                pos.play(s);
            }
        }
        pos
    }

    /// Black to move after 19 stones of a game this engine lost to Cloudict.
    fn lost_game_at_19() -> Connect6 {
        after_turns("JJ JKKJ ILIK KIII KLJL JILI GIMI MLLK HGNM HJLJ")
    }

    /// Alpha-beta's best turn there (LHKG) loses to White's double threats, and the next in its
    /// order (JHGL, with only a bound for a value) is a loss alpha-beta proves at depth 9. The
    /// first candidate that passes the threat check used to be played, JHGL; the survivors are
    /// now searched again among themselves, and neither losing turn is chosen.
    #[test]
    fn a_rejected_choice_is_replaced_by_the_best_survivor() {
        let pos = lost_game_at_19();
        let (lhkg, jhgl) = (sau_turn(&pos, "LHKG"), sau_turn(&pos, "JHGL"));
        let mut board = Board::new(&pos);
        let mut checker = Connect6Engine::new(Connect6Config::default());
        let mut white_wins_after = |board: &mut Board, t: &Turn| {
            let mut budget = Budget::nodes(5_000_000);
            checker.loses_to_threats(board, t, Reach::vcdt(10), &mut budget)
        };
        assert!(white_wins_after(&mut board, &lhkg));
        assert!(!white_wins_after(&mut board, &jhgl));
        let mut table = Table::new(16);
        let mut budget = Budget::nodes(u64::MAX);
        let mut searcher = Searcher {
            board: &mut board,
            table: &mut table,
            budget: &mut budget,
            width: Width::default(),
        };
        assert!(searcher.try_turn(&jhgl, 9, -WIN, WIN, 1) < -WIN_BOUND);

        let ranked: Vec<Turn> = ["JHGL", "LLMK", "LLLG", "LLKG", "LHGL", "LHFL", "LLGL"]
            .iter()
            .map(|t| sau_turn(&pos, t))
            .collect();
        let decide = |research: bool| {
            // Exact lines only: the check with single threats rejects JHGL too.
            let mut engine = Connect6Engine::new(Connect6Config {
                safety_research: research,
                singles: 0,
                variety: 0,
                ..Connect6Config::default()
            });
            let choice = Choice {
                turn: lhkg.clone(),
                value: Some(65),
                depth: 9,
            };
            let mut board = Board::new(&pos);
            let mut budget = Budget::nodes(300_000);
            engine.avoid_forced_loss(&mut board, choice, &ranked, &mut budget)
        };
        assert_eq!(decide(false).turn, jhgl);
        let chosen = decide(true);
        assert!(chosen.turn != lhkg && chosen.turn != jhgl, "{chosen:?}");
        assert!(chosen.value.is_some_and(|v| v > -WIN_BOUND), "{chosen:?}");
        assert!(!white_wins_after(&mut board, &chosen.turn));
    }

    /// Black to move at its fourth turn of a game this engine lost to Cloudict at depth 4 (our
    /// Black went on with IJKK, and Cloudict won with a line that has one single threat in it,
    /// seven of its turns long). No exact VCDT follows IJKK, so the safety check with exact
    /// lines only keeps it; with single threats it is rejected, as is IJKI (lost in five), and
    /// HIKI, which survives them, is played.
    #[test]
    fn the_safety_check_sees_lines_with_a_single_threat() {
        let pos = after_turns("JJ JKKJ LILK LMKL");
        let [ijkk, ijki, hiki] = ["IJKK", "IJKI", "HIKI"].map(|t| sau_turn(&pos, t));
        let mut board = Board::new(&pos);
        let mut checker = Connect6Engine::new(Connect6Config::default());
        let mut white_wins_after = |t: &Turn, reach: Reach| {
            let mut budget = Budget::nodes(20_000_000);
            checker.loses_to_threats(&mut board, t, reach, &mut budget)
        };
        let single = Reach {
            depth: 7,
            singles: 1,
        };
        assert!(!white_wins_after(&ijkk, Reach::vcdt(10)));
        assert!(white_wins_after(&ijkk, single));
        assert!(white_wins_after(&ijki, single));
        assert!(!white_wins_after(&hiki, single));

        let decide = |singles: u8| {
            let mut engine = Connect6Engine::new(Connect6Config {
                singles,
                single_depth: 7,
                variety: 0,
                ..Connect6Config::default()
            });
            let choice = Choice {
                turn: ijkk.clone(),
                value: Some(40),
                depth: 7,
            };
            let ranked = vec![ijkk.clone(), ijki.clone(), hiki.clone()];
            let mut board = Board::new(&pos);
            let mut budget = Budget::nodes(50_000_000);
            engine.avoid_forced_loss(&mut board, choice, &ranked, &mut budget)
        };
        assert_eq!(decide(0).turn, ijkk);
        assert_eq!(decide(1).turn, hiki);
    }

    /// White to move at its third turn of a game this engine lost to Cloudict at depth 5: the
    /// variety of the opening chose JILK, which an exact VCDT of 8 turns beats but no line with
    /// a single threat of up to 7 turns does. The check used to reject it at the exact reach and
    /// take it back at the first single-threat one, which is shallower; it now plays JILH, the
    /// next in alpha-beta's order, which survives every reach.
    #[test]
    fn a_turn_lost_at_one_reach_stays_lost_at_the_next() {
        let pos = after_turns("JJ KJJK KKII GGMH LIKI");
        let [jilk, jilh, milh] = ["JILK", "JILH", "MILH"].map(|t| sau_turn(&pos, t));
        let mut board = Board::new(&pos);
        let mut checker = Connect6Engine::new(Connect6Config::default());
        let mut black_wins_after = |t: &Turn, reach: Reach| {
            let mut budget = Budget::nodes(5_000_000);
            checker.loses_to_threats(&mut board, t, reach, &mut budget)
        };
        let single = Reach {
            depth: 7,
            singles: 1,
        };
        assert!(black_wins_after(&jilk, Reach::vcdt(8)));
        assert!(!black_wins_after(&jilk, single));
        assert!(!black_wins_after(&jilh, Reach::vcdt(10)));
        assert!(!black_wins_after(&jilh, single));

        let mut engine = Connect6Engine::new(Connect6Config {
            variety: 0,
            ..Connect6Config::default()
        });
        let choice = Choice {
            turn: jilk.clone(),
            value: Some(-438),
            depth: 10,
        };
        let ranked = vec![jilh.clone(), milh, jilk];
        let mut budget = Budget::nodes(20_000_000);
        let chosen = engine.avoid_forced_loss(&mut board, choice, &ranked, &mut budget);
        assert_eq!(chosen.turn, jilh);
    }

    /// Alpha-beta given an earlier call's last complete iteration goes on from the depth after
    /// it, in the earlier order, and needs fewer nodes for it than a search from depth 1.
    #[test]
    fn alpha_beta_resumes_after_its_last_complete_iteration() {
        let pos = after_turns("JJ JKKJ");
        let engine_to = |max_depth: u8| {
            Connect6Engine::new(Connect6Config {
                max_depth,
                variety: 0,
                ..Connect6Config::default()
            })
        };
        let moves = |board: &mut Board| alphabeta::turn_moves(board, Width::default().at(1));
        let mut board = Board::new(&pos);
        let mut engine = engine_to(3);
        let root = moves(&mut board);
        let first = engine.alpha_beta(&mut board, root, &mut Budget::nodes(u64::MAX), None, None);
        let (depth, value) = first.last.expect("three complete iterations");
        assert_eq!(depth, 3);
        assert_eq!(first.choice.value, Some(value));

        engine.config.max_depth = 4;
        let mut budget = Budget::nodes(u64::MAX);
        let resumed = engine.alpha_beta(&mut board, first.ranked, &mut budget, first.last, None);
        assert_eq!(resumed.last.map(|(d, _)| d), Some(4));
        assert_eq!(resumed.choice.depth, 4);

        let mut fresh = engine_to(4);
        let mut fresh_budget = Budget::nodes(u64::MAX);
        let root = moves(&mut board);
        let whole = fresh.alpha_beta(&mut board, root, &mut fresh_budget, None, None);
        assert_eq!(whole.last.map(|(d, _)| d), Some(4));
        assert!(
            budget.nodes < fresh_budget.nodes,
            "resumed {} nodes, from depth 1 {}",
            budget.nodes,
            fresh_budget.nodes
        );
    }

    /// With resuming on, a timed turn still ends by its limit (with a second's slack for a
    /// loaded machine), and plays a legal stone.
    #[test]
    fn a_resumed_turn_ends_by_its_limit() {
        let mut engine = Connect6Engine::new(Connect6Config {
            resume: true,
            ..Connect6Config::default()
        });
        let pos = after_turns("JJ JKKJ");
        let start = Instant::now();
        let d = engine.think(&pos, Limits::until(start + Duration::from_millis(300)));
        assert!(pos.check_move(d.mv.unwrap()).is_ok());
        assert!(
            start.elapsed() < Duration::from_millis(1300),
            "{:?}",
            start.elapsed()
        );
    }

    /// With stretching on, a turn given a loan ends by the loan's end; without a loan it ends
    /// by its own limit (each with a second's slack for a loaded machine).
    #[test]
    fn a_stretched_turn_ends_by_the_loan() {
        let mut engine = Connect6Engine::new(Connect6Config {
            stretch: true,
            ..Connect6Config::default()
        });
        let mut pos = Connect6::new(Connect6Rules::SAU);
        for (x, y) in [(9, 9), (10, 10), (8, 10), (10, 8), (11, 9)] {
            pos.play(pos.point(x, y));
        }
        let start = Instant::now();
        let limits = Limits::until(start + Duration::from_millis(100))
            .stretchable(Some(start + Duration::from_millis(400)));
        let d = engine.think(&pos, limits);
        assert!(pos.check_move(d.mv.unwrap()).is_ok());
        assert!(
            start.elapsed() < Duration::from_millis(1400),
            "{:?}",
            start.elapsed()
        );
    }

    /// White's first turn comes from the book, both stones, without a search; with the book
    /// off the search decides (and its usual choice is not the book's). The prepared book,
    /// which also answers the centre stone, is off here.
    #[test]
    fn the_book_plays_whites_first_turn() {
        let turn = |book: bool| {
            let mut engine = Connect6Engine::new(Connect6Config {
                book,
                prepared: false,
                ..Connect6Config::default()
            });
            let mut pos = Connect6::new(Connect6Rules::SAU);
            pos.play(pos.point(9, 9));
            let mut cells = Vec::new();
            let mut work = 0;
            for _ in 0..2 {
                let d = engine.think(&pos, Limits::iterations(20_000));
                let m = d.mv.unwrap();
                assert!(pos.check_move(m).is_ok());
                work += d.work;
                cells.push(pos.coords(m));
                pos.play(m);
            }
            cells.sort();
            (cells, work)
        };
        let (cells, work) = turn(true);
        assert_eq!(work, 0, "no search");
        assert!(
            cells
                .iter()
                .all(|&(x, y)| x.abs_diff(9) + y.abs_diff(9) == 1),
            "{cells:?}"
        );
        assert!(
            cells[0].0 != cells[1].0 && cells[0].1 != cells[1].1,
            "{cells:?}"
        );
        let (_, work) = turn(false);
        assert!(work > 0, "searched");
    }

    /// A forgotten turn leaves the root's candidates, its stones in either order, unless it is
    /// the only one.
    #[test]
    fn a_forgotten_turn_leaves_the_candidates() {
        let turns: Vec<Turn> = vec![vec![1, 2], vec![3, 4], vec![2, 5]];
        assert_eq!(
            without_turn(turns.clone(), Some(&[2, 1])),
            vec![vec![3, 4], vec![2, 5]]
        );
        assert_eq!(without_turn(turns.clone(), Some(&[7, 8])), turns);
        assert_eq!(without_turn(turns.clone(), None), turns);
        assert_eq!(
            without_turn(vec![vec![1, 2]], Some(&[1, 2])),
            vec![vec![1, 2]]
        );
    }

    #[test]
    fn the_engine_beats_random_with_both_colours() {
        let mut engine = Connect6Engine::new(Connect6Config::default());
        for (i, colour) in [Color::Black, Color::White].into_iter().enumerate() {
            let mut random = RandomPlayer::new(i as u64);
            let outcome = game_vs(&mut engine, &mut random, colour, || {
                Limits::iterations(3000)
            });
            assert_eq!(outcome, Some(Outcome::Win(colour)));
        }
    }

    /// Not a test: a quick sparring session to watch (`cargo test --release -- --ignored spar
    /// --nocapture`).
    #[test]
    #[ignore]
    fn spar_against_random() {
        let mut engine = Connect6Engine::new(Connect6Config::default());
        let mut wins = 0;
        for i in 0..10u64 {
            let colour = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let mut random = RandomPlayer::new(i);
            let t = Instant::now();
            let o = game_vs(&mut engine, &mut random, colour, || {
                Limits::time(Duration::from_millis(100))
            });
            wins += (o == Some(Outcome::Win(colour))) as u32;
            println!("game {i}: {o:?} in {:?}", t.elapsed());
        }
        println!("{wins}/10");
    }

    /// Not a test: the full engine against a one-turn-deep version of itself.
    #[test]
    #[ignore]
    fn spar_against_shallow() {
        let mut engine = Connect6Engine::new(Connect6Config::default());
        let mut shallow = Connect6Engine::new(Connect6Config {
            max_depth: 1,
            vcdt_depth: 2,
            ..Connect6Config::default()
        });
        let mut wins = 0;
        for i in 0..6u64 {
            let colour = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let t = Instant::now();
            let o = game_vs(&mut engine, &mut shallow, colour, || {
                Limits::time(Duration::from_millis(200))
            });
            wins += (o == Some(Outcome::Win(colour))) as u32;
            println!("game {i}: {o:?} in {:?}", t.elapsed());
        }
        println!("{wins}/6");
    }
}

#[cfg(test)]
mod selfplay_print {
    use super::*;
    use crate::game::connect6::Connect6Rules;
    use std::time::Duration;

    /// Not a test: prints a self-play game's stones per colour after each turn, in SAU letters.
    #[test]
    #[ignore]
    fn print_selfplay() {
        let mut a = Connect6Engine::new(Connect6Config::default());
        let mut pos = Connect6::new(Connect6Rules::SAU);
        let mut stones: [Vec<String>; 2] = [vec![], vec![]];
        while pos.outcome().is_none() && pos.ply() < 40 {
            let side = pos.side_to_move();
            let d = a.think(&pos, Limits::time(Duration::from_millis(300)));
            let m = d.mv.unwrap();
            stones[side.index()].push(letters(&pos, m));
            pos.play(m);
            if pos.side_to_move() != side {
                println!(
                    "ply {} to {:?} threats b{} w{} | B: {} | W: {}",
                    pos.ply(),
                    pos.side_to_move(),
                    pos.threats(crate::game::Color::Black),
                    pos.threats(crate::game::Color::White),
                    stones[0].join(" "),
                    stones[1].join(" ")
                );
            }
        }
    }
}
