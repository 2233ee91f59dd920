// Side by side: two to four engines, each in its own worker with its own configuration (preset plus
// c, rave_k, lgr_p, pool size, budget), search the same position with the same seed, all at once.
// Each pane shows its root visit distribution, best move, value, playouts per second and a small
// tree overview; under the panes, uPlot charts over playouts: every configuration's best-move
// value with a marker wherever its best move changed (convergence), and the win-rate estimate
// (mean value Q) of the leading root moves of the selected pane.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { EngineClient, EngineDied, SearchCancelled } from '../engine';
import type { FullStats, Snapshot, TreeSnapshot } from '../protocol';
import { Icicle } from '../tree/icicle';
import { playerName } from '../board';
import { whenPresets, type CompareSettings, type PageStore, type PaneFields, type PaneKey } from '../state';
import { h } from '../lib/dom';
import { MOVE_COLOURS, SERIES_COLOURS } from '../lib/colour';

/** Samples per run: the budget is searched in this many equal steps. */
const STEPS = 40;
const PARAMS: { key: string; label: string; title: string }[] = [
  { key: 'c', label: 'c', title: 'UCT exploration constant c (blank: the preset’s)' },
  { key: 'rave_k', label: 'k', title: 'RAVE equivalence parameter k (blank: the preset’s)' },
  { key: 'lgr_p', label: 'p', title: 'LGR: probability of playing a stored reply (blank: the preset’s)' },
  { key: 'pool_k', label: 'pool', title: 'PoolRAVE pool size (blank: the preset’s)' },
];

interface Sample {
  playouts: number;
  value: number;
  best: string | null;
  q: Map<string, number>;
}

interface Pane {
  k: number;
  el: HTMLElement;
  preset: HTMLSelectElement;
  params: Map<string, HTMLInputElement>;
  budget: HTMLInputElement;
  client: EngineClient | null;
  samples: Sample[];
  stats: FullStats | null;
  readout: HTMLElement;
  bars: HTMLElement;
  icicle: Icicle;
  running: boolean;
}

export interface CompareHooks {
  store: PageStore;
  snapshot(): Snapshot | null;
  presets(): string[];
}

