// The analysis's controller ("Seeing the search"): where the statistics and the tree on view come
// from, and the engine requests that fetch them.
// - Analyse: an analysis worker of its own (so the game's engine is never disturbed) searches the
//   position on the board; a network preset the game has no net for falls back to a net-free one.
// - Watch: while the game's engine thinks about a move or a hint, its worker is asked for
//   statistics and tree snapshots between search chunks (`inspect`).
// Either source is polled four times a second (the tree at most every 450 ms); a new position
// clears the data, and a person's move in the position just analysed keeps that analysis as the
// search behind the move. The evaluator's view of the position (priors, value head) is asked once
// per position and preset. The state is a store of its own (`AnalysisState`); the view
// (analysis.ts) draws it. No DOM: unit-tested in Node with a fake engine.

import { EngineDied, EngineError, SearchCancelled, type EngineClient, type SearchHandle } from '../engine';
import { createStore, type Store } from '../lib/store';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import { addSearch, archiveQuery, rootSummary, searchBehind, type MoveSearch } from '../play/searches';
import type { BoardView, FullStats, PositionEvaluation, Snapshot, TreeQuery, TreeSnapshot } from '../protocol';
import { type PageStore, positionKey } from '../state';
import { childLists, type Children } from '../tree/nodelink';

/** What the analysis needs of an engine worker (its own, or the game's). */
export type AnalysisEngine = Pick<EngineClient, 'newGame' | 'search' | 'inspect' | 'evaluate' | 'dead'>;

export interface AnalysisDeps {
  /** The page's state: the position, what the game's engine does, the sides, the searches kept. */
  store: PageStore;
  /** The game's engine worker (watched while it thinks). */
  gameEngine(): AnalysisEngine;
  /** A new analysis worker. */
  newEngine(): AnalysisEngine;
  /** The tree overview's width in pixels (the tree snapshot's resolution follows it). */
  treeWidth(): number;
  /** Calls `f` every `ms` milliseconds until the returned function is called. */
  every(ms: number, f: () => void): () => void;
  /** Milliseconds on a monotonic clock. */
  now(): number;
}

/** Where the live statistics come from: a worker and its slot (`own`: the analysis's). */
export interface Source {
  client: AnalysisEngine;
  slot: string;
  own: boolean;
}

export interface AnalysisState {
  source: Source | null;
  stats: FullStats | null;
  snap: TreeSnapshot | null;
  kids: Children | null;
  /** The search behind the move just played, shown until a new search starts. */
  kept: MoveSearch | null;
  /** Analyse's own search runs. */
  running: boolean;
  /** '' (nothing, or a new position), `running`, `done`: mirrored on <body> for the tests. */
  mark: '' | 'running' | 'done';
  /** A sentence for the status line in place of the figures (an error, or why nothing was
   * analysed), until new figures come or the data is cleared. */
  message: { text: string } | null;
  /** Where the last Analyse ran (position key) and with which preset. */
  analysed: { key: string; preset: string } | null;
  /** Why the last Analyse ran another preset than the one chosen (a network preset without a net). */
  fallbackNote: string;
  /** The evaluator's view of a position (priors P, the value head's estimate), by position and preset. */
  evaluation: { key: string; e: PositionEvaluation } | null;
  /** Bumped when the data is cleared (a new position, a new Analyse): the view's focus goes. */
  cleared: number;
}

/** What the views draw: the search behind the move being reviewed, else the live search, else
 * the search behind the move just played (kept until a new search starts). `view` and `legal`
 * are the position searched (null: the board's). */
export interface Shown {
  stats: FullStats | null;
  snap: TreeSnapshot | null;
  kids: Children | null;
  entry: MoveSearch | null;
  view: BoardView | null;
  legal: string[] | null;
}

/** Whether `after` is `before` plus one move. */
export function extendsByOne(before: Snapshot, after: Snapshot): boolean {
  return (
    before.view.spec === after.view.spec &&
    after.moves.length === before.moves.length + 1 &&
    before.moves.every((m, i) => after.moves[i] === m)
  );
}

