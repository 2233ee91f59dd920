// The page's game registry: every game the engine registers (generated/schema.ts `GAMES`, from
// Rust src/game/registry.rs) with the page's part of it (types.ts `GamePage`). A game the engine
// has and the page lacks is a compile error here (`Record<GameName, GamePage>`); chooser, board
// renderer, sizes, solver availability, draws, players and records look a game up here, never by
// comparing its name.

import type { BoardEvents, BoardRenderer } from '../board';
import { GAME_NAMES, GAMES, type GameName } from '../generated/schema';
import type { BoardView } from '../protocol';
import { connect4Page } from './connect4';
import { gameNameOf } from './facts';
import { hexPage } from './hex';
import { pentagoPage } from './pentago';
import { tictactoePage } from './tictactoe';
import type { GameEntry, GamePage } from './types';

export { factsOf, gameNameOf } from './facts';
export type { GameEntry, GamePage } from './types';

const PAGES: Record<GameName, GamePage> = { tictactoe: tictactoePage, hex: hexPage, pentago: pentagoPage, connect4: connect4Page };

const ENTRIES: Record<GameName, GameEntry> = Object.fromEntries(GAME_NAMES.map((n) => [n, { ...PAGES[n], facts: GAMES[n] }])) as Record<
  GameName,
  GameEntry
>;

/** Every registered game, in the engine's order. */
export const GAME_LIST: readonly GameEntry[] = GAME_NAMES.map((n) => ENTRIES[n]);

/** The game a `BoardView.kind` or a spec string names (by name or alias before the first `:`,
 * any case), or null for an unknown one. */
export function findGame(kindOrSpec: string): GameEntry | null {
  const name = gameNameOf(kindOrSpec);
  return name === null ? null : ENTRIES[name];
}

/** The game of a `BoardView.kind` (always registered: the engine drew it). */
export function gameOf(kind: GameName): GameEntry {
  return ENTRIES[kind];
}

/** The board renderer for `view`'s game. */
export function createRenderer(view: BoardView, events: BoardEvents): BoardRenderer {
  return gameOf(view.kind).renderer(view, events);
}

/** Player `p`'s name in the page, capitalised (`Black`, `X`): the engine's `players`. */
export function playerName(kind: GameName, p: number): string {
  const name = gameOf(kind).facts.players[p === 1 ? 1 : 0];
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The cell a move of `view`'s game is drawn on (null: none). */
export function cellOfMove(view: BoardView, move: string): number | null {
  return gameOf(view.kind).cellOfMove(move, view);
}

/** The cells of a line of moves played one after the other from `view` (`GamePage.cellsOfLine`). */
export function cellsOfLine(view: BoardView, moves: readonly string[]): (number | null)[] {
  const g = gameOf(view.kind);
  return g.cellsOfLine ? g.cellsOfLine(moves, view) : moves.map((m) => g.cellOfMove(m, view));
}

/** The move a click on `cell` plays in `view`'s game (null: the click only starts a move). */
export function moveOfCell(view: BoardView, cell: number): string | null {
  return gameOf(view.kind).moveOfCell(cell, view);
}

/** The cell a key plays on `view`'s board (`GamePage.keyCell`), or null. */
export function keyCell(view: BoardView, key: string): number | null {
  return gameOf(view.kind).keyCell?.(key, view) ?? null;
}

/** Whether a game can end drawn (Hex cannot). */
export function hasDraws(kind: GameName): boolean {
  return gameOf(kind).facts.draws;
}
