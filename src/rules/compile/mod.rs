//! A variant compiled for one bitboard width: per-square move tables built once from the
//! Betza data and the board topology, plus the non-movement rules resolved to squares and
//! piece type numbers. Built lazily, once per (variant, width), and shared read-only.
//!
//! `compile` runs the passes in order: `moves` (leaps, paths and rides per piece and
//! square), `attacks` (the same tables reversed, and the attack classes of the types),
//! `lines` (rays, slide directions, neighbours, between/line masks) and `special`
//! (zones, promotion and pools, castling and the King's Leap, drops, gating, Shatar's
//! mates).

use once_cell::sync::OnceCell;

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::geometry::{Geometry, Square, DIAGONAL, MAX_SQUARES, ORTHOGONAL};
use crate::rules::variant::{all_variants, VariantDef, VARIANT_COUNT};

mod attacks;
mod lines;
mod moves;
mod slides8;
mod special;

/// The most piece types one variant has.
pub const MAX_TYPES: usize = 10;

/// A piece type number: the index in the variant's piece list.
pub type PieceType = usize;

/// A move whose intermediate squares must be empty (a lame leap or a short slide).
#[derive(Clone, Copy, Debug)]
pub struct PathMove<B> {
    /// Target square.
    pub to: Square,
    /// Squares that must be empty.
    pub path: B,
    /// May end on an empty square.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
}

/// A castling move resolved to squares.
#[derive(Clone, Copy, Debug)]
pub struct CastlingRule<B> {
    /// The side this castling move belongs to.
    pub color: Color,
    /// The bit of this right in the rights byte.
    pub bit: u8,
    /// FEN letter.
    pub flag: char,
    /// King's start square.
    pub king_from: Square,
    /// King's target square.
    pub king_to: Square,
    /// Partner's start square.
    pub partner_from: Square,
    /// Partner's target square.
    pub partner_to: Square,
    /// Partner's piece type.
    pub partner_type: PieceType,
    /// Squares that must be empty apart from king and partner.
    pub empty: B,
    /// Squares the enemy must not attack.
    pub safe: B,
}

/// King's Leap Chess: one colour's leap squares.
#[derive(Clone, Copy, Debug)]
pub struct KingLeapRule {
    /// King's start square.
    pub from: Square,
    /// (target, leapt-over square) pairs.
    pub leaps: [(Square, Square); 3],
}

