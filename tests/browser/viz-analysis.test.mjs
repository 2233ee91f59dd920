// Views on the playground page: board overlays (visits, Q, AMAF, proven, PV) with
// toggles and hotkeys, the live tree (icicle overview + node-link view) and the policy internals,
// fed by the analysis worker; and snapshots of 100,000+-node trees transferred and drawn. (The
// main thread's long tasks while they are drawn: scripts/bench-page.sh.)
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
  await page.waitForFunction(() => Number(document.body.dataset.overlay || 0) > 0);
}

/** Stops the analysis if it still runs (a disabled Stop ignores the click: no race with its end),
 * then waits until it is over and its last statistics and tree are shown. */
async function finishAnalysis(page) {
  await page.evaluate(() => document.getElementById('an-stop').click());
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  // The icicle draws the last snapshot (the one taken after the search ended) in a frame of its
  // own: wait for it, so that what is read next describes the final tree.
  await page.waitForFunction(() => document.querySelector('#analysis .icicle').dataset.total === String(window.__viz.measures().lastTotal));
}

const labels = (page) => page.$$eval('.viz-overlay .ov-label', (ts) => ts.map((t) => t.textContent).join('|'));

test('overlays: the heatmap changes as the search runs; toggles and hotkeys; hover links board and tree', async () => {
  const page = await h.openPage('?game=hex:7');
  await boardReady(page);
  // Every drawing of the overlay is recorded in the page as it happens (the overlay sets
  // data-overlay right after drawing its labels), so the test waits for an event, a second,
  // different heatmap, instead of comparing two reads taken at moments the search decides.
  await page.evaluate(() => {
    window.__ovLog = [];
    const read = () => [...document.querySelectorAll('.viz-overlay .ov-label')].map((t) => t.textContent).join('|');
    new MutationObserver(() => window.__ovLog.push(read())).observe(document.body, { attributes: true, attributeFilter: ['data-overlay'] });
  });
  await startAnalysis(page, 'rave', 3_000_000);
  assert.match(await labels(page), /%/, 'visit shares are written on the cells');
  // The heatmap changed while the search ran: two different drawings with visit shares.
  await page.waitForFunction(() => new Set(window.__ovLog.filter((l) => /%/.test(l))).size >= 2);
  // The rest on the finished analysis: nothing below changes under the pointer.
  await finishAnalysis(page);
  // Hotkeys: Q and A add the value and AMAF lines; V turns the visits off.
  await page.keyboard.press('q');
  await page.keyboard.press('a');
  assert.equal(await page.getAttribute('#ov-q', 'aria-pressed'), 'true');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.viz-overlay .ov-label')].some((t) => /Q\d/.test(t.textContent) && /A\d/.test(t.textContent)),
  );
  await page.click('#ov-visits');
  assert.equal(await page.getAttribute('#ov-visits', 'aria-pressed'), 'false');
  // No line is a plain visit share any more (the Q and A lines are win rates: Q53%, A48%).
  await page.waitForFunction(
    () => ![...document.querySelectorAll('.viz-overlay .ov-label tspan')].some((t) => /^(<1|[\d.]+)%$/.test(t.textContent)),
  );
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
  assertClean(assert, page);
});

test('tree: the overview grows while the search runs; internals show RAVE Q vs AMAF with beta', async () => {
  const page = await h.openPage('?game=hex:9');
  await boardReady(page);
  await startAnalysis(page, 'rave', 400_000);
  await page.waitForFunction(() => Number(document.querySelector('#analysis .icicle').dataset.count) > 0);
  const n1 = Number(await page.getAttribute('#an-status', 'data-nodes'));
  // The tree grows while the search runs (or the search ended first, with a bigger tree).
  await page.waitForFunction(
    (n) => Number(document.querySelector('#an-status').dataset.nodes) > n * 2 || document.body.dataset.analysis === 'done',
    n1,
  );
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await finishAnalysis(page);
  const nodes = Number(await page.getAttribute('#an-status', 'data-nodes'));
  assert.ok(nodes > n1, `the tree grew: ${n1} → ${nodes} nodes`);
  assert.equal(Number(await page.getAttribute('#an-status', 'data-iterations')), 400_000, 'the analysis ran its budget');
  // Read once the analysis is over and its last tree is drawn.
  const drawn = Number(await page.getAttribute('#analysis .icicle', 'data-drawn'));
  assert.ok(drawn > 10, `icicle draws nodes (${drawn})`);
  const head = await page.$$eval('#internals th', (ths) => ths.map((t) => t.textContent));
  assert.ok(head.includes('AMAF Q') && head.includes('β'), `internals columns: ${head}`);
  await screenshot(page, 'viz-tree-hex9');
  assertClean(assert, page);
});

