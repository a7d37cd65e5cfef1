use super::*;
use crate::engine::connect6::prepared::exact_key;

fn scratch(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("stonebrain-book-{name}-{}.txt", std::process::id()));
    let _ = fs::remove_file(&path);
    path
}

fn args(out: PathBuf) -> BookArgs {
    BookArgs {
        game: "connect6".into(),
        out,
        seconds: 0.05,
        turns: 2,
        replies: 1,
        size: 19,
        first: Vec::new(),
        side: BookSide::Both,
        games: Vec::new(),
        learn: Vec::new(),
    }
}

#[test]
fn a_build_books_both_sides_and_a_second_run_searches_nothing() {
    let out = scratch("both");
    build(&args(out.clone())).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    // White to move after Black's centre stone; after White's best turn (White's side of the
    // book); after White's best and its next-ranked turn (Black's side): three positions, the
    // first two shared by the sides.
    assert_eq!(book.len(), 3, "{text}");
    let mut root = Connect6::new(Connect6Rules::SAU);
    root.play(root.point(9, 9));
    let turn = book.turn(&root).expect("the first position is booked");
    assert_eq!(turn.len(), 2);
    let mut after = root.clone();
    for s in turn {
        assert!(after.check_move(s).is_ok());
        after.play(s);
    }
    assert!(book.turn(&after).is_some(), "White's best is followed");
    let entry = book.get(19, &key(&root).0).unwrap();
    assert!(!entry.replies.is_empty() && entry.replies.len() <= KEPT_REPLIES);
    assert!(entry.depth > 0 && entry.value.is_some());

    // Started again, the build finds every position it needs and appends nothing.
    build(&args(out.clone())).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), text);
    let _ = fs::remove_file(&out);
}

#[test]
fn a_build_stopped_short_goes_on_from_its_lines() {
    let whole = scratch("whole");
    build(&args(whole.clone())).unwrap();
    let lines: Vec<String> = fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    // Keep the header and the first position only, as if stopped after one search; a second
    // run adds the other two and keeps the first as it was.
    let cut = scratch("cut");
    fs::write(&cut, format!("{}\n{}\n", lines[0], lines[1])).unwrap();
    build(&args(cut.clone())).unwrap();
    let resumed: Vec<String> = fs::read_to_string(&cut)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(resumed.len(), lines.len());
    assert_eq!(resumed[1], lines[1]);
    let _ = fs::remove_file(&whole);
    let _ = fs::remove_file(&cut);
}

#[test]
fn off_centre_first_stones_are_booked_once_each_up_to_symmetry() {
    let out = scratch("first");
    let mut a = args(out.clone());
    // II and KK are one stone up to the board's symmetries (a half turn): two roots, and with
    // White's side only and one turn, one position each.
    a.first = vec!["JJ".into(), "ii".into(), "KK".into()];
    a.side = BookSide::White;
    a.turns = 1;
    build(&a).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    assert_eq!(book.len(), 2, "{text}");
    for (x, y) in [(9, 9), (8, 8), (10, 10), (8, 10)] {
        let mut pos = Connect6::new(Connect6Rules::SAU);
        pos.play(pos.point(x, y));
        let turn = book.turn(&pos).expect("White's answer is booked");
        for s in turn {
            assert!(pos.check_move(s).is_ok());
            pos.play(s);
        }
        assert!(book.turn(&pos).is_none(), "one turn only: {x},{y}");
    }
    let mut off = Connect6::new(Connect6Rules::SAU);
    off.play(off.point(9, 8));
    assert!(book.turn(&off).is_none(), "JI was not asked for");
    let _ = fs::remove_file(&out);
}

#[test]
fn bad_settings_and_a_damaged_file_are_refused() {
    let mut a = args(scratch("bad"));
    a.size = 5;
    assert!(build(&a).unwrap_err().contains("--size 5"));
    a.size = 19;
    a.seconds = 0.0;
    assert!(build(&a).unwrap_err().contains("--seconds"));
    a.seconds = 0.05;
    for bad in ["TT", "J", "J9", ""] {
        a.first = vec![bad.into()];
        let err = build(&a).unwrap_err();
        assert!(
            err.contains("--first") && err.contains("19x19"),
            "{bad}: {err}"
        );
    }
    let damaged = scratch("damaged");
    fs::write(&damaged, "19 JJ/ | JK\n").unwrap();
    let err = build(&args(damaged.clone())).unwrap_err();
    assert!(err.contains("line 1"), "{err}");
    let _ = fs::remove_file(&damaged);
}

