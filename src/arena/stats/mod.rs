//! Match statistics for arena games between two engines: Elo difference with a confidence
//! interval, likelihood of superiority, and the sequential test that stops a match ([`sprt`]).
//!
//! These are the numbers that match runners such as cutechess-cli and fastchess print, derived
//! here from the underlying mathematics:
//!
//! * Every game gives player A a score of 1 (win), 1/2 (draw) or 0 (loss). The mean score `mu`
//!   maps to an Elo difference through the logistic model `mu = 1 / (1 + 10^(-elo/400))`: plain
//!   logistic Elo, not the normalised Elo some tools print.
//! * The arena plays games in colour-swapped pairs ([`pairs`]), and a pair's points (0 to 2) are
//!   the sample whose spread gives the standard error of `mu`; by the central limit theorem `mu`
//!   is roughly normal, so a 95% interval for the score is `mu ± 1.959964 · sigma`, mapped to Elo
//!   end by end. Single games (a win/draw/loss trinomial) are the fallback before any pair ends.

pub mod pairs;
pub mod sprt;

pub use pairs::{GamePoints, MatchScore, PairTally};
pub use sprt::{parse_sprt, Sprt, SprtModel, SprtVerdict};

/// Two-sided 95% quantile of the standard normal distribution.
const Z_95: f64 = 1.959964;

/// Scores are kept at least this far from 0 and 1 before turning them into Elo, because the
/// logistic model sends 0% and 100% to minus and plus infinity. `1e-6` corresponds to about
/// ±2400 Elo, far beyond any difference a finite match can really measure.
const SCORE_EPS: f64 = 1e-6;

/// Wins, draws and losses of player A against player B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// A tally from its three counts, in win-draw-loss order as matches print them.
    pub fn new(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    /// Number of games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score of A per game, `(w + d/2) / n`; 0.5 before any game, since with no evidence
    /// neither side is favoured.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// The same match seen from player B's side: wins and losses trade places.
    pub fn swapped(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Fraction of games drawn; 0 before any game.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        f64::from(self.draws) / f64::from(n)
    }
}

/// Elo difference (logistic model) with a 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval: the "+/-" figure match runners print. The interval is not
    /// symmetric around the estimate in Elo (the logistic curve bends it), so this is a summary.
    pub fn margin(&self) -> f64 {
        0.5 * (self.upper - self.lower)
    }
}

/// Elo difference of A over B with a 95% confidence interval, every game a sample; `None` when
/// no games were played. See [`estimate`].
pub fn elo_estimate(t: Tally) -> Option<EloEstimate> {
    let counts = [t.losses, t.draws, t.wins].map(f64::from);
    estimate(&counts, &[0.0, 0.5, 1.0], t.games())
}

/// Elo difference of A over B with a 95% confidence interval, every colour-swapped pair of games
/// a sample; `None` before the first pair. See [`estimate`].
pub fn elo_estimate_pairs(p: PairTally) -> Option<EloEstimate> {
    let counts = p.counts.map(f64::from);
    estimate(&counts, &[0.0, 0.25, 0.5, 0.75, 1.0], 2 * p.pairs())
}

/// The estimate from `counts[i]` samples of per-game score `scores[i]`, over `games` games.
///
/// Method (the normal approximation cutechess and fastchess use): the mean score `mu`, the
/// variance `var` of one sample's score, `sigma = sqrt(var / samples)`, and the interval
/// `[elo(mu - 1.959964·sigma), elo(mu + 1.959964·sigma)]`.
///
/// A perfect or zero score would give infinite Elo and a zero variance, so `mu` is first clamped
/// into `[1/(2n+2), 1 - 1/(2n+2)]` for `n` games: the score the match would have if one more game
/// had been drawn. That keeps a 10-0 result large (about +529 Elo) but finite and still growing
/// with the number of games. The variance is then measured around the clamped score; when the
/// clamp does nothing this is the ordinary variance, and when it acts it adds the squared shift,
/// so a one-sided match still gets an interval of honest width instead of a single point.
/// Interval ends beyond 0 or 1 are clamped by [`elo_from_score`]. A match of only draws keeps
/// its zero variance and reports `0 ± 0`, which is what that data says.
fn estimate(counts: &[f64], scores: &[f64], games: u32) -> Option<EloEstimate> {
    let samples: f64 = counts.iter().sum();
    if samples == 0.0 {
        return None;
    }
    let mean = counts.iter().zip(scores).map(|(c, a)| c * a).sum::<f64>() / samples;
    let edge = 1.0 / (2.0 * f64::from(games) + 2.0);
    let mu = mean.clamp(edge, 1.0 - edge);
    let var = counts
        .iter()
        .zip(scores)
        .map(|(c, a)| c * (a - mu).powi(2))
        .sum::<f64>()
        / samples;
    let sigma = (var / samples).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mu),
        lower: elo_from_score(mu - Z_95 * sigma),
        upper: elo_from_score(mu + Z_95 * sigma),
    })
}

