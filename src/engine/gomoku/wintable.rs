//! Gomoku level `wintable`: the win-table method of seed 004 (`004_bee1ac9d4f3f5f44.txt`).
//!
//! The seed's model: list every way to win on the board, that is every line of five points
//! (12 on its 5 x 5 example, 572 on 15 x 15); keep a table of them for each side. A stone
//! kills, for the other side, every way it lies on (the seed's `last` flag drops to 0), and is
//! marked in its own side's ways (the `yn` marks of the seed's "方法2"). To move, score every
//! empty point for both sides from the ways still open through it, take each side's best point,
//! and play on the opponent's best point when it scores higher than our own best (defence),
//! otherwise on our own best point (attack).
//!
//! The table is kept incrementally, as the seed does: each stone touches only the ways through
//! its point. The scores are recounted over the whole board at each turn, as the seed does.
//!
//! Weights. The seed's main method gives one point per open way (`BASIC_WEIGHTS`, which
//! reproduces its example). It then says that this cannot see threes and fours, and that a way
//! holding connected stones should count for more ("不再加1分，而是加2分或3分"), leaving the
//! details out ("关于这个加强算法就不再文中详细在说明"). Two or three points cannot do what it asks
//! on a real board, where a point lies on up to 20 ways: 20 empty ways outweigh a four. So the
//! weights grow with the stones a way holds, each step more than 20 times the one below, so that
//! a single way one stone fuller outweighs any number of emptier ways through a point; and our own
//! ways weigh more than the opponent's with the same stones (`OWN_WEIGHTS` against
//! `THEIR_WEIGHTS`, interleaved). The seed's comparison then plays: our five, else the point of
//! theirs, else our four, else the point where they would make a four, and so on down; an empty
//! way still counts one point for either side, as in the seed.

use crate::engine::{Decision, Engine};
use crate::game::gomoku::{Gomoku, Point};
use crate::game::{Color, Game};
use crate::search::clock::Limits;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Points in a way to win.
pub const FIVE: usize = 5;
/// The smallest board with a way to win: the seed's example board.
pub const MIN_TABLE_SIZE: usize = 5;
/// The largest board stonebrain plays Gomoku on.
pub const MAX_TABLE_SIZE: usize = crate::game::gomoku::MAX_SIZE;

/// Weight of an open way by the stones of the scored side already in it (0 to 4).
pub type Weights = [u64; FIVE];

/// The seed's method as its example computes it: one point for every open way.
pub const BASIC_WEIGHTS: Weights = [1; FIVE];
/// The engine's weights for its own ways: 1, then 2^10 per stone.
pub const OWN_WEIGHTS: Weights = [1, 1 << 10, 1 << 20, 1 << 30, 1 << 40];
/// The engine's weights for the opponent's ways: 1, then each between our own ways with one
/// stone fewer and with as many stones (32 times away from both).
pub const THEIR_WEIGHTS: Weights = [1, 1 << 5, 1 << 15, 1 << 25, 1 << 35];

/// The ways to win on an `n` x `n` board with the stones each side has in each, the seed's two
/// tables in one: a way is open for a side (`last` = 1) while it holds no stone of the other,
/// and the stones a side has in it are the seed's `yn` marks counted.
#[derive(Clone, Debug)]
pub struct WinTable {
    size: usize,
    /// The points (`y * size + x`) of each way, in the seed's order: across (row by row, from the
    /// left), down (column by column, from the top), the `\` diagonals, then the `/` diagonals
    /// (each from its top-right end).
    ways: Vec<[u16; FIVE]>,
    /// The ways through each point (at most 20: five along each of four lines).
    through: Vec<Vec<u32>>,
    /// Stones of Black and White in each way.
    stones: Vec<[u8; 2]>,
    cells: Vec<Option<Color>>,
    /// The points played, in order: what `GomokuWintable` checks a new position against.
    played: Vec<Point>,
}

