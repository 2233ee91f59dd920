import { describe, expect, it } from 'vitest';
import type { TrainIteration } from '../protocol';
import { TRAIN_DEFAULTS, firstUnbeaten, gamesPerSecond, readTrainForm, wdl } from './figures';

const wdl0 = { wins: 0, draws: 0, losses: 0 };
function report(iteration: number, draws: number, losses: number): TrainIteration {
  const total = { wins: 0, draws, losses };
  return {
    iteration,
    games: iteration * 40,
    buffer: 0,
    loss: { policy: 1, value: 0.3, entropy: 1.5 },
    reference: 'perfect play',
    raw: { first: wdl0, second: wdl0, total },
    search: null,
  };
}

describe('train figures', () => {
  it('reads the defaults into the engine settings with the fixed net and evaluation', () => {
    const r = readTrainForm(TRAIN_DEFAULTS);
    expect(r).toEqual({
      settings: {
        game: 'tictactoe',
        hidden: [128, 128],
        batch: 128,
        eval_games: 20,
        eval_playouts: 16,
        iterations: 20,
        games: 40,
        playouts: 64,
        steps: 100,
        lr: 0.002,
        seed: 1,
      },
    });
  });

  it('sends exact targets with λ only when ticked, and names a λ out of range', () => {
    const r = readTrainForm({ ...TRAIN_DEFAULTS, exact: true, mix: '1' });
    expect('settings' in r && r.settings.exact_targets).toEqual({ mix: 1, policy: 'uniform' });
    expect(readTrainForm({ ...TRAIN_DEFAULTS, exact: false, mix: 'x' })).not.toHaveProperty('errors');
    expect(readTrainForm({ ...TRAIN_DEFAULTS, exact: true, mix: '1.5' })).toEqual({
      errors: ['exact targets λ=1.5: expected a number from 0 to 1 (e.g. 0.5)'],
    });
  });

  it('names every field out of range', () => {
    const r = readTrainForm({ ...TRAIN_DEFAULTS, games: '0', lr: 'fast', playouts: '2.5' });
    expect('errors' in r && r.errors).toEqual([
      'games per iteration=0: expected a whole number from 1 to 2,000',
      'playouts per move=2.5: expected a whole number from 1 to 2,000',
      'learning rate=fast: expected a number above 0 and at most 0.1 (e.g. 0.002)',
    ]);
    expect('errors' in readTrainForm({ ...TRAIN_DEFAULTS, lr: '0.5' })).toBe(true);
    expect(readTrainForm({ ...TRAIN_DEFAULTS, lr: '3e-3' })).toMatchObject({ settings: { lr: 0.003 } });
  });

  it('computes games per second and W/D/L text', () => {
    expect(gamesPerSecond(40, 2000)).toBe(20);
    expect(gamesPerSecond(5, 0)).toBe(0);
    expect(wdl({ wins: 0, draws: 16, losses: 4 })).toBe('0/16/4');
  });

  it('finds the first iteration where the raw policy lost nothing', () => {
    expect(firstUnbeaten([report(1, 10, 10), report(2, 15, 5)])).toBeNull();
    expect(firstUnbeaten([report(1, 10, 10), report(2, 20, 0), report(3, 19, 1)])?.iteration).toBe(2);
    expect(firstUnbeaten([{ ...report(1, 0, 0) }])).toBeNull();
  });
});
