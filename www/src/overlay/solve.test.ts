import { describe, expect, it } from 'vitest';
import type { Snapshot, SolveReport } from '../protocol';
import type { MoveSearch } from '../play/searches';
import { bestOfMoves, solveStatusText, solveTarget, solveUnavailable, targetKey } from './solve-controller';

function snap(spec: string, rows: number, extra: Partial<Snapshot> = {}): Snapshot {
  const kind = spec.startsWith('hex') ? 'hex' : spec.startsWith('pentago') ? 'pentago' : 'tictactoe';
  return {
    view: {
      kind,
      spec,
      rows,
      cols: rows,
      cells: [],
      to_move: 0,
      last_move: null,
      last_cells: [],
      winning_cells: [],
      outcome: null,
      ply: 0,
    },
    legal: ['a1'],
    moves: [],
    redo: [],
    outcome: null,
    ...extra,
  };
}

/** A Pentago snapshot with `stones` stones placed (the rest empty). */
function pentago(stones: number): Snapshot {
  const s = snap('pentago', 6);
  return { ...s, view: { ...s.view, cells: Array.from({ length: 36 }, (_, i) => (i < stones ? i % 2 : -1)) } };
}

describe('solveUnavailable: why the Solve control is off', () => {
  it('takes Hex up to 8×8 without the swap rule, Tic-Tac-Toe, and Pentago with at most 16 empty cells, live and not over', () => {
    for (const n of [1, 4, 7, 8]) expect(solveUnavailable(snap(`hex:${n}`, n))).toBeNull();
    expect(solveUnavailable(snap('tictactoe', 3))).toBeNull();
    expect(solveUnavailable(pentago(20))).toBeNull();
    expect(solveUnavailable(pentago(36 - 4))).toBeNull();
  });
  it('names the reason otherwise', () => {
    expect(solveUnavailable(null)).toBe('no game yet');
    expect(solveUnavailable(snap('hex:9', 9))).toBe('Hex 9×9 is too large for the exact solver (it takes boards up to 8×8)');
    expect(solveUnavailable(snap('hex:5:swap', 5))).toMatch(/swap rule/);
    expect(solveUnavailable(pentago(19))).toBe(
      'Pentago with 17 empty cells is too large for the exact solver (it takes positions with at most 16 empty cells: 20 or more stones placed)',
    );
    expect(solveUnavailable(pentago(0))).toMatch(/^Pentago with 36 empty cells is too large/);
    expect(solveUnavailable(snap('hex:5', 5, { outcome: { winner: 0 } }))).toBe('the game is over');
    expect(solveUnavailable(snap('tictactoe', 3, { outcome: { winner: null } }))).toBe('the game is over');
  });
});

describe('bestOfMoves: the value of a cell that stands for several moves (Pentago twists)', () => {
  it('is a win as soon as one move wins, else the best once every move is proven', () => {
    expect(bestOfMoves(['loss', null, 'win'])).toBe('win');
    expect(bestOfMoves(['loss', 'draw', 'loss'])).toBe('draw');
    expect(bestOfMoves(['loss'])).toBe('loss');
    expect(bestOfMoves(['draw', null])).toBeNull();
    expect(bestOfMoves([null])).toBeNull();
  });
});

describe('solveTarget: the position the Solve control is on', () => {
  const live = snap('hex:5', 5, { moves: ['c3', 'd2', 'b4'], outcome: { winner: 0 } });
  const before = snap('hex:5', 5, { moves: ['c3'] }).view;
  const entry = { spec: 'hex:5', before: ['c3'], view: before, summary: { move: 'd2' } } as unknown as MoveSearch;
  it('is the live position outside review', () => {
    const t = solveTarget({ snapshot: live, review: null, searches: [entry], reviewView: null });
    expect(t && targetKey(t)).toBe('hex:5|c3 d2 b4');
    expect(solveUnavailable(t)).toBe('the game is over');
  });
  it('is the position before the reviewed move in review (never over), solvable there', () => {
    const t = solveTarget({ snapshot: live, review: 2, searches: [entry], reviewView: null });
    expect(t && targetKey(t)).toBe('hex:5|c3');
    expect(t?.view).toBe(before);
    expect(solveUnavailable(t)).toBeNull();
  });
  it('is any other move’s position once the worker drew it, and nothing meanwhile', () => {
    const view = snap('hex:5', 5, { moves: ['c3', 'd2'] }).view;
    expect(solveTarget({ snapshot: live, review: 3, searches: [entry], reviewView: null })).toBeNull();
    const t = solveTarget({ snapshot: live, review: 3, searches: [entry], reviewView: { key: 'hex:5|c3 d2', view, legal: [] } });
    expect(t && targetKey(t)).toBe('hex:5|c3 d2');
    expect(t?.view).toBe(view);
    // A picture of another position is never used.
    expect(solveTarget({ snapshot: live, review: 3, searches: [], reviewView: { key: 'hex:5|c3', view, legal: [] } })).toBeNull();
  });
  it('is null before the first game', () => {
    expect(solveTarget({ snapshot: null, review: null, searches: [], reviewView: null })).toBeNull();
  });
});

