// A fake engine worker for the features' controller tests (vitest, Node, no worker, no wasm): it
// answers the requests the controllers make with small made-up figures that follow the budget
// (a search of N playouts adds N to the slot's tree; its best move is the first legal move), and
// records every request. Searches, solves and steps can be held (`hold`) to test what happens
// meanwhile (Stop, a new position), and failures scripted (`failNext`).

import {
  type EngineClient,
  EngineDied,
  EngineError,
  SearchCancelled,
  type SearchHandle,
  type SearchOptions,
  type SolveHandle,
  type SolveOutcome,
  type TrainHandle,
  type TrainReport,
  type TrainStopped,
} from '../engine';
import type { PresetName } from '../generated/schema';
import type {
  ArenaGameSpec,
  BoardView,
  EngineSettings,
  ExactValue,
  FullStats,
  GameRecord,
  IterationTrace,
  PositionEvaluation,
  SearchResult,
  SearchStats,
  Snapshot,
  SolveReport,
  Standings,
  TrainIteration,
  TrainProgress,
  TrainSettings,
  TreeQuery,
  TreeSnapshot,
} from '../protocol';

/** A position of `spec` after `moves`: Hex `hex:N` (N×N), Tic-Tac-Toe otherwise; legal moves are
 * the empty cells named column letter + row number. */
export function fakeSnapshot(spec: string, moves: readonly string[] = []): Snapshot {
  const hex = /^hex:(\d+)/.exec(spec);
  const n = hex ? Number(hex[1]) : 3;
  const names: string[] = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) names.push(`${String.fromCharCode(97 + c)}${r + 1}`);
  const view: BoardView = {
    kind: hex ? 'hex' : 'tictactoe',
    spec,
    rows: n,
    cols: n,
    cells: names.map((m) => (moves.includes(m) ? moves.indexOf(m) % 2 : -1)),
    to_move: (moves.length % 2) as 0 | 1,
    last_move: moves[moves.length - 1] ?? null,
    last_cells: [],
    winning_cells: [],
    outcome: null,
    ply: moves.length,
  };
  return { view, legal: names.filter((m) => !moves.includes(m)), moves: [...moves], redo: [], outcome: null };
}

/** Statistics of a tree of `iterations` playouts on `pos`: every legal move visited, the first
 * most. */
export function fakeStats(pos: Snapshot, iterations: number): FullStats {
  const children = pos.legal.map((move, i) => ({
    move,
    visits: Math.max(0, Math.floor(iterations / (i + 2))),
    q: 0.6 - i * 0.01,
    proven: null,
    amaf_q: null,
    amaf_n: 0,
  }));
  return {
    game: pos.view.spec,
    to_move: pos.view.to_move ?? 0,
    iterations,
    iterations_per_s: 1000,
    elapsed_ms: iterations,
    nodes: iterations + 1,
    value: 0.6,
    best_move: pos.legal[0] ?? null,
    pv: pos.legal.slice(0, 2),
    proven: null,
    children,
    policy: {},
    bytes_per_node: 40,
    tree_bytes: 40 * (iterations + 1),
    evaluator: null,
    leaf: 'rollout',
    search: { playouts: iterations, elapsedMs: iterations },
  } as unknown as FullStats;
}

/** A one-node tree snapshot (enough for the views' bookkeeping). */
export function fakeTree(visits: number): TreeSnapshot {
  return {
    total: 1,
    count: 1,
    moves: [],
    parent: Int32Array.of(-1),
    move: Uint16Array.of(65535),
    visits: Uint32Array.of(visits),
    q: Float32Array.of(0.5),
    proven: Uint8Array.of(0),
    depth: Uint8Array.of(0),
    hidden: Uint32Array.of(0),
    x0: Float32Array.of(0),
    x1: Float32Array.of(1),
    buildMs: 0,
    bytes: 28,
  } as unknown as TreeSnapshot;
}

interface Held {
  resolve: () => void;
}

export class FakeEngine {
  dead = false;
  /** Every request, in order: its type (the client method) and what it named. */
  readonly requests: { type: string; [k: string]: unknown }[] = [];
  /** The position the worker has (after `newGame`). */
  position: Snapshot | null = null;
  /** Playouts in each slot's tree. */
  readonly trees = new Map<string, number>();
  /** Errors the next requests of a kind fail with (first in, first out). */
  private readonly failures = new Map<string, Error[]>();
  /** Kinds whose requests wait for `release`. */
  private readonly held = new Set<string>();
  private readonly waiting: Held[] = [];
  private readonly rejecters = new Set<(e: Error) => void>();
  /** The evaluator the statistics name (PUCT presets: `uniform`, `tactical`, `net`), null: none. */
  evaluator: string | null = null;
  /** A solve's answer (`solve`); default: not proven, ended by its budget. */
  solveReport: (pos: { spec: string; moves: string[] }) => SolveReport = () => fakeSolveReport(null);

