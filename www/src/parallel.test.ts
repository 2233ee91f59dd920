import { describe, expect, it } from 'vitest';
import { MAX_WORKERS, mergeProgress, shareOf, workerChoices, workerSeed } from './parallel';
import type { SearchProgress } from './protocol';

describe('root-parallel rules (as Rust mcts::parallel)', () => {
  it('seeds are seed + i modulo 2^64; worker 0 keeps the seed; the default seed is 1', () => {
    expect(workerSeed(7, 0)).toBe(7);
    expect(workerSeed(7, 3)).toBe(10);
    expect(workerSeed(undefined, 1)).toBe(2);
    // Past 2^53 − 1 the seed is the decimal text the engine reads exactly.
    expect(workerSeed(Number.MAX_SAFE_INTEGER, 2)).toBe('9007199254740993');
    // Seeds as text (the protocol's older form) count the same.
    expect(workerSeed('7', 3)).toBe(10);
    expect(workerSeed('18446744073709551615', 1)).toBe(0);
    expect(workerSeed('x', 1)).toBe('x');
    expect(workerSeed(0.5, 1)).toBe(0.5);
  });

  it('a playout budget is split so the shares sum to it; a time budget is each worker’s', () => {
    for (const total of [1, 2, 7, 20000, 20001]) {
      for (let w = 1; w <= 4; w++) {
        const shares = Array.from({ length: w }, (_, i) => shareOf({ kind: 'playouts', value: total }, w, i).value);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }
    }
    expect(shareOf({ kind: 'millis', value: 500 }, 3, 2)).toEqual({ kind: 'millis', value: 500 });
  });

  it('progress adds playouts, rates and nodes; time is the longest; the move is worker 0’s', () => {
    const p = (playouts: number, ms: number, best: string): SearchProgress => ({
      playouts,
      playoutsPerS: playouts / (ms / 1000),
      elapsedMs: ms,
      engineMs: ms,
      bestMove: best,
      winRate: 0.5,
      pv: [best],
      proven: null,
      nodes: playouts,
      nodeCap: null,
      memoryCap: null,
    });
    const m = mergeProgress([p(1000, 100, 'd4'), p(900, 120, 'c5')]);
    expect(m.playouts).toBe(1900);
    expect(m.playoutsPerS).toBeCloseTo(10000 + 7500);
    expect(m.elapsedMs).toBe(120);
    expect(m.nodes).toBe(1900);
    expect(m.bestMove).toBe('d4');
  });

  it('the choices go from 1 to the cores, at most MAX_WORKERS', () => {
    expect(workerChoices(1)).toEqual([1]);
    expect(workerChoices(2)).toEqual([1, 2]);
    expect(workerChoices(64)).toHaveLength(MAX_WORKERS);
    expect(workerChoices(undefined)).toEqual([1]);
  });
});
