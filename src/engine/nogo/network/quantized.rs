//! The residual tower in 8-bit integers: the same network as the float tower of `mod.rs`, its
//! 3x3 convolutions computed on bytes. A float multiply-add does one product; a byte
//! multiply-add instruction does four a lane (`vpdpbusd` with AVX-512 VNNI or AVX-VNNI; with
//! AVX2 alone, `vpmaddubsw` and `vpmaddwd` together), so the convolutions, nearly all of the
//! network's work, take a fraction of the float time.
//!
//! - Weights: signed bytes, one scale per output channel (its largest weight becomes 127).
//! - Activations: after ReLU never negative, so unsigned; quantized again before every
//!   convolution, with one scale for the whole layer of this position (its largest value
//!   becomes 127). Seven bits, not eight: AVX2's `vpmaddubsw` adds two products in 16 bits,
//!   which 2 x 127 x 127 fits and 2 x 255 x 127 does not, and every path must give the same
//!   sums.
//! - Inputs grouped by four (padded with zeros) so that one 32-bit broadcast carries a point's
//!   four inputs to every output lane.
//! - Sums in 32 bits, exact; the bias, the residual and ReLU are applied in floats, and the
//!   residual stream stays in floats, so rounding does not pile up down the tower.

use super::weights::Conv;
use super::NEIGHBOURS;
use crate::game::nogo::POINTS;

/// The instructions a convolution runs on, the best the CPU has; every one gives the same
/// sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Vnni512,
    #[cfg(target_arch = "x86_64")]
    AvxVnni,
}

impl Kernel {
    pub fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512vnni") && has!("avx512vl") {
                return Kernel::Vnni512;
            }
            if has!("avxvnni") && has!("avx2") {
                return Kernel::AvxVnni;
            }
            if has!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }

    /// Every kernel this CPU can run (for the tests that hold them to one answer).
    #[cfg(test)]
    pub fn available() -> Vec<Kernel> {
        let mut all = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") {
                all.push(Kernel::Avx2);
            }
            if has!("avxvnni") && has!("avx2") {
                all.push(Kernel::AvxVnni);
            }
            if has!("avx512vnni") && has!("avx512vl") {
                all.push(Kernel::Vnni512);
            }
        }
        all
    }
}

/// A 3x3 convolution on bytes.
pub struct QuantConv {
    /// Inputs rounded up to a multiple of four.
    padded: usize,
    outputs: usize,
    /// [tap][input / 4][output][input % 4]
    w: Vec<i8>,
    /// Each output's weight scale: weight = byte * scale.
    scale: Vec<f32>,
    b: Vec<f32>,
    pub kernel: Kernel,
    /// Skip inputs that are all zero: worth its branch on the input planes, which are mostly
    /// zero; on the hidden layers, whose zeros fall unpredictably, the branch costs more than
    /// it saves.
    sparse: bool,
}

/// The largest activation byte (see the module's comment on seven bits).
const ACT_MAX: f32 = 127.0;
/// The largest weight byte in magnitude.
const W_MAX: f32 = 127.0;

impl QuantConv {
    pub fn new(c: &Conv, sparse: bool) -> QuantConv {
        let padded = c.inputs.div_ceil(4) * 4;
        let mut w = vec![0i8; 9 * padded * c.outputs];
        let mut scale = vec![1.0f32; c.outputs];
        for o in 0..c.outputs {
            let row = &c.w[o * c.inputs * 9..(o + 1) * c.inputs * 9];
            let largest = row.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            if largest > 0.0 {
                scale[o] = largest / W_MAX;
            }
            for i in 0..c.inputs {
                for tap in 0..9 {
                    let q = (row[i * 9 + tap] / scale[o]).round().clamp(-W_MAX, W_MAX);
                    w[((tap * padded / 4 + i / 4) * c.outputs + o) * 4 + i % 4] = q as i8;
                }
            }
        }
        QuantConv {
            padded,
            outputs: c.outputs,
            w,
            scale,
            b: c.b.clone(),
            kernel: Kernel::best(),
            sparse,
        }
    }

