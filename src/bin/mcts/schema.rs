//! `mcts schema`: the engine's description of its search parameters, presets and input limits
//! (`mcts_playground::mcts::schema`), as JSON. `scripts/schema.sh` writes it to
//! `www/src/generated/schema.json`, from which `www/gen-schema.mjs` writes the page's types.

use crate::error::CliError;

/// Arguments of `mcts schema`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON (the only output; accepted for symmetry with the other verbs).
    #[arg(long)]
    json: bool,
}

/// Runs the verb.
///
/// # Errors
/// Only a failed write to standard output.
pub fn run(a: Args) -> Result<(), CliError> {
    let _ = a.json;
    let text = mcts_playground::mcts::schema::schema_json();
    outln!("{}", text.trim_end())
}
