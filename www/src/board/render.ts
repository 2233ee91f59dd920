// What every board renderer offers, and small helpers they share (elements come from lib/dom.ts).
//
// A renderer draws a `BoardState` (state.ts) into its own element and reports clicks as cell
// indices (and, for Pentago, twist choices). It holds no game logic.

import { svg } from '../lib/dom';
import type { BoardSurface, CellGeometry } from '../lib/board-surface';
import type { BoardState, Quadrant } from './state';

export type { BoardSurface, CellGeometry };

export interface BoardEvents {
  /** A click (or Enter) on a cell: index `row * cols + col`. */
  onCell(cell: number): void;
  /** Pentago: the person picked the twist for the pending placement. */
  onTwist(quadrant: Quadrant, dir: string): void;
  /** Pentago: the person took back the pending placement (Escape, or a click on it). */
  onCancelPending(): void;
  /** Pentago: the twist previewed changed (`null`: none). */
  onPreview?(twist: string | null): void;
}

/** A board renderer: its drawing surface for the features (`BoardSurface`: the `<svg>`, the
 * cells' geometry, the overlay layer, the cell under a pointer, cell tooltips), and what the app
 * and the lessons drive it with. */
export interface BoardRenderer extends BoardSurface {
  /** The element to put in the page (the board and any controls of its own). */
  readonly element: HTMLElement;
  /** Draw `s`; animates the last move when `s` is one move after what was drawn before. */
  update(s: BoardState): void;
  /** Resolves when running animations have ended (tests and the engine-vs-engine pace wait on it). */
  settled(): Promise<void>;
  /** Pentago: a part of the board for the lessons to outline (the twist buttons, a quadrant). */
  part?(name: 'twists' | Quadrant): Element | null;
  /** Pentago: moves the keyboard focus to the twist button `twist` (e.g. `TL-cw`), which previews
   * its twist; false when no such button is shown. */
  focusTwist?(twist: string): boolean;
  /** Pentago: the twist previewed now (null: none). */
  previewing?(): string | null;
}

/** The `BoardSurface` of a renderer: what every SVG board implements alike, over its `<svg>`, its cells'
 * groups (`cells[i]` is cell i, carrying `data-index`) and their geometry. Call it once the
 * board's drawing is complete: the overlay layer is appended last, so it is above it all. */
export function svgBoard(root: SVGSVGElement, cells: readonly SVGGElement[], geometry: readonly CellGeometry[]): BoardSurface {
  const layer = svg('g', { class: 'overlay-layer', 'pointer-events': 'none', 'aria-hidden': 'true' }, root);
  return {
    svg: root,
    cellGeometry: () => geometry,
    overlayLayer: () => layer,
    cellAt(target) {
      const el = target instanceof Element ? target.closest('[data-index]') : null;
      if (!el || !root.contains(el)) return null;
      const i = Number(el.getAttribute('data-index'));
      return Number.isInteger(i) && cells[i] === el ? i : null;
    },
    setCellTitle(cell, text) {
      const g = cells[cell];
      if (!g) return;
      let t = g.querySelector(':scope > title');
      if (!text) {
        t?.remove();
        return;
      }
      if (!t) t = svg('title', {}, g);
      if (t.textContent !== text) t.textContent = text;
    },
  };
}

/** Adds the cell-click delegation: any element with `data-index` inside `root` is a cell. */
export function delegateCells(root: Element, events: BoardEvents): void {
  root.addEventListener('click', (ev) => {
    const target = (ev.target as Element).closest('[data-index]');
    if (!target || !root.contains(target)) return;
    const index = Number(target.getAttribute('data-index'));
    if (Number.isInteger(index)) events.onCell(index);
  });
}

/** Restarts a CSS animation class on an element (for repeated refusals on the same cell). */
export function flash(el: Element | null | undefined, cls = 'refused'): void {
  if (!el) return;
  el.classList.remove(cls);
  void (el as SVGGraphicsElement).getBoundingClientRect();
  el.classList.add(cls);
}

