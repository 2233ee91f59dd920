// Search overlays drawn on top of the playground's board (any of the three renderers): share of
// visits, the prior P of each move (what the policy — a network, or PUCT's uniform / tactical
// priors — gives it before any search), mean value Q and AMAF value per move, proven wins/losses (MCTS-Solver), the principal
// variation as numbered ghost stones, and a hovered tree node's line.
//
// The overlay is one SVG group in the renderer's overlay layer (`BoardSurface.overlayLayer`: over
// the board, pointer-events off, so the board keeps its clicks), placed by the renderer's cell
// geometry (`BoardSurface.cellGeometry`); it never looks inside the renderer's drawing.
// For Pentago, whose moves are a placement plus one of 8 twists, figures are aggregated per cell:
// visits summed, Q and AMAF averaged weighted by visits (AMAF visits), a cell proven a win when one
// of its moves is, a loss when all of its legal moves are.

import type { BoardView, ExactValue, FullChildStats, Player, PositionEvaluation } from '../protocol';
import { cellOfMove, cellsOfLine } from '../games';
import { cellName } from '../board';
import { svg } from '../lib/dom';
import { PRIOR_FILL, VISIT_FILL, valueColour, visitOpacity } from '../lib/colour';
import { moveWinRate, moveWinRateShort, share, winRateShort } from '../lib/format';
import type { OverlayKey } from '../state';
import type { BoardSurface, CellGeometry } from '../lib/board-surface';

export type { OverlayKey };

export interface OverlayToggle {
  key: OverlayKey;
  label: string;
  hotkey: string;
  title: string;
}

export const OVERLAYS: OverlayToggle[] = [
  { key: 'visits', label: 'Visits', hotkey: 'v', title: 'Share of the root’s visits per move (heat and %)' },
  {
    key: 'prior',
    label: 'P',
    hotkey: 'r',
    title: 'Prior P per move: the policy’s probability before any search (network, or uniform / tactical priors); PUCT presets only',
  },
  { key: 'q', label: 'Q', hotkey: 'q', title: 'Win rate (mean value Q) per move, in percent, for the side to move' },
  {
    key: 'amaf',
    label: 'AMAF',
    hotkey: 'a',
    title: 'AMAF (all-moves-as-first) win rate per move, in percent, for the side to move; RAVE/GRAVE presets only',
  },
  { key: 'proven', label: 'Proven', hotkey: 's', title: 'Moves proven won (W) or lost (L) by MCTS-Solver' },
  { key: 'pv', label: 'PV', hotkey: 'p', title: 'The principal variation as numbered ghost stones' },
  {
    key: 'exact',
    label: 'Exact',
    hotkey: 'x',
    title:
      'The exact solver’s value of each move for the side to move (Solve: Hex up to 8×8, Tic-Tac-Toe, Pentago endgames): ✓ win, = draw, ✗ loss, ? not proven yet',
  },
];

/** The exact overlay's badge text per value (`open`: not proven yet; '': no badge). */
export const EXACT_MARK: Record<ExactValue | 'open' | '', string> = { win: '✓', draw: '=', loss: '✗', open: '?', '': '' };

/** Per-cell figures for the overlays. */
export interface CellFigures {
  visits: number;
  q: number | null;
  amaf: number | null;
  proven: 'win' | 'loss' | 'draw' | null;
}

/** Aggregates root children per board cell (the game's `cellOfMove`; Pentago: over the twists
 * of each cell). `legal` is the position's legal moves (to know when every move of a cell is
 * proven lost). */
