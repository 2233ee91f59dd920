// The game review's views of a finished review (`gameReview.report`): the "Game review" section
// of the play view — a legend of the marks, the game graph (uPlot, as compare/charts.ts: Black's
// win probability over the positions, estimates as a line, exact values as their own marks, the
// classes marked at the position each move led to; a click goes to that position), the summary per
// player (counts per class, accuracy) with its sources, and next / previous mistake (buttons, keys
// n and N) for a chosen side. Hidden while there is no report for the game shown. The marks in
// the move list and on the board are drawn by play/panel.ts and app/board.ts from review/marks.ts.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from '../lib/dom';
import type { Store } from '../lib/store';
import {
  blackCurve,
  CLASS_GLYPH,
  displayName,
  EXACT_GLYPH,
  firstPlayer,
  MARKED_CLASSES,
  type MistakeSide,
  plyMark,
  reviews,
  stepMistake,
  summaryRows,
} from './marks';
import { REVIEW_CLASSES, type ReviewReport } from './report';

/** The part of the page state (state.ts `PageState`) the section reads: the game shown, the move
 * reviewed and the game review. (Declared here: the state's module imports this folder's report.) */
export interface ReviewViewState {
  snapshot: { moves: readonly string[] } | null;
  /** The game's tree: the review is of its main line. */
  gameTree: { moves: readonly string[] } | null;
  review: number | null;
  gameReview: { report: ReviewReport | null } | null;
}

/** The page's store, as far as the section reads it. */
export type ReviewViewStore = Pick<Store<ReviewViewState>, 'get' | 'subscribe'>;

/** What the section needs from the page: the store, and a way to show move `n` (1-based: the
 * position before it, with the move marked) or the live position (null). */
export interface GameReviewHooks {
  store: ReviewViewStore;
  /** Shows move `n` of the main line (the position before it; null: the main line's end); false
   * when the page cannot show that position now (app/navigate.ts `showMainPosition`). */
  goTo(n: number | null): boolean;
  /** Starts Learn from your mistakes for `side` (a player's name, or `both`). */
  learn?(side: string): void;
}

/** Where the sources of the figures are said (a title and a note under the summary). */
export const REVIEW_SOURCES =
  'Classes by the mover’s loss of win probability: inaccuracy 5, mistake 10, blunder 15 points of win % (Lichess, lila modules/analyse/src/main/Advice.scala); an exact blunder (??✗) turned a proven win or draw into a worse proven result, whatever the estimates. Accuracy: Lichess’s per-move formula from the win % before and after each move and its game aggregation (lichess.org/page/accuracy, lila AccuracyPercent.scala).';

const CLASS_WORD: Record<(typeof MARKED_CLASSES)[number] | 'exact', string> = {
  inaccuracy: 'inaccuracy',
  mistake: 'mistake',
  blunder: 'blunder',
  exact: 'exact blunder (won → lost, …)',
};

/** The move shown now, as the mistake steps count it (1-based move number; null: live). */
function currentMove(s: ReviewViewState): number | null {
  return s.review;
}

/** The graph's colours from the page's CSS variables (light and dark themes). */
function cssColour(host: Element, name: string, fallback: string): string {
  return getComputedStyle(host).getPropertyValue(name).trim() || fallback;
}

/** A uPlot plugin writing each marked move's glyph at the position it led to, in its class's
 * colour, and a vertical line at the position shown. */
function marksPlugin(report: ReviewReport, host: Element, shown: () => number): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const ctx = u.ctx;
          const dpr = uPlot.pxRatio;
          const curve = blackCurve(report);
          ctx.save();
          const at = shown();
          const x0 = u.valToPos(at, 'x', true);
          ctx.strokeStyle = cssColour(host, '--muted', '#666');
          ctx.lineWidth = dpr;
          ctx.setLineDash([3 * dpr, 3 * dpr]);
          ctx.beginPath();
          ctx.moveTo(x0, u.bbox.top);
          ctx.lineTo(x0, u.bbox.top + u.bbox.height);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.font = `bold ${Math.round(12 * dpr)}px system-ui, sans-serif`;
          ctx.textAlign = 'center';
          for (const p of report.plies) {
            const m = plyMark(p);
            if (!m) continue;
            const pt = curve[p.ply + 1]!;
            const x = u.valToPos(pt.position, 'x', true);
            const y = u.valToPos(pt.black * 100, 'y', true);
            const above = pt.black < 0.5;
            ctx.fillStyle = cssColour(host, `--rv-${m.kind}`, '#d33');
            ctx.beginPath();
            ctx.arc(x, y, 4 * dpr, 0, 2 * Math.PI);
            ctx.fill();
            ctx.textBaseline = above ? 'bottom' : 'top';
            ctx.fillText(m.glyph, x, y + (above ? -6 : 6) * dpr);
          }
          ctx.restore();
        },
      ],
    },
  };
}

