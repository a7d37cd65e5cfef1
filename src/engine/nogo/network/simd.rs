//! The 3x3 convolution with AVX2 and FMA: the point's sums held in vector registers through
//! all its taps and inputs (the portable loop in `mod.rs` leaves them in memory, and its
//! multiplications and additions apart), two sets of them so that the multiply-adds of
//! neighbouring inputs do not wait on each other.

use super::NEIGHBOURS;
use crate::game::nogo::POINTS;
use std::arch::x86_64::*;

/// `out[p] = relu(bias + residual[p] + sum over taps q and inputs i of input[q][i] * w[tap][i])`
/// for a layer of `8 * R` outputs; `w` is [tap][input][output], activations [point][channel].
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn conv3x3<const R: usize>(
    w: &[f32],
    bias: &[f32],
    inputs: usize,
    input: &[f32],
    residual: Option<&[f32]>,
    out: &mut [f32],
    sparse: bool,
) {
    let n = 8 * R;
    // The raw reads below stay inside these bounds.
    assert!(w.len() == 9 * inputs * n && bias.len() == n);
    assert!(input.len() >= POINTS * inputs && out.len() >= POINTS * n);
    assert!(residual.is_none_or(|r| r.len() >= POINTS * n));
    for (p, taps) in NEIGHBOURS.iter().enumerate() {
        let mut even = [_mm256_setzero_ps(); R];
        let mut odd = [_mm256_setzero_ps(); R];
        for (tap, q) in taps.iter().enumerate() {
            let Some(q) = *q else { continue };
            let row = input.as_ptr().add(q as usize * inputs);
            let wt = w.as_ptr().add(tap * inputs * n);
            let mut i = 0;
            while i + 1 < inputs {
                let (a, b) = (*row.add(i), *row.add(i + 1));
                if !sparse || a != 0.0 || b != 0.0 {
                    let (va, vb) = (_mm256_set1_ps(a), _mm256_set1_ps(b));
                    let wa = wt.add(i * n);
                    let wb = wa.add(n);
                    for r in 0..R {
                        even[r] = _mm256_fmadd_ps(va, _mm256_loadu_ps(wa.add(8 * r)), even[r]);
                        odd[r] = _mm256_fmadd_ps(vb, _mm256_loadu_ps(wb.add(8 * r)), odd[r]);
                    }
                }
                i += 2;
            }
            if i < inputs && (!sparse || *row.add(i) != 0.0) {
                let va = _mm256_set1_ps(*row.add(i));
                let wa = wt.add(i * n);
                for (r, sum) in even.iter_mut().enumerate() {
                    *sum = _mm256_fmadd_ps(va, _mm256_loadu_ps(wa.add(8 * r)), *sum);
                }
            }
        }
        let dst = out.as_mut_ptr().add(p * n);
        for (r, (e, o)) in even.iter().zip(&odd).enumerate() {
            let mut v = _mm256_add_ps(*e, *o);
            v = _mm256_add_ps(v, _mm256_loadu_ps(bias.as_ptr().add(8 * r)));
            if let Some(res) = residual {
                v = _mm256_add_ps(v, _mm256_loadu_ps(res.as_ptr().add(p * n + 8 * r)));
            }
            _mm256_storeu_ps(dst.add(8 * r), _mm256_max_ps(v, _mm256_setzero_ps()));
        }
    }
}
