//! The root: iterative deepening, MultiPV lines, aspiration windows, reporting,
//! and the time decisions between iterations.

use super::frame::NodeKind;
use super::params::P;
use super::{Score, SearchInfo, Worker, INF, MATE, MATE_BOUND};
use std::sync::atomic::Ordering;

use crate::rules::compile::BoardWidth;
use crate::rules::moves::Move;

impl<B: BoardWidth> Worker<'_, B> {
    /// Iterative deepening. Worker 0 reports and decides; returns the best line with
    /// the depth completed. With MultiPV, each depth is searched once per line, every
    /// line leaving out the better lines' first moves; the lines of a depth are then
    /// sorted by score and reported best first.
    pub(super) fn iterate(
        &mut self,
        max_depth: u32,
        root_moves: usize,
        mut on_info: Option<&mut (dyn FnMut(&SearchInfo) + Send)>,
    ) -> RootResult {
        let mut best = RootResult::default();
        let lines = if self.id == 0 {
            self.sh.multipv.clamp(1, root_moves.max(1))
        } else {
            1
        };
        let mut prev = vec![0i32; lines];
        let timed = self.sh.clock.is_timed() && !self.sh.limits.infinite;
        let mut stability = Stability::default();
        for depth in 1..=max_depth as i32 {
            let d = if self.id % 2 == 1 { depth + 1 } else { depth };
            self.root_depth = d;
            self.root_improved = false;
            let Some(found) = self.search_lines(d, depth, &prev) else {
                // Stopped: a move that beat the others in the unfinished iteration is
                // kept (it was searched to the full depth against the previous best).
                let improved = self.root_improved || best.best == Move::NONE;
                if improved && lines == 1 && self.pv_len[0] > 0 {
                    best.best = self.pv[0][0];
                    best.ponder = if self.pv_len[0] > 1 {
                        self.pv[0][1]
                    } else {
                        Move::NONE
                    };
                }
                break;
            };
            let Some(top) = found.first() else {
                continue;
            };
            for (p, line) in prev.iter_mut().zip(&found) {
                *p = line.score;
            }
            best = RootResult {
                best: top.pv[0],
                ponder: top.pv.get(1).copied().unwrap_or(Move::NONE),
                score: top.score,
                depth: d as u32,
            };
            if self.id == 0 {
                self.sh.nodes[0].store(self.nodes, Ordering::Relaxed);
                if let Some(cb) = on_info.as_mut() {
                    self.report(d, &found, lines, cb);
                }
            }
            let scale = stability.update(best.best, best.score) * self.effort_scale(best.best, d);
            if self.id == 0 && timed && self.should_stop_deepening(&best, d, root_moves, scale) {
                break;
            }
        }
        self.root_skip.clear();
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        best
    }

    /// Searches every MultiPV line of one depth (`d`, the iteration `depth`), each in an
    /// aspiration window around the line's previous score; the lines come back sorted
    /// by score, best first. `None` when the search was stopped.
    fn search_lines(&mut self, d: i32, depth: i32, prev: &[i32]) -> Option<Vec<RootLine>> {
        let mut found: Vec<RootLine> = Vec::with_capacity(prev.len());
        for &prev_score in prev {
            self.root_skip = self.sh.excluded.clone();
            self.root_skip.extend(found.iter().map(|l| l.pv[0]));
            self.seldepth = 0;
            let score = self.aspiration(d, depth, prev_score);
            if self.stopped {
                return None;
            }
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            if pv.is_empty() {
                break;
            }
            found.push(RootLine {
                score,
                pv,
                seldepth: self.seldepth,
            });
        }
        // A later line can score above an earlier one (the search is not exact); the
        // best line is always reported first.
        found.sort_by_key(|l| std::cmp::Reverse(l.score));
        Some(found)
    }

    /// The root search at depth `d` in a window around `prev_score` (from iteration 4
    /// on), widened on each fail until the score falls inside.
    pub(super) fn aspiration(&mut self, d: i32, depth: i32, prev_score: i32) -> i32 {
        let mut delta = self.k.get(P::AspirationDelta);
        let (mut alpha, mut beta) = if depth >= 4 {
            (
                (prev_score - delta).max(-INF),
                (prev_score + delta).min(INF),
            )
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.negamax(alpha, beta, d, 0, NodeKind::Pv, false);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta / 2 + 10;
        }
    }

    /// Reports the lines of a finished depth, best first.
    pub(super) fn report(
        &self,
        d: i32,
        found: &[RootLine],
        lines: usize,
        cb: &mut &mut (dyn FnMut(&SearchInfo) + Send),
    ) {
        for (i, line) in found.iter().enumerate() {
            let info = SearchInfo {
                depth: d as u32,
                seldepth: line.seldepth as u32,
                score: Score::from_internal(line.score),
                nodes: self.sh.total_nodes(),
                time_ms: self.sh.clock.elapsed_ms(),
                pv: line.pv.iter().map(|&m| self.pos.move_text(m)).collect(),
                multipv: i + 1,
                lines,
            };
            cb(&info);
        }
    }

    /// Counts `nodes` more searched under the root move `m`.
    pub(super) fn add_root_effort(&mut self, m: Move, nodes: u64) {
        match self.root_effort.iter_mut().find(|(r, _)| *r == m) {
            Some((_, n)) => *n += nodes,
            None => self.root_effort.push((m, nodes)),
        }
    }

    /// The factor by which the share of the search's nodes spent under the best move
    /// `best` scales the soft time budget after depth `d`: a move that took nearly all
    /// of them is a settled choice (down to 0.6), one that took few an open question
    /// (up to 1.6). Shallow depths say too little to count.
    fn effort_scale(&self, best: Move, d: i32) -> f64 {
        if d < 8 || self.nodes == 0 {
            return 1.0;
        }
        let spent = self
            .root_effort
            .iter()
            .find(|(m, _)| *m == best)
            .map_or(0, |&(_, n)| n);
        let share = spent as f64 / self.nodes as f64;
        ((1.5 - share) * 1.35).clamp(0.6, 1.6)
    }

    /// After a finished depth of a timed search: stop when the soft time is used up,
    /// when there is only one move, or when a mate is found and confirmed deeper.
    fn should_stop_deepening(
        &self,
        best: &RootResult,
        d: i32,
        root_moves: usize,
        scale: f64,
    ) -> bool {
        if self.sh.clock.soft_expired_scaled(scale) || root_moves == 1 {
            return true;
        }
        let mate_plies = MATE - best.score.abs();
        best.score.abs() >= MATE_BOUND && d >= mate_plies + 4
    }
}

