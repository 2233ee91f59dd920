// Training, in the Train panel's worker only (`EngineClient.trainer()`, named `mcts-train`). The
// training package (`pkg-train/`: the same crate built with the feature `train`, burn inside) is
// imported on the first `trainStart`, so neither the page's first load nor a search worker ever
// fetches it. A run advances in bounded steps (a few self-play games or Adam steps each); between
// chunks of steps the worker yields to its message queue, so Pause and weight requests are
// answered at once.

import type { Request, TrainProgress, TrainRequest } from '../protocol';
import { assertNever } from '../protocol';
import { isTrap, message, send, sendTransferring } from './send';
import { importTraining, type TrainModule } from './wasm';

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
  trainModule ??= importTraining().then(async (m) => {
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
export async function handleTrain(req: Request): Promise<void> {
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
        sendTransferring({ type: 'trainWeights', id: req.id, bytes }, [bytes]);
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
