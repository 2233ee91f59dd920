// Side by side: panes with their own configuration and worker search one Hex position
// with the same seed and budget; UCT and RAVE give different root visit distributions; the charts
// over playouts are drawn. Screenshots light/wide and dark/narrow.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, assertClean, screenshot, recordAttr, paneFigures } from './harness.mjs';

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

test('compare: Copy link opens the same comparison in a fresh page and reproduces its figures', async () => {
  const page = await h.openPage('?game=hex:7&view=compare');
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.fill('#cmp-game', 'hex:7');
  await page.fill('#cmp-moves', 'd4');
  await page.fill('#cmp-seed', '3');
  await page.fill('#cmp-budget', '6000');
  await page.selectOption('#cmp-preset-0', 'uct');
  // A pane's own settings are folded behind its “settings” control.
  await page.click('#cmp-settings-0 summary');
  await page.fill('#cmp-c-0', '0.8');
  await page.selectOption('#cmp-preset-1', 'rave');
  await page.click('#cmp-settings-1 summary');
  await page.fill('#cmp-budget-1', '4000');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  const before = [await paneFigures(page, 0), await paneFigures(page, 1)];
  assert.equal(before[0].playouts, '6000');
  assert.equal(before[1].playouts, '4000', 'a pane with its own budget runs it');
  // The pane headers say what each pane ran.
  assert.match(await page.textContent('#cmp-badge-0'), /equal playouts · 6,000 playouts/);
  assert.match(await page.textContent('#cmp-badge-1'), /own budget · 4,000 playouts/);

  // Each pane's board carries its own overlay: visit heat, the best move ringed, the line as ghosts.
  for (const k of [0, 1]) {
    const board = await page.evaluate((i) => {
      const root = document.querySelector(`#cmp-board-${i} svg`);
      const shown = (sel) => [...root.querySelectorAll(sel)].filter((e) => e.style.display !== 'none').length;
      return {
        heat: shown('.ov-heat'),
        ghosts: shown('.ov-ghost'),
        rings: shown('.ov-ring.ov-hl'),
        stones: root.querySelectorAll('.cell.p0').length,
      };
    }, k);
    assert.equal(board.stones, 1, 'the position (d4) is on the pane board');
    assert.ok(board.heat > 5, `pane ${k} shows the visit share of many moves`);
    assert.ok(board.ghosts >= 2, `pane ${k} shows its principal variation`);
    assert.equal(board.rings, 1, `pane ${k} rings its best move`);
  }
  // The tree overview is chosen breadth-first: the snapshot (3,000 of 6,001 nodes) keeps every
  // visited root move (a depth-first cut kept only the first subtrees).
  await page.waitForFunction(
    () => document.querySelector('#cmp-pane-0 .icicle').dataset.count && document.querySelector('#cmp-pane-0 .icicle').dataset.level1,
  );
  const tree = await page.evaluate(() => {
    const el = document.querySelector('#cmp-pane-0 .icicle');
    return {
      level1: Number(el.dataset.level1),
      root: Number(el.dataset.rootMoves),
      count: Number(el.dataset.count),
      total: Number(el.dataset.total),
    };
  });
  assert.ok(tree.count < tree.total, `the snapshot is cut (${tree.count} of ${tree.total})`);
  assert.equal(tree.level1, tree.root, 'every visited root move is in the overview');
  // One scale: a bar's length is its move's share of the root's visits, in every pane.
  const bars = await page.$$eval('.cmp-bars .bar-row[data-move]', (rows) =>
    rows.map((r) => [Number(r.dataset.share) * 100, Number.parseFloat(r.querySelector('.bar').style.width)]),
  );
  for (const [share, width] of bars) assert.ok(Math.abs(share - width) < 0.01, `bar ${width}% = share ${share}%`);
  // The value chart: win rate in percent, axes named.
  const axes = await page.textContent('#cmp-value-axes');
  assert.match(axes, /x = playouts searched so far/);
  assert.match(axes, /y = win rate of the pane’s best move for White, the side to move, in percent \(0–100%/);

  await page.click('#cmp-link');
  await page.waitForFunction(() => document.getElementById('cmp-link').dataset.url);
  const link = new URL(await page.getAttribute('#cmp-link', 'data-url'));
  const q = link.searchParams;
  assert.equal(q.get('view'), 'compare');
  assert.equal(q.get('cmpmoves'), 'd4');
  assert.equal(q.get('cmpseed'), '3');
  assert.equal(q.get('cmpbudget'), '6000');
  assert.equal(q.get('cmpmode'), 'playouts');
  assert.equal(q.get('pane1'), 'preset:uct,c:0.8');
  assert.equal(q.get('pane2'), 'preset:rave,budget:4000');
  assert.equal(q.get('cmprun'), '1');

  // A fresh page (a new browser context) opens the link and runs it by itself.
  const again = await h.openPage(link.search + link.hash, { viewport: { width: 1280, height: 800 } });
  await again.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done');
  assert.equal(await again.getAttribute('body', 'data-url-errors'), '0');
  assert.equal(await again.inputValue('#cmp-c-0'), '0.8');
  const after = [await paneFigures(again, 0), await paneFigures(again, 1)];
  assert.deepEqual(after, before, 'same playouts, best moves, lines and visit counts in every pane');
  await screenshot(again, 'viz-compare-link-1280');
  assertClean(assert, page);
  assertClean(assert, again);
});

test('compare: equal time gives every pane’s worker the same one budget, and each readout adds up', async () => {
  const page = await h.openPage('?game=hex:5&view=compare', {
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
    // Every search request the page posts, by worker (counted in the page, at postMessage).
    before: (p) =>
      p.addInitScript(() => {
        window.__searches = [];
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (m, ...rest) {
          if (m && typeof m === 'object' && m.type === 'search') {
            window.__workers ??= new Map();
            if (!window.__workers.has(this)) window.__workers.set(this, window.__workers.size);
            window.__searches.push({ worker: window.__workers.get(this), slot: m.slot, budget: m.budget });
          }
          return post.call(this, m, ...rest);
        };
      }),
  });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.fill('#cmp-game', 'hex:5');
  await page.selectOption('#cmp-mode', 'millis');
  await page.fill('#cmp-budget', '1000');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('cmpmode') === 'ms');
  assert.equal(new URL(page.url()).searchParams.get('cmpbudget'), '1000');
  for (const k of [0, 1]) assert.match(await page.textContent(`#cmp-badge-${k}`), /equal time · 1,000 ms/);
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  // Each pane's worker got one search of the whole budget, the same for every pane (not 40
  // searches of 25 ms whose overruns add up differently in each pane).
  const searches = (await page.evaluate(() => window.__searches)).filter((r) => r.slot === 'cmp');
  const byWorker = {};
  for (const r of searches) byWorker[r.worker] = [...(byWorker[r.worker] ?? []), r];
  assert.equal(Object.keys(byWorker).length, 2, 'one worker per pane');
  for (const rs of Object.values(byWorker))
    assert.deepEqual(
      rs.map((r) => r.budget),
      [{ kind: 'millis', value: 1000 }],
    );
  // Each readout adds up: its rate is its playouts over the time it shows.
  for (const k of [0, 1]) {
    const r = await page.$eval(`#cmp-readout-${k}`, (e) => ({ ...e.dataset, text: e.textContent }));
    assert.ok(Number(r.playouts) > 0, `pane ${k} searched`);
    assert.ok(Math.abs((Number(r.playouts) * 1000) / Number(r.ms) - Number(r.rate)) <= 1e-6 * Number(r.rate), JSON.stringify(r));
    const [, n, secs, rate] = r.text.match(/([\d,]+) playouts in ([\d.]+) s · ([\d,]+)\/s/);
    const num = (x) => Number(x.replaceAll(',', ''));
    assert.equal(num(n), Number(r.playouts));
    assert.equal(secs, (Number(r.ms) / 1000).toFixed(2), 'the time shown is the time the rate is over');
    assert.ok(Math.abs(num(n) / Number(secs) - num(rate)) <= 0.01 * num(rate), `${n} playouts in ${secs} s at ${rate}/s`);
  }
  await screenshot(page, 'viz-compare-equal-time-390-dark');
  assertClean(assert, page);
});

