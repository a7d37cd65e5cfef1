//! Playing the pairs: each one a match in the arena between two copies of the binary, as the
//! platform would run them, and what came out of it: games, faults, the slowest answer against
//! the limit, and (when measured) the processes' peak memory.

use super::plan::{Pair, SoakGame};
use crate::arena::duel::{run_match, MatchConfig, MatchGame};
use crate::arena::engines::{EngineKind, EngineSpec};
use crate::arena::memory::PeakMemory;
use crate::arena::player::TimeControl;
use crate::arena::player::{ArenaGame, GameOptions, Player};
use crate::arena::record::{EndReason, GameRecord};
use crate::arena::referee::play_game;
use crate::game::connect6::Connect6;
use crate::game::gomoku::Gomoku;
use crate::game::nogo::Nogo;
use crate::game::Color;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A game that did not end by the rules: the pair, the game, who lost and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    pub pair: String,
    /// From 1, in the pair's order.
    pub game: u32,
    pub loser: Option<Color>,
    /// The arena's reason code (`timeout`, `illegal-move`, `crash`, ...).
    pub code: &'static str,
    pub text: String,
    /// Stones played before it.
    pub stones: usize,
}

/// Whether a game's end is a fault of a player: anything but the rules, and a resignation too,
/// since the referee asks only a side that has a legal move (only GTP can resign).
pub fn fault_of(record: &GameRecord) -> Option<(&'static str, String)> {
    match &record.reason {
        EndReason::Rules(text) if text != "resigned" => None,
        EndReason::Rules(_) => Some(("resigned", "resigned with a legal move left".to_string())),
        other => Some((other.code(), other.describe())),
    }
}

/// One pair's outcome.
#[derive(Clone, Debug, Default)]
pub struct PairReport {
    pub label: String,
    pub limit: String,
    pub tc: TimeControl,
    pub games: u32,
    /// Games won by Black, by White, drawn.
    pub results: [u32; 3],
    pub faults: Vec<Fault>,
    /// Answers (whole turns) timed, and the slowest of them.
    pub answers: u64,
    pub slowest: Duration,
    /// The most game clock one side used in one game.
    pub most_clock: Duration,
    /// Peak resident set of the bot processes, kB, and how many were measured (memory runs).
    pub peak_kb: u64,
    pub processes: u64,
    pub seconds: f64,
}

impl PairReport {
    fn new(pair: &Pair) -> PairReport {
        PairReport {
            label: pair.label(),
            limit: pair.limit_text(),
            tc: pair.tc,
            ..PairReport::default()
        }
    }

    /// Counts one finished game (the `index`-th of the pair, from 0).
    pub fn add(&mut self, index: u32, record: &GameRecord) {
        self.games += 1;
        let slot = match record.winner {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        };
        self.results[slot] += 1;
        // A turn's time is on its first stone (a Connect6 pair's second stone says 0).
        for (i, m) in record.moves.iter().enumerate() {
            let first_of_turn = i == 0 || record.moves[i - 1].color != m.color;
            if first_of_turn {
                self.answers += 1;
                self.slowest = self.slowest.max(Duration::from_millis(m.millis));
            }
        }
        let used = record.time_used_ms[0].max(record.time_used_ms[1]);
        self.most_clock = self.most_clock.max(Duration::from_millis(used));
        if let Some((code, text)) = fault_of(record) {
            self.faults.push(Fault {
                pair: self.label.clone(),
                game: index + 1,
                loser: record.winner.map(Color::opponent),
                code,
                text,
                stones: record.moves.len(),
            });
        }
    }
}

/// What a pair is run with.
pub struct RunSettings<'a> {
    /// The bot's binary, for both sides.
    pub binary: &'a str,
    pub concurrency: usize,
    pub seed: u64,
    /// Hears each game as it ends (the pair's label, the game, its fault if any).
    pub on_game: &'a (dyn Fn(&str, &MatchGame, Option<&Fault>) + Sync),
}

fn spec(name: &str, pair: &Pair, binary: &str) -> EngineSpec {
    EngineSpec {
        name: name.to_string(),
        kind: EngineKind::External {
            command: pair.command(binary),
            protocol: pair.protocol.to_string(),
            init: Vec::new(),
        },
    }
}

fn options(pair: &Pair) -> GameOptions {
    GameOptions {
        size: pair.size,
        ..GameOptions::default()
    }
}

/// Plays `games` games of `pair` as an arena match (colours alternating, `concurrency` at once).
pub fn play_pair(pair: &Pair, games: u32, settings: &RunSettings) -> Result<PairReport, String> {
    match pair.game {
        SoakGame::Nogo => play_pair_of::<Nogo>(pair, games, settings),
        SoakGame::Connect6 => play_pair_of::<Connect6>(pair, games, settings),
        SoakGame::Gomoku => play_pair_of::<Gomoku>(pair, games, settings),
    }
}

