//! The network file (`.sbnn`, version 1), read and checked. Everything a file can get wrong is
//! an error naming the file and what was expected: a bot must not play on with half a network,
//! nor quietly fall back to none.
//!
//! Layout (little-endian): the magic `SBNOGONN`; format version, planes, channels, blocks and
//! value-head width (u32 each); the FNV-1a hash of the payload (u64); the payload, f32 arrays in
//! the order of `Weights`' fields, convolutions as [out][in][ky][kx], dense layers as [out][in].

use crate::engine::nogo::features::PLANES;
use crate::game::nogo::POINTS;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub const MAGIC: &[u8; 8] = b"SBNOGONN";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 36;
/// Input channels: the feature planes and a plane of ones (which lets the convolutions see
/// the board's edge, where the zero padding begins).
pub const INPUTS: usize = PLANES + 1;
/// Channels of the policy head's 1x1 convolution.
pub const POLICY_CHANNELS: usize = 2;

/// A 3x3 convolution with `inputs` channels in and `outputs` out, and its bias.
#[derive(Clone, Debug)]
pub struct Conv {
    pub inputs: usize,
    pub outputs: usize,
    /// [out][in][ky][kx]
    pub w: Vec<f32>,
    pub b: Vec<f32>,
}

/// A dense layer or a 1x1 convolution: [out][in] and the bias.
#[derive(Clone, Debug)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    pub w: Vec<f32>,
    pub b: Vec<f32>,
}

/// Every weight of the network, as the file gives them.
#[derive(Clone, Debug)]
pub struct Weights {
    pub channels: usize,
    pub stem: Conv,
    /// Each block's two convolutions.
    pub blocks: Vec<(Conv, Conv)>,
    pub policy_conv: Dense,
    pub policy_fc: Dense,
    pub value_conv: Dense,
    pub value_fc1: Dense,
    pub value_fc2: Dense,
}

/// The 64-bit FNV-1a hash: enough to tell a damaged file from a whole one.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Floats read one array at a time from the payload.
struct Reader<'a> {
    floats: std::slice::ChunksExact<'a, u8>,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Vec<f32> {
        (&mut self.floats)
            .take(n)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    fn conv(&mut self, inputs: usize, outputs: usize) -> Conv {
        Conv {
            inputs,
            outputs,
            w: self.take(outputs * inputs * 9),
            b: self.take(outputs),
        }
    }

    fn dense(&mut self, inputs: usize, outputs: usize) -> Dense {
        Dense {
            inputs,
            outputs,
            w: self.take(outputs * inputs),
            b: self.take(outputs),
        }
    }
}

/// Floats in the payload of a network with these sizes.
pub fn payload_floats(channels: usize, blocks: usize, hidden: usize) -> usize {
    let conv = |i: usize, o: usize| o * i * 9 + o;
    let dense = |i: usize, o: usize| o * i + o;
    conv(INPUTS, channels)
        + blocks * 2 * conv(channels, channels)
        + dense(channels, POLICY_CHANNELS)
        + dense(POLICY_CHANNELS * POINTS, POINTS)
        + dense(channels, 1)
        + dense(POINTS, hidden)
        + dense(hidden, 1)
}