/// One line of an arena game file with the stones at `cells` (column, row), ended as `reason`
/// says, on a `size` board.
fn game_line(size: usize, reason: &str, cells: &[(usize, usize)]) -> String {
    let moves: Vec<[usize; 2]> = cells.iter().map(|&(x, y)| [x, y]).collect();
    serde_json::json!({
        "game": "connect6", "board_size": size, "reason": reason, "winner": "white",
        "moves": moves,
    })
    .to_string()
}

/// The position after the first `n` stones of `cells` on the 19x19 board.
fn after_stones(cells: &[(usize, usize)], n: usize) -> Connect6 {
    let mut pos = Connect6::new(Connect6Rules::SAU);
    for &(x, y) in &cells[..n] {
        pos.play(pos.point(x, y));
    }
    pos
}

/// `--games`: a line no ranking would follow (White answers the centre in the corner) gets its
/// turn starts of the colour built, within `--turns`, searched; a game on another board or one
/// lost on time gives none; and a second run searches nothing.
#[test]
fn the_games_lines_are_booked_for_the_side_built() {
    let corner: Vec<(usize, usize)> = (0..12)
        .map(|i| if i == 0 { (9, 9) } else { (i - 1, i - 1) })
        .collect();
    let games = scratch("games");
    let lines = [
        game_line(19, "rules", &corner),
        game_line(15, "rules", &[(7, 7), (0, 1), (1, 1)]),
        game_line(19, "time", &[(9, 9), (18, 0), (18, 1)]),
    ];
    fs::write(&games, lines.join("\n") + "\n").unwrap();
    let out = scratch("from-games");
    let a = BookArgs {
        turns: 4,
        side: BookSide::Black,
        games: vec![games.clone()],
        ..args(out.clone())
    };
    let tree = scratch("tree-only");
    build(&BookArgs {
        games: Vec::new(),
        ..a.clone()
    })
    .unwrap();
    // The same tree, then the games on top of it.
    fs::copy(&out, &tree).unwrap();
    build(&a).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    let tree_book = Book::parse(&fs::read_to_string(&tree).unwrap(), "test").unwrap();
    // Black's turn starts of the corner game: after 3 and 7 stones; the one after 11 is past
    // four turns. White's (after 1, 5 and 9) are not built.
    for n in [3, 7] {
        let pos = after_stones(&corner, n);
        assert!(book.turn(&pos).is_some(), "after {n} stones");
        assert!(tree_book.turn(&pos).is_none(), "the tree alone has {n}");
    }
    for n in [5, 11] {
        assert!(
            book.turn(&after_stones(&corner, n)).is_none(),
            "after {n} stones"
        );
    }
    assert_eq!(book.len(), tree_book.len() + 2, "{text}");
    let mut timed = Connect6::new(Connect6Rules::SAU);
    for (x, y) in [(9, 9), (18, 0), (18, 1)] {
        timed.play(timed.point(x, y));
    }
    assert!(book.turn(&timed).is_none(), "a game lost on time");

    build(&a).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), text);
    let bad = scratch("bad-games");
    fs::write(&bad, "not json\n").unwrap();
    let err = build(&BookArgs {
        games: vec![bad.clone()],
        ..a
    })
    .unwrap_err();
    assert!(err.contains(":1:"), "{err}");
    for f in [games, out, tree, bad] {
        let _ = fs::remove_file(f);
    }
}

/// An arena game line between `black` and `white` with the stones at `cells`, won by `winner`.
fn named_game(black: &str, white: &str, winner: &str, cells: &[(usize, usize)]) -> String {
    let moves: Vec<[usize; 2]> = cells.iter().map(|&(x, y)| [x, y]).collect();
    serde_json::json!({
        "game": "connect6", "board_size": 19, "reason": "rules", "winner": winner,
        "black": black, "white": white, "moves": moves,
    })
    .to_string()
}

