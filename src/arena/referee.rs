//! One game between two players, judged by the project's own rules and clocks. Any failure of a
//! player (illegal or unreadable move, time-out, crash, closed pipe, missing keep-running marker)
//! loses the game on the spot, and the record says why.

use super::player::{ArenaGame, Player, Turn};
use super::record::{EndReason, GameRecord, MoveRecord};
use crate::game::{Color, Outcome};
use std::time::Duration;

/// Clocks: a limit per move, a limit for the whole game per side, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    pub per_move: Option<Duration>,
    pub per_game: Option<Duration>,
}

impl TimeControl {
    /// The most the next move may take for a side that has used `used` so far; `None` when the
    /// game clock has run out.
    fn budget(&self, used: Duration) -> Option<Duration> {
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

/// Plays one game from `start` (after the `opening` moves, which count for nobody's clock).
pub fn play_game<G: ArenaGame>(
    black: &mut dyn Player<G>,
    white: &mut dyn Player<G>,
    start: &G,
    opening: &[G::Move],
    tc: TimeControl,
) -> GameRecord {
    let mut record = GameRecord {
        game: G::NAME.to_string(),
        board_size: G::board_size(),
        black: black.name().to_string(),
        white: white.name().to_string(),
        moves: Vec::new(),
        winner: None,
        reason: EndReason::Rules(String::new()),
        time_used_ms: [0, 0],
        opening: None,
    };
    let players: [&mut dyn Player<G>; 2] = [black, white];
    let mut pos = start.clone();
    let mut history: Vec<G::Move> = Vec::new();
    let mut used = [Duration::ZERO; 2];
    let finish =
        |record: &mut GameRecord, loser: Color, reason: EndReason, used: &[Duration; 2]| {
            record.winner = Some(loser.opponent());
            record.reason = reason;
            record.time_used_ms = [used[0].as_millis() as u64, used[1].as_millis() as u64];
        };
    for color in [Color::Black, Color::White] {
        if let Err(reason) = players[color.index()].new_game(color) {
            finish(&mut record, color, reason, &used);
            return end(players, record);
        }
    }
    for &m in opening {
        let (x, y) = G::xy(m);
        record.moves.push(MoveRecord {
            x,
            y,
            color: pos.side_to_move(),
            millis: 0,
        });
        pos.play(m);
        history.push(m);
    }
    loop {
        if let Some(outcome) = pos.outcome() {
            match outcome {
                Outcome::Win(w) => finish(
                    &mut record,
                    w.opponent(),
                    EndReason::Rules(G::end_text(&pos)),
                    &used,
                ),
                Outcome::Draw => {
                    record.reason = EndReason::Rules(G::end_text(&pos));
                    record.time_used_ms = [used[0].as_millis() as u64, used[1].as_millis() as u64];
                }
            }
            return end(players, record);
        }
        let side = pos.side_to_move();
        let Some(budget) = tc.budget(used[side.index()]) else {
            finish(&mut record, side, EndReason::Timeout, &used);
            return end(players, record);
        };
        let turn = Turn {
            start,
            pos: &pos,
            history: &history,
            budget,
        };
        let (answer, took) = players[side.index()].play(turn);
        used[side.index()] += took;
        let m = match answer {
            Ok(_) if took > budget => Err(EndReason::Timeout),
            Ok(m) => match pos.check_move(m) {
                Ok(()) => Ok(m),
                Err(why) => {
                    let (x, y) = G::xy(m);
                    Err(EndReason::IllegalMove(format!("({x},{y}): {why}")))
                }
            },
            Err(reason) => Err(reason),
        };
        match m {
            Ok(m) => {
                let (x, y) = G::xy(m);
                record.moves.push(MoveRecord {
                    x,
                    y,
                    color: side,
                    millis: took.as_millis() as u64,
                });
                pos.play(m);
                history.push(m);
            }
            Err(reason) => {
                finish(&mut record, side, reason, &used);
                return end(players, record);
            }
        }
    }
}

fn end<G: ArenaGame>(players: [&mut dyn Player<G>; 2], record: GameRecord) -> GameRecord {
    for p in players {
        p.end_game();
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::player::Builtin;
    use crate::game::nogo::Nogo;
    use crate::game::Game;

    #[test]
    fn the_engine_beats_random_from_both_sides() {
        for seed in 0..4u64 {
            let mut engine = Builtin::<Nogo>::from_spec("engine", "mcts:1500p", seed).unwrap();
            let mut random = Builtin::<Nogo>::from_spec("random", "random", seed + 100).unwrap();
            let start = Nogo::start(false);
            let tc = TimeControl::default();
            let (rec, engine_color) = if seed % 2 == 0 {
                (
                    play_game(&mut engine, &mut random, &start, &[], tc),
                    Color::Black,
                )
            } else {
                (
                    play_game(&mut random, &mut engine, &start, &[], tc),
                    Color::White,
                )
            };
            assert_eq!(
                rec.winner,
                Some(engine_color),
                "game {seed}: {:?}",
                rec.reason
            );
            assert_eq!(rec.reason.code(), "rules");
            assert!(rec.moves.len() > 20);
            // The record replays legally to a finished game.
            let mut pos = Nogo::start(false);
            for m in &rec.moves {
                pos.try_play(Nogo::from_xy(m.x, m.y).unwrap()).unwrap();
            }
            assert!(pos.outcome().is_some());
        }
    }

    #[test]
    fn game_clock_budgets() {
        let tc = TimeControl {
            per_move: Some(Duration::from_secs(1)),
            per_game: Some(Duration::from_secs(3)),
        };
        assert_eq!(tc.budget(Duration::ZERO), Some(Duration::from_secs(1)));
        assert_eq!(
            tc.budget(Duration::from_millis(2500)),
            Some(Duration::from_millis(500))
        );
        assert_eq!(tc.budget(Duration::from_secs(3)), None);
        assert_eq!(tc.budget(Duration::from_secs(4)), None);
        assert_eq!(
            TimeControl::default().budget(Duration::from_secs(99)),
            Some(Duration::from_secs(86_400))
        );
    }
}
