//! What the search learns about moves while it searches, for move ordering and
//! reductions: which quiet moves cut off (by piece and destination), which captures
//! pay (by piece, destination and victim), which quiet moves answer which earlier
//! moves (continuation history), and the refutation of each move (countermoves).
//!
//! A last table corrects the static evaluation rather than ordering moves: by pawn
//! formation and side to move, how far the searched values of recent nodes lay from
//! their static evaluation, on average (correction history).
//!
//! Every statistic moves by a bounded ("gravity") update: a bonus pulls it towards
//! `±HISTORY_MAX` by less the closer it already is, so no entry saturates and old
//! lessons fade. The tables of each search thread live in a [`HistoryBank`] kept by the
//! caller, so they persist across the moves of a game; a new game clears them.

use std::sync::Mutex;

use super::huge_array::HugeArray;
use crate::rules::compile::MAX_TYPES;
use crate::rules::geometry::MAX_SQUARES;
use crate::rules::moves::Move;
use crate::rules::position::Color;

/// The bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// Number of (coloured piece, destination) slots: the key of a move in the tables.
pub const SLOTS: usize = 2 * MAX_TYPES * MAX_SQUARES;

/// The slot of a (coloured piece code, destination square) pair.
#[inline(always)]
pub fn slot(piece: u8, to: usize) -> usize {
    piece as usize * MAX_SQUARES + to
}

/// Entries of the correction table per side to move (a power of two).
const CORRECTION_ENTRIES: usize = 16_384;

/// Correction entries count in 1/`CORRECTION_GRAIN` centipawns.
const CORRECTION_GRAIN: i32 = 64;

/// The largest correction, in the table's units (128 centipawns).
const CORRECTION_LIMIT: i32 = 128 * CORRECTION_GRAIN;

/// The move-ordering statistics of one search thread, and its evaluation corrections.
pub struct Histories {
    /// Quiet moves by (piece, destination).
    quiet: Vec<i16>,
    /// Captures and promotions by (piece, destination) and captured piece type.
    capture: Vec<i16>,
    /// Quiet moves by the slot of an earlier move in the line and their own slot (5 MB read
    /// at random, on huge pages where the system has them).
    continuation: HugeArray<i16>,
    /// The quiet move that last refuted each (piece, destination) of the move before.
    countermoves: Vec<Move>,
    /// By side to move and pawn-formation hash: the recent mean of (searched value −
    /// static evaluation), in 1/`CORRECTION_GRAIN` centipawns.
    correction: Vec<i16>,
}

/// Moves `entry` by `bonus` towards `±HISTORY_MAX`, less the closer it is.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = *entry as i32;
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

impl Default for Histories {
    fn default() -> Self {
        Self::new()
    }
}

impl Histories {
    /// Empty tables (about 5 MB, most of it the continuation table).
    pub fn new() -> Self {
        Histories {
            quiet: vec![0; SLOTS],
            capture: vec![0; SLOTS * MAX_TYPES],
            continuation: HugeArray::zeroed_or_abort(SLOTS * SLOTS),
            countermoves: vec![Move::NONE; SLOTS],
            correction: vec![0; 2 * CORRECTION_ENTRIES],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.countermoves.fill(Move::NONE);
        self.correction.fill(0);
    }

    #[inline(always)]
    fn correction_index(side: Color, pawn_hash: u64) -> usize {
        side.index() * CORRECTION_ENTRIES + (pawn_hash as usize & (CORRECTION_ENTRIES - 1))
    }

    /// The correction, in centipawns, of the static evaluation of a position with
    /// `side` to move and pawn formation `pawn_hash`.
    #[inline(always)]
    pub fn correction(&self, side: Color, pawn_hash: u64) -> i32 {
        self.correction[Self::correction_index(side, pawn_hash)] as i32 / CORRECTION_GRAIN
    }

    /// A node searched to `depth` with `side` to move and pawn formation `pawn_hash`
    /// found a value `error` centipawns from its static evaluation: the entry moves
    /// towards it, the more the deeper the search.
    pub fn update_correction(&mut self, side: Color, pawn_hash: u64, error: i32, depth: i32) {
        let entry = &mut self.correction[Self::correction_index(side, pawn_hash)];
        let weight = (depth + 1).clamp(1, 16);
        let target = (error.clamp(-1_000, 1_000) * CORRECTION_GRAIN)
            .clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT);
        let moved = (*entry as i32 * (256 - weight) + target * weight) / 256;
        *entry = moved.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16;
    }

    /// The quiet history of the move with slot `s`.
    #[inline(always)]
    pub fn quiet(&self, s: usize) -> i32 {
        self.quiet[s] as i32
    }

    /// The capture history of the move with slot `s` taking a piece of type `victim`.
    #[inline(always)]
    pub fn capture(&self, s: usize, victim: usize) -> i32 {
        self.capture[s * MAX_TYPES + victim] as i32
    }

