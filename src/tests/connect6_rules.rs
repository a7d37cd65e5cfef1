//! Rule tests for Connect6 (`stonebrain::game::connect6`).
//!
//! Two layers. First, small hand-built positions, one idea each, with the expected numbers worked
//! out in the comments, so that a failure names the rule or query that broke. Second, random games
//! compared ply by ply against a reference written here from the rules alone: a plain grid, runs
//! counted by walking the lines, windows enumerated from scratch, wins found by actually placing
//! stones, hitting sets by brute force. The board under test keeps incremental window counts and
//! threat bitsets that can drift; the reference recomputes everything on every question.

mod common;
use common::XorShift;

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use stonebrain::game::connect6::{Connect6, Connect6Rules, Stone, MAX_SIZE, MIN_SIZE};
use stonebrain::game::{Color, Game, IllegalMove, Outcome};

const BLACK: Color = Color::Black;
const WHITE: Color = Color::White;

// ---------------------------------------------------------------------------------------------
// Helpers for hand-built positions.

fn new_game(size: usize) -> Connect6 {
    Connect6::new(Connect6Rules::with_size(size).expect("supported size"))
}

/// The point index the rules define, written out so the tests do not lean on `point`.
fn idx(size: usize, x: usize, y: usize) -> Stone {
    (y * size + x) as Stone
}

/// Cells `x0..=x1` of row `y`.
fn row(x0: usize, x1: usize, y: usize) -> Vec<(usize, usize)> {
    (x0..=x1).map(|x| (x, y)).collect()
}

/// Harmless stones for a colour with nothing of its own to play: every third column of two edge
/// rows (Black at the top, White at the bottom). A window holds at most two of them (one cell per
/// row off the horizontal, every third cell along it), so they never make a threat, and the tests
/// keep their positions away from those rows. Points in `avoid` are left for the listed stones.
fn next_filler(g: &Connect6, avoid: &[(usize, usize)]) -> Stone {
    let n = g.size();
    let rows = match g.side_to_move() {
        Color::Black => [0, 1],
        Color::White => [n - 1, n - 2],
    };
    rows.iter()
        .flat_map(|&y| (0..n).step_by(3).map(move |x| idx(n, x, y)))
        .find(|&p| g.color_at(p).is_none() && !avoid.contains(&g.coords(p)))
        .expect("out of filler points")
}

/// Plays `black` and `white` in the normal turn order (Black 1, White 2, Black 2, ...), each list
/// in its own order, padding with filler stones for a side whose list is used up, and stops right
/// after the last listed stone. Every stone goes through `try_play`, and the game must not end
/// before the last one, so a slip in a hand-built position fails here, naming the stone.
fn build(size: usize, black: &[(usize, usize)], white: &[(usize, usize)]) -> Connect6 {
    let mut g = new_game(size);
    let mut next = [0usize, 0usize];
    while next[0] < black.len() || next[1] < white.len() {
        assert!(g.outcome().is_none(), "setup ended early\n{g}");
        let c = g.side_to_move();
        let list = if c == BLACK { black } else { white };
        let p = match list.get(next[c.index()]) {
            Some(&(x, y)) => {
                next[c.index()] += 1;
                idx(size, x, y)
            }
            None => next_filler(&g, &[black, white].concat()),
        };
        if let Err(e) = g.try_play(p) {
            panic!(
                "setup stone {:?} of {c:?} was refused: {e}\n{g}",
                g.coords(p)
            );
        }
    }
    g
}

fn sorted(mut v: Vec<Stone>) -> Vec<Stone> {
    v.sort_unstable();
    v
}

/// Colour and stones left at a given ply, from the rule: Black one stone, then two each.
fn turn_at(ply: usize) -> (Color, u8) {
    if ply == 0 {
        return (BLACK, 1);
    }
    let turn = (ply - 1) / 2;
    let side = if turn.is_multiple_of(2) { WHITE } else { BLACK };
    (side, 2 - ((ply - 1) % 2) as u8)
}

// ---------------------------------------------------------------------------------------------
// The deterministic generator (`common::XorShift`), here also shuffling.

impl XorShift {
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reference: the rules as stated, nothing incremental.

const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone)]
struct RefBoard {
    n: usize,
    cells: Vec<Option<Color>>,
    ply: usize,
}

impl RefBoard {
    fn new(n: usize) -> RefBoard {
        RefBoard {
            n,
            cells: vec![None; n * n],
            ply: 0,
        }
    }

    fn get(&self, x: isize, y: isize) -> Option<Color> {
        let n = self.n as isize;
        if (0..n).contains(&x) && (0..n).contains(&y) {
            self.cells[(y * n + x) as usize]
        } else {
            None
        }
    }

    fn play(&mut self, p: usize) {
        assert!(self.cells[p].is_none());
        self.cells[p] = Some(turn_at(self.ply).0);
        self.ply += 1;
    }

    /// Longest run of `c` through the point `p` (which must hold `c`), walking both ways.
    fn run_through(&self, p: usize, c: Color) -> usize {
        let (x, y) = ((p % self.n) as isize, (p / self.n) as isize);
        DIRS.iter()
            .map(|&(dx, dy)| {
                let mut len = 1;
                for sign in [1, -1] {
                    let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
                    while self.get(cx, cy) == Some(c) {
                        len += 1;
                        cx += sign * dx;
                        cy += sign * dy;
                    }
                }
                len
            })
            .max()
            .unwrap()
    }

    /// Whether `c` has six or more in a row anywhere: the longest run over all its stones.
    fn has_six(&self, c: Color) -> bool {
        (0..self.cells.len()).any(|p| self.cells[p] == Some(c) && self.run_through(p, c) >= 6)
    }

    fn outcome(&self) -> Option<Outcome> {
        for c in [BLACK, WHITE] {
            if self.has_six(c) {
                return Some(Outcome::Win(c));
            }
        }
        (self.ply == self.n * self.n).then_some(Outcome::Draw)
    }

