// The Compare view's controller: its intents (Run all, Stop) become engine requests — one worker
// per pane searching the same position with the same seed, for equal playouts (the budget in
// `STEPS` equal steps on one tree, sampled after each) or equal time (one search of the whole
// budget, sampled by its progress) — and the exact solve of that position in the solver's worker
// when it takes it; what they answer becomes the run's state (a store of its own, `CompareRun`),
// which the view (compare.ts) draws. No DOM: unit-tested in Node with a fake engine.

import {
  EngineDied,
  EngineError,
  SearchCancelled,
  type EngineClient,
  type SearchOptions,
  type SearchOutcome,
  type SearchSample,
} from '../engine';
import { count } from '../lib/format';
import { createStore, type Store } from '../lib/store';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import type { Budget, EngineParams, FullStats, SearchProgress, Snapshot, SolveEnd, SolveReport, TreeSnapshot } from '../protocol';
import { COMPARE_BUDGET, checkCompare, paneParamValues, paneSeeds } from '../share/url';
import { solveUnavailable } from '../overlay/solve-controller';
import { type CompareMode, type CompareSettings, type PaneFields, positionKey } from '../state';
import { type BestAt, COMPARE_SOLVE_S } from './truth';
import { PANE_PARAMS } from '../lib/pane-params';

/** Samples per run: the budget is searched in this many equal steps. */
export const STEPS = 40;
export const MODE_WORDS: Record<CompareMode, string> = { playouts: 'equal playouts', millis: 'equal time' };
/** The tree snapshot a pane's sample asks for (breadth-first, small). */
const PANE_TREE = { minVisits: 1, topK: 64, depth: 12, maxNodes: 3000 };

/** One sample of a pane's search: playouts so far, the best move's win rate, the best move, and
 * the win rates of the leading root moves. */
export interface Sample {
  playouts: number;
  value: number;
  best: string | null;
  q: Map<string, number>;
}

/** One pane's run. */
export interface PaneRun {
  k: number;
  /** The preset it searches with: the chosen one, or the net-free `fallback`. */
  preset: string;
  fallback: string | null;
  state: 'running' | 'done' | 'failed';
  /** Why it failed (shown in its readout); null otherwise. */
  error: string | null;
  /** The position searched, as the pane's engine has it. */
  position: Snapshot | null;
  samples: readonly Sample[];
  /** The latest statistics and tree snapshot (the tree of the latest sample that asked for one). */
  stats: FullStats | null;
  tree: TreeSnapshot | null;
  /** Whether the pane's own search (its seed) is running; its further seeds may run after it. */
  running: boolean;
  /** Each seed's budget in words (`40,000 playouts`, `2,000 ms`). */
  within: string;
  /** The seeds the pane runs (the run's seed first: `paneSeeds`); one unless the form asks for more. */
  seedList: readonly number[];
  /** Each seed's run that has ended, in order (the first is the pane's own search): its best
   * move at each sample, for the spread of when each found a proven move (truth.ts `seedSpread`). */
  seeds: readonly SeedRun[];
}

/** One seed's run of a pane: its best move at each sample. */
export interface SeedRun {
  seed: number;
  samples: readonly BestAt[];
}

/** The exact solve of a compared position. */
export interface ExactRun {
  key: string;
  kind: Snapshot['view']['kind'];
  running: boolean;
  report: SolveReport | null;
  end: SolveEnd | null;
  error: string | null;
}

export interface CompareRun {
  /** '' (no run yet), `invalid` (the form was not run), `running`, `done` or `stopped`. */
  state: '' | 'invalid' | 'running' | 'done' | 'stopped';
  /** The budget mode of the latest run. */
  mode: CompareMode | null;
  /** The line under the form (a new object for every new sentence). */
  note: { text: string; error: boolean };
  /** By pane number; the panes of the latest run, and earlier runs' beyond them. */
  panes: readonly (PaneRun | undefined)[];
  /** The position of the latest run (its key: '' before the first pane has it). */
  runKey: string;
  /** Why the exact solver does not take that position (null: it does). */
  exactWhy: string | null;
  exact: ExactRun | null;
  /** Bumped by a final sample and by the end of a run or a solve: the charts redraw at once
   * (otherwise at most every 400 ms). */
  chartsNow: number;
}

