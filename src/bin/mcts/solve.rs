//! `mcts solve`: exact results of small Hex positions (the proof-number solver
//! `mcts_playground::solve::hex::dfpn`, or the negamax `mcts_playground::solve::hex::negamax`) and of
//! Tic-Tac-Toe and Pentago endgames (the alpha-beta `mcts_playground::solve::endgame`, with draws),
//! and with `--openings` every move's result, optionally next to a net's value head (Hex).

use std::path::PathBuf;

use mcts_playground::limits::abbreviate;
use mcts_playground::report::{self, SolveOptions, SolveReport};
use mcts_playground::solve::endgame::Value;
use mcts_playground::solve::hex::negamax::SolveLimits;

use crate::error::CliError;

/// Arguments of `mcts solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position: `--game hex:N` (no `:swap`, N ≤ 8; 6×6 and up only with stones on the
    /// board), `--game tictactoe`, or `--game pentago[:rules][:dedup]` with at most 16 empty
    /// cells (20 or more stones placed), and `--moves`.
    #[command(flatten)]
    pos: crate::replay::PositionArgs,
    /// Solve every move of the position (for the empty board: every opening) instead of the
    /// position itself.
    #[arg(long)]
    openings: bool,
    /// With --openings (Hex): also print this net's value head after each move (for the player
    /// who made it) and count where its sign agrees with the exact result.
    #[arg(long, value_name = "FILE.mctsnet", requires = "openings")]
    net: Option<PathBuf>,
    /// The solver: for Hex `dfpn` (depth-first proof-number search, `solve::hex::dfpn`; the
    /// default) or `negamax` (the older exact negamax, `solve::hex::negamax`, kept as the
    /// reference); for Tic-Tac-Toe and Pentago `alphabeta` (alpha-beta over win/draw/loss with
    /// a transposition table, `solve::endgame`; the only one, and the default there).
    #[arg(long, value_enum)]
    solver: Option<Solver>,
    /// Positions the solver may visit per solve before it gives up (dfpn: nodes created;
    /// negamax and alphabeta: positions visited).
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
    /// Seconds per solve before it gives up (every solver; 0 = no limit).
    #[arg(long, default_value_t = 0.0, value_parser = parse_seconds)]
    time: f64,
    /// The most memory of the transposition tables in MiB, one budget for all --threads (dfpn:
    /// 64-byte entries; negamax: 32-byte; alphabeta: 24-byte; rounded down to a power of two
    /// of entries; 16..=16384). A table starts at 1,024 entries and grows only as the solve
    /// needs.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(16..=16384))]
    tt_mib: u32,
    /// With --openings (Hex): threads solving the moves in parallel (1..=64), each with its own
    /// solver and an even share of --tt-mib; one position is always solved by one thread (the
    /// proof-number search itself is sequential).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Print one JSON object: {game, moves, to_move, winner, winning_move, best_move, value,
    /// nodes, ms, solver, mid_calls?, tt_entries?, tt_bytes, tt_max_bytes, tt_note?,
    /// peak_rss_kib?} or, with --openings, {game, moves, mover, openings: [{move, winner,
    /// mover_wins, value, nodes, net_value?}], mover_wins, mover_draws, unknown, agree?,
    /// agree_of?, ms, solver, tt_bytes, tt_max_bytes, tt_note?}. `value` is "win", "draw" or
    /// "loss" for the side to move (for each opening: for the player who made it); `winner` is
    /// the winner's name ("black"/"white"; "x"/"o" in Tic-Tac-Toe), null for a draw;
    /// `best_move` keeps the value (a winning or drawing move; null for a loss). An opening the
    /// budget does not settle has `winner`, `mover_wins` and `value` null and counts in
    /// `unknown` (`agree` is out of the `agree_of` solved ones). `tt_bytes` is what the tables
    /// took (over all threads), `tt_max_bytes` the most they could take, `tt_note` a sentence
    /// when the system refused a table's growth (the solve went on with the table it had).
    #[arg(long)]
    json: bool,
}