test('compare: switching the unit keeps each unit’s own budget (50,000 playouts never become 50,000 ms)', async () => {
  const page = await h.openPage('?game=hex:5&view=compare');
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  assert.equal(await page.inputValue('#cmp-budget'), '50000');
  await page.click('#cmp-settings-1 summary');
  await page.fill('#cmp-budget-1', '30000');
  await page.selectOption('#cmp-mode', 'millis');
  // The unit's default, not the playouts read as milliseconds; the pane's own budget is blank.
  assert.equal(await page.inputValue('#cmp-budget'), '2000');
  assert.equal(await page.inputValue('#cmp-budget-1'), '');
  assert.match(await page.textContent('#cmp-badge-0'), /equal time · 2,000 ms/);
  assert.match(await page.textContent('#cmp-note'), /Budget in ms now: 2,000 ms per pane \(the playouts budget, 50,000, is kept/);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('cmpbudget') === '2000');
  await page.fill('#cmp-budget', '1500');
  // Back: each unit's own figures.
  await page.selectOption('#cmp-mode', 'playouts');
  assert.equal(await page.inputValue('#cmp-budget'), '50000');
  assert.equal(await page.inputValue('#cmp-budget-1'), '30000');
  assert.match(await page.textContent('#cmp-badge-1'), /own budget · 30,000 playouts/);
  await page.selectOption('#cmp-mode', 'millis');
  assert.equal(await page.inputValue('#cmp-budget'), '1500');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('cmpbudget') === '1500');
  assertClean(assert, page);
});

