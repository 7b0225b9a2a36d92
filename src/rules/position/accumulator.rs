//! Input columns and accumulators: a column of small integers per input (a piece of some
//! colour and type on some square, or the k-th piece of a type in hand), seen from each
//! side's point of view, whose sum over the active inputs the position keeps up to date
//! as pieces are put, removed and taken into or out of hand. This is the first layer of
//! an efficiently updatable network (see `docs/nnue.md` for the input numbering); the
//! position knows nothing of the layers after it.

use std::sync::Arc;

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::geometry::Square;
use crate::rules::position::{Color, Position, NO_PIECE};
use crate::rules::variant::VariantDef;

/// How many pieces of one type in hand have inputs of their own.
pub const HAND_INPUTS: usize = 8;

/// The shape of a game's inputs: piece types and squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputShape {
    /// Piece types of the game.
    pub types: usize,
    /// Squares of the board.
    pub squares: usize,
    /// Files of the board (for mirroring the ranks).
    pub files: usize,
}

impl InputShape {
    /// Inputs per point of view: `2 · types · (squares + HAND_INPUTS)`.
    pub fn inputs(&self) -> usize {
        2 * self.types * (self.squares + HAND_INPUTS)
    }

    /// The input of a piece of `owner` and type `t` on `sq`, seen by `view`.
    #[inline(always)]
    pub fn board_input(&self, view: Color, owner: Color, t: PieceType, sq: Square) -> usize {
        let side = usize::from(owner != view);
        let seen = match view {
            Color::White => sq,
            Color::Black => {
                let ranks = self.squares / self.files;
                let (file, rank) = (sq % self.files, sq / self.files);
                (ranks - 1 - rank) * self.files + file
            }
        };
        (side * self.types + t) * self.squares + seen
    }

    /// The input of the `k`-th (1-based, at most [`HAND_INPUTS`]) piece of `owner` and
    /// type `t` in hand, seen by `view`.
    #[inline(always)]
    pub fn hand_input(&self, view: Color, owner: Color, t: PieceType, k: usize) -> usize {
        let side = usize::from(owner != view);
        2 * self.types * self.squares + (side * self.types + t) * HAND_INPUTS + (k - 1)
    }

    /// The shape of `def`'s game.
    pub fn of_game(def: &VariantDef) -> InputShape {
        InputShape {
            types: def.pieces.len(),
            squares: def.geometry.squares(),
            files: def.geometry.files,
        }
    }
}

/// The first layer: a column of `width` numbers per input, and a bias.
#[derive(Clone, Debug)]
pub struct InputColumns {
    shape: InputShape,
    width: usize,
    /// Input `i`'s column at `i * width`.
    columns: Vec<i16>,
    bias: Vec<i16>,
}

impl InputColumns {
    /// Columns for `shape` from `columns` (input-major) and `bias`; `None` when the
    /// lengths do not fit the shape and `bias.len()`.
    pub fn new(shape: InputShape, columns: Vec<i16>, bias: Vec<i16>) -> Option<InputColumns> {
        let width = bias.len();
        (width > 0 && columns.len() == shape.inputs() * width).then_some(InputColumns {
            shape,
            width,
            columns,
            bias,
        })
    }

    /// The shape the columns are for.
    pub fn shape(&self) -> InputShape {
        self.shape
    }

    /// Numbers per column (the accumulator's length).
    pub fn width(&self) -> usize {
        self.width
    }

    /// The column of input `i`.
    #[inline(always)]
    pub fn column(&self, i: usize) -> &[i16] {
        &self.columns[i * self.width..(i + 1) * self.width]
    }

    /// The bias.
    pub fn bias(&self) -> &[i16] {
        &self.bias
    }

    /// The accumulators of `pos` computed from nothing: White's view, then Black's.
    pub fn refresh<B: BoardWidth>(&self, pos: &Position<B>) -> [Vec<i16>; 2] {
        let mut acc = [self.bias.clone(), self.bias.clone()];
        for view in Color::iter() {
            for i in active_inputs(&self.shape, pos, view) {
                add_column(&mut acc[view], self.column(i));
            }
        }
        acc
    }
}

/// The inputs active in `pos` from `view`'s point of view, in no particular order.
pub fn active_inputs<B: BoardWidth>(
    shape: &InputShape,
    pos: &Position<B>,
    view: Color,
) -> Vec<usize> {
    let mut inputs = Vec::with_capacity(40);
    for sq in 0..shape.squares {
        let p = pos.piece_on(sq);
        if p != NO_PIECE {
            let (owner, t) = (super::piece_color(p), super::piece_type(p));
            inputs.push(shape.board_input(view, owner, t, sq));
        }
    }
    for owner in Color::iter() {
        for t in 0..shape.types {
            for k in 1..=usize::from(pos.in_hand(owner, t)).min(HAND_INPUTS) {
                inputs.push(shape.hand_input(view, owner, t, k));
            }
        }
    }
    inputs
}

/// Installed columns and the position's two accumulators (White's view, Black's), one
/// pair per ply made since they were installed: a make works on a copy of the last pair
/// and an unmake just drops it, instead of taking the move's columns away again.
#[derive(Debug)]
pub(super) struct Accumulators {
    columns: Arc<InputColumns>,
    /// The pairs of the plies made since installing; `values[top]` is the position's.
    /// Pairs above `top` are kept for reuse.
    values: Vec<[Vec<i16>; 2]>,
    top: usize,
    /// An unmake is under way that has dropped its pair: board changes are ignored.
    undoing: bool,
}

impl Clone for Accumulators {
    /// Only the current pair: the clone takes moves made before it back by sums.
    fn clone(&self) -> Self {
        Accumulators {
            columns: self.columns.clone(),
            values: vec![self.values[self.top].clone()],
            top: 0,
            undoing: self.undoing,
        }
    }
}

