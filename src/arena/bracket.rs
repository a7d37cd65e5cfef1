//! Seeded single-elimination brackets, as class tournaments run them (seed 003): 1 v N, 2 v N-1,
//! byes for the top seeds when the field is not a power of two, best-of series per round.

use super::record::GameRecord;

/// A bot in the bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    /// The command line that starts it (or a built-in player's name).
    pub command: String,
    /// "botzone", "botzone-keep-running", "botzone-simple", "builtin", ...
    pub protocol: String,
    /// 1 = top seed.
    pub seed: u32,
}

/// One pairing in one round.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Round number from 1.
    pub round: usize,
    /// Position in the round, from 0 (top of the drawn bracket).
    pub slot: usize,
    /// Indices into `Bracket::entrants`; `None` is a bye (or a slot still waiting for a winner).
    pub a: Option<usize>,
    pub b: Option<usize>,
    /// Games needed: best of this many.
    pub best_of: u32,
    pub games: Vec<GameRecord>,
    /// Games won by `a` and by `b` (draws count for neither).
    pub wins: [u32; 2],
    /// Index of the entrant going through.
    pub winner: Option<usize>,
}

/// A whole bracket: the field, the rounds (first round first), and the champion once known.
#[derive(Clone, Debug, PartialEq)]
pub struct Bracket {
    pub title: String,
    /// "nogo", "gomoku" or "connect6".
    pub game: String,
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<Vec<Series>>,
    pub champion: Option<usize>,
}

use super::engines::{EngineSpec, Seat};
use super::player::TimeControl;
use super::player::{ArenaGame, GameOptions};
use super::referee::play_game;
use crate::game::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// The seed numbers in bracket order for a field of `size` (a power of two): adjacent pairs meet
/// in round one, and the top two seeds can only meet in the final (1 v 8, 4 v 5, 2 v 7, 3 v 6).
pub fn seed_order(size: usize) -> Vec<u32> {
    let mut order = vec![1u32];
    while order.len() < size {
        let n = order.len() as u32 * 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    order
}

/// Reads the entrants: a JSON list of `{"name","command","protocol","seed"}`, or lines
/// `seed,name,protocol,command` (the command may contain commas; `#` starts a comment).
pub fn parse_entrants(text: &str) -> Result<Vec<Entrant>, String> {
    let entrants: Vec<Entrant> = if text.trim_start().starts_with('[') {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| format!("entrants file is not valid JSON: {e}"))?;
        let list = v
            .as_array()
            .ok_or("the entrants file must be a JSON list")?;
        list.iter()
            .enumerate()
            .map(|(i, e)| {
                let field = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_string);
                let seed = e
                    .get("seed")
                    .and_then(Value::as_u64)
                    .ok_or(format!("entrant {}: \"seed\" must be a number", i + 1))?;
                Ok(Entrant {
                    name: field("name").ok_or(format!("entrant {}: \"name\" is missing", i + 1))?,
                    command: field("command")
                        .ok_or(format!("entrant {}: \"command\" is missing", i + 1))?,
                    protocol: field("protocol").unwrap_or_else(|| "botzone".to_string()),
                    seed: seed as u32,
                })
            })
            .collect::<Result<_, String>>()?
    } else {
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.splitn(4, ',').map(str::trim).collect();
            let [seed, name, protocol, command] = parts[..] else {
                return Err(format!(
                    "entrants line {}: expected seed,name,protocol,command",
                    n + 1
                ));
            };
            let seed = seed
                .parse()
                .map_err(|_| format!("entrants line {}: seed {seed:?} is not a number", n + 1))?;
            out.push(Entrant {
                name: name.into(),
                command: command.into(),
                protocol: protocol.into(),
                seed,
            });
        }
        out
    };
    if entrants.len() < 2 {
        return Err("a bracket needs at least two entrants".to_string());
    }
    let mut seeds: Vec<u32> = entrants.iter().map(|e| e.seed).collect();
    seeds.sort_unstable();
    if seeds != (1..=entrants.len() as u32).collect::<Vec<_>>() {
        return Err(format!(
            "seeds must be 1..{} each once, got {seeds:?}",
            entrants.len()
        ));
    }
    Ok(entrants)
}

impl Entrant {
    /// The arena player this entrant is.
    pub fn spec(&self) -> Result<EngineSpec, String> {
        let pieces = if self.protocol == "builtin" {
            vec![
                format!("name={}", self.name),
                format!("builtin={}", self.command),
            ]
        } else {
            vec![
                format!("name={}", self.name),
                format!("cmd={}", self.command),
                format!("proto={}", self.protocol),
            ]
        };
        EngineSpec::parse(&pieces).map_err(|e| format!("entrant {}: {e}", self.name))
    }
}

