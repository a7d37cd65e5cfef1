//! What the clients saw, kept for the audit: every move the server acknowledged (or that
//! turned up on the board after a request lost to a kill), every finish, and every fault as it
//! happened. The audit holds the server's files against this.

use std::collections::BTreeMap;

/// One game as its players saw it.
#[derive(Default, Debug, Clone)]
pub struct SeenGame {
    /// Step (0 = Black's first move) to (player, coordinate), for moves known to be taken.
    pub moves: BTreeMap<usize, (String, String)>,
    /// The end, as `check_game` or the last `play_game` showed it: (winner, the game text).
    pub finish: Option<(Option<String>, String)>,
}

#[derive(Default)]
pub struct Ledger {
    pub games: BTreeMap<String, SeenGame>,
    /// Moves whose request died with the server: found on the board afterwards, or not.
    pub in_flight_kept: usize,
    pub in_flight_lost: usize,
    /// The hostile accounts' game, which never ends: not one of the class's games.
    pub hostile_game: Option<String>,
}

impl Ledger {
    pub fn confirm(&mut self, id: &str, step: usize, user: &str, coord: &str) {
        self.games
            .entry(id.to_string())
            .or_default()
            .moves
            .insert(step, (user.to_string(), coord.to_string()));
    }

    pub fn finish(&mut self, id: &str, winner: Option<String>, board: String) {
        self.games.entry(id.to_string()).or_default().finish = Some((winner, board));
    }

    /// The students' games that have a move and no end yet: the ones a kill catches in
    /// progress.
    pub fn in_progress(&self) -> Vec<String> {
        self.games
            .iter()
            .filter(|(id, _)| self.hostile_game.as_ref() != Some(*id))
            .filter(|(_, g)| g.finish.is_none() && !g.moves.is_empty())
            .map(|(id, _)| id.clone())
            .collect()
    }
}

/// Hostile requests by kind, and the answers each got.
#[derive(Default)]
pub struct Tally {
    pub answers: BTreeMap<String, BTreeMap<String, usize>>,
}

impl Tally {
    pub fn add(&mut self, kind: &str, answer: &str) {
        *self
            .answers
            .entry(kind.to_string())
            .or_default()
            .entry(answer.to_string())
            .or_default() += 1;
    }
}
