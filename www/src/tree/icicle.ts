// The tree overview: an icicle on a <canvas>. Each row is one ply below the (zoomed) root; each
// node's width is its share of the visits (d3-hierarchy partition, computed in the worker, see
// snapshot.ts); colour is its mean value Q for the player who chose the move (the root's: for the side to move),
// the value its label writes (blue good, red bad);
// proven nodes get a bar on top (green: a proven win for the player who chose it, black: a proven
// loss, grey: a draw). Nodes narrower than a third of a pixel are skipped, so drawing costs what
// the pixels cost, not what the tree costs: a 100,000-node snapshot draws in a few milliseconds.
//
// Clicking a node zooms to it (click the top row to zoom out); hovering reports the node.

import type { TreeSnapshot } from '../protocol';
import { PROVEN_COLOUR, valuePalette } from '../lib/colour';
import { h } from '../lib/dom';
import { compact } from '../lib/format';
import { nodeValue, nodeValueText } from './nodelink';

const PALETTE = valuePalette(64);

export interface IcicleEvents {
  /** Hovered node (index in the snapshot) or null. */
  onHover(node: number | null): void;
  /** Clicked node. */
  onClick(node: number): void;
}

export class Icicle {
  readonly element: HTMLDivElement;
  /** The drawing (the image exports read it). */
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private snap: TreeSnapshot | null = null;
  /** Which search the data is from (`data-behind` once drawn: a move's ply, '' for live). */
  private behind = '';
  private focus = 0;
  private highlight = new Set<number>();
  private hovered: number | null = null;
  private width = 600;
  private height: number;
  private readonly maxHeight: number;
  private rowH = 18;
  private frame = 0;
  /** Milliseconds the last draw took (for the test's report). */
  lastDrawMs = 0;
  drawnNodes = 0;

