//! Quiescence search: captures and promotions until the position is quiet, every
//! evasion in check, with delta pruning and its own table entries.

use super::params::P;
use super::tt_score::{to_tt, tt_cutoff};
use super::{Worker, INF, MAX_PLY};

use crate::engine::tt::{Bound, Entry, NO_EVAL};
use crate::rules::compile::BoardWidth;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::position::outcome::EndProbe;
use crate::rules::position::{piece_type, NO_PIECE};

impl<B: BoardWidth> Worker<'_, B> {
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(s) = self.terminal(ply, EndProbe::Quiescence) {
            return s;
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        let key = self.pos.key();
        let tt = self.sh.tt.probe(key);
        let pv_node = beta - alpha > 1;
        if let Some(s) = tt.and_then(|e| tt_cutoff(&e, 0, alpha, beta, ply, pv_node)) {
            return s;
        }
        let in_check = self.pos.in_check();
        let old_alpha = alpha;
        let mut list = MoveList::new();
        let mut best;
        let mut raw_eval = NO_EVAL;
        if in_check {
            self.pos.generate_legal(&mut list);
            if list.is_empty() {
                return self.no_move_score(ply);
            }
            best = -INF;
        } else {
            let eval = self.static_eval(tt.as_ref(), ply);
            let stand = eval.refined;
            raw_eval = eval.raw;
            if stand >= beta {
                if tt.is_none() {
                    self.store_qsearch(key, Move::NONE, stand, eval.raw, Bound::Lower, ply);
                }
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
            self.pos.generate_pseudo(&mut list, true);
        }
        let mut best_move = Move::NONE;
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        // Pins and the like, found at the first capture that needs them.
        let mut legality = None;
        let mut scores = self.take_scores(ply, list.len());
        self.order(&list, tt_move, ply, &mut scores);
        for i in 0..list.len() {
            let m = Self::pick(&mut list, &mut scores, i);
            if !in_check {
                if scores[i] < 0 {
                    // Only captures that lose material by SEE are left.
                    break;
                }
                let info = legality.get_or_insert_with(|| self.pos.legality());
                if !self.pos.is_legal_given(m, info) {
                    continue;
                }
                if self.delta_prunes(m, best, alpha) {
                    continue;
                }
            }
            self.sh.tt.prefetch(self.pos.key_after(m));
            self.moved[ply] = Some(self.move_slot(m));
            self.pos.make(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.pos.unmake(m);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.score_bufs[ply] = scores;
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store_qsearch(key, best_move, best, raw_eval, bound, ply);
        best
    }

    /// Delta pruning: a capture (not a promotion) whose victim cannot lift the score
    /// `best` near `alpha`.
    fn delta_prunes(&self, m: Move, best: i32, alpha: i32) -> bool {
        if m.kind() == MoveKind::Promotion {
            return false;
        }
        let v = self.pos.piece_on(m.to());
        let gain = if v == NO_PIECE {
            100
        } else {
            self.sh.eval.order_value(piece_type(v))
        };
        best + gain + self.k.get(P::QsDeltaMargin) < alpha && gain < 10_000
    }

    /// Stores a quiescence result (depth 0) in the table.
    fn store_qsearch(&self, key: u64, mv: Move, score: i32, eval: i32, bound: Bound, ply: usize) {
        self.sh.tt.store(
            key,
            Entry {
                mv,
                score: to_tt(score, ply),
                eval,
                depth: 0,
                bound,
                pv: false,
            },
        );
    }
}
