// The step-through: one session apart from the game and its slots, with its own position and
// tree in record mode, advanced one iteration (or a count of them) at a time.

import type { FullStats, IterationTrace, Request } from '../protocol';
import { buildTreeSnapshot, transferables } from '../tree/snapshot';
import { replayed } from './game';
import { sendTransferring } from './send';
import { type GameSession, SearchSession } from './wasm';

/** The requests this file answers. */
export type StepRequest = Extract<Request, { type: 'stepNew' | 'stepRun' }>;

let stepGame: GameSession | null = null;
let stepSearch: SearchSession | null = null;

/** Answers `stepNew` (a new session; the one before is freed once the new one stands) and
 * `stepRun` (`count` iterations, the trace of the last one). */
export function handleStep(req: StepRequest): void {
  let trace: IterationTrace | null = null;
  if (req.type === 'stepNew') {
    const g = replayed(req.spec, req.moves);
    try {
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
  sendTransferring({ type: 'step', id: req.id, trace, tree, stats: stepSearch!.stats() as FullStats }, transferables(tree));
}
