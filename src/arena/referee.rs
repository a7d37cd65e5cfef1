//! One game between two players, judged by the project's own rules and clocks. A player answers
//! a whole turn (NoGo and Gomoku: one stone; Connect6: one or two); every stone is checked. Any failure of
//! a player (illegal or unreadable move, a turn with the wrong number of stones, time-out,
//! crash, closed pipe, missing keep-running marker) loses the game on the spot, and the record
//! says why. The clocks run per turn.

use super::player::{ArenaGame, GameEnd, Player, TimeControl, Turn};
use super::record::{EndReason, GameRecord, MoveRecord};
use crate::game::{Color, Outcome};
use std::time::Duration;

/// Plays one game from `start` (after the `opening` stones, which count for nobody's clock and
/// must end between turns).
pub fn play_game<G: ArenaGame>(
    black: &mut dyn Player<G>,
    white: &mut dyn Player<G>,
    start: &G,
    opening: &[G::Move],
    tc: TimeControl,
) -> GameRecord {
    let mut game = GameState {
        record: GameRecord {
            game: G::NAME.to_string(),
            board_size: start.board_size(),
            black: black.name().to_string(),
            white: white.name().to_string(),
            moves: Vec::new(),
            winner: None,
            reason: EndReason::Rules(String::new()),
            time_used_ms: [0, 0],
            opening: None,
        },
        pos: start.clone(),
        turns: Vec::new(),
        used: [Duration::ZERO; 2],
    };
    let players: [&mut dyn Player<G>; 2] = [black, white];
    for color in [Color::Black, Color::White] {
        if let Err(reason) = players[color.index()].new_game(color, start) {
            game.lose(color, reason);
            return game.end(players, None);
        }
    }
    for &m in opening {
        let side = game.pos.side_to_move();
        game.push_stone(side, m, 0);
    }
    debug_assert!(!game.pos.mid_turn(), "openings end between turns");
    loop {
        if game.pos.outcome().is_some() {
            // Only an opening can finish a game before anyone has played.
            game.judge_outcome();
            return game.end(players, None);
        }
        let side = game.pos.side_to_move();
        let Some(budget) = tc.budget(game.used[side.index()]) else {
            game.lose(side, EndReason::Timeout(None));
            return game.end(players, None);
        };
        let turn = Turn {
            start,
            pos: &game.pos,
            turns: &game.turns,
            budget,
            clock: tc,
            used: game.used[side.index()],
        };
        let (answer, took) = players[side.index()].play(turn);
        game.used[side.index()] += took;
        let stones = match answer {
            Ok(_) if took > budget => Err(EndReason::Timeout(Some(took - budget))),
            other => other,
        };
        let applied = stones.and_then(|stones| {
            game.apply_turn(side, &stones, took)?;
            Ok(stones)
        });
        match applied {
            Ok(stones) => {
                if game.pos.outcome().is_some() {
                    game.judge_outcome();
                    return game.end(players, Some((side, stones)));
                }
            }
            Err(reason) => {
                game.lose(side, reason);
                return game.end(players, None);
            }
        }
    }
}

/// A game in progress, as the referee keeps it.
struct GameState<G: ArenaGame> {
    record: GameRecord,
    pos: G,
    /// Every turn so far, Black's first.
    turns: Vec<Vec<G::Move>>,
    used: [Duration; 2],
}

impl<G: ArenaGame> GameState<G> {
    /// Plays a stone the caller knows to be legal, into the record and the turn list.
    fn push_stone(&mut self, side: Color, m: G::Move, millis: u64) {
        let (x, y) = self.pos.xy(m);
        self.record.moves.push(MoveRecord {
            x,
            y,
            color: side,
            millis,
        });
        let same_turn = self.pos.mid_turn() && self.turns.last().is_some();
        self.pos.play(m);
        if same_turn {
            self.turns.last_mut().expect("a turn in progress").push(m);
        } else {
            self.turns.push(vec![m]);
        }
    }

    fn describe(&self, pos: &G, m: G::Move) -> String {
        let (x, y) = pos.xy(m);
        format!("({x},{y})")
    }

