// The exact Hex solver in the page ("truth where the search is shown"): the analysis
// section's Solve control marks each root move with its exact value for the side to move (the
// board overlay `exact`, hotkey X, and a column of the root-move table), equal to
// `mcts solve --openings`; Stop ends a long solve with the page responsive; the control says why
// it is off on boards the solver does not take; a new position clears the marks; the worker's
// `solve` request answers bad input with a sentence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, assertClean, screenshot, clickCell, waitForPly, nativeOpenings } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** The overlay's exact marks: cell name → 'win' | 'loss' | 'open'. */
async function boardMarks(page) {
  const cols = await page.evaluate(() => window.__playground.snapshot().view.cols);
  const byCell = await page.$$eval('.viz-overlay [data-ov-cell]', (gs) =>
    gs.filter((g) => g.dataset.exact).map((g) => [Number(g.dataset.ovCell), g.dataset.exact]),
  );
  return Object.fromEntries(byCell.map(([i, v]) => [`${String.fromCharCode(97 + (i % cols))}${Math.floor(i / cols) + 1}`, v]));
}

const solveState = (page) => page.getAttribute('#solve-status', 'data-state');
const waitState = (page, s) => page.waitForFunction((x) => document.getElementById('solve-status').dataset.state === x, s);
const markCount = (page) => page.$$eval('.viz-overlay [data-ov-cell]', (gs) => gs.filter((g) => g.dataset.exact).length);

test('Solve marks every root move with its exact value, as mcts solve --openings; the root-move table too; X toggles; a move clears them', async () => {
  const moves = 'c3 d2 c2 b4';
  const expected = nativeOpenings('hex:5', moves);
  const page = await h.openPage(`?game=hex:5&moves=${moves.replaceAll(' ', ',')}&p0=person&p1=person`);
  await boardReady(page);
  assert.equal(await solveState(page), 'idle');
  assert.equal(await page.isDisabled('#solve-run'), false);
  assert.equal(await page.inputValue('#solve-budget'), '10');
  await page.fill('#solve-budget', '600');
  await page.click('#solve-run');
  await waitState(page, 'proven');
  const legal = await page.evaluate(() => window.__playground.snapshot().legal.length);
  await page.waitForFunction(
    (n) => document.querySelectorAll('.viz-overlay [data-exact="win"], .viz-overlay [data-exact="loss"]').length === n,
    legal,
  );
  assert.deepEqual(await boardMarks(page), expected);
  const wins = Object.values(expected).filter((v) => v === 'win').length;
  assert.ok(wins > 0 && wins < legal, 'the position has winning and losing moves');
  const status = await page.textContent('#solve-status');
  assert.match(status, /^proven: Black wins, e\.g\. [a-e][1-5] — [\d,]+ positions, [\d.]+ s$/);
  const eg = status.match(/e\.g\. ([a-e][1-5])/)[1];
  assert.equal(expected[eg], 'win', 'the winning move named is a win');
  assert.equal(await page.textContent('#solve-run'), 'Solve');
  // The legend says what the badges mean.
  assert.match(await page.textContent('#overlay-legend'), /✓ = Black wins by playing this move/);

  // The root-move table of an analysis of the same position gets an exact column.
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'uct');
  await page.fill('#an-budget', '2000');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await page.waitForFunction(() => document.querySelectorAll('#internals td[data-exact]').length > 0);
  const rows = await page.$$eval('#internals tr[data-move]', (trs) =>
    trs.map((tr) => [tr.dataset.move, tr.querySelector('td[data-exact]')?.dataset.exact]),
  );
  assert.ok(rows.length > 0);
  for (const [m, v] of rows) assert.equal(v, expected[m], `table: ${m}`);
  const heads = await page.$$eval('#internals th', (ths) => ths.map((t) => t.textContent));
  assert.ok(heads.includes('exact'));
  await screenshot(page, 'solve-hex5-marks');

  // Hotkey X hides and shows the marks, like the other overlays.
  await page.locator('#board').focus();
  await page.keyboard.press('x');
  await page.waitForFunction(() => document.getElementById('ov-exact').getAttribute('aria-pressed') === 'false');
  assert.equal(await markCount(page), 0);
  await page.keyboard.press('x');
  await page.waitForFunction(() => document.getElementById('ov-exact').getAttribute('aria-pressed') === 'true');
  assert.equal(await markCount(page), legal);

  // A move makes a new position: the marks and the status go.
  await clickCell(page, 'a1');
  await waitForPly(page, 5);
  await waitState(page, 'idle');
  await page.waitForFunction(() => document.querySelectorAll('.viz-overlay [data-exact]:not([data-exact=""])').length === 0);
  assert.equal(await page.textContent('#solve-status'), '');
  assertClean(assert, page);
});

