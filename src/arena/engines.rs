//! Players from what the user wrote: `--engine name=.. cmd=.. proto=..` or `builtin=SPEC` (or an
//! engines file) into an `EngineSpec`, and a spec into a player for each game (`Seat`). A
//! built-in spec (`mcts:200ms,c=0.3`, `engine:5000n`, `full:clock,turns=30`) becomes the engine
//! its game offers (`ArenaGame::builtin_engine`) and a budget a turn.

use super::player::{ArenaGame, Player};
use super::players::botzone::BOTZONE_PROTOCOLS;
use super::players::builtin::{Budget, Builtin};
use super::players::sau::{is_sau, SAU_TOLERANT};
use crate::engine::gomoku::level::Level;
use crate::engine::random::RandomPlayer;
use crate::engine::Engine;
use crate::search::clock::GamePlan;
use std::time::Duration;

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

/// Families some game knows: a game that lacks one says so itself (NoGo has no `greedy`), where
/// any other name is simply unknown.
const KNOWN_FAMILIES: [&str; 6] = ["mcts", "engine", "greedy", "full", "classic", "wintable"];

/// `key=value` engine settings from a built-in player's spec.
type Settings = Vec<(String, f64)>;

/// A spec split up: its head, the `level=NAME` setting (a name, not a number: Gomoku's
/// levels), the `net=FILE` setting (a file: Connect6's value network), the numeric settings.
type SpecParts<'a> = (&'a str, Option<&'a str>, Option<&'a str>, Settings);

/// Splits `spec` into its head, the `level=NAME` and `net=FILE` settings if there are any, and
/// the numeric `key=value` settings.
fn spec_options(spec: &str) -> Result<SpecParts<'_>, String> {
    let mut parts = spec.split(',');
    let head = parts.next().unwrap_or("");
    let mut level = None;
    let mut net = None;
    let options = parts
        .filter(|kv| {
            if let Some(name) = kv.strip_prefix("level=") {
                level = Some(name);
                false
            } else if let Some(file) = kv.strip_prefix("net=") {
                net = Some(file);
                false
            } else {
                true
            }
        })
        .map(|kv| {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("expected key=value in {spec:?}, got {kv:?}"))?;
            let v: f64 = v
                .parse()
                .map_err(|_| format!("{k}={v} is not a number in {spec:?}"))?;
            Ok((k.to_string(), v))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((head, level, net, options))
}

/// Settings of a `clock` budget's plan, to compare plans under one clock: `turns` (our turns in
/// a typical game), `minleft` (the fewest turns ever expected still to come), `open` and
/// `open_weight` (how many first turns weigh how much), `late` and `late_weight` (from which
/// turn the end weighs how much), `reserve` (the share of the clock kept back), `loan_cap` (the
/// most of what is left one turn may borrow).
const PLAN_KEYS: [&str; 8] = [
    "turns",
    "minleft",
    "open",
    "open_weight",
    "late",
    "late_weight",
    "reserve",
    "loan_cap",
];

/// `plan` with the plan settings of `spec` (the `PLAN_KEYS`) applied.
fn with_plan_options(
    mut plan: GamePlan,
    options: &Settings,
    spec: &str,
) -> Result<GamePlan, String> {
    for (key, value) in options {
        let key = key.as_str();
        if let "open_weight" | "late_weight" | "reserve" | "loan_cap" = key {
            let range = match key {
                "reserve" => 0.0..=0.9,
                "loan_cap" => 0.05..=0.9,
                _ => 0.05..=20.0,
            };
            if !range.contains(value) {
                return Err(format!(
                    "{key}={value} in {spec:?}: from {} to {}",
                    range.start(),
                    range.end()
                ));
            }
            match key {
                "open_weight" => plan.opening_weight = *value,
                "late_weight" => plan.late_weight = *value,
                "loan_cap" => plan.loan_cap = *value,
                _ => plan.reserve = *value,
            }
            continue;
        }
        // `open` may be 0 (no opening turns); the others count at least one turn.
        let least = if key == "open" { 0.0 } else { 1.0 };
        if value.fract() != 0.0 || !(least..=500.0).contains(value) {
            return Err(format!(
                "{key}={value} in {spec:?}: a whole number of turns, {least} to 500"
            ));
        }
        let turns = *value as u32;
        match key {
            "turns" => plan.typical_turns = turns,
            "minleft" => plan.min_turns_left = turns,
            "open" => plan.opening_turns = turns,
            _ => plan.late_from = turns,
        }
    }
    Ok(plan)
}

