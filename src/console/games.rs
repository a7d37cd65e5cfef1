//! What the console needs to know of each game, behind one small trait: the board's settings
//! (`Setup`), how a point of the rules maps to `(x, y)`, how a game is won, and which computer
//! player to build. The rules modules know nothing of the console; everything console-specific
//! about a game is here.

use crate::engine::connect6::{Connect6Config, Connect6Engine};
use crate::engine::gomoku::classic::GomokuClassic;
use crate::engine::gomoku::level::Level;
use crate::engine::gomoku::wintable::GomokuWintable;
use crate::engine::gomoku::{GomokuConfig, GomokuEngine};
use crate::engine::nogo::network::builtin;
use crate::engine::nogo::options::NetOptions;
use crate::engine::nogo::{NogoConfig, NogoEngine};
use crate::engine::Engine;
use crate::game::connect6::{self, Connect6, Connect6Rules};
use crate::game::gomoku::{self, Gomoku, GomokuRules};
use crate::game::nogo::{self, Nogo, NogoRules};
use crate::game::{Color, Game};
use crate::protocol::GameKind;
use crate::search::clock::Limits;
use std::time::{Duration, Instant};

/// A game's settings: which game, the board, the rule options, and the computer's level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub kind: GameKind,
    pub size: usize,
    /// NoGo: Black's first move may not be the centre (the class rule of seed 001).
    pub centre_ban: bool,
    /// Gomoku: only exactly five in a row wins.
    pub exact_five: bool,
    /// Gomoku: the computer player (the other games have one player each).
    pub level: Level,
}

impl Setup {
    /// Checks the options against the game: a size the game has, and rule options and a level
    /// only where they mean something. The error says what to do instead.
    pub fn new(
        kind: GameKind,
        size: Option<usize>,
        centre_ban: bool,
        exact_five: bool,
        level: Option<Level>,
    ) -> Result<Setup, String> {
        let size = match (kind, size) {
            (GameKind::Nogo, None | Some(nogo::SIZE)) => nogo::SIZE,
            (GameKind::Nogo, Some(n)) => {
                return Err(format!("NoGo is played on 9x9 only, not {n}x{n}"))
            }
            (GameKind::Gomoku, None) => gomoku::DEFAULT_SIZE,
            (GameKind::Gomoku, Some(n)) => {
                GomokuRules::new(n, false)?;
                n
            }
            (GameKind::Connect6, None) => Connect6Rules::SAU.size,
            (GameKind::Connect6, Some(n)) => {
                if Connect6Rules::with_size(n).is_none() {
                    return Err(format!(
                        "unsupported Connect6 board size {n}: the size must be from {} to {} \
                         (19 on SAU, 15 on Botzone)",
                        connect6::MIN_SIZE,
                        connect6::MAX_SIZE
                    ));
                }
                n
            }
        };
        if centre_ban && kind != GameKind::Nogo {
            return Err("--centre-ban is a NoGo rule".to_string());
        }
        if exact_five && kind != GameKind::Gomoku {
            return Err("--exact-five is a Gomoku rule".to_string());
        }
        if level.is_some() && kind != GameKind::Gomoku {
            return Err(format!(
                "--level is for Gomoku only (wintable, classic or full); {} has one computer \
                 player, whose strength --time sets",
                title(kind)
            ));
        }
        Ok(Setup {
            kind,
            size,
            centre_ban,
            exact_five,
            level: level.unwrap_or_default(),
        })
    }

    /// The rules word of the save file.
    pub fn rules_word(&self) -> &'static str {
        match self.kind {
            GameKind::Nogo if self.centre_ban => "centre-ban",
            GameKind::Gomoku if self.exact_five => "exact-five",
            GameKind::Gomoku => "freestyle",
            _ => "standard",
        }
    }

    /// Sets the rule options from a save file's rules word.
    pub fn with_rules_word(mut self, word: &str) -> Result<Setup, String> {
        let words: &[&str] = match self.kind {
            GameKind::Nogo => &["standard", "centre-ban"],
            GameKind::Gomoku => &["freestyle", "exact-five"],
            GameKind::Connect6 => &["standard"],
        };
        if !words.contains(&word) {
            return Err(format!(
                "unknown rules '{word}' for {}: {}",
                self.kind.name(),
                words.join(" or ")
            ));
        }
        self.centre_ban = word == "centre-ban";
        self.exact_five = word == "exact-five";
        Ok(self)
    }

    /// A short description for the header: `Gomoku 15x15, freestyle, level full`.
    pub fn describe(&self) -> String {
        let n = self.size;
        let rules = match self.kind {
            GameKind::Nogo if self.centre_ban => ", no opening in the centre",
            GameKind::Gomoku if self.exact_five => ", exactly five wins",
            GameKind::Gomoku => ", freestyle",
            _ => "",
        };
        let level = if self.kind == GameKind::Gomoku {
            format!(", level {}", self.level.name())
        } else {
            String::new()
        };
        format!("{} {n}x{n}{rules}{level}", title(self.kind))
    }
}

