//! Fitting the static evaluation's weights (`EVAL_MOVER`, `EVAL_WAITER` and the threat table
//! in `eval.rs`) to a stronger engine's judgement of quiet positions, by logistic regression:
//! the evaluation is a linear sum of counted features plus one table entry chosen by the
//! threat mask (`Board::eval_features`), so a win rate `1 / (1 + e^-v)` of it can be fitted to
//! the other engine's win rates by Newton's method, the table entries as one-hot columns held
//! towards 0 by a ridge (most masks are rare). `stonebrain-fit` runs it; these are the parts that
//! need the engine's board.

use super::board::Board;
use super::eval::{
    threat_table, Combo, EvalFeatures, COMBO_TERMS, EVAL_MOVER, EVAL_TERMS, EVAL_WAITER, MASKS,
    MOVE_TERM, SHAPE_CODES,
};
use super::pattern::Class;
use crate::game::gomoku::{Gomoku, Point};
use crate::game::Color;

/// One judged position: its features and the other engine's win rate for the side to move.
pub struct Sample {
    pub features: EvalFeatures,
    pub target: f64,
}

/// The features of a position, or `None` when it is not quiet: either side has a five to make
/// (the search settles those before it ever evaluates).
pub fn quiet_features(pos: &Gomoku) -> Option<EvalFeatures> {
    quiet_board(pos).map(|b| b.eval_features())
}

/// The search's board of `pos` when the position is quiet: neither side has a five to make.
fn quiet_board(pos: &Gomoku) -> Option<Board> {
    let b = Board::new(pos);
    [Color::Black, Color::White]
        .iter()
        .all(|&c| b.fives(c).is_empty())
        .then_some(b)
}

/// Where `chosen` stands in the engine's static move order in `pos`: `None` when the position
/// is not quiet (the search settles those before it orders moves), else `Some(None)` when
/// `chosen` is not among the candidates at all and `Some(Some(rank))` when it is (0: first).
pub fn order_rank(pos: &Gomoku, chosen: Point) -> Option<Option<usize>> {
    let b = quiet_board(pos)?;
    Some(b.candidates(usize::MAX).iter().position(|&p| p == chosen))
}

/// The weights a fit does not touch: the dead class (no five can pass, worth nothing), five
/// and the combination of five (quiet positions have none, so nothing to fit; they keep their
/// value for the search's other positions), the combination of nothing (it counts the points
/// with no shape, which says nothing), and the bonus for the move: every sample has exactly one
/// threat-table entry, so the table carries the bonus, and the fitted weights set it to 0.
fn fitted_term(_role: usize, term: usize) -> bool {
    term != Class::Dead as usize
        && term != Class::Five as usize
        && term != COMBO_TERMS + Combo::Nothing as usize
        && term != COMBO_TERMS + Combo::Five as usize
        && term != MOVE_TERM
}

/// The mover's open three: a fit that gives it no worth has gone wrong.
const ANCHOR: usize = Class::FlexThree as usize;

#[derive(Debug)]
pub struct Fit {
    pub mover: [i32; EVAL_TERMS],
    pub waiter: [i32; EVAL_TERMS],
    /// The value of each threat mask (0 for those the samples never showed).
    pub threat: Vec<i32>,
    /// The code table's entries that are not 0, (code, mover, waiter): empty unless the fit
    /// was asked for one.
    pub codes: Vec<(u16, i32, i32)>,
    /// Evaluation units per unit of log-odds: those of the weights in use, so that the fitted
    /// weights keep the evaluation's scale (and the search's margins) where it was.
    pub scale: f64,
    /// Mean log loss on the samples fitted and on those held out, for the fitted weights, for
    /// them as written (rounded to whole units, what the engine would get) and for the weights
    /// in use now (with their best scale).
    pub train_loss: f64,
    pub test_loss: f64,
    pub written_test_loss: f64,
    pub current_train_loss: f64,
    pub current_test_loss: f64,
}

/// A sample's nonzero features as (column, value), and its target.
type Row = (Vec<(usize, f64)>, f64);