/// A variant compiled for bitboard type `B`.
pub struct Rules<B> {
    /// Variant id (index in [`all_variants`]).
    pub id: usize,
    /// The data this was compiled from.
    pub def: &'static VariantDef,
    /// Board geometry.
    pub geo: Geometry,
    /// Number of piece types.
    pub types: usize,
    /// The royal piece type.
    pub king: PieceType,
    /// The pawn type, if any.
    pub pawn: Option<PieceType>,
    /// Every square of the board.
    pub board: B,
    /// Dark squares.
    pub dark: B,
    quiet: Vec<B>,
    capture: Vec<B>,
    paths: Vec<PathMove<B>>,
    path_span: Vec<(u32, u32)>,
    initial_span: Vec<(u32, u32)>,
    attackers_by_leap: Vec<B>,
    attack_paths: Vec<PathMove<B>>,
    attack_path_span: Vec<(u32, u32)>,
    ep_sources: Vec<B>,
    /// Unlimited slide directions per type (bits index [`DIRECTIONS`](crate::rules::geometry::DIRECTIONS)).
    pub rider_dirs: [u8; MAX_TYPES],
    rays: Vec<B>,
    ray_positive: [bool; 8],
    /// The board is a plain 8x8 one in 64 bits: slides by table lookup.
    plain_8x8: bool,
    /// The (up to 8) squares one king step away, per square, ignoring topology.
    pub neighbours: Vec<B>,
    between: Vec<B>,
    line: Vec<B>,
    /// Checking types that can attack by a leap or a one-step move.
    pub leaper_types: Vec<PieceType>,
    /// Checking types that can attack along a path that can be blocked.
    pub lame_types: Vec<PieceType>,
    /// Checking types that ride orthogonally.
    pub orth_riders: Vec<PieceType>,
    /// Checking types that ride diagonally.
    pub diag_riders: Vec<PieceType>,
    /// Per type: whether it gives check (the others are in no attack class and are
    /// left out of every attack test).
    pub gives_check: [bool; MAX_TYPES],
    /// Per colour and square: where any checking leaper could attack it from.
    leap_sources: Vec<B>,
    /// Per colour and square: where any checking lame mover could attack it from.
    lame_sources: Vec<B>,
    /// Per square: what orthogonal / diagonal riders reach from it on an empty board.
    empty_slides: Vec<[B; 2]>,
    /// Squares where pawns promote, per colour.
    pub promotion_zone: [B; 2],
    /// Squares where pawns may make their initial moves, per colour.
    pub pawn_initial: [B; 2],
    /// Squares a pawn can ever stand on, per colour: those its moves reach from the
    /// start position's pawns and its initial squares (a FEN may not put one elsewhere).
    pub pawn_squares: [B; 2],
    /// Types a pawn may always promote to.
    pub promo_always: Vec<PieceType>,
    /// Types a pawn may promote to from its side's pool.
    pub promo_pool: Vec<PieceType>,
    /// Types a captured piece of which goes to the owner's pool.
    pub pool_types: [bool; MAX_TYPES],
    /// Castling moves.
    pub castling: Vec<CastlingRule<B>>,
    /// King's leap rules per colour.
    pub king_leap: Option<[KingLeapRule; 2]>,
    /// Rights bits cleared by a move from or to each square.
    pub rights_mask: Vec<u8>,
    /// Drop squares per colour (empty when the game has no drops).
    pub drop_zone: [B; 2],
    /// Whether a side with anything in hand must drop.
    pub must_drop: bool,
    /// The piece type under Historia's bishop-colour rule.
    pub bishop_rule: Option<PieceType>,
    /// The gating piece type (placed where the king starts its move).
    pub gate: Option<PieceType>,
    /// The piece type whose field restricts enemy sliders.
    pub field: Option<PieceType>,
    /// Letter per type (uppercase).
    pub letters: Vec<char>,
    /// Shatar: types whose check is a shak.
    pub shak_types: [bool; MAX_TYPES],
    /// Shatar: the type that may not mate alone.
    pub forbidden_sole_mater: Option<PieceType>,
}

impl<B: Bitboard> Rules<B> {
    #[inline(always)]
    fn idx(color: Color, t: PieceType, sq: Square) -> usize {
        (color.index() * MAX_TYPES + t) * MAX_SQUARES + sq
    }

    /// Targets of non-capturing leaps and steps (no intermediate squares).
    #[inline(always)]
    pub fn quiet_leaps(&self, color: Color, t: PieceType, sq: Square) -> B {
        self.quiet[Self::idx(color, t, sq)]
    }

    /// Targets of capturing leaps and steps (no intermediate squares).
    #[inline(always)]
    pub fn capture_leaps(&self, color: Color, t: PieceType, sq: Square) -> B {
        self.capture[Self::idx(color, t, sq)]
    }

    /// Moves with intermediate squares (lame leaps, short slides).
    #[inline(always)]
    pub fn path_moves(&self, color: Color, t: PieceType, sq: Square) -> &[PathMove<B>] {
        let (a, b) = self.path_span[Self::idx(color, t, sq)];
        &self.paths[a as usize..b as usize]
    }

    /// Initial moves (pawn double steps) from `sq`.
    #[inline(always)]
    pub fn initial_moves(&self, color: Color, t: PieceType, sq: Square) -> &[PathMove<B>] {
        let (a, b) = self.initial_span[Self::idx(color, t, sq)];
        &self.paths[a as usize..b as usize]
    }

    /// Squares from which a `color` piece of type `t` captures on `sq` by a leap or step.
    /// (Computed by reversing the move tables, so point-dependent pieces are exact.)
    #[inline(always)]
    pub fn leap_attackers(&self, color: Color, t: PieceType, sq: Square) -> B {
        self.attackers_by_leap[Self::idx(color, t, sq)]
    }

