//! `--learn`: book learning. The games of `--games` are replayed, and at each turn start
//! (within `--turns`, of a colour built) where an engine `--learn` names was to move, the turn it
//! played is scored by the game's result. Where one turn has won more games than it lost and
//! scores best there (`Record::score`), the book takes it: at a position it lacks,
//! or over its own turn when that turn scored worse in the same games. Where no turn there
//! qualifies, the book's own turn has lost more than it won, at least two lost games left the
//! book right after it (more than won that way), and no game won by following the book's later
//! turns after it, the book forgets the position (a line `forgotten_line` writes): the engine's
//! search, with its opening variety, plays there next time, so the learning explores instead
//! of repeating a lost line. Nothing is searched.
//!
//! The positions are scored twice: up to symmetry (the book's usual lines), and then each form
//! of a position apart (`exact_key`), where a turn's record in one form can call for another
//! decision than the eight forms' together: that form gets a line of its own, which the book
//! reads before the pooled one.
//!
//! Why: against an opponent that answers the same position the same way (Cloudict at a fixed
//! depth does), our games are decided in the few turns where our choice varies (the opening
//! variety) among turns the search cannot tell apart; the games' results can. What it buys is
//! replay of won lines against that opponent, not strength elsewhere (docs/experiments).

use super::{after_turn, turn_starts, BookArgs, PlayedGame};
use crate::engine::connect6::prepared::{cell_text, exact_key, forgotten_line, key, Book, Entry};
use crate::game::connect6::{Connect6, Connect6Rules, Stone};
use crate::game::Game;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;

/// One turn's record at a position: the turn in the key's frame, the games it won and lost.
#[derive(Clone, Debug, PartialEq)]
struct Record {
    /// The position after the turn, up to symmetry: the turn's identity.
    after: String,
    turn: Vec<(u8, u8)>,
    wins: u32,
    losses: u32,
}

impl Record {
    /// The share of its games the turn won, counting one more win and one more loss: a turn
    /// that won 5 of 5 ranks above one that won 10 of 14, and one game says little.
    fn score(&self) -> f64 {
        (self.wins as f64 + 1.0) / ((self.wins + self.losses) as f64 + 2.0)
    }
}

/// A position the learners played: one form of it and the records of their turns there.
struct Played {
    pos: Connect6,
    records: Vec<Record>,
    /// The games won and lost whose last turn from the book (the book as read, followed from
    /// the game's first turn start on) was played here: the games the book's turn here handed
    /// to the search.
    left_book: (u32, u32),
    /// The games won that followed the book past this position, through turns it still has:
    /// wins the book would play again.
    won_deeper: u32,
}

impl Played {
    /// Whether the book's turn here, with record `ours`, has earned being forgotten: it lost
    /// more than it won, the games that left the book after it lost at least twice and more
    /// often than they won, and none won by the book's later turns. A turn whose losses came
    /// after later book turns is not blamed; one whose later book lines win is kept (stop 107:
    /// a turn that lost in some of the board's orientations against Cloudict, and won by the
    /// book's later turns in others, was forgotten and those wins were lost with it).
    fn forgets(&self, ours: &Record) -> bool {
        let (won, lost) = self.left_book;
        ours.losses > ours.wins && lost >= 2 && lost > won && self.won_deeper == 0
    }
}

/// Scores the learners' turns of the games and appends the book's new lines to `file`, each
/// after a comment with its record; returns how many turns it learned and positions it forgot.
pub(super) fn append(
    args: &BookArgs,
    rules: Connect6Rules,
    games: &[PlayedGame],
    book: &mut Book,
    file: &mut File,
    name: &str,
) -> Result<(usize, usize), String> {
    let (mut learned, mut forgotten) = (0, 0);
    // A forgotten turn can leave the turn before it without the later wins that kept it, so the
    // games are scored again against the book until a pass changes nothing: a second run on
    // the same games then writes nothing. Records do not change between passes, so a learned
    // turn (won more than lost) is never forgotten, nor a forgotten one (lost more) learned.
    // Each pass scores the positions up to symmetry first, then each form apart. A pass that
    // goes on has changed a position for good, so the passes end; the bound only turns a fault
    // of that reasoning into an error instead of a book file growing for ever.
    for _ in 0..MAX_PASSES {
        let mut changed = false;
        for keys in [Keys::Pooled, Keys::Exact] {
            let (order, played) = tally(args, rules, games, book, keys);
            for k in &order {
                match decide(args, k, &played[k], book, file, name, keys)? {
                    None => continue,
                    Some(Change::Learned) => learned += 1,
                    Some(Change::Forgotten) => forgotten += 1,
                }
                changed = true;
            }
        }
        if !changed {
            return Ok((learned, forgotten));
        }
    }
    Err(format!(
        "{name}: book learning still changed the book after {MAX_PASSES} passes"
    ))
}