    /// Checks and plays the stones of `side`'s turn. The turn lasts while `side` is to move and
    /// the game goes on; a stone after the one that ended the game is checked but not played
    /// (platforms take a winning first stone with any legal second one).
    fn apply_turn(
        &mut self,
        side: Color,
        stones: &[G::Move],
        took: Duration,
    ) -> Result<(), EndReason> {
        let due = self.pos.stones_due();
        let wrong_count = || {
            EndReason::IllegalMove(format!(
                "{} {} where {due} {} due",
                stones.len(),
                if stones.len() == 1 { "stone" } else { "stones" },
                if due == 1 { "was" } else { "were" }
            ))
        };
        if stones.is_empty() {
            return Err(EndReason::IllegalMove("an empty turn (a pass)".to_string()));
        }
        if stones.len() > due {
            return Err(wrong_count());
        }
        let mut before_last = self.pos.clone();
        for (i, &m) in stones.iter().enumerate() {
            if stones[..i].contains(&m) {
                return Err(EndReason::IllegalMove(format!(
                    "{} twice in one turn",
                    self.describe(&self.pos, m)
                )));
            }
            if self.pos.outcome().is_some() {
                // The turn ended the game: the rest must still have been playable points.
                return before_last.check_move(m).map_err(|why| {
                    EndReason::IllegalMove(format!("{}: {why}", self.describe(&before_last, m)))
                });
            }
            if self.pos.side_to_move() != side {
                return Err(wrong_count());
            }
            if let Err(why) = self.pos.check_move(m) {
                return Err(EndReason::IllegalMove(format!(
                    "{}: {why}",
                    self.describe(&self.pos, m)
                )));
            }
            before_last = self.pos.clone();
            let millis = if i == 0 { took.as_millis() as u64 } else { 0 };
            self.push_stone(side, m, millis);
        }
        if self.pos.outcome().is_none() && self.pos.side_to_move() == side {
            return Err(wrong_count());
        }
        Ok(())
    }

    fn stamp_time(&mut self) {
        self.record.time_used_ms = [
            self.used[0].as_millis() as u64,
            self.used[1].as_millis() as u64,
        ];
    }

    fn lose(&mut self, loser: Color, reason: EndReason) {
        self.record.winner = Some(loser.opponent());
        self.record.reason = reason;
        self.stamp_time();
    }

    /// The rules ended the game.
    fn judge_outcome(&mut self) {
        self.record.winner = match self.pos.outcome() {
            Some(Outcome::Win(w)) => Some(w),
            _ => None,
        };
        self.record.reason = EndReason::Rules(self.pos.end_text());
        self.stamp_time();
    }

    /// Tells both players how it ended (the turn that ended it, if the rules did) and hands
    /// back the record.
    fn end(
        self,
        players: [&mut dyn Player<G>; 2],
        last_turn: Option<(Color, Vec<G::Move>)>,
    ) -> GameRecord {
        let end = GameEnd {
            winner: self.record.winner,
            reason: &self.record.reason,
            last_turn: last_turn.as_ref().map(|(c, s)| (*c, s.as_slice())),
            pos: &self.pos,
        };
        for p in players {
            p.end_game(&end);
        }
        self.record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::player::GameOptions;
    use crate::arena::players::builtin::Builtin;
    use crate::game::nogo::Nogo;
    use crate::game::Game;

    #[test]
    fn the_engine_beats_random_from_both_sides() {
        for seed in 0..4u64 {
            let mut engine = Builtin::<Nogo>::from_spec("engine", "mcts:1500p", seed).unwrap();
            let mut random = Builtin::<Nogo>::from_spec("random", "random", seed + 100).unwrap();
            let start = Nogo::start(&GameOptions::default()).unwrap();
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
            let mut pos = start.clone();
            for m in &rec.moves {
                let p = pos.point_at(m.x, m.y).unwrap();
                pos.try_play(p).unwrap();
            }
            assert!(pos.outcome().is_some());
        }
    }

    /// A clock budget spreads the game clock over the turns: the game is played out with
    /// time to spare on the engine's clock, and every turn gets some of it.
    #[test]
    fn a_clock_budget_plays_a_whole_game_within_the_clock() {
        use crate::game::connect6::Connect6;
        let tc = TimeControl {
            per_move: None,
            per_game: Some(Duration::from_secs(2)),
        };
        let start = Connect6::start(&GameOptions::default()).unwrap();
        let mut engine = Builtin::<Connect6>::from_spec("engine", "engine:clock", 1).unwrap();
        let mut random = Builtin::<Connect6>::from_spec("random", "random", 2).unwrap();
        let rec = play_game(&mut engine, &mut random, &start, &[], tc);
        assert_eq!(rec.winner, Some(Color::Black), "{:?}", rec.reason);
        assert_eq!(rec.reason.code(), "rules");
        let used = rec.time_used_ms[0];
        assert!(used > 0 && used < 2000, "{used} ms used of 2000");
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
