//! Move ordering: history slots, capture and quiet scores, SEE tests, and the
//! killers and countermove handed to the picker.

use super::Worker;

use crate::engine::eval::attacks;
use crate::engine::history::slot;
use crate::rules::compile::BoardWidth;
use crate::rules::geometry::NO_SQUARE;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::position::{piece_code, piece_type, NO_PIECE};

/// Ordering score of a capture or promotion that loses material by SEE: below every
/// quiet move.
pub(super) const LOSING_CAPTURE: i32 = -(1 << 28);

impl<B: BoardWidth> Worker<'_, B> {
    /// The history slot of `m` in the current position: the piece it moves (or drops)
    /// and its destination.
    #[inline(always)]
    pub(super) fn move_slot(&self, m: Move) -> usize {
        let p = if m.kind() == MoveKind::Drop {
            piece_code(self.pos.side(), m.piece())
        } else {
            self.pos.piece_on(m.from())
        };
        slot(p, m.to())
    }

    /// The slots of the moves 1, 2 and 4 plies before the node at `ply`, the keys of
    /// its continuation histories.
    #[inline(always)]
    pub(super) fn continuation_keys(&self, ply: usize) -> [Option<usize>; 3] {
        let back = |k: usize| if ply >= k { self.moved[ply - k] } else { None };
        [back(1), back(2), back(4)]
    }

    /// The piece type a capture takes (0 for a promotion that takes nothing), the
    /// capture history's third key.
    #[inline(always)]
    pub(super) fn victim_type(&self, m: Move) -> usize {
        match m.kind() {
            MoveKind::EnPassant => self.pos.rules.pawn.map_or(0, |p| p),
            _ => match self.pos.piece_on(m.to()) {
                NO_PIECE => 0,
                v => piece_type(v) as usize,
            },
        }
    }

    /// The history score of a quiet move with slot `s`: its own history plus its
    /// continuation histories (the one 4 plies back when `far`).
    #[inline(always)]
    pub(super) fn quiet_score(&self, s: usize, keys: &[Option<usize>; 3], far: bool) -> i32 {
        let h = &self.hist;
        let near = h.quiet(s) + h.continuation(keys[0], s) + h.continuation(keys[1], s);
        if far {
            near + h.continuation(keys[2], s)
        } else {
            near
        }
    }

    /// The countermove slot of the move that led to this position (piece now on its
    /// destination, and the destination), or `None` after a null move or at the root.
    pub(super) fn countermove_slot(&self) -> Option<usize> {
        let prev = self.pos.state().last_move;
        if prev == Move::NONE {
            return None;
        }
        let p = self.pos.piece_on(prev.to());
        (p != NO_PIECE).then(|| slot(p, prev.to()))
    }

    #[inline(always)]
    pub(super) fn is_tactical(&self, m: Move) -> bool {
        self.pos.is_noisy(m)
    }

    fn capture_score(&self, m: Move) -> i32 {
        let ev = self.sh.eval;
        let victim = match m.kind() {
            MoveKind::EnPassant => self.pos.rules.pawn.map_or(100, |p| ev.order_value(p)),
            _ => {
                let v = self.pos.piece_on(m.to());
                if v == NO_PIECE {
                    0
                } else {
                    ev.order_value(piece_type(v))
                }
            }
        };
        let attacker = ev.order_value(piece_type(self.pos.piece_on(m.from())));
        let promo = if m.kind() == MoveKind::Promotion {
            ev.order_value(m.piece())
        } else {
            0
        };
        (victim + promo) * 16 - attacker / 8
    }

    /// True when `m` gains at least `threshold` by static exchange evaluation.
    pub(super) fn see_at_least(&self, m: Move, threshold: i32) -> bool {
        let ev = self.sh.eval;
        crate::engine::see::see_at_least(&self.pos, m, threshold, |t| ev.order_value(t))
    }

    /// False when the quiet move `m` surely gives no direct check: the piece it puts on
    /// its destination does not attack the enemy king from there. (Discovered checks
    /// are not looked for; castling and gating count as possible checks.) Lets pruning
    /// drop a quiet move without making it to see whether it checks.
    pub(super) fn may_give_check(&self, m: Move) -> bool {
        let pos = &self.pos;
        let us = pos.side();
        let king = pos.king_square(us.flip());
        if king == NO_SQUARE {
            return false;
        }
        let t = match m.kind() {
            MoveKind::Castle | MoveKind::Gate => return true,
            MoveKind::Drop | MoveKind::Promotion => m.piece(),
            _ => piece_type(pos.piece_on(m.from())),
        };
        let r = pos.rules;
        if !r.gives_check[t] {
            return false;
        }
        let occ = (pos.occupied() & !B::square(m.from())) | B::square(m.to());
        attacks(r, us, t, m.to(), occ).has(king)
    }

    /// The ordering score of a capture or promotion: above every quiet move when SEE
    /// says it does not lose material, below them all when it does; then by victim and
    /// capture history.
    #[inline]
    pub(super) fn noisy_score(&self, m: Move) -> i32 {
        let base = if self.see_at_least(m, 0) {
            1 << 27
        } else {
            LOSING_CAPTURE
        };
        let learned = self.hist.capture(self.move_slot(m), self.victim_type(m));
        base + self.capture_score(m) + learned / 2
    }

    pub(super) fn order(&self, list: &MoveList, tt_move: Move, ply: usize, scores: &mut [i32]) {
        let k = self.killers[ply];
        let counter = self
            .countermove_slot()
            .map_or(Move::NONE, |i| self.hist.countermove(i));
        let keys = self.continuation_keys(ply);
        for (i, &m) in list.as_slice().iter().enumerate() {
            scores[i] = if m == tt_move {
                1 << 30
            } else if self.is_tactical(m) {
                self.noisy_score(m)
            } else if m == k[0] {
                (1 << 26) + 1
            } else if m == k[1] {
                1 << 26
            } else if m == counter {
                (1 << 26) - 1
            } else {
                self.quiet_score(self.move_slot(m), &keys, true)
            };
        }
    }

    /// The killers of `ply` and the countermove of the move that led there.
    pub(super) fn refutations(&self, ply: usize) -> [Move; 3] {
        let k = self.killers[ply];
        let counter = self
            .countermove_slot()
            .map_or(Move::NONE, |i| self.hist.countermove(i));
        [k[0], k[1], counter]
    }

    /// The ordering-score buffer of `ply`, sized for `len` moves; the node gives it back
    /// to `score_bufs` when it is done (a node left early just drops it).
    pub(super) fn take_scores(&mut self, ply: usize, len: usize) -> Vec<i32> {
        let mut v = std::mem::take(&mut self.score_bufs[ply]);
        v.clear();
        v.resize(len, 0);
        v
    }

    /// Moves the best-scored remaining move to position `i` and returns it.
    #[inline(always)]
    pub(super) fn pick(list: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
        let n = list.len();
        let mut best = i;
        for j in i + 1..n {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        if best != i {
            list.as_mut_slice().swap(i, best);
            scores.swap(i, best);
        }
        list.as_slice()[i]
    }
}
