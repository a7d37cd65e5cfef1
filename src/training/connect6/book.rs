//! `stonebrain book connect6`: the prepared opening book, built by long searches of the engine
//! itself (`engine::connect6::prepared` reads it).
//!
//! The book starts after Black's first stone, at the centre or at each stone `--first` names,
//! and is built for both colours, one after the other (or for the one `--side` names). For the
//! colour that plays the book only its chosen turn is followed; for the other colour its chosen
//! turn and the next `--replies` of its ranking, the turns an opponent is likely to try. Each
//! position is searched once, for `--seconds`, by a fresh engine, and its line is appended to
//! the file at once: a stopped build keeps every line it finished, and a build started again
//! reads them and searches only what is missing. White's side is built first: its answers to
//! Black's first turns are where our games were lost.

use crate::engine::connect6::prepared::{cell_text, key, parse_cells, Book, Entry};
use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::game::connect6::{Connect6, Connect6Rules, Stone};
use crate::game::{Color, Game};
use crate::search::clock::Limits;
use crate::training::connect6::positions::finished_game;
use clap::{Args, ValueEnum};
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args, Clone, Debug)]
pub struct BookArgs {
    /// The game (only `connect6` has a prepared book).
    #[arg(value_parser = ["connect6"])]
    pub game: String,
    /// The book file: made if missing; if not, its lines are kept and the build goes on.
    #[arg(long)]
    pub out: PathBuf,
    /// Seconds of search for each position.
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// How many turns past Black's first stone the book reaches.
    #[arg(long, default_value_t = 4)]
    pub turns: u32,
    /// At the other side's positions, how many turns after its best are followed.
    #[arg(long, default_value_t = 2)]
    pub replies: usize,
    /// The board's size (19: SAU; 15: Botzone).
    #[arg(long, default_value_t = 19)]
    pub size: usize,
    /// Black's first stones the book starts from, as SAU writes them (column then row, `A`
    /// for 0), comma-separated: `JJ,IJ,II` (none given: the centre only).
    #[arg(long, value_delimiter = ',')]
    pub first: Vec<String>,
    /// Whose turns the book is built for: `white` (the answers to Black's first stones),
    /// `black`, or `both`.
    #[arg(long, value_enum, default_value_t = BookSide::Both)]
    pub side: BookSide,
    /// Arena game files (`stonebrain arena --out`): each turn start of their games within the
    /// first `--turns` turns past Black's first stone, of a colour built, is searched too where
    /// the book lacks it (the lines opponents really played, such as an engine's fixed reply
    /// the book's own ranking did not follow).
    #[arg(long, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Book learning instead of searching: the names (comma-separated) of the engines in the
    /// `--games` files whose turns are learned. Each turn they played at a turn start within
    /// `--turns`, for a colour built, is scored by its game's result, and the book takes the
    /// best-scoring turn that won more than it lost, where it has no turn or its own scored
    /// worse. Where none qualifies and the book's own turn lost more than it won, at least
    /// twice in games that left the book right after it (and more often than such games won),
    /// and never won by the book's later turns, the book forgets the position and the engine's
    /// search plays there. Then the same again for each form of a position apart (the board's
    /// eight symmetries): where a form's records decide otherwise than the eight together, it
    /// gets a line of its own. The tree is not walked and nothing is searched.
    #[arg(long, value_delimiter = ',', requires = "games")]
    pub learn: Vec<String>,
}

/// Whose turns a build of the book searches and follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BookSide {
    Both,
    White,
    Black,
}

impl BookSide {
    /// The colours built, in order: White's first, where our games were lost.
    fn colors(self) -> &'static [Color] {
        match self {
            BookSide::Both => &[Color::White, Color::Black],
            BookSide::White => &[Color::White],
            BookSide::Black => &[Color::Black],
        }
    }
}

/// Turns of the ranking kept in each line, so that a later build may follow more replies.
const KEPT_REPLIES: usize = 4;

/// The engine that searches the book's positions: the default one, without opening variety
/// (the book keeps the best turn found) and with a larger table for the longer searches.
fn analyst() -> Connect6Engine {
    Connect6Engine::new(Connect6Config {
        variety: 0,
        table_bits: 22,
        // The book is built by the search alone, never from itself.
        prepared: false,
        focus: false,
        ..Connect6Config::default()
    })
}

