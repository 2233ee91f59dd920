// The game review's report: the shape `mcts review --json` prints, the Python `review()` returns
// and the engine's `src/report/review.rs` builds (the page gets the same from its worker). One
// type for the page's review controller (running it), its views (move list marks, the graph, the
// summary) and the game JSON that carries it.

import type { GameReview, PlayerSummary, PlyReview, PositionTiming, ReviewSettings } from '../generated/protocol-types';

/** A move's class by the mover's loss in win probability (Lichess's thresholds: 0.05 / 0.10 /
 * 0.15, lila `modules/analyse/src/main/Advice.scala`), with exact overrides. */
export const REVIEW_CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const;
export type ReviewClass = (typeof REVIEW_CLASSES)[number];

/** An exact value for the mover: win, draw or loss. */
export type ReviewExact = 'win' | 'draw' | 'loss';

/** One move of the main line, as reviewed (Rust `PlyReview`). Win probabilities are in [0, 1],
 * for the mover. */
export type ReviewPly = PlyReview;

/** A review's settings (`settings` of the report; Rust `ReviewSettings`). */
export type { ReviewSettings };

/** How one position went: its search's and its solve's time (ms) and whether it was proven
 * (Rust `PositionTiming`). */
export type ReviewTiming = PositionTiming;

/** The whole report (`mcts review --json`, Rust `GameReview`); `timing` is absent from reports
 * written before it existed. */
export interface ReviewReport extends Omit<GameReview, 'timing'> {
  timing?: ReviewTiming[];
}

/** Per player: Lichess's game accuracy and the count of each class (Rust `PlayerSummary`). */
export type ReviewPlayerSummary = PlayerSummary;

/** The review's default seed (`mcts review`'s default, 0): position i is searched with seed
 * seed + i (src/report/review.rs). */
export const DEFAULT_REVIEW_SEED = 0;

/** A review's budget per position: playouts (`mcts review --iterations`) or milliseconds
 * (`--ms`). */
export interface ReviewBudget {
  unit: 'playouts' | 'ms';
  value: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isProb = (v: unknown): v is number => isNum(v) && v >= 0 && v <= 1;
const isCount = (v: unknown): v is number => isNum(v) && Number.isInteger(v) && v >= 0;
const isExact = (v: unknown): v is ReviewExact | null => v === null || v === 'win' || v === 'draw' || v === 'loss';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((m) => typeof m === 'string');

/** What is wrong with a review's settings, or null. */
function settingsProblem(v: unknown): string | null {
  if (!isObj(v)) return '"settings" must be an object';
  if (typeof v.preset !== 'string' || !v.preset) return '"settings.preset" must be a preset name';
  const it = v.iterations;
  const ms = v.ms;
  if (!(it === null || (isCount(it) && it > 0)) || !(ms === null || (isNum(ms) && ms > 0)) || (it === null) === (ms === null))
    return '"settings" must give one budget: "iterations" (playouts) or "ms", the other null';
  if (!isNum(v.solve_ms) || v.solve_ms < 0) return '"settings.solve_ms" must be milliseconds (0 or more)';
  if (!isCount(v.seed)) return '"settings.seed" must be a whole number';
  return null;
}

/** What is wrong with ply `i` of a report of `moves`, or null. */
function plyProblem(p: unknown, i: number, moves: readonly string[]): string | null {
  const at = `"plies" entry ${i + 1}`;
  if (!isObj(p)) return `${at} must be an object`;
  if (p.ply !== i) return `${at} must have "ply": ${i}`;
  if (p.move !== moves[i]) return `${at}'s move must be the game's move ${i + 1} (${moves[i]})`;
  if (typeof p.mover !== 'string') return `${at} must name its "mover"`;
  for (const k of ['value_before', 'value_after', 'loss'] as const)
    if (!isProb(p[k])) return `${at}'s "${k}" must be a win probability in [0, 1]`;
  if (!(REVIEW_CLASSES as readonly unknown[]).includes(p.class)) return `${at}'s "class" must be one of ${REVIEW_CLASSES.join(', ')}`;
  if (!(p.label === null || typeof p.label === 'string')) return `${at}'s "label" must be text or null`;
  if (!isNum(p.accuracy) || p.accuracy < 0 || p.accuracy > 100) return `${at}'s "accuracy" must be in [0, 100]`;
  if (!(p.best_move === null || typeof p.best_move === 'string')) return `${at}'s "best_move" must be a move or null`;
  if (!isStrings(p.pv)) return `${at}'s "pv" must be a list of moves`;
  if (!isExact(p.exact_before) || !isExact(p.exact_after)) return `${at}'s exact values must be "win", "draw", "loss" or null`;
  if (!isCount(p.iterations) || !isCount(p.playouts)) return `${at}'s "iterations" and "playouts" must be counts`;
  return null;
}

/** What is wrong with a summary entry, or null. */
function summaryProblem(v: unknown): string | null {
  if (!isObj(v)) return '"summary" must be an object with one entry per player';
  for (const [name, e] of Object.entries(v)) {
    if (!isObj(e)) return `"summary.${name.slice(0, 20)}" must be an object`;
    if (!(e.accuracy === null || (isNum(e.accuracy) && e.accuracy >= 0 && e.accuracy <= 100)))
      return `"summary.${name.slice(0, 20)}.accuracy" must be in [0, 100] or null`;
    for (const c of REVIEW_CLASSES) if (!isCount(e[c])) return `"summary.${name.slice(0, 20)}.${c}" must be a count`;
  }
  return null;
}

/** Checks a review report read from outside (a game record's `review`): the shape of
 * `mcts review --json` (src/report/review.rs `ReviewReport`), one ply per move of its own `moves`
 * in order, probabilities in [0, 1], known classes and exact values. Returns the report as read
 * (its `timing` kept when well formed, else left out); throws a sentence naming the first
 * problem. Whether it reviews the game it came with is the caller's check (`marks.ts reviews`). */
export function parseReviewReport(v: unknown): ReviewReport {
  if (!isObj(v)) throw new Error('the review must be an object (the report of mcts review --json)');
  if (typeof v.game !== 'string') throw new Error('the review has no "game"');
  if (!isStrings(v.moves)) throw new Error('the review\'s "moves" must be a list of moves');
  const moves = v.moves;
  const problem =
    settingsProblem(v.settings) ??
    (!Array.isArray(v.plies)
      ? '"plies" must be a list'
      : v.plies.length !== moves.length
        ? `"plies" must hold one entry per move (${moves.length}), not ${v.plies.length}`
        : null) ??
    (v.plies as unknown[]).map((p, i) => plyProblem(p, i, moves)).find((x) => x !== null) ??
    summaryProblem(v.summary);
  if (problem) throw new Error(`the review cannot be read: ${problem}`);
  const report = v as unknown as ReviewReport;
  const timingOk =
    Array.isArray(v.timing) &&
    v.timing.every(
      (t) =>
        isObj(t) &&
        isCount(t.position) &&
        isNum(t.search_ms) &&
        (t.solve_ms === null || isNum(t.solve_ms)) &&
        typeof t.proven === 'boolean',
    );
  const { timing: _t, ...rest } = report;
  return timingOk ? report : rest;
}
