// Game review: the review session of one game (its positions and its exact solvers' tables, kept
// while the same game and settings are reviewed), the review's report, and the move judge.

import type { PositionReview, Request, ReviewGame } from '../protocol';
import { assertNever } from '../protocol';
import type { ReviewPly, ReviewReport } from '../review/report';
import { send } from './send';
import { MoveJudge, ReviewSession, reviewReport } from './wasm';

/** The requests this file answers. */
export type ReviewRequest = Extract<Request, { type: 'reviewPosition' | 'reviewReport' | 'judgeMove' }>;

/** The move judge of this worker (its exact solvers' tables kept from one judgement to the next),
 * made on the first `judgeMove`. */
let judge: MoveJudge | null = null;

/** The game under review in this worker (its positions and its solvers' tables), by its key. */
let reviewing: { key: string; session: ReviewSession } | null = null;

/** Answers a review request. */
export function handleReview(req: ReviewRequest): void {
  switch (req.type) {
    case 'reviewPosition': {
      const result = reviewSession(req).reviewPosition(req.index) as PositionReview;
      send({ type: 'reviewedPosition', id: req.id, result });
      return;
    }
    case 'reviewReport':
      send({ type: 'reviewReport', id: req.id, report: reviewReport(req.spec, req.moves, req.settings, req.results) as ReviewReport });
      return;
    case 'judgeMove': {
      judge ??= new MoveJudge();
      const ply = judge.judge(req.spec, req.moves, req.move, req.settings) as ReviewPly;
      send({ type: 'judgedMove', id: req.id, ply });
      return;
    }
    default:
      assertNever(req);
  }
}

/** The review session of `g`: the one kept when the game and settings are the same, else a new one. */
function reviewSession(g: ReviewGame): ReviewSession {
  const key = JSON.stringify([g.spec, g.moves, g.settings]);
  if (reviewing?.key !== key) {
    const session = new ReviewSession(g.spec, g.moves, g.settings);
    reviewing?.session.free();
    reviewing = { key, session };
  }
  return reviewing.session;
}
