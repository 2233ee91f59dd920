//! Quality-based rewards (Pepels, Tak, Lanctot & Winands 2014): the relative bonus on a
//! simulation's length, and the running statistics of the winners' lengths it is relative to.
//! The search adds the bonus in the backpropagation (`search/backprop.rs`); the statistics live
//! in [`PolicyState::qb`](super::PolicyState::qb).

/// Running mean / variance (Welford 1962).
#[derive(Clone, Copy, Debug, Default)]
pub struct Welford {
    /// Samples.
    pub n: u64,
    /// Mean.
    pub mean: f64,
    m2: f64,
}

impl Welford {
    /// Adds a sample.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }
    /// Sample standard deviation (0 with fewer than 2 samples).
    pub fn std(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).sqrt()
        }
    }
}

/// Quality-based reward, relative bonus (Pepels, Tak, Lanctot & Winands 2014):
/// `λ = (mean_D − D) / σ_D` over the winner's past winning simulation lengths,
/// `b(λ) = −1 + 2 / (1 + e^{−kλ})`; shorter wins than usual get b > 0.
#[inline]
pub fn qb_bonus(length: f64, mean: f64, std: f64, k: f64) -> f64 {
    if std <= 0.0 {
        return 0.0;
    }
    let lambda = (mean - length) / std;
    -1.0 + 2.0 / (1.0 + (-k * lambda).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qb_bonus_by_hand() {
        // λ = (20 − 10)/5 = 2, k = 1: −1 + 2/(1 + e^−2) = 0.761594156
        assert!((qb_bonus(10.0, 20.0, 5.0, 1.0) - 0.7615941559557649).abs() < 1e-12);
        assert!((qb_bonus(20.0, 20.0, 5.0, 1.0)).abs() < 1e-12);
        assert!((qb_bonus(30.0, 20.0, 5.0, 1.0) + 0.7615941559557649).abs() < 1e-12);
        assert_eq!(qb_bonus(10.0, 20.0, 0.0, 1.0), 0.0);
        let mut w = Welford::default();
        for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
            w.push(x);
        }
        assert!((w.mean - 5.0).abs() < 1e-12);
        assert!((w.std() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    }
}
