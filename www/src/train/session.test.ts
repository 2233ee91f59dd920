// The training package's boundary (pkg-train, the wasm the Train view's worker loads), run in
// Node: settings out of range or of the wrong type are JS Errors naming the field (never a
// panic), a tiny run advances in bounded steps through its phases to `done`, and the weights are
// an MCTSNET file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TrainSession, initSync, trainDefaults } from '../../../pkg-train/mcts_playground.js';
import type { TrainProgress } from '../protocol';

initSync({ module: readFileSync(new URL('../../../pkg-train/mcts_playground_bg.wasm', import.meta.url)) });

const tiny = {
  game: 'tictactoe',
  hidden: [32, 32],
  iterations: 1,
  games: 3,
  playouts: 8,
  steps: 6,
  batch: 16,
  eval_games: 4,
  eval_playouts: 4,
  seed: 2,
};

describe('pkg-train TrainSession', () => {
  it('names bad settings in JS Errors and stays usable', () => {
    expect(() => new TrainSession({ ...tiny, games: 0 }, 1, 4)).toThrow(/'games' must be 1 to 10000/);
    expect(() => new TrainSession({ ...tiny, lr: 'fast' }, 1, 4)).toThrow(/training settings: .*lr|invalid type/);
    expect(() => new TrainSession({ ...tiny, speed: 3 }, 1, 4)).toThrow(/unknown field `speed`/);
    expect(() => new TrainSession({ ...tiny, game: 'pentago' }, 1, 4)).toThrow(/no network input encoding/);
    expect(() => new TrainSession({ ...tiny, game: 'chess' }, 1, 4)).toThrow(/chess/);
    expect(trainDefaults()).toMatchObject({ game: 'tictactoe', hidden: [128, 128] });
  });

  it('runs a tiny run in bounded steps to done, and hands out MCTSNET weights', () => {
    const s = new TrainSession(tiny, 1, 4);
    expect(s.parameters()).toBe(18 * 32 + 32 + 32 * 32 + 32 + 32 * 9 + 9 + 32 + 1);
    const phases: string[] = [];
    let p: TrainProgress = s.progress();
    let finished = 0;
    for (let k = 0; k < 100 && p.phase !== 'done'; k++) {
      phases.push(p.phase);
      p = s.step();
      if (p.finished) {
        finished++;
        expect(p.finished.reference).toBe('perfect play');
        const t = p.finished.raw.total;
        expect(t.wins + t.draws + t.losses).toBe(4);
      }
    }
    // 3 games one by one, 6 Adam steps in fours, then the evaluation.
    expect(phases).toEqual(['selfPlay', 'selfPlay', 'selfPlay', 'learn', 'learn', 'evaluate']);
    expect(finished).toBe(1);
    expect(p).toMatchObject({ phase: 'done', iteration: 1, games: 3, adam_steps: 6 });
    const w = s.weights();
    expect(new TextDecoder().decode(w.slice(0, 7))).toBe('MCTSNET');
    s.free();
  });
});
