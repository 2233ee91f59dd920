// Root-parallel search in the page (www/src/parallel.ts): with Engine workers = 2 the
// engine's move comes from two workers searching the position with seeds s and s + 1, each for
// half the playout budget, their root statistics merged. Checked: the merged playouts are the sum
// of the workers' (and the budget), the move is legal and is the move of the native root-parallel
// search of the same position (`mcts search --threads 2`, the same merge in Rust), and Workers = 1
// is today's search. Waits for states, never for time. Screenshots of the setting at 1280×800 and
// 390×844, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setup, boardReady, clickCell, moves, waitForPly, waitIdle, assertClean, screenshot, ROOT } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

const BUDGET = 20000;
const QUERY = `?game=hex:7&p0=person&p1=engine&preset=uct&playouts=${BUDGET}&seed=5`;

/** The native root-parallel search of hex:7 after d4 (null when the CLI is not built). */
function nativeBest(threads) {
  for (const profile of ['release', 'debug']) {
    const bin = join(ROOT, 'target', profile, 'mcts');
    if (!existsSync(bin)) continue;
    const args = [
      'search',
      '--game',
      'hex:7',
      '--moves',
      'd4',
      '--algo',
      'uct',
      '--iterations',
      String(BUDGET),
      '--seed',
      '5',
      '--threads',
      String(threads),
      '--json',
    ];
    return JSON.parse(execFileSync(bin, args, { encoding: 'utf8' })).best_move;
  }
  return null;
}

test('parallel: Engine workers = 2 merges two searches; playouts add up; the move is legal and as native', async () => {
  const page = await h.openPage(QUERY);
  await boardReady(page);
  const choices = await page.$$eval('#workers option', (os) => os.map((o) => o.value));
  assert.equal(choices[0], '1', 'Workers 1 (off) is the first choice');
  assert.equal(await page.inputValue('#workers'), '1', 'off by default');
  if (!choices.includes('2')) {
    // A one-core machine offers Workers 1 only: nothing more to check here.
    return;
  }
  await page.selectOption('#workers', '2');
  const legalBefore = await page.evaluate(() => window.__playground.snapshot().legal);
  await clickCell(page, 'd4');
  await waitForPly(page, 2);
  await waitIdle(page);
  const workers = (await page.getAttribute('#thinking', 'data-workers')).split(',').map(Number);
  assert.equal(workers.length, 2, `two workers' playouts: ${workers}`);
  const playouts = Number(await page.getAttribute('#thinking', 'data-playouts'));
  assert.equal(playouts, workers[0] + workers[1], 'merged playouts = the sum of the workers');
  assert.deepEqual(workers, [BUDGET / 2, BUDGET / 2], 'each worker ran its share of the budget');
  const played = (await moves(page))[1];
  assert.ok(legalBefore.includes(played) && played !== 'd4', `the engine's move ${played} was legal`);
  assert.match(await page.textContent('#workers-note'), /2 workers merged/);
  const native = nativeBest(2);
  if (native !== null) assert.equal(played, native, 'the same move as `mcts search --threads 2`');
  assertClean(assert, page);
  for (const [w, hgt] of [
    [1280, 800],
    [390, 844],
  ]) {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: w, height: hgt });
      await page.locator('#workers').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ROOT, 'tests', 'browser', 'screenshots', `parallel-workers-${w}-${scheme}.png`) });
    }
  }
  await screenshot(page, 'parallel-workers-full');
});

test('parallel: Engine workers = 1 is the one-worker search (no merge)', async () => {
  const page = await h.openPage(QUERY);
  await boardReady(page);
  await clickCell(page, 'd4');
  await waitForPly(page, 2);
  await waitIdle(page);
  assert.equal(await page.getAttribute('#thinking', 'data-workers'), '');
  assert.equal(await page.getAttribute('#thinking', 'data-playouts'), String(BUDGET));
  const native = nativeBest(1);
  if (native !== null) assert.equal((await moves(page))[1], native, 'the same move as `mcts search` on one thread');
  assert.equal(await page.$('#workers-note'), null);
  assertClean(assert, page);
});

test("parallel: the merge's report is `mcts search --threads 2 --json`'s, built by the engine in the worker", async () => {
  const bin = ['release', 'debug'].map((p) => join(ROOT, 'target', p, 'mcts')).find((b) => existsSync(b));
  assert.ok(bin, 'the mcts command line is built (cargo build --bin mcts)');
  const cli = (args) =>
    JSON.parse(execFileSync(bin, ['search', '--game', 'hex:5', '--moves', 'c3', '--algo', 'uct', ...args, '--json'], { encoding: 'utf8' }));
  // The two workers' searches of `--threads 2` (seeds 5 and 6, half the iterations and half the
  // memory cap each), as the page's helpers run them; the worker merges them (`mergeStats`).
  const parts = [5, 6].map((seed) => cli(['--iterations', '150', '--seed', String(seed), '--set', 'memory_cap_mib=1024']));
  const expected = cli(['--iterations', '300', '--seed', '5', '--threads', '2']);
  const page = await h.openPage('?game=hex:5&moves=c3&p0=person&p1=person');
  await boardReady(page);
  const r = await page.evaluate(
    (p) => window.__playground.raw({ id: 1_900_000_000, type: 'mergeStats', parts: p, engine: { preset: 'uct', params: { seed: '5' } } }),
    parts,
  );
  assert.equal(r.type, 'merged', JSON.stringify(r).slice(0, 300));
  const TIMING = new Set(['elapsed_ms', 'iterations_per_s']);
  const strip = (v) =>
    Array.isArray(v)
      ? v.map(strip)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => !TIMING.has(k))
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;
  assert.deepEqual(Object.keys(r.report).sort(), Object.keys(expected).sort());
  assert.equal(r.report.threads, 2);
  assert.deepEqual(strip(r.report), strip(expected), 'the same report as the command line');
  assert.equal(r.report.best_move, r.stats.best_move);
  assertClean(assert, page);
});
