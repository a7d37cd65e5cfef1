//! `stonebrain play`: console games against the computer (seeds 001 and 002), for all three
//! games. A menu of commands at the prompt (a move, `undo`, `hint`, `save`, `load`, `new`,
//! `swap`, `side`, `watch`, `board`, `help`, `quit`), a board drawn in characters with the
//! platforms' coordinates, each computer move with its evaluation, save files that restore a
//! game exactly, and a mode where the computer plays both sides.
//!
//! Layers: `notation` (points as text, per game), `board_view` (the board as text), `savefile`
//! (the file format), `games` (the per-game trait and the computer players), `term` (terminal
//! and input), and here the session loop and its commands. The move list is the truth: undo and
//! load replay the game from it, so every game takes back moves the same way.

pub mod board_view;
pub mod games;
pub mod notation;
pub mod savefile;
pub mod term;

use crate::engine::gomoku::level::Level;
use crate::game::connect6::Connect6;
use crate::game::gomoku::Gomoku;
use crate::game::nogo::Nogo;
use crate::game::{Color, Game, Outcome};
use crate::protocol::cli::GameArg;
use crate::protocol::GameKind;
use crate::search::clock::Limits;
use clap::{Args, ValueEnum};
use games::{capital, ConsoleGame, Eval, Setup, Thought};
use notation::Notation;
use savefile::SaveFile;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use term::{ColourChoice, Pending, Term, Tone};

/// `stonebrain play`'s options.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (may be left out with --load).
    #[arg(value_enum)]
    pub game: Option<GameArg>,
    /// Board size: NoGo 9; Gomoku 11 to 20 (default 15); Connect6 6 to 25 (default 19, SAU's;
    /// Botzone's is 15).
    #[arg(long)]
    pub size: Option<usize>,
    /// The colour you play (default black).
    #[arg(long, value_enum)]
    pub human: Option<Side>,
    /// Watch the computer play both sides (at a terminal, Enter pauses).
    #[arg(long)]
    pub watch: bool,
    /// Gomoku only: the computer's level (wintable, classic or full; default full).
    #[arg(long, value_parser = Level::parse)]
    pub level: Option<Level>,
    /// Seconds the computer may think per move (a Connect6 turn counts as one move).
    #[arg(long, default_value_t = 1.0, value_parser = parse_seconds)]
    pub time: f64,
    /// Also stop each computer move after this many playouts (NoGo) or nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Random seed of the computer player (default: different every run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// NoGo class rule (seed 001): Black's first move may not be the centre.
    #[arg(long)]
    pub centre_ban: bool,
    /// Gomoku: only exactly five in a row wins (six or more does not).
    #[arg(long)]
    pub exact_five: bool,
    /// Start from a saved game (its game, board, rules and sides).
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Colour: auto (a terminal without NO_COLOR), always or never.
    #[arg(long, visible_alias = "colour", value_enum, default_value_t = ColourChoice::Auto)]
    pub color: ColourChoice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 3600.0 => Ok(t),
        _ => Err(format!(
            "'{s}' is not a time: seconds per move, more than 0 and at most 3600 (e.g. 0.5)"
        )),
    }
}

