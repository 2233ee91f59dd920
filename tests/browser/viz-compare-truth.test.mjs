// Ground truth beside Compare: on a position the exact solver takes, a run also solves
// it (the solver's worker, as the Solve control); each pane says from how many playouts its best
// move was, and stayed, a proven winning move — a figure that must follow from the pane's own
// recorded samples and `mcts solve --openings` — the pane boards tick the winning moves, and the
// value chart draws the exact value as a dashed line. A lost position says so in every pane. On
// Tic-Tac-Toe (the endgame solver, with draws) a drawn position draws its exact line at 50% and a
// pane's best move is "proven best" once it keeps the draw. On a position the solver does not
// take (hex:9, Pentago with many empty cells) one line says why and Compare is as before; a solve
// stopped before it proves anything says unknown and judges nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, assertClean, screenshot, nativeOpenings } from './harness.mjs';

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

const count = (n) => n.toLocaleString('en');

/** Opens the compare view on `query` (cmp* parameters) and runs it to the end of the panes and of
 * the exact solver's part (proven, or the one line of why not). */
async function runCompare(query, exactEnd) {
  const page = await h.openPage(`?view=compare&${query}`, { viewport: { width: 1280, height: 900 } });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  await page.waitForFunction((x) => document.querySelector('#compare').dataset.exact === x, exactEnd);
  return page;
}

/** Pane k's truth line and its recorded samples (playouts, best move). */
const truthOf = (page, k) =>
  page.$eval(`#cmp-truth-${k}`, (e) => ({
    hidden: e.hidden,
    state: e.dataset.state,
    from: e.dataset.from,
    text: e.textContent,
    history: e.dataset.history
      .split(' ')
      .filter(Boolean)
      .map((s) => {
        const [p, b] = s.split(':');
        return { playouts: Number(p), best: b === '-' ? null : b };
      }),
  }));

/** The value chart's series labels (uPlot's legend). */
const chartLabels = (page) => page.$$eval('#cmp-value-chart .u-legend .u-label', (ls) => ls.map((l) => l.textContent));

/** The cells of pane k's board with an exact mark: name → 'win' | 'draw' | 'loss' | 'open'. */
async function paneMarks(page, k, cols) {
  const byCell = await page.$$eval(`#cmp-board-${k} .viz-overlay [data-ov-cell]`, (gs) =>
    gs.filter((g) => g.dataset.exact).map((g) => [Number(g.dataset.ovCell), g.dataset.exact]),
  );
  return Object.fromEntries(byCell.map(([i, v]) => [`${String.fromCharCode(97 + (i % cols))}${Math.floor(i / cols) + 1}`, v]));
}

