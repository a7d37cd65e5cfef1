//! The class server's state and its answers, one function per endpoint. Requests arrive here as
//! a map of parameters and leave as the JSON to send back; HTTP itself is in `http_server.rs`.
//!
//! Every answer has `is_success`; a refused request has `is_success: false` and an `error`
//! sentence, and changes nothing.

use super::elo;
use super::game::{Player, ServerGame};
use super::rsa::{KeyPair, PrivateKey};
use super::store::Store;
use super::users::{valid_user_name, Users};
use crate::engine::gomoku::level::Level;
use rand::rngs::SmallRng;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Request parameters, from the query string, a form or a JSON body.
pub type Params = BTreeMap<String, String>;

/// The built-in engine that plays a lone student after a wait.
#[derive(Clone, Debug)]
pub struct BotSettings {
    pub user: String,
    pub name: String,
    pub level: Level,
    /// Thinking time per move (kept well inside the move limit).
    pub move_time: Duration,
    /// How long a lone player waits for a classmate before the engine joins.
    pub after: Duration,
}

pub struct Classroom {
    users: Users,
    key: KeyPair,
    store: Store,
    games: BTreeMap<String, ServerGame>,
    /// The games not over yet (waiting or playing): what the clock and the pairing walk on
    /// every request, while finished games pile up by the thousand.
    unfinished: BTreeSet<String>,
    ratings: elo::Table,
    next_sequence: u64,
    rng: SmallRng,
    bot: Option<BotSettings>,
    /// What happened, for the server's log (taken by the caller).
    events: Vec<String>,
}

/// Elo for a finished game. The changes are kept in the game for `check_game` (when it has
/// them already, as after a restart, they stay as they were) and returned.
fn record_ratings(ratings: &mut elo::Table, g: &mut ServerGame) -> (f64, f64) {
    let (Some(end), Some(opponent)) = (g.ending.as_mut(), g.opponent.as_ref()) else {
        return (0.0, 0.0);
    };
    let changes = ratings.record(&g.creator.user, &opponent.user, end.winner.as_deref());
    *end.rating_changes.get_or_insert(changes)
}

/// A login's user name and decrypted password (salt cut off), or why it cannot be one. The
/// decryption is the slow part of a request, so it is made before the server's lock is taken.
pub struct Login(Result<(String, Vec<u8>), String>);

/// Reads `user` and decrypts `password` from a request's parameters.
pub fn decrypt_login(key: &PrivateKey, params: &Params) -> Login {
    Login((|| {
        let user = required(params, "user")?;
        let hex = required(params, "password")?;
        let plain = key
            .decrypt_password(hex)
            .map_err(|e| format!("login failed: {e}"))?;
        Ok((user.to_string(), plain))
    })())
}

/// A refused request.
pub fn failure(error: impl Into<String>) -> Value {
    json!({"is_success": false, "error": error.into()})
}

