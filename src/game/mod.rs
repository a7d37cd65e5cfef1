//! Rules only: positions, legal moves, results. Nothing here knows about protocols or search.

pub mod bitset;
pub mod connect6;
pub mod gomoku;
pub mod gomoku_seed;
pub mod nogo;
pub mod zobrist;

use std::fmt::Debug;
use std::hash::Hash;

/// A player. Black always moves first in every game stonebrain plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// Why a move was refused: used by protocols and the console to explain bad input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    OffBoard,
    Occupied,
    /// Forbidden by the game's own rules; the text says which rule.
    Forbidden(&'static str),
    GameOver,
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IllegalMove::OffBoard => write!(f, "the point is off the board"),
            IllegalMove::Occupied => write!(f, "the point is already occupied"),
            IllegalMove::Forbidden(why) => write!(f, "{why}"),
            IllegalMove::GameOver => write!(f, "the game is already over"),
        }
    }
}

/// The contract every game implements, and the only thing the generic search, the arena and the
/// console see of a game. Engines may use game-specific fast paths behind it.
pub trait Game: Clone + Send + 'static {
    type Move: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static;

    fn side_to_move(&self) -> Color;
    /// Every legal move for the side to move (empty when the game is over).
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Whether `m` may be played now; the error says why not.
    fn check_move(&self, m: Self::Move) -> Result<(), IllegalMove>;
    /// Plays a move the caller knows to be legal.
    fn play(&mut self, m: Self::Move);
    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// Zobrist key of the position, side to move included.
    fn hash(&self) -> u64;
    /// Number of moves (stones, for multi-stone turns) played so far.
    fn ply(&self) -> usize;

    fn is_legal(&self, m: Self::Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Plays `m` after checking it.
    fn try_play(&mut self, m: Self::Move) -> Result<(), IllegalMove> {
        self.check_move(m)?;
        self.play(m);
        Ok(())
    }
}

/// Writes a plain board diagram, `x` to the right and `y` downwards: `X` Black, `O` White, `.`
/// empty. Every game's `Display` uses it, so diagrams in messages and tests look alike.
pub fn write_diagram(
    f: &mut std::fmt::Formatter<'_>,
    size: usize,
    color_at: impl Fn(usize, usize) -> Option<Color>,
) -> std::fmt::Result {
    for y in 0..size {
        for x in 0..size {
            let c = match color_at(x, y) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            write!(f, "{c}")?;
        }
        writeln!(f)?;
    }
    Ok(())
}
