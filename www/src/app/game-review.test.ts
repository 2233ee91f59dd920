import { describe, expect, it } from 'vitest';
import type { PositionReview, ReviewGame, Snapshot } from '../protocol';
import { createPageStore, type PageStore } from '../state';
import { budgetOf, pendingPositions, type ReviewEngine, ReviewController, reviewPreset, reviewSettings, timeLeftMs } from './game-review';
import type { ReviewReport } from '../review/report';
import { budgetValue, parseBudgetValue } from './game-review-controls';

const snap = (moves: string[]): Snapshot =>
  ({ view: { spec: 'hex:5', kind: 'hex' }, legal: [], moves, redo: [], outcome: null }) as unknown as Snapshot;

const result = (index: number): PositionReview => ({
  index,
  board: `b${index}`,
  to_move: (index % 2) as 0 | 1,
  value: 0.5,
  estimate: 0.5,
  exact: null,
  best_move: 'c3',
  pv: ['c3'],
  iterations: 10,
  playouts: 10,
  search_ms: 1,
  solve_ms: null,
});

/** A fake worker: each position answers when the test releases it; records what it was asked. */
class FakeEngine implements ReviewEngine {
  asked: number[] = [];
  terminated = false;
  waiting: (() => void)[] = [];
  reportOf: PositionReview[] | null = null;
  reviewPosition(_g: ReviewGame, index: number): Promise<PositionReview> {
    this.asked.push(index);
    return new Promise((ok, no) => {
      this.waiting.push(() => (this.terminated ? no(new Error('terminated')) : ok(result(index))));
    });
  }
  reviewReport(_g: ReviewGame, results: PositionReview[]): Promise<ReviewReport> {
    this.reportOf = results;
    return Promise.resolve({ game: 'hex:5', moves: [], settings: _g.settings, plies: [], summary: {} });
  }
  terminate(): void {
    this.terminated = true;
    for (const w of this.waiting.splice(0)) w();
  }
  release(): void {
    this.waiting.shift()?.();
  }
}

const flush = () => new Promise((ok) => setTimeout(ok, 0));

function setup(moves: string[], workers = 1): { store: PageStore; c: ReviewController; engines: FakeEngine[] } {
  const store = createPageStore();
  store.update({ snapshot: snap(moves), workers });
  const engines: FakeEngine[] = [];
  const c = new ReviewController({
    store,
    newEngine: () => {
      const e = new FakeEngine();
      engines.push(e);
      return e;
    },
    now: () => 0,
  });
  return { store, c, engines };
}

