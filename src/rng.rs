//! The one random generator of the engine.
//!
//! Every random choice (playouts, tie-breaks, shuffles) goes through [`Rng64`], a
//! Xoshiro256++ generator (Blackman & Vigna 2018) named explicitly so that a seeded run gives
//! the same numbers natively, in Node and in Chromium (`SmallRng` differs between targets).

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

/// Seeded Xoshiro256++ with the few fast helpers the hot paths need.
#[derive(Clone, Debug)]
pub struct Rng64(Xoshiro256PlusPlus);

impl Rng64 {
    /// A generator from a 64-bit seed (expanded with SplitMix64 by `seed_from_u64`).
    pub fn new(seed: u64) -> Self {
        Rng64(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// 64 uniformly random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform integer in `0..n` by Lemire's multiply-shift with rejection (unbiased; Lemire
    /// 2019, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1)).
    /// `n` must be at least 1.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut x = self.0.next_u64() as u32;
        let mut m = (x as u64) * (n as u64);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                x = self.0.next_u64() as u32;
                m = (x as u64) * (n as u64);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// Uniform index in `0..n` (`n >= 1`).
    #[inline(always)]
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u32) as usize
    }

    /// Uniform float in `[0, 1)` with 53 random bits.
    #[inline(always)]
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An exponential variate of rate 1 (mean 1), by rand_distr's ziggurat (`Exp1`; Marsaglia &
    /// Tsang 2000, "The Ziggurat Method for Generating Random Variables").
    #[inline(always)]
    pub fn exp1(&mut self) -> f64 {
        self.0.sample(rand_distr::Exp1)
    }

    /// `true` with probability `p` (clamped to [0, 1]).
    #[inline(always)]
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Fisher–Yates shuffle of a slice.
    #[inline]
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Rng64::new(7);
        let mut b = Rng64::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = Rng64::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }
}
