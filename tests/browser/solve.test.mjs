// The exact solver in the page ("truth where the search is shown"): the analysis section's Solve
// control marks each root move with its exact value for the side to move (the board overlay
// `exact`, hotkey X, and a column of the root-move table), equal to `mcts solve --openings` —
// win or loss in Hex, win, draw or loss in Tic-Tac-Toe and Pentago endgames; Stop ends a long
// solve with the page responsive; the control says why it is off on positions the solver does
// not take; a new position clears the marks; the review line judges a past move; the worker's
// `solve` request answers bad input with a sentence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, boardReady, assertClean, screenshot, clickCell, waitForPly, nativeOpenings } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** The overlay's exact marks: cell name → 'win' | 'draw' | 'loss' | 'open'. */
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

test('the Solve control is off with its reason on hex:9, hex:5:swap and Pentago with many empty cells; a bad budget is named', async () => {
  for (const [q, why] of [
    ['?game=hex:9', /Not available: Hex 9×9 is too large for the exact solver \(it takes boards up to 8×8\)/],
    ['?game=hex:5:swap', /Not available: the exact solver does not handle the swap rule/],
    [
      '?game=pentago',
      /Not available: Pentago with 36 empty cells is too large for the exact solver \(it takes positions with at most 16 empty cells: 20 or more stones placed\)/,
    ],
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
  // The table grows on demand within the page's 64 MiB: a 3×3 solve keeps it small.
  assert.ok(done.stats.expansions > 0 && done.ttBytes > 0 && done.ttBytes <= 2 ** 20, `${done.ttBytes} bytes`);
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
    [
      { spec: 'pentago', moves: [] },
      1000,
      /Pentago with 36 empty cells is too large for the exact solver: it takes positions with at most 16 empty cells/,
    ],
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
  assert.equal(again.rootValue, 'win');
  assert.equal(again.solver, 'dfpn');
  assert.equal(again.continued, false);
  // Tic-Tac-Toe goes to the endgame solver: the empty board and every first move are draws.
  const ttt = await raw({ type: 'solve', id: 900_000_005, position: { spec: 'tictactoe', moves: [] }, budgetMs: 600_000 });
  assert.equal(ttt.type, 'solveDone');
  assert.equal(ttt.result, 'proven');
  assert.equal(ttt.solver, 'alphabeta');
  assert.equal(ttt.rootValue, 'draw');
  assert.equal(ttt.rootWins, false);
  assert.equal(ttt.winningMove, null);
  assert.match(ttt.bestMove, /^[a-c][1-3]$/);
  assert.equal(ttt.moves.length, 9);
  assert.ok(ttt.moves.every((m) => m.value === 'draw' && m.moverWins === false));
  assertClean(assert, page);
});

test('Tic-Tac-Toe: Solve marks each move won, drawn or lost, as mcts solve --openings; the table column and the legend too', async () => {
  // X (a1) and O (c3): X to move wins with c1 or a3, draws with b2, c2 or b3, loses with b1 or a2.
  const moves = 'a1 c3';
  const expected = nativeOpenings('tictactoe', moves);
  assert.deepEqual(new Set(Object.values(expected)), new Set(['win', 'draw', 'loss']), 'the position has every value');
  const page = await h.openPage(`?game=tictactoe&moves=${moves.replaceAll(' ', ',')}&p0=person&p1=person`);
  await boardReady(page);
  assert.equal(await solveState(page), 'idle');
  assert.match(await page.getAttribute('#solve-run', 'title'), /won, drawn or lost/);
  await page.click('#solve-run');
  await waitState(page, 'proven');
  await page.waitForFunction(() => document.querySelectorAll('.viz-overlay [data-exact]:not([data-exact=""])').length === 7);
  assert.deepEqual(await boardMarks(page), expected);
  const status = await page.textContent('#solve-status');
  assert.match(status, /^proven: X wins, e\.g\. (c1|a3) — [\d,]+ positions, [\d.]+ s$/);
  // The badges: ✓, = and ✗; the legend says what = means.
  const texts = await page.$$eval('.viz-overlay [data-ov-cell]', (gs) =>
    Object.fromEntries(gs.filter((g) => g.dataset.exact).map((g) => [g.dataset.exact, g.querySelector('.ov-exact-mark').textContent])),
  );
  assert.deepEqual(texts, { win: '✓', draw: '=', loss: '✗' });
  assert.match(await page.textContent('#overlay-legend'), /= = a draw after this move with perfect play by both sides/);
  // The root-move table of an analysis of the same position: its exact column, draws included.
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'uct');
  await page.fill('#an-budget', '2000');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await page.waitForFunction(() => document.querySelectorAll('#internals td[data-exact]').length === 7);
  const rows = await page.$$eval('#internals tr[data-move]', (trs) =>
    trs.map((tr) => [tr.dataset.move, tr.querySelector('td[data-exact]').dataset.exact, tr.querySelector('td[data-exact]').textContent]),
  );
  for (const [m, v, text] of rows) {
    assert.equal(v, expected[m], `table: ${m}`);
    assert.equal(text, { win: '✓ win', draw: '= draw', loss: '✗ loss' }[v], `table: ${m}`);
  }
  await screenshot(page, 'solve-tictactoe-marks');
  assertClean(assert, page);
});

test('Tic-Tac-Toe review: the review line says a past move lost and which move would have drawn (as mcts solve)', async () => {
  // X a1; O's only drawing reply is b2; O plays b1 instead.
  const before2 = nativeOpenings('tictactoe', 'a1');
  assert.deepEqual(
    Object.keys(before2).filter((m) => before2[m] === 'draw'),
    ['b2'],
  );
  assert.equal(before2.b1, 'loss');
  const page = await h.openPage('?game=tictactoe&moves=a1&p0=person&p1=person');
  await boardReady(page);
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'uct');
  await page.fill('#an-budget', '500');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await clickCell(page, 'b1');
  await waitForPly(page, 2);
  await page.waitForFunction(() => document.querySelector('#moves button[data-ply="2"]'));
  await page.click('#moves button[data-ply="2"]');
  await page.waitForFunction(() => document.body.dataset.review === '2');
  await waitState(page, 'idle');
  await page.click('#solve-run');
  await waitState(page, 'proven');
  await page.waitForFunction(() => document.getElementById('review-verdict').dataset.verdict === 'loss');
  assert.equal(await page.textContent('#review-verdict'), 'Exact: b1 was a losing move: b2 would have drawn.');
  assert.match(await page.textContent('#solve-status'), /^Before move 2: proven: a draw with perfect play, e\.g\. b2 — /);
  assert.deepEqual(await boardMarks(page), before2);
  assertClean(assert, page);
});

