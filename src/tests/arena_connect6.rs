//! Connect6 in the arena: whole turns of one or two stones, the referee's checks on every stone,
//! draws on a full board, the greedy baseline, and external engines over the SAU protocol and
//! Botzone's ConnectSix, each a real child process.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use stonebrain::arena::duel::{run_match, MatchConfig};
use stonebrain::arena::engines::EngineSpec;
use stonebrain::arena::player::TimeControl;
use stonebrain::arena::player::{Answer, ArenaGame, GameEnd, GameOptions, Player, Turn};
use stonebrain::arena::players::botzone::{BotzoneMode, BotzonePlayer};
use stonebrain::arena::players::builtin::Builtin;
use stonebrain::arena::players::sau::SauPlayer;
use stonebrain::arena::record::{EndReason, GameRecord};
use stonebrain::arena::referee::play_game;
use stonebrain::game::connect6::{Connect6, Stone};
use stonebrain::game::{Color, Game, Outcome};

fn board(size: usize) -> Connect6 {
    Connect6::start(&GameOptions {
        size: Some(size),
        ..GameOptions::default()
    })
    .unwrap()
}

fn bot_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_vectors/arena/bots")
        .join(name)
}

/// The scripted Connect6 bot over SAU, in `mode`, logging what it hears to `log`.
fn sau_script(mode: &str, log: Option<&Path>) -> String {
    let mut cmd = format!("python3 {} sau {mode}", bot_path("c6_bot.py").display());
    if let Some(log) = log {
        cmd.push_str(&format!(" {}", log.display()));
    }
    cmd
}

