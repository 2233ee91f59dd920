// The game review's page benchmark (issue 49, Measure): a Hex 11×11 game reviewed in the page at
// 10,000 playouts per position (the solver does not take 11×11), with Engine workers = 1 and 2,
// wall time from pressing Review game to the finished report. Figures, never pass/fail. Serves
// www/dist as the browser tests do (build it first), prints one JSON object on stdout.
//
//   node tests/bench/review-page.mjs MOVES      # MOVES: the game's moves, comma-separated
//
// The preset: the page's default (BENCH_PRESET=uct for another). A game: `mcts arena --game hex:11 --a uct --b uct --games 4 --openings none --iterations 1000
// --seed 2 --json`, one record's moves.
import { cpus, loadavg } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setup, boardReady, ROOT } from '../browser/harness.mjs';

const log = (...a) => console.error('#', ...a);
let moves = process.argv[2];
if (!moves) {
  const out = JSON.parse(
    execFileSync(
      join(ROOT, 'target', 'release', 'mcts'),
      [
        'arena',
        '--game',
        'hex:11',
        '--a',
        'uct',
        '--b',
        'uct',
        '--games',
        '4',
        '--openings',
        'none',
        '--iterations',
        '1000',
        '--seed',
        '2',
        '--json',
      ],
      { encoding: 'utf8' },
    ),
  );
  const recs = out.records ?? out.games ?? [];
  const best = recs.map((r) => r.moves).sort((a, b) => Math.abs(a.length - 60) - Math.abs(b.length - 60))[0];
  moves = best.join(',');
}
const plies = moves.split(',').length;
const h = await setup();
const results = {};
try {
  for (const workers of [1, 2]) {
    const page = await h.openPage(
      `?game=hex:11&moves=${moves}&p0=person&p1=person${process.env.BENCH_PRESET ? `&preset=${process.env.BENCH_PRESET}` : ''}`,
    );
    await boardReady(page);
    await page.waitForFunction((n) => window.__playground.snapshot()?.moves.length === n, plies);
    await page.selectOption('#workers', String(workers));
    await page.selectOption('#review-playouts', '10000');
    const t0 = Date.now();
    await page.click('#review-run');
    await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished', null, { timeout: 1_800_000 });
    const wall = (Date.now() - t0) / 1000;
    const r = await page.evaluate(() => window.__playground.gameReview().report);
    const search = r.timing.reduce((s, t) => s + t.search_ms, 0) / 1000;
    results[`workers_${workers}`] = {
      wall_s: Math.round(wall * 10) / 10,
      search_s_sum: Math.round(search * 10) / 10,
      preset: r.settings.preset,
    };
    log(`workers ${workers}: ${wall.toFixed(1)} s wall`);
    await page.context().close();
  }
} finally {
  await h.close();
}
console.log(JSON.stringify({ game: 'hex:11', plies, playouts: 10_000, cores: cpus().length, loadavg: loadavg(), ...results }, null, 1));
