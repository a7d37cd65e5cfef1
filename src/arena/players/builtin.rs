//! The player inside this process: the random player, a baseline or the project's engine,
//! called directly with a budget a turn (`engines.rs` builds one from its spec).

use crate::arena::player::{Answer, ArenaGame, GameOptions, Player, Turn};
use crate::arena::record::EndReason;
use crate::engine::Engine;
use crate::game::Color;
use crate::search::clock::{GameClock, GamePlan, Limits, DEFAULT_MARGIN};
use std::time::{Duration, Instant};

/// How a built-in engine spends its turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Think this long a turn (less if the clock is shorter).
    Time(Duration),
    /// Stop each search after this many iterations: playouts (NoGo) or nodes (Connect6),
    /// and earlier if the clock says so.
    Iterations(u64),
    /// Spread the game clock (`--tc`) over the turns as the bot does on SAU and Gomocup, by
    /// the game's plan.
    Clock(GamePlan),
}

/// A player inside this process: the random player, a baseline or the project's engine.
pub struct Builtin<G: ArenaGame> {
    name: String,
    engine: Box<dyn Engine<G>>,
    budget: Option<Budget>,
    /// The game as this player has followed it, to let the engine keep its tree.
    seen: G,
    /// Stones of the game already shown to the engine.
    seen_stones: usize,
}

impl<G: ArenaGame> Builtin<G> {
    /// `engine` playing as `name`, spending `budget` a turn (`None`: as the engine likes).
    pub fn new(
        name: &str,
        engine: Box<dyn Engine<G>>,
        budget: Option<Budget>,
    ) -> Result<Builtin<G>, String> {
        // Any board will do here: `play` starts from the referee's position.
        let seen = G::start(&GameOptions::default())?;
        Ok(Builtin {
            name: name.to_string(),
            engine,
            budget,
            seen,
            seen_stones: 0,
        })
    }

    #[cfg(test)]
    pub fn budget(&self) -> Option<Budget> {
        self.budget
    }
}

impl<G: ArenaGame> Player<G> for Builtin<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _color: Color, start: &G) -> Result<(), EndReason> {
        self.engine.new_game();
        self.seen = start.clone();
        self.seen_stones = 0;
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move> {
        let start = Instant::now();
        if self.seen_stones == 0 {
            self.seen = turn.start.clone();
        }
        let history: Vec<G::Move> = turn.turns.iter().flatten().copied().collect();
        for &m in &history[self.seen_stones.min(history.len())..] {
            self.engine.observe(&self.seen, m);
            self.seen.play(m);
        }
        self.seen_stones = history.len();
        // One deadline for the whole turn. Keep a little of the budget for ourselves: the
        // referee's clock is strict.
        let hard = start + turn.budget.mul_f64(0.9);
        let limits = match self.budget {
            None => Limits::default(),
            Some(Budget::Time(d)) => Limits::until((start + d).min(hard)),
            Some(Budget::Iterations(n)) => Limits::until(hard).with_iterations(Some(n)),
            Some(Budget::Clock(plan)) => match turn.clock.per_game {
                Some(total) => {
                    let planned = GameClock {
                        total,
                        used: turn.used,
                        // Kept back as the bot does by default.
                        margin: DEFAULT_MARGIN,
                        plan,
                    }
                    // Our turns so far: the turns before this one alternate, ours every other.
                    .turn_budget((turn.turns.len() / 2) as u32, start);
                    Limits::until(planned.stop_at().min(hard))
                        .stretchable(planned.stretch_at().map(|t| t.min(hard)))
                }
                // Without a game clock the per-turn limit is all there is.
                None => Limits::until(hard),
            },
        };
        let me = self.seen.side_to_move();
        let mut stones = Vec::new();
        // The turn lasts while the same side is to move and the game goes on.
        while self.seen.outcome().is_none() && self.seen.side_to_move() == me {
            let Some(m) = self.engine.think(&self.seen, limits).mv else {
                break;
            };
            if self.seen.check_move(m).is_err() {
                // Let the referee judge it.
                stones.push(m);
                break;
            }
            self.engine.observe(&self.seen, m);
            self.seen.play(m);
            self.seen_stones += 1;
            stones.push(m);
        }
        let result = if stones.is_empty() {
            Err(EndReason::Rules("offered no move".to_string()))
        } else {
            Ok(stones)
        };
        (result, start.elapsed())
    }
}