    /// Whether placing `c` on the (distinct, empty) `cells` makes six in a row.
    fn wins_with(&self, c: Color, cells: &[usize]) -> bool {
        let mut after = self.clone();
        for &p in cells {
            assert!(after.cells[p].is_none(), "wins_with on an occupied point");
            after.cells[p] = Some(c);
        }
        cells.iter().any(|&p| after.run_through(p, c) >= 6)
    }

    fn empties(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&p| self.cells[p].is_none())
            .collect()
    }
}

/// Every line of six cells on an n x n board, from every start point and direction.
fn ref_windows(n: usize) -> Vec<[usize; 6]> {
    let mut out = Vec::new();
    let inside = |v: isize| (0..n as isize).contains(&v);
    for y in 0..n as isize {
        for x in 0..n as isize {
            for (dx, dy) in DIRS {
                if inside(x + 5 * dx) && inside(y + 5 * dy) {
                    out.push(std::array::from_fn(|i| {
                        ((y + i as isize * dy) * n as isize + x + i as isize * dx) as usize
                    }));
                }
            }
        }
    }
    out
}

/// Gaps of the windows that `c` could fill with two stones: no enemy stone, at least four of its
/// own. (A two-stone six must lie in such a window, and any such window gives one.)
fn ref_threat_gaps(r: &RefBoard, windows: &[[usize; 6]], c: Color) -> Vec<Vec<usize>> {
    windows
        .iter()
        .filter(|w| {
            w.iter().all(|&p| r.cells[p] != Some(c.opponent()))
                && w.iter().filter(|&&p| r.cells[p] == Some(c)).count() >= 4
        })
        .map(|w| {
            w.iter()
                .copied()
                .filter(|&p| r.cells[p].is_none())
                .collect()
        })
        .collect()
}

fn hits_all(gaps: &[Vec<usize>], set: &[usize]) -> bool {
    gaps.iter().all(|g| g.iter().any(|p| set.contains(p)))
}

/// All minimal sets of at most two cells hitting every gap list, by trying every candidate
/// subset.
fn ref_blocking_sets(gaps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut cands: Vec<usize> = gaps.iter().flatten().copied().collect();
    cands.sort_unstable();
    cands.dedup();
    let mut sets: Vec<Vec<usize>> = vec![vec![]];
    sets.extend(cands.iter().map(|&a| vec![a]));
    for (i, &a) in cands.iter().enumerate() {
        sets.extend(cands[i + 1..].iter().map(|&b| vec![a, b]));
    }
    let hitting: Vec<Vec<usize>> = sets.into_iter().filter(|s| hits_all(gaps, s)).collect();
    hitting
        .iter()
        .filter(|s| {
            !hitting
                .iter()
                .any(|t| t.len() < s.len() && t.iter().all(|p| s.contains(p)))
        })
        .cloned()
        .collect()
}

fn ref_threats(gaps: &[Vec<usize>]) -> u32 {
    ref_blocking_sets(gaps)
        .iter()
        .map(|s| s.len() as u32)
        .min()
        .unwrap_or(3)
}

// ---------------------------------------------------------------------------------------------
// Window tables.

#[test]
fn window_tables_have_the_counted_sizes() {
    // N=19: horizontal 19 rows x 14 starts = 266, vertical 266, each diagonal 14 x 14 = 196:
    // 266 + 266 + 196 + 196 = 924.
    assert_eq!(new_game(19).window_count(), 924);
    // N=15: horizontal 15 x 10 = 150, vertical 150, each diagonal 10 x 10 = 100: 500.
    assert_eq!(new_game(15).window_count(), 500);
    // N=6: 6 rows, 6 columns and the two long diagonals: 14.
    assert_eq!(new_game(6).window_count(), 14);
    for n in MIN_SIZE..=MAX_SIZE {
        let starts = n - 5;
        assert_eq!(
            new_game(n).window_count(),
            2 * n * starts + 2 * starts * starts
        );
    }
    assert!(Connect6Rules::with_size(5).is_none());
    assert!(Connect6Rules::with_size(26).is_none());
    assert_eq!(Connect6Rules::default(), Connect6Rules::SAU);
    assert_eq!(Connect6Rules::SAU.size, 19);
    assert_eq!(Connect6Rules::BOTZONE.size, 15);
}

#[test]
fn window_tables_list_exactly_the_six_cell_lines() {
    for n in [6, 7, 11, 15, 19, 25] {
        let g = new_game(n);
        let t = g.tables();
        let ours: HashSet<Vec<usize>> = (0..t.window_count())
            .map(|w| {
                sorted(t.window(w).to_vec())
                    .iter()
                    .map(|&p| p as usize)
                    .collect()
            })
            .collect();
        let reference: HashSet<Vec<usize>> = ref_windows(n)
            .into_iter()
            .map(|w| {
                let mut w = w.to_vec();
                w.sort_unstable();
                w
            })
            .collect();
        assert_eq!(ours.len(), t.window_count(), "a window is listed twice");
        assert_eq!(ours, reference, "size {n}");
        for p in 0..(n * n) as Stone {
            let through: Vec<usize> = t.windows_through(p).iter().map(|&w| w as usize).collect();
            let expected: Vec<usize> = (0..t.window_count())
                .filter(|&w| t.window(w).contains(&p))
                .collect();
            assert_eq!(sorted_usize(through), expected, "size {n} point {p}");
        }
    }
    // The centre of 19x19 lies in 6 windows a direction.
    let g = new_game(19);
    assert_eq!(g.tables().windows_through(g.point(9, 9)).len(), 24);
    assert_eq!(g.tables().windows_through(g.point(0, 0)).len(), 3);
}

fn sorted_usize(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v
}

// ---------------------------------------------------------------------------------------------
// Turn structure and legality.

