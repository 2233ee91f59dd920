// The WebAssembly/native speed ratio (issue 12: "WebAssembly at ≥ 0.85 of native for uct and rave
// on Hex 11"), as figures, never as pass/fail. In ONE run it measures the same seeded search
// (hex:11, fixed iterations, the same seed) in the built wasm package under Node (V8, the engine
// of Chromium) and natively (`target/release/mcts search ... --json`), alternating the two so a
// change in the machine's load falls on both, and prints one JSON object on stdout and one line of
// text per preset on stderr.
//
//   bash scripts/serve.sh --build-only && cargo build --release --bin mcts   # what it measures
//   node tests/bench/wasm-ratio.mjs                      # uct and rave, 5 runs each
//   node tests/bench/wasm-ratio.mjs --runs 7 --preset uct --pkg /tmp/other-pkg
//
// Per preset:
// - wasm.single: one `SearchSession.run(1e9, N)` call for the whole search (the engine alone);
// - wasm.chunked: the worker's path (`www/src/worker/search.ts`): `run(8, left)` calls of 8 ms until the
//   N iterations are done (per-chunk JS and boundary overhead included);
// - native: `mcts search --game hex:11 --algo P --iterations N --seed S --json`, its own
//   `iterations_per_s` (process start-up excluded, as the wasm figures exclude instantiation);
// - ratio_single / ratio_chunked: medians of the per-round ratios wasm ÷ native (each round runs
//   native, then wasm single, then wasm chunked, one right after the other);
// - cpu_time: the same figures over CPU time (user + system) instead of wall-clock time: the
//   wasm side's `process.cpuUsage()` around the search, the native process's from GNU time
//   (`/usr/bin/time`, 10 ms resolution; it includes the process's start-up, a few ms). On a
//   busy machine, where a search waits for a core, these are the steadier ratios;
// - same_result: the wasm and native searches gave the same best move and root visit counts
//   (determinism native = wasm; the cargo and browser tests check it too).
// Before the timed rounds, one untimed wasm search per preset lets V8 tier the engine up (a long
// first call runs in V8's baseline tier; see ../../../shared/TOOLCHAIN.md, "Speed notes").
// Knobs: --runs R (5), --preset P (repeatable; uct and rave), --iterations-uct N (600000),
// --iterations-rave N (80000; also the default of other presets, --iterations-PRESET N sets
// theirs), --seed S (1), --game SPEC (hex:11), --pkg DIR (pkg/),
// --bin PATH (target/release/mcts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    preset: { type: 'string', multiple: true },
    'iterations-uct': { type: 'string', default: '600000' },
    'iterations-rave': { type: 'string', default: '80000' },
    'iterations-alphazero': { type: 'string' },
    seed: { type: 'string', default: '1' },
    game: { type: 'string', default: 'hex:11' },
    pkg: { type: 'string', default: join(ROOT, 'pkg') },
    bin: { type: 'string', default: join(ROOT, 'target', 'release', 'mcts') },
  },
});
const RUNS = Math.max(1, Number(opt.runs));
const PRESETS = opt.preset ?? ['uct', 'rave'];
const GAME = opt.game;
const SEED = opt.seed;
const CHUNK_MS = 8; // as www/src/worker/search.ts
const iterationsOf = (p) => Number(opt[`iterations-${p}`] ?? opt['iterations-rave']);

const log = (...a) => console.error('#', ...a);
const round = (x, d = 3) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

const wasmPath = join(opt.pkg, 'mcts_playground_bg.wasm');
const wasmBytes = readFileSync(wasmPath);
const pkg = await import(pathToFileURL(join(opt.pkg, 'mcts_playground.js')).href);
pkg.initSync({ module: wasmBytes });
// The network presets (alphazero, alphago, puct-net) need the game's net, which the page's
// worker fetches from models/; here it is read from the repository's models/ (the native binary
// embeds the same file), e.g. `--game hex:7 --preset alphazero --iterations-alphazero 100000`.
for (const { spec, file } of pkg.shippedNets()) {
  if (spec === GAME) pkg.loadShippedNet(spec, readFileSync(join(ROOT, 'models', file)));
}

/** Root visit counts as one comparable string. */
const visitsKey = (st) => st.children.map((c) => `${c.mv ?? c.move}:${c.visits}`).join(' ');

