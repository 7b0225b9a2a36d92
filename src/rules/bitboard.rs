//! Bitboards generic over their width.
//!
//! The 8x8 games use `u64`; the 9x9 and 10x8 games need 81 and 80 bits and use `u128`.
//! Everything that touches bitboards is generic over the [`Bitboard`] trait, so the
//! compiler produces one specialised copy of the move generator per width and the
//! 8x8 games pay nothing for the larger boards.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::rules::geometry::Square;

/// A set of squares, one bit per square (`sq = rank * files + file`).
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// Number of bits, the largest board this type can hold.
    const BITS: usize;

    /// The set holding only `sq`.
    fn square(sq: Square) -> Self;
    /// Lowest square in the set; the set must not be empty.
    fn lsb(self) -> Square;
    /// Highest square in the set; the set must not be empty.
    fn msb(self) -> Square;
    /// Number of squares in the set.
    fn count(self) -> u32;

    /// True when no square is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// True when at least one square is set.
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::EMPTY
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    fn has(self, sq: Square) -> bool {
        (self & Self::square(sq)).any()
    }

    /// True when the set has more than one square.
    fn more_than_one(self) -> bool;

    /// Iterates over the squares of the set, lowest first.
    #[inline(always)]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            let sq = self.0.lsb();
            self.0 ^= B::square(sq);
            Some(sq)
        }
    }
}

impl Bitboard for u64 {
    const EMPTY: Self = 0;
    const BITS: usize = 64;

    #[inline(always)]
    fn square(sq: Square) -> Self {
        1u64 << sq
    }
    #[inline(always)]
    fn lsb(self) -> Square {
        self.trailing_zeros() as Square
    }
    #[inline(always)]
    fn msb(self) -> Square {
        (63 - self.leading_zeros()) as Square
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn more_than_one(self) -> bool {
        self & self.wrapping_sub(1) != 0
    }
}

impl Bitboard for u128 {
    const EMPTY: Self = 0;
    const BITS: usize = 128;

    #[inline(always)]
    fn square(sq: Square) -> Self {
        1u128 << sq
    }
    #[inline(always)]
    fn lsb(self) -> Square {
        self.trailing_zeros() as Square
    }
    #[inline(always)]
    fn msb(self) -> Square {
        (127 - self.leading_zeros()) as Square
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn more_than_one(self) -> bool {
        self & self.wrapping_sub(1) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<B: Bitboard>(squares: &[Square]) {
        let mut b = B::EMPTY;
        for &s in squares {
            b |= B::square(s);
        }
        assert_eq!(b.count() as usize, squares.len());
        assert_eq!(b.squares().collect::<Vec<_>>(), squares);
        assert_eq!(b.lsb(), squares[0]);
        assert_eq!(b.msb(), *squares.last().unwrap());
        assert_eq!(b.more_than_one(), squares.len() > 1);
    }

    #[test]
    fn both_widths_iterate_in_order() {
        roundtrip::<u64>(&[0, 7, 63]);
        roundtrip::<u128>(&[0, 64, 80]);
        roundtrip::<u128>(&[5]);
    }
}
