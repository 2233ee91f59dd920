// Issue 5, views on the playground page: board overlays (visits, Q, AMAF, proven, PV) with
// toggles and hotkeys, the live tree (icicle overview + node-link view) and the policy internals,
// fed by the analysis worker; and the main-thread budget (no long task over 50 ms) while a
// 100,000-node tree is snapshotted, drawn and updated.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, boardReady, assertClean, screenshot } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

async function startAnalysis(page, preset, playouts) {
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', preset);
  await page.fill('#an-budget', String(playouts));
  await page.click('#an-run');
  await page.waitForFunction(() => Number(document.body.dataset.overlay || 0) > 0, null, { timeout: 30000 });
}

const labels = (page) => page.$$eval('.viz-overlay .ov-label', (ts) => ts.map((t) => t.textContent).join('|'));

test('overlays: the heatmap changes as the search runs; toggles and hotkeys; hover links board and tree', async () => {
  const page = await h.openPage('?game=hex:7');
  await boardReady(page);
  await startAnalysis(page, 'rave', 3_000_000);
  const v1 = Number(await page.evaluate(() => document.body.dataset.overlay));
  const l1 = await labels(page);
  assert.match(l1, /%/, 'visit shares are written on the cells');
  await page.waitForFunction((v) => Number(document.body.dataset.overlay) > v * 3, v1, { timeout: 30000 });
  const l2 = await labels(page);
  assert.notEqual(l1, l2, 'the heatmap changed while the search ran');
  // Hotkeys: Q and A add the value and AMAF lines; V turns the visits off.
  await page.keyboard.press('q');
  await page.keyboard.press('a');
  assert.equal(await page.getAttribute('#ov-q', 'aria-pressed'), 'true');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.viz-overlay .ov-label')].some((t) => /Q\d/.test(t.textContent) && /A\d/.test(t.textContent)),
  );
  await page.click('#ov-visits');
  assert.equal(await page.getAttribute('#ov-visits', 'aria-pressed'), 'false');
  await page.waitForFunction(() => ![...document.querySelectorAll('.viz-overlay .ov-label')].some((t) => /%/.test(t.textContent)));
  // PV ghost stones, numbered from 1.
  const ghosts = await page.$$eval('.viz-overlay .ov-num', (ns) => ns.filter((n) => n.style.display !== 'none').map((n) => n.textContent));
  assert.ok(ghosts.includes('1'), `numbered PV stones: ${ghosts}`);
  // Hover a board cell: its move is highlighted in the tree.
  const best = await page.evaluate(() => window.__viz.stats().children[0].move);
  await page.hover(`[data-cell="${best}"]`);
  await page.waitForFunction(() => Number(document.body.dataset.treeHighlight) >= 1);
  // Hover a node of the node-link view: the board shows its line.
  await page.waitForSelector('.nl-node[data-node]:not([data-node="0"])');
  await page.hover('.nl-node:not([data-node="0"])');
  await page.waitForFunction(() => /N=\d+/.test(document.querySelector('#tree-hover').textContent));
  await screenshot(page, 'viz-overlays-hex7');
  // Re-root the node-link view by clicking a child; the breadcrumb shows its move.
  await page.click('.nl-node:not([data-node="0"])');
  await page.waitForFunction(() => document.querySelectorAll('#nl-crumbs .crumb').length === 2);
  await page.click('#an-stop');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 30000 });
  assertClean(assert, page);
});

test('tree: the overview grows while the search runs; internals show RAVE Q vs AMAF with beta', async () => {
  const page = await h.openPage('?game=hex:9');
  await boardReady(page);
  await startAnalysis(page, 'rave', 400_000);
  await page.waitForFunction(() => Number(document.querySelector('.icicle').dataset.count) > 0, null, { timeout: 30000 });
  const n1 = Number(await page.getAttribute('#an-status', 'data-nodes'));
  await page.waitForFunction((n) => Number(document.querySelector('#an-status').dataset.nodes) > n * 2, n1, { timeout: 60000 });
  const drawn = Number(await page.getAttribute('.icicle', 'data-drawn'));
  assert.ok(drawn > 10, `icicle draws nodes (${drawn})`);
  const head = await page.$$eval('#internals th', (ths) => ths.map((t) => t.textContent));
  assert.ok(head.includes('AMAF Q') && head.includes('β'), `internals columns: ${head}`);
  await page.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 120000 });
  await screenshot(page, 'viz-tree-hex9');
  assertClean(assert, page);
});

