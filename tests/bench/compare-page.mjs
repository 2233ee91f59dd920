// Compare's page benchmark (issue 47, finding 6): how long Compare takes around its searches, as
// figures, never as pass/fail. Serves www/dist as the browser tests do (build it first: `cd www &&
// npx vite build`), drives /usr/bin/chromium, prints one JSON object on stdout, progress on stderr.
//
//   node tests/bench/compare-page.mjs            # 3 runs of each case, medians
//   BENCH_RUNS=5 node tests/bench/compare-page.mjs
//
// Cases, each on a fresh page (a new browser context), Hex 7×7, seed 1, four panes (uct, rave,
// lgr, poolrave) at 50,000 playouts each:
// - `run_*`: Run all pressed on a ready page, to the run's `done` (page clock);
// - `link_*`: a shared link (cmprun=1) opened, from navigation to the run's `done`;
// with `empty` (the empty board: the exact solver works beside the panes for its whole budget)
// and `a1` (after a1: the solver proves the root in a second or two). For each: the wall time,
// the panes' own engine time (the longest and the sum: what the searches themselves took), the
// main thread's long tasks (count, total) while it ran, and the worker messages posted.
import { cpus, loadavg } from 'node:os';
import { setup } from '../browser/harness.mjs';

const log = (...a) => console.error('#', ...a);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const round = (x, d = 0) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return null;
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

const PANES = 'panes=4&pane1=preset:uct&pane2=preset:rave&pane3=preset:lgr&pane4=preset:poolrave';
const query = (moves) => `?view=compare&game=hex:7&cmpgame=hex:7${moves ? `&cmpmoves=${moves}` : ''}&cmpbudget=50000&cmpseed=1&${PANES}`;

/** In the page, before it loads: the times (page clock) at which Compare's run state changes, the
 * main thread's long tasks, and the messages posted to workers by type. */
function instrument() {
  window.__cmpBench = { states: [], tasks: [], posts: {} };
  const b = window.__cmpBench;
  new MutationObserver((ms) => {
    for (const m of ms) {
      const el = m.target;
      if (el.id === 'compare') b.states.push([el.dataset.state, performance.now()]);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) b.tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m, ...rest) {
    const t = m && typeof m === 'object' ? m.type : '?';
    b.posts[t] = (b.posts[t] ?? 0) + 1;
    return post.call(this, m, ...rest);
  };
}

async function figures(page, from) {
  return page.evaluate(
    ([t0]) => {
      const b = window.__cmpBench;
      const done = b.states.findLast((s) => s[0] === 'done')?.[1];
      const tasks = b.tasks.filter(([s]) => s >= t0 && s <= done);
      const ms = [...document.querySelectorAll('.cmp-readout')].map((r) => Number(r.dataset.ms)).filter(Number.isFinite);
      return {
        wall_ms: done - t0,
        engine_max_ms: Math.max(...ms),
        engine_sum_ms: ms.reduce((a, x) => a + x, 0),
        longtasks: tasks.length,
        longtask_ms: tasks.reduce((a, [, d]) => a + d, 0),
        searches: b.posts.search ?? 0,
        inspects: b.posts.inspect ?? 0,
      };
    },
    [from],
  );
}

async function runAll(h, moves) {
  const page = await h.openPage(query(moves), { before: (p) => p.addInitScript(instrument) });
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  // From the press of Run all on a page that is ready, as a person presses it.
  const t0 = await page.evaluate(() => performance.now());
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done', null, { timeout: 600_000 });
  const f = await figures(page, t0);
  await page.context().close();
  return f;
}

async function link(h, moves) {
  const page = await h.openPage(`${query(moves)}&cmprun=1`, { before: (p) => p.addInitScript(instrument) });
  await page.waitForFunction(() => document.querySelector('#compare')?.dataset.state === 'done', null, { timeout: 600_000 });
  const f = await figures(page, 0);
  await page.context().close();
  return f;
}

function summary(runs) {
  const keys = Object.keys(runs[0]);
  return {
    runs: runs.length,
    median: Object.fromEntries(keys.map((k) => [k, round(median(runs.map((r) => r[k])))])),
    each_wall_ms: runs.map((r) => round(r.wall_ms)),
  };
}

const result = {
  bench: 'compare-page',
  date: new Date().toISOString(),
  what: 'Hex 7×7, four panes (uct, rave, lgr, poolrave), 50,000 playouts each, seed 1',
  machine: { cpus: cpus().length, loadavg_start: loadavg().map((x) => round(x, 2)) },
};
const h = await setup();
try {
  for (const moves of ['', 'a1']) {
    const name = moves || 'empty';
    for (const [kind, fn] of [
      ['run', runAll],
      ['link', link],
    ]) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        log(`${kind} ${name} ${i + 1}/${RUNS}`);
        runs.push(await fn(h, moves));
      }
      result[`${kind}_${name}`] = summary(runs);
    }
  }
  result.machine.loadavg_end = loadavg().map((x) => round(x, 2));
} finally {
  await h.close();
}
console.log(JSON.stringify(result, null, 2));
