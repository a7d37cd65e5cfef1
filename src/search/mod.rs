//! Game-independent search machinery: time budgets, node budgets and Monte-Carlo tree search.

pub mod amaf;
pub mod arena_memory;
pub mod budget;
pub mod clock;
pub mod mcts;
pub mod puct;
pub mod score;
