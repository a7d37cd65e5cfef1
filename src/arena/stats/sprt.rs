//! The sequential probability ratio test that stops an engine-change match: is A `elo0` or
//! `elo1` stronger than B?
//!
//! The test is the generalised SPRT on the exact multinomial likelihood, as the chess testing
//! tools run it, not a normal approximation. A match's results are a sample from some
//! distribution over outcomes (per game: loss, draw, win; per pair of colour-swapped games: 0,
//! 0.5, 1, 1.5 or 2 points). Each hypothesis fixes only the expected score, `score(elo0)` or
//! `score(elo1)` under the logistic Elo model; for each, the distribution that best explains the
//! data while having that expected score is found (a constrained maximum likelihood), and the
//! log-likelihood ratio is the log of the ratio of the two likelihoods.
//!
//! Why exact: the normal approximation needs a variance, and on a handful of games the variance
//! measured from the games is a poor guess (five straight wins measure none at all), which made
//! the old test stop on five wins. The exact ratio needs no variance: on games without draws it is
//! Wald's own test of a coin, `W·ln(s1/s0) + L·ln((1-s1)/(1-s0))`, whose error rates hold from the
//! first game, and with draws or pairs the extra freedom only makes each result worth less.

use super::pairs::{MatchScore, PairTally};
use super::{score_from_elo, Tally};
use std::fmt;

/// Outcomes too rare to have happened yet still get this many pseudo-observations, so that the
/// constrained estimate always has a solution inside the simplex. It moves the ratio by about a
/// thousandth, far less than one game does (the same guard the chess tools use).
const PSEUDO_COUNT: f64 = 1e-3;

/// A's score per game for each trinomial outcome: loss, draw, win.
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// A's score per game for each pentanomial outcome, a pair's points over two games.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What the test counts as one observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// A pair of games from one start with colours swapped (the arena always plays pairs): the
    /// default, since the two games of a pair are correlated.
    Pentanomial,
    /// A single game, as if games were independent (true only with no colour or opening
    /// advantage).
    Trinomial,
}

impl SprtModel {
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Pentanomial => "pentanomial",
            SprtModel::Trinomial => "trinomial",
        }
    }

    /// What one observation is called in the output.
    pub fn unit(self) -> &'static str {
        match self {
            SprtModel::Pentanomial => "pairs",
            SprtModel::Trinomial => "games",
        }
    }
}

/// The test's parameters. H0 is "A is `elo0` stronger than B", H1 is "A is `elo1` stronger"
/// (logistic Elo); `alpha` is the chance of accepting H1 when H0 holds and `beta` the chance of
/// accepting H0 when H1 holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
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
    /// A pentanomial test of `elo0` against `elo1` with the customary `alpha = beta = 0.05`.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Pentanomial,
        }
    }

    /// The same test reading another kind of observation.
    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// A pentanomial test with every parameter given, rejecting combinations for which the test
    /// is meaningless: the hypotheses must be finite with `elo0 < elo1`, and the error rates must
    /// lie in (0, 1) with `alpha + beta < 1` so that the lower bound is below 0 and the upper
    /// above.
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
            alpha,
            beta,
            ..Sprt::new(elo0, elo1)
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

    /// Log-likelihood ratio of H1 against H0 for the match so far, read by the test's model.
    pub fn llr(&self, score: &MatchScore) -> f64 {
        match self.model {
            SprtModel::Pentanomial => self.llr_pairs(score.pairs),
            SprtModel::Trinomial => self.llr_games(score.games),
        }
    }

    /// How many observations the test has read so far (pairs or games, as [`SprtModel::unit`]).
    pub fn observations(&self, score: &MatchScore) -> u32 {
        match self.model {
            SprtModel::Pentanomial => score.pairs.pairs(),
            SprtModel::Trinomial => score.games.games(),
        }
    }

    /// The ratio with every game an independent observation.
    pub fn llr_games(&self, t: Tally) -> f64 {
        let counts = [t.losses, t.draws, t.wins].map(f64::from);
        self.multinomial_llr(&counts, &GAME_SCORES)
    }

    /// The ratio with every pair of games one observation.
    pub fn llr_pairs(&self, p: PairTally) -> f64 {
        self.multinomial_llr(&p.counts.map(f64::from), &PAIR_SCORES)
    }

    /// `Σ n_i · ln(p1_i / p0_i)`, where `p0` and `p1` are the distributions over the outcomes
    /// (with per-game scores `scores`) that best fit the counts among those with the expected
    /// score of H0 and of H1. 0 before any observation.
    fn multinomial_llr<const K: usize>(&self, counts: &[f64; K], scores: &[f64; K]) -> f64 {
        if counts.iter().sum::<f64>() == 0.0 {
            return 0.0;
        }
        let counts = counts.map(|c| if c == 0.0 { PSEUDO_COUNT } else { c });
        let total: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / total);
        let p0 = constrained_mle(&freq, scores, score_from_elo(self.elo0));
        let p1 = constrained_mle(&freq, scores, score_from_elo(self.elo1));
        (0..K).map(|i| counts[i] * (p1[i] / p0[i]).ln()).sum()
    }

    /// Compares a log-likelihood ratio with [`Sprt::bounds`]: at or below the lower bound
    /// accepts H0, at or above the upper one accepts H1, otherwise the match should go on.
    pub fn verdict_of(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The verdict on the match so far.
    pub fn verdict(&self, score: &MatchScore) -> SprtVerdict {
        self.verdict_of(self.llr(score))
    }

    /// The test as the output names it, e.g. `elo0=0 elo1=10 alpha=0.05 beta=0.05, pentanomial`.
    pub fn describe(&self) -> String {
        format!(
            "elo0={} elo1={} alpha={} beta={}, {}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.model.name()
        )
    }
}

