// The Train panel's speed and learning in Chromium against the same run natively (issue 11 §6):
// the panel's default run (20 iterations of 40 self-play games, 64 playouts per move, 100 Adam
// steps, seed 1; or $TRAIN_ITERATIONS / $TRAIN_GAMES) in the page's training worker, then the same
// configuration through the same step-wise API natively (`examples/train_session.rs`, built with
// the `wasm-train` profile, the browser package's own, or $TRAIN_NATIVE_PROFILE). Prints one JSON object: per side the
// self-play games, seconds of training, games/s, and the self-play games after which the raw
// policy first lost no game to perfect play (null if it never did), and the ratio of games/s.
// A figure, never a pass/fail.
//   node tests/bench/train-page.mjs   (after bash scripts/serve.sh --build-only)
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { setup, ROOT, teachReady } from '../browser/harness.mjs';

const ITERATIONS = Number(process.env.TRAIN_ITERATIONS ?? 20);
const GAMES = Number(process.env.TRAIN_GAMES ?? 40);
/** The native build's cargo profile: `wasm-train` (the browser package's, the default) or e.g.
 * `test` (already built by the training tests; burn-flex at opt-level 0 there). */
const PROFILE = process.env.TRAIN_NATIVE_PROFILE ?? 'wasm-train';
const h = await setup();
let browser;
try {
  const page = await h.openPage('?game=tictactoe&view=train');
  await teachReady(page);
  await page.fill('#tr-iterations', String(ITERATIONS));
  await page.fill('#tr-games', String(GAMES));
  await page.click('#tr-start');
  await page.waitForFunction(() => document.querySelector('#train').dataset.state === 'done', null, { timeout: 3_600_000 });
  browser = await page.evaluate(() => {
    const d = document.querySelector('#train').dataset;
    const m = /in ([\d.]+) s of training/.exec(document.querySelector('#tr-status').textContent);
    const rows = [...document.querySelectorAll('#tr-iterations tbody tr')].reverse();
    return {
      games: Number(d.games),
      seconds: m ? Number(m[1]) : null,
      raw_unbeaten_at_games: d.unbeatenAt ? Number(d.unbeatenAt) : null,
      raw_wdl_per_iteration: rows.map((r) => r.children[5].textContent),
    };
  });
  browser.games_per_s = browser.seconds ? browser.games / browser.seconds : null;
} finally {
  await h.close();
}
const cfg = JSON.stringify({ iterations: ITERATIONS, games: GAMES });
const out = execFileSync(
  'cargo',
  ['run', '--quiet', '--profile', PROFILE, '--features', 'train', '--example', 'train_session', '--', cfg],
  {
    cwd: ROOT,
    encoding: 'utf8',
  },
);
const lines = out
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const sum = lines.find((l) => l.summary);
const native = {
  games: sum.games,
  seconds: sum.seconds,
  games_per_s: sum.games_per_s,
  raw_unbeaten_at_games: sum.raw_unbeaten_at?.games ?? null,
  raw_wdl_per_iteration: lines.filter((l) => !l.summary).map((l) => l.raw_wdl.join('/')),
};
console.log(
  JSON.stringify(
    {
      config: { iterations: ITERATIONS, games: GAMES, playouts: 64, steps: 100, batch: 128, lr: 0.002, seed: 1 },
      native_profile: PROFILE,
      browser,
      native,
      native_over_browser_games_per_s: browser.games_per_s ? native.games_per_s / browser.games_per_s : null,
      machine: { cpus: os.cpus().length, loadavg_1m: os.loadavg()[0] },
    },
    null,
    1,
  ),
);
