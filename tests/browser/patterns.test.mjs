// Hex's pattern priors in the page (docs/pattern-priors.md): the wasm embeds no pattern weights;
// the worker fetches models/hex-patterns.mctspat the first time a request's configuration has
// prior = patterns on Hex, once per worker, and then searches exactly as the native binary (which
// embeds the same file). A missing file gives a clear sentence naming it and the HTTP status.
// Hex knowledge in the tree and the expansion threshold (MoHex's), set in a Compare pane's
// form, search as `mcts search --set knowledge=true ...` and travel in the pane's link.
// Requests are counted at the test's own server; waits are for states, never for time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, assertClean, screenshot, teachReady, paneFigures, buildNative, native, assertPaneAsNative } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
  buildNative();
});
after(async () => {
  await h?.close();
});

/** `mcts search` as a Compare pane of these tests runs it: Hex 7×7 after `moves`, 3,000 playouts,
 * the pane's memory cap, `sets` (`--set` pairs) on preset `algo`. */
const paneSearch = (moves, algo, sets, seed) =>
  native('search', [
    '--game',
    'hex:7',
    '--moves',
    moves,
    '--algo',
    algo,
    ...sets,
    '--set',
    'memory_cap_mib=512',
    '--iterations',
    '3000',
    '--seed',
    String(seed),
  ]);

const PAT = /\/models\/hex-patterns\.mctspat$/;
const SET_B = 'prior=patterns,progressive_bias=2.47';

