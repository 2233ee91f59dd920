import { describe, expect, it } from 'vitest';
import {
  censoredMedian,
  exactValue,
  paneTruth,
  provenFromIndex,
  sampleStep,
  seedSpread,
  spreadText,
  type BestAt,
  type ExactRoot,
} from './truth';

const samples = (...bests: (string | null)[]): BestAt[] => bests.map((best, i) => ({ playouts: (i + 1) * 1250, best }));
const exact: ExactRoot = {
  rootWins: true,
  moves: [
    { move: 'a1', moverWins: false },
    { move: 'c3', moverWins: true },
    { move: 'd4', moverWins: true },
    { move: 'e5', moverWins: null },
  ],
};
const winning = new Set(['c3', 'd4']);

describe('provenFromIndex: the first sample from which the best move stays a winning move', () => {
  it('is the start of the last run of winning best moves, changes among winning moves included', () => {
    expect(provenFromIndex(samples('a1', 'c3', 'a1', 'c3', 'd4', 'c3'), winning)).toBe(3);
    expect(provenFromIndex(samples('c3', 'd4'), winning)).toBe(0);
  });
  it('is null when the last best move is not winning, unproven or missing', () => {
    expect(provenFromIndex(samples('c3', 'a1'), winning)).toBeNull();
    expect(provenFromIndex(samples('c3', 'e5'), winning)).toBeNull();
    expect(provenFromIndex(samples('c3', null), winning)).toBeNull();
    expect(provenFromIndex([], winning)).toBeNull();
  });
});

describe('sampleStep', () => {
  it('is the spacing of evenly spaced samples from 0, else null', () => {
    expect(sampleStep(samples('a1', 'c3', 'd4'))).toBe(1250);
    expect(
      sampleStep([
        { playouts: 100, best: 'a1' },
        { playouts: 250, best: 'a1' },
      ]),
    ).toBeNull();
    expect(sampleStep([{ playouts: 100, best: 'a1' }])).toBeNull();
  });
});

describe('paneTruth: what a pane says of its best move', () => {
  it('names the first sample from which it stayed winning, the sample before, and the spacing', () => {
    const t = paneTruth(samples('a1', 'e5', 'c3', 'd4'), exact, 'Black');
    expect(t).toEqual({
      state: 'winning',
      text: 'best move proven winning by 3,750 playouts and at every sample after (not yet at 2,500; sampled every 1,250 playouts)',
      playouts: 3750,
    });
    expect(paneTruth(samples('c3'), exact, 'Black').text).toBe(
      'best move proven winning by 1,250 playouts and at every sample after (already at the first sample; 1 sample)',
    );
  });
  it('says when the last best move is a loss or not proven, with the winning moves', () => {
    expect(paneTruth(samples('c3', 'a1'), exact, 'Black')).toEqual({
      state: 'not-winning',
      text: 'best move not a proven winning move within 2,500 playouts (a1 loses; c3 and d4 win)',
      playouts: null,
    });
  });
  it('gives a move the solver did not prove a neutral verdict, not a wrong one, once the solve has ended', () => {
    expect(paneTruth(samples('e5'), exact, 'Black')).toEqual({
      state: 'unproven',
      text: 'best move e5 not proven either way within the solver’s budget, so not judged (c3 and d4 win)',
      playouts: null,
    });
  });
  it('counts the move the solver proved the root with as winning, settled in its list or not', () => {
    const via: ExactRoot = { ...exact, winningMove: 'e5' };
    expect(paneTruth(samples('a1', 'e5'), via, 'Black')).toMatchObject({ state: 'winning', playouts: 2500 });
    expect(paneTruth(samples('a1'), via, 'Black').text).toBe(
      'best move not a proven winning move within 1,250 playouts (a1 loses; c3, d4 and e5 win)',
    );
  });
  it('judges while the solve runs as soon as what the verdict needs is proven, and waits otherwise', () => {
    // The last best move proven losing: wrong at once.
    expect(paneTruth(samples('c3', 'a1'), exact, 'Black', false).state).toBe('not-winning');
    // A trailing run of proven winning moves back to a proven loss: the figure is final.
    expect(paneTruth(samples('a1', 'c3', 'd4'), exact, 'Black', false)).toMatchObject({ state: 'winning', playouts: 2500 });
    // The last best move not proven yet, or one in the run before it: the figure may still move.
    expect(paneTruth(samples('c3', 'e5'), exact, 'Black', false)).toEqual({
      state: 'pending',
      text: 'e5 is not proven yet; the solver goes on (c3 and d4 win so far)',
      playouts: null,
    });
    expect(paneTruth(samples('e5', 'c3'), exact, 'Black', false).state).toBe('pending');
    // Once the solve has ended, the unproven sample ends the run.
    expect(paneTruth(samples('e5', 'c3'), exact, 'Black', true)).toMatchObject({ state: 'winning', playouts: 2500 });
  });
  it('says a lost position is lost and an unknown one unknown, whatever the samples', () => {
    const lost: ExactRoot = { rootWins: false, moves: exact.moves.map((m) => ({ ...m, moverWins: false })) };
    expect(paneTruth(samples('a1'), lost, 'White')).toMatchObject({
      state: 'lost',
      text: 'position lost for White: every move loses, whatever the search picks',
    });
    expect(paneTruth(samples('c3'), { rootWins: null, moves: [] }, 'White').state).toBe('unknown');
    expect(paneTruth([], exact, 'Black').state).toBe('none');
  });
});

