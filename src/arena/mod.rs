//! Matches and tournaments between players: built-in ones and external programs spoken to over
//! their real platform protocols, refereed by the project's own rules.

pub mod bracket;
pub mod cli;
pub mod duel;
pub mod engines;
pub mod games;
pub mod memory;
pub mod orphans;
pub mod player;
pub mod players;
pub mod process;
pub mod record;
pub mod referee;
pub mod report;
pub mod stats;
pub mod summary;
pub mod tally;
