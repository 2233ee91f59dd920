// What a lesson says about figures is what the page shows. A lesson opens with a fixed position,
// seed and budget, so the figures its steps quote (visit shares, win rates, playout counts, the
// iteration the step-through stops at, when a net stopped losing) are the page's own: each step
// that quotes one is walked here as a student walks it, and every figure it quotes is read back
// from the page — the sentence must contain it, and the page must show it. The first test fails
// when a lesson step quotes a figure that no check below reads (a new lesson, or a new sentence).
// The walks also check what every lesson walk checks: each step's button finishes and outlines
// something on screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, assertClean, lessonReady, doLessonStep, ROOT } from './harness.mjs';

const DATA = join(ROOT, 'www', 'src', 'lessons', 'data');
const LESSONS = Object.fromEntries(
  readdirSync(DATA)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(DATA, f), 'utf8')))
    .map((l) => [l.id, l]),
);
const text = (step) => [step.do, step.lookText, step.question, step.answer].join(' ');

/** The figures a step's text quotes: percentages, counts of two digits or more, and shares said in
 * words (half, three quarters, four times); not years of citations, cell names or board sizes. */
export function quotedFigures(step) {
  const t = text(step)
    .replace(/\b(1[89]|20)\d\d\b/g, ' ')
    .replace(/\b[a-s](1[0-9]|[1-9])\b/g, ' ')
    .replace(/\d+×\d+/g, ' ');
  return t.match(/\d+(?:\.\d+)?\s?%|\d{1,3}(?:,\d{3})+|\b\d{2,}\b|\b(?:half|twice|(?:one|two|three) quarters?|\w+ times)\b/gi) ?? [];
}

/** Asserts that the step's text quotes `words` (the figure the check then reads on the page). */
function says(step, words) {
  assert.ok(text(step).includes(words), `the step says “${words}”: ${text(step)}`);
}

// ---- reading the page ----
const readouts = (page) => page.$$eval('.cmp-readout', (rs) => rs.map((r) => ({ ...r.dataset })));
/** Pane `k`'s root moves: move → { share: as shown, visits }. */
const bars = (page, k) =>
  page.$$eval(`#cmp-bars-${k} .bar-row[data-move]`, (rows) =>
    Object.fromEntries(
      rows.map((r) => [
        r.dataset.move,
        { share: r.children[2].textContent, frac: Number(r.dataset.share), visits: Number(r.dataset.visits) },
      ]),
    ),
  );
/** The Policy internals' root-move table: one object per row, keyed by the column heads. */
const internals = (page) =>
  page.$eval('#internals .internals-table', (t) => {
    const head = [...t.querySelectorAll('thead th')].map((th) => th.textContent);
    return [...t.querySelectorAll('tbody tr')].map((tr) => Object.fromEntries([...tr.children].map((td, i) => [head[i], td.textContent])));
  });
const pct = (x) => Math.round(x * 1000) / 10;

