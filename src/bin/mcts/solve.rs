//! `mcts solve`: exact results of small Hex positions (the proof-number solver
//! `mcts_playground::game::hex::dfpn`, or the negamax `mcts_playground::game::hex_solve`), and
//! with `--openings` every first move's result, optionally next to a net's value head.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use mcts_playground::game::hex::dfpn::{Dfpn, DfpnConfig};
use mcts_playground::game::hex_solve::{solve, SolveError, SolveLimits};
use mcts_playground::game::{AnyGame, Game, Hex};
use mcts_playground::nn::{Mlp, NetEvaluator};
use serde_json::json;

use crate::error::CliError;
use mcts_playground::limits::abbreviate;

/// Arguments of `mcts solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position: `--game hex:N` (no `:swap`, N ≤ 8; 6×6 and up only with stones on the
    /// board) and `--moves`.
    #[command(flatten)]
    pos: crate::replay::PositionArgs,
    /// Solve every move of the position (for the empty board: every opening) instead of the
    /// position itself.
    #[arg(long)]
    openings: bool,
    /// With --openings: also print this net's value head after each move (for the player who
    /// made it) and count where its sign agrees with the exact result.
    #[arg(long, value_name = "FILE.mctsnet", requires = "openings")]
    net: Option<PathBuf>,
    /// The solver: `dfpn` (depth-first proof-number search, `game::hex::dfpn`) or `negamax`
    /// (the older exact negamax, `game::hex_solve`, kept as the reference).
    #[arg(long, value_enum, default_value_t = Solver::Dfpn)]
    solver: Solver,
    /// Positions the solver may visit per solve before it gives up (dfpn: nodes created;
    /// negamax: positions visited).
    #[arg(long, default_value_t = SolveLimits::default().max_nodes)]
    max_nodes: u64,
    /// dfpn without virtual connections (an ablation: the must-play region and edge-to-edge
    /// connections off).
    #[arg(long)]
    no_vc: bool,
    /// dfpn's ε of the 1+ε trick (Pawlewicz & Lew 2007): a child is searched until its δ is
    /// (1 + ε) times its sibling's; 0 (benzene's default) is plain df-pn. 0..=4.
    #[arg(long, default_value_t = 0.0, value_parser = parse_epsilon)]
    epsilon: f64,
    /// dfpn's widening factor (benzene's `WideningFactor`): 1 + ⌈factor · L⌉ of the L live
    /// children count. Default 0.25 as benzene; 0 < factor ≤ 1.
    #[arg(long, default_value_t = 0.25, value_parser = parse_widening)]
    widening: f64,
    /// dfpn without the inferior-cell fill-in (an ablation).
    #[arg(long)]
    no_fillin: bool,
    /// Seconds per solve before it gives up (dfpn only; 0 = no limit).
    #[arg(long, default_value_t = 0.0, value_parser = parse_seconds)]
    time: f64,
    /// The dfpn transposition table in MiB (64-byte entries, rounded down to a power of two;
    /// 16..=16384).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(16..=16384))]
    tt_mib: u32,
    /// Print one JSON object: {game, moves, to_move, winner, winning_move, nodes, ms, solver,
    /// mid_calls?, tt_entries?, peak_rss_kib?} or, with --openings, {game, moves, mover,
    /// openings: [{move, winner, mover_wins, nodes, net_value?}], mover_wins, unknown, agree?,
    /// agree_of?, ms, solver}; an opening the budget does not settle has `winner` and
    /// `mover_wins` null and counts in `unknown` (`agree` is out of the `agree_of` solved ones).
    #[arg(long)]
    json: bool,
}

/// Which exact solver `mcts solve` runs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Solver {
    /// Depth-first proof-number search.
    Dfpn,
    /// Negamax with proof sets.
    Negamax,
}

/// `--time`: non-negative finite seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=1e7).contains(&x) => Ok(x),
        _ => Err(format!("'{}': seconds from 0 to 10000000", abbreviate(s))),
    }
}

/// `--epsilon`: 0..=4.
fn parse_epsilon(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=4.0).contains(&x) => Ok(x),
        _ => Err(format!("'{}': a number from 0 to 4", abbreviate(s))),
    }
}