#[test]
fn turns_are_one_black_stone_then_two_stones_each() {
    let mut g = new_game(19);
    let expected = [
        (BLACK, 1),
        (WHITE, 2),
        (WHITE, 1),
        (BLACK, 2),
        (BLACK, 1),
        (WHITE, 2),
        (WHITE, 1),
        (BLACK, 2),
        (BLACK, 1),
        (WHITE, 2),
        (WHITE, 1),
    ];
    for (ply, &(side, left)) in expected.iter().enumerate() {
        assert_eq!(g.ply(), ply);
        assert_eq!(g.side_to_move(), side, "ply {ply}");
        assert_eq!(g.stones_left_in_turn(), left, "ply {ply}");
        assert_eq!(turn_at(ply), (side, left), "the reference agrees");
        assert_eq!(g.legal_moves().len(), 361 - ply);
        assert_eq!(g.outcome(), None);
        // Scattered stones: a knight's-move walk never makes a line.
        let p = g.point((ply * 2) % 19, (ply * 5) % 19);
        g.try_play(p).unwrap();
        assert_eq!(g.color_at(p), Some(side));
    }
}

#[test]
fn geometry_follows_the_point_convention() {
    let g = new_game(19);
    assert_eq!(g.point(0, 0), 0);
    assert_eq!(g.point(18, 0), 18);
    assert_eq!(g.point(0, 1), 19);
    assert_eq!(g.point(9, 9), 180);
    assert_eq!(g.coords(180), (9, 9));
    assert_eq!(g.coords(19 * 18 + 3), (3, 18));
    let g = new_game(15);
    assert_eq!(
        (g.size(), g.points(), g.rules()),
        (15, 225, Connect6Rules::BOTZONE)
    );
    assert_eq!(g.point(7, 7), 112);
    assert_eq!(g.coords(224), (14, 14));
}

#[test]
fn occupied_and_off_board_points_are_refused() {
    let mut g = new_game(19);
    let centre = g.point(9, 9);
    g.try_play(centre).unwrap();
    assert_eq!(g.check_move(centre), Err(IllegalMove::Occupied));
    assert_eq!(g.check_move(361), Err(IllegalMove::OffBoard));
    assert_eq!(g.check_move(Stone::MAX), Err(IllegalMove::OffBoard));
    let (hash, ply) = (g.hash(), g.ply());
    assert_eq!(g.try_play(centre), Err(IllegalMove::Occupied));
    assert_eq!(g.try_play(400), Err(IllegalMove::OffBoard));
    assert_eq!((g.hash(), g.ply(), g.stones_left_in_turn()), (hash, ply, 2));
    // White's own first stone is then occupied for its second.
    let p = g.point(3, 3);
    g.try_play(p).unwrap();
    assert_eq!(g.check_move(p), Err(IllegalMove::Occupied));
    assert!(!g.is_legal(p));

    let g = new_game(15);
    assert_eq!(g.check_move(225), Err(IllegalMove::OffBoard));
    assert_eq!(g.check_move(224), Ok(()));
}

// ---------------------------------------------------------------------------------------------
// Wins and draws.

/// Six cells from `(x, y)` in direction `(dx, dy)`.
fn line(x: usize, y: usize, dx: isize, dy: isize) -> Vec<(usize, usize)> {
    (0..6)
        .map(|i| {
            (
                (x as isize + i * dx) as usize,
                (y as isize + i * dy) as usize,
            )
        })
        .collect()
}

#[test]
fn six_in_a_row_wins_in_every_direction_at_the_edges() {
    for n in [15, 19] {
        let far = n - 1;
        let lines = [
            line(0, 0, 1, 0),         // top edge, from the left corner
            line(n - 6, far, 1, 0),   // bottom edge, to the right corner
            line(0, 0, 0, 1),         // left edge, from the top
            line(far, n - 6, 0, 1),   // right edge, to the bottom
            line(0, 0, 1, 1),         // main diagonal from the top-left corner
            line(n - 6, n - 6, 1, 1), // main diagonal to the bottom-right corner
            line(far, 0, -1, 1),      // anti-diagonal from the top-right corner
            line(5, n - 6, -1, 1),    // anti-diagonal to the bottom-left corner
            line(4, 7, 1, 0),         // and in the open
            line(n - 3, 3, -1, 1),    // an anti-diagonal touching no corner
        ];
        for cells in &lines {
            // Black's 6th stone is the 12th stone played, the first of a pair; White's is the
            // 11th, the second of a pair.
            let g = build(n, cells, &[]);
            assert_eq!(g.outcome(), Some(Outcome::Win(BLACK)), "{cells:?}\n{g}");
            assert_eq!((g.ply(), g.winner()), (12, Some(BLACK)));
            let g = build(n, &[], cells);
            assert_eq!(g.outcome(), Some(Outcome::Win(WHITE)), "{cells:?}\n{g}");
            assert_eq!((g.ply(), g.winner()), (11, Some(WHITE)));
            assert!(g.legal_moves().is_empty());
        }
    }
}

#[test]
fn seven_in_a_row_wins() {
    // Three and three with a gap, then the gap: the stone makes seven at once.
    let mut cells = row(0, 2, 5);
    cells.extend(row(4, 6, 5));
    cells.push((3, 5));
    let g = build(15, &cells, &[]);
    assert_eq!(g.outcome(), Some(Outcome::Win(BLACK)), "\n{g}");
    // Seven from six in a row's worth of windows: two windows are full.
    let full = g.live_windows(BLACK, 6).count();
    assert_eq!(full, 2);
}

