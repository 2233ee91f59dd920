// "Seeing the search" on the playground page: board overlays with toggles and hotkeys,
// the live tree (icicle overview + node-link view), and the policy internals, fed by
// - an analysis engine of its own (a second worker, so the game's engine is never disturbed) that
//   searches the position on the board when the person presses Analyse, or
// - the playground's own engine while it thinks about a move or a hint ("watch"), by asking its
//   worker for statistics and tree snapshots between search chunks (`inspect` requests).
// Snapshots arrive a few times a second with their typed arrays transferred; the icicle layout is
// computed in the worker (tree/snapshot.ts); the main thread only draws.
//
// This file is the view: it draws the controller's state (analysis-controller.ts: the sources,
// the engine requests) and the page's (the position, the review, the overlays switched on), and
// turns clicks and hovers into intents. The app mounts it with its hooks.

import { cellOfMove, gameOf, playerName } from '../games';
import { EngineClient } from '../engine';
import { h } from '../lib/dom';
import { count, duration, iterationsWord, perSecond, winRateFor } from '../lib/format';
import { changed } from '../lib/store';
import { labelPresetOptions } from '../play/nets';
import { behindLabel, searchedText } from '../play/searches';
import type { BoardView, ExactValue, Snapshot, TreeSnapshot } from '../protocol';
import { OVERLAY_KEYS, positionKey, whenPresets } from '../state';
import { Icicle, compact } from '../tree/icicle';
import { NodeLink, nodeValueText, type Children } from '../tree/nodelink';
import type { PlaygroundHooks, TreeViews } from '../types';
import { AnalysisController, type AnalysisState } from './analysis-controller';
import {
  BoardOverlay,
  cellsOfMoves,
  figuresByCell,
  movesOfCell,
  OVERLAYS,
  priorsByCell,
  stonesOf,
  type OverlayData,
  type OverlayKey,
} from './board-overlay';
import { renderInternals } from './internals';
import { drawLegend as drawLegendList } from './legend';
import { mountSolver } from './solve';
import { bestOfMoves } from './solve-controller';
import './viz.css';
import type { PresetName } from '../generated/schema';

/** The preset the Analyse button starts with. */
const DEFAULT_PRESET: PresetName = 'rave';

/** Moves from the snapshot root to node `i`. */
export function pathTo(s: TreeSnapshot, i: number): string[] {
  const out: string[] = [];
  for (let n = i; n > 0; n = s.parent[n]!) out.push(s.moves[s.move[n]!] ?? '?');
  return out.reverse();
}

/** The node reached from the root by `path` (as far as the snapshot goes). */
export function nodeOfPath(s: TreeSnapshot, kids: Children, path: string[]): number {
  let n = 0;
  for (const m of path) {
    const next = kids.of(n).find((c) => s.moves[s.move[c]!] === m);
    if (next === undefined) break;
    n = next;
  }
  return n;
}

/** Principal variation below node `i` in the snapshot: the most-visited child, repeatedly. */
export function pvBelow(s: TreeSnapshot, kids: Children, i: number, max = 10): string[] {
  const out: string[] = [];
  let n = i;
  while (out.length < max && kids.count(n)) {
    n = kids.first(n);
    out.push(s.moves[s.move[n]!] ?? '?');
  }
  return out;
}

/** Mounts the analysis section under the play view; returns the section (the step-through goes
 * at its end) and its tree views (the image exports). */
export function mountAnalysis(hooks: PlaygroundHooks): { section: HTMLElement; trees: TreeViews } {
  let view: AnalysisView | null = null;
  const controller = new AnalysisController({
    store: hooks.store,
    gameEngine: () => hooks.engine(),
    newEngine: () => {
      const e = new EngineClient();
      void e.hello().catch(() => {});
      return e;
    },
    treeWidth: () => view?.icicle.element.clientWidth ?? 0,
    every: (ms, f) => {
      const t = window.setInterval(f, ms);
      return () => clearInterval(t);
    },
    now: () => performance.now(),
  });
  view = new AnalysisView(hooks, controller);
  view.start();
  return {
    section: view.section,
    trees: {
      nodeLink: () => ({ svg: view.nodelink.svg, nodes: view.nodelink.nodeCount() }),
      icicle: () => ({ canvas: view.icicle.canvas, nodes: Number(view.icicle.element.dataset.count ?? 0) }),
    },
  };
}

