//! Pruning and reductions: rounding reductions to plies, whole-node pruning
//! (razoring, reverse futility, null move, ProbCut) and the verdict on late moves.

use super::frame::{Node, NodeKind, Tried};
use super::params::P;
use super::tt_score::{from_tt, to_tt};
use super::{Worker, MATE_BOUND};

use crate::engine::tt::{Bound, Entry};
use crate::rules::compile::BoardWidth;
use crate::rules::moves::MoveList;
use crate::rules::position::Color;
use crate::rules::variant::NoMoveRule;

/// Whole plies of a reduction in 1/1024 ply, rounded down.
#[inline]
pub(super) fn plies(r_1024: i32) -> i32 {
    r_1024.div_euclid(1024)
}

/// What late-move pruning decides for a move.
pub(super) enum Verdict {
    Skip,
    /// Skip it unless it gives check (known only once it is made).
    SkipUnlessCheck,
    Search,
}

impl<B: BoardWidth> Worker<'_, B> {
    /// How many quiet moves a non-PV node at `depth` (1 to 4) searches before late-move
    /// pruning drops the rest.
    fn late_move_limit(&self, depth: i32, improving: bool) -> usize {
        ((self.k.get(P::LmpBase) + depth * depth) / if improving { 1 } else { 2 }) as usize
    }

    /// Whether the side to move may pass for null-move pruning (see the module
    /// documentation of the search: drops, bare king and pawns, stalemate wins).
    fn null_allowed(&self) -> bool {
        let pos = &self.pos;
        let us = pos.side();
        if self.drops && !(pos.hand_is_empty(Color::White) && pos.hand_is_empty(Color::Black)) {
            return false;
        }
        let r = pos.rules;
        let mut pieces = pos.pieces_of_color(us) & !pos.pieces(us, r.king);
        if let Some(p) = r.pawn {
            pieces &= !pos.pieces(us, p);
        }
        let needed = if r.def.end.no_move == NoMoveRule::SideToMoveLoses {
            2
        } else {
            1
        };
        pieces.count() >= needed
    }

    /// Pruning of a whole non-PV node before its moves: reverse futility near the
    /// leaves, then the null move. `Some(score)` when the node is cut.
    pub(super) fn prune_node(&mut self, node: &Node, beta: i32, allow_null: bool) -> Option<i32> {
        let (depth, static_eval) = (node.depth, node.static_eval());
        // Razoring: so far below the window that only a capture could help.
        let razor_margin = self.k.get(P::RazorBase) + self.k.get(P::RazorDepth2) * depth * depth;
        if depth <= self.k.get(P::RazorMaxDepth) && static_eval + razor_margin < beta {
            let score = self.qsearch(beta - 1, beta, node.ply);
            if self.stopped {
                return Some(0);
            }
            if score < beta {
                return Some(score);
            }
        }
        // Reverse futility: far above beta near the leaves (less far when improving).
        let margin = self.k.get(P::RfpMargin) * depth
            - if node.improving {
                self.k.get(P::RfpImproving)
            } else {
                0
            };
        if depth <= self.k.get(P::RfpDepth) && static_eval - margin >= beta {
            return Some(static_eval);
        }
        if !(allow_null && depth >= 3 && static_eval >= beta && self.null_allowed()) {
            return None;
        }
        // The further above beta, the larger the reduction.
        let r = self.k.get(P::NmpBase)
            + depth / self.k.get(P::NmpDepthDiv)
            + ((static_eval - beta) / self.k.get(P::NmpEvalDiv)).min(3);
        self.moved[node.ply] = None;
        self.pos.make_null();
        self.sh.tt.prefetch(self.pos.key());
        let child = node.kind.flipped();
        let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, node.ply + 1, child, false);
        self.pos.unmake_null();
        if self.stopped {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        let score = if score >= MATE_BOUND { beta } else { score };
        if depth < 12 {
            return Some(score);
        }
        // Deep nodes: verify with a reduced search of our own moves (zugzwang).
        let verified = self.negamax(beta - 1, beta, depth - r, node.ply, NodeKind::All, false);
        if self.stopped {
            return Some(0);
        }
        (verified >= beta).then_some(score)
    }

    /// ProbCut: at a deep enough non-PV node, a capture or promotion that wins enough
    /// by SEE and then beats a bound well above beta, first in the quiescence search
    /// and then in a search four plies shallower, is taken to beat beta at full depth
    /// too. `Some(score)` when the node is cut; the table learns the capture.
    pub(super) fn probcut(
        &mut self,
        node: &Node,
        beta: i32,
        key: u64,
        tt: Option<&Entry>,
    ) -> Option<i32> {
        let (depth, ply) = (node.depth, node.ply);
        let raised = beta + self.k.get(P::ProbcutMargin)
            - self.k.get(P::ProbcutImproving) * i32::from(node.improving);
        if depth < self.k.get(P::ProbcutMinDepth) || raised >= MATE_BOUND {
            return None;
        }
        // The table already has the node below the raised bound at nearly this depth.
        if tt.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.score, ply) < raised) {
            return None;
        }
        let mut list = MoveList::new();
        self.pos.generate_pseudo(&mut list, true);
        let mut scores = self.take_scores(ply, list.len());
        self.order(&list, node.tt_move, ply, &mut scores);
        let legality = self.pos.legality();
        let mut cut = None;
        for i in 0..list.len() {
            let m = Self::pick(&mut list, &mut scores, i);
            if !self.see_at_least(m, raised - node.static_eval())
                || !self.pos.is_legal_given(m, &legality)
            {
                continue;
            }
            self.sh.tt.prefetch(self.pos.key_after(m));
            self.moved[ply] = Some(self.move_slot(m));
            self.pos.make(m);
            let mut score = -self.qsearch(-raised, -raised + 1, ply + 1);
            if score >= raised && !self.stopped {
                let child = node.kind.flipped();
                score = -self.negamax(-raised, -raised + 1, depth - 4, ply + 1, child, true);
            }
            self.pos.unmake(m);
            if self.stopped {
                cut = Some(0);
                break;
            }
            if score >= raised && score < MATE_BOUND {
                let entry = Entry {
                    mv: m,
                    score: to_tt(score, ply),
                    eval: node.eval.raw,
                    depth: depth - 3,
                    bound: Bound::Lower,
                    pv: node.tt_pv,
                };
                self.sh.tt.store(key, entry);
                cut = Some(score - (raised - beta));
                break;
            }
        }
        self.score_bufs[ply] = scores;
        cut
    }

    /// Whether a late move of a non-PV node near the leaves is worth searching: a
    /// capture that loses too much by SEE is skipped; a quiet move is skipped when it
    /// loses material by SEE or its continuation history is bad at a low reduced
    /// depth, and skipped unless it gives check when it comes too late (late-move
    /// pruning) or the static evaluation is far below alpha (futility).
    pub(super) fn late_verdict(
        &self,
        node: &Node,
        tried: &Tried,
        order_score: i32,
        quiets_seen: usize,
        alpha: i32,
    ) -> Verdict {
        let (depth, m) = (node.depth, tried.m);
        if tried.tactical {
            let losing = depth <= 4
                && order_score < 0
                && !self.see_at_least(m, -self.k.get(P::SeeCaptureMargin) * depth);
            return if losing {
                Verdict::Skip
            } else {
                Verdict::Search
            };
        }
        // The depth this move would be searched to after its reduction.
        let lmr_depth = (depth - 1 - plies(self.k.reduction_1024(depth, tried.index))).max(0);
        let continuation = tried.history - self.hist.quiet(tried.slot);
        if lmr_depth < 4 && continuation < -self.k.get(P::ContHistPrune) * depth {
            return Verdict::Skip;
        }
        let late = depth <= self.k.get(P::LmpMaxDepth)
            && quiets_seen > self.late_move_limit(depth, node.improving);
        let futile = lmr_depth <= self.k.get(P::FutilityMaxDepth)
            && node.static_eval()
                + self.k.get(P::FutilityBase)
                + self.k.get(P::FutilityDepth) * lmr_depth
                <= alpha;
        let droppable = late || futile;
        let checks = droppable && self.may_give_check(m);
        if droppable && !checks {
            return Verdict::Skip;
        }
        // (Tested after the cheaper reasons to skip: it skips even a checking move.)
        if lmr_depth <= 8
            && !self.see_at_least(m, -self.k.get(P::SeeQuietMargin) * lmr_depth * lmr_depth)
        {
            return Verdict::Skip;
        }
        if checks {
            Verdict::SkipUnlessCheck
        } else {
            Verdict::Search
        }
    }
}
