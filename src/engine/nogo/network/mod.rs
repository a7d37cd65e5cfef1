//! The NoGo policy-value network's forward pass: the project's own code, no framework. A small
//! residual network over the 9x9 board (`weights.rs` gives its shape and file), evaluated one
//! position at a time on one core, as the search asks.
//!
//! Activations are laid out position-major, channel-minor ([point][channel]): a 3x3 convolution
//! then adds, for each point, neighbour and input channel, one input value times a row of
//! weights over the output channels, a loop the compiler turns into vector instructions; and a
//! zero input (ReLU makes many) skips its row.

pub mod builtin;
mod quantized;
#[cfg(target_arch = "x86_64")]
mod simd;
pub mod weights;

use crate::engine::nogo::features::PLANES;
use crate::game::nogo::{POINTS, SIZE};
use quantized::{quantize, QuantConv};
use weights::{Conv, Dense, Weights, INPUTS, POLICY_CHANNELS};

/// What the network says of a position, for the side to move.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// A logit for the move on each point (`9 * y + x`), legal or not.
    pub logits: [f32; POINTS],
    /// The expected result, from -1 (lost) to 1 (won).
    pub value: f32,
}

/// A 3x3 convolution with its weights reordered as [tap][in][out].
struct Conv3 {
    inputs: usize,
    outputs: usize,
    w: Vec<f32>,
    b: Vec<f32>,
    /// Whether this CPU runs `simd::conv3x3` (AVX2 and FMA).
    avx2: bool,
}

impl Conv3 {
    fn new(c: &Conv) -> Conv3 {
        let mut w = vec![0.0; c.w.len()];
        for o in 0..c.outputs {
            for i in 0..c.inputs {
                for tap in 0..9 {
                    w[(tap * c.inputs + i) * c.outputs + o] = c.w[(o * c.inputs + i) * 9 + tap];
                }
            }
        }
        Conv3 {
            inputs: c.inputs,
            outputs: c.outputs,
            w,
            b: c.b.clone(),
            avx2: simd_available(),
        }
    }

