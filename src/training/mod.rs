//! Learning: the commands that make the data the networks learn from. The training itself is a
//! development tool outside the bot (`src/training/*/train.py`); the bot only reads its output.

pub mod nogo;
