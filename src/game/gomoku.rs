//! Gomoku (无禁手五子棋, freestyle) on an N x N board, N from 11 to 20. Black moves first, one
//! stone a turn, no forbidden moves (this is not renju); five or more stones in a row,
//! horizontally, vertically or diagonally, win. With the `exact_five` option (Gomocup's
//! `INFO rule` bit 1) only a line of exactly five wins: an overline of six or more wins nothing
//! and the game goes on. A full board without a winner is a draw.
//!
//! The board is one byte per point, which keeps the position a flat 400-byte array (cheap to
//! clone for a search) and makes `play` a store plus a look along the four lines through the new
//! stone: a five can only appear on a line through the stone just played, so nothing else needs
//! looking at. The move history is kept so that `undo` (Gomocup's `TAKEBACK`, the console) is
//! exact.
//!
//! The second half of the file is the notation of the class server of seed 000 (two capital
//! letters per move, row letter first) and its board strings; they are pure functions because the
//! server's board is always 15 x 15 whatever board the bot plays on elsewhere.

use super::zobrist;
use super::{Color, Game, IllegalMove, Outcome};

pub const MIN_SIZE: usize = 11;
/// Gomocup requires 20; nothing stonebrain plays on is larger.
pub const MAX_SIZE: usize = 20;
pub const DEFAULT_SIZE: usize = 15;
pub const MAX_POINTS: usize = MAX_SIZE * MAX_SIZE;

/// A point index: `y * N + x`, with `x` the column from the left and `y` the row from the top,
/// both from 0 (Gomocup's `x,y`). `u8` would not hold the 400 points of a 20 x 20 board.
pub type Point = u16;

/// Cell contents. A colour is stored as `index + 1` so that zero-initialised memory is an empty
/// board.
const EMPTY: u8 = 0;

fn cell_of(c: Color) -> u8 {
    c.index() as u8 + 1
}

/// Keys for the largest board; smaller boards use the first `N * N`. Positions of different sizes
/// never meet in one table, so sharing keys across sizes costs nothing.
const KEYS: [[u64; MAX_POINTS]; 2] = zobrist::table::<MAX_POINTS>(0x476f_6d6f_6b75);

/// The rule options that differ between platforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GomokuRules {
    /// Board side, `MIN_SIZE..=MAX_SIZE`. Build through `GomokuRules::new` to have it checked;
    /// `Gomoku::new` refuses (panics on) a size outside the range.
    pub size: usize,
    /// Only exactly five wins; six or more in a row is not a win (Gomocup `INFO rule` bit 1).
    pub exact_five: bool,
}

impl Default for GomokuRules {
    /// 15 x 15 freestyle: Botzone's and the seed-000 server's game.
    fn default() -> GomokuRules {
        GomokuRules {
            size: DEFAULT_SIZE,
            exact_five: false,
        }
    }
}

impl GomokuRules {
    /// Checks the size, so that a protocol can answer a bad `START n` with the message instead of
    /// crashing later.
    pub fn new(size: usize, exact_five: bool) -> Result<GomokuRules, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "unsupported gomoku board size {size}: the size must be from {MIN_SIZE} to \
                 {MAX_SIZE}"
            ));
        }
        Ok(GomokuRules { size, exact_five })
    }

    pub fn points(&self) -> usize {
        self.size * self.size
    }
}

#[derive(Clone)]
pub struct Gomoku {
    /// `EMPTY` or `cell_of(colour)`, indexed by `Point`; entries past `N * N` stay empty.
    cells: [u8; MAX_POINTS],
    /// Every move so far, in order: `undo` needs to know which stone to lift.
    history: Vec<Point>,
    hash: u64,
    to_move: Color,
    /// Set by the move that ends the game; a finished game takes no more moves, so `undo` can
    /// simply clear it.
    outcome: Option<Outcome>,
    rules: GomokuRules,
}

impl Gomoku {
    /// An empty board. Panics on a size outside `MIN_SIZE..=MAX_SIZE` (use `GomokuRules::new` to
    /// get the refusal as an error instead): a wrong size would otherwise index past the board.
    pub fn new(rules: GomokuRules) -> Gomoku {
        if let Err(e) = GomokuRules::new(rules.size, rules.exact_five) {
            panic!("{e}");
        }
        Gomoku {
            cells: [EMPTY; MAX_POINTS],
            // Reserved once so that `play` never reallocates in the middle of a search.
            history: Vec::with_capacity(rules.points()),
            hash: 0,
            to_move: Color::Black,
            outcome: None,
            rules,
        }
    }

    pub fn rules(&self) -> GomokuRules {
        self.rules
    }

