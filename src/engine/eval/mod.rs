//! Static evaluation, tapered between middlegame and endgame by the game phase: material
//! and piece-square tables, mobility tables, threats (pieces attacked by pawns or by
//! lesser pieces, hanging pieces), king danger from the pressure on the king's
//! neighbourhood and from safe checks, pawn structure with passed pawns (each variant's
//! own promotion rank), pairs of pieces on both colours, pieces in hand and pools, a
//! mop-up term for driving a bare king and a scaling of drawish endgames. Every number
//! comes from the variant's table file ([`tables`]), read into one flat vector
//! ([`params`]). Scores are centipawns from the point of view of the side to move.
//!
//! The terms are written once, against a [`Collector`]: the search's collector sums
//! the scores ([`Eval::evaluate`]); the tuner's records which parameters a position
//! uses and how often ([`Eval::trace`]), which makes the evaluation a linear function of
//! the parameters that `sako tune` can fit exactly.

pub mod params;
pub mod pawns;
pub mod tables;
mod terms;
#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use crate::engine::eval::params::Layout;
use crate::engine::eval::pawns::PawnCache;
use crate::engine::eval::tables::{EvalTables, Pair, Scales};
use crate::engine::nnue::{NetChoice, Network};
use crate::rules::compile::{BoardWidth, PieceType, Rules, MAX_TYPES};
use crate::rules::geometry::{Square, MAX_SQUARES};
use crate::rules::position::{Color, Position, SquareWeights};
use crate::rules::variant::{all_variants, variant_id, BareKingRule, VariantDef};

/// Evaluation parameters compiled for one variant.
#[derive(Clone, Debug)]
pub struct Eval {
    /// Variant name these parameters belong to.
    pub variant: &'static str,
    /// Where the tables came from.
    pub source: String,
    /// Where each parameter sits in `params`.
    layout: Layout,
    /// Every parameter (see [`params`]).
    params: Vec<Pair>,
    /// Value plus piece-square bonus, per colour, indexed `type * MAX_SQUARES + square`.
    psq: [Vec<Pair>; 2],
    /// The same as (middlegame, endgame) square weights, White's positive and Black's
    /// negative, for positions to sum as pieces move ([`Eval::square_weights`]).
    square_weights: Arc<SquareWeights>,
    /// Middlegame values, for move ordering (the king counts as very large).
    order_value: Vec<i32>,
    phase_weight: Vec<i32>,
    phase_total: i32,
    /// The piece types of the `pair` bonuses, in the layout's order.
    pair_types: Vec<PieceType>,
    /// Per type: the piece types of lower value (not pawn or king) whose attacks on it
    /// are threats.
    lesser: Vec<Vec<PieceType>>,
    scales: Scales,
    /// Pieces in hand count as material (drops, gating); not Great Shatranj's pool.
    hand_is_material: bool,
    /// Pawns can promote to pieces from a pool of captured ones.
    pool_promotion: bool,
    /// A bare king is not already a finished game (no bare-king rule).
    mop_up: bool,
    /// A bare king loses (so a drawish-looking lead against one is a win).
    bare_king_loses: bool,
    /// 0-based promotion rank per colour.
    promo_rank: [usize; 2],
    files: usize,
    ranks: usize,
    /// Manhattan distance to the board centre, doubled.
    centre_distance: Vec<i32>,
    king: PieceType,
    pawn: Option<PieceType>,
    /// A network that evaluates instead of the tables (`None`: the tables).
    net: Option<Arc<Network>>,
}

/// Which parameters an evaluation used, from White's point of view: the input of
/// `sako tune`. The evaluation is `sum(coefficient * (mg * mg_weight + eg * eg_weight))`
/// over the features, up to the rounding of the integer arithmetic.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// (parameter index, coefficient), each index once, sorted by index.
    pub features: Vec<(u32, f32)>,
    /// The middlegame share of the phase (0..1).
    pub mg_weight: f32,
    /// The endgame share of the phase times the endgame scaling (0..1).
    pub eg_weight: f32,
    /// The evaluation itself for White.
    pub white_score: i32,
}

fn mirror(def: &VariantDef, sq: Square) -> Square {
    let g = def.geometry;
    g.square(g.file(sq), g.ranks - 1 - g.rank(sq))
}

impl Eval {
    /// Compiles parsed tables for their variant.
    pub fn new(tables: &EvalTables) -> Eval {
        let layout = Layout::of(tables);
        let params = layout.flatten(tables);
        Eval::from_params(tables, layout, params)
    }

