/// <reference lib="webworker" />
// The engine worker: the only importer of the wasm package (pkg/, built by wasm-bindgen --target web).
//
// It holds one game (with its history) and one search tree per slot (tree reuse across moves).
// Searches run in chunks of a few milliseconds; between chunks the worker yields to its message
// queue, so `stop`, `cancel` and new requests take effect at once and progress goes out several
// times a second. Every request gets an answer; a malformed one gets an `error` response; a panic
// in the engine becomes a `fatal` response with the panic's message.

import init, {
  GameSession,
  SearchSession,
  takePanicMessage,
  version,
  exampleSpecs,
  debugPanic,
  presets,
  mergeRootStats,
  rootParallelReport,
  SolveSession,
} from '../../pkg/mcts_playground.js';
import { arenaPlayGame, arenaStandings } from '../../pkg/mcts_playground.js';
import { parseRecord, writeRecord } from '../../pkg/mcts_playground.js';
import { MoveJudge, ReviewSession, reviewReport } from '../../pkg/mcts_playground.js';
import {
  evaluatePosition,
  loadNet,
  loadPatterns,
  loadShippedNet,
  netInfo,
  netPresets,
  patternsLoaded,
  shippedNets,
  shippedPatterns,
  usesNet,
  usesPatterns,
} from '../../pkg/mcts_playground.js';
import { buildTreeSnapshot, transferables } from './tree/snapshot';
import { assertNever, parseRequest } from './protocol';
import type { Budget, EngineSettings, Request, Response, SearchEnd, SearchProgress, SearchReportJson, SearchStats } from './protocol';
import type { FullStats, GameRecord, SampleQuery, SearchFigures, Standings, TreeQuery } from './protocol';
import type { IterationTrace } from './protocol';
import type { GameRecordText } from './protocol';
import type { TrainProgress, TrainRequest } from './protocol';
import type { NetInfo, PositionEvaluation, ShippedNet } from './protocol';
import type { SolveEnd, SolveReport, SolvePosition } from './protocol';
import type { PositionReview, ReviewGame } from './protocol';
import type { ReviewPly, ReviewReport } from './review/report';

declare const self: DedicatedWorkerGlobalScope;

/** Milliseconds of search per chunk before yielding to the message queue. */
const CHUNK_MS = 8;

let game: GameSession | null = null;
/** Search trees by slot, each following the game by tree reuse. */
const trees = new Map<string, EngineSearch>();
/** The running search, if any. */
let active: ActiveSearch | null = null;
/** Set once the engine has trapped; every later request gets `fatal`. */
let dead: string | null = null;

interface ActiveSearch {
  id: number;
  tree: EngineSearch;
  budget: Budget;
  progressMs: number;
  started: number;
  lastProgress: number;
  playouts: number;
  engineMs: number;
  stopRequested: boolean;
  /** Samples at equal steps of a playouts budget (the request's `samples`), and the next step. */
  samples: SampleQuery | null;
  sampleStep: number;
}

function send(r: Response): void {
  self.postMessage(r);
}