fn temp_file(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("stonebrain-c6-{name}-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn builtin(spec: &str, seed: u64) -> Builtin<Connect6> {
    Builtin::<Connect6>::from_spec(spec, spec, seed).unwrap()
}

fn clock() -> TimeControl {
    TimeControl {
        per_move: Some(Duration::from_secs(5)),
        per_game: Some(Duration::from_secs(180)),
    }
}

/// Replays a record stone by stone from `start`: every stone legal, coloured as the turn order
/// says, and the end as the record says. Returns the final position.
fn replay(rec: &GameRecord, start: &Connect6) -> Connect6 {
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

/// Checks a game that the rules ended.
fn assert_rules_end(rec: &GameRecord, start: &Connect6) {
    assert_eq!(rec.reason.code(), "rules", "{}", rec.reason.describe());
    let pos = replay(rec, start);
    match pos.outcome() {
        Some(Outcome::Win(w)) => {
            assert_eq!(rec.winner, Some(w));
            assert!(rec.reason.describe().contains("six in a row"));
        }
        Some(Outcome::Draw) => {
            assert_eq!(rec.winner, None);
            assert!(rec.reason.describe().contains("full board"));
        }
        None => panic!("the record does not replay to a finished game"),
    }
    assert_eq!(rec.game, "connect6");
    assert_eq!(rec.board_size, start.board_size());
}

fn play(
    black: &mut dyn Player<Connect6>,
    white: &mut dyn Player<Connect6>,
    size: usize,
) -> GameRecord {
    play_game(black, white, &board(size), &[], clock())
}

#[test]
fn builtin_games_finish_with_legal_records() {
    for (size, black, white) in [
        (19, "random", "random"),
        (19, "greedy", "random"),
        (15, "random", "greedy"),
        (19, "engine:50n", "greedy"),
        (15, "greedy", "engine:20ms"),
    ] {
        let rec = play(&mut builtin(black, 1), &mut builtin(white, 2), size);
        assert_rules_end(&rec, &board(size));
        // Black's first turn is one stone, then the colours come in pairs.
        let colours: String = rec
            .moves
            .iter()
            .map(|m| if m.color == Color::Black { 'B' } else { 'W' })
            .collect();
        assert!(
            colours.starts_with("BWWBBWW"),
            "{black} vs {white}: {colours}"
        );
        let json = rec.to_json();
        assert_eq!(json["colors"].as_str(), Some(colours.as_str()));
        assert_eq!(json["moves"].as_array().unwrap().len(), rec.moves.len());
        // A turn's time is written on its first stone.
        for (i, m) in rec.moves.iter().enumerate() {
            if i % 2 == 0 && i > 0 {
                assert_eq!(m.millis, 0, "second stone of a pair");
            }
        }
    }
}

#[test]
fn greedy_beats_random() {
    let mut wins = 0;
    for seed in 0..10u64 {
        let mut greedy = builtin("greedy", seed);
        let mut random = builtin("random", seed + 50);
        let greedy_black = seed % 2 == 0;
        let rec = if greedy_black {
            play(&mut greedy, &mut random, 19)
        } else {
            play(&mut random, &mut greedy, 19)
        };
        assert_rules_end(&rec, &board(19));
        let greedy_color = if greedy_black {
            Color::Black
        } else {
            Color::White
        };
        if rec.winner == Some(greedy_color) {
            wins += 1;
        }
    }
    assert!(wins >= 9, "greedy won only {wins} of 10 against random");
}

#[test]
fn a_full_board_is_a_draw() {
    // On 6x6 random players fill the board without six in a row now and then; 36 points make
    // the last turn a single stone.
    let mut draws = 0;
    for seed in 0..40u64 {
        let rec = play(
            &mut builtin("random", seed),
            &mut builtin("random", seed + 1000),
            6,
        );
        assert_rules_end(&rec, &board(6));
        if rec.winner.is_none() {
            draws += 1;
            assert_eq!(rec.moves.len(), 36);
            assert_eq!(rec.result_text(), "1/2-1/2");
            let json = rec.to_json();
            assert!(json["winner"].is_null());
            assert_eq!(json["result"], "1/2-1/2");
        }
    }
    assert!(draws > 0, "no draw in 40 random games on 6x6");
    // A match counts draws.
    let spec = |name: &str| {
        EngineSpec::parse(&[format!("name={name}"), "builtin=random".to_string()]).unwrap()
    };
    let config = MatchConfig {
        games: 12,
        concurrency: 2,
        tc: TimeControl::default(),
        seed: 3,
        options: GameOptions {
            size: Some(6),
            ..GameOptions::default()
        },
        sprt: None,
    };
    let result = run_match::<Connect6>(&spec("a"), &spec("b"), &[], &config, &|_, _| {}).unwrap();
    let (tally, games) = (result.score.games, result.games);
    assert_eq!(tally.games(), 12);
    assert_eq!(games.len(), 12);
    let drawn = games.iter().filter(|g| g.record.winner.is_none()).count();
    assert_eq!(tally.draws as usize, drawn);
}

/// What a player heard at the end: the winner, and who made the last turn and with how many
/// stones.
type HeardEnd = (Option<Color>, Option<(Color, usize)>);

/// A player that answers from a script of turns (as (x, y) points) and remembers how the game
/// ended.
struct Scripted {
    turns: Vec<Vec<(usize, usize)>>,
    next: usize,
    heard_end: Option<HeardEnd>,
}

impl Scripted {
    fn new(turns: &[&[(usize, usize)]]) -> Scripted {
        Scripted {
            turns: turns.iter().map(|t| t.to_vec()).collect(),
            next: 0,
            heard_end: None,
        }
    }
}

impl Player<Connect6> for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn new_game(&mut self, _color: Color, _start: &Connect6) -> Result<(), EndReason> {
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, Connect6>) -> Answer<Stone> {
        let stones: Vec<Stone> = self.turns[self.next]
            .iter()
            .map(|&(x, y)| turn.pos.point(x, y))
            .collect();
        self.next += 1;
        (Ok(stones), Duration::from_millis(1))
    }

    fn end_game(&mut self, end: &GameEnd<'_, Connect6>) {
        self.heard_end = Some((end.winner, end.last_turn.map(|(c, s)| (c, s.len()))));
    }
}

fn scripted_game(
    black: &[&[(usize, usize)]],
    white: &[&[(usize, usize)]],
) -> (GameRecord, Scripted, Scripted) {
    let (mut b, mut w) = (Scripted::new(black), Scripted::new(white));
    let rec = play_game(&mut b, &mut w, &board(19), &[], clock());
    (rec, b, w)
}

#[test]
fn the_referee_checks_every_stone_of_a_turn() {
    let illegal = |rec: &GameRecord, loser: Color, text: &str| {
        assert_eq!(rec.winner, Some(loser.opponent()));
        assert_eq!(rec.reason.code(), "illegal-move");
        assert!(
            rec.reason.describe().contains(text),
            "{:?} should mention {text:?}",
            rec.reason.describe()
        );
    };
    // Black's first turn is one stone.
    let (rec, ..) = scripted_game(&[&[(9, 9), (9, 10)]], &[]);
    illegal(&rec, Color::Black, "2 stones where 1 was due");
    assert!(rec.moves.is_empty());
    // Later turns are two.
    let (rec, ..) = scripted_game(&[&[(9, 9)]], &[&[(3, 3)]]);
    illegal(&rec, Color::White, "1 stone where 2 were due");
    assert_eq!(rec.moves.len(), 2, "the stone played is recorded");
    let (rec, ..) = scripted_game(&[&[(9, 9)]], &[&[(3, 3), (3, 4), (3, 5)]]);
    illegal(&rec, Color::White, "3 stones where 2 were due");
    // A pair on one point, an occupied point, a pass.
    let (rec, ..) = scripted_game(&[&[(9, 9)]], &[&[(3, 3), (3, 3)]]);
    illegal(&rec, Color::White, "(3,3) twice");
    let (rec, ..) = scripted_game(&[&[(9, 9)]], &[&[(3, 3), (9, 9)]]);
    illegal(&rec, Color::White, "(9,9): the point is already occupied");
    let (rec, ..) = scripted_game(&[&[(9, 9)]], &[&[]]);
    illegal(&rec, Color::White, "empty turn");
}

#[test]
fn a_winning_first_stone_ends_the_turn_and_both_sides_hear_it() {
    // Black builds (2..=6, 0) and completes (7, 0) with the first stone of a pair; the second
    // stone, on an empty point, is not played.
    let black: &[&[(usize, usize)]] = &[
        &[(2, 0)],
        &[(3, 0), (4, 0)],
        &[(5, 0), (6, 0)],
        &[(7, 0), (18, 18)],
    ];
    let white: &[&[(usize, usize)]] = &[
        &[(0, 10), (0, 11)],
        &[(5, 10), (5, 11)],
        &[(9, 10), (9, 11)],
    ];
    let (rec, b, w) = scripted_game(black, white);
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::Black));
    assert_eq!(rec.moves.len(), 1 + 2 + 2 + 2 + 2 + 2 + 1);
    assert_eq!(
        (rec.moves.last().unwrap().x, rec.moves.last().unwrap().y),
        (7, 0)
    );
    let told = Some((Some(Color::Black), Some((Color::Black, 2))));
    assert_eq!(b.heard_end, told);
    assert_eq!(w.heard_end, told);
    // The same with an occupied second stone is an illegal turn.
    let mut black = black.to_vec();
    black[3] = &[(7, 0), (0, 10)];
    let (rec, ..) = scripted_game(&black, white);
    assert_eq!(rec.winner, Some(Color::White));
    assert_eq!(rec.reason.code(), "illegal-move");
}

