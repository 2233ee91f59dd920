//! Bit sets of cells (bit `row * n + col`): `u64` for n ≤ 8, `u128` for n ≤ 11 and six `u64`
//! words ([`W6`]) for n ≤ 19, behind one trait ([`Bits`]).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};
use std::sync::OnceLock;

use super::{Geo, MAX_SIZE};
use crate::bits::{byte_prefix_counts, select64, select64_pre};
use crate::rng::Rng64;

/// A set of cells as a bitboard (bit `row * n + col`).
pub(crate) trait Bits:
    Copy
    + Eq
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const ZERO: Self;
    fn bit(i: usize) -> Self;
    fn shl(self, k: u32) -> Self;
    fn shr(self, k: u32) -> Self;
    fn is_zero(self) -> bool;
    fn count(self) -> u32;
    /// Index of the lowest set bit (`self` non-empty).
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
    /// The geometry table for side `n` (built once per size and type).
    fn geo(n: usize) -> &'static Geo<Self>;
    /// The cells of `self`, each kept independently with probability 1/2 (one random 64-bit
    /// word per word of the set that holds cells).
    fn random_half(self, rng: &mut Rng64) -> Self;
    /// Index of the `r`-th lowest set bit, counting from 0 (`r < self.count()`).
    fn select(self, r: u32) -> usize;
    /// The rows of an n×n board (n ≤ 19) into `out[..n]`, bit c = column c.
    fn to_rows(self, n: u32, out: &mut [u32; MAX_SIZE]);
    /// The set as 64-bit words, lowest cells first (1, 2 or 6 words).
    fn words(self) -> impl AsRef<[u64]>;
    /// Kogge–Stone stages that fill a whole row of this type's largest board (rows of up to
    /// 2^stages cells): 3 for n ≤ 8, 4 for n ≤ 11, 5 for n ≤ 19.
    const ROW_STAGES: usize;
    /// Flips bit `i`.
    #[inline(always)]
    fn toggle(&mut self, i: usize) {
        *self = *self ^ Self::bit(i);
    }

    #[inline(always)]
    fn test(self, i: usize) -> bool {
        !(self & Self::bit(i)).is_zero()
    }
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_zero()
    }
}

macro_rules! prim_bits {
    ($t:ty, $max:expr, $stages:expr, $bit:expr, $shl:expr, $shr:expr, $rand:expr, $select:expr, $words:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn words(self) -> impl AsRef<[u64]> {
                ($words)(self)
            }
            const ROW_STAGES: usize = $stages;
            #[inline(always)]
            fn random_half(self, rng: &mut Rng64) -> Self {
                ($rand)(self, rng)
            }
            #[inline(always)]
            fn select(self, r: u32) -> usize {
                ($select)(self, r)
            }
            #[inline(always)]
            fn to_rows(self, n: u32, out: &mut [u32; MAX_SIZE]) {
                let mask = (1u32 << n) - 1;
                let mut x = self;
                for row in out.iter_mut().take(n as usize) {
                    *row = (x as u32) & mask;
                    x = x.shr(n);
                }
            }
            #[inline(always)]
            fn bit(i: usize) -> Self {
                ($bit)(i)
            }
            #[inline(always)]
            fn shl(self, k: u32) -> Self {
                ($shl)(self, k)
            }
            #[inline(always)]
            fn shr(self, k: u32) -> Self {
                ($shr)(self, k)
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
            fn geo(n: usize) -> &'static Geo<Self> {
                static TABLE: [OnceLock<Geo<$t>>; $max + 1] = [const { OnceLock::new() }; $max + 1];
                TABLE[n].get_or_init(|| Geo::build(n))
            }
        }
    };
}
prim_bits!(
    u64,
    8,
    3,
    |i: usize| 1u64 << i,
    |x: u64, k: u32| x << k,
    |x: u64, k: u32| x >> k,
    |x: u64, rng: &mut Rng64| x & rng.next_u64(),
    select64,
    |x: u64| [x]
);
// u128: a table instead of a variable 128-bit shift, and shift counts known to be below 64
// (n ≤ 11) so the compiler emits a double-word shift without the ≥ 64 case. Boards of side
// 9..=11 have more than 64 cells, so both words hold cells.
prim_bits!(
    u128,
    11,
    4,
    |i: usize| BIT128[i],
    |x: u128, k: u32| x << (k & 63),
    |x: u128, k: u32| x >> (k & 63),
    |x: u128, rng: &mut Rng64| {
        let lo = rng.next_u64() as u128;
        x & ((rng.next_u64() as u128) << 64 | lo)
    },
    select128,
    |x: u128| [x as u64, (x >> 64) as u64]
);