/// `--learn`: the learner's best-scoring turn is booked (its mirrored form counted with it),
/// over the book's own turn that lost; a turn the book has that scored as well stays; another
/// engine's turns and the colour not built are not learned; a second run writes nothing.
#[test]
fn the_learners_winning_turns_are_booked() {
    let centre = (9, 9);
    let a = [(10, 10), (10, 8)];
    let a_mirrored = [(8, 10), (8, 8)];
    let b = [(9, 10), (10, 9)];
    let (black_turn, d, e) = ([(5, 5), (5, 6)], [(15, 15), (15, 16)], [(0, 18), (1, 18)]);
    let line = |parts: &[&[(usize, usize)]]| -> Vec<(usize, usize)> {
        std::iter::once(centre)
            .chain(parts.iter().flat_map(|p| p.iter().copied()))
            .collect()
    };
    let games = [
        named_game("them", "me", "white", &line(&[&a, &black_turn, &d])),
        named_game(
            "them",
            "me",
            "white",
            &line(&[&a_mirrored, &[(0, 0), (0, 1)]]),
        ),
        named_game("them", "me", "white", &line(&[&a, &black_turn, &e])),
        named_game("them", "me", "black", &line(&[&b, &black_turn])),
        // Another engine's winning turn, four times: it would outscore `a` if it counted.
        named_game("them", "other", "white", &line(&[&[(3, 3), (4, 4)]])),
        named_game("them", "other", "white", &line(&[&[(3, 3), (4, 4)]])),
        named_game("them", "other", "white", &line(&[&[(3, 3), (4, 4)]])),
        named_game("them", "other", "white", &line(&[&[(3, 3), (4, 4)]])),
        // The learner's won turn as Black, not built with `--side white`.
        named_game(
            "me",
            "them",
            "black",
            &line(&[&[(3, 3), (4, 4)], &[(12, 12), (13, 13)]]),
        ),
    ];
    let path = scratch("learn-games");
    fs::write(&path, games.join("\n") + "\n").unwrap();
    let position = |cells: &[(usize, usize)]| after_stones(cells, cells.len());
    // The book before: `b` after the centre (it lost its game) and `e` after `a`'s line (it won
    // as often as `d`).
    let after_a = position(&line(&[&a, &black_turn]));
    let (k, sym) = key(&after_a);
    let e_stones: Vec<Stone> = e.iter().map(|&(x, y)| after_a.point(x, y)).collect();
    let e_entry = Entry {
        turn: Entry::to_key_frame(&after_a, sym, &e_stones),
        value: Some(3),
        depth: 5,
        seconds: 1.0,
        replies: Vec::new(),
    };
    let out = scratch("learned");
    fs::write(
        &out,
        format!("19 JJ/ | JKKJ | 0 1 1.0 |\n{}\n", e_entry.line(19, &k)),
    )
    .unwrap();
    let a_args = learner_args(&path, &out);
    build(&a_args).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    let same = |p: &Connect6, turn: Vec<Stone>, expected: &[(usize, usize)]| {
        let expected: Vec<Stone> = expected.iter().map(|&(x, y)| p.point(x, y)).collect();
        key(&after_turn(p, &turn)).0 == key(&after_turn(p, &expected)).0
    };
    let first = position(&[centre]);
    assert!(same(&first, book.turn(&first).unwrap(), &a), "{text}");
    assert!(same(&after_a, book.turn(&after_a).unwrap(), &e), "{text}");
    assert!(
        text.contains("# learned: KKKI won 3, lost 0; the others: JKKJ 0-1"),
        "{text}"
    );
    assert_eq!(text.matches("# learned").count(), 1, "{text}");
    let black_start = position(&line(&[&[(3, 3), (4, 4)]]));
    assert!(book.turn(&black_start).is_none());
    assert_eq!(book.len(), 2);

    build(&a_args).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), text);
    for f in [path, out] {
        let _ = fs::remove_file(f);
    }
}

/// `--learn` forgets the book's turn that lost more than it won where the lost games left the
/// book right after it, not the turn before it (its losses came after a later book turn, or
/// only once after it); the games that played a forgotten turn are not counted again against
/// the turn before; new games whose search lost after that turn are.
#[test]
fn a_book_turn_that_keeps_losing_is_forgotten() {
    let centre = (9, 9);
    let (a, e, f) = (
        [(10, 10), (10, 8)],
        [(15, 15), (15, 16)],
        [(3, 15), (4, 15)],
    );
    let (black_turn, other_black) = ([(5, 5), (5, 6)], [(1, 1), (1, 2)]);
    let line = |parts: &[&[(usize, usize)]]| -> Vec<(usize, usize)> {
        std::iter::once(centre)
            .chain(parts.iter().flat_map(|p| p.iter().copied()))
            .collect()
    };
    let (rest, tail) = ([(0, 0), (0, 1)], [(18, 18), (17, 18)]);
    let lost_after_e = named_game("them", "me", "black", &line(&[&a, &black_turn, &e, &rest]));
    let mut games = vec![
        lost_after_e.clone(),
        lost_after_e,
        named_game(
            "them",
            "me",
            "white",
            &line(&[&a, &black_turn, &e, &rest, &tail]),
        ),
        // Left the book after `a` once (Black's other turn is not booked).
        named_game("them", "me", "black", &line(&[&a, &other_black, &f])),
    ];
    let (p1, p2) = (
        after_stones(&[centre], 1),
        after_stones(&line(&[&a, &black_turn]), 5),
    );
    let (path, out, _) = two_turn_book("forgetting", &games, (&p1, &a), (&p2, &e));
    let learn = learner_args(&path, &out);
    build(&learn).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    assert!(book.turn(&p2).is_none(), "{text}");
    assert!(book.forgotten_turn(&p2).is_some(), "{text}");
    assert!(book.turn(&p1).is_some(), "{text}");
    assert_eq!(text.matches("# forgotten").count(), 1, "{text}");
    assert!(
        text.contains("won 1, lost 2; left the book after it 1-2"),
        "{text}"
    );
    // The same games again: the games that played `e` stay its evidence, not `a`'s.
    build(&learn).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), text);

    // A new game whose search chose `f` where `e` was, and lost: a second loss handed to the
    // search after `a`, and `a` is forgotten (1 won, 4 lost).
    games.push(named_game(
        "them",
        "me",
        "black",
        &line(&[&a, &black_turn, &f]),
    ));
    fs::write(&path, games.join("\n") + "\n").unwrap();
    build(&learn).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    assert!(book.turn(&p1).is_none(), "{text}");
    assert!(
        text.contains("won 1, lost 4; left the book after it 0-2"),
        "{text}"
    );
    assert_eq!(book.len(), 0, "{text}");
    for f in [path, out] {
        let _ = fs::remove_file(f);
    }
}