/** Checks by `lesson/step`, run right after that step's button has finished. */
const CHECKS = {
  'ucb1/1': async (page, step) => {
    says(step, 'Run the three searches, 20,000 playouts each');
    assert.deepEqual(
      (await readouts(page)).map((r) => r.playouts),
      ['20000', '20000', '20000'],
    );
    // c = 0.1 piles the visits on one move; c = 3 spreads them (no move gets a tenth).
    says(step, 'c = 0.1 piles them on the move that looked best early');
    says(step, 'c = 3 spreads them almost evenly');
    const top = async (k) => Math.max(...Object.values(await bars(page, k)).map((b) => b.frac));
    assert.ok((await top(0)) > 0.9, `c = 0.1: ${await top(0)}`);
    assert.ok((await top(2)) < 0.1, `c = 3: ${await top(2)}`);
  },
  'ucb1/2': async (page, step) => {
    says(step, 'c = 1.4');
    assert.equal(await page.inputValue('#cmp-c-0'), '1.4');
    assert.deepEqual(
      (await readouts(page)).map((r) => r.playouts),
      ['20000', '20000', '20000'],
    );
  },
  'rave/1': async (page, step) => {
    says(step, '20,000 playouts each, seed 1');
    assert.equal(await page.inputValue('#cmp-seed'), '1');
    assert.deepEqual(
      (await readouts(page)).map((r) => r.playouts),
      ['20000', '20000'],
    );
    says(step, 'RAVE piles them on a few cells — d4, the centre, 45%, c6 28%, e4 7.5%');
    const rave = await bars(page, 1);
    assert.deepEqual(Object.keys(rave).slice(0, 3), ['d4', 'c6', 'e4']);
    assert.deepEqual([rave.d4.share, rave.c6.share, rave.e4.share], ['45%', '28%', '7.5%']);
    says(step, 'its most visited move, f2, with only 3.8%');
    const uct = await bars(page, 0);
    assert.equal(Object.keys(uct)[0], 'f2');
    assert.equal(uct.f2.share, '3.8%');
  },
  'rave/2': async (page, step) => {
    says(step, 'analyse the same position with RAVE, 20,000 playouts');
    assert.equal(await page.getAttribute('#an-status', 'data-iterations'), '20000');
    says(
      step,
      'β is small for the most-visited moves and near 1 for the rarely visited ones — 0.19 for d4 (8,988 visits), 0.87 for f2 (106)',
    );
    const rows = await internals(page);
    const row = (m) => rows.find((r) => r.move === m);
    assert.deepEqual([row('d4').N, Number(row('d4').β).toFixed(2)], ['8,988', '0.19']);
    assert.deepEqual([row('f2').N, Number(row('f2').β).toFixed(2)], ['106', '0.87']);
    // β falls as the visits grow, row by row (the rows are by visits).
    const betas = rows.map((r) => Number(r.β));
    assert.deepEqual(
      [...betas].sort((a, b) => a - b),
      betas,
      'β rises down the table',
    );
  },
  'decisive/1': async (page, step) => {
    says(step, 'Run both panes with only 300 playouts');
    assert.deepEqual(
      (await readouts(page)).map((r) => r.playouts),
      ['300', '300'],
    );
    says(step, "rate White's chances near 60%");
    const uct = Number((await readouts(page))[0].value);
    assert.ok(Math.abs(uct - 0.6) <= 0.03, `UCT's value ${uct}`);
    says(step, 'plain UCT gives it a minority, “decisive” almost all');
    assert.ok((await bars(page, 0)).b5.frac < 0.5);
    assert.ok((await bars(page, 1)).b5.frac > 0.85);
  },
  'decisive/2': async (page, step) => {
    says(step, 'Raise the budget to 3,000 playouts');
    assert.equal(await page.inputValue('#cmp-budget'), '3000');
    assert.deepEqual(
      (await readouts(page)).map((r) => r.playouts),
      ['3000', '3000'],
    );
  },
  'puct-prior/1': async (page, step) => {
    says(step, 'puct preset, 2,000 playouts');
    assert.equal(await page.getAttribute('#an-status', 'data-iterations'), '2000');
    says(step, 'b5, the block, has a prior four times that of the other moves');
    const rows = await internals(page);
    const b5 = Number(rows.find((r) => r.move === 'b5').P);
    for (const r of rows.filter((x) => x.move !== 'b5'))
      assert.ok(Math.abs(b5 / Number(r.P) - 4) < 0.05, `${r.move}: P ${r.P} against b5's ${b5}`);
  },
  'puct-prior/2': async (page, step) => {
    says(step, 'with 300 playouts');
    assert.deepEqual(
      (await readouts(page)).map((r) => r.playouts),
      ['300', '300'],
    );
  },
  'solver/1': async (page, step) => {
    says(step, 'up to 100,000 playouts, seed 1');
    const [uct, solver] = await readouts(page);
    assert.equal(uct.playouts, '100000');
    says(step, 'plain UCT rates X at about 60% after 100,000 playouts');
    assert.ok(Math.abs(Number(uct.value) - 0.6) <= 0.015, `UCT's value ${uct.value}`);
    says(step, 'the solver pane proves the root a draw after about 56,000 and stops');
    assert.ok(Math.abs(Number(solver.playouts) - 56_000) <= 1000, `the solver proved the draw at ${solver.playouts}`);
    assert.match(await page.textContent('#cmp-readout-1'), /proven draw/);
    says(step, 'rings b2, a proven draw, although c2, a2, b3 and b1 have twice its visits');
    assert.equal(solver.best, 'b2');
    const b = await bars(page, 1);
    for (const m of ['c2', 'a2', 'b3', 'b1']) assert.ok(b[m].visits >= 2 * b.b2.visits, `${m}: ${b[m].visits} against b2's ${b.b2.visits}`);
    // The legend says why the ring is not on the most visited move.
    says(step, 'it plays the secure child (the highest Q − 1/√n), not the most visited');
    assert.match(
      await page.textContent('#cmp-legend'),
      /Pane 2 \(solver\) rings b2, not its most visited move c2: both are proven draws, and among moves proven equal its preset plays the secure child/,
    );
    // A proven move's win rate is its proven value.
    assert.equal(await page.textContent('#cmp-bars-1 .bar-row[data-move="b2"] .bar-num:last-child'), '50% D');
  },
  'solver/2': async (page, step) => {
    says(step, 'Here all nine first moves are proven draws');
    const rows = await internals(page);
    assert.equal(rows.length, 9);
    assert.ok(
      rows.every((r) => r.proven === 'draw'),
      rows.map((r) => r.proven).join(),
    );
    says(step, 'so each shows the win rate of a draw, 50%');
    assert.ok(
      rows.every((r) => r['win rate'] === '50.0% (draw)'),
      rows.map((r) => r['win rate']).join(),
    );
    says(step, "their playouts' means, between 61% and 69%, no longer count");
    const qs = rows.map((r) => Number(r['Q (raw)']));
    assert.ok(Math.min(...qs) >= 0.61 && Math.max(...qs) <= 0.69, qs.join());
  },
  'lgr/3': async (page, step) => {
    says(step, 'last 200 engine moves');
    says(step, 'a tree snapshot of at most 4,000 nodes');
    const src = readFileSync(join(ROOT, 'www', 'src', 'play', 'searches.ts'), 'utf8');
    assert.match(src, /export const KEEP_SEARCHES = 200;/);
    assert.match(src, /maxNodes: 4000 \}/);
    says(step, '(at most about 130 KB; 30–60 KB at this budget); 200 of them stay within about 26 MB');
    const kept = await page.evaluate(() => window.__playground.searchBytes());
    assert.ok(kept.length >= 2);
    for (const e of kept) {
      assert.ok(e.nodes <= 4000);
      assert.ok(e.bytes >= 30_000 && e.bytes <= 60_000, `move ${e.ply}: ${e.bytes} bytes`);
    }
  },
  'start/1': async (page, step) => {
    says(step, 'let it run 10 iterations, then show the selection phase of iteration 11');
    assert.equal(await page.getAttribute('#step', 'data-iteration'), '11');
  },
  'start/5': async (page, step) => {
    says(step, 'Run 100 more iterations');
    assert.equal(await page.getAttribute('#step', 'data-iteration'), '111');
  },
  'which-policy/1': async (page, step) => {
    says(step, '40,000 playouts each, seed 1');
    const rs = await readouts(page);
    assert.deepEqual(
      rs.map((r) => r.playouts),
      ['40000', '40000', '40000'],
    );
    says(step, 'UCT ends on c4, RAVE on b5, LGR on d3, all between 57% and 60% for White');
    assert.deepEqual(
      rs.map((r) => r.best),
      ['c4', 'b5', 'd3'],
    );
    for (const r of rs) assert.ok(pct(Number(r.value)) >= 57 && pct(Number(r.value)) <= 60, r.value);
  },
  'which-policy/2': async (page, step) => {
    says(step, 'd3 is the only winning move of 35');
    assert.match(await page.textContent('#cmp-exact'), /Winning moves: d3 \(1 of 35\)/);
    says(step, 'RAVE put three quarters of its visits on b5');
    const share = (await bars(page, 1)).b5.frac;
    assert.ok(share >= 0.7 && share <= 0.8, String(share));
    says(step, 'outlast 40,000 playouts');
  },
  'which-policy/3': async (page, step) => {
    const history = async (k) =>
      Object.fromEntries(
        (await page.getAttribute(`#cmp-truth-${k}`, 'data-history')).split(' ').map((x) => x.split(':').map((y, i) => (i ? y : Number(y)))),
      );
    const [uct, rave, lgr] = [await history(0), await history(1), await history(2)];
    says(step, 'LGR: best move proven winning by 3,000 playouts and at every sample after');
    assert.equal(await page.getAttribute('#cmp-truth-2', 'data-from'), '3000');
    says(step, 'the panes are read every 1,000 playouts');
    assert.deepEqual(Object.keys(uct).slice(0, 3), ['1000', '2000', '3000']);
    says(step, 'UCT: not a winning move within 40,000 (it had d3 until 11,000, lost it, found it again at 29,000 and ended on c4)');
    const uctD3 = Object.entries(uct)
      .filter(([, m]) => m === 'd3')
      .map(([n]) => Number(n));
    assert.equal(uct[11000], 'd3');
    assert.notEqual(uct[12000], 'd3');
    assert.equal(Math.min(...uctD3.filter((n) => n > 11000)), 29000);
    assert.equal(uct[40000], 'c4');
    says(step, 'RAVE: never');
    assert.ok(Object.values(rave).every((m) => m !== 'd3'));
    says(step, "UCT's best move was d3, the winning move, at the very first sample");
    assert.equal(uct[1000], 'd3');
    says(step, 'Stopped at 20,000 playouts, UCT would have played c3');
    assert.equal(uct[20000], 'c3');
    says(step, '“by 3,000” means somewhere after 2,000 and at most 3,000');
    assert.notEqual(lgr[2000], 'd3');
    assert.equal(lgr[3000], 'd3');
  },
  'which-policy/4': async (page, step) => {
    says(step, 'the dashed line at 100%');
    assert.equal(await page.getAttribute('#cmp-value-chart', 'data-exact'), '1');
    says(step, "each pane's win rate of its best move runs between 53% and 69%");
    const all = [];
    for (const k of [0, 1, 2]) all.push(...(await page.getAttribute(`#cmp-truth-${k}`, 'data-values')).split(' ').map(Number));
    assert.deepEqual([Math.floor(Math.min(...all) * 100), Math.ceil(Math.max(...all) * 100)], [53, 69]);
    says(step, 'LGR found the winning move, yet its win rate is 59%');
    assert.equal(Math.round(Number((await readouts(page))[2].value) * 100), 59);
    says(step, 'far more than 40,000 playouts');
  },
  'which-policy/5': async (page, step) => {
    says(step, 'How does the solver prove 35 moves');
    const marks = await page.$$eval('#board .viz-overlay [data-ov-cell]', (gs) => gs.map((g) => g.dataset.exact).filter(Boolean));
    assert.equal(marks.length, 35);
    assert.deepEqual(
      marks.filter((m) => m === 'win'),
      ['win'],
    );
  },
  'which-policy/6': async (page, step) => {
    says(step, 'seed 1 and the next seven, 40,000 playouts each');
    const spread = (k) => page.$eval(`#cmp-spread-${k}`, (e) => ({ ...e.dataset, text: e.textContent }));
    const [uct, rave, lgr] = [await spread(0), await spread(1), await spread(2)];
    for (const s of [uct, rave, lgr]) {
      assert.deepEqual(
        s.seeds.split(' ').map((r) => Number(r.split('=')[0])),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
      assert.equal(s.state, 'found');
    }
    const found = (s) =>
      s.found
        .split(' ')
        .filter((x) => x !== '-')
        .map(Number)
        .sort((a, b) => a - b);
    says(
      step,
      'each found, and kept, d3 in only two runs of eight (LGR by 3,000 and 23,000 playouts, RAVE by 3,000 and 7,000, UCT by 24,000 and 29,000)',
    );
    assert.deepEqual(
      [found(uct), found(rave), found(lgr)],
      [
        [24000, 29000],
        [3000, 7000],
        [3000, 23000],
      ],
    );
    says(step, 'all three most often end on c4');
    for (const s of [uct, rave, lgr]) assert.match(s.text, /Final best move: c4 ×\d/);
    says(step, 'RAVE, which never found it with seed 1, found it by 3,000 playouts with another');
    assert.equal(rave.found.split(' ')[0], '-');
  },
  'rave-connect4/1': async (page, step) => {
    says(step, '20,000 playouts each, seed 1');
    assert.equal(await page.inputValue('#cmp-seed'), '1');
    assert.deepEqual(
      (await readouts(page)).map((r) => r.playouts),
      ['20000', '20000'],
    );
    says(step, 'UCT gives column e 73% of them (14,645 playouts)');
    const uct = await bars(page, 0);
    assert.equal(Object.keys(uct)[0], 'e');
    assert.deepEqual([uct.e.share, uct.e.visits], ['73%', 14645]);
    says(step, 'RAVE gives column a 98% (19,628) and every other column less than 1%');
    const rave = await bars(page, 1);
    assert.equal(Object.keys(rave)[0], 'a');
    assert.deepEqual([rave.a.share, rave.a.visits], ['98%', 19628]);
    for (const [m, b] of Object.entries(rave)) if (m !== 'a') assert.equal(b.share, '<1%', m);
  },
  'rave-connect4/2': async (page, step) => {
    says(step, 'Red wins, and e is the only winning move of 7');
    assert.match(await page.textContent('#cmp-exact'), /proven: Red wins.*Winning moves: e \(1 of 7\)/);
    says(step, 'Red then threatens d3');
  },
  'rave-connect4/3': async (page, step) => {
    says(step, 'UCT: best move proven winning by 500 playouts (its first sample) and at every sample after');
    assert.equal(await page.getAttribute('#cmp-truth-0', 'data-from'), '500');
    const history = async (k) => (await page.getAttribute(`#cmp-truth-${k}`, 'data-history')).split(' ').map((x) => x.split(':'));
    assert.deepEqual((await history(0))[0], ['500', 'e']);
    says(step, 'RAVE: not a winning move within 20,000 playouts — its best move was a at every sample');
    assert.equal(await page.getAttribute('#cmp-truth-1', 'data-state'), 'not-winning');
    const rave = await history(1);
    assert.equal(rave.at(-1)[0], '20000');
    assert.ok(
      rave.every(([, m]) => m === 'a'),
      rave.join(' '),
    );
    says(step, 'Why does it not find e even with 20,000?');
  },
  'rave-connect4/4': async (page, step) => {
    says(step, 'analyse the same position with RAVE, 20,000 playouts');
    assert.equal(await page.getAttribute('#an-status', 'data-iterations'), '20000');
    const rows = await internals(page);
    const row = (m) => rows.find((r) => r.move === m);
    says(
      step,
      'the AMAF values of f (0.581), b (0.572), e (0.564) and a (0.517) lie within 0.07 of each other, and e, the only winning column, is third',
    );
    const amaf = ['f', 'b', 'e', 'a'].map((m) => row(m)['AMAF Q']);
    assert.deepEqual(amaf, ['0.581', '0.572', '0.564', '0.517']);
    const byAmaf = [...rows].sort((x, y) => Number(y['AMAF Q']) - Number(x['AMAF Q'])).map((r) => r.move);
    assert.equal(byAmaf.indexOf('e'), 2, byAmaf.join());
    says(step, "e has 99 visits of its own, Q 0.091, and β 0.878, so its blend, 0.506, stays below a's 0.517");
    const e = row('e');
    assert.deepEqual([e.N, e['Q (raw)'], e.β, e['(1−β)Q+βA']], ['99', '0.091', '0.878', '0.506']);
    assert.equal(row('a')['(1−β)Q+βA'], '0.517');
    assert.equal(rows[0].move, 'a', 'a is the most visited');
    says(step, "e's AMAF value rests on 2,247 playouts");
    assert.equal(Number(e['AMAF N']), 2247);
    // The analysis's tree: below e, after Yellow's a, RAVE's Red drops its disc in e or f.
    says(step, "after Yellow's a (three discs in column a), RAVE's Red drops its disc in e (69 of 86 visits) or f (14)");
    const labels = await page.$$eval('.nl-node .nl-label', (ls) => ls.map((l) => l.textContent.replace(/\s+/g, ' ').trim()));
    for (const l of ['e N=99 9.1%', 'a N=86 98.8%', 'e N=69 1.4%', 'f N=14 0.0%'])
      assert.ok(labels.includes(l), `${l} in ${labels.join(' | ')}`);
    // β = √(k / (3n + k)) with k = 1,000, the preset's rave_k, on every row.
    says(step, 'β = √(k / (3n + k)) with k = 1,000');
    for (const r of rows) {
      const n = Number(r.N.replace(/,/g, ''));
      assert.equal(Number(r.β).toFixed(3), Math.sqrt(1000 / (3 * n + 1000)).toFixed(3), `${r.move}: N ${r.N}, β ${r.β}`);
    }
  },
  'rave-connect4/5': async (page, step) => {
    says(step, 'seed 1 and the next seven, 20,000 playouts each');
    const spread = (k) => page.$eval(`#cmp-spread-${k}`, (e) => ({ ...e.dataset, text: e.textContent }));
    const [uct, rave] = [await spread(0), await spread(1)];
    for (const s of [uct, rave])
      assert.deepEqual(
        s.seeds.split(' ').map((r) => Number(r.split('=')[0])),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
    const found = (s) => s.found.split(' ').filter((x) => x !== '-');
    says(step, 'UCT found, and kept, e in 7 runs of 8 (a median of 2,250 playouts)');
    assert.equal(found(uct).length, 7);
    assert.equal(uct.median, '2250');
    says(step, 'RAVE in 1 of 8 (by 3,000 playouts), and ended on a ×4, b ×3, e ×1');
    assert.deepEqual(found(rave), ['3000']);
    assert.match(rave.text, /Final best move: a ×4, b ×3, e ×1\./);
  },
  'alphazero-train/1': async (page, step) => {
    says(step, 'Start a run of 20 iterations of 40 self-play games each (64 playouts per move, 100 Adam steps, learning rate 0.002)');
    const v = async (id) => page.inputValue(`input#${id}`);
    assert.deepEqual(
      [await v('tr-iterations'), await v('tr-games'), await v('tr-playouts'), await v('tr-steps'), await v('tr-lr')],
      ['20', '40', '64', '100', '0.002'],
    );
    says(step, 'with 64 playouts, PUCT finds');
  },
  'alphazero-train/3': async (page, step) => {
    says(step, 'Let training finish its 20 iterations');
    assert.equal(await page.getAttribute('#train', 'data-iteration'), '20');
    says(step, 'this run (seed 1) first lost no game at iteration 18, after 720 self-play games');
    assert.equal(await page.getAttribute('#train', 'data-unbeaten-at'), '720');
    assert.match(await page.textContent('#tr-unbeaten'), /first lost no game to perfect play at iteration 18, after 720 self-play games/);
    says(step, 'stop losing after 350–550 self-play games');
  },
  'alphazero-hex7/1': async (page, step) => {
    says(step, 'Run alphazero (the shipped 7×7 net) and best on the position, 1,000 playouts each, seed 1');
    assert.equal(await page.inputValue('#cmp-seed'), '1');
    const rs = await readouts(page);
    assert.deepEqual(
      rs.map((r) => r.playouts),
      ['1000', '1000'],
    );
    says(step, "alphazero gives d5 96% of them (964 playouts) and rates White's chances at 98.3%");
    const az = await bars(page, 0);
    assert.equal(Object.keys(az)[0], 'd5');
    assert.deepEqual([az.d5.share, az.d5.visits], ['96%', 964]);
    assert.deepEqual([rs[0].best, pct(Number(rs[0].value))], ['d5', 98.3]);
    says(step, 'best gives d5 81% (806) and rates them at 61.4%');
    const best = await bars(page, 1);
    assert.equal(Object.keys(best)[0], 'd5');
    assert.deepEqual([best.d5.share, best.d5.visits], ['81%', 806]);
    assert.deepEqual([rs[1].best, pct(Number(rs[1].value))], ['d5', 61.4]);
    says(step, "The net's pane is sharper");
    assert.ok(az.d5.frac > best.d5.frac);
  },
  'alphazero-hex7/2': async (page, step) => {
    says(step, 'White wins, and d5, b7 and c7 are the winning moves, 3 of 42');
    assert.match(await page.textContent('#cmp-exact'), /proven: White wins.*Winning moves: d5, b7 and c7 \(3 of 42\)/);
    says(step, "✓ marks them, and both panes' move, d5, is one");
    for (const k of [0, 1]) assert.match(await page.textContent(`#cmp-truth-${k}`), /✓ exact: best move proven winning/);
    says(step, 'this one piles them on d5, which wins');
    assert.ok((await bars(page, 0)).d5.frac > 0.8);
  },
  'alphazero-hex7/3': async (page, step) => {
    says(step, 'the dashed line at 100%, the exact value for White');
    assert.equal(await page.getAttribute('#cmp-value-chart', 'data-exact'), '1');
    const values = async (k) => (await page.getAttribute(`#cmp-truth-${k}`, 'data-values')).split(' ').map(Number);
    const history = async (k) => (await page.getAttribute(`#cmp-truth-${k}`, 'data-history')).split(' ').map((x) => x.split(':'));
    says(step, "alphazero's win rate, on d5 at every sample, is 99% at 25 playouts, stays between 98% and 99% and ends at 98%");
    const az = await history(0);
    assert.ok(
      az.every(([, m]) => m === 'd5'),
      az.join(' '),
    );
    assert.equal(await page.getAttribute('#cmp-truth-0', 'data-state'), 'winning');
    const v = await values(0);
    assert.deepEqual([az[0][0], Math.round(v[0] * 100)], ['25', 99]);
    assert.deepEqual([Math.round(Math.min(...v) * 100), Math.round(Math.max(...v) * 100)], [98, 99]);
    assert.deepEqual([az.at(-1)[0], Math.round(v.at(-1) * 100)], ['1000', 98]);
    says(step, "best's ends at 61%, on d5, a winning move from 100 playouts on");
    assert.equal(Math.round((await values(1)).at(-1) * 100), 61);
    assert.equal(await page.getAttribute('#cmp-truth-1', 'data-from'), '100');
    assert.deepEqual((await history(1)).at(-1), ['1000', 'd5']);
    says(step, 'both win rates stay below 100%');
    for (const k of [0, 1]) assert.ok(Math.max(...(await values(k))) < 1);
  },
  'alphazero-hex7/4': async (page, step) => {
    says(step, 'analyse the same position with alphazero, 1,000 playouts');
    assert.equal(await page.getAttribute('#an-status', 'data-iterations'), '1000');
    const rows = await internals(page);
    const row = (m) => rows.find((r) => r.move === m);
    says(step, "the net's prior: d5 0.774, a winning move; the other two winning moves, c7 0.017 and b7 0.015");
    assert.deepEqual(
      ['d5', 'c7', 'b7'].map((m) => row(m).P),
      ['0.774', '0.017', '0.015'],
    );
    assert.ok(rows.every((r) => Number(r.N) > 0));
    says(step, "e5, the first net's choice, never visited, is not in the table");
    assert.equal(row('e5'), undefined, 'e5 is not in the table');
    says(step, 'the value head at this position: 99.8% for White, the side to move, who wins');
    assert.match(await page.textContent('#internals'), /Value head at this position: 99\.8% for the side to move/);
    says(step, 'Why do d4 and e3, which lose, get 10 and 9 visits, more than the winning c7 and b7 (6 and 7)?');
    assert.deepEqual(
      ['d5', 'd4', 'e3', 'c7', 'b7'].map((m) => row(m).N),
      ['964', '10', '9', '6', '7'],
    );
    says(step, 'with c = 1.25 and N = 1,000');
    assert.match(await page.textContent('#internals'), /c = 1\.25, N = 1,000 root visits/);
    says(step, "e3's prior of 0.047 gives it U = 0.187 after its 9 visits, d5 only 0.032 after 964");
    const U = 'U = c·P·√N/(1+n)';
    assert.deepEqual([row('e3').P, row('e3')[U], row('d5')[U]], ['0.047', '0.187', '0.032']);
    says(step, "Q = 0.812, too high for a losing move, so its Q + U = 0.999 comes close to d5's 1.014 (Q = 0.983)");
    assert.deepEqual(
      [row('e3')['Q (raw)'], row('e3')['Q + U'], row('d5')['Q + U'], row('d5')['Q (raw)']],
      ['0.812', '0.999', '1.014', '0.983'],
    );
    says(step, "c7's prior is a third of e3's, so the search comes to it late, but its Q is 0.911");
    assert.equal(row('c7')['Q (raw)'], '0.911');
  },
  'alphazero-hex7/5': async (page, step) => {
    says(step, 'seed 1 and the next seven, 1,000 playouts each');
    const spread = (k) => page.$eval(`#cmp-spread-${k}`, (e) => ({ ...e.dataset, text: e.textContent }));
    const [az, best] = [await spread(0), await spread(1)];
    const runs = (s) => s.seeds.split(' ').map((r) => r.split('='));
    for (const s of [az, best])
      assert.deepEqual(
        runs(s).map(([seed]) => Number(seed)),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
    says(step, 'alphazero found d5, a winning move, by its first sample at 25 playouts in 8 of 8 and ended on d5 ×8');
    assert.deepEqual(az.found.split(' '), Array(8).fill('25'));
    assert.ok(runs(az).every(([, h]) => h.startsWith('25:d5,')));
    assert.match(az.text, /Final best move: d5 ×8\./);
    says(step, 'the eight searches are the same search eight times');
    assert.equal(new Set(runs(az).map(([, h]) => h)).size, 1);
    says(step, 'best found, and kept, one in 8 of 8 (a median of 150 playouts) and ended on d5 ×8');
    assert.equal(best.found.split(' ').filter((x) => x !== '-').length, 8);
    assert.equal(best.median, '150');
    assert.match(best.text, /Final best move: d5 ×8\./);
    says(step, 'differ in when they find d5 (from 50 to 825 playouts)');
    assert.match(best.text, /fastest 50, slowest 825/);
  },
};

test('every lesson step that quotes a figure has a check that reads it on the page', () => {
  const missing = [];
  for (const l of Object.values(LESSONS))
    l.steps.forEach((s, k) => {
      const figures = quotedFigures(s);
      if (figures.length && !CHECKS[`${l.id}/${k + 1}`]) missing.push(`${l.id} step ${k + 1} quotes ${figures.join(', ')}`);
    });
  assert.deepEqual(missing, []);
  // And no check is left over from a lesson or step that is gone.
  for (const key of Object.keys(CHECKS)) {
    const [id, n] = key.split('/');
    assert.ok(LESSONS[id]?.steps[Number(n) - 1], `${key}: no such lesson step`);
  }
});

let h;
before(async () => {
  h = await setup();
});
after(async () => {
  await h?.close();
});

async function ready(page) {
  await lessonReady(page);
}

/** Walks lesson `id` step by step, checking what each step outlines (`looks`, when given) and
 * every figure it quotes. */
async function walk(id, looks = []) {
  const lesson = LESSONS[id];
  const page = await h.openPage(`?lesson=${id}`);
  await ready(page);
  for (const [k, step] of lesson.steps.entries()) {
    const outlined = await doLessonStep(page, k + 1);
    if (looks[k]) assert.equal(outlined, looks[k], `${id} step ${k + 1} outlines ${looks[k]}`);
    await CHECKS[`${id}/${k + 1}`]?.(page, step);
  }
  assertClean(assert, page);
  await page.context().close();
}

test('ucb1: the three values of c, their visits and the new c', () => walk('ucb1', ['cmp-panes', 'cmp-pane-0']));
test('rave: where RAVE and UCT put their visits; β against N', () => walk('rave', ['cmp-panes', 'internals']));
test('decisive: the shares of b5 and UCT’s value', () => walk('decisive', ['cmp-panes', 'cmp-pane-0']));
test('puct-prior: the prior of the block; the shares of b5', () => walk('puct-prior', ['internals', 'cmp-panes']));
test('solver: UCT’s value, the draw proven, the ring explained, proven values shown', () => walk('solver', ['cmp-panes', 'internals']));
test('lgr: the kept searches’ size', () => walk('lgr', ['lgr-replies', 'lgr-replies', 'moves']));
test('which-policy: the three searches, the solver’s verdict, the samples', () =>
  walk('which-policy', ['cmp-panes', 'cmp-exact', 'cmp-truth-0', 'cmp-value-chart', 'board', 'cmp-spread-0']));
test('rave-connect4: where UCT and RAVE put their visits, the one winning column, AMAF against Q, eight seeds', () =>
  walk('rave-connect4', ['cmp-panes', 'cmp-exact', 'cmp-truth-0', 'internals', 'cmp-spread-0']));
test('start: the iterations the step-through stops at', () => walk('start'));
test('alphazero-hex7: where the net and best put their visits, the exact moves, the values, the prior, eight seeds', () =>
  walk('alphazero-hex7', ['cmp-panes', 'cmp-exact', 'cmp-value-chart', 'internals', 'cmp-spread-0']));
test('alphazero-train: the run’s settings and when the raw policy stopped losing', () => walk('alphazero-train'));
