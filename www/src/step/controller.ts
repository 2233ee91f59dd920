// The step-through's controller: a worker of its own holds a step session (the engine's
// `Search::step_traced` in record mode, see src/mcts/trace.rs); every answer is kept by its
// iteration number (trace + tree snapshot + statistics), so going back is exact and going forward
// again replays the stored steps. The same seed gives the same steps every time, which is also
// how an iteration that was never shown is reached (◀◀ after Run 100, Run 10 after going back):
// the session is rebuilt from the seed and run to exactly that iteration, so the counter always
// moves by 1 (◀◀ / ▶▶), 10 or 100 from the iteration on screen. Requests go one at a time; the
// state on screen is published when each is done (`StepState`), for the view (step.ts) to draw.
// No DOM: unit-tested in Node with a fake engine.

import { EngineError, type EngineClient } from '../engine';
import { createStore, type Store } from '../lib/store';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import type { BoardView, FullStats, IterationTrace, Snapshot, TreeQuery, TreeSnapshot } from '../protocol';

/** One stored step: the tree after `trace` (null: the fresh tree), `ran` iterations in this step. */
export interface StepEntry {
  trace: IterationTrace | null;
  tree: TreeSnapshot;
  stats: FullStats;
  view: BoardView;
  ran: number;
}

/** What the session searches (to rebuild it from the seed). */
export interface StepSession {
  spec: string;
  moves: string[];
  view: BoardView;
  preset: string;
  seed: number;
}

/** What the panel shows. */
export interface StepState {
  /** A request is under way (the buttons wait). */
  busy: boolean;
  /** The iteration on screen (-1: no session) and its phase (0 selection … 3 backpropagation). */
  cur: number;
  phase: number;
  /** The stored step of `cur`. */
  entry: StepEntry | null;
  session: StepSession | null;
  /** Iterations run by the last Run 10 / Run 100 (0 otherwise), for the status line. */
  lastRan: number;
  /** Why the session was last restarted on its own ("position changed"), shown until the next step. */
  resetWhy: string;
  /** The last request's error ('' when it went well). */
  lastError: string;
  /** The iteration count of the worker's session (-1: none). */
  workerAt: number;
}

export const PHASES = ['Selection', 'Expansion', 'Playout', 'Backpropagation'] as const;
/** The step session's tree snapshots: small trees, drawn whole as far as the node-link view goes. */
export const STEP_TREE: TreeQuery = { minVisits: 1, topK: 64, depth: 12, maxNodes: 5000 };
/** Stored steps at most. */
const CACHE_MAX = 300;

export type StepEngine = Pick<EngineClient, 'step' | 'dead'>;

export interface StepDeps {
  presets(): string[];
  newEngine(): StepEngine;
}

export class StepController {
  readonly state: Store<StepState>;
  private client: StepEngine | null = null;
  /** The stored steps by iteration number (0: the fresh tree). */
  private readonly cache = new Map<number, StepEntry>();
  private cur = -1;
  private phase = 3;
  private session: StepSession | null = null;
  private workerAt = -1;
  private lastRan = 0;
  private resetWhy = '';
  private lastError = '';
  /** Worker requests, one at a time. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: StepDeps) {
    this.state = createStore<StepState>(this.snapshot(false));
  }

  private snapshot(busy: boolean): StepState {
    return {
      busy,
      cur: this.cur,
      phase: this.phase,
      entry: (this.cur >= 0 ? this.cache.get(this.cur) : undefined) ?? null,
      session: this.session,
      lastRan: this.lastRan,
      resetWhy: this.resetWhy,
      lastError: this.lastError,
      workerAt: this.workerAt,
    };
  }

  private publish(busy = this.state.get().busy): void {
    this.state.update(this.snapshot(busy));
  }

  /** Whether a session is open (a new position, preset or seed then starts a fresh one). */
  get hasSession(): boolean {
    return this.session !== null;
  }

  /** The stored traces by iteration (the tests' hook). */
  traces(): (IterationTrace | null)[] {
    return [...this.cache.keys()].sort((a, b) => a - b).map((k) => this.cache.get(k)!.trace);
  }

  private engine(): StepEngine {
    if (!this.client || this.client.dead) this.client = this.deps.newEngine();
    return this.client;
  }

  /** Runs `f` after the queued requests, busy meanwhile; what it did is published at its end. */
  private serial(f: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(async () => {
      this.state.update({ busy: true });
      try {
        await f();
      } catch (e) {
        this.lastError = e instanceof Error ? e.message : String(e);
      } finally {
        this.publish(false);
      }
    });
    return this.queue;
  }