/// Elo difference implied by an expected score under the logistic model:
/// `-400 · log10(1/score - 1)`.
///
/// Scores are clamped into `[1e-6, 1 - 1e-6]` (about ±2400 Elo) so that the result is always
/// finite; a NaN score carries no information and gives 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score.is_nan() {
        return 0.0;
    }
    let s = score.clamp(SCORE_EPS, 1.0 - SCORE_EPS);
    // Same as -400·log10(1/s - 1), written as a difference of logs so that scores close to 1
    // do not lose digits in `1/s - 1`.
    400.0 * (s.log10() - (1.0 - s).log10())
}

/// Expected score of a player who is `elo` stronger, the inverse of [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Likelihood of superiority: the probability that A is really the stronger player.
///
/// Draws say nothing about which side is stronger, so only decisive games count. Given `w + l`
/// decisive games, `w - l` is approximately normal with variance `w + l` if the players were
/// equal, which gives `0.5 · (1 + erf((w - l) / sqrt(2 (w + l))))`. With no decisive game the
/// answer is an even 0.5.
pub fn likelihood_of_superiority(t: Tally) -> f64 {
    let decisive = f64::from(t.wins) + f64::from(t.losses);
    if decisive == 0.0 {
        return 0.5;
    }
    let diff = f64::from(t.wins) - f64::from(t.losses);
    0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
}

