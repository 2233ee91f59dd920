import { describe, expect, it } from 'vitest';
import { createPageStore, type PageStore } from '../state';
import { FakeEngine, fakeSnapshot, fakeSolveReport, settle } from '../testing/fake-engine';
import { SolveController, solveStatus } from './solve-controller';

/** A controller over a page store at `spec` after `moves`, and the fake solver workers it makes. */
function setup(spec = 'tictactoe', moves: string[] = ['a1', 'b2']) {
  const store: PageStore = createPageStore();
  store.update({ snapshot: fakeSnapshot(spec, moves) });
  const workers: FakeEngine[] = [];
  const c = new SolveController({
    store,
    newEngine: () => {
      const e = new FakeEngine();
      workers.push(e);
      return e;
    },
  });
  return { store, c, workers };
}

/** Tic-Tac-Toe after a1 b2 (X to move): a drawn position, c3 drawing, a2 losing, b1 open. */
const drawn = fakeSolveReport('draw', [
  { move: 'b1', moverWins: null, value: null },
  { move: 'a2', moverWins: false, value: 'loss' },
  { move: 'c3', moverWins: false, value: 'draw' },
]);

describe('SolveController', () => {
  it('solves the position on the board in a worker of its own and writes its values, draws included, to the page state', async () => {
    const { store, c, workers } = setup();
    const solved = c.solve('5');
    expect(workers).toHaveLength(1);
    workers[0]!.solveReport = () => drawn;
    expect(c.state.get().running).toBe('tictactoe|a1 b2');
    await solved;
    expect(workers[0]!.requests[0]).toMatchObject({ type: 'solve', position: { spec: 'tictactoe', moves: ['a1', 'b2'] }, budgetMs: 5000 });
    const s = c.state.get();
    expect(s.running).toBeNull();
    expect(s.result?.end).toBe('unknown');
    expect(s.progress).toBe(1);
    expect([...c.values()!]).toEqual([
      ['b1', null],
      ['a2', 'loss'],
      ['c3', 'draw'],
    ]);
    const exact = store.get().exact!;
    expect(exact).toMatchObject({ key: 'tictactoe|a1 b2', toMove: 0, rootWins: false, rootValue: 'draw', end: 'unknown', budgetS: 5 });
    expect(solveStatus(s, 'tictactoe', null, null)).toEqual({
      text: 'proven: a draw with perfect play, e.g. c3; 2 of 3 moves proven within 5 s — 1 position, 0.0 s. Solve again to continue.',
      state: 'unknown',
    });
  });

  it('a Hex report without values reads as win or loss', async () => {
    const { c, workers } = setup('hex:4', ['a1']);
    const solved = c.solve('10');
    workers[0]!.solveReport = () =>
      fakeSolveReport(true, [
        { move: 'b1', moverWins: true },
        { move: 'c1', moverWins: false },
      ]);
    await solved;
    expect(c.state.get().result?.end).toBe('proven');
    expect([...c.values()!]).toEqual([
      ['b1', 'win'],
      ['c1', 'loss'],
    ]);
  });

  it('Stop ends the solve and keeps what it proved; Solve again asks the worker again', async () => {
    const { c, workers } = setup();
    c.toggle('10');
    const w = workers[0]!;
    w.hold('solve');
    w.solveReport = () => drawn;
    await settle();
    expect(c.state.get().running).not.toBeNull();
    c.toggle('10'); // Stop
    await settle();
    expect(c.state.get().running).toBeNull();
    expect(c.state.get().result?.end).toBe('stopped');
    c.toggle('10');
    await settle();
    expect(w.requests.filter((r) => r.type === 'solve')).toHaveLength(2);
    expect(workers).toHaveLength(1);
  });

  it('another position stops the running solve; its values are kept for it and shown again on coming back', async () => {
    const { store, c, workers } = setup();
    void c.solve('10');
    workers[0]!.hold('solve');
    workers[0]!.solveReport = () => drawn;
    await settle();
    store.update({ snapshot: fakeSnapshot('tictactoe', ['a1', 'b2', 'c3']) });
    await settle();
    expect(c.state.get()).toMatchObject({ key: 'tictactoe|a1 b2 c3', running: null, result: null });
    expect(store.get().exact).toBeNull();
    expect(c.values()).toBeNull();
    store.update({ snapshot: fakeSnapshot('tictactoe', ['a1', 'b2']) });
    expect(c.state.get().result?.end).toBe('stopped');
    expect(c.values()?.get('c3')).toBe('draw');
    expect(store.get().exact?.key).toBe('tictactoe|a1 b2');
  });

  it('refuses a budget out of range with a sentence, and says why a position cannot be solved', async () => {
    const { store, c, workers } = setup();
    await c.solve('0');
    expect(workers).toHaveLength(0);
    expect(solveStatus(c.state.get(), 'tictactoe', null, null)).toEqual({
      text: "Solver budget: '0' is not a number of seconds from 1 to 600.",
      state: 'error',
    });
    store.update({ snapshot: fakeSnapshot('hex:9') });
    expect(c.unavailable()).toMatch(/too large/);
    await c.solve('10');
    expect(workers).toHaveLength(0);
    expect(solveStatus(c.state.get(), 'hex', c.unavailable(), null).state).toBe('unavailable');
  });

  it('an engine error is said, and no values are kept', async () => {
    const { store, c, workers } = setup();
    const solved = c.solve('10');
    workers[0]!.failNext('solve', new Error('the exact solver takes boards up to 8x8'));
    await solved;
    expect(store.get().exact).toBeNull();
    expect(solveStatus(c.state.get(), 'tictactoe', null, null)).toEqual({
      text: 'Solver: the exact solver takes boards up to 8x8',
      state: 'error',
    });
  });
});
