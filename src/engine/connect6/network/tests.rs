//! The network's table rows, file and accumulators.

use super::accumulator::Accumulator;
use super::codes::{half_codes, LineCodes};
use super::model::{table_row, table_rows, Network, EXTRA, HEADER_SIZE};
use crate::game::connect6::Stone;
use crate::game::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

#[test]
fn the_table_rows_number_the_folded_codes_densely() {
    for reach in 1..=4 {
        let h = half_codes(reach);
        let mut rows = HashSet::new();
        for centre in 0..3 {
            for lo in 0..h {
                for hi in lo..h {
                    let row = table_row((centre * h + lo) * h + hi, h);
                    assert!((row as usize) < table_rows(reach), "reach {reach}");
                    assert!(rows.insert(row), "reach {reach}: row {row} twice");
                }
            }
        }
        assert_eq!(rows.len(), table_rows(reach), "reach {reach}");
    }
    assert_eq!(table_rows(4), 22_143);
}

#[test]
fn every_code_of_a_board_has_a_row() {
    let mut rng = SmallRng::seed_from_u64(5);
    let stones = random_stones(&mut rng, 19, 120);
    let codes = LineCodes::of_stones(19, 4, &stones);
    for p in 0..361 {
        for dir in 0..4 {
            for side in [Color::Black, Color::White] {
                let row = table_row(codes.code_for(p, dir, side), half_codes(4));
                assert!((row as usize) < table_rows(4));
            }
        }
    }
}

fn random_stones(rng: &mut SmallRng, n: usize, count: usize) -> Vec<(Stone, Color)> {
    let mut free: Vec<Stone> = (0..(n * n) as Stone).collect();
    (0..count)
        .map(|i| {
            let p = free.swap_remove(rng.gen_range(0..free.len()));
            (p, [Color::Black, Color::White][i % 2])
        })
        .collect()
}

/// Both sides' sums of `acc` equal those of an accumulator built from scratch for `on`.
fn assert_as_from_scratch(
    acc: &Accumulator,
    net: &Network,
    size: usize,
    on: &[(Stone, Color)],
    (reach, step): (usize, usize),
) {
    let fresh = Accumulator::of_stones(net, size, on);
    for side in [Color::Black, Color::White] {
        let (got, want) = (acc.sum(net, side), fresh.sum(net, side));
        assert_eq!(got, want, "size {size}, reach {reach}, step {step}");
    }
}

/// Places a stone (Black on even steps) on a random empty cell of the `size` board, on `acc`
/// and in `on`.
fn place_somewhere(
    rng: &mut SmallRng,
    net: &Network,
    acc: &mut Accumulator,
    on: &mut Vec<(Stone, Color)>,
    size: usize,
    step: usize,
) {
    let p = loop {
        let p = rng.gen_range(0..(size * size) as Stone);
        if on.iter().all(|&(q, _)| q != p) {
            break p;
        }
    };
    let c = [Color::Black, Color::White][step % 2];
    acc.place(net, p, c);
    on.push((p, c));
}

/// The accumulators after stones come and go equal those computed from scratch, exactly (they
/// are sums of integers), on boards of several sizes and reaches.
#[test]
fn the_accumulators_follow_the_stones_exactly() {
    let mut rng = SmallRng::seed_from_u64(11);
    for (size, reach) in [(6, 1), (15, 3), (19, 4)] {
        let net = Network::random(reach, 8, 4, 3);
        let mut acc = Accumulator::of_stones(&net, size, &[]);
        let mut on: Vec<(Stone, Color)> = Vec::new();
        for step in 0..300 {
            let full = on.len() == size * size;
            if !on.is_empty() && (full || rng.gen_bool(0.4)) {
                let (p, c) = on.swap_remove(rng.gen_range(0..on.len()));
                acc.remove(&net, p, c);
            } else {
                place_somewhere(&mut rng, &net, &mut acc, &mut on, size, step);
            }
            if step % 37 == 0 || step == 299 {
                assert_as_from_scratch(&acc, &net, size, &on, (reach, step));
            }
        }
    }
}

/// A search takes stones back in the reverse order it placed them, and the accumulators then
/// put back the sums saved before each stone instead of swapping rows: after nested runs of
/// places and take-backs, with now and then a stone taken out of order (which drops the saved
/// sums), they still equal the sums from scratch, exactly, at every step.
#[test]
fn stones_taken_back_in_order_restore_the_sums_exactly() {
    let mut rng = SmallRng::seed_from_u64(12);
    for (size, reach) in [(9, 2), (19, 4)] {
        let net = Network::random(reach, 8, 4, 5);
        let start = random_stones(&mut rng, size, 20);
        let mut acc = Accumulator::of_stones(&net, size, &start);
        let mut on = start.clone();
        for step in 0..400 {
            let roll = rng.gen_range(0..10);
            if roll < 5 || on.is_empty() {
                place_somewhere(&mut rng, &net, &mut acc, &mut on, size, step);
            } else if roll < 9 {
                let (p, c) = on.pop().unwrap();
                acc.remove(&net, p, c);
            } else {
                let (p, c) = on.swap_remove(rng.gen_range(0..on.len()));
                acc.remove(&net, p, c);
            }
            assert_as_from_scratch(&acc, &net, size, &on, (reach, step));
        }
    }
}

