//! `mcts`: the engine's command-line tool.
//!
//! Verbs (a contract: extend, never rename; `--json` keys likewise):
//! - `mcts replay --game SPEC --moves "m1 m2 ..." [--json]`
//! - `mcts bench [--game SPEC] [--json]`
//! - `mcts search --game SPEC [--moves ".."] --algo PRESET [--set k=v ..] [--iterations N | --ms T] [--seed S] [--json]`
//! - `mcts arena --game SPEC --a PRESET --b PRESET --games N [--iterations N | --ms T] [--seed S] [--json]`
//! - `mcts gtp --game SPEC --algo PRESET [...]` (Go Text Protocol on stdin/stdout)
//! - `mcts match --game SPEC --a "ENGINE COMMAND" --b "ENGINE COMMAND" [--openings ..] [--sgf DIR] [--json]`
//!   (two GTP engines, ours or others such as MoHex, refereed by our rules)
//! - `mcts solve --game hex:N [--moves ".."] [--openings [--net FILE]] [--json]` (exact result of a
//!   small Hex position)
//! - `mcts review --game SPEC (--moves "M1 M2 …" | --record FILE) [--preset NAME] [--iterations N | --ms N]
//!   [--solve-ms N] [--seed S] [--threads T] [--json]` (a whole game reviewed: each move's win
//!   probability before and after, its class, each player's accuracy; exact values where a solver reaches)
//! - `mcts schema [--json]` (the search parameters with types, defaults and ranges, the presets and
//!   the input limits, as JSON: what `www/src/generated/` is written from)
//! - `mcts patterns train [--spec hex:N --games N --preset P --playouts N --seed S] --out FILE`
//!   (Hex pattern weights by MM from self-play, `docs/pattern-priors.md`)
//! - `mcts train --game SPEC [--iterations N --games N --playouts N ...] [--out DIR]` (AlphaZero
//!   self-play training; needs the default `train` feature)

use clap::{Parser, Subcommand};

#[macro_use]
mod out;

mod arena;
mod bench;
mod engine_group;
mod error;
mod gtp;
mod gtp_match;
mod patterns;
mod replay;
mod review;
mod schema;
mod search;
mod solve;
#[cfg(feature = "train")]
mod train;

/// Monte Carlo Tree Search playground: game rules and search from the command line.
#[derive(Parser, Debug)]
#[command(name = "mcts", version, about)]
struct Cli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Play a list of moves and print the board and the result.
    Replay(replay::Args),
    /// Measure random playouts per second (and MCTS iterations per second) per game.
    Bench(bench::Args),
    /// Search one position and print the root statistics, best move and principal variation.
    Search(search::Args),
    /// Play configuration A against B with alternating colours; standings with intervals.
    Arena(arena::Args),
    /// Speak the Go Text Protocol on standard input/output (for HexGui and other GTP tools).
    Gtp(gtp::Args),
    /// Play two GTP engines (ours, MoHex, HexGui-compatible programs) against each other on
    /// balanced openings, refereed by our rules; standings with intervals, games as SGF.
    Match(gtp_match::Args),
    /// Solve a small Hex position exactly (who wins, a winning move; --openings: every move).
    Solve(solve::Args),
    /// Review a whole game: every position searched (and solved where an exact solver reaches),
    /// each move's win probability before and after, its class (Lichess's thresholds) and each
    /// player's accuracy.
    Review(review::Args),
    /// Print the search parameters (types, defaults, ranges), the presets and the input limits as JSON.
    Schema(schema::Args),
    /// Hex local patterns: `train` weights from self-play games (MoHex 2.0's prior, MM).
    Patterns(patterns::Args),
    /// Train a policy-value network by AlphaZero self-play (writes weights, CSV/JSON logs).
    #[cfg(feature = "train")]
    Train(Box<train::Args>),
    /// Train a policy-value network (this build has no training: rebuild with `--features train`).
    #[cfg(not(feature = "train"))]
    Train(NoTrain),
}

/// `mcts train` in a build without the `train` feature: any arguments, answered with how to get it.
#[cfg(not(feature = "train"))]
#[derive(clap::Args, Debug)]
struct NoTrain {
    /// Ignored.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// The arguments read; on a refusal, clap's message and exit (status 2), with any control
/// character the arguments hold quoted (`out::quote_controls`) rather than sent to the terminal.
fn parse_args() -> Cli {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let e = match Cli::try_parse_from(&args) {
        Ok(cli) => return cli,
        Err(e) => e,
    };
    let has_control = |a: &std::ffi::OsString| a.to_string_lossy().chars().any(|c| c.is_control() && c != '\t');
    if !e.use_stderr() || !args.iter().any(has_control) {
        e.exit()
    }
    // clap quotes the argument it refuses as it was given: refuse the arguments with their control
    // characters written out instead (the same refusal, naming the same argument, in the same
    // words); should they be accepted so written, clap's text without its styling, quoted.
    let quoted: Vec<String> = args.iter().map(|a| out::quote_controls(&a.to_string_lossy()).into_owned()).collect();
    match Cli::try_parse_from(&quoted) {
        Err(q) if q.kind() == e.kind() => q.exit(),
        _ => {
            for line in e.render().to_string().trim_end().lines() {
                out::errln(line);
            }
            std::process::exit(e.exit_code())
        }
    }
}

fn main() {
    let cli = parse_args();
    let result = match cli.verb {
        Verb::Replay(a) => replay::run(a),
        Verb::Bench(a) => bench::run(a),
        Verb::Search(a) => search::run(a),
        Verb::Arena(a) => arena::run(a),
        Verb::Gtp(a) => gtp::run(a),
        Verb::Match(a) => gtp_match::run(a),
        Verb::Solve(a) => solve::run(a),
        Verb::Review(a) => review::run(a),
        Verb::Schema(a) => schema::run(a),
        Verb::Patterns(a) => patterns::run(a),
        #[cfg(feature = "train")]
        Verb::Train(a) => train::run(*a),
        #[cfg(not(feature = "train"))]
        Verb::Train(_) => Err(error::CliError::Engine(
            "this mcts was built without training (burn); build it with `cargo build --release --features train`".into(),
        )),
    };
    out::exit(result)
}
