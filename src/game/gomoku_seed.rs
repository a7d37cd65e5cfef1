//! The building blocks of the seed-000 class server (`000_fd222c8917d973db.txt`), steps 7 and 8:
//! the four 9-point line patterns of a point, and the ten scoring rules of the simple player the
//! seed teaches. The notation of step 6 (two-letter moves, board strings) lives with the rules in
//! `gomoku.rs`; this module only reads positions, it plays nothing and chooses nothing (the
//! `classic` engine does that).
//!
//! Step 7: a point lies on four lines; since only five in a row matters, only the points up to
//! four away on each side are looked at, which gives four strings of nine cells with the point in
//! the middle. The seed's example (the step-6 game `HHJHKGIILFHJJFJJKFIFKEKHIGGILD`, point `IG`)
//! prints them as `...OX.O..`, `....XO...`, `....X.X..`, `..OXXXXX.`: across, the `\` diagonal,
//! down, the `/` diagonal, each read in the order of the board string (left to right, top to
//! bottom). `LINE_DIRECTIONS` is that order, so the seed's example comes out exactly.
//!
//! Step 8: every empty point is scored from its four lines, seen from the side to move: `M` its
//! own stones, `O` the opponent's, `.` empty, `C` the point itself. Each rule lists patterns;
//! every pattern found in a line adds the rule's score ("每得到一个匹配，将对应的分数加上"), and
//! the point's score is the sum over its four lines. The player then takes a point of highest
//! score, any of them when several tie.

use super::gomoku::{parse_seed_move, parse_seed_moves, Gomoku, Point, SEED_SIZE};
use super::{Color, Game};

/// Cells looked at on each side of the point.
pub const REACH: usize = 4;
/// Cells in a line pattern: the point and `REACH` on each side.
pub const LINE_LEN: usize = 2 * REACH + 1;

/// The four lines through a point as `(dx, dy)` steps, in the seed's order for its `IG` example:
/// across, the `\` diagonal, down, the `/` diagonal (drawn from its top-right end). Walking
/// each from `-REACH` to `+REACH` visits the cells in the board string's order.
pub const LINE_DIRECTIONS: [(i64, i64); 4] = [(1, 0), (1, 1), (0, 1), (-1, 1)];

/// An empty point, in the seed's board strings and line patterns.
pub const EMPTY: u8 = b'.';
/// A black stone (the seed's text writes `x`; some of its diagrams print `X`).
pub const BLACK: u8 = b'x';
/// A white stone (`o`; `O` in some diagrams).
pub const WHITE: u8 = b'o';
/// A cell past the edge of the board. The seed never says what its lines hold there; this mark
/// is none of the pattern letters, so no rule pattern can run over the edge (an edge blocks a
/// line, but it is not an opponent's stone).
pub const OFF_BOARD: u8 = b'#';

/// One 9-cell line pattern.
pub type Line = [u8; LINE_LEN];

/// The four line patterns of the point at column `x`, row `y` of an `n` x `n` board, in
/// `LINE_DIRECTIONS` order. `at(x, y)` gives the cell on the board (`EMPTY`, `BLACK` or
/// `WHITE`); cells off the board are `OFF_BOARD`.
pub fn lines_at(n: usize, x: usize, y: usize, at: impl Fn(usize, usize) -> u8) -> [Line; 4] {
    LINE_DIRECTIONS.map(|(dx, dy)| {
        let mut line = [OFF_BOARD; LINE_LEN];
        for (i, cell) in line.iter_mut().enumerate() {
            let k = i as i64 - REACH as i64;
            let (cx, cy) = (x as i64 + k * dx, y as i64 + k * dy);
            if (0..n as i64).contains(&cx) && (0..n as i64).contains(&cy) {
                *cell = at(cx as usize, cy as usize);
            }
        }
        line
    })
}

fn cell_of(c: Option<Color>) -> u8 {
    match c {
        Some(Color::Black) => BLACK,
        Some(Color::White) => WHITE,
        None => EMPTY,
    }
}

/// The four line patterns of point `p` of a game (any size), the point's own cell included as it
/// stands.
pub fn point_lines(g: &Gomoku, p: Point) -> [Line; 4] {
    let n = g.size();
    let (x, y) = g.coords(p);
    lines_at(n, x, y, |cx, cy| {
        cell_of(g.color_at((cy * n + cx) as Point))
    })
}