test('compare: four panes on Hex 11×11 — the overlay labels only what it can write readably, every cell has its figures on hover, and a pane zooms', async () => {
  const page = await h.openPage(
    '?view=compare&cmpgame=hex:11&panes=4&pane1=preset:uct&pane2=preset:rave&pane3=preset:lgr&pane4=preset:best&cmpbudget=4000&cmpseed=1',
    { viewport: { width: 1280, height: 900 } },
  );
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  const labels = (k) =>
    page.$$eval(`#cmp-board-${k} .viz-overlay .ov-label`, (ts) =>
      ts.filter((t) => t.textContent).map((t) => t.getBoundingClientRect().height),
    );
  for (const k of [0, 1, 2, 3]) {
    // About 300 px for 11×11 cells: a few labels, each at least 9 px high (not 4 px).
    const hs = await labels(k);
    assert.ok(hs.length >= 1 && hs.length <= 3, `pane ${k + 1}: ${hs.length} labels`);
    for (const x of hs) assert.ok(x >= 9, `pane ${k + 1}: a label ${x} px high`);
    // Every cell has its figures as a tooltip: the best move's are its bar's.
    const best = await page.getAttribute(`#cmp-readout-${k}`, 'data-best');
    const share = await page.textContent(`#cmp-bars-${k} .bar-row[data-move="${best}"] .bar-num`);
    assert.match(
      await page.textContent(`#cmp-board-${k} [data-cell="${best}"] title`),
      new RegExp(`^${best}: ${share} of the root’s visits, win rate [\\d.]+% for Black$`),
    );
  }
  assert.match(
    await page.textContent('#cmp-small-note'),
    /only the most visited cells are labelled\. Hover a cell for its figures, or ⤢ zoom a pane/,
  );
  await screenshot(page, 'viz-compare-hex11-4-panes');
  // Zoomed, pane 2 takes the row and writes every figure.
  await page.click('#cmp-zoom-1');
  assert.equal(await page.getAttribute('#cmp-zoom-1', 'aria-pressed'), 'true');
  await page.waitForFunction(() => document.querySelector('#cmp-board-1 .viz-overlay').dataset.small === 'false');
  const zoomed = await labels(1);
  assert.ok(zoomed.length > 10, `${zoomed.length} labels zoomed`);
  for (const x of zoomed) assert.ok(x >= 7, `a label ${x} px high`);
  assertClean(assert, page);
});

