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
  /** A move that keeps the root's value, as the solver proved the root with it (its own entry
   * in `moves` may not be settled yet). */
  bestMove?: string | null;
  winningMove?: string | null;
}

/** The exact value of each move as far as proven: `moves`, and the move the root was proven
 * with, which keeps the root's value. */
function provenValues(exact: ExactRoot, root: ExactValue): Map<string, ExactValue | null> {
  const value = new Map(exact.moves.map((m) => [m.move, exactMoveValue(m)]));
  const via = exact.bestMove ?? (root === 'win' ? exact.winningMove : null) ?? null;
  if (via !== null && value.get(via) == null) value.set(via, root);
  return value;
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
 * - `not-winning`: its last best move is proven not to keep the position's value (a loss, or a
 *   draw where a win was there);
 * - `pending`: the root is proven but a move the verdict needs is not yet, and the solver goes on;
 * - `unproven`: the solve has ended and the last best move is not proven either way (not a
 *   verdict of wrong: unknown);
 * - `lost`: the side to move loses whatever it plays;
 * - `unknown`: the solver did not prove the position within its budget;
 * - `none`: no sample yet. */
export interface PaneTruth {
  state: 'winning' | 'drawing' | 'not-winning' | 'pending' | 'unproven' | 'lost' | 'unknown' | 'none';
  text: string;
  /** With `winning` or `drawing`: the playouts of the first sample from which the best move
   * stayed a best move. */
  playouts: number | null;
}

/** Where the samples' best move became, and stayed, a move that keeps the root's value `root`:
 * the index of that sample; null when the last best move does not (proven otherwise, no move, or
 * not proven once the solve has `ended`); `pending` while the solve runs and a best move in that
 * trailing run (or the last one) is not proven yet, so the index may still move. */
export function keptFromIndex(
  samples: readonly BestAt[],
  value: ReadonlyMap<string, ExactValue | null>,
  root: ExactValue,
  ended: boolean,
): number | null | 'pending' {
  let from: number | null = null;
  for (let i = samples.length - 1; i >= 0; i--) {
    const b = samples[i]!.best;
    if (b === null) break;
    const v = value.get(b) ?? null;
    if (v === null && !ended) return 'pending';
    if (v !== root) break;
    from = i;
  }
  return from;
}

/** The pane's line from its samples and the exact values (`mover`: the side to move's name).
 * `ended`: whether the solve has ended (a move not proven then stays unknown); while it runs, the
 * line says what is proven already and waits for the rest. */
