// Hex in the browser: the default page, moves through the UI, swap, engine vs engine, pause,
// progress during a long search and Stop. (How fast and how smooth: scripts/bench-page.sh.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  setup,
  boardReady,
  ply,
  moves,
  snapshot,
  waitForPly,
  waitIdle,
  clickCell,
  assertClean,
  screenshot,
  workerRoundTrip,
} from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('default page: Hex 7×7, person (Black) vs engine; moves through the UI', async () => {
  const page = await h.openPage('?ms=300');
  await boardReady(page);
  // The page marks the moment the board first became playable (the bench reports the figure).
  await page.waitForFunction(() => document.body.dataset.readyMs !== undefined);
  const snap = await snapshot(page);
  assert.equal(snap.view.spec, 'hex:7');
  assert.equal(await page.locator('[data-index]').count(), 49);
  assert.equal(await page.inputValue('#who-0'), 'person');
  assert.equal(await page.inputValue('#who-1'), 'engine');
  await clickCell(page, 'd4');
  await waitForPly(page, 2);
  await waitIdle(page);
  const ms = await moves(page);
  assert.equal(ms[0], 'd4');
  assert.match(ms[1], /^[a-g][1-7]$/);
  // Keyboard move: the cursor starts at the last clicked cell.
  await page.focus('#board');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const target = (await snapshot(page)).legal.includes('d6') ? 'd6' : null;
  if (target) {
    await page.keyboard.press('Enter');
    await waitForPly(page, 3);
    assert.equal((await moves(page))[2], 'd6');
    await waitIdle(page);
  }
  assert.ok((await page.locator('.edge-p0').count()) === 2 && (await page.locator('.edge-p1').count()) === 2);
  assert.ok((await page.locator('text.coord').count()) >= 4 * 7);
  await screenshot(page, 'hex-7-vs-engine');
  assertClean(assert, page);
});

test('swap rule: White may take Black’s first stone', async () => {
  const page = await h.openPage('?game=hex:5:swap&p0=person&p1=person');
  await boardReady(page);
  await clickCell(page, 'c3');
  await waitForPly(page, 1);
  await page.waitForSelector('#swap:not([hidden])');
  await page.click('#swap');
  await waitForPly(page, 2);
  assert.deepEqual(await moves(page), ['c3', 'swap']);
  assert.equal((await snapshot(page)).legal.includes('swap'), false);
  assertClean(assert, page);
});

test('engine vs engine plays a small Hex game to its end', async () => {
  const page = await h.openPage('?game=hex:4&p0=engine&p1=engine&playouts=400');
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.over === 'true');
  const snap = await snapshot(page);
  assert.ok(snap.outcome && snap.outcome.winner !== null, 'Hex has a winner');
  assert.ok(snap.view.winning_cells.length >= 4, 'a winning chain is highlighted');
  assert.ok((await page.locator('.cell.win').count()) >= 4);
  assert.match(await page.textContent('#status'), /Game over: (Black|White) wins/);
  await screenshot(page, 'hex-4-engine-vs-engine');
  assertClean(assert, page);
});

test('pause stops engine vs engine; resume continues', async () => {
  const page = await h.openPage('?game=hex:9&p0=engine&p1=engine&ms=150');
  await boardReady(page);
  await waitForPly(page, 2);
  // Pressed at once, as an element click: a pointer click waits for its target to hold still,
  // and the panel re-lays itself out with every engine move.
  await page.evaluate(() => document.getElementById('pause').click());
  // The paused state: the button offers Resume, no search runs, the status says so.
  await page.waitForFunction(() => document.getElementById('pause').textContent === 'Resume' && document.body.dataset.thinking === '');
  // A move whose answer was on its way when Pause was pressed may still be shown; after a round
  // trip through the worker every earlier answer has been handled.
  await workerRoundTrip(page);
  const n = await ply(page);
  assert.match(await page.textContent('#status'), /paused/);
  assert.equal(await page.isDisabled('#stop'), true, 'no search to stop');
  // Nothing moves while paused: the worker was asked for nothing that changes the game.
  await workerRoundTrip(page);
  assert.equal(await ply(page), n, 'no moves while paused');
  assert.equal(await page.evaluate(() => document.body.dataset.thinking), '', 'no search while paused');
  await page.click('#pause'); // paused: the page holds still
  await waitForPly(page, n + 1);
  assertClean(assert, page);
});

test('a long search shows growing progress; Stop plays the best move found so far', async () => {
  // A budget far beyond the test: only Stop ends this search.
  const page = await h.openPage('?game=hex:9&p0=person&p1=engine&ms=600000');
  await boardReady(page);
  await clickCell(page, 'e5');
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  // Progress arrives while the engine thinks, and grows.
  const more = (k) => page.waitForFunction((n) => Number(document.getElementById('thinking').dataset.playouts ?? 0) > n, k);
  await more(0);
  const first = Number(await page.getAttribute('#thinking', 'data-playouts'));
  await more(first);
  assert.match(await page.textContent('#thinking'), /thinking…[\s\S]*playouts[\s\S]*best [a-i]\d/);
  // Stop: the engine plays its best move so far, and says it was stopped.
  await page.click('#stop');
  await waitForPly(page, 2);
  await waitIdle(page);
  const text = await page.textContent('#thinking');
  const played = text.match(/played ([a-i]\d) \(stopped\)/);
  assert.ok(played, `the readout says the search was stopped: ${text}`);
  assert.equal((await moves(page))[1], played[1], 'the move played is the one the readout names');
  assert.equal(await page.textContent('#best-move'), played[1], 'the best move of the final report');
  assertClean(assert, page);
});

test('hint suggests a move; undo against the engine goes back to the person’s turn', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&ms=200');
  await boardReady(page);
  await page.click('#hint');
  await page.waitForFunction(() => /^Hint: [a-e][1-5]/.test(document.getElementById('message').textContent));
  const hinted = (await page.textContent('#message')).match(/^Hint: ([a-e][1-5])/)[1];
  assert.equal(await page.locator(`[data-cell="${hinted}"].hint`).count(), 1, 'the hinted cell is marked');
  await clickCell(page, hinted);
  await waitForPly(page, 2);
  await waitIdle(page);
  assert.equal((await moves(page))[0], hinted);
  await page.click('#undo');
  await page.waitForFunction(() => document.body.dataset.ply === '0');
  assert.equal((await snapshot(page)).view.to_move, 0, 'back to Black (the person)');
  assert.deepEqual((await snapshot(page)).redo.length, 2);
  await page.click('#redo');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  assertClean(assert, page);
});