test('Stop ends a long solve (hex:8): status stopped, moves not yet proven marked ?, the page responsive', async () => {
  // Hex 8×8 from the empty board: far beyond what the solver proves in a minute (all 8×8 openings
  // took CPU-months in 2009), so Stop always finds it running.
  const page = await h.openPage('?game=hex:8&p0=person&p1=person');
  await boardReady(page);
  await page.fill('#solve-budget', '60');
  await page.click('#solve-run');
  // Running: the button is Stop, progress arrives.
  await page.waitForFunction(() => {
    const s = document.getElementById('solve-status');
    return s.dataset.state === 'running' && Number(s.dataset.progress) >= 1;
  });
  assert.equal(await page.textContent('#solve-run'), 'Stop');
  assert.match(await page.textContent('#solve-status'), /^solving… /);
  await page.click('#solve-run');
  await waitState(page, 'stopped');
  assert.match(await page.textContent('#solve-status'), /^stopped: .* — [\d,]+ positions, [\d.]+ s\. Solve again to continue\.$/);
  assert.equal(await page.textContent('#solve-run'), 'Solve');
  // Every one of the 64 moves carries a mark; most are not proven yet.
  await page.waitForFunction(() => document.querySelectorAll('.viz-overlay [data-exact]:not([data-exact=""])').length === 64);
  const marks = await boardMarks(page);
  assert.ok(Object.values(marks).includes('open'));
  await screenshot(page, 'solve-hex8-stopped');
  // Solve again continues the same solve: its table and counters go on from where it stopped.
  const positions = async () => Number((await page.textContent('#solve-status')).match(/— ([\d,]+) positions/)[1].replaceAll(',', ''));
  const before = await positions();
  await page.click('#solve-run');
  await page.waitForFunction(() => {
    const s = document.getElementById('solve-status');
    return s.dataset.state === 'running' && Number(s.dataset.progress) >= 1;
  });
  assert.match(await page.textContent('#solve-status'), /^solving \(continued\)… /);
  await page.click('#solve-run');
  await waitState(page, 'stopped');
  assert.ok((await positions()) >= before, 'the counters went on from the first run');
  // The page answers: a move is played and clears the marks.
  await clickCell(page, 'd4');
  await waitForPly(page, 1);
  await waitState(page, 'idle');
  await page.waitForFunction(() => document.querySelectorAll('.viz-overlay [data-exact]:not([data-exact=""])').length === 0);
  assertClean(assert, page);
});

