// "Seeing the search" on the playground page: board overlays with toggles and hotkeys,
// the live tree (icicle overview + node-link view), and the policy internals, fed by
// - an analysis engine of its own (a second worker, so the game's engine is never disturbed) that
//   searches the position on the board when the person presses Analyse, or
// - the playground's own engine while it thinks about a move or a hint ("watch"), by asking its
//   worker for statistics and tree snapshots between search chunks (`inspect` requests).
// Snapshots arrive a few times a second with their typed arrays transferred; the icicle layout is
// computed in the worker (tree/snapshot.ts); the main thread only draws.
//
// The app mounts this with its hooks; position changes and the game engine's searches
// come by subscription to the page's store, the overlays switched on are its state too.

import { EngineClient, EngineDied, EngineError, SearchCancelled, type SearchHandle } from '../engine';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import { labelPresetOptions } from '../play/nets';
import type { BoardView, FullStats, PositionEvaluation, Snapshot, TreeQuery, TreeSnapshot } from '../protocol';
import { addSearch, archiveQuery, behindLabel, rootSummary, searchBehind, searchedText, type MoveSearch } from '../play/searches';
import { changed } from '../lib/store';
import { OVERLAY_KEYS, positionKey, whenPresets } from '../state';
import type { PlaygroundHooks, TreeViews } from '../types';
import { parseCell, playerName } from '../board';
import {
  BoardOverlay,
  figuresByCell,
  movesOfCell,
  OVERLAYS,
  cellsOfMoves,
  priorsByCell,
  stonesOf,
  type OverlayData,
  type OverlayKey,
} from './board-overlay';
import { renderInternals } from './internals';
import { Icicle, compact } from '../tree/icicle';
import { NodeLink, childLists, nodeValueText, type Children } from '../tree/nodelink';
import './viz.css';
import { h } from '../lib/dom';
import { count, duration, iterationsWord, perSecond, winRateFor } from '../lib/format';
import { drawLegend as drawLegendList } from './legend';
import { mountSolver } from './solve';

