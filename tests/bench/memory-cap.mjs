// Benchmark: does the memory cap (engine parameter `memory_cap_mib`) bound what a search holds?
// Prints figures; asserts nothing (a benchmark, not a test).
//
//   node tests/bench/memory-cap.mjs                 # cap 512 MiB, 30 s per native search
//   node tests/bench/memory-cap.mjs --cap 256 --ms 20000 --wasm-ms 60000
//
// Natively: `mcts search --game hex:19` under GNU time (`/usr/bin/time -v`, peak resident set
// size) for uct (node_cap lifted so that the memory cap binds), rave with an AMAF table at every
// node (`rave_table_visits=1`, 5.8 KB each: the tree that grew to 2.8 GB before the cap),
// best with transpositions (and `rave_table_visits=1`, to reach the cap within the run), and rave (`rave_table_visits=1`) on 4 threads, each at the cap.
// In WebAssembly (Node's V8, the engine of the page's worker): the same rave search through the
// wasm package's `SearchSession` in 1-second `run` calls, as the worker runs it; the figure is
// the module's linear memory (`memory.buffer.byteLength`, the worker's heap), against the cap.
// The CLI builds first (`cargo build --release --bin mcts`); the package is `pkg/` (bash
// scripts/serve.sh --build-only).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: {
    cap: { type: 'string', default: '512' },
    ms: { type: 'string', default: '30000' },
    'wasm-ms': { type: 'string', default: '60000' },
    game: { type: 'string', default: 'hex:19' },
    pkg: { type: 'string', default: join(ROOT, 'pkg') },
    'skip-native': { type: 'boolean', default: false },
  },
});
const CAP = Number(opt.cap);
const CAP_BYTES = CAP * 2 ** 20;
const MB = (b) => Math.round(b / 2 ** 20);

const rows = [];
if (!opt['skip-native']) {
  execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });
  const bin = join(ROOT, 'target', 'release', 'mcts');
  const runs = [
    ['uct', ['--algo', 'uct', '--set', 'node_cap=1000000000']],
    ['rave, rave_table_visits=1', ['--algo', 'rave', '--set', 'rave_table_visits=1']],
    ['best, transpositions, rave_table_visits=1', ['--algo', 'best', '--set', 'transpositions=true', '--set', 'rave_table_visits=1']],
    ['rave, rave_table_visits=1, --threads 4', ['--algo', 'rave', '--set', 'rave_table_visits=1', '--threads', '4']],
  ];
  for (const [name, args] of runs) {
    const all = ['search', '--game', opt.game, ...args, '--set', `memory_cap_mib=${CAP}`, '--ms', opt.ms, '--json'];
    const timeFile = join(tmpdir(), `memory-cap-${process.pid}.time`);
    const out = execFileSync('/usr/bin/time', ['-v', '-o', timeFile, bin, ...all], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
    const time = readFileSync(timeFile, 'utf8');
    const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(time)?.[1] ?? Number.NaN) * 1024;
    const st = JSON.parse(out);
    rows.push({
      search: `native ${name}`,
      nodes: st.nodes,
      tree_mib: MB(st.tree_bytes),
      peak_mib: MB(rss),
      cap_mib: CAP,
      tree_cap: st.tree_cap,
      peak_over_cap: Math.round((rss / CAP_BYTES) * 1000) / 1000,
    });
    console.error('#', JSON.stringify(rows.at(-1)));
  }
}

// WebAssembly, as the page's worker runs it.
{
  const wasmBytes = readFileSync(join(opt.pkg, 'mcts_playground_bg.wasm'));
  const pkg = await import(pathToFileURL(join(opt.pkg, 'mcts_playground.js')).href);
  const wasm = pkg.initSync({ module: wasmBytes });
  const game = new pkg.GameSession(opt.game);
  const s = new pkg.SearchSession(game, 'rave', { rave_table_visits: '1', memory_cap_mib: String(CAP), seed: '1' });
  const t0 = performance.now();
  let peak = 0;
  let st = s.stats();
  while (performance.now() - t0 < Number(opt['wasm-ms'])) {
    s.run(1000);
    peak = Math.max(peak, wasm.memory.buffer.byteLength);
    st = s.stats();
  }
  rows.push({
    search: 'WebAssembly (Node V8) rave, rave_table_visits=1',
    nodes: st.nodes,
    tree_mib: MB(st.tree_bytes),
    peak_mib: MB(peak),
    cap_mib: CAP,
    tree_cap: st.tree_cap ?? null,
    peak_over_cap: Math.round((peak / CAP_BYTES) * 1000) / 1000,
  });
  console.error('#', JSON.stringify(rows.at(-1)));
}

console.log('| search | nodes | tree (MiB) | peak memory (MiB) | cap (MiB) | cap reached | peak / cap |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.search} | ${r.nodes.toLocaleString('en')} | ${r.tree_mib} | ${r.peak_mib} | ${r.cap_mib} | ${r.tree_cap ?? 'no'} | ${r.peak_over_cap} |`,
  );