    /// Squares from which some checking leaper of `color` could attack `sq`.
    #[inline(always)]
    pub fn leap_sources(&self, color: Color, sq: Square) -> B {
        self.leap_sources[color.index() * MAX_SQUARES + sq]
    }

    /// Squares from which some checking lame mover of `color` could attack `sq` (if its
    /// path were clear).
    #[inline(always)]
    pub fn lame_sources(&self, color: Color, sq: Square) -> B {
        self.lame_sources[color.index() * MAX_SQUARES + sq]
    }

    /// Squares an orthogonal (`diagonal` false) or diagonal rider reaches from `sq`
    /// on an empty board: where a rider must stand to attack `sq` at all.
    #[inline(always)]
    pub fn empty_slide(&self, sq: Square, diagonal: bool) -> B {
        self.empty_slides[sq][usize::from(diagonal)]
    }

    /// Capturing path moves of a `color` piece of type `t` that end on `sq`; in each
    /// entry `to` is the square the piece starts from.
    #[inline(always)]
    pub fn attack_paths(&self, color: Color, t: PieceType, sq: Square) -> &[PathMove<B>] {
        let (a, b) = self.attack_path_span[Self::idx(color, t, sq)];
        &self.attack_paths[a as usize..b as usize]
    }

    /// Squares from which a `color` pawn could capture en passant onto `sq` (its
    /// capture-only steps).
    #[inline(always)]
    pub fn ep_sources(&self, color: Color, sq: Square) -> B {
        self.ep_sources[color.index() * MAX_SQUARES + sq]
    }

    /// The full ray from `sq` in direction `dir` on an empty board.
    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: Square) -> B {
        self.rays[dir * MAX_SQUARES + sq]
    }

    /// Squares reached sliding from `sq` in the directions of `dirs`, stopping at (and
    /// including) the first square of `blockers`.
    #[inline(always)]
    pub fn slide(&self, sq: Square, blockers: B, dirs: u8) -> B
    where
        B: BoardWidth,
    {
        if self.plain_8x8 {
            if let Some(reach) = B::table_slide(sq, blockers, dirs) {
                return reach;
            }
        }
        self.ray_slide(sq, blockers, dirs)
    }

    /// [`Self::slide`] ray by ray, on any board.
    #[inline(always)]
    fn ray_slide(&self, sq: Square, blockers: B, dirs: u8) -> B {
        let mut out = B::EMPTY;
        let mut d = dirs;
        while d != 0 {
            let dir = d.trailing_zeros() as usize;
            d &= d - 1;
            let ray = self.ray(dir, sq);
            let hit = ray & blockers;
            if hit.is_empty() {
                out |= ray;
            } else {
                let b = if self.ray_positive[dir] {
                    hit.lsb()
                } else {
                    hit.msb()
                };
                out |= ray ^ self.ray(dir, b);
            }
        }
        out
    }

    /// Squares strictly between two squares on one line (empty if not aligned).
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> B {
        self.between[a * MAX_SQUARES + b]
    }

    /// The whole line through two aligned squares (empty if not aligned).
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> B {
        self.line[a * MAX_SQUARES + b]
    }

    /// The piece type with FEN letter `c` (either case).
    pub fn type_of_letter(&self, c: char) -> Option<PieceType> {
        let up = c.to_ascii_uppercase();
        self.letters.iter().position(|&l| l == up)
    }
}

