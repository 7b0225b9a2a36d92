//! A large zero-filled array for tables read at random places (the transposition table,
//! the continuation history).
//!
//! Read at random, a table of many megabytes on ordinary 4 KiB pages misses the processor's
//! address-translation cache on almost every probe. This array starts on a 2 MiB boundary
//! and, on Linux, asks the kernel for transparent huge pages before its memory is first
//! touched, so that one translation covers 2 MiB. Where the kernel declines (huge pages
//! switched off, or another system) the array works the same on ordinary pages.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of a huge page on x86-64 and most 64-bit Linux systems.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Types for which a value whose bytes are all zero is a valid value.
///
/// # Safety
/// Implement only for types whose every field is valid when all its bytes are zero
/// (integers, atomics of integers, arrays and structs of those).
pub unsafe trait ZeroIsValid {}

// SAFETY: a zero integer is zero.
unsafe impl ZeroIsValid for i16 {}

/// A fixed-length array of `T`, zero-filled at creation, on huge pages where possible.
pub struct HugeArray<T: ZeroIsValid> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the array owns its elements as a `Vec<T>` would; sharing or sending it shares or
// sends `T`s.
unsafe impl<T: ZeroIsValid + Send> Send for HugeArray<T> {}
// SAFETY: as above; `&HugeArray<T>` gives only `&T`.
unsafe impl<T: ZeroIsValid + Sync> Sync for HugeArray<T> {}

impl<T: ZeroIsValid> HugeArray<T> {
    /// An array of `len` zeroed elements (at least one), or `None` when the memory cannot
    /// be had.
    pub fn zeroed(len: usize) -> Option<HugeArray<T>> {
        let len = len.max(1);
        let size = len.checked_mul(std::mem::size_of::<T>())?.max(1);
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let ptr = NonNull::new(raw)?;
        advise_huge_pages(raw, size);
        // SAFETY: `raw` points to `size` bytes we own; zeroing them after the advice makes the
        // first touch of each page happen now, on huge pages where the kernel grants them.
        unsafe { std::ptr::write_bytes(raw, 0, size) };
        Some(HugeArray {
            ptr: ptr.cast(),
            len,
            layout,
        })
    }

    /// [`HugeArray::zeroed`], ending the process as `Vec` does when the memory cannot be
    /// had.
    pub fn zeroed_or_abort(len: usize) -> HugeArray<T> {
        match HugeArray::zeroed(len) {
            Some(a) => a,
            None => alloc::handle_alloc_error(
                Layout::array::<T>(len.max(1)).unwrap_or_else(|_| Layout::new::<T>()),
            ),
        }
    }
}

impl<T: ZeroIsValid> Deref for HugeArray<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised elements (zero is a valid `T`), owned by
        // `self` and aligned for `T` (the layout's alignment is at least `T`'s).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: ZeroIsValid> DerefMut for HugeArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: ZeroIsValid> Drop for HugeArray<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this very layout; `T: ZeroIsValid` types hold
        // nothing that needs dropping (integers and atomics).
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// Asks Linux to back `[start, start + size)` with transparent huge pages (a hint: the
/// array is correct whatever the answer).
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, size: usize) {
    if size < HUGE_PAGE {
        return;
    }
    // SAFETY: the range is memory this process just allocated; `madvise` with
    // `MADV_HUGEPAGE` changes how it is backed, never its contents or its validity.
    let _ = unsafe { libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _size: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    // SAFETY: an all-zero `AtomicU64` is zero.
    unsafe impl ZeroIsValid for AtomicU64 {}

    #[test]
    fn small_and_large_arrays_start_zeroed_and_keep_their_length() {
        for len in [0usize, 1, 7, 300_000, HUGE_PAGE / 8 + 3] {
            let a = HugeArray::<AtomicU64>::zeroed(len).expect("allocation");
            assert_eq!(a.len(), len.max(1));
            assert!(a.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            a[a.len() - 1].store(u64::MAX, Ordering::Relaxed);
            assert_eq!(a[a.len() - 1].load(Ordering::Relaxed), u64::MAX);
        }
    }

    #[test]
    fn large_arrays_start_on_a_huge_page_boundary() {
        let a = HugeArray::<AtomicU64>::zeroed(HUGE_PAGE / 8).expect("allocation");
        assert_eq!(a.as_ptr() as usize % HUGE_PAGE, 0);
    }

    #[test]
    fn an_impossible_size_is_refused_not_a_panic() {
        assert!(HugeArray::<AtomicU64>::zeroed(usize::MAX / 4).is_none());
    }
}