pub fn build(args: &BookArgs) -> Result<(), String> {
    let rules = Connect6Rules::with_size(args.size)
        .ok_or_else(|| format!("--size {}: not a Connect6 board size", args.size))?;
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(format!("--seconds {}: must be positive", args.seconds));
    }
    let roots = first_stones(args, rules)?;
    // Read before any search, so that a bad game file is refused at once.
    let games = read_games(args)?;
    let name = args.out.display().to_string();
    let text = match fs::read_to_string(&args.out) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            "# stonebrain's prepared Connect6 book (src/engine/connect6/prepared.rs gives the \
             format).\n"
                .to_string()
        }
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let mut book = Book::parse(&text, &name)?;
    if !args.out.exists() {
        fs::write(&args.out, &text).map_err(|e| format!("{name}: {e}"))?;
    }
    let mut file = OpenOptions::new()
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("{name}: {e}"))?;
    if !args.learn.is_empty() {
        let (learned, forgotten) = learn::append(args, rules, &games, &mut book, &mut file, &name)?;
        eprintln!(
            "book: done: {learned} turns learned from the games, {forgotten} positions \
             forgotten, {} positions in {name}",
            book.len()
        );
        return Ok(());
    }
    let start = Instant::now();
    let (mut searched, mut known) = (0usize, 0usize);
    // A position's entry and the symmetry of its key: the book's, or a search's, appended to
    // the file at once (`from` says where the position came from in the progress line).
    let mut booked = |pos: &Connect6, from: &str| -> Result<(Entry, usize), String> {
        let (k, sym) = key(pos);
        if let Some(entry) = book.get(args.size, &k) {
            known += 1;
            return Ok((entry.clone(), sym));
        }
        let entry = search(pos, sym, args.seconds);
        let line = entry.line(args.size, &k);
        writeln!(file, "{line}")
            .and_then(|_| file.flush())
            .map_err(|e| format!("{name}: {e}"))?;
        searched += 1;
        eprintln!(
            "book: {searched} searched ({:.0} s{from}): {line}",
            start.elapsed().as_secs_f64()
        );
        book.insert(args.size, k, entry.clone());
        Ok((entry, sym))
    };
    for &side in args.side.colors() {
        let mut level = roots.clone();
        for _ in 0..args.turns {
            let (mut next, mut next_keys): (Vec<Connect6>, Vec<String>) = (Vec::new(), Vec::new());
            for pos in &level {
                if pos.outcome().is_some() {
                    continue;
                }
                let (entry, sym) = booked(pos, "")?;
                let followed = if pos.side_to_move() == side {
                    1
                } else {
                    1 + args.replies
                };
                let turns = std::iter::once(&entry.turn).chain(&entry.replies);
                for turn in turns.take(followed) {
                    let child = after_turn(pos, &Entry::in_position(pos, sym, turn));
                    let child_key = key(&child).0;
                    if child.stones_left_in_turn() == 2 && !next_keys.contains(&child_key) {
                        next_keys.push(child_key);
                        next.push(child);
                    }
                }
            }
            level = next;
        }
    }
    for pos in &played_positions(args, rules, &games) {
        booked(pos, ", from the games")?;
    }
    eprintln!(
        "book: done: {searched} positions searched, {known} already in {name}, {} in all, {:.0} s",
        book.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The positions after each of Black's first stones named by `--first` (the centre when none
/// is), one for each stone up to the board's symmetries, in the order given.
fn first_stones(args: &BookArgs, rules: Connect6Rules) -> Result<Vec<Connect6>, String> {
    let empty = Connect6::new(rules);
    let centre = vec![cell_text(((args.size / 2) as u8, (args.size / 2) as u8))];
    let names = if args.first.is_empty() {
        &centre
    } else {
        &args.first
    };
    let (mut roots, mut keys) = (Vec::new(), Vec::new());
    for name in names {
        let name = name.trim().to_ascii_uppercase();
        let (x, y) = match parse_cells(&name, args.size as u8).as_deref() {
            Ok(&[(x, y)]) => (x as usize, y as usize),
            _ => {
                return Err(format!(
                    "--first {name}: expected a point of the {n}x{n} board as two letters, \
                     column then row (`A` for 0), such as {}",
                    centre[0],
                    n = args.size
                ))
            }
        };
        let mut root = empty.clone();
        root.play(empty.point(x, y));
        let k = key(&root).0;
        if !keys.contains(&k) {
            keys.push(k);
            roots.push(root);
        }
    }
    Ok(roots)
}

/// A game of the `--games` files on `--size`'s board that ended by the rules.
struct PlayedGame {
    stones: Vec<Stone>,
    winner: Option<Color>,
    /// Black's and White's names (empty where the file has none).
    names: [String; 2],
}

/// The games of the `--games` files on `--size`'s board that ended by the rules, in order.
/// Games of other kinds, on other boards, or that did not end by the rules (a time loss, an
/// illegal stone) are skipped; a line that is not a game is refused with its file and line.
fn read_games(args: &BookArgs) -> Result<Vec<PlayedGame>, String> {
    let mut games = Vec::new();
    for path in &args.games {
        let name = path.display().to_string();
        let text = fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let place = |e: String| format!("{name}:{}: {e}", i + 1);
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| place(format!("not JSON: {e}")))?;
            let game = finished_game(&v).map_err(|e| place(format!("{e:#}")))?;
            let Some((_, stones, winner)) = game.filter(|(size, ..)| *size == args.size) else {
                continue;
            };
            let names = ["black", "white"].map(|c| v[c].as_str().unwrap_or("").to_string());
            games.push(PlayedGame {
                stones,
                winner,
                names,
            });
        }
    }
    Ok(games)
}

