//! Lazy SMP: the state the search threads share, running the workers, and choosing
//! the move to play from their results.

use super::root::RootResult;
use super::{SearchInfo, Worker, MATE_BOUND, MAX_PLY, WORKER_STACK};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::engine::eval::Eval;
use crate::engine::history::{Histories, HistoryBank};
use crate::engine::time::{Clock, Limits};
use crate::engine::tt::Tt;
use crate::rules::compile::BoardWidth;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

pub(super) struct Shared<'a> {
    pub(super) tt: &'a Tt,
    pub(super) eval: &'a Eval,
    pub(super) stop: &'a AtomicBool,
    pub(super) clock: Clock,
    pub(super) limits: &'a Limits,
    pub(super) nodes: Vec<AtomicU64>,
    pub(super) threads: usize,
    /// Root moves never searched (XBoard `exclude`).
    pub(super) excluded: Vec<Move>,
    /// Lines reported by the main worker.
    pub(super) multipv: usize,
    /// Where the workers take their histories from and give them back to.
    pub(super) histories: Option<&'a HistoryBank>,
    /// The game's search constants.
    pub(super) constants: std::sync::Arc<super::constants::Constants>,
}

impl Shared<'_> {
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// A worker's histories: kept ones from the bank, or empty tables.
    fn take_histories(&self) -> Histories {
        self.histories.map_or_else(Histories::new, |b| b.take())
    }

    /// Keeps a worker's histories for the next search (when there is a bank).
    fn give_back(&self, h: Histories) {
        if let Some(b) = self.histories {
            b.give_back(h);
        }
    }
}

/// The result to play from the workers' results: the deepest completed search, the
/// better score between equal depths; worker 0 (`main`) wins ties, and mate scores
/// are taken from worker 0 only.
fn best_thread(main: Option<RootResult>, all: &[RootResult]) -> Option<RootResult> {
    let main = main?;
    let better = |a: &RootResult, b: &RootResult| (a.depth, a.score) > (b.depth, b.score);
    let mut best = main;
    for r in all {
        if r.best != Move::NONE && r.score.abs() < MATE_BOUND && better(r, &best) {
            best = *r;
        }
    }
    Some(best)
}

/// The legal root moves named in `exclude` (XBoard `exclude`); none when that would
/// leave nothing to search.
pub(super) fn excluded_root_moves<B: BoardWidth>(
    root: &Position<B>,
    legal: &MoveList,
    exclude: &[String],
) -> Vec<Move> {
    let excluded: Vec<Move> = legal
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| exclude.contains(&root.move_text(m)))
        .collect();
    if excluded.len() == legal.len() {
        // Everything excluded: search them all rather than nothing.
        return Vec::new();
    }
    excluded
}

/// Runs the workers of a search, each on a thread of its own with a stack large
/// enough for the deepest line (each ply keeps its move list on the stack); helpers
/// that cannot be spawned are left out. Returns worker 0's result.
pub(super) fn run_workers<B: BoardWidth>(
    root: &Position<B>,
    shared: &Shared,
    n_legal: usize,
    on_info: &mut (dyn FnMut(&SearchInfo) + Send),
) -> Option<RootResult> {
    let max_depth = shared
        .limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 8)
        .clamp(1, MAX_PLY as u32 - 8);
    let n_root = n_legal - shared.excluded.len();
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..shared.threads {
            let p = root.clone();
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(s, move || {
                    let mut w = Worker::new(p, shared, id, shared.take_histories());
                    let r = w.iterate(max_depth, n_root, None);
                    shared.give_back(w.hist);
                    r
                });
            match spawned {
                Ok(h) => helpers.push(h),
                // Fewer helpers: the search is still correct.
                Err(_) => break,
            }
        }
        let p = root.clone();
        let main = std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, move || {
                let mut w = Worker::new(p, shared, 0, shared.take_histories());
                let r = w.iterate(max_depth, n_root, Some(on_info));
                shared.stop.store(true, Ordering::Relaxed);
                shared.give_back(w.hist);
                r
            });
        let r = main.ok().and_then(|h| h.join().ok());
        shared.stop.store(true, Ordering::Relaxed);
        let mut results: Vec<RootResult> =
            helpers.into_iter().filter_map(|h| h.join().ok()).collect();
        results.extend(r);
        best_thread(r, &results)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::MATE;

    #[test]
    fn the_deepest_thread_decides() {
        let r = |m: u32, score: i32, depth: u32| RootResult {
            best: Move(m),
            ponder: Move::NONE,
            score,
            depth,
        };
        let main = r(1, 10, 8);
        assert_eq!(
            best_thread(Some(main), &[r(2, 5, 9), main]).unwrap().best,
            Move(2)
        );
        assert_eq!(
            best_thread(Some(main), &[r(2, 5, 8), main]).unwrap().best,
            Move(1)
        );
        assert_eq!(
            best_thread(Some(main), &[r(2, MATE - 3, 12)]).unwrap().best,
            Move(1)
        );
        assert!(best_thread(None, &[main]).is_none());
    }
}
