// The game review's controller: "Review game" reviews every position of the game's main line
// (the moves from the start to the position on the board) with the engine's own core
// (src/report/review.rs, as `mcts review`), one position per request, on workers of its own so
// the game's searches are not disturbed: as many as the Players box's "Engine workers", each
// taking the next pending position. It writes the page state's `gameReview` (positions done,
// running / stopped / finished, the report); the views draw from there. Stop ends the workers at
// once (positions done stay); Review again reviews only the pending ones; a new move or a new
// game makes the review stale (cleared).

import type { PositionReview, ReviewGame } from '../protocol';
import type { GameReviewState, PageState, PageStore } from '../state';
import { movesKey } from '../state';
import { DEFAULT_REVIEW_SEED, type ReviewBudget, type ReviewReport, type ReviewSettings } from '../review/report';

/** Playouts per position the page offers (`mcts review --iterations`); the default is 10,000. */
export const REVIEW_PLAYOUTS = [2_000, 10_000, 50_000] as const;
export const DEFAULT_REVIEW_PLAYOUTS = 10_000;
/** Milliseconds per position the page offers (`mcts review --ms`): a time budget gives each
 * position the same wall time whatever the machine, and is not reproducible (a playout budget
 * is, for a seed). */
export const REVIEW_MS = [100, 250, 1_000] as const;
/** The page's default budget per position: 10,000 playouts. */
export const DEFAULT_REVIEW_BUDGET: ReviewBudget = { unit: 'playouts', value: DEFAULT_REVIEW_PLAYOUTS };
/** The exact solver's budget per position in the page, milliseconds (`mcts review --solve-ms`). */
export const REVIEW_SOLVE_MS = 1_000;
/** The review's seed (`mcts review`'s default, 0): position i is searched with seed i. */
export const REVIEW_SEED = DEFAULT_REVIEW_SEED;
/** The preset when neither side's is known (the engine core's `DEFAULT_PRESET`). */
export const FALLBACK_PRESET = 'best';

/** What a review worker must answer (an `EngineClient`; a fake in the tests). */
export interface ReviewEngine {
  reviewPosition(game: ReviewGame, index: number): Promise<PositionReview>;
  reviewReport(game: ReviewGame, results: PositionReview[]): Promise<ReviewReport>;
  terminate(reason?: string): void;
}

export interface ReviewDeps {
  store: PageStore;
  /** A new worker for the review (`new EngineClient()`, not the game's). */
  newEngine: () => ReviewEngine;
  /** Milliseconds (performance.now()), for the time left. */
  now: () => number;
}

/** The preset a review uses: the engine side's (side 1's when both are engines), else the
 * page's default (the Players box's preset, set at start-up to the page's preferred one), else
 * [`FALLBACK_PRESET`]. */
export function reviewPreset(s: Pick<PageState, 'sides'>): string {
  const engine = [1, 0].map((p) => s.sides[p as 0 | 1]).find((x) => x.who === 'engine' && x.preset);
  return engine?.preset || s.sides[1].preset || s.sides[0].preset || FALLBACK_PRESET;
}

/** The settings of a review with `preset` and a budget per position (`playouts` playouts, or a
 * [`ReviewBudget`] in playouts or milliseconds), seeded with `seed` (default [`REVIEW_SEED`]). */
export function reviewSettings(preset: string, budget: number | ReviewBudget, seed: number = REVIEW_SEED): ReviewSettings {
  const b: ReviewBudget = typeof budget === 'number' ? { unit: 'playouts', value: budget } : budget;
  return {
    preset,
    iterations: b.unit === 'playouts' ? b.value : null,
    ms: b.unit === 'ms' ? b.value : null,
    solve_ms: REVIEW_SOLVE_MS,
    seed,
  };
}

/** A review's budget per position from its settings (`iterations` playouts, else `ms`). */
export function budgetOf(s: Pick<ReviewSettings, 'iterations' | 'ms'>): ReviewBudget {
  return s.iterations !== null ? { unit: 'playouts', value: s.iterations } : { unit: 'ms', value: s.ms ?? 0 };
}

/** The main line of the game shown: its tree's (the live game may be in a variation). */
export function mainLine(s: Pick<PageState, 'snapshot' | 'gameTree'>): readonly string[] {
  const snap = s.snapshot;
  if (!snap) return [];
  return s.gameTree?.spec === snap.view.spec ? s.gameTree.moves : snap.moves;
}

/** The key of the main line (`movesKey`): a review belongs to one main line. */
export function mainLineKey(s: Pick<PageState, 'snapshot' | 'gameTree'>): string {
  return s.snapshot ? movesKey(s.snapshot.view.spec, mainLine(s)) : '';
}

/** Milliseconds left, estimated from the positions done in this run and the time they took
 * (null before the first). */
export function timeLeftMs(doneThisRun: number, pending: number, elapsedMs: number): number | null {
  if (doneThisRun <= 0) return null;
  return (elapsedMs / doneThisRun) * pending;
}

/** The pending positions of a review of `total` positions with `results`, ascending. */
export function pendingPositions(total: number, results: ReadonlyMap<number, unknown>): number[] {
  return Array.from({ length: total }, (_, i) => i).filter((i) => !results.has(i));
}

/** Runs the game review and keeps `gameReview` in the store. */
export class ReviewController {
  private game: ReviewGame | null = null;
  private key = '';
  private readonly results = new Map<number, PositionReview>();
  private engines: ReviewEngine[] = [];
  /** Bumped by every start, stop and clear: a run's answers count only while it is current. */
  private run = 0;
  private started = 0;
  private doneThisRun = 0;
  /** The last error, as a sentence (null: none). */
  error: string | null = null;

