import { describe, expect, it } from 'vitest';
import type { CompareSettings, PaneFields } from '../state';
import { FakeEngine, fakeSolveReport, settle } from '../testing/fake-engine';
import { CompareController, exactOfRun, exactState, paneParams, STEPS } from './controller';

const PRESETS = ['uct', 'rave', 'best', 'alphazero'];

function settings(over: Partial<CompareSettings> = {}, panes: PaneFields[] = [{ preset: 'uct' }, { preset: 'rave' }]): CompareSettings {
  return { game: 'hex:4', moves: '', mode: 'playouts', budget: '400', seed: '7', panes, ...over };
}

/** A controller over fake workers; `prepare` sets up each pane worker as it is made (`k`: the
 * how-manieth). */
function setup(prepare: (e: FakeEngine, k: number) => void = () => {}) {
  const engines: FakeEngine[] = [];
  const solvers: FakeEngine[] = [];
  const c = new CompareController({
    presets: () => PRESETS,
    newEngine: () => {
      const e = new FakeEngine();
      prepare(e, engines.length);
      engines.push(e);
      return e;
    },
    newSolver: () => {
      const e = new FakeEngine();
      solvers.push(e);
      return e;
    },
    cores: 2,
  });
  return { c, engines, solvers };
}

describe('CompareController', () => {
  it('a form with problems is not run: the note names them, no engine starts', async () => {
    const { c, engines } = setup();
    await c.run(settings({ budget: '5' }, [{ preset: 'nope' }, { preset: 'uct' }]));
    const s = c.store.get();
    expect(s.state).toBe('invalid');
    expect(s.note.error).toBe(true);
    expect(s.note.text).toMatch(/^Not run: .*playouts.*pane 1: unknown preset 'nope'/);
    expect(engines).toHaveLength(0);
  });

  it('equal playouts: each pane searches the budget on its own worker, with the seed and its parameters, sampled by the worker at the same counts in equal steps', async () => {
    const { c, engines } = setup();
    await c.run(
      settings({}, [
        { preset: 'uct', c: '0.5' },
        { preset: 'rave', budget: '' },
      ]),
    );
    const s = c.store.get();
    expect(s.state).toBe('done');
    expect(engines).toHaveLength(2);
    for (const [k, e] of engines.entries()) {
      // One search of the whole budget: the worker samples it, the page never holds it up.
      const searches = e.requests.filter((r) => r.type === 'search');
      expect(searches).toHaveLength(1);
      expect(searches[0]!.budget).toEqual({ kind: 'playouts', value: 400 });
      expect(searches[0]!.samples).toMatchObject({ steps: STEPS, treeEvery: 8 });
      expect(searches[0]!.engine).toEqual({ preset: k === 0 ? 'uct' : 'rave', params: k === 0 ? { seed: 7, c: 0.5 } : { seed: 7 } });
      expect(e.requests[0]).toMatchObject({ type: 'newGame', spec: 'hex:4', moves: [] });
    }
    const [a, b] = [s.panes[0]!, s.panes[1]!];
    expect(a.state).toBe('done');
    expect(a.samples.map((x) => x.playouts)).toEqual(b.samples.map((x) => x.playouts));
    expect(a.samples).toHaveLength(STEPS);
    expect(a.samples[STEPS - 1]!.playouts).toBe(400);
    expect(a.stats?.iterations).toBe(400);
    // Every fourth sample and the last ask for the tree.
    expect(a.tree).not.toBeNull();
    expect(s.note.text).toMatch(/seed 7, equal playouts \(400 playouts unless a pane has its own\)/);
    expect(s.chartsNow).toBeGreaterThan(0);
  });

  it('over 8 seeds: each pane runs again on a fresh tree with the next seven seeds, and records each seed’s best moves', async () => {
    const { c, engines } = setup();
    await c.run(settings({ seeds: '8' }));
    const s = c.store.get();
    expect(s.state).toBe('done');
    for (const [k, e] of engines.entries()) {
      const searches = e.requests.filter((r) => r.type === 'search');
      expect(searches.map((r) => (r.engine as { params: { seed: number } }).params.seed)).toEqual([7, 8, 9, 10, 11, 12, 13, 14]);
      // A fresh game (and tree) before each further seed.
      expect(e.requests.filter((r) => r.type === 'newGame')).toHaveLength(8);
      const p = s.panes[k]!;
      expect(p.seedList).toEqual([7, 8, 9, 10, 11, 12, 13, 14]);
      expect(p.seeds.map((r) => r.seed)).toEqual(p.seedList);
      // The first is the pane's own run; every seed is sampled at the same counts.
      expect(p.seeds[0]!.samples).toEqual(p.samples.map((x) => ({ playouts: x.playouts, best: x.best })));
      for (const r of p.seeds) expect(r.samples.map((x) => x.playouts)).toEqual(p.samples.map((x) => x.playouts));
      // The pane's own readout is its own seed's.
      expect(p.stats?.iterations).toBe(400);
    }
    expect(s.note.text).toMatch(/seed 7 \(then with seeds 8 to 14, for the spread\)/);
  });

  it('over 8 seeds in equal time: each seed is one search of the whole time, its best moves from its progress and its end', async () => {
    const { c, engines } = setup();
    await c.run(settings({ mode: 'millis', budget: '2000', seeds: '8' }));
    expect(c.store.get().state).toBe('done');
    for (const [k, e] of engines.entries()) {
      const searches = e.requests.filter((r) => r.type === 'search');
      expect(searches.map((r) => r.budget)).toEqual(Array.from({ length: 8 }, () => ({ kind: 'millis', value: 2000 })));
      const p = c.store.get().panes[k]!;
      expect(p.seeds.map((r) => r.seed)).toEqual([7, 8, 9, 10, 11, 12, 13, 14]);
      for (const r of p.seeds.slice(1)) {
        expect(r.samples.length).toBeGreaterThan(1);
        expect(r.samples.at(-1)!.best).not.toBeNull();
      }
    }
  });

  it('a pane with its own budget searches that many playouts', async () => {
    const { c } = setup();
    await c.run(settings({}, [{ preset: 'uct', budget: '800' }, { preset: 'rave' }]));
    expect(c.store.get().panes[0]!.stats?.iterations).toBe(800);
    expect(c.store.get().panes[1]!.stats?.iterations).toBe(400);
  });

  it('equal time: one search of the whole budget in milliseconds per pane, sampled while it runs and at its end', async () => {
    const { c, engines } = setup();
    await c.run(settings({ mode: 'millis', budget: '2000' }));
    for (const e of engines) {
      const searches = e.requests.filter((r) => r.type === 'search');
      expect(searches).toHaveLength(1);
      expect(searches[0]!.budget).toEqual({ kind: 'millis', value: 2000 });
    }
    const s = c.store.get();
    expect(s.state).toBe('done');
    expect(s.mode).toBe('millis');
    expect(s.panes[0]!.samples.length).toBeGreaterThan(0);
  });

  it('a network preset without a net: the pane goes on with a net-free preset and the note says so', async () => {
    const { c, engines } = setup();
    const run = c.run(settings({}, [{ preset: 'alphazero' }, { preset: 'uct' }]));
    engines[0]!.failNext('search', "no trained network for 'hex:4'");
    await run;
    const p = c.store.get().panes[0]!;
    expect(p.fallback).toBe('best');
    expect(p.preset).toBe('best');
    expect(p.state).toBe('done');
    const searches = engines[0]!.requests.filter((r) => r.type === 'search');
    expect((searches[1]!.engine as { preset: string }).preset).toBe('best');
    expect(c.store.get().note.text).toMatch(
      /Pane 1: alphazero needs a trained network and none ships for hex:4: playing with best instead\./,
    );
  });

  it('an engine error fails its pane only, with the error to show', async () => {
    const { c } = setup((e, k) => {
      if (k === 1) e.failNext('newGame', 'the position is wrong');
    });
    await c.run(settings());
    const s = c.store.get();
    expect(s.panes[0]!.state).toBe('done');
    expect(s.panes[1]!.state).toBe('failed');
    expect(s.panes[1]!.error).toBe('Error: the position is wrong');
  });

  it('the exact solver solves the position once beside the panes; a finished solve is not asked again', async () => {
    const { c, solvers } = setup();
    const run = c.run(settings());
    await run;
    await settle();
    expect(solvers).toHaveLength(1);
    expect(solvers[0]!.requests.filter((r) => r.type === 'solve')).toHaveLength(1);
    solvers[0]!.solveReport = () => fakeSolveReport(true, [{ move: 'a1', moverWins: true }]);
    // The first solve ended without proving the root: the next run continues it.
    expect(exactState(c.store.get())).toBe('unknown');
    await c.run(settings());
    await settle();
    expect(exactState(c.store.get())).toBe('proven');
    expect(exactOfRun(c.store.get())?.rootWins).toBe(true);
    await c.run(settings());
    await settle();
    expect(solvers[0]!.requests.filter((r) => r.type === 'solve')).toHaveLength(2);
  });

  it('Tic-Tac-Toe is solved too, and a drawn position counts as proven', async () => {
    const { c, solvers } = setup();
    await c.run(settings({ game: 'tictactoe' }));
    await settle();
    expect(exactState(c.store.get())).toBe('unknown');
    solvers[0]!.solveReport = () =>
      fakeSolveReport('draw', [
        { move: 'a1', moverWins: false, value: 'draw' },
        { move: 'b1', moverWins: false, value: 'draw' },
      ]);
    await c.run(settings({ game: 'tictactoe' }));
    await settle();
    expect(solvers[0]!.requests[0]).toMatchObject({ type: 'solve', position: { spec: 'tictactoe', moves: [] } });
    expect(exactState(c.store.get())).toBe('proven');
    expect(exactOfRun(c.store.get())).toMatchObject({ rootWins: false, rootValue: 'draw' });
  });

  it('a position the exact solver does not take: the reason, and no solve', async () => {
    const { c, solvers } = setup();
    await c.run(settings({ game: 'hex:11' }));
    expect(exactState(c.store.get())).toBe('unavailable');
    expect(c.store.get().exactWhy).toMatch(/too large/);
    expect(solvers).toHaveLength(0);
  });

  it('Stop ends every pane worker and the solve; their late answers change nothing', async () => {
    const { c, engines, solvers } = setup();
    // Each pane's worker holds its searches: the run is under way when Stop comes.
    const run = c.run(settings());
    for (const e of engines) e.hold('search');
    await settle();
    solvers[0]?.hold('solve');
    c.stop();
    await run;
    await settle();
    const s = c.store.get();
    expect(s.state).toBe('stopped');
    expect(engines.every((e) => e.dead)).toBe(true);
    expect(s.panes.every((p) => p!.state === 'failed' && p!.error === null)).toBe(true);
    // The next run has new workers.
    await c.run(settings());
    expect(engines).toHaveLength(4);
    expect(c.store.get().state).toBe('done');
  });

  it('paneParams: the seed and the fields filled in, typed by the schema; blanks left to the preset', () => {
    expect(
      paneParams({ preset: 'rave', c: ' 0.4 ', rave_k: '', pool_k: '8', save_bridge: 'true', prior: 'patterns', budget: '9' }, 3),
    ).toEqual({
      seed: 3,
      c: 0.4,
      pool_k: 8,
      save_bridge: true,
      prior: 'patterns',
    });
    expect(() => paneParams({ c: 'wide' }, 3)).toThrow('c=wide: expected a number');
  });
});
