//! The Gomoku engine (level `full`): pattern classes from line codes (`pattern.rs`, `board.rs`),
//! threat searches (`vcf.rs`: VCF and VCT), and principal-variation alpha-beta (`search.rs`).
//!
//! A decision, in order:
//! 1. five now, if we have it; the block, if the opponent has a five to make;
//! 2. a VCF, then (within part of the time) a VCT;
//! 3. otherwise iteratively deepened alpha-beta, with a quiescence search of fours at the leaves;
//! 4. the chosen move, and the next best if need be, checked against the opponent's VCF and VCT.
//!
//! Beside it, the teaching levels of the seeds (`classic.rs`, `wintable.rs`) and the switch that
//! picks one by name (`level.rs`); `fit.rs` fits the evaluation's weights offline.

mod board;
pub mod classic;
mod eval;
pub use board::Ordering;
pub mod fit;
pub mod level;
mod pattern;
mod policy;
mod search;
mod vcf;
mod vct;
pub mod wintable;

use super::{Decision, Engine};
use crate::game::gomoku::{Gomoku, Point};
use crate::game::Game;
use crate::search::budget::Budget;
use crate::search::clock::Limits;
use crate::search::score::win_rate;
use board::Board;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
pub use search::{HistoryOrder, Reductions};
use search::{Searcher, Table, WIN, WIN_BOUND};
use std::time::Instant;
use vct::{Vct, VctTable};

#[derive(Clone, Debug)]
pub struct GomokuConfig {
    pub seed: u64,
    /// Candidate points searched at each alpha-beta node below the root.
    pub width: usize,
    /// Candidate points ranked and searched at the root.
    pub root_width: usize,
    /// VCF depth (attacker moves) at the root, and at the leaves when `quiet_fours` is 0.
    pub vcf_depth: u32,
    pub leaf_vcf: u32,
    /// VCT depth (the attacker's threats, fours and threes alike; the lines end in a VCF) at
    /// the root, where the search deepens a threat at a time within `vct_share` of the time,
    /// and in the check of the chosen move against the opponent's threats.
    pub vct_depth: u32,
    pub vct_share: f64,
    /// Share of the time left after the root threat searches that alpha-beta may use; the
    /// rest is for checking the chosen move against the opponent's threats.
    pub ab_share: f64,
    /// When the check of the chosen move finishes early, share of the time left that a second
    /// alpha-beta pass may use (0: none); the rest checks its move if it is another.
    pub resume_share: f64,
    /// Another alpha-beta iteration starts only while the time left is at least this many
    /// times what the iterations so far took (0: deepen until the time is up; a partial
    /// iteration still counts when it finds a better move).
    pub deepen_ratio: f64,
    pub max_depth: i32,
    /// Against an open three, search only its defences and our fours.
    pub defend_threes: bool,
    /// Late-move reductions in alpha-beta.
    pub reductions: Reductions,
    /// The quiescence search uses the transposition table (`Searcher::q_table`).
    pub q_table: bool,
    /// Razoring margin a ply (`Searcher::razor_margin`; 0: off).
    pub razor_margin: i32,
    /// How the history table orders moves (`Searcher::history`).
    pub history: HistoryOrder,
    /// Leaves facing a four search the block before evaluating.
    pub extend_blocks: bool,
    /// Against the opponent's double-threat points, search only their answers: 0 never, 1
    /// all, 2 those that hold a four.
    pub defend_doubles: u8,
    /// Points a node searches beyond its width where the side to move makes two open twos or
    /// better (`Searcher::builders`; 0: none).
    pub builders: usize,
    /// Static futility pruning in alpha-beta: the margin a ply (0: off) and the depth up to
    /// which it applies (`Searcher::futility_margin`).
    pub futility_margin: i32,
    pub futility_depth: i32,
    /// Move-count pruning of quiet moves near the leaves (`Searcher::prune_counts`).
    pub prune_counts: u8,
    /// The move counts prune sharp moves too (`Searcher::prune_sharp`).
    pub prune_sharp: bool,
    /// Singular extensions from this depth (0: off), with this margin a ply
    /// (`Searcher::singular_depth`).
    pub singular_depth: i32,
    pub singular_margin: i32,
    /// Root moves after the first searched with a null window first (not while the root
    /// picks among close moves for variety, which needs their values).
    pub root_pvs: bool,
    /// Fours a line of the leaves' quiescence search may play (`Searcher::quiet_fours`; 0: a
    /// VCF of `leaf_vcf` moves at the leaves instead).
    pub quiet_fours: u32,
    /// Fail-high reduction's margin a ply (`Searcher::fail_high_margin`; 0: off).
    pub fail_high_margin: i32,
    /// Half the width of the root's aspiration window from depth 5 on (0: a full window).
    pub aspiration: i32,
    /// How candidate points are ranked.
    pub order: Ordering,
    /// Transposition table size as a power of two of entries.
    pub table_bits: u32,
    /// In the first `variety_plies` moves, play any move scored within `variety` of the best.
    /// Only White's first reply by default: later, after a set opening, the moves within the
    /// margin are not equal enough. Through ply 6 they cost Rapfi's judgement 120 to 270 at
    /// moves 4 and 5 in most games lost to Wine, and against Wine on the balanced openings the
    /// build scored 22-22 with it and 29-15 without. Screens that need games to differ set
    /// both in the arena.
    pub variety: i32,
    pub variety_plies: usize,
}

