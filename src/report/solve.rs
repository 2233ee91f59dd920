//! `mcts solve`: the exact result of a small Hex position, or of every move of it, with the
//! proof-number solver ([`crate::game::hex::dfpn`]) or the negamax ([`crate::game::hex_solve`]),
//! and with a net's value head beside each move.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;

use super::ReportError;
use crate::game::hex::dfpn::{Dfpn, DfpnConfig, DfpnStats};
use crate::game::hex_solve::{solve, SolveError, SolveLimits};
use crate::game::{AnyGame, Game, Hex};
use crate::limits::abbreviate;
use crate::nn::{Mlp, NetEvaluator};

/// Which exact solver runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solver {
    /// Depth-first proof-number search (the default).
    #[default]
    Dfpn,
    /// Negamax with proof sets (the reference).
    Negamax,
}

impl Solver {
    /// `dfpn` or `negamax` (JSON key `solver`).
    pub fn name(self) -> &'static str {
        match self {
            Solver::Dfpn => "dfpn",
            Solver::Negamax => "negamax",
        }
    }

    /// The solver named `dfpn` or `negamax`.
    ///
    /// # Errors
    /// Any other name.
    pub fn from_name(name: &str) -> Result<Solver, ReportError> {
        match name {
            "dfpn" => Ok(Solver::Dfpn),
            "negamax" => Ok(Solver::Negamax),
            other => Err(ReportError::Engine(format!("solver '{}': expected dfpn or negamax", abbreviate(other)))),
        }
    }
}

/// `mcts solve`'s options, with its defaults ([`SolveOptions::default`]).
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Solve every move of the position instead of the position itself.
    pub openings: bool,
    /// With `openings`: a net whose value head is printed after each move.
    pub net: Option<PathBuf>,
    /// The solver.
    pub solver: Solver,
    /// Positions the solver may visit per solve (dfpn: nodes created; negamax: positions).
    pub max_nodes: u64,
    /// dfpn without virtual connections.
    pub no_vc: bool,
    /// dfpn's ε of the 1+ε trick, 0 ..= 4.
    pub epsilon: f64,
    /// dfpn's widening factor, (0, 1].
    pub widening: f64,
    /// dfpn without the inferior-cell fill-in.
    pub no_fillin: bool,
    /// Seconds per solve (dfpn only; 0 = no limit), 0 ..= 10,000,000.
    pub time: f64,
    /// The dfpn transposition table in MiB, 16 ..= 16384.
    pub tt_mib: u32,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            openings: false,
            net: None,
            solver: Solver::Dfpn,
            max_nodes: SolveLimits::default().max_nodes,
            no_vc: false,
            epsilon: 0.0,
            widening: 0.25,
            no_fillin: false,
            time: 0.0,
            tt_mib: 256,
        }
    }
}

impl SolveOptions {
    /// Checks the ranges `mcts solve`'s argument reader checks.
    ///
    /// # Errors
    /// The first option out of its range, named.
    pub fn check(&self) -> Result<(), ReportError> {
        let bad = |what: &str, v: String, range: &str| Err(ReportError::Engine(format!("{what} {v}: {range}")));
        if !(self.time.is_finite() && (0.0..=1e7).contains(&self.time)) {
            return bad("time", self.time.to_string(), "seconds from 0 to 10000000");
        }
        if !(0.0..=4.0).contains(&self.epsilon) {
            return bad("epsilon", self.epsilon.to_string(), "a number from 0 to 4");
        }
        if !(self.widening > 0.0 && self.widening <= 1.0) {
            return bad("widening", self.widening.to_string(), "a number above 0 and at most 1");
        }
        if !(16..=16384).contains(&self.tt_mib) {
            return bad("tt_mib", self.tt_mib.to_string(), "MiB from 16 to 16384");
        }
        if self.net.is_some() && !self.openings {
            return Err(ReportError::Engine("a net is only used with openings (every move of the position)".into()));
        }
        Ok(())
    }
}

/// One of the two solvers with its budget; a dfpn solver keeps its table from solve to solve.
struct Engine {
    dfpn: Option<Dfpn>,
    limits: SolveLimits,
    seconds: f64,
}

/// A result: winner, winning move, nodes.
type Result3 = (u8, Option<u16>, u64);

