//! Fitting the static evaluation's weights (`EVAL_MOVER`, `EVAL_WAITER` in `board.rs`) to a
//! stronger engine's judgement of quiet positions, by logistic regression: the evaluation is a
//! linear sum of counted features (`Board::eval_features`), so a win rate `1 / (1 + e^-v)` of
//! it can be fitted to the other engine's win rates by Newton's method. `stonebrain-fit` runs
//! it; these are the parts that need the engine's board.

use super::board::{Board, EvalFeatures, EVAL_MOVER, EVAL_TERMS, EVAL_WAITER, MOVE_TERM};
use super::pattern::Class;
use crate::game::gomoku::Gomoku;
use crate::game::Color;

/// One judged position: its features and the other engine's win rate for the side to move.
pub struct Sample {
    pub features: EvalFeatures,
    pub target: f64,
}

/// The features of a position, or `None` when it is not quiet: either side has a five to make
/// (the search settles those before it ever evaluates).
pub fn quiet_features(pos: &Gomoku) -> Option<EvalFeatures> {
    let b = Board::new(pos);
    let quiet = [Color::Black, Color::White]
        .iter()
        .all(|&c| b.fives(c).is_empty());
    quiet.then(|| b.eval_features())
}

/// The weights a fit does not touch: the dead class (no five can pass, worth nothing) and five
/// (quiet positions have none, so nothing to fit; it keeps its value for the search's other
/// positions), and the waiting side's move bonus (it has no move).
fn fitted_term(role: usize, term: usize) -> bool {
    term != Class::Dead as usize
        && term != Class::Five as usize
        && !(role == 1 && term == MOVE_TERM)
}

/// The open three's place in the weights: the fitted weights are scaled so that the mover's is
/// `EVAL_MOVER`'s, which keeps the evaluation's scale (and the search's margins) where it was.
const ANCHOR: usize = Class::FlexThree as usize;

#[derive(Debug)]
pub struct Fit {
    pub mover: [i32; EVAL_TERMS],
    pub waiter: [i32; EVAL_TERMS],
    /// Mean log loss on the samples fitted and on those held out, for the fitted weights and
    /// for the weights in use now (with their best scale).
    pub train_loss: f64,
    pub test_loss: f64,
    pub current_train_loss: f64,
    pub current_test_loss: f64,
}

/// Fits the weights to `samples`, holding out every `hold_out`-th sample to report the loss on.
pub fn fit(samples: &[Sample], hold_out: usize) -> Result<Fit, String> {
    let terms: Vec<(usize, usize)> = (0..2)
        .flat_map(|r| (0..EVAL_TERMS).map(move |t| (r, t)))
        .filter(|&(r, t)| fitted_term(r, t))
        .collect();
    let rows = |train: bool| {
        samples
            .iter()
            .enumerate()
            .filter(move |(i, _)| (i % hold_out.max(2) == 0) != train)
            .map(|(_, s)| s)
    };
    let fitted_x = |s: &Sample| -> Vec<f64> {
        terms
            .iter()
            .map(|&(r, t)| s.features[r][t] as f64)
            .collect()
    };
    let train: Vec<(Vec<f64>, f64)> = rows(true).map(|s| (fitted_x(s), s.target)).collect();
    let test: Vec<(Vec<f64>, f64)> = rows(false).map(|s| (fitted_x(s), s.target)).collect();
    if train.len() < 10 * terms.len() {
        return Err(format!(
            "{} samples to fit {} weights: too few",
            train.len(),
            terms.len()
        ));
    }
    let w = logistic(&train)?;
    let anchor = terms
        .iter()
        .position(|&t| t == (0, ANCHOR))
        .expect("the open three is fitted");
    if w[anchor] <= 0.0 {
        return Err("the fit gives the mover's open three no worth".into());
    }
    let scale = EVAL_MOVER[ANCHOR] as f64 / w[anchor];
    let mut mover = EVAL_MOVER;
    let mut waiter = EVAL_WAITER;
    for (&(r, t), wi) in terms.iter().zip(&w) {
        let v = (wi * scale).round() as i32;
        if r == 0 {
            mover[t] = v;
        } else {
            waiter[t] = v;
        }
    }
    // The weights in use, with the one scale that suits them best.
    let current_x =
        |s: &Sample| vec![dot(&EVAL_MOVER, &s.features[0]) + dot(&EVAL_WAITER, &s.features[1])];
    let current_train: Vec<(Vec<f64>, f64)> =
        rows(true).map(|s| (current_x(s), s.target)).collect();
    let current_test: Vec<(Vec<f64>, f64)> =
        rows(false).map(|s| (current_x(s), s.target)).collect();
    let c = logistic(&current_train)?;
    Ok(Fit {
        mover,
        waiter,
        train_loss: log_loss(&train, &w),
        test_loss: log_loss(&test, &w),
        current_train_loss: log_loss(&current_train, &c),
        current_test_loss: log_loss(&current_test, &c),
    })
}

