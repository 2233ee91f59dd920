// The networks in the browser: the wasm embeds no weights; the worker fetches models/<file> the
// first time a network preset is used. A missing or corrupt file gives a clear message, the
// side falls back to a net-free preset and the worker stays alive. A user's net (loadNet) plays
// in place of the shipped one, and a corrupt one is refused with the engine's reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  setup,
  boardReady,
  waitForPly,
  assertClean,
  screenshot,
  snapshot,
  workerRoundTrip,
  watchReadsAndPosts,
  readsAndPosts,
  chooseBigFile,
  ROOT,
} from './harness.mjs';

const NET = readFileSync(join(ROOT, 'models', 'tictactoe.mctsnet'));
const NET_URL = '**/models/tictactoe.mctsnet';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** The net files the test's server has served since `mark` (counted at the server: a worker's
 * fetch may reach DevTools late or not at all). */
const netRequests = (mark) => h.servedSince(mark, /\.mctsnet$/);

test('the net is fetched once, from models/ under the page, on first use of a network preset', async () => {
  const mark = h.served.length;
  // Player 1's engine settings come with the page (alphazero, 100 playouts) while a person plays
  // that side: when the engine takes the side, its first move is alphazero's. (Chosen in the
  // form after the engine took the side, its first move could start, and on a loaded machine
  // end, with the default preset.)
  const page = await h.openPage('?game=tictactoe&p0=person&p1=person&preset0=alphazero&playouts0=100');
  await boardReady(page);
  await workerRoundTrip(page);
  assert.deepEqual(netRequests(mark), [], 'no net is loaded before a network preset is used');
  await page.selectOption('#who-0', 'engine');
  assert.equal(await page.inputValue('#preset-0'), 'alphazero');
  assert.equal(await page.inputValue('#budget-0'), '100');
  // The engine's move needed the net: the worker had the file before it, so the server has
  // recorded the request.
  await waitForPly(page, 1);
  await workerRoundTrip(page);
  const seen = netRequests(mark);
  assert.equal(seen.length, 1, `one fetch: ${seen.join(', ')}`);
  assert.equal(seen[0], '/sub/dir/models/tictactoe.mctsnet');
  assert.equal(await page.inputValue('#preset-0'), 'alphazero');
  assert.match(await page.textContent('#preset-0 option[value="alphazero"]'), /alphazero · net$/);
  assertClean(assert, page);
});