/// Compiles variant `id` for bitboard type `B`, pass by pass: move tables (`moves`),
/// their reverse and the attack classes (`attacks`), rays and lines (`lines`), then the
/// non-movement rules (`special`).
fn compile<B: Bitboard>(id: usize) -> Result<Rules<B>, String> {
    let def = &all_variants()[id];
    let geo = def.geometry;
    let n = geo.squares();
    assert!(n <= B::BITS && n <= MAX_SQUARES);
    let types = def.pieces.len();
    assert!(types <= MAX_TYPES);
    let names = special::Names::new(def);
    let king = def
        .pieces
        .iter()
        .position(|p| p.royal)
        .ok_or("variant without a king")?;
    let pawn = def.pieces.iter().position(|p| p.pawn);

    let moves = moves::move_tables::<B>(def)?;
    let reverse = attacks::reverse_tables(&moves, types, n, pawn);
    let (rays, ray_positive) = lines::rays::<B>(&geo)?;
    let empty_slides = (0..MAX_SQUARES)
        .map(|sq| {
            let reach = |dirs: u8| {
                (0..8)
                    .filter(|d| dirs & (1 << d) != 0)
                    .fold(B::EMPTY, |u, d| u | rays[d * MAX_SQUARES + sq])
            };
            [reach(ORTHOGONAL), reach(DIAGONAL)]
        })
        .collect();
    let rider_dirs = lines::rider_dirs(def, &moves.rider_squares)?;
    let (between, line) = lines::between_and_line::<B>(&geo);
    let classes = attacks::attack_classes(def, &moves, n, &rider_dirs)?;
    let leap_sources = attacks::union_per_square::<B>(&classes.leaper_types, n, |c, t, sq| {
        reverse.attackers_by_leap[Rules::<B>::idx(c, t, sq)]
    });
    let lame_sources = attacks::union_per_square::<B>(&classes.lame_types, n, |c, t, sq| {
        let (a, b) = reverse.attack_path_span[Rules::<B>::idx(c, t, sq)];
        let paths = &reverse.attack_paths[a as usize..b as usize];
        paths.iter().fold(B::EMPTY, |u, pm| u | B::square(pm.to))
    });
    let (board, dark) = special::board_and_dark::<B>(&geo);
    let promo = special::promotion::<B>(def, &names)?;
    let km = special::king_moves::<B>(def, &names)?;
    let hand = special::hand_and_end::<B>(def, &names)?;

    let mut rules = Rules {
        id,
        def,
        geo,
        types,
        king,
        pawn,
        board,
        dark,
        quiet: moves.quiet,
        capture: moves.capture,
        paths: moves.paths,
        path_span: moves.path_span,
        initial_span: moves.initial_span,
        attackers_by_leap: reverse.attackers_by_leap,
        attack_paths: reverse.attack_paths,
        attack_path_span: reverse.attack_path_span,
        ep_sources: reverse.ep_sources,
        rider_dirs,
        plain_8x8: B::BITS == 64 && lines::is_plain_8x8(&geo, &rays),
        rays,
        ray_positive,
        neighbours: lines::neighbours::<B>(&geo),
        between,
        line,
        leaper_types: classes.leaper_types,
        lame_types: classes.lame_types,
        orth_riders: classes.orth_riders,
        diag_riders: classes.diag_riders,
        gives_check: classes.gives_check,
        leap_sources,
        lame_sources,
        empty_slides,
        promotion_zone: promo.promotion_zone,
        pawn_initial: promo.pawn_initial,
        promo_always: promo.promo_always,
        promo_pool: promo.promo_pool,
        pool_types: promo.pool_types,
        castling: km.castling,
        king_leap: km.king_leap,
        rights_mask: km.rights_mask,
        drop_zone: hand.drop_zone,
        must_drop: hand.must_drop,
        bishop_rule: hand.bishop_rule,
        gate: hand.gate,
        field: hand.field,
        letters: def.pieces.iter().map(|p| p.letter).collect(),
        shak_types: hand.shak_types,
        forbidden_sole_mater: hand.forbidden_sole_mater,
        pawn_squares: [B::EMPTY; 2],
    };
    if let Some(p) = pawn {
        rules.pawn_squares = [Color::White, Color::Black].map(|c| rules.pawn_reach(c, p));
    }
    Ok(rules)
}

