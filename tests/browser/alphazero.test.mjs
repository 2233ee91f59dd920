// The network presets in the browser: AlphaZero plays a whole Tic-Tac-Toe game against itself in
// the worker (the net is embedded in the wasm); on Pentago, which has no net, the page falls back
// to a net-free preset with a message and the engine still moves (the worker stays alive).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, snapshot, waitForPly, assertClean, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('alphazero plays Tic-Tac-Toe against itself to a draw', async () => {
  const page = await h.openPage('?game=tictactoe&p0=engine&p1=engine&preset=alphazero&playouts=200');
  await boardReady(page);
  await page.waitForFunction(() => window.__playground.snapshot()?.outcome != null);
  const snap = await snapshot(page);
  // Perfect play draws; the net's search did not lose to perfect play in training (models/README.md).
  assert.equal(snap.outcome.winner ?? null, null, `a draw expected, got ${JSON.stringify(snap.outcome)}`);
  assert.equal(await page.inputValue('#preset-0'), 'alphazero');
  await screenshot(page, 'alphazero-tictactoe');
  assertClean(assert, page);
});

test('a network preset on Pentago falls back to a net-free preset with a message', async () => {
  const page = await h.openPage('?game=pentago&p0=engine&p1=person&preset=alphazero&playouts=100');
  await boardReady(page);
  await waitForPly(page, 1);
  assert.match(await page.textContent('#message'), /alphazero needs a trained network and none ships for pentago/);
  assert.equal(await page.inputValue('#preset-0'), 'best');
  await screenshot(page, 'alphazero-pentago-fallback');
  assertClean(assert, page);
});
