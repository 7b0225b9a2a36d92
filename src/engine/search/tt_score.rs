//! The transposition table's scores as the search reads them: mate scores made
//! ply-relative on the way in and out, and the test whether an entry cuts a node.
//! A leaf of the search's modules.

use super::MATE_BOUND;
use crate::engine::tt::{Bound, Entry};

/// The table's score when it may end the search of a node at `depth` (enough depth,
/// a bound that cuts; never at PV nodes or the root).
#[inline]
pub(super) fn tt_cutoff(
    e: &Entry,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    pv_node: bool,
) -> Option<i32> {
    if pv_node || ply == 0 || e.depth < depth {
        return None;
    }
    let s = from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::MATE;

    #[test]
    fn table_scores_are_ply_relative() {
        let s = MATE - 7;
        assert_eq!(from_tt(to_tt(s, 3), 3), s);
        assert_eq!(from_tt(to_tt(-s, 5), 5), -s);
    }
}