/// The computer's thinking limits and seed, for the whole run.
struct Options {
    time: Duration,
    nodes: Option<u64>,
    seed: u64,
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seats {
    /// A person plays this colour, the computer the other.
    Human(Color),
    /// The computer plays both sides; `paused` while the person at the prompt looks around.
    Watch { paused: bool },
}

impl Seats {
    fn from_human(human: Option<Color>) -> Seats {
        human.map_or(Seats::Watch { paused: false }, Seats::Human)
    }
}

/// How a session begins.
enum Opening {
    Fresh(Setup, Seats),
    Loaded(SaveFile, PathBuf),
}

/// How a session ends.
enum Exit {
    Quit,
    /// `load` found a saved game of another game: continue in a session for that game.
    Switch(SaveFile, PathBuf),
}

/// Runs `stonebrain play`.
pub fn play(args: &PlayArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stonebrain play: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &PlayArgs) -> Result<(), String> {
    run_on(args, || Term::new(args.color))
}

/// `stonebrain play` on the terminal `term` makes (once the options are checked, so that a
/// refusal prints nothing else). The fuzzer gives it a scripted terminal.
pub fn run_on(args: &PlayArgs, term: impl FnOnce() -> Term) -> Result<(), String> {
    let opts = Options {
        time: Duration::from_secs_f64(args.time),
        nodes: args.nodes,
        seed: args.seed.unwrap_or_else(rand::random),
    };
    let mut opening = match &args.load {
        Some(path) => {
            if args.size.is_some() || args.centre_ban || args.exact_five || args.level.is_some() {
                return Err(
                    "with --load the saved game sets the board, rules and level: leave \
                            out --size, --centre-ban, --exact-five and --level"
                        .to_string(),
                );
            }
            let mut save = SaveFile::read_file(path)?;
            if let Some(game) = args.game {
                if game.kind() != save.setup.kind {
                    return Err(format!(
                        "{} holds a {} game, not {}",
                        path.display(),
                        save.setup.kind.name(),
                        game.kind().name()
                    ));
                }
            }
            validate(&save).map_err(|e| format!("{}: {e}", path.display()))?;
            if args.watch {
                save.human = None;
            } else if let Some(side) = args.human {
                save.human = Some(side.color());
            }
            Opening::Loaded(save, path.clone())
        }
        None => {
            let game = args.game.ok_or(
                "which game? stonebrain play nogo|gomoku|connect6 (or --load FILE)".to_string(),
            )?;
            let setup = Setup::new(
                game.kind(),
                args.size,
                args.centre_ban,
                args.exact_five,
                args.level,
            )?;
            let seats = if args.watch {
                Seats::Watch { paused: false }
            } else {
                Seats::Human(args.human.unwrap_or(Side::Black).color())
            };
            Opening::Fresh(setup, seats)
        }
    };
    let mut term = term();
    loop {
        let kind = match &opening {
            Opening::Fresh(setup, _) => setup.kind,
            Opening::Loaded(save, _) => save.setup.kind,
        };
        let exit = match kind {
            GameKind::Nogo => Session::<Nogo>::open(&mut term, &opts, opening).run(),
            GameKind::Gomoku => Session::<Gomoku>::open(&mut term, &opts, opening).run(),
            GameKind::Connect6 => Session::<Connect6>::open(&mut term, &opts, opening).run(),
        };
        match exit {
            Exit::Quit => return Ok(()),
            Exit::Switch(save, path) => opening = Opening::Loaded(save, path),
        }
    }
}

/// Every stone played, with its colour.
type History<G> = Vec<(Color, <G as Game>::Move)>;

/// Replays a saved game by the rules: the position and the move list with each move's colour.
/// The error names the turn and why its stones cannot be played.
fn replay<G: ConsoleGame>(save: &SaveFile) -> Result<(G, History<G>), String> {
    let notation = Notation::for_game(save.setup.kind, save.setup.size);
    let mut pos = G::start(&save.setup);
    let mut history = Vec::new();
    for (i, (color, stones)) in save.turns.iter().enumerate() {
        let turn = i + 1;
        if pos.outcome().is_some() {
            return Err(format!("turn {turn}: the game was already over"));
        }
        if pos.side_to_move() != *color {
            return Err(format!(
                "turn {turn}: {} is to move, not {}",
                capital(pos.side_to_move().name()),
                color.name()
            ));
        }
        let need = pos.stones_to_place();
        let count = |n: usize| {
            if n == 1 {
                "1 stone".to_string()
            } else {
                format!("{n} stones")
            }
        };
        if stones.len() > need {
            return Err(format!(
                "turn {turn} has {}, but the turn is {}",
                count(stones.len()),
                count(need)
            ));
        }
        for &(x, y) in stones {
            let m = pos.at(x, y);
            pos.check_move(m)
                .map_err(|e| format!("turn {turn}: {}: {e}", notation.write((x, y))))?;
            pos.play(m);
            history.push((*color, m));
        }
        if stones.len() < need && pos.outcome().is_none() {
            return Err(format!(
                "turn {turn} has {}, but the turn is {}",
                count(stones.len()),
                count(need)
            ));
        }
    }
    Ok((pos, history))
}

/// Whether a saved game of any kind replays.
pub fn validate(save: &SaveFile) -> Result<(), String> {
    match save.setup.kind {
        GameKind::Nogo => replay::<Nogo>(save).map(|_| ()),
        GameKind::Gomoku => replay::<Gomoku>(save).map(|_| ()),
        GameKind::Connect6 => replay::<Connect6>(save).map(|_| ()),
    }
}

/// One game at the console (and the games after it, of the same kind).
struct Session<'t, G: ConsoleGame> {
    term: &'t mut Term,
    opts: &'t Options,
    setup: Setup,
    notation: Notation,
    pos: G,
    /// Every stone played, with its colour: the truth the position is replayed from.
    history: History<G>,
    seats: Seats,
    brain: Box<dyn games::Brain<G>>,
    /// Lines to show with the next prompt.
    messages: Vec<(Tone, String)>,
    /// On a redrawn screen: the latest moves, shown under the board until the next move.
    recent: Vec<(Tone, String)>,
    /// The position has changed since the board was last drawn.
    board_stale: bool,
    /// Where `save` writes when given no file.
    save_path: Option<PathBuf>,
    /// The length of `history` when last saved or loaded.
    saved_len: Option<usize>,
}

