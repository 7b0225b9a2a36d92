//! Input columns and accumulators: a column of small integers per input (a piece of some
//! colour and type on some square, or the k-th piece of a type in hand), seen from each
//! side's point of view, whose sum over the active inputs the position keeps track of as
//! pieces are put, removed and taken into or out of hand (noting the changes at each make,
//! summing them when asked: [`Position::update_accumulators`]). A net may have one set of
//! columns per king bucket ([`KingBuckets`]): each view sums the set of the bucket its own
//! king stands in, and a view whose king changes bucket is summed afresh (starting from
//! its last fresh sums in that bucket, `BucketSums`). This is the first layer of an
//! efficiently updatable network (see `docs/nnue.md` for the input numbering); the
//! position knows nothing of the layers after it.

use std::sync::Arc;

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::geometry::Square;
use crate::rules::position::{Color, Position};
use crate::rules::variant::VariantDef;
use crate::simd;
use crate::simd::{add_column, add_column_plain, sub_column, sub_column_plain};

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
        (side * self.types + t) * self.squares + self.seen_square(view, sq)
    }

    /// The square `sq` as `view` sees it: itself for White, its rank mirrored for Black.
    #[inline(always)]
    pub fn seen_square(&self, view: Color, sq: Square) -> usize {
        match view {
            Color::White => sq,
            Color::Black => {
                let ranks = self.squares / self.files;
                let (file, rank) = (sq % self.files, sq / self.files);
                (ranks - 1 - rank) * self.files + file
            }
        }
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

/// Which set of input columns a view uses: the bucket of the square its own royal piece
/// stands on, as that view sees the board (`docs/nnue.md`, "King buckets").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    /// The royal piece type whose square picks the bucket.
    pub royal: PieceType,
    /// Number of buckets (sets of columns), at least 1.
    pub count: usize,
    /// The bucket of each square, in the viewer's frame (as [`InputShape::seen_square`]).
    pub map: Vec<u8>,
}

impl KingBuckets {
    /// A single bucket: both views use the one set of columns wherever the kings stand.
    pub fn single(royal: PieceType, squares: usize) -> KingBuckets {
        KingBuckets {
            royal,
            count: 1,
            map: vec![0; squares],
        }
    }

    /// `view`'s bucket in `pos`: that of its royal piece's square (the lowest as `view`
    /// sees the board, if it has several), or 0 when it has none on the board.
    #[inline]
    pub fn bucket_of<B: BoardWidth>(
        &self,
        shape: &InputShape,
        pos: &Position<B>,
        view: Color,
    ) -> usize {
        if self.count == 1 {
            return 0;
        }
        let mut kings = pos.pieces(view, self.royal);
        let mut lowest = usize::MAX;
        while kings.any() {
            let sq = kings.lsb();
            kings ^= B::square(sq);
            lowest = lowest.min(shape.seen_square(view, sq));
        }
        self.map.get(lowest).map_or(0, |&b| usize::from(b))
    }
}

/// The first layer: a column of `width` numbers per input and king bucket, and a bias.
#[derive(Clone, Debug)]
pub struct InputColumns {
    shape: InputShape,
    kings: KingBuckets,
    width: usize,
    /// Input `i`'s column of bucket `k` at `(k * inputs + i) * width`; shared with
    /// the net file it came from.
    columns: Arc<[i16]>,
    bias: Vec<i16>,
}

impl InputColumns {
    /// Columns for `shape` and the buckets `kings` from `columns` (bucket-major, then
    /// input-major) and `bias`; `None` when the lengths do not fit the shape, the bucket
    /// count and `bias.len()`, or the bucket map does not fit the board.
    pub fn new(
        shape: InputShape,
        kings: KingBuckets,
        columns: Arc<[i16]>,
        bias: Vec<i16>,
    ) -> Option<InputColumns> {
        let width = bias.len();
        let map_fits = kings.count >= 1
            && kings.royal < shape.types
            && kings.map.len() == shape.squares
            && kings.map.iter().all(|&b| usize::from(b) < kings.count);
        let size_fits = columns.len() == kings.count * shape.inputs() * width;
        (width > 0 && map_fits && size_fits).then_some(InputColumns {
            shape,
            kings,
            width,
            columns,
            bias,
        })
    }

