//! The search: iterative deepening principal-variation search with aspiration windows,
//! quiescence search, a shared transposition table and Lazy SMP over several threads.
//!
//! # Files
//! * this file: the public entry [`search`], its options and reports, and the
//!   per-thread `Worker` state;
//! * `threads.rs`: Lazy SMP (the shared state, starting the workers, the move to play);
//! * `root.rs`: iterative deepening, MultiPV, aspiration windows, time between depths;
//! * `node.rs`: `negamax`, the move loop and what a cut-off teaches the histories;
//! * `pruning.rs`: reductions, whole-node pruning and the verdict on late moves;
//! * `singular.rs`: singular extensions of the table's move (and multi-cut);
//! * `qsearch.rs`: the quiescence search;
//! * `ordering.rs` and `picker.rs`: move-ordering scores and the staged move picker;
//! * `params.rs`: the tunable constants of the rules above (UCI options in a build
//!   with the `spsa` feature, for `scripts/spsa`);
//! * `constants.rs`: their values for one game (defaults, or the game's line of
//!   `eval-tables/search.txt`) and the late-move reduction table they imply.
//!
//! # Outline for a newcomer
//! * [`search`] starts `threads` workers with `std::thread::scope`. Each has its own copy
//!   of the position, killers and histories (taken from the caller's
//!   [`HistoryBank`], so they persist across the moves of a game); they share the
//!   [`Tt`], the stop flag and the node counters. Worker 0 (the caller's thread) reports
//!   each finished depth and decides when to stop; the helpers just search (odd helpers
//!   one ply deeper) and fill the table (Lazy SMP). The move played comes from the
//!   deepest worker (the better score between equal depths).
//! * `negamax` is a fail-soft PVS: game-end rules first (below), mate-distance
//!   pruning, table cut-offs at non-PV nodes, then whole-node pruning at non-PV nodes
//!   (razoring, reverse futility, null move with verification at high depth, ProbCut)
//!   and internal iterative reduction when the table has no move (two plies at deep
//!   expected cut nodes). Each node is typed PV, cut or all (`frame::NodeKind`) as the
//!   search expects it to end. A table move whose entry is deep enough is tested for
//!   singularity (`singular.rs`): searched without it, the node falling well short of
//!   the table's score extends the move by one or two plies; the others beating beta
//!   as well cut the node. The moves come in
//!   the order TT move, promotions and captures that do not lose material by static
//!   exchange evaluation ([`crate::engine::see`]; victim value plus capture history),
//!   two killers, the countermove, quiet moves by history plus continuation histories
//!   (1, 2 and 4 plies back), and last the losing captures. Checking moves are
//!   extended one ply; late quiet moves are reduced
//!   (LMR by a precomputed table, adjusted for PV, improving, history, expected cut
//!   nodes and a tactical table move) and searched again if they surprise, a ply
//!   deeper or shallower than planned by how far they beat the best score. Near the leaves of non-PV nodes,
//!   quiet moves that give no check are pruned when they come late (late-move
//!   pruning) or when the static evaluation is far below alpha at their reduced depth
//!   (futility); quiet moves that lose material by SEE or have a bad continuation
//!   history are skipped, and so are captures that lose too much by SEE.
//! * The static evaluation of a node is corrected by the correction history
//!   ([`crate::engine::history`]): by pawn formation and side to move, the recent mean
//!   of how far searched values lay from the evaluation. Each searched node not in
//!   check, not cut by a capture and with a value on the informative side of its
//!   evaluation teaches it; the table keeps the uncorrected evaluation.
//! * `qsearch` searches captures and promotions only (never drops or gating: they are
//!   quiet moves), standing pat on the static evaluation and skipping captures that
//!   lose material by SEE; in check it searches every evasion so that mates are seen.
//!
//! # Game-end rules inside the tree
//! Checked at every node but the root, cheaply, before any move is generated:
//! * Great Shatranj's bare king: the side to move wins if the opponent is bare and it
//!   is not; both bare is a draw; a bare side to move loses at the opponent's next turn
//!   unless it can take the last piece (or is stalemated: a draw).
//! * Shatar's Robado: either side bare (hand included) is a draw, before mate.
//! * Repetition: a position seen before (within the reversible plies) is a draw, which
//!   is the usual 2-fold rule inside the tree.
//! * The n-move rule (100 plies, Historia 128): a draw unless the side to move has no
//!   legal move (a win by no legal move comes first).
//! * Insufficient material as the variant defines it.
//! * No legal move: as `Position::no_move_ending` reads it: checkmate loses; Historia's
//!   stalemate loses for the side to move; Shatar's knight-only mate is a WIN for the
//!   mated side (so the search never gives one); Niol (no shak in the series) is a
//!   draw; stalemate elsewhere is a draw.
//!
//! # Null move: when it is off
//! Null-move pruning assumes that passing is never better than moving. It is off
//! when the side to move is in check, when it has no piece but king and pawns, during
//! a drop phase (any hand non-empty in a game with drops: Historia's deployment), and in
//! Historia unless the side to move has at least two pieces besides king and pawns:
//! there a side with no legal move loses, so zugzwang and stalemate decide endgames
//! and a pass would hide exactly those. It is never used twice in a row.