test('overlays on Pentago (aggregated over twists) and Tic-Tac-Toe (solver proves the moves), dark and narrow', async () => {
  const page = await h.openPage('?game=pentago', { viewport: { width: 430, height: 900 }, colorScheme: 'dark' });
  await boardReady(page);
  await startAnalysis(page, 'rave', 60_000);
  assert.match(await page.textContent('#overlay-legend'), /8 twists/);
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await screenshot(page, 'viz-overlays-pentago-dark-narrow');
  const ttt = await h.openPage('?game=tictactoe');
  await boardReady(ttt);
  await startAnalysis(ttt, 'solver', 400_000);
  await ttt.waitForFunction(() => document.body.dataset.analysis === 'done');
  // The empty board is a proven draw; every first move is proven (draw) once the solver is done.
  const st = await ttt.evaluate(() => window.__viz.stats());
  assert.equal(st.proven, 'draw');
  await screenshot(ttt, 'viz-overlays-tictactoe');
  assertClean(assert, page);
  assertClean(assert, ttt);
});

test('a 100,000+-node tree: snapshots keep coming while it grows, and the views draw them', async () => {
  const page = await h.openPage('?game=hex:11');
  await boardReady(page);
  // A budget the search does not reach before it is stopped (the page caps the tree at 2,000,000
  // nodes; the search goes on improving statistics), so snapshots keep coming.
  await startAnalysis(page, 'uct', 50_000_000);
  // The default snapshot: every node at least a third of a pixel wide in the overview.
  await page.waitForFunction(() => window.__viz.measures().lastTotal >= 100000, null, { polling: 250 });
  const seen = await page.evaluate(() => window.__viz.measures().snapshots);
  const box = await page.locator('#analysis .icicle canvas').boundingBox();
  for (let k = 0; k < 8; k++) await page.mouse.move(box.x + 20 + k * 90, box.y + 10 + (k % 4) * 20);
  await page.waitForFunction((n) => window.__viz.measures().snapshots >= n + 4, seen);
  await finishAnalysis(page);
  const m = await page.evaluate(() => window.__viz.measures());
  assert.ok(m.lastTotal >= 100000, `a tree of ${m.lastTotal} nodes`);
  assert.ok(m.icicleDrawn > 10, `the overview draws the final snapshot (${m.icicleDrawn} of ${m.lastCount} nodes)`);
  assert.ok((await page.locator('#analysis .nl-node').count()) > 1, 'the node-link view draws the top of the tree');
  await screenshot(page, 'viz-tree-100k-hex11');
  assertClean(assert, page);
});

test('snapshots of 100,000+ nodes each are built, transferred and drawn', async () => {
  const page = await h.openPage('?game=hex:11');
  await boardReady(page);
  await page.evaluate(() => window.__viz.setTreeQuery({ minVisits: 1, topK: 1000, depth: 250, maxNodes: 150000 }));
  await startAnalysis(page, 'uct', 2_000_000);
  await page.waitForFunction(() => window.__viz.measures().maxCount >= 100000, null, { polling: 250 });
  const seen = await page.evaluate(() => window.__viz.measures().snapshots);
  await page.waitForFunction((n) => window.__viz.measures().snapshots >= n + 3, seen);
  await finishAnalysis(page);
  const m = await page.evaluate(() => window.__viz.measures());
  assert.ok(m.maxCount >= 100000, `snapshots of up to ${m.maxCount} nodes`);
  assert.ok(m.lastCount >= 100000, `the final snapshot has ${m.lastCount} nodes`);
  assert.ok(m.icicleDrawn > 10, `the overview draws it (${m.icicleDrawn} nodes drawn)`);
  assertClean(assert, page);
});
