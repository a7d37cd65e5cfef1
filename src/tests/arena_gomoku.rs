//! Gomoku in the arena: built-in players refereed to five in a row or a full board, the
//! balanced openings file played with both colours, and external brains over the Gomocup
//! (Piskvork) protocol, each a real child process: a scripted well-behaved brain, and brains
//! that fail in every way a manager has to judge.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use stonebrain::arena::duel::{parse_openings, run_match, MatchConfig};
use stonebrain::arena::engines::EngineSpec;
use stonebrain::arena::player::TimeControl;
use stonebrain::arena::player::{Answer, ArenaGame, GameEnd, GameOptions, Player, Turn};
use stonebrain::arena::players::builtin::Builtin;
use stonebrain::arena::players::gomocup::GomocupPlayer;
use stonebrain::arena::record::{EndReason, GameRecord};
use stonebrain::arena::referee::play_game;
use stonebrain::game::gomoku::{Gomoku, Point};
use stonebrain::game::{Color, Game, Outcome};

fn board_with(size: usize, exact_five: bool) -> Gomoku {
    Gomoku::start(&GameOptions {
        size: Some(size),
        exact_five,
        ..GameOptions::default()
    })
    .unwrap()
}

fn board(size: usize) -> Gomoku {
    board_with(size, false)
}

fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The scripted Gomocup brain in `mode`, logging what it hears to `log`.
fn brain(mode: &str, log: Option<&Path>) -> String {
    let mut cmd = format!(
        "python3 {} {mode}",
        repo_path("test_vectors/arena/bots/gomocup_bot.py").display()
    );
    if let Some(log) = log {
        cmd.push_str(&format!(" {}", log.display()));
    }
    cmd
}

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "stonebrain-gomoku-{name}-{}.log",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// The lines a logging brain heard.
fn heard(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn builtin(spec: &str, seed: u64) -> Builtin<Gomoku> {
    Builtin::<Gomoku>::from_spec(spec, spec, seed).unwrap()
}

fn clock() -> TimeControl {
    TimeControl {
        per_move: Some(Duration::from_secs(5)),
        per_game: Some(Duration::from_secs(180)),
    }
}

/// Replays a record stone by stone from `start`: every stone legal and of the colour to move.
fn replay(rec: &GameRecord, start: &Gomoku) -> Gomoku {
    let mut pos = start.clone();
    for (i, m) in rec.moves.iter().enumerate() {
        assert_eq!(
            m.color,
            pos.side_to_move(),
            "stone {i} has the wrong colour"
        );
        let p = pos.point_at(m.x, m.y).expect("on the board");
        pos.try_play(p)
            .unwrap_or_else(|e| panic!("stone {i} ({},{}) is illegal: {e}", m.x, m.y));
    }
    pos
}

/// Checks a game that the rules ended: the record replays to the finished position it claims.
fn assert_rules_end(rec: &GameRecord, start: &Gomoku) {
    assert_eq!(rec.reason.code(), "rules", "{}", rec.reason.describe());
    let pos = replay(rec, start);
    match pos.outcome() {
        Some(Outcome::Win(w)) => {
            assert_eq!(rec.winner, Some(w));
            assert!(
                rec.reason.describe().contains("five in a row"),
                "{}",
                rec.reason.describe()
            );
        }
        Some(Outcome::Draw) => {
            assert_eq!(rec.winner, None);
            assert_eq!(rec.reason.describe(), "full board: a draw");
            assert_eq!(rec.moves.len(), start.points());
        }
        None => panic!("the record does not replay to a finished game"),
    }
    assert_eq!(rec.game, "gomoku");
    assert_eq!(rec.board_size, start.board_size());
}

#[test]
fn builtin_games_finish_with_legal_records() {
    for (size, black, white) in [
        (15, "random", "random"),
        (15, "full:20ms", "random"),
        (15, "classic:10ms", "wintable:10ms"),
        (11, "random", "full:200n"),
        (20, "engine:10ms,level=wintable", "engine:10ms"),
    ] {
        let rec = play_game(
            &mut builtin(black, 1),
            &mut builtin(white, 2),
            &board(size),
            &[],
            clock(),
        );
        assert_rules_end(&rec, &board(size));
        // One stone a turn, colours alternating from Black.
        let colours: String = rec
            .moves
            .iter()
            .map(|m| if m.color == Color::Black { 'B' } else { 'W' })
            .collect();
        assert!(colours.starts_with("BWBW"), "{black} vs {white}: {colours}");
        assert!(!colours.contains("BB") && !colours.contains("WW"));
        let json = rec.to_json();
        assert_eq!(json["game"], "gomoku");
        assert_eq!(json["colors"].as_str(), Some(colours.as_str()));
    }
}

/// A player that answers from a list of points and remembers how the game ended.
struct Scripted {
    points: Vec<(usize, usize)>,
    next: usize,
    heard_end: Option<(Option<Color>, Option<Color>)>,
}

impl Scripted {
    fn new(points: &[(usize, usize)]) -> Scripted {
        Scripted {
            points: points.to_vec(),
            next: 0,
            heard_end: None,
        }
    }
}

impl Player<Gomoku> for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn new_game(&mut self, _color: Color, _start: &Gomoku) -> Result<(), EndReason> {
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, Gomoku>) -> Answer<Point> {
        let (x, y) = self.points[self.next];
        self.next += 1;
        (Ok(vec![turn.pos.point(x, y)]), Duration::from_millis(1))
    }

    fn end_game(&mut self, end: &GameEnd<'_, Gomoku>) {
        self.heard_end = Some((end.winner, end.last_turn.map(|(c, _)| c)));
    }
}

