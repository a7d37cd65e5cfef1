//! The console's terminal: what it may draw (colour, clearing the screen), its input lines, and
//! output that never panics. A terminal gets colour and a redrawn screen; a pipe, a file or
//! `NO_COLOR` gets plain text with no escape sequence at all, and piped input is echoed after the
//! prompt so that a transcript reads like a session.

use super::board_view::Palette;
use clap::ValueEnum;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourChoice {
    /// Colour when standard output is a terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
    Auto,
    Always,
    Never,
}

/// Input lines longer than this are cut: nothing the console reads is that long.
const MAX_LINE: usize = 4096;

/// The kind of a message line, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    /// The computer's moves and hints.
    Computer,
    /// Refused input and failures.
    Error,
    /// The end of a game.
    Result,
}

/// What a look at the input found.
pub enum Pending {
    Line(String),
    Nothing,
    Closed,
}

pub struct Term {
    pub palette: Palette,
    /// Clear the screen and draw everything again before each prompt (a colour terminal).
    pub redraw: bool,
    /// Input comes from a terminal: a line typed while the computer plays both sides pauses it.
    pub live_input: bool,
    /// Input does not come from a terminal: print each line read after its prompt.
    echo: bool,
    lines: Receiver<String>,
    /// Standard output, or (fuzzing and tests) any writer.
    out: Box<dyn Write + Send>,
    /// Standard output is gone (a closed pipe): nothing more can be shown, so the session ends.
    pub broken: bool,
}

impl Term {
    pub fn new(choice: ColourChoice) -> Term {
        let out = std::io::stdout();
        let out_tty = out.is_terminal();
        let in_tty = std::io::stdin().is_terminal();
        let env = |k: &str| std::env::var(k).unwrap_or_default();
        let colour = match choice {
            ColourChoice::Always => true,
            ColourChoice::Never => false,
            ColourChoice::Auto => out_tty && env("NO_COLOR").is_empty() && env("TERM") != "dumb",
        };
        let rich = env("TERM").contains("256color")
            || matches!(env("COLORTERM").as_str(), "truecolor" | "24bit");
        let palette = match (colour, rich) {
            (false, _) => Palette::Plain,
            (true, true) => Palette::Rich,
            (true, false) => Palette::Basic,
        };
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(std::io::stdin().lock(), send));
        Term {
            palette,
            redraw: colour && out_tty,
            live_input: in_tty,
            echo: !in_tty,
            lines,
            out: Box::new(out),
            broken: false,
        }
    }

    /// A terminal whose input is `input`, read through at once, and whose output goes to `out`:
    /// plain text, as in a pipe (the fuzzer drives the console in-process this way).
    pub fn scripted(input: &[u8], out: Box<dyn Write + Send>) -> Term {
        let (send, lines) = mpsc::channel();
        read_lines(input, send);
        Term {
            palette: Palette::Plain,
            redraw: false,
            live_input: false,
            echo: true,
            lines,
            out,
            broken: false,
        }
    }

    /// Writes `text` as it is.
    pub fn print(&mut self, text: &str) {
        let out = &mut self.out;
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            self.broken = true;
        }
    }

    pub fn clear_screen(&mut self) {
        if self.redraw {
            self.print("\x1b[H\x1b[2J");
        }
    }

    /// `text` in the colour of its tone (as it is without colour).
    pub fn paint(&self, tone: Tone, text: &str) -> String {
        let sgr = match (self.palette, tone) {
            (Palette::Plain, _) | (_, Tone::Info) => return text.to_string(),
            (_, Tone::Computer) => "36",
            (_, Tone::Error) => "31",
            (_, Tone::Result) => "1;32",
        };
        format!("\x1b[{sgr}m{text}\x1b[0m")
    }

    pub fn bold(&self, text: &str) -> String {
        if self.palette == Palette::Plain {
            text.to_string()
        } else {
            format!("\x1b[1m{text}\x1b[0m")
        }
    }

    /// Shows `prompt` and waits for a line; `None` at the end of the input.
    pub fn read_line(&mut self, prompt: &str) -> Option<String> {
        self.print(prompt);
        match self.lines.recv() {
            Ok(line) => {
                if self.echo {
                    self.print(&format!("{line}\n"));
                }
                Some(line)
            }
            Err(_) => {
                self.print("\n");
                None
            }
        }
    }

    /// A line already typed, if any, without waiting.
    pub fn pending(&mut self) -> Pending {
        match self.lines.try_recv() {
            Ok(line) => Pending::Line(line),
            Err(TryRecvError::Empty) => Pending::Nothing,
            Err(TryRecvError::Disconnected) => Pending::Closed,
        }
    }
}

/// Reads the input (standard input) a line at a time until its end, cutting overlong lines, so
/// that no input can stop the console.
fn read_lines(mut input: impl BufRead, send: mpsc::Sender<String>) {
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buf.is_empty() {
            if !line.is_empty() {
                let _ = send.send(finish(&line));
            }
            break;
        }
        let (chunk, used, complete) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        input.consume(used);
        if complete {
            if send.send(finish(&line)).is_err() {
                break;
            }
            line.clear();
        }
    }
}

/// The text of a line: bytes that are not UTF-8 and control characters (escape sequences among
/// them, which must never reach the screen when the line is echoed or quoted) become U+FFFD.
fn finish(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.trim_end_matches('\r')
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect()
}