    /// The king buckets.
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.kings
    }

    /// `view`'s king bucket in `pos`.
    #[inline]
    pub fn bucket_of<B: BoardWidth>(&self, pos: &Position<B>, view: Color) -> usize {
        self.kings.bucket_of(&self.shape, pos, view)
    }

    /// The column of input `i` in king bucket `k`.
    #[inline(always)]
    pub fn bucket_column(&self, k: usize, i: usize) -> &[i16] {
        self.column(k * self.shape.inputs() + i)
    }

    /// The shape the columns are for.
    pub fn shape(&self) -> InputShape {
        self.shape
    }

    /// Numbers per column (the accumulator's length).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Column `i` of the whole layer (input `i` of bucket 0; bucket `k` starts at
    /// `k` times the inputs of the shape).
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
        [
            self.refresh_view(pos, Color::White),
            self.refresh_view(pos, Color::Black),
        ]
    }

    /// `view`'s accumulator of `pos` computed from nothing, in its king bucket.
    pub fn refresh_view<B: BoardWidth>(&self, pos: &Position<B>, view: Color) -> Vec<i16> {
        let mut acc = self.bias.clone();
        self.refresh_view_into(pos, view, &mut acc);
        acc
    }

    /// [`Self::refresh_view`] written into `acc` (of the hidden width).
    pub fn refresh_view_into<B: BoardWidth>(
        &self,
        pos: &Position<B>,
        view: Color,
        acc: &mut [i16],
    ) {
        acc.copy_from_slice(&self.bias);
        let k = self.bucket_of(pos, view);
        for i in active_inputs(&self.shape, pos, view) {
            add_column(acc, self.bucket_column(k, i));
        }
    }
}

/// The inputs active in `pos` from `view`'s point of view, in no particular order.
pub fn active_inputs<B: BoardWidth>(
    shape: &InputShape,
    pos: &Position<B>,
    view: Color,
) -> Vec<usize> {
    let mut inputs = Vec::with_capacity(40);
    for_each_active_input(shape, pos, view, |i| inputs.push(i));
    inputs
}

/// Calls `visit` with each input active in `pos` from `view`'s point of view: the
/// pieces on the board, then the pieces in hand.
#[inline]
fn for_each_active_input<B: BoardWidth>(
    shape: &InputShape,
    pos: &Position<B>,
    view: Color,
    mut visit: impl FnMut(usize),
) {
    let mut occupied = pos.occupied();
    while occupied.any() {
        let sq = occupied.lsb();
        occupied ^= B::square(sq);
        let p = pos.piece_on(sq);
        let (owner, t) = (super::piece_color(p), super::piece_type(p));
        visit(shape.board_input(view, owner, t, sq));
    }
    for owner in Color::iter() {
        for t in 0..shape.types {
            for k in 1..=usize::from(pos.in_hand(owner, t)).min(HAND_INPUTS) {
                visit(shape.hand_input(view, owner, t, k));
            }
        }
    }
}

/// One input change a make brought to a ply: the column of an input (numbered from
/// each point of view) added or taken away.
#[derive(Clone, Copy, Debug)]
struct Change {
    inputs: [u32; 2],
    add: bool,
}

/// The accumulators of one ply and the changes that lead to them from the ply below.
#[derive(Clone, Debug)]
struct PlyAccumulators {
    /// White's view, Black's; each up to date only when `computed` says so.
    values: [Vec<i16>; 2],
    /// What the ply's make changed (empty for the ply the columns were installed on).
    changes: Vec<Change>,
    computed: [bool; 2],
    /// Each view's king bucket at this ply.
    buckets: [u8; 2],
}

/// A view's sums in one king bucket as it last summed them from the board, and the
/// inputs they count (one bit per input). When the view's king enters the bucket
/// again, the fresh sum starts from these and adds or takes away only the inputs that
/// differ: a few columns instead of one per piece. (The integers are the same as a sum
/// from the bias: wrapping addition does not depend on the order.)
#[derive(Clone, Debug)]
struct BucketSums {
    values: Vec<i16>,
    active: Vec<u64>,
}

/// A set of inputs of `columns`' shape as bits, none of them in it.
fn no_inputs(columns: &InputColumns) -> Vec<u64> {
    vec![0; columns.shape.inputs().div_ceil(64)]
}

impl BucketSums {
    /// Each view's sums of each king bucket of `columns`, counting no input yet (the
    /// bias alone).
    fn empty_for(columns: &InputColumns) -> [Vec<BucketSums>; 2] {
        let empty = BucketSums {
            values: columns.bias.clone(),
            active: no_inputs(columns),
        };
        [(); 2].map(|_| vec![empty.clone(); columns.kings.count])
    }
}