impl Default for GomokuConfig {
    fn default() -> GomokuConfig {
        GomokuConfig {
            seed: 1,
            // 16 against 12, with the reductions and prunings below: +68 (+24 to +115), H1, 222
            // games at 100,000 nodes a move (before any reductions, 16 had measured +6, -45 to
            // +58); 20 against 12: +7 (-42 to +56) over 154.
            width: 16,
            // 24 against 16 (the root is one node: its 17th to 24th points cost a node's worth
            // of searches, and Rapfi's move is outside our first 16 in about 9% of quiet
            // positions), against Rapfi at 400,000 / 80,000 nodes, paired: +0.085 (+-0.080) a
            // game over the fresh openings' 200 games, +0.077 (+-0.058) over the five-stone
            // ones' 300, -0.051 (+-0.075) over the wide ones' 188 (the set the defaults were
            // chosen on); +0.080 (+-0.047) over the first two, +0.044 (+-0.040) over all three
            // (stop 73).
            root_width: 24,
            vcf_depth: 12,
            leaf_vcf: 4,
            vct_depth: 8,
            vct_share: 0.25,
            ab_share: 0.85,
            resume_share: 0.75,
            deepen_ratio: 0.0,
            max_depth: 30,
            defend_threes: true,
            // Logarithmic reductions with the three prunings below, together against the fixed
            // reductions without them: +127 (+66 to +197), H1, 120 games at 100,000 nodes a
            // move, balanced openings.
            reductions: Reductions::Logarithmic,
            // Against the build without it at 100 ms a move, wide openings: +44 (+11 to +78),
            // H1, 292 games (at equal time it searches 25-50% more nodes above the leaves).
            q_table: true,
            razor_margin: 0,
            // Half a place a doubling, with `prune_sharp`, against history first without it,
            // against Rapfi held to a fifth of our nodes, 188 paired games at each of 300,000,
            // 400,000, 500,000 and 800,000 nodes: +0.090, +0.056, -0.024, +0.064 (each about
            // +-0.07) a game, +0.047 (+-0.034) together (stop 65).
            history: HistoryOrder::Lift(0.5),
            extend_blocks: true,
            defend_doubles: 0,
            // 8 against none in self-play, both colours, the five-stone, fresh and wide
            // openings: at 200,000 nodes a move +30 (+8 to +52), H1 (`--sprt elo0=0 elo1=40`),
            // 619 games; at 100,000, +23 (-2 to +48) over 688. Against Rapfi at 1 s a move,
            // 176 games scored 27.8% where the 220 without it scored 24.1% (paired by opening
            // and colour: within the noise); from the positions before 26 lost moves it
            // repeats 11 of them, against 22 without it (stops 76 and 77).
            builders: 8,
            // Each alone was not shown better than the search without it at 100,000 nodes a
            // move, balanced openings (futility 60 at depth 4: +20, -1 to +41, over 863 games;
            // move counts: +12, -20 to +44, over 320; the null-window root: +4, -24 to +33,
            // over 316); the three together, with the fixed reductions, measured +50 (-3 to
            // +105) over 162. Futility to every depth, razoring at 40 and move counts at every
            // depth, on top of these, measured -21 (-68 to +26) over 152.
            futility_margin: 60,
            futility_depth: 4,
            prune_counts: 1,
            prune_sharp: true,
            singular_depth: 0,
            singular_margin: 4,
            root_pvs: true,
            // In self-play, 100 against none at 100,000 nodes a move: +37 (+6 to +68) over 381
            // games on the build before the quiescence search and fail-high reductions, -34
            // (-86 to +16) over 172 with them. 64 (Rapfi's 16 in our units) against none,
            // against Rapfi at 400,000 / 80,000 nodes, paired: +0.052 (+-0.069) a game over the
            // fresh openings' 200 games, +0.080 (+-0.073) over the wide ones' 188, +0.066
            // (+-0.050) together (stop 70).
            aspiration: 64,
            // Against the build without it at 100,000 nodes a move, balanced openings: +95
            // (+38 to +157), H1, 121 games.
            fail_high_margin: 60,
            // Against the leaves' 4-move VCF at 100,000 nodes a move, balanced openings: +72
            // (+28 to +118), H1, 227 games.
            quiet_fours: 4,
            order: Ordering::default(),
            table_bits: 20,
            variety: 8,
            variety_plies: 2,
        }
    }
}

