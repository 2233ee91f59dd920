// The play view's controls besides the game's: the Players box (who plays each side, its preset
// and budget), Engine workers, Hint, Stop and Pause. The Players controls write the store's
// `sides`; app/board.ts draws them back from it.

import type { Budget, Player } from '../protocol';
import type { SideSettings, Who } from '../types';
import { render } from './board';
import { type App, cancelAll, st } from './context';
import { hint } from './hint';
import { maybeEngineMove } from './turns';

/** The Players controls of one side as the person set them (a budget not understood is 1000). */
function readSide(app: App, p: Player): SideSettings {
  const s = app.ui.sides[p];
  const v = Math.max(1, Math.round(Number(s.budget.value) || 1000));
  return { who: s.who.value as Who, preset: s.preset.value, budgetKind: s.unit.value as Budget['kind'], budgetValue: v };
}

/** The Players controls into the store. */
export function commitSides(app: App): void {
  app.store.update({ sides: [readSide(app, 0), readSide(app, 1)] });
}

export function bindControls(app: App): void {
  const { hintBtn, stopBtn, workersSel, pauseBtn, sides } = app.ui;
  hintBtn.addEventListener('click', () => hint(app));
  stopBtn.addEventListener('click', () => app.search?.handle.stop());
  workersSel.addEventListener('change', () => {
    const n = Math.max(1, Number(workersSel.value) || 1);
    app.store.update({ workers: n });
    if (n === 1) app.helperPool.clear();
    // Takes effect from the next search (a running one keeps its workers).
  });
  pauseBtn.addEventListener('click', () => {
    const paused = !st(app).paused;
    if (paused && app.search?.purpose === 'move') cancelAll(app);
    app.store.update({ paused });
    maybeEngineMove(app);
  });
  for (const p of [0, 1] as const) {
    const onChange = () => {
      commitSides(app);
      // New settings for a side that is thinking take effect at once: the search restarts with
      // them (the worker keeps the tree where the engine can), or stops if it is a person now.
      if (app.search && app.search.side === p && app.search.purpose === 'move') cancelAll(app);
      render(app);
      maybeEngineMove(app);
    };
    for (const c of [sides[p].who, sides[p].preset, sides[p].budget, sides[p].unit]) c.addEventListener('change', onChange);
  }
}