    /// `out[p] = bias + sum over taps and inputs`, then `residual` added and ReLU applied.
    /// `sparse` skips the zero inputs: worth its branch on the input planes, which are mostly
    /// zero, not on the hidden layers.
    #[inline(always)]
    fn apply(&self, input: &[f32], residual: Option<&[f32]>, out: &mut [f32], sparse: bool) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            let (w, b, ni) = (&self.w[..], &self.b[..], self.inputs);
            // SAFETY: `avx2` is set only where the CPU was found to have AVX2 and FMA.
            unsafe {
                match self.outputs {
                    8 => return simd::conv3x3::<1>(w, b, ni, input, residual, out, sparse),
                    16 => return simd::conv3x3::<2>(w, b, ni, input, residual, out, sparse),
                    32 => return simd::conv3x3::<4>(w, b, ni, input, residual, out, sparse),
                    48 => return simd::conv3x3::<6>(w, b, ni, input, residual, out, sparse),
                    64 => return simd::conv3x3::<8>(w, b, ni, input, residual, out, sparse),
                    _ => {}
                }
            }
        }
        // A width known at compile time keeps the point's sums in vector registers through all
        // its taps and inputs, instead of in memory.
        match self.outputs {
            16 => self.apply_n::<16>(input, residual, out, sparse),
            32 => self.apply_n::<32>(input, residual, out, sparse),
            48 => self.apply_n::<48>(input, residual, out, sparse),
            64 => self.apply_n::<64>(input, residual, out, sparse),
            _ => self.apply_any(input, residual, out),
        }
    }

    #[inline(always)]
    fn apply_n<const N: usize>(
        &self,
        input: &[f32],
        residual: Option<&[f32]>,
        out: &mut [f32],
        sparse: bool,
    ) {
        let ni = self.inputs;
        for p in 0..POINTS {
            // Two sets of sums, for the even and the odd inputs: each sum waits on its own last
            // addition, and two independent chains keep the multiply-add units busy.
            let mut even = [0.0f32; N];
            let mut odd = [0.0f32; N];
            for (tap, q) in NEIGHBOURS[p].iter().enumerate() {
                let Some(q) = *q else { continue };
                let row = &input[q as usize * ni..(q as usize + 1) * ni];
                let w = &self.w[tap * ni * N..(tap + 1) * ni * N];
                let mut i = 0;
                while i + 1 < ni {
                    let (a, b) = (row[i], row[i + 1]);
                    if !sparse || a != 0.0 || b != 0.0 {
                        let wa: &[f32; N] = w[i * N..(i + 1) * N].try_into().unwrap();
                        let wb: &[f32; N] = w[(i + 1) * N..(i + 2) * N].try_into().unwrap();
                        for k in 0..N {
                            even[k] += a * wa[k];
                            odd[k] += b * wb[k];
                        }
                    }
                    i += 2;
                }
                if i < ni && (!sparse || row[i] != 0.0) {
                    let wa: &[f32; N] = w[i * N..(i + 1) * N].try_into().unwrap();
                    for k in 0..N {
                        even[k] += row[i] * wa[k];
                    }
                }
            }
            let acc = &mut out[p * N..(p + 1) * N];
            let res = residual.map(|r| &r[p * N..(p + 1) * N]);
            for k in 0..N {
                let v = self.b[k] + even[k] + odd[k] + res.map_or(0.0, |r| r[k]);
                acc[k] = v.max(0.0);
            }
        }
    }

    /// Any width: the sums kept in `out` itself.
    fn apply_any(&self, input: &[f32], residual: Option<&[f32]>, out: &mut [f32]) {
        let (ni, no) = (self.inputs, self.outputs);
        for p in 0..POINTS {
            let acc = &mut out[p * no..(p + 1) * no];
            acc.copy_from_slice(&self.b);
            for (tap, q) in NEIGHBOURS[p].iter().enumerate() {
                let Some(q) = *q else { continue };
                let row = &input[q as usize * ni..(q as usize + 1) * ni];
                let w = &self.w[tap * ni * no..(tap + 1) * ni * no];
                for (i, &a) in row.iter().enumerate() {
                    let wr = &w[i * no..(i + 1) * no];
                    for (acc, &wv) in acc.iter_mut().zip(wr) {
                        *acc += a * wv;
                    }
                }
            }
            if let Some(r) = residual {
                for (acc, &rv) in acc.iter_mut().zip(&r[p * no..(p + 1) * no]) {
                    *acc += rv;
                }
            }
            for v in acc.iter_mut() {
                *v = v.max(0.0);
            }
        }
    }
}

fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The 3x3 neighbourhood of each point, taps in [ky][kx] order (the weights' order), `None` off
/// the board (where the padding is zero).
const NEIGHBOURS: [[Option<u8>; 9]; POINTS] = {
    let mut t = [[None; 9]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let (x, y) = ((p % SIZE) as isize, (p / SIZE) as isize);
        let mut tap = 0;
        while tap < 9 {
            let (nx, ny) = (x + (tap % 3) as isize - 1, y + (tap / 3) as isize - 1);
            if nx >= 0 && ny >= 0 && nx < SIZE as isize && ny < SIZE as isize {
                t[p][tap] = Some((ny * SIZE as isize + nx) as u8);
            }
            tap += 1;
        }
        p += 1;
    }
    t
};

/// A loaded network, ready to evaluate.
pub struct Network {
    channels: usize,
    stem: Conv3,
    blocks: Vec<(Conv3, Conv3)>,
    policy_conv: Dense,
    policy_fc: Dense,
    value_conv: Dense,
    value_fc1: Dense,
    value_fc2: Dense,
    /// The tower in 8-bit integers (`quantized`), when chosen: then it replaces the float one.
    quant: Option<QuantTower>,
}

/// The residual tower's convolutions on bytes.
struct QuantTower {
    stem: QuantConv,
    blocks: Vec<(QuantConv, QuantConv)>,
}

/// How the tower is computed: in floats, as trained, or in bytes, faster and a little off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    Float,
    Int8,
}

impl Network {
    pub fn new(w: &Weights) -> Network {
        Network {
            channels: w.channels,
            stem: Conv3::new(&w.stem),
            blocks: w
                .blocks
                .iter()
                .map(|(a, b)| (Conv3::new(a), Conv3::new(b)))
                .collect(),
            policy_conv: w.policy_conv.clone(),
            policy_fc: w.policy_fc.clone(),
            value_conv: w.value_conv.clone(),
            value_fc1: w.value_fc1.clone(),
            value_fc2: w.value_fc2.clone(),
            quant: None,
        }
    }