/// Root moves checked against the opponent's threats.
const SAFETY_CANDIDATES: usize = 6;

pub struct GomokuEngine {
    config: GomokuConfig,
    table: Table,
    rng: SmallRng,
}

/// Where an alpha-beta pass of a decision left off, for a second pass to go on from: the
/// move order it learned (killer moves, the history table), the deepest iteration it completed,
/// the root moves in that iteration's order, and its choice. Going on, rather than starting
/// again from depth 1, spends none of the second pass on iterations already done.
struct PassState {
    killers: Vec<[Point; 2]>,
    cutoffs: Vec<[u32; 2]>,
    depth_done: i32,
    moves: Vec<Point>,
    best: Choice,
}

#[derive(Clone, Copy)]
struct Choice {
    mv: Point,
    value: Option<i32>,
}

impl GomokuEngine {
    pub fn new(config: GomokuConfig) -> GomokuEngine {
        GomokuEngine {
            table: Table::new(config.table_bits),
            rng: SmallRng::seed_from_u64(config.seed),
            config,
        }
    }

    fn choose(&mut self, pos: &Gomoku, budget: &mut Budget) -> Choice {
        let mut board = Board::new(pos);
        board.order = self.config.order;
        let me = board.side();
        let them = me.opponent();
        if let Some(p) = board.fives(me).first() {
            return Choice {
                mv: p,
                value: Some(WIN),
            };
        }
        match board.fives(them).len() {
            0 => {}
            1 => {
                return Choice {
                    mv: board.fives(them).first().unwrap(),
                    value: None,
                }
            }
            _ => {
                return Choice {
                    mv: board.fives(them).first().unwrap(),
                    value: Some(-WIN),
                }
            }
        }
        let cands = board.candidates(self.config.width);
        if cands.len() == 1 {
            return Choice {
                mv: cands[0],
                value: None,
            };
        }
        if let Some(p) = vcf::find_vcf(&mut board, self.config.vcf_depth, budget) {
            return Choice {
                mv: p,
                value: Some(WIN),
            };
        }
        let saved = budget.enter_phase(self.config.vct_share);
        let vct = Vct::new(&mut board, budget, 6).find(self.config.vct_depth);
        budget.end_phase(saved);
        if let Some(p) = vct {
            return Choice {
                mv: p,
                value: Some(WIN),
            };
        }
        let mut memory = None;
        let saved = budget.enter_phase(self.config.ab_share);
        let (choice, ranked) = self.alpha_beta(&mut board, budget, &mut memory);
        budget.end_phase(saved);
        let (checked, complete) = self.avoid_forced_loss(&mut board, choice, ranked, budget);
        // The check usually ends at once, leaving alpha-beta's unused share of the turn: a
        // second pass spends most of it, going on where the first left off. Not when
        // the check had to change the move or could not finish (the position is sharp and its
        // time is better kept), nor in the first plies, where the root picks among close
        // moves at random.
        if !complete
            || choice.value.is_some_and(|v| v.abs() > WIN_BOUND)
            || checked.mv != choice.mv
            || self.variety_at(&board) > 0
            || self.config.resume_share <= 0.0
        {
            return checked;
        }
        let saved = budget.enter_phase(self.config.resume_share);
        let (again, ranked) = self.alpha_beta(&mut board, budget, &mut memory);
        budget.end_phase(saved);
        if again.mv == checked.mv {
            return again;
        }
        // Another move must pass the whole check in what is left, or the checked one stays.
        match self.avoid_forced_loss(&mut board, again, ranked, budget) {
            (rechecked, true) => rechecked,
            _ => checked,
        }
    }

