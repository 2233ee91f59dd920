// The page benchmark (issue 14): how responsive the playground page is and how fast its engine
// runs in Chromium, as figures, never as pass/fail. Run by scripts/bench-page.sh (which builds
// first); prints one JSON object on stdout, progress on stderr. Exits non-zero only when the page
// could not be driven.
//
// Measured, each on a fresh page:
// - load: navigation to a playable board (the page's own `data-ready-ms`);
// - search: a long engine search on Hex 9×9: the main thread's long tasks (PerformanceObserver
//   'longtask': count, p50, p95, max) and frames (requestAnimationFrame gaps longer than 1.5
//   frames) over a fixed window, and the engine's playouts/s meanwhile;
// - stop: Stop-to-move latency (click to the move on the board, page clock), several times;
// - tree: an analysis of Hex 11×11 grown past 500,000 nodes while the views draw its snapshots:
//   long tasks, the page's own handling time per snapshot, the worker's build time, the sizes;
//   tree_big_snapshots: the same with snapshots of 100,000-150,000 nodes each;
// - compare: four compare panes searching at once: long tasks while they run;
// - speed: playouts/s of a fixed search (hex:7, 200,000 iterations, presets uct and best) in the
//   worker, cold then warm, against the native `mcts search` of the same search in the same run;
// - wasm_ratio_hex11: the Hex 11×11 uct/rave wasm/native ratios of tests/bench/wasm-ratio.mjs.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setup, boardReady, clickCell, waitForPly, waitIdle, snapshot, ROOT } from '../browser/harness.mjs';

const log = (...a) => console.error('#', ...a);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 5000);
const STOPS = Number(process.env.BENCH_STOPS ?? 5);
const TREE_NODES = Number(process.env.BENCH_TREE_NODES ?? 500_000);
const SPEED_ITERATIONS = 200_000;

