// What the game review's browser tests share: the page's review state, a report's figures (no
// times), the comparison of two reports, and `mcts review --json` with a report's settings.
import assert from 'node:assert/strict';
import { native } from './harness.mjs';

/** The game reviewed by the review tests: a Hex 5×5 game. */
export const GAME = 'hex:5';
export const MOVES = ['c3', 'b3', 'b4', 'c2', 'd2', 'a5'];

export const reviewState = (page) => page.evaluate(() => window.__playground.gameReview());

/** The report without its times (the only part that differs between two runs). */
export function figures(r) {
  const { timing: _t, ...rest } = r;
  return rest;
}

/** Asserts two reports' figures equal: every string, class, move, line and count exactly; numbers
 * to 1e-12 relative, because the accuracy's exp() is the wasm build's libm in the page and the
 * system's natively (they differ in the last bit: 32.5942335551914 against 32.594233555191394). */
export function assertSameReport(got, want, path = 'report') {
  if (typeof want === 'number' && typeof got === 'number') {
    assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${path}: ${got} against ${want}`);
    return;
  }
  if (want === null || typeof want !== 'object') {
    assert.equal(got, want, path);
    return;
  }
  assert.ok(got !== null && typeof got === 'object', `${path}: ${JSON.stringify(got)}`);
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${path}: keys`);
  for (const k of Object.keys(want)) assertSameReport(got[k], want[k], `${path}.${k}`);
}

/** `mcts review --json` of `moves` of `game` with a report's settings (a playout budget). */
export function nativeReview(settings, game = GAME, moves = MOVES) {
  return native('review', [
    '--game',
    game,
    '--moves',
    moves.join(' '),
    '--preset',
    settings.preset,
    '--iterations',
    String(settings.iterations),
    '--solve-ms',
    String(settings.solve_ms),
    '--seed',
    String(settings.seed),
    '--threads',
    '1',
  ]);
}
