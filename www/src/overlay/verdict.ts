// What the exact solver says of a move that was played (the review of a past move):
// was it a winning move, a losing move, or is it not proven (yet)? The values are those of the
// position before the move, for the player who played it (`ExactValues`, written by the Solve
// control, overlay/solve.ts). Pure functions over plain data: unit-tested in Node.

import { exactMoveValue, exactRootValue, type ExactValue } from '../protocol';
import type { ExactValues } from '../state';

/** Moves as words: `d4`, `d4 and e2`, `d4, e2 and c3`; more than `max`: `d4, e2, c3, b4, a5 and 3 more`. */
export function listMoves(ms: readonly string[], max = 5): string {
  if (ms.length <= 1) return ms[0] ?? '';
  if (ms.length > max) return `${ms.slice(0, max).join(', ')} and ${ms.length - max} more`;
  return `${ms.slice(0, -1).join(', ')} and ${ms[ms.length - 1]}`;
}

/** The moves of `e` proven to have value `v` for the side to move, in the solver's order. */
export function movesValued(e: Pick<ExactValues, 'moves'>, v: ExactValue): string[] {
  return e.moves.filter((m) => exactMoveValue(m) === v).map((m) => m.move);
}

/** The moves of `e` proven winning for the side to move, in the solver's order (cell order). */
export function winningMoves(e: Pick<ExactValues, 'moves'>): string[] {
  return movesValued(e, 'win');
}

/** A reviewed move's value: `win` (a winning move), `draw` (a drawing move), `loss` (a losing
 * move), `open` (not proven, or the solve is still running), `none` (no solve of that position). */
export interface Verdict {
  state: 'win' | 'draw' | 'loss' | 'open' | 'none';
  text: string;
}

/** The review line's verdict on `move`, played by `mover` (the side to move of the position
 * `e` solved; `other` is the opponent). `e` null: that position has not been solved. */
export function reviewVerdict(move: string, mover: string, other: string, e: ExactValues | null): Verdict {
  if (!e) return { state: 'none', text: `Exact solver: Solve (under “Seeing the search”) proves whether ${move} was a winning move.` };
  const m = e.moves.find((x) => x.move === move);
  const v = m ? exactMoveValue(m) : null;
  const root = exactRootValue(e);
  const wins = winningMoves(e);
  const draws = movesValued(e, 'draw');
  const unproven = e.moves.some((x) => exactMoveValue(x) === null);
  const others = unproven ? ' (others not proven yet)' : '';
  if (v === 'win') {
    const of = unproven ? `${wins.length} winning moves proven so far` : `${wins.length} of ${e.moves.length} moves win`;
    return { state: 'win', text: `Exact: ${move} was a winning move for ${mover} (${of}).` };
  }
  if (v === 'draw') {
    if (wins.length) return { state: 'draw', text: `Exact: ${move} drew, but ${listMoves(wins)} would have won.` };
    if (root === 'draw') {
      const of = unproven ? `${draws.length} drawing moves proven so far` : `${draws.length} of ${e.moves.length} moves draw`;
      return { state: 'draw', text: `Exact: ${move} kept the draw for ${mover}: no move wins (${of}).` };
    }
    return { state: 'draw', text: `Exact: ${move} was a drawing move (no winning move proven yet).` };
  }
  if (v === 'loss') {
    if (root === 'loss')
      return { state: 'loss', text: `Exact: ${move} was a losing move, as was every other: ${other} wins whatever ${mover} plays.` };
    if (wins.length) return { state: 'loss', text: `Exact: ${move} was a losing move: ${listMoves(wins)} would have won${others}.` };
    if (draws.length) return { state: 'loss', text: `Exact: ${move} was a losing move: ${listMoves(draws)} would have drawn${others}.` };
    return { state: 'loss', text: `Exact: ${move} was a losing move (no winning move proven yet).` };
  }
  const known =
    root === 'win' && wins.length
      ? ` ${mover} wins with ${listMoves(wins)}.`
      : root === 'loss'
        ? ` ${other} wins.`
        : root === 'draw'
          ? ' A draw with perfect play.'
          : '';
  if (e.end === null) return { state: 'open', text: `Exact: solving… ${move} not proven yet.${known}` };
  const why = e.end === 'stopped' ? `the solve stopped before ${move} was proven` : `${move} not proven within ${e.budgetS} s`;
  return { state: 'open', text: `Exact: ${why}.${known} Solve again to continue.` };
}
