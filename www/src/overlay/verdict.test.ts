import { describe, expect, it } from 'vitest';
import type { ExactValues } from '../state';
import { listMoves, reviewVerdict, winningMoves } from './verdict';

const solved: ExactValues = {
  key: 'hex:5|c3 d2',
  toMove: 0,
  rootWins: true,
  moves: [
    { move: 'a1', moverWins: false },
    { move: 'c2', moverWins: true },
    { move: 'd4', moverWins: true },
    { move: 'e5', moverWins: false },
  ],
  end: 'proven',
  budgetS: 10,
};

describe('listMoves', () => {
  it('writes moves as words', () => {
    expect(listMoves([])).toBe('');
    expect(listMoves(['d4'])).toBe('d4');
    expect(listMoves(['d4', 'e2'])).toBe('d4 and e2');
    expect(listMoves(['d4', 'e2', 'c3'])).toBe('d4, e2 and c3');
    expect(listMoves(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'])).toBe('a1, a2, a3, a4, a5 and 3 more');
  });
  it('winningMoves keeps the proven wins in cell order', () => {
    expect(winningMoves(solved)).toEqual(['c2', 'd4']);
  });
});

describe('reviewVerdict: was the move played a winning move?', () => {
  it('a winning move', () => {
    expect(reviewVerdict('d4', 'Black', 'White', solved)).toEqual({
      state: 'win',
      text: 'Exact: d4 was a winning move for Black (2 of 4 moves win).',
    });
  });
  it('a losing move names the moves that would have won', () => {
    expect(reviewVerdict('e5', 'Black', 'White', solved)).toEqual({
      state: 'loss',
      text: 'Exact: e5 was a losing move: c2 and d4 would have won.',
    });
    const partial: ExactValues = { ...solved, end: 'unknown', moves: [...solved.moves, { move: 'b1', moverWins: null }] };
    expect(reviewVerdict('a1', 'Black', 'White', partial).text).toBe(
      'Exact: a1 was a losing move: c2 and d4 would have won (others not proven yet).',
    );
  });
  it('in a lost position every move lost', () => {
    const lost: ExactValues = { ...solved, rootWins: false, moves: solved.moves.map((m) => ({ ...m, moverWins: false })) };
    expect(reviewVerdict('d4', 'White', 'Black', lost)).toEqual({
      state: 'loss',
      text: 'Exact: d4 was a losing move, as was every other: Black wins whatever White plays.',
    });
  });
  it('not proven: running, out of budget or stopped, never a guess', () => {
    const open: ExactValues = { ...solved, rootWins: null, moves: solved.moves.map((m) => ({ ...m, moverWins: null })), end: null };
    expect(reviewVerdict('d4', 'Black', 'White', open)).toEqual({ state: 'open', text: 'Exact: solving… d4 not proven yet.' });
    expect(reviewVerdict('d4', 'Black', 'White', { ...open, end: 'unknown' }).text).toBe(
      'Exact: d4 not proven within 10 s. Solve again to continue.',
    );
    const someWin: ExactValues = {
      ...open,
      rootWins: true,
      end: 'stopped',
      moves: [
        { move: 'c2', moverWins: true },
        { move: 'd4', moverWins: null },
      ],
    };
    expect(reviewVerdict('d4', 'Black', 'White', someWin).text).toBe(
      'Exact: the solve stopped before d4 was proven. Black wins with c2. Solve again to continue.',
    );
  });
  it('no solve: says how to get one', () => {
    expect(reviewVerdict('d4', 'Black', 'White', null)).toEqual({
      state: 'none',
      text: 'Exact solver: Solve (under “Seeing the search”) proves whether d4 was a winning move.',
    });
  });
});

describe('reviewVerdict with draws (Tic-Tac-Toe, Pentago endgames)', () => {
  const drawn: ExactValues = {
    key: 'tictactoe|a1',
    toMove: 1,
    rootWins: false,
    rootValue: 'draw',
    moves: [
      { move: 'b1', moverWins: false, value: 'loss' },
      { move: 'b2', moverWins: false, value: 'draw' },
      { move: 'c3', moverWins: false, value: 'loss' },
    ],
    end: 'proven',
    budgetS: 10,
  };
  it('a drawing move in a drawn position kept the draw', () => {
    expect(reviewVerdict('b2', 'O', 'X', drawn)).toEqual({
      state: 'draw',
      text: 'Exact: b2 kept the draw for O: no move wins (1 of 3 moves draw).',
    });
  });
  it('a losing move names the moves that would have drawn', () => {
    expect(reviewVerdict('c3', 'O', 'X', drawn)).toEqual({ state: 'loss', text: 'Exact: c3 was a losing move: b2 would have drawn.' });
  });
  it('a drawing move in a won position names the winning moves', () => {
    const won: ExactValues = {
      ...drawn,
      rootWins: true,
      rootValue: 'win',
      moves: [...drawn.moves, { move: 'a3', moverWins: true, value: 'win' }],
    };
    expect(reviewVerdict('b2', 'O', 'X', won)).toEqual({ state: 'draw', text: 'Exact: b2 drew, but a3 would have won.' });
  });
  it('an open move in a drawn position says the draw', () => {
    const open: ExactValues = { ...drawn, end: 'unknown', moves: [...drawn.moves, { move: 'a2', moverWins: null, value: null }] };
    expect(reviewVerdict('a2', 'O', 'X', open).text).toBe(
      'Exact: a2 not proven within 10 s. A draw with perfect play. Solve again to continue.',
    );
  });
});
