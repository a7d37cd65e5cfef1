//! Files the program reads: the serving flags file (`<program>.args`, for platforms that start
//! the bot without arguments), the console's saved games, and the class server's data (its class
//! list, its game files, its key).
//!
//! Oracles: flags read from a file and accepted by the command line have the values its checks
//! promise; a saved game that is read is written back to the same game and replays by the rules
//! or is refused with a reason; a game file read back writes the same file; a key file that is
//! accepted makes a working key pair.

use super::super::grammar::{chance, extreme, gomoku_level_name, lines_to_input, random_game};
use super::super::header::Header;
use super::super::{corpus, Harness, Target};
use super::classroom::fuzz_key;
use crate::classroom::game::ServerGame;
use crate::classroom::rsa::{self, PublicKey};
use crate::classroom::store::parse_key;
use crate::classroom::users::{valid_user_name, Users};
use crate::console::games::{ConsoleGame, Setup};
use crate::console::savefile::SaveFile;
use crate::engine::gomoku::level::Level;
use crate::game::connect6::{self, Connect6};
use crate::game::gomoku::{self, seed_game_text, Gomoku};
use crate::game::nogo::Nogo;
use crate::game::{Color, Game};
use crate::protocol::cli::{flags_from_file, ServeArgs};
use crate::protocol::detect::{game_from_program_name, protocol_from_program_name};
use crate::protocol::sau::check_name;
use crate::protocol::GameKind;
use clap::Parser;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::time::Instant;

pub const ARGS: Target = Target {
    name: "args-file",
    weight: 3,
    about: "the serving flags file <program>.args, and the program name's game and protocol",
    seeds: args_seeds,
    generate: generate_args,
    words: &[
        "--protocol",
        "--game",
        "--keep-running",
        "--margin-ms",
        "--time-ms",
        "--playouts",
        "--seed",
        "--level",
        "--name",
        "--game-seconds",
        "--board-size",
        "--log",
        "--centre-ban",
        "--botzone-language",
        "sau",
        "gomocup",
        "connect6",
    ],
    harness: |_| Box::new(ArgsHarness),
};

pub const SAVEFILE: Target = Target {
    name: "savefile",
    weight: 4,
    about: "the console's saved games (format stonebrain-play 1)",
    seeds: savefile_seeds,
    generate: generate_savefile,
    words: &[
        "format",
        "stonebrain-play",
        "game",
        "size",
        "rules",
        "human",
        "level",
        "turn",
        "end",
        "nogo",
        "gomoku",
        "connect6",
        "black",
        "white",
        "none",
        "centre-ban",
        "exact-five",
        "freestyle",
        "standard",
        "classic",
        "wintable",
        "JJ",
        "7,7",
    ],
    harness: |_| Box::new(SaveFileHarness),
};

pub const CLASSROOM: Target = Target {
    name: "classroom-files",
    weight: 4,
    about: "the class server's data: the class list, game files, key files, keys, cipher text",
    seeds: classroom_seeds,
    generate: generate_classroom,
    words: &[
        "id",
        "creator",
        "opponent",
        "user",
        "name",
        "moves",
        "ending",
        "winner",
        "reason",
        "win_line",
        "sequence",
        "rating_changes",
        "creator_stone",
        "five",
        "time",
        "e",
        "n",
        "d",
        "HH",
        "x",
        "o",
    ],
    harness: |_| Box::new(ClassroomFilesHarness),
};

// ----- the flags file -----

/// The serving flags, as the command line reads them with no subcommand.
#[derive(Parser)]
#[command(name = "stonebrain")]
struct ServeCommand {
    #[command(flatten)]
    serve: ServeArgs,
}

struct ArgsHarness;

impl Harness for ArgsHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let text = String::from_utf8_lossy(body);
        let program = header.get("program").unwrap_or("stonebrain");
        let _ = (
            game_from_program_name(program),
            protocol_from_program_name(program),
        );
        let mut argv = vec![program.to_string()];
        argv.extend(flags_from_file(&text));
        let Ok(command) = ServeCommand::try_parse_from(&argv) else {
            // Refused with clap's message: the bot does not start.
            return Ok(());
        };
        let args = command.serve;
        check_name(&args.name)
            .map_err(|e| format!("the name {:?} was accepted: {e}", args.name))?;
        if connect6::Connect6Rules::with_size(args.board_size).is_none() {
            return Err(format!("board size {} was accepted", args.board_size));
        }
        if !(args.game_seconds.is_finite() && args.game_seconds > 0.0) {
            return Err(format!("game seconds {} were accepted", args.game_seconds));
        }
        Ok(())
    }
}

