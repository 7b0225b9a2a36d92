//! The transposition table, shared by all search threads without locks.
//!
//! The table is an array of 64-byte buckets (one cache line each) of four entries. An
//! entry is two 64-bit words written one after the other:
//! * `meta`: 16 bits of the key, the move (21 bits), the bound (2), a PV flag, the
//!   search generation (6) and the depth (8);
//! * `values`: the score (16), the static evaluation (16) and 32 more bits of the key.
//!
//! A reader accepts an entry only when both words carry its own key bits, so a slot torn
//! by two threads writing at once reads as a miss unless both halves are of the same
//! position (48 key bits in all). The stored move is only ever compared with generated
//! legal moves, so a rare false match cannot make the engine play an illegal move.
//!
//! Replacement: an entry of the same position is overwritten (keeping its move when the
//! new result has none) unless it is much deeper and the new result is only a bound;
//! otherwise the entry worth least (shallow and old) goes.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::huge_array::{HugeArray, ZeroIsValid};
use crate::rules::moves::Move;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
    /// The exact score.
    Exact,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Best or refuting move (may be [`Move::NONE`]).
    pub mv: Move,
    /// Score, mate scores relative to the node (see the search's `to_tt`/`from_tt`).
    pub score: i32,
    /// The static evaluation of the position (`NO_EVAL` when none was computed).
    pub eval: i32,
    /// Depth searched (0: quiescence).
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// The position was on a principal variation when stored.
    pub pv: bool,
}

/// The static evaluation stored when the node had none (in check).
pub const NO_EVAL: i32 = i16::MIN as i32;

const ENTRIES_PER_BUCKET: usize = 4;
const MOVE_BITS: u64 = (1 << 21) - 1;
const GENERATION_MASK: u8 = 0x3F;

#[derive(Default)]
struct Slot {
    meta: AtomicU64,
    values: AtomicU64,
}

/// Four entries on one cache line.
#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

// SAFETY: a bucket is atomics of integers only; all-zero words are an empty slot.
unsafe impl ZeroIsValid for Bucket {}

/// A lockless transposition table.
pub struct Tt {
    buckets: HugeArray<Bucket>,
    generation: AtomicU8,
}

/// The 16 key bits kept in `meta`.
#[inline(always)]
fn key_low(key: u64) -> u64 {
    key & 0xFFFF
}

/// The 32 key bits kept in `values`.
#[inline(always)]
fn key_high(key: u64) -> u64 {
    key >> 32
}

fn pack_meta(key: u64, e: &Entry, generation: u8) -> u64 {
    let b = match e.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    key_low(key)
        | (e.mv.0 as u64 & MOVE_BITS) << 16
        | b << 37
        | (e.pv as u64) << 39
        | ((generation & GENERATION_MASK) as u64) << 40
        | (e.depth.clamp(0, 255) as u64) << 46
}

fn pack_values(key: u64, score: i32, eval: i32) -> u64 {
    (score.clamp(-32_768, 32_767) as i16 as u16 as u64)
        | (eval.clamp(-32_768, 32_767) as i16 as u16 as u64) << 16
        | key_high(key) << 32
}

fn generation_of(meta: u64) -> u8 {
    ((meta >> 40) as u8) & GENERATION_MASK
}

fn depth_of(meta: u64) -> i32 {
    ((meta >> 46) & 0xFF) as i32
}

fn unpack(meta: u64, values: u64) -> Option<Entry> {
    let bound = match (meta >> 37) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: Move(((meta >> 16) & MOVE_BITS) as u32),
        score: values as u16 as i16 as i32,
        eval: (values >> 16) as u16 as i16 as i32,
        depth: depth_of(meta),
        bound,
        pv: (meta >> 39) & 1 == 1,
    })
}

impl Slot {
    /// The entry of `key` in this slot, if it holds one.
    #[inline(always)]
    fn read(&self, key: u64) -> Option<Entry> {
        let meta = self.meta.load(Ordering::Relaxed);
        if meta & 0xFFFF != key_low(key) {
            return None;
        }
        let values = self.values.load(Ordering::Relaxed);
        if values >> 32 != key_high(key) {
            return None;
        }
        unpack(meta, values)
    }

