// "Learn from your mistakes" (Lichess's retrospection, lila ui/analyse/src/retrospect/), pure:
// which moves it goes through, and how a try is judged and said. No DOM, no engine: the app
// (app/learn.ts) shows each mistake's position, has a try judged by the engine (the review's own
// core: the solver where it takes the position, else the review's search) and draws the card.
//
// Lichess goes through the moves whose winning chances swing by more than 0.1 on its −1…+1 scale
// (`evalSwings`, ui/analyse/src/nodeFinder.ts), i.e. 5 points of win % — the moves our review marks
// (?!, ?, ??) — and accepts a try that loses less than 0.04 on that scale against the position
// before the mistake (`checkCeval` in retroCtrl.ts). We accept a try in the review's best or good
// class (a loss under 5 points, the "within the good class of the best move"), and, where
// the solver proved the position, only a try that keeps its exact value.

import { isMistake, type MistakeSide } from './marks';
import type { ReviewExact, ReviewPly, ReviewReport } from './report';

/** The move numbers (1-based, main line) Learn from your mistakes goes through for `side`: the
 * moves the review marks, in the order of the game. */
export function learnQueue(report: ReviewReport, side: MistakeSide): number[] {
  return report.plies.filter((p) => isMistake(p, side)).map((p) => p.ply + 1);
}

/** What a try is judged by: the engine's review of the move in the mistake's position (a
 * `ReviewPly` of the try: its class, loss and exact values). */
export type TryJudgement = Pick<
  ReviewPly,
  'move' | 'class' | 'loss' | 'label' | 'exact_before' | 'exact_after' | 'value_after' | 'best_move'
>;

/** A try's verdict: accepted or not, and the sentence that says why. */
export interface TryVerdict {
  ok: boolean;
  /** `exact` when the solver's values decided it, else `estimate`. */
  by: 'exact' | 'estimate';
  text: string;
}

const RANK: Record<ReviewExact, number> = { loss: 0, draw: 1, win: 2 };
const WORD: Record<ReviewExact, string> = { win: 'wins', draw: 'draws', loss: 'loses' };

function points(x: number): string {
  return `${Math.round(Math.max(0, x) * 100)}`;
}

/** Judges a try at mistake `p` (the move played there, as reviewed) from the engine's review of the
 * try `j`. The move played is never accepted; the review's best move always is. */
export function judgeTry(p: ReviewPly, j: TryJudgement): TryVerdict {
  if (j.move === p.move) return { ok: false, by: 'estimate', text: `${j.move} is the move played in the game: find a better one.` };
  // Exact: the solver proved both the position and the position after the try.
  if (j.exact_before !== null && j.exact_after !== null) {
    const ok = RANK[j.exact_after] >= RANK[j.exact_before];
    return {
      ok,
      by: 'exact',
      text: ok
        ? `${j.move} ${WORD[j.exact_after]} (proven by the solver)${j.exact_after === 'win' ? '' : ': the best result this position has'}.`
        : `${j.move} ${WORD[j.exact_after]} (proven) where this position ${WORD[j.exact_before]}: try again.`,
    };
  }
  if (j.move === p.best_move) return { ok: true, by: 'estimate', text: `${j.move} is the review’s best move.` };
  const ok = j.class === 'best' || j.class === 'good';
  return {
    ok,
    by: 'estimate',
    text: ok
      ? `${j.move} is good: it keeps the win chance within ${points(j.loss)} points of the best (${Math.round(j.value_after * 100)}%).`
      : `${j.move} loses ${points(j.loss)} points of win chance (${j.class}): try again.`,
  };
}

/** The answer for mistake `p`: the review's best move and its principal variation. */
export function answerText(p: ReviewPly): string {
  if (!p.best_move) return 'The review has no better move here.';
  const line = p.pv.length > 1 ? ` (then ${p.pv.slice(1, 6).join(' ')})` : '';
  return `The review’s best move: ${p.best_move}${line}.`;
}

/** The moves the board marks while learning (null: not learning): none while the person looks
 * for a better move; the review's best move once found or asked for. */
export function learnMarks(s: {
  learn: { queue: readonly number[]; at: number; feedback: string } | null;
  gameReview: { report: ReviewReport | null } | null;
}): string[] | null {
  const l = s.learn;
  if (!l) return null;
  const n = l.queue[l.at];
  const best = n ? s.gameReview?.report?.plies[n - 1]?.best_move : null;
  return (l.feedback === 'right' || l.feedback === 'shown') && best ? [best] : [];
}