test('a Pentago endgame: Solve marks each cell with the best value of its twists, as mcts solve --openings', async () => {
  // The first position of the benchmark's file with four empty cells (32 moves: 8 twists each).
  const file = readFileSync(new URL('../data/pentago-endgames.jsonl', import.meta.url), 'utf8');
  const line = file
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((l) => l.empty === 4);
  const expected = nativeOpenings('pentago', line.moves);
  assert.equal(Object.keys(expected).length, 32);
  const rank = { loss: 0, draw: 1, win: 2 };
  const byCell = {};
  for (const [m, v] of Object.entries(expected)) {
    const cell = m.split('-')[0];
    if (!(cell in byCell) || rank[v] > rank[byCell[cell]]) byCell[cell] = v;
  }
  const page = await h.openPage(`?game=pentago&moves=${line.moves.replaceAll(' ', ',')}&p0=person&p1=person`);
  await boardReady(page);
  await waitState(page, 'idle');
  await page.click('#solve-run');
  await waitState(page, 'proven');
  await page.waitForFunction(() => document.querySelectorAll('.viz-overlay [data-exact]:not([data-exact=""])').length === 4);
  assert.deepEqual(await boardMarks(page), byCell);
  const root = Object.values(expected).reduce((a, v) => (rank[v] > rank[a] ? v : a), 'loss');
  const says = { win: /^proven: (Black|White) wins, e\.g\. /, draw: /^proven: a draw with perfect play, e\.g\. /, loss: /every move of/ };
  assert.match(await page.textContent('#solve-status'), says[root]);
  await screenshot(page, 'solve-pentago-endgame');
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