/// Points as (x, y).
type Points = Vec<(usize, usize)>;

/// The longest run of one colour in any direction on an `n` x `n` board of colours (`true` for
/// Black), indexed `y * n + x`.
fn longest_run(black: &[bool], n: usize) -> usize {
    let at = |x: i64, y: i64| {
        (x >= 0 && y >= 0 && x < n as i64 && y < n as i64)
            .then(|| black[y as usize * n + x as usize])
    };
    let mut best = 0;
    for y in 0..n as i64 {
        for x in 0..n as i64 {
            let c = at(x, y);
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let run = (0..)
                    .take_while(|&k| at(x + k * dx, y + k * dy) == c)
                    .count();
                best = best.max(run);
            }
        }
    }
    best
}

/// An `n` x `n` board filled with no five anywhere: colour by `(x + 2y) mod 4`, which makes runs
/// of at most two in every direction, then as many cells turned as it takes to give Black one
/// stone more than White (for odd `n`). Returns Black's points and White's.
fn drawn_fill(n: usize) -> (Points, Points) {
    let mut black: Vec<bool> = (0..n * n).map(|i| (i % n + 2 * (i / n)) % 4 < 2).collect();
    let want_black = n * n / 2 + 1;
    'fix: loop {
        let count = black.iter().filter(|&&b| b).count();
        if count == want_black {
            break;
        }
        let turn_to_black = count < want_black;
        for i in 0..n * n {
            if black[i] != turn_to_black {
                black[i] = turn_to_black;
                if longest_run(&black, n) < 5 {
                    continue 'fix;
                }
                black[i] = !turn_to_black;
            }
        }
        panic!("no cell can be turned");
    }
    assert!(longest_run(&black, n) < 5);
    let xy = |i: usize| (i % n, i / n);
    let b = (0..n * n).filter(|&i| black[i]).map(xy).collect();
    let w = (0..n * n).filter(|&i| !black[i]).map(xy).collect();
    (b, w)
}

#[test]
fn a_full_board_is_a_draw_and_both_sides_hear_the_end() {
    let (b, w) = drawn_fill(11);
    assert_eq!(b.len(), 61);
    assert_eq!(w.len(), 60);
    let (mut black, mut white) = (Scripted::new(&b), Scripted::new(&w));
    let rec = play_game(&mut black, &mut white, &board(11), &[], clock());
    assert_rules_end(&rec, &board(11));
    assert_eq!(rec.winner, None);
    assert_eq!(rec.result_text(), "1/2-1/2");
    assert_eq!(black.heard_end, Some((None, Some(Color::Black))));
    assert_eq!(white.heard_end, Some((None, Some(Color::Black))));
}

