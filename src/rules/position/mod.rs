//! A position of one game: bitboards per piece type and colour, a mailbox, hands,
//! the side to move and a stack of per-ply state for unmaking moves and finding
//! repetitions. This file holds the data, its accessors and the three board changes
//! everything else is built from (`put`, `remove`, `set_hand`); the rest of
//! `impl Position` is spread by topic:
//!
//! - `fen` — reading and writing FEN, and [`FenError`];
//! - `make` — making and unmaking moves;
//! - `attacks` — attackers of a square, checks, the Hia's field;
//! - `movegen` — pseudo-legal and legal moves;
//! - `weights` — [`SquareWeights`], a per-piece-square sum kept up to date;
//! - `accumulator` — [`InputColumns`], a network's first layer kept up to date;
//! - [`outcome`] — game end;
//! - [`notation`] — move text, and [`notation::MoveError`];
//! - `san` — standard algebraic notation, written and read.

pub mod accumulator;
mod attacks;
mod fen;
mod make;
mod movegen;
pub mod notation;
pub mod outcome;
mod san;
mod weights;

pub use accumulator::{InputColumns, InputShape, KingBuckets};
pub use fen::{fen_board_cells, FenError};
pub use movegen::{LegalityInfo, MoveSet};
pub use weights::SquareWeights;

use crate::rules::compile::{BoardWidth, PieceType, Rules, MAX_TYPES};
use crate::rules::geometry::{Square, MAX_SQUARES, NO_SQUARE};
use crate::rules::moves::{Move, MoveKind};
use crate::rules::zobrist::ZOBRIST;

pub use crate::rules::color::Color;

/// A piece code in the mailbox: `type * 2 + colour`, or [`NO_PIECE`].
pub type Piece = u8;
/// An empty mailbox square.
pub const NO_PIECE: Piece = 0xFF;

/// Builds a piece code.
#[inline(always)]
pub fn piece_code(color: Color, t: PieceType) -> Piece {
    (t * 2 + color.index()) as Piece
}

/// The type of a piece code.
#[inline(always)]
pub fn piece_type(p: Piece) -> PieceType {
    (p >> 1) as PieceType
}

/// The colour of a piece code.
#[inline(always)]
pub fn piece_color(p: Piece) -> Color {
    Color::from_index(p as usize)
}

/// What changes irreversibly with each ply; kept on a stack for unmake.
#[derive(Clone, Copy, Debug)]
pub struct State<B> {
    /// Zobrist key of the position.
    pub key: u64,
    /// Castling (or king's leap) rights bits.
    pub rights: u8,
    /// En-passant target square, or [`NO_SQUARE`].
    pub ep: Square,
    /// Whether `ep` is part of the key (an enemy pawn can take there).
    pub ep_in_key: bool,
    /// Plies since the last capture, pawn move or drop.
    pub halfmove: u32,
    /// The piece captured by the move that led here.
    pub captured: Piece,
    /// Enemy pieces giving check to the side to move.
    pub checkers: B,
    /// The move that led here ([`Move::NONE`] at the root).
    pub last_move: Move,
    /// Shatar: the check standing here is a shak (some checker is a Berse, rook or knight).
    pub shak: bool,
    /// The installed [`SquareWeights`] summed over the board (zero without weights).
    pub weighted: [i32; 2],
}

/// A position of variant `rules`, for bitboard width `B`.
#[derive(Clone)]
pub struct Position<B: BoardWidth> {
    /// The compiled variant.
    pub rules: &'static Rules<B>,
    by_type: [B; MAX_TYPES],
    by_color: [B; 2],
    mailbox: [Piece; MAX_SQUARES],
    hand: [[u8; MAX_TYPES]; 2],
    side: Color,
    king_sq: [Square; 2],
    st: State<B>,
    history: Vec<State<B>>,
    weights: Option<std::sync::Arc<SquareWeights>>,
    accumulators: Option<Box<accumulator::Accumulators>>,
    start_fullmove: u32,
    start_side: Color,
}

impl<B: BoardWidth> Position<B> {
    // ----- accessors -------------------------------------------------------------

