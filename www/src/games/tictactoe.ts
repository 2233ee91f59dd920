// Tic-Tac-Toe in the page: its renderer; a move is a cell.

import { cellName, parseCell, tictactoeRenderer } from '../board';
import type { GamePage } from './types';

export const tictactoePage: GamePage = {
  name: 'tictactoe',
  renderer: (_view, events) => tictactoeRenderer(events),
  cellOfMove: (move, view) => parseCell(move, view.rows, view.cols),
  moveOfCell: (cell, view) => cellName(cell, view.cols),
  inputHelp: 'Click a cell, or use the arrow keys and Enter.',
  swapOption: false,
  cellNote: null,
  sgf: false,
};