/** What the controller needs of a pane's engine worker and of the solver's. */
export type CompareEngine = Pick<EngineClient, 'newGame' | 'search' | 'inspect' | 'terminate' | 'dead'>;
export type CompareSolver = Pick<EngineClient, 'solve' | 'dead'>;

export interface CompareDeps {
  presets(): string[];
  newEngine(): CompareEngine;
  newSolver(): CompareSolver;
  /** The machine's cores, for the note. */
  cores: number;
}

/** The exact values of the latest run's position, once its root is proven either way. */
export function exactOfRun(s: CompareRun): SolveReport | null {
  const e = s.exact;
  return e && e.key === s.runKey && e.report && e.report.rootWins !== null ? e.report : null;
}

/** `proven` (the root is proven, whatever the rest), `solving`, `unknown` / `stopped` (ended
 * without proving the root), `unavailable`, `error`, or '' (no run yet). */
export function exactState(s: CompareRun): string {
  if (!s.runKey) return '';
  if (s.exactWhy !== null) return 'unavailable';
  const e = s.exact?.key === s.runKey ? s.exact : null;
  if (!e) return '';
  if (e.error) return 'error';
  if (e.report?.rootWins != null && e.end !== null) return 'proven';
  if (e.end === null) return 'solving';
  return e.end === 'proven' ? 'proven' : e.end;
}

/** A pane's engine parameters, typed: the seed and the fields filled in (blank: the preset's),
 * read by `paneParamValues` (share/url.ts, the page's one reader of parameter text). */
export function paneParams(f: PaneFields, seed: number): EngineParams {
  return { seed, ...paneParamValues(f, PANE_PARAMS) };
}

export class CompareController {
  readonly store: Store<CompareRun>;
  private generation = 0;
  private clients = new Map<number, CompareEngine>();
  private solver: CompareSolver | null = null;
  private solveHandle: { stop(): void } | null = null;
  private sampling = new Set<number>();
  private stopRun = () => {};

  constructor(private readonly deps: CompareDeps) {
    this.store = createStore<CompareRun>({
      state: '',
      mode: null,
      note: { text: '', error: false },
      panes: [],
      runKey: '',
      exactWhy: null,
      exact: null,
      chartsNow: 0,
    });
  }

  private get s(): CompareRun {
    return this.store.get();
  }

  private setPane(k: number, patch: Partial<PaneRun>): void {
    this.store.update((s) => {
      const panes = [...s.panes];
      panes[k] = { ...panes[k]!, ...patch };
      return { panes };
    });
  }

  /** Run all: every pane of `settings` searches its position; resolves when all have ended. */
  async run(settings: CompareSettings): Promise<void> {
    const problems = checkCompare(settings, this.deps.presets());
    if (problems.length) {
      this.store.update({ note: { text: `Not run: ${problems.join('; ')}.`, error: true }, state: 'invalid' });
      return;
    }
    const gen = ++this.generation;
    const spec = settings.game.trim();
    const mv = settings.moves.trim() ? settings.moves.trim().split(/\s+/) : [];
    const m = settings.mode;
    const common = Number(settings.budget);
    const seed = Number(settings.seed);
    const seeds = paneSeeds(seed, Math.max(1, Number(settings.seeds ?? '1') || 1));
    const unit = COMPARE_BUDGET[m].unit;
    const panes = [...this.s.panes];
    settings.panes.forEach((f, k) => {
      panes[k] = {
        k,
        preset: f.preset ?? '',
        fallback: null,
        state: 'running',
        error: null,
        // The board keeps the last run's position until the engine has this one.
        position: panes[k]?.position ?? null,
        samples: [],
        stats: null,
        tree: null,
        running: true,
        seedList: seeds,
        seeds: [],
        within: `${count(f.budget?.trim() ? Number(f.budget) : common)} ${unit}`,
      };
    });
    this.store.update({
      state: 'running',
      mode: m,
      runKey: '',
      panes,
      note: {
        text: `${settings.game}${mv.length ? ` after ${mv.join(' ')}` : ''}: every pane searches this position with seed ${seed}${seeds.length > 1 ? ` (then with seeds ${seeds[1]} to ${seeds.at(-1)}, for the spread)` : ''}, ${MODE_WORDS[m]} (${count(common)} ${unit} unless a pane has its own); each pane runs in its own worker, all at once (this machine has ${this.deps.cores || '?'} cores).${m === 'millis' ? ' Equal time depends on the machine: the same link may give other figures elsewhere.' : ''}`,
        error: false,
      },
    });
    const active = settings.panes.map((_, k) => k);
    const runs = settings.panes.map((f, k) => this.runPane(k, f, gen, spec, mv, m, f.budget?.trim() ? Number(f.budget) : common, seeds));
    this.stopRun = () => {
      for (const k of active) this.clients.get(k)?.terminate('stopped by the person');
    };
    await Promise.all(runs);
    if (gen !== this.generation) return;
    this.store.update((s) => ({ state: 'done', chartsNow: s.chartsNow + 1 }));
  }