  constructor(private readonly deps: ReviewDeps) {
    deps.store.subscribe((s, prev) => {
      if ((s.snapshot === prev.snapshot && s.gameTree === prev.gameTree) || !this.game) return;
      if (mainLineKey(s) !== this.key) this.clear();
    });
  }

  /** The settings of the review under way, stopped or finished (null: none). */
  settings(): ReviewSettings | null {
    return this.game?.settings ?? null;
  }

  /** Estimated milliseconds left of the running review (null when unknown or not running). */
  timeLeft(): number | null {
    const r = this.deps.store.get().gameReview;
    if (r?.status !== 'running') return null;
    return timeLeftMs(this.doneThisRun, r.total - r.done, this.deps.now() - this.started);
  }

  /** Reviews the game on the board with a budget per position (playouts, or a [`ReviewBudget`]
   * in playouts or milliseconds) and `seed`: continues the review of the same game and settings
   * (only its pending positions), else (another game, budget, unit, preset or seed) starts
   * afresh. */
  start(budget: number | ReviewBudget = DEFAULT_REVIEW_BUDGET, seed: number = REVIEW_SEED): void {
    const s = this.deps.store.get();
    const snap = s.snapshot;
    if (!snap) return;
    const game: ReviewGame = { spec: snap.view.spec, moves: [...mainLine(s)], settings: reviewSettings(reviewPreset(s), budget, seed) };
    const key = mainLineKey(s);
    if (!this.game || this.key !== key || JSON.stringify(this.game.settings) !== JSON.stringify(game.settings)) {
      this.stopEngines();
      this.results.clear();
      this.game = game;
      this.key = key;
    }
    this.error = null;
    const run = ++this.run;
    this.started = this.deps.now();
    this.doneThisRun = 0;
    const total = game.moves.length + 1;
    const queue = pendingPositions(total, this.results);
    this.publish('running', null);
    const n = Math.max(1, Math.min(s.workers, queue.length));
    while (this.engines.length < n) this.engines.push(this.deps.newEngine());
    const loops = this.engines.slice(0, n).map((e) => this.work(run, e, queue));
    void Promise.all(loops).then(() => this.finish(run));
  }

  /** Shows a finished review's report (one read from a game record) for the game on the board,
   * whose main line it must be (the caller checks): a new move or game clears it as it clears a
   * review made here. Review game afterwards reviews afresh (the positions' results are not in a
   * report). */
  restore(report: ReviewReport): void {
    const snap = this.deps.store.get().snapshot;
    if (!snap) return;
    this.run++;
    this.stopEngines();
    this.results.clear();
    this.error = null;
    const main = mainLine(this.deps.store.get());
    this.game = { spec: snap.view.spec, moves: [...main], settings: report.settings };
    this.key = mainLineKey(this.deps.store.get());
    const total = main.length + 1;
    this.deps.store.update({ gameReview: { key: this.key, done: total, total, status: 'finished', report } });
  }

  /** Stops the running review: its workers end at once; the positions done stay. */
  stop(): void {
    if (this.deps.store.get().gameReview?.status !== 'running') return;
    this.run++;
    this.stopEngines();
    this.publish('stopped', null);
  }

  /** Forgets the review (a new move or a new game). */
  clear(): void {
    this.run++;
    this.stopEngines();
    this.game = null;
    this.key = '';
    this.results.clear();
    this.error = null;
    this.deps.store.update({ gameReview: null });
  }

  /** One worker's loop: the next pending position until none is left or the run is over. */
  private async work(run: number, engine: ReviewEngine, queue: number[]): Promise<void> {
    const game = this.game!;
    while (run === this.run) {
      const index = queue.shift();
      if (index === undefined) return;
      let r: PositionReview;
      try {
        r = await engine.reviewPosition(game, index);
      } catch (e) {
        if (run !== this.run) return;
        return this.fail(e);
      }
      if (run !== this.run) return;
      this.results.set(index, r);
      this.doneThisRun++;
      this.publish('running', null);
    }
  }

  /** Builds the report once every position is done (the core's `report()`). */
  private async finish(run: number): Promise<void> {
    const game = this.game;
    if (run !== this.run || !game || this.results.size < game.moves.length + 1) return;
    const results = [...this.results.values()].sort((a, b) => a.index - b.index);
    try {
      const report = await this.engines[0]!.reviewReport(game, results);
      if (run !== this.run) return;
      // The workers' memory (the positions, the solvers' tables) is given back; a later run of
      // the same review needs none of it (its report is rebuilt from the results kept here).
      this.stopEngines();
      this.publish('finished', report);
    } catch (e) {
      if (run === this.run) this.fail(e);
    }
  }

  private fail(e: unknown): void {
    this.run++;
    this.stopEngines();
    this.error = `The review stopped: ${e instanceof Error ? e.message : String(e)}`;
    this.publish('stopped', null);
  }

  private stopEngines(): void {
    for (const e of this.engines) e.terminate('the review was stopped');
    this.engines = [];
  }

  private publish(status: GameReviewState['status'], report: ReviewReport | null): void {
    const total = this.game ? this.game.moves.length + 1 : 0;
    this.deps.store.update({ gameReview: { key: this.key, done: this.results.size, total, status, report } });
  }
}
