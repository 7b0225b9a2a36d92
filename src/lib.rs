//! sako: a chess-variant engine. The library holds the rules core (geometry, pieces,
//! variants, positions, move generation, game end) and everything built on it; the
//! `sako` binary is a thin command-line front end.

pub mod bench;
pub mod bitboard;
pub mod eval;
pub mod eval_tables;
pub mod game;
pub mod geometry;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod see;
pub mod time;
pub mod tt;
pub mod variant;
pub mod zobrist;

pub use game::Game;
