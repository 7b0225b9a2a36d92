//! Static evaluation: tapered (middlegame/endgame) material and piece-square tables
//! from the variant's table file (see [`crate::engine::eval_tables`]), plus mobility from the
//! move tables, king safety, pawn structure with passed pawns (each variant's own
//! promotion rank), pairs of pieces on both colours, Historia's deployment terms and a
//! mop-up term for driving a bare king. Scores are centipawns from the point of view of
//! the side to move.

use std::path::Path;

use crate::engine::eval_tables::{EvalTables, Pair, Terms};
use crate::rules::compile::{BoardWidth, PieceType, Rules};
use crate::rules::geometry::{Square, MAX_SQUARES, NO_SQUARE};
use crate::rules::position::{Color, Position};
use crate::rules::variant::{all_variants, variant_id, BareKingRule, VariantDef};

/// Evaluation parameters compiled for one variant.
#[derive(Clone, Debug)]
pub struct Eval {
    /// Variant name these parameters belong to.
    pub variant: &'static str,
    /// Where the tables came from.
    pub source: String,
    /// Value plus piece-square bonus, per colour, indexed `type * MAX_SQUARES + square`.
    psq: [Vec<Pair>; 2],
    /// Material value per type.
    value: Vec<Pair>,
    /// Middlegame values, for move ordering (the king counts as very large).
    order_value: Vec<i32>,
    phase_weight: Vec<i32>,
    phase_total: i32,
    mobility: Vec<Pair>,
    pairs: Vec<(PieceType, Pair)>,
    terms: Terms,
    /// Pieces in hand count as material (drops, gating); not Great Shatranj's pool.
    hand_is_material: bool,
    /// A bare king is not already a finished game (no bare-king rule).
    mop_up: bool,
    /// 0-based promotion rank per colour.
    promo_rank: [usize; 2],
    files: usize,
    ranks: usize,
    /// Manhattan distance to the board centre, doubled.
    centre_distance: Vec<i32>,
    king: PieceType,
    pawn: Option<PieceType>,
}

fn mirror(def: &VariantDef, sq: Square) -> Square {
    let g = def.geometry;
    g.square(g.file(sq), g.ranks - 1 - g.rank(sq))
}