/// Installed columns and the position's two accumulators (White's view, Black's), one
/// pair per ply made since they were installed. A make only notes which inputs it
/// changed; the sums of a ply are worked out when an evaluation asks for them
/// ([`Position::update_accumulators`]), from the nearest ply below that has them, each
/// ply in one pass (previous sums plus and minus the changed columns). An unmake just
/// steps down a ply, so moves that are never evaluated cost no sums at all.
#[derive(Debug)]
pub(super) struct Accumulators {
    columns: Arc<InputColumns>,
    /// The plies made since installing; `plies[top]` is the position's. Plies above
    /// `top` are kept for reuse.
    plies: Vec<PlyAccumulators>,
    top: usize,
    /// An unmake is under way that has dropped its ply: board changes are ignored.
    undoing: bool,
    /// Each view's last fresh sums per king bucket, where fresh sums start.
    bucket_sums: [Vec<BucketSums>; 2],
    /// The inputs active now, as bits (scratch space of fresh sums).
    active_now: Vec<u64>,
}

impl Accumulators {
    /// Sums `view`'s accumulator of ply `top` afresh for the board of `pos`: from the
    /// view's last fresh sums in the same king bucket, adding the columns of the inputs
    /// that became active since and taking away those that no longer are.
    fn sum_afresh<B: BoardWidth>(&mut self, pos: &Position<B>, view: Color) {
        let Accumulators {
            columns,
            plies,
            top,
            bucket_sums,
            active_now,
            ..
        } = self;
        let ply = &mut plies[*top];
        let k = usize::from(ply.buckets[view]);
        active_now.fill(0);
        for_each_active_input(&columns.shape, pos, view, |i| {
            active_now[i / 64] |= 1 << (i % 64);
        });
        let cached = &mut bucket_sums[view][k];
        for (word, (&now, before)) in active_now.iter().zip(cached.active.iter_mut()).enumerate() {
            let column = |bit: u32| columns.bucket_column(k, word * 64 + bit as usize);
            let (mut added, mut removed) = (now & !*before, *before & !now);
            while added != 0 {
                add_column(&mut cached.values, column(added.trailing_zeros()));
                added &= added - 1;
            }
            while removed != 0 {
                sub_column(&mut cached.values, column(removed.trailing_zeros()));
                removed &= removed - 1;
            }
            *before = now;
        }
        ply.values[view].copy_from_slice(&cached.values);
        ply.computed[view] = true;
    }

    /// How `view`'s sums of ply `top` can be had: `Some(base)` when they follow from ply
    /// `base`'s (the highest ply at or below `top` that has them) by the changes above it,
    /// `None` when no ply has them or the view's king changed bucket on the way: then only
    /// a fresh sum from the board will do.
    fn incremental_base(&self, view: Color) -> Option<usize> {
        let mut j = self.top;
        loop {
            let ply = &self.plies[j];
            if ply.computed[view] {
                return Some(j);
            }
            if j == 0 || ply.buckets[view] != self.plies[j - 1].buckets[view] {
                return None;
            }
            j -= 1;
        }
    }

    /// The sums of ply `top` worked out without changing anything (for a clone); `None`
    /// for a view that needs a fresh sum from the board.
    fn current_values(&self) -> [Option<Vec<i16>>; 2] {
        [Color::White, Color::Black].map(|view| {
            let base = self.incremental_base(view)?;
            let k = usize::from(self.plies[self.top].buckets[view]);
            let mut values = self.plies[base].values[view].clone();
            for ply in &self.plies[base + 1..=self.top] {
                for &c in &ply.changes {
                    apply_in_place(&self.columns, &mut values, view, k, c);
                }
            }
            Some(values)
        })
    }

    /// Works out `view`'s sums of every ply above `base` up to `top`, each from the one
    /// below and its changes.
    #[inline]
    fn sum_up(&mut self, view: Color, base: usize) {
        for j in base + 1..=self.top {
            let (below, rest) = self.plies.split_at_mut(j);
            let (prev, ply) = (&below[j - 1], &mut rest[0]);
            let k = usize::from(ply.buckets[view]);
            apply_changes(
                &self.columns,
                &ply.changes,
                view,
                k,
                &prev.values[view],
                &mut ply.values[view],
            );
            ply.computed[view] = true;
        }
    }

    /// Notes a change of the current ply; with no ply made since installing (a move
    /// made before being taken back), the sums change at once (and are summed afresh
    /// after the unmake if a king changed bucket).
    #[inline(always)]
    fn note(&mut self, inputs: [u32; 2], add: bool) {
        let change = Change { inputs, add };
        if self.top == 0 {
            let ply = &mut self.plies[0];
            for view in Color::iter() {
                let k = usize::from(ply.buckets[view]);
                apply_in_place(&self.columns, &mut ply.values[view], view, k, change);
            }
        } else {
            self.plies[self.top].changes.push(change);
        }
    }
}

