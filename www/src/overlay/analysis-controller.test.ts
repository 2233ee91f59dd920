import { describe, expect, it } from 'vitest';
import { createPageStore, type PageStore } from '../state';
import { FakeEngine, fakeSnapshot, settle } from '../testing/fake-engine';
import { AnalysisController } from './analysis-controller';

/** A controller over a page store at `hex:4` after `moves`, a fake game engine and fake analysis
 * workers; `tick()` runs the polling timer once. */
function setup(moves: string[] = ['a1']) {
  const store: PageStore = createPageStore();
  store.update({ snapshot: fakeSnapshot('hex:4', moves), presets: ['uct', 'rave', 'best', 'alphazero'] });
  const game = new FakeEngine();
  const workers: FakeEngine[] = [];
  const timers = new Set<() => void>();
  let clock = 10_000;
  const c = new AnalysisController({
    store,
    gameEngine: () => game,
    newEngine: () => {
      const e = new FakeEngine();
      workers.push(e);
      return e;
    },
    treeWidth: () => 600,
    every: (_ms, f) => {
      timers.add(f);
      return () => timers.delete(f);
    },
    now: () => clock,
  });
  c.start();
  const tick = async (ms = 500) => {
    clock += ms;
    for (const f of [...timers]) f();
    await settle();
  };
  return { store, c, game, workers, timers, tick };
}

describe('AnalysisController', () => {
  it('Analyse searches the board position on its own worker, polls it, and ends with its final statistics and tree', async () => {
    const { c, workers, timers } = setup();
    await c.analyse('rave', 2000);
    const w = workers[0]!;
    expect(w.requests[0]).toMatchObject({ type: 'newGame', spec: 'hex:4', moves: ['a1'] });
    expect(w.requests.find((r) => r.type === 'search')).toMatchObject({
      slot: 'analysis',
      engine: { preset: 'rave', params: {} },
      budget: { kind: 'playouts', value: 2000 },
    });
    const s = c.state.get();
    expect(s.mark).toBe('done');
    expect(s.running).toBe(false);
    expect(s.source).toBeNull();
    expect(s.stats?.iterations).toBe(2000);
    expect(s.snap).not.toBeNull();
    expect(s.analysed).toEqual({ key: 'hex:4|a1', preset: 'rave' });
    expect(timers.size).toBe(0);
    expect(c.shown().stats).toBe(s.stats);
    expect(c.measures.snapshots).toBeGreaterThan(0);
  });

  it('a budget under 100 playouts is 100; nothing is analysed once the game is over', async () => {
    const { c, store, workers } = setup();
    await c.analyse('uct', 5);
    expect(workers[0]!.requests.find((r) => r.type === 'search')).toMatchObject({ budget: { kind: 'playouts', value: 100 } });
    store.update({ snapshot: { ...fakeSnapshot('hex:4', ['a1', 'b1']), outcome: { winner: 0 } } });
    c.checkPosition();
    await settle();
    const before = workers[0]!.requests.length;
    await c.analyse('uct', 1000);
    expect(c.state.get().message?.text).toBe('The game is over: nothing to analyse.');
    expect(workers[0]!.requests.length).toBe(before);
  });

  it('a network preset without a net: Analyse runs a net-free preset and says why', async () => {
    const { c, workers } = setup();
    workers[0]!.failNext('search', "no trained network for 'hex:4'");
    await c.analyse('alphazero', 1000);
    const searches = workers[0]!.requests.filter((r) => r.type === 'search');
    expect(searches.map((r) => (r.engine as { preset: string }).preset)).toEqual(['alphazero', 'best']);
    const s = c.state.get();
    expect(s.analysed?.preset).toBe('best');
    expect(s.fallbackNote).toMatch(/alphazero needs a trained network and none ships for hex:4: playing with best instead/);
    expect(s.mark).toBe('done');
  });

  it('an engine error while analysing stays on the status line until new figures come', async () => {
    const { c, workers } = setup();
    workers[0]!.failNext('newGame', 'out of memory');
    await c.analyse('uct', 1000);
    const s = c.state.get();
    expect(s.message?.text).toBe('Analysis failed: out of memory');
    expect(s.mark).toBe('done');
    await c.analyse('uct', 1000);
    expect(c.state.get().message).toBeNull();
    expect(c.state.get().stats?.iterations).toBe(1000);
  });

  it('a new position clears the data; a person’s move in the position analysed keeps that analysis as the search behind it', async () => {
    const { c, store } = setup();
    await c.analyse('rave', 1000);
    store.update({ snapshot: fakeSnapshot('hex:4', ['a1', 'b1']) });
    c.checkPosition();
    expect(c.state.get().stats).toBeNull();
    expect(c.state.get().analysed).toBeNull();
    await settle();
    const [e] = store.get().searches;
    expect(e).toMatchObject({ spec: 'hex:4', before: ['a1'], summary: { ply: 2, move: 'b1', preset: 'rave', source: 'analysis' } });
    expect(c.state.get().kept).toBe(e);
    expect(c.shown().entry).toBe(e);
    // Two moves on (not one move after the position analysed): nothing is kept.
    store.update({ snapshot: fakeSnapshot('hex:4', ['a1', 'b1', 'c1']) });
    c.checkPosition();
    await settle();
    expect(store.get().searches).toHaveLength(1);
    expect(c.state.get().kept).toBeNull();
  });

  it('watch: while the game’s engine thinks, its slot is polled; when it stops, a final poll and the source goes', async () => {
    const { c, store, game, tick } = setup();
    await game.newGame('hex:4', ['a1']);
    await game.search({ slot: 'p1', engine: { preset: 'uct', params: {} }, budget: { kind: 'playouts', value: 300 } }).done;
    store.update({ thinking: { purpose: 'move', side: 1 } });
    c.checkPosition();
    await settle();
    expect(c.state.get().source).toMatchObject({ slot: 'p1', own: false });
    await tick();
    expect(c.state.get().stats?.iterations).toBe(300);
    expect(game.requests.filter((r) => r.type === 'inspect').every((r) => r.slot === 'p1')).toBe(true);
    store.update({ thinking: null });
    c.checkPosition();
    await settle();
    expect(c.state.get().source).toBeNull();
    expect(c.state.get().stats?.iterations).toBe(300);
  });

  it('watch off: the game’s engine is left alone', async () => {
    const { c, store, game } = setup();
    c.watch = false;
    store.update({ thinking: { purpose: 'hint', side: 1 } });
    c.checkPosition();
    await settle();
    expect(c.state.get().source).toBeNull();
    expect(game.requests).toHaveLength(0);
  });

  it('the evaluator’s view of the position is asked once per position and preset, for a search with priors', async () => {
    const { c, workers } = setup();
    workers[0]!.evaluator = 'net';
    await c.analyse('alphazero', 1000);
    expect(c.evaluation()).toBeNull();
    await settle();
    const ev = c.evaluation();
    expect(ev?.value).toBe(0.7);
    expect(c.evaluation()).toBe(ev);
    expect(workers[0]!.requests.filter((r) => r.type === 'evaluate')).toHaveLength(1);
  });

  it('Stop ends Analyse’s search with what it has', async () => {
    const { c, workers } = setup();
    workers[0]!.hold('search');
    const run = c.analyse('uct', 1000);
    await settle();
    expect(c.state.get().running).toBe(true);
    c.stop();
    await run;
    expect(c.state.get().mark).toBe('done');
    expect(c.state.get().running).toBe(false);
  });
});