/// White's reading of a position is Black's reading of the position with the colours
/// exchanged, so one table serves both sides.
#[test]
fn the_sides_read_the_colour_exchanged_board_alike() {
    let mut rng = SmallRng::seed_from_u64(2);
    let net = Network::random(4, 8, 4, 9);
    let stones = random_stones(&mut rng, 19, 60);
    let swapped: Vec<_> = stones.iter().map(|&(p, c)| (p, c.opponent())).collect();
    let a = Accumulator::of_stones(&net, 19, &stones);
    let b = Accumulator::of_stones(&net, 19, &swapped);
    assert_eq!(a.sum(&net, Color::White), b.sum(&net, Color::Black));
    assert_eq!(a.sum(&net, Color::Black), b.sum(&net, Color::White));
    assert_ne!(a.sum(&net, Color::Black), a.sum(&net, Color::White));
}

/// The head by hand on a tiny network: one hidden unit that reads the first accumulator entry.
#[test]
fn the_head_clips_the_accumulators_and_adds_the_fitted_logit() {
    let mut net = Network::random(1, 2, 1, 1);
    net.w1 = vec![0.0; 2 * 2 + EXTRA];
    net.w1[0] = 2.0; // mine[0]
    net.w1[2] = -1.0; // theirs[0]
    net.w1[4 + 1] = 0.5; // one threat against
    net.b1 = vec![0.25];
    net.w2 = vec![3.0];
    net.b2 = -0.5;
    net.fitted_scale = 0.5;
    // mine[0] 0.4, theirs[0] clipped to 1; no threat: 2*0.4 - 1 + 0.25 = 0.05 -> 3 * 0.05
    let v = net.logit(&[0.4, 9.0], &[7.0, -3.0], 0, 190);
    assert!((v - (-0.5 + 0.5 + 3.0 * 0.05)).abs() < 1e-5, "{v}");
    // theirs[0] clipped to 0, one threat: 0.8 + 0.5 + 0.25 = 1.55
    let v = net.logit(&[0.4, 0.0], &[-2.0, 0.0], 1, 0);
    assert!((v - (-0.5 + 3.0 * 1.55)).abs() < 1e-5, "{v}");
    // a negative hidden sum is cut at zero
    let v = net.logit(&[0.0, 0.0], &[1.0, 0.0], 2, -380);
    assert!((v - (-0.5 - 1.0)).abs() < 1e-5, "{v}");
}

#[test]
fn a_network_file_reads_back_and_damage_is_refused() {
    let net = Network::random(3, 4, 5, 7);
    let bytes = net.to_bytes();
    assert_eq!(
        bytes.len(),
        HEADER_SIZE + 4 * Network::payload_floats(3, 4, 5)
    );
    assert_eq!(Network::parse(&bytes, "n").unwrap(), net);
    let mut damaged = bytes.clone();
    damaged[HEADER_SIZE + 17] ^= 1;
    assert!(Network::parse(&damaged, "n").unwrap_err().contains("hash"));
    let err = Network::parse(&bytes[..bytes.len() - 4], "n").unwrap_err();
    assert!(err.contains("bytes of weights"), "{err}");
    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    assert!(Network::parse(&wrong, "n").unwrap_err().contains("magic"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(Network::parse(&version, "n")
        .unwrap_err()
        .contains("version"));
    let mut reach = bytes;
    reach[12] = 5;
    assert!(Network::parse(&reach, "n").unwrap_err().contains("reach"));
    assert!(Network::parse(b"SBC6", "n").is_err());
}

/// The trainer's logits for positions of real games (`test_vectors/connect6/network`, written
/// by `make train-vectors-connect6`) come out of the engine's accumulators and head, and out of
/// the search board's evaluation.
#[test]
fn the_forward_pass_gives_the_trainers_logits() {
    use crate::engine::connect6::board::{Board, Weights};
    use crate::engine::connect6::network::model::OUTPUT_UNITS_PER_LOGIT;
    use crate::game::connect6::{Connect6, Connect6Rules};
    use crate::game::Game;
    use crate::training::connect6::positions::parse_game;
    use std::sync::Arc;
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_vectors/connect6/network");
    let net = Arc::new(Network::from_file(&dir.join("net.sbc6")).unwrap());
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let games: Vec<_> = text
        .lines()
        .filter_map(|l| parse_game(l).unwrap())
        .collect();
    let expected: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("logits.json")).unwrap()).unwrap();
    assert!(expected.len() >= 20, "{} vectors", expected.len());
    let mut spread = (f32::MAX, f32::MIN);
    for e in &expected {
        let (size, moves, _) = &games[e["game"].as_u64().unwrap() as usize];
        let stones = e["stones"].as_u64().unwrap() as usize;
        let want = e["logit"].as_f64().unwrap() as f32;
        spread = (spread.0.min(want), spread.1.max(want));
        let mut pos = Connect6::new(Connect6Rules::with_size(*size).unwrap());
        let mut placed = Vec::new();
        for &p in &moves[..stones] {
            placed.push((p, pos.side_to_move()));
            pos.place(p);
        }
        let me = pos.side_to_move();
        let against = pos.threats(me.opponent());
        let board = Board::with_weights(&pos, Weights::default());
        let fitted = board.evaluate_facing(me, against);
        let acc = Accumulator::of_stones(&net, *size, &placed);
        let got = acc.value(&net, me, against, fitted) / OUTPUT_UNITS_PER_LOGIT;
        assert!((got - want).abs() < 1e-3, "{e}: the engine's logit {got}");
        let searched = board
            .with_network(Arc::clone(&net), true)
            .evaluate_facing(me, against);
        assert!(
            (searched as f32 / OUTPUT_UNITS_PER_LOGIT - want).abs() < 0.01,
            "{e}: the search board's value {searched}"
        );
    }
    // Vectors that all said the same would not test the head.
    assert!(
        spread.1 - spread.0 > 0.5,
        "logits from {} to {}",
        spread.0,
        spread.1
    );
}