    /// The evaluation of `tables`' variant with the parameter vector `params` (laid out
    /// by `layout`) instead of the tables' own numbers; `tables` gives the phase weights
    /// and the settings.
    pub fn from_params(tables: &EvalTables, layout: Layout, params: Vec<Pair>) -> Eval {
        let id = variant_id(tables.variant).unwrap_or(0);
        let def = &all_variants()[id];
        let types = def.pieces.len();
        let n = def.geometry.squares();
        let king = def.pieces.iter().position(|p| p.royal).unwrap_or(0);
        let pawn = def.pieces.iter().position(|p| p.pawn);
        let mut psq = [
            vec![Pair::default(); MAX_TYPES_SQ],
            vec![Pair::default(); MAX_TYPES_SQ],
        ];
        for t in 0..types {
            let value = params[layout.value + t];
            for sq in 0..n {
                let bonus = params[layout.pst + t * n + sq];
                let v = Pair::new(value.mg + bonus.mg, value.eg + bonus.eg);
                psq[Color::White][t * MAX_SQUARES + sq] = v;
                psq[Color::Black][t * MAX_SQUARES + mirror(def, sq)] = v;
            }
        }
        let value_mg = |t: usize| params[layout.value + t].mg;
        let order_value = (0..types)
            .map(|t| {
                if t == king {
                    20_000
                } else {
                    value_mg(t).max(1)
                }
            })
            .collect();
        let lesser = (0..types)
            .map(|u| {
                (0..types)
                    .filter(|&t| t != king && Some(t) != pawn && value_mg(t) < value_mg(u))
                    .collect()
            })
            .collect();
        let phase_weight: Vec<i32> = tables.pieces.iter().map(|p| p.phase).collect();
        let g = def.geometry;
        let centre_distance = (0..MAX_SQUARES)
            .map(|sq| {
                if sq >= n {
                    return 0;
                }
                let f = g.file(sq) as i32;
                let r = g.rank(sq) as i32;
                ((2 * f - (g.files as i32 - 1)).abs() + (2 * r - (g.ranks as i32 - 1)).abs()) / 2
            })
            .collect();
        let promo = def.promotion.rank - 1;
        let square_weights = Arc::new(SquareWeights::new(types, |c, t, sq| {
            let v = psq[c][t * MAX_SQUARES + sq];
            let sign = if c == Color::White { 1 } else { -1 };
            [sign * v.mg, sign * v.eg]
        }));
        Eval {
            variant: def.name,
            source: tables.source.clone(),
            params,
            psq,
            square_weights,
            net: None,
            order_value,
            phase_total: start_phase(def, &phase_weight),
            phase_weight,
            pair_types: tables.pairs.iter().map(|&(t, _)| t).collect(),
            lesser,
            scales: tables.scales,
            hand_is_material: def.drops.is_some() || def.gating.is_some(),
            pool_promotion: !def.promotion.from_pool.is_empty(),
            mop_up: def.end.bare_king == BareKingRule::None,
            bare_king_loses: def.end.bare_king == BareKingRule::ShatranjWin,
            promo_rank: [promo, g.ranks - 1 - promo],
            files: g.files,
            ranks: g.ranks,
            centre_distance,
            king,
            pawn,
            layout,
        }
    }

    /// The evaluation of `def`'s variant from `DIR/<variant>.txt` if `dir` is given and
    /// the file exists there, else from the built-in tables.
    pub fn load(def: &'static VariantDef, dir: Option<&Path>) -> Result<Eval, String> {
        Ok(Eval::new(&EvalTables::load(def, dir)?))
    }

    /// [`Eval::load`], evaluating with the network `net` chooses for this game (an
    /// error naming the file when a chosen file cannot be read or is not for it).
    pub fn load_with_net(
        def: &'static VariantDef,
        dir: Option<&Path>,
        net: &NetChoice,
    ) -> Result<Eval, String> {
        Ok(Eval::load(def, dir)?.with_net(net.network_for(def)?))
    }

