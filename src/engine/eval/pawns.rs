//! The pawn-structure cache: a search thread keeps the pawn-only terms of the pawn
//! formations it has met, keyed by the pawns themselves, since most positions of a
//! search share their pawns with many others.

use std::hash::{Hash, Hasher};

use crate::engine::eval::tables::Pair;
use crate::engine::eval::Sums;
use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::position::{Color, Position};

/// Entries per cache (a power of two).
const ENTRIES: usize = 8192;

/// The pawn-only part of an evaluation for one formation.
#[derive(Clone, Copy)]
pub struct PawnEntry<B> {
    /// White's and Black's pawns: the key, compared in full.
    pawns: [B; 2],
    /// The pawn-structure score, White minus Black.
    pub score: Pair,
    /// The passed pawns per colour.
    pub passed: [B; 2],
}

/// One search thread's pawn-structure cache.
pub struct PawnCache<B> {
    entries: Vec<PawnEntry<B>>,
}

impl<B: BoardWidth> Default for PawnCache<B> {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl<B: BoardWidth> PawnCache<B> {
    /// An empty cache. (Every slot starts as the formation without pawns, whose terms
    /// are all zero, so no slot needs an "empty" mark.)
    pub fn new() -> PawnCache<B> {
        let none = PawnEntry {
            pawns: [B::EMPTY; 2],
            score: Pair::default(),
            passed: [B::EMPTY; 2],
        };
        PawnCache {
            entries: vec![none; ENTRIES],
        }
    }

    /// The entry of `pos`'s pawns (type `pawn`), computed by `compute` (which adds the
    /// terms to the sums it is given and returns the passed pawns) when missing.
    #[inline(always)]
    pub fn probe(
        &mut self,
        pos: &Position<B>,
        pawn: Option<PieceType>,
        compute: impl FnOnce(&mut Sums) -> [B; 2],
    ) -> PawnEntry<B> {
        let pawns = pawn_boards(pos, pawn);
        let slot = &mut self.entries[(hash_boards(&pawns) as usize) & (ENTRIES - 1)];
        if slot.pawns != pawns {
            let mut s = Sums::default();
            let passed = compute(&mut s);
            *slot = PawnEntry {
                pawns,
                score: Pair::new(
                    s.mg[Color::White] - s.mg[Color::Black],
                    s.eg[Color::White] - s.eg[Color::Black],
                ),
                passed,
            };
        }
        *slot
    }
}

/// White's and Black's pawns (type `pawn`; none when the game has no pawn).
#[inline(always)]
fn pawn_boards<B: BoardWidth>(pos: &Position<B>, pawn: Option<PieceType>) -> [B; 2] {
    match pawn {
        Some(p) => Color::ALL.map(|c| pos.pieces(c, p)),
        None => [B::EMPTY; 2],
    }
}

#[inline(always)]
fn hash_boards<B: BoardWidth>(pawns: &[B; 2]) -> u64 {
    let mut h = MixHasher(0);
    pawns.hash(&mut h);
    h.finish()
}

/// A hash of `pos`'s pawn formation (type `pawn`): equal formations hash equal.
#[inline(always)]
pub fn pawn_hash<B: BoardWidth>(pos: &Position<B>, pawn: Option<PieceType>) -> u64 {
    hash_boards(&pawn_boards(pos, pawn))
}

/// A small multiply-rotate hasher for bitboards (the standard hasher is built to resist
/// attacks, which a cache index does not need, and costs more).
struct MixHasher(u64);

impl MixHasher {
    #[inline(always)]
    fn mix(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.mix(x);
    }
    fn write_u128(&mut self, x: u128) {
        self.mix(x as u64);
        self.mix((x >> 64) as u64);
    }
}
