// Connect Four: a blue frame of cols × rows holes, the discs behind it (red for player 0, yellow
// for player 1), column letters a.. under it. A click anywhere in a column (or Enter on a cell of
// it) chooses the column — the game registry's `moveOfCell` (../games/connect4.ts) turns the cell
// into the column's move —; the disc then falls from above the board into its cell (Web
// Animations; none under `prefers-reduced-motion`). Cells are `row * cols + col`, row 0 on top,
// as every board here; the overlays draw on each column's landing cell.

import {
  announceCursor,
  cellClass,
  cellLabel,
  delegateCells,
  drawLastMark,
  flash,
  idCells,
  prefersReducedMotion,
  svgBoard,
  type BoardEvents,
  type BoardRenderer,
  type CellGeometry,
} from './render';
import { h, svg } from '../lib/dom';
import './connect4.css';
import type { BoardState } from './state';

const S = 60; // cell size, SVG units
const R = 23; // hole and disc radius
const LABEL = 24; // room under the frame for the column letters

/** The column letter of a column (`a` for 0). */
export const columnLetter = (c: number): string => String.fromCharCode(97 + c);

/** The cell a disc dropped into column `c` of `cells` (`rows × cols`, −1 empty) lands on: the
 * lowest empty cell of the column, or null when it is full. */
export function landingCell(cells: readonly number[], rows: number, cols: number, c: number): number | null {
  if (c < 0 || c >= cols) return null;
  for (let r = rows - 1; r >= 0; r--) if ((cells[r * cols + c] ?? 0) < 0) return r * cols + c;
  return null;
}

