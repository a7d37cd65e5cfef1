//! The class server as the classroom tests start it: the real binary on a loopback port, with
//! a class list of two students in a temporary folder.

use super::bin;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A process killed when the test ends, however it ends.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn temp_dir(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("stonebrain-classroom-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("users.txt"),
        "# test class\nalice pw-alice Alice\nbob pw-bob\n",
    )
    .unwrap();
    dir
}

/// Starts a server on `bind` and returns it with its address, read from its first line.
pub fn start_server(dir: &Path, bind: &str, extra: &[&str]) -> (Running, String) {
    let mut child = Command::new(bin())
        .args(["classroom-server", "--bind", bind, "--users"])
        .arg(dir.join("users.txt"))
        .arg("--data")
        .arg(dir.join("data"))
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the server");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    // Keep reading the log, so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in out.lines() {});
    (Running(child), url)
}
