// Hint: the game's engine searches the person's position for a second with the opponent's
// preset (or the person's own when a person plays both sides) and marks the move it found.

import { EngineError } from '../engine';
import { winRate } from '../lib/format';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import type { Budget, Player } from '../protocol';
import { teach } from '../share/hooks';
import { personToMove } from '../state';
import { showProgress } from './board';
import { type App, guarded, runningSearch, setSearch, showMessage, st } from './context';
import { engineSearch } from './turns';

const HINT_BUDGET: Budget = { kind: 'millis', value: 1000 };

/** Asks for a hint (with `override` as the preset: the net-free fallback, and its `note`). */
export function hint(app: App, override?: string, note = ''): void {
  const s = st(app).snapshot;
  if (!s || app.search || !personToMove(st(app)) || s.view.to_move === null) return;
  const p = s.view.to_move;
  const sides = st(app).sides;
  const other = sides[(1 - p) as Player];
  const preset = override ?? (other.who === 'engine' ? other.preset : sides[p].preset);
  const handle = engineSearch(app, {
    slot: 'hint',
    engine: { preset, params: teach.engineParams(p) },
    budget: HINT_BUDGET,
    onProgress: (pr) => showProgress(app, pr, 'Hint: thinking…', p),
  });
  const myEpoch = app.epoch;
  setSearch(app, { handle, purpose: 'hint', side: p, epoch: myEpoch });
  let fallback: string | null = null;
  void (async () => {
    const out = await guarded(app, handle.done, (e) => {
      // A network preset without a usable net: the hint comes from a net-free preset.
      if (override !== undefined || !(e instanceof EngineError) || !isNoNetError(e.message)) return false;
      fallback = netFreeFallback(st(app).presets);
      if (fallback) note = fallbackMessage(preset, s.view.spec, fallback, e.message);
      return fallback !== null;
    });
    if (runningSearch(app)?.handle === handle) setSearch(app, null);
    if (fallback && app.epoch === myEpoch) return hint(app, fallback, note);
    if (out && app.epoch === myEpoch && out.result.move) {
      const rate = out.result.winRate === null ? '' : ` (win rate ${winRate(out.result.winRate)})`;
      showMessage(app, `Hint: ${out.result.move}${rate}${note ? `. ${note}` : ''}`, note ? 'error' : 'info');
      showProgress(app, out.result, `Hint: ${out.result.move}`, p);
      app.store.update({ hint: [out.result.move] });
    }
  })();
}

/** Cancels a running hint search and clears the hint on the board. */
export function cancelHint(app: App): void {
  if (app.search?.purpose === 'hint') {
    app.search.handle.cancel();
    setSearch(app, null);
  }
  app.store.update({ hint: [] });
}
