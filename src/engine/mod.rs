//! The engine on top of the rules core: evaluation (`eval`, with its tables in
//! `eval_tables`), static exchange evaluation, the search's move statistics (`history`), the search with its transposition table
//! and time management.

pub mod eval;
pub mod eval_tables;
pub mod history;
pub mod search;
pub mod see;
pub mod time;
pub mod tt;