export function figuresByCell(view: BoardView, children: FullChildStats[], legal: readonly string[]): Map<number, CellFigures> {
  const acc = new Map<number, { n: number; w: number; an: number; aw: number; win: boolean; lost: number; drawn: number }>();
  for (const c of children) {
    const cell = cellOfMove(view, c.move);
    if (cell === null) continue;
    let a = acc.get(cell);
    if (!a) {
      a = { n: 0, w: 0, an: 0, aw: 0, win: false, lost: 0, drawn: 0 };
      acc.set(cell, a);
    }
    a.n += c.visits;
    a.w += c.q * c.visits;
    if (c.amaf_q !== null && c.amaf_visits > 0) {
      a.an += c.amaf_visits;
      a.aw += c.amaf_q * c.amaf_visits;
    }
    if (c.proven === 'win') a.win = true;
    if (c.proven === 'loss') a.lost++;
    if (c.proven === 'draw') a.drawn++;
  }
  // The legal moves each cell stands for (1 where a move is a cell).
  const movesPerCell = new Map<number, number>();
  for (const m of legal) {
    const cell = cellOfMove(view, m);
    if (cell !== null) movesPerCell.set(cell, (movesPerCell.get(cell) ?? 0) + 1);
  }
  const out = new Map<number, CellFigures>();
  for (const [cell, a] of acc) {
    const all = movesPerCell.get(cell) ?? 1;
    out.set(cell, {
      visits: a.n,
      q: a.n > 0 ? a.w / a.n : null,
      amaf: a.an > 0 ? a.aw / a.an : null,
      proven: a.win ? 'win' : a.lost >= all ? 'loss' : a.lost + a.drawn >= all && a.drawn > 0 ? 'draw' : null,
    });
  }
  return out;
}

/** The evaluator's priors per board cell (Pentago: summed over the twists of each cell), or null. */
export function priorsByCell(e: PositionEvaluation | null, view: BoardView): Map<number, number> | null {
  if (!e) return null;
  const out = new Map<number, number>();
  for (const p of e.priors) {
    const cell = cellOfMove(view, p.move);
    if (cell !== null) out.set(cell, (out.get(cell) ?? 0) + p.p);
  }
  return out;
}

/** The cells of `v` that hold a stone. */
export function stonesOf(v: BoardView): Set<number> {
  const out = new Set<number>();
  v.cells.forEach((p, i) => {
    if (p >= 0) out.add(i);
  });
  return out;
}

export interface OverlayData {
  /** The position the figures are of: its game decides which cell a move is drawn on. */
  view: BoardView;
  rows: number;
  cols: number;
  /** Side to move at the root (whose view Q and AMAF are in). */
  toMove: Player;
  cells: Map<number, CellFigures>;
  /** Total root visits (children's sum). */
  rootVisits: number;
  pv: string[];
  /** A hovered tree node: the moves from the root to it, then its own principal variation. */
  line: { path: string[]; pv: string[] } | null;
  /** Board cells to ring (e.g. the hovered tree node's move). */
  highlight: Set<number>;
  /** Prior P per cell (Pentago: summed over the twists), for the `prior` overlay; null when the
   * search has no priors (not PUCT) or they are not known yet. */
  priors?: Map<number, number> | null;
  /** Most ghost stones of `line` to draw (default 12; the step-through shows a whole playout). */
  lineCap?: number;
  /** Cells with a stone on the board drawn under the overlay, when that board is not the
   * searched position (the search behind a move, drawn on the position after it): no heat or
   * ghost stone covers them, so the move played shows as the stone it is (with its last-move
   * dot); its figures stay, as a label under the stone's centre. */
  stones?: ReadonlySet<number> | null;
  /** The exact solver's value of each root move's cell for the side to move (win, draw or
   * loss; null: not proven yet), for the `exact` overlay; null: no solve of this position. */
  exact?: ReadonlyMap<number, ExactValue | null> | null;
}

interface CellEls {
  heat: SVGCircleElement;
  ring: SVGCircleElement;
  label: SVGTextElement;
  ghost: SVGCircleElement;
  num: SVGTextElement;
  /** The visit share written on a ghost stone, under its number. */
  sub: SVGTextElement;
  /** The exact solver's badge: ✓ (win), = (draw), ✗ (loss) or ? (not proven yet) in the cell's
   * corner. */
  exactBg: SVGCircleElement;
  exactMark: SVGTextElement;
}

/** The smallest label, in screen pixels, the overlay writes: on a board drawn smaller (Hex 11×11
 * in a quarter of a Compare row: 4 px, a large board on a phone) it writes only the most visited
 * cells' figures, at `BIG_LABEL_PX` (their neighbours, unlabelled, leave it room), and the rest
 * is heat. */