/// The lines a logging SAU bot heard.
fn heard(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn an_sau_engine_wins_and_loses_by_the_rules_in_one_process() {
    let log = temp_file("sau-play");
    let mut bot = SauPlayer::new("liner", &sau_script("play", Some(&log)));
    // Against random it builds its line and wins, from both sides.
    let mut random = builtin("random", 9);
    let rec = play_game(&mut bot, &mut random, &board(19), &[], clock());
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::Black), "{}", rec.reason.describe());
    assert_eq!(bot.engine_name(), Some("c6script"));
    let rec = play_game(&mut random, &mut bot, &board(19), &[], clock());
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::White), "{}", rec.reason.describe());
    assert!(rec.time_used_ms[1] > 0 || rec.moves.len() < 30);
    // Against greedy, which blocks, it loses: it is told the winning move, then `end`.
    let mut greedy = builtin("greedy", 1);
    let rec = play_game(&mut greedy, &mut bot, &board(19), &[], clock());
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::Black), "{}", rec.reason.describe());
    drop(bot);
    let lines = heard(&log);
    let count = |l: &str| lines.iter().filter(|x| *x == l).count();
    assert_eq!(count("name?"), 1, "one process for all games: {lines:?}");
    assert_eq!(count("new black"), 1);
    assert_eq!(count("new white"), 2);
    assert_eq!(count("end"), 3);
    assert_eq!(lines.last().map(String::as_str), Some("quit"));
    // Black's first stone reaches White as one stone and `@@`.
    let first_white_game = lines.iter().position(|l| l == "new white").unwrap();
    assert!(
        lines[first_white_game + 1].starts_with("move ")
            && lines[first_white_game + 1].ends_with("@@")
    );
    // The winner hears `end` right after its own winning turn; the loser gets the winning
    // move first.
    let ends: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| *l == "end")
        .map(|(i, _)| i)
        .collect();
    assert!(
        lines[ends[0] - 1].starts_with("move "),
        "first game: the bot won, {lines:?}"
    );
    let last = rec.moves.len();
    let winning: String = rec.moves[last - 2..]
        .iter()
        .map(|m| {
            format!(
                "{}{}",
                char::from(b'A' + m.x as u8),
                char::from(b'A' + m.y as u8)
            )
        })
        .collect();
    assert_eq!(
        lines[ends[2] - 1],
        format!("move {winning}"),
        "the loser sees the win"
    );
    let _ = std::fs::remove_file(&log);
}

