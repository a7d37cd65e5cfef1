//! The `arena` and `bracket` commands: options, progress on the terminal, files written.

use super::bracket::{parse_entrants, run_bracket, Bracket, BracketConfig, Series};
use super::duel::{
    continue_match, parse_openings, EarlierRuns, MatchConfig, MatchGame, MatchResult,
};
use super::engines::EngineSpec;
use super::player::TimeControl;
use super::player::{ArenaGame, GameOptions};
use super::report::bracket_html;
use super::stats::MatchScore;
use super::summary::{print_score, print_sprt, sprt_option};
use super::tally::{read_runs, tally};
use crate::game::connect6::Connect6;
use crate::game::gomoku::Gomoku;
use crate::game::nogo::Nogo;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The game: nogo, gomoku or connect6.
    #[arg(long, default_value = "nogo")]
    pub game: String,
    /// Board size: Connect6 19 by default (SAU), 15 for Botzone's ConnectSix; Gomoku 15 by
    /// default, 11 to 20; NoGo is 9 only.
    #[arg(long)]
    pub size: Option<usize>,
    /// Gomoku: only exactly five in a row wins (Gomocup's `INFO rule 1`).
    #[arg(long)]
    pub exact_five: bool,
    /// An engine: `name=N cmd="COMMAND" [proto=botzone|botzone-keep-running|botzone-simple|
    /// botzone-simple-keep-running|sau|gomocup|gtp]`, or `name=N builtin=SPEC`; SPEC for NoGo is
    /// random, mcts:<N>ms or mcts:<N>p (engine: is the same), for Connect6 random, greedy,
    /// engine:<N>ms or engine:<N>n, for Gomoku random, full:<N>ms, classic:<N>ms,
    /// wintable:<N>ms (or <N>n; engine: is full:). Twice.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub engines: Vec<String>,
    /// A JSON file listing the engines instead: [{"name":..,"cmd":..,"proto":..}, ...].
    #[arg(long = "engines")]
    pub engines_file: Option<PathBuf>,
    /// Games to play (colours alternate in pairs).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Games played at once (each in its own processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seconds per side for the whole game (the SAU class rule is 180).
    #[arg(long)]
    pub tc: Option<f64>,
    /// Seconds per move.
    #[arg(long = "tc-move")]
    pub tc_move: Option<f64>,
    /// Starting positions, one a line as `x,y x,y ...`; each is played with both colours.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed for the built-in players' randomness (the same seed replays the same match).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game as a JSON line here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Stop early by a sequential test: `elo0=0 elo1=10 [alpha=0.05 beta=0.05]`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Carry on a match from its earlier runs' game files (`--out` of the same two engines, by
    /// name): their games count in the score and the sequential test, and --games more are
    /// played (none if the test is already decided). Give --out a new file.
    #[arg(long = "continue", num_args = 1.., value_name = "GAMES.jsonl")]
    pub continue_from: Option<Vec<PathBuf>>,
    /// NoGo class rule: Black's first move may not be the centre.
    #[arg(long)]
    pub centre_ban: bool,
}

