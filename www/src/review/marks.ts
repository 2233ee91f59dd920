// The game review's marks, as pure functions of the report (review/report.ts): the glyph of a
// move (Lichess's ?! ? ??, an exact blunder ??✗), Black's win probability over the positions (the
// game graph), the order "next / previous mistake" steps through, and the summary per player.
// No DOM: the views (review/view.ts, the move list in play/panel.ts) draw what these return.

import type { ReviewClass, ReviewPly, ReviewReport } from './report';

/** The classes that get a mark (best and good get none), worst last. */
export const MARKED_CLASSES = ['inaccuracy', 'mistake', 'blunder'] as const;
export type MarkedClass = (typeof MARKED_CLASSES)[number];

/** Lichess's glyphs (lila `Advice.scala`: inaccuracy ?!, mistake ?, blunder ??). */
export const CLASS_GLYPH: Record<MarkedClass, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** An exact blunder (a proven result lost: `won → lost`, `won → drawn`, `drawn → lost`): the
 * blunder's glyph with a cross, so that it reads apart from an estimated one. */
export const EXACT_GLYPH = '??✗';

/** A move's mark: its glyph, its CSS class suffix (`rv-inaccuracy` … `rv-exact`) and a title. */
export interface PlyMark {
  glyph: string;
  /** `inaccuracy`, `mistake`, `blunder`, or `exact` (a blunder by the exact values). */
  kind: MarkedClass | 'exact';
  title: string;
}

function percent(x: number): string {
  return `${(Math.min(1, Math.max(0, x)) * 100).toFixed(1)}%`;
}

/** The mark of one reviewed move, or null for best and good moves. The title gives the class,
 * the exact label when there is one, the mover's win rate before and after and the best move. */
export function plyMark(p: ReviewPly): PlyMark | null {
  if (p.class !== 'inaccuracy' && p.class !== 'mistake' && p.class !== 'blunder') return null;
  const exact = p.class === 'blunder' && p.label !== null;
  const best = p.best_move && p.best_move !== p.move ? `; best was ${p.best_move}` : '';
  const how = exact
    ? `exact blunder (${p.label}, proven by the solver)`
    : `${p.class}: the mover's win rate ${percent(p.value_before)} → ${percent(p.value_after)}`;
  return {
    glyph: exact ? EXACT_GLYPH : CLASS_GLYPH[p.class],
    kind: exact ? 'exact' : p.class,
    title: `${p.move} ${exact ? EXACT_GLYPH : CLASS_GLYPH[p.class]} ${how}${best}`,
  };
}

/** One point of the game graph: position `position` (0 = the start, `plies.length` = the end),
 * Black's (the first player's) win probability there, and whether it is exact (proven). */
export interface CurvePoint {
  position: number;
  black: number;
  exact: boolean;
}

/** Black's win probability at every position of the reviewed line. The report's values are the
 * mover's: at position i (before ply i) it is ply i's `value_before` when the first player moves
 * there, 1 − it when the second does; the last position takes the last ply's `value_after` (for
 * its mover) the same way. `first`: the first player's name as the report writes movers
 * (`black` in Hex, `x` in Tic-Tac-Toe). */
export function blackCurve(report: ReviewReport, first = firstPlayer(report)): CurvePoint[] {
  const forBlack = (p: ReviewPly, v: number) => (p.mover === first ? v : 1 - v);
  const out: CurvePoint[] = report.plies.map((p) => ({
    position: p.ply,
    black: forBlack(p, p.value_before),
    exact: p.exact_before !== null,
  }));
  const last = report.plies[report.plies.length - 1];
  if (last) out.push({ position: last.ply + 1, black: forBlack(last, last.value_after), exact: last.exact_after !== null });
  return out;
}

/** The first player's name as the report writes it: the mover of ply 0. */
export function firstPlayer(report: ReviewReport): string {
  return report.plies[0]?.mover ?? 'black';
}

/** Which side's mistakes "next / previous mistake" steps through: a player's name, or both. */
export type MistakeSide = string | 'both';

/** Whether ply `p` is one "next mistake" stops at: as Lichess's "next mistake", any marked class
 * (inaccuracy, mistake, blunder) of the chosen side. */
export function isMistake(p: ReviewPly, side: MistakeSide): boolean {
  return plyMark(p) !== null && (side === 'both' || p.mover === side);
}

/** The move number (1-based, as the move list and the page's review count) that "next" (dir 1)
 * or "previous" (dir −1) mistake goes to from move number `current` (null: the live position,
 * after the last move; "next" from there starts again at the first move), or null when there is
 * none that way. */
export function stepMistake(report: ReviewReport, current: number | null, dir: 1 | -1, side: MistakeSide): number | null {
  const marked = report.plies.filter((p) => isMistake(p, side)).map((p) => p.ply + 1);
  if (dir === 1) {
    const from = current ?? 0;
    return marked.find((n) => n > from) ?? null;
  }
  const from = current ?? report.plies.length + 1;
  for (let i = marked.length - 1; i >= 0; i--) if (marked[i]! < from) return marked[i]!;
  return null;
}

/** Whether the report reviews exactly the game `moves` (the marks belong to that main line only). */
export function reviews(report: ReviewReport | null | undefined, moves: readonly string[]): report is ReviewReport {
  if (!report || report.moves.length !== moves.length) return false;
  return report.moves.every((m, i) => m === moves[i]);
}

/** One row of the summary: a player, the count per class and the accuracy with one decimal. */
export interface SummaryRow {
  player: string;
  counts: Record<ReviewClass, number>;
  /** Lichess's game accuracy (lichess.org/page/accuracy) as `87.3%`, or `–` (no moves). */
  accuracy: string;
}

/** The summary's rows, the first player first. */
export function summaryRows(report: ReviewReport): SummaryRow[] {
  const first = firstPlayer(report);
  const names = Object.keys(report.summary).sort((a, b) => (a === first ? -1 : b === first ? 1 : a.localeCompare(b)));
  return names.map((player) => {
    const s = report.summary[player]!;
    return {
      player,
      counts: { best: s.best, good: s.good, inaccuracy: s.inaccuracy, mistake: s.mistake, blunder: s.blunder },
      accuracy: s.accuracy === null || !Number.isFinite(s.accuracy) ? '–' : `${s.accuracy.toFixed(1)}%`,
    };
  });
}

/** A player's name as the page writes it: `black` → `Black`, `x` → `X`. */
export function displayName(player: string): string {
  return player.length <= 1 ? player.toUpperCase() : player[0]!.toUpperCase() + player.slice(1);
}
