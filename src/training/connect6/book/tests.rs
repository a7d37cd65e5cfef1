use super::*;

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
