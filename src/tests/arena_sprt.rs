//! The arena's SPRT keeps its promised error rates: simulated matches between engines exactly
//! `elo0` apart must accept H1 at most `alpha` of the time, and matches between engines exactly
//! `elo1` apart must accept H0 at most `beta` of the time, from very short tests (elo1 = 100,
//! decided in a few dozen games) to long ones (elo1 = 5, tens of thousands).
//!
//! The simulated games are paired as the arena pairs them (one start, colours swapped) and are
//! correlated within a pair the way real openings make them: each start favours one colour.

use stonebrain::arena::stats::{
    score_from_elo, GamePoints, MatchScore, Sprt, SprtModel, SprtVerdict,
};

/// splitmix64: a small generator with a fixed algorithm, so the seeded runs never change.
struct Rng(u64);

impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Two simulated engines: A's expected score per game is `score`; in each pair one game is
/// played from the side the start favours (A's expected score `score + bias`) and the other
/// from the side it hurts (`score - bias`), so a pair's mean is exactly `score`; each game is
/// drawn with probability `draws`.
#[derive(Clone, Copy)]
struct Engines {
    score: f64,
    bias: f64,
    draws: f64,
}

impl Engines {
    fn game(&self, rng: &mut Rng, mean: f64) -> GamePoints {
        let r = rng.next_f64();
        let win = mean - self.draws / 2.0;
        if r < win {
            GamePoints::Win
        } else if r < win + self.draws {
            GamePoints::Draw
        } else {
            GamePoints::Loss
        }
    }

    /// Plays pairs until the test decides; returns the verdict and the games played.
    fn run(&self, sprt: &Sprt, rng: &mut Rng) -> (SprtVerdict, u32) {
        assert!(self.score - self.bias - self.draws / 2.0 >= 0.0);
        assert!(self.score + self.bias + self.draws / 2.0 <= 1.0);
        let mut match_score = MatchScore::default();
        for pair in 0..2_000_000u32 {
            // Which game of the pair gets the favoured side is a coin toss, as is whether the
            // start favours Black or White.
            let favoured_first = rng.next_f64() < 0.5;
            let good = self.game(rng, self.score + self.bias);
            let bad = self.game(rng, self.score - self.bias);
            let (first, second) = if favoured_first {
                (good, bad)
            } else {
                (bad, good)
            };
            match_score.record(2 * pair, first);
            if sprt.model == SprtModel::Trinomial {
                let v = sprt.verdict(&match_score);
                if v != SprtVerdict::Continue {
                    return (v, 2 * pair + 1);
                }
            }
            match_score.record(2 * pair + 1, second);
            let v = sprt.verdict(&match_score);
            if v != SprtVerdict::Continue {
                return (v, 2 * pair + 2);
            }
        }
        panic!("no decision in 4 million games");
    }
}

/// The largest count of wrong decisions out of `runs` that is still consistent with an error
/// rate of `rate`: the expectation plus three standard deviations of the binomial count.
fn allowed(rate: f64, runs: u32) -> f64 {
    let n = f64::from(runs);
    rate * n + 3.0 * (rate * (1.0 - rate) * n).sqrt()
}

/// Runs `runs` tests with engines at elo0 and `runs` at elo1, taking turns between three kinds
/// of start (strong colour bias and no draws, as in Gomoku; mild bias and many draws; no bias
/// and no draws, independent games, where the old normal approximation accepted H1 in about 10%
/// of the short tests), and checks both error rates.
fn check(sprt: Sprt, runs: u32, seed: u64) {
    let kinds = [(0.3, 0.0), (0.1, 0.4), (0.0, 0.0)];
    let mut rng = Rng(seed);
    let (mut false_h1, mut false_h0, mut games) = (0u32, 0u32, 0u64);
    for (truth, wrong) in [
        (sprt.elo0, SprtVerdict::AcceptH1),
        (sprt.elo1, SprtVerdict::AcceptH0),
    ] {
        for r in 0..runs {
            let (bias, draws) = kinds[r as usize % kinds.len()];
            let engines = Engines {
                score: score_from_elo(truth),
                bias,
                draws,
            };
            let (verdict, played) = engines.run(&sprt, &mut rng);
            games += u64::from(played);
            if verdict == wrong {
                if wrong == SprtVerdict::AcceptH1 {
                    false_h1 += 1;
                } else {
                    false_h0 += 1;
                }
            }
        }
    }
    let mean_games = games as f64 / f64::from(2 * runs);
    eprintln!(
        "SPRT {}: {false_h1}/{runs} false H1, {false_h0}/{runs} false H0, {mean_games:.0} games \
         a test on average",
        sprt.describe()
    );
    assert!(
        f64::from(false_h1) <= allowed(sprt.alpha, runs),
        "{}: H1 accepted {false_h1} times in {runs} matches between equal engines",
        sprt.describe()
    );
    assert!(
        f64::from(false_h0) <= allowed(sprt.beta, runs),
        "{}: H0 accepted {false_h0} times in {runs} matches at elo1",
        sprt.describe()
    );
}

#[test]
fn error_rates_hold_for_a_big_difference() {
    // The short tests: a hundred Elo is decided in a few dozen games, where a normal
    // approximation of the score would be least trustworthy.
    check(Sprt::new(0.0, 100.0), 5000, 1);
    check(
        Sprt::new(0.0, 100.0).with_model(SprtModel::Trinomial),
        5000,
        2,
    );
}

#[test]
fn error_rates_hold_for_a_medium_difference() {
    check(Sprt::new(0.0, 30.0), 2000, 3);
    check(
        Sprt::checked(0.0, 30.0, 0.1, 0.2).expect("valid parameters"),
        2000,
        4,
    );
}

#[test]
fn error_rates_hold_for_a_small_difference() {
    check(Sprt::new(0.0, 5.0), 300, 5);
}
