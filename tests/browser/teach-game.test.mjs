// The teaching game (issue 49, item 7; KaTrain's teaching mode): Tic-Tac-Toe against the engine
// (every position solved exactly), Teaching on. After X's centre, O's edge (a2) throws the draw
// away: the notice says so (drawn → lost, ??✗) while the engine waits; Take back (by keyboard)
// returns to the position before it (the board's cells, the move list); Keep playing lets the
// engine reply. A good move (a corner) gets no notice and the engine replies; with Teaching off
// nothing is judged and no judging worker starts. The URL keeps the level (`teach=`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  setup,
  boardReady,
  teachReady,
  moves,
  snapshot,
  waitForPly,
  waitPersonTurn,
  clickCell,
  assertClean,
  screenshot,
  buildNative,
  native,
} from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** X (the engine) has played the centre; O (the person) to move; the engine replies in 100 playouts. */
const START = '?game=tictactoe&moves=b2&p0=engine&p1=person&playouts=100&seed=1';

const dataset = (page, k) => page.evaluate((key) => document.body.dataset[key] ?? '', k);
const filled = (page) =>
  page.evaluate(() =>
    window.__playground
      .snapshot()
      .view.cells.map((c, i) => (c === null || c === undefined || c === -1 ? '' : `${i}:${c}`))
      .filter(Boolean),
  );

async function open(query, viewport) {
  const page = await h.openPage(query, viewport ? { viewport } : undefined);
  await boardReady(page);
  await teachReady(page);
  await waitPersonTurn(page, 1);
  return page;
}

test('a losing move is pointed out at once; Take back returns to the position before it; Keep playing lets the engine reply', async () => {
  const page = await open(`${START}&teach=mistake`);
  assert.equal(await page.inputValue('#teach-level'), 'mistake');
  assert.match(await page.evaluate(() => location.search), /[?&]teach=mistake(&|$)/);
  const before = await filled(page);
  assert.deepEqual(await moves(page), ['b2']);

  await clickCell(page, 'a2');
  await page.waitForSelector('#teach-notice:not([hidden])');
  // The engine waits for the person's choice: O's move is the last, X has not replied.
  assert.deepEqual(await moves(page), ['b2', 'a2']);
  assert.equal(await dataset(page, 'teaching'), 'notice');
  assert.equal(await dataset(page, 'thinking'), '');
  assert.equal(await page.getAttribute('#teach-notice', 'role'), 'alert');
  assert.equal(await page.getAttribute('#teach-notice', 'data-label'), 'drawn → lost');
  const text = await page.textContent('#teach-notice');
  assert.match(text, /a2\?\?✗ — Blunder \(drawn → lost, proven\)\./);
  assert.match(text, /O’s win rate 50\.0% → 0\.0% \(−50 points\)\./);
  assert.match(text, /Best was (a1|a3|c1|c3) \(keeps the draw, proven\)\./);
  assert.match(await page.textContent('#status'), /your move was pointed out/);
  await screenshot(page, 'teach-game-notice-1280');

  // Take back by keyboard: from the board, Tab reaches the notice's first button.
  await page.focus('#board');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'teach-take-back');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.ply === '1' && document.body.dataset.teaching === 'none');
  assert.equal(await page.isHidden('#teach-notice'), true);
  assert.deepEqual(await moves(page), ['b2']);
  assert.deepEqual(await filled(page), before, 'the board is back to the position before the move');
  assert.equal((await snapshot(page)).view.to_move, 1, 'the person is to move again');
  assert.ok((await snapshot(page)).legal.includes('a2'));

  // The same move again, and Keep playing: the engine replies.
  await clickCell(page, 'a2');
  await page.waitForSelector('#teach-notice:not([hidden])');
  await page.click('#teach-keep');
  await waitForPly(page, 3);
  await waitPersonTurn(page, 1);
  assert.equal(await page.isHidden('#teach-notice'), true);
  assert.deepEqual((await moves(page)).slice(0, 2), ['b2', 'a2']);
  assert.equal(await dataset(page, 'judgements'), '2');
  assertClean(assert, page);
});

test('a good move gets no notice and the engine replies; teaching off judges nothing', async () => {
  const page = await open(`${START}&teach=inaccuracy`);
  await clickCell(page, 'a1');
  await waitForPly(page, 3);
  await waitPersonTurn(page, 1);
  assert.equal(await dataset(page, 'judgements'), '1', 'the move was judged');
  assert.equal(await page.isHidden('#teach-notice'), true);
  assert.equal(await dataset(page, 'teaching'), 'none');
  assert.equal(await dataset(page, 'judgeWorker'), 'alive', 'the judging worker is kept while teaching is on');
  // Switched off: the worker ends and the URL drops the parameter.
  await page.selectOption('#teach-level', 'off');
  await page.waitForFunction(() => document.body.dataset.judgeWorker === 'none' && !location.search.includes('teach='));
  assertClean(assert, page);

  const off = await open(START);
  assert.equal(await off.inputValue('#teach-level'), 'off');
  await clickCell(off, 'a2');
  await waitForPly(off, 3);
  await waitPersonTurn(off, 1);
  assert.equal(await dataset(off, 'judgements'), '0', 'nothing judged with teaching off');
  assert.equal(await dataset(off, 'judgeWorker'), 'none');
  assert.equal(await off.isHidden('#teach-notice'), true);
  assertClean(assert, off);
});

test('the notice on a phone: inside the width, buttons reachable', async () => {
  const page = await open(`${START}&teach=blunder`, { width: 390, height: 844 });
  await clickCell(page, 'c2');
  await page.waitForSelector('#teach-notice:not([hidden])');
  const box = await page.locator('#teach-notice').boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the notice fits the phone's width: ${JSON.stringify(box)}`);
  for (const id of ['#teach-take-back', '#teach-keep']) {
    const b = await page.locator(id).boundingBox();
    assert.ok(b && b.x >= 0 && b.x + b.width <= 390 && b.height >= 36, `${id}: ${JSON.stringify(b)}`);
  }
  await screenshot(page, 'teach-game-notice-390');
  await page.click('#teach-take-back');
  await page.waitForFunction(() => document.body.dataset.ply === '1' && document.body.dataset.teaching === 'none');
  assertClean(assert, page);
});

/** Numbers to 1e-12 relative (the accuracy's exp() is the wasm build's libm in the page and the
 * system's natively, as tests/browser/review.test.mjs), everything else exactly. */
function assertSame(got, want, path = 'ply') {
  if (typeof want === 'number' && typeof got === 'number') {
    assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${path}: ${got} against ${want}`);
    return;
  }
  if (want === null || typeof want !== 'object') return assert.equal(got, want, path);
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${path}: keys`);
  for (const k of Object.keys(want)) assertSame(got[k], want[k], `${path}.${k}`);
}

test('the judged move is that ply of `mcts review` with the teaching settings (preset, 2,000 playouts, 300 ms solve, seed 0)', async () => {
  buildNative();
  const page = await open(`${START}&teach=mistake`);
  // The review's preset: the engine side's.
  const preset = await page.inputValue('#preset-0');
  await clickCell(page, 'a2');
  await page.waitForSelector('#teach-notice:not([hidden])');
  const hold = await page.evaluate(() => window.__playground.teaching());
  const want = native('review', [
    '--game',
    'tictactoe',
    '--moves',
    'b2 a2',
    '--preset',
    preset,
    '--iterations',
    '2000',
    '--solve-ms',
    '300',
    '--seed',
    '0',
  ]);
  assertSame(hold.ply, want.plies[1]);
  assert.equal(hold.ply.iterations, 2000);
  assertClean(assert, page);
});
