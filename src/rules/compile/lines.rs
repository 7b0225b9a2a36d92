//! Pass 3: lines on the board. The rays of the eight directions (for sliding), the slide
//! directions of each piece type, the king-step neighbours of each square and the
//! between/line masks of aligned squares (for pins and check blocks).

use super::MAX_TYPES;
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Geometry, DIRECTIONS, MAX_SQUARES};
use crate::rules::variant::VariantDef;

/// The full ray from every square in every direction, indexed `dir * MAX_SQUARES + sq`,
/// and whether each direction runs towards higher square numbers.
pub(super) fn rays<B: Bitboard>(geo: &Geometry) -> Result<(Vec<B>, [bool; 8]), String> {
    let mut rays = vec![B::EMPTY; 8 * MAX_SQUARES];
    let mut ray_positive = [false; 8];
    for (dir, &(df, dr)) in DIRECTIONS.iter().enumerate() {
        ray_positive[dir] = dr * geo.files as i32 + df > 0;
        for from in 0..geo.squares() {
            let mut cur = from;
            let mut ray = B::EMPTY;
            while geo.has_step(cur, df, dr) {
                cur = geo.offset(cur, df, dr).ok_or("off board")?;
                ray |= B::square(cur);
            }
            rays[dir * MAX_SQUARES + from] = ray;
        }
    }
    Ok((rays, ray_positive))
}

/// True when `geo` is an 8x8 board whose rays (from [`rays`]) are those of a plain
/// chessboard in every direction: the board the slide lookup tables are made for.
pub(super) fn is_plain_8x8<B: Bitboard>(geo: &Geometry, rays: &[B]) -> bool {
    if geo.files != 8 || geo.ranks != 8 {
        return false;
    }
    DIRECTIONS.iter().enumerate().all(|(dir, &(df, dr))| {
        (0..64).all(|from: usize| {
            let mut ray = B::EMPTY;
            let (mut f, mut r) = ((from % 8) as i32 + df, (from / 8) as i32 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                ray |= B::square((r * 8 + f) as usize);
                f += df;
                r += dr;
            }
            rays[dir * MAX_SQUARES + from] == ray
        })
    })
}

/// The unlimited slide directions of each type (bits index [`DIRECTIONS`]) from the
/// squares where the move pass saw it ride. A type must ride a direction from every
/// square that has that step, or from none (a bitboard slide cannot depend on the point).
pub(super) fn rider_dirs<B: Bitboard>(
    def: &VariantDef,
    rider_squares: &[[B; 8]],
) -> Result<[u8; MAX_TYPES], String> {
    let geo = def.geometry;
    let mut rider_dirs = [0u8; MAX_TYPES];
    for (t, squares) in rider_squares.iter().enumerate() {
        for (dir, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            let rs = squares[dir];
            if rs.is_empty() {
                continue;
            }
            let mut with_step = B::EMPTY;
            for from in 0..geo.squares() {
                if geo.has_step(from, df, dr) {
                    with_step |= B::square(from);
                }
            }
            if rs != with_step {
                return Err(format!(
                    "variant {}: piece {} rides in a direction on some points only",
                    def.name, def.pieces[t].letter
                ));
            }
            rider_dirs[t] |= 1 << dir;
        }
    }
    Ok(rider_dirs)
}

/// The (up to 8) squares one king step away from each square, ignoring the topology.
pub(super) fn neighbours<B: Bitboard>(geo: &Geometry) -> Vec<B> {
    let mut neighbours = vec![B::EMPTY; MAX_SQUARES];
    for (from, nb) in neighbours.iter_mut().enumerate().take(geo.squares()) {
        for &(df, dr) in DIRECTIONS.iter() {
            if let Some(to) = geo.offset(from, df, dr) {
                *nb |= B::square(to);
            }
        }
    }
    neighbours
}

/// For every pair of squares on one straight line (ignoring the topology): the squares
/// strictly between them, and the whole line through them; both indexed
/// `a * MAX_SQUARES + b`, empty for squares not aligned.
pub(super) fn between_and_line<B: Bitboard>(geo: &Geometry) -> (Vec<B>, Vec<B>) {
    let mut between = vec![B::EMPTY; MAX_SQUARES * MAX_SQUARES];
    let mut line = vec![B::EMPTY; MAX_SQUARES * MAX_SQUARES];
    for a in 0..geo.squares() {
        for &(df, dr) in DIRECTIONS.iter() {
            let full = full_line::<B>(geo, a, df, dr);
            let mut acc = B::EMPTY;
            let mut cur = a;
            while let Some(next) = geo.offset(cur, df, dr) {
                between[a * MAX_SQUARES + next] = acc;
                line[a * MAX_SQUARES + next] = full;
                acc |= B::square(next);
                cur = next;
            }
        }
    }
    (between, line)
}

/// The straight line through `a` in direction (`df`, `dr`), both ways, `a` included.
fn full_line<B: Bitboard>(geo: &Geometry, a: usize, df: i32, dr: i32) -> B {
    let mut full = B::square(a);
    for (sf, sr) in [(df, dr), (-df, -dr)] {
        let mut s = a;
        while let Some(x) = geo.offset(s, sf, sr) {
            full |= B::square(x);
            s = x;
        }
    }
    full
}
