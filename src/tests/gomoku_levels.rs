//! The teaching levels through the level switch (`engine::gomoku::level::build`): `classic` (seed
//! 000, step 8) and `wintable` (seed 004) against the random player and against each other, in
//! process, on boards from 11 to 20.

use stonebrain::engine::gomoku::level::{build, Level};
use stonebrain::engine::random::RandomPlayer;
use stonebrain::engine::Engine;
use stonebrain::game::gomoku::{Gomoku, GomokuRules};
use stonebrain::game::gomoku_seed::best_points;
use stonebrain::game::{Color, Game, Outcome};
use stonebrain::search::clock::Limits;

/// Plays one game between `black` and `white` on an `n` x `n` board; every move is checked
/// legal, and each player is told of every move. `check` sees each position and the move chosen.
fn play_game(
    n: usize,
    black: &mut dyn Engine<Gomoku>,
    white: &mut dyn Engine<Gomoku>,
    mut check: impl FnMut(&Gomoku, u16),
) -> Gomoku {
    let mut g = Gomoku::new(GomokuRules::new(n, false).unwrap());
    black.new_game();
    white.new_game();
    while g.outcome().is_none() {
        let mover: &mut dyn Engine<Gomoku> = match g.side_to_move() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let mv = mover
            .think(&g, Limits::default())
            .mv
            .expect("a move while the game goes on");
        assert!(g.is_legal(mv), "illegal {:?}\n{g}", g.coords(mv));
        check(&g, mv);
        black.observe(&g, mv);
        white.observe(&g, mv);
        g.play(mv);
    }
    g
}

const SIZES: [usize; 4] = [11, 15, 19, 20];

/// 20 games as Black and 20 as White against the random player, all won.
fn beats_random(level: Level) {
    for colour in [Color::Black, Color::White] {
        for game in 0..20u64 {
            let n = SIZES[game as usize % SIZES.len()];
            let mut engine = build(level, 100 + game);
            let mut random = RandomPlayer::new(7_000 + game);
            let g = match colour {
                Color::Black => play_game(n, engine.as_mut(), &mut random, |_, _| {}),
                Color::White => play_game(n, &mut random, engine.as_mut(), |_, _| {}),
            };
            assert_eq!(
                g.outcome(),
                Some(Outcome::Win(colour)),
                "{} as {} lost or drew game {game} on {n}x{n}\n{g}",
                level.name(),
                colour.name()
            );
        }
    }
}

#[test]
fn classic_beats_random_40_games_of_40() {
    beats_random(Level::Classic);
}

#[test]
fn wintable_beats_random_40_games_of_40() {
    beats_random(Level::Wintable);
}

/// Every move of the `classic` level is one of the seed's best points for that position.
#[test]
fn classic_plays_only_the_seeds_best_points() {
    let mut classic = build(Level::Classic, 3);
    let mut random = RandomPlayer::new(5);
    let mut moves = 0;
    play_game(15, &mut random, classic.as_mut(), |g, mv| {
        if g.side_to_move() == Color::White {
            let (best, _) = best_points(g).unwrap();
            assert!(best.contains(&mv), "{:?}\n{g}", g.coords(mv));
            moves += 1;
        }
    });
    assert!(moves > 3);
}

#[test]
fn classic_and_wintable_finish_legal_games() {
    let mut results = Vec::new();
    for (i, n) in [11, 15, 20, 13].into_iter().enumerate() {
        let mut classic = build(Level::Classic, i as u64);
        let mut wintable = build(Level::Wintable, i as u64);
        let g = if i % 2 == 0 {
            play_game(n, classic.as_mut(), wintable.as_mut(), |_, _| {})
        } else {
            play_game(n, wintable.as_mut(), classic.as_mut(), |_, _| {})
        };
        assert!(g.outcome().is_some());
        assert!(g.legal_moves().is_empty());
        results.push((n, g.outcome().unwrap(), g.ply()));
    }
    eprintln!("classic vs wintable: {results:?}");
}

