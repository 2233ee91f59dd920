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
// swap rule, Tic-Tac-Toe, Pentago endgames: overlay/solve-controller.ts `solveUnavailable`), a run
// also solves it in the solver's worker (`EngineClient.solver()`, the Solve control's mechanism,
// with a budget of `COMPARE_SOLVE_S`); then each pane says from how many playouts its best move
// was, and stayed, a proven best move — winning, or drawing in a drawn position (truth.ts), the
// pane boards mark the best moves and the pane's own, and the value chart draws the exact value of
// the position as a dashed line (100%, 50% for a draw, 0%). Otherwise one line says why, and
// nothing else changes.
//
// This file is the view: the form (page state `compare`, in the URL), the panes (pane.ts) and the
// charts (charts.ts), drawn from the run's state; Run all and Stop go to the controller
// (controller.ts), which runs the engines.

import { EngineClient } from '../engine';
import { gameOf } from '../games';
import type { LessonRegistry } from '../lessons/registry';
import { h } from '../lib/dom';
import { count } from '../lib/format';
import { drawLegend } from '../overlay/legend';
import { solveStatusText } from '../overlay/solve-controller';
import { listMoves, movesValued, winningMoves } from '../overlay/verdict';
import { labelPresetOptions } from '../play/nets';
import { exactRootValue, type Snapshot } from '../protocol';
import { COMPARE_BUDGET, compareRunLink, formatParam } from '../share/url';
import { type ArenaSide, type CompareMode, type CompareSettings, PANE_KEYS, type PaneFields, type PageStore, whenPresets } from '../state';
import { type ChartPane, CompareCharts } from './charts';
import { CompareController, type CompareRun, exactOfRun, exactState, MODE_WORDS, type PaneRun } from './controller';
import { PANE_OVERLAYS, PANE_OVERLAYS_EXACT, PaneView } from './pane';
import { ringReason } from './ring';
import { COMPARE_SOLVE_S } from './truth';
import type { PresetName } from '../generated/schema';

export interface CompareHooks {
  store: PageStore;
  lessons: LessonRegistry<Element>;
  snapshot(): Snapshot | null;
  presets(): string[];
}

/** The presets the panes start with. */
const DEFAULTS: readonly PresetName[] = ['uct', 'rave', 'lgr', 'poolrave'];
/** While a pane's search runs, its board, bars and tree are redrawn at most this often (ms). */
const PANE_LIVE_MS = 250;
/** Each unit's budget to start with. */
const DEFAULT_BUDGET: Record<CompareMode, string> = { playouts: '50000', millis: '2000' };

export function mountCompare(host: HTMLElement, hooks: CompareHooks): void {
  const controller = new CompareController({
    presets: hooks.presets,
    newEngine: () => new EngineClient(),
    newSolver: () => EngineClient.solver(),
    cores: navigator.hardwareConcurrency,
  });
  new CompareView(host, hooks, controller);
}

