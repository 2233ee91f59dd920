// A promise-based client for one engine worker (worker/index.ts). Several clients (workers) can run at once.
//
// Every request returns a promise settled by the response with the same id. A search returns a
// handle with the result promise, `stop()` (the engine answers at once with its best move so far)
// and `cancel()` (the promise rejects with `SearchCancelled`); an AbortSignal works as cancel too.
// When the worker dies (a panic in the engine, a load failure, `terminate()`), every pending
// promise rejects with `EngineDied` and `onDeath` is called once; the owner starts a new client.

import { assertNever, parseResponse } from './protocol';
import type {
  Budget,
  EngineSettings,
  Request,
  Response,
  SearchProgress,
  SearchReportJson,
  SearchResult,
  SearchStats,
  Snapshot,
} from './protocol';
import type { ArenaGameSpec, FullStats, GameRecord, SampleQuery, Standings, TreeQuery, TreeSnapshot } from './protocol';
import type { GameRecordText, Variation } from './protocol';
import type { TrainProgress, TrainSettings } from './protocol';
import type { NetInfo, PositionEvaluation, ShippedNet } from './protocol';
import type { SolveEnd, SolvePosition, SolveReport } from './protocol';
import type { PositionReview, ReviewGame } from './protocol';
import type { ReviewPly, ReviewReport } from './review/report';

/** The request failed; the worker is fine. */
export class EngineError extends Error {
  override name = 'EngineError';
}
/** The worker is gone; start a new client. */
export class EngineDied extends Error {
  override name = 'EngineDied';
}
/** The search was cancelled before it chose a move. */
export class SearchCancelled extends Error {
  override name = 'SearchCancelled';
}

export interface Hello {
  version: string;
  presets: string[];
  specs: string[];
  /** The presets that need a trained network (empty from an engine without networks). */
  netPresets: string[];
  /** The nets shipped with the page (fetched from `models/` on first use). */
  nets: ShippedNet[];
}

export interface SearchOutcome {
  result: SearchResult;
  stats: SearchStats;
  /** The search's `mcts search --json` report (the engine's own JSON; absent from older workers). */
  report?: SearchReportJson;
}

/** The merged statistics of a root-parallel search and its `mcts search --threads N --json` report. */
export interface MergedSearch {
  stats: SearchStats;
  report?: SearchReportJson;
}

export interface SearchHandle {
  /** The request id (what `stop`/`cancel` name). */
  readonly id: number;
  /** Settles with the engine's choice, or rejects with SearchCancelled / EngineError / EngineDied. */
  readonly done: Promise<SearchOutcome>;
  /** Finish now with the best move so far. */
  stop(): void;
  /** Abandon the search (no move). */
  cancel(): void;
}

export interface SearchOptions {
  /** Tree kept for reuse across moves, e.g. `p0`, `p1`, `hint`. */
  slot: string;
  engine: EngineSettings;
  budget: Budget;
  /** Called several times a second while the engine thinks. */
  onProgress?: (p: SearchProgress) => void;
  /** Milliseconds between progress messages (default 200). */
  progressMs?: number;
  /** Samples taken by the worker at equal steps of a playouts budget (protocol.ts `SampleQuery`),
   * each handed to `onSample` as it comes. */
  samples?: SampleQuery;
  onSample?: (s: SearchSample) => void;
  signal?: AbortSignal;
}

/** One of a search's samples (`SearchOptions.samples`). */
export interface SearchSample {
  step: number;
  stats: FullStats;
  tree: TreeSnapshot | null;
}

/** How a training run ended (`trainStopped`). */
export interface TrainStopped {
  reason: 'paused' | 'done';
  progress: TrainProgress;
  trainMs: number;
}

/** A progress report of a training run. */
export interface TrainReport {
  progress: TrainProgress;
  /** Milliseconds spent training so far (all runs of this worker). */
  trainMs: number;
  /** Parameters of the net. */
  parameters: number;
}

/** A training run (`trainStart` / `trainResume`) in the training worker. */
export interface TrainHandle {
  readonly id: number;
  /** Settles when the run pauses or finishes; rejects with EngineError (bad settings) or EngineDied. */
  readonly done: Promise<TrainStopped>;
  /** Pause between two steps (`done` then settles with `paused`). */
  pause(): void;
}

