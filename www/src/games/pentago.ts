// Pentago in the page: its renderer (with the twist arrows); a move is drawn on its placement
// cell (`d4-BR-cw` on d4), and a click only places the stone, the twist comes second.

import { parseCell, pentagoRenderer } from '../board';
import type { GamePage } from './types';

export const pentagoPage: GamePage = {
  name: 'pentago',
  renderer: (_view, events) => pentagoRenderer(events),
  cellOfMove: (move, view) => parseCell(move, view.rows, view.cols),
  moveOfCell: () => null,
  inputHelp:
    'Click an empty hole to place a stone, then an arrow to twist a quadrant (Escape takes the stone back). Keyboard: arrows and Enter, then Tab to an arrow and Enter.',
  swapOption: false,
  cellNote: {
    glyph: '×8',
    text: 'Pentago: a cell sums its moves over the 8 twists (win rates averaged by visits); ghost stones show placements',
  },
  sgf: false,
};