fn dot(w: &[i32; EVAL_TERMS], f: &[i32; EVAL_TERMS]) -> f64 {
    w.iter().zip(f).map(|(a, b)| (a * b) as f64).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z.clamp(-40.0, 40.0)).exp())
}

fn log_loss(rows: &[(Vec<f64>, f64)], w: &[f64]) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|(x, y)| {
            let p = sigmoid(x.iter().zip(w).map(|(a, b)| a * b).sum()).clamp(1e-9, 1.0 - 1e-9);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / rows.len().max(1) as f64
}

/// Weights (no intercept: the mover's bonus is a feature) minimising the mean log loss plus a
/// small ridge, by Newton's method on columns scaled to unit spread.
fn logistic(rows: &[(Vec<f64>, f64)]) -> Result<Vec<f64>, String> {
    const RIDGE: f64 = 1e-8;
    let k = rows.first().map_or(0, |r| r.0.len());
    let n = rows.len() as f64;
    let spread: Vec<f64> = (0..k)
        .map(|j| {
            let m = rows.iter().map(|r| r.0[j]).sum::<f64>() / n;
            let sd = (rows.iter().map(|r| (r.0[j] - m).powi(2)).sum::<f64>() / n).sqrt();
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
            let z: Vec<f64> = x.iter().zip(&spread).map(|(a, s)| a / s).collect();
            let p = sigmoid(z.iter().zip(&w).map(|(a, b)| a * b).sum());
            let h = p * (1.0 - p);
            for i in 0..k {
                grad[i] += (p - y) * z[i] / n;
                for j in 0..k {
                    hess[i][j] += h * z[i] * z[j] / n;
                }
            }
        }
        for i in 0..k {
            grad[i] += RIDGE * w[i];
            hess[i][i] += RIDGE;
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

    /// Positions of a fixed pseudo-random walk near the centre, quiet ones only.
    fn positions(count: usize) -> Vec<EvalFeatures> {
        let mut seed = 12345u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
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

    /// Win rates made by known weights are fitted back to those weights (up to the scale the
    /// fit puts on them), and the fit's loss beats the weights in use.
    #[test]
    fn a_fit_recovers_the_weights_behind_its_targets() {
        let mut truth = [[0.0f64; EVAL_TERMS]; 2];
        for (r, per_term) in [0.002, -0.003].into_iter().enumerate() {
            for (t, w) in truth[r].iter_mut().enumerate() {
                if fitted_term(r, t) {
                    *w = per_term * t as f64;
                }
            }
        }
        truth[0][ANCHOR] = 0.03;
        let samples: Vec<Sample> = positions(3000)
            .into_iter()
            .map(|f| {
                let v: f64 = (0..2)
                    .flat_map(|r| (0..EVAL_TERMS).map(move |t| (r, t)))
                    .map(|(r, t)| truth[r][t] * f[r][t] as f64)
                    .sum();
                Sample {
                    features: f,
                    target: sigmoid(v),
                }
            })
            .collect();
        let got = fit(&samples, 5).unwrap();
        let scale = EVAL_MOVER[ANCHOR] as f64 / truth[0][ANCHOR];
        assert_eq!(got.mover[ANCHOR], EVAL_MOVER[ANCHOR]);
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
        assert!(got.test_loss < got.current_test_loss);
        assert!(got.train_loss <= got.test_loss + 0.01);
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
        assert!(fit(&samples, 5).unwrap_err().contains("too few"));
    }

    #[test]
    fn equations_are_solved_and_singular_ones_refused() {
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![3.0, 5.0]).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12);
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]).is_none());
    }
}