  private client(k: number): CompareEngine {
    let c = this.clients.get(k);
    if (!c || c.dead) {
      c = this.deps.newEngine();
      this.clients.set(k, c);
    }
    return c;
  }

  private async runPane(
    k: number,
    f: PaneFields,
    gen: number,
    spec: string,
    mv: string[],
    m: CompareMode,
    n: number,
    seeds: readonly number[],
  ): Promise<void> {
    const client = this.client(k);
    try {
      const position = await client.newGame(spec, mv);
      this.setPane(k, { position });
      // The first pane to have the position (checked by its engine) has it solved.
      if (gen === this.generation && this.s.runKey === '') this.startExact(position);
      const search = (
        seed: number,
        budget: Budget,
        onProgress: (p: SearchProgress) => void = () => {},
        samples?: SearchOptions['samples'],
        onSample: (x: SearchSample) => void = (x) => this.record(k, gen, x.stats, x.tree, false),
      ) => {
        const run = () =>
          client.search({
            slot: 'cmp',
            engine: { preset: this.s.panes[k]!.preset, params: paneParams(f, seed) },
            budget,
            progressMs: budget.kind === 'millis' ? Math.max(50, budget.value / STEPS) : 1000,
            onProgress,
            ...(samples ? { samples, onSample } : {}),
          }).done;
        return run().catch((e: unknown) => {
          // A network preset without a usable net: this pane goes on with a net-free preset.
          const fb = e instanceof EngineError && isNoNetError(e.message) ? netFreeFallback(this.deps.presets()) : null;
          if (!fb) throw e;
          const was = this.s.panes[k]!.preset;
          this.setPane(k, { preset: fb, fallback: fb });
          const note = this.s.note;
          this.store.update({
            note: { text: `${note.text} Pane ${k + 1}: ${fallbackMessage(was, spec, fb, (e as Error).message)}`, error: note.error },
          });
          return run();
        });
      };
      if (m === 'millis') {
        // Equal time: one search of the whole budget, the same request to every pane's worker,
        // which counts it on the engine's own search time (the chunks it runs, not the messages
        // between them), so no pane searches longer than another and the time a pane shows is
        // the time its rate was computed over. Sampled while it runs (progress messages).
        let i = 0;
        await search(seeds[0]!, { kind: 'millis', value: n }, () => void this.sample(k, gen, false, ++i % 4 === 0));
        await this.sample(k, gen, true, true);
      } else {
        // Equal playouts: one search of the whole budget, sampled by the worker itself at STEPS
        // equal steps (the statistics after each, the tree for the overview after every eighth):
        // every pane is sampled at the same playout counts, whatever its speed, and no worker
        // waits for the page between steps. The engine's results do not depend on the steps. The last sample,
        // with its tree, is read once the search has ended (at its budget, or proven earlier).
        await search(seeds[0]!, { kind: 'playouts', value: n }, () => {}, { steps: STEPS, tree: PANE_TREE, treeEvery: 8 });
        if (gen === this.generation) await this.sample(k, gen, true, true);
      }
      if (gen !== this.generation) return;
      // The pane's own run is over (its verdict can be drawn); its further seeds follow.
      this.setPane(k, {
        running: false,
        seeds: [{ seed: seeds[0]!, samples: this.s.panes[k]!.samples.map((x) => ({ playouts: x.playouts, best: x.best })) }],
      });
      for (const seed of seeds.slice(1)) {
        if (gen !== this.generation) return;
        // A fresh tree for each seed, as for the pane's own run.
        await client.newGame(spec, mv);
        const got: BestAt[] = [];
        const add = (playouts: number, best: string | null) => {
          if (got.at(-1)?.playouts !== playouts) got.push({ playouts, best });
        };
        let out: SearchOutcome;
        if (m === 'millis') out = await search(seed, { kind: 'millis', value: n }, (p) => add(p.playouts, p.bestMove));
        else
          out = await search(
            seed,
            { kind: 'playouts', value: n },
            () => {},
            { steps: STEPS, tree: null, treeEvery: STEPS + 1 },
            (x) => add(x.stats.iterations, x.stats.best_move),
          );
        // Its end (a proven root ends a search early, an equal-time search between progress messages).
        add(out.result.playouts, out.result.move);
        if (gen !== this.generation) return;
        this.setPane(k, { seeds: [...this.s.panes[k]!.seeds, { seed, samples: got }] });
      }
      this.setPane(k, { state: 'done', running: false });
    } catch (e) {
      const error = e instanceof SearchCancelled || e instanceof EngineDied ? null : `Error: ${e instanceof Error ? e.message : String(e)}`;
      this.setPane(k, { state: 'failed', running: false, ...(error ? { error } : {}) });
    }
  }