/** The overlay toolbar under the board (toggles with hotkeys) and the legend; the overlays
 * switched on are the page state's (the URL reads and writes them there). */
function mountOverlayBar(hooks: PlaygroundHooks, onChange: () => void): HTMLElement {
  const toggles = new Map<OverlayKey, HTMLButtonElement>();
  const bar = h(
    'div',
    { id: 'overlay-bar', class: 'overlay-bar', role: 'toolbar', 'aria-label': 'Search overlays on the board' },
    h('span', { class: 'bar-label' }, 'Overlays:'),
  );
  const on = () => hooks.store.get().overlays;
  const toggle = (k: OverlayKey) => {
    const cur = on();
    hooks.store.update({ overlays: OVERLAY_KEYS.filter((x) => (x === k ? !cur.includes(x) : cur.includes(x))) });
  };
  for (const o of OVERLAYS) {
    const b = h(
      'button',
      {
        type: 'button',
        id: `ov-${o.key}`,
        class: 'ov-toggle',
        'aria-pressed': String(on().includes(o.key)),
        title: `${o.title} — hotkey ${o.hotkey.toUpperCase()}`,
        'aria-keyshortcuts': o.hotkey.toUpperCase(),
      },
      o.label,
      h('kbd', {}, o.hotkey.toUpperCase()),
    );
    b.addEventListener('click', () => toggle(o.key));
    toggles.set(o.key, b);
    bar.append(b);
  }
  const legend = h('ul', { id: 'overlay-legend', class: 'overlay-legend ov-legend', 'aria-label': 'What the marks on the board mean' });
  hooks.elements.boardHost.after(bar, legend);
  hooks.store.subscribe((st, prev) => {
    if (st.overlays === prev.overlays) return;
    for (const [k, b] of toggles) b.setAttribute('aria-pressed', String(st.overlays.includes(k)));
    onChange();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target as HTMLElement;
    if (t.closest('input, select, textarea, [contenteditable]')) return;
    const o = OVERLAYS.find((x) => x.hotkey === ev.key.toLowerCase());
    if (!o || hooks.store.get().view !== 'play') return;
    toggle(o.key);
    ev.preventDefault();
  });
  return legend;
}

class AnalysisView {
  readonly section: HTMLElement;
  readonly icicle: Icicle;
  readonly nodelink: NodeLink;
  private readonly legend: HTMLElement;
  private readonly presetSel = h('select', { id: 'an-preset', 'aria-label': 'Analysis preset' });
  private readonly budget = h('input', {
    id: 'an-budget',
    type: 'number',
    min: '100',
    step: '1000',
    value: '200000',
    'aria-label': 'Analysis budget in playouts',
  });
  private readonly runBtn = h('button', { id: 'an-run', type: 'button', class: 'primary' }, 'Analyse');
  private readonly stopBtn = h('button', { id: 'an-stop', type: 'button', disabled: '' }, 'Stop');
  private readonly watch = h('input', { id: 'an-watch', type: 'checkbox', checked: '' });
  private readonly status = h('div', { id: 'an-status', class: 'an-status', 'aria-live': 'off' });
  private readonly depthSel = h(
    'select',
    { id: 'nl-depth', 'aria-label': 'Node-link depth' },
    ...[1, 2, 3, 4, 5, 6].map((d) => h('option', { value: String(d) }, `${d} plies`)),
  );
  private readonly topKSel = h(
    'select',
    { id: 'nl-topk', 'aria-label': 'Children per node' },
    ...[2, 3, 4, 5, 8].map((d) => h('option', { value: String(d) }, `top ${d}`)),
  );
  private readonly crumbs = h('nav', { class: 'crumbs', id: 'nl-crumbs', 'aria-label': 'Tree view root' });
  private readonly hoverInfo = h(
    'div',
    { id: 'tree-hover', class: 'tree-hover', 'aria-live': 'off' },
    'Hover a node to see its line on the board.',
  );
  private readonly internalsHost = h('div', { id: 'internals', class: 'internals' });
  /** The stored last-good replies the internals show now (null: none). */
  private lgrReplies: HTMLElement | null = null;
  private readonly solver: ReturnType<typeof mountSolver>;
  /** The re-rooted tree view's path from the root, the node hovered in a tree view, and the
   * root moves of the board cell hovered. */
  private focusPath: string[] = [];
  private hovered: number | null = null;
  private boardHover: Set<string> | null = null;
  private overlay: BoardOverlay | null = null;
  private treesPending = false;
  private internalsPending = false;
  /** Set while a controller call runs whose changes are drawn once at its end (`batch`). */
  private batching = false;

