//! Singular extensions: when the table's move looks much better than every other move
//! of a node, it is searched deeper; when the other moves also beat beta, the node is
//! cut at once (multi-cut).
//!
//! The test searches the node again without the table's move ("excluded"), to half
//! the depth and with a null window just below the table's score. Such an
//! excluded-move search stores its results under a key of its own, never tries a
//! null move, and fails low when the excluded move was the only one.

use super::frame::Node;
use super::params::P;
use super::tt_score::from_tt;
use super::{Worker, MATE_BOUND};

use crate::engine::tt::{Bound, Entry};
use crate::rules::compile::BoardWidth;
use crate::rules::moves::Move;

/// How much shallower than the node the table's entry may be.
const TT_DEPTH_MARGIN: i32 = 3;

/// What the singularity test decided.
pub(super) enum Singular {
    /// Search the table's move this many plies deeper (negative: shallower).
    Extend(i32),
    /// The node is cut with this score: even without the table's move it beats beta.
    Cut(i32),
}

/// The table key of a node searched without `excluded`, so that the excluded-move
/// search neither reads nor overwrites the node's own entry.
#[inline]
pub(super) fn excluded_key(key: u64, excluded: Move) -> u64 {
    if excluded == Move::NONE {
        key
    } else {
        key ^ u64::from(excluded.0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl<B: BoardWidth> Worker<'_, B> {
    /// Whether the table's entry `e` at `node` is worth a singularity test: deep
    /// enough, with a move, a score that is no mate and a bound that says the move
    /// reached it.
    pub(super) fn singular_candidate(&self, node: &Node, e: &Entry) -> bool {
        node.ply > 0
            && node.depth >= self.k.get(P::SingularMinDepth)
            && e.mv != Move::NONE
            && self.excluded[node.ply] == Move::NONE
            && e.depth >= node.depth - TT_DEPTH_MARGIN
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && e.score.abs() < MATE_BOUND
    }

    /// Searches `node` without the table's move `e.mv` and says how much to extend
    /// that move, or that the node is cut.
    pub(super) fn singular_test(&mut self, node: &Node, e: &Entry, beta: i32) -> Singular {
        let ply = node.ply;
        let tt_score = from_tt(e.score, ply);
        let singular_beta = tt_score - self.k.get(P::SingularBetaMul) * node.depth / 10;
        let depth = (node.depth - 1) / 2;
        self.excluded[ply] = e.mv;
        let kind = node.kind.null_window();
        let score = self.negamax(singular_beta - 1, singular_beta, depth, ply, kind, false);
        self.excluded[ply] = Move::NONE;
        // The excluded-move search wrote its own evaluation for this ply.
        self.evals[ply] = node.static_eval();
        if self.stopped {
            return Singular::Extend(0);
        }
        if score < singular_beta {
            // Only deeper lines may grow: the check keeps the tree finite.
            let room = (ply as i32) < 2 * self.root_depth;
            let double = !node.is_pv()
                && score < singular_beta - self.k.get(P::SingularDouble)
                && (ply as i32) < self.root_depth;
            Singular::Extend(match (room, double) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            })
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if tt_score >= beta || node.is_cut() {
            // Another move nearly reaches the table's score, which already beats
            // beta (or the node is expected to cut anyway): the table's move is not
            // the only good one.
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}