    /// The built-in evaluation of the variant named `variant`.
    pub fn embedded(variant: &str) -> Result<Eval, String> {
        let id = variant_id(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
        Eval::load(&all_variants()[id], None)
    }

    /// Where each parameter sits in the vector.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The parameter vector.
    pub fn params(&self) -> &[Pair] {
        &self.params
    }

    /// The piece types of the `pair` bonuses (to name them: [`Layout::name`]).
    pub fn pair_types(&self) -> &[PieceType] {
        &self.pair_types
    }

    /// A piece type's middlegame value for move ordering (the king: 20000).
    #[inline(always)]
    pub fn order_value(&self, t: PieceType) -> i32 {
        self.order_value[t]
    }

    /// A piece type's material value.
    pub fn value(&self, t: PieceType) -> Pair {
        self.params[self.layout.value + t]
    }

    /// Non-pawn, non-king material of colour `c` on the board, middlegame values.
    pub fn piece_material<B: BoardWidth>(&self, pos: &Position<B>, c: Color) -> i32 {
        let r = pos.rules;
        let mut m = 0;
        for t in 0..r.types {
            if t != self.king && Some(t) != self.pawn {
                m += pos.pieces(c, t).count() as i32 * self.value(t).mg;
            }
        }
        m
    }

    /// The values and piece-square bonuses as square weights: a position carrying them
    /// ([`Position::set_square_weights`]) keeps their sum as pieces move, and the
    /// evaluation then reads that sum instead of adding the pieces up.
    pub fn square_weights(&self) -> Arc<SquareWeights> {
        Arc::clone(&self.square_weights)
    }

    /// This evaluation with `net` evaluating positions instead of the tables (the
    /// tables still give piece values for move ordering, SEE and pruning margins).
    pub fn with_net(mut self, net: Option<Network>) -> Eval {
        self.net = net.map(Arc::new);
        self
    }

    /// The network in use, if any.
    pub fn net(&self) -> Option<&Network> {
        self.net.as_deref()
    }

    /// Installs on `pos` what this evaluation reads from positions as they change:
    /// with a network its accumulators, else the tables' square weights.
    pub fn prepare<B: BoardWidth>(&self, pos: &mut Position<B>) {
        let weights = self.net.is_none().then(|| self.square_weights());
        pos.set_square_weights(weights);
        pos.set_input_columns(self.net.as_ref().map(|n| n.input_columns()));
    }

    /// Empty sums, or sums that already hold the pieces' values and square bonuses when
    /// `pos` keeps them for this evaluation.
    #[inline(always)]
    fn start_sums<B: BoardWidth>(&self, pos: &Position<B>) -> Sums {
        let mut s = Sums::default();
        if let Some((w, sum)) = pos.square_weights() {
            if Arc::ptr_eq(w, &self.square_weights) {
                s.mg[Color::White] = sum[0];
                s.eg[Color::White] = sum[1];
                s.pieces_known = true;
            }
        }
        s
    }

    /// The static evaluation of `pos` for the side to move, in centipawns.
    pub fn evaluate<B: BoardWidth>(&self, pos: &Position<B>) -> i32 {
        if let Some(net) = &self.net {
            return net.evaluate(pos);
        }
        let mut s = self.start_sums(pos);
        self.collect(pos, &mut s, |s| self.pawn_structure(pos, s));
        self.finish(pos, &s)
    }

    /// [`Eval::evaluate`] with the pawn-structure terms looked up in (or added to) a
    /// search thread's `cache`.
    pub fn evaluate_cached<B: BoardWidth>(
        &self,
        pos: &Position<B>,
        cache: &mut PawnCache<B>,
    ) -> i32 {
        if let Some(net) = &self.net {
            return net.evaluate(pos);
        }
        let mut s = self.start_sums(pos);
        self.collect(pos, &mut s, |s| {
            let entry = cache.probe(pos, self.pawn, |sums: &mut Sums| {
                self.pawn_structure(pos, sums)
            });
            s.mg[Color::White] += entry.score.mg;
            s.eg[Color::White] += entry.score.eg;
            entry.passed
        });
        self.finish(pos, &s)
    }

    /// The parameters `pos`'s evaluation uses, for tuning (see [`Trace`]).
    pub fn trace<B: BoardWidth>(&self, pos: &Position<B>) -> Trace {
        let mut s = Sums::default();
        self.collect(pos, &mut s, |s| self.pawn_structure(pos, s));
        let mut t = TraceSums::new(self);
        self.collect(pos, &mut t, |t| self.pawn_structure(pos, t));
        let mut features = t.features;
        features.sort_unstable_by_key(|f| f.0);
        let mut merged: Vec<(u32, f32)> = Vec::with_capacity(features.len());
        for (i, c) in features {
            match merged.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => merged.push((i, c)),
            }
        }
        merged.retain(|f| f.1 != 0.0);
        let total = self.phase_total as f32;
        let ph = self.phase(pos) as f32;
        let factor = self.scale_factor(pos, s.eg[Color::White] - s.eg[Color::Black]) as f32;
        let white = self.finish(pos, &s);
        Trace {
            features: merged,
            mg_weight: ph / total,
            eg_weight: (total - ph) / total * factor / 64.0,
            white_score: if pos.side() == Color::White {
                white
            } else {
                -white
            },
        }
    }

