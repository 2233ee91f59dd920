// The tree views' root: its colour says what its label says. The root's Q is kept for the player
// who moved into it; its label turns it round to the side to move (`root N=… 27.0%`), and so must
// its fill in the icicle and its dot in the node-link tree: one value, one perspective.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, assertClean, boardReady, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

/** `rgb(r, g, b)` as numbers. */
const rgb = (s) => s.match(/\d+/g).slice(0, 3).map(Number);

test('the icicle’s root bar and the node-link root dot are coloured by the side to move’s win rate, as labelled', async () => {
  // Black opened in the centre of 5×5: White, to move, is losing (its win rate well under 50%).
  const page = await h.openPage('?game=hex:5&moves=c3&p0=person&p1=person');
  await boardReady(page);
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'rave');
  await page.fill('#an-budget', '5000');
  await page.click('#an-run');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await page.waitForFunction(() => document.querySelector('#analysis .icicle').dataset.total === String(window.__viz.measures().lastTotal));
  const label = await page.textContent('#analysis .nodelink [data-node="0"] .nl-label');
  const rate = Number(label.match(/(\d+\.\d)%/)[1]) / 100;
  assert.ok(rate < 0.4, `White, to move after c3, is losing: the root reads ${label}`);
  // The icicle's root row, at its right end (clear of the label written at its left).
  const pixel = await page.$eval('#analysis .icicle canvas', (c) => {
    const dpr = c.width / c.getBoundingClientRect().width;
    return [...c.getContext('2d').getImageData(Math.floor((c.getBoundingClientRect().width - 8) * dpr), Math.floor(6 * dpr), 1, 1).data];
  });
  const [r, , b] = pixel;
  assert.ok(r > b + 40, `the root bar is red (a bad value for the side to move, as its label ${label} says): rgb ${pixel.slice(0, 3)}`);
  const [dr, , db] = rgb(await page.getAttribute('#analysis .nodelink [data-node="0"] circle', 'fill'));
  assert.ok(dr > db + 40, `the node-link root dot is red too: ${dr}, ${db}`);
  await screenshot(page, 'viz-tree-root-colour');
  assertClean(assert, page);
});