/// `proto=sau-tolerant` plays an engine with an older engine's habits (no answer to `name?`,
/// settings on its input, help text and "We loss!" on its output, single stones in two
/// letters) through whole games, in one process; plain `sau` refuses it at the start.
#[test]
fn a_loose_sau_engine_plays_in_tolerant_mode() {
    let log = temp_file("sau-loose");
    let init = ["depth 4".to_string()];
    let mut bot = SauPlayer::new("loose", &sau_script("loose", Some(&log)))
        .with_init(&init)
        .tolerant();
    let mut random = builtin("random", 9);
    let rec = play_game(&mut bot, &mut random, &board(19), &[], clock());
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::Black), "{}", rec.reason.describe());
    assert_eq!(bot.engine_name(), None);
    let rec = play_game(&mut random, &mut bot, &board(19), &[], clock());
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::White), "{}", rec.reason.describe());
    // It loses to greedy: the winning move reaches it, it answers "We loss!" with no newline,
    // and the next game's first answer, glued to it, is still read.
    let mut greedy = builtin("greedy", 1);
    let rec = play_game(&mut greedy, &mut bot, &board(19), &[], clock());
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::Black));
    let rec = play_game(&mut bot, &mut random, &board(19), &[], clock());
    assert_rules_end(&rec, &board(19));
    assert_eq!(rec.winner, Some(Color::Black), "{}", rec.reason.describe());
    drop(bot);
    let lines = heard(&log);
    assert_eq!(lines.first().map(String::as_str), Some("depth 4"));
    assert_eq!(
        lines.iter().filter(|l| *l == "name?").count(),
        1,
        "{lines:?}"
    );
    // Black's single first stone went to it in two letters.
    let white_game = lines.iter().position(|l| l == "new white").unwrap();
    let first = &lines[white_game + 1];
    assert!(first.starts_with("move ") && first.len() == 7, "{first}");
    assert!(lines.iter().all(|l| !l.contains('@')), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("quit"));
    // The same engine over plain SAU never answers `name?`.
    let rec = sau_fault(&sau_script("loose", None), clock());
    assert_eq!(
        rec.reason.code(),
        "start-failed",
        "{}",
        rec.reason.describe()
    );
    let _ = std::fs::remove_file(&log);
}