/// How a bracket is played.
#[derive(Clone, Debug)]
pub struct BracketConfig {
    pub title: String,
    /// Best-of for every round but the last.
    pub best_of: u32,
    /// Best-of for the final.
    pub final_best_of: u32,
    pub tc: TimeControl,
    pub seed: u64,
    pub options: GameOptions,
    /// Series played at once within a round.
    pub concurrency: usize,
}

impl Bracket {
    /// The draw: the field padded to a power of two with byes for the top seeds, and every later
    /// round waiting for its winners.
    pub fn draw(
        game: &str,
        title: &str,
        entrants: Vec<Entrant>,
        config: &BracketConfig,
    ) -> Bracket {
        let size = entrants.len().next_power_of_two();
        let by_seed = |s: u32| entrants.iter().position(|e| e.seed == s);
        let order = seed_order(size);
        let rounds_count = size.trailing_zeros() as usize;
        let mut rounds = Vec::new();
        for r in 0..rounds_count {
            let count = size >> (r + 1);
            let best_of = if r + 1 == rounds_count {
                config.final_best_of
            } else {
                config.best_of
            };
            let series = (0..count)
                .map(|slot| {
                    let (a, b) = if r == 0 {
                        (by_seed(order[2 * slot]), by_seed(order[2 * slot + 1]))
                    } else {
                        (None, None)
                    };
                    Series {
                        round: r + 1,
                        slot,
                        a,
                        b,
                        best_of,
                        games: Vec::new(),
                        wins: [0, 0],
                        winner: None,
                    }
                })
                .collect();
            rounds.push(series);
        }
        Bracket {
            title: title.to_string(),
            game: game.to_string(),
            entrants,
            rounds,
            champion: None,
        }
    }

