//! The learned evaluation planned in `docs/connect6-network.md`. Built so far: its input, the
//! line codes of every cell (`codes.rs`); the network, its file and its trainer are to come.

pub mod codes;

#[cfg(test)]
mod codes_tests;
