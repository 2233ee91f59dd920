// The game itself: a new game from the Game controls, Undo and Redo (against the engine, back to
// the person's turn), and loading a game and moves (the URL, a record, a lesson, the Train
// view's "Play this net"); each answer of the engine is shown only if no later command came.

import { EngineDied } from '../engine';
import { cannotLoadMessage } from '../lib/echo';
import { findGame, type GameEntry } from '../games';
import { sizeOptions, specOf } from '../play/panel';
import type { Player } from '../protocol';
import type { LoadResult } from '../types';
import { show } from './board';
import { type App, cancelAll, errText, guarded, showMessage, st } from './context';
import { maybeEngineMove } from './turns';

/** The size and swap controls show for the games that have them (Hex), the sizes being the
 * chosen game's. */
export function syncGameControls(app: App): void {
  const { gameSel, sizeSel, swapLabel, hexOpts } = app.ui;
  const game = findGame(gameSel.value);
  const sizes = game?.facts.sizes ?? null;
  if (sizeSel.dataset.game !== game?.name) {
    const keep = sizeSel.value;
    sizeSel.replaceChildren(...sizeOptions(game));
    sizeSel.dataset.game = game?.name ?? '';
    if (sizes) sizeSel.value = sizes.offered.includes(Number(keep)) ? keep : String(sizes.offered[0] ?? sizes.default);
  }
  sizeSel.hidden = !sizes;
  swapLabel.hidden = !game?.swapOption;
  hexOpts.hidden = !sizes && !game?.swapOption;
}

/** The chooser entry of `game` for `wanted` (a spec of it): the entry equal to it, else the
 * longest entry it extends (`pentago:twist:dedup` → `pentago:twist`), else the game's first. */
function choiceFor(game: GameEntry, wanted: string): string {
  const specs = game.facts.choices.map((c) => c.spec);
  const exact = specs.find((c) => c === wanted);
  if (exact) return exact;
  const prefix = specs.filter((c) => wanted.startsWith(`${c}:`)).sort((a, b) => b.length - a.length)[0];
  return prefix ?? specs[0] ?? wanted;
}

/** Selects the game controls that `newGame` reads for `wanted` (a spec; what is not on the lists
 * is left as it was). */
export function selectSpec(app: App, wanted: string): void {
  const { gameSel, sizeSel, swapChk } = app.ui;
  const spec = wanted.trim().toLowerCase();
  const game = findGame(spec);
  if (!game) return;
  gameSel.value = choiceFor(game, spec);
  syncGameControls(app);
  const parts = spec.split(':');
  const sizes = game.facts.sizes;
  if (sizes) {
    const n = Number(parts[1] ?? sizes.default);
    if (sizes.offered.includes(n)) sizeSel.value = String(n);
  }
  if (game.swapOption) swapChk.checked = parts.includes('swap');
}

/** A new game as the Game controls say. */
export async function newGame(app: App): Promise<void> {
  if (st(app).restoring) return;
  cancelAll(app);
  const { gameSel, sizeSel, swapChk, readout } = app.ui;
  const wanted = specOf(gameSel.value, Number(sizeSel.value), swapChk.checked);
  app.store.update({ review: null });
  const myEpoch = ++app.epoch;
  try {
    const s = await app.engine.newGame(wanted, []);
    if (app.epoch !== myEpoch) return;
    // A new game ends a hold of the engine that Back or Forward put (share/hooks.ts onPopState);
    // engine against engine stays paused until Resume.
    const sides = st(app).sides;
    if (st(app).paused && !(sides[0].who === 'engine' && sides[1].who === 'engine')) app.store.update({ paused: false });
    showMessage(app, '');
    readout.replaceChildren();
    app.store.update({ gameTree: null });
    show(app, s);
    maybeEngineMove(app);
  } catch (e) {
    if (e instanceof EngineDied) return;
    showMessage(app, `Cannot start ${wanted}: ${errText(e)}`, 'error');
  }
}

/** Whether side `p` is the engine and the other side a person. */
function engineAgainstPerson(app: App, p: Player): boolean {
  const sides = st(app).sides;
  return sides[p].who === 'engine' && sides[(1 - p) as Player].who === 'person';
}

export async function undo(app: App): Promise<void> {
  if (st(app).restoring) return;
  cancelAll(app);
  // Only the last command's answer is shown: when Undo/Redo/a new game came after this one, its
  // answer (a later state of the worker's game) follows, and a search started on this one's would
  // run on a position the worker has left.
  const myEpoch = ++app.epoch;
  let s = await guarded(app, app.engine.undo());
  if (!s || app.epoch !== myEpoch) return;
  // Against the engine, step back to the person's turn.
  const p = s.view.to_move;
  if (p !== null && engineAgainstPerson(app, p) && s.moves.length > 0) {
    s = (await guarded(app, app.engine.undo())) ?? s;
    if (app.epoch !== myEpoch) return;
  }
  const sides = st(app).sides;
  if (sides[0].who === 'engine' && sides[1].who === 'engine') app.store.update({ paused: true });
  app.epoch++;
  show(app, s);
  maybeEngineMove(app);
}

export async function redo(app: App): Promise<void> {
  if (st(app).restoring) return;
  cancelAll(app);
  const myEpoch = ++app.epoch;
  let s = await guarded(app, app.engine.redo());
  if (!s || app.epoch !== myEpoch) return;
  const p = s.view.to_move;
  if (p !== null && engineAgainstPerson(app, p) && s.redo.length > 0) {
    s = (await guarded(app, app.engine.redo())) ?? s;
    if (app.epoch !== myEpoch) return;
  }
  app.epoch++;
  show(app, s);
  maybeEngineMove(app);
}

/** Loads a game and moves (checked by the engine); on error the message names the bad move and
 * the page keeps what it had. The game's tree of variations starts afresh with it, unless
 * `keepTree` (a line of the same tree: the analysis board going to a variation). */
export async function loadGame(app: App, wanted: string, moves: string[], opts: { keepTree?: boolean } = {}): Promise<LoadResult> {
  const failed = (reason: string): LoadResult => ({
    ok: false,
    reason,
    message: cannotLoadMessage(wanted, moves, reason),
  });
  if (st(app).restoring) return failed('the engine is restarting');
  cancelAll(app);
  app.store.update({ review: null });
  const myEpoch = ++app.epoch;
  try {
    const s = await app.engine.newGame(wanted, moves);
    if (app.epoch !== myEpoch) return failed('another game was started meanwhile');
    selectSpec(app, s.view.spec);
    app.ui.readout.replaceChildren();
    if (!opts.keepTree) app.store.update({ gameTree: null });
    show(app, s);
    maybeEngineMove(app);
    return { ok: true };
  } catch (e) {
    if (e instanceof EngineDied) return failed(e.message);
    const r = failed(errText(e));
    if (!r.ok) showMessage(app, r.message, 'error');
    return r;
  }
}

/** The Game controls, New game, Undo and Redo. */
export function bindGameControls(app: App): void {
  const { gameSel, sizeSel, swapChk, newBtn, undoBtn, redoBtn } = app.ui;
  gameSel.addEventListener('change', () => {
    syncGameControls(app);
    void newGame(app);
  });
  sizeSel.addEventListener('change', () => void newGame(app));
  swapChk.addEventListener('change', () => void newGame(app));
  newBtn.addEventListener('click', () => void newGame(app));
  undoBtn.addEventListener('click', () => void undo(app));
  redoBtn.addEventListener('click', () => void redo(app));
}
