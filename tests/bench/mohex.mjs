// MoHex's exact solver (benzene's `dfpn-solve-state`; ../shared/MOHEX.md builds it) on one Hex
// position, through its GTP on standard input: used by the solver benchmark and by the script that
// labels tests/data/hex7-solve.jsonl.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';

/**
 * Solves the position after `moves` (a list in our notation, which MoHex shares) on an n×n board
 * without swap. Returns {winner: 'black' | 'white' | '?', ms}: ms is the solver's own "Elapsed
 * Time" (its statistics on standard error; start-up excluded), or the process's wall time when it
 * prints none.
 */
export function mohexSolve(path, n, moves) {
  const cmds = ['param_game allow_swap 0', `boardsize ${n} ${n}`, 'clear_board'];
  for (const [i, m] of moves.entries()) cmds.push(`play ${i % 2 === 0 ? 'b' : 'w'} ${m}`);
  cmds.push(`dfpn-solve-state ${moves.length % 2 === 0 ? 'black' : 'white'}`, 'quit');
  const t0 = performance.now();
  // In the temporary directory: MoHex writes its log (default.log) where it runs.
  const r = spawnSync(path, [], { cwd: tmpdir(), input: `${cmds.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = performance.now() - t0;
  const last =
    (r.stdout ?? '')
      .split('\n')
      .filter((l) => l.startsWith('='))
      .at(-2) ?? '';
  const winner = /black/.test(last) ? 'black' : /white/.test(last) ? 'white' : '?';
  const elapsed = /Elapsed Time\s+([\d.]+)/.exec(r.stderr ?? '');
  return { winner, ms: elapsed ? Number(elapsed[1]) * 1000 : wall };
}
