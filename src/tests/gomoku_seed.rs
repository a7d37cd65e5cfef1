//! The seeds' own examples, reproduced through the library: seed 000 (`000_fd222c8917d973db.txt`,
//! the class battle server) steps 6 to 8, and seed 004 (`004_bee1ac9d4f3f5f44.txt`, the win
//! table) and its 5 x 5 example.
//!
//! Seed 000 gives examples for steps 6 and 7 (the game `HHJHKGIILFHJJFJJKFIFKEKHIGGILD`, its
//! board, the four lines of `IG`) but no number for step 8: the step-8 examples here are built
//! from its rules by hand, each worked out in a comment, and include the seed's own game, whose
//! last two moves are what the rules choose.

use stonebrain::engine::gomoku::wintable::{WinTable, BASIC_WEIGHTS};
use stonebrain::game::gomoku::{
    parse_seed_move, parse_seed_moves, seed_board_string, Gomoku, GomokuRules, Point,
};
use stonebrain::game::gomoku_seed::{
    best_points, line_matches, line_score, point_lines, point_score, scores, seed_best_points,
    seed_point_lines, Line, LINE_LEN, OFF_BOARD, SEED_RULES, SEED_RULES_AS_PRINTED,
};
use stonebrain::game::{Color, Game};

/// The example game of steps 6 and 7.
const SEED_GAME: &str = "HHJHKGIILFHJJFJJKFIFKEKHIGGILD";

fn seed_game(moves: usize) -> Gomoku {
    let mut g = Gomoku::default();
    for p in parse_seed_moves(SEED_GAME).unwrap().into_iter().take(moves) {
        g.try_play(p).unwrap();
    }
    g
}

fn at(letters: &str) -> Point {
    parse_seed_move(letters).unwrap()
}

/// A line written as text (9 characters of `.MOC#`).
fn view(text: &str) -> Line {
    assert_eq!(text.len(), LINE_LEN, "{text}");
    text.as_bytes().try_into().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Seed 000, step 6: the board string.

#[test]
fn step_6_board_string_of_the_example_game() {
    let board = seed_board_string(&parse_seed_moves(SEED_GAME).unwrap()).unwrap();
    // Rows A to O, `.` empty, `x` Black, `o` White, no newlines. Worked out move by move:
    // x HH, o JH, x KG, o II, x LF, o HJ, x JF, o JJ, x KF, o IF, x KE, o KH, x IG, o GI, x LD.
    let rows = [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "........o......",
        ".......x.o.....",
        ".....ox.o......",
        ".....x.o.o.....",
        "....xxxo.......",
        "...x.x.........",
        "...............",
        "...............",
        "...............",
    ];
    assert_eq!(board, rows.concat());
    // The stones of each row as the seed's final diagram prints them (its padding was lost):
    // O / X.O / OX.O / X.O.O / XXXO / X.X.
    let spans: Vec<String> = rows
        .iter()
        .map(|r| r.trim_matches('.').to_uppercase())
        .filter(|s| !s.is_empty())
        .collect();
    assert_eq!(spans, ["O", "X.O", "OX.O", "X.O.O", "XXXO", "X.X"]);
}

// ---------------------------------------------------------------------------------------------
// Seed 000, step 7: the four lines of a point.

#[test]
fn step_7_four_lines_of_ig_in_the_seeds_order() {
    // "考察点 IG 的四条线上的棋型分别为 ...OX.O.. / ....XO... / ....X.X.. / ..OXXXXX." (the seed
    // prints capitals; its text says x and o, as the board strings use).
    let lines = seed_point_lines(SEED_GAME, "IG").unwrap();
    assert_eq!(lines, ["...ox.o..", "....xo...", "....x.x..", "..oxxxxx."]);
    let upper: Vec<String> = lines.iter().map(|l| l.to_uppercase()).collect();
    assert_eq!(upper, ["...OX.O..", "....XO...", "....X.X..", "..OXXXXX."]);
    // The same through a game position.
    let g = seed_game(15);
    let from_game: Vec<String> = point_lines(&g, at("IG"))
        .iter()
        .map(|l| String::from_utf8(l.to_vec()).unwrap())
        .collect();
    assert_eq!(from_game, lines);
}

#[test]
fn step_7_lines_stop_at_the_edges_on_every_size() {
    // The seed does not say what a line holds past the edge; `#` there.
    let g = Gomoku::new(GomokuRules::new(11, false).unwrap());
    let text = |p| point_lines(&g, p).map(|l| String::from_utf8(l.to_vec()).unwrap());
    assert_eq!(
        text(g.point(0, 0)),
        ["####.....", "####.....", "####.....", "####.####"]
    );
    assert_eq!(
        text(g.point(10, 10)),
        [".....####", ".....####", ".....####", "####.####"]
    );
    assert_eq!(
        text(g.point(10, 0)),
        [".....####", "####.####", "####.....", "####....."]
    );
    assert_eq!(
        text(g.point(2, 5)),
        ["##.......", "##.......", ".........", ".......##"]
    );
    // On 20 x 20 every line of a middle point is on the board, and each cell is where its
    // direction puts it.
    let mut g = Gomoku::new(GomokuRules::new(20, false).unwrap());
    g.play(g.point(13, 6)); // Black, 3 right and 3 up from (10, 9)
    g.play(g.point(6, 13)); // White, 4 left and 4 down
    g.play(g.point(10, 5)); // Black, 4 up
    let lines = point_lines(&g, g.point(10, 9));
    assert_eq!(&lines[3], b".x......o");
    assert_eq!(&lines[2], b"x........");
    assert!(lines.iter().flatten().all(|&c| c != OFF_BOARD));
}

// ---------------------------------------------------------------------------------------------
// Seed 000, step 8: the ten rules.

#[test]
fn step_8_rules_have_the_seeds_order_numbers_and_patterns() {
    let numbers: Vec<usize> = SEED_RULES.iter().map(|r| r.number).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<_>>());
    let scores: Vec<i32> = SEED_RULES.iter().map(|r| r.score).collect();
    assert_eq!(
        scores,
        [10000, 6000, 5000, 2500, 2000, 400, 400, 200, 50, 20]
    );
    assert_eq!(SEED_RULES[0].name, "致胜棋型");
    assert_eq!(SEED_RULES[9].name, "其他棋型");
    for (rule, printed) in SEED_RULES.iter().zip(SEED_RULES_AS_PRINTED) {
        assert_eq!(rule.patterns.len(), printed.len(), "rule {}", rule.number);
        for (&read, &as_printed) in rule.patterns.iter().zip(printed) {
            // Every pattern holds the point once, and only the legend's letters.
            assert_eq!(read.matches('C').count(), 1, "{read}");
            assert!(read.chars().all(|c| ".MOC".contains(c)), "{read}");
            // The only readings: the digit zero of rules 2 and 4 is the letter O, and rule 5's
            // first pattern lost an M.
            let expected = if (rule.number, as_printed) == (5, "OCMM.") {
                "OCMMM.".to_string()
            } else {
                as_printed.replace('0', "O")
            };
            assert_eq!(read, expected, "rule {}", rule.number);
        }
    }
    assert!(SEED_RULES[9].patterns.is_empty());
}