/// The distribution `p` over outcomes that maximises `Σ f_i · ln p_i` (the likelihood of data
/// with frequencies `f`) among those with expected score `Σ p_i · a_i = s`.
///
/// With a Lagrange multiplier the answer is `p_i = f_i / (1 + λ·(a_i - s))`, where `λ` is the
/// root of `g(λ) = Σ f_i·(a_i - s) / (1 + λ·(a_i - s))`: then the `p_i` also sum to 1. `g`
/// falls strictly from +∞ to -∞ between its two poles `-1/max(a_i - s)` and `-1/min(a_i - s)`
/// (every `f_i` is positive, and the scores run from 0 to 1 around `s`), so the root is unique;
/// Newton's method finds it, with bisection whenever a step would leave the bracket.
fn constrained_mle<const K: usize>(freq: &[f64; K], scores: &[f64; K], s: f64) -> [f64; K] {
    let x = scores.map(|a| a - s);
    let (x_min, x_max) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let (mut lo, mut hi) = (-1.0 / x_max, -1.0 / x_min);
    let mut lambda = 0.0;
    for _ in 0..200 {
        let (mut g, mut slope) = (0.0, 0.0);
        for i in 0..K {
            let d = 1.0 + lambda * x[i];
            g += freq[i] * x[i] / d;
            slope -= freq[i] * x[i] * x[i] / (d * d);
        }
        if g > 0.0 {
            lo = lambda;
        } else {
            hi = lambda;
        }
        if g.abs() < 1e-15 {
            break;
        }
        let newton = lambda - g / slope;
        lambda = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if hi - lo < 1e-15 * (1.0 + lambda.abs()) {
            break;
        }
    }
    std::array::from_fn(|i| freq[i] / (1.0 + lambda * x[i]))
}

/// Parses the `key=value` pieces given after `--sprt`, such as `["elo0=0", "elo1=10"]`.
///
/// Keys are `elo0` and `elo1` (both required), `alpha` and `beta` (default 0.05) and `model`
/// (`pentanomial`, the default, or `trinomial`). A piece may also hold several
/// whitespace-separated pairs (`"elo0=0 elo1=10"`), so a quoted argument works as well as
/// separate ones. Unknown or repeated keys, missing `=`, non-numeric values and parameter
/// combinations [`Sprt::checked`] rejects are errors that name the culprit.
pub fn parse_sprt(parts: &[&str]) -> Result<Sprt, String> {
    const KEYS: &str = "elo0, elo1, alpha, beta, model";
    let mut numbers: [Option<f64>; 4] = [None; 4];
    let mut model = None;
    for piece in parts.iter().flat_map(|p| p.split_whitespace()) {
        let (key, value) = piece
            .split_once('=')
            .ok_or_else(|| format!("SPRT: expected key=value, got '{piece}' (keys: {KEYS})"))?;
        let (key, value) = (key.trim(), value.trim());
        if key == "model" {
            if model.is_some() {
                return Err("SPRT: key 'model' given more than once".to_string());
            }
            model = Some(match value {
                "pentanomial" => SprtModel::Pentanomial,
                "trinomial" => SprtModel::Trinomial,
                other => {
                    return Err(format!(
                        "SPRT: unknown model '{other}' (pentanomial or trinomial)"
                    ))
                }
            });
            continue;
        }
        let slot = match key {
            "elo0" => &mut numbers[0],
            "elo1" => &mut numbers[1],
            "alpha" => &mut numbers[2],
            "beta" => &mut numbers[3],
            other => {
                return Err(format!(
                    "SPRT: unknown key '{other}' in '{piece}' (keys: {KEYS})"
                ))
            }
        };
        if slot.is_some() {
            return Err(format!("SPRT: key '{key}' given more than once"));
        }
        let number: f64 = value
            .parse()
            .map_err(|_| format!("SPRT: '{value}' is not a number in '{piece}'"))?;
        *slot = Some(number);
    }
    let [elo0, elo1, alpha, beta] = numbers;
    let elo0 = elo0.ok_or("SPRT: missing elo0 (e.g. elo0=0)")?;
    let elo1 = elo1.ok_or("SPRT: missing elo1 (e.g. elo1=10)")?;
    let sprt = Sprt::checked(elo0, elo1, alpha.unwrap_or(0.05), beta.unwrap_or(0.05))?;
    Ok(sprt.with_model(model.unwrap_or(SprtModel::Pentanomial)))
}