/// The game's name as people write it.
pub fn title(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Nogo => "NoGo",
        GameKind::Gomoku => "Gomoku",
        GameKind::Connect6 => "Connect6",
    }
}

/// How the computer judges its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// Estimated chance that the mover wins, 0 to 1.
    WinRate(f32),
    /// A teaching level's score of the point (higher is better for the mover); `defending`
    /// when the point is the opponent's best rather than the mover's.
    Score { score: u64, defending: bool },
    /// No estimate (a forced or opening move, for instance).
    Unknown,
}

/// A computer decision, as the console shows it.
#[derive(Clone, Debug)]
pub struct Thought<M> {
    pub mv: Option<M>,
    pub eval: Eval,
    pub work: u64,
    pub work_unit: &'static str,
    pub elapsed: Duration,
}

/// The computer player of a console game: an engine, or a teaching level whose score is worth
/// showing.
pub trait Brain<G: Game> {
    fn new_game(&mut self);
    fn observe(&mut self, before: &G, m: G::Move);
    fn think(&mut self, pos: &G, limits: Limits) -> Thought<G::Move>;
}

/// Any engine, its win rate as the evaluation.
struct EngineBrain<G: Game>(Box<dyn Engine<G>>);

impl<G: Game> Brain<G> for EngineBrain<G> {
    fn new_game(&mut self) {
        self.0.new_game();
    }

    fn observe(&mut self, before: &G, m: G::Move) {
        self.0.observe(before, m);
    }

    fn think(&mut self, pos: &G, limits: Limits) -> Thought<G::Move> {
        let d = self.0.think(pos, limits);
        Thought {
            mv: d.mv,
            eval: d.win_rate.map_or(Eval::Unknown, Eval::WinRate),
            work: d.work,
            work_unit: d.work_unit,
            elapsed: d.elapsed,
        }
    }
}

/// Seed 000's ten scoring rules, with the chosen point's score.
struct ClassicBrain(GomokuClassic);

impl Brain<Gomoku> for ClassicBrain {
    fn new_game(&mut self) {
        self.0.new_game();
    }

    fn observe(&mut self, _before: &Gomoku, _m: gomoku::Point) {}

    fn think(&mut self, pos: &Gomoku, _limits: Limits) -> Thought<gomoku::Point> {
        let start = Instant::now();
        let choice = self.0.choose(pos);
        Thought {
            mv: choice.map(|(p, _)| p),
            eval: choice.map_or(Eval::Unknown, |(_, s)| Eval::Score {
                score: s.max(0) as u64,
                defending: false,
            }),
            work: (pos.points() - pos.ply()) as u64,
            work_unit: "points scored",
            elapsed: start.elapsed(),
        }
    }
}

/// Seed 004's win table, with the chosen point's score and whether it defends.
struct WintableBrain(GomokuWintable);

impl Brain<Gomoku> for WintableBrain {
    fn new_game(&mut self) {
        self.0.new_game();
    }

    fn observe(&mut self, before: &Gomoku, m: gomoku::Point) {
        self.0.observe(before, m);
    }

    fn think(&mut self, pos: &Gomoku, _limits: Limits) -> Thought<gomoku::Point> {
        let start = Instant::now();
        let choice = self.0.choose(pos);
        Thought {
            mv: choice.as_ref().map(|(p, _)| *p),
            eval: choice.map_or(Eval::Unknown, |(_, c)| Eval::Score {
                score: c.score,
                defending: c.defending,
            }),
            work: 2 * (pos.points() - pos.ply()) as u64,
            work_unit: "points scored",
            elapsed: start.elapsed(),
        }
    }
}

/// What the console needs of a game beyond the `Game` trait.
pub trait ConsoleGame: Game {
    const KIND: GameKind;
    /// The empty board of a checked setup.
    fn start(setup: &Setup) -> Self;
    fn stone(&self, x: usize, y: usize) -> Option<Color>;
    /// The move on the point `(x, y)`, which is on the board.
    fn at(&self, x: usize, y: usize) -> Self::Move;
    fn xy(&self, m: Self::Move) -> (usize, usize);
    /// Stones the side to move places before the other side moves (Connect6: 1 or 2).
    fn stones_to_place(&self) -> usize {
        1
    }
    /// Why `winner` won, for the result line.
    fn how_won(&self, winner: Color, setup: &Setup) -> String;
    /// The computer player.
    fn brain(setup: &Setup, seed: u64) -> Box<dyn Brain<Self>>;
}

impl ConsoleGame for Nogo {
    const KIND: GameKind = GameKind::Nogo;

    fn start(setup: &Setup) -> Nogo {
        Nogo::new(NogoRules {
            centre_ban: setup.centre_ban,
        })
    }

    fn stone(&self, x: usize, y: usize) -> Option<Color> {
        self.color_at(nogo::point(x, y))
    }

