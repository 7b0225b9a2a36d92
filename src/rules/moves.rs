//! The move type and a fixed-capacity move list.

use std::mem::MaybeUninit;

use crate::rules::geometry::Square;

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A piece moves (and maybe captures); also the king's leap.
    Normal,
    /// A pawn's initial (double-step) move: may create an en-passant target.
    Initial,
    /// A pawn captures en passant.
    EnPassant,
    /// A pawn moves and promotes to `piece`.
    Promotion,
    /// A piece of type `piece` is dropped from the hand on `to`.
    Drop,
    /// A king moves and the gating piece (`piece`) is placed on the square it left.
    Gate,
    /// Castling number `piece` of the variant's castling list (`from`/`to` = the king's).
    Castle,
}

const KINDS: [MoveKind; 7] = [
    MoveKind::Normal,
    MoveKind::Initial,
    MoveKind::EnPassant,
    MoveKind::Promotion,
    MoveKind::Drop,
    MoveKind::Gate,
    MoveKind::Castle,
];

/// A move packed in 32 bits: from (7), to (7), kind (3), piece type or castling index (4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

impl Move {
    /// The "no move" value.
    pub const NONE: Move = Move(0);

    /// Builds a move.
    #[inline(always)]
    pub fn new(from: Square, to: Square, kind: MoveKind, piece: usize) -> Move {
        Move(from as u32 | (to as u32) << 7 | (kind as u32) << 14 | (piece as u32) << 17)
    }

    /// Start square (for drops: the target square too).
    #[inline(always)]
    pub fn from(self) -> Square {
        (self.0 & 0x7F) as Square
    }

    /// Target square.
    #[inline(always)]
    pub fn to(self) -> Square {
        ((self.0 >> 7) & 0x7F) as Square
    }

    /// Kind of move.
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        KINDS[((self.0 >> 14) & 7) as usize]
    }

    /// Promotion type, dropped type, gated type or castling index.
    #[inline(always)]
    pub fn piece(self) -> usize {
        ((self.0 >> 17) & 0xF) as usize
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({}->{} {:?} {})",
            self.from(),
            self.to(),
            self.kind(),
            self.piece()
        )
    }
}

/// Room for the largest move list any of our games produces.
pub const MAX_MOVES: usize = 1024;

/// A move list on the stack. Its slots start uninitialised: zeroing 4 KiB at every
/// node of a search or perft is a measurable cost.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // FEN validation bounds the pieces per side, so the list cannot overflow; the
        // check only keeps a bug from becoming memory corruption.
        if self.len < MAX_MOVES {
            self.moves[self.len].write(m);
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves (all of them when there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Keeps only the moves for which `keep` is true.
    #[inline(always)]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.moves[j].write(m);
                j += 1;
            }
        }
        self.len = j;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` slots were written by `push` or `retain`, and
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// The moves as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let m = Move::new(80, 3, MoveKind::Castle, 15);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.piece()),
            (80, 3, MoveKind::Castle, 15)
        );
        let m = Move::new(0, 127, MoveKind::Drop, 0);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.piece()),
            (0, 127, MoveKind::Drop, 0)
        );
    }
}
