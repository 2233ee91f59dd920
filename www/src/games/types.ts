// What the page knows of one game besides the engine's facts: how its board is drawn and how a
// person's clicks become moves. One such entry per game (hex.ts, tictactoe.ts, pentago.ts, ...),
// registered in index.ts; the facts (players, draws, sizes, solver limits, notation) come from the
// engine's registry through the generated schema (Rust src/game/registry.rs, `mcts schema --json`).

import type { BoardEvents, BoardRenderer } from '../board';
import type { GameFacts, GameName } from '../generated/schema';
import type { BoardView } from '../protocol';

/** The page's part of a game (see the module comment). */
export interface GamePage {
  /** The game's name (its spec name and `BoardView.kind`). */
  readonly name: GameName;
  /** The board renderer for positions like `view` (its size and rules). */
  renderer(view: BoardView, events: BoardEvents): BoardRenderer;
  /** The cell (`row * cols + col`) a move is drawn on — hint marks, overlays, the principal
   * variation —, or null for a move without one (Hex's swap) or text that is no move. */
  cellOfMove(move: string, view: BoardView): number | null;
  /** The cells of a line of moves played one after the other from `view` (the principal
   * variation's ghost stones); default: each move's `cellOfMove`. Games whose moves' cells depend
   * on the moves before them (Connect Four's discs stack) override it. */
  cellsOfLine?(moves: readonly string[], view: BoardView): (number | null)[];
  /** The move a click on `cell` plays, or null when a click only starts a move (Pentago: the
   * placement waits for its twist). */
  moveOfCell(cell: number, view: BoardView): string | null;
  /** The cell a key plays (Connect Four: `1`… a column), or null; the board's other keys
   * (arrows, Enter, Escape) are the page's. */
  keyCell?(key: string, view: BoardView): number | null;
  /** How a person plays on the board, one sentence for the help line (after the rules). */
  readonly inputHelp: string;
  /** Whether the Game controls offer the swap (pie) rule (spec option `:swap`). */
  readonly swapOption: boolean;
  /** What the game says about moving first when the Arena's first player won most games and the
   * swap rule is offered (Hex: `In Hex moving first wins with perfect play`); default: an
   * advantage. */
  readonly firstMoveNote?: string;
  /** What the overlays' legend says about how a cell stands for several moves (Pentago's twists,
   * Connect Four's landing cells), with the glyph its legend line shows, or null when a cell is
   * one move. */
  readonly cellNote: { readonly glyph: string; readonly text: string } | null;
  /** Whether records can be written as SGF (HexGui's `GM[11]`, Rust `record.rs`). */
  readonly sgf: boolean;
}

/** A registered game: the engine's facts and the page's part. */
export interface GameEntry extends GamePage {
  readonly facts: GameFacts;
}