export const MIN_LABEL_PX = 7;
/** The size of those labels, in screen pixels. */
export const BIG_LABEL_PX = 10;
/** How many cells keep their figures on such a board. */
export const SMALL_BOARD_LABELS = 3;

/** The overlay of one board renderer. */
export class BoardOverlay {
  readonly group: SVGGElement;
  private readonly cells: CellEls[] = [];
  private readonly geom: readonly CellGeometry[];

  /** The overlay of `board`, drawn in its overlay layer (one overlay per renderer). */
  constructor(readonly board: BoardSurface) {
    this.geom = board.cellGeometry();
    this.group = svg('g', { class: 'viz-overlay', 'pointer-events': 'none', 'aria-hidden': 'true' }, board.overlayLayer());
    for (let i = 0; i < this.geom.length; i++) {
      const g = svg('g', {}, this.group);
      this.cells.push({
        heat: svg('circle', { class: 'ov-heat' }, g),
        ring: svg('circle', { class: 'ov-ring' }, g),
        ghost: svg('circle', { class: 'ov-ghost' }, g),
        num: svg('text', { class: 'ov-num' }, g),
        sub: svg('text', { class: 'ov-sub' }, g),
        label: svg('text', { class: 'ov-label' }, g),
        exactBg: svg('circle', { class: 'ov-exact' }, g),
        exactMark: svg('text', { class: 'ov-exact-mark' }, g),
      });
      g.dataset.ovCell = String(i);
    }
    this.place();
  }

