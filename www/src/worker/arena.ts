// The arena: one game between two engine settings (played whole in the engine, one request per
// game, so a page runs several workers side by side), and the standings of a set of games.

import type { GameRecord, Request, Standings } from '../protocol';
import { assertNever } from '../protocol';
import { send } from './send';
import { arenaPlayGame, arenaStandings } from './wasm';

/** The requests this file answers. */
export type ArenaRequest = Extract<Request, { type: 'arenaGame' | 'arenaStandings' }>;

/** Answers an arena request. */
export function handleArena(req: ArenaRequest): void {
  switch (req.type) {
    case 'arenaGame': {
      const g = req.game;
      const record = arenaPlayGame(
        g.spec,
        g.a.preset,
        g.a.params,
        g.b.preset,
        g.b.params,
        g.iterations ?? undefined,
        g.millis ?? undefined,
        g.seed,
        g.index,
        g.openings ?? false,
      ) as GameRecord;
      send({ type: 'arenaGame', id: req.id, record });
      return;
    }
    case 'arenaStandings':
      send({ type: 'arenaStandings', id: req.id, standings: arenaStandings(req.records) as Standings });
      return;
    default:
      assertNever(req);
  }
}
