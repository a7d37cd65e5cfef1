//! One game on the class server: who plays it, its moves, its move clock and how it ended, with
//! the `check_game` view of it and its form on disk. Rules only: no HTTP and no logins here.

use crate::game::gomoku::{
    parse_seed_move, seed_game_text, seed_move_text, Gomoku, Point, SEED_SIZE,
};
use crate::game::{Color, Game, IllegalMove, Outcome};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The seed's limit: a player who has not moved 60 seconds after the turn began loses.
pub const MOVE_LIMIT: Duration = Duration::from_secs(60);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The login name.
    pub user: String,
    /// The nickname shown to others (`creator_name`, `opponent_name`).
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Five (or more) in a row.
    Five,
    /// The player to move let the move clock run out.
    Time,
    /// The board filled with no five.
    FullBoard,
}

impl EndReason {
    fn key(self) -> &'static str {
        match self {
            EndReason::Five => "five",
            EndReason::Time => "time",
            EndReason::FullBoard => "full board",
        }
    }

    fn from_key(key: &str) -> Option<EndReason> {
        [EndReason::Five, EndReason::Time, EndReason::FullBoard]
            .into_iter()
            .find(|r| r.key() == key)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The winner's login name; `None` for a draw.
    pub winner: Option<String>,
    pub reason: EndReason,
    /// The stones of the winning line, for `win_step`.
    pub win_line: Vec<Point>,
    /// The order in which games finished: ratings are replayed in this order after a restart.
    pub sequence: u64,
    /// The rating changes of the creator and the opponent, once recorded.
    pub rating_changes: Option<(f64, f64)>,
}

#[derive(Clone, Debug)]
pub struct ServerGame {
    pub id: String,
    pub creator: Player,
    pub opponent: Option<Player>,
    /// Which side the creator plays; drawn when the opponent arrives.
    pub creator_black: bool,
    pub moves: Vec<Point>,
    pub ending: Option<Ending>,
    /// When the creator asked for the game (Unix seconds), for listings.
    pub created_unix: u64,
    /// When the game began waiting for an opponent (not kept on disk).
    pub waiting_since: Instant,
    /// When the current turn's clock started (not kept on disk: after a restart the player to
    /// move gets a whole new minute, since the server's down time is not theirs).
    pub turn_started: Instant,
}

/// Why a move was refused; the text is what the client sees in `error`.
pub type Refusal = String;

impl ServerGame {
    pub fn new(id: String, creator: Player, created_unix: u64, now: Instant) -> ServerGame {
        ServerGame {
            id,
            creator,
            opponent: None,
            creator_black: true,
            moves: Vec::new(),
            ending: None,
            created_unix,
            waiting_since: now,
            turn_started: now,
        }
    }

    /// The second player arrives: the game is ready and Black's clock starts.
    pub fn pair(&mut self, opponent: Player, creator_black: bool, now: Instant) {
        self.opponent = Some(opponent);
        self.creator_black = creator_black;
        self.turn_started = now;
    }

    pub fn ready(&self) -> bool {
        self.opponent.is_some()
    }

    pub fn finished(&self) -> bool {
        self.ending.is_some()
    }

    pub fn is_player(&self, user: &str) -> bool {
        self.creator.user == user || self.opponent.as_ref().is_some_and(|o| o.user == user)
    }

    /// The player of a colour, once the game is paired.
    pub fn player(&self, c: Color) -> Option<&Player> {
        let creator_has_it = (c == Color::Black) == self.creator_black;
        if creator_has_it {
            Some(&self.creator)
        } else {
            self.opponent.as_ref()
        }
    }