/// The error function, `erf(x) = 2/sqrt(pi) · ∫_0^x e^(-t²) dt`; the standard library lacks it.
///
/// Uses the everywhere-convergent series
/// `erf(x) = 2/sqrt(pi) · e^(-x²) · Σ_{k≥0} (2x²)^k · x / (1·3·5···(2k+1))`,
/// whose terms are all positive, so there is no cancellation and the result is accurate to a
/// few units in the last place (far better than the 1e-7 the statistics need). Beyond |x| = 6
/// the true value differs from ±1 by less than 3e-17, so ±1 is returned directly.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() >= 6.0 {
        return x.signum();
    }
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut k = 0.0;
    // The terms grow until 2k+1 passes 2x² (at most 72 here) and then fall off faster than
    // geometrically, so a few hundred steps is a generous cap.
    for _ in 0..400 {
        k += 1.0;
        term *= 2.0 * x2 / (2.0 * k + 1.0);
        sum += term;
        if term.abs() <= sum.abs() * 1e-17 {
            break;
        }
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x2).exp() * sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn tally_basics() {
        let t = Tally::new(60, 10, 30);
        assert_eq!(t.games(), 100);
        // (60 + 10/2) / 100
        assert!(close(t.score(), 0.65, 1e-12));
        assert!(close(t.draw_ratio(), 0.1, 1e-12));
        assert_eq!(t.swapped(), Tally::new(30, 10, 60));
        assert_eq!(Tally::default().games(), 0);
        assert_eq!(Tally::default().score(), 0.5);
    }

    #[test]
    fn erf_matches_reference_values() {
        // Reference values of erf to 16 digits.
        let cases = [
            (0.0, 0.0),
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (3.0, 0.9999779095030014),
            (5.0, 0.9999999999984626),
        ];
        for (x, want) in cases {
            assert!(close(erf(x), want, 1e-13), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -want, 1e-13), "erf(-{x})");
        }
        assert_eq!(erf(7.0), 1.0);
        assert_eq!(erf(-40.0), -1.0);
        assert!(erf(f64::NAN).is_nan());
    }

    #[test]
    fn elo_from_score_values() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 0.75: -400·log10(1/0.75 - 1) = -400·log10(1/3) = 400·0.4771213 = 190.8485
        assert!(close(elo_from_score(0.75), 190.8485, 1e-3));
        assert!(close(elo_from_score(0.25), -190.8485, 1e-3));
        // Clamped ends: 1e-6 gives -400·log10(999999) ≈ -2400.
        for s in [0.0, 1.0, -3.0, 7.0, f64::NAN] {
            assert!(elo_from_score(s).is_finite(), "score {s}");
        }
        assert!(close(elo_from_score(1.0), 2400.0, 0.01));
        assert!(close(elo_from_score(0.0), -2400.0, 0.01));
        // Round trip through the inverse.
        for e in [-300.0, -35.0, 0.0, 10.0, 190.0] {
            assert!(close(elo_from_score(score_from_elo(e)), e, 1e-9));
        }
    }

    #[test]
    fn elo_estimate_hand_computed() {
        // 60-10-30: mu = 0.65, elo = -400·log10(0.35/0.65) = 107.538.
        // var = 0.6·0.35² + 0.1·0.15² + 0.3·0.65² = 0.0735 + 0.00225 + 0.12675 = 0.2025,
        // sigma = sqrt(0.2025/100) = 0.045, 1.959964·sigma = 0.088198,
        // lower = elo(0.561802) = 43.165, upper = elo(0.738198) = 180.080, margin 68.458.
        let e = elo_estimate(Tally::new(60, 10, 30)).unwrap();
        assert!(close(e.elo, 107.538, 1e-3), "{e:?}");
        assert!(close(e.lower, 43.165, 1e-3), "{e:?}");
        assert!(close(e.upper, 180.080, 1e-3), "{e:?}");
        assert!(close(e.margin(), 68.458, 1e-3), "{e:?}");
        assert_eq!(elo_estimate(Tally::default()), None);
    }

    #[test]
    fn elo_estimate_is_symmetric() {
        for t in [
            Tally::new(60, 10, 30),
            Tally::new(3, 0, 1),
            Tally::new(7, 0, 0),
            Tally::new(120, 400, 80),
        ] {
            let a = elo_estimate(t).unwrap();
            let b = elo_estimate(t.swapped()).unwrap();
            // Interval ends clamped near ±2400 Elo agree only to rounding of 1 - 1e-6.
            assert!(close(a.elo, -b.elo, 1e-9), "{a:?} {b:?}");
            assert!(close(a.lower, -b.upper, 1e-6), "{a:?} {b:?}");
            assert!(close(a.upper, -b.lower, 1e-6), "{a:?} {b:?}");
        }
        let even = elo_estimate(Tally::new(40, 20, 40)).unwrap();
        assert_eq!(even.elo, 0.0);
        assert!(close(even.lower, -even.upper, 1e-9));
    }

    #[test]
    fn interval_contains_estimate_and_narrows() {
        let mut previous = f64::INFINITY;
        for k in [1, 2, 5, 10, 100, 1000] {
            let e = elo_estimate(Tally::new(6 * k, k, 3 * k)).unwrap();
            assert!(e.lower < e.elo && e.elo < e.upper, "{e:?}");
            // Same ratio, so the centre does not move; the width shrinks like 1/sqrt(n).
            assert!(close(e.elo, 107.538, 1e-3), "{e:?}");
            assert!(e.margin() < previous, "k={k}: {e:?}");
            previous = e.margin();
        }
        // k = 1000 is 10000 games: sigma = sqrt(0.2025/10000) = 0.0045. Near 0.65 the Elo curve
        // has slope 400 / (ln 10 · 0.65 · 0.35) = 763.6 Elo per unit of score, so the margin is
        // about 1.959964 · 0.0045 · 763.6 = 6.735 (a tenth of the 68.46 of 100 games).
        assert!(close(previous, 6.735, 0.01), "{previous}");
    }

    #[test]
    fn perfect_and_zero_scores_are_finite() {
        // 10-0: mu clamped to 1 - 1/22 = 0.954545 → elo = 400·log10(21) = 528.89.
        // var about the clamped score = (1/22)², sigma = (1/22)/sqrt(10) = 0.014374,
        // lower = elo(0.954545 - 0.028173) = elo(0.926372) = 439.90,
        // upper = elo(0.982718) = 701.93.
        let e = elo_estimate(Tally::new(10, 0, 0)).unwrap();
        assert!(close(e.elo, 528.888, 1e-3), "{e:?}");
        assert!(close(e.lower, 439.899, 1e-3), "{e:?}");
        assert!(close(e.upper, 701.934, 1e-3), "{e:?}");
        let z = elo_estimate(Tally::new(0, 0, 10)).unwrap();
        assert!(close(z.elo, -528.888, 1e-3), "{z:?}");
        for t in [
            Tally::new(1, 0, 0),
            Tally::new(0, 0, 1),
            Tally::new(0, 5, 0),
            Tally::new(100_000, 0, 0),
            Tally::new(0, 3, 9),
        ] {
            let e = elo_estimate(t).unwrap();
            assert!(e.elo.is_finite() && e.lower.is_finite() && e.upper.is_finite());
            assert!(e.lower <= e.elo && e.elo <= e.upper, "{t:?}: {e:?}");
        }
        // More straight wins is more evidence of a bigger gap.
        let a = elo_estimate(Tally::new(10, 0, 0)).unwrap().elo;
        let b = elo_estimate(Tally::new(100, 0, 0)).unwrap().elo;
        assert!(b > a);
        // Only draws: 0 ± 0.
        let d = elo_estimate(Tally::new(0, 5, 0)).unwrap();
        assert_eq!((d.elo, d.lower, d.upper), (0.0, 0.0, 0.0));
    }

    #[test]
    fn likelihood_of_superiority_values() {
        assert_eq!(likelihood_of_superiority(Tally::default()), 0.5);
        assert_eq!(likelihood_of_superiority(Tally::new(0, 9, 0)), 0.5);
        assert!(close(
            likelihood_of_superiority(Tally::new(25, 50, 25)),
            0.5,
            1e-15
        ));
        // 60-30: erf(30 / sqrt(180)) = erf(2.236068) = 0.9984346, LOS = 0.9992173.
        let los = likelihood_of_superiority(Tally::new(60, 10, 30));
        assert!(los > 0.99);
        assert!(close(los, 0.9992173, 1e-6), "{los}");
        let other = likelihood_of_superiority(Tally::new(30, 10, 60));
        assert!(close(los + other, 1.0, 1e-12));
        // 1-0: erf(1/sqrt(2)) = 0.6826895 (one sigma), LOS = 0.8413447.
        assert!(close(
            likelihood_of_superiority(Tally::new(1, 0, 0)),
            0.8413447,
            1e-6
        ));
    }

    #[test]
    fn elo_estimate_from_pairs_hand_computed() {
        assert_eq!(elo_estimate_pairs(PairTally::default()), None);
        // Pairs 5-10-30-35-20 (A's 0, 0.5, 1, 1.5, 2 points): mu = 51/80 = 0.6375, elo 98.069;
        // the variance of a pair's per-game score about mu is 0.07171875, sigma =
        // sqrt(0.07171875 / 100) = 0.0267804, interval elo(0.6375 ± 0.0524889) = 59.651 to
        // 138.986.
        let e = elo_estimate_pairs(PairTally::new([5, 10, 30, 35, 20])).unwrap();
        assert!(close(e.elo, 98.069, 1e-3), "{e:?}");
        assert!(close(e.lower, 59.651, 1e-3), "{e:?}");
        assert!(close(e.upper, 138.986, 1e-3), "{e:?}");
        // Symmetric pairs: 0 with +/- 37.442.
        let even = elo_estimate_pairs(PairTally::new([10, 20, 40, 20, 10])).unwrap();
        assert_eq!(even.elo, 0.0);
        assert!(close(even.upper, 37.442, 1e-3), "{even:?}");
        // Pairs that always split one win each are a tight 0, however few.
        let split = elo_estimate_pairs(PairTally::new([0, 0, 6, 0, 0])).unwrap();
        assert_eq!((split.elo, split.lower, split.upper), (0.0, 0.0, 0.0));
        // Twelve won pairs are 24 straight wins: the same clamp as 24-0-0 games.
        let won = elo_estimate_pairs(PairTally::new([0, 0, 0, 0, 12])).unwrap();
        let games = elo_estimate(Tally::new(24, 0, 0)).unwrap();
        assert!(close(won.elo, games.elo, 1e-9), "{won:?} {games:?}");
    }
}