    /// The margin within which the root picks among close moves at random in `board`'s ply
    /// (0 past the first `variety_plies`).
    fn variety_at(&self, board: &Board) -> i32 {
        if board.pos.ply() < self.config.variety_plies {
            self.config.variety
        } else {
            0
        }
    }

    /// Iterative deepening; returns the choice and the root moves ranked by the last complete
    /// iteration.
    fn alpha_beta(
        &mut self,
        board: &mut Board,
        budget: &mut Budget,
        memory: &mut Option<PassState>,
    ) -> (Choice, Vec<Point>) {
        let started = Instant::now();
        let variety = self.variety_at(board);
        let mut searcher = Searcher::new(
            board,
            &mut self.table,
            budget,
            self.config.width,
            self.config.leaf_vcf,
        );
        searcher.defend_threes = self.config.defend_threes;
        searcher.reductions = self.config.reductions;
        searcher.q_table = self.config.q_table;
        searcher.razor_margin = self.config.razor_margin;
        searcher.history = self.config.history;
        searcher.extend_blocks = self.config.extend_blocks;
        searcher.defend_doubles = self.config.defend_doubles;
        searcher.builders = self.config.builders;
        searcher.futility_margin = self.config.futility_margin;
        searcher.futility_depth = self.config.futility_depth;
        searcher.prune_counts = self.config.prune_counts;
        searcher.prune_sharp = self.config.prune_sharp;
        searcher.singular_depth = self.config.singular_depth;
        searcher.singular_margin = self.config.singular_margin;
        searcher.quiet_fours = self.config.quiet_fours;
        searcher.fail_high_margin = self.config.fail_high_margin;
        let (mut moves, mut best, mut depth_done) = match memory.take() {
            Some(state) => {
                searcher.killers = state.killers;
                searcher.cutoffs = state.cutoffs;
                (state.moves, state.best, state.depth_done)
            }
            None => {
                // The root alone looks wider: its width costs one node's worth, not a
                // tree's.
                let moves = searcher.moves_within(self.config.root_width, 0, None);
                let best = Choice {
                    mv: moves[0],
                    value: None,
                };
                (moves, best, 0)
            }
        };
        let mut scores: Vec<i32> = Vec::new();
        for depth in depth_done + 1..=self.config.max_depth {
            searcher.root_depth = depth;
            // The window of the iteration: all values, or (with `aspiration`, from depth 5)
            // a band around the last iteration's value, widened and moved when the value
            // falls outside it.
            let mut delta = self.config.aspiration;
            let mut window = match best.value {
                Some(v) if delta > 0 && depth >= 5 && variety == 0 && v.abs() < WIN_BOUND => {
                    (v - delta, v + delta)
                }
                _ => (-WIN, WIN),
            };
            let mut got: Vec<(i32, usize)>;
            loop {
                let (low, high) = window;
                let mut alpha = low;
                got = Vec::new();
                let mut failed = None;
                for (i, &m) in moves.iter().enumerate() {
                    searcher.board.play(m);
                    let v = if searcher.board.is_over() {
                        WIN
                    } else if i == 0 || variety > 0 || !self.config.root_pvs {
                        -searcher.search(depth - 1, -high, -(alpha - variety), 1)
                    } else {
                        // A null window first: most root moves only need to be shown no better.
                        let v = -searcher.search(depth - 1, -alpha - 1, -alpha, 1);
                        if v > alpha && v < high {
                            -searcher.search(depth - 1, -high, -alpha, 1)
                        } else {
                            v
                        }
                    };
                    searcher.board.undo(m);
                    if searcher.budget.stopped() {
                        break;
                    }
                    got.push((v, i));
                    if v >= high && high < WIN {
                        failed = Some((v, i));
                        break;
                    }
                    if i == 0 && v <= low && low > -WIN {
                        failed = Some((v, i));
                        break;
                    }
                    alpha = alpha.max(v);
                }
                let Some((v, i)) = failed.filter(|_| !searcher.budget.stopped()) else {
                    break;
                };
                // Outside the window: search again with one that reaches past the value, the
                // move that beat it first. The window grows by half (by one at least, or a
                // window of 1 would never widen).
                delta += (delta / 2).max(1);
                if v >= high && i != 0 {
                    // A move shown better than the last iteration's best already beats it,
                    // should the time run out in the search again.
                    best = Choice {
                        mv: moves[i],
                        value: Some(v),
                    };
                }
                window = if v >= high {
                    (low, (v + delta).min(WIN))
                } else {
                    ((v - delta).max(-WIN), high)
                };
                let m = moves.remove(i);
                moves.insert(0, m);
            }
            if searcher.budget.stopped() {
                // A partial iteration counts when a later move beat the previous best.
                if let Some(&(v, i)) = got.iter().max_by_key(|(v, i)| (*v, -(*i as i64))) {
                    if i != 0 && best.value.is_some_and(|b| v > b) {
                        best = Choice {
                            mv: moves[i],
                            value: Some(v),
                        };
                    }
                }
                break;
            }
            got.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            moves = got.iter().map(|&(_, i)| moves[i]).collect();
            scores = got.iter().map(|&(v, _)| v).collect();
            best = Choice {
                mv: moves[0],
                value: Some(scores[0]),
            };
            depth_done = depth;
            if scores[0].abs() > WIN_BOUND {
                break;
            }
            if let Some(stop) = searcher.budget.limits().stop_at {
                let spent = started.elapsed();
                let left = stop.saturating_duration_since(Instant::now());
                if left < spent.mul_f64(self.config.deepen_ratio) {
                    break;
                }
            }
        }
        *memory = Some(PassState {
            killers: std::mem::take(&mut searcher.killers),
            cutoffs: std::mem::take(&mut searcher.cutoffs),
            depth_done,
            moves: moves.clone(),
            best,
        });
        if variety > 0 && !scores.is_empty() && best.value.is_some_and(|v| v.abs() < WIN_BOUND) {
            let close = scores
                .iter()
                .take_while(|&&v| v >= scores[0] - variety)
                .count();
            let pick = self.rng.gen_range(0..close);
            best = Choice {
                mv: moves[pick],
                value: Some(scores[pick]),
            };
        }
        (best, moves)
    }

