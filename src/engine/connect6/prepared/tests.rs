use super::*;
use crate::game::connect6::Connect6Rules;

/// A position from cells played in order on an empty board of `size`.
fn position(size: usize, cells: &[(usize, usize)]) -> Connect6 {
    let mut pos = Connect6::new(Connect6Rules::with_size(size).unwrap());
    for &(x, y) in cells {
        let p = pos.point(x, y);
        assert!(pos.check_move(p).is_ok(), "{x},{y}");
        pos.play(p);
    }
    pos
}

/// The same cells under symmetry `sym` of the board.
fn moved(size: usize, sym: usize, cells: &[(usize, usize)]) -> Vec<(usize, usize)> {
    cells
        .iter()
        .map(|&(x, y)| {
            let (x, y) = transform(sym, (x as u8, y as u8), size as u8);
            (x as usize, y as usize)
        })
        .collect()
}

const OPENING: [(usize, usize); 5] = [(9, 9), (10, 9), (10, 11), (8, 8), (7, 12)];

#[test]
fn every_symmetry_has_its_inverse() {
    for sym in 0..8 {
        for cell in [(0u8, 0u8), (3, 11), (18, 2), (9, 9)] {
            assert_eq!(transform(inverse(sym), transform(sym, cell, 19), 19), cell);
        }
    }
}

#[test]
fn a_position_has_one_key_under_the_eight_symmetries() {
    let (k, _) = key(&position(19, &OPENING));
    for sym in 0..8 {
        assert_eq!(
            key(&position(19, &moved(19, sym, &OPENING))).0,
            k,
            "symmetry {sym}"
        );
    }
    // Another position, another key.
    assert_ne!(key(&position(19, &OPENING[..3])).0, k);
}

#[test]
fn a_turn_stored_in_one_frame_is_answered_in_every_other() {
    // Book the turn (11, 10), (12, 10) for the opening as played; then ask the same position
    // under each symmetry: the answer is that turn under the same symmetry.
    let pos = position(19, &OPENING);
    let (k, sym) = key(&pos);
    let turn = [pos.point(11, 10), pos.point(12, 10)];
    let entry = Entry {
        turn: Entry::to_key_frame(&pos, sym, &turn),
        value: Some(12),
        depth: 5,
        seconds: 1.0,
        replies: Vec::new(),
    };
    let mut book = Book::default();
    book.insert(19, k, entry);
    for s in 0..8 {
        let other = position(19, &moved(19, s, &OPENING));
        let want: Vec<Stone> = moved(19, s, &[(11, 10), (12, 10)])
            .into_iter()
            .map(|(x, y)| other.point(x, y))
            .collect();
        let mut got = book.turn(&other).expect("in the book");
        got.sort_unstable();
        let mut want = want;
        want.sort_unstable();
        assert_eq!(got, want, "symmetry {s}");
    }
    // Part-way through a turn, and on another board size, the book has nothing.
    let mut half = pos.clone();
    half.play(pos.point(0, 0));
    assert_eq!(book.turn(&half), None);
    assert_eq!(book.turn(&position(15, &OPENING)), None);
}

#[test]
fn a_booked_turn_on_an_occupied_cell_is_not_played() {
    let pos = position(19, &OPENING);
    let (k, sym) = key(&pos);
    let entry = Entry {
        // (9, 9) holds Black's first stone.
        turn: Entry::to_key_frame(&pos, sym, &[pos.point(9, 9), pos.point(3, 3)]),
        value: None,
        depth: 0,
        seconds: 1.0,
        replies: Vec::new(),
    };
    let mut book = Book::default();
    book.insert(19, k, entry);
    assert_eq!(book.turn(&pos), None);
}

#[test]
fn lines_read_back_as_written() {
    let pos = position(19, &OPENING);
    let (k, _) = key(&pos);
    let entry = Entry {
        turn: vec![(11, 10), (12, 10)],
        value: Some(-35),
        depth: 6,
        seconds: 60.0,
        replies: vec![vec![(1, 2), (3, 4)], vec![(18, 18), (0, 0)]],
    };
    let line = entry.line(19, &k);
    assert!(line.starts_with("19 "), "{line}");
    let book = Book::parse(&format!("# a comment\n\n{line}\n"), "test").unwrap();
    assert_eq!(book.len(), 1);
    assert_eq!(book.get(19, &k), Some(&entry));
    // No value and no replies read back too.
    let bare = Entry {
        value: None,
        replies: Vec::new(),
        ..entry
    };
    let book = Book::parse(&bare.line(19, &k), "test").unwrap();
    assert_eq!(book.get(19, &k), Some(&bare));
}