  /** The next request of `type` fails with `error` (an EngineError with that message by default). */
  failNext(type: string, error: string | Error): void {
    const list = this.failures.get(type) ?? [];
    list.push(typeof error === 'string' ? new EngineError(error) : error);
    this.failures.set(type, list);
  }

  /** Requests of `type` wait until `release` (or the worker's end). */
  hold(type: string): void {
    this.held.add(type);
  }

  /** Lets the held requests go on (and stops holding). */
  release(): void {
    this.held.clear();
    for (const w of this.waiting.splice(0)) w.resolve();
  }

  /** Requests waiting now. */
  get pending(): number {
    return this.waiting.length;
  }

  private async answer<T>(type: string, args: Record<string, unknown>, f: () => T): Promise<T> {
    this.requests.push({ ...args, type });
    // A worker answers later, never within the call.
    await Promise.resolve();
    if (this.dead) throw new EngineDied('the engine worker was terminated');
    const fail = this.failures.get(type)?.shift();
    if (fail) throw fail;
    if (this.held.has(type)) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.push({ resolve });
        this.rejecters.add(reject);
      });
    }
    if (this.dead) throw new EngineDied('the engine worker was terminated');
    return f();
  }

  newGame(spec: string, moves: string[] = []): Promise<Snapshot> {
    return this.answer('newGame', { spec, moves }, () => {
      if (spec.startsWith('bad')) throw new EngineError(`unknown game '${spec}'`);
      this.position = fakeSnapshot(spec, moves);
      this.trees.clear();
      return this.position;
    });
  }

  search(opts: SearchOptions): SearchHandle {
    let cancelled = false;
    const done = this.answer('search', { slot: opts.slot, engine: opts.engine, budget: opts.budget, samples: opts.samples }, () => {
      if (cancelled) throw new SearchCancelled();
      const pos = this.position!;
      const ran = opts.budget.kind === 'playouts' ? opts.budget.value : Math.max(1, Math.round(opts.budget.value / 10));
      const was = this.trees.get(opts.slot) ?? 0;
      // Samples at the request's steps, as the worker takes them (a playouts budget only).
      const q = opts.budget.kind === 'playouts' ? opts.samples : undefined;
      let at = 0;
      for (let step = 1; q && step <= q.steps; step++) {
        const n = Math.round((ran * step) / q.steps);
        if (n <= at) continue;
        at = n;
        const st = this.stats(pos, was + n);
        opts.onSample?.({ step, stats: st, tree: q.tree && step % q.treeEvery === 0 ? fakeTree(was + n) : null });
      }
      const total = was + ran;
      this.trees.set(opts.slot, total);
      const stats = this.stats(pos, total);
      // Progress: one message per tenth of the search.
      for (let k = 1; k <= 10; k++) opts.onProgress?.(this.progress(stats, Math.round((ran * k) / 10)));
      const result: SearchResult = { ...this.progress(stats, ran), move: stats.best_move, end: 'budget' };
      return { result, stats: stats as unknown as SearchStats };
    });
    return {
      id: this.requests.length,
      done,
      stop: () => this.release(),
      cancel: () => {
        cancelled = true;
        this.release();
      },
    };
  }

  private stats(pos: Snapshot, iterations: number): FullStats {
    return { ...fakeStats(pos, iterations), evaluator: this.evaluator };
  }

  evaluate(engine: EngineSettings): Promise<PositionEvaluation> {
    return this.answer('evaluate', { engine }, () => ({
      evaluator: this.evaluator ?? 'uniform',
      priors: (this.position?.legal ?? []).map((move, index, all) => ({ move, index, p: 1 / all.length })),
      value: this.evaluator === 'net' ? 0.7 : null,
      net: null,
    }));
  }

  private progress(stats: FullStats, playouts: number) {
    return {
      playouts,
      playoutsPerS: 1000,
      elapsedMs: playouts,
      engineMs: playouts,
      bestMove: stats.best_move,
      winRate: stats.value,
      pv: stats.pv,
      proven: null,
      nodes: stats.nodes,
      nodeCap: null,
      memoryCap: null,
    };
  }

  inspect(slot: string, tree: TreeQuery | null) {
    return this.answer('inspect', { slot, tree }, () => {
      const n = this.trees.get(slot);
      const stats = n === undefined || !this.position ? null : this.stats(this.position, n);
      return { type: 'inspection' as const, id: 0, stats, tree: stats && tree ? fakeTree(n!) : null };
    });
  }

  solve(position: { spec: string; moves: string[] }, budgetMs: number, onProgress?: (r: SolveReport) => void): SolveHandle {
    let stopped = false;
    const done = this.answer('solve', { position, budgetMs }, (): SolveOutcome => {
      const r = this.solveReport(position);
      onProgress?.(r);
      const all = r.rootWins !== null && r.moves.every((m) => m.moverWins !== null);
      return { ...r, result: stopped ? 'stopped' : all ? 'proven' : 'unknown' };
    });
    return {
      id: this.requests.length,
      done,
      stop: () => {
        stopped = true;
        this.release();
      },
    };
  }

  /** The step session's iterations (-1: none). */
  stepAt = -1;

  step(req: Parameters<EngineClient['step']>[0]) {
    return this.answer('step', { ...req, kind: req.type }, () => {
      if (req.type === 'stepNew') {
        this.position = fakeSnapshot(req.spec, req.moves);
        this.stepAt = 0;
      } else {
        if (this.stepAt < 0) throw new EngineError('no step session');
        this.stepAt += req.count;
      }
      const stats = this.stats(this.position!, this.stepAt);
      const trace = req.type === 'stepRun' ? fakeTrace(this.stepAt, this.position!) : null;
      return { type: 'step' as const, id: 0, trace, tree: fakeTree(this.stepAt), stats };
    });
  }

  /** A game of the arena: the first player always wins (A wins when it moves first, in the even
   * games), unless a configuration names a network preset and the game has no net. */
  arenaGame(game: ArenaGameSpec): Promise<GameRecord> {
    return this.answer('arenaGame', { game }, () => {
      for (const e of [game.a, game.b])
        if (e.preset === ('alphazero' satisfies PresetName))
          throw new EngineError(`no trained network for '${game.spec}': alphazero needs one`);
      const aFirst = game.index % 2 === 0;
      return { index: game.index, a_first: aFirst, moves: ['a1', 'b1', 'c1'], a_score: aFirst ? 1 : 0, winner: 0 };
    });
  }

  /** The standings of `records` (wins and losses of A; the interval is the rate ± 0.1). */
  arenaStandings(records: GameRecord[]): Promise<Standings> {
    return this.answer('arenaStandings', { games: records.length }, () => fakeStandings(records));
  }

  /** The training run: iterations done, of how many; after `pauseAt` iterations a run pauses. */
  trainAt = 0;
  trainOf = 0;
  trainGames = 0;
  pauseAt: number | null = null;
  onDeath: ((message: string) => void) | null = null;

  /** A training run: one progress report per iteration (each finishing it), `games` self-play
   * games each; the raw policy stops losing from the third iteration on. */
  train(settings: TrainSettings | 'resume', onProgress?: (r: TrainReport) => void): TrainHandle {
    let pause = false;
    const done = this.answer('train', { settings }, (): TrainStopped => {
      if (settings !== 'resume') {
        this.trainAt = 0;
        this.trainOf = settings.iterations ?? 1;
        this.trainGames = 0;
      } else if (this.trainOf === 0) throw new EngineError('no training run to resume');
      const per = settings === 'resume' ? 10 : (settings.games ?? 10);
      while (this.trainAt < this.trainOf && !pause) {
        this.trainAt++;
        this.trainGames += per;
        const finished = fakeIteration(this.trainAt, this.trainGames);
        onProgress?.({ progress: this.trainProgress(finished), trainMs: this.trainAt * 100, parameters: 1234 });
        if (this.pauseAt !== null && this.trainAt >= this.pauseAt) pause = true;
      }
      this.pauseAt = null;
      const reason = this.trainAt >= this.trainOf ? 'done' : 'paused';
      return { reason, progress: this.trainProgress(null), trainMs: this.trainAt * 100 };
    });
    return { id: this.requests.length, done, pause: () => (pause = true) };
  }

  private trainProgress(finished: TrainIteration | null): TrainProgress {
    return {
      phase: this.trainAt >= this.trainOf ? 'done' : 'selfPlay',
      iteration: this.trainAt,
      iterations: this.trainOf,
      games: this.trainGames,
      iteration_games: 0,
      iteration_steps: 0,
      adam_steps: this.trainAt * 10,
      positions: 0,
      buffer: 0,
      loss: { policy: 1, value: 0.5, entropy: 2 },
      finished,
    };
  }

  trainWeights(): Promise<ArrayBuffer> {
    return this.answer('trainWeights', {}, () => new Uint8Array([77, 67, 84, 83, this.trainAt]).buffer);
  }

  terminate(reason = 'the engine worker was terminated'): void {
    this.dead = true;
    this.requests.push({ type: 'terminate', reason });
    for (const r of this.rejecters) r(new EngineDied(reason));
    this.rejecters.clear();
    this.waiting.length = 0;
  }
}