impl WinTable {
    /// The table of an empty board. Panics outside `MIN_TABLE_SIZE..=MAX_TABLE_SIZE`.
    pub fn new(size: usize) -> WinTable {
        assert!(
            (MIN_TABLE_SIZE..=MAX_TABLE_SIZE).contains(&size),
            "a win table needs a board of {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE}, not {size}"
        );
        let n = size;
        let at = |x: usize, y: usize| (y * n + x) as u16;
        let mut ways = Vec::new();
        let span = n - FIVE + 1;
        for y in 0..n {
            for x in 0..span {
                ways.push(std::array::from_fn(|k| at(x + k, y)));
            }
        }
        for x in 0..n {
            for y in 0..span {
                ways.push(std::array::from_fn(|k| at(x, y + k)));
            }
        }
        for y in 0..span {
            for x in 0..span {
                ways.push(std::array::from_fn(|k| at(x + k, y + k)));
            }
        }
        for y in 0..span {
            for x in FIVE - 1..n {
                ways.push(std::array::from_fn(|k| at(x - k, y + k)));
            }
        }
        let mut through = vec![Vec::new(); n * n];
        for (w, way) in ways.iter().enumerate() {
            for &p in way {
                through[p as usize].push(w as u32);
            }
        }
        WinTable {
            size,
            stones: vec![[0, 0]; ways.len()],
            ways,
            through,
            cells: vec![None; n * n],
            played: Vec::new(),
        }
    }

    /// The table after `moves`, Black first and alternating.
    pub fn with_moves(size: usize, moves: &[Point]) -> WinTable {
        let mut t = WinTable::new(size);
        for (i, &p) in moves.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            t.play(p, c);
        }
        t
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of ways to win: `2n(n-4) + 2(n-4)^2`.
    pub fn way_count(&self) -> usize {
        self.ways.len()
    }

    /// The points of way `w`.
    pub fn way(&self, w: usize) -> [u16; FIVE] {
        self.ways[w]
    }

    /// The ways through point `p`.
    pub fn ways_through(&self, p: Point) -> &[u32] {
        &self.through[p as usize]
    }

    /// Whether way `w` can still be won by `c`: no stone of the opponent in it (the seed's
    /// `last` flag in `c`'s table).
    pub fn is_open(&self, w: usize, c: Color) -> bool {
        self.stones[w][c.opponent().index()] == 0
    }

    /// Stones of `c` in way `w` (the seed's `yn` marks in `c`'s table).
    pub fn stones_in(&self, w: usize, c: Color) -> usize {
        self.stones[w][c.index()] as usize
    }

    pub fn color_at(&self, p: Point) -> Option<Color> {
        self.cells[p as usize]
    }

    /// The points played so far, in order.
    pub fn played(&self) -> &[Point] {
        &self.played
    }

    /// A stone of `c` on the empty point `p`: the only ways touched are the ones through `p`.
    pub fn play(&mut self, p: Point, c: Color) {
        assert!(
            self.cells[p as usize].is_none(),
            "point {p} is already taken"
        );
        self.cells[p as usize] = Some(c);
        self.played.push(p);
        for &w in &self.through[p as usize] {
            self.stones[w as usize][c.index()] += 1;
        }
    }

    /// The score of point `p` for `c`: the weights of the ways through it still open for `c`, by
    /// the stones `c` has in each. An occupied point scores 0, as in the seed.
    pub fn score(&self, p: Point, c: Color, weights: &Weights) -> u64 {
        if self.cells[p as usize].is_some() {
            return 0;
        }
        self.through[p as usize]
            .iter()
            .filter(|&&w| self.is_open(w as usize, c))
            // An open way through an empty point holds at most four stones.
            .map(|&w| weights[self.stones_in(w as usize, c)])
            .sum()
    }

    /// The scores of every point for `c` (the seed's `ScoreC` or `ScoreP`), by point.
    pub fn scores(&self, c: Color, weights: &Weights) -> Vec<u64> {
        (0..self.cells.len())
            .map(|p| self.score(p as Point, c, weights))
            .collect()
    }

