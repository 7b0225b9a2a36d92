//! Sliding moves on a plain 8x8 board by multiplication and table lookup, with no ray
//! loop: the blockers on one line through the square (rank, file, diagonal or
//! anti-diagonal) are gathered by one multiplication into a 6-bit number (the line's
//! six inner squares; the end squares never block anything further), which indexes a
//! small table of the slides along a line of eight squares.
//!
//! * Rank and both diagonals: the line's squares have different files, so multiplying
//!   the masked blockers by [`SPREAD`] (bit 1 of every rank) stacks a copy of each of
//!   them onto the top rank, shifted one file up, with no two products on the same bit
//!   (so no carries); bits 58..63 are then the blockers on files b..g. The slide is
//!   the rank's pattern copied to every rank ([`RANK_SLIDES`]), masked by the line.
//! * File: shifted down to the a-file, the blocker on rank `r` (1..6) is carried to bit
//!   `57 + r` by the term `2^(57 - 7r)` of [`FILE_GATHER`]; every other product
//!   lands on a different bit below 58 or beyond 63, so again no carries. The slide is
//!   the a-file pattern ([`FILE_SLIDES`]) shifted back to the file.
//!
//! The tables are computed at compile time (4 KB each). [`super::lines::is_plain_8x8`]
//! decides which boards use them; every other board slides ray by ray.

use crate::rules::geometry::{Square, DIAGONAL, ORTHOGONAL};

/// Bit 1 of every rank: stacks a line's squares onto the top rank.
const SPREAD: u64 = 0x0202_0202_0202_0202;
/// Gathers the a-file's ranks 1..6 into bits 58..63.
const FILE_GATHER: u64 = (1 << 50) | (1 << 43) | (1 << 36) | (1 << 29) | (1 << 22) | (1 << 15);
/// The a-file.
const A_FILE: u64 = 0x0101_0101_0101_0101;

/// The squares (0..8) reached from `from` along a line of eight, stopping at (and
/// including) the first square of `blockers`.
const fn slide8(from: usize, blockers: u8) -> u8 {
    let mut out = 0u8;
    let mut i = from + 1;
    while i < 8 {
        out |= 1 << i;
        if blockers & (1 << i) != 0 {
            break;
        }
        i += 1;
    }
    let mut i = from;
    while i > 0 {
        i -= 1;
        out |= 1 << i;
        if blockers & (1 << i) != 0 {
            break;
        }
    }
    out
}

/// Per file and inner blockers: the rank slide, copied to every rank.
static RANK_SLIDES: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut occ = 0;
        while occ < 64 {
            t[f][occ] = slide8(f, (occ as u8) << 1) as u64 * A_FILE;
            occ += 1;
        }
        f += 1;
    }
    t
};

/// Per rank and inner blockers: the slide along the a-file.
static FILE_SLIDES: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut r = 0;
    while r < 8 {
        let mut occ = 0;
        while occ < 64 {
            let s = slide8(r, (occ as u8) << 1);
            let mut b = 0;
            while b < 8 {
                if s & (1 << b) != 0 {
                    t[r][occ] |= 1 << (8 * b);
                }
                b += 1;
            }
            occ += 1;
        }
        r += 1;
    }
    t
};

/// Per square: its rank, diagonal and anti-diagonal (the square included).
static LINES: [[u64; 3]; 64] = {
    let mut t = [[0u64; 3]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, f) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut s = 0usize;
        while s < 64 {
            let (r2, f2) = ((s / 8) as i32, (s % 8) as i32);
            if r2 == r {
                t[sq][0] |= 1 << s;
            }
            if r2 - r == f2 - f {
                t[sq][1] |= 1 << s;
            }
            if r2 - r == f - f2 {
                t[sq][2] |= 1 << s;
            }
            s += 1;
        }
        sq += 1;
    }
    t
};

/// The slide from `sq` along `line` (one with a square on every file it crosses).
#[inline(always)]
fn along(sq: Square, blockers: u64, line: u64) -> u64 {
    let inner = ((blockers & line).wrapping_mul(SPREAD) >> 58) as usize;
    RANK_SLIDES[sq % 8][inner] & line
}

/// The slide from `sq` along its file.
#[inline(always)]
fn along_file(sq: Square, blockers: u64) -> u64 {
    let file = sq % 8;
    let inner = (((blockers >> file) & A_FILE).wrapping_mul(FILE_GATHER) >> 58) as usize;
    FILE_SLIDES[sq / 8][inner] << file
}

/// Squares reached sliding from `sq` (0..64) in the directions `dirs` on the plain 8x8
/// board, stopping at (and including) the first square of `blockers`; `None` unless
/// `dirs` is [`ORTHOGONAL`], [`DIAGONAL`] or both.
#[inline(always)]
pub fn slide(sq: Square, blockers: u64, dirs: u8) -> Option<u64> {
    const BOTH: u8 = ORTHOGONAL | DIAGONAL;
    let lines = &LINES[sq];
    let orthogonal = || along(sq, blockers, lines[0]) | along_file(sq, blockers);
    let diagonal = || along(sq, blockers, lines[1]) | along(sq, blockers, lines[2]);
    match dirs {
        ORTHOGONAL => Some(orthogonal()),
        DIAGONAL => Some(diagonal()),
        BOTH => Some(orthogonal() | diagonal()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::DIRECTIONS;

    /// The slide ray by ray.
    fn reference(sq: Square, blockers: u64, dirs: u8) -> u64 {
        let mut out = 0u64;
        for (dir, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            if dirs & (1 << dir) == 0 {
                continue;
            }
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = (r * 8 + f) as u32;
                out |= 1 << s;
                if blockers & (1 << s) != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn lookups_match_the_ray_slides() {
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        let mut rand = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for sq in 0..64 {
            for n in 0..300 {
                let blockers = match n % 3 {
                    0 => rand(),
                    1 => rand() & rand(),
                    _ => rand() & rand() & rand(),
                };
                for dirs in [ORTHOGONAL, DIAGONAL, ORTHOGONAL | DIAGONAL] {
                    let want = reference(sq, blockers, dirs);
                    assert_eq!(slide(sq, blockers, dirs), Some(want), "{sq} {blockers:#x}");
                }
            }
        }
        assert_eq!(slide(0, 0, 0b0000_0001), None);
    }
}
