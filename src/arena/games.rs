//! Each game as the arena plays it (`ArenaGame`): its rule options and board, the protocols an
//! external program may speak for it and the player that speaks each, and its built-in engines
//! with their `key=value` settings.

use super::player::{ArenaGame, GameOptions, Player};
use super::players::botzone::{botzone_player, BOTZONE_PROTOCOLS};
use super::players::gomocup::GomocupPlayer;
use super::players::gtp::GtpPlayer;
use super::players::sau::{is_sau, SauPlayer, SAU_TOLERANT};
use crate::engine::connect6::greedy::Connect6Greedy;
use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::engine::gomoku::level::{self, Level};
use crate::engine::gomoku::{GomokuConfig, GomokuEngine, HistoryOrder, Reductions};
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::Engine;
use crate::game::connect6::{self, Connect6, Connect6Rules};
use crate::game::gomoku::{self, Gomoku, GomokuRules};
use crate::game::nogo::{self, Nogo, NogoRules};
use crate::game::{Game, Outcome};
use crate::search::clock::GamePlan;
use crate::search::mcts::{Selection, BLENDED_EXPLORATION};

impl ArenaGame for Nogo {
    const NAME: &'static str = "nogo";
    const BUILTIN_HELP: &'static str =
        "random, mcts:<N>ms or mcts:<N>p (engine: is the same) [,key=value...]";
    const ITERATION_UNITS: &'static [&'static str] = &["p", "n"];

    fn start(options: &GameOptions) -> Result<Nogo, String> {
        if options.exact_five {
            return Err("exact five is a Gomoku rule; NoGo has none".to_string());
        }
        match options.size {
            None | Some(nogo::SIZE) => Ok(Nogo::new(NogoRules {
                centre_ban: options.centre_ban,
            })),
            Some(n) => Err(format!(
                "NoGo is played on {0}x{0} only, not {n}x{n}",
                nogo::SIZE
            )),
        }
    }

    fn board_size(&self) -> usize {
        nogo::SIZE
    }

    fn xy(&self, m: nogo::Point) -> (usize, usize) {
        nogo::coords(m)
    }

    fn point_at(&self, x: usize, y: usize) -> Option<nogo::Point> {
        (x < nogo::SIZE && y < nogo::SIZE).then(|| nogo::point(x, y))
    }

    fn check_protocol(&self, protocol: &str) -> Result<(), String> {
        if BOTZONE_PROTOCOLS.contains(&protocol) || protocol == "gtp" {
            Ok(())
        } else {
            Err(format!(
                "NoGo is played over Botzone's protocols ({}) or gtp, not {protocol:?}",
                BOTZONE_PROTOCOLS.join(", ")
            ))
        }
    }

    fn external_player(
        name: &str,
        command: &str,
        protocol: &str,
        init: &[String],
    ) -> Result<Box<dyn Player<Nogo>>, String> {
        if protocol == "gtp" {
            return Ok(Box::new(GtpPlayer::new(name, command, init)));
        }
        botzone_player(name, command, protocol)
    }

    fn builtin_engine(
        family: &str,
        seed: u64,
        options: &[(String, f64)],
        net: Option<&str>,
    ) -> Result<Box<dyn Engine<Nogo>>, String> {
        only_connect6_takes_a_network(net)?;
        if family != "mcts" && family != "engine" {
            return Err(format!(
                "NoGo has no built-in player {family:?}: use {}",
                Self::BUILTIN_HELP
            ));
        }
        let mut config = NogoConfig {
            seed,
            ..NogoConfig::default()
        };
        let p = &mut config.mcts;
        // `blended=1` switches to the older selection score with its own tuned exploration,
        // whatever the order of the options, so a `c` given with it still applies.
        if options.iter().any(|(k, v)| k == "blended" && *v != 0.0) {
            p.selection = Selection::Blended;
            p.exploration = BLENDED_EXPLORATION;
        }
        for (key, value) in options {
            match key.as_str() {
                "c" => p.exploration = *value as f32,
                "k" => p.rave_equivalence = *value as f32,
                "prior" => p.rave_prior = *value as f32,
                "weak" => p.weak_prior = *value as f32,
                "expand" => p.expand_after = *value as u32,
                "nodes" => p.max_nodes = *value as usize,
                "know" => p.knowledge_after = *value as u32,
                "kw" => p.knowledge_weight = *value as f32,
                "solve" => config.solve_nodes = *value as u64,
                "solve_empty" => config.solve_empty = *value as u32,
                "blended" => {}
                _ => {
                    return Err(format!(
                        "unknown NoGo engine option {key:?} (c, k, prior, weak, expand, nodes, \
                         know, kw, solve, solve_empty, blended)"
                    ))
                }
            }
        }
        Ok(Box::new(NogoEngine::new(config)))
    }

    fn end_text(&self) -> String {
        format!("{} has no legal move", self.side_to_move().name())
    }
}

