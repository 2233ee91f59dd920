// The Compare view's charts (uPlot), over playouts: every pane's best-move win rate with a marker
// wherever its best move changed (convergence), named there (and listed under the chart), with the exact value of the position as a dashed
// line once the solver has proven it; and the win rate of the leading root moves of one pane.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { playerName } from '../games';
import { MOVE_COLOURS, SERIES_COLOURS } from '../lib/colour';
import { h } from '../lib/dom';
import type { SolveReport } from '../protocol';
import type { PaneRun } from './controller';
import { exactValue } from './truth';

/** A pane as the charts draw it: its run and the preset its label names. */
export interface ChartPane {
  run: PaneRun;
  preset: string;
}

const pct = (v: number | null) => (v == null ? null : v * 100);
const pctText = (_u: uPlot, v: number | null) => (v == null ? '–' : `${v.toFixed(1)}%`);

/** A best move at a sample where it changed (or the first sample): playouts, win rate (%), move. */
interface Change {
  x: number;
  y: number;
  move: string;
}

/** A uPlot plugin that writes each pane's best move next to the dot where it became best (the
 * first sample's too), in the pane's colour: above the dots for panes 1 and 3, below for 2 and 4,
 * so that two panes changing at the same place do not write over each other. */
function moveNames(labels: readonly { colour: string; changes: Change[]; below: boolean }[]): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const ctx = u.ctx;
          const dpr = uPlot.pxRatio;
          ctx.save();
          ctx.font = `${Math.round(11 * dpr)}px system-ui, sans-serif`;
          ctx.textAlign = 'center';
          for (const { colour, changes, below } of labels) {
            ctx.fillStyle = colour;
            ctx.textBaseline = below ? 'top' : 'bottom';
            for (const c of changes) {
              const x = u.valToPos(c.x, 'x', true);
              const y = u.valToPos(c.y, 'y', true) + (below ? 7 : -7) * dpr;
              ctx.fillText(c.move, x, y);
            }
          }
          ctx.restore();
        },
      ],
    },
  };
}

export class CompareCharts {
  private value: uPlot | null = null;
  private moves: uPlot | null = null;
  readonly valueTitle = h('h3', {}, 'Win rate of the best move over playouts (● = the best move changed, to the move named)');
  readonly valueChart = h('div', { class: 'chart', id: 'cmp-value-chart' });
  /** Each pane's best moves over playouts in words (the chart names them at its dots too). */
  readonly changes = h('ul', { class: 'muted small cmp-changes', id: 'cmp-value-changes' });
  // uPlot draws the axis names on its canvas: they are said in words under each chart as well.
  readonly valueAxes = h('div', { class: 'muted small', id: 'cmp-value-axes' });
  readonly moveAxes = h('div', { class: 'muted small', id: 'cmp-move-axes' });
  readonly moveTitle = h('h3', {}, 'Win rate of the leading root moves of');
  readonly moveChart = h('div', { class: 'chart', id: 'cmp-move-chart' });

  /** `host`: the view (its CSS variables colour the axes; the charts follow its width). */
  constructor(private readonly host: HTMLElement) {
    new ResizeObserver(() => {
      if (this.value) this.value.setSize({ width: this.width(this.valueChart), height: 220 });
      if (this.moves) this.moves.setSize({ width: this.width(this.moveChart), height: 200 });
    }).observe(host);
  }

  private width(el: HTMLElement): number {
    return Math.max(280, Math.floor(el.clientWidth || 600));
  }

