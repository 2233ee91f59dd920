// Ground truth beside the Compare panes: once the exact solver has the position's
// root moves (compare.ts asks the solver worker), each pane says from how many playouts its best
// move was, and stayed, a proven best move: a winning move in a won position, a drawing move in a
// drawn one (Tic-Tac-Toe, Pentago endgames). The panes sample their search every budget/40
// playouts (compare.ts `STEPS`), so the figure is a sample: the best move was winning *by* that
// many playouts and at every sample after, and was not at the sample before. Pure functions over
// plain data: unit-tested in Node.

import { exactMoveValue, exactRootValue, type ExactValue, type SolveMoveValue } from '../protocol';
import { count } from '../lib/format';
import { listMoves } from '../overlay/verdict';

/** The exact solver's budget for a Compare run, in seconds (the page's Solve control offers
 * 1–600, default 10; Compare's solve shares the machine with the panes, so it gets more). */
export const COMPARE_SOLVE_S = 30;

/** One sample of a pane's search: playouts so far and its best move then. */
export interface BestAt {
  playouts: number;
  best: string | null;
}

/** The exact solver's result for the compared position, side to move's view. */
export interface ExactRoot {
  /** Whether the side to move wins with perfect play (null: not proven within the budget; false
   * for a draw too). */
  rootWins: boolean | null;
  /** The position's value for the side to move (absent: `rootWins` says win or loss). */
  rootValue?: ExactValue | null;
  /** Every legal move with its value for the side to move (null: not proven). */
  moves: readonly SolveMoveValue[];
}

/** Index of the first sample from which the best move is a proven winning move at every later
 * sample (it included); null when the last sample's best move is not one (or there are none). */
export function provenFromIndex(samples: readonly BestAt[], winning: ReadonlySet<string>): number | null {
  let from: number | null = null;
  for (let i = samples.length - 1; i >= 0; i--) {
    const b = samples[i]!.best;
    if (b === null || !winning.has(b)) break;
    from = i;
  }
  return from;
}

/** The spacing of the samples in playouts when it is even (equal playouts), else null. */
export function sampleStep(samples: readonly BestAt[]): number | null {
  if (samples.length < 2) return null;
  const step = samples[1]!.playouts - samples[0]!.playouts;
  if (samples[0]!.playouts !== step) return null;
  for (let i = 1; i < samples.length; i++) if (samples[i]!.playouts - samples[i - 1]!.playouts !== step) return null;
  return step;
}

/** What a pane says of its best move against the exact values:
 * - `winning`: its best move was a proven winning move from sample `from` on (`playouts`);
 * - `drawing`: in a drawn position, its best move was a proven drawing move (the best there is)
 *   from sample `from` on;
 * - `not-winning`: its last best move does not keep the position's value (a loss, a draw where
 *   a win was there, or not proven);
 * - `lost`: the side to move loses whatever it plays;
 * - `unknown`: the solver did not prove the position within its budget;
 * - `none`: no sample yet. */
export interface PaneTruth {
  state: 'winning' | 'drawing' | 'not-winning' | 'lost' | 'unknown' | 'none';
  text: string;
  /** With `winning` or `drawing`: the playouts of the first sample from which the best move
   * stayed a best move. */
  playouts: number | null;
}

/** The pane's line from its samples and the exact values (`mover`: the side to move's name). */
export function paneTruth(samples: readonly BestAt[], exact: ExactRoot, mover: string): PaneTruth {
  const last = samples[samples.length - 1];
  const root = exactRootValue(exact);
  if (root === null) return { state: 'unknown', text: 'exact value unknown within the solver’s budget', playouts: null };
  if (root === 'loss')
    return { state: 'lost', text: `position lost for ${mover}: every move loses, whatever the search picks`, playouts: null };
  if (!last || last.best === null) return { state: 'none', text: '', playouts: null };
  const valued = (v: ExactValue) => exact.moves.filter((m) => exactMoveValue(m) === v).map((m) => m.move);
  // The best moves: those that keep the position's value.
  const good = valued(root);
  const from = provenFromIndex(samples, new Set(good));
  if (from !== null) {
    const at = samples[from]!.playouts;
    const step = sampleStep(samples);
    const sampled = step ? `sampled every ${count(step)} playouts` : `${samples.length} sample${samples.length === 1 ? '' : 's'}`;
    const before = from === 0 ? 'already at the first sample' : `not yet at ${count(samples[from - 1]!.playouts)}`;
    const what = root === 'win' ? 'proven winning' : 'proven best (it keeps the draw; no move wins)';
    return {
      state: root === 'win' ? 'winning' : 'drawing',
      text: `best move ${what} by ${count(at)} playouts and at every sample after (${before}; ${sampled})`,
      playouts: at,
    };
  }
  const m = exact.moves.find((x) => x.move === last.best);
  const v = m ? exactMoveValue(m) : null;
  const verb = (n: number, one: string, many: string) => (n === 1 ? one : many);
  const list = `${listMoves(good)} ${root === 'win' ? verb(good.length, 'wins', 'win') : verb(good.length, 'draws', 'draw')}`;
  const why = v === null ? `${last.best} is not proven either way` : `${last.best} ${v === 'loss' ? 'loses' : 'draws'}; ${list}`;
  const what = root === 'win' ? 'a proven winning move' : 'a proven best move';
  return {
    state: 'not-winning',
    text: `best move not ${what} within ${count(last.playouts)} playouts (${why})`,
    playouts: null,
  };
}

/** The exact value of the position for the side to move on the charts' win-rate scale (0–1):
 * 1 when it wins with perfect play, ½ for a draw, 0 when it loses; null when not proven. */
export function exactValue(exact: ExactRoot | null): number | null {
  if (!exact) return null;
  const v = exactRootValue(exact);
  return v === null ? null : v === 'win' ? 1 : v === 'draw' ? 0.5 : 0;
}