/// [`select64`] on two words.
#[inline(always)]
fn select128(x: u128, r: u32) -> usize {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let pre = byte_prefix_counts(lo);
    let c = (pre >> 56) as u32;
    if r < c {
        select64_pre(lo, pre, r)
    } else {
        64 + select64_pre(hi, byte_prefix_counts(hi), r - c)
    }
}

/// `BIT128[i] = 1 << i`.
static BIT128: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// 384-bit set (six words) for boards of side 12..=19.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct W6([u64; 6]);

macro_rules! w6_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for W6 {
            type Output = W6;
            #[inline(always)]
            fn $f(self, o: W6) -> W6 {
                let mut r = [0u64; 6];
                for i in 0..6 {
                    r[i] = self.0[i] $op o.0[i];
                }
                W6(r)
            }
        }
        impl $tra for W6 {
            #[inline(always)]
            fn $fa(&mut self, o: W6) {
                for i in 0..6 {
                    self.0[i] = self.0[i] $op o.0[i];
                }
            }
        }
    };
}
w6_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
w6_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);

impl BitXor for W6 {
    type Output = W6;
    #[inline(always)]
    fn bitxor(self, o: W6) -> W6 {
        W6(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl Not for W6 {
    type Output = W6;
    #[inline(always)]
    fn not(self) -> W6 {
        W6(self.0.map(|w| !w))
    }
}

impl Bits for W6 {
    const ZERO: Self = W6([0; 6]);
    #[inline(always)]
    fn words(self) -> impl AsRef<[u64]> {
        self.0
    }
    const ROW_STAGES: usize = 5;
    #[inline(always)]
    fn random_half(self, rng: &mut Rng64) -> Self {
        let mut r = self.0;
        for w in r.iter_mut() {
            if *w != 0 {
                *w &= rng.next_u64();
            }
        }
        W6(r)
    }
    #[inline(always)]
    fn select(self, mut r: u32) -> usize {
        for i in 0..5 {
            let c = self.0[i].count_ones();
            if r < c {
                return 64 * i + select64(self.0[i], r);
            }
            r -= c;
        }
        320 + select64(self.0[5], r)
    }
    #[inline(always)]
    fn to_rows(self, n: u32, out: &mut [u32; MAX_SIZE]) {
        let mask = (1u32 << n) - 1;
        for (r, row) in out.iter_mut().enumerate().take(n as usize) {
            let start = r as u32 * n;
            let (i, off) = ((start >> 6) as usize, start & 63);
            let mut v = self.0[i] >> off;
            if off + n > 64 {
                v |= self.0[i + 1] << (64 - off);
            }
            *row = (v as u32) & mask;
        }
    }
    #[inline(always)]
    fn toggle(&mut self, i: usize) {
        self.0[i >> 6] ^= 1u64 << (i & 63);
    }
    #[inline(always)]
    fn bit(i: usize) -> Self {
        let mut r = [0u64; 6];
        r[i >> 6] = 1u64 << (i & 63);
        W6(r)
    }
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        if k == 0 {
            return self;
        }
        let a = self.0;
        let mut r = [0u64; 6];
        r[0] = a[0] << k;
        for i in 1..6 {
            r[i] = (a[i] << k) | (a[i - 1] >> (64 - k));
        }
        W6(r)
    }
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        if k == 0 {
            return self;
        }
        let a = self.0;
        let mut r = [0u64; 6];
        for i in 0..5 {
            r[i] = (a[i] >> k) | (a[i + 1] << (64 - k));
        }
        r[5] = a[5] >> k;
        W6(r)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().fold(0, |acc, &w| acc | w) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        for i in 0..6 {
            if self.0[i] != 0 {
                return i * 64 + self.0[i].trailing_zeros() as usize;
            }
        }
        usize::MAX
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        let mut r = self.0;
        for w in r.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        W6(r)
    }
    fn geo(n: usize) -> &'static Geo<Self> {
        static TABLE: [OnceLock<Geo<W6>>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];
        TABLE[n].get_or_init(|| Geo::build(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_the_rank_r_bit() {
        let mut rng = Rng64::new(11);
        for _ in 0..2000 {
            let sparse = rng.next_u64() & rng.next_u64();
            let words = [rng.next_u64(), sparse, rng.next_u64() & rng.next_u64() & rng.next_u64(), 0, u64::MAX, 1 << 63];
            let w6 = W6(words);
            let ones: Vec<usize> = (0..384).filter(|&i| w6.test(i)).collect();
            for (r, &i) in ones.iter().enumerate() {
                assert_eq!(w6.select(r as u32), i);
            }
            let x = (words[1] as u128) << 64 | words[0] as u128;
            let ones: Vec<usize> = (0..128).filter(|&i| x.test(i)).collect();
            for (r, &i) in ones.iter().enumerate() {
                assert_eq!(x.select(r as u32), i);
                if i < 64 && r < words[0].count_ones() as usize {
                    assert_eq!(select64(words[0], r as u32), i);
                }
            }
        }
    }
}
