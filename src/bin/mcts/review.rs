//! `mcts review`: every position of a game searched (and solved where an exact solver reaches),
//! each move's win probability before and after, its class (Lichess's thresholds, exact
//! overrides) and each player's accuracy (`mcts_playground::report::review`).

use std::io::Read;
use std::path::PathBuf;

use mcts_playground::limits::{abbreviate, MAX_RECORD_BYTES};
use mcts_playground::record::{self, Record};
use mcts_playground::report::review::{review_threads, GameReview, Review, ReviewSettings, DEFAULT_PRESET, DEFAULT_SOLVE_MS};
use mcts_playground::report::ReportError;

use crate::error::CliError;
use crate::search::parse_ms;

/// Arguments of `mcts review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec: tictactoe, hex:N[:swap], pentago[:rules][:dedup]. With --record, the record's
    /// own spec must be this one.
    #[arg(long, short)]
    game: String,
    /// The main line: moves from the start in the reference notation, separated by spaces.
    #[arg(long, short, conflicts_with = "record", required_unless_present = "record")]
    moves: Option<String>,
    /// A game record file: the page's game JSON (`mcts-playground-game`), Hex SGF (HexGui's), or a
    /// move list (spec, then moves); its main line is reviewed (its variations are not: a note on
    /// stderr says so).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Search preset per position (default `best`, the page's engine default).
    #[arg(long, default_value = DEFAULT_PRESET)]
    preset: String,
    /// Budget per position in playouts (MCTS iterations); 10,000 when neither this nor --ms is
    /// given.
    #[arg(long, conflicts_with = "ms")]
    iterations: Option<u64>,
    /// Budget per position in milliseconds (0 ..= 2^53 − 1).
    #[arg(long, value_parser = parse_ms)]
    ms: Option<f64>,
    /// Exact-solve budget per position in milliseconds where a solver takes the position
    /// (Tic-Tac-Toe; Hex up to 8x8 without swap; Pentago with at most 16 empty cells); 0: no
    /// exact solving.
    #[arg(long, value_parser = parse_ms, default_value_t = DEFAULT_SOLVE_MS)]
    solve_ms: f64,
    /// The review's seed (position i is searched with seed + i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Positions reviewed in parallel on T threads (1 ..= 64); with --iterations the result equals
    /// one thread's.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Print one JSON object: {game, moves, settings, plies: [{ply, move, mover, value_before,
    /// value_after, loss, class, label, accuracy, best_move, pv, exact_before, exact_after,
    /// iterations, playouts}], summary: {<player>: {accuracy, best, good, inaccuracy, mistake,
    /// blunder}}, timing: [{position, search_ms, solve_ms, proven}]}. Values are the mover's win
    /// probability in [0, 1]; exact values "win", "draw", "loss" for the mover, or null.
    #[arg(long)]
    json: bool,
}

/// The main line of a record file, checked against `--game`.
///
/// # Errors
/// The file cannot be read or is larger than a record may be; it is not a record; its game is not
/// `spec`.
fn read_record(path: &std::path::Path, spec: &str) -> Result<Record, CliError> {
    let at = |e: &dyn std::fmt::Display| CliError::Engine(format!("{}: {e}", abbreviate(&path.display().to_string())));
    let file = std::fs::File::open(path).map_err(|e| at(&e))?;
    let mut text = String::new();
    file.take(MAX_RECORD_BYTES as u64 + 1).read_to_string(&mut text).map_err(|e| at(&e))?;
    if text.len() > MAX_RECORD_BYTES {
        return Err(at(&format!("the record is longer than {MAX_RECORD_BYTES} bytes, the most that is read")));
    }
    let r = record::parse_any(&text).map_err(|e| at(&e))?;
    let want = mcts_playground::game::AnyGame::from_spec(spec).map_err(ReportError::from)?.spec();
    if r.spec != want {
        return Err(at(&format!("the record is a game of {}, not of {want}", abbreviate(&r.spec))));
    }
    Ok(r)
}

/// Runs the verb.
///
/// # Errors
/// A bad spec, record, move or setting; a record over the move limit.
pub fn run(a: Args) -> Result<(), CliError> {
    let moves: Vec<String> = match (&a.record, &a.moves) {
        (Some(path), _) => {
            let r = read_record(path, &a.game)?;
            if !r.variations.is_empty() {
                eprintln!(
                    "note: the record has {} variation(s) off its main line; only the main line ({} moves) is reviewed",
                    r.variations.len(),
                    r.moves.len()
                );
            }
            r.moves
        }
        (None, Some(m)) => m.split_whitespace().map(str::to_string).collect(),
        (None, None) => Vec::new(),
    };
    let settings = ReviewSettings::new(Some(&a.preset), a.iterations, a.ms, Some(a.solve_ms), Some(a.seed))?;
    let mut review = Review::new(&a.game, &moves, settings)?;
    review_threads(&mut review, a.threads as usize)?;
    let r = review.report()?;
    if a.json {
        outln!("{}", serde_json::to_string(&r)?)?;
        return Ok(());
    }
    table(&r)
}

/// The human-readable review: one line per move, then each player's figures.
fn table(r: &GameReview) -> Result<(), CliError> {
    let s = &r.settings;
    let budget = match (s.iterations, s.ms) {
        (Some(n), _) => format!("{n} playouts"),
        (_, Some(ms)) => format!("{ms} ms"),
        _ => String::new(),
    };
    outln!(
        "{} · {} moves · preset {} · {budget} per position · solve {} ms · seed {}",
        r.game,
        r.moves.len(),
        s.preset,
        s.solve_ms,
        s.seed
    )?;
    outln!("{:>4}  {:<12} {:<6} {:>15}  {:<4} {:<12} {:<12} pv", "ply", "move", "mover", "win % before→after", "", "class", "best")?;
    let pct = |v: f64, e: Option<mcts_playground::solve::endgame::Value>| format!("{:.0}{}", 100.0 * v, if e.is_some() { "!" } else { "" });
    for p in &r.plies {
        let class = p.label.clone().unwrap_or_else(|| p.class.name().to_string());
        outln!(
            "{:>4}  {:<12} {:<6} {:>8} → {:<6}  {:<4} {:<12} {:<12} {}",
            p.ply,
            p.mv,
            p.mover,
            pct(p.value_before, p.exact_before),
            pct(p.value_after, p.exact_after),
            p.class.glyph(),
            class,
            p.best_move.as_deref().unwrap_or("-"),
            p.pv.iter().take(8).cloned().collect::<Vec<_>>().join(" "),
        )?;
    }
    outln!("(! marks a proven value: 100 win, 50 draw, 0 loss)")?;
    for (name, p) in &r.summary {
        let acc = p.accuracy.map_or("-".to_string(), |a| format!("{a:.1}"));
        outln!(
            "{name}: accuracy {acc} · best {} · good {} · inaccuracy {} · mistake {} · blunder {}",
            p.best,
            p.good,
            p.inaccuracy,
            p.mistake,
            p.blunder
        )?;
    }
    let proven = r.timing.iter().filter(|t| t.proven).count();
    outln!("positions proven: {proven} of {}", r.timing.len())?;
    Ok(())
}
