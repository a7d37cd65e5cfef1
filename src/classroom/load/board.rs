//! The load test's gomoku, apart from the server's: a student's quick move, and the check that
//! a finished game's last move made five. Written again here on purpose, so that the audit does
//! not take the server's rules on trust.

use rand::rngs::SmallRng;
use rand::Rng;

pub const SIZE: usize = 15;

/// A position from the seed's game text (`HHJHKG...`, row letter then column letter).
#[derive(Clone)]
pub struct Board {
    cells: [[u8; SIZE]; SIZE],
    /// Stones played, for the side to move.
    count: usize,
}

/// `HH` into (row, column); `None` for anything else.
pub fn parse_point(text: &str) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let index = |c: u8| (b'A'..=b'O').contains(&c).then(|| (c - b'A') as usize);
    Some((index(b[0])?, index(b[1])?))
}

pub fn point_text((r, c): (usize, usize)) -> String {
    format!("{}{}", (b'A' + r as u8) as char, (b'A' + c as u8) as char)
}

/// A game text cut into its moves.
pub fn moves_of(text: &str) -> Vec<String> {
    text.as_bytes()
        .chunks(2)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect()
}

impl Board {
    /// The position after `moves`; `None` if a move is not a point or lands on a stone.
    pub fn from_moves(moves: &[String]) -> Option<Board> {
        let mut b = Board {
            cells: [[0; SIZE]; SIZE],
            count: 0,
        };
        for m in moves {
            let (r, c) = parse_point(m)?;
            if b.cells[r][c] != 0 {
                return None;
            }
            b.cells[r][c] = 1 + (b.count % 2) as u8;
            b.count += 1;
        }
        Some(b)
    }

    /// 1 for Black, 2 for White: whose stone would go down next.
    fn to_move(&self) -> u8 {
        1 + (self.count % 2) as u8
    }

    /// The longest row of `stone` through (r, c) if it stood there.
    fn line(&self, (r, c): (usize, usize), stone: u8) -> usize {
        let at = |r: i64, c: i64| {
            (0..SIZE as i64).contains(&r)
                && (0..SIZE as i64).contains(&c)
                && self.cells[r as usize][c as usize] == stone
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .map(|&(dr, dc)| {
                let run = |sign: i64| {
                    (1..)
                        .take_while(|&k| at(r as i64 + sign * k * dr, c as i64 + sign * k * dc))
                        .count()
                };
                1 + run(1) + run(-1)
            })
            .max()
            .unwrap_or(1)
    }

    pub fn is_empty(&self, (r, c): (usize, usize)) -> bool {
        self.cells[r][c] == 0
    }

    /// True when the side to move would make five by playing `p`.
    pub fn would_make_five(&self, p: (usize, usize)) -> bool {
        self.line(p, self.to_move()) >= 5
    }

    /// True when the stone at `p` stands in a row of five or more.
    pub fn five_through(&self, p: (usize, usize)) -> bool {
        let stone = self.cells[p.0][p.1];
        stone != 0 && self.line(p, stone) >= 5
    }

    /// A student's move: mostly the point that makes the longest own row or blocks the
    /// longest of the opponent's, next to the stones; now and then any point next to them.
    pub fn quick_move(&self, rng: &mut SmallRng) -> Option<String> {
        if self.count == 0 {
            return Some("HH".into());
        }
        let (me, them) = (self.to_move(), 3 - self.to_move());
        let near = |r: usize, c: usize| {
            (r.saturating_sub(1)..=(r + 1).min(SIZE - 1)).any(|rr| {
                (c.saturating_sub(1)..=(c + 1).min(SIZE - 1)).any(|cc| self.cells[rr][cc] != 0)
            })
        };
        let candidates: Vec<(usize, usize)> = (0..SIZE)
            .flat_map(|r| (0..SIZE).map(move |c| (r, c)))
            .filter(|&(r, c)| self.cells[r][c] == 0 && near(r, c))
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let pick = if rng.gen_bool(0.15) {
            candidates[rng.gen_range(0..candidates.len())]
        } else {
            *candidates.iter().max_by_key(|&&p| {
                let (mine, theirs) = (self.line(p, me), self.line(p, them));
                (mine.max(theirs) * 2 + usize::from(mine >= theirs)) * 16 + rng.gen_range(0..16)
            })?
        };
        Some(point_text(pick))
    }
}
