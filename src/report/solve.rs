//! `mcts solve`: the exact result of a small position, or of every move of it: Hex with the
//! proof-number solver ([`crate::solve::hex::dfpn`]) or the negamax ([`crate::solve::hex::negamax`]),
//! and with a net's value head beside each move; Tic-Tac-Toe and Pentago endgames with the
//! alpha-beta endgame solver ([`crate::solve::endgame`]), whose values include draws.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;

use super::ReportError;
use crate::game::registry::Registered;
use crate::game::{AnyGame, Game, Hex, MoveList};
use crate::limits::abbreviate;
use crate::nn::{Net, NetEvaluator};
use crate::solve::endgame::{self, Exact, ExactConfig, ExactError, ExactStats, Value};
use crate::solve::hex::dfpn::{Dfpn, DfpnConfig, DfpnStats};
use crate::solve::hex::negamax::{solve_with_table, SolveLimits, TableUse, TT_SLOT_BYTES};
use crate::solve::hex::SolveError;
use crate::solve::table::{self, TableMemoryError};

/// Which exact solver runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solver {
    /// Depth-first proof-number search (the default for Hex).
    #[default]
    Dfpn,
    /// Negamax with proof sets (the Hex reference).
    Negamax,
    /// Alpha-beta over win/draw/loss ([`crate::solve::endgame`]): Tic-Tac-Toe and Pentago endgames.
    AlphaBeta,
}

impl Solver {
    /// `dfpn`, `negamax` or `alphabeta` (JSON key `solver`).
    pub fn name(self) -> &'static str {
        match self {
            Solver::Dfpn => "dfpn",
            Solver::Negamax => "negamax",
            Solver::AlphaBeta => "alphabeta",
        }
    }

    /// The solver named `dfpn`, `negamax` or `alphabeta`.
    ///
    /// # Errors
    /// Any other name.
    pub fn from_name(name: &str) -> Result<Solver, ReportError> {
        match name {
            "dfpn" => Ok(Solver::Dfpn),
            "negamax" => Ok(Solver::Negamax),
            "alphabeta" => Ok(Solver::AlphaBeta),
            other => Err(ReportError::Engine(format!("solver '{}': expected dfpn, negamax or alphabeta", abbreviate(other)))),
        }
    }
}

/// `mcts solve`'s options, with its defaults ([`SolveOptions::default`]).
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Solve every move of the position instead of the position itself.
    pub openings: bool,
    /// With `openings`: a net whose value head is printed after each move (Hex).
    pub net: Option<PathBuf>,
    /// The solver; `None`: the game's own (dfpn for Hex, alphabeta for Tic-Tac-Toe and
    /// Pentago).
    pub solver: Option<Solver>,
    /// Positions the solver may visit per solve (dfpn: nodes created; negamax and alphabeta:
    /// positions visited).
    pub max_nodes: u64,
    /// dfpn without virtual connections.
    pub no_vc: bool,
    /// dfpn's ε of the 1+ε trick, 0 ..= 4.
    pub epsilon: f64,
    /// dfpn's widening factor, (0, 1].
    pub widening: f64,
    /// dfpn without the inferior-cell fill-in.
    pub no_fillin: bool,
    /// Seconds per solve (every solver; 0 = no limit), 0 ..= 10,000,000.
    pub time: f64,
    /// The most memory of the solvers' transposition tables in MiB, 16 ..= 16384: one budget,
    /// split evenly between the `threads` (each table grows only as its solves need, up to its
    /// share).
    pub tt_mib: u32,
    /// With `openings` (Hex): threads solving the moves in parallel, 1 ..= 64, each with its own
    /// solver and its share of the table budget (a move is taken by the next free thread). One
    /// position is always solved by one thread.
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            openings: false,
            net: None,
            solver: None,
            max_nodes: SolveLimits::default().max_nodes,
            no_vc: false,
            epsilon: 0.0,
            widening: 0.25,
            no_fillin: false,
            time: 0.0,
            tt_mib: 256,
            threads: 1,
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
        if !(1..=64).contains(&self.threads) {
            return bad("threads", self.threads.to_string(), "from 1 to 64");
        }
        if self.net.is_some() && !self.openings {
            return Err(ReportError::Engine("a net is only used with openings (every move of the position)".into()));
        }
        Ok(())
    }
}

