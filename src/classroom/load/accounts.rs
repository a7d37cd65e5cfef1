//! The class of the load test: its list of accounts, written where the server reads it, and
//! each account's login as the seed teaches it (a fresh salted cipher text every time).

use crate::classroom::rsa::PublicKey;
use rand::rngs::SmallRng;
use std::path::Path;

#[derive(Clone, Debug)]
pub struct Account {
    pub user: String,
    pub password: String,
}

impl Account {
    /// The password encrypted with the server's key, salted so that no two logins send the
    /// same cipher text.
    pub fn cipher(&self, key: &PublicKey, rng: &mut SmallRng) -> String {
        key.encrypt_password(&self.password, Some(rng))
            .unwrap_or_default()
    }
}

/// The students (`s01`, `s02`, ...) and the two accounts of the hostile game.
pub struct Class {
    pub students: Vec<Account>,
    pub hostile: [Account; 2],
}

fn account(user: String, n: usize) -> Account {
    Account {
        password: format!("pw-{user}-{:04}", (n * 7919) % 10_000),
        user,
    }
}

impl Class {
    pub fn new(students: usize) -> Class {
        Class {
            students: (1..=students)
                .map(|i| account(format!("s{i:02}"), i))
                .collect(),
            hostile: [
                account("hostile-a".into(), 9001),
                account("hostile-b".into(), 9002),
            ],
        }
    }

    /// The class list, one `user password nickname` a line.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text = String::from("# the load test's class\n");
        for a in self.students.iter().chain(&self.hostile) {
            text.push_str(&format!("{} {} Student {}\n", a.user, a.password, a.user));
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}