const round = (x, d = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
function quantile(xs, q) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
function taskFigures(tasks) {
  return {
    count: tasks.length,
    p50_ms: round(quantile(tasks, 0.5)),
    p95_ms: round(quantile(tasks, 0.95)),
    max_ms: round(tasks.length ? Math.max(...tasks) : null),
    total_ms: round(tasks.reduce((a, b) => a + b, 0)),
  };
}

/** Starts recording long tasks and animation frames in the page. */
async function startObserving(page) {
  await page.evaluate(() => {
    const obs = { tasks: [], frames: [], on: true };
    window.__bench = obs;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) if (obs.on) obs.tasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
    const tick = (t) => {
      if (!obs.on) return;
      obs.frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops recording; returns the long tasks and the frame figures. */
async function stopObserving(page) {
  const { tasks, frames } = await page.evaluate(() => {
    window.__bench.on = false;
    return { tasks: window.__bench.tasks, frames: window.__bench.frames };
  });
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  const frame = median(gaps) ?? 16.7;
  const late = gaps.filter((g) => g > 1.5 * frame);
  return {
    long_tasks: taskFigures(tasks),
    frames: {
      count: frames.length,
      frame_ms: round(frame),
      late: late.length,
      dropped: late.reduce((a, g) => a + Math.max(1, Math.round(g / frame) - 1), 0),
      max_gap_ms: round(gaps.length ? Math.max(...gaps) : null),
      window_ms: round(frames.length > 1 ? frames.at(-1) - frames[0] : 0, 0),
    },
  };
}

const pause = (page, ms) => page.evaluate((t) => new Promise((ok) => setTimeout(ok, t)), ms);

async function benchLoad(h) {
  const page = await h.openPage('?ms=300');
  await boardReady(page);
  await page.waitForFunction(() => document.body.dataset.readyMs !== undefined);
  const ms = Number(await page.evaluate(() => document.body.dataset.readyMs));
  await page.close();
  return { ready_ms: ms };
}

async function benchSearchAndStop(h) {
  const page = await h.openPage('?game=hex:9&p0=person&p1=engine&ms=600000');
  await boardReady(page);
  await pause(page, 500); // let the page load settle (both workers start with it)
  await clickCell(page, 'e5');
  await page.waitForFunction(() => document.body.dataset.thinking === 'move');
  await startObserving(page);
  await pause(page, WINDOW_MS);
  const search = await stopObserving(page);
  search.playouts_per_s = Number(await page.getAttribute('#thinking', 'data-rate'));
  search.window_ms = WINDOW_MS;
  // Stop → move, measured in the page: from the click to the move on the board.
  const latencies = [];
  for (let k = 0; k < STOPS; k++) {
    if (k > 0) {
      const s = await snapshot(page);
      if (s.outcome) break;
      const n = s.view.ply;
      await clickCell(page, s.legal[Math.floor(s.legal.length / 2)]);
      await waitForPly(page, n + 1);
      await page.waitForFunction(() => document.body.dataset.thinking === 'move');
    }
    await page.waitForFunction(() => Number(document.getElementById('thinking').dataset.playouts ?? 0) > 0);
    await pause(page, 300);
    const ms = await page.evaluate(
      () =>
        new Promise((ok) => {
          const ply = document.body.dataset.ply;
          let t0 = 0;
          new MutationObserver((_, obs) => {
            if (document.body.dataset.ply !== ply) {
              obs.disconnect();
              ok(performance.now() - t0);
            }
          }).observe(document.body, { attributes: true, attributeFilter: ['data-ply'] });
          t0 = performance.now();
          document.getElementById('stop').click();
        }),
    );
    latencies.push(ms);
    await waitIdle(page);
  }
  await page.close();
  return {
    search,
    stop: {
      runs: latencies.length,
      median_ms: round(median(latencies)),
      max_ms: round(Math.max(...latencies)),
      all_ms: latencies.map((x) => round(x)),
    },
  };
}

async function benchTree(h, { big = false } = {}) {
  const page = await h.openPage('?game=hex:11');
  await boardReady(page);
  await pause(page, 500);
  // big: snapshots of up to 150,000 nodes each (every node, not only those a pixel wide).
  if (big) await page.evaluate(() => window.__viz.setTreeQuery({ minVisits: 1, topK: 1000, depth: 250, maxNodes: 150000 }));
  await page.waitForFunction(() => document.querySelector('#an-preset').options.length > 0);
  await page.selectOption('#an-preset', 'uct');
  await page.fill('#an-budget', '50000000');
  await startObserving(page);
  await page.click('#an-run');
  await page.waitForFunction(
    ([n, b]) => window.__viz.measures().lastTotal >= n && (!b || window.__viz.measures().maxCount >= 100000),
    [TREE_NODES, big],
    { polling: 250, timeout: 600_000 },
  );
  const seen = await page.evaluate(() => window.__viz.measures().snapshots);
  const box = await page.locator('#analysis .icicle canvas').boundingBox();
  for (let k = 0; k < 8; k++) await page.mouse.move(box.x + 20 + k * 90, box.y + 10 + (k % 4) * 20);
  await page.waitForFunction((n) => window.__viz.measures().snapshots >= n + 4, seen, { timeout: 600_000 });
  const obs = await stopObserving(page);
  const m = await page.evaluate(() => window.__viz.measures());
  await page.evaluate(() => document.getElementById('an-stop').click());
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  await page.close();
  return {
    nodes: m.lastTotal,
    snapshots: m.snapshots,
    snapshot_max_nodes: m.maxCount,
    snapshot_max_kb: round(m.maxBytes / 1024, 0),
    worker_build_max_ms: round(m.maxBuildMs),
    main_handling_max_ms: round(m.maxMainMs),
    icicle_draw_ms: round(m.icicleDrawMs),
    icicle_drawn: m.icicleDrawn,
    ...obs,
  };
}

async function benchCompare(h) {
  const page = await h.openPage('?game=hex:7#compare');
  await page.waitForFunction(() => document.querySelector('#cmp-preset-0')?.options.length > 0);
  await page.selectOption('#cmp-count', '4');
  await page.fill('#cmp-game', 'hex:7');
  await page.fill('#cmp-moves', 'd4 c5');
  await page.fill('#cmp-budget', '200000');
  await startObserving(page);
  const t0 = await page.evaluate(() => performance.now());
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.querySelector('#compare').dataset.state === 'done', null, { timeout: 600_000 });
  const t1 = await page.evaluate(() => performance.now());
  const obs = await stopObserving(page);
  await page.close();
  return { panes: 4, playouts: 200000, run_ms: round(t1 - t0, 0), ...obs };
}

async function benchSpeed(h, preset) {
  const page = await h.openPage(`?game=hex:7&p0=engine&p1=person&preset=${preset}&playouts=${SPEED_ITERATIONS}`);
  await boardReady(page);
  const out = {};
  for (const round_ of ['cold', 'warm']) {
    if (round_ === 'warm') {
      // The same search again on a fresh tree: V8 has now compiled the engine in its top tier.
      await page.click('#new-game');
      await page.waitForFunction(() => document.body.dataset.thinking === 'move');
    }
    await waitForPly(page, 1, 600_000);
    await waitIdle(page);
    const a = (k) => page.getAttribute('#thinking', k).then(Number);
    const playouts = await a('data-playouts');
    const elapsed = await a('data-elapsed');
    const engineMs = await a('data-engine-ms');
    out[round_] = {
      playouts,
      elapsed_ms: round(elapsed, 0),
      engine_ms: round(engineMs, 0),
      playouts_per_s: round((playouts * 1000) / elapsed, 0),
      engine_playouts_per_s: round((playouts * 1000) / engineMs, 0),
    };
  }
  await page.close();
  return out;
}

function nativeSpeed(preset, runs = 3) {
  const bin = join(ROOT, 'target', 'release', 'mcts');
  const rates = [];
  for (let k = 0; k < runs; k++) {
    const args = ['search', '--game', 'hex:7', '--algo', preset, '--iterations', String(SPEED_ITERATIONS), '--json'];
    const st = JSON.parse(execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8' }));
    rates.push(st.iterations_per_s);
  }
  return {
    command: `mcts search --game hex:7 --algo ${preset} --iterations ${SPEED_ITERATIONS} --json`,
    runs,
    iterations_per_s: round(median(rates), 0),
  };
}

const result = {
  bench: 'page',
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, loadavg_start: loadavg().map((x) => round(x, 2)) },
};
const h = await setup();
try {
  log('load');
  result.load = await benchLoad(h);
  log('long search and Stop');
  Object.assign(result, await benchSearchAndStop(h));
  log(`tree of ${TREE_NODES}+ nodes in the analysis views`);
  result.tree = await benchTree(h);
  log(`the same with snapshots of up to 150,000 nodes each`);
  result.tree_big_snapshots = await benchTree(h, { big: true });
  log('compare view');
  result.compare = await benchCompare(h);
  result.speed = {};
  for (const preset of ['uct', 'best']) {
    log(`speed: hex:7 ${preset} ${SPEED_ITERATIONS} iterations, Chromium then native`);
    const wasm = await benchSpeed(h, preset);
    const native = nativeSpeed(preset);
    result.speed[preset] = {
      wasm,
      native,
      ratio_warm: round(wasm.warm.playouts_per_s / native.iterations_per_s, 3),
      ratio_warm_engine_only: round(wasm.warm.engine_playouts_per_s / native.iterations_per_s, 3),
    };
  }
  // The Hex 11×11 ratio of issue 12 (uct and rave) under Node's V8, one call and 8 ms chunks,
  // by wall clock and CPU time: tests/bench/wasm-ratio.mjs, run here with 3 rounds.
  log('wasm/native ratio: hex:11 uct and rave (tests/bench/wasm-ratio.mjs --runs 3)');
  const ratio = JSON.parse(
    execFileSync(process.execPath, [join(ROOT, 'tests', 'bench', 'wasm-ratio.mjs'), '--runs', '3'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  result.wasm_ratio_hex11 = Object.fromEntries(
    Object.entries(ratio.presets).map(([p, e]) => [
      p,
      {
        ratio_single: e.ratio_single,
        ratio_chunked: e.ratio_chunked,
        ratio_cpu_single: e.cpu_time.ratio_single,
        same_result: e.same_result,
      },
    ]),
  );
  result.machine.loadavg_end = loadavg().map((x) => round(x, 2));
} finally {
  await h.close();
}
console.log(JSON.stringify(result, null, 2));