impl<G: ArenaGame> Builtin<G> {
    /// `spec` is `random`, `greedy` (Connect6), or `<family>:<N>ms` / `<family>:<N><unit>`
    /// (NoGo: `mcts:` or `engine:` with `p` playouts; Connect6: `engine:` with `n` nodes;
    /// Gomoku: `full:`, `classic:` or `wintable:` with `n` nodes, `engine:` being `full:`),
    /// optionally followed by engine settings: `mcts:200ms,c=0.35,k=2000`. `level=NAME` renames
    /// the `engine` family: `engine:200ms,level=classic` is `classic:200ms`.
    pub fn from_spec(name: &str, spec: &str, seed: u64) -> Result<Builtin<G>, String> {
        let bad = || {
            format!(
                "unknown built-in player {spec:?} for {}: use {}",
                G::NAME,
                G::BUILTIN_HELP
            )
        };
        let (head, level, net, options) = spec_options(spec)?;
        // The clock plan's own settings, for `clock` budgets; the rest go to the engine.
        let (plan_options, options): (Settings, Settings) = options
            .into_iter()
            .partition(|(k, _)| PLAN_KEYS.contains(&k.as_str()));
        // `engine:<N>ms,level=classic` is `classic:<N>ms`.
        let renamed;
        let head = match (level, head.split_once(':')) {
            (None, _) => head,
            (Some(level), Some(("engine", amount))) => {
                Level::parse(level)?;
                renamed = format!("{level}:{amount}");
                renamed.as_str()
            }
            (Some(_), _) => {
                return Err(format!(
                    "{spec:?}: level= goes with engine:<N>ms or engine:<N>n"
                ))
            }
        };
        let (engine, budget): (Box<dyn Engine<G>>, _) = match head.split_once(':') {
            None if head == "random" => {
                if !options.is_empty() || net.is_some() {
                    return Err(format!("the random player takes no settings: {spec:?}"));
                }
                (Box::new(RandomPlayer::new(seed)), None)
            }
            None if head == "greedy" => (G::builtin_engine(head, seed, &options, net)?, None),
            None if KNOWN_FAMILIES.contains(&head) => {
                return Err(format!(
                    "{spec:?} needs a budget per turn: {head}:<N>ms or {head}:<N>{}",
                    G::ITERATION_UNITS.first().unwrap_or(&"n")
                ))
            }
            None => return Err(bad()),
            Some((family, amount)) => {
                let number = |digits: &str| {
                    digits.parse::<u64>().map_err(|_| {
                        format!("{amount:?} in {spec:?} is not a whole number with a unit")
                    })
                };
                let budget = if amount == "clock" {
                    let plan = G::GAME_PLAN.ok_or_else(|| {
                        format!("{spec:?}: {} has no game-clock plan; use <N>ms", G::NAME)
                    })?;
                    Budget::Clock(with_plan_options(plan, &plan_options, spec)?)
                } else if !plan_options.is_empty() {
                    return Err(format!(
                        "{spec:?}: {} set the clock plan and go with <family>:clock",
                        PLAN_KEYS.join(", ")
                    ));
                } else if let Some(ms) = amount.strip_suffix("ms") {
                    Budget::Time(Duration::from_millis(number(ms)?))
                } else if let Some(unit) = G::ITERATION_UNITS.iter().find(|u| amount.ends_with(**u))
                {
                    Budget::Iterations(number(&amount[..amount.len() - unit.len()])?)
                } else {
                    return Err(format!(
                        "{spec:?}: the budget {amount:?} needs a unit: ms (per turn) or {} for {}",
                        G::ITERATION_UNITS.join(" or "),
                        G::NAME
                    ));
                };
                let engine = G::builtin_engine(family, seed, &options, net).map_err(|e| {
                    if KNOWN_FAMILIES.contains(&family) {
                        e
                    } else {
                        bad()
                    }
                })?;
                (engine, Some(budget))
            }
        };
        Builtin::new(name, engine, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect6::Connect6;
    use crate::game::gomoku::Gomoku;
    use crate::game::nogo::Nogo;

    /// `net=FILE` gives a Connect6 engine the value network in the file, and is refused, with
    /// the reason, where it cannot apply or the file is not a network.
    #[test]
    fn a_connect6_engine_takes_a_network_file() {
        let net = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/test_vectors/connect6/network/net.sbc6"
        );
        let spec = format!("engine:100n,net={net},depth=3");
        let b = Builtin::<Connect6>::from_spec("a", &spec, 1).unwrap();
        assert_eq!(b.budget(), Some(Budget::Iterations(100)));
        let err = |s: &str| Builtin::<Connect6>::from_spec("a", s, 1).err().unwrap();
        let missing = err("engine:100n,net=/no/such.sbc6");
        assert!(missing.contains("/no/such.sbc6"), "{missing}");
        let games = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/test_vectors/connect6/network/games.jsonl"
        );
        assert!(err(&format!("engine:100n,net={games}")).contains("magic"));
        assert!(err(&format!("greedy,net={net}")).contains("no network"));
        assert!(err(&format!("random,net={net}")).contains("no settings"));
        let nogo = Builtin::<Nogo>::from_spec("a", &format!("mcts:100p,net={net}"), 1);
        assert!(nogo.err().unwrap().contains("Connect6 engine setting"));
        let gomoku = Builtin::<Gomoku>::from_spec("a", &format!("engine:100ms,net={net}"), 1);
        assert!(gomoku.err().unwrap().contains("Connect6 engine setting"));
    }