#[derive(Args, Debug)]
pub struct BracketArgs {
    /// The game: nogo, gomoku or connect6.
    #[arg(long, default_value = "nogo")]
    pub game: String,
    /// Board size: Connect6 19 by default (SAU), 15 for Botzone's ConnectSix; Gomoku 15 by
    /// default, 11 to 20; NoGo is 9 only.
    #[arg(long)]
    pub size: Option<usize>,
    /// Gomoku: only exactly five in a row wins (Gomocup's `INFO rule 1`).
    #[arg(long)]
    pub exact_five: bool,
    /// Entrants: lines `seed,name,protocol,command` (protocol `builtin` takes a built-in player
    /// as command), or a JSON list of {"name","command","protocol","seed"}.
    #[arg(long)]
    pub entrants: PathBuf,
    #[arg(long, default_value = "Elimination bracket")]
    pub title: String,
    /// Best-of for every round before the final.
    #[arg(long = "best-of", default_value_t = 1)]
    pub best_of: u32,
    /// Best-of for the final.
    #[arg(long = "final-best-of", default_value_t = 3)]
    pub final_best_of: u32,
    /// This bracket is the grand final of several classes: its final is best-of N (5 in seed 003).
    #[arg(long = "grand-final")]
    pub grand_final: Option<u32>,
    /// Seconds per side for the whole game.
    #[arg(long, default_value_t = 180.0)]
    pub tc: f64,
    /// Seconds per move, if any.
    #[arg(long = "tc-move")]
    pub tc_move: Option<f64>,
    /// Seed for the colour draws and the built-in players' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Series played at once within a round.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Results as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// The HTML report (bracket tree, every game, final positions).
    #[arg(long)]
    pub html: Option<PathBuf>,
    #[arg(long)]
    pub centre_ban: bool,
}

fn seconds(s: Option<f64>) -> Result<Option<Duration>, String> {
    s.map(|s| Duration::try_from_secs_f64(s).map_err(|_| format!("bad number of seconds: {s}")))
        .transpose()
}

/// The games the arena referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArenaGameKind {
    Nogo,
    Gomoku,
    Connect6,
}

fn check_game(game: &str) -> Result<ArenaGameKind, String> {
    match game {
        "nogo" => Ok(ArenaGameKind::Nogo),
        "gomoku" => Ok(ArenaGameKind::Gomoku),
        "connect6" => Ok(ArenaGameKind::Connect6),
        other => Err(format!("unknown game {other:?}: nogo, gomoku or connect6")),
    }
}

/// `stonebrain arena`.
pub fn arena(args: &ArenaArgs) -> Result<(), String> {
    match check_game(&args.game)? {
        ArenaGameKind::Nogo => arena_of::<Nogo>(args),
        ArenaGameKind::Gomoku => arena_of::<Gomoku>(args),
        ArenaGameKind::Connect6 => arena_of::<Connect6>(args),
    }
}

fn arena_of<G: ArenaGame>(args: &ArenaArgs) -> Result<(), String> {
    let options = GameOptions {
        centre_ban: args.centre_ban,
        size: args.size,
        exact_five: args.exact_five,
    };
    let start = G::start(&options)?;
    let mut engines: Vec<EngineSpec> = group_engine_pieces(&args.engines)
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<_, _>>()?;
    if let Some(file) = &args.engines_file {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        engines.extend(EngineSpec::parse_file(&text)?);
    }
    if engines.len() != 2 {
        return Err(format!(
            "a match needs exactly two engines, {} given",
            engines.len()
        ));
    }
    let openings = match &args.openings {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            parse_openings::<G>(&text, &start)?
        }
        None => Vec::new(),
    };
    let sprt = sprt_option(args.sprt.as_deref())?;
    let config = MatchConfig {
        games: args.games,
        concurrency: args.concurrency,
        tc: TimeControl {
            per_move: seconds(args.tc_move)?,
            per_game: seconds(args.tc)?,
        },
        seed: args.seed,
        options,
        sprt,
    };
    let earlier = match &args.continue_from {
        Some(files) => earlier_runs(
            files,
            args.out.as_deref(),
            &engines[0].name,
            &engines[1].name,
        )?,
        None => EarlierRuns::default(),
    };
    let out = match &args.out {
        Some(p) => Some(
            std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
        ),
        None => None,
    };
    if config.tc.per_game.is_none() {
        if let Some(e) = engines.iter().find(|e| e.plans_a_game_clock()) {
            return Err(format!(
                "{}: a clock budget spreads the game clock; give one with --tc SECONDS",
                e.name
            ));
        }
    }
    let (a, b) = (&engines[0], &engines[1]);
    let bar = progress_bar(args.games as u64);
    // Each game is written as it ends, so an interrupted match keeps what it played.
    let out = std::sync::Mutex::new(out);
    let write_failed = std::sync::Mutex::new(None);
    let on_game = |g: &MatchGame, score: &MatchScore| {
        let (r, t) = (&g.record, score.games);
        bar.set_message(format!(
            "{} vs {}: W-D-L {}-{}-{}",
            a.name, b.name, t.wins, t.draws, t.losses
        ));
        bar.inc(1);
        if bar.is_hidden() {
            eprintln!(
                "game {:>4}: {} (black) vs {} (white): {} ({}), {} moves",
                g.index + 1,
                r.black,
                r.white,
                r.result_text(),
                r.reason.describe(),
                r.moves.len()
            );
        }
        if let Some(f) = out.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            // The game's number pairs it with its partner (2k with 2k+1) when the file is read
            // back (`stonebrain tally`): with several games at once they end out of order.
            let mut line = r.to_json();
            line["index"] = g.index.into();
            if let Err(e) = writeln!(f, "{line}").and_then(|_| f.flush()) {
                *write_failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
            }
        }
    };
    let result = continue_match::<G>(a, b, &openings, &config, earlier, &on_game)?;
    bar.finish_and_clear();
    if let Some(e) = write_failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(format!("cannot write games: {e}"));
    }
    print_summary(a, b, &result, &config);
    Ok(())
}