fn sau_fault(command: &str, tc: TimeControl) -> GameRecord {
    let mut bot = SauPlayer::new("bad", command).with_name_grace(Duration::from_millis(800));
    let mut good = builtin("greedy", 1);
    play_game(&mut good, &mut bot, &board(19), &[], tc)
}

fn assert_bot_lost(rec: &GameRecord, code: &str) {
    assert_eq!(rec.winner, Some(Color::Black), "{}", rec.reason.describe());
    assert_eq!(rec.reason.code(), code, "{}", rec.reason.describe());
}

#[test]
fn sau_faults_lose_with_the_right_reason() {
    let rec = sau_fault(&sau_script("occupied", None), clock());
    assert_bot_lost(&rec, "illegal-move");
    assert!(
        rec.reason.describe().contains("already occupied"),
        "{}",
        rec.reason.describe()
    );
    let rec = sau_fault(
        &format!("sh {}", bot_path("sau_silent.sh").display()),
        clock(),
    );
    assert_bot_lost(&rec, "start-failed");
    assert!(
        rec.reason.describe().contains("name?"),
        "{}",
        rec.reason.describe()
    );
    let rec = sau_fault(
        &format!("sh {}", bot_path("sau_garbage.sh").display()),
        clock(),
    );
    assert_bot_lost(&rec, "garbage");
    assert!(
        rec.reason.describe().contains("here"),
        "{}",
        rec.reason.describe()
    );
    let rec = sau_fault(&sau_script("crash", None), clock());
    assert_bot_lost(&rec, "crash");
    assert!(
        rec.reason.describe().contains("status 4"),
        "{}",
        rec.reason.describe()
    );
    let tc = TimeControl {
        per_move: None,
        per_game: Some(Duration::from_millis(1500)),
    };
    let rec = sau_fault(&sau_script("late", None), tc);
    assert_bot_lost(&rec, "timeout");
}

#[test]
fn an_sau_engine_that_faulted_is_restarted_for_the_next_game() {
    let log = temp_file("sau-restart");
    let mut bot = SauPlayer::new("late", &sau_script("late", Some(&log)));
    let mut greedy = builtin("greedy", 1);
    let tc = TimeControl {
        per_move: Some(Duration::from_millis(700)),
        per_game: None,
    };
    for _ in 0..2 {
        let rec = play_game(&mut greedy, &mut bot, &board(19), &[], tc);
        assert_bot_lost(&rec, "timeout");
    }
    drop(bot);
    let lines = heard(&log);
    assert_eq!(
        lines.iter().filter(|l| *l == "name?").count(),
        2,
        "a fresh process after the time-out: {lines:?}"
    );
    let _ = std::fs::remove_file(&log);
}