    /// Side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }
    /// All pieces of one type, both colours.
    #[inline(always)]
    pub fn pieces_of_type(&self, t: PieceType) -> B {
        self.by_type[t]
    }
    /// All pieces of one colour.
    #[inline(always)]
    pub fn pieces_of_color(&self, c: Color) -> B {
        self.by_color[c]
    }
    /// Pieces of one colour and type.
    #[inline(always)]
    pub fn pieces(&self, c: Color, t: PieceType) -> B {
        self.by_type[t] & self.by_color[c]
    }
    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[Color::White] | self.by_color[Color::Black]
    }
    /// The piece on `sq`, or [`NO_PIECE`].
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.mailbox[sq]
    }
    /// How many pieces of type `t` colour `c` holds in hand (or pool).
    #[inline(always)]
    pub fn in_hand(&self, c: Color, t: PieceType) -> u8 {
        self.hand[c][t]
    }
    /// True when colour `c` holds anything in hand.
    #[inline(always)]
    pub fn hand_is_empty(&self, c: Color) -> bool {
        self.hand[c].iter().all(|&n| n == 0)
    }
    /// The king square of `c`, or [`NO_SQUARE`] while the king is in hand.
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.king_sq[c]
    }
    /// Current per-ply state.
    #[inline(always)]
    pub fn state(&self) -> &State<B> {
        &self.st
    }
    /// States of earlier plies, oldest first (the last is the previous ply's).
    pub fn history(&self) -> &[State<B>] {
        &self.history
    }
    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.key
    }
    /// Enemy pieces checking the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> B {
        self.st.checkers
    }
    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.any()
    }
    /// True when `m` (a move of this position) captures or promotes: the moves the
    /// quiescence search looks at. Drops, gating without a capture and castling are
    /// quiet.
    #[inline(always)]
    pub fn is_noisy(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Promotion | MoveKind::EnPassant => true,
            MoveKind::Drop | MoveKind::Castle => false,
            _ => self.piece_on(m.to()) != NO_PIECE,
        }
    }
    /// Plies played since the position was set up.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    // ----- board changes -----------------------------------------------------------

    /// Puts a piece of colour `c`, type `t` on the empty square `sq` (key included).
    #[inline(always)]
    fn put(&mut self, c: Color, t: PieceType, sq: Square) {
        let b = B::square(sq);
        self.by_type[t] |= b;
        self.by_color[c] |= b;
        self.mailbox[sq] = piece_code(c, t);
        self.st.key ^= ZOBRIST.piece[t * 2 + c.index()][sq];
        self.weigh(piece_code(c, t), sq, 1);
        self.accumulate_board(c, t, sq, true);
        if t == self.rules.king {
            self.king_sq[c] = sq;
        }
    }

    /// Takes colour `c`'s piece of type `t` off `sq` (key included).
    #[inline(always)]
    fn remove(&mut self, c: Color, t: PieceType, sq: Square) {
        let b = B::square(sq);
        self.by_type[t] ^= b;
        self.by_color[c] ^= b;
        self.mailbox[sq] = NO_PIECE;
        self.st.key ^= ZOBRIST.piece[t * 2 + c.index()][sq];
        self.weigh(piece_code(c, t), sq, -1);
        self.accumulate_board(c, t, sq, false);
        if t == self.rules.king {
            self.king_sq[c] = NO_SQUARE;
        }
    }

    /// Sets how many pieces of type `t` colour `c` holds (key included).
    #[inline(always)]
    fn set_hand(&mut self, c: Color, t: PieceType, n: u8) {
        let old = self.hand[c][t];
        self.st.key ^= ZOBRIST.hand_key(c, t, old) ^ ZOBRIST.hand_key(c, t, n);
        self.hand[c][t] = n;
        self.accumulate_hand(c, t, old, n);
    }

    // ----- consistency -------------------------------------------------------------

    /// Recomputes the Zobrist key from scratch (for tests).
    pub fn key_from_scratch(&self) -> u64 {
        let mut k = 0u64;
        for sq in 0..self.rules.geo.squares() {
            let p = self.mailbox[sq];
            if p != NO_PIECE {
                k ^= ZOBRIST.piece[p as usize][sq];
            }
        }
        for c in Color::iter() {
            for t in 0..self.rules.types {
                k ^= ZOBRIST.hand_key(c, t, self.hand[c][t]);
            }
        }
        if self.side == Color::Black {
            k ^= ZOBRIST.side;
        }
        k ^= ZOBRIST.rights[self.st.rights as usize];
        if self.st.ep_in_key {
            k ^= ZOBRIST.ep[self.st.ep];
        }
        k
    }
}
