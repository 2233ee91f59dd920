// Side by side: two to four engines, each in its own worker with its own configuration (preset plus
// c, rave_k, lgr_p, pool size, budget), search the same position with the same seed, all at once,
// for equal playouts (the default) or equal time. Each pane shows the position with its own
// visit-share overlay, best move and principal variation, its root visit distribution, value,
// playouts per second and a small tree overview (breadth-first); every bar and chart uses one
// scale across panes (share of the root's visits 0–100%, win rate 0–100% for the side to move).
// Under the panes, uPlot charts over playouts: every configuration's best-move win rate with a
// marker wherever its best move changed (convergence), and the win rate of the leading root
// moves of the selected pane. The whole setup is in the URL (share/url.ts) and Copy link gives a
// link that opens it and runs it again: the same seed and playouts give the same figures.
// Ground truth: when the exact solver takes the position (Hex up to 8×8 without the
// swap rule, overlay/solve.ts `solveUnavailable`), a run also solves it in the solver's worker
// (`EngineClient.solver()`, the Solve control's mechanism, with a budget of `COMPARE_SOLVE_S`);
// then each pane says from how many playouts its best move was, and stayed, a proven winning move
// (truth.ts), the pane boards mark every move won or lost, and the value chart draws the exact
// value of the position as a dashed line. Otherwise one line says why, and nothing else changes.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { EngineClient, EngineDied, EngineError, SearchCancelled, type SolveHandle } from '../engine';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import { labelPresetOptions } from '../play/nets';
import type { Budget, FullStats, Snapshot, SolveEnd, SolveReport, TreeSnapshot } from '../protocol';
import { Icicle } from '../tree/icicle';
import { createRenderer, initialState, parseCell, playerName, type BoardRenderer } from '../board';
import { BoardOverlay, figuresByCell, type OverlayData } from '../overlay/board-overlay';
import { drawLegend } from '../overlay/legend';
import {
  whenPresets,
  type CompareMode,
  type CompareSettings,
  type ArenaSide,
  type OverlayKey,
  type PageStore,
  type PaneFields,
  type PaneKey,
} from '../state';
import { h } from '../lib/dom';
import { MOVE_COLOURS, SERIES_COLOURS } from '../lib/colour';
import { count, iterationsWord, moveWinRateCompact, perSecond, provenTitle, share, winRateFor } from '../lib/format';
import { COMPARE_BUDGET, checkCompare, compareRunLink } from '../share/url';
import { solveStatusText, solveUnavailable } from '../overlay/solve';
import { positionKey } from '../state';
import { listMoves, winningMoves } from '../overlay/verdict';
import { COMPARE_SOLVE_S, exactValue, paneTruth } from './truth';
import { ringReason } from './ring';

/** Samples per run: the budget is searched in this many equal steps. */
const STEPS = 40;
const PARAMS: { key: string; label: string; title: string }[] = [
  { key: 'c', label: 'c', title: 'UCT exploration constant c (blank: the preset’s)' },
  { key: 'rave_k', label: 'k', title: 'RAVE equivalence parameter k (blank: the preset’s)' },
  { key: 'lgr_p', label: 'p', title: 'LGR: probability of playing a stored reply (blank: the preset’s)' },
  { key: 'pool_k', label: 'pool', title: 'PoolRAVE pool size (blank: the preset’s)' },
];
/** The save-bridge switch's title (src/game/bridge.rs; off in every preset). */
const BRIDGE_TITLE =
  'Save-bridge playouts (Hex, as MoHex): a move into a bridge of the player to move is answered in the bridge’s other cell (blank: the preset’s, off; ignored in other games)';
