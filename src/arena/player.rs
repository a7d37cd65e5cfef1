//! Players as the referee sees them: built-in engines called directly, and external programs
//! spoken to exactly as their platform would speak to them. The Botzone side reuses the bot's
//! own codec (`protocol::botzone`) in the other direction, so there is one copy of the format.
//!
//! A player answers a whole turn: one stone in NoGo and Gomoku, one or two in Connect6 (Black's
//! first turn is one stone, every later turn two). The referee checks every stone.

use super::botzone_player::botzone_player;
use super::gomocup_player::GomocupPlayer;
use super::gtp_player::GtpPlayer;
use super::memory::PeakMemory;
use super::record::EndReason;
use super::referee::TimeControl;
use super::sau_player::{is_sau, SauPlayer, SAU_TOLERANT};
use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::engine::connect6_greedy::Connect6Greedy;
use crate::engine::gomoku::{GomokuConfig, GomokuEngine, HistoryOrder, Reductions};
use crate::engine::gomoku_level::{self, Level};
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::random::RandomPlayer;
use crate::engine::Engine;
use crate::game::connect6::{self, Connect6, Connect6Rules};
use crate::game::gomoku::{self, Gomoku, GomokuRules};
use crate::game::nogo::{self, Nogo, NogoRules};
use crate::game::{Color, Game, Outcome};
use crate::search::clock::{GameClock, GamePlan, Limits, DEFAULT_MARGIN};
use crate::search::mcts::{Selection, BLENDED_EXPLORATION};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rule options of a match or bracket, checked by each game's `ArenaGame::start`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// NoGo class rule: Black's first move may not be the centre.
    pub centre_ban: bool,
    /// Side of the board; `None` for the game's usual size (NoGo 9, Connect6 19 as on SAU,
    /// Gomoku 15).
    pub size: Option<usize>,
    /// Gomoku: only exactly five in a row wins (Gomocup's `INFO rule 1`); six or more does not.
    pub exact_five: bool,
}

/// The Botzone protocol names; which of them a game speaks is `ArenaGame::check_protocol`'s say.
pub const BOTZONE_PROTOCOLS: [&str; 4] = [
    "botzone",
    "botzone-keep-running",
    "botzone-simple",
    "botzone-simple-keep-running",
];

/// What the arena needs of a game on top of its rules.
pub trait ArenaGame: Game {
    const NAME: &'static str;
    /// The built-in players this game offers, for error messages.
    const BUILTIN_HELP: &'static str;
    /// Suffixes of `<family>:<N><unit>` specs that cap the search's iterations (NoGo: playouts,
    /// Connect6: nodes). `ms` (time per turn) is always accepted.
    const ITERATION_UNITS: &'static [&'static str];
    /// How the game's own engine spreads a whole-game clock (`<family>:clock`), if it has one.
    const GAME_PLAN: Option<GamePlan> = None;

    /// The empty board under the given options, or why the options do not fit this game.
    fn start(options: &GameOptions) -> Result<Self, String>;
    fn board_size(&self) -> usize;
    /// (column from the left, row from the top), for records, pictures and coordinates.
    fn xy(&self, m: Self::Move) -> (usize, usize);
    fn point_at(&self, x: usize, y: usize) -> Option<Self::Move>;
    /// Whether a turn has begun but not ended (a Connect6 pair after its first stone): openings
    /// must stop between turns, since no platform can hand a bot half a turn.
    fn mid_turn(&self) -> bool {
        false
    }
    /// Stones the side to move places this turn, for messages.
    fn stones_due(&self) -> usize {
        1
    }
    /// Whether an external program may be spoken to in `protocol` for this game (and board).
    fn check_protocol(&self, protocol: &str) -> Result<(), String>;
    /// The player that speaks `protocol` to the program `command` (a protocol `check_protocol`
    /// accepted). Each game names its own drivers, so a protocol's codec is needed only by the
    /// games that are played over it.
    /// `init`: lines sent once the program has started (SAU and GTP engines), or with the limits
    /// before its first move of a game (Gomocup brains); empty otherwise.
    fn external_player(
        name: &str,
        command: &str,
        protocol: &str,
        init: &[String],
    ) -> Result<Box<dyn Player<Self>>, String>;
    /// A built-in engine by family (`mcts`, `engine`, `greedy`), with `options` (`key=value`
    /// settings from the spec) applied; an unknown family or key is an error.
    fn builtin_engine(
        family: &str,
        seed: u64,
        options: &[(String, f64)],
    ) -> Result<Box<dyn Engine<Self>>, String>;
    /// Why the rules ended the game in `self` (a finished position).
    fn end_text(&self) -> String;
}

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
    ) -> Result<Box<dyn Engine<Nogo>>, String> {
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
                        "drop" => config.unsettled_drop = v as i32,
                        "depth" => config.max_depth = v as u8,
                        "variety" => config.variety = v as i32,
                        "variety_plies" => config.variety_plies = v as usize,
                        "book" => config.book = v != 0.0,
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
                                 pvs, lmr, near, near_wide, near_pairs, vcdt, safety, research, singles, single_depth, share, ab_share, deepen, stretch, \
                                 resume, drop, depth, variety, variety_plies, book, w2, w3, w4, w5, tempo, mover1, waiter1, mover2, \
                                 waiter2, own, theirs, fitted)"
                            ))
                        }
                    }
                }
                Ok(Box::new(Connect6Engine::new(config)))
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
    ) -> Result<Box<dyn Engine<Gomoku>>, String> {
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
        Ok(gomoku_level::build(level, seed))
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

/// What a player is told on its turn.
pub struct Turn<'a, G: Game> {
    /// The position the game started from (empty board, with the game's rules).
    pub start: &'a G,
    pub pos: &'a G,
    /// Every turn so far, Black's first, the colours alternating; each holds that side's stones
    /// (openings included, grouped into turns).
    pub turns: &'a [Vec<G::Move>],
    /// The most this turn may take (per-move limit and game clock together).
    pub budget: Duration,
    /// The match's clocks, for protocols that tell a program its limits (Gomocup's `INFO`).
    pub clock: TimeControl,
    /// The time this side has used so far in the game.
    pub used: Duration,
}