impl ArenaGame for Connect6 {
    const NAME: &'static str = "connect6";
    const BUILTIN_HELP: &'static str = "random, greedy, engine:<N>ms or engine:<N>n";
    const ITERATION_UNITS: &'static [&'static str] = &["n"];
    const GAME_PLAN: Option<GamePlan> = Some(GamePlan::CONNECT6);

    fn start(options: &GameOptions) -> Result<Connect6, String> {
        if options.centre_ban {
            return Err("the centre ban is a NoGo rule; Connect6 has none".to_string());
        }
        if options.exact_five {
            return Err("exact five is a Gomoku rule; Connect6 has none".to_string());
        }
        let size = options.size.unwrap_or(Connect6Rules::SAU.size);
        let rules = Connect6Rules::with_size(size).ok_or_else(|| {
            format!(
                "Connect6 boards are {}x{} to {}x{}, not {size}x{size}",
                connect6::MIN_SIZE,
                connect6::MIN_SIZE,
                connect6::MAX_SIZE,
                connect6::MAX_SIZE
            )
        })?;
        Ok(Connect6::new(rules))
    }

    fn board_size(&self) -> usize {
        self.size()
    }

    fn xy(&self, m: connect6::Stone) -> (usize, usize) {
        self.coords(m)
    }

    fn point_at(&self, x: usize, y: usize) -> Option<connect6::Stone> {
        (x < self.size() && y < self.size()).then(|| self.point(x, y))
    }

    fn mid_turn(&self) -> bool {
        self.ply() > 0 && self.stones_left_in_turn() == 1
    }

    fn stones_due(&self) -> usize {
        self.stones_left_in_turn() as usize
    }

    fn check_protocol(&self, protocol: &str) -> Result<(), String> {
        let botzone = Connect6Rules::BOTZONE.size;
        if is_sau(protocol) {
            // SAU's letters run from 'A'; past 'Z' a coordinate would not be a letter.
            if self.size() <= 26 {
                Ok(())
            } else {
                Err(format!(
                    "SAU coordinates cannot name a {0}x{0} board",
                    self.size()
                ))
            }
        } else if BOTZONE_PROTOCOLS.contains(&protocol) {
            if self.size() == botzone {
                Ok(())
            } else {
                Err(format!(
                    "Botzone's ConnectSix is {botzone}x{botzone}: play it with --size {botzone} \
                     (this match is {0}x{0})",
                    self.size()
                ))
            }
        } else {
            Err(format!(
                "Connect6 is played over sau or Botzone's protocols ({}), not {protocol:?}",
                BOTZONE_PROTOCOLS.join(", ")
            ))
        }
    }

    fn external_player(
        name: &str,
        command: &str,
        protocol: &str,
        init: &[String],
    ) -> Result<Box<dyn Player<Connect6>>, String> {
        if is_sau(protocol) {
            let player = SauPlayer::new(name, command).with_init(init);
            Ok(Box::new(if protocol == SAU_TOLERANT {
                player.tolerant()
            } else {
                player
            }))
        } else {
            botzone_player(name, command, protocol)
        }
    }

    fn builtin_engine(
        family: &str,
        seed: u64,
        options: &[(String, f64)],
        net: Option<&str>,
    ) -> Result<Box<dyn Engine<Connect6>>, String> {
        match family {
            "engine" => {
                let mut config = Connect6Config {
                    seed,
                    ..Default::default()
                };
                for (key, value) in options {
                    let v = *value;
                    match key.as_str() {
                        "wide" => config.width.wide = v as usize,
                        "wide2" => config.width.wide2 = v as usize,
                        "pairs" => config.width.pairs = v as usize,
                        "leaf" => config.width.leaf_threats = v != 0.0,
                        "pvs" => config.width.pvs = v != 0.0,
                        "lmr" => config.width.lmr = v as usize,
                        "near" => config.width.near_plies = v as i32,
                        "near_wide" => config.width.near_wide = v as usize,
                        "near_pairs" => config.width.near_pairs = v as usize,
                        "vcdt" => config.vcdt_depth = v as u8,
                        "safety" => config.safety_depth = v as u8,
                        "research" => config.safety_research = v != 0.0,
                        "singles" => config.singles = v as u8,
                        "single_depth" => config.single_depth = v as u8,
                        "share" => config.vcdt_share = v,
                        "ab_share" => config.ab_share = v,
                        "deepen" => config.deepen_ratio = v,
                        "stretch" => config.stretch = v != 0.0,
                        "resume" => config.resume = v != 0.0,
                        "focus" => config.focus = v != 0.0,
                        "focus_plies" => config.focus_plies = v as usize,
                        "focus_close" => config.focus_close = v as i32,
                        "focus_deep" => config.focus_deep = v != 0.0,
                        "exit" => config.exit_turns = v as u8,
                        "drop" => config.unsettled_drop = v as i32,
                        "depth" => config.max_depth = v as u8,
                        "variety" => config.variety = v as i32,
                        "variety_plies" => config.variety_plies = v as usize,
                        "book" => config.book = v != 0.0,
                        "prepared" => config.prepared = v != 0.0,
                        "net_orders" => config.net_orders = v != 0.0,
                        "w2" => config.weights.window[2] = v as i32,
                        "w3" => config.weights.window[3] = v as i32,
                        "w4" => config.weights.window[4] = v as i32,
                        "w5" => config.weights.window[5] = v as i32,
                        "tempo" => config.weights.tempo = v as f32,
                        "mover1" => config.weights.forced[0].0 = v as f32,
                        "waiter1" => config.weights.forced[0].1 = v as f32,
                        "mover2" => config.weights.forced[1].0 = v as f32,
                        "waiter2" => config.weights.forced[1].1 = v as f32,
                        "own" => config.weights.own = v as i32,
                        "theirs" => config.weights.theirs = v as i32,
                        "fitted" => {
                            config.weights.fitted =
                                (v != 0.0).then_some(&crate::engine::connect6::FITTED)
                        }
                        _ => {
                            return Err(format!(
                                "unknown Connect6 engine option {key:?} (wide, wide2, pairs, leaf, \
                                 pvs, lmr, near, near_wide, near_pairs, vcdt, safety, research, singles, single_depth, share, ab_share, deepen, stretch, focus, \
                                 focus_plies, focus_close, focus_deep, exit, resume, drop, depth, variety, variety_plies, book, prepared, net_orders, w2, w3, w4, w5, tempo, mover1, waiter1, mover2, \
                                 waiter2, own, theirs, fitted)"
                            ))
                        }
                    }
                }
                if let Some(path) = net {
                    let network =
                        crate::engine::connect6::network::model::Network::from_file(path.as_ref())?;
                    config.net = Some(std::sync::Arc::new(network));
                }
                Ok(Box::new(Connect6Engine::new(config)))
            }
            "greedy" if net.is_some() => {
                Err("the greedy player takes no network: net= goes with engine:".to_string())
            }
            "greedy" if options.is_empty() => Ok(Box::new(Connect6Greedy::new(seed))),
            "greedy" => Err(format!(
                "unknown Connect6 greedy option {:?} (the greedy player takes no settings)",
                options[0].0
            )),
            "mcts" => {
                Err("Connect6 has no MCTS engine: use engine:<N>ms or engine:<N>n".to_string())
            }
            _ => Err(format!(
                "Connect6 has no built-in player {family:?}: use {}",
                Self::BUILTIN_HELP
            )),
        }
    }

    fn end_text(&self) -> String {
        match self.winner() {
            Some(c) => format!("{} made six in a row", c.name()),
            None => "full board: a draw".to_string(),
        }
    }
}