impl Engine {
    fn solve(&mut self, g: &Hex) -> Result<Result3, SolveError> {
        let Some(d) = self.dfpn.as_mut() else {
            let s = solve(g, self.limits)?;
            return Ok((s.winner, s.winning_move, s.nodes));
        };
        let (start, t0) = (d.stats().expansions, Instant::now());
        let (max, secs) = (self.limits.max_nodes, self.seconds);
        let mut stop = |st: &DfpnStats| st.expansions - start >= max || (secs > 0.0 && t0.elapsed().as_secs_f64() >= secs);
        match d.solve(g, &mut stop)? {
            Some(s) => Ok((s.winner, s.winning_move, d.stats().expansions - start)),
            None if secs > 0.0 && t0.elapsed().as_secs_f64() >= secs => Err(SolveError::Time(secs)),
            None => Err(SolveError::Budget(max)),
        }
    }
}

/// Peak resident memory of this process in KiB (`VmHWM` of `/proc/self/status`), where the
/// system has it.
fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `black` (player 0) or `white`.
fn name(p: u8) -> &'static str {
    if p == 0 {
        "black"
    } else {
        "white"
    }
}

/// One move of [`SolveReport::Openings`].
#[derive(Clone, Debug)]
pub struct OpeningResult {
    /// The move.
    pub mv: String,
    /// Whether the player who made it wins; `None` when the budget did not settle it.
    pub mover_wins: Option<bool>,
    /// The net's value head after the move, for the player who made it (with a net).
    pub net_value: Option<f32>,
    /// Positions the solver visited on it.
    pub nodes: u64,
}

/// What [`solve_position`] found.
#[derive(Clone, Debug)]
pub enum SolveReport {
    /// The position itself solved.
    Position {
        /// The JSON `mcts solve --json` prints.
        json: serde_json::Value,
        /// The winner, 0 (Black) or 1.
        winner: u8,
        /// A winning move for the side to move, if it wins.
        winning_move: Option<String>,
        /// Positions visited.
        nodes: u64,
        /// Milliseconds.
        ms: f64,
    },
    /// Every move of the position solved (`openings`).
    Openings {
        /// The JSON `mcts solve --openings --json` prints.
        json: serde_json::Value,
        /// The side to move, who makes each move.
        mover: u8,
        /// Each move's result, in the order of the legal moves.
        rows: Vec<OpeningResult>,
        /// Moves the budget did not settle.
        unknown: usize,
        /// Settled moves where the net's sign agrees with the exact result (with a net).
        agree: Option<usize>,
        /// Milliseconds.
        ms: f64,
    },
}

impl SolveReport {
    /// The report as `mcts solve --json` prints it.
    pub fn json(&self) -> &serde_json::Value {
        match self {
            SolveReport::Position { json, .. } | SolveReport::Openings { json, .. } => json,
        }
    }
}

