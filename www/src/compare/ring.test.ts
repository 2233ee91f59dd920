import { describe, expect, it } from 'vitest';
import type { FullStats } from '../protocol';
import { ringReason } from './ring';

type Child = [string, number, 'win' | 'loss' | 'draw' | null];
function st(
  best: string,
  rule: 'robust' | 'max' | 'secure' | null,
  children: Child[],
): Pick<FullStats, 'best_move' | 'children' | 'final_move'> {
  return {
    best_move: best,
    final_move: rule,
    children: children.map(([move, visits, proven], index) => ({
      index,
      move,
      visits,
      q: 0.6,
      proven,
      amaf_visits: 0,
      amaf_q: null,
      beta: null,
      prior: null,
    })),
  };
}

describe('ringReason', () => {
  it('says nothing when the ring is on the most visited move', () => {
    expect(
      ringReason(
        st('c2', 'robust', [
          ['c2', 90, null],
          ['b2', 10, null],
        ]),
        'Pane 1',
      ),
    ).toBeNull();
    expect(
      ringReason(
        st('b2', 'secure', [
          ['b2', 90, null],
          ['c2', 10, null],
        ]),
        'Pane 1',
      ),
    ).toBeNull();
  });
  it('names the secure child among moves proven equal (the solver on Tic-Tac-Toe)', () => {
    const s = st('b2', 'secure', [
      ['c2', 9854, 'draw'],
      ['a2', 9741, 'draw'],
      ['b2', 4475, 'draw'],
    ]);
    expect(ringReason(s, 'Pane 2 (solver)')).toBe(
      'Pane 2 (solver) rings b2, not its most visited move c2: both are proven draws, and among moves proven equal its preset plays the secure child, the highest lower bound Q − A/√n (A = 1).',
    );
  });
  it('puts a proven win first and never plays a proven loss', () => {
    expect(
      ringReason(
        st('a1', 'robust', [
          ['b1', 50, null],
          ['a1', 3, 'win'],
        ]),
        'Pane 1',
      ),
    ).toBe('Pane 1 rings a1, not its most visited move b1: a1 is a proven win, played before any other move.');
    expect(
      ringReason(
        st('a1', 'robust', [
          ['b1', 50, 'loss'],
          ['a1', 30, null],
        ]),
        'Pane 1',
      ),
    ).toBe('Pane 1 rings a1, not its most visited move b1: b1 is a proven loss, never played while another move exists.');
  });
  it('names the max child', () => {
    expect(
      ringReason(
        st('a1', 'max', [
          ['b1', 50, null],
          ['a1', 30, null],
        ]),
        'Pane 3',
      ),
    ).toBe('Pane 3 rings a1, not its most visited move b1: its preset plays the max child, the highest win rate Q.');
  });
});
