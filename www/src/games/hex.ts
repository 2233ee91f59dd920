// Hex in the page: its renderer and a cell per move (the swap move has none).

import { cellName, hexRenderer, parseCell } from '../board';
import type { GamePage } from './types';

export const hexPage: GamePage = {
  name: 'hex',
  renderer: (view, events) => hexRenderer(view.rows, events),
  cellOfMove: (move, view) => parseCell(move, view.rows, view.cols),
  moveOfCell: (cell, view) => cellName(cell, view.cols),
  inputHelp: 'Click a cell, or use the arrow keys and Enter.',
  swapOption: true,
  // Nash's strategy-stealing argument (Gardner 1957; Hayward & Toft, Hex: The Full Story, 2019).
  firstMoveNote: 'In Hex moving first wins with perfect play',
  cellNote: null,
  sgf: true,
};
