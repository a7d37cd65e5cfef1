//! `stonebrain positions connect6`: the Connect6 network's training records, read from the
//! arena's game files (`stonebrain arena --out`), so that the trainer and the engine cannot read
//! a position differently: the table rows here are the ones the engine's accumulators add.
//!
//! Every turn start of a finished game (the side to move has both stones of its turn to place)
//! gives one record: the game's result for the side to move, the threats against it, the
//! fitted evaluation's value, and the table row of each cell's four line codes read by the side
//! to move and then by the other side (`view_row`: a blank view reads the zero row just past
//! the table, which the trainer keeps at zero).
//!
//! With `--label-nodes N` each position is also searched by the engine for N nodes (without
//! book or opening variety), and the search's value kept beside the result: a target that says
//! what a deeper look sees of this very position, where the result says only how one game from
//! it went. `--every K` keeps one turn start in K (the searches are the cost).
//!
//! With `--branches B` as well, each labelled turn start also gives up to B positions off the
//! game's line: one of the labelling search's other root turns (drawn at random among its best
//! eight, seeded by the game and the turn) is played, and the opponent's turn start that
//! follows is searched like the rest. The search meets such positions (after a turn no game
//! would play) far more often than the games' own, so a network should see some; at one branch
//! per turn start they bought no strength measured at equal nodes (docs/connect6-network.md,
//! stop 102). Their result is not known: they store 2 there.
//!
//! File layout (little-endian): the magic `SBC6DATA`; the format version (2), the codes'
//! reach, the board's size and the nodes of the labelling searches (0: none) (u32 each); then
//! records of fixed size: the result for the side to move (i8: 1 won, 0 drawn, -1 lost, 2 not
//! known: a position off the game's line), the
//! threats against it (u8, 0 to 3), the stones on the board (u16), the fitted value in search
//! units (i16), the search's value for the side to move in search units (i16, proved wins and
//! losses at +-32,767; 0 when not labelled), the game's number in the run (u32, counting every
//! game file in order, for holding games out), and the rows (u16 each, `2 * 4 * size * size`
//! of them: the side to move's reading, cell by cell, direction by direction, then the other
//! side's).

use crate::engine::connect6::board::{Board, Weights};
use crate::engine::connect6::network::codes::LineCodes;
use crate::engine::connect6::network::model::{table_rows, view_rows};
use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::game::connect6::{Connect6, Connect6Rules, Stone};
use crate::game::{Color, Game};
use crate::search::clock::Limits;
use crate::search::score::WIN_BOUND;
use anyhow::{bail, Context, Result};
use clap::Args;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::io::Write;
use std::path::PathBuf;

pub const MAGIC: &[u8; 8] = b"SBC6DATA";
pub const VERSION: u32 = 2;
pub const HEADER_SIZE: usize = 24;
/// Bytes of a record before its rows.
pub const RECORD_HEAD: usize = 12;
/// The result of a position off the game's line (`--branches`).
pub const UNKNOWN_RESULT: i8 = 2;
/// Branches are drawn among this many of the labelling search's best other root turns.
const BRANCH_CHOICES: usize = 8;

#[derive(Args, Clone, Debug)]
pub struct PositionsArgs {
    /// The game (only `connect6` has a value network to train).
    #[arg(value_parser = ["connect6"])]
    pub game: String,
    /// The records file to write (replaced if present).
    #[arg(long)]
    pub out: PathBuf,
    /// How far each cell's view reaches along its lines, 1 to 4.
    #[arg(long, default_value_t = 4)]
    pub reach: usize,
    /// Search each kept position for this many nodes and keep its value as a second target
    /// (0: no searches).
    #[arg(long, default_value_t = 0)]
    pub label_nodes: u64,
    /// Keep one turn start in this many (counted through the run, from the first).
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// With --label-nodes: from each labelled turn start, also this many positions off the
    /// game's line (one of the search's other root turns played), searched the same way.
    #[arg(long, default_value_t = 0)]
    pub branches: usize,
    /// Seeds the choice of the branches' turns.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Searches run at once, one a core.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The arena's game files, read in order.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
}

/// One turn start's record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub result: i8,
    pub against: u8,
    pub stones: u16,
    pub fitted: i16,
    /// The labelling search's value (0 without one).
    pub search: i16,
    pub game: u32,
    /// The side to move's rows, then the other side's.
    pub rows: Vec<u16>,
}