#[test]
fn five_in_a_row_and_broken_lines_do_not_win() {
    let g = build(19, &row(5, 9, 9), &[]);
    assert_eq!(g.outcome(), None, "five\n{g}");
    // X X X X X _ X: six stones on seven cells.
    let mut cells = row(3, 7, 4);
    cells.push((9, 4));
    let g = build(19, &cells, &[]);
    assert_eq!(g.outcome(), None, "five and one\n{g}");
    // X X X O X X X: White in the middle.
    let mut cells = row(3, 5, 12);
    cells.extend(row(7, 9, 12));
    let g = build(19, &cells, &[(6, 12)]);
    assert_eq!(g.outcome(), None, "split by White\n{g}");
    // Six of one colour spread over two lines.
    let g = build(
        19,
        &[(3, 9), (4, 9), (5, 9), (6, 10), (7, 10), (8, 10)],
        &[],
    );
    assert_eq!(g.outcome(), None, "bent\n{g}");
}

#[test]
fn the_first_stone_of_a_pair_can_win_and_ends_the_game() {
    // Black has five with the sixth cell open and two stones to place.
    let mut g = build(19, &row(5, 9, 9), &[]);
    while (g.side_to_move(), g.stones_left_in_turn()) != (BLACK, 2) {
        let p = next_filler(&g, &[]);
        g.play(p);
    }
    let ply = g.ply();
    g.try_play(g.point(10, 9)).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(BLACK)));
    assert_eq!(g.ply(), ply + 1);
    // The turn would have a second stone, but nothing is legal any more.
    assert_eq!((g.side_to_move(), g.stones_left_in_turn()), (BLACK, 1));
    assert_eq!(g.check_move(g.point(0, 9)), Err(IllegalMove::GameOver));
    assert_eq!(g.try_play(g.point(0, 9)), Err(IllegalMove::GameOver));
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.immediate_win(WHITE, 2), None);
    assert_eq!(g.threats(BLACK), 0, "no threats once the game is over");
}

/// Colour of `(x, y)` in a 6x6 board filled without six in a row: alternating along every row,
/// with the bottom half shifted by one. Each row and column then mixes colours, and so do the two
/// long diagonals (the only diagonal windows on 6x6): on x == y the parity flips between y = 2 and
/// y = 3, and on x + y == 5 likewise.
fn draw_colour(x: usize, y: usize) -> Color {
    if (x + y + usize::from(y >= 3)).is_multiple_of(2) {
        BLACK
    } else {
        WHITE
    }
}

#[test]
fn a_full_board_without_six_is_a_draw() {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for y in 0..6 {
        for x in 0..6 {
            match draw_colour(x, y) {
                Color::Black => black.push((x, y)),
                Color::White => white.push((x, y)),
            }
        }
    }
    // 36 stones: Black 1 + 2 * 8 + 1 (the last turn is cut short by the full board) = 18 and
    // White 2 * 9 = 18, which is what the pattern gives.
    assert_eq!((black.len(), white.len()), (18, 18));
    let g = build(6, &black, &white);
    assert_eq!(g.ply(), 36);
    assert_eq!(g.outcome(), Some(Outcome::Draw), "\n{g}");
    assert_eq!(g.winner(), None);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.check_move(0), Err(IllegalMove::GameOver));
    // Every one of the 14 windows holds both colours.
    for w in 0..g.window_count() {
        assert!(g.window_stones(w, BLACK) > 0 && g.window_stones(w, WHITE) > 0);
    }
    assert_eq!(g.live_windows(BLACK, 0).count(), 0);
}

// ---------------------------------------------------------------------------------------------
// Threat queries. Unless said otherwise: 19x19, Black's stones on row 9 (`y = 9`), White's blocks
// marked `O`, and `(x)` naming the cell `(x, 9)`.

fn r9(x: usize) -> Stone {
    idx(19, x, 9)
}

#[test]
fn immediate_win_with_one_or_two_stones() {
    // Five in a row, (5)..(9), open at both ends: one stone at (4) or (10) wins.
    let g = build(19, &row(5, 9, 9), &[]);
    for stones in [1, 2] {
        let win = g.immediate_win(BLACK, stones).expect("a one-stone win");
        assert_eq!(win.len(), 1, "one stone is preferred");
        assert!([r9(4), r9(10)].contains(&win[0]), "{win:?}");
        let mut after = g.clone();
        after.set_turn(BLACK, 1);
        after.play(win[0]);
        assert_eq!(after.outcome(), Some(Outcome::Win(BLACK)));
    }
    assert_eq!(g.immediate_win(WHITE, 2), None);

    // Four, (5)..(8): the windows holding all four are (3)..(8), (4)..(9) and (5)..(10), with
    // gaps {3,4}, {4,9}, {9,10}. One stone is not enough; two are.
    let g = build(19, &row(5, 8, 9), &[]);
    assert_eq!(g.immediate_win(BLACK, 1), None);
    let pair = sorted(g.immediate_win(BLACK, 2).expect("a two-stone win"));
    let pairs = [[r9(3), r9(4)], [r9(4), r9(9)], [r9(9), r9(10)]];
    assert!(pairs.iter().any(|p| p[..] == pair[..]), "{pair:?}");
    let mut after = g.clone();
    after.set_turn(BLACK, 2);
    after.play(pair[0]);
    assert_eq!(after.outcome(), None);
    after.play(pair[1]);
    assert_eq!(after.outcome(), Some(Outcome::Win(BLACK)));

    // Three: nothing. And O X X X X O: every window with the four holds an O.
    let g = build(19, &row(5, 7, 9), &[]);
    assert_eq!(g.immediate_win(BLACK, 2), None);
    let g = build(19, &row(5, 8, 9), &[(4, 9), (9, 9)]);
    assert_eq!(g.immediate_win(BLACK, 2), None);
    assert_eq!(g.immediate_win(BLACK, 0), None);

    // The same for White on a vertical line of 15x15.
    let cells: Vec<(usize, usize)> = (5..10).map(|y| (7, y)).collect();
    let g = build(15, &[], &cells);
    let win = g.immediate_win(WHITE, 1).unwrap();
    assert!([idx(15, 7, 4), idx(15, 7, 10)].contains(&win[0]));
}

