// The embed's events to the host that carry a search (pure: no DOM). `searchFinished` is posted
// for the host's `startSearch` (embed/bridge.ts) and for each engine move the page plays
// (share/hooks.ts); both build it here, so its fields are the same whichever search it was.

import type { Player, SearchReportJson, SearchResult } from '../protocol';

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
