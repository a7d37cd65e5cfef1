//! The class battle server of seed 000 and a client that plays on it. The seed's course ran a
//! gomoku server where students' programs logged in with textbook RSA, joined a game and played
//! it over JSON-over-HTTP; the original server is gone, so both halves are here:
//!
//! - `rsa`, `elo`: the seed's arithmetic (login encryption, ratings);
//! - `game`, `users`, `store`, `server`, `params`, `http_server`, `http_wire`: `stonebrain
//!   classroom-server`;
//! - `api`, `client`: `stonebrain classroom`, the student's bot;
//! - `think`: the engine's move for both (the client and the server's built-in player);
//! - `cli`: both commands' flags.
//!
//! The wire format is written up in `protocols/class-server.md`.

pub mod api;
pub mod cli;
pub mod client;
pub mod elo;
pub mod game;
pub mod http_server;
pub mod http_wire;
pub mod load;
pub mod params;
pub mod rsa;
pub mod server;
pub mod store;
pub mod think;
pub mod users;
