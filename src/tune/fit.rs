//! Logistic ("Texel") fitting: the evaluation, a linear function of the parameters
//! (see [`crate::engine::eval::Trace`]), is mapped to an expected result by
//! `1 / (1 + 10^(-K * eval / 400))`; first the scale `K` is fitted, then the
//! parameters, by Adam on the exact gradient of the mean squared error.

use rayon::prelude::*;

use crate::tune::data::{Dataset, Sample};

/// A parameter as the tuner holds it: middlegame and endgame value.
pub type Weights = [f64; 2];

/// `1 / (1 + 10^(-k * x / 400))`.
#[inline(always)]
pub fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

/// The evaluation of sample `s` under parameters `w`, centipawns for White.
#[inline(always)]
pub fn evaluate(ds: &Dataset, s: &Sample, w: &[Weights]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for (i, c) in ds.features(s) {
        mg += c as f64 * w[i][0];
        eg += c as f64 * w[i][1];
    }
    mg * s.mg_weight as f64 + eg * s.eg_weight as f64
}

/// What a sample is fitted to: `lambda` of the game result and the rest of the
/// search score turned into an expected result with scale `k`.
#[inline(always)]
fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    lambda * s.result as f64 + (1.0 - lambda) * sigmoid(k, s.score as f64)
}

/// Mean squared error of the expected results against the targets.
pub fn loss(ds: &Dataset, w: &[Weights], k: f64, lambda: f64) -> f64 {
    let n = ds.samples.len().max(1) as f64;
    let sum: f64 = ds
        .samples
        .par_iter()
        .map(|s| {
            let d = sigmoid(k, evaluate(ds, s, w)) - target(s, k, lambda);
            d * d
        })
        .sum();
    sum / n
}

/// The `K` in 0.01..10 that best maps the evaluation under `w` to the game results
/// (golden-section search; the error is unimodal in `K` in practice).
pub fn fit_k(ds: &Dataset, w: &[Weights]) -> f64 {
    let f = |k: f64| loss(ds, w, k, 1.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.01, 10.0);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// The loss and its gradient with respect to every parameter.
pub fn gradient(ds: &Dataset, w: &[Weights], k: f64, lambda: f64) -> (f64, Vec<Weights>) {
    let n = ds.samples.len().max(1) as f64;
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let (sum, grad) = ds
        .samples
        .par_chunks(8192)
        .map(|chunk| {
            let mut g = vec![[0.0; 2]; w.len()];
            let mut sum = 0.0;
            for s in chunk {
                let p = sigmoid(k, evaluate(ds, s, w));
                let d = p - target(s, k, lambda);
                sum += d * d;
                // d(d^2)/d(eval) = 2 d p (1 - p) K ln10 / 400.
                let de = 2.0 * d * p * (1.0 - p) * scale;
                let (dm, dg) = (de * s.mg_weight as f64, de * s.eg_weight as f64);
                for (i, c) in ds.features(s) {
                    g[i][0] += dm * c as f64;
                    g[i][1] += dg * c as f64;
                }
            }
            (sum, g)
        })
        .reduce(
            || (0.0, vec![[0.0; 2]; w.len()]),
            |(s1, mut g1), (s2, g2)| {
                for (a, b) in g1.iter_mut().zip(&g2) {
                    a[0] += b[0];
                    a[1] += b[1];
                }
                (s1 + s2, g1)
            },
        );
    let grad = grad.into_iter().map(|g| [g[0] / n, g[1] / n]).collect();
    (sum / n, grad)
}

/// Adam's state for every parameter half.
pub struct Adam {
    /// Step size, centipawns.
    pub rate: f64,
    m: Vec<Weights>,
    v: Vec<Weights>,
    t: i32,
}

impl Adam {
    /// A fresh optimiser for `len` parameters with step size `rate`.
    pub fn new(len: usize, rate: f64) -> Adam {
        Adam {
            rate,
            m: vec![[0.0; 2]; len],
            v: vec![[0.0; 2]; len],
            t: 0,
        }
    }

    /// One step along `grad` for the parameters whose `free` flag is set.
    pub fn step(&mut self, w: &mut [Weights], grad: &[Weights], free: &[bool]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..w.len() {
            if !free[i] {
                continue;
            }
            for h in 0..2 {
                let g = grad[i][h];
                self.m[i][h] = B1 * self.m[i][h] + (1.0 - B1) * g;
                self.v[i][h] = B2 * self.v[i][h] + (1.0 - B2) * g * g;
                let m = self.m[i][h] / c1;
                let v = self.v[i][h] / c2;
                w[i][h] -= self.rate * m / (v.sqrt() + 1e-12);
            }
        }
    }
}
