//! The line codes against a computation from scratch, the board's symmetries and the exchange
//! of colours.

use super::codes::{half_code, half_codes, half_digits, line_codes, LineCodes, MAX_REACH};
use crate::engine::connect6::prepared::transform;
use crate::game::connect6::Stone;
use crate::game::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Every code of the views on the board, in cell order then direction.
fn all_codes(codes: &LineCodes) -> Vec<u32> {
    let n = codes.size();
    (0..n * n)
        .flat_map(|p| (0..4).map(move |d| codes.code(p as Stone, d)))
        .collect()
}

/// The image of cell `p` under symmetry `s` (0 to 7) of an `n` by `n` board, as the prepared
/// book maps its keys.
fn image(p: Stone, s: usize, n: usize) -> Stone {
    let (x, y) = transform(s, ((p as usize % n) as u8, (p as usize / n) as u8), n as u8);
    (y as usize * n + x as usize) as Stone
}

/// A random position of `count` stones, colours alternating from Black.
fn random_stones(rng: &mut SmallRng, n: usize, count: usize) -> Vec<(Stone, Color)> {
    let mut free: Vec<Stone> = (0..(n * n) as Stone).collect();
    (0..count)
        .map(|i| {
            let p = free.swap_remove(rng.gen_range(0..free.len()));
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            (p, color)
        })
        .collect()
}

#[test]
fn half_line_codes_are_dense_and_read_back() {
    assert_eq!(half_codes(5), 364);
    assert_eq!(half_codes(4), 121);
    assert_eq!(line_codes(5), 397_488);
    assert_eq!(line_codes(4), 43_923);
    for code in 0..half_codes(MAX_REACH) {
        let digits = half_digits(code);
        assert!(digits.len() <= MAX_REACH, "{code}: {digits:?}");
        assert!(digits.iter().all(|&d| d < 3), "{code}: {digits:?}");
        assert_eq!(half_code(&digits), code, "{digits:?}");
    }
    // Shorter half-lines come first, then the nearest cell is the lowest digit.
    assert_eq!(half_code(&[]), 0);
    assert_eq!(half_code(&[0]), 1);
    assert_eq!(half_code(&[2, 1]), 4 + 2 + 3);
}

#[test]
fn a_stone_next_to_a_cell_is_its_nearest_digit() {
    // Black on the centre of 19x19: the cell to its right sees it as the nearest cell behind
    // it horizontally; both half-lines have their five cells on the board.
    let n = 19;
    let mut codes = LineCodes::new(n, 5);
    let centre = (9 * n + 9) as Stone;
    codes.place(centre, Color::Black);
    let right = centre + 1;
    let empty_five = half_code(&[0; 5]);
    let black_first = half_code(&[1, 0, 0, 0, 0]);
    assert_eq!((empty_five, black_first), (121, 122));
    assert_eq!(codes.code(right, 0), empty_five * 364 + black_first);
    // Vertically that cell does not see the stone.
    assert_eq!(codes.code(right, 1), empty_five * 364 + empty_five);
    // The stone's own cell: digit 1 in the centre.
    assert_eq!(
        codes.code(centre, 0),
        364 * 364 + empty_five * 364 + empty_five
    );
    // White reads the same stone as the other colour's.
    let white_first = half_code(&[2, 0, 0, 0, 0]);
    assert_eq!(
        codes.code_for(right, 0, Color::White),
        empty_five * 364 + white_first
    );
    // In a corner the half-line behind is off the board (code 0, no cells), so the view is the
    // half-line ahead alone.
    assert_eq!(half_code(&[]), 0);
    assert_eq!(codes.code(0, 0), empty_five);
}