export class AnalysisController {
  readonly state: Store<AnalysisState>;
  /** Tree snapshot limits; the test hook can widen them (e.g. to the whole 100k-node tree). */
  treeQuery: Partial<TreeQuery> = {};
  /** Watch the game's engine while it thinks (the checkbox). */
  watch = true;
  readonly measures = { snapshots: 0, maxBytes: 0, maxCount: 0, maxBuildMs: 0, lastBytes: 0, lastCount: 0, lastTotal: 0, maxMainMs: 0 } as {
    [k: string]: unknown;
    snapshots: number;
    maxBytes: number;
    maxCount: number;
    maxBuildMs: number;
    lastBytes: number;
    lastCount: number;
    lastTotal: number;
    maxMainMs: number;
  };
  private own: AnalysisEngine | null = null;
  private ownSearch: SearchHandle | null = null;
  private generation = 0;
  private stopTimer: (() => void) | null = null;
  private lastTreePoll = 0;
  private polling: Promise<void> | null = null;
  private shownPosition = '';
  /** The position (snapshot) the data was for, to tell a person's move after Analyse. */
  private shownSnap: Snapshot | null = null;
  /** The worker holding the live statistics' position, the preset, the position. */
  private statsFrom: { client: AnalysisEngine; preset: string; key: string } | null = null;
  private evaluating = '';
  private readonly kidsOf = new WeakMap<TreeSnapshot, Children>();

  constructor(private readonly deps: AnalysisDeps) {
    this.state = createStore<AnalysisState>({
      source: null,
      stats: null,
      snap: null,
      kids: null,
      kept: null,
      running: false,
      mark: '',
      message: null,
      analysed: null,
      fallbackNote: '',
      evaluation: null,
      cleared: 0,
    });
  }

  private get s(): AnalysisState {
    return this.state.get();
  }

  /** Takes the page's position, and starts the analysis worker with the page: creating a worker
   * costs the main thread a long task of its own (60–120 ms measured in Chromium), which belongs
   * to the page load, not to the moment the person presses Analyse or the game's engine thinks. */
  start(): void {
    this.checkPosition();
    this.own = this.deps.newEngine();
  }

  /** The search on view (see `Shown`). */
  shown(): Shown {
    const st = this.deps.store.get();
    const s = st.snapshot;
    if (st.review !== null && s) {
      const e = searchBehind(st.searches, s.view.spec, s.moves, st.review);
      if (e) return this.fromEntry(e);
      // A move looked at without a kept search: no search of that position to show (the live
      // one's figures would be drawn on another position).
      return { stats: null, snap: null, kids: null, entry: null, view: null, legal: null };
    }
    const { stats, snap, kids, source, kept } = this.s;
    if (!stats && !source && kept) return this.fromEntry(kept);
    return { stats, snap, kids, entry: null, view: null, legal: null };
  }

  private fromEntry(e: MoveSearch): Shown {
    let k: Children | null = null;
    if (e.tree) {
      k = this.kidsOf.get(e.tree) ?? childLists(e.tree);
      this.kidsOf.set(e.tree, k);
    }
    return { stats: e.stats, snap: e.tree, kids: k, entry: e, view: e.view, legal: e.legal };
  }

  /** The evaluator's view of the position shown, when the search shown uses priors (PUCT) and it
   * is the live search (not a reviewed move); asks the worker for it the first time. */
  evaluation(): PositionEvaluation | null {
    const { stats: st, entry } = this.shown();
    const s = this.deps.store.get().snapshot;
    const from = this.statsFrom;
    if (!st || entry || st.evaluator === null || st.evaluator === undefined || !from || !s) return null;
    if (from.key !== positionKey(s)) return null;
    const key = `${from.key}|${from.preset}`;
    const have = this.s.evaluation;
    if (have?.key === key) return have.e.evaluator === st.evaluator ? have.e : null;
    if (this.evaluating !== key && !from.client.dead) {
      this.evaluating = key;
      from.client
        .evaluate({ preset: from.preset, params: {} })
        .then((e) => this.state.update({ evaluation: { key, e } }))
        .catch(() => {})
        .finally(() => {
          if (this.evaluating === key) this.evaluating = '';
        });
    }
    return null;
  }

