// Pentago: a 6×6 board of four 3×3 quadrants (TL, TR, BR, BL) drawn apart. A move is placed in two
// steps: click an empty hole (the stone appears, pending), then pick a twist with the arrow
// buttons by the quadrants (official rules: ↺ ccw / ↻ cw; Pentago-Twist: ↻ cw / ⇆ flip). The
// directions offered are those the engine lists as legal. The twist of every move is animated.
// Pointing at a twist button (hover or keyboard focus) previews it: the quadrant, pending stone
// included, is shown turned (or flipped) until the pointer or focus leaves; nothing is played.

import type { BoardView } from '../protocol';
import {
  drawLastMark,
  announceCursor,
  cellClass,
  cellLabel,
  delegateCells,
  idCells,
  flash,
  prefersReducedMotion,
  svgBoard,
  type BoardEvents,
  type BoardRenderer,
  type CellGeometry,
} from './render';
import { h, svg } from '../lib/dom';
import { cellName, parseCell, QUADRANTS, splitPentagoMove, type BoardState, type Quadrant } from './state';

const S = 52; // cell size
const G = 14; // gap between quadrants
const M = 66; // margin for the coordinates and the twist buttons
const ANIM_MS = 450;

const GLYPH: Record<string, string> = { cw: '↻', ccw: '↺', flip: '⇆' };
const WORD: Record<string, string> = { cw: 'clockwise', ccw: 'counter-clockwise', flip: 'flip left-right' };
const QNAME: Record<Quadrant, string> = { TL: 'top-left', TR: 'top-right', BR: 'bottom-right', BL: 'bottom-left' };

function quadOrigin(q: Quadrant): [number, number] {
  const x = q === 'TR' || q === 'BR' ? 3 * S + G : 0;
  const y = q === 'BL' || q === 'BR' ? 3 * S + G : 0;
  return [x, y];
}

/** CSS transform of a twist for the animation (screen y points down, so +90° is clockwise). */
function twistTransform(dir: string): string {
  if (dir === 'cw') return 'rotate(90deg)';
  if (dir === 'ccw') return 'rotate(-90deg)';
  if (dir === 'flip') return 'scaleX(-1)';
  return 'none';
}