    /// Blends the sums by the phase and the endgame scaling; the result is for the side
    /// to move.
    fn finish<B: BoardWidth>(&self, pos: &Position<B>, s: &Sums) -> i32 {
        let total = self.phase_total;
        let ph = self.phase(pos);
        let m = s.mg[Color::White] - s.mg[Color::Black];
        let mut e = s.eg[Color::White] - s.eg[Color::Black];
        e = e * self.scale_factor(pos, e) / 64;
        let score = (m * ph + e * (total - ph)) / total;
        if pos.side() == Color::White {
            score
        } else {
            -score
        }
    }

    /// The game phase of `pos`: the phase weights of the pieces on the board and in
    /// hand, at most the start position's.
    fn phase<B: BoardWidth>(&self, pos: &Position<B>) -> i32 {
        let r = pos.rules;
        let mut ph = 0;
        for t in 0..r.types {
            let w = self.phase_weight[t];
            if w != 0 {
                let hand = if self.hand_is_material {
                    pos.in_hand(Color::White, t) as i32 + pos.in_hand(Color::Black, t) as i32
                } else {
                    0
                };
                ph += w * (pos.pieces_of_type(t).count() as i32 + hand);
            }
        }
        ph.clamp(0, self.phase_total)
    }

    /// The endgame scaling in 64ths: `drawish_factor` when the side ahead (by the
    /// endgame sum `eg`, White minus Black) has no pawns and less than `drawish_margin`
    /// more material, else 64.
    fn scale_factor<B: BoardWidth>(&self, pos: &Position<B>, eg: i32) -> i32 {
        if self.scales.drawish_margin <= 0 || eg == 0 {
            return 64;
        }
        let strong = if eg > 0 { Color::White } else { Color::Black };
        let weak = strong.flip();
        if self.pawn.is_some_and(|p| pos.pieces(strong, p).any()) {
            return 64;
        }
        if self.bare_king_loses && pos.is_bare(weak, true) {
            return 64;
        }
        let material = |c: Color| -> i32 {
            (0..pos.rules.types)
                .filter(|&t| t != self.king)
                .map(|t| {
                    let hand = if self.hand_is_material {
                        pos.in_hand(c, t) as i32
                    } else {
                        0
                    };
                    (pos.pieces(c, t).count() as i32 + hand) * self.value(t).eg
                })
                .sum()
        };
        if material(strong) - material(weak) < self.scales.drawish_margin {
            self.scales.drawish_factor
        } else {
            64
        }
    }
}

/// The phase weight of `def`'s start position (board and hands), at least 1.
fn start_phase(def: &VariantDef, weights: &[i32]) -> i32 {
    let board_and_hand = def.start_fen.split_whitespace().next().unwrap_or("");
    let mut total = 0;
    for c in board_and_hand.chars().filter(|c| c.is_ascii_alphabetic()) {
        if let Some(t) = def
            .pieces
            .iter()
            .position(|p| p.letter == c.to_ascii_uppercase())
        {
            total += weights[t];
        }
    }
    total.max(1)
}

/// Where the terms of one evaluation go: summed ([`Sums`]) or recorded (`TraceSums`).
pub trait Collector {
    /// Piece `t` of colour `c` stands on `sq`: its value and square bonus.
    fn piece(&mut self, ev: &Eval, c: Color, t: PieceType, sq: Square);
    /// False when the values and square bonuses are already in (so a loop that only
    /// calls [`Collector::piece`] can be skipped).
    fn wants_pieces(&self) -> bool;
    /// Parameter `p` counts `n` times for colour `c`.
    fn add(&mut self, ev: &Eval, c: Color, p: usize, n: i32);
    /// Parameter `p` counts `num / den` times for colour `c`.
    fn add_ratio(&mut self, ev: &Eval, c: Color, p: usize, num: i32, den: i32);
}