    pub fn size(&self) -> usize {
        self.rules.size
    }

    /// Number of points on the board.
    pub fn points(&self) -> usize {
        self.rules.points()
    }

    /// The point at column `x`, row `y`. Panics when off the board: the index alone would
    /// silently wrap onto the next row.
    pub fn point(&self, x: usize, y: usize) -> Point {
        self.try_point(x, y)
            .unwrap_or_else(|| panic!("({x},{y}) is off the {0}x{0} gomoku board", self.rules.size))
    }

    /// The point at column `x`, row `y`, or `None` when off the board (for protocols that read
    /// coordinates from outside).
    pub fn try_point(&self, x: usize, y: usize) -> Option<Point> {
        let n = self.rules.size;
        // Lazily: `then_some` would work out the index first, and a coordinate from outside
        // near `usize::MAX` overflows it.
        (x < n && y < n).then(|| (y * n + x) as Point)
    }

    /// `(x, y)` of a point: column from the left, row from the top.
    pub fn coords(&self, p: Point) -> (usize, usize) {
        let n = self.rules.size;
        (p as usize % n, p as usize / n)
    }

    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.cells[p as usize] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    pub fn last_move(&self) -> Option<Point> {
        self.history.last().copied()
    }

    /// The moves played so far, Black's first.
    pub fn moves(&self) -> &[Point] {
        &self.history
    }

    /// Takes back the last move, restoring the position exactly (hash and outcome included).
    /// Returns the point lifted, or `None` on an empty board.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.history.pop()?;
        let c = self.to_move.opponent();
        debug_assert_eq!(self.cells[p as usize], cell_of(c));
        self.cells[p as usize] = EMPTY;
        self.hash ^= KEYS[c.index()][p as usize] ^ zobrist::WHITE_TO_MOVE;
        self.to_move = c;
        // The game was still going before the move, or the move could not have been played.
        self.outcome = None;
        Some(p)
    }

    /// Whether the stone at `p` lies on a winning line: five or more in a row of its colour, or
    /// exactly five with `exact_five`. Looks only along the four lines through `p`.
    fn wins_through(&self, p: Point) -> bool {
        let n = self.rules.size;
        let p = p as usize;
        let c = self.cells[p];
        let (x, y) = (p % n, p / n);
        let (left, right, up, down) = (x, n - 1 - x, y, n - 1 - y);
        // (step, room ahead, room behind): the room keeps the walk on the board, so that a step
        // off one edge never wraps onto the other side.
        let lines = [
            (1, right, left),
            (n, down, up),
            (n + 1, right.min(down), left.min(up)),
            (n - 1, left.min(down), right.min(up)),
        ];
        lines.into_iter().any(|(step, ahead, behind)| {
            // Five stones on each side are enough to tell exactly five from an overline.
            let run = 1
                + self.count(p, step, ahead.min(5), c, true)
                + self.count(p, step, behind.min(5), c, false);
            run == 5 || (run > 5 && !self.rules.exact_five)
        })
    }

    /// Stones of colour `c` next to `p` in a row, going `step` forwards or backwards, at most
    /// `room` of them.
    #[inline(always)]
    fn count(&self, p: usize, step: usize, room: usize, c: u8, forwards: bool) -> usize {
        let mut q = p;
        for k in 0..room {
            q = if forwards { q + step } else { q - step };
            if self.cells[q] != c {
                return k;
            }
        }
        room
    }
}

impl Default for Gomoku {
    fn default() -> Gomoku {
        Gomoku::new(GomokuRules::default())
    }
}

impl Game for Gomoku {
    type Move = Point;

    fn side_to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Point> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        (0..self.points())
            .filter(|&p| self.cells[p] == EMPTY)
            .map(|p| p as Point)
            .collect()
    }

    fn check_move(&self, p: Point) -> Result<(), IllegalMove> {
        // Checked first: once the game is over no move is acceptable, whatever the point.
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if p as usize >= self.points() {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p as usize] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        Ok(())
    }

    fn play(&mut self, p: Point) {
        debug_assert!(self.check_move(p).is_ok(), "illegal gomoku move {p}");
        let c = self.to_move;
        self.cells[p as usize] = cell_of(c);
        self.history.push(p);
        self.hash ^= KEYS[c.index()][p as usize] ^ zobrist::WHITE_TO_MOVE;
        self.to_move = c.opponent();
        if self.wins_through(p) {
            self.outcome = Some(Outcome::Win(c));
        } else if self.history.len() == self.points() {
            self.outcome = Some(Outcome::Draw);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn ply(&self) -> usize {
        self.history.len()
    }
}

impl std::fmt::Display for Gomoku {
    /// A plain diagram, `x` to the right and `y` downwards: `X` Black, `O` White, `.` empty.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.rules.size;
        super::write_diagram(f, n, |x, y| self.color_at((y * n + x) as Point))
    }
}