#[test]
fn levels_build_and_are_named() {
    for level in [Level::Wintable, Level::Classic, Level::Full] {
        assert_eq!(Level::parse(level.name()), Ok(level));
        let mut e = build(level, 1);
        let g = Gomoku::default();
        assert!(g.is_legal(e.think(&g, Limits::default()).mv.unwrap()));
    }
}

// ------------------------------------------------------------------------------------------
// Tactics every teaching level must get right, checked for both through `build`.

const LEVELS: [Level; 2] = [Level::Classic, Level::Wintable];

/// A game of size `n` after Black's and White's stones, given as `(x, y)` and played in turn,
/// Black first (the longer list may only be Black's, by one stone).
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

/// The point a fresh player of `level` with `seed` chooses in `g` (checked legal).
fn choice(level: Level, g: &Gomoku, seed: u64) -> (usize, usize) {
    let mv = build(level, seed).think(g, Limits::default()).mv.unwrap();
    assert!(g.is_legal(mv));
    g.coords(mv)
}

#[test]
fn each_level_takes_an_immediate_five_on_every_size() {
    for level in LEVELS {
        for n in [11, 15, 20] {
            // Black: four across the second row, open at the right only (the left end is the
            // edge). White: four down the far column, to be blocked or not.
            let black = [(0, 1), (1, 1), (2, 1), (3, 1)];
            let white = [(n - 1, 5), (n - 1, 6), (n - 1, 7), (n - 3, 9)];
            let g = position(n, &black, &white);
            for seed in 0..5 {
                assert_eq!(choice(level, &g, seed), (4, 1), "{level:?} size {n}\n{g}");
            }
            let mut after = g.clone();
            after.play(after.point(4, 1));
            assert_eq!(after.outcome(), Some(Outcome::Win(Color::Black)));
        }
    }
}

#[test]
fn each_level_makes_five_before_blocking_a_four() {
    // Both sides hold a four; the side to move (White here) wins rather than blocks.
    for level in LEVELS {
        for n in [11, 20] {
            let black = [(2, 2), (3, 2), (4, 2), (5, 2), (0, n - 1)];
            let white = [(2, 6), (2, 7), (2, 8), (2, 9)];
            let g = position(n, &black, &white);
            assert_eq!(g.side_to_move(), Color::White);
            let (x, y) = choice(level, &g, 7);
            assert!(
                (x, y) == (2, 5) || (x, y) == (2, 10),
                "{level:?} size {n}: ({x},{y})\n{g}"
            );
        }
    }
}

#[test]
fn each_level_blocks_a_four() {
    for level in LEVELS {
        for n in [11, 15, 20] {
            // White's four down column 6 from row 1: the top end (6, 0) is open, the bottom
            // one taken by Black; Black, to move, must play (6, 0).
            let black = [(6, 5), (0, n - 1), (n - 1, n - 1), (n - 1, 0)];
            let white = [(6, 1), (6, 2), (6, 3), (6, 4)];
            let g = position(n, &black, &white);
            assert_eq!(g.side_to_move(), Color::Black);
            assert_eq!(choice(level, &g, 3), (6, 0), "{level:?} size {n}\n{g}");
        }
    }
}

#[test]
fn each_level_blocks_an_open_four_at_one_end() {
    for level in LEVELS {
        let black = [(0, 0), (14, 14), (14, 0), (0, 14)];
        let white = [(5, 7), (6, 7), (7, 7), (8, 7)];
        let g = position(15, &black, &white);
        let (x, y) = choice(level, &g, 1);
        assert!(
            (x, y) == (4, 7) || (x, y) == (9, 7),
            "{level:?}: ({x},{y})\n{g}"
        );
    }
}

#[test]
fn each_level_against_itself_plays_legal_points_until_the_game_ends_on_11_and_20() {
    for level in LEVELS {
        for n in [11, 20] {
            let (mut a, mut b) = (build(level, 1), build(level, 2));
            let g = play_game(n, a.as_mut(), b.as_mut(), |_, _| {});
            assert!(g.ply() <= n * n);
            assert_eq!(a.think(&g, Limits::default()).mv, None, "{level:?}");
        }
    }
}