  constructor(
    private readonly hooks: PlaygroundHooks,
    private readonly controller: AnalysisController,
  ) {
    this.legend = mountOverlayBar(hooks, () => this.drawOverlay());
    this.depthSel.value = '3';
    this.topKSel.value = '3';
    this.icicle = new Icicle({ onHover: (n) => this.hoverNode(n), onClick: (n) => this.reroot(n) }, 240);
    this.nodelink = new NodeLink({ onHover: (n) => this.hoverNode(n), onReroot: (n) => this.reroot(n) });
    const head = h(
      'div',
      { class: 'an-head' },
      h('h2', {}, 'Seeing the search'),
      h(
        'div',
        { class: 'row' },
        this.presetSel,
        this.budget,
        h('span', { class: 'muted' }, 'playouts'),
        this.runBtn,
        this.stopBtn,
        h(
          'label',
          { class: 'watch', title: 'Show the playground engine’s search while it thinks about a move or a hint' },
          this.watch,
          ' watch the game’s engine',
        ),
      ),
    );
    this.section = this.build(head);
    hooks.elements.layout.after(this.section);
    // ---- the exact solver (Hex up to 8×8, Tic-Tac-Toe, Pentago endgames): its row under the analysis controls ----
    this.solver = mountSolver(hooks, () => this.redrawAll(false));
    head.after(this.solver.element);
    this.wire();
    this.lessons();
    this.installTestHooks();
  }

  /** What a lesson may wait for, trigger and outline here (lessons/catalogue.ts). */
  private lessons(): void {
    const b = this.hooks.lessons;
    const c = this.controller;
    b.watch(c.state);
    b.state('analysis.state', () => c.state.get().mark);
    b.state('analysis.lgrReplies', () => c.shown().stats?.policy.lgr_replies.length ?? 0);
    b.intent('analysis.run', (a) => {
      if (this.runBtn.disabled) throw new Error(this.runBtn.title || 'Analyse is not available now (an analysis is running)');
      this.syncPresets();
      if (a.preset !== undefined) {
        const p = String(a.preset);
        if (![...this.presetSel.options].some((o) => o.value === p)) throw new Error(`the engine has no preset "${p}"`);
        this.presetSel.value = p;
      }
      if (a.budget !== undefined) this.budget.value = String(a.budget);
      void c.analyse(this.presetSel.value, Number(this.budget.value));
    });
    b.target('analysis.internals', () => this.internalsHost);
    b.target('analysis.lgrReplies', () => (this.lgrReplies?.isConnected ? this.lgrReplies : null));
  }

  private build(head: HTMLElement): HTMLElement {
    return h(
      'section',
      { id: 'analysis', class: 'analysis', 'aria-label': 'Analysis' },
      head,
      this.status,
      h(
        'div',
        { class: 'tree-head' },
        h('h3', {}, 'Tree overview'),
        h(
          'span',
          { class: 'muted small' },
          'width = visits · colour = win rate for the player choosing the move (',
          h('span', { class: 'sw bad' }),
          ' bad … ',
          h('span', { class: 'sw good' }),
          ' good; 25% … 75%) · top bar: proven ',
          h('span', { class: 'sw won' }),
          ' win ',
          h('span', { class: 'sw lost' }),
          ' loss · click to zoom / re-root',
        ),
      ),
      this.icicle.element,
      this.hoverInfo,
      h(
        'div',
        { class: 'an-grid' },
        h(
          'div',
          { class: 'an-card' },
          h('div', { class: 'tree-head' }, h('h3', {}, 'Top of the tree'), this.depthSel, this.topKSel),
          this.crumbs,
          this.nodelink.element,
        ),
        h('div', { class: 'an-card' }, h('h3', {}, 'Policy internals'), this.internalsHost),
      ),
    );
  }

