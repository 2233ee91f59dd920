// The game engine's lifecycle: the worker is started with the page; when it dies (a crash, a
// panic in the engine, the test hook) a new one is started and given the game (moves and redo
// list), and the turn loop goes on.

import { EngineClient } from '../engine';
import { show } from './board';
import { type App, errText, setSearch, showMessage, st } from './context';
import { maybeEngineMove } from './turns';

/** A new engine worker for the game, which recovers when it dies. */
export function startEngine(app: App): EngineClient {
  const e = new EngineClient();
  e.onDeath = (why) => void recoverFromDeath(app, why);
  return e;
}

async function recoverFromDeath(app: App, why: string): Promise<void> {
  app.epoch++;
  showMessage(app, `The engine worker stopped (${why}). Starting a new one…`, 'error');
  setSearch(app, null);
  app.store.update({ restoring: true });
  app.engine = startEngine(app);
  try {
    await app.engine.hello();
    const snap = st(app).snapshot;
    if (snap) {
      const s = await app.engine.newGame(snap.view.spec, [...snap.moves, ...snap.redo]);
      let cur = s;
      for (let k = 0; k < snap.redo.length; k++) cur = await app.engine.undo();
      app.store.update({ restoring: false });
      show(app, cur);
    }
    app.store.update({ restoring: false });
    showMessage(app, `The engine worker stopped (${why}). A new one was started; the game is kept.`, 'error');
    maybeEngineMove(app);
  } catch (e) {
    app.store.update({ restoring: false });
    showMessage(app, `The engine could not be restarted: ${errText(e)}`, 'error');
  }
}