export function connect4Renderer(rows: number, cols: number, events: BoardEvents): BoardRenderer {
  const width = cols * S;
  const height = rows * S;
  const element = h('div', { class: 'board board-connect4' });
  const root = svg(
    'svg',
    {
      viewBox: `-8 -8 ${width + 16} ${height + LABEL + 12}`,
      role: 'grid',
      'aria-label': `Connect Four board, ${cols} columns × ${rows} rows`,
    },
    element,
  );
  // Behind the frame: the discs, each in its cell (a falling disc passes behind the frame).
  const discLayer = svg('g', { class: 'discs' }, root);
  const discs: SVGCircleElement[] = [];
  const geometry: CellGeometry[] = [];
  for (let i = 0; i < rows * cols; i++) {
    const x = (i % cols) * S + S / 2;
    const y = Math.floor(i / cols) * S + S / 2;
    discs.push(svg('circle', { cx: x, cy: y, r: R, class: 'disc empty' }, discLayer));
    geometry.push({ x, y, r: R });
  }
  // The frame: one path, the board with a hole per cell (even-odd fill).
  let d = `M0 0 H${width} V${height} H0 Z`;
  for (const { x, y } of geometry) d += ` M${x - R} ${y} a${R} ${R} 0 1 0 ${2 * R} 0 a${R} ${R} 0 1 0 ${-2 * R} 0 Z`;
  svg('path', { d, class: 'frame', 'fill-rule': 'evenodd' }, root);
  for (let c = 0; c < cols; c++) {
    const t = svg('text', { x: c * S + S / 2, y: height + LABEL - 4, class: 'coord', 'text-anchor': 'middle' }, root);
    t.textContent = columnLetter(c);
  }
  // Over the frame: the cells, which take the clicks and show the marks (last move, win, hint,
  // cursor, the column that can be played).
  const cells: SVGGElement[] = [];
  geometry.forEach(({ x, y }, i) => {
    const name = `${columnLetter(i % cols)}${Math.floor(i / cols) + 1}`;
    const g = svg('g', { 'data-index': i, 'data-cell': name, class: 'cell', role: 'gridcell' }, root);
    svg('rect', { x: x - S / 2, y: y - S / 2, width: S, height: S, class: 'cell-hit' }, g);
    svg('circle', { cx: x, cy: y, r: R, class: 'cell-bg' }, g);
    svg('circle', { cx: x, cy: y, r: 5, class: 'last-dot' }, g);
    cells.push(g);
  });
  idCells(cells, cols);
  delegateCells(root, events);
  // The column under the pointer: its landing cell previews the disc.
  let hoverCol: number | null = null;
  let drawn: BoardState | null = null;
  root.addEventListener('pointermove', (ev) => {
    const el = ev.target instanceof Element ? ev.target.closest('[data-index]') : null;
    const col = el ? Number(el.getAttribute('data-index')) % cols : null;
    if (col !== hoverCol) {
      hoverCol = col;
      if (drawn) drawPreview(drawn);
    }
  });
  root.addEventListener('pointerleave', () => {
    hoverCol = null;
    if (drawn) drawPreview(drawn);
  });
  function drawPreview(s: BoardState): void {
    const at = hoverCol === null || !s.interactive ? null : landingCell(s.view.cells, rows, cols, hoverCol);
    const legal = at !== null && s.legal.has(columnLetter(hoverCol!));
    cells.forEach((g, i) => {
      g.classList.toggle('preview', legal && i === at);
    });
    root.dataset.preview = legal ? ((s.view.to_move ?? 0) === 0 ? 'p0' : 'p1') : '';
  }

  let lastRefusal = -1;
  const falling = new Set<Animation>();
  return {
    element,
    ...svgBoard(root, cells, geometry),
    update(s: BoardState) {
      announceCursor(element, cells, s);
      const v = s.view;
      // The disc just played falls when the board shows the position one move after the last
      // one drawn (not on undo, a jump or another game).
      const fell = drawn && drawn.view.spec === v.spec && v.ply === drawn.view.ply + 1 ? v.last_cells[0] : undefined;
      const win = new Set(v.winning_cells);
      const last = new Set(v.last_cells);
      const hint = new Set(s.hint);
      const landing = new Set<number>();
      for (let c = 0; c < cols; c++) {
        const at = landingCell(v.cells, rows, cols, c);
        if (at !== null && s.legal.has(columnLetter(c))) landing.add(at);
      }
      cells.forEach((g, i) => {
        const val = v.cells[i];
        const col = i % cols;
        g.setAttribute(
          'class',
          cellClass({
            value: val,
            win: win.has(i),
            last: last.has(i),
            hint: hint.has(i),
            cursor: s.showCursor && s.cursor === i,
            playable: s.interactive && landing.has(i),
          }),
        );
        g.classList.toggle('column-open', s.interactive && s.legal.has(columnLetter(col)));
        g.setAttribute('aria-label', cellLabel(`${columnLetter(col)}${Math.floor(i / cols) + 1}`, val, ['Red', 'Yellow']));
        const falls = discs[i]!.classList.contains('falling') ? ' falling' : '';
        discs[i]!.setAttribute('class', `disc ${val === 0 ? 'p0' : val === 1 ? 'p1' : 'empty'}${falls}`);
      });
      root.classList.toggle('over', v.to_move === null);
      drawLastMark(cells, s);
      drawn = { ...s, view: v };
      drawPreview(s);
      if (fell !== undefined && !prefersReducedMotion()) {
        const disc = discs[fell]!;
        const drop = (Math.floor(fell / cols) + 1) * S;
        const a = disc.animate([{ transform: `translate(0, ${-drop}px)` }, { transform: 'translate(0, 0)' }], {
          duration: 120 + 40 * Math.sqrt(drop / S),
          easing: 'cubic-bezier(0.55, 0, 1, 0.45)',
        });
        falling.add(a);
        disc.classList.add('falling');
        const done = () => {
          falling.delete(a);
          disc.classList.remove('falling');
        };
        a.finished.then(done, done);
      }
      if (s.refused && s.refused.serial !== lastRefusal) {
        lastRefusal = s.refused.serial;
        flash(cells[s.refused.cell]);
      }
    },
    settled: () => Promise.all([...falling].map((a) => a.finished.catch(() => undefined))).then(() => undefined),
  };
}