impl Weights {
    /// Reads a network file's bytes; `name` is how errors call the file.
    pub fn parse(bytes: &[u8], name: &str) -> Result<Weights, String> {
        if bytes.len() < HEADER_SIZE || &bytes[0..8] != MAGIC {
            return Err(format!(
                "{name}: not a stonebrain NoGo network (it should start with {:?}; {} bytes)",
                std::str::from_utf8(MAGIC).unwrap(),
                bytes.len()
            ));
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let (version, planes) = (word(0), word(1));
        let (channels, blocks, hidden) = (word(2) as usize, word(3) as usize, word(4) as usize);
        if version != VERSION || planes as usize != PLANES {
            return Err(format!(
                "{name}: network format version {version} over {planes} planes; this build reads \
                 version {VERSION} over {PLANES} planes"
            ));
        }
        // Sizes beyond these are no network this program made (and would overflow the sums).
        if !(1..=512).contains(&channels) || blocks > 64 || !(1..=4096).contains(&hidden) {
            return Err(format!(
                "{name}: implausible sizes ({channels} channels, {blocks} blocks, value head \
                 {hidden} wide)"
            ));
        }
        let floats = payload_floats(channels, blocks, hidden);
        let payload = &bytes[HEADER_SIZE..];
        if payload.len() != 4 * floats {
            return Err(format!(
                "{name}: {} bytes of weights where a network of {channels} channels, {blocks} \
                 blocks and a value head {hidden} wide has {} ({})",
                payload.len(),
                4 * floats,
                if payload.len() < 4 * floats {
                    "truncated"
                } else {
                    "too long"
                }
            ));
        }
        let want = u64::from_le_bytes(bytes[28..36].try_into().unwrap());
        let got = fnv1a(payload);
        if want != got {
            return Err(format!(
                "{name}: the weights are damaged (hash {got:016x}, the header says {want:016x})"
            ));
        }
        let mut r = Reader {
            floats: payload.chunks_exact(4),
        };
        let weights = Weights {
            channels,
            stem: r.conv(INPUTS, channels),
            blocks: (0..blocks)
                .map(|_| (r.conv(channels, channels), r.conv(channels, channels)))
                .collect(),
            policy_conv: r.dense(channels, POLICY_CHANNELS),
            policy_fc: r.dense(POLICY_CHANNELS * POINTS, POINTS),
            value_conv: r.dense(channels, 1),
            value_fc1: r.dense(POINTS, hidden),
            value_fc2: r.dense(hidden, 1),
        };
        if let Some(bad) = weights.all().find(|x| !x.is_finite()) {
            return Err(format!(
                "{name}: a weight is {bad}, not a number the network can use"
            ));
        }
        Ok(weights)
    }

    /// Every float, in file order.
    fn all(&self) -> impl Iterator<Item = f32> + '_ {
        let convs = std::iter::once(&self.stem)
            .chain(self.blocks.iter().flat_map(|(a, b)| [a, b]))
            .flat_map(|c| c.w.iter().chain(&c.b));
        let dense = [
            &self.policy_conv,
            &self.policy_fc,
            &self.value_conv,
            &self.value_fc1,
            &self.value_fc2,
        ]
        .into_iter()
        .flat_map(|d| d.w.iter().chain(&d.b));
        convs.chain(dense).copied()
    }

    /// A network of the given sizes with weights drawn at random (scaled so that activations
    /// stay in a sensible range): for tests, and for the speed bench when no network is built
    /// in.
    pub fn random(channels: usize, blocks: usize, hidden: usize, seed: u64) -> Weights {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut draw = |n: usize, scale: f32| -> Vec<f32> {
            (0..n).map(|_| rng.gen_range(-scale..scale)).collect()
        };
        let mut conv = |i: usize, o: usize| Conv {
            inputs: i,
            outputs: o,
            w: draw(o * i * 9, 1.0 / (i as f32 * 3.0).sqrt()),
            b: draw(o, 0.1),
        };
        let stem = conv(INPUTS, channels);
        let blocks = (0..blocks)
            .map(|_| (conv(channels, channels), conv(channels, channels)))
            .collect();
        let mut dense = |i: usize, o: usize| Dense {
            inputs: i,
            outputs: o,
            w: draw(o * i, 1.0 / (i as f32).sqrt()),
            b: draw(o, 0.1),
        };
        Weights {
            channels,
            stem,
            blocks,
            policy_conv: dense(channels, POLICY_CHANNELS),
            policy_fc: dense(POLICY_CHANNELS * POINTS, POINTS),
            value_conv: dense(channels, 1),
            value_fc1: dense(POINTS, hidden),
            value_fc2: dense(hidden, 1),
        }
    }

    /// The file's bytes for these weights: what `parse` reads back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload: Vec<u8> = self.all().flat_map(f32::to_le_bytes).collect();
        let mut out = Vec::with_capacity(HEADER_SIZE + payload.len());
        out.extend_from_slice(MAGIC);
        let hidden = self.value_fc1.outputs;
        for word in [
            VERSION,
            PLANES as u32,
            self.channels as u32,
            self.blocks.len() as u32,
            hidden as u32,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }
}
