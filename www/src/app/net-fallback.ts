// Net fallback for the game's engine: a side whose preset needs a trained network the game does
// not have plays on with a net-free preset, and the page says so (play/net-fallback.ts words it).

import { EngineError } from '../engine';
import { fallbackMessage, isNoNetError, netFreeFallback } from '../play/net-fallback';
import type { Player } from '../protocol';
import type { SideSettings } from '../types';
import { type App, showMessage, st } from './context';

/** When `e` says the game has no trained network for side `side`'s preset, switches that side
 * to a net-free preset and says so; false when `e` is another error (or no preset fits). */
export function fallBackFromNet(app: App, side: Player, preset: string, spec: string, e: unknown): boolean {
  if (!(e instanceof EngineError) || !isNoNetError(e.message)) return false;
  const fb = netFreeFallback(st(app).presets);
  if (!fb) return false;
  const next: [SideSettings, SideSettings] = [st(app).sides[0], st(app).sides[1]];
  next[side] = { ...next[side], preset: fb };
  app.store.update({ sides: next });
  showMessage(app, fallbackMessage(preset, spec, fb, e.message), 'error');
  return true;
}