impl Record {
    pub fn to_bytes(&self, out: &mut Vec<u8>) {
        out.push(self.result as u8);
        out.push(self.against);
        out.extend_from_slice(&self.stones.to_le_bytes());
        out.extend_from_slice(&self.fitted.to_le_bytes());
        out.extend_from_slice(&self.search.to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
        for r in &self.rows {
            out.extend_from_slice(&r.to_le_bytes());
        }
    }
}

/// The rows of every view of `codes` read by `side`, `rows` being `view_rows` of the reach.
pub fn rows_for<'a>(
    codes: &'a LineCodes,
    side: Color,
    rows: &'a [u16],
) -> impl Iterator<Item = u16> + 'a {
    let n = codes.size();
    (0..(n * n) as Stone)
        .flat_map(move |p| (0..4).map(move |dir| rows[codes.code_for(p, dir, side) as usize]))
}

/// The records of one game: its stones in order and the winner (`None` for a draw);
/// `view_rows` is `model::view_rows(reach)`.
pub fn game_records(
    size: usize,
    stones: &[Stone],
    winner: Option<Color>,
    (reach, view_rows): (usize, &[u16]),
    game: u32,
) -> Result<Vec<Record>> {
    let rules = Connect6Rules::with_size(size).context("board size")?;
    let mut pos = Connect6::new(rules);
    let mut codes = LineCodes::new(size, reach);
    let mut records = Vec::new();
    for (i, &p) in stones.iter().enumerate() {
        if pos.winner().is_some() {
            bail!("stone {} comes after the game was won", i + 1);
        }
        if (p as usize) >= size * size || pos.color_at(p).is_some() {
            bail!("stone {} is not on an empty cell", i + 1);
        }
        if pos.stones_left_in_turn() == 2 {
            let me = pos.side_to_move();
            let result = match winner {
                Some(w) if w == me => 1,
                Some(_) => -1,
                None => 0,
            };
            records.push(turn_start_record(&pos, &codes, view_rows, result, game));
        }
        let color = pos.side_to_move();
        codes.place(p, color);
        pos.place(p);
    }
    Ok(records)
}

/// The record of `pos`, a turn start whose line codes are `codes`, with the result given.
fn turn_start_record(
    pos: &Connect6,
    codes: &LineCodes,
    view_rows: &[u16],
    result: i8,
    game: u32,
) -> Record {
    let me = pos.side_to_move();
    let against = pos.threats(me.opponent());
    let board = Board::with_weights(pos, Weights::default());
    let fitted = board.evaluate_facing(me, against);
    let rows = rows_for(codes, me, view_rows)
        .chain(rows_for(codes, me.opponent(), view_rows))
        .collect();
    Record {
        result,
        against: against.min(3) as u8,
        stones: pos.ply() as u16,
        fitted: fitted.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        search: 0,
        game,
        rows,
    }
}

/// A finished game: the board's size, its stones in order, the winner (`None`: a draw).
pub(crate) type FinishedGame = (usize, Vec<Stone>, Option<Color>);

/// A game of an arena game file: board size, stones, winner; `None` for a game of another
/// kind or one that did not finish by the rules (a time loss or an illegal move says nothing
/// of the position).
pub(crate) fn parse_game(line: &str) -> Result<Option<FinishedGame>> {
    let v: serde_json::Value = serde_json::from_str(line).context("not JSON")?;
    finished_game(&v)
}

/// `parse_game` of a line already read as JSON, for a reader that wants more of the line (the
/// players' names).
pub(crate) fn finished_game(v: &serde_json::Value) -> Result<Option<FinishedGame>> {
    if v["game"] != "connect6" || v["reason"] != "rules" {
        return Ok(None);
    }
    let size = v["board_size"].as_u64().context("no board_size")? as usize;
    let moves = v["moves"].as_array().context("no moves")?;
    let mut stones = Vec::with_capacity(moves.len());
    for m in moves {
        let (x, y) = (m[0].as_u64(), m[1].as_u64());
        match (x, y) {
            (Some(x), Some(y)) if (x as usize) < size && (y as usize) < size => {
                stones.push((y as usize * size + x as usize) as Stone)
            }
            _ => bail!("a move that is not a cell: {m}"),
        }
    }
    let winner = match v["winner"].as_str() {
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        _ => None,
    };
    Ok(Some((size, stones, winner)))
}

