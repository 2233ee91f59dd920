//! `mcts`: the engine's command-line tool.
//!
//! Verbs (a contract: extend, never rename; `--json` keys likewise):
//! - `mcts replay --game SPEC --moves "m1 m2 ..." [--json]`
//! - `mcts bench [--game SPEC] [--json]`
//! - `mcts search`, `mcts arena`, `mcts gtp` (the engine verbs; see `--help`).

use clap::{Parser, Subcommand};

mod bench;
mod replay;

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
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.verb {
        Verb::Replay(a) => replay::run(a),
        Verb::Bench(a) => bench::run(a),
    };
    if let Err(e) = result {
        eprintln!("mcts: {e}");
        std::process::exit(1);
    }
}
