//! A match between two players: many games, colours alternating in pairs (each opening is played
//! once with each colour), several games at once, an optional SPRT stop.

use super::player::{ArenaGame, Builtin, GameOptions, Player, BOTZONE_PROTOCOLS};
use super::record::GameRecord;
use super::referee::{play_game, TimeControl};
use super::sau_player::{is_sau, SAU_TOLERANT};
use super::stats::{GamePoints, MatchScore, Sprt, SprtVerdict};
use crate::game::Color;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

/// A player as given on the command line or in an engines file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub kind: EngineKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// `random`, `greedy`, `mcts:<N>ms`, `engine:<N>n`, `classic:<N>ms`, ...: played inside
    /// this process.
    Builtin(String),
    /// An external program, the platform protocol to speak to it in, and the lines to send it
    /// (`init=`: for SAU and GTP engines once it has started, `depth 4` for an engine that reads
    /// its settings from its input; for Gomocup brains with the limits before its first move,
    /// `INFO max_node 20000`).
    External {
        command: String,
        protocol: String,
        init: Vec<String>,
    },
}

/// The protocols the arena can speak to an external program (which of them a game accepts is
/// checked when the match starts).
pub const PROTOCOLS: [&str; 8] = [
    BOTZONE_PROTOCOLS[0],
    BOTZONE_PROTOCOLS[1],
    BOTZONE_PROTOCOLS[2],
    BOTZONE_PROTOCOLS[3],
    "sau",
    SAU_TOLERANT,
    "gomocup",
    "gtp",
];

impl EngineSpec {
    /// Parses `name=N cmd=... proto=... [init=LINE;LINE]` or `name=N builtin=...` pieces.
    pub fn parse(pieces: &[String]) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut cmd = None;
        let mut proto = None;
        let mut builtin = None;
        let mut init = None;
        for piece in pieces {
            let (key, value) = piece
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, got {piece:?}"))?;
            match key {
                "name" => name = Some(value.to_string()),
                "cmd" => cmd = Some(value.to_string()),
                "proto" => proto = Some(value.to_string()),
                "builtin" => builtin = Some(value.to_string()),
                "init" => init = Some(value.to_string()),
                _ => {
                    return Err(format!(
                        "unknown engine option {key:?} (name, cmd, proto, init, builtin)"
                    ))
                }
            }
        }
        let kind = match (cmd, builtin) {
            (Some(command), None) => {
                let protocol = proto.unwrap_or_else(|| "botzone".to_string());
                if !PROTOCOLS.contains(&protocol.as_str()) {
                    return Err(format!(
                        "unknown protocol {protocol:?}: one of {}",
                        PROTOCOLS.join(", ")
                    ));
                }
                let init: Vec<String> = init
                    .iter()
                    .flat_map(|i| i.split(';'))
                    .map(|l| l.trim().to_string())
                    .filter(|l| !l.is_empty())
                    .collect();
                if !init.is_empty()
                    && !is_sau(&protocol)
                    && protocol != "gtp"
                    && protocol != "gomocup"
                {
                    return Err(format!(
                        "init= lines are for SAU engines (proto=sau or {SAU_TOLERANT}), GTP \
                         engines (proto=gtp) and Gomocup brains (proto=gomocup), not {protocol}"
                    ));
                }
                EngineKind::External {
                    command,
                    protocol,
                    init,
                }
            }
            (None, Some(_)) if init.is_some() => {
                return Err("init= is for external programs (cmd=), not built-in players".into())
            }
            (None, Some(spec)) => EngineKind::Builtin(spec),
            (Some(_), Some(_)) => return Err("give either cmd= or builtin=, not both".to_string()),
            (None, None) => return Err("an engine needs cmd=... or builtin=...".to_string()),
        };
        let name = name.unwrap_or_else(|| match &kind {
            EngineKind::Builtin(s) => s.clone(),
            EngineKind::External { command, .. } => command.clone(),
        });
        Ok(EngineSpec { name, kind })
    }

    /// Whether this is a built-in player that spreads the game clock (`<family>:clock`).
    pub fn plans_a_game_clock(&self) -> bool {
        match &self.kind {
            EngineKind::Builtin(spec) => spec
                .split(',')
                .next()
                .is_some_and(|head| head.ends_with(":clock")),
            EngineKind::External { .. } => false,
        }
    }

    /// Reads a JSON engines file: `[{"name":..,"cmd":..,"proto":..}, {"name":..,"builtin":..}]`.
    pub fn parse_file(text: &str) -> Result<Vec<EngineSpec>, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("engines file is not JSON: {e}"))?;
        let list = v.as_array().ok_or("the engines file must be a JSON list")?;
        list.iter()
            .map(|e| {
                let obj = e.as_object().ok_or("each engine must be a JSON object")?;
                let pieces: Vec<String> = obj
                    .iter()
                    .map(|(k, v)| {
                        format!(
                            "{k}={}",
                            v.as_str()
                                .map(str::to_string)
                                .unwrap_or_else(|| v.to_string())
                        )
                    })
                    .collect();
                EngineSpec::parse(&pieces)
            })
            .collect()
    }

    /// A player for games from `start`; a SAU player serves several games (see `Seat`), a
    /// Gomocup one starts a fresh program for each game.
    pub fn build<G: ArenaGame>(&self, seed: u64, start: &G) -> Result<Box<dyn Player<G>>, String> {
        Ok(match &self.kind {
            EngineKind::Builtin(spec) => Box::new(Builtin::<G>::from_spec(&self.name, spec, seed)?),
            EngineKind::External {
                command,
                protocol,
                init,
            } => {
                start
                    .check_protocol(protocol)
                    .map_err(|e| format!("{}: {e}", self.name))?;
                G::external_player(&self.name, command, protocol, init)
                    .map_err(|e| format!("{}: {e}", self.name))?
            }
        })
    }

    /// Whether this player can start from a given position: the SAU protocol has no way to
    /// tell an engine about stones already on the board.
    pub fn takes_openings(&self) -> bool {
        !matches!(&self.kind, EngineKind::External { protocol, .. } if is_sau(protocol))
    }
}

