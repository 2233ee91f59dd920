//! Selection formulas, as pure functions (each tested against hand-computed values), each with
//! its display text ([`Formula`]) beside it: the search's scores (`search/score.rs`) and its
//! step-through trace (`search/trace.rs`) both read them from here, so each formula is written
//! once.
//!
//! All values are in [0, 1] from the view of the player choosing (the mover at the parent).

/// A formula as the step-through trace prints it: its expression and its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formula {
    /// The expression, in the symbols of the trace (`V`, `Q`, `n`, `N`, `c`, `P`, `β`, ...).
    pub expr: &'static str,
    /// The paper it comes from (empty: none to cite).
    pub source: &'static str,
}

/// [`ucb1`] as displayed.
pub const UCB1: Formula = Formula { expr: "V + c·√(ln N / n)", source: "Kocsis & Szepesvári 2006" };

/// UCB1 (Auer et al. 2002) as used by UCT (Kocsis & Szepesvári 2006):
/// `q + c·√(ln N / n)` with N the parent's visits and n the child's (n ≥ 1).
#[inline(always)]
pub fn ucb1(q: f64, n: u32, ln_parent: f64, c: f64) -> f64 {
    q + ucb1_bonus(n, ln_parent, c)
}

/// UCB1's exploration term `c·√(ln N / n)` ([`ucb1`] is `q` plus it).
#[inline(always)]
pub fn ucb1_bonus(n: u32, ln_parent: f64, c: f64) -> f64 {
    c * (ln_parent / n as f64).sqrt()
}

/// [`ucb1`] factored for a scan in `f32`: `q + cs·k` with the parent's factor
/// `cs = c·√(ln N)` ([`ucb1_parent_factor`]) and the child's `k = 1/√n` ([`ucb1_child_factor`]),
/// both computed once (the edge caches `k`): one multiply-add per child, no division or square
/// root. With `k = +∞` (n = 0) and `0 < cs < ∞` the score is +∞ itself. Plain UCT selects by
/// it; the same values as [`ucb1`] to `f32` rounding.
#[inline(always)]
pub fn ucb1_factored(q: f32, cs: f32, k: f32) -> f32 {
    q + cs * k
}

/// The parent's factor of [`ucb1_factored`]: `c·√(ln N)` in `f32`.
#[inline(always)]
pub fn ucb1_parent_factor(c: f64, ln_parent: f64) -> f32 {
    (c * ln_parent.sqrt()) as f32
}

/// The child's factor of [`ucb1_factored`]: `1/√n` in `f32`, +∞ for n = 0.
#[inline(always)]
pub fn ucb1_child_factor(n: u32) -> f32 {
    if n == 0 {
        f32::INFINITY
    } else {
        1.0 / (n as f32).sqrt()
    }
}

/// [`rave_beta_sqrt`] as displayed.
pub const RAVE_BETA_SQRT: Formula = Formula { expr: "√(k/(3n+k))", source: "Gelly & Silver 2007" };

/// RAVE weight of Gelly & Silver (2007): `β = √(k / (3n + k))`, k the equivalence parameter.
#[inline(always)]
pub fn rave_beta_sqrt(n: u32, k: f64) -> f64 {
    (k / (3.0 * n as f64 + k)).sqrt()
}

/// [`rave_beta_linear`] as displayed.
pub const RAVE_BETA_LINEAR: Formula = Formula { expr: "max(0, (V−n)/V)", source: "" };

/// Linear RAVE weight `β = max(0, (V − n) / V)` (a linear schedule, as earlier Hex RAVE agents used with V = 300).
#[inline(always)]
pub fn rave_beta_linear(n: u32, v: f64) -> f64 {
    ((v - n as f64) / v).max(0.0)
}

/// [`grave_beta`] as displayed.
pub const GRAVE_BETA: Formula = Formula { expr: "n_a/(n_a + n + b·n_a·n)", source: "Cazenave 2015" };

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

/// [`blend`] as displayed.
pub const BLEND: Formula = Formula { expr: "(1−β)·Q + β·Q_AMAF", source: "Gelly & Silver 2007" };