/// A player's answer: the stones of its turn or why it failed, and the time measured around the
/// exchange.
pub type Answer<M> = (Result<Vec<M>, EndReason>, Duration);

/// How a game ended, as a player is told.
pub struct GameEnd<'a, G: Game> {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: &'a EndReason,
    /// The turn that ended the game by the rules (six in a row, full board, no move left for
    /// the next side), by whom, with its stones as answered; `None` when a fault ended it.
    pub last_turn: Option<(Color, &'a [G::Move])>,
    /// The final position.
    pub pos: &'a G,
}

pub trait Player<G: ArenaGame>: Send {
    fn name(&self) -> &str;
    /// A new game begins from `start` and this player has `color`.
    fn new_game(&mut self, color: Color, start: &G) -> Result<(), EndReason>;
    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move>;
    /// The game is over: tell the program if its protocol does, release per-game processes.
    fn end_game(&mut self, _end: &GameEnd<'_, G>) {}
    /// Whether one player (and its process) serves several games in a row, as the SAU platform
    /// reuses a loaded engine; other players are built afresh for every game.
    fn reusable(&self) -> bool {
        false
    }
    /// Reports the peak resident set of every process this player starts from now on to
    /// `memory` (external programs only: a built-in player has no process of its own).
    fn measure_memory(&mut self, _memory: Arc<PeakMemory>) {}
}

/// How a built-in engine spends its turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Think this long a turn (less if the clock is shorter).
    Time(Duration),
    /// Stop each search after this many iterations: playouts (NoGo) or nodes (Connect6),
    /// and earlier if the clock says so.
    Iterations(u64),
    /// Spread the game clock (`--tc`) over the turns as the bot does on SAU and Gomocup, by
    /// the game's plan.
    Clock(GamePlan),
}

/// A player inside this process: the random player, a baseline or the project's engine.
pub struct Builtin<G: ArenaGame> {
    name: String,
    engine: Box<dyn Engine<G>>,
    budget: Option<Budget>,
    /// The game as this player has followed it, to let the engine keep its tree.
    seen: G,
    /// Stones of the game already shown to the engine.
    seen_stones: usize,
}

/// Families some game knows: a game that lacks one says so itself (NoGo has no `greedy`), where
/// any other name is simply unknown.
const KNOWN_FAMILIES: [&str; 6] = ["mcts", "engine", "greedy", "full", "classic", "wintable"];

/// `key=value` engine settings from a built-in player's spec.
type Settings = Vec<(String, f64)>;