/// One hand-made line for each rule, scoring that rule alone: changing any rule's number (or
/// pattern) breaks one of these. The point is the middle cell; `#` is off the board.
#[test]
fn step_8_each_rule_scores_its_number() {
    let cases = [
        // 1: "MMMMC" and nothing else (".MMMC." would need an empty cell left of the stones).
        ("MMMMC....", 10000, vec![1]),
        ("##MMCMM..", 10000, vec![1]),
        // 2: "OOOOC".
        ("OOOOC....", 6000, vec![2]),
        // 3: ".CMMM." (not rule 6's ".CMM.": the fourth cell after C is a stone).
        ("....CMMM.", 5000, vec![3]),
        // 4: ".OOOC" (not rule 7's ".OOC": the cell before is a stone).
        (".OOOC....", 2500, vec![4]),
        // 5: "OMMMC." (not rule 8's "OMMC.").
        ("OMMMC....", 2000, vec![5]),
        // 6: ".MMC." (not rule 9's ".MC.").
        ("..MMC....", 400, vec![6]),
        // 7: ".OOC".
        ("..OOC....", 400, vec![7]),
        // 7: "MOOOC" (not rule 4, the three is blocked; not rule 8's "MOOC" whose Os touch C
        // and M at once).
        ("MOOOC....", 400, vec![7]),
        // 8: "OMMC.".
        (".OMMC....", 200, vec![8]),
        // 8: "COOM".
        ("....COOM.", 200, vec![8]),
        // 9: ".MC.".
        ("...MC....", 50, vec![9]),
        // 10: nothing else.
        ("....C....", 20, vec![10]),
        ("####C####", 20, vec![10]),
        // A stone of each side next to the point is no pattern either.
        ("...OCM...", 20, vec![10]),
    ];
    for (text, score, rules) in cases {
        let v = view(text);
        let found: Vec<usize> = line_matches(&v).iter().map(|(r, _)| r.number).collect();
        assert_eq!(found, rules, "{text}");
        assert_eq!(line_score(&v), score, "{text}");
    }
}