  /** Asks pane `k`'s engine for its statistics (and tree) and records a sample. */
  private async sample(k: number, gen: number, final: boolean, withTree: boolean): Promise<void> {
    const client = this.clients.get(k);
    if (!client || (this.sampling.has(k) && !final)) return;
    this.sampling.add(k);
    try {
      const r = await client.inspect('cmp', withTree ? PANE_TREE : null);
      if (r.stats) this.record(k, gen, r.stats, r.tree, final);
    } catch {
      // a stopped pane
    } finally {
      this.sampling.delete(k);
    }
  }

  /** Records a sample of pane `k` (its statistics, and its tree when there is one); `final`: the
   * pane's last, after which the charts redraw at once. */
  private record(k: number, gen: number, st: FullStats, tree: TreeSnapshot | null, final: boolean): void {
    if (gen !== this.generation) return;
    const p = this.s.panes[k]!;
    const q = new Map(st.children.slice(0, 12).map((c) => [c.move, c.q] as [string, number]));
    const last = p.samples[p.samples.length - 1];
    const samples =
      !last || last.playouts !== st.iterations
        ? [...p.samples, { playouts: st.iterations, value: st.value, best: st.best_move, q }]
        : p.samples;
    this.setPane(k, { stats: st, samples, ...(tree ? { tree } : {}) });
    if (final) this.store.update((s) => ({ chartsNow: s.chartsNow + 1 }));
  }

  /** Solves the position of this run (`pos`, the panes' position) unless it is solved or being
   * solved already; a solve of another position is stopped. */
  private startExact(pos: Snapshot): void {
    const key = positionKey(pos);
    const exactWhy = solveUnavailable(pos);
    let exact = this.s.exact;
    if (exact && exact.key !== key) {
      this.solveHandle?.stop();
      this.solveHandle = null;
      exact = null;
    }
    this.store.update({ runKey: key, exactWhy, exact });
    if (exactWhy !== null) return;
    // The same position again: a running or finished solve is kept; an unfinished one continues.
    if (exact && (exact.running || exact.end === 'proven')) return;
    if (!this.solver || this.solver.dead) this.solver = this.deps.newSolver();
    const mine: ExactRun = { key, kind: pos.view.kind, running: true, report: exact?.report ?? null, end: null, error: null };
    this.store.update({ exact: mine });
    const update = (patch: Partial<ExactRun>) => {
      const cur = this.s.exact;
      if (cur?.key !== key || cur !== latest) return false;
      latest = { ...cur, ...patch };
      this.store.update({ exact: latest });
      return true;
    };
    let latest = mine;
    const handle = this.solver.solve({ spec: pos.view.spec, moves: pos.moves }, COMPARE_SOLVE_S * 1000, (r) => void update({ report: r }));
    this.solveHandle = handle;
    const ended = (patch: Partial<ExactRun>) => {
      if (this.solveHandle === handle) this.solveHandle = null;
      if (update({ running: false, ...patch })) this.store.update((s) => ({ chartsNow: s.chartsNow + 1 }));
    };
    handle.done.then(
      (out) => ended({ report: out, end: out.result }),
      (e: unknown) => ended({ error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /** Stop: every pane's worker ends (a new one is started for the next run), and the solve. */
  stop(): void {
    this.stopRun();
    this.solveHandle?.stop();
    this.generation++;
    this.store.update({ state: 'stopped' });
  }
}