test('patterns: a Compare pane with prior:patterns searches as mcts search --set prior=patterns', async () => {
  const mark = h.served.length;
  const q =
    'view=compare&cmpgame=hex:7&cmpmoves=d4&panes=2&pane1=preset:rave&pane2=preset:rave,prior:patterns,progressive_bias:2.47&cmpbudget=3000&cmpseed=5';
  const page = await h.openPage(`?${q}&cmprun=1`);
  await page.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done');
  assert.equal(await page.inputValue('#cmp-prior-0'), '', 'pane 1: the preset’s');
  assert.equal(await page.inputValue('#cmp-prior-1'), 'patterns', 'pane 2: from the URL');
  assert.equal(await page.inputValue('#cmp-progressive_bias-1'), '2.47');
  // Only pane 2's worker needed the weights: one download.
  assert.deepEqual(h.servedSince(mark, PAT), ['/sub/dir/models/hex-patterns.mctspat'], 'fetched exactly once');
  for (const [k, sets] of [
    [0, []],
    [1, ['--set', 'prior=patterns', '--set', 'progressive_bias=2.47']],
  ]) {
    const want = paneSearch('d4', 'rave', sets, 5);
    await assertPaneAsNative(assert, page, k, want, 3000);
  }
  assert.notDeepEqual((await paneFigures(page, 0)).visits, (await paneFigures(page, 1)).visits, 'the prior changed the search');
  await screenshot(page, 'patterns-compare');
  // A prior the engine does not know is named.
  const bad = await h.openPage(`?${q.replace('prior:patterns', 'prior:pattern')}`);
  await teachReady(bad);
  assert.equal(await bad.getAttribute('body', 'data-url-errors'), '1');
  assert.match(await bad.textContent('body'), /pane2: prior=pattern: the tree's prior must be one of uniform, tactical, net, patterns/);
  assertClean(assert, page);
});

test('the mohex preset (best, save-bridge, pattern prior, knowledge, expansion threshold) searches in a Compare pane as mcts search --algo mohex', async () => {
  const mark = h.served.length;
  // 3,000 playouts after d4 c5: enough for the root to pass the knowledge threshold (256 visits).
  const q = 'view=compare&cmpgame=hex:7&cmpmoves=d4,c5&panes=1&pane1=preset:mohex&cmpbudget=3000&cmpseed=3';
  const page = await h.openPage(`?${q}&cmprun=1`);
  await page.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done');
  assert.equal(h.servedSince(mark, PAT).length, 1, 'the weights fetched once');
  const want = paneSearch('d4 c5', 'mohex', [], 3);
  await assertPaneAsNative(assert, page, 0, want, 3000);
  // The knowledge is part of this search: without it the same search differs (the pane equals
  // `want`, so the pane used it).
  const visits = (r) => r.children.map((c) => [c.move, c.visits]);
  assert.notDeepEqual(visits(paneSearch('d4 c5', 'mohex', ['--set', 'knowledge=false'], 3)), visits(want), 'knowledge matters here');
  await screenshot(page, 'patterns-mohex-preset');
  assertClean(assert, page);
});

test('knowledge: a Compare pane with know on, know@ 64 and expand 10 searches as mcts search --set knowledge=true ..., and its link reproduces it', async () => {
  // The mohex test's position, seed and budget; pane 2 is rave with Hex knowledge at 64 visits
  // and MoHex's expansion threshold, set in the pane's form.
  const q = 'view=compare&cmpgame=hex:7&cmpmoves=d4,c5&panes=2&pane1=preset:rave&pane2=preset:rave&cmpbudget=3000&cmpseed=3';
  const page = await h.openPage(`?${q}`);
  await page.waitForFunction(() => document.querySelector('#cmp-preset-1')?.value === 'rave');
  const options = await page.$$eval('#cmp-knowledge-1 option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, [
    ['', 'preset'],
    ['true', 'on'],
    ['false', 'off'],
  ]);
  assert.match(await page.getAttribute('#cmp-knowledge-1', 'title'), /blank: the preset’s, on in mohex only/);
  assert.match(
    await page.getAttribute('#cmp-knowledge_threshold-1', 'title'),
    /the visits before a node's children are cut by Hex knowledge/,
  );
  assert.match(await page.getAttribute('#cmp-expand_threshold-1', 'title'), /the visits before a node gets children/);
  await page.click('#cmp-settings-1 summary');
  await page.selectOption('#cmp-knowledge-1', 'true');
  await page.fill('#cmp-knowledge_threshold-1', '64');
  await page.fill('#cmp-expand_threshold-1', '10');
  // The pane's header says what it sets over its preset; the other pane sets nothing.
  assert.equal(await page.textContent('#cmp-badge-1'), 'equal playouts · 3,000 playouts · know on · know@ 64 · expand 10');
  assert.equal(await page.textContent('#cmp-badge-0'), 'equal playouts · 3,000 playouts');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done');
  const search = (sets) => paneSearch('d4 c5', 'rave', sets, 3);
  const sets = { knowledge: 'true', knowledge_threshold: '64', expand_threshold: '10' };
  const searchWith = (s) => search(Object.entries(s).flatMap(([k, v]) => ['--set', `${k}=${v}`]));
  const plain = search([]);
  const want = searchWith(sets);
  await assertPaneAsNative(assert, page, 0, plain, 3000);
  await assertPaneAsNative(assert, page, 1, want, 3000);
  // Each of the three changes this search: a pane that lost any one of them would not match.
  const visits = (r) => r.children.map((c) => [c.move, c.visits]);
  for (const key of Object.keys(sets)) {
    const { [key]: _, ...without } = sets;
    assert.notDeepEqual(visits(searchWith(without)), visits(want), `${key} matters here`);
  }
  const before = [await paneFigures(page, 0), await paneFigures(page, 1)];
  assert.notDeepEqual(before[0].visits, before[1].visits, 'the fields changed the search');
  await screenshot(page, 'knowledge-compare');

  // Copy link carries the fields; a fresh page opens it, fills the pane and runs the same search.
  await page.click('#cmp-link');
  await page.waitForFunction(() => document.getElementById('cmp-link').dataset.url);
  const link = new URL(await page.getAttribute('#cmp-link', 'data-url'));
  assert.equal(link.searchParams.get('pane2'), 'preset:rave,knowledge:true,knowledge_threshold:64,expand_threshold:10');
  assert.equal(link.searchParams.get('cmprun'), '1');
  const again = await h.openPage(link.search + link.hash);
  await again.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done');
  assert.equal(await again.getAttribute('body', 'data-url-errors'), '0');
  assert.equal(await again.inputValue('#cmp-knowledge-1'), 'true');
  assert.equal(await again.inputValue('#cmp-knowledge_threshold-1'), '64');
  assert.equal(await again.inputValue('#cmp-expand_threshold-1'), '10');
  assert.equal(await again.inputValue('#cmp-knowledge-0'), '', 'pane 1: the preset’s');
  assert.deepEqual([await paneFigures(again, 0), await paneFigures(again, 1)], before, 'the same search after the reload');

  // Values the engine does not take are named, as the other fields' are: in the form (nothing
  // searched) and in a URL (the field left blank).
  await again.click('#cmp-settings-1 summary');
  await again.fill('#cmp-expand_threshold-1', '0');
  await again.click('#cmp-run');
  await again.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'invalid');
  assert.match(
    await again.textContent('#compare'),
    /Not run: pane 2: expand_threshold=0: the visits before a node gets children must be a whole number from 1 to 1,000,000,000\./,
  );
  const bad = await h.openPage(`?${q.replace('pane2=preset:rave', 'pane2=preset:rave,knowledge_threshold:0,expand_threshold:abc')}`);
  await teachReady(bad);
  assert.equal(await bad.getAttribute('body', 'data-url-errors'), '2');
  const text = await bad.textContent('body');
  assert.match(
    text,
    /pane2: knowledge_threshold=0: the visits before a node's children are cut by Hex knowledge must be a whole number from 1 to 1,000,000,000/,
  );
  assert.match(text, /pane2: expand_threshold=abc: the visits before a node gets children must be a whole number from 1 to 1,000,000,000/);
  assertClean(assert, page);
  assertClean(assert, again);
  assertClean(assert, bad);
});

