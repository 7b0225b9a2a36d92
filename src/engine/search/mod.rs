//! The search: iterative deepening principal-variation search with aspiration windows,
//! quiescence search, a shared transposition table and Lazy SMP over several threads.
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
//!   (razoring, reverse futility, null move with verification at high depth)
//!   and internal iterative reduction when the table has no move. The moves come in
//!   the order TT move, promotions and captures that do not lose material by static
//!   exchange evaluation ([`crate::engine::see`]; victim value plus capture history),
//!   two killers, the countermove, quiet moves by history plus continuation histories
//!   (1, 2 and 4 plies back), and last the losing captures. Checking moves are
//!   extended one ply; late quiet moves are reduced
//!   (LMR by a precomputed table, adjusted for PV, improving and history) and
//!   searched again at full depth if they surprise. Near the leaves of non-PV nodes,
//!   quiet moves that give no check are pruned when they come late (late-move
//!   pruning) or when the static evaluation is far below alpha at their reduced depth
//!   (futility); quiet moves that lose material by SEE or have a bad continuation
//!   history are skipped, and so are captures that lose too much by SEE.
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

mod picker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::engine::eval::pawns::PawnCache;
use crate::engine::eval::{attacks, Eval};
use crate::engine::history::{slot, Histories, HistoryBank};
use crate::engine::search::picker::MovePicker;
use crate::engine::time::{Clock, Limits};
use crate::engine::tt::{Bound, Entry, Tt, NO_EVAL};
use crate::rules::compile::BoardWidth;
use crate::rules::geometry::NO_SQUARE;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::position::outcome::EndProbe;
use crate::rules::position::{piece_code, piece_type, Color, Position, NO_PIECE};
use crate::rules::variant::NoMoveRule;

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
        let mut s = format!("info depth {} seldepth {}", self.depth, self.seldepth);
        if self.lines > 1 {
            s += &format!(" multipv {}", self.multipv);
        }
        s += &format!(
            " score {} nodes {} nps {} time {} pv",
            self.score,
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

struct Shared<'a> {
    tt: &'a Tt,
    eval: &'a Eval,
    stop: &'a AtomicBool,
    clock: Clock,
    limits: &'a Limits,
    nodes: Vec<AtomicU64>,
    threads: usize,
    /// Root moves never searched (XBoard `exclude`).
    excluded: Vec<Move>,
    /// Lines reported by the main worker.
    multipv: usize,
    /// Where the workers take their histories from and give them back to.
    histories: Option<&'a HistoryBank>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
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

/// `ln(depth) * ln(moves)`-shaped late-move reductions, computed once.
static REDUCTIONS: once_cell::sync::Lazy<[[u8; 64]; 64]> = once_cell::sync::Lazy::new(|| {
    let mut table = [[0u8; 64]; 64];
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
        }
    }
    table
});

/// The late-move reduction of the `moves`-th move at `depth`.
#[inline]
fn reduction(depth: i32, moves: usize) -> i32 {
    REDUCTIONS[depth.clamp(1, 63) as usize][moves.clamp(1, 63)] as i32
}

/// How many quiet moves a non-PV node at `depth` (1 to 4) searches before late-move
/// pruning drops the rest.
fn late_move_limit(depth: i32, improving: bool) -> usize {
    ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize
}

/// Ordering score of a capture or promotion that loses material by SEE: below every
/// quiet move.
const LOSING_CAPTURE: i32 = -(1 << 28);

/// What the move loop of a node needs to know about it.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    pv_node: bool,
    in_check: bool,
    /// The static evaluation (`-INF` in check), refined by the table's score.
    static_eval: i32,
    /// The static evaluation is above the one two plies earlier (same side to move).
    improving: bool,
    /// The evaluation itself, as stored in the table (`NO_EVAL` in check).
    raw_eval: i32,
    /// The node is or was on a principal variation (PV node, or the table says so).
    tt_pv: bool,
}