/** The trace of iteration `iteration` on `pos`: the root, one expanded node (the first legal
 * move), a two-move playout. */
export function fakeTrace(iteration: number, pos: Snapshot): IterationTrace {
  const node = (kind: string, move: string | null, depth: number) => ({
    kind,
    move,
    depth,
    mover: depth % 2,
    before: { n: iteration - 1, q: 0.5, proven: null },
    after: { n: iteration, q: 0.5, proven: null },
    chosen: null,
    rival: null,
  });
  return {
    iteration,
    game: pos.view.spec,
    to_move: pos.view.to_move ?? 0,
    formula: 'UCT',
    path: [node('root', null, 0), node('expanded', pos.legal[0] ?? null, 1)],
    expanded: pos.legal[0] ?? null,
    terminal_leaf: false,
    playout: pos.legal.slice(1, 3),
    playout_indices: [1, 2],
    decided_at: null,
    filled: false,
    outcome: { winner: 0, reward: [1, 0] },
    nodes_before: iteration,
    nodes_after: iteration + 1,
    root_proven: null,
  } as unknown as IterationTrace;
}

/** Standings of A in `records` (no draws in the fake's games). */
export function fakeStandings(records: readonly GameRecord[]): Standings {
  const games = records.length;
  const wins = records.filter((r) => r.a_score === 1).length;
  const first = records.filter((r) => r.a_first);
  const second = records.filter((r) => !r.a_first);
  const rate = games ? wins / games : 0;
  return {
    games,
    wins,
    draws: 0,
    losses: games - wins,
    win_rate: rate,
    win_rate_ci95: [Math.max(0, rate - 0.1), Math.min(1, rate + 0.1)],
    elo: 0,
    elo_ci95: [null, null],
    a_first_games: first.length,
    a_first_wins: first.filter((r) => r.a_score === 1).length,
    a_first_draws: 0,
    a_first_losses: first.filter((r) => r.a_score === 0).length,
    a_second_games: second.length,
    a_second_wins: second.filter((r) => r.a_score === 1).length,
    a_second_draws: 0,
    a_second_losses: second.filter((r) => r.a_score === 0).length,
    first_player_wins: games,
    second_player_wins: 0,
  };
}