test('compare: two panes open as an Arena match with the same configurations, budget and seed', async () => {
  const page = await h.openPage(
    '?view=compare&cmpgame=hex:7&panes=3&pane1=preset:uct,c:0.7&pane2=preset:rave&pane3=preset:lgr,lgr_p:0.5&cmpbudget=3000&cmpseed=4',
  );
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  assert.deepEqual([await page.inputValue('#cmp-arena-a'), await page.inputValue('#cmp-arena-b')], ['0', '1']);
  await page.selectOption('#cmp-arena-b', '2');
  await page.click('#cmp-arena');
  await page.waitForFunction(() => document.body.dataset.view === 'arena');
  assert.equal(await page.inputValue('#ar-game'), 'hex:7');
  assert.deepEqual(
    [
      await page.inputValue('#ar-a'),
      await page.inputValue('#ar-set-a'),
      await page.inputValue('#ar-b'),
      await page.inputValue('#ar-set-b'),
    ],
    ['uct', 'c=0.7', 'lgr', 'lgr_p=0.5'],
  );
  assert.deepEqual(
    [await page.inputValue('#ar-budget'), await page.inputValue('#ar-unit'), await page.inputValue('#ar-seed')],
    ['3000', 'iterations', '4'],
  );
  assert.equal(await page.isChecked('#ar-openings'), true, 'Hex without swap: balanced openings');
  assert.match(
    await page.textContent('#ar-status'),
    /Set up from Compare's pane 1 \(uct\) as A and pane 3 \(lgr\) as B: whole games of hex:7 on balanced openings, 3,000 iterations per move\. Press Play\./,
  );
  assertClean(assert, page);
});

test('compare: each pane folds its own settings behind one “settings” control, names what is set in its header, and its board fills the pane', async () => {
  const page = await h.openPage('?view=compare&cmpgame=hex:7&panes=2&pane1=preset:uct,c:0.8&pane2=preset:rave&cmpbudget=2000&cmpseed=1', {
    viewport: { width: 1280, height: 900 },
  });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  for (const k of [0, 1]) {
    // Closed: of the pane's fields only the preset shows; every parameter and the own budget are inside.
    assert.equal(await page.$eval(`#cmp-settings-${k}`, (d) => d.tagName === 'DETAILS' && !d.open), true);
    const shown = await page.$$eval(`#cmp-pane-${k} input, #cmp-pane-${k} select`, (els) =>
      els.filter((e) => e.checkVisibility()).map((e) => e.id),
    );
    assert.deepEqual(shown, [`cmp-preset-${k}`], `pane ${k + 1} shows only its preset`);
    assert.equal(await page.$$eval(`#cmp-settings-${k} input, #cmp-settings-${k} select`, (els) => els.length), 11);
  }
  // What is set over the preset is named in the header and counted on the control.
  assert.match(await page.textContent('#cmp-badge-0'), /· c 0\.8$/);
  assert.equal(await page.textContent('#cmp-settings-0 summary'), 'settings (1 set)');
  assert.equal(await page.textContent('#cmp-settings-1 summary'), 'settings');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  // The board as large as the pane allows: the pane's whole width (the window is tall enough).
  for (const k of [0, 1]) {
    const { board, pane } = await page.evaluate((i) => {
      const p = document.querySelector(`#cmp-pane-${i}`);
      const cs = getComputedStyle(p);
      return {
        board: document.querySelector(`#cmp-board-${i} svg`).getBoundingClientRect().width,
        pane: p.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight),
      };
    }, k);
    assert.ok(board >= 0.95 * pane, `pane ${k + 1}: board ${board} px wide in a pane of ${pane} px`);
  }
  await screenshot(page, 'viz-compare-settings-folded-1280');
  // Opened, the settings show the fields with what the link set.
  await page.click('#cmp-settings-0 summary');
  assert.equal(await page.isVisible('#cmp-c-0'), true);
  assert.equal(await page.inputValue('#cmp-c-0'), '0.8');
  assertClean(assert, page);
});

