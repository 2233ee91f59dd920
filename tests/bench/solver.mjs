// Benchmark of the exact Hex solver (`mcts solve`, depth-first proof-number search): one position
// per process, so each row's peak memory is that position's. Prints a table (result, nodes
// created, MID calls, milliseconds, peak resident MiB) and the totals, medians and worst cases;
// asserts nothing (a benchmark, not a test). With --mohex, MoHex's own solver
// (`dfpn-solve-state`, benzene; ../shared/MOHEX.md) solves the same positions and the table adds
// its result, its time and the ratio of times.
//
//   node tests/bench/solver.mjs --set 6x6              # the 36 Hex 6×6 openings
//   node tests/bench/solver.mjs --set 7x7              # the 49 Hex 7×7 openings
//   node tests/bench/solver.mjs --set positions        # tests/data/hex7-solve.jsonl (100 positions)
//   node tests/bench/solver.mjs --set 8x8 --time 600   # the stretch goal
//   node tests/bench/solver.mjs --set 6x6 --mohex ../mohex-src/build/src/mohex/mohex
//   node tests/bench/solver.mjs --moves "d4 c5 d5 c6 e3 b4" --game hex:7
//
// Options: --time S (seconds per position before "unknown"; default 600), --tt-mib M (default
// 256), --solver dfpn|negamax. The CLI is built first (`cargo build --release --bin mcts`).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mohexSolve } from './mohex.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: {
    set: { type: 'string' },
    game: { type: 'string', default: 'hex:7' },
    moves: { type: 'string' },
    time: { type: 'string', default: '600' },
    'tt-mib': { type: 'string', default: '256' },
    solver: { type: 'string', default: 'dfpn' },
    mohex: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});

const letters = 'abcdefghijklmnopqrs';
/** Every first move of an n×n board, a1 b1 … in cell order. */
function openings(n) {
  const out = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out.push(`${letters[c]}${r + 1}`);
  return out;
}

/** Published opening results (B = the opening wins for Black, the first player), rows 1 to n, columns
 * a to n: 6×6 and 7×7 as benzene's regression tests expect them (Hayward et al., "Solving 7×7 Hex",
 * 2003, for 7×7); 5×5 as our negamax proves it. */
const PUBLISHED = {
  5: ['....B', '.BBBB', '.BBB.', 'BBBB.', 'B....'],
  6: ['.....B', '.BBBBB', 'BBBBBB', 'BBBBBB', 'BBBBB.', 'B.....'],
  7: ['......B', '..B.BBB', '.BBBBB.', 'BBBBBBB', '.BBBBB.', 'BBB.B..', 'B......'],
};

/** The positions to solve: [{game, moves, expect?}] (expect = the published winner). */
function positions() {
  if (opt.moves !== undefined) return [{ game: opt.game, moves: opt.moves }];
  const sizes = { '6x6': 6, '7x7': 7, '8x8': 8, '5x5': 5 };
  if (opt.set in sizes) {
    const n = sizes[opt.set];
    return openings(n).map((m, i) => {
      const row = PUBLISHED[n]?.[Math.floor(i / n)];
      return { game: `hex:${n}`, moves: m, expect: row ? (row[i % n] === 'B' ? 'black' : 'white') : undefined };
    });
  }
  if (opt.set === 'positions') {
    return readFileSync(join(ROOT, 'tests/data/hex7-solve.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l))
      .map((p) => ({ game: p.game, moves: p.moves, expect: p.winner }));
  }
  throw new Error('--set 5x5|6x6|7x7|8x8|positions, or --moves "..."');
}

const mcts = join(ROOT, 'target/release/mcts');
if (!opt['no-build']) execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });

/** MoHex's `dfpn-solve-state` on one position: {winner, ms}. */
function mohex(game, moves) {
  return mohexSolve(opt.mohex, Number(game.split(':')[1]), moves.split(/[\s,]+/).filter(Boolean));
}

const rows = [];
for (const p of positions()) {
  const args = ['solve', '--game', p.game, '--json', '--time', opt.time, '--tt-mib', opt['tt-mib'], '--solver', opt.solver];
  if (p.moves) args.push('--moves', p.moves);
  const r = spawnSync(mcts, args, { encoding: 'utf8' });
  let row;
  if (r.status === 0) {
    const v = JSON.parse(r.stdout);
    row = { ...p, winner: v.winner, nodes: v.nodes, mid: v.mid_calls ?? 0, ms: v.ms, mib: (v.peak_rss_kib ?? 0) / 1024 };
  } else {
    row = { ...p, winner: 'unknown', nodes: 0, mid: 0, ms: Number(opt.time) * 1000, mib: 0, error: r.stderr.trim() };
  }
  if (opt.mohex) row.mohex = mohex(p.game, p.moves);
  rows.push(row);
  const mo = row.mohex
    ? `  mohex ${row.mohex.winner.padEnd(5)} ${row.mohex.ms.toFixed(0).padStart(7)} ms  ratio ${(row.ms / row.mohex.ms).toFixed(2)}`
    : '';
  const bad = p.expect && row.winner !== 'unknown' && p.expect !== row.winner ? `  EXPECTED ${p.expect}` : '';
  console.log(
    `${p.game.padEnd(6)} ${(p.moves || '(empty)').padEnd(28)} ${row.winner.padEnd(7)} ${String(row.nodes).padStart(10)} nodes ${String(row.mid).padStart(10)} MID ${row.ms.toFixed(0).padStart(8)} ms ${row.mib.toFixed(0).padStart(5)} MiB${mo}${bad}${row.error ? `  (${row.error})` : ''}`,
  );
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const solved = rows.filter((r) => r.winner !== 'unknown');
const ms = rows.map((r) => r.ms);
const worst = rows.reduce((a, b) => (b.ms > a.ms ? b : a), rows[0]);
console.log(
  `\n${solved.length} of ${rows.length} solved; total ${(ms.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s, median ${median(ms).toFixed(0)} ms, worst ${worst.ms.toFixed(0)} ms (${worst.moves}), peak ${Math.max(...rows.map((r) => r.mib)).toFixed(0)} MiB`,
);
const firstWins = rows.filter((r) => r.moves && r.moves.split(/[\s,]+/).length === 1 && r.winner === 'black').length;
const wrong = rows.filter((r) => r.expect && r.winner !== 'unknown' && r.expect !== r.winner).length;
if (opt.set && /x/.test(opt.set))
  console.log(`first-player wins: ${firstWins} of ${rows.length} openings; results against the published ones: ${wrong} wrong`);
if (opt.mohex) {
  const ratios = rows.filter((r) => r.mohex && r.winner !== 'unknown').map((r) => r.ms / r.mohex.ms);
  const disagree = rows.filter((r) => r.mohex && r.winner !== 'unknown' && r.mohex.winner !== r.winner);
  console.log(`time ratio ours/MoHex: median ${median(ratios).toFixed(2)}; results that disagree: ${disagree.length}`);
}
