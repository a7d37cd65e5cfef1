//! Helpers for boards of at most 128 points held in a `u128`.

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

/// Index of the `k`-th set bit (from zero, lowest first) of a 64-bit word; `k < count_ones`.
#[inline(always)]
fn select64(mut word: u64, mut k: u32) -> u32 {
    // Skip whole bytes first: far fewer steps than clearing bits one at a time.
    let mut base = 0;
    loop {
        let c = (word & 0xff).count_ones();
        if k < c {
            break;
        }
        k -= c;
        word >>= 8;
        base += 8;
    }
    for _ in 0..k {
        word &= word - 1;
    }
    base + word.trailing_zeros()
}

/// Index of the `k`-th set bit of `set`; `k` must be below `set.count_ones()`.
#[inline(always)]
pub fn select(set: u128, k: u32) -> usize {
    let low = set as u64;
    let low_count = low.count_ones();
    if k < low_count {
        select64(low, k) as usize
    } else {
        64 + select64((set >> 64) as u64, k - low_count) as usize
    }
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
