// The game's searches: one search tree per slot, each following the game by tree reuse, and the
// running search, which runs in chunks of a few milliseconds on a MessageChannel of its own;
// between chunks the worker yields to its message queue, so `stop`, `cancel` and new requests take
// effect at once and progress goes out several times a second. Also the requests that change the
// game under the trees (newGame, play, undo, redo) and those that read or replace what they hold
// (inspect, mergeStats, loadNet, evaluate).

import type { Budget, EngineSettings, Request, SearchEnd, SearchProgress, SearchReportJson, SearchStats } from '../protocol';
import type { RunReport } from '../generated/protocol-types';
import type { FullStats, SampleQuery, SearchFigures, TreeQuery } from '../protocol';
import type { NetInfo, PositionEvaluation } from '../protocol';
import { assertNever } from '../protocol';
import { buildTreeSnapshot, transferables } from '../tree/snapshot';
import { fatal, onFatal } from './fatal';
import { replaceGame, replayed, requireGame, stateOf } from './game';
import { isTrap, message, send, sendTransferring } from './send';
import { evaluatePosition, type GameSession, loadNet, mergeRootStats, rootParallelReport, SearchSession } from './wasm';

/** The requests this file answers. */
export type SearchRequest = Extract<
  Request,
  { type: 'newGame' | 'play' | 'undo' | 'redo' | 'search' | 'stop' | 'cancel' | 'mergeStats' | 'inspect' | 'loadNet' | 'evaluate' }
>;

/** Milliseconds of search per chunk before yielding to the message queue. */
const CHUNK_MS = 8;

/** Search trees by slot, each following the game by tree reuse. */
const trees = new Map<string, EngineSearch>();
/** The running search, if any. */
let active: ActiveSearch | null = null;

// A dead engine's trees are not freed (the module can no longer run their destructors).
onFatal(() => {
  active = null;
  trees.clear();
});

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

/** Answers a request of the game and its searches. */
export function handleSearch(req: SearchRequest): void {
  switch (req.type) {
    case 'newGame': {
      cancelActive();
      replaceGame(replayed(req.spec, req.moves));
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
      sendTransferring(
        { type: 'inspection', id: req.id, stats: t ? { ...t.fullStats(), search } : null, tree },
        tree ? transferables(tree) : [],
      );
      return;
    }
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
    default:
      assertNever(req);
  }
}

/** Ends the running search (if any) with `cancelled`, e.g. before the game changes under it. */
function cancelActive(): void {
  if (active) {
    send({ type: 'cancelled', id: active.id });
    active = null;
  }
}

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
    sendTransferring(
      { type: 'sample', id: s.id, step, stats: { ...s.tree.fullStats(), search: figuresOf(s) }, tree },
      tree ? transferables(tree) : [],
    );
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

// ---- the search engine (wasm SearchSession) -------------------------------------------------

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
