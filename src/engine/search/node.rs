//! The main alpha-beta node: game-end rules, table cut-offs, static evaluation,
//! the move loop with its PVS re-searches, and the updates after a cut-off.

use super::params::P;
use super::pruning::{plies, Verdict};
use super::singular::{excluded_key, Singular};
use super::{Worker, INF, MATE, MATE_BOUND, MAX_PLY};

use super::frame::{Node, NodeKind, QuietsTried, StaticEval, Tried};
use super::picker::MovePicker;
use super::tt_score::{from_tt, to_tt, tt_cutoff};
use crate::engine::eval::pawns::pawn_hash;
use crate::engine::tt::{Bound, Entry, NO_EVAL};
use crate::rules::compile::BoardWidth;
use crate::rules::moves::Move;
use crate::rules::position::outcome::EndProbe;

impl<B: BoardWidth> Worker<'_, B> {
    /// The score of a node whose side to move has no legal move.
    #[inline]
    pub(super) fn no_move_score(&self, ply: usize) -> i32 {
        self.pos.no_move_ending().score(self.pos.side(), ply, MATE)
    }

    /// The game-end rules at a node (`Position::ending`, the rules the referee uses):
    /// `Some(score)` when the game is over here.
    #[inline]
    pub(super) fn terminal(&mut self, ply: usize, probe: EndProbe) -> Option<i32> {
        let side = self.pos.side();
        self.pos.ending(probe).map(|e| e.score(side, ply, MATE))
    }

    /// Fail-soft principal-variation search of the current position to `depth`: the
    /// node's prologue (game end, mate distance, table), pruning before any move is
    /// tried, then the moves in order, each searched by [`Self::search_move`].
    pub(super) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        kind: NodeKind,
        allow_null: bool,
    ) -> i32 {
        let pv_node = kind == NodeKind::Pv;
        self.pv_len[ply.min(MAX_PLY)] = ply.min(MAX_PLY);
        if ply > 0 {
            if let Some(s) = self.terminal(ply, EndProbe::Search { ply }) {
                return s;
            }
            // Mate-distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(alpha, beta, ply);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        let excluded = self.excluded[ply];
        let key = excluded_key(self.pos.key(), excluded);
        let tt = self.sh.tt.probe(key);
        if let Some(s) = tt.and_then(|e| tt_cutoff(&e, depth, alpha, beta, ply, pv_node)) {
            return s;
        }
        let in_check = self.pos.in_check();
        let eval = if in_check {
            StaticEval::IN_CHECK
        } else {
            self.static_eval(tt.as_ref(), ply)
        };
        self.evals[ply] = eval.refined;
        let improving = !in_check && ply >= 2 && eval.refined > self.evals[ply - 2];
        let mut node = Node {
            depth,
            ply,
            kind,
            in_check,
            eval,
            improving,
            tt_pv: pv_node || tt.is_some_and(|e| e.pv),
            tt_move: tt.map_or(Move::NONE, |e| e.mv),
            tt_move_extension: 0,
        };
        let excluding = excluded != Move::NONE;
        if !pv_node && !in_check && ply > 0 && beta.abs() < MATE_BOUND {
            if let Some(s) = self.prune_node(&node, beta, allow_null && !excluding) {
                return s;
            }
            if !excluding {
                if let Some(s) = self.probcut(&node, beta, key, tt.as_ref()) {
                    return s;
                }
            }
        }
        if let Some(e) = tt.filter(|e| self.singular_candidate(&node, e)) {
            match self.singular_test(&node, &e, beta) {
                Singular::Extend(n) => node.tt_move_extension = n,
                Singular::Cut(s) => return s,
            }
        }
        // Internal iterative reduction: a node the table knows no move for is
        // searched a ply shallower (its next visit will have a move to try first).
        // Expected cut nodes, deep enough, lose one ply more.
        if depth >= self.k.get(P::IirMinDepth) && node.tt_move == Move::NONE && !excluding {
            node.depth -= 1 + i32::from(node.is_cut() && depth >= 8);
        }
        self.search_moves(&node, alpha, beta, key)
    }

    /// The static evaluation of the current position, the network's accumulators
    /// brought up to date first.
    #[inline]
    pub(super) fn evaluate(&mut self) -> i32 {
        self.pos.update_accumulators();
        self.sh
            .eval
            .evaluate_cached(&self.pos, &mut self.pawns.borrow_mut())
    }

    /// The static evaluation of a node not in check: the table's stored evaluation
    /// or a fresh one, corrected by the correction history, then refined by the
    /// table's score where its bound says the true value lies beyond it.
    pub(super) fn static_eval(&mut self, tt: Option<&Entry>, ply: usize) -> StaticEval {
        let raw = match tt {
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self.evaluate(),
        };
        let pawn_hash = pawn_hash(&self.pos, self.pos.rules.pawn);
        let correction = self.hist.correction(self.pos.side(), pawn_hash);
        let corrected = (raw + correction).clamp(1 - MATE_BOUND, MATE_BOUND - 1);
        let refined = match tt {
            Some(e) if e.score.abs() < MATE_BOUND => {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Lower if s > corrected => s,
                    Bound::Upper if s < corrected => s,
                    Bound::Exact => s,
                    _ => corrected,
                }
            }
            _ => corrected,
        };
        StaticEval {
            raw,
            corrected,
            refined,
            pawn_hash,
        }
    }

    /// Teaches the correction history a searched node's value `best` (bound `bound`):
    /// only where the value says something about the static evaluation — not in
    /// check, not a mate, not cut by a capture, and a bound on the right side of it.
    fn learn_correction(&mut self, node: &Node, best: i32, best_move: Move, bound: Bound) {
        let eval = node.eval.corrected;
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best > eval,
            Bound::Upper => best < eval,
        };
        if node.in_check
            || !informative
            || best.abs() >= MATE_BOUND
            || self.excluded[node.ply] != Move::NONE
            || (best_move != Move::NONE && self.is_tactical(best_move))
        {
            return;
        }
        let error = best - node.eval.raw;
        let side = self.pos.side();
        self.hist
            .update_correction(side, node.eval.pawn_hash, error, node.depth);
    }

    /// The move loop of a node: generates and orders the legal moves, prunes late and
    /// futile quiet moves and losing captures near the leaves, searches the rest,
    /// updates the PV, killers and history, and stores the result in the table.
    fn search_moves(&mut self, node: &Node, mut alpha: i32, beta: i32, key: u64) -> i32 {
        let (depth, ply, pv_node) = (node.depth, node.ply, node.is_pv());
        let (tt_move, excluded) = (node.tt_move, self.excluded[ply]);
        let scores = std::mem::take(&mut self.score_bufs[ply]);
        let mut picker = MovePicker::new(node.in_check, tt_move, self.refutations(ply), scores);

        let mut best = -INF;
        let mut best_move = Move::NONE;
        let old_alpha = alpha;
        let mut quiets = QuietsTried::new();
        let mut captures = QuietsTried::new();
        let mut quiets_seen = 0;
        // Pruning near the leaves needs a move already searched and no mate to defend.
        let may_prune = !pv_node && !node.in_check && ply > 0 && alpha.abs() < MATE_BOUND;
        let keys = self.continuation_keys(ply);
        let tt_tactical = tt_move != Move::NONE && self.is_tactical(tt_move);
        while let Some((m, order_score)) = self.next_move(&mut picker, ply) {
            if m == excluded || (ply == 0 && self.root_skip.contains(&m)) {
                continue;
            }
            let mut tried = self.tried(m, picker.handed_out - 1, &keys);
            let tactical = tried.tactical;
            let mut prune_if_quiet = false;
            if may_prune && best > -MATE_BOUND {
                quiets_seen += usize::from(!tactical);
                match self.late_verdict(node, &tried, order_score, quiets_seen, alpha) {
                    Verdict::Skip => continue,
                    Verdict::SkipUnlessCheck => prune_if_quiet = true,
                    Verdict::Search => {}
                }
            }
            self.sh.tt.prefetch(self.pos.key_after(m));
            self.moved[ply] = Some(tried.slot);
            self.pos.make(m);
            tried.gives_check = self.pos.in_check();
            if prune_if_quiet && !tried.gives_check {
                self.pos.unmake(m);
                continue;
            }
            let before = self.nodes;
            let score = self.search_move(node, &tried, (alpha, beta), best, tt_tactical);
            self.pos.unmake(m);
            if ply == 0 {
                self.add_root_effort(m, self.nodes - before);
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                        self.root_improved |= ply == 0;
                    }
                    if score >= beta {
                        let tried = (quiets.as_slice(), captures.as_slice());
                        self.reward_cutoff(m, tactical, depth, ply, tried);
                        break;
                    }
                }
            }
            if tactical {
                captures.push(m);
            } else {
                quiets.push(m);
            }
        }
        let handed_out = picker.handed_out;
        self.score_bufs[ply] = picker.into_scores();
        if handed_out == 0 {
            return self.no_move_score(ply);
        }
        if excluded != Move::NONE && best == -INF {
            // The excluded move was the only one: the others fail low.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.finish_node(node, key, best, best_move, bound)
    }

    /// The `index`-th move `m` of a node's move loop, before it is made (not yet known
    /// to give check).
    pub(super) fn tried(&self, m: Move, index: usize, keys: &[Option<usize>; 3]) -> Tried {
        let tactical = self.is_tactical(m);
        let slot = self.move_slot(m);
        let history = if tactical {
            0
        } else {
            self.quiet_score(slot, keys, false)
        };
        Tried {
            m,
            index,
            tactical,
            gives_check: false,
            history,
            slot,
        }
    }

    /// The value of a searched node, stored in the table unless moves were left out.
    fn finish_node(
        &mut self,
        node: &Node,
        key: u64,
        best: i32,
        best_move: Move,
        bound: Bound,
    ) -> i32 {
        if node.ply == 0 && !self.root_skip.is_empty() {
            // Some root moves were left out: this is not the position's true value.
            return best;
        }
        self.learn_correction(node, best, best_move, bound);
        let entry = Entry {
            mv: best_move,
            score: to_tt(best, node.ply),
            eval: node.eval.raw,
            depth: node.depth,
            bound,
            pv: node.tt_pv,
        };
        self.sh.tt.store(key, entry);
        best
    }

    /// Searches the move `tried.m`, already made, as the `tried.index`-th move of
    /// `node` whose best score so far is `best`: the first move with the full window,
    /// the others with a null window (late quiet moves reduced), searched again when
    /// they surprise: a reduced move that fails high goes a ply deeper or shallower
    /// than planned by how far it beat the best, then the full window at PV nodes.
    /// `tt_tactical`: the table's move of the node is a capture or promotion.
    fn search_move(
        &mut self,
        node: &Node,
        tried: &Tried,
        (alpha, beta): (i32, i32),
        best: i32,
        tt_tactical: bool,
    ) -> i32 {
        let Tried {
            m,
            index,
            tactical,
            gives_check,
            history,
            ..
        } = *tried;
        let (depth, ply, pv_node) = (node.depth, node.ply, node.is_pv());
        let kind = node.kind;
        let ext = if m == node.tt_move && node.tt_move_extension != 0 {
            node.tt_move_extension
        } else {
            i32::from(gives_check && (ply as i32) < 2 * self.root_depth)
        };
        let mut new_depth = depth - 1 + ext;
        if index == 0 {
            let child = if pv_node {
                NodeKind::Pv
            } else {
                kind.flipped()
            };
            return -self.negamax(-beta, -alpha, new_depth, ply + 1, child, true);
        }
        let killers = self.killers[ply];
        let reducible = depth >= 3
            && !tactical
            && !node.in_check
            && !gives_check
            && index >= if pv_node { 3 } else { 2 }
            && m != killers[0]
            && m != killers[1];
        let mut score;
        if reducible {
            let mut r = self.k.reduction_1024(depth, index);
            if pv_node || node.tt_pv {
                r -= self.k.get(P::LmrPv);
            }
            if !node.improving {
                r += self.k.get(P::LmrNotImproving);
            }
            // Expected cut nodes: a late move is unlikely to be the one that cuts.
            if node.is_cut() {
                r += self.k.get(P::LmrCutNode);
            }
            // The table's move is a capture: quiet moves are less likely to matter.
            if tt_tactical {
                r += self.k.get(P::LmrTtTactical);
            }
            // Quiet moves with a good history are reduced less, bad ones more.
            let r = plies(r) - history / self.k.get(P::LmrHistoryDiv);
            let reduced = (new_depth - r).clamp(1, new_depth.max(1));
            score = -self.negamax(-alpha - 1, -alpha, reduced, ply + 1, NodeKind::Cut, true);
            if score > alpha && reduced < new_depth {
                // A clear surprise earns a ply more, a narrow one a ply less.
                new_depth += i32::from(score > best + self.k.get(P::DeeperMargin) + 2 * new_depth);
                new_depth -= i32::from(score < best + self.k.get(P::ShallowerMargin));
                if new_depth > reduced {
                    score =
                        -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, kind.flipped(), true);
                }
            }
        } else {
            score = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, kind.flipped(), true);
        }
        if score > alpha && score < beta && pv_node {
            score = -self.negamax(-beta, -alpha, new_depth, ply + 1, NodeKind::Pv, true);
        }
        score
    }

    /// The PV of `ply` becomes `m` followed by the child's PV.
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child = ply + 1;
        let len = self.pv_len[child.min(MAX_PLY)].max(child);
        for k in child..len.min(MAX_PLY) {
            self.pv[ply][k] = self.pv[child][k];
        }
        self.pv_len[ply] = len.min(MAX_PLY);
    }

    /// `m` caused a beta cut-off at `ply` after the moves `tried` (quiet, tactical):
    /// it gains history (a quiet one also becomes a killer and the countermove), and
    /// the moves of its kind tried before it lose as much, as do the captures.
    fn reward_cutoff(
        &mut self,
        m: Move,
        tactical: bool,
        depth: i32,
        ply: usize,
        tried: (&[Move], &[Move]),
    ) {
        let bonus = (self.k.get(P::HistoryBonusMul) * depth - self.k.get(P::HistoryBonusSub))
            .clamp(50, self.k.get(P::HistoryBonusMax));
        let keys = self.continuation_keys(ply);
        if tactical {
            let (s, v) = (self.move_slot(m), self.victim_type(m));
            self.hist.update_capture(s, v, bonus);
        } else {
            let killers = self.killers[ply];
            if killers[0] != m {
                self.killers[ply] = [m, killers[0]];
            }
            if let Some(prev) = self.countermove_slot() {
                self.hist.set_countermove(prev, m);
            }
            let s = self.move_slot(m);
            self.hist.update_quiet(s, bonus);
            self.hist.update_continuation(&keys, s, bonus);
            for &q in tried.0 {
                let s = self.move_slot(q);
                self.hist.update_quiet(s, -bonus);
                self.hist.update_continuation(&keys, s, -bonus);
            }
        }
        for &c in tried.1 {
            let (s, v) = (self.move_slot(c), self.victim_type(c));
            self.hist.update_capture(s, v, -bonus);
        }
    }
}
