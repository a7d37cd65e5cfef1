//! `--learn`: book learning. The games of `--games` are replayed, and at each turn start
//! (within `--turns`, of a colour built) where an engine `--learn` names was to move, the turn it
//! played is scored by the game's result. Where one turn has won more games than it lost and
//! scores best there (`Record::score`), the book takes it: at a position it lacks,
//! or over its own turn when that turn scored worse in the same games. Nothing is searched.
//!
//! Why: against an opponent that answers the same position the same way (Cloudict at a fixed
//! depth does), our games are decided in the few turns where our choice varies (the opening
//! variety) among turns the search cannot tell apart; the games' results can. What it buys is
//! replay of won lines against that opponent, not strength elsewhere (docs/experiments).

use super::{after_turn, turn_starts, BookArgs, PlayedGame};
use crate::engine::connect6::prepared::{cell_text, key, Book, Entry};
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
}

/// Scores the learners' turns of the games and appends the book's new lines to `file`, each
/// after a comment with its record; returns how many it wrote.
pub(super) fn append(
    args: &BookArgs,
    rules: Connect6Rules,
    games: &[PlayedGame],
    book: &mut Book,
    file: &mut File,
    name: &str,
) -> Result<usize, String> {
    let (order, played) = tally(args, rules, games);
    let mut written = 0;
    for k in &order {
        let Played { pos, records } = &played[k];
        let Some(best) = records
            .iter()
            .filter(|r| r.wins > r.losses)
            .max_by(|a, b| a.score().total_cmp(&b.score()).then(a.wins.cmp(&b.wins)))
        else {
            continue;
        };
        if let Some(entry) = book.get(args.size, k) {
            let sym = key(pos).1;
            let ours = key(&after_turn(pos, &Entry::in_position(pos, sym, &entry.turn))).0;
            let ours_score = records
                .iter()
                .find(|r| r.after == ours)
                .map_or(0.5, Record::score);
            if ours == best.after || ours_score >= best.score() {
                continue;
            }
        }
        let entry = Entry {
            turn: best.turn.clone(),
            value: None,
            depth: 0,
            seconds: 0.0,
            replies: Vec::new(),
        };
        let others: Vec<String> = records
            .iter()
            .filter(|r| r.after != best.after)
            .map(|r| format!("{} {}-{}", cells(&r.turn), r.wins, r.losses))
            .collect();
        let line = entry.line(args.size, k);
        let comment = format!(
            "# learned: {} won {}, lost {}{}",
            cells(&best.turn),
            best.wins,
            best.losses,
            if others.is_empty() {
                String::new()
            } else {
                format!("; the others: {}", others.join(", "))
            }
        );
        writeln!(file, "{comment}\n{line}")
            .and_then(|_| file.flush())
            .map_err(|e| format!("{name}: {e}"))?;
        eprintln!("book: {comment}\nbook: {line}");
        book.insert(args.size, k.clone(), entry);
        written += 1;
    }
    Ok(written)
}

fn cells(turn: &[(u8, u8)]) -> String {
    turn.iter().map(|&c| cell_text(c)).collect()
}

/// The learners' turns of the games, by position (keys in the order the games reach them).
fn tally(
    args: &BookArgs,
    rules: Connect6Rules,
    games: &[PlayedGame],
) -> (Vec<String>, HashMap<String, Played>) {
    let colors = args.side.colors();
    let mut order = Vec::new();
    let mut played: HashMap<String, Played> = HashMap::new();
    for game in games {
        for (pos, n) in turn_starts(rules, &game.stones, args.turns) {
            let mover = pos.side_to_move();
            if !colors.contains(&mover) || !args.learn.contains(&game.names[mover.index()]) {
                continue;
            }
            let turn = whole_turn(&pos, &game.stones[n..]);
            if turn.is_empty() {
                continue;
            }
            let (k, sym) = key(&pos);
            let record = Record {
                after: key(&after_turn(&pos, &turn)).0,
                turn: Entry::to_key_frame(&pos, sym, &turn),
                wins: (game.winner == Some(mover)) as u32,
                losses: (game.winner == Some(mover.opponent())) as u32,
            };
            let at_pos = played.entry(k.clone()).or_insert_with(|| {
                order.push(k);
                Played {
                    pos: pos.clone(),
                    records: Vec::new(),
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