    pub fn stone_of(&self, user: &str) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|&c| self.player(c).is_some_and(|p| p.user == user))
    }

    /// Black moves first, then the sides alternate.
    pub fn side_to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The player whose move it is, while the game runs.
    pub fn current_player(&self) -> Option<&Player> {
        if !self.ready() || self.finished() {
            return None;
        }
        self.player(self.side_to_move())
    }

    /// What is left of the move clock (the whole minute before the game starts, nothing after).
    pub fn left_time(&self, now: Instant) -> Duration {
        if self.finished() {
            return Duration::ZERO;
        }
        if !self.ready() {
            return MOVE_LIMIT;
        }
        MOVE_LIMIT.saturating_sub(now.saturating_duration_since(self.turn_started))
    }

    /// Ends the game on time if the player to move has run out. True when it ended just now.
    pub fn expire(&mut self, now: Instant, sequence: u64) -> bool {
        if self.current_player().is_none() || !self.left_time(now).is_zero() {
            return false;
        }
        let winner = self
            .player(self.side_to_move().opponent())
            .map(|p| p.user.clone());
        self.ending = Some(Ending {
            winner,
            reason: EndReason::Time,
            win_line: Vec::new(),
            sequence,
            rating_changes: None,
        });
        true
    }

    /// The position after the moves. Moves on disk were checked when played, but a hand-edited
    /// file is refused here rather than trusted.
    pub fn position(&self) -> Result<Gomoku, String> {
        let mut g = Gomoku::default();
        for (i, &p) in self.moves.iter().enumerate() {
            g.check_move(p).map_err(|e| {
                format!(
                    "game {}: move {} ({}) is illegal: {e:?}",
                    self.id,
                    i + 1,
                    describe(p)
                )
            })?;
            g.play(p);
        }
        Ok(g)
    }

    /// Plays `coord` for `user`, or says why not and changes nothing. True when the move ended
    /// the game (the caller then records the ratings).
    pub fn play(
        &mut self,
        user: &str,
        coord: &str,
        now: Instant,
        sequence: u64,
    ) -> Result<bool, Refusal> {
        if !self.is_player(user) {
            return Err(format!("{user} is not a player of game {}", self.id));
        }
        if !self.ready() {
            return Err("the game has not started: it is waiting for an opponent".to_string());
        }
        if let Some(end) = &self.ending {
            return Err(format!("the game is over: {}", self.result_text_of(end)));
        }
        let Some(mover) = self.current_player() else {
            return Err("nobody is to move".to_string());
        };
        if mover.user != user {
            return Err(format!(
                "not your turn: it is {}'s turn ({})",
                mover.user,
                stone_letter(self.side_to_move())
            ));
        }
        let p =
            parse_seed_move(coord.trim()).map_err(|e| format!("bad coordinate {coord:?}: {e}"))?;
        let mut g = self.position()?;
        match g.check_move(p) {
            Ok(()) => {}
            Err(IllegalMove::Occupied) => {
                return Err(format!("{} is already occupied", seed_move_text(p)))
            }
            Err(e) => return Err(format!("{} cannot be played: {e:?}", seed_move_text(p))),
        }
        let mover_color = self.side_to_move();
        g.play(p);
        self.moves.push(p);
        self.turn_started = now;
        match g.outcome() {
            None => Ok(false),
            Some(Outcome::Win(c)) => {
                debug_assert_eq!(c, mover_color);
                self.ending = Some(Ending {
                    winner: Some(user.to_string()),
                    reason: EndReason::Five,
                    win_line: winning_line(&g, p),
                    sequence,
                    rating_changes: None,
                });
                Ok(true)
            }
            Some(Outcome::Draw) => {
                self.ending = Some(Ending {
                    winner: None,
                    reason: EndReason::FullBoard,
                    win_line: Vec::new(),
                    sequence,
                    rating_changes: None,
                });
                Ok(true)
            }
        }
    }

    fn result_text_of(&self, end: &Ending) -> String {
        match (&end.winner, end.reason) {
            (Some(w), EndReason::Five) => format!("{w} won with five in a row"),
            (Some(w), _) => {
                let loser = self
                    .player(self.side_to_move())
                    .map_or("the other player", |p| p.user.as_str());
                format!(
                    "{w} won: {loser} did not move within {} seconds",
                    MOVE_LIMIT.as_secs()
                )
            }
            (None, _) => "a draw: the board is full".to_string(),
        }
    }

    /// A sentence saying how the game ended, if it has.
    pub fn result_text(&self) -> Option<String> {
        self.ending.as_ref().map(|e| self.result_text_of(e))
    }

    /// The `check_game` answer: every field the seed lists, plus `finished`, `result`,
    /// `move_limit`, and the rating changes once the game is over.
    pub fn view(&self, now: Instant) -> Value {
        let stone = |user: Option<&Player>| {
            user.and_then(|p| self.stone_of(&p.user))
                .filter(|_| self.ready())
                .map(stone_letter)
        };
        let current = self.current_player();
        let ending = self.ending.as_ref();
        let mut v = json!({
            "is_success": true,
            "error": Value::Null,
            "game_id": self.id,
            "step": self.moves.len(),
            "creator": self.creator.user,
            "creator_name": self.creator.name,
            "creator_stone": stone(Some(&self.creator)),
            "opponent": self.opponent.as_ref().map(|p| p.user.clone()),
            "opponent_name": self.opponent.as_ref().map(|p| p.name.clone()),
            "opponent_stone": stone(self.opponent.as_ref()),
            "ready": self.ready(),
            "current_turn": current.map(|p| p.user.clone()),
            "current_stone": current.map(|_| stone_letter(self.side_to_move())),
            "left_time": self.left_time(now).as_secs(),
            "winner": ending.and_then(|e| e.winner.clone()),
            "board": seed_game_text(&self.moves),
            "last_step": self.moves.last().map(|&p| seed_move_text(p)),
            "win_step": ending
                .filter(|e| !e.win_line.is_empty())
                .map(|e| seed_game_text(&e.win_line)),
            "finished": self.finished(),
            "result": self.result_text(),
            "move_limit": MOVE_LIMIT.as_secs(),
        });
        if let Some((c, o)) = ending.and_then(|e| e.rating_changes) {
            v["creator_elo_change"] = json!(round2(c));
            v["opponent_elo_change"] = json!(round2(o));
        }
        v
    }

    /// The game as it is kept on disk.
    pub fn to_json(&self) -> Value {
        let player = |p: &Player| json!({"user": p.user, "name": p.name});
        json!({
            "id": self.id,
            "created_unix": self.created_unix,
            "creator": player(&self.creator),
            "opponent": self.opponent.as_ref().map(player),
            "creator_stone": if self.creator_black { "x" } else { "o" },
            "moves": seed_game_text(&self.moves),
            "ending": self.ending.as_ref().map(|e| json!({
                "winner": e.winner,
                "reason": e.reason.key(),
                "win_line": seed_game_text(&e.win_line),
                "sequence": e.sequence,
                "rating_changes": e.rating_changes.map(|(c, o)| [c, o]),
            })),
        })
    }

    /// Reads a game written by `to_json`; the moves are replayed and must be legal.
    pub fn from_json(v: &Value, now: Instant) -> Result<ServerGame, String> {
        let text = |v: &Value, key: &str| -> Result<String, String> {
            v.get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("missing text field {key:?}"))
        };
        let player = |v: &Value| -> Result<Player, String> {
            Ok(Player {
                user: text(v, "user")?,
                name: text(v, "name")?,
            })
        };
        let points = |s: &str| crate::game::gomoku::parse_seed_moves(s);
        let creator = player(v.get("creator").ok_or("missing creator")?)?;
        let opponent = match v.get("opponent") {
            None | Some(Value::Null) => None,
            Some(o) => Some(player(o)?),
        };
        let ending = match v.get("ending") {
            None | Some(Value::Null) => None,
            Some(e) => Some(Ending {
                winner: e.get("winner").and_then(Value::as_str).map(str::to_string),
                reason: EndReason::from_key(&text(e, "reason")?).ok_or("unknown ending reason")?,
                win_line: points(&text(e, "win_line")?)?,
                sequence: e
                    .get("sequence")
                    .and_then(Value::as_u64)
                    .ok_or("missing sequence")?,
                rating_changes: e
                    .get("rating_changes")
                    .and_then(Value::as_array)
                    .and_then(|a| Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?))),
            }),
        };
        let game = ServerGame {
            id: text(v, "id")?,
            creator,
            opponent,
            creator_black: text(v, "creator_stone")? == "x",
            moves: points(&text(v, "moves")?)?,
            ending,
            created_unix: v.get("created_unix").and_then(Value::as_u64).unwrap_or(0),
            waiting_since: now,
            turn_started: now,
        };
        game.position()?;
        Ok(game)
    }
}

