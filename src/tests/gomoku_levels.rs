//! The teaching levels through the level switch (`engine::gomoku_level::build`): `classic` (seed
//! 000, step 8) and `wintable` (seed 004) against the random player and against each other, in
//! process, on boards from 11 to 20.

use stonebrain::engine::gomoku_level::{build, Level};
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