/// Fits the weights to `samples`, holding out every `hold_out`-th sample to report the loss on.
/// `ridge` is how many samples' worth of pull towards 0 each threat-table entry gets. With
/// `code_ridge`, the code table (`eval::code_table`) is fitted too, an entry per role and shape
/// code the samples show, each pulled towards 0 by that many points' worth: the classes and
/// combinations say what they can, and a code's entry only what they miss.
pub fn fit(
    samples: &[Sample],
    hold_out: usize,
    ridge: f64,
    code_ridge: Option<f64>,
) -> Result<Fit, String> {
    let terms: Vec<(usize, usize)> = (0..2)
        .flat_map(|r| (0..EVAL_TERMS).map(move |t| (r, t)))
        .filter(|&(r, t)| fitted_term(r, t))
        .collect();
    let linear = terms.len();
    let rows = |train: bool| {
        samples
            .iter()
            .enumerate()
            .filter(move |(i, _)| (i % hold_out.max(2) == 0) != train)
            .map(|(_, s)| s)
    };
    // The code columns, after the threat table's: one per role and code the fitted samples
    // show, none without `code_ridge`.
    let mut code_column = vec![[usize::MAX; 2]; SHAPE_CODES];
    let mut code_of_column = Vec::new();
    if code_ridge.is_some() {
        for s in rows(true) {
            for (r, codes) in s.features.codes.iter().enumerate() {
                for &(c, _) in codes {
                    let col = &mut code_column[c as usize][r];
                    if *col == usize::MAX {
                        *col = linear + MASKS + code_of_column.len();
                        code_of_column.push((r, c));
                    }
                }
            }
        }
    }
    let fitted_x = |s: &Sample| -> Row {
        let mut x: Vec<(usize, f64)> = terms
            .iter()
            .enumerate()
            .map(|(j, &(r, t))| (j, s.features.terms[r][t] as f64))
            .filter(|&(_, v)| v != 0.0)
            .collect();
        x.push((linear + s.features.mask, 1.0));
        for (r, codes) in s.features.codes.iter().enumerate() {
            for &(c, n) in codes {
                let col = code_column[c as usize][r];
                if col != usize::MAX {
                    x.push((col, n as f64));
                }
            }
        }
        (x, s.target)
    };
    let train: Vec<Row> = rows(true).map(fitted_x).collect();
    let test: Vec<Row> = rows(false).map(fitted_x).collect();
    if train.len() < 10 * linear {
        return Err(format!(
            "{} samples to fit {} weights: too few",
            train.len(),
            linear
        ));
    }
    let k = linear + MASKS + code_of_column.len();
    let n = train.len() as f64;
    // A pseudo-count of `ridge` samples at a win rate of one half, per table entry.
    let penalty: Vec<f64> = (0..k)
        .map(|j| match j {
            _ if j < linear => 1e-8,
            _ if j < linear + MASKS => ridge * 0.25 / n,
            _ => code_ridge.unwrap_or(0.0) * 0.25 / n,
        })
        .collect();
    let w = logistic(&train, k, &penalty)?;
    let anchor = terms
        .iter()
        .position(|&t| t == (0, ANCHOR))
        .expect("the open three is fitted");
    if w[anchor] <= 0.0 {
        return Err("the fit gives the mover's open three no worth".into());
    }
    // The weights in use, with the one scale that suits them best.
    let current_x = |s: &Sample| -> Row {
        let f = &s.features;
        let by_code = f.by_code();
        let v = dot(&EVAL_MOVER, &f.terms[0])
            + dot(&EVAL_WAITER, &f.terms[1])
            + threat_table()[f.mask] as f64
            + by_code as f64;
        (vec![(0, v)], s.target)
    };
    let current_train: Vec<Row> = rows(true).map(current_x).collect();
    let current_test: Vec<Row> = rows(false).map(current_x).collect();
    let c = logistic(&current_train, 1, &[1e-8])?;
    if c[0] <= 0.0 {
        return Err("the weights in use do not predict the samples at all".into());
    }
    let scale = 1.0 / c[0];
    let mut mover = EVAL_MOVER;
    let mut waiter = EVAL_WAITER;
    mover[MOVE_TERM] = 0;
    // The fitted weights in the evaluation's units, rounded as they are written.
    let rounded: Vec<f64> = w.iter().map(|wi| (wi * scale).round()).collect();
    for (&(r, t), &v) in terms.iter().zip(&rounded) {
        if r == 0 {
            mover[t] = v as i32;
        } else {
            waiter[t] = v as i32;
        }
    }
    let threat = rounded[linear..linear + MASKS]
        .iter()
        .map(|&v| v as i32)
        .collect();
    let mut code_entries = vec![[0; 2]; SHAPE_CODES];
    for (&(r, c), &v) in code_of_column.iter().zip(&rounded[linear + MASKS..]) {
        code_entries[c as usize][r] = v as i32;
    }
    let codes = code_entries
        .iter()
        .enumerate()
        .filter(|(_, e)| **e != [0, 0])
        .map(|(c, e)| (c as u16, e[0], e[1]))
        .collect();
    // The written weights back in log-odds.
    let written: Vec<f64> = rounded.iter().map(|v| v / scale).collect();
    Ok(Fit {
        mover,
        waiter,
        threat,
        codes,
        scale,
        train_loss: log_loss(&train, &w),
        test_loss: log_loss(&test, &w),
        written_test_loss: log_loss(&test, &written),
        current_train_loss: log_loss(&current_train, &c),
        current_test_loss: log_loss(&current_test, &c),
    })
}