test('overlays on Pentago (aggregated over twists) and Tic-Tac-Toe (solver proves the moves), dark and narrow', async () => {
  const page = await h.openPage('?game=pentago', { viewport: { width: 430, height: 900 }, colorScheme: 'dark' });
  await boardReady(page);
  await startAnalysis(page, 'rave', 60_000);
  assert.match(await page.textContent('#overlay-legend'), /8 twists/);
  await page.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 60000 });
  await screenshot(page, 'viz-overlays-pentago-dark-narrow');
  const ttt = await h.openPage('?game=tictactoe');
  await boardReady(ttt);
  await startAnalysis(ttt, 'solver', 400_000);
  await ttt.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 60000 });
  // The empty board is a proven draw; every first move is proven (draw) once the solver is done.
  const st = await ttt.evaluate(() => window.__viz.stats());
  assert.equal(st.proven, 'draw');
  await screenshot(ttt, 'viz-overlays-tictactoe');
  assertClean(assert, page);
  assertClean(assert, ttt);
});

// One window: a 100,000+-node tree grows and is drawn and updated; returns the figures.
async function treeWindow() {
  const page = await h.openPage('?game=hex:11');
  await boardReady(page);
  await page.waitForTimeout(500); // let the page load settle (both workers start with it)
  await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__longtasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  // A budget the search cannot finish within the window (the page caps the tree at 2,000,000
  // nodes; the search goes on improving statistics), so snapshots keep coming on a fast machine.
  await startAnalysis(page, 'uct', 50_000_000);
  // The default snapshot: every node at least a third of a pixel wide in the overview.
  await page.waitForFunction(() => window.__viz.measures().lastTotal >= 100000, null, { timeout: 180000, polling: 250 });
  const seen = await page.evaluate(() => window.__viz.measures().snapshots);
  const box = await page.locator('#analysis .icicle canvas').boundingBox();
  for (let k = 0; k < 8; k++) await page.mouse.move(box.x + 20 + k * 90, box.y + 10 + (k % 4) * 20);
  await page.waitForFunction((n) => window.__viz.measures().snapshots >= n + 4, seen, { timeout: 60000 });
  const m = await page.evaluate(() => window.__viz.measures());
  const tasks = await page.evaluate(() => window.__longtasks);
  const max = tasks.length ? Math.max(...tasks) : 0;
  console.log(
    `# tree of ${m.lastTotal} nodes: snapshots of <= ${m.maxCount} nodes (${(m.maxBytes / 1024).toFixed(0)} KB transferred), built in the worker in <= ${m.maxBuildMs.toFixed(0)} ms; icicle draw ${m.icicleDrawMs.toFixed(1)} ms (${m.icicleDrawn} nodes drawn); main-thread handling <= ${m.maxMainMs.toFixed(0)} ms; long tasks: ${tasks.length}, max ${max.toFixed(0)} ms`,
  );
  assert.ok(m.lastTotal >= 100000);
  assert.ok(m.maxMainMs <= 50, `our own handling of a snapshot took ${m.maxMainMs} ms`);
  return { page, max };
}

test('main thread: no long task over 50 ms while a 100,000-node tree grows and is drawn and updated', async () => {
  // As in hex.test.mjs: a long task the page causes recurs; one from another busy process on the
  // machine does not. A second window is measured when the first had one; both must for a failure.
  let { page, max } = await treeWindow();
  if (max > 50) {
    const first = max;
    await page.close();
    ({ page, max } = await treeWindow());
    assert.ok(max <= 50, `longest main-thread task ${max} ms (first window: ${first} ms)`);
  }
  await screenshot(page, 'viz-tree-100k-hex11');
  if (await page.isEnabled('#an-stop')) await page.click('#an-stop');
  assertClean(assert, page);
});

test('main thread, stress: snapshots of 100,000+ nodes each (reported, not asserted)', async () => {
  const page = await h.openPage('?game=hex:11');
  await boardReady(page);
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    window.__longtasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__longtasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
    window.__viz.setTreeQuery({ minVisits: 1, topK: 1000, depth: 250, maxNodes: 150000 });
  });
  await startAnalysis(page, 'uct', 2_000_000);
  await page.waitForFunction(() => window.__viz.measures().maxCount >= 100000, null, { timeout: 180000, polling: 250 });
  const seen = await page.evaluate(() => window.__viz.measures().snapshots);
  await page.waitForFunction((n) => window.__viz.measures().snapshots >= n + 3, seen, { timeout: 60000 });
  const m = await page.evaluate(() => window.__viz.measures());
  const tasks = await page.evaluate(() => window.__longtasks);
  console.log(
    `# stress: snapshots of ${m.maxCount} nodes (${(m.maxBytes / 1024).toFixed(0)} KB) from a tree of ${m.lastTotal}, built in the worker in <= ${m.maxBuildMs.toFixed(0)} ms; main-thread handling <= ${m.maxMainMs.toFixed(0)} ms; long tasks: ${tasks.map((t) => t.toFixed(0)).join(', ') || 'none'}`,
  );
  assert.ok(m.maxCount >= 100000);
  await page.click('#an-stop');
  assertClean(assert, page);
});