fn play_pair_of<G: ArenaGame>(
    pair: &Pair,
    games: u32,
    settings: &RunSettings,
) -> Result<PairReport, String> {
    let started = Instant::now();
    let (a, b) = (
        spec("a", pair, settings.binary),
        spec("b", pair, settings.binary),
    );
    let config = MatchConfig {
        games,
        concurrency: settings.concurrency,
        tc: pair.tc,
        seed: settings.seed,
        options: options(pair),
        sprt: None,
    };
    let label = pair.label();
    let report = std::sync::Mutex::new(PairReport::new(pair));
    let on_game = |g: &MatchGame, _: &_| {
        let mut r = report.lock().unwrap_or_else(|e| e.into_inner());
        let faults_before = r.faults.len();
        r.add(g.index, &g.record);
        (settings.on_game)(&label, g, r.faults.get(faults_before));
    };
    run_match::<G>(&a, &b, &[], &config, &on_game)?;
    let mut report = report.into_inner().unwrap_or_else(|e| e.into_inner());
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Plays one game of `pair` with every bot process's peak memory measured (both sides together:
/// they are the same program). Players are dropped before the peak is read, so that a process
/// kept from game to game (SAU's engine) has been reaped and counted.
pub fn measure_pair(pair: &Pair, settings: &RunSettings) -> Result<PairReport, String> {
    match pair.game {
        SoakGame::Nogo => measure_pair_of::<Nogo>(pair, settings),
        SoakGame::Connect6 => measure_pair_of::<Connect6>(pair, settings),
        SoakGame::Gomoku => measure_pair_of::<Gomoku>(pair, settings),
    }
}

fn measure_pair_of<G: ArenaGame>(
    pair: &Pair,
    settings: &RunSettings,
) -> Result<PairReport, String> {
    let started = Instant::now();
    let start = G::start(&options(pair))?;
    let memory = Arc::new(PeakMemory::default());
    let build = |name: &str| -> Result<Box<dyn Player<G>>, String> {
        let mut player = spec(name, pair, settings.binary).build::<G>(settings.seed, &start)?;
        player.measure_memory(memory.clone());
        Ok(player)
    };
    let (mut black, mut white) = (build("a")?, build("b")?);
    let record = play_game(black.as_mut(), white.as_mut(), &start, &[], pair.tc);
    drop((black, white));
    let mut report = PairReport::new(pair);
    report.add(0, &record);
    report.peak_kb = memory.kb();
    report.processes = memory.processes();
    report.seconds = started.elapsed().as_secs_f64();
    let game = MatchGame {
        index: 0,
        a_black: true,
        record,
    };
    (settings.on_game)(&report.label, &game, report.faults.first());
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::MoveRecord;

    fn record(reason: EndReason, winner: Option<Color>, millis: &[(Color, u64)]) -> GameRecord {
        GameRecord {
            game: "connect6".into(),
            board_size: 15,
            black: "a".into(),
            white: "b".into(),
            moves: millis
                .iter()
                .map(|&(color, millis)| MoveRecord {
                    x: 0,
                    y: 0,
                    color,
                    millis,
                })
                .collect(),
            winner,
            reason,
            time_used_ms: [30, 250],
            opening: None,
        }
    }

    #[test]
    fn only_the_rules_end_a_game_cleanly() {
        let pair = &super::super::plan::soak_pairs()[6];
        let mut r = PairReport::new(pair);
        use Color::{Black, White};
        let turns = [
            (Black, 30),
            (White, 120),
            (White, 0),
            (Black, 90),
            (Black, 0),
        ];
        r.add(
            0,
            &record(EndReason::Rules("x".into()), Some(Black), &turns),
        );
        assert_eq!((r.games, r.answers, r.faults.len()), (1, 3, 0));
        assert_eq!(r.slowest, Duration::from_millis(120));
        assert_eq!(r.most_clock, Duration::from_millis(250));
        r.add(
            1,
            &record(EndReason::Timeout(None), Some(White), &turns[..1]),
        );
        r.add(
            2,
            &record(EndReason::Rules("resigned".into()), Some(Black), &[]),
        );
        r.add(3, &record(EndReason::MissingMarker, Some(Black), &[]));
        assert_eq!(r.results, [3, 1, 0]);
        let codes: Vec<_> = r.faults.iter().map(|f| (f.game, f.code, f.loser)).collect();
        assert_eq!(
            codes,
            [
                (2, "timeout", Some(Black)),
                (3, "resigned", Some(White)),
                (4, "missing-marker", Some(White))
            ]
        );
    }
}
