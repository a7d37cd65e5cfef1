//! stonebrain: a bot for NoGo, Connect6 and Gomoku on the platforms students and hobbyists use.
//!
//! Layers, from the bottom: `game` (rules), `search` (generic machinery: clock, MCTS), `engine`
//! (per-game move choice), `protocol` (platforms' wire formats and the serve loop), `arena`
//! (matches between players), `console` (games against a person at the terminal), `bench`
//! (speed measurements), `startup_bench` (how fast a fresh process answers), `classroom` (the
//! class battle server of seed 000 and its client), `fuzz` (in-process fuzzing of every input
//! surface, run by the `stonebrain-fuzz` program), `soak` (thousands of games between copies of the
//! binary over every protocol, and its peak memory, run by the `stonebrain-soak` program),
//! `training` (self-play data for the networks).

pub mod arena;
pub mod bench;
pub mod classroom;
pub mod console;
pub mod engine;
pub mod fuzz;
pub mod game;
pub mod protocol;
pub mod search;
pub mod soak;
pub mod startup_bench;
pub mod training;
