//! The class list: who may log in to the server, with which password.
//!
//! A plain text file a teacher writes by hand, one student a line:
//!
//! ```text
//! # user      password     nickname (optional, the rest of the line)
//! alice       tulip-42     Alice Liu
//! bob         9cedar
//! ```
//!
//! Blank lines and lines starting with `#` are skipped. User names are letters, digits, `_`,
//! `-` and `.`; passwords are any text without spaces. The file is read when the server starts.

use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub password: String,
    /// The nickname from the file; a client may still give another one when it joins.
    pub name: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Users {
    accounts: BTreeMap<String, Account>,
}

/// Whether `user` can be a login name (also used for the built-in engine's account).
pub fn valid_user_name(user: &str) -> bool {
    !user.is_empty()
        && user.len() <= 64
        && user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl Users {
    pub fn parse(text: &str) -> Result<Users, String> {
        let mut accounts = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.splitn(3, char::is_whitespace);
            let user = words.next().unwrap_or_default();
            let password = words.next().map(str::trim).unwrap_or_default();
            let name = words.next().map(str::trim).filter(|n| !n.is_empty());
            if !valid_user_name(user) {
                return Err(format!(
                    "line {}: {user:?} is not a user name (letters, digits, _ - .)",
                    i + 1
                ));
            }
            if password.is_empty() {
                return Err(format!("line {}: {user} has no password", i + 1));
            }
            let account = Account {
                password: password.to_string(),
                name: name.map(str::to_string),
            };
            if accounts.insert(user.to_string(), account).is_some() {
                return Err(format!("line {}: {user} is listed twice", i + 1));
            }
        }
        Ok(Users { accounts })
    }

    pub fn load(path: &Path) -> Result<Users, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the users file {}: {e}", path.display()))?;
        Users::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn get(&self, user: &str) -> Option<&Account> {
        self.accounts.get(user)
    }

    pub fn len(&self) -> usize {
        self.accounts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.accounts.is_empty()
    }

    /// True when `password` (already decrypted, salt removed) is `user`'s.
    pub fn check(&self, user: &str, password: &[u8]) -> bool {
        self.accounts
            .get(user)
            .is_some_and(|a| a.password.as_bytes() == password)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_users_passwords_and_nicknames() {
        let u = Users::parse("# class 3\n\nalice tulip-42  Alice Liu \n bob\t9cedar\n").unwrap();
        assert_eq!(u.len(), 2);
        assert_eq!(u.get("alice").unwrap().name.as_deref(), Some("Alice Liu"));
        assert_eq!(u.get("bob").unwrap().name, None);
        assert!(u.check("alice", b"tulip-42"));
        assert!(!u.check("alice", b"tulip-43"));
        assert!(!u.check("carol", b"tulip-42"));
    }

    #[test]
    fn refuses_broken_lines_with_their_number() {
        assert!(Users::parse("alice\n").unwrap_err().starts_with("line 1"));
        assert!(Users::parse("ok pw\nal/ice pw\n")
            .unwrap_err()
            .starts_with("line 2"));
        assert!(Users::parse("a x\na y\n").unwrap_err().contains("twice"));
    }
}