  private wire(): void {
    const { hooks, controller } = this;
    controller.state.subscribe((s, prev) => this.render(s, prev));
    // Every new snapshot (the board may have a new renderer: the overlay follows it) and every
    // change of what the game's engine does go to the controller, then all is drawn once; the review.
    hooks.store.subscribe((st, prev) => {
      if (changed(st, prev, 'snapshot', 'thinking')) this.batch(() => controller.checkPosition());
      else if (changed(st, prev, 'review')) {
        this.focusPath = [];
        this.hovered = null;
        this.drawButtons();
        this.redrawAll();
      }
    });
    this.watch.addEventListener('change', () => {
      controller.watch = this.watch.checked;
    });
    const { boardHost } = hooks.elements;
    boardHost.addEventListener('pointerover', (ev) => this.hoverCell(ev));
    boardHost.addEventListener('pointerleave', () => {
      this.boardHover = null;
      this.icicle.setHighlight(new Set());
      this.nodelink.setHighlight(new Set());
      document.body.dataset.treeHighlight = '0';
    });
    this.depthSel.addEventListener('change', () => this.drawTrees());
    this.topKSel.addEventListener('change', () => this.drawTrees());
    this.runBtn.addEventListener('click', () => {
      this.syncPresets();
      void controller.analyse(this.presetSel.value, Number(this.budget.value));
    });
    this.stopBtn.addEventListener('click', () => controller.stop());
    this.presetSel.addEventListener('focus', () => this.syncPresets());
    whenPresets(hooks.store, () => this.syncPresets());
    hooks.store.subscribe((s, prev) => {
      if (s.nets !== prev.nets || s.snapshot?.view.spec !== prev.snapshot?.view.spec) this.syncPresets();
    });
  }

  /** Test hooks (the page never calls them). */
  private installTestHooks(): void {
    const c = this.controller;
    (window as unknown as { __viz: unknown }).__viz = {
      setTreeQuery: (q: typeof c.treeQuery) => {
        c.treeQuery = q;
      },
      measures: () => ({ ...c.measures, icicleDrawMs: this.icicle.lastDrawMs, icicleDrawn: this.icicle.drawnNodes }),
      stats: () => c.state.get().stats,
      compact,
    };
  }

  /** Takes the page's position and starts the analysis worker. */
  start(): void {
    this.batch(() => this.controller.start());
  }

  /** Runs `f` (a controller call), then draws once what its state changes need. */
  private batch(f: () => void): void {
    this.batching = true;
    try {
      f();
    } finally {
      this.batching = false;
    }
    this.redrawAll();
  }

  /** The controller's state changed: what it changed is drawn. */
  private render(s: AnalysisState, prev: AnalysisState): void {
    if (s.cleared !== prev.cleared) {
      this.focusPath = [];
      this.hovered = null;
    }
    if (s.snap !== prev.snap) this.hovered = null;
    if (s.fallbackNote !== prev.fallbackNote && s.fallbackNote && s.analysed) this.presetSel.value = s.analysed.preset;
    if (s.running !== prev.running) this.drawButtons();
    if (s.mark !== prev.mark) document.body.dataset.analysis = s.mark;
    // The statistics alone (or the evaluator's view) leave the tree views as they are.
    const trees = changed(s, prev, 'snap', 'kids', 'kept', 'source', 'running', 'mark', 'analysed', 'cleared');
    if (this.batching) return;
    if (trees || changed(s, prev, 'stats', 'evaluation', 'message', 'fallbackNote')) this.redrawAll(trees);
  }

  private drawButtons(): void {
    const review = this.hooks.store.get().review;
    const running = this.controller.state.get().running;
    this.runBtn.disabled = review !== null || running;
    this.runBtn.title = review !== null ? 'Back to the live position to analyse it' : '';
    this.stopBtn.disabled = !running;
  }

