//! Players as the referee sees them, and what they are told: the `Player` trait, the turn and
//! end-of-game messages, the clocks, and what the arena needs of a game (`ArenaGame`). This file
//! names no concrete player: the built-in and protocol players are in `players/`, and each
//! game's choice of them in `games.rs`, so every player can import this file and none of them
//! another.
//!
//! A player answers a whole turn: one stone in NoGo and Gomoku, one or two in Connect6 (Black's
//! first turn is one stone, every later turn two). The referee checks every stone.

use super::memory::PeakMemory;
use super::record::EndReason;
use crate::engine::Engine;
use crate::game::{Color, Game};
use crate::search::clock::GamePlan;
use std::sync::Arc;
use std::time::Duration;

/// Rule options of a match or bracket, checked by each game's `ArenaGame::start`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// NoGo class rule: Black's first move may not be the centre.
    pub centre_ban: bool,
    /// Side of the board; `None` for the game's usual size (NoGo 9, Connect6 19 as on SAU,
    /// Gomoku 15).
    pub size: Option<usize>,
    /// Gomoku: only exactly five in a row wins (Gomocup's `INFO rule 1`); six or more does not.
    pub exact_five: bool,
}

/// What the arena needs of a game on top of its rules.
pub trait ArenaGame: Game {
    const NAME: &'static str;
    /// The built-in players this game offers, for error messages.
    const BUILTIN_HELP: &'static str;
    /// Suffixes of `<family>:<N><unit>` specs that cap the search's iterations (NoGo: playouts,
    /// Connect6: nodes). `ms` (time per turn) is always accepted.
    const ITERATION_UNITS: &'static [&'static str];
    /// How the game's own engine spreads a whole-game clock (`<family>:clock`), if it has one.
    const GAME_PLAN: Option<GamePlan> = None;

    /// The empty board under the given options, or why the options do not fit this game.
    fn start(options: &GameOptions) -> Result<Self, String>;
    fn board_size(&self) -> usize;
    /// (column from the left, row from the top), for records, pictures and coordinates.
    fn xy(&self, m: Self::Move) -> (usize, usize);
    fn point_at(&self, x: usize, y: usize) -> Option<Self::Move>;
    /// Whether a turn has begun but not ended (a Connect6 pair after its first stone): openings
    /// must stop between turns, since no platform can hand a bot half a turn.
    fn mid_turn(&self) -> bool {
        false
    }
    /// Stones the side to move places this turn, for messages.
    fn stones_due(&self) -> usize {
        1
    }
    /// Whether an external program may be spoken to in `protocol` for this game (and board).
    fn check_protocol(&self, protocol: &str) -> Result<(), String>;
    /// The player that speaks `protocol` to the program `command` (a protocol `check_protocol`
    /// accepted). Each game names its own drivers, so a protocol's codec is needed only by the
    /// games that are played over it.
    /// `init`: lines sent once the program has started (SAU and GTP engines), or with the limits
    /// before its first move of a game (Gomocup brains); empty otherwise.
    fn external_player(
        name: &str,
        command: &str,
        protocol: &str,
        init: &[String],
    ) -> Result<Box<dyn Player<Self>>, String>;
    /// A built-in engine by family (`mcts`, `engine`, `greedy`), with `options` (`key=value`
    /// settings from the spec) applied, and `net` (the spec's `net=FILE`: a value network, for
    /// the games whose engine takes one); an unknown family or key is an error.
    fn builtin_engine(
        family: &str,
        seed: u64,
        options: &[(String, f64)],
        net: Option<&str>,
    ) -> Result<Box<dyn Engine<Self>>, String>;
    /// Why the rules ended the game in `self` (a finished position).
    fn end_text(&self) -> String;
}

/// Clocks: a limit per move, a limit for the whole game per side, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    pub per_move: Option<Duration>,
    pub per_game: Option<Duration>,
}

impl TimeControl {
    /// The most the next move may take for a side that has used `used` so far; `None` when the
    /// game clock has run out.
    pub fn budget(&self, used: Duration) -> Option<Duration> {
        // With no clock at all, a day stands in for "unlimited".
        let mut budget = self.per_move.unwrap_or(Duration::from_secs(86_400));
        if let Some(game) = self.per_game {
            let left = game.checked_sub(used)?;
            if left.is_zero() {
                return None;
            }
            budget = budget.min(left);
        }
        Some(budget)
    }
}

/// What a player is told on its turn.
pub struct Turn<'a, G: Game> {
    /// The position the game started from (empty board, with the game's rules).
    pub start: &'a G,
    pub pos: &'a G,
    /// Every turn so far, Black's first, the colours alternating; each holds that side's stones
    /// (openings included, grouped into turns).
    pub turns: &'a [Vec<G::Move>],
    /// The most this turn may take (per-move limit and game clock together).
    pub budget: Duration,
    /// The match's clocks, for protocols that tell a program its limits (Gomocup's `INFO`).
    pub clock: TimeControl,
    /// The time this side has used so far in the game.
    pub used: Duration,
}

/// A player's answer: the stones of its turn or why it failed, and the time measured around the
/// exchange.
pub type Answer<M> = (Result<Vec<M>, EndReason>, Duration);

/// How a game ended, as a player is told.
pub struct GameEnd<'a, G: Game> {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: &'a EndReason,
    /// The turn that ended the game by the rules (six in a row, full board, no move left for
    /// the next side), by whom, with its stones as answered; `None` when a fault ended it.
    pub last_turn: Option<(Color, &'a [G::Move])>,
    /// The final position.
    pub pos: &'a G,
}

pub trait Player<G: ArenaGame>: Send {
    fn name(&self) -> &str;
    /// A new game begins from `start` and this player has `color`.
    fn new_game(&mut self, color: Color, start: &G) -> Result<(), EndReason>;
    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move>;
    /// The game is over: tell the program if its protocol does, release per-game processes.
    fn end_game(&mut self, _end: &GameEnd<'_, G>) {}
    /// Whether one player (and its process) serves several games in a row, as the SAU platform
    /// reuses a loaded engine; other players are built afresh for every game.
    fn reusable(&self) -> bool {
        false
    }
    /// Reports the peak resident set of every process this player starts from now on to
    /// `memory` (external programs only: a built-in player has no process of its own).
    fn measure_memory(&mut self, _memory: Arc<PeakMemory>) {}
}