/** The section's elements and its drawing. */
class GameReviewView {
  readonly section = h('section', { id: 'game-review', class: 'game-review', hidden: '', 'aria-labelledby': 'game-review-title' });
  private readonly chart = h('div', { class: 'chart', id: 'rv-graph' });
  private readonly axes = h('p', { class: 'muted small', id: 'rv-graph-axes' });
  private readonly summary = h('table', { class: 'rv-summary', id: 'rv-summary' });
  private readonly side = h('select', { id: 'rv-side', 'aria-label': 'Whose mistakes' });
  private readonly prev = h(
    'button',
    { type: 'button', id: 'rv-prev', 'aria-keyshortcuts': 'Shift+N', title: 'Previous mistake (N)' },
    '◀ Previous mistake',
  );
  private readonly next = h(
    'button',
    { type: 'button', id: 'rv-next', 'aria-keyshortcuts': 'N', title: 'Next mistake (n)' },
    'Next mistake ▶',
  );
  private readonly navNote = h('span', { class: 'muted small', id: 'rv-nav-note', 'aria-live': 'polite' });
  private readonly learn = h(
    'button',
    { type: 'button', id: 'rv-learn', title: 'The position before each mistake of the chosen side in turn: find a better move' },
    'Learn from your mistakes',
  );
  private plot: uPlot | null = null;
  private drawn: ReviewReport | null = null;

  constructor(private readonly hooks: GameReviewHooks) {
    const legend = h(
      'p',
      { class: 'rv-legend small', id: 'rv-legend' },
      ...[...MARKED_CLASSES, 'exact' as const].flatMap((k) => [
        h('span', { class: `rv-glyph rv-${k}` }, k === 'exact' ? EXACT_GLYPH : CLASS_GLYPH[k]),
        ` ${CLASS_WORD[k]}  `,
      ]),
      h('span', { class: 'rv-exact-dot', 'aria-hidden': 'true' }, '●'),
      ' exact value (proven)',
    );
    this.section.append(
      h('h2', { id: 'game-review-title' }, 'Game review'),
      legend,
      this.chart,
      this.axes,
      h('div', { class: 'row rv-nav' }, this.side, this.prev, this.next, this.learn, this.navNote),
      h('div', { class: 'rv-summary-box' }, this.summary),
      h('p', { class: 'muted small', id: 'rv-how', title: REVIEW_SOURCES }, `How: ${REVIEW_SOURCES}`),
    );
    this.prev.addEventListener('click', () => this.step(-1));
    this.next.addEventListener('click', () => this.step(1));
    this.learn.hidden = !hooks.learn;
    this.learn.addEventListener('click', () => hooks.learn?.(this.side.value));
    new ResizeObserver(() => {
      if (this.plot && !this.section.hidden) this.plot.setSize({ width: this.width(), height: 200 });
    }).observe(this.section);
  }

  /** Steps to the next (1) or previous (−1) mistake of the chosen side. */
  step(dir: 1 | -1): void {
    const s = this.hooks.store.get();
    const report = this.report(s);
    if (!report) return;
    const n = stepMistake(report, currentMove(s), dir, this.side.value as MistakeSide);
    if (n === null) {
      this.navNote.textContent = dir === 1 ? 'No further mistake.' : 'No earlier mistake.';
      return;
    }
    const p = report.plies[n - 1]!;
    const ok = this.hooks.goTo(n);
    this.navNote.textContent = ok
      ? `Move ${n} (${p.move}) ${plyMark(p)?.glyph ?? ''}`
      : `Move ${n} (${p.move}) ${plyMark(p)?.glyph ?? ''}: its position cannot be shown now.`;
  }

  /** The report of the game shown, if it reviews exactly that game's main line. */
  private report(s: ReviewViewState): ReviewReport | null {
    const r = s.gameReview?.report;
    const main = s.gameTree?.moves ?? s.snapshot?.moves;
    return main && reviews(r, main) ? r : null;
  }

  private width(): number {
    return Math.max(240, Math.floor(this.chart.clientWidth || this.section.clientWidth || 600));
  }

  /** Draws the section from the state. */
  draw(s: ReviewViewState): void {
    const report = this.report(s);
    this.section.hidden = !report;
    if (!report) {
      this.plot?.destroy();
      this.plot = null;
      this.drawn = null;
      return;
    }
    if (report !== this.drawn) this.build(report);
    this.plot?.redraw(false, false);
    const shown = s.review === null ? report.plies.length : s.review - 1;
    this.chart.dataset.shown = String(shown);
  }