  private axisStyle(): Partial<uPlot.Axis> {
    const cs = getComputedStyle(this.host);
    const fg = cs.getPropertyValue('--muted').trim() || '#666';
    const grid = cs.getPropertyValue('--border').trim() || '#ddd';
    return { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  }

  /** The y axis of both charts: win rate in percent, 0 to 100, the same in every chart. Its name
   * is short, so that it fits along the plot's height, a phone's too (written along the axis, a
   * longer one was cut at both ends); the title names the player, the sentence under the chart
   * says the rest. */
  private percentAxis(ax: Partial<uPlot.Axis>, label: string): uPlot.Axis {
    return { ...ax, label, size: 60, values: (_u, vals) => vals.map((v) => `${v}%`) };
  }

  /** Draws both charts from the panes with samples (`selected`: the pane of the moves chart, null
   * when it has not run; `solved`: the exact values of the position, once its root is proven). */
  draw(panes: readonly ChartPane[], selected: ChartPane | null, solved: SolveReport | null): void {
    const active = panes.filter((p) => p.run.samples.length);
    if (!active.length) return;
    const kind = active[0]!.run.position?.view.kind ?? 'hex';
    const toMove = active[0]!.run.stats?.to_move ?? 0;
    const who = playerName(kind, toMove);
    this.valueTitle.textContent = `Win rate of each pane’s best move for ${who} (to move), over playouts (● = the best move changed, to the move named)`;
    this.moveTitle.textContent = `Win rate for ${who} of the leading root moves of`;
    this.valueAxes.textContent = `Axes: x = playouts searched so far (every pane on the same axis); y = win rate of the pane’s best move for ${who}, the side to move, in percent (0–100%, the same scale for every pane).`;
    this.moveAxes.textContent = `Axes: x = playouts searched so far; y = win rate of each move for ${who}, in percent (0–100%).`;
    this.drawValue(active, who, toMove, solved);
    this.drawMoves(selected);
    this.host.dataset.samples = String(active.reduce((a, p) => a + p.run.samples.length, 0));
  }

  /** Value chart: x = playouts (union of every pane's sample points), one line per pane and a
   * points-only series per pane for the best-move changes. */
  private drawValue(active: readonly ChartPane[], who: string, toMove: number, solved: SolveReport | null): void {
    const xsSet = new Set<number>();
    for (const p of active) for (const s of p.run.samples) xsSet.add(s.playouts);
    const xs = [...xsSet].sort((a, b) => a - b);
    const idx = new Map(xs.map((x, i) => [x, i]));
    const data: (number | null)[][] = [xs];
    const series: uPlot.Series[] = [{ label: 'playouts' }];
    const labels: { colour: string; changes: Change[]; below: boolean }[] = [];
    for (const p of active) {
      const line: (number | null)[] = new Array(xs.length).fill(null);
      const changes: (number | null)[] = new Array(xs.length).fill(null);
      let prev: string | null | undefined;
      const named: Change[] = [];
      for (const s of p.run.samples) {
        const i = idx.get(s.playouts)!;
        line[i] = pct(s.value);
        if (prev !== undefined && s.best !== prev) changes[i] = pct(s.value);
        // The best move at the first sample and at each change, named on the chart.
        if (s.best !== prev) named.push({ x: s.playouts, y: pct(s.value)!, move: s.best ?? '–' });
        prev = s.best;
      }
      labels.push({ colour: SERIES_COLOURS[p.run.k]!, changes: named, below: p.run.k % 2 === 1 });
      data.push(line, changes);
      const colour = SERIES_COLOURS[p.run.k]!;
      series.push(
        {
          label: `pane ${p.run.k + 1} ${p.preset}`,
          stroke: colour,
          width: 2,
          spanGaps: true,
          points: { show: false },
          value: pctText,
        },
        {
          label: `best move changed (${p.run.k + 1})`,
          stroke: colour,
          paths: () => null,
          points: { show: true, size: 8, fill: colour },
          value: (_u, v) => (v == null ? '' : '●'),
        },
      );
    }
    // The exact value of the position for the side to move (the chart's player), once proven:
    // a dashed line at 100% (it wins with perfect play), 50% (a draw) or 0% (it loses).
    const ev = solved && solved.toMove === toMove ? exactValue(solved) : null;
    this.valueChart.dataset.exact = ev === null ? '' : String(ev);
    if (ev !== null && xs.length) {
      data.push(xs.map(() => ev * 100));
      series.push({
        label: `exact value: ${ev === 1 ? `${who} wins` : ev === 0 ? `${who} loses` : 'a draw'} (${ev * 100}%)`,
        stroke: getComputedStyle(this.host).getPropertyValue('--fg').trim() || '#1d1d1f',
        width: 2,
        dash: [8, 5],
        points: { show: false },
        value: (_u, v) => (v == null ? '–' : `${v}%`),
      });
      const says =
        ev === 1
          ? `100%: ${who} wins with perfect play`
          : ev === 0
            ? `0%: ${who} loses against perfect play`
            : '50%: a draw with perfect play';
      this.valueAxes.textContent += ` Dashed line: the exact value of the position for ${who}, proven by the exact solver — ${says}.`;
    }
    const ax = this.axisStyle();
    this.valueChart.dataset.yLabel = 'win rate (%)';
    const opts: uPlot.Options = {
      width: this.width(this.valueChart),
      height: 220,
      series,
      scales: { x: { time: false }, y: { range: [0, 100] } },
      axes: [{ ...ax, label: 'playouts (searched so far)' }, this.percentAxis(ax, this.valueChart.dataset.yLabel)],
      legend: { live: false },
      plugins: [moveNames(labels)],
    };
    this.value?.destroy();
    this.value = new uPlot(opts, data as uPlot.AlignedData, this.valueChart);
    this.changes.replaceChildren(
      ...active.map((p, j) =>
        h(
          'li',
          { 'data-pane': String(p.run.k + 1), 'data-changes': labels[j]!.changes.map((c) => `${c.x}:${c.move}`).join(' ') },
          // The pane's series colour as a swatch (a graphic, as in the chart's legend), not a
          // coloured text glyph: text in a series colour would not reach 4.5:1 on every theme.
          h('span', {
            class: 'swatch',
            'aria-hidden': 'true',
            style: `background:${SERIES_COLOURS[p.run.k]};border-color:${SERIES_COLOURS[p.run.k]};width:0.6rem;height:0.6rem;margin-right:0.3rem`,
          }),
          `pane ${p.run.k + 1} ${p.preset}, best move: `,
          labels[j]!.changes.map((c, k) => `${c.move} ${k === 0 ? 'from' : 'at'} ${c.x.toLocaleString('en')}`).join(' → '),
        ),
      ),
    );
    this.valueChart.append(this.changes);
  }

  /** Moves chart for the selected pane: the win rate of its 6 most-visited moves (at the latest sample). */
  private drawMoves(sel: ChartPane | null): void {
    const samples = sel?.run.samples ?? [];
    const ms = (sel?.run.stats?.children ?? []).slice(0, 6).map((c) => c.move);
    const mx = samples.map((s) => s.playouts);
    const mdata: (number | null)[][] = [mx, ...ms.map((m) => samples.map((s) => pct(s.q.get(m) ?? null)))];
    const mseries: uPlot.Series[] = [
      { label: 'playouts' },
      ...ms.map((m, i) => ({
        label: m,
        stroke: MOVE_COLOURS[i]!,
        width: 2,
        spanGaps: true,
        points: { show: false },
        value: pctText,
      })),
    ];
    const ax = this.axisStyle();
    this.moves?.destroy();
    this.moves =
      mx.length && ms.length
        ? new uPlot(
            {
              width: this.width(this.moveChart),
              height: 200,
              series: mseries,
              scales: { x: { time: false }, y: { range: [0, 100] } },
              axes: [{ ...ax, label: 'playouts (searched so far)' }, this.percentAxis(ax, 'win rate (%)')],
              legend: { live: false },
            },
            mdata as uPlot.AlignedData,
            this.moveChart,
          )
        : null;
  }
}