fn args_seeds() -> Vec<Vec<u8>> {
    [
        "# for the SAU platform\n--protocol sau\n--name stonebrain\n--game-seconds 180\n",
        "--game gomoku\n--level classic\n--time-ms 500\n--log C:\\my logs\\sb.log\n",
        "--keep-running\n--botzone-language python\n--margin-ms 200\n--seed 7\n",
        "--protocol gtp\n--centre-ban\n--playouts 1000\n",
        "--board-size \"15\"\n--protocol sau\n",
    ]
    .iter()
    .map(|s| format!("{}{s}", Header::line(&[("program", "stonebrain")])).into_bytes())
    .collect()
}

fn generate_args(rng: &mut SmallRng) -> Vec<u8> {
    let flags: &[(&str, &[&str])] = &[
        (
            "--protocol",
            &["botzone", "botzone-simple", "sau", "gomocup", "gtp", "x"],
        ),
        ("--game", &["nogo", "gomoku", "connect6", "chess"]),
        ("--keep-running", &[]),
        ("--centre-ban", &[]),
        ("--margin-ms", &["150", "0", "-1", "18446744073709551616"]),
        ("--time-ms", &["1000", "0", "x"]),
        ("--playouts", &["100", "0"]),
        ("--seed", &["7", "-7"]),
        ("--level", &["full", "classic", "wintable", "expert"]),
        (
            "--name",
            &[
                "stonebrain",
                "abcdefghijklm",
                "two words",
                "caf\u{e9}",
                "\"quoted\"",
                "",
            ],
        ),
        (
            "--game-seconds",
            &["180", "0.5", "0", "inf", "NaN", "1e9", "-3", "1e308"],
        ),
        ("--board-size", &["19", "15", "5", "26", "6", "25"]),
        ("--botzone-language", &["cpp", "python", "java"]),
        ("--log", &["/dev/null"]),
    ];
    let mut lines = Vec::new();
    for _ in 0..rng.gen_range(0..6) {
        let (flag, values) = flags.choose(rng).expect("not empty");
        let value = match values.choose(rng) {
            Some(v) if chance(rng, 0.9) => v.to_string(),
            Some(_) => extreme(rng),
            None => String::new(),
        };
        let line = if value.is_empty() && chance(rng, 0.8) {
            flag.to_string()
        } else if chance(rng, 0.2) {
            format!("{flag}   \"{value}\"  ")
        } else {
            format!("{flag} {value}")
        };
        lines.push(line);
        if chance(rng, 0.1) {
            lines.push("# a comment".to_string());
        }
    }
    let program = *[
        "stonebrain",
        "/usr/bin/stonebrain-nogo",
        "C:\\brains\\pbrain-stonebrain.exe",
        "stonebrain-connect6",
        "",
        "..",
    ]
    .choose(rng)
    .expect("not empty");
    lines_to_input(rng, Header::line(&[("program", program)]), &lines)
}

// ----- saved games -----

struct SaveFileHarness;

impl Harness for SaveFileHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let Ok(text) = std::str::from_utf8(input) else {
            // Refused by the reader before parsing: "it is not text".
            return Ok(());
        };
        let Ok(save) = SaveFile::parse(text) else {
            return Ok(());
        };
        let again = SaveFile::parse(&save.to_text())
            .map_err(|e| format!("a saved game read back from its own text is refused: {e}"))?;
        if again != save {
            return Err("a saved game written and read back is another game".to_string());
        }
        // Whether its moves replay is the loader's next step: either answer, never a panic.
        let _ = crate::console::validate(&save);
        Ok(())
    }
}

/// A game by the rules as a saved game's turns.
fn save_turns<G: ConsoleGame>(
    rng: &mut SmallRng,
    setup: &Setup,
) -> Vec<(Color, Vec<(usize, usize)>)> {
    let start = G::start(setup);
    let n = super::super::grammar::plies(rng);
    let (_, moves) = random_game(rng, start.clone(), n, None);
    let mut pos = start;
    let mut turns: Vec<(Color, Vec<(usize, usize)>)> = Vec::new();
    for m in moves {
        let side = pos.side_to_move();
        let xy = pos.xy(m);
        match turns.last_mut() {
            Some((c, stones)) if *c == side => stones.push(xy),
            _ => turns.push((side, vec![xy])),
        }
        pos.play(m);
    }
    // The console saves whole turns only: a Connect6 turn cut after its first stone goes.
    if pos.outcome().is_none() && turns.last().is_some_and(|(c, _)| *c == pos.side_to_move()) {
        turns.pop();
    }
    turns
}

