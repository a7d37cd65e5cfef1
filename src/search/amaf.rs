//! The AMAF (all-moves-as-first) update of one node's children: each child whose move the
//! player went on to make in the rest of the playout gets a virtual visit, and a virtual win if
//! the player won.
//!
//! Every node on a playout's path updates all its children, tens of them, so this is a fifth
//! of the tree's time. The membership of each child's move is a byte looked up in a 128-byte
//! table (`mine`, 0xff for a move made). Looked up one child at a time, that is a load that
//! depends on another load; on AVX2 CPUs sixteen children are looked up at once with byte
//! shuffles over the table's eight 16-byte rows.

use super::mcts::{ByteMask, MAX_SLOTS};

// The shuffles below read the table as eight rows of sixteen.
const _: () = assert!(MAX_SLOTS == 128);

/// Adds 1 to `visits[i]` and `win` to `wins[i]` for every `i` whose slot `slots[i]` is marked
/// in `mine` (a move set a byte a slot, as `MoveSet::byte_mask` makes it). The three slices
/// have the same length; slots are below `MAX_SLOTS`.
#[inline(always)]
pub fn update(slots: &[u8], mine: &ByteMask, visits: &mut [f32], wins: &mut [f32], win: f32) {
    debug_assert!(slots.len() == visits.len() && slots.len() == wins.len());
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has just been checked for the feature the copy is compiled with.
        return unsafe { update_avx2(slots, mine, visits, wins, win) };
    }
    update_one_by_one(slots, mine, visits, wins, win);
}

/// The portable update. Branch-free: about half the children match, which a branch would
/// mispredict. The increments are bit patterns masked by the member's byte, because the
/// compiler turned a multiplication by the hit (0.0 or 1.0) back into a branch.
#[inline(always)]
fn update_one_by_one(
    slots: &[u8],
    mine: &ByteMask,
    visits: &mut [f32],
    wins: &mut [f32],
    win: f32,
) {
    let (one, win) = (1.0f32.to_bits(), win.to_bits());
    for ((&slot, v), w) in slots.iter().zip(visits).zip(wins) {
        let hit = mine[slot as usize & (MAX_SLOTS - 1)] as i8 as i32 as u32;
        *v += f32::from_bits(one & hit);
        *w += f32::from_bits(win & hit);
    }
}

/// The update sixteen children at a time. A row of the table answers `pshufb` for the slots
/// of its sixteen; biasing each slot so that only its own row's slots land on 0..15 with the
/// top bit clear (a saturating add of 0x70 pushes every other value to 0x80 or above, which
/// the shuffle turns into 0) makes the eight rows' answers disjoint, and their union is the
/// lookup. Adding 0.0 to the counts the others leave alone changes nothing, so the sums are
/// the portable ones, bit for bit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(
    slots: &[u8],
    mine: &ByteMask,
    visits: &mut [f32],
    wins: &mut [f32],
    win: f32,
) {
    use std::arch::x86_64::*;
    let rows: [__m128i; 8] =
        std::array::from_fn(|k| _mm_loadu_si128(mine[16 * k..].as_ptr() as *const __m128i));
    let bias = _mm_set1_epi8(0x70);
    let lookup = |chunk: __m128i| {
        let mut hit = _mm_setzero_si128();
        for (k, &row) in rows.iter().enumerate() {
            let index = _mm_adds_epu8(_mm_sub_epi8(chunk, _mm_set1_epi8(16 * k as i8)), bias);
            hit = _mm_or_si128(hit, _mm_shuffle_epi8(row, index));
        }
        hit
    };
    let (one, win_bits) = (_mm256_set1_ps(1.0), _mm256_set1_ps(win));
    let n = slots.len();
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: `i + 16 <= n` for the 16 slots read, and the counts have `n` elements too.
        unsafe {
            let hit = lookup(_mm_loadu_si128(slots.as_ptr().add(i) as *const __m128i));
            for half in 0..2 {
                let bytes = if half == 0 {
                    hit
                } else {
                    _mm_srli_si128(hit, 8)
                };
                let mask = _mm256_castsi256_ps(_mm256_cvtepi8_epi32(bytes));
                let at = i + 8 * half;
                let v = visits.as_mut_ptr().add(at);
                let w = wins.as_mut_ptr().add(at);
                _mm256_storeu_ps(
                    v,
                    _mm256_add_ps(_mm256_loadu_ps(v), _mm256_and_ps(mask, one)),
                );
                _mm256_storeu_ps(
                    w,
                    _mm256_add_ps(_mm256_loadu_ps(w), _mm256_and_ps(mask, win_bits)),
                );
            }
        }
        i += 16;
    }
    update_one_by_one(&slots[i..], mine, &mut visits[i..], &mut wins[i..], win);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Random tables, slots and counts of every length up to 100 (full runs of sixteen and the
    /// rest): the update adds exactly what the definition says, on whatever copy this CPU runs.
    #[test]
    fn the_update_adds_a_visit_and_the_win_to_exactly_the_marked_slots() {
        let mut rng = SmallRng::seed_from_u64(3);
        for len in 0..100 {
            let mut mine = [0u8; 128];
            for b in mine.iter_mut() {
                *b = if rng.gen_bool(0.5) { 0xff } else { 0 };
            }
            let slots: Vec<u8> = (0..len).map(|_| rng.gen_range(0..128)).collect();
            let visits: Vec<f32> = (0..len).map(|_| rng.gen_range(0..1000) as f32).collect();
            let wins: Vec<f32> = visits.iter().map(|v| (v * 0.4).floor()).collect();
            for win in [0.0, 0.5, 1.0] {
                let (mut v, mut w) = (visits.clone(), wins.clone());
                update(&slots, &mine, &mut v, &mut w, win);
                for i in 0..len {
                    let hit = mine[slots[i] as usize] == 0xff;
                    let (dv, dw) = if hit { (1.0, win) } else { (0.0, 0.0) };
                    assert_eq!(v[i], visits[i] + dv, "length {len}, child {i}");
                    assert_eq!(w[i], wins[i] + dw, "length {len}, child {i}");
                }
            }
        }
    }
}