/// The most passes over the games `append` makes.
const MAX_PASSES: usize = 100;

/// How the games' positions are told apart.
#[derive(Clone, Copy, PartialEq)]
enum Keys {
    /// Up to the board's symmetries (`key`): the eight forms of a position share their records.
    Pooled,
    /// Each form apart (`exact_key`). A turn is still known up to symmetry (the position after
    /// it, `key`), so that a symmetric position's equal turns share a record.
    Exact,
}

impl Keys {
    /// The key of `pos` and the symmetry from `pos` to the key's frame.
    fn of(self, pos: &Connect6) -> (String, usize) {
        match self {
            Keys::Pooled => key(pos),
            Keys::Exact => (exact_key(pos), 0),
        }
    }
}

/// What one position's records changed in the book; its line is written by `decide`.
enum Change {
    Learned,
    Forgotten,
}

/// What the records at one position change in `book`: a turn learned, or the position
/// forgotten, its line appended to `file` after a comment giving the records; or nothing.
fn decide(
    args: &BookArgs,
    k: &str,
    at: &Played,
    book: &mut Book,
    file: &mut File,
    name: &str,
    keys: Keys,
) -> Result<Option<Change>, String> {
    let Played { pos, records, .. } = at;
    // The book's own turn here (the position after it, up to symmetry) and its record: the
    // pooled line's turn, or for one form the turn the book plays there (its own line's, else
    // the pooled one's).
    let ours_turn = match keys {
        Keys::Pooled => book
            .get(args.size, k)
            .map(|entry| Entry::in_position(pos, key(pos).1, &entry.turn)),
        Keys::Exact => book.turn(pos),
    };
    let ours = ours_turn.map(|turn| key(&after_turn(pos, &turn)).0);
    let ours_record = ours
        .as_ref()
        .and_then(|o| records.iter().find(|r| &r.after == o));
    let best = records
        .iter()
        .filter(|r| r.wins > r.losses)
        .max_by(|a, b| a.score().total_cmp(&b.score()).then(a.wins.cmp(&b.wins)))
        .filter(|best| {
            ours.as_ref().is_none_or(|o| {
                *o != best.after && ours_record.map_or(0.5, Record::score) < best.score()
            })
        });
    let (comment, line, change) = if let Some(best) = best {
        let entry = Entry {
            turn: best.turn.clone(),
            value: None,
            depth: 0,
            seconds: 0.0,
            replies: Vec::new(),
        };
        let comment = format!(
            "# learned: {} won {}, lost {}{}",
            cells(&best.turn),
            best.wins,
            best.losses,
            others(records, &best.after)
        );
        let line = entry.line(args.size, k);
        book.insert(args.size, k.to_string(), entry);
        (comment, line, Change::Learned)
    } else if let Some(r) = ours_record.filter(|r| at.forgets(r)) {
        let comment = format!(
            "# forgotten: {} won {}, lost {}; left the book after it {}-{}{}",
            cells(&r.turn),
            r.wins,
            r.losses,
            at.left_book.0,
            at.left_book.1,
            others(records, &r.after)
        );
        book.forget(args.size, k, r.turn.clone());
        (
            comment,
            forgotten_line(args.size, k, &r.turn),
            Change::Forgotten,
        )
    } else {
        return Ok(None);
    };
    writeln!(file, "{comment}\n{line}")
        .and_then(|_| file.flush())
        .map_err(|e| format!("{name}: {e}"))?;
    eprintln!("book: {comment}\nbook: {line}");
    Ok(Some(change))
}