/** Iteration `iteration` of a training run after `games` self-play games. */
export function fakeIteration(iteration: number, games: number): TrainIteration {
  const losses = iteration >= 3 ? 0 : 5;
  const wdl = { wins: 0, draws: 20 - losses, losses };
  return {
    iteration,
    games,
    buffer: games * 5,
    loss: { policy: 1 / iteration, value: 0.5 / iteration, entropy: 2 },
    reference: 'perfect play',
    raw: { total: wdl, first: wdl, second: wdl },
    search: null,
  } as unknown as TrainIteration;
}

/** A solve's report: the root `rootWins` (null: not proven) or its value (`win`, `draw`,
 * `loss`: the endgame solver's report, with `rootValue`), its moves as given. */
export function fakeSolveReport(
  root: boolean | null | ExactValue,
  moves: { move: string; moverWins: boolean | null; value?: ExactValue | null }[] = [],
): SolveReport {
  const rootWins = typeof root === 'string' ? root === 'win' : root;
  return {
    rootWins,
    ...(typeof root === 'string' ? { rootValue: root, bestMove: moves.find((m) => m.value === root)?.move ?? null } : {}),
    winningMove: moves.find((m) => m.moverWins)?.move ?? null,
    toMove: 0,
    moves,
    stats: { expansions: 1 } as SolveReport['stats'],
    ms: 1,
    ttBytes: 0,
    continued: false,
  };
}

/** Resolves once the promises queued so far (and those they queue) have run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