    pub fn padded_inputs(&self) -> usize {
        self.padded
    }

    /// `out[p] = relu(bias + residual[p] + the convolution of input)`, where `input` holds
    /// bytes ([point][padded input]) worth `in_scale` each.
    #[inline(always)]
    pub fn apply(&self, input: &[u8], in_scale: f32, residual: Option<&[f32]>, out: &mut [f32]) {
        let n = self.outputs;
        let mut sums = vec![0i32; n * POINTS];
        self.sums(input, &mut sums);
        let mult: Vec<f32> = self.scale.iter().map(|s| s * in_scale).collect();
        // Written as plain zips over whole rows, so that the compiler makes them vector code.
        let relu = |v: f32| if v > 0.0 { v } else { 0.0 };
        let rows = sums.chunks_exact(n).zip(out.chunks_exact_mut(n));
        match residual {
            Some(r) => {
                for ((acc, dst), res) in rows.zip(r.chunks_exact(n)) {
                    for ((((d, &a), &m), &b), &r) in
                        dst.iter_mut().zip(acc).zip(&mult).zip(&self.b).zip(res)
                    {
                        *d = relu(a as f32 * m + b + r);
                    }
                }
            }
            None => {
                for (acc, dst) in rows {
                    for (((d, &a), &m), &b) in dst.iter_mut().zip(acc).zip(&mult).zip(&self.b) {
                        *d = relu(a as f32 * m + b);
                    }
                }
            }
        }
    }

    /// The exact integer sums of each point and output, [point][output].
    fn sums(&self, input: &[u8], sums: &mut [i32]) {
        assert!(input.len() >= POINTS * self.padded && sums.len() >= POINTS * self.outputs);
        #[cfg(target_arch = "x86_64")]
        {
            let r = self.outputs / 8;
            if self.outputs.is_multiple_of(8) && matches!(r, 1 | 2 | 4 | 6 | 8) {
                // SAFETY: each kernel is chosen only where the CPU has its features
                // (`Kernel::best`, `Kernel::available`), and the bounds were checked above.
                unsafe {
                    match self.kernel {
                        Kernel::Portable => {}
                        Kernel::Avx2 => return x86::dispatch_avx2(self, input, sums, r),
                        Kernel::Vnni512 => return x86::dispatch_vnni512(self, input, sums, r),
                        Kernel::AvxVnni => return x86::dispatch_avxvnni(self, input, sums, r),
                    }
                }
            }
        }
        self.sums_portable(input, sums);
    }

    fn sums_portable(&self, input: &[u8], sums: &mut [i32]) {
        let (n, groups) = (self.outputs, self.padded / 4);
        for (p, taps) in NEIGHBOURS.iter().enumerate() {
            let acc = &mut sums[p * n..(p + 1) * n];
            acc.fill(0);
            for (tap, q) in taps.iter().enumerate() {
                let Some(q) = *q else { continue };
                let row = &input[q as usize * self.padded..(q as usize + 1) * self.padded];
                for g in 0..groups {
                    let a = &row[4 * g..4 * g + 4];
                    if self.sparse && a == [0; 4] {
                        continue;
                    }
                    let w = &self.w[(tap * groups + g) * n * 4..(tap * groups + g + 1) * n * 4];
                    for (o, sum) in acc.iter_mut().enumerate() {
                        for k in 0..4 {
                            *sum += a[k] as i32 * w[o * 4 + k] as i32;
                        }
                    }
                }
            }
        }
    }
}