/// Step 7 on the seed server's own terms: the board as its moves (`HHJHKG...`), the point as two
/// letters; the four patterns as text, `.`, `x`, `o` and `#` (off the board).
pub fn seed_point_lines(board: &str, coord: &str) -> Result<[String; 4], String> {
    let moves = parse_seed_moves(board)?;
    let p = parse_seed_move(coord)?;
    let g = seed_position(&moves)?;
    Ok(point_lines(&g, p).map(|l| l.iter().map(|&b| b as char).collect()))
}

/// The 15 x 15 position after the seed-notation `moves`, refusing an occupied point and play
/// after the game was won.
fn seed_position(moves: &[Point]) -> Result<Gomoku, String> {
    let mut g = Gomoku::default();
    debug_assert_eq!(g.size(), SEED_SIZE);
    for (i, &p) in moves.iter().enumerate() {
        g.try_play(p).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(g)
}

// ---------------------------------------------------------------------------------------------
// Step 8: the ten rules.

/// The side to move's own stone, in a line seen by `mover_view`.
pub const MINE: u8 = b'M';
/// The opponent's stone.
pub const THEIRS: u8 = b'O';
/// The point being scored.
pub const CURRENT: u8 = b'C';

/// A line as the scoring rules read it: stones of `me` become `M`, the opponent's `O`, the
/// middle cell (the point being scored, empty) `C`; empty points and `OFF_BOARD` stay.
pub fn mover_view(line: &Line, me: Color) -> Line {
    let (mine, theirs) = match me {
        Color::Black => (BLACK, WHITE),
        Color::White => (WHITE, BLACK),
    };
    let mut view = line.map(|b| {
        if b == mine {
            MINE
        } else if b == theirs {
            THEIRS
        } else {
            b
        }
    });
    view[REACH] = CURRENT;
    view
}

/// One of the seed's rules: its number (1..=10), its heading, its score and its patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedRule {
    pub number: usize,
    /// The seed's heading for the rule.
    pub name: &'static str,
    pub score: i32,
    /// The patterns, as read (see `SEED_RULES_AS_PRINTED` for the seed's exact text). Empty for
    /// rule 10, which scores a line that matches no pattern of the nine others.
    pub patterns: &'static [&'static str],
}

/// The ten rules of step 8, in the seed's order with the seed's numbers. The patterns are the
/// seed's, read in two places where its text cannot mean what it prints:
///
/// * rules 2 and 4 print the opponent's stones as the digit zero (`"O000C"`, `".00C0."`) next to
///   the letter `O` of the same patterns; the seed's legend knows only `.`, `M`, `O` and `C`,
///   so the zeros are read as `O`;
/// * rule 5 prints `"OCMM."` first among eight patterns that are otherwise all a four blocked at
///   one end (`"OMCMM."`, `"OMMCM."`, ..., as the rule's text says: "一端被挡住的四个连续棋子"); a
///   letter was lost, and it is read as `"OCMMM."` (`"OCMM."` is rule 8's, a blocked three).
pub static SEED_RULES: [SeedRule; 10] = [
    SeedRule {
        number: 1,
        name: "致胜棋型",
        score: 10000,
        patterns: &["CMMMM", "MCMMM", "MMCMM", "MMMCM", "MMMMC"],
    },
    SeedRule {
        number: 2,
        name: "必须防守棋型",
        score: 6000,
        patterns: &["OOOOC", "COOOO"],
    },
    SeedRule {
        number: 3,
        name: "两步致胜棋型",
        score: 5000,
        patterns: &[".CMMM.", ".MCMM.", ".MMCM.", ".MMMC."],
    },
    SeedRule {
        number: 4,
        name: "两步防守棋型",
        score: 2500,
        patterns: &["COOO.", ".OOOC", ".OOCO.", ".OCOO."],
    },
    SeedRule {
        number: 5,
        name: "进攻模型",
        score: 2000,
        patterns: &[
            "OCMMM.", "OMCMM.", "OMMCM.", "OMMMC.", ".CMMMO", ".MCMMO", ".MMCMO", ".MMMCO",
        ],
    },
    SeedRule {
        number: 6,
        name: "两步进攻模型",
        score: 400,
        patterns: &[".MMC.", ".MCM.", ".CMM."],
    },
    SeedRule {
        number: 7,
        name: "预防模型",
        score: 400,
        patterns: &[".OOC", "COO.", "MOOOC", "COOOM"],
    },
    SeedRule {
        number: 8,
        name: "无效进攻防守模型",
        score: 200,
        patterns: &[
            ".MMCO", ".MCMO", ".CMMO", "OMMC.", "OMCM.", "OCMM.", "MOOC", "COOM",
        ],
    },
    SeedRule {
        number: 9,
        name: "布局棋型",
        score: 50,
        patterns: &[".MC.", ".CM."],
    },
    SeedRule {
        number: 10,
        name: "其他棋型",
        score: 20,
        patterns: &[],
    },
];

