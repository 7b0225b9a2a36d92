//! Slow, obviously-correct reference move generators used by tests to cross-check the
//! engine. They share no code with the `sako` crate.
//!
//! Each module exposes the same API: `Pos::{from_fen, to_fen, legal_moves, play, perft,
//! in_check}`.

// Each test binary that includes this module uses only part of it.
#![allow(dead_code)]

pub mod chesquerque;
pub mod shatar;
