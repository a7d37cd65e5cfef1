//! What the soak plays: every game over every protocol the bot speaks for it (a "pair": both
//! sides are the release binary over the same protocol), with the time each side is told and the
//! limit the arena holds it to.

use crate::arena::player::TimeControl;
use std::time::Duration;

/// The soak's limit for a move. The bot keeps its shipped margin (150 ms, `--margin-ms`'s
/// default) back from whatever limit it is told, so telling it 175 ms leaves 25 ms of search
/// and the same 150 ms of slack the bot has on Botzone's 1 s: a time loss at this speed is one
/// Botzone would see too, not an artefact of the short limit. 25 ms of search keeps 3,000 games
/// to about half an hour on two cores (NoGo's 70-odd moves a game set the pace). Under Gomocup
/// the bot scales its margin with the move (a sixteenth, at least 120 ms), so there it searches
/// up to 55 ms and keeps 120 ms of slack, more than the 100-odd ms this machine stalls a process
/// for when both its cores are busy, as they are with two games at once.
pub const MOVE_LIMIT: Duration = Duration::from_millis(175);

/// SAU's clock: the platform gives a whole game per side (180 s in class) and tells the engine
/// nothing, so the engine is told by `--game-seconds` and plans its own turns. 5 s a side gives
/// its middle turns 100-200 ms, the soak's pace, and keeps the plan's proportions.
pub const SAU_GAME: Duration = Duration::from_secs(5);

/// Gomocup sends a game clock next to the move limit (`INFO timeout_match`, `time_left`); it is
/// set so that the move limit binds in the middle game (a game of 113 moves a side at the soak's
/// pace uses about 4 s of it) while the bot's plan still shortens its first moves.
pub const GOMOCUP_GAME: Duration = Duration::from_secs(15);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoakGame {
    Nogo,
    Connect6,
    Gomoku,
}

impl SoakGame {
    pub fn name(self) -> &'static str {
        match self {
            SoakGame::Nogo => "nogo",
            SoakGame::Connect6 => "connect6",
            SoakGame::Gomoku => "gomoku",
        }
    }
}

/// One game over one protocol, both sides the same program.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub game: SoakGame,
    /// The arena's name of the protocol (`proto=`).
    pub protocol: &'static str,
    /// The board, when it is not the game's usual one (Botzone's ConnectSix is 15x15).
    pub size: Option<usize>,
    /// What the arena holds each side to.
    pub tc: TimeControl,
    /// The bot's flags: only what the platform would have to say by other means (the game
    /// where the first line cannot tell, keep-running, the limit where the protocol carries
    /// none). The protocol itself is left to the bot's detection, which is soaked too.
    pub flags: Vec<String>,
}

impl Pair {
    /// `nogo botzone-simple-keep-running`, `connect6 sau`: how the pair is named in reports and
    /// chosen with `--pair`.
    pub fn label(&self) -> String {
        format!("{} {}", self.game.name(), self.protocol)
    }

    /// The shell command that starts one side: the binary, quoted, and the flags.
    pub fn command(&self, binary: &str) -> String {
        let mut words = vec![shell_quote(binary)];
        words.extend(self.flags.iter().cloned());
        words.join(" ")
    }

    /// The time limit in words, for the reports.
    pub fn limit_text(&self) -> String {
        limit_text(&self.tc)
    }
}

pub fn limit_text(tc: &TimeControl) -> String {
    match (tc.per_move, tc.per_game) {
        (Some(m), Some(g)) => format!("{} ms a move, {} s a game", m.as_millis(), g.as_secs_f64()),
        (Some(m), None) => format!("{} ms a move", m.as_millis()),
        (None, Some(g)) => format!("{} s a game", g.as_secs_f64()),
        (None, None) => "none".to_string(),
    }
}

/// Single quotes keep a path with spaces or shell characters one word.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The Botzone protocols, and whether each keeps the bot running.
const BOTZONE: [(&str, bool); 4] = [
    ("botzone", false),
    ("botzone-keep-running", true),
    ("botzone-simple", false),
    ("botzone-simple-keep-running", true),
];

