//! Zobrist keys, computed at compile time so that a fresh process (Botzone starts one every turn)
//! pays nothing for them.

/// splitmix64: a good 64-bit mixer, usable in `const` context.
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Keys for up to `N` points and two colours, from a per-game salt.
pub const fn table<const N: usize>(salt: u64) -> [[u64; N]; 2] {
    let mut keys = [[0u64; N]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < N {
            keys[c][p] = mix(salt ^ ((c as u64) << 32) ^ (p as u64).wrapping_mul(0x1000_0001));
            p += 1;
        }
        c += 1;
    }
    keys
}

/// XORed in when White is to move.
pub const WHITE_TO_MOVE: u64 = mix(0x5744_4954_4520_4d56);