impl<B: Bitboard> Rules<B> {
    /// The squares a `color` pawn (type `p`) can reach by its own moves from where the
    /// start position has pawns of that colour and from its initial squares; it stops
    /// where it promotes.
    fn pawn_reach(&self, color: Color, p: PieceType) -> B {
        let letter = self.letters[p];
        let letter = if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter.to_ascii_lowercase()
        };
        let board = self.def.start_fen.split([' ', '[']).next().unwrap_or("");
        let mut seen = self.pawn_initial[color];
        if let Ok(cells) = crate::rules::fen_text::board_cells(board) {
            for (i, row) in cells.iter().enumerate() {
                for (file, cell) in row.iter().enumerate() {
                    if *cell == Some(letter) && i < self.geo.ranks && file < self.geo.files {
                        seen |= B::square(self.geo.square(file, self.geo.ranks - 1 - i));
                    }
                }
            }
        }
        let mut frontier = seen;
        while frontier.any() {
            let mut next = B::EMPTY;
            for sq in frontier.squares() {
                if self.promotion_zone[color].has(sq) {
                    continue;
                }
                next = next | self.quiet_leaps(color, p, sq) | self.capture_leaps(color, p, sq);
                for m in self
                    .path_moves(color, p, sq)
                    .iter()
                    .chain(self.initial_moves(color, p, sq))
                {
                    next |= B::square(m.to);
                }
            }
            frontier = next & self.board & !seen;
            seen |= frontier;
        }
        seen
    }
}

/// A bitboard width that has a cache of compiled variants.
pub trait BoardWidth: Bitboard {
    /// The cache slots, one per variant.
    fn cache() -> &'static [OnceCell<Rules<Self>>; VARIANT_COUNT];

    /// The compiled rules of variant `id` for this width (built on first use).
    fn rules(id: usize) -> &'static Rules<Self> {
        Self::cache()[id].get_or_init(|| match compile::<Self>(id) {
            Ok(r) => r,
            // The variant table is part of the program: a broken entry is a bug.
            Err(e) => panic!("internal variant table error: {e}"),
        })
    }

    /// A slide on the plain 8x8 board by table lookup, where this width and `dirs`
    /// have one (see `slides8`); `None` sends the caller to the ray loop.
    #[inline(always)]
    fn table_slide(_sq: Square, _blockers: Self, _dirs: u8) -> Option<Self> {
        None
    }
}

impl BoardWidth for u64 {
    fn cache() -> &'static [OnceCell<Rules<u64>>; VARIANT_COUNT] {
        static CACHE: [OnceCell<Rules<u64>>; VARIANT_COUNT] =
            [const { OnceCell::new() }; VARIANT_COUNT];
        &CACHE
    }

    #[inline(always)]
    fn table_slide(sq: Square, blockers: u64, dirs: u8) -> Option<u64> {
        slides8::slide(sq, blockers, dirs)
    }
}

impl BoardWidth for u128 {
    fn cache() -> &'static [OnceCell<Rules<u128>>; VARIANT_COUNT] {
        static CACHE: [OnceCell<Rules<u128>>; VARIANT_COUNT] =
            [const { OnceCell::new() }; VARIANT_COUNT];
        &CACHE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_compiles_for_its_width() {
        for (id, v) in all_variants().iter().enumerate() {
            if v.geometry.squares() <= 64 {
                let _ = u64::rules(id);
            }
            let _ = u128::rules(id);
        }
    }

    #[test]
    fn chesquerque_tables_follow_the_points() {
        let id = crate::rules::variant::variant_id("chesquerque").unwrap();
        let r = u128::rules(id);
        let g = r.geo;
        let s = |n: &str| g.parse_square(n).unwrap();
        let bishop = r.type_of_letter('B').unwrap();
        // bishop on f3 (O-point): orthogonal steps only
        assert_eq!(r.capture_leaps(Color::White, bishop, s("f3")).count(), 4);
        assert_eq!(r.slide(s("f3"), 0, r.rider_dirs[bishop]), 0);
        // bishop on c7 (D-point) slides to h2
        let reach = r.slide(s("c7"), 0, r.rider_dirs[bishop]);
        assert!(reach.has(s("h2")));
        let knight = r.type_of_letter('N').unwrap();
        assert_eq!(r.path_moves(Color::White, knight, s("e5")).len(), 8);
        assert_eq!(r.path_moves(Color::White, knight, s("a1")).len(), 2);
    }
}
