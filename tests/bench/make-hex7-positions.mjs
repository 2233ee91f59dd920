// Makes tests/data/hex7-solve.jsonl: 100 Hex 7×7 positions with 6–20 stones from self-play games
// (`mcts arena`, best against rave on every opening), no two the same up to the 180° rotation, the
// first 100 of the candidates shuffled by a seeded sequence (so the set does not depend on what
// our solver can do, and spreads over all games),
// each labelled by MoHex's solver (`dfpn-solve-state`, the ground truth; a position it cannot
// settle is reported and left out). Reproducible from its seed; run once, the file is checked in.
// `node tests/bench/solver.mjs --set positions` then measures our solver on them.
//
//   node tests/bench/make-hex7-positions.mjs --mohex ../mohex-src/build/src/mohex/mohex
//
// `--size N` makes the same set for Hex N×N (positions with N−1 to round(0.4·N²) stones; 6–20 on
// 7×7) into tests/data/hexN-solve.jsonl; `--openings` writes instead the N² first moves, each
// labelled by MoHex, into tests/data/hexN-openings.jsonl (`tests/data/hex5-*.jsonl` were made so:
// `--size 5` and `--size 5 --openings`).
//
// Each line: {"game": "hex:7", "moves": "d4 c5 …", "stones": 9, "to_move": "white", "winner":
// "black"} (the winner by MoHex).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mohexSolve } from './mohex.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: {
    mohex: { type: 'string' },
    count: { type: 'string', default: '100' },
    seed: { type: 'string', default: '36' },
    size: { type: 'string', default: '7' },
    openings: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!opt.mohex) throw new Error('--mohex PATH (../shared/MOHEX.md builds it)');
const mcts = join(ROOT, 'target/release/mcts');
execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });

const n = Number(opt.size);
if (!(n >= 3 && n <= 13)) throw new Error('--size 3 to 13');
const game = `hex:${n}`;
const out = opt.out ?? join(ROOT, `tests/data/hex${n}-${opt.openings ? 'openings' : 'solve'}.jsonl`);
const letters = 'abcdefghijklm'.slice(0, n);
const cellOf = (m) => (Number(m.slice(1)) - 1) * n + letters.indexOf(m[0]);
/** A canonical key of a position up to the 180° rotation: the smaller of the two stone lists. */
function key(moves) {
  const sets = [[], []];
  for (const [i, m] of moves.entries()) sets[i % 2].push(cellOf(m));
  const text = (rot) =>
    sets
      .map((s) =>
        s
          .map((c) => (rot ? n * n - 1 - c : c))
          .sort((a, b) => a - b)
          .join(','),
      )
      .join('|');
  const a = text(false);
  const b = text(true);
  return a < b ? a : b;
}

const mohex = (moves) => mohexSolve(opt.mohex, n, moves).winner;

if (opt.openings) {
  // Every first move (White to move), labelled by MoHex, in the order of the cells.
  const lines = [];
  for (let row = 1; row <= n; row++) {
    for (const col of letters) {
      const winner = mohex([`${col}${row}`]);
      if (winner === '?') throw new Error(`MoHex did not settle the opening ${col}${row}`);
      lines.push(JSON.stringify({ game, moves: `${col}${row}`, winner, stones: 1 }));
    }
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(`${lines.length} openings written to ${out}`);
  process.exit(0);
}

const arena = JSON.parse(
  execFileSync(
    mcts,
    ['arena', '--game', game, '--a', 'best', '--b', 'rave', '--iterations', '3000', '--openings', 'all', '--seed', opt.seed, '--json'],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  ),
);
// A deterministic pseudo-random choice of prefix lengths (a linear congruential sequence).
let state = Number(opt.seed);
const next = () => {
  state = (state * 1103515245 + 12345) % 2 ** 31;
  return state;
};
const seen = new Set();
const candidates = [];
for (const rec of arena.records) {
  for (let tries = 0; tries < 3; tries++) {
    const plies = n - 1 + (next() % (Math.round(0.4 * n * n) - n + 2));
    if (plies >= rec.moves.length) continue;
    const moves = rec.moves.slice(0, plies);
    const k = key(moves);
    if (seen.has(k)) continue;
    seen.add(k);
    candidates.push(moves);
  }
}

// Spread over all games (a Fisher–Yates shuffle by the same sequence), not the first games' openings.
for (let i = candidates.length - 1; i > 0; i--) {
  const j = next() % (i + 1);
  [candidates[i], candidates[j]] = [candidates[j], candidates[i]];
}
const lines = [];
let unsettled = 0;
for (const moves of candidates) {
  if (lines.length >= Number(opt.count)) break;
  const winner = mohex(moves);
  if (winner === '?') {
    unsettled++;
    console.error(`MoHex did not settle ${moves.join(' ')}`);
    continue;
  }
  lines.push(JSON.stringify({ game, moves: moves.join(' '), stones: moves.length, to_move: moves.length % 2 ? 'white' : 'black', winner }));
}
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(
  `${lines.length} positions written to ${out}; ${unsettled} left out (MoHex gave no answer); ${candidates.length} candidates from ${arena.records.length} games`,
);
