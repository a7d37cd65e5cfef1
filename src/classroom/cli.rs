//! The flags of `stonebrain classroom` (the student's bot) and `stonebrain classroom-server`.

use super::client::{play_one_game, ClientSettings};
use super::http_server::{serve, ServerSettings};
use super::http_wire::Limits;
use super::rsa::{PublicKey, MIN_KEY_BITS};
use super::server::BotSettings;
use crate::engine::gomoku::level::Level;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !(v.is_finite() && (0.0..=86_400.0).contains(&v)) {
        return Err(format!("{s:?}: seconds must be from 0 to 86400"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// `5-10` (a range to draw from) or `7` (always the same).
fn parse_poll(s: &str) -> Result<(Duration, Duration), String> {
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (parse_seconds(a)?, parse_seconds(b)?),
        None => {
            let v = parse_seconds(s)?;
            (v, v)
        }
    };
    if lo > hi {
        return Err(format!(
            "{s:?}: the first number of a range must be the smaller"
        ));
    }
    if hi.is_zero() {
        return Err("the poll interval must be above zero".to_string());
    }
    Ok((lo, hi))
}

/// `stonebrain classroom`'s options.
#[derive(Args, Debug)]
pub struct ClassroomArgs {
    /// The server's address, e.g. http://192.168.0.103:8000
    #[arg(long)]
    pub server: String,
    /// Your login name.
    #[arg(long)]
    pub user: String,
    /// Your password (sent encrypted with the server's public key, as the seed describes).
    #[arg(long)]
    pub password: String,
    /// The nickname others see (default: the one the server has for you).
    #[arg(long)]
    pub name: Option<String>,
    /// Seconds between two checks of the game: a range like 5-10 (the seed's advice, the
    /// default) or one number.
    #[arg(long, default_value = "5-10", value_parser = parse_poll)]
    pub poll: (Duration, Duration),
    /// Seconds of thought per move; never more than the server's move limit allows.
    #[arg(long, default_value = "10", value_parser = parse_seconds)]
    pub move_time: Duration,
    /// The gomoku level: wintable, classic or full.
    #[arg(long, default_value = "full", value_parser = Level::parse)]
    pub level: Level,
    /// The server's public key as "e,n" in decimal (default: ask the server at /public_key).
    #[arg(long, value_parser = PublicKey::parse)]
    pub public_key: Option<PublicKey>,
    /// Send the password without the seed's random salt (for servers that do not strip it).
    #[arg(long)]
    pub no_salt: bool,
    /// Stop, with an error, after this many seconds without reaching the server.
    #[arg(long, default_value = "600", value_parser = parse_seconds)]
    pub give_up: Duration,
    /// Seconds before the first retry after a failed call; the pause doubles up to 30 s.
    #[arg(long, default_value = "1", value_parser = parse_seconds)]
    pub retry: Duration,
    /// Games to play one after the other (each joins anew when the last is over).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
}

/// Runs `stonebrain classroom`: 0 when every game was played to its end.
pub fn classroom(args: &ClassroomArgs) -> ExitCode {
    for game in 1..=args.games {
        if args.games > 1 {
            println!("classroom: game {game} of {}", args.games);
        }
        if let Err(e) = play_one_game(client_settings(args)) {
            eprintln!("classroom: error: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn client_settings(args: &ClassroomArgs) -> ClientSettings {
    ClientSettings {
        server: args.server.clone(),
        user: args.user.clone(),
        password: args.password.clone(),
        name: args.name.clone(),
        poll: args.poll,
        move_time: args.move_time,
        level: args.level,
        public_key: args.public_key.clone(),
        salt: !args.no_salt,
        give_up: args.give_up,
        retry_first: args.retry.max(Duration::from_millis(10)),
    }
}

/// `stonebrain classroom-server`'s options.
#[derive(Args, Debug)]
pub struct ClassroomServerArgs {
    /// Address and port to listen on; 127.0.0.1 serves this machine only, 0.0.0.0 the whole
    /// network. Port 0 picks a free port (the first line printed names it).
    #[arg(long, default_value = "127.0.0.1:8000")]
    pub bind: String,
    /// The class list: one "user password [nickname]" per line.
    #[arg(long)]
    pub users: PathBuf,
    /// Folder for the key pair and the games (created if missing).
    #[arg(long, default_value = "classroom-data")]
    pub data: PathBuf,
    /// Size of the RSA modulus generated on the first start.
    #[arg(long, default_value_t = MIN_KEY_BITS, value_parser = clap::value_parser!(u64).range(1024..=4096))]
    pub key_bits: u64,
    /// Seconds a lone player waits for a classmate before the built-in engine plays them.
    #[arg(long, default_value = "60", value_parser = parse_seconds)]
    pub bot_after: Duration,
    /// Never pair a lone player with the built-in engine.
    #[arg(long)]
    pub no_bot: bool,
    /// The built-in engine's login name (it appears in the rating table).
    #[arg(long, default_value = "stonebrain")]
    pub bot_user: String,
    /// The built-in engine's level: wintable, classic or full.
    #[arg(long, default_value = "full", value_parser = Level::parse)]
    pub bot_level: Level,
    /// The built-in engine's seconds per move (at most the move limit less five seconds).
    #[arg(long, default_value = "5", value_parser = parse_seconds)]
    pub bot_time: Duration,
    /// Seconds a client has from a request's first byte to its last (then 408).
    #[arg(long, default_value = "10", value_parser = parse_seconds)]
    pub request_time: Duration,
    /// Seconds a kept-alive connection may stay silent before the server closes it.
    #[arg(long, default_value = "60", value_parser = parse_seconds)]
    pub idle_time: Duration,
    /// Connections open at once; beyond them a client gets 503 at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_connections: u64,
}

/// Runs `stonebrain classroom-server` until it is stopped; an exit means it could not start.
pub fn classroom_server(args: &ClassroomServerArgs) -> ExitCode {
    let bot = (!args.no_bot).then(|| BotSettings {
        user: args.bot_user.clone(),
        name: format!("stonebrain ({})", args.bot_level.name()),
        level: args.bot_level,
        move_time: args.bot_time,
        after: args.bot_after,
    });
    let settings = ServerSettings {
        bind: args.bind.clone(),
        users: args.users.clone(),
        data: args.data.clone(),
        key_bits: args.key_bits,
        bot,
        limits: Limits {
            request_time: args.request_time.max(Duration::from_millis(10)),
            idle_time: args.idle_time.max(Duration::from_millis(10)),
            max_connections: args.max_connections as usize,
            ..Limits::default()
        },
    };
    match serve(settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("classroom-server: error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poll_ranges_and_seconds_parse() {
        let s = Duration::from_secs;
        assert_eq!(parse_poll("5-10").unwrap(), (s(5), s(10)));
        assert_eq!(parse_poll("7").unwrap(), (s(7), s(7)));
        assert_eq!(parse_poll("0.05-0.1").unwrap().0, Duration::from_millis(50));
        assert!(parse_poll("10-5").is_err());
        assert!(parse_poll("0").is_err());
        assert!(parse_poll("x").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("NaN").is_err());
    }
}
