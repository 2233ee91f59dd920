// Benchmark of the exact endgame solver (alpha-beta over win/draw/loss, `solve::endgame`): the empty
// Tic-Tac-Toe board and the Pentago endgames of tests/data/pentago-endgames.jsonl (seeded quiet
// random positions that the solver does not settle at once; `cargo run --release --example
// pentago_endgames` writes them). Per position, natively (`mcts solve`, release build): the root's
// value, positions and milliseconds, then every root move (`--openings`); in WebAssembly (Node's
// V8, the page worker's engine: the wasm package's `SolveSession` run in 10 ms slices as the
// page's solver worker runs it): the milliseconds until the root is proven and until every move
// is, and the positions. Prints a table and the median and worst per number of empty cells;
// asserts nothing (a benchmark, not a test).
//
//   node tests/bench/endgame.mjs                    # Tic-Tac-Toe, Pentago with 4, 6 and 8 empty cells
//   node tests/bench/endgame.mjs --empty 4,6,8,10,12,14,16 --budget 120
//   node tests/bench/endgame.mjs --no-wasm          # natively only
//
// Needs pkg/ for the WebAssembly part (bash scripts/serve.sh --build-only); the CLI is built first
// (`cargo build --release --bin mcts`) unless --no-build.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: {
    empty: { type: 'string', default: '4,6,8' },
    budget: { type: 'string', default: '60' },
    slice: { type: 'string', default: '10' },
    pkg: { type: 'string', default: join(ROOT, 'pkg') },
    file: { type: 'string', default: join(ROOT, 'tests/data/pentago-endgames.jsonl') },
    'no-wasm': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});
const sizes = new Set(opt.empty.split(',').map(Number));
const budgetS = Number(opt.budget);

if (!opt['no-build']) execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });
const bin = join(ROOT, 'target', 'release', 'mcts');

/** `mcts solve --json` (with `extra` arguments), or null past the time budget. */
function native(game, moves, extra = []) {
  try {
    const out = execFileSync(bin, ['solve', '--game', game, '--moves', moves, '--json', '--time', String(budgetS), ...extra], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(out);
  } catch {
    return null;
  }
}

let pkg = null;
if (!opt['no-wasm']) {
  if (existsSync(join(opt.pkg, 'mcts_playground.js'))) {
    pkg = await import(pathToFileURL(join(opt.pkg, 'mcts_playground.js')).href);
    pkg.initSync({ module: readFileSync(join(opt.pkg, 'mcts_playground_bg.wasm')) });
  } else console.log(`(no ${opt.pkg}: WebAssembly part skipped; bash scripts/serve.sh --build-only builds it)`);
}

/** The page's solve in slices: ms to the root's value, ms to every move's, positions. */
function wasm(game, moves) {
  const g = new pkg.GameSession(game);
  for (const m of moves.split(' ').filter(Boolean)) g.play(m);
  const session = new pkg.SolveSession(g);
  const t0 = performance.now();
  let rootMs = null;
  let allMs = null;
  while (performance.now() - t0 < budgetS * 1000) {
    const done = session.run(Number(opt.slice));
    if (rootMs === null && session.progress().rootValue != null) rootMs = performance.now() - t0;
    if (done) {
      allMs = performance.now() - t0;
      break;
    }
  }
  const p = session.progress();
  session.free();
  g.free();
  return { rootMs, allMs, value: p.rootValue ?? 'unknown', nodes: p.stats.expansions };
}

const positions = [{ game: 'tictactoe', moves: '', empty: 9, label: 'Tic-Tac-Toe, empty board' }];
for (const l of readFileSync(opt.file, 'utf8')
  .split('\n')
  .filter((x) => x.trim())) {
  const p = JSON.parse(l);
  if (sizes.has(p.empty)) positions.push({ ...p, label: `Pentago, ${p.empty} empty` });
}

const ms = (x) => (x === null ? '   unknown' : `${x.toFixed(1).padStart(8)} ms`);
const rows = [];
console.log(
  `${'position'.padEnd(26)} ${'value'.padEnd(7)} ${'root: positions'.padStart(15)} ${'ms'.padStart(11)}   ${'all moves: positions'.padStart(20)} ${'ms'.padStart(11)}${pkg ? `   ${'wasm root'.padStart(11)} ${'wasm all'.padStart(11)} ${'positions'.padStart(10)}` : ''}`,
);
for (const p of positions) {
  const root = native(p.game, p.moves);
  const all = native(p.game, p.moves, ['--openings']);
  const allNodes = all ? all.openings.reduce((a, o) => a + o.nodes, 0) : null;
  const w = pkg ? wasm(p.game, p.moves) : null;
  const row = {
    ...p,
    value: root?.value ?? 'unknown',
    nodes: root?.nodes ?? null,
    ms: root?.ms ?? null,
    allNodes,
    allMs: all && all.unknown === 0 ? all.ms : null,
    wasm: w,
  };
  rows.push(row);
  console.log(
    `${p.label.padEnd(26)} ${row.value.padEnd(7)} ${String(row.nodes ?? '-').padStart(15)} ${ms(row.ms)}   ${String(row.allNodes ?? '-').padStart(20)} ${ms(row.allMs)}${w ? `   ${ms(w.rootMs)} ${ms(w.allMs)} ${String(w.nodes).padStart(10)}` : ''}`,
  );
  if (w && row.value !== 'unknown' && w.value !== 'unknown' && w.value !== row.value)
    console.log(`  DISAGREE: native ${row.value}, WebAssembly ${w.value}`);
}

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const worst = (xs) => (xs.some((x) => x === null) ? null : Math.max(...xs));
console.log('\nper number of empty cells: median / worst (ms; unknown = past the budget)');
for (const e of [...new Set(rows.map((r) => r.empty))]) {
  const rs = rows.filter((r) => r.empty === e);
  const line = (f) => `${ms(median(rs.map(f)))} / ${ms(worst(rs.map(f)))}`;
  console.log(
    `${String(e).padStart(2)} empty (${rs.length}): native root ${line((r) => r.ms)}; all moves ${line((r) => r.allMs)}${pkg ? `; wasm root ${line((r) => r.wasm.rootMs)}; wasm all ${line((r) => r.wasm.allMs)}` : ''}`,
  );
}