impl Eval {
    /// Compiles parsed tables for their variant.
    pub fn new(tables: &EvalTables) -> Eval {
        let id = variant_id(tables.variant).unwrap_or(0);
        let def = &all_variants()[id];
        let types = def.pieces.len();
        let n = def.geometry.squares();
        let mut psq = [
            vec![Pair::default(); MAX_TYPES_SQ],
            vec![Pair::default(); MAX_TYPES_SQ],
        ];
        for (t, p) in tables.pieces.iter().enumerate() {
            for sq in 0..n {
                let bonus = p.pst[sq];
                let v = Pair::new(p.value.mg + bonus.mg, p.value.eg + bonus.eg);
                psq[Color::White][t * MAX_SQUARES + sq] = v;
                psq[Color::Black][t * MAX_SQUARES + mirror(def, sq)] = v;
            }
        }
        let king = def.pieces.iter().position(|p| p.royal).unwrap_or(0);
        let pawn = def.pieces.iter().position(|p| p.pawn);
        let order_value = (0..types)
            .map(|t| {
                if t == king {
                    20_000
                } else {
                    tables.pieces[t].value.mg.max(1)
                }
            })
            .collect();
        let phase_weight: Vec<i32> = tables.pieces.iter().map(|p| p.phase).collect();
        // The phase of the start position counts as the full middlegame.
        let board_and_hand = def.start_fen.split_whitespace().next().unwrap_or("");
        let mut phase_total = 0;
        for c in board_and_hand.chars().filter(|c| c.is_ascii_alphabetic()) {
            if let Some(t) = def
                .pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_uppercase())
            {
                phase_total += phase_weight[t];
            }
        }
        let g = def.geometry;
        let centre_distance = (0..MAX_SQUARES)
            .map(|sq| {
                if sq >= n {
                    0
                } else {
                    let f = g.file(sq) as i32;
                    let r = g.rank(sq) as i32;
                    ((2 * f - (g.files as i32 - 1)).abs() + (2 * r - (g.ranks as i32 - 1)).abs())
                        / 2
                }
            })
            .collect();
        let promo = def.promotion.rank - 1;
        Eval {
            variant: def.name,
            source: tables.source.clone(),
            psq,
            value: tables.pieces.iter().map(|p| p.value).collect(),
            order_value,
            phase_weight,
            phase_total: phase_total.max(1),
            mobility: tables.pieces.iter().map(|p| p.mobility).collect(),
            pairs: tables.pairs.clone(),
            terms: tables.terms,
            hand_is_material: def.drops.is_some() || def.gating.is_some(),
            mop_up: def.end.bare_king == BareKingRule::None,
            promo_rank: [promo, g.ranks - 1 - promo],
            files: g.files,
            ranks: g.ranks,
            centre_distance,
            king,
            pawn,
        }
    }

    /// The evaluation of `def`'s variant from `DIR/<variant>.txt` if `dir` is given and
    /// the file exists there, else from the built-in tables.
    pub fn load(def: &'static VariantDef, dir: Option<&Path>) -> Result<Eval, String> {
        Ok(Eval::new(&EvalTables::load(def, dir)?))
    }

    /// The built-in evaluation of the variant named `variant`.
    pub fn embedded(variant: &str) -> Result<Eval, String> {
        let id = variant_id(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
        Eval::load(&all_variants()[id], None)
    }

    /// A piece type's middlegame value for move ordering (the king: 20000).
    #[inline(always)]
    pub fn order_value(&self, t: PieceType) -> i32 {
        self.order_value[t]
    }

    /// A piece type's material value.
    pub fn value(&self, t: PieceType) -> Pair {
        self.value[t]
    }

    /// Non-pawn, non-king material of colour `c` on the board, middlegame values.
    pub fn piece_material<B: BoardWidth>(&self, pos: &Position<B>, c: Color) -> i32 {
        let r = pos.rules;
        let mut m = 0;
        for t in 0..r.types {
            if t != self.king && Some(t) != self.pawn {
                m += pos.pieces(c, t).count() as i32 * self.value[t].mg;
            }
        }
        m
    }

    /// The static evaluation of `pos` for the side to move, in centipawns: the board
    /// (material, squares, mobility, king pressure), pairs and hands per colour, then
    /// king safety, pawns and mop-up, blended by the game phase.
    pub fn evaluate<B: BoardWidth>(&self, pos: &Position<B>) -> i32 {
        let r = pos.rules;
        let occ = pos.occupied();
        let king_sq = Color::ALL.map(|c| pos.king_square(c));
        let zone = |c: Color| -> B {
            if king_sq[c] == NO_SQUARE {
                B::EMPTY
            } else {
                r.neighbours[king_sq[c]]
            }
        };
        let zones = Color::ALL.map(zone);
        let mut s = Sums::default();
        for c in Color::iter() {
            self.board_terms(pos, c, occ, &zones, &mut s);
            self.pair_terms(pos, c, &mut s);
            if self.hand_is_material && !pos.hand_is_empty(c) {
                self.hand_terms(pos, c, king_sq[c], &mut s);
            }
        }
        self.king_attack_terms(&mut s);
        if let Some(p) = self.pawn {
            self.pawn_terms(pos, p, &king_sq, &mut s.mg, &mut s.eg);
        }
        if self.mop_up {
            self.mop_up_terms(pos, &king_sq, &mut s.mg, &mut s.eg);
        }
        self.tapered(pos.side(), &mut s)
    }

    /// Colour `c`'s pieces on the board: value and square, mobility, and the pressure
    /// they put on the enemy king's zone (`zones`: the squares next to each king).
    #[inline(always)]
    fn board_terms<B: BoardWidth>(
        &self,
        pos: &Position<B>,
        c: Color,
        occ: B,
        zones: &[B; 2],
        s: &mut Sums,
    ) {
        let r = pos.rules;
        let own = pos.pieces_of_color(c);
        let them = c.flip();
        for t in 0..r.types {
            let set = pos.pieces(c, t);
            if set.is_empty() {
                continue;
            }
            let table = &self.psq[c][t * MAX_SQUARES..(t + 1) * MAX_SQUARES];
            let mob = self.mobility[t];
            let piece = t != self.king && Some(t) != self.pawn;
            for sq in set.squares() {
                let v = table[sq];
                s.mg[c] += v.mg;
                s.eg[c] += v.eg;
                s.phase += self.phase_weight[t];
                if piece {
                    let att = attacks(r, c, t, sq, occ);
                    let n = (att & !own).count() as i32;
                    s.mg[c] += mob.mg * n;
                    s.eg[c] += mob.eg * n;
                    let hits = (att & zones[them]).count() as i32;
                    if hits > 0 {
                        s.pressure[them] += hits;
                        s.attackers[them] += 1;
                    }
                }
            }
        }
    }

    /// Colour `c`'s `pair` bonuses: pieces on both square colours (a piece in hand can
    /// still be dropped on the missing colour).
    #[inline(always)]
    fn pair_terms<B: BoardWidth>(&self, pos: &Position<B>, c: Color, s: &mut Sums) {
        let r = pos.rules;
        for &(t, bonus) in &self.pairs {
            let set = pos.pieces(c, t);
            let in_hand = if self.hand_is_material {
                pos.in_hand(c, t) as u32
            } else {
                0
            };
            let dark = (set & r.dark).any();
            let light = (set & !r.dark).any();
            let both = (dark && light) || (in_hand > 0 && set.count() + in_hand >= 2);
            if both {
                s.mg[c] += bonus.mg;
                s.eg[c] += bonus.eg;
            }
        }
    }

    /// Colour `c`'s pieces in hand (value, phase, `hand_piece`) and the cover of its
    /// king `k` while it still deploys.
    #[inline(always)]
    fn hand_terms<B: BoardWidth>(&self, pos: &Position<B>, c: Color, k: Square, s: &mut Sums) {
        let r = pos.rules;
        for t in 0..r.types {
            let n = pos.in_hand(c, t) as i32;
            if n > 0 {
                let v = self.value[t];
                s.mg[c] += n * (v.mg + self.terms.hand_piece.mg);
                s.eg[c] += n * (v.eg + self.terms.hand_piece.eg);
                s.phase += n * self.phase_weight[t];
            }
        }
        if k != NO_SQUARE {
            let cover = (r.neighbours[k] & pos.pieces_of_color(c)).count() as i32;
            s.mg[c] += cover * self.terms.deploy_king_cover.mg;
            s.eg[c] += cover * self.terms.deploy_king_cover.eg;
        }
    }

    /// King safety: the penalty for pressure on each king's zone, once two pieces (or
    /// one with three hits) take part.
    #[inline(always)]
    fn king_attack_terms(&self, s: &mut Sums) {
        for c in Color::iter() {
            if s.attackers[c] >= 2 || (s.attackers[c] == 1 && s.pressure[c] >= 3) {
                let u = s.pressure[c].min(24);
                s.mg[c] -= self.terms.king_attack.mg * u * u / 8;
                s.eg[c] -= self.terms.king_attack.eg * u * u / 8;
            }
        }
    }

    /// The tempo bonus for `us`, then the middlegame and endgame sums blended by the
    /// phase, from `us`'s point of view.
    #[inline(always)]
    fn tapered(&self, us: Color, s: &mut Sums) -> i32 {
        s.mg[us] += self.terms.tempo.mg;
        s.eg[us] += self.terms.tempo.eg;
        let total = self.phase_total;
        let ph = s.phase.clamp(0, total);
        let m = s.mg[Color::White] - s.mg[Color::Black];
        let e = s.eg[Color::White] - s.eg[Color::Black];
        let score = (m * ph + e * (total - ph)) / total;
        if us == Color::White {
            score
        } else {
            -score
        }
    }

    fn pawn_terms<B: BoardWidth>(
        &self,
        pos: &Position<B>,
        p: PieceType,
        king_sq: &[Square; 2],
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
    ) {
        let r = pos.rules;
        let files = self.files;
        // Per colour and file: pawn count, lowest and highest rank.
        let mut count = [[0u8; 10]; 2];
        let mut low = [[u8::MAX; 10]; 2];
        let mut high = [[0u8; 10]; 2];
        let pawns = Color::ALL.map(|c| pos.pieces(c, p));
        for c in Color::iter() {
            for sq in pawns[c].squares() {
                let f = sq % files;
                let rk = (sq / files) as u8;
                count[c][f] += 1;
                low[c][f] = low[c][f].min(rk);
                high[c][f] = high[c][f].max(rk);
            }
        }
        let t = &self.terms;
        for c in Color::iter() {
            let them = c.flip();
            let promo = self.promo_rank[c] as i32;
            // The longest way a pawn can have to go: from the first rank.
            let max_dist = if c == Color::White {
                promo
            } else {
                self.ranks as i32 - 1 - promo
            }
            .max(1);
            for sq in pawns[c].squares() {
                let f = sq % files;
                let rk = (sq / files) as i32;
                let lo = f.saturating_sub(1);
                let hi = (f + 1).min(files - 1);
                // Doubled: another own pawn in front on the same file.
                let ahead_own = if c == Color::White {
                    (high[c][f] as i32) > rk
                } else {
                    (low[c][f] as i32) < rk
                };
                if ahead_own {
                    mg[c] += t.doubled_pawn.mg;
                    eg[c] += t.doubled_pawn.eg;
                }
                let neighbours = (lo..=hi).any(|ff| ff != f && count[c][ff] > 0);
                if !neighbours {
                    mg[c] += t.isolated_pawn.mg;
                    eg[c] += t.isolated_pawn.eg;
                }
                let passed = (lo..=hi).all(|ff| {
                    count[them][ff] == 0
                        || if c == Color::White {
                            (high[them][ff] as i32) < rk
                        } else {
                            (low[them][ff] as i32) > rk
                        }
                });
                if passed && !ahead_own {
                    let dist = (promo - rk).abs();
                    let k = (max_dist - dist + 1).max(0);
                    let den = max_dist * max_dist;
                    mg[c] += t.passed_pawn.mg * k * k / den;
                    eg[c] += t.passed_pawn.eg * k * k / den;
                }
            }
            // Shelter: own pawns on the three squares in front of the king (half for
            // two ranks in front).
            let k = king_sq[c];
            if k != NO_SQUARE && t.king_shelter != Pair::default() {
                let g = r.geo;
                let dir: i32 = if c == Color::White { 1 } else { -1 };
                let mut units = 0;
                for df in -1..=1 {
                    for (step, w) in [(1, 2), (2, 1)] {
                        if let Some(s) = g.offset(k, df, dir * step) {
                            if pawns[c].has(s) {
                                units += w;
                            }
                        }
                    }
                }
                mg[c] += t.king_shelter.mg * units / 2;
                eg[c] += t.king_shelter.eg * units / 2;
            }
        }
    }

    fn mop_up_terms<B: BoardWidth>(
        &self,
        pos: &Position<B>,
        king_sq: &[Square; 2],
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
    ) {
        for weak in Color::iter() {
            let strong = weak.flip();
            if !pos.is_bare(weak, true) || pos.is_bare(strong, true) {
                continue;
            }
            let (kw, ks) = (king_sq[weak], king_sq[strong]);
            if kw == NO_SQUARE || ks == NO_SQUARE {
                continue;
            }
            let g = pos.rules.geo;
            let dist = (g.file(kw) as i32 - g.file(ks) as i32)
                .abs()
                .max((g.rank(kw) as i32 - g.rank(ks) as i32).abs());
            let t = self.terms.mop_up;
            let edge = self.centre_distance[kw];
            let close = (self.files.max(self.ranks) as i32 - dist).max(0);
            mg[strong] += t.mg * edge + t.mg * close / 5;
            eg[strong] += t.eg * edge + t.eg * close / 5;
        }
    }
}

