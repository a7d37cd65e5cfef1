//! What the protocol players share: reading a reply line under the turn's deadline, and quoting
//! a program's words in an error message.

use crate::arena::process::{BotPipe, ReadFailure};
use crate::arena::record::EndReason;
use std::time::Instant;

/// The program's next line, or how the turn ends without one: out of time, or the program gone
/// (judged by how its output ended).
pub fn read_reply(process: &mut dyn BotPipe, deadline: Instant) -> Result<String, EndReason> {
    match process.read_line(deadline) {
        Ok(line) => Ok(line),
        Err(ReadFailure::Timeout) => Err(EndReason::Timeout),
        Err(ReadFailure::Closed) => Err(process.judge_closed_output()),
    }
}

/// `s` quoted for an error message, cut to 80 characters: a program may print anything.
pub fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    format!("{out:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_quotes_and_cuts_long_lines() {
        assert_eq!(clip("move 1 2"), "\"move 1 2\"");
        let long = "x".repeat(100);
        assert_eq!(clip(&long), format!("{:?}", "x".repeat(80) + "..."));
    }
}
