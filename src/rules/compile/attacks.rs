//! Pass 2: the move tables reversed, so that attack tests ask "who attacks this square
//! from where" (exact for point-dependent pieces), and the attack classes of the piece
//! types (leapers, lame movers, riders) that tell the attack tests what to look at.

use super::moves::MoveTables;
use super::{PathMove, PieceType, Rules, MAX_TYPES};
use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::geometry::{DIAGONAL, MAX_SQUARES, ORTHOGONAL};
use crate::rules::variant::VariantDef;

/// The reversed move tables, indexed like the move tables by the attacked square.
pub(super) struct ReverseTables<B> {
    /// Squares from which a type captures on the square by a leap or step.
    pub attackers_by_leap: Vec<B>,
    /// Capturing path moves ending on the square; `to` is the square they start from.
    pub attack_paths: Vec<PathMove<B>>,
    /// The span of `attack_paths` per (colour, type, square).
    pub attack_path_span: Vec<(u32, u32)>,
    /// Per colour and square: where a pawn could capture en passant from.
    pub ep_sources: Vec<B>,
}

/// Per colour and square, every square a checking piece of some type of `types` could
/// attack it from (by `sources` of one type), so that an attack test can skip a whole
/// class when no piece of the colour stands on any of them.
pub(super) fn union_per_square<B: Bitboard>(
    types: &[PieceType],
    n: usize,
    sources: impl Fn(Color, PieceType, usize) -> B,
) -> Vec<B> {
    let mut union = vec![B::EMPTY; 2 * MAX_SQUARES];
    for color in Color::iter() {
        for sq in 0..n {
            for &t in types {
                union[color.index() * MAX_SQUARES + sq] |= sources(color, t, sq);
            }
        }
    }
    union
}

/// Reverses the leap and path tables of `types` piece types on `n` squares; `pawn` is
/// the type whose capture-only steps are en passant sources.
pub(super) fn reverse_tables<B: Bitboard>(
    m: &MoveTables<B>,
    types: usize,
    n: usize,
    pawn: Option<PieceType>,
) -> ReverseTables<B> {
    let table = 2 * MAX_TYPES * MAX_SQUARES;
    let mut attackers_by_leap = vec![B::EMPTY; table];
    let mut reverse: Vec<Vec<PathMove<B>>> = vec![Vec::new(); table];
    let mut ep_sources = vec![B::EMPTY; 2 * MAX_SQUARES];
    for color in Color::iter() {
        for t in 0..types {
            for from in 0..n {
                let i = Rules::<B>::idx(color, t, from);
                for to in m.capture[i].squares() {
                    attackers_by_leap[Rules::<B>::idx(color, t, to)] |= B::square(from);
                    if Some(t) == pawn && !m.quiet[i].has(to) {
                        ep_sources[color.index() * MAX_SQUARES + to] |= B::square(from);
                    }
                }
                let (a, b) = m.path_span[i];
                for pm in &m.paths[a as usize..b as usize] {
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
    ReverseTables {
        attackers_by_leap,
        attack_paths,
        attack_path_span,
        ep_sources,
    }
}

/// Which checking piece types attack how (see the fields of the same names in
/// [`Rules`]); types that never give check are in no class, since every attack test
/// asks about attacks as a king would suffer them.
pub(super) struct AttackClasses {
    /// Checking types that attack by a leap or step.
    pub leaper_types: Vec<PieceType>,
    /// Checking types that attack along a path that can be blocked.
    pub lame_types: Vec<PieceType>,
    /// Checking types that ride orthogonally.
    pub orth_riders: Vec<PieceType>,
    /// Checking types that ride diagonally.
    pub diag_riders: Vec<PieceType>,
    /// Types whose attacks on the king count as check.
    pub gives_check: [bool; MAX_TYPES],
}

/// Sorts the checking piece types of `def` into attack classes from their move tables on
/// `n` squares and their slide directions; a type that rides in some directions only
/// (not orthogonally, diagonally or both) is an error.
pub(super) fn attack_classes<B: Bitboard>(
    def: &VariantDef,
    m: &MoveTables<B>,
    n: usize,
    rider_dirs: &[u8; MAX_TYPES],
) -> Result<AttackClasses, String> {
    let mut c = AttackClasses {
        leaper_types: Vec::new(),
        lame_types: Vec::new(),
        orth_riders: Vec::new(),
        diag_riders: Vec::new(),
        gives_check: [false; MAX_TYPES],
    };
    for (t, piece) in def.pieces.iter().enumerate() {
        c.gives_check[t] = piece.gives_check;
        let mut leaps = false;
        let mut lame = false;
        for color in Color::iter() {
            for from in 0..n {
                let i = Rules::<B>::idx(color, t, from);
                leaps |= m.capture[i].any();
                let (a, b) = m.path_span[i];
                lame |= m.paths[a as usize..b as usize].iter().any(|p| p.capture);
            }
        }
        let dirs = rider_dirs[t];
        if dirs != 0 && dirs != ORTHOGONAL && dirs != DIAGONAL && dirs != 0xFF {
            return Err(format!(
                "variant {}: piece {} rides in some directions only (unsupported)",
                def.name, piece.letter
            ));
        }
        if !piece.gives_check {
            continue;
        }
        if leaps {
            c.leaper_types.push(t);
        }
        if lame {
            c.lame_types.push(t);
        }
        if dirs & ORTHOGONAL != 0 {
            c.orth_riders.push(t);
        }
        if dirs & DIAGONAL != 0 {
            c.diag_riders.push(t);
        }
    }
    Ok(c)
}
