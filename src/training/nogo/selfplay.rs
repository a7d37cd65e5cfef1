//! `stonebrain selfplay nogo`: today's engine plays itself and every position is written with
//! the search's visits and the game's result (`data.rs`), the labels the network learns from.
//!
//! Each game's randomness comes from the run's seed and the game's index alone, so a game is the
//! same whichever worker plays it and whenever; a stopped run carries on where it stopped (each
//! worker's file is cut back to its last whole game, and the games already in the folder are
//! skipped). The first plies are drawn from the visit distribution rather than taken as the
//! best move, so that games from one engine differ.

use super::data::{self, Record, FLAG_CENTRE_BAN, FLAG_LAST, FLAG_POLICY, FLAG_SAMPLED};
use crate::engine::nogo::features::planes;
use crate::engine::nogo::network::weights::fnv1a;
use crate::engine::nogo::network::Network;
use crate::engine::nogo::options::{NetOptions, PrecisionArg, SearchArg};
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::Engine;
use crate::game::nogo::{Nogo, NogoRules, Point, POINTS};
use crate::game::{Color, Game, Outcome};
use crate::search::clock::Limits;
use crate::search::puct::GumbelParams;
use clap::Args;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(Args, Clone, Debug)]
pub struct SelfplayArgs {
    /// The game (only `nogo` has a network so far).
    #[arg(value_parser = ["nogo"])]
    pub game: String,
    /// Games in the run (a resumed run plays the ones its folder lacks).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Playouts of each move's search.
    #[arg(long, default_value_t = 10_000)]
    pub playouts: u64,
    /// The folder of the run's data files (made if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// The run's seed: with it, game N is the same game in every run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (one a core).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Plies whose move is drawn from the visits, for variety.
    #[arg(long, default_value_t = 8)]
    pub sample_plies: u32,
    /// Play under the class rule that bans Black's first move at the centre.
    #[arg(long)]
    pub centre_ban: bool,
    /// A network file (`.sbnn`) whose policy advises both sides' search, as `--nogo-net` does
    /// in play: the next generation's data from this one's search.
    #[arg(long, value_name = "FILE")]
    pub nogo_net: Option<PathBuf>,
    /// With `--nogo-search puct`: each move chosen by Gumbel sequential halving among this
    /// many of the prior's moves (`--playouts` visits a move), and the improved policy written
    /// as the target instead of visit counts. The noise varies every move, so
    /// `--sample-plies` is not used. 0: off.
    #[arg(long, default_value_t = 0, value_name = "MOVES")]
    pub gumbel: usize,
    /// The share of moves searched with `--playouts` and written; the others are searched with
    /// `--fast-playouts` and only played, not written (playout cap randomisation, as KataGo
    /// does): more games, so more results for the value, for the same time, and deeper
    /// searches behind every policy target. 1: every move is a full one.
    #[arg(long, default_value_t = 1.0, value_name = "SHARE")]
    pub full_share: f64,
    /// Playouts of the moves that are not written (with `--full-share` below 1).
    #[arg(long, default_value_t = 0)]
    pub fast_playouts: u64,
    /// With a network: the search it serves and its settings, the flags of play.
    #[command(flatten)]
    pub net: NetOptions,
}

impl SelfplayArgs {
    /// Whether some moves are fast ones (playout cap randomisation is on).
    fn caps_playouts(&self) -> bool {
        self.full_share < 1.0
    }
}