/// `--widening`: (0, 1].
fn parse_widening(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err(format!("'{}': a number above 0 and at most 1", abbreviate(s))),
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
        let mut stop = |st: &mcts_playground::game::hex::dfpn::DfpnStats| {
            st.expansions - start >= max || (secs > 0.0 && t0.elapsed().as_secs_f64() >= secs)
        };
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

/// Runs the verb.
///
/// # Errors
/// A spec that is not Hex, a board too large, the swap rule, an illegal move, a budget that ran
/// out, or a net file that cannot be read or is not for this board.
pub fn run(a: Args) -> Result<(), CliError> {
    let g = match a.pos.position()? {
        AnyGame::Hex(h) => h,
        _ => return Err(CliError::Engine(format!("'{}': the exact solver is for Hex (hex:N, N <= 8)", a.pos.game))),
    };
    let limits = SolveLimits { max_nodes: a.max_nodes };
    let err = |e: SolveError| CliError::Engine(e.to_string());
    let dfpn = (a.solver == Solver::Dfpn).then(|| {
        let entries = (a.tt_mib as u64) << 20 >> 6;
        Dfpn::new(DfpnConfig {
            tt_log2: 63 - entries.leading_zeros(),
            vc: !a.no_vc,
            fillin: !a.no_fillin,
            epsilon: a.epsilon as f32,
            widening_factor: a.widening as f32,
            ..DfpnConfig::default()
        })
    });
    let solver_name = if dfpn.is_some() { "dfpn" } else { "negamax" };
    let mut engine = Engine { dfpn, limits, seconds: a.time };
    let name = |p: u8| if p == 0 { "black" } else { "white" };
    if !a.openings {
        let t = Instant::now();
        let (winner, winning_move, nodes) = engine.solve(&g).map_err(err)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let mv = winning_move.map(|m| g.format_move(m));
        if a.json {
            let mut v = json!({"game": a.pos.game, "moves": a.pos.moves, "to_move": name(g.to_move()), "winner": name(winner),
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
            outln!("{v}")?;
        } else {
            outln!(
                "{} wins{} ({} positions, {ms:.0} ms, {solver_name})",
                name(winner),
                mv.map(|m| format!(", e.g. with {m}")).unwrap_or_default(),
                nodes
            )?;
        }
        return Ok(());
    }
    if g.outcome().is_some() {
        return Err(CliError::GameOver);
    }
    let net = match &a.net {
        Some(p) => {
            let bytes = crate::search::read_net(p)?;
            let net = Mlp::from_bytes(&bytes).map_err(|e| CliError::Engine(format!("{}: {e}", p.display())))?;
            let spec = g.spec();
            if net.spec != spec {
                return Err(CliError::Engine(format!("{}: a net for '{}', not '{spec}'", p.display(), abbreviate(&net.spec))));
            }
            Some(NetEvaluator::<Hex>::new(Arc::new(net), &spec).map_err(|e| CliError::Engine(e.to_string()))?)
        }
        None => None,
    };
    let mover = g.to_move();
    let mut moves = mcts_playground::game::MoveList::new();
    g.legal_moves(&mut moves);
    let mut logits = vec![0f32; g.size() * g.size()];
    let (mut rows, mut wins, mut agree, mut unknown) = (Vec::new(), Vec::new(), 0, 0);
    let t = Instant::now();
    for &m in &moves {
        let mut c = g.clone();
        c.play_unchecked(m);
        let before = engine.dfpn.as_ref().map_or(0, |d| d.stats().expansions);
        // An opening the budget does not settle is reported unknown; the others still count.
        let (mover_wins, nodes) = match engine.solve(&c) {
            Ok((winner, _, nodes)) => (Some(winner == mover), nodes),
            Err(SolveError::Time(_) | SolveError::Budget(_)) => {
                unknown += 1;
                (None, engine.dfpn.as_ref().map_or(a.max_nodes, |d| d.stats().expansions - before))
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
        let text = g.format_move(m);
        if mover_wins == Some(true) {
            wins.push(text.clone());
        }
        rows.push((text, mover_wins, value, nodes));
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let solved = rows.len() - unknown;
    let winner_name = |w: Option<bool>| w.map(|w| name(if w { mover } else { 1 - mover }));
    if a.json {
        let openings: Vec<_> = rows
            .iter()
            .map(|(m, w, v, n)| {
                let mut o = json!({"move": m, "winner": winner_name(*w), "mover_wins": w, "nodes": n});
                if let Some(v) = v {
                    o["net_value"] = json!(v);
                }
                o
            })
            .collect();
        let mut v = json!({"game": a.pos.game, "moves": a.pos.moves, "mover": name(mover), "openings": openings,
            "mover_wins": wins.len(), "unknown": unknown, "ms": ms, "solver": solver_name});
        if net.is_some() {
            v["agree"] = json!(agree);
            v["agree_of"] = json!(solved);
        }
        outln!("{v}")?;
        return Ok(());
    }
    for (m, w, v, n) in &rows {
        let Some(w) = *w else {
            let net_text = v.map(|v| format!("  net {v:+.3}")).unwrap_or_default();
            outln!("{m:>4}  unknown within the budget{net_text}  ({n} positions)")?;
            continue;
        };
        let net_text = v.map(|v| format!("  net {v:+.3} {}", if (v > 0.0) == w { "agrees" } else { "DISAGREES" })).unwrap_or_default();
        outln!("{m:>4}  {} wins{net_text}  ({n} positions)", name(if w { mover } else { 1 - mover }))?;
    }
    let unknown_text = if unknown > 0 { format!("; {unknown} unknown within the budget") } else { String::new() };
    outln!("{} wins with {} of {} moves: {}{unknown_text} ({ms:.0} ms)", name(mover), wins.len(), rows.len(), wins.join(" "))?;
    if net.is_some() {
        outln!("the value head's sign agrees with the exact result on {agree} of {solved} solved moves")?;
    }
    Ok(())
}
