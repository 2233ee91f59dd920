// Lessons on a phone (390×844): a lesson opens at its card (its text and its first step's button
// on the first screen, not scrolled down to the view its URL names), the step dock stays low and
// covers neither the board nor what the step outlined, and the chart's y-axis name fits along
// the chart. And in the lesson layouts (the dock beside the page on a wide screen) the policy
// internals table shows all of its columns.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, assertClean, lessonReady, doLessonStep, SCREENSHOTS } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

const PHONE = { width: 390, height: 844 };

/** The page has loaded and drawn two frames since (the browser's scroll to the URL's #hash, and
 * the lesson's own, are done). */
const settled = (page) =>
  page.waitForFunction(
    () =>
      document.readyState === 'complete' &&
      new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => ok(true), 0)))),
  );

/** Where an element is on screen, in viewport pixels. */
const rect = (page, sel) =>
  page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height, vh: window.innerHeight };
  });

/** Does lesson step `n` on the phone and asserts that the dock stays low (at most 30% of the
 * screen) and leaves the top of what the step outlined on screen above it, with room to see it;
 * a screenshot of the step. */
async function stepLeavesLookOnScreen(page, id, n) {
  await doLessonStep(page, n);
  await page.waitForFunction((k) => document.querySelector('#lesson-dock').dataset.step === String(k), n);
  const dock = await rect(page, '#lesson-dock');
  assert.ok(dock.height <= 0.3 * dock.vh, `${id} step ${n}: the dock is ${dock.height} px of ${dock.vh}`);
  await page.waitForFunction(() => {
    const t = document.querySelector('.lesson-look').getBoundingClientRect();
    const d = document.querySelector('#lesson-dock').getBoundingClientRect();
    return t.top >= 0 && t.top + 80 <= d.top;
  });
  await page.screenshot({ path: join(SCREENSHOTS, `lesson-${id}-step${n}-390.png`) });
}

for (const id of ['which-policy', 'rave', 'solver', 'ucb1', 'lgr', 'rave-connect4', 'alphazero-hex7']) {
  test(`${id} on a phone opens at its card: the lesson’s text and its first step’s button on the first screen`, async () => {
    const page = await h.openPage(`?lesson=${id}`, { viewport: PHONE });
    await lessonReady(page);
    await settled(page);
    for (const sel of ['#lesson h2', '#lesson .lesson-intro', '#lesson-do-1']) {
      const r = await rect(page, sel);
      assert.ok(r.top >= 0 && r.bottom <= r.vh, `${id}: ${sel} on the first screen (top ${r.top}, bottom ${r.bottom} of ${r.vh})`);
    }
    await page.screenshot({ path: join(SCREENSHOTS, `lesson-${id}-open-390.png`) });
    assertClean(assert, page);
  });
}

test('which-policy on a phone: the dock stays low and leaves what each step outlines, the board included, on screen; the chart’s y-axis name fits', async () => {
  const page = await h.openPage('?lesson=which-policy', { viewport: PHONE });
  await lessonReady(page);
  for (let n = 1; n <= 5; n++) {
    await stepLeavesLookOnScreen(page, 'which-policy', n);
    if (n === 4) {
      // The chart's y-axis name, written along the axis, is no longer than the plot is high.
      const fit = await page.evaluate(() => {
        const chart = document.getElementById('cmp-value-chart');
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = 'bold 12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
        return {
          text: ctx.measureText(chart.dataset.yLabel ?? 'win rate of the best move (%), White').width,
          plot: chart.querySelector('.u-over').getBoundingClientRect().height,
        };
      });
      assert.ok(fit.text <= fit.plot, `the y-axis name (${fit.text.toFixed(0)} px) fits the plot's height (${fit.plot.toFixed(0)} px)`);
    }
  }
  // Step 5 outlines the board: all of it on screen, above the dock.
  const board = await rect(page, '#board svg');
  const dock = await rect(page, '#lesson-dock');
  assert.ok(board.top >= 0 && board.bottom <= dock.top + 1, `the board (${board.top}–${board.bottom}) above the dock (from ${dock.top})`);
  assertClean(assert, page);
});

test('rave-connect4 on a phone: the dock stays low and leaves what each step outlines on screen; the Connect Four pane boards fit the screen', async () => {
  const page = await h.openPage('?lesson=rave-connect4', { viewport: PHONE });
  await lessonReady(page);
  for (let n = 1; n <= 5; n++) {
    await stepLeavesLookOnScreen(page, 'rave-connect4', n);
    if (n === 1)
      for (const k of [0, 1]) {
        const w = await page.$eval(`#cmp-pane-${k} svg`, (e) => {
          const r = e.getBoundingClientRect();
          return { left: r.left, right: r.right, vw: window.innerWidth };
        });
        assert.ok(w.left >= 0 && w.right <= w.vw, `pane ${k + 1}'s board (${w.left}–${w.right}) within the ${w.vw} px screen`);
      }
  }
  assertClean(assert, page);
});

test('in the lesson layout (the dock beside the page) the policy internals table shows all its columns', async () => {
  for (const [id, step] of [
    ['rave', 2],
    ['solver', 2],
    ['puct-prior', 1],
    ['alphazero-hex7', 4],
  ]) {
    for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
      const page = await h.openPage(`?lesson=${id}`, { viewport });
      await lessonReady(page);
      for (let n = 1; n <= step; n++) await doLessonStep(page, n);
      await page.waitForSelector('#internals .internals-table');
      const cut = await page.$eval('#internals .internals-table', (t) => {
        const box = t.parentElement.getBoundingClientRect();
        const cells = [...t.querySelectorAll('thead th')].map((th) => th.getBoundingClientRect());
        return { hidden: cells.filter((c) => c.right > box.right + 1 || c.right > window.innerWidth).length, of: cells.length };
      });
      await page.screenshot({ path: join(SCREENSHOTS, `lesson-${id}-internals-${viewport.width}.png`) });
      assert.equal(cut.hidden, 0, `${id} at ${viewport.width} px: ${cut.hidden} of the table's ${cut.of} columns out of view`);
      assertClean(assert, page);
      await page.context().close();
    }
  }
});