pub mod constants;
mod frame;
mod node;
mod ordering;
pub mod params;
mod picker;
mod pruning;
mod qsearch;
mod root;
mod singular;
mod threads;
mod tt_score;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::engine::eval::pawns::PawnCache;
use crate::engine::eval::Eval;
use crate::engine::history::{Histories, HistoryBank};
use crate::engine::time::{Clock, Limits};
use crate::engine::tt::Tt;
use crate::rules::compile::BoardWidth;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::{Color, Position};
use constants::Constants;
use threads::{excluded_root_moves, run_workers, Shared};

/// The score of a mate at the root (a mate `n` plies away scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 32_500;
/// The deepest ply the search goes to.
pub const MAX_PLY: usize = 120;
/// Stack of each search thread: a ply keeps about 9 KB of move list and scores.
const WORKER_STACK: usize = 32 * 1024 * 1024;

/// A score as reported: centipawns or a mate in a number of moves (negative when the
/// side to move is mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move gets mated).
    Mate(i32),
}

impl Score {
    /// Centipawns for the side to move, a mate as the mate bound (won or lost for sure).
    pub fn centipawns_or_bound(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE_BOUND,
            Score::Mate(_) => -MATE_BOUND,
        }
    }

    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-((MATE + s + 1) / 2))
        } else {
            Score::Cp(s)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// What a search is given.
pub struct SearchOptions<'a> {
    /// When to stop.
    pub limits: Limits,
    /// Number of threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// The transposition table, kept between searches by the caller.
    pub tt: &'a Tt,
    /// The evaluation of the game's variant.
    pub eval: &'a Eval,
    /// Set from outside to stop the search (`stop`, `?`, `exit`); the search also sets
    /// it when it finishes.
    pub stop: &'a AtomicBool,
    /// Number of best lines to report (UCI MultiPV), at least 1.
    pub multipv: usize,
    /// Root moves not to search (XBoard `exclude`), in coordinate notation.
    pub exclude: Vec<String>,
    /// Histories kept from earlier searches of the game (`None`: start empty).
    pub histories: Option<&'a HistoryBank>,
}

impl<'a> SearchOptions<'a> {
    /// One thread, one line, every root move: the usual options for `limits`.
    pub fn new(limits: Limits, tt: &'a Tt, eval: &'a Eval, stop: &'a AtomicBool) -> Self {
        SearchOptions {
            limits,
            threads: 1,
            tt,
            eval,
            stop,
            multipv: 1,
            exclude: Vec::new(),
            histories: None,
        }
    }
}

/// One finished depth.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Principal variation in coordinate notation.
    pub pv: Vec<String>,
    /// Which of the MultiPV lines this is (1 = the best).
    pub multipv: usize,
    /// How many lines the search reports (the MultiPV setting).
    pub lines: usize,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }

    /// `info depth D score cp X nodes N nps N time MS pv ...`.
    pub fn line(&self) -> String {
        self.line_with_wdl(None)
    }

    /// The UCI `info` line with `wdl W D L` (per mille, the side to move's chances) after
    /// the score when `wdl` is given (UCI_ShowWDL).
    pub fn line_with_wdl(&self, wdl: Option<[u32; 3]>) -> String {
        let mut s = format!("info depth {} seldepth {}", self.depth, self.seldepth);
        if self.lines > 1 {
            s += &format!(" multipv {}", self.multipv);
        }
        s += &format!(" score {}", self.score);
        if let Some([w, d, l]) = wdl {
            s += &format!(" wdl {w} {d} {l}");
        }
        s += &format!(
            " nodes {} nps {} time {} pv",
            self.nodes,
            self.nps(),
            self.time_ms
        );
        for m in &self.pv {
            s.push(' ');
            s += m;
        }
        s
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move; `None` when the side to move has no legal move.
    pub best: Option<String>,
    /// The expected reply, if known.
    pub ponder: Option<String>,
    /// Score of the best move.
    pub score: Score,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds used.
    pub time_ms: u64,
}