/// A forgotten line drops the position read before it, and a line after it books it again.
#[test]
fn a_forgotten_position_is_dropped_until_booked_again() {
    let (k, _) = key(&position(19, &OPENING));
    let other = "19 JJ/ | JKKJ | 3 4 1.0 |";
    let entry = Entry {
        turn: vec![(11, 10), (12, 10)],
        value: None,
        depth: 0,
        seconds: 0.0,
        replies: Vec::new(),
    };
    let gone = forgotten_line(19, &k, &entry.turn);
    let text = format!("{}\n{other}\n{gone}\n", entry.line(19, &k));
    let book = Book::parse(&text, "test").unwrap();
    assert_eq!(book.len(), 1, "only the other position is left");
    assert_eq!(book.get(19, &k), None);
    let pos = position(19, &OPENING);
    assert_eq!(book.turn(&pos), None);
    let sym = key(&pos).1;
    assert_eq!(
        book.forgotten_turn(&pos),
        Some(Entry::in_position(&pos, sym, &entry.turn)),
        "the forgotten turn is remembered"
    );
    let again = Book::parse(&format!("{text}{}\n", entry.line(19, &k)), "test").unwrap();
    assert_eq!(again.get(19, &k), Some(&entry));
    assert_eq!(again.forgotten_turn(&pos), None);
    // A forgotten line for a position never booked is no error.
    assert_eq!(Book::parse(&gone, "test").unwrap().len(), 0);
}

/// A line of one form of a position (`=`, its own frame) is read for that form before the
/// pooled line of the eight, booked or forgotten; the other forms keep the pooled turn.
#[test]
fn a_line_of_one_form_is_read_before_the_pooled_one() {
    let pos = position(19, &OPENING);
    let (k, sym) = key(&pos);
    let pooled = [(11, 10), (12, 10)];
    let pooled_stones: Vec<Stone> = pooled.iter().map(|&(x, y)| pos.point(x, y)).collect();
    let entry = |turn: Vec<(u8, u8)>| Entry {
        turn,
        value: None,
        depth: 0,
        seconds: 0.0,
        replies: Vec::new(),
    };
    // Form 3 (the board turned half round) books its own turn; form 5 forgets the pooled one.
    let (turned, quarter) = (
        position(19, &moved(19, 3, &OPENING)),
        position(19, &moved(19, 5, &OPENING)),
    );
    let own = vec![(2, 2), (3, 3)];
    let quarter_turn = moved(19, 5, &pooled);
    let quarter_cells: Vec<(u8, u8)> = quarter_turn
        .iter()
        .map(|&(x, y)| (x as u8, y as u8))
        .collect();
    let (turned_key, quarter_key) = (exact_key(&turned), exact_key(&quarter));
    assert!(turned_key.starts_with('=') && turned_key != quarter_key);
    let text = format!(
        "{}\n{}\n{}\n",
        entry(Entry::to_key_frame(&pos, sym, &pooled_stones)).line(19, &k),
        entry(own.clone()).line(19, &turned_key),
        forgotten_line(19, &quarter_key, &quarter_cells),
    );
    let book = Book::parse(&text, "test").unwrap();
    assert_eq!(book.len(), 2, "{text}");
    let stones = |p: &Connect6, cells: &[(usize, usize)]| -> Vec<Stone> {
        let mut s: Vec<Stone> = cells.iter().map(|&(x, y)| p.point(x, y)).collect();
        s.sort_unstable();
        s
    };
    let sorted = |turn: Option<Vec<Stone>>| {
        turn.map(|mut t| {
            t.sort_unstable();
            t
        })
    };
    assert_eq!(
        sorted(book.turn(&turned)),
        Some(stones(&turned, &[(2, 2), (3, 3)]))
    );
    assert_eq!(book.turn(&quarter), None);
    assert_eq!(
        sorted(book.forgotten_turn(&quarter)),
        Some(stones(&quarter, &quarter_turn))
    );
    for s in [0, 1, 2, 4, 6, 7] {
        let other = position(19, &moved(19, s, &OPENING));
        let want = stones(&other, &moved(19, s, &pooled));
        assert_eq!(sorted(book.turn(&other)), Some(want), "symmetry {s}");
        assert_eq!(book.forgotten_turn(&other), None, "symmetry {s}");
    }
    assert_eq!(book.frame(&turned), (turned_key.clone(), 0));
    assert_eq!(book.frame(&pos), (k, sym));
    // The line reads back as written, and its position must lie on the board like any other.
    let line = entry(own).line(19, &turned_key);
    assert!(line.starts_with("19 ="), "{line}");
    assert_eq!(
        Book::parse(&line, "test").unwrap().get(19, &turned_key),
        book.get(19, &turned_key)
    );
    assert!(Book::parse("19 =JZ/ | JKKJ | 3 4 1.0 |", "test").is_err());
}

