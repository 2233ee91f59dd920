// The exact solver (wasm `SolveSession`: proof-number search for Hex, alpha-beta for Tic-Tac-Toe
// and Pentago endgames) runs in slices of a few milliseconds on its own MessageChannel, like a
// search: `solveStop` and other requests are handled between slices. The page runs it in a worker
// of its own (EngineClient.solver()), so the searches keep their thread.

import type { Request, SolveEnd, SolvePosition, SolveReport } from '../protocol';
import { assertNever } from '../protocol';
import { fatal, onFatal } from './fatal';
import { replayed } from './game';
import { isTrap, message, send } from './send';
import { SolveSession } from './wasm';

/** The requests this file answers. */
export type SolveRequest = Extract<Request, { type: 'solve' | 'solveStop' }>;

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

// A dead engine's sessions are not freed (the module can no longer run their destructors).
onFatal(() => {
  solving = null;
  keptSolve = null;
});

/** Answers `solve` (starts a solve; progress and the end follow) and `solveStop`. */
export function handleSolve(req: SolveRequest): void {
  switch (req.type) {
    case 'solve':
      startSolve(req.id, req.position, req.budgetMs, req.progressMs ?? 200);
      return;
    case 'solveStop':
      if (solving && solving.id === req.target) solving.stopRequested = true;
      send({ type: 'ack', id: req.id });
      return;
    default:
      assertNever(req);
  }
}

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
    const g = replayed(position.spec, position.moves);
    try {
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
