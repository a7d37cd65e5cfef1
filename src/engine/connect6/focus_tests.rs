//! `focus`: the turns that decide a game borrow from the game clock, the others do not.
//!
//! Each search here starts with its own deadline already past and a loan an hour away, so
//! what it does depends on node counts (the budget reads the clock every 64 nodes), not on the
//! machine's speed: the first iteration (40 root turns, a node each) ends before the clock is
//! read, and without a loan the next one is never started.

use super::tests::{after_turns, sau_turn};
use super::*;
use std::time::Duration;

/// Depth 3 at most, so that a search on the loan ends in a moment; the prepared book off, since
/// it holds the positions searched here.
fn engine(config: Connect6Config) -> Connect6Engine {
    Connect6Engine::new(Connect6Config {
        max_depth: 3,
        variety: 0,
        prepared: false,
        ..config
    })
}

fn focused() -> Connect6Config {
    Connect6Config {
        focus: true,
        ..Connect6Config::default()
    }
}

fn unfocused() -> Connect6Config {
    Connect6Config {
        focus: false,
        ..Connect6Config::default()
    }
}

/// Limits whose own stop is now and whose loan ends in an hour, capped at `nodes`.
fn limits_with_loan(nodes: u64) -> Limits {
    let now = Instant::now();
    Limits::until(now)
        .stretchable(Some(now + Duration::from_secs(3600)))
        .with_iterations(Some(nodes))
}

/// Black's second turn, among the first turns of the game: the engine without focus stops after
/// the first iteration, the focused one goes on to the deepest on the loan, and its safety check
/// then has until the loan's end (the deadline `choose` leaves in the budget), not the turn's
/// own, already past.
#[test]
fn the_first_turns_of_a_game_search_deeper_on_the_loan() {
    let pos = after_turns("JJ JKKJ");
    let limits = limits_with_loan(2_000_000);
    let search = |config: Connect6Config| {
        let mut budget = Budget::new(limits);
        let depth = engine(config).choose(&pos, &mut budget).depth;
        (depth, budget.limits().stop_at)
    };
    assert_eq!(search(unfocused()), (1, limits.stop_at));
    assert_eq!(search(focused()), (3, limits.stretch_to));
}

/// Past the game's first turns, a settled turn keeps its own deadline and one whose best two
/// turns are close takes the loan. (After one iteration nothing has changed or fallen yet, so
/// closeness alone decides; `focus_plies` 0 makes every turn a later one.)
#[test]
fn a_settled_turn_keeps_its_own_deadline() {
    let pos = after_turns("JJ JKKJ");
    let search = |focus_close: i32| {
        let mut engine = engine(Connect6Config {
            focus_plies: 0,
            focus_close,
            ..focused()
        });
        let mut board = Board::new(&pos);
        let moves = alphabeta::turn_moves(&mut board, engine.config.width.at(1));
        let limits = limits_with_loan(u64::MAX);
        let mut budget = Budget::new(limits);
        let s = engine.alpha_beta(&mut board, moves, &mut budget, None, limits.stretch_to);
        (s.choice.depth, s.borrowed)
    };
    // No two turns are ever closer than -1 apart; every two are within 10,000.
    assert_eq!(search(-1), (1, false));
    assert_eq!(search(10_000), (3, true));
}