/// Adds or takes away `change`'s column in `view`'s sums `values`, in king bucket `k`.
#[inline(always)]
fn apply_in_place(
    columns: &InputColumns,
    values: &mut [i16],
    view: Color,
    k: usize,
    change: Change,
) {
    let col = columns.bucket_column(k, change.inputs[view] as usize);
    if change.add {
        add_column(values, col);
    } else {
        sub_column(values, col);
    }
}

impl Clone for Accumulators {
    /// Only the current ply's sums: the clone takes moves made before it back by sums
    /// (a view that needs a fresh sum gets it at its first evaluation).
    fn clone(&self) -> Self {
        let top = &self.plies[self.top];
        let [white, black] = self.current_values();
        let computed = [white.is_some(), black.is_some()];
        let values = [
            white.unwrap_or_else(|| top.values[Color::White].clone()),
            black.unwrap_or_else(|| top.values[Color::Black].clone()),
        ];
        Accumulators {
            columns: self.columns.clone(),
            plies: vec![PlyAccumulators {
                values,
                changes: Vec::new(),
                computed,
                buckets: top.buckets,
            }],
            top: 0,
            undoing: self.undoing,
            bucket_sums: BucketSums::empty_for(&self.columns),
            active_now: no_inputs(&self.columns),
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
                let root = PlyAccumulators {
                    values: c.refresh(self),
                    changes: Vec::new(),
                    computed: [true; 2],
                    buckets: self.king_buckets(&c),
                };
                Box::new(Accumulators {
                    bucket_sums: BucketSums::empty_for(&c),
                    active_now: no_inputs(&c),
                    columns: c,
                    plies: vec![root],
                    top: 0,
                    undoing: false,
                })
            })
        });
    }

    /// The installed columns and the accumulators (White's view, Black's), or `None`
    /// when no columns are installed or the sums of the current ply have not been worked
    /// out yet ([`Self::update_accumulators`]).
    #[inline(always)]
    pub fn accumulators(&self) -> Option<(&Arc<InputColumns>, &[Vec<i16>; 2])> {
        self.accumulators.as_ref().and_then(|a| {
            let ply = &a.plies[a.top];
            (ply.computed == [true; 2]).then_some((&a.columns, &ply.values))
        })
    }

    /// Works out the current ply's accumulators, if columns are installed: for each
    /// view, each ply above the nearest one that has its sums gets them in one pass, or,
    /// when the view's king changed bucket on the way, the current ply's are summed
    /// afresh from the board (starting from the view's last fresh sums in that bucket).
    #[inline]
    pub fn update_accumulators(&mut self) {
        // Taken out for the while, so that a fresh sum can read the board.
        let Some(mut a) = self.accumulators.take() else {
            return;
        };
        for view in Color::iter() {
            let top = a.top;
            if a.plies[top].computed[view] {
                continue;
            }
            match a.incremental_base(view) {
                Some(base) => a.sum_up(view, base),
                None => a.sum_afresh(self, view),
            }
        }
        self.accumulators = Some(a);
    }

    /// Each view's king bucket for `columns` on the current board.
    fn king_buckets(&self, columns: &InputColumns) -> [u8; 2] {
        [Color::White, Color::Black].map(|view| columns.bucket_of(self, view) as u8)
    }

    /// At the start of a make: a new ply whose changes the make notes.
    #[inline(always)]
    pub(super) fn push_accumulators(&mut self) {
        if let Some(a) = &mut self.accumulators {
            let next = a.top + 1;
            let buckets = a.plies[a.top].buckets;
            if a.plies.len() == next {
                let fresh = a.plies[0].values.clone();
                a.plies.push(PlyAccumulators {
                    values: fresh,
                    changes: Vec::with_capacity(8),
                    computed: [false; 2],
                    buckets,
                });
            } else {
                let ply = &mut a.plies[next];
                ply.changes.clear();
                ply.computed = [false; 2];
                ply.buckets = buckets;
            }
            a.top = next;
        }
    }

    /// At the end of a make: the new ply's king buckets, when the net has several.
    #[inline(always)]
    pub(super) fn settle_king_buckets(&mut self) {
        let Some(a) = &self.accumulators else {
            return;
        };
        if a.columns.king_buckets().count == 1 {
            return;
        }
        let buckets = self.king_buckets(&a.columns);
        if let Some(a) = &mut self.accumulators {
            let top = a.top;
            a.plies[top].buckets = buckets;
        }
    }

    /// At the start of an unmake: drops the ply when the make pushed it, and then
    /// ignores the unmake's board changes until [`Self::end_unmake_accumulators`]. (A
    /// move made before the accumulators were installed is taken back by subtracting
    /// and adding columns, as it is played.)
    #[inline(always)]
    pub(super) fn begin_unmake_accumulators(&mut self) {
        if let Some(a) = &mut self.accumulators {
            if a.top > 0 {
                a.top -= 1;
                a.undoing = true;
            }
        }
    }

    /// At the end of an unmake: board changes update the accumulators again. (An unmake
    /// that changed the sums in place, of a move made before installing, sums a view
    /// afresh when its king changed bucket.)
    #[inline(always)]
    pub(super) fn end_unmake_accumulators(&mut self) {
        let Some(a) = &mut self.accumulators else {
            return;
        };
        let in_place = !a.undoing && a.top == 0;
        a.undoing = false;
        if !in_place || a.columns.king_buckets().count == 1 {
            return;
        }
        let columns = Arc::clone(&a.columns);
        let before = a.plies[0].buckets;
        let buckets = self.king_buckets(&columns);
        // Only a view whose king changed bucket is summed afresh.
        let fresh = [Color::White, Color::Black]
            .map(|view| (before[view] != buckets[view]).then(|| columns.refresh_view(self, view)));
        if let Some(a) = &mut self.accumulators {
            let root = &mut a.plies[0];
            for (view, values) in Color::iter().zip(fresh) {
                if let Some(values) = values {
                    root.values[view] = values;
                }
            }
            root.buckets = buckets;
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
            let shape = a.columns.shape;
            let input = |view| shape.board_input(view, owner, t, sq) as u32;
            a.note([input(Color::White), input(Color::Black)], add);
        }
    }

    /// Follows a hand of `owner`'s type `t` going from `old` to `new` pieces.
    #[inline(always)]
    pub(super) fn accumulate_hand(&mut self, owner: Color, t: PieceType, old: u8, new: u8) {
        if let Some(a) = &mut self.accumulators {
            if a.undoing {
                return;
            }
            let shape = a.columns.shape;
            let (old, new) = (usize::from(old), usize::from(new));
            for k in (old.min(new) + 1)..=old.max(new).min(HAND_INPUTS) {
                let input = |view| shape.hand_input(view, owner, t, k) as u32;
                a.note([input(Color::White), input(Color::Black)], new > old);
            }
        }
    }
}

