//! The Connect6 value network: its weights, its file (`.sbc6`) and its head.
//!
//! The network reads a position through its accumulators (`accumulator.rs`): for each side, the
//! sum of one table row per cell and direction, the row chosen by the cell's line code read by
//! that side. The head takes both sums from the side to move's point of view, clipped to 0..1,
//! and the threats against the side to move (none, one, two or more, one-hot), through one
//! hidden layer of rectified units to a logit of the side to move's result. The hand-made
//! fitted evaluation's logit is added with a learned scale, so the network learns what that
//! evaluation misses rather than everything again.
//!
//! File layout (little-endian): the magic `SBC6NETV`; the format version, the reach of the line
//! codes, the accumulator's width, the hidden layer's width (u32 each); the FNV-1a hash of the
//! payload (u64); the payload, f32 arrays in the order of `Network`'s fields, dense layers as
//! [out][in]. Everything a file can get wrong is an error naming the file and what was
//! expected: a bot must not play on with half a network.

use super::codes::{half_codes, half_digits, line_codes, swap_half, MAX_REACH};
use crate::engine::nogo::network::weights::fnv1a;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub const MAGIC: &[u8; 8] = b"SBC6NETV";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 32;
/// The head's inputs besides the two accumulators: the threats against the side to move as
/// none, one, two or more.
pub const EXTRA: usize = 3;
/// Search units to a logit, as the fitted evaluation counts them: its value divided by this is
/// the network's input.
pub const UNITS_PER_LOGIT: f32 = 190.0;
/// Search units to a logit of the network's output. The fitted evaluation's values are about
/// three times too sure of themselves on self-play games (a logistic fit gives them a scale of
/// 0.29 to 0.31), so one logit of a calibrated win rate is some 630 of its units; the network's
/// logits are calibrated, and counting them at this rate keeps the margins the search was tuned
/// with (variety, focus, the unsettled drop) meaning what they meant.
pub const OUTPUT_UNITS_PER_LOGIT: f32 = 630.0;

/// The table row of a line code (`LineCodes::code_for`): the codes are
/// `(centre * H + lo) * H + hi` with `lo <= hi` (a line and its mirror folded), `H` the number of
/// half-line codes; the rows number only the pairs that occur, `3 * H * (H + 1) / 2`.
pub fn table_row(code: u32, halves: u32) -> u32 {
    let hi = code % halves;
    let lo = (code / halves) % halves;
    let centre = code / (halves * halves);
    debug_assert!(lo <= hi, "code {code} is not folded");
    centre * (halves * (halves + 1) / 2) + lo * halves - lo * lo.saturating_sub(1) / 2 + (hi - lo)
}

/// Whether a line code is a blank view: the cell empty and no stone within reach either side.
/// Most of a board's views are blank, so their rows would be counted hundreds of times over and
/// swamp the rest; they all read the zero row `table_rows(reach)` instead (`view_row`).
pub fn is_blank(code: u32, halves: u32) -> bool {
    let empty = |half: u32| half_digits(half).iter().all(|&d| d == 0);
    code / (halves * halves) == 0 && empty((code / halves) % halves) && empty(code % halves)
}

/// The row a view with this code reads: its table row, or the zero row past the table's end
/// for a blank view.
pub fn view_row(code: u32, halves: u32) -> u32 {
    let reach = (1..=MAX_REACH)
        .find(|&r| half_codes(r) == halves)
        .expect("a reach's halves");
    if is_blank(code, halves) {
        table_rows(reach) as u32
    } else {
        table_row(code, halves)
    }
}

/// `view_row` of every line code at this reach, looked up rather than worked out where a
/// view's row is needed again and again.
pub fn view_rows(reach: usize) -> Vec<u16> {
    let halves = half_codes(reach);
    (0..line_codes(reach))
        .map(|code| {
            let (lo, hi) = ((code / halves) % halves, code % halves);
            // Unfolded codes never occur; their entries are never read.
            if lo <= hi {
                view_row(code, halves) as u16
            } else {
                0
            }
        })
        .collect()
}

/// Rows of the table at this reach: 22,143 at 4, 2,460 at 3.
pub fn table_rows(reach: usize) -> usize {
    let h = half_codes(reach) as usize;
    3 * h * (h + 1) / 2
}