/// A candidate point as the move order's fit sees it: its ranking values (`Board::value`) and
/// shape codes (`eval::shape_code`) for a stone of the side to move there and for one of the
/// opponent's.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub values: [i32; 2],
    pub codes: [u16; 2],
}

/// One position for fitting the move order: its candidate points in the static order in use,
/// and which of them the stronger engine chose (so also where that order ranks it, 0 first).
pub struct Choice {
    pub candidates: Vec<Candidate>,
    pub chosen: usize,
}

/// The choice of `chosen` in `pos`: `None` when the position is not quiet or `chosen` is not
/// among its candidates (near a stone).
pub fn choice(pos: &Gomoku, chosen: Point) -> Option<Choice> {
    let b = quiet_board(pos)?;
    let ranked = b.candidates(usize::MAX);
    let chosen = ranked.iter().position(|&p| p == chosen)?;
    let me = b.side();
    let candidates = ranked
        .iter()
        .map(|&p| Candidate {
            values: [b.value(p, me), b.value(p, me.opponent())],
            codes: [b.code(p, me) as u16, b.code(p, me.opponent()) as u16],
        })
        .collect();
    Some(Choice { candidates, chosen })
}

/// A fitted move order. A candidate's score is `value_weights` times its two ranking values,
/// plus the table's entries for its own code and the opponent's.
#[derive(Debug)]
pub struct PolicyFit {
    /// Per ranking value (own, opponent's): `POLICY_SCALE` units a unit of value.
    pub value_weights: [f64; 2],
    /// (code, own, opponent's) in `POLICY_SCALE` units, for the codes the samples showed; a
    /// code's entry is what its ranking value misses.
    pub table: Vec<(u16, i32, i32)>,
    /// Mean log loss of the chosen moves, fitted and held out.
    pub train_loss: f64,
    pub test_loss: f64,
    /// On the held-out positions: how often the chosen move is within the first 1, 3, 8 and 16
    /// by the fitted scores, and by the order in use.
    pub fitted_within: [f64; 4],
    pub current_within: [f64; 4],
}

/// Hundredths of a unit of log-odds: the move order's scores' unit.
pub const POLICY_SCALE: f64 = 100.0;

/// A candidate's columns: the two ranking values, then one per (role, code) the fit knows.
type Columns = Vec<(usize, f64)>;