/// The blended value `(1 − β)·q + β·q_amaf` (Gelly & Silver 2007).
#[inline(always)]
pub fn blend(q: f64, q_amaf: f64, beta: f64) -> f64 {
    (1.0 - beta) * q + beta * q_amaf
}

/// The AMAF value `Q_AMAF = w / n` of an entry with `n ≥ 1` samples and reward sum `w2` in half
/// points (the tables' unit, `crate::mcts::amaf`).
#[inline(always)]
pub fn amaf_mean(n: u32, w2: u32) -> f64 {
    w2 as f64 * 0.5 / n as f64
}

/// MoHex 2.0's progressive bias term, as displayed.
pub const PROGRESSIVE_BIAS: Formula = Formula { expr: "c_pb·P/√(n+1)", source: "Huang et al. 2013 (MoHex 2.0)" };

/// The progressive bias term `c_pb · P / √(n + 1)` (Chaslot et al. 2008; MoHex 2.0's form,
/// benzene `SgUctSearch::GetBound`), P the child's prior, n its visits.
#[inline(always)]
pub fn progressive_bias(prior: f64, n: u32, c_pb: f64) -> f64 {
    c_pb * prior / (n as f64 + 1.0).sqrt()
}

/// [`puct`] as displayed.
pub const PUCT: Formula = Formula { expr: "V + c·P·√N / (1 + n)", source: "Silver et al. 2017" };

/// PUCT in the AlphaGo Zero / AlphaZero form (Silver et al. 2017, 2018):
/// `q + c·P·√N / (1 + n)`, N the parent's visits, n the child's.
#[inline(always)]
pub fn puct(q: f64, prior: f64, n: u32, parent_n: u32, c: f64) -> f64 {
    q + puct_bonus(prior, n as u64, (parent_n as f64).sqrt(), c)
}

/// PUCT's exploration term `c·P·√N / (1 + n)` ([`puct`] is `q` plus it), with `√N` given, so
/// that a scan computes it once per parent; `n` as `u64` for merged root statistics.
#[inline(always)]
pub fn puct_bonus(prior: f64, n: u64, sqrt_parent: f64, c: f64) -> f64 {
    c * prior * sqrt_parent / (1.0 + n as f64)
}

/// Secure-child lower bound `q − A/√n` (Chaslot et al. 2008); −∞ when unvisited. `n` as `u64`
/// for merged root statistics.
#[inline]
pub fn secure(q: f64, n: u64, a: f64) -> f64 {
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
        assert_eq!(secure(0.7, 0, 1.0), f64::NEG_INFINITY);
        // The exploration term alone: 1.5·0.2·20/10 = 0.6; a merged count past u32.
        close(puct_bonus(0.2, 9, 20.0, 1.5), 0.6);
        close(puct_bonus(0.5, (1u64 << 33) - 1, 2f64.powi(17), 2.0), 2f64.powi(17) / 2f64.powi(33));
        // 3 samples with 2 wins and a draw: 5 half points, Q_AMAF = 2.5/3.
        close(amaf_mean(3, 5), 2.5 / 3.0);
    }

    /// The factored `f32` form is UCB1 to `f32` rounding, +∞ for an unvisited child; UCB1's
    /// bonus at one visit is `c·√(ln N)` exactly.
    #[test]
    fn ucb1_factored_by_hand() {
        let (ln_n, c) = ((100f64).ln(), 2f64.sqrt());
        let got = ucb1_factored(0.6, ucb1_parent_factor(c, ln_n), ucb1_child_factor(10)) as f64;
        assert!((got - ucb1(0.6, 10, ln_n, c)).abs() < 1e-6, "{got}");
        assert_eq!(ucb1_child_factor(0), f32::INFINITY);
        assert_eq!(ucb1_factored(0.5, ucb1_parent_factor(c, ln_n), ucb1_child_factor(0)), f32::INFINITY);
        close(ucb1_child_factor(4) as f64, 0.5);
        assert_eq!(ucb1_bonus(1, ln_n, c).to_bits(), (c * ln_n.sqrt()).to_bits());
    }
}
