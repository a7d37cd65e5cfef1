//! A small opening book: the first turns of a game, where the search sees least and where our
//! measured games were decided most often.
//!
//! Each line is written relative to Black's first stone and holds under the board's eight
//! symmetries, so it matches wherever that stone stands as long as the answer fits on the board.
//! The one line so far comes from our games against Cloudict (see docs/experiments/connect6.md):
//! White's first turn is the two stones orthogonally next to Black's stone, at a right angle (an
//! "L"). Before the book, our White turns of that shape won 15 of 20 games against Cloudict at
//! depth 4 and pairs a cell further out won 22 of 68; Cloudict itself answers that way in every
//! game. With the book, our White games against depth 4 went 12-8. A second line, for Black's
//! answer to the L, won all 29 of its games for older builds but 4 of 15 for the current ones,
//! and was dropped: a book line is only as good as the search's play after it.
//!
//! In self-play the L measured worse than the engine's own choice (-67 Elo, SPRT H0 accepted),
//! so the book is off by default (`Connect6Config::book`; `book=1` in the arena's specs): it
//! suits Cloudict, not opponents in general.

use crate::game::connect6::{Connect6, Stone};
use crate::game::{Color, Game};

/// A cell relative to Black's first stone.
type Rel = (i32, i32);

/// A book position and its answer. Every line starts from Black's single first stone, the
/// anchor that its cells are relative to, so only White's stones are written.
struct Line {
    white: &'static [Rel],
    /// The turn to play in that position (for the side to move).
    reply: [Rel; 2],
}

const LINES: &[Line] = &[Line {
    white: &[],
    reply: [(0, 1), (1, 0)],
}];

/// The eight symmetries of the square, as maps of a relative cell.
const SYMMETRIES: [fn(Rel) -> Rel; 8] = [
    |(x, y)| (x, y),
    |(x, y)| (y, x),
    |(x, y)| (-x, y),
    |(x, y)| (x, -y),
    |(x, y)| (-x, -y),
    |(x, y)| (-y, x),
    |(x, y)| (y, -x),
    |(x, y)| (-y, -x),
];

/// Every book turn for the position (one per symmetry that gives a different turn), each as the
/// stones to place; empty when the position is not in the book or a turn is part-played.
pub fn book_turns(pos: &Connect6) -> Vec<[Stone; 2]> {
    let mut turns = Vec::new();
    // A line's position holds Black's first stone and the line's White stones: any other
    // count of stones on the board (the ply) is off the book, without reading the board.
    let in_reach = |l: &Line| pos.ply() == 1 + l.white.len();
    if pos.stones_left_in_turn() != 2 || !LINES.iter().any(in_reach) {
        return turns;
    }
    let (black, white) = stones(pos);
    let [anchor] = black[..] else {
        return turns;
    };
    for line in LINES.iter().filter(|l| in_reach(l)) {
        collect(pos, line, anchor, &white, &mut turns);
    }
    turns
}

/// Adds the line's reply under every symmetry that maps the line's White stones onto the
/// position's (Black's single stone is the anchor, so it always matches).
fn collect(
    pos: &Connect6,
    line: &Line,
    anchor: Stone,
    white: &[Stone],
    turns: &mut Vec<[Stone; 2]>,
) {
    let mut actual: Vec<Option<Stone>> = white.iter().map(|&s| Some(s)).collect();
    actual.sort();
    for sym in SYMMETRIES {
        let place = |r: Rel| at(pos, anchor, sym(r));
        let mut mapped: Vec<Option<Stone>> = line.white.iter().map(|&r| place(r)).collect();
        mapped.sort();
        if mapped != actual {
            continue;
        }
        let (Some(a), Some(b)) = (place(line.reply[0]), place(line.reply[1])) else {
            continue;
        };
        if pos.color_at(a).is_some() || pos.color_at(b).is_some() {
            continue;
        }
        let turn = [a.min(b), a.max(b)];
        if !turns.contains(&turn) {
            turns.push(turn);
        }
    }
}

/// The cell `rel` away from `anchor`, if it is on the board.
fn at(pos: &Connect6, anchor: Stone, rel: Rel) -> Option<Stone> {
    let (x, y) = pos.coords(anchor);
    let n = pos.size() as i32;
    let (x, y) = (x as i32 + rel.0, y as i32 + rel.1);
    ((0..n).contains(&x) && (0..n).contains(&y)).then(|| pos.point(x as usize, y as usize))
}

/// The stones on the board, Black's and White's.
fn stones(pos: &Connect6) -> (Vec<Stone>, Vec<Stone>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for p in 0..pos.points() as Stone {
        match pos.color_at(p) {
            Some(Color::Black) => black.push(p),
            Some(Color::White) => white.push(p),
            None => {}
        }
    }
    (black, white)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect6::Connect6Rules;

    fn play(pos: &mut Connect6, cells: &[(usize, usize)]) {
        for &(x, y) in cells {
            let p = pos.point(x, y);
            assert!(pos.check_move(p).is_ok(), "legal {x},{y}");
            pos.play(p);
        }
    }

    /// The book's turns after `stones` (played in order from an empty 19x19 board), each as its
    /// two cells in order, the turns in order.
    fn book_cells(stones: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        play(&mut pos, stones);
        let mut turns: Vec<_> = book_turns(&pos)
            .into_iter()
            .map(|t| {
                let mut c: Vec<_> = t.iter().map(|&s| pos.coords(s)).collect();
                c.sort();
                c
            })
            .collect();
        turns.sort();
        turns
    }

    #[test]
    fn white_answers_a_centre_stone_with_an_l_of_its_neighbours() {
        let turns = book_cells(&[(9, 9)]);
        // Four right angles around the stone.
        assert_eq!(turns.len(), 4);
        for c in turns {
            for &(x, y) in &c {
                assert_eq!(x.abs_diff(9) + y.abs_diff(9), 1, "{c:?}");
            }
            assert!(c[0].0 != c[1].0 && c[0].1 != c[1].1, "a right angle: {c:?}");
        }
    }

    #[test]
    fn positions_off_the_book_have_no_turn() {
        assert!(
            book_cells(&[]).is_empty(),
            "Black's first stone is the search's"
        );
        // White two cells out: not the book's L.
        assert!(book_cells(&[(9, 9), (7, 7), (9, 7)]).is_empty());
        // A part-played turn is never the book's.
        assert!(book_cells(&[(9, 9), (9, 10)]).is_empty());
        // Black's answer to the book's L is the search's.
        assert!(book_cells(&[(9, 9), (9, 10), (10, 9)]).is_empty());
    }

    #[test]
    fn an_answer_off_the_board_is_skipped() {
        // Black's first stone in a corner: only the orientation that fits remains.
        assert_eq!(book_cells(&[(0, 0)]), vec![vec![(0, 1), (1, 0)]]);
        // On an edge, the two that point inwards.
        assert_eq!(
            book_cells(&[(0, 9)]),
            vec![vec![(0, 8), (1, 9)], vec![(0, 10), (1, 9)]]
        );
    }
}