#[test]
fn winning_cells_depend_on_the_stones_left() {
    // Four (5)..(8): with two stones every gap of the three windows takes part in a win.
    let mut g = build(19, &row(5, 8, 9), &[]);
    let four_gaps = vec![r9(3), r9(4), r9(9), r9(10)];
    g.set_turn(BLACK, 2);
    assert_eq!(g.winning_cells(BLACK), four_gaps);
    g.set_turn(BLACK, 1);
    assert_eq!(g.winning_cells(BLACK), Vec::<Stone>::new());
    g.set_turn(WHITE, 1);
    assert_eq!(
        g.winning_cells(BLACK),
        four_gaps,
        "Black will have a whole turn"
    );
    assert_eq!(g.stones_available(BLACK), 2);

    // Five (5)..(9): windows (3)..(8) {3,4}, (4)..(9) {4}, (5)..(10) {10}, (6)..(11) {10,11}.
    let mut g = build(19, &row(5, 9, 9), &[]);
    g.set_turn(BLACK, 1);
    assert_eq!(g.winning_cells(BLACK), vec![r9(4), r9(10)]);
    g.set_turn(BLACK, 2);
    assert_eq!(g.winning_cells(BLACK), vec![r9(3), r9(4), r9(10), r9(11)]);
    assert_eq!(g.winning_cells(WHITE), Vec::<Stone>::new());
}

/// The positions of the threat tests, with Black's threat count worked out by hand.
fn threat_positions() -> Vec<(&'static str, Connect6, u32)> {
    let dead_four = |y| (row(5, 8, y), (4, y));
    let (d9, o9) = dead_four(9);
    let (d12, o12) = dead_four(12);
    let (d15, o15) = dead_four(15);
    let cat = |a: &[(usize, usize)], b: &[(usize, usize)]| [a, b].concat();
    let split_four = vec![(5, 9), (6, 9), (8, 9), (9, 9)];
    let vertical_dead_four: Vec<(usize, usize)> = (5..=8).map(|y| (9, y)).collect();
    vec![
        ("empty board", new_game(19), 0),
        // No window holds four.
        ("three", build(19, &row(5, 7, 9), &[]), 0),
        // O X X X X O: (3)..(8), (4)..(9) and (5)..(10) all hold an O.
        (
            "four blocked on both sides",
            build(19, &d9, &[o9, (9, 9)]),
            0,
        ),
        // O X X X X _ _: only (5)..(10) is live, gaps {9,10}: one stone stops it.
        ("dead four", build(19, &d9, &[o9]), 1),
        // X X _ X X, open: (4)..(9) gaps {4,7}, (5)..(10) gaps {7,10}; (3)..(8) and (6)..(11)
        // hold three. The middle cell hits both: one threat, unlike the solid four below.
        ("split four", build(19, &split_four, &[]), 1),
        // Dead fours across each other sharing the gap (9,9): the horizontal one's gaps are
        // {(9,9),(10,9)}, the vertical one's {(9,9),(9,10)}: one stone at (9,9) stops both.
        (
            "crossing dead fours",
            build(19, &cat(&d9, &vertical_dead_four), &[o9, (9, 4)]),
            1,
        ),
        // _ _ X X X X _ _: gaps {3,4}, {4,9}, {9,10}; no one cell is in all three, {4,9} is.
        ("live four", build(19, &row(5, 8, 9), &[]), 2),
        // Five, open: (4) and (10) are forced (single-gap windows) and hit the rest too.
        ("live five", build(19, &row(5, 9, 9), &[]), 2),
        // Two dead fours on rows 9 and 12 share no cell: one stone each.
        ("two dead fours", build(19, &cat(&d9, &d12), &[o9, o12]), 2),
        // Three dead fours: three disjoint windows.
        (
            "three dead fours",
            build(
                19,
                &[d9.clone(), d12.clone(), d15].concat(),
                &[o9, o12, o15],
            ),
            3,
        ),
        // Two live fours: 2 + 2, reported as "3 or more".
        (
            "two live fours",
            build(19, &cat(&row(5, 8, 9), &row(5, 8, 13)), &[]),
            3,
        ),
    ]
}

#[test]
fn threat_counts_on_hand_built_positions() {
    for (name, g, expected) in threat_positions() {
        assert_eq!(g.threats(BLACK), expected, "{name}\n{g}");
        assert_eq!(g.threats(WHITE), 0, "{name}: White has nothing");
    }
    // White's live four, vertical on 15x15: two threats.
    let cells: Vec<(usize, usize)> = (5..9).map(|y| (7, y)).collect();
    let g = build(15, &[], &cells);
    assert_eq!((g.threats(WHITE), g.threats(BLACK)), (2, 0));
}