  private syncPresets(): void {
    const { hooks, presetSel } = this;
    const ps = hooks.presets();
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
    if (presetSel.options.length === ps.length) return;
    presetSel.replaceChildren(...ps.map((p) => h('option', { value: p }, p)));
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
    presetSel.value = ps.includes(DEFAULT_PRESET) ? DEFAULT_PRESET : (ps[0] ?? '');
  }

  // ---- hover and re-root ----

  private reroot(n: number): void {
    const { snap } = this.controller.shown();
    if (!snap) return;
    this.focusPath = pathTo(snap, n);
    this.drawTrees();
  }

  private hoverNode(n: number | null): void {
    this.hovered = n;
    const { snap, kids } = this.controller.shown();
    if (snap && n !== null && kids) {
      const path = pathTo(snap, n);
      const mv = path.length ? path.join(' ') : 'the root';
      this.hoverInfo.textContent = `${mv}: N=${snap.visits[n]} · win rate ${nodeValueText(snap, n)} for ${n === 0 ? 'the side to move' : 'the player who chose it'} · then ${pvBelow(snap, kids, n, 8).join(' ') || '—'}`;
    } else
      this.hoverInfo.textContent =
        'Hover a node to see its line on the board (numbered ghost stones); hover a board cell to find its move in the tree.';
    this.nodelink.setHighlight(n === null ? this.highlightFromBoard() : new Set([n]));
    this.drawOverlay();
  }

  private highlightFromBoard(): Set<number> {
    const out = new Set<number>();
    const { snap, kids } = this.controller.shown();
    if (!snap || !kids || !this.boardHover) return out;
    for (const c of kids.of(0)) if (this.boardHover.has(snap.moves[snap.move[c]!] ?? '')) out.add(c);
    return out;
  }

  private hoverCell(ev: Event): void {
    const cell = this.hooks.board()?.cellAt(ev.target) ?? null;
    const s = this.hooks.snapshot();
    if (cell === null || !s) return;
    const { stats } = this.controller.shown();
    const rootMoves = stats ? stats.children.map((c) => c.move) : [];
    this.boardHover = movesOfCell(cell, s.view, rootMoves);
    const hl = this.highlightFromBoard();
    this.icicle.setHighlight(hl);
    this.nodelink.setHighlight(hl);
    document.body.dataset.treeHighlight = String(hl.size);
  }

  // ---- drawing ----

  private drawTrees(): void {
    const { snap, kids, entry } = this.controller.shown();
    const focus = snap && kids ? nodeOfPath(snap, kids, this.focusPath) : 0;
    if (snap) this.focusPath = pathTo(snap, focus);
    this.icicle.setData(snap, focus, entry ? String(entry.summary.ply) : '');
    this.nodelink.draw(snap, kids, focus, Number(this.topKSel.value), Number(this.depthSel.value));
    this.crumbs.replaceChildren();
    const rootBtn = h('button', { type: 'button', class: 'crumb' }, 'root');
    rootBtn.addEventListener('click', () => {
      this.focusPath = [];
      this.drawTrees();
    });
    this.crumbs.append(rootBtn);
    this.focusPath.forEach((m, k) => {
      const b = h('button', { type: 'button', class: 'crumb' }, m);
      b.addEventListener('click', () => {
        this.focusPath = this.focusPath.slice(0, k + 1);
        this.drawTrees();
      });
      this.crumbs.append(' › ', b);
    });
  }