/// The turn starts of `games` that the book is built for: within the first `--turns` turns
/// past Black's first stone, with a colour of `--side` to move, each once up to symmetry, in
/// the order the games play them.
fn played_positions(args: &BookArgs, rules: Connect6Rules, games: &[PlayedGame]) -> Vec<Connect6> {
    let colors = args.side.colors();
    let (mut found, mut keys) = (Vec::new(), Vec::new());
    for game in games {
        for (pos, _) in turn_starts(rules, &game.stones, args.turns) {
            if colors.contains(&pos.side_to_move()) {
                let k = key(&pos).0;
                if !keys.contains(&k) {
                    keys.push(k);
                    found.push(pos);
                }
            }
        }
    }
    found
}

/// The turn starts of a game's `stones` within the first `turns` turns past Black's first
/// stone (which is not one): each position and the index of the turn's first stone. An illegal
/// stone ends the game there.
fn turn_starts(rules: Connect6Rules, stones: &[Stone], turns: u32) -> Vec<(Connect6, usize)> {
    let mut starts = Vec::new();
    let mut pos = Connect6::new(rules);
    for (n, &stone) in stones.iter().enumerate() {
        if let Some(past_first) = pos.ply().checked_sub(1).map(|p| p / 2) {
            if past_first as u32 >= turns {
                break;
            }
            if pos.stones_left_in_turn() == 2 {
                starts.push((pos.clone(), n));
            }
        }
        if pos.check_move(stone).is_err() {
            break;
        }
        pos.play(stone);
    }
    starts
}

/// `pos` after the stones of `turn` that are legal in order (a book's turn always is; a
/// game over stops it).
fn after_turn(pos: &Connect6, turn: &[Stone]) -> Connect6 {
    let mut child = pos.clone();
    for &s in turn {
        if child.outcome().is_none() && child.check_move(s).is_ok() {
            child.play(s);
        }
    }
    child
}

/// A fresh engine's search of `pos`, written in the key's frame (`sym` from `key`). Replies
/// that lead to the same position as the chosen turn or an earlier reply, up to symmetry (the
/// first turns of a game have eight forms each), are left out.
fn search(pos: &Connect6, sym: usize, seconds: f64) -> Entry {
    let analysis = analyst().analyse(pos, Limits::time(Duration::from_secs_f64(seconds)));
    let after = |turn: &[Stone]| key(&after_turn(pos, turn)).0;
    let mut seen = vec![after(&analysis.turn)];
    let mut replies = Vec::new();
    for turn in &analysis.ranked {
        if replies.len() == KEPT_REPLIES {
            break;
        }
        let k = after(turn);
        if !seen.contains(&k) {
            seen.push(k);
            replies.push(Entry::to_key_frame(pos, sym, turn));
        }
    }
    Entry {
        turn: Entry::to_key_frame(pos, sym, &analysis.turn),
        value: analysis.value,
        depth: analysis.depth,
        seconds,
        replies,
    }
}

mod learn;
#[cfg(test)]
mod tests;