/// The patterns of the ten rules character for character as the seed prints them, kept to show
/// what `SEED_RULES` reads differently (and a test checks that nothing else differs).
pub const SEED_RULES_AS_PRINTED: [&[&str]; 10] = [
    &["CMMMM", "MCMMM", "MMCMM", "MMMCM", "MMMMC"],
    &["O000C", "C000O"],
    &[".CMMM.", ".MCMM.", ".MMCM.", ".MMMC."],
    &["C000.", ".000C", ".00C0.", ".0C00."],
    &[
        "OCMM.", "OMCMM.", "OMMCM.", "OMMMC.", ".CMMMO", ".MCMMO", ".MMCMO", ".MMMCO",
    ],
    &[".MMC.", ".MCM.", ".CMM."],
    &[".OOC", "COO.", "MOOOC", "COOOM"],
    &[
        ".MMCO", ".MCMO", ".CMMO", "OMMC.", "OMCM.", "OCMM.", "MOOC", "COOM",
    ],
    &[".MC.", ".CM."],
    &[],
];

/// Whether `pattern` occurs in `view`.
fn contains(view: &Line, pattern: &str) -> bool {
    let pattern = pattern.as_bytes();
    pattern.len() <= view.len() && view.windows(pattern.len()).any(|w| w == pattern)
}

/// Every (rule, pattern) of rules 1 to 9 found in a line seen by `mover_view`, in the seed's
/// order; rule 10 when none is. Each pattern holds the one `C`, so it can occur only once.
pub fn line_matches(view: &Line) -> Vec<(&'static SeedRule, &'static str)> {
    let found: Vec<(&SeedRule, &str)> = SEED_RULES
        .iter()
        .flat_map(|rule| rule.patterns.iter().map(move |&pat| (rule, pat)))
        .filter(|&(_, pat)| contains(view, pat))
        .collect();
    if found.is_empty() {
        vec![(&SEED_RULES[9], "")]
    } else {
        found
    }
}

/// The score of a line seen by `mover_view`: the sum of the scores of its matches.
pub fn line_score(view: &Line) -> i32 {
    line_matches(view).iter().map(|(rule, _)| rule.score).sum()
}

/// The step-8 score of the empty point `p` for `me`: the four lines' scores added up. (Only
/// empty points are scored; on an occupied point the stone there is replaced by `C` as if it
/// were empty.)
pub fn point_score(g: &Gomoku, p: Point, me: Color) -> i32 {
    point_lines(g, p)
        .iter()
        .map(|line| line_score(&mover_view(line, me)))
        .sum()
}

/// Every empty point with its step-8 score for the side to move, in point order.
pub fn scores(g: &Gomoku) -> Vec<(Point, i32)> {
    let me = g.side_to_move();
    (0..g.points() as Point)
        .filter(|&p| g.color_at(p).is_none())
        .map(|p| (p, point_score(g, p, me)))
        .collect()
}

/// The points of highest step-8 score for the side to move, in point order, and that score;
/// `None` on a full board. The seed takes any one of them ("随意选择一个").
pub fn best_points(g: &Gomoku) -> Option<(Vec<Point>, i32)> {
    let all = scores(g);
    let top = all.iter().map(|&(_, s)| s).max()?;
    Some((
        all.iter()
            .filter(|&&(_, s)| s == top)
            .map(|&(p, _)| p)
            .collect(),
        top,
    ))
}

/// Step 8 on the server's terms: the board as its moves (`HHJHKG...`). The side to move follows
/// from the number of stones (Black moves first: "服务器不会告诉你，你是白棋还是黑棋，你需要根据
/// 规则自己确定"). Returns the best points as two-letter coordinates and their score.
pub fn seed_best_points(board: &str) -> Result<(Vec<String>, i32), String> {
    let moves = parse_seed_moves(board)?;
    let g = seed_position(&moves)?;
    if g.outcome().is_some() {
        return Err("the game is already over".to_string());
    }
    let (points, top) = best_points(&g).ok_or("the board is full")?;
    Ok((
        points
            .into_iter()
            .map(super::gomoku::seed_move_text)
            .collect(),
        top,
    ))
}
