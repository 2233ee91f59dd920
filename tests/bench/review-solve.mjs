// The game review's exact solves (issue 49, Measure): for a self-play Hex 7×7 game and an 8×8 one,
// each position's solve time in the page's review (the report's `timing`, one engine worker) and
// natively (`mcts review --json --threads 1`, same games and settings): median and worst, and how
// many positions were proven within the per-position solve budget (1,000 ms, the page's
// REVIEW_SOLVE_MS and `mcts review`'s default). Figures, never pass/fail. Serves www/dist as the
// browser tests do (build it first) and needs target/release/mcts; prints one JSON object.
//
//   node tests/bench/review-solve.mjs
//
// The games: `mcts arena --game hex:N --a best --b best --games 2 --openings none --iterations
// 3000 --seed 7 --json`, the first record's moves (self-play of the page's default preset). The
// review: the page opened with `review=1&reviewplayouts=2000` (the link that reproduces a review),
// natively `mcts review --game hex:N --moves ... --preset P --iterations 2000 --solve-ms 1000 --seed 0`
// with the page's preset P.
import { cpus, loadavg } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setup, boardReady, ROOT } from '../browser/harness.mjs';

const BIN = join(ROOT, 'target', 'release', 'mcts');
const PLAYOUTS = 2000;
const SOLVE_MS = 1000;
const log = (...a) => console.error('#', ...a);
const mcts = (args) => JSON.parse(execFileSync(BIN, [...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));

/** The first record of a self-play match of the default preset. */
function selfPlay(game) {
  const out = mcts([
    'arena',
    '--game',
    game,
    '--a',
    'best',
    '--b',
    'best',
    '--games',
    '2',
    '--openings',
    'none',
    '--iterations',
    '3000',
    '--seed',
    '7',
  ]);
  return out.records[0].moves;
}

const round = (x) => Math.round(x * 10) / 10;
/** Median, worst and proven count of a review's `timing` (positions the solver took: solve_ms set). */
function solveFigures(timing) {
  const solved = timing.filter((t) => t.solve_ms !== null);
  const ms = solved.map((t) => t.solve_ms).sort((a, b) => a - b);
  const mid = ms.length ? (ms.length % 2 ? ms[(ms.length - 1) / 2] : (ms[ms.length / 2 - 1] + ms[ms.length / 2]) / 2) : null;
  const provenMs = timing.filter((t) => t.proven && t.solve_ms !== null).map((t) => t.solve_ms);
  return {
    positions: timing.length,
    solver_ran: solved.length,
    proven: timing.filter((t) => t.proven).length,
    median_solve_ms: mid === null ? null : round(mid),
    worst_solve_ms: ms.length ? round(ms[ms.length - 1]) : null,
    worst_proven_solve_ms: provenMs.length ? round(Math.max(...provenMs)) : null,
    search_ms_sum: round(timing.reduce((s, t) => s + t.search_ms, 0)),
  };
}

const h = await setup();
const results = {};
try {
  for (const game of ['hex:7', 'hex:8']) {
    const moves = selfPlay(game);
    log(`${game}: ${moves.length} plies`);
    // Wall time from opening the page (the review starts as soon as the game is loaded).
    const t0 = Date.now();
    const page = await h.openPage(`?game=${game}&moves=${moves.join(',')}&p0=person&p1=person&review=1&reviewplayouts=${PLAYOUTS}`);
    await boardReady(page);
    await page.waitForFunction(() => document.querySelector('#review-status')?.dataset.status === 'finished', null, { timeout: 3_600_000 });
    const wall = (Date.now() - t0) / 1000;
    const r = await page.evaluate(() => window.__playground.gameReview().report);
    const native = mcts([
      'review',
      '--game',
      game,
      '--moves',
      moves.join(' '),
      '--preset',
      r.settings.preset,
      '--iterations',
      String(PLAYOUTS),
      '--solve-ms',
      String(SOLVE_MS),
      '--seed',
      '0',
      '--threads',
      '1',
    ]);
    results[game] = {
      plies: moves.length,
      moves: moves.join(' '),
      preset: r.settings.preset,
      page: { ...solveFigures(r.timing), wall_s_from_open: round(wall) },
      native: solveFigures(native.timing),
      // Whether the page's and the native review classed every move alike (exact values can
      // differ only where one of them ran out of its solve budget).
      same_classes: r.plies.every((p, i) => p.class === native.plies[i].class),
    };
    log(game, JSON.stringify(results[game].page), JSON.stringify(results[game].native));
    await page.context().close();
  }
} finally {
  await h.close();
}
console.log(
  JSON.stringify({ playouts: PLAYOUTS, solve_ms_budget: SOLVE_MS, cores: cpus().length, loadavg: loadavg(), ...results }, null, 1),
);