  private drawStatus(): void {
    const { status, controller, hooks } = this;
    const { stats, snap, entry } = controller.shown();
    const { source, message, fallbackNote, analysed } = controller.state.get();
    status.dataset.behind = entry ? String(entry.summary.ply) : '';
    if (message) {
      status.textContent = message.text;
      return;
    }
    if (!stats) {
      status.textContent = entry
        ? `${behindLabel(entry.summary)}: ${entry.fromRecord ? `from the ${entry.fromLink ? 'link' : 'loaded record'}, its root statistics only` : 'its tree and statistics are gone (the page keeps them for the last 200 moves)'}. At the root: ${entry.summary.move} N = ${entry.summary.chosen?.visits ?? 0}, win rate ${((entry.summary.chosen?.win_rate ?? 0) * 100).toFixed(1)}%${entry.summary.best_rival ? `; best rival ${entry.summary.best_rival.move} N = ${entry.summary.best_rival.visits}, ${(entry.summary.best_rival.win_rate * 100).toFixed(1)}%` : ''}.`
        : source
          ? 'Waiting for the first statistics…'
          : 'Press Analyse to search the position on the board with the preset above, or let the game’s engine think (watch).';
      return;
    }
    const s = hooks.snapshot();
    const who = s ? playerName(s.view.kind, stats.to_move) : '';
    const src = entry
      ? behindLabel(entry.summary)
      : source
        ? source.own
          ? 'analysing'
          : `watching the game’s engine (${source.slot})`
        : 'finished';
    const best = stats.best_move ?? '–';
    // This search's own figures, the engine readout's (the tree's `iterations` count every
    // search since the tree was built: earlier moves' too).
    const f = stats.search ?? null;
    const ranCount = f ? f.playouts : stats.iterations;
    const ran = !f
      ? `${count(stats.iterations)} ${iterationsWord(stats.leaf)}`
      : searchedText({
          playouts: stats.root_visits ?? ranCount,
          search_playouts: f.playouts,
          proven: stats.proven,
          leaf: stats.leaf ?? null,
        });
    const parts = [
      entry ? src : `${src}: ${ran}`,
      ...(f
        ? [perSecond(f.elapsedMs > 0 ? (f.playouts * 1000) / f.elapsedMs : 0, f.playouts), duration(f.elapsedMs)]
        : [perSecond(stats.iterations_per_s, stats.iterations)]),
      `${stats.nodes.toLocaleString('en')} nodes`,
      `best ${best} (${winRateFor(stats.value, who)})${stats.proven ? `, proven ${stats.proven}` : ''}`,
    ];
    // The value head's estimate of the position beside the search's Q (network presets).
    const ev = entry ? null : controller.evaluation();
    if (ev?.value !== null && ev?.value !== undefined) parts.push(`value head ${winRateFor(ev.value, who)}`);
    status.dataset.valueHead = ev?.value != null ? String(ev.value) : '';
    if (snap)
      parts.push(
        `snapshot ${snap.count.toLocaleString('en')} of ${snap.total.toLocaleString('en')} nodes, ${(snap.bytes / 1024).toFixed(0)} KB, ${snap.buildMs.toFixed(0)} ms in the worker`,
      );
    status.textContent =
      parts.join(' · ') +
      (fallbackNote && !entry && (source ? source.own : analysed?.key === positionKey(hooks.snapshot())) ? ` — ${fallbackNote}` : '');
    status.dataset.iterations = String(ranCount);
    status.dataset.nodes = String(stats.nodes);
  }

  /** The exact values of the moves of the position on the board (the live one, or the one before
   * the reviewed move: the solver's values are always those of that position) by cell, when it
   * was solved. */
  private exactByCell(s: Snapshot | null, onBoard: BoardView | null): Map<number, ExactValue | null> | null {
    const vals = this.solver.values();
    if (!vals || !s) return null;
    const v = onBoard ?? s.view;
    // A cell stands for every move from it (Pentago: its twists): their best value, once known.
    const byCell = new Map<number, (ExactValue | null)[]>();
    for (const [m, value] of vals) {
      const cell = cellOfMove(v, m);
      if (cell !== null) byCell.set(cell, [...(byCell.get(cell) ?? []), value]);
    }
    return new Map([...byCell].map(([cell, vs]) => [cell, bestOfMoves(vs)]));
  }