export function pentagoRenderer(events: BoardEvents): BoardRenderer {
  const element = h('div', { class: 'board board-pentago' });
  const size = 6 * S + G;
  const root = svg('svg', { viewBox: `${-M} ${-M} ${size + 2 * M} ${size + 2 * M}`, role: 'grid', 'aria-label': 'Pentago board' }, element);
  const quads = new Map<Quadrant, SVGGElement>();
  const cells: SVGGElement[] = new Array(36);
  const geometry: CellGeometry[] = new Array(36);
  for (const q of QUADRANTS) {
    const [ox, oy] = quadOrigin(q);
    const g = svg('g', { class: `quadrant q-${q}` }, root);
    svg('rect', { x: ox, y: oy, width: 3 * S, height: 3 * S, rx: 12, class: 'quad-bg' }, g);
    for (let lr = 0; lr < 3; lr++) {
      for (let lc = 0; lc < 3; lc++) {
        const r = lr + (oy > 0 ? 3 : 0);
        const c = lc + (ox > 0 ? 3 : 0);
        const i = r * 6 + c;
        const cx = ox + lc * S + S / 2;
        const cy = oy + lr * S + S / 2;
        const cg = svg('g', { 'data-index': i, 'data-cell': cellName(i, 6), class: 'cell', role: 'gridcell' }, g);
        svg('circle', { cx, cy, r: S * 0.4, class: 'cell-bg' }, cg);
        svg('circle', { cx, cy, r: S * 0.36, class: 'stone' }, cg);
        svg('circle', { cx, cy, r: S * 0.1, class: 'last-dot' }, cg);
        cells[i] = cg;
        geometry[i] = { x: cx, y: cy, r: S * 0.4 };
      }
    }
    quads.set(q, g);
  }
  // Coordinates around the board.
  for (let k = 0; k < 6; k++) {
    const off = k * S + (k >= 3 ? G : 0) + S / 2;
    svg('text', { x: off, y: size + 17, class: 'coord' }, root).textContent = String.fromCharCode(97 + k);
    svg('text', { x: -12, y: off + 5, class: 'coord' }, root).textContent = String(k + 1);
  }
  // Twist buttons: two per quadrant on its outer side, shown while a placement is pending.
  const twistLayer = svg('g', { class: 'twists' }, root);
  idCells(cells, 6);
  delegateCells(root, events);
  root.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest('[data-twist]');
    if (!b) return;
    const [q, dir] = (b.getAttribute('data-twist') ?? '').split('-');
    events.onTwist(q as Quadrant, dir ?? '');
  });
  root.addEventListener('keydown', (ev) => {
    const b = (ev.target as Element).closest('[data-twist]');
    if (!b || (ev.key !== 'Enter' && ev.key !== ' ')) return;
    ev.preventDefault();
    ev.stopPropagation();
    const [q, dir] = (b.getAttribute('data-twist') ?? '').split('-');
    events.onTwist(q as Quadrant, dir ?? '');
  });

  // The twist preview: the quadrant shown as the twist would leave it (root's data-preview names it).
  let previewed: SVGGElement | null = null;
  function clearPreview(): void {
    if (!previewed) return;
    previewed.style.transition = 'none';
    previewed.style.transform = 'none';
    previewed.classList.remove('previewing');
    previewed = null;
    delete root.dataset.preview;
    events.onPreview?.(null);
  }
  function preview(ev: Event): void {
    const b = (ev.target as Element).closest('[data-twist]');
    if (!b || animation) return;
    const [q, dir] = (b.getAttribute('data-twist') ?? '').split('-');
    const g = quads.get(q as Quadrant);
    if (!g || root.dataset.preview === `${q}-${dir}`) return;
    clearPreview();
    previewed = g;
    g.style.transition = prefersReducedMotion() ? 'none' : 'transform 200ms ease-out';
    g.style.transform = twistTransform(dir ?? '');
    g.classList.add('previewing');
    root.dataset.preview = `${q}-${dir}`;
    events.onPreview?.(`${q}-${dir}`);
  }
  const unpreview = (ev: Event) => {
    const to = (ev as FocusEvent | PointerEvent).relatedTarget as Element | null;
    if (!to?.closest?.('[data-twist]')) clearPreview();
  };
  twistLayer.addEventListener('pointerover', preview);
  twistLayer.addEventListener('focusin', preview);
  twistLayer.addEventListener('pointerout', unpreview);
  twistLayer.addEventListener('focusout', unpreview);

  let drawn: BoardView | null = null;
  let lastRefusal = -1;
  let animation: { timer: number; finish: () => void } | null = null;
  let settledWaiters: (() => void)[] = [];

  function drawCells(cellsValues: readonly number[], s: BoardState, marks: boolean): void {
    const v = s.view;
    const win = new Set(marks ? v.winning_cells : []);
    const last = new Set(marks ? v.last_cells : []);
    const hint = new Set(s.hint);
    for (let i = 0; i < 36; i++) {
      let val = cellsValues[i];
      const pending = s.pending === i;
      if (pending && v.to_move !== null) val = v.to_move;
      const name = cellName(i, 6);
      const playable = s.interactive && s.pending === null && val === -1 && [...s.legal].some((m) => m.startsWith(`${name}-`));
      cells[i]!.setAttribute(
        'class',
        cellClass({
          value: val,
          pending,
          win: win.has(i),
          last: last.has(i),
          hint: hint.has(i),
          cursor: s.showCursor && s.cursor === i,
          playable,
        }),
      );
      cells[i]!.setAttribute('aria-label', cellLabel(name, val, ['Black', 'White']));
    }
    // The game review's glyph with the last-move marker (not while a twist is animated).
    drawLastMark(cells, marks ? s : { ...s, lastMark: null });
  }

  function drawTwists(s: BoardState): void {
    twistLayer.replaceChildren();
    if (s.pending === null || !s.interactive) return;
    const name = cellName(s.pending, 6);
    for (const q of QUADRANTS) {
      const dirs = [...s.legal]
        .map(splitPentagoMove)
        .filter((m) => m && m.cell === name && m.quadrant === q)
        .map((m) => m!.dir);
      const order = ['ccw', 'flip', 'cw'].filter((d) => dirs.includes(d));
      const [ox, oy] = quadOrigin(q);
      const top = q === 'TL' || q === 'TR';
      const y = top ? oy - M * 0.6 : oy + 3 * S + M * 0.6;
      order.forEach((dir, k) => {
        const x = ox + (3 * S) / 2 + (k === 0 ? -1 : 1) * (order.length > 1 ? S * 0.75 : 0);
        const b = svg(
          'g',
          {
            class: `twist-btn twist-${dir}`,
            'data-twist': `${q}-${dir}`,
            role: 'button',
            tabindex: 0,
            'aria-label': `twist ${QNAME[q]} quadrant ${WORD[dir] ?? dir}`,
          },
          twistLayer,
        );
        svg('circle', { cx: x, cy: y, r: 19 }, b);
        svg('text', { x, y: y + 7 }, b).textContent = GLYPH[dir] ?? dir;
        svg('title', {}, b).textContent = `${q} ${WORD[dir] ?? dir} (${name}-${q}-${dir})`;
      });
    }
  }

  /** The newest state given while a twist turns (drawn when it ends). */
  let latest: BoardState | null = null;

  function endAnimation(): void {
    if (animation) {
      clearTimeout(animation.timer);
      const f = animation.finish;
      animation = null;
      f();
    }
  }

  function resolveSettled(): void {
    const w = settledWaiters;
    settledWaiters = [];
    for (const f of w) f();
  }

  return {
    element,
    ...svgBoard(root, cells, geometry), // last: the overlay layer over it all (twists turn the quadrants under it)
    part: (name) => (name === 'twists' ? twistLayer : (quads.get(name) ?? null)),
    focusTwist(twist) {
      const b = [...twistLayer.children].find((x) => x.getAttribute('data-twist') === twist);
      if (!(b instanceof SVGElement)) return false;
      b.focus({ preventScroll: true });
      return true;
    },
    previewing: () => root.dataset.preview ?? null,
    update(s: BoardState) {
      announceCursor(element, cells, s);
      // The same position drawn again (another part of the page state changed) while its twist
      // turns: the animation runs on and ends on this state.
      if (animation && s.view === drawn) {
        latest = s;
        return;
      }
      endAnimation();
      clearPreview();
      const v = s.view;
      const prev = drawn;
      drawn = v;
      const mv = v.last_move ? splitPentagoMove(v.last_move) : null;
      const placed = mv ? parseCell(mv.cell, 6, 6) : null;
      if (
        prev &&
        mv &&
        placed !== null &&
        v.ply === prev.ply + 1 &&
        prev.to_move !== null &&
        v.spec === prev.spec &&
        !prefersReducedMotion()
      ) {
        const before = prev.cells.slice();
        before[placed] = prev.to_move;
        const differs = before.some((x, i) => x !== v.cells[i]);
        const g = quads.get(mv.quadrant);
        if (differs && g) {
          drawCells(before, { ...s, pending: null, hint: [] }, false);
          drawTwists({ ...s, pending: null });
          g.style.transition = 'none';
          g.style.transform = 'none';
          void g.getBoundingClientRect();
          g.style.transition = `transform ${ANIM_MS}ms ease-in-out`;
          g.style.transform = twistTransform(mv.dir);
          g.classList.add('turning');
          latest = s;
          const finish = () => {
            g.style.transition = 'none';
            g.style.transform = 'none';
            g.classList.remove('turning');
            const now = latest ?? s;
            drawCells(v.cells, now, true);
            drawTwists(now);
            root.classList.toggle('over', v.to_move === null);
            resolveSettled();
          };
          animation = { timer: window.setTimeout(() => endAnimation(), ANIM_MS + 30), finish };
          return;
        }
      }
      drawCells(v.cells, s, true);
      drawTwists(s);
      root.classList.toggle('over', v.to_move === null);
      if (s.refused && s.refused.serial !== lastRefusal) {
        lastRefusal = s.refused.serial;
        flash(cells[s.refused.cell]);
      }
      resolveSettled();
    },
    settled() {
      if (!animation) return Promise.resolve();
      return new Promise<void>((ok) => settledWaiters.push(ok));
    },
  };
}
