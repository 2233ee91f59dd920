// Root-parallel search in the page: the engine's search of one position spread over
// several workers, each an ordinary engine worker (worker/, so it stays the only importer of the
// wasm package) searching with its own seed, their root statistics merged.
//
// Cazenave & Jouandeau 2007, "On the parallelization of UCT"; Chaslot, Winands & van den Herik
// 2008, "Parallel Monte-Carlo Tree Search" (root parallelization). The same rules as the native
// `mcts search --threads N` (Rust `mcts::parallel`):
// - worker i searches with seed `seed + i` (mod 2^64; the engine's default seed is 1), so worker 0
//   is the page's own engine with the page's seed, exactly the one-worker search;
// - a playout budget is the total over the workers (worker i runs ⌊P/W⌋, plus one for i < P mod W);
//   a time budget applies to each worker, side by side;
// - the merge (Rust `merge_root_stats`, asked of worker 0 with `mergeStats`) sums visits N and
//   wins N·Q per root move and chooses the move by the preset's final-move rule.
// Worker 0 keeps its tree between moves (tree reuse) and is the one the tree views show; the
// helpers search each position afresh. A helper that dies is dropped from that search (the merge
// goes on with the others) and replaced by the pool before the next one. Off by default (Workers 1).

import { EngineClient } from './engine';
import type { SearchHandle, SearchOptions, SearchOutcome } from './engine';
import type { ParamValue } from './generated/schema';
import type { Budget, SearchProgress, SearchStats } from './protocol';

/** Most workers the page offers, whatever the machine has. */
export const MAX_WORKERS = 4;

/** The engine's default seed (Rust `SearchConfig::default().seed`), used when the page sets none. */
export const DEFAULT_SEED = 1;

/** The Workers choices this machine offers: 1 .. min(MAX_WORKERS, navigator.hardwareConcurrency). */
export function workerChoices(cores: number | undefined = globalThis.navigator?.hardwareConcurrency): number[] {
  const n = Math.max(1, Math.min(MAX_WORKERS, Math.floor(cores || 1)));
  return Array.from({ length: n }, (_, i) => i + 1);
}

/** Worker `i`'s seed: `seed + i` modulo 2^64 (Rust `parallel::worker_seed`), a number while it
 * is one exactly (below 2^53), else its decimal text, which the engine reads exactly. A seed given
 * as decimal text (the protocol's older form) counts the same; any other value is passed on
 * unchanged (the engine names the error). */
export function workerSeed(seed: ParamValue | undefined, i: number): ParamValue {
  const s = seed ?? DEFAULT_SEED;
  let base: bigint;
  if (typeof s === 'number' && Number.isSafeInteger(s) && s >= 0) base = BigInt(s);
  else if (typeof s === 'string' && /^\d+$/.test(s.trim())) base = BigInt(s.trim());
  else return s;
  const next = (base + BigInt(i)) % (1n << 64n);
  return next <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(next) : `${next}`;
}

/** Worker `i`'s share of `budget` over `workers` workers (Rust `parallel::split_iterations`). */
export function shareOf(budget: Budget, workers: number, i: number): Budget {
  if (budget.kind === 'millis') return budget;
  const base = Math.floor(budget.value / workers);
  return { kind: 'playouts', value: base + (i < budget.value % workers ? 1 : 0) };
}

/** The progress of several workers as one: playouts, rates and nodes summed, the longest
 * elapsed time; the best move, win rate and line are worker 0's until the merge at the end. */
export function mergeProgress(parts: SearchProgress[]): SearchProgress {
  const first = parts[0]!;
  return {
    ...first,
    playouts: parts.reduce((a, p) => a + p.playouts, 0),
    playoutsPerS: parts.reduce((a, p) => a + p.playoutsPerS, 0),
    elapsedMs: Math.max(...parts.map((p) => p.elapsedMs)),
    engineMs: Math.max(...parts.map((p) => p.engineMs)),
    nodes: parts.reduce((a, p) => a + p.nodes, 0),
    // A cap that holds any worker's tree (each worker is its own memory with its own cap).
    nodeCap: parts.find((p) => p.nodeCap !== null)?.nodeCap ?? null,
    memoryCap: parts.find((p) => p.memoryCap !== null)?.memoryCap ?? null,
  };
}

