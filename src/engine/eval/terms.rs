//! The evaluation's terms, written once against a [`Collector`]: material and
//! piece-square values, mobility, king safety, pawn structure and the endgame terms.

use super::params::KING_DANGER_UNITS;
use super::tables::Term;
use super::{attacks, Collector, Eval};
use crate::rules::compile::{BoardWidth, PieceType, MAX_TYPES};
use crate::rules::geometry::{Square, NO_SQUARE};
use crate::rules::position::{Color, Position};

/// What the pieces attack, per colour, and the pressure on each king.
pub(super) struct AttackMaps<B> {
    /// Squares attacked by each piece type (pawns: their captures).
    by_type: [[B; MAX_TYPES]; 2],
    /// Squares attacked by the colour.
    all: [B; 2],
    /// Units of enemy pressure on the colour's king zone.
    pressure: [i32; 2],
    /// Enemy pieces that attack the colour's king zone.
    attackers: [i32; 2],
}

impl Eval {
    /// Every term of `pos` into `s`; `pawns` adds the pawn-structure terms and returns
    /// the passed pawns per colour.
    #[inline(always)]
    pub(super) fn collect<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        s: &mut C,
        pawns: impl FnOnce(&mut C) -> [B; 2],
    ) {
        let king_sq = Color::ALL.map(|c| pos.king_square(c));
        let mut a = AttackMaps {
            by_type: [[B::EMPTY; MAX_TYPES]; 2],
            all: [B::EMPTY; 2],
            pressure: [0; 2],
            attackers: [0; 2],
        };
        if let Some(p) = self.pawn {
            for c in Color::iter() {
                a.by_type[c][p] = pawn_attacks(pos, c, p);
            }
        }
        for c in Color::iter() {
            self.board_terms(pos, c, &king_sq, &mut a, s);
        }
        for c in Color::iter() {
            a.all[c] = a.by_type[c].iter().fold(B::EMPTY, |x, &y| x | y);
        }
        for c in Color::iter() {
            self.threat_terms(pos, c, &a, s);
            self.king_danger_terms(pos, c, king_sq[c.flip()], &a, s);
            self.pair_terms(pos, c, s);
            if self.hand_is_material && !pos.hand_is_empty(c) {
                self.hand_terms(pos, c, king_sq[c], s);
            }
        }
        let passed = pawns(s);
        if let Some(p) = self.pawn {
            self.passed_terms(pos, &passed, &king_sq, s);
            self.shelter_terms(pos, p, &king_sq, s);
        }
        if self.mop_up {
            self.mop_up_terms(pos, &king_sq, s);
        }
        s.add(self, pos.side(), self.layout.term(Term::Tempo), 1);
    }

    /// Colour `c`'s pieces on the board: value and square, mobility, what they attack
    /// and the pressure they put on the enemy king's zone.
    #[inline(always)]
    pub(super) fn board_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        c: Color,
        king_sq: &[Square; 2],
        a: &mut AttackMaps<B>,
        s: &mut C,
    ) {
        let r = pos.rules;
        let occ = pos.occupied();
        let them = c.flip();
        let zone = if king_sq[them] == NO_SQUARE {
            B::EMPTY
        } else {
            r.neighbours[king_sq[them]]
        };
        // Mobility counts squares not held by own pieces nor guarded by enemy pawns.
        let enemy_pawns = self.pawn.map_or(B::EMPTY, |p| a.by_type[them][p]);
        let area = !pos.pieces_of_color(c) & !enemy_pawns;
        for t in 0..r.types {
            let set = pos.pieces(c, t);
            // Pawns only add their values and square bonuses here.
            if set.is_empty() || (Some(t) == self.pawn && !s.wants_pieces()) {
                continue;
            }
            let (mob, mob_len) = self.layout.mobility[t];
            let piece = t != self.king && Some(t) != self.pawn;
            for sq in set.squares() {
                s.piece(self, c, t, sq);
                if Some(t) == self.pawn {
                    continue;
                }
                let att = attacks(r, c, t, sq, occ);
                a.by_type[c][t] |= att;
                if !piece {
                    continue;
                }
                if mob_len > 0 {
                    let n = ((att & area).count() as usize).min(mob_len - 1);
                    s.add(self, c, mob + n, 1);
                }
                let hits = (att & zone).count() as i32;
                if hits > 0 {
                    a.pressure[them] += hits;
                    a.attackers[them] += 1;
                }
            }
        }
    }

    /// Colour `c`'s threats: enemy pieces its pawns or lesser pieces attack, and enemy
    /// units it attacks that nothing defends.
    #[inline(always)]
    pub(super) fn threat_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        c: Color,
        a: &AttackMaps<B>,
        s: &mut C,
    ) {
        let them = c.flip();
        let mut by_pawn = 0;
        let mut by_lesser = 0;
        for u in 0..pos.rules.types {
            if u == self.king || Some(u) == self.pawn {
                continue;
            }
            let victims = pos.pieces(them, u);
            if victims.is_empty() {
                continue;
            }
            if let Some(p) = self.pawn {
                by_pawn += (victims & a.by_type[c][p]).count() as i32;
            }
            let lesser = self.lesser[u]
                .iter()
                .fold(B::EMPTY, |x, &t| x | a.by_type[c][t]);
            by_lesser += (victims & lesser).count() as i32;
        }
        let targets = pos.pieces_of_color(them) & !pos.pieces(them, self.king);
        let hanging = (targets & a.all[c] & !a.all[them]).count() as i32;
        let l = &self.layout;
        s.add(self, c, l.term(Term::ThreatByPawn), by_pawn);
        s.add(self, c, l.term(Term::ThreatByLesser), by_lesser);
        s.add(self, c, l.term(Term::Hanging), hanging);
    }

    /// Colour `c`'s attack on the enemy king on `k`: the danger table by the pressure
    /// on its zone (for the king's side) and the safe checks `c` could give.
    #[inline(always)]
    pub(super) fn king_danger_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        c: Color,
        k: Square,
        a: &AttackMaps<B>,
        s: &mut C,
    ) {
        let them = c.flip();
        let (units, attackers) = (a.pressure[them], a.attackers[them]);
        if attackers >= 2 || (attackers == 1 && units >= 3) {
            let u = (units as usize).min(KING_DANGER_UNITS - 1);
            s.add(self, them, self.layout.king_danger + u, 1);
        }
        if k == NO_SQUARE {
            return;
        }
        let r = pos.rules;
        let occ = pos.occupied();
        let safe = !a.all[them] & !pos.pieces_of_color(c);
        for t in 0..r.types {
            if t == self.king || Some(t) == self.pawn || pos.pieces(c, t).is_empty() {
                continue;
            }
            // Where a `c` piece of type t would attack k: the moves of the other
            // colour's piece from k (exact for pieces that move alike both ways).
            let from = attacks(r, them, t, k, occ);
            let n = (from & a.by_type[c][t] & safe).count() as i32;
            if n > 0 {
                s.add(self, c, self.layout.safe_check + t, n);
            }
        }
    }

    /// Colour `c`'s `pair` bonuses: pieces on both square colours (a piece in hand can
    /// still be dropped on the missing colour).
    #[inline(always)]
    pub(super) fn pair_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        c: Color,
        s: &mut C,
    ) {
        let r = pos.rules;
        for (k, &t) in self.pair_types.iter().enumerate() {
            let set = pos.pieces(c, t);
            let in_hand = if self.hand_is_material {
                pos.in_hand(c, t) as u32
            } else {
                0
            };
            let dark = (set & r.dark).any();
            let light = (set & !r.dark).any();
            if (dark && light) || (in_hand > 0 && set.count() + in_hand >= 2) {
                s.add(self, c, self.layout.pair + k, 1);
            }
        }
    }

    /// Colour `c`'s pieces in hand (value and `hand_piece`) and the cover of its king
    /// `k` while it still deploys.
    #[inline(always)]
    pub(super) fn hand_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        c: Color,
        k: Square,
        s: &mut C,
    ) {
        let r = pos.rules;
        let l = &self.layout;
        for t in 0..r.types {
            let n = pos.in_hand(c, t) as i32;
            if n > 0 {
                s.add(self, c, l.value + t, n);
                s.add(self, c, l.term(Term::HandPiece), n);
            }
        }
        if k != NO_SQUARE {
            let cover = (r.neighbours[k] & pos.pieces_of_color(c)).count() as i32;
            s.add(self, c, l.term(Term::DeployKingCover), cover);
        }
    }

    /// What the passed pawns' surroundings add: a free square in front, the kings'
    /// distances to it, an empty pool to promote from.
    pub(super) fn passed_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        passed: &[B; 2],
        king_sq: &[Square; 2],
        s: &mut C,
    ) {
        let g = pos.rules.geo;
        let occ = pos.occupied();
        let l = &self.layout;
        let longest = l.passed_len as i32;
        for c in Color::iter() {
            if passed[c].is_empty() {
                continue;
            }
            let them = c.flip();
            let dir: i32 = if c == Color::White { 1 } else { -1 };
            let pool_empty =
                self.pool_promotion && (0..pos.rules.types).all(|t| pos.in_hand(c, t) == 0);
            for sq in passed[c].squares() {
                let dist = (self.promo_rank[c] as i32 - g.rank(sq) as i32).abs();
                let advance = (longest - dist + 1).max(0);
                if pool_empty {
                    s.add(self, c, l.term(Term::PassedNoPool), advance);
                }
                let Some(stop) = g.offset(sq, 0, dir) else {
                    continue;
                };
                if !occ.has(stop) {
                    s.add(self, c, l.term(Term::PassedFree), advance);
                }
                if king_sq[c] != NO_SQUARE && king_sq[them] != NO_SQUARE {
                    let d = distance(g, king_sq[them], stop) - distance(g, king_sq[c], stop);
                    s.add(self, c, l.term(Term::PassedKingDistance), advance * d);
                }
            }
        }
    }

    /// Own pawns on the three squares in front of each king (half for two ranks in
    /// front).
    pub(super) fn shelter_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        p: PieceType,
        king_sq: &[Square; 2],
        s: &mut C,
    ) {
        let g = pos.rules.geo;
        for c in Color::iter() {
            let k = king_sq[c];
            if k == NO_SQUARE {
                continue;
            }
            let pawns = pos.pieces(c, p);
            let dir: i32 = if c == Color::White { 1 } else { -1 };
            let mut units = 0;
            for df in -1..=1 {
                for (step, w) in [(1, 2), (2, 1)] {
                    if g.offset(k, df, dir * step).is_some_and(|s| pawns.has(s)) {
                        units += w;
                    }
                }
            }
            s.add_ratio(self, c, self.layout.term(Term::KingShelter), units, 2);
        }
    }

    /// The pawn-only terms (doubled, isolated, backward, connected, passed by
    /// distance); returns the passed pawns per colour. Cached per thread by
    /// [`PawnCache`].
    pub fn pawn_structure<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        s: &mut C,
    ) -> [B; 2] {
        let mut passed = [B::EMPTY; 2];
        let Some(p) = self.pawn else {
            return passed;
        };
        let r = pos.rules;
        let g = r.geo;
        let files = self.files;
        // Per colour and file: pawn count, lowest and highest rank.
        let mut count = [[0u8; 10]; 2];
        let mut low = [[u8::MAX; 10]; 2];
        let mut high = [[0u8; 10]; 2];
        let pawns = Color::ALL.map(|c| pos.pieces(c, p));
        let pawn_att = Color::ALL.map(|c| pawn_attacks(pos, c, p));
        for c in Color::iter() {
            for sq in pawns[c].squares() {
                let (f, rk) = (sq % files, (sq / files) as u8);
                count[c][f] += 1;
                low[c][f] = low[c][f].min(rk);
                high[c][f] = high[c][f].max(rk);
            }
        }
        let l = &self.layout;
        let longest = l.passed_len as i32;
        for c in Color::iter() {
            let them = c.flip();
            let white = c == Color::White;
            let dir: i32 = if white { 1 } else { -1 };
            // Is rank `a` ahead of rank `b` for colour c?
            let ahead = |a: i32, b: i32| if white { a > b } else { a < b };
            let (mut doubled, mut isolated, mut backward, mut connected) = (0, 0, 0, 0);
            for sq in pawns[c].squares() {
                let f = sq % files;
                let rk = (sq / files) as i32;
                let (lo, hi) = (f.saturating_sub(1), (f + 1).min(files - 1));
                let front_own = if white {
                    high[c][f] as i32
                } else {
                    low[c][f] as i32
                };
                let doubled_here = ahead(front_own, rk);
                doubled += doubled_here as i32;
                let beside = |ff: usize| ff != f && count[c][ff] > 0;
                if !(lo..=hi).any(beside) {
                    isolated += 1;
                } else {
                    // Backward: every neighbour is ahead, and an enemy pawn guards the
                    // square in front.
                    let behind_or_level = (lo..=hi).any(|ff| {
                        let last = if white {
                            low[c][ff] as i32
                        } else {
                            high[c][ff] as i32
                        };
                        beside(ff) && !ahead(last, rk)
                    });
                    let stop_guarded = g
                        .offset(sq, 0, dir)
                        .is_some_and(|st| pawn_att[them].has(st));
                    if !behind_or_level && stop_guarded {
                        backward += 1;
                    }
                }
                let phalanx = [-1, 1]
                    .iter()
                    .any(|&df| g.offset(sq, df, 0).is_some_and(|n| pawns[c].has(n)));
                if phalanx || pawn_att[c].has(sq) {
                    connected += 1;
                }
                let is_passed = (lo..=hi).all(|ff| {
                    count[them][ff] == 0 || {
                        let last = if white { high[them][ff] } else { low[them][ff] } as i32;
                        ahead(rk, last)
                    }
                });
                if is_passed && !doubled_here {
                    passed[c] |= B::square(sq);
                    let dist = (self.promo_rank[c] as i32 - rk).abs();
                    let d = (dist.clamp(1, longest) - 1) as usize;
                    s.add(self, c, l.passed + d, 1);
                }
            }
            s.add(self, c, l.term(Term::DoubledPawn), doubled);
            s.add(self, c, l.term(Term::IsolatedPawn), isolated);
            s.add(self, c, l.term(Term::BackwardPawn), backward);
            s.add(self, c, l.term(Term::ConnectedPawn), connected);
        }
        passed
    }

    pub(super) fn mop_up_terms<B: BoardWidth, C: Collector>(
        &self,
        pos: &Position<B>,
        king_sq: &[Square; 2],
        s: &mut C,
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
            let close =
                (self.files.max(self.ranks) as i32 - distance(pos.rules.geo, kw, ks)).max(0);
            let term = self.layout.term(Term::MopUp);
            s.add(self, strong, term, self.centre_distance[kw]);
            s.add_ratio(self, strong, term, close, 5);
        }
    }
}

/// King steps between two squares.
fn distance(g: crate::rules::geometry::Geometry, a: Square, b: Square) -> i32 {
    (g.file(a) as i32 - g.file(b) as i32)
        .abs()
        .max((g.rank(a) as i32 - g.rank(b) as i32).abs())
}

/// Squares colour `c`'s pawns (type `p`) capture on.
#[inline(always)]
fn pawn_attacks<B: BoardWidth>(pos: &Position<B>, c: Color, p: PieceType) -> B {
    let r = pos.rules;
    pos.pieces(c, p)
        .squares()
        .fold(B::EMPTY, |a, sq| a | r.capture_leaps(c, p, sq))
}