type Source = { client: EngineClient; slot: string; own: boolean };

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
  const { boardHost, layout } = hooks.elements;
  // ---- overlay toolbar under the board ----
  // The overlays switched on are the page state's (the URL reads and writes them there).
  let on: ReadonlySet<OverlayKey> = new Set(hooks.store.get().overlays);
  const toggles = new Map<OverlayKey, HTMLButtonElement>();
  const bar = h(
    'div',
    { id: 'overlay-bar', class: 'overlay-bar', role: 'toolbar', 'aria-label': 'Search overlays on the board' },
    h('span', { class: 'bar-label' }, 'Overlays:'),
  );
  for (const o of OVERLAYS) {
    const b = h(
      'button',
      {
        type: 'button',
        id: `ov-${o.key}`,
        class: 'ov-toggle',
        'aria-pressed': String(on.has(o.key)),
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
  boardHost.after(bar, legend);

  function toggle(k: OverlayKey): void {
    const cur = hooks.store.get().overlays;
    hooks.store.update({ overlays: OVERLAY_KEYS.filter((x) => (x === k ? !cur.includes(x) : cur.includes(x))) });
  }
  hooks.store.subscribe((st, prev) => {
    if (st.overlays === prev.overlays) return;
    on = new Set(st.overlays);
    for (const [k, b] of toggles) b.setAttribute('aria-pressed', String(on.has(k)));
    drawOverlay();
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

  // ---- the analysis section under the playground ----
  const presetSel = h('select', { id: 'an-preset', 'aria-label': 'Analysis preset' });
  const budget = h('input', {
    id: 'an-budget',
    type: 'number',
    min: '100',
    step: '1000',
    value: '200000',
    'aria-label': 'Analysis budget in playouts',
  });
  const runBtn = h('button', { id: 'an-run', type: 'button', class: 'primary' }, 'Analyse');
  const stopBtn = h('button', { id: 'an-stop', type: 'button', disabled: '' }, 'Stop');
  const watch = h('input', { id: 'an-watch', type: 'checkbox', checked: '' });
  const status = h('div', { id: 'an-status', class: 'an-status', 'aria-live': 'off' });
  const depthSel = h(
    'select',
    { id: 'nl-depth', 'aria-label': 'Node-link depth' },
    ...[1, 2, 3, 4, 5, 6].map((d) => h('option', { value: String(d) }, `${d} plies`)),
  );
  depthSel.value = '3';
  const topKSel = h(
    'select',
    { id: 'nl-topk', 'aria-label': 'Children per node' },
    ...[2, 3, 4, 5, 8].map((d) => h('option', { value: String(d) }, `top ${d}`)),
  );
  topKSel.value = '3';
  const crumbs = h('nav', { class: 'crumbs', id: 'nl-crumbs', 'aria-label': 'Tree view root' });
  const hoverInfo = h('div', { id: 'tree-hover', class: 'tree-hover', 'aria-live': 'off' }, 'Hover a node to see its line on the board.');
  const internalsHost = h('div', { id: 'internals', class: 'internals' });
  const icicle = new Icicle({ onHover: (n) => hoverNode(n), onClick: (n) => reroot(n) }, 240);
  const nodelink = new NodeLink({ onHover: (n) => hoverNode(n), onReroot: (n) => reroot(n) });
  const head = h(
    'div',
    { class: 'an-head' },
    h('h2', {}, 'Seeing the search'),
    h(
      'div',
      { class: 'row' },
      presetSel,
      budget,
      h('span', { class: 'muted' }, 'playouts'),
      runBtn,
      stopBtn,
      h(
        'label',
        { class: 'watch', title: 'Show the playground engine’s search while it thinks about a move or a hint' },
        watch,
        ' watch the game’s engine',
      ),
    ),
  );
  const section = h(
    'section',
    { id: 'analysis', class: 'analysis', 'aria-label': 'Analysis' },
    head,
    status,
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
    icicle.element,
    hoverInfo,
    h(
      'div',
      { class: 'an-grid' },
      h(
        'div',
        { class: 'an-card' },
        h('div', { class: 'tree-head' }, h('h3', {}, 'Top of the tree'), depthSel, topKSel),
        crumbs,
        nodelink.element,
      ),
      h('div', { class: 'an-card' }, h('h3', {}, 'Policy internals'), internalsHost),
    ),
  );
  layout.after(section);
  // ---- the exact solver (Hex up to 8×8): its row under the analysis controls ----
  const solver = mountSolver(hooks, () => redrawAll(false));
  head.after(solver.element);

  /** The exact values of the moves of the position on the board (the live one, or the one before
   * the reviewed move: the solver's values are always those of that position) by cell, when it
   * was solved. */
  function exactByCell(s: Snapshot | null): Map<number, boolean | null> | null {
    const vals = solver.values();
    if (!vals || !s) return null;
    const out = new Map<number, boolean | null>();
    for (const [m, w] of vals) {
      const cell = parseCell(m, s.view.rows, s.view.cols);
      if (cell !== null) out.set(cell, w);
    }
    return out;
  }
  /** Whether the search on view is of the position on the board: the live search, or the search
   * behind the reviewed move (not the search behind the move just played, drawn on the position
   * after it). */
  const searchOfBoard = () => hooks.store.get().review !== null || !shown().entry;
  /** The same by move, for the root-move table of the search on view. */
  function exactByMove(): ReadonlyMap<string, boolean | null> | null {
    return searchOfBoard() ? solver.values() : null;
  }

  // ---- state ----
  let own: EngineClient | null = null;
  let ownSearch: SearchHandle | null = null;
  let source: Source | null = null;
  let stats: FullStats | null = null;
  let snap: TreeSnapshot | null = null;
  let kids: Children | null = null;
  let focusPath: string[] = [];
  let hovered: number | null = null;
  let boardHover: Set<string> | null = null;
  let overlay: BoardOverlay | null = null;
  let shownPosition = '';
  /** The position (snapshot) the data was for, to tell a person's move after Analyse. */
  let shownSnap: Snapshot | null = null;
  /** Where the last Analyse ran (position key) and with which preset. */
  let analysed: { key: string; preset: string } | null = null;
  /** Why the last Analyse ran another preset than the one chosen (a network preset without a net). */
  let fallbackNote = '';
  /** Where the live statistics come from: the worker holding that position and the preset. */
  let statsFrom: { client: EngineClient; preset: string; key: string } | null = null;
  /** The evaluator's view of that position (priors P, the value head's estimate), asked once per
   * position and preset: the P overlay, the value beside Q and the internals show it. */
  let evaluation: { key: string; e: PositionEvaluation } | null = null;
  let evaluating = '';
  /** The search behind the move just played, shown until a new search starts. */
  let kept: MoveSearch | null = null;
  const kidsOf = new WeakMap<TreeSnapshot, Children>();
  let pollTimer = 0;
  let lastTreePoll = 0;
  let polling = false;
  let generation = 0;
  /** Tree snapshot limits; the test hook can widen them (e.g. to the whole 100k-node tree). */
  let treeQuery: Partial<TreeQuery> = {};
  const measures = { snapshots: 0, maxBytes: 0, maxCount: 0, maxBuildMs: 0, lastBytes: 0, lastCount: 0, lastTotal: 0, maxMainMs: 0 };

  function clearData(): void {
    stats = null;
    snap = null;
    kids = null;
    focusPath = [];
    hovered = null;
    redrawAll();
  }

  /** What the views draw: the search behind the move being reviewed, else the live search, else
   * the search behind the move just played (kept until a new search starts). `view` and `legal`
   * are the position searched (null: the board's). */
  interface Shown {
    stats: FullStats | null;
    snap: TreeSnapshot | null;
    kids: Children | null;
    entry: MoveSearch | null;
    view: BoardView | null;
    legal: string[] | null;
  }
  function fromEntry(e: MoveSearch): Shown {
    let k: Children | null = null;
    if (e.tree) {
      k = kidsOf.get(e.tree) ?? childLists(e.tree);
      kidsOf.set(e.tree, k);
    }
    return { stats: e.stats, snap: e.tree, kids: k, entry: e, view: e.view, legal: e.legal };
  }
  /** The evaluator's view of the position shown, when the search shown uses priors (PUCT) and it
   * is the live search (not a reviewed move); asks the worker for it the first time. */
  function currentEvaluation(): PositionEvaluation | null {
    const { stats: st, entry } = shown();
    const s = hooks.snapshot();
    if (!st || entry || st.evaluator === null || st.evaluator === undefined || !statsFrom || !s) return null;
    if (statsFrom.key !== positionKey(s)) return null;
    const key = `${statsFrom.key}|${statsFrom.preset}`;
    if (evaluation?.key === key) return evaluation.e.evaluator === st.evaluator ? evaluation.e : null;
    if (evaluating !== key && !statsFrom.client.dead) {
      evaluating = key;
      statsFrom.client
        .evaluate({ preset: statsFrom.preset, params: {} })
        .then((e) => {
          evaluation = { key, e };
          redrawAll(false);
        })
        .catch(() => {})
        .finally(() => {
          if (evaluating === key) evaluating = '';
        });
    }
    return null;
  }

  function shown(): Shown {
    const st = hooks.store.get();
    const s = st.snapshot;
    if (st.review !== null && s) {
      const e = searchBehind(st.searches, s.view.spec, s.moves, st.review);
      if (e) return fromEntry(e);
    }
    if (!stats && !source && kept) return fromEntry(kept);
    return { stats, snap, kids, entry: null, view: null, legal: null };
  }

  function query(): TreeQuery {
    const width = Math.max(300, icicle.element.clientWidth || 800);
    const visits = stats?.iterations ?? 0;
    return {
      minVisits: Math.max(1, Math.floor(visits / (width * 3))),
      topK: 512,
      depth: 40,
      maxNodes: 200_000,
      ...treeQuery,
    };
  }

  async function poll(): Promise<void> {
    if (polling || !source) return;
    polling = true;
    const src = source;
    const gen = generation;
    const now = performance.now();
    const wantTree = now - lastTreePoll >= 450;
    try {
      const r = await src.client.inspect(src.slot, wantTree ? query() : null);
      if (gen !== generation) return;
      const t0 = performance.now();
      if (r.stats) stats = r.stats;
      if (r.tree) {
        lastTreePoll = now;
        setTree(r.tree);
        (measures as Record<string, unknown>).setTreeMs = performance.now() - t0;
      }
      redrawAll(!!r.tree);
      measures.maxMainMs = Math.max(measures.maxMainMs, performance.now() - t0);
    } catch (e) {
      if (!(e instanceof EngineDied)) status.textContent = `Analysis: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      polling = false;
    }
  }

  function setTree(t: TreeSnapshot): void {
    snap = t;
    kids = childLists(t);
    measures.snapshots++;
    measures.lastBytes = t.bytes;
    measures.lastCount = t.count;
    measures.lastTotal = t.total;
    measures.maxBytes = Math.max(measures.maxBytes, t.bytes);
    measures.maxCount = Math.max(measures.maxCount, t.count);
    measures.maxBuildMs = Math.max(measures.maxBuildMs, t.buildMs);
    hovered = null;
  }

  function startPolling(src: Source): void {
    source = src;
    lastTreePoll = 0;
    clearInterval(pollTimer);
    pollTimer = window.setInterval(() => void poll(), 250);
    void poll();
  }

  async function stopPolling(final: boolean): Promise<void> {
    clearInterval(pollTimer);
    pollTimer = 0;
    if (final && source) {
      lastTreePoll = 0;
      while (polling) await new Promise((ok) => setTimeout(ok, 20));
      await poll();
    }
    source = null;
  }

  async function analyse(): Promise<void> {
    const s = hooks.snapshot();
    if (!s || s.outcome) {
      status.textContent = s?.outcome ? 'The game is over: nothing to analyse.' : 'No game yet.';
      return;
    }
    cancelOwn();
    await stopPolling(false);
    generation++;
    kept = null;
    clearData();
    analysed = { key: positionKey(s), preset: presetSel.value };
    if (!own || own.dead) own = new EngineClient();
    const client = own;
    const n = Math.max(100, Math.round(Number(budget.value) || 200000));
    try {
      await client.newGame(s.view.spec, s.moves);
      let handle = client.search({
        slot: 'analysis',
        engine: { preset: presetSel.value, params: {} },
        budget: { kind: 'playouts', value: n },
        progressMs: 250,
      });
      ownSearch = handle;
      fallbackNote = '';
      handle.done.catch(() => {});
      try {
        // The engine refuses a preset it cannot run at once (before any playout), so a refusal
        // for want of a net arrives before the first progress: analyse with a net-free preset.
        await Promise.race([handle.done, client.inspect('analysis', null)]);
      } catch (e) {
        const fb = e instanceof EngineError && isNoNetError(e.message) ? netFreeFallback(hooks.presets()) : null;
        if (!fb) throw e;
        fallbackNote = fallbackMessage(presetSel.value, s.view.spec, fb, (e as Error).message);
        presetSel.value = fb;
        analysed = { key: positionKey(s), preset: fb };
        handle = client.search({
          slot: 'analysis',
          engine: { preset: fb, params: {} },
          budget: { kind: 'playouts', value: n },
          progressMs: 250,
        });
        ownSearch = handle;
      }
      runBtn.disabled = true;
      stopBtn.disabled = false;
      document.body.dataset.analysis = 'running';
      startPolling({ client, slot: 'analysis', own: true });
      statsFrom = { client, preset: analysed.preset, key: positionKey(s) };
      await handle.done;
      if (ownSearch === handle) {
        ownSearch = null;
        await stopPolling(true);
      }
    } catch (e) {
      if (!(e instanceof SearchCancelled || e instanceof EngineDied))
        status.textContent = `Analysis failed: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      runBtn.disabled = false;
      stopBtn.disabled = ownSearch === null;
      if (!ownSearch) document.body.dataset.analysis = 'done';
      redrawAll();
    }
  }

  function cancelOwn(): void {
    ownSearch?.cancel();
    ownSearch = null;
    stopBtn.disabled = true;
  }

  // Position changes (moves, undo, a new game) make the data stale.
  function checkPosition(): void {
    const s = hooks.snapshot();
    const key = positionKey(s);
    if (key !== shownPosition) {
      const before = shownSnap;
      const wasAnalysed = analysed !== null && analysed.key === shownPosition && stats !== null ? analysed : null;
      shownPosition = key;
      shownSnap = s;
      cancelOwn();
      generation++;
      void stopPolling(false);
      analysed = null;
      // The search behind the move just played stays on view until a new search starts: the
      // engine's (kept by the page before it played), or this analysis when a person played a
      // move in the position it searched.
      kept = s?.moves.length ? (searchBehind(hooks.store.get().searches, s.view.spec, s.moves, s.moves.length) ?? null) : null;
      if (!kept && wasAnalysed && before && s && extendsByOne(before, s)) void keepAnalysis(before, s, wasAnalysed.preset);
      clearData();
      document.body.dataset.analysis = '';
    }
    // Watch the game's engine while it thinks.
    const thinking = hooks.store.get().thinking;
    if (watch.checked && !ownSearch && thinking && s && s.view.to_move !== null) {
      const slot = thinking.purpose === 'hint' ? 'hint' : `p${s.view.to_move}`;
      if (!source || source.own || source.slot !== slot) {
        generation++;
        kept = null;
        startPolling({ client: hooks.engine(), slot, own: false });
        // The game's engine searches with its side's preset (a hint: the preset the hint uses).
        const sides = hooks.store.get().sides;
        const side = thinking.purpose === 'hint' && sides[1 - s.view.to_move]!.who === 'engine' ? 1 - s.view.to_move : s.view.to_move;
        statsFrom = { client: hooks.engine(), preset: sides[side]!.preset, key: positionKey(s) };
      }
    } else if (source && !source.own && !thinking) {
      void stopPolling(true).then(() => redrawAll());
    }
    redrawAll();
  }
  // Every new snapshot (the board may have a new renderer: the overlay follows it) and every
  // change of what the game's engine does.
  hooks.store.subscribe((st, prev) => {
    if (changed(st, prev, 'snapshot', 'thinking')) checkPosition();
    else if (changed(st, prev, 'review')) {
      focusPath = [];
      hovered = null;
      runBtn.disabled = st.review !== null || ownSearch !== null;
      runBtn.title = st.review !== null ? 'Back to the live position to analyse it' : '';
      redrawAll();
    }
  });

  /** Whether `after` is `before` plus one move. */
  function extendsByOne(before: Snapshot, after: Snapshot): boolean {
    return (
      before.view.spec === after.view.spec &&
      after.moves.length === before.moves.length + 1 &&
      before.moves.every((m, i) => after.moves[i] === m)
    );
  }

  /** Keeps this analysis (of `before`) as the search behind the move that led to `after`. */
  async function keepAnalysis(before: Snapshot, after: Snapshot, preset: string): Promise<void> {
    const client = own;
    if (!client) return;
    try {
      const first = await client.inspect('analysis', null);
      if (!first.stats) return;
      const r = await client.inspect('analysis', archiveQuery(first.stats.iterations));
      if (!r.stats) return;
      const move = after.moves[after.moves.length - 1]!;
      const e: MoveSearch = {
        spec: before.view.spec,
        before: [...before.moves],
        summary: rootSummary(r.stats, move, after.moves.length, preset, 'analysis'),
        view: before.view,
        legal: before.legal,
        stats: r.stats,
        tree: r.tree,
      };
      hooks.store.update((st) => ({ searches: addSearch(st.searches, e) }));
      // Still at that position with no new search: show it.
      if (shownPosition === positionKey(after) && !stats && !source) {
        kept = e;
        redrawAll();
      }
    } catch {
      // The analysis worker is gone: nothing to keep.
    }
  }

  // ---- hover and re-root ----
  function reroot(n: number): void {
    const { snap } = shown();
    if (!snap) return;
    focusPath = pathTo(snap, n);
    drawTrees();
  }

  function hoverNode(n: number | null): void {
    hovered = n;
    const { snap, kids } = shown();
    if (snap && n !== null && kids) {
      const path = pathTo(snap, n);
      const mv = path.length ? path.join(' ') : 'the root';
      hoverInfo.textContent = `${mv}: N=${snap.visits[n]} · win rate ${nodeValueText(snap, n)} for ${n === 0 ? 'the side to move' : 'the player who chose it'} · then ${pvBelow(snap, kids, n, 8).join(' ') || '—'}`;
    } else
      hoverInfo.textContent =
        'Hover a node to see its line on the board (numbered ghost stones); hover a board cell to find its move in the tree.';
    nodelink.setHighlight(n === null ? highlightFromBoard() : new Set([n]));
    drawOverlay();
  }

  function highlightFromBoard(): Set<number> {
    const out = new Set<number>();
    const { snap, kids } = shown();
    if (!snap || !kids || !boardHover) return out;
    for (const c of kids.of(0)) if (boardHover.has(snap.moves[snap.move[c]!] ?? '')) out.add(c);
    return out;
  }

  boardHost.addEventListener('pointerover', (ev) => {
    const cellEl = (ev.target as Element).closest('[data-index]');
    const s = hooks.snapshot();
    if (!cellEl || !s) return;
    const cell = Number(cellEl.getAttribute('data-index'));
    const { stats } = shown();
    const rootMoves = stats ? stats.children.map((c) => c.move) : [];
    boardHover = movesOfCell(cell, s.view.kind, s.view.cols, rootMoves);
    const hl = highlightFromBoard();
    icicle.setHighlight(hl);
    nodelink.setHighlight(hl);
    document.body.dataset.treeHighlight = String(hl.size);
  });
  boardHost.addEventListener('pointerleave', () => {
    boardHover = null;
    icicle.setHighlight(new Set());
    nodelink.setHighlight(new Set());
    document.body.dataset.treeHighlight = '0';
  });

  // ---- drawing ----
  function drawTrees(): void {
    const { snap, kids, entry } = shown();
    const focus = snap && kids ? nodeOfPath(snap, kids, focusPath) : 0;
    if (snap) focusPath = pathTo(snap, focus);
    icicle.setData(snap, focus, entry ? String(entry.summary.ply) : '');
    nodelink.draw(snap, kids, focus, Number(topKSel.value), Number(depthSel.value));
    crumbs.replaceChildren();
    const rootBtn = h('button', { type: 'button', class: 'crumb' }, 'root');
    rootBtn.addEventListener('click', () => {
      focusPath = [];
      drawTrees();
    });
    crumbs.append(rootBtn);
    focusPath.forEach((m, k) => {
      const b = h('button', { type: 'button', class: 'crumb' }, m);
      b.addEventListener('click', () => {
        focusPath = focusPath.slice(0, k + 1);
        drawTrees();
      });
      crumbs.append(' › ', b);
    });
  }
  depthSel.addEventListener('change', drawTrees);
  topKSel.addEventListener('change', drawTrees);

  function drawStatus(): void {
    const { stats, snap, entry } = shown();
    status.dataset.behind = entry ? String(entry.summary.ply) : '';
    if (!stats) {
      status.textContent = entry
        ? `${behindLabel(entry.summary)}: ${entry.fromRecord ? 'from the loaded record, its root statistics only' : 'its tree and statistics are gone (the page keeps them for the last 200 moves)'}. At the root: ${entry.summary.move} N = ${entry.summary.chosen?.visits ?? 0}, win rate ${((entry.summary.chosen?.win_rate ?? 0) * 100).toFixed(1)}%${entry.summary.best_rival ? `; best rival ${entry.summary.best_rival.move} N = ${entry.summary.best_rival.visits}, ${(entry.summary.best_rival.win_rate * 100).toFixed(1)}%` : ''}.`
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
    const ev = entry ? null : currentEvaluation();
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

  function drawOverlay(): void {
    const svgRoot = boardHost.querySelector('svg');
    if (!svgRoot) return;
    if (!overlay || overlay.svgRoot !== svgRoot || !overlay.attached) {
      overlay?.remove();
      overlay = new BoardOverlay(svgRoot as SVGSVGElement);
    }
    const s = hooks.snapshot();
    const { stats, snap, kids, view, legal, entry } = shown();
    const toMove = view ? view.to_move : s?.view.to_move;
    let data: OverlayData | null = null;
    const exact = exactByCell(s);
    // The side to move on the board: the reviewed position's, or the live one's.
    const boardToMove = hooks.store.get().review !== null && view ? view.to_move : s?.view.to_move;
    if (s && !stats && exact && boardToMove !== null && boardToMove !== undefined) {
      // Solved, no search on view: the exact values alone.
      data = {
        kind: s.view.kind,
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
      const line = snap && kids && hovered !== null ? { path: pathTo(snap, hovered), pv: pvBelow(snap, kids, hovered, 10) } : null;
      data = {
        kind: s.view.kind,
        rows: s.view.rows,
        cols: s.view.cols,
        toMove,
        cells: figuresByCell(s.view.kind, s.view.rows, s.view.cols, stats.children, legal ?? s.legal),
        rootVisits: stats.children.reduce((a, c) => a + c.visits, 0),
        pv: stats.pv,
        line,
        highlight: line?.path.length ? cellsOfMoves(line.path.slice(0, 1), s.view.rows, s.view.cols) : new Set(),
        priors: priorsByCell(currentEvaluation(), s.view.rows, s.view.cols),
        // The search behind a move, outside review, is drawn on the live position after it: the
        // stones there (the move played among them) stay visible.
        stones: entry && hooks.store.get().review === null ? stonesOf(s.view) : null,
        // The exact values are those of the position on the board: not on the search behind the
        // move just played (drawn on the position after it).
        exact: searchOfBoard() ? exact : null,
      };
    }
    overlay.draw(data, on);
    drawLegend(s);
    document.body.dataset.overlay = data ? String(data.rootVisits) : '';
  }

  function drawLegend(s: Snapshot | null): void {
    if (!s) return;
    const { stats, view, entry } = shown();
    const kind = s.view.kind;
    const marks = new Set(on);
    if (hovered !== null) marks.add('pv');
    drawLegendList(legend, {
      on: marks,
      who: playerName(kind, (view ?? s.view).to_move ?? 0),
      pentago: kind === 'pentago',
      noAmaf: !!stats && !stats.children.some((c) => c.amaf_q !== null),
      priorSource: stats ? (stats.evaluator ?? null) : undefined,
      exact: { solved: solver.values() !== null, unavailable: solver.unavailable() },
    });
    if (!stats && solver.values()) legend.prepend(h('li', { class: 'muted' }, 'No search on view: the board shows the exact values only.'));
    else if (!stats)
      legend.prepend(h('li', { class: 'muted' }, 'Overlays appear while a search runs (Analyse, or the game’s engine thinking).'));
    else if (entry)
      legend.prepend(
        h(
          'li',
          { class: 'muted' },
          `The search behind move ${entry.summary.ply} (${entry.summary.move}), as it was before the move` +
            (hooks.store.get().review === null ? '; the stones played since show through it, their figures written under them.' : '.'),
        ),
      );
  }

  // The status line and the board overlay are drawn at once; the tree views and the internals
  // table, the heavier parts, each in a task of their own (coalesced), so that no single
  // main-thread task carries everything and the page stays under 50 ms per task on a busy machine.
  let treesPending = false;
  let internalsPending = false;
  function redrawAll(trees = true): void {
    const t0 = performance.now();
    drawStatus();
    drawOverlay();
    (measures as Record<string, unknown>).breakdown = [+(performance.now() - t0).toFixed(1)];
    if (trees && !treesPending) {
      treesPending = true;
      setTimeout(() => {
        treesPending = false;
        drawTrees();
      }, 0);
    }
    if (!internalsPending) {
      internalsPending = true;
      setTimeout(() => {
        internalsPending = false;
        renderInternals(internalsHost, shown().stats, currentEvaluation(), exactByMove());
      }, 0);
    }
  }

  function syncPresets(): void {
    const ps = hooks.presets();
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
    if (presetSel.options.length === ps.length) return;
    presetSel.replaceChildren(...ps.map((p) => h('option', { value: p }, p)));
    labelPresetOptions(presetSel, hooks.store.get().nets, hooks.snapshot()?.view.spec ?? null);
    presetSel.value = ps.includes('rave') ? 'rave' : (ps[0] ?? '');
  }
  runBtn.addEventListener('click', () => {
    syncPresets();
    void analyse();
  });
  stopBtn.addEventListener('click', () => ownSearch?.stop());
  presetSel.addEventListener('focus', syncPresets);
  whenPresets(hooks.store, syncPresets);
  hooks.store.subscribe((s, prev) => {
    if (s.nets !== prev.nets || s.snapshot?.view.spec !== prev.snapshot?.view.spec) syncPresets();
  });

  // Test hooks (the page never calls them).
  (window as unknown as { __viz: unknown }).__viz = {
    setTreeQuery: (q: Partial<TreeQuery>) => {
      treeQuery = q;
    },
    measures: () => ({ ...measures, icicleDrawMs: icicle.lastDrawMs, icicleDrawn: icicle.drawnNodes }),
    stats: () => stats,
    compact,
  };
  checkPosition();
  // Start the analysis worker with the page, next to the game's worker: creating a worker costs
  // the main thread a long task of its own (60–120 ms measured in Chromium), which belongs to the
  // page load, not to the moment the person presses Analyse or the game's engine thinks.
  own = new EngineClient();
  void own.hello().catch(() => {});
  return {
    section,
    trees: {
      nodeLink: () => ({ svg: nodelink.svg, nodes: nodelink.svg.querySelectorAll('.nl-node').length }),
      icicle: () => ({ canvas: icicle.canvas, nodes: Number(icicle.element.dataset.count ?? 0) }),
    },
  };
}