#[test]
fn a_damaged_line_is_named_with_its_number() {
    let good = "19 JJ/ | JKKJ | 3 4 1.0 | ";
    for bad in [
        "19 JJ/ | JKKJ | 3 4",
        "19 JJ/ | JKKJ",
        "nineteen JJ/ | JKKJ | 3 4 1.0 | ",
        "19 JJ/ | JKZZ | 3 4 1.0 | ",
        "19 JJ/ | JKK | 3 4 1.0 | ",
        "19 JJ/ | JKKJLL | 3 4 1.0 | ",
        "19 JJ | JKKJ | 3 4 1.0 | ",
        "19 JJ/ | JKKJ | x 4 1.0 | ",
    ] {
        let err = Book::parse(&format!("{good}\n{bad}\n"), "book.txt").unwrap_err();
        assert!(err.starts_with("book.txt, line 2: "), "{bad}: {err}");
    }
    assert_eq!(Book::parse(good, "book.txt").unwrap().len(), 1);
}

/// The position of a key, its stones played Black's first, then two of each side in turn.
fn from_key(size: usize, k: &str) -> Connect6 {
    let (black, white) = k.split_once('/').unwrap();
    let (black, white) = (
        parse_cells(black, size as u8).unwrap(),
        parse_cells(white, size as u8).unwrap(),
    );
    let mut order = vec![black[0]];
    let mut b = black[1..].chunks(2);
    for turn in white.chunks(2) {
        order.extend_from_slice(turn);
        order.extend_from_slice(b.next().unwrap_or(&[]));
    }
    let cells: Vec<(usize, usize)> = order
        .iter()
        .map(|&(x, y)| (x as usize, y as usize))
        .collect();
    position(size, &cells)
}

#[test]
fn the_built_in_book_reads_whole_and_answers_each_of_its_positions() {
    let book = Book::parse(BUILT_IN, "prepared-book.txt").unwrap();
    assert_eq!(book.len(), built_in().len());
    let lines: Vec<&str> = BUILT_IN
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    // A position has one line, or later ones after a `# learned` or `# forgotten` comment that
    // replace it (book learning takes a turn over the book's own where that lost, or drops it).
    let learned = BUILT_IN
        .lines()
        .filter(|l| l.starts_with("# learned") || l.starts_with("# forgotten"))
        .count();
    assert!(lines.len() >= book.len() && lines.len() <= book.len() + learned);
    let all: Vec<&str> = BUILT_IN.lines().collect();
    let mut seen = std::collections::HashMap::new();
    for (i, line) in all.iter().enumerate() {
        let head = line.split('|').next().unwrap().trim();
        if !line.starts_with('#') && !head.is_empty() {
            if let Some(first) = seen.insert(head, i) {
                let why = all[i - 1];
                assert!(
                    why.starts_with("# learned") || why.starts_with("# forgotten"),
                    "lines {first} and {i}"
                );
            }
        }
    }
    for line in lines {
        let (size, rest) = line.split_once(' ').unwrap();
        let k = rest.split('|').next().unwrap().trim();
        let pos = from_key(size.parse().unwrap(), k.strip_prefix('=').unwrap_or(k));
        let own = k.starts_with('=');
        assert_eq!(if own { exact_key(&pos) } else { key(&pos).0 }, k);
        // The last line of a position says what the book does there.
        let last = BUILT_IN
            .lines()
            .rfind(|l| l.split('|').next().unwrap().trim() == format!("{size} {k}"));
        let forgotten = last
            .unwrap()
            .split('|')
            .nth(1)
            .unwrap()
            .trim()
            .starts_with('-');
        assert_eq!(book.turn(&pos).is_some(), !forgotten, "{line}");
    }
}

#[test]
fn a_position_is_rebuilt_from_its_key() {
    let pos = position(19, &OPENING);
    let (k, _) = key(&pos);
    assert_eq!(key(&from_key(19, &k)).0, k);
}