fn words(flags: &[&str]) -> Vec<String> {
    flags.iter().map(|f| f.to_string()).collect()
}

/// A Botzone pair: the game named (Botzone's games look alike on the first line), the mode,
/// and a per-turn limit given with `--time-ms` in place of the language's (Botzone's judge
/// states none in the input).
fn botzone_pair(
    game: SoakGame,
    protocol: &'static str,
    keep_running: bool,
    size: Option<usize>,
    tc: TimeControl,
    limit: &[String],
) -> Pair {
    let mut flags = words(&["--game", game.name()]);
    if keep_running {
        flags.push("--keep-running".to_string());
    }
    flags.extend(limit.iter().cloned());
    Pair {
        game,
        protocol,
        size,
        tc,
        flags,
    }
}

/// Every pair of the soak, at the soak's fast limits: NoGo over Botzone's four modes and GTP,
/// Connect6 over SAU (19x19) and Botzone's four modes (15x15), Gomoku over Gomocup and
/// Botzone's two modes (it has no simple interaction).
pub fn soak_pairs() -> Vec<Pair> {
    let per_move = TimeControl {
        per_move: Some(MOVE_LIMIT),
        per_game: None,
    };
    let told = words(&["--time-ms", &MOVE_LIMIT.as_millis().to_string()]);
    let mut pairs = Vec::new();
    for (protocol, kept) in BOTZONE {
        pairs.push(botzone_pair(
            SoakGame::Nogo,
            protocol,
            kept,
            None,
            per_move,
            &told,
        ));
    }
    // GTP says the limit itself: `time_left b 0.175 1`, a byo-yomi period of one stone.
    pairs.push(Pair {
        game: SoakGame::Nogo,
        protocol: "gtp",
        size: None,
        tc: per_move,
        flags: Vec::new(),
    });
    pairs.push(Pair {
        game: SoakGame::Connect6,
        protocol: "sau",
        size: None,
        tc: TimeControl {
            per_move: None,
            per_game: Some(SAU_GAME),
        },
        flags: words(&["--game-seconds", &SAU_GAME.as_secs().to_string()]),
    });
    for (protocol, kept) in BOTZONE {
        pairs.push(botzone_pair(
            SoakGame::Connect6,
            protocol,
            kept,
            Some(15),
            per_move,
            &told,
        ));
    }
    // Gomocup says the limits itself (`INFO timeout_turn`, `timeout_match`, `time_left`).
    pairs.push(Pair {
        game: SoakGame::Gomoku,
        protocol: "gomocup",
        size: None,
        tc: TimeControl {
            per_move: Some(MOVE_LIMIT),
            per_game: Some(GOMOCUP_GAME),
        },
        flags: Vec::new(),
    });
    for (protocol, kept) in BOTZONE.into_iter().filter(|(p, _)| !p.contains("simple")) {
        pairs.push(botzone_pair(
            SoakGame::Gomoku,
            protocol,
            kept,
            None,
            per_move,
            &told,
        ));
    }
    pairs
}

/// Which limits a Botzone bot is measured at: the language it is uploaded as sets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotzoneLimits {
    /// C++: 1 s a turn, 2 s the first.
    Cpp,
    /// Python, which the shipped zips are: 6 s a process's first turn (every turn of a
    /// full-history bot), 4 s a kept-running process's later turns.
    Python,
}