  private drawOverlay(): void {
    const board = this.hooks.board();
    if (!board) return;
    if (!this.overlay || this.overlay.board !== board || !this.overlay.attached) {
      this.overlay?.remove();
      this.overlay = new BoardOverlay(board);
    }
    const s = this.hooks.snapshot();
    const review = this.hooks.store.get().review;
    const { stats, snap, kids, view, legal, entry } = this.controller.shown();
    const toMove = view ? view.to_move : s?.view.to_move;
    let data: OverlayData | null = null;
    const exact = this.exactByCell(s, review !== null ? view : null);
    // The side to move on the board: the reviewed position's, or the live one's.
    const boardToMove = review !== null && view ? view.to_move : s?.view.to_move;
    if (s && !stats && exact && boardToMove !== null && boardToMove !== undefined) {
      // Solved, no search on view: the exact values alone.
      data = {
        view: s.view,
        rows: s.view.rows,
        cols: s.view.cols,
        toMove: boardToMove,
        cells: new Map(),
        rootVisits: 0,
        pv: [],
        line: null,
        highlight: new Set(),
        exact,
      };
    } else if (s && stats && toMove !== null && toMove !== undefined) {
      const hovered = this.hovered;
      const line = snap && kids && hovered !== null ? { path: pathTo(snap, hovered), pv: pvBelow(snap, kids, hovered, 10) } : null;
      data = {
        view: view ?? s.view,
        rows: s.view.rows,
        cols: s.view.cols,
        toMove,
        // The figures are of the searched position (a kept search's own, else the live one): in
        // Connect Four a move's cell depends on it.
        cells: figuresByCell(view ?? s.view, stats.children, legal ?? s.legal),
        rootVisits: stats.children.reduce((a, c) => a + c.visits, 0),
        pv: stats.pv,
        line,
        highlight: line?.path.length ? cellsOfMoves(line.path.slice(0, 1), view ?? s.view) : new Set(),
        priors: priorsByCell(this.controller.evaluation(), view ?? s.view),
        // The search behind a move, outside review, is drawn on the live position after it: the
        // stones there (the move played among them) stay visible.
        stones: entry && review === null ? stonesOf(s.view) : null,
        // The exact values are those of the position on the board: not on the search behind the
        // move just played (drawn on the position after it).
        exact: this.controller.searchOfBoard() ? exact : null,
      };
    }
    this.overlay.draw(data, new Set(this.hooks.store.get().overlays));
    this.drawLegend(s);
    document.body.dataset.overlay = data ? String(data.rootVisits) : '';
  }

  private drawLegend(s: Snapshot | null): void {
    if (!s) return;
    const { stats, view, entry } = this.controller.shown();
    const kind = s.view.kind;
    const marks = new Set(this.hooks.store.get().overlays);
    if (this.hovered !== null) marks.add('pv');
    const legend = this.legend;
    drawLegendList(legend, {
      on: marks,
      who: playerName(kind, (view ?? s.view).to_move ?? 0),
      cellNote: gameOf(kind).cellNote,
      noAmaf: !!stats && !stats.children.some((c) => c.amaf_q !== null),
      priorSource: stats ? (stats.evaluator ?? null) : undefined,
      exact: { solved: this.solver.values() !== null, unavailable: this.solver.unavailable(), draws: gameOf(kind).facts.draws },
    });
    if (!stats && this.solver.values())
      legend.prepend(h('li', { class: 'muted' }, 'No search on view: the board shows the exact values only.'));
    else if (!stats)
      legend.prepend(h('li', { class: 'muted' }, 'Overlays appear while a search runs (Analyse, or the game’s engine thinking).'));
    else if (entry)
      legend.prepend(
        h(
          'li',
          { class: 'muted' },
          `The search behind move ${entry.summary.ply} (${entry.summary.move}), as it was before the move` +
            (this.hooks.store.get().review === null ? '; the stones played since show through it, their figures written under them.' : '.'),
        ),
      );
  }

  /** The status line and the board overlay are drawn at once; the tree views and the internals
   * table, the heavier parts, each in a task of their own (coalesced), so that no single
   * main-thread task carries everything and the page stays under 50 ms per task on a busy machine. */
  private redrawAll(trees = true): void {
    const t0 = performance.now();
    this.drawStatus();
    this.drawOverlay();
    this.controller.measures.breakdown = [+(performance.now() - t0).toFixed(1)];
    if (trees && !this.treesPending) {
      this.treesPending = true;
      setTimeout(() => {
        this.treesPending = false;
        this.drawTrees();
      }, 0);
    }
    if (!this.internalsPending) {
      this.internalsPending = true;
      setTimeout(() => {
        this.internalsPending = false;
        const c = this.controller;
        this.lgrReplies = renderInternals(
          this.internalsHost,
          c.shown().stats,
          c.evaluation(),
          c.searchOfBoard() ? this.solver.values() : null,
        ).lgrReplies;
      }, 0);
    }
  }
}