struct Worker<'a, B: BoardWidth> {
    pos: Position<B>,
    sh: &'a Shared<'a>,
    /// The game's search constants (the shared ones, one indirection nearer).
    k: &'a Constants,
    id: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    killers: Vec<[Move; 2]>,
    /// Quiet, capture and continuation histories and countermoves.
    hist: Histories,
    /// The history slot of the move made at each ply of the current line (`None`: a
    /// null move), for the continuation histories.
    moved: [Option<usize>; MAX_PLY + 2],
    /// Static evaluation per ply (`-INF` in check), for the improving flag.
    evals: [i32; MAX_PLY + 2],
    /// Move-ordering scores, one buffer per ply (taken while a node uses it), so no
    /// node clears a full-size array.
    score_bufs: Vec<Vec<i32>>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_depth: i32,
    /// The move each ply's node is searched without (singular extensions;
    /// `Move::NONE` for an ordinary search).
    excluded: [Move; MAX_PLY + 2],
    /// Root moves skipped in this iteration (excluded moves and better MultiPV lines).
    root_skip: Vec<Move>,
    /// A root move raised alpha in the current iteration (its line is in `pv[0]`).
    root_improved: bool,
    /// Nodes searched under each root move since the search started (for the time
    /// decisions: a best move that takes nearly all the effort is a settled one).
    root_effort: Vec<(Move, u64)>,
    /// The drop phase of a game with drops (null move off).
    drops: bool,
    /// Pawn-structure terms of the formations met (a cell: the evaluation is called
    /// from `&self` methods).
    pawns: std::cell::RefCell<PawnCache<B>>,
    /// The limits are checked when `nodes & poll_mask == 0`: every 1024 nodes, or
    /// every 64 under a node limit so that it is kept to within 64 nodes.
    poll_mask: u64,
}

impl<'a, B: BoardWidth> Worker<'a, B> {
    fn new(pos: Position<B>, sh: &'a Shared<'a>, id: usize, hist: Histories) -> Self {
        let drops = pos.rules.drop_zone[Color::White].any();
        let poll_mask = if sh.limits.nodes.is_some() { 63 } else { 1023 };
        Worker {
            pos,
            sh,
            k: &sh.constants,
            id,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            score_bufs: vec![Vec::new(); MAX_PLY + 2],
            hist,
            moved: [None; MAX_PLY + 2],
            evals: [-INF; MAX_PLY + 2],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_depth: 0,
            excluded: [Move::NONE; MAX_PLY + 2],
            root_skip: sh.excluded.clone(),
            root_improved: false,
            root_effort: Vec::new(),
            drops,
            pawns: std::cell::RefCell::new(PawnCache::new()),
            poll_mask,
        }
    }

    /// Counts a node; every 1024 nodes (64 under a node limit) publishes the count and
    /// checks the limits.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & self.poll_mask == 0 {
            self.poll();
        }
    }

    fn poll(&mut self) {
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.id == 0 {
            let over_nodes = self
                .sh
                .limits
                .nodes
                .is_some_and(|n| self.sh.total_nodes() >= n);
            if over_nodes || self.sh.clock.hard_expired() {
                self.sh.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.sh.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }
}

/// Searches `pos` within `opts.limits`, reporting each completed depth to `on_info`.
/// With neither a depth, nodes, time nor `infinite` limit the search goes to the
/// deepest depth it can (stop it with the stop flag).
pub fn search<B: BoardWidth>(
    pos: &Position<B>,
    opts: &SearchOptions,
    on_info: &mut (dyn FnMut(&SearchInfo) + Send),
) -> SearchResult {
    let mut root = pos.clone();
    // The evaluation's piece values and square bonuses (and a network's accumulators)
    // are then kept up to date as moves are made.
    opts.eval.prepare(&mut root);
    let mut legal = MoveList::new();
    root.generate_legal(&mut legal);
    let clock = Clock::start(&opts.limits);
    if legal.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            time_ms: clock.elapsed_ms(),
        };
    }
    let threads = opts.threads.max(1);
    opts.tt.new_search();
    let shared = Shared {
        tt: opts.tt,
        eval: opts.eval,
        stop: opts.stop,
        clock,
        limits: &opts.limits,
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        threads,
        multipv: opts.multipv.max(1),
        excluded: excluded_root_moves(&root, &legal, &opts.exclude),
        histories: opts.histories,
        constants: Constants::for_game(opts.eval.variant),
    };
    let found = run_workers(&root, &shared, legal.len(), on_info).unwrap_or_default();
    let best = if found.best == Move::NONE {
        legal
            .as_slice()
            .iter()
            .copied()
            .find(|m| !shared.excluded.contains(m))
            .unwrap_or(legal.as_slice()[0])
    } else {
        found.best
    };
    SearchResult {
        best: Some(root.move_text(best)),
        ponder: (found.ponder != Move::NONE).then(|| root.move_text(found.ponder)),
        score: Score::from_internal(found.score),
        depth: found.depth,
        nodes: shared.total_nodes(),
        time_ms: shared.clock.elapsed_ms(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
    }
}
