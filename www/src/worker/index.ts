/// <reference lib="webworker" />
// The engine worker's entry (engine.ts creates it, named `mcts-engine`, `mcts-solve` or
// `mcts-train`): it receives the page's requests, checks them (protocol.ts `parseRequest`) and
// handles them one after another in arrival order, each by the file of its concern:
//
//   search.ts  the game and its searches (one tree per slot, tree reuse across moves)
//   step.ts    the step-through session        solve.ts   the exact solver
//   review.ts  game review and the move judge  arena.ts   arena games and standings
//   records.ts records and positions           models.ts  nets and pattern weights, fetched on first use
//   train.ts   training (the `mcts-train` worker only; the training package loaded lazily)
//
// The files under src/worker/ are the worker, the only importer of the wasm packages (wasm.ts).
// Every request gets an answer; a malformed one gets an `error` response; a panic in the engine
// becomes a `fatal` response with the panic's message (fatal.ts), and every later request too.

import type { Request, ShippedNet } from '../protocol';
import { assertNever, parseRequest } from '../protocol';
import { handleArena } from './arena';
import { deathMessage, fatal } from './fatal';
import { prepare } from './models';
import { handleRecord } from './records';
import { handleReview } from './review';
import { handleSearch } from './search';
import { isTrap, message, send } from './send';
import { handleSolve } from './solve';
import { handleStep } from './step';
import { handleTrain } from './train';
import { debugPanic, exampleSpecs, init, netPresets, presets, shippedNets, version } from './wasm';

declare const self: DedicatedWorkerGlobalScope;

/** The Train panel's worker (`EngineClient.trainer()`) answers only the training requests and
 * never instantiates the search package; the search workers never load the training package. */
const TRAINING = self.name === 'mcts-train';

const ready: Promise<string | null> = TRAINING
  ? Promise.resolve(null)
  : init().then(
      () => null,
      (e: unknown) => `the engine failed to load: ${message(e)}`,
    );

/** Hands a request to the file of its concern. */
function handle(req: Request): void {
  switch (req.type) {
    case 'hello':
      send({
        type: 'hello',
        id: req.id,
        version: version(),
        presets: presets(),
        specs: exampleSpecs(),
        netPresets: netPresets(),
        nets: shippedNets() as ShippedNet[],
      });
      return;
    case 'debugPanic':
      debugPanic('requested by the page (test hook)');
      return;
    case 'newGame':
    case 'play':
    case 'undo':
    case 'redo':
    case 'search':
    case 'stop':
    case 'cancel':
    case 'mergeStats':
    case 'inspect':
    case 'loadNet':
    case 'evaluate':
      return handleSearch(req);
    case 'arenaGame':
    case 'arenaStandings':
      return handleArena(req);
    case 'stepNew':
    case 'stepRun':
      return handleStep(req);
    case 'parseRecord':
    case 'writeRecord':
    case 'viewPosition':
      return handleRecord(req);
    case 'solve':
    case 'solveStop':
      return handleSolve(req);
    case 'reviewPosition':
    case 'reviewReport':
    case 'judgeMove':
      return handleReview(req);
    // ---- training: only in the training worker (handled in `receive`) ----
    case 'trainStart':
    case 'trainResume':
    case 'trainPause':
    case 'trainWeights':
      throw new Error(`'${req.type}' goes to the training worker (EngineClient.trainer()), not a search worker`);
    default:
      assertNever(req);
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
  const dead = deathMessage();
  if (dead !== null) return send({ type: 'fatal', id, message: dead });
  try {
    await prepare(parsed.ok);
    // The engine may have died while the request waited for its net.
    const died = deathMessage();
    if (died !== null) return send({ type: 'fatal', id, message: died });
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