/// Every view of the empty board is blank and reads the zero row; a stone makes the views
/// within reach of it on its lines, and only those, read table rows.
#[test]
fn blank_views_read_the_zero_row() {
    use super::model::{view_row, view_rows};
    for reach in [2, 4] {
        let h = half_codes(reach);
        let blank = table_rows(reach) as u32;
        let rows = view_rows(reach);
        let empty = LineCodes::new(19, reach);
        for p in 0..361 {
            for dir in 0..4 {
                assert_eq!(view_row(empty.code(p, dir), h), blank);
            }
        }
        let centre: Stone = 9 * 19 + 9;
        let one = LineCodes::of_stones(19, reach, &[(centre, Color::White)]);
        let touched: HashSet<(Stone, usize)> = one.touched_by(centre).into_iter().collect();
        for p in 0..361 {
            for dir in 0..4 {
                for side in [Color::Black, Color::White] {
                    let row = rows[one.code_for(p, dir, side) as usize] as u32;
                    assert_eq!(row == blank, !touched.contains(&(p, dir)), "{p} {dir}");
                }
            }
        }
    }
}

/// A network whose learned part says nothing (output weights and bias zero) and whose fitted
/// scale undoes the output's units values every position as the fitted evaluation does, to the
/// unit: the search's plumbing adds no bias of its own, and what a trained network changes is
/// its judgement alone.
#[test]
fn a_network_that_adds_nothing_values_as_the_fitted_evaluation() {
    use super::model::{OUTPUT_UNITS_PER_LOGIT, UNITS_PER_LOGIT};
    use crate::engine::connect6::board::{Board, Weights};
    use crate::game::connect6::{Connect6, Connect6Rules};
    use crate::game::Game;
    use std::sync::Arc;
    let mut net = Network::random(4, 8, 16, 3);
    net.w2.iter_mut().for_each(|w| *w = 0.0);
    net.b2 = 0.0;
    net.fitted_scale = UNITS_PER_LOGIT / OUTPUT_UNITS_PER_LOGIT;
    let net = Arc::new(net);
    let mut rng = SmallRng::seed_from_u64(5);
    let mut pos = Connect6::new(Connect6Rules::with_size(19).unwrap());
    let mut compared = 0;
    while pos.winner().is_none() && pos.ply() < 40 {
        let me = pos.side_to_move();
        let against = pos.threats(me.opponent());
        let plain = Board::with_weights(&pos, Weights::default());
        let netted = plain.clone().with_network(Arc::clone(&net), true);
        for color in [me, me.opponent()] {
            let (want, got) = (
                plain.evaluate_facing(color, against),
                netted.evaluate_facing(color, against),
            );
            assert!(
                (want - got).abs() <= 1,
                "ply {}: {want} against {got}",
                pos.ply()
            );
            assert!((netted.order_value(color) - want).abs() <= 1);
        }
        compared += 1;
        // Stones near the centre, so that lines form and the values move.
        loop {
            let p = (rng.gen_range(5..14) * 19 + rng.gen_range(5..14)) as Stone;
            if pos.color_at(p).is_none() {
                pos.place(p);
                break;
            }
        }
    }
    assert!(compared >= 20, "{compared} positions");
}