/// Splits `spec` into its head, the `level=NAME` setting if there is one (a name, not a
/// number: Gomoku's levels), and the numeric `key=value` settings.
fn spec_options(spec: &str) -> Result<(&str, Option<&str>, Settings), String> {
    let mut parts = spec.split(',');
    let head = parts.next().unwrap_or("");
    let mut level = None;
    let options = parts
        .filter(|kv| match kv.strip_prefix("level=") {
            Some(name) => {
                level = Some(name);
                false
            }
            None => true,
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
    Ok((head, level, options))
}

/// Settings of a `clock` budget's plan, to compare plans under one clock: `turns` (our turns in
/// a typical game), `minleft` (the fewest turns ever expected still to come), `open` and
/// `open_weight` (how many first turns weigh how much), `late` and `late_weight` (from which
/// turn the end weighs how much), `reserve` (the share of the clock kept back).
const PLAN_KEYS: [&str; 7] = [
    "turns",
    "minleft",
    "open",
    "open_weight",
    "late",
    "late_weight",
    "reserve",
];

/// `plan` with the plan settings of `spec` (the `PLAN_KEYS`) applied.
fn with_plan_options(
    mut plan: GamePlan,
    options: &Settings,
    spec: &str,
) -> Result<GamePlan, String> {
    for (key, value) in options {
        let key = key.as_str();
        if let "open_weight" | "late_weight" | "reserve" = key {
            let range = if key == "reserve" {
                0.0..=0.9
            } else {
                0.05..=20.0
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
        let (head, level, options) = spec_options(spec)?;
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
                if !options.is_empty() {
                    return Err(format!("the random player takes no settings: {spec:?}"));
                }
                (Box::new(RandomPlayer::new(seed)), None)
            }
            None if head == "greedy" => (G::builtin_engine(head, seed, &options)?, None),
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
                let engine = G::builtin_engine(family, seed, &options).map_err(|e| {
                    if KNOWN_FAMILIES.contains(&family) {
                        e
                    } else {
                        bad()
                    }
                })?;
                (engine, Some(budget))
            }
        };
        // Any board will do here: `play` starts from the referee's position.
        let seen = G::start(&GameOptions::default())?;
        Ok(Builtin {
            name: name.to_string(),
            engine,
            budget,
            seen,
            seen_stones: 0,
        })
    }

    #[cfg(test)]
    fn budget(&self) -> Option<Budget> {
        self.budget
    }
}

impl<G: ArenaGame> Player<G> for Builtin<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _color: Color, start: &G) -> Result<(), EndReason> {
        self.engine.new_game();
        self.seen = start.clone();
        self.seen_stones = 0;
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move> {
        let start = Instant::now();
        if self.seen_stones == 0 {
            self.seen = turn.start.clone();
        }
        let history: Vec<G::Move> = turn.turns.iter().flatten().copied().collect();
        for &m in &history[self.seen_stones.min(history.len())..] {
            self.engine.observe(&self.seen, m);
            self.seen.play(m);
        }
        self.seen_stones = history.len();
        // One deadline for the whole turn. Keep a little of the budget for ourselves: the
        // referee's clock is strict.
        let hard = start + turn.budget.mul_f64(0.9);
        let limits = match self.budget {
            None => Limits::default(),
            Some(Budget::Time(d)) => Limits::until((start + d).min(hard)),
            Some(Budget::Iterations(n)) => Limits::until(hard).with_iterations(Some(n)),
            Some(Budget::Clock(plan)) => match turn.clock.per_game {
                Some(total) => {
                    let planned = GameClock {
                        total,
                        used: turn.used,
                        // Kept back as the bot does by default.
                        margin: DEFAULT_MARGIN,
                        plan,
                    }
                    // Our turns so far: the turns before this one alternate, ours every other.
                    .turn_budget((turn.turns.len() / 2) as u32, start);
                    Limits::until(planned.stop_at().min(hard))
                        .stretchable(planned.stretch_at().map(|t| t.min(hard)))
                }
                // Without a game clock the per-turn limit is all there is.
                None => Limits::until(hard),
            },
        };
        let me = self.seen.side_to_move();
        let mut stones = Vec::new();
        // The turn lasts while the same side is to move and the game goes on.
        while self.seen.outcome().is_none() && self.seen.side_to_move() == me {
            let Some(m) = self.engine.think(&self.seen, limits).mv else {
                break;
            };
            if self.seen.check_move(m).is_err() {
                // Let the referee judge it.
                stones.push(m);
                break;
            }
            self.engine.observe(&self.seen, m);
            self.seen.play(m);
            self.seen_stones += 1;
            stones.push(m);
        }
        let result = if stones.is_empty() {
            Err(EndReason::Rules("offered no move".to_string()))
        } else {
            Ok(stones)
        };
        (result, start.elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let err = |s: &str| Builtin::<Connect6>::from_spec("a", s, 1).err().unwrap();
        assert!(err("engine:250ms,resumed=1").contains("resume, drop"));
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
            ok("engine:clock,open=3,open_weight=1.5,late=8,late_weight=0.6,reserve=0.2"),
            Some(Budget::Clock(GamePlan {
                opening_turns: 3,
                opening_weight: 1.5,
                late_from: 8,
                late_weight: 0.6,
                reserve: 0.2,
                ..GamePlan::CONNECT6
            }))
        );
        assert!(err("engine:clock,open_weight=0").contains("from 0.05 to 20"));
        assert!(err("engine:clock,reserve=1").contains("from 0 to 0.9"));
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
