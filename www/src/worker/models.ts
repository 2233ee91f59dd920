/// <reference lib="webworker" />
// Networks and pattern weights, fetched on first use. The wasm module embeds no weights. The first
// time a request needs a game's network (a search, step-through, arena game or evaluation with a
// network preset), the worker fetches the shipped file `models/<file>` from the page's own site
// and registers it; a net the user loaded (`loadNet`) takes its place and is never overwritten by
// the shipped one. Hex's pattern weights (`prior = patterns`) come the same way from
// `models/hex-patterns.mctspat`.

import { factsOf } from '../games/facts';
import type { EngineSettings, Request, ShippedNet } from '../protocol';
import { currentGame, normalSpec } from './game';
import { isTrap, message } from './send';
import { loadPatterns, loadShippedNet, netInfo, patternsLoaded, shippedNets, shippedPatterns, usesNet, usesPatterns } from './wasm';

declare const self: DedicatedWorkerGlobalScope;

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

/** Makes sure the pattern weights are registered when `engine` has `prior = patterns` on a game
 * whose facts say the weights are its own (Hex; other games refuse the prior themselves, in the
 * request). */
async function ensurePatterns(spec: string, engine: EngineSettings): Promise<void> {
  if (!factsOf(spec)?.patterns || !needs(usesPatterns, engine) || patternsLoaded()) return;
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

/** Loads what a request needs before it runs (a net, the pattern weights); throws the sentence of
 * a failed load. */
export async function prepare(req: Request): Promise<void> {
  const game = currentGame();
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
