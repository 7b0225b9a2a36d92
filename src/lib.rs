//! sako: a chess-variant engine. The library is built in layers, each using only the
//! ones above it in this list; the `sako` binary is a thin command-line front end.

/// `sako annotate`: the moves of PGN games searched, judged and written back, with an
/// evaluation graph per game.
pub mod annotate;
/// `sako bench`: fixed positions of every game searched to a fixed depth.
pub mod bench;
/// `sako datagen`: self-play training data (`FEN | score | result` lines) for tuning.
pub mod datagen;
/// The engine: evaluation, search, transposition table, time management.
pub mod engine;
/// One game in progress, whatever its board width: the facade the front ends use.
pub mod game;
/// `sako match`: a cutechess-style match runner refereed by the rules core.
pub mod matches;
/// The XBoard/CECP v2 and UCI front ends.
pub mod protocol;
/// The rules core: boards, pieces, the games as data, positions, legal moves, game end.
pub mod rules;
/// The vector kernels (AVX2 where the CPU has it, plain code elsewhere) below the rules
/// core and the engine.
pub mod simd;
/// `sako tune`: fits a variant's evaluation table to training positions.
pub mod tune;

pub use game::{Game, GameError};
