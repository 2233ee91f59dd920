// Hex: an n×n rhombus of pointy-top hexagons, row 1 on top, columns a.. from the left; each row
// is shifted half a cell right of the one above, so a1 is an acute corner (2 neighbours) and the
// neighbours of (r, c) are (r−1, c) (r−1, c+1) (r, c−1) (r, c+1) (r+1, c−1) (r+1, c), as in
// ../shared/reference/README.md. Black (player 0) owns the top and bottom edges, White (player 1)
// the left and right edges; both are drawn in the owner's colour. Coordinates on all four sides.

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

const R = 20; // hexagon radius (centre to corner), SVG units
const W = Math.sqrt(3) * R; // hexagon width

function centre(r: number, c: number): [number, number] {
  return [c * W + r * (W / 2), r * 1.5 * R];
}

/** Corner k of the hexagon at (x, y): 0 upper-right, 1 top, 2 upper-left, 3 lower-left, 4 bottom, 5 lower-right. */
function corner(x: number, y: number, k: number, radius = R): [number, number] {
  const a = ((-30 - 60 * k) * Math.PI) / 180;
  return [x + radius * Math.cos(a), y + radius * Math.sin(a)];
}

/** The geometry of the hexagon at (x, y) as drawn: the centre of its box and half its width (the
 * radius of the circle it holds), from its corners as the browser holds the polygon's points
 * (rounded as in `hexPoints`, then single precision): the overlays sit exactly where they sat
 * when they read the drawn polygons. */
function hexGeometry(x: number, y: number): CellGeometry {
  const pts = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k).map((v) => Math.fround(Number(v.toFixed(2)))) as [number, number]);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { x: (x0 + x1) / 2, y: (y0 + y1) / 2, r: Math.min(x1 - x0, y1 - y0) / 2 };
}

function hexPoints(x: number, y: number, radius = R): string {
  return [0, 1, 2, 3, 4, 5]
    .map((k) =>
      corner(x, y, k, radius)
        .map((v) => v.toFixed(2))
        .join(','),
    )
    .join(' ');
}

export function hexRenderer(size: number, events: BoardEvents): BoardRenderer {
  const n = size;
  const element = h('div', { class: 'board board-hex' });
  const minX = centre(0, -1)[0] - W;
  const maxX = centre(n - 1, n)[0] + W;
  const minY = -1.5 * R - R * 1.1;
  const maxY = centre(n, 0)[1] + R * 1.1;
  const root = svg(
    'svg',
    {
      viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${(maxX - minX).toFixed(1)} ${(maxY - minY).toFixed(1)}`,
      role: 'grid',
      'aria-label': `Hex ${n}×${n} board: Black connects top and bottom, White connects left and right`,
    },
    element,
  );

  // Edge bands under the cells (half of each band is hidden by the cells).
  const band = (pts: [number, number][], cls: string) =>
    svg(
      'polyline',
      { points: pts.map((p) => p.map((v) => v.toFixed(2)).join(',')).join(' '), class: cls === 'edge-outline' ? cls : `edge ${cls}` },
      root,
    );
  const top: [number, number][] = [];
  const bottom: [number, number][] = [];
  const left: [number, number][] = [];
  const right: [number, number][] = [];
  for (let c = 0; c < n; c++) {
    const [x0, y0] = centre(0, c);
    top.push(corner(x0, y0, 2), corner(x0, y0, 1), corner(x0, y0, 0));
    const [x1, y1] = centre(n - 1, c);
    bottom.push(corner(x1, y1, 3), corner(x1, y1, 4), corner(x1, y1, 5));
  }
  for (let r = 0; r < n; r++) {
    const [xl, yl] = centre(r, 0);
    left.push(corner(xl, yl, 2), corner(xl, yl, 3));
    if (r < n - 1) left.push(corner(xl, yl, 4));
    const [xr, yr] = centre(r, n - 1);
    if (r > 0) right.push(corner(xr, yr, 1));
    right.push(corner(xr, yr, 0), corner(xr, yr, 5));
  }
  for (const pts of [top, bottom, left, right]) band(pts, 'edge-outline');
  band(top, 'edge-p0');
  band(bottom, 'edge-p0');
  band(left, 'edge-p1');
  band(right, 'edge-p1');

  const cells: SVGGElement[] = [];
  const geometry: CellGeometry[] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      const [x, y] = centre(r, c);
      const g = svg('g', { 'data-index': i, 'data-cell': cellName(i, n), class: 'cell', role: 'gridcell' }, root);
      svg('polygon', { points: hexPoints(x, y), class: 'cell-bg' }, g);
      svg('circle', { cx: x.toFixed(2), cy: y.toFixed(2), r: R * 0.72, class: 'stone' }, g);
      svg('circle', { cx: x.toFixed(2), cy: y.toFixed(2), r: R * 0.22, class: 'last-dot' }, g);
      cells.push(g);
      geometry.push(hexGeometry(x, y));
    }
  }

  // Coordinates: letters above and below, numbers left and right.
  for (let c = 0; c < n; c++) {
    const letter = String.fromCharCode(97 + c);
    const [xt, yt] = centre(-1, c);
    svg('text', { x: xt.toFixed(1), y: (yt + R * 0.35).toFixed(1), class: 'coord' }, root).textContent = letter;
    const [xb, yb] = centre(n, c);
    svg('text', { x: xb.toFixed(1), y: (yb - R * 0.1).toFixed(1), class: 'coord' }, root).textContent = letter;
  }
  for (let r = 0; r < n; r++) {
    const [xl, yl] = centre(r, -1);
    svg('text', { x: (xl + R * 0.25).toFixed(1), y: (yl + R * 0.35).toFixed(1), class: 'coord' }, root).textContent = String(r + 1);
    const [xr, yr] = centre(r, n);
    svg('text', { x: (xr - R * 0.25).toFixed(1), y: (yr + R * 0.35).toFixed(1), class: 'coord' }, root).textContent = String(r + 1);
  }

  idCells(cells, n);
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
        const name = cellName(i, n);
        g.setAttribute(
          'class',
          cellClass({
            value: val,
            win: win.has(i),
            last: last.has(i),
            hint: hint.has(i),
            cursor: s.showCursor && s.cursor === i,
            playable: s.interactive && s.legal.has(name),
          }),
        );
        g.setAttribute('aria-label', cellLabel(name, val, ['Black', 'White']));
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
