//! A match's score as the arena and `stonebrain tally` print it: W-D-L, the pairs, the Elo
//! estimate, the likelihood of superiority and where a sequential test stands.

use super::duel::SprtStop;
use super::stats::{
    elo_estimate, elo_estimate_pairs, likelihood_of_superiority, parse_sprt, MatchScore, Sprt,
    SprtVerdict,
};

/// The `--sprt KEY=VALUE...` option of `arena` and `tally`, when given.
pub fn sprt_option(parts: Option<&[String]>) -> Result<Option<Sprt>, String> {
    parts
        .map(|parts| parse_sprt(&parts.iter().map(String::as_str).collect::<Vec<_>>()))
        .transpose()
}

/// The score of A against B: games, W-D-L, the pairs, the Elo estimate and the likelihood of
/// superiority (also what `stonebrain tally` prints for pooled game files).
pub fn print_score(a: &str, b: &str, score: &MatchScore) {
    let (t, p) = (score.games, score.pairs);
    let unpaired = match score.unpaired() {
        0 => String::new(),
        1 => ", 1 game unpaired".to_string(),
        n => format!(", {n} games unpaired"),
    };
    println!(
        "{a} vs {b}: {} games ({} pairs{unpaired})",
        t.games(),
        p.pairs()
    );
    println!(
        "W-D-L {}-{}-{} for {a}, score {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    );
    if p.pairs() > 0 {
        println!(
            "pairs {} (how many gave {a} 0, 0.5, 1, 1.5 and 2 points)",
            p.dashed()
        );
    }
    // Each pair is one sample: its two games share a start with the colours swapped, so they
    // are not independent (see stats::pairs).
    let estimate = match elo_estimate_pairs(p) {
        Some(e) => Some((e, format!("{} pairs", p.pairs()))),
        None => elo_estimate(t).map(|e| (e, format!("{} single games", t.games()))),
    };
    if let Some((e, from)) = estimate {
        println!(
            "Elo difference {:+.1} (95% interval {:+.1} to {:+.1}; logistic Elo, from {from})",
            e.elo, e.lower, e.upper
        );
    }
    println!(
        "likelihood of superiority {:.1}%",
        100.0 * likelihood_of_superiority(t)
    );
}

/// The sequential test's state: where it stopped the match, or (`stop` None) where it stands.
pub fn print_sprt(s: &Sprt, score: &MatchScore, stop: Option<SprtStop>) {
    let (lower, upper) = s.bounds();
    let unit = s.model.unit();
    let (llr, verdict, seen) = match stop {
        Some(stop) => (stop.llr, stop.verdict.to_string(), stop.observations),
        None => {
            let llr = s.llr(score);
            let verdict = match s.verdict_of(llr) {
                SprtVerdict::Continue => "no decision yet".to_string(),
                decided => decided.to_string(),
            };
            (llr, verdict, s.observations(score))
        }
    };
    println!(
        "SPRT {}: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}): {verdict} after {seen} {unit}",
        s.describe()
    );
    let now = s.llr(score);
    if stop.is_some() && (now - llr).abs() > 1e-9 {
        println!(
            "  (games already under way finished after the decision: LLR {now:.2} on all \
             {} {unit})",
            s.observations(score)
        );
    }
}