/// How settled the search is, for the time spent on a move: a best move that keeps
/// changing or a score that falls asks for more time, a stable one for less.
#[derive(Default)]
pub(super) struct Stability {
    last_move: Option<Move>,
    last_score: i32,
    /// Iterations in a row that ended with the same best move.
    same_move: u32,
}

impl Stability {
    /// Takes the result of a finished iteration; returns the factor by which to scale
    /// the soft time budget (about 0.7 to 2.2).
    fn update(&mut self, best: Move, score: i32) -> f64 {
        let falling = match self.last_move {
            Some(_) if score.abs() < MATE_BOUND => {
                (1.0 + (self.last_score - score) as f64 / 150.0).clamp(0.85, 1.5)
            }
            _ => 1.0,
        };
        if self.last_move == Some(best) {
            self.same_move += 1;
        } else {
            self.same_move = 0;
        }
        self.last_move = Some(best);
        self.last_score = score;
        let unstable = match self.same_move {
            0 => 1.5,
            1 => 1.2,
            2 => 1.0,
            _ => 0.85,
        };
        unstable * falling
    }
}

/// One line of the root search at one depth.
pub(super) struct RootLine {
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
    pub(super) seldepth: usize,
}

/// What a worker's iterative deepening found: the best move, the expected reply, the
/// score and the depth completed.
#[derive(Clone, Copy)]
pub(super) struct RootResult {
    pub(super) best: Move,
    pub(super) ponder: Move,
    pub(super) score: i32,
    pub(super) depth: u32,
}

impl Default for RootResult {
    fn default() -> Self {
        RootResult {
            best: Move::NONE,
            ponder: Move::NONE,
            score: 0,
            depth: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsettled_search_gets_more_time_than_a_settled_one() {
        let a = Move(1);
        let b = Move(2);
        let mut st = Stability::default();
        st.update(a, 20);
        let changed = st.update(b, 20);
        let mut settled = Stability::default();
        for _ in 0..4 {
            settled.update(a, 20);
        }
        let stable = settled.update(a, 20);
        assert!(changed > 1.0 && stable < 1.0, "{changed} {stable}");
        let falling = settled.update(a, -100);
        assert!(falling > stable, "a falling score asks for more time");
    }
}
