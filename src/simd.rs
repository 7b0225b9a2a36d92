//! The vector kernels of the network: the accumulator's column updates and the output
//! layer's dot products. Each kernel has a plain version written for the build's
//! baseline and, on x86-64, the same code compiled with AVX2, chosen at run time where
//! the CPU has it; every path gives the same integers (wrapping arithmetic). This
//! module is below the rules core and the engine and uses neither.

/// Runs `kernel` compiled with AVX2 where the CPU has it, else as the build's baseline
/// gives it: for kernels written against their callers' own types.
#[inline(always)]
pub fn with_avx2<R>(kernel: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            return unsafe { run_avx2(kernel) };
        }
    }
    kernel()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<R>(kernel: impl FnOnce() -> R) -> R {
    kernel()
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

/// `Σ clamp(a[j], 0, CEILING) · w[j]` (wrapping: an absurd net gives a wrong number,
/// never a panic), with the widest vector instructions the CPU has (the result is the
/// same on every path: integer arithmetic).
#[inline]
pub fn dot_clipped<const CEILING: i16>(a: &[i16], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            return unsafe { dot_clipped_avx2::<CEILING>(a, w) };
        }
    }
    dot_clipped_plain::<CEILING>(a, w)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_clipped_avx2<const CEILING: i16>(a: &[i16], w: &[i16]) -> i32 {
    dot_clipped_plain::<CEILING>(a, w)
}

/// [`dot_clipped`] without vector instructions beyond the build's baseline.
#[inline(always)]
pub fn dot_clipped_plain<const CEILING: i16>(a: &[i16], w: &[i16]) -> i32 {
    a.iter()
        .zip(w)
        .map(|(&x, &w)| i32::from(x.clamp(0, CEILING)) * i32::from(w))
        .fold(0i32, |s, v| s.wrapping_add(v))
}

/// `Σ p[j] · v[j]` with `v[j] = clamp(a[j], 0, CEILING)` and `p[j] = v[j] · w[j]` in 16
/// bits, the squared clipped ReLU's output sum: exact when every `|w[j]| ≤ 128` and the
/// sum fits 32 bits (`docs/nnue.md` gives the bound); beyond that it wraps, a wrong
/// number but never a panic. The widest vector instructions the CPU has give the same
/// integers.
#[inline]
pub fn dot_squared<const CEILING: i16>(a: &[i16], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            return unsafe { dot_squared_avx2::<CEILING>(a, w) };
        }
    }
    dot_squared_plain::<CEILING>(a, w)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_squared_avx2<const CEILING: i16>(a: &[i16], w: &[i16]) -> i32 {
    dot_squared_plain::<CEILING>(a, w)
}

/// [`dot_squared`] without vector instructions beyond the build's baseline.
#[inline(always)]
pub fn dot_squared_plain<const CEILING: i16>(a: &[i16], w: &[i16]) -> i32 {
    a.iter()
        .zip(w)
        .map(|(&x, &w)| {
            let v = x.clamp(0, CEILING);
            i32::from(v.wrapping_mul(w)) * i32::from(v)
        })
        .fold(0i32, |s, v| s.wrapping_add(v))
}
