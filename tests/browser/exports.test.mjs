// In Chromium: the tree exports. Before any tree is drawn, Tree SVG / Tree PNG say so instead of
// saving an empty picture; after an analysis they save the drawn views (nodes and their labels).
// Records with variations: an SGF's variations go into the game's tree and come out again in the
// SGF and the game JSON; a move list says it holds the main line only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, boardReady, assertClean, teachReady, snapshot, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

test('tree SVG/PNG exports: a clear message without a tree, the drawn tree with one', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(page);
  await teachReady(page);
  await page.click('#dl-tree-svg');
  await page.waitForFunction(() => /No tree drawn yet/.test(document.getElementById('message').textContent));
  await page.click('#dl-tree-png');
  await page.waitForFunction(() => /No tree overview drawn yet/.test(document.getElementById('message').textContent));
  // An analysis draws both views; the exports then hold them.
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'uct');
  await page.fill('#an-budget', '3000');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await page.waitForSelector('#analysis .nodelink .nl-node');
  await page.waitForFunction(() => Number(document.querySelector('#analysis .icicle').dataset.count) > 1);
  const [svgDl] = await Promise.all([page.waitForEvent('download'), page.click('#dl-tree-svg')]);
  const svg = readFileSync(await svgDl.path(), 'utf8');
  assert.match(svg, /^<svg|<\?xml/);
  assert.ok((svg.match(/<circle/g) ?? []).length >= 4, 'the nodes are in the SVG');
  assert.match(svg, /N=\d/);
  const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('#dl-tree-png')]);
  const png = readFileSync(await pngDl.path());
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG file');
  assert.ok(png.length > 2000, `a PNG with a drawing (${png.length} bytes)`);
  assertClean(assert, page);
});

test('an SGF with variations imports into the game’s tree and exports again with them', async () => {
  const page = await h.openPage('?game=hex:5&p0=person&p1=person');
  await boardReady(page);
  await teachReady(page);
  // HexGui's shape: a variation at move 2, and one inside it at move 4.
  const sgf = '(;FF[4]AP[HexGui:0.9]GM[11]SZ[5]\n;B[c3](;W[b3];B[b4];W[c2])\n(;W[c2]C[try this];B[b4](;W[b3])(;W[d2])))';
  await page.fill('#record-text', sgf);
  await page.click('#record-load');
  await page.waitForFunction(() => /Loaded hex:5, 4 moves and 2 variations\./.test(document.getElementById('message').textContent));
  assert.deepEqual((await snapshot(page)).moves, ['c3', 'b3', 'b4', 'c2']);
  const tree = {
    spec: 'hex:5',
    moves: ['c3', 'b3', 'b4', 'c2'],
    variations: [{ at: 1, moves: ['c2', 'b4', 'b3'], variations: [{ at: 2, moves: ['d2'], variations: [] }] }],
  };
  assert.deepEqual(await page.evaluate(() => window.__playground.gameTree()), tree);
  // Show SGF: the tree in HexGui's shape, the main line first at each branch.
  await page.click('#record-show-sgf');
  // The box held the imported SGF (also "(;FF[4]…"): wait for the page's own export.
  await page.waitForFunction(() => document.getElementById('record-text').value.includes('AP[mcts-playground:'));
  const written = await page.inputValue('#record-text');
  assert.match(
    written.replace(/\n/g, ''),
    /SZ\[5\]AP\[mcts-playground:[^\]]+\];B\[c3\]\(;W\[b3\];B\[b4\];W\[c2\]\)\(;W\[c2\];B\[b4\]\(;W\[b3\]\)\(;W\[d2\]\)\)\)\n?$/,
  );
  // The SGF download is the same text.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#dl-sgf')]);
  assert.equal(readFileSync(await dl.path(), 'utf8'), written);
  // The game JSON carries the tree.
  await page.click('#record-show-json');
  await page.waitForFunction(() => document.getElementById('record-text').value.startsWith('{'));
  const json = JSON.parse(await page.inputValue('#record-text'));
  assert.deepEqual([json.moves, json.variations], [tree.moves, tree.variations]);
  // A move list has no variations, and the message says so.
  await page.click('#record-show');
  await page.waitForFunction(() => document.getElementById('record-text').value.startsWith('hex:5\n'));
  assert.equal(await page.inputValue('#record-text'), 'hex:5\nc3 b3 b4 c2\n');
  assert.match(await page.textContent('#message'), /only the main line \(4 moves\) is written, not its 2 variations/);
  await screenshot(page, 'records-variations');
  // Another game, then the written SGF and the JSON back: the same tree each time.
  for (const text of [written, JSON.stringify(json)]) {
    await page.fill('#record-text', 'tictactoe\nb2');
    await page.click('#record-load');
    await page.waitForFunction(() => document.body.dataset.game === 'tictactoe');
    assert.deepEqual(await page.evaluate(() => window.__playground.gameTree()?.variations), []);
    await page.fill('#record-text', text);
    await page.click('#record-load');
    await page.waitForFunction(() => document.body.dataset.game === 'hex:5' && document.body.dataset.ply === '4');
    assert.deepEqual(await page.evaluate(() => window.__playground.gameTree()), tree);
  }
  // A bad variation is named, and the game on the board is kept.
  await page.fill('#record-text', '(;FF[4]GM[11]SZ[5];B[c3](;W[b3])(;W[c3]))');
  await page.click('#record-load');
  await page.waitForFunction(() => /variation at move 2, its move 1 'c3'/.test(document.getElementById('message').textContent));
  assert.deepEqual((await snapshot(page)).moves, tree.moves);
  assert.deepEqual(await page.evaluate(() => window.__playground.gameTree()), tree);
  // The worker's writeRecord: a bad variation is an error sentence from the engine, a malformed
  // one is refused by the protocol; the worker lives on.
  const raw = (variations) =>
    page.evaluate(
      (v) => window.__playground.raw({ type: 'writeRecord', id: 99, spec: 'hex:5', moves: ['c3', 'b3'], format: 'sgf', variations: v }),
      variations,
    );
  const illegal = await raw([{ at: 1, moves: ['c3'], variations: [] }]);
  assert.equal(illegal.type, 'error');
  assert.match(illegal.message, /^variation at move 2, its move 1 'c3' \(move 2 of the game\): illegal/);
  const malformed = await raw([{ at: 1, moves: 'c3' }]);
  assert.deepEqual([malformed.type, malformed.message], ['error', "request 'writeRecord': field 'variations' is missing or malformed"]);
  const ok = await raw([{ at: 1, moves: ['c2'] }]);
  assert.equal(ok.type, 'recordText');
  assert.match(ok.text.replace(/\n/g, ''), /;B\[c3\]\(;W\[b3\]\)\(;W\[c2\]\)\)$/);
  assertClean(assert, page);
});