test('the Solve control is off with its reason on hex:9, hex:5:swap and Tic-Tac-Toe; a bad budget is named', async () => {
  for (const [q, why] of [
    ['?game=hex:9', /Not available: Hex 9×9 is too large for the exact solver \(it takes boards up to 8×8\)/],
    ['?game=hex:5:swap', /Not available: the exact solver does not handle the swap rule/],
    ['?game=tictactoe', /Not available: the exact solver is for Hex/],
  ]) {
    const page = await h.openPage(`${q}&p0=person&p1=person`);
    await boardReady(page);
    await waitState(page, 'unavailable');
    assert.equal(await page.isDisabled('#solve-run'), true, q);
    assert.match(await page.textContent('#solve-status'), why, q);
    assert.match(await page.getAttribute('#solve-run', 'title'), /^Not available: /, q);
    assertClean(assert, page);
  }
  // A budget out of range is named and nothing runs; a good one then solves.
  const page = await h.openPage('?game=hex:4&p0=person&p1=person');
  await boardReady(page);
  await page.fill('#solve-budget', '0');
  await page.click('#solve-run');
  await waitState(page, 'error');
  assert.equal(await page.textContent('#solve-status'), "Solver budget: '0' is not a number of seconds from 1 to 600.");
  assert.equal(await page.textContent('#solve-run'), 'Solve');
  await page.fill('#solve-budget', '600');
  await page.click('#solve-run');
  await waitState(page, 'proven');
  assert.match(await page.textContent('#solve-status'), /^proven: Black wins, e\.g\. /);
  assertClean(assert, page);
});

test('the worker’s solve request: a result for hex:3, sentences for what the solver does not take', async () => {
  const page = await h.openPage('?game=hex:3&p0=person&p1=person');
  await boardReady(page);
  const raw = (m) => page.evaluate((x) => window.__playground.raw(x), m);
  const done = await raw({ type: 'solve', id: 900_000_001, position: { spec: 'hex:3', moves: ['a1'] }, budgetMs: 600_000 });
  assert.equal(done.type, 'solveDone');
  assert.equal(done.result, 'proven');
  assert.equal(done.toMove, 1);
  assert.equal(done.moves.length, 8);
  // White, to move after a1, wins (only) with b2 on 3×3.
  assert.equal(done.rootWins, true);
  assert.equal(done.winningMove, 'b2');
  assert.deepEqual(
    done.moves.filter((m) => m.moverWins).map((m) => m.move),
    ['b2'],
  );
  assert.ok(done.stats.expansions > 0 && done.ttBytes === 64 * 2 ** 20);
  assert.equal(done.continued, false);
  // The same position again: the kept solve, already finished, answers at once with its counters.
  const same = await raw({ type: 'solve', id: 900_000_004, position: { spec: 'hex:3', moves: ['a1'] }, budgetMs: 600_000 });
  assert.equal(same.result, 'proven');
  assert.equal(same.continued, true);
  assert.deepEqual(same.stats, done.stats);
  assert.deepEqual(same.moves, done.moves);
  for (const [position, budgetMs, want] of [
    [{ spec: 'hex:9', moves: [] }, 1000, /the exact solver takes boards up to 8x8; this one is 9x9/],
    [{ spec: 'hex:5:swap', moves: [] }, 1000, /the exact solver does not handle the swap rule/],
    [{ spec: 'tictactoe', moves: [] }, 1000, /the exact solver is for Hex .*this game is 'tictactoe'/],
    [{ spec: 'hex:4', moves: ['z9'] }, 1000, /move 1 \(z9\)/],
    [{ spec: 'hex:4', moves: [] }, -5, /request 'solve': field 'budgetMs' is missing or malformed/],
    [{ spec: 'hex:4' }, 1000, /request 'solve': field 'position' is missing or malformed/],
  ]) {
    const r = await raw({ type: 'solve', id: 900_000_002, position, budgetMs });
    assert.equal(r.type, 'error', JSON.stringify(position));
    assert.match(r.message, want);
  }
  // The worker is fine afterwards.
  const again = await raw({ type: 'solve', id: 900_000_003, position: { spec: 'hex:3', moves: [] }, budgetMs: 600_000 });
  assert.equal(again.type, 'solveDone');
  assert.equal(again.rootWins, true);
  assert.equal(again.continued, false);
  assertClean(assert, page);
});