#[test]
fn blocking_sets_are_the_minimal_defences() {
    let positions: HashMap<&str, Connect6> = threat_positions()
        .into_iter()
        .map(|(name, g, _)| (name, g))
        .collect();
    let sets = |name: &str, max: u8| positions[name].blocking_sets(BLACK, max);
    let none: Vec<Vec<Stone>> = vec![vec![]];
    let lost: Vec<Vec<Stone>> = vec![];

    assert_eq!(sets("empty board", 2), none, "nothing to stop");
    assert_eq!(sets("three", 2), none);
    assert_eq!(sets("dead four", 2), vec![vec![r9(9)], vec![r9(10)]]);
    assert_eq!(sets("dead four", 1), vec![vec![r9(9)], vec![r9(10)]]);
    // Gaps {4,7} and {7,10}: the middle cell alone, or both outer cells.
    assert_eq!(
        sets("split four", 2),
        vec![vec![r9(4), r9(10)], vec![r9(7)]]
    );
    assert_eq!(sets("split four", 1), vec![vec![r9(7)]]);
    // Windows {a,b} and {a,c} with a = (9,9), b = (10,9), c = (9,10): {a} or {b,c}.
    assert_eq!(
        sets("crossing dead fours", 2),
        vec![vec![r9(9)], vec![r9(10), idx(19, 9, 10)]]
    );
    assert_eq!(sets("crossing dead fours", 1), vec![vec![r9(9)]]);
    // Gaps {3,4}, {4,9}, {9,10}: 4 takes the first and third and needs 9 or 10 for the second;
    // 3 takes only the first and needs 9 for the other two; {3,10} misses {4,9}.
    assert_eq!(
        sets("live four", 2),
        vec![vec![r9(3), r9(9)], vec![r9(4), r9(9)], vec![r9(4), r9(10)]]
    );
    assert_eq!(
        sets("live four", 1),
        lost,
        "one stone cannot stop a live four"
    );
    assert_eq!(sets("live five", 2), vec![vec![r9(4), r9(10)]]);
    assert_eq!(
        sets("two dead fours", 2),
        vec![
            vec![r9(9), idx(19, 9, 12)],
            vec![r9(9), idx(19, 10, 12)],
            vec![r9(10), idx(19, 9, 12)],
            vec![r9(10), idx(19, 10, 12)],
        ]
    );
    assert_eq!(sets("three dead fours", 2), lost);
    assert_eq!(sets("two live fours", 2), lost);
    // Every listed set really stops Black: afterwards no threat is left.
    for (name, g) in &positions {
        for set in g.blocking_sets(BLACK, 2) {
            let mut after = g.clone();
            for &p in &set {
                after.set_turn(WHITE, 1);
                after.play(p);
            }
            assert_eq!(after.threats(BLACK), 0, "{name}: {set:?}");
            assert_eq!(after.immediate_win(BLACK, 2), None, "{name}: {set:?}");
        }
    }
}

