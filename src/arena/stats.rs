//! Match statistics for arena games between two engines: Elo difference with a confidence
//! interval, likelihood of superiority and a sequential probability ratio test (SPRT).
//!
//! These are the numbers that match runners such as cutechess-cli and fastchess print, derived
//! here from the underlying mathematics:
//!
//! * Every game gives player A a score of 1 (win), 1/2 (draw) or 0 (loss). The mean score `mu`
//!   maps to an Elo difference through the logistic model `mu = 1 / (1 + 10^(-elo/400))`.
//! * The spread of the per-game score (a trinomial distribution over win/draw/loss) gives the
//!   standard error of `mu`, and by the central limit theorem `mu` is roughly normal, so a 95%
//!   interval for the score is `mu ± 1.959964 · sigma`, which is mapped to Elo end by end.
//! * The SPRT decides between "A is `elo0` stronger" (H0) and "A is `elo1` stronger" (H1) as
//!   games come in, stopping as soon as the evidence is strong enough for the chosen error rates.

use std::fmt;

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

/// Per-game score moments of a (possibly fractional) win/draw/loss count: the total number of
/// games, the mean score and the second moment about `centre`.
///
/// The counts are `f64` so that the SPRT can add fractional pseudo-games. Taking the moment
/// about a chosen centre rather than always about the mean lets the Elo estimate measure the
/// spread around its clamped score (see [`elo_estimate`]).
fn moments(w: f64, d: f64, l: f64, centre: Option<f64>) -> (f64, f64, f64) {
    let n = w + d + l;
    let mean = (w + 0.5 * d) / n;
    let c = centre.unwrap_or(mean);
    let var = (w * (1.0 - c).powi(2) + d * (0.5 - c).powi(2) + l * c.powi(2)) / n;
    (n, mean, var)
}

/// Elo difference (logistic model) with a 95% confidence interval, from a tally.
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