test('compare on hex:6 after a2: each pane’s “proven winning from N playouts” follows from its samples and mcts solve; the exact line is drawn', async () => {
  const exact = nativeOpenings('hex:6', 'a2');
  const wins = Object.keys(exact).filter((m) => exact[m] === 'win');
  assert.deepEqual(wins, ['d3'], 'White has one winning reply to a2');
  const page = await runCompare(
    'game=hex:6&cmpgame=hex:6&cmpmoves=a2&cmpbudget=40000&cmpseed=1&panes=3&pane1=preset:uct&pane2=preset:rave&pane3=preset:lgr',
    'proven',
  );
  assert.match(
    await page.textContent('#cmp-exact'),
    new RegExp(
      `^Exact solver: proven: White wins, e\\.g\\. d3 — [\\d,]+ positions, [\\d.]+ s\\. Winning moves: d3 \\(1 of ${Object.keys(exact).length}\\)\\.$`,
    ),
  );
  const states = [];
  for (const k of [0, 1, 2]) {
    const t = await truthOf(page, k);
    assert.equal(t.hidden, false, `pane ${k + 1} says how its best move stands`);
    // The samples are the pane's: 40 of them, every 1,000 playouts, the last its final best move.
    assert.equal(t.history.length, 40);
    assert.deepEqual(
      t.history.map((s) => s.playouts),
      Array.from({ length: 40 }, (_, i) => (i + 1) * 1000),
    );
    assert.equal(t.history.at(-1).best, await page.getAttribute(`#cmp-readout-${k}`, 'data-best'));
    // The first sample from which every later best move is a winning move (mcts solve's).
    let from = null;
    for (let i = t.history.length - 1; i >= 0 && exact[t.history[i].best] === 'win'; i--) from = i;
    if (from === null) {
      assert.equal(t.state, 'not-winning', `pane ${k + 1}`);
      assert.equal(t.from, '');
      const last = t.history.at(-1).best;
      assert.equal(t.text, `✗ exact: best move not a proven winning move within 40,000 playouts (${last} loses; d3 wins)`);
    } else {
      const at = t.history[from].playouts;
      assert.equal(t.state, 'winning', `pane ${k + 1}`);
      assert.equal(t.from, String(at));
      const before = from === 0 ? 'already at the first sample' : `not yet at ${count(t.history[from - 1].playouts)}`;
      assert.equal(
        t.text,
        `✓ exact: best move proven winning by ${count(at)} playouts and at every sample after (${before}; sampled every 1,000 playouts)`,
      );
    }
    states.push(t.state);
    // The pane's board ticks the winning move; its best move carries its own mark.
    const marks = await paneMarks(page, k, 6);
    assert.equal(marks.d3, 'win');
    assert.equal(marks[t.history.at(-1).best], exact[t.history.at(-1).best]);
  }
  assert.ok(states.includes('winning') && states.includes('not-winning'), `this seed gives both verdicts: ${states}`);
  // The value chart: the exact value for White (to move) as a line at 100%, in the legend and in words.
  assert.equal(await page.getAttribute('#cmp-value-chart', 'data-exact'), '1');
  assert.ok((await chartLabels(page)).includes('exact value: White wins (100%)'));
  assert.match(
    await page.textContent('#cmp-value-axes'),
    /Dashed line: the exact value of the position for White, proven by the exact solver — 100%: White wins with perfect play\./,
  );
  assert.match(await page.textContent('#cmp-legend'), /✓ = the side to move wins by playing this move/);
  await screenshot(page, 'compare-truth-hex6');
  assertClean(assert, page);
});

test('hex:7 after a1: each pane’s verdict appears as soon as the root and its move are proven, while the solve runs; a move never proven reads “?”, not “✗”', async () => {
  // 10,000 playouts a pane (not the default 50,000): the panes end long before the solve's 30 s
  // budget even on a loaded machine, so the order of events the test checks is not a race.
  const page = await h.openPage('?view=compare&game=hex:7&cmpgame=hex:7&cmpmoves=a1&cmpseed=1&cmpbudget=10000&panes=4', {
    viewport: { width: 1280, height: 900 },
  });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  // The order of events, in the page: each pane's verdict state as it is set, with the solve's
  // state at that moment.
  await page.evaluate(() => {
    window.__verdicts = [];
    const host = document.querySelector('#compare');
    new MutationObserver((ms) => {
      for (const m of ms) {
        const el = m.target;
        if (!el.classList?.contains('cmp-truth') || !el.dataset.state) continue;
        window.__verdicts.push({ pane: el.id, state: el.dataset.state, exact: host.dataset.exact, text: el.textContent });
      }
    }).observe(host, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
  });
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  // Every pane's line is there (judged, or waiting for a move the solver has not proven yet).
  await page.waitForFunction(() => [0, 1, 2, 3].every((k) => document.querySelector(`#cmp-truth-${k}`).dataset.state));
  const early = await page.evaluate(() => window.__verdicts);
  assert.ok(early.length >= 4, JSON.stringify(early));
  // The first line of each pane came while the exact solver was still solving (not after its whole budget).
  for (const k of [0, 1, 2, 3]) {
    const first = early.find((v) => v.pane === `cmp-truth-${k}`);
    assert.equal(first?.exact, 'solving', `pane ${k + 1}'s verdict appeared while the solve ran: ${JSON.stringify(early)}`);
  }
  // A line that waits for a move the solver has not proven yet says so, with “?”, never “✗”.
  for (const v of early.filter((x) => x.state === 'pending')) assert.match(v.text, /^\? exact: .*not proven yet; the solver goes on/);
  // At the end of the solve, each pane's line stands by what is proven of its best move (the
  // board's mark on it); what the solver did not prove stays unknown: “?” in the neutral colour.
  await page.waitForFunction(() => ['proven', 'unknown'].includes(document.querySelector('#compare').dataset.exact));
  await page.waitForFunction(() => [0, 1, 2, 3].every((k) => document.querySelector(`#cmp-truth-${k}`).dataset.state !== 'pending'));
  const danger = await page.$eval('#compare', (e) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--danger)';
    e.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  });
  for (const k of [0, 1, 2, 3]) {
    const t = await truthOf(page, k);
    const best = t.history.at(-1).best;
    const mark = (await paneMarks(page, k, 7))[best];
    const colour = await page.$eval(`#cmp-truth-${k} strong`, (e) => getComputedStyle(e).color);
    if (mark === 'win') assert.equal(t.state, 'winning', `pane ${k + 1}: ${t.text}`);
    else if (mark === 'loss') {
      assert.equal(t.state, 'not-winning', `pane ${k + 1}: ${t.text}`);
      assert.match(t.text, new RegExp(`^✗ exact: .*\\(${best} loses;`));
      assert.equal(colour, danger);
    } else {
      assert.equal(t.state, 'unproven', `pane ${k + 1}: ${t.text}`);
      assert.match(t.text, new RegExp(`^\\? exact: best move ${best} not proven either way within the solver’s budget, so not judged \\(`));
      assert.notEqual(colour, danger, `pane ${k + 1}'s “?” is not in the colour of a wrong move`);
    }
  }
  await screenshot(page, 'compare-truth-hex7-a1');
  assertClean(assert, page);
});