impl ArenaGame for Gomoku {
    const NAME: &'static str = "gomoku";
    const BUILTIN_HELP: &'static str = "random, full:<N>ms or full:<N>n (engine: is the same), \
         classic:<N>ms, wintable:<N>ms (or engine:<N>ms,level=full|classic|wintable)";
    const ITERATION_UNITS: &'static [&'static str] = &["n"];
    const GAME_PLAN: Option<GamePlan> = Some(GamePlan::GOMOKU);

    fn start(options: &GameOptions) -> Result<Gomoku, String> {
        if options.centre_ban {
            return Err("the centre ban is a NoGo rule; Gomoku has none".to_string());
        }
        let size = options.size.unwrap_or(gomoku::DEFAULT_SIZE);
        let rules = GomokuRules::new(size, options.exact_five).map_err(|_| {
            format!(
                "Gomoku boards are {0}x{0} to {1}x{1}, not {size}x{size}",
                gomoku::MIN_SIZE,
                gomoku::MAX_SIZE
            )
        })?;
        Ok(Gomoku::new(rules))
    }

    fn board_size(&self) -> usize {
        self.size()
    }

    fn xy(&self, m: gomoku::Point) -> (usize, usize) {
        self.coords(m)
    }

    fn point_at(&self, x: usize, y: usize) -> Option<gomoku::Point> {
        self.try_point(x, y)
    }

    fn check_protocol(&self, protocol: &str) -> Result<(), String> {
        // Botzone's Gomoku is 15x15 and has no simple interaction.
        let botzone = crate::game::gomoku::DEFAULT_SIZE;
        match protocol {
            "gomocup" => Ok(()),
            "botzone" | "botzone-keep-running" if self.size() == botzone => Ok(()),
            "botzone" | "botzone-keep-running" => Err(format!(
                "Botzone's Gomoku is {botzone}x{botzone}: play it with --size {botzone} \
                 (this match is {0}x{0})",
                self.size()
            )),
            p if BOTZONE_PROTOCOLS.contains(&p) => Err(format!(
                "Botzone's Gomoku has no simple interaction: use botzone or \
                 botzone-keep-running, not {p:?}"
            )),
            _ => Err(format!(
                "Gomoku is played over gomocup, botzone or botzone-keep-running, not {protocol:?}"
            )),
        }
    }

    fn external_player(
        name: &str,
        command: &str,
        protocol: &str,
        init: &[String],
    ) -> Result<Box<dyn Player<Gomoku>>, String> {
        match protocol {
            "gomocup" => Ok(Box::new(GomocupPlayer::new(name, command).with_init(init))),
            _ => botzone_player(name, command, protocol),
        }
    }

    fn builtin_engine(
        family: &str,
        seed: u64,
        options: &[(String, f64)],
        net: Option<&str>,
    ) -> Result<Box<dyn Engine<Gomoku>>, String> {
        only_connect6_takes_a_network(net)?;
        let level =
            match family {
                "engine" => Level::Full,
                "full" | "classic" | "wintable" => Level::parse(family)?,
                "mcts" => return Err(
                    "Gomoku has no MCTS engine: use full:<N>ms, classic:<N>ms or wintable:<N>ms"
                        .to_string(),
                ),
                "greedy" => {
                    return Err(
                        "Gomoku has no greedy player: classic:<N>ms (the scoring rules) is its \
                     baseline"
                            .to_string(),
                    )
                }
                _ => {
                    return Err(format!(
                        "Gomoku has no built-in player {family:?}: use {}",
                        Self::BUILTIN_HELP
                    ))
                }
            };
        if level == Level::Full && !options.is_empty() {
            let mut config = GomokuConfig {
                seed,
                ..GomokuConfig::default()
            };
            for (key, value) in options {
                let v = *value;
                match key.as_str() {
                    "width" => config.width = v as usize,
                    "root_width" => config.root_width = v as usize,
                    "vct_share" => config.vct_share = v,
                    "ab_share" => config.ab_share = v,
                    "resume" => config.resume_share = v,
                    "deepen" => config.deepen_ratio = v,
                    "defend" => config.defend_threes = v != 0.0,
                    "lmr" => {
                        config.reductions = match v as u8 {
                            0 => Reductions::Off,
                            1 => Reductions::Fixed,
                            _ => Reductions::Logarithmic,
                        }
                    }
                    "razor" => config.razor_margin = v as i32,
                    "history" => {
                        config.history = match v as u8 {
                            0 => HistoryOrder::Off,
                            1 => HistoryOrder::First,
                            _ => HistoryOrder::Lift(0.5),
                        }
                    }
                    "hlift" => config.history = HistoryOrder::Lift(v as f32),
                    "prune_sharp" => config.prune_sharp = v != 0.0,
                    "qblock" => config.extend_blocks = v != 0.0,
                    "leaf_vcf" => config.leaf_vcf = v as u32,
                    "attack" => config.order.attack = v as i32,
                    "defence" => config.order.defence = v as i32,
                    "sharp" => config.order.sharp = v != 0.0,
                    "policy" => config.order.learned = v != 0.0,
                    "vct_depth" => config.vct_depth = v as u32,
                    "doubles" => config.defend_doubles = v as u8,
                    "builders" => config.builders = v as usize,
                    "futility" => config.futility_margin = v as i32,
                    "futility_depth" => config.futility_depth = v as i32,
                    "prune" => config.prune_counts = v as u8,
                    "se" => config.singular_depth = v as i32,
                    "se_margin" => config.singular_margin = v as i32,
                    "root_pvs" => config.root_pvs = v != 0.0,
                    "asp" => config.aspiration = v as i32,
                    "fh" => config.fail_high_margin = v as i32,
                    "qvcf" => config.quiet_fours = v as u32,
                    "variety" => config.variety = v as i32,
                    "variety_plies" => config.variety_plies = v as usize,
                    "qtt" => config.q_table = v != 0.0,
                    _ => {
                        return Err(format!(
                            "unknown Gomoku engine option {key:?} (width, root_width, vct_share, ab_share, \
                             resume, deepen, defend, lmr, history, hlift, qblock, leaf_vcf, attack, defence, sharp, policy, vct_depth, doubles, builders, futility, \
                             futility_depth, prune, prune_sharp, se, se_margin, root_pvs, asp, fh, qvcf, razor, variety, variety_plies, \
                             qtt)"
                        ))
                    }
                }
            }
            return Ok(Box::new(GomokuEngine::new(config)));
        }
        if let Some((key, _)) = options.first() {
            return Err(format!(
                "unknown Gomoku engine option {key:?}: the classic and wintable levels take no \
                 settings"
            ));
        }
        Ok(level::build(level, seed))
    }

    fn end_text(&self) -> String {
        match self.outcome() {
            Some(Outcome::Win(c)) if self.rules().exact_five => {
                format!("{} made exactly five in a row", c.name())
            }
            Some(Outcome::Win(c)) => format!("{} made five in a row", c.name()),
            _ => "full board: a draw".to_string(),
        }
    }
}

