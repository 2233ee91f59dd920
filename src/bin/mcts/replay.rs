//! `mcts replay`: play moves from the start position, print the board and the result.

use mcts_playground::game::AnyGame;
use serde_json::json;

use crate::error::CliError;

/// `--game` and `--moves`: a position reached from the start of a game (`replay`, `search`,
/// `solve`).
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Game spec string: tictactoe, hex:N[:swap], pentago[:official|:openspiel|:twist][:dedup].
    #[arg(long, short)]
    pub game: String,
    /// Moves from the start, in the reference notation, separated by spaces (e.g. "a1 b2" or
    /// "d4-BR-cw").
    #[arg(long, short, default_value = "")]
    pub moves: String,
}

impl PositionArgs {
    /// The position (see [`position`]).
    ///
    /// # Errors
    /// A bad spec, or a move that cannot be read or is illegal, named with its 1-based index.
    pub fn position(&self) -> Result<AnyGame, CliError> {
        position(&self.game, &self.moves)
    }
}

/// Arguments of `mcts replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// Print one JSON object {board, to_move, legal_count, terminal, returns, winner}.
    #[arg(long)]
    json: bool,
}

/// The position after `moves` (reference notation, separated by spaces) from the start of `spec`.
///
/// # Errors
/// A bad spec, or a move that cannot be read or is illegal, named with its 1-based index.
pub fn position(spec: &str, moves: &str) -> Result<AnyGame, CliError> {
    let list: Vec<&str> = moves.split_whitespace().collect();
    Ok(mcts_playground::report::position(spec, &list)?)
}

/// Runs the verb.
///
/// # Errors
/// A bad spec, or a move that cannot be read or is illegal (naming the move and its index).
pub fn run(a: Args) -> Result<(), CliError> {
    let g = a.pos.position()?;
    let outcome = g.outcome();
    if a.json {
        let obj = json!({
            "game": g.spec(),
            "board": g.board_string(),
            "to_move": if outcome.is_some() { None } else { Some(g.to_move()) },
            "legal_count": g.legal_count(),
            "terminal": outcome.is_some(),
            "returns": outcome.map(|o| o.returns()).unwrap_or([0.0, 0.0]),
            "winner": outcome.and_then(|o| o.winner()),
            "ply": g.ply(),
        });
        outln!("{obj}")?;
    } else {
        outln!("{}", g.spec())?;
        for row in g.board_string().split('/') {
            outln!("  {}", row.chars().map(|c| c.to_string()).collect::<Vec<_>>().join(" "))?;
        }
        match outcome {
            Some(o) => match o.winner() {
                Some(p) => outln!("game over: player {p} ({}) wins", if p == 0 { "X" } else { "O" }),
                None => outln!("game over: draw"),
            },
            None => {
                outln!("player {} ({}) to move, {} legal moves", g.to_move(), if g.to_move() == 0 { "X" } else { "O" }, g.legal_count())
            }
        }?;
    }
    Ok(())
}
