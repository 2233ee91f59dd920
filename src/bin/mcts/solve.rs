//! `mcts solve`: exact results of small Hex positions (`mcts_playground::game::hex_solve`), and
//! with `--openings` every first move's result, optionally next to a net's value head.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use mcts_playground::game::hex_solve::{solve, SolveLimits};
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
    /// Positions the solver may visit per solve before it gives up.
    #[arg(long, default_value_t = SolveLimits::default().max_nodes)]
    max_nodes: u64,
    /// Print one JSON object: {game, moves, to_move, winner, winning_move, nodes, ms} or, with
    /// --openings, {game, moves, mover, openings: [{move, winner, mover_wins, nodes, net_value?}],
    /// mover_wins, agree?, ms}.
    #[arg(long)]
    json: bool,
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
    let err = |e: mcts_playground::game::hex_solve::SolveError| CliError::Engine(e.to_string());
    let name = |p: u8| if p == 0 { "black" } else { "white" };
    if !a.openings {
        let t = Instant::now();
        let s = solve(&g, limits).map_err(err)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let mv = s.winning_move.map(|m| g.format_move(m));
        if a.json {
            let v = json!({"game": a.pos.game, "moves": a.pos.moves, "to_move": name(g.to_move()), "winner": name(s.winner),
                "winning_move": mv, "nodes": s.nodes, "ms": ms});
            outln!("{v}")?;
        } else {
            outln!(
                "{} wins{} ({} positions, {ms:.0} ms)",
                name(s.winner),
                mv.map(|m| format!(", e.g. with {m}")).unwrap_or_default(),
                s.nodes
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
    let (mut rows, mut wins, mut agree) = (Vec::new(), Vec::new(), 0);
    let t = Instant::now();
    for &m in &moves {
        let mut c = g.clone();
        c.play_unchecked(m);
        let s = solve(&c, limits).map_err(err)?;
        let mover_wins = s.winner == mover;
        // The value head speaks for the side to move after m; the mover's value is its negation.
        let value = net.as_ref().map(|ev| -ev.forward(&c, &mut logits));
        if value.is_some_and(|v| (v > 0.0) == mover_wins) {
            agree += 1;
        }
        let text = g.format_move(m);
        if mover_wins {
            wins.push(text.clone());
        }
        rows.push((text, mover_wins, value, s.nodes));
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    if a.json {
        let openings: Vec<_> = rows
            .iter()
            .map(|(m, w, v, n)| {
                let mut o = json!({"move": m, "winner": name(if *w { mover } else { 1 - mover }), "mover_wins": w, "nodes": n});
                if let Some(v) = v {
                    o["net_value"] = json!(v);
                }
                o
            })
            .collect();
        let mut v = json!({"game": a.pos.game, "moves": a.pos.moves, "mover": name(mover), "openings": openings, "mover_wins": wins.len(), "ms": ms});
        if net.is_some() {
            v["agree"] = json!(agree);
        }
        outln!("{v}")?;
        return Ok(());
    }
    for (m, w, v, n) in &rows {
        let net_text = v.map(|v| format!("  net {v:+.3} {}", if (v > 0.0) == *w { "agrees" } else { "DISAGREES" })).unwrap_or_default();
        outln!("{m:>4}  {} wins{net_text}  ({n} positions)", name(if *w { mover } else { 1 - mover }))?;
    }
    outln!("{} wins with {} of {} moves: {} ({ms:.0} ms)", name(mover), wins.len(), rows.len(), wins.join(" "))?;
    if net.is_some() {
        outln!("the value head's sign agrees with the exact result on {agree} of {} moves", rows.len())?;
    }
    Ok(())
}