    /// The continuation history of the move with slot `s` after the earlier move with
    /// slot `prev` (`None`: no such move, 0).
    #[inline(always)]
    pub fn continuation(&self, prev: Option<usize>, s: usize) -> i32 {
        prev.map_or(0, |p| self.continuation[p * SLOTS + s] as i32)
    }

    /// The countermove recorded after the move with slot `prev`.
    #[inline(always)]
    pub fn countermove(&self, prev: usize) -> Move {
        self.countermoves[prev]
    }

    /// Records `m` as the refutation of the move with slot `prev`.
    pub fn set_countermove(&mut self, prev: usize, m: Move) {
        self.countermoves[prev] = m;
    }

    /// Moves the quiet history of slot `s` by `bonus`.
    pub fn update_quiet(&mut self, s: usize, bonus: i32) {
        gravity(&mut self.quiet[s], bonus);
    }

    /// Moves the capture history of slot `s` taking `victim` by `bonus`.
    pub fn update_capture(&mut self, s: usize, victim: usize, bonus: i32) {
        gravity(&mut self.capture[s * MAX_TYPES + victim], bonus);
    }

    /// Moves the continuation history of slot `s` after each earlier move of `prevs`
    /// (those present) by `bonus`.
    pub fn update_continuation(&mut self, prevs: &[Option<usize>], s: usize, bonus: i32) {
        for p in prevs.iter().flatten() {
            gravity(&mut self.continuation[p * SLOTS + s], bonus);
        }
    }
}

/// The histories of a session's search threads, kept between searches: a search takes
/// one set per thread and gives it back when it ends.
#[derive(Default)]
pub struct HistoryBank {
    sets: Mutex<Vec<Histories>>,
}

impl HistoryBank {
    /// An empty bank; sets are made as threads ask for them.
    pub fn new() -> Self {
        Self::default()
    }

    /// A set for one search thread: a kept one, or fresh tables.
    pub fn take(&self) -> Histories {
        let kept = self.sets.lock().ok().and_then(|mut v| v.pop());
        kept.unwrap_or_default()
    }

    /// Gives a set back for the next search.
    pub fn give_back(&self, h: Histories) {
        if let Ok(mut v) = self.sets.lock() {
            v.push(h);
        }
    }

    /// Forgets what every kept set learned (a new game).
    pub fn clear(&self) {
        if let Ok(mut v) = self.sets.lock() {
            for h in v.iter_mut() {
                h.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_every_entry_within_its_bound() {
        let mut h = Histories::new();
        for _ in 0..10_000 {
            h.update_quiet(5, 1_500);
            h.update_capture(5, 3, -1_500);
        }
        assert!(h.quiet(5) <= HISTORY_MAX && h.quiet(5) > HISTORY_MAX * 9 / 10);
        assert!(h.capture(5, 3) >= -HISTORY_MAX && h.capture(5, 3) < -HISTORY_MAX * 9 / 10);
        h.update_quiet(5, -HISTORY_MAX * 4);
        assert!(h.quiet(5).abs() <= HISTORY_MAX);
    }

    #[test]
    fn corrections_follow_the_errors_per_side_and_formation_within_their_limit() {
        let mut h = Histories::new();
        for _ in 0..2_000 {
            h.update_correction(Color::White, 12_345, 40, 10);
        }
        assert!((38..=40).contains(&h.correction(Color::White, 12_345)));
        assert_eq!(h.correction(Color::Black, 12_345), 0);
        assert_eq!(h.correction(Color::White, 12_346), 0);
        for _ in 0..2_000 {
            h.update_correction(Color::Black, 7, -5_000, 20);
        }
        // Held at the limit (the moving average stops a little short of it).
        assert!((-128..=-126).contains(&h.correction(Color::Black, 7)));
        h.clear();
        assert_eq!(h.correction(Color::White, 12_345), 0);
    }

    #[test]
    fn continuation_entries_are_kept_per_earlier_move() {
        let mut h = Histories::new();
        h.update_continuation(&[Some(7), None, Some(9)], 11, 800);
        assert_eq!(h.continuation(Some(7), 11), 800);
        assert_eq!(h.continuation(Some(9), 11), 800);
        assert_eq!(h.continuation(Some(8), 11), 0);
        assert_eq!(h.continuation(None, 11), 0);
    }

    #[test]
    fn the_bank_keeps_sets_until_a_new_game() {
        let bank = HistoryBank::new();
        let mut h = bank.take();
        h.update_quiet(1, 500);
        h.set_countermove(2, Move(77));
        bank.give_back(h);
        let h = bank.take();
        assert_eq!(h.quiet(1), 500);
        assert_eq!(h.countermove(2), Move(77));
        bank.give_back(h);
        bank.clear();
        let h = bank.take();
        assert_eq!(h.quiet(1), 0);
        assert_eq!(h.countermove(2), Move::NONE);
    }
}
