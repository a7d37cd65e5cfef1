//! Helpers for boards of at most 128 points held in a `u128`.

/// `BIT[i]` is `1 << i`. A variable shift of a `u128` takes several instructions on x86-64;
/// a load from this table takes one.
pub const BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// The set holding only `i`.
#[inline(always)]
pub fn bit(i: usize) -> u128 {
    BIT[i]
}

/// Iterates the indices of the set bits, lowest first.
pub fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(i)
        }
    })
}

/// `SELECT_IN_BYTE[b][k]`: position of the `k`-th set bit of the byte `b` (8 when there is none).
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                table[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    table
};

const ONES_PER_BYTE: u64 = 0x0101_0101_0101_0101;
const HIGH_PER_BYTE: u64 = 0x8080_8080_8080_8080;

/// Index of the `k`-th set bit (from zero, lowest first) of a 64-bit word; `k < count_ones`.
/// Broadword selection: per-byte bit counts, their running sums in one multiplication, the
/// target byte found by a parallel compare, then a table for the bit inside that byte. No branch
/// depends on `k`, which in playouts is random and would be mispredicted half the time.
#[inline(always)]
fn select64(word: u64, k: u32) -> u32 {
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i of `running` holds the number of set bits in bytes 0..=i (at most 64: no carry).
    let running = counts.wrapping_mul(ONES_PER_BYTE);
    // A byte's high bit survives the subtraction exactly when its running sum is <= k.
    let at_most_k =
        ((k as u64 * ONES_PER_BYTE) | HIGH_PER_BYTE).wrapping_sub(running) & HIGH_PER_BYTE;
    let shift = at_most_k.count_ones() * 8;
    let before = ((running << 8) >> shift) & 0xff;
    let byte = (word >> shift) & 0xff;
    shift + SELECT_IN_BYTE[byte as usize][(k - before as u32) as usize] as u32
}

/// Index of the `k`-th set bit of `set`; `k` must be below `set.count_ones()`.
#[inline(always)]
pub fn select(set: u128, k: u32) -> usize {
    let low = set as u64;
    let low_count = low.count_ones();
    let high = (k >= low_count) as u32;
    // Chosen arithmetically so that the compiler emits conditional moves, not a branch.
    let word = if high == 1 { (set >> 64) as u64 } else { low };
    (64 * high + select64(word, k - low_count * high)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_matches_iteration() {
        let sets = [
            1u128,
            0b1011_0000_1111,
            u128::MAX,
            (1u128 << 127) | (1 << 64) | 5,
        ];
        for set in sets {
            let listed: Vec<usize> = bits(set).collect();
            assert_eq!(listed.len() as u32, set.count_ones());
            for (k, &i) in listed.iter().enumerate() {
                assert_eq!(select(set, k as u32), i, "set {set:#x} k {k}");
            }
        }
    }
}