  private build(report: ReviewReport): void {
    this.drawn = report;
    const first = firstPlayer(report);
    const names = Object.keys(report.summary);
    const keep = this.side.value;
    this.side.replaceChildren(h('option', { value: 'both' }, 'Both sides'), ...names.map((n) => h('option', { value: n }, displayName(n))));
    this.side.value = names.includes(keep) ? keep : 'both';
    this.drawSummary(report);
    const curve = blackCurve(report);
    const xs = curve.map((p) => p.position);
    // Estimates as the line (broken where a value is exact), exact values as their own dots.
    const estimate = curve.map((p) => (p.exact ? null : p.black * 100));
    const exact = curve.map((p) => (p.exact ? p.black * 100 : null));
    const black = displayName(first);
    const ax = {
      stroke: cssColour(this.section, '--muted', '#666'),
      grid: { stroke: cssColour(this.section, '--border', '#ddd'), width: 1 },
      ticks: { stroke: cssColour(this.section, '--border', '#ddd'), width: 1 },
    };
    const opts: uPlot.Options = {
      width: this.width(),
      height: 200,
      series: [
        { label: 'position' },
        {
          label: `${black}'s win probability`,
          stroke: cssColour(this.section, '--accent', '#2a62c9'),
          width: 2,
          spanGaps: false,
          points: { show: false },
          value: (_u, v) => (v == null ? '–' : `${v.toFixed(1)}%`),
        },
        {
          label: 'exact (proven)',
          stroke: cssColour(this.section, '--fg', '#1d1d1f'),
          paths: () => null,
          points: { show: true, size: 9, fill: cssColour(this.section, '--fg', '#1d1d1f') },
          value: (_u, v) => (v == null ? '' : `${v}%`),
        },
      ],
      scales: { x: { time: false, range: [0, Math.max(1, xs.length - 1)] }, y: { range: [0, 100] } },
      axes: [
        // Whole positions only (a game of a few moves would get ticks at 0.5).
        { ...ax, label: 'move', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
        { ...ax, label: `${black} win %`, size: 50, values: (_u, vals) => vals.map((v) => `${v}%`) },
      ],
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      plugins: [marksPlugin(report, this.section, () => Number(this.chart.dataset.shown ?? xs.length - 1))],
    };
    this.plot?.destroy();
    this.plot = new uPlot(opts, [xs, estimate, exact] as uPlot.AlignedData, this.chart);
    this.chart.dataset.positions = String(xs.length - 1);
    this.chart.dataset.curve = curve.map((p) => p.black.toFixed(3)).join(' ');
    // A click on the graph shows the position under the cursor: position k is the one before
    // move k + 1 (the last one is the live position).
    this.plot.over.addEventListener('click', () => {
      const k = this.plot?.cursor.idx;
      if (k === null || k === undefined) return;
      this.hooks.goTo(k >= report.plies.length ? null : k + 1);
    });
    this.axes.textContent = `Axes: x = the position after each move (0: the start); y = ${black}'s win probability there, in percent: the review's search where estimated (line), 100 / 50 / 0% where the exact solver proved a win, a draw or a loss (● in the text colour). Marks: each move's class at the position it led to. Click to show a position.`;
  }

  private drawSummary(report: ReviewReport): void {
    const rows = summaryRows(report);
    // Short headers (the marked classes by their glyphs) so that the table fits a phone.
    const head = h(
      'tr',
      {},
      h('th', {}, 'Player'),
      ...REVIEW_CLASSES.map((c) =>
        h('th', { scope: 'col', title: c }, c === 'best' || c === 'good' ? c : h('span', { class: `rv-glyph rv-${c}` }, CLASS_GLYPH[c])),
      ),
      h('th', { scope: 'col', title: REVIEW_SOURCES }, 'accuracy'),
    );
    this.summary.replaceChildren(
      h('thead', {}, head),
      h(
        'tbody',
        {},
        ...rows.map((r) =>
          h(
            'tr',
            { 'data-player': r.player },
            h('th', { scope: 'row' }, displayName(r.player)),
            ...REVIEW_CLASSES.map((c) => h('td', { 'data-class': c }, String(r.counts[c]))),
            h('td', { 'data-class': 'accuracy', title: REVIEW_SOURCES }, r.accuracy),
          ),
        ),
      ),
    );
  }
}

/** Whether a key event comes from a field that keeps its own keys. */
function typing(ev: KeyboardEvent): boolean {
  return !!(ev.target as HTMLElement | null)?.closest?.('input, select, textarea, [contenteditable]');
}

/** Mounts the "Game review" section (returned, for the app to place) and its keys: n next, N
 * (Shift+n) previous mistake, not while typing in a field nor with Ctrl/Alt/Meta. */
export function mountGameReview(hooks: GameReviewHooks): HTMLElement {
  const view = new GameReviewView(hooks);
  hooks.store.subscribe((s, prev) => {
    if (s.gameReview !== prev.gameReview || s.snapshot !== prev.snapshot || s.gameTree !== prev.gameTree || s.review !== prev.review)
      view.draw(s);
  });
  view.draw(hooks.store.get());
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== 'n' && ev.key !== 'N') return;
    if (ev.ctrlKey || ev.altKey || ev.metaKey || typing(ev) || view.section.hidden) return;
    view.step(ev.key === 'n' ? 1 : -1);
    ev.preventDefault();
  });
  return view.section;
}