#[test]
fn exact_five_makes_an_overline_no_win() {
    // Black fills (0..=3, 0) and (5, 0), then (4, 0) joins them into six in a row; later it
    // makes exactly five on row 2. White's stones are spread out and never threaten.
    let black = [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (5, 0),
        (4, 0),
        (0, 2),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2),
    ];
    let white = [
        (0, 5),
        (2, 5),
        (4, 5),
        (6, 5),
        (8, 5),
        (10, 5),
        (12, 5),
        (14, 5),
        (1, 7),
        (3, 7),
    ];
    let play = |exact_five| {
        let start = board_with(15, exact_five);
        let rec = play_game(
            &mut Scripted::new(&black),
            &mut Scripted::new(&white),
            &start,
            &[],
            clock(),
        );
        assert_rules_end(&rec, &start);
        assert_eq!(rec.winner, Some(Color::Black));
        rec
    };
    // Freestyle: six in a row wins.
    let rec = play(false);
    assert_eq!(rec.moves.len(), 11);
    assert_eq!(rec.reason.describe(), "black made five in a row");
    // Exact five: the overline wins nothing and the game goes on to the five on row 2.
    let rec = play(true);
    assert_eq!(rec.moves.len(), 21);
    assert_eq!(rec.reason.describe(), "black made exactly five in a row");
}

fn openings_text() -> String {
    std::fs::read_to_string(repo_path("test_vectors/gomoku/openings.txt")).unwrap()
}

/// The stones of an opening relative to the centre, Black's and White's, in the form that is
/// least under the eight symmetries of the square: equal forms are the same opening.
fn canonical(stones: &[(i64, i64)]) -> Vec<(bool, i64, i64)> {
    let mut forms = Vec::new();
    for sx in [1, -1] {
        for sy in [1, -1] {
            for swap in [false, true] {
                let mut f: Vec<(bool, i64, i64)> = stones
                    .iter()
                    .enumerate()
                    .map(|(i, &(x, y))| {
                        let (a, b) = (x * sx, y * sy);
                        let (a, b) = if swap { (b, a) } else { (a, b) };
                        (i % 2 == 0, a, b)
                    })
                    .collect();
                f.sort();
                forms.push(f);
            }
        }
    }
    forms.into_iter().min().unwrap()
}

#[test]
fn the_openings_file_is_balanced_by_its_own_rules() {
    check_openings(&openings_text());
}

#[test]
fn the_engine_balanced_openings_follow_the_same_rules() {
    check_openings(
        &std::fs::read_to_string(repo_path("test_vectors/gomoku/openings-balanced.txt")).unwrap(),
    );
}

#[test]
fn the_wide_openings_follow_the_same_rules_and_are_many() {
    let text = std::fs::read_to_string(repo_path("test_vectors/gomoku/openings-wide.txt")).unwrap();
    check_openings(&text);
    let start = board(15);
    // The point of the set: many more different games than the balanced one gives.
    assert_eq!(parse_openings::<Gomoku>(&text, &start).unwrap().len(), 94);
}

#[test]
fn the_fresh_openings_follow_the_same_rules_and_share_none_with_the_wide_set() {
    let read = |name: &str| {
        std::fs::read_to_string(repo_path(&format!("test_vectors/gomoku/{name}"))).unwrap()
    };
    let fresh = read("openings-fresh.txt");
    // One stone of each fresh opening is four lines from the centre: that keeps them apart
    // from the wide set, whose stones are all within three.
    check_openings_within(&fresh, 4);
    let start = board(15);
    let forms = |text: &str| -> Vec<Vec<(bool, i64, i64)>> {
        parse_openings::<Gomoku>(text, &start)
            .unwrap()
            .iter()
            .map(|o| canonical(&centre_offsets(&start, o)))
            .collect()
    };
    let fresh = forms(&fresh);
    assert_eq!(fresh.len(), 100);
    let wide: HashSet<_> = forms(&read("openings-wide.txt")).into_iter().collect();
    for (i, f) in fresh.iter().enumerate() {
        assert!(!wide.contains(f), "fresh opening {i} is in the wide set");
    }
}

#[test]
fn the_five_stone_openings_follow_the_same_rules_and_leave_white_to_move() {
    let text = std::fs::read_to_string(repo_path("test_vectors/gomoku/openings-five.txt")).unwrap();
    // Every stone within two lines of the centre: the set is its own family, apart from the
    // three-stone wide and fresh sets by its stone count.
    check_openings_within(&text, 2);
    let openings = parse_openings::<Gomoku>(&text, &board(15)).unwrap();
    assert_eq!(openings.len(), 150);
    for (i, o) in openings.iter().enumerate() {
        assert_eq!(o.len(), 5, "opening {i}");
    }
}