pub fn write(args: &PositionsArgs) -> Result<()> {
    if !(1..=4).contains(&args.reach) {
        bail!("--reach {}: from 1 to 4", args.reach);
    }
    debug_assert!(table_rows(args.reach) < u16::MAX as usize);
    if args.every == 0 || args.threads == 0 {
        bail!("--every and --threads must be at least 1");
    }
    if args.branches > 0 && args.label_nodes == 0 {
        bail!("--branches needs --label-nodes: positions off the games' lines have no result");
    }
    let mut size = None;
    let rows = view_rows(args.reach);
    let (mut games, mut turn_starts) = (0u32, 0usize);
    // The kept records and the stones before each, for the labelling searches.
    let mut kept: Vec<(Record, Vec<Stone>)> = Vec::new();
    for file in &args.games {
        let text = std::fs::read_to_string(file).with_context(|| file.display().to_string())?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = || format!("{}:{}", file.display(), n + 1);
            let Some((s, stones, winner)) = parse_game(line).with_context(place)? else {
                continue;
            };
            if *size.get_or_insert(s) != s {
                bail!(
                    "{}: a {s}x{s} game among {}x{} ones",
                    place(),
                    size.unwrap(),
                    size.unwrap()
                );
            }
            for r in
                game_records(s, &stones, winner, (args.reach, &rows), games).with_context(place)?
            {
                if turn_starts % args.every == 0 {
                    let before = stones[..r.stones as usize].to_vec();
                    kept.push((r, before));
                }
                turn_starts += 1;
            }
            games += 1;
        }
    }
    let Some(size) = size else {
        bail!("no finished Connect6 game in the files given");
    };
    let mut off_line = Vec::new();
    if args.label_nodes > 0 {
        let how = Labelling {
            nodes: args.label_nodes,
            threads: args.threads,
            branches: args.branches,
            seed: args.seed,
            reach: args.reach,
            view_rows: &rows,
        };
        off_line = label(&mut kept, size, &how)?;
    }
    let mut out = Vec::new();
    for r in kept.iter().map(|(r, _)| r).chain(&off_line) {
        r.to_bytes(&mut out);
    }
    let records = kept.len() + off_line.len();
    let mut file =
        std::fs::File::create(&args.out).with_context(|| format!("{}", args.out.display()))?;
    file.write_all(MAGIC)?;
    let nodes = args.label_nodes.min(u32::MAX as u64) as u32;
    for v in [VERSION, args.reach as u32, size as u32, nodes] {
        file.write_all(&v.to_le_bytes())?;
    }
    file.write_all(&out)?;
    eprintln!(
        "{records} positions ({} off the games' lines) of {games} games ({size}x{size}, reach {}) to {}",
        off_line.len(),
        args.reach,
        args.out.display()
    );
    Ok(())
}

/// The search's value of a position for its side to move, in search units within an i16.
pub fn search_value(engine: &mut Connect6Engine, pos: &Connect6, nodes: u64) -> i16 {
    stored_value(engine.analyse(pos, Limits::iterations(nodes)).value)
}

/// A search's value (`None`: none given) as the records store it.
fn stored_value(value: Option<i32>) -> i16 {
    let v = value.unwrap_or(0);
    if v > WIN_BOUND {
        i16::MAX
    } else if v < -WIN_BOUND {
        -i16::MAX
    } else {
        v.clamp(-(i16::MAX as i32) + 1, i16::MAX as i32 - 1) as i16
    }
}

/// How the kept positions are searched: nodes a search, threads at once, branches a position
/// (see the module's notes), the branches' seed, and the codes' reach with its `view_rows`.
struct Labelling<'a> {
    nodes: u64,
    threads: usize,
    branches: usize,
    seed: u64,
    reach: usize,
    view_rows: &'a [u16],
}