/// Solves the position after `moves` (as written, separated by spaces) of `game` (`hex:N`, N ≤ 8,
/// no swap), or with `opts.openings` every move of it. `game` and `moves` appear in the report
/// as given.
///
/// # Errors
/// A spec that is not Hex, a board too large, the swap rule, an illegal move, an option out of
/// range, a budget that ran out (solving the position itself), or a net file that cannot be read
/// or is not for this board.
pub fn solve_position(game: &str, moves: &str, opts: &SolveOptions) -> Result<SolveReport, ReportError> {
    opts.check()?;
    let list: Vec<&str> = moves.split_whitespace().collect();
    let g = match super::position(game, &list)? {
        AnyGame::Hex(h) => h,
        _ => return Err(ReportError::Engine(format!("'{}': the exact solver is for Hex (hex:N, N <= 8)", abbreviate(game)))),
    };
    let limits = SolveLimits { max_nodes: opts.max_nodes };
    let err = |e: SolveError| ReportError::Engine(e.to_string());
    let dfpn = (opts.solver == Solver::Dfpn).then(|| {
        let entries = (opts.tt_mib as u64) << 20 >> 6;
        Dfpn::new(DfpnConfig {
            tt_log2: 63 - entries.leading_zeros(),
            vc: !opts.no_vc,
            fillin: !opts.no_fillin,
            epsilon: opts.epsilon as f32,
            widening_factor: opts.widening as f32,
            ..DfpnConfig::default()
        })
    });
    let solver_name = opts.solver.name();
    let mut engine = Engine { dfpn, limits, seconds: opts.time };
    if !opts.openings {
        let t = Instant::now();
        let (winner, winning_move, nodes) = engine.solve(&g).map_err(err)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let mv = winning_move.map(|m| g.format_move(m));
        let mut v = json!({"game": game, "moves": moves, "to_move": name(g.to_move()), "winner": name(winner),
            "winning_move": mv, "nodes": nodes, "ms": ms, "solver": solver_name});
        if let Some(d) = &engine.dfpn {
            let st = d.stats();
            v["mid_calls"] = json!(st.mid_calls);
            v["vc_builds"] = json!(st.vc_builds);
            v["tt_entries"] = json!(st.tt_used);
            v["tt_bytes"] = json!(d.tt_bytes());
        }
        if let Some(kib) = peak_rss_kib() {
            v["peak_rss_kib"] = json!(kib);
        }
        return Ok(SolveReport::Position { json: v, winner, winning_move: mv, nodes, ms });
    }
    if g.outcome().is_some() {
        return Err(ReportError::GameOver);
    }
    let net = match &opts.net {
        Some(p) => {
            let bytes = crate::nn::file::read_net(p).map_err(ReportError::engine)?;
            let net = Mlp::from_bytes(&bytes).map_err(|e| ReportError::Engine(format!("{}: {e}", p.display())))?;
            let spec = g.spec();
            if net.spec != spec {
                return Err(ReportError::Engine(format!("{}: a net for '{}', not '{spec}'", p.display(), abbreviate(&net.spec))));
            }
            Some(NetEvaluator::<Hex>::new(Arc::new(net), &spec).map_err(ReportError::engine)?)
        }
        None => None,
    };
    let mover = g.to_move();
    let mut legal = crate::game::MoveList::new();
    g.legal_moves(&mut legal);
    let mut logits = vec![0f32; g.size() * g.size()];
    let (mut rows, mut wins, mut agree, mut unknown) = (Vec::new(), 0usize, 0, 0);
    let t = Instant::now();
    for &m in &legal {
        let mut c = g.clone();
        c.play_unchecked(m);
        let before = engine.dfpn.as_ref().map_or(0, |d| d.stats().expansions);
        // A move the budget does not settle is reported unknown; the others still count.
        let (mover_wins, nodes) = match engine.solve(&c) {
            Ok((winner, _, nodes)) => (Some(winner == mover), nodes),
            Err(SolveError::Time(_) | SolveError::Budget(_)) => {
                unknown += 1;
                (None, engine.dfpn.as_ref().map_or(opts.max_nodes, |d| d.stats().expansions - before))
            }
            Err(e) => return Err(err(e)),
        };
        // The value head speaks for the side to move after m; the mover's value is its negation.
        let value = net.as_ref().map(|ev| -ev.forward(&c, &mut logits));
        if let (Some(v), Some(w)) = (value, mover_wins) {
            if (v > 0.0) == w {
                agree += 1;
            }
        }
        wins += usize::from(mover_wins == Some(true));
        rows.push(OpeningResult { mv: g.format_move(m), mover_wins, net_value: value, nodes });
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let solved = rows.len() - unknown;
    let winner_name = |w: Option<bool>| w.map(|w| name(if w { mover } else { 1 - mover }));
    let openings: Vec<_> = rows
        .iter()
        .map(|r| {
            let mut o = json!({"move": r.mv, "winner": winner_name(r.mover_wins), "mover_wins": r.mover_wins, "nodes": r.nodes});
            if let Some(v) = r.net_value {
                o["net_value"] = json!(v);
            }
            o
        })
        .collect();
    let mut v = json!({"game": game, "moves": moves, "mover": name(mover), "openings": openings,
        "mover_wins": wins, "unknown": unknown, "ms": ms, "solver": solver_name});
    if net.is_some() {
        v["agree"] = json!(agree);
        v["agree_of"] = json!(solved);
    }
    Ok(SolveReport::Openings { json: v, mover, rows, unknown, agree: net.is_some().then_some(agree), ms })
}