/// One side of a match or series: builds its player for each game, or keeps it from game to
/// game when the player is reusable (a SAU engine stays loaded, as on the platform, and hears
/// `quit` when the seat is dropped).
pub struct Seat<'s, G: ArenaGame> {
    spec: &'s EngineSpec,
    kept: Option<Box<dyn Player<G>>>,
}

impl<'s, G: ArenaGame> Seat<'s, G> {
    pub fn new(spec: &'s EngineSpec) -> Seat<'s, G> {
        Seat { spec, kept: None }
    }

    /// The player for the next game (`seed` matters to built-in players only).
    pub fn player(&mut self, seed: u64, start: &G) -> Result<&mut dyn Player<G>, String> {
        let reuse = self.kept.as_ref().is_some_and(|p| p.reusable());
        if !reuse {
            self.kept = Some(self.spec.build(seed, start)?);
        }
        Ok(self.kept.as_mut().expect("a player was built").as_mut())
    }
}

/// Parses an openings file: one opening a line, stones as `x,y` separated by spaces; blank
/// lines and `#` comments are skipped. Each opening must be legal from `start` and end between
/// turns (Connect6: after a whole pair).
pub fn parse_openings<G: ArenaGame>(text: &str, start: &G) -> Result<Vec<Vec<G::Move>>, String> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for token in line.split_whitespace() {
            let bad = || format!("openings line {}: {token:?} is not x,y on the board", n + 1);
            let (x, y) = token.split_once(',').ok_or_else(bad)?;
            let m = pos
                .point_at(x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?)
                .ok_or_else(bad)?;
            pos.try_play(m)
                .map_err(|e| format!("openings line {}: {token} is illegal: {e}", n + 1))?;
            moves.push(m);
        }
        if pos.mid_turn() {
            return Err(format!(
                "openings line {}: it stops in the middle of a turn (give whole turns)",
                n + 1
            ));
        }
        openings.push(moves);
    }
    Ok(openings)
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub games: u32,
    pub concurrency: usize,
    pub tc: TimeControl,
    pub seed: u64,
    pub options: GameOptions,
    pub sprt: Option<Sprt>,
}

/// One finished game of a match: its index, whether A had Black, the record.
pub struct MatchGame {
    pub index: u32,
    pub a_black: bool,
    pub record: GameRecord,
}

/// The moment the SPRT stopped a match: games already under way when it decided still finish
/// and count in the score, but the decision is the one taken here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStop {
    pub verdict: SprtVerdict,
    pub llr: f64,
    /// Pairs or games read by the test when it decided (its model's unit).
    pub observations: u32,
}

/// A played match: the score (A's view), every game in order, and the SPRT's decision if it
/// stopped the match.
pub struct MatchResult {
    pub score: MatchScore,
    pub games: Vec<MatchGame>,
    pub sprt_stop: Option<SprtStop>,
}