    /// The network read from `w`, its tower computed at `precision`.
    pub fn with_precision(w: &Weights, precision: Precision) -> Network {
        let mut net = Network::new(w);
        if precision == Precision::Int8 {
            net.quant = Some(QuantTower {
                stem: QuantConv::new(&w.stem, true),
                blocks: w
                    .blocks
                    .iter()
                    .map(|(a, b)| (QuantConv::new(a, false), QuantConv::new(b, false)))
                    .collect(),
            });
        }
        net
    }

    pub fn precision(&self) -> Precision {
        if self.quant.is_some() {
            Precision::Int8
        } else {
            Precision::Float
        }
    }

    /// Reads and checks a network file's bytes (`name` names it in errors), its tower to be
    /// computed at `precision`.
    pub fn from_bytes_at(
        bytes: &[u8],
        name: &str,
        precision: Precision,
    ) -> Result<Network, String> {
        Ok(Network::with_precision(
            &Weights::parse(bytes, name)?,
            precision,
        ))
    }

    /// Reads a network file.
    pub fn from_file(path: &std::path::Path) -> Result<Network, String> {
        Network::from_file_at(path, Precision::Float)
    }

    /// Reads a network file, its tower to be computed at `precision`.
    pub fn from_file_at(path: &std::path::Path, precision: Precision) -> Result<Network, String> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        Network::from_bytes_at(&bytes, &name, precision)
    }

    /// The same network on the portable loops alone, whatever the CPU has (for the tests that
    /// hold the two ways to one answer).
    #[cfg(test)]
    fn without_simd(mut self) -> Network {
        self.stem.avx2 = false;
        for (a, b) in &mut self.blocks {
            a.avx2 = false;
            b.avx2 = false;
        }
        self
    }

    /// The byte tower on the given kernel, whatever the CPU would choose (for the tests).
    #[cfg(test)]
    fn on_kernel(mut self, kernel: quantized::Kernel) -> Network {
        if let Some(q) = &mut self.quant {
            q.stem.kernel = kernel;
            for (a, b) in &mut q.blocks {
                a.kernel = kernel;
                b.kernel = kernel;
            }
        }
        self
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// The network's opinion of the position whose planes (`features::planes`) are given.
    pub fn evaluate(&self, planes: &[u128; PLANES]) -> Evaluation {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has just been checked for the features the copy is compiled with.
            return unsafe { self.evaluate_avx2(planes) };
        }
        self.evaluate_body(planes)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn evaluate_avx2(&self, planes: &[u128; PLANES]) -> Evaluation {
        self.evaluate_body(planes)
    }

    #[inline(always)]
    fn evaluate_body(&self, planes: &[u128; PLANES]) -> Evaluation {
        let x = match &self.quant {
            Some(q) => self.tower_int8(q, planes),
            None => self.tower_float(planes),
        };
        self.heads(&x)
    }

    /// The residual tower's output, [point][channel], in floats.
    #[inline(always)]
    fn tower_float(&self, planes: &[u128; PLANES]) -> Vec<f32> {
        let c = self.channels;
        let mut input = vec![0.0f32; POINTS * INPUTS];
        for p in 0..POINTS {
            for (k, plane) in planes.iter().enumerate() {
                input[p * INPUTS + k] = (plane >> p & 1) as f32;
            }
            input[p * INPUTS + PLANES] = 1.0;
        }
        let mut x = vec![0.0f32; POINTS * c];
        let mut h = vec![0.0f32; POINTS * c];
        let mut y = vec![0.0f32; POINTS * c];
        self.stem.apply(&input, None, &mut x, true);
        for (first, second) in &self.blocks {
            first.apply(&x, None, &mut h, false);
            second.apply(&h, Some(&x), &mut y, false);
            std::mem::swap(&mut x, &mut y);
        }
        x
    }

    /// The same tower with its convolutions on bytes; the residual stream stays in floats.
    /// Inlined, as everything it calls but the kernels is, into the caller compiled for AVX2,
    /// so that quantizing and the float steps run eight values to an instruction.
    #[inline(always)]
    fn tower_int8(&self, q: &QuantTower, planes: &[u128; PLANES]) -> Vec<f32> {
        let c = self.channels;
        // The inputs are 0 or 1: as bytes they are exact, worth 1 each.
        let stem_in = q.stem.padded_inputs();
        let mut input = vec![0u8; POINTS * stem_in];
        for p in 0..POINTS {
            for (k, plane) in planes.iter().enumerate() {
                input[p * stem_in + k] = (plane >> p & 1) as u8;
            }
            input[p * stem_in + PLANES] = 1;
        }
        let mut x = vec![0.0f32; POINTS * c];
        let mut h = vec![0.0f32; POINTS * c];
        let mut y = vec![0.0f32; POINTS * c];
        q.stem.apply(&input, 1.0, None, &mut x);
        let mut bytes = Vec::new();
        for (first, second) in &q.blocks {
            let padded = first.padded_inputs();
            bytes.resize(POINTS * padded, 0);
            let scale = quantize(&x, c, padded, &mut bytes);
            first.apply(&bytes, scale, None, &mut h);
            let scale = quantize(&h, c, second.padded_inputs(), &mut bytes);
            second.apply(&bytes, scale, Some(&x), &mut y);
            std::mem::swap(&mut x, &mut y);
        }
        x
    }

    /// The policy and value heads on the tower's output.
    #[inline(always)]
    fn heads(&self, x: &[f32]) -> Evaluation {
        let c = self.channels;
        // Policy: a 1x1 convolution to two planes, flattened plane by plane, then dense.
        let mut flat = [0.0f32; POLICY_CHANNELS * POINTS];
        for p in 0..POINTS {
            let act = &x[p * c..(p + 1) * c];
            for k in 0..POLICY_CHANNELS {
                let v = dot(&self.policy_conv.w[k * c..(k + 1) * c], act) + self.policy_conv.b[k];
                flat[k * POINTS + p] = v.max(0.0);
            }
        }
        let mut logits = [0.0f32; POINTS];
        dense(&self.policy_fc, &flat, &mut logits);
        // Value: a 1x1 convolution to one plane, then two dense layers and tanh.
        let mut plane = [0.0f32; POINTS];
        for (p, v) in plane.iter_mut().enumerate() {
            let act = &x[p * c..(p + 1) * c];
            *v = (dot(&self.value_conv.w, act) + self.value_conv.b[0]).max(0.0);
        }
        let mut hidden = vec![0.0f32; self.value_fc1.outputs];
        dense(&self.value_fc1, &plane, &mut hidden);
        for v in &mut hidden {
            *v = v.max(0.0);
        }
        let mut out = [0.0f32];
        dense(&self.value_fc2, &hidden, &mut out);
        Evaluation {
            logits,
            value: out[0].tanh(),
        }
    }
}