/// Fits the move order to `choices` by a conditional logit (the chance of a candidate is
/// `e^score` over the sum for all candidates), holding out every `hold_out`-th. The ranking
/// values' weights are free; each code's entry is pulled towards 0 by `ridge` positions'
/// worth, so that a code seldom seen keeps about the score its ranking value gives.
pub fn fit_policy(choices: &[Choice], hold_out: usize, ridge: f64) -> Result<PolicyFit, String> {
    let held = |i: usize| i.is_multiple_of(hold_out.max(2));
    let split = |want: bool| -> Vec<&Choice> {
        choices
            .iter()
            .enumerate()
            .filter(|(i, _)| held(*i) == want)
            .map(|(_, c)| c)
            .collect()
    };
    let (train, test) = (split(false), split(true));
    // A column per (role, code) the fitted positions show, after the two value columns.
    let mut column = vec![[usize::MAX; 2]; SHAPE_CODES];
    let mut codes = Vec::new();
    for c in &train {
        for cand in &c.candidates {
            for r in 0..2 {
                let col = &mut column[cand.codes[r] as usize][r];
                if *col == usize::MAX {
                    *col = 2 + codes.len();
                    codes.push((r, cand.codes[r]));
                }
            }
        }
    }
    let k = 2 + codes.len();
    if train.len() < 5 * k {
        return Err(format!(
            "{} positions to fit {k} scores: too few",
            train.len()
        ));
    }
    // Values are in the hundreds for a four: in hundreds, so that the columns are alike in size.
    let columns = |cand: &Candidate| -> Columns {
        let mut x = vec![
            (0, cand.values[0] as f64 / 100.0),
            (1, cand.values[1] as f64 / 100.0),
        ];
        for r in 0..2 {
            let col = column[cand.codes[r] as usize][r];
            if col != usize::MAX {
                x.push((col, 1.0));
            }
        }
        x
    };
    let rows = |set: &[&Choice]| -> Vec<(Vec<Columns>, usize)> {
        set.iter()
            .map(|c| (c.candidates.iter().map(columns).collect(), c.chosen))
            .collect()
    };
    let (train_rows, test_rows) = (rows(&train), rows(&test));
    let n = train.len() as f64;
    let penalty: Vec<f64> = (0..k)
        .map(|j| if j < 2 { 1e-9 } else { ridge / n })
        .collect();
    let w = conditional_logit(&train_rows, k, &penalty)?;
    let mut entries = vec![[0i32; 2]; SHAPE_CODES];
    let mut shown = vec![false; SHAPE_CODES];
    for (j, &(r, code)) in codes.iter().enumerate() {
        entries[code as usize][r] = (w[2 + j] * POLICY_SCALE).round() as i32;
        shown[code as usize] = true;
    }
    let table = (0..SHAPE_CODES)
        .filter(|&c| shown[c])
        .map(|c| (c as u16, entries[c][0], entries[c][1]))
        .collect();
    const FIRST: [usize; 4] = [1, 3, 8, 16];
    let mut fitted_within = [0.0; 4];
    let mut current_within = [0.0; 4];
    let share = 1.0 / test_rows.len().max(1) as f64;
    for (cands, chosen) in &test_rows {
        let scores: Vec<f64> = cands.iter().map(|x| dot_sparse(x, &w)).collect();
        let mine = scores[*chosen];
        // Where the chosen move stands when the candidates are sorted by score, ties kept in
        // the order in use (a code can tell apart no two points with the same codes).
        let rank = scores
            .iter()
            .enumerate()
            .filter(|&(i, &v)| v > mine || (v == mine && i < *chosen))
            .count();
        for (t, &f) in FIRST.iter().enumerate() {
            fitted_within[t] += (rank < f) as u8 as f64 * share;
            current_within[t] += (*chosen < f) as u8 as f64 * share;
        }
    }
    Ok(PolicyFit {
        value_weights: [w[0] * POLICY_SCALE / 100.0, w[1] * POLICY_SCALE / 100.0],
        table,
        train_loss: choice_loss(&train_rows, &w),
        test_loss: choice_loss(&test_rows, &w),
        fitted_within,
        current_within,
    })
}

fn dot_sparse(x: &[(usize, f64)], w: &[f64]) -> f64 {
    x.iter().map(|&(j, v)| v * w[j]).sum()
}

