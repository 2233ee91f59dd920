// Benchmark of the exact Hex solver in WebAssembly (Node's V8, the engine of the page's worker):
// the wasm package's `SolveSession`, run in slices as the page's solver worker runs it, on the
// positions of tests/data/hex7-solve.jsonl (labelled by MoHex). Per position: the milliseconds
// until the root is proven (the page's status line), until every move is (the page's marks), and
// whether the result matches the label. Prints the medians and worst cases; asserts nothing.
//
//   node tests/bench/solver-wasm.mjs                  # budget 60 s per position
//   node tests/bench/solver-wasm.mjs --budget 10 --slice 10
//
// Needs pkg/ (bash scripts/serve.sh --build-only).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: {
    budget: { type: 'string', default: '60' },
    slice: { type: 'string', default: '10' },
    pkg: { type: 'string', default: join(ROOT, 'pkg') },
    file: { type: 'string', default: join(ROOT, 'tests/data/hex7-solve.jsonl') },
  },
});
const pkg = await import(pathToFileURL(join(opt.pkg, 'mcts_playground.js')).href);
pkg.initSync({ module: readFileSync(join(opt.pkg, 'mcts_playground_bg.wasm')) });

const positions = readFileSync(opt.file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));
const budget = Number(opt.budget) * 1000;
const slice = Number(opt.slice);
const rows = [];
for (const p of positions) {
  const game = new pkg.GameSession(p.game);
  for (const m of p.moves.split(' ')) game.play(m);
  const session = new pkg.SolveSession(game);
  const t0 = performance.now();
  let rootMs = null;
  let allMs = null;
  while (performance.now() - t0 < budget) {
    const done = session.run(slice);
    const pr = session.progress();
    if (rootMs === null && pr.rootWins !== null && pr.rootWins !== undefined) rootMs = performance.now() - t0;
    if (done) {
      allMs = performance.now() - t0;
      break;
    }
  }
  const pr = session.progress();
  const other = p.to_move === 'black' ? 'white' : 'black';
  const winner = pr.rootWins === null || pr.rootWins === undefined ? 'unknown' : pr.rootWins ? p.to_move : other;
  rows.push({ ...p, rootMs, allMs, ours: winner });
  session.free();
  game.free();
  console.log(
    `${p.moves.padEnd(60)} ${winner.padEnd(7)} root ${rootMs === null ? '   unknown' : `${rootMs.toFixed(0).padStart(7)} ms`}  all moves ${allMs === null ? '   unknown' : `${allMs.toFixed(0).padStart(7)} ms`}${winner !== 'unknown' && winner !== p.winner ? `  EXPECTED ${p.winner}` : ''}`,
  );
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const root = rows.map((r) => r.rootMs ?? Infinity);
const all = rows.map((r) => r.allMs ?? Infinity);
const wrong = rows.filter((r) => r.ours !== 'unknown' && r.ours !== r.winner).length;
console.log(
  `\n${rows.filter((r) => r.rootMs !== null).length} of ${rows.length} roots proven within ${opt.budget} s; median ${median(root).toFixed(0)} ms, worst ${Math.max(...root).toFixed(0)} ms; every move proven: median ${median(all).toFixed(0)} ms; ${wrong} wrong`,
);
