// In Chromium: the tree exports. Before any tree is drawn, Tree SVG / Tree PNG say so instead of
// saving an empty picture; after an analysis they save the drawn views (nodes and their labels).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup, boardReady, assertClean, teachReady } from './harness.mjs';

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