/// Every weight of a network.
#[derive(Clone, PartialEq)]
pub struct Network {
    pub reach: usize,
    pub dim: usize,
    pub hidden: usize,
    /// [row][dim]
    pub table: Vec<f32>,
    /// Added to each accumulator.
    pub bias: Vec<f32>,
    /// [hidden][2 * dim + EXTRA]
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// [hidden]
    pub w2: Vec<f32>,
    pub b2: f32,
    /// The fitted evaluation's logit counts this much in the output.
    pub fitted_scale: f32,
    /// The table in fixed point (`FIXED` to 1), which the accumulators add and subtract: sums
    /// of integers come back exactly when a stone is taken back, however long the search.
    /// One more row than the table, of zeros: the blank views' (`is_blank`).
    pub fixed: Vec<i32>,
    /// Per line code (`LineCodes::code_for`, below `line_codes(reach)`): its row (`view_row`),
    /// looked up rather than worked out, since the accumulators need one for every view a stone
    /// touches.
    pub rows: Vec<u16>,
    /// Per row: the row of the same view with the colours exchanged (Black's reading of a view
    /// to White's).
    pub swapped: Vec<u16>,
}

/// Its sizes, not its hundreds of thousands of weights (an engine's settings print it).
impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network {{ reach: {}, dim: {}, hidden: {}, fitted_scale: {} }}",
            self.reach, self.dim, self.hidden, self.fitted_scale
        )
    }
}

/// The widest accumulator the head takes (its inputs live on the stack).
pub const MAX_DIM: usize = 64;

/// The table's fixed-point unit.
pub const FIXED: f32 = 65536.0;

impl Network {
    /// Floats of the payload for these sizes.
    pub fn payload_floats(reach: usize, dim: usize, hidden: usize) -> usize {
        table_rows(reach) * dim + dim + hidden * (2 * dim + EXTRA) + hidden + hidden + 2
    }