    /// Plays the first candidate after which the opponent has no VCF (and, time permitting,
    /// no VCT); the search's choice stays if every candidate fails. Also says whether the
    /// check was whole: a candidate passed at every depth before the time ran out.
    fn avoid_forced_loss(
        &mut self,
        board: &mut Board,
        choice: Choice,
        ranked: Vec<Point>,
        budget: &mut Budget,
    ) -> (Choice, bool) {
        if choice.value.is_some_and(|v| v > WIN_BOUND) {
            return (choice, true);
        }
        let candidates: Vec<Point> = std::iter::once(choice.mv)
            .chain(ranked.into_iter().filter(|&m| m != choice.mv))
            .take(SAFETY_CANDIDATES)
            .collect();
        // Per candidate, what its checks so far showed. A check at a greater depth replays
        // the shallower ones exactly, so a loss found stays found and a search that found
        // nothing resumes from its table at the next depth.
        let mut checked: Vec<Checked> = candidates.iter().map(|_| Checked::Not).collect();
        let mut safe = None;
        let mut whole = false;
        for vct_depth in 0..=self.config.vct_depth {
            let mut found = None;
            for (&m, state) in candidates.iter().zip(&mut checked) {
                board.play(m);
                let lost = !board.is_over() && self.vct_beyond(board, budget, vct_depth, state);
                board.undo(m);
                if budget.stopped() {
                    break;
                }
                if !lost {
                    found = Some(m);
                    break;
                }
            }
            if budget.stopped() {
                break;
            }
            match found {
                Some(m) => safe = Some(m),
                None => break,
            }
            whole = vct_depth == self.config.vct_depth;
        }
        let choice = match safe {
            Some(m) if m != choice.mv => Choice { mv: m, value: None },
            _ => choice,
        };
        (choice, whole)
    }

