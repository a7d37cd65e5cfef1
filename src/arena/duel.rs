//! A match between two players: many games, colours alternating in pairs (each opening is played
//! once with each colour), several games at once, an optional SPRT stop.

use super::engines::{EngineSpec, Seat};
use super::player::{ArenaGame, GameOptions, TimeControl};
use super::record::GameRecord;
use super::referee::play_game;
use super::stats::{GamePoints, MatchScore, Sprt, SprtVerdict};
use crate::game::Color;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

/// Parses an openings file: one opening a line, stones as `x,y` separated by spaces; blank
/// lines and `#` comments are skipped. Each opening must be legal from `start` and end between
/// turns (Connect6: after a whole pair).
pub fn parse_openings<G: ArenaGame>(text: &str, start: &G) -> Result<Vec<Vec<G::Move>>, String> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for token in line.split_whitespace() {
            let bad = || format!("openings line {}: {token:?} is not x,y on the board", n + 1);
            let (x, y) = token.split_once(',').ok_or_else(bad)?;
            let m = pos
                .point_at(x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?)
                .ok_or_else(bad)?;
            pos.try_play(m)
                .map_err(|e| format!("openings line {}: {token} is illegal: {e}", n + 1))?;
            moves.push(m);
        }
        if pos.mid_turn() {
            return Err(format!(
                "openings line {}: it stops in the middle of a turn (give whole turns)",
                n + 1
            ));
        }
        openings.push(moves);
    }
    Ok(openings)
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub games: u32,
    pub concurrency: usize,
    pub tc: TimeControl,
    pub seed: u64,
    pub options: GameOptions,
    pub sprt: Option<Sprt>,
}

/// One finished game of a match: its index, whether A had Black, the record.
pub struct MatchGame {
    pub index: u32,
    pub a_black: bool,
    pub record: GameRecord,
}

/// The moment the SPRT stopped a match: games already under way when it decided still finish
/// and count in the score, but the decision is the one taken here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStop {
    pub verdict: SprtVerdict,
    pub llr: f64,
    /// Pairs or games read by the test when it decided (its model's unit).
    pub observations: u32,
}

/// A played match: the score (A's view), every game in order, and the SPRT's decision if it
/// stopped the match.
pub struct MatchResult {
    pub score: MatchScore,
    pub games: Vec<MatchGame>,
    pub sprt_stop: Option<SprtStop>,
}

/// Earlier runs of the same match that a new run continues: their score (A's view) and the even
/// game number from which the new run's games are counted, so that no pair spans two runs.
#[derive(Clone, Debug, Default)]
pub struct EarlierRuns {
    pub score: MatchScore,
    pub next_index: u32,
}

/// The sequential test's decision on `score`, if it has taken one.
fn decision(test: &Sprt, score: &MatchScore) -> Option<SprtStop> {
    let llr = test.llr(score);
    let verdict = test.verdict_of(llr);
    (verdict != SprtVerdict::Continue).then(|| SprtStop {
        verdict,
        llr,
        observations: test.observations(score),
    })
}

/// Plays the match; `on_game` hears each game as it ends, with the running score (A's view).
pub fn run_match<G: ArenaGame>(
    a: &EngineSpec,
    b: &EngineSpec,
    openings: &[Vec<G::Move>],
    config: &MatchConfig,
    on_game: &(dyn Fn(&MatchGame, &MatchScore) + Sync),
) -> Result<MatchResult, String> {
    continue_match::<G>(a, b, openings, config, EarlierRuns::default(), on_game)
}

/// Plays `config.games` more games of a match whose earlier runs are `earlier`: the score, the
/// sequential test and `on_game` see the earlier games and the new ones together. A long test
/// outlives a sitting; this lets the next sitting carry it on instead of starting it afresh.
/// The games returned (and their numbers) are this run's only.
pub fn continue_match<G: ArenaGame>(
    a: &EngineSpec,
    b: &EngineSpec,
    openings: &[Vec<G::Move>],
    config: &MatchConfig,
    earlier: EarlierRuns,
    on_game: &(dyn Fn(&MatchGame, &MatchScore) + Sync),
) -> Result<MatchResult, String> {
    let start = G::start(&config.options)?;
    // Build once up front so that a bad spec is reported before any game starts.
    a.build::<G>(0, &start)?;
    b.build::<G>(0, &start)?;
    if !openings.is_empty() {
        if let Some(spec) = [a, b].into_iter().find(|s| !s.takes_openings()) {
            return Err(format!(
                "{} speaks SAU, which cannot start a game from an opening: drop --openings",
                spec.name
            ));
        }
    }
    let next = AtomicU32::new(0);
    // The test may already be decided by the earlier runs: then no game is started.
    let decided = config.sprt.and_then(|test| decision(&test, &earlier.score));
    let stop = AtomicBool::new(decided.is_some());
    let offset = earlier.next_index;
    let state = Mutex::new((earlier.score, Vec::new(), decided));
    std::thread::scope(|s| {
        for _ in 0..config.concurrency.max(1) {
            // Positions are not shared between threads: each worker has its own copy.
            let start = start.clone();
            let (next, stop, state, offset) = (&next, &stop, &state, offset);
            s.spawn(move || {
                // Each worker keeps its own seats: a SAU engine stays loaded for its games.
                let (mut seat_a, mut seat_b) = (Seat::new(a), Seat::new(b));
                loop {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= config.games || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    // Games 2k and 2k+1 share opening k with colours swapped.
                    let a_black = g.is_multiple_of(2);
                    let opening_index =
                        (!openings.is_empty()).then(|| (g as usize / 2) % openings.len());
                    let opening = opening_index.map_or(&[][..], |i| &openings[i][..]);
                    let seed = config.seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
                    let (Ok(pa), Ok(pb)) = (
                        seat_a.player(seed, &start),
                        seat_b.player(seed ^ 0x5555, &start),
                    ) else {
                        break;
                    };
                    let mut record = if a_black {
                        play_game(pa, pb, &start, opening, config.tc)
                    } else {
                        play_game(pb, pa, &start, opening, config.tc)
                    };
                    record.opening = opening_index;
                    let a_color = if a_black { Color::Black } else { Color::White };
                    let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
                    let points = match record.winner {
                        Some(c) if c == a_color => GamePoints::Win,
                        Some(_) => GamePoints::Loss,
                        None => GamePoints::Draw,
                    };
                    guard.0.record(offset + g, points);
                    if let Some(test) = config.sprt.filter(|_| guard.2.is_none()) {
                        guard.2 = decision(&test, &guard.0);
                        if guard.2.is_some() {
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    let game = MatchGame {
                        index: g,
                        a_black,
                        record,
                    };
                    on_game(&game, &guard.0);
                    guard.1.push(game);
                }
            });
        }
    });
    let (score, mut games, sprt_stop) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.index);
    Ok(MatchResult {
        score,
        games,
        sprt_stop,
    })
}