    #[test]
    fn builtin_specs_parse_with_engine_options() {
        assert!(Builtin::<Nogo>::from_spec("a", "random", 1).is_ok());
        let b = Builtin::<Nogo>::from_spec("a", "mcts:200ms,c=0.3,k=1500", 1).unwrap();
        assert_eq!(b.budget(), Some(Budget::Time(Duration::from_millis(200))));
        let b = Builtin::<Nogo>::from_spec("a", "mcts:500p", 1).unwrap();
        assert_eq!(b.budget(), Some(Budget::Iterations(500)));
        assert!(
            Builtin::<Nogo>::from_spec("a", "mcts:500p,solve=100000,solve_empty=26", 1).is_ok()
        );
        let b = Builtin::<Nogo>::from_spec("a", "engine:300n", 1).unwrap();
        assert_eq!(b.budget(), Some(Budget::Iterations(300)));
        let err = |s: &str| Builtin::<Nogo>::from_spec("a", s, 1).err().unwrap();
        assert!(err("mcts:200ms,zz=1").contains("unknown NoGo engine option"));
        assert!(err("mcts:200ms,c=x").contains("not a number"));
        assert!(err("mcts:200ms,c").contains("expected key=value"));
        assert!(err("alphabeta:3ms").contains("unknown built-in player"));
        assert!(err("alphabeta").contains("unknown built-in player"));
        assert!(err("mcts:fast").contains("needs a unit"));
        assert!(err("mcts:12xms").contains("not a whole number"));
        assert!(err("greedy").contains("NoGo has no built-in player \"greedy\""));
        assert!(err("random,c=1").contains("takes no settings"));
    }

