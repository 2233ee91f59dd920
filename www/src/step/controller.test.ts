import { describe, expect, it } from 'vitest';
import { FakeEngine, fakeSnapshot } from '../testing/fake-engine';
import { StepController } from './controller';

/** A controller over fake workers; `prepare` sets up each worker as it is made. */
function setup(prepare: (e: FakeEngine) => void = () => {}) {
  const workers: FakeEngine[] = [];
  const c = new StepController({
    presets: () => ['uct', 'rave', 'best', 'alphazero'],
    newEngine: () => {
      const e = new FakeEngine();
      prepare(e);
      workers.push(e);
      return e;
    },
  });
  return { c, workers, pos: fakeSnapshot('hex:3', ['a1']) };
}

/** The iteration and phase on screen, and whether a request is under way. */
const at = (c: StepController) => {
  const s = c.state.get();
  return { cur: s.cur, phase: s.phase, busy: s.busy };
};

describe('StepController', () => {
  it('New opens a seeded session on the position: the fresh tree, at iteration 0', async () => {
    const { c, workers, pos } = setup();
    await c.newSession(pos, 'uct', 4);
    expect(workers[0]!.requests[0]).toMatchObject({
      type: 'step',
      kind: 'stepNew',
      spec: 'hex:3',
      moves: ['a1'],
      engine: { preset: 'uct', params: { seed: 4 } },
    });
    expect(at(c)).toEqual({ cur: 0, phase: 3, busy: false });
    expect(c.state.get().entry?.trace).toBeNull();
    expect(c.state.get().session).toMatchObject({ spec: 'hex:3', preset: 'uct', seed: 4 });
  });

  it('phase by phase through an iteration, then back; a stored step is never asked again', async () => {
    const { c, workers, pos } = setup();
    await c.newSession(pos, 'uct', 1);
    await c.phaseForward();
    expect(at(c)).toEqual({ cur: 1, phase: 0, busy: false });
    expect(c.state.get().entry?.trace?.iteration).toBe(1);
    for (const p of [1, 2, 3]) {
      await c.phaseForward();
      expect(at(c).phase).toBe(p);
    }
    await c.phaseForward();
    expect(at(c)).toEqual({ cur: 2, phase: 0, busy: false });
    await c.phaseBack();
    expect(at(c)).toEqual({ cur: 1, phase: 3, busy: false });
    const asked = workers[0]!.requests.length;
    await c.nextIteration(1, 3);
    expect(at(c).cur).toBe(2);
    expect(workers[0]!.requests.length).toBe(asked);
    expect(c.traces().map((t) => t?.iteration ?? null)).toEqual([null, 1, 2]);
  });

  it('Run 100 runs 100 iterations in one request; going back past the worker rebuilds the session from the seed', async () => {
    const { c, workers, pos } = setup();
    await c.newSession(pos, 'uct', 1);
    await c.nextIteration(100, 3);
    expect(at(c).cur).toBe(100);
    expect(c.state.get().lastRan).toBe(100);
    expect(workers[0]!.requests.at(-1)).toMatchObject({ kind: 'stepRun', count: 100 });
    await c.iterationBack();
    expect(at(c).cur).toBe(99);
    const last = workers[0]!.requests.slice(-2);
    expect(last[0]).toMatchObject({ kind: 'stepNew', spec: 'hex:3', engine: { params: { seed: 1 } } });
    expect(last[1]).toMatchObject({ kind: 'stepRun', count: 99 });
    expect(c.state.get().workerAt).toBe(99);
  });

  it('a network preset without a net: the session steps through a net-free preset and says why', async () => {
    const { c, pos } = setup((e) => e.failNext('step', "no trained network for 'hex:3'"));
    await c.newSession(pos, 'alphazero', 1);
    expect(c.state.get().session?.preset).toBe('best');
    expect(c.state.get().resetWhy).toMatch(/alphazero needs a trained network and none ships for hex:3: playing with best instead/);
    expect(at(c).cur).toBe(0);
  });

  it('an engine error is kept for the status line; the step on screen stays', async () => {
    const { c, workers, pos } = setup();
    await c.newSession(pos, 'uct', 1);
    workers[0]!.failNext('step', 'the worker is out of memory');
    await c.nextIteration(1, 3);
    expect(c.state.get().lastError).toBe('the worker is out of memory');
    expect(at(c).cur).toBe(0);
  });

  it('nothing moves while a request is under way, or before a session', async () => {
    const { c, workers, pos } = setup();
    await c.phaseForward();
    expect(workers).toHaveLength(0);
    const run = c.newSession(pos, 'uct', 1, 'position changed');
    await Promise.resolve();
    expect(c.state.get().busy).toBe(true);
    await c.nextIteration(10, 3);
    await run;
    expect(at(c).cur).toBe(0);
    expect(c.state.get().resetWhy).toBe('position changed');
  });
});
