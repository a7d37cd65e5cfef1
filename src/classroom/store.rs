//! The server's data folder: its key pair and one file per game, so that a restart loses
//! nothing. Every write goes to a temporary file first and is then renamed over the old one, so
//! a crash mid-write leaves the previous version, never half a file.
//!
//! ```text
//! DATA/key.json          {"e": "65537", "n": "...", "d": "..."}  (decimal; keep it private)
//! DATA/public_key.txt    e,n  (the public half, to hand out)
//! DATA/games/<id>.json   one game, see ServerGame::to_json
//! ```

use super::game::ServerGame;
use super::rsa::{self, KeyPair, PrivateKey, PublicKey};
use num_bigint::BigUint;
use rand::RngCore;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Opens (and creates when needed) the data folder.
    pub fn open(dir: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(dir.join("games"))
            .map_err(|e| format!("cannot create the data folder {}: {e}", dir.display()))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    fn key_path(&self) -> PathBuf {
        self.dir.join("key.json")
    }

    fn game_path(&self, id: &str) -> PathBuf {
        self.dir.join("games").join(format!("{id}.json"))
    }

    /// The server's key pair: read from the folder, or generated (with `bits` bits) and written
    /// there on the first start. The flag says whether it is new.
    pub fn key_pair(&self, bits: u64, rng: &mut impl RngCore) -> Result<(KeyPair, bool), String> {
        let path = self.key_path();
        if path.exists() {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let pair = parse_key(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            return Ok((pair, false));
        }
        let pair = rsa::generate(bits, rng)?;
        let text = json!({
            "e": pair.public.e.to_string(),
            "n": pair.public.n.to_string(),
            "d": pair.private.d.to_string(),
        });
        write_atomically(
            &path,
            &serde_json::to_string_pretty(&text).unwrap_or_default(),
        )?;
        restrict_to_owner(&path);
        Ok((pair, true))
    }

    /// `public_key.txt`: the public key as the seed printed it (`e,n`), for the teacher to hand
    /// out to clients that do not ask the server for it.
    pub fn write_public_key(&self, key: &PublicKey) -> Result<(), String> {
        write_atomically(
            &self.dir.join("public_key.txt"),
            &format!("{}\n", key.to_text()),
        )
    }

    pub fn save_game(&self, game: &ServerGame) -> Result<(), String> {
        let text = serde_json::to_string_pretty(&game.to_json()).unwrap_or_default();
        write_atomically(&self.game_path(&game.id), &text)
    }

    /// Every game in the folder. A file that cannot be read is an error naming it: the server
    /// should not start and quietly forget a game.
    pub fn load_games(&self, now: Instant) -> Result<Vec<ServerGame>, String> {
        let dir = self.dir.join("games");
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let mut games = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let value: Value = serde_json::from_str(&text)
                .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
            games.push(
                ServerGame::from_json(&value, now)
                    .map_err(|e| format!("{}: {e}", path.display()))?,
            );
        }
        Ok(games)
    }
}

/// Reads `key.json`; the pair must invert itself.
pub fn parse_key(text: &str) -> Result<KeyPair, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let number = |key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .and_then(|s| BigUint::parse_bytes(s.as_bytes(), 10))
            .ok_or_else(|| format!("the field {key:?} must be a decimal number in a string"))
    };
    let (e, n, d) = (number("e")?, number("n")?, number("d")?);
    // A key that does not invert itself would lock every student out: check it on load.
    let probe = BigUint::from(6382179u32);
    if probe >= n || rsa::power_mod(&rsa::power_mod(&probe, &e, &n), &d, &n) != probe {
        return Err("e, n and d do not make a working key pair".to_string());
    }
    Ok(KeyPair {
        public: PublicKey { e, n: n.clone() },
        private: PrivateKey { d, n },
    })
}

fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The private key is readable by the server's user only, where the system has such a notion.
fn restrict_to_owner(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::game::Player;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("stonebrain-store-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_key_is_made_once_and_read_back_after() {
        let dir = temp_dir("key");
        let store = Store::open(&dir).unwrap();
        let mut rng = SmallRng::seed_from_u64(11);
        let (first, new) = store.key_pair(1024, &mut rng).unwrap();
        assert!(new);
        store.write_public_key(&first.public).unwrap();
        let text = std::fs::read_to_string(dir.join("public_key.txt")).unwrap();
        assert_eq!(PublicKey::parse(&text).unwrap(), first.public);
        let (again, new) = store.key_pair(1024, &mut rng).unwrap();
        assert!(!new);
        assert_eq!(first, again);
        std::fs::write(dir.join("key.json"), r#"{"e":"65537","n":"493","d":"7"}"#).unwrap();
        assert!(store
            .key_pair(1024, &mut rng)
            .unwrap_err()
            .contains("working key"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn games_are_saved_and_loaded() {
        let dir = temp_dir("games");
        let store = Store::open(&dir).unwrap();
        let now = Instant::now();
        let player = |u: &str| Player {
            user: u.into(),
            name: u.into(),
        };
        let mut g = ServerGame::new("abc123".into(), player("ann"), 5, now);
        g.pair(player("bob"), true, now);
        g.play("ann", "HH", now, 1).unwrap();
        store.save_game(&g).unwrap();
        g.play("bob", "HI", now, 1).unwrap();
        store.save_game(&g).unwrap();
        let loaded = store.load_games(now).unwrap();
        assert_eq!(loaded.len(), 1);
        assert_eq!(loaded[0].to_json(), g.to_json());
        std::fs::write(dir.join("games/bad.json"), "{").unwrap();
        assert!(store.load_games(now).unwrap_err().contains("bad.json"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
