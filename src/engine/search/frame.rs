//! The frame of an alpha-beta node: what kind of node it is, its static evaluation
//! in stages, and the moves its loop tries. A leaf of the search's modules.

use super::INF;
use crate::engine::tt::NO_EVAL;
use crate::rules::moves::Move;

/// What a node is expected to be, as in the usual alpha-beta taxonomy: a node of the
/// principal variation, a node expected to fail high (cut) or one expected to fail
/// low (all). Only the PV kind changes the window; the other two steer reductions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The expected kind of a child searched with a null window at its full depth:
    /// a cut node's children are all nodes and the other way round; the late moves
    /// of a PV node are expected to fail low, so their children are cut nodes.
    pub(super) fn flipped(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::All,
            NodeKind::Pv | NodeKind::All => NodeKind::Cut,
        }
    }

    /// The kind of this node searched again with a null window around a bound of
    /// its own (the singularity test): a PV node becomes an all node.
    pub(super) fn null_window(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::Cut,
            NodeKind::Pv | NodeKind::All => NodeKind::All,
        }
    }
}

/// What the move loop of a node needs to know about it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) depth: i32,
    pub(super) ply: usize,
    /// What the node is expected to be.
    pub(super) kind: NodeKind,
    pub(super) in_check: bool,
    /// The static evaluation in its stages ([`StaticEval::IN_CHECK`] in check).
    pub(super) eval: StaticEval,
    /// The static evaluation is above the one two plies earlier (same side to move).
    pub(super) improving: bool,
    /// The node is or was on a principal variation (PV node, or the table says so).
    pub(super) tt_pv: bool,
    /// The table's move (`Move::NONE` if none).
    pub(super) tt_move: Move,
    /// How much deeper the singularity test says the table's move is searched
    /// (0: as any other move).
    pub(super) tt_move_extension: i32,
}

impl Node {
    /// A node of the principal variation (full window).
    pub(super) fn is_pv(&self) -> bool {
        self.kind == NodeKind::Pv
    }

    /// A node expected to fail high.
    pub(super) fn is_cut(&self) -> bool {
        self.kind == NodeKind::Cut
    }

    /// The static evaluation the pruning decisions use: corrected, refined by the
    /// table's score (`-INF` in check).
    pub(super) fn static_eval(&self) -> i32 {
        self.eval.refined
    }
}

/// A node's static evaluation in its three stages.
#[derive(Clone, Copy)]
pub(super) struct StaticEval {
    /// As the evaluation gives it (and the table stores it).
    pub(super) raw: i32,
    /// Corrected by the correction history.
    pub(super) corrected: i32,
    /// The corrected one, or the table's score where its bound says the true value
    /// lies beyond it.
    pub(super) refined: i32,
    /// The hash of the pawn formation that keys the correction.
    pub(super) pawn_hash: u64,
}

impl StaticEval {
    /// A node in check has no static evaluation: nothing is stored in the table
    /// (`NO_EVAL`), every stage is `-INF` and the correction is not used.
    pub(super) const IN_CHECK: StaticEval = StaticEval {
        raw: NO_EVAL,
        corrected: -INF,
        refined: -INF,
        pawn_hash: 0,
    };
}

/// A move of the move loop, as `search_move` needs it.
#[derive(Clone, Copy)]
pub(super) struct Tried {
    pub(super) m: Move,
    /// Its place in the node's move order (0 = first).
    pub(super) index: usize,
    /// A capture, promotion or en-passant capture.
    pub(super) tactical: bool,
    pub(super) gives_check: bool,
    /// Its history score (0 for tactical moves), read before it was made.
    pub(super) history: i32,
    /// Its history slot.
    pub(super) slot: usize,
}

/// The first quiet moves tried at a node, whose history a later cut-off lowers.
pub(super) struct QuietsTried {
    moves: [Move; 64],
    len: usize,
}

impl QuietsTried {
    pub(super) fn new() -> Self {
        QuietsTried {
            moves: [Move::NONE; 64],
            len: 0,
        }
    }

    pub(super) fn push(&mut self, m: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    pub(super) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}