/** Sets up an Arena match on Hex 7×7: rave against rave with the pattern prior, one worker. */
async function arenaForm(page) {
  await page.waitForFunction(() => document.querySelector('#ar-a')?.options.length > 0);
  await page.fill('#ar-game', 'hex:7');
  await page.dispatchEvent('#ar-game', 'change');
  await page.uncheck('#ar-openings');
  await page.selectOption('#ar-a', 'rave');
  await page.selectOption('#ar-b', 'rave');
  await page.fill('#ar-set-a', '');
  await page.fill('#ar-set-b', SET_B);
  await page.fill('#ar-games', '2');
  await page.fill('#ar-budget', '400');
  await page.selectOption('#ar-unit', 'iterations');
  await page.fill('#ar-seed', '7');
  await page.fill('#ar-workers', '1');
}

test('patterns: an Arena match with prior=patterns fetches the weights once and plays the games of mcts arena', async () => {
  const mark = h.served.length;
  const page = await h.openPage('#arena');
  await arenaForm(page);
  assert.deepEqual(h.servedSince(mark, PAT), [], 'no weights before a request uses them');
  await page.click('#ar-run');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('#arena').dataset.state));
  assert.equal(await page.getAttribute('#arena', 'data-state'), 'done', await page.textContent('#ar-status'));
  // Two games of about 40 searches each, one worker: one download.
  assert.deepEqual(h.servedSince(mark, PAT), ['/sub/dir/models/hex-patterns.mctspat'], 'fetched exactly once');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#ar-json')]);
  const web = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  // The page's match natively: rave against rave with `setB` (2 games, 400 iterations, seed 7).
  const arena = (setB) =>
    native('arena', [
      '--game',
      'hex:7',
      '--a',
      'rave',
      '--b',
      'rave',
      ...setB,
      '--openings',
      'none',
      '--games',
      '2',
      '--iterations',
      '400',
      '--seed',
      '7',
    ]);
  const want = arena(['--set-b', 'prior=patterns', '--set-b', 'progressive_bias=2.47']);
  const strip = (r) => ({ index: r.index, a_first: r.a_first, moves: r.moves, a_score: r.a_score, winner: r.winner });
  assert.deepEqual(web.records.map(strip), want.records.map(strip), 'the same games, move by move');
  assert.deepEqual(web.set_b, ['prior=patterns', 'progressive_bias=2.47']);
  // Without the prior the games differ: the weights were used, not ignored.
  const plain = arena([]);
  assert.notDeepEqual(plain.records.map(strip), want.records.map(strip), 'the prior changed the games');
  assertClean(assert, page);
});

test('patterns: a missing weights file stops the match with a sentence naming the file and the status', async () => {
  const page = await h.openPage('#arena', {
    before: (p) => p.route('**/models/hex-patterns.mctspat', (r) => r.fulfill({ status: 404, body: 'not found' })),
  });
  await arenaForm(page);
  await page.click('#ar-run');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('#arena').dataset.state));
  assert.equal(await page.getAttribute('#arena', 'data-state'), 'failed');
  assert.match(
    await page.textContent('#ar-status'),
    /The arena stopped: game \d+: the pattern weights for prior = patterns could not be loaded \(models\/hex-patterns\.mctspat: HTTP 404\)/,
  );
  page.problems.failed = page.problems.failed.filter((f) => !f.includes('hex-patterns.mctspat'));
  assertClean(assert, page, [/404/]);
});
