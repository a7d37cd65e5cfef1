//! The players a match seats: the built-in one (an engine of this program, called directly) and
//! one for each platform protocol, which speaks to an external program exactly as its platform
//! would. Each imports the `Player` trait (`arena::player`) and `common.rs`, never another player.

pub mod botzone;
pub mod builtin;
mod common;
pub mod gomocup;
pub mod gtp;
pub mod sau;