/// An opening's stones as offsets from the centre of the 15x15 board, in play order.
fn centre_offsets(start: &Gomoku, opening: &[Point]) -> Vec<(i64, i64)> {
    opening
        .iter()
        .map(|&p| {
            let (x, y) = start.coords(p);
            (x as i64 - 7, y as i64 - 7)
        })
        .collect()
}

/// At least 20 openings of 3 to 5 stones near the centre, none a repeat of another up to
/// symmetry, none giving a side a three.
fn check_openings(text: &str) {
    check_openings_within(text, 3);
}

/// `check_openings` with the stones up to `reach` lines from the centre.
fn check_openings_within(text: &str, reach: i64) {
    let start = board(15);
    let openings = parse_openings::<Gomoku>(text, &start).unwrap();
    assert!(openings.len() >= 20, "{} openings", openings.len());
    let mut seen = HashSet::new();
    for (i, o) in openings.iter().enumerate() {
        assert!(
            (3..=5).contains(&o.len()),
            "opening {i}: {} stones",
            o.len()
        );
        let rel = centre_offsets(&start, o);
        assert!(
            rel.iter()
                .all(|&(x, y)| x.abs() <= reach && y.abs() <= reach),
            "opening {i} strays from the centre"
        );
        assert!(
            seen.insert(canonical(&rel)),
            "opening {i} repeats another up to symmetry"
        );
        // Nobody starts with a threat: no five-point line holds three stones of one colour and
        // none of the other.
        let colour = |x: i64, y: i64| rel.iter().position(|&s| s == (x, y)).map(|k| k % 2 == 0);
        for x in -10..=10 {
            for y in -10..=10 {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let cells: Vec<Option<bool>> =
                        (0..5).map(|k| colour(x + k * dx, y + k * dy)).collect();
                    for side in [true, false] {
                        let own = cells.iter().filter(|c| **c == Some(side)).count();
                        let other = cells.iter().filter(|c| **c == Some(!side)).count();
                        assert!(!(own >= 3 && other == 0), "opening {i} starts with a three");
                    }
                }
            }
        }
    }
}

#[test]
fn openings_are_played_with_both_colours() {
    let start = board(15);
    let openings = parse_openings::<Gomoku>(&openings_text(), &start).unwrap();
    let spec = |name: &str, b: &str| {
        EngineSpec::parse(&[format!("name={name}"), format!("builtin={b}")]).unwrap()
    };
    let config = MatchConfig {
        games: 6,
        concurrency: 2,
        tc: clock(),
        seed: 4,
        options: GameOptions::default(),
        sprt: None,
    };
    let (a, b) = (spec("a", "classic:5ms"), spec("b", "random"));
    let result = run_match::<Gomoku>(&a, &b, &openings, &config, &|_, _| {}).unwrap();
    let (tally, games) = (result.score.games, result.games);
    assert_eq!(tally.games(), 6);
    for g in &games {
        let k = g.index as usize / 2;
        assert_eq!(g.record.opening, Some(k));
        assert_eq!(g.a_black, g.index % 2 == 0);
        let (black, white) = if g.a_black { ("a", "b") } else { ("b", "a") };
        assert_eq!(
            (g.record.black.as_str(), g.record.white.as_str()),
            (black, white)
        );
        // The record starts with the opening, coloured as played.
        for (j, &p) in openings[k].iter().enumerate() {
            let m = &g.record.moves[j];
            assert_eq!((m.x, m.y), start.coords(p));
            assert_eq!(m.millis, 0);
            let colour = if j % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(m.color, colour);
        }
        assert_rules_end(&g.record, &start);
    }
}

fn assert_no_bare_lf(lines: &[String]) {
    assert!(
        !lines.iter().any(|l| l == "NO-CRLF"),
        "every command ends with CR LF: {lines:?}"
    );
}