    /// The seed's choice for `me`: our best empty points and the opponent's; the opponent's when
    /// theirs score strictly higher. `None` when no point is empty.
    pub fn choice(&self, me: Color, own: &Weights, theirs: &Weights) -> Option<Choice> {
        let empty: Vec<Point> = (0..self.cells.len() as Point)
            .filter(|&p| self.cells[p as usize].is_none())
            .collect();
        let best = |c: Color, weights: &Weights| {
            let scored: Vec<(Point, u64)> = empty
                .iter()
                .map(|&p| (p, self.score(p, c, weights)))
                .collect();
            let top = scored.iter().map(|&(_, s)| s).max()?;
            let points = scored
                .iter()
                .filter(|&&(_, s)| s == top)
                .map(|&(p, _)| p)
                .collect();
            Some((points, top))
        };
        let (own_points, own_score) = best(me, own)?;
        let (their_points, their_score) = best(me.opponent(), theirs)?;
        Some(if their_score > own_score {
            Choice {
                points: their_points,
                score: their_score,
                defending: true,
            }
        } else {
            Choice {
                points: own_points,
                score: own_score,
                defending: false,
            }
        })
    }
}

/// What the seed's comparison picked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The best points of the side played for, in point order (any of them will do).
    pub points: Vec<Point>,
    /// Their score.
    pub score: u64,
    /// Whether they are the opponent's best points (defence) rather than our own (attack).
    pub defending: bool,
}

pub struct GomokuWintable {
    seed: u64,
    rng: SmallRng,
    /// The table of the game being played, brought up to date with each position seen.
    table: Option<WinTable>,
}

impl GomokuWintable {
    pub fn new(seed: u64) -> GomokuWintable {
        GomokuWintable {
            seed,
            rng: SmallRng::seed_from_u64(seed),
            table: None,
        }
    }

    /// Brings the table up to `pos`: the new stones only when `pos` continues the game the
    /// table holds, else a table built afresh (a new game, a take-back, another board).
    fn sync(&mut self, pos: &Gomoku) -> &WinTable {
        let moves = pos.moves();
        let continues = self.table.as_ref().is_some_and(|t| {
            t.size() == pos.size()
                && t.played().len() <= moves.len()
                && t.played() == &moves[..t.played().len()]
        });
        if !continues {
            self.table = Some(WinTable::new(pos.size()));
        }
        let t = self.table.as_mut().expect("the table was just set");
        for (i, &p) in moves.iter().enumerate().skip(t.played().len()) {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            t.play(p, c);
        }
        t
    }

    /// The point the method plays, and whether it is a defence; `None` when the game is over.
    pub fn choose(&mut self, pos: &Gomoku) -> Option<(Point, Choice)> {
        if pos.outcome().is_some() {
            return None;
        }
        let me = pos.side_to_move();
        let choice = self.sync(pos).choice(me, &OWN_WEIGHTS, &THEIR_WEIGHTS)?;
        let p = choice.points[self.rng.gen_range(0..choice.points.len())];
        Some((p, choice))
    }
}