/// A random setup of one of the three games.
pub fn random_setup(rng: &mut SmallRng) -> Setup {
    let kind = *[GameKind::Nogo, GameKind::Gomoku, GameKind::Connect6]
        .choose(rng)
        .expect("not empty");
    let size = match kind {
        GameKind::Nogo => None,
        GameKind::Gomoku => Some(rng.gen_range(gomoku::MIN_SIZE..=gomoku::MAX_SIZE)),
        GameKind::Connect6 => Some(rng.gen_range(connect6::MIN_SIZE..=connect6::MAX_SIZE)),
    };
    let level = (kind == GameKind::Gomoku)
        .then(|| Level::parse(gomoku_level_name(rng)).expect("a level's name"));
    Setup::new(
        kind,
        size,
        kind == GameKind::Nogo && chance(rng, 0.3),
        kind == GameKind::Gomoku && chance(rng, 0.3),
        level,
    )
    .expect("sizes and options of the game")
}

/// A saved game of a random game, as text.
pub fn random_save_text(rng: &mut SmallRng) -> String {
    let setup = random_setup(rng);
    let turns = match setup.kind {
        GameKind::Nogo => save_turns::<Nogo>(rng, &setup),
        GameKind::Gomoku => save_turns::<Gomoku>(rng, &setup),
        GameKind::Connect6 => save_turns::<Connect6>(rng, &setup),
    };
    let human = *[Some(Color::Black), Some(Color::White), None]
        .choose(rng)
        .expect("not empty");
    SaveFile {
        setup,
        human,
        turns,
    }
    .to_text()
}

fn generate_savefile(rng: &mut SmallRng) -> Vec<u8> {
    let text = random_save_text(rng);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let spoil: f64 = *[0.0, 0.05, 0.3].choose(rng).expect("not empty");
    for line in lines.iter_mut() {
        if chance(rng, spoil) {
            *line = match rng.gen_range(0..6) {
                0 => line.to_uppercase(),
                1 => line.replacen(' ', "  ", 1),
                2 => format!("{line} extra"),
                3 => line.replace(|c: char| c.is_ascii_digit(), "9"),
                4 => line.replace(' ', "\t"),
                _ => String::new(),
            };
        }
    }
    if chance(rng, spoil) {
        let n = lines.len();
        lines.swap(rng.gen_range(0..n), rng.gen_range(0..n));
    }
    lines_to_input(rng, String::new(), &lines)
}

fn savefile_seeds() -> Vec<Vec<u8>> {
    let readme = "format stonebrain-play 1\ngame connect6\nsize 19\nrules standard\nhuman white\n\
                  turn 1 black JJ\nturn 2 white KK KL\nend\n";
    let mut out = vec![readme.as_bytes().to_vec()];
    for opening in corpus::openings().into_iter().take(10) {
        let mut text = "format stonebrain-play 1\ngame gomoku\nsize 15\nrules freestyle\n\
                        level classic\nhuman black\n"
            .to_string();
        for (i, (x, y)) in opening.iter().enumerate() {
            let colour = if i % 2 == 0 { "black" } else { "white" };
            text.push_str(&format!("turn {} {colour} {x},{y}\n", i + 1));
        }
        text.push_str("end\n");
        out.push(text.into_bytes());
    }
    out
}

// ----- the class server's data -----

struct ClassroomFilesHarness;

