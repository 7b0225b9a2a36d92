//! The two sides of a game. A [`Color`] indexes anything kept per side: a `[T; 2]`
//! array takes a colour as its index directly (White's entry first).

use std::ops::{Index, IndexMut, Not};

/// A side of the board: White (index 0) or Black (index 1). Word-sized, so that
/// indexing with it needs no widening (as a `u8` it cost `sako bench` about 2% more
/// instructions).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(usize)]
pub enum Color {
    /// White (index 0).
    White = 0,
    /// Black (index 1).
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// Both colours, White first, as an iterator: loop over this rather than over
    /// [`Color::ALL`]. It is a `0..2` range underneath and compiles like one; a loop
    /// over the array cost the evaluation about 2% more instructions.
    #[inline(always)]
    pub fn iter() -> impl Iterator<Item = Color> {
        (0..2).map(Color::from_index)
    }

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: the colour's place in per-side tables and its bit
    /// in a piece code.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with index `i & 1` (0 White, 1 Black).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The colour's name, `"White"` or `"Black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    /// The other colour (as [`Color::flip`]).
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A per-side array indexed by colour: `a[Color::White]` is `a[0]`.
impl<T> Index<Color> for [T; 2] {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self[c.index()]
    }
}

/// A per-side array indexed by colour, mutably.
impl<T> IndexMut<Color> for [T; 2] {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self[c.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::Color::{self, Black, White};

    #[test]
    fn flip_index_and_arrays() {
        assert_eq!(White.flip(), Black);
        assert_eq!(!Black, White);
        assert_eq!((White.index(), Black.index()), (0, 1));
        assert_eq!(Color::from_index(1), Black);
        assert_eq!(
            Color::ALL.map(|c| Color::from_index(c.index())),
            [White, Black]
        );
        let mut a = [10, 20];
        a[Black] += 1;
        assert_eq!((a[White], a[Black]), (10, 21));
    }
}
