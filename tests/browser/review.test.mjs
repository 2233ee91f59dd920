// The game review in the page (issue 49, the engine side): "Review game" reviews every position
// of the main line on review workers of its own, and its report equals `mcts review --json` with
// the same preset, playouts, solve budget and seed (every ply's values, classes, best move, line,
// exact values; times apart); a review stopped after some positions and continued equals one run
// straight through, and so does one shared by two workers; the worker answers a bad review
// request with a sentence and lives on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, assertClean, screenshot, buildNative } from './harness.mjs';
import { GAME, MOVES, assertSameReport, figures, nativeReview, reviewState } from './review-common.mjs';

/** A longer game for Stop (one position takes long enough to press Stop after the first): Hex 9×9,
 * which no exact solver takes, so its figures depend on the playouts and the seed alone. */
const LONG = { game: 'hex:9', moves: ['e5', 'd6', 'f4', 'c5', 'd4', 'e3', 'g3', 'f2', 'c7', 'b6', 'h2', 'g1'] };

let h;
before(async () => {
  buildNative();
  h = await setup();
});
after(async () => {
  await h?.close();
});

async function openGame(game = GAME, moves = MOVES, playouts = '2000') {
  const page = await h.openPage(`?game=${game}&moves=${moves.join(',')}&p0=person&p1=person`);
  await boardReady(page);
  await page.waitForFunction((n) => window.__playground.snapshot()?.moves.length === n, moves.length);
  await page.selectOption('#review-playouts', playouts);
  return page;
}

test('the page’s review of a Hex 5×5 game equals mcts review --json with the same settings', async () => {
  const page = await openGame();
  await page.click('#review-run');
  await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished');
  const r = (await reviewState(page)).report;
  assert.equal(r.settings.iterations, 2000);
  assert.equal(r.settings.solve_ms, 1000);
  assert.equal(r.plies.length, MOVES.length);
  const want = nativeReview(r.settings);
  assertSameReport(figures(r), figures(want));
  assert.equal(await page.textContent('#review-status'), `Reviewed: ${MOVES.length + 1} positions`);
  await screenshot(page, 'review-finished');
  assertClean(assert, page);
});

test('a review stopped after some positions and continued equals one run straight through', async () => {
  const page = await openGame(LONG.game, LONG.moves, '50000');
  await page.click('#review-run');
  await page.waitForFunction(() => Number(document.querySelector('#review-status')?.dataset.done) >= 1);
  await page.click('#review-stop');
  await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'stopped');
  const stopped = await reviewState(page);
  assert.ok(stopped.done >= 1 && stopped.done < stopped.total && stopped.report === null);
  assert.equal(await page.textContent('#review-run'), 'Review again');
  await screenshot(page, 'review-stopped');
  await page.click('#review-run');
  await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished');
  const r = (await reviewState(page)).report;
  assert.equal(r.plies.length, LONG.moves.length);
  assertSameReport(figures(r), figures(nativeReview(r.settings, LONG.game, LONG.moves)));
  assertClean(assert, page);
});

test('with Engine workers = 2 the positions are shared and the report is the same', async () => {
  const page = await openGame(LONG.game, LONG.moves, '10000');
  await page.selectOption('#workers', '2');
  await page.click('#review-run');
  await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished');
  const r = (await reviewState(page)).report;
  assertSameReport(figures(r), figures(nativeReview(r.settings, LONG.game, LONG.moves)));
  assertClean(assert, page);
});

test('the review belongs to the main line: Undo keeps it (the tree keeps the line), a new game clears it', async () => {
  const page = await openGame();
  await page.click('#review-run');
  await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished');
  const plies = await page.evaluate(() => window.__playground.gameReview().report.plies.length);
  await page.click('#undo');
  await page.waitForFunction(() => window.__playground.snapshot().moves.length < window.__playground.gameTree().moves.length);
  assert.equal(await page.evaluate(() => window.__playground.gameReview()?.status), 'finished');
  assert.equal(await page.evaluate(() => window.__playground.gameReview().report.plies.length), plies);
  await page.click('#new-game');
  await page.waitForFunction(() => window.__playground.gameReview() === null);
  assert.equal(await page.getAttribute('#review-status', 'data-status'), 'none');
  assertClean(assert, page);
});

test('the worker answers bad review requests with a sentence and lives on', async () => {
  const page = await openGame();
  const raw = (m) => page.evaluate((x) => window.__playground.raw(x), m);
  const settings = { preset: 'uct', iterations: 100, ms: null, solve_ms: 0, seed: 0 };
  const bad = [
    [{ type: 'reviewPosition', id: 900_000_101, spec: 'hex:5', moves: ['c3', 'zz'], settings, index: 0 }, /zz/],
    [{ type: 'reviewPosition', id: 900_000_102, spec: 'hex:5', moves: ['c3'], settings, index: 9 }, /position 9 is not in this game/],
    [{ type: 'reviewPosition', id: 900_000_103, spec: 'hex:5', moves: [], settings: { ...settings, preset: 'nope' }, index: 0 }, /nope/],
    [{ type: 'reviewPosition', id: 900_000_104, spec: 'hex:5', moves: [], settings: { preset: 'uct' }, index: 0 }, /settings/],
    [{ type: 'reviewReport', id: 900_000_105, spec: 'hex:5', moves: ['c3'], settings, results: [] }, /not reviewed yet/],
    [{ type: 'reviewReport', id: 900_000_106, spec: 'hex:5', moves: [], settings, results: [{ index: 0 }] }, /results cannot be read/],
  ];
  for (const [req, re] of bad) {
    const r = await raw(req);
    assert.equal(r.type, 'error', JSON.stringify(r));
    assert.match(r.message, re);
  }
  const ok = await raw({ type: 'reviewPosition', id: 900_000_107, spec: 'hex:5', moves: ['c3'], settings, index: 1 });
  assert.equal(ok.type, 'reviewedPosition');
  assert.equal(ok.result.index, 1);
  assert.equal(ok.result.iterations, 100);
  assertClean(assert, page);
});