    /// A network of small random weights, for tests.
    pub fn random(reach: usize, dim: usize, hidden: usize, seed: u64) -> Network {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut v =
            |n: usize, s: f32| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-s..s)).collect() };
        Network {
            reach,
            dim,
            hidden,
            table: v(table_rows(reach) * dim, 0.01),
            bias: v(dim, 0.5),
            w1: v(hidden * (2 * dim + EXTRA), 0.5),
            b1: v(hidden, 0.1),
            w2: v(hidden, 0.5),
            b2: 0.1,
            fitted_scale: 0.8,
            fixed: Vec::new(),
            rows: Vec::new(),
            swapped: Vec::new(),
        }
        .with_fixed()
    }

    /// The row of the fixed-point table for `row`.
    pub fn row(&self, row: u32) -> &[i32] {
        let start = row as usize * self.dim;
        &self.fixed[start..start + self.dim]
    }

    /// The row of a line code.
    #[inline]
    pub fn row_of(&self, code: u32) -> u32 {
        self.rows[code as usize] as u32
    }

    /// Fills `fixed` from `table`, and `rows`.
    fn with_fixed(mut self) -> Network {
        self.fixed = self
            .table
            .iter()
            .map(|v| (v * FIXED).round() as i32)
            .collect();
        self.fixed.extend(std::iter::repeat_n(0, self.dim));
        let halves = half_codes(self.reach);
        self.rows = view_rows(self.reach);
        // The colour exchange of a row: its centre and both half-lines with 1 and 2 swapped,
        // folded again.
        let blank = table_rows(self.reach);
        let mut swapped = vec![blank as u16; blank + 1];
        for centre in 0..3 {
            for lo in 0..halves {
                for hi in lo..halves {
                    let (a, b) = (swap_half(lo), swap_half(hi));
                    let (a, b) = (a.min(b), a.max(b));
                    let from = self.row_of((centre * halves + lo) * halves + hi);
                    let to = self.row_of((((3 - centre) % 3) * halves + a) * halves + b);
                    swapped[from as usize] = to as u16;
                }
            }
        }
        self.swapped = swapped;
        self
    }

    /// The logit of the side to move's result: `mine` and `theirs` are the accumulators read by
    /// the side to move and by the other side (bias included, in floats), `against` the threats against
    /// the side to move, `fitted` the fitted evaluation's value in search units.
    pub fn logit(&self, mine: &[f32], theirs: &[f32], against: u32, fitted: i32) -> f32 {
        let d = self.dim;
        let inputs = 2 * d + EXTRA;
        let mut buffer = [0.0f32; 2 * MAX_DIM + EXTRA];
        let x = &mut buffer[..inputs];
        for i in 0..d {
            x[i] = mine[i].clamp(0.0, 1.0);
            x[d + i] = theirs[i].clamp(0.0, 1.0);
        }
        x[2 * d + against.min(2) as usize] = 1.0;
        let x = &*x;
        let mut out = self.b2 + self.fitted_scale * fitted as f32 / UNITS_PER_LOGIT;
        for (h, w) in self.w1.chunks_exact(inputs).enumerate() {
            let z: f32 = self.b1[h] + w.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
            out += self.w2[h] * z.max(0.0);
        }
        out
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::new();
        let mut put = |v: &[f32]| {
            for x in v {
                payload.extend_from_slice(&x.to_le_bytes());
            }
        };
        put(&self.table);
        put(&self.bias);
        put(&self.w1);
        put(&self.b1);
        put(&self.w2);
        put(&[self.b2, self.fitted_scale]);
        let mut bytes = MAGIC.to_vec();
        for v in [
            VERSION,
            self.reach as u32,
            self.dim as u32,
            self.hidden as u32,
        ] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// Reads a network file's bytes; `name` names the file in errors.
    pub fn parse(bytes: &[u8], name: &str) -> Result<Network, String> {
        if bytes.len() < HEADER_SIZE || &bytes[..8] != MAGIC {
            return Err(format!(
                "{name}: not a Connect6 network file (expected the magic SBC6NETV)"
            ));
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let (version, reach, dim, hidden) = (word(0), word(1), word(2), word(3));
        if version != VERSION {
            return Err(format!(
                "{name}: format version {version}, this program reads {VERSION}"
            ));
        }
        let (reach, dim, hidden) = (reach as usize, dim as usize, hidden as usize);
        if !(1..=4).contains(&reach)
            || !(1..=MAX_DIM).contains(&dim)
            || !(1..=1024).contains(&hidden)
        {
            return Err(format!(
                "{name}: sizes out of range (reach {reach} of 1 to 4, width {dim} of 1 to {MAX_DIM}, \
                 hidden {hidden} of 1 to 1024)"
            ));
        }
        debug_assert!(reach <= MAX_REACH);
        let payload = &bytes[HEADER_SIZE..];
        let floats = Network::payload_floats(reach, dim, hidden);
        if payload.len() != 4 * floats {
            return Err(format!(
                "{name}: {} bytes of weights, expected {} for reach {reach}, width {dim}, \
                 hidden {hidden}",
                payload.len(),
                4 * floats
            ));
        }
        let hash = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
        if fnv1a(payload) != hash {
            return Err(format!(
                "{name}: the weights do not match their hash (a damaged file)"
            ));
        }
        let mut values = payload
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let mut take = |n: usize| -> Vec<f32> { values.by_ref().take(n).collect() };
        let table = take(table_rows(reach) * dim);
        let bias = take(dim);
        let w1 = take(hidden * (2 * dim + EXTRA));
        let b1 = take(hidden);
        let w2 = take(hidden);
        let last = take(2);
        let net = Network {
            reach,
            dim,
            hidden,
            table,
            bias,
            w1,
            b1,
            w2,
            b2: last[0],
            fitted_scale: last[1],
            fixed: Vec::new(),
            rows: Vec::new(),
            swapped: Vec::new(),
        };
        let finite = |v: &f32| v.is_finite();
        if !(net.table.iter().all(|v| v.is_finite() && v.abs() < 1000.0)
            && net
                .bias
                .iter()
                .chain(&net.w1)
                .chain(&net.b1)
                .chain(&net.w2)
                .all(finite)
            && finite(&net.b2)
            && finite(&net.fitted_scale))
        {
            return Err(format!(
                "{name}: a weight is not a finite number (or a table entry is beyond 1000)"
            ));
        }
        Ok(net.with_fixed())
    }

    pub fn from_file(path: &std::path::Path) -> Result<Network, String> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        Network::parse(&bytes, &name)
    }
}