/** One wasm search of `n` iterations: `chunked` runs it as the worker does, in 8 ms calls. */
function wasmSearch(preset, n, chunked) {
  const game = new pkg.GameSession(GAME);
  const s = new pkg.SearchSession(game, preset, { seed: SEED });
  let done = 0;
  let engineMs = 0;
  let calls = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (done < n) {
    const r = chunked ? s.run(CHUNK_MS, n - done) : s.run(1e9, n - done);
    done += r.iterations;
    engineMs += r.elapsed_ms;
    calls++;
    if (r.stop !== 'iterations' && r.stop !== 'time') break;
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const st = s.stats();
  const out = { iterations: done, calls, engine_ms: engineMs, wall_ms: wallMs, cpu_ms: cpuMs, best: st.best_move, visits: visitsKey(st) };
  s.free();
  game.free();
  return out;
}

function nativeSearch(preset, n) {
  const args = ['search', '--game', GAME, '--algo', preset, '--iterations', String(n), '--seed', SEED, '--json'];
  // /usr/bin/time (GNU time) gives the process's CPU time (user + system, 10 ms resolution).
  const timeFile = join(tmpdir(), `wasm-ratio-${process.pid}.time`);
  const useTime = existsSync('/usr/bin/time');
  const out = useTime
    ? execFileSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, opt.bin, ...args], { cwd: ROOT, encoding: 'utf8' })
    : execFileSync(opt.bin, args, { cwd: ROOT, encoding: 'utf8' });
  const st = JSON.parse(out);
  const cpuMs = useTime
    ? readFileSync(timeFile, 'utf8')
        .trim()
        .split(/\s+/)
        .slice(-2)
        .map(Number)
        .reduce((a, b) => a + b, 0) * 1000
    : Number.NaN;
  return { iterations: st.iterations, iterations_per_s: st.iterations_per_s, cpu_ms: cpuMs, best: st.best_move, visits: visitsKey(st) };
}

const result = {
  bench: 'wasm-ratio',
  date: new Date().toISOString(),
  game: GAME,
  seed: Number(SEED),
  runs: RUNS,
  node: process.version,
  wasm: {
    path: wasmPath,
    bytes: wasmBytes.length,
    gzip9_bytes: gzipSync(wasmBytes, { level: 9 }).length,
    built: statSync(wasmPath).mtime.toISOString(),
  },
  machine: { cpus: cpus().length, loadavg_start: loadavg().map((x) => round(x, 2)) },
  presets: {},
};

for (const preset of PRESETS) {
  const n = iterationsOf(preset);
  log(`${preset}: ${GAME}, ${n} iterations, seed ${SEED}: warm-up`);
  wasmSearch(preset, n, false);
  const rows = [];
  for (let r = 0; r < RUNS; r++) {
    const native = nativeSearch(preset, n);
    const single = wasmSearch(preset, n, false);
    const chunked = wasmSearch(preset, n, true);
    const rate = (w) => (w.iterations * 1000) / w.engine_ms;
    rows.push({
      native: native.iterations_per_s,
      single: rate(single),
      chunked: rate(chunked),
      chunkedWall: (chunked.iterations * 1000) / chunked.wall_ms,
      nativeCpu: (native.iterations * 1000) / native.cpu_ms,
      singleCpu: (single.iterations * 1000) / single.cpu_ms,
      chunkedCpu: (chunked.iterations * 1000) / chunked.cpu_ms,
      calls: chunked.calls,
      same: native.best === single.best && native.visits === single.visits && single.visits === chunked.visits,
    });
    log(
      `  round ${r + 1}: native ${Math.round(native.iterations_per_s)}/s, wasm ${Math.round(rate(single))}/s single, ${Math.round(rate(chunked))}/s chunked`,
    );
  }
  const entry = {
    iterations: n,
    command_native: `mcts search --game ${GAME} --algo ${preset} --iterations ${n} --seed ${SEED} --json`,
    native_iterations_per_s: Math.round(median(rows.map((x) => x.native))),
    wasm: {
      single_iterations_per_s: Math.round(median(rows.map((x) => x.single))),
      chunked_iterations_per_s: Math.round(median(rows.map((x) => x.chunked))),
      chunked_wall_iterations_per_s: Math.round(median(rows.map((x) => x.chunkedWall))),
      chunk_calls: median(rows.map((x) => x.calls)),
    },
    ratio_single: round(median(rows.map((x) => x.single / x.native))),
    ratio_chunked: round(median(rows.map((x) => x.chunked / x.native))),
    ratio_chunked_wall: round(median(rows.map((x) => x.chunkedWall / x.native))),
    cpu_time: {
      native_iterations_per_cpu_s: Math.round(median(rows.map((x) => x.nativeCpu))),
      wasm_single_iterations_per_cpu_s: Math.round(median(rows.map((x) => x.singleCpu))),
      wasm_chunked_iterations_per_cpu_s: Math.round(median(rows.map((x) => x.chunkedCpu))),
      ratio_single: round(median(rows.map((x) => x.singleCpu / x.nativeCpu))),
      ratio_chunked: round(median(rows.map((x) => x.chunkedCpu / x.nativeCpu))),
    },
    same_result: rows.every((x) => x.same),
  };
  result.presets[preset] = entry;
}
result.machine.loadavg_end = loadavg().map((x) => round(x, 2));
console.log(JSON.stringify(result, null, 2));
for (const [p, e] of Object.entries(result.presets)) {
  console.error(
    `wasm/native ${GAME} ${p}: ${e.ratio_single} (one call), ${e.ratio_chunked} (8 ms chunks; ${e.ratio_chunked_wall} by wall clock); ` +
      `native ${e.native_iterations_per_s}/s, wasm ${e.wasm.single_iterations_per_s}/s; by CPU time ${e.cpu_time.ratio_single} (one call), ` +
      `${e.cpu_time.ratio_chunked} (chunks); same result: ${e.same_result}`,
  );
}
