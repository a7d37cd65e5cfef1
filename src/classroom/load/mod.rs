//! `stonebrain-load`: the class server under load (see `src/bin/stonebrain-load.rs`).

pub mod http;
