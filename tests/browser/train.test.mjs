// The Train view: AlphaZero self-play training of Tic-Tac-Toe in the page. The training package
// (pkg-train, burn inside) is fetched only when Start is pressed, never by the page's first load
// or a search worker; a tiny run (2 iterations of 4 games) finishes with its charts and one
// W/D/L row per iteration against perfect play; "Play this net" sends the weights to the play
// worker and the engine answers a move with them; Pause / Resume / Reset; settings out of range
// are named. Every wait is for a state the page sets (data-state, data-iteration), never for time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup, assertClean, screenshot, teachReady, clickCell, waitForPly, snapshot, ROOT } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** The built files of the training package: its JavaScript glue (the only chunk with the
 * `TrainSession` class's wasm-bindgen glue) and the wasm file that glue loads. */
function trainFiles() {
  const dir = join(ROOT, 'www', 'dist', 'assets');
  const glue = readdirSync(dir).filter((f) => f.endsWith('.js') && readFileSync(join(dir, f), 'utf8').includes('trainsession_free'));
  assert.equal(glue.length, 1, `one training glue chunk, found ${glue.join(', ')}`);
  const wasm = readFileSync(join(dir, glue[0]), 'utf8').match(/[\w.-]+\.wasm/g) ?? [];
  assert.equal(new Set(wasm).size, 1, `the glue loads one wasm file: ${wasm.join(', ')}`);
  return [glue[0], wasm[0]];
}

/** Opens the Train view; `requests()` gives the paths the test's server has served since (the
 * page's and its workers' requests, counted at the server: DevTools may report a worker's
 * request late or not at all). */
async function openTrain(opts) {
  const mark = h.served.length;
  const page = await h.openPage('?game=tictactoe&view=train', opts);
  await teachReady(page);
  await page.waitForSelector('#tr-start');
  await page.waitForFunction(() => window.__playground.snapshot() !== null);
  return { page, requests: () => h.servedSince(mark, /./) };
}

const fetched = (requests, files) => files.filter((f) => requests.some((u) => u.endsWith(`/${f}`)));

async function fill(page, settings) {
  for (const [k, v] of Object.entries(settings)) await page.fill(`#tr-${k}`, String(v));
}

test('train: the training package loads only on Start; a tiny run charts 2 iterations; Play this net plays', async () => {
  const files = trainFiles();
  const { page, requests } = await openTrain({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  assert.equal(await page.locator('#train').isVisible(), true);
  // The page and its search worker have loaded (the engine answered): nothing of training yet.
  assert.deepEqual(fetched(requests(), files), [], 'no training file before Start');
  assert.ok(
    requests().some((u) => u.endsWith('.wasm')),
    'the search engine wasm was loaded',
  );

  await fill(page, { iterations: 2, games: 4, playouts: 8, steps: 10, lr: '0.002', seed: 3 });
  await page.click('#tr-start');
  await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'done');
  assert.deepEqual(fetched(requests(), files).sort(), [...files].sort(), 'the training files were loaded at Start');
  const data = await page.evaluate(() => ({ ...document.querySelector('#train').dataset }));
  assert.equal(data.iteration, '2');
  assert.equal(data.games, '8');
  assert.equal(await page.textContent('#tr-games-played'), '8');
  assert.match(await page.textContent('#tr-status'), /Done: 2 iterations, 8 self-play games/);
  // Two charts (loss; W/D/L against perfect play) and one row per iteration, newest first.
  assert.equal(await page.locator('#train .uplot').count(), 2);
  const rows = await page.$$eval('#tr-iterations tbody tr', (trs) =>
    trs.map((tr) => ({ it: tr.dataset.iteration, cells: [...tr.children].map((td) => td.textContent) })),
  );
  assert.deepEqual(
    rows.map((r) => r.it),
    ['2', '1'],
  );
  for (const r of rows) {
    // raw W/D/L (total, as X, as O) and the search's: 20 games, 10 per colour, perfect play never loses.
    const [total, asX, asO, search] = [r.cells[5], r.cells[6], r.cells[7], r.cells[8]].map((t) => t.split('/').map(Number));
    assert.equal(
      total.reduce((a, b) => a + b),
      20,
      `raw total ${r.cells[5]}`,
    );
    assert.equal(
      asX.reduce((a, b) => a + b),
      10,
    );
    assert.equal(
      asO.reduce((a, b) => a + b),
      10,
    );
    assert.equal(
      search.reduce((a, b) => a + b),
      20,
    );
    assert.equal(total[0], 0, 'nobody beats perfect play');
    assert.ok(Number(r.cells[2]) > 0 && Number(r.cells[3]) >= 0, `losses ${r.cells[2]} ${r.cells[3]}`);
  }
  await screenshot(page, 'train-done-1280-light');

  // Download the net: a .mctsnet file that the command line plays (`--net`).
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#tr-save')]);
  assert.equal(dl.suggestedFilename(), 'tictactoe-iter-2.mctsnet');
  const file = join(mkdtempSync(join(tmpdir(), 'mcts-net-')), dl.suggestedFilename());
  copyFileSync(await dl.path(), file);
  execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });
  const cli = JSON.parse(
    execFileSync(
      join(ROOT, 'target', 'release', 'mcts'),
      ['search', '--game', 'tictactoe', '--moves', 'b2', '--algo', 'alphazero', '--net', file, '--iterations', '50', '--json'],
      { encoding: 'utf8' },
    ),
  );
  assert.equal(cli.iterations, 50);
  assert.ok(cli.best_move, 'the command line searched with the downloaded net');
  assert.match(
    await page.textContent('#tr-status'),
    /Saved tictactoe-iter-2\.mctsnet \([\d,]+ bytes\): mcts search --game tictactoe --algo alphazero --net tictactoe-iter-2\.mctsnet/,
  );

  // Play this net: the weights go to the play worker; the engine (O, alphazero) answers X's move.
  await page.click('#tr-play');
  await page.waitForFunction(() => document.body.dataset.view === 'play');
  assert.match(await page.textContent('#message'), /freshly trained in the Train view/);
  assert.equal(await page.inputValue('#preset-1'), 'alphazero');
  // The Players box names the net trained here, not the shipped one.
  assert.equal(await page.getAttribute('#net-status', 'data-net'), 'user');
  assert.match(await page.textContent('#net-status'), /trained here: 2 iterations, 8 self-play games/);
  await page.waitForFunction(() => window.__playground.snapshot()?.view.spec === 'tictactoe');
  await clickCell(page, 'b2');
  await waitForPly(page, 2);
  const snap = await snapshot(page);
  assert.equal(snap.moves[0], 'b2');
  assert.equal(snap.moves.length, 2);
  await screenshot(page, 'train-play-net');
  assertClean(assert, page);
});