/// Reads the game files of a match's earlier runs: A's score on them and where the next run's
/// games are numbered from. Every game must be between `a` and `b`; `out` must not be among the
/// files, since the new run would overwrite what it reads.
fn earlier_runs(
    files: &[PathBuf],
    out: Option<&std::path::Path>,
    a: &str,
    b: &str,
) -> Result<EarlierRuns, String> {
    if let Some(o) = out.filter(|o| files.iter().any(|f| f.as_path() == *o)) {
        return Err(format!(
            "--out {} is also given to --continue: write the new games to a new file",
            o.display()
        ));
    }
    let t = tally(&read_runs(files)?, a)?;
    if let Some((other, _)) = t.opponents.iter().find(|(o, _)| o != b) {
        return Err(format!(
            "the earlier games are {a} against {other}, not against {b}: --continue carries on \
             the same match"
        ));
    }
    eprintln!(
        "continuing from {} earlier games: W-D-L {}-{}-{} for {a}",
        t.score.games.games(),
        t.score.games.wins,
        t.score.games.draws,
        t.score.games.losses
    );
    Ok(EarlierRuns {
        score: t.score,
        next_index: t.next_index,
    })
}

/// Splits the pieces of all `--engine` options into one list per engine: clap hands them over
/// as one list, and a key seen again (`name=` of the second engine, say) starts the next engine.
pub fn group_engine_pieces(pieces: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for piece in pieces {
        let key = piece.split('=').next().unwrap_or("");
        let repeats = groups
            .last()
            .is_some_and(|g| g.iter().any(|p| p.split('=').next() == Some(key)));
        if groups.is_empty() || repeats {
            groups.push(Vec::new());
        }
        groups
            .last_mut()
            .expect("a group exists")
            .push(piece.clone());
    }
    groups
}

fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
    {
        bar.set_style(style);
    }
    bar
}

fn print_summary(a: &EngineSpec, b: &EngineSpec, result: &MatchResult, config: &MatchConfig) {
    print_score(&a.name, &b.name, &result.score);
    if let Some(s) = config.sprt {
        print_sprt(&s, &result.score, result.sprt_stop);
    }
}

/// `stonebrain bracket`.
pub fn bracket(args: &BracketArgs) -> Result<(), String> {
    match check_game(&args.game)? {
        ArenaGameKind::Nogo => bracket_of::<Nogo>(args),
        ArenaGameKind::Gomoku => bracket_of::<Gomoku>(args),
        ArenaGameKind::Connect6 => bracket_of::<Connect6>(args),
    }
}