/// Every game and mode at its platform's largest time limit, for the memory run. Botzone's
/// limits are left to the bot (`--botzone-language`, as when uploaded); the arena allows the
/// largest turn of the language on every turn. SAU: the class's 180 s a side. Gomocup: 5 s a
/// move and 180 s a game, Piskvork's usual settings. GTP has no platform limit of its own, so
/// it gets Botzone's largest turn (6 s) as a move limit. `scale` shrinks every limit (to check
/// the run itself quickly).
pub fn memory_pairs(botzone: BotzoneLimits, scale: f64) -> Vec<Pair> {
    let s = |d: Duration| d.mul_f64(scale);
    let (language, largest_turn) = match botzone {
        BotzoneLimits::Cpp => ("cpp", Duration::from_secs(2)),
        BotzoneLimits::Python => ("python", Duration::from_secs(6)),
    };
    let scaled_ms = |d: Duration| s(d).as_millis().max(1).to_string();
    let botzone_flags: Vec<String> = if scale == 1.0 {
        words(&["--botzone-language", language])
    } else {
        // A scaled run cannot say a language: it says the scaled largest turn instead.
        words(&["--time-ms", &scaled_ms(largest_turn)])
    };
    let per_move = |d: Duration| TimeControl {
        per_move: Some(s(d)),
        per_game: None,
    };
    let mut pairs = Vec::new();
    for pair in soak_pairs() {
        let mut pair = pair;
        match pair.protocol {
            "sau" => {
                let game = Duration::from_secs(180);
                pair.tc = TimeControl {
                    per_move: None,
                    per_game: Some(s(game)),
                };
                pair.flags = words(&["--game-seconds", &format!("{}", s(game).as_secs_f64())]);
            }
            "gomocup" => {
                pair.tc = TimeControl {
                    per_move: Some(s(Duration::from_secs(5))),
                    per_game: Some(s(Duration::from_secs(180))),
                };
            }
            "gtp" => pair.tc = per_move(Duration::from_secs(6)),
            _ => {
                let kept = pair.protocol.contains("keep-running");
                pair.tc = per_move(largest_turn);
                pair.flags = words(&["--game", pair.game.name()]);
                if kept {
                    pair.flags.push("--keep-running".to_string());
                }
                pair.flags.extend(botzone_flags.iter().cloned());
            }
        }
        pairs.push(pair);
    }
    pairs
}

/// `games` shared among `pairs` pairs as evenly as can be: the first ones get one more when it
/// does not divide.
pub fn share(games: u32, pairs: usize) -> Vec<u32> {
    let n = pairs.max(1) as u32;
    (0..n)
        .map(|i| games / n + u32::from(i < games % n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_and_protocol_is_soaked() {
        let labels: Vec<String> = soak_pairs().iter().map(Pair::label).collect();
        assert_eq!(labels.len(), 13);
        for l in [
            "nogo botzone",
            "nogo botzone-keep-running",
            "nogo botzone-simple",
            "nogo botzone-simple-keep-running",
            "nogo gtp",
            "connect6 sau",
            "connect6 botzone-simple-keep-running",
            "gomoku gomocup",
            "gomoku botzone-keep-running",
        ] {
            assert!(labels.contains(&l.to_string()), "{l}");
        }
        assert!(!labels.contains(&"gomoku botzone-simple".to_string()));
        let c6 = &soak_pairs()[9];
        assert_eq!(c6.size, Some(15));
        assert_eq!(
            c6.command("/x y/stonebrain"),
            "'/x y/stonebrain' --game connect6 --keep-running --time-ms 175"
        );
    }

    #[test]
    fn memory_limits_are_the_platforms_largest() {
        let pairs = memory_pairs(BotzoneLimits::Python, 1.0);
        let by = |l: &str| pairs.iter().find(|p| p.label() == l).unwrap().clone();
        let kept = by("nogo botzone-keep-running");
        assert_eq!(kept.tc.per_move, Some(Duration::from_secs(6)));
        assert!(kept
            .command("sb")
            .ends_with("--keep-running --botzone-language python"));
        assert_eq!(
            by("connect6 sau").tc.per_game,
            Some(Duration::from_secs(180))
        );
        assert_eq!(
            by("gomoku gomocup").limit_text(),
            "5000 ms a move, 180 s a game"
        );
        let quick = memory_pairs(BotzoneLimits::Cpp, 0.01);
        assert!(quick[0].command("sb").ends_with("--time-ms 20"));
    }

    #[test]
    fn games_are_shared_evenly() {
        assert_eq!(share(3000, 13).iter().sum::<u32>(), 3000);
        assert_eq!(share(28, 13)[..3], [3, 3, 2]);
        assert_eq!(share(5, 13).iter().filter(|&&n| n == 0).count(), 8);
    }
}