impl<'t, G: ConsoleGame> Session<'t, G> {
    fn open(term: &'t mut Term, opts: &'t Options, opening: Opening) -> Session<'t, G> {
        let (setup, seats) = match &opening {
            Opening::Fresh(setup, seats) => (*setup, *seats),
            Opening::Loaded(save, _) => (save.setup, Seats::from_human(save.human)),
        };
        let mut s = Session {
            term,
            opts,
            setup,
            notation: Notation::for_game(setup.kind, setup.size),
            pos: G::start(&setup),
            history: Vec::new(),
            seats,
            brain: G::brain(&setup, opts.seed),
            messages: Vec::new(),
            recent: Vec::new(),
            board_stale: true,
            save_path: None,
            saved_len: None,
        };
        match opening {
            Opening::Fresh(..) => {
                let line = format!("New game: {}. {}", setup.describe(), s.who_plays());
                s.say(Tone::Info, line);
                s.say(
                    Tone::Info,
                    "Type a move, or help for the commands.".to_string(),
                );
            }
            Opening::Loaded(save, path) => {
                if let Err(e) = s.apply(&save, path) {
                    // Checked before the session opened; kept as a message all the same.
                    s.say(Tone::Error, e);
                }
            }
        }
        s
    }

    fn say(&mut self, tone: Tone, text: String) {
        self.messages.push((tone, text));
    }

    /// Reports a move: a message in a transcript; on a redrawn screen, a line that stays under
    /// the board with the other side's reply, until the next human move (the last two when
    /// watching).
    fn report_move(&mut self, tone: Tone, text: String, human: bool) {
        if !self.term.redraw {
            self.say(tone, text);
            return;
        }
        if human || matches!(self.seats, Seats::Watch { .. }) {
            let keep = if human { 0 } else { 1 };
            let drop = self.recent.len().saturating_sub(keep);
            self.recent.drain(..drop);
        }
        self.recent.push((tone, text));
    }

    fn over(&self) -> bool {
        self.pos.outcome().is_some()
    }

    fn computer_to_move(&self) -> bool {
        !self.over()
            && match self.seats {
                Seats::Human(c) => self.pos.side_to_move() != c,
                Seats::Watch { paused } => !paused,
            }
    }

    fn run(mut self) -> Exit {
        loop {
            if self.term.broken {
                return Exit::Quit;
            }
            if self.computer_to_move() {
                if matches!(self.seats, Seats::Watch { .. }) && self.term.live_input {
                    if let Pending::Line(line) = self.term.pending() {
                        // A line typed while watching pauses the watch; a command runs too.
                        self.seats = Seats::Watch { paused: true };
                        self.say(
                            Tone::Info,
                            "Paused: Enter or `watch` goes on watching.".to_string(),
                        );
                        if !line.trim().is_empty() {
                            if let Some(exit) = self.command(&line) {
                                return exit;
                            }
                        }
                        continue;
                    }
                }
                self.computer_turn();
                continue;
            }
            self.show();
            let prompt = self.prompt();
            let Some(line) = self.term.read_line(&prompt) else {
                return Exit::Quit;
            };
            if let Some(exit) = self.command(&line) {
                return exit;
            }
        }
    }

    // ----- drawing -----

    /// Who plays which colour, in a sentence.
    fn who_plays(&self) -> String {
        match self.seats {
            Seats::Human(c) => format!(
                "You play {} ({}); the computer plays {} ({}), {} a move.",
                capital(c.name()),
                stone_letter(c),
                capital(c.opponent().name()),
                stone_letter(c.opponent()),
                self.think_time()
            ),
            Seats::Watch { .. } => format!(
                "The computer plays both sides, {} a move.",
                self.think_time()
            ),
        }
    }

    fn think_time(&self) -> String {
        let s = self.opts.time.as_secs_f64();
        let mut t = format!("{s} s");
        if let Some(n) = self.opts.nodes {
            t.push_str(&format!(" or {n} {}", self.work_unit()));
        }
        t
    }

    fn work_unit(&self) -> &'static str {
        if G::KIND == GameKind::Nogo {
            "playouts"
        } else {
            "nodes"
        }
    }

    /// `Black (you)`, `White (computer)`, or just `Black` when watching.
    fn player(&self, c: Color) -> String {
        match self.seats {
            Seats::Human(h) if h == c => format!("{} (you)", capital(c.name())),
            Seats::Human(_) => format!("{} (computer)", capital(c.name())),
            Seats::Watch { .. } => capital(c.name()),
        }
    }

    /// The stones of the last turn, to mark on the board.
    fn last_turn(&self) -> Vec<(usize, usize)> {
        let Some(&(c, _)) = self.history.last() else {
            return Vec::new();
        };
        self.history
            .iter()
            .rev()
            .take_while(|(k, _)| *k == c)
            .map(|&(_, m)| self.pos.xy(m))
            .collect()
    }

    /// The number of the turn being played (a Connect6 turn of two stones counts once).
    fn turn_number(&self) -> usize {
        let mut turns = 0;
        let mut last = None;
        for &(c, _) in &self.history {
            if last != Some(c) {
                turns += 1;
                last = Some(c);
            }
        }
        if last == Some(self.pos.side_to_move()) {
            turns
        } else {
            turns + 1
        }
    }

    /// The line under the board: whose move it is, or the result.
    fn status(&self) -> String {
        match self.pos.outcome() {
            Some(outcome) => self.result(outcome),
            None => {
                let c = self.pos.side_to_move();
                let stones = match self.pos.stones_to_place() {
                    1 if G::KIND == GameKind::Connect6 => " (one stone)",
                    1 => "",
                    _ => " (two stones)",
                };
                let turn = if G::KIND == GameKind::Connect6 {
                    "Turn"
                } else {
                    "Move"
                };
                format!(
                    "{turn} {}: {} to move{stones}.",
                    self.turn_number(),
                    self.player(c)
                )
            }
        }
    }

    fn result(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Draw => "Game over: a draw, the board is full.".to_string(),
            Outcome::Win(w) => {
                let verdict = match self.seats {
                    Seats::Human(h) if h == w => " You win!",
                    Seats::Human(_) => " The computer wins.",
                    Seats::Watch { .. } => "",
                };
                format!(
                    "Game over: {} wins, {}.{verdict}",
                    capital(w.name()),
                    self.pos.how_won(w, &self.setup)
                )
            }
        }
    }

    fn prompt(&self) -> String {
        let text = if self.over() {
            "game over".to_string()
        } else {
            match self.seats {
                Seats::Watch { .. } => format!("paused, {}", self.pos.side_to_move().name()),
                _ => self.player(self.pos.side_to_move()),
            }
        };
        format!("{} > ", self.term.bold(&text))
    }

    fn board_lines(&self) -> Vec<String> {
        board_view::draw(
            &self.notation,
            |x, y| self.pos.stone(x, y),
            &self.last_turn(),
            self.term.palette,
        )
    }

    /// Shows what is new. On a colour terminal: the whole screen again (header, board, status,
    /// messages). Elsewhere: the messages, then the board and status if the position changed.
    fn show(&mut self) {
        let mut text = String::new();
        if self.term.redraw {
            self.term.clear_screen();
            let seats = match self.seats {
                Seats::Human(c) => format!(
                    "you {} {}, computer {} {}",
                    c.name(),
                    stone_letter(c),
                    c.opponent().name(),
                    stone_letter(c.opponent())
                ),
                Seats::Watch { .. } => "computer against computer".to_string(),
            };
            text.push_str(&self.term.bold(&format!(
                "stonebrain | {} | {seats}, {} a move",
                self.setup.describe(),
                self.think_time()
            )));
            text.push_str("\n\n");
        }
        let messages = std::mem::take(&mut self.messages);
        let message_text: String = messages
            .iter()
            .map(|(tone, m)| self.term.paint(*tone, m) + "\n")
            .collect();
        if !self.term.redraw {
            text.push_str(&message_text);
        }
        if self.term.redraw || self.board_stale {
            if !self.term.redraw {
                text.push('\n');
            }
            for line in self.board_lines() {
                text.push_str(&line);
                text.push('\n');
            }
            text.push('\n');
            let status = self.status();
            let tone = if self.over() {
                Tone::Result
            } else {
                Tone::Info
            };
            text.push_str(&self.term.paint(tone, &status));
            text.push('\n');
            self.board_stale = false;
        }
        if self.term.redraw {
            for (tone, line) in &self.recent {
                text.push_str(&self.term.paint(*tone, line));
                text.push('\n');
            }
            text.push_str(&message_text);
        }
        self.term.print(&text);
    }

    // ----- moves -----

    fn limits(&self) -> Limits {
        Limits::time(self.opts.time).with_iterations(self.opts.nodes)
    }

    /// Plays a legal move and tells the computer player.
    fn play(&mut self, m: G::Move) {
        let c = self.pos.side_to_move();
        self.brain.observe(&self.pos, m);
        self.pos.play(m);
        self.history.push((c, m));
        self.board_stale = true;
    }

    /// Thinks for the side to move in `pos` until its turn is over, without playing in the
    /// session: the stones and what the computer made of them.
    fn think_turn(&mut self, mut pos: G) -> (Vec<G::Move>, Thought<()>) {
        let me = pos.side_to_move();
        let mut stones = Vec::new();
        let mut summary = Thought {
            mv: None,
            eval: Eval::Unknown,
            work: 0,
            work_unit: self.work_unit(),
            elapsed: Duration::ZERO,
        };
        while pos.outcome().is_none() && pos.side_to_move() == me {
            let t = self.brain.think(&pos, self.limits());
            let m = match t.mv.filter(|&m| pos.check_move(m).is_ok()) {
                Some(m) => m,
                // Never expected: an engine with no answer still gets a legal move played.
                None => match pos.legal_moves().first() {
                    Some(&m) => m,
                    None => break,
                },
            };
            if stones.is_empty() {
                summary.eval = t.eval;
                summary.work_unit = t.work_unit;
            }
            summary.work += t.work;
            summary.elapsed += t.elapsed;
            pos.play(m);
            stones.push(m);
        }
        (stones, summary)
    }

    fn describe_thought(&self, t: &Thought<()>) -> String {
        let eval = match t.eval {
            Eval::WinRate(w) => format!("win rate {:.1}%", 100.0 * w),
            Eval::Score { score, defending } => {
                let why = if defending { " (blocking)" } else { "" };
                format!("score {score}{why}")
            }
            Eval::Unknown => "no estimate (forced or opening move)".to_string(),
        };
        format!(
            "{eval}, {} {}, {:.2} s",
            t.work,
            t.work_unit,
            t.elapsed.as_secs_f64()
        )
    }

    fn points_text(&self, stones: &[G::Move]) -> String {
        let points: Vec<(usize, usize)> = stones.iter().map(|&m| self.pos.xy(m)).collect();
        if points.len() == 1 {
            self.notation.write_both(points[0])
        } else {
            self.notation.write_all(&points)
        }
    }

    fn computer_turn(&mut self) {
        let me = self.pos.side_to_move();
        let watching = matches!(self.seats, Seats::Watch { .. });
        if self.term.redraw || watching {
            self.show();
        }
        if self.term.redraw {
            let line = format!(
                "{} is thinking ({})...\n",
                capital(me.name()),
                self.think_time()
            );
            self.term.print(&line);
        }
        let (stones, thought) = self.think_turn(self.pos.clone());
        if stones.is_empty() {
            self.say(
                Tone::Error,
                "The computer found no move; the game is paused.".to_string(),
            );
            self.seats = Seats::Watch { paused: true };
            return;
        }
        let text = format!(
            "{} plays {}: {}.",
            self.player(me),
            self.points_text(&stones),
            self.describe_thought(&thought)
        );
        self.report_move(Tone::Computer, text, false);
        for m in stones {
            self.play(m);
        }
    }

    fn hint(&mut self) {
        if self.over() {
            self.say(Tone::Error, "The game is over: no hint.".to_string());
            return;
        }
        let me = self.pos.side_to_move();
        let (stones, thought) = self.think_turn(self.pos.clone());
        if stones.is_empty() {
            self.say(Tone::Error, "No hint: there is no legal move.".to_string());
            return;
        }
        let text = format!(
            "Hint for {}: {}; {}.",
            capital(me.name()),
            self.points_text(&stones),
            self.describe_thought(&thought)
        );
        self.say(Tone::Computer, text);
    }

    /// A move typed at the prompt, for the side to move. Nothing is played unless the whole
    /// turn is legal.
    fn human_move(&mut self, text: &str) {
        if let Some(outcome) = self.pos.outcome() {
            let result = self.result(outcome);
            self.say(
                Tone::Error,
                format!("{result} Type new for another game, undo, load or quit."),
            );
            return;
        }
        let points = match self.notation.parse(text) {
            Ok(points) => points,
            Err(e) => {
                self.say(Tone::Error, format!("{e}. Type help for the commands."));
                return;
            }
        };
        let need = self.pos.stones_to_place();
        if points.len() > need {
            let e = if G::KIND != GameKind::Connect6 {
                "One point at a time, please.".to_string()
            } else if need == 1 {
                format!("This turn is one stone, not {}.", points.len())
            } else {
                format!("A turn is two stones, not {}.", points.len())
            };
            self.say(Tone::Error, e);
            return;
        }
        if points.len() == 2 && points[0] == points[1] {
            let e = format!(
                "{} twice: the two stones of a turn go on two different points.",
                self.notation.write(points[0])
            );
            self.say(Tone::Error, e);
            return;
        }
        let mut trial = self.pos.clone();
        let mut moves = Vec::new();
        for &p in &points {
            if trial.outcome().is_some() {
                break;
            }
            let m = trial.at(p.0, p.1);
            if let Err(e) = trial.check_move(m) {
                let e = format!("{}: {e}. Try another point.", self.notation.write(p));
                self.say(Tone::Error, e);
                return;
            }
            trial.play(m);
            moves.push(m);
        }
        if moves.len() < need && trial.outcome().is_none() {
            let e = format!(
                "A turn is two stones: give both, e.g. {}.",
                self.notation.write_all(&[(0, 0), (1, 0)])
            );
            self.say(Tone::Error, e);
            return;
        }
        let me = self.pos.side_to_move();
        let text = format!("{} plays {}.", self.player(me), self.points_text(&moves));
        self.report_move(Tone::Info, text, true);
        for m in moves {
            self.play(m);
        }
    }

    // ----- commands -----

    /// Runs one input line; `Some` when the session ends.
    fn command(&mut self, line: &str) -> Option<Exit> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {
                if self.seats == (Seats::Watch { paused: true }) {
                    self.seats = Seats::Watch { paused: false };
                }
            }
            "help" | "h" | "?" => self.help(),
            "quit" | "exit" | "q" => {
                if !self.history.is_empty() && self.saved_len != Some(self.history.len()) {
                    self.term.print("The game was not saved.\n");
                }
                self.term.print("Bye.\n");
                return Some(Exit::Quit);
            }
            "undo" | "u" | "takeback" => self.undo(),
            "hint" => self.hint(),
            "save" => self.save(rest),
            "load" => return self.load(rest),
            "new" => self.new_game(rest),
            "swap" => self.swap(),
            "side" => self.side(rest),
            "watch" => {
                self.seats = Seats::Watch { paused: false };
                let text = if self.term.live_input {
                    "Watching: the computer plays both sides. Press Enter to pause."
                } else {
                    "Watching: the computer plays both sides."
                };
                self.say(Tone::Info, text.to_string());
            }
            "board" => self.board_stale = true,
            _ if is_word(line, &self.notation) => {
                let e = format!(
                    "'{}' is not a command. Type help for the commands; {}.",
                    notation::shorten(line),
                    self.notation.explain()
                );
                self.say(Tone::Error, e);
            }
            _ => self.human_move(line),
        }
        None
    }

    fn help(&mut self) {
        let lines = [
            format!("Moves: {}.", self.notation.explain()),
            self.notation.edges(),
            "Commands:".to_string(),
            "  undo          take back your last move and the computer's reply".to_string(),
            "  hint          the computer's suggestion for the side to move".to_string(),
            "  save [FILE]   save the game (default: the last file, or stonebrain-GAME.txt)"
                .to_string(),
            "  load FILE     load a saved game (any of the three games)".to_string(),
            "  new [black|white]  a new game (with the same settings)".to_string(),
            "  swap          change sides with the computer".to_string(),
            "  side black|white   play that colour".to_string(),
            "  watch         the computer plays both sides (Enter pauses at a terminal)"
                .to_string(),
            "  board         draw the board again".to_string(),
            "  help          this list".to_string(),
            "  quit          leave (save first to keep the game)".to_string(),
        ];
        for line in lines {
            self.say(Tone::Info, line);
        }
    }

    fn undo(&mut self) {
        let mut n = self.history.len();
        match self.seats {
            Seats::Human(h) => {
                while n > 0 && self.history[n - 1].0 != h {
                    n -= 1;
                }
                let before = n;
                while n > 0 && self.history[n - 1].0 == h {
                    n -= 1;
                }
                if n == before {
                    self.say(Tone::Error, "Nothing of yours to take back.".to_string());
                    return;
                }
            }
            Seats::Watch { .. } => {
                let Some(&(c, _)) = self.history.last() else {
                    self.say(Tone::Error, "Nothing to take back.".to_string());
                    return;
                };
                while n > 0 && self.history[n - 1].0 == c {
                    n -= 1;
                }
            }
        }
        let taken = self.history.len() - n;
        self.history.truncate(n);
        self.rebuild();
        let text = format!("Took back {}.", count(taken, "stone"));
        self.say(Tone::Info, text);
    }

    /// The position again from the move list (NoGo has no undo of its own; one way for all).
    fn rebuild(&mut self) {
        let mut pos = G::start(&self.setup);
        for &(_, m) in &self.history {
            pos.play(m);
        }
        self.pos = pos;
        self.brain.new_game();
        self.board_stale = true;
        self.recent.clear();
    }

    fn save_file(&self) -> SaveFile {
        let mut turns: Vec<(Color, Vec<(usize, usize)>)> = Vec::new();
        for &(c, m) in &self.history {
            let p = self.pos.xy(m);
            match turns.last_mut() {
                Some((k, stones)) if *k == c => stones.push(p),
                _ => turns.push((c, vec![p])),
            }
        }
        SaveFile {
            setup: self.setup,
            human: match self.seats {
                Seats::Human(c) => Some(c),
                Seats::Watch { .. } => None,
            },
            turns,
        }
    }

    fn save(&mut self, arg: &str) {
        let path = if arg.is_empty() {
            self.save_path
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("stonebrain-{}.txt", G::KIND.name())))
        } else {
            PathBuf::from(arg)
        };
        let file = self.save_file();
        match file.write_file(&path) {
            Ok(()) => {
                let text = format!(
                    "Saved to {} ({}).",
                    path.display(),
                    count(file.turns.len(), "turn")
                );
                self.say(Tone::Info, text);
                self.save_path = Some(path);
                self.saved_len = Some(self.history.len());
            }
            Err(e) => self.say(Tone::Error, format!("{e}. The game is not saved.")),
        }
    }

    fn load(&mut self, arg: &str) -> Option<Exit> {
        if arg.is_empty() {
            self.say(Tone::Error, "load what? load FILE".to_string());
            return None;
        }
        let path = PathBuf::from(arg);
        let checked = SaveFile::read_file(&path).and_then(|save| {
            validate(&save)
                .map(|()| save)
                .map_err(|e| format!("{}: {e}", path.display()))
        });
        match checked {
            Err(e) => {
                let e = format!("Cannot load: {e}. The current game goes on.");
                self.say(Tone::Error, e);
                None
            }
            Ok(save) if save.setup.kind == G::KIND => {
                if let Err(e) = self.apply(&save, path) {
                    self.say(Tone::Error, format!("Cannot load: {e}."));
                }
                None
            }
            Ok(save) => Some(Exit::Switch(save, path)),
        }
    }

    /// Takes over a saved game of this kind (its setup, sides and moves).
    fn apply(&mut self, save: &SaveFile, path: PathBuf) -> Result<(), String> {
        let (pos, history) = replay::<G>(save).map_err(|e| format!("{}: {e}", path.display()))?;
        if save.setup != self.setup {
            self.brain = G::brain(&save.setup, self.opts.seed);
        } else {
            self.brain.new_game();
        }
        self.setup = save.setup;
        self.notation = Notation::for_game(save.setup.kind, save.setup.size);
        self.pos = pos;
        self.history = history;
        self.seats = Seats::from_human(save.human);
        self.board_stale = true;
        self.recent.clear();
        self.saved_len = Some(self.history.len());
        let text = format!(
            "Loaded {}: {}, {} played. {}",
            path.display(),
            self.setup.describe(),
            count(save.turns.len(), "turn"),
            self.who_plays()
        );
        self.save_path = Some(path);
        self.say(Tone::Info, text);
        Ok(())
    }

    fn new_game(&mut self, arg: &str) {
        if !arg.is_empty() {
            match parse_side(arg) {
                Some(c) => self.seats = Seats::Human(c),
                None => {
                    self.say(
                        Tone::Error,
                        "new takes black or white (or nothing).".to_string(),
                    );
                    return;
                }
            }
        }
        if let Seats::Watch { .. } = self.seats {
            self.seats = Seats::Watch { paused: false };
        }
        self.history.clear();
        self.rebuild();
        self.saved_len = None;
        let text = format!("New game: {}. {}", self.setup.describe(), self.who_plays());
        self.say(Tone::Info, text);
    }

    fn swap(&mut self) {
        match self.seats {
            Seats::Human(c) => self.take_side(c.opponent()),
            Seats::Watch { .. } => self.say(
                Tone::Error,
                "You are watching: side black or side white takes a side.".to_string(),
            ),
        }
    }

    fn side(&mut self, arg: &str) {
        match parse_side(arg) {
            Some(c) => self.take_side(c),
            None => self.say(Tone::Error, "side black or side white?".to_string()),
        }
    }

    fn take_side(&mut self, c: Color) {
        self.seats = Seats::Human(c);
        self.board_stale = true;
        let text = self.who_plays();
        self.say(Tone::Info, text);
    }
}

fn parse_side(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Some(Color::Black),
        "white" | "w" | "o" => Some(Color::White),
        _ => None,
    }
}

/// A single word of letters that is no attempt at a point: an unknown command rather than a bad
/// move. Where points are letters, words of up to four letters (two points) count as points.
fn is_word(line: &str, notation: &Notation) -> bool {
    let letters_are_points =
        notation.main != notation::Style::Numbers || notation.other != notation::Style::Numbers;
    !line.is_empty()
        && line.chars().all(|c| c.is_ascii_alphabetic())
        && (!letters_are_points || line.len() > 4)
}

/// `1 turn`, `2 turns`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn stone_letter(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}