fn bracket_of<G: ArenaGame>(args: &BracketArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.entrants)
        .map_err(|e| format!("cannot read {}: {e}", args.entrants.display()))?;
    let entrants = parse_entrants(&text)?;
    let config = BracketConfig {
        title: args.title.clone(),
        best_of: args.best_of.max(1),
        final_best_of: args.grand_final.unwrap_or(args.final_best_of).max(1),
        tc: TimeControl {
            per_move: seconds(args.tc_move)?,
            per_game: seconds(Some(args.tc))?,
        },
        seed: args.seed,
        options: GameOptions {
            centre_ban: args.centre_ban,
            size: args.size,
            exact_five: args.exact_five,
        },
        concurrency: args.concurrency,
    };
    G::start(&config.options)?;
    let drawn = Bracket::draw(G::NAME, &config.title, entrants, &config);
    println!(
        "{} ({}): {} entrants, {} rounds",
        drawn.title,
        drawn.game,
        drawn.entrants.len(),
        drawn.rounds.len()
    );
    let on_series = |b: &Bracket, s: &Series| println!("{}", series_line(b, s));
    let done = run_bracket::<G>(drawn, &config, &on_series)?;
    println!("{}", tree_text(&done));
    if let Some(p) = &args.json {
        std::fs::write(
            p,
            serde_json::to_string_pretty(&done.to_json()).unwrap_or_default(),
        )
        .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let Some(p) = &args.html {
        std::fs::write(p, bracket_html(&done))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(())
}

fn entrant_label(b: &Bracket, i: Option<usize>) -> String {
    match i {
        Some(i) => format!("({}) {}", b.entrants[i].seed, b.entrants[i].name),
        None => "bye".to_string(),
    }
}

/// One finished series, as printed while the bracket runs.
pub fn series_line(b: &Bracket, s: &Series) -> String {
    let (a, bb) = (entrant_label(b, s.a), entrant_label(b, s.b));
    match (s.a, s.b) {
        (Some(_), Some(_)) => {
            let reasons: Vec<String> = s.games.iter().map(|g| g.reason.describe()).collect();
            format!(
                "round {} #{}: {a} vs {bb}: {}-{} (best of {}), {} goes through [{}]",
                s.round,
                s.slot + 1,
                s.wins[0],
                s.wins[1],
                s.best_of,
                entrant_label(b, s.winner),
                reasons.join("; ")
            )
        }
        _ => format!(
            "round {} #{}: {} has a bye",
            s.round,
            s.slot + 1,
            entrant_label(b, s.winner)
        ),
    }
}

/// The bracket as text, one round a block.
pub fn tree_text(b: &Bracket) -> String {
    let mut text = String::new();
    for (r, round) in b.rounds.iter().enumerate() {
        text.push_str(&format!("Round {}\n", r + 1));
        for s in round {
            text.push_str(&format!(
                "  {:<28} {}-{}  {:<28} -> {}\n",
                entrant_label(b, s.a),
                s.wins[0],
                s.wins[1],
                entrant_label(b, s.b),
                entrant_label(b, s.winner)
            ));
        }
    }
    if let Some(c) = b.champion {
        text.push_str(&format!("Champion: {}\n", entrant_label(b, Some(c))));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_pieces_split_where_a_key_repeats() {
        let pieces: Vec<String> = [
            "name=a",
            "cmd=./bot --fast",
            "proto=botzone",
            "name=b",
            "builtin=random",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let groups = group_engine_pieces(&pieces);
        assert_eq!(groups.len(), 2);
        assert_eq!(
            groups[0],
            vec!["name=a", "cmd=./bot --fast", "proto=botzone"]
        );
        assert_eq!(groups[1], vec!["name=b", "builtin=random"]);
        let unnamed: Vec<String> = ["builtin=random", "builtin=mcts:10p"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(group_engine_pieces(&unnamed).len(), 2);
    }
}