describe('exactValue: the line on the win-rate chart', () => {
  it('is 1 for a win of the side to move, 0 for a loss, null when unknown', () => {
    expect(exactValue(exact)).toBe(1);
    expect(exactValue({ rootWins: false, moves: [] })).toBe(0);
    expect(exactValue({ rootWins: null, moves: [] })).toBeNull();
    expect(exactValue(null)).toBeNull();
  });
});

describe('truth in a drawn position (Tic-Tac-Toe, Pentago endgames)', () => {
  const drawn: ExactRoot = {
    rootWins: false,
    rootValue: 'draw',
    moves: [
      { move: 'a1', moverWins: false, value: 'draw' },
      { move: 'b1', moverWins: false, value: 'loss' },
      { move: 'b2', moverWins: false, value: 'draw' },
      { move: 'c3', moverWins: null, value: null },
    ],
  };
  it('a best move that keeps the draw is proven best from its first sample of a run of drawing moves', () => {
    expect(paneTruth(samples('b1', 'a1', 'b2'), drawn, 'X')).toEqual({
      state: 'drawing',
      text: 'best move proven best (it keeps the draw; no move wins) by 2,500 playouts and at every sample after (not yet at 1,250; sampled every 1,250 playouts)',
      playouts: 2500,
    });
  });
  it('a losing or unproven best move is not, with the drawing moves named', () => {
    expect(paneTruth(samples('a1', 'b1'), drawn, 'X')).toEqual({
      state: 'not-winning',
      text: 'best move not a proven best move within 2,500 playouts (b1 loses; a1 and b2 draw)',
      playouts: null,
    });
    expect(paneTruth(samples('c3'), drawn, 'X').text).toBe(
      'best move c3 not proven either way within the solver’s budget, so not judged (a1 and b2 draw)',
    );
  });
  it('a drawing best move in a won position is not a winning move', () => {
    const won: ExactRoot = { rootWins: true, rootValue: 'win', moves: [...drawn.moves, { move: 'c1', moverWins: true, value: 'win' }] };
    expect(paneTruth(samples('a1'), won, 'X').text).toBe('best move not a proven winning move within 1,250 playouts (a1 draws; c1 wins)');
  });
  it('the exact value line is at 50% for a draw', () => {
    expect(exactValue(drawn)).toBe(0.5);
  });
});

describe('seedSpread: when each seed found, and kept, a proven move', () => {
  const run = (...bests: (string | null)[]) => samples(...bests);
  it('gives each seed’s figure, the median (a seed that never found one counts above all), the fastest and the slowest', () => {
    const runs = [run('c3', 'c3'), run('a1', 'd4'), run('a1', 'a1'), run('a1', 'c3')];
    const sp = seedSpread(runs, exact, true);
    expect(sp.state).toBe('found');
    expect(sp.found).toEqual([1250, 2500, null, 2500]);
    expect(sp.median).toBe(2500);
    expect(sp.min).toBe(1250);
    expect(sp.max).toBeNull();
    expect(sp.finals).toEqual([
      ['c3', 2],
      ['a1', 1],
      ['d4', 1],
    ]);
    expect(spreadText(sp, [1, 2, 3, 4], '2,500 playouts', 'win')).toBe(
      'Over 4 seeds (1–4): a proven winning move found, and kept, by a median of 2,500 playouts (fastest 1,250, slowest not within 2,500 playouts); 3 of 4 found one within 2,500 playouts. Final best move: c3 ×2, a1 ×1, d4 ×1.',
    );
    const few = seedSpread([run('a1', 'd4'), run('a1', 'a1'), run('a1', 'e5'), run('c3', 'c3')], exact, true);
    expect(few.median).toBeNull();
    expect(spreadText(few, [1, 2, 3, 4], '2,500 playouts', 'win')).toBe(
      'Over 4 seeds (1–4): only 2 of 4 found, and kept, a proven winning move within 2,500 playouts (by 1,250 and 2,500 playouts), so the median is not within it. Final best move: a1 ×1, c3 ×1, d4 ×1, e5 ×1.',
    );
  });
  it('has no median when half or more never found one', () => {
    expect(censoredMedian([1000, null, null, 3000])).toBeNull();
    expect(censoredMedian([1000, 2000, null])).toBe(2000);
    expect(censoredMedian([1000, 3000])).toBe(2000);
  });
  it('waits while a figure needs a move the running solve has not proven, and says only the final moves without exact values', () => {
    expect(seedSpread([run('c3'), run('e5')], exact, false).state).toBe('pending');
    expect(seedSpread([run('c3'), run('e5')], exact, true).found).toEqual([1250, null]);
    const open = seedSpread([run('c3'), run('e5')], null, false);
    expect(open.state).toBe('open');
    expect(spreadText(open, [7, 8], '1,250 playouts', null)).toBe('Over 2 seeds (7–8): final best move: c3 ×1, e5 ×1.');
  });
});