    #[test]
    fn connect6_specs() {
        let ok = |s: &str| Builtin::<Connect6>::from_spec("a", s, 1).unwrap().budget();
        assert_eq!(ok("random"), None);
        assert_eq!(ok("greedy"), None);
        assert_eq!(
            ok("engine:250ms"),
            Some(Budget::Time(Duration::from_millis(250)))
        );
        assert_eq!(ok("engine:5000n"), Some(Budget::Iterations(5000)));
        // The screening settings: search shape, tempo under threats, opening variety.
        assert_eq!(
            ok("engine:5000n,pvs=1,lmr=4,mover1=1.3,waiter1=1,mover2=1,waiter2=1.6,variety_plies=5"),
            Some(Budget::Iterations(5000))
        );
        assert_eq!(
            ok("engine:250ms,resume=1"),
            Some(Budget::Time(Duration::from_millis(250)))
        );
        assert_eq!(
            ok("engine:clock,focus=1,focus_plies=12,focus_close=5,focus_deep=1"),
            Some(Budget::Clock(GamePlan::CONNECT6))
        );
        let err = |s: &str| Builtin::<Connect6>::from_spec("a", s, 1).err().unwrap();
        assert!(err("engine:250ms,resumed=1").contains("resume, drop"));
        assert!(err("engine:clock,focused=1").contains("focus, focus_plies, focus_close"));
        assert!(err("mcts:100ms").contains("no MCTS engine"));
        assert!(err("engine:100p").contains("needs a unit"));
        assert!(err("engine:100ms,c=1").contains("unknown Connect6 engine option"));
        assert!(err("greedy,x=1").contains("the greedy player takes no settings"));
        assert!(err("minimax:1ms").contains("unknown built-in player"));
        assert_eq!(ok("engine:clock"), Some(Budget::Clock(GamePlan::CONNECT6)));
        assert_eq!(
            ok("engine:clock,turns=9,minleft=4,fitted=0,book=0"),
            Some(Budget::Clock(GamePlan {
                typical_turns: 9,
                min_turns_left: 4,
                ..GamePlan::CONNECT6
            }))
        );
        assert_eq!(
            ok("engine:clock,open=3,open_weight=1.5,late=8,late_weight=0.6,reserve=0.2,loan_cap=0.4"),
            Some(Budget::Clock(GamePlan {
                opening_turns: 3,
                opening_weight: 1.5,
                late_from: 8,
                late_weight: 0.6,
                reserve: 0.2,
                loan_cap: 0.4,
                ..GamePlan::CONNECT6
            }))
        );
        assert!(err("engine:clock,open_weight=0").contains("from 0.05 to 20"));
        assert!(err("engine:clock,reserve=1").contains("from 0 to 0.9"));
        assert!(err("engine:clock,loan_cap=0").contains("from 0.05 to 0.9"));
        assert!(err("engine:clock,late=1.5").contains("a whole number of turns"));
        assert!(err("engine:clock,turns=0").contains("a whole number of turns"));
        assert!(err("engine:clock,minleft=2.5").contains("a whole number of turns"));
        assert!(err("engine:500ms,turns=9").contains("go with <family>:clock"));
        assert_eq!(
            Builtin::<Gomoku>::from_spec("a", "full:clock", 1)
                .unwrap()
                .budget(),
            Some(Budget::Clock(GamePlan::GOMOKU))
        );
        let nogo = Builtin::<Nogo>::from_spec("a", "mcts:clock", 1)
            .err()
            .unwrap();
        assert!(nogo.contains("no game-clock plan"), "{nogo}");
    }

    #[test]
    fn gomoku_specs() {
        let ok = |s: &str| Builtin::<Gomoku>::from_spec("a", s, 1).unwrap().budget();
        let ms = |n| Some(Budget::Time(Duration::from_millis(n)));
        assert_eq!(ok("random"), None);
        assert_eq!(ok("full:250ms"), ms(250));
        assert_eq!(ok("engine:250ms"), ms(250));
        assert_eq!(ok("classic:40ms"), ms(40));
        assert_eq!(ok("wintable:40ms"), ms(40));
        assert_eq!(ok("full:3000n"), Some(Budget::Iterations(3000)));
        assert_eq!(ok("engine:100ms,level=classic"), ms(100));
        assert_eq!(ok("engine:9n,level=wintable"), Some(Budget::Iterations(9)));
        let err = |s: &str| Builtin::<Gomoku>::from_spec("a", s, 1).err().unwrap();
        assert!(err("engine:100ms,level=strong").contains("unknown Gomoku level \"strong\""));
        assert!(err("full:100ms,level=classic").contains("level= goes with engine"));
        assert!(err("random,level=full").contains("level= goes with engine"));
        assert!(err("classic").contains("needs a budget"));
        assert!(err("full:100p").contains("needs a unit"));
        assert!(err("full:100ms,depth=3").contains("unknown Gomoku engine option"));
        // The full engine's settings, for A/B matches of its time use and width.
        assert_eq!(
            ok("full:100ms,ab_share=0.6,resume=0,deepen=2,width=10,vct_share=0.2"),
            ms(100)
        );
        assert_eq!(
            ok("full:100ms,defend=0,qblock=0,lmr=1,history=0,leaf_vcf=2,attack=2,defence=1,sharp=1,vct_depth=5,doubles=1,variety=0,variety_plies=6"),
            ms(100)
        );
        assert_eq!(
            ok("full:100ms,lmr=2,razor=40,prune=2,futility=60,futility_depth=30,root_pvs=1"),
            ms(100)
        );
        assert!(err("classic:100ms,width=3").contains("classic and wintable levels take no"));
        assert!(err("mcts:100ms").contains("no MCTS engine"));
        assert!(err("greedy").contains("no greedy player"));
        assert!(err("strong:1ms").contains("unknown built-in player"));
        // Other games have no levels.
        assert!(Builtin::<Connect6>::from_spec("a", "classic:5ms", 1)
            .err()
            .unwrap()
            .contains("Connect6 has no built-in player \"classic\""));
    }

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