  constructor(
    private readonly events: IcicleEvents,
    height = 260,
  ) {
    this.maxHeight = height;
    this.height = 96;
    this.element = h('div');
    this.element.className = 'icicle';
    this.canvas = h('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'Search tree overview (icicle): width by visits, colour by value');
    this.element.append(this.canvas);
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    new ResizeObserver(() => this.resize()).observe(this.element);
    this.canvas.addEventListener('pointermove', (ev) => {
      const n = this.nodeAt(ev.offsetX, ev.offsetY);
      if (n !== this.hovered) {
        this.hovered = n;
        this.canvas.style.cursor = n === null ? 'default' : 'pointer';
        this.schedule();
        this.events.onHover(n);
      }
    });
    this.canvas.addEventListener('pointerleave', () => {
      if (this.hovered !== null) {
        this.hovered = null;
        this.schedule();
        this.events.onHover(null);
      }
    });
    this.canvas.addEventListener('click', (ev) => {
      const n = this.nodeAt(ev.offsetX, ev.offsetY);
      if (n !== null) this.events.onClick(n);
    });
  }

  /** The tree to show; `behind` names the search it is from (the ply of the move it chose, ''
   *  for a live or analysed search), written to `data-behind` with `data-total` when drawn. */
  setData(snap: TreeSnapshot | null, focus: number, behind = ''): void {
    const grown = snap && this.snap && snap.total >= this.snap.total;
    this.snap = snap;
    this.behind = behind;
    this.focus = snap && focus < snap.count ? focus : 0;
    // The canvas grows with the tree's depth (22 px a row) up to its maximum, and shrinks only
    // when a new tree starts, so it does not jump while a search runs.
    const v = this.view();
    const want = Math.min(this.maxHeight, Math.max(96, (v?.rows ?? 1) * 22));
    const h = grown ? Math.max(this.height, want) : want;
    if (h !== this.height) {
      this.height = h;
      this.width = -1;
      this.resize();
    }
    this.schedule();
  }

  setHighlight(nodes: Set<number>): void {
    this.highlight = nodes;
    this.schedule();
  }

  private resize(): void {
    const w = Math.max(200, Math.floor(this.element.clientWidth));
    if (w === this.width && this.canvas.width > 0) return;
    this.width = w;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${this.height}px`;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private view(): { fx0: number; scale: number; d0: number; rows: number } | null {
    const s = this.snap;
    if (!s || s.count === 0) return null;
    const f = this.focus;
    const d0 = s.depth[f]!;
    const fx0 = s.x0[f]!;
    const fx1 = s.x1[f]!;
    const minW = (fx1 - fx0) / this.width / 3;
    let maxDepth = d0;
    for (let i = 0; i < s.count; i++) {
      if (s.depth[i]! > maxDepth && s.x1[i]! - s.x0[i]! >= minW && s.x0[i]! >= fx0 && s.x1[i]! <= fx1) maxDepth = s.depth[i]!;
    }
    const rows = Math.max(1, maxDepth - d0 + 1);
    return { fx0: s.x0[f]!, scale: this.width / Math.max(1e-12, s.x1[f]! - s.x0[f]!), d0, rows };
  }

  private draw(): void {
    const t0 = performance.now();
    const ctx = this.ctx;
    const styles = getComputedStyle(this.element);
    ctx.fillStyle = styles.getPropertyValue('--panel').trim() || '#fff';
    ctx.fillRect(0, 0, this.width, this.height);
    const s = this.snap;
    const v = this.view();
    if (!s || !v) {
      ctx.fillStyle = styles.getPropertyValue('--muted').trim() || '#666';
      ctx.font = '13px system-ui, sans-serif';
      ctx.fillText('No tree yet: start an analysis.', 12, 24);
      this.lastDrawMs = performance.now() - t0;
      return;
    }
    this.rowH = Math.max(4, Math.min(30, this.height / v.rows));
    const rowH = this.rowH;
    const gap = rowH >= 8 ? 1 : 0;
    let drawn = 0;
    const labels: [number, number, number, number][] = [];
    const proven: [number, number, number, number][] = [];
    for (let i = 0; i < s.count; i++) {
      const d = s.depth[i]! - v.d0;
      if (d < 0) continue;
      const x0 = (s.x0[i]! - v.fx0) * v.scale;
      const x1 = (s.x1[i]! - v.fx0) * v.scale;
      if (x1 <= 0 || x0 >= this.width) continue;
      const w = x1 - x0;
      if (w < 0.35) continue;
      const y = d * rowH;
      if (y >= this.height) continue;
      // The fill is the value its label writes (nodelink.ts `nodeValue`): the root's turned round
      // to the side to move, a proven node's its proven value.
      const value = nodeValue(s, i).value;
      ctx.fillStyle = PALETTE[Math.round(value * 64)]!;
      ctx.fillRect(x0, y, w > 2 ? w - gap : w, rowH - gap);
      drawn++;
      if (s.proven[i]) proven.push([x0, y, w, s.proven[i]!]);
      if (w > 34 && rowH >= 12) labels.push([i, x0, y, w]);
    }
    for (const [x, y, w, p] of proven) {
      ctx.fillStyle = PROVEN_COLOUR[p]!;
      ctx.fillRect(x, y, Math.max(1, w - gap), Math.max(2, Math.min(4, rowH / 4)));
    }
    ctx.font = `${Math.min(12, rowH - 5)}px system-ui, sans-serif`;
    ctx.textBaseline = 'middle';
    for (const [i, x, y, w] of labels) {
      const q = nodeValue(s, i).value;
      ctx.fillStyle = q < 0.2 || q > 0.8 ? '#fff' : '#111';
      const mv = s.move[i] === 65535 ? 'root' : (s.moves[s.move[i]!] ?? '?');
      // A move's Q is its win rate for the player who chose it; the root's is turned round to the
      // side to move; a proven node shows its proven value (nodelink.ts `nodeValueText`).
      const rate = nodeValueText(s, i);
      const text = w > 110 ? `${mv} N=${compact(s.visits[i]!)} ${rate}` : w > 60 ? `${mv} ${compact(s.visits[i]!)}` : mv;
      ctx.save();
      ctx.beginPath();
      ctx.rect(x, y, w - 2, rowH);
      ctx.clip();
      ctx.fillText(text, x + 3, y + rowH / 2);
      ctx.restore();
    }
    // Highlighted (board hover) and hovered nodes: outlines.
    const outline = (i: number, colour: string, lw: number) => {
      const d = s.depth[i]! - v.d0;
      if (d < 0) return;
      const x0 = (s.x0[i]! - v.fx0) * v.scale;
      const x1 = (s.x1[i]! - v.fx0) * v.scale;
      ctx.strokeStyle = colour;
      ctx.lineWidth = lw;
      ctx.strokeRect(x0 + lw / 2, d * rowH + lw / 2, Math.max(1, x1 - x0 - lw), rowH - lw);
    };
    const accent = styles.getPropertyValue('--accent').trim() || '#2f6fdf';
    for (const i of this.highlight) if (i < s.count) outline(i, accent, 3);
    if (this.hovered !== null && this.hovered < s.count) outline(this.hovered, styles.getPropertyValue('--fg').trim() || '#000', 2);
    this.drawnNodes = drawn;
    this.lastDrawMs = performance.now() - t0;
    this.element.dataset.drawn = String(drawn);
    this.element.dataset.count = String(s.count);
    this.element.dataset.total = String(s.total);
    this.element.dataset.behind = this.behind;
    this.element.dataset.drawMs = this.lastDrawMs.toFixed(2);
  }

  /** The node under (x, y) in CSS pixels, or null. */
  private nodeAt(x: number, y: number): number | null {
    const s = this.snap;
    const v = this.view();
    if (!s || !v) return null;
    const d = Math.floor(y / this.rowH) + v.d0;
    const fx = v.fx0 + x / v.scale;
    for (let i = 0; i < s.count; i++) {
      if (s.depth[i] === d && s.x0[i]! <= fx && fx < s.x1[i]!) return i;
    }
    return null;
  }
}

export { compact } from '../lib/format';
