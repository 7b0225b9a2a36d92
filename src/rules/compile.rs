//! A variant compiled for one bitboard width: per-square move tables built once from the
//! Betza data and the board topology, plus the non-movement rules resolved to squares and
//! piece type numbers. Built lazily, once per (variant, width), and shared read-only.

use once_cell::sync::OnceCell;

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Geometry, Square, DIRECTIONS, MAX_SQUARES, NO_SQUARE};
use crate::rules::piece::{parse_betza, Modality, Shape};
use crate::rules::variant::{all_variants, VariantDef, VARIANT_COUNT};

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
    /// 0 White, 1 Black.
    pub color: usize,
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
    /// Unlimited slide directions per type (bits index [`DIRECTIONS`]).
    pub rider_dirs: [u8; MAX_TYPES],
    rays: Vec<B>,
    ray_positive: [bool; 8],
    /// The (up to 8) squares one king step away, per square, ignoring topology.
    pub neighbours: Vec<B>,
    between: Vec<B>,
    line: Vec<B>,
    /// Types that can attack by a leap or a one-step move.
    pub leaper_types: Vec<PieceType>,
    /// Types that can attack along a path that can be blocked.
    pub lame_types: Vec<PieceType>,
    /// Types that ride orthogonally / diagonally.
    pub orth_riders: Vec<PieceType>,
    /// Types that ride diagonally.
    pub diag_riders: Vec<PieceType>,
    /// Types that never give check (excluded from king-attack tests).
    pub gives_check: [bool; MAX_TYPES],
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
    fn idx(color: usize, t: PieceType, sq: Square) -> usize {
        (color * MAX_TYPES + t) * MAX_SQUARES + sq
    }

    /// Targets of non-capturing leaps and steps (no intermediate squares).
    #[inline(always)]
    pub fn quiet_leaps(&self, color: usize, t: PieceType, sq: Square) -> B {
        self.quiet[Self::idx(color, t, sq)]
    }

    /// Targets of capturing leaps and steps (no intermediate squares).
    #[inline(always)]
    pub fn capture_leaps(&self, color: usize, t: PieceType, sq: Square) -> B {
        self.capture[Self::idx(color, t, sq)]
    }

    /// Moves with intermediate squares (lame leaps, short slides).
    #[inline(always)]
    pub fn path_moves(&self, color: usize, t: PieceType, sq: Square) -> &[PathMove<B>] {
        let (a, b) = self.path_span[Self::idx(color, t, sq)];
        &self.paths[a as usize..b as usize]
    }

    /// Initial moves (pawn double steps) from `sq`.
    #[inline(always)]
    pub fn initial_moves(&self, color: usize, t: PieceType, sq: Square) -> &[PathMove<B>] {
        let (a, b) = self.initial_span[Self::idx(color, t, sq)];
        &self.paths[a as usize..b as usize]
    }

    /// Squares from which a `color` piece of type `t` captures on `sq` by a leap or step.
    /// (Computed by reversing the move tables, so point-dependent pieces are exact.)
    #[inline(always)]
    pub fn leap_attackers(&self, color: usize, t: PieceType, sq: Square) -> B {
        self.attackers_by_leap[Self::idx(color, t, sq)]
    }

    /// Capturing path moves of a `color` piece of type `t` that end on `sq`; in each
    /// entry `to` is the square the piece starts from.
    #[inline(always)]
    pub fn attack_paths(&self, color: usize, t: PieceType, sq: Square) -> &[PathMove<B>] {
        let (a, b) = self.attack_path_span[Self::idx(color, t, sq)];
        &self.attack_paths[a as usize..b as usize]
    }

    /// Squares from which a `color` pawn could capture en passant onto `sq` (its
    /// capture-only steps).
    #[inline(always)]
    pub fn ep_sources(&self, color: usize, sq: Square) -> B {
        self.ep_sources[color * MAX_SQUARES + sq]
    }

    /// The full ray from `sq` in direction `dir` on an empty board.
    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: Square) -> B {
        self.rays[dir * MAX_SQUARES + sq]
    }

    /// Squares reached sliding from `sq` in the directions of `dirs`, stopping at (and
    /// including) the first square of `blockers`.
    #[inline(always)]
    pub fn slide(&self, sq: Square, blockers: B, dirs: u8) -> B {
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

fn compile<B: Bitboard>(id: usize) -> Result<Rules<B>, String> {
    let def = &all_variants()[id];
    let geo = def.geometry;
    let n = geo.squares();
    assert!(n <= B::BITS && n <= MAX_SQUARES);
    let types = def.pieces.len();
    assert!(types <= MAX_TYPES);
    let letters: Vec<char> = def.pieces.iter().map(|p| p.letter).collect();
    let type_of = |c: char| -> Result<PieceType, String> {
        letters
            .iter()
            .position(|&l| l == c)
            .ok_or_else(|| format!("variant {}: no piece {c}", def.name))
    };
    let sq = |name: &str| -> Result<Square, String> {
        geo.parse_square(name)
            .ok_or_else(|| format!("variant {}: bad square {name}", def.name))
    };
    let mut board = B::EMPTY;
    let mut dark = B::EMPTY;
    for s in 0..n {
        board |= B::square(s);
        if geo.is_dark(s) {
            dark |= B::square(s);
        }
    }

    let table = 2 * MAX_TYPES * MAX_SQUARES;
    let mut quiet = vec![B::EMPTY; table];
    let mut capture = vec![B::EMPTY; table];
    let mut paths: Vec<PathMove<B>> = Vec::new();
    let mut path_span = vec![(0u32, 0u32); table];
    let mut initial_span = vec![(0u32, 0u32); table];
    let mut rider_dirs = [0u8; MAX_TYPES];
    // Squares where each (type, direction) rides: must be all squares with that step, or none.
    let mut rider_squares = vec![[B::EMPTY; 8]; types];

    for (t, piece) in def.pieces.iter().enumerate() {
        let plain = parse_betza(piece.betza)?;
        let on_diag = match piece.betza_on_diagonal_points {
            Some(b) => parse_betza(b)?,
            None => plain.clone(),
        };
        for color in 0..2 {
            let flip = if color == 0 { 1 } else { -1 };
            for from in 0..n {
                let rules = if geo.has_diagonals(from)
                    && geo.topology != crate::rules::geometry::Topology::Full
                {
                    &on_diag
                } else {
                    &plain
                };
                let i = Rules::<B>::idx(color, t, from);
                let mut normal_paths = Vec::new();
                let mut initial_paths = Vec::new();
                for rule in rules {
                    match &rule.shape {
                        Shape::Ride(df, dr) => {
                            if rule.modality != Modality::Both || rule.initial {
                                return Err(format!(
                                    "{}: riders must move and capture alike",
                                    piece.betza
                                ));
                            }
                            let dir = DIRECTIONS
                                .iter()
                                .position(|&d| d == (*df, dr * flip))
                                .ok_or("bad ride direction")?;
                            if geo.has_step(from, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                                rider_squares[t][dir] |= B::square(from);
                            }
                        }
                        Shape::Leap(df, dr) => {
                            if let Some(to) = geo.offset(from, *df, dr * flip) {
                                let pm = PathMove {
                                    to,
                                    path: B::EMPTY,
                                    quiet: rule.modality.quiet(),
                                    capture: rule.modality.captures(),
                                };
                                if rule.initial {
                                    initial_paths.push(pm);
                                } else {
                                    if pm.quiet {
                                        quiet[i] |= B::square(to);
                                    }
                                    if pm.capture {
                                        capture[i] |= B::square(to);
                                    }
                                }
                            }
                        }
                        Shape::Path(steps) => {
                            let mut cur = from;
                            let mut path = B::EMPTY;
                            let mut ok = true;
                            for (k, &(df, dr)) in steps.iter().enumerate() {
                                if !geo.has_step(cur, df, dr * flip) {
                                    ok = false;
                                    break;
                                }
                                cur = geo.offset(cur, df, dr * flip).ok_or("off board")?;
                                if k + 1 < steps.len() {
                                    path |= B::square(cur);
                                }
                            }
                            if !ok {
                                continue;
                            }
                            let pm = PathMove {
                                to: cur,
                                path,
                                quiet: rule.modality.quiet(),
                                capture: rule.modality.captures(),
                            };
                            if rule.initial {
                                initial_paths.push(pm);
                            } else if path.is_empty() {
                                if pm.quiet {
                                    quiet[i] |= B::square(cur);
                                }
                                if pm.capture {
                                    capture[i] |= B::square(cur);
                                }
                            } else {
                                normal_paths.push(pm);
                            }
                        }
                    }
                }
                let start = paths.len() as u32;
                paths.extend(normal_paths);
                path_span[i] = (start, paths.len() as u32);
                let start = paths.len() as u32;
                paths.extend(initial_paths);
                initial_span[i] = (start, paths.len() as u32);
            }
        }
    }

    // Reverse tables: who attacks a square from where.
    let mut attackers_by_leap = vec![B::EMPTY; table];
    let mut reverse: Vec<Vec<PathMove<B>>> = vec![Vec::new(); table];
    let mut ep_sources = vec![B::EMPTY; 2 * MAX_SQUARES];
    let pawn_type = def.pieces.iter().position(|p| p.pawn);
    for color in 0..2 {
        for t in 0..types {
            for from in 0..n {
                let i = Rules::<B>::idx(color, t, from);
                for to in capture[i].squares() {
                    attackers_by_leap[Rules::<B>::idx(color, t, to)] |= B::square(from);
                    if Some(t) == pawn_type && !quiet[i].has(to) {
                        ep_sources[color * MAX_SQUARES + to] |= B::square(from);
                    }
                }
                let (a, b) = path_span[i];
                for pm in &paths[a as usize..b as usize] {
                    if pm.capture {
                        reverse[Rules::<B>::idx(color, t, pm.to)].push(PathMove {
                            to: from,
                            path: pm.path,
                            quiet: false,
                            capture: true,
                        });
                    }
                }
            }
        }
    }
    let mut attack_paths = Vec::new();
    let mut attack_path_span = vec![(0u32, 0u32); table];
    for (i, list) in reverse.into_iter().enumerate() {
        let start = attack_paths.len() as u32;
        attack_paths.extend(list);
        attack_path_span[i] = (start, attack_paths.len() as u32);
    }

    // Rays and their orientation.
    let mut rays = vec![B::EMPTY; 8 * MAX_SQUARES];
    let mut ray_positive = [false; 8];
    for (dir, &(df, dr)) in DIRECTIONS.iter().enumerate() {
        ray_positive[dir] = dr * geo.files as i32 + df > 0;
        for from in 0..n {
            let mut cur = from;
            let mut ray = B::EMPTY;
            while geo.has_step(cur, df, dr) {
                cur = geo.offset(cur, df, dr).ok_or("off board")?;
                ray |= B::square(cur);
            }
            rays[dir * MAX_SQUARES + from] = ray;
        }
    }
    for t in 0..types {
        for dir in 0..8 {
            let rs = rider_squares[t][dir];
            if rs.is_empty() {
                continue;
            }
            let mut with_step = B::EMPTY;
            for from in 0..n {
                if geo.has_step(from, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                    with_step |= B::square(from);
                }
            }
            if rs != with_step {
                return Err(format!(
                    "variant {}: piece {} rides in a direction on some points only",
                    def.name, letters[t]
                ));
            }
            rider_dirs[t] |= 1 << dir;
        }
    }

    let mut neighbours = vec![B::EMPTY; MAX_SQUARES];
    for (from, nb) in neighbours.iter_mut().enumerate().take(n) {
        for &(df, dr) in DIRECTIONS.iter() {
            if let Some(to) = geo.offset(from, df, dr) {
                *nb |= B::square(to);
            }
        }
    }

    // Between and line tables (full topology: straight lines).
    let mut between = vec![B::EMPTY; MAX_SQUARES * MAX_SQUARES];
    let mut line = vec![B::EMPTY; MAX_SQUARES * MAX_SQUARES];
    for a in 0..n {
        for (dir, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            let mut acc = B::EMPTY;
            let mut cur = a;
            while let Some(next) = geo.offset(cur, df, dr) {
                between[a * MAX_SQUARES + next] = acc;
                let back = DIRECTIONS
                    .iter()
                    .position(|&d| d == (-df, -dr))
                    .unwrap_or(dir);
                let mut full = B::square(a);
                let mut s = a;
                while let Some(x) = geo.offset(s, df, dr) {
                    full |= B::square(x);
                    s = x;
                }
                let mut s = a;
                while let Some(x) = geo.offset(s, DIRECTIONS[back].0, DIRECTIONS[back].1) {
                    full |= B::square(x);
                    s = x;
                }
                line[a * MAX_SQUARES + next] = full;
                acc |= B::square(next);
                cur = next;
            }
        }
    }

    let mut leaper_types = Vec::new();
    let mut lame_types = Vec::new();
    let mut orth_riders = Vec::new();
    let mut diag_riders = Vec::new();
    let mut gives_check = [false; MAX_TYPES];
    for t in 0..types {
        gives_check[t] = def.pieces[t].gives_check;
        let mut leaps = false;
        let mut lame = false;
        for color in 0..2 {
            for from in 0..n {
                let i = Rules::<B>::idx(color, t, from);
                leaps |= capture[i].any();
                let (a, b) = path_span[i];
                lame |= paths[a as usize..b as usize].iter().any(|p| p.capture);
            }
        }
        if leaps {
            leaper_types.push(t);
        }
        if lame {
            lame_types.push(t);
        }
        if rider_dirs[t] & crate::rules::geometry::ORTHOGONAL != 0 {
            orth_riders.push(t);
        }
        if rider_dirs[t] & crate::rules::geometry::DIAGONAL != 0 {
            diag_riders.push(t);
        }
        let dirs = rider_dirs[t];
        if dirs != 0
            && dirs != crate::rules::geometry::ORTHOGONAL
            && dirs != crate::rules::geometry::DIAGONAL
            && dirs != 0xFF
        {
            return Err(format!(
                "variant {}: piece {} rides in some directions only (unsupported)",
                def.name, letters[t]
            ));
        }
    }

    let king = def
        .pieces
        .iter()
        .position(|p| p.royal)
        .ok_or("variant without a king")?;
    let pawn = def.pieces.iter().position(|p| p.pawn);
    let rank_squares = |rank: usize| -> B {
        let mut b = B::EMPTY;
        for f in 0..geo.files {
            b |= B::square(geo.square(f, rank));
        }
        b
    };
    let promo_rank = def.promotion.rank - 1;
    let promotion_zone = [
        rank_squares(promo_rank),
        rank_squares(geo.ranks - 1 - promo_rank),
    ];
    let init_rank = def.pawn_initial_rank - 1;
    let pawn_initial = [
        rank_squares(init_rank),
        rank_squares(geo.ranks - 1 - init_rank),
    ];
    let promo_always = def
        .promotion
        .choices
        .chars()
        .map(type_of)
        .collect::<Result<Vec<_>, _>>()?;
    let promo_pool = def
        .promotion
        .from_pool
        .chars()
        .map(type_of)
        .collect::<Result<Vec<_>, _>>()?;
    let mut pool_types = [false; MAX_TYPES];
    if def.captures_to_pool {
        for &t in &promo_pool {
            pool_types[t] = true;
        }
    }

    let mut rights_mask = vec![0u8; MAX_SQUARES];
    let mut castling = Vec::new();
    for (k, c) in def.castling.iter().enumerate() {
        let bit = 1u8 << k;
        let mut empty = B::EMPTY;
        for s in c.empty {
            empty |= B::square(sq(s)?);
        }
        let mut safe = B::EMPTY;
        for s in c.safe {
            safe |= B::square(sq(s)?);
        }
        let rule = CastlingRule {
            color: c.color,
            bit,
            flag: c.flag,
            king_from: sq(c.king.0)?,
            king_to: sq(c.king.1)?,
            partner_from: sq(c.partner.0)?,
            partner_to: sq(c.partner.1)?,
            partner_type: type_of(c.partner_piece)?,
            empty,
            safe,
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
            for color in 0..2 {
                let (from, leaps) = &kl.leaps[color];
                out[color].from = sq(from)?;
                for (k, (to, over)) in leaps.iter().enumerate() {
                    out[color].leaps[k] = (sq(to)?, sq(over)?);
                }
                rights_mask[out[color].from] |= 1 << color;
            }
            Some(out)
        }
    };

    let mut drop_zone = [B::EMPTY; 2];
    let mut must_drop = false;
    let mut bishop_rule = None;
    if let Some(d) = &def.drops {
        for (zone, names) in drop_zone.iter_mut().zip(d.zones.iter()) {
            for s in names.iter() {
                *zone |= B::square(sq(s)?);
            }
        }
        must_drop = d.must_drop;
        bishop_rule = d.bishop_colour_rule.map(type_of).transpose()?;
    }
    let gate = def.gating.map(type_of).transpose()?;
    let field = def.field.map(type_of).transpose()?;
    let mut shak_types = [false; MAX_TYPES];
    let mut forbidden_sole_mater = None;
    if let Some(sm) = &def.end.shatar_mates {
        for c in sm.shak_pieces.chars() {
            shak_types[type_of(c)?] = true;
        }
        forbidden_sole_mater = Some(type_of(sm.forbidden_sole_mater)?);
    }

    Ok(Rules {
        id,
        def,
        geo,
        types,
        king,
        pawn,
        board,
        dark,
        quiet,
        capture,
        paths,
        path_span,
        initial_span,
        attackers_by_leap,
        attack_paths,
        attack_path_span,
        ep_sources,
        rider_dirs,
        rays,
        ray_positive,
        neighbours,
        between,
        line,
        leaper_types,
        lame_types,
        orth_riders,
        diag_riders,
        gives_check,
        promotion_zone,
        pawn_initial,
        promo_always,
        promo_pool,
        pool_types,
        castling,
        king_leap,
        rights_mask,
        drop_zone,
        must_drop,
        bishop_rule,
        gate,
        field,
        letters,
        shak_types,
        forbidden_sole_mater,
    })
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
}

impl BoardWidth for u64 {
    fn cache() -> &'static [OnceCell<Rules<u64>>; VARIANT_COUNT] {
        static CACHE: [OnceCell<Rules<u64>>; VARIANT_COUNT] =
            [const { OnceCell::new() }; VARIANT_COUNT];
        &CACHE
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
        assert_eq!(r.capture_leaps(0, bishop, s("f3")).count(), 4);
        assert_eq!(r.slide(s("f3"), 0, r.rider_dirs[bishop]), 0);
        // bishop on c7 (D-point) slides to h2
        let reach = r.slide(s("c7"), 0, r.rider_dirs[bishop]);
        assert!(reach.has(s("h2")));
        let knight = r.type_of_letter('N').unwrap();
        assert_eq!(r.path_moves(0, knight, s("e5")).len(), 8);
        assert_eq!(r.path_moves(0, knight, s("a1")).len(), 2);
    }
}
