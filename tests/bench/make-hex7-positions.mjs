// Makes tests/data/hex7-solve.jsonl: 100 Hex 7×7 positions with 6–20 stones from self-play games
// (`mcts arena`, best against rave on every opening), no two the same up to the 180° rotation,
// each labelled by our solver (`mcts solve`, dfpn) and by MoHex's (`dfpn-solve-state`), kept only
// where both agree. Reproducible from its seed; run once, the file is checked in.
//
//   node tests/bench/make-hex7-positions.mjs --mohex ../mohex-src/build/src/mohex/mohex
//
// Each line: {"game": "hex:7", "moves": "d4 c5 …", "stones": 9, "to_move": "white", "winner":
// "black", "mohex": "black"}.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: {
    mohex: { type: 'string' },
    count: { type: 'string', default: '100' },
    seed: { type: 'string', default: '36' },
    out: { type: 'string', default: join(ROOT, 'tests/data/hex7-solve.jsonl') },
  },
});
if (!opt.mohex) throw new Error('--mohex PATH (../shared/MOHEX.md builds it)');
const mcts = join(ROOT, 'target/release/mcts');
execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'mcts'], { cwd: ROOT, stdio: 'inherit' });

const n = 7;
const letters = 'abcdefg';
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

const arena = JSON.parse(
  execFileSync(
    mcts,
    ['arena', '--game', 'hex:7', '--a', 'best', '--b', 'rave', '--iterations', '3000', '--openings', 'all', '--seed', opt.seed, '--json'],
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
    const plies = 6 + (next() % 15);
    if (plies >= rec.moves.length) continue;
    const moves = rec.moves.slice(0, plies);
    const k = key(moves);
    if (seen.has(k)) continue;
    seen.add(k);
    candidates.push(moves);
  }
}

function mohex(moves) {
  const cmds = ['param_game allow_swap 0', `boardsize ${n} ${n}`, 'clear_board'];
  for (const [i, m] of moves.entries()) cmds.push(`play ${i % 2 === 0 ? 'b' : 'w'} ${m}`);
  cmds.push(`dfpn-solve-state ${moves.length % 2 === 0 ? 'black' : 'white'}`, 'quit');
  const r = spawnSync(opt.mohex, [], { input: `${cmds.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 26 });
  const last =
    r.stdout
      .split('\n')
      .filter((l) => l.startsWith('='))
      .at(-2) ?? '';
  return /black/.test(last) ? 'black' : /white/.test(last) ? 'white' : '?';
}

const lines = [];
let disagree = 0;
for (const moves of candidates) {
  if (lines.length >= Number(opt.count)) break;
  const r = spawnSync(mcts, ['solve', '--game', 'hex:7', '--moves', moves.join(' '), '--json', '--time', '120'], { encoding: 'utf8' });
  if (r.status !== 0) continue; // game over, or not solved within 2 minutes
  const ours = JSON.parse(r.stdout).winner;
  const theirs = mohex(moves);
  if (ours !== theirs) {
    disagree++;
    console.error(`disagree: ${moves.join(' ')}: ours ${ours}, MoHex ${theirs}`);
    continue;
  }
  lines.push(
    JSON.stringify({
      game: 'hex:7',
      moves: moves.join(' '),
      stones: moves.length,
      to_move: moves.length % 2 ? 'white' : 'black',
      winner: ours,
      mohex: theirs,
    }),
  );
}
writeFileSync(opt.out, `${lines.join('\n')}\n`);
console.log(
  `${lines.length} positions written to ${opt.out}; ${disagree} disagreements left out; ${candidates.length} candidates from ${arena.records.length} games`,
);