#[test]
fn step_8_matches_in_one_line_add_up() {
    // "每得到一个匹配，将对应的分数加上": five for us and a blocked five for them at once.
    assert_eq!(line_score(&view("OOOOCMMMM")), 10000 + 6000);
    // Rule 1 twice: the point completes five two ways in a line of nine.
    assert_eq!(line_score(&view("MMMMCMMMM")), 5 * 10000);
    // A split three made a split four, open at both ends: rule 3 (".MMCM."), and none of rule
    // 6's patterns, each of which wants an empty cell where this line has a stone.
    assert_eq!(line_score(&view("..MMCM...")), 5000);
    // Rules 7 and 8 together: ".OOC" on the left, "COOM" on the right.
    assert_eq!(line_score(&view("..OOCOOM.")), 400 + 200);
    // An edge is not an opponent: "#CMMM." is no rule 5, but "OCMMM." is.
    assert_eq!(line_score(&view("###.CMMM.")), 5000);
    assert_eq!(line_score(&view("####CMMM.")), 20);
    assert_eq!(line_score(&view("...OCMMM.")), 2000);
}

#[test]
fn step_8_on_an_empty_board_every_point_scores_80() {
    for n in [11, 15, 20] {
        let g = Gomoku::new(GomokuRules::new(n, false).unwrap());
        let all = scores(&g);
        assert_eq!(all.len(), n * n);
        assert!(all.iter().all(|&(_, s)| s == 4 * 20));
    }
}

/// The seed's own game, scored by its own rules, plays its own last two moves.
///
/// After 13 moves White is to move, and Black's diagonal HH-IG-JF-KE is a four open at both GI
/// and LD. For White (M = o, O = x):
/// * GI: `/` line `....COOOO` (rule 2, 6000), `\` line `....CM...` with HJ (rule 9, 50), across
///   `....C....` and down `....C.M..` (rule 10, 20 each): 6090;
/// * LD: `/` line `OOOOC...#` (6000), across `#...C.O..`, `\` `#...C...#`, down `....C...#` (20
///   each): 6060.
///
/// GI is the best point, and the game's 14th move is GI. Then Black is to move, and LD makes
/// five: `/` line `MMMMC...#` (rule 1) and 20 on each other line: 10060, the game's 15th move.
#[test]
fn step_8_the_seed_game_plays_its_last_two_moves() {
    let g = seed_game(13);
    assert_eq!(g.side_to_move(), Color::White);
    assert_eq!(point_score(&g, at("GI"), Color::White), 6090);
    assert_eq!(point_score(&g, at("LD"), Color::White), 6060);
    assert_eq!(best_points(&g), Some((vec![at("GI")], 6090)));
    let board_13 = &SEED_GAME[..26];
    assert_eq!(
        seed_best_points(board_13),
        Ok((vec!["GI".to_string()], 6090))
    );

    let g = seed_game(14);
    assert_eq!(g.side_to_move(), Color::Black);
    assert_eq!(point_score(&g, at("LD"), Color::Black), 10060);
    assert_eq!(best_points(&g), Some((vec![at("LD")], 10060)));
    assert_eq!(
        seed_best_points(&SEED_GAME[..28]),
        Ok((vec!["LD".to_string()], 10060))
    );
    // Two more from the same position: White's blocked three HJ-II-JH (KG is Black's) seen by
    // Black at GK: `....COOOM`, rule 7 "COOOM" (400) and 20 on each other line; and Black's
    // three KE-KF-KG, blocked by KH, made a four at KD: across `#...CMMMO`, rule 5 ".CMMMO"
    // (2000), and 20 on each other line.
    assert_eq!(point_score(&g, at("GK"), Color::Black), 400 + 3 * 20);
    let kd = point_lines(&g, at("KD"));
    assert_eq!(&kd[0], b"#....xxxo");
    assert_eq!(point_score(&g, at("KD"), Color::Black), 2000 + 3 * 20);

    // Asking after the end is refused; so is a bad board.
    assert!(seed_best_points(SEED_GAME).is_err());
    assert!(seed_best_points("HHHH").is_err());
}

/// The seed's scores are summed, so two rule-2 lines (12000) outrank one rule-1 line (10000):
/// the seed's player blocks a double four rather than make its own five. Pinned, since the
/// `classic` level plays the seed's method as it is.
#[test]
fn step_8_two_blocks_outscore_a_five() {
    let mut g = Gomoku::default();
    let black = [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (0, 14),
        (2, 14),
        (4, 14),
        (6, 14),
    ];
    let white = [
        (6, 10),
        (7, 10),
        (8, 10),
        (9, 10),
        (10, 6),
        (10, 7),
        (10, 8),
        (10, 9),
    ];
    for (&(bx, by), &(wx, wy)) in black.iter().zip(&white) {
        g.play(g.point(bx, by));
        g.play(g.point(wx, wy));
    }
    assert_eq!(g.side_to_move(), Color::Black);
    assert_eq!(point_score(&g, g.point(4, 0), Color::Black), 10060);
    assert_eq!(point_score(&g, g.point(10, 10), Color::Black), 12040);
    assert_eq!(best_points(&g), Some((vec![g.point(10, 10)], 12040)));
}

