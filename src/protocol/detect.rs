//! Which platform is talking, from its first line; which game, from flags or the program's name.

/// The wire formats stonebrain speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolKind {
    /// Botzone, JSON lines (full history; keep-running with `--keep-running`).
    BotzoneJson,
    /// Botzone's simple interaction: a turn count, then one move a line.
    BotzoneSimple,
    /// SAU Game Platform: `name?`, `new black`, `move ...`.
    Sau,
    /// Gomocup / Piskvork: `START`, `BEGIN`, `TURN`, `BOARD` ...
    Gomocup,
    /// The Go Text Protocol (NoGo at the Computer Olympiad, GoGui): `boardsize`, `play`,
    /// `genmove` ...
    Gtp,
}

impl ProtocolKind {
    pub fn name(self) -> &'static str {
        match self {
            ProtocolKind::BotzoneJson => "botzone",
            ProtocolKind::BotzoneSimple => "botzone-simple",
            ProtocolKind::Sau => "sau",
            ProtocolKind::Gomocup => "gomocup",
            ProtocolKind::Gtp => "gtp",
        }
    }
}

/// The games stonebrain knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Nogo,
    Gomoku,
    Connect6,
}

impl GameKind {
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Nogo => "nogo",
            GameKind::Gomoku => "gomoku",
            GameKind::Connect6 => "connect6",
        }
    }
}

/// Recognises a platform from its first non-empty line.
pub fn detect(first_line: &str) -> Option<ProtocolKind> {
    let line = first_line.trim();
    if line.starts_with('{') {
        return Some(ProtocolKind::BotzoneJson);
    }
    if !line.is_empty() && line.parse::<i64>().is_ok() {
        return Some(ProtocolKind::BotzoneSimple);
    }
    let mut words = line.split_whitespace();
    let word = words.next().unwrap_or("");
    match word.to_ascii_uppercase().as_str() {
        "NAME?" | "NEW" => return Some(ProtocolKind::Sau),
        "START" | "INFO" | "ABOUT" | "BEGIN" | "BOARD" | "RECTSTART" => {
            return Some(ProtocolKind::Gomocup)
        }
        _ => {}
    }
    // GTP: a command of its own (lower case, as the standard spells them), maybe after an id.
    let command = if word.bytes().all(|b| b.is_ascii_digit()) {
        words.next().unwrap_or("")
    } else {
        word
    };
    GTP_OPENERS.contains(&command).then_some(ProtocolKind::Gtp)
}

/// GTP commands a controller may begin with (`name` is SAU's `name?` only with the question
/// mark, so the two never meet).
const GTP_OPENERS: [&str; 13] = [
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "time_settings",
    "showboard",
    "quit",
];

/// The game a program's file name asks for (`stonebrain-nogo`, `pbrain-stonebrain`, ...).
pub fn game_from_program_name(program: &str) -> Option<GameKind> {
    let file = std::path::Path::new(program)
        .file_stem()?
        .to_str()?
        .to_ascii_lowercase();
    if file.contains("nogo") {
        Some(GameKind::Nogo)
    } else if file.contains("connect6") || file.contains("connectsix") || file.contains("c6") {
        Some(GameKind::Connect6)
    } else if file.contains("gomoku") || file.starts_with("pbrain-") {
        Some(GameKind::Gomoku)
    } else {
        None
    }
}

/// The protocol a program's file name implies: gomoku managers run brains named `pbrain-*`
/// and speak the Gomocup protocol to exactly those.
/// Both separators are looked for, so that a Windows path reads right wherever it is seen.
pub fn protocol_from_program_name(program: &str) -> Option<ProtocolKind> {
    let file = program.rsplit(['/', '\\']).next()?;
    file.to_ascii_lowercase()
        .starts_with("pbrain-")
        .then_some(ProtocolKind::Gomocup)
}

/// The game for a platform that cannot tell it: SAU is Connect6 and Gomocup is gomoku by nature;
/// Botzone's NoGo and Gomoku requests look alike, so there the flag, then the program's name,
/// then NoGo decide.
pub fn choose_game(flag: Option<GameKind>, program: &str, protocol: ProtocolKind) -> GameKind {
    if let Some(g) = flag {
        return g;
    }
    match protocol {
        ProtocolKind::Sau => GameKind::Connect6,
        ProtocolKind::Gomocup => GameKind::Gomoku,
        ProtocolKind::Gtp => GameKind::Nogo,
        ProtocolKind::BotzoneJson | ProtocolKind::BotzoneSimple => {
            game_from_program_name(program).unwrap_or(GameKind::Nogo)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_platform() {
        assert_eq!(
            detect(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#),
            Some(ProtocolKind::BotzoneJson)
        );
        assert_eq!(detect("1"), Some(ProtocolKind::BotzoneSimple));
        assert_eq!(detect(" 12 "), Some(ProtocolKind::BotzoneSimple));
        assert_eq!(detect("name?"), Some(ProtocolKind::Sau));
        assert_eq!(detect("new black"), Some(ProtocolKind::Sau));
        assert_eq!(detect("NAME?"), Some(ProtocolKind::Sau));
        // Old platforms put a NUL byte after each command; the reader makes it a space.
        assert_eq!(detect("name?  new white"), Some(ProtocolKind::Sau));
        for w in [
            "START 15",
            "INFO timeout_turn 1000",
            "ABOUT",
            "BEGIN",
            "BOARD",
            "RECTSTART 15,15",
            "start 20",
        ] {
            assert_eq!(detect(w), Some(ProtocolKind::Gomocup), "{w}");
        }
        for w in [
            "protocol_version",
            "1 boardsize 9",
            "name",
            "list_commands",
            "12 genmove b",
            "clear_board",
        ] {
            assert_eq!(detect(w), Some(ProtocolKind::Gtp), "{w}");
        }
        assert_eq!(detect("hello"), None);
        assert_eq!(detect("7 hello"), None);
        assert_eq!(detect("1 2"), None);
    }

    #[test]
    fn game_follows_flag_then_name_then_default() {
        assert_eq!(
            game_from_program_name("/usr/bin/stonebrain-nogo"),
            Some(GameKind::Nogo)
        );
        assert_eq!(
            game_from_program_name("pbrain-stonebrain.exe"),
            Some(GameKind::Gomoku)
        );
        assert_eq!(
            game_from_program_name("stonebrain-connect6"),
            Some(GameKind::Connect6)
        );
        assert_eq!(game_from_program_name("stonebrain"), None);
        assert_eq!(
            protocol_from_program_name("C:\\brains\\pbrain-stonebrain.exe"),
            Some(ProtocolKind::Gomocup)
        );
        assert_eq!(
            protocol_from_program_name("/tmp/x/PBRAIN-stonebrain"),
            Some(ProtocolKind::Gomocup)
        );
        assert_eq!(protocol_from_program_name("stonebrain-gomoku"), None);
        let json = ProtocolKind::BotzoneJson;
        assert_eq!(
            choose_game(Some(GameKind::Gomoku), "stonebrain-nogo", json),
            GameKind::Gomoku
        );
        assert_eq!(
            choose_game(None, "stonebrain-gomoku", json),
            GameKind::Gomoku
        );
        assert_eq!(choose_game(None, "stonebrain", json), GameKind::Nogo);
        assert_eq!(
            choose_game(None, "stonebrain", ProtocolKind::Sau),
            GameKind::Connect6
        );
        assert_eq!(
            choose_game(None, "stonebrain", ProtocolKind::Gomocup),
            GameKind::Gomoku
        );
    }
}
