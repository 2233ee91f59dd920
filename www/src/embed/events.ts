// The embed's events to the host that carry a search or a review (pure: no DOM).
// `searchFinished` is posted for the host's `startSearch` (embed/host.ts) and for each engine
// move the page plays (share/hooks.ts); both build it here, so its fields are the same whichever
// search it was. `reviewFinished` is posted when a game review finishes (Review game, the host's
// `review`, a link's `review=1`).

import type { Player, SearchReportJson, SearchResult } from '../protocol';
import type { ReviewReport } from '../review/report';

/** A network preset that had no usable net: the preset searched instead, and why. */
export interface SearchFallback {
  preset: string;
  message: string;
}

/** The fields of a `searchFinished` event (besides the protocol's `source`, `version`, `type`,
 * `id`, `game`, `moves`): the side that searched, `bestMove`, `winRate` (in [0, 1] for that side,
 * null before any playout), `playouts` (this search's), `proven`, `end`; `report`, the search's
 * report as `mcts search --json` prints it (the engine's own JSON: `best_move`, `pv`, `value`,
 * `iterations`, `children`, `policy`, ...; absent only from an engine older than it); and
 * `fallback` when a network preset fell back to a net-free one. */
export function searchFinishedFields(
  side: Player,
  r: SearchResult,
  report: SearchReportJson | undefined,
  fallback: SearchFallback | null = null,
): Record<string, unknown> {
  return {
    side,
    bestMove: r.move,
    winRate: r.winRate,
    playouts: r.playouts,
    proven: r.proven,
    end: r.end,
    ...(report ? { report } : {}),
    ...(fallback ? { fallback } : {}),
  };
}

/** The fields of a `reviewFinished` event (besides the protocol's `source`, `version`, `type`,
 * `id`, `game`, `moves`): `report`, the game review's report as `mcts review --json` prints it
 * (`settings`; per ply `value_before`, `value_after`, `loss` as the mover's win probability in
 * [0, 1], `class`, `best_move`, `pv`, `exact_before`, `exact_after`; `summary` per player with
 * `accuracy` and the count of each class; `timing`), built in the worker by the engine's
 * `src/report/review.rs`. */
export function reviewFinishedFields(report: ReviewReport): Record<string, unknown> {
  return { report };
}
