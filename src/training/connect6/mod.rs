//! Connect6's offline preparation: the opening book built by long searches (`book.rs`), which
//! `engine::connect6::prepared` reads.

pub mod book;