  private async request(req: Parameters<EngineClient['step']>[0]): Promise<StepEntry> {
    const r = await this.engine().step(req);
    this.lastError = '';
    this.workerAt = r.stats.iterations;
    return { trace: r.trace, tree: r.tree, stats: r.stats, view: this.session!.view, ran: req.type === 'stepRun' ? req.count : 0 };
  }

  private async startSession(): Promise<void> {
    const sn = this.session!;
    this.workerAt = -1;
    const e = await this.request({
      type: 'stepNew',
      spec: sn.spec,
      moves: sn.moves,
      engine: { preset: sn.preset, params: { seed: sn.seed } },
      tree: STEP_TREE,
    });
    this.cache.set(0, e);
  }

  /** A fresh session on `snap` with `preset` and `seed`; `why` says what changed when it was not
   * the New button. */
  newSession(snap: Snapshot, preset: string, seed: number, why = ''): Promise<void> {
    return this.serial(async () => {
      this.cache.clear();
      this.cur = -1;
      this.lastRan = 0;
      this.resetWhy = why;
      this.session = { spec: snap.view.spec, moves: [...snap.moves], view: snap.view, preset, seed };
      try {
        await this.startSession();
      } catch (e) {
        // A network preset without a usable net: step through a net-free preset instead.
        const fb = e instanceof EngineError && isNoNetError(e.message) ? netFreeFallback(this.deps.presets()) : null;
        if (!fb) throw e;
        const note = fallbackMessage(this.session.preset, this.session.spec, fb, (e as Error).message);
        this.session = { ...this.session, preset: fb };
        await this.startSession();
        this.resetWhy = note;
      }
      this.cur = 0;
      this.phase = 3;
    });
  }

  /** Shows iteration `target` at phase `atPhase`: stored, or run by the session (rebuilt from the
   * seed when the worker is past it). */
  private goTo(target: number, atPhase: number, ran = 0): Promise<void> {
    if (this.cur < 0 || target < 0 || !this.session) return Promise.resolve();
    return this.serial(async () => {
      this.resetWhy = '';
      this.lastRan = ran;
      let e = this.cache.get(target);
      if (!e) {
        if (this.workerAt < 0 || this.workerAt > target - 1) {
          await this.startSession();
          if (target === 0) e = this.cache.get(0);
        }
        if (!e) {
          e = await this.request({ type: 'stepRun', count: target - this.workerAt, tree: STEP_TREE });
          if (e.stats.iterations !== target) throw new Error(`the search stopped at iteration ${e.stats.iterations}`);
          this.cache.set(target, e);
          this.trimCache(target);
        }
      }
      this.cur = target;
      this.phase = e.trace ? atPhase : 3;
    });
  }

  /** Keeps the cache bounded: drops the stored steps farthest from `near` (never the fresh tree). */
  private trimCache(near: number): void {
    if (this.cache.size <= CACHE_MAX) return;
    const far = [...this.cache.keys()].filter((k) => k !== 0).sort((a, b) => Math.abs(b - near) - Math.abs(a - near));
    for (const k of far.slice(0, this.cache.size - CACHE_MAX)) this.cache.delete(k);
  }

  private get idle(): boolean {
    return !this.state.get().busy && this.cur >= 0;
  }

  // The intents below resolve once what they asked is on screen (at once when there is nothing
  // to do: no session, or a request under way).

  /** `count` iterations on (the last one shown at `atPhase`). */
  nextIteration(count: number, atPhase: number): Promise<void> {
    if (!this.idle) return Promise.resolve();
    return this.goTo(this.cur + count, atPhase, count > 1 ? count : 0);
  }

  phaseForward(): Promise<void> {
    if (!this.idle) return Promise.resolve();
    if (this.phase < 3 && this.cache.get(this.cur)?.trace) {
      this.phase++;
      this.resetWhy = '';
      // No expansion (a terminal leaf or the node cap): the phase is shown, then skipped over.
      this.publish();
      return Promise.resolve();
    }
    return this.nextIteration(1, 0);
  }

  phaseBack(): Promise<void> {
    if (!this.idle) return Promise.resolve();
    if (this.phase > 0 && this.cache.get(this.cur)?.trace) {
      this.phase--;
      this.resetWhy = '';
      this.publish();
      return Promise.resolve();
    }
    return this.cur > 0 ? this.goTo(this.cur - 1, 3) : Promise.resolve();
  }

  iterationBack(): Promise<void> {
    if (!this.idle || this.cur <= 0) return Promise.resolve();
    return this.goTo(this.cur - 1, 3);
  }
}