function message(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** A trap in the engine (panic → `unreachable`) leaves the module unusable: say why, once. */
function fatal(id: number | null, e: unknown): void {
  const panic = (() => {
    try {
      return takePanicMessage() ?? null;
    } catch {
      return null;
    }
  })();
  dead = panic ? `engine panicked: ${panic.replace(/\s*\n\s*/g, ' ')}` : `engine crashed: ${message(e)}`;
  active = null;
  trees.clear();
  solving = null;
  keptSolve = null;
  send({ type: 'fatal', id, message: dead });
}

function isTrap(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError;
}

function requireGame(): GameSession {
  if (!game) throw new Error('no game: send newGame first');
  return game;
}

/** A fresh game of `spec` with `moves` replayed; throws naming the bad move (1-based). */
function replayed(spec: string, moves: readonly string[]): GameSession {
  const g = new GameSession(spec);
  for (const [i, m] of moves.entries()) {
    try {
      g.play(m);
    } catch (e) {
      g.free();
      throw new Error(`move ${i + 1} (${m}): ${message(e)}`);
    }
  }
  return g;
}

function stateOf(id: number): Response {
  return { type: 'state', id, snapshot: requireGame().snapshot() };
}

/** Ends the running search (if any) with `cancelled`, e.g. before the game changes under it. */
function cancelActive(): void {
  if (active) {
    send({ type: 'cancelled', id: active.id });
    active = null;
  }
}

// ---- search ----------------------------------------------------------------------------------

function progressOf(s: ActiveSearch): SearchProgress {
  const st: SearchStats = s.tree.stats();
  const elapsed = performance.now() - s.started;
  const best = st.children[0];
  return {
    playouts: s.playouts,
    leaf: st.leaf ?? null,
    playoutsPerS: elapsed > 0 ? (s.playouts * 1000) / elapsed : 0,
    elapsedMs: elapsed,
    engineMs: s.engineMs,
    bestMove: st.best_move,
    winRate: best && best.visits > 0 ? st.value : null,
    pv: st.pv,
    proven: st.proven,
    nodes: st.nodes,
    nodeCap: st.tree_cap === 'node_cap' ? s.tree.nodeCap() : null,
    memoryCap: st.tree_cap === 'memory_cap' ? (st.memory_cap_bytes ?? null) : null,
  };
}

/** This search's own figures (the tree's statistics count every iteration since the tree was
 * built, earlier moves' searches included). */
function figuresOf(s: ActiveSearch): SearchFigures {
  return { playouts: s.playouts, elapsedMs: performance.now() - s.started, engineMs: s.engineMs };
}

function finish(s: ActiveSearch, end: SearchEnd): void {
  active = null;
  s.tree.lastSearch = figuresOf(s);
  const p = progressOf(s);
  const stats = s.tree.stats();
  let report: SearchReportJson;
  try {
    report = s.tree.report();
  } catch (e) {
    if (isTrap(e)) return fatal(s.id, e);
    send({ type: 'error', id: s.id, message: `the search's report: ${message(e)}` });
    return;
  }
  send({ type: 'searchDone', id: s.id, result: { ...p, move: s.tree.bestMove(), end }, stats, report });
}

const channel = new MessageChannel();
channel.port1.onmessage = () => step();
/** Queue the next chunk behind any pending messages (a MessageChannel task, not clamped like setTimeout). */
function schedule(): void {
  channel.port2.postMessage(null);
}

function step(): void {
  const s = active;
  if (!s) return;
  if (s.stopRequested) return finish(s, 'stopped');
  let millis = CHUNK_MS;
  let iterations: number | undefined;
  if (s.budget.kind === 'millis') {
    // Milliseconds of search: the time spent in the engine's chunks, as `mcts search --ms` counts
    // it, not the messages the worker answers between chunks (an inspection of the tree, another
    // page's poll), so two searches given the same budget search for the same time.
    const left = s.budget.value - s.engineMs;
    if (left <= 0) return finish(s, 'budget');
    millis = Math.min(CHUNK_MS, left);
  } else {
    const left = s.budget.value - s.playouts;
    if (left <= 0) return finish(s, 'budget');
    // With samples, a chunk ends at the next step (the engine's results do not depend on it).
    iterations = s.samples ? Math.min(left, nextSampleAt(s) - s.playouts) : left;
  }
  let report: RunReport;
  try {
    report = s.tree.run(millis, iterations);
  } catch (e) {
    if (isTrap(e)) return fatal(s.id, e);
    active = null;
    send({ type: 'error', id: s.id, message: message(e) });
    return;
  }
  s.playouts += report.iterations;
  s.engineMs += report.elapsed_ms;
  if (s.samples && s.playouts >= nextSampleAt(s)) {
    if (!postSample(s)) return;
  }
  if (report.stop === 'root_proven') return finish(s, 'proven');
  if (report.stop === 'game_over') return finish(s, 'gameOver');
  if (report.stop === 'node_cap') return finish(s, 'nodeCap');
  if (report.stop === 'memory_cap') return finish(s, 'memoryCap');
  const now = performance.now();
  if (now - s.lastProgress >= s.progressMs) {
    s.lastProgress = now;
    send({ type: 'progress', id: s.id, progress: progressOf(s) });
  }
  schedule();
}

/** The playouts at which the search's next sample is due (a playouts budget with samples). */
function nextSampleAt(s: ActiveSearch): number {
  const q = s.samples!;
  // The k-th step ends at round(budget·k/steps); a step of no playouts (a budget under the
  // number of steps) is skipped.
  const at = (k: number) => Math.round((s.budget.value * k) / q.steps);
  while (s.sampleStep < q.steps && at(s.sampleStep) <= at(s.sampleStep - 1)) s.sampleStep++;
  return at(s.sampleStep);
}

/** Posts the sample of the step just reached and moves to the next; false if the engine failed. */
function postSample(s: ActiveSearch): boolean {
  const q = s.samples!;
  const step = s.sampleStep;
  s.sampleStep++;
  try {
    const tree = q.tree && step % q.treeEvery === 0 ? s.tree.treeSnapshot(q.tree) : null;
    const r: Response = { type: 'sample', id: s.id, step, stats: { ...s.tree.fullStats(), search: figuresOf(s) }, tree };
    self.postMessage(r, tree ? transferables(tree) : []);
    return true;
  } catch (e) {
    if (isTrap(e)) {
      fatal(s.id, e);
      return false;
    }
    active = null;
    send({ type: 'error', id: s.id, message: `the search's sample: ${message(e)}` });
    return false;
  }
}

function startSearch(
  id: number,
  slot: string,
  engine: EngineSettings,
  budget: Budget,
  progressMs: number,
  samples: SampleQuery | null = null,
): void {
  const g = requireGame();
  if (g.isOver()) throw new Error('the game is over: nothing to search');
  cancelActive();
  let tree = trees.get(slot);
  if (tree && tree.netEpoch !== netEpoch) {
    // Built before the last loadNet: its evaluator holds the previous net.
    tree.free();
    trees.delete(slot);
    tree = undefined;
  }
  if (tree) {
    tree.configure(engine);
    tree.follow(g);
  } else {
    tree = createSearch(g, engine);
    trees.set(slot, tree);
  }
  const now = performance.now();
  active = {
    id,
    tree,
    budget,
    progressMs: Math.max(50, progressMs),
    started: now,
    lastProgress: now,
    playouts: 0,
    engineMs: 0,
    stopRequested: false,
    samples: budget.kind === 'playouts' ? samples : null,
    sampleStep: 1,
  };
  schedule();
}

// ---- requests --------------------------------------------------------------------------------

function handle(req: Request): void {
  switch (req.type) {
    case 'hello':
      send({
        type: 'hello',
        id: req.id,
        version: version(),
        presets: presetNames(),
        specs: exampleSpecs(),
        netPresets: netPresets(),
        nets: shippedNets() as ShippedNet[],
      });
      return;
    case 'newGame': {
      cancelActive();
      const g = replayed(req.spec, req.moves);
      game?.free();
      game = g;
      for (const t of trees.values()) t.free();
      trees.clear();
      send(stateOf(req.id));
      return;
    }
    case 'play': {
      const g = requireGame();
      if (req.ply !== undefined && g.ply() !== req.ply) {
        throw new Error(`stale move ${req.move}: it was chosen at move ${req.ply + 1}, the game is at move ${g.ply() + 1}`);
      }
      g.play(req.move);
      cancelActive();
      send(stateOf(req.id));
      return;
    }
    case 'undo':
      cancelActive();
      requireGame().undo();
      send(stateOf(req.id));
      return;
    case 'redo':
      cancelActive();
      requireGame().redo();
      send(stateOf(req.id));
      return;
    case 'search':
      startSearch(req.id, req.slot, req.engine, req.budget, req.progressMs, req.samples ?? null);
      return;
    case 'stop':
      if (active && active.id === req.target) active.stopRequested = true;
      send({ type: 'ack', id: req.id });
      return;
    case 'cancel':
      if (active && active.id === req.target) cancelActive();
      send({ type: 'ack', id: req.id });
      return;
    case 'debugPanic':
      debugPanic('requested by the page (test hook)');
      return;
    case 'mergeStats':
      send({
        type: 'merged',
        id: req.id,
        stats: mergeRootStats(req.parts, req.engine.preset, req.engine.params) as SearchStats,
        report: JSON.parse(rootParallelReport(req.parts, req.engine.preset, req.engine.params)) as SearchReportJson,
      });
      return;
    // ---- visualisation ----
    case 'inspect': {
      const t = trees.get(req.slot);
      const tree = t && req.tree ? t.treeSnapshot(req.tree) : null;
      // With the figures of the slot's latest search (running or done), so that a view shows
      // the playouts and rate of this search, as the engine's readout does.
      const search = t ? (active?.tree === t ? figuresOf(active) : t.lastSearch) : null;
      const r: Response = { type: 'inspection', id: req.id, stats: t ? { ...t.fullStats(), search } : null, tree };
      self.postMessage(r, tree ? transferables(tree) : []);
      return;
    }
    case 'arenaGame': {
      const g = req.game;
      const record = arenaPlayGame(
        g.spec,
        g.a.preset,
        g.a.params,
        g.b.preset,
        g.b.params,
        g.iterations ?? undefined,
        g.millis ?? undefined,
        g.seed,
        g.index,
        g.openings ?? false,
      ) as GameRecord;
      send({ type: 'arenaGame', id: req.id, record });
      return;
    }
    case 'arenaStandings':
      send({ type: 'arenaStandings', id: req.id, standings: arenaStandings(req.records) as Standings });
      return;
    // ---- step-through ----
    case 'stepNew':
    case 'stepRun':
      handleStep(req);
      return;
    // ---- records ----
    case 'parseRecord':
      send({ type: 'record', id: req.id, record: parseRecord(req.text) as GameRecordText });
      return;
    case 'writeRecord':
      send({ type: 'recordText', id: req.id, text: writeRecord(req.spec, req.moves, req.format, req.variations ?? null) });
      return;
    // ---- positions ----
    case 'viewPosition': {
      const g = replayed(req.spec, req.moves);
      try {
        send({ type: 'positionView', id: req.id, snapshot: g.snapshot() });
      } finally {
        g.free();
      }
      return;
    }
    // ---- training: only in the training worker (handled in `onmessage`) ----
    case 'trainStart':
    case 'trainResume':
    case 'trainPause':
    case 'trainWeights':
      throw new Error(`'${req.type}' goes to the training worker (EngineClient.trainer()), not a search worker`);
    // ---- networks ----
    case 'loadNet': {
      const net = loadNet(new Uint8Array(req.bytes), req.name) as NetInfo;
      // Trees built with the previous net keep it: every later search starts a fresh tree (a
      // search running now finishes with the net it has).
      netEpoch++;
      for (const [slot, t] of trees) {
        if (active?.tree === t) continue;
        t.free();
        trees.delete(slot);
      }
      send({ type: 'netLoaded', id: req.id, net });
      return;
    }
    case 'evaluate': {
      const evaluation = evaluatePosition(requireGame(), req.engine.preset, req.engine.params) as PositionEvaluation;
      send({ type: 'evaluation', id: req.id, evaluation });
      return;
    }
    // ---- exact solver ----
    case 'solve':
      startSolve(req.id, req.position, req.budgetMs, req.progressMs ?? 200);
      return;
    case 'solveStop':
      if (solving && solving.id === req.target) solving.stopRequested = true;
      send({ type: 'ack', id: req.id });
      return;
    // ---- game review ----
    case 'reviewPosition': {
      const result = reviewSession(req).reviewPosition(req.index) as PositionReview;
      send({ type: 'reviewedPosition', id: req.id, result });
      return;
    }
    case 'reviewReport':
      send({ type: 'reviewReport', id: req.id, report: reviewReport(req.spec, req.moves, req.settings, req.results) as ReviewReport });
      return;
    case 'judgeMove': {
      judge ??= new MoveJudge();
      const ply = judge.judge(req.spec, req.moves, req.move, req.settings) as ReviewPly;
      send({ type: 'judgedMove', id: req.id, ply });
      return;
    }
    default:
      assertNever(req);
  }
}

// ---- game review -------------------------------------------------------------------------------

/** The move judge of this worker (its exact solvers' tables kept from one judgement to the next),
 * made on the first `judgeMove`. */
let judge: MoveJudge | null = null;

/** The game under review in this worker (its positions and its solvers' tables), by its key. */
let reviewing: { key: string; session: ReviewSession } | null = null;

/** The review session of `g`: the one kept when the game and settings are the same, else a new one. */
function reviewSession(g: ReviewGame): ReviewSession {
  const key = JSON.stringify([g.spec, g.moves, g.settings]);
  if (reviewing?.key !== key) {
    const session = new ReviewSession(g.spec, g.moves, g.settings);
    reviewing?.session.free();
    reviewing = { key, session };
  }
  return reviewing.session;
}

// ---- exact solver ------------------------------------------------------------------------------
// The exact solver (wasm `SolveSession`: proof-number search for Hex, alpha-beta for Tic-Tac-Toe
// and Pentago endgames) runs in slices of a few milliseconds on its own
// MessageChannel, like a search: `solveStop` and other requests are handled between slices. The
// page runs it in a worker of its own (EngineClient.solver()), so the searches keep their thread.

/** Milliseconds of solving per slice before yielding to the message queue. */
const SOLVE_CHUNK_MS = 10;

interface ActiveSolve {
  id: number;
  session: SolveSession;
  started: number;
  budgetMs: number;
  progressMs: number;
  lastProgress: number;
  stopRequested: boolean;
  /** Whether it continues the kept session of the same position. */
  continued: boolean;
}

/** The running solve, if any. */
let solving: ActiveSolve | null = null;
/** The last solve's session and its position, kept with its table (64 MiB) so that a solve of
 * the same position continues where the last one stopped; another position frees it. */
let keptSolve: { key: string; session: SolveSession } | null = null;

function solveReport(s: ActiveSolve): SolveReport {
  const p = s.session.progress() as Omit<SolveReport, 'ms' | 'continued'> & { done: boolean };
  return {
    rootWins: p.rootWins,
    rootValue: p.rootValue ?? null,
    winningMove: p.winningMove,
    bestMove: p.bestMove ?? null,
    ...(p.solver ? { solver: p.solver } : {}),
    toMove: p.toMove,
    moves: p.moves,
    stats: p.stats,
    ms: performance.now() - s.started,
    ttBytes: p.ttBytes,
    continued: s.continued,
  };
}

function finishSolve(s: ActiveSolve, result: SolveEnd): void {
  solving = null;
  send({ type: 'solveDone', id: s.id, result, ...solveReport(s) });
}

const solveChannel = new MessageChannel();
solveChannel.port1.onmessage = () => solveStep();

function solveStep(): void {
  const s = solving;
  if (!s) return;
  if (s.stopRequested) return finishSolve(s, 'stopped');
  const left = s.budgetMs - (performance.now() - s.started);
  if (left <= 0) return finishSolve(s, 'unknown');
  let done: boolean;
  try {
    done = s.session.run(Math.min(SOLVE_CHUNK_MS, left));
  } catch (e) {
    if (isTrap(e)) return fatal(s.id, e);
    solving = null;
    send({ type: 'error', id: s.id, message: message(e) });
    return;
  }
  if (done) return finishSolve(s, 'proven');
  const now = performance.now();
  if (now - s.lastProgress >= s.progressMs) {
    s.lastProgress = now;
    send({ type: 'solveProgress', id: s.id, ...solveReport(s) });
  }
  solveChannel.port2.postMessage(null);
}

function startSolve(id: number, position: SolvePosition, budgetMs: number, progressMs: number): void {
  const key = `${position.spec}|${position.moves.join(' ')}`;
  // A new request supersedes the running solve (which may hold the kept session: it reports first).
  if (solving) finishSolve(solving, 'stopped');
  let session: SolveSession;
  const continued = keptSolve !== null && keptSolve.key === key;
  if (keptSolve && continued) session = keptSolve.session;
  else {
    // The old table goes before the new one is allocated, so the worker's memory holds one.
    keptSolve?.session.free();
    keptSolve = null;
    const g = new GameSession(position.spec);
    try {
      for (const [i, m] of position.moves.entries()) {
        try {
          g.play(m);
        } catch (e) {
          throw new Error(`move ${i + 1} (${m}): ${message(e)}`);
        }
      }
      session = new SolveSession(g);
    } finally {
      g.free();
    }
    keptSolve = { key, session };
  }
  const now = performance.now();
  solving = {
    id,
    session,
    started: now,
    budgetMs,
    progressMs: Math.max(50, progressMs),
    lastProgress: now,
    stopRequested: false,
    continued,
  };
  solveChannel.port2.postMessage(null);
}

// ---- the search engine (wasm SearchSession) -------------------------------------------------

/** What `SearchSession.run` reports (Rust `RunReport`). */
interface RunReport {
  iterations: number;
  elapsed_ms: number;
  stop: 'iterations' | 'time' | 'root_proven' | 'node_cap' | 'game_over' | 'memory_cap';
}

/** Counts `loadNet`s: a tree built before the last one is rebuilt before it searches again. */
let netEpoch = 0;

/** A search tree that follows the game (tree reuse) and runs in chunks. */
interface EngineSearch {
  /** `netEpoch` when the tree was built. */
  readonly netEpoch: number;
  /** The figures of the last search that ran on this tree and finished (null: none yet). */
  lastSearch: SearchFigures | null;
  configure(engine: EngineSettings): void;
  /** Re-roots the tree on the game's current position (reusing the subtree when reachable). */
  follow(game: GameSession): void;
  run(millis: number, iterations: number | undefined): RunReport;
  stats(): SearchStats;
  /** The search's report as `mcts search --json` prints it (the engine's own JSON, parsed). */
  report(): SearchReportJson;
  bestMove(): string | null;
  /** The node cap of the configuration (the tree stops growing there). */
  nodeCap(): number;
  free(): void;
  // ---- visualisation ----
  fullStats(): FullStats;
  treeSnapshot(q: TreeQuery): ReturnType<typeof buildTreeSnapshot>;
}

function createSearch(game: GameSession, engine: EngineSettings): EngineSearch {
  const s = new SearchSession(game, engine.preset, engine.params);
  return {
    netEpoch,
    lastSearch: null,
    configure: (e) => void s.configure(e.preset, e.params),
    follow: (g) => void s.follow(g),
    run: (millis, iterations) => s.run(millis, iterations) as RunReport,
    stats: () => s.stats() as SearchStats,
    report: () => JSON.parse(s.report()) as SearchReportJson,
    bestMove: () => s.bestMove() ?? null,
    nodeCap: () => s.nodeCap(),
    free: () => s.free(),
    fullStats: () => s.stats() as FullStats,
    treeSnapshot: (q) => buildTreeSnapshot(s, q),
  };
}

function presetNames(): string[] {
  return presets();
}
/** The Train panel's worker (`EngineClient.trainer()`) answers only the training requests and
 * never instantiates the search package; the search workers never load the training package. */
const TRAINING = self.name === 'mcts-train';

const ready: Promise<string | null> = TRAINING
  ? Promise.resolve(null)
  : init().then(
      () => null,
      (e: unknown) => `the engine failed to load: ${message(e)}`,
    );

// ---- networks and pattern weights: fetched on first use -------------------------------------
// The wasm module embeds no weights. The first time a request needs a game's network (a search,
// step-through, arena game or evaluation with a network preset), the worker fetches the shipped
// file `models/<file>` from the page's own site and registers it; a net the user loaded
// (`loadNet`) takes its place and is never overwritten by the shipped one. Hex's pattern weights
// (`prior = patterns`) come the same way from `models/hex-patterns.mctspat`.

/** The site's `models/` directory: the built worker runs from `assets/`, the weights files sit
 * in `models/` at the site's root (copied there by the build, see vite.config.ts). */
const MODELS_BASE = new URL('../models/', self.location.href);

/** Fetches in flight by what they load (a game spec, or the pattern weights' file), so
 * overlapping requests share one download. */
const modelLoads = new Map<string, Promise<void>>();

/** The sentence of a failed net load; the page recognises it (play/net-fallback.ts) and falls back. */
function netLoadError(spec: string, file: string, why: string): string {
  return `the network for '${spec}' could not be loaded (models/${file}: ${why})`;
}

/** The sentence of a failed load of the pattern weights. */
function patternLoadError(file: string, why: string): string {
  return `the pattern weights for prior = patterns could not be loaded (models/${file}: ${why})`;
}

/** Fetches `models/<file>` and hands its bytes to `register`; either failing throws `fail(why)`. */
async function fetchModel(file: string, register: (bytes: Uint8Array) => void, fail: (why: string) => string): Promise<void> {
  let bytes: Uint8Array;
  try {
    const r = await fetch(new URL(file, MODELS_BASE));
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    bytes = new Uint8Array(await r.arrayBuffer());
  } catch (e) {
    throw new Error(fail(message(e)));
  }
  try {
    register(bytes);
  } catch (e) {
    if (isTrap(e)) throw e;
    throw new Error(fail(message(e)));
  }
}

/** One fetch of `file` under `key` at a time; a failed one is tried again by the next request. */
function loadOnce(key: string, file: string, register: (bytes: Uint8Array) => void, fail: (why: string) => string): Promise<void> {
  let p = modelLoads.get(key);
  if (!p) {
    p = fetchModel(file, register, fail).finally(() => modelLoads.delete(key));
    modelLoads.set(key, p);
  }
  return p;
}

/** Whether `uses` says yes for these settings; settings the engine refuses are left to the
 * request itself to report. */
function needs(uses: (preset: string, params: unknown) => boolean, engine: EngineSettings): boolean {
  try {
    return uses(engine.preset, engine.params);
  } catch {
    return false;
  }
}

/** Makes sure the net of `spec` is registered when `engine` needs one and one ships. Games
 * without a net are left to the request itself to report. */
async function ensureNet(spec: string, engine: EngineSettings): Promise<void> {
  if (!needs(usesNet, engine) || netInfo(spec) !== null) return;
  const file = (shippedNets() as ShippedNet[]).find((n) => n.spec === spec)?.file;
  if (!file) return;
  await loadOnce(
    spec,
    file,
    (b) => loadShippedNet(spec, b),
    (why) => netLoadError(spec, file, why),
  );
}

/** Makes sure the pattern weights are registered when `engine` has `prior = patterns` on Hex
 * (other games refuse the prior themselves, in the request). */
async function ensurePatterns(spec: string, engine: EngineSettings): Promise<void> {
  if (!spec.startsWith('hex') || !needs(usesPatterns, engine) || patternsLoaded()) return;
  const file = shippedPatterns();
  await loadOnce(
    file,
    file,
    (b) => void loadPatterns(b),
    (why) => patternLoadError(file, why),
  );
}

/** Makes sure what `engine` needs for the game `spec` is registered: its net, the pattern weights. */
async function ensureModels(spec: string, engine: EngineSettings): Promise<void> {
  await ensureNet(spec, engine);
  await ensurePatterns(spec, engine);
}

/** What a request needs loaded before it runs. */
async function prepare(req: Request): Promise<void> {
  switch (req.type) {
    case 'search':
    case 'evaluate':
      if (game) await ensureModels(game.spec(), req.engine);
      return;
    case 'stepNew':
      await ensureModels(normalSpec(req.spec), req.engine);
      return;
    case 'arenaGame':
      await ensureModels(normalSpec(req.game.spec), req.game.a);
      await ensureModels(normalSpec(req.game.spec), req.game.b);
      return;
    case 'reviewPosition':
    case 'judgeMove':
      // The review's preset with no overrides (as `mcts review`); settings it cannot read are
      // left to the request itself to report.
      if (typeof req.settings.preset === 'string') await ensureModels(normalSpec(req.spec), { preset: req.settings.preset, params: {} });
      return;
    default:
      return;
  }
}

/** The engine's spelling of a spec (`hex` → `hex:11`); the spec as given when it does not parse
 * (the request then reports that itself). */
function normalSpec(spec: string): string {
  try {
    const g = new GameSession(spec);
    const s = g.spec();
    g.free();
    return s;
  } catch {
    return spec;
  }
}

async function receive(data: unknown): Promise<void> {
  const loadError = await ready;
  const parsed = parseRequest(data);
  if ('err' in parsed) {
    send({ type: 'error', id: parsed.id, message: parsed.err });
    return;
  }
  const id = parsed.ok.id;
  if (TRAINING) return handleTrain(parsed.ok);
  if (loadError !== null) return send({ type: 'fatal', id, message: loadError });
  if (dead !== null) return send({ type: 'fatal', id, message: dead });
  try {
    await prepare(parsed.ok);
    if (dead !== null) return send({ type: 'fatal', id, message: dead });
    handle(parsed.ok);
  } catch (e) {
    if (isTrap(e)) fatal(id, e);
    else send({ type: 'error', id, message: message(e) });
  }
}

/** Requests are handled one after another in arrival order, also when one waits for a net. */
let queue: Promise<void> = Promise.resolve();
self.onmessage = (ev: MessageEvent<unknown>) => {
  queue = queue.then(() => receive(ev.data));
};

// ---- step-through ----
// One step session apart from the game and its slots: its own position and tree, in record mode.

let stepGame: GameSession | null = null;
let stepSearch: SearchSession | null = null;

function handleStep(req: Extract<Request, { type: 'stepNew' | 'stepRun' }>): void {
  let trace: IterationTrace | null = null;
  if (req.type === 'stepNew') {
    const g = new GameSession(req.spec);
    try {
      for (const [i, m] of req.moves.entries()) {
        try {
          g.play(m);
        } catch (e) {
          throw new Error(`move ${i + 1} (${m}): ${message(e)}`);
        }
      }
      const s = new SearchSession(g, req.engine.preset, req.engine.params);
      s.setRecordPlayouts(true);
      stepSearch?.free();
      stepGame?.free();
      stepGame = g;
      stepSearch = s;
    } catch (e) {
      g.free();
      throw e;
    }
  } else {
    if (!stepSearch) throw new Error('no step-through session: send stepNew first');
    if (req.count > 1) stepSearch.run(1e9, req.count - 1);
    if (req.count >= 1) trace = stepSearch.stepIteration() as IterationTrace;
  }
  const tree = buildTreeSnapshot(stepSearch!, req.tree);
  const r: Response = { type: 'step', id: req.id, trace, tree, stats: stepSearch!.stats() as FullStats };
  self.postMessage(r, transferables(tree));
}

// ---- training (the Train panel's worker) ----
// The training package (`pkg-train/`: the same crate built with the feature `train`, burn inside)
// is imported on the first `trainStart`, so neither the page's first load nor a search worker
// ever fetches it. A run advances in bounded steps (a few self-play games or Adam steps each);
// between chunks of steps the worker yields to its message queue, so Pause and weight requests
// are answered at once.

type TrainModule = typeof import('../../pkg-train/mcts_playground.js');
type Trainer = InstanceType<TrainModule['TrainSession']>;

/** Milliseconds of training steps per chunk before yielding to the message queue. */
const TRAIN_CHUNK_MS = 30;
/** Milliseconds between progress messages (an iteration's end is always sent at once). */
const TRAIN_PROGRESS_MS = 150;
/** Self-play games or Adam steps per engine step. */
const TRAIN_STEP_GAMES = 1;
const TRAIN_STEP_ADAM = 4;

let trainModule: Promise<TrainModule> | null = null;
let trainer: Trainer | null = null;
let trainParameters = 0;
/** The running request (`trainStart`/`trainResume`), if any. */
let training: { id: number; pause: boolean; lastProgress: number } | null = null;
/** Milliseconds spent in training steps (all runs). */
let trainMs = 0;
let trainDead: string | null = null;

function loadTraining(): Promise<TrainModule> {
  trainModule ??= import('../../pkg-train/mcts_playground.js').then(async (m) => {
    await m.default();
    return m;
  });
  return trainModule;
}

function trainFatal(id: number | null, e: unknown, m: TrainModule | null): void {
  let panic: string | null = null;
  try {
    panic = m?.takePanicMessage() ?? null;
  } catch {
    panic = null;
  }
  trainDead = panic ? `the trainer panicked: ${panic.replace(/\s*\n\s*/g, ' ')}` : `the trainer crashed: ${message(e)}`;
  training = null;
  trainer = null;
  send({ type: 'fatal', id, message: trainDead });
}

/** Handles a request in the training worker; the queue of requests waits for it (a Pause sent
 * while the training package loads takes effect once the run has started). */
async function handleTrain(req: Request): Promise<void> {
  if (trainDead !== null) return send({ type: 'fatal', id: req.id, message: trainDead });
  switch (req.type) {
    case 'trainStart':
    case 'trainResume':
    case 'trainPause':
    case 'trainWeights':
      return trainRequest(req);
    default:
      send({ type: 'error', id: req.id, message: `this is the training worker: it answers only training requests, not '${req.type}'` });
  }
}

async function trainRequest(req: TrainRequest): Promise<void> {
  let m: TrainModule | null = null;
  try {
    switch (req.type) {
      case 'trainStart': {
        m = await loadTraining();
        const t = new m.TrainSession(req.settings, TRAIN_STEP_GAMES, TRAIN_STEP_ADAM);
        if (training) endTraining('paused');
        trainer?.free();
        trainer = t;
        trainParameters = t.parameters();
        return runTraining(req.id);
      }
      case 'trainResume':
        if (!trainer) throw new Error('no training run: press Start');
        if (training) endTraining('paused');
        return runTraining(req.id);
      case 'trainPause':
        if (training) training.pause = true;
        return send({ type: 'ack', id: req.id });
      case 'trainWeights': {
        if (!trainer) throw new Error('no trained net yet: start training first');
        const bytes = (trainer.weights() as Uint8Array).slice().buffer;
        self.postMessage({ type: 'trainWeights', id: req.id, bytes } satisfies Response, [bytes]);
        return;
      }
      default:
        assertNever(req);
    }
  } catch (e) {
    if (isTrap(e)) trainFatal(req.id, e, m ?? (trainModule ? await trainModule.catch(() => null) : null));
    else send({ type: 'error', id: req.id, message: message(e) });
  }
}

const trainChannel = new MessageChannel();
trainChannel.port1.onmessage = () => void trainChunk();

function runTraining(id: number): void {
  training = { id, pause: false, lastProgress: 0 };
  trainChannel.port2.postMessage(null);
}

function endTraining(reason: 'paused' | 'done'): void {
  const run = training;
  if (!run || !trainer) return;
  training = null;
  send({ type: 'trainStopped', id: run.id, reason, progress: trainer.progress() as TrainProgress, trainMs });
}

async function trainChunk(): Promise<void> {
  const run = training;
  const t = trainer;
  if (!run || !t) return;
  if (run.pause) return endTraining('paused');
  const t0 = performance.now();
  try {
    let p: TrainProgress;
    do {
      p = t.step() as TrainProgress;
      if (p.finished || p.phase === 'done') break;
    } while (performance.now() - t0 < TRAIN_CHUNK_MS);
    trainMs += performance.now() - t0;
    const now = performance.now();
    if (p.finished || p.phase === 'done' || now - run.lastProgress >= TRAIN_PROGRESS_MS) {
      run.lastProgress = now;
      send({ type: 'trainProgress', id: run.id, progress: p, trainMs, parameters: trainParameters });
    }
    if (p.phase === 'done') return endTraining('done');
  } catch (e) {
    if (isTrap(e)) return trainFatal(run.id, e, await trainModule!.catch(() => null));
    training = null;
    return send({ type: 'error', id: run.id, message: message(e) });
  }
  trainChannel.port2.postMessage(null);
}
