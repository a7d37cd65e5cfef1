//! What the protocol players share: reading a reply line under the turn's deadline, and quoting
//! a program's words in an error message.

use crate::arena::process::{BotPipe, ReadFailure};
use crate::arena::record::{EndReason, LATE_WATCH};
use std::time::Instant;

/// The program's next line, or how the turn ends without one: out of time (with how late, if a
/// line comes within `LATE_WATCH` after the deadline), or the program gone (judged by how its
/// output ended).
pub fn read_reply(process: &mut dyn BotPipe, deadline: Instant) -> Result<String, EndReason> {
    match process.read_line(deadline) {
        Ok(line) => Ok(line),
        Err(ReadFailure::Timeout) => Err(late(process, deadline)),
        Err(ReadFailure::Closed) => Err(process.judge_closed_output()),
    }
}

/// The loss of a program that let `deadline` pass: listens on for `LATE_WATCH` to say how late
/// its next line was. Whatever it says is not played: the turn is lost already.
fn late(process: &mut dyn BotPipe, deadline: Instant) -> EndReason {
    match process.read_line(deadline + LATE_WATCH) {
        Ok(_) => EndReason::Timeout(Some(Instant::now().saturating_duration_since(deadline))),
        Err(_) => EndReason::Timeout(None),
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

    use std::time::Duration;

    /// A program whose one line comes at `arrives`.
    struct Slow {
        arrives: Instant,
    }

    impl BotPipe for Slow {
        fn send(&mut self, _: &str) -> Result<(), EndReason> {
            Ok(())
        }

        fn read_line(&mut self, deadline: Instant) -> Result<String, ReadFailure> {
            let until = self.arrives.min(deadline);
            std::thread::sleep(until.saturating_duration_since(Instant::now()));
            if self.arrives <= deadline {
                Ok("7,7".to_string())
            } else {
                Err(ReadFailure::Timeout)
            }
        }

        fn judge_closed_output(&mut self) -> EndReason {
            EndReason::ClosedPipe
        }
    }

    #[test]
    fn a_late_answer_is_timed_and_a_missing_one_is_not() {
        let deadline = Instant::now() + Duration::from_millis(20);
        let mut in_time = Slow {
            arrives: deadline - Duration::from_millis(10),
        };
        assert_eq!(read_reply(&mut in_time, deadline), Ok("7,7".to_string()));

        let deadline = Instant::now() + Duration::from_millis(20);
        let mut late = Slow {
            arrives: deadline + Duration::from_millis(60),
        };
        match read_reply(&mut late, deadline) {
            Err(reason @ EndReason::Timeout(Some(by))) => {
                assert!(by >= Duration::from_millis(60) && by < LATE_WATCH, "{by:?}");
                let text = reason.describe();
                assert!(
                    text.starts_with("out of time: its next line came "),
                    "{text}"
                );
                assert!(text.ends_with(" ms after its limit"), "{text}");
            }
            other => panic!("{other:?}"),
        }

        let deadline = Instant::now() + Duration::from_millis(20);
        let mut hung = Slow {
            arrives: deadline + LATE_WATCH + Duration::from_secs(1),
        };
        let started = Instant::now();
        assert_eq!(
            read_reply(&mut hung, deadline),
            Err(EndReason::Timeout(None))
        );
        // It listened for the watch after the deadline, not for the line.
        assert!(started.elapsed() < LATE_WATCH + Duration::from_millis(900));
    }

    #[test]
    fn clip_quotes_and_cuts_long_lines() {
        assert_eq!(clip("move 1 2"), "\"move 1 2\"");
        let long = "x".repeat(100);
        assert_eq!(clip(&long), format!("{:?}", "x".repeat(80) + "..."));
    }
}
