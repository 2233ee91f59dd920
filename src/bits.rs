//! Bit tricks shared by the games' bitboards.
//!
//! Broadword select (Vigna, "Broadword implementation of rank/select queries", WEA 2008): the
//! position of the `r`-th set bit of a word without `pdep` — byte popcounts by the SWAR sum,
//! their prefix sums by one multiplication, the byte holding the bit by a bytewise comparison of
//! the prefix sums with `r`, then a table inside the byte. Used to draw a uniformly random empty
//! cell in Hex and Pentago playouts.

/// `SELECT8[b][j]`: position of the `j`-th lowest set bit of the byte `b` (8 when absent).
static SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b][j] = i as u8;
                j += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Index of the `r`-th lowest set bit of `x` (from 0; `r < x.count_ones()`).
#[inline(always)]
pub(crate) fn select64(x: u64, r: u32) -> usize {
    select64_pre(x, byte_prefix_counts(x), r)
}

/// Byte i: the number of set bits of `x` in bytes 0..=i (byte 7: all of them).
#[inline(always)]
pub(crate) fn byte_prefix_counts(x: u64) -> u64 {
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // At most 64 per byte, so no byte overflows.
    s.wrapping_mul(0x0101_0101_0101_0101)
}

/// [`select64`] given `pre = byte_prefix_counts(x)`.
#[inline(always)]
pub(crate) fn select64_pre(x: u64, pre: u64, r: u32) -> usize {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    debug_assert!(r < x.count_ones());
    // High bit of byte i set iff pre_i ≤ r (0x80 + r − pre_i never borrows: pre_i ≤ 64).
    let le = ((((r as u64) * L8) | H8) - pre) & H8;
    // The byte holding the bit, b = #{i : pre_i ≤ r} (pre_{b−1} ≤ r < pre_b): sum of the flags.
    let b = ((le >> 7).wrapping_mul(L8) >> 56) as usize;
    let before = ((pre << 8) >> (8 * b)) as u32 & 0xff;
    let byte = ((x >> (8 * b)) & 0xff) as usize;
    8 * b + SELECT8[byte][(r - before) as usize] as usize
}

/// `x · m` as its `(high, low)` 64-bit words, for `m < 2³²` (the ranges of a shuffle). Natively
/// one widening multiply (`u128`); in WebAssembly, which has no 64×64→128 multiply, from the
/// two 32-bit halves of `x` ([`mul_small_split`]): LLVM's general `u128` product costs more
/// there.
#[inline(always)]
pub(crate) fn mul_small(x: u64, m: u64) -> (u64, u64) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = (x as u128) * (m as u128);
        ((p >> 64) as u64, p as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        mul_small_split(x, m)
    }
}

/// [`mul_small`] from halves: with x = a·2³² + b, the high word is ⌊(a·m + ⌊b·m / 2³²⌋) / 2³²⌋
/// (no term overflows for m < 2³²) and the low word is x·m mod 2⁶⁴.
#[inline(always)]
#[cfg_attr(not(any(target_arch = "wasm32", test)), allow(dead_code))]
pub(crate) fn mul_small_split(x: u64, m: u64) -> (u64, u64) {
    debug_assert!(m < 1 << 32);
    let hi = ((x >> 32) * m + (((x & 0xffff_ffff) * m) >> 32)) >> 32;
    (hi, x.wrapping_mul(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng64;

    #[test]
    fn select_matches_a_bit_scan() {
        let mut rng = Rng64::new(9);
        for t in 0..5000 {
            let x = match t % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => u64::MAX >> (t % 64),
            };
            let ones: Vec<usize> = (0..64).filter(|&i| x >> i & 1 == 1).collect();
            for (r, &i) in ones.iter().enumerate() {
                assert_eq!(select64(x, r as u32), i, "{x:x} {r}");
            }
        }
    }

    #[test]
    fn mul_small_split_is_the_widening_product() {
        let mut rng = Rng64::new(5);
        for t in 0..20000 {
            let x = if t % 7 == 0 { u64::MAX - t } else { rng.next_u64() };
            let m = match t % 3 {
                0 => rng.next_u64() & 0xffff_ffff,
                1 => u32::MAX as u64 - (t % 5),
                _ => 2 + t % 400,
            };
            let p = (x as u128) * (m as u128);
            assert_eq!(mul_small_split(x, m), ((p >> 64) as u64, p as u64), "{x} {m}");
            assert_eq!(mul_small(x, m), mul_small_split(x, m));
        }
    }
}
