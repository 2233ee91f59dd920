// Side by side: panes with their own configuration and worker search one Hex position
// with the same seed and budget; UCT and RAVE give different root visit distributions; the charts
// over playouts are drawn. Screenshots light/wide and dark/narrow.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, assertClean, screenshot, recordAttr } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

async function runCompare(page, { playouts, moves }) {
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.fill('#cmp-game', 'hex:7');
  await page.fill('#cmp-moves', moves);
  await page.fill('#cmp-budget', String(playouts));
  await page.selectOption('#cmp-preset-0', 'uct');
  await page.selectOption('#cmp-preset-1', 'rave');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
}

const dist = (page, k) => page.$$eval(`#cmp-bars-${k} .bar-row`, (rows) => rows.map((r) => [r.dataset.move, Number(r.dataset.visits)]));

test('compare: UCT and RAVE panes on one Hex position show different visit distributions', async () => {
  const page = await h.openPage('?game=hex:7#compare');
  await runCompare(page, { playouts: 30000, moves: 'd4 c5' });
  for (const k of [0, 1]) assert.equal(await page.getAttribute(`#cmp-readout-${k}`, 'data-playouts'), '30000', `pane ${k} ran its budget`);
  const uct = await dist(page, 0);
  const rave = await dist(page, 1);
  assert.ok(uct.length >= 5 && rave.length >= 5);
  assert.notDeepEqual(uct, rave, 'the two configurations spread their visits differently');
  assert.equal(await page.locator('#compare .uplot').count(), 2, 'value chart and per-move chart');
  assert.ok(Number(await page.getAttribute('#compare', 'data-samples')) >= 4, 'samples over playouts');
  // Each pane draws its tree overview (in an animation frame of its own after the last sample).
  for (const k of [0, 1]) await page.waitForFunction((i) => Number(document.querySelector(`#cmp-pane-${i} .icicle`).dataset.count) > 10, k);
  await screenshot(page, 'viz-compare-hex7');
  // Same seed, same budget, same configuration: the same result again (reproducible panes).
  const best0 = await page.getAttribute('#cmp-readout-0', 'data-best');
  // The second run may be over before a test could see it running: its states are recorded.
  await recordAttr(page, '#compare', 'data-state');
  await page.click('#cmp-run');
  await page.waitForFunction(() => {
    const v = window.__attrValues('#compare', 'data-state');
    return v.includes('running') && v.at(-1) === 'done';
  });
  assert.deepEqual(await dist(page, 0), uct, 'pane 1 reproduces its distribution with the same seed');
  assert.equal(await page.getAttribute('#cmp-readout-0', 'data-best'), best0);
  assertClean(assert, page);
});

test('compare: four panes, dark and narrow', async () => {
  const page = await h.openPage('?game=hex:7#compare', { viewport: { width: 430, height: 1000 }, colorScheme: 'dark' });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.selectOption('#cmp-count', '4');
  await runCompare(page, { playouts: 8000, moves: '' });
  assert.equal(await page.locator('.cmp-pane').count(), 4);
  await screenshot(page, 'viz-compare-4-dark-narrow');
  assertClean(assert, page);
});