/// The running sums of one evaluation, per colour where indexed.
#[derive(Default)]
struct Sums {
    /// Middlegame score.
    mg: [i32; 2],
    /// Endgame score.
    eg: [i32; 2],
    /// Game phase (both colours).
    phase: i32,
    /// Units of enemy pressure on the colour's king zone.
    pressure: [i32; 2],
    /// Enemy pieces that attack the colour's king zone.
    attackers: [i32; 2],
}

const MAX_TYPES_SQ: usize = crate::rules::compile::MAX_TYPES * MAX_SQUARES;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compile::BoardWidth;

    fn eval_of(variant: &str, fen: &str) -> i32 {
        let id = variant_id(variant).unwrap();
        let ev = Eval::embedded(variant).unwrap();
        if all_variants()[id].geometry.squares() <= 64 {
            let pos = Position::<u64>::from_fen(u64::rules(id), fen).unwrap();
            ev.evaluate(&pos)
        } else {
            let pos = Position::<u128>::from_fen(u128::rules(id), fen).unwrap();
            ev.evaluate(&pos)
        }
    }

    #[test]
    fn start_positions_are_nearly_level() {
        for def in all_variants() {
            let e = eval_of(def.name, def.start_fen);
            assert!(e.abs() < 60, "{}: {e}", def.name);
        }
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        // The same position with colours swapped and the board mirrored scores the same
        // for the side to move.
        let a = eval_of(
            "normal",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        );
        let b = eval_of(
            "normal",
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        );
        assert_eq!(a, b);
    }

    #[test]
    fn extra_material_is_good() {
        let e = eval_of("normal", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(e > 700, "{e}");
        let e = eval_of("normal", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(e < -700, "{e}");
    }
}