test('over 8 seeds: each pane’s spread of when it found, and kept, the winning move follows from its seeds’ samples and mcts solve; the seeds are the seed and the next seven', async () => {
  const exact = nativeOpenings('hex:6', 'a2');
  const query = 'game=hex:6&cmpgame=hex:6&cmpmoves=a2&cmpbudget=4000&cmpseed=3&pane1=preset:uct&pane2=preset:lgr';
  const page = await h.openPage(`?view=compare&${query}`, { viewport: { width: 1280, height: 900 } });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.selectOption('#cmp-seeds', '8');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('cmpseeds') === '8');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.exact === 'proven');
  await page.waitForFunction(() => [0, 1].every((k) => document.querySelector(`#cmp-spread-${k}`).dataset.state === 'found'));
  const spreads = [];
  for (const k of [0, 1]) {
    const sp = await page.$eval(`#cmp-spread-${k}`, (e) => ({ ...e.dataset, text: e.textContent, hidden: e.hidden }));
    assert.equal(sp.hidden, false);
    const runs = sp.seeds.split(' ').map((r) => {
      const [seed, list] = r.split('=');
      return {
        seed: Number(seed),
        samples: list.split(',').map((x) => {
          const [n, b] = x.split(':');
          return { playouts: Number(n), best: b === '-' ? null : b };
        }),
      };
    });
    assert.deepEqual(
      runs.map((r) => r.seed),
      [3, 4, 5, 6, 7, 8, 9, 10],
    );
    // The first seed is the pane's own run; each seed is sampled every 100 playouts to 4,000.
    assert.deepEqual(runs[0].samples, (await truthOf(page, k)).history);
    for (const r of runs)
      assert.deepEqual(
        r.samples.map((x) => x.playouts),
        Array.from({ length: 40 }, (_, i) => (i + 1) * 100),
      );
    // Each seed's figure: the first sample from which every later best move wins (mcts solve's).
    const found = runs.map(({ samples }) => {
      let from = null;
      for (let i = samples.length - 1; i >= 0 && exact[samples[i].best] === 'win'; i--) from = i;
      return from === null ? null : samples[from].playouts;
    });
    assert.equal(sp.found, found.map((x) => x ?? '-').join(' '), `pane ${k + 1}`);
    const sorted = found.map((x) => x ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
    const median = (sorted[3] + sorted[4]) / 2;
    assert.equal(sp.median, Number.isFinite(median) ? String(median) : '');
    const got = found.filter((x) => x !== null).sort((a, b) => a - b);
    const head = 'Over 8 seeds \\(3–10\\): ';
    const want = !got.length
      ? `${head}none found, and kept, a proven winning move within 4,000 playouts\\. `
      : Number.isFinite(median)
        ? `${head}a proven winning move found, and kept, by a median of ${count(Math.round(median))} playouts \\(fastest ${count(got[0])}, slowest ${got.length === 8 ? count(got.at(-1)) : 'not within 4,000 playouts'}\\); ${got.length} of 8 found one within 4,000 playouts\\. `
        : `${head}only ${got.length} of 8 found, and kept, a proven winning move within 4,000 playouts \\(by .*${count(got.at(-1))} playouts\\), so the median is not within it\\. `;
    assert.match(sp.text, new RegExp(`^${want}Final best move: `));
    spreads.push(runs);
  }
  // The seeds differ: not one run eight times.
  for (const runs of spreads) assert.ok(new Set(runs.map((r) => r.samples.map((x) => x.best).join())).size > 1);
  await screenshot(page, 'compare-spread-8-seeds');
  assertClean(assert, page);
  // The seeds are derived from the pane's seed alone: a run with seed 5 and one seed gives the
  // samples the spread shows for seed 5.
  const again = await h.openPage(`?view=compare&${query.replace('cmpseed=3', 'cmpseed=5')}&cmprun=1`);
  await again.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done');
  assert.equal(await again.$eval('#cmp-spread-0', (e) => e.hidden), true, 'one seed: no spread');
  for (const k of [0, 1]) assert.deepEqual((await truthOf(again, k)).history, spreads[k].find((r) => r.seed === 5).samples);
  assertClean(assert, again);
});