test('train: Pause, Resume and Reset; settings out of range are named; search workers refuse training', async () => {
  const { page } = await openTrain({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  await fill(page, { games: '0', lr: 'fast' });
  await page.click('#tr-start');
  await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'invalid');
  const status = await page.textContent('#tr-status');
  assert.match(status, /games per iteration=0: expected a whole number from 1 to 2,000/);
  assert.match(status, /learning rate=fast/);

  await fill(page, { iterations: 200, games: 2, playouts: 4, steps: 5, lr: '0.002', seed: 1 });
  await page.click('#tr-start');
  await page.waitForFunction(() => Number(document.querySelector('#train').dataset.iteration) >= 1);
  await page.click('#tr-pause');
  await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'paused');
  assert.equal(await page.textContent('#tr-pause'), 'Resume');
  const pausedAt = Number(await page.getAttribute('#train', 'data-iteration'));
  await page.click('#tr-pause');
  await page.waitForFunction((k) => Number(document.querySelector('#train').dataset.iteration) > k, pausedAt);
  await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'running');
  await screenshot(page, 'train-running-390-dark');
  await page.click('#tr-reset');
  await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'idle');
  assert.equal(await page.locator('#tr-iterations tbody tr').count(), 0);
  assert.equal(await page.locator('#train .uplot').count(), 0);
  assert.equal(await page.isDisabled('#tr-play'), true);

  // The play view's search worker answers training requests with an error, never loading them.
  const r = await page.evaluate(() => window.__playground.raw({ id: 999_999, type: 'trainStart', settings: {} }));
  assert.equal(r.type, 'error');
  assert.match(r.message, /goes to the training worker/);
  assertClean(assert, page);
});

test('train: exact targets label every self-play row and the table shows how many', async () => {
  for (const [name, viewport, colorScheme] of [
    ['train-exact-1280-light', { width: 1280, height: 800 }, 'light'],
    ['train-exact-390-dark', { width: 390, height: 844 }, 'dark'],
  ]) {
    const { page } = await openTrain({ viewport, colorScheme });
    assert.equal(await page.isChecked('#tr-exact'), false, 'off by default');
    assert.match(await page.textContent('#tr-exact-note'), /perfect-play value/);
    await fill(page, { iterations: 2, games: 3, playouts: 8, steps: 5, mix: '0.5' });
    await page.check('#tr-exact');
    await page.click('#tr-start');
    await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'done');
    const head = await page.$$eval('#tr-iterations thead th', (ths) => ths.map((th) => th.textContent));
    assert.equal(head.at(-1), 'exact-labelled rows');
    const cells = await page.$$eval('#tr-iterations tbody td[data-k="exact"]', (tds) => tds.map((td) => td.textContent));
    assert.equal(cells.length, 2, 'one row per iteration');
    for (const c of cells) {
      // Tic-Tac-Toe: the solver settles every position, so every row given to it is labelled.
      const m = c.match(/^(\d+) of (\d+)$/);
      assert.ok(m && Number(m[1]) > 0 && m[1] === m[2], `labelled rows: ${c}`);
    }
    await screenshot(page, name);
    assertClean(assert, page);
    await page.context().close();
  }
});

test('train: screenshots of a finished tiny run at 1280×800 dark and 390×844 light', async () => {
  for (const [name, viewport, colorScheme] of [
    ['train-done-1280-dark', { width: 1280, height: 800 }, 'dark'],
    ['train-done-390-light', { width: 390, height: 844 }, 'light'],
  ]) {
    const { page } = await openTrain({ viewport, colorScheme });
    await fill(page, { iterations: 3, games: 2, playouts: 8, steps: 5 });
    await page.click('#tr-start');
    await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'done');
    assert.equal(await page.locator('#tr-iterations tbody tr').count(), 3);
    await screenshot(page, name);
    assertClean(assert, page);
    await page.context().close();
  }
});