/** The helper workers (1 .. W−1) of root-parallel searches; worker 0 is the page's engine. */
export class HelperPool {
  private helpers: EngineClient[] = [];

  /** `n` live helpers: dead ones replaced, extra ones ended. */
  take(n: number): EngineClient[] {
    this.helpers = this.helpers.map((h) => (h.dead ? new EngineClient() : h));
    while (this.helpers.length < n) this.helpers.push(new EngineClient());
    for (const h of this.helpers.splice(n)) h.terminate('no longer needed');
    return this.helpers;
  }

  /** Ends every helper (Workers set back to 1). */
  clear(): void {
    this.take(0);
  }
}

/**
 * Searches the position `spec` after `moves` on `main` (worker 0, which has the game) and on each
 * helper (given the position with `newGame` first), and answers with the merged statistics: the
 * same handle as `EngineClient.search` (stop and cancel reach every worker). The result's
 * `workers` lists each worker's playouts (`playouts` is their sum).
 */
export function searchParallel(
  main: EngineClient,
  helpers: EngineClient[],
  position: { spec: string; moves: string[] },
  opts: SearchOptions,
): SearchHandle {
  const w = helpers.length + 1;
  const seed = opts.engine.params.seed;
  const latest: (SearchProgress | null)[] = Array.from({ length: w }, () => null);
  const emit = () => {
    const rest = latest.slice(1).filter((p): p is SearchProgress => p !== null);
    if (latest[0]) opts.onProgress?.(mergeProgress([latest[0], ...rest]));
  };
  const progress = (i: number) => (p: SearchProgress) => {
    latest[i] = p;
    emit();
  };
  let stopped = false;
  let cancelled = false;
  const handles: (SearchHandle | null)[] = Array.from({ length: w }, () => null);
  const { signal: _signal, ...own } = opts;
  const first = main.search({ ...own, budget: shareOf(opts.budget, w, 0), onProgress: progress(0) });
  handles[0] = first;
  const helperDone = helpers.map(async (h, k): Promise<SearchOutcome | null> => {
    const i = k + 1;
    const budget = shareOf(opts.budget, w, i);
    if (budget.value <= 0 || cancelled) return null;
    try {
      await h.newGame(position.spec, position.moves);
      if (cancelled) return null;
      const handle = h.search({
        slot: 'parallel',
        engine: { preset: opts.engine.preset, params: { ...opts.engine.params, seed: workerSeed(seed, i) } },
        budget,
        ...(opts.progressMs === undefined ? {} : { progressMs: opts.progressMs }),
        onProgress: progress(i),
      });
      handles[i] = handle;
      if (stopped) handle.stop();
      return await handle.done;
    } catch {
      // A helper that fails or dies is left out of this search; the pool replaces it.
      return null;
    }
  });
  const cancel = () => {
    cancelled = true;
    for (const h of handles) h?.cancel();
  };
  if (opts.signal) {
    if (opts.signal.aborted) cancel();
    else opts.signal.addEventListener('abort', cancel, { once: true });
  }
  const done = (async (): Promise<SearchOutcome> => {
    let own: SearchOutcome;
    try {
      own = await first.done;
    } catch (e) {
      cancel();
      throw e;
    }
    // Stopped or proven: the others stop too; at the end of its budget the others finish theirs.
    if (own.result.end !== 'budget') {
      stopped = true;
      for (const h of handles.slice(1)) h?.stop();
    }
    const others = (await Promise.all(helperDone)).filter((o): o is SearchOutcome => o !== null);
    if (others.length === 0) return own;
    const parts: SearchStats[] = [own.stats, ...others.map((o) => o.stats)];
    const { stats: merged, report } = await main.mergeStats(parts, opts.engine);
    const all = [own.result, ...others.map((o) => o.result)];
    const p = mergeProgress(all);
    const best = merged.children[0];
    return {
      stats: merged,
      ...(report ? { report } : {}),
      result: {
        ...p,
        bestMove: merged.best_move,
        winRate: best && best.visits > 0 ? merged.value : null,
        pv: merged.pv,
        proven: merged.proven,
        move: merged.best_move,
        end: own.result.end,
        workers: all.map((r) => r.playouts),
      },
    };
  })();
  return {
    id: first.id,
    done,
    stop: () => {
      stopped = true;
      for (const h of handles) h?.stop();
    },
    cancel,
  };
}