export function paneTruth(samples: readonly BestAt[], exact: ExactRoot, mover: string, ended = true): PaneTruth {
  const last = samples[samples.length - 1];
  const root = exactRootValue(exact);
  if (root === null) return { state: 'unknown', text: 'exact value unknown within the solver’s budget', playouts: null };
  if (root === 'loss')
    return { state: 'lost', text: `position lost for ${mover}: every move loses, whatever the search picks`, playouts: null };
  if (!last || last.best === null) return { state: 'none', text: '', playouts: null };
  const values = provenValues(exact, root);
  // The best moves: those that keep the position's value (proven so far, while the solve runs).
  const good = exact.moves.map((m) => m.move).filter((m) => values.get(m) === root);
  const verb = (n: number, one: string, many: string) => (n === 1 ? one : many);
  const list = good.length
    ? `${listMoves(good)} ${root === 'win' ? verb(good.length, 'wins', 'win') : verb(good.length, 'draws', 'draw')}`
    : `no move is proven to ${root === 'win' ? 'win' : 'draw'}${ended ? '' : ' yet'}`;
  const v = values.get(last.best) ?? null;
  const from = keptFromIndex(samples, values, root, ended);
  if (from === 'pending') {
    const open = v === null ? `${last.best} is not proven yet` : `a best move it had before ${last.best} is not proven yet`;
    return { state: 'pending', text: `${open}; the solver goes on (${list}${ended ? '' : ' so far'})`, playouts: null };
  }
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
  if (v === null)
    // Unknown, not wrong: the solver's budget ran out before it proved this move either way.
    return {
      state: 'unproven',
      text: `best move ${last.best} not proven either way within the solver’s budget, so not judged (${list})`,
      playouts: null,
    };
  const what = root === 'win' ? 'a proven winning move' : 'a proven best move';
  return {
    state: 'not-winning',
    text: `best move not ${what} within ${count(last.playouts)} playouts (${last.best} ${v === 'loss' ? 'loses' : 'draws'}; ${list})`,
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

/** What the spread over a pane's seeds says:
 * - `found`: each seed's playouts by which its best move was, and stayed, a move that keeps the
 *   position's value (null: not by its last sample), in the order of the seeds; with the median,
 *   the fastest and the slowest (null: more than half, or some, did not find one);
 * - `pending`: the root is proven but a move some seed's figure needs is not yet;
 * - `open`: no exact values (not solved, or the position is lost): only the final best moves. */
export interface SeedSpread {
  state: 'found' | 'pending' | 'open';
  found: (number | null)[];
  median: number | null;
  min: number | null;
  max: number | null;
  /** Each final best move and how many seeds ended on it, most first. */
  finals: [string, number][];
}

/** The median of `xs` where null is "not within the budget" (above every figure): null when the
 * middle falls on one. */
export function censoredMedian(xs: readonly (number | null)[]): number | null {
  const s = xs.map((x) => x ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  const n = s.length;
  if (!n) return null;
  const m = n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  return Number.isFinite(m) ? m : null;
}

/** The spread over a pane's seed runs (each its best move at each sample): when each found, and
 * kept, a move that keeps the position's value (`exact`: the exact values once the root is
 * proven, else null; `ended`: whether the solve has ended, as for `paneTruth`). */
export function seedSpread(runs: readonly (readonly BestAt[])[], exact: ExactRoot | null, ended: boolean): SeedSpread {
  const tally = new Map<string, number>();
  for (const r of runs) {
    const b = r.at(-1)?.best ?? '–';
    tally.set(b, (tally.get(b) ?? 0) + 1);
  }
  const finals = [...tally].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const root = exact ? exactRootValue(exact) : null;
  const open: SeedSpread = { state: 'open', found: [], median: null, min: null, max: null, finals };
  if (!exact || root === null || root === 'loss') return open;
  const values = provenValues(exact, root);
  const found: (number | null)[] = [];
  for (const r of runs) {
    const from = keptFromIndex(r, values, root, ended);
    if (from === 'pending') return { ...open, state: 'pending' };
    found.push(from === null ? null : r[from]!.playouts);
  }
  const got = found.filter((x): x is number => x !== null);
  return {
    state: 'found',
    found,
    median: censoredMedian(found),
    min: got.length ? Math.min(...got) : null,
    max: got.length === found.length && got.length ? Math.max(...got) : null,
    finals,
  };
}

/** The spread's sentence: `seeds` the seeds run, `within` each seed's budget in words (`40,000
 * playouts`), `root` what a found move keeps (`win` or `draw`). */
export function spreadText(sp: SeedSpread, seeds: readonly number[], within: string, root: ExactValue | null): string {
  const n = sp.found.length || sp.finals.reduce((a, [, c]) => a + c, 0);
  const which = `${n} seeds (${seeds[0]}–${seeds[n - 1] ?? seeds.at(-1)})`;
  const finals = `final best move: ${sp.finals.map(([m, c]) => `${m} ×${c}`).join(', ')}`;
  if (sp.state === 'open') return `Over ${which}: ${finals}.`;
  if (sp.state === 'pending') return `Over ${which}: ${finals}; when each found its move waits for the solver.`;
  const what = root === 'draw' ? 'a proven best move' : 'a proven winning move';
  const got = sp.found.filter((x): x is number => x !== null).sort((a, b) => a - b);
  const Finals = `${finals[0]!.toUpperCase()}${finals.slice(1)}`;
  if (!got.length) return `Over ${which}: none found, and kept, ${what} within ${within}. ${Finals}.`;
  if (sp.median === null)
    return `Over ${which}: only ${got.length} of ${n} found, and kept, ${what} within ${within} (by ${listMoves(got.map(count))} playouts), so the median is not within it. ${Finals}.`;
  const slowest = sp.max === null ? `not within ${within}` : count(sp.max);
  return `Over ${which}: ${what} found, and kept, by a median of ${count(Math.round(sp.median))} playouts (fastest ${count(sp.min!)}, slowest ${slowest}); ${got.length} of ${n} found one within ${within}. ${Finals}.`;
}