fn cells(turn: &[(u8, u8)]) -> String {
    turn.iter().map(|&c| cell_text(c)).collect()
}

/// The records of the turns other than the one leading to `after`, for a comment.
fn others(records: &[Record], after: &str) -> String {
    let others: Vec<String> = records
        .iter()
        .filter(|r| r.after != after)
        .map(|r| format!("{} {}-{}", cells(&r.turn), r.wins, r.losses))
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        format!("; the others: {}", others.join(", "))
    }
}

/// The learners' turns of the games, by position (keys in the order the games reach them).
fn tally(
    args: &BookArgs,
    rules: Connect6Rules,
    games: &[PlayedGame],
    book: &Book,
    keys: Keys,
) -> (Vec<String>, HashMap<String, Played>) {
    let colors = args.side.colors();
    let mut order = Vec::new();
    let mut played: HashMap<String, Played> = HashMap::new();
    for game in games {
        // The positions where the game played the book's turn, from its first turn start on
        // while it followed the book, each with whether that turn is forgotten. A forgotten
        // turn counts as the book's: the games that played it were the evidence that dropped
        // it, and are not counted again against the turn before it.
        let (mut following, mut followed) = (true, Vec::new());
        for (pos, n) in turn_starts(rules, &game.stones, args.turns) {
            let mover = pos.side_to_move();
            if !colors.contains(&mover) || !args.learn.contains(&game.names[mover.index()]) {
                continue;
            }
            let turn = whole_turn(&pos, &game.stones[n..]);
            if turn.is_empty() {
                continue;
            }
            let (k, sym) = keys.of(&pos);
            let after = key(&after_turn(&pos, &turn)).0;
            if following {
                let booked = book.turn(&pos);
                let gone = booked.is_none();
                following = booked
                    .or_else(|| book.forgotten_turn(&pos))
                    .is_some_and(|ours| key(&after_turn(&pos, &ours)).0 == after);
                if following {
                    followed.push((k.clone(), gone));
                }
            }
            let record = Record {
                after,
                turn: Entry::to_key_frame(&pos, sym, &turn),
                wins: (game.winner == Some(mover)) as u32,
                losses: (game.winner == Some(mover.opponent())) as u32,
            };
            let at_pos = played.entry(k.clone()).or_insert_with(|| {
                order.push(k);
                Played {
                    pos: pos.clone(),
                    records: Vec::new(),
                    left_book: (0, 0),
                    won_deeper: 0,
                }
            });
            match at_pos.records.iter_mut().find(|r| r.after == record.after) {
                Some(r) => {
                    r.wins += record.wins;
                    r.losses += record.losses;
                }
                None => at_pos.records.push(record),
            }
        }
        if let Some((last, _)) = followed.last() {
            let at_pos = played.get_mut(last).expect("tallied above");
            let mover = at_pos.pos.side_to_move();
            let won = game.winner == Some(mover);
            at_pos.left_book.0 += won as u32;
            at_pos.left_book.1 += (game.winner == Some(mover.opponent())) as u32;
            // Each earlier position's win by later turns the book still has.
            if won {
                for i in 0..followed.len() - 1 {
                    if followed[i + 1..].iter().all(|(_, gone)| !gone) {
                        played.get_mut(&followed[i].0).expect("tallied").won_deeper += 1;
                    }
                }
            }
        }
    }
    (order, played)
}

/// The legal stones of the turn that starts at `pos` with `rest[0]`: two, or one where it ends
/// the game or the game's record (none where the first is illegal, which ends the game there).
fn whole_turn(pos: &Connect6, rest: &[Stone]) -> Vec<Stone> {
    let mut after = pos.clone();
    let mut turn = Vec::new();
    for &s in rest.iter().take(2) {
        if after.outcome().is_some() || after.check_move(s).is_err() {
            break;
        }
        after.play(s);
        turn.push(s);
    }
    turn
}
