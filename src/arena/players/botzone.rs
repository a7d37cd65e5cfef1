//! An external bot spoken to as Botzone speaks to it (see `protocols/arena.md`):
//! - full history: a fresh process every turn, given the whole game, one answer, then it exits;
//! - keep-running: one process; after each answer it must print the keep-running marker, is then
//!   frozen (SIGSTOP) until its next turn (SIGCONT), and gets only the opponent's last move.
//!
//! Both in JSON and in the simple (line) interaction.

use super::common::clip;
use super::common::read_reply;
use crate::arena::memory::PeakMemory;
use crate::arena::player::{Answer, ArenaGame, GameEnd, Player, Turn};
use crate::arena::process::{BotPipe, BotProcess};
use crate::arena::record::EndReason;
use crate::game::Color;
use crate::protocol::botzone::{BotzoneMove, KEEP_RUNNING_MARKER};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The Botzone protocol names; which of them a game speaks is `ArenaGame::check_protocol`'s say.
pub const BOTZONE_PROTOCOLS: [&str; 4] = [
    "botzone",
    "botzone-keep-running",
    "botzone-simple",
    "botzone-simple-keep-running",
];

/// After its answer, a keep-running bot gets this long to print the marker.
const MARKER_GRACE: Duration = Duration::from_secs(2);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotzoneMode {
    pub keep_running: bool,
    pub simple: bool,
}

impl BotzoneMode {
    /// The arena's protocol names: botzone, botzone-keep-running, botzone-simple,
    /// botzone-simple-keep-running.
    pub fn from_name(name: &str) -> Option<BotzoneMode> {
        match name {
            "botzone" => Some(BotzoneMode {
                keep_running: false,
                simple: false,
            }),
            "botzone-keep-running" => Some(BotzoneMode {
                keep_running: true,
                simple: false,
            }),
            "botzone-simple" => Some(BotzoneMode {
                keep_running: false,
                simple: true,
            }),
            "botzone-simple-keep-running" => Some(BotzoneMode {
                keep_running: true,
                simple: true,
            }),
            _ => None,
        }
    }
}

/// A Botzone player for a game with a Botzone codec, in the mode `protocol` names.
pub fn botzone_player<G: ArenaGame + BotzoneMove>(
    name: &str,
    command: &str,
    protocol: &str,
) -> Result<Box<dyn Player<G>>, String> {
    let mode =
        BotzoneMode::from_name(protocol).ok_or_else(|| format!("unknown protocol {protocol}"))?;
    Ok(Box::new(BotzonePlayer::new(name, command, mode)))
}

pub struct BotzonePlayer {
    name: String,
    command: String,
    mode: BotzoneMode,
    color: Color,
    /// The kept-running process, between turns.
    kept: Option<BotProcess>,
    /// Where the peak memory of its processes goes (`Player::measure_memory`).
    memory: Option<Arc<PeakMemory>>,
}

impl BotzonePlayer {
    pub fn new(name: &str, command: &str, mode: BotzoneMode) -> BotzonePlayer {
        BotzonePlayer {
            name: name.to_string(),
            command: command.to_string(),
            mode,
            color: Color::Black,
            kept: None,
            memory: None,
        }
    }