  /** Puts each cell's marks at its cell (centre, radius). */
  private place(): void {
    this.cells.forEach((c, i) => {
      const at = this.geom[i];
      const x = at?.x ?? 0;
      const y = at?.y ?? 0;
      const r = at?.r ?? 0;
      const set = (el: Element, attrs: Record<string, number | string>) => {
        for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, typeof v === 'number' ? String(+v.toFixed(2)) : v);
      };
      set(c.heat, { cx: x, cy: y, r: r * 0.86 });
      set(c.ring, { cx: x, cy: y, r: r * 0.8 });
      set(c.ghost, { cx: x, cy: y, r: r * 0.62 });
      set(c.num, { x, y: y + r * 0.2, 'font-size': (r * 0.6).toFixed(1) });
      set(c.sub, { x, y: y + r * 0.5, 'font-size': (r * 0.3).toFixed(1) });
      set(c.label, { x, y, 'font-size': (r * 0.42).toFixed(1) });
      set(c.exactBg, { cx: x + r * 0.5, cy: y - r * 0.5, r: r * 0.34 });
      set(c.exactMark, { x: x + r * 0.5, y: y - r * 0.5 + r * 0.17, 'font-size': (r * 0.46).toFixed(1) });
      delete c.label.dataset.key;
    });
  }

  /** Whether the renderer this overlay was built for is still in the page, the overlay in it. */
  get attached(): boolean {
    return this.board.svg.isConnected && this.group.parentNode === this.board.overlayLayer();
  }

  /** Screen pixels per SVG unit of the board as drawn now (1 when it is not laid out). */
  private scale(): number {
    const vb = this.board.svg.viewBox?.baseVal;
    const w = this.board.svg.getBoundingClientRect().width;
    return vb && vb.width > 0 && w > 0 ? w / vb.width : 1;
  }

  draw(d: OverlayData | null, on: ReadonlySet<OverlayKey>): void {
    // Labels too small to read: only the most visited cells keep theirs, at a readable size.
    const scale = this.scale();
    const r0 = this.geom.find((g) => g)?.r ?? 10;
    const small = r0 * 0.42 * scale < MIN_LABEL_PX;
    const labelSize = small ? BIG_LABEL_PX / scale : null;
    const labelled =
      small && d
        ? new Set(
            [...d.cells]
              .sort((a, b) => b[1].visits - a[1].visits)
              .slice(0, SMALL_BOARD_LABELS)
              .map(([c]) => c),
          )
        : null;
    this.group.dataset.small = String(small);
    const ghosts = new Map<number, { n: number; player: number; path: boolean }>();
    if (d) {
      const line = d.line
        ? [...d.line.path.map((m) => ({ m, path: true })), ...d.line.pv.map((m) => ({ m, path: false }))]
        : on.has('pv')
          ? d.pv.map((m) => ({ m, path: false }))
          : [];
      // A long line would cover a small board (and the figures under it): at most a sixth of the
      // cells (3 to 10 stones) for the PV; a hovered node's path is always shown whole.
      const cap = d.line ? (d.lineCap ?? 12) : Math.max(3, Math.min(10, Math.floor((d.rows * d.cols) / 6)));
      const shown = line.slice(0, cap);
      const cells = cellsOfLine(
        d.view,
        shown.map(({ m }) => m),
      );
      shown.forEach(({ path }, k) => {
        const cell = cells[k] ?? null;
        if (cell !== null && !ghosts.has(cell)) ghosts.set(cell, { n: k + 1, player: (d.toMove + k) % 2, path });
      });
    }
    const maxVisits = d ? Math.max(1, ...[...d.cells.values()].map((f) => f.visits)) : 1;
    const priors = on.has('prior') ? (d?.priors ?? null) : null;
    const maxPrior = priors ? Math.max(1e-9, ...priors.values()) : 1;
    this.cells.forEach((c, i) => {
      const f = d?.cells.get(i);
      const onStone = d?.stones?.has(i) ?? false;
      const ghost = onStone ? undefined : ghosts.get(i);
      const prior = priors?.get(i);
      // Heat: visits when on, else Q, else AMAF, else the prior P.
      let fill: string | null = null;
      let opacity = 0;
      if (
        prior !== undefined &&
        !(on.has('visits') && f && f.visits > 0) &&
        !(on.has('q') && f?.q != null) &&
        !(on.has('amaf') && f?.amaf != null)
      ) {
        fill = PRIOR_FILL;
        opacity = visitOpacity(prior, maxPrior);
      }
      if (f && d && f.visits > 0) {
        if (on.has('visits')) {
          fill = VISIT_FILL;
          opacity = visitOpacity(f.visits, maxVisits);
        } else if (on.has('q') && f.q !== null) {
          fill = valueColour(f.q);
          opacity = 0.85;
        } else if (on.has('amaf') && f.amaf !== null) {
          fill = valueColour(f.amaf);
          opacity = 0.85;
        }
      }
      // The heat stays under a ghost stone (its ring shows around the stone), so the principal
      // variation never hides the visit share of the cells it crosses.
      if (onStone) fill = null;
      c.heat.style.display = fill ? '' : 'none';
      if (fill) {
        c.heat.style.fill = fill;
        c.heat.style.fillOpacity = opacity.toFixed(2);
      }
      const lines: string[] = [];
      const fontSize = (labelSize ?? (this.geom[i]?.r ?? 10) * 0.42).toFixed(1);
      if (c.label.getAttribute('font-size') !== fontSize) c.label.setAttribute('font-size', fontSize);
      c.label.classList.toggle('ov-big', labelSize !== null);
      if (labelled && !labelled.has(i)) {
        // Unreadable here: the cell's figures are left to its heat (and a hover in Compare).
      } else if (!f && prior !== undefined && !ghost) lines.push(`P${share(prior)}`);
      if (f && d && !ghost && (!labelled || labelled.has(i))) {
        if (on.has('visits') && f.visits > 0) lines.push(share(f.visits / Math.max(1, d.rootVisits)));
        if (prior !== undefined) lines.push(`P${share(prior)}`);
        if (on.has('q') && f.q !== null && f.visits > 0) lines.push(`Q${moveWinRateShort(f.q, f.proven)}`);
        if (on.has('amaf') && f.amaf !== null) lines.push(`A${winRateShort(f.amaf)}`);
      }
      // On a stone the label sits under the centre, clear of the last-move dot.
      const at = this.geom[i] ?? { y: 0, r: 10 };
      c.label.setAttribute('y', String(onStone ? at.y + at.r * 0.5 : at.y));
      setLines(c.label, lines);
      const proven = on.has('proven') && f?.proven ? f.proven : null;
      const hl = d?.highlight.has(i) ?? false;
      c.ring.style.display = proven || hl ? '' : 'none';
      c.ring.setAttribute('class', `ov-ring ${hl ? 'ov-hl' : `ov-${proven}`}`);
      if (proven && !ghost) {
        lines.unshift(proven === 'win' ? 'W' : proven === 'loss' ? 'L' : 'D');
        setLines(c.label, lines);
      }
      c.ghost.style.display = ghost ? '' : 'none';
      c.num.style.display = ghost ? '' : 'none';
      const sub = ghost && f && d && on.has('visits') && f.visits > 0 && !small ? share(f.visits / Math.max(1, d.rootVisits)) : '';
      c.sub.style.display = sub ? '' : 'none';
      if (ghost) {
        c.ghost.setAttribute('class', `ov-ghost p${ghost.player}${ghost.path ? ' path' : ''}`);
        c.num.setAttribute('class', `ov-num p${ghost.player}`);
        c.num.textContent = String(ghost.n);
        // With the share under it, the number moves up to make room.
        const r = Number(c.ghost.getAttribute('r')) / 0.62;
        c.num.setAttribute('y', (Number(c.ghost.getAttribute('cy')) + r * (sub ? 0.08 : 0.2)).toFixed(2));
        c.sub.setAttribute('class', `ov-sub p${ghost.player}`);
        c.sub.textContent = sub;
      }
      // The exact solver's value of the move (a corner badge, apart from MCTS-Solver's rings).
      const exact = on.has('exact') && d?.exact?.has(i) ? d.exact.get(i)! : undefined;
      const kind = exact === undefined ? '' : (exact ?? 'open');
      const group = c.exactBg.parentNode as SVGGElement;
      if (group.dataset.exact !== kind) {
        group.dataset.exact = kind;
        c.exactBg.style.display = kind ? '' : 'none';
        c.exactMark.style.display = kind ? '' : 'none';
        c.exactBg.setAttribute('class', `ov-exact ${kind}`);
        c.exactMark.setAttribute('class', `ov-exact-mark ${kind}`);
        c.exactMark.textContent = EXACT_MARK[kind];
      }
    });
  }

  /** Gives each cell of the board a tooltip with its figures (`d4: 26% of the root's visits, win
   * rate 53.2% for Black`), for boards whose labels are too small or left out (Compare panes:
   * their boards take no clicks, so a title is all a cell carries). */
  titleCells(d: OverlayData | null, who: string): void {
    for (let i = 0; i < this.geom.length; i++) {
      const f = d?.cells.get(i);
      const name = cellName(i, d?.cols ?? 1);
      const text = !d
        ? ''
        : !f || f.visits === 0
          ? `${name}: not visited`
          : `${name}: ${share(f.visits / Math.max(1, d.rootVisits))} of the root’s visits, win rate ${moveWinRate(f.q, f.proven)} for ${who}`;
      this.board.setCellTitle(i, text);
    }
  }

  remove(): void {
    this.group.remove();
  }
}