test('compare on a lost position (hex:5 after c3): every pane says so, the exact line is at 0%', async () => {
  const exact = nativeOpenings('hex:5', 'c3');
  assert.ok(
    Object.values(exact).every((v) => v === 'loss'),
    'White loses whatever it plays after c3 on 5×5',
  );
  const page = await runCompare(
    'game=hex:5&cmpgame=hex:5&cmpmoves=c3&cmpbudget=2000&cmpseed=1&pane1=preset:uct&pane2=preset:rave',
    'proven',
  );
  assert.match(await page.textContent('#cmp-exact'), /^Exact solver: proven: Black wins \(every move of White loses\) — /);
  for (const k of [0, 1]) {
    const t = await truthOf(page, k);
    assert.equal(t.state, 'lost');
    assert.equal(t.text, 'exact: position lost for White: every move loses, whatever the search picks');
  }
  assert.equal(await page.getAttribute('#cmp-value-chart', 'data-exact'), '0');
  assert.ok((await chartLabels(page)).includes('exact value: White loses (0%)'));
  assertClean(assert, page);
});

test('compare on Tic-Tac-Toe after a1 (a draw: only b2 keeps it): each pane’s “proven best from N playouts” follows from its samples and mcts solve; the exact line is at 50%', async () => {
  const exact = nativeOpenings('tictactoe', 'a1');
  const draws = Object.keys(exact).filter((m) => exact[m] === 'draw');
  assert.deepEqual(draws, ['b2'], 'O has one drawing reply to a corner: the centre');
  assert.ok(Object.values(exact).every((v) => v !== 'win'));
  const page = await runCompare(
    'game=tictactoe&cmpgame=tictactoe&cmpmoves=a1&cmpbudget=4000&cmpseed=1&panes=3&pane1=preset:uct&pane2=preset:rave&pane3=preset:lgr',
    'proven',
  );
  assert.match(
    await page.textContent('#cmp-exact'),
    /^Exact solver: proven: a draw with perfect play, e\.g\. b2 — [\d,]+ positions, [\d.]+ s\. Drawing moves: b2 \(1 of 8\)\.$/,
  );
  const states = [];
  for (const k of [0, 1, 2]) {
    const t = await truthOf(page, k);
    assert.equal(t.hidden, false, `pane ${k + 1} says how its best move stands`);
    assert.equal(t.history.length, 40);
    assert.equal(t.history.at(-1).best, await page.getAttribute(`#cmp-readout-${k}`, 'data-best'));
    let from = null;
    for (let i = t.history.length - 1; i >= 0 && exact[t.history[i].best] === 'draw'; i--) from = i;
    if (from === null) {
      assert.equal(t.state, 'not-winning', `pane ${k + 1}`);
      const last = t.history.at(-1).best;
      assert.equal(t.text, `✗ exact: best move not a proven best move within 4,000 playouts (${last} loses; b2 draws)`);
    } else {
      const at = t.history[from].playouts;
      assert.equal(t.state, 'drawing', `pane ${k + 1}`);
      assert.equal(t.from, String(at));
      const before = from === 0 ? 'already at the first sample' : `not yet at ${count(t.history[from - 1].playouts)}`;
      assert.equal(
        t.text,
        `✓ exact: best move proven best (it keeps the draw; no move wins) by ${count(at)} playouts and at every sample after (${before}; sampled every 100 playouts)`,
      );
    }
    states.push(t.state);
    // The pane's board marks the drawing move; its best move carries its own mark.
    const marks = await paneMarks(page, k, 3);
    assert.equal(marks.b2, 'draw');
    assert.equal(marks[t.history.at(-1).best], exact[t.history.at(-1).best]);
  }
  assert.ok(states.includes('drawing'), `some pane keeps the draw: ${states}`);
  // The value chart: the exact value for O (to move) as a line at 50%, in the legend and in words.
  assert.equal(await page.getAttribute('#cmp-value-chart', 'data-exact'), '0.5');
  assert.ok((await chartLabels(page)).includes('exact value: a draw (50%)'));
  assert.match(
    await page.textContent('#cmp-value-axes'),
    /Dashed line: the exact value of the position for O, proven by the exact solver — 50%: a draw with perfect play\./,
  );
  assert.match(await page.textContent('#cmp-legend'), /= on every drawing move when no move wins/);
  await screenshot(page, 'compare-truth-tictactoe');
  assertClean(assert, page);
});

