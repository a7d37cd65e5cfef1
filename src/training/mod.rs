//! Learning and preparation: the commands that make the data the networks learn from, and the
//! books built offline by long searches. The training itself is a development tool outside the
//! bot (`src/training/*/train.py`); the bot only reads its output.

pub mod connect6;
pub mod nogo;
