import { describe, expect, it } from 'vitest';
import { answerText, judgeTry, learnMarks, learnQueue, type TryJudgement } from './learn';
import type { ReviewPly, ReviewReport } from './report';

function ply(i: number, cls: ReviewPly['class'], extra: Partial<ReviewPly> = {}): ReviewPly {
  return {
    ply: i,
    move: `m${i}`,
    mover: i % 2 ? 'white' : 'black',
    value_before: 0.6,
    value_after: 0.6,
    loss: 0,
    class: cls,
    label: null,
    accuracy: 100,
    best_move: `b${i}`,
    pv: [`b${i}`, 'x', 'y'],
    exact_before: null,
    exact_after: null,
    iterations: 10,
    playouts: 10,
    ...extra,
  };
}

const report = {
  game: 'hex:5',
  moves: ['m0', 'm1', 'm2', 'm3'],
  settings: { preset: 'uct', iterations: 10, ms: null, solve_ms: 10, seed: 0 },
  plies: [ply(0, 'best'), ply(1, 'mistake'), ply(2, 'inaccuracy'), ply(3, 'blunder')],
  summary: {},
} as ReviewReport;

const judged = (move: string, extra: Partial<TryJudgement> = {}): TryJudgement => ({
  move,
  class: 'good',
  loss: 0.02,
  label: null,
  exact_before: null,
  exact_after: null,
  value_after: 0.58,
  best_move: 'b1',
  ...extra,
});

describe('learn from your mistakes', () => {
  it('goes through the marked moves of the chosen side, in order', () => {
    expect(learnQueue(report, 'both')).toEqual([2, 3, 4]);
    expect(learnQueue(report, 'white')).toEqual([2, 4]);
    expect(learnQueue(report, 'black')).toEqual([3]);
  });

  it('accepts a try in the good class, the best move, never the move played', () => {
    const p = report.plies[1]!;
    expect(judgeTry(p, judged('c3')).ok).toBe(true);
    expect(judgeTry(p, judged('c3', { class: 'inaccuracy', loss: 0.07 }))).toMatchObject({
      ok: false,
      text: 'c3 loses 7 points of win chance (inaccuracy): try again.',
    });
    expect(judgeTry(p, judged('b1', { class: 'mistake', loss: 0.12 })).ok).toBe(true);
    expect(judgeTry(p, judged('m1')).ok).toBe(false);
  });

  it('where the solver proved the position, only a try that keeps its value', () => {
    const p = report.plies[3]!;
    expect(judgeTry(p, judged('c3', { exact_before: 'win', exact_after: 'win', class: 'inaccuracy', loss: 0.1 }))).toMatchObject({
      ok: true,
      by: 'exact',
    });
    expect(judgeTry(p, judged('c3', { exact_before: 'win', exact_after: 'loss', class: 'good' }))).toMatchObject({
      ok: false,
      by: 'exact',
    });
    expect(judgeTry(p, judged('c3', { exact_before: 'draw', exact_after: 'draw' })).text).toMatch(
      /draws \(proven by the solver\): the best result/,
    );
  });

  it('says the answer, and marks the best move once found or asked for', () => {
    expect(answerText(report.plies[1]!)).toBe('The review’s best move: b1 (then x y).');
    const learn = { queue: [2], at: 0, feedback: 'find' };
    expect(learnMarks({ learn, gameReview: { report } })).toEqual([]);
    expect(learnMarks({ learn: { ...learn, feedback: 'shown' }, gameReview: { report } })).toEqual(['b1']);
    expect(learnMarks({ learn: null, gameReview: { report } })).toBeNull();
  });
});