/// Elo difference of A over B with a 95% confidence interval; `None` when no games were played.
///
/// Method (the normal approximation cutechess uses): the mean score `mu`, the per-game score
/// variance `var` from the win/draw/loss frequencies, `sigma = sqrt(var / n)`, and the interval
/// `[elo(mu - 1.959964·sigma), elo(mu + 1.959964·sigma)]`.
///
/// A perfect or zero score would give infinite Elo and a zero variance, so `mu` is first clamped
/// into `[1/(2n+2), 1 - 1/(2n+2)]`: the score the match would have if one more game had been
/// drawn. That keeps a 10-0 result large (about +529 Elo) but finite and still growing with the
/// number of games. The variance is then measured around the clamped score; when the clamp does
/// nothing this is the ordinary variance, and when it acts it adds the squared shift, so a
/// one-sided match still gets an interval of honest width instead of a single point. Interval
/// ends beyond 0 or 1 are clamped by [`elo_from_score`]. A match of only draws keeps its zero
/// variance and reports `0 ± 0`, which is what that data says.
pub fn elo_estimate(t: Tally) -> Option<EloEstimate> {
    let n = t.games();
    if n == 0 {
        return None;
    }
    let edge = 1.0 / (2.0 * f64::from(n) + 2.0);
    let mu = t.score().clamp(edge, 1.0 - edge);
    let (nf, _, var) = moments(
        f64::from(t.wins),
        f64::from(t.draws),
        f64::from(t.losses),
        Some(mu),
    );
    let sigma = (var / nf).sqrt();
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

/// Sequential probability ratio test as fishtest/fastchess run it (`--sprt elo0=.. elo1=..
/// alpha=.. beta=..`): generalized SPRT on the trinomial win/draw/loss model with logistic Elo.
///
/// H0 is "A is `elo0` stronger than B", H1 is "A is `elo1` stronger"; `alpha` is the chance of
/// accepting H1 when H0 holds and `beta` the chance of accepting H0 when H1 holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says about the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Not enough evidence yet: play more games.
    Continue,
    /// The evidence favours H0 (`elo0`) strongly enough: stop.
    AcceptH0,
    /// The evidence favours H1 (`elo1`) strongly enough: stop.
    AcceptH1,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::Continue => "continue",
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// A test of `elo0` against `elo1` with the customary error rates `alpha = beta = 0.05`.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// A test with every parameter given, rejecting combinations for which the test is
    /// meaningless: the hypotheses must be finite with `elo0 < elo1`, and the error rates must lie
    /// in (0, 1) with `alpha + beta < 1` so that the lower bound is below 0 and the upper above.
    pub fn checked(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !elo0.is_finite() || !elo1.is_finite() {
            return Err(format!(
                "SPRT: elo0 and elo1 must be finite numbers (got {elo0} and {elo1})"
            ));
        }
        if elo0 >= elo1 {
            return Err(format!(
                "SPRT: elo0 must be smaller than elo1 (got elo0={elo0}, elo1={elo1})"
            ));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(format!(
                    "SPRT: {name} must lie strictly between 0 and 1 (got {value})"
                ));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "SPRT: alpha + beta must be below 1 (got {alpha} + {beta})"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's stopping bounds on the log-likelihood ratio:
    /// `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`. Crossing the lower one accepts H0,
    /// crossing the upper one accepts H1; for `alpha = beta = 0.05` they are ±2.944.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for the games so far.
    ///
    /// Generalized SPRT with the normal approximation: the mean score `s` of `n` games is about
    /// normal with variance `var / n`, where `var` is the per-game score variance estimated from
    /// the win/draw/loss frequencies. With `s0 = score(elo0)` and `s1 = score(elo1)` the log ratio
    /// of the two normal likelihoods is
    /// `n · ((s - s0)² - (s - s1)²) / (2 var) = n · (s1 - s0) · (2s - s0 - s1) / (2 var)`.
    ///
    /// The result is 0 when no game has been played. When A has no win or no loss yet, the
    /// observed variance understates the real spread (a one-sided match even has zero variance,
    /// which would make the ratio infinite or undefined), so half a win and half a loss are
    /// added as pseudo-games first. That keeps the ratio finite and modest on a few games, while
    /// a long unbroken run still crosses a bound: with elo0=0, elo1=10, fourteen straight wins
    /// accept H1, so a match against a much weaker opponent still ends.
    pub fn llr(&self, t: Tally) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let (mut w, d, mut l) = (f64::from(t.wins), f64::from(t.draws), f64::from(t.losses));
        if t.wins == 0 || t.losses == 0 {
            w += 0.5;
            l += 0.5;
        }
        let (n, s, var) = moments(w, d, l, None);
        if var <= 0.0 {
            // Unreachable after the pseudo-games (some win and some loss always remain), but a
            // zero variance must never turn into an infinite ratio.
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Compares [`Sprt::llr`] with [`Sprt::bounds`]: at or below the lower bound accepts H0, at or
    /// above the upper one accepts H1, otherwise the match should go on.
    pub fn verdict(&self, t: Tally) -> SprtVerdict {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// Parses the `key=value` pieces given after `--sprt`, such as `["elo0=0", "elo1=10"]`.
///
/// Keys are `elo0` and `elo1` (both required) and `alpha` and `beta` (default 0.05). A piece
/// may also hold several whitespace-separated pairs (`"elo0=0 elo1=10"`), so a quoted argument
/// works as well as separate ones. Unknown or repeated keys, missing `=`, non-numeric values
/// and parameter combinations [`Sprt::checked`] rejects are errors that name the culprit.
pub fn parse_sprt(parts: &[&str]) -> Result<Sprt, String> {
    let mut elo0 = None;
    let mut elo1 = None;
    let mut alpha = None;
    let mut beta = None;
    for piece in parts.iter().flat_map(|p| p.split_whitespace()) {
        let (key, value) = piece.split_once('=').ok_or_else(|| {
            format!("SPRT: expected key=value, got '{piece}' (keys: elo0, elo1, alpha, beta)")
        })?;
        let slot = match key.trim() {
            "elo0" => &mut elo0,
            "elo1" => &mut elo1,
            "alpha" => &mut alpha,
            "beta" => &mut beta,
            other => {
                return Err(format!(
                    "SPRT: unknown key '{other}' in '{piece}' (keys: elo0, elo1, alpha, beta)"
                ))
            }
        };
        if slot.is_some() {
            return Err(format!("SPRT: key '{}' given more than once", key.trim()));
        }
        let number: f64 = value
            .trim()
            .parse()
            .map_err(|_| format!("SPRT: '{}' is not a number in '{piece}'", value.trim()))?;
        *slot = Some(number);
    }
    let elo0 = elo0.ok_or("SPRT: missing elo0 (e.g. elo0=0)")?;
    let elo1 = elo1.ok_or("SPRT: missing elo1 (e.g. elo1=10)")?;
    Sprt::checked(elo0, elo1, alpha.unwrap_or(0.05), beta.unwrap_or(0.05))
}

/// A one-line match summary in the style of fastchess, for example
/// `Elo: 107.5 +/- 68.5, LOS: 99.9 %, DrawRatio: 10.0 %, W-D-L: 60-10-30`.
///
/// The "+/-" figure is [`EloEstimate::margin`]; before any game the Elo reads `n/a`.
pub fn summary(t: Tally) -> String {
    let elo = match elo_estimate(t) {
        Some(e) => format!("{:.1} +/- {:.1}", e.elo, e.margin()),
        None => "n/a".to_string(),
    };
    format!(
        "Elo: {elo}, LOS: {:.1} %, DrawRatio: {:.1} %, W-D-L: {}-{}-{}",
        100.0 * likelihood_of_superiority(t),
        100.0 * t.draw_ratio(),
        t.wins,
        t.draws,
        t.losses
    )
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
            assert!(summary(t).is_ascii());
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
    fn sprt_bounds() {
        // ln(0.05/0.95) = -2.944439.
        let (lo, hi) = Sprt::new(0.0, 10.0).bounds();
        assert!(close(lo, -2.944439, 1e-6), "{lo}");
        assert!(close(hi, 2.944439, 1e-6), "{hi}");
        // alpha=0.05, beta=0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
        let (lo, hi) = Sprt::checked(0.0, 5.0, 0.05, 0.1).unwrap().bounds();
        assert!(close(lo, -2.251292, 1e-6), "{lo}");
        assert!(close(hi, 2.890372, 1e-6), "{hi}");
    }

    #[test]
    fn sprt_llr_and_verdicts() {
        let sprt = Sprt::new(0.0, 10.0);
        // s0 = 0.5, s1 = 1/(1 + 10^-0.025) = 0.5143872, s1 - s0 = 0.0143872.
        assert_eq!(sprt.llr(Tally::default()), 0.0);
        assert_eq!(sprt.verdict(Tally::default()), SprtVerdict::Continue);

        // 180-30-90: s = 0.65, var = 0.2025 (as for 60-10-30),
        // LLR = 300 · 0.0143872 · (1.3 - 1.0143872) / 0.405 = 3.0438 > 2.944: accept H1.
        let strong = Tally::new(180, 30, 90);
        assert!(
            close(sprt.llr(strong), 3.0438, 1e-3),
            "{}",
            sprt.llr(strong)
        );
        assert_eq!(sprt.verdict(strong), SprtVerdict::AcceptH1);
        // A third of those games is not enough yet: LLR = 1.0146.
        let early = Tally::new(60, 10, 30);
        assert!(close(sprt.llr(early), 1.0146, 1e-3), "{}", sprt.llr(early));
        assert_eq!(sprt.verdict(early), SprtVerdict::Continue);

        // Dead even, 2400-1200-2400: s = 0.5, var = 0.4·0.25·2 = 0.2,
        // LLR = 6000 · 0.0143872 · (1 - 1.0143872) / 0.4 = -3.1049 < -2.944: accept H0.
        let even = Tally::new(2400, 1200, 2400);
        assert!(close(sprt.llr(even), -3.1049, 1e-3), "{}", sprt.llr(even));
        assert_eq!(sprt.verdict(even), SprtVerdict::AcceptH0);
        // The same ratio over 1000 games is only LLR = -0.5175: keep playing.
        assert_eq!(
            sprt.verdict(Tally::new(400, 200, 400)),
            SprtVerdict::Continue
        );

        // A clearly weaker A is rejected quickly: 30-10-60 has LLR = 100 · 0.0143872 ·
        // (0.7 - 1.0143872) / 0.405 = -1.1156 at 100 games, and below -2.944 by 300.
        assert_eq!(sprt.verdict(Tally::new(90, 30, 180)), SprtVerdict::AcceptH0);
    }

    #[test]
    fn sprt_one_sided_matches_end() {
        let sprt = Sprt::new(0.0, 10.0);
        // 14 straight wins, plus half a win and half a loss: 14.5-0-0.5 over 15,
        // s = 0.966667, var = s(1 - s) = 0.032222,
        // LLR = 15 · 0.0143872 · (1.933333 - 1.0143872) / 0.064444 = 3.077: accept H1.
        let t = Tally::new(14, 0, 0);
        assert!(close(sprt.llr(t), 3.0773, 1e-3), "{}", sprt.llr(t));
        assert_eq!(sprt.verdict(t), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(Tally::new(5, 0, 0)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(Tally::new(0, 0, 14)), SprtVerdict::AcceptH0);
        // Nothing but draws is evidence for equality: 200 draws plus the pseudo-games,
        // s = 0.5, var = 0.25/201, LLR = 201 · 0.0143872 · (-0.0143872) / (0.5/201) = -16.7.
        assert_eq!(sprt.verdict(Tally::new(0, 200, 0)), SprtVerdict::AcceptH0);
        for t in [
            Tally::new(1, 0, 0),
            Tally::new(0, 1, 0),
            Tally::new(3, 4, 0),
        ] {
            assert!(sprt.llr(t).is_finite());
        }
    }

    #[test]
    fn sprt_llr_is_antisymmetric_for_mirrored_hypotheses() {
        // Testing [-10, 0] on B's view of the games mirrors testing [0, 10] on A's view.
        let t = Tally::new(130, 40, 110);
        let a = Sprt::new(0.0, 10.0).llr(t);
        let b = Sprt::new(-10.0, 0.0).llr(t.swapped());
        assert!(close(a, -b, 1e-9), "{a} {b}");
    }

    #[test]
    fn parse_sprt_accepts_valid_input() {
        let s = parse_sprt(&["elo0=0", "elo1=10"]).unwrap();
        assert_eq!(s, Sprt::new(0.0, 10.0));
        let s = parse_sprt(&["elo1=5.5", "elo0=-1.5", "alpha=0.1", "beta=0.02"]).unwrap();
        assert_eq!(
            s,
            Sprt {
                elo0: -1.5,
                elo1: 5.5,
                alpha: 0.1,
                beta: 0.02
            }
        );
        let s = parse_sprt(&["elo0=0 elo1=10", "alpha=0.05"]).unwrap();
        assert_eq!(s, Sprt::new(0.0, 10.0));
    }

    #[test]
    fn parse_sprt_errors() {
        let err = |parts: &[&str]| parse_sprt(parts).unwrap_err();
        assert!(err(&[]).contains("missing elo0"));
        assert!(err(&["elo0=0"]).contains("missing elo1"));
        assert!(err(&["elo1=10"]).contains("missing elo0"));
        assert!(err(&["elo0=0", "elo1"]).contains("expected key=value"));
        assert!(err(&["elo0=0", "elo1=10", "gamma=1"]).contains("unknown key 'gamma'"));
        assert!(err(&["elo0=0", "elo1=ten"]).contains("'ten' is not a number"));
        assert!(err(&["elo0=0", "elo0=1", "elo1=10"]).contains("more than once"));
        assert!(err(&["elo0=10", "elo1=0"]).contains("smaller than elo1"));
        assert!(err(&["elo0=5", "elo1=5"]).contains("smaller than elo1"));
        assert!(err(&["elo0=0", "elo1=10", "alpha=0"]).contains("alpha must lie"));
        assert!(err(&["elo0=0", "elo1=10", "beta=1.5"]).contains("beta must lie"));
        assert!(err(&["elo0=0", "elo1=10", "alpha=0.6", "beta=0.5"]).contains("below 1"));
        assert!(err(&["elo0=nan", "elo1=10"]).contains("finite"));
        assert!(err(&["elo0=0", "elo1=inf"]).contains("finite"));
    }

    #[test]
    fn summary_line() {
        assert_eq!(
            summary(Tally::new(60, 10, 30)),
            "Elo: 107.5 +/- 68.5, LOS: 99.9 %, DrawRatio: 10.0 %, W-D-L: 60-10-30"
        );
        assert_eq!(
            summary(Tally::default()),
            "Elo: n/a, LOS: 50.0 %, DrawRatio: 0.0 %, W-D-L: 0-0-0"
        );
        assert_eq!(SprtVerdict::AcceptH1.to_string(), "H1 accepted");
    }
}
