//! The Go Text Protocol (GTP version 2) for NoGo, from the engine's side. See `protocols/gtp.md`.
//!
//! The Computer Olympiad referees NoGo over GTP (GoGui's `twogtp`), and NoGo programs such as
//! HaHaNoGo speak it. A controller writes one command a line, optionally preceded by a numeric
//! id; we answer `=id text` or `?id message`, each answer followed by an empty line.
//!
//! The protocol keeps its own copy of the game: every `play` is checked before the session sees
//! it (an illegal move is a GTP error, not a warning), `showboard` draws it, and `undo` replays
//! the game without its last move to the session as a fresh game.
//!
//! Time: `time_settings` and `time_left` (GTP's own clock commands) or `--time-ms`; with none of
//! them each move gets `DEFAULT_MOVE_TIME`.

use super::{Event, Line, Protocol};
use crate::engine::Decision;
use crate::game::nogo::{self, Nogo, NogoRules, Point, SIZE};
use crate::game::{Color, Game};
use crate::search::clock::{TurnBudget, DEFAULT_MARGIN};
use std::io::Write;
use std::time::{Duration, Instant};

/// The move time when the controller says nothing about time (our choice: Botzone's C++ limit).
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// Column letters of a GTP vertex: `I` is skipped, as in Go.
const COLUMNS: &[u8; SIZE] = b"ABCDEFGHJ";
/// The commands we answer, as `list_commands` gives them.
const COMMANDS: [&str; 16] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "time_settings",
    "time_left",
    "showboard",
    "final_score",
    "quit",
];

/// Settings of the GTP protocol.
#[derive(Clone, Debug)]
pub struct GtpConfig {
    /// The name given to `name`.
    pub name: String,
    /// Kept back from every move's time.
    pub margin: Duration,
    /// A fixed time per move (`--time-ms`), still capped by the game clock if one is set.
    pub turn_limit: Option<Duration>,
    pub rules: NogoRules,
}

impl Default for GtpConfig {
    fn default() -> GtpConfig {
        GtpConfig {
            name: "stonebrain".to_string(),
            margin: DEFAULT_MARGIN,
            turn_limit: None,
            rules: NogoRules::default(),
        }
    }
}

/// GTP's clock: `time_settings main byo_yomi stones`, and the latest `time_left` of each colour.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    main: Duration,
    byo_yomi: Duration,
    /// Stones per byo-yomi period.
    stones: u32,
    /// Per colour (Black first), the controller's last word: time left, and stones left in the
    /// byo-yomi period (0 while in main time). Controllers send it just before `genmove`.
    left: [Option<(Duration, u32)>; 2],
}

impl Clock {
    /// Whether any limit was set: by the standard, byo-yomi time with 0 stones means no limit,
    /// and so do main and byo-yomi times of 0.
    fn limited(&self) -> bool {
        !(self.byo_yomi > Duration::ZERO && self.stones == 0)
            && (self.main > Duration::ZERO || self.byo_yomi > Duration::ZERO)
    }

    /// Time for one move of `colour`, with `turns` of its moves expected from here.
    fn share(&self, colour: Color, turns: u32) -> Duration {
        let period_move = if self.stones > 0 {
            self.byo_yomi / self.stones
        } else {
            Duration::ZERO
        };
        match self.left[colour.index()] {
            // In byo-yomi: the period's time over its stones.
            Some((left, stones)) if stones > 0 => left / stones,
            // In main time: a share of what is left, with a byo-yomi move as a floor.
            Some((left, _)) => (left / turns).max(period_move.min(left)),
            None => (self.main / turns).max(period_move),
        }
    }
}

pub struct Gtp {
    config: GtpConfig,
    /// The game as the controller sees it, and its moves since the empty board (for `undo`).
    pos: Nogo,
    moves: Vec<Point>,
    /// The id of the command being answered (`""` when it had none).
    id: String,
    /// The controller's clock, once `time_settings` or `time_left` has said there is one.
    clock: Option<Clock>,
}

impl Gtp {
    pub fn new(config: GtpConfig) -> Gtp {
        Gtp {
            pos: Nogo::new(config.rules),
            config,
            moves: Vec::new(),
            id: String::new(),
            clock: None,
        }
    }

    /// A success answer: `=id text`; `serve` ends the line and we add the empty one.
    fn ok(&self, text: &str) -> Event<Point> {
        let sep = if text.is_empty() || text.starts_with('\n') {
            ""
        } else {
            " "
        };
        Event::Reply(format!("={}{sep}{text}\n", self.id))
    }