/// The turns searched after a book's turn take the loan however settled they are, as many as
/// `exit_turns`; the next searched turn keeps its own deadline again, and a new game forgets a
/// book turn of the last. (`focus_plies` 0 and `focus_close` -1: nothing else makes these turns
/// deciding.)
#[test]
fn the_first_turns_out_of_the_book_take_the_loan() {
    let limits = limits_with_loan(2_000_000);
    let depth = |engine: &mut Connect6Engine, pos: &Connect6| {
        let mut budget = Budget::new(limits);
        let choice = engine.choose(pos, &mut budget);
        (choice.depth, budget.nodes > 0)
    };
    let (book, late) = (after_turns("JJ"), after_turns("JJ JKKJ"));
    let with_exits = |exit_turns: u8| {
        engine(Connect6Config {
            book: true,
            focus_plies: 0,
            focus_close: -1,
            exit_turns,
            ..focused()
        })
    };
    let mut e = with_exits(2);
    assert_eq!(depth(&mut e, &late), (1, true), "no book turn yet");
    assert_eq!(depth(&mut e, &book), (0, false), "the book's turn");
    for n in 0..2 {
        assert_eq!(
            depth(&mut e, &late),
            (3, true),
            "searched turn {n} after it"
        );
    }
    assert_eq!(depth(&mut e, &late), (1, true), "out of the book for good");
    depth(&mut e, &book);
    e.new_game();
    assert_eq!(depth(&mut e, &late), (1, true), "a new game");
    let mut none = with_exits(0);
    depth(&mut none, &book);
    assert_eq!(depth(&mut none, &late), (1, true), "exit_turns 0");
}

#[test]
fn what_makes_a_turn_deciding() {
    let mut exit = Connect6Engine::new(focused());
    exit.on_exit = true;
    assert!(
        exit.deciding(FOCUS_PLIES + 10, false, &[50], &[50]),
        "one of the first turns out of the book"
    );
    let engine = Connect6Engine::new(focused());
    let late = FOCUS_PLIES + 10;
    let d = |ply, changed, values: &[i32], scores: &[i32]| {
        engine.deciding(ply, changed, values, scores)
    };
    assert!(!d(late, false, &[50], &[50, 20]), "settled");
    assert!(
        d(FOCUS_PLIES - 1, false, &[50], &[50, 20]),
        "one of the first turns"
    );
    assert!(d(late, true, &[50], &[50, 20]), "the best turn changed");
    assert!(d(late, false, &[80, -40, 60], &[60, 20]), "the value fell");
    assert!(
        d(late, false, &[50], &[50, 50 - FOCUS_CLOSE]),
        "the best two close"
    );
    assert!(!d(late, false, &[50], &[50, 49 - FOCUS_CLOSE]));
    assert!(!d(late, false, &[50], &[50]), "a single turn");
}

/// A forced defence is played at once, loan or not: White faces two fives, each open at one
/// end only, so the only turn is the pair of those ends.
#[test]
fn a_forced_turn_does_not_borrow() {
    let pos = after_turns("AA SSQS BACA OSMS DAEA KSIS AKBK GSES CKDK SQSO EKAP");
    let mut budget = Budget::new(limits_with_loan(u64::MAX));
    let choice = engine(focused()).choose(&pos, &mut budget);
    let mut turn = choice.turn.clone();
    turn.sort();
    let mut ends = sau_turn(&pos, "FAFK");
    ends.sort();
    assert_eq!(turn, ends);
    assert_eq!(budget.nodes, 0, "no search");
}

/// On the loan, alpha-beta stops at its share of the loan, or with `focus_deep` where the safety
/// check has left just its share of the ordinary turn: a turn of 10 s and a loan of 40 s, with
/// alpha-beta's share 0.6, leave the check 16 s of the loan, or 4 s.
#[test]
fn how_a_turn_on_the_loan_is_shared() {
    let now = Instant::now();
    let (turn, loan) = (now + Duration::from_secs(10), now + Duration::from_secs(40));
    let stop = |focus_deep: bool| {
        let engine = Connect6Engine::new(Connect6Config {
            ab_share: 0.6,
            focus_deep,
            ..focused()
        });
        engine.loan_for_alpha_beta(now, turn, loan)
    };
    let close = |a: Instant, secs: f64| (a - now).as_secs_f64() - secs;
    assert!(
        close(stop(false), 24.0).abs() < 1e-6,
        "{:?}",
        stop(false) - now
    );
    assert!(
        close(stop(true), 36.0).abs() < 1e-6,
        "{:?}",
        stop(true) - now
    );
}