/** Stone or mark class for a cell value (-1 empty, 0 player 0, 1 player 1). */
export function ownerClass(v: number | undefined): string {
  return v === 0 ? 'p0' : v === 1 ? 'p1' : 'empty';
}

/** What one cell's class list shows: its value (-1 empty, 0/1 a player's) and the marks on it. */
export interface CellMarks {
  value: number | undefined;
  /** A Pentago stone placed, its twist not yet chosen. */
  pending?: boolean;
  win: boolean;
  last: boolean;
  hint: boolean;
  cursor: boolean;
  playable: boolean;
}

/** The class list of a cell: `cell`, its owner (`ownerClass`), then each mark that holds. */
export function cellClass(m: CellMarks): string {
  const marks: [boolean | undefined, string][] = [
    [m.pending, 'pending'],
    [m.win, 'win'],
    [m.last, 'last'],
    [m.hint, 'hint'],
    [m.cursor, 'cursor'],
    [m.playable, 'playable'],
  ];
  return ['cell', ownerClass(m.value), ...marks.filter(([on]) => on).map(([, name]) => name)].join(' ');
}

/** The aria label of a cell. */
export function cellLabel(name: string, v: number | undefined, playerNames: [string, string]): string {
  return v === 0 ? `${name} ${playerNames[0]}` : v === 1 ? `${name} ${playerNames[1]}` : `${name} empty`;
}

/** Writes the game review's glyph (`s.lastMark`) next to the last-move marker (`.last-dot`) of
 * the cell the last move touched, and clears it elsewhere; one `text.last-glyph` per cell,
 * made when first needed. */
export function drawLastMark(cells: readonly SVGGElement[], s: BoardState): void {
  const at = s.lastMark ? s.view.last_cells[s.view.last_cells.length - 1] : undefined;
  cells.forEach((g, i) => {
    let t = g.querySelector<SVGTextElement>('text.last-glyph');
    if (i !== at) {
      if (t) t.style.display = 'none';
      return;
    }
    const dot = g.querySelector('.last-dot');
    if (!t) {
      const cx = Number(dot?.getAttribute('cx') ?? 0);
      const cy = Number(dot?.getAttribute('cy') ?? 0);
      const r = Number(dot?.getAttribute('r') ?? 4);
      t = svg('text', { x: (cx + r * 1.6).toFixed(2), y: (cy - r * 1.4).toFixed(2), 'font-size': (r * 3.4).toFixed(2) }, g);
      svg('title', {}, t);
      svg('tspan', {}, t);
    }
    const m = s.lastMark!;
    t.style.display = '';
    t.setAttribute('class', `last-glyph rv-${m.kind}`);
    t.querySelector('tspan')!.textContent = m.glyph;
    t.querySelector('title')!.textContent = m.title;
  });
}

let boards = 0;

/** Gives each cell of a new board a page-unique id (`board3-c4`), for `announceCursor`. */
export function idCells(cells: readonly Element[], cols: number): void {
  const n = ++boards;
  cells.forEach((g, i) => {
    g.id = `board${n}-${String.fromCharCode(97 + (i % cols))}${Math.floor(i / cols) + 1}`;
  });
}

/** Tells screen readers where the keyboard cursor is: the focusable element around the board
 * (the play view's board host) gets `aria-activedescendant` = the cursor's cell while the cursor
 * shows, and the cell `aria-selected`. */
export function announceCursor(element: Element, cells: readonly Element[], s: BoardState): void {
  const host = element.closest('[tabindex]');
  cells.forEach((g, i) => {
    if (s.showCursor && s.cursor === i) g.setAttribute('aria-selected', 'true');
    else g.removeAttribute('aria-selected');
  });
  if (!host) return;
  const cell = cells[s.cursor];
  if (s.showCursor && cell?.id) host.setAttribute('aria-activedescendant', cell.id);
  else host.removeAttribute('aria-activedescendant');
}

export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