/** A finished solve: how it ended and what was proven. */
export interface SolveOutcome extends SolveReport {
  result: SolveEnd;
}

/** A running exact solve (`solve`). */
export interface SolveHandle {
  readonly id: number;
  /** Settles when the solve ends (proven, budget spent, or stopped); rejects with EngineError
   * (a position the solver does not take, with the engine's sentence) or EngineDied. */
  readonly done: Promise<SolveOutcome>;
  /** End now: `done` settles with `stopped` and what was proven so far. */
  stop(): void;
}

type Pending =
  | { kind: 'hello'; resolve: (h: Hello) => void; reject: (e: Error) => void }
  | { kind: 'state'; resolve: (s: Snapshot) => void; reject: (e: Error) => void }
  | { kind: 'ack'; resolve: () => void; reject: (e: Error) => void }
  | { kind: 'merge'; resolve: (s: MergedSearch) => void; reject: (e: Error) => void }
  | {
      kind: 'search';
      resolve: (o: SearchOutcome) => void;
      reject: (e: Error) => void;
      onProgress: ((p: SearchProgress) => void) | undefined;
      onSample?: ((s: SearchSample) => void) | undefined;
    }
  | {
      kind: 'train';
      resolve: (s: TrainStopped) => void;
      reject: (e: Error) => void;
      onProgress: ((r: TrainReport) => void) | undefined;
    }
  | { kind: 'weights'; resolve: (b: ArrayBuffer) => void; reject: (e: Error) => void }
  | {
      kind: 'solve';
      resolve: (o: SolveOutcome) => void;
      reject: (e: Error) => void;
      onProgress: ((r: SolveReport) => void) | undefined;
    }
  // ---- visualisation: answered by the response of the type named in `answer` ----
  | { kind: 'viz'; answer: VizResponse['type']; resolve: (r: VizResponse) => void; reject: (e: Error) => void };

/** Responses to the visualisation requests. */
export type VizResponse = Extract<
  Response,
  {
    type:
      | 'inspection'
      | 'arenaGame'
      | 'arenaStandings'
      | 'step'
      | 'record'
      | 'recordText'
      | 'positionView'
      | 'netLoaded'
      | 'evaluation'
      | 'reviewedPosition'
      | 'reviewReport'
      | 'judgedMove';
  }
>;

/** Nets the user loaded (`shareNet`), by game spec: every client, present and future, gets them
 * with `loadNet`, so all the page's workers (the game's, a restarted one, compare panes, arena
 * workers, the step-through) play the same net. Kept until the page reloads. */
const userNets = new Map<string, { bytes: ArrayBuffer; name: string | undefined }>();
/** Clients whose worker is alive. */
const liveClients = new Set<EngineClient>();