    fn at(&self, x: usize, y: usize) -> nogo::Point {
        nogo::point(x, y)
    }

    fn xy(&self, m: nogo::Point) -> (usize, usize) {
        nogo::coords(m)
    }

    fn how_won(&self, winner: Color, _setup: &Setup) -> String {
        format!(
            "{} has no legal move left",
            capital(winner.opponent().name())
        )
    }

    fn brain(_setup: &Setup, seed: u64) -> Box<dyn Brain<Nogo>> {
        let config = NogoConfig {
            seed,
            ..NogoConfig::default()
        };
        // The engine the platforms get by default: the built-in network with the search and
        // precision the options default to (a test holds the network readable; were it not, the
        // playout search alone, said aloud).
        let shipped = NetOptions::default();
        let engine = match builtin::network_at(shipped.net_precision.precision()) {
            Ok(net) => NogoEngine::advised(config, net, shipped.advice()),
            Err(e) => {
                eprintln!("stonebrain: {e}; playing without the network");
                NogoEngine::new(config)
            }
        };
        Box::new(EngineBrain(Box::new(engine)))
    }
}

impl ConsoleGame for Gomoku {
    const KIND: GameKind = GameKind::Gomoku;

    fn start(setup: &Setup) -> Gomoku {
        Gomoku::new(GomokuRules {
            size: setup.size,
            exact_five: setup.exact_five,
        })
    }

    fn stone(&self, x: usize, y: usize) -> Option<Color> {
        self.color_at(self.point(x, y))
    }

    fn at(&self, x: usize, y: usize) -> gomoku::Point {
        self.point(x, y)
    }

    fn xy(&self, m: gomoku::Point) -> (usize, usize) {
        self.coords(m)
    }

    fn how_won(&self, _winner: Color, setup: &Setup) -> String {
        if setup.exact_five {
            "exactly five in a row".to_string()
        } else {
            "five in a row".to_string()
        }
    }

    // `GomokuConfig` has only the seed for now; the struct update stays for the fields to come.
    #[allow(clippy::needless_update)]
    fn brain(setup: &Setup, seed: u64) -> Box<dyn Brain<Gomoku>> {
        match setup.level {
            Level::Full => Box::new(EngineBrain(Box::new(GomokuEngine::new(GomokuConfig {
                seed,
                ..GomokuConfig::default()
            })))),
            Level::Classic => Box::new(ClassicBrain(GomokuClassic::new(seed))),
            Level::Wintable => Box::new(WintableBrain(GomokuWintable::new(seed))),
        }
    }
}

impl ConsoleGame for Connect6 {
    const KIND: GameKind = GameKind::Connect6;

    fn start(setup: &Setup) -> Connect6 {
        Connect6::new(Connect6Rules { size: setup.size })
    }

    fn stone(&self, x: usize, y: usize) -> Option<Color> {
        self.color_at(self.point(x, y))
    }

    fn at(&self, x: usize, y: usize) -> connect6::Stone {
        self.point(x, y)
    }

    fn xy(&self, m: connect6::Stone) -> (usize, usize) {
        self.coords(m)
    }

    fn stones_to_place(&self) -> usize {
        self.stones_left_in_turn() as usize
    }

    fn how_won(&self, _winner: Color, _setup: &Setup) -> String {
        "six in a row".to_string()
    }

    fn brain(_setup: &Setup, seed: u64) -> Box<dyn Brain<Connect6>> {
        Box::new(EngineBrain(Box::new(Connect6Engine::new(Connect6Config {
            seed,
            ..Connect6Config::default()
        }))))
    }
}

/// `black` -> `Black`.
pub fn capital(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setups_refuse_what_the_game_does_not_have() {
        assert!(Setup::new(GameKind::Nogo, Some(13), false, false, None)
            .unwrap_err()
            .contains("9x9"));
        assert!(Setup::new(GameKind::Gomoku, Some(25), false, false, None).is_err());
        assert!(Setup::new(GameKind::Connect6, Some(5), false, false, None).is_err());
        assert!(Setup::new(GameKind::Connect6, None, true, false, None).is_err());
        assert!(Setup::new(GameKind::Nogo, None, false, true, None).is_err());
        assert!(
            Setup::new(GameKind::Nogo, None, false, false, Some(Level::Full))
                .unwrap_err()
                .contains("Gomoku only")
        );
        let s = Setup::new(GameKind::Connect6, Some(15), false, false, None).unwrap();
        assert_eq!((s.size, s.rules_word()), (15, "standard"));
        let s = Setup::new(GameKind::Gomoku, None, false, true, Some(Level::Classic)).unwrap();
        assert_eq!(
            s.describe(),
            "Gomoku 15x15, exactly five wins, level classic"
        );
        assert!(!s.with_rules_word("freestyle").unwrap().exact_five);
        assert!(s.with_rules_word("renju").is_err());
    }
}
