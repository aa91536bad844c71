//! The dot products of ranking by meaning (`ladder::meaning`): one
//! input vector against each row of a pool's vectors.
//!
//! Each product is summed in eight lanes (a single running sum waits on
//! each addition; eight independent ones vectorize). Where the CPU has
//! AVX2 (x86-64-v3, detected at run time by `pulp`), the eight lanes are
//! one register instead of two SSE ones: the same operations on each
//! lane, in the same order, so the same sums bit for bit on every
//! machine, in about half the instructions. A ranking never depends on
//! the machine it runs on.
//!
//! A crate of its own so that its tests run optimized (the workspace's
//! `profile.dev.package.dot`): unoptimized code is not vectorized at all,
//! and the property below would compare scalar code with scalar code.

#![forbid(unsafe_code)]

/// Each row's [`dot`] with `v`, in order.
pub fn dots<R: AsRef<[f32]>>(rows: &[R], v: &[f32]) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return simd.vectorize(
            #[inline(always)]
            || each(rows, v),
        );
    }
    each(rows, v)
}

/// A plain loop, so that all of it is compiled where it is inlined (an
/// iterator's `fold` would be a function of its own, without AVX2).
#[inline(always)]
fn each<R: AsRef<[f32]>>(rows: &[R], v: &[f32]) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(dot(row.as_ref(), v));
    }
    out
}

/// The dot product of `a` and `b` (as long as the shorter), in eight
/// lanes.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let (ca, ra) = a.as_chunks::<8>();
    let (cb, rb) = b.as_chunks::<8>();
    let mut lanes = [0.0f32; 8];
    for (x, y) in ca.iter().zip(cb) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + ra.iter().zip(rb).map(|(x, y)| x * y).sum::<f32>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The products are the same bits through AVX2 (on a CPU that has
        /// it) as through the plain loop compiled for any x86-64 (SSE2).
        #[test]
        fn the_same_bits_with_or_without_avx2(
            rows in prop::collection::vec(prop::collection::vec(-1.0f32..1.0, 0..300usize), 1..8),
            v in prop::collection::vec(-1.0f32..1.0, 300),
        ) {
            let rows: Vec<Vec<f32>> = rows.into_iter().map(|mut r| { r.resize(v.len(), 0.25); r }).collect();
            let got: Vec<u32> = dots(&rows, &v).iter().map(|x| x.to_bits()).collect();
            let plain: Vec<u32> = each(&rows, &v).iter().map(|x| x.to_bits()).collect();
            prop_assert_eq!(got, plain);
        }

        /// What a product is: the sum of the pairs' products, to within
        /// float rounding.
        #[test]
        fn a_dot_product_sums_the_pairs(a in prop::collection::vec(-1.0f32..1.0, 0..40usize), k in -1.0f32..1.0) {
            let b: Vec<f32> = a.iter().map(|x| x * k).collect();
            let want: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
            prop_assert!((f64::from(dot(&a, &b)) - want).abs() < 1e-4, "{} vs {want}", dot(&a, &b));
        }
    }
}