fn lines_starting<'l>(lines: &'l [String], prefix: &str) -> Vec<&'l String> {
    lines.iter().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn a_gomocup_brain_wins_and_loses_by_the_rules() {
    // As Black against a player that wastes its stones it builds five on the top row.
    let log = temp_file("win-black");
    let mut bot = GomocupPlayer::new("liner", &brain("play", Some(&log)));
    let mut idle = Scripted::new(&[(14, 14), (12, 14), (10, 14), (8, 14), (6, 14)]);
    let rec = play_game(&mut bot, &mut idle, &board(15), &[], clock());
    assert_rules_end(&rec, &board(15));
    assert_eq!(rec.winner, Some(Color::Black), "{}", rec.reason.describe());
    assert_eq!(rec.moves.len(), 9);
    let lines = heard(&log);
    assert_no_bare_lf(&lines);
    assert_eq!(lines[1], "START 15");
    assert_eq!(lines[2], "INFO timeout_turn 5000");
    assert_eq!(lines[3], "INFO timeout_match 180000");
    assert_eq!(lines[4], "INFO rule 0");
    assert!(lines[5].starts_with("INFO time_left 1"), "{lines:?}");
    assert_eq!(lines[6], "BEGIN");
    assert_eq!(lines_starting(&lines, "TURN ").len(), 4);
    assert_eq!(lines_starting(&lines, "INFO time_left").len(), 5);
    assert_eq!(lines_starting(&lines, "INFO timeout_turn").len(), 1);
    assert_eq!(lines.last().map(String::as_str), Some("END"));
    assert_eq!(
        idle.heard_end,
        Some((Some(Color::Black), Some(Color::Black)))
    );
    let _ = std::fs::remove_file(&log);

    // As White against a player that builds its own five first, it loses: it is told `END`.
    let log = temp_file("lose-white");
    let mut bot = GomocupPlayer::new("liner", &brain("play", Some(&log)));
    let mut builder = Scripted::new(&[(3, 10), (4, 10), (5, 10), (6, 10), (7, 10)]);
    let rec = play_game(&mut builder, &mut bot, &board(15), &[], clock());
    assert_rules_end(&rec, &board(15));
    assert_eq!(rec.winner, Some(Color::Black));
    let lines = heard(&log);
    assert_no_bare_lf(&lines);
    // White's first request is the opponent's stone, as a manager passes it on after BEGIN.
    assert!(lines.iter().any(|l| l == "TURN 3,10"), "{lines:?}");
    assert!(!lines.iter().any(|l| l == "BEGIN" || l == "BOARD"));
    // The winning stone is not sent to the loser; `END` is.
    assert!(!lines.iter().any(|l| l == "TURN 7,10"));
    assert_eq!(lines.last().map(String::as_str), Some("END"));
    let _ = std::fs::remove_file(&log);

    // Against the random player it wins with both colours, one process per game.
    for bot_black in [true, false] {
        let mut bot = GomocupPlayer::new("liner", &brain("play", None));
        let mut random = builtin("random", 7);
        let rec = if bot_black {
            play_game(&mut bot, &mut random, &board(15), &[], clock())
        } else {
            play_game(&mut random, &mut bot, &board(15), &[], clock())
        };
        assert_rules_end(&rec, &board(15));
        let colour = if bot_black {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(rec.winner, Some(colour), "{}", rec.reason.describe());
    }
}

#[test]
fn a_gomocup_brain_starts_from_an_opening_with_board() {
    let start = board(15);
    let text = "7,7 8,7 5,9 8,8\n7,7 8,8 10,7\n";
    let openings = parse_openings::<Gomoku>(text, &start).unwrap();
    // Four stones: Black to move. The brain as Black gets the board with its own stones as 1.
    let log = temp_file("board-black");
    let mut bot = GomocupPlayer::new("liner", &brain("play", Some(&log)));
    let mut random = builtin("random", 3);
    let rec = play_game(&mut bot, &mut random, &start, &openings[0], clock());
    assert_rules_end(&rec, &start);
    let lines = heard(&log);
    assert_no_bare_lf(&lines);
    let board_at = lines.iter().position(|l| l == "BOARD").expect("BOARD sent");
    assert_eq!(
        lines[board_at + 1..board_at + 6],
        ["7,7,1", "8,7,2", "5,9,1", "8,8,2", "DONE"]
    );
    assert!(!lines.iter().any(|l| l == "BEGIN"));
    let _ = std::fs::remove_file(&log);
    // Three stones: White to move; the brain as White sees Black's stones as 2. Then the
    // brain as Black (moving second) gets the board with White's answer on it.
    for bot_black in [false, true] {
        let log = temp_file("board-3");
        let mut bot = GomocupPlayer::new("liner", &brain("play", Some(&log)));
        let mut random = builtin("random", 5);
        let rec = if bot_black {
            play_game(&mut bot, &mut random, &start, &openings[1], clock())
        } else {
            play_game(&mut random, &mut bot, &start, &openings[1], clock())
        };
        assert_rules_end(&rec, &start);
        let lines = heard(&log);
        let at = lines.iter().position(|l| l == "BOARD").expect("BOARD sent");
        if bot_black {
            let reply = &rec.moves[3];
            assert_eq!(
                lines[at + 1..at + 6],
                [
                    "7,7,1".to_string(),
                    "8,8,2".to_string(),
                    "10,7,1".to_string(),
                    format!("{},{},2", reply.x, reply.y),
                    "DONE".to_string()
                ]
            );
        } else {
            assert_eq!(lines[at + 1..at + 5], ["7,7,2", "8,8,1", "10,7,2", "DONE"]);
        }
        let _ = std::fs::remove_file(&log);
    }
}

#[test]
fn gomocup_rules_sizes_and_suggestions() {
    // Exact five and a 20x20 board reach the brain; no clock at all sends no turn limit.
    let log = temp_file("rule");
    let mut bot = GomocupPlayer::new("liner", &brain("play", Some(&log)));
    let mut random = builtin("random", 11);
    let start = board_with(20, true);
    let rec = play_game(&mut bot, &mut random, &start, &[], TimeControl::default());
    assert_rules_end(&rec, &start);
    let lines = heard(&log);
    assert_eq!(lines[1], "START 20");
    assert!(lines.iter().any(|l| l == "INFO rule 1"));
    assert!(lines.iter().any(|l| l == "INFO timeout_match 0"));
    assert!(lines.iter().any(|l| l == "INFO time_left 2147483647"));
    assert!(!lines.iter().any(|l| l.starts_with("INFO timeout_turn")));
    let _ = std::fs::remove_file(&log);
    // A brain that suggests its moves is answered PLAY and plays them.
    let log = temp_file("suggest");
    let mut bot = GomocupPlayer::new("suggester", &brain("suggest", Some(&log)));
    let mut idle = Scripted::new(&[(14, 14), (12, 14), (10, 14), (8, 14), (6, 14)]);
    let rec = play_game(&mut bot, &mut idle, &board(15), &[], clock());
    assert_rules_end(&rec, &board(15));
    assert_eq!(rec.winner, Some(Color::Black));
    let plays = lines_starting(&heard(&log), "PLAY ")
        .into_iter()
        .cloned()
        .collect::<Vec<_>>();
    assert_eq!(plays.len(), 5);
    assert_eq!(
        plays[0],
        format!("PLAY {},{}", rec.moves[0].x, rec.moves[0].y)
    );
    let _ = std::fs::remove_file(&log);
}

fn fault(mode: &str, bot_black: bool, tc: TimeControl) -> (GameRecord, Color) {
    // Short enough that the silent brain does not hold the test up for long, long enough that
    // a Python brain starting on a machine busy with a match still answers in time (800 ms was
    // not).
    let mut bot =
        GomocupPlayer::new("bad", &brain(mode, None)).with_start_grace(Duration::from_millis(2500));
    let mut random = builtin("random", 1);
    if bot_black {
        (
            play_game(&mut bot, &mut random, &board(15), &[], tc),
            Color::Black,
        )
    } else {
        (
            play_game(&mut random, &mut bot, &board(15), &[], tc),
            Color::White,
        )
    }
}

fn assert_lost(result: &(GameRecord, Color), code: &str, text: &str) {
    let (rec, bot) = result;
    assert_eq!(
        rec.winner,
        Some(bot.opponent()),
        "{}",
        rec.reason.describe()
    );
    assert_eq!(rec.reason.code(), code, "{}", rec.reason.describe());
    assert!(
        rec.reason.describe().contains(text),
        "{:?} should mention {text:?}",
        rec.reason.describe()
    );
}

#[test]
fn gomocup_faults_lose_with_the_right_reason() {
    assert_lost(
        &fault("start-error", false, clock()),
        "start-failed",
        "ERROR unsupported size",
    );
    // A brain that says ERROR and exits before it has even read START.
    let mut refuser = GomocupPlayer::new(
        "refuser",
        &format!(
            "sh {}",
            repo_path("test_vectors/arena/bots/gomocup_refuser.sh").display()
        ),
    );
    let rec = play_game(
        &mut refuser,
        &mut builtin("random", 1),
        &board(15),
        &[],
        clock(),
    );
    assert_lost(&(rec, Color::Black), "start-failed", "ERROR not today");
    let silent = fault("silent", true, clock());
    assert_lost(&silent, "start-failed", "no OK to `START 15`");
    assert!(silent.0.moves.is_empty());
    let occupied = fault("occupied", true, clock());
    assert_lost(&occupied, "illegal-move", "already occupied");
    assert_eq!(occupied.0.moves.len(), 2);
    assert_lost(&fault("garbage", false, clock()), "garbage", "rather not");
    assert_lost(
        &fault("error", true, clock()),
        "garbage",
        "ERROR out of memory",
    );
    assert_lost(&fault("crash", false, clock()), "crash", "status 3");
    let per_move = TimeControl {
        per_move: Some(Duration::from_millis(800)),
        per_game: None,
    };
    let t0 = Instant::now();
    assert_lost(&fault("late", true, per_move), "timeout", "out of time");
    assert!(
        t0.elapsed() < Duration::from_millis(2500),
        "killed, not waited for"
    );
    let game_clock = TimeControl {
        per_move: None,
        per_game: Some(Duration::from_millis(1000)),
    };
    assert_lost(&fault("late", false, game_clock), "timeout", "out of time");
}

#[cfg(unix)]
#[test]
fn a_brain_that_ignores_end_is_killed() {
    let log = temp_file("deaf");
    let mut bot = GomocupPlayer::new("deaf", &brain("deaf-end", Some(&log)));
    let mut idle = Scripted::new(&[(14, 14), (12, 14), (10, 14), (8, 14), (6, 14)]);
    let t0 = Instant::now();
    let rec = play_game(&mut bot, &mut idle, &board(15), &[], clock());
    assert_eq!(rec.winner, Some(Color::Black));
    assert!(t0.elapsed() < Duration::from_secs(10));
    let lines = heard(&log);
    assert_eq!(lines.last().map(String::as_str), Some("END"));
    let pid: u32 = lines[0].strip_prefix("pid ").unwrap().parse().unwrap();
    // The process is gone (killed and reaped), not sleeping out its 30 s.
    assert!(!alive(pid), "brain {pid} still runs");
    let _ = std::fs::remove_file(&log);
}

#[cfg(unix)]
fn alive(pid: u32) -> bool {
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_stonebrain")
}

fn arena(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(bin())
        .arg("arena")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_arena_command_plays_gomoku() {
    let out = temp_file("cli-out");
    let openings = repo_path("test_vectors/gomoku/openings.txt");
    let cmd = format!("cmd={}", brain("play", None));
    let (ok, stdout, stderr) = arena(&[
        "--game",
        "gomoku",
        "--games",
        "4",
        "--tc-move",
        "5",
        "--seed",
        "5",
        "--openings",
        openings.to_str().unwrap(),
        "--engine",
        "name=classic",
        "builtin=classic:5ms",
        "--engine",
        "name=liner",
        &cmd,
        "proto=gomocup",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("classic vs liner: 4 games"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    let mut openings_played: Vec<u64> = games
        .iter()
        .map(|g| g["opening"].as_u64().unwrap())
        .collect();
    openings_played.sort();
    assert_eq!(openings_played, [0, 0, 1, 1]);
    for g in &games {
        assert_eq!(g["game"], "gomoku");
        assert_eq!(g["board_size"], 15);
        assert_eq!(g["reason"], "rules", "{g}");
        // The first opening is three stones: 7,7 8,7 6,10.
        if g["opening"] == 0 {
            assert_eq!(g["moves"][2], serde_json::json!([6, 10]));
        }
    }
    let _ = std::fs::remove_file(&out);

    // Other sizes and exact five.
    let (ok, stdout, stderr) = arena(&[
        "--game",
        "gomoku",
        "--size",
        "11",
        "--exact-five",
        "--games",
        "2",
        "--engine",
        "builtin=wintable:5ms",
        "--engine",
        "builtin=engine:5ms,level=full",
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("2 games"), "{stdout}");

    // Refusals say what is wrong.
    let refused = |args: &[&str], text: &str| {
        let (ok, stdout, stderr) = arena(args);
        assert!(!ok, "{args:?} should fail: {stdout}");
        assert!(stderr.contains(text), "{args:?}: {stderr}");
    };
    let gomoku = |rest: &[&'static str]| {
        let mut v = vec!["--game", "gomoku"];
        v.extend_from_slice(rest);
        v
    };
    refused(
        &gomoku(&["--engine", "builtin=mcts:5ms", "--engine", "builtin=random"]),
        "no MCTS engine",
    );
    refused(
        &gomoku(&[
            "--engine",
            "builtin=engine:5ms,level=grandmaster",
            "--engine",
            "builtin=random",
        ]),
        "unknown Gomoku level",
    );
    refused(
        &gomoku(&[
            "--size",
            "25",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=random",
        ]),
        "not 25x25",
    );
    refused(
        &gomoku(&[
            "--engine",
            "name=a",
            "cmd=true",
            "proto=botzone-simple",
            "--engine",
            "name=b",
            "builtin=random",
        ]),
        "no simple interaction",
    );
    refused(
        &gomoku(&[
            "--engine",
            "name=a",
            "cmd=true",
            "proto=sau",
            "--engine",
            "name=b",
            "builtin=random",
        ]),
        "not \"sau\"",
    );
    refused(
        &[
            "--game",
            "connect6",
            "--engine",
            "name=a",
            "cmd=true",
            "proto=gomocup",
            "--engine",
            "name=b",
            "builtin=random",
        ],
        "not \"gomocup\"",
    );
}

/// The real bot over Gomocup, a fresh process a game, from the empty board and from an opening,
/// with both colours: legal play to the end, and a win against the random player.
#[test]
fn the_real_bot_plays_gomoku_over_gomocup() {
    let cmd = format!("{} --protocol gomocup --seed 3 --time-ms 200", bin());
    let start = board(15);
    let openings = parse_openings::<Gomoku>(&openings_text(), &start).unwrap();
    let tc = TimeControl {
        per_move: Some(Duration::from_secs(2)),
        per_game: Some(Duration::from_secs(180)),
    };
    for (opening, bot_black) in [
        (None, true),
        (None, false),
        (Some(0), true),
        (Some(12), false),
    ] {
        let opening = opening.map_or(&[][..], |k: usize| &openings[k][..]);
        let mut bot = GomocupPlayer::new("stonebrain", &cmd);
        let mut random = builtin("random", 2);
        let rec = if bot_black {
            play_game(&mut bot, &mut random, &start, opening, tc)
        } else {
            play_game(&mut random, &mut bot, &start, opening, tc)
        };
        assert_rules_end(&rec, &start);
        let bot_colour = if bot_black {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(rec.winner, Some(bot_colour), "{}", rec.reason.describe());
    }
}

/// The real bot on Botzone's Gomoku, full history (a process a turn) and keep-running, with
/// both colours: legal play to the end, and a win against the random player.
#[test]
fn the_real_bot_plays_gomoku_on_botzone() {
    use stonebrain::arena::players::botzone::{BotzoneMode, BotzonePlayer};
    let cmd = format!(
        "{} --protocol botzone --game gomoku --seed 3 --time-ms 300",
        bin()
    );
    let start = board(15);
    let tc = TimeControl {
        per_move: Some(Duration::from_secs(2)),
        per_game: None,
    };
    for (mode, bot_black) in [
        ("botzone", true),
        ("botzone", false),
        ("botzone-keep-running", true),
        ("botzone-keep-running", false),
    ] {
        let cmd = if mode == "botzone-keep-running" {
            format!("{cmd} --keep-running")
        } else {
            cmd.clone()
        };
        let mut bot = BotzonePlayer::new("stonebrain", &cmd, BotzoneMode::from_name(mode).unwrap());
        let mut random = builtin("random", 5);
        let rec = if bot_black {
            play_game(&mut bot, &mut random, &start, &[], tc)
        } else {
            play_game(&mut random, &mut bot, &start, &[], tc)
        };
        assert_rules_end(&rec, &start);
        let bot_colour = if bot_black {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(
            rec.winner,
            Some(bot_colour),
            "{mode}: {}",
            rec.reason.describe()
        );
    }
}