/// Which exact solver `mcts solve` runs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Solver {
    /// Depth-first proof-number search (Hex).
    Dfpn,
    /// Negamax with proof sets (Hex).
    Negamax,
    /// Alpha-beta over win/draw/loss (Tic-Tac-Toe, Pentago endgames).
    Alphabeta,
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

/// Runs the verb.
///
/// # Errors
/// A game or position no solver takes (a Hex board too large, the swap rule, a Pentago position
/// with too many empty cells), a solver not for this game, an illegal move, a budget that ran
/// out, or a net file that cannot be read or is not for this board.
pub fn run(a: Args) -> Result<(), CliError> {
    let opts = SolveOptions {
        openings: a.openings,
        net: a.net.clone(),
        solver: a.solver.map(|s| match s {
            Solver::Dfpn => report::Solver::Dfpn,
            Solver::Negamax => report::Solver::Negamax,
            Solver::Alphabeta => report::Solver::AlphaBeta,
        }),
        max_nodes: a.max_nodes,
        no_vc: a.no_vc,
        epsilon: a.epsilon,
        widening: a.widening,
        no_fillin: a.no_fillin,
        time: a.time,
        tt_mib: a.tt_mib,
        threads: a.threads.into(),
    };
    let r = report::solve::solve_position(&a.pos.game, &a.pos.moves, &opts)?;
    if let Some(note) = r.json()["tt_note"].as_str() {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "mcts: note: {note}");
    }
    if a.json {
        outln!("{}", r.json())?;
        return Ok(());
    }
    let solver_name = r.json()["solver"].as_str().unwrap_or("").to_string();
    match r {
        SolveReport::Position { value, winner_name, best_move, nodes, ms, .. } => {
            let result = match (value, winner_name) {
                (Value::Draw, _) => format!("draw with perfect play{}", best_move.map(|m| format!(", e.g. with {m}")).unwrap_or_default()),
                (_, Some(w)) => format!("{w} wins{}", best_move.map(|m| format!(", e.g. with {m}")).unwrap_or_default()),
                (_, None) => "?".into(),
            };
            outln!("{result} ({nodes} {}, {ms:.0} ms, {solver_name})", positions(nodes))?;
        }
        SolveReport::Openings { mover, names, rows, unknown, agree, ms, .. } => {
            let name = |p: u8| names[p as usize & 1];
            let say = |v: Value| match v {
                Value::Win => format!("{} wins", name(mover)),
                Value::Loss => format!("{} wins", name(1 - mover)),
                Value::Draw => "draw".to_string(),
            };
            for row in &rows {
                let (m, v, n) = (&row.mv, row.net_value, row.nodes);
                let Some(value) = row.value else {
                    let net_text = v.map(|v| format!("  net {v:+.3}")).unwrap_or_default();
                    outln!("{m:>4}  unknown within the budget{net_text}  ({n} {})", positions(n))?;
                    continue;
                };
                let w = value == Value::Win;
                let net_text =
                    v.map(|v| format!("  net {v:+.3} {}", if (v > 0.0) == w { "agrees" } else { "DISAGREES" })).unwrap_or_default();
                outln!("{m:>4}  {}{net_text}  ({n} {})", say(value), positions(n))?;
            }
            let with = |v: Value| rows.iter().filter(|r| r.value == Some(v)).map(|r| r.mv.as_str()).collect::<Vec<_>>();
            let (wins, draws) = (with(Value::Win), with(Value::Draw));
            let draw_text = if draws.is_empty() { String::new() } else { format!("; draws with {}: {}", draws.len(), draws.join(" ")) };
            let unknown_text = if unknown > 0 { format!("; {unknown} unknown within the budget") } else { String::new() };
            let win_text = if wins.is_empty() { String::new() } else { format!(": {}", wins.join(" ")) };
            outln!("{} wins with {} of {} moves{win_text}{draw_text}{unknown_text} ({ms:.0} ms)", name(mover), wins.len(), rows.len())?;
            if let Some(agree) = agree {
                outln!("the value head's sign agrees with the exact result on {agree} of {} solved moves", rows.len() - unknown)?;
            }
        }
    }
    Ok(())
}

/// "position" or "positions" for a count.
fn positions(n: u64) -> &'static str {
    if n == 1 {
        "position"
    } else {
        "positions"
    }
}