/// One of the two solvers with its budget; a dfpn solver keeps its table from solve to solve
/// (the negamax makes one per solve).
struct Engine {
    dfpn: Option<Dfpn>,
    limits: SolveLimits,
    seconds: f64,
    /// The negamax's largest table so far, and the refusal of its memory, if any.
    negamax_table: TableUse,
}

/// A result: winner, winning move, nodes.
type Result3 = (u8, Option<u16>, u64);

/// One move of `--openings`: whether its mover wins (`None`: not settled within the budget) and
/// the nodes its solve took.
type MoveResult = Result<(Option<bool>, u64), SolveError>;

impl Engine {
    fn solve(&mut self, g: &Hex) -> Result<Result3, SolveError> {
        let Some(d) = self.dfpn.as_mut() else {
            let (s, t) = solve_with_table(g, self.limits)?;
            let n = &mut self.negamax_table;
            n.bytes = n.bytes.max(t.bytes);
            n.max_bytes = n.max_bytes.max(t.max_bytes);
            n.refused = n.refused.or(t.refused);
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

    /// The engine's table: bytes allocated (the largest, for the negamax), the most it may
    /// take, and a refused doubling.
    fn table(&self) -> TableUse {
        match &self.dfpn {
            Some(d) => TableUse { bytes: d.tt_bytes(), max_bytes: d.tt_max_bytes(), refused: d.tt_refused() },
            None => self.negamax_table,
        }
    }
}

/// Adds the table figures to a report: `tt_bytes` (allocated, over every thread),
/// `tt_max_bytes` (the most the tables could have taken: the budget, rounded down to powers of
/// two of entries) and, when the system refused a table's doubling, `tt_note`, a sentence.
fn table_json(v: &mut serde_json::Value, tables: &[TableUse]) {
    v["tt_bytes"] = json!(tables.iter().map(|t| t.bytes).sum::<usize>());
    v["tt_max_bytes"] = json!(tables.iter().map(|t| t.max_bytes).sum::<usize>());
    if let Some(e) = tables.iter().find_map(|t| t.refused) {
        v["tt_note"] = json!(refused_note(e));
    }
}

/// What a report says of a table whose doubling the system refused.
fn refused_note(e: TableMemoryError) -> String {
    format!("{e}; the solver went on with the table it had (its results are exact, the search may have been slower)")
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

pub use super::player_name;

/// One move of [`SolveReport::Openings`].
#[derive(Clone, Debug)]
pub struct OpeningResult {
    /// The move.
    pub mv: String,
    /// Whether the player who made it wins; `None` when the budget did not settle it.
    pub mover_wins: Option<bool>,
    /// The exact value for the player who made it (win, draw or loss); `None` when the budget
    /// did not settle it.
    pub value: Option<Value>,
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
        /// The value for the side to move.
        value: Value,
        /// The winner, 0 (Black, X) or 1; `None` for a draw.
        winner: Option<u8>,
        /// The winner's name (`black`, `white`, `x`, `o`); `None` for a draw.
        winner_name: Option<&'static str>,
        /// A winning move for the side to move, if it wins.
        winning_move: Option<String>,
        /// A move that keeps the value (winning or drawing), if it is not a loss.
        best_move: Option<String>,
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
        /// The names of the players, 0 then 1 (`black`/`white`, or `x`/`o` in Tic-Tac-Toe).
        names: [&'static str; 2],
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

/// Solves the position after `moves` (as written, separated by spaces) of `game`, or with
/// `opts.openings` every move of it: Hex (`hex:N`, N ≤ 8, no swap) with dfpn or negamax,
/// Tic-Tac-Toe and Pentago endgames ([`endgame::check`]) with alphabeta. `game` and `moves` appear
/// in the report as given.
///
/// # Errors
/// A spec the solvers do not take (the swap rule, a board too large, a Pentago position with too
/// many empty cells), a solver that is not for this game, an illegal move, an option out of
/// range, a budget that ran out (solving the position itself), or a net file that cannot be read
/// or is not for this board (or a net with a game other than Hex).
pub fn solve_position(game: &str, moves: &str, opts: &SolveOptions) -> Result<SolveReport, ReportError> {
    opts.check()?;
    let list: Vec<&str> = moves.split_whitespace().collect();
    let g = match super::position(game, &list)? {
        AnyGame::Hex(h) => h,
        other => return solve_endgame(other, game, moves, opts),
    };
    let solver = opts.solver.unwrap_or(Solver::Dfpn);
    if solver == Solver::AlphaBeta {
        return Err(ReportError::Engine(
            "the alphabeta solver is for Tic-Tac-Toe and Pentago endgames; Hex is solved by dfpn or negamax".into(),
        ));
    }
    let err = |e: SolveError| ReportError::Engine(e.to_string());
    // An engine whose table may take `bytes` (its share of the budget).
    let new_engine = |bytes: u64| -> Result<Engine, SolveError> {
        let limits =
            SolveLimits { max_nodes: opts.max_nodes, seconds: opts.time, tt_log2: table::log2_within(bytes, TT_SLOT_BYTES).max(1) };
        let dfpn = match solver {
            Solver::Dfpn => Some(Dfpn::new(DfpnConfig {
                tt_log2: table::log2_within(bytes, 64),
                vc: !opts.no_vc,
                fillin: !opts.no_fillin,
                epsilon: opts.epsilon as f32,
                widening_factor: opts.widening as f32,
                ..DfpnConfig::default()
            })?),
            _ => None,
        };
        Ok(Engine { dfpn, limits, seconds: opts.time, negamax_table: TableUse { bytes: 0, max_bytes: 0, refused: None } })
    };
    let budget = (opts.tt_mib as u64) << 20;
    let solver_name = solver.name();
    if !opts.openings {
        let mut engine = new_engine(budget).map_err(err)?;
        let t = Instant::now();
        let (winner, winning_move, nodes) = engine.solve(&g).map_err(err)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let mv = winning_move.map(|m| g.format_move(m));
        let value = if winner == g.to_move() { Value::Win } else { Value::Loss };
        let mut v = json!({"game": game, "moves": moves, "to_move": name(g.to_move()), "winner": name(winner),
            "winning_move": mv, "best_move": mv, "value": value.name(), "nodes": nodes, "ms": ms, "solver": solver_name});
        if let Some(d) = &engine.dfpn {
            let st = d.stats();
            v["mid_calls"] = json!(st.mid_calls);
            v["vc_builds"] = json!(st.vc_builds);
            v["tt_entries"] = json!(st.tt_used);
        }
        table_json(&mut v, &[engine.table()]);
        if let Some(kib) = peak_rss_kib() {
            v["peak_rss_kib"] = json!(kib);
        }
        return Ok(SolveReport::Position {
            json: v,
            value,
            winner: Some(winner),
            winner_name: Some(name(winner)),
            best_move: mv.clone(),
            winning_move: mv,
            nodes,
            ms,
        });
    }
    if g.outcome().is_some() {
        return Err(ReportError::GameOver);
    }
    let net = match &opts.net {
        Some(p) => {
            let bytes = crate::nn::file::read_net(p).map_err(ReportError::engine)?;
            let net = Net::from_bytes(&bytes).map_err(|e| ReportError::Engine(format!("{}: {e}", p.display())))?;
            let spec = g.spec();
            if net.spec() != spec {
                return Err(ReportError::Engine(format!("{}: a net for '{}', not '{spec}'", p.display(), abbreviate(net.spec()))));
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
    // Each move's result (mover wins or not settled, nodes), solved by one engine or by
    // `threads` engines taking the next unsolved move.
    let solve_one = |engine: &mut Engine, m: u16| -> MoveResult {
        let mut c = g.clone();
        c.play_unchecked(m);
        let before = engine.dfpn.as_ref().map_or(0, |d| d.stats().expansions);
        // A move the budget does not settle is reported unknown; the others still count.
        match engine.solve(&c) {
            Ok((winner, _, nodes)) => Ok((Some(winner == mover), nodes)),
            Err(SolveError::Time(_) | SolveError::Budget(_)) => {
                Ok((None, engine.dfpn.as_ref().map_or(opts.max_nodes, |d| d.stats().expansions - before)))
            }
            Err(e) => Err(e),
        }
    };
    let moves_list: Vec<u16> = legal.iter().copied().collect();
    // One budget for every thread's table: each engine gets an even share.
    let threads = opts.threads.clamp(1, moves_list.len().max(1));
    let share = table::share(budget, threads);
    let mut tables = Vec::new();
    let results: Vec<MoveResult> = if threads <= 1 {
        let mut engine = new_engine(share).map_err(err)?;
        let r = moves_list.iter().map(|&m| solve_one(&mut engine, m)).collect();
        tables.push(engine.table());
        r
    } else {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let slots: Vec<std::sync::Mutex<Option<MoveResult>>> = moves_list.iter().map(|_| std::sync::Mutex::new(None)).collect();
        let used: Vec<Result<TableUse, SolveError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut engine = new_engine(share)?;
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&m) = moves_list.get(i) else { break };
                            let r = solve_one(&mut engine, m);
                            if let Ok(mut slot) = slots[i].lock() {
                                *slot = Some(r);
                            }
                        }
                        Ok(engine.table())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(Err(SolveError::Budget(0)))).collect()
        });
        for t in used {
            tables.push(t.map_err(err)?);
        }
        slots.into_iter().map(|s| s.into_inner().ok().flatten().unwrap_or(Err(SolveError::Budget(0)))).collect()
    };
    for (&m, r) in moves_list.iter().zip(results) {
        let (mover_wins, nodes) = r.map_err(err)?;
        unknown += usize::from(mover_wins.is_none());
        let mut c = g.clone();
        c.play_unchecked(m);
        // The value head speaks for the side to move after m; the mover's value is its negation.
        let value = net.as_ref().map(|ev| -ev.forward(&c, &mut logits));
        if let (Some(v), Some(w)) = (value, mover_wins) {
            if (v > 0.0) == w {
                agree += 1;
            }
        }
        wins += usize::from(mover_wins == Some(true));
        let exact = mover_wins.map(|w| if w { Value::Win } else { Value::Loss });
        rows.push(OpeningResult { mv: g.format_move(m), mover_wins, value: exact, net_value: value, nodes });
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let solved = rows.len() - unknown;
    let winner_name = |w: Option<bool>| w.map(|w| name(if w { mover } else { 1 - mover }));
    let openings: Vec<_> = rows
        .iter()
        .map(|r| {
            let mut o = json!({"move": r.mv, "winner": winner_name(r.mover_wins), "mover_wins": r.mover_wins,
                "value": r.value.map(Value::name), "nodes": r.nodes});
            if let Some(v) = r.net_value {
                o["net_value"] = json!(v);
            }
            o
        })
        .collect();
    let mut v = json!({"game": game, "moves": moves, "mover": name(mover), "openings": openings,
        "mover_wins": wins, "mover_draws": 0, "unknown": unknown, "ms": ms, "solver": solver_name});
    if net.is_some() {
        v["agree"] = json!(agree);
        v["agree_of"] = json!(solved);
    }
    table_json(&mut v, &tables);
    Ok(SolveReport::Openings { json: v, mover, names: ["black", "white"], rows, unknown, agree: net.is_some().then_some(agree), ms })
}

/// One solve of the endgame solver with the options' budget, of a position whose value is at
/// least `floor` ([`Exact::solve_above`]): the result and the positions it visited.
fn endgame_solve<G: Game>(
    s: &mut Exact<G>,
    g: &G,
    floor: Value,
    opts: &SolveOptions,
) -> Result<(endgame::Solved<G::Move>, u64), ExactError> {
    let (start, t0) = (s.stats().nodes, Instant::now());
    let (max, secs) = (opts.max_nodes, opts.time);
    let mut stop = |st: &ExactStats| st.nodes - start >= max || (secs > 0.0 && t0.elapsed().as_secs_f64() >= secs);
    match s.solve_above(g, floor, &mut stop) {
        Some(r) => Ok((r, s.stats().nodes - start)),
        None if secs > 0.0 && t0.elapsed().as_secs_f64() >= secs => Err(ExactError::Time(secs)),
        None => Err(ExactError::Budget(max)),
    }
}

/// [`solve_position`] for the games of the endgame solver (not Hex).
fn solve_endgame(any: AnyGame, game: &str, moves: &str, opts: &SolveOptions) -> Result<SolveReport, ReportError> {
    match opts.solver {
        None | Some(Solver::AlphaBeta) => {}
        Some(other) => {
            return Err(ReportError::Engine(format!(
                "the {} solver is for Hex; {} is solved by alphabeta",
                other.name(),
                any.facts().title
            )))
        }
    }
    if opts.net.is_some() {
        return Err(ReportError::Engine("a net's value head is compared with exact results on Hex only".into()));
    }
    endgame::check(&any).map_err(ReportError::engine)?;
    let cfg = ExactConfig::with_mib(opts.tt_mib).fit(&any);
    crate::with_game!(&any, g => endgame_report(g, game, moves, cfg, opts))
}

/// The report of the endgame solver on `g` (see [`solve_position`]).
fn endgame_report<G: Registered>(
    g: &G,
    game: &str,
    moves: &str,
    cfg: ExactConfig,
    opts: &SolveOptions,
) -> Result<SolveReport, ReportError> {
    let mut solver = Exact::<G>::new(cfg).map_err(ReportError::engine)?;
    let solver_name = Solver::AlphaBeta.name();
    let me = g.to_move();
    let names = [player_name(g, 0), player_name(g, 1)];
    if !opts.openings {
        let t = Instant::now();
        let (r, nodes) = endgame_solve(&mut solver, g, Value::Loss, opts).map_err(ReportError::engine)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let winner = r.value.winner(me);
        let best = r.best.map(|m| g.format_move(m));
        let winning = if r.value == Value::Win { best.clone() } else { None };
        let winner_name = winner.map(|p| names[p as usize]);
        let st = solver.stats();
        let mut v = json!({"game": game, "moves": moves, "to_move": names[me as usize], "winner": winner_name,
            "winning_move": winning, "best_move": best, "value": r.value.name(), "nodes": nodes, "ms": ms,
            "solver": solver_name, "tt_entries": st.tt_used});
        table_json(&mut v, &[endgame_table(&solver)]);
        if let Some(kib) = peak_rss_kib() {
            v["peak_rss_kib"] = json!(kib);
        }
        return Ok(SolveReport::Position {
            json: v,
            value: r.value,
            winner,
            winner_name,
            winning_move: winning,
            best_move: best,
            nodes,
            ms,
        });
    }
    if g.outcome().is_some() {
        return Err(ReportError::GameOver);
    }
    let mut legal = MoveList::new();
    g.legal_moves(&mut legal);
    let mut rows = Vec::new();
    let t = Instant::now();
    // The root first when the budget allows: each move's value is then at most the root's, which
    // narrows each move's search (the position's own positions are not in any row's count).
    let floor = endgame_solve(&mut solver, g, Value::Loss, opts).map_or(Value::Loss, |(r, _)| r.value.flip());
    for &m in &legal {
        let mut c = g.clone();
        c.play_unchecked(m);
        // A move the budget does not settle is reported unknown; the others still count.
        let (value, nodes) = match c.outcome() {
            Some(o) => (Some(Value::of_outcome(o, me)), 0),
            None => {
                let before = solver.stats().nodes;
                match endgame_solve(&mut solver, &c, floor, opts) {
                    Ok((r, nodes)) => (Some(r.value.flip()), nodes),
                    Err(ExactError::Time(_) | ExactError::Budget(_)) => (None, solver.stats().nodes - before),
                    Err(e) => return Err(ReportError::engine(e)),
                }
            }
        };
        rows.push(OpeningResult { mv: g.format_move(m), mover_wins: value.map(|v| v == Value::Win), value, net_value: None, nodes });
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let count = |v: Value| rows.iter().filter(|r| r.value == Some(v)).count();
    let (wins, draws) = (count(Value::Win), count(Value::Draw));
    let unknown = rows.iter().filter(|r| r.value.is_none()).count();
    let openings: Vec<_> = rows
        .iter()
        .map(|r| {
            let winner = r.value.and_then(|v| v.winner(me)).map(|p| names[p as usize]);
            json!({"move": r.mv, "winner": winner, "mover_wins": r.mover_wins, "value": r.value.map(Value::name), "nodes": r.nodes})
        })
        .collect();
    let mut v = json!({"game": game, "moves": moves, "mover": names[me as usize], "openings": openings,
        "mover_wins": wins, "mover_draws": draws, "unknown": unknown, "ms": ms, "solver": solver_name});
    table_json(&mut v, &[endgame_table(&solver)]);
    Ok(SolveReport::Openings { json: v, mover: me, names, rows, unknown, agree: None, ms })
}

/// The endgame solver's table figures.
fn endgame_table<G: Game>(s: &Exact<G>) -> TableUse {
    TableUse { bytes: s.tt_bytes(), max_bytes: s.tt_max_bytes(), refused: s.tt_refused() }
}
