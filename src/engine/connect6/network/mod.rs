//! The learned evaluation planned in `docs/connect6-network.md`: its input, the line codes of
//! every cell (`codes.rs`); the network's weights, file and head (`model.rs`); the
//! accumulators the search keeps up to date stone by stone (`accumulator.rs`).

pub mod accumulator;
pub mod codes;
pub mod model;

#[cfg(test)]
mod codes_tests;
#[cfg(test)]
mod tests;