describe('the review controller', () => {
  it('takes the engine side’s preset, else the page’s, else best', () => {
    const s = (w0: string, p0: string, w1: string, p1: string) =>
      ({
        sides: [
          { who: w0, preset: p0, budgetKind: 'millis', budgetValue: 1 },
          { who: w1, preset: p1, budgetKind: 'millis', budgetValue: 1 },
        ],
      }) as never;
    expect(reviewPreset(s('engine', 'uct', 'person', 'rave'))).toBe('uct');
    expect(reviewPreset(s('person', 'uct', 'engine', 'grave'))).toBe('grave');
    expect(reviewPreset(s('person', '', 'person', 'rave'))).toBe('rave');
    expect(reviewPreset(s('person', '', 'person', ''))).toBe('best');
    expect(reviewSettings('uct', 2000)).toEqual({ preset: 'uct', iterations: 2000, ms: null, solve_ms: 1000, seed: 0 });
    expect(reviewSettings('uct', { unit: 'ms', value: 250 }, 7)).toEqual({
      preset: 'uct',
      iterations: null,
      ms: 250,
      solve_ms: 1000,
      seed: 7,
    });
    expect(budgetOf({ iterations: null, ms: 250 })).toEqual({ unit: 'ms', value: 250 });
    expect(budgetOf({ iterations: 2000, ms: null })).toEqual({ unit: 'playouts', value: 2000 });
  });

  it('estimates the time left from the positions done', () => {
    expect(timeLeftMs(0, 10, 500)).toBeNull();
    expect(timeLeftMs(2, 10, 500)).toBe(2500);
    expect(pendingPositions(4, new Map([[1, 0]]))).toEqual([0, 2, 3]);
  });

  it('shares the positions between the workers, each taking the next pending one, then builds the report', async () => {
    const { store, c, engines } = setup(['a1', 'b2', 'c3'], 2);
    c.start(2000);
    expect(engines.length).toBe(2);
    expect(engines.map((e) => e.asked)).toEqual([[0], [1]]);
    engines[1]!.release();
    await flush();
    expect(engines[1]!.asked).toEqual([1, 2]);
    expect(store.get().gameReview).toMatchObject({ done: 1, total: 4, status: 'running' });
    engines[0]!.release();
    await flush();
    expect(engines[0]!.asked).toEqual([0, 3]);
    engines[0]!.release();
    engines[1]!.release();
    await flush();
    await flush();
    expect(store.get().gameReview).toMatchObject({ done: 4, total: 4, status: 'finished' });
    expect(store.get().gameReview!.report).not.toBeNull();
    expect(engines[0]!.reportOf!.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    // Finished: the review's workers are ended (their memory given back).
    expect(engines.every((e) => e.terminated)).toBe(true);
  });

  it('Stop ends the workers, keeps the positions done; Review again does only the pending ones', async () => {
    const { store, c, engines } = setup(['a1', 'b2']);
    c.start(2000);
    engines[0]!.release();
    await flush();
    c.stop();
    await flush();
    expect(engines[0]!.terminated).toBe(true);
    expect(store.get().gameReview).toMatchObject({ done: 1, total: 3, status: 'stopped' });
    c.start(2000);
    expect(engines.length).toBe(2);
    expect(engines[1]!.asked).toEqual([1]);
    engines[1]!.release();
    await flush();
    engines[1]!.release();
    await flush();
    await flush();
    expect(engines[1]!.asked).toEqual([1, 2]);
    expect(store.get().gameReview).toMatchObject({ done: 3, status: 'finished' });
  });

  it('a new move makes the review stale: cleared, its workers ended', async () => {
    const { store, c, engines } = setup(['a1']);
    c.start(2000);
    store.update({ snapshot: snap(['a1', 'b2']) });
    expect(store.get().gameReview).toBeNull();
    expect(engines[0]!.terminated).toBe(true);
    await flush();
    expect(store.get().gameReview).toBeNull();
  });

  it('an engine error stops the review with its sentence', async () => {
    const store = createPageStore();
    store.update({ snapshot: snap(['a1']) });
    const e = new FakeEngine();
    e.reviewPosition = () => Promise.reject(new Error('the engine has no preset "nope"'));
    const c = new ReviewController({ store, newEngine: () => e, now: () => 0 });
    c.start(2000);
    await flush();
    expect(store.get().gameReview).toMatchObject({ done: 0, total: 2, status: 'stopped' });
    expect(c.error).toBe('The review stopped: the engine has no preset "nope"');
    expect(e.terminated).toBe(true);
  });

  it('a change of budget, unit or seed starts afresh; the same settings continue', async () => {
    const { store, c, engines } = setup(['a1', 'b2']);
    c.start({ unit: 'ms', value: 100 });
    engines[0]!.release();
    await flush();
    c.stop();
    expect(store.get().gameReview).toMatchObject({ done: 1, status: 'stopped' });
    // The same time budget: only the pending positions.
    c.start({ unit: 'ms', value: 100 });
    expect(engines[1]!.asked).toEqual([1]);
    c.stop();
    // The same number in playouts is another budget: afresh.
    c.start({ unit: 'playouts', value: 100 });
    expect(engines[2]!.asked).toEqual([0]);
    expect(c.settings()).toMatchObject({ iterations: 100, ms: null, seed: 0 });
    c.stop();
    c.start({ unit: 'playouts', value: 100 }, 5);
    expect(engines[3]!.asked).toEqual([0]);
    expect(c.settings()).toMatchObject({ seed: 5 });
  });

  it('restores a finished report for the game on the board; a new move clears it', () => {
    const { store, c } = setup(['a1', 'b2']);
    const report = {
      game: 'hex:5',
      moves: ['a1', 'b2'],
      settings: reviewSettings('uct', { unit: 'ms', value: 250 }),
      plies: [],
      summary: {},
    } as ReviewReport;
    c.restore(report);
    expect(store.get().gameReview).toMatchObject({ done: 3, total: 3, status: 'finished', report });
    expect(c.settings()).toEqual(report.settings);
    store.update({ snapshot: snap(['a1', 'b2', 'c3']) });
    expect(store.get().gameReview).toBeNull();
  });

  it('the budget select names playouts by their number and times with ms:, both ways', () => {
    expect(budgetValue({ unit: 'playouts', value: 10000 })).toBe('10000');
    expect(budgetValue({ unit: 'ms', value: 250 })).toBe('ms:250');
    expect(parseBudgetValue('10000')).toEqual({ unit: 'playouts', value: 10000 });
    expect(parseBudgetValue('ms:250')).toEqual({ unit: 'ms', value: 250 });
    for (const bad of ['', 'ms:', '0', 'ms:0', '1e4', 'hours:1']) expect(parseBudgetValue(bad)).toBeNull();
  });
});