  /** Whether the search on view is of the position on the board: the live search, or the search
   * behind the reviewed move (not the search behind the move just played, drawn on the position
   * after it). */
  searchOfBoard(): boolean {
    return this.deps.store.get().review !== null || !this.shown().entry;
  }

  private query(): TreeQuery {
    const width = Math.max(300, this.deps.treeWidth() || 800);
    const visits = this.s.stats?.iterations ?? 0;
    return { minVisits: Math.max(1, Math.floor(visits / (width * 3))), topK: 512, depth: 40, maxNodes: 200_000, ...this.treeQuery };
  }

  /** One poll of the source: its statistics, and its tree when the last is 450 ms old. */
  poll(): Promise<void> {
    if (this.polling || !this.s.source) return this.polling ?? Promise.resolve();
    this.polling = this.pollOnce(this.s.source).finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async pollOnce(src: Source): Promise<void> {
    const gen = this.generation;
    const now = this.deps.now();
    const wantTree = now - this.lastTreePoll >= 450;
    try {
      const r = await src.client.inspect(src.slot, wantTree ? this.query() : null);
      if (gen !== this.generation) return;
      const t0 = this.deps.now();
      const patch: Partial<AnalysisState> = {};
      if (r.stats) {
        patch.stats = r.stats;
        patch.message = null;
      }
      if (r.tree) {
        this.lastTreePoll = now;
        this.count(r.tree);
        patch.snap = r.tree;
        patch.kids = childLists(r.tree);
        this.measures.setTreeMs = this.deps.now() - t0;
      }
      this.state.update(patch);
      this.measures.maxMainMs = Math.max(this.measures.maxMainMs, this.deps.now() - t0);
    } catch (e) {
      if (!(e instanceof EngineDied)) this.state.update({ message: { text: `Analysis: ${e instanceof Error ? e.message : String(e)}` } });
    }
  }

  private count(t: TreeSnapshot): void {
    const m = this.measures;
    m.snapshots++;
    m.lastBytes = t.bytes;
    m.lastCount = t.count;
    m.lastTotal = t.total;
    m.maxBytes = Math.max(m.maxBytes, t.bytes);
    m.maxCount = Math.max(m.maxCount, t.count);
    m.maxBuildMs = Math.max(m.maxBuildMs, t.buildMs);
  }

  private startPolling(src: Source): void {
    this.state.update({ source: src });
    this.lastTreePoll = 0;
    this.stopTimer?.();
    this.stopTimer = this.deps.every(250, () => void this.poll());
    void this.poll();
  }

  /** Stops polling; `final`: one last poll (with the tree) first. */
  private async stopPolling(final: boolean): Promise<void> {
    this.stopTimer?.();
    this.stopTimer = null;
    if (final && this.s.source) {
      this.lastTreePoll = 0;
      if (this.polling) await this.polling;
      await this.poll();
    }
    this.state.update({ source: null });
  }

  private clearData(): void {
    this.state.update((s) => ({ stats: null, snap: null, kids: null, message: null, cleared: s.cleared + 1 }));
  }

  /** Analyse: searches the position on the board with `preset` for `playouts` playouts. */
  async analyse(preset: string, playouts: number): Promise<void> {
    const s = this.deps.store.get().snapshot;
    if (!s || s.outcome) {
      this.state.update({ message: { text: s?.outcome ? 'The game is over: nothing to analyse.' : 'No game yet.' } });
      return;
    }
    this.cancelOwn();
    await this.stopPolling(false);
    this.generation++;
    this.state.update({ kept: null });
    this.clearData();
    this.state.update({ analysed: { key: positionKey(s), preset } });
    if (!this.own || this.own.dead) this.own = this.deps.newEngine();
    const client = this.own;
    const n = Math.max(100, Math.round(playouts || 200000));
    const searchWith = (p: string) =>
      client.search({ slot: 'analysis', engine: { preset: p, params: {} }, budget: { kind: 'playouts', value: n }, progressMs: 250 });
    try {
      await client.newGame(s.view.spec, s.moves);
      let handle = searchWith(preset);
      this.ownSearch = handle;
      this.state.update({ fallbackNote: '' });
      handle.done.catch(() => {});
      try {
        // The engine refuses a preset it cannot run at once (before any playout), so a refusal
        // for want of a net arrives before the first progress: analyse with a net-free preset.
        await Promise.race([handle.done, client.inspect('analysis', null)]);
      } catch (e) {
        const fb = e instanceof EngineError && isNoNetError(e.message) ? netFreeFallback(this.deps.store.get().presets) : null;
        if (!fb) throw e;
        this.state.update({
          fallbackNote: fallbackMessage(preset, s.view.spec, fb, (e as Error).message),
          analysed: { key: positionKey(s), preset: fb },
        });
        handle = searchWith(fb);
        this.ownSearch = handle;
      }
      this.state.update({ running: true, mark: 'running' });
      this.startPolling({ client, slot: 'analysis', own: true });
      this.statsFrom = { client, preset: this.s.analysed!.preset, key: positionKey(s) };
      await handle.done;
      if (this.ownSearch === handle) {
        this.ownSearch = null;
        await this.stopPolling(true);
      }
    } catch (e) {
      if (!(e instanceof SearchCancelled || e instanceof EngineDied))
        this.state.update({ message: { text: `Analysis failed: ${e instanceof Error ? e.message : String(e)}` } });
    } finally {
      this.state.update({ running: this.ownSearch !== null, ...(this.ownSearch ? {} : { mark: 'done' as const }) });
    }
  }

  /** Stop: Analyse's search ends with what it has (its last statistics are fetched). */
  stop(): void {
    this.ownSearch?.stop();
  }

  private cancelOwn(): void {
    this.ownSearch?.cancel();
    this.ownSearch = null;
    this.state.update({ running: false });
  }

  /** Called on every new snapshot and every change of what the game's engine does: position
   * changes (moves, undo, a new game) make the data stale; the game's engine thinking is watched. */
  checkPosition(): void {
    const page = this.deps.store.get();
    const s = page.snapshot;
    const key = positionKey(s);
    if (key !== this.shownPosition) {
      const before = this.shownSnap;
      const { analysed, stats } = this.s;
      const wasAnalysed = analysed !== null && analysed.key === this.shownPosition && stats !== null ? analysed : null;
      this.shownPosition = key;
      this.shownSnap = s;
      this.cancelOwn();
      this.generation++;
      void this.stopPolling(false);
      // The search behind the move just played stays on view until a new search starts: the
      // engine's (kept by the page before it played), or this analysis when a person played a
      // move in the position it searched.
      const kept = s?.moves.length ? (searchBehind(page.searches, s.view.spec, s.moves, s.moves.length) ?? null) : null;
      this.state.update({ analysed: null, kept, mark: '' });
      if (!kept && wasAnalysed && before && s && extendsByOne(before, s)) void this.keepAnalysis(before, s, wasAnalysed.preset);
      this.clearData();
    }
    // Watch the game's engine while it thinks.
    const thinking = page.thinking;
    const source = this.s.source;
    if (this.watch && !this.ownSearch && thinking && s && s.view.to_move !== null) {
      const slot = thinking.purpose === 'hint' ? 'hint' : `p${s.view.to_move}`;
      if (!source || source.own || source.slot !== slot) {
        this.generation++;
        this.state.update({ kept: null });
        const client = this.deps.gameEngine();
        this.startPolling({ client, slot, own: false });
        // The game's engine searches with its side's preset (a hint: the preset the hint uses).
        const sides = page.sides;
        const side = thinking.purpose === 'hint' && sides[1 - s.view.to_move]!.who === 'engine' ? 1 - s.view.to_move : s.view.to_move;
        this.statsFrom = { client, preset: sides[side]!.preset, key: positionKey(s) };
      }
    } else if (source && !source.own && !thinking) {
      void this.stopPolling(true);
    }
  }

  /** Keeps this analysis (of `before`) as the search behind the move that led to `after`. */
  private async keepAnalysis(before: Snapshot, after: Snapshot, preset: string): Promise<void> {
    const client = this.own;
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
      this.deps.store.update((st) => ({ searches: addSearch(st.searches, e) }));
      // Still at that position with no new search: show it.
      if (this.shownPosition === positionKey(after) && !this.s.stats && !this.s.source) this.state.update({ kept: e });
    } catch {
      // The analysis worker is gone: nothing to keep.
    }
  }
}