// ---------------------------------------------------------------------------------------------
// Seed 004: the win table and its 5 x 5 example.

/// The seed's table of the 12 ways on 5 x 5, as `(x, y)`: rows 0 to 4 (横向), columns 0 to 4
/// (纵向), then the two diagonals (交叉).
#[test]
fn win_table_lists_the_seeds_twelve_ways_in_order() {
    let t = WinTable::new(5);
    assert_eq!(t.way_count(), 12);
    let xy = |w: usize| -> Vec<(usize, usize)> {
        t.way(w)
            .iter()
            .map(|&p| (p as usize % 5, p as usize / 5))
            .collect()
    };
    for y in 0..5 {
        assert_eq!(xy(y), (0..5).map(|x| (x, y)).collect::<Vec<_>>());
    }
    for x in 0..5 {
        assert_eq!(xy(5 + x), (0..5).map(|y| (x, y)).collect::<Vec<_>>());
    }
    assert_eq!(xy(10), [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]);
    assert_eq!(xy(11), [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)]);
    // "(0,0) 点举例：即有0, 5, 10三种获胜方式".
    assert_eq!(t.ways_through(0), &[0, 5, 10]);
    // Counts on the boards stonebrain plays: 15 x 15 has 572 ways.
    assert_eq!(WinTable::new(15).way_count(), 572);
}

/// The seed's worked example: the person plays (1, 1); the ways 1, 6 and 10 die for the machine;
/// both sides' points are scored one per open way; the person's best (4, the centre) beats the
/// machine's (3), so the machine plays the centre.
///
/// The seed prints both score tables (`ScoreC[y][x]`, `ScoreP[y][x]`). Its `ScoreP` is exactly
/// what the method gives. Its `ScoreC` has five slips: with row 1, column 1 and the main
/// diagonal dead for the machine, the table must be symmetric about that diagonal (so must the
/// board), yet the seed prints row 1 as `1, 0, 2, 3, 2` against column 1's `1, 0, 1, 1, 2`.
/// Counting the open ways gives row 1 `1, 0, 1, 2, 1` (e.g. (2, 1) lies on row 1, dead, and
/// column 2, open: 1), row 3 `2, 2, 2, 2, 2` and row 4 `3, 1, 2, 2, 2`. The machine's best is 3
/// either way, so the seed's conclusion stands.
#[test]
fn win_table_reproduces_the_seeds_5x5_example() {
    let person = Color::Black;
    let machine = Color::White;
    let mut t = WinTable::new(5);
    t.play(6, person); // (1, 1)
    for w in 0..12 {
        assert_eq!(t.is_open(w, machine), ![1, 6, 10].contains(&w), "way {w}");
        assert!(t.is_open(w, person));
        assert_eq!(t.stones_in(w, person), usize::from([1, 6, 10].contains(&w)));
    }
    let table = |c: Color| -> Vec<Vec<u64>> {
        t.scores(c, &BASIC_WEIGHTS)
            .chunks(5)
            .map(|r| r.to_vec())
            .collect()
    };
    let score_p = [
        [3, 2, 2, 2, 3],
        [2, 0, 2, 3, 2],
        [2, 2, 4, 2, 2],
        [2, 3, 2, 3, 2],
        [3, 2, 2, 2, 3],
    ];
    assert_eq!(table(person), score_p);
    let score_c_counted = [
        [2, 1, 2, 2, 3],
        [1, 0, 1, 2, 1],
        [2, 1, 3, 2, 2],
        [2, 2, 2, 2, 2],
        [3, 1, 2, 2, 2],
    ];
    assert_eq!(table(machine), score_c_counted);
    let score_c_printed = [
        [2, 1, 2, 2, 3],
        [1, 0, 2, 3, 2],
        [2, 1, 3, 2, 2],
        [2, 1, 2, 2, 2],
        [3, 2, 2, 2, 2],
    ];
    let slips: Vec<(usize, usize)> = (0..5)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .filter(|&(x, y)| score_c_printed[y][x] != score_c_counted[y][x])
        .collect();
    assert_eq!(slips, [(2, 1), (3, 1), (4, 1), (1, 3), (1, 4)]);
    let max = |m: &[[u64; 5]; 5]| m.iter().flatten().copied().max().unwrap();
    assert_eq!(max(&score_c_printed), max(&score_c_counted));

    let choice = t.choice(machine, &BASIC_WEIGHTS, &BASIC_WEIGHTS).unwrap();
    assert!(choice.defending);
    assert_eq!(choice.points, [12]); // (2, 2)
    assert_eq!(choice.score, 4);
}
