//! Zobrist hashing keys: pieces on squares, side to move, rights, en passant, and
//! hand/pool counts (so that positions differing only in holdings hash differently).

use once_cell::sync::Lazy;

use crate::rules::color::Color;
use crate::rules::compile::MAX_TYPES;
use crate::rules::geometry::MAX_SQUARES;

/// The most pieces of one type a hand key covers; larger counts share the last key.
pub const MAX_HAND: usize = 32;

/// All Zobrist keys.
pub struct Zobrist {
    /// Per piece code (`type * 2 + colour`) and square.
    pub piece: Vec<[u64; MAX_SQUARES]>,
    /// XORed in when Black is to move.
    pub side: u64,
    /// Per rights byte.
    pub rights: [u64; 256],
    /// Per en-passant square.
    pub ep: [u64; MAX_SQUARES],
    /// Per colour, type and count in hand (count 0 has key 0).
    pub hand: Vec<[[u64; MAX_HAND]; MAX_TYPES]>,
}

impl Zobrist {
    /// The key of `count` pieces of type `t` in `color`'s hand.
    #[inline(always)]
    pub fn hand_key(&self, color: Color, t: usize, count: u8) -> u64 {
        self.hand[color.index()][t][(count as usize).min(MAX_HAND - 1)]
    }
}

/// SplitMix64: a small, well-mixed deterministic generator.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The keys, generated once from a fixed seed (the same in every run).
pub static ZOBRIST: Lazy<Zobrist> = Lazy::new(|| {
    let mut s = 0x5A4B_0C0F_FEE0_2026u64;
    let piece = (0..MAX_TYPES * 2)
        .map(|_| {
            let mut a = [0u64; MAX_SQUARES];
            a.iter_mut().for_each(|k| *k = next(&mut s));
            a
        })
        .collect();
    let side = next(&mut s);
    let mut rights = [0u64; 256];
    rights.iter_mut().skip(1).for_each(|k| *k = next(&mut s));
    let mut ep = [0u64; MAX_SQUARES];
    ep.iter_mut().for_each(|k| *k = next(&mut s));
    let hand = (0..2)
        .map(|_| {
            let mut h = [[0u64; MAX_HAND]; MAX_TYPES];
            for t in h.iter_mut() {
                t.iter_mut().skip(1).for_each(|k| *k = next(&mut s));
            }
            h
        })
        .collect();
    Zobrist {
        piece,
        side,
        rights,
        ep,
        hand,
    }
});