/// `x` for Black, `o` for White: the seed's stone letters.
pub fn stone_letter(c: Color) -> &'static str {
    match c {
        Color::Black => "x",
        Color::White => "o",
    }
}

fn describe(p: Point) -> String {
    if (p as usize) < SEED_SIZE * SEED_SIZE {
        seed_move_text(p)
    } else {
        format!("point {p}")
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The stones of the line of five or more through `p`, from one end to the other.
fn winning_line(g: &Gomoku, p: Point) -> Vec<Point> {
    let n = SEED_SIZE as i64;
    let Some(owner) = g.color_at(p) else {
        return Vec::new();
    };
    let (x0, y0) = ((p as i64) % n, (p as i64) / n);
    let same = |x: i64, y: i64| {
        (0..n).contains(&x)
            && (0..n).contains(&y)
            && g.color_at((y * n + x) as Point) == Some(owner)
    };
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let mut start = 0;
        while same(x0 + (start - 1) * dx, y0 + (start - 1) * dy) {
            start -= 1;
        }
        let mut end = 0;
        while same(x0 + (end + 1) * dx, y0 + (end + 1) * dy) {
            end += 1;
        }
        if end - start + 1 >= 5 {
            return (start..=end)
                .map(|k| ((y0 + k * dy) * n + x0 + k * dx) as Point)
                .collect();
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(u: &str) -> Player {
        Player {
            user: u.to_string(),
            name: u.to_uppercase(),
        }
    }

    fn paired(now: Instant) -> ServerGame {
        let mut g = ServerGame::new("g1".into(), player("ann"), 0, now);
        g.pair(player("bob"), true, now);
        g
    }

    #[test]
    fn a_game_is_played_to_five_and_names_its_line() {
        let now = Instant::now();
        let mut g = paired(now);
        let moves = ["HH", "AA", "HI", "AB", "HJ", "AC", "HK", "AD"];
        for (i, m) in moves.iter().enumerate() {
            let user = if i % 2 == 0 { "ann" } else { "bob" };
            assert_eq!(g.play(user, m, now, 1), Ok(false));
        }
        assert_eq!(g.play("ann", "HG", now, 7), Ok(true));
        let v = g.view(now);
        assert_eq!(v["winner"], "ann");
        assert_eq!(v["win_step"], "HGHHHIHJHK");
        assert_eq!(v["board"], "HHAAHIABHJACHKADHG");
        assert_eq!(v["last_step"], "HG");
        assert_eq!(v["step"], 9);
        assert_eq!(v["current_turn"], Value::Null);
        assert_eq!(g.ending.as_ref().unwrap().sequence, 7);
        assert!(g.play("bob", "AE", now, 8).unwrap_err().contains("over"));
    }

    #[test]
    fn refused_moves_change_nothing() {
        let now = Instant::now();
        let mut g = ServerGame::new("g1".into(), player("ann"), 0, now);
        assert!(g.play("ann", "HH", now, 1).unwrap_err().contains("waiting"));
        g.pair(player("bob"), false, now);
        // bob is Black.
        g.play("bob", "HH", now, 1).unwrap();
        let before = g.to_json();
        for (user, coord, needle) in [
            ("bob", "HI", "not your turn"),
            ("cat", "HI", "not a player"),
            ("ann", "HH", "occupied"),
            ("ann", "ZZ", "bad coordinate"),
            ("ann", "H", "bad coordinate"),
            ("ann", "hh", "bad coordinate"),
            ("ann", "", "bad coordinate"),
        ] {
            let e = g.play(user, coord, now, 2).unwrap_err();
            assert!(e.contains(needle), "{user} {coord}: {e}");
            assert_eq!(g.to_json(), before);
        }
    }

    #[test]
    fn the_clock_ends_the_game_for_the_player_who_let_it_run() {
        let start = Instant::now();
        let mut g = paired(start);
        g.play("ann", "HH", start, 1).unwrap();
        assert!(!g.expire(start + Duration::from_secs(59), 1));
        assert_eq!(
            g.left_time(start + Duration::from_secs(59)),
            Duration::from_secs(1)
        );
        assert!(g.expire(start + MOVE_LIMIT, 3));
        assert_eq!(g.ending.as_ref().unwrap().winner.as_deref(), Some("ann"));
        assert!(g.result_text().unwrap().contains("bob did not move"));
        // Only once.
        assert!(!g.expire(start + MOVE_LIMIT * 2, 4));
    }

    #[test]
    fn stones_and_turns_follow_the_draw_of_colours() {
        let now = Instant::now();
        let mut g = ServerGame::new("g1".into(), player("ann"), 0, now);
        let v = g.view(now);
        assert_eq!(v["ready"], false);
        assert_eq!(v["creator_stone"], Value::Null);
        assert_eq!(v["current_turn"], Value::Null);
        assert_eq!(v["left_time"], 60);
        g.pair(player("bob"), false, now);
        let v = g.view(now);
        assert_eq!(
            (v["creator_stone"].as_str(), v["opponent_stone"].as_str()),
            (Some("o"), Some("x"))
        );
        assert_eq!(
            (v["current_turn"].as_str(), v["current_stone"].as_str()),
            (Some("bob"), Some("x"))
        );
        assert_eq!(v["opponent_name"], "BOB");
    }

    #[test]
    fn games_survive_the_trip_to_disk() {
        let now = Instant::now();
        let mut g = paired(now);
        for (i, m) in ["HH", "AA", "HI", "AB", "HJ", "AC", "HK", "AD", "HL"]
            .iter()
            .enumerate()
        {
            g.play(if i % 2 == 0 { "ann" } else { "bob" }, m, now, 5)
                .unwrap();
        }
        g.ending.as_mut().unwrap().rating_changes = Some((16.0, -16.0));
        let back = ServerGame::from_json(&g.to_json(), now).unwrap();
        assert_eq!(back.to_json(), g.to_json());
        assert_eq!(back.view(now)["creator_elo_change"], 16.0);

        let mut broken = g.to_json();
        broken["moves"] = json!("HHHH");
        assert!(ServerGame::from_json(&broken, now)
            .unwrap_err()
            .contains("illegal"));
        assert!(ServerGame::from_json(&json!({"id": "x"}), now).is_err());
    }
}