// ---------------------------------------------------------------------------------------------
// The notation of the seed-000 class server (step 6 of the seed).
//
// The server's board is 15 x 15. Rows are lettered `A`..`O` from the top and columns `A`..`O`
// from the left; a move is the ROW letter followed by the COLUMN letter, so `AA` is the top-left
// corner, `AO` the top-right one and `HH` the centre. A game is its moves concatenated, Black's
// first. The step-6 board string is the position written row by row from row `A`, column `A`
// first in each row, with `.` for an empty point, `x` for Black and `o` for White (the seed's
// own words; some of its diagrams print capitals, but the text and the `creator_stone` field of
// step 9 use lower case), the newlines left out: 225 characters.

/// The side of the seed-000 server's board.
pub const SEED_SIZE: usize = 15;
const SEED_POINTS: usize = SEED_SIZE * SEED_SIZE;

/// Index (0..15) of a coordinate letter.
fn seed_letter_index(letter: char) -> Result<usize, String> {
    match letter {
        'A'..='O' => Ok(letter as usize - 'A' as usize),
        _ => Err(format!(
            "'{letter}' is not a coordinate letter: the seed-000 notation uses the capitals A to O"
        )),
    }
}

/// One two-letter move, row letter first, as a point of the 15 x 15 board (`y * 15 + x`).
pub fn parse_seed_move(text: &str) -> Result<Point, String> {
    let letters: Vec<char> = text.chars().collect();
    if letters.len() != 2 {
        return Err(format!(
            "'{text}' is not a move: a move is two letters, the row then the column"
        ));
    }
    let y = seed_letter_index(letters[0])?;
    let x = seed_letter_index(letters[1])?;
    Ok((y * SEED_SIZE + x) as Point)
}

/// A whole game in the seed's notation (e.g. `HHJHKGII...`), as points of the 15 x 15 board.
/// Only the letters are checked here, not whether the moves could be played. White space is
/// skipped: the seed itself prints its example game with a stray space in the middle.
pub fn parse_seed_moves(text: &str) -> Result<Vec<Point>, String> {
    let letters: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if !letters.len().is_multiple_of(2) {
        return Err(format!(
            "'{text}' has an odd number of letters: every move is two letters"
        ));
    }
    letters
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let y = seed_letter_index(pair[0]).map_err(|e| format!("move {}: {e}", i + 1))?;
            let x = seed_letter_index(pair[1]).map_err(|e| format!("move {}: {e}", i + 1))?;
            Ok((y * SEED_SIZE + x) as Point)
        })
        .collect()
}

/// The two letters of a point of the 15 x 15 board, row letter first. Panics on a point off that
/// board (there are no letters for it).
pub fn seed_move_text(p: Point) -> String {
    let p = p as usize;
    assert!(p < SEED_POINTS, "point {p} is off the 15x15 board");
    let letter = |i: usize| (b'A' + i as u8) as char;
    [letter(p / SEED_SIZE), letter(p % SEED_SIZE)]
        .iter()
        .collect()
}

/// A game in the seed's notation: the moves' letters concatenated.
pub fn seed_game_text(moves: &[Point]) -> String {
    moves.iter().map(|&p| seed_move_text(p)).collect()
}

/// The step-6 board string after `moves` (Black first, alternating): 225 characters, row `A`
/// first, `.` empty, `x` Black, `o` White. Refuses a point off the board or played twice.
pub fn seed_board_string(moves: &[Point]) -> Result<String, String> {
    let mut board = [b'.'; SEED_POINTS];
    for (i, &p) in moves.iter().enumerate() {
        let p = p as usize;
        if p >= SEED_POINTS {
            return Err(format!("move {}: point {p} is off the 15x15 board", i + 1));
        }
        if board[p] != b'.' {
            return Err(format!(
                "move {}: {} is already occupied",
                i + 1,
                seed_move_text(p as Point)
            ));
        }
        board[p] = if i % 2 == 0 { b'x' } else { b'o' };
    }
    Ok(board.iter().map(|&b| b as char).collect())
}

/// The answer step 6 asks for: the board string after each move in turn (the server wants them
/// joined with commas).
pub fn seed_step_boards(moves: &[Point]) -> Result<Vec<String>, String> {
    (1..=moves.len())
        .map(|k| seed_board_string(&moves[..k]))
        .collect()
}