/// Searches every kept position, `threads` at a time, each thread with its own engine, and
/// stores the values; returns the labelled positions off the games' lines (`branches`);
/// reports progress on standard error.
fn label(kept: &mut [(Record, Vec<Stone>)], size: usize, how: &Labelling) -> Result<Vec<Record>> {
    let rules = Connect6Rules::with_size(size).context("board size")?;
    let started = std::time::Instant::now();
    let total = kept.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let chunk = total.div_ceil(how.threads).max(1);
    let branches = std::thread::scope(|scope| {
        let workers: Vec<_> = kept
            .chunks_mut(chunk)
            .map(|part| {
                let done = &done;
                scope.spawn(move || {
                    let mut engine = Connect6Engine::new(Connect6Config {
                        variety: 0,
                        prepared: false,
                        focus: false,
                        ..Connect6Config::default()
                    });
                    let mut off_line = Vec::new();
                    for (record, stones) in part.iter_mut() {
                        let mut pos = Connect6::new(rules);
                        for &p in stones.iter() {
                            pos.place(p);
                        }
                        let analysis = engine.analyse(&pos, Limits::iterations(how.nodes));
                        record.search = stored_value(analysis.value);
                        let seed = how.seed ^ ((record.game as u64) << 16 | record.stones as u64);
                        let mut rng = SmallRng::seed_from_u64(seed);
                        for turn in branch_turns(&analysis.ranked, how.branches, &mut rng) {
                            if let Some((mut r, after)) = branch_record(&pos, turn, how) {
                                r.game = record.game;
                                r.search = search_value(&mut engine, &after, how.nodes);
                                off_line.push(r);
                            }
                        }
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if n.is_multiple_of(1000) {
                            eprintln!(
                                "{n} of {total} positions searched, {:.0} s",
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                    off_line
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a labelling thread panicked"))
            .collect()
    });
    Ok(branches)
}

/// Up to `count` different turns drawn from the best `BRANCH_CHOICES` of `ranked`.
fn branch_turns<'a>(
    ranked: &'a [Vec<Stone>],
    count: usize,
    rng: &mut SmallRng,
) -> Vec<&'a [Stone]> {
    let choices = ranked.len().min(BRANCH_CHOICES);
    rand::seq::index::sample(rng, choices, count.min(choices))
        .into_iter()
        .map(|i| ranked[i].as_slice())
        .collect()
}

/// The record of the turn start after the turn start `pos` and then the whole turn `turn`,
/// its result unknown, with the position; `None` where the turn ends the game or is not a
/// whole legal turn.
fn branch_record(pos: &Connect6, turn: &[Stone], how: &Labelling) -> Option<(Record, Connect6)> {
    let mut after = pos.clone();
    for &p in turn {
        if after.check_move(p).is_err() {
            return None;
        }
        after.place(p);
    }
    if after.winner().is_some() || after.stones_left_in_turn() != 2 {
        return None;
    }
    let placed: Vec<(Stone, Color)> = (0..after.points() as Stone)
        .filter_map(|p| after.color_at(p).map(|c| (p, c)))
        .collect();
    let codes = LineCodes::of_stones(after.size(), how.reach, &placed);
    let record = turn_start_record(&after, &codes, how.view_rows, UNKNOWN_RESULT, 0);
    Some((record, after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::connect6::network::model::view_rows;

    /// Black makes six along row 9 with its sixth stone (stone 12 of the game); White's pairs
    /// go along row 0 with a gap, never six.
    const GAME: [(usize, usize); 12] = [
        (0, 9),
        (0, 0),
        (1, 0),
        (1, 9),
        (2, 9),
        (2, 0),
        (3, 0),
        (3, 9),
        (4, 9),
        (4, 0),
        (6, 0),
        (5, 9),
    ];

    fn line(reason: &str, moves: &[(usize, usize)]) -> String {
        let moves: Vec<[usize; 2]> = moves.iter().map(|&(x, y)| [x, y]).collect();
        serde_json::json!({"game": "connect6", "board_size": 19, "moves": moves,
            "reason": reason, "winner": "black", "result": "1-0"})
        .to_string()
    }

    #[test]
    fn a_game_gives_a_record_at_each_turn_start_with_the_movers_result() {
        let stones: Vec<Stone> = GAME.iter().map(|&(x, y)| (y * 19 + x) as Stone).collect();
        let rows = view_rows(3);
        let records = game_records(19, &stones, Some(Color::Black), (3, &rows), 7).unwrap();
        let starts: Vec<u16> = records.iter().map(|r| r.stones).collect();
        assert_eq!(starts, [1, 3, 5, 7, 9, 11]);
        let results: Vec<i8> = records.iter().map(|r| r.result).collect();
        assert_eq!(results, [-1, 1, -1, 1, -1, 1]);
        assert!(records
            .iter()
            .all(|r| r.game == 7 && r.rows.len() == 2 * 4 * 361));
        // Before its last turn Black faces White's row 0 (five stones, a gap): one threat.
        // Black's own five make the fitted value favour it.
        let last = &records[5];
        assert_eq!(last.against, 1);
        assert!(last.fitted > 0, "fitted {}", last.fitted);
        assert_eq!(records[0].against, 0);
        // The rows are the side to move's reading, then the other side's.
        let mut codes = LineCodes::new(19, 3);
        for (i, &p) in stones[..11].iter().enumerate() {
            codes.place(
                p,
                if (i + 1) % 4 < 2 {
                    Color::Black
                } else {
                    Color::White
                },
            );
        }
        let mine: Vec<u16> = rows_for(&codes, Color::Black, &rows).collect();
        let theirs: Vec<u16> = rows_for(&codes, Color::White, &rows).collect();
        assert_eq!(last.rows[..4 * 361], mine[..]);
        assert_eq!(last.rows[4 * 361..], theirs[..]);
        assert_ne!(mine, theirs);
        // A draw gives 0, a stone on a taken cell or after the win an error.
        let drawn = game_records(19, &stones, None, (3, &rows), 0).unwrap();
        assert!(drawn.iter().all(|r| r.result == 0));
        let mut bad = stones.clone();
        bad[4] = bad[0];
        assert!(game_records(19, &bad, None, (3, &rows), 0).is_err());
        let mut late = stones.clone();
        late.push(100);
        assert!(game_records(19, &late, None, (3, &rows), 0).is_err());
    }

    #[test]
    fn the_file_holds_the_finished_games_records() {
        let dir = std::env::temp_dir().join(format!("sb-c6-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let games = dir.join("games.jsonl");
        let text = [
            line("rules", &GAME),
            line("time", &GAME[..5]),
            String::new(),
        ]
        .join("\n");
        std::fs::write(&games, text).unwrap();
        let args = PositionsArgs {
            game: "connect6".into(),
            out: dir.join("out.c6d"),
            reach: 2,
            label_nodes: 0,
            every: 1,
            branches: 0,
            seed: 1,
            threads: 1,
            games: vec![games.clone()],
        };
        write(&args).unwrap();
        let bytes = std::fs::read(&args.out).unwrap();
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(
            bytes.len(),
            HEADER_SIZE + 6 * (RECORD_HEAD + 2 * 2 * 4 * 361)
        );
        // Searched, one record in two: the header says how deep; the last turn start, Black's
        // five with two stones to place, is a proved win.
        let labelled = PositionsArgs {
            label_nodes: 300,
            every: 2,
            out: dir.join("labelled.c6d"),
            ..args.clone()
        };
        write(&labelled).unwrap();
        let bytes = std::fs::read(&labelled.out).unwrap();
        assert_eq!(u32::from_le_bytes(bytes[20..24].try_into().unwrap()), 300);
        let record = RECORD_HEAD + 2 * 2 * 4 * 361;
        assert_eq!(bytes.len(), HEADER_SIZE + 3 * record);
        let search = |i: usize| {
            let at = HEADER_SIZE + i * record + 6;
            i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap())
        };
        let stones = |i: usize| HEADER_SIZE + i * record + 2;
        assert_eq!(
            bytes[stones(2)],
            9,
            "the third kept is the fifth turn start"
        );
        assert!(search(0).abs() < i16::MAX, "{}", search(0));
        let last = PositionsArgs {
            every: 1,
            ..labelled.clone()
        };
        write(&last).unwrap();
        let bytes = std::fs::read(&last.out).unwrap();
        let at = HEADER_SIZE + 5 * record + 6;
        assert_eq!(
            i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap()),
            i16::MAX
        );
        // Two branches from each labelled turn start (the last one won at once has none to
        // search): after the on-line records come the off-line ones, two stones further on,
        // result unknown, labelled, numbered with their game.
        let branched = PositionsArgs {
            branches: 2,
            threads: 2,
            out: dir.join("branched.c6d"),
            ..labelled.clone()
        };
        write(&branched).unwrap();
        let bytes = std::fs::read(&branched.out).unwrap();
        let count = (bytes.len() - HEADER_SIZE) / record;
        assert!(count > 3 && count <= 3 + 2 * 3, "{count} records");
        let head = |i: usize| &bytes[HEADER_SIZE + i * record..HEADER_SIZE + i * record + 12];
        let sources = [1u16, 5, 9];
        for i in 3..count {
            let h = head(i);
            assert_eq!(h[0] as i8, UNKNOWN_RESULT);
            let stones = u16::from_le_bytes([h[2], h[3]]);
            assert!(sources.contains(&(stones - 2)), "{stones} stones");
            assert_eq!(u32::from_le_bytes(h[8..12].try_into().unwrap()), 0);
        }
        // The same seed, the same branches; the threads do not change them.
        let again = PositionsArgs {
            threads: 1,
            out: dir.join("again.c6d"),
            ..branched.clone()
        };
        write(&again).unwrap();
        assert_eq!(std::fs::read(&again.out).unwrap(), bytes);
        let err = format!(
            "{:#}",
            write(&PositionsArgs {
                label_nodes: 0,
                ..branched.clone()
            })
            .unwrap_err()
        );
        assert!(err.contains("--branches needs --label-nodes"), "{err}");
        std::fs::write(&games, line("rules", &[(0, 9), (19, 3)])).unwrap();
        let err = format!("{:#}", write(&args).unwrap_err());
        assert!(
            err.contains("games.jsonl:1") && err.contains("not a cell"),
            "{err}"
        );
        std::fs::write(&games, line("time", &GAME)).unwrap();
        let err = format!("{:#}", write(&args).unwrap_err());
        assert!(err.contains("no finished Connect6 game"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