/** Writes up to three centred lines into a <text> with <tspan>s. */
function setLines(t: SVGTextElement, lines: string[]): void {
  const key = `${t.getAttribute('y')}\n${t.getAttribute('font-size')}\n${lines.join('\n')}`;
  if (t.dataset.key === key) return;
  t.dataset.key = key;
  t.replaceChildren();
  const size = Number(t.getAttribute('font-size'));
  const x = t.getAttribute('x')!;
  const y0 = Number(t.getAttribute('y')) + size * 0.35 - ((lines.length - 1) * size * 1.05) / 2;
  lines.slice(0, 3).forEach((line, k) => {
    const s = svg('tspan');
    s.setAttribute('x', x);
    s.setAttribute('y', (y0 + k * size * 1.05).toFixed(2));
    s.textContent = line;
    t.appendChild(s);
  });
}

/** The cells whose moves are in `moves` (Pentago: the placement cell of each). */
export function cellsOfMoves(moves: Iterable<string>, view: BoardView): Set<number> {
  const s = new Set<number>();
  for (const m of moves) {
    const c = cellOfMove(view, m);
    if (c !== null) s.add(c);
  }
  return s;
}

/** The root moves that a board cell stands for (the game's `cellOfMove`; Pentago: every twist
 * from that cell). */
export function movesOfCell(cell: number, view: BoardView, moves: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const m of moves) if (cellOfMove(view, m) === cell) out.add(m);
  return out;
}
