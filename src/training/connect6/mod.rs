//! Connect6's offline preparation: the opening book built by long searches (`book.rs`), which
//! `engine::connect6::prepared` reads; the value network's training records (`positions.rs`).

pub mod book;
pub mod positions;