    fn new_game(&mut self) -> Vec<Event<Point>> {
        self.pos = Nogo::new(self.config.rules);
        self.moves.clear();
        vec![Event::NewGame]
    }

    /// The time for `colour`'s move asked now, counted from `arrived`.
    fn budget(&self, colour: Color, arrived: Instant) -> TurnBudget {
        let fixed = self.config.turn_limit;
        let limit = match self.clock.filter(Clock::limited) {
            Some(clock) => {
                let share = clock.share(colour, self.turns_expected());
                fixed.map_or(share, |f| f.min(share))
            }
            None => fixed.unwrap_or(DEFAULT_MOVE_TIME),
        };
        TurnBudget {
            started: arrived,
            limit,
            margin: self.config.margin,
            stretch: None,
        }
    }

    /// Our moves still to come, roughly: a NoGo game fills about two thirds of the board, and a
    /// few more are expected however late it is.
    fn turns_expected(&self) -> u32 {
        let empty = self.pos.empty().count_ones();
        (empty / 3).max(6)
    }

    fn parse_command(&mut self, line: &Line) -> Result<Vec<Event<Point>>, String> {
        let mut words = line.text.split_whitespace();
        let mut command = words.next().unwrap_or("");
        self.id.clear();
        if command.bytes().all(|b| b.is_ascii_digit()) {
            self.id = command.to_string();
            command = words.next().ok_or("syntax error: an id with no command")?;
        }
        let args: Vec<&str> = words.collect();
        match command {
            "protocol_version" => Ok(vec![self.ok("2")]),
            "name" => Ok(vec![self.ok(&self.config.name)]),
            "version" => Ok(vec![self.ok(env!("CARGO_PKG_VERSION"))]),
            "known_command" => {
                let known = args.first().is_some_and(|c| COMMANDS.contains(c));
                Ok(vec![self.ok(if known { "true" } else { "false" })])
            }
            "list_commands" => Ok(vec![self.ok(&COMMANDS.join("\n"))]),
            "boardsize" => {
                let size: usize = arg(&args, 0)?
                    .parse()
                    .map_err(|_| "syntax error: boardsize takes a number")?;
                if size != SIZE {
                    return Err(format!(
                        "unacceptable size (NoGo is played on {SIZE}x{SIZE})"
                    ));
                }
                let mut events = self.new_game();
                events.push(self.ok(""));
                Ok(events)
            }
            "clear_board" => {
                let mut events = self.new_game();
                events.push(self.ok(""));
                Ok(events)
            }
            "komi" => {
                arg(&args, 0)?
                    .parse::<f64>()
                    .map_err(|_| "syntax error: komi takes a number")?;
                // NoGo has no score, so no komi: accepted and ignored.
                Ok(vec![self.ok("")])
            }
            "play" => self.play(&args),
            "genmove" => self.genmove(&args, line.arrived),
            "undo" => {
                if self.moves.pop().is_none() {
                    return Err("cannot undo: no move to take back".to_string());
                }
                let moves = std::mem::take(&mut self.moves);
                let mut events = self.new_game();
                for m in moves {
                    self.pos.play(m);
                    self.moves.push(m);
                    events.push(Event::Play(m));
                }
                events.push(self.ok(""));
                Ok(events)
            }
            "time_settings" => {
                let main = seconds(arg(&args, 0)?)?;
                let byo_yomi = seconds(arg(&args, 1)?)?;
                let stones = arg(&args, 2)?
                    .parse()
                    .map_err(|_| "syntax error: time_settings stones must be a whole number")?;
                self.clock = Some(Clock {
                    main,
                    byo_yomi,
                    stones,
                    left: [None; 2],
                });
                Ok(vec![self.ok("")])
            }
            "time_left" => {
                let colour = parse_colour(arg(&args, 0)?)?;
                let left = seconds(arg(&args, 1)?)?;
                let stones = arg(&args, 2)?
                    .parse()
                    .map_err(|_| "syntax error: time_left stones must be a whole number")?;
                // Without time_settings, a time_left still says there is a clock.
                let clock = self.clock.get_or_insert(Clock {
                    main: left,
                    ..Clock::default()
                });
                clock.left[colour.index()] = Some((left, stones));
                Ok(vec![self.ok("")])
            }
            "showboard" => Ok(vec![self.ok(&format!("\n{}", self.board_text()))]),
            "final_score" => {
                // NoGo has no score: the side with no legal move has lost.
                match self.pos.outcome() {
                    Some(crate::game::Outcome::Win(c)) => {
                        let who = if c == Color::Black { "B" } else { "W" };
                        Ok(vec![self.ok(&format!("{who}+R"))])
                    }
                    _ => Err("cannot score: the game is not over".to_string()),
                }
            }
            "quit" => Ok(vec![self.ok(""), Event::Quit]),
            "" => Err("syntax error: empty command".to_string()),
            _ => Err("unknown command".to_string()),
        }
    }