impl<B: BoardWidth> Position<B> {
    /// Installs `columns` (or removes them) and computes the accumulators from the
    /// board. As with [`Position::set_square_weights`], install them at a search's root:
    /// the sums follow every later make and unmake.
    pub fn set_input_columns(&mut self, columns: Option<Arc<InputColumns>>) {
        self.accumulators = columns.and_then(|c| {
            (c.shape() == InputShape::of_game(self.rules.def)).then(|| {
                let values = vec![c.refresh(self)];
                Box::new(Accumulators {
                    columns: c,
                    values,
                    top: 0,
                    undoing: false,
                })
            })
        });
    }

    /// The installed columns and the accumulators (White's view, Black's), or `None`.
    #[inline(always)]
    pub fn accumulators(&self) -> Option<(&Arc<InputColumns>, &[Vec<i16>; 2])> {
        self.accumulators
            .as_ref()
            .map(|a| (&a.columns, &a.values[a.top]))
    }

    /// At the start of a make: the new ply's accumulators start as a copy of the
    /// current ones (the make's board changes then go to the copy).
    #[inline(always)]
    pub(super) fn push_accumulators(&mut self) {
        if let Some(a) = &mut self.accumulators {
            let next = a.top + 1;
            if a.values.len() == next {
                let copy = a.values[a.top].clone();
                a.values.push(copy);
            } else {
                let (done, rest) = a.values.split_at_mut(next);
                for view in Color::iter() {
                    rest[0][view].copy_from_slice(&done[a.top][view]);
                }
            }
            a.top = next;
        }
    }

    /// At the start of an unmake: drops the ply's accumulators when the make pushed
    /// them, and then ignores the unmake's board changes until
    /// [`Self::end_unmake_accumulators`]. (A move made before the accumulators were
    /// installed is taken back by subtracting and adding columns, as it is played.)
    #[inline(always)]
    pub(super) fn begin_unmake_accumulators(&mut self) {
        if let Some(a) = &mut self.accumulators {
            if a.top > 0 {
                a.top -= 1;
                a.undoing = true;
            }
        }
    }

    /// At the end of an unmake: board changes update the accumulators again.
    #[inline(always)]
    pub(super) fn end_unmake_accumulators(&mut self) {
        if let Some(a) = &mut self.accumulators {
            a.undoing = false;
        }
    }

    /// How many inputs are active in each point of view (the same number in both): the
    /// pieces on the board plus, per colour and type, `min(in hand, HAND_INPUTS)`. The
    /// length of [`active_inputs`], without listing them.
    #[inline]
    pub fn active_input_count(&self) -> usize {
        let hand: usize = self
            .hand
            .iter()
            .flatten()
            .map(|&n| usize::from(n).min(HAND_INPUTS))
            .sum();
        self.occupied().count() as usize + hand
    }

    /// Adds (`add` true) or takes away the inputs of `owner`'s piece of type `t` on `sq`.
    #[inline(always)]
    pub(super) fn accumulate_board(&mut self, owner: Color, t: PieceType, sq: Square, add: bool) {
        if let Some(a) = &mut self.accumulators {
            if a.undoing {
                return;
            }
            let values = &mut a.values[a.top];
            for view in Color::iter() {
                let i = a.columns.shape.board_input(view, owner, t, sq);
                let col = a.columns.column(i);
                if add {
                    add_column(&mut values[view], col);
                } else {
                    sub_column(&mut values[view], col);
                }
            }
        }
    }

    /// Follows a hand of `owner`'s type `t` going from `old` to `new` pieces.
    #[inline(always)]
    pub(super) fn accumulate_hand(&mut self, owner: Color, t: PieceType, old: u8, new: u8) {
        if let Some(a) = &mut self.accumulators {
            if a.undoing {
                return;
            }
            let values = &mut a.values[a.top];
            let (old, new) = (usize::from(old), usize::from(new));
            for view in Color::iter() {
                for k in (old.min(new) + 1)..=old.max(new).min(HAND_INPUTS) {
                    let col = a
                        .columns
                        .column(a.columns.shape.hand_input(view, owner, t, k));
                    if new > old {
                        add_column(&mut values[view], col);
                    } else {
                        sub_column(&mut values[view], col);
                    }
                }
            }
        }
    }
}

/// `acc += col`, element by element (wrapping: a network whose sums leave 16 bits gives
/// wrong numbers, never a panic), with AVX2 where the CPU has it (the same integers).
#[inline(always)]
pub fn add_column(acc: &mut [i16], col: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            return unsafe { add_column_avx2(acc, col) };
        }
    }
    add_column_plain(acc, col)
}

/// `acc -= col`, element by element (wrapping), with AVX2 where the CPU has it.
#[inline(always)]
pub fn sub_column(acc: &mut [i16], col: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            return unsafe { sub_column_avx2(acc, col) };
        }
    }
    sub_column_plain(acc, col)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_column_avx2(acc: &mut [i16], col: &[i16]) {
    add_column_plain(acc, col)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sub_column_avx2(acc: &mut [i16], col: &[i16]) {
    sub_column_plain(acc, col)
}

/// [`add_column`] without vector instructions beyond the build's baseline.
#[inline(always)]
pub fn add_column_plain(acc: &mut [i16], col: &[i16]) {
    for (a, c) in acc.iter_mut().zip(col) {
        *a = a.wrapping_add(*c);
    }
}

/// [`sub_column`] without vector instructions beyond the build's baseline.
#[inline(always)]
pub fn sub_column_plain(acc: &mut [i16], col: &[i16]) {
    for (a, c) in acc.iter_mut().zip(col) {
        *a = a.wrapping_sub(*c);
    }
}