for (const [what, fulfil, reason] of [
  ['missing', { status: 404, body: 'not found' }, /could not be loaded \(models\/tictactoe\.mctsnet: HTTP 404\)/],
  [
    'corrupt',
    { status: 200, contentType: 'application/octet-stream', body: corrupt(NET) },
    /could not be loaded \(models\/tictactoe\.mctsnet: weights file corrupt: checksum/,
  ],
]) {
  test(`a ${what} weights file: a clear message, a net-free preset, the worker alive`, async () => {
    const page = await h.openPage('?game=tictactoe&p0=engine&p1=person&preset=alphazero&playouts=100', {
      before: (p) => p.route(NET_URL, (r) => r.fulfill(fulfil)),
    });
    await boardReady(page);
    await waitForPly(page, 1);
    const msg = await page.textContent('#message');
    assert.match(msg, reason);
    assert.match(msg, /alphazero needs the trained network for tictactoe.*playing with best instead/);
    assert.equal(await page.inputValue('#preset-0'), 'best');
    await workerRoundTrip(page);
    await screenshot(page, `nets-${what}-fallback`);
    // The 404 itself is the test's doing; nothing else may fail.
    page.problems.failed = page.problems.failed.filter((f) => !f.includes('tictactoe.mctsnet'));
    assertClean(assert, page, [/404/]);
  });
}

test('a user net replaces the shipped one (no fetch), a corrupt one is refused', async () => {
  const mark = h.served.length;
  const page = await h.openPage('?game=tictactoe&p0=person&p1=person');
  await boardReady(page);
  // A corrupt file: refused with the engine's reason, nothing loaded.
  const bad = await page.evaluate((b) => window.__playground.loadNet(b, 'broken.mctsnet'), [...corrupt(NET)]);
  assert.equal(bad, null);
  assert.match(await page.textContent('#message'), /Could not load the network “broken\.mctsnet”: weights file corrupt: checksum/);
  assert.equal(await page.getAttribute('#net-status', 'data-net'), 'shipped');
  const garbage = await page.evaluate(() => window.__playground.raw({ id: 2_000_000_001, type: 'loadNet', bytes: new ArrayBuffer(3) }));
  assert.deepEqual(garbage, { type: 'error', id: 2_000_000_001, message: 'not a network weights file (bad magic)' });
  // The shipped bytes under another name: the user's net.
  const info = await page.evaluate((b) => window.__playground.loadNet(b, 'mine.mctsnet'), [...NET]);
  assert.equal(info.spec, 'tictactoe');
  assert.equal(info.source, 'user');
  assert.equal(info.parameters, 20234);
  assert.deepEqual(info.layers, [18, 128, 128, 9]);
  assert.match(await page.textContent('#message'), /Your network “mine\.mctsnet” plays tictactoe \(20,234 parameters/);
  assert.equal(await page.getAttribute('#net-status', 'data-net'), 'user');
  assert.match(await page.textContent('#preset-0 option[value="alphazero"]'), /alphazero · your net/);
  await page.selectOption('#who-0', 'engine');
  await page.selectOption('#preset-0', 'alphazero');
  await page.selectOption('#unit-0', 'playouts');
  await page.fill('#budget-0', '100');
  await page.dispatchEvent('#budget-0', 'change');
  await waitForPly(page, 1);
  assert.deepEqual(netRequests(mark), [], 'the user net is used: the shipped file is never fetched');
  // A restarted worker gets the user's net again.
  await page.evaluate(() => window.__playground.killWorker());
  await page.waitForFunction(() => /A new one was started/.test(document.querySelector('#message').textContent));
  await page.selectOption('#who-1', 'engine');
  await page.selectOption('#preset-1', 'alphazero');
  await waitForPly(page, 2);
  assert.deepEqual(netRequests(mark), [], 'the restarted worker has the user net too');
  await screenshot(page, 'nets-user-net');
  assertClean(assert, page);
});

/** A convolutional net (weights format version 2, `docs/nets/hex5-conv-2026-11-30.mctsnet`)
 * through the file input, as a user loads one: described as such, then it plays and analyses
 * Hex 5×5 in the worker, its policy head on the board (P overlay) and its value head beside Q. */
test('a convolutional net loads through “Load network…”, plays and shows its prior and value head', async () => {
  const conv = readFileSync(join(ROOT, 'docs', 'nets', 'hex5-conv-2026-11-30.mctsnet'));
  const mark = h.served.length;
  const page = await h.openPage('?game=hex:5&p0=person&p1=person&overlays=visits,prior');
  await boardReady(page);
  await page.setInputFiles('#load-net', { name: 'conv5.mctsnet', mimeType: 'application/octet-stream', buffer: conv });
  await page.waitForFunction(() => document.querySelector('#net-status').dataset.net === 'user');
  assert.match(
    await page.textContent('#message'),
    /Your network “conv5\.mctsnet” plays hex:5 \([\d,]+ parameters, convolutional, 32 channels × 5 layers\)/,
  );
  // It plays: the engine answers a move with the user's net, the shipped hex:5 file never fetched.
  await page.selectOption('#who-1', 'engine');
  await page.selectOption('#preset-1', 'alphazero');
  await page.selectOption('#unit-1', 'playouts');
  await page.fill('#budget-1', '200');
  await page.dispatchEvent('#budget-1', 'change');
  await page.click('[data-cell="c3"]');
  await waitForPly(page, 2);
  assert.deepEqual(netRequests(mark), [], 'the user net plays: no shipped net is fetched');
  // It analyses: a P label on the empty cells, the value head beside the search's Q.
  await page.selectOption('#who-1', 'person');
  await analyse(page, 'alphazero', 400);
  await page.waitForFunction(() => document.querySelector('#an-status').dataset.valueHead !== '');
  const v = Number(await page.getAttribute('#an-status', 'data-value-head'));
  assert.ok(v >= 0 && v <= 1, `value head ${v}`);
  const labels = await page.$$eval('#board .ov-label', (ts) => ts.map((t) => t.textContent).filter((x) => /P(\d|<)/.test(x)));
  assert.ok(labels.length >= 10, `P labels on the empty cells: ${labels.join(' | ')}`);
  assert.match(
    await page.textContent('.puct-note'),
    /P comes from the network’s policy head \(your network “conv5\.mctsnet”, [\d,]+ parameters\)/,
  );
  await screenshot(page, 'nets-conv-user-net');
  assertClean(assert, page);
});

/** Finding: a network file of any size was read whole before the engine looked at it. */
test('a network file longer than the format can hold is refused by its size, never read', async () => {
  const page = await h.openPage('?game=tictactoe&p0=person&p1=person');
  await boardReady(page);
  await watchReadsAndPosts(page);
  const size = await chooseBigFile(page, '#load-net', { name: 'huge.mctsnet', size: 71_442_530, head: 'MCTSNET\0' });
  await page.waitForFunction(() => /bytes long/.test(document.getElementById('message').textContent));
  const { reads, posts } = await readsAndPosts(page);
  assert.deepEqual(reads, [], 'the file was not read');
  assert.ok(!posts.includes('loadNet'), `nothing was sent to the worker: ${posts}`);
  assert.equal(
    await page.textContent('#message'),
    `Could not load the network “huge.mctsnet”: the weights file is ${size} bytes long; weights files of at most 71442529 bytes are read; nothing was read. The engine keeps the network it had.`,
  );
  assert.equal(await page.getAttribute('#net-status', 'data-net'), 'shipped');
  // A net within the limit still loads through the same input.
  await page.setInputFiles('#load-net', { name: 'mine.mctsnet', mimeType: 'application/octet-stream', buffer: NET });
  await page.waitForFunction(() => document.querySelector('#net-status').dataset.net === 'user');
  await workerRoundTrip(page);
  assertClean(assert, page);
});

/** The file with one weight byte flipped (the CRC-32 no longer matches). */
function corrupt(b) {
  const c = Buffer.from(b);
  c[200] ^= 0xff;
  return c;
}

test('every place a preset runs falls back on a game without a net: hint, analyse, compare, arena', async () => {
  const page = await h.openPage('?game=pentago&p0=person&p1=person&preset0=alphazero&preset1=alphazero');
  await boardReady(page);
  // The preset lists say which presets need a network and that Pentago has none.
  assert.match(await page.textContent('#preset-0 option[value="alphazero"]'), /alphazero · no net for pentago:official/);
  assert.equal(await page.textContent('#preset-0 option[value="uct"]'), 'uct');
  assert.equal(await page.getAttribute('#net-status', 'data-net'), 'none');
  // Hint: the suggestion comes from a net-free preset, and the page says why.
  await page.click('#hint');
  await page.waitForFunction(() => /^Hint: /.test(document.querySelector('#message').textContent));
  assert.match(
    await page.textContent('#message'),
    /^Hint: \S+ .*alphazero needs a trained network and none ships for pentago\S*: playing with best instead/,
  );
  // Analyse.
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'alphazero');
  await page.fill('#an-budget', '300');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  assert.equal(await page.inputValue('#an-preset'), 'best');
  assert.match(
    await page.textContent('#an-status'),
    /alphazero needs a trained network and none ships for pentago\S*: playing with best instead/,
  );
  await workerRoundTrip(page);
  assertClean(assert, page);

  const cmp = await h.openPage('?game=pentago&view=compare');
  await cmp.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await cmp.fill('#cmp-game', 'pentago');
  await cmp.fill('#cmp-budget', '200');
  await cmp.selectOption('#cmp-preset-0', 'alphazero');
  await cmp.selectOption('#cmp-preset-1', 'uct');
  await cmp.click('#cmp-run');
  await cmp.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  assert.equal(await cmp.inputValue('#cmp-preset-0'), 'best');
  assert.equal(await cmp.getAttribute('#cmp-pane-0', 'data-state').catch(() => 'done'), 'done');
  assert.match(
    await cmp.textContent('#compare'),
    /Pane 1: alphazero needs a trained network and none ships for pentago\S*: playing with best instead/,
  );
  assertClean(assert, cmp);

  const ar = await h.openPage('#arena');
  await ar.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await ar.fill('#ar-game', 'pentago');
  await ar.selectOption('#ar-a', 'alphazero');
  await ar.selectOption('#ar-b', 'uct');
  await ar.fill('#ar-games', '2');
  await ar.selectOption('#ar-unit', 'iterations');
  await ar.fill('#ar-budget', '50');
  await ar.fill('#ar-workers', '1');
  await ar.click('#ar-run');
  await ar.waitForFunction(() => document.querySelector('#arena').dataset.state === 'done');
  assert.equal(await ar.inputValue('#ar-a'), 'best');
  assert.equal(await ar.getAttribute('#arena', 'data-fallback'), 'best');
  assert.match(
    await ar.textContent('#arena'),
    /alphazero needs a trained network and none ships for pentago\S*: playing with best instead/,
  );
  assert.equal(await ar.locator('#ar-games-table tbody tr').count(), 2);
  assertClean(assert, ar);
});

/** Analyses the position on the board with `preset` for `playouts` and waits for the end. */
async function analyse(page, preset, playouts) {
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', preset);
  await page.fill('#an-budget', String(playouts));
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
}

for (const [viewport, colorScheme] of [
  [{ width: 1280, height: 800 }, 'light'],
  [{ width: 1280, height: 800 }, 'dark'],
  [{ width: 390, height: 844 }, 'light'],
  [{ width: 390, height: 844 }, 'dark'],
]) {
  test(`what the network thinks: the P overlay, the value head beside Q, PUCT in the internals (${viewport.width}, ${colorScheme})`, async () => {
    const page = await h.openPage('?game=tictactoe&p0=person&p1=engine&preset=alphazero&playouts=200&overlays=visits,prior', {
      viewport,
      colorScheme,
    });
    await boardReady(page);
    await page.click('[data-cell="a1"]');
    await waitForPly(page, 2);
    await analyse(page, 'alphazero', 400);
    // The value head's estimate next to the search's Q, as a win rate for the side to move.
    await page.waitForFunction(() => document.querySelector('#an-status').dataset.valueHead !== '');
    const status = await page.textContent('#an-status');
    assert.match(status, /best \S+ \(\d+\.\d% for X\) · value head \d+\.\d% for X/);
    const v = Number(await page.getAttribute('#an-status', 'data-value-head'));
    assert.ok(v >= 0 && v <= 1);
    // The P overlay: a P label on every empty cell (7 legal moves), shares summing to ~100%.
    const labels = await page.$$eval('#board .ov-label', (ts) => ts.map((t) => t.textContent).filter((x) => /P\d/.test(x)));
    const ps = labels.map((x) => Number((/P(\d+(?:\.\d+)?)%/.exec(x)?.[1] ?? /P<1%/.test(x)) ? 0 : NaN));
    assert.ok(labels.length >= 5 && labels.length <= 7, `P labels: ${labels.join(' | ')}`);
    assert.ok(ps.every((x) => Number.isFinite(x)));
    assert.match(await page.textContent('#overlay-legend'), /P18% = prior P of the move from the network’s policy head/);
    // The internals: P, N, Q and U = c·P·√N/(1+n) per child, with the formula and c.
    const head = await page.$$eval('.internals-table th', (ths) => ths.map((t) => t.textContent));
    for (const col of ['N', 'win rate', 'Q (raw)', 'P', 'U = c·P·√N/(1+n)', 'Q + U'])
      assert.ok(head.includes(col), `column ${col}: ${head}`);
    const note = await page.textContent('.puct-note');
    assert.match(note, /score = Q \+ U, {2}U = c·P·√N \/ \(1 \+ n\)/);
    assert.match(note, /c = 1\.25, N = [\d,]+ root visits/);
    assert.match(note, /P comes from the network’s policy head \(tictactoe\.mctsnet, 20,234 parameters\)/);
    assert.match(note, /Value head at this position: \d+\.\d% for the side to move/);
    // U as the page shows it is the engine's c·P·√N/(1+n) for every row.
    const rows = await page.$$eval('.internals-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    const at = (name) => head.indexOf(name);
    const n = Number(/N = ([\d,]+)/.exec(note)[1].replace(/,/g, ''));
    for (const r of rows) {
      const u = Number(r[at('U = c·P·√N/(1+n)')]);
      const expect = (1.25 * Number(r[at('P')]) * Math.sqrt(n)) / (1 + Number(r[at('N')].replace(/,/g, '')));
      assert.ok(Math.abs(u - expect) < 0.01, `${r.join(' ')}: U ${u} vs ${expect}`);
    }
    await page.evaluate(() => document.querySelector('.puct-note').scrollIntoView());
    await screenshot(page, `nets-views-${viewport.width}-${colorScheme}`);
    assertClean(assert, page);
  });
}

test('network presets are deterministic for a seed in the worker: the same game twice', async () => {
  const play = async () => {
    const page = await h.openPage('?game=tictactoe&p0=engine&p1=engine&preset0=alphazero&preset1=alphago&playouts=150&seed=5');
    await boardReady(page);
    await page.waitForFunction(() => window.__playground.snapshot()?.outcome != null);
    const snap = await snapshot(page);
    assertClean(assert, page);
    return snap.moves;
  };
  const a = await play();
  const b = await play();
  assert.ok(a.length >= 5);
  assert.deepEqual(a, b);
});