#[test]
fn live_windows_filter_by_colour_and_stone_count() {
    let mut g = new_game(15);
    g.play(g.point(7, 7));
    assert_eq!(g.live_windows(BLACK, 1).count(), 24);
    assert_eq!(g.live_windows(BLACK, 0).count(), 500);
    assert_eq!(g.live_windows(WHITE, 0).count(), 500 - 24);
    assert_eq!(g.live_windows(WHITE, 1).count(), 0);
    // White next to it: the 5 horizontal windows holding both are dead for both.
    g.play(g.point(8, 7));
    assert_eq!(g.live_windows(BLACK, 1).count(), 24 - 5);
    assert_eq!(g.live_windows(WHITE, 1).count(), 24 - 5);
    assert_eq!(g.live_windows(BLACK, 0).count(), 500 - 24);
    assert_eq!(g.live_windows(BLACK, 2).count(), 0);

    // The live four: its three windows hold four, none five.
    let g = build(19, &row(5, 8, 9), &[]);
    let four: Vec<usize> = g.live_windows(BLACK, 4).collect();
    assert_eq!(four.len(), 3);
    assert_eq!(g.threat_windows(BLACK).collect::<Vec<_>>(), four);
    assert_eq!(g.live_windows(BLACK, 5).count(), 0);
    for &w in &four {
        assert_eq!(
            (g.window_stones(w, BLACK), g.window_stones(w, WHITE)),
            (4, 0)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Hashing.

#[test]
fn transposed_move_orders_give_the_same_hash() {
    // Black: (9,9), then a pair; White: two pairs. Swap the order inside each colour's stones.
    let (b, w) = (
        [(9, 9), (10, 10), (3, 4)],
        [(8, 8), (2, 2), (12, 5), (0, 18)],
    );
    let g1 = build(19, &b, &w);
    let g2 = build(19, &[b[0], b[2], b[1]], &[w[3], w[1], w[2], w[0]]);
    assert_eq!(g1.ply(), 7);
    assert_eq!(g1.hash(), g2.hash());
    // A different position of the same length differs.
    let g3 = build(19, &[b[0], b[1], (3, 5)], &w);
    assert_ne!(g1.hash(), g3.hash());
}

#[test]
fn hash_includes_the_side_to_move_and_the_stones_left() {
    let mut g = new_game(19);
    g.play(g.point(9, 9));
    g.play(g.point(10, 10));
    // White has placed one stone of its pair.
    assert_eq!((g.side_to_move(), g.stones_left_in_turn()), (WHITE, 1));
    let h = g.hash();
    let same_stones = |side, left| {
        let mut other = g.clone();
        other.set_turn(side, left);
        other.hash()
    };
    let white_two = same_stones(WHITE, 2);
    let black_two = same_stones(BLACK, 2);
    let black_one = same_stones(BLACK, 1);
    let all = [h, white_two, black_two, black_one];
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(all[i], all[j], "turn states {i} and {j}");
        }
    }
    assert_eq!(
        same_stones(WHITE, 1),
        h,
        "setting the same turn changes nothing"
    );
    // set_turn keeps the hash consistent with play: the stone keys do not depend on the turn.
    let mut a = g.clone();
    a.set_turn(BLACK, 2);
    a.play(a.point(0, 0));
    let mut b = g.clone();
    b.play(b.point(1, 1));
    b.set_turn(BLACK, 2);
    b.play(b.point(0, 0));
    b.set_turn(BLACK, 1);
    let mut c = g.clone();
    c.play(c.point(1, 1));
    c.set_turn(BLACK, 1);
    c.play(c.point(0, 0));
    c.set_turn(BLACK, 1);
    assert_eq!(b.hash(), c.hash());
    assert_ne!(a.hash(), b.hash());
}

// ---------------------------------------------------------------------------------------------
// Display.

#[test]
fn display_draws_the_board() {
    let g = build(6, &[(0, 0), (1, 1), (2, 1)], &[(5, 0), (0, 5)]);
    assert_eq!(
        g.to_string(),
        "X....O\n.XX...\n......\n......\n......\nO.....\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Random games against the reference.

/// Every question the board answers, asked of the board and of the reference.
fn compare(g: &Connect6, r: &RefBoard, windows: &[[usize; 6]], deep: bool, ctx: &str) {
    let n = r.n;
    assert_eq!(g.ply(), r.ply, "{ctx}");
    let outcome = r.outcome();
    assert_eq!(g.outcome(), outcome, "{ctx}\n{g}");
    assert_eq!(
        g.winner(),
        match outcome {
            Some(Outcome::Win(c)) => Some(c),
            _ => None,
        },
        "{ctx}"
    );
    for p in 0..n * n {
        assert_eq!(g.color_at(p as Stone), r.cells[p], "{ctx} point {p}");
    }
    // Window counts, for every window the board lists (which the table test matched against
    // `ref_windows`).
    let t = g.tables();
    for w in 0..t.window_count() {
        for c in [BLACK, WHITE] {
            let count = t
                .window(w)
                .iter()
                .filter(|&&p| r.cells[p as usize] == Some(c))
                .count();
            assert_eq!(
                g.window_stones(w, c) as usize,
                count,
                "{ctx} window {w} {c:?}"
            );
        }
    }
    for c in [BLACK, WHITE] {
        for min in [0u8, 1, 3, 4, 5] {
            let expected: Vec<usize> = (0..t.window_count())
                .filter(|&w| {
                    let cells = t.window(w);
                    cells
                        .iter()
                        .all(|&p| r.cells[p as usize] != Some(c.opponent()))
                        && cells
                            .iter()
                            .filter(|&&p| r.cells[p as usize] == Some(c))
                            .count()
                            >= min as usize
                })
                .collect();
            let ours: Vec<usize> = g.live_windows(c, min).collect();
            assert_eq!(ours, expected, "{ctx} live windows {c:?} >= {min}");
        }
    }
    if outcome.is_some() {
        assert!(g.legal_moves().is_empty(), "{ctx}");
        for c in [BLACK, WHITE] {
            assert_eq!(g.immediate_win(c, 2), None, "{ctx}");
            assert!(g.winning_cells(c).is_empty(), "{ctx}");
        }
        return;
    }
    let (side, left) = turn_at(r.ply);
    assert_eq!(
        (g.side_to_move(), g.stones_left_in_turn()),
        (side, left),
        "{ctx}"
    );
    let empties = r.empties();
    let legal: Vec<usize> = g.legal_moves().iter().map(|&p| p as usize).collect();
    assert_eq!(sorted_usize(legal), empties, "{ctx}");

    for c in [BLACK, WHITE] {
        // One-stone wins by placing the stone and measuring runs.
        let singles: Vec<usize> = empties
            .iter()
            .copied()
            .filter(|&p| r.wins_with(c, &[p]))
            .collect();
        let gaps = ref_threat_gaps(r, windows, c);
        for stones in [1u8, 2] {
            match g.immediate_win(c, stones) {
                Some(v) if v.len() == 1 => {
                    assert!(singles.contains(&(v[0] as usize)), "{ctx} {c:?} {v:?}")
                }
                Some(v) if v.len() == 2 => {
                    assert!(stones == 2 && singles.is_empty(), "{ctx} {c:?} {v:?}");
                    let cells = [v[0] as usize, v[1] as usize];
                    assert!(
                        cells[0] != cells[1] && r.wins_with(c, &cells),
                        "{ctx} {v:?}"
                    );
                }
                Some(v) => panic!("{ctx}: {v:?}"),
                None => {
                    assert!(singles.is_empty(), "{ctx} {c:?} misses {singles:?}\n{g}");
                    assert!(stones == 1 || gaps.is_empty(), "{ctx} {c:?} misses a pair");
                }
            }
        }
        // Now and then, search every pair on a line outright: nothing but placing stones.
        if deep && g.immediate_win(c, 2).is_none() {
            for &p in &empties {
                let (x, y) = ((p % n) as isize, (p / n) as isize);
                for (dx, dy) in DIRS {
                    for d in 1..6 {
                        if r.get(x + d * dx, y + d * dy).is_none() {
                            let (qx, qy) = (x + d * dx, y + d * dy);
                            if (0..n as isize).contains(&qx) && (0..n as isize).contains(&qy) {
                                let q = (qy * n as isize + qx) as usize;
                                assert!(!r.wins_with(c, &[p, q]), "{ctx} {c:?} {p} {q}");
                            }
                        }
                    }
                }
            }
        }
        let mut cells: Vec<usize> = if g.stones_available(c) == 1 {
            singles.clone()
        } else {
            gaps.iter().flatten().copied().collect()
        };
        cells.sort_unstable();
        cells.dedup();
        let ours: Vec<usize> = g.winning_cells(c).iter().map(|&p| p as usize).collect();
        assert_eq!(ours, cells, "{ctx} winning cells {c:?}");

        let blocking = ref_blocking_sets(&gaps);
        assert_eq!(g.threats(c), ref_threats(&gaps), "{ctx} threats {c:?}\n{g}");
        let ours: Vec<Vec<usize>> = g
            .blocking_sets(c, 2)
            .into_iter()
            .map(|s| s.into_iter().map(|p| p as usize).collect())
            .collect();
        let mut expected = blocking.clone();
        expected.sort();
        assert_eq!(ours, expected, "{ctx} blocking sets {c:?}\n{g}");
        let expected_one: Vec<Vec<usize>> =
            expected.iter().filter(|s| s.len() <= 1).cloned().collect();
        let ours_one = g.blocking_sets(c, 1).len();
        assert_eq!(ours_one, expected_one.len(), "{ctx} single blocks {c:?}");
    }
}

/// A fingerprint of the position (stones and turn) independent of the Zobrist keys.
fn fingerprint(r: &RefBoard) -> u64 {
    let mut h = DefaultHasher::new();
    r.n.hash(&mut h);
    r.cells.hash(&mut h);
    turn_at(r.ply).hash(&mut h);
    h.finish()
}

/// Replays the stones of `moves` with each colour's stones in a shuffled order: the same position.
fn transposed(n: usize, moves: &[usize], rng: &mut XorShift) -> Connect6 {
    let mut by_colour = [Vec::new(), Vec::new()];
    for (ply, &p) in moves.iter().enumerate() {
        by_colour[turn_at(ply).0.index()].push(p);
    }
    for list in &mut by_colour {
        rng.shuffle(list);
    }
    let mut g = new_game(n);
    for ply in 0..moves.len() {
        let c = turn_at(ply).0;
        g.play(by_colour[c.index()].pop().unwrap() as Stone);
    }
    g
}

#[test]
fn random_games_match_a_from_scratch_reference() {
    let mut rng = XorShift::new(0xc6);
    let mut seen: HashMap<(usize, u64), u64> = HashMap::new();
    let (mut wins, mut draws, mut threat_histogram) = (0, 0, [0u32; 4]);
    // 300 games on the two platform sizes, and a few on small boards, where draws happen.
    let sizes = (0..300)
        .map(|i| [15, 19][i % 2])
        .chain((0..40).map(|i| 6 + i % 4));
    for (game, n) in sizes.enumerate() {
        let windows = ref_windows(n);
        let mut g = new_game(n);
        let mut r = RefBoard::new(n);
        let mut moves = Vec::new();
        // Most stones go into a random square of the board, so that lines, threats and full
        // windows come early and often; sometimes it sits on an edge or a corner.
        let side = 6 + rng.below(n - 5);
        let (x0, y0) = (rng.below(n - side + 1), rng.below(n - side + 1));
        loop {
            let ctx = format!("game {game} (size {n}) ply {}", r.ply);
            compare(&g, &r, &windows, r.ply % 25 == 12, &ctx);
            let prior = seen.insert((n, g.hash()), fingerprint(&r));
            assert!(
                prior.is_none() || prior == Some(fingerprint(&r)),
                "{ctx}: collision"
            );
            if r.ply % 16 == 15 && g.outcome().is_none() {
                let t = transposed(n, &moves, &mut rng);
                assert_eq!(t.hash(), g.hash(), "{ctx}: transposition");
                assert_eq!(t.threats(BLACK), g.threats(BLACK), "{ctx}");
            }
            match g.outcome() {
                Some(Outcome::Win(_)) => {
                    wins += 1;
                    break;
                }
                Some(Outcome::Draw) => {
                    draws += 1;
                    break;
                }
                None => {}
            }
            let empties = r.empties();
            let near: Vec<usize> = empties
                .iter()
                .copied()
                .filter(|&p| {
                    (x0..x0 + side).contains(&(p % n)) && (y0..y0 + side).contains(&(p / n))
                })
                .collect();
            let pool = if !near.is_empty() && rng.below(4) != 0 {
                &near
            } else {
                &empties
            };
            // Half the time a side that can win with this stone does: games then end as real
            // ones do instead of dragging on through positions full of untaken wins.
            let side_to_move = turn_at(r.ply).0;
            let win = if rng.below(2) == 0 {
                empties
                    .iter()
                    .copied()
                    .find(|&p| r.wins_with(side_to_move, &[p]))
            } else {
                None
            };
            let p = win.unwrap_or_else(|| pool[rng.below(pool.len())]);
            for c in [BLACK, WHITE] {
                threat_histogram[g.threats(c) as usize] += 1;
            }
            g.play(p as Stone);
            r.play(p);
            moves.push(p);
        }
    }
    eprintln!("wins {wins} draws {draws} threats seen {threat_histogram:?}");
    // The games must have reached the cases under test.
    assert_eq!(wins + draws, 340);
    assert!(draws > 0 && wins > 200, "wins {wins} draws {draws}");
    assert!(
        threat_histogram.iter().all(|&k| k > 20),
        "threat counts seen: {threat_histogram:?}"
    );
}

/// Undo is the exact inverse of a stone: after random games (wins included), taking every stone
/// back in reverse order passes through each earlier position again, with the same hash, turn,
/// threats, blocking sets and winner as when it was first reached.
#[test]
fn undo_retraces_every_position_exactly() {
    let mut rng = XorShift::new(0x0d0);
    for game in 0..60 {
        let size = [6, 9, 15, 19][game % 4];
        let mut g = new_game(size);
        let mut seen: Vec<(Connect6, Stone)> = Vec::new();
        // Crowd the stones into a corner so that lines and wins happen.
        let side = size.min(9);
        while g.outcome().is_none() {
            let empties: Vec<Stone> = (0..g.points() as Stone)
                .filter(|&p| {
                    let (x, y) = g.coords(p);
                    g.color_at(p).is_none() && (x < side && y < side || seen.len() >= side * side)
                })
                .collect();
            let p = empties[rng.below(empties.len())];
            seen.push((g.clone(), p));
            g.play(p);
        }
        while let Some((before, p)) = seen.pop() {
            g.undo(p);
            assert_eq!(g.hash(), before.hash(), "game {game}");
            assert_eq!(g.ply(), before.ply());
            assert_eq!(g.side_to_move(), before.side_to_move());
            assert_eq!(g.stones_left_in_turn(), before.stones_left_in_turn());
            assert_eq!(g.winner(), before.winner());
            for c in [BLACK, WHITE] {
                assert_eq!(g.threats(c), before.threats(c));
                assert_eq!(g.blocking_sets(c, 2), before.blocking_sets(c, 2));
                assert_eq!(g.winning_cells(c), before.winning_cells(c));
                assert_eq!(
                    g.threat_windows(c).collect::<Vec<_>>(),
                    before.threat_windows(c).collect::<Vec<_>>()
                );
            }
        }
    }
}
