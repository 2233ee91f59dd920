// The network presets in the browser: AlphaZero plays a whole Tic-Tac-Toe game against itself in
// the worker (the net is embedded in the wasm); on Pentago, which has no net, the page falls back
// to a net-free preset with a message and the engine still moves (the worker stays alive). An
// AlphaZero search runs no playouts: the page counts its evaluations and names its leaf value.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, snapshot, waitForPly, waitIdle, clickCell, assertClean, screenshot } from './harness.mjs';

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

test('alphazero is described in its own words: evaluations and the value head, no playouts', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=engine&preset=alphazero&playouts=200');
  await boardReady(page);
  await clickCell(page, 'b2');
  await waitForPly(page, 2);
  await waitIdle(page);
  // The engine readout, the search behind its move and its internals.
  assert.match(await page.textContent('#thinking'), /200 evaluations · /);
  await page.waitForFunction(() => document.querySelector('#an-status').dataset.behind === '2');
  const status = await page.textContent('#an-status');
  assert.match(status, /Search behind move 2 \(\w\d\), 200 evaluations, alphazero/);
  assert.doesNotMatch(status, /playouts/);
  await page.waitForFunction(() => document.querySelector('#internals .leaf-eval') !== null);
  const internals = await page.textContent('#internals');
  assert.match(internals, /Leaf evaluation: the network’s value head v — no playouts/);
  assert.doesNotMatch(internals, /Playout policy/);
  assertClean(assert, page);
});
