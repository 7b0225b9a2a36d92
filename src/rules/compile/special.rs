//! Pass 4: the rules that are not piece movement, resolved from names to squares and
//! piece type numbers: zones (board, dark squares, promotion and initial-move ranks),
//! promotion choices and pools, castling and the King's Leap with the rights they clear,
//! drops, gating, the Hia's field and Shatar's mate rules.

use super::{CastlingRule, KingLeapRule, PieceType, MAX_TYPES};
use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::geometry::{Geometry, Square, MAX_SQUARES, NO_SQUARE};
use crate::rules::variant::VariantDef;

/// Resolves the names a variant definition uses: piece letters and square names.
pub(super) struct Names<'a> {
    def: &'a VariantDef,
}

impl<'a> Names<'a> {
    /// Names in `def`.
    pub fn new(def: &'a VariantDef) -> Names<'a> {
        Names { def }
    }

    /// The type with (uppercase) letter `c`.
    pub fn piece(&self, c: char) -> Result<PieceType, String> {
        self.def
            .pieces
            .iter()
            .position(|p| p.letter == c)
            .ok_or_else(|| format!("variant {}: no piece {c}", self.def.name))
    }

    /// The types of the letters of `letters`, in order.
    fn pieces(&self, letters: &str) -> Result<Vec<PieceType>, String> {
        letters.chars().map(|c| self.piece(c)).collect()
    }

    /// The square named `name`.
    fn square(&self, name: &str) -> Result<Square, String> {
        self.def
            .geometry
            .parse_square(name)
            .ok_or_else(|| format!("variant {}: bad square {name}", self.def.name))
    }

    /// The set of the squares named in `names`.
    fn squares<B: Bitboard>(&self, names: &[&str]) -> Result<B, String> {
        let mut b = B::EMPTY;
        for s in names {
            b |= B::square(self.square(s)?);
        }
        Ok(b)
    }
}

/// Every square of the board, and the dark squares.
pub(super) fn board_and_dark<B: Bitboard>(geo: &Geometry) -> (B, B) {
    let mut board = B::EMPTY;
    let mut dark = B::EMPTY;
    for s in 0..geo.squares() {
        board |= B::square(s);
        if geo.is_dark(s) {
            dark |= B::square(s);
        }
    }
    (board, dark)
}

/// Promotion and the pawns' initial moves, resolved.
pub(super) struct Promotion<B> {
    /// Squares where pawns promote, per colour.
    pub promotion_zone: [B; 2],
    /// Squares where pawns may make their initial moves, per colour.
    pub pawn_initial: [B; 2],
    /// Types a pawn may always promote to.
    pub promo_always: Vec<PieceType>,
    /// Types a pawn may promote to from its side's pool.
    pub promo_pool: Vec<PieceType>,
    /// Types a captured piece of which goes to the owner's pool.
    pub pool_types: [bool; MAX_TYPES],
}

/// The promotion and initial-move ranks of both colours, the promotion choices and the
/// pool types of `def`.
pub(super) fn promotion<B: Bitboard>(
    def: &VariantDef,
    names: &Names,
) -> Result<Promotion<B>, String> {
    let geo = def.geometry;
    let rank_squares = |rank: usize| -> B {
        let mut b = B::EMPTY;
        for f in 0..geo.files {
            b |= B::square(geo.square(f, rank));
        }
        b
    };
    let both_sides = |rank: usize| [rank_squares(rank), rank_squares(geo.ranks - 1 - rank)];
    let promo_pool = names.pieces(def.promotion.from_pool)?;
    let mut pool_types = [false; MAX_TYPES];
    if def.captures_to_pool {
        for &t in &promo_pool {
            pool_types[t] = true;
        }
    }
    Ok(Promotion {
        promotion_zone: both_sides(def.promotion.rank - 1),
        pawn_initial: both_sides(def.pawn_initial_rank - 1),
        promo_always: names.pieces(def.promotion.choices)?,
        promo_pool,
        pool_types,
    })
}

/// Castling and the King's Leap, resolved, with the rights each square clears.
pub(super) struct KingMoves<B> {
    /// Castling moves; the k-th has rights bit `1 << k`.
    pub castling: Vec<CastlingRule<B>>,
    /// King's leap rules per colour.
    pub king_leap: Option<[KingLeapRule; 2]>,
    /// Rights bits cleared by a move from or to each square.
    pub rights_mask: Vec<u8>,
}

/// The castling moves and King's Leap of `def` resolved to squares.
pub(super) fn king_moves<B: Bitboard>(
    def: &VariantDef,
    names: &Names,
) -> Result<KingMoves<B>, String> {
    let mut rights_mask = vec![0u8; MAX_SQUARES];
    let mut castling = Vec::new();
    for (k, c) in def.castling.iter().enumerate() {
        let bit = 1u8 << k;
        let rule = CastlingRule {
            color: c.color,
            bit,
            flag: c.flag,
            king_from: names.square(c.king.0)?,
            king_to: names.square(c.king.1)?,
            partner_from: names.square(c.partner.0)?,
            partner_to: names.square(c.partner.1)?,
            partner_type: names.piece(c.partner_piece)?,
            empty: names.squares(c.empty)?,
            safe: names.squares(c.safe)?,
        };
        rights_mask[rule.king_from] |= bit;
        rights_mask[rule.partner_from] |= bit;
        castling.push(rule);
    }
    let king_leap = match &def.king_leap {
        None => None,
        Some(kl) => {
            let mut out = [KingLeapRule {
                from: NO_SQUARE,
                leaps: [(NO_SQUARE, NO_SQUARE); 3],
            }; 2];
            for color in Color::iter() {
                let (from, leaps) = &kl.leaps[color];
                out[color].from = names.square(from)?;
                for (k, (to, over)) in leaps.iter().enumerate() {
                    out[color].leaps[k] = (names.square(to)?, names.square(over)?);
                }
                rights_mask[out[color].from] |= 1 << color.index();
            }
            Some(out)
        }
    };
    Ok(KingMoves {
        castling,
        king_leap,
        rights_mask,
    })
}

/// Drops, gating, the field and Shatar's mate rules, resolved.
pub(super) struct HandAndEnd<B> {
    /// Drop squares per colour (empty when the game has no drops).
    pub drop_zone: [B; 2],
    /// Whether a side with anything in hand must drop.
    pub must_drop: bool,
    /// The piece type under Historia's bishop-colour rule.
    pub bishop_rule: Option<PieceType>,
    /// The gating piece type.
    pub gate: Option<PieceType>,
    /// The piece type whose field restricts enemy sliders.
    pub field: Option<PieceType>,
    /// Shatar: types whose check is a shak.
    pub shak_types: [bool; MAX_TYPES],
    /// Shatar: the type that may not mate alone.
    pub forbidden_sole_mater: Option<PieceType>,
}

/// The drop zones, gating and field pieces and Shatar's mate rules of `def`.
pub(super) fn hand_and_end<B: Bitboard>(
    def: &VariantDef,
    names: &Names,
) -> Result<HandAndEnd<B>, String> {
    let mut out = HandAndEnd {
        drop_zone: [B::EMPTY; 2],
        must_drop: false,
        bishop_rule: None,
        gate: def.gating.map(|c| names.piece(c)).transpose()?,
        field: def.field.map(|c| names.piece(c)).transpose()?,
        shak_types: [false; MAX_TYPES],
        forbidden_sole_mater: None,
    };
    if let Some(d) = &def.drops {
        for (zone, squares) in out.drop_zone.iter_mut().zip(d.zones.iter()) {
            *zone = names.squares(squares)?;
        }
        out.must_drop = d.must_drop;
        out.bishop_rule = d.bishop_colour_rule.map(|c| names.piece(c)).transpose()?;
    }
    if let Some(sm) = &def.end.shatar_mates {
        for t in names.pieces(sm.shak_pieces)? {
            out.shak_types[t] = true;
        }
        out.forbidden_sole_mater = Some(names.piece(sm.forbidden_sole_mater)?);
    }
    Ok(out)
}
