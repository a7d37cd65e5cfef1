//! The move the gomoku engine plays on the class server, for the student's client and for the
//! server's built-in engine alike: the game replayed from its moves, a search within the time,
//! and a legal move whatever happens, since a crash or a silence loses the game on time.

use crate::engine::Engine;
use crate::game::gomoku::{seed_move_text, Gomoku, Point};
use crate::game::Game;
use crate::search::clock::Limits;
use std::time::Duration;

/// A search never gets less than this, however little the clock shows.
const MIN_TIME: Duration = Duration::from_millis(20);

/// The move (in the seed's two letters) and the search's summary for the position after
/// `moves`; an error when the moves are not a legal game or the board is full.
pub fn choose_move(
    engine: &mut dyn Engine<Gomoku>,
    moves: &[Point],
    time: Duration,
) -> Result<(String, String), String> {
    let mut pos = Gomoku::default();
    for (i, &p) in moves.iter().enumerate() {
        pos.check_move(p)
            .map_err(|e| format!("move {} of the game is illegal ({e:?})", i + 1))?;
        pos.play(p);
    }
    engine.new_game();
    let limits = Limits::time(time.max(MIN_TIME));
    let decision =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.think(&pos, limits)));
    let (chosen, summary) = match decision {
        Ok(d) => (d.mv.filter(|&p| pos.is_legal(p)), d.summary()),
        Err(_) => (None, "the engine failed; first free point".to_string()),
    };
    let p = chosen
        .or_else(|| pos.legal_moves().first().copied())
        .ok_or("the board is full")?;
    Ok((seed_move_text(p), summary))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gomoku::level::{build, Level};
    use crate::game::gomoku::parse_seed_moves;

    #[test]
    fn the_engine_completes_five_and_refuses_an_illegal_game() {
        let mut engine = build(Level::Classic, 1);
        // Black has four in row H (HH..HK) and White has not blocked either end.
        let moves = parse_seed_moves("HHAAHIACHJAEHKAG").unwrap();
        let (mv, _) = choose_move(&mut *engine, &moves, Duration::from_millis(50)).unwrap();
        assert!(mv == "HG" || mv == "HL", "{mv}");
        let twice = parse_seed_moves("HHHH").unwrap();
        assert!(choose_move(&mut *engine, &twice, Duration::ZERO)
            .unwrap_err()
            .contains("move 2"));
    }
}
