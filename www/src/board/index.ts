// One renderer per game over the shared headless state (state.ts).

import type { GameKind } from '../protocol';
import { hexRenderer } from './hex';
import { pentagoRenderer } from './pentago';
import type { BoardEvents, BoardRenderer } from './render';
import { tictactoeRenderer } from './tictactoe';

export type { BoardEvents, BoardRenderer, CellGeometry } from './render';
export * from './state';

/** The renderer for a game; `size` is the board side (Hex n, Tic-Tac-Toe 3, Pentago 6). */
export function createRenderer(kind: GameKind, size: number, events: BoardEvents): BoardRenderer {
  switch (kind) {
    case 'hex':
      return hexRenderer(size, events);
    case 'tictactoe':
      return tictactoeRenderer(events);
    case 'pentago':
      return pentagoRenderer(events);
  }
}