/** The overlays every pane's board shows. */
const PANE_OVERLAYS: ReadonlySet<OverlayKey> = new Set<OverlayKey>(['visits', 'proven', 'pv']);
/** The same with the exact solver's marks, once it has proven the position. */
const PANE_OVERLAYS_EXACT: ReadonlySet<OverlayKey> = new Set<OverlayKey>([...PANE_OVERLAYS, 'exact']);
const MODE_WORDS: Record<CompareMode, string> = { playouts: 'equal playouts', millis: 'equal time' };

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
  /** The pane's engine parameters by serde name: the number fields and the save-bridge switch. */
  params: Map<string, HTMLInputElement | HTMLSelectElement>;
  budget: HTMLInputElement;
  badge: HTMLElement;
  client: EngineClient | null;
  samples: Sample[];
  stats: FullStats | null;
  readout: HTMLElement;
  pv: HTMLElement;
  /** The pane's best move against the exact values (truth.ts `paneTruth`). */
  truth: HTMLElement;
  boardHost: HTMLElement;
  renderer: BoardRenderer | null;
  rendererKey: string;
  overlay: BoardOverlay | null;
  position: Snapshot | null;
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
  const mode = h(
    'select',
    { id: 'cmp-mode', 'aria-label': 'Budget: equal playouts or equal time for every pane' },
    h('option', { value: 'playouts' }, 'equal playouts'),
    h('option', { value: 'millis' }, 'equal time'),
  );
  const budget = h('input', {
    id: 'cmp-budget',
    type: 'number',
    value: '50000',
    min: '100',
    step: '1000',
    'aria-label': 'Budget for every pane',
    class: 'num',
  });
  const budgetUnit = h('span', { id: 'cmp-budget-unit' }, 'playouts');
  const count_ = h(
    'select',
    { id: 'cmp-count', 'aria-label': 'Number of panes' },
    ...[2, 3, 4].map((n) => h('option', { value: String(n) }, `${n} panes`)),
  );
  const runBtn = h('button', { type: 'button', id: 'cmp-run', class: 'primary' }, 'Run all');
  const stopBtn = h('button', { type: 'button', id: 'cmp-stop', disabled: '' }, 'Stop');
  const linkBtn = h(
    'button',
    { type: 'button', id: 'cmp-link', title: 'Copy a link that opens this comparison and runs it (same seed, same figures)' },
    'Copy link',
  );
  const linkOut = h('input', { id: 'cmp-link-text', readonly: '', hidden: '', 'aria-label': 'Link to this comparison', size: '40' });
  const note = h('div', { id: 'cmp-note', class: 'muted small', role: 'status' });
  // Two of the panes as an Arena match: whole games between their configurations.
  const arenaA = h('select', { id: 'cmp-arena-a', 'aria-label': 'Pane playing as A in the Arena' });
  const arenaB = h('select', { id: 'cmp-arena-b', 'aria-label': 'Pane playing as B in the Arena' });
  const arenaLink = h(
    'a',
    {
      href: '#arena',
      id: 'cmp-arena',
      class: 'button-link',
      title: 'Open the Arena with these two panes’ configurations and budget, ready to play whole games',
    },
    'Play them in the Arena ▸',
  );
  // The exact solver's line: what it proved of the position, or why it is not used.
  const exactNote = h('div', { id: 'cmp-exact', class: 'small cmp-exact', role: 'status' });
  const panesHost = h('div', { class: 'cmp-panes', id: 'cmp-panes' });
  const legend = h('ul', { id: 'cmp-legend', class: 'ov-legend', 'aria-label': 'What the marks on the pane boards mean' });
  const select = h('select', { id: 'cmp-select', 'aria-label': 'Pane whose moves the lower chart shows' });
  const valueTitle = h('h3', {}, 'Win rate of the best move over playouts (● = the best move changed)');
  const valueChart = h('div', { class: 'chart', id: 'cmp-value-chart' });
  // uPlot draws the axis names on its canvas: they are said in words under each chart as well.
  const valueAxes = h('div', { class: 'muted small', id: 'cmp-value-axes' });
  const moveAxes = h('div', { class: 'muted small', id: 'cmp-move-axes' });
  const moveTitle = h('h3', {}, 'Win rate of the leading root moves of');
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
      mode,
      h('label', {}, budget, budgetUnit),
      count_,
      runBtn,
      stopBtn,
      linkBtn,
      linkOut,
    ),
    h('div', { class: 'row cmp-arena small' }, 'Arena match: pane ', arenaA, ' against pane ', arenaB, ' ', arenaLink),
    note,
    exactNote,
    panesHost,
    legend,
    h(
      'div',
      { class: 'an-card' },
      valueTitle,
      valueChart,
      valueAxes,
      h('div', { class: 'tree-head' }, moveTitle, select),
      moveChart,
      moveAxes,
    ),
  );

  const panes: Pane[] = [];
  const DEFAULTS = ['uct', 'rave', 'lgr', 'poolrave'];

  function makePane(k: number): Pane {
    const preset = h('select', { id: `cmp-preset-${k}`, 'aria-label': `Preset of pane ${k + 1}` });
    const params = new Map<string, HTMLInputElement | HTMLSelectElement>();
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
    const bridge = h(
      'select',
      { id: `cmp-save_bridge-${k}`, title: BRIDGE_TITLE, 'aria-label': `${BRIDGE_TITLE}, pane ${k + 1}` },
      h('option', { value: '' }, 'preset'),
      h('option', { value: 'true' }, 'on'),
      h('option', { value: 'false' }, 'off'),
    );
    params.set('save_bridge', bridge);
    fields.append(h('label', { title: BRIDGE_TITLE }, 'bridge ', bridge));
    const paneBudget = h('input', {
      id: `cmp-budget-${k}`,
      type: 'number',
      min: '1',
      step: '1',
      placeholder: 'same',
      title: 'This pane’s own budget, in the unit above (blank: the common budget)',
      'aria-label': `Own budget of pane ${k + 1}`,
    });
    fields.append(h('label', { title: 'This pane’s own budget, in the unit above (blank: the common budget)' }, 'own budget ', paneBudget));
    const badge = h('span', { class: 'cmp-badge', id: `cmp-badge-${k}` });
    // On a board too small for its figures (Hex 11×11 in a quarter of the row), the overlay
    // labels only the most visited cells; every cell has its figures as a tooltip, and the zoom
    // gives the pane the whole row.
    const zoom = h(
      'button',
      {
        type: 'button',
        class: 'cmp-zoom',
        id: `cmp-zoom-${k}`,
        'aria-pressed': 'false',
        title: 'Zoom: this pane across the whole row, its board large enough to read every figure',
      },
      '⤢ zoom',
    );
    const readout = h('div', { class: 'cmp-readout', id: `cmp-readout-${k}` });
    const pv = h('div', { class: 'cmp-pv mono small', id: `cmp-pv-${k}` });
    const truth = h('div', { class: 'cmp-truth small', id: `cmp-truth-${k}`, hidden: '' });
    const boardHost = h('div', { class: 'cmp-board', id: `cmp-board-${k}` });
    const bars = h('div', { class: 'cmp-bars', id: `cmp-bars-${k}` });
    const icicle = new Icicle({ onHover: () => {}, onClick: () => {} }, 120);
    const el = h(
      'div',
      { class: 'an-card cmp-pane', id: `cmp-pane-${k}`, style: `border-top: 4px solid ${SERIES_COLOURS[k]}` },
      h('div', { class: 'tree-head' }, h('h3', {}, `Pane ${k + 1}`), preset, badge, zoom),
      fields,
      boardHost,
      readout,
      pv,
      truth,
      h(
        'div',
        { class: 'muted small' },
        'root moves: share of the root’s visits (bar, 0–100%, the same scale in every pane) and win rate for the side to move',
      ),
      bars,
      h(
        'div',
        { class: 'muted small' },
        'tree overview (breadth-first; width = visits, colour = win rate for the player choosing the move)',
      ),
      icicle.element,
    );
    const pane: Pane = {
      k,
      el,
      preset,
      params,
      budget: paneBudget,
      badge,
      client: null,
      samples: [],
      stats: null,
      readout,
      pv,
      truth,
      boardHost,
      renderer: null,
      rendererKey: '',
      overlay: null,
      position: null,
      bars,
      icicle,
      running: false,
    };
    zoom.addEventListener('click', () => {
      const on = !el.classList.contains('zoomed');
      el.classList.toggle('zoomed', on);
      zoom.setAttribute('aria-pressed', String(on));
      // The overlay sizes its labels to the board as drawn: once the new layout is in.
      requestAnimationFrame(() => drawOverlay(pane));
    });
    return pane;
  }

  const modeOf = (): CompareMode => (mode.value === 'millis' ? 'millis' : 'playouts');

  // Each unit keeps its own budget: switching from playouts to milliseconds never reads 50,000
  // playouts as 50,000 ms. The common budget starts at the unit's default; a pane's own budget
  // starts blank (the common one) in a unit it has not been set in.
  const DEFAULT_BUDGET: Record<CompareMode, string> = { playouts: '50000', millis: '2000' };
  const budgets: Record<CompareMode, string> = { ...DEFAULT_BUDGET };
  const ownBudgets = new Map<number, Record<CompareMode, string>>();
  let shownMode: CompareMode = modeOf();
  mode.addEventListener('change', () => {
    const was = shownMode;
    const now = modeOf();
    if (was === now) return;
    budgets[was] = budget.value;
    budget.value = budgets[now];
    for (const p of panes) {
      const own = ownBudgets.get(p.k) ?? { playouts: '', millis: '' };
      own[was] = p.budget.value;
      p.budget.value = own[now];
      ownBudgets.set(p.k, own);
    }
    shownMode = now;
    note.classList.remove('error');
    note.textContent = `Budget in ${COMPARE_BUDGET[now].unit} now: ${count(Number(budget.value))} ${COMPARE_BUDGET[now].unit} per pane (the ${COMPARE_BUDGET[was].unit} budget, ${count(Number(budgets[was]))}, is kept for when you switch back).`;
  });

  /** Each pane's header says what budget it runs: the common one (equal playouts / equal time) or its own. */
  function drawBadges(): void {
    const m = modeOf();
    const unit = COMPARE_BUDGET[m].unit;
    budgetUnit.textContent = m === 'millis' ? 'ms each' : 'playouts each';
    budget.min = String(COMPARE_BUDGET[m].min);
    budget.step = m === 'millis' ? '100' : '1000';
    for (const p of panes) {
      const own = p.budget.value.trim();
      p.badge.textContent = own
        ? `own budget · ${count(Number(own))} ${unit}`
        : `${MODE_WORDS[m]} · ${budget.value.trim() ? count(Number(budget.value)) : '?'} ${unit}`;
      p.badge.classList.toggle('own', !!own);
      p.badge.dataset.mode = own ? 'own' : m;
    }
  }

  function syncPanes(): void {
    const n = Number(count_.value);
    while (panes.length < n) panes.push(makePane(panes.length));
    panesHost.replaceChildren(...panes.slice(0, n).map((p) => p.el));
    panesHost.dataset.count = String(n);
    const ps = hooks.presets();
    for (const p of panes) {
      if (p.preset.options.length !== ps.length) {
        p.preset.replaceChildren(...ps.map((x) => h('option', { value: x }, x)));
        p.preset.value = ps.includes(DEFAULTS[p.k]!) ? DEFAULTS[p.k]! : (ps[0] ?? '');
      }
      labelPresetOptions(p.preset, hooks.store.get().nets, spec.value.trim());
    }
    const sel = select.value;
    select.replaceChildren(...panes.slice(0, n).map((p) => h('option', { value: String(p.k) }, `pane ${p.k + 1} (${p.preset.value})`)));
    select.value = sel !== '' && Number(sel) < n ? sel : '0';
    for (const [el, dflt] of [
      [arenaA, '0'],
      [arenaB, '1'],
    ] as const) {
      const was = el.value;
      el.replaceChildren(...panes.slice(0, n).map((p) => h('option', { value: String(p.k) }, `${p.k + 1} (${p.preset.value})`)));
      el.value = was !== '' && Number(was) < n ? was : dflt;
    }
    drawBadges();
  }
  count_.addEventListener('change', syncPanes);
  // The preset lists say which presets need a network and whether this game has one.
  spec.addEventListener('change', syncPanes);
  hooks.store.subscribe((s, prev) => {
    if (s.nets !== prev.nets) syncPanes();
  });

  // The form is page state (the URL reads and writes it there): every edit goes to the store, and
  // a change in the store (e.g. from the URL) comes back into the form.
  function read(): CompareSettings {
    const n = Number(count_.value);
    return {
      game: spec.value,
      moves: moves.value,
      mode: modeOf(),
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
    mode.value = s.mode;
    budget.value = s.budget;
    // A budget from the URL is in its own unit.
    shownMode = s.mode;
    budgets[s.mode] = s.budget;
    seed.value = s.seed;
    count_.value = String(Math.min(4, Math.max(2, s.panes.length)));
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
    drawBadges();
    if (!writing) hooks.store.update({ compare: read() });
  };
  host.addEventListener('input', commit);
  host.addEventListener('change', commit);
  hooks.store.subscribe((st, prev) => {
    if (!st.compare || st.compare === prev.compare) return;
    const run = st.compare.run === true;
    if (JSON.stringify({ ...st.compare, run: undefined }) !== JSON.stringify(read())) {
      writing = true;
      try {
        write(st.compare);
      } finally {
        writing = false;
      }
    }
    if (run) {
      // A shared link: the form is filled; run it once (the flag is not kept).
      hooks.store.update({ compare: read() });
      void runAll();
    }
  });

  arenaLink.addEventListener('click', () => {
    // The store carries the match to the Arena; the link's #arena opens it.
    const side = (k: number): ArenaSide => {
      const p = panes[k]!;
      return {
        preset: p.preset.value,
        sets: [...p.params]
          .filter(([, i]) => i.value.trim() !== '')
          .map(([key, i]) => `${key}=${i.value.trim()}`)
          .join(' '),
      };
    };
    const [ka, kb] = [Number(arenaA.value), Number(arenaB.value)];
    const own = panes[ka]!.budget.value.trim() || panes[kb]!.budget.value.trim();
    const m = modeOf();
    hooks.store.update({
      arenaSetup: {
        game: spec.value.trim(),
        a: side(ka),
        b: side(kb),
        budget: Math.max(1, Math.round(Number(own || budget.value) || 1)),
        unit: m === 'millis' ? 'millis' : 'iterations',
        seed: seed.value,
        from: `Compare's pane ${ka + 1} (${panes[ka]!.preset.value}) as A and pane ${kb + 1} (${panes[kb]!.preset.value}) as B`,
      },
    });
  });

  fromGame.addEventListener('click', () => {
    const s = hooks.snapshot();
    if (!s) return;
    spec.value = s.view.spec;
    moves.value = s.moves.join(' ');
    commit();
  });

  linkBtn.addEventListener('click', async () => {
    // The page keeps the URL in step with the form (share/hooks.ts); the link adds cmprun=1.
    const url = compareRunLink(location.href);
    linkBtn.dataset.url = url;
    try {
      await navigator.clipboard.writeText(url);
      linkOut.hidden = true;
      note.textContent = 'Link copied: it opens this comparison and runs it (same position, panes, budget and seed).';
    } catch {
      linkOut.hidden = false;
      linkOut.value = url;
      linkOut.select();
      note.textContent = 'The clipboard is not available here: the link is in the box next to Copy link.';
    }
  });

  const charts: { value: uPlot | null; moves: uPlot | null } = { value: null, moves: null };
  let generation = 0;

  // ---- the exact solver: the truth beside the panes ----
  let solver: EngineClient | null = null;
  /** The exact solve of a compared position (kept across runs of the same position: a finished
   * one is not asked again, an unfinished one continues in the worker's kept table). */
  let exact: {
    key: string;
    kind: Snapshot['view']['kind'];
    handle: SolveHandle | null;
    report: SolveReport | null;
    end: SolveEnd | null;
    error: string | null;
  } | null = null;
  /** The position of the latest run (its key) and why the solver does not take it (null: it does). */
  let runKey = '';
  let exactWhy: string | null = null;

  /** The exact values of the latest run's position, once its root is proven either way. */
  function exactOfRun(): SolveReport | null {
    return exact && exact.key === runKey && exact.report && exact.report.rootWins !== null ? exact.report : null;
  }

  /** Solves the position of this run (`pos`, the panes' position) unless it is solved or being
   * solved already; a solve of another position is stopped. */
  function startExact(pos: Snapshot): void {
    const key = positionKey(pos);
    runKey = key;
    exactWhy = solveUnavailable(pos);
    if (exact && exact.key !== key) {
      exact.handle?.stop();
      exact = null;
    }
    if (exactWhy !== null) return drawExact();
    // The same position again: a running or finished solve is kept; an unfinished one continues.
    if (exact && (exact.handle || exact.end === 'proven')) return drawExact();
    if (!solver || solver.dead) solver = EngineClient.solver();
    const prev = exact?.key === key ? exact : null;
    const mine: NonNullable<typeof exact> = {
      key,
      kind: pos.view.kind,
      handle: null,
      report: prev?.report ?? null,
      end: null,
      error: null,
    };
    exact = mine;
    const handle = solver.solve({ spec: pos.view.spec, moves: pos.moves }, COMPARE_SOLVE_S * 1000, (r) => {
      if (exact !== mine) return;
      mine.report = r;
      drawExact();
    });
    mine.handle = handle;
    drawExact();
    handle.done
      .then(
        (out) => {
          mine.handle = null;
          mine.report = out;
          mine.end = out.result;
        },
        (e: unknown) => {
          mine.handle = null;
          mine.error = e instanceof Error ? e.message : String(e);
        },
      )
      .finally(() => {
        if (exact !== mine) return;
        drawExact();
        drawCharts();
      });
  }

  /** The exact line, every pane's truth line and board marks. */
  function drawExact(): void {
    const state = exactState();
    exactNote.dataset.state = state;
    host.dataset.exact = state;
    exactNote.classList.toggle('muted', state !== 'proven');
    const e = exact?.key === runKey ? exact : null;
    if (state === 'unavailable') exactNote.textContent = `Exact solver: not used — ${exactWhy}.`;
    else if (state === '' || !e) exactNote.textContent = '';
    else if (state === 'error') exactNote.textContent = `Exact solver: ${e.error}`;
    else if (!e.report) exactNote.textContent = `Exact solver: solving the position (at most ${COMPARE_SOLVE_S} s, beside the panes)…`;
    else {
      const text = solveStatusText(e.kind, e.report, e.end, COMPARE_SOLVE_S).replace(
        ' Solve again to continue.',
        ' Run all again continues the solve.',
      );
      const wins = winningMoves(e.report);
      const list =
        e.end !== null && e.report.rootWins
          ? ` Winning moves: ${listMoves(wins)} (${wins.length} of ${e.report.moves.length}${e.end === 'proven' ? '' : ' proven'}).`
          : '';
      exactNote.textContent = `Exact solver: ${text}${/[.)]$/.test(text) ? '' : '.'}${list}`;
    }
    for (const p of panes) drawTruth(p);
  }

  /** `proven` (the root is proven, whatever the rest), `solving`, `unknown` / `stopped` (ended
   * without proving the root), `unavailable`, `error`, or '' (no run yet). */
  function exactState(): string {
    if (!runKey) return '';
    if (exactWhy !== null) return 'unavailable';
    const e = exact?.key === runKey ? exact : null;
    if (!e) return '';
    if (e.error) return 'error';
    if (e.report?.rootWins != null && e.end !== null) return 'proven';
    if (e.end === null) return 'solving';
    return e.end === 'proven' ? 'proven' : e.end;
  }

  /** A pane's line: from how many playouts its best move was, and stayed, a winning move. Said
   * once the pane has finished (or was stopped), from the samples it recorded. */
  function drawTruth(p: Pane): void {
    const r = exactOfRun();
    const st = p.stats;
    const on = !!r && !!st && !p.running && p.samples.length > 0 && exact?.end !== null;
    p.truth.hidden = !on;
    p.truth.dataset.history = p.samples.map((x) => `${x.playouts}:${x.best ?? '-'}`).join(' ');
    // The best move's win rate at each sample (what the value chart draws).
    p.truth.dataset.values = p.samples.map((x) => x.value.toFixed(4)).join(' ');
    if (!on || !r || !st) {
      p.truth.dataset.state = '';
      p.truth.dataset.from = '';
      p.truth.textContent = '';
      drawOverlay(p);
      return;
    }
    const who = playerName(p.position?.view.kind ?? 'hex', r.toMove);
    const t = paneTruth(p.samples, r, who);
    p.truth.dataset.state = t.state;
    p.truth.dataset.from = t.playouts === null ? '' : String(t.playouts);
    p.truth.replaceChildren(
      h('strong', {}, t.state === 'winning' ? '✓ exact: ' : t.state === 'not-winning' ? '✗ exact: ' : 'exact: '),
      t.text,
    );
    drawOverlay(p);
  }

  async function runAll(): Promise<void> {
    syncPanes();
    const settings = read();
    const problems = checkCompare(settings, hooks.presets());
    if (problems.length) {
      note.textContent = `Not run: ${problems.join('; ')}.`;
      note.classList.add('error');
      host.dataset.state = 'invalid';
      return;
    }
    note.classList.remove('error');
    const gen = ++generation;
    const active = panes.slice(0, Number(count_.value));
    const mv = moves.value.trim() ? moves.value.trim().split(/\s+/) : [];
    const m = settings.mode;
    const common = Number(settings.budget);
    const seedText = String(Number(settings.seed));
    runBtn.disabled = true;
    stopBtn.disabled = false;
    host.dataset.state = 'running';
    host.dataset.mode = m;
    const unit = COMPARE_BUDGET[m].unit;
    note.textContent = `${spec.value}${mv.length ? ` after ${mv.join(' ')}` : ''}: every pane searches this position with seed ${seedText}, ${MODE_WORDS[m]} (${count(common)} ${unit} unless a pane has its own); each pane runs in its own worker, all at once (this machine has ${navigator.hardwareConcurrency || '?'} cores).${m === 'millis' ? ' Equal time depends on the machine: the same link may give other figures elsewhere.' : ''}`;
    runKey = '';
    drawExact();
    const runs = active.map(async (p) => {
      p.samples = [];
      p.stats = null;
      p.running = true;
      p.el.dataset.state = 'running';
      drawTruth(p);
      if (!p.client || p.client.dead) p.client = new EngineClient();
      const client = p.client;
      const params: Record<string, string> = { seed: seedText };
      for (const [k, i] of p.params) if (i.value.trim() !== '') params[k] = i.value.trim();
      const n = p.budget.value.trim() ? Number(p.budget.value) : common;
      try {
        p.position = await client.newGame(spec.value.trim(), mv);
        // The first pane to have the position (checked by its engine) has it solved.
        if (gen === generation && runKey === '') startExact(p.position);
        drawBoard(p);
        const search = (budget: Budget, onProgress: () => void = () => {}) => {
          const run = () =>
            client.search({
              slot: 'cmp',
              engine: { preset: p.preset.value, params },
              budget,
              progressMs: budget.kind === 'millis' ? Math.max(50, budget.value / STEPS) : 1000,
              onProgress,
            }).done;
          return run().catch((e: unknown) => {
            // A network preset without a usable net: this pane goes on with a net-free preset.
            const fb = e instanceof EngineError && isNoNetError(e.message) ? netFreeFallback(hooks.presets()) : null;
            if (!fb) throw e;
            const was = p.preset.value;
            p.preset.value = fb;
            p.el.dataset.fallback = fb;
            note.textContent += ` Pane ${p.k + 1}: ${fallbackMessage(was, spec.value.trim(), fb, (e as Error).message)}`;
            return run();
          });
        };
        if (m === 'millis') {
          // Equal time: one search of the whole budget, the same request to every pane's worker,
          // which counts it on the engine's own search time (the chunks it runs, not the messages
          // between them), so no pane searches longer than another and the time a pane shows is
          // the time its rate was computed over. Sampled while it runs (progress messages).
          let k = 0;
          await search({ kind: 'millis', value: n }, () => void sample(p, gen, false, ++k % 4 === 0));
          await sample(p, gen, true, true);
        } else {
          // Equal playouts: the budget in STEPS equal steps on one tree (the worker keeps the
          // slot's tree between searches of the same position), sampled after each: every pane is
          // sampled at the same playout counts, whatever its speed. The engine's results do not
          // depend on the steps.
          let done = 0;
          for (let k = 1; k <= STEPS && gen === generation; k++) {
            const target = Math.round((n * k) / STEPS);
            if (target <= done) continue;
            const out = await search({ kind: 'playouts', value: target - done });
            done = target;
            if (out.result.end === 'proven' || out.result.end === 'nodeCap' || out.result.end === 'memoryCap') k = STEPS;
            await sample(p, gen, k >= STEPS, k % 4 === 0 || k >= STEPS);
          }
        }
        p.el.dataset.state = 'done';
      } catch (e) {
        p.el.dataset.state = 'failed';
        if (!(e instanceof SearchCancelled || e instanceof EngineDied))
          p.readout.textContent = `Error: ${e instanceof Error ? e.message : String(e)}`;
      } finally {
        p.running = false;
        if (gen === generation) drawTruth(p);
      }
    });
    stopAll = () => {
      for (const p of active) p.client?.terminate('stopped by the person');
    };
    await Promise.all(runs);
    if (gen !== generation) return;
    runBtn.disabled = false;
    stopBtn.disabled = true;
    drawCharts();
    host.dataset.state = 'done';
  }
  let stopAll = () => {};
  stopBtn.addEventListener('click', () => {
    stopAll();
    exact?.handle?.stop();
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
      const r = await p.client.inspect('cmp', withTree ? { minVisits: 1, topK: 64, depth: 12, maxNodes: 3000 } : null);
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

  /** The pane's board: the position searched, non-interactive, with the overlay on top. */
  function drawBoard(p: Pane): void {
    const s = p.position;
    if (!s) return;
    const key = `${s.view.kind}:${s.view.rows}`;
    if (!p.renderer || p.rendererKey !== key) {
      p.renderer = createRenderer(s.view.kind, s.view.rows, { onCell: () => {}, onTwist: () => {}, onCancelPending: () => {} });
      p.rendererKey = key;
      p.overlay = null;
      p.boardHost.replaceChildren(p.renderer.element);
    }
    p.renderer.update({ ...initialState(s.view), legal: new Set(s.legal), interactive: false });
    drawOverlay(p);
  }

  function drawOverlay(p: Pane): void {
    const s = p.position;
    const svgRoot = p.boardHost.querySelector('svg');
    if (!s || !svgRoot || !p.renderer) return;
    if (!p.overlay?.attached) p.overlay = new BoardOverlay(svgRoot as SVGSVGElement);
    const st = p.stats;
    if (!st || s.view.to_move === null) {
      p.overlay.draw(null, PANE_OVERLAYS);
      p.overlay.titleCells(null, '');
      return;
    }
    const best = st.best_move ? parseCell(st.best_move, s.view.rows, s.view.cols) : null;
    // The exact solver's marks, kept few on these small boards: ✓ on every winning move, and
    // the best move's own mark (✗ a loss, ? not proven) when it is not one.
    const solved = exactOfRun();
    const exactCells = solved && exact?.end !== null ? new Map<number, boolean | null>() : null;
    for (const m of exactCells ? solved!.moves : []) {
      const cell = parseCell(m.move, s.view.rows, s.view.cols);
      if (cell !== null && (m.moverWins === true || m.move === st.best_move)) exactCells!.set(cell, m.moverWins);
    }
    const data: OverlayData = {
      kind: s.view.kind,
      rows: s.view.rows,
      cols: s.view.cols,
      toMove: s.view.to_move,
      cells: figuresByCell(s.view.kind, s.view.rows, s.view.cols, st.children, s.legal),
      rootVisits: st.children.reduce((a, c) => a + c.visits, 0),
      pv: st.pv,
      line: null,
      highlight: best === null ? new Set() : new Set([best]),
      exact: exactCells,
    };
    p.overlay.draw(data, exactCells ? PANE_OVERLAYS_EXACT : PANE_OVERLAYS);
    p.overlay.titleCells(data, playerName(s.view.kind, s.view.to_move));
    drawPaneLegend(s.view.kind, exactCells !== null);
  }

  /** The legend of the pane boards' marks (with the exact solver's, once it has proven the
   * position), and why a pane's ring is not on its most visited move. */
  function drawPaneLegend(kind: Snapshot['view']['kind'], solved: boolean): void {
    const why = panes
      .slice(0, Number(count_.value))
      .map((p) => (p.stats ? ringReason(p.stats, `Pane ${p.k + 1} (${p.preset.value})`) : null))
      .filter((x): x is string => x !== null);
    const small = panes.slice(0, Number(count_.value)).some((p) => p.overlay?.group.dataset.small === 'true');
    const sig = `${kind}|${solved}|${small}|${why.join('|')}`;
    if (legend.dataset.sig === sig) return;
    legend.dataset.sig = sig;
    drawLegend(legend, {
      on: solved ? PANE_OVERLAYS_EXACT : PANE_OVERLAYS,
      who: 'the side to move',
      best: why,
      pentago: kind === 'pentago',
      exact: solved ? { solved: true, unavailable: null } : undefined,
    });
    if (small)
      legend.append(
        h(
          'li',
          { class: 'muted', id: 'cmp-small-note' },
          'These boards are too small to write every figure: only the most visited cells are labelled. Hover a cell for its figures, or ⤢ zoom a pane.',
        ),
      );
    if (solved)
      legend.append(
        h(
          'li',
          { class: 'muted' },
          'On the pane boards: ✓ on every proven winning move; the ringed best move shows its own mark, ✗ or ?, when it is not one.',
        ),
      );
  }

  function drawPane(p: Pane, t: TreeSnapshot | null): void {
    const st = p.stats;
    if (!st) return;
    const kind = p.position?.view.kind ?? (st.game.startsWith('hex') ? 'hex' : st.game.startsWith('pentago') ? 'pentago' : 'tictactoe');
    const who = playerName(kind, st.to_move);
    p.readout.replaceChildren(
      h('div', {}, 'best ', h('strong', { class: 'cmp-best' }, st.best_move ?? '–'), ` · win rate ${winRateFor(st.value, who)}`),
      h(
        'div',
        {},
        st.iterations === 0 && st.proven
          ? `proven ${st.proven} without ${iterationsWord(st.leaf)} · ${count(st.nodes)} nodes`
          : // The time is the engine's search time, the one its rate is computed over (the pane's
            // tree is fresh for each run, so the statistics are this run's).
            `${count(st.iterations)} ${iterationsWord(st.leaf)} in ${(st.elapsed_ms / 1000).toFixed(2)} s · ${perSecond(st.iterations_per_s, st.iterations)} · ${count(st.nodes)} nodes${st.proven ? ` · proven ${st.proven}` : ''}`,
      ),
    );
    p.readout.dataset.playouts = String(st.iterations);
    p.readout.dataset.ms = String(st.elapsed_ms);
    p.readout.dataset.rate = String(st.iterations_per_s);
    p.readout.dataset.best = st.best_move ?? '';
    p.readout.dataset.value = String(st.value);
    p.pv.textContent = st.pv.length ? `line: ${st.pv.slice(0, 10).join(' ')}` : '';
    p.pv.dataset.pv = st.pv.join(' ');
    const total = Math.max(
      1,
      st.children.reduce((a, c) => a + c.visits, 0),
    );
    const top = st.children.slice(0, 8);
    p.bars.replaceChildren(
      h(
        'div',
        { class: 'bar-row bar-head', 'aria-hidden': 'true' },
        h('span', {}, 'move'),
        h('span', { class: 'bar-scale' }, h('span', {}, '0%'), h('span', {}, '50%'), h('span', {}, '100%')),
        h('span', { class: 'bar-num' }, 'visits'),
        h('span', { class: 'bar-num' }, 'win'),
      ),
      ...top.map((c) =>
        h(
          'div',
          { class: 'bar-row', 'data-move': c.move, 'data-visits': String(c.visits), 'data-share': String(c.visits / total) },
          h('span', { class: 'bar-move' }, c.move),
          h(
            'span',
            { class: 'bar-track' },
            // One scale in every pane: the bar's length is the move's share of the root's visits.
            h('span', { class: 'bar', style: `width:${((c.visits / total) * 100).toFixed(2)}%;background:${SERIES_COLOURS[p.k]}` }),
          ),
          h('span', { class: 'bar-num' }, share(c.visits / total)),
          h(
            'span',
            { class: 'bar-num', title: c.proven ? `${c.move}: ${provenTitle(c.q, c.proven)}` : `win rate of ${c.move} for ${who}` },
            moveWinRateCompact(c.q, c.proven),
          ),
        ),
      ),
    );
    drawOverlay(p);
    if (t) {
      p.icicle.setData(t, 0);
      // For the tests: the snapshot's first level against the root's visited moves (breadth-first
      // keeps the whole first level whenever the node budget allows).
      let level1 = 0;
      for (let i = 0; i < t.count; i++) if (t.depth[i] === 1) level1++;
      p.icicle.element.dataset.level1 = String(level1);
      p.icicle.element.dataset.rootMoves = String(st.children.filter((c) => c.visits > 0).length);
    }
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

  /** The y axis of both charts: win rate in percent, 0 to 100, the same in every chart. */
  function percentAxis(ax: Partial<uPlot.Axis>, label: string): uPlot.Axis {
    return { ...ax, label, size: 60, values: (_u, vals) => vals.map((v) => `${v}%`) };
  }
  const pct = (v: number | null) => (v == null ? null : v * 100);
  const pctText = (_u: uPlot, v: number | null) => (v == null ? '–' : `${v.toFixed(1)}%`);

  function drawCharts(): void {
    const active = panes.slice(0, Number(count_.value)).filter((p) => p.samples.length);
    if (!active.length) return;
    const kind = active[0]!.position?.view.kind ?? 'hex';
    const toMove = active[0]!.stats?.to_move ?? 0;
    const who = playerName(kind, toMove);
    valueTitle.textContent = `Win rate of each pane’s best move for ${who} (to move), over playouts (● = the best move changed)`;
    moveTitle.textContent = `Win rate for ${who} of the leading root moves of`;
    valueAxes.textContent = `Axes: x = playouts searched so far (every pane on the same axis); y = win rate of the pane’s best move for ${who}, the side to move, in percent (0–100%, the same scale for every pane).`;
    moveAxes.textContent = `Axes: x = playouts searched so far; y = win rate of each move for ${who}, in percent (0–100%).`;
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
        line[i] = pct(s.value);
        if (prev !== undefined && s.best !== prev) changes[i] = pct(s.value);
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
          value: pctText,
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
    // The exact value of the position for the side to move (the chart's player), once proven:
    // a dashed line at 100% (it wins with perfect play) or 0% (it loses).
    const solved = exactOfRun();
    const ev = solved && solved.toMove === toMove ? exactValue(solved) : null;
    valueChart.dataset.exact = ev === null ? '' : String(ev);
    if (ev !== null && xs.length) {
      data.push(xs.map(() => ev * 100));
      series.push({
        label: `exact value: ${who} ${ev === 1 ? 'wins' : 'loses'} (${ev * 100}%)`,
        stroke: getComputedStyle(host).getPropertyValue('--fg').trim() || '#1d1d1f',
        width: 2,
        dash: [8, 5],
        points: { show: false },
        value: (_u, v) => (v == null ? '–' : `${v}%`),
      });
      valueAxes.textContent += ` Dashed line: the exact value of the position for ${who}, proven by the exact solver — ${ev === 1 ? `100%: ${who} wins with perfect play` : `0%: ${who} loses against perfect play`}.`;
    }
    const ax = axisStyle();
    const scales: uPlot.Scales = { x: { time: false }, y: { range: [0, 100] } };
    const valueOpts: uPlot.Options = {
      width: chartWidth(valueChart),
      height: 220,
      series,
      scales,
      axes: [{ ...ax, label: 'playouts (searched so far)' }, percentAxis(ax, `win rate of the best move (%), ${who}`)],
      legend: { live: false },
    };
    charts.value?.destroy();
    charts.value = new uPlot(valueOpts, data as uPlot.AlignedData, valueChart);
    // Moves chart for the selected pane: the win rate of its 6 most-visited moves (at the latest sample).
    const sel = panes[Number(select.value)] ?? active[0]!;
    const ms = (sel.stats?.children ?? []).slice(0, 6).map((c) => c.move);
    const mx = sel.samples.map((s) => s.playouts);
    const mdata: (number | null)[][] = [mx, ...ms.map((m) => sel.samples.map((s) => pct(s.q.get(m) ?? null)))];
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
    charts.moves?.destroy();
    charts.moves =
      mx.length && ms.length
        ? new uPlot(
            {
              width: chartWidth(moveChart),
              height: 200,
              series: mseries,
              scales,
              axes: [{ ...ax, label: 'playouts (searched so far)' }, percentAxis(ax, `win rate of the move (%), ${who}`)],
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
  drawLegend(legend, { on: PANE_OVERLAYS, who: 'the side to move', best: true });
  commit();
  whenPresets(hooks.store, () => {
    syncPanes();
    commit();
  });
}