    fn play(&mut self, args: &[&str]) -> Result<Vec<Event<Point>>, String> {
        let colour = parse_colour(arg(args, 0)?)?;
        let vertex = arg(args, 1)?;
        let Some(m) = parse_vertex(vertex)? else {
            return Err("illegal move: NoGo has no pass".to_string());
        };
        if colour != self.pos.side_to_move() {
            return Err(format!(
                "illegal move: it is {}'s turn",
                self.pos.side_to_move().name()
            ));
        }
        if self.pos.outcome().is_some() {
            return Err("illegal move: the game is over".to_string());
        }
        self.pos
            .check_move(m)
            .map_err(|why| format!("illegal move: {why}"))?;
        self.pos.play(m);
        self.moves.push(m);
        Ok(vec![Event::Play(m), self.ok("")])
    }

    fn genmove(&mut self, args: &[&str], arrived: Instant) -> Result<Vec<Event<Point>>, String> {
        let colour = parse_colour(arg(args, 0)?)?;
        if colour != self.pos.side_to_move() {
            return Err(format!(
                "it is {}'s turn, not {}'s",
                self.pos.side_to_move().name(),
                colour.name()
            ));
        }
        if self.pos.outcome().is_some() {
            // No legal move left: NoGo engines resign.
            return Ok(vec![self.ok("resign")]);
        }
        Ok(vec![Event::Go(self.budget(colour, arrived))])
    }

    /// The board as GoGui and other GTP engines draw it: columns A-J without I, row 9 on top.
    fn board_text(&self) -> String {
        let mut s = String::from("   ");
        for &c in COLUMNS {
            s.push(' ');
            s.push(c as char);
        }
        s.push('\n');
        for row in (1..=SIZE).rev() {
            s.push_str(&format!("{row:2} "));
            for x in 0..SIZE {
                let c = match self.pos.color_at(point_at(x, row)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "{} to move, move {}",
            self.pos.side_to_move().name(),
            self.moves.len() + 1
        ));
        s
    }
}

/// The point of column `x` (0 = A) and GTP row `row` (1 = bottom). Our own rows count down
/// from the top, as Botzone's do.
fn point_at(x: usize, row: usize) -> Point {
    nogo::point(x, SIZE - row)
}

/// A point as a GTP vertex (`A1` bottom left).
pub fn vertex_name(p: Point) -> String {
    let (x, y) = nogo::coords(p);
    format!("{}{}", COLUMNS[x] as char, SIZE - y)
}

/// A GTP vertex: `None` for `pass`; an error for anything that is not a point of the board.
pub fn parse_vertex(text: &str) -> Result<Option<Point>, String> {
    let t = text.to_ascii_uppercase();
    if t == "PASS" {
        return Ok(None);
    }
    let bad = || format!("syntax error: {text:?} is not a vertex of the {SIZE}x{SIZE} board");
    let mut chars = t.chars();
    let col = chars.next().ok_or_else(bad)?;
    let x = COLUMNS
        .iter()
        .position(|&c| c as char == col)
        .ok_or_else(bad)?;
    let row: usize = chars.as_str().parse().map_err(|_| bad())?;
    if !(1..=SIZE).contains(&row) {
        return Err(bad());
    }
    Ok(Some(point_at(x, row)))
}

fn parse_colour(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("syntax error: {text:?} is not a colour")),
    }
}

fn arg<'a>(args: &[&'a str], i: usize) -> Result<&'a str, String> {
    args.get(i)
        .copied()
        .ok_or_else(|| "syntax error: missing argument".to_string())
}

/// A non-negative number of seconds (GTP gives whole seconds; fractions are accepted too).
fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("syntax error: {text:?} is not a number of seconds"))
}