/// What a run's folder was made with: a resumed run must agree, or its games would mix.
fn settings_text(a: &SelfplayArgs, net_hash: Option<u64>) -> String {
    let mut settings = serde_json::json!({
        "format": data::VERSION,
        "game": a.game,
        "playouts": a.playouts,
        "seed": a.seed,
        "sample_plies": a.sample_plies,
        "centre_ban": a.centre_ban,
    });
    // Written only when used, so that folders made before the setting existed resume.
    if a.caps_playouts() {
        settings["full_share"] = serde_json::json!(a.full_share);
        settings["fast_playouts"] = serde_json::json!(a.fast_playouts);
    }
    // Runs without a network keep the settings text they always had, so that their folders
    // resume as before.
    if let Some(hash) = net_hash {
        settings["network"] = serde_json::json!({
            "fnv1a64": format!("{hash:016x}"),
            "after": a.net.net_after,
            "weight": a.net.net_weight,
            "spread": a.net.net_spread,
        });
        // Written only when set, so that folders made before the setting existed resume.
        if a.net.net_again != 0 {
            settings["network"]["again"] = serde_json::json!(a.net.net_again);
        }
        if a.net.net_precision == PrecisionArg::Int8 {
            settings["network"]["precision"] = serde_json::json!("int8");
        }
        if a.net.search() == SearchArg::Puct {
            settings["network"]["puct"] = serde_json::json!({
                "c": a.net.puct_c,
                "fpu": a.net.puct_fpu,
                "rollouts": a.net.puct_rollouts,
                "mix": a.net.puct_mix,
            });
        }
        if a.gumbel > 0 {
            settings["network"]["gumbel"] = serde_json::json!(a.gumbel);
        }
    }
    settings.to_string()
}

/// The network of a run, read and checked, and the FNV-1a hash of its file (the settings
/// guard compares it, so that one folder never mixes the games of two networks).
fn load_network(a: &SelfplayArgs) -> Result<Option<(Arc<Network>, u64)>, String> {
    let Some(path) = &a.nogo_net else {
        return Ok(None);
    };
    let name = path.display().to_string();
    let bytes = fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let net = Network::from_bytes_at(&bytes, &name, a.net.net_precision.precision())?;
    let hash = fnv1a(&bytes);
    Ok(Some((Arc::new(net), hash)))
}

pub fn selfplay(args: &SelfplayArgs) -> Result<(), String> {
    if args.threads == 0 || args.games == 0 || args.playouts == 0 {
        return Err("--threads, --games and --playouts must be at least 1".into());
    }
    let network = load_network(args)?;
    if network.is_none() && args.net.nogo_search == Some(SearchArg::Puct) {
        return Err("--nogo-search puct needs a network: give --nogo-net FILE".into());
    }
    if args.gumbel > 0 && args.net.search() != SearchArg::Puct {
        return Err("--gumbel chooses PUCT's root moves: give --nogo-search puct".into());
    }
    if args.gumbel > 0 && network.is_none() {
        return Err(
            "--gumbel chooses PUCT's root moves, which needs a network: give --nogo-net FILE"
                .into(),
        );
    }
    if !(args.full_share > 0.0 && args.full_share <= 1.0) {
        return Err(format!(
            "--full-share {} must be above 0 and at most 1",
            args.full_share
        ));
    }
    if args.caps_playouts() && !(1..args.playouts).contains(&args.fast_playouts) {
        return Err(format!(
            "--full-share below 1 needs --fast-playouts from 1 to {} (fewer than --playouts)",
            args.playouts.saturating_sub(1)
        ));
    }
    if args.gumbel > 0 && args.playouts > u32::MAX as u64 {
        return Err(format!(
            "--playouts {} is more than a search can make",
            args.playouts
        ));
    }
    fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let settings_path = args.out.join("selfplay.json");
    let settings = settings_text(args, network.as_ref().map(|n| n.1));
    let network = network.map(|n| n.0);
    match fs::read_to_string(&settings_path) {
        Ok(old) if old.trim() != settings => {
            return Err(format!(
                "{} holds a run made with other settings ({}); this run has {settings}: use \
                 another --out folder",
                settings_path.display(),
                old.trim()
            ))
        }
        Ok(_) => {}
        Err(_) => fs::write(&settings_path, &settings)
            .map_err(|e| format!("{}: {e}", settings_path.display()))?,
    }
    let done = cut_to_whole_games(&args.out)?;
    let todo: Vec<u32> = (0..args.games).filter(|g| !done.contains(g)).collect();
    eprintln!(
        "selfplay: {} games done in {}, {} to play at {} playouts a move on {} threads",
        done.len(),
        args.out.display(),
        todo.len(),
        args.playouts,
        args.threads
    );
    let next = AtomicUsize::new(0);
    let progress = Mutex::new((0u32, 0u64));
    let start = Instant::now();
    let result: Result<(), String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..args.threads)
            .map(|w| {
                let (todo, next, progress, network) = (&todo, &next, &progress, &network);
                s.spawn(move || -> Result<(), String> {
                    let path = args.out.join(format!("selfplay-w{w}.sbnd"));
                    let mut out = open_for_append(&path)?;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&game) = todo.get(i) else {
                            return Ok(());
                        };
                        let records = play_game(args, network.as_ref(), game);
                        let mut bytes = Vec::with_capacity(records.len() * data::RECORD_SIZE);
                        for r in &records {
                            bytes.extend_from_slice(&r.encode());
                        }
                        out.write_all(&bytes)
                            .and_then(|_| out.flush())
                            .map_err(|e| format!("{}: {e}", path.display()))?;
                        let mut p = progress.lock().unwrap();
                        p.0 += 1;
                        p.1 += records.len() as u64;
                        if p.0 % 10 == 0 || p.0 as usize == todo.len() {
                            let secs = start.elapsed().as_secs_f64();
                            eprintln!(
                                "selfplay: {}/{} games, {} positions, {:.0} s, {:.0} games an hour",
                                p.0,
                                todo.len(),
                                p.1,
                                secs,
                                p.0 as f64 * 3600.0 / secs
                            );
                        }
                    }
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| {
            w.join()
                .unwrap_or(Err("a self-play worker panicked".into()))
        })
    });
    result?;
    let p = progress.lock().unwrap();
    eprintln!(
        "selfplay: done: {} games, {} positions in {:.0} s",
        p.0,
        p.1,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Cuts every data file of the folder back to its last whole game and returns the games they
/// hold.
fn cut_to_whole_games(dir: &Path) -> Result<Vec<u32>, String> {
    let mut games = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "sbnd") {
            continue;
        }
        let name = path.display().to_string();
        let file = File::open(&path).map_err(|e| format!("{name}: {e}"))?;
        let records = data::read_records(file, &name)?;
        let (keep, whole) = data::complete_prefix(&records);
        games.extend(whole);
        let file = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| format!("{name}: {e}"))?;
        file.set_len(keep as u64)
            .map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(games)
}

