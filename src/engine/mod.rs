//! The engine on top of the rules core: evaluation (`eval`, with its tables,
//! parameter layout and pawn cache; `nnue`, the network), static exchange evaluation, the search's move statistics (`history`), the search with its transposition table
//! (on huge pages where the system offers them: `huge_array`), time management, the
//! win/draw/loss model of a score (`wdl`) and strength levels (`strength`).

pub mod eval;
pub mod history;
pub mod huge_array;
pub mod nnue;
pub mod search;
pub mod see;
pub mod strength;
pub mod time;
pub mod tt;
pub mod wdl;