#[test]
fn botzone_connectsix_bots_play_15x15() {
    for proto in ["botzone", "botzone-simple"] {
        let mode = BotzoneMode::from_name(proto).unwrap();
        let cmd = format!("python3 {} {proto} 15", bot_path("c6_bot.py").display());
        let mut bot = BotzonePlayer::new("liner", &cmd, mode);
        let mut random = builtin("random", 4);
        for bot_black in [true, false] {
            let rec = if bot_black {
                play_game(&mut bot, &mut random, &board(15), &[], clock())
            } else {
                play_game(&mut random, &mut bot, &board(15), &[], clock())
            };
            assert_rules_end(&rec, &board(15));
            let bot_color = if bot_black {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(
                rec.winner,
                Some(bot_color),
                "{proto}: {}",
                rec.reason.describe()
            );
        }
    }
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
fn the_arena_command_plays_connect6() {
    let out = temp_file("cli-out");
    let sau = format!("cmd={}", sau_script("play", None));
    let (ok, stdout, stderr) = arena(&[
        "--game",
        "connect6",
        "--games",
        "2",
        "--tc",
        "180",
        "--seed",
        "5",
        "--engine",
        "name=greedy",
        "builtin=greedy",
        "--engine",
        "name=liner",
        &sau,
        "proto=sau",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("greedy vs liner: 2 games"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["game"], "connect6");
        assert_eq!(g["board_size"], 19);
        assert!(g["colors"].as_str().unwrap().starts_with("BWWBB"));
    }
    let _ = std::fs::remove_file(&out);
    // Refusals say what is wrong.
    let refused = |args: &[&str], text: &str| {
        let (ok, stdout, stderr) = arena(args);
        assert!(!ok, "{args:?} should fail: {stdout}");
        assert!(stderr.contains(text), "{args:?}: {stderr}");
    };
    refused(
        &[
            "--game",
            "connect6",
            "--engine",
            "name=a",
            "builtin=mcts:10ms",
            "--engine",
            "name=b",
            "builtin=random",
        ],
        "no MCTS engine",
    );
    refused(
        &[
            "--game",
            "connect6",
            "--engine",
            "name=a",
            "cmd=true",
            "proto=botzone",
            "--engine",
            "name=b",
            "builtin=random",
        ],
        "--size 15",
    );
    refused(
        &[
            "--game",
            "connect6",
            "--size",
            "40",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=random",
        ],
        "not 40x40",
    );
    refused(
        &[
            "--game",
            "nogo",
            "--engine",
            "name=a",
            "cmd=true",
            "proto=sau",
            "--engine",
            "name=b",
            "builtin=random",
        ],
        "not \"sau\"",
    );
    refused(
        &[
            "--game",
            "connect6",
            "--exact-five",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=random",
        ],
        "exact five is a Gomoku rule",
    );
}

/// The real bot over SAU, one process for both games, under the class clock (its turns capped at
/// 300 ms to keep the test short).
#[test]
fn the_real_bot_plays_connect6_over_sau() {
    let cmd = format!(
        "{} --protocol sau --game connect6 --seed 3 --time-ms 300",
        bin()
    );
    let mut bot = SauPlayer::new("stonebrain", &cmd);
    let mut random = builtin("random", 2);
    let tc = TimeControl {
        per_move: None,
        per_game: Some(Duration::from_secs(180)),
    };
    for bot_black in [true, false] {
        let rec = if bot_black {
            play_game(&mut bot, &mut random, &board(19), &[], tc)
        } else {
            play_game(&mut random, &mut bot, &board(19), &[], tc)
        };
        assert_rules_end(&rec, &board(19));
        let bot_color = if bot_black {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(rec.winner, Some(bot_color), "{}", rec.reason.describe());
    }
}

/// The real bot on Botzone's ConnectSix, a fresh process a turn.
#[test]
fn the_real_bot_plays_connectsix_on_botzone() {
    let cmd = format!(
        "{} --protocol botzone --game connect6 --seed 3 --time-ms 300",
        bin()
    );
    let mut bot = BotzonePlayer::new(
        "stonebrain",
        &cmd,
        BotzoneMode::from_name("botzone").unwrap(),
    );
    let mut random = builtin("random", 2);
    for bot_black in [true, false] {
        let rec = if bot_black {
            play_game(&mut bot, &mut random, &board(15), &[], clock())
        } else {
            play_game(&mut random, &mut bot, &board(15), &[], clock())
        };
        assert_rules_end(&rec, &board(15));
        let bot_color = if bot_black {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(rec.winner, Some(bot_color), "{}", rec.reason.describe());
    }
}

#[test]
fn a_clock_budget_needs_a_game_clock() {
    let (ok, stdout, stderr) = arena(&[
        "--game",
        "connect6",
        "--games",
        "2",
        "--engine",
        "name=planner",
        "builtin=engine:clock",
        "--engine",
        "builtin=random",
    ]);
    assert!(!ok, "{stdout}");
    assert!(stderr.contains("planner: a clock budget"), "{stderr}");
    assert!(stderr.contains("--tc"), "{stderr}");
}