class CompareView {
  private readonly spec = h('input', { id: 'cmp-game', value: 'hex:7', 'aria-label': 'Game spec', size: '10' });
  private readonly moves = h('input', {
    id: 'cmp-moves',
    value: '',
    'aria-label': 'Moves to the position',
    placeholder: 'moves, e.g. d4 c5',
    size: '28',
  });
  private readonly fromGame = h('button', { type: 'button', id: 'cmp-from-game' }, 'Use the game’s position');
  private readonly seed = h('input', { id: 'cmp-seed', type: 'number', value: '1', min: '0', 'aria-label': 'Seed', class: 'num' });
  private readonly seedsSel = h(
    'select',
    { id: 'cmp-seeds', 'aria-label': 'Seeds per pane: one, or 8 (the seed and the next seven) for the spread of when each found its move' },
    h('option', { value: '1' }, '1'),
    h('option', { value: '8' }, '8'),
  );
  private readonly mode = h(
    'select',
    { id: 'cmp-mode', 'aria-label': 'Budget: equal playouts or equal time for every pane' },
    h('option', { value: 'playouts' }, 'equal playouts'),
    h('option', { value: 'millis' }, 'equal time'),
  );
  private readonly budget = h('input', {
    id: 'cmp-budget',
    type: 'number',
    value: '50000',
    min: '100',
    step: '1000',
    'aria-label': 'Budget for every pane',
    class: 'num',
  });
  private readonly budgetUnit = h('span', { id: 'cmp-budget-unit' }, 'playouts');
  private readonly count = h(
    'select',
    { id: 'cmp-count', 'aria-label': 'Number of panes' },
    ...[2, 3, 4].map((n) => h('option', { value: String(n) }, `${n} panes`)),
  );
  private readonly runBtn = h('button', { type: 'button', id: 'cmp-run', class: 'primary' }, 'Run all');
  private readonly stopBtn = h('button', { type: 'button', id: 'cmp-stop', disabled: '' }, 'Stop');
  private readonly linkBtn = h(
    'button',
    { type: 'button', id: 'cmp-link', title: 'Copy a link that opens this comparison and runs it (same seed, same figures)' },
    'Copy link',
  );
  private readonly linkOut = h('input', {
    id: 'cmp-link-text',
    readonly: '',
    hidden: '',
    'aria-label': 'Link to this comparison',
    size: '40',
  });
  private readonly note = h('div', { id: 'cmp-note', class: 'muted small', role: 'status' });
  // Two of the panes as an Arena match: whole games between their configurations.
  private readonly arenaA = h('select', { id: 'cmp-arena-a', 'aria-label': 'Pane playing as A in the Arena' });
  private readonly arenaB = h('select', { id: 'cmp-arena-b', 'aria-label': 'Pane playing as B in the Arena' });
  private readonly arenaLink = h(
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
  private readonly exactNote = h('div', { id: 'cmp-exact', class: 'small cmp-exact', role: 'status' });
  private readonly panesHost = h('div', { class: 'cmp-panes', id: 'cmp-panes' });
  private readonly legend = h('ul', { id: 'cmp-legend', class: 'ov-legend', 'aria-label': 'What the marks on the pane boards mean' });
  private readonly select = h('select', { id: 'cmp-select', 'aria-label': 'Pane whose moves the lower chart shows' });
  private readonly charts: CompareCharts;
  private readonly panes: PaneView[] = [];
  // Each unit keeps its own budget: switching from playouts to milliseconds never reads 50,000
  // playouts as 50,000 ms. The common budget starts at the unit's default; a pane's own budget
  // starts blank (the common one) in a unit it has not been set in.
  private readonly budgets: Record<CompareMode, string> = { ...DEFAULT_BUDGET };
  private readonly ownBudgets = new Map<number, Record<CompareMode, string>>();
  private shownMode: CompareMode;
  /** Set while the form is filled from the store (its events are not edits). */
  private writing = false;
  private chartTimer = 0;
  /** The run's state as last drawn, and the animation frame that draws the next (0: none asked). */
  private drawn!: CompareRun;
  private frame = 0;
  private laterTimer = 0;

  constructor(
    private readonly host: HTMLElement,
    private readonly hooks: CompareHooks,
    private readonly controller: CompareController,
  ) {
    this.charts = new CompareCharts(host);
    this.shownMode = this.modeOf();
    this.build();
    this.wire();
    // Presets arrive with the engine's hello: fill the panes then.
    this.syncPanes();
    drawLegend(this.legend, { on: PANE_OVERLAYS, who: 'the side to move', best: true });
    this.commit();
    whenPresets(hooks.store, () => {
      this.syncPanes();
      this.commit();
    });
    this.lessons();
  }

  /** What a lesson may wait for, trigger and outline here (lessons/catalogue.ts): the run's state,
   * Run all and the form's fields (through the page state, as the URL sets them), the panes. */
  private lessons(): void {
    const b = this.hooks.lessons;
    const run = this.controller.store;
    b.watch(run);
    b.state('compare.state', () => run.get().state);
    b.state('compare.exact', () => exactState(run.get()));
    b.state('compare.solved', () => this.solved(run.get()) !== null);
    b.intent('compare.run', () => {
      if (this.runBtn.disabled) throw new Error('Compare is running (Stop first)');
      this.runAll();
    });
    const form = (): CompareSettings => this.hooks.store.get().compare ?? this.read();
    b.intent('compare.set', (a) => {
      const f = { ...form() };
      if (a.budget !== undefined) f.budget = formatParam(a.budget);
      if (a.seed !== undefined) f.seed = formatParam(a.seed);
      if (a.seeds !== undefined) {
        const n = formatParam(a.seeds);
        if (n === '1') delete f.seeds;
        else f.seeds = n;
      }
      this.hooks.store.update({ compare: f });
    });
    b.intent('compare.setPane', (a) => {
      const f = form();
      const k = Number(a.pane) - 1;
      if (!Number.isInteger(k) || k < 0 || k >= f.panes.length) throw new Error(`there is no pane ${a.pane} (${f.panes.length} panes)`);
      const fields: PaneFields = { ...f.panes[k] };
      // The arguments are typed (numbers, true/false, names: lessons/catalogue.ts); the form
      // holds them as the text a person would type.
      for (const key of PANE_KEYS) {
        const v = a[key];
        if (v !== undefined) fields[key] = formatParam(v);
      }
      this.hooks.store.update({ compare: { ...f, panes: f.panes.map((p, i) => (i === k ? fields : p)) } });
    });
    b.target('compare.panes', () => this.panesHost);
    for (const n of [1, 2, 3, 4] as const) b.target(`compare.pane.${n}`, () => (n <= this.active().length ? this.panes[n - 1]!.el : null));
    b.target('compare.exact', () => this.exactNote);
    b.target('compare.truth', () => this.active().map((p) => p.truth));
    b.target('compare.spread', () => this.active().map((p) => p.spread));
    b.target('compare.valueChart', () => this.charts.valueChart);
    b.target('compare.view', () => this.host);
  }

  private build(): void {
    const c = this.charts;
    this.host.append(
      h('h2', {}, 'Side by side'),
      h(
        'div',
        { class: 'row cmp-controls' },
        h('label', {}, 'game ', this.spec),
        h('label', {}, 'moves ', this.moves),
        this.fromGame,
        h('label', {}, 'seed ', this.seed),
        h(
          'label',
          {
            title: 'Each pane over one seed, or over 8 (the seed and the next seven): the median and the range of when each found its move',
          },
          'seeds ',
          this.seedsSel,
        ),
        this.mode,
        h('label', {}, this.budget, this.budgetUnit),
        this.count,
        this.runBtn,
        this.stopBtn,
        this.linkBtn,
        this.linkOut,
      ),
      h('div', { class: 'row cmp-arena small' }, 'Arena match: pane ', this.arenaA, ' against pane ', this.arenaB, ' ', this.arenaLink),
      this.note,
      this.exactNote,
      this.panesHost,
      this.legend,
      h(
        'div',
        { class: 'an-card' },
        c.valueTitle,
        c.valueChart,
        c.valueAxes,
        h('div', { class: 'tree-head' }, c.moveTitle, this.select),
        c.moveChart,
        c.moveAxes,
      ),
    );
  }

  private wire(): void {
    const { hooks } = this;
    this.mode.addEventListener('change', () => this.switchMode());
    this.count.addEventListener('change', () => this.syncPanes());
    // The preset lists say which presets need a network and whether this game has one.
    this.spec.addEventListener('change', () => this.syncPanes());
    hooks.store.subscribe((s, prev) => {
      if (s.nets !== prev.nets) this.syncPanes();
    });
    // The form is page state (the URL reads and writes it there): every edit goes to the store,
    // and a change in the store (e.g. from the URL) comes back into the form.
    this.host.addEventListener('input', () => this.commit());
    this.host.addEventListener('change', () => this.commit());
    hooks.store.subscribe((st, prev) => {
      if (!st.compare || st.compare === prev.compare) return;
      const run = st.compare.run === true;
      if (JSON.stringify({ ...st.compare, run: undefined }) !== JSON.stringify(this.read())) {
        this.writing = true;
        try {
          this.write(st.compare);
        } finally {
          this.writing = false;
        }
      }
      if (run) {
        // A shared link: the form is filled; run it once (the flag is not kept).
        hooks.store.update({ compare: this.read() });
        this.runAll();
      }
    });
    this.arenaLink.addEventListener('click', () => this.toArena());
    this.fromGame.addEventListener('click', () => {
      const s = hooks.snapshot();
      if (!s) return;
      this.spec.value = s.view.spec;
      this.moves.value = s.moves.join(' ');
      this.commit();
    });
    this.linkBtn.addEventListener('click', () => void this.copyLink());
    this.runBtn.addEventListener('click', () => this.runAll());
    this.stopBtn.addEventListener('click', () => this.controller.stop());
    this.select.addEventListener('change', () => this.drawCharts());
    // The run is drawn at most once an animation frame (four workers may post a hundred samples
    // a second between them), and at once when its state changes, so that what a state says
    // (`done`: every pane's final figures) is on screen when the state is.
    this.drawn = this.controller.store.get();
    this.controller.store.subscribe((s, prev) => {
      if (s.state !== prev.state || s.note !== prev.note) this.flush();
      else if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
    });
  }

  private modeOf(): CompareMode {
    return this.mode.value === 'millis' ? 'millis' : 'playouts';
  }

  private active(): PaneView[] {
    return this.panes.slice(0, Number(this.count.value));
  }

  /** The budget mode changed: each unit's budgets come back (never a number read in another unit). */
  private switchMode(): void {
    const was = this.shownMode;
    const now = this.modeOf();
    if (was === now) return;
    this.budgets[was] = this.budget.value;
    this.budget.value = this.budgets[now];
    for (const p of this.panes) {
      const own = this.ownBudgets.get(p.k) ?? { playouts: '', millis: '' };
      own[was] = p.budget.value;
      p.budget.value = own[now];
      this.ownBudgets.set(p.k, own);
    }
    this.shownMode = now;
    this.note.classList.remove('error');
    this.note.textContent = `Budget in ${COMPARE_BUDGET[now].unit} now: ${count(Number(this.budget.value))} ${COMPARE_BUDGET[now].unit} per pane (the ${COMPARE_BUDGET[was].unit} budget, ${count(Number(this.budgets[was]))}, is kept for when you switch back).`;
  }

  /** Each pane's header says what budget it runs: the common one (equal playouts / equal time) or its own,
   * then the parameters it sets over its preset. */
  private drawBadges(): void {
    const m = this.modeOf();
    const unit = COMPARE_BUDGET[m].unit;
    this.budgetUnit.textContent = m === 'millis' ? 'ms each' : 'playouts each';
    this.budget.min = String(COMPARE_BUDGET[m].min);
    this.budget.step = m === 'millis' ? '100' : '1000';
    for (const p of this.panes) {
      const own = p.budget.value.trim();
      const budget = own
        ? `own budget · ${count(Number(own))} ${unit}`
        : `${MODE_WORDS[m]} · ${this.budget.value.trim() ? count(Number(this.budget.value)) : '?'} ${unit}`;
      p.badge.textContent = [budget, ...p.overrides()].join(' · ');
      p.badge.classList.toggle('own', !!own);
      p.badge.dataset.mode = own ? 'own' : m;
      p.markSettings();
    }
  }

  /** The panes shown (the count), their preset lists, and the choosers that name them. */
  private syncPanes(): void {
    const n = Number(this.count.value);
    while (this.panes.length < n) {
      const k = this.panes.length;
      this.panes.push(new PaneView(k, () => this.drawPaneOverlay(k)));
    }
    this.panesHost.replaceChildren(...this.active().map((p) => p.el));
    this.panesHost.dataset.count = String(n);
    const ps = this.hooks.presets();
    for (const p of this.panes) {
      if (p.preset.options.length !== ps.length) {
        p.preset.replaceChildren(...ps.map((x) => h('option', { value: x }, x)));
        p.preset.value = ps.includes(DEFAULTS[p.k]!) ? DEFAULTS[p.k]! : (ps[0] ?? '');
      }
      labelPresetOptions(p.preset, this.hooks.store.get().nets, this.spec.value.trim());
    }
    const sel = this.select.value;
    this.select.replaceChildren(...this.active().map((p) => h('option', { value: String(p.k) }, `pane ${p.k + 1} (${p.preset.value})`)));
    this.select.value = sel !== '' && Number(sel) < n ? sel : '0';
    for (const [el, dflt] of [
      [this.arenaA, '0'],
      [this.arenaB, '1'],
    ] as const) {
      const was = el.value;
      el.replaceChildren(...this.active().map((p) => h('option', { value: String(p.k) }, `${p.k + 1} (${p.preset.value})`)));
      el.value = was !== '' && Number(was) < n ? was : dflt;
    }
    this.drawBadges();
  }

  private read(): CompareSettings {
    return {
      game: this.spec.value,
      moves: this.moves.value,
      mode: this.modeOf(),
      budget: this.budget.value,
      seed: this.seed.value,
      ...(this.seedsSel.value !== '1' ? { seeds: this.seedsSel.value } : {}),
      panes: this.active().map((p) => p.fields()),
    };
  }

  private write(s: CompareSettings): void {
    this.spec.value = s.game;
    this.moves.value = s.moves;
    this.mode.value = s.mode;
    this.budget.value = s.budget;
    // A budget from the URL is in its own unit.
    this.shownMode = s.mode;
    this.budgets[s.mode] = s.budget;
    this.seed.value = s.seed;
    this.seedsSel.value = s.seeds ?? '1';
    this.count.value = String(Math.min(4, Math.max(2, s.panes.length)));
    this.syncPanes();
    for (const [k, f] of s.panes.entries()) this.panes[k]?.setFields(f);
    this.syncPanes();
  }

  private commit(): void {
    this.drawBadges();
    if (!this.writing) this.hooks.store.update({ compare: this.read() });
  }

  /** The store carries the match to the Arena; the link's #arena opens it. */
  private toArena(): void {
    const side = (k: number): ArenaSide => {
      const p = this.panes[k]!;
      return {
        preset: p.preset.value,
        sets: [...p.params]
          .filter(([, i]) => i.value.trim() !== '')
          .map(([key, i]) => `${key}=${i.value.trim()}`)
          .join(' '),
      };
    };
    const [ka, kb] = [Number(this.arenaA.value), Number(this.arenaB.value)];
    const own = this.panes[ka]!.budget.value.trim() || this.panes[kb]!.budget.value.trim();
    const m = this.modeOf();
    this.hooks.store.update({
      arenaSetup: {
        game: this.spec.value.trim(),
        a: side(ka),
        b: side(kb),
        budget: Math.max(1, Math.round(Number(own || this.budget.value) || 1)),
        unit: m === 'millis' ? 'millis' : 'iterations',
        seed: this.seed.value,
        from: `Compare's pane ${ka + 1} (${this.panes[ka]!.preset.value}) as A and pane ${kb + 1} (${this.panes[kb]!.preset.value}) as B`,
      },
    });
  }

  private async copyLink(): Promise<void> {
    // The page keeps the URL in step with the form (share/hooks.ts); the link adds cmprun=1.
    const url = compareRunLink(location.href);
    this.linkBtn.dataset.url = url;
    try {
      await navigator.clipboard.writeText(url);
      this.linkOut.hidden = true;
      this.note.textContent = 'Link copied: it opens this comparison and runs it (same position, panes, budget and seed).';
    } catch {
      this.linkOut.hidden = false;
      this.linkOut.value = url;
      this.linkOut.select();
      this.note.textContent = 'The clipboard is not available here: the link is in the box next to Copy link.';
    }
  }

  private runAll(): void {
    this.syncPanes();
    void this.controller.run(this.read());
  }

  // ---- drawing the run ----

  /** The exact values the pane boards and truth lines use: as soon as the root is proven (the
   * solve may go on proving moves). */
  private proven(s: CompareRun): ReturnType<typeof exactOfRun> {
    return exactOfRun(s);
  }

  /** Whether the latest run's solve has ended (what it has not proven by then stays unknown). */
  private solveEnded(s: CompareRun): boolean {
    const e = s.exact;
    return !!e && e.key === s.runKey && e.end !== null;
  }

  /** The exact values once the solve has ended with the root proven (what lessons wait for). */
  private solved(s: CompareRun): ReturnType<typeof exactOfRun> {
    return this.solveEnded(s) ? exactOfRun(s) : null;
  }

  /** Draws in `ms` what was left undrawn (a pane redrawn too recently), unless already asked. */
  private drawLater(ms: number): void {
    if (this.laterTimer) return;
    this.laterTimer = window.setTimeout(() => {
      this.laterTimer = 0;
      const s = this.controller.store.get();
      const prev = this.drawn;
      this.drawn = s;
      this.render(s, prev);
    }, ms);
  }

  /** Draws the run's state now (what changed since it was last drawn). */
  private flush(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    const s = this.controller.store.get();
    const prev = this.drawn;
    this.drawn = s;
    if (s !== prev) this.render(s, prev);
  }

  private render(s: CompareRun, prev: CompareRun): void {
    if (s.note !== prev.note) {
      this.note.textContent = s.note.text;
      this.note.classList.toggle('error', s.note.error);
    }
    const exactChanged = s.exact !== prev.exact || s.runKey !== prev.runKey || s.exactWhy !== prev.exactWhy;
    const solved = this.proven(s);
    const ended = this.solveEnded(s);
    // What the panes' verdicts and marks read of the solve (its progress before the root is
    // proven changes neither).
    const truthChanged = solved !== this.proven(prev) || ended !== this.solveEnded(prev);
    let samplesChanged = false;
    const now = performance.now();
    // Which panes to draw and what they had: decided first, then drawn in two passes, the boards'
    // overlays before any other change to the page (an overlay measures its board, which would
    // otherwise lay out the page again after every pane's bars and text).
    const todo: { p: PaneView; run: PaneRun | undefined; was: PaneRun | undefined }[] = [];
    for (const p of this.panes) {
      const run = s.panes[p.k];
      const was = p.drawnRun;
      // While its search runs, a pane is redrawn at most every PANE_LIVE_MS: its board overlay
      // measures the board as drawn, and four panes redrawn at every frame kept the main thread
      // busy on a machine whose cores the workers need. Its end, a new position and the solver's
      // news are drawn at once.
      const live = !!run?.running && !!was?.running && run.position === was.position && !truthChanged;
      if (live && run !== was && now - p.drawnAt < PANE_LIVE_MS) {
        this.drawLater(PANE_LIVE_MS - (now - p.drawnAt));
        continue;
      }
      if (run !== was) p.drawnAt = now;
      p.drawnRun = run;
      // A new position's board first: its overlay is drawn on it.
      if (run?.position && run.position !== was?.position) p.drawBoard(run.position);
      todo.push({ p, run, was });
    }
    // What the verdict and the overlay read (not the further seeds' runs).
    const own = (run: PaneRun | undefined, was: PaneRun | undefined) =>
      run !== was &&
      (!run ||
        !was ||
        run.samples !== was.samples ||
        run.stats !== was.stats ||
        run.running !== was.running ||
        run.position !== was.position);
    for (const { p, run, was } of todo) if (own(run, was) || truthChanged) p.drawOverlay(run, solved);
    for (const { p, run, was } of todo) {
      if (run && run !== was) {
        if (run.state !== was?.state) p.el.dataset.state = run.state;
        if (run.fallback && run.fallback !== was?.fallback) {
          p.preset.value = run.fallback;
          p.el.dataset.fallback = run.fallback;
        }
        if (run.error && run.error !== was?.error) p.readout.textContent = run.error;
        if (run.stats && run.stats !== was?.stats) p.drawStats(run);
        if (run.tree && run.tree !== was?.tree) p.drawTree(run.tree, run);
        if (run.samples !== was?.samples && run.samples.length) samplesChanged = true;
      }
      if (own(run, was) || truthChanged) p.drawTruth(run, solved, ended);
      if (run?.seeds !== was?.seeds || run?.state !== was?.state || run?.running !== was?.running || truthChanged)
        p.drawSpread(run, solved, ended);
    }
    if (exactChanged) this.drawExact(s);
    if (s.panes !== prev.panes || exactChanged) this.drawPaneLegend(s);
    if (s.chartsNow !== prev.chartsNow) this.scheduleCharts(true);
    else if (samplesChanged) this.scheduleCharts(false);
    // Every answer to Run all (a refused form again too) says its state.
    if (s.state !== prev.state || s.mode !== prev.mode || s.note !== prev.note) {
      if (s.state === 'invalid') this.host.dataset.state = 'invalid';
      else {
        this.runBtn.disabled = s.state === 'running';
        this.stopBtn.disabled = s.state !== 'running';
        this.host.dataset.state = s.state;
        if (s.mode) this.host.dataset.mode = s.mode;
      }
    }
  }

  private drawPaneOverlay(k: number): void {
    const s = this.controller.store.get();
    this.panes[k]?.drawOverlay(s.panes[k], this.proven(s));
    this.drawPaneLegend(s);
  }

  /** The exact solver's line. */
  private drawExact(s: CompareRun): void {
    const state = exactState(s);
    const note = this.exactNote;
    note.dataset.state = state;
    this.host.dataset.exact = state;
    note.classList.toggle('muted', state !== 'proven');
    const e = s.exact?.key === s.runKey ? s.exact : null;
    if (state === 'unavailable') note.textContent = `Exact solver: not used — ${s.exactWhy}.`;
    else if (state === '' || !e) note.textContent = '';
    else if (state === 'error') note.textContent = `Exact solver: ${e.error}`;
    else if (!e.report) note.textContent = `Exact solver: solving the position (at most ${COMPARE_SOLVE_S} s, beside the panes)…`;
    else {
      const text = solveStatusText(e.kind, e.report, e.end, COMPARE_SOLVE_S).replace(
        ' Solve again to continue.',
        ' Run all again continues the solve.',
      );
      const root = exactRootValue(e.report);
      const good = root === 'win' ? winningMoves(e.report) : root === 'draw' ? movesValued(e.report, 'draw') : [];
      const list =
        e.end !== null && good.length
          ? ` ${root === 'win' ? 'Winning' : 'Drawing'} moves: ${listMoves(good)} (${good.length} of ${e.report.moves.length}${e.end === 'proven' ? '' : ' proven'}).`
          : '';
      note.textContent = `Exact solver: ${text}${/[.)]$/.test(text) ? '' : '.'}${list}`;
    }
  }

  /** The legend of the pane boards' marks (with the exact solver's, once it has proven the
   * position), and why a pane's ring is not on its most visited move. */
  private drawPaneLegend(s: CompareRun): void {
    const shown = this.active().filter((p) => s.panes[p.k]?.stats && s.panes[p.k]?.position);
    if (!shown.length) return;
    const kind = s.panes[shown[0]!.k]!.position!.view.kind;
    const solved = this.proven(s) !== null;
    const why = this.active()
      .map((p) => {
        const st = s.panes[p.k]?.stats;
        return st ? ringReason(st, `Pane ${p.k + 1} (${p.preset.value})`) : null;
      })
      .filter((x): x is string => x !== null);
    const small = this.active().some((p) => p.overlay?.group.dataset.small === 'true');
    const draws = solved && gameOf(kind).facts.draws;
    const sig = `${kind}|${solved}|${small}|${why.join('|')}`;
    if (this.legend.dataset.sig === sig) return;
    this.legend.dataset.sig = sig;
    drawLegend(this.legend, {
      on: solved ? PANE_OVERLAYS_EXACT : PANE_OVERLAYS,
      who: 'the side to move',
      best: why,
      cellNote: gameOf(kind).cellNote,
      exact: solved ? { solved: true, unavailable: null, draws } : undefined,
    });
    if (small)
      this.legend.append(
        h(
          'li',
          { class: 'muted', id: 'cmp-small-note' },
          'These boards are too small to write every figure: only the most visited cells are labelled. Hover a cell for its figures, or ⤢ zoom a pane.',
        ),
      );
    if (solved)
      this.legend.append(
        h(
          'li',
          { class: 'muted' },
          draws
            ? 'On the pane boards: ✓ on every proven winning move, or = on every drawing move when no move wins; the ringed best move shows its own mark when it is not one.'
            : 'On the pane boards: ✓ on every proven winning move; the ringed best move shows its own mark, ✗ or ?, when it is not one.',
        ),
      );
  }

  /** Redraws the charts at most every 400 ms while the panes run (at once for a final sample). */
  private scheduleCharts(now: boolean): void {
    if (now) {
      clearTimeout(this.chartTimer);
      this.chartTimer = 0;
      this.drawCharts();
      return;
    }
    if (this.chartTimer) return;
    this.chartTimer = window.setTimeout(() => {
      this.chartTimer = 0;
      this.drawCharts();
    }, 400);
  }

  private drawCharts(): void {
    const s = this.controller.store.get();
    const chartPane = (p: PaneView): ChartPane | null => {
      const run = s.panes[p.k];
      return run ? { run, preset: p.preset.value } : null;
    };
    const panes = this.active()
      .map(chartPane)
      .filter((p): p is ChartPane => p !== null);
    const sel = this.panes[Number(this.select.value)];
    this.charts.draw(panes, sel ? chartPane(sel) : null, exactOfRun(s));
  }
}