impl Engine<Gomoku> for GomokuWintable {
    fn new_game(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.seed);
        self.table = None;
    }

    fn observe(&mut self, pos_before: &Gomoku, m: Point) {
        let mut after = pos_before.clone();
        if after.try_play(m).is_ok() {
            self.sync(&after);
        }
    }

    fn think(&mut self, pos: &Gomoku, _limits: Limits) -> Decision<Point> {
        let start = Instant::now();
        let mv = self.choose(pos).map(|(p, _)| p);
        Decision {
            mv,
            win_rate: None,
            // Points scored, for both sides.
            work: 2 * (pos.points() - pos.ply()) as u64,
            work_unit: "nodes",
            elapsed: start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::GomokuRules;

    fn position(n: usize, black: &[(usize, usize)], white: &[(usize, usize)]) -> Gomoku {
        assert!(black.len() == white.len() || black.len() == white.len() + 1);
        let mut g = Gomoku::new(GomokuRules::new(n, false).unwrap());
        for (i, &(x, y)) in black.iter().enumerate() {
            g.try_play(g.point(x, y)).unwrap();
            if let Some(&(x, y)) = white.get(i) {
                g.try_play(g.point(x, y)).unwrap();
            }
        }
        assert_eq!(g.outcome(), None, "\n{g}");
        g
    }

    fn play(g: &Gomoku, seed: u64) -> (usize, usize) {
        let mv = GomokuWintable::new(seed)
            .think(g, Limits::default())
            .mv
            .unwrap();
        assert!(g.is_legal(mv));
        g.coords(mv)
    }

    #[test]
    fn ways_are_every_line_of_five() {
        for n in MIN_TABLE_SIZE..=MAX_TABLE_SIZE {
            let t = WinTable::new(n);
            assert_eq!(t.way_count(), 2 * n * (n - 4) + 2 * (n - 4) * (n - 4));
            let mut seen = std::collections::HashSet::new();
            for w in 0..t.way_count() {
                let way = t.way(w);
                let (x0, y0) = ((way[0] as usize % n) as i64, (way[0] as usize / n) as i64);
                let (x1, y1) = ((way[1] as usize % n) as i64, (way[1] as usize / n) as i64);
                let (dx, dy) = (x1 - x0, y1 - y0);
                assert!([(1, 0), (0, 1), (1, 1), (-1, 1)].contains(&(dx, dy)));
                for (k, &p) in way.iter().enumerate() {
                    let k = k as i64;
                    assert_eq!(p as i64, (y0 + k * dy) * n as i64 + x0 + k * dx, "size {n}");
                    assert!(t.ways_through(p).contains(&(w as u32)));
                }
                let mut key = way;
                key.sort();
                assert!(seen.insert(key), "way {w} twice");
            }
            // At most 20 ways through a point, and exactly 20 in the middle of a big board.
            let most = (0..n * n)
                .map(|p| t.ways_through(p as Point).len())
                .max()
                .unwrap();
            assert!(most <= 20);
            if n >= 9 {
                assert_eq!(most, 20);
            }
        }
    }

    #[test]
    fn weights_put_each_level_above_all_the_lower_ones() {
        // 20 ways of one weight never reach the next weight up, in the interleaved order
        // their 0 = own 0 < their 1 < own 1 < their 2 < ... < own 4.
        let mut order = vec![OWN_WEIGHTS[0]];
        for k in 1..FIVE {
            order.push(THEIR_WEIGHTS[k]);
            order.push(OWN_WEIGHTS[k]);
        }
        for pair in order.windows(2) {
            assert!(20 * pair[0] < pair[1], "{pair:?}");
        }
        assert_eq!(OWN_WEIGHTS[0], THEIR_WEIGHTS[0]);
        assert!(20 * OWN_WEIGHTS[4] < u64::MAX / 2);
    }

    #[test]
    fn incremental_table_matches_a_fresh_one() {
        let mut g = Gomoku::new(GomokuRules::new(13, false).unwrap());
        let mut e = GomokuWintable::new(4);
        let mut rng = SmallRng::seed_from_u64(11);
        while g.outcome().is_none() {
            let moves = g.legal_moves();
            let m = moves[rng.gen_range(0..moves.len())];
            e.observe(&g, m);
            g.play(m);
            let fresh = WinTable::with_moves(13, g.moves());
            let kept = e.table.as_ref().unwrap();
            assert_eq!(kept.stones, fresh.stones);
            assert_eq!(kept.played(), g.moves());
        }
        // A take-back and a new game rebuild the table.
        g.undo();
        g.undo();
        e.think(&g, Limits::default());
        assert_eq!(e.table.as_ref().unwrap().played(), g.moves());
        e.new_game();
        assert!(e.table.is_none());
    }

    #[test]
    fn blocks_a_split_four() {
        // (The plain four and the open four are checked for every level in
        // `src/tests/gomoku_levels.rs`.)
        for n in [11, 15, 20] {
            // XX.XX: the gap is the only way left to five.
            let white = [(1, 7), (2, 7), (4, 7), (5, 7)];
            let black = [(9, 1), (0, n - 1), (n - 1, n - 1), (n - 1, 0)];
            let g = position(n, &black, &white);
            let mut e = GomokuWintable::new(2);
            let (p, choice) = e.choose(&g).unwrap();
            assert_eq!(g.coords(p), (3, 7), "size {n}\n{g}");
            assert!(choice.defending);
        }
    }

    #[test]
    fn blocks_an_open_three() {
        // An open three of White's, Black with single stones only: Black blocks next to it.
        let black = [(0, 0), (14, 14), (14, 0)];
        let white = [(5, 7), (6, 7), (7, 7)];
        let g = position(15, &black, &white);
        let (x, y) = play(&g, 1);
        assert!(y == 7 && (3..=9).contains(&x), "({x},{y})\n{g}");
    }
}