#[cfg(test)]
mod tests {
    use super::super::pairs::GamePoints;
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn bounds() {
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
    fn constrained_mle_keeps_the_mean_and_the_total() {
        let freq = [0.2, 0.1, 0.3, 0.25, 0.15];
        for s in [0.05, 0.3, 0.5, 0.517, 0.8, 0.97] {
            let p = constrained_mle(&freq, &PAIR_SCORES, s);
            assert!(p.iter().all(|&v| v > 0.0), "{p:?}");
            assert!(close(p.iter().sum::<f64>(), 1.0, 1e-12), "{p:?}");
            let mean: f64 = p.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
            assert!(close(mean, s, 1e-12), "s={s}: {mean}");
        }
        // Asked for the data's own mean, the estimate is the data.
        let mean: f64 = freq.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
        let p = constrained_mle(&freq, &PAIR_SCORES, mean);
        for i in 0..5 {
            assert!(close(p[i], freq[i], 1e-12), "{p:?}");
        }
    }

    #[test]
    fn without_draws_it_is_walds_test_of_a_coin() {
        // W·ln(s1/s0) + L·ln((1-s1)/(1-s0)); the unseen draws' pseudo-count changes the ratio
        // only in the fourth decimal.
        let sprt = Sprt::new(0.0, 100.0);
        let (s0, s1) = (0.5, score_from_elo(100.0));
        for (w, l) in [(1, 0), (5, 0), (12, 0), (30, 20), (7, 9), (0, 4)] {
            let exact =
                f64::from(w) * (s1 / s0).ln() + f64::from(l) * ((1.0 - s1) / (1.0 - s0)).ln();
            let llr = sprt.llr_games(Tally::new(w, 0, l));
            assert!(close(llr, exact, 2e-3), "{w}-0-{l}: {llr} against {exact}");
        }
    }

    #[test]
    fn straight_wins_needed() {
        // Between 0 and +100 Elo a win is worth ln(0.640 / 0.5) = 0.247, so it takes twelve
        // straight wins (2.96) to pass ln(19) = 2.944; eleven are 2.72.
        let games = Sprt::new(0.0, 100.0).with_model(SprtModel::Trinomial);
        let mut score = MatchScore::default();
        for g in 0..11 {
            score.record(g, GamePoints::Win);
            assert_eq!(games.verdict(&score), SprtVerdict::Continue, "{g}");
        }
        score.record(11, GamePoints::Win);
        assert_eq!(games.verdict(&score), SprtVerdict::AcceptH1);
        // Read as pairs, a won pair is one observation of the same worth (the data cannot rule
        // out that pairs are always won or lost together): twelve won pairs, 24 games.
        let pairs = Sprt::new(0.0, 100.0);
        let mut score = MatchScore::default();
        for g in 0..23 {
            score.record(g, GamePoints::Win);
            assert_eq!(pairs.verdict(&score), SprtVerdict::Continue, "{g}");
        }
        score.record(23, GamePoints::Win);
        assert_eq!(pairs.observations(&score), 12);
        assert_eq!(pairs.verdict(&score), SprtVerdict::AcceptH1);
        // Five straight wins decide nothing either way.
        let mut five = MatchScore::default();
        (0..5).for_each(|g| {
            five.record(g, GamePoints::Win);
        });
        assert_eq!(games.verdict(&five), SprtVerdict::Continue);
        assert_eq!(pairs.verdict(&five), SprtVerdict::Continue);
    }

    #[test]
    fn llr_large_samples_match_the_normal_approximation() {
        // On many games with a score near the hypotheses, the exact ratio approaches the normal
        // approximation n·(s1-s0)·(2s-s0-s1)/(2·var). For 3100-2000-2900 with elo0=0,
        // elo1=10: s = 0.5125, var = 0.18734375, s1 - s0 = 0.0143872, and
        // 8000 · 0.0143872 · (1.025 - 1.0143872) / 0.3746875 = 3.260 (the exact ratio is 3.258).
        let sprt = Sprt::new(0.0, 10.0);
        let llr = sprt.llr_games(Tally::new(3100, 2000, 2900));
        assert!(close(llr, 3.260, 0.01), "{llr}");
        assert_eq!(sprt.verdict_of(llr), SprtVerdict::AcceptH1);
        // Dead even, 2400-1200-2400: s = 0.5, var = 0.2,
        // 6000 · 0.0143872 · (-0.0143872) / 0.4 = -3.105.
        let even = sprt.llr_games(Tally::new(2400, 1200, 2400));
        assert!(close(even, -3.105, 0.01), "{even}");
        assert_eq!(sprt.verdict_of(even), SprtVerdict::AcceptH0);
        assert_eq!(
            sprt.verdict_of(sprt.llr_games(Tally::new(400, 200, 400))),
            SprtVerdict::Continue
        );
    }

    #[test]
    fn correlated_pairs_count_for_less_than_their_games() {
        // 200 pairs of which each colour wins its game (a win and a loss every pair) carry no
        // evidence of strength but a lot of evidence that A is not much stronger; the same
        // games read as independent games say the same with less certainty, because a
        // win-loss split is far more variable than a pair's constant 1 point.
        let sprt = Sprt::new(0.0, 10.0);
        let pairs = sprt.llr_pairs(PairTally::new([0, 0, 200, 0, 0]));
        let games = sprt.llr_games(Tally::new(200, 0, 200));
        assert!(pairs < games && games < 0.0, "{pairs} {games}");
        // Pairs that always split 2-0 / 0-2 say less than the same games independent.
        let lumpy = sprt.llr_pairs(PairTally::new([80, 0, 0, 0, 120]));
        let spread = sprt.llr_games(Tally::new(240, 0, 160));
        assert!(0.0 < lumpy && lumpy < spread, "{lumpy} {spread}");
    }

    #[test]
    fn llr_is_antisymmetric_for_mirrored_hypotheses() {
        // Testing [-10, 0] on B's view of the games mirrors testing [0, 10] on A's view.
        let t = Tally::new(130, 40, 110);
        let a = Sprt::new(0.0, 10.0).llr_games(t);
        let b = Sprt::new(-10.0, 0.0).llr_games(t.swapped());
        assert!(close(a, -b, 1e-9), "{a} {b}");
        let p = PairTally::new([10, 25, 60, 30, 12]);
        let a = Sprt::new(0.0, 10.0).llr_pairs(p);
        let b = Sprt::new(-10.0, 0.0).llr_pairs(p.swapped());
        assert!(close(a, -b, 1e-9), "{a} {b}");
    }

    #[test]
    fn nothing_played_and_only_draws() {
        let sprt = Sprt::new(0.0, 10.0);
        assert_eq!(sprt.llr(&MatchScore::default()), 0.0);
        assert_eq!(sprt.verdict(&MatchScore::default()), SprtVerdict::Continue);
        // Only draws is evidence for equality: 200 drawn games.
        assert_eq!(
            sprt.verdict_of(sprt.llr_games(Tally::new(0, 200, 0))),
            SprtVerdict::AcceptH0
        );
        for t in [
            Tally::new(1, 0, 0),
            Tally::new(0, 1, 0),
            Tally::new(3, 4, 0),
        ] {
            assert!(sprt.llr_games(t).is_finite());
        }
    }

    #[test]
    fn parse_accepts_valid_input() {
        let s = parse_sprt(&["elo0=0", "elo1=10"]).unwrap();
        assert_eq!(s, Sprt::new(0.0, 10.0));
        assert_eq!(s.model, SprtModel::Pentanomial);
        let s = parse_sprt(&["elo1=5.5", "elo0=-1.5", "alpha=0.1", "beta=0.02"]).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.5, 5.5, 0.1, 0.02));
        let s = parse_sprt(&["elo0=0 elo1=10", "model=trinomial"]).unwrap();
        assert_eq!(s, Sprt::new(0.0, 10.0).with_model(SprtModel::Trinomial));
        assert_eq!(
            s.describe(),
            "elo0=0 elo1=10 alpha=0.05 beta=0.05, trinomial"
        );
    }

    #[test]
    fn parse_errors() {
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
        assert!(err(&["elo0=0", "elo1=10", "model=binomial"]).contains("unknown model"));
        assert!(
            err(&["model=trinomial", "elo0=0", "elo1=1", "model=trinomial"])
                .contains("more than once")
        );
    }
}