/// GTP's cleaning of a command line: control characters other than tab and newline go, tabs
/// become spaces, and a `#` starts a comment.
fn clean(text: &str) -> String {
    let text = text.split('#').next().unwrap_or("");
    text.chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

impl Protocol<Point> for Gtp {
    fn parse(&mut self, line: &Line) -> Result<Vec<Event<Point>>, String> {
        let text = clean(&line.text);
        if text.is_empty() {
            // A comment or an empty line: no answer.
            return Ok(Vec::new());
        }
        self.parse_command(&Line {
            text,
            arrived: line.arrived,
        })
    }

    fn write_answer(
        &mut self,
        out: &mut dyn Write,
        turn: &[Point],
        _decision: &Decision<Point>,
        _warnings: &[String],
    ) -> std::io::Result<()> {
        let text = match turn.first() {
            Some(&m) => {
                self.pos.play(m);
                self.moves.push(m);
                vertex_name(m)
            }
            None => "resign".to_string(),
        };
        write!(out, "={} {text}\n\n", self.id)
    }

    fn write_error(&mut self, out: &mut dyn Write, message: &str) -> std::io::Result<()> {
        write!(out, "?{} {message}\n\n", self.id)
    }

    fn done_after_answer(&self) -> bool {
        false
    }

    fn name_move(&self, m: Point) -> String {
        vertex_name(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtp(turn_limit: Option<Duration>) -> Gtp {
        Gtp::new(GtpConfig {
            turn_limit,
            margin: Duration::ZERO,
            ..GtpConfig::default()
        })
    }

    fn say(g: &mut Gtp, text: &str) -> Result<Vec<Event<Point>>, String> {
        g.parse(&Line {
            text: text.to_string(),
            arrived: Instant::now(),
        })
    }

    fn limit(g: &Gtp) -> Duration {
        g.budget(g.pos.side_to_move(), Instant::now()).limit
    }

    #[test]
    fn vertices_are_named_as_gtp_has_them() {
        assert_eq!(vertex_name(nogo::point(0, 8)), "A1");
        assert_eq!(vertex_name(nogo::point(8, 0)), "J9");
        assert_eq!(vertex_name(nogo::point(7, 4)), "H5");
        for p in 0..nogo::POINTS as Point {
            assert_eq!(parse_vertex(&vertex_name(p)), Ok(Some(p)));
        }
        assert_eq!(parse_vertex("e5"), Ok(Some(nogo::point(4, 4))));
        assert_eq!(parse_vertex("Pass"), Ok(None));
        for bad in ["I1", "K1", "A0", "A10", "", "5E", "E"] {
            assert!(parse_vertex(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_move_time_follows_the_controller_clock() {
        // Nothing said: the default, or --time-ms.
        assert_eq!(limit(&gtp(None)), DEFAULT_MOVE_TIME);
        let fixed = Duration::from_millis(400);
        assert_eq!(limit(&gtp(Some(fixed))), fixed);
        // One second a move, as byo-yomi periods of one stone.
        let mut g = gtp(None);
        say(&mut g, "time_settings 0 1 1").unwrap();
        assert_eq!(limit(&g), Duration::from_secs(1));
        say(&mut g, "time_left b 1 1").unwrap();
        assert_eq!(limit(&g), Duration::from_secs(1));
        // Ten seconds for five stones.
        say(&mut g, "time_left b 10 5").unwrap();
        assert_eq!(limit(&g), Duration::from_secs(2));
        // Sudden death: a share of what is left (81 empty points: 27 moves expected).
        let mut g = gtp(None);
        say(&mut g, "time_settings 270 0 0").unwrap();
        assert_eq!(limit(&g), Duration::from_secs(10));
        say(&mut g, "time_left b 27 0").unwrap();
        assert_eq!(limit(&g), Duration::from_secs(1));
        // White's clock is White's own.
        say(&mut g, "time_left w 54 0").unwrap();
        assert_eq!(limit(&g), Duration::from_secs(1));
        // --time-ms caps a longer share.
        let mut g = gtp(Some(fixed));
        say(&mut g, "time_settings 270 0 0").unwrap();
        assert_eq!(limit(&g), fixed);
        // Byo-yomi time with no stones is the standard's "no limit".
        let mut g = gtp(None);
        say(&mut g, "time_settings 0 5 0").unwrap();
        assert_eq!(limit(&g), DEFAULT_MOVE_TIME);
    }

    #[test]
    fn undo_replays_the_game_without_its_last_move() {
        let mut g = gtp(None);
        say(&mut g, "play b E5").unwrap();
        say(&mut g, "play w A1").unwrap();
        let events = say(&mut g, "undo").unwrap();
        assert_eq!(
            events,
            vec![
                Event::NewGame,
                Event::Play(nogo::point(4, 4)),
                Event::Reply("=\n".to_string())
            ]
        );
        assert_eq!(g.pos.side_to_move(), Color::White);
    }
}