fn open_for_append(path: &Path) -> Result<BufWriter<File>, String> {
    let name = path.display().to_string();
    let fresh = !path.exists();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{name}: {e}"))?;
    let mut out = BufWriter::new(file);
    if fresh {
        data::write_header(&mut out).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(out)
}

/// An improved policy's share of 1 written as a count of this many parts: the trainer
/// normalises the field, as it does visit counts.
const POLICY_SCALE: f32 = 60_000.0;

/// A mixing of the run's seed and the game's index (splitmix64's finaliser), so that nearby
/// games get unrelated randomness.
fn game_seed(seed: u64, game: u32) -> u64 {
    let mut z = seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One game of the engine against itself, its positions labelled.
pub fn play_game(args: &SelfplayArgs, network: Option<&Arc<Network>>, game: u32) -> Vec<Record> {
    let seed = game_seed(args.seed, game);
    let config = NogoConfig {
        seed,
        ..NogoConfig::default()
    };
    let advice = args.net.advice();
    let mut engine = match network {
        Some(net) => NogoEngine::advised(config, Arc::clone(net), advice),
        None => NogoEngine::new(config),
    };
    engine.new_game();
    let mut rng = SmallRng::seed_from_u64(seed);
    let rules = NogoRules {
        centre_ban: args.centre_ban,
    };
    let mut pos = Nogo::new(rules);
    let mut records = Vec::new();
    let gumbel = GumbelParams {
        considered: args.gumbel,
        ..GumbelParams::default()
    };
    while pos.outcome().is_none() {
        let mut flags = if rules.centre_ban { FLAG_CENTRE_BAN } else { 0 };
        let mut visits = [0u16; POINTS];
        // The draw is made only when some moves are fast, so that runs without them keep the
        // games they always had (their folders resume).
        let full = !args.caps_playouts() || rng.gen::<f64>() < args.full_share;
        let playouts = if full {
            args.playouts
        } else {
            args.fast_playouts
        };
        let (mv, win_rate) = if args.gumbel > 0 {
            let choice = engine
                .think_gumbel(&pos, playouts as u32, gumbel, &mut rng)
                .expect("selfplay checked that PUCT has a network");
            for &(m, share) in &choice.policy {
                visits[m as usize] = (share * POLICY_SCALE).round() as u16;
            }
            flags |= FLAG_POLICY;
            let mv = choice.chosen.expect("a side with no move has lost");
            (mv, (choice.value + 1.0) / 2.0)
        } else {
            let decision = engine.think(&pos, Limits::iterations(playouts));
            let searched = engine.root_child_visits();
            for &(m, v) in &searched {
                visits[m as usize] = v.min(u16::MAX as u32) as u16;
            }
            let best = decision.mv.expect("a side with no move has lost");
            if searched.is_empty() {
                // A forced move is played without a search: it is the whole distribution.
                visits[best as usize] = 1;
            }
            let sampled = (pos.ply() as u32) < args.sample_plies;
            let mv = if sampled {
                draw(&visits, &mut rng)
            } else {
                best
            };
            if sampled && mv != best {
                flags |= FLAG_SAMPLED;
            }
            (mv, decision.win_rate.unwrap_or(0.5))
        };
        if full {
            records.push(Record {
                game,
                ply: pos.ply() as u8,
                side: (pos.side_to_move() == Color::White) as u8,
                flags,
                result: 0,
                root_value: win_rate,
                black: pos.stones(Color::Black),
                white: pos.stones(Color::White),
                planes: planes(&pos),
                visits,
                played: mv as u16,
            });
        }
        engine.observe(&pos, mv);
        pos.play(mv);
    }
    let Some(Outcome::Win(winner)) = pos.outcome() else {
        unreachable!("NoGo has no draws")
    };
    for r in &mut records {
        let side = if r.side == 0 {
            Color::Black
        } else {
            Color::White
        };
        r.result = if side == winner { 1 } else { -1 };
    }
    // A game whose moves were all fast writes nothing (and a resumed run plays it again, to
    // the same end): rare, as a game has dozens of moves.
    if let Some(last) = records.last_mut() {
        last.flags |= FLAG_LAST;
    }
    records
}

/// A point drawn with probability proportional to its visits.
fn draw(visits: &[u16; POINTS], rng: &mut SmallRng) -> Point {
    let total: u32 = visits.iter().map(|&v| v as u32).sum();
    let mut left = rng.gen_range(0..total.max(1));
    for (p, &v) in visits.iter().enumerate() {
        if left < v as u32 {
            return p as Point;
        }
        left -= v as u32;
    }
    unreachable!("the draw falls within the total")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: PathBuf, games: u32) -> SelfplayArgs {
        SelfplayArgs {
            game: "nogo".into(),
            games,
            playouts: 200,
            out,
            seed: 7,
            threads: 2,
            sample_plies: 4,
            centre_ban: false,
            nogo_net: None,
            gumbel: 0,
            full_share: 1.0,
            fast_playouts: 0,
            net: NetOptions::default(),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("stonebrain-selfplay-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn all_records(dir: &Path) -> Vec<Record> {
        let mut files: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sbnd"))
            .collect();
        files.sort();
        let mut out = Vec::new();
        for f in files {
            out.extend(data::read_records(File::open(&f).unwrap(), "test").unwrap());
        }
        out.sort_by_key(|r| (r.game, r.ply));
        out
    }

    #[test]
    fn a_game_is_labelled_from_its_own_positions() {
        let a = args(PathBuf::new(), 1);
        let records = play_game(&a, None, 3);
        assert_eq!(
            records,
            play_game(&a, None, 3),
            "a game depends on the seed and index only"
        );
        let mut pos = Nogo::new(NogoRules::default());
        for (i, r) in records.iter().enumerate() {
            assert_eq!(r.ply as usize, i);
            assert_eq!(r.planes, planes(&pos));
            assert_eq!(
                (r.black, r.white),
                (pos.stones(Color::Black), pos.stones(Color::White))
            );
            let legal = pos.legal_mask(pos.side_to_move());
            for p in 0..POINTS {
                assert!(
                    r.visits[p] == 0 || legal >> p & 1 == 1,
                    "visits only on legal points"
                );
            }
            assert!(r.visits.iter().any(|&v| v > 0));
            assert!(legal >> r.played & 1 == 1);
            assert_eq!(r.flags & FLAG_LAST != 0, i + 1 == records.len());
            pos.play(r.played as Point);
        }
        // The side that made the last move won: its opponent had no legal point left.
        assert!(pos.outcome().is_some());
        let last = records.last().unwrap();
        assert_eq!(last.result, 1);
        assert!(records
            .iter()
            .all(|r| r.result == if r.side == last.side { 1 } else { -1 }));
    }

    #[test]
    fn a_stopped_run_carries_on_to_the_same_games() {
        let whole = scratch("whole");
        selfplay(&args(whole.clone(), 4)).unwrap();
        let want = all_records(&whole);
        assert_eq!(want.iter().filter(|r| r.flags & FLAG_LAST != 0).count(), 4);

        let cut = scratch("cut");
        selfplay(&args(cut.clone(), 2)).unwrap();
        // A writer stopped in the middle of its third game: a partial record at the end.
        let file = fs::read_dir(&cut)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "sbnd"))
            .unwrap();
        let mut f = OpenOptions::new().append(true).open(&file).unwrap();
        f.write_all(&want[0].encode()[..200]).unwrap();
        drop(f);
        selfplay(&args(cut.clone(), 4)).unwrap();
        assert_eq!(all_records(&cut), want);

        let mut other = args(cut.clone(), 4);
        other.playouts = 300;
        assert!(selfplay(&other).unwrap_err().contains("other settings"));
        let _ = fs::remove_dir_all(&whole);
        let _ = fs::remove_dir_all(&cut);
    }

    #[test]
    fn only_the_full_searches_are_written() {
        let dir = scratch("cap");
        let mut a = args(dir.clone(), 3);
        a.full_share = 0.4;
        // Fast moves need a playout count of their own, below the full one.
        assert!(selfplay(&a).unwrap_err().contains("--fast-playouts"));
        a.fast_playouts = 200;
        assert!(selfplay(&a).unwrap_err().contains("--fast-playouts"));
        a.fast_playouts = 20;
        selfplay(&a).unwrap();
        let records = all_records(&dir);
        assert_eq!(
            records.iter().filter(|r| r.flags & FLAG_LAST != 0).count(),
            3,
            "each game ends with a written position"
        );
        let mut written = 0;
        let mut plies = 0;
        for game in 0..3 {
            let mine: Vec<&Record> = records.iter().filter(|r| r.game == game).collect();
            written += mine.len();
            plies += mine.last().unwrap().ply as usize + 1;
            // Every written position carries the game's one result, from its side's view (the last
            // written one may be the loser's: the moves after it were fast).
            let last = mine.last().unwrap();
            assert!(mine.iter().all(|r| r.result
                == if r.side == last.side {
                    last.result
                } else {
                    -last.result
                }));
        }
        // Some moves were left out and more than a sixth written (a share of 0.4 of some 60 plies
        // a game writes about two in five).
        assert!(
            written < plies && written * 6 > plies,
            "{written} of {plies}"
        );
        // What is written is a full search's: its 200 playouts, not a fast one's 20.
        assert!(records
            .iter()
            .all(|r| r.visits.iter().map(|&v| v as u32).sum::<u32>() >= 150));
        let settings = fs::read_to_string(dir.join("selfplay.json")).unwrap();
        assert!(settings.contains("\"fast_playouts\":20"), "{settings}");
        // The same run again (resumed from nothing new) adds no game; a share of 1 is the
        // run without fast moves, whose games are unchanged.
        selfplay(&a).unwrap();
        assert_eq!(all_records(&dir), records);
        let mut full = args(PathBuf::new(), 1);
        full.fast_playouts = 20;
        assert_eq!(
            play_game(&full, None, 1),
            play_game(&args(PathBuf::new(), 1), None, 1)
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn puct_self_play_records_its_visits_and_settings() {
        let dir = scratch("puct");
        let mut a = args(dir.clone(), 1);
        a.playouts = 40;
        a.net.nogo_search = Some(SearchArg::Puct);
        // Without a network PUCT has nothing to search with.
        assert!(selfplay(&a).unwrap_err().contains("needs a network"));
        a.nogo_net = Some(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/test_vectors/nogo/network/tiny.sbnn"
        )));
        selfplay(&a).unwrap();
        let records = all_records(&dir);
        assert!(records.len() > 20);
        // Each searched position's visits are the PUCT root's: 40 of them (an inherited
        // subtree adds its own).
        assert!(records
            .iter()
            .any(|r| r.visits.iter().map(|&v| v as u32).sum::<u32>() >= 40));
        let settings = fs::read_to_string(dir.join("selfplay.json")).unwrap();
        assert!(settings.contains("\"puct\""), "{settings}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn gumbel_self_play_writes_an_improved_policy_and_plays_its_choice() {
        let dir = scratch("gumbel");
        let mut a = args(dir.clone(), 2);
        a.playouts = 24;
        a.gumbel = 8;
        // Gumbel chooses PUCT's root moves: without a network, or with the playout search, it
        // is refused.
        assert!(selfplay(&a).unwrap_err().contains("needs a network"));
        a.nogo_net = Some(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/test_vectors/nogo/network/tiny.sbnn"
        )));
        a.net.nogo_search = Some(SearchArg::Mcts);
        assert!(selfplay(&a).unwrap_err().contains("--nogo-search puct"));
        a.net.nogo_search = Some(SearchArg::Puct);
        selfplay(&a).unwrap();
        let records = all_records(&dir);
        assert_eq!(
            records.iter().filter(|r| r.flags & FLAG_LAST != 0).count(),
            2
        );
        let mut pos = Nogo::new(NogoRules::default());
        for r in &records {
            if r.ply == 0 {
                pos = Nogo::new(NogoRules::default());
            }
            assert!(r.flags & FLAG_POLICY != 0 && r.flags & FLAG_SAMPLED == 0);
            // A policy over every legal point (softmax: none is zero before rounding), in
            // parts of 60,000.
            let legal = pos.legal_mask(pos.side_to_move());
            let total: u32 = r.visits.iter().map(|&v| v as u32).sum();
            assert!((total as i64 - 60_000).abs() <= POINTS as i64, "{total}");
            for p in 0..POINTS {
                assert!(r.visits[p] == 0 || legal >> p & 1 == 1);
            }
            assert!(legal >> r.played & 1 == 1);
            assert!((0.0..=1.0).contains(&r.root_value));
            pos.play(r.played as Point);
        }
        // The same seed gives the same games.
        let again = scratch("gumbel-again");
        a.out = again.clone();
        selfplay(&a).unwrap();
        assert_eq!(all_records(&again), records);
        let settings = fs::read_to_string(dir.join("selfplay.json")).unwrap();
        assert!(settings.contains("\"gumbel\":8"), "{settings}");
        let _ = fs::remove_dir_all(&dir);
        let _ = fs::remove_dir_all(&again);
    }

    #[test]
    fn a_network_advises_both_sides_and_is_part_of_the_settings() {
        let tiny = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/test_vectors/nogo/network/tiny.sbnn"
        ));
        let dir = scratch("net");
        let mut a = args(dir.clone(), 2);
        a.nogo_net = Some(tiny.clone());
        // The playout search advised by the network, as trained (PUCT has its own test).
        a.net.nogo_search = Some(SearchArg::Mcts);
        a.net.net_precision = PrecisionArg::Float;
        a.net.net_after = 8;
        selfplay(&a).unwrap();
        let records = all_records(&dir);
        assert_eq!(
            records.iter().filter(|r| r.flags & FLAG_LAST != 0).count(),
            2
        );
        // The advice changes the search: the same games without it differ.
        let plain = play_game(&args(PathBuf::new(), 2), None, 0);
        let net = Arc::new(Network::from_file(&tiny).unwrap());
        let advised = play_game(&a, Some(&net), 0);
        assert_eq!(
            advised,
            records
                .iter()
                .filter(|r| r.game == 0)
                .cloned()
                .collect::<Vec<_>>()
        );
        assert_ne!(plain, advised);
        let settings = fs::read_to_string(dir.join("selfplay.json")).unwrap();
        assert!(settings.contains("fnv1a64"), "{settings}");
        // The same folder with another network (or none) is refused.
        let mut none = a.clone();
        none.nogo_net = None;
        assert!(selfplay(&none).unwrap_err().contains("other settings"));
        // A missing network file is an error naming it.
        let mut missing = a.clone();
        missing.nogo_net = Some(dir.join("no-such.sbnn"));
        assert!(selfplay(&missing).unwrap_err().contains("no-such.sbnn"));
        let _ = fs::remove_dir_all(&dir);
    }
}