    pub fn to_json(&self) -> Value {
        let name = |i: Option<usize>| i.map(|i| self.entrants[i].name.clone());
        json!({
            "title": self.title,
            "game": self.game,
            "entrants": self.entrants.iter().map(|e| json!({
                "name": e.name, "command": e.command, "protocol": e.protocol, "seed": e.seed
            })).collect::<Vec<_>>(),
            "rounds": self.rounds.iter().map(|round| round.iter().map(|s| json!({
                "round": s.round,
                "slot": s.slot,
                "a": name(s.a),
                "b": name(s.b),
                "best_of": s.best_of,
                "score": [s.wins[0], s.wins[1]],
                "winner": name(s.winner),
                "games": s.games.iter().map(|g| g.to_json()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "champion": name(self.champion),
        })
    }
}

/// Plays one series to its end. Single games get random colours; in a series colours alternate
/// from a random start. Draws decide nothing; after `best_of + 4` games without a decision, the
/// better seed goes through.
fn play_series<G: ArenaGame>(
    bracket: &Bracket,
    series: &mut Series,
    config: &BracketConfig,
    rng_seed: u64,
) -> Result<(), String> {
    let (a, b) = match (series.a, series.b) {
        (Some(a), Some(b)) => (a, b),
        (Some(w), None) | (None, Some(w)) => {
            series.winner = Some(w);
            return Ok(());
        }
        (None, None) => return Ok(()),
    };
    let specs = [bracket.entrants[a].spec()?, bracket.entrants[b].spec()?];
    let start = G::start(&config.options)?;
    // A SAU engine stays loaded for the whole series and hears `quit` at its end.
    let (mut seat_a, mut seat_b) = (Seat::new(&specs[0]), Seat::new(&specs[1]));
    let mut rng = SmallRng::seed_from_u64(rng_seed);
    let mut a_black = rng.gen_bool(0.5);
    let needed = series.best_of / 2 + 1;
    let mut game_no = 0u64;
    while series.wins[0] < needed && series.wins[1] < needed && game_no < series.best_of as u64 + 4
    {
        let seed = rng_seed ^ (game_no << 40);
        let pa = seat_a.player(seed, &start)?;
        let pb = seat_b.player(seed ^ 0xabcd, &start)?;
        let record = if a_black {
            play_game(pa, pb, &start, &[], config.tc)
        } else {
            play_game(pb, pa, &start, &[], config.tc)
        };
        let a_color = if a_black { Color::Black } else { Color::White };
        match record.winner {
            Some(c) if c == a_color => series.wins[0] += 1,
            Some(_) => series.wins[1] += 1,
            None => {}
        }
        series.games.push(record);
        a_black = !a_black;
        game_no += 1;
    }
    series.winner = Some(if series.wins[0] > series.wins[1] {
        a
    } else if series.wins[1] > series.wins[0] {
        b
    } else if bracket.entrants[a].seed < bracket.entrants[b].seed {
        a
    } else {
        b
    });
    Ok(())
}

/// Plays the whole bracket, round by round; `on_series` hears each finished series.
pub fn run_bracket<G: ArenaGame>(
    mut bracket: Bracket,
    config: &BracketConfig,
    on_series: &(dyn Fn(&Bracket, &Series) + Sync),
) -> Result<Bracket, String> {
    let start = G::start(&config.options)?;
    for e in &bracket.entrants {
        e.spec()?.build::<G>(0, &start)?;
    }
    for r in 0..bracket.rounds.len() {
        if r > 0 {
            // Winners move on: series 2i and 2i+1 feed series i.
            for slot in 0..bracket.rounds[r].len() {
                bracket.rounds[r][slot].a = bracket.rounds[r - 1][2 * slot].winner;
                bracket.rounds[r][slot].b = bracket.rounds[r - 1][2 * slot + 1].winner;
            }
        }
        let mut round = std::mem::take(&mut bracket.rounds[r]);
        let failure = std::sync::Mutex::new(None);
        for chunk in round.chunks_mut(config.concurrency.max(1)) {
            std::thread::scope(|s| {
                for series in chunk.iter_mut() {
                    let seed = config.seed ^ ((series.round as u64) << 20) ^ series.slot as u64;
                    let (bracket_ref, failure) = (&bracket, &failure);
                    s.spawn(
                        move || match play_series::<G>(bracket_ref, series, config, seed) {
                            Ok(()) => on_series(bracket_ref, series),
                            Err(e) => *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e),
                        },
                    );
                }
            });
        }
        if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        bracket.rounds[r] = round;
    }
    bracket.champion = bracket.rounds.last().and_then(|r| r[0].winner);
    Ok(bracket)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeding_pairs_top_against_bottom() {
        assert_eq!(seed_order(2), vec![1, 2]);
        assert_eq!(seed_order(4), vec![1, 4, 2, 3]);
        assert_eq!(seed_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        for size in [2, 4, 8, 16, 32] {
            let order = seed_order(size);
            for pair in order.chunks(2) {
                assert_eq!(pair[0] + pair[1], size as u32 + 1, "{order:?}");
            }
            // Seeds 1 and 2 sit in different halves.
            let half = size / 2;
            assert!(order[..half].contains(&1) && order[half..].contains(&2));
        }
    }

    #[test]
    fn entrants_from_lines_or_json() {
        let lines =
            "# seed,name,protocol,command\n2,beta,builtin,random\n1,alpha,botzone,./bot --x=1,2\n";
        let e = parse_entrants(lines).unwrap();
        assert_eq!(e[1].command, "./bot --x=1,2");
        assert_eq!(e[0].seed, 2);
        let json = r#"[{"name":"a","command":"random","protocol":"builtin","seed":1},{"name":"b","command":"x","seed":2}]"#;
        let e = parse_entrants(json).unwrap();
        assert_eq!(e[1].protocol, "botzone");
        assert!(parse_entrants("1,a,builtin,random\n")
            .unwrap_err()
            .contains("at least two"));
        assert!(parse_entrants("1,a,builtin,random\n3,b,builtin,random\n")
            .unwrap_err()
            .contains("seeds must be"));
        assert!(parse_entrants("x,a,builtin,random\n2,b,builtin,random\n")
            .unwrap_err()
            .contains("not a number"));
        assert!(parse_entrants("1,a\n")
            .unwrap_err()
            .contains("expected seed,name"));
    }

    fn field(n: u32) -> Vec<Entrant> {
        (1..=n)
            .map(|s| Entrant {
                name: format!("e{s}"),
                command: "random".into(),
                protocol: "builtin".into(),
                seed: s,
            })
            .collect()
    }

    fn config() -> BracketConfig {
        BracketConfig {
            title: "t".into(),
            best_of: 1,
            final_best_of: 3,
            tc: TimeControl::default(),
            seed: 1,
            options: GameOptions::default(),
            concurrency: 2,
        }
    }

    #[test]
    fn five_entrants_get_three_byes_for_the_top_seeds() {
        let b = Bracket::draw("nogo", "t", field(5), &config());
        assert_eq!(b.rounds.len(), 3);
        let first: Vec<(Option<u32>, Option<u32>)> = b.rounds[0]
            .iter()
            .map(|s| {
                (
                    s.a.map(|i| b.entrants[i].seed),
                    s.b.map(|i| b.entrants[i].seed),
                )
            })
            .collect();
        assert_eq!(
            first,
            vec![
                (Some(1), None),
                (Some(4), Some(5)),
                (Some(2), None),
                (Some(3), None)
            ]
        );
        assert_eq!(b.rounds[2][0].best_of, 3);
        assert_eq!(b.rounds[0][0].best_of, 1);
    }
}