/// The games file and the book of the forgetting tests, named by `tag`: the first turn a
/// search's, the second a learned one. Returns the two paths and the book's text.
fn two_turn_book(
    tag: &str,
    games: &[String],
    (p1, first): (&Connect6, &[(usize, usize)]),
    (p2, second): (&Connect6, &[(usize, usize)]),
) -> (PathBuf, PathBuf, String) {
    let path = scratch(&format!("{tag}-games"));
    fs::write(&path, games.join("\n") + "\n").unwrap();
    let out = scratch(tag);
    let start = format!(
        "{}\n{}\n",
        book_line(p1, first, Some(3)),
        book_line(p2, second, None)
    );
    fs::write(&out, &start).unwrap();
    (path, out, start)
}

/// `--learn me` on White's turns within four, from the games at `games` into the book `out`.
fn learner_args(games: &std::path::Path, out: &std::path::Path) -> BookArgs {
    BookArgs {
        turns: 4,
        side: BookSide::White,
        games: vec![games.to_path_buf()],
        learn: vec!["me".into()],
        ..args(out.to_path_buf())
    }
}

/// The book's line giving `turn` at `pos`: a search's (with `value`) or a learned one.
fn book_line(pos: &Connect6, turn: &[(usize, usize)], value: Option<i32>) -> String {
    let (k, sym) = key(pos);
    let stones: Vec<Stone> = turn.iter().map(|&(x, y)| pos.point(x, y)).collect();
    let entry = Entry {
        turn: Entry::to_key_frame(pos, sym, &stones),
        value,
        depth: value.map_or(0, |_| 5),
        seconds: 1.0,
        replies: Vec::new(),
    };
    entry.line(19, &k)
}

/// A book turn that lost more than it won, and lost three games that left the book after it,
/// is kept while a game won by the book's later turns after it: those wins would be lost with
/// it (the opponent's other replies are answered deeper, by learning there).
#[test]
fn a_book_turn_whose_later_lines_win_is_kept() {
    let centre = (9, 9);
    let (a, e) = ([(10, 10), (10, 8)], [(15, 15), (15, 16)]);
    let line = |parts: &[&[(usize, usize)]]| -> Vec<(usize, usize)> {
        std::iter::once(centre)
            .chain(parts.iter().flat_map(|p| p.iter().copied()))
            .collect()
    };
    let black_turn = [(5, 5), (5, 6)];
    let mut games = vec![named_game(
        "them",
        "me",
        "white",
        &line(&[&a, &black_turn, &e, &[(0, 0), (0, 1)]]),
    )];
    for other_black in [[(1, 1), (1, 2)], [(2, 1), (2, 2)], [(3, 1), (3, 2)]] {
        let searched = [(12, 3), (13, 3)];
        games.push(named_game(
            "them",
            "me",
            "black",
            &line(&[&a, &other_black, &searched]),
        ));
    }
    let (p1, p2) = (
        after_stones(&[centre], 1),
        after_stones(&line(&[&a, &black_turn]), 5),
    );
    let (path, out, start) = two_turn_book("kept", &games, (&p1, &a), (&p2, &e));
    build(&learner_args(&path, &out)).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    assert_eq!(text, start, "nothing learned, nothing forgotten");
    for f in [path, out] {
        let _ = fs::remove_file(f);
    }
}

