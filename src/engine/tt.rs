//! The transposition table: a fixed number of 16-byte slots sized in megabytes, shared
//! by all search threads without locks. Each slot holds `key ^ data` and `data`; a
//! reader accepts an entry only when the two words XOR back to its own key, so a slot
//! torn by two threads writing at once reads as a miss instead of as wrong data.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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
    /// Depth searched.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A lockless transposition table.
pub struct Tt {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

const MOVE_BITS: u64 = (1 << 21) - 1;

fn pack(mv: Move, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let b = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    (mv.0 as u64 & MOVE_BITS)
        | b << 21
        | ((depth.clamp(0, 255) as u64) << 23)
        | (generation as u64) << 31
        | ((score as i16 as u16 as u64) << 39)
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 21) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: Move((data & MOVE_BITS) as u32),
        score: ((data >> 39) & 0xFFFF) as u16 as i16 as i32,
        depth: ((data >> 23) & 0xFF) as i32,
        bound,
    })
}

impl Tt {
    /// A table of about `mb` megabytes (at least one slot); when that much memory
    /// cannot be had, the largest smaller power-of-two size that can.
    pub fn new(mb: usize) -> Tt {
        let mut mb = mb.clamp(1, 1 << 16);
        loop {
            match Tt::try_new(mb) {
                Ok(t) => return t,
                Err(_) if mb > 1 => mb /= 2,
                Err(_) => {
                    return Tt {
                        slots: vec![Slot {
                            check: AtomicU64::new(0),
                            data: AtomicU64::new(0),
                        }],
                        generation: AtomicU8::new(0),
                    }
                }
            }
        }
    }

    /// A table of about `mb` megabytes, or an error when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Tt, String> {
        let bytes = mb.clamp(1, 1 << 16) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Slot>()).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mb} MB hash table"))?;
        slots.extend((0..n).map(|_| Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }));
        Ok(Tt {
            slots,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1), Ordering::Relaxed);
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &Slot {
        let i = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[i]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        unpack(data)
    }

    /// Stores a result for `key`. A slot holding another position is replaced unless
    /// it is from this search and deeper; for the same position a move is kept when
    /// the new result has none.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound) {
        let s = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let old = s.data.load(Ordering::Relaxed);
        let old_key = s.check.load(Ordering::Relaxed) ^ old;
        let mut mv = mv;
        if old_key == key {
            if let Some(e) = unpack(old) {
                if mv == Move::NONE {
                    mv = e.mv;
                }
                if bound != Bound::Exact && e.depth > depth + 2 && e.bound == Bound::Exact {
                    return;
                }
            }
        } else if let Some(e) = unpack(old) {
            let same_generation = ((old >> 31) & 0xFF) as u8 == generation;
            if same_generation && e.depth > depth + 1 && bound != Bound::Exact {
                return;
            }
        }
        let data = pack(mv, score, depth, bound, generation);
        s.data.store(data, Ordering::Relaxed);
        s.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots filled in the current search.
    pub fn hashfull(&self) -> u32 {
        let g = self.generation.load(Ordering::Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && ((d >> 31) & 0xFF) as u8 == g
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveKind;

    #[test]
    fn stores_and_finds() {
        let tt = Tt::new(1);
        let m = Move::new(80, 3, MoveKind::Promotion, 9);
        tt.store(0xDEAD_BEEF, m, -31_000, 17, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (m, -31_000, 17, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }
}
