// Headless board state shared by the renderers (no DOM here): the position from the engine plus
// what the person is doing with it (keyboard cursor, a Pentago placement waiting for its twist,
// the cell of an illegal click, a hint). No game logic: legal moves come from the engine.

import type { BoardView } from '../protocol';

export interface BoardState {
  /** The position to draw. */
  view: BoardView;
  /** Legal moves in notation (empty when over). */
  legal: ReadonlySet<string>;
  /** Whether a person may move now (their turn, no search running, not over). */
  interactive: boolean;
  /** Keyboard cursor, a cell index `row * cols + col`. */
  cursor: number;
  /** Whether to draw the cursor (after keyboard use). */
  showCursor: boolean;
  /** Pentago: the cell where the person placed a stone, waiting for the twist. */
  pending: number | null;
  /** A cell to flash as refused (illegal click), with a counter so a repeat flashes again. */
  refused: { cell: number; serial: number } | null;
  /** Cells the hint suggests. */
  hint: number[];
  /** The game review's mark of the last move shown (its glyph on the last-move marker, e.g.
   * `??` for a blunder; `kind` names its colour: review/marks.ts `PlyMark`), or null. */
  lastMark?: { glyph: string; kind: string; title: string } | null;
}

export function initialState(view: BoardView): BoardState {
  const centre = Math.floor(view.rows / 2) * view.cols + Math.floor(view.cols / 2);
  return { view, legal: new Set(), interactive: false, cursor: centre, showCursor: false, pending: null, refused: null, hint: [] };
}

/** Column letter + row number (row 1 on top): `(0, 0)` → `a1`. Same as Rust `cell_name`. */
export function cellName(cell: number, cols: number): string {
  const row = Math.floor(cell / cols);
  const col = cell % cols;
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

/** Reads `a1`-style text (the cell part of any move) into a cell index, or null. */
export function parseCell(text: string, rows: number, cols: number): number | null {
  const m = /^([a-z])(\d{1,2})/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const col = m[1]!.charCodeAt(0) - 97;
  const row = Number(m[2]) - 1;
  if (col < 0 || col >= cols || row < 0 || row >= rows) return null;
  return row * cols + col;
}

/** The cursor moved by an arrow key, clamped to the board. */
export function moveCursor(s: BoardState, key: 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight'): number {
  const { rows, cols } = s.view;
  let r = Math.floor(s.cursor / cols);
  let c = s.cursor % cols;
  if (key === 'ArrowUp') r = Math.max(0, r - 1);
  if (key === 'ArrowDown') r = Math.min(rows - 1, r + 1);
  if (key === 'ArrowLeft') c = Math.max(0, c - 1);
  if (key === 'ArrowRight') c = Math.min(cols - 1, c + 1);
  return r * cols + c;
}

/** Pentago quadrant names in the notation, and the quadrant of a cell on the 6×6 board. */
export const QUADRANTS = ['TL', 'TR', 'BR', 'BL'] as const;
export type Quadrant = (typeof QUADRANTS)[number];
export function quadrantOf(cell: number): Quadrant {
  const r = Math.floor(cell / 6);
  const c = cell % 6;
  if (r < 3) return c < 3 ? 'TL' : 'TR';
  return c < 3 ? 'BL' : 'BR';
}

/** Pentago move text split: `d4-BR-cw` → cell `d4`, quadrant `BR`, direction `cw`. */
export function splitPentagoMove(mv: string): { cell: string; quadrant: Quadrant; dir: string } | null {
  const m = /^([a-f][1-6])-(TL|TR|BR|BL)-([a-z]+)$/.exec(mv);
  if (!m) return null;
  return { cell: m[1]!, quadrant: m[2] as Quadrant, dir: m[3]! };
}
