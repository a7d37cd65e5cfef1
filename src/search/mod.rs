//! Game-independent search machinery: time budgets and Monte-Carlo tree search.

pub mod clock;
pub mod mcts;
