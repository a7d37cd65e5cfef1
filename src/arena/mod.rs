//! Matches and tournaments between players: built-in ones and external programs spoken to over
//! their real platform protocols, refereed by the project's own rules.

pub mod bracket;
pub mod record;
pub mod report;
pub mod selfplay;
pub mod stats;

pub use selfplay::*;