/// The running sums of one evaluation, per colour.
#[derive(Default)]
pub struct Sums {
    /// Middlegame score.
    pub mg: [i32; 2],
    /// Endgame score.
    pub eg: [i32; 2],
    /// The pieces' values and square bonuses are already in (from the position's
    /// square weights).
    pieces_known: bool,
}

impl Collector for Sums {
    #[inline(always)]
    fn piece(&mut self, ev: &Eval, c: Color, t: PieceType, sq: Square) {
        if self.pieces_known {
            return;
        }
        let v = ev.psq[c][t * MAX_SQUARES + sq];
        self.mg[c] += v.mg;
        self.eg[c] += v.eg;
    }
    #[inline(always)]
    fn wants_pieces(&self) -> bool {
        !self.pieces_known
    }
    #[inline(always)]
    fn add(&mut self, ev: &Eval, c: Color, p: usize, n: i32) {
        let v = ev.params[p];
        self.mg[c] += v.mg * n;
        self.eg[c] += v.eg * n;
    }
    #[inline(always)]
    fn add_ratio(&mut self, ev: &Eval, c: Color, p: usize, num: i32, den: i32) {
        let v = ev.params[p];
        self.mg[c] += v.mg * num / den;
        self.eg[c] += v.eg * num / den;
    }
}

/// The features of one evaluation, White positive (see [`Trace`]).
struct TraceSums {
    features: Vec<(u32, f32)>,
    /// The variant's board, to turn Black's squares into White's.
    def: &'static VariantDef,
}

impl TraceSums {
    fn new(ev: &Eval) -> TraceSums {
        let id = variant_id(ev.variant).unwrap_or(0);
        TraceSums {
            features: Vec::with_capacity(128),
            def: &all_variants()[id],
        }
    }
    fn push(&mut self, c: Color, p: usize, n: f32) {
        let sign = if c == Color::White { 1.0 } else { -1.0 };
        self.features.push((p as u32, sign * n));
    }
}

impl Collector for TraceSums {
    fn piece(&mut self, ev: &Eval, c: Color, t: PieceType, sq: Square) {
        let white_sq = if c == Color::White {
            sq
        } else {
            mirror(self.def, sq)
        };
        let l = &ev.layout;
        self.push(c, l.value + t, 1.0);
        self.push(c, l.pst + t * l.squares + white_sq, 1.0);
    }
    fn wants_pieces(&self) -> bool {
        true
    }
    fn add(&mut self, _: &Eval, c: Color, p: usize, n: i32) {
        self.push(c, p, n as f32);
    }
    fn add_ratio(&mut self, _: &Eval, c: Color, p: usize, num: i32, den: i32) {
        self.push(c, p, num as f32 / den as f32);
    }
}

const MAX_TYPES_SQ: usize = MAX_TYPES * MAX_SQUARES;

/// Squares a piece of colour `c`, type `t` on `sq` moves to or attacks with occupancy
/// `occ` (leaps, steps, open paths and slides; pawns' quiet steps included).
#[inline(always)]
pub fn attacks<B: BoardWidth>(r: &Rules<B>, c: Color, t: PieceType, sq: Square, occ: B) -> B {
    let mut a = r.capture_leaps(c, t, sq) | r.quiet_leaps(c, t, sq);
    let dirs = r.rider_dirs[t];
    if dirs != 0 {
        a |= r.slide(sq, occ, dirs);
    }
    for pm in r.path_moves(c, t, sq) {
        if (pm.path & occ).is_empty() {
            a |= B::square(pm.to);
        }
    }
    a
}

/// A small deterministic random stream for tests: each call gives a number below `n`.
#[cfg(test)]
pub(crate) fn test_rng(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = seed;
    move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    }
}

/// Test positions: `variant` after 4 to 83 random legal plies from its start (deterministic
/// for `seed`), for the evaluation's and the tuner's tests.
#[cfg(test)]
pub(crate) fn random_positions<B: BoardWidth>(
    variant: &str,
    count: usize,
    seed: u64,
) -> Vec<Position<B>> {
    let id = variant_id(variant).unwrap();
    let rules = B::rules(id);
    let mut next = test_rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::<B>::from_fen(rules, rules.def.start_fen).unwrap();
        let plies = 4 + next(80);
        for _ in 0..plies {
            let mut list = crate::rules::moves::MoveList::new();
            pos.generate_legal(&mut list);
            if list.as_slice().is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = list.as_slice()[next(list.as_slice().len())];
            pos.make(m);
        }
        out.push(pos);
    }
    out
}