/// `to = from` plus the added and minus the removed columns of `changes` from `view`'s
/// point of view, in king bucket `k` (wrapping, like [`add_column`]; with AVX2 where the
/// CPU has it: the same integers).
#[inline(always)]
fn apply_changes(
    columns: &InputColumns,
    changes: &[Change],
    view: Color,
    k: usize,
    from: &[i16],
    to: &mut [i16],
) {
    simd::with_avx2(|| apply_changes_plain(columns, changes, view, k, from, to))
}

/// [`apply_changes`] without vector instructions beyond the build's baseline. The usual
/// moves (one column in and one or two out) go in one fused pass; any other mix is a
/// copy followed by a pass per column.
#[inline(always)]
fn apply_changes_plain(
    columns: &InputColumns,
    changes: &[Change],
    view: Color,
    k: usize,
    from: &[i16],
    to: &mut [i16],
) {
    let col = |c: &Change| columns.bucket_column(k, c.inputs[view] as usize);
    let added = changes.iter().filter(|c| c.add).count();
    if added == 1 && (2..=3).contains(&changes.len()) {
        let mut add: &[i16] = &[];
        let mut subs: [&[i16]; 2] = [&[], &[]];
        let mut n = 0;
        for c in changes {
            if c.add {
                add = col(c);
            } else {
                subs[n] = col(c);
                n += 1;
            }
        }
        if n == 1 {
            let pairs = from.iter().zip(add).zip(subs[0]);
            for (t, ((&f, &a), &s1)) in to.iter_mut().zip(pairs) {
                *t = f.wrapping_add(a).wrapping_sub(s1);
            }
        } else {
            let pairs = from.iter().zip(add).zip(subs[0]).zip(subs[1]);
            for (t, (((&f, &a), &s1), &s2)) in to.iter_mut().zip(pairs) {
                *t = f.wrapping_add(a).wrapping_sub(s1).wrapping_sub(s2);
            }
        }
        return;
    }
    to.copy_from_slice(from);
    for c in changes {
        if c.add {
            add_column_plain(to, col(c));
        } else {
            sub_column_plain(to, col(c));
        }
    }
}