impl Harness for ClassroomFilesHarness {
    fn run(&mut self, input: &[u8]) -> Result<(), String> {
        let (header, body) = Header::split(input);
        let text = String::from_utf8_lossy(body);
        match header.get("kind").unwrap_or("users") {
            "game" => {
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    return Ok(());
                };
                if let Ok(game) = ServerGame::from_json(&v, Instant::now()) {
                    let written = game.to_json();
                    let again = ServerGame::from_json(&written, Instant::now()).map_err(|e| {
                        format!("a game file written by the server is refused: {e}")
                    })?;
                    if again.to_json() != written {
                        return Err("a game file read back writes another file".to_string());
                    }
                    let _ = game.view(Instant::now());
                }
            }
            "key" => {
                if let Ok(pair) = parse_key(&text) {
                    let probe = num_bigint::BigUint::from(6382179u32);
                    let c = rsa::power_mod(&probe, &pair.public.e, &pair.public.n);
                    if rsa::power_mod(&c, &pair.private.d, &pair.private.n) != probe {
                        return Err("a key file that does not decrypt was accepted".to_string());
                    }
                }
            }
            "public" => {
                if let Ok(key) = PublicKey::parse(&text) {
                    let _ = key.encrypt_password("pw-ann", None);
                }
            }
            "cipher" => {
                let _ = rsa::from_hex(&text);
                let _ = fuzz_key().private.decrypt_password(&text);
            }
            _ => {
                if let Ok(users) = Users::parse(&text) {
                    for line in text.lines() {
                        let user = line.split_whitespace().next().unwrap_or("");
                        if users.get(user).is_some() && !valid_user_name(user) {
                            return Err(format!("the user name {user:?} was accepted"));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

fn game_file(rng: &mut SmallRng) -> Value {
    let n = super::super::grammar::plies(rng);
    let (pos, moves) = random_game(rng, Gomoku::default(), n, None);
    let over = pos.outcome().is_some() || chance(rng, 0.2);
    let reason = *["five", "time", "full board", "boredom"]
        .choose(rng)
        .expect("not empty");
    json!({
        "id": format!("{:032x}", rng.gen::<u128>()),
        "created_unix": rng.gen_range(0..2_000_000_000u64),
        "creator": {"user": "ann", "name": "Ann"},
        "opponent": if chance(rng, 0.8) { json!({"user": "bob", "name": "bob"}) } else { Value::Null },
        "creator_stone": if chance(rng, 0.5) { "x" } else { "o" },
        "moves": seed_game_text(&moves),
        "ending": if over {
            json!({
                "winner": if chance(rng, 0.5) { json!("ann") } else { Value::Null },
                "reason": reason,
                "win_line": seed_game_text(&moves[moves.len().saturating_sub(5)..]),
                "sequence": rng.gen_range(0..100u64),
                "rating_changes": if chance(rng, 0.5) { json!([16.0, -16.0]) } else { Value::Null },
            })
        } else {
            Value::Null
        },
    })
}

fn generate_classroom(rng: &mut SmallRng) -> Vec<u8> {
    let kind = *["users", "game", "key", "public", "cipher"]
        .choose(rng)
        .expect("not empty");
    let body = match kind {
        "game" => game_file(rng).to_string(),
        "key" => {
            let k = fuzz_key();
            let d = if chance(rng, 0.3) {
                "7".to_string()
            } else {
                k.private.d.to_string()
            };
            json!({"e": k.public.e.to_string(), "n": k.public.n.to_string(), "d": d}).to_string()
        }
        "public" => {
            if chance(rng, 0.5) {
                corpus::SEED_PUBLIC_KEY.to_string()
            } else {
                format!("{},{}", extreme(rng), extreme(rng))
            }
        }
        "cipher" => {
            let k = fuzz_key();
            match rng.gen_range(0..3) {
                0 => k
                    .public
                    .encrypt_password("pw-ann", None)
                    .unwrap_or_default(),
                1 => format!("0x{}", rsa::to_hex(&k.public.n)),
                _ => extreme(rng),
            }
        }
        _ => {
            let mut lines = vec!["# user password nickname".to_string()];
            for _ in 0..rng.gen_range(0..5) {
                let user = *["ann", "bob", "c.d-e_f", "two words", "", "é", "ann"]
                    .choose(rng)
                    .expect("not empty");
                let pw = *["pw", "", "tulip-42"].choose(rng).expect("not empty");
                lines.push(format!("{user} {pw} Nick Name"));
            }
            lines.join("\n")
        }
    };
    format!("{}{body}\n", Header::line(&[("kind", kind)])).into_bytes()
}

fn classroom_seeds() -> Vec<Vec<u8>> {
    let users = "# user password nickname\nalice tulip-42 Alice Liu\nbob 9cedar\n";
    vec![
        format!("{}{users}", Header::line(&[("kind", "users")])).into_bytes(),
        format!(
            "{}{}",
            Header::line(&[("kind", "public")]),
            corpus::SEED_PUBLIC_KEY
        )
        .into_bytes(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn generated_and_recorded_inputs_pass() {
        let mut rng = SmallRng::seed_from_u64(13);
        for _ in 0..60 {
            ArgsHarness.run(&generate_args(&mut rng)).unwrap();
            SaveFileHarness.run(&generate_savefile(&mut rng)).unwrap();
            ClassroomFilesHarness
                .run(&generate_classroom(&mut rng))
                .unwrap();
        }
        for seed in args_seeds()
            .iter()
            .chain(&savefile_seeds())
            .chain(&classroom_seeds())
        {
            ArgsHarness.run(seed).unwrap();
            SaveFileHarness.run(seed).unwrap();
            ClassroomFilesHarness.run(seed).unwrap();
        }
    }

    #[test]
    fn saved_games_of_random_games_read_back() {
        let mut rng = SmallRng::seed_from_u64(2);
        for _ in 0..30 {
            let text = random_save_text(&mut rng);
            let save = SaveFile::parse(&text).unwrap();
            crate::console::validate(&save).unwrap();
        }
    }
}