fn required<'a>(params: &'a Params, key: &str) -> Result<&'a str, String> {
    match params.get(key).map(|v| v.trim()) {
        Some(v) if !v.is_empty() => Ok(v),
        Some(_) => Err(format!("the parameter '{key}' is empty")),
        None => Err(format!("missing parameter '{key}'")),
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Classroom {
    /// The server's state from its data folder: the games are read back and the ratings
    /// replayed in the order the games finished.
    pub fn open(
        users: Users,
        key: KeyPair,
        store: Store,
        bot: Option<BotSettings>,
        rng: SmallRng,
        now: Instant,
    ) -> Result<Classroom, String> {
        if let Some(b) = &bot {
            if !valid_user_name(&b.user) {
                return Err(format!("{:?} cannot be the engine's user name", b.user));
            }
            if users.get(&b.user).is_some() {
                return Err(format!(
                    "the users file has a student called {:?}, the built-in engine's name; \
                     give the engine another with --bot-user",
                    b.user
                ));
            }
        }
        let mut c = Classroom {
            users,
            key,
            store,
            games: BTreeMap::new(),
            unfinished: BTreeSet::new(),
            ratings: elo::Table::default(),
            next_sequence: 1,
            rng,
            bot,
            events: Vec::new(),
        };
        let mut games = c.store.load_games(now)?;
        games.sort_by_key(|g| g.ending.as_ref().map_or(u64::MAX, |e| e.sequence));
        for mut g in games {
            if let Some(seq) = g.ending.as_ref().map(|e| e.sequence) {
                c.next_sequence = c.next_sequence.max(seq + 1);
                record_ratings(&mut c.ratings, &mut g);
            } else {
                c.unfinished.insert(g.id.clone());
            }
            c.games.insert(g.id.clone(), g);
        }
        Ok(c)
    }

    pub fn key_bits(&self) -> u64 {
        self.key.public.n.bits()
    }

    pub fn take_events(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }

    fn save(&mut self, id: &str) {
        if let Some(g) = self.games.get(id) {
            if let Err(e) = self.store.save_game(g) {
                self.events.push(format!("ERROR: {e}"));
            }
        }
    }

    fn game_ended(&mut self, id: &str) {
        self.next_sequence += 1;
        self.unfinished.remove(id);
        if let Some(g) = self.games.get_mut(id) {
            let (creator_change, opponent_change) = record_ratings(&mut self.ratings, g);
            self.events.push(format!(
                "game {id} over: {} (Elo {} {creator_change:+.1}, {} {opponent_change:+.1})",
                g.result_text().unwrap_or_default(),
                g.creator.user,
                g.opponent.as_ref().map_or("?", |o| o.user.as_str()),
            ));
        }
        self.save(id);
    }

    /// A copy of the private key, for `decrypt_login` outside the lock.
    pub fn private_key(&self) -> PrivateKey {
        self.key.private.clone()
    }

    /// Checks a decrypted login against the class list; the user's login name on success.
    fn check_login(&self, login: Login) -> Result<String, String> {
        let (user, plain) = login.0?;
        if !self.users.check(&user, &plain) {
            return Err("login failed: unknown user or wrong password".to_string());
        }
        Ok(user)
    }

    fn display_name(&self, user: &str, params: &Params) -> Result<String, String> {
        match params
            .get("name")
            .map(|n| n.trim())
            .filter(|n| !n.is_empty())
        {
            Some(n) if n.chars().count() > 40 || n.chars().any(char::is_control) => Err(
                "the parameter 'name' must be at most 40 characters, without control characters"
                    .to_string(),
            ),
            Some(n) => Ok(n.to_string()),
            None => Ok(self
                .users
                .get(user)
                .and_then(|a| a.name.clone())
                .unwrap_or_else(|| user.to_string())),
        }
    }

    fn new_game_id(&mut self) -> String {
        loop {
            let id = format!(
                "{:016x}{:016x}",
                self.rng.gen::<u64>(),
                self.rng.gen::<u64>()
            );
            if !self.games.contains_key(&id) {
                return id;
            }
        }
    }

    /// `join_game`: the user's unfinished game if there is one (a client that restarts picks
    /// its game up again), else a classmate's waiting game, else a new game that waits.
    pub fn join(&mut self, params: &Params, now: Instant) -> Value {
        let login = decrypt_login(&self.key.private, params);
        self.join_as(login, params, now)
    }

    /// `join_game` with the password already decrypted.
    pub fn join_as(&mut self, login: Login, params: &Params, now: Instant) -> Value {
        let user = match self.check_login(login) {
            Ok(u) => u,
            Err(e) => return failure(e),
        };
        let name = match self.display_name(&user, params) {
            Ok(n) => n,
            Err(e) => return failure(e),
        };
        if let Some(g) = self.unfinished_games().find(|g| g.is_player(&user)) {
            return json!({"is_success": true, "game_id": g.id, "resumed": true});
        }
        let waiting = self
            .unfinished_games()
            .filter(|g| !g.ready())
            .min_by_key(|g| g.waiting_since)
            .map(|g| g.id.clone());
        let id = match waiting {
            Some(id) => {
                self.pair(&id, Player { user, name }, now);
                id
            }
            None => {
                let id = self.new_game_id();
                let g = ServerGame::new(
                    id.clone(),
                    Player {
                        user: user.clone(),
                        name,
                    },
                    unix_now(),
                    now,
                );
                self.games.insert(id.clone(), g);
                self.unfinished.insert(id.clone());
                self.events
                    .push(format!("game {id}: {user} waits for an opponent"));
                id
            }
        };
        self.save(&id);
        json!({"is_success": true, "game_id": id, "resumed": false})
    }

    /// `check_game/{id}`: no login needed.
    pub fn check(&mut self, id: &str, now: Instant) -> Value {
        self.tick(now);
        match self.games.get(id) {
            Some(g) => g.view(now),
            None => failure(format!("no game with id {id:?}")),
        }
    }

    /// `play_game/{id}`: login, then the move in `coord`.
    pub fn play(&mut self, id: &str, params: &Params, now: Instant) -> Value {
        let login = decrypt_login(&self.key.private, params);
        self.play_as_login(id, login, params, now)
    }

    /// `play_game/{id}` with the password already decrypted.
    pub fn play_as_login(
        &mut self,
        id: &str,
        login: Login,
        params: &Params,
        now: Instant,
    ) -> Value {
        self.tick(now);
        let user = match self.check_login(login) {
            Ok(u) => u,
            Err(e) => return failure(e),
        };
        let coord = match required(params, "coord") {
            Ok(c) => c.to_string(),
            Err(e) => return failure(e),
        };
        self.play_as(id, &user, &coord, now)
    }

    /// A move by a logged-in user (or by the built-in engine).
    fn play_as(&mut self, id: &str, user: &str, coord: &str, now: Instant) -> Value {
        let sequence = self.next_sequence;
        let Some(g) = self.games.get_mut(id) else {
            return failure(format!("no game with id {id:?}"));
        };
        match g.play(user, coord, now, sequence) {
            Err(e) => failure(e),
            Ok(ended) => {
                let step = g.moves.len();
                self.events
                    .push(format!("game {id}: move {step}: {user} {}", coord.trim()));
                if ended {
                    self.game_ended(id);
                } else {
                    self.save(id);
                }
                self.games
                    .get(id)
                    .map_or_else(|| failure("lost the game"), |g| g.view(now))
            }
        }
    }

    /// Time passing: clocks that ran out end their games, and lone players who waited long
    /// enough get the built-in engine as their opponent.
    pub fn tick(&mut self, now: Instant) {
        let late: Vec<String> = self
            .unfinished_games()
            .filter(|g| g.ready() && g.left_time(now).is_zero())
            .map(|g| g.id.clone())
            .collect();
        for id in late {
            let sequence = self.next_sequence;
            let expired = self
                .games
                .get_mut(&id)
                .is_some_and(|g| g.expire(now, sequence));
            if expired {
                self.game_ended(&id);
            }
        }
        let Some(bot) = self.bot.clone() else { return };
        let lonely: Vec<String> = self
            .unfinished_games()
            .filter(|g| !g.ready() && now.saturating_duration_since(g.waiting_since) >= bot.after)
            .map(|g| g.id.clone())
            .collect();
        for id in lonely {
            let engine = Player {
                user: bot.user.clone(),
                name: bot.name.clone(),
            };
            self.pair(&id, engine, now);
        }
    }

    fn unfinished_games(&self) -> impl Iterator<Item = &ServerGame> {
        self.unfinished.iter().filter_map(|id| self.games.get(id))
    }

    /// How many more games `user` has played as Black than as White.
    fn black_surplus(&self, user: &str) -> i64 {
        self.games
            .values()
            .filter(|g| g.ready())
            .map(|g| match g.stone_of(user) {
                Some(crate::game::Color::Black) => 1,
                Some(crate::game::Color::White) => -1,
                None => 0,
            })
            .sum()
    }

    /// The opponent arrives in a waiting game. Black moves first and wins most gomoku games,
    /// so the player who has had Black less often gets it; between equals, a coin decides.
    fn pair(&mut self, id: &str, opponent: Player, now: Instant) {
        let Some(creator) = self.games.get(id).map(|g| g.creator.user.clone()) else {
            return;
        };
        let creator_black = match self
            .black_surplus(&creator)
            .cmp(&self.black_surplus(&opponent.user))
        {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => self.rng.gen_bool(0.5),
        };
        let (black, white) = if creator_black {
            (creator.clone(), opponent.user.clone())
        } else {
            (opponent.user.clone(), creator.clone())
        };
        if let Some(g) = self.games.get_mut(id) {
            g.pair(opponent, creator_black, now);
            self.events
                .push(format!("game {id}: {black} (x) against {white} (o)"));
        }
        self.save(id);
    }

    /// A game where the built-in engine is to move: its id, moves so far and time left.
    pub fn engine_turn(&self, now: Instant) -> Option<(String, Vec<u16>, Duration)> {
        let bot = self.bot.as_ref()?;
        self.unfinished_games()
            .find(|g| g.current_player().is_some_and(|p| p.user == bot.user))
            .map(|g| (g.id.clone(), g.moves.clone(), g.left_time(now)))
    }

    /// The engine's move, if the game is still where the engine saw it.
    pub fn engine_move(&mut self, id: &str, step: usize, coord: &str, now: Instant) -> Value {
        let Some(bot) = self.bot.clone() else {
            return failure("no built-in engine");
        };
        if self.games.get(id).map(|g| g.moves.len()) != Some(step) {
            return failure("the game moved on while the engine thought");
        }
        self.play_as(id, &bot.user, coord, now)
    }

    /// `public_key`: the key as the seed prints it (`e,n` in decimal) and as separate fields.
    pub fn public_key(&self) -> Value {
        let k = &self.key.public;
        json!({
            "is_success": true,
            "public_key": k.to_text(),
            "e": k.e.to_string(),
            "n": k.n.to_string(),
            "bits": k.n.bits(),
        })
    }

    /// `elo`: the rating table, best first.
    pub fn ratings(&self) -> Value {
        let rows: Vec<Value> = self
            .ratings
            .standings()
            .into_iter()
            .enumerate()
            .map(|(i, (user, s))| {
                json!({
                    "rank": i + 1,
                    "user": user,
                    "elo": (s.rating * 10.0).round() / 10.0,
                    "games": s.games,
                    "wins": s.wins,
                    "losses": s.losses,
                    "draws": s.draws,
                })
            })
            .collect();
        json!({"is_success": true, "initial": elo::INITIAL_RATING, "k": elo::K_FACTOR, "ratings": rows})
    }

    /// `games`: every game, newest first, in brief.
    pub fn game_list(&self, now: Instant) -> Value {
        let mut games: Vec<&ServerGame> = self.games.values().collect();
        games.sort_by_key(|g| std::cmp::Reverse(g.created_unix));
        let rows: Vec<Value> = games
            .into_iter()
            .map(|g| {
                let v = g.view(now);
                json!({
                    "game_id": g.id,
                    "creator": v["creator"],
                    "opponent": v["opponent"],
                    "step": v["step"],
                    "ready": v["ready"],
                    "finished": v["finished"],
                    "winner": v["winner"],
                    "result": v["result"],
                })
            })
            .collect();
        json!({"is_success": true, "games": rows})
    }

    pub fn user_count(&self) -> usize {
        self.users.len()
    }

    pub fn game_count(&self) -> usize {
        self.games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    struct Fixture {
        class: Classroom,
        key: KeyPair,
        dir: std::path::PathBuf,
    }

    fn fixture(tag: &str, bot: Option<BotSettings>) -> Fixture {
        let dir =
            std::env::temp_dir().join(format!("stonebrain-class-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir).unwrap();
        let mut rng = SmallRng::seed_from_u64(5);
        let (key, _) = store.key_pair(1024, &mut rng).unwrap();
        let users = Users::parse("ann pw-ann Ann\nbob pw-bob\n").unwrap();
        let class = Classroom::open(users, key.clone(), store, bot, rng, Instant::now()).unwrap();
        Fixture { class, key, dir }
    }

    fn login(f: &Fixture, user: &str, pw: &str) -> Params {
        let mut p = Params::new();
        p.insert("user".into(), user.into());
        p.insert(
            "password".into(),
            f.key.public.encrypt_password(pw, None).unwrap(),
        );
        p
    }

    #[test]
    fn two_joins_make_a_game_and_a_third_resumes() {
        let mut f = fixture("join", None);
        let now = Instant::now();
        let a = f.class.join(&login(&f, "ann", "pw-ann"), now);
        let id = a["game_id"].as_str().unwrap().to_string();
        assert_eq!(id.len(), 32);
        assert_eq!(f.class.check(&id, now)["ready"], false);
        let b = f.class.join(&login(&f, "bob", "pw-bob"), now);
        assert_eq!(b["game_id"], id.as_str());
        let v = f.class.check(&id, now);
        assert_eq!(v["ready"], true);
        assert_eq!(v["creator_name"], "Ann");
        assert_eq!(v["opponent_name"], "bob");
        let again = f.class.join(&login(&f, "ann", "pw-ann"), now);
        assert_eq!(
            (again["game_id"].as_str(), again["resumed"].as_bool()),
            (Some(id.as_str()), Some(true))
        );
        let _ = std::fs::remove_dir_all(&f.dir);
    }

    #[test]
    fn black_goes_to_whoever_has_had_it_less() {
        let mut f = fixture("colours", None);
        let mut now = Instant::now();
        let mut blacks = Vec::new();
        for _ in 0..4 {
            let id = f.class.join(&login(&f, "ann", "pw-ann"), now)["game_id"]
                .as_str()
                .unwrap()
                .to_string();
            f.class.join(&login(&f, "bob", "pw-bob"), now);
            let v = f.class.check(&id, now);
            blacks.push(v["current_turn"].as_str().unwrap().to_string());
            // Black lets the clock run out; the next game may begin.
            now += Duration::from_secs(61);
            assert_eq!(f.class.check(&id, now)["finished"], true);
        }
        assert_ne!(blacks[0], blacks[1], "{blacks:?}");
        assert_ne!(blacks[2], blacks[3], "{blacks:?}");
        let _ = std::fs::remove_dir_all(&f.dir);
    }

    #[test]
    fn bad_logins_are_refused() {
        let mut f = fixture("login", None);
        let now = Instant::now();
        let wrong = f.class.join(&login(&f, "ann", "pw-bob"), now);
        assert_eq!(wrong["is_success"], false);
        assert!(wrong["error"].as_str().unwrap().contains("login failed"));
        let unknown = f.class.join(&login(&f, "zed", "pw-ann"), now);
        assert!(unknown["error"].as_str().unwrap().contains("login failed"));
        let mut not_hex = login(&f, "ann", "pw-ann");
        not_hex.insert("password".into(), "pw-ann".into());
        assert!(f.class.join(&not_hex, now)["error"]
            .as_str()
            .unwrap()
            .contains("hexadecimal"));
        let mut missing = Params::new();
        missing.insert("user".into(), "ann".into());
        assert!(f.class.join(&missing, now)["error"]
            .as_str()
            .unwrap()
            .contains("'password'"));
        assert_eq!(f.class.game_count(), 0, "no refused join makes a game");
        let _ = std::fs::remove_dir_all(&f.dir);
    }

    #[test]
    fn a_lone_player_gets_the_engine_and_the_result_moves_the_ratings() {
        let bot = BotSettings {
            user: "stonebrain".into(),
            name: "stonebrain (built-in)".into(),
            level: Level::Classic,
            move_time: Duration::from_millis(10),
            after: Duration::from_secs(30),
        };
        let mut f = fixture("bot", Some(bot));
        let now = Instant::now();
        let id = f.class.join(&login(&f, "ann", "pw-ann"), now)["game_id"]
            .as_str()
            .unwrap()
            .to_string();
        f.class.tick(now + Duration::from_secs(29));
        assert_eq!(
            f.class.check(&id, now + Duration::from_secs(29))["ready"],
            false
        );
        let later = now + Duration::from_secs(30);
        let v = f.class.check(&id, later);
        assert_eq!(v["opponent"], "stonebrain");
        // Nobody moves for a minute: whoever is Black loses on time.
        let black = v["current_turn"].as_str().unwrap().to_string();
        let end = later + Duration::from_secs(61);
        let v = f.class.check(&id, end);
        assert_eq!(v["finished"], true);
        assert_ne!(v["winner"].as_str(), Some(black.as_str()));
        assert_eq!(v["creator_elo_change"].as_f64().unwrap().abs(), 16.0);
        let table = f.class.ratings();
        assert_eq!(table["ratings"][0]["elo"], 1516.0);
        assert_eq!(table["ratings"][1]["elo"], 1484.0);
        assert!(f.class.engine_turn(end).is_none());
        let _ = std::fs::remove_dir_all(&f.dir);
    }
}
