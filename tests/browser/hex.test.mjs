// Hex in the browser: the default page, moves through the UI, swap, engine vs engine, Stop,
// responsiveness during a long search, and the load time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, ply, moves, snapshot, waitForPly, waitIdle, clickCell, assertClean, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('default page: Hex 7×7, person (Black) vs engine; moves through the UI', async () => {
  const t0 = Date.now();
  const page = await h.openPage('?ms=300');
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.readyMs !== undefined);
  const readyMs = Number(await page.evaluate(() => document.body.dataset.readyMs));
  console.log(`# navigation to playable board: ${readyMs} ms (page clock), ${Date.now() - t0} ms (test clock)`);
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
  await page.waitForFunction(() => document.body.dataset.over === 'true', null, { timeout: 60000 });
  const snap = await snapshot(page);
  assert.ok(snap.outcome && snap.outcome.winner !== null, 'Hex has a winner');
  assert.ok(snap.view.winning_cells.length >= 4, 'a winning chain is highlighted');
  assert.ok((await page.locator('.cell.win').count()) >= 4);
  assert.match(await page.textContent('#status'), /Game over: (Black|White) wins/);
  await screenshot(page, 'hex-4-engine-vs-engine');
  assertClean(assert, page);
});

test('pause stops engine vs engine; resume continues', async () => {
  const page = await h.openPage('?game=hex:7&p0=engine&p1=engine&ms=150');
  await boardReady(page);
  await waitForPly(page, 2);
  await page.click('#pause');
  const n = await ply(page);
  await page.waitForTimeout(600);
  assert.ok((await ply(page)) <= n + 1, 'no moves while paused');
  assert.equal(await page.textContent('#pause'), 'Resume');
  const m = await ply(page);
  await page.click('#pause');
  await waitForPly(page, m + 1);
  assertClean(assert, page);
});

// One 3-s search window: the long tasks the main thread had while the engine thought.
async function searchWindow() {
  const page = await h.openPage('?game=hex:9&p0=person&p1=engine&ms=60000');
  await boardReady(page);
  await clickCell(page, 'e5');
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  // Observe the main thread from the moment the engine thinks.
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask', buffered: false });
  });
  // While the engine thinks for 3 s the page stays responsive: progress arrives and no task > 50 ms.
  const samples = [];
  for (let i = 0; i < 6; i++) {
    await page.waitForTimeout(500);
    samples.push(Number((await page.getAttribute('#thinking', 'data-playouts')) ?? 0));
  }
  assert.ok(samples.at(-1) > samples[0], `progress grows: ${samples.join(' ')}`);
  const rate = Number(await page.getAttribute('#thinking', 'data-rate'));
  console.log(`# hex:9 best preset: ${rate} playouts/s in Chromium during the search`);
  const longTasks = await page.evaluate(() => window.__longTasks);
  console.log(`# long tasks during the 3-s search: [${longTasks.join(', ')}] ms`);
  return { page, longTasks: longTasks.filter((d) => d > 50) };
}

test('Stop during a long search plays the best move at once; no long tasks during a 3-s search', async () => {
  // A task over 50 ms caused by the page recurs in every window; one caused by another process
  // on a busy machine does not. So a second window is measured when the first had one, and the
  // test fails only when both had.
  let { page, longTasks } = await searchWindow();
  if (longTasks.length > 0) {
    const first = longTasks;
    await page.close();
    ({ page, longTasks } = await searchWindow());
    assert.deepEqual(longTasks, [], `no main-thread task longer than 50 ms (first window: ${first.join(', ')} ms)`);
  }
  // Stop: the engine plays its best move so far at once.
  const t = Date.now();
  await page.click('#stop');
  await waitForPly(page, 2, 2000);
  const took = Date.now() - t;
  console.log(`# Stop → move played in ${took} ms`);
  assert.ok(took < 1000, `Stop played within 1 s (took ${took} ms)`);
  await waitIdle(page);
  assert.match(await page.textContent('#thinking'), /played [a-i]\d \(stopped\)/);
  assertClean(assert, page);
});

test('hint suggests a move; undo against the engine goes back to the person’s turn', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=engine&ms=200');
  await boardReady(page);
  await page.click('#hint');
  await page.waitForFunction(() => /^Hint: [a-e][1-5]/.test(document.getElementById('message').textContent), null, { timeout: 10000 });
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