/// Eight running sums rather than one: a single sum makes every addition wait on the one before
/// (the compiler may not reorder floating-point additions), while eight lanes become one vector
/// register. The heads' dot products are small next to the convolutions: 4% more evaluations a
/// second (3,439 against 3,290, `stonebrain bench nogo`, three runs of each, machine idle).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut sums = [0.0f32; LANES];
    let (ac, bc) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = ac
        .remainder()
        .iter()
        .zip(bc.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ac.zip(bc) {
        for k in 0..LANES {
            sums[k] += x[k] * y[k];
        }
    }
    sums.iter().sum::<f32>() + tail
}

#[inline(always)]
fn dense(layer: &Dense, input: &[f32], out: &mut [f32]) {
    for (o, v) in out.iter_mut().enumerate() {
        *v = dot(&layer.w[o * layer.inputs..(o + 1) * layer.inputs], input) + layer.b[o];
    }
}

/// The softmax of the logits over the points of `legal` (others get 0).
pub fn policy(logits: &[f32; POINTS], legal: u128) -> [f32; POINTS] {
    let mut out = [0.0f32; POINTS];
    let max = (0..POINTS)
        .filter(|&p| legal >> p & 1 == 1)
        .map(|p| logits[p])
        .fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for p in 0..POINTS {
        if legal >> p & 1 == 1 {
            out[p] = (logits[p] - max).exp();
            total += out[p];
        }
    }
    if total > 0.0 {
        for v in &mut out {
            *v /= total;
        }
    }
    out
}

#[cfg(test)]
mod tests;