/// Cloudict answers the forms of a position differently: a book turn that lost twice in one
/// form of a position and won twice in another (the board turned over its diagonal) is kept for
/// the eight forms together and forgotten in the losing form alone. Games won there later by
/// another turn book it for that form, and the winning form keeps its own turn when the pooled
/// line takes the newcomer; a second run writes nothing. (The forms' records are kept apart
/// at every turn start: White's second turn, 2-2 pooled, won both games of the winning form.)
#[test]
fn a_turn_that_loses_in_one_form_only_is_forgotten_there() {
    let flip = |cells: &[(usize, usize)]| -> Vec<(usize, usize)> {
        cells.iter().map(|&(x, y)| (y, x)).collect()
    };
    let (first, a, black_turn, searched) = (
        [(10, 9)],
        [(11, 10), (11, 8)],
        [(5, 5), (5, 6)],
        [(15, 15), (15, 16)],
    );
    let game = |cells: Vec<(usize, usize)>, winner: &str| named_game("them", "me", winner, &cells);
    let lost: Vec<(usize, usize)> = [&first[..], &a, &black_turn, &searched].concat();
    let won = flip(&lost);
    let mut games = vec![
        game(lost.clone(), "black"),
        game(lost, "black"),
        game(won.clone(), "white"),
        game(won, "white"),
    ];
    let (p, p_flipped) = (after_stones(&first, 1), after_stones(&flip(&first), 1));
    let path = scratch("forms-games");
    fs::write(&path, games.join("\n") + "\n").unwrap();
    let out = scratch("forms");
    fs::write(&out, book_line(&p, &a, Some(3)) + "\n").unwrap();
    let learn = learner_args(&path, &out);
    // The same games again write nothing.
    let writes_nothing_again = |text: &str| {
        build(&learn).unwrap();
        assert_eq!(fs::read_to_string(&out).unwrap(), text);
    };
    build(&learn).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    let played = |pos: &Connect6, cells: &[(usize, usize)]| -> Vec<Stone> {
        cells.iter().map(|&(x, y)| pos.point(x, y)).collect()
    };
    let same = |pos: &Connect6, turn: Option<Vec<Stone>>, cells: &[(usize, usize)]| {
        turn.is_some_and(|t| {
            key(&after_turn(pos, &t)).0 == key(&after_turn(pos, &played(pos, cells))).0
        })
    };
    assert_eq!(book.turn(&p), None, "{text}");
    assert!(same(&p, book.forgotten_turn(&p), &a), "{text}");
    assert!(same(&p_flipped, book.turn(&p_flipped), &flip(&a)), "{text}");
    let forgotten = format!("19 {} | -", exact_key(&p));
    assert!(text.contains(&forgotten), "{text}");
    assert!(
        text.contains("won 0, lost 2; left the book after it 0-2"),
        "{text}"
    );
    assert_eq!(text.matches("# forgotten").count(), 1, "{text}");
    writes_nothing_again(&text);

    // The search, playing there again, won twice with `b`: the pooled line takes `b` (2-0
    // against 2-2), the losing form books `b` and the winning form keeps `a`.
    let b = [(8, 8), (8, 10)];
    let b_won: Vec<(usize, usize)> = [&first[..], &b, &black_turn, &searched].concat();
    games.push(game(b_won.clone(), "white"));
    games.push(game(b_won, "white"));
    fs::write(&path, games.join("\n") + "\n").unwrap();
    build(&learn).unwrap();
    let text = fs::read_to_string(&out).unwrap();
    let book = Book::parse(&text, "test").unwrap();
    assert!(same(&p, book.turn(&p), &b), "{text}");
    assert!(same(&p_flipped, book.turn(&p_flipped), &flip(&a)), "{text}");
    let third = after_stones(&[(8, 9)], 1);
    let mirrored_b: Vec<(usize, usize)> = b.iter().map(|&(x, y)| (18 - x, y)).collect();
    assert!(
        same(&third, book.turn(&third), &mirrored_b),
        "the pooled line: {text}"
    );
    // Booked for each form apart: `b` where `a` lost, `a` where it won (and, since the first
    // run, White's next turn after `a` where it won, in that form only: it lost in the other).
    for (pos, lines) in [(&p, 2), (&p_flipped, 1)] {
        let own = format!("\n19 {} | ", exact_key(pos));
        assert_eq!(text.matches(&own).count(), lines, "{text}");
    }
    assert_eq!(text.matches("# learned").count(), 5, "{text}");
    writes_nothing_again(&text);
    for f in [path, out] {
        let _ = fs::remove_file(f);
    }
}