    /// Whether the side to move has a VCT within `depth` threats, going on from what the
    /// checks so far showed (`state`, which becomes what this one shows).
    fn vct_beyond(
        &self,
        board: &mut Board,
        budget: &mut Budget,
        depth: u32,
        state: &mut Checked,
    ) -> bool {
        let (done, table) = match std::mem::replace(state, Checked::Lost) {
            Checked::Lost => return true,
            Checked::Not => (None, VctTable::default()),
            Checked::SafeTo(done, table) => (Some(done), table),
        };
        let mut search = Vct::resume(board, budget, self.config.vcf_depth, table);
        let lost = search.find_beyond(done, depth).is_some();
        *state = if lost {
            Checked::Lost
        } else {
            Checked::SafeTo(depth, search.into_table())
        };
        lost
    }
}

/// What the checks of a candidate against the opponent's threats showed so far.
enum Checked {
    Not,
    /// No VCT within this many threats; the table of that search.
    SafeTo(u32, VctTable),
    Lost,
}

impl Engine<Gomoku> for GomokuEngine {
    fn new_game(&mut self) {
        self.table.clear();
    }

    fn observe(&mut self, _pos_before: &Gomoku, _m: Point) {}

    fn think(&mut self, pos: &Gomoku, limits: Limits) -> Decision<Point> {
        let start = Instant::now();
        if pos.outcome().is_some() {
            return Decision::none();
        }
        let mut budget = Budget::new(limits);
        let mut choice = self.choose(pos, &mut budget);
        if pos.check_move(choice.mv).is_err() {
            // A last guard: a move generator that offered a taken point must not cost the
            // game. The best-ranked empty point replaces it.
            debug_assert!(false, "the search chose an illegal move");
            choice = Choice {
                mv: Board::new(pos).candidates(1)[0],
                value: None,
            };
        }
        Decision {
            mv: Some(choice.mv),
            win_rate: choice.value.map(|v| win_rate(v, 300.0)),
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
    use crate::game::gomoku::GomokuRules;
    use crate::game::{Color, Outcome};

    fn game(
        a: &mut dyn Engine<Gomoku>,
        b: &mut dyn Engine<Gomoku>,
        size: usize,
        limits: impl Fn() -> Limits,
    ) -> Option<Outcome> {
        let mut pos = Gomoku::new(GomokuRules::new(size, false).unwrap());
        a.new_game();
        b.new_game();
        while pos.outcome().is_none() {
            let who: &mut dyn Engine<Gomoku> = if pos.side_to_move() == Color::Black {
                &mut *a
            } else {
                &mut *b
            };
            let m = who.think(&pos, limits()).mv.expect("a move");
            pos.try_play(m).expect("legal");
        }
        pos.outcome()
    }

    /// With a window of one either side, nearly every iteration from depth 5 falls outside it
    /// and is searched again; the choice must still be sound: White's open three (GH HH IH)
    /// blocked, and a legal move with a middle-game value in a quiet position.
    #[test]
    fn aspiration_windows_searched_again_keep_the_choice_sound() {
        let config = GomokuConfig {
            aspiration: 1,
            max_depth: 7,
            ..GomokuConfig::default()
        };
        let mut pos = Gomoku::new(GomokuRules::default());
        for (x, y) in [(1, 1), (6, 7), (1, 13), (7, 7), (13, 1), (8, 7)] {
            pos.play(pos.point(x, y));
        }
        let blocks = Board::new(&pos)
            .defences()
            .expect("an open three to answer");
        let mut e = GomokuEngine::new(config.clone());
        let d = e.think(&pos, Limits::iterations(5_000_000));
        assert!(
            blocks.contains(&d.mv.unwrap()),
            "{:?} against {blocks:?}",
            d.mv
        );
        let quiet = quiet_middle_game();
        let mut e = GomokuEngine::new(config);
        let d = e.think(&quiet, Limits::iterations(5_000_000));
        assert!(quiet.check_move(d.mv.unwrap()).is_ok());
        assert!(
            d.win_rate.is_some_and(|w| w > 0.02 && w < 0.98),
            "{:?}",
            d.win_rate
        );
    }

    /// A quiet middle game (each side has a two), Black to move.
    fn quiet_middle_game() -> Gomoku {
        let mut quiet = Gomoku::new(GomokuRules::default());
        for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (7, 8), (7, 6)] {
            quiet.play(quiet.point(x, y));
        }
        quiet
    }

    /// The root ranks `root_width` points, the nodes below it `width`.
    #[test]
    fn the_root_looks_wider_than_the_nodes_below_it() {
        let pos = quiet_middle_game();
        let ranked = |root_width| {
            let mut e = GomokuEngine::new(GomokuConfig {
                root_width,
                ..GomokuConfig::default()
            });
            let mut board = Board::new(&pos);
            assert!(board.candidates(64).len() > 24, "room for a wide root");
            let mut budget = Budget::new(Limits::iterations(50_000));
            e.alpha_beta(&mut board, &mut budget, &mut None).1
        };
        assert_eq!(GomokuConfig::default().width, 16);
        let (wide, narrow) = (ranked(24), ranked(16));
        assert_eq!((wide.len(), narrow.len()), (24, 16));
        // The wider list holds the narrower one's points.
        assert!(
            narrow.iter().all(|p| wide.contains(p)),
            "{narrow:?} {wide:?}"
        );
    }

    /// Under a node cap the phases share the nodes as they share the time: the check of a
    /// quiet position ends early, and the second alpha-beta pass spends most of what it left.
    #[test]
    fn a_second_pass_spends_what_the_check_leaves() {
        let pos = quiet_middle_game();
        let cap = 300_000;
        let work = |resume_share| {
            let mut e = GomokuEngine::new(GomokuConfig {
                resume_share,
                ..GomokuConfig::default()
            });
            let d = e.think(&pos, Limits::iterations(cap));
            assert!(pos.check_move(d.mv.unwrap()).is_ok());
            d.work
        };
        let (one_pass, two_passes) = (work(0.0), work(0.75));
        assert!(one_pass < cap * 9 / 10, "{one_pass} of {cap}");
        assert!(
            two_passes > cap * 95 / 100 && two_passes <= cap,
            "{two_passes} of {cap}, one pass {one_pass}"
        );
    }

    /// The check says whether it went through every depth: a second pass relies on it.
    #[test]
    fn the_check_says_whether_it_finished() {
        // Both sides have threes to make: the check has lines to search.
        let pos = search::tests::middle_game();
        let mut e = GomokuEngine::new(GomokuConfig::default());
        let mut board = Board::new(&pos);
        let ranked = board.candidates(16);
        let mut check = |nodes| {
            let choice = Choice {
                mv: ranked[0],
                value: Some(0),
            };
            let mut budget = Budget::nodes(nodes);
            let (checked, whole) =
                e.avoid_forced_loss(&mut board, choice, ranked.clone(), &mut budget);
            (checked.mv, whole)
        };
        assert_eq!(check(10_000_000), (ranked[0], true));
        assert_eq!(check(1), (ranked[0], false));
    }

    #[test]
    fn the_engine_beats_random_on_every_size_with_both_colours() {
        for (i, size) in [11, 15, 20].into_iter().enumerate() {
            let mut e = GomokuEngine::new(GomokuConfig::default());
            let mut r = RandomPlayer::new(i as u64);
            assert_eq!(
                game(&mut e, &mut r, size, || Limits::iterations(3000)),
                Some(Outcome::Win(Color::Black))
            );
            assert_eq!(
                game(&mut r, &mut e, size, || Limits::iterations(3000)),
                Some(Outcome::Win(Color::White))
            );
        }
    }
}

#[cfg(test)]
mod selfplay_print {
    use super::*;
    use crate::game::gomoku::GomokuRules;
    use std::time::Duration;