test('compare on a phone (390×844): four panes side by side in a compact 2×2 grid, the verdicts and bars readable', async () => {
  const page = await h.openPage(
    '?view=compare&game=hex:6&cmpgame=hex:6&cmpmoves=a2&cmpbudget=4000&cmpseed=1&panes=4&pane1=preset:uct&pane2=preset:rave&pane3=preset:lgr&pane4=preset:poolrave',
    { viewport: { width: 390, height: 844 } },
  );
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  await page.waitForFunction(() => [0, 1, 2, 3].every((k) => document.querySelector(`#cmp-truth-${k}`).dataset.state));
  const box = (sel) => page.$eval(sel, (e) => e.getBoundingClientRect().toJSON());
  const p = [await box('#cmp-pane-0'), await box('#cmp-pane-1'), await box('#cmp-pane-2'), await box('#cmp-pane-3')];
  // Two rows of two: 1 beside 2, 3 beside 4, 3 under 1.
  assert.ok(Math.abs(p[0].top - p[1].top) < 1 && p[1].left >= p[0].right, JSON.stringify(p));
  assert.ok(Math.abs(p[2].top - p[3].top) < 1 && p[3].left >= p[2].right, JSON.stringify(p));
  assert.ok(p[2].top >= p[0].bottom && Math.abs(p[2].left - p[0].left) < 1, JSON.stringify(p));
  // Nothing wider than the phone.
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  for (const k of [0, 1, 2, 3]) {
    const pane = p[k];
    const inside = (b) =>
      b.left >= pane.left - 0.5 && b.right <= pane.right + 0.5 && b.top >= pane.top - 0.5 && b.bottom <= pane.bottom + 0.5;
    const board = await box(`#cmp-board-${k} svg`);
    assert.ok(inside(board) && board.width > 100, `pane ${k + 1}'s board: ${JSON.stringify(board)}`);
    // The best move, the verdict and the leading moves' bars are shown, inside the pane, in a readable size.
    for (const sel of [`#cmp-readout-${k}`, `#cmp-truth-${k}`, `#cmp-bars-${k} .bar-row[data-move]`]) {
      const b = await box(sel);
      assert.ok(b.height > 0 && inside(b), `${sel}: ${JSON.stringify(b)} in ${JSON.stringify(pane)}`);
      const px = await page.$eval(sel, (e) => Number.parseFloat(getComputedStyle(e).fontSize));
      assert.ok(px >= 10, `${sel}: ${px} px`);
    }
    const bars = await page.$$eval(`#cmp-bars-${k} .bar-row[data-move]`, (rs) => rs.filter((r) => r.getClientRects().length > 0).length);
    assert.ok(bars >= 3, `pane ${k + 1} shows ${bars} bars`);
  }
  await screenshot(page, 'viz-compare-phone-390');
  // ⤢ zoom gives a pane the whole width again.
  await page.click('#cmp-zoom-1');
  const z = await box('#cmp-pane-1');
  assert.ok(z.width > 300, `zoomed: ${z.width} px`);
  assertClean(assert, page);
});

test('compare: equal playouts is one search per pane that its worker samples itself, never waiting for the page between steps', async () => {
  const page = await h.openPage('?view=compare&game=hex:5&cmpgame=hex:5&cmpbudget=4000&cmpseed=2&pane1=preset:uct&pane2=preset:rave', {
    // Every request the page posts to a worker, and every sample a worker posts back.
    before: (p) =>
      p.addInitScript(() => {
        window.__posts = [];
        window.__samples = 0;
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (m, ...rest) {
          if (m && typeof m === 'object' && (m.slot === 'cmp' || m.type === 'newGame')) {
            window.__workers ??= new Map();
            if (!window.__workers.has(this)) window.__workers.set(this, window.__workers.size);
            window.__posts.push({ worker: window.__workers.get(this), type: m.type, budget: m.budget, samples: m.samples });
          }
          return post.call(this, m, ...rest);
        };
        const desc = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
        Object.defineProperty(Worker.prototype, 'onmessage', {
          get() {
            return desc.get.call(this);
          },
          set(f) {
            desc.set.call(this, (ev) => {
              if (ev.data?.type === 'sample') window.__samples++;
              return f(ev);
            });
          },
        });
      }),
  });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  const posts = await page.evaluate(() => window.__posts);
  const byWorker = {};
  for (const r of posts) byWorker[r.worker] = [...(byWorker[r.worker] ?? []), r];
  for (const rs of Object.values(byWorker).filter((x) => x.some((r) => r.type === 'search'))) {
    // A new game, one search of the whole budget with its samples, and one last inspection.
    assert.deepEqual(
      rs.map((r) => r.type),
      ['newGame', 'search', 'inspect'],
    );
    assert.deepEqual(rs[1].budget, { kind: 'playouts', value: 4000 });
    assert.equal(rs[1].samples.steps, 40);
  }
  // The samples came from the workers, and each pane has all 40, every 100 playouts.
  assert.ok((await page.evaluate(() => window.__samples)) >= 78);
  for (const k of [0, 1])
    assert.deepEqual(
      (await page.getAttribute(`#cmp-truth-${k}`, 'data-history')).split(' ').map((x) => Number(x.split(':')[0])),
      Array.from({ length: 40 }, (_, i) => (i + 1) * 100),
    );
  assertClean(assert, page);
});
