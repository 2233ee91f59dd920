// Connect Four in the browser (issue 51: a fourth game through the registry): a column by a click
// anywhere in it or by its number key, the disc falling into its cell, a full column refused, four
// in a row ending the game; against the engine; the exact solver's marks on each column's landing
// cell equal to `mcts solve --openings`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  setup,
  boardReady,
  ply,
  moves,
  snapshot,
  waitForPly,
  waitPersonTurn,
  assertClean,
  screenshot,
  nativeOpenings,
} from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** Waits until no disc is falling. */
const settled = (page) => page.waitForFunction(() => !document.querySelector('.disc.falling'));

test('two people: a click anywhere in a column drops the disc to its bottom, keys 1–7, a full column refused, four in a row wins', async () => {
  const page = await h.openPage('?game=connect4&p0=person&p1=person');
  await boardReady(page);
  assert.equal(await page.textContent('#status'), 'Red to move');
  assert.match(await page.textContent('p.help'), /four in a row .* wins\. Click a column, or press its number/);
  assert.equal(await page.inputValue('#game'), 'connect4');
  assert.equal(await page.isHidden('#hex-size'), true, 'no size chooser for Connect Four');
  // A click on the top cell of column a: the disc lands at the bottom (a6, row 6 being the lowest).
  await page.click('[data-cell="a1"]');
  await waitForPly(page, 1);
  let s = await snapshot(page);
  assert.equal(s.view.cells[5 * 7 + 0], 0, 'Red’s disc is on a6');
  assert.deepEqual(s.view.last_cells, [35]);
  assert.equal(await page.textContent('#status'), 'Yellow to move');
  // Keys: 2 plays column b.
  await page.focus('#board');
  await page.keyboard.press('2');
  await waitForPly(page, 2);
  s = await snapshot(page);
  assert.equal(s.view.cells[5 * 7 + 1], 1, 'Yellow’s disc is on b6');
  // Red stacks a, Yellow b: Red's fourth disc in column a wins.
  for (const key of ['1', '2', '1', '2', '1']) {
    const n = await ply(page);
    await page.keyboard.press(key);
    await waitForPly(page, n + 1);
  }
  await settled(page);
  s = await snapshot(page);
  assert.equal(s.outcome?.winner, 0, 'Red won');
  assert.equal(await page.textContent('#status'), 'Game over: Red wins.');
  assert.deepEqual(await moves(page), ['a', 'b', 'a', 'b', 'a', 'b', 'a']);
  assert.equal(await page.locator('.cell.win').count(), 4, 'the four are marked');
  await screenshot(page, 'connect4-win');
  // A full column: six discs in column c, the seventh refused with a sentence, nothing played.
  await page.click('#new-game');
  await page.waitForFunction(() => Number(document.body.dataset.ply) === 0);
  for (let k = 0; k < 6; k++) {
    await page.click('[data-cell="c3"]');
    await waitForPly(page, k + 1);
  }
  await page.click('[data-cell="c1"]');
  await page.waitForSelector('[data-cell="c1"].refused');
  assert.match(await page.textContent('#message'), /c is not a legal move here/);
  assert.equal(await ply(page), 6);
  assertClean(assert, page);
});

test('against the engine: it answers with a column, its disc falls into place; on the phone too', async () => {
  const page = await h.openPage('?game=connect4&p0=person&p1=engine&ms=150', { viewport: { width: 390, height: 844 } });
  await boardReady(page);
  await page.focus('#board');
  await page.keyboard.press('4');
  await waitForPly(page, 2);
  await waitPersonTurn(page, 0);
  await settled(page);
  const s = await snapshot(page);
  const [mine, reply] = await moves(page);
  assert.equal(mine, 'd');
  assert.match(reply, /^[a-g]$/);
  // The engine's disc is where its column's lowest empty cell was.
  const col = reply.charCodeAt(0) - 97;
  const row = reply === 'd' ? 4 : 5;
  assert.equal(s.view.cells[row * 7 + col], 1, `Yellow's disc on ${reply}${row + 1}`);
  // The board is on the phone's first screen, the seven columns inside its width.
  const box = await page.locator('.board-connect4 svg').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, JSON.stringify(box));
  await screenshot(page, 'connect4-phone');
  assertClean(assert, page);
});

test('Solve marks each column’s landing cell with its exact value, as mcts solve --openings (connect4:5x4)', async () => {
  const moves = 'c c';
  const expected = nativeOpenings('connect4:5x4', moves);
  const page = await h.openPage(`?game=connect4:5x4&moves=c,c&p0=person&p1=person`);
  await boardReady(page);
  await page.fill('#solve-budget', '600');
  await page.click('#solve-run');
  await page.waitForFunction(() => document.getElementById('solve-status').dataset.state === 'proven');
  const legal = await page.evaluate(() => window.__playground.snapshot().legal.length);
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('.viz-overlay [data-exact="win"], .viz-overlay [data-exact="draw"], .viz-overlay [data-exact="loss"]')
        .length === n,
    legal,
  );
  // Each mark is on its column's landing cell: the lowest empty cell (column c's is c2 after two discs).
  const view = (await snapshot(page)).view;
  const marks = await page.$$eval('.viz-overlay [data-ov-cell]', (gs) =>
    gs.filter((g) => g.dataset.exact).map((g) => [Number(g.dataset.ovCell), g.dataset.exact]),
  );
  const got = {};
  for (const [cell, v] of marks) {
    const col = cell % view.cols;
    const below = cell + view.cols;
    assert.equal(view.cells[cell], -1, 'on an empty cell');
    assert.ok(below >= view.cells.length || view.cells[below] !== -1, 'on the lowest empty cell of its column');
    got[String.fromCharCode(97 + col)] = v;
  }
  assert.deepEqual(got, expected);
  assert.match(await page.textContent('#solve-status'), /^proven: /);
  await screenshot(page, 'connect4-solved');
  assertClean(assert, page);
});