#[test]
fn placing_and_removing_stones_matches_the_codes_computed_afresh() {
    let mut rng = SmallRng::seed_from_u64(83);
    for (n, reach) in [(6, 5), (15, 4), (19, 5), (19, 1)] {
        let mut codes = LineCodes::new(n, reach);
        let mut on: Vec<(Stone, Color)> = Vec::new();
        for step in 0..300 {
            let take_back = !on.is_empty() && (rng.gen_bool(0.3) || on.len() + 1 >= n * n);
            if take_back {
                let (p, color) = on.swap_remove(rng.gen_range(0..on.len()));
                codes.remove(p, color);
            } else {
                let p = loop {
                    let p = rng.gen_range(0..(n * n) as Stone);
                    if on.iter().all(|&(q, _)| q != p) {
                        break p;
                    }
                };
                let color = if rng.gen_bool(0.5) {
                    Color::Black
                } else {
                    Color::White
                };
                codes.place(p, color);
                on.push((p, color));
            }
            let fresh = LineCodes::of_stones(n, reach, &on);
            assert!(codes == fresh, "{n}x{n}, reach {reach}, step {step}");
            if step % 50 == 0 {
                assert!(all_codes(&codes).iter().all(|&c| c < line_codes(reach)));
            }
        }
    }
}

#[test]
fn a_stone_changes_exactly_the_views_it_touches() {
    let mut rng = SmallRng::seed_from_u64(84);
    for (n, reach) in [(19, 5), (7, 4)] {
        let stones = random_stones(&mut rng, n, n * n / 4);
        let mut codes = LineCodes::of_stones(n, reach, &stones);
        for _ in 0..40 {
            let p = loop {
                let p = rng.gen_range(0..(n * n) as Stone);
                if stones.iter().all(|&(q, _)| q != p) {
                    break p;
                }
            };
            let before = all_codes(&codes);
            codes.place(p, Color::White);
            let after = all_codes(&codes);
            codes.remove(p, Color::White);
            let changed: HashSet<(Stone, usize)> = (0..before.len())
                .filter(|&i| before[i] != after[i])
                .map(|i| ((i / 4) as Stone, i % 4))
                .collect();
            let touched: HashSet<(Stone, usize)> = codes.touched_by(p).into_iter().collect();
            assert_eq!(changed, touched, "{n}x{n}, stone on {p}");
            assert_eq!(all_codes(&codes), before);
        }
    }
}

#[test]
fn the_board_symmetries_permute_the_codes() {
    let mut rng = SmallRng::seed_from_u64(85);
    for (n, reach) in [(19, 5), (15, 4), (6, 5)] {
        let stones = random_stones(&mut rng, n, n * n / 3);
        let codes = LineCodes::of_stones(n, reach, &stones);
        let mut base = all_codes(&codes);
        base.sort_unstable();
        for s in 1..8 {
            let moved: Vec<(Stone, Color)> =
                stones.iter().map(|&(p, c)| (image(p, s, n), c)).collect();
            let mut seen = all_codes(&LineCodes::of_stones(n, reach, &moved));
            seen.sort_unstable();
            assert_eq!(seen, base, "{n}x{n}, symmetry {s}");
            // Cell by cell: each cell's four views, as a set, go with the cell.
            let image_codes = LineCodes::of_stones(n, reach, &moved);
            for p in 0..(n * n) as Stone {
                let mut a: Vec<u32> = (0..4).map(|d| codes.code(p, d)).collect();
                let mut b: Vec<u32> = (0..4)
                    .map(|d| image_codes.code(image(p, s, n), d))
                    .collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{n}x{n}, symmetry {s}, cell {p}");
            }
        }
    }
}

#[test]
fn each_side_reads_its_own_stones_alike() {
    let mut rng = SmallRng::seed_from_u64(86);
    let n = 19;
    let stones = random_stones(&mut rng, n, 120);
    let exchanged: Vec<(Stone, Color)> = stones.iter().map(|&(p, c)| (p, c.opponent())).collect();
    let codes = LineCodes::of_stones(n, 5, &stones);
    let other = LineCodes::of_stones(n, 5, &exchanged);
    let mut differ = 0;
    for p in 0..(n * n) as Stone {
        for d in 0..4 {
            assert_eq!(
                codes.code_for(p, d, Color::White),
                other.code_for(p, d, Color::Black)
            );
            assert_eq!(codes.code_for(p, d, Color::Black), codes.code(p, d));
            differ += usize::from(codes.code_for(p, d, Color::White) != codes.code(p, d));
        }
    }
    // The exchange is not the identity: most views with a stone in them change.
    assert!(differ > n * n, "{differ}");
}