/// Bytes for the next convolution: `x` ([point][channels], never negative) scaled so that its
/// largest value is `ACT_MAX`, each point's channels padded to `padded`. Returns the scale (the
/// worth of one step).
#[inline(always)]
pub fn quantize(x: &[f32], channels: usize, padded: usize, out: &mut [u8]) -> f32 {
    // Eight running maxima, which become one vector register (one would make every
    // comparison wait on the one before).
    let mut lanes = [0.0f32; 8];
    let values = &x[..POINTS * channels];
    for chunk in values.chunks_exact(8) {
        for (m, &v) in lanes.iter_mut().zip(chunk) {
            *m = if v > *m { v } else { *m };
        }
    }
    let tail = values.chunks_exact(8).remainder();
    let largest = lanes.iter().chain(tail).fold(0.0f32, |m, &v| m.max(v));
    let scale = if largest > 0.0 {
        largest / ACT_MAX
    } else {
        1.0
    };
    let inv = 1.0 / scale;
    for (src, dst) in values
        .chunks_exact(channels)
        .zip(out.chunks_exact_mut(padded))
    {
        // Never negative, so adding a half and truncating rounds to nearest; `round` would be
        // a library call per value (it breaks ties away from zero), once a fifth of the time.
        for (d, &v) in dst.iter_mut().zip(src) {
            let q = v * inv + 0.5;
            let q = if q < ACT_MAX { q } else { ACT_MAX };
            // SAFETY: `q` lies in 0..=127: the activations are never negative (nor NaN: ReLU
            // maps NaN to 0), nor is `inv`, and a NaN product (infinity times 0) fails the
            // comparison and becomes the top. Rust's checked `as` would saturate value by
            // value, out of vector code: a quarter of the whole evaluation.
            *d = unsafe { q.to_int_unchecked::<i32>() } as u8;
        }
        dst[channels..].fill(0);
    }
    scale
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{QuantConv, NEIGHBOURS};
    use std::arch::x86_64::*;

    /// One kernel for `8 * R` outputs: for each point, its neighbours' inputs four at a time,
    /// broadcast to every lane and multiplied into `R` vectors of eight 32-bit sums by `$madd`.
    macro_rules! kernel {
        ($name:ident, $dispatch:ident, $features:literal, |$s:ident, $a:ident, $w:ident| $madd:expr) => {
            #[target_feature(enable = $features)]
            unsafe fn $name<const R: usize>(c: &QuantConv, input: &[u8], sums: &mut [i32]) {
                let (n, groups, padded) = (8 * R, c.padded / 4, c.padded);
                for (p, taps) in NEIGHBOURS.iter().enumerate() {
                    let mut acc = [_mm256_setzero_si256(); R];
                    for (tap, q) in taps.iter().enumerate() {
                        let Some(q) = *q else { continue };
                        let row = input.as_ptr().add(q as usize * padded) as *const i32;
                        let wt = c.w.as_ptr().add(tap * groups * n * 4);
                        for g in 0..groups {
                            let four = row.add(g).read_unaligned();
                            if c.sparse && four == 0 {
                                continue;
                            }
                            let a = _mm256_set1_epi32(four);
                            let wg = wt.add(g * n * 4);
                            for (r, sum) in acc.iter_mut().enumerate() {
                                let w = _mm256_loadu_si256(wg.add(32 * r) as *const __m256i);
                                *sum = {
                                    let ($s, $a, $w) = (*sum, a, w);
                                    $madd
                                };
                            }
                        }
                    }
                    let dst = sums.as_mut_ptr().add(p * n);
                    for (r, sum) in acc.iter().enumerate() {
                        _mm256_storeu_si256(dst.add(8 * r) as *mut __m256i, *sum);
                    }
                }
            }

            /// # Safety
            /// The CPU must have the kernel's features; `input` and `sums` must be large enough.
            pub unsafe fn $dispatch(c: &QuantConv, input: &[u8], sums: &mut [i32], r: usize) {
                match r {
                    1 => $name::<1>(c, input, sums),
                    2 => $name::<2>(c, input, sums),
                    4 => $name::<4>(c, input, sums),
                    6 => $name::<6>(c, input, sums),
                    8 => $name::<8>(c, input, sums),
                    _ => unreachable!("widths are checked by the caller"),
                }
            }
        };
    }

    kernel!(
        sums_avx2,
        dispatch_avx2,
        "avx2",
        // Pairs of products in 16 bits (exact: seven-bit activations), then pairs of those
        // in 32: four products a lane, as one VNNI instruction makes them.
        |sum, a, w| _mm256_add_epi32(
            sum,
            _mm256_madd_epi16(_mm256_maddubs_epi16(a, w), _mm256_set1_epi16(1))
        )
    );
    kernel!(
        sums_vnni512,
        dispatch_vnni512,
        "avx2,avx512f,avx512vl,avx512vnni",
        |sum, a, w| _mm256_dpbusd_epi32(sum, a, w)
    );
    kernel!(
        sums_avxvnni,
        dispatch_avxvnni,
        "avx2,avxvnni",
        |sum, a, w| _mm256_dpbusd_avx_epi32(sum, a, w)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_kernel_gives_the_exact_sums_of_the_plain_loop() {
        let mut rng = SmallRng::seed_from_u64(2);
        // 24 outputs have no vector kernel; the others have one each.
        for (inputs, outputs) in [(9, 8), (16, 16), (32, 32), (24, 24), (48, 48), (64, 64)] {
            let conv = Conv {
                inputs,
                outputs,
                w: (0..outputs * inputs * 9)
                    .map(|_| rng.gen_range(-1.0..1.0))
                    .collect(),
                b: vec![0.0; outputs],
            };
            let mut q = QuantConv::new(&conv, inputs == 9);
            // Weights at both extremes of a byte, and activations at the top of seven bits,
            // where a 16-bit pair sum would first overflow.
            q.w[0] = -(W_MAX as i8);
            q.w[1] = W_MAX as i8;
            let input: Vec<u8> = (0..POINTS * q.padded)
                .map(|i| match rng.gen_range(0..4) {
                    0 if i % q.padded < inputs => ACT_MAX as u8,
                    1 if i % q.padded < inputs => rng.gen_range(1..ACT_MAX as u8),
                    _ => 0,
                })
                .collect();
            let mut want = vec![0i32; POINTS * outputs];
            q.sums_portable(&input, &mut want);
            assert!(want.iter().any(|&s| s != 0));
            for kernel in Kernel::available() {
                q.kernel = kernel;
                let mut got = vec![-1i32; POINTS * outputs];
                q.sums(&input, &mut got);
                assert_eq!(got, want, "{kernel:?} {inputs}x{outputs}");
            }
        }
    }

    #[test]
    fn weights_and_activations_round_to_the_nearest_step() {
        let conv = Conv {
            inputs: 1,
            outputs: 2,
            w: (0..18).map(|i| (i as f32 - 4.0) / 8.0).collect(),
            b: vec![0.0; 2],
        };
        let q = QuantConv::new(&conv, false);
        // Output 0's largest weight is 0.5 (-4/8 .. 4/8): a step of 0.5 / 127.
        assert!((q.scale[0] - 0.5 / 127.0).abs() < 1e-9);
        for tap in 0..9 {
            let byte = q.w[(tap * q.padded / 4) * 2 * 4] as f32;
            assert!((byte * q.scale[0] - conv.w[tap]).abs() <= q.scale[0] / 2.0 + 1e-7);
        }
        let x: Vec<f32> = (0..POINTS * 3).map(|i| (i % 7) as f32 * 0.25).collect();
        let mut bytes = vec![9u8; POINTS * 4];
        let scale = quantize(&x, 3, 4, &mut bytes);
        assert!((scale - 1.5 / 127.0).abs() < 1e-7);
        for p in 0..POINTS {
            for k in 0..3 {
                let back = bytes[p * 4 + k] as f32 * scale;
                assert!((back - x[p * 3 + k]).abs() <= scale / 2.0 + 1e-6);
            }
            assert_eq!(bytes[p * 4 + 3], 0, "padding is zero");
        }
    }
}