describe('solveStatusText', () => {
  const base: SolveReport = {
    rootWins: null,
    winningMove: null,
    toMove: 0,
    moves: [
      { move: 'a1', moverWins: null },
      { move: 'b2', moverWins: true },
      { move: 'c3', moverWins: false },
    ],
    stats: { midCalls: 20000, expansions: 12345, terminal: 10, ttUsed: 12000, ttReplaced: 0 },
    ms: 1234,
    ttBytes: 64 << 20,
    continued: false,
  };
  it('says who wins and a winning move once proven, with the work', () => {
    const r = { ...base, rootWins: true, winningMove: 'b2', moves: base.moves.map((m) => ({ ...m, moverWins: m.moverWins ?? false })) };
    expect(solveStatusText('hex', r, 'proven', 10)).toBe('proven: Black wins, e.g. b2 — 12,345 positions, 1.2 s');
    expect(solveStatusText('hex', { ...r, rootWins: false, winningMove: null, toMove: 1 }, 'proven', 10)).toBe(
      'proven: Black wins (every move of White loses) — 12,345 positions, 1.2 s',
    );
  });
  it('says a draw, and a drawing move, when the endgame solver proves one', () => {
    const r: SolveReport = {
      ...base,
      rootWins: false,
      rootValue: 'draw',
      bestMove: 'b2',
      solver: 'alphabeta',
      moves: [
        { move: 'a1', moverWins: false, value: 'loss' },
        { move: 'b2', moverWins: false, value: 'draw' },
        { move: 'c3', moverWins: null, value: null },
      ],
    };
    expect(solveStatusText('tictactoe', r, 'proven', 10)).toBe('proven: a draw with perfect play, e.g. b2 — 12,345 positions, 1.2 s');
    expect(solveStatusText('tictactoe', r, 'unknown', 10)).toBe(
      'proven: a draw with perfect play, e.g. b2; 2 of 3 moves proven within 10 s — 12,345 positions, 1.2 s. Solve again to continue.',
    );
    expect(solveStatusText('tictactoe', { ...r, rootValue: 'loss', bestMove: null }, 'proven', 10)).toBe(
      'proven: O wins (every move of X loses) — 12,345 positions, 1.2 s',
    );
  });
  it('says unknown within the budget, stopped, or solving, with the moves proven so far', () => {
    expect(solveStatusText('hex', base, 'unknown', 10)).toBe(
      'unknown within 10 s: 2 of 3 moves proven — 12,345 positions, 1.2 s. Solve again to continue.',
    );
    expect(solveStatusText('hex', base, 'stopped', 10)).toBe(
      'stopped: value unknown; 2 of 3 moves proven — 12,345 positions, 1.2 s. Solve again to continue.',
    );
    expect(solveStatusText('hex', { ...base, rootWins: true, winningMove: 'b2' }, 'unknown', 10)).toBe(
      'proven: Black wins, e.g. b2; 2 of 3 moves proven within 10 s — 12,345 positions, 1.2 s. Solve again to continue.',
    );
    expect(solveStatusText('hex', base, null, 10)).toBe('solving… 2 of 3 moves proven — 12,345 positions, 1.2 s');
    expect(solveStatusText('hex', { ...base, continued: true }, null, 10)).toBe(
      'solving (continued)… 2 of 3 moves proven — 12,345 positions, 1.2 s',
    );
  });
});