    /// Not a test: prints a self-play game in seed-000 letters, to pick bench positions.
    #[test]
    #[ignore]
    fn print_selfplay() {
        let mut e = GomokuEngine::new(GomokuConfig::default());
        let mut pos = Gomoku::new(GomokuRules::default());
        let mut line = String::new();
        while pos.outcome().is_none() && pos.ply() < 40 {
            let d = e.think(&pos, Limits::time(Duration::from_millis(300)));
            let m = d.mv.unwrap();
            let (x, y) = pos.coords(m);
            line.push_str(&format!(
                "{}{} ",
                (b'A' + x as u8) as char,
                (b'A' + y as u8) as char
            ));
            pos.play(m);
            println!(
                "ply {} value {:?} nodes {}: {}",
                pos.ply(),
                d.win_rate,
                d.work,
                line
            );
        }
    }
}

#[cfg(test)]
mod spar {
    use super::*;
    use crate::engine::gomoku::level::{build, Level};
    use crate::game::gomoku::GomokuRules;
    use crate::game::{Color, Outcome};
    use std::time::Duration;

    /// Not a test: `full` at 200 ms against the teaching levels, both colours.
    #[test]
    #[ignore]
    fn spar_against_levels() {
        for level in [Level::Wintable, Level::Classic] {
            let mut wins = 0;
            for i in 0..10u64 {
                let mut full = GomokuEngine::new(GomokuConfig {
                    seed: i,
                    ..GomokuConfig::default()
                });
                let mut other = build(level, i);
                let full_colour = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let mut pos = Gomoku::new(GomokuRules::default());
                while pos.outcome().is_none() {
                    let limits = Limits::time(Duration::from_millis(200));
                    let m = if pos.side_to_move() == full_colour {
                        full.think(&pos, limits).mv
                    } else {
                        other.think(&pos, limits).mv
                    };
                    pos.play(m.unwrap());
                }
                wins += (pos.outcome() == Some(Outcome::Win(full_colour))) as u32;
                println!(
                    "{level:?} game {i}: {:?} after {}",
                    pos.outcome(),
                    pos.ply()
                );
            }
            println!("full vs {level:?}: {wins}/10");
        }
    }
}