/// Plays the match; `on_game` hears each game as it ends, with the running score (A's view).
pub fn run_match<G: ArenaGame>(
    a: &EngineSpec,
    b: &EngineSpec,
    openings: &[Vec<G::Move>],
    config: &MatchConfig,
    on_game: &(dyn Fn(&MatchGame, &MatchScore) + Sync),
) -> Result<MatchResult, String> {
    let start = G::start(&config.options)?;
    // Build once up front so that a bad spec is reported before any game starts.
    a.build::<G>(0, &start)?;
    b.build::<G>(0, &start)?;
    if !openings.is_empty() {
        if let Some(spec) = [a, b].into_iter().find(|s| !s.takes_openings()) {
            return Err(format!(
                "{} speaks SAU, which cannot start a game from an opening: drop --openings",
                spec.name
            ));
        }
    }
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let state = Mutex::new((MatchScore::default(), Vec::new(), None));
    std::thread::scope(|s| {
        for _ in 0..config.concurrency.max(1) {
            // Positions are not shared between threads: each worker has its own copy.
            let start = start.clone();
            let (next, stop, state) = (&next, &stop, &state);
            s.spawn(move || {
                // Each worker keeps its own seats: a SAU engine stays loaded for its games.
                let (mut seat_a, mut seat_b) = (Seat::new(a), Seat::new(b));
                loop {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= config.games || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    // Games 2k and 2k+1 share opening k with colours swapped.
                    let a_black = g.is_multiple_of(2);
                    let opening_index =
                        (!openings.is_empty()).then(|| (g as usize / 2) % openings.len());
                    let opening = opening_index.map_or(&[][..], |i| &openings[i][..]);
                    let seed = config.seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
                    let (Ok(pa), Ok(pb)) = (
                        seat_a.player(seed, &start),
                        seat_b.player(seed ^ 0x5555, &start),
                    ) else {
                        break;
                    };
                    let mut record = if a_black {
                        play_game(pa, pb, &start, opening, config.tc)
                    } else {
                        play_game(pb, pa, &start, opening, config.tc)
                    };
                    record.opening = opening_index;
                    let a_color = if a_black { Color::Black } else { Color::White };
                    let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
                    let points = match record.winner {
                        Some(c) if c == a_color => GamePoints::Win,
                        Some(_) => GamePoints::Loss,
                        None => GamePoints::Draw,
                    };
                    guard.0.record(g, points);
                    if let Some(test) = config.sprt.filter(|_| guard.2.is_none()) {
                        let llr = test.llr(&guard.0);
                        let verdict = test.verdict_of(llr);
                        if verdict != SprtVerdict::Continue {
                            guard.2 = Some(SprtStop {
                                verdict,
                                llr,
                                observations: test.observations(&guard.0),
                            });
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    let game = MatchGame {
                        index: g,
                        a_black,
                        record,
                    };
                    on_game(&game, &guard.0);
                    guard.1.push(game);
                }
            });
        }
    });
    let (score, mut games, sprt_stop) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.index);
    Ok(MatchResult {
        score,
        games,
        sprt_stop,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pieces: &[&str]) -> Result<EngineSpec, String> {
        EngineSpec::parse(&pieces.iter().map(|p| p.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn init_lines_go_to_sau_gtp_and_gomocup_engines_only() {
        let spec = parse(&[
            "name=c",
            "cmd=./cloudict",
            "proto=sau-tolerant",
            "init=depth 4; x",
        ])
        .unwrap();
        assert_eq!(
            spec.kind,
            EngineKind::External {
                command: "./cloudict".into(),
                protocol: SAU_TOLERANT.into(),
                init: vec!["depth 4".into(), "x".into()],
            }
        );
        assert!(!spec.takes_openings());
        let err = parse(&["cmd=./bot", "proto=botzone", "init=depth 4"]).unwrap_err();
        assert!(err.contains("init= lines are for SAU engines"), "{err}");
        let spec = parse(&["cmd=./brain", "proto=gomocup", "init=INFO max_node 20000"]).unwrap();
        assert_eq!(
            spec.kind,
            EngineKind::External {
                command: "./brain".into(),
                protocol: "gomocup".into(),
                init: vec!["INFO max_node 20000".into()],
            }
        );
        assert!(parse(&["cmd=./bot", "proto=gtp", "init=komi 0;time_settings 0 1 1"]).is_ok());
        let err = parse(&["builtin=random", "init=depth 4"]).unwrap_err();
        assert!(err.contains("external programs"), "{err}");
        let err = parse(&["cmd=./bot", "proto=sau-strict"]).unwrap_err();
        assert!(err.contains("sau-tolerant"), "{err}");
    }
}
