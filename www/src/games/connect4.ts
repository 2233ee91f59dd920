// Connect Four in the page: its renderer; a move is a column (`d`), drawn on the cell where its
// disc lands; a click anywhere in a column plays it, and the keys 1… play the columns by number.

import { columnLetter, connect4Renderer, landingCell } from '../board/connect4';
import type { BoardView } from '../protocol';
import type { GamePage } from './types';

/** The column a move names (`d` or `4`), or null. */
function columnOf(move: string, cols: number): number | null {
  const m = move.trim().toLowerCase();
  const c = /^[a-z]$/.test(m) ? m.charCodeAt(0) - 97 : /^\d$/.test(m) ? Number(m) - 1 : -1;
  return c >= 0 && c < cols ? c : null;
}

export const connect4Page: GamePage = {
  name: 'connect4',
  renderer: (view, events) => connect4Renderer(view.rows, view.cols, events),
  cellOfMove(move, view) {
    const c = columnOf(move, view.cols);
    return c === null ? null : landingCell(view.cells, view.rows, view.cols, c);
  },
  cellsOfLine(moves, view: BoardView) {
    // The discs stack: each move of the line lands on the cell its column has then.
    const cells = [...view.cells];
    return moves.map((m, k) => {
      const c = columnOf(m, view.cols);
      const at = c === null ? null : landingCell(cells, view.rows, view.cols, c);
      if (at !== null) cells[at] = k % 2;
      return at;
    });
  },
  moveOfCell: (cell, view) => columnLetter(cell % view.cols),
  keyCell(key, view) {
    const c = columnOf(key, view.cols);
    return /^\d$/.test(key) && c !== null ? c : null;
  },
  inputHelp: 'Click a column, or press its number (1 for a), or use the arrow keys and Enter.',
  swapOption: false,
  cellNote: { glyph: '↓', text: 'Connect Four: a column’s figures are drawn on the cell where its disc would land' },
  sgf: false,
};
