//! The rules core. From the bottom up: the two colours, board geometry and bitboards,
//! pieces in Betza notation, the games as data (`variant`), the per-game tables compiled from them
//! (`compile`), Zobrist keys, moves, and the position with its FEN, move generation,
//! game end and move notation.

pub mod bitboard;
pub mod color;
pub mod compile;
pub mod fen_text;
pub mod geometry;
pub mod moves;
pub mod piece;
pub mod position;
pub mod variant;
pub mod xboard_def;
pub mod zobrist;