test('compare where the solver does not take the position (hex:9, Pentago with many empty cells): one line says why, the rest as before', async () => {
  for (const [query, why] of [
    ['game=hex:9&cmpgame=hex:9&cmpmoves=e5&cmpbudget=1000', 'Hex 9×9 is too large for the exact solver (it takes boards up to 8×8)'],
    [
      'game=pentago&cmpgame=pentago&cmpbudget=1000',
      'Pentago with 36 empty cells is too large for the exact solver (it takes positions with at most 16 empty cells: 20 or more stones placed)',
    ],
  ]) {
    const page = await runCompare(`${query}&cmpseed=1&pane1=preset:uct&pane2=preset:rave`, 'unavailable');
    assert.equal(await page.textContent('#cmp-exact'), `Exact solver: not used — ${why}.`);
    for (const k of [0, 1]) {
      assert.equal(await page.getAttribute(`#cmp-readout-${k}`, 'data-playouts'), '1000', 'each pane ran its budget');
      const t = await truthOf(page, k);
      assert.equal(t.hidden, true, 'no verdict on the panes');
      assert.equal(t.text, '');
      assert.equal(await page.$$eval(`#cmp-board-${k} .viz-overlay [data-exact]`, (gs) => gs.filter((g) => g.dataset.exact).length), 0);
    }
    // The value chart as before: a line and change markers per pane, no exact line, no words of one.
    assert.equal(await page.getAttribute('#cmp-value-chart', 'data-exact'), '');
    const labels = await chartLabels(page);
    assert.ok(!labels.some((l) => l.startsWith('exact')), labels.join());
    assert.ok(labels.includes('pane 1 uct') && labels.includes('pane 2 rave'));
    assert.doesNotMatch(await page.textContent('#cmp-value-axes'), /Dashed line/);
    assert.doesNotMatch(await page.textContent('#cmp-legend'), /exact solver/);
    assertClean(assert, page);
    await page.context().close();
  }
});

test('a solve stopped before it proves the position says unknown and judges no pane; Run all again continues it', async () => {
  // Hex 8×8 from the empty board: far beyond the solver in 30 s, so it is always running at Stop.
  const page = await h.openPage('?view=compare&game=hex:8&cmpgame=hex:8&cmpbudget=100000000&cmpseed=1&pane1=preset:uct&pane2=preset:rave');
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.click('#cmp-run');
  await page.waitForFunction(() => /solving… /.test(document.querySelector('#cmp-exact').textContent));
  assert.equal(await page.getAttribute('#compare', 'data-exact'), 'solving');
  await page.click('#cmp-stop');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.exact === 'stopped');
  assert.match(
    await page.textContent('#cmp-exact'),
    /^Exact solver: stopped: value unknown; \d+ of 64 moves proven — [\d,]+ positions, [\d.]+ s\. Run all again continues the solve\.$/,
  );
  for (const k of [0, 1]) assert.equal(await page.getAttribute(`#cmp-truth-${k}`, 'data-state'), '', `pane ${k + 1} is not judged`);
  assert.notEqual(await page.getAttribute('#cmp-value-chart', 'data-exact'), '1');
  // Run all again: the same position, the solve goes on from its kept table.
  await page.click('#cmp-run');
  await page.waitForFunction(() => /solving \(continued\)… /.test(document.querySelector('#cmp-exact').textContent));
  await page.click('#cmp-stop');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.exact === 'stopped');
  assertClean(assert, page);
});
