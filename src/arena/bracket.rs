//! Seeded single-elimination brackets, as class tournaments run them (seed 003): 1 v N, 2 v N-1,
//! byes for the top seeds when the field is not a power of two, best-of series per round.

use super::record::GameRecord;

/// A bot in the bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    /// The command line that starts it (or a built-in player's name).
    pub command: String,
    /// "botzone", "botzone-keep-running", "botzone-simple", "builtin", ...
    pub protocol: String,
    /// 1 = top seed.
    pub seed: u32,
}

/// One pairing in one round.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Round number from 1.
    pub round: usize,
    /// Position in the round, from 0 (top of the drawn bracket).
    pub slot: usize,
    /// Indices into `Bracket::entrants`; `None` is a bye (or a slot still waiting for a winner).
    pub a: Option<usize>,
    pub b: Option<usize>,
    /// Games needed: best of this many.
    pub best_of: u32,
    pub games: Vec<GameRecord>,
    /// Games won by `a` and by `b` (draws count for neither).
    pub wins: [u32; 2],
    /// Index of the entrant going through.
    pub winner: Option<usize>,
}

/// A whole bracket: the field, the rounds (first round first), and the champion once known.
#[derive(Clone, Debug, PartialEq)]
pub struct Bracket {
    pub title: String,
    /// "nogo", "gomoku" or "connect6".
    pub game: String,
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<Vec<Series>>,
    pub champion: Option<usize>,
}
