// A registered game's facts by spec string, without the page's renderers: what the worker and
// other DOM-free code may import (index.ts joins them to the page's part of each game).

import { GAME_NAMES, GAMES, type GameFacts, type GameName } from '../generated/schema';

/** The name of the game a `BoardView.kind` or a spec string names (its name or an alias before
 * the first `:`, any case), or null for an unknown one. */
export function gameNameOf(kindOrSpec: string): GameName | null {
  const name = kindOrSpec.trim().toLowerCase().split(':')[0] ?? '';
  return GAME_NAMES.find((n) => n === name || GAMES[n].aliases.includes(name)) ?? null;
}

/** The facts of the game a `BoardView.kind` or a spec string names, or null for an unknown one. */
export function factsOf(kindOrSpec: string): GameFacts | null {
  const name = gameNameOf(kindOrSpec);
  return name === null ? null : GAMES[name];
}