/// `net=FILE` names a Connect6 value network; the other games' engines refuse it.
fn only_connect6_takes_a_network(net: Option<&str>) -> Result<(), String> {
    match net {
        Some(_) => Err("net= is a Connect6 engine setting (a value network file)".to_string()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_options_are_checked_per_game() {
        let c6 = |size| {
            Connect6::start(&GameOptions {
                size,
                ..GameOptions::default()
            })
        };
        assert_eq!(c6(None).unwrap().board_size(), 19);
        assert_eq!(c6(Some(15)).unwrap().board_size(), 15);
        assert!(c6(Some(5)).err().unwrap().contains("not 5x5"));
        let ban = GameOptions {
            centre_ban: true,
            ..GameOptions::default()
        };
        assert!(Connect6::start(&ban).is_err());
        assert!(Nogo::start(&ban).is_ok());
        assert!(Nogo::start(&GameOptions {
            size: Some(13),
            ..GameOptions::default()
        })
        .is_err());
        let c19 = c6(None).unwrap();
        assert!(c19.check_protocol("sau").is_ok());
        assert!(c19
            .check_protocol("botzone")
            .unwrap_err()
            .contains("--size 15"));
        assert!(c6(Some(15)).unwrap().check_protocol("botzone").is_ok());
        assert!(Nogo::start(&GameOptions::default())
            .unwrap()
            .check_protocol("sau")
            .is_err());
    }

    #[test]
    fn gomoku_options_and_protocols() {
        let g = |size, exact_five| {
            Gomoku::start(&GameOptions {
                size,
                exact_five,
                ..GameOptions::default()
            })
        };
        let plain = g(None, false).unwrap();
        assert_eq!(plain.board_size(), 15);
        assert!(!plain.rules().exact_five);
        assert!(g(Some(20), true).unwrap().rules().exact_five);
        assert_eq!(g(Some(11), false).unwrap().board_size(), 11);
        assert!(g(Some(10), false).err().unwrap().contains("not 10x10"));
        assert!(g(Some(21), false).err().unwrap().contains("11x11 to 20x20"));
        assert!(Gomoku::start(&GameOptions {
            centre_ban: true,
            ..GameOptions::default()
        })
        .is_err());
        let five = GameOptions {
            exact_five: true,
            ..GameOptions::default()
        };
        assert!(Nogo::start(&five).is_err());
        assert!(Connect6::start(&five).is_err());
        assert!(plain.check_protocol("gomocup").is_ok());
        // Botzone's Gomoku: 15x15, JSON and keep-running only.
        assert!(plain.check_protocol("botzone").is_ok());
        assert!(plain.check_protocol("botzone-keep-running").is_ok());
        assert!(plain
            .check_protocol("botzone-simple")
            .unwrap_err()
            .contains("no simple interaction"));
        assert!(g(Some(19), false)
            .unwrap()
            .check_protocol("botzone")
            .unwrap_err()
            .contains("--size 15"));
        assert!(plain.check_protocol("sau").is_err());
        let c6 = Connect6::start(&GameOptions::default()).unwrap();
        assert!(c6.check_protocol("gomocup").is_err());
        // The end texts.
        let mut pos = plain.clone();
        for x in 0..5 {
            pos.play(pos.point(x, 0));
            if x < 4 {
                pos.play(pos.point(x, 1));
            }
        }
        assert_eq!(pos.end_text(), "black made five in a row");
    }
}
