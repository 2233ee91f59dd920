// Tic-Tac-Toe: a 3×3 grid; X (player 0) as a cross, O (player 1) as a ring.

import {
  announceCursor,
  cellClass,
  cellLabel,
  delegateCells,
  drawLastMark,
  idCells,
  flash,
  svgBoard,
  type BoardEvents,
  type BoardRenderer,
  type CellGeometry,
} from './render';
import { h, svg } from '../lib/dom';
import { cellName, type BoardState } from './state';

const S = 100; // cell size in SVG units
const INSET = 3; // the cell's background square is inset this much on each side

export function tictactoeRenderer(events: BoardEvents): BoardRenderer {
  const element = h('div', { class: 'board board-tictactoe' });
  const root = svg('svg', { viewBox: `-10 -10 ${3 * S + 20} ${3 * S + 20}`, role: 'grid', 'aria-label': 'Tic-Tac-Toe board' }, element);
  const cells: SVGGElement[] = [];
  const geometry: CellGeometry[] = [];
  for (let i = 0; i < 9; i++) {
    const r = Math.floor(i / 3);
    const c = i % 3;
    const g = svg(
      'g',
      { 'data-index': i, 'data-cell': cellName(i, 3), class: 'cell', role: 'gridcell', transform: `translate(${c * S} ${r * S})` },
      root,
    );
    svg('rect', { x: INSET, y: INSET, width: S - 2 * INSET, height: S - 2 * INSET, rx: 8, class: 'cell-bg' }, g);
    svg('path', { d: `M25 25 L75 75 M75 25 L25 75`, class: 'mark-x' }, g);
    svg('circle', { cx: 50, cy: 50, r: 27, class: 'mark-o' }, g);
    svg('circle', { cx: 50, cy: 50, r: 6, class: 'last-dot' }, g);
    cells.push(g);
    geometry.push({ x: c * S + S / 2, y: r * S + S / 2, r: S / 2 - INSET });
  }
  for (let k = 1; k < 3; k++) {
    svg('line', { x1: k * S, y1: 4, x2: k * S, y2: 3 * S - 4, class: 'grid-line' }, root);
    svg('line', { x1: 4, y1: k * S, x2: 3 * S - 4, y2: k * S, class: 'grid-line' }, root);
  }
  idCells(cells, 3);
  delegateCells(root, events);
  let lastRefusal = -1;

  return {
    element,
    ...svgBoard(root, cells, geometry),
    update(s: BoardState) {
      announceCursor(element, cells, s);
      const v = s.view;
      const win = new Set(v.winning_cells);
      const last = new Set(v.last_cells);
      const hint = new Set(s.hint);
      cells.forEach((g, i) => {
        const val = v.cells[i];
        g.setAttribute(
          'class',
          cellClass({
            value: val,
            win: win.has(i),
            last: last.has(i),
            hint: hint.has(i),
            cursor: s.showCursor && s.cursor === i,
            playable: s.interactive && s.legal.has(cellName(i, 3)),
          }),
        );
        g.setAttribute('aria-label', cellLabel(cellName(i, 3), val, ['X', 'O']));
      });
      root.classList.toggle('over', v.to_move === null);
      drawLastMark(cells, s);
      if (s.refused && s.refused.serial !== lastRefusal) {
        lastRefusal = s.refused.serial;
        flash(cells[s.refused.cell]);
      }
    },
    settled: () => Promise.resolve(),
  };
}