/// The chances the weights `w` give each candidate of a position.
fn chances(cands: &[Columns], w: &[f64]) -> Vec<f64> {
    let s: Vec<f64> = cands.iter().map(|x| dot_sparse(x, w)).collect();
    let top = s.iter().copied().fold(f64::MIN, f64::max);
    let e: Vec<f64> = s.iter().map(|v| (v - top).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.into_iter().map(|v| v / sum).collect()
}

/// Mean log loss of the chosen candidates.
fn choice_loss(rows: &[(Vec<Columns>, usize)], w: &[f64]) -> f64 {
    let total: f64 = rows
        .iter()
        .map(|(cands, chosen)| -chances(cands, w)[*chosen].max(1e-12).ln())
        .sum();
    total / rows.len().max(1) as f64
}

/// The `k` weights minimising the mean log loss of the chosen candidates plus
/// `penalty[j] / 2 * w[j]^2`, by Newton's method with the step halved until the loss falls
/// (a full step can overshoot where the choices are nearly separable).
fn conditional_logit(
    rows: &[(Vec<Columns>, usize)],
    k: usize,
    penalty: &[f64],
) -> Result<Vec<f64>, String> {
    let n = rows.len() as f64;
    let objective = |w: &[f64]| {
        choice_loss(rows, w) + 0.5 * w.iter().zip(penalty).map(|(x, p)| p * x * x).sum::<f64>()
    };
    let mut w = vec![0.0; k];
    for _ in 0..40 {
        let mut grad = vec![0.0; k];
        let mut hess = vec![vec![0.0; k]; k];
        for (cands, chosen) in rows {
            let p = chances(cands, &w);
            // The columns' expectation under the chances, sparse.
            let mut mean: Vec<(usize, f64)> = Vec::new();
            for (i, x) in cands.iter().enumerate() {
                for &(j, v) in x {
                    match mean.iter_mut().find(|e| e.0 == j) {
                        Some(e) => e.1 += p[i] * v,
                        None => mean.push((j, p[i] * v)),
                    }
                    if i == *chosen {
                        grad[j] -= v / n;
                    }
                    for &(l, u) in x {
                        hess[j][l] += p[i] * v * u / n;
                    }
                }
            }
            for &(j, m) in &mean {
                grad[j] += m / n;
                for &(l, q) in &mean {
                    hess[j][l] -= m * q / n;
                }
            }
        }
        for j in 0..k {
            grad[j] += penalty[j] * w[j];
            hess[j][j] += penalty[j];
        }
        let step = solve(hess, grad).ok_or("the move order's equations are singular")?;
        let before = objective(&w);
        let mut t = 1.0;
        let tried = loop {
            let tried: Vec<f64> = w.iter().zip(&step).map(|(wi, s)| wi - t * s).collect();
            if objective(&tried) <= before {
                break Some(tried);
            }
            if t < 1e-4 {
                break None;
            }
            t /= 2.0;
        };
        // No step lowers the loss: as low as it goes.
        let Some(tried) = tried else { break };
        let gain = before - objective(&tried);
        w = tried;
        if gain < 1e-10 {
            break;
        }
    }
    Ok(w)
}

fn dot(w: &[i32; EVAL_TERMS], f: &[i32; EVAL_TERMS]) -> f64 {
    w.iter().zip(f).map(|(a, b)| (a * b) as f64).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z.clamp(-40.0, 40.0)).exp())
}

fn predict(x: &[(usize, f64)], w: &[f64]) -> f64 {
    sigmoid(x.iter().map(|&(j, v)| v * w[j]).sum())
}

fn log_loss(rows: &[Row], w: &[f64]) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|(x, y)| {
            let p = predict(x, w).clamp(1e-9, 1.0 - 1e-9);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / rows.len().max(1) as f64
}