/// What late-move pruning decides for a move.
enum Verdict {
    Skip,
    /// Skip it unless it gives check (known only once it is made).
    SkipUnlessCheck,
    Search,
}

/// A move of the move loop, as `search_move` needs it.
#[derive(Clone, Copy)]
struct Tried {
    m: Move,
    /// Its place in the node's move order (0 = first).
    index: usize,
    /// A capture, promotion or en-passant capture.
    tactical: bool,
    gives_check: bool,
    /// Its history score (0 for tactical moves), read before it was made.
    history: i32,
    /// Its history slot.
    slot: usize,
}

/// The first quiet moves tried at a node, whose history a later cut-off lowers.
struct QuietsTried {
    moves: [Move; 64],
    len: usize,
}

impl QuietsTried {
    fn new() -> Self {
        QuietsTried {
            moves: [Move::NONE; 64],
            len: 0,
        }
    }

    fn push(&mut self, m: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

struct Worker<'a, B: BoardWidth> {
    pos: Position<B>,
    sh: &'a Shared<'a>,
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
    /// Root moves skipped in this iteration (excluded moves and better MultiPV lines).
    root_skip: Vec<Move>,
    /// A root move raised alpha in the current iteration (its line is in `pv[0]`).
    root_improved: bool,
    /// The drop phase of a game with drops (null move off).
    drops: bool,
    /// Pawn-structure terms of the formations met (a cell: the evaluation is called
    /// from `&self` methods).
    pawns: std::cell::RefCell<PawnCache<B>>,
    /// The limits are checked when `nodes & poll_mask == 0`: every 1024 nodes, or
    /// every 64 under a node limit so that it is kept to within 64 nodes.
    poll_mask: u64,
}

/// The table's score when it may end the search of a node at `depth` (enough depth,
/// a bound that cuts; never at PV nodes or the root).
#[inline]
fn tt_cutoff(
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

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a, B: BoardWidth> Worker<'a, B> {
    fn new(pos: Position<B>, sh: &'a Shared<'a>, id: usize, hist: Histories) -> Self {
        let drops = pos.rules.drop_zone[Color::White].any();
        let poll_mask = if sh.limits.nodes.is_some() { 63 } else { 1023 };
        Worker {
            pos,
            sh,
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
            root_skip: sh.excluded.clone(),
            root_improved: false,
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

    /// The history slot of `m` in the current position: the piece it moves (or drops)
    /// and its destination.
    #[inline(always)]
    fn move_slot(&self, m: Move) -> usize {
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
    fn continuation_keys(&self, ply: usize) -> [Option<usize>; 3] {
        let back = |k: usize| if ply >= k { self.moved[ply - k] } else { None };
        [back(1), back(2), back(4)]
    }

    /// The piece type a capture takes (0 for a promotion that takes nothing), the
    /// capture history's third key.
    #[inline(always)]
    fn victim_type(&self, m: Move) -> usize {
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
    fn quiet_score(&self, s: usize, keys: &[Option<usize>; 3], far: bool) -> i32 {
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
    fn countermove_slot(&self) -> Option<usize> {
        let prev = self.pos.state().last_move;
        if prev == Move::NONE {
            return None;
        }
        let p = self.pos.piece_on(prev.to());
        (p != NO_PIECE).then(|| slot(p, prev.to()))
    }

    #[inline(always)]
    fn is_tactical(&self, m: Move) -> bool {
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
    fn see_at_least(&self, m: Move, threshold: i32) -> bool {
        let ev = self.sh.eval;
        crate::engine::see::see_at_least(&self.pos, m, threshold, |t| ev.order_value(t))
    }

    /// False when the quiet move `m` surely gives no direct check: the piece it puts on
    /// its destination does not attack the enemy king from there. (Discovered checks
    /// are not looked for; castling and gating count as possible checks.) Lets pruning
    /// drop a quiet move without making it to see whether it checks.
    fn may_give_check(&self, m: Move) -> bool {
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
    fn noisy_score(&self, m: Move) -> i32 {
        let base = if self.see_at_least(m, 0) {
            1 << 27
        } else {
            LOSING_CAPTURE
        };
        let learned = self.hist.capture(self.move_slot(m), self.victim_type(m));
        base + self.capture_score(m) + learned / 2
    }

    fn order(&self, list: &MoveList, tt_move: Move, ply: usize, scores: &mut [i32]) {
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
    fn refutations(&self, ply: usize) -> [Move; 3] {
        let k = self.killers[ply];
        let counter = self
            .countermove_slot()
            .map_or(Move::NONE, |i| self.hist.countermove(i));
        [k[0], k[1], counter]
    }

    /// The ordering-score buffer of `ply`, sized for `len` moves; the node gives it back
    /// to `score_bufs` when it is done (a node left early just drops it).
    fn take_scores(&mut self, ply: usize, len: usize) -> Vec<i32> {
        let mut v = std::mem::take(&mut self.score_bufs[ply]);
        v.clear();
        v.resize(len, 0);
        v
    }

    /// Moves the best-scored remaining move to position `i` and returns it.
    #[inline(always)]
    fn pick(list: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
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

    /// The score of a node whose side to move has no legal move.
    #[inline]
    fn no_move_score(&self, ply: usize) -> i32 {
        self.pos.no_move_ending().score(self.pos.side(), ply, MATE)
    }

    /// The game-end rules at a node (`Position::ending`, the rules the referee uses):
    /// `Some(score)` when the game is over here.
    #[inline]
    fn terminal(&mut self, ply: usize, probe: EndProbe) -> Option<i32> {
        let side = self.pos.side();
        self.pos.ending(probe).map(|e| e.score(side, ply, MATE))
    }

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

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            return self
                .sh
                .eval
                .evaluate_cached(&self.pos, &mut self.pawns.borrow_mut());
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
            let (raw, stand) = self.static_eval(tt.as_ref(), ply);
            raw_eval = raw;
            if stand >= beta {
                if tt.is_none() {
                    self.store_qsearch(key, Move::NONE, stand, raw, Bound::Lower, ply);
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
        best + gain + 200 < alpha && gain < 10_000
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

    /// Fail-soft principal-variation search of the current position to `depth`: the
    /// node's prologue (game end, mate distance, table), pruning before any move is
    /// tried, then the moves in order, each searched by [`Self::search_move`].
    fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
    ) -> i32 {
        self.pv_len[ply.min(MAX_PLY)] = ply.min(MAX_PLY);
        if ply > 0 {
            if let Some(s) = self.terminal(ply, EndProbe::Search) {
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

        let key = self.pos.key();
        let tt = self.sh.tt.probe(key);
        if let Some(s) = tt.and_then(|e| tt_cutoff(&e, depth, alpha, beta, ply, pv_node)) {
            return s;
        }
        let in_check = self.pos.in_check();
        let (raw_eval, static_eval) = if in_check {
            (NO_EVAL, -INF)
        } else {
            self.static_eval(tt.as_ref(), ply)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        let mut node = Node {
            depth,
            ply,
            pv_node,
            in_check,
            static_eval,
            improving,
            raw_eval,
            tt_pv: pv_node || tt.is_some_and(|e| e.pv),
        };
        let tt_move = tt.map_or(Move::NONE, |e| e.mv);
        if !pv_node && !in_check && ply > 0 && beta.abs() < MATE_BOUND {
            if let Some(s) = self.prune_node(&node, beta, allow_null) {
                return s;
            }
        }
        // Internal iterative reduction: a node the table knows no move for is
        // searched a ply shallower (its next visit will have a move to try first).
        if depth >= 4 && tt_move == Move::NONE {
            node.depth -= 1;
        }
        self.search_moves(&node, alpha, beta, key, tt_move)
    }

    /// The static evaluation of a node not in check: the table's stored evaluation
    /// or a fresh one (`raw`), and the same refined by the table's score where its
    /// bound says the true value lies beyond it.
    fn static_eval(&self, tt: Option<&Entry>, ply: usize) -> (i32, i32) {
        let raw = match tt {
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self
                .sh
                .eval
                .evaluate_cached(&self.pos, &mut self.pawns.borrow_mut()),
        };
        let refined = match tt {
            Some(e) if e.score.abs() < MATE_BOUND => {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Lower if s > raw => s,
                    Bound::Upper if s < raw => s,
                    Bound::Exact => s,
                    _ => raw,
                }
            }
            _ => raw,
        };
        (raw, refined)
    }

    /// Pruning of a whole non-PV node before its moves: reverse futility near the
    /// leaves, then the null move. `Some(score)` when the node is cut.
    fn prune_node(&mut self, node: &Node, beta: i32, allow_null: bool) -> Option<i32> {
        let (depth, static_eval) = (node.depth, node.static_eval);
        // Razoring: so far below the window that only a capture could help.
        if depth <= 3 && static_eval + 400 + 250 * depth * depth < beta {
            let score = self.qsearch(beta - 1, beta, node.ply);
            if self.stopped {
                return Some(0);
            }
            if score < beta {
                return Some(score);
            }
        }
        // Reverse futility: far above beta near the leaves (less far when improving).
        let margin = 100 * depth - if node.improving { 70 } else { 0 };
        if depth <= 7 && static_eval - margin >= beta {
            return Some(static_eval);
        }
        if !(allow_null && depth >= 3 && static_eval >= beta && self.null_allowed()) {
            return None;
        }
        // The further above beta, the larger the reduction.
        let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
        self.moved[node.ply] = None;
        self.pos.make_null();
        let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, node.ply + 1, false, false);
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
        let verified = self.negamax(beta - 1, beta, depth - r, node.ply, false, false);
        if self.stopped {
            return Some(0);
        }
        (verified >= beta).then_some(score)
    }

    /// The move loop of a node: generates and orders the legal moves, prunes late and
    /// futile quiet moves and losing captures near the leaves, searches the rest,
    /// updates the PV, killers and history, and stores the result in the table.
    fn search_moves(
        &mut self,
        node: &Node,
        mut alpha: i32,
        beta: i32,
        key: u64,
        tt_move: Move,
    ) -> i32 {
        let (depth, ply, pv_node) = (node.depth, node.ply, node.pv_node);
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
        while let Some((m, order_score)) = self.next_move(&mut picker, ply) {
            if ply == 0 && self.root_skip.contains(&m) {
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
            self.moved[ply] = Some(tried.slot);
            self.pos.make(m);
            tried.gives_check = self.pos.in_check();
            if prune_if_quiet && !tried.gives_check {
                self.pos.unmake(m);
                continue;
            }
            let score = self.search_move(node, &tried, alpha, beta);
            self.pos.unmake(m);
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
    fn tried(&self, m: Move, index: usize, keys: &[Option<usize>; 3]) -> Tried {
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
        let entry = Entry {
            mv: best_move,
            score: to_tt(best, node.ply),
            eval: node.raw_eval,
            depth: node.depth,
            bound,
            pv: node.tt_pv,
        };
        self.sh.tt.store(key, entry);
        best
    }

    /// Whether a late move of a non-PV node near the leaves is worth searching: a
    /// capture that loses too much by SEE is skipped; a quiet move is skipped when it
    /// loses material by SEE or its continuation history is bad at a low reduced
    /// depth, and skipped unless it gives check when it comes too late (late-move
    /// pruning) or the static evaluation is far below alpha (futility).
    fn late_verdict(
        &self,
        node: &Node,
        tried: &Tried,
        order_score: i32,
        quiets_seen: usize,
        alpha: i32,
    ) -> Verdict {
        let (depth, m) = (node.depth, tried.m);
        if tried.tactical {
            let losing = depth <= 4 && order_score < 0 && !self.see_at_least(m, -120 * depth);
            return if losing {
                Verdict::Skip
            } else {
                Verdict::Search
            };
        }
        // The depth this move would be searched to after its reduction.
        let lmr_depth = (depth - 1 - reduction(depth, tried.index)).max(0);
        if lmr_depth <= 8 && !self.see_at_least(m, -30 * lmr_depth * lmr_depth) {
            return Verdict::Skip;
        }
        let continuation = tried.history - self.hist.quiet(tried.slot);
        if lmr_depth < 4 && continuation < -3000 * depth {
            return Verdict::Skip;
        }
        let late = depth <= 5 && quiets_seen > late_move_limit(depth, node.improving);
        let futile = lmr_depth <= 6 && node.static_eval + 90 + 100 * lmr_depth <= alpha;
        if !(late || futile) {
            Verdict::Search
        } else if self.may_give_check(m) {
            Verdict::SkipUnlessCheck
        } else {
            Verdict::Skip
        }
    }

    /// Searches the move `tried.m`, already made, as the `tried.index`-th move of
    /// `node`: the first move with the full window, the others with a null window
    /// (late quiet moves reduced), searched again at full depth and window when they
    /// surprise.
    fn search_move(&mut self, node: &Node, tried: &Tried, alpha: i32, beta: i32) -> i32 {
        let Tried {
            m,
            index,
            tactical,
            gives_check,
            history,
            ..
        } = *tried;
        let (depth, ply, pv_node) = (node.depth, node.ply, node.pv_node);
        let ext = i32::from(gives_check && (ply as i32) < 2 * self.root_depth);
        let new_depth = depth - 1 + ext;
        if index == 0 {
            return -self.negamax(-beta, -alpha, new_depth, ply + 1, pv_node, true);
        }
        let killers = self.killers[ply];
        let mut r = 0;
        if depth >= 3
            && !tactical
            && !node.in_check
            && !gives_check
            && index >= if pv_node { 3 } else { 2 }
            && m != killers[0]
            && m != killers[1]
        {
            r = reduction(depth, index);
            if pv_node || node.tt_pv {
                r -= 1;
            }
            if !node.improving {
                r += 1;
            }
            // Quiet moves with a good history are reduced less, bad ones more.
            r -= history / 12_000;
            r = r.clamp(0, new_depth - 1);
        }
        let mut score = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
        if score > alpha && r > 0 {
            score = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, false, true);
        }
        if score > alpha && score < beta && pv_node {
            score = -self.negamax(-beta, -alpha, new_depth, ply + 1, true, true);
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
        let bonus = (150 * depth - 100).clamp(50, 1_400);
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

    /// Iterative deepening. Worker 0 reports and decides; returns the best line with
    /// the depth completed. With MultiPV, each depth is searched once per line, every
    /// line leaving out the better lines' first moves; the lines of a depth are then
    /// sorted by score and reported best first.
    fn iterate(
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
            let scale = stability.update(best.best, best.score);
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
    fn aspiration(&mut self, d: i32, depth: i32, prev_score: i32) -> i32 {
        let mut delta = 18;
        let (mut alpha, mut beta) = if depth >= 4 {
            (
                (prev_score - delta).max(-INF),
                (prev_score + delta).min(INF),
            )
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.negamax(alpha, beta, d, 0, true, false);
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
    fn report(
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
struct Stability {
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
struct RootLine {
    score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

/// What a worker's iterative deepening found: the best move, the expected reply, the
/// score and the depth completed.
#[derive(Clone, Copy)]
struct RootResult {
    best: Move,
    ponder: Move,
    score: i32,
    depth: u32,
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
fn excluded_root_moves<B: BoardWidth>(
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
fn run_workers<B: BoardWidth>(
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

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
    }

    #[test]
    fn table_scores_are_ply_relative() {
        let s = MATE - 7;
        assert_eq!(from_tt(to_tt(s, 3), 3), s);
        assert_eq!(from_tt(to_tt(-s, 5), 5), -s);
    }
}
