//! Alpha-beta scores shared by the Connect6 and Gomoku engines: proved wins and losses are
//! scored by distance from `WIN`, everything else is a heuristic value, and a value turns into
//! an estimated win rate for the decision's summary.

/// A win found by search, less the plies it takes.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this (either sign) are proved wins or losses.
pub const WIN_BOUND: i32 = WIN - 1000;

/// The most certain a heuristic value may look: 100% and 0% are kept for proved results, so
/// that a summary never claims a win the search has not found.
pub const HEURISTIC_CERTAINTY: f32 = 0.99;

/// The win rate a score stands for: 1 or 0 when proved, else a logistic curve whose `scale`
/// is the heuristic value worth odds of e to 1, kept within 1% of certainty.
pub fn win_rate(value: i32, scale: f32) -> f32 {
    if value > WIN_BOUND {
        1.0
    } else if value < -WIN_BOUND {
        0.0
    } else {
        let p = 1.0 / (1.0 + (-(value as f32) / scale).exp());
        p.clamp(1.0 - HEURISTIC_CERTAINTY, HEURISTIC_CERTAINTY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proved_scores_are_certain_and_even_is_half() {
        assert_eq!(win_rate(WIN - 3, 400.0), 1.0);
        assert_eq!(win_rate(-(WIN - 3), 400.0), 0.0);
        assert_eq!(win_rate(0, 400.0), 0.5);
        assert!(win_rate(400, 400.0) > 0.7 && win_rate(-400, 400.0) < 0.3);
    }

    #[test]
    fn a_large_heuristic_value_is_never_shown_as_certain() {
        // A strong position the search has not proved (a game showed "100.0%" for moves it
        // went on to lose).
        assert_eq!(win_rate(WIN_BOUND, 300.0), HEURISTIC_CERTAINTY);
        assert_eq!(win_rate(-WIN_BOUND, 300.0), 1.0 - HEURISTIC_CERTAINTY);
        assert!(format!("{:.1}", 100.0 * win_rate(5000, 300.0)) == "99.0");
    }
}
