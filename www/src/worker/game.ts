// The worker's game: one position with its history (undo/redo), which the searches follow, and
// the fresh games that requests replay from a spec and moves.

import type { Response } from '../protocol';
import { message } from './send';
import { GameSession } from './wasm';

let game: GameSession | null = null;

/** The game, or null before the first `newGame`. */
export function currentGame(): GameSession | null {
  return game;
}

/** The game; throws when there is none yet. */
export function requireGame(): GameSession {
  if (!game) throw new Error('no game: send newGame first');
  return game;
}

/** Makes `g` the game, freeing the one before. */
export function replaceGame(g: GameSession): void {
  game?.free();
  game = g;
}

/** A fresh game of `spec` with `moves` replayed; throws naming the bad move (1-based). */
export function replayed(spec: string, moves: readonly string[]): GameSession {
  const g = new GameSession(spec);
  for (const [i, m] of moves.entries()) {
    try {
      g.play(m);
    } catch (e) {
      g.free();
      throw new Error(`move ${i + 1} (${m}): ${message(e)}`);
    }
  }
  return g;
}

/** The `state` response to request `id`: the game's snapshot. */
export function stateOf(id: number): Response {
  return { type: 'state', id, snapshot: requireGame().snapshot() };
}

/** The engine's spelling of a spec (`hex` → `hex:11`); the spec as given when it does not parse
 * (the request then reports that itself). */
export function normalSpec(spec: string): string {
  try {
    const g = new GameSession(spec);
    const s = g.spec();
    g.free();
    return s;
  } catch {
    return spec;
  }
}
