//! Matches between players. For now: in-process games between built-in players (the engine at a
//! time or playout budget, or the random player), enough to check that more thinking wins.

use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::random::RandomPlayer;
use crate::engine::Engine;
use crate::game::nogo::{Nogo, NogoRules};
use crate::game::{Color, Game, Outcome};
use crate::search::clock::Limits;
use std::time::Duration;

/// A built-in player, as written on the command line: `random`, `mcts:1000ms`, `mcts:5000p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Random,
    MctsTime(Duration),
    MctsPlayouts(u64),
}

impl std::str::FromStr for PlayerSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let bad = || format!("unknown player {s:?}: use random, mcts:<N>ms or mcts:<N>p");
        if s == "random" {
            return Ok(PlayerSpec::Random);
        }
        let budget = s.strip_prefix("mcts:").ok_or_else(bad)?;
        if let Some(ms) = budget.strip_suffix("ms") {
            ms.parse()
                .map(|ms| PlayerSpec::MctsTime(Duration::from_millis(ms)))
                .map_err(|_| bad())
        } else if let Some(p) = budget.strip_suffix('p') {
            p.parse().map(PlayerSpec::MctsPlayouts).map_err(|_| bad())
        } else {
            Err(bad())
        }
    }
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpec::Random => write!(f, "random"),
            PlayerSpec::MctsTime(d) => write!(f, "mcts:{}ms", d.as_millis()),
            PlayerSpec::MctsPlayouts(n) => write!(f, "mcts:{n}p"),
        }
    }
}

impl PlayerSpec {
    fn build(self, seed: u64) -> Box<dyn Engine<Nogo>> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            _ => Box::new(NogoEngine::new(NogoConfig {
                seed,
                ..NogoConfig::default()
            })),
        }
    }

    fn limits(self) -> Limits {
        match self {
            PlayerSpec::Random => Limits::default(),
            PlayerSpec::MctsTime(d) => Limits::time(d),
            PlayerSpec::MctsPlayouts(n) => Limits::iterations(n),
        }
    }
}

/// Plays one NoGo game; returns the result and the moves.
pub fn play_nogo_game(
    black: PlayerSpec,
    white: PlayerSpec,
    rules: NogoRules,
    seed: u64,
) -> (Outcome, Vec<u8>) {
    let mut players = [black.build(seed), white.build(seed.wrapping_add(1))];
    let specs = [black, white];
    let mut pos = Nogo::new(rules);
    let mut moves = Vec::new();
    loop {
        if let Some(outcome) = pos.outcome() {
            return (outcome, moves);
        }
        let side = pos.side_to_move().index();
        let decision = players[side].think(&pos, specs[side].limits());
        let m = match decision.mv {
            Some(m) if pos.is_legal(m) => m,
            // A player that offers no legal move forfeits.
            _ => return (Outcome::Win(pos.side_to_move().opponent()), moves),
        };
        for p in players.iter_mut() {
            p.observe(&pos, m);
        }
        pos.play(m);
        moves.push(m);
    }
}

/// Score of a match from player A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Score {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    pub fn ratio(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

/// Plays `games` games between A and B, colours alternating (A is Black in even games), spread
/// over `threads` threads. `on_game` hears each result as (game index, A's colour, outcome).
pub fn nogo_match(
    a: PlayerSpec,
    b: PlayerSpec,
    games: u32,
    threads: usize,
    rules: NogoRules,
    seed: u64,
    on_game: &(dyn Fn(u32, Color, Outcome) + Sync),
) -> Score {
    let next = std::sync::atomic::AtomicU32::new(0);
    let score = std::sync::Mutex::new(Score::default());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if g >= games {
                    break;
                }
                let a_color = if g.is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                let (black, white) = if a_color == Color::Black {
                    (a, b)
                } else {
                    (b, a)
                };
                let (outcome, _) =
                    play_nogo_game(black, white, rules, seed.wrapping_add(g as u64 * 7919));
                {
                    let mut sc = score.lock().unwrap_or_else(|e| e.into_inner());
                    match outcome {
                        Outcome::Win(c) if c == a_color => sc.wins += 1,
                        Outcome::Win(_) => sc.losses += 1,
                        Outcome::Draw => sc.draws += 1,
                    }
                }
                on_game(g, a_color, outcome);
            });
        }
    });
    score.into_inner().unwrap_or_else(|e| e.into_inner())
}