export function mountCompare(host: HTMLElement, hooks: CompareHooks): void {
  const spec = h('input', { id: 'cmp-game', value: 'hex:7', 'aria-label': 'Game spec', size: '10' });
  const moves = h('input', {
    id: 'cmp-moves',
    value: '',
    'aria-label': 'Moves to the position',
    placeholder: 'moves, e.g. d4 c5',
    size: '28',
  });
  const fromGame = h('button', { type: 'button', id: 'cmp-from-game' }, 'Use the game’s position');
  const seed = h('input', { id: 'cmp-seed', type: 'number', value: '1', min: '0', 'aria-label': 'Seed', class: 'num' });
  const budget = h('input', {
    id: 'cmp-budget',
    type: 'number',
    value: '50000',
    min: '100',
    step: '1000',
    'aria-label': 'Budget in playouts for every pane',
    class: 'num',
  });
  const count = h(
    'select',
    { id: 'cmp-count', 'aria-label': 'Number of panes' },
    ...[2, 3, 4].map((n) => h('option', { value: String(n) }, `${n} panes`)),
  );
  const runBtn = h('button', { type: 'button', id: 'cmp-run', class: 'primary' }, 'Run all');
  const stopBtn = h('button', { type: 'button', id: 'cmp-stop', disabled: '' }, 'Stop');
  const note = h('div', { id: 'cmp-note', class: 'muted small' });
  const panesHost = h('div', { class: 'cmp-panes', id: 'cmp-panes' });
  const select = h('select', { id: 'cmp-select', 'aria-label': 'Pane whose moves the lower chart shows' });
  const valueChart = h('div', { class: 'chart', id: 'cmp-value-chart' });
  const moveChart = h('div', { class: 'chart', id: 'cmp-move-chart' });
  host.append(
    h('h2', {}, 'Side by side'),
    h(
      'div',
      { class: 'row cmp-controls' },
      h('label', {}, 'game ', spec),
      h('label', {}, 'moves ', moves),
      fromGame,
      h('label', {}, 'seed ', seed),
      h('label', {}, 'playouts ', budget),
      count,
      runBtn,
      stopBtn,
    ),
    note,
    panesHost,
    h(
      'div',
      { class: 'an-card' },
      h('h3', {}, 'Best-move value over playouts (● = the best move changed)'),
      valueChart,
      h('div', { class: 'tree-head' }, h('h3', {}, 'Win-rate estimate (Q) of the leading root moves of'), select),
      moveChart,
    ),
  );

  const panes: Pane[] = [];
  const DEFAULTS = ['uct', 'rave', 'lgr', 'poolrave'];

  function makePane(k: number): Pane {
    const preset = h('select', { id: `cmp-preset-${k}`, 'aria-label': `Preset of pane ${k + 1}` });
    const params = new Map<string, HTMLInputElement>();
    const fields = h('div', { class: 'cmp-params' });
    for (const p of PARAMS) {
      const i = h('input', {
        id: `cmp-${p.key}-${k}`,
        type: 'number',
        step: 'any',
        placeholder: 'preset',
        title: p.title,
        'aria-label': `${p.title}, pane ${k + 1}`,
      });
      params.set(p.key, i);
      fields.append(h('label', { title: p.title }, `${p.label} `, i));
    }
    const paneBudget = h('input', {
      id: `cmp-budget-${k}`,
      type: 'number',
      min: '100',
      step: '1000',
      placeholder: 'same',
      title: 'Playouts for this pane (blank: the common budget)',
      'aria-label': `Budget of pane ${k + 1}`,
    });
    fields.append(h('label', { title: 'Playouts for this pane (blank: the common budget)' }, 'playouts ', paneBudget));
    const readout = h('div', { class: 'cmp-readout', id: `cmp-readout-${k}` });
    const bars = h('div', { class: 'cmp-bars', id: `cmp-bars-${k}` });
    const icicle = new Icicle({ onHover: () => {}, onClick: () => {} }, 90);
    const el = h(
      'div',
      { class: 'an-card cmp-pane', id: `cmp-pane-${k}`, style: `border-top: 4px solid ${SERIES_COLOURS[k]}` },
      h('div', { class: 'tree-head' }, h('h3', {}, `Pane ${k + 1}`), preset),
      fields,
      readout,
      h('div', { class: 'muted small' }, 'root visits (share) and Q for the side to move'),
      bars,
      h('div', { class: 'muted small' }, 'tree overview'),
      icicle.element,
    );
    return { k, el, preset, params, budget: paneBudget, client: null, samples: [], stats: null, readout, bars, icicle, running: false };
  }

  function syncPanes(): void {
    const n = Number(count.value);
    while (panes.length < n) panes.push(makePane(panes.length));
    panesHost.replaceChildren(...panes.slice(0, n).map((p) => p.el));
    panesHost.dataset.count = String(n);
    const ps = hooks.presets();
    for (const p of panes) {
      if (p.preset.options.length !== ps.length) {
        p.preset.replaceChildren(...ps.map((x) => h('option', { value: x }, x)));
        p.preset.value = ps.includes(DEFAULTS[p.k]!) ? DEFAULTS[p.k]! : (ps[0] ?? '');
      }
    }
    select.replaceChildren(...panes.slice(0, n).map((p) => h('option', { value: String(p.k) }, `pane ${p.k + 1} (${p.preset.value})`)));
  }
  count.addEventListener('change', syncPanes);

  // The form is page state (the URL reads and writes it there): every edit goes to the store, and
  // a change in the store (e.g. from the URL) comes back into the form.
  function read(): CompareSettings {
    const n = Number(count.value);
    return {
      game: spec.value,
      moves: moves.value,
      budget: budget.value,
      seed: seed.value,
      panes: panes.slice(0, n).map((p) => {
        const f: PaneFields = { preset: p.preset.value, budget: p.budget.value };
        for (const [k, i] of p.params) f[k as PaneKey] = i.value;
        return f;
      }),
    };
  }
  function write(s: CompareSettings): void {
    spec.value = s.game;
    moves.value = s.moves;
    budget.value = s.budget;
    seed.value = s.seed;
    count.value = String(Math.min(4, Math.max(2, s.panes.length)));
    syncPanes();
    s.panes.forEach((f, k) => {
      const p = panes[k];
      if (!p) return;
      if (f.preset !== undefined && [...p.preset.options].some((o) => o.value === f.preset)) p.preset.value = f.preset;
      for (const [key, i] of p.params) i.value = f[key as PaneKey] ?? '';
      p.budget.value = f.budget ?? '';
    });
    syncPanes();
  }
  let writing = false;
  const commit = () => {
    if (!writing) hooks.store.update({ compare: read() });
  };
  host.addEventListener('input', commit);
  host.addEventListener('change', commit);
  hooks.store.subscribe((st, prev) => {
    if (!st.compare || st.compare === prev.compare || JSON.stringify(st.compare) === JSON.stringify(read())) return;
    writing = true;
    try {
      write(st.compare);
    } finally {
      writing = false;
    }
  });

  fromGame.addEventListener('click', () => {
    const s = hooks.snapshot();
    if (!s) return;
    spec.value = s.view.spec;
    moves.value = s.moves.join(' ');
    commit();
  });

  const charts: { value: uPlot | null; moves: uPlot | null } = { value: null, moves: null };
  let generation = 0;

  async function runAll(): Promise<void> {
    syncPanes();
    const gen = ++generation;
    const active = panes.slice(0, Number(count.value));
    const mv = moves.value.trim() ? moves.value.trim().split(/\s+/) : [];
    const common = Math.max(100, Math.round(Number(budget.value) || 50000));
    const seedText = String(Math.max(0, Math.round(Number(seed.value) || 0)));
    runBtn.disabled = true;
    stopBtn.disabled = false;
    host.dataset.state = 'running';
    note.textContent = `${spec.value}${mv.length ? ` after ${mv.join(' ')}` : ''}: every pane searches this position with seed ${seedText}; each pane runs in its own worker, all at once (this machine has ${navigator.hardwareConcurrency || '?'} cores).`;
    const runs = active.map(async (p) => {
      p.samples = [];
      p.stats = null;
      p.running = true;
      if (!p.client || p.client.dead) p.client = new EngineClient();
      const client = p.client;
      const params: Record<string, string> = { seed: seedText };
      for (const [k, i] of p.params) if (i.value.trim() !== '') params[k] = i.value.trim();
      const n = p.budget.value.trim() ? Math.max(100, Math.round(Number(p.budget.value))) : common;
      try {
        await client.newGame(spec.value.trim(), mv);
        // The budget in STEPS equal steps on one tree (the worker keeps the slot's tree between
        // searches of the same position), sampled after each: every pane is sampled at the same
        // playout counts, whatever its speed. The engine's results do not depend on the steps.
        let done = 0;
        for (let k = 1; k <= STEPS && gen === generation; k++) {
          const target = Math.round((n * k) / STEPS);
          if (target <= done) continue;
          const handle = client.search({
            slot: 'cmp',
            engine: { preset: p.preset.value, params },
            budget: { kind: 'playouts', value: target - done },
            progressMs: 1000,
          });
          const out = await handle.done;
          done = target;
          if (out.result.end === 'proven' || out.result.end === 'nodeCap') k = STEPS;
          await sample(p, gen, k >= STEPS, k % 4 === 0 || k >= STEPS);
        }
      } catch (e) {
        if (!(e instanceof SearchCancelled || e instanceof EngineDied))
          p.readout.textContent = `Error: ${e instanceof Error ? e.message : String(e)}`;
      } finally {
        p.running = false;
      }
    });
    stopAll = () => {
      for (const p of active) p.client?.terminate('stopped by the person');
    };
    await Promise.all(runs);
    if (gen !== generation) return;
    runBtn.disabled = false;
    stopBtn.disabled = true;
    host.dataset.state = 'done';
    drawCharts();
  }
  let stopAll = () => {};
  stopBtn.addEventListener('click', () => {
    stopAll();
    generation++;
    runBtn.disabled = false;
    stopBtn.disabled = true;
    host.dataset.state = 'stopped';
  });
  runBtn.addEventListener('click', () => void runAll());
  select.addEventListener('change', drawCharts);

  const busy = new WeakSet<Pane>();
  async function sample(p: Pane, gen: number, final: boolean, withTree: boolean): Promise<void> {
    if (!p.client || (busy.has(p) && !final)) return;
    busy.add(p);
    try {
      const r = await p.client.inspect('cmp', withTree ? { minVisits: 1, topK: 64, depth: 12, maxNodes: 6000 } : null);
      if (gen !== generation || !r.stats) return;
      const st = r.stats;
      p.stats = st;
      const q = new Map(st.children.slice(0, 12).map((c) => [c.move, c.q] as [string, number]));
      const last = p.samples[p.samples.length - 1];
      if (!last || last.playouts !== st.iterations) p.samples.push({ playouts: st.iterations, value: st.value, best: st.best_move, q });
      drawPane(p, r.tree);
      scheduleCharts(final);
    } catch {
      // a stopped pane
    } finally {
      busy.delete(p);
    }
  }

  function drawPane(p: Pane, t: TreeSnapshot | null): void {
    const st = p.stats;
    if (!st) return;
    const kind = st.game.startsWith('hex') ? 'hex' : st.game.startsWith('pentago') ? 'pentago' : 'tictactoe';
    const who = playerName(kind, st.to_move);
    p.readout.replaceChildren(
      h('div', {}, 'best ', h('strong', { class: 'cmp-best' }, st.best_move ?? '–'), ` · value ${(st.value * 100).toFixed(1)}% for ${who}`),
      h(
        'div',
        {},
        `${st.iterations.toLocaleString('en')} playouts · ${Math.round(st.iterations_per_s).toLocaleString('en')}/s · ${st.nodes.toLocaleString('en')} nodes${st.proven ? ` · proven ${st.proven}` : ''}`,
      ),
    );
    p.readout.dataset.playouts = String(st.iterations);
    p.readout.dataset.best = st.best_move ?? '';
    const total = Math.max(
      1,
      st.children.reduce((a, c) => a + c.visits, 0),
    );
    const top = st.children.slice(0, 8);
    const max = Math.max(1, ...top.map((c) => c.visits));
    p.bars.replaceChildren(
      ...top.map((c) =>
        h(
          'div',
          { class: 'bar-row', 'data-move': c.move, 'data-visits': String(c.visits) },
          h('span', { class: 'bar-move' }, c.move),
          h(
            'span',
            { class: 'bar-track' },
            h('span', { class: 'bar', style: `width:${((c.visits / max) * 100).toFixed(1)}%;background:${SERIES_COLOURS[p.k]}` }),
          ),
          h('span', { class: 'bar-num' }, `${((c.visits / total) * 100).toFixed(1)}%`),
          h('span', { class: 'bar-num' }, c.q.toFixed(2)),
        ),
      ),
    );
    if (t) p.icicle.setData(t, 0);
  }

  let chartTimer = 0;
  /** Redraws the charts at most every 400 ms while the panes run (at once for a final sample). */
  function scheduleCharts(now: boolean): void {
    if (now) {
      clearTimeout(chartTimer);
      chartTimer = 0;
      drawCharts();
      return;
    }
    if (chartTimer) return;
    chartTimer = window.setTimeout(() => {
      chartTimer = 0;
      drawCharts();
    }, 400);
  }

  function chartWidth(el: HTMLElement): number {
    return Math.max(280, Math.floor(el.clientWidth || 600));
  }

  function axisStyle(): Partial<uPlot.Axis> {
    const cs = getComputedStyle(host);
    const fg = cs.getPropertyValue('--muted').trim() || '#666';
    const grid = cs.getPropertyValue('--border').trim() || '#ddd';
    return { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  }

  function drawCharts(): void {
    const active = panes.slice(0, Number(count.value)).filter((p) => p.samples.length);
    if (!active.length) return;
    // Value chart: x = playouts (union of every pane's sample points), one line per pane and
    // a points-only series per pane for the best-move changes.
    const xsSet = new Set<number>();
    for (const p of active) for (const s of p.samples) xsSet.add(s.playouts);
    const xs = [...xsSet].sort((a, b) => a - b);
    const idx = new Map(xs.map((x, i) => [x, i]));
    const data: (number | null)[][] = [xs];
    const series: uPlot.Series[] = [{ label: 'playouts' }];
    for (const p of active) {
      const line: (number | null)[] = new Array(xs.length).fill(null);
      const changes: (number | null)[] = new Array(xs.length).fill(null);
      let prev: string | null | undefined;
      for (const s of p.samples) {
        const i = idx.get(s.playouts)!;
        line[i] = s.value;
        if (prev !== undefined && s.best !== prev) changes[i] = s.value;
        prev = s.best;
      }
      data.push(line, changes);
      const colour = SERIES_COLOURS[p.k]!;
      series.push(
        {
          label: `pane ${p.k + 1} ${p.preset.value}`,
          stroke: colour,
          width: 2,
          spanGaps: true,
          points: { show: false },
          value: (_u, v) => (v == null ? '–' : v.toFixed(3)),
        },
        {
          label: `best move changed (${p.k + 1})`,
          stroke: colour,
          paths: () => null,
          points: { show: true, size: 8, fill: colour },
          value: (_u, v) => (v == null ? '' : '●'),
        },
      );
    }
    const ax = axisStyle();
    const valueOpts: uPlot.Options = {
      width: chartWidth(valueChart),
      height: 220,
      series,
      scales: { x: { time: false } },
      axes: [
        { ...ax, label: 'playouts' },
        { ...ax, label: 'value of the best move', size: 60 },
      ],
      legend: { live: false },
    };
    charts.value?.destroy();
    charts.value = new uPlot(valueOpts, data as uPlot.AlignedData, valueChart);
    // Moves chart for the selected pane: Q of its 6 most-visited moves (at the latest sample).
    const sel = panes[Number(select.value)] ?? active[0]!;
    const ms = (sel.stats?.children ?? []).slice(0, 6).map((c) => c.move);
    const mx = sel.samples.map((s) => s.playouts);
    const mdata: (number | null)[][] = [mx, ...ms.map((m) => sel.samples.map((s) => s.q.get(m) ?? null))];
    const mseries: uPlot.Series[] = [
      { label: 'playouts' },
      ...ms.map((m, i) => ({
        label: m,
        stroke: MOVE_COLOURS[i]!,
        width: 2,
        spanGaps: true,
        points: { show: false },
        value: (_u: uPlot, v: number | null) => (v == null ? '–' : v.toFixed(3)),
      })),
    ];
    charts.moves?.destroy();
    charts.moves =
      mx.length && ms.length
        ? new uPlot(
            {
              width: chartWidth(moveChart),
              height: 200,
              series: mseries,
              scales: { x: { time: false } },
              axes: [
                { ...ax, label: 'playouts' },
                { ...ax, label: 'Q (side to move)', size: 60 },
              ],
              legend: { live: false },
            },
            mdata as uPlot.AlignedData,
            moveChart,
          )
        : null;
    host.dataset.samples = String(active.reduce((a, p) => a + p.samples.length, 0));
  }

  new ResizeObserver(() => {
    if (charts.value) charts.value.setSize({ width: chartWidth(valueChart), height: 220 });
    if (charts.moves) charts.moves.setSize({ width: chartWidth(moveChart), height: 200 });
  }).observe(host);

  // Presets arrive with the engine's hello: fill the panes then.
  syncPanes();
  commit();
  whenPresets(hooks.store, () => {
    syncPanes();
    commit();
  });
}
