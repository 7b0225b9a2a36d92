//! Square weights: a pair of numbers per piece and square whose sum over the board the
//! position keeps up to date as pieces are put and removed, so that a user of the rules
//! core (the evaluation's piece-square tables) reads the total instead of adding it up.
//! The position knows nothing of what the numbers mean; without weights it keeps no sum.

use std::sync::Arc;

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::geometry::{Square, MAX_SQUARES};
use crate::rules::position::{piece_code, Color, Piece, Position, NO_PIECE};

/// Two numbers per piece code and square (for example a middlegame and an endgame
/// value), indexed `piece code * MAX_SQUARES + square`.
#[derive(Clone, Debug)]
pub struct SquareWeights {
    table: Vec<[i32; 2]>,
}

impl SquareWeights {
    /// Weights from `weight(colour, type, square)`, for `types` piece types.
    pub fn new(types: usize, weight: impl Fn(Color, PieceType, Square) -> [i32; 2]) -> Self {
        let mut table = vec![[0; 2]; types * 2 * MAX_SQUARES];
        for t in 0..types {
            for c in Color::iter() {
                let code = piece_code(c, t) as usize;
                for sq in 0..MAX_SQUARES {
                    table[code * MAX_SQUARES + sq] = weight(c, t, sq);
                }
            }
        }
        SquareWeights { table }
    }

    /// The weight of piece `p` on `sq` (zero for a type the table does not cover).
    #[inline(always)]
    pub fn of(&self, p: Piece, sq: Square) -> [i32; 2] {
        self.table
            .get(p as usize * MAX_SQUARES + sq)
            .copied()
            .unwrap_or([0; 2])
    }
}

impl<B: BoardWidth> Position<B> {
    /// Installs `weights` (or removes them) and sums them over the board. The sums of
    /// earlier plies, restored by unmaking moves made before this call, are not
    /// recomputed: install weights on a position whose earlier moves will not be taken
    /// back (a search's root).
    pub fn set_square_weights(&mut self, weights: Option<Arc<SquareWeights>>) {
        let mut sum = [0; 2];
        if let Some(w) = &weights {
            for sq in 0..self.rules.geo.squares() {
                let p = self.mailbox[sq];
                if p != NO_PIECE {
                    let v = w.of(p, sq);
                    sum[0] += v[0];
                    sum[1] += v[1];
                }
            }
        }
        self.weights = weights;
        self.st.weighted = sum;
    }

    /// The installed weights and their sum over the board, or `None` without weights.
    #[inline(always)]
    pub fn square_weights(&self) -> Option<(&Arc<SquareWeights>, [i32; 2])> {
        self.weights.as_ref().map(|w| (w, self.st.weighted))
    }

    /// Adds (`sign` 1) or takes away (`sign` -1) piece `p` on `sq` from the sum.
    #[inline(always)]
    pub(super) fn weigh(&mut self, p: Piece, sq: Square, sign: i32) {
        if let Some(w) = &self.weights {
            let v = w.of(p, sq);
            self.st.weighted[0] += sign * v[0];
            self.st.weighted[1] += sign * v[1];
        }
    }
}