/// The `k` weights (no intercept: the mover's bonus is a feature) minimising the mean log loss
/// plus `penalty[j] / 2 * w[j]^2`, by Newton's method on columns scaled to unit spread (the
/// penalty is on the unscaled weights).
fn logistic(rows: &[Row], k: usize, penalty: &[f64]) -> Result<Vec<f64>, String> {
    let n = rows.len() as f64;
    let mut sum = vec![0.0; k];
    let mut sum_sq = vec![0.0; k];
    for (x, _) in rows {
        for &(j, v) in x {
            sum[j] += v;
            sum_sq[j] += v * v;
        }
    }
    let spread: Vec<f64> = (0..k)
        .map(|j| {
            let m = sum[j] / n;
            let sd = (sum_sq[j] / n - m * m).max(0.0).sqrt();
            // A constant column (the mover's bonus) is scaled by its value instead.
            if sd > 1e-9 {
                sd
            } else {
                m.abs().max(1.0)
            }
        })
        .collect();
    let mut w = vec![0.0; k];
    for _ in 0..30 {
        let mut grad = vec![0.0; k];
        let mut hess = vec![vec![0.0; k]; k];
        for (x, y) in rows {
            let z: Vec<(usize, f64)> = x.iter().map(|&(j, v)| (j, v / spread[j])).collect();
            let p = predict(&z, &w);
            let h = p * (1.0 - p) / n;
            for &(i, zi) in &z {
                grad[i] += (p - y) * zi / n;
                for &(j, zj) in &z {
                    hess[i][j] += h * zi * zj;
                }
            }
        }
        for j in 0..k {
            // On the scaled weight w[j] (= unscaled * spread) the penalty is penalty / spread^2.
            let p = penalty[j] / (spread[j] * spread[j]);
            grad[j] += p * w[j];
            hess[j][j] += p;
        }
        let step = solve(hess, grad).ok_or("the fit's equations are singular")?;
        let size: f64 = step.iter().map(|s| s.abs()).sum();
        w.iter_mut().zip(&step).for_each(|(wi, s)| *wi -= s);
        if size < 1e-10 {
            break;
        }
    }
    Ok(w.iter().zip(&spread).map(|(wi, s)| wi / s).collect())
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let k = b.len();
    for col in 0..k {
        let pivot = (col..k).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (row, r) in below.iter_mut().enumerate() {
            let f = r[col] / pivot_row[col];
            r.iter_mut()
                .zip(pivot_row)
                .skip(col)
                .for_each(|(x, p)| *x -= f * p);
            b[col + 1 + row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; k];
    for row in (0..k).rev() {
        let s: f64 = (row + 1..k).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::GomokuRules;
    use crate::game::Game;

    /// A fixed pseudo-random sequence (xorshift) from `seed`.
    fn sequence(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Positions of a fixed pseudo-random walk near the centre, quiet ones only.
    fn positions(count: usize) -> Vec<EvalFeatures> {
        let mut next = sequence(12345);
        let mut out = Vec::new();
        while out.len() < count {
            let mut g = Gomoku::new(GomokuRules::default());
            for _ in 0..(6 + next() % 20) {
                let (x, y) = (4 + next() % 7, 4 + next() % 7);
                let p = g.point(x as usize, y as usize);
                if g.color_at(p).is_none() && g.outcome().is_none() {
                    g.play(p);
                }
            }
            if let Some(f) = quiet_features(&g) {
                out.push(f);
            }
        }
        out
    }

    /// Black to move with three in a row open at both ends (White's stones well away): the two
    /// points that make an open four lead the static order; a point far from every stone is
    /// no candidate; a position with a five to make is not ranked at all.
    #[test]
    fn the_order_rank_puts_the_open_four_first_and_skips_what_it_cannot_rank() {
        let (mut g, ends) = super::super::board::tests::open_three();
        let ranks: Vec<Option<Option<usize>>> = ends.iter().map(|&p| order_rank(&g, p)).collect();
        assert!(
            ranks.contains(&Some(Some(0))) && ranks.contains(&Some(Some(1))),
            "{ranks:?}"
        );
        assert_eq!(order_rank(&g, g.point(14, 14)), Some(None));
        // Black's open four and White's reply: Black has a five to make.
        g.play(ends[0]);
        g.play(g.point(12, 12));
        assert_eq!(order_rank(&g, ends[1]), None);
    }

    /// Win rates made by known weights and threat values are fitted back: the weights (up to
    /// the scale the fit puts on them) and the evaluation they give, and the fit's loss beats
    /// the weights in use.
    #[test]
    fn a_fit_recovers_the_weights_behind_its_targets() {
        // The truth: the weights in use at 0.0005 a unit of log-odds, each fitted one scaled by
        // 0.8 to 1.2, so that the fit has to find more than the scale (and the weights
        // in use, with their best scale, still predict the targets somewhat).
        let mut truth = [[0.0f64; EVAL_TERMS]; 2];
        for (r, weights) in [EVAL_MOVER, EVAL_WAITER].iter().enumerate() {
            for (t, w) in truth[r].iter_mut().enumerate() {
                if fitted_term(r, t) {
                    *w = 0.0005 * weights[t] as f64 * (0.8 + 0.1 * (t % 5) as f64);
                }
            }
        }
        // The threat table: as in use, worth 0.4 more when the mover holds an open three (its
        // bit 4) and 0.3 less when the waiter does (bit 9).
        let threat = |mask: usize| {
            0.0005 * threat_table()[mask] as f64 + 0.4 * (mask >> 4 & 1) as f64
                - 0.3 * (mask >> 9 & 1) as f64
        };
        let samples: Vec<Sample> = positions(3000)
            .into_iter()
            .map(|f| {
                let v: f64 = (0..2)
                    .flat_map(|r| (0..EVAL_TERMS).map(move |t| (r, t)))
                    .map(|(r, t)| truth[r][t] * f.terms[r][t] as f64)
                    .sum::<f64>()
                    + threat(f.mask);
                Sample {
                    features: f,
                    target: sigmoid(v),
                }
            })
            .collect();
        let mut seen = vec![0; MASKS];
        for s in &samples {
            seen[s.features.mask] += 1;
        }
        let got = fit(&samples, 5, 0.01, None).unwrap();
        let scale = got.scale;
        for t in 0..EVAL_TERMS {
            for (r, w) in [(0, &got.mover), (1, &got.waiter)] {
                if !fitted_term(r, t) {
                    continue;
                }
                let want = truth[r][t] * scale;
                assert!(
                    (w[t] as f64 - want).abs() <= 1.0 + 0.05 * want.abs(),
                    "role {r} term {t}: {} against {want}",
                    w[t]
                );
            }
        }
        assert_eq!(
            got.mover[Class::Five as usize],
            EVAL_MOVER[Class::Five as usize]
        );
        // The table carries the bonus for the move; masks never seen stay 0.
        assert_eq!(got.mover[MOVE_TERM], 0);
        assert!(got.threat.iter().zip(&seen).all(|(&v, &c)| c > 0 || v == 0));
        // A mask's entry and the counts it goes with can trade off, so the table is checked
        // through what it is for: the fitted evaluation of each sample is the true one.
        let fitted = |f: &EvalFeatures| {
            dot(&got.mover, &f.terms[0]) + dot(&got.waiter, &f.terms[1]) + got.threat[f.mask] as f64
        };
        let truth_of = |s: &Sample| (s.target.ln() - (1.0 - s.target).ln()) * scale;
        let mean = samples.iter().map(truth_of).sum::<f64>() / samples.len() as f64;
        let (mut error, mut spread) = (0.0, 0.0);
        for s in &samples {
            error += (fitted(&s.features) - truth_of(s)).powi(2);
            spread += (truth_of(s) - mean).powi(2);
        }
        // Weights rounded to whole units times counts in the hundreds, and the trade-offs, leave
        // some error: about 1.1% of the spread when written.
        assert!(
            error < 0.02 * spread,
            "squared error {error} against a spread of {spread}"
        );
        assert!(seen.iter().filter(|&&c| c >= 100).count() >= 3);
        assert!(got.test_loss < got.current_test_loss);
        assert!(got.train_loss <= got.test_loss + 0.01);
        // The loss as written is that of the written weights on the held-out samples.
        let held_out: Vec<Row> = samples
            .iter()
            .step_by(5)
            .map(|s| (vec![(0, fitted(&s.features) / got.scale)], s.target))
            .collect();
        let written = log_loss(&held_out, &[1.0]);
        assert!(
            (written - got.written_test_loss).abs() < 1e-9,
            "{written} against {}",
            got.written_test_loss
        );
    }

    /// The most common shape codes of the waiter in `features`, other than the all-dead one.
    fn common_codes(features: &[EvalFeatures], role: usize, count: usize) -> Vec<u16> {
        let mut seen = vec![0usize; SHAPE_CODES];
        for f in features {
            for &(c, n) in &f.codes[role] {
                seen[c as usize] += n as usize;
            }
        }
        let mut codes: Vec<u16> = (1..SHAPE_CODES as u16)
            .filter(|&c| seen[c as usize] > 0)
            .collect();
        codes.sort_by_key(|&c| std::cmp::Reverse(seen[c as usize]));
        codes.truncate(count);
        codes
    }

    /// Targets made by the weights in use plus a worth for a few shape codes: a fit with the
    /// code table finds those worths and predicts the held-out samples better than one without.
    #[test]
    fn a_fit_with_the_code_table_recovers_a_codes_worth() {
        let features = positions(3000);
        let planted: Vec<(u16, f64)> = common_codes(&features, 1, 3)
            .into_iter()
            .zip([0.06, -0.05, 0.04])
            .collect();
        let truth = |f: &EvalFeatures| {
            let v = dot(&EVAL_MOVER, &f.terms[0]) + dot(&EVAL_WAITER, &f.terms[1]);
            let by_code: f64 = f.codes[1]
                .iter()
                .filter_map(|&(c, n)| planted.iter().find(|p| p.0 == c).map(|p| p.1 * n as f64))
                .sum();
            0.0005 * (v + threat_table()[f.mask] as f64) + by_code
        };
        let samples: Vec<Sample> = features
            .into_iter()
            .map(|f| Sample {
                target: sigmoid(truth(&f)),
                features: f,
            })
            .collect();
        let without = fit(&samples, 5, 0.01, None).unwrap();
        assert!(without.codes.is_empty());
        let with = fit(&samples, 5, 0.01, Some(1.0)).unwrap();
        assert!(
            with.test_loss < without.test_loss - 1e-4,
            "held out: {} with the codes, {} without",
            with.test_loss,
            without.test_loss
        );
        // The planted worths come back in the evaluation's units, through the waiter's entries
        // (the code columns overlap the class ones, so only to within a part of their size).
        for &(code, worth) in &planted {
            let got = with.codes.iter().find(|e| e.0 == code).map_or(0, |e| e.2) as f64;
            let want = worth * with.scale;
            assert!(
                (got - want).abs() < 0.5 * want.abs(),
                "code {code}: {got} against {want}"
            );
        }
    }

    /// Choices made by planted scores of a few codes (the chosen candidate is the best by
    /// them): the fitted order puts the chosen move first far more often than the order in use.
    #[test]
    fn a_policy_fit_learns_which_codes_are_chosen() {
        let mut next = sequence(99);
        // The planted worth of an own code: its number's last digits, so that many codes differ.
        let worth = |c: &Candidate| (c.codes[0] % 7) as f64 * 1.5 + (c.codes[1] % 5) as f64;
        let mut choices = Vec::new();
        let mut g = Gomoku::new(GomokuRules::default());
        while choices.len() < 3000 {
            if g.outcome().is_some() || g.moves().len() > 30 {
                g = Gomoku::new(GomokuRules::default());
            }
            let (x, y) = (3 + next() % 9, 3 + next() % 9);
            let p = g.point(x as usize, y as usize);
            if g.color_at(p).is_some() {
                continue;
            }
            g.play(p);
            let Some(first) = quiet_board(&g).and_then(|b| b.candidates(1).first().copied()) else {
                continue;
            };
            let Some(mut c) = choice(&g, first) else {
                continue;
            };
            // Re-choose by the planted worths.
            let best = (0..c.candidates.len())
                .max_by(|&i, &j| {
                    let (a, b) = (&c.candidates[i], &c.candidates[j]);
                    worth(a).total_cmp(&worth(b)).then(j.cmp(&i))
                })
                .unwrap();
            c.chosen = best;
            choices.push(c);
        }
        let f = fit_policy(&choices, 5, 0.1).unwrap();
        assert!(f.test_loss < f.train_loss + 0.5, "{f:?}");
        assert!(
            f.fitted_within[0] > 0.6 && f.fitted_within[0] > f.current_within[0] + 0.2,
            "first: fitted {}, in use {}",
            f.fitted_within[0],
            f.current_within[0]
        );
        assert!(f.fitted_within[2] > 0.95, "{:?}", f.fitted_within);
    }

    #[test]
    fn too_few_samples_are_refused() {
        let samples: Vec<Sample> = positions(20)
            .into_iter()
            .map(|f| Sample {
                features: f,
                target: 0.5,
            })
            .collect();
        assert!(fit(&samples, 5, 1.0, None).unwrap_err().contains("too few"));
    }

    #[test]
    fn equations_are_solved_and_singular_ones_refused() {
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![3.0, 5.0]).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12);
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]).is_none());
    }
}
