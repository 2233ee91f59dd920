// What keeping the search behind each move costs (issue 10 §1): two engines play Hex 11×11 (RAVE,
// 20,000 playouts per move, or $BENCH_PLAYOUTS) for $BENCH_MOVES moves (default 12); the page keeps
// each engine move's final statistics and tree snapshot (play/searches.ts). Prints one JSON object:
// per kept search its tree nodes and bytes (JSON length of the statistics + the typed arrays of the
// snapshot), their mean and max, and the bound for the 200 kept. A figure, never a pass/fail.
//   node tests/bench/move-searches.mjs   (after bash scripts/serve.sh --build-only)
import { setup, boardReady, waitForPly } from '../browser/harness.mjs';

const MOVES = Number(process.env.BENCH_MOVES ?? 12);
const PLAYOUTS = Number(process.env.BENCH_PLAYOUTS ?? 20_000);
const h = await setup();
try {
  const page = await h.openPage(`?game=hex:11&p0=engine&p1=engine&preset=rave&playouts=${PLAYOUTS}&seed=1`);
  await boardReady(page);
  await waitForPly(page, MOVES);
  await page.click('#pause');
  await page.waitForFunction(() => document.body.dataset.thinking === '');
  const rows = await page.evaluate(() => window.__playground.searchBytes());
  const bytes = rows.map((r) => r.bytes);
  const mean = bytes.reduce((a, b) => a + b, 0) / Math.max(1, bytes.length);
  const max = Math.max(...bytes);
  console.log(
    JSON.stringify({
      game: 'hex:11',
      preset: 'rave',
      playouts_per_move: PLAYOUTS,
      searches: rows,
      bytes_mean: Math.round(mean),
      bytes_max: max,
      kept_200_mean_mb: Math.round((200 * mean) / 1e4) / 100,
      bound_per_search_bytes: 4000 * 28,
    }),
  );
} finally {
  await h.close();
}