/** Moves as the review line writes them (overlay/verdict.ts `listMoves`). */
function listMoves(ms, max = 5) {
  if (ms.length <= 1) return ms[0] ?? '';
  if (ms.length > max) return `${ms.slice(0, max).join(', ')} and ${ms.length - max} more`;
  return `${ms.slice(0, -1).join(', ')} and ${ms.at(-1)}`;
}

test('review of a past move: Solve proves the position before it, the review line says whether the move played won (as mcts solve), another position never shows these marks', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person&moves=c3,d2');
  await boardReady(page);
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'uct');
  await page.fill('#an-budget', '500');
  /** Analyse, then play `move`: the analysis is kept as the search behind it (reviewable). */
  const analyseThenPlay = async (move, ply) => {
    await page.click('#an-run');
    await page.waitForFunction(() => document.body.dataset.analysis === 'done');
    await clickCell(page, move);
    await waitForPly(page, ply);
    await page.waitForFunction((n) => document.querySelector(`#moves button[data-ply="${n}"]`), ply);
  };
  // Move 3: Black plays a1, a losing move; move 4: White answers with a winning one.
  const before3 = nativeOpenings('hex:5', 'c3 d2');
  const wins3 = Object.keys(before3).filter((m) => before3[m] === 'win');
  assert.equal(before3.a1, 'loss');
  await analyseThenPlay('a1', 3);
  const before4 = nativeOpenings('hex:5', 'c3 d2 a1');
  const wins4 = Object.keys(before4).filter((m) => before4[m] === 'win');
  const white = wins4[0];
  await analyseThenPlay(white, 4);
  const verdict = () => page.$eval('#review-verdict', (e) => ({ state: e.dataset.verdict, text: e.textContent, hidden: e.hidden }));
  const waitVerdict = (s) => page.waitForFunction((x) => document.getElementById('review-verdict').dataset.verdict === x, s);
  const review = async (n) => {
    await page.click(`#moves button[data-ply="${n}"]`);
    await page.waitForFunction((x) => document.body.dataset.review === String(x), n);
  };

  // Review move 3: nothing solved there yet; the Solve control takes that position.
  await review(3);
  await waitState(page, 'idle');
  assert.deepEqual(await verdict(), {
    state: 'none',
    text: 'Exact solver: Solve (under “Seeing the search”) proves whether a1 was a winning move.',
    hidden: false,
  });
  assert.equal(await markCount(page), 0);
  assert.equal(await page.isDisabled('#solve-run'), false);
  await page.click('#solve-run');
  await waitState(page, 'proven');
  await waitVerdict('loss');
  assert.equal((await verdict()).text, `Exact: a1 was a losing move: ${listMoves(wins3)} would have won.`);
  // The marks are the reviewed position's: every move before move 3, as mcts solve.
  assert.deepEqual(await boardMarks(page), before3);
  assert.match(await page.textContent('#solve-status'), /^Before move 3: proven: Black wins, e\.g\. /);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'solve-review-verdict');

  // Another review step: move 4's position has no solve yet, so no marks and no verdict of move 3's.
  await review(4);
  await waitState(page, 'idle');
  assert.equal((await verdict()).state, 'none');
  assert.equal(await markCount(page), 0);
  await page.click('#solve-run');
  await waitState(page, 'proven');
  await waitVerdict('win');
  assert.equal(
    (await verdict()).text,
    `Exact: ${white} was a winning move for White (${wins4.length} of ${Object.keys(before4).length} moves win).`,
  );
  assert.deepEqual(await boardMarks(page), before4);

  // Back to move 3: its solve is kept by position, so its verdict and marks return at once.
  await review(3);
  await waitVerdict('loss');
  await waitState(page, 'proven');
  assert.deepEqual(await boardMarks(page), before3);

  // Back to live: a position never solved: no marks, no verdict, the control idle.
  await page.click('#live');
  await page.waitForFunction(() => document.body.dataset.review === '');
  await waitState(page, 'idle');
  assert.equal(await markCount(page), 0);
  assert.equal(await page.isHidden('#review-bar'), true);
  assertClean(assert, page);
});
