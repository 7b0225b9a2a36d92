//! Pass 1: the move tables. For every (colour, piece type, square), the targets of its
//! leaps and steps, its moves with intermediate squares (lame leaps, short slides) and its
//! initial moves, read from the piece's Betza text (the on-diagonal-point text on
//! Chesquerque's points with diagonals). Unlimited slides are only noted here, per
//! direction, for [`super::lines::rider_dirs`].

use super::{PathMove, PieceType, Rules, MAX_TYPES};
use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::geometry::{Geometry, Square, Topology, DIRECTIONS, MAX_SQUARES};
use crate::rules::piece::{parse_betza, Modality, MoveRule, Shape};
use crate::rules::variant::VariantDef;

/// The move tables of one variant, indexed by [`Rules::idx`].
pub(super) struct MoveTables<B> {
    /// Targets of non-capturing leaps and steps.
    pub quiet: Vec<B>,
    /// Targets of capturing leaps and steps.
    pub capture: Vec<B>,
    /// Every path move; the spans below index it.
    pub paths: Vec<PathMove<B>>,
    /// The normal path moves of each (colour, type, square).
    pub path_span: Vec<(u32, u32)>,
    /// The initial moves of each (colour, type, square).
    pub initial_span: Vec<(u32, u32)>,
    /// Per type and direction: the squares from which the type rides that way.
    pub rider_squares: Vec<[B; 8]>,
}

/// The moves of one (colour, type, square) before they are stored in the shared lists.
struct SquareMoves<B> {
    quiet: B,
    capture: B,
    normal_paths: Vec<PathMove<B>>,
    initial_paths: Vec<PathMove<B>>,
}

/// Builds the move tables of every piece of `def` on every square, for both colours.
pub(super) fn move_tables<B: Bitboard>(def: &VariantDef) -> Result<MoveTables<B>, String> {
    let geo = def.geometry;
    let table = 2 * MAX_TYPES * MAX_SQUARES;
    let mut out = MoveTables {
        quiet: vec![B::EMPTY; table],
        capture: vec![B::EMPTY; table],
        paths: Vec::new(),
        path_span: vec![(0u32, 0u32); table],
        initial_span: vec![(0u32, 0u32); table],
        // Must be all squares with that step, or none (checked in `rider_dirs`).
        rider_squares: vec![[B::EMPTY; 8]; def.pieces.len()],
    };
    for (t, piece) in def.pieces.iter().enumerate() {
        let plain = parse_betza(piece.betza)?;
        let on_diag = match piece.betza_on_diagonal_points {
            Some(b) => parse_betza(b)?,
            None => plain.clone(),
        };
        for color in Color::iter() {
            let flip = if color == Color::White { 1 } else { -1 };
            for from in 0..geo.squares() {
                let rules = if geo.has_diagonals(from) && geo.topology != Topology::Full {
                    &on_diag
                } else {
                    &plain
                };
                let moves = square_moves(&geo, rules, piece.betza, flip, from, t, &mut out)?;
                store(&mut out, Rules::<B>::idx(color, t, from), moves);
            }
        }
    }
    Ok(out)
}

/// The moves of type `t` from `from` for the colour whose forward is `flip`; rides are
/// recorded in `out.rider_squares`.
fn square_moves<B: Bitboard>(
    geo: &Geometry,
    rules: &[MoveRule],
    betza: &str,
    flip: i32,
    from: Square,
    t: PieceType,
    out: &mut MoveTables<B>,
) -> Result<SquareMoves<B>, String> {
    let mut m = SquareMoves {
        quiet: B::EMPTY,
        capture: B::EMPTY,
        normal_paths: Vec::new(),
        initial_paths: Vec::new(),
    };
    for rule in rules {
        match &rule.shape {
            Shape::Ride(df, dr) => {
                if rule.modality != Modality::Both || rule.initial {
                    return Err(format!("{betza}: riders must move and capture alike"));
                }
                let dir = DIRECTIONS
                    .iter()
                    .position(|&d| d == (*df, dr * flip))
                    .ok_or("bad ride direction")?;
                if geo.has_step(from, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                    out.rider_squares[t][dir] |= B::square(from);
                }
            }
            Shape::Leap(df, dr) => {
                if let Some(to) = geo.offset(from, *df, dr * flip) {
                    m.add(rule, to, B::EMPTY);
                }
            }
            Shape::Path(steps) => {
                if let Some((to, path)) = follow_path(geo, steps, flip, from)? {
                    m.add(rule, to, path);
                }
            }
        }
    }
    Ok(m)
}

/// Walks the steps of a path move from `from`: its target and the squares in between,
/// or `None` where the board has no such step.
fn follow_path<B: Bitboard>(
    geo: &Geometry,
    steps: &[(i32, i32)],
    flip: i32,
    from: Square,
) -> Result<Option<(Square, B)>, String> {
    let mut cur = from;
    let mut path = B::EMPTY;
    for (k, &(df, dr)) in steps.iter().enumerate() {
        if !geo.has_step(cur, df, dr * flip) {
            return Ok(None);
        }
        cur = geo.offset(cur, df, dr * flip).ok_or("off board")?;
        if k + 1 < steps.len() {
            path |= B::square(cur);
        }
    }
    Ok(Some((cur, path)))
}

impl<B: Bitboard> SquareMoves<B> {
    /// Adds a move to `to` over the squares `path` (empty for a leap or step).
    fn add(&mut self, rule: &MoveRule, to: Square, path: B) {
        let pm = PathMove {
            to,
            path,
            quiet: rule.modality.quiet(),
            capture: rule.modality.captures(),
        };
        if rule.initial {
            self.initial_paths.push(pm);
        } else if path.is_empty() {
            if pm.quiet {
                self.quiet |= B::square(to);
            }
            if pm.capture {
                self.capture |= B::square(to);
            }
        } else {
            self.normal_paths.push(pm);
        }
    }
}

/// Stores one square's moves at table index `i`.
fn store<B: Bitboard>(out: &mut MoveTables<B>, i: usize, m: SquareMoves<B>) {
    out.quiet[i] |= m.quiet;
    out.capture[i] |= m.capture;
    let start = out.paths.len() as u32;
    out.paths.extend(m.normal_paths);
    out.path_span[i] = (start, out.paths.len() as u32);
    let start = out.paths.len() as u32;
    out.paths.extend(m.initial_paths);
    out.initial_span[i] = (start, out.paths.len() as u32);
}
