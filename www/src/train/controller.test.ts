import { describe, expect, it } from 'vitest';
import { EngineDied } from '../engine';
import { createPageStore } from '../state';
import { FakeEngine, settle } from '../testing/fake-engine';
import type { LoadResult } from '../types';
import { TrainController } from './controller';
import { TRAIN_DEFAULTS } from './figures';

function setup(prepare: (e: FakeEngine) => void = () => {}) {
  const store = createPageStore();
  const trainers: FakeEngine[] = [];
  const calls: string[] = [];
  let loaded: ArrayBuffer | null = null;
  let gameResult: LoadResult = { ok: true };
  const c = new TrainController({
    newTrainer: () => {
      const e = new FakeEngine();
      prepare(e);
      trainers.push(e);
      return e;
    },
    store,
    loadNet: async (bytes, label) => {
      loaded = bytes;
      calls.push(`loadNet ${label}`);
      return { name: label } as never;
    },
    loadGame: async (spec, moves) => {
      calls.push(`loadGame ${spec} ${moves.join(' ')}`);
      return gameResult;
    },
    openPlay: (message) => calls.push(`openPlay ${message}`),
  });
  return {
    c,
    store,
    trainers,
    calls,
    loaded: () => loaded,
    failGame: (r: LoadResult) => {
      gameResult = r;
    },
  };
}

const FORM = { ...TRAIN_DEFAULTS, iterations: '4', games: '10' };

describe('TrainController', () => {
  it('a form out of range is refused with the fields named; a run going on is left alone', async () => {
    const { c, trainers } = setup();
    c.start({ ...FORM, lr: '1', games: '0' });
    expect(c.state.get().invalid).toBe(true);
    expect(c.state.get().state).toBe('idle');
    expect(c.state.get().status.text).toMatch(
      /^Not started: games per iteration=0: .*; learning rate=1: expected a number above 0 and at most 0\.1/,
    );
    expect(trainers).toHaveLength(0);
  });

  it('Start trains in a worker of its own to the end: every iteration once, the figures, and when the raw policy stopped losing', async () => {
    const { c, trainers } = setup();
    c.start(FORM);
    expect(c.state.get().state).toBe('loading');
    await settle();
    const s = c.state.get();
    expect(trainers).toHaveLength(1);
    expect(trainers[0]!.requests[0]).toMatchObject({
      type: 'train',
      settings: { game: 'tictactoe', iterations: 4, games: 10, lr: 0.002, seed: 1 },
    });
    expect(s.state).toBe('done');
    expect(s.status.text).toMatch(/^Done: 4 iterations, 40 self-play games in 0\.4 s of training\./);
    expect(s.reports.map((r) => r.iteration)).toEqual([1, 2, 3, 4]);
    expect(s.report?.progress.games).toBe(40);
    expect(s.hasNet).toBe(true);
  });

  it('Pause after the current step, then Resume goes on with the same run', async () => {
    const { c, trainers } = setup((e) => {
      e.pauseAt = 2;
    });
    c.start(FORM);
    await settle();
    expect(c.state.get().state).toBe('paused');
    expect(c.state.get().status.text).toMatch(/^Paused after 20 self-play games/);
    c.pauseOrResume();
    expect(c.state.get().state).toBe('running');
    await settle();
    expect(c.state.get().state).toBe('done');
    expect(trainers[0]!.requests.map((r) => r.settings === 'resume')).toEqual([false, true]);
    expect(c.state.get().reports).toHaveLength(4);
  });

  it('Reset ends the worker and forgets the run', async () => {
    const { c, trainers } = setup();
    c.start(FORM);
    await settle();
    c.reset();
    const s = c.state.get();
    expect(trainers[0]!.dead).toBe(true);
    expect(s).toMatchObject({ state: 'idle', reports: [], report: null, hasNet: false });
    expect(s.status.text).toBe('Reset: the net is gone. Set the run up and press Start.');
  });

  it('a worker that dies fails the run and says to start again', async () => {
    const { c } = setup((e) => e.failNext('train', new EngineDied('out of memory')));
    c.start(FORM);
    await settle();
    expect(c.state.get().state).toBe('failed');
    expect(c.state.get().status.text).toBe('Training stopped: out of memory (press Start to begin again)');
    expect(c.state.get().hasNet).toBe(false);
  });

  it('the weights download as a .mctsnet named by the iterations done', async () => {
    const { c } = setup();
    c.start(FORM);
    await settle();
    const w = await c.weights();
    expect(w?.name).toBe('tictactoe-iter-4.mctsnet');
    expect(new Uint8Array(w!.bytes).slice(0, 4)).toEqual(new Uint8Array([77, 67, 84, 83]));
    expect(c.state.get().status.text).toMatch(
      /^Saved tictactoe-iter-4\.mctsnet \(5 bytes\): mcts search --game tictactoe --algo alphazero --net/,
    );
  });

  it('Play this net: its weights to the page, a person against alphazero with the run’s playouts, a new Tic-Tac-Toe game', async () => {
    const { c, store, calls, loaded } = setup();
    c.start({ ...FORM, playouts: '32' });
    await settle();
    expect(await c.playNet()).toBe(40);
    expect(loaded()).not.toBeNull();
    const [x, o] = store.get().sides;
    expect(x.who).toBe('person');
    expect(o).toMatchObject({ who: 'engine', preset: 'alphazero', budgetKind: 'playouts', budgetValue: 32 });
    expect(calls[0]).toBe('loadNet trained here: 4 iterations, 40 self-play games');
    expect(calls[1]).toBe('loadGame tictactoe ');
    expect(calls[2]).toMatch(/^openPlay You play X against the net freshly trained in the Train view .* 32 playouts per move\./);
  });

  it('Play this net says why it could not', async () => {
    const { c, failGame } = setup();
    c.start(FORM);
    await settle();
    failGame({ ok: false, reason: 'the engine is restarting', message: '' });
    expect(await c.playNet()).toBeNull();
    expect(c.state.get().status.text).toBe('Could not play the net: the engine is restarting');
    expect(c.state.get().fetching).toBeNull();
  });
});
