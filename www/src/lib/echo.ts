// Inputs quoted in messages, cut to a sentence's length: a record, a spec or a move list may be
// megabytes long, and a message that quotes it whole fills the page (a 1,000,000-move record once
// gave a 3,000,093-character message, a 514,314-pixel block). The engine cuts its own error
// messages the same way (`abbreviate` and `MAX_ECHO_CHARS` in src/limits.rs).

import { count } from './format';

/** Longest quotation of an input in a message, in characters (as the engine's `MAX_ECHO_CHARS`). */
export const MAX_ECHO_CHARS = 200;

/** Longest message the page's message line shows, in characters: a sentence or two around at most
 * a few quotations. */
export const MAX_MESSAGE_CHARS = 1000;

/** `text` whole when it has at most `max` characters (code points), else its first `max / 2` and
 * last `max / 4` characters around ` … (N characters left out) … ` (at most `max` in all, as the
 * engine's `abbreviate`). */
export function abbreviate(text: string, max = MAX_ECHO_CHARS): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = Math.floor(max / 2);
  const tail = Math.floor(max / 4);
  return `${chars.slice(0, head).join('')} … (${chars.length - head - tail} characters left out) … ${chars.slice(-tail).join('')}`;
}

/** A list of moves as a message quotes it: all of them when there are at most 8, else the first five
 * and the last two around `… N more …`; cut to `MAX_ECHO_CHARS` (a single move may be long). */
export function quoteMoves(moves: readonly string[]): string {
  const shown = moves.length <= 8 ? moves : [...moves.slice(0, 5), `… ${count(moves.length - 7)} more …`, ...moves.slice(-2)];
  return abbreviate(shown.join(' '));
}

/** The page's message when a game and moves cannot be loaded: the spec and the moves quoted
 * (abbreviated), then the engine's reason. */
export function cannotLoadMessage(spec: string, moves: readonly string[], reason: string): string {
  return `Cannot load ${abbreviate(spec)}${moves.length ? ` with moves ${quoteMoves(moves)}` : ''}: ${reason}`;
}
