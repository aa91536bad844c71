//! The vector arithmetic of ranking by meaning (`ladder::meaning`): the
//! dot products of one input vector against each row of a pool's
//! vectors ([`dots`]), and the sum a static model's text vector is the
//! mean of ([`add_rows`]).
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

/// `sum[j] += f32::from(row[j]) * scale` for each of `rows` in order: the
/// sum of a text's token rows (int8) times their scales, which a static
/// embedding model's vector is the mean of. Each element is one
/// multiplication then one addition per row, in row order, so the sum is
/// the same bits as adding one row at a time in plain code, with or
/// without AVX2 (where the CPU has it, eight elements at once).
pub fn add_rows(sum: &mut [f32], rows: &[(&[i8], f32)]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return simd.vectorize(
            #[inline(always)]
            || add_each(sum, rows),
        );
    }
    add_each(sum, rows)
}

#[inline(always)]
fn add_each(sum: &mut [f32], rows: &[(&[i8], f32)]) {
    for &(row, scale) in rows {
        for (s, v) in sum.iter_mut().zip(row) {
            *s += f32::from(*v) * scale;
        }
    }
}

/// Each row of `rows` (`dim` floats each) divided by its count (at least
/// 1), then by its length (at least 1e-12): the unit mean of each text's
/// sum of `counts[i]` rows, as `model2vec-rs` makes one. A row's squares
/// are summed one at a time, in order, as there; eight rows' sums run side
/// by side, so that no sum waits on the one before it. The divisions go
/// eight at a time where the CPU has AVX2.
pub fn mean_units(rows: &mut [f32], dim: usize, counts: &[usize]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return simd.vectorize(
            #[inline(always)]
            || mean_units_each(rows, dim, counts),
        );
    }
    mean_units_each(rows, dim, counts)
}

#[inline(always)]
fn mean_units_each(rows: &mut [f32], dim: usize, counts: &[usize]) {
    if dim == 0 {
        return;
    }
    for (row, count) in rows.chunks_mut(dim).zip(counts) {
        let denom = (*count).max(1) as f32;
        for x in row.iter_mut() {
            *x /= denom;
        }
    }
    for (eight, counts) in rows.chunks_mut(dim * 8).zip(counts.chunks(8)) {
        let n = counts.len().min(eight.len() / dim);
        let mut sq = [0.0_f32; 8];
        for j in 0..dim {
            for (l, s) in sq.iter_mut().enumerate().take(n) {
                let x = eight[l * dim + j];
                *s += x * x;
            }
        }
        for (row, s) in eight.chunks_mut(dim).zip(sq) {
            let norm = s.sqrt().max(1e-12);
            for x in row.iter_mut() {
                *x /= norm;
            }
        }
    }
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

        /// A row sum is the same bits through AVX2 as through the plain
        /// loop, and as adding each row's products in order.
        #[test]
        fn row_sums_are_the_same_bits_with_or_without_avx2(
            rows in prop::collection::vec((prop::collection::vec(any::<i8>(), 256), 0.0f32..0.05), 0..20usize),
            dim in prop::sample::select(vec![1usize, 7, 64, 255, 256]),
        ) {
            let rows: Vec<(&[i8], f32)> = rows.iter().map(|(r, s)| (&r[..dim], *s)).collect();
            let mut got = vec![0.0f32; dim];
            add_rows(&mut got, &rows);
            let mut plain = vec![0.0f32; dim];
            add_each(&mut plain, &rows);
            let mut by_hand = vec![0.0f32; dim];
            for (row, scale) in &rows {
                for (s, v) in by_hand.iter_mut().zip(row.iter()) {
                    *s += f32::from(*v) * scale;
                }
            }
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&got), bits(&plain));
            prop_assert_eq!(bits(&got), bits(&by_hand));
        }

        /// Unit means are the same bits through AVX2 as through the plain
        /// loops, and as `model2vec-rs`'s one loop over one row that
        /// divides and sums the squares together.
        #[test]
        fn unit_means_are_the_same_bits_with_or_without_avx2(
            rows in prop::collection::vec((prop::collection::vec(-30.0f32..30.0, 300), 0..40usize), 0..20usize),
            dim in prop::sample::select(vec![1usize, 7, 64, 256, 300]),
        ) {
            let counts: Vec<usize> = rows.iter().map(|(_, c)| *c).collect();
            let flat: Vec<f32> = rows.iter().flat_map(|(r, _)| r[..dim].iter().copied()).collect();
            let mut got = flat.clone();
            mean_units(&mut got, dim, &counts);
            let mut plain = flat.clone();
            mean_units_each(&mut plain, dim, &counts);
            let mut theirs = flat.clone();
            for (row, count) in theirs.chunks_mut(dim).zip(&counts) {
                let denom = (*count).max(1) as f32;
                let mut sq = 0.0_f32;
                for x in row.iter_mut() {
                    *x /= denom;
                    sq += *x * *x;
                }
                let norm = sq.sqrt().max(1e-12);
                for x in row.iter_mut() {
                    *x /= norm;
                }
            }
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&got), bits(&plain));
            prop_assert_eq!(bits(&got), bits(&theirs));
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
