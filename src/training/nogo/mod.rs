//! NoGo's learning pipeline: self-play data (`selfplay.rs`) in the format of `data.rs`; the
//! trainer (`train.py`, run by `make train-nogo`) reads it and writes the network file that
//! `engine::nogo::network` loads.

pub mod data;
pub mod selfplay;