    /// Botzone's view of the game from this player's seat: requests are the opponent's turns
    /// (Black's first request is the empty "no move yet" turn), responses its own.
    fn split<'t, M: Copy>(&self, turns: &'t [Vec<M>]) -> (Vec<&'t [M]>, Vec<&'t [M]>) {
        // Turns alternate colours, Black's first.
        let mine = |i: usize| i.is_multiple_of(2) == (self.color == Color::Black);
        let mut requests: Vec<&[M]> = Vec::new();
        if self.color == Color::Black {
            requests.push(&[]);
        }
        let mut responses = Vec::new();
        for (i, t) in turns.iter().enumerate() {
            if mine(i) {
                responses.push(t.as_slice());
            } else {
                requests.push(t.as_slice());
            }
        }
        (requests, responses)
    }

    fn full_input<G: ArenaGame + BotzoneMove>(&self, turns: &[Vec<G::Move>]) -> String {
        let (requests, responses) = self.split(turns);
        if self.mode.simple {
            let mut lines = vec![requests.len().to_string()];
            for (i, r) in requests.iter().enumerate() {
                lines.push(G::turn_to_simple(r));
                if let Some(resp) = responses.get(i) {
                    lines.push(G::turn_to_simple(resp));
                }
            }
            lines.join("\n") + "\n"
        } else {
            let requests: Vec<Value> = requests.iter().map(|r| G::turn_to_json(r)).collect();
            let responses: Vec<Value> = responses.iter().map(|r| G::turn_to_json(r)).collect();
            serde_json::json!({ "requests": requests, "responses": responses }).to_string() + "\n"
        }
    }

    fn bare_request<G: ArenaGame + BotzoneMove>(&self, turn: &[G::Move]) -> String {
        if self.mode.simple {
            G::turn_to_simple(turn) + "\n"
        } else {
            G::turn_to_json(turn).to_string() + "\n"
        }
    }

    /// Reads the answer line and turns it into the stones of a turn (the referee checks them):
    /// a `simple` line, or JSON.
    pub fn read_answer<G: ArenaGame + BotzoneMove>(
        simple: bool,
        process: &mut dyn BotPipe,
        deadline: Instant,
    ) -> Result<Vec<G::Move>, EndReason> {
        let line = read_reply(process, deadline)?;
        let parsed = if simple {
            G::turn_from_simple(&line)
        } else {
            match serde_json::from_str::<Value>(&line) {
                // Botzone accepts either {"response": move, ...} or the bare move.
                Ok(v) => G::turn_from_json(v.get("response").unwrap_or(&v)),
                Err(e) => Err(format!("not JSON ({e})")),
            }
        };
        match parsed {
            Ok(turn) if turn.is_empty() => Err(EndReason::IllegalMove(
                "passed (no stone: -1,-1)".to_string(),
            )),
            Ok(turn) => Ok(turn),
            // The codec refuses points off the board and a pair on one point: the rules'
            // business, so they lose as illegal moves, not as unreadable text.
            Err(e) if e.contains("off the") || e.contains("both stones") => {
                Err(EndReason::IllegalMove(e))
            }
            Err(e) => Err(EndReason::Garbage(format!("{}: {e}", clip(&line)))),
        }
    }

    /// A keep-running bot's output after its answer: lines up to the marker (debug, data).
    pub fn read_marker(process: &mut dyn BotPipe) -> Result<(), EndReason> {
        let deadline = Instant::now() + MARKER_GRACE;
        loop {
            match process.read_line(deadline) {
                Ok(line) if line.trim() == KEEP_RUNNING_MARKER => return Ok(()),
                Ok(_) => continue,
                Err(_) => return Err(EndReason::MissingMarker),
            }
        }
    }

    fn turn_full_history<G: ArenaGame + BotzoneMove>(
        &mut self,
        turn: &Turn<'_, G>,
        start: Instant,
    ) -> Result<Vec<G::Move>, EndReason> {
        let deadline = start + turn.budget;
        let mut process = BotProcess::spawn(&self.command)
            .map_err(|e| EndReason::StartFailed(e.to_string()))?
            .measured_by(self.memory.clone());
        process.send(&self.full_input::<G>(turn.turns))?;
        if !self.mode.keep_running {
            process.close_input();
            return Self::read_answer::<G>(self.mode.simple, &mut process, deadline);
        }
        let m = Self::read_answer::<G>(self.mode.simple, &mut process, deadline)?;
        Self::read_marker(&mut process)?;
        process.freeze();
        self.kept = Some(process);
        Ok(m)
    }

    fn turn_kept<G: ArenaGame + BotzoneMove>(
        &mut self,
        turn: &Turn<'_, G>,
        start: Instant,
    ) -> Result<Vec<G::Move>, EndReason> {
        let mut process = self.kept.take().expect("a kept process");
        process.thaw();
        let last = turn.turns.last().map_or(&[][..], Vec::as_slice);
        process.send(&self.bare_request::<G>(last))?;
        let m = Self::read_answer::<G>(self.mode.simple, &mut process, start + turn.budget)?;
        Self::read_marker(&mut process)?;
        process.freeze();
        self.kept = Some(process);
        Ok(m)
    }
}

impl<G: ArenaGame + BotzoneMove> Player<G> for BotzonePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, color: Color, _start: &G) -> Result<(), EndReason> {
        self.color = color;
        self.kept = None;
        Ok(())
    }

    fn play(&mut self, turn: Turn<'_, G>) -> Answer<G::Move> {
        // The clock runs from the moment we start talking to the bot (process start included in
        // full-history mode, as on Botzone).
        let start = Instant::now();
        let result = if self.kept.is_some() {
            self.turn_kept(&turn, start)
        } else {
            self.turn_full_history(&turn, start)
        };
        if result.is_err() {
            self.kept = None;
        }
        (result, start.elapsed())
    }

    fn end_game(&mut self, _end: &GameEnd<'_, G>) {
        self.kept = None;
    }

    fn measure_memory(&mut self, memory: Arc<PeakMemory>) {
        self.memory = Some(memory);
    }
}
