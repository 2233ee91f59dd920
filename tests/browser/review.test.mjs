// The game review in the page (issue 49, the engine side): "Review game" reviews every position
// of the main line on review workers of its own, and its report equals `mcts review --json` with
// the same preset, playouts, solve budget and seed (every ply's values, classes, best move, line,
// exact values; times apart); a review stopped after some positions and continued equals one run
// straight through, and so does one shared by two workers; the worker answers a bad review
// request with a sentence and lives on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, assertClean, screenshot, buildNative, native } from './harness.mjs';

const GAME = 'hex:5';
const MOVES = ['c3', 'b3', 'b4', 'c2', 'd2', 'a5'];
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

const reviewState = (page) => page.evaluate(() => window.__playground.gameReview());

/** The report without its times (the only part that differs between two runs). */
function figures(r) {
  const { timing: _t, ...rest } = r;
  return rest;
}

/** Asserts two reports' figures equal: every string, class, move, line and count exactly; numbers
 * to 1e-12 relative, because the accuracy's exp() is the wasm build's libm in the page and the
 * system's natively (they differ in the last bit: 32.5942335551914 against 32.594233555191394). */
function assertSameReport(got, want, path = 'report') {
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

/** `mcts review --json` of the game with the page's settings. */
function nativeReview(settings, game = GAME, moves = MOVES) {
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
