// The worker's one import of the wasm packages (built by wasm-bindgen --target web): every file
// under src/worker/ takes the engine from here, and no file outside src/worker/ imports a package
// (the page reaches the engine only through the worker protocol, protocol.ts).
//
// `pkg/` is the search engine, loaded by every worker but the training one; `pkg-train/` (the same
// crate built with the feature `train`, burn inside) is imported only by `importTraining`, on the
// training worker's first `trainStart`, so it stays a chunk of its own that the page's first load
// and the search workers never fetch.

export {
  arenaPlayGame,
  arenaStandings,
  debugPanic,
  evaluatePosition,
  exampleSpecs,
  GameSession,
  default as init,
  loadNet,
  loadPatterns,
  loadShippedNet,
  MoveJudge,
  mergeRootStats,
  netInfo,
  netPresets,
  parseRecord,
  patternsLoaded,
  presets,
  ReviewSession,
  reviewReport,
  rootParallelReport,
  SearchSession,
  SolveSession,
  shippedNets,
  shippedPatterns,
  takePanicMessage,
  usesNet,
  usesPatterns,
  version,
  writeRecord,
} from '../../../pkg/mcts_playground.js';

/** The training package's module (`pkg-train/`). */
export type TrainModule = typeof import('../../../pkg-train/mcts_playground.js');

/** Imports the training package (a separate chunk of the build, fetched on this first call). */
export function importTraining(): Promise<TrainModule> {
  return import('../../../pkg-train/mcts_playground.js');
}
