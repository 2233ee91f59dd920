//! Selection formulas, as pure functions (each tested against hand-computed values).
//!
//! All values are in [0, 1] from the view of the player choosing (the mover at the parent).

/// UCB1 (Auer et al. 2002) as used by UCT (Kocsis & Szepesvári 2006):
/// `q + c·√(ln N / n)` with N the parent's visits and n the child's (n ≥ 1).
#[inline(always)]
pub fn ucb1(q: f64, n: u32, ln_parent: f64, c: f64) -> f64 {
    q + c * (ln_parent / n as f64).sqrt()
}

/// RAVE weight of Gelly & Silver (2007): `β = √(k / (3n + k))`, k the equivalence parameter.
#[inline(always)]
pub fn rave_beta_sqrt(n: u32, k: f64) -> f64 {
    (k / (3.0 * n as f64 + k)).sqrt()
}

/// Linear RAVE weight `β = max(0, (V − n) / V)` (a linear schedule, as earlier Hex RAVE agents used with V = 300).
#[inline(always)]
pub fn rave_beta_linear(n: u32, v: f64) -> f64 {
    ((v - n as f64) / v).max(0.0)
}

/// GRAVE weight (Cazenave 2015): `β = n_a / (n_a + n + bias·n_a·n)`; 0 when `n_a = 0`.
#[inline(always)]
pub fn grave_beta(n: u32, n_amaf: u32, bias: f64) -> f64 {
    if n_amaf == 0 {
        return 0.0;
    }
    let na = n_amaf as f64;
    let n = n as f64;
    na / (na + n + bias * na * n)
}

/// The blended value `(1 − β)·q + β·q_amaf` (Gelly & Silver 2007).
#[inline(always)]
pub fn blend(q: f64, q_amaf: f64, beta: f64) -> f64 {
    (1.0 - beta) * q + beta * q_amaf
}

/// PUCT in the AlphaGo Zero / AlphaZero form (Silver et al. 2017, 2018):
/// `q + c·P·√N / (1 + n)`, N the parent's visits, n the child's.
#[inline(always)]
pub fn puct(q: f64, prior: f64, n: u32, parent_n: u32, c: f64) -> f64 {
    q + c * prior * (parent_n as f64).sqrt() / (1.0 + n as f64)
}

/// Secure-child lower bound `q − A/√n` (Chaslot et al. 2008); −∞ when unvisited.
#[inline]
pub fn secure(q: f64, n: u32, a: f64) -> f64 {
    if n == 0 {
        f64::NEG_INFINITY
    } else {
        q - a / (n as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    }

    #[test]
    fn ucb1_by_hand() {
        // q = 0.6, N = 100, n = 10, c = √2: 0.6 + √2·√(ln 100 / 10) = 0.6 + √(2·4.605170186/10)
        close(ucb1(0.6, 10, (100f64).ln(), 2f64.sqrt()), 0.6 + (0.9210340371976183f64).sqrt());
        assert!((ucb1(0.6, 10, (100f64).ln(), 2f64.sqrt()) - 1.559705182).abs() < 1e-9);
        // c = 0: plain mean
        close(ucb1(0.25, 3, 5.0, 0.0), 0.25);
    }

    #[test]
    fn rave_beta_by_hand() {
        // k = 1000: n = 0 → 1; n = 1000 → √(1000/4000) = 0.5; n = 333 → √(1000/1999)
        close(rave_beta_sqrt(0, 1000.0), 1.0);
        close(rave_beta_sqrt(1000, 1000.0), 0.5);
        close(rave_beta_sqrt(333, 1000.0), (1000.0f64 / 1999.0).sqrt());
        // linear V = 300: n = 0 → 1, n = 150 → 0.5, n = 300 → 0, n = 600 → 0
        close(rave_beta_linear(0, 300.0), 1.0);
        close(rave_beta_linear(150, 300.0), 0.5);
        close(rave_beta_linear(300, 300.0), 0.0);
        close(rave_beta_linear(600, 300.0), 0.0);
    }

    #[test]
    fn grave_beta_by_hand() {
        // n_a = 100, n = 10, bias = 1e-6: 100 / (110 + 1e-3) = 0.909082645...
        close(grave_beta(10, 100, 1e-6), 100.0 / 110.001);
        close(grave_beta(0, 50, 1e-6), 1.0);
        close(grave_beta(10, 0, 1e-6), 0.0);
        // bias 0 → n_a/(n_a+n)
        close(grave_beta(30, 10, 0.0), 0.25);
    }

    #[test]
    fn puct_and_blend_by_hand() {
        // q = 0.5, P = 0.2, N = 400, n = 9, c = 1.5: 0.5 + 1.5·0.2·20/10 = 1.1
        close(puct(0.5, 0.2, 9, 400, 1.5), 1.1);
        close(puct(0.3, 0.5, 0, 0, 2.0), 0.3);
        close(blend(0.4, 0.8, 0.25), 0.5);
        close(secure(0.7, 4, 1.0), 0.2);
    }
}