    fn clear(&self) {
        self.meta.store(0, Ordering::Relaxed);
        self.values.store(0, Ordering::Relaxed);
    }
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket); when that much memory
    /// cannot be had, the largest smaller power-of-two size that can.
    pub fn new(mb: usize) -> Tt {
        let mut mb = mb.clamp(1, 1 << 16);
        loop {
            match Tt::try_new(mb) {
                Ok(t) => return t,
                Err(_) if mb > 1 => mb /= 2,
                Err(_) => {
                    return Tt {
                        buckets: HugeArray::zeroed_or_abort(1),
                        generation: AtomicU8::new(0),
                    }
                }
            }
        }
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Tt, String> {
        let bytes = mb.clamp(1, 1 << 16) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets =
            HugeArray::zeroed(n).ok_or_else(|| format!("cannot allocate a {mb} MB hash table"))?;
        Ok(Tt {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            b.slots.iter().for_each(Slot::clear);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the processor to start loading the bucket of `key` into the cache (a hint,
    /// no effect on results): issued early, a later `probe` of `key` does not wait for
    /// memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch never faults and changes no memory; `p` points into
            // `self.buckets` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).slots.iter().find_map(|s| s.read(key))
    }

    /// Stores a result for `key` (see the module comment for what it replaces).
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let bucket = self.bucket(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let mut e = entry;
        let slot = match bucket.slots.iter().find(|s| s.read(key).is_some()) {
            Some(s) => {
                if let Some(old) = s.read(key) {
                    if e.mv == Move::NONE {
                        e.mv = old.mv;
                    }
                    // A much deeper result of the same position stays, unless the new one
                    // is exact.
                    if e.bound != Bound::Exact && old.depth >= e.depth + 4 {
                        return;
                    }
                }
                s
            }
            None => self.victim(bucket, generation),
        };
        slot.meta
            .store(pack_meta(key, &e, generation), Ordering::Relaxed);
        slot.values
            .store(pack_values(key, e.score, e.eval), Ordering::Relaxed);
    }

    /// The slot of `bucket` worth least: shallow, and from older searches.
    fn victim<'a>(&self, bucket: &'a Bucket, generation: u8) -> &'a Slot {
        let worth = |s: &Slot| {
            let meta = s.meta.load(Ordering::Relaxed);
            if meta == 0 {
                return i32::MIN;
            }
            let age = generation.wrapping_sub(generation_of(meta)) & GENERATION_MASK;
            depth_of(meta) - 8 * age as i32
        };
        let mut best = &bucket.slots[0];
        for s in &bucket.slots[1..] {
            if worth(s) < worth(best) {
                best = s;
            }
        }
        best
    }

    /// Permille of a sample of entries filled in the current search.
    pub fn hashfull(&self) -> u32 {
        let g = self.generation.load(Ordering::Relaxed);
        let n = self.buckets.len().min(250);
        let used = self.buckets[..n]
            .iter()
            .flat_map(|b| b.slots.iter())
            .filter(|s| {
                let m = s.meta.load(Ordering::Relaxed);
                m != 0 && generation_of(m) == g
            })
            .count();
        (used * 1000 / (n * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveKind;

    fn entry(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) -> Entry {
        Entry {
            mv,
            score,
            eval,
            depth,
            bound,
            pv,
        }
    }

    #[test]
    fn stores_and_finds() {
        let tt = Tt::new(1);
        let m = Move::new(80, 3, MoveKind::Promotion, 9);
        tt.store(0xDEAD_BEEF, entry(m, -31_000, -250, 17, Bound::Lower, true));
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (m, -31_000, -250, 17, Bound::Lower, true)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_replaces_the_shallowest() {
        let tt = Tt::new(1);
        let n = tt.buckets.len() as u64;
        // Keys that land in bucket 0 (the index is the key's high part times n).
        let keys: Vec<u64> = (1..=5u64).map(|k| k * 0x1_0001).collect();
        assert!(n > 5);
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(
                k,
                entry(Move::NONE, 1, 2, 10 + i as i32, Bound::Exact, false),
            );
        }
        for &k in &keys[..4] {
            assert!(tt.probe(k).is_some(), "key {k:#x} kept");
        }
        tt.store(keys[4], entry(Move::NONE, 1, 2, 20, Bound::Exact, false));
        assert!(tt.probe(keys[4]).is_some());
        assert!(tt.probe(keys[0]).is_none(), "the shallowest entry went");
        assert!(tt.probe(keys[3]).is_some());
    }
}
