// The turn loop: when it is an engine's turn (and nothing else runs) the game's engine searches
// the position, keeps the search behind its move, and plays it; a person's move goes to the
// engine at the ply shown. Engine against engine moves at a pace a person can follow.

import { playerName } from '../games';
import { EngineDied, EngineError, type SearchHandle, type SearchOptions } from '../engine';
import { searchParallel } from '../parallel';
import { addSearch, archiveQuery, rootSummary, type MoveSearch } from '../play/searches';
import type { Budget, Snapshot } from '../protocol';
import { teach } from '../share/hooks';
import type { SideSettings } from '../types';
import { redrawBoard, show, showProgress } from './board';
import { type App, errText, guarded, runningSearch, setSearch, showMessage, st } from './context';
import { fallBackFromNet } from './net-fallback';
import { holdForTeaching } from './teach-game';

/** Pause between moves when two engines play, so a person can follow. */
const ENGINE_PACE_MS = 120;

/** The game engine's search of the current position: on the engine alone (Workers 1), or
 * root-parallel on it and Workers − 1 helpers given the same position (parallel.ts). */
export function engineSearch(app: App, opts: SearchOptions): SearchHandle {
  const n = st(app).workers;
  const snap = st(app).snapshot;
  if (n <= 1 || !snap) return app.engine.search(opts);
  return searchParallel(app.engine, app.helperPool.take(n - 1), { spec: snap.view.spec, moves: snap.moves }, opts);
}

function budgetOf(s: SideSettings): Budget {
  return { kind: s.budgetKind, value: s.budgetValue };
}

/** Asks the worker for the final statistics and tree of `slot`'s search of `pos` (which chose
 * `move`) and adds them to the page's log. */
async function keepSearch(app: App, slot: string, preset: string, pos: Snapshot, move: string, playouts: number): Promise<void> {
  const r = await guarded(app, app.engine.inspect(slot, archiveQuery(playouts)));
  if (!r?.stats) return;
  const e: MoveSearch = {
    spec: pos.view.spec,
    before: [...pos.moves],
    summary: rootSummary(r.stats, move, pos.moves.length + 1, preset, 'engine'),
    view: pos.view,
    legal: pos.legal,
    stats: r.stats,
    tree: r.tree,
  };
  app.store.update((s) => ({ searches: addSearch(s.searches, e) }));
}

/** Starts the engine if it is its turn (and nothing else is running). */
export function maybeEngineMove(app: App): void {
  const { snapshot: s, paused, restoring, presets, teaching } = st(app);
  // The teaching game holds the engine while the person's move is judged or its notice is shown.
  if (!s || s.outcome || app.search || paused || restoring || teaching || presets.length === 0) return;
  const side = s.view.to_move;
  if (side === null) return;
  const set = st(app).sides[side];
  if (set.who !== 'engine') return;
  const myEpoch = app.epoch;
  const label = `${playerName(s.view.kind, side)} (engine, ${set.preset}) thinking…`;
  const handle = engineSearch(app, {
    slot: `p${side}`,
    engine: { preset: set.preset, params: teach.engineParams(side) },
    budget: budgetOf(set),
    onProgress: (p) => showProgress(app, p, label, side),
  });
  setSearch(app, { handle, purpose: 'move', side, epoch: myEpoch });
  void (async () => {
    const out = await guarded(app, handle.done, (e) => {
      // A network preset on a game without a trained net: play on with a net-free preset.
      if (runningSearch(app)?.handle !== handle || app.epoch !== myEpoch) return false;
      if (!fallBackFromNet(app, side, set.preset, s.view.spec, e)) return false;
      setSearch(app, null);
      maybeEngineMove(app);
      return true;
    });
    if (runningSearch(app)?.handle !== handle) return;
    setSearch(app, null);
    if (!out || app.epoch !== myEpoch) return;
    teach.onSearchFinished(out.result, side, out.report);
    showProgress(app, out.result, `${playerName(s.view.kind, side)} (engine) played ${out.result.move ?? '–'} (${out.result.end})`, side);
    if (!out.result.move) return;
    // The search behind the move, kept before the move is played (the worker's tree is still the
    // one that chose it): the views go on showing it, and the move list reaches it later.
    await keepSearch(app, `p${side}`, set.preset, s, out.result.move, out.stats.iterations);
    if (app.epoch !== myEpoch) return;
    // At the ply searched: refused (not played elsewhere) if the game moved on meanwhile.
    const next = await guarded(app, app.engine.play(out.result.move, s.view.ply));
    if (!next || app.epoch !== myEpoch) return;
    app.epoch++;
    show(app, next);
    await app.renderer?.settled();
    const sides = st(app).sides;
    if (sides[0].who === 'engine' && sides[1].who === 'engine') await new Promise((ok) => setTimeout(ok, ENGINE_PACE_MS));
    if (app.epoch === myEpoch + 1) maybeEngineMove(app);
  })();
}

/** Plays a person's move at the ply shown, then lets the engine answer. */
export async function playPerson(app: App, move: string): Promise<void> {
  const at = st(app).snapshot;
  if (!at) return;
  const myEpoch = app.epoch;
  try {
    // At the ply shown: a second click before the first move's answer is refused by the worker
    // (it would otherwise be played for the other side).
    const next = await app.engine.play(move, at.view.ply);
    if (app.epoch !== myEpoch) return;
    app.epoch++;
    // A person's move ends a hold of the engine that Back or Forward put (engine against engine
    // stays paused until Resume).
    const sides = st(app).sides;
    if (st(app).paused && !(sides[0].who === 'engine' && sides[1].who === 'engine')) app.store.update({ paused: false });
    showMessage(app, '');
    show(app, next);
    await app.renderer?.settled();
    // Teaching on, against the engine: the move is judged first, the engine replies after.
    if (app.epoch === myEpoch + 1 && holdForTeaching(app, at, next, () => maybeEngineMove(app))) return;
    maybeEngineMove(app);
  } catch (e) {
    if (e instanceof EngineDied) return;
    if (app.board) {
      app.board.pending = null;
      redrawBoard(app);
    }
    // A stale click (the game moved on before its answer) is dropped without a word.
    if (e instanceof EngineError && e.message.startsWith('stale move')) return;
    showMessage(app, e instanceof EngineError ? `Refused: ${e.message}` : errText(e), 'error');
  }
}