/** Distributes `Omit` over a union so each request keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export class EngineClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private deathMessage: string | null = null;
  /** Called once when the worker dies, with the reason. */
  onDeath: ((message: string) => void) | null = null;

  /** A client of the Train panel's own worker (the same worker/index.ts, named `mcts-train`): it
   * answers only the training requests and loads the training package on `trainStart`. */
  static trainer(): EngineClient {
    return new EngineClient(new Worker(new URL('./worker/index.ts', import.meta.url), { type: 'module', name: 'mcts-train' }));
  }

  /** A client of a worker of its own for the exact solver (the same worker/index.ts, named
   * `mcts-solve`), so that a solve never shares a thread with the game's or the analysis'
   * searches. */
  static solver(): EngineClient {
    return new EngineClient(new Worker(new URL('./worker/index.ts', import.meta.url), { type: 'module', name: 'mcts-solve' }));
  }

  constructor(worker?: Worker) {
    this.worker = worker ?? new Worker(new URL('./worker/index.ts', import.meta.url), { type: 'module', name: 'mcts-engine' });
    this.worker.onmessage = (ev: MessageEvent<unknown>) => {
      const parsed = parseResponse(ev.data);
      if ('ok' in parsed) this.receive(parsed.ok);
      else this.die(`the engine worker sent a malformed message: ${parsed.err}`);
    };
    this.worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      this.die(`the engine worker failed: ${ev.message || 'script error'}`);
    };
    this.worker.onmessageerror = () => this.die('the engine worker sent an unreadable message');
    liveClients.add(this);
    // Sent before anything else, so every later request already sees the user's nets.
    for (const n of userNets.values()) void this.loadNet(n.bytes, n.name).catch(() => {});
  }

  /** Loads a user's net (`MCTSNET` bytes) in `primary`'s worker and, once it accepted it, in
   * every other live worker and every worker started later (until the page reloads). Rejects
   * with `primary`'s EngineError (corrupt file, CRC-32, wrong shapes), nothing changed then. */
  static async shareNet(primary: EngineClient, bytes: ArrayBuffer, name?: string): Promise<NetInfo> {
    const info = await primary.loadNet(bytes, name);
    userNets.set(info.spec, { bytes, name });
    for (const c of liveClients) if (c !== primary) void c.loadNet(bytes, name).catch(() => {});
    return info;
  }

  /** Whether the worker is gone. */
  get dead(): boolean {
    return this.deathMessage !== null;
  }

  hello(): Promise<Hello> {
    return new Promise((resolve, reject) => this.send({ type: 'hello' }, { kind: 'hello', resolve, reject }));
  }

  /** Starts `spec` and replays `moves` (to restore a game in a new worker). */
  newGame(spec: string, moves: string[] = []): Promise<Snapshot> {
    return this.stateRequest({ type: 'newGame', spec, moves });
  }

  /** Plays a move (checked): rejects with EngineError naming why, the game untouched. With
   * `ply`, only if the game is still at that ply (else EngineError: a stale move). */
  play(move: string, ply?: number): Promise<Snapshot> {
    return this.stateRequest(ply === undefined ? { type: 'play', move } : { type: 'play', move, ply });
  }

  undo(): Promise<Snapshot> {
    return this.stateRequest({ type: 'undo' });
  }

  redo(): Promise<Snapshot> {
    return this.stateRequest({ type: 'redo' });
  }

  /** Searches the current position. */
  search(opts: SearchOptions): SearchHandle {
    let resolve!: (o: SearchOutcome) => void;
    let reject!: (e: Error) => void;
    const done = new Promise<SearchOutcome>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const id = this.send(
      {
        type: 'search',
        slot: opts.slot,
        engine: opts.engine,
        budget: opts.budget,
        progressMs: opts.progressMs ?? 200,
        ...(opts.samples ? { samples: opts.samples } : {}),
      },
      { kind: 'search', resolve, reject, onProgress: opts.onProgress, onSample: opts.onSample },
    );
    const cancel = () => {
      if (this.pending.has(id)) void this.control('cancel', id);
    };
    if (opts.signal) {
      if (opts.signal.aborted) cancel();
      else opts.signal.addEventListener('abort', cancel, { once: true });
    }
    return {
      id,
      done,
      stop: () => {
        if (this.pending.has(id)) void this.control('stop', id);
      },
      cancel,
    };
  }

  /** Root-parallel search: the merged root statistics of several searches of one position
   * (`mergeStats`; worker 0's first), the move chosen by `engine`'s final-move rule. */
  mergeStats(parts: SearchStats[], engine: EngineSettings): Promise<MergedSearch> {
    return new Promise((resolve, reject) => this.send({ type: 'mergeStats', parts, engine }, { kind: 'merge', resolve, reject }));
  }

  // ---- exact solver ----

  /** Solves `position` (Hex up to 8×8, no swap rule; Tic-Tac-Toe; Pentago with at most 16 empty
   * cells) and each of its moves for at most `budgetMs` milliseconds; `onProgress` gets what is
   * proven every `progressMs` or so. Solving the position of the last unfinished solve again
   * continues it. */
  solve(position: SolvePosition, budgetMs: number, onProgress?: (r: SolveReport) => void, progressMs = 200): SolveHandle {
    let resolve!: (o: SolveOutcome) => void;
    let reject!: (e: Error) => void;
    const done = new Promise<SolveOutcome>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const id = this.send({ type: 'solve', position, budgetMs, progressMs }, { kind: 'solve', resolve, reject, onProgress });
    return {
      id,
      done,
      stop: () => {
        if (this.pending.has(id))
          void new Promise<void>((ok, no) => this.send({ type: 'solveStop', target: id }, { kind: 'ack', resolve: ok, reject: no })).catch(
            () => {},
          );
      },
    };
  }

  // ---- visualisation ----

  /** Statistics of slot `slot`'s tree and, with `tree`, its compact snapshot (null stats: no such tree). */
  inspect(slot: string, tree: TreeQuery | null): Promise<Extract<Response, { type: 'inspection' }>> {
    return this.vizRequest({ type: 'inspect', slot, tree }, 'inspection') as Promise<Extract<Response, { type: 'inspection' }>>;
  }

  /** Plays one arena game in this worker (blocks the worker for the whole game). */
  async arenaGame(game: ArenaGameSpec): Promise<GameRecord> {
    const r = await this.vizRequest({ type: 'arenaGame', game }, 'arenaGame');
    return (r as Extract<Response, { type: 'arenaGame' }>).record;
  }

  /** Standings of A from records (the engine's Wilson interval and Elo). */
  async arenaStandings(records: GameRecord[]): Promise<Standings> {
    const r = await this.vizRequest({ type: 'arenaStandings', records }, 'arenaStandings');
    return (r as Extract<Response, { type: 'arenaStandings' }>).standings;
  }

  // ---- records ----

  /** Reads a game record (move list, Hex SGF or the game JSON) with its variations, checked and
   * in canonical form; rejects with the engine's message (a bad variation's place named). */
  async parseRecord(text: string): Promise<GameRecordText> {
    const r = await this.vizRequest({ type: 'parseRecord', text }, 'record');
    return (r as Extract<Response, { type: 'record' }>).record;
  }

  /** Writes the record of a game as a move list (the main line only: the format has no
   * variations) or (Hex) SGF with the main line's `variations`; rejects with the engine's message. */
  async writeRecord(spec: string, moves: string[], format: 'moves' | 'sgf', variations?: readonly Variation[]): Promise<string> {
    const r = await this.vizRequest(
      { type: 'writeRecord', spec, moves, format, ...(variations?.length ? { variations: [...variations] } : {}) },
      'recordText',
    );
    return (r as Extract<Response, { type: 'recordText' }>).text;
  }

  // ---- positions ----

  /** What the position after `moves` (from the start of `spec`) looks like, without touching
   * this worker's game; rejects naming the bad move. */
  async viewPosition(spec: string, moves: readonly string[]): Promise<Snapshot> {
    const r = await this.vizRequest({ type: 'viewPosition', spec, moves: [...moves] }, 'positionView');
    return (r as Extract<Response, { type: 'positionView' }>).snapshot;
  }

  // ---- game review ----

  /** Reviews position `index` (after `index` moves) of `game` in this worker (blocks it for the
   * position's search and solve); rejects with the engine's sentence. */
  async reviewPosition(game: ReviewGame, index: number): Promise<PositionReview> {
    const r = await this.vizRequest({ type: 'reviewPosition', ...game, index }, 'reviewedPosition');
    return (r as Extract<Response, { type: 'reviewedPosition' }>).result;
  }

  /** The review's report (`mcts review --json`'s shape) from every position's result. */
  async reviewReport(game: ReviewGame, results: PositionReview[]): Promise<ReviewReport> {
    const r = await this.vizRequest({ type: 'reviewReport', ...game, results }, 'reviewReport');
    return (r as Extract<Response, { type: 'reviewReport' }>).report;
  }

  /** Judges `move` played after `game.moves` as the review judges it (the report's ply of that
   * move, `ReviewPly`; win probabilities for the mover in [0, 1]); blocks this worker for two
   * positions' searches and solves; rejects with the engine's sentence (a bad move named). */
  async judgeMove(game: ReviewGame, move: string): Promise<ReviewPly> {
    const r = await this.vizRequest({ type: 'judgeMove', ...game, move }, 'judgedMove');
    return (r as Extract<Response, { type: 'judgedMove' }>).ply;
  }

  // ---- networks ----

  /** Registers a weights file (`MCTSNET`) in this worker: it plays its game from now on,
   * replacing the shipped net until the page reloads. Rejects with EngineError naming the defect
   * (corrupt, CRC-32, wrong shapes); the worker keeps its previous net then. The bytes are
   * copied, not transferred. */
  async loadNet(bytes: ArrayBuffer, name?: string): Promise<NetInfo> {
    const req = name === undefined ? { type: 'loadNet' as const, bytes } : { type: 'loadNet' as const, bytes, name };
    const r = await this.vizRequest(req, 'netLoaded');
    return (r as Extract<Response, { type: 'netLoaded' }>).net;
  }

  /** The priors (and, with a network, the value head's estimate) of `engine`'s evaluator at the
   * current position; fetches the game's net first when `engine` needs one. */
  async evaluate(engine: EngineSettings): Promise<PositionEvaluation> {
    const r = await this.vizRequest({ type: 'evaluate', engine }, 'evaluation');
    return (r as Extract<Response, { type: 'evaluation' }>).evaluation;
  }

  // ---- step-through ----

  /** Step-through: a fresh step session (`stepNew`) or `count` more iterations, the last traced (`stepRun`). */
  async step(req: WithoutId<Extract<Request, { type: 'stepNew' | 'stepRun' }>>): Promise<Extract<Response, { type: 'step' }>> {
    return (await this.vizRequest(req, 'step')) as Extract<Response, { type: 'step' }>;
  }

  private vizRequest(req: WithoutId<Request>, answer: VizResponse['type']): Promise<VizResponse> {
    return new Promise((resolve, reject) => this.send(req, { kind: 'viz', answer, resolve, reject }));
  }

  // ---- training (a client made by `EngineClient.trainer()`) ----

  /** Starts a fresh training run with `settings` (`'resume'`: goes on with the current run). */
  train(settings: TrainSettings | 'resume', onProgress?: (r: TrainReport) => void): TrainHandle {
    let resolve!: (s: TrainStopped) => void;
    let reject!: (e: Error) => void;
    const done = new Promise<TrainStopped>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const req: WithoutId<Request> = settings === 'resume' ? { type: 'trainResume' } : { type: 'trainStart', settings };
    const id = this.send(req, { kind: 'train', resolve, reject, onProgress });
    return {
      id,
      done,
      pause: () => {
        if (this.pending.has(id))
          void new Promise<void>((ok, no) => this.send({ type: 'trainPause' }, { kind: 'ack', resolve: ok, reject: no })).catch(() => {});
      },
    };
  }

  /** The training run's current net as an `MCTSNET` file. */
  trainWeights(): Promise<ArrayBuffer> {
    return new Promise((resolve, reject) => this.send({ type: 'trainWeights' }, { kind: 'weights', resolve, reject }));
  }

  /** Test hook: makes the engine panic (the worker answers `fatal`; this client dies). */
  debugPanic(): Promise<void> {
    return new Promise((resolve, reject) => this.send({ type: 'debugPanic' }, { kind: 'ack', resolve, reject }));
  }

  /** Sends a raw message (tests: malformed requests). The answer comes to `onRaw`. */
  postRaw(message: unknown): void {
    this.worker.postMessage(message);
  }
  /** Receives responses no pending request claims (e.g. answers to `postRaw`). */
  onRaw: ((r: Response) => void) | null = null;

  /** Hard stop: ends the worker; pending requests reject with EngineDied. */
  terminate(reason = 'the engine worker was terminated'): void {
    this.worker.terminate();
    this.die(reason);
  }

  private control(type: 'stop' | 'cancel', target: number): Promise<void> {
    return new Promise<void>((resolve, reject) => this.send({ type, target }, { kind: 'ack', resolve, reject })).catch(() => {});
  }

  private stateRequest(req: WithoutId<Request>): Promise<Snapshot> {
    return new Promise((resolve, reject) => this.send(req, { kind: 'state', resolve, reject }));
  }

  private send(req: WithoutId<Request>, p: Pending): number {
    const id = this.nextId++;
    if (this.deathMessage !== null) {
      p.reject(new EngineDied(this.deathMessage));
      return id;
    }
    this.pending.set(id, p);
    this.worker.postMessage({ ...req, id } as Request);
    return id;
  }

  private die(message: string): void {
    if (this.deathMessage !== null) return;
    this.deathMessage = message;
    liveClients.delete(this);
    this.worker.terminate();
    const err = new EngineDied(message);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.onDeath?.(message);
  }

  private receive(r: Response): void {
    const p = r.id === null ? undefined : this.pending.get(r.id);
    switch (r.type) {
      case 'fatal':
        this.die(r.message);
        return;
      case 'error':
        if (!p) return this.onRaw?.(r);
        this.pending.delete(r.id!);
        p.reject(new EngineError(r.message));
        return;
      case 'progress':
        if (p?.kind === 'search') p.onProgress?.(r.progress);
        return;
      case 'sample':
        if (p?.kind === 'search') p.onSample?.({ step: r.step, stats: r.stats, tree: r.tree });
        return;
      case 'trainProgress':
        if (p?.kind === 'train') p.onProgress?.({ progress: r.progress, trainMs: r.trainMs, parameters: r.parameters });
        return;
      case 'solveProgress':
        if (p?.kind === 'solve') p.onProgress?.(solveReport(r));
        return;
      case 'hello':
      case 'state':
      case 'searchDone':
      case 'cancelled':
      case 'ack':
      case 'merged':
      case 'inspection':
      case 'arenaGame':
      case 'arenaStandings':
      case 'step':
      case 'record':
      case 'recordText':
      case 'positionView':
      case 'trainStopped':
      case 'trainWeights':
      case 'netLoaded':
      case 'evaluation':
      case 'solveDone':
      case 'reviewedPosition':
      case 'reviewReport':
      case 'judgedMove':
        if (!p) return this.onRaw?.(r);
        this.pending.delete(r.id);
        this.settle(p, r);
        return;
      default:
        assertNever(r);
    }
  }

  private settle(
    p: Pending,
    r: Exclude<Response, { type: 'fatal' | 'error' | 'progress' | 'sample' | 'trainProgress' | 'solveProgress' }>,
  ): void {
    const mismatch = () => p.reject(new EngineError(`unexpected '${r.type}' answer to a '${p.kind}' request`));
    switch (r.type) {
      case 'hello':
        if (p.kind !== 'hello') return mismatch();
        return p.resolve({ version: r.version, presets: r.presets, specs: r.specs, netPresets: r.netPresets ?? [], nets: r.nets ?? [] });
      case 'state':
        if (p.kind !== 'state') return mismatch();
        return p.resolve(r.snapshot);
      case 'searchDone':
        if (p.kind !== 'search') return mismatch();
        return p.resolve({ result: r.result, stats: r.stats, ...(r.report ? { report: r.report } : {}) });
      case 'cancelled':
        return p.reject(new SearchCancelled('search cancelled'));
      case 'ack':
        if (p.kind !== 'ack') return mismatch();
        return p.resolve();
      case 'merged':
        if (p.kind !== 'merge') return mismatch();
        return p.resolve({ stats: r.stats, ...(r.report ? { report: r.report } : {}) });
      case 'inspection':
      case 'arenaGame':
      case 'arenaStandings':
      case 'step':
      case 'record':
      case 'recordText':
      case 'positionView':
      case 'netLoaded':
      case 'evaluation':
      case 'reviewedPosition':
      case 'reviewReport':
      case 'judgedMove':
        if (p.kind !== 'viz' || p.answer !== r.type) return mismatch();
        return p.resolve(r);
      case 'trainStopped':
        if (p.kind !== 'train') return mismatch();
        return p.resolve({ reason: r.reason, progress: r.progress, trainMs: r.trainMs });
      case 'trainWeights':
        if (p.kind !== 'weights') return mismatch();
        return p.resolve(r.bytes);
      case 'solveDone':
        if (p.kind !== 'solve') return mismatch();
        return p.resolve({ ...solveReport(r), result: r.result });
      default:
        assertNever(r);
    }
  }
}

/** The report part of a `solveProgress` / `solveDone` message. */
function solveReport(r: SolveReport): SolveReport {
  return {
    rootWins: r.rootWins,
    ...(r.rootValue !== undefined ? { rootValue: r.rootValue } : {}),
    winningMove: r.winningMove,
    ...(r.bestMove !== undefined ? { bestMove: r.bestMove } : {}),
    ...(r.solver !== undefined ? { solver: r.solver } : {}),
    toMove: r.toMove,
    moves: r.moves,
    stats: r.stats,
    ms: r.ms,
    ttBytes: r.ttBytes,
    continued: r.continued,
  };
}
